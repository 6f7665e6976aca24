"""The .cu host code's own names and the sizes it computes: arrays named like its locals
(`err`, `rc`, `d_a`) compile, and a #defined size that only a row length names (`a[i*(NN + 1) + j]`)
is defined in the .cu, with and without --standalone."""
import pytest

from test_cuda_codegen import needs_nvcc, nvcc_compile
from test_cuda_regressions import cli

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
