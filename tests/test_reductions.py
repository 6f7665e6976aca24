"""OpenMP reductions on a parallel loop (probe 29 B1: CloverLeaf's field_summary and calc_dt,
TeaLeaf's and HPCCG's dot products could not run in parallel; Orio's `reduction(+:s)` clause
was dropped and the loop refused)."""
from __future__ import annotations

import shutil

import pytest

from conftest import run_cli

DOT = """#include <math.h>
double dot(int n, double *x, double *y, double *out) {
  int i;
  double s = 0.0, m = 1e300, p = 1.0, q = -1e300;
#pragma scop
  for (i = 0; i < n; i++) {
    s += x[i] * y[i];
    if (x[i] < m) m = x[i];
    p = (1.0 + 1e-3 * y[i]) * p;
    q = fmax(q, y[i] - x[i]);
  }
#pragma endscop
  out[0] = m; out[1] = p; out[2] = q;
  return s;
}
"""
TILED = """steps:
  - tile: {stmt: 0, loop: i, size: 64}
  - omp_for: {stmt: 0, loop: ii, reduction: %s}
"""


@pytest.mark.skipif(shutil.which("gcc") is None, reason="compiles the generated C with gcc, which this machine lacks")
def test_sum_min_product_and_fmax_reductions_validate_in_parallel(tmp_path):
    src = tmp_path / "dot.c"
    src.write_text(DOT)
    r = tmp_path / "r.yaml"
    r.write_text(TILED % "{+: [s], min: m, '*': [p], max: [q]}")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 0 and "#pragma omp parallel for reduction(+:s) reduction(min:m) reduction(*:p) " \
        "reduction(max:q) private(i)" in out, out + err
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "n=1001", "--cflags", "-O2 -fopenmp")
    assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("reduction, message", [
    (None, "RAW on s) ('s' is a + reduction: give omp_for reduction: {'+': [s]}"),
    ("{'*': [s]}", "reduction(*:s): S0 (line 7: `s += x[i] * y[i]`) updates it with '+'"),
    ("{max: [m, q], +: [s], '*': [p]}", "reduction(max:m): S1 (line 8: `m = (x[i] < m) ? (x[i]) : (m)`) updates it with 'min'"),
    ("{/: [s]}", "reduction operator '/' is not one of"),
    ("[s]", "reduction must map operators to variables"),
    ("{+: [t]}", "reduction(+:t): 't' is not used in the region"),
])
def test_a_reduction_that_is_not_one_is_refused_at_the_step(tmp_path, reduction, message):
    src = tmp_path / "dot.c"
    src.write_text(DOT)
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - omp_for: {stmt: 0, loop: i%s}\n" % (f", reduction: {reduction}" if reduction else ""))
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 2 and "step 1 (omp_for): error: " in err and message in err, err


def test_a_variable_read_outside_its_updates_is_no_reduction(tmp_path):
    src = tmp_path / "pre.c"
    src.write_text("void pre(int n, double *x, double *y) {\n  int i;\n  double s = 0.0;\n#pragma scop\n"
                   "  for (i = 0; i < n; i++) {\n    s += x[i];\n    y[i] = s;\n  }\n#pragma endscop\n}\n")
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - omp_for: {stmt: 0, loop: i, reduction: {+: [s]}}\n")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 2 and "reduction(+:s): S1 (line 7: `y[i] = s`) uses it other than as `v = v op e`" in err, err


ORIO = """/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2 -fopenmp'; }
  def performance_params { param UF[] = [1, 4]; param OMP[] = [False, True]; }
  def input_params { param N[] = [1000]; }
  def input_vars { decl static double x[N] = random; decl static double y[N] = random; decl double s = 0; }
) @*/
int i;
/*@ begin Loop (
  transform Composite(unrolljam=(['i'],[UF]), openmp=(OMP, 'omp parallel for reduction(+:s)'))
  for (i = 0; i <= N - 1; i++)
    s = s + x[i] * y[i];
) @*/
/*@ end @*/
/*@ end @*/
"""


def test_orio_openmp_keeps_its_reduction_clause(tmp_path):
    src = tmp_path / "red.c"
    src.write_text(ORIO)
    rc, out, err = run_cli("transform", src, "-D", "UF=4", "-D", "OMP=True")
    assert rc == 0 and "#pragma omp parallel for reduction(+:s)" in out, out + err


ROWSUM = """double s;
void f(int n, double a[n][n])
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      s += a[i][j];
#pragma endscop
}
"""


@pytest.mark.skipif(shutil.which("gcc") is None, reason="compiles the generated C with gcc, which this machine lacks")
@pytest.mark.parametrize("n", [7, 8])
def test_unroll_and_jam_of_a_loop_with_a_reduction_clause(tmp_path, n):
    """After omp_for's reduction on i, the jam of i reorders the updates of s inside the loop,
    which OpenMP's combining does anyway: accepted and validated.  Without the clause the jam is
    refused, with a hint that names the clause."""
    src = tmp_path / "rowsum.c"
    src.write_text(ROWSUM)
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - omp_for: {stmt: 0, loop: i, reduction: ['+:s']}\n"
                 "  - unroll: {stmt: 0, loop: i, factor: 2}\n")
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", f"n={n}", "--cflags", "-O2 -fopenmp",
                           "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 0 and "s += a[i + 1][j];" in out and "reduction(+:s)" in out, out + err
    r.write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 2}\n")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 2 and "an omp_for step with reduction: {'+': [s]} on the loop, before this one" in err, err
