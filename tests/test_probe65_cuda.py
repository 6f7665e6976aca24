"""Probe 65 section 2 and probe 66 G7 (first part), the `cuda` step's arguments.

- `sizes:` took Devito's `struct dataobj *vp_vec` as an integer (`vp: "vp_vec * 4"` gave the host
  function an `int vp_vec`) and refused `vp_vec__size__1`, the extent `--define` asks for, so a
  count like rows * vp_vec->size[1] could not be written at all.
- a `cuda` step whose thread loop enclosed its block loop was interchanged silently, where the
  contract says the thread loops are nested inside all block loops."""
import pytest

from conftest import run_cli
from test_cuda_codegen import NVCC, nvcc_compile
from test_probe54 import _ok
from test_probe55 import _one_error

needs_nvcc = pytest.mark.skipif(NVCC is None, reason="nvcc is not installed (CI machines have it)")

DEVITO = """struct dataobj
{
  void *restrict data;
  int * size;
  int * npsize;
} ;

int Kernel(const float dt, struct dataobj *restrict u_vec, struct dataobj *restrict vp_vec, const int x_M, const int x_m, const int y_M, const int y_m, const int time_M, const int time_m)
{
  float (*restrict u)[u_vec->size[1]][u_vec->size[2]] = (float (*)[u_vec->size[1]][u_vec->size[2]]) u_vec->data;
  float (*restrict vp)[vp_vec->size[1]] = (float (*)[vp_vec->size[1]]) vp_vec->data;
  for (int time = time_m; time <= time_M; time += 1)
  {
    int t0 = (time + 2)%(3);
    int t1 = (time)%(3);
    int t2 = (time + 1)%(3);
    for (int x = x_m; x <= x_M; x += 1)
    {
      for (int y = y_m; y <= y_M; y += 1)
      {
        float r10 = dt*dt;
        float r9 = vp[x + 2][y + 2]*vp[x + 2][y + 2];
        u[t2][x + 2][y + 2] = r10*r9*(1.0e-2F*(u[t1][x + 1][y + 2] + u[t1][x + 2][y + 1] + u[t1][x + 2][y + 3] + u[t1][x + 3][y + 2]) - 3.99999991e-2F*u[t1][x + 2][y + 2] + (-(u[t0][x + 2][y + 2] - 2.0F*u[t1][x + 2][y + 2])/r10)/r9);
      }
    }
  }
  return 0;
}
"""

DEVITO_STEPS = """steps:
  - tile: {{stmt: 2, loop: x, size: 8, control: xx}}
  - tile: {{stmt: 2, loop: y, size: 32, control: yy}}
  - permute: {{stmt: 2, order: [time, xx, yy, x, y]}}
  - cuda: {{stmt: 2, block: [yy, xx], thread: [y, x], kernel: acoustic, sizes: {{vp: "{vp}", u: "{u}"}}}}
"""

ROWS = "3 * (x_M + 5) * u_vec->size[1] * u_vec->size[2]"


def _devito(tmp_path, vp, u=ROWS):
    src, recipe = tmp_path / "devito.c", tmp_path / "r.yaml"
    src.write_text(DEVITO)
    recipe.write_text(DEVITO_STEPS.format(vp=vp, u=u))
    return src, recipe


@pytest.mark.parametrize("vp", ["(x_M + 5) * vp_vec->size[1]", "(x_M + 5) * vp_vec -> size[ 1 ]",
                                "(x_M + 5) * vp_vec__size__1"])
def test_a_count_names_a_struct_member_extent_as_written_or_by_its_define_name(tmp_path, vp):
    src, recipe = _devito(tmp_path, vp)
    rc, out, err = run_cli("transform", src, "--function", "Kernel", "--recipe", recipe, "--target", "cuda")
    assert rc == 0 and "Traceback" not in err, err
    host = next(ln for ln in out.splitlines() if "Kernel_host_status(" in ln and "extern" in ln)
    # the members take their struct's place; the struct pointer itself is no argument
    assert "int u_vec__size__1, int u_vec__size__2, int vp_vec__size__1, int x_M" in host, host
    assert "int vp_vec," not in host and "int u_vec," not in host, host
    assert "cudaMalloc((void **)&lx_d_vp, (size_t)((x_M + 5) * vp_vec__size__1)" in out, out
    if NVCC:
        assert nvcc_compile(out) is None


@pytest.mark.parametrize("x_M,y_M", [(10, 20), (5, 33)])
def test_the_member_count_recipe_validates(tmp_path, x_M, y_M):
    src, recipe = _devito(tmp_path, "(x_M + 5) * vp_vec->size[1]")
    _ok(*run_cli("run", src, "--function", "Kernel", "--recipe", recipe, "-D", "x_m=0", "-D", "y_m=0",
                 "-D", f"x_M={x_M}", "-D", f"y_M={y_M}", "-D", "time_m=0", "-D", "time_M=3",
                 "-D", f"vp_vec__size__1={y_M + 5}", "-D", f"u_vec__size__1={x_M + 5}",
                 "-D", f"u_vec__size__2={y_M + 5}", "--repetitions", "1"))


@pytest.mark.parametrize("vp,what", [
    ("vp_vec * 4", "'vp_vec' in element count 'vp_vec * 4' is not a size of the region: it is a struct pointer"),
    ("dt * 3", "'dt' in element count 'dt * 3' is not a size of the region: it is not an integer"),
    ("vp * 2", "'vp' in element count 'vp * 2' is not a size of the region: it is an array"),
    ("vp_vec->size[0] * vp_vec->size[1]", "'vp_vec->size[0]' in element count"),
    ("u_vec->data * 2", "'u_vec->data' in element count")])
def test_a_count_naming_a_pointer_or_array_is_refused_with_the_sizes(tmp_path, vp, what):
    src, recipe = _devito(tmp_path, vp)
    err = _one_error(*run_cli("transform", src, "--function", "Kernel", "--recipe", recipe, "--target", "cuda"),
                     f"{recipe}:5: step 4 (cuda): error: sizes: array 'vp': {what}",
                     "(sizes: time_M, time_m, u_vec->size[1], u_vec->size[2], vp_vec->size[1], x_M, x_m, y_M, y_m;")
    assert "u_vec," not in err and "vp_vec," not in err, err


POINTERS = """void k(float *v, int n, float *a, int m)
{
#pragma scop
  for (int i = 0; i < n; i++)
    a[i] = a[i] * 2.0f + v[i];
#pragma endscop
}
"""


def test_an_integer_parameter_the_region_does_not_read_is_a_size_and_a_pointer_is_not(tmp_path):
    src, recipe = tmp_path / "p.c", tmp_path / "r.yaml"
    src.write_text(POINTERS)
    recipe.write_text('steps:\n  - cuda: {stmt: 0, block: [i], thread: ["1"], sizes: {a: "m * 2", v: "n"}}\n')
    rc, out, err = run_cli("transform", src, "--function", "k", "--recipe", recipe, "--target", "cuda")
    assert rc == 0 and "int m" in out, err
    if NVCC:
        assert nvcc_compile(out) is None
    recipe.write_text('steps:\n  - cuda: {stmt: 0, block: [i], thread: ["1"], sizes: {a: "v * 2"}}\n')
    _one_error(*run_cli("transform", src, "--function", "k", "--recipe", recipe, "--target", "cuda"),
               "step 1 (cuda): error: sizes: array 'a': 'v' in element count 'v * 2' is not a size of the "
               "region: it is an array", "(sizes: m, n; or write the number)")


UNUSED = """struct dataobj { void *restrict data; unsigned long * size; } ;

int Kernel(struct dataobj *restrict u_vec, struct dataobj *restrict v_vec, struct dataobj *restrict w_vec, const int x_M, const int x_m, const int y_M, const int y_m)
{
  float (*restrict u)[u_vec->size[1]] = (float (*)[u_vec->size[1]]) u_vec->data;
  float (*restrict v)[v_vec->size[1]] = (float (*)[v_vec->size[1]]) v_vec->data;
  float (*restrict w)[w_vec->size[1]] = (float (*)[w_vec->size[1]]) w_vec->data;
  for (int x = x_m; x <= x_M; x += 1)
    for (int y = y_m; y <= y_M; y += 1)
      v[x + 2][y + 2] = 0.25F*(u[x + 1][y + 2] + u[x + 3][y + 2] + u[x + 2][y + 1] + u[x + 2][y + 3]);
  return 0;
}
"""


def test_the_host_function_takes_a_member_extent_only_a_count_names(tmp_path):
    # w's extent sizes nothing the kernels read: the count alone needs it from the caller
    src, recipe = tmp_path / "d.c", tmp_path / "r.yaml"
    src.write_text(UNUSED)
    recipe.write_text('steps:\n  - tile: {stmt: 0, loop: y, size: 32, control: yy}\n'
                      '  - cuda: {stmt: 0, block: [yy, x], thread: [y], sizes: {u: "(x_M + 4) * w_vec->size[1]", v: "(x_M + 3) * v_vec->size[1]"}}\n')
    rc, out, err = run_cli("transform", src, "--function", "Kernel", "--recipe", recipe, "--target", "cuda")
    assert rc == 0, err
    assert "Kernel_host_status(int u_vec__size__1, int v_vec__size__1, int w_vec__size__1, int x_M" in out, out
    if NVCC:
        assert nvcc_compile(out) is None


JACOBI = """#define N 30
void kernel_jacobi_2d(int tsteps, int n, double A[N][N], double B[N][N])
{
  int t, i, j;
#pragma scop
  for (t = 0; t < tsteps; t++)
    {
      for (i = 1; i < n - 1; i++)
        for (j = 1; j < n - 1; j++)
          B[i][j] = 0.2 * (A[i][j] + A[i][j-1] + A[i][1+j] + A[1+i][j] + A[i-1][j]);
      for (i = 1; i < n - 1; i++)
        for (j = 1; j < n - 1; j++)
          A[i][j] = 0.2 * (B[i][j] + B[i][j-1] + B[i][1+j] + B[1+i][j] + B[i-1][j]);
    }
#pragma endscop
}
"""


@pytest.mark.parametrize("stmt", [0, 1])
def test_a_thread_loop_around_a_block_loop_is_refused_with_the_permute(tmp_path, stmt):
    src, recipe = tmp_path / "jacobi.c", tmp_path / "r.yaml"
    src.write_text(JACOBI)
    recipe.write_text(f"steps:\n  - cuda: {{stmt: {stmt}, block: [j], thread: [i]}}\n")
    _one_error(*run_cli("transform", src, "--recipe", recipe, "--target", "cuda", "-D", "n=20"),
               f"{recipe}:2: step 1 (cuda): error: thread loop 'i' encloses block loop 'j'",
               f"permute: {{stmt: {stmt}, order: [t, j, i]}}")
    # the permute the error suggests is the fix
    recipe.write_text(f"steps:\n  - permute: {{stmt: {stmt}, order: [t, j, i]}}\n"
                      f"  - cuda: {{stmt: {stmt}, block: [j], thread: [i]}}\n")
    rc, out, err = run_cli("transform", src, "--recipe", recipe, "--target", "cuda", "-D", "n=20")
    assert rc == 0, err
    if NVCC:
        assert nvcc_compile(out) is None
    for n in (20, 9):
        _ok(*run_cli("run", src, "--recipe", recipe, "-D", f"n={n}", "-D", "tsteps=3", "--repetitions", "1"))


def test_a_block_loop_between_thread_loops_is_refused(tmp_path):
    src, recipe = tmp_path / "jacobi.c", tmp_path / "r.yaml"
    src.write_text(JACOBI)
    recipe.write_text("steps:\n  - cuda: {stmt: 0, block: [i], thread: [t, j]}\n")
    _one_error(*run_cli("transform", src, "--recipe", recipe, "--target", "cuda", "-D", "n=20"),
               # the permute to [i, t, j] would split loop t, and the distribute that avoids that
               # reverses a dependence: the hint says so rather than send the user to two refusals
               "step 1 (cuda): error: thread loop 't' encloses block loop 'i'",
               "distributing loop 't' first would not do either")


CHILL = """#define N 24
void f(double C[N][N], double A[N][N], double B[N][N], double a[N][N][N])
{
  int i, j, k;
/*@ begin CHiLL (
  cuda(0,block={"j"},thread={"i"})
) @*/
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        C[i][j] = C[i][j] + A[i][k] * B[k][j];
/*@ end @*/
}
"""


def test_the_chill_dialect_reorders_as_cudaize_does_with_a_note(tmp_path):
    # CUDA-CHiLL scripts and searched mappings (annotations/matmul-mapping.c) rely on it
    src = tmp_path / "mm.c"
    src.write_text(CHILL)
    rc, out, err = run_cli("transform", src, "--target", "cuda")
    assert rc == 0, err
    assert "note: step 1 (cuda): thread loop 'i' encloses block loop 'j': the loops are reordered to j, i, k" in err
    if NVCC:
        assert nvcc_compile(out) is None
    _ok(*run_cli("run", src, "--repetitions", "1"))


def test_a_chill_reorder_that_breaks_a_dependence_is_refused(tmp_path):
    src = tmp_path / "s.c"
    src.write_text(CHILL.replace("C[i][j] = C[i][j] + A[i][k] * B[k][j];", "a[i][k][j] = a[i][k-1][j+1] * 0.5;")
                   .replace("k = 0; k < N", "k = 1; k < N").replace("j = 0; j < N", "j = 0; j < N - 1")
                   .replace("for (j = 0; j < N - 1; j++)\n      for (k = 1; k < N; k++)",
                            "for (k = 1; k < N; k++)\n      for (j = 0; j < N - 1; j++)"))
    _one_error(*run_cli("transform", src, "--target", "cuda"), "step 1 (cuda): error:", "RAW on a")
