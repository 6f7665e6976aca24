"""Kernels with shared copies run on CPU threads (tests/cuda_on_threads.py): the .cu's host
function against the original C, at sizes that do and do not divide the tiles.  The C backend
cannot check them (it falls back to the sequential schedule for kernels with barriers).

The accumulator forms (`sum = 0; for k ...; C[i][j] = sum;`, probe 127 G3) keep the copy's
loop inside the thread loops; the block makes each copy together (poly/gpu_collapse.py), one
buffer holding what all its threads read, where they were made one thread at a time."""
from pathlib import Path

import pytest

from conftest import run_cli
from cuda_on_threads import compare_host
from test_cuda_codegen import NVCC, nvcc_compile

pytestmark = pytest.mark.usefixtures("private_build_cache")

DATA = Path(__file__).resolve().parent / "data" / "threads"

CASES = {
    "mm_acc": ([dict(n=19, m=13, p=21), dict(n=16, m=16, p=16), dict(n=1, m=2, p=3)], ["A_sh[8][8]", "B_sh[8][9]"]),
    "mm_inplace": ([dict(n=19, m=13, p=21), dict(n=8, m=24, p=8)], ["A_sh[8][8]"]),
    "attn": ([dict(B=2, H=3, T=11, D=13), dict(B=1, H=2, T=8, D=8)], ["Q_sh[1][1][8][8]", "K_sh[1][1][4][8]"]),
    "tccg20": ([dict(na=5, nb=6, nc=3, nd=2, ne=4, nf=7), dict(na=17, nb=9, nc=1, nd=2, ne=3, nf=5)],
               ["B_sh[1][1][4][1]", "A_sh[4][4][1][8]"]),
    "mv_acc": ([dict(n=45, m=37), dict(n=32, m=16), dict(n=3, m=1)], ["A_sh[32][16]", "x_sh[16]"]),
    "conv_acc": ([dict(h=9, w=13), dict(h=4, w=8), dict(h=1, w=1)], ["in_sh[4][10]"]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_shared_copies_run_on_threads_as_the_original(tmp_path, name):
    sizes, buffers = CASES[name]
    cu_path = tmp_path / f"{name}.cu"
    rc, out, err = run_cli("transform", DATA / f"{name}.c", "--recipe", DATA / f"{name}.yaml", "--target", "cuda",
                           "-o", cu_path)
    assert rc == 0 and "one thread at a time" not in err, err
    cu = cu_path.read_text()
    kernel = cu[cu.index("__global__"):cu.index('extern "C"')]
    # the block's threads each run their own iteration: no loop over the thread loops' values
    assert "__syncthreads();" in kernel and "== 8 * bx + tx" not in kernel and "== 32 * bx + tx" not in kernel, kernel
    for b in buffers:
        assert f"__shared__ {'float' if name in ('attn', 'conv_acc') else 'double'} {b};" in kernel, kernel
    for s in sizes:
        diff = compare_host(cu, DATA / f"{name}.c", name, s, tmp_path / "b")
        assert max(diff.values()) <= 1e-6, (s, diff)
    if NVCC:
        assert nvcc_compile(cu) is None


def test_a_copy_that_differs_between_threads_in_its_loops_stays_one_thread_at_a_time(tmp_path):
    """The loop around the copy runs as far as the thread's row (`k <= i`): threads would meet
    different numbers of barriers, so the copy stays in the thread loops, with the warning, and
    still computes the original's results."""
    src = tmp_path / "k.c"
    src.write_text("void tri(int n, double y[n], const double L[n][n], const double x[n])\n{\n  double t;\n"
                   "#pragma scop\n  for (int i = 0; i < n; i++) {\n    t = 0.0;\n    for (int k = 0; k <= i; k++)\n"
                   "      t += L[i][k] * x[k];\n    y[i] = t;\n  }\n#pragma endscop\n}\n")
    rec = tmp_path / "r.yaml"
    rec.write_text("steps:\n  - privatize: {var: t, at: i}\n  - tile: {stmt: 1, loop: i, size: 16, control: ii}\n"
                   "  - tile: {stmt: 1, loop: k, size: 8, control: kk}\n  - cuda: {stmt: 1, block: [ii], thread: [i]}\n"
                   "  - shared: {stmt: 1, array: x, at: kk}\n")
    cu_path = tmp_path / "k.cu"
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda", "-o", cu_path)
    assert rc == 0 and "is made one thread at a time between barriers" in err, err
    for n in (21, 16, 3):
        diff = compare_host(cu_path.read_text(), src, "tri", dict(n=n), tmp_path / "b")
        assert max(diff.values()) <= 1e-9, (n, diff)


@pytest.mark.parametrize("split", ["split: {stmt: 0, loop: i, at: 5}", "peel: {stmt: 0, loop: i, first: 1}"])
def test_a_split_statement_maps_each_of_its_nests(tmp_path, split):
    """Probe 134 G2: after a split or peel, a cuda step on the statement was refused ('statement
    0 is inside the kernel of statement 0 ... but not inside its block loop'): each nest is a
    kernel of its own now."""
    src = tmp_path / "k.c"
    src.write_text("void sp(int n, int m, double B[n][m], const double A[n][m])\n{\n#pragma scop\n"
                   "  for (int i = 0; i < n; i++)\n    for (int j = 0; j < 32; j++)\n      B[i][j] = A[i][j] * 2.0;\n"
                   "#pragma endscop\n}\n")
    rec = tmp_path / "r.yaml"
    rec.write_text(f"steps:\n  - {split}\n  - cuda: {{stmt: 0, block: [i], thread: [j]}}\n")
    cu_path = tmp_path / "k.cu"
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda", "-o", cu_path)
    cu = cu_path.read_text()
    assert rc == 0 and "void __launch_bounds__(32) sp_kernel0(" in cu and "sp_kernel0_1(" in cu, err
    for s in (dict(n=9, m=40), dict(n=1, m=32), dict(n=5, m=33)):
        assert max(compare_host(cu, src, "sp", s, tmp_path / "b").values()) == 0.0, s
    rec.write_text("steps:\n  - split: {stmt: 0, loop: j, at: 5}\n  - cuda: {stmt: 0, block: [i], thread: [j]}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda")
    assert rc == 2 and "statement 0 runs in two thread loops 'j' inside loop 'i' (a split or peel made them)" in err


def test_the_block_waits_for_a_written_copys_stores(tmp_path):
    """Probe 137 G1 (a race): the block stores a written copy back by elements, not as its
    threads compute them; `y[i] = B[i][0]` after the loop read what another thread had not
    stored yet.  A barrier now follows the stores."""
    src = DATA / "written_copy.c"
    rec = tmp_path / "r.yaml"
    rec.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 64, control: ii}\n  - tile: {stmt: 0, loop: k, size: 8, "
                   "control: kk}\n  - cuda: {stmt: 0, block: [ii], thread: [i]}\n  - shared: {stmt: 0, array: B, at: kk}\n")
    cu_path = tmp_path / "k.cu"
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda", "-o", cu_path)
    cu = cu_path.read_text()
    stores = cu.index("B[(long)c7 * p + (tx + 8 * kk)] = B_sh[")
    assert rc == 0 and "__syncthreads();" in cu[stores:cu.index("y[64 * bx + tx]")], cu
    for s in (dict(n=100, p=3), dict(n=64, p=8), dict(n=200, p=1), dict(n=64, p=20)):
        assert max(compare_host(cu, src, "written_copy", s, tmp_path / "b").values()) == 0.0, s
