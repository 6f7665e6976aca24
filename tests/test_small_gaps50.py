"""Session 50's fixes: the .cu of a file that `#define`s its sizes (probe 68 G6, probe 71 G5)
and what probes 72 (the .cu linked into the user's program) and 73 (a legality oracle for
parallel loops) found."""
import ctypes
import subprocess

import numpy as np
import pytest

from conftest import run_cli
from test_cuda_codegen import NVCC, nvcc_compile

MM = """#include <stdint.h>
#define N 64
#define M 48
void mm(float A[N][M], float B[M][N], float C[N][N]) {
  int i, j, k;
/*@ begin CHiLL ( ) @*/
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < M; k++)
        C[i][j] += A[i][k] * B[k][j];
/*@ end @*/
}
"""
MM_RECIPE = """steps:
  - tile: {stmt: 0, loop: i, size: 16}
  - tile: {stmt: 0, loop: j, size: 16}
  - permute: {stmt: 0, order: [ii, jj, i, j, k]}
  - cuda: {stmt: 0, block: [jj, ii], thread: [j, i], kernel: mmk}
"""
HOST = "(float *__restrict__ A, float *__restrict__ B, float *__restrict__ C)"


def _mm_cu(tmp_path) -> str:
    src, recipe = tmp_path / "mm.c", tmp_path / "r.yaml"
    src.write_text(MM)
    recipe.write_text(MM_RECIPE)
    rc, out, err = run_cli("transform", src, "--recipe", recipe, "--target", "cuda")
    assert rc == 0, err
    return out


def test_a_defined_size_is_a_macro_of_the_cu_and_no_argument(tmp_path):
    """`int N` as a kernel and host parameter broke `nvcc -DN=40` (`int 40`), and the host
    function took sizes the original function does not, so a call written for it did not
    compile."""
    cu = _mm_cu(tmp_path)
    assert "#ifndef N\n#define N 64\n#endif" in cu and "#ifndef M\n#define M 48\n#endif" in cu, cu
    assert "int N" not in cu and "int M" not in cu, cu
    assert f'extern "C" void mm_host{HOST}' in cu and f'extern "C" int mm_host_status{HOST}' in cu, cu
    if NVCC is not None:
        for defines in ("", "#define N 40\n#define M 20\n"):
            assert nvcc_compile(defines + cu) is None


def test_the_c_emulation_of_the_same_recipe_still_validates(tmp_path):
    src, recipe = tmp_path / "mm.c", tmp_path / "r.yaml"
    src.write_text(MM)
    recipe.write_text(MM_RECIPE)
    rc, out, err = run_cli("run", src, "--recipe", recipe)
    assert rc == 0 and "ok" in out, (out, err)


@pytest.mark.gpu
@pytest.mark.skipif(NVCC is None, reason="nvcc is not installed (CI machines have it)")
def test_the_cu_linked_as_a_library_computes_the_original_at_another_size(tmp_path):
    """As a CUDA-CHiLL user links it: built with -DN=40 -DM=20 (sizes the 16 x 16 blocks do
    not divide), called through the original's signature, checked against numpy."""
    from test_gpu import _gpu
    _gpu()
    (tmp_path / "mm.cu").write_text(_mm_cu(tmp_path))
    lib = tmp_path / "libmm.so"
    p = subprocess.run([NVCC, "-arch=sm_90", "-shared", "-Xcompiler", "-fPIC", "-DN=40", "-DM=20",
                        str(tmp_path / "mm.cu"), "-o", str(lib)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    rng = np.random.default_rng(7)
    a, b = rng.random((40, 20), dtype=np.float32), rng.random((20, 40), dtype=np.float32)
    c = rng.random((40, 40), dtype=np.float32)
    want = c + a @ b
    so = ctypes.CDLL(str(lib))
    so.mm_host_status.restype = ctypes.c_int
    assert so.mm_host_status(*(x.ctypes.data_as(ctypes.c_void_p) for x in (a, b, c))) == 0
    np.testing.assert_allclose(c, want, rtol=1e-5)


def test_a_replays_searcher_time_leaves_out_scikit_learns_import(tmp_path):
    """Probe 69 G9: `simulated time 2.3 s (searcher 2.25 s)` on a small cache, nearly all of it
    scikit-learn's import in surf+'s first fit.  A fresh process, so that the import is not
    done already."""
    import json
    import re
    import sys
    cache = tmp_path / "c.json"
    sizes = list(range(1, 41))
    head = json.dumps({"tune_params_keys": ["bs"], "tune_params": {"bs": sizes}, "objective": "time"})[:-1]
    recs = [f'"{b}": {json.dumps({"bs": b, "time": (b - 17) ** 2 + 1.0, "compile_time": 1.0, "benchmark_time": 1.0})}'
            for b in sizes]
    cache.write_text(head + ', "cache": {\n' + ",\n".join(recs) + "\n}\n}\n")
    p = subprocess.run([sys.executable, "-m", "looptx", "search", "--replay", str(cache), "-a", "surf+",
                        "--budget", "20"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    # 20 asks and tells of a forest on 40 points take some 50 ms; the import took 1-2 s
    m = re.search(r"searcher ([\d.]+) s", p.stdout)
    assert m and float(m.group(1)) < 0.6, p.stdout


REG = """void kernel(int N, double x[N], double y[N]AFTER_PARAM)
{
    double s;
#pragma scop
    for (int i = 0; i < N; i++) {
        s = y[i];
        for (int j = 0; j < N; j++)
            s += 0.5 * x[j];
        y[i] = s;
    }
#pragma endscop
AFTER}
"""


def test_registers_of_a_local_that_carries_nothing_leave_it_as_it_is(tmp_path):
    """Probe 70 G4: the copy loaded the uninitialized local before the loop (`s_r = s;`,
    gcc -Wuninitialized) and stored it after (dead)."""
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(REG.replace("AFTER_PARAM", "").replace("AFTER", ""))
    recipe.write_text("steps:\n  - registers: {stmt: 0, array: s, at: i}\n")
    out_c = tmp_path / "out.c"
    rc, out, err = run_cli("transform", src, "--recipe", recipe, "-o", out_c)
    assert rc == 0 and "leave it as it is" in err, err
    text = out_c.read_text()
    assert "s_r" not in text and "s = y[i];" in text, text
    p = subprocess.run(["gcc", "-Wall", "-Wextra", "-Werror", "-Wno-unknown-pragmas", "-O2", "-c", str(out_c),
                        "-o", str(tmp_path / "out.o")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    for n in ("1", "7"):
        rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", f"N={n}")
        assert rc == 0 and " ok " in out, (out, err)


def test_registers_of_a_local_read_after_the_region_still_load_and_store_it(tmp_path):
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(REG.replace("AFTER_PARAM", ", double *last").replace("AFTER", "    *last = s;\n"))
    recipe.write_text("steps:\n  - registers: {stmt: 0, array: s, at: i}\n")
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    # (each i sets s before it reads it: no load; the store only where some i ran)
    assert rc == 0 and "s = s_r;" in out and ("s_r = s;" in out or "if (N >= 1)\n        s = s_r;" in out), out
    for n in ("1", "7"):
        rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", f"N={n}")
        assert rc == 0 and " ok " in out, (out, err)


PB = MM.replace("#define N 64\n#define M 48\n", "#ifndef N\n# define N 100\n#endif\n#ifndef M\n# define M 48\n#endif\n")


def _cu(tmp_path, text, recipe_text, *args):
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(text)
    recipe.write_text(recipe_text)
    rc, out, err = run_cli("transform", src, "--recipe", recipe, "--target", "cuda", *args)
    assert rc == 0, err
    return out


def test_an_ifndef_default_is_a_macro_of_the_cu_too(tmp_path):
    """Probe 72 G3: PolyBench's `#ifndef N` sizes were `int N` arguments (nvcc -DN=37 failed)."""
    cu = _cu(tmp_path, PB, MM_RECIPE)
    assert "#ifndef N\n#define N 100\n#endif" in cu and "int N" not in cu, cu
    assert f'extern "C" void mm_host{HOST}' in cu, cu
    if NVCC is not None:
        assert nvcc_compile("#define N 37\n" + cu) is None


def test_a_cu_made_for_a_defined_size_refuses_to_build_for_another(tmp_path):
    """Probe 72 G1: made with -D N=64, the .cu built with -DN=100 silently updated the 64 x 64
    corner; the C output had its `#error` and the .cu had none."""
    cu = _cu(tmp_path, PB, MM_RECIPE, "-D", "N=64")
    assert "#if N != 64\n#error" in cu, cu
    if NVCC is not None:
        assert nvcc_compile(cu) is None and nvcc_compile("#define N 64\n" + cu) is None
        err = nvcc_compile("#define N 100\n" + cu)
        assert err is not None and "--define N=64" in err, err


BYTES = """#include <stddef.h>
void map_bytes(size_t n, const unsigned char *restrict src, unsigned char *restrict dst)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = (unsigned char)(src[i] * 3u + 1u);
}
"""
BYTES_RECIPE = "steps:\n  - tile: {stmt: 0, loop: i, size: 256, control: ii}\n  - cuda: {stmt: 0, block: [ii], thread: [i]}\n"


def test_the_block_index_of_a_64_bit_loop_is_64_bit(tmp_path):
    """Probe 72 G2: `tx + 256 * bx` in int wrapped past 2^31 elements of a size_t loop."""
    cu = _cu(tmp_path, BYTES, BYTES_RECIPE, "--function", "map_bytes")
    assert "const long bx = blockIdx.x;" in cu and "const int tx = threadIdx.x;" in cu, cu
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    rc, out, err = run_cli("transform", src, "--recipe", recipe, "--function", "map_bytes")
    assert rc == 0 and "for (long bx = 0;" in out, out + err
    # an int loop keeps int indexes (64-bit arithmetic costs the kernels)
    cu = _cu(tmp_path, BYTES.replace("size_t n", "int n").replace("size_t i", "int i"), BYTES_RECIPE,
             "--function", "map_bytes")
    assert "const int bx = blockIdx.x;" in cu, cu


@pytest.mark.skipif(NVCC is None, reason="nvcc is not installed (CI machines have it)")
def test_a_standalone_main_reads_the_sizes_no_define_gives_from_its_command_line(tmp_path):
    """Probe 72 G6: without -D the main only printed 'give n with --define' and returned 2."""
    cu = _cu(tmp_path, BYTES, BYTES_RECIPE, "--function", "map_bytes", "--standalone")
    assert 'lx_size_arg(argc, argv, "n", &lx_missing)' in cu, cu
    (tmp_path / "s.cu").write_text(cu)
    p = subprocess.run([NVCC, "-arch=sm_90", "-Xcompiler", "-Wall", str(tmp_path / "s.cu"), "-o", str(tmp_path / "s")],
                       capture_output=True, text=True)
    assert p.returncode == 0 and "warning" not in p.stderr, p.stderr
    # (no GPU here: the usage comes before any CUDA call)
    p = subprocess.run([str(tmp_path / "s")], capture_output=True, text=True)
    assert p.returncode == 2 and "usage: " in p.stderr and "n=VALUE" in p.stderr, p.stderr
    cu = _cu(tmp_path, BYTES, BYTES_RECIPE, "--function", "map_bytes", "--standalone", "-D", "n=1000")
    assert "int main(void)" in cu and "lx_size_arg" not in cu, cu


@pytest.mark.gpu
@pytest.mark.skipif(NVCC is None, reason="nvcc is not installed (CI machines have it)")
def test_a_standalone_main_runs_at_the_size_its_command_line_gives(tmp_path):
    from test_gpu import _gpu
    _gpu()
    cu = _cu(tmp_path, BYTES, BYTES_RECIPE, "--function", "map_bytes", "--standalone")
    (tmp_path / "s.cu").write_text(cu)
    p = subprocess.run([NVCC, "-arch=sm_90", str(tmp_path / "s.cu"), "-o", str(tmp_path / "s")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    p = subprocess.run([str(tmp_path / "s"), "n=100003"], capture_output=True, text=True)
    assert p.returncode == 0 and "kernel time" in p.stdout and "dst checksum" in p.stdout, p.stdout + p.stderr


PREFIX = """void k(int N, double A[N], double B[N]) {
#pragma scop
  for (int i = 1; i < N; i++)
    A[i] = A[i - 1] + B[i];
#pragma endscop
}
"""


@pytest.mark.parametrize("text", [
    "omp parallel for schedule(static,1)", "omp  parallel   for", "omp parallel for simd", "omp for",
    "omp parallel for collapse(1)", "omp taskloop", "omp target teams distribute parallel for", "omp simd",
    "acc parallel loop", "acc kernels loop independent", "acc loop independent", "GCC ivdep", "ivdep",
    "clang loop vectorize(assume_safety)", "omp parallel for private(i)"])
def test_every_parallel_directive_of_a_pragma_step_is_checked(tmp_path, text):
    """Probe 73 G1: only the exact text `omp parallel for` was checked; a schedule clause or
    extra blanks put an unchecked parallel loop on a prefix sum (98 wrong elements with
    -fopenmp)."""
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(PREFIX)
    recipe.write_text(f'steps:\n  - pragma: {{stmt: 0, loop: i, text: "{text}"}}\n')
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "runs them at once (RAW on A)" in err, err


def test_a_sequential_acc_loop_and_other_pragmas_stay_unchecked(tmp_path):
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(PREFIX)
    for text in ("acc loop seq", "GCC unroll 4", "HLS PIPELINE II=1"):
        recipe.write_text(f'steps:\n  - pragma: {{stmt: 0, loop: i, text: "{text}"}}\n')
        rc, out, err = run_cli("transform", src, "--recipe", recipe)
        assert rc == 0 and f"#pragma {text}" in out, err


TEMP = """void k(int N, int M, double A[N][M], double B[N][M]) {
  double t;
#pragma scop
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      t = 2.0 * A[i][j];
      B[i][j] = t * t + 1.0;
    }
#pragma endscop
}
"""


@pytest.mark.parametrize("text,want", [
    ("omp parallel for schedule(dynamic, 4) private(t)", "#pragma omp parallel for schedule(dynamic, 4) private(t)"),
    ("omp parallel for private(t) schedule(static)", "#pragma omp parallel for schedule(static) private(t)"),
    ("omp parallel for collapse(2) private(t)", "#pragma omp parallel for collapse(2) private(t)"),
])
def test_a_legal_parallel_pragma_keeps_its_clauses_and_runs_right(tmp_path, text, want):
    """A private clause of `omp parallel for` is omp_for's private list (privatize, checked);
    the collapsed loops' counters are not listed again."""
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(TEMP)
    recipe.write_text(f'steps:\n  - pragma: {{stmt: 0, loop: i, text: "{text}"}}\n')
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 0 and want in out, out + err
    for sizes in (("N=7", "M=5"), ("N=16", "M=33")):
        rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", sizes[0], "-D", sizes[1],
                               "--cflags", "-O2 -fopenmp -Wall -Werror -Wno-unknown-pragmas", "--repetitions", "1")
        assert rc == 0 and " ok " in out, out + err


def test_a_temporary_without_a_private_clause_is_refused(tmp_path):
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(TEMP)
    for text in ("omp parallel for schedule(dynamic, 4)", "omp parallel for collapse(2)"):
        recipe.write_text(f'steps:\n  - pragma: {{stmt: 0, loop: i, text: "{text}"}}\n')
        rc, out, err = run_cli("transform", src, "--recipe", recipe)
        assert rc == 2 and "(WAW on t)" in err and "privatize: {var: t, at: j}" in err, err


def test_a_collapsed_loop_that_carries_a_dependence_is_refused(tmp_path):
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text("""void k(int N, double A[N][N]) {
#pragma scop
  for (int i = 0; i < N; i++)
    for (int j = 1; j < N; j++)
      A[i][j] = A[i][j - 1] + 1.0;
#pragma endscop
}
""")
    recipe.write_text('steps:\n  - pragma: {stmt: 0, loop: i, text: "omp parallel for collapse(2)"}\n')
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 2 and "collapse(2)" in err and "RAW on A" in err, err
    recipe.write_text('steps:\n  - pragma: {stmt: 0, loop: i, text: "omp parallel for"}\n')
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 0, err


def test_ivdep_takes_a_reduction_into_an_element_the_loop_does_not_move(tmp_path):
    """Orio's `GCC ivdep` on a matmul's k: vectorizers keep the update of C[i][j] a reduction;
    an element that moves with the loop (`B[i % 4] +=`) has no such rescue."""
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    for body in ("C[i][j] += A[i][k] * A[k][j];", "C[i][j] = C[i][j] + A[i][k] * A[k][j];"):
        src.write_text(f"""void k(int N, double A[N][N], double C[N][N]) {{
#pragma scop
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        {body}
#pragma endscop
}}
""")
        recipe.write_text('steps:\n  - pragma: {stmt: 0, loop: k, text: "GCC ivdep"}\n')
        rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", "N=13")
        assert rc == 0 and " ok " in out, out + err
        recipe.write_text('steps:\n  - pragma: {stmt: 0, loop: k, text: "omp simd"}\n')
        rc, out, err = run_cli("transform", src, "--recipe", recipe)
        assert rc == 2 and "(RAW on C)" in err, err
    src.write_text("""void k(int N, double x[N], double B[4]) {
#pragma scop
  for (int i = 0; i < N; i++)
    B[i % 4] += x[i];
#pragma endscop
}
""")
    recipe.write_text('steps:\n  - pragma: {stmt: 0, loop: i, text: "GCC ivdep"}\n')
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 2 and "on B)" in err, err


def test_a_teams_pragma_is_checked_without_a_recipe_too(tmp_path):
    """Probe 73 G2: with no recipe, a prefix sum under the `#pragma omp parallel for` before its
    `#pragma scop` came back with the pragma, where any recipe had it refused."""
    src = tmp_path / "k.c"
    src.write_text("""#define N 100
static double A[N], B[N];
void kernel(void) {
  int i;
#pragma omp parallel for
#pragma scop
  for (i = 1; i < N; i++)
    A[i] = A[i-1] + B[i];
#pragma endscop
}
""")
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and "RAW on A" in err and ":5:1: error:" in err, err
    rc, out, err = run_cli("transform", src, "--unsafe")
    assert rc == 0 and "#pragma omp parallel for" in out, err
    src.write_text(src.read_text().replace("A[i-1] + B[i]", "A[i] + B[i]"))
    rc, out, err = run_cli("transform", src)
    assert rc == 0 and "#pragma omp parallel for" in out, err


REGION_LOCAL = """#define N 60
static double A[N], B[N], C[1];
void kernel(void) {
  int i;
#pragma scop
  double s;
  for (i = 0; i < N; i++) {
    s = A[i] * 2.0;
    B[i] = s + 1.0;
  }
  AFTER
#pragma endscop
}
"""


@pytest.mark.parametrize("steps", ["  - privatize: {var: s, at: i}\n  - omp_for: {stmt: 0, loop: i}\n",
                                   "  - omp_for: {stmt: 0, loop: i, private: [s]}\n"])
def test_a_local_the_region_declares_before_its_loop_can_be_private(tmp_path, steps):
    """Probe 73 G3: privatize said it was 'already private' (remove this step), and omp_for's
    private list skipped it, so the loop stayed refused with no way out."""
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(REGION_LOCAL.replace("AFTER", ""))
    recipe.write_text("steps:\n" + steps)
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 0 and "#pragma omp parallel for private(s)" in out, out + err
    rc, out, err = run_cli("run", src, "--recipe", recipe, "--cflags", "-O2 -fopenmp", "--repetitions", "1")
    assert rc == 0 and " ok " in out, out + err
    # read after the loop: the value of the last iteration passes out of it
    src.write_text(REGION_LOCAL.replace("AFTER", "C[0] = s;"))
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 2, out + err


def test_two_thread_loop_phases_in_one_kernel_get_a_message_that_says_so(tmp_path):
    """Probe 73 G4: the refusal read as if statement 1 would run unmapped in every thread."""
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text("""void k(int N, double A[N][N], double B[N][N], double C[N][N]) {
#pragma scop
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++)
      B[i][j] = A[i][j] * 2.0;
    for (int j = 0; j < N; j++)
      C[i][j] = B[i][N - 1 - j] + 1.0;
  }
#pragma endscop
}
""")
    recipe.write_text("steps:\n  - cuda: {stmt: 0, block: [i], thread: [j]}\n  - cuda: {stmt: 1, block: [i], thread: [j]}\n")
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 2 and "statement 1 runs in its own loop 'j' beside the thread loop 'j' of statement 0" in err, err
    assert "distribute statement 1 out of loop 'i' first" in err, err
    recipe.write_text("steps:\n  - distribute: {stmts: [0, 1], loop: i}\n" + recipe.read_text().split("\n", 1)[1])
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", "N=19")
    assert rc == 0 and " ok " in out, out + err


def test_a_reduction_refusal_quotes_the_line_not_looptxs_rewriting(tmp_path):
    """Probe 73 G5: an argmax's if-converted test was quoted as `lx_c10_5 = A[i] > m`."""
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text("""void k(int N, double A[N], double out[2]) {
  double m = -1.0; int idx = 0;
#pragma scop
  for (int i = 0; i < N; i++)
    if (A[i] > m) { m = A[i]; idx = i; }
#pragma endscop
  out[0] = m; out[1] = idx;
}
""")
    recipe.write_text("steps:\n  - omp_for: {stmt: 0, loop: i, reduction: {max: [m]}}\n")
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 2 and "reduction(max:m): S0 (line 5) uses it" in err and "lx_" not in err, err


GESUMMV = """/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2'; }
  def performance_params { param T1_I[] = [1,16]; }
  def search { arg algorithm = 'Exhaustive'; }
  def input_params {
    param N[] = [37];
    PARAMS
  }
  def input_vars {
    decl static double A[N][N] = random;
    decl static double x[N] = random;
    decl static double y[N] = 0;
  }
) @*/
int i, j, ii;
/*@ begin Loop(
  transform Composite(tile = [('i',T1_I,'ii')])
  for (i=0;i<=N-1;i++) {
    y[i] = 0;
    for (j=0;j<=N-1;j++)
      y[i] = a*A[i][j]*x[j] + y[i];
    y[i] = b*y[i];
  }
) @*/
for (i=0;i<=N-1;i++) {
  y[i] = 0;
  for (j=0;j<=N-1;j++)
    y[i] = a*A[i][j]*x[j] + y[i];
  y[i] = b*y[i];
}
/*@ end @*/
/*@ end @*/
"""


def test_a_float_input_param_is_a_coefficient_of_the_program(tmp_path):
    """Probe 69 G7: SPAPT's `param a = 1.5;` in input_params was refused as a problem size that
    is not an integer; Orio #defines it."""
    src = tmp_path / "g.c"
    src.write_text(GESUMMV.replace("PARAMS", "param a = 1.5; param b[] = [1.2];"))
    rc, out, err = run_cli("search", src, "--budget", "2")
    assert rc == 0 and "ok 2" in out, out + err
    assert "double a = 1.5" in (tmp_path / "g.best.c").read_text() or "a" in (tmp_path / "g.best.c").read_text()
    src.write_text(GESUMMV.replace("PARAMS", "param a[] = [1.5, 2.5]; param b = 1.2;"))
    rc, out, err = run_cli("search", src, "--budget", "2")
    assert rc == 2 and "which is not an integer" in err and "a coefficient takes one value" in err, err


HOISTED = """#define N 64
#define M 48
void k(double c[N][M], double b[N][M], double a0)
{
  double t;
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++) {
      if (i == 0 && j == 0)
        t = a0;
      else
        t = b[i][j];
      c[i][j] = 2.0 * t;
    }
#pragma endscop
}
"""


@pytest.mark.parametrize("steps", ["  - omp_for: {stmt: 0, loop: i, private: [t]}\n",
                                   '  - pragma: {stmt: 0, loop: i, text: "omp parallel for private(t)"}\n'])
def test_a_private_variable_isl_sets_before_the_loop_starts_from_that_value(tmp_path, steps):
    """Probe 74 G1 (Rodinia hotspot's corner): isl prints `t = a0;` of the first iteration before
    the parallel loop; t was left shared, and the threads raced on it."""
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(HOISTED)
    recipe.write_text("steps:\n" + steps)
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 0 and "t = a0;\n    #pragma omp parallel for private(j) firstprivate(t)" in out, out + err
    rc, out, err = run_cli("run", src, "--recipe", recipe, "--cflags", "-O2 -fopenmp", "--repetitions", "3")
    assert rc == 0 and " ok " in out, out + err


def test_a_simd_pragma_that_would_need_a_firstprivate_copy_is_refused(tmp_path):
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(HOISTED)
    recipe.write_text('steps:\n  - pragma: {stmt: 0, loop: i, text: "omp parallel for private(t)"}\n'
                      '  - pragma: {stmt: 0, loop: j, text: "omp simd private(t)"}\n')
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 2 and "'#pragma omp simd' would make 't' private" in err and "takes no firstprivate" in err, err


def test_hpcgs_guarded_pragma_before_the_region_moves_onto_its_loop(tmp_path):
    """Probe 74 G2: under `#ifndef HPCG_NO_OPENMP ... #endif` the pragma was neither checked nor
    moved, so it stood before the `{` looptx writes (gcc: for statement expected)."""
    src = tmp_path / "k.c"
    text = """#define N 1000
void dot(const double xv[N], const double yv[N], double *result)
{
  double local_result = 0.0;
#ifndef HPCG_NO_OPENMP
  #pragma omp parallel for reduction (+:local_result)
#endif
#pragma scop
  for (int i = 0; i < N; i++) local_result += xv[i] * yv[i];
#pragma endscop
  *result = local_result;
}
"""
    src.write_text(text)
    out_c = tmp_path / "out.c"
    rc, out, err = run_cli("transform", src, "-o", out_c)
    assert rc == 0, err
    got = out_c.read_text()
    assert "#ifndef HPCG_NO_OPENMP\n#endif\n#pragma scop" in got, got
    # the pragma keeps its #ifndef (probe 141 G8: a -DHPCG_NO_OPENMP build ran it in threads)
    assert "#ifndef HPCG_NO_OPENMP\n    #pragma omp parallel for reduction(+:local_result)\n    #endif\n" \
        "    for (int i" in got, got
    p = subprocess.run(["gcc", "-fopenmp", "-Wall", "-Wno-unknown-pragmas", "-c", str(out_c), "-o",
                        str(tmp_path / "o.o")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    src.write_text(text.replace(" reduction (+:local_result)", ""))
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and "RAW on local_result" in err, err


def test_private_arrays_of_a_pragma_before_the_region(tmp_path):
    """Probe 74 G3 (NPB MG resid's `private(u1, u2)`): the arrays were dropped from the private
    list, so the region was refused as racing, and run's reference raced."""
    src = tmp_path / "k.c"
    src.write_text("""#define N 64
#define M 32
void k(double a[N][M], double b[N][M])
{
  int i, j;
  double w[M];
#pragma omp parallel for private(j, w)
#pragma scop
  for (i = 0; i < N; i++) {
    for (j = 0; j < M; j++)
      w[j] = 2.0 * a[i][j];
    for (j = 0; j < M; j++)
      b[i][j] = w[j] + w[M-1-j];
  }
#pragma endscop
}
""")
    rc, out, err = run_cli("transform", src)
    assert rc == 0 and "#pragma omp parallel for private(j, w)" in out, out + err
    for _ in range(2):
        rc, out, err = run_cli("run", src, "--cflags", "-O2 -fopenmp", "--repetitions", "3")
        assert rc == 0 and " ok " in out, out + err


GEMM = """void g(int N, double A[N][N], double B[N][N], double C[N][N]) {
#pragma scop
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        C[i][j] += A[i][k] * B[k][j];
#pragma endscop
}
"""


@pytest.mark.parametrize("steps,why", [
    ("  - unroll: {stmt: 0, loop: j, factor: 4}\n", "holds more than one loop or statement"),
    ("  - tile: {stmt: 0, loop: j, size: 8}\n  - permute: {stmt: 0, order: [jj, i, j, k]}\n"
     "  - skew: {stmt: 0, loop: j, by: {i: 1}}\n", None),
])
def test_collapse_needs_perfectly_nested_rectangular_loops(tmp_path, steps, why):
    """Probe 74 G4: `collapse(2)` over an unroll's remainder loop or a min bound of the outer
    counter was written out, and gcc refused it."""
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(GEMM)
    loop = "i" if why else "jj"
    recipe.write_text("steps:\n" + steps + f'  - pragma: {{stmt: 0, loop: {loop}, text: "omp parallel for collapse(2)"}}\n')
    rc, out, err = run_cli("transform", src, "--recipe", recipe, "-D", "N=37")
    if why:
        assert rc == 2 and why in err and len(err.strip().splitlines()) == 1, err
        return
    # a skew of j by i gives j's bounds i + ...: linear, which OpenMP collapses (gcc >= 11)
    assert rc == 0, err
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", "N=37", "--cflags", "-O2 -fopenmp")
    assert rc == 0 and " ok " in out, out + err


def test_an_inner_parallel_pragma_in_a_team_region_is_refused(tmp_path):
    """Probe 74 G5: in a team, `omp parallel for` on an inner loop became an `omp for` nested in
    the team's, which gcc refuses."""
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text("""void f(int N, double a[N][N], double b[N][N]) {
#pragma omp parallel
  {
#pragma scop
#pragma omp for
    for (int k = 0; k < N; k++)
      for (int j = 0; j < N; j++)
        b[k][j] = 2.0 * a[k][j];
#pragma endscop
  }
}
""")
    recipe.write_text('steps:\n  - pragma: {stmt: 0, loop: j, text: "omp parallel for"}\n')
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 2 and "shares out already" in err, err
    recipe.write_text('steps:\n  - pragma: {stmt: 0, loop: j, text: "omp simd"}\n')
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", "N=33", "--cflags", "-O2 -fopenmp")
    assert rc == 0 and " ok " in out, out + err


def test_openacc_loops_the_compiler_decides_are_not_checked(tmp_path):
    """Probe 74 G8: `acc loop auto` and `acc kernels loop` leave the dependence analysis to the
    OpenACC compiler, unlike `acc parallel loop` or `independent`."""
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(PREFIX)
    for text, ok in (("acc loop auto", True), ("acc kernels loop", True), ("acc kernels loop independent", False),
                     ("acc parallel loop", False)):
        recipe.write_text(f'steps:\n  - pragma: {{stmt: 0, loop: i, text: "{text}"}}\n')
        rc, out, err = run_cli("transform", src, "--recipe", recipe)
        assert (rc == 0) == ok, (text, err)


def test_a_directives_refusal_hints_at_its_own_text(tmp_path):
    """Probe 74 G9: `omp simd` on a sum was told to use omp_for's reduction, which makes it a
    thread-parallel loop; a private clause of another directive was told to use omp_for."""
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text("""void k(int N, double x[N], double *out) {
  double s = 0.0;
#pragma scop
  for (int i = 0; i < N; i++)
    s += x[i];
#pragma endscop
  *out = s;
}
""")
    recipe.write_text('steps:\n  - pragma: {stmt: 0, loop: i, text: "omp simd"}\n')
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 2 and "add reduction(+:s) to '#pragma omp simd'" in err, err
    src.write_text(TEMP)
    recipe.write_text('steps:\n  - privatize: {var: t, at: j}\n  - pragma: {stmt: 0, loop: j, text: "omp simd"}\n')
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", "N=9", "-D", "M=13", "--cflags", "-O2 -fopenmp")
    assert rc == 0 and " ok " in out, out + err


@pytest.mark.parametrize("text,want", [
    ("omp simd private(t)", "#pragma omp simd private(t)"),
    ("omp parallel for shared(A, B) private(j, t)", "#pragma omp parallel for shared(A, B) private(t)"),
    ("acc parallel loop private(t)", "#pragma acc parallel loop private(t)"),
])
def test_the_private_clause_of_any_loop_construct_is_privatized_and_checked(tmp_path, text, want):
    """Probe 74 G7: only `omp parallel for [plain clauses] private(t)` was read; Rodinia's
    `shared(...) private(...)`, `omp simd private(t)` and OpenACC's were refused."""
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(TEMP)
    loop = "j" if "simd" in text else "i"
    recipe.write_text(f'steps:\n  - pragma: {{stmt: 0, loop: {loop}, text: "{text}"}}\n')
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 0 and want in out, out + err
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", "N=9", "-D", "M=13", "--cflags", "-O2 -fopenmp")
    assert rc == 0 and " ok " in out, out + err


def test_run_compiles_the_clauses_a_recipe_keeps_as_written(tmp_path):
    """Probe 74 G6: `shared(...)`, `default(none)` and private counters made the run harness
    fail to compile (it declares counters in the loop headers and passes sizes itself)."""
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(GEMM)
    recipe.write_text('steps:\n  - pragma: {stmt: 0, loop: i, text: "omp parallel for default(none) '
                      'shared(A, B, C, N) private(j, k) schedule(static)"}\n')
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 0 and "default(none) shared(A, B, C, N) private(j, k) schedule(static)" in out, out + err
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", "N=21", "--cflags", "-O2 -fopenmp")
    assert rc == 0 and " ok " in out, out + err


@pytest.mark.skipif(NVCC is None, reason="nvcc is not installed (CI machines have it)")
def test_a_cu_made_for_a_plain_defines_value_or_a_known_fact_stops_other_builds(tmp_path):
    """Probe 75 G1/G2: now that the .cu's sizes are macros a build may set, `-D N=64` of a plain
    `#define N 64`, and a `known` fact on N, must stop `nvcc -DN=...` that breaks them, as the C
    output's #error does (the grid was made for 64, or for N % 16 == 0)."""
    plain = MM.replace("#define M 48", "#define M 64")
    cu = _cu(tmp_path, plain, MM_RECIPE, "-D", "N=64")
    assert "#ifndef N\n#define N 64\n#endif" in cu and "#if N != 64\n#error" in cu, cu
    assert nvcc_compile(cu) is None
    err = nvcc_compile("#define N 128\n" + cu)
    assert err is not None and "--define N=64" in err, err
    known = MM_RECIPE.replace("steps:\n", "steps:\n  - known: {facts: ['N % 16 == 0']}\n")
    cu = _cu(tmp_path, PB.replace("define N 100", "define N 128"), known)
    assert nvcc_compile(cu) is None and nvcc_compile("#define N 48\n" + cu) is None
    err = nvcc_compile("#define N 40\n" + cu)
    assert err is not None and "N % 16 == 0" in err, err


def test_an_array_of_2_31_elements_at_the_defined_sizes_is_indexed_in_64_bits(tmp_path):
    """Probe 75 G3: `by * N + ...` in int wrapped past 2^31 elements (N = 46400, 8.6 GB of
    floats), where C's `A[i][j]` addresses in 64 bits."""
    big = """#ifndef N
#define N 1024
#endif
void scale_big(float A[N][N], float B[N][N])
{
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      B[i][j] = 2.0f * A[i][j];
#pragma endscop
}
"""
    recipe = ("steps:\n  - tile: {stmt: 0, loop: j, size: 256, control: jj}\n"
              "  - cuda: {stmt: 0, block: [jj, i], thread: [j]}\n")
    cu = _cu(tmp_path, big, recipe, "-D", "N=46400")
    assert "B[(long)by * N + (tx + 256 * bx)]" in cu, cu
    cu = _cu(tmp_path, big, recipe, "-D", "N=4096")
    assert "B[by * N + (tx + 256 * bx)]" in cu, cu


def test_a_schedule_clause_before_the_region_stays_on_the_new_outer_loop(tmp_path):
    """Probe 74 G10: it was dropped with a note; a team's `omp for schedule` still is (its loop
    becomes an omp_for step)."""
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(GEMM.replace("#pragma scop", "#pragma omp parallel for schedule(dynamic,4)\n#pragma scop"))
    recipe.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 16}\n")
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 0 and "#pragma omp parallel for schedule(dynamic,4)" in out and "without" not in err, out + err
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", "N=37", "--cflags", "-O2 -fopenmp")
    assert rc == 0 and " ok " in out, out + err
