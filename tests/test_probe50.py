"""Probe 50 (dynamic programming, graph and finance kernels): preprocessor conditionals inside
a region (PARSEC blackscholes' `#ifdef ENABLE_OPENMP` loop header) are guarded in the output and
read by their taken branches; validation data that can tell boolean and threshold kernels
apart (Warshall, Game of Life); every spelling of C's integer types; messages of refused
reductions into `*delta`, of a permute's distribute hint and of a distribute's groups hint."""
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import cli_process as cli

DATA = Path(__file__).resolve().parent / "data" / "probe50"
needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc on PATH (CI has it): builds and runs the original and the output")

DRIVER = """
#include <stdio.h>
extern int n, nT;
extern float *a, *b;
float A[40], B[40];
void f(int tid);
int main(void) {
  n = 40; nT = 4; a = A; b = B;
  for (int i = 0; i < 40; i++) { A[i] = 0.5f * i; B[i] = 1.0f + i; }
  f(1);
  for (int i = 0; i < 40; i++) printf("%g\\n", A[i]);
  return 0;
}
"""


def _build(tmp_path, source: Path, flags=()) -> subprocess.CompletedProcess:
    exe = tmp_path / (source.stem + "".join(flags).replace("-", "_"))
    (tmp_path / "drv.c").write_text(DRIVER)
    p = subprocess.run(["gcc", "-O1", *flags, str(tmp_path / "drv.c"), str(source), "-o", str(exe)],
                       capture_output=True, text=True)
    if p.returncode:
        return p
    return subprocess.run([str(exe)], capture_output=True, text=True)


@needs_gcc
@pytest.mark.parametrize("given", [(), ("-D", "ENABLE_OPENMP=1")])
def test_a_conditional_inside_the_region_is_guarded(tmp_path, given):
    out = tmp_path / "out.c"
    p = cli("transform", "ifdef_min.c", "--function", "f", *given, "-o", out, cwd=DATA)
    assert p.returncode == 0, p.stderr
    text = out.read_text()
    # the function's closing brace survives the two branches that each open a loop's `{`
    assert text.rstrip().endswith("}\n}") or text.rstrip().endswith("    }\n}"), text
    assert "preprocessor conditionals" in p.stderr, p.stderr
    taken = ["-DENABLE_OPENMP"] if given else []
    other = [] if given else ["-DENABLE_OPENMP"]
    # the configuration looptx transformed computes what the original does
    want = _build(tmp_path, DATA / "ifdef_min.c", taken)
    got = _build(tmp_path, out, taken)
    assert got.returncode == 0 and got.stdout == want.stdout, (got.stdout, got.stderr)
    # the other stops at the guard, not at some other code
    bad = _build(tmp_path, out, other)
    assert bad.returncode != 0 and "#error" in bad.stderr and "for another branch" in bad.stderr, bad.stderr
    # a pragma of the branch the build leaves out is not announced as dropped
    assert ("inside the region is dropped" in p.stderr) == bool(given), p.stderr


def test_a_conditional_of_pragmas_only_needs_no_guard(tmp_path):
    (tmp_path / "k.c").write_text(
        "void f(int n, double *x) {\n  int i;\n#pragma scop\n#ifdef _OPENMP\n#pragma omp simd\n#endif\n"
        "  for (i = 0; i < n; i++)\n    x[i] = 2.0 * x[i];\n#pragma endscop\n}\n")
    p = cli("transform", "k.c", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "#error" not in p.stdout and "preprocessor conditionals" not in p.stderr, p.stdout


@needs_gcc
@pytest.mark.parametrize("name, recipe, sizes", [
    ("warshall_p12.c", "war_bad.yaml", ()),                       # k innermost: a partial closure
    ("life.c", "life_bad.yaml", ("-D", "rows=20", "-D", "cols=20")),   # one count for a whole row
])
def test_boolean_kernels_are_validated_on_data_that_tell(name, recipe, sizes):
    # on integers 1..9 every `a && b` is true and every neighbour count above 3: these illegal
    # variants (--unsafe) passed as ok
    fn = "transitiveClosure" if "warshall" in name else "life_step"
    p = cli("run", name, "--function", fn, "--recipe", recipe, "--unsafe", *sizes, "--repetitions", "1", cwd=DATA)
    assert p.returncode == 1 and "wrong_result" in p.stdout, p.stdout + p.stderr


@needs_gcc
@pytest.mark.parametrize("name, recipe, sizes", [
    ("warshall_p12.c", "war_tile.yaml", ()),
    ("life.c", "life_r.yaml", ("-D", "rows=21", "-D", "cols=37")),
])
def test_legal_variants_of_boolean_kernels_still_validate(name, recipe, sizes):
    fn = "transitiveClosure" if "warshall" in name else "life_step"
    p = cli("run", name, "--function", fn, "--recipe", recipe, *sizes, "--repetitions", "1", cwd=DATA)
    assert p.returncode == 0 and ": ok" in p.stdout, p.stdout + p.stderr


@needs_gcc
def test_every_spelling_of_an_integer_type_runs(tmp_path):
    p = cli("run", "harness_type_min.c", "--function", "k", "-D", "n=10", "--repetitions", "1", cwd=DATA)
    assert p.returncode == 0 and ": ok" in p.stdout, p.stdout + p.stderr
    (tmp_path / "k.c").write_text(
        "void k(int n, long unsigned int *a, short unsigned *b, signed short int *c, long long unsigned *d) {\n"
        "  int i;\n  for (i = 0; i < n; i++)\n    a[i] += b[i] * c[i] + d[i];\n}\n")
    p = cli("run", "k.c", "--function", "k", "-D", "n=17", "--repetitions", "1", cwd=tmp_path)
    assert p.returncode == 0 and ": ok" in p.stdout, p.stdout + p.stderr


def test_an_annotation_declares_any_integer_spelling():
    p = cli("transform", "lev_tune_usi.c", "-D", "TI=8", "-D", "UF=2", cwd=DATA)
    assert p.returncode == 0, p.stderr


def test_a_reduction_into_a_pointer_names_the_way_out():
    p = cli("transform", "kmeans_assign.c", "--function", "kmeans_assign", "--recipe", "km_red_star.yaml", cwd=DATA)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert "'delta' is an array (the region reads *delta as delta[0])" in p.stderr, p.stderr
    assert "`float s = delta[0];` before the region" in p.stderr, p.stderr


def test_hints_offer_only_what_applies():
    # nussinov shares no local: the permute's hint does not say to accumulate into the array
    p = cli("transform", "nussinov.c", "--recipe", "nuss_permk.yaml", cwd=DATA)
    assert p.returncode == 2 and "RAW on table" in p.stderr, p.stderr
    assert "instead of a local" not in p.stderr, p.stderr
    # the groups form of the distribute would break the same min_dist: it is not offered
    p = cli("transform", "kmeans_assign2.c", "--function", "kmeans_assign2", "--recipe", "km_perm.yaml", cwd=DATA)
    assert p.returncode == 2 and "'min_dist' has an object per iteration" in p.stderr, p.stderr
    assert "groups:" not in p.stderr, p.stderr
