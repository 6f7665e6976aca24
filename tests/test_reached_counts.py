"""A .cu file's host code copies a pointer argument (or `T a[][M]`) that no `sizes:` entry
counts as far as the region reaches into it: the isl maximum of its accesses over the sizes
(poly/footprint.highest).  The counts are checked against the harness's numeric footprint at
sizes that do and do not divide the tiles, including empty regions; on a GPU, the host
function's results against the C function's."""
import math
import re
import subprocess

import pytest

from test_cuda_codegen import NVCC as NVCC_PATH, needs_nvcc, nvcc_compile
from test_cuda_regressions import cli, gpu_build_and_run

STENCIL = """#define M 64
void st(int n, int nx, double *u, double *v, double w[][M]) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < nx + 1; j++) {
      v[i*(nx + 2) + j] = 0.25 * (u[(i-1)*(nx + 2) + j] + u[(i+1)*(nx + 2) + j]
                                  + u[i*(nx + 2) + j - 1] + u[i*(nx + 2) + j + 1]);
      w[i][j] += v[i*(nx + 2) + j];
    }
}
"""
STENCIL_R = """steps:
  - tile: {stmt: 0, loop: j, size: 32, control: jB}
  - cuda: {stmt: 0, block: [jB, i], thread: [j]}
"""
SHIFT = """void sh(int n, int m, double *a, const double *b, const double *c) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i*m + j] = 2.0 * b[i*m + j] + c[j + 1];
}
"""
SHIFT_R = """steps:
  - tile: {stmt: 0, loop: i, size: 16, control: iB}
  - tile: {stmt: 0, loop: j, size: 32, control: jB}
  - permute: {stmt: 0, order: [iB, jB, i, j]}
  - cuda: {stmt: 0, block: [jB, iB], thread: [j, i]}
"""
# nx < 64: w[i][j] with j up to nx stays in its rows of M = 64 (past them, C writes the next
# row, and looptx's run refuses such sizes)
SIZES = [(0, 0), (1, 1), (2, 7), (3, 1), (37, 45), (64, 63)]


def _cu(tmp_path, src, recipe, fn, *args):
    (tmp_path / "k.c").write_text(src)
    (tmp_path / "r.yaml").write_text(recipe)
    p = cli("transform", "k.c", "--function", fn, "--recipe", "r.yaml", "--target", "cuda", *args, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    return p.stdout


def _counts_by_gcc(tmp_path, cu: str, fn: str, names: list[str], sizes: list[tuple]) -> list[dict]:
    """The host function's count lines, compiled by gcc and printed at each of `sizes`."""
    head = re.search(rf'extern "C" int {fn}_host_status\((.*)\)\n\{{\n  cudaError_t lx_err;\n((?:  const .*\n)*)', cu)
    assert head, cu
    params = [p.split()[-1] for p in head.group(1).split(", ") if p.startswith("int ")]
    body = head.group(2)
    prog = ["#include <stdio.h>", "#include <stddef.h>", "#define M 64",
            f"static void f({', '.join(f'int {p}' for p in params)}) {{", body,
            "  printf(\"" + " ".join("%zu" for _ in names) + "\\n\", " + ", ".join(f"lx_n_{a}" for a in names) + ");",
            "}", "int main(void) {"]
    prog += [f"  f({', '.join(map(str, s))});" for s in sizes] + ["  return 0;", "}"]
    (tmp_path / "counts.c").write_text("\n".join(prog))
    subprocess.run(["gcc", "-O0", "-o", str(tmp_path / "counts"), str(tmp_path / "counts.c")], check=True)
    out = subprocess.run([str(tmp_path / "counts")], capture_output=True, text=True, check=True).stdout
    return [dict(zip(names, map(int, ln.split()))) for ln in out.splitlines()]


def _expected(tmp_path, src: str, fn: str, sizes: dict) -> dict:
    """What `looptx run` allocates at these sizes (a numeric isl bound per access); nothing where
    the region reaches no element (run allocates one, the host code copies nothing)."""
    from looptx.errors import LooptxError
    from looptx.pipeline import load
    from looptx.runtime.harness import RegionSignature
    f = tmp_path / "ref.c"
    f.write_text(src)
    prog = load(str(f), function=fn)
    from looptx.poly.footprint import reach
    scop = prog.scops[0]
    try:
        sig = RegionSignature.from_scop(scop, prog.int_macros, sizes)
    except LooptxError as e:
        assert "do not bound it at these sizes" in str(e)
        return {}
    if all(hi < lo for a in scop.arrays for lo, hi in reach(scop, a.name, dict(sig.values)) or ((0, 0),)):
        return {}
    return {a: math.prod(shape) for a, shape in sig.shapes.items()}


@pytest.mark.parametrize("src,recipe,fn,arrays", [
    (STENCIL, STENCIL_R, "st", "uvw"),
    (SHIFT, SHIFT_R, "sh", "abc")], ids=["stencil-rows", "shifted-pointer"])
def test_counts_are_the_highest_element_reached_plus_one(tmp_path, src, recipe, fn, arrays):
    cu = _cu(tmp_path, src, recipe, fn)
    names = sorted(arrays)
    got = _counts_by_gcc(tmp_path, cu, fn, names, SIZES)
    for s, g in zip(SIZES, got):
        want = _expected(tmp_path, src, fn, dict(zip(("n", "nx") if fn == "st" else ("n", "m"), s)))
        assert g == {a: want.get(a, 0) for a in names}, (s, g, want)


def test_host_function_computes_the_row_length_it_named(tmp_path):
    cu = _cu(tmp_path, STENCIL, STENCIL_R, "st")
    # the original function's parameter order: st(int n, int nx, double *u, double *v, double w[][M])
    assert 'extern "C" int st_host_status(int n, int nx, double *__restrict__ u, double *__restrict__ v, double *__restrict__ w)' in cu
    assert "  const int lx_row = nx + 2;" in cu
    assert "lx_n_w = ((n >= 3 && nx >= 1) ? ((size_t)(n - 2) + 1) * (size_t)(M) : (size_t)0);" in cu, cu
    if NVCC_PATH is not None:
        assert nvcc_compile(cu) is None
        std = _cu(tmp_path, STENCIL, STENCIL_R, "st", "--standalone", "-D", "n=40", "-D", "nx=30")
        assert "const int lx_row = 30 + 2;" in std
        assert nvcc_compile(std) is None


def test_given_sizes_still_win(tmp_path):
    cu = _cu(tmp_path, SHIFT, SHIFT_R.replace("thread: [j, i]}", "thread: [j, i], sizes: {c: m + 1}}"), "sh")
    assert "cudaMalloc((void **)&lx_d_c, (size_t)(m + 1) * sizeof(double))" in cu
    assert "lx_n_c" not in cu and "lx_n_b" in cu


DRIVER = """
#include <math.h>
static int check(const char *what, const double *got, const double *want, size_t n) {
  for (size_t q = 0; q < n; q++)
    if (fabs(got[q] - want[q]) > 1e-12 * (1.0 + fabs(want[q]))) { printf("%s differs at %zu\\n", what, q); return 1; }
  return 0;
}
int main(void) {
  const int sizes[][2] = {SIZES};
  for (unsigned t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
    const int n = sizes[t][0], m = sizes[t][1];
    const size_t len = (size_t)(n > 0 ? n : 1) * (size_t)(m + 2) + 2;
    double *a = (double *)malloc(len * sizeof(double)), *b = (double *)malloc(len * sizeof(double));
    double *c = (double *)malloc(len * sizeof(double)), *ra = (double *)malloc(len * sizeof(double));
    double *rb = (double *)malloc(len * sizeof(double));
    double (*w)[64] = (double (*)[64])malloc((size_t)(n + 1) * sizeof *w);
    double (*rw)[64] = (double (*)[64])malloc((size_t)(n + 1) * sizeof *w);
    for (size_t q = 0; q < len; q++) { a[q] = ra[q] = 0.5 + q % 7; b[q] = rb[q] = 1.0 / (1 + q % 5); c[q] = q % 3; }
    for (int q = 0; q < (n + 1) * 64; q++) w[q / 64][q % 64] = rw[q / 64][q % 64] = q % 11;
    CALLS
    free(a); free(b); free(c); free(ra); free(rb); free(w); free(rw);
  }
  printf("ok\\n");
  return 0;
}
"""


GPU_CASES = [
    (STENCIL, STENCIL_R, "st",
     "if (m + 1 > 64) continue; ref_st(n, m, b, ra, rw); if (st_host_status(n, m, b, a, &w[0][0])) return 3;"
     " if (check(\"v\", a, ra, len) || check(\"w\", &w[0][0], &rw[0][0], (size_t)(n + 1) * 64)) return 1;"),
    (SHIFT, SHIFT_R, "sh",
     "ref_sh(n, m, ra, b, c); if (sh_host_status(n, m, a, b, c)) return 3; if (check(\"a\", a, ra, len)) return 1;")]
GPU_IDS = ["stencil-rows", "shifted-pointer"]


@pytest.mark.gpu
@pytest.mark.parametrize("case", range(len(GPU_CASES)), ids=GPU_IDS)
def test_host_function_on_gpu_matches_the_c_function(tmp_path, case):
    r = gpu_build_and_run(_driver(tmp_path, *GPU_CASES[case]), "-fmad=false", timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr


def _driver(tmp_path, src, recipe, fn, calls):
    cu = _cu(tmp_path, src, recipe, fn)
    ref = src.replace("#define M 64\n", "").replace(f"void {fn}(", f"static void ref_{fn}(")
    sizes = ", ".join(f"{{{n}, {m}}}" for n, m in SIZES)
    (tmp_path / "main.cu").write_text(cu + ref + DRIVER.replace("{SIZES}", f"{{{sizes}}}").replace("CALLS", calls))
    return tmp_path / "main.cu"


@needs_nvcc
@pytest.mark.parametrize("case", range(len(GPU_CASES)), ids=GPU_IDS)
def test_host_function_driver_compiles(tmp_path, case):
    main = _driver(tmp_path, *GPU_CASES[case])
    assert nvcc_compile(main.read_text()) is None
