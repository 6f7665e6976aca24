"""A variable declared inside a loop body is a new object in every iteration (C scoping), so it
orders nothing between iterations: interchanges and thread mappings that only its reuse seemed
to forbid are legal.  looptx still keeps one variable for all the objects, so an order that
would make two iterations' values live at once in it (a distribute) is refused; a jam gives each
of its copies a variable of its own."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from difftest import KERNELS, check_same
from test_frontend_regressions import LOCAL
from conftest import cli_process as cli

NVCC = shutil.which("nvcc")

# test_frontend_regressions' kernel (iterators declared in the for), with one local, t
PAIR = (LOCAL % ("", "int", "int")).replace(
    "      const double t = A[i][j] * 0.5;\n      double u;\n      u = t * t;\n      B[i][j] = t + B[i][j] - u;\n",
    "      double t = A[i][j] * 0.5;\n      B[i][j] = t + B[i][j] * t;\n")
assert "B[i][j] = t + B[i][j] * t;" in PAIR

ACCUMULATE = """\
#include "harness.h"
#ifndef N
#define N 50
#endif
static double A[N][N], x[N], y[N];
static void f(void)
{
#pragma scop
  for (int i = 0; i < N; i++) {
    double s = 0.0;
    for (int k = 0; k < N; k++)
      s += A[i][k] * x[k];
    y[i] = s;
  }
#pragma endscop
}
int main(void)
{
  lx_seed(3);
  lx_fill_double(&A[0][0], (size_t)N * N);
  lx_fill_double(x, N);
  f();
  lx_dump("y", y, sizeof y);
  return 0;
}
"""

# the same name declared in two nests: two objects, as in C (llm.c's layernorm_backward)
TWICE = """\
#define N 10
double A[N][N], B[N][N];
void f(void)
{
#pragma scop
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double t = A[i][j];
      A[i][j] = t * 2.0;
    }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double t = B[i][j];
      B[i][j] = t + 1.0;
    }
#pragma endscop
}
"""




def kernel(tmp_path: Path, text: str, name: str) -> Path:
    shutil.copy(KERNELS / "harness.h", tmp_path)
    k = tmp_path / name
    k.write_text(text)
    return k


def recipe(tmp_path: Path, *steps: str) -> Path:
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps))
    return r


@pytest.mark.parametrize("steps", [
    ["permute: {stmt: 0, order: [j, i]}"],
    ["tile: {stmt: 0, loop: i, size: 8}", "tile: {stmt: 0, loop: j, size: 6}",
     "permute: {stmt: 0, order: [jj, ii, j, i]}"],
    ["unroll: {stmt: 0, loop: i, factor: 3}"],
], ids=["interchange", "tile-permute", "unroll-and-jam"])
def test_loop_local_orders_no_iterations(tmp_path, steps):
    k = kernel(tmp_path, PAIR, "pair.c")
    r = recipe(tmp_path, *steps)
    for sizes in ({"N": 48, "M": 36}, {"N": 37, "M": 29}):
        p = cli("transform", k, "--recipe", r, *[f"-D{a}={v}" for a, v in sizes.items()])
        assert p.returncode == 0, p.stderr
        check_same(k, p.stdout, sizes)


def test_deps_report_no_dependence_between_iterations_on_a_loop_local(tmp_path):
    k = kernel(tmp_path, PAIR, "pair.c")
    p = cli("deps", k)
    assert p.returncode == 0, p.stderr
    assert "RAW  S0 -> S1    t" in p.stdout and "loop-independent" in p.stdout, p.stdout
    assert "WAW" not in p.stdout and "WAR" not in p.stdout, p.stdout
    assert "i        [S0,S1] parallel" in p.stdout and "j        [S0,S1] parallel" in p.stdout, p.stdout


@pytest.mark.parametrize("file,steps,name", [
    (PAIR, ["distribute: {stmts: [0, 1], loop: j}"], "t"),
    (ACCUMULATE, ["distribute: {stmts: [1], loop: i}", "permute: {stmt: 1, order: [k, i]}"], "s"),
], ids=["distribute", "interchange-of-accumulator"])
def test_overlapping_lifetimes_are_refused(tmp_path, file, steps, name):
    k = kernel(tmp_path, file, "k.c")
    p = cli("transform", k, "--recipe", recipe(tmp_path, *steps))
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "Traceback" not in p.stderr, p.stderr
    assert p.stderr.startswith(f"{tmp_path / 'r.yaml'}:") and "step" in p.stderr, p.stderr
    assert f"'{name}' has an object per iteration of the loop" in p.stderr and "between" in p.stderr, p.stderr


def test_a_jam_of_the_accumulator_gives_each_copy_its_own(tmp_path):
    # (once refused: the one `s` would have held two iterations' sums; poly/jam_locals.py)
    k = kernel(tmp_path, ACCUMULATE, "acc.c")
    r = recipe(tmp_path, "unroll: {stmt: 1, loop: i, factor: 2}")
    for sizes in ({"N": 48}, {"N": 37}):
        p = cli("transform", k, "--recipe", r, *[f"-D{a}={v}" for a, v in sizes.items()])
        assert p.returncode == 0 and "s__i1 += A[i + 1][k] * x[k];" in p.stdout, p.stderr
        check_same(k, p.stdout, sizes)


@pytest.mark.parametrize("step", ["permute: {stmt: 1, order: [j, i]}", "omp_for: {stmt: 3, loop: i}",
                                  "fuse: {stmts: [0, 2], loop: j}"])
def test_a_name_declared_in_two_nests_is_two_variables(tmp_path, step):
    """Before, the two `t` were one object, whose reuse ordered the iterations of both nests."""
    k = kernel(tmp_path, TWICE, "twice.c")
    p = cli("transform", k, "--recipe", recipe(tmp_path, step))
    assert p.returncode == 0, p.stderr
    assert "double t;" in p.stdout and "double t__2;" in p.stdout and "B[i][j] = t__2 + 1.0;" in p.stdout
    r = cli("run", k, "--recipe", recipe(tmp_path, step), "--repetitions", "1")
    assert r.returncode == 0 and ": ok" in r.stdout, r.stdout + r.stderr


ACCUMULATE_CUDA = ["tile: {stmt: 1, loop: i, size: 8}", "cuda: {stmt: 1, block: [ii], thread: [i]}"]


@pytest.mark.parametrize("n", [48, 37])
def test_loop_local_accumulator_maps_to_threads(tmp_path, n):
    """Before, the reuse of `s` was a dependence carried by i, and the mapping was refused.
    On the C backend the grid is emulated thread by thread."""
    k = kernel(tmp_path, ACCUMULATE, "mv.c")
    p = cli("transform", k, "--recipe", recipe(tmp_path, *ACCUMULATE_CUDA), f"-DN={n}")
    assert p.returncode == 0, p.stderr
    assert "threadIdx" not in p.stdout and "for (int tx = 0; tx < 8; tx++)" in p.stdout, p.stdout
    check_same(k, p.stdout, {"N": n})


@pytest.mark.skipif(NVCC is None, reason="nvcc is not installed (CI machines have it)")
def test_loop_local_accumulator_is_a_register_of_each_thread(tmp_path):
    k = kernel(tmp_path, ACCUMULATE, "mv.c")
    out = tmp_path / "mv.cu"
    p = cli("transform", k, "--recipe", recipe(tmp_path, *ACCUMULATE_CUDA), "--target", "cuda", "-o", out)
    assert p.returncode == 0, p.stderr
    text = out.read_text()
    kernel_text = text[text.index("__global__"):text.index("extern")]
    assert "  double s;" in kernel_text and "double *__restrict__ s" not in text, kernel_text
    b = subprocess.run([NVCC, "-arch=sm_90", "-c", str(out), "-o", str(tmp_path / "mv.o")],
                       capture_output=True, text=True)
    assert b.returncode == 0, b.stderr[-2000:]


@pytest.mark.gpu
@pytest.mark.parametrize("n", [48, 37])
def test_loop_local_accumulator_on_gpu(tmp_path, n):
    try:
        from looptx.runtime.cuda import CudaSession
        session = CudaSession()
    except Exception as e:                      # no pycuda, no driver, no device
        pytest.skip(f"needs an NVIDIA GPU with pycuda ({e})")
    from looptx.pipeline import load, variants_for
    from looptx.recipe.schema import load_file
    from looptx.runtime.cuda import run_region
    k = kernel(tmp_path, ACCUMULATE, "mv.c")
    program = load(str(k), defines={"N": n})
    variant = variants_for(program, load_file(str(recipe(tmp_path, *ACCUMULATE_CUDA))))[0][0]
    res = run_region(program, 0, variant, {"N": n}, session=session, repetitions=2)
    assert res["status"] == "ok", (n, res)
