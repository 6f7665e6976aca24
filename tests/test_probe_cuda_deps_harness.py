"""Findings of a probe with inputs written by others: the .cu host function keeps the const of
the original parameters, consecutive unmapped statements share one serial launch, `looptx
deps` lists a dependence once per (kinds, statements, variable, distance), and the run harness
takes long double and _Complex data."""
import json
import re

import numpy as np
import pytest

from test_cuda_codegen import needs_nvcc, nvcc_compile
from test_cuda_regressions import cli
from looptx.codegen.cuda_const import const_parameters
from looptx.pipeline import c_block, load
from looptx.poly.variant import original
from looptx.runtime.cpu import RegionRun, Toolchain, build_shared
from looptx.runtime.harness import RegionSignature, compare_detail, make_inputs, region_source

pytestmark = pytest.mark.usefixtures("private_build_cache")


def _write(tmp_path, name, src, recipe=None):
    (tmp_path / f"{name}.c").write_text(src)
    if recipe is not None:
        (tmp_path / f"{name}.yaml").write_text(recipe)


def _ok_run(tmp_path, name, *defines):
    p = cli("run", f"{name}.c", "--recipe", f"{name}.yaml", *[a for d in defines for a in ("-D", d)],
            cwd=tmp_path)
    assert p.returncode == 0 and ": ok" in p.stdout, (defines, p.stdout, p.stderr)


# ---- 1. const in the host function ---------------------------------------------------------

MV = """void mv(int n, const double *A, const double *x, double *y, double *u)
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      y[i] = y[i] + A[i*n + j] * x[j] + u[j];
#pragma endscop
}
"""
MV_R = """steps:
  - tile: {stmt: 0, loop: i, size: 32, control: ii}
  - cuda: {stmt: 0, block: [ii], thread: [i]}
"""
# a C++ caller (nvcc compiles .cu as C++) that holds the original prototype's pointers
MV_CALLER = """
int call_mv(int n, const double *A, const double *x, double *y, double *u)
{
  return mv_host_status(n, A, x, y, u);
}
"""


@needs_nvcc
def test_host_function_keeps_the_const_of_the_original_parameters(tmp_path):
    _write(tmp_path, "mv", MV, MV_R)
    p = cli("transform", "mv.c", "--recipe", "mv.yaml", "--target", "cuda", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    head = re.search(r'extern "C" int mv_host_status\(([^)]*)\)', p.stdout).group(1)
    # u is only read but not declared const: the caller's prototype says `double *u`
    # and its parameters in their order, so that a call written for mv matches
    assert head == ("int n, const double *__restrict__ A, const double *__restrict__ x, "
                    "double *__restrict__ y, double *__restrict__ u"), head
    assert nvcc_compile(p.stdout + MV_CALLER) is None
    for n in ("n=37", "n=64"):
        _ok_run(tmp_path, "mv", n)


def test_const_is_read_from_the_definition_as_spelled(tmp_path):
    src = """#define N 16
/* void k(int n, double *A) { */
void k(int n, double const *A, const double B[restrict 10][N], double *const y, const double *restrict x,
       double *z);
void k(int n, double const *A, const double B[restrict 10][N],
       double *const y, /* const */ const double *restrict x, double *z)
{
#pragma scop
  for (int i = 0; i < 10; i++)
    for (int j = 0; j < N; j++)
      y[i] = y[i] + A[i] * B[i][j] + x[j] + z[j];
#pragma endscop
}
"""
    _write(tmp_path, "k", src)
    assert const_parameters(load(str(tmp_path / "k.c")).scops[0]) == {"A", "B", "x"}


# ---- 1b. one launch for consecutive unmapped statements --------------------------------------

SERIAL = """void f(int n, int T, double a[n], double b[n], double c[n], double s[2])
{
#pragma scop
  for (int t = 0; t < T; t++) {
    for (int i = 0; i < n; i++)
      a[i] = a[i] * 0.5 + b[i];
    for (int i = 1; i < n; i++)
      b[i] = b[i-1] + a[i];
    s[0] = s[0] + b[n-1];
    for (int i = 0; i < n; i++)
      c[i] = c[i] + s[0] * a[i];
  }
  for (int i = 1; i < n; i++)
    c[i] = c[i-1] * 0.25 + c[i];
  s[1] = c[n-1];
#pragma endscop
}
"""
SERIAL_R = """steps:
  - tile: {stmt: 0, loop: i, size: 32, control: ii}
  - cuda: {stmt: 0, block: [ii], thread: [i]}
"""
# S0 and S2 unmapped, S1 mapped between them: no launch may merge across the mapped kernel
BETWEEN = """void g(int n, double a[n], double b[n], double c[n])
{
#pragma scop
  for (int i = 1; i < n; i++)
    a[i] = a[i-1] + b[i];
  for (int i = 0; i < n; i++)
    b[i] = a[i] * 2.0;
  for (int i = 1; i < n; i++)
    c[i] = c[i-1] + b[i];
#pragma endscop
}
"""
BETWEEN_R = """steps:
  - tile: {stmt: 1, loop: i, size: 32, control: ii}
  - cuda: {stmt: 1, block: [ii], thread: [i]}
"""


def _launches(cu: str) -> list[str]:
    launcher = cu[cu.index("int lx_launch_"):]
    launcher = launcher[:launcher.index("\n}\n")]
    return [ln.split("<<<")[0].strip() for ln in launcher.splitlines() if "<<<" in ln]


@needs_nvcc
def test_consecutive_unmapped_statements_share_one_launch(tmp_path):
    _write(tmp_path, "f", SERIAL, SERIAL_R)
    p = cli("transform", "f.c", "--recipe", "f.yaml", "--target", "cuda", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    # inside t: the mapped S0, then S1..S3 in one kernel; after t: S4 and S5 in one kernel
    assert _launches(p.stdout) == ["f_kernel0", "f_serial0", "f_serial1"], p.stdout
    assert "statements 1, 2, 3 are not mapped" in p.stderr and "statements 4, 5 are" in p.stderr, p.stderr
    assert nvcc_compile(p.stdout) is None
    for sizes in (("n=37", "T=3"), ("n=64", "T=1"), ("n=1", "T=2")):
        _ok_run(tmp_path, "f", *sizes)


# the same inside a host loop: S0 (a statement) and S2 (a nest) are siblings in loop t
BETWEEN_T = """void g(int n, int T, double a[n], double b[n], double c[n])
{
#pragma scop
  for (int t = 1; t < T; t++) {
    c[t] = c[t-1] + b[t];
    for (int i = 0; i < n; i++)
      b[i] = b[i] * 0.5 + c[t];
    for (int i = 0; i < n; i++)
      c[t] = c[t] + b[i] * 0.25;
  }
#pragma endscop
}
"""


@needs_nvcc
@pytest.mark.parametrize("src,sizes", [(BETWEEN, ("n=37",)), (BETWEEN_T, ("n=37", "T=9"))],
                         ids=["top", "in-host-loop"])
def test_unmapped_statements_around_a_mapped_kernel_stay_apart(tmp_path, src, sizes):
    _write(tmp_path, "g", src, BETWEEN_R)
    p = cli("transform", "g.c", "--recipe", "g.yaml", "--target", "cuda", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert _launches(p.stdout) == ["g_serial0", "g_kernel0", "g_serial1"], p.stdout
    assert nvcc_compile(p.stdout) is None
    for more in ((), ("n=64",)):
        # `more` replaces a size of `sizes` (one -D per name)
        given = {m.split("=")[0] for m in more}
        _ok_run(tmp_path, "g", *[s for s in sizes if s.split("=")[0] not in given], *more)


# ---- 2. deps: one line per dependence ----------------------------------------------------------

SCALAR = """void f(int n, double *a, double *b)
{
  double s;
#pragma scop
  for (int i = 2; i < n; i++) {
    s = a[i] * 2.0;
    b[i] = s * s + s;
    a[i] = a[i-1] + a[i-2] + a[i-1];
  }
#pragma endscop
}
"""


def test_deps_lists_a_scalar_dependence_once(tmp_path):
    _write(tmp_path, "s", SCALAR)
    p = cli("deps", "s.c", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    rows = [ln.split() for ln in p.stdout.splitlines() if "->" in ln]
    keys = [(r[0], r[1], r[3], r[4], r[6]) for r in rows]
    assert len(keys) == len(set(keys)), p.stdout
    assert keys.count(("RAW", "S0", "S1", "s", "(0)")) == 1, p.stdout
    assert keys.count(("WAR", "S1", "S0", "s", "(1)")) == 1, p.stdout
    # distinct distances of one pair of statements stay distinct
    assert ("RAW", "S2", "S2", "a", "(1)") in keys and ("RAW", "S2", "S2", "a", "(2)") in keys, p.stdout
    j = json.loads(cli("deps", "s.c", "--json", cwd=tmp_path).stdout)
    deps = j["regions"][0]["dependences"]
    seen = [(d["kind"], d["source"], d["sink"], d["array"], tuple(d["distance"])) for d in deps]
    assert len(seen) == len(set(seen)) and ("RAW", 0, 1, "s", ("0",)) in seen, deps


# ---- 3. long double and _Complex in the run harness --------------------------------------------

LD = """void f(int n, long double *a, const long double *b, long double s)
{
#pragma scop
  for (int i = 0; i < n; i++)
    a[i] = a[i] * s + b[i];
#pragma endscop
}
"""
CX = """void g(int n, double _Complex *a, const double _Complex *b, _Complex double s, float _Complex *f)
{
#pragma scop
  for (int i = 0; i < n; i++) {
    a[i] = a[i] * s + b[i];
    f[i] = f[i] * 2.0f;
  }
#pragma endscop
}
"""
CXR = """void g(int n, double _Complex *a, const double _Complex *b, double _Complex s, long double *c,
       long double t)
{
#pragma scop
  for (int i = 1; i < n; i++) {
    a[i] = a[i-1] * s + b[i];
    c[i] = c[i-1] * t + 1.0L;
  }
#pragma endscop
}
"""
TILE = "steps:\n  - tile: {stmt: 0, loop: i, size: 8, control: ii}\n"


def _region(tmp_path, name, src, n):
    _write(tmp_path, name, src)
    prog = load(str(tmp_path / f"{name}.c"))
    scop = prog.scops[0]
    sig = RegionSignature.from_scop(scop, prog.int_macros, {"n": n})
    b = build_shared(region_source(sig, c_block(original(scop))), Toolchain(flags=("-O1",)),
                     cache=str(tmp_path))
    assert b.ok, b.error
    x = make_inputs(sig, 3)
    run = RegionRun(b.path, sig, x)
    run.reset()
    run.call()
    return x, run.outputs()


def test_long_double_and_complex_values_cross_the_harness(tmp_path):
    x, out = _region(tmp_path, "ld", LD, 13)
    assert x["a"].dtype == np.longdouble and x["s"].shape == ()
    want = x["a"] * x["s"] + x["b"]
    assert out["a"].dtype == np.longdouble and np.array_equal(out["a"], want)
    x, out = _region(tmp_path, "cx", CX, 13)
    assert x["a"].dtype == np.complex128 and x["f"].dtype == np.complex64
    assert np.all(x["a"].imag >= 0.5) and np.all(x["s"].imag >= 0.5)    # never zero parts
    np.testing.assert_allclose(out["a"], x["a"] * x["s"] + x["b"], rtol=1e-15)
    np.testing.assert_allclose(out["f"], x["f"] * 2, rtol=1e-7)


def test_run_validates_long_double_and_complex_variants(tmp_path):
    for name, src in (("ld", LD), ("cx", CX), ("cxr", CXR)):
        _write(tmp_path, name, src, TILE)
        for n in ("n=37", "n=64"):
            _ok_run(tmp_path, name, n)
    # an illegal order is caught through the complex comparison
    (tmp_path / "rev.yaml").write_text("steps:\n  - reverse: {stmt: 0, loop: i}\n")
    p = cli("run", "cxr.c", "--recipe", "rev.yaml", "-D", "n=37", "--unsafe", cwd=tmp_path)
    assert p.returncode == 1 and "wrong result in 'a'" in p.stdout, (p.stdout, p.stderr)


def test_compare_in_long_double_and_by_complex_parts():
    r = np.array([1, 2, 3], dtype=np.longdouble)
    x = r.copy()
    x[1] += np.longdouble(2) ** -60 * 2             # lost in a float64 comparison
    c = compare_detail(r, x, "long double", rtol=1e-19)
    assert not c.ok and c.bad_elements == 1 and c.first_bad == (1,)
    assert compare_detail(r, r.copy(), "long double").ok
    r = np.array([[1 + 1j, 2 + 2j], [3 + 3j, 4 + 4j]], dtype=np.complex128)
    x = r.copy()
    x[1, 0] += 1e-6j                                # only the imaginary part differs
    c = compare_detail(r, x, "double _Complex")
    assert not c.ok and c.bad_elements == 1 and c.first_bad == (1, 0)
    assert compare_detail(r, r + 1e-14, "_Complex double").ok


def test_complex_cuda_output_is_a_located_refusal(tmp_path):
    _write(tmp_path, "cx", CX, SERIAL_R)
    p = cli("transform", "cx.c", "--recipe", "cx.yaml", "--target", "cuda", cwd=tmp_path)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert p.stderr.startswith("cx.c:1:32: error: 'a' is of type 'double _Complex'"), p.stderr
