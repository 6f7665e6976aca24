"""Probe 30: attacks on reductions, flags, left-out search values.  Wrong code accepted (an
int reduction fed doubles, a reduction read through `&s`), a harness that did not compile
(private and reduction variables named `min`), and search values rejected through `U - 2`."""
from __future__ import annotations

import shutil

import pytest

from conftest import case_files, run_cli

gcc = pytest.mark.skipif(shutil.which("gcc") is None,
                         reason="compiles the generated C with gcc, which this machine lacks")



INT_SUM = """void f(int n, double *x, int *out) {
  int i;
  int b = 0;
#pragma scop
  for (i = 0; i < n; i++)
    b %s 10.0 * x[i] - 5.0;
  out[0] = b;
#pragma endscop
}
"""


@pytest.mark.parametrize("update, op", [("+=", "+"), ("*=", "*"), ("-=", "+")])
def test_an_int_reduction_of_floating_values_is_refused(tmp_path, update, op):
    # b += <double> is b = (int)(b + e): truncated at every update, so the order counts
    src, r = case_files(tmp_path, INT_SUM % update,
                    "steps:\n  - omp_for: {stmt: 0, loop: i, reduction: {'%s': [b]}}\n" % op)
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 2 and f"reduction({op}:b): S0" in err and "converts a floating value to 'int b'" in err, err


def test_an_int_reduction_of_int_values_and_a_double_one_are_accepted(tmp_path):
    code = (INT_SUM % "+=").replace("10.0 * x[i] - 5.0", "(int) x[i] + 1")
    src, r = case_files(tmp_path, code, "steps:\n  - omp_for: {stmt: 0, loop: i, reduction: {+: [b]}}\n")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 0 and "reduction(+:b)" in out, err
    src.write_text(INT_SUM.replace("int b = 0", "double b = 0") % "+=")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 0 and "reduction(+:b)" in out, err


COND = """#include <math.h>
double f(int n, double *x, double *y, double *out) {
  int i;
  double s = 0.0, m = 1e300;
#pragma scop
  for (i = 0; i < n; i++) {
    if (x[i] > 0.5) s += x[i]; else s -= y[i];
    m = fmin(fmin(m, x[i]), y[i]);
  }
#pragma endscop
  out[0] = m;
  return s;
}
"""


@gcc
def test_a_conditional_sum_and_a_nested_fmin_are_reductions(tmp_path):
    src, r = case_files(tmp_path, COND, "steps:\n  - omp_for: {stmt: 0, loop: i, reduction: {+: [s], min: [m]}}\n")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 0 and "reduction(+:s) reduction(min:m)" in out, err
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "n=1001", "--cflags", "-O2 -fopenmp")
    assert rc == 0 and ": ok" in out, out + err


def test_a_conditional_assignment_is_no_reduction(tmp_path):
    code = COND.replace("if (x[i] > 0.5) s += x[i]; else s -= y[i];", "if (x[i] > 0.5) s = x[i];")
    src, r = case_files(tmp_path, code, "steps:\n  - omp_for: {stmt: 0, loop: i, reduction: {+: [s], min: [m]}}\n")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 2 and "uses it other than as `v = v op e`" in err, err


ALIAS = """void f(int n, double *x, double *y) {
  int i;
  double s = 0.0;
  double *ps = &s;
#pragma scop
  for (i = 0; i < n; i++) {
    s += x[i];
    y[i] = *ps;
  }
#pragma endscop
}
"""


@pytest.mark.parametrize("recipe", ["steps:\n  - omp_for: {stmt: 0, loop: i, reduction: {+: [s]}}\n",
                                    "steps:\n  - distribute: {stmts: [0, 1], loop: i}\n"])
def test_a_local_pointer_to_a_variable_the_region_uses_is_refused(tmp_path, recipe):
    src, r = case_files(tmp_path, ALIAS, recipe)
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 2 and "k.c:8:" in err and "'ps' points into 's' (set at line 4" in err \
        and "the region uses both names" in err, err


def test_a_pointer_swap_and_an_unrelated_pointer_are_no_alias(tmp_path):
    code = """void f(int n, int t, double *a, double *b) {
  int i, k;
  double *tmp, s = 0.0, *q = &s;
  for (k = 0; k < t; k++) {
#pragma scop
    for (i = 1; i < n - 1; i++)
      b[i] = 0.5 * (a[i - 1] + a[i + 1]);
#pragma endscop
    tmp = a; a = b; b = tmp;
  }
  *q = 1.0;
}
"""
    src, r = case_files(tmp_path, code, "steps:\n  - tile: {stmt: 0, loop: i, size: 8}\n")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 0, err


RESERVED = """double f(int n, double *x, double *y) {
  int i;
  double max = -1e300, min = 1e300, floor = 0.0, mod;
#pragma scop
  for (i = 0; i < n; i++) {
    mod = 2.0 * x[i];
    y[i] = mod + 1.0;
    max = x[i] > max ? x[i] : max;
    min = x[i] < min ? x[i] : min;
    floor += x[i];
  }
#pragma endscop
  return max + min + floor;
}
"""


@gcc
def test_private_and_reduction_variables_with_isl_reserved_names_run(tmp_path):
    src, r = case_files(tmp_path, RESERVED, "steps:\n  - omp_for: {stmt: 0, loop: i, "
                                        "reduction: {max: [max], min: [min], +: [floor]}, private: [mod]}\n")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 0 and "reduction(max:max) reduction(min:min) reduction(+:floor) private(mod)" in out, out + err
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "n=1001", "--cflags", "-O2 -fopenmp")
    assert rc == 0 and ": ok" in out, out + err


def test_a_member_reduction_is_named_as_written(tmp_path):
    code = """struct acc { double s; };
void f(int n, double *x, struct acc *g) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    g->s += x[i];
#pragma endscop
}
"""
    src, r = case_files(tmp_path, code, "steps:\n  - omp_for: {stmt: 0, loop: i, reduction: {+: [g->s]}}\n")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 0 and "reduction(+:g__s)" in out, err


FLAGS = """void f(int n, char mode, int add, double *x, double *y, int *u) {
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    if (mode == 300) y[i] = 0;
    if (!add) u[i] = 7 / add;
    y[i] += x[i];
  }
#pragma endscop
}
"""


@gcc
def test_a_flag_gets_a_value_its_type_holds_and_no_zero_divisor(tmp_path):
    src, r = case_files(tmp_path, FLAGS, "steps:\n  - tile: {stmt: 2, loop: i, size: 8}\n")
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "n=101")
    assert rc == 0 and ": ok" in out, out + err
    assert "harness sets it to 300" not in err and "'mode' only turns statements" in err, err
    assert "'add' only turns statements of the region on or off: the harness sets it to 0" not in err, err


ORIO = """/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2'; }
  def performance_counter { arg repetitions = 1; }
  def performance_params { param U[] = [1, 2, 4]; %s }
  def input_params { param N[] = [40]; }
  def input_vars { decl static double A[N][N] = random; decl static double B[N][N] = random; }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
int i, j;
/*@ begin CHiLL (
  %s
) @*/
for (i = 0; i < N; i++)
  for (j = 0; j < N; j++)
    B[i][j] = B[i][j] + 2.0 * A[i][j];
/*@ end @*/
/*@ end @*/
"""


@gcc
@pytest.mark.parametrize("more, steps, note", [
    ("", 'unroll(0,"j",U-2)', "param 'U': value 1 is left out of the search, as step 1 (unroll) rejects it"),
    ("param T[] = [4, 8];", 'tile(0,"i",T//(U-1),"ii")',
     "param 'U': value 1 is left out of the search, as the recipe rejects it: cannot evaluate"),
])
def test_a_value_rejected_through_an_expression_is_left_out(tmp_path, more, steps, note):
    src = tmp_path / "s.c"
    src.write_text(ORIO % (more, steps))
    rc, out, err = run_cli("search", src, "--budget", "6")
    assert rc == 0 and note in err and "invalid" not in out, out + err


def test_a_bool_param_every_value_of_which_a_step_rejects_stops_before_measuring(tmp_path):
    src = tmp_path / "s.c"
    src.write_text(ORIO.replace("param U[] = [1, 2, 4];", "param K[] = [False, True];") % ("", 'tile(0,"i",K,"ii")'))
    rc, out, err = run_cli("search", src, "--budget", "4")
    assert rc == 2 and "argument 'size' must be an integer >= 1, got False" in err and "status:" not in out, out + err


ARMS = """#include <math.h>
void f(int n, double *x, double *y, double *z, int *u) {
  int i, q;
  double t;
#pragma scop
  for (i = 0; i < n; i++) {
    %s
  }
#pragma endscop
}
"""


@gcc
@pytest.mark.parametrize("body", [
    "if (x[i] > 0.5) { if (y[i] > 0.5) { t = sqrt(x[i]); z[i] = t; } }",
    "if (x[i] > 0.5) { t = sqrt(x[i]); y[i] = t; } else { t = x[i] * x[i]; z[i] = t; }",
    "if (x[i] > 0.5) { t = log(x[i]); y[i] = t; } else if (x[i] > 0.2) { t = x[i]; z[i] = t; } else { z[i] = 0.0; }",
    "if (x[i] > 0.5) { q = u[i] / 3; y[i] = q; }",
])
def test_temporaries_of_nested_and_both_arms_are_private(tmp_path, body):
    var = "q" if "q =" in body else "t"
    src, r = case_files(tmp_path, ARMS % body, "steps:\n  - omp_for: {stmt: 0, loop: i, private: [%s]}\n" % var)
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "n=1001", "--cflags", "-O2 -fopenmp")
    assert rc == 0 and ": ok" in out and "computed on every iteration" in err, out + err


@pytest.mark.parametrize("body", [
    "if (x[i] > 0.5) t = x[i]; if (x[i] <= 0.5) y[i] = t;",                    # read where no write ran
    "if (x[i] > 0.5) { t = x[i] * 3.0; y[i] = t; } else { t = -1.0; } z[i] = t;",   # two writes reach it
    "if (u[i] != 0) { q = 100 / u[i]; y[i] = q; }",                               # would divide by 0
    "if (x[i] > 0.5) { t = 1.0; y[i] = t; } else { z[i] = t; }",                  # the other arm reads it
])
def test_temporaries_whose_old_value_may_be_read_stay_conditional(tmp_path, body):
    var = "q" if "q =" in body else "t"
    src, r = case_files(tmp_path, ARMS % body, "steps:\n  - omp_for: {stmt: 0, loop: i, private: [%s]}\n" % var)
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 2 and f"reads '{var}' before any write of it in the same iteration" in err, err
