"""Probe 35 (CLAPACK's f2c BLAS, C linear algebra): sizes passed as `integer *n` with f2c's
typedef, a -D of such a size, a privatized `doublereal` temporary, 1-based columns with the
usual tight leading dimension, and a flat matrix's dominant diagonal for `run`'s second data set."""
import subprocess
from pathlib import Path

import pytest

from conftest import case_files, run_cli
from test_cuda_codegen import needs_nvcc, nvcc_compile

DATA = Path(__file__).resolve().parent / "data" / "probe35"

POINTER_SIZE = """\
typedef %s integer;
void f(integer *n, double *a)
{
  int i;
#pragma scop
  for (i = 1; i <= *n; ++i)
    a[i] = 0.;
#pragma endscop
}
"""
TILE = "steps:\n  - tile: {stmt: 0, loop: i, size: 4, control: ii}\n"


@pytest.mark.parametrize("ctype", ["int", "long int"])
def test_a_size_through_an_integer_typedef_pointer_is_a_size(tmp_path, ctype):
    src, r = case_files(tmp_path, POINTER_SIZE % ctype, TILE)
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 0 and f"const {ctype} n__0 = n[0];" in out and "ii <= lx_floord(n__0 - 1, 4)" in out, err + out
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "n__0=10", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


def test_f2c_bound_temporaries_of_the_typedef_are_forwarded():
    """`i__2 = *m; for (i__ = 1; i__ <= i__2; ++i__)` with `integer i__2`."""
    rc, out, err = run_cli("deps", DATA / "f2c_bound.c")
    assert rc == 0 and "i__      [S0] parallel" in out, err


def test_a_define_of_a_size_read_through_a_pointer_is_checked_at_run_time(tmp_path):
    src, r = case_files(tmp_path, POINTER_SIZE % "int", TILE)
    out_c = tmp_path / "out.c"
    rc, out, err = run_cli("transform", src, "--recipe", r, "-D", "n__0=10", "-o", out_c)
    text = out_c.read_text()
    assert rc == 0 and "#if n__0" not in text and "if (n__0 == 10)" in text, err + text
    p = subprocess.run(["gcc", "-c", str(out_c), "-o", str(tmp_path / "o.o")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def test_a_privatized_typedef_scalar_builds_in_the_harness_and_the_cu(tmp_path):
    src = DATA / "typedef_privatize.c"
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - privatize: {var: s, at: i}\n  - omp_for: {stmt: 0, loop: i}\n")
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "n=10", "-D", "m=7", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


@needs_nvcc
def test_a_privatized_typedef_scalar_compiles_in_the_cu(tmp_path):
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - privatize: {var: s, at: i}\n  - tile: {stmt: 0, loop: i, size: 32, control: ii}\n"
                 "  - cuda: {stmt: 0, block: [ii], thread: [i]}\n")
    rc, out, err = run_cli("transform", DATA / "typedef_privatize.c", "--recipe", r, "--target", "cuda")
    assert rc == 0 and "real_t" not in out.split("__global__")[1].split("{")[1], err
    assert nvcc_compile(out) is None


def test_clapack_dtrsm_with_the_tight_leading_dimension_runs_transformed(tmp_path):
    """f2c's 1-based columns (i__ = 1..m in rows of lda) stay in their rows for lda >= m, the
    usual call; the model asked for lda > m and the output ran the region as written."""
    src = DATA / "clapack_dtrsm_lut_m.c"
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - privatize: {var: temp, at: i__}\n  - unroll: {stmt: 1, loop: k, factor: 4}\n"
                 "  - omp_for: {stmt: 0, loop: j}\n")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 0 and "a_dim1 >= m[0] and b_dim1 >= m[0]" in err and "> m[0]" not in err, err
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "m__0=9", "-D", "n__0=5", "-D", "i__1=5",
                           "-D", "a_dim1=9", "-D", "b_dim1=9", "-D", "nounit=1", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


def test_a_flat_square_matrix_gets_the_dominant_diagonal(tmp_path):
    """PolyBench's cholesky on `double *A` read as A[i*n + j]: NaN on random data, and the
    second data set must make the flat matrix diagonally dominant as it does a 2-D one."""
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - unroll: {stmt: 0, loop: k, factor: 2}\n")
    rc, out, err = run_cli("run", DATA / "chol_lin.c", "--recipe", r, "-D", "n=13", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


CONST_TAPS = """\
%svoid f(int n, double *a, const double *b)
{
%s  int i, k;
#pragma scop
  for (i = 0; i < n; i++)
    for (k = 0; k < K; k++)
      a[i] += b[i + k];
#pragma endscop
}
"""
UNROLL_K = "steps:\n  - unroll: {stmt: 0, loop: k, factor: 0}\n"


def test_a_constant_local_bound_is_unrolled_fully_at_its_value(tmp_path):
    src, r = case_files(tmp_path, CONST_TAPS % ("", "  const int K = 3;\n"), UNROLL_K)
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 0 and out.count("a[i] +=") == 3 and "a[i] += b[i + 2];" in out and "if (K" not in out, err + out
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "n=10", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


def test_a_local_that_is_changed_keeps_its_bound_symbolic(tmp_path):
    src, r = case_files(tmp_path, CONST_TAPS % ("", "  int K = 3;\n  K += n % 2;\n"), UNROLL_K)
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 2 and "no constant trip count" in err, err + out


def test_a_define_that_contradicts_a_constant_local_is_refused_at_the_declaration(tmp_path):
    src, r = case_files(tmp_path, CONST_TAPS % ("", "  const int K = 3;\n"), UNROLL_K)
    rc, out, err = run_cli("transform", src, "--recipe", r, "-D", "K=4")
    assert rc == 2 and ":3:13: error: -D K=4 does not change 'K'" in err and "drop -D K" in err, err
    # the file's own value: plain code, no check of K
    rc, out, err = run_cli("transform", src, "--recipe", r, "-D", "K=3")
    assert rc == 0 and out.count("a[i] +=") == 3 and "if (K" not in out, err + out
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "K=3", "-D", "n=9", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("define", [False, True])
def test_a_full_unroll_follows_the_filter_bound_not_the_image_width(tmp_path, define):
    """`for (f = 0; f < K; f++) { if (x - K/2 + f >= w) continue; ...}` with -D w: 5 taps, not w."""
    src = DATA / "unroll_range.c"
    if define:
        text = src.read_text().replace("  const int K = 5;\n", "")
        src = tmp_path / "blur.c"
        src.write_text("#define K 5\n" + text)
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - unroll: {stmt: 1, loop: f, factor: 0}\n")
    out_c = tmp_path / "out.c"
    rc, out, err = run_cli("transform", src, "--recipe", r, "-D", "w=12", "-o", out_c)
    text = out_c.read_text() if out_c.exists() else ""
    assert rc == 0 and text.count("s += filt[") == 5 + 1, err + text     # + the region as written
    assert ("#if K != 5" in text) == define, text
    for w in ("12", "3"):
        rc, out, err = run_cli("run", src, "--recipe", r, "-D", f"w={w}", "--repetitions", "1")
        assert rc == 0 and ": ok" in out, out + err


def test_f2c_sizes_assigned_once_before_the_region_follow_the_pointer_sizes(tmp_path):
    """`c_dim1 = *ldc; i__1 = *n;` then the region: -D ldc__0 and -D n__0 give them."""
    src = DATA / "f2c_assigned.c"
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - tile: {stmt: 0, loop: j, size: 4, control: jj}\n"
                 "  - tile: {stmt: 0, loop: i__, size: 8, control: ii}\n"
                 "  - permute: {stmt: 0, order: [jj, ii, j, i__]}\n")
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "m__0=13", "-D", "n__0=7", "-D", "ldc__0=13",
                           "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err
