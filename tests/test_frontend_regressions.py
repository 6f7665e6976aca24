"""Front-end fixes found by probing: syntax-error positions, block-local declarations with an
initializer, statement numbers under --function, code on the begin marker's line, and the
columns of run-time size errors.  Bad input is checked through the CLI, the way users meet it:
exit 2, one line on stderr, FILE:LINE:COL."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from difftest import KERNELS, check_same
from looptx.frontend.cparse import parse_file
from conftest import cli_process as cli




def one_error(proc) -> tuple[str, int, int, str]:
    """(file, line, column, message) of the single error line of a bad-input run."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    m = re.match(r"(.+?):(\d+):(\d+): error: (.*)", lines[0])
    assert m, lines[0]
    return m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)


NEST = """\
#define N 10
double A[N][N];
void f(void)
{
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] = %s;
#pragma endscop
}
"""


# ---- a missing operand: pycparser reports it without a position ------------------------------
@pytest.mark.parametrize("rhs, col", [("A[i][j] * 2.0 +", 32), ("", 17)])
def test_missing_operand_points_at_the_token(tmp_path, rhs, col):
    k = tmp_path / "k.c"
    k.write_text(NEST % rhs)
    file, line, c, msg = one_error(cli("transform", k))
    assert (Path(file).name, line, c) == ("k.c", 9, col)
    assert "<stdin>" not in msg and "expected expression before ';'" in msg


def test_input_ending_inside_an_expression(tmp_path):
    k = tmp_path / "k.c"
    k.write_text("void f(void)\n{\n  int i;\n  for (i = 0; i < 3; i++) {\n    x = 1 +")
    file, line, col, msg = one_error(cli("transform", k, "--function", "f"))
    assert (Path(file).name, line, col) == ("k.c", 5, 12)
    assert "<stdin>" not in msg


# ---- code on the line of the begin marker ----------------------------------------------------
def test_code_on_the_begin_marker_line(tmp_path):
    k = tmp_path / "k.c"
    k.write_text("#define N 10\ndouble A[N][N];\nvoid f(void)\n{\n  int i, j;\n"
                 "  /*@ begin CHiLL ( ) @*/ for (i = 0; i < N; i++)\n"
                 "    for (j = 0; j < N; j++)\n      A[i][j] = 1.0; /*@ end @*/\n}\n")
    prog = parse_file(str(k))
    st, = prog.scops[0].statements
    assert (st.line, st.col) == (8, 7)           # columns map back through the marker
    proc = cli("transform", k)
    assert proc.returncode == 0, proc.stderr
    assert "A[i][j] = 1.0;" in proc.stdout


def test_error_column_after_a_marker_on_the_line(tmp_path):
    k = tmp_path / "k.c"
    k.write_text("#define N 10\ndouble A[N][N];\nvoid f(void)\n{\n  int i, j;\n"
                 "  /*@ begin CHiLL ( ) @*/ for (i = 0; i < N; i++) A[i][i] = *A[i];\n"
                 "  /*@ end @*/\n}\n")
    file, line, col, msg = one_error(cli("transform", k))
    assert (line, col) == (6, 61), msg        # the '*' of the dereference


# ---- statement numbers under --function -------------------------------------------------------
TWO = """\
#define N 30
double A[N][N], y[N], x[N];
void k1(void)
{
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      A[i][j] = A[i][j] + x[j];
      x[j] += 1.0;
    }
#pragma endscop
}
void k2(void)
{
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      double t = A[i][j] * 0.5;
      y[i] = y[i] * 0.5 + t;
    }
#pragma endscop
}
void k3(void)
{
  int i;
  for (i = 0; i < N; i++)
    x[i] = 0.0;
}
"""


def test_statement_numbers_do_not_depend_on_function(tmp_path):
    k = tmp_path / "k.c"
    k.write_text(TWO)
    everything = parse_file(str(k))
    assert everything.stmt_base == (0, 2)
    assert [len(s.statements) for s in everything.scops] == [2, 2]
    # the declaration's initializer is a statement too, and counts for the next regions
    assert parse_file(str(k), function="k2").stmt_base == (2,)
    assert parse_file(str(k), function="k1").stmt_base == (0,)
    # a function without markers is numbered after the marked regions before it
    assert parse_file(str(k), function="k3").stmt_base == (4,)
    assert parse_file(str(k), function="k2").function == "k2"


def test_function_keeps_file_statement_numbers_end_to_end(tmp_path):
    k = tmp_path / "k.c"
    k.write_text(TWO)
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - tile: {stmt: 3, loop: j, size: 4}\n")
    for extra in ((), ("--function", "k2")):
        p = cli("transform", str(k), "--recipe", str(r), *extra)
        assert p.returncode == 0 and "jj" in p.stdout, p.stderr
    r.write_text("steps:\n  - tile: {stmt: 0, loop: j, size: 4}\n")
    p = cli("transform", str(k), "--recipe", str(r), "--function", "k2")
    assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
    assert "statement 0 is not in function 'k2'" in p.stderr and "2..3" in p.stderr


# ---- a block-local declaration with an initializer --------------------------------------------
LOCAL = """\
#include "harness.h"
#ifndef N
#define N 50
#endif
#ifndef M
#define M 40
#endif
static double A[N][M], B[N][M];
static void f(void)
{
%s
#pragma scop
  for (%s i = 0; i < N; i++)
    for (%s j = 0; j < M; j++) {
      const double t = A[i][j] * 0.5;
      double u;
      u = t * t;
      B[i][j] = t + B[i][j] - u;
    }
#pragma endscop
}
int main(void)
{
  lx_seed(7);
  lx_fill_double(&A[0][0], (size_t)N * M);
  lx_fill_double(&B[0][0], (size_t)N * M);
  f();
  lx_dump("B", B, sizeof B);
  return 0;
}
"""


def local_kernel(tmp_path, outside: bool) -> Path:
    shutil.copy(KERNELS / "harness.h", tmp_path)
    k = tmp_path / ("outside.c" if outside else "inside.c")
    k.write_text(LOCAL % (("  int i, j;", "", "") if outside else ("", "int", "int")))
    return k


@pytest.mark.parametrize("outside", [True, False], ids=["iterators-outside", "iterators-in-for"])
def test_local_declaration_is_hoisted_without_initializer(tmp_path, outside):
    k = local_kernel(tmp_path, outside)
    prog = parse_file(str(k))
    texts = [s.text for s in prog.scops[0].statements]
    assert texts == ["t = A[i][j] * 0.5", "u = t * t", "B[i][j] = (t + B[i][j]) - u"], texts
    proc = cli("transform", k)
    assert proc.returncode == 0, proc.stderr
    region = proc.stdout[proc.stdout.index("#pragma scop"):proc.stdout.index("#pragma endscop")]
    assert "double t;" in region and "const" not in region
    assert "double t =" not in region
    check_same(k, proc.stdout, {"N": 50, "M": 40})


RECIPES = {
    "tile": ["tile: {stmt: 2, loop: j, size: 8}"],
    "tile2": ["tile: {stmt: 0, loop: i, size: 7}", "tile: {stmt: 0, loop: j, size: 6}"],
    "unroll": ["unroll: {stmt: 1, loop: j, factor: 3}"],
    "tile-unroll": ["tile: {stmt: 0, loop: j, size: 9}", "unroll: {stmt: 0, loop: j, factor: 4}"],
}


@pytest.mark.parametrize("name", RECIPES)
@pytest.mark.parametrize("outside", [True, False], ids=["iterators-outside", "iterators-in-for"])
def test_local_declaration_differential(tmp_path, name, outside):
    k = local_kernel(tmp_path, outside)
    recipe = tmp_path / "r.yaml"
    recipe.write_text("steps:\n" + "".join(f"  - {s}\n" for s in RECIPES[name]))
    for sizes in ({"N": 48, "M": 40}, {"N": 37, "M": 29}):
        proc = cli("transform", k, "--recipe", recipe, *[f"--define={a}={v}" for a, v in sizes.items()])
        assert proc.returncode == 0, proc.stderr
        check_same(k, proc.stdout, sizes)


def test_local_scalars_order_no_iterations(tmp_path):
    """Each iteration has its own t and u (C scoping): interchanging i and j is legal, although
    the code keeps one variable for each (test_local_private.py has the refused orders)."""
    k = local_kernel(tmp_path, True)
    recipe = tmp_path / "r.yaml"
    recipe.write_text("steps:\n  - permute: {stmt: 2, order: [j, i]}\n")
    proc = cli("transform", k, "--recipe", recipe)
    assert proc.returncode == 0, proc.stderr
    check_same(k, proc.stdout, {"N": 50, "M": 40})


def test_local_declaration_shadowing_an_outer_one(tmp_path):
    k = tmp_path / "k.c"
    k.write_text("#define N 10\ndouble A[N];\nvoid f(void)\n{\n  int i;\n  double t = 0.0;\n"
                 "#pragma scop\n  for (i = 0; i < N; i++) {\n    double t = A[i];\n"
                 "    A[i] = t * 2.0;\n  }\n#pragma endscop\n}\n")
    proc = cli("transform", k)
    # the inner t is another object, as in C: a name of its own, the outer one untouched
    assert proc.returncode == 0 and "double t = 0.0;" in proc.stdout and "t__2 = A[i];" in proc.stdout, proc
    run = cli("run", k, "--repetitions", "1")
    assert run.returncode == 0 and ": ok" in run.stdout, run.stdout + run.stderr


def test_static_local_is_rejected(tmp_path):
    k = tmp_path / "k.c"
    k.write_text("#define N 10\ndouble A[N];\nvoid f(void)\n{\n  int i;\n"
                 "#pragma scop\n  for (i = 0; i < N; i++) {\n    static double t = 1.0;\n"
                 "    A[i] = t * 2.0;\n  }\n#pragma endscop\n}\n")
    file, line, col, msg = one_error(cli("transform", k))
    assert line == 8 and "static" in msg, msg


# ---- run-time size errors carry the column of the name ----------------------------------------
SYRK = """\
void kernel(int n, int m, double alpha, double *s, double C[n][n], double A[n][m])
{
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++) {
    for (j = 0; j <= i; j++)
      C[i][j] *= s[0];
    for (k = 0; k < m; k++)
      for (j = 0; j <= i; j++)
        C[i][j] += alpha * A[i][k] * A[j][k];
  }
#pragma endscop
}
"""


def test_run_size_without_value_has_a_column(tmp_path):
    k = tmp_path / "k.c"
    k.write_text(SYRK)
    file, line, col, msg = one_error(cli("run", k))
    assert (line, col) == (5, 19) and "'n' has no value" in msg, msg


def test_run_pointer_extent_has_a_column(tmp_path):
    k = tmp_path / "k.c"
    k.write_text(SYRK)
    assert cli("run", k, "--define", "n=5", "--define", "m=4").returncode == 0    # s: as far as s[0]
    k.write_text(SYRK.replace("s[0]", "s[j - 1]"))
    file, line, col, msg = one_error(cli("run", k, "--define", "n=5", "--define", "m=4"))
    assert (line, col) == (7, 18) and "array 's' below its first element" in msg, msg
