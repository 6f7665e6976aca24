"""Fault injection with real C variants through `looptx search`: a variant that does not compile,
one that segfaults, one that hangs, one that computes a wrong result; a search killed with
SIGKILL and resumed; the same search on a local Dask cluster.

The faults come from the build command (`gcc -O2 @FAULT@`): a bad flag, or `-include` of a
header that redefines `sqrt`, which the region calls, as a null dereference, an endless loop or
an off-by-one.  The region code itself is the same for every point."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from looptx.search.db import ResultsDB, SearchError

HEADERS = {
    "segv": "#include <math.h>\n#define sqrt(v) (*(volatile double *)0 + (v))\n",
    "hang": "#include <math.h>\n#define sqrt(v) ({ volatile int lx_spin = 1; while (lx_spin) ; (v); })\n",
    "wrong": "#include <math.h>\n#define sqrt(v) (sqrt(v) + 1e-3)\n",
}
EXPECT = {"": "ok", "-fno-such-flag": "compile_error", "segv": "crash", "hang": "timeout",
          "wrong": "wrong_result"}


def fault_file(tmp_path, timeout: float = 3.0, algorithm: str = "Exhaustive"):
    flags = {"": "", "-fno-such-flag": "-fno-such-flag"}
    for name, text in HEADERS.items():
        h = tmp_path / f"{name}.h"
        h.write_text(text)
        flags[name] = f"-include {h}"
    values = ", ".join(repr(v) for v in flags.values())
    src = tmp_path / "faults.c"
    src.write_text(f"""/*@ begin PerfTuning (
  def build {{ arg build_command = 'gcc -O2 @FAULT@'; }}
  def performance_counter {{ arg repetitions = 2; arg timeout = {timeout}; }}
  def performance_params {{
    param FAULT[] = [{values}];
    param UF[] = [1, 2];
  }}
  def input_params {{ param N[] = [300]; }}
  def input_vars {{ decl static double x[N] = random; decl static double y[N] = random; }}
  def search {{ arg algorithm = '{algorithm}'; }}
) @*/
int i;
/*@ begin CHiLL ( unroll(0,"i",UF) ) @*/
for (i = 0; i < N; i++)
  y[i] = y[i] + sqrt(x[i]);
/*@ end @*/
/*@ end @*/
""")
    return src, {v: EXPECT[k] for k, v in flags.items()}


def search_cmd(src, db, *extra):
    return [sys.executable, "-m", "looptx", "search", str(src), "--db", str(db), "--no-progress",
            *map(str, extra)]


def evaluations(db):
    with ResultsDB(db, create=False) as rdb:
        searches = rdb.searches()
        return rdb.evaluations(searches[0].key) if searches else []


def check_faults(recs, expect):
    assert len(recs) == 10
    assert [r.eval_index for r in recs] == list(range(10))
    assert len({r.point_key for r in recs}) == 10
    for r in recs:
        want = expect[r.point["FAULT"]]
        assert r.status == want, (r.point, r.status, r.error)
        if want == "ok":
            assert r.time > 0 and len(r.times) == 2
        else:
            assert r.time is None and r.error
    errors = {r.status: r.error for r in recs}
    assert "SIGSEGV" in errors["crash"]
    assert "no-such-flag" in errors["compile_error"]
    assert "wrong result" in errors["wrong_result"]
    assert "raise it with `arg timeout = SECONDS;` in the performance_counter section" in errors["timeout"]


def test_every_fault_costs_one_point(tmp_path):
    src, expect = fault_file(tmp_path)
    db = tmp_path / "f.db"
    p = subprocess.run(search_cmd(src, db), capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    check_faults(evaluations(db), expect)
    best = (tmp_path / "faults.best.c").read_text()
    assert '"FAULT": ""' in best               # only a correct variant can be the best


def test_sigkill_then_resume_loses_and_repeats_nothing(tmp_path):
    src, expect = fault_file(tmp_path, timeout=4.0)
    db = tmp_path / "k.db"
    proc = subprocess.Popen(search_cmd(src, db), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline:
            try:
                if db.exists() and len(evaluations(db)) >= 4:
                    break
            except SearchError:
                pass            # the file exists a moment before its tables do
            assert proc.poll() is None, "the search ended before it could be killed"
            time.sleep(0.1)
        else:
            pytest.fail("the search recorded nothing in time")
    finally:
        os.killpg(proc.pid, signal.SIGKILL)        # the whole process group, as a machine would
        proc.wait()
    before = evaluations(db)
    assert 4 <= len(before) < 10
    p = subprocess.run(search_cmd(src, db, "--resume"), capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    after = evaluations(db)
    check_faults(after, expect)
    kept = {r.eval_index: (r.point_key, r.status, r.time, r.timestamp) for r in before}
    assert {r.eval_index: (r.point_key, r.status, r.time, r.timestamp) for r in after
            if r.eval_index in kept} == kept


def test_local_dask_cluster_gives_the_same_results(tmp_path):
    src, expect = fault_file(tmp_path, algorithm="Randomsearch")
    runs = {}
    for name, extra in (("pool", ()), ("dask", ("--workers", 2))):
        db = tmp_path / f"{name}.db"
        p = subprocess.run(search_cmd(src, db, "--seed", 5, "--batch-size", 4, *extra),
                           capture_output=True, text=True, timeout=400)
        assert p.returncode == 0, p.stdout + p.stderr
        runs[name] = evaluations(db)
    check_faults(runs["dask"], expect)
    same = [(r.eval_index, r.point_key, r.status, r.code_hash, r.duplicate_of) for r in runs["pool"]]
    assert [(r.eval_index, r.point_key, r.status, r.code_hash, r.duplicate_of)
            for r in runs["dask"]] == same
    assert len({r.info.get("dask_worker") for r in runs["dask"] if r.ok}) >= 1
