"""CUDA-path regressions: kernels (mapped and one-thread) are launched in schedule order inside
each host iteration; a statement inside a kernel's block loop but outside its thread loops is a
located error (exit 2); two cuda steps whose kernels share a mapped loop are refused at the
second step unless the second mapping is identical (then it is redundant)."""
import subprocess

import pytest

from test_cuda_codegen import NVCC as NVCC_PATH, needs_nvcc, nvcc_compile
from conftest import cli_process as cli

MIX = """#define N 40
double A[N][N], r[N];
void mix(void) {
  int i, j;
#pragma scop
  for (i = 1; i < N; i++) {
    for (j = 0; j < N; j++)
      A[i][j] = A[i-1][j] * 0.5 + r[i-1];
    r[i] = A[i][i] + r[i-1];
  }
#pragma endscop
}
"""
MIX_R = """steps:
  - tile: {stmt: 0, loop: j, size: 16, control: jj}
  - cuda: {stmt: 0, block: [jj], thread: [j], kernel: rowk}
"""

# the uncovered statement comes first in each host iteration, the mapped one reads it
PRE = """#define N 40
double A[N][N], r[N];
void pre(void) {
  int i, j;
#pragma scop
  for (i = 1; i < N; i++) {
    r[i] = A[i-1][i] + r[i-1] * 0.5;
    for (j = 0; j < N; j++)
      A[i][j] = A[i-1][j] * 0.5 + r[i];
    for (j = 0; j < N; j++)
      r[i] = r[i] + A[i][j] * 0.25;
  }
#pragma endscop
}
"""
PRE_R = """steps:
  - tile: {stmt: 1, loop: j, size: 16, control: jj}
  - cuda: {stmt: 1, block: [jj], thread: [j], kernel: rowk}
"""

TWO = """#define N 100
double x[N], y[N], z[N], s;
void two(double alpha) {
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    y[i] = alpha * x[i] + y[i];
  for (i = 0; i < N; i++)
    z[i] = z[i] + y[i] * y[N-1-i];
  s = y[3];
  for (j = 0; j < N; j++)
    s = s + z[j];
  for (i = 0; i < N; i++)
    x[i] = x[i] + s;
#pragma endscop
}
"""
TWO_R = """steps:
  - cuda: {stmt: 0, block: [i], kernel: axpy_blocks}
  - tile: {stmt: 1, loop: i, size: 16, control: ii}
  - cuda: {stmt: 1, block: [ii], thread: [i], kernel: zk}
  - tile: {stmt: 4, loop: i, size: 16, control: ii}
  - cuda: {stmt: 4, block: [ii], thread: [i], kernel: xk}
"""

BT = """#define N 50
#define M 32
double A[N][M], B[N][M], s[N], x[N];
void bt(void) {
  int i, j;
#pragma scop
  for (i = 0; i < N; i++) {
    s[i] = x[i] * 2.0 + A[i][M-1];
    for (j = 0; j < M; j++)
      A[i][j] = A[i][j] * s[i] + B[i][j];
  }
#pragma endscop
}
"""
BT_R = """steps:
  - cuda: {stmt: 1, block: [i], thread: [j], kernel: btk}
"""
BT_DIST = """steps:
  - distribute: {stmts: [0, 1], loop: i}
  - cuda: {stmt: 1, block: [i], thread: [j], kernel: btk}
"""

DUP = """#define N 40
double A[N][N], x[N], y[N], z[N][N];
void dup(void) {
  int i, j;
#pragma scop
  for (i = 0; i < N; i++) {
    y[i] = y[i] * 2.0;
    for (j = 0; j < N; j++)
      y[i] = y[i] + A[j][i] * x[j];
  }
#pragma endscop
}
"""
DUP_SAME = """steps:
  - cuda: {stmt: 0, block: [i]}
  - cuda: {stmt: 1, block: [i]}
"""
DUP2 = """#define N 40
double A[N][N], x[N], y[N];
void dup2(void) {
  int i, j;
#pragma scop
  for (i = 0; i < N; i++) {
    y[i] = y[i] * 2.0;
    for (j = 0; j < N; j++)
      A[i][j] = A[i][j] + y[i] * x[j];
  }
#pragma endscop
}
"""
DUP2_INNER_FIRST = """steps:
  - cuda: {stmt: 1, thread: [j]}
  - cuda: {stmt: 0, block: [i]}
"""
DUP2_OUTER_FIRST = """steps:
  - cuda: {stmt: 0, block: [i]}
  - cuda: {stmt: 1, block: [i], thread: [j]}
"""

# A tile's point loop and its control loop both on threads (Orio's CHiLL mm.c maps
# thread={"j","jj"}): the point loop spans the tile (2 threads), not the whole range; it was
# counted as N, which refused the mapping ("2048 threads") or made it unsized.
TILETHR = """#ifndef N
#define N 64
#endif
double a[N][N], c[N][N];
void f(void) {
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      c[i][j] = 2.0 * a[i][j] + c[i][N - 1 - j];
#pragma endscop
}
"""
TILETHR_R = """steps:
  - tile: {stmt: 0, loop: j, size: 2, control: jj}
  - cuda: {stmt: 0, block: [i], thread: [j, jj]}
"""

# strided loops on threads and on blocks: indices count iterations (2 * tx), no idle half
STRIDE = """#ifndef N
#define N 64
#endif
double a[N], c[N], d[N];
void f(void) {
  int i;
#pragma scop
  for (i = 0; i < N - 2; i += 2)
    d[i] = c[i + 1] - c[i + 2];
  for (i = 1; i < N; i += 3)
    a[i] = 2.0 * c[i];
#pragma endscop
}
"""
STRIDE_R = """steps:
  - tile: {stmt: 0, loop: i, size: 32, control: ii}
  - cuda: {stmt: 0, block: [ii], thread: [i]}
  - cuda: {stmt: 1, block: [i], thread: ["1"]}
"""

# an unrolled loop on threads: each thread runs the unrolled copies (2 * tx, 2 * tx + 1)
UNROLLTHR = """#ifndef N
#define N 96
#endif
double A[N][N], B[N][N], C[N][N];
void mm(void) {
  int i, j, k;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        C[i][j] += A[i][k] * B[k][j];
#pragma endscop
}
"""
UNROLLTHR_R = """steps:
  - tile: {stmt: 0, loop: j, size: 64, control: jj}
  - unroll: {stmt: 0, loop: j, factor: 2}
  - cuda: {stmt: 0, block: [jj, i], thread: [j]}
"""

# a shared copy whose footprint starts off a multiple of the block (column 32 * bx + 1)
BLUR = """#ifndef N
#define N 40
#endif
double in[N][N], tmp[N][N], out[N][N];
void blur(void) {
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 1; j < N - 1; j++)
      tmp[i][j] = (in[i][j-1] + in[i][j] + in[i][j+1]) / 3.0;
  for (i = 1; i < N - 1; i++)
    for (j = 1; j < N - 1; j++)
      out[i][j] = (tmp[i-1][j] + tmp[i][j] + tmp[i+1][j]) / 3.0;
#pragma endscop
}
"""
BLUR_R = """steps:
  - tile: {stmt: 0, loop: j, size: 32, control: jj}
  - tile: {stmt: 0, loop: i, size: 8, control: ii}
  - permute: {stmt: 0, order: [ii, jj, i, j]}
  - cuda: {stmt: 0, block: [jj, ii], thread: [j, i]}
  - tile: {stmt: 1, loop: j, size: 32, control: jj}
  - tile: {stmt: 1, loop: i, size: 8, control: ii}
  - permute: {stmt: 1, order: [ii, jj, i, j]}
  - cuda: {stmt: 1, block: [jj, ii], thread: [j, i]}
  - shared: {stmt: 1, array: tmp, at: jj}
"""

GOOD = [("mix", MIX, MIX_R), ("pre", PRE, PRE_R), ("two", TWO, TWO_R), ("bt", BT, BT_DIST),
        ("dup", DUP, DUP_SAME), ("tilethr", TILETHR.replace(" + c[i][N - 1 - j]", ""), TILETHR_R),
        ("stride", STRIDE, STRIDE_R), ("unrollthr", UNROLLTHR, UNROLLTHR_R),
        ("blur", BLUR, BLUR_R)]
# sizes that do and do not divide the tile size (16); the thread loop of bt needs a fixed M
SIZES = {"mix": [["N=40"], ["N=48"]], "pre": [["N=37"], ["N=32"]], "two": [["N=100"], ["N=64"]],
         "bt": [["N=50", "M=32"], ["N=33", "M=16"]], "dup": [["N=40"], ["N=17"]],
         "tilethr": [["N=64"], ["N=37"]], "stride": [["N=100"], ["N=37"]],
         "unrollthr": [["N=96"], ["N=37"]], "blur": [["N=40"], ["N=67"]]}




def _write(tmp_path, name, src, recipe):
    c = tmp_path / f"{name}.c"
    c.write_text(src)
    r = tmp_path / f"{name}.yaml"
    r.write_text(recipe)
    return c, r


@pytest.mark.parametrize("name,src,recipe", GOOD, ids=[g[0] for g in GOOD])
def test_c_emulation_matches_original(tmp_path, name, src, recipe):
    c, r = _write(tmp_path, name, src, recipe)
    for defines in SIZES[name]:
        p = cli("run", str(c), "--recipe", str(r), *[a for d in defines for a in ("-D", d)])
        assert p.returncode == 0, (defines, p.stdout, p.stderr)
        assert ": ok" in p.stdout, (defines, p.stdout)


def test_strided_loops_map_their_iterations_not_their_values(tmp_path):
    c, r = _write(tmp_path, "stride", STRIDE, STRIDE_R)
    p = cli("transform", str(c), "--recipe", str(r), "--target", "cuda", "-D", "N=100")
    assert p.returncode == 0, p.stderr
    # a tile of 32 of a loop stepping by 2 holds 32 iterations (64 values), as an unroll's strip does
    assert "dim3(32, 1, 1)" in p.stdout and "d[2 * tx + 64 * bx] = c[2 * tx + 64 * bx + 1]" in p.stdout, p.stdout
    assert "a[3 * bx + 1] = 2.0 * c[3 * bx + 1]" in p.stdout and "% 2" not in p.stdout, p.stdout
    c, r = _write(tmp_path, "unrollthr", UNROLLTHR, UNROLLTHR_R)
    p = cli("transform", str(c), "--recipe", str(r), "--target", "cuda")
    assert p.returncode == 0, p.stderr
    assert "dim3(32, 1, 1)" in p.stdout and "B[(long)k * N + (2 * tx + 64 * bx + 1)]" in p.stdout, p.stdout
    assert "% 2" not in p.stdout, p.stdout


def test_a_shared_copy_counts_its_elements_from_the_footprints_first(tmp_path):
    # thread x copies column x of the tile (CUDA-CHiLL's form), not a rotation (tx + 31) % 32
    c, r = _write(tmp_path, "blur", BLUR, BLUR_R)
    p = cli("transform", str(c), "--recipe", str(r), "--target", "cuda")
    assert p.returncode == 0, p.stderr
    assert "tmp_sh[c5 - 8 * by][tx] = tmp[(long)c5 * N + (32 * bx + tx + 1)];" in p.stdout, p.stdout
    assert "% 32" not in p.stdout, p.stdout


def _launch_order(cu: str) -> list[str]:
    host = cu[cu.index("int lx_launch_"):]
    return [line.split("<<<")[0].strip() for line in host.splitlines() if "<<<" in line]


def test_launch_order_follows_the_schedule(tmp_path):
    c, r = _write(tmp_path, "mix", MIX, MIX_R)
    p = cli("transform", str(c), "--recipe", str(r), "--target", "cuda")
    assert p.returncode == 0, p.stderr
    assert _launch_order(p.stdout) == ["rowk", "mix_serial0"]
    assert "one-thread kernel" in p.stderr
    c, r = _write(tmp_path, "pre", PRE, PRE_R)
    p = cli("transform", str(c), "--recipe", str(r), "--target", "cuda")
    assert p.returncode == 0, p.stderr
    order = _launch_order(p.stdout)
    assert order[1] == "rowk" and len(order) == 3, order
    c, r = _write(tmp_path, "two", TWO, TWO_R)
    p = cli("transform", str(c), "--recipe", str(r), "--target", "cuda")
    assert p.returncode == 0, p.stderr
    order = _launch_order(p.stdout)
    assert order[:2] == ["axpy_blocks", "zk"] and order[-1] == "xk" and len(order) == 4, order


def _step_errors(c, r) -> list[str]:
    """The one-line error of `transform --target cuda` and of `run` (both must exit 2)."""
    out = []
    for args in (("transform", str(c), "--recipe", str(r), "--target", "cuda"),
                 ("run", str(c), "--recipe", str(r))):
        p = cli(*args)
        assert p.returncode == 2, (p.stdout, p.stderr)
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1, p.stderr
        out.append(lines[0])
    return out


def test_statement_in_block_loop_outside_thread_loops_is_an_error(tmp_path):
    c, r = _write(tmp_path, "bt", BT, BT_R)
    for line in _step_errors(c, r):
        assert line.startswith(f"{r}:2: step 1 (cuda): error: statement 0"), line
        assert "thread loop 'j'" in line and "distribute" in line


@pytest.mark.parametrize("recipe,line,step", [(DUP2_INNER_FIRST, 3, 2), (DUP2_OUTER_FIRST, 3, 2)],
                         ids=["inner-first", "outer-first"])
def test_overlapping_cuda_steps_are_refused(tmp_path, recipe, line, step):
    c, r = _write(tmp_path, "dup2", DUP2, recipe)
    for err in _step_errors(c, r):
        assert err.startswith(f"{r}:{line}: step {step} (cuda): error: statement "), err
        assert "already in the kernel of step 1" in err and "distribute" in err


def test_identical_second_mapping_is_redundant(tmp_path):
    c, r = _write(tmp_path, "dup", DUP, DUP_SAME)
    p = cli("transform", str(c), "--recipe", str(r), "--target", "cuda")
    assert p.returncode == 0, p.stderr
    assert len(_launch_order(p.stdout)) == 1


@needs_nvcc
@pytest.mark.parametrize("name,src,recipe", GOOD, ids=[g[0] for g in GOOD])
def test_fixed_cases_compile_with_nvcc(tmp_path, name, src, recipe):
    c, r = _write(tmp_path, name, src, recipe)
    defines = [a for d in SIZES[name][1] for a in ("-D", d)]
    p = cli("transform", str(c), "--recipe", str(r), "--target", "cuda", "--standalone", *defines)
    assert p.returncode == 0, p.stderr
    err = nvcc_compile(p.stdout)
    assert err is None, err


@pytest.mark.gpu
@pytest.mark.parametrize("name,src,recipe", GOOD, ids=[g[0] for g in GOOD])
def test_fixed_cases_on_gpu(tmp_path, name, src, recipe):
    try:
        from looptx.runtime.cuda import CudaSession
        session = CudaSession()
    except Exception as e:                      # no pycuda, no driver, no device
        pytest.skip(f"needs an NVIDIA GPU with pycuda ({e})")
    from looptx.pipeline import load, variants_for
    from looptx.recipe.schema import load_file
    from looptx.runtime.cuda import run_region
    c, r = _write(tmp_path, name, src, recipe)
    for defines in SIZES[name]:
        sizes = {d.split("=")[0]: int(d.split("=")[1]) for d in defines}
        program = load(str(c), defines=sizes)
        variant = variants_for(program, load_file(str(r)))[0][0]
        res = run_region(program, 0, variant, sizes, session=session, repetitions=2)
        assert res["status"] == "ok", (name, defines, res)
        # the command line also checks the .cu for variable sizes, where there is one
        p = cli("run", str(c), "--recipe", str(r), "--target", "cuda",
                *[a for d in defines for a in ("-D", d)])
        assert p.returncode == 0 and ": ok" in p.stdout, (name, defines, p.stdout, p.stderr)


@pytest.mark.parametrize("name", ["bt", "tilethr"])
def test_no_variable_size_cu_to_check_where_the_grid_needs_the_sizes(tmp_path, name):
    # their thread loops have a constant extent only with the sizes fixed: `run -D` measured the
    # fixed-size .cu and then refused the variable-size one, which transform does not write
    from looptx.recipe.schema import load_file
    from looptx.runtime.cuda import variable_size_problem
    src, recipe = next((s, r) for n, s, r in GOOD if n == name)
    c, r = _write(tmp_path, name, src, recipe)
    sizes = {d.split("=")[0]: int(d.split("=")[1]) for d in SIZES[name][0]}
    assert variable_size_problem(str(c), load_file(str(r)), sizes, 0) is None


# An array extent that names a size the region's loops never use: with -D the .cu must still
# define it (it was emitted without N, and nvcc failed on "identifier N is undefined").
UNUSED_SIZE = """#ifndef N
#define N 9
#endif
#ifndef M
#define M 10
#endif
static double B[N + M + 8][N + M + 8], C[N + M + 8][N + M + 8];
static void k(void) {
#pragma scop
  for (int i = 0; i < M; i++)
    for (int j = 0; j < 7; j++)
      C[i][j + 1] = 0.3 * B[i][j + 1];
#pragma endscop
}
"""


@needs_nvcc
def test_size_macro_used_only_by_an_array_extent(tmp_path):
    c, r = _write(tmp_path, "unused", UNUSED_SIZE, "steps:\n  - cuda: {stmt: 0, block: [i, j], thread: []}\n")
    p = cli("transform", str(c), "--recipe", str(r), "--target", "cuda", "-D", "N=9", "-D", "M=10")
    assert p.returncode == 0, p.stderr
    assert "#define N 9" in p.stdout
    err = nvcc_compile(p.stdout)
    assert err is None, err


# A `shared` copy under a thread loop with symbolic sizes: the threads of a block meet the same
# number of barriers, but at different places in the code (fuzz seed 200224).  __syncthreads()
# is aligned and that kernel hung on an H200; such kernels use the non-aligned barrier.
DIVERGENT = """#ifndef N
#define N 7
#endif
#ifndef M
#define M 13
#endif
#define MIN(a, b) ((a) < (b) ? (a) : (b))
static double A[N + M + 8][N + M + 8], y[2 * (N + M + 8)];
static void kernel(void) {
#pragma scop
  for (int i = MIN(N, M) - 1; i >= 0; i -= 1)
    for (int col = i + 1; col < N; col += 1)
      A[N + M - i][i + 1] = 0.3 * (A[N + M - i][i + 1] + y[col + 2]);
#pragma endscop
}
"""
DIVERGENT_R = """steps:
  - tile: {stmt: 0, loop: i, size: 16}
  - cuda: {stmt: 0, block: [ii], thread: [i]}
  - shared: {stmt: 0, array: y, at: col}
"""


def test_barriers_in_thread_dependent_loops_are_not_aligned(tmp_path):
    from looptx.codegen.cuda import _divergent_barriers
    c, r = _write(tmp_path, "divergent", DIVERGENT, DIVERGENT_R)
    p = cli("transform", str(c), "--recipe", str(r), "--target", "cuda")
    assert p.returncode == 0, p.stderr
    assert "lx_barrier();" in p.stdout and "__syncthreads();" not in p.stdout
    fixed = cli("transform", str(c), "--recipe", str(r), "--target", "cuda", "-D", "N=37", "-D", "M=29")
    assert "__syncthreads();" in fixed.stdout and "lx_barrier" not in fixed.stdout   # uniform
    assert _divergent_barriers(["  for (int i = tx; i < 4; i++) {", "    __syncthreads();", "  }"])
    assert _divergent_barriers(["  if (tx == 0) {", "    x = 1;", "  } else {", "    __syncthreads();"])
    assert not _divergent_barriers(["  for (int i = 0; i < 4; i++) {", "    __syncthreads();",
                                    "    if (tx == i)", "      x = 1;", "    __syncthreads();"])
    from test_cuda_codegen import NVCC
    if NVCC is not None:
        assert nvcc_compile(p.stdout) is None


@pytest.mark.gpu
def test_divergent_barrier_kernel_runs_on_gpu(tmp_path):
    try:
        from looptx.runtime.cuda import CudaSession
        session = CudaSession()
    except Exception as e:                      # no pycuda, no driver, no device
        pytest.skip(f"needs an NVIDIA GPU with pycuda ({e})")
    from looptx.pipeline import load, variants_for
    from looptx.recipe.schema import load_file
    from looptx.runtime.cuda import run_region
    c, r = _write(tmp_path, "divergent", DIVERGENT, DIVERGENT_R)
    program = load(str(c))
    variant = variants_for(program, load_file(str(r)))[0][0]
    for sizes in ({"N": 7, "M": 13}, {"N": 37, "M": 29}):
        res = run_region(program, 0, variant, sizes, session=session, repetitions=2)
        assert res["status"] == "ok", (sizes, res)


def test_tile_point_and_control_loops_on_threads_span_the_tile(tmp_path):
    c, r = _write(tmp_path, "tt", TILETHR.replace(" + c[i][N - 1 - j]", ""), TILETHR_R)
    p = cli("transform", str(c), "--recipe", str(r), "--target", "cuda", "-D", "N=64")
    assert p.returncode == 0, p.stderr
    assert "dim3(2, 32, 1)" in p.stdout and "2 * ty + tx" in p.stdout, p.stdout
    # the same mapping on a nest whose threads would race (c[i][N-1-j] is written by another
    # thread of the block) is refused by the dependence check, not mis-sized
    c2, _ = _write(tmp_path, "tt2", TILETHR, TILETHR_R)
    p = cli("transform", str(c2), "--recipe", str(r), "--target", "cuda", "-D", "N=64")
    assert p.returncode == 2 and "step 2 (cuda)" in p.stderr, p.stderr


# ---- element counts of pointer arrays and sizes fixed with -D (CUDA-CHiLL scripts) ------------
# A pointer parameter has no declared extent: the host code allocated `(size_t)()` elements and
# nvcc failed.  cudaize's array dict (Python {'a': 1024}, Lua {a=N*M}) or the cuda step's
# `sizes:` gives the count; without one, transform is a located error.  A size fixed with -D that
# only a linearized subscript names (a[i*M + j]) was neither #defined nor passed.
PTR_C = """#include <stdio.h>
#include <stdlib.h>
void scale(int n, float *a) {
  int i;
  for (i = 0; i < n; i++)
    a[i] = 2.0f * a[i];
}
int main(void) {
  float *a = (float *)malloc(1024 * sizeof(float));
  double cs = 0;
  int i;
  for (i = 0; i < 1024; i++)
    a[i] = (float)(i % 17) * 0.25f;
  scale(1000, a);
  for (i = 0; i < 1024; i++)
    cs += a[i] * (i % 13 + 1);
  printf("%.9g\\n", cs);
  free(a);
  return 0;
}
"""
PTR_PY = """from chill import *
execfile("cudaize.py")
read_IR("k.c", "scale")
tile_by_index(["i"], [32], {'l1_control': "ii"}, ["ii", "i"], None)
cudaize(0, "scale_GPU", {'a': 1024}, ["ii"], ["i"], [])
"""
MACRO_C = """#include <stdio.h>
#ifndef N
#define N 8
#endif
#ifndef M
#define M 16
#endif
void k(double *a, double *b) {
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      a[i*M + j] = a[i*M + j] + b[j];
}
int main(void) {
  static double a[N * M], b[M];
  double cs = 0;
  int i;
  for (i = 0; i < N * M; i++)
    a[i] = (i % 11) * 0.5;
  for (i = 0; i < M; i++)
    b[i] = 1.0 / (i + 1);
  k(a, b);
  for (i = 0; i < N * M; i++)
    cs += a[i] * (i % 13 + 1);
  printf("%.17g\\n", cs);
  return 0;
}
"""
MACRO_LUA = """init("k.c","k",0)
N=8
M=16
cudaize("k_GPU",{a=N*M,b=M},{block={"i"},thread={"j"}})
"""
FIXED = ["-D", "M=16", "-D", "N=8"]


def _script(tmp_path, src, name, text):
    (tmp_path / "k.c").write_text(src)
    (tmp_path / name).write_text(text)
    return tmp_path / "k.c", tmp_path / name


def _cuda_out(c, r, *args):
    p = cli("transform", "k.c", "--recipe", r.name, "--target", "cuda", *args, cwd=c.parent)
    assert p.returncode == 0, p.stderr
    return p.stdout


@pytest.mark.parametrize("src,name,text,defines,count", [
    (PTR_C, "r.py", PTR_PY, [], "(size_t)(1024) * sizeof(float)"),
    (MACRO_C, "r.lua", MACRO_LUA, FIXED, "(size_t)(128) * sizeof(double)")], ids=["py-pointer", "lua-macro"])
def test_cudaize_array_dict_gives_the_host_copies(tmp_path, src, name, text, defines, count):
    from difftest import check_same
    c, r = _script(tmp_path, src, name, text)
    cu = _cuda_out(c, r, *defines)
    assert "(size_t)()" not in cu and count in cu, cu
    if name == "r.lua":
        assert "#ifndef M\n#define M 16\n#endif" in cu and "a[bx * M + tx]" in cu, cu
    if NVCC_PATH is not None:
        assert nvcc_compile(cu) is None
        assert nvcc_compile(_cuda_out(c, r, "--standalone", *defines)) is None
    # the C emulation of the same script computes what the original does
    p = cli("transform", "k.c", "--recipe", r.name, "--target", "c", *defines, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    check_same(c, p.stdout, {"N": 8, "M": 16} if defines else {})


def test_pointer_array_without_a_count_is_copied_as_far_as_the_region_reaches(tmp_path):
    c, r = _script(tmp_path, PTR_C, "r.py", PTR_PY.replace("{'a': 1024}", "{}"))
    p = cli("transform", "k.c", "--recipe", "r.py", "--target", "cuda", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "const size_t lx_n_a = ((n >= 1) ? ((size_t)(n - 1) + 1) : (size_t)0);" in p.stdout, p.stdout
    assert "cudaMalloc((void **)&lx_d_a, lx_n_a * sizeof(float))" in p.stdout


def test_pointer_array_read_below_its_start_is_a_located_error(tmp_path):
    """`a[i + k]`: at a negative k the region reads before the pointer, so the highest element
    reached is not the count to copy; the user must give it."""
    src = ("void scale(int n, int k, float *a, const float *b) {\n  int i;\n"
           "  for (i = 0; i < n; i++)\n    a[i] = 2.0f * b[i + k];\n}\n")
    c, r = _script(tmp_path, src, "r.py", PTR_PY.replace("{'a': 1024}", "{}"))
    p = cli("transform", "k.c", "--recipe", "r.py", "--target", "cuda", cwd=tmp_path)
    assert p.returncode == 2 and p.stdout == "", p.stdout
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith("r.py:5: step 3 (cuda): error: the number of elements of array 'b' is unknown "
                               "(it is declared without extents and the region may read it below its first "
                               "element at some sizes)"), lines[0]
    assert "cudaize's array dict" in lines[0] and "sizes: {b: COUNT}" in lines[0] and "float b[COUNT]" in lines[0]
    # the C target needs no count
    assert cli("transform", "k.c", "--recipe", "r.py", cwd=tmp_path).returncode == 0


@pytest.mark.parametrize("src,name,text,args", [
    (PTR_C, "r.py", PTR_PY.replace("{'a': 1024}", "{'a': 1024, 'b': 4}"), []),
    # nbody.lua's dict lists every array of the procedure, also those the region does not use
    (MACRO_C, "r.lua", MACRO_LUA.replace("b=M}", "b=M, c=N, d=M}"), FIXED)], ids=["py", "lua"])
def test_array_dict_entry_the_region_does_not_use_is_ignored(tmp_path, src, name, text, args):
    """CUDA-CHiLL ignores such entries; looptx notes them (one located line) and goes on."""
    c, r = _script(tmp_path, src, name, text)
    unused = "'b'" if name == "r.py" else "'c', 'd'"
    line = next(n for n, ln in enumerate(text.splitlines(), 1) if ln.startswith("cudaize"))
    for target in ("cuda", "c"):
        p = cli("transform", "k.c", "--recipe", r.name, "--target", target, *args, cwd=tmp_path)
        assert p.returncode == 0, p.stderr
        assert p.stderr.splitlines() == [f"{name}:{line}: note: step {1 if name == 'r.lua' else 3} (cuda): "
                                         f"the sizes of {unused} are ignored: the region does not use "
                                         f"{'that array' if name == 'r.py' else 'those arrays'} "
                                         "(CUDA-CHiLL ignores them too)"], p.stderr
    r.write_text(text.replace(", 'b': 4}", "}").replace(", c=N, d=M}", "}"))
    without = cli("transform", "k.c", "--recipe", r.name, "--target", "c", *args, cwd=tmp_path).stdout
    assert p.stdout.split("*/", 1)[1] == without.split("*/", 1)[1]    # past the recipe in the header


def test_yaml_sizes_naming_no_array_of_the_region_is_a_located_error(tmp_path):
    """looptx's own `sizes:` lists what the user chose to give: a name there is a typo."""
    c, r = _script(tmp_path, PTR_C, "r.yaml", "steps:\n  - tile: {stmt: 0, loop: i, size: 32}\n"
                   "  - cuda: {stmt: 0, block: [ii], thread: [i], sizes: {a: 1024, b: 4}}\n")
    p = cli("transform", "k.c", "--recipe", r.name, "--target", "cuda", "--function", "scale", cwd=tmp_path)
    assert p.returncode == 2 and p.stderr.splitlines() == [
        "r.yaml:3: step 2 (cuda): error: sizes: 'b' is not an array of the region (arrays: a)"], p.stderr


@pytest.mark.parametrize("sizes,message", [
    ("{'a': 'n*'}", "sizes: array 'a': cannot parse element count 'n*'"),
    ("{'a': 'm*2'}", "sizes: array 'a': 'm' in element count 'm*2' is not a size of the region"),
    ("{'a': 0}", "sizes: array 'a': element count 0 is not positive"),
    ("{'a': 2.5}", "argument 'sizes' must be a mapping from array names to element counts")],
    ids=["unparsable", "unknown-name", "zero", "float"])
def test_bad_array_dict_entries_are_located_errors(tmp_path, sizes, message):
    c, r = _script(tmp_path, PTR_C, "r.py", PTR_PY.replace("{'a': 1024}", sizes))
    for args in (("--target", "cuda"), ("--target", "c")):
        p = cli("transform", "k.c", "--recipe", "r.py", *args, cwd=tmp_path)
        assert p.returncode == 2, p.stdout
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("r.py:5: step 3 (cuda): error: "), p.stderr
        assert message in lines[0], lines[0]


TWO_PTR = """void two(int n, float *x, float *y, float *z) {
  int i;
  for (i = 0; i < n; i++)
    y[i] = 2.0f * x[i];
  for (i = 0; i < n; i++)
    z[i] = y[i] + x[i];
}
"""
TWO_PTR_R = """steps:
  - tile: {stmt: 0, loop: i, size: 32, control: ii}
  - cuda: {stmt: 0, block: [ii], thread: [i], sizes: {x: n, y: n}}
  - tile: {stmt: 1, loop: i, size: 32, control: ii}
  - cuda: {stmt: 1, block: [ii], thread: [i], kernel: zk, sizes: %s}
"""


def test_yaml_sizes_are_shared_by_the_kernels_of_a_region(tmp_path):
    c = tmp_path / "two.c"
    c.write_text(TWO_PTR)
    r = tmp_path / "two.yaml"
    r.write_text(TWO_PTR_R % "{z: n, x: n}")
    p = cli("transform", str(c), "--function", "two", "--recipe", str(r), "--target", "cuda")
    assert p.returncode == 0, p.stderr
    for a in "xyz":                       # one device copy per array, with the given count
        assert p.stdout.count(f"cudaMalloc((void **)&lx_d_{a}, (size_t)(n) * sizeof(float))") == 1
    if NVCC_PATH is not None:
        assert nvcc_compile(p.stdout) is None
    # a fixed size is written as its number (a #define of `n` could hit other names)
    p = cli("transform", str(c), "--function", "two", "--recipe", str(r), "--target", "cuda",
            "--standalone", "-D", "n=100")
    assert p.returncode == 0, p.stderr
    assert "(size_t)(100) * sizeof(float)" in p.stdout and "#define n" not in p.stdout
    if NVCC_PATH is not None:
        assert nvcc_compile(p.stdout) is None
    # a count the second kernel does not give comes from the first; a different one is refused
    r.write_text(TWO_PTR_R % "{z: 2*n, x: 2*n}")
    p = cli("transform", str(c), "--function", "two", "--recipe", str(r), "--target", "cuda")
    assert p.returncode == 2
    assert p.stderr.strip() == (f"{r}:5: step 4 (cuda): error: sizes: array 'x' has 2 * n elements here "
                                "but n in step 2 (the kernels of a region share one device copy: give one count)")
    # an array no step counts is copied as far as the region reaches
    r.write_text(TWO_PTR_R % "{x: n}")
    p = cli("transform", str(c), "--function", "two", "--recipe", str(r), "--target", "cuda")
    assert p.returncode == 0, p.stderr
    assert "const size_t lx_n_z = ((n >= 1) ? ((size_t)(n - 1) + 1) : (size_t)0);" in p.stdout


def test_declared_extent_wins_over_a_given_count(tmp_path):
    c = tmp_path / "decl.c"
    c.write_text("#ifndef N\n#define N 64\n#endif\nvoid f(float a[N], float *b) {\n  int i;\n"
                 "  for (i = 0; i < N; i++)\n    a[i] = 2.0f * b[i];\n}\n")
    r = tmp_path / "decl.yaml"
    r.write_text("steps:\n  - cuda: {stmt: 0, block: [i], sizes: {a: 2048, b: N}}\n")
    p = cli("transform", str(c), "--function", "f", "--recipe", str(r), "--target", "cuda", "-D", "N=1024")
    assert p.returncode == 0, p.stderr
    assert "decl.yaml:2: warning: step 1 gives array 'a' 2048 elements, its declaration 1024: the declaration is used" \
        in p.stderr, p.stderr          # located, as the notes beside it (probe 120)
    assert "cudaMalloc((void **)&lx_d_a, (size_t)(N) * sizeof(float))" in p.stdout
    assert "cudaMalloc((void **)&lx_d_b, (size_t)(1024) * sizeof(float))" in p.stdout
    assert "#define N 1024" in p.stdout
    if NVCC_PATH is not None:
        assert nvcc_compile(p.stdout) is None


# the two CUDA-CHiLL repros through their <fn>_host functions, against the C function
GPU_DRIVERS = {
    "py-pointer": (PTR_C, "r.py", PTR_PY, [], """
int main(void) {
  float a[1024], want[1024];
  for (int i = 0; i < 1024; i++) a[i] = want[i] = (float)(i % 17) * 0.25f;
  for (int i = 0; i < 1000; i++) want[i] = 2.0f * want[i];
  if (scale_host_status(1000, a) != 0) return 3;
  for (int i = 0; i < 1024; i++) if (a[i] != want[i]) { printf("differ at %d\\n", i); return 1; }
  printf("ok\\n");
  return 0;
}
"""),
    "lua-macro": (MACRO_C, "r.lua", MACRO_LUA, FIXED, """
int main(void) {
  double a[128], b[16], want[128];
  for (int i = 0; i < 128; i++) a[i] = want[i] = (i % 11) * 0.5;
  for (int i = 0; i < 16; i++) b[i] = 1.0 / (i + 1);
  for (int i = 0; i < 8; i++) for (int j = 0; j < 16; j++) want[i*16 + j] += b[j];
  if (k_host_status(a, b) != 0) return 3;
  for (int i = 0; i < 128; i++) if (a[i] != want[i]) { printf("differ at %d\\n", i); return 1; }
  printf("ok\\n");
  return 0;
}
""")}


def gpu_build_and_run(main_cu, *nvcc_flags, timeout=60) -> subprocess.CompletedProcess:
    """A driver .cu with a main, built with nvcc and run; skipped without a GPU."""
    try:
        from looptx.runtime.cuda import CudaSession
        CudaSession()
    except Exception as e:                      # no pycuda, no driver, no device
        pytest.skip(f"needs an NVIDIA GPU with pycuda ({e})")
    assert NVCC_PATH is not None, "a GPU machine without nvcc cannot build the kernels"
    exe = main_cu.with_suffix("")
    p = subprocess.run([NVCC_PATH, "-arch=sm_90", *nvcc_flags, str(main_cu), "-o", str(exe)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr[-2000:]
    return subprocess.run([str(exe)], capture_output=True, text=True, timeout=timeout)


@pytest.mark.gpu
@pytest.mark.parametrize("case", list(GPU_DRIVERS))
def test_cudaize_array_dict_cases_on_gpu(tmp_path, case):
    src, name, text, defines, driver = GPU_DRIVERS[case]
    c, r = _script(tmp_path, src, name, text)
    (tmp_path / "main.cu").write_text(_cuda_out(c, r, *defines) + driver)
    p = gpu_build_and_run(tmp_path / "main.cu")
    # 3: a CUDA call of the generated host function failed, on a machine that has a GPU
    assert p.returncode == 0 and p.stdout.strip() == "ok", (p.returncode, p.stdout)


def test_warnings_of_a_cu_that_ends_in_a_bad_input_are_not_printed(tmp_path):
    # the serial-kernel warning comes first, then the host code finds b's size unknown: the
    # error must be the one line on stderr
    c, r = _write(tmp_path, "shift", "void shiftcopy(int n, double *a, const double *b)\n{\n"
                  "  int i;\n#pragma scop\n  for (i = 0; i < n; i++)\n    a[i] = b[i - 1];\n"
                  "#pragma endscop\n}\n", "steps: []\n")
    p = cli("transform", str(c), "--recipe", str(r), "--target", "cuda")
    assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
    assert f"{c}:5:" in p.stderr and "number of elements of array 'b' is unknown" in p.stderr


def test_a_given_count_below_the_reach_is_refused_or_checked(tmp_path):
    """Probe 29 A1: cudaize's {density=100} on a region that reaches 941 elements made host code
    that copied 100 and kernels that read past them.  At fixed sizes it is an error at the
    step; with symbolic sizes the host function checks it before allocating."""
    c = tmp_path / "two.c"
    c.write_text(TWO_PTR)
    r = tmp_path / "two.yaml"
    r.write_text(TWO_PTR_R % "{z: 64, x: n}")
    p = cli("transform", str(c), "--function", "two", "--recipe", str(r), "--target", "cuda", "-D", "n=100")
    assert p.returncode == 2
    assert p.stderr.strip().startswith(f"{r}:5: step 4 (cuda): error: sizes: array 'z' is given 64 elements, "
                                       "but the region reaches element 99 at these sizes, so it needs 100"), p.stderr
    p = cli("transform", str(c), "--function", "two", "--recipe", str(r), "--target", "cuda")
    assert p.returncode == 0, p.stderr
    assert "if ((size_t)(64) < lx_n_z) return (int)cudaErrorInvalidValue;" in p.stdout \
        or "if ((size_t)(64) < ((n >= 1) ? ((size_t)(n - 1) + 1) : (size_t)0)) return (int)cudaErrorInvalidValue;" \
        in p.stdout, p.stdout
    if NVCC_PATH is not None:
        assert nvcc_compile(p.stdout) is None
