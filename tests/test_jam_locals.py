"""Unroll-and-jam of a loop whose body declares a local (llama2.c's matmul accumulator
`float val`): each copy of the jammed body gets a variable of its own, declared like the local,
in the main strips and in the copies of the remainder alike, so the jam is legal and computes
what the original does (poly/jam_locals.py, codegen/unroll.py)."""
from __future__ import annotations

import pytest

from conftest import case_files, require_gpu, run_cli
from test_cuda_codegen import needs_nvcc, nvcc_compile

MATVEC = """void matmul(float* xout, float* x, float* w, int n, int d) {
    int i;
    for (i = 0; i < d; i++) {
        float val = 0.0f;
        for (int j = 0; j < n; j++) {
            val += w[i * n + j] * x[j];
        }
        xout[i] = val;
    }
}
"""

MM = """void mm(int n, int m, int p, double A[n][p], double B[p][m], double C[n][m]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      double s = 0.0;
      for (int k = 0; k < p; k++)
        s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
}
"""



def _ok(*argv):
    rc, out, err = run_cli(*argv)
    assert rc == 0 and ": ok" in out and "max rel err 0.0e+00" in out, out + err


@pytest.mark.parametrize("d", [777, 3])
def test_a_jammed_accumulator_gets_a_variable_per_copy(tmp_path, d):
    c, r = case_files(tmp_path, MATVEC, "steps:\n  - unroll: {stmt: 1, loop: i, factor: 4}\n")
    _ok("run", c, "--function", "matmul", "--recipe", r, "-D", "n=97", "-D", f"d={d}")
    if d == 777:
        rc, out, err = run_cli("transform", c, "--function", "matmul", "--recipe", r)
        assert rc == 0 and "float val__i3 = 0;" in out and "val__i3 += w[(i + 3) * n + j] * x[j];" in out, out + err
        # the remainder's copies keep the names of their copy: never a loop over one `val`; the
        # fourth never runs (d % 4 <= 3), so it is not written
        assert "xout[d - d % 4 + 2] = val__i2;" in out and "d - d % 4 + 3" not in out, out


def test_nested_jams_name_each_copy_apart_and_openmp_keeps_them_private(tmp_path):
    c, r = case_files(tmp_path, MM, "steps:\n  - unroll: {stmt: 1, loop: i, factor: 2}\n"
                                "  - unroll: {stmt: 1, loop: j, factor: 3}\n")
    for sizes in (("n=7", "m=8", "p=5"), ("n=1", "m=1", "p=1")):
        _ok("run", c, "--function", "mm", "--recipe", r, *[x for s in sizes for x in ("-D", s)])
    rc, out, err = run_cli("transform", c, "--function", "mm", "--recipe", r)
    assert rc == 0 and "s__j2__i1 += A[i + 1][k] * B[k][j + 2];" in out, out + err
    c, r = case_files(tmp_path, MATVEC, "steps:\n  - tile: {stmt: 1, loop: i, size: 16, control: ii}\n"
                                    "  - unroll: {stmt: 1, loop: i, factor: 4}\n"
                                    "  - unroll: {stmt: 1, loop: j, factor: 2}\n"
                                    "  - omp_for: {stmt: 1, loop: ii}\n")
    _ok("run", c, "--function", "matmul", "--recipe", r, "-D", "n=97", "-D", "d=777", "--cflags", "-O2 -fopenmp")
    rc, out, err = run_cli("transform", c, "--function", "matmul", "--recipe", r)
    assert rc == 0 and "private(i) firstprivate(val, val__i1, val__i2, val__i3)" in out, out + err


def test_a_split_lifetime_is_still_refused(tmp_path):
    # distributing the accumulation from its use overlaps the iterations' values in one variable
    c, r = case_files(tmp_path, MATVEC, "steps:\n  - distribute: {stmts: [0, 1, 2], loop: i}\n")
    rc, out, err = run_cli("transform", c, "--function", "matmul", "--recipe", r)
    assert rc == 2 and "lifetimes of two iterations' values" in err, err


@needs_nvcc
def test_a_jam_inside_a_thread_declares_the_copies_in_the_kernel(tmp_path):
    c, r = case_files(tmp_path, MM, "steps:\n  - tile: {stmt: 1, loop: j, size: 32, control: jj}\n"
                                "  - permute: {stmt: 1, order: [jj, j, i]}\n"
                                "  - cuda: {stmt: 1, block: [jj], thread: [j]}\n"
                                "  - unroll: {stmt: 1, loop: i, factor: 2}\n")
    _ok("run", c, "--function", "mm", "--recipe", r, "-D", "n=7", "-D", "m=45", "-D", "p=5")
    cu = tmp_path / "k.cu"
    rc, out, err = run_cli("transform", c, "--function", "mm", "--recipe", r, "--target", "cuda", "-o", cu)
    text = cu.read_text()
    assert rc == 0 and "double s__i1 = 0;" in text and nvcc_compile(text) is None, err + text


@pytest.mark.gpu
def test_a_jam_inside_a_thread_runs_on_the_gpu(tmp_path):
    require_gpu()
    c, r = case_files(tmp_path, MM, "steps:\n  - tile: {stmt: 1, loop: j, size: 32, control: jj}\n"
                                "  - permute: {stmt: 1, order: [jj, j, i]}\n"
                                "  - cuda: {stmt: 1, block: [jj], thread: [j]}\n"
                                "  - unroll: {stmt: 1, loop: i, factor: 4}\n")
    for sizes in (("n=37", "m=45", "p=5"), ("n=64", "m=64", "p=64")):
        # (the GPU's fused multiply-adds round otherwise than the CPU's reference: not exact)
        rc, out, err = run_cli("run", c, "--function", "mm", "--recipe", r, "--target", "cuda",
                               *[x for s in sizes for x in ("-D", s)])
        assert rc == 0 and ": ok" in out, out + err


STENCIL = """void avg(int n, double *a, double *b) {
  int j, jv;
  double s;
#pragma scop
  for (j = 0; j < n; j++) {
    s = 0.0;
    for (jv = j; jv <= j + 1; jv++)
      s += a[jv];
    b[j] = s;
  }
#pragma endscop
}
"""


def test_guards_a_jam_decides_are_dropped(tmp_path):
    """Probe 29 C4: after a full unroll of `jv` (from j to j + 1) and a jam of `j`, the copies
    kept guards such as `if (j - 1 <= j && j + 1 <= j)` (gcc -Wall: tautological compares, and
    copies that never run)."""
    src = tmp_path / "avg.c"
    src.write_text(STENCIL)
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - privatize: {var: s, at: j}\n  - unroll: {stmt: 1, loop: jv, factor: 0}\n"
                 "  - unroll: {stmt: 0, loop: j, factor: 2}\n")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 0 and "if (j" not in out and out.count("+= a[") == 6, out + err
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "n=37")
    assert rc == 0 and ": ok" in out, out + err
