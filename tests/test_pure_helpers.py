"""The file's own pure helpers called in a region (`sq(x)`, a clamp built on fabs, helpers
calling helpers, a local const in the helper): run against the original with gcc, validated by
`looptx run` (whose harness compiles the region without the user's file), compiled for CUDA
with nvcc; helpers that may touch memory are refused at the call."""
import pytest
from conftest import run_cli as cli
from test_app_kernels import _run, _transform
from test_cuda_codegen import needs_nvcc, nvcc_compile

HELPERS = """#include <math.h>
static inline double sq(double v) { return v * v; }
static double cube(double v) { return v * sq(v); }
double clampd(double v, double lo, double hi) { return fabs(v) < lo ? lo : (v > hi ? hi : v); }
static inline double blend(double a, double b) { const double m = 0.5 * (a + b); return m * m - (double)(int)a; }
"""

KERNEL = HELPERS + """
void k(int n, int m, double r[n * m], const double x[n * m])
{
#pragma scop
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            r[i * m + j] = sq(x[i * m + j]) + clampd(cube(x[i * m + j]), 0.5, 3.0)
                           + blend(x[i * m + j], r[i * m + j]);
#pragma endscop
}
"""

MAIN = """#include <stdio.h>
int main(void)
{
    static double r[40 * 40], x[40 * 40];
    double s = 0;
    int sizes[][2] = {{1, 3}, {13, 7}, {16, 16}, {29, 31}};
    for (int t = 0; t < 4; t++) {
        for (int q = 0; q < 40 * 40; q++) { x[q] = (q % 17) * 0.25 - 2.0; r[q] = q % 3; }
        k(sizes[t][0], sizes[t][1], r, x);
        for (int q = 0; q < 40 * 40; q++) s += r[q] * (q % 11 + 1);
    }
    printf("%.17g\\n", s);
    return 0;
}
"""


@pytest.mark.parametrize("steps", [(), ("unroll: {stmt: 0, loop: j, factor: 4}",),
                                   ("tile: {stmt: 0, loop: i, size: 8}", "tile: {stmt: 0, loop: j, size: 8}")])
def test_pure_helpers_in_a_region(tmp_path, steps):
    src, out, _ = _transform(tmp_path, "k.c", KERNEL + MAIN, steps)
    assert _run(out, tmp_path) == _run(src, tmp_path)
    argv = ["run", src, "-D", "n=29", "-D", "m=31"]
    if steps:
        argv += ["--recipe", tmp_path / "k.yaml"]
    rc, report, err = cli(*argv)
    assert rc == 0 and ": ok " in report, report + err


@needs_nvcc
def test_pure_helpers_in_a_cuda_kernel(tmp_path):
    src = tmp_path / "k.c"
    src.write_text(KERNEL)
    recipe = tmp_path / "r.yaml"
    recipe.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 16}\n  - tile: {stmt: 0, loop: j, size: 16}\n"
                      "  - permute: {stmt: 0, order: [ii, jj, i, j]}\n"
                      "  - cuda: {stmt: 0, block: [jj, ii], thread: [j, i]}\n")
    out = tmp_path / "k.cu"
    rc, _, err = cli("transform", src, "--recipe", recipe, "--target", "cuda", "-o", out)
    assert rc == 0, err
    cu = out.read_text()
    assert "static __host__ __device__ inline double sq(double v)" in cu, cu
    assert cu.index("double sq(") < cu.index("double cube(") < cu.index("__global__"), cu
    assert nvcc_compile(cu) is None


SIDE_EFFECTS = ("may have side effects (only pure math functions (sqrt, exp, fabs, ...) and the file's helpers "
                "that return an expression of their number parameters may be called in a region)")
# pure, but in a form looptx does not read: a loop, or a path without a return
OTHER_FORM = (", a function of the file that looptx cannot read as pure (a helper may take number parameters, "
              "declare and assign locals, branch with if/else, and return an expression on every path; "
              "rewrite it so, or inline its value as a ?: expression)")


@pytest.mark.parametrize("helper, why", [
    ("int calls; double f(double v) { calls++; return v; }", SIDE_EFFECTS),
    ("double scale = 2.0; double f(double v) { return scale * v; }", SIDE_EFFECTS),
    ("double f(double *v) { return v[0]; }", SIDE_EFFECTS),
    ("double g; double f(double v) { if (v > 0) { g = v; return v; } return -v; }", SIDE_EFFECTS),
    ("double f(double v) { if (v > 0) return v; }", OTHER_FORM),
    ("double f(double v) { double w = v; for (int k = 0; k < 2; k++) w = -w; return w; }", OTHER_FORM),
])
def test_helpers_looptx_cannot_read_as_pure_are_refused(tmp_path, helper, why):
    src = tmp_path / "bad.c"
    src.write_text(helper + """
void k(int n, double *r, const double *x)
{
#pragma scop
    for (int i = 0; i < n; i++)
        r[i] = f(x[i]);
#pragma endscop
}
""")
    rc, out, err = cli("transform", src)
    assert rc == 2 and out == "", err
    sep = " " if why is SIDE_EFFECTS else ""
    assert err.strip() == f"{src}:6:16: error: call to 'f'{sep}{why}", err


@needs_nvcc
def test_a_helper_named_like_a_cuda_builtin_and_one_naming_an_enum(tmp_path):
    src = tmp_path / "k.c"
    src.write_text("""enum { SCALE = 3 };
static inline double max(double a, double b) { return a > b ? a : b; }
static inline double scaled(double v) { return SCALE * v; }
void k(int n, double *y, const double *x)
{
#pragma scop
    for (int i = 0; i < n; i++)
        y[i] = max(scaled(x[i]), 0.0);
#pragma endscop
}
""")
    recipe = tmp_path / "r.yaml"
    recipe.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 32}\n"
                      "  - cuda: {stmt: 0, block: [ii], thread: [i], sizes: {x: n, y: n}}\n")
    out = tmp_path / "k.cu"
    rc, _, err = cli("transform", src, "--recipe", recipe, "--target", "cuda", "-o", out)
    assert rc == 0, err
    cu = out.read_text()
    assert "#define max lx_fn_max\n" in cu and "return 3 * v;" in cu, cu
    assert nvcc_compile(cu) is None


# Helpers over signed integers in subscripts and loop bounds (`a[idx(i, j)]`, `i < lim(n)`): the
# call is its returned expression of the arguments (a const local substituted), so the model
# reads it exactly; #defined integers and enum constants in a helper are constants.
INDEX = """#include <stdio.h>
#define N 40
enum { PAD = 2 };
static inline int idx(int i, int j) { return i * (N + PAD) + j; }
static inline int lim(int n) { const int h = n / 2; return h + 1; }
static inline int clampi(int a, int b) { return a < b ? a : b; }
static inline double sq(double v) { return v * v; }
static inline double scaled(double v) { return v * N; }
void k(int n, double *restrict a, const double *restrict b)
{
#pragma scop
    for (int i = 0; i < lim(n); i++)
        for (int j = 0; j < clampi(n, N); j++)
            a[idx(i, j)] = sq(b[idx(i, j)]) + b[idx(i + 1, j)] + scaled(0.25);
#pragma endscop
}
int main(void)
{
    static double a[70 * 70], b[70 * 70];
    double s = 0;
    int sizes[] = {0, 1, 7, 16, 33, 50};
    for (int t = 0; t < 6; t++) {
        for (int q = 0; q < 4900; q++) { a[q] = q %% 7; b[q] = (q * 13) %% 17; }
        k(sizes[t], a, b);
        for (int q = 0; q < 4900; q++) s += a[q] * (q %% 13 + 1);
    }
    printf("%%.17g\\n", s);
    return 0;
}
"""


@pytest.mark.parametrize("steps", [(), ("tile: {stmt: 0, loop: j, size: 8}", "permute: {stmt: 0, order: [jj, i, j]}"),
                                   ("unroll: {stmt: 0, loop: i, factor: 3}",)])
def test_index_helpers_in_subscripts_and_bounds(tmp_path, steps):
    src, out, err = _transform(tmp_path, "idx.c", INDEX % (), steps)
    text = out.read_text()
    assert "a[idx(" not in text and "lim(n)" not in text, text
    assert "note: inline row lengths are read through names: lx_row = N + PAD" in err, err
    assert _run(out, tmp_path) == _run(src, tmp_path)
    assert _run(out, tmp_path, "-DN=23") == _run(src, tmp_path, "-DN=23")


def test_index_helpers_run_and_compile_for_cuda(tmp_path):
    f = tmp_path / "idx.c"
    f.write_text(INDEX % ())
    (tmp_path / "r.yaml").write_text("- tile: {stmt: 0, loop: j, size: 8}\n")
    for extra in ([], ["-D", "N=50"]):
        rc, out, err = cli("run", f, "-D", "n=37", *extra, "--recipe", tmp_path / "r.yaml")
        assert rc == 0 and ": ok " in out, out + err
    (tmp_path / "c.yaml").write_text("- tile: {stmt: 0, loop: j, size: 32, control: jB}\n"
                                     "- cuda: {stmt: 0, block: [jB, i], thread: [j]}\n")
    rc, out, err = cli("transform", f, "--recipe", tmp_path / "c.yaml", "--target", "cuda")
    assert rc == 0, err
    assert "const int lx_row = N + 2;" in out
    from test_cuda_codegen import NVCC
    if NVCC is not None:
        assert nvcc_compile(out) is None


def test_an_unsigned_index_helper_is_not_read_as_its_expression(tmp_path):
    """Unsigned arithmetic wraps where the model's integers do not: the call stays refused."""
    f = tmp_path / "u.c"
    f.write_text("static inline unsigned uidx(unsigned i) { return i - 1; }\n"
                 "void k(int n, double *a)\n{\n#pragma scop\n  for (int i = 1; i < n; i++)\n"
                 "    a[uidx(i)] = 1.0;\n#pragma endscop\n}\n")
    rc, out, err = cli("transform", f)
    assert rc == 2 and "u.c:6:5: error: non-affine subscript of 'a': call to 'uidx' in an index or bound" in err, err

