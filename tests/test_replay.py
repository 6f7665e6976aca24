"""Kernel Tuner caches (read, write), simulated replay, and the search-quality metrics."""
import gzip
import itertools
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli

from looptx.errors import AnnotationError
from looptx.search.base import Result
from looptx.search.registry import available_searchers, get_searcher
from looptx.search.metrics import (best_curve, mean_ci, random_curve, random_expected_best,
                                   random_fraction, random_hit, random_scores, score_run)
from looptx.search.replay import _Condition, load_recorded_space, replay, write_cache
from looptx.search.space import Param, Space, mapping_values

DATA = Path(__file__).parent / "data" / "spaces"
TINY, TINY_T1 = DATA / "tiny.json", DATA / "t1_tiny.json"
FAST_OPTS = {"surf": {"n_trees": 10}, "surf+": {"n_trees": 10}}


def test_load_tiny_cache_with_t1():
    rec = load_recorded_space(TINY, TINY_T1)
    assert rec.space.names == ("bx", "by", "unroll") and rec.name == "tiny"
    assert rec.n_valid == 16 and len(rec.times) == 16
    assert sum(1 for t in rec.times if not math.isfinite(t)) == 3
    assert rec.optimum == pytest.approx(1.0e-3)          # ms in the cache, seconds here
    assert rec.objective({"bx": 32, "by": 2, "unroll": 1}) == Result("ok", 1.0e-3)
    assert rec.objective({"bx": 32, "by": 4, "unroll": 1}).status == "compile_error"
    assert rec.objective({"bx": 16, "by": 1, "unroll": 0}).status == "runtime_error"
    assert rec.objective({"bx": 64, "by": 1, "unroll": 1}).status == "invalid"   # valid, not measured
    assert not rec.space.is_valid({"bx": 64, "by": 4, "unroll": 0})             # T1 condition
    assert rec.cost({"bx": 32, "by": 2, "unroll": 1}) == pytest.approx((132.0 + 10.0) / 1000)
    assert rec.cost({"bx": 64, "by": 1, "unroll": 1}) > 0                      # a missing point costs too


def test_load_tiny_cache_without_t1_uses_cache_keys():
    rec = load_recorded_space(TINY)
    assert rec.n_valid == 15 and not rec.space.is_valid({"bx": 64, "by": 1, "unroll": 1})


def test_real_slim_space():
    rec = load_recorded_space(DATA / "convolution_A100_slim.json.gz",
                              DATA / "t1_convolution_milo.json")
    assert rec.n_valid == 4362 and sum(1 for t in rec.times if not math.isfinite(t)) == 161
    assert rec.optimum == pytest.approx(0.5536e-3, rel=1e-3)
    assert load_recorded_space(DATA / "convolution_A100_slim.json.gz").n_valid == 4362


@pytest.mark.parametrize("name", available_searchers())
def test_replay_each_searcher(name, capsys):
    rec = load_recorded_space(TINY, TINY_T1)
    tr = replay(rec, name, seed=3, max_evals=12, options=FAST_OPTS.get(name, {}))
    assert len(tr) == 12 and tr.searcher == name and tr.optimum == rec.optimum
    keys = {json.dumps(p, sort_keys=True) for p, _, _ in tr}
    assert len(keys) == 12 and all(rec.space.is_valid(p) for p, _, _ in tr)
    times = tr.times
    assert all(b >= a for a, b in zip(times, times[1:])) and times[0] > 0
    curve = tr.best_curve
    assert all(b <= a for a, b in zip(curve, curve[1:]))
    again = replay(rec, name, seed=3, max_evals=12, options=FAST_OPTS.get(name, {}))
    assert [p for p, _, _ in again] == [p for p, _, _ in tr]
    assert capsys.readouterr() == ("", "")


def test_replay_batches_and_simulated_time_limit():
    rec = load_recorded_space(TINY, TINY_T1)
    tr = replay(rec, "surf+", seed=0, max_evals=10, batch_size=4, options={"n_trees": 8})
    assert len(tr) == 10
    whole = replay(rec, "random", seed=0, max_evals=16)
    assert {json.dumps(p, sort_keys=True) for p, _, _ in whole} == {
        json.dumps(p, sort_keys=True) for p in rec.space.valid_points()}
    limit = whole.times[4]
    short = replay(rec, "random", seed=0, max_evals=16, options={"time_limit": limit})
    assert 4 <= len(short) < 16


def test_write_cache_roundtrip(tmp_path):
    maps = mapping_values(["i", "j"], 1, 1)
    sp = Space([Param("T", (8, 16), "int"), Param("M", maps, "mapping", ("BX", "TX")),
                Param("O", (("i", "j"), ("j", "i")), "tuple")])
    records = []
    for k, p in enumerate(sp.valid_points()):
        res = Result("ok", 0.001 * (k + 1)) if k % 5 else Result("wrong_result")
        records.append((p, res, {"compile_time": 0.5, "benchmark_time": 0.01,
                                 "times": [0.001 * (k + 1)] * 3}))
    for name in ("mine.json", "mine.json.gz"):
        path = tmp_path / name
        write_cache(path, sp, records, device_name="gpu0", kernel_name="k", problem_size=(64, 64))
        opener = gzip.open if name.endswith(".gz") else open
        with opener(path, "rt") as f:
            raw = json.load(f)
        assert raw["tune_params_keys"] == ["T", "M", "O"] and raw["problem_size"] == [64, 64]
        first = raw["cache"]["8,('i', 'j'),('i', 'j')"]
        assert first["time"] == "RuntimeFailedConfig" and first["compile_time"] == 500.0
        rec = load_recorded_space(path)
        assert rec.space.params[1].kind == "mapping" and rec.space.params[1].slots == ("BX", "TX")
        assert rec.n_valid == len(records)
        for p, r, _ in records:
            got = rec.objective(p)
            assert got.status == r.status and (got.value == pytest.approx(r.value) if r.ok else True)
        assert rec.cost(records[1][0]) == pytest.approx(0.51)


def test_bad_files(tmp_path):
    with pytest.raises(AnnotationError) as e:
        load_recorded_space(tmp_path / "none.json")
    assert "none.json" in str(e.value) and "not found" in str(e.value)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(AnnotationError, match="not a readable JSON"):
        load_recorded_space(bad)
    bad.write_text('{"cache": {}}')
    with pytest.raises(AnnotationError, match="not a Kernel Tuner cache"):
        load_recorded_space(bad)
    t1 = tmp_path / "t1.json"
    t1.write_text(json.dumps({"ConfigurationSpace": {"TuningParameters": [{"Name": "bx"}]}}))
    with pytest.raises(AnnotationError, match="do not match"):
        load_recorded_space(TINY, t1)
    t1.write_text(json.dumps({"ConfigurationSpace": {
        "TuningParameters": [{"Name": n} for n in ("bx", "by", "unroll")],
        "Conditions": [{"Expression": "bx <= = 3"}]}}))
    with pytest.raises(AnnotationError) as e:
        load_recorded_space(TINY, t1)
    assert str(t1) in str(e.value)


@pytest.mark.parametrize("gz", [False, True])
def test_cache_cut_mid_entry_names_the_partial_line(tmp_path, gz):
    """Kernel Tuner writes a header and then one line `"key": {...},` per result; killed during a
    write it leaves a partial last line, which its own reader rejects too."""
    data = json.loads(TINY.read_text())
    head = {k: v for k, v in data.items() if k != "cache"}
    text = json.dumps({**head, "cache": {}}, indent="")[:-3]           # as Kernel Tuner's writer
    text += "".join("\n" + json.dumps({k: r})[1:-1] + "," for k, r in data["cache"].items())
    lines = text.split("\n")
    n = len(lines)
    path = tmp_path / ("cut.json.gz" if gz else "cut.json")
    for cut in (5, 30, len(lines[-1]) - 3):          # in a key, after a field's comma, in a number
        partial = "\n".join(lines[:-1] + [lines[-1][:cut]])
        path.write_bytes(gzip.compress(partial.encode()) if gz else partial.encode())
        rc, out, err = run_cli("search", "--replay", path, "--budget", 2)
        assert rc == 2 and len(err.splitlines()) == 1, err
        assert err.startswith(f"{path}:{n}:1: error: the cache ends in a partly written entry"), err
        assert f"delete the partial last line, line {n}" in err and ("uncompressed" in err) == gz, err
    kept = "\n".join(lines[:-1])
    path.write_bytes(gzip.compress(kept.encode()) if gz else kept.encode())
    assert len(load_recorded_space(path).times) == len(data["cache"]) - 1
    # an error before the last line keeps the JSON message, located where it is
    bad = tmp_path / "bad.json"
    bad.write_text(text.replace('"time": 3.3', '"time": 3.3 3', 1))
    with pytest.raises(AnnotationError, match=r"bad.json:\d+:\d+: error: not a readable JSON"):
        load_recorded_space(bad)


def test_fallback_condition_interpreter():
    c = _Condition("32 <= bx * by <= 1024 and (u == 0 or bx % 32 != 0) and max(bx, 2) > 1")
    assert c.names == {"bx", "by", "u"}
    assert c({"bx": 32, "by": 2, "u": 0}) and not c({"bx": 32, "by": 64, "u": 0})
    assert not c({"bx": 64, "by": 1, "u": 1}) and c({"bx": 48, "by": 1, "u": 1})
    with pytest.raises(ValueError):
        _Condition("__import__('os')")({})


# -- metrics ---------------------------------------------------------------------------
def brute_force(times, n):
    """Expected best, F and hit of n draws without replacement, by listing every subset."""
    finite = [t for t in times if math.isfinite(t)]
    opt, worst = min(finite), max(finite)
    subsets = list(itertools.combinations(times, n))
    best = [min(s) for s in subsets]
    e_best = np.mean([b if math.isfinite(b) else worst for b in best])
    e_frac = np.mean([opt / b if math.isfinite(b) else 0.0 for b in best])
    hit = np.mean([b <= 1.05 * opt for b in best])
    return e_best, e_frac, hit


def test_random_closed_forms_match_enumeration():
    times = [3.0, 1.0, math.inf, 2.0, 1.04, 9.0, math.inf, 5.0]
    for n in range(1, 9):
        e_best, e_frac, hit = brute_force(times, n)
        assert random_expected_best(times, n) == pytest.approx(e_best)
        assert random_fraction(times, n) == pytest.approx(e_frac)
        assert random_hit(times, n) == pytest.approx(hit)
    curve = random_curve(times, 8)
    assert all(b <= a for a, b in zip(curve, curve[1:])) and curve[-1] == pytest.approx(1.0)


def test_scores():
    times = [4.0, 1.0, 2.0, 3.0, math.inf]
    budgets = [1, 3]
    opt_curve = best_curve([1.0, 2.0, 3.0], 3)
    s = score_run(opt_curve, times, budgets)
    assert s.F == {1: 1.0, 3: 1.0} and s.hit5 == {1: 1.0, 3: 1.0} and s.S[1] == pytest.approx(1.0)
    bad = score_run(best_curve([None, 4.0], 3), times, budgets)
    assert bad.F[1] == 0.0 and bad.S[3] < 0
    r = random_scores(times, budgets)
    assert r.S == {1: 0.0, 3: 0.0} and 0 < r.F[1] < r.F[3] < 1
    assert best_curve([2.0, None, 1.0], 5).tolist() == [2.0, 2.0, 1.0, 1.0, 1.0]
    assert mean_ci([1.0, 1.0]) == (1.0, 0.0) and mean_ci([0.0, 2.0])[1] > 0


def test_open_kernel_tuner_cache_and_old_failure_times(tmp_path):
    """Kernel Tuner writes its cache as it measures and closes the JSON only at the end; an
    interrupted session's file ends in `},`.  Old versions stored failures as time 1e20."""
    data = json.loads(TINY.read_text())
    closed = json.dumps(data, indent="")
    assert closed.endswith("}\n}")
    open_cache = tmp_path / "open.json"
    open_cache.write_text(closed[:-3] + ",\n")
    rec = load_recorded_space(open_cache, TINY_T1)
    assert rec.times == load_recorded_space(TINY, TINY_T1).times
    key = next(k for k, r in data["cache"].items() if isinstance(r.get("time"), float))
    data["cache"][key]["time"] = 1e20
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data))
    pt = {p: data["cache"][key][p] for p in data["tune_params_keys"]}
    assert load_recorded_space(old, TINY_T1).objective(pt).status == "runtime_error"
    trunc = tmp_path / "trunc.json"
    trunc.write_text(closed[: len(closed) // 2])
    with pytest.raises(AnnotationError, match="not a readable JSON"):
        load_recorded_space(trunc)


def test_a_condition_that_raises_rules_its_points_out_with_a_note(tmp_path):
    """Kernel Tuner would stop on the exception; the point cannot run, so it is left out of the
    space, and the first such point is named so that the missing points are explained."""
    t1 = json.loads(TINY_T1.read_text())
    t1["ConfigurationSpace"]["Conditions"].append({"Expression": "bx % unroll == 0"})
    path = tmp_path / "t1.json"
    path.write_text(json.dumps(t1))
    rc, out, err = run_cli("search", "--replay", TINY, "--t1", path, "--budget", 2, "--no-progress")
    assert rc == 0, err
    assert (f"{path}: note: condition 'bx % unroll == 0' cannot be evaluated at bx=16, unroll=0 "
            "(") in err, err
    assert load_recorded_space(TINY, path).n_valid == 8     # only unroll = 1 is left


def test_replay_honours_the_time_limit_in_simulated_seconds():
    rc, out, err = run_cli("search", "--replay", TINY, "--t1", TINY_T1, "-a", "random", "--budget", 12,
                           "--time-limit", 0.3, "--no-progress")
    assert rc == 0, err
    n = int(re.search(r"random, (\d+) evaluations", out).group(1))
    assert 1 <= n < 12, out


def test_a_damaged_value_list_names_the_cache(tmp_path):
    doc = json.loads(TINY.read_text())
    doc["tune_params"]["bx"] = [16, 16, 32]
    bad = tmp_path / "dup.json"
    bad.write_text(json.dumps(doc))
    rc, _, err = run_cli("search", "--replay", bad, "--budget", 2)
    assert rc == 2 and err.startswith(f"{bad}: error: parameter 'bx' repeats a value"), err


def test_a_resumed_search_gets_its_own_time_limit():
    """The driver's limit counts the wall time of this call; the searcher's own does too, so a
    search resumed after it stopped on its limit measures again."""
    now = [0.0]
    rec = load_recorded_space(TINY, TINY_T1)
    cls = get_searcher("random")
    first = cls(rec.space, seed=0, max_evals=10, time_limit=5.0, clock=lambda: now[0])
    first.ask(1)
    now[0] = 6.0
    assert first.ask(1) == []
    again = cls(rec.space, seed=0, max_evals=10, time_limit=5.0, clock=lambda: now[0])
    again.load_state(first.state())
    assert len(again.ask(1)) == 1
