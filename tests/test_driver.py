"""The search driver: faults, dedupe, budget/time limits, resume (also after SIGKILL)."""
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections import Counter
from pathlib import Path

import pytest

from fakes.evaluators import FakeEvaluator, fake_time, grid_space, key_xy, read_log
from looptx.search.exhaustive import ExhaustiveSearcher
from looptx.search.random import RandomSearcher
from looptx.search.db import ResultsDB, SearchError
from looptx.search.driver import run_search
from looptx.search.space import Param, Space, point_key

ROOT = Path(__file__).resolve().parents[1]


SEARCHERS = {"exhaustive": ExhaustiveSearcher, "random": RandomSearcher}


def searcher(name, space, budget, **kw):
    return SEARCHERS[name](space, max_evals=budget, **kw)


def search(tmp_path, ev, *, name="exhaustive", budget=24, space=None, db=None, key="s",
           workers=2, **kw):
    space = space or grid_space()
    s = searcher(name, space, budget, **{k: kw.pop(k) for k in ("seed", "batch_size") if k in kw})
    return run_search(space, s, ev, db=db or tmp_path / "r.looptx.db", search_key=key,
                      budget=budget, workers=workers, progress=False, **kw)


def test_exhaustive_search_records_everything(tmp_path):
    log = tmp_path / "log"
    seen = []
    out = search(tmp_path, FakeEvaluator(log=str(log)), on_record=seen.append,
                 input_file="grid.c", problem={"N": 10})
    assert out.n_evals == 24 and out.counts == {"ok": 24} and out.n_measured == 24
    assert out.best_point == {"x": 3, "y": 2}
    assert out.best_measurement.time == pytest.approx(1e-3)
    assert out.stop_reason in ("budget", "finished")
    assert [r.eval_index for r in out.records] == list(range(24))
    assert [r.eval_index for r in seen] == list(range(24))
    assert len(read_log(log)) == 24
    with ResultsDB(tmp_path / "r.looptx.db") as db:
        info = db.get_search("s")
        assert info.status == "finished" and info.finished and info.searcher == "exhaustive"
        assert info.input_file == "grid.c" and info.problem == {"N": 10}
        assert info.backend == "fake" and info.budget == 24 and info.state["searcher"] == "exhaustive"
        assert [p["name"] for p in info.space["params"]] == ["x", "y"]
        rows = db.evaluations("s")
    assert len(rows) == 24
    r = next(r for r in rows if r.point == {"x": 1, "y": 1})
    assert r.time == pytest.approx(fake_time(r.point)) and r.times == (r.time,) * 3
    assert r.compiler == "fakecc 1.0" and r.flags == "-O2" and r.device == "cpu: fake"
    assert r.recipe == "tile x=1;y=1" and len(r.code_hash) == 64 and r.compile_time == 0.01


def test_every_fault_is_recorded_with_its_status(tmp_path):
    faults = {key_xy(0, 0): "compile_error", key_xy(0, 1): "segfault", key_xy(0, 2): "hang",
              key_xy(0, 3): "wrong", key_xy(1, 0): "raise", key_xy(1, 1): "exit",
              key_xy(1, 2): "illegal", key_xy(1, 3): "legality_error",
              key_xy(2, 0): "prepare_raise", key_xy(2, 1): "prepare_segfault"}
    ev = FakeEvaluator(timeout=1.0, faults=faults)
    t0 = time.monotonic()
    out = search(tmp_path, ev)
    assert time.monotonic() - t0 < 20
    by = {(r.point["x"], r.point["y"]): r for r in out.records}
    assert len(by) == 24
    expect = {(0, 0): "compile_error", (0, 1): "crash", (0, 2): "timeout", (0, 3): "wrong_result",
              (1, 0): "runtime_error", (1, 1): "crash", (1, 2): "illegal", (1, 3): "illegal",
              (2, 0): "codegen_error", (2, 1): "codegen_error"}
    for xy, status in expect.items():
        assert by[xy].status == status, (xy, by[xy])
        assert by[xy].time is None and by[xy].error
    assert "SIGSEGV" in by[(0, 1)].error and "code 5" in by[(1, 1)].error
    assert "kernel launch failed" in by[(1, 0)].error
    assert "reverse a dependence" in by[(1, 3)].error and by[(1, 3)].code_hash is None
    assert "codegen bug" in by[(2, 0)].error and "crashed" in by[(2, 1)].error
    assert out.counts["ok"] == 14 and out.best_point == {"x": 3, "y": 2}


def test_duplicate_code_is_measured_once(tmp_path):
    log = tmp_path / "log"
    ev = FakeEvaluator(log=str(log), same_code_by=("x",))      # y does not change the code
    out = search(tmp_path, ev, name="random", seed=1, batch_size=5)
    measured = [r for r in out.records if r.duplicate_of is None]
    dups = [r for r in out.records if r.duplicate_of is not None]
    assert len(measured) == 6 and len(dups) == 18 and out.n_measured == 6
    assert len(read_log(log)) == 6
    assert len({r.code_hash for r in measured}) == 6
    by_index = {r.eval_index: r for r in out.records}
    for d in dups:
        src = by_index[d.duplicate_of]
        assert src.duplicate_of is None and src.code_hash == d.code_hash
        assert d.time == src.time and d.status == src.status and d.run_time == 0.0
        assert d.eval_index > src.eval_index


def test_budget_batches_and_tell_order(tmp_path):
    s = searcher("random", grid_space(), 10, seed=4, batch_size=4)
    told = []
    orig = s.tell
    s.tell = lambda p, r: (told.append(point_key(p)), orig(p, r))
    out = run_search(grid_space(), s, FakeEvaluator(), db=tmp_path / "b.db", search_key="b",
                     budget=10, workers=3, progress=False)
    assert out.n_evals == 10 and s.n_told == 10 and out.stop_reason == "budget"
    assert told == [r.point_key for r in out.records]      # told in eval order = ask order
    assert len(set(told)) == 10


def test_time_limit_stops_early(tmp_path):
    t0 = time.monotonic()
    out = search(tmp_path, FakeEvaluator(sleep=0.25), time_limit=1.0, workers=1)
    took = time.monotonic() - t0
    assert out.stop_reason == "time_limit"
    assert 1 <= out.n_evals < 24 and took < 4
    with ResultsDB(tmp_path / "r.looptx.db") as db:
        assert db.count("s") == out.n_evals


def test_resume_continues_without_remeasuring(tmp_path):
    log = tmp_path / "log"
    ev = FakeEvaluator(log=str(log))
    first = search(tmp_path, ev, name="random", seed=7, budget=9)
    assert first.n_evals == 9
    with pytest.raises(SearchError, match="already recorded"):
        search(tmp_path, ev, name="random", seed=7, budget=20)
    second = search(tmp_path, ev, name="random", seed=7, budget=20, resume=True)
    assert second.n_resumed == 9 and second.n_evals == 20 and second.n_measured == 11
    keys = [r.point_key for r in second.records]
    assert len(set(keys)) == 20 and keys[:9] == [r.point_key for r in first.records]
    assert [r.eval_index for r in second.records] == list(range(20))
    assert Counter(read_log(log)) == Counter(keys)           # each point measured exactly once
    third = search(tmp_path, ev, name="random", seed=7, budget=20, resume=True)
    assert third.n_measured == 0 and third.n_evals == 20


def test_resume_refuses_a_changed_space(tmp_path):
    search(tmp_path, FakeEvaluator(), budget=3)
    with pytest.raises(SearchError, match="changed"):
        search(tmp_path, FakeEvaluator(), budget=6, resume=True, space=grid_space(nx=5))


def test_resume_without_record_starts_fresh_and_budget_zero_left(tmp_path):
    out = search(tmp_path, FakeEvaluator(), budget=4, resume=True)
    assert out.n_evals == 4 and out.n_resumed == 0
    again = search(tmp_path, FakeEvaluator(), budget=4, resume=True)
    assert again.n_measured == 0 and again.stop_reason == "budget"


def test_mapping_params_survive_the_database(tmp_path):
    space = Space([Param("m", (("i", "j"), ("j", "i")), "mapping", ("BX", "TX")),
                   Param.of("x", [0, 3])], name="mapped")

    s = searcher("exhaustive", space, 4)
    out = run_search(space, s, FakeEvaluator(), db=tmp_path / "m.db", search_key="m",
                     budget=4, workers=1, progress=False)
    assert out.n_evals == 4 and out.best_point == {"m": ("j", "i"), "x": 3}
    assert {r.point["m"] for r in out.records} == {("i", "j"), ("j", "i")}
    s2 = searcher("exhaustive", space, 4)
    again = run_search(space, s2, FakeEvaluator(), db=tmp_path / "m.db", search_key="m",
                       budget=4, workers=1, progress=False, resume=True)
    assert again.n_measured == 0 and s2.n_told == 4


KILL_SCRIPT = textwrap.dedent("""
    import sys
    from fakes.evaluators import FakeEvaluator, grid_space
    from looptx.search.driver import run_search
    from looptx.search.random import RandomSearcher
    if __name__ == "__main__":
        db, log, resume = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
        space = grid_space()
        s = RandomSearcher(space, seed=5, max_evals=16, batch_size=2)
        out = run_search(space, s, FakeEvaluator(log=log, sleep=0.15), db=db, search_key="k",
                         budget=16, workers=2, progress=False, resume=resume)
        print(out.n_evals, out.n_measured, out.n_resumed)
""")


def test_sigkill_midway_then_resume(tmp_path):
    script = tmp_path / "run.py"
    script.write_text(KILL_SCRIPT)
    db, log = tmp_path / "k.db", tmp_path / "log"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]))
    proc = subprocess.Popen([sys.executable, str(script), str(db), str(log), "0"], env=env)
    deadline = time.monotonic() + 30
    n = 0
    while time.monotonic() < deadline and proc.poll() is None:
        n = _count(db)
        if n >= 5:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    before = _rows(db)
    assert 5 <= len(before) < 16, "kill must land midway"
    measured_before = Counter(read_log(log))
    res = subprocess.run([sys.executable, str(script), str(db), str(log), "1"], env=env,
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    n_evals, n_measured, n_resumed = map(int, res.stdout.split())
    after = _rows(db)
    assert n_evals == 16 and n_resumed == len(before)
    assert [r[0] for r in after] == list(range(16))            # no gap, nothing repeated
    assert after[:len(before)] == before                       # nothing lost or rewritten
    assert len({r[1] for r in after}) == 16
    log_after = Counter(read_log(log))
    for _, key in before:                                      # recorded -> never measured again
        assert log_after[key] == measured_before[key] == 1
    # at most the one evaluation in flight at the kill was measured twice
    assert sum(log_after.values()) <= 16 + 1
    assert n_measured == 16 - len(before)


def _count(db):
    if not Path(db).exists():
        return 0
    try:
        c = sqlite3.connect(str(db), timeout=5)
        try:
            return c.execute("SELECT COUNT(*) FROM evaluations").fetchone()[0]
        finally:
            c.close()
    except sqlite3.OperationalError:
        return 0


def _rows(db):
    c = sqlite3.connect(str(db))
    try:
        return c.execute("SELECT eval_index, point_key FROM evaluations ORDER BY eval_index").fetchall()
    finally:
        c.close()


def test_interrupt_marks_search_and_leaves_no_children(tmp_path):
    import multiprocessing

    def stop_after_three(rec):
        if rec.eval_index == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        search(tmp_path, FakeEvaluator(), on_record=stop_after_three)
    assert multiprocessing.active_children() == []
    with ResultsDB(tmp_path / "r.looptx.db") as db:
        info = db.get_search("s")
        assert info.status == "interrupted" and info.finished is None and info.n_evals == 3
    out = search(tmp_path, FakeEvaluator(), resume=True)
    assert out.n_evals == 24 and out.n_resumed == 3


def test_resume_with_another_searcher_replays_history(tmp_path):
    log = tmp_path / "log"
    search(tmp_path, FakeEvaluator(log=str(log)), name="random", seed=3, budget=6)
    with pytest.warns(UserWarning, match="recorded with searcher 'random' and resumes with "
                                         "'exhaustive': its 6 evaluations are told"):
        out = search(tmp_path, FakeEvaluator(log=str(log)), name="exhaustive", budget=24, resume=True)
    assert out.n_evals == 24 and len({r.point_key for r in out.records}) == 24
    assert len(read_log(log)) == 24


def test_unpicklable_evaluator_fails_fast(tmp_path):
    ev = FakeEvaluator()
    ev.hook = lambda: None
    with pytest.raises(TypeError, match="picklable"):
        search(tmp_path, ev)


def test_progress_bar_on_a_terminal(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    s = searcher("exhaustive", grid_space(), 6)
    run_search(grid_space(), s, FakeEvaluator(faults={key_xy(1, 0): "compile_error"}),
               db=tmp_path / "p.db", search_key="p", budget=6, workers=1, progress=True)
    out = capsys.readouterr().out
    assert "6/6" in out and "best" in out and "compile_error:1" in out


def test_evaluate_helpers():
    from looptx.search.evaluate import (Measurement, Prepared, checked_measurement,
                                        checked_prepared, summarize_times)
    med, spread = summarize_times([1.0, 2.0, 3.0, 4.0, 100.0])
    assert med == 3.0 and spread == pytest.approx((4.0 - 2.0) / 3.0)
    assert summarize_times([2.0]) == (2.0, 0.0)
    assert checked_measurement("nope").status == "runtime_error"
    bad = checked_measurement(Measurement(status="ok", time=float("nan")))
    assert bad.status == "runtime_error" and "valid time" in bad.error
    assert checked_measurement(Measurement(status="ok", time=1.0)).ok
    assert checked_prepared(None, {"x": 1}).status == "codegen_error"
    assert checked_prepared(Prepared({"x": 1}, "weird"), {"x": 1}).status == "codegen_error"


@pytest.mark.parametrize("on_cpu", [True, False])
def test_cpu_timings_wait_for_the_batch_preparation(tmp_path, on_cpu):
    """A C-backend timing shares the cores with the batch's preparation: no measurement of a
    batch starts before its last point is prepared (a GPU one may)."""
    from fakes.evaluators import CpuTimedEvaluator
    log = tmp_path / "log"
    s = searcher("exhaustive", grid_space(4, 2), 8, batch_size=4)
    run_search(grid_space(4, 2), s, CpuTimedEvaluator(log=str(log), times_on_cpu=on_cpu),
               db=tmp_path / "c.db", search_key="c", budget=8, workers=4, progress=False)
    events = [ln.split() for ln in log.read_text().splitlines()]
    batches, current = [], []
    for kind, t in events:
        current.append((kind, float(t)))
        if len([e for e in current if e[0] == "measure"]) == 4:
            batches.append(current)
            current = []
    early = [m for b in batches for kind, m in b if kind == "measure"
             and m < max(t for k, t in b if k == "prepared")]
    assert len(batches) == 2 and (not early if on_cpu else early), events
