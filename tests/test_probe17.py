"""Findings of probe 17 (new kernels through transform / run): new loop names pasted into the
C unchecked, and sizes that --define fixed while the output let callers or builds use others."""
from __future__ import annotations

import subprocess

import pytest
from conftest import run_cli as cli, runs_ok

TRSV = """void backsub(int n, double U[n][n], double x[n], const double b[n])
{
  int i, j;
#pragma scop
  for (i = n - 1; i >= 0; i--) {
    x[i] = b[i];
    for (j = i + 1; j < n; j++)
      x[i] -= U[i][j] * x[j];
    x[i] = x[i] / U[i][i];
  }
#pragma endscop
}
"""
DRIVER = """
#include <stdio.h>
#include <math.h>
int main(void)
{
  for (int n = 1; n < 30; n += 3) {
    double U[n][n], x[n], b[n], y[n];
    for (int i = 0; i < n; i++) {
      b[i] = 1.0 + i % 5;
      for (int j = 0; j < n; j++) U[i][j] = i == j ? 2.0 + i % 3 : 0.25 / (1 + i + j);
    }
    backsub(n, U, x, b);
    for (int i = n - 1; i >= 0; i--) {          /* the same back-substitution, by hand */
      y[i] = b[i];
      for (int j = i + 1; j < n; j++) y[i] -= U[i][j] * y[j];
      y[i] /= U[i][i];
    }
    for (int i = 0; i < n; i++) if (fabs(x[i] - y[i]) > 1e-12) { printf("n=%d differs\\n", n); return 1; }
  }
  printf("ok\\n");
  return 0;
}
"""
CONV = """#ifndef K
#define K 5
#endif
void conv(int n, const float in[n + K], const float w[K], float out[n])
{
  int x, q;
#pragma scop
  for (x = 0; x < n; x++)
    for (q = 0; q < K; q++)
      out[x] += in[x + q] * w[q];
#pragma endscop
}
"""


@pytest.mark.parametrize("step,arg,bad", [("tile: {stmt: 0, loop: i, size: 4, control: %s}", "control", "i i"),
                                          ("tile: {stmt: 0, loop: i, size: 4, control: %s}", "control", "ii/*"),
                                          ("tile: {stmt: 0, loop: i, size: 4, control: %s}", "control", "int"),
                                          ("combine: {stmt: 1, loops: [i, j], name: %s}", "name", "a b")])
def test_a_new_loop_name_must_be_a_c_identifier(tmp_path, step, arg, bad):
    (tmp_path / "k.c").write_text(TRSV)
    (tmp_path / "r.yaml").write_text(f"steps:\n  - {step % repr(bad)}\n")
    rc, out, err = cli("transform", tmp_path / "k.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and out == "", out
    assert f"argument '{arg}' must be a C identifier" in err and "Traceback" not in err, err


def test_a_new_loop_name_must_not_be_an_array_or_size(tmp_path):
    (tmp_path / "k.c").write_text(TRSV)
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 4, control: U}\n")
    rc, _, err = cli("transform", tmp_path / "k.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and "'U' is already the name of an array or size" in err, err


def test_a_parameter_fixed_by_define_is_checked_by_the_output(tmp_path):
    """`-D n=23` on the function's own `int n` made code right for n = 23 only, with no check:
    the output runs it where n == 23 and the region as written for every other n."""
    (tmp_path / "k.c").write_text(TRSV)
    (tmp_path / "r.yaml").write_text("steps:\n  - unroll: {stmt: 1, loop: j, factor: 4}\n")
    rc, out, err = cli("transform", tmp_path / "k.c", "--recipe", tmp_path / "r.yaml", "-D", "n=23")
    assert rc == 0, err
    assert "if (n == 23) {" in out and "the value --define gives" in err, out + err
    (tmp_path / "t.c").write_text(out + DRIVER)
    subprocess.run(["gcc", "-O1", str(tmp_path / "t.c"), "-o", str(tmp_path / "t"), "-lm"], check=True)
    assert subprocess.run([str(tmp_path / "t")], capture_output=True, text=True).stdout.strip() == "ok"


def test_a_defaulted_macro_fixed_by_define_fails_a_build_with_another_value(tmp_path):
    (tmp_path / "c.c").write_text(CONV)
    (tmp_path / "r.yaml").write_text("steps:\n  - unroll: {stmt: 0, loop: q, factor: 0}\n")
    rc, out, err = cli("transform", tmp_path / "c.c", "--recipe", tmp_path / "r.yaml", "-D", "K=5")
    assert rc == 0, err
    (tmp_path / "o.c").write_text(out)
    ok = subprocess.run(["gcc", "-c", str(tmp_path / "o.c"), "-o", str(tmp_path / "o.o")], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    other = subprocess.run(["gcc", "-DK=3", "-c", str(tmp_path / "o.c"), "-o", str(tmp_path / "o.o")],
                           capture_output=True, text=True)
    assert other.returncode != 0 and "transformed this region with --define K=5" in other.stderr, other.stderr


CONV2D = """#define H 64
#define W 64
#define K 5
void conv2d(const float in[H+K-1][W+K-1], const float filt[K][K], float out[H][W])
{
  int y, x, p, q;
#pragma scop
  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++)
      for (p = 0; p < K; p++)
        for (q = 0; q < K; q++)
          out[y][x] += in[y+p][x+q] * filt[p][q];
#pragma endscop
}
"""
CONV2D_R = """steps:
  - tile: {stmt: 0, loop: y, size: 16, control: yy}
  - tile: {stmt: 0, loop: x, size: 16, control: xx}
  - permute: {stmt: 0, order: [yy, xx, y, x, p, q]}
  - cuda: {stmt: 0, block: [xx, yy], thread: [x, y]}
  - shared: {stmt: 0, array: filt, at: x%s}
"""


def test_a_shared_copy_at_a_thread_loop_says_it_runs_one_thread_at_a_time(tmp_path):
    (tmp_path / "c.c").write_text(CONV2D)
    for around, noted in (("", True), (", around: true", False)):
        (tmp_path / "r.yaml").write_text(CONV2D_R % around)
        rc, _, err = cli("transform", tmp_path / "c.c", "--recipe", tmp_path / "r.yaml", "--target", "cuda", "-D", "K=5")
        assert rc == 0, err
        assert ("one thread at a time between barriers; `around: true` copies before them" in err) == noted, err


TWO = """void first(int n, double *a, double *b)
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = b[i] + 1.0;
  for (i = 0; i < n; i++)
    b[i] = a[i] * 2.0;
#pragma endscop
}
void second(int n, double c[n][n])
{
  int i, j;
#pragma scop
  for (i = 1; i < n; i++)
    for (j = 0; j < n - 1; j++)
      c[i][j] = c[i - 1][j + 1] + 1.0;
#pragma endscop
}
"""


def test_deps_and_witnesses_number_statements_over_the_file(tmp_path):
    import json
    (tmp_path / "t.c").write_text(TWO)
    rc, out, _ = cli("deps", tmp_path / "t.c")
    assert rc == 0 and "  S2   line 17" in out and "RAW  S2 -> S2" in out and "[S2] sequential" in out, out
    rc, out, _ = cli("deps", tmp_path / "t.c", "--json")
    second = json.loads(out)["regions"][1]
    assert [s["id"] for s in second["statements"]] == [2] and second["dependences"][0]["source"] == 2
    (tmp_path / "r.yaml").write_text("steps:\n  - permute: {stmt: 2, order: [j, i]}\n")
    rc, _, err = cli("transform", tmp_path / "t.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and "S2(1,1) writes c[1][1] before S2(2,0)" in err, err


def test_a_step_naming_a_statement_the_file_lacks_says_so(tmp_path):
    (tmp_path / "t.c").write_text(TWO)
    (tmp_path / "r.yaml").write_text("steps:\n  - distribute: {stmts: [1, 7], loop: i}\n")
    rc, _, err = cli("transform", tmp_path / "t.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and "there is no statement 7 in the file (statements are numbered 0..2" in err, err


def test_a_step_written_constant_first_is_a_step(tmp_path):
    src = ("void f(int n, double *a)\n{\n  int i;\n#pragma scop\n  for (i = 0; i < n; i = 2 + i)\n"
           "    a[i] = a[i] * 0.5 + 1.0;\n#pragma endscop\n}\n")
    (tmp_path / "s.c").write_text(src)
    (tmp_path / "r.yaml").write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 2}\n")
    rc, out, err = cli("run", tmp_path / "s.c", "--recipe", tmp_path / "r.yaml", "-D", "n=11")
    assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("line,want", [
    ('tile_by_index({"i"}, {4}, {l1_control="ii"}, {"ii", "i"}',
     """syntax error in command 'tile_by_index({"i"}, {4}, {l1_control="ii"}, {"ii", "i"}' (a closing parenthesis is missing"""),
    ('TI = 32\nunroll(0,"i",TI/0)', "error: cannot evaluate 'TI / 0': division by zero")])
def test_chill_script_messages_show_the_command_as_written(tmp_path, line, want):
    (tmp_path / "s.c").write_text(TRSV)
    (tmp_path / "s.lua").write_text(f'init("s.c", "backsub", 0)\n{line}\n')
    rc, _, err = cli("transform", tmp_path / "s.c", "--recipe", tmp_path / "s.lua")
    assert rc == 2 and want in err, err


@pytest.mark.parametrize("at,want", [("j", "'at' uses loop 'j', which is not outside loop 'i'"),
                                     ("i", "'at' uses loop 'i', which is not outside loop 'i'")])
def test_split_at_a_loop_that_is_not_outside_the_split_loop_is_refused(tmp_path, at, want):
    # the nest has no dependence: it used to split i by `i < j` with exit 0
    (tmp_path / "t.c").write_text("void f(int n, double A[n][n], double B[n][n])\n{\n#pragma scop\n"
                                  "  for (int i = 0; i < n; i++)\n    for (int j = 0; j < n; j++)\n"
                                  "      B[j][i] = A[i][j] + 1.0;\n#pragma endscop\n}\n")
    (tmp_path / "r.yaml").write_text(f"steps:\n  - split: {{stmt: 0, loop: i, at: {at}}}\n")
    rc, _, err = cli("transform", tmp_path / "t.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and want in err, err
    (tmp_path / "r.yaml").write_text("steps:\n  - split: {stmt: 0, loop: j, at: i}\n")
    rc, out, err = cli("run", tmp_path / "t.c", "--recipe", tmp_path / "r.yaml", "-D", "n=9")
    assert rc == 0 and ": ok" in out, out + err


SW = """#define MAX(a,b) ((a) > (b) ? (a) : (b))
void sw(int n, int m, int H[n+1][m+1], const int s[n][m], int gap)
{
  int i, j;
#pragma scop
  for (i = 1; i <= n; i++)
    for (j = 1; j <= m; j++)
      H[i][j] = MAX(MAX(H[i-1][j-1] + s[i-1][j-1], H[i-1][j] - gap), MAX(H[i][j-1] - gap, 0));
#pragma endscop
}
"""


def test_run_gives_an_integer_that_is_only_data_a_value(tmp_path):
    (tmp_path / "sw.c").write_text(SW)
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: j, size: 4}\n")
    rc, out, err = cli("run", tmp_path / "sw.c", "--recipe", tmp_path / "r.yaml", "-D", "n=9", "-D", "m=11")
    assert rc == 0 and ": ok" in out, out + err
    assert "'gap' is only read as a value in the region: the harness sets it to" in err, err
    # a size that bounds a loop still has to be given
    rc, out, err = cli("run", tmp_path / "sw.c", "--recipe", tmp_path / "r.yaml", "-D", "n=9")
    assert rc == 2 and "the size 'm' has no value" in err, err


def test_run_at_sizes_where_the_region_reaches_no_element_of_a_pointer(tmp_path):
    (tmp_path / "c.c").write_text("void f(int n, double *a, const double *c)\n{\n#pragma scop\n"
                                  "  for (int i = 0; i < n; i++)\n    a[i] = a[i] * 0.5;\n"
                                  "  for (int i = 0; i < n - 2; i++)\n    a[i] += c[i + 1] - c[i + 2];\n"
                                  "#pragma endscop\n}\n")
    (tmp_path / "r.yaml").write_text("steps:\n  - unroll: {stmt: 1, loop: i, factor: 2}\n")
    runs_ok(tmp_path / "c.c", tmp_path / "r.yaml", ("1", "2", "7"))


@pytest.mark.parametrize("inner", ["for (int i = 0; i < n; i++)\n      a[i][i] += 1.0;",
                                   "{ double i = 2.0; a[0][0] += i; }"])
def test_a_body_that_declares_the_loops_iterator_again_is_refused_as_shadowing(tmp_path, inner):
    (tmp_path / "s.c").write_text("void f(int n, double a[n][n])\n{\n#pragma scop\n"
                                  f"  for (int i = 0; i < n; i++)\n    {inner}\n#pragma endscop\n}}\n")
    (tmp_path / "r.yaml").write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 2}\n")
    rc, _, err = cli("transform", tmp_path / "s.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and ":5:" in err and "the loop body declares another 'i'" in err, err


MMDEC = """void mm(int n, double C[n][n], const double A[n][n], const double B[n][n])
{
  int i, j, k;
#pragma scop
  for (i = n - 1; i >= 0; i--)
    for (k = 0; k < n; k++)
      for (j = 0; j < n; j++)
        C[i][j] += A[i][k] * B[k][j];
#pragma endscop
}
"""


def test_unroll_and_jam_of_a_decreasing_loop_has_a_main_loop_and_a_remainder(tmp_path):
    (tmp_path / "m.c").write_text(MMDEC)
    (tmp_path / "r.yaml").write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 4}\n")
    rc, out, err = cli("transform", tmp_path / "m.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 0, err
    # the jammed copies run unguarded over whole strips; the rest is a loop of its own
    assert "if (" not in out and "for (i = n - 1; i > 2; i -= 4)" in out, out
    assert "i >= 0; i--)" in out and "C[i - 3][j] += A[i - 3][k] * B[k][j];" in out, out
    runs_ok(tmp_path / "m.c", tmp_path / "r.yaml", ("1", "3", "4", "7", "13"))


CONTINUES = """void forces(int n, const double x[n], double f[n], const double m[n])
{
#pragma scop
  for (int i = 0; i < n; i++) {
    f[i] = 0.0;
    for (int j = 0; j < n; j++) {
      if (i == j)
        continue;
      f[i] += m[j] * (x[j] - x[i]);
    }
  }
#pragma endscop
}
void clip(int n, double a[n], const double b[n])
{
#pragma scop
  for (int i = 0; i < n; i++) {
    if (b[i] < 0.5) { a[i] = 0.0; continue; }
    a[i] = a[i] + b[i];
    if (i % 3 == 0) continue;
    a[i] = 2.0 * a[i];
  }
#pragma endscop
}
void sel(int n, double *a, double *b)
{
#pragma scop
  for (int i = 0; i < n; i++) {
    if (i % 2) continue;
    if (a[i] > 0.5) { b[i] = 1.0; continue; } else b[i] = 2.0;
    a[i] = 0.0;
  }
#pragma endscop
}
"""


@pytest.mark.parametrize("function,recipe", [("forces", "unroll: {stmt: 1, loop: j, factor: 4}"),
                                             ("clip", "unroll: {stmt: 2, loop: i, factor: 2}"),
                                             ("sel", "unroll: {stmt: 5, loop: i, factor: 2}")])
def test_if_continue_in_a_loop_body_guards_the_rest_of_the_body(tmp_path, function, recipe):
    (tmp_path / "c.c").write_text(CONTINUES)
    (tmp_path / "r.yaml").write_text(f"steps:\n  - {recipe}\n")
    rc, out, err = cli("transform", tmp_path / "c.c", "--function", function, "--recipe", tmp_path / "r.yaml")
    assert rc == 0 and "continue" not in out.split(f"void {function}")[1].split("#pragma endscop")[0], out + err
    runs_ok(tmp_path / "c.c", tmp_path / "r.yaml", ("1", "2", "5", "13"), "--function", function)


def test_a_continue_nested_deeper_is_refused_where_it_stands(tmp_path):
    (tmp_path / "c.c").write_text("void g(int n, double a[n])\n{\n#pragma scop\n  for (int i = 0; i < n; i++)\n"
                                  "    for (int j = 0; j < n; j++) {\n"
                                  "      if (j > i) { a[i] += 1.0; if (i > 2) continue; }\n"
                                  "      a[i] += a[j];\n    }\n#pragma endscop\n}\n")
    rc, _, err = cli("transform", tmp_path / "c.c")
    assert rc == 2 and "c.c:6:44: error: 'continue' is supported only as the last statement of an if" in err, err


def test_a_script_that_names_another_source_file_gets_a_note(tmp_path):
    (tmp_path / "s.c").write_text(TRSV)
    (tmp_path / "s.lua").write_text('init("missing.c", "backsub", 0)\nunroll(1,"j",2)\n')
    rc, _, err = cli("transform", tmp_path / "s.c", "--recipe", tmp_path / "s.lua")
    assert rc == 0, err
    assert "s.lua:1: note: the script names 'missing.c' (no such file); looptx transforms s.c" in err, err
    (tmp_path / "s.lua").write_text('init("s.c", "backsub", 0)\nunroll(1,"j",2)\n')
    rc, _, err = cli("transform", tmp_path / "s.c", "--recipe", tmp_path / "s.lua")
    assert rc == 0 and "note" not in err, err
