"""CEvaluator (the C backend of the search) and run_once (`looptx run`): recipes bound per
point, legality pruning, validation against the original, compile errors, crashes, and a real
`run_search` over a tiny space."""
import pickle
import re
from pathlib import Path

import pytest

from looptx.errors import LegalityError, LooptxError
from looptx.runtime.evaluators import CEvaluator, CPayload
from looptx.runtime.run_once import run_once
from looptx.runtime.worker import run_isolated
from looptx.search.db import ResultsDB
from looptx.search.driver import run_search
from looptx.search.evaluate import Evaluator, Prepared
from looptx.search.exhaustive import ExhaustiveSearcher
from looptx.search.space import Param, Space

KERNELS = Path(__file__).resolve().parent / "kernels"

pytestmark = pytest.mark.usefixtures("private_build_cache")

MATMUL = str(KERNELS / "matmul.c")
SIZES = {"NI": 16, "NJ": 12, "NK": 10}

RECIPE = """params: {T: 4, R: i}
steps:
  - tile: {stmt: 0, loop: j, size: $T, control: jj}
  - reverse: {stmt: 0, loop: $R}
"""


@pytest.fixture()
def recipe(tmp_path):
    p = tmp_path / "tile.yaml"
    p.write_text(RECIPE)
    return str(p)


@pytest.fixture()
def ev(recipe, tmp_path):
    return CEvaluator(MATMUL, sizes=SIZES, recipe_path=recipe, repetitions=3,
                      cache_dir=str(tmp_path / "cache"))


def edited(prepared, old, new):
    p = prepared.payload
    assert old in p.source
    return Prepared(point=prepared.point, status="ok", code_hash="x",
                    payload=CPayload(p.source.replace(old, new), p.signature, p.toolchain))


STMT = "C[i][j] += A[i][k] * B[k][j];"


def test_prepare_and_measure_a_legal_point(ev):
    assert isinstance(ev, Evaluator)
    p = ev.prepare({"T": 4, "R": "i", "unused_extra": 3})
    assert p.status == "ok" and len(p.code_hash) == 64 and "size: 4" in p.recipe
    assert "for (int jj = 0; jj < 3; jj++)" in p.payload.source
    m = ev.measure(p)
    assert m.status == "ok", m.error
    assert len(m.times) == 3 and m.time == sorted(m.times)[1] and m.spread >= 0
    assert m.info["max_rel_error"] < 1e-14 and m.info["compiler"] == "gcc"
    assert m.info["flags"] == "-O3" and m.compile_time > 0 and m.run_time > 0
    d = ev.describe()
    assert d["backend"] == "c" and d["flags"] == "-O3" and d["device"].startswith("cpu: ")
    assert "gcc" in d["compiler"].lower()


def test_identical_code_has_one_hash_and_flags_change_it(ev, recipe, tmp_path):
    # NJ = 12: tiles of 12 and of 64 both give one tile, i.e. the same code.
    a, b, c = (ev.prepare({"T": t, "R": "i"}) for t in (12, 64, 4))
    assert a.code_hash == b.code_hash != c.code_hash
    o2 = CEvaluator(MATMUL, sizes=SIZES, recipe_path=recipe, cflags="-O2")
    assert o2.prepare({"T": 12, "R": "i"}).code_hash != a.code_hash


def test_illegal_and_invalid_points_are_pruned(ev):
    p = ev.prepare({"T": 4, "R": "k"})       # reversing k reorders the += chain on C[i][j]
    assert p.status == "illegal" and "reverse" in p.error and "RAW on C" in p.error
    assert p.payload is None and p.code_hash is None
    assert ev.prepare({"T": 4, "R": "nope"}).status == "invalid"
    assert ev.prepare({"T": 0, "R": "i"}).status == "invalid"
    assert ev.prepare({"R": "i"}).status == "ok"          # T defaults to the recipe's params
    with pytest.raises(LegalityError):
        ev.build({"T": 4, "R": "k"})


def test_wrong_result_is_detected_and_never_timed(ev):
    p = ev.prepare({"T": 4, "R": "i"})
    m = ev.measure(edited(p, STMT, "C[i][j] = A[i][k] * B[k][j];"))
    assert m.status == "wrong_result" and m.time is None and m.times == ()
    assert "'C'" in m.error and m.info["max_rel_error"] > 1e-3
    # One lost iteration among thousands is caught too.
    m = ev.measure(edited(p, STMT, "if (i + j + k != 5) " + STMT))
    assert m.status == "wrong_result" and 1e-10 < m.info["max_rel_error"] < 0.5


def test_nan_never_passes(ev):
    p = ev.prepare({"T": 4, "R": "i"})
    m = ev.measure(edited(p, STMT, "{ " + STMT + " if (i == 3 && j == 2) C[i][j] = NAN; }"))
    assert m.status == "wrong_result" and m.info["max_rel_error"] == float("inf")
    loose = CEvaluator(MATMUL, sizes=SIZES, recipe_path=ev.recipe_path, rtol=1e6)
    assert loose.measure(edited(p, STMT, "{ " + STMT + " C[0][0] = INFINITY; }")).status == "wrong_result"


def test_compile_error_is_a_status(ev):
    p = ev.prepare({"T": 4, "R": "i"})
    m = ev.measure(edited(p, STMT, "C[i][j] += A[i][k] * B[k][j] +;"))
    assert m.status == "compile_error" and "error:" in m.error and m.time is None
    bad = CEvaluator(MATMUL, sizes=SIZES, recipe_path=ev.recipe_path,
                     build_command="gcc -O2 -fno-such-flag-lx")
    m = bad.measure(bad.prepare({"T": 4, "R": "i"}))
    assert m.status == "compile_error" and "no-such-flag-lx" in m.error


def test_the_measurement_timeout_is_for_the_run_not_the_compile(recipe, tmp_path):
    # SPAPT-size unrolls take longer to compile than a run may take: the compile (variant and
    # reference) happens in prepare(), under the prepare budget, and measure() only runs
    slow, log = tmp_path / "slowcc.sh", tmp_path / "calls"
    slow.write_text(f"#!/bin/sh\necho x >> {log}\nsleep 2\nexec gcc \"$@\"\n")
    slow.chmod(0o755)
    ev = CEvaluator(MATMUL, sizes=SIZES, recipe_path=recipe, build_command=f"{slow} -O2",
                    repetitions=1, timeout=1.0, cache_dir=str(tmp_path / "cache"))
    p = ev.prepare({"T": 4, "R": "i"})
    assert p.status == "ok" and p.payload.compile_time >= 2
    assert len(log.read_text().split()) == 2            # the variant and the original
    m = ev.measure(p)
    assert m.status == "ok" and m.compile_time >= 2
    assert len(log.read_text().split()) == 2


def test_a_compile_that_fails_in_prepare_is_reported_without_compiling_again(ev):
    p = ev.prepare({"T": 4, "R": "i"})
    bad = edited(p, STMT, "C[i][j] += A[i][k] * B[k][j] +;").payload
    failed = Prepared(point=p.point, status="ok", code_hash="y",
                      payload=CPayload(bad.source, bad.signature, bad.toolchain, 3.5, "the compiler ran past 290 s"))
    m = ev.measure(failed)
    assert m.status == "compile_error" and m.error == "the compiler ran past 290 s" and m.compile_time == 3.5


def test_build_command_placeholders_are_filled_from_the_point(recipe):
    ev = CEvaluator(MATMUL, sizes=SIZES, recipe_path=recipe, build_command="gcc @CFLAGS@ -lm",
                    repetitions=1)
    a = ev.prepare({"T": 4, "R": "i", "CFLAGS": "-O1"})
    b = ev.prepare({"T": 4, "R": "i", "CFLAGS": "-O3 -funroll-loops"})
    assert a.status == b.status == "ok" and a.code_hash != b.code_hash
    assert b.payload.toolchain.flags == ("-O3", "-funroll-loops", ) and b.payload.toolchain.libs == ("-lm",)
    m = ev.measure(b)
    assert m.ok and m.info["flags"] == "-O3 -funroll-loops -lm"
    missing = ev.prepare({"T": 4, "R": "i"})
    assert missing.status == "invalid" and "@CFLAGS@" in missing.error


def test_evaluator_and_payload_pickle(ev):
    p = ev.prepare({"T": 8, "R": "i"})
    ev2, p2 = pickle.loads(pickle.dumps((ev, p)))
    assert p2 == p and ev2.measure(p2).ok


def test_a_crashing_variant_costs_one_isolated_call(ev):
    p = ev.prepare({"T": 4, "R": "i"})
    crash = edited(p, STMT, "{ " + STMT + " if (i == 1) ((volatile double *)0)[j] = 1.0; }")
    r = run_isolated(ev.measure, crash, timeout=60)
    assert r.status == "crash" and "SIGSEGV" in r.error


def test_region_kwarg_and_annotation_recipe(tmp_path):
    """recipe_path=None: each region's CHiLL annotation, bound with the point; region=1."""
    f = tmp_path / "two.c"
    f.write_text("""#define N 12
double A[N][N], x[N], y[N];
void k(void)
{
  int i, j;
/*@ begin CHiLL ( ) @*/
  for (i = 0; i < N; i++) y[i] = 2.0 * y[i];
/*@ end @*/
/*@ begin CHiLL (
  tile(0,"j",TJ,"jj")
) @*/
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      y[i] += A[i][j] * x[j];
/*@ end @*/
}
""")
    ev = CEvaluator(str(f), sizes={}, region=1, repetitions=2, cache_dir=str(tmp_path / "c"))
    p = ev.prepare({"TJ": 4})
    assert p.status == "ok" and "jj" in p.payload.source and "tile" in p.recipe
    m = ev.measure(p)
    assert m.ok, m.error
    assert ev.prepare({}).status == "invalid"                    # TJ unbound
    r0 = CEvaluator(str(f), sizes={}, region=0).prepare({})
    assert r0.status == "ok" and r0.recipe is None and "2.0 * y[i]" in r0.payload.source
    assert CEvaluator(str(f), sizes={}, region=2).prepare({}).status == "invalid"


def test_run_search_exhaustive_records_statuses_and_times(ev, tmp_path):
    space = Space([Param.of("T", [4, 8]), Param.of("R", ["i", "k"])])
    db = tmp_path / "mm.looptx.db"
    out = run_search(space, ExhaustiveSearcher(space, max_evals=4), ev, db=db,
                     search_key="matmul.c|NI=16|c", budget=4, workers=2, progress=False)
    assert out.n_evals == 4 and out.counts == {"ok": 2, "illegal": 2}
    with ResultsDB(db) as rdb:
        rows = rdb.evaluations("matmul.c|NI=16|c")
    by = {(r.point["T"], r.point["R"]): r for r in rows}
    for t in (4, 8):
        ok, bad = by[(t, "i")], by[(t, "k")]
        assert ok.status == "ok" and ok.time > 0 and len(ok.times) == 3
        assert ok.info["max_rel_error"] < 1e-14 and f"size: {t}" in ok.recipe
        assert ok.flags == "-O3" and "gcc" in ok.compiler.lower() and ok.device.startswith("cpu")
        assert len(ok.code_hash) == 64 and ok.compile_time > 0
        assert bad.status == "illegal" and bad.time is None and "RAW on C" in bad.error
    assert out.best_point["R"] == "i"


def test_run_once_reports_speedup_against_the_original(recipe):
    r = run_once(MATMUL, recipe, defines={"NI": 40, "NJ": 40, "NK": 40},
                 bindings={"T": 8, "R": "i"}, repetitions=3, isolate=False)
    assert r["status"] == "ok", r["error"]
    assert r["original_status"] == "ok" and r["max_rel_error"] < 1e-14
    assert len(r["times"]) == len(r["original_times"]) == 3
    assert r["speedup"] == pytest.approx(r["original_median"] / r["median"])
    assert r["regions"] == 1 and "size: 8" in r["recipe"] and r["flags"] == "-O3"
    with pytest.raises(LegalityError):
        run_once(MATMUL, recipe, defines=SIZES, bindings={"T": 8, "R": "k"})
    with pytest.raises(LooptxError, match="--define"):
        run_once(str(KERNELS / "2mm.c"), None, defines={"NI": 4})
    # Isolated (the default): a child process builds and runs.
    r = run_once(MATMUL, None, defines=SIZES, repetitions=2)
    assert r["status"] == "ok" and r["recipe"] is None and r["speedup"] > 0


def test_run_once_on_the_float_and_int_kernel():
    sizes = {"N": 9, "M": 7}
    r = run_once(str(KERNELS / "mixed-types.c"), None, defines=sizes, repetitions=2,
                 isolate=False, cflags="-O3 -ffast-math")
    assert r["status"] == "ok" and r["max_rel_error"] < 1e-4


def test_every_corpus_kernel_runs_through_the_harness():
    """The original region of each kernel, built at -O3, validates against the -O1 reference
    (signatures for every shape of region in the corpus: VLA parameters, linearized arrays,
    scalars in and out, float and int data, function-parameter sizes)."""
    from difftest import region_function, size_sets
    failures = []
    for f in sorted(KERNELS.glob("*.c")):
        sizes = size_sets(f)[1]
        # function-parameter sizes (`int n`), where a kernel's N names one
        text = f.read_text()
        sizes = {**sizes, **{k.lower(): v for k, v in sizes.items()
                             if re.search(rf"[(,]\s*(?:const\s+)?(?:int|long)\s+{k.lower()}\b", text)}}
        r = run_once(str(f), None, defines=sizes, function=region_function(f), repetitions=1,
                     isolate=False)
        if r["status"] != "ok" or r["original_status"] != "ok":
            failures.append(f"{f.name}: {r['status']} {r['error']}")
    assert not failures, failures
    assert len(list(KERNELS.glob("*.c"))) >= 30


def _symbolic_measures(monkeypatch, corrupt=None):
    """Record the measurements of the code for variable sizes; `corrupt` edits its source."""
    seen = []
    build, measure = CEvaluator.build, CEvaluator.measure

    def fake_build(self, point, recipe=None):
        payload, applied = build(self, point, recipe)
        if self.symbolic is not None and corrupt is not None:
            payload = CPayload(corrupt(payload.source), payload.signature, payload.toolchain)
        return payload, applied

    def spy(self, prepared):
        m = measure(self, prepared)
        if self.symbolic is not None:
            seen.append(m.status)
        return m

    monkeypatch.setattr(CEvaluator, "build", fake_build)
    monkeypatch.setattr(CEvaluator, "measure", spy)
    return seen


def test_run_once_also_validates_the_code_for_variable_sizes(recipe, monkeypatch):
    # `looptx run -D` builds code for those sizes; `looptx transform` without -D writes code
    # where they are variables, which isl simplifies differently: that code is run too
    seen = _symbolic_measures(monkeypatch)
    sizes = {"NI": 37, "NJ": 41, "NK": 43}
    r = run_once(MATMUL, recipe, defines=sizes, bindings={"T": 8, "R": "i"}, isolate=False)
    assert r["status"] == "ok" and seen == ["ok"], r["error"]
    # a fault only the variable-size code has is reported, with the sizes it was run at
    seen = _symbolic_measures(monkeypatch, corrupt=lambda s: s.replace("] += ", "] -= ", 1))
    r = run_once(MATMUL, recipe, defines=sizes, bindings={"T": 8, "R": "i"}, isolate=False)
    assert seen == ["wrong_result"] and r["status"] == "wrong_result", r
    assert "writes without -D" in r["error"] and "NI=37" in r["error"] and "wrong result in 'C'" in r["error"]


OLA = """void ola(int n, int k, int s, float *restrict y, const float *restrict x, const float *restrict w)
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < k; j++)
      y[i*s + j] = 0.5f * y[i*s + j] + w[j] * x[i];
#pragma endscop
}
"""


def test_run_once_skips_variable_size_code_that_runs_the_region_as_written(tmp_path, monkeypatch):
    # the model assumes s >= k (rows of y apart); where the sizes break it, the output of
    # transform runs the region as written, so there is no transformed code to validate
    src = tmp_path / "ola.c"
    src.write_text(OLA)
    rec = tmp_path / "r.yaml"
    rec.write_text("steps:\n  - tile: {stmt: 0, loop: j, size: 4}\n")
    seen = _symbolic_measures(monkeypatch)
    r = run_once(str(src), str(rec), defines={"n": 7, "k": 5, "s": 6}, isolate=False)
    assert r["status"] == "ok" and seen == ["ok"], r["error"]
    seen = _symbolic_measures(monkeypatch)
    r = run_once(str(src), str(rec), defines={"n": 7, "k": 5, "s": 3}, isolate=False)
    assert r["status"] == "ok" and seen == [], r["error"]
