"""Validation against an original whose outputs hold NaN or Inf (probe15, finding 1), and
`looptx run -D PARAM=True` (finding 2).

NaN compares equal to NaN, so such an output validates nothing: the harness retries with data
that keeps factorizations finite, a variant whose finite elements or NaN/Inf positions differ is
wrong, and one that merely agrees is 'unvalidated' (never ok); a search whose reference cannot
be validated stops with one line, exit 2."""
from __future__ import annotations

import numpy as np
import pytest
from conftest import run_cli as cli

from looptx.errors import LooptxError
from looptx.runtime.evaluators import CEvaluator
from looptx.runtime.run_once import run_once
from looptx.runtime.harness import RegionSignature, compare_detail, make_inputs
from looptx.runtime.reference import (Reference, choose_reference, nonfinite_of, split_defines,
                                      unvalidated_text)
from looptx.search.db import ResultsDB

pytestmark = pytest.mark.usefixtures("private_build_cache")

CHOL = """#include <math.h>
void cholesky(int n, double A[n][n])
{
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++) {
    for (j = 0; j < i; j++) {
      for (k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[j][k];
      A[i][j] /= A[j][j];
    }
    for (k = 0; k < i; k++)
      A[i][i] -= A[i][k] * A[i][k];
    A[i][i] = sqrt(A[i][i]);
  }
#pragma endscop
}
"""


def pointwise(expr: str) -> str:
    return f"""#include <math.h>
#define N 64
void k(double a[N], double b[N])
{{
  int i;
#pragma scop
  for (i = 0; i < N; i++)
    b[i] = {expr};
#pragma endscop
}}
"""


# x[i] depends on the updated x[i-1]: NaN from the first negative difference on, so only a
# prefix stays finite, on either data set.
CHAIN = """#include <math.h>
#define N 64
void k(double x[N])
{
  int i;
#pragma scop
  for (i = 1; i < N; i++)
    x[i] = sqrt(x[i] - x[i-1]);
#pragma endscop
}
"""

UNROLL = "steps:\n  - unroll: {stmt: 0, loop: i, factor: 4}\n"
REVERSE_I = "steps:\n  - reverse: {stmt: 0, loop: i}\n"
REVERSE_J = "steps:\n  - reverse: {stmt: 0, loop: j}\n"
UNROLL_K = ("steps:\n  - unroll: {stmt: 0, loop: k, factor: 4}\n"
            "  - unroll: {stmt: 2, loop: k, factor: 2}\n")


@pytest.fixture()
def files(tmp_path):
    def write(name: str, text: str) -> str:
        p = tmp_path / name
        p.write_text(text)
        return str(p)
    return write


# ------------------------------------------------------------------ comparisons

def test_partial_nan_compares_finite_elements_and_counts_the_rest():
    ref = np.array([1.0, np.nan, 3.0, np.inf, -np.inf])
    c = compare_detail(ref, ref.copy(), "double")
    assert c.ok and c.not_compared == 3 and c.compared == 2 and c.size == 5


@pytest.mark.parametrize("other", [
    [1.0, np.nan, np.nan, np.inf, -np.inf],       # NaN where the reference is finite
    [1.0, 2.0, 3.0, np.inf, -np.inf],             # finite where the reference is NaN
    [1.0, np.nan, 3.0, np.nan, -np.inf],          # NaN where the reference is +Inf
    [1.0, np.nan, 3.0, -np.inf, -np.inf],         # -Inf where the reference is +Inf
])
def test_another_nan_pattern_is_wrong(other):
    ref = np.array([1.0, np.nan, 3.0, np.inf, -np.inf])
    c = compare_detail(ref, np.array(other), "double")
    assert not c.ok and c.kind_mismatch and c.bad_elements == 1
    assert "NaN/Inf where the reference is not" in c.describe("x")


def test_finite_elements_of_a_partly_nan_output_are_still_compared():
    ref = np.array([1.0, np.nan, 3.0])
    c = compare_detail(ref, np.array([1.0, np.nan, 3.5]), "double")
    assert not c.ok and c.first_bad == (2,) and "1 of 3 reference element(s)" in c.describe("x")


# ------------------------------------------------------------------ data sets

def _sig(files, text, sizes=None):
    ev = CEvaluator(files("k.c", text), sizes=sizes or {})
    return ev, ev.signature()


def test_finite_kernel_keeps_the_original_inputs(files):
    ev, sig = _sig(files, pointwise("sqrt(a[i]) * 2.0"))
    ref = ev.reference_data(sig)
    assert ref.validatable and ref.dataset == 0 and ref.tried == (0,)
    for name, v in make_inputs(sig, 0).items():
        assert np.array_equal(ref.inputs[name], v)       # exactly the data used before


def test_first_finite_data_set_is_chosen(files):
    # NaN for a < 0.9 in uniform [0.5,1.5), finite in [1,2)
    ev, sig = _sig(files, pointwise("sqrt(a[i] - 0.9)"))
    ref = ev.reference_data(sig)
    assert ref.validatable and ref.dataset == 1 and ref.tried == (0, 1)
    assert np.all(ref.inputs["a"] >= 1.0)


def test_cholesky_reference_is_finite_on_the_dominant_data_set(files):
    ev, sig = _sig(files, CHOL, {"n": 29})
    ref = ev.reference_data(sig)
    assert ref.dataset == 1 and ref.validatable
    a = ref.inputs["A"]
    off = np.abs(a).sum(axis=1) - np.abs(np.diag(a))
    assert np.all(np.diag(a) > off)


def test_fewest_nonfinite_data_set_when_none_is_finite(files):
    _, sig = _sig(files, pointwise("sqrt(a[i])"))
    outs = iter([{"b": np.array([np.nan] * 3 + [1.0] * 61)},
                 {"b": np.array([np.nan, np.inf] + [1.0] * 62)}])
    ref = choose_reference(sig, 0, lambda inputs: next(outs))
    assert ref.dataset == 1 and ref.tried == (0, 1) and not ref.validatable
    (nf,) = ref.nonfinite
    assert (nf.nan, nf.posinf, nf.neginf, nf.count, nf.size) == (1, 1, 0, 2, 64)
    assert "'b' is NaN or Inf in 2 of its 64 elements (1 NaN, 1 +Inf)" in unvalidated_text(ref)


def test_nonfinite_of_ignores_finite_and_integer_results(files):
    _, sig = _sig(files, pointwise("a[i]"))
    assert nonfinite_of(sig, {"b": np.ones(64)}) == ()
    assert Reference({}, {}).validatable


# ------------------------------------------------------------------ looptx run

def test_all_nan_reference_is_unvalidated_not_ok(files):
    path = files("neg.c", pointwise("sqrt(-a[i])"))
    rc, out, err = cli("run", path, "--recipe", files("u.yaml", UNROLL))
    assert rc == 1 and err == ""
    assert "neg.c: unvalidated: " in out and " ok " not in out
    assert "'b' is NaN in 64 of its 64 elements on every input data set tried" in out
    r = run_once(path, isolate=False)
    assert r["status"] == "unvalidated" and r["median"] is None


def test_illegal_unsafe_cholesky_is_not_ok(files):
    """probe15: reversing j is illegal; on non-SPD data both outputs were NaN and 'matched'."""
    path = files("chol.c", CHOL)
    rc, out, _ = cli("run", path, "--recipe", files("r.yaml", REVERSE_J), "-D", "n=29", "--unsafe")
    assert rc == 1 and "chol.c: wrong_result: wrong result in 'A'" in out, out


def test_legal_cholesky_variant_validates(files):
    path = files("chol.c", CHOL)
    rc, out, _ = cli("run", path, "--recipe", files("u.yaml", UNROLL_K), "-D", "n=29")
    assert rc == 0 and "chol.c: ok " in out, out


def test_finite_kernel_still_validates_ok(files):
    path = files("fin.c", pointwise("sqrt(a[i]) + 1.0"))
    r = run_once(path, files("u.yaml", UNROLL), isolate=False)
    assert r["status"] == "ok" and r["max_rel_error"] == 0.0 and r["median"] > 0


def test_partly_nan_output_other_pattern_fails_same_pattern_unvalidated(files):
    path = files("chain.c", CHAIN)
    bad = run_once(path, files("r.yaml", REVERSE_I), unsafe=True, isolate=False)
    assert bad["status"] == "wrong_result"
    assert "NaN/Inf where the reference is not" in bad["error"]
    same = run_once(path, files("u.yaml", UNROLL), isolate=False)
    assert same["status"] == "unvalidated", same
    assert "finite element(s) agree" in same["error"]


# ------------------------------------------------------------------ looptx search

SEARCHED = """#include <math.h>
#define N 64
void k(double a[N], double b[N])
{
  int i;
/*@ begin PerfTuning (
  def performance_params {
    param UF[] = [1, 2, 4];
  }
  def search {
    arg algorithm = 'Exhaustive';
  }
) @*/
/*@ begin CHiLL (
  unroll(0,"i",UF)
) @*/
  for (i = 0; i < N; i++)
    b[i] = EXPR;
/*@ end @*/
/*@ end @*/
}
"""


def test_search_with_an_unvalidatable_reference_stops_with_one_line(files, tmp_path):
    path = files("negs.c", SEARCHED.replace("EXPR", "sqrt(-a[i])"))
    db = tmp_path / "negs.db"
    rc, out, err = cli("search", path, "--db", db, "--no-progress")
    assert rc == 2, out
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert err.startswith(f"{path}:") and "cannot validate any variant" in err
    assert "best variant" not in out
    if db.exists():
        with ResultsDB(db, create=False) as rdb:
            assert all(not rdb.evaluations(s.key) for s in rdb.searches())


def test_search_retries_data_and_records_it(files, tmp_path):
    path = files("shs.c", SEARCHED.replace("EXPR", "sqrt(a[i] - 0.9)"))
    db = tmp_path / "shs.db"
    rc, out, _ = cli("search", path, "--db", db, "--no-progress")
    assert rc == 0 and "best variant written" in out
    ev = CEvaluator(path, sizes={})
    assert "inputs" in ev.describe() and ev.dataset == 1


# ------------------------------------------------------------------ -D of a performance param

BICG = """/*@ begin PerfTuning (
  def performance_params
  {
    param T_I[] = [1, 16];
    param U_I[] = [1, 2];
    param SCR[] = [False, True];
  }
  def input_params
  {
    param NX = 30;
    param NY = 20;
  }
  def input_vars
  {
    decl static double A[NX][NY] = random;
    decl static double r[NX] = random;
    decl static double s[NY] = 0;
  }
) @*/
int i, j, ii;
/*@ begin Loop(
  transform Composite(
    tile = [('i',T_I,'ii')],
    unrolljam = (['i'],[U_I]),
    scalarreplace = (SCR, 'double')
  )
  for (i = 0; i <= NX-1; i++)
    for (j = 0; j <= NY-1; j++)
      s[j] = s[j] + r[i] * A[i][j];
) @*/
for (i = 0; i <= NX-1; i++)
  for (j = 0; j <= NY-1; j++)
    s[j] = s[j] + r[i] * A[i][j];
/*@ end @*/
/*@ end @*/
"""


def test_run_takes_a_boolean_performance_param(files):
    path = files("bicg.c", BICG)
    rc, out, err = cli("run", path, "-D", "SCR=True")
    assert rc == 0 and "bicg.c: ok " in out, (out, err)
    assert "internal error" not in err


def test_run_rejects_bad_define_values_in_one_line(files):
    path = files("bicg.c", BICG)
    rc, _, err = cli("run", path, "-D", "SCR=Maybe")
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "SCR" in err
    rc, _, err = cli("run", path, "-D", "NX=abc")
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "'abc' is not an integer" in err


def test_evaluator_splits_sizes_from_picks(files):
    path = files("bicg.c", BICG)
    assert split_defines(path, {"NX": "30", "SCR": "True"}) == ({"NX": 30}, {"SCR": "True"})
    with pytest.raises(LooptxError, match="'abc' is not an integer"):
        split_defines(path, {"NX": "abc"})
    ev = CEvaluator(path, sizes={"NX": 30, "SCR": "True"})
    assert ev.sizes == {"NX": 30} and ev.picks == {"SCR": "True"}


def test_signature_ignores_a_performance_param_pick(files):
    ev, _ = _sig(files, pointwise("a[i]"))
    prog = ev.program()
    sig = RegionSignature.from_scop(prog.scops[0], prog.int_macros, {"SCR": "True", "M": 3})
    assert dict(sig.values).get("M") == 3 and "SCR" not in dict(sig.values)
