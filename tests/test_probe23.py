"""Probe 23: Kernel Tuner files written by others through `search --replay`: T1 Values written
as Python expressions, `bool` T1 parameters over a cache that recorded 0/1, T4 results files,
and the messages for a time limit, a space with no success and records without the objective."""
import gzip
import json
from pathlib import Path

from conftest import run_cli as cli
from test_probe16_replay import cache, one_error

ROOT = Path(__file__).resolve().parents[1]
MATMUL = ROOT / "search" / "cpu_matmul.json.gz"
TCCG = ROOT / "search" / "tccg_cuda_h200.json.gz"


def t1(tmp_path, params, conditions=(), name="t1.json"):
    path = tmp_path / name
    path.write_text(json.dumps({"ConfigurationSpace": {
        "TuningParameters": [{"Name": n, "Type": k, "Values": v} for n, k, v in params],
        "Conditions": [{"Expression": c, "Parameters": []} for c in conditions]}}))
    return path


def best_point(out):
    return json.loads(out.split("best point ")[1].splitlines()[0])


def test_t1_values_may_be_python_expressions(tmp_path):
    path = cache(tmp_path, [128, 192, 256, 320], [4.0, 3.0, 2.0, 1.0])
    # Kernel Tuner's own test T1 file and benchmark_hub's write comprehensions and ranges
    for values, best in (("[128+64*i for i in range(3)]", 256), ("list(range(128, 257, 64))", 256),
                         ("[128] + [64 * i for i in range(3, 6)]", 320), ("[2**i for i in range(7, 9)]", 256)):
        rc, out, err = cli("search", "--replay", path, "--t1", t1(tmp_path, [("bx", "int", values)]),
                           "-a", "exhaustive")
        assert rc == 0 and best_point(out) == {"bx": best}, (values, out + err)
    rc, out, err = cli("search", "--replay", path, "--t1", t1(tmp_path, [("bx", "int", "[open(x) for x in 'a']")]))
    one_error(rc, err, "t1.json:1:76: error: cannot read the Values of bx")


def test_a_bool_t1_parameter_names_the_0_and_1_a_cache_recorded(tmp_path):
    lines = [f'"{x},{b}": ' + json.dumps({"bx": x, "ro": b, "time": 1.0 + x - b})
             for x in (1, 2) for b in (0, 1)]
    path = tmp_path / "b.json"
    path.write_text(json.dumps({"tune_params_keys": ["bx", "ro"], "tune_params": {"bx": [1, 2], "ro": [0, 1]},
                                "objective": "time"})[:-1] + ', "cache": {\n' + ",\n".join(lines) + "\n}}\n")
    rc, out, err = cli("search", "--replay", path, "--t1", t1(tmp_path, [("bx", "int", "[1, 2]"),
                                                                        ("ro", "bool", "[False, True]")]),
                       "-a", "exhaustive")
    assert rc == 0 and "4 valid points" in out and best_point(out) == {"bx": 1, "ro": 1}, out + err
    assert "note" not in err, err


def test_a_t4_results_file_replays_as_its_cache(tmp_path):
    data = json.load(gzip.open(MATMUL, "rt"))
    keys = data["tune_params_keys"]
    results = []
    for rec in data["cache"].values():
        ok = isinstance(rec["time"], (int, float))
        results.append({"configuration": {k: rec[k] for k in keys},
                        "times": {"compilation_time": rec.get("compile_time", 0.0), "runtimes": [rec["benchmark_time"]]},
                        "invalidity": "correct" if ok else "compile",
                        "measurements": [{"name": "time", "value": rec["time"] if ok else None, "unit": "ms"}],
                        "objectives": ["time"]})
    t4 = tmp_path / "mm_T4.json"
    t4.write_text(json.dumps({"schema_version": "1.0.0", "results": results}))
    outs = []
    for f in (MATMUL, t4):
        rc, out, err = cli("search", "--replay", f, "--budget", 12, "--seed", 4)
        assert rc == 0, out + err
        outs.append([ln for ln in out.splitlines() if ln.startswith(("best point", "best found"))])
    assert [o[0] for o in outs] == [outs[0][0]] * 2 and outs[0][1].split(";")[:2] == outs[1][1].split(";")[:2], outs
    (tmp_path / "empty.json").write_text('{"schema_version": "1.0.0", "results": []}')
    rc, out, err = cli("search", "--replay", tmp_path / "empty.json")
    one_error(rc, err, "the T4 file holds no result with a configuration")


def test_the_summary_says_when_the_time_limit_stopped_a_replay():
    rc, out, err = cli("search", "--replay", TCCG, "--time-limit", 3, "--budget", 60)
    assert rc == 0, err
    n = int(out.split(", ")[1].split()[0])
    assert 1 <= n < 60 and f"the time limit (3 s of simulated time) stopped the replay after {n} of 60 " \
        "evaluations" in out, out


def test_a_space_with_no_success_says_why(tmp_path):
    path = cache(tmp_path, [1, 2, 3], [3.0, "RuntimeFailedConfig", 1.0])
    rc, out, err = cli("search", "--replay", path, "--objective", "timestamp")
    one_error(rc, err, "the objective 'timestamp' is not a number in the records (e.g. 't1')")
    rc, out, err = cli("search", "--replay", path, "-D", "bx=2")
    one_error(rc, err, "with -D bx=2 only failed points are left (give another value, or drop the -D)")
    data = json.loads(path.read_text())
    data["tune_params_keys"].append("extra")
    data["tune_params"]["extra"] = [1, 2]
    (tmp_path / "x.json").write_text(json.dumps(data))
    rc, out, err = cli("search", "--replay", tmp_path / "x.json")
    one_error(rc, err, "'extra' of tune_params_keys is in no record of the cache")
    rc, out, err = cli("search", "--replay", path, "--t1",
                       t1(tmp_path, [("bx", "int", "[1, 2, 3]")], ["bx // (bx * 0) > 1"]))
    one_error(rc, err, "the T1 conditions exclude every point of the space: condition 'bx // (bx * 0) > 1' "
                       "cannot be evaluated at ", "(division by zero)")


def test_records_without_the_objective_are_noted_and_objects_shown_as_recorded(tmp_path):
    path = cache(tmp_path, [1, 2, 3], [3.0, 2.0, 1.0])
    data = json.loads(path.read_text())
    del data["cache"]["2"]["time"]
    (tmp_path / "m.json").write_text(json.dumps(data))
    rc, out, err = cli("search", "--replay", tmp_path / "m.json", "-a", "exhaustive")
    assert rc == 0 and "2 valid points" in out, out
    assert "1 record of the cache gives no 'time' (the first: '2'); left out of the space" in err, err
    objs = [{"f": 0.01}, {"f": 0.1}]
    lines = [json.dumps(json.dumps(o)) + ": " + json.dumps({"m": o, "time": t}) for o, t in zip(objs, (2.0, 1.0))]
    (tmp_path / "o.json").write_text(json.dumps({"tune_params_keys": ["m"], "tune_params": {"m": objs}})[:-1]
                                     + ', "cache": {\n' + ",\n".join(lines) + "\n}}\n")
    rc, out, err = cli("search", "--replay", tmp_path / "o.json", "-a", "exhaustive")
    assert rc == 0 and best_point(out) == {"m": {"f": 0.1}}, out + err
