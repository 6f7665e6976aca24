"""A search whose builds all fail the same way stops early (same_failure.py); builds that fail
differently, or a search with a success, go on to the budget."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

from fakes.evaluators import FakeEvaluator, grid_space, key_xy
from looptx.search.db import EvalRecord
from looptx.search.driver import run_search
from looptx.search.exhaustive import ExhaustiveSearcher
from looptx.search.random import RandomSearcher
from looptx.search.same_failure import SAME_FAILURE_LIMIT, repeated_build_failure
from looptx.search.space import point_key

ROOT = Path(__file__).resolve().parents[1]
ALL = [key_xy(x, y) for x in range(6) for y in range(4)]


def _search(tmp_path, faults, budget=20, batch_size=1, cls=RandomSearcher):
    space = grid_space()
    s = cls(space, max_evals=budget, seed=3, batch_size=batch_size)
    return run_search(space, s, FakeEvaluator(faults=faults), db=tmp_path / "r.looptx.db",
                      search_key="s", budget=budget, progress=False)


def test_every_build_failing_alike_stops_after_the_limit(tmp_path):
    out = _search(tmp_path, {k: "compile_error" for k in ALL})
    assert out.stop_reason == "same_failure"
    assert out.n_evals == SAME_FAILURE_LIMIT and out.counts == {"compile_error": SAME_FAILURE_LIMIT}


def test_a_batch_stops_after_the_round_that_reaches_the_limit(tmp_path):
    out = _search(tmp_path, {k: "compile_error" for k in ALL}, batch_size=4)
    assert out.stop_reason == "same_failure" and out.n_evals == 8


def test_one_success_keeps_the_search_going(tmp_path):
    faults = {k: "compile_error" for k in ALL}
    first = point_key(ExhaustiveSearcher(grid_space(), max_evals=1).ask(1)[0])
    del faults[first]
    out = _search(tmp_path, faults, budget=24, cls=ExhaustiveSearcher)
    assert out.counts == {"ok": 1, "compile_error": 23}
    assert out.stop_reason != "same_failure" and out.n_evals == 24


def _rec(i, status, error, dup=None):
    return EvalRecord(eval_index=i, point={"x": i}, point_key=str(i), status=status, time=None,
                      times=(), spread=None, code_hash=None, recipe=None, compiler=None,
                      flags=None, device=None, compile_time=0.0, run_time=0.0, error=error,
                      duplicate_of=dup, info={}, timestamp="")


def test_what_counts_as_the_same_failure():
    tmp = "/root/.cache/looptx/build/lx_{h}.c:{l}:25: error: 'restrict' undeclared"
    alike = [_rec(i, "compile_error", tmp.format(h=f"{i:032x}", l=6 + i)) for i in range(5)]
    assert repeated_build_failure(alike)[0] == 5
    # a resumed search gets its own count
    assert repeated_build_failure(alike, first=1) is None
    # figures that differ are the params at work (too much shared memory for some tiles)
    shared = [_rec(i, "compile_error", f"ptxas error: uses too much shared data (0x{i + 0xc001:x} "
                   "bytes, 0xc000 max)") for i in range(5)]
    assert repeated_build_failure(shared) is None
    # runtime failures (too many resources for a launch) depend on the params: never a stop
    assert repeated_build_failure([_rec(i, "runtime_error", "too many resources") for i in range(9)]) is None
    # duplicates and pruned points are not builds
    mixed = alike[:4] + [_rec(9, "compile_error", alike[0].error, dup=0), _rec(10, "illegal", "x")]
    assert repeated_build_failure(mixed) is None
    assert repeated_build_failure([_rec(11, "ok", None)] + alike) is None


def test_cli_stops_a_search_whose_build_command_cannot_link(tmp_path):
    for name in ("axpy.c", "axpy.spec"):
        shutil.copy(ROOT / "annotations" / name, tmp_path / name)
    spec = tmp_path / "axpy.spec"
    spec.write_text(spec.read_text().replace("'gcc -O2'", "'gcc -O2 -lno_such_library_lx'"))
    env = {**os.environ, "LOOPTX_CACHE_DIR": str(tmp_path / "cache")}
    p = subprocess.run([sys.executable, "-m", "looptx", "search", "axpy.c", "--budget", "20",
                        "--no-progress"], cwd=tmp_path, capture_output=True, text=True, env=env,
                       timeout=300)
    assert p.returncode == 1, p.stderr
    assert "stopped after 5 of 20 evaluations" in p.stdout and "no_such_library_lx" in p.stdout
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr
    assert "5 compile_error of 5 evaluated" in p.stderr
