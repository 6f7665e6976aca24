"""SQLite results store."""
import sqlite3

import pytest

from looptx.errors import LooptxError
from looptx.search.db import EvalRecord, ResultsDB, SearchError, default_db_path


def rec(i, status="ok", time=None, **kw):
    point = kw.pop("point", {"x": i, "m": ("i", "j", "1")})
    return EvalRecord(eval_index=i, point=point, point_key=kw.pop("point_key", f"k{i}"),
                      status=status, time=time, **kw)


def test_default_db_path(tmp_path):
    assert default_db_path("dir/mm.c").as_posix() == "dir/mm.looptx.db"
    assert default_db_path("stencil.cu").name == "stencil.looptx.db"
    assert default_db_path("noext").name == "noext.looptx.db"


def test_search_round_trip(tmp_path):
    path = tmp_path / "r.looptx.db"
    with ResultsDB(path) as db:
        info = db.create_search("mm.c|N=512|c", input_file="mm.c", problem={"N": 512},
                                backend="c", searcher="random", searcher_options={"a": [1, 2]},
                                seed=3, budget=50, space={"params": []},
                                evaluator={"compiler": "gcc"})
        assert info.key == "mm.c|N=512|c" and info.status == "running" and info.started
        assert info.problem == {"N": 512} and info.n_evals == 0
        db.update_search("mm.c|N=512|c", state={"rng": [1, 2]}, status="finished")
    with ResultsDB(path, create=False) as db:
        info = db.get_search("mm.c|N=512|c")
        assert info.state == {"rng": [1, 2]} and info.status == "finished"
        assert info.seed == 3 and info.budget == 50 and info.searcher_options == {"a": [1, 2]}
        assert db.get_search("other") is None


def test_evaluations_round_trip_types(tmp_path):
    with ResultsDB(tmp_path / "a.db") as db:
        db.create_search("s")
        r0 = rec(0, "ok", 1.5e-3, times=(1.4e-3, 1.5e-3, 1.6e-3), spread=0.1, code_hash="h0",
                 recipe="tile i 32", compiler="gcc 12", flags="-O3", device="cpu",
                 compile_time=0.2, run_time=0.01, info={"max_rel_error": 0.0})
        r1 = rec(1, "crash", error="killed by signal SIGSEGV", code_hash="h1")
        r2 = rec(2, "ok", 1.5e-3, code_hash="h0", duplicate_of=0)
        db.add_evaluations("s", [r0, r1, r2])
        got = db.evaluations("s")
        assert [g.eval_index for g in got] == [0, 1, 2]
        g0 = got[0]
        assert g0.point == {"x": 0, "m": ("i", "j", "1")}        # tuple restored
        assert g0.times == (1.4e-3, 1.5e-3, 1.6e-3) and g0.info == {"max_rel_error": 0.0}
        assert g0.recipe == "tile i 32" and g0.compile_time == 0.2 and g0.timestamp
        assert got[1].status == "crash" and got[1].time is None and not got[1].ok
        assert got[2].duplicate_of == 0
        assert db.count("s") == 3 and db.get_search("s").n_evals == 3
        res = got[0].result()
        assert res.ok and res.value == 1.5e-3
        assert got[1].result().status == "crash" and got[1].result().value is None


def test_each_evaluation_is_committed_at_once(tmp_path):
    path = tmp_path / "c.db"
    writer = ResultsDB(path)
    writer.create_search("s")
    writer.add_evaluation("s", rec(0, "ok", 1.0))
    # A second connection (another process would be the same) sees it before close.
    raw = sqlite3.connect(str(path))
    assert raw.execute("SELECT COUNT(*) FROM evaluations").fetchone()[0] == 1
    raw.close()
    writer.close()


def test_several_searches_and_selection(tmp_path):
    with ResultsDB(tmp_path / "m.db") as db:
        for key in ("a|N=64", "a|N=128"):
            db.create_search(key, searcher="random")
        db.add_evaluation("a|N=64", rec(0, "ok", 2.0))
        assert [s.key for s in db.searches()] == ["a|N=64", "a|N=128"]
        assert db.evaluations("a|N=128") == []
        with pytest.raises(SearchError, match="holds 2 searches"):
            db.require_search(None)
        with pytest.raises(SearchError, match="no search 'zz'"):
            db.require_search("zz")
        assert db.require_search("a|N=64").n_evals == 1
        db.delete_search("a|N=64")
        assert db.require_search(None).key == "a|N=128"


def test_errors_are_looptx_errors_with_one_line(tmp_path):
    path = tmp_path / "e.db"
    with ResultsDB(path) as db:
        db.create_search("s")
        with pytest.raises(SearchError) as e:
            db.create_search("s")
        assert isinstance(e.value, LooptxError) and e.value.exit_code == 2
        text = str(e.value)
        assert "\n" not in text and text.startswith(str(path)) and "--resume" in text
        db.add_evaluation("s", rec(0, "ok", 1.0))
        with pytest.raises(SearchError, match="already recorded"):
            db.add_evaluation("s", rec(0, "ok", 1.0))


def test_rejects_foreign_files(tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(SearchError, match="not a looptx results database"):
        ResultsDB(junk)
    other = tmp_path / "other.db"
    c = sqlite3.connect(str(other))
    c.execute("CREATE TABLE t (x)")
    c.commit()
    c.close()
    with pytest.raises(SearchError, match="not a looptx results database"):
        ResultsDB(other)
    with pytest.raises(SearchError, match="does not exist"):
        ResultsDB(tmp_path / "missing.db", create=False)
    assert not (tmp_path / "missing.db").exists()
