"""Kernel Tuner caches as others write them (found by replaying public caches): an objective
other than time and its direction, values the header's tune_params lacks, zero times, object
and tuple parameter values, grids too large to list, and T1 files that do not fit the cache."""
import json
import math

import pytest
from conftest import run_cli as cli

from looptx.errors import AnnotationError
from looptx.search.replay import load_recorded_space, objective_direction, replay


def cache(tmp_path, params, records, objective="time", name="c.json"):
    """A cache file: params = {name: values}, records = [(values tuple, fields)]."""
    data = {"device_name": "X", "kernel_name": "k", "tune_params_keys": list(params),
            "tune_params": params, "objective": objective, "cache": {}}
    for values, fields in records:
        key = ",".join(str(v) for v in values)
        data["cache"][key] = {**dict(zip(params, values)), "compile_time": 100.0, **fields}
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def t1(tmp_path, names, conditions, key="Conditions"):
    path = tmp_path / f"t1_{len(list(tmp_path.glob('t1_*')))}.json"
    path.write_text(json.dumps({"General": {}, "ConfigurationSpace": {
        "TuningParameters": [{"Name": n, "Type": "int", "Values": "[]"} for n in names],
        key: [{"Expression": c} for c in conditions]}}))
    return path


@pytest.mark.parametrize("given, want", [
    ("time", ("time", False)), ("GFLOP/s", ("GFLOP/s", True)), ("GFLOPS/W", ("GFLOPS/W", True)),
    ("score", ("score", True)), ("energy", ("energy", False)), ("energy:max", ("energy", True)),
    ("GFLOP/s:min", ("GFLOP/s", False)),
])
def test_objective_direction(given, want):
    assert objective_direction("time", given) == want


def test_higher_is_better_objective_is_maximised(tmp_path):
    # Kernel Tuner's energy test cache: time favours 832, GFLOPS/W favours 896
    path = cache(tmp_path, {"bx": [832, 896]}, [
        ((832,), {"time": 2.97, "GFLOPS/W": 0.3528}), ((896,), {"time": 3.00, "GFLOPS/W": 0.3557})],
        objective="GFLOPS/W")
    rec = load_recorded_space(path)
    assert rec.objective_name == "GFLOPS/W" and rec.higher_is_better
    best = min(range(2), key=lambda i: rec.times[i])
    assert rec.space.valid_points()[best] == {"bx": 896}
    assert rec.shown(rec.optimum) == pytest.approx(0.3557)
    rc, out, err = cli("search", "--replay", path, "--budget", 2)
    assert rc == 0 and "best found GFLOPS/W 0.3557 (optimum 0.3557, higher is better" in out, out + err
    assert load_recorded_space(path, objective="time").optimum == pytest.approx(2.97e-3)


def test_negative_score_without_time_field(tmp_path):
    # benchmark_hub's hyperparameter caches: objective "score", no "time", negative values
    path = cache(tmp_path, {"method": ["COBYLA", "L-BFGS-B", "SLSQP"]}, [
        (("COBYLA",), {"score": -0.333}), (("L-BFGS-B",), {"score": -0.567}),
        (("SLSQP",), {"score": "RuntimeFailedConfig"})], objective="score")
    rec = load_recorded_space(path)
    tr = replay(rec, "random", seed=1, max_evals=3)
    assert len(tr) == 3 and sum(1 for _, r, _ in tr if not r.ok) == 1
    assert rec.shown(tr.best_curve[-1]) == pytest.approx(-0.333)
    rc, out, _ = cli("search", "--replay", path, "-a", "exhaustive")
    assert rc == 0 and "best found score -0.333" in out and '"COBYLA"' in out, out


def test_zero_time_and_values_outside_the_header(tmp_path):
    path = cache(tmp_path, {"bx": [32, 64]}, [((32,), {"time": 0.0}), ((64,), {"time": 4.0})])
    rc, out, err = cli("search", "--replay", path, "-a", "exhaustive")
    assert rc == 0 and "best found time 0 ms" in out and '"bx": 32' in out, out + err
    # a later session reused the cache with a longer list: its records are not dropped
    path = cache(tmp_path, {"bx": [32, 64]}, [((32,), {"time": 3.9}), ((64,), {"time": 3.8}),
                                              ((128,), {"time": 3.64})])
    rec = load_recorded_space(path)
    assert rec.n_valid == 3 and rec.optimum == pytest.approx(3.64e-3)
    assert rec.space.params[0].values == (32, 64, 128)


def test_object_and_tuple_values(tmp_path):
    path = cache(tmp_path, {"bx": [16, 32], "obj": [{}]}, [
        ((16, {}), {"time": 3.9}), ((32, {}), {"time": 3.6})])
    assert load_recorded_space(path).n_valid == 2
    # records without parameter fields: the key "(16, 1),2" holds a tuple's own commas
    data = {"tune_params_keys": ["block", "unroll"], "tune_params": {"block": [[16, 1], [32, 1]],
            "unroll": [1, 2]}, "cache": {"(16, 1),1": {"time": 1.5}, "(16, 1),2": {"time": 1.2},
                                          "(32, 1),1": {"time": 1.1}, "(32, 1),2": {"time": 0.9}}}
    path = tmp_path / "tuple.json"
    path.write_text(json.dumps(data))
    rec = load_recorded_space(path)
    assert rec.n_valid == 4 and rec.optimum == pytest.approx(0.9e-3)


def test_grid_too_large_to_list(tmp_path):
    # 30^5 = 24.3M combinations (benchmark_hub's hotspot has 4.4M): the recorded points, or
    # those meeting the T1 conditions, are the valid space
    params = {n: list(range(1, 31)) for n in "abcde"}
    records = [((a, 1, 1, 1, 1), {"time": 10.0 / a}) for a in range(1, 31)] + \
        [((1, 2, 1, 1, 1), {"time": "CompilationFailedConfig"})]
    path = cache(tmp_path, params, records)
    rec = load_recorded_space(path)
    assert rec.n_valid == 31 and rec.optimum == pytest.approx(10.0 / 30 / 1000)
    tr = replay(rec, "surf+", seed=0, max_evals=31)
    assert len(tr) == 31 and tr.best_curve[-1] == rec.optimum
    cond = t1(tmp_path, list("abcde"), ["a % 2 == 0"])
    rc, out, err = cli("search", "--replay", path, "--t1", cond, "-a", "exhaustive")
    assert rc == 0 and "15 valid points" in out, out + err
    assert "too many to list; the valid space is the cache's points" in err


def test_t1_files_that_do_not_fit(tmp_path):
    path = cache(tmp_path, {"bx": [128, 192]}, [((128,), {"time": 1.0}), ((192,), {"time": 2.0})])
    cases = [
        (t1(tmp_path, ["bx"], ["bx * by <= 1024"]), "uses 'by', which is not a parameter"),
        (t1(tmp_path, ["bx"], ["bx > 1000"]), "the T1 conditions exclude every point"),
        (t1(tmp_path, ["bx", "by"], []), "only the T1 file has by"),
        (t1(tmp_path, ["bx", "bx"], []), "declares bx twice"),
    ]
    for t1_path, needle in cases:
        rc, _, err = cli("search", "--replay", path, "--t1", t1_path)
        assert rc == 2 and len(err.strip().splitlines()) == 1, err
        assert err.startswith(f"{t1_path}:") and ": error: " in err and needle in err, err
    # some writers call them Constraints
    rec = load_recorded_space(path, t1(tmp_path, ["bx"], ["bx < 150"], key="Constraints"))
    assert rec.n_valid == 1


def test_unknown_objective_and_debug_after_the_command(tmp_path):
    path = cache(tmp_path, {"bx": [1, 2]}, [((1,), {"time": 1.0}), ((2,), {"time": 2.0})])
    with pytest.raises(AnnotationError, match="no record of the cache has the objective 'nope'"):
        load_recorded_space(path, objective="nope")
    rc, out, _ = cli("search", "--replay", path, "--debug", "-a", "random")
    assert rc == 0 and math.isfinite(float(out.split("best found ")[1].split()[0]))
