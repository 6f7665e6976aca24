"""CUDA-path regressions: kernels (mapped and one-thread) are launched in schedule order inside
each host iteration; a statement inside a kernel's block loop but outside its thread loops is a
located error (exit 2); two cuda steps whose kernels share a mapped loop are refused at the
second step unless the second mapping is identical (then it is redundant)."""
import subprocess
import sys

import pytest

from test_cuda_codegen import needs_nvcc, nvcc_compile

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

GOOD = [("mix", MIX, MIX_R), ("pre", PRE, PRE_R), ("two", TWO, TWO_R), ("bt", BT, BT_DIST),
        ("dup", DUP, DUP_SAME), ("tilethr", TILETHR.replace(" + c[i][N - 1 - j]", ""), TILETHR_R)]
# sizes that do and do not divide the tile size (16); the thread loop of bt needs a fixed M
SIZES = {"mix": [["N=40"], ["N=48"]], "pre": [["N=37"], ["N=32"]], "two": [["N=100"], ["N=64"]],
         "bt": [["N=50", "M=32"], ["N=33", "M=16"]], "dup": [["N=40"], ["N=17"]],
         "tilethr": [["N=64"], ["N=37"]]}


def cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "looptx", *args], capture_output=True, text=True,
                          cwd=cwd)


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
    assert order[:2] == ["axpy_blocks", "zk"] and order[-1] == "xk" and len(order) == 5, order


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
