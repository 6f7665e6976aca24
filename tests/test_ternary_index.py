"""Reads whose subscript chooses with `?:` (Rodinia hotspot3D's clamped neighbours) are two
guarded affine reads (frontend/ternary_index.py); writes through such a subscript stay refused."""
from pathlib import Path

import pytest

from conftest import run_cli
from test_cuda_codegen import needs_nvcc, nvcc_compile
from test_gathers import require_gpu

DATA = Path(__file__).resolve().parent / "data" / "ternary"
HOTSPOT = DATA / "hotspot3d.c"


def _recipe(tmp_path, *steps, name="r.yaml"):
    r = tmp_path / name
    r.write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps))
    return r


@pytest.mark.parametrize("sizes", [(37, 21, 5), (32, 16, 4)])
def test_hotspot3d_tiled_and_parallel_matches_the_original(tmp_path, sizes):
    r = _recipe(tmp_path, "tile: {stmt: 0, loop: y, size: 8}", "tile: {stmt: 0, loop: x, size: 16}",
                "omp_for: {stmt: 0, loop: z}")
    nx, ny, nz = sizes
    rc, out, err = run_cli("run", HOTSPOT, "--recipe", r, "-D", f"nx={nx}", "-D", f"ny={ny}",
                           "-D", f"nz={nz}", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


def test_hotspot3d_reads_each_neighbour_under_its_branch(tmp_path):
    r = _recipe(tmp_path, "tile: {stmt: 0, loop: y, size: 8}")
    rc, out, err = run_cli("transform", HOTSPOT, "--recipe", r)
    assert rc == 0, err
    assert "(x == 0 ? tIn_t[(z * ny + y) * nx + x] : tIn_t[(z * ny + y) * nx + (x - 1)])" in out, out
    rc, out, err = run_cli("deps", HOTSPOT)
    assert rc == 0 and "parallel" in out, err


@pytest.mark.parametrize("n", [8, 13])
def test_a_clamped_read_of_an_array_the_loop_writes(tmp_path, n):
    """In place: the ?: read of a[i - 1] carries a dependence, which the model keeps (both
    branches count), so the skewed/tiled time loop is checked like any other."""
    src = tmp_path / "smooth.c"
    src.write_text("""
#define T 6
void smooth(int n, double a[n][n]) {
  int t, i, j;
#pragma scop
  for (t = 0; t < T; t++)
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++)
        a[i][j] = 0.5 * a[i][j] + 0.25 * a[(i == 0) ? i : i - 1][j]
                + 0.25 * a[i][(j > 0 && j < n - 1) ? j + 1 : j];
#pragma endscop
}
""")
    rc, out, err = run_cli("run", src, "--recipe", _recipe(tmp_path, "tile: {stmt: 0, loop: j, size: 4}"),
                           "-D", f"n={n}", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err
    rc, out, err = run_cli("transform", src, "--recipe", _recipe(tmp_path, "omp_for: {stmt: 0, loop: i}"))
    assert rc == 2 and "omp_for" in err and err.count("\n") == 1, err


def test_nested_choices_and_a_choice_inside_an_index_array_read(tmp_path):
    src = tmp_path / "nest.c"
    src.write_text("""
void f(int n, float *A, float *B, const int *idx) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    B[i] = A[(i == 0) ? 0 : ((i == n - 1) ? i : i - 1)] + A[idx[(i < 2) ? i : i - 2]];
#pragma endscop
}
""")
    r = _recipe(tmp_path, "tile: {stmt: 0, loop: i, size: 4}")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 0 and "(i == 0 ? A[0] : i == n - 1 ? A[i] : A[i - 1]) + (i < 2 ? A[idx[i]] : A[idx[i - 2]])" in out, out + err
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "n=11", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


def test_a_write_through_a_choice_is_still_refused(tmp_path):
    src = tmp_path / "w.c"
    src.write_text("""
void f(int n, float *A, float *B) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    A[(i == 0) ? i : i - 1] = B[i];
#pragma endscop
}
""")
    rc, out, err = run_cli("transform", src, "--recipe", _recipe(tmp_path, "tile: {stmt: 0, loop: i, size: 4}"))
    assert rc == 2 and "w.c:6:5: error: non-affine subscript of 'A': conditional expression" in err, err


@needs_nvcc
def test_hotspot3d_mapped_to_cuda_compiles(tmp_path):
    r = _recipe(tmp_path, "tile: {stmt: 0, loop: y, size: 8, control: yy}",
                "tile: {stmt: 0, loop: x, size: 32, control: xx}",
                "permute: {stmt: 0, order: [yy, xx, z, y, x]}",
                "cuda: {stmt: 0, block: [xx, yy], thread: [x, y]}")
    rc, out, err = run_cli("transform", HOTSPOT, "--recipe", r, "--target", "cuda")
    assert rc == 0 and "__global__" in out, err
    assert nvcc_compile(out) is None


@pytest.mark.gpu
@pytest.mark.parametrize("sizes", [(37, 21, 5), (64, 16, 4)])
def test_hotspot3d_validates_on_the_gpu(tmp_path, sizes):
    require_gpu()
    r = _recipe(tmp_path, "tile: {stmt: 0, loop: y, size: 8, control: yy}",
                "tile: {stmt: 0, loop: x, size: 32, control: xx}",
                "permute: {stmt: 0, order: [yy, xx, z, y, x]}",
                "cuda: {stmt: 0, block: [xx, yy], thread: [x, y]}")
    nx, ny, nz = sizes
    rc, out, err = run_cli("run", HOTSPOT, "--recipe", r, "--target", "cuda", "-D", f"nx={nx}",
                           "-D", f"ny={ny}", "-D", f"nz={nz}", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err
