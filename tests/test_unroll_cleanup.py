"""Partial unroll with a symbolic trip count: a main loop counted from the loop's own lower
bound with unguarded copies, then a cleanup loop over the rest (CHiLL / Orio), rather than
guarded copies with `%` in their subscripts and an alignment prologue.  Every case is
differential (difftest.check_same) at trip counts 0, 1, F-1, F, F+1 and 2F+3."""
from __future__ import annotations

import re

import pytest

from difftest import KERNELS
from recipe_cases import accepted

F = 4
TRIPS = [0, 1, F - 1, F, F + 1, 2 * F + 3]

MAIN = """int main(void)
{
  lx_seed(77);
  lx_fill_double(&A[0][0], (N + 2) * (N + 2));
  lx_fill_double(X, N + 2);
  kernel();
  lx_dump("X", X, sizeof X);
  lx_dump("A", A, sizeof A);
  return 0;
}
"""


def source(body: str, iters: str = "i, j, k") -> str:
    return f"""#include "harness.h"
#ifndef N
#define N 16
#endif
static double A[N + 2][N + 2], X[N + 2];
static void kernel(void)
{{
  int {iters};
  double t;
#pragma scop
{body}
#pragma endscop
}}
""" + MAIN


# a chain through X makes every reordering of the iterations visible
FLAT = "  for (i = 0; i < N; i++)\n    X[i + 1] = X[i] * 0.75 + A[1][i];"
TWO = ("  for (i = 0; i < N; i++) {\n    t = X[i] * 0.5;\n    X[i + 1] = t + A[1][i];\n"
       "    A[0][i] = t * A[2][i];\n  }")
TRI_LOWER = ("  for (i = 0; i < N; i++)\n    for (k = i; k < N; k++)\n"
             "      X[i + 1] = X[i + 1] * 0.5 + A[i][k] * X[k];")
TRI_UPPER = ("  for (i = 0; i < N; i++)\n    for (j = 0; j <= i; j++)\n"
             "      A[i][j + 1] = A[i][j] * 0.5 + X[j];")
STRIDED = ("  for (i = 0; i < N; i++)\n    for (j = i; j < N; j += 2)\n"
           "      X[i + 1] = X[i + 1] * 0.5 + A[i][j] * X[j];")
REVERSED = ("  for (i = 0; i < N; i++)\n    for (k = N - 1; k >= i; k--)\n"
            "      X[i] = X[i] * 0.5 + A[i][k] * X[k + 1];")
JAM = ("  for (j = 0; j < N; j++)\n    for (i = 0; i < N; i++)\n"
       "      X[i] = X[i] + 0.5 * A[j][i] * A[N + 1][j];")


def region(text: str) -> str:
    return text.split("#pragma scop")[1].split("#pragma endscop")[0]


def kernel(tmp_path, name: str, body: str):
    (tmp_path / "harness.h").write_text((KERNELS / "harness.h").read_text())
    path = tmp_path / name
    path.write_text(source(body))
    return path


def loops(code: str, var: str) -> list[tuple[str, str]]:
    """(header, body) of each `for (int var ...)` loop: the body up to the matching brace, or
    its one statement."""
    out = []
    for m in re.finditer(rf"for \(int {var} = [^\n]*\)( \{{)?\n", code):
        rest = code[m.end():]
        if m.group(1):
            depth, k = 1, 0
            while depth:
                depth += {"{": 1, "}": -1}.get(rest[k], 0)
                k += 1
            out.append((m.group(0), rest[:k - 1]))
        else:
            out.append((m.group(0), rest.split("\n")[0]))
    return out


def count(body: str, stmt: str) -> int:
    """Statements of `body` that begin with `stmt`."""
    return sum(1 for ln in body.split("\n") if ln.strip().startswith(stmt))


def assert_main_and_cleanup(code: str, var: str, stmt: str, copies: int, start: str | None = None):
    found = loops(code, var)
    assert len(found) == 2, code
    (main_head, main_body), (clean_head, clean_body) = found
    assert count(main_body, stmt) == copies, code
    assert count(clean_body, stmt) == 1, code
    assert "%" not in main_head and "%" not in main_body, code
    assert "%" not in clean_body, code
    assert "if (" not in code, code
    if start is not None:
        assert main_head.startswith(f"for (int {var} = {start};"), code


def run_sizes():
    return [{"N": n} for n in TRIPS]


def test_flat_loop_main_and_cleanup(tmp_path):
    k = kernel(tmp_path, "flat.c", FLAT)
    text = region(accepted(k, [f"unroll: {{stmt: 0, loop: i, factor: {F}}}"], run_sizes()))
    assert_main_and_cleanup(text, "i", "X[i", F, start="0")
    assert "for (int i = N - N % 4; i < N; i++)" in text, text


def test_multi_statement_body_whole_iterations(tmp_path):
    k = kernel(tmp_path, "two.c", TWO)
    text = region(accepted(k, [f"unroll: {{stmt: 0, loop: i, factor: {F}}}"], run_sizes()))
    assert_main_and_cleanup(text, "i", "t = X[i", F)
    main = loops(text, "i")[0][1]
    order = [main.index(s) for s in ("t = X[i] * 0.5", "A[0][i] = t", "t = X[i + 1] * 0.5")]
    assert order == sorted(order), text


def test_outer_dependent_start_counted_from_lower_bound(tmp_path):
    k = kernel(tmp_path, "trilo.c", TRI_LOWER)
    text = region(accepted(k, [f"unroll: {{stmt: 0, loop: k, factor: {F}}}"], run_sizes()))
    assert_main_and_cleanup(text, "k", "X[i + 1] = ", F, start="i")
    # the copies are k, k+1, ... of the main loop's own variable: no alignment prologue
    assert "A[i][k + 3]" in text and "A[i][k + 4]" not in text, text


def test_outer_dependent_upper_bound(tmp_path):
    k = kernel(tmp_path, "triup.c", TRI_UPPER)
    text = region(accepted(k, [f"unroll: {{stmt: 0, loop: j, factor: {F}}}"], run_sizes()))
    assert_main_and_cleanup(text, "j", "A[i][j", F, start="0")


@pytest.mark.parametrize("factor", [2, 3])
def test_strided_loop(tmp_path, factor):
    k = kernel(tmp_path, "strided.c", STRIDED)
    sizes = [{"N": n} for n in sorted({0, 1, 2 * factor - 1, 2 * factor, 2 * factor + 1, 4 * factor + 3})]
    text = region(accepted(k, [f"unroll: {{stmt: 0, loop: j, factor: {factor}}}"], sizes))
    assert_main_and_cleanup(text, "j", "X[i + 1] = ", factor, start="i")
    assert f"A[i][j + {2 * (factor - 1)}]" in text and "j += 2)" in text, text


def test_reversed_loop(tmp_path):
    k = kernel(tmp_path, "rev.c", REVERSED)
    text = region(accepted(k, [f"unroll: {{stmt: 0, loop: k, factor: {F}}}"], run_sizes()))
    assert_main_and_cleanup(text, "k", "X[i] = ", F)


def test_constant_trip_count_needs_no_cleanup_loop(tmp_path):
    k = kernel(tmp_path, "flat11.c", FLAT)
    text = region(accepted(k, [f"unroll: {{stmt: 0, loop: i, factor: {F}}}"], [{"N": 11}],
                           defines={"N": 11}))
    assert len(loops(text, "i")) == 1 and count(text, "X[") == F + 3, text
    assert "if (" not in text and "%" not in text, text


def test_jammed_remainder_is_a_loop(tmp_path):
    """Unroll-and-jam keeps its strips aligned (the jam's legality was checked for them); the
    partial strip is a cleanup loop inside the jammed loop instead of guarded copies."""
    k = kernel(tmp_path, "jam.c", JAM)
    text = region(accepted(k, [f"unroll: {{stmt: 0, loop: j, factor: {F}}}"], run_sizes()))
    assert "if (" not in text, text
    found = loops(text, "j")
    assert len(found) == 2 and "j += 4" in found[0][0], text
    assert count(text, "X[i] = ") == F + 1 and count(found[1][1], "X[i] = ") == 1, text
    assert all("%" not in ln for ln in text.split("\n") if "X[i] = " in ln), text


def test_full_unroll_of_a_jammed_triangle_leaves_no_loop(tmp_path):
    body = ("  for (i = 0; i < 4; i++)\n    for (j = 0; j <= i; j++)\n      for (k = 0; k < N; k++)\n"
            "        A[i][k + 1] = A[i][k + 1] * 0.5 + A[j + 4][k] * X[j];")
    k = kernel(tmp_path, "fulljam.c", body)
    text = region(accepted(k, ["unroll: {stmt: 0, loop: j, factor: 0}"], [{"N": 5}, {"N": 8}]))
    assert "for (int j" not in text, text


def test_jammed_wavefront_copies_stay_on_the_strip(tmp_path):
    """A jam after a skew: the inner loop starts at lx_max(strip, i).  The copies are the
    strip's values j, j + 1 with guards, so no lx_max reaches a subscript (it made the jammed
    wavefront 1.5x slower than the same code without the unroll)."""
    body = ("  for (i = 1; i < N; i++)\n    for (j = 0; j < N - 1; j++)\n"
            "      A[i][j] = 0.5 * (A[i - 1][j + 1] + A[i][j]);")
    k = kernel(tmp_path, "wave.c", body)
    steps = ["skew: {stmt: 0, loop: j, by: {i: 1}}", "permute: {stmt: 0, order: [j, i]}"]
    for factor in (2, 3):
        text = region(accepted(k, steps + [f"unroll: {{stmt: 0, loop: j, factor: {factor}}}"],
                               [{"N": n} for n in (0, 1, 2, 3, 5, 8, 13)]))
        subscripts = [ln for ln in text.split("\n") if "A[i][" in ln]
        assert len(subscripts) >= factor and all("lx_max" not in ln for ln in subscripts), text
        assert f"A[i][j - i + {factor - 1}]" in text, text
