"""The .cu host code's own names and the sizes it computes: arrays named like its locals
(`err`, `rc`, `d_a`) compile, and a #defined size that only a row length names (`a[i*(NN + 1) + j]`)
is defined in the .cu, with and without --standalone."""
import pytest

from test_cuda_codegen import needs_nvcc, nvcc_compile
from test_cuda_regressions import cli, gpu_build_and_run

CLASH = """void kern(int n, double *err, const double *rc, double *a, const double *d_a, double *q) {
  for (int i = 0; i < n; i++) { err[i] = rc[i] * 2.0; a[i] = d_a[i] + q[i]; q[i] = 1.0; }
}
"""
ROWLEN = """#define NN 16
void kern(int n, int m, double *a, const double *b) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) a[i*(NN + 1) + j] = b[i*(NN + 1) + j] + 1.0;
}
"""
RECIPE = """steps:
  - tile: {stmt: 0, loop: %s, size: 32}
  - cuda: {stmt: 0, block: [%s], thread: [%s]}
"""


@needs_nvcc
@pytest.mark.parametrize("standalone", [False, True], ids=["host", "standalone"])
@pytest.mark.parametrize("case", ["clash", "rowlen"])
def test_host_code_compiles(tmp_path, case, standalone):
    src, recipe, defines = {"clash": (CLASH, RECIPE % ("i", "ii", "i"), ["-D", "n=100"]),
                            "rowlen": (ROWLEN, RECIPE % ("j", "i, jj", "j"), ["-D", "n=8", "-D", "m=16"])}[case]
    (tmp_path / "k.c").write_text(src)
    (tmp_path / "r.yaml").write_text(recipe)
    args = ["transform", "k.c", "--function", "kern", "--recipe", "r.yaml", "--target", "cuda"]
    p = cli(*args, *(["--standalone", *defines] if standalone else []), cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    if case == "rowlen":
        assert "#define NN 16" in p.stdout and "const int lx_row = NN + 1;" in p.stdout, p.stdout
    assert nvcc_compile(p.stdout) is None


LONG = """#include <stddef.h>
void kern(long n, size_t m, double *a, const double *b) {
  for (long i = 0; i < n; i++)
    for (size_t j = 0; j < m; j++) a[i*m + j] = b[j*n + i] * 2.0;
}
"""
LONG_R = RECIPE % ("j", "jj, i", "j")
LONG_MAIN = """
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
  long sizes[][2] = {{37, 45}, {64, 64}, {1, 1}, {0, 3}};
  for (int t = 0; t < 4; t++) {
    long n = sizes[t][0]; size_t m = (size_t)sizes[t][1];
    double *a = (double *)calloc(n * m + 1, sizeof(double)), *b = (double *)malloc((n * m + 1) * sizeof(double));
    for (long q = 0; q < (long)(n * m); q++) b[q] = (double)(q % 17);
    if (kern_host_status(n, m, a, b) != 0) { printf("rc\\n"); return 1; }
    for (long i = 0; i < n; i++) for (size_t j = 0; j < m; j++)
      if (a[i * m + j] != b[j * n + i] * 2.0) { printf("differs\\n"); return 1; }
    free(a); free(b);
  }
  printf("ok\\n");
  return 0;
}
"""


def _long_cu(tmp_path) -> str:
    (tmp_path / "k.c").write_text(LONG)
    (tmp_path / "r.yaml").write_text(LONG_R)
    p = cli("transform", "k.c", "--function", "kern", "--recipe", "r.yaml", "--target", "cuda", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    return p.stdout


@needs_nvcc
def test_64_bit_sizes_stay_64_bit(tmp_path):
    # n * m passes INT_MAX on a GPU with 17 GiB for doubles: the kernels index in long
    cu = _long_cu(tmp_path)
    for fn in ("kern_kernel0(", "lx_launch_kern("):
        sig = cu[cu.index(fn):].split("\n")[0]
        assert sig.endswith("long n, unsigned long m)"), sig      # (size_t m, as its type computes)
    # the host function takes the original's parameters in its order
    sig = cu[cu.index("kern_host("):].split("\n")[0]
    assert sig.startswith("kern_host(long n, unsigned long m, double *__restrict__ a, const double *__restrict__ b)"), sig
    assert nvcc_compile(cu) is None


@pytest.mark.gpu
def test_64_bit_sizes_on_gpu(tmp_path):
    (tmp_path / "main.cu").write_text(_long_cu(tmp_path) + LONG_MAIN)
    p = gpu_build_and_run(tmp_path / "main.cu")
    assert p.returncode == 0 and p.stdout.strip() == "ok", (p.returncode, p.stdout, p.stderr[-2000:])
