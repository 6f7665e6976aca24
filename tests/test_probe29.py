"""Probe 29 (SHOC, CloverLeaf, TeaLeaf, miniFE/HPCCG): the messages and output details it found.
(The cudaize count below the reach: test_cuda_regressions.py; reductions: test_reductions.py;
the guards a jam decides: test_jam_locals.py.)"""
from __future__ import annotations

import shutil
import subprocess

import pytest

from conftest import run_cli

FFT = """#define H 8
void stage(int nblk, double *re, const double *w) {
  int b, k;
#pragma scop
  for (b = 0; b < nblk; b++)
    for (k = 0; k < H; k++)
      re[b * H + k] = re[b * H + k] * w[k];
#pragma endscop
}
"""


@pytest.mark.skipif(shutil.which("gcc") is None, reason="compiles the generated C with gcc, which this machine lacks")
def test_a_counter_whose_loop_is_unrolled_away_is_not_left_unused(tmp_path):
    src = tmp_path / "fft.c"
    src.write_text(FFT)
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - unroll: {stmt: 0, loop: k, factor: 0}\n")
    out = tmp_path / "out.c"
    rc, _, err = run_cli("transform", src, "--recipe", r, "-o", out)
    assert rc == 0, err
    p = subprocess.run(["gcc", "-Wall", "-Werror", "-Wno-unknown-pragmas", "-c", str(out), "-o",
                        str(tmp_path / "out.o")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def test_a_note_leaves_out_the_facts_the_others_imply():
    from looptx.poly.facts import without_implied
    assert without_implied(["x_min > 0", "x_min >= 0"]) == ["x_min > 0"]
    assert without_implied([("h", "h > -x"), ("h", "h > 0"), ("h", "h >= 0"), ("h", "h >= 2 - x")]) == \
        [("h", "h > 0"), ("h", "h >= 2 - x")]
    assert without_implied(["n >= 0", "m >= 0"]) == ["n >= 0", "m >= 0"]


PTR = """void f(int *n, double *a, double *dt) {
  int i;
  double s = *dt;
  for (i = 0; i < *n; i++)
    a[i] = s * a[i];
}
"""


@pytest.mark.parametrize("define, message", [
    ("dt=1", "'dt' is a pointer in f.c, not a size (drop this --define"),
    ("n=100", "'n' is a pointer in f.c, not a size (a size the region reads as *n or n[0] is given as "
              "--define n__0=100"),
])
def test_a_define_of_a_pointer_is_refused(tmp_path, define, message):
    src = tmp_path / "f.c"
    src.write_text(PTR)
    rc, out, err = run_cli("run", src, "--function", "f", "-D", define)
    assert rc == 2 and f"f.c:1:" in err and message in err, err


WAXPBY = """void waxpby(int n, double alpha, const double *x, double beta, const double *y, double *w) {
  int i;
  if (alpha == 1.0) {
    for (i = 0; i < n; i++) w[i] = x[i] + beta * y[i];
  } else {
    for (i = 0; i < n; i++) w[i] = alpha * x[i] + beta * y[i];
  }
}
"""
SPMV = """void spmv(int nRows, const double *val, const int *cols, const int *rowDelimiters,
          const double *vec, double *out) {
  int i, j;
#pragma scop
  for (i = 0; i < nRows; i++) {
    double t = 0.0;
    for (j = rowDelimiters[i]; j < rowDelimiters[i+1]; j++)
      t += val[j] * vec[cols[j]];
    out[i] = t;
  }
#pragma endscop
}
"""


@pytest.mark.parametrize("text, args, message", [
    (WAXPBY, ("--function", "waxpby"), "f.c:3:7: error: non-affine condition: 'alpha' (double) is not a loop "
     "iterator or an integer size (the branch chooses between loop nests: mark each nest as a region of its own"),
    (SPMV, (), "f.c:7:14: error: non-affine: array element of 'rowDelimiters' used in an index or bound "
     "(a loop bounded by array data (CSR's `for (j = rowptr[i]; j < rowptr[i + 1]; j++)`) has no polyhedral "
     "model: store the rows padded to one length (ELL"),
])
def test_refusals_name_what_they_refuse(tmp_path, text, args, message):
    src = tmp_path / "f.c"
    src.write_text(text)
    rc, out, err = run_cli("deps", src, *args)
    assert rc == 2 and message in err, err


def test_combine_of_a_loop_that_runs_nothing_says_so(tmp_path):
    src = tmp_path / "f.c"
    src.write_text("void f(int n, int m, double a[n][m]) {\n  int i, j;\n#pragma scop\n"
                   "  for (i = 0; i < n; i++)\n    for (j = 0; j < m; j++)\n      a[i][j] = 2.0 * a[i][j];\n"
                   "#pragma endscop\n}\n")
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - combine: {stmt: 0, loops: [i, j]}\n")
    rc, out, err = run_cli("transform", src, "--recipe", r, "-D", "n=3", "-D", "m=0")
    assert rc == 2 and "combine: loop 'j' runs no iteration at these sizes" in err, err
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "n=3", "-D", "m=5")
    assert rc == 0 and ": ok" in out, out + err


VISC = """#include <math.h>
void visc(int n, const double *p, const double *dx, const int *cnt, const int *tot, double *v, int *avg) {
  int j, q;
  double g, g2;
#pragma scop
  for (j = 1; j < n - 1; j++) {
    if (p[j] > 0.0) {
      v[j] = 0.0;
    } else {
      g = fabs(p[j + 1] - p[j - 1]) / dx[j];
      g2 = g * g;
      v[j] = 2.0 * g2;
    }
    %s
  }
#pragma endscop
}
"""


def test_temporaries_of_one_arm_are_private_to_each_iteration(tmp_path):
    """B2 (CloverLeaf's viscosity): `g` and `g2`, set and read only in the else arm, made
    `g = c ? g : ...`, which reads the old value, so omp_for private refused them.  Computed
    on every iteration they are private; `q`, an integer quotient, stays conditional."""
    src = tmp_path / "visc.c"
    src.write_text(VISC % "")
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - omp_for: {stmt: 0, loop: j, private: [g, g2]}\n")
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "n=41", "--cflags", "-O2 -fopenmp")
    assert rc == 0 and ": ok" in out, out + err
    assert "'g', 'g2' are set and read only under branches on data" in err, err
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert "g = fabs(p[j + 1] - p[j - 1]) / dx[j];" in out, out
    src.write_text(VISC % "if (cnt[j] != 0) {\n      q = tot[j] / cnt[j];\n      avg[j] = q;\n    }")
    r.write_text("steps:\n  - omp_for: {stmt: 0, loop: j, private: [g, g2, q]}\n")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 2 and "reads 'q' before any write of it" in err, err
