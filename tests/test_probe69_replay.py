"""Probe 69's replay findings on Kernel Tuner caches as they are found in the wild: a failed
record stays a failure whatever value is optimised, T4 files keep their compile and benchmark
times, key-only records widen their parameter, repeated keys and unreadable keys are said,
an open cache whose last entry ends in `}}}` reads, empty caches and bad header objectives get
their own messages, a BOM is read, and an exported cache's `time` is the mean."""
import gzip
import json
import math

import pytest
from conftest import run_cli as cli

from looptx.search.replay import load_recorded_space, write_cache
from looptx.search.base import Result
from looptx.search.space import Param, Space


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def kt_cache(tmp_path, records, *, tp=None, objective="time", name="c.json", keys=None):
    """A closed cache of one parameter bs, one record a line as Kernel Tuner writes it."""
    tp = tp or {"bs": [32, 64, 128]}
    head = json.dumps({"tune_params_keys": keys or list(tp), "tune_params": tp,
                       "objective": objective})[:-1]
    lines = [f"{json.dumps(k)}: {json.dumps(r)}" for k, r in records]
    return write(tmp_path, name, head + ', "cache": {\n' + ",\n".join(lines) + "\n}\n}\n")


def one_error(rc, err, *needles):
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    for n in needles:
        assert n in err, err


FAILED_HAS_NUMBERS = [
    ("32", {"bs": 32, "time": 3.0, "compile_time": 900.0, "benchmark_time": 50.0}),
    ("64", {"bs": 64, "time": 2.0, "compile_time": 800.0, "benchmark_time": 40.0}),
    ("128", {"bs": 128, "time": "CompilationFailedConfig", "compile_time": 700.0, "benchmark_time": 0}),
]


def test_a_failed_record_stays_a_failure_whatever_the_objective(tmp_path):
    path = kt_cache(tmp_path, FAILED_HAS_NUMBERS)
    for objective in ("benchmark_time", "compile_time"):
        rec = load_recorded_space(path, objective=objective)
        assert rec.n_valid == 3 and sum(not math.isfinite(t) for t in rec.times) == 1
        assert rec.objective({"bs": 128}).status == "compile_error"
    rec = load_recorded_space(path, objective="benchmark_time")
    assert rec.shown(rec.optimum) == 40.0
    rc, out, err = cli("search", "--replay", path, "-a", "exhaustive", "--objective", "benchmark_time")
    assert rc == 0 and "3 evaluations (1 failed)" in out and '"bs": 64' in out, out + err


def test_a_failure_in_the_header_objective_field_stays_in_the_space(tmp_path):
    # Kernel Tuner writes the error string in its objective field and no time at all
    path = kt_cache(tmp_path, [
        ("32", {"bs": 32, "time": 3.0, "GFLOP/s": 100.0, "compile_time": 900.0, "benchmark_time": 50.0}),
        ("64", {"bs": 64, "time": 2.0, "GFLOP/s": 150.0, "compile_time": 800.0, "benchmark_time": 40.0}),
        ("128", {"bs": 128, "GFLOP/s": "RuntimeFailedConfig", "compile_time": 700.0, "benchmark_time": 0}),
    ], objective="GFLOP/s")
    rec = load_recorded_space(path, objective="time")
    assert rec.n_valid == 3 and rec.objective({"bs": 128}).status == "runtime_error"
    assert rec.cost({"bs": 128}) == pytest.approx(0.7)
    rc, out, err = cli("search", "--replay", path, "-a", "exhaustive", "--objective", "time")
    assert rc == 0 and "3 evaluations (1 failed)" in out and "left out" not in err, out + err


def test_old_failure_time_is_a_failure_for_another_objective(tmp_path):
    path = kt_cache(tmp_path, [("32", {"bs": 32, "time": 1e20, "compile_time": 5.0}),
                               ("64", {"bs": 64, "time": 2.0, "compile_time": 9.0})])
    rec = load_recorded_space(path, objective="compile_time")
    assert not rec.objective({"bs": 32}).ok and rec.shown(rec.optimum) == 9.0


def test_t4_file_as_kernel_tuner_writes_it_keeps_its_times(tmp_path):
    results = [{"configuration": {"bs": bs}, "invalidity": "correct", "objectives": ["time"],
                "times": {"compilation": c, "benchmark": b, "framework": 1.0, "runtimes": [t, t]},
                "measurements": [{"name": "time", "value": t, "unit": "ms"}]}
               for bs, c, b, t in ((32, 900.0, 50.0, 3.0), (64, 800.0, 40.0, 2.0))]
    t4 = write(tmp_path, "t4.json", json.dumps({"results": results, "schema_version": "1.0.0"}))
    same = kt_cache(tmp_path, [("32", {"bs": 32, "time": 3.0, "compile_time": 900.0, "benchmark_time": 50.0}),
                               ("64", {"bs": 64, "time": 2.0, "compile_time": 800.0, "benchmark_time": 40.0})],
                    tp={"bs": [32, 64]})
    a, b = load_recorded_space(t4), load_recorded_space(same)
    for bs in (32, 64):
        assert a.cost({"bs": bs}) == pytest.approx(b.cost({"bs": bs}))
    assert a.cost({"bs": 32}) == pytest.approx(0.95)
    # the older spelling, and runtimes standing in for a benchmark time that is not written
    for r in results:
        r["times"] = {"compilation_time": 100.0, "runtimes": [1.0, 2.0]}
    old = write(tmp_path, "old_t4.json", json.dumps({"results": results}))
    assert load_recorded_space(old).cost({"bs": 64}) == pytest.approx(0.103)


def test_key_only_record_with_a_new_value_widens_its_parameter(tmp_path):
    path = kt_cache(tmp_path, [("32", {"time": 3.0}), ("64", {"time": 2.0}), ("128", {"time": 0.5})],
                    tp={"bs": [32, 64]})
    rec = load_recorded_space(path)
    assert rec.n_valid == 3 and rec.optimum == pytest.approx(0.0005)
    assert rec.space.params[0].values == (32, 64, 128)
    strings = kt_cache(tmp_path, [("row,1", {"time": 3.0}), ("diag,1", {"time": 1.0})],
                       tp={"layout": ["row", "col"], "v": [1, 2]}, name="s.json")
    rec = load_recorded_space(strings)
    assert rec.n_valid == 2 and rec.objective({"layout": "diag", "v": 1}).ok


def test_key_that_names_no_point_is_said(tmp_path):
    path = kt_cache(tmp_path, [("32", {"time": 3.0}), ("64", {"time": 2.0}), ("64,1", {"time": 0.5})],
                    tp={"bs": [32, 64]})
    rc, out, err = cli("search", "--replay", path, "-a", "exhaustive")
    assert rc == 0 and "2 valid points" in out, out + err
    assert "1 record of the cache" in err and "'64,1'" in err and "left out" in err, err


def test_repeated_key_is_noted_and_the_last_record_wins(tmp_path):
    path = kt_cache(tmp_path, [("32", {"bs": 32, "time": 3.0}), ("64", {"bs": 64, "time": 2.0}),
                               ("32", {"bs": 32, "time": 0.5})], tp={"bs": [32, 64]})
    rc, out, err = cli("search", "--replay", path, "-a", "exhaustive")
    assert rc == 0 and "optimum 0.0005 s" in out, out + err
    assert "'32' appears 2 times" in err, err
    single = kt_cache(tmp_path, [("32", {"bs": 32, "time": 3.0})], tp={"bs": [32]}, name="one.json")
    rc, _, err = cli("search", "--replay", single, "-a", "exhaustive")
    assert rc == 0 and "appears" not in err, err


def test_open_cache_whose_last_entry_ends_in_a_nested_object(tmp_path):
    head = json.dumps({"tune_params_keys": ["bs"], "tune_params": {"bs": [32, 64]},
                       "objective": "time"})[:-1]
    lines = ['"32": ' + json.dumps({"bs": 32, "time": 3.0}),
             '"64": ' + json.dumps({"bs": 64, "time": 2.0, "extra": {"a": {"b": 1}}})]
    path = write(tmp_path, "open.json", head + ', "cache": {\n' + ",\n".join(lines) + "\n")
    assert path.read_text().rstrip().endswith("}}}")
    rec = load_recorded_space(path)
    assert rec.n_valid == 2 and rec.optimum == pytest.approx(0.002)
    # a partial last line is still reported as one
    cut = write(tmp_path, "cut.json", head + ', "cache": {\n' + lines[0] + ",\n" + lines[1][:30])
    rc, _, err = cli("search", "--replay", cut)
    one_error(rc, err, "cut.json:", "partly written entry")


def test_cache_with_no_records_says_so(tmp_path):
    head = json.dumps({"tune_params_keys": ["bs"], "tune_params": {"bs": [32, 64]},
                       "objective": "time"})[:-1]
    for name, text in (("killed.json", head + ', "cache": {\n'),
                       ("empty.json", head + ', "cache": {}}')):
        rc, _, err = cli("search", "--replay", write(tmp_path, name, text))
        one_error(rc, err, name, "holds no records yet")


def test_header_objective_no_record_has(tmp_path):
    recs = [("32", {"bs": 32, "time": 3.0, "compile_time": 1.0}),
            ("64", {"bs": 64, "time": "CompilationFailedConfig", "compile_time": 1.0})]
    rc, _, err = cli("search", "--replay", kt_cache(tmp_path, recs, objective="nonexistent"))
    one_error(rc, err, "objective 'nonexistent'", "recorded: time, compile_time", "--objective")
    rc, _, err = cli("search", "--replay", kt_cache(tmp_path, recs, objective=["time"], name="l.json"))
    one_error(rc, err, "'objective' field is a JSON array", "recorded: time")
    # --objective overrides the header
    rc, out, err = cli("search", "--replay", tmp_path / "l.json", "--objective", "time", "-a", "exhaustive")
    assert rc == 0 and "2 evaluations (1 failed)" in out, out + err


def test_define_takes_a_quoted_string(tmp_path):
    path = kt_cache(tmp_path, [("row,1", {"layout": "row", "v": 1, "time": 3.0}),
                               ("col,1", {"layout": "col", "v": 1, "time": 2.0}),
                               ("col,2", {"layout": "col", "v": 2, "time": 1.0})],
                    tp={"layout": ["row", "col"], "v": [1, 2]})
    for given in ("layout='col'", 'layout="col"', "layout=col"):
        rc, out, err = cli("search", "--replay", path, "-a", "exhaustive", "-D", given)
        assert rc == 0 and "2 valid points" in out, given + out + err
    rc, _, err = cli("search", "--replay", path, "-D", "layout='diag'")
    one_error(rc, err, "no value 'diag' for layout")


def test_cache_with_a_bom(tmp_path):
    text = json.dumps({"tune_params_keys": ["bs"], "tune_params": {"bs": [32, 64]},
                       "cache": {"32": {"bs": 32, "time": 3.0}, "64": {"bs": 64, "time": 2.0}}})
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert load_recorded_space(path).n_valid == 2
    gz = tmp_path / "bom.json.gz"
    gz.write_bytes(gzip.compress(b"\xef\xbb\xbf" + text.encode()))
    assert load_recorded_space(gz).n_valid == 2


def test_written_cache_time_is_the_mean_of_times(tmp_path):
    sp = Space([Param("bs", (32, 64), "int")])
    times = [0.438e-3, 0.368e-3, 0.338e-3]
    records = [({"bs": 32}, Result("ok", 0.368e-3), {"times": times}),
               ({"bs": 64}, Result("compile_error"), {})]
    path = tmp_path / "out.json"
    write_cache(path, sp, records, device_name="d", kernel_name="k", problem_size=[1])
    raw = json.loads(path.read_text())
    assert raw["cache"]["32"]["time"] == pytest.approx(sum(times) / 3 * 1000.0)
    assert raw["cache"]["32"]["times"] == pytest.approx([t * 1000.0 for t in times])
    assert raw["cache"]["64"]["time"] == "CompilationFailedConfig"


def test_a_replay_of_looptx_records_ranks_by_the_median_its_search_used(tmp_path):
    """Probe 118 G4: a point with one slow repetition is best by the median the search ranks
    by but not by Kernel Tuner's mean; the replay of looptx's own records took the mean and
    named another optimum than the search's."""
    sp = Space([Param("bs", (32, 64), "int")])
    records = [({"bs": 32}, Result("ok", 1e-3), {"times": [1e-3, 1e-3, 10e-3]}),
               ({"bs": 64}, Result("ok", 2e-3), {"times": [2e-3, 2e-3, 2e-3]})]
    path = tmp_path / "out.json"
    write_cache(path, sp, records, device_name="d", kernel_name="k", problem_size=[1])
    raw = json.loads(path.read_text())
    assert raw["cache"]["32"]["time"] == pytest.approx(4.0) and raw["cache"]["32"]["looptx_time"] == pytest.approx(1.0)
    rs = load_recorded_space(path)
    assert rs.optimum == pytest.approx(1e-3)
    assert rs.objective({"bs": 32}).value == pytest.approx(1e-3)
