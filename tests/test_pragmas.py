"""CHiLL's `pragma` and `omp_for` steps: the pragma before the loop it names, and OpenMP loops
that are checked to carry no dependence, run with OpenMP against the original."""
from __future__ import annotations

import re

import pytest
from conftest import run_cli as cli

MV = """void mv(int n, double *y, double *a, double *x) {
  int i, j;
  double s;
#pragma scop
  for (i = 0; i < n; i++) {
    s = 0.0;
    for (j = 0; j < n; j++)
      s += a[i*n + j] * x[j];
    y[i] = s;
  }
#pragma endscop
}
"""

MM = """void mm(int n, double C[n][n], double A[n][n], double B[n][n]) {
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        C[i][j] += A[i][k] * B[k][j];
#pragma endscop
}
"""

LOCAL = """void sq(int n, double *y, double *x) {
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    double t = x[i] * 2.0;
    y[i] = t * t + x[i];
  }
#pragma endscop
}
"""

TWO = """void two(int n, double *a, double *b, double *x) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = x[i] * 3.0;
  for (i = 1; i < n; i++)
    b[i] = a[i] - a[i - 1];
#pragma endscop
}
"""


@pytest.fixture(autouse=True)
def threads(monkeypatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "4")


def _files(tmp_path, source, steps):
    (tmp_path / "k.c").write_text(source)
    (tmp_path / "r.yaml").write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps))
    return tmp_path / "k.c", tmp_path / "r.yaml"


def _transform(tmp_path, source, steps, *extra):
    src, recipe = _files(tmp_path, source, steps)
    rc, out, err = cli("transform", src, "--recipe", recipe, *extra)
    assert rc == 0, err
    return out


def _run_ok(tmp_path, source, steps, sizes):
    src, recipe = _files(tmp_path, source, steps)
    for n in sizes:
        rc, out, err = cli("run", src, "--recipe", recipe, "-D", f"n={n}", "--repetitions", 1,
                           "--cflags", "-O2 -fopenmp")
        assert rc == 0 and ": ok " in out, (n, out, err)


def _pragma_before(out: str, loop_var: str) -> str:
    lines = out.splitlines()
    k = next(k for k, ln in enumerate(lines) if re.search(rf"for \((?:int )?{loop_var} = ", ln))
    return lines[k - 1].strip()


@pytest.mark.parametrize("source, steps, private, sizes", [
    # the step's private temporary
    (MV, ["omp_for: {stmt: 0, loop: i, private: [s]}"], "j, s", (300, 37)),
    # a local of the region, declared in the loop: the block declares it before the loops
    (LOCAL, ["omp_for: {stmt: 0, loop: i}"], "t", (1000, 7)),
])
def test_omp_for_with_a_private_variable_runs_as_the_original(tmp_path, source, steps, private, sizes):
    out = _transform(tmp_path, source, steps)
    assert _pragma_before(out, "i") == f"#pragma omp parallel for private({private})", out
    _run_ok(tmp_path, source, steps, sizes)


def test_omp_for_of_a_reused_temporary_names_the_privatize_step(tmp_path):
    src, recipe = _files(tmp_path, MV, ["omp_for: {stmt: 0, loop: i}"])
    rc, _, err = cli("transform", src, "--recipe", recipe)
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert err.startswith(f"{recipe}:2: step 1 (omp_for): error: "), err
    assert "'omp parallel for' on loop 'i' runs them at once" in err
    assert "privatize: {var: s, at: i}" in err, err


def test_omp_for_on_a_loop_that_carries_the_reduction_is_refused(tmp_path):
    src, recipe = _files(tmp_path, MM, ["omp_for: {stmt: 0, loop: k}"])
    rc, _, err = cli("transform", src, "--recipe", recipe)
    assert rc == 2 and "(omp_for): error:" in err and "on loop 'k' runs them at once (RAW on C)" in err, err


@pytest.mark.parametrize("steps", [
    ["omp_for: {stmt: 0, loop: i}"],
    ["tile: {stmt: 0, loop: j, size: 16, control: jj}", "tile: {stmt: 0, loop: k, size: 8, control: kk}",
     "permute: {stmt: 0, order: [jj, kk, i, j, k]}",
     "omp_for: {stmt: 0, loop: jj}", "datacopy: {stmt: 0, at: i, array: B}"],
    ["omp_for: {stmt: 0, loop: i}", "permute: {stmt: 0, order: [k, i, j]}"],
])
def test_omp_matmul_variants_run_as_the_original(tmp_path, steps):
    out = _transform(tmp_path, MM, steps)
    assert out.count("#pragma omp parallel for") == 1, out
    if any("datacopy" in s for s in steps):
        # the buffer is declared before the loops; each iteration of jj fills its own, and
        # counts with its own copies of the function's i, j, k
        assert "#pragma omp parallel for private(i, j, k, B_buf)" in out, out
    _run_ok(tmp_path, MM, steps, (40, 37))


def test_a_later_step_that_makes_the_loop_carry_a_dependence_is_refused(tmp_path):
    # parallel on its own; fused with the loop that reads a[i - 1], it is not
    _run_ok(tmp_path, TWO, ["omp_for: {stmt: 0, loop: i}"], (100, 3))
    src, recipe = _files(tmp_path, TWO, ["omp_for: {stmt: 0, loop: i}",
                                         "fuse: {stmts: [0, 1], loop: i}"])
    rc, _, err = cli("transform", src, "--recipe", recipe)
    assert rc == 2 and err.startswith(f"{recipe}:3: step 2 (fuse): error: "), err
    assert "'omp parallel for' on loop 'i' runs them at once" in err, err


def test_pragma_text_goes_before_its_loop_and_compiles(tmp_path):
    steps = ["pragma: {stmt: 0, loop: k, text: GCC ivdep}"]
    out = _transform(tmp_path, MM, steps)
    assert _pragma_before(out, "k") == "#pragma GCC ivdep", out
    # a loop whose body is a pragma'd loop gets braces: a pragma is not a statement
    assert re.search(r"for \((?:int )?j = [^\n]*\{\n\s*#pragma GCC ivdep", out), out
    _run_ok(tmp_path, MM, steps, (20,))


def test_chill_dialect_pragma_and_omp_for(tmp_path):
    (tmp_path / "k.c").write_text(MV)
    (tmp_path / "r.py").write_text("from chill import *\nsource('k.c')\nprocedure('mv')\nloop(0)\n"
                                   "omp_for(0,1,['s'])\npragma(1,2,\"GCC unroll 4\")\n")
    rc, out, err = cli("transform", tmp_path / "k.c", "--recipe", tmp_path / "r.py")
    assert rc == 0, err
    assert _pragma_before(out, "i") == "#pragma omp parallel for private(j, s)", out
    assert _pragma_before(out, "j") == "#pragma GCC unroll 4", out


def test_cuda_output_has_no_openmp(tmp_path):
    out = _transform(tmp_path, MM, ["omp_for: {stmt: 0, loop: i}",
                                    "cuda: {stmt: 0, block: [i], thread: [j]}"],
                     "--target", "cuda", "-D", "n=64")
    assert "#pragma omp" not in out and "__global__" in out, out


def test_a_loop_fused_after_omp_for_keeps_the_pragma(tmp_path):
    """The pragma was given for statement 1's loop; the fused loop's first statement is 0."""
    same = TWO.replace("b[i] = a[i] - a[i - 1];", "b[i] = a[i] * 2.0;")
    steps = ["omp_for: {stmt: 1, loop: i}", "fuse: {stmts: [0, 1], loop: i}"]
    out = _transform(tmp_path, same, steps)
    assert out.count("#pragma omp parallel for") == 1 and len(re.findall(r"for \((?:int )?i = ", out)) == 1, out
    _run_ok(tmp_path, same, steps, (50, 7))
