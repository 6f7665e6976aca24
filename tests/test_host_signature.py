"""The .cu's host function keeps the original function's parameter list, as CUDA-CHiLL keeps
the function: a parameter the kernels do not read is still taken (and ignored), and a size
that --define fixed is taken under another name (the .cu #defines the name) and checked, so a
call written for the original, through an extern "C" prototype, passes every argument to its
parameter and gets cudaErrorInvalidValue where the .cu was made for another size."""
import pytest

from conftest import cli_process as cli
from test_cuda_codegen import NVCC, nvcc_compile
from test_cuda_regressions import gpu_build_and_run

AXPY = """\
void axpy2(int n, int m, double a, double *x, double *y)
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      y[i*m + j] += a * x[i*m + j];
#pragma endscop
}
"""

SCALE = """\
typedef double real;
struct opts { int verbose; };
void scale(int n, int flag, real a, real *x, const float *unused_in, struct opts *o, _Bool trace)
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    x[i] = a * x[i];
#pragma endscop
}
"""

MAP_IJ = "steps:\n  - cuda: {stmt: 0, block: [i], thread: [j]}\n"
MAP_TILED = ("steps:\n  - tile: {stmt: 0, loop: i, size: 64, control: ii}\n"
             "  - cuda: {stmt: 0, block: [ii], thread: [i]}\n")


def _cu(tmp_path, source, recipe, *args) -> str:
    (tmp_path / "k.c").write_text(source)
    (tmp_path / "r.yaml").write_text(recipe)
    p = cli("transform", "k.c", "--recipe", "r.yaml", "--target", "cuda", *args, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    if NVCC is not None:
        assert nvcc_compile(p.stdout) is None
    return p.stdout


def _signature(cu: str, name: str) -> str:
    head = cu[cu.index(f'extern "C" int {name}_host_status('):]
    return head[:head.index("\n")]


def test_a_size_fixed_by_define_is_taken_and_checked(tmp_path):
    cu = _cu(tmp_path, AXPY, MAP_IJ, "--define", "m=32")
    assert _signature(cu, "axpy2") == ('extern "C" int axpy2_host_status(int n, int lx_given_m, double a, '
                                       'double *__restrict__ x, double *__restrict__ y)'), cu
    assert "if (lx_given_m != 32) return (int)cudaErrorInvalidValue;" in cu, cu
    # fixed with --define n, m stays an argument of its own name and is not checked
    cu = _cu(tmp_path, AXPY, "steps:\n  - tile: {stmt: 0, loop: j, size: 32, control: jj}\n"
             "  - cuda: {stmt: 0, block: [i, jj], thread: [j]}\n")
    assert _signature(cu, "axpy2").startswith('extern "C" int axpy2_host_status(int n, int m, double a, '), cu
    assert "lx_given" not in cu, cu


def test_parameters_the_region_does_not_read_stay_in_the_signature(tmp_path):
    cu = _cu(tmp_path, SCALE, MAP_TILED)
    assert _signature(cu, "scale") == ('extern "C" int scale_host_status(int n, int flag, double a, '
                                       'double *__restrict__ x, const float *unused_in, void *o, unsigned char trace)'), cu


AXPY_DRIVER = """
int main(void) {
  int n = 5, cols = 32;    /* the .cu #defines m */
  double x[160], y[160], want[160];
  for (int i = 0; i < n * cols; i++) { x[i] = 0.5 + i; y[i] = want[i] = i * 0.25; want[i] += 2.0 * x[i]; }
  if (axpy2_host_status(n, cols, 2.0, x, y) != 0) return 3;
  for (int i = 0; i < n * cols; i++) if (y[i] != want[i]) { printf("differ at %d\\n", i); return 1; }
  if (axpy2_host_status(n, 16, 2.0, x, y) != (int)cudaErrorInvalidValue) return 4;
  for (int i = 0; i < n * cols; i++) if (y[i] != want[i]) { printf("changed at %d\\n", i); return 5; }
  /* the contract's void entry point: the same work, and what failed on stderr */
  for (int i = 0; i < n * cols; i++) { y[i] = i * 0.25; }
  axpy2_host(n, cols, 2.0, x, y);
  for (int i = 0; i < n * cols; i++) if (y[i] != want[i]) { printf("void differs at %d\\n", i); return 6; }
  axpy2_host(n, 16, 2.0, x, y);
  printf("ok\\n");
  return 0;
}
"""


@pytest.mark.gpu
def test_a_call_written_for_the_original_runs_on_gpu(tmp_path):
    (tmp_path / "main.cu").write_text(_cu(tmp_path, AXPY, MAP_IJ, "--define", "m=32") + AXPY_DRIVER)
    p = gpu_build_and_run(tmp_path / "main.cu")
    assert p.returncode == 0 and p.stdout.strip() == "ok", (p.returncode, p.stdout)
    assert "axpy2_host: invalid argument" in p.stderr, p.stderr


CAST = """\
void scal(int n, float alpha, void *ox, float *y, int unused)
{
  int i;
  float *x = (float *)ox;
  float k = alpha * 2.0f;
#pragma scop
  for (i = 0; i < n; i++)
    y[i] = k * x[i];
#pragma endscop
}
"""


def test_parameters_read_before_the_region_give_way_to_what_is_set_from_them(tmp_path):
    # the region reads x and k, set from ox and alpha: the host takes those (README), and an
    # unread parameter after them keeps its place
    sig = _signature(_cu(tmp_path, CAST, MAP_TILED), "scal")
    assert "alpha" not in sig and "ox" not in sig, sig
    assert sig.startswith('extern "C" int scal_host_status(int n, float *__restrict__ y, int unused, '), sig


def test_the_host_function_is_void_as_the_contract_says_and_its_status_is_kept(tmp_path):
    # CONTRACT.md: `void <region>_host(...)`; the status (a short count) is `_host_status`'s
    f, r = tmp_path / "mv.c", tmp_path / "r.yaml"
    f.write_text("void mv(int n, int m, double *a, double *x, double *y)\n{\n"
                 "  for (int i = 0; i < n; i++)\n    for (int j = 0; j < m; j++)\n"
                 "      y[i] += a[i*m + j] * x[j];\n}\n")
    r.write_text("steps:\n  - cuda: {stmt: 0, block: [i], thread: []}\n")
    cu = tmp_path / "mv.cu"
    proc = cli("transform", f, "--function", "mv", "--target", "cuda", "--recipe", r, "-o", cu, "--define", "m=8")
    assert proc.returncode == 0, proc.stderr
    text = cu.read_text()
    assert 'extern "C" void mv_host(int n, int lx_given_m, double *__restrict__ a, ' in text, text
    assert "int lx_rc = mv_host_status(n, lx_given_m, a, x, y);" in text, text
    if NVCC:
        assert nvcc_compile(text) is None
