"""Probe 59's lesser findings: a search stopped before its first evaluation resumes with its
recorded seed; a resume whose budget is spent says so; a bad option on resume is one line; a
damaged cache (a parameter missing from tune_params_keys, records that merge, a field of the
wrong type, a negative compile time) is refused; `report --plot` names its format."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

from conftest import run_cli as cli
from test_search_regressions import annotated

from looptx.search.db import ResultsDB

CPU_MATMUL = Path(__file__).resolve().parent.parent / "search" / "cpu_matmul.json.gz"


def _interrupted_first(tmp_path, monkeypatch):
    import looptx.search.param_checks as pc
    from looptx.search.command import Terminated
    from looptx.search.interrupt import note_signal
    real = pc.check_recipe

    def stopped(*a, **k):
        note_signal(Terminated)
        return real(*a, **k)
    monkeypatch.setattr(pc, "check_recipe", stopped)
    f, db = tmp_path / "t.c", tmp_path / "t.db"
    f.write_text(annotated(search="arg algorithm = 'Randomsearch';"))
    rc, out, err = cli("search", f, "--db", db, "--budget", 3, "--seed", 7, "--no-progress")
    assert rc == 143, out + err
    monkeypatch.setattr(pc, "check_recipe", real)
    return f, db


def test_a_search_stopped_before_its_first_evaluation_resumes_with_its_seed(tmp_path, monkeypatch):
    f, db = _interrupted_first(tmp_path, monkeypatch)
    rc, out, err = cli("search", f, "--db", db, "--resume", "--no-progress")
    assert rc == 0, out + err
    with ResultsDB(db, create=False) as rdb:
        (info,) = rdb.searches()
        assert info.seed == 7 and len(rdb.evaluations(info.key)) == 3, info


def test_an_empty_database_says_the_search_stopped_before_it_recorded(tmp_path):
    f, db = tmp_path / "t.c", tmp_path / "t.db"
    f.write_text(annotated())
    db.write_bytes(b"")
    for argv in (("search", f, "--db", db, "--resume", "--no-progress"), ("report", db)):
        rc, out, err = cli(*argv)
        assert rc == 2 and err.count("\n") == 1 and "is empty" in err and "without --resume" in err, err


def test_a_resume_whose_budget_is_spent_says_so_and_a_bad_option_is_one_line(tmp_path):
    f, db = tmp_path / "t.c", tmp_path / "t.db"
    f.write_text(annotated(search="arg algorithm = 'Randomsearch';"))
    assert cli("search", f, "--db", db, "--budget", 3, "--no-progress")[0] == 0
    rc, out, err = cli("search", f, "--db", db, "--resume", "--budget", 2, "--no-progress")
    assert rc == 0 and "has 3 evaluations already" in err and "above 3" in err, out + err
    f.write_text(annotated(search="arg algorithm = 'Simplex';"))
    rc, out, err = cli("search", f, "--db", db, "--resume", "--budget", 4, "--no-progress",
                       "-O", "simplex_reflection_coef=-3", "--algorithm", "annealing", "-O",
                       "cooling_factor=2")
    assert rc == 2 and err.count("\n") == 1 and "cooling_factor" in err, err


def _cache():
    return json.loads(gzip.open(CPU_MATMUL, "rt").read())


def _replay_error(tmp_path, data, *expected):
    p = tmp_path / "c.json"
    p.write_text(json.dumps(data))
    rc, out, err = cli("search", "--replay", p, "-a", "random", "--budget", 4)
    assert rc == 2 and err.count("\n") == 1 and "Traceback" not in err, out + err
    for e in expected:
        assert e in err, err


def test_a_parameter_missing_from_tune_params_keys_is_refused(tmp_path):
    d = _cache()
    d["tune_params_keys"].remove("UF")
    _replay_error(tmp_path, d, "'UF' is in 'tune_params' but not in 'tune_params_keys'")
    d["tune_params"].pop("UF")
    for r in d["cache"].values():
        r.pop("UF", None)
    _replay_error(tmp_path, d, "of the cache are one point of tune_params_keys (TI, TJ)")


def test_a_field_of_the_wrong_type_is_named(tmp_path):
    for field, bad, kind in (("cache", [1, 2], "array"), ("tune_params", ["TI"], "array"),
                             ("tune_params_keys", "TI", "string")):
        d = _cache()
        d[field] = bad
        _replay_error(tmp_path, d, f"'{field}' is a JSON {kind}, not a JSON ")
    _replay_error(tmp_path, {"ConfigurationSpace": {}}, "'tune_params_keys' is missing", "--t1")


def test_a_negative_compile_time_is_refused_at_its_record(tmp_path):
    d = _cache()
    key = next(iter(d["cache"]))
    d["cache"][key]["compile_time"] = -5e9
    _replay_error(tmp_path, d, f"'{key}' has a negative compile time")


def test_report_plot_says_its_format_and_counts(tmp_path):
    f, db = tmp_path / "t.c", tmp_path / "t.db"
    f.write_text(annotated(search="arg algorithm = 'Randomsearch';"))
    assert cli("search", f, "--db", db, "--budget", 2, "--no-progress")[0] == 0
    rc, out, err = cli("report", db, "--plot", tmp_path / "conv")
    assert rc == 0 and "(1 search) written" in out and "as PNG (the name has no extension)" in out, out + err
    assert (tmp_path / "conv").read_bytes()[:4] == b"\x89PNG"


def test_a_failed_search_names_a_build_error_before_an_illegal_point(tmp_path):
    # probe 62: a broken build_command; the one line named a point an unroll made illegal
    f, db = tmp_path / "t.c", tmp_path / "t.db"
    # (a flag gcc rejects is refused before the search: tests/test_small_gaps59.py)
    f.write_text(annotated(build="arg build_command = 'gcc -O1 -include lx_no_such_header.h';",
                           search="arg algorithm = 'Exhaustive';"))
    rc, out, err = cli("search", f, "--db", db, "--budget", 4, "--no-progress")
    assert rc == 1 and err.count("\n") == 1 and "lx_no_such_header.h" in err, out + err
