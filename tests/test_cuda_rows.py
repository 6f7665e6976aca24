"""Arrays whose rows are pointers (`double **a`, Numerical Recipes' matrix(1, n, 1, n), rows
allocated one by one) in the .cu: refused before ("'a' reaches its rows through pointers");
now the host function copies each row's reached elements into one device block laid out as the
box around them, and the kernels index it with the box's row lengths."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli
from test_cuda_regressions import gpu_build_and_run

DATA = Path(__file__).resolve().parent / "data" / "rows"

needs_nvcc = pytest.mark.skipif(shutil.which("nvcc") is None,
                                reason="needs nvcc on PATH: the test compiles the generated .cu (CI has it)")

CASES = {"mmul": ("nr_mmul.c", "mmul", "mmul_cuda.yaml"), "tri": ("tri.c", "tri", "tri_cuda.yaml"),
         "strided": ("strided.c", "strided", "strided_cuda.yaml")}


def _cu(case, *extra) -> str:
    src, fn, recipe = CASES[case]
    rc, out, err = run_cli("transform", DATA / src, "--function", fn, "--recipe", DATA / recipe,
                           "--target", "cuda", *extra)
    assert rc == 0, err
    return out


@needs_nvcc
@pytest.mark.parametrize("case", list(CASES))
def test_the_cu_compiles(tmp_path, case):
    cu = tmp_path / "k.cu"
    cu.write_text(_cu(case))
    p = subprocess.run(["nvcc", "-c", str(cu), "-o", str(tmp_path / "k.o")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def test_each_row_is_copied_from_its_first_to_its_last_reached_element():
    text = _cu("tri")
    assert "extern \"C\" int tri_host_status(double **L, double *__restrict__ x, double *__restrict__ b, int n)" in text, text
    # row i of the triangle holds i + 1 elements: no copy reads or writes past them
    assert "const long lx_f = 0, lx_l = lx_r0;" in text, text
    text = _cu("strided")
    assert "if (lx_r0 % 2 == 0)" in text and "double ***t" in text, text
    assert re.search(r"t\[lx_r0\]\[lx_r1\] \+ lx_f", text), text


@pytest.mark.parametrize("case,sizes", [("mmul", ["-D", "n=16"]), ("mmul", ["-D", "n=21"]),
                                        ("tri", ["-D", "n=45"]), ("strided", ["-D", "n=9"])])
def test_the_emulated_kernels_agree_with_the_original(case, sizes):
    src, fn, recipe = CASES[case]
    rc, out, err = run_cli("run", DATA / src, "--function", fn, "--recipe", DATA / recipe, *sizes,
                           "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


DRIVER = r"""
/* Numerical Recipes' matrix(): rows of one block, indexed from nrl and ncl */
static float **nr_matrix(long nrl, long nrh, long ncl, long nch)
{
  long nrow = nrh - nrl + 1, ncol = nch - ncl + 1;
  float **m = (float **)malloc((size_t)(nrow + 1) * sizeof(float *));
  m += 1; m -= nrl;
  m[nrl] = (float *)malloc((size_t)(nrow * ncol + 1) * sizeof(float));
  m[nrl] += 1; m[nrl] -= ncl;
  for (long i = nrl + 1; i <= nrh; i++) m[i] = m[i - 1] + ncol;
  return m;
}

int main(void)
{
  const int n = 37;
  float **a = nr_matrix(1, n, 1, n), **b = nr_matrix(1, n, 1, n), **c = nr_matrix(1, n, 1, n);
  static float want[38][38];
  for (int i = 1; i <= n; i++)
    for (int j = 1; j <= n; j++) {
      a[i][j] = (float)((i * 7 + j * 3) % 11) / 8.0f;
      b[i][j] = (float)((i * 5 + j) % 13) / 16.0f;
      c[i][j] = want[i][j] = (float)(i - j);
    }
  for (int i = 1; i <= n; i++)
    for (int j = 1; j <= n; j++)
      for (int k = 1; k <= n; k++) want[i][j] += a[i][k] * b[k][j];
  if (mmul_host_status(a, b, c, n) != 0) return 3;
  for (int i = 1; i <= n; i++)
    for (int j = 1; j <= n; j++)
      if (fabsf(c[i][j] - want[i][j]) > 1e-4f * (1.0f + fabsf(want[i][j]))) {
        printf("c[%d][%d] = %g, want %g\n", i, j, c[i][j], want[i][j]);
        return 1;
      }
  printf("ok\n");
  return 0;
}
"""

TRI_DRIVER = r"""
int main(void)
{
  const int n = 45;
  double **L = (double **)malloc(n * sizeof(double *)), x[45], want[45], b[45];
  for (int i = 0; i < n; i++) {
    L[i] = (double *)malloc((size_t)(i + 1) * sizeof(double));   /* exactly the row's elements */
    for (int j = 0; j <= i; j++) L[i][j] = 1.0 / (i + j + 1);
    b[i] = 0.25 * i;
    x[i] = want[i] = 1.0;
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) want[i] += L[i][j] * b[j];
  if (tri_host_status(L, x, b, n) != 0) return 3;
  for (int i = 0; i < n; i++)
    if (fabs(x[i] - want[i]) > 1e-12 * (1.0 + fabs(want[i]))) {   /* nvcc contracts to FMA */
      printf("x[%d] = %.17g, want %.17g\n", i, x[i], want[i]);
      return 1;
    }
  for (int i = 0; i < n; i++) free(L[i]);
  free(L);
  printf("ok\n");
  return 0;
}
"""


@pytest.mark.gpu
@pytest.mark.parametrize("case,driver", [("mmul", DRIVER), ("tri", TRI_DRIVER)])
def test_row_pointer_arrays_on_gpu(tmp_path, case, driver):
    (tmp_path / "main.cu").write_text(_cu(case) + driver)
    p = gpu_build_and_run(tmp_path / "main.cu")
    assert p.returncode == 0 and p.stdout.strip() == "ok", (p.returncode, p.stdout, p.stderr)


@pytest.mark.gpu
@pytest.mark.parametrize("case,sizes", [("mmul", ["-D", "n=21"]), ("strided", ["-D", "n=9"])])
def test_row_pointer_arrays_run_on_gpu(case, sizes):
    from test_gpu import _gpu
    _gpu()
    src, fn, recipe = CASES[case]
    rc, out, err = run_cli("run", DATA / src, "--function", fn, "--recipe", DATA / recipe, *sizes,
                           "--target", "cuda", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err
