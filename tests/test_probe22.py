"""Findings of probe 22 (Pluto's tests and examples, PolyBench-NN, a Nek-style local_grad3):
C names that C++ reserves in a .cu, a shared copy at a loop inside the thread loops that ran
one thread at a time, and a bound that multiplies two #defined sizes."""
from __future__ import annotations

import pytest

from conftest import run_cli
from test_cuda_codegen import needs_nvcc, nvcc_compile

# Pluto's test/1dheat.c names an array `new`
HEAT = """#ifndef N
#define N 1000
#endif
#ifndef T
#define T 5
#endif
double A[N], new[N];
void heat(void)
{
  int t, i;
#pragma scop
  for (t = 0; t < T; t++) {
    for (i = 1; i < N - 1; i++)
      new[i] = (A[i-1] + A[i] + A[i+1]) * (1.0/3);
    for (i = 1; i < N - 1; i++)
      A[i] = new[i];
  }
#pragma endscop
}
"""
HEAT_RECIPE = """steps:
  - tile: {stmt: 0, loop: i, size: 128, control: ii}
  - cuda: {stmt: 0, block: [ii], thread: [i]}
  - tile: {stmt: 1, loop: i, size: 128, control: ii}
  - cuda: {stmt: 1, block: [ii], thread: [i]}
"""

SCALE = """void scale(int n, double *new, const double *class)
{
  int i;
  for (i = 0; i < n; i++)
    new[i] = 2.0 * class[i];   /* "new" and 'class' stay in literals and comments */
}
"""


def _case(tmp_path, name: str, src: str, recipe: str):
    (tmp_path / f"{name}.c").write_text(src)
    (tmp_path / f"{name}.yaml").write_text(recipe)
    return tmp_path / f"{name}.c", tmp_path / f"{name}.yaml"


@pytest.fixture
def heat(tmp_path):
    return _case(tmp_path, "heat", HEAT, HEAT_RECIPE)


@needs_nvcc
@pytest.mark.parametrize("standalone", [(), ("--standalone",)])
def test_cxx_keywords_are_renamed_in_the_cu(heat, standalone):
    c, r = heat
    rc, out, err = run_cli("transform", c, "--recipe", r, "--target", "cuda", *standalone)
    assert rc == 0, err
    assert "C++ reserves some of the C names: new -> new_" in out
    assert "double *__restrict__ new_" in out and "new[" not in out, out
    assert nvcc_compile(out) is None
    # the C output keeps the file's names
    rc, out, err = run_cli("transform", c, "--recipe", r)
    assert rc == 0 and "new[" in out and "new_" not in out, out + err


@needs_nvcc
def test_cxx_keywords_as_parameters_leave_comments_alone(tmp_path):
    (tmp_path / "s.c").write_text(SCALE)
    (tmp_path / "s.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 64, control: ii}\n"
                                     "  - cuda: {stmt: 0, block: [ii], thread: [i]}\n")
    rc, out, err = run_cli("transform", tmp_path / "s.c", "--function", "scale", "--recipe",
                           tmp_path / "s.yaml", "--target", "cuda")
    assert rc == 0, err
    assert "new -> new_" in out and "class -> class_" in out
    assert 'extern "C" int scale_host_status(int n, double *__restrict__ new_, const double *__restrict__ class_)' in out, out
    assert nvcc_compile(out) is None


def test_a_kernel_with_cxx_keyword_names_validates(heat):
    c, r = heat
    for n in (300, 37):
        rc, out, err = run_cli("run", c, "--recipe", r, "-D", f"N={n}", "-D", "T=3")
        assert rc == 0 and ": ok" in out, (n, out + err)


MM = """void mm(int n, double C[n][n], double A[n][n], double B[n][n])
{
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        C[i][j] += A[i][k] * B[k][j];
#pragma endscop
}
"""
# the copy's loop kk is inside the thread loops, as in a CUDA kernel each thread runs it
INNER_COPY = """steps:
  - tile: {stmt: 0, loop: i, size: 16, control: ii}
  - tile: {stmt: 0, loop: j, size: 16, control: jj}
  - tile: {stmt: 0, loop: k, size: 16, control: kk}
  - permute: {stmt: 0, order: [ii, jj, i, j, kk, k]}
  - cuda: {stmt: 0, block: [jj, ii], thread: [j, i]}
  - shared: {stmt: 0, array: A, at: kk}
  - shared: {stmt: 0, array: B, at: kk, pad: 1}
"""


@pytest.fixture
def mm(tmp_path):
    return _case(tmp_path, "mm", MM, INNER_COPY)


@needs_nvcc
def test_a_shared_copy_inside_the_thread_loops_is_made_by_all_threads(mm):
    c, r = mm
    rc, out, err = run_cli("transform", c, "--recipe", r, "--target", "cuda")
    assert rc == 0, err
    assert "loop 'kk' now runs around the thread loops 'i', 'j'" in err, err
    assert "order ii, jj, kk, i, j, k" in err
    kernel = out[out.index("__global__"):out.index('extern "C"')]
    # the block's threads copy the 16 x 16 tiles together, no thread waits for a turn
    assert "A_sh[16][16]" in kernel and "B_sh[16][17]" in kernel, kernel
    assert "A_sh[ty][tx] = " in kernel and "B_sh[ty][tx] = " in kernel, kernel
    assert "== 16 * by + ty" not in kernel, kernel
    assert nvcc_compile(out) is None


def test_a_shared_copy_inside_the_thread_loops_validates(mm):
    c, r = mm
    for n in (48, 37):
        rc, out, err = run_cli("run", c, "--recipe", r, "-D", f"n={n}")
        assert rc == 0 and ": ok" in out, (n, out + err)


# Pluto's dct: the statement before the reduction shares the thread loops, not kk
INIT = """void mm(int n, double C[n][n], double A[n][n], double B[n][n])
{
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      C[i][j] = 0.0;
      for (k = 0; k < n; k++)
        C[i][j] += A[i][k] * B[k][j];
    }
#pragma endscop
}
"""


def test_a_copy_that_cannot_move_out_of_the_thread_loops_is_made_by_the_block(tmp_path):
    """`C[i][j] = 0.0;` keeps `kk` inside the thread loops (a permute would split loop 'i'):
    the copy was made one thread at a time; its buffer now holds the block's tile, which all
    the block's threads copy together (tests/test_cuda_on_threads.py)."""
    from cuda_on_threads import compare_host
    (tmp_path / "d.c").write_text(INIT)
    (tmp_path / "d.yaml").write_text(INNER_COPY.replace("stmt: 0", "stmt: 1"))
    cu = tmp_path / "d.cu"
    rc, out, err = run_cli("transform", tmp_path / "d.c", "--recipe", tmp_path / "d.yaml", "--target", "cuda",
                           "-o", cu)
    assert rc == 0 and "one thread at a time" not in err, err
    text = cu.read_text()
    assert "__shared__ double A_sh[16][16];" in text and "B_sh[16][17]" in text and "== 16 * bx + tx" not in text, text
    for n in (37, 16, 1):
        assert max(compare_host(text, tmp_path / "d.c", "mm", dict(n=n), tmp_path / "b").values()) <= 1e-12
    rc, out, err = run_cli("run", tmp_path / "d.c", "--recipe", tmp_path / "d.yaml", "-D", "n=37")
    assert rc == 0 and ": ok" in out, out + err


@pytest.mark.gpu
def test_on_gpu(heat, mm):
    from test_gpu import _gpu
    _gpu()
    for c, r, sizes in ((*heat, ("N=1000", "T=4")), (*mm, ("n=100",)), (*mm, ("n=256",))):
        rc, out, err = run_cli("run", c, "--recipe", r, "--target", "cuda", "--repetitions", "2",
                               *[x for s in sizes for x in ("-D", s)])
        assert rc == 0 and ": ok" in out, (sizes, out + err)


# Nek5000-style local_grad3 writes `j < lx*ly` with both #defined
PRODUCT = """#define NX 8
#define NY 6
void f(double a[NX*NY], double b[NX*NY])
{
  int j;
  for (j = 0; j < NX*NY; j++)
    a[j] = 2.0 * b[j];
}
"""


def test_a_bound_that_multiplies_defined_sizes_is_modelled_at_their_values(tmp_path):
    (tmp_path / "p.c").write_text(PRODUCT)
    (tmp_path / "p.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: j, size: 5}\n")
    rc, out, err = run_cli("transform", tmp_path / "p.c", "--function", "f", "--recipe", tmp_path / "p.yaml")
    assert rc == 0, err
    assert "modelled at NX = 8, NY = 6 (the #define values), where a bound multiplies #defined " \
           "sizes (NX * NY)" in err, err
    assert "#if NX != 8\n#error" in out and "#if NY != 6\n#error" in out, out
    assert "j <= lx_min(47, 5 * jj + 4)" in out, out
    rc, out, err = run_cli("run", tmp_path / "p.c", "--function", "f", "--recipe", tmp_path / "p.yaml")
    assert rc == 0 and ": ok" in out, out + err
    # sizes a build may change are fixed with -D, as any other
    (tmp_path / "o.c").write_text(PRODUCT.replace("#define NX 8", "#ifndef NX\n#define NX 8\n#endif")
                                  .replace("#define NY 6", "#ifndef NY\n#define NY 6\n#endif"))
    rc, out, err = run_cli("run", tmp_path / "o.c", "--function", "f", "--recipe", tmp_path / "p.yaml",
                           "-D", "NX=3", "-D", "NY=7")
    assert rc == 0 and ": ok" in out and "modelled at" not in err, out + err
    # a size without a value times a #define: the #define at its value (Parboil lbm's N_CELL * n)
    (tmp_path / "q.c").write_text(PRODUCT.replace("(double a[NX*NY], double b[NX*NY])",
                                                  "(int m, double a[NX*m], double b[NX*m])")
                                  .replace("j < NX*NY", "j < NX*m"))
    rc, out, err = run_cli("deps", tmp_path / "q.c", "--function", "f")
    assert rc == 0 and "modelled at NX = 8 (the #define value)" in err, err
    # two sizes without values keep the product non-affine
    (tmp_path / "q.c").write_text(PRODUCT.replace("(double a[NX*NY], double b[NX*NY])",
                                                  "(int m, int k, double a[k*m], double b[k*m])")
                                  .replace("j < NX*NY", "j < k*m"))
    rc, out, err = run_cli("deps", tmp_path / "q.c", "--function", "f")
    assert rc == 2 and "q.c:6:19: error: non-affine expression: a product of sizes (k*m)" in err, err


# Pluto's Game of Life: the rule is a pure helper written with if/return branches
LIFE = """#ifndef N
#define N 40
#endif
int life[2][N][N];

int b2s23(int cell, int neighbors) {
  if ((cell == 1 && ((neighbors < 2) || (neighbors > 3)))) {
    return 0;
  }
  if ((cell == 1 && (neighbors == 2 || neighbors == 3)))
    return 1;
  int born = cell == 0 && neighbors == 3;
  if (born) return 1; else { int same = cell; return same; }
}

void step(int T) {
  int t, i, j;
#pragma scop
  for (t = 0; t < T; t++)
    for (i = 1; i < N-1; i++)
      for (j = 1; j < N-1; j++)
        life[(t+1)%2][i][j] = b2s23(life[t%2][i][j], life[t%2][i-1][j+1] + life[t%2][i-1][j]
            + life[t%2][i-1][j-1] + life[t%2][i][j+1] + life[t%2][i][j-1] + life[t%2][i+1][j+1]
            + life[t%2][i+1][j] + life[t%2][i+1][j-1]);
#pragma endscop
}
"""


def test_a_pure_helper_with_if_return_branches_may_be_called(tmp_path):
    (tmp_path / "life.c").write_text(LIFE)
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 16, control: ii}\n"
                                     "  - tile: {stmt: 0, loop: j, size: 16, control: jj}\n"
                                     "  - permute: {stmt: 0, order: [t, ii, jj, i, j]}\n")
    for n in (40, 37):
        rc, out, err = run_cli("run", tmp_path / "life.c", "--recipe", tmp_path / "r.yaml", "-D", f"N={n}", "-D", "T=3")
        assert rc == 0 and ": ok" in out, (n, out + err)
    # a branch that writes memory is not pure
    (tmp_path / "bad.c").write_text(LIFE.replace("int life[2][N][N];", "int life[2][N][N];\nint calls;")
                                    .replace("    return 1;\n  int born", "    { calls = 1; return 1; }\n  int born"))
    rc, out, err = run_cli("deps", tmp_path / "bad.c")
    assert rc == 2 and "call to 'b2s23' may have side effects" in err, err


def test_an_unclosed_brace_in_a_recipe_names_the_line_it_opens_on(tmp_path):
    (tmp_path / "mm.c").write_text(MM)
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 16, control: ii\n"
                                     "  - unroll: {stmt: 0, loop: k, factor: 2}\n")
    rc, out, err = run_cli("transform", tmp_path / "mm.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and err.strip() == (
        f"{tmp_path / 'r.yaml'}:3:11: error: YAML syntax error: expected ',' or '}}', but got ':' "
        "(parsing a flow mapping that starts at line 2, column 11: is it closed there?)"), err


# probe 21's trmm: a jam of `i` over the triangular `k = i + 1 ..` loop
TRMM = """void trmm(int N, double alpha, double A[N][N], double B[N][N])
{
  int i, j, k;
#pragma scop
  for (i = 0; i <= N - 1; i++)
    for (j = 0; j <= N - 1; j++)
      for (k = i + 1; k <= N - 1; k++)
        B[i][j] = B[i][j] + alpha * A[i][k] * B[k][j];
#pragma endscop
}
"""


@pytest.mark.parametrize("sizes", [("-D", "N=41"), ()])
def test_a_jam_over_a_triangular_loop_peels_the_iteration_one_copy_lacks(tmp_path, sizes):
    (tmp_path / "t.c").write_text(TRMM)
    (tmp_path / "t.yaml").write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 2}\n")
    rc, out, err = run_cli("transform", tmp_path / "t.c", "--recipe", tmp_path / "t.yaml", *sizes)
    assert rc == 0, err
    # k = i + 1 runs the first copy alone; the loop from i + 2 runs both, unguarded
    assert "B[i][j] = B[i][j] + alpha * A[i][i + 1] * B[i + 1][j];" in out, out
    loop = out[out.index("for (k = i + 2;"):]
    loop = loop[:loop.index("}")]
    assert "if" not in loop and "B[i + 1][j] = " in loop, loop
    for n in (41, 8, 1):
        rc, out, err = run_cli("run", tmp_path / "t.c", "--recipe", tmp_path / "t.yaml", "-D", f"N={n}")
        assert rc == 0 and ": ok" in out, (n, out + err)
