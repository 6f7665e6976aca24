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
