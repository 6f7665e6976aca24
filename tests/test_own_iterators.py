"""Code for the user's file counts with the function's own loop variables (`int i, j;` then
`for (i = 0; ...)`), as CHiLL does: declaring new ones left the user's unused, and gcc -Wall
warned about every transformed function.  An OpenMP loop names the inner ones in its private
clause; a volatile or address-taken variable, and a loop nested in one with the same counter,
keep their own declarations."""
from __future__ import annotations

import subprocess

import pytest
from conftest import run_cli as cli

SRC = """#include <stdio.h>
#include <stdlib.h>
#define N 37
static double A[N][N], B[N][N];
void k(void)
{
  %s
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      B[i][j] = A[j][i] * 0.5 + B[i][j];
#pragma endscop
  %s
}
int main(void)
{
  srand(3);
  for (int a = 0; a < N; a++)
    for (int b = 0; b < N; b++) { A[a][b] = rand() %% 100; B[a][b] = rand() %% 7; }
  k();
  double s = 0;
  for (int a = 0; a < N; a++)
    for (int b = 0; b < N; b++) s += B[a][b] * (a + 1) + b;
  printf("%%.6f\\n", s);
  return 0;
}
"""
TILE = "steps:\n  - tile: {stmt: 0, loop: i, size: 8, control: ii}\n  - tile: {stmt: 0, loop: j, size: 5, control: jj}\n"


def _out(tmp_path, decl: str, recipe: str, after: str = "") -> tuple[str, str]:
    src = tmp_path / "k.c"
    src.write_text(SRC % (decl, after))
    (tmp_path / "r.yaml").write_text(recipe)
    rc, out, err = cli("transform", src, "--recipe", tmp_path / "r.yaml")
    assert rc == 0, err
    return src.read_text(), out


def _compile_and_run(tmp_path, text: str, name: str, flags=()) -> str:
    c, exe = tmp_path / f"{name}.c", tmp_path / name
    c.write_text(text)
    p = subprocess.run(["gcc", "-O1", "-Wall", "-Werror", "-Wno-unknown-pragmas", *flags, str(c), "-o", str(exe)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr + text
    return subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout


def test_the_functions_own_counters_are_used_and_nothing_is_left_unused(tmp_path):
    original, out = _out(tmp_path, "int i, j;", TILE)
    assert "for (i = " in out and "for (j = " in out, out
    assert "for (int ii = " in out and "for (int jj = " in out, out
    assert _compile_and_run(tmp_path, out, "new") == _compile_and_run(tmp_path, original, "old")


def test_values_read_after_the_region_are_the_originals(tmp_path):
    after = 'printf("%d %d\\n", i, j);'
    original, out = _out(tmp_path, "int i, j;", TILE, after)
    assert "for (i = " in out, out
    assert _compile_and_run(tmp_path, out, "new") == _compile_and_run(tmp_path, original, "old")


@pytest.mark.parametrize("decl", ["volatile int i; int j;", "int i, j; int *p = &i; (void)p;"])
def test_a_volatile_or_address_taken_counter_is_not_reused(tmp_path, decl):
    _, out = _out(tmp_path, decl, TILE)
    assert "for (int i = " in out and "for (j = " in out, out


def test_an_openmp_loop_makes_the_functions_inner_counters_private(tmp_path):
    original, out = _out(tmp_path, "int i, j;", "steps:\n  - omp_for: {stmt: 0, loop: i}\n")
    assert "#pragma omp parallel for private(j)" in out and "for (i = " in out and "for (j = " in out, out
    assert _compile_and_run(tmp_path, out, "new", ["-fopenmp"]) == _compile_and_run(tmp_path, original, "old")


def test_loops_outside_the_openmp_loop_keep_the_functions_counters(tmp_path):
    """omp_for on the inner loop (Rodinia's lud): the outer loop is not under the pragma, so it
    counts with the function's `i`, and gcc -Wall has no unused variable to report."""
    original, out = _out(tmp_path, "int i, j;", "steps:\n  - omp_for: {stmt: 0, loop: j}\n")
    assert "for (i = " in out and "#pragma omp parallel for\n" in out and "for (j = " in out, out
    assert _compile_and_run(tmp_path, out, "new", ["-fopenmp"]) == _compile_and_run(tmp_path, original, "old")


def test_a_counter_of_another_type_is_reused_where_it_holds_the_loops_values(tmp_path):
    """An unsigned i holds 0..37 (N is the file's): the loops count with it too (types that do
    not hold the values: tests/test_narrow_ints.py)."""
    original, out = _out(tmp_path, "unsigned i; int j;", TILE)
    assert "for (i = " in out and "for (j = " in out, out
    assert _compile_and_run(tmp_path, out, "new") == _compile_and_run(tmp_path, original, "old")
