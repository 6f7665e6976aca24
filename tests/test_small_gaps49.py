"""Session 49's fixes: leftovers of earlier probes (a local's `__attribute__((unused))`, kernel
names, split conditions by level) and what probes 68 (ML kernels in C), 70 (recipe fuzzing) and
71 (CUDA recipes) found."""
from pathlib import Path

import pytest

from conftest import run_cli
from test_cuda_codegen import NVCC, nvcc_compile
from test_probe54 import _ok
from test_probe65_cuda import JACOBI

ATTR = """void g(int n, double a[n][n], double b[n][n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      DECL
      double s = a[i][j] * 2.0;
      b[j][i] = s + 1.0;
    }
#pragma endscop
}
"""


@pytest.mark.parametrize("decl,kept", [
    ("double t __attribute__((unused)) = 0.0;", "double t __attribute__((unused));"),
    ("__attribute__((unused)) double t = 0.0;", "double t __attribute__((unused));"),
    ("double t __attribute__((unused, aligned(8))) = 0.0;", "double t __attribute__((unused, aligned(8)));"),
])
def test_a_locals_attributes_stay_on_its_hoisted_declaration(tmp_path, decl, kept):
    src, recipe = tmp_path / "attr.c", tmp_path / "r.yaml"
    src.write_text(ATTR.replace("DECL", decl))
    recipe.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 8}\n")
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 0, err
    assert kept in out and "double s;" in out, out
    # set but never read: without the attribute gcc -Wall warns (-Wunused-but-set-variable)
    for n in ("37", "16"):
        _ok(*run_cli("run", src, "--recipe", recipe, "-D", f"n={n}", "--cflags", "-O2 -Wall -Werror"))


def test_an_attribute_of_another_declaration_on_the_line_is_not_taken(tmp_path):
    src, recipe = tmp_path / "attr.c", tmp_path / "r.yaml"
    src.write_text(ATTR.replace("DECL", "double t = 0.0; double u __attribute__((unused)) = 1.0;"))
    recipe.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 8}\n")
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 0, err
    assert "double t;" in out and "double u __attribute__((unused));" in out, out


@pytest.mark.skipif(NVCC is None, reason="nvcc is not installed (CI machines have it)")
def test_the_attribute_compiles_in_a_cuda_kernel(tmp_path):
    src, recipe = tmp_path / "attr.c", tmp_path / "r.yaml"
    src.write_text(ATTR.replace("DECL", "double t __attribute__((unused)) = 0.0;"))
    recipe.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 8, control: ii}\n"
                      "  - cuda: {stmt: 0, block: [ii], thread: [i], kernel: k, sizes: {a: n*n, b: n*n}}\n")
    rc, out, err = run_cli("transform", src, "--recipe", recipe, "--target", "cuda")
    assert rc == 0, err
    assert "__attribute__((unused))" in out, out
    assert nvcc_compile(out) is None


def _cuda_with_kernel(tmp_path, kernel: str):
    src, recipe = tmp_path / "attr.c", tmp_path / "r.yaml"
    src.write_text(ATTR.replace("DECL", ""))
    recipe.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 8, control: ii}\n"
                      f"  - cuda: {{stmt: 0, block: [ii], thread: [i], kernel: {kernel}, sizes: {{a: n*n, b: n*n}}}}\n")
    return run_cli("transform", src, "--recipe", recipe, "--target", "cuda")


@pytest.mark.parametrize("kernel", ["k", "e", "regs", "shared"])
def test_a_kernel_may_have_the_name_of_a_local_of_the_generated_host_code(tmp_path, kernel):
    rc, out, err = _cuda_with_kernel(tmp_path, kernel)
    assert rc == 0, err
    assert f"cudaFuncGetAttributes(&lx_a, {kernel})" in out, out
    if NVCC:
        assert nvcc_compile(out) is None


@pytest.mark.parametrize("kernel", ["printf", "sqrt", "expf", "cudaKernel", "g_host_status", "malloc"])
def test_a_kernel_named_as_a_library_function_is_refused_at_the_step(tmp_path, kernel):
    rc, out, err = _cuda_with_kernel(tmp_path, kernel)
    assert rc == 2 and "Traceback" not in err, err
    assert f"step 2 (cuda): error: kernel name '{kernel}' is reserved" in err and "choose another" in err, err


LAYERNORM_VAR = """void rowvar(int T, int C, float x[T][C], float m[T], float var[T])
{
    for (int t = 0; t < T; t++) {
        float v = 0.0f;
        for (int i = 0; i < C; i++) {
            float xs = x[t][i] - m[t];
            v += xs * xs;
        }
        var[t] = v;
    }
}
"""


@pytest.mark.parametrize("sizes", [("T=9", "C=12"), ("T=10", "C=13"), ("T=1", "C=1")])
def test_unroll_then_unroll_jam_around_a_local_of_the_unrolled_loop(tmp_path, sizes):
    """Probe 68 G2 (llm.c layernorm): isl runs the unrolled loop's strips as one loop from 0,
    which once was 'internal: cannot tell which jammed copy an instance of statement 1 is'."""
    src, recipe = tmp_path / "ln.c", tmp_path / "r.yaml"
    src.write_text(LAYERNORM_VAR)
    recipe.write_text("steps:\n  - unroll: {stmt: 2, loop: i, factor: 2}\n"
                      "  - unroll_jam: {stmt: 0, loop: t, factor: 2}\n")
    rc, out, err = run_cli("transform", src, "--function", "rowvar", "--recipe", recipe)
    assert rc == 0, err
    assert "xs__t1__i1 = x[t + 1][i + 1] - m[t + 1];" in out, out
    _ok(*run_cli("run", src, "--function", "rowvar", "--recipe", recipe,
                 *[a for s in sizes for a in ("-D", s)]))


CLAMP = """#include <stdint.h>
#define MAX(A, B) ((A) > (B) ? (A) : (B))
#define MIN(A, B) ((A) < (B) ? (A) : (B))
void rowsum_clamp(const int8_t *x, int8_t *y, int n, int m, int32_t act_min, int32_t act_max)
{
    for (int i = 0; i < n; i++) {
        int32_t acc = 0;
        for (int k = 0; k < m; k++)
            acc += x[i * m + k];
        acc = MAX(acc, act_min);
        acc = MIN(acc, act_max);
        y[i] = (int8_t)acc;
    }
}
"""


def test_results_of_one_value_on_every_data_set_validate_nothing_under_unsafe(tmp_path):
    """Probe 68 G1: the seeded clamp bounds (7, 4) make every y[i] 4, so a variant that no longer
    resets acc per row (distribute under --unsafe) was 'ok'.  Without --unsafe the dependences
    proved the step: ok, with a warning."""
    src, wrong, legal = tmp_path / "c.c", tmp_path / "w.yaml", tmp_path / "l.yaml"
    src.write_text(CLAMP)
    wrong.write_text("steps:\n  - distribute: {stmts: [0], loop: i}\n")
    legal.write_text("steps:\n  - unroll: {stmt: 1, loop: k, factor: 2}\n")
    args = ("--function", "rowsum_clamp", "-D", "n=8", "-D", "m=5")
    for recipe in (wrong, legal):
        rc, out, err = run_cli("run", src, *args, "--recipe", recipe, "--unsafe")
        assert rc == 1 and "unvalidated: every element of the original's results is one value ('y' is" in out + err, \
            out + err
        assert "--define NAME=VALUE" in out + err
    rc, out, err = run_cli("run", src, *args, "--recipe", legal)
    assert rc == 0 and ": ok" in out, out + err
    assert "warning: every element of the original's results is one value ('y' is 4)" in err, err
    bounds = ("-D", "act_min=-128", "-D", "act_max=127")
    rc, out, err = run_cli("run", src, *args, *bounds, "--recipe", wrong, "--unsafe")
    assert rc == 1 and "wrong_result" in out + err, out + err
    _ok(*run_cli("run", src, *args, *bounds, "--recipe", legal))


def test_a_region_that_reads_nothing_is_validated_on_its_constant(tmp_path):
    src, recipe = tmp_path / "z.c", tmp_path / "r.yaml"
    src.write_text("void z(int n, int a[n][n]) {\n#pragma scop\n  for (int i = 0; i < n; i++)\n"
                   "    for (int j = 0; j < n; j++)\n      a[i][j] = 0;\n#pragma endscop\n}\n")
    recipe.write_text("steps:\n  - tile: {stmt: 0, loop: j, size: 4}\n")
    _ok(*run_cli("run", src, "--recipe", recipe, "-D", "n=10"))


CONV1D = """#define W 13
#define S 3
#define OW ((W + 2 - S) / 2 + 1)

void conv1d(float in[W], float wt[S], float out[OW])
{
    int ow, s;
#pragma scop
    for (ow = 0; ow < OW; ow++)
        for (s = 0; s < S; s++) {
            int iw = 2 * ow - 1 + s;
            if (iw >= 0 && iw < W)
                out[ow] += in[iw] * wt[s];
        }
#pragma endscop
}
"""


def test_a_full_unroll_takes_the_define_that_gives_the_fewest_copies(tmp_path):
    """Probe 68 G4: the guard `iw < W` bounds s too, and W = 13 was the first #define under
    which the trip count is constant: 13 guarded copies instead of S = 3."""
    src, recipe = tmp_path / "c.c", tmp_path / "r.yaml"
    src.write_text(CONV1D)
    recipe.write_text("steps:\n  - unroll: {stmt: 0, loop: s, factor: 0}\n")
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 0 and "unrolled fully at S = 3" in err and "at W = 13" not in err, err
    region = out[out.index("#pragma scop"):]
    assert region.count("in[") == 4 and "for (s = " in region, region   # 3 copies + the #if's other branch
    _ok(*run_cli("run", src, "--recipe", recipe))


def test_a_divisor_of_sizes_gets_the_define_that_fixes_it(tmp_path):
    """Probe 68 G5: llama2.c's `key_cache[... + (h / kv_mul) * head_size]`."""
    src = tmp_path / "d.c"
    src.write_text("void f(int n, int kv_mul, double a[n], double b[n]) {\n#pragma scop\n"
                   "  for (int h = 0; h < n; h++)\n    a[h] += b[h / kv_mul];\n#pragma endscop\n}\n")
    rc, out, err = run_cli("deps", src)
    assert rc == 2 and "d.c:4:" in err and "fix the divisor with --define kv_mul=VALUE" in err, err
    rc, out, err = run_cli("deps", src, "-D", "kv_mul=2")
    assert rc == 0, err
    # a loop counter is no size to --define
    src.write_text(src.read_text().replace("b[h / kv_mul]", "b[kv_mul / (h + 1)]"))
    rc, out, err = run_cli("deps", src)
    assert rc == 2 and "--define" not in err, err


IM2COL = """void im2col_cpu(float* data_im, int channels, int height, int width,
     int ksize, int stride, int pad, float* data_col)
{
    int c,h,w;
    int height_col = (height + 2*pad - ksize) / stride + 1;
    int width_col = (width + 2*pad - ksize) / stride + 1;
    int channels_col = channels * ksize * ksize;
    for (c = 0; c < channels_col; ++c) {
        int w_offset = c % ksize;
        int h_offset = (c / ksize) % ksize;
        int c_im = c / ksize / ksize;
        for (h = 0; h < height_col; ++h) {
            for (w = 0; w < width_col; ++w) {
                int im_row = h_offset + h * stride - pad;
                int im_col = w_offset + w * stride - pad;
                int col_index = (c * height_col + h) * width_col + w;
                data_col[col_index] = (im_row < 0 || im_col < 0 ||
                        im_row >= height || im_col >= width) ? 0 :
                        data_im[im_col + width*(im_row + height*c_im)];
            }
        }
    }
}
"""


def test_a_linearized_subscript_hint_names_no_internal_atom(tmp_path):
    """Probe 68 G5: Darknet's im2col asked for `--define __a0=VALUE` (an atom of `c % ksize`)."""
    src = tmp_path / "im.c"
    defines = ("-D", "ksize=3", "-D", "stride=1", "-D", "pad=1")
    # guarded as Darknet writes it, the read stays in its row (probe 68 G3)
    src.write_text(IM2COL)
    rc, out, err = run_cli("deps", src, "--function", "im2col_cpu", *defines)
    assert rc == 0, err
    src.write_text(IM2COL.replace("""(im_row < 0 || im_col < 0 ||
                        im_row >= height || im_col >= width) ? 0 :
                        """, ""))
    rc, out, err = run_cli("deps", src, "--function", "im2col_cpu", *defines)
    assert rc == 2 and "--define height=VALUE --define width=VALUE" in err, err
    assert "__a" not in err and "Traceback" not in err, err


SPLIT_NEST = """#define N 37
double a[N][N], b[N][N];
void f(void) {
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      a[i][j] = b[j][i] * 2.0 + a[i][j];
#pragma endscop
}
"""


@pytest.mark.parametrize("recipe, name", [('split(0,2,"L2 < L1")\n', "s.chill"),
                                          ('split(0,2,"L1 > L2")\n', "s.chill"),
                                          ("- split: {stmt: 0, loop: j, at: 'j < i'}\n", "s.yaml"),
                                          ("- split: {stmt: 0, loop: 2, at: 'L2 < L1'}\n", "s.yaml")])
def test_a_split_condition_may_relate_two_levels(tmp_path, recipe, name):
    """Probe 67: CHiLL's `split(0,2,"L2 < L1")` (the triangle below the diagonal first) was
    refused ('L1' is neither a loop nor a parameter)."""
    src, r = tmp_path / "sp.c", tmp_path / name
    src.write_text(SPLIT_NEST)
    r.write_text(recipe)
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 0, err
    assert "for (j = 0; j < i; j++)" in out and "for (j = i; j < N; j++)" in out, out
    _ok(*run_cli("run", src, "--recipe", r))


@pytest.mark.parametrize("cond, said", [("L3 < 4", "'L3' in the condition 'L3 < 4' is no loop level of statement 0"),
                                        ("L1 < L1 + 1", "does not compare loop 'j'"),
                                        ("L2 < 4 < L1", "is not one comparison of loop 'j'")])
def test_a_split_condition_that_is_no_cut_is_refused_at_the_step(tmp_path, cond, said):
    src, r = tmp_path / "sp.c", tmp_path / "s.chill"
    src.write_text(SPLIT_NEST)
    r.write_text(f'split(0,2,"{cond}")\n')
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 2 and "s.chill:1: step 1 (split)" in err and said in err and "Traceback" not in err, err


IM2COL_MOD = """void im2col_mod(float *im, float *col, int H, int W) {
    for (int c = 0; c < 6; c++)
        for (int h = 0; h < H; h++)
        for (int w = 0; w < W; w++) {
            int s = c % 3 + w - 1;
            col[(c*H + h)*W + w] = (s < 0 || s >= W) ? 0 : im[h*W + s];
        }
}
"""


@pytest.mark.parametrize("sizes", [("H=5", "W=7"), ("H=4", "W=8"), ("H=1", "W=1")])
def test_a_guard_with_a_modulo_keeps_its_read_inside_the_row(tmp_path, sizes):
    """Probe 68 G3: the guard's `c % 3` (exact for c >= 0) made guard_of give up, so the read
    counted as unconditional and left its row of W elements."""
    src, recipe = tmp_path / "im.c", tmp_path / "r.yaml"
    src.write_text(IM2COL_MOD)
    recipe.write_text("steps:\n  - tile: {stmt: 0, loop: w, size: 4}\n  - unroll: {stmt: 0, loop: c, factor: 2}\n")
    _ok(*run_cli("run", src, "--function", "im2col_mod", "--recipe", recipe,
                 *[a for s in sizes for a in ("-D", s)]))


def test_darknets_im2col_runs_with_its_sizes_given(tmp_path):
    src, recipe = tmp_path / "im.c", tmp_path / "r.yaml"
    src.write_text(IM2COL)
    recipe.write_text("steps:\n  - unroll: {stmt: 0, loop: w, factor: 4}\n")
    for extra in (("height=6", "width=7", "channels=2"), ("height=8", "width=8", "channels=1")):
        _ok(*run_cli("run", src, "--function", "im2col_cpu", "--recipe", recipe,
                     *[a for s in ("ksize=3", "stride=1", "pad=1") + extra for a in ("-D", s)]))


LLAMA_MATMUL = """void matmul(float* xout, float* x, float* w, int n, int d) {
    // W (d,n) @ x (n,) -> xout (d,)
    int i;
    #pragma omp parallel for private(i)
    for (i = 0; i < d; i++) {
        float val = 0.0f;
        for (int j = 0; j < n; j++) {
            val += w[i * n + j] * x[j];
        }
        xout[i] = val;
    }
}
"""


def test_a_functions_own_parallel_for_is_kept_on_the_transformed_nest(tmp_path):
    """Probe 68 G7: with --function, llama2.c's `#pragma omp parallel for private(i)` was inside
    the region and dropped, so the transformed matmul ran in one thread."""
    src, unroll, tile = tmp_path / "mm.c", tmp_path / "u.yaml", tmp_path / "t.yaml"
    src.write_text(LLAMA_MATMUL)
    unroll.write_text("steps:\n  - unroll: {stmt: 1, loop: j, factor: 4}\n")
    tile.write_text("steps:\n  - tile: {stmt: 1, loop: i, size: 8}\n")
    rc, out, err = run_cli("transform", src, "--function", "matmul", "--recipe", unroll)
    assert rc == 0 and "is dropped" not in err, err
    assert "#pragma omp parallel for private(val)\n      for (i = 0; i < d; i++) {" in out, out
    assert out.count("#pragma omp") == 1, out
    rc, out, err = run_cli("transform", src, "--function", "matmul", "--recipe", tile)
    assert rc == 0 and "#pragma omp parallel for private(i, val)\n      for (int ii = 0;" in out, out
    for recipe in (unroll, tile):
        _ok(*run_cli("run", src, "--function", "matmul", "--recipe", recipe, "-D", "n=37", "-D", "d=19",
                     "--cflags", "-O2 -fopenmp"))


def test_a_functions_parallel_for_on_a_loop_that_carries_a_dependence_is_refused(tmp_path):
    src, recipe = tmp_path / "p.c", tmp_path / "r.yaml"
    src.write_text("void prefix(float* a, int n) {\n    int i;\n    #pragma omp parallel for\n"
                   "    for (i = 1; i < n; i++)\n        a[i] += a[i - 1];\n}\n")
    recipe.write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 2}\n")
    rc, out, err = run_cli("transform", src, "--function", "prefix", "--recipe", recipe)
    assert rc == 2 and "p.c:3:" in err and "RAW on a" in err and "Traceback" not in err, err


# PolyBench's own spelling of the size: a default the build may change
JACOBI_IFNDEF = JACOBI.replace("#define N 30\n", "#ifndef N\n#define N 120\n#endif\n")

JACOBI_CUDA = """steps:
  - tile: {stmt: 0, loop: i, size: 16, control: ii}
  - tile: {stmt: 0, loop: j, size: 16, control: jj}
  - permute: {stmt: 0, order: [t, ii, jj, i, j]}
  - cuda: {stmt: 0, block: [jj, ii], thread: [j, i], kernel: jacobi_b}
  - tile: {stmt: 1, loop: i, size: 16, control: ii}
  - tile: {stmt: 1, loop: j, size: 16, control: jj}
  - permute: {stmt: 1, order: [t, ii, jj, i, j]}
  - cuda: {stmt: 1, block: [jj, ii], thread: [j, i], kernel: jacobi_a}
"""


@pytest.mark.gpu
@pytest.mark.parametrize("sizes", [("N=64", "n=64", "tsteps=5"), ("N=100", "n=90", "tsteps=3")])
def test_the_cu_for_variable_sizes_is_built_with_the_sizes_the_defines_get(tmp_path, sizes):
    """Probe 71: `run --target cuda -D N=64` checked the .cu for variable sizes built with
    PolyBench's `#ifndef N / #define N 120` default, over 64 x 64 arrays: a wrong result of
    the check, not of the .cu (nvcc -DN=64 builds it right)."""
    from test_gpu import _gpu
    _gpu()
    src, recipe = tmp_path / "j.c", tmp_path / "r.yaml"
    src.write_text(JACOBI_IFNDEF)
    recipe.write_text(JACOBI_CUDA)
    rc, out, err = run_cli("run", src, "--recipe", recipe, "--target", "cuda", "--repetitions", "1",
                           *[a for s in sizes for a in ("-D", s)])
    assert rc == 0 and ": ok" in out, out + err


PIN = """#ifndef N
#define N 72
#endif
void f(double C[N][N], const double A[N][N])
{
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      C[i][j] += A[j][i];
#pragma endscop
}
"""


def test_the_c_emulation_of_a_cuda_recipe_keeps_the_build_checks(tmp_path):
    """Probe 71 G1: with a `cuda` step the C output (the grid emulated by loops) had no
    `#if N != 32 #error`: built as written (N = 72) it updated a 32 x 32 corner only."""
    src, recipe, out_c = tmp_path / "p.c", tmp_path / "r.yaml", tmp_path / "o.c"
    src.write_text(PIN)
    recipe.write_text("steps:\n  - cuda: {stmt: 0, block: [i], thread: [j]}\n")
    rc, out, err = run_cli("transform", src, "--recipe", recipe, "-D", "N=32", "-o", out_c)
    assert rc == 0, err
    assert "#if N != 32\n#error" in out_c.read_text(), out_c.read_text()
    import subprocess
    as_written = subprocess.run(["gcc", "-c", str(out_c), "-o", str(tmp_path / "o.o")], capture_output=True, text=True)
    assert as_written.returncode != 0 and "--define N=32" in as_written.stderr, as_written.stderr
    with_d = subprocess.run(["gcc", "-DN=32", "-c", str(out_c), "-o", str(tmp_path / "o.o")], capture_output=True,
                            text=True)
    assert with_d.returncode == 0, with_d.stderr


IFNDEF_UNROLL = """#ifndef K
#define K 4
#endif
void f(int n, float a[n][K], float s[n])
{
  int i, k;
#pragma scop
  for (i = 0; i < n; i++)
    for (k = 0; k < K; k++)
      s[i] += a[i][k];
#pragma endscop
}
"""


def test_a_full_unroll_bounded_by_an_ifndef_default_names_its_define(tmp_path):
    """Probe 71 G2: a build may change PolyBench's `#ifndef K`, so the full unroll is refused
    (the contract's constant trip count), and the hint says which --define gives one."""
    src, recipe = tmp_path / "u.c", tmp_path / "r.yaml"
    src.write_text(IFNDEF_UNROLL)
    recipe.write_text("steps:\n  - unroll: {stmt: 0, loop: k, factor: 0}\n")
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 2 and "K is an #ifndef default, which a build may change: --define K=VALUE" in err, err
    rc, out, err = run_cli("transform", src, "--recipe", recipe, "-D", "K=5")
    assert rc == 0 and "s[i] += a[i][4];" in out, out + err


MM_ANNOT = """#define N 128
void mm(float a[N][N], float b[N][N], float c[N][N])
{
  int i, j, k;
/*@ begin CHiLL (
  tile_by_index({"i","j"}, {16,16}, {l1_control="ii", l2_control="jj"}, {"ii","jj","i","j","k"})
  cudaize("mm_GPU", {a=SIZES, b=N*N, c=N*N}, {block={"jj","ii"}, thread={"j","i"}})
) @*/
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        c[i][j] = c[i][j] + a[i][k] * b[k][j];
/*@ end @*/
}
"""


def test_cudaize_counts_in_an_annotation_read_the_files_sizes(tmp_path):
    """Probe 71 G3: `{a=N*N}` with the file's `#define N` above the annotation was 'unknown name
    N' (a script's own variable is still read first)."""
    src = tmp_path / "mm.c"
    src.write_text(MM_ANNOT.replace("SIZES", "N*N"))
    rc, out, err = run_cli("transform", src, "--target", "cuda")
    assert rc == 0, err
    assert "cudaMalloc((void **)&lx_d_a, (size_t)(N) * (size_t)(N) * sizeof(float))" in out, out
    if NVCC:
        assert nvcc_compile(out) is None
    src.write_text(MM_ANNOT.replace("SIZES", "M*N"))
    rc, out, err = run_cli("transform", src, "--target", "cuda")
    assert rc == 2 and "'M' in element count 'M * N' is not a size of the region" in err, err


UNROLL_SPLIT = """void kernel(int N, double A[N][N], double B[N][N])
{
#pragma scop
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            B[i][j] = 2.0 * A[i][j];
#pragma endscop
}
"""


@pytest.mark.parametrize("n", ["6", "8", "7", "13"])
def test_a_split_of_an_unrolled_loop_at_an_outer_loop_keeps_the_last_strip(tmp_path, n):
    """Probe 70 G1: at -D N=6, isl ran the second part from j = i, off the strips, with a guard
    inside, and the strips were taken as whole: B[i][5] was never written for odd i."""
    src, recipe = tmp_path / "us.c", tmp_path / "r.yaml"
    src.write_text(UNROLL_SPLIT)
    recipe.write_text("steps:\n  - unroll: {stmt: 0, loop: j, factor: 2}\n  - split: {stmt: 0, loop: j, at: 'i'}\n")
    _ok(*run_cli("run", src, "--recipe", recipe, "-D", f"N={n}"))


@pytest.mark.parametrize("steps", [("pragma: {stmt: 0, loop: i, text: 'GCC ivdep'}", "omp_for: {stmt: 0, loop: i}"),
                                   ("omp_for: {stmt: 0, loop: i}", "pragma: {stmt: 0, loop: i, text: 'GCC ivdep'}")])
def test_a_pragma_next_to_an_openmp_loop_directive_is_refused(tmp_path, steps):
    """Probe 70 G2: the two stacked before one loop, which gcc -fopenmp refuses in either order."""
    src, recipe = tmp_path / "p.c", tmp_path / "r.yaml"
    src.write_text("void f(int N, double a[N], double b[N]) {\n#pragma scop\n  for (int i = 0; i < N; i++)\n"
                   "    a[i] = 2.0 * b[i];\n#pragma endscop\n}\n")
    recipe.write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps))
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 2 and "r.yaml:3: step 2" in err and "cannot stand next to it before the same loop" in err, err
    # two GCC loop pragmas stack
    recipe.write_text("steps:\n  - pragma: {stmt: 0, loop: i, text: 'GCC ivdep'}\n"
                      "  - pragma: {stmt: 0, loop: i, text: 'GCC unroll 4'}\n")
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 0 and "#pragma GCC ivdep\n    #pragma GCC unroll 4\n    for (int i" in out, out + err


PEEL_STEPPED = (Path(__file__).parent / "data" / "probe70_peel_isl.c").read_text()


def test_a_peel_isl_fails_to_generate_is_generated_with_explicit_equalities(tmp_path):
    """Probe 70 G3: `peel {last: 1}` of an `i += 2` loop with a min bound inside, after an empty
    nest: isl's AST build failed in its coalescing ('original tableau does not correspond to
    original basic map'); the same schedule with detect_equalities is generated."""
    src, recipe, out_c = tmp_path / "p.c", tmp_path / "r.yaml", tmp_path / "o.c"
    src.write_text(PEEL_STEPPED)
    recipe.write_text("steps:\n  - peel: {stmt: 0, loop: i, last: 1}\n")
    rc, out, err = run_cli("transform", src, "--recipe", recipe, "-o", out_c)
    assert rc == 0, err
    import subprocess
    kernel = out_c.read_text().replace("void kernel(void)", "void kernel_t(void)").replace(
        "double C[40][40];", "extern double C[40][40];").replace("int z[40];", "extern int z[40];")
    (tmp_path / "t.c").write_text(kernel)
    (tmp_path / "d.c").write_text(
        "#include <stdio.h>\nextern double C[40][40]; extern int z[40];\nvoid kernel(void); void kernel_t(void);\n"
        "static void init(void) { for (int i = 0; i < 40; i++) { z[i] = i * 3 + 1; "
        "for (int j = 0; j < 40; j++) C[i][j] = i + 0.5 * j; } }\n"
        "int main(void) { static double C0[40][40]; static int z0[40]; init(); kernel();\n"
        "  for (int i = 0; i < 40; i++) { z0[i] = z[i]; for (int j = 0; j < 40; j++) C0[i][j] = C[i][j]; }\n"
        "  init(); kernel_t(); int bad = 0;\n"
        "  for (int i = 0; i < 40; i++) { bad += z0[i] != z[i]; for (int j = 0; j < 40; j++) bad += C0[i][j] != C[i][j]; }\n"
        "  printf(\"%d\\n\", bad); return 0; }\n")
    for sizes in (("-DN=12", "-DM=8"), ("-DN=7", "-DM=5"), ("-DN=3", "-DM=9")):
        exe = tmp_path / "d"
        subprocess.run(["gcc", "-w", *sizes, str(tmp_path / "d.c"), str(src), str(tmp_path / "t.c"), "-o", str(exe)],
                       check=True)
        assert subprocess.run([str(exe)], capture_output=True, text=True).stdout.strip() == "0", sizes


def test_a_full_unroll_of_a_parallel_loop_says_so(tmp_path):
    """Probe 70 G5: omp_for on j, then unroll j by 4 at -D N=3 (a full unroll): 'statement 0 has
    no loop named j', about a loop the user can see."""
    src, recipe = tmp_path / "o.c", tmp_path / "r.yaml"
    src.write_text("void f(int N, double A[N][N], double B[N][N]) {\n#pragma scop\n  for (int i = 0; i < N; i++)\n"
                   "    for (int j = i; j < N; j++)\n      B[j][j] += 0.25 * A[i][i];\n#pragma endscop\n}\n")
    recipe.write_text("steps:\n  - omp_for: {stmt: 0, loop: j}\n  - unroll: {stmt: 0, loop: j, factor: 4}\n")
    # (at N = 3 the unroll by 4 is one strip: the loop stays, runs once, and its pragma goes with a
    # note, probe 88 G5, rather than a refusal of a recipe fine at every other size)
    rc, out, err = run_cli("transform", src, "--recipe", recipe, "-D", "N=3")
    assert rc == 0 and "the pragma of loop 'j' is dropped" in err, err
    rc, out, err = run_cli("transform", src, "--recipe", recipe, "-D", "N=9")
    assert rc == 0 and "#pragma omp parallel for" in out, err


def test_a_guard_whose_modulo_the_domain_does_not_prove_leaves_its_read_unconditional(tmp_path):
    """The other side of probe 68 G3: `(j - off) % 2` may be of a negative value, where C's %
    is not the model's; the read then counts as unconditional (as before), and the region is
    neither refused at -D off=3 nor versioned."""
    src, recipe = tmp_path / "g.c", tmp_path / "r.yaml"
    src.write_text("void f(int n, int off, double a[n][n], double b[n][n]) {\n#pragma scop\n"
                   "  for (int i = 0; i < n; i++)\n    for (int j = 0; j < n; j++)\n"
                   "      b[i][j] = ((j - off) % 2 == 0) ? a[i][j] : 0.0;\n#pragma endscop\n}\n")
    recipe.write_text("steps:\n  - tile: {stmt: 0, loop: j, size: 4}\n")
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 0 and "modelled for" not in err, err
    for off in ("3", "0", "-2"):
        _ok(*run_cli("run", src, "--recipe", recipe, "-D", "n=13", "-D", f"off={off}"))


@pytest.mark.parametrize("pragma", ["omp parallel for firstprivate(alpha)", "omp parallel for simd"])
def test_a_functions_pragma_the_region_check_refuses_is_still_dropped_with_a_note(tmp_path, pragma):
    src, recipe = tmp_path / "f.c", tmp_path / "r.yaml"
    src.write_text(f"void f(int n, double alpha, double a[n][n], double b[n][n]) {{\n  int i, j;\n  #pragma {pragma}\n"
                   "  for (i = 0; i < n; i++)\n    for (j = 0; j < n; j++)\n      b[i][j] = alpha * a[i][j];\n}\n")
    recipe.write_text("steps:\n  - unroll: {stmt: 0, loop: j, factor: 2}\n")
    rc, out, err = run_cli("transform", src, "--function", "f", "--recipe", recipe)
    assert rc == 0 and f"'#pragma {pragma}' inside the region is dropped" in err, err
    _ok(*run_cli("run", src, "--function", "f", "--recipe", recipe, "-D", "n=9"))
