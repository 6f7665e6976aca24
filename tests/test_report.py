"""Reports: top table, CSV/JSON export, convergence plot, Kernel Tuner cache export."""
import csv
import io
import json
import math

import pytest

from fakes.evaluators import fake_time
from looptx.search.db import EvalRecord, ResultsDB, SearchError
from looptx.search.driver import describe_space
from looptx.search.replay import load_recorded_space
from looptx.search.report import (best_so_far, convergence_plot, export_csv, export_json,
                                  export_kernel_tuner_cache, format_time, top_table)
from looptx.search.space import Param, Space, point_key

SPACE = Space([Param.of("x", [0, 1, 2, 3]), Param("m", (("i", "j"), ("j", "i")), "mapping",
                                                  ("BX", "TX"))], name="rep")


def make_db(path):
    """Two searches; the first has failures and a duplicate, written as the driver would."""
    with ResultsDB(path) as db:
        for key, searcher in (("rep.c|N=8|c", "random"), ("rep.c|N=16|c", "[b]exhaustive")):
            db.create_search(key, input_file="rep.c", problem={"N": 8}, backend="c",
                             searcher=searcher, seed=0, budget=8, space=describe_space(SPACE),
                             evaluator={"compiler": "gcc 12", "flags": "-O3",
                                        "device": "cpu: test", "backend": "c"})
        pts = list(SPACE.enumerate())
        statuses = ["ok", "compile_error", "ok", "ok", "timeout", "illegal", "ok", "ok"]
        for i, (p, st) in enumerate(zip(pts, statuses)):
            dup = 0 if i == 6 else None
            t = fake_time(pts[0] if dup == 0 else p) if st == "ok" else None
            db.add_evaluation("rep.c|N=8|c", EvalRecord(
                eval_index=i, point=p, point_key=point_key(p), status=st, time=t,
                times=(t, t) if t else (), spread=0.02 if t else None,
                code_hash=f"h{0 if dup == 0 else i}", compiler="gcc 12", flags="-O3",
                device="cpu: test", compile_time=0.1, run_time=0.01,
                error=None if st == "ok" else f"{st} here", duplicate_of=dup))
        for i, p in enumerate(pts[:3]):
            db.add_evaluation("rep.c|N=16|c", EvalRecord(
                eval_index=i, point=p, point_key=point_key(p), status="ok",
                time=2 * fake_time(p)))
    return path


@pytest.fixture
def db(tmp_path):
    return make_db(tmp_path / "rep.looptx.db")


def test_format_time_and_best_so_far():
    assert format_time(1.5) == "1.5 s" and format_time(2.5e-3) == "2.5 ms"
    assert format_time(3e-6) == "3 us" and format_time(None) == "-"
    recs = [EvalRecord(i, {}, str(i), s, t) for i, (s, t) in
            enumerate([("crash", None), ("ok", 3.0), ("ok", 5.0), ("ok", 1.0)])]
    assert best_so_far(recs) == [math.inf, 3.0, 3.0, 1.0]


def test_top_table(db):
    text = top_table(db, "rep.c|N=8|c", n=3)
    lines = text.splitlines()
    assert "rep.c|N=8|c: 8 evaluations, searcher random, backend c, cpu: test" in text
    rows = [ln for ln in lines if "x=" in ln]
    assert len(rows) == 3                               # n rows, duplicate folded away
    assert "x=3" in rows[0] and "m=(j,i)" in rows[0] and "1.00x" in rows[0]
    assert "compile_error 1" in text and "ok 5" in text and "illegal 1" in text
    both = top_table(db)
    assert "rep.c|N=16|c" in both and "rep.c|N=8|c" in both
    assert "searcher [b]exhaustive" in both              # user text is not rich markup
    assert "\x1b[" not in both                           # plain text, no colour codes


def test_export_csv(db, tmp_path):
    buf = io.StringIO()
    assert export_csv(db, buf) == 11
    rows = list(csv.DictReader(io.StringIO(buf.getvalue())))
    assert len(rows) == 11 and rows[0]["search_key"] == "rep.c|N=8|c"
    assert {"x", "m", "status", "time", "duplicate_of"} <= set(rows[0])
    failed = next(r for r in rows if r["status"] == "compile_error")
    assert failed["time"] == "" and failed["error"] == "compile_error here"
    assert rows[6]["duplicate_of"] == "0"
    path = tmp_path / "one.csv"
    assert export_csv(db, path, "rep.c|N=16|c") == 3
    assert path.read_text().count("\n") == 4


def test_export_json(db, tmp_path):
    path = tmp_path / "r.json"
    doc = export_json(db, path)
    loaded = json.loads(path.read_text())
    assert loaded == json.loads(json.dumps(doc, default=str))
    s = loaded["searches"][0]
    assert s["key"] == "rep.c|N=8|c" and s["problem"] == {"N": 8} and len(s["evaluations"]) == 8
    assert s["best"]["point"] == {"x": 3, "m": ["j", "i"]}
    assert s["evaluations"][1]["status"] == "compile_error"


def test_convergence_plot(db, tmp_path):
    png = tmp_path / "conv.png"
    assert convergence_plot(db, png) == 2
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000


def test_kernel_tuner_cache_round_trip(db, tmp_path):
    path = tmp_path / "rep.json.gz"
    n = export_kernel_tuner_cache(db, "rep.c|N=8|c", path)
    assert n == 8
    rec = load_recorded_space(path)
    assert rec.optimum == pytest.approx(fake_time({"x": 3, "m": ("j", "i")}))
    with ResultsDB(db) as rdb:
        stored = {r.point_key: r for r in rdb.evaluations("rep.c|N=8|c")}
    assert rec.space.names == SPACE.names
    for p in SPACE.enumerate():
        got, want = rec.objective(p), stored[point_key(p)]
        assert got.ok == want.ok
        if want.ok:
            assert got.value == pytest.approx(want.time)
    assert rec.objective({"x": 0, "m": ("j", "i")}).status == "compile_error"
    with pytest.raises(SearchError):
        export_kernel_tuner_cache(db, None, tmp_path / "x.json")   # two searches: name one


def test_missing_db_is_a_user_error(tmp_path):
    with pytest.raises(SearchError, match="does not exist"):
        top_table(tmp_path / "nope.db")
