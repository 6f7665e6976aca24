"""The Dask executor gives the same evaluations as the local process pool."""
import pytest

from fakes.evaluators import FakeEvaluator, grid_space, key_xy
from looptx.search.db import SearchError
from looptx.search import backends
from looptx.search.driver import run_search
from looptx.search.random import RandomSearcher


FAULTS = {key_xy(0, 0): "compile_error", key_xy(0, 1): "segfault", key_xy(1, 2): "illegal",
          key_xy(0, 3): "wrong", key_xy(2, 2): "hang"}

STATUS = {"compile_error": "compile_error", "segfault": "crash", "illegal": "illegal",
          "wrong": "wrong_result", "hang": "timeout"}


def outcome(out):
    return {r.point_key: (r.status, r.time, r.duplicate_of is not None) for r in out.records}


def test_local_dask_cluster_matches_process_pool(tmp_path):
    ev = FakeEvaluator(timeout=1.0, faults=FAULTS, same_code_by=None)
    space = grid_space()

    def run(executor, workers, db):
        s = RandomSearcher(space, seed=11, max_evals=20, batch_size=4)
        return run_search(space, s, ev, db=tmp_path / db, search_key="k", budget=20,
                          executor=executor, workers=workers, progress=False)

    local = run(None, 2, "local.db")
    dask = run("local-dask", 2, "dask.db")
    assert dask.n_evals == local.n_evals == 20
    assert outcome(dask) == outcome(local)
    assert [r.point_key for r in dask.records] == [r.point_key for r in local.records]
    assert dask.best_point == local.best_point
    statuses = {r.status for r in dask.records}
    touched = {k for k in FAULTS if k in outcome(local)}
    assert len(touched) >= 3, "the seed must hit several faulty points"
    assert statuses == {"ok"} | {STATUS[FAULTS[k]] for k in touched}
    # a segfault on a Dask worker costs one evaluation only: it ran in the worker's isolated child
    crashes = [r for r in dask.records if r.status == "crash"]
    assert crashes and all("SIGSEGV" in r.error for r in crashes)
    # measurements really ran on the Dask workers (two of them)
    workers = {r.info.get("dask_worker") for r in dask.records if r.status == "ok"}
    assert len(workers) == 2 and None not in workers


def test_unreachable_scheduler_is_a_user_error(tmp_path, monkeypatch):
    monkeypatch.setattr(backends, "DASK_CONNECT_TIMEOUT", 1.0)
    space = grid_space()
    s = RandomSearcher(space, seed=1, max_evals=2)
    with pytest.raises(SearchError, match="cannot reach the Dask scheduler"):
        run_search(space, s, FakeEvaluator(), db=tmp_path / "x.db", search_key="k", budget=2,
                   executor="dask://127.0.0.1:1", progress=False)
    # the failed start recorded nothing: the same search can then run without --resume
    s = RandomSearcher(space, seed=1, max_evals=2)
    out = run_search(space, s, FakeEvaluator(), db=tmp_path / "x.db", search_key="k", budget=2,
                     workers=1, progress=False)
    assert out.n_evals == 2


def test_a_taken_dashboard_port_prints_nothing(tmp_path):
    """`--workers 2` while another cluster holds port 8787: the scheduler's HTTP server, which
    distributed starts even without a dashboard, warned on stderr (a second line where a bad
    input or an interrupt must print one)."""
    import os
    import shutil
    import socket
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    for name in ("axpy.c", "axpy.spec"):
        shutil.copy(root / "annotations" / name, tmp_path / name)
    holder = socket.socket()
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        holder.bind(("0.0.0.0", 8787))
        holder.listen(1)
    except OSError:
        pass                    # taken already: the same situation
    try:
        env = {**os.environ, "LOOPTX_CACHE_DIR": str(tmp_path / "cache")}
        p = subprocess.run([sys.executable, "-m", "looptx", "search", "axpy.c", "--budget", "2",
                            "--workers", "2", "--no-progress"], cwd=tmp_path, capture_output=True,
                           text=True, env=env, timeout=300)
    finally:
        holder.close()
    assert p.returncode == 0, p.stderr
    assert "already in use" not in p.stderr, p.stderr
