"""Probe 28 (the tuning workflow on Orio files and Kernel Tuner caches written by others): -D of
an input param skipped the sizes declared from it and the input constraints; a C++ build command
(Orio's CHiLL files name g++) failed every point; Kernel Tuner's strategy-test cache, whose
`test_mixed` lists both 1 and true, was refused.  (The batch timings: tests/test_driver.py.)"""
from __future__ import annotations

import json

from conftest import run_cli

MM = """/*@ begin PerfTuning (
  def build { arg build_command = '%s'; }
  def performance_params { param U[] = [1, 2]; }
  def input_params {
    param MVAL[] = [8, 16];
    param NVAL[] = [8, 16];
    constraint square = (MVAL == NVAL);
  }
  def input_vars {
    decl int M = MVAL;
    decl int N = NVAL;
    decl static double a[MVAL][NVAL] = random;
    decl static double b[MVAL][NVAL] = 0;
  }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
int i, j;
/*@ begin Loop (
  transform Unroll(ufactor=U)
  for (i = 0; i <= M - 1; i++)
    for (j = 0; j <= N - 1; j++)
      b[i][j] = 2.0 * a[i][j];
) @*/
for (i = 0; i <= M - 1; i++)
  for (j = 0; j <= N - 1; j++)
    b[i][j] = 2.0 * a[i][j];
/*@ end @*/
/*@ end @*/
"""


def test_a_define_of_an_input_param_derives_the_sizes_and_meets_the_constraints(tmp_path):
    src = tmp_path / "mm.c"
    src.write_text(MM % "gcc -O2")
    rc, out, err = run_cli("search", src, "-D", "MVAL=16", "--budget", "1", "--no-progress")
    searches = [ln for ln in (out + err).splitlines() if ln.startswith("looptx search")]
    assert rc == 0 and len(searches) == 1 and "MVAL=16, NVAL=16, M=16, N=16]" in searches[0], out + err
    rc, out, err = run_cli("search", src, "-D", "MVAL=12", "--budget", "1", "--no-progress", "--db",
                           tmp_path / "b.db")
    assert rc == 2 and "no problem size meets the input_params constraints with MVAL=12" in err, err


def test_a_cxx_build_command_builds_looptx_c_with_its_c_sibling(tmp_path):
    src = tmp_path / "mm.c"
    src.write_text(MM % "g++ -O2 -std=c++11")
    rc, out, err = run_cli("search", src, "-D", "MVAL=8", "--budget", "2", "--no-progress")
    assert rc == 0 and "status: ok 2" in out, out + err
    assert "the build command names the C++ compiler 'g++': looptx's C is built with gcc" in err, err


def test_true_and_one_are_two_values_of_a_replayed_param(tmp_path):
    cache = {"device_name": "X", "kernel_name": "k", "tune_params_keys": ["b", "m"],
             "tune_params": {"b": [64, 128, 256], "m": ["test", 1, True, 2.45]}, "cache": {}}
    for b in (64, 128, 256):
        # (1 and True hash alike: a list of pairs, not a dict)
        for m, extra in (("test", 0.3), (1, 0.2), (True, 0.1), (2.45, 0.4)):
            key = f"{b},{m}"
            t = b / 100 + extra
            cache["cache"][key] = {"b": b, "m": m, "time": t, "times": [t], "compile_time": 1.0,
                                   "benchmark_time": 1.0, "framework_time": 0, "strategy_time": 0,
                                   "verification_time": 0, "timestamp": "2022-12-23 12:11:26+00:00"}
    path = tmp_path / "kt.json"
    path.write_text(json.dumps(cache))
    rc, out, err = run_cli("search", "--replay", path, "-a", "exhaustive", "--budget", "12", "--no-progress")
    assert rc == 0 and "rank 1 of 12" in out, out + err


def test_sigterm_stops_a_search_as_ctrl_c_does(tmp_path):
    """`timeout` and batch systems send SIGTERM to looptx alone: the best so far is written,
    one line says so, exit 143."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from test_probe16_search import _n_evals, one_line, write
    src = write(tmp_path, search="")
    src.write_text(src.read_text().replace("repetitions = 1", "repetitions = 400").replace("[12]", "[1500]"))
    db = tmp_path / "t.db"
    cmd = [os.path.join(os.path.dirname(sys.executable), "looptx"), "search", str(src), "-a", "random",
           "--budget", "6", "--db", str(db), "--no-progress"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None and _n_evals(db) < 1:
        time.sleep(0.05)
    assert proc.poll() is None and _n_evals(db) >= 1, proc.communicate()[1]
    os.kill(proc.pid, signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    line = one_line(err)
    assert proc.returncode == 143 and "search terminated (SIGTERM)" in line and "--resume" in line, out + err
    assert (tmp_path / "k.best.c").exists()


def test_the_report_shows_the_errors_and_an_edited_space_is_said_at_once(tmp_path):
    src = tmp_path / "mm.c"
    src.write_text(MM % "gcc -O2 -lno_such_library_here")
    db = tmp_path / "e.db"
    rc, out, err = run_cli("search", src, "-D", "MVAL=8", "--budget", "2", "--no-progress", "--db", db)
    assert rc == 1 and "no_such_library_here" in err, err
    rc, out, err = run_cli("report", db)
    assert rc == 0 and "compile_error x2 (first: eval 0):" in out and "no_such_library_here" in out, out + err
    src.write_text((MM % "gcc -O2").replace("param U[] = [1, 2];", "param U[] = [1, 2, 3];"))
    rc, out, err = run_cli("search", src, "-D", "MVAL=8", "--budget", "2", "--no-progress", "--db", db)
    assert rc == 2 and "with another search space" in err and "--resume" not in err, err


def test_the_kernel_tuner_export_follows_its_cache_schema(tmp_path):
    from looptx.search.replay import load_recorded_space, write_cache
    from looptx.search.space import Param, Space
    from looptx.search.base import Result
    sp = Space([Param.of("T", [1, 2, 4])])
    path = tmp_path / "kt.json"
    write_cache(path, sp, [({"T": t}, Result("ok", 0.001 * t), {}) for t in (1, 2, 4)],
                device_name="cpu", kernel_name="mm", problem_size={"M": 100, "N": 50})
    raw = json.loads(path.read_text())
    assert raw["schema_version"] == "1.0.0" and raw["problem_size"] == [100, 50], raw
    assert raw["looptx_problem_size"] == {"M": 100, "N": 50}
    assert len(load_recorded_space(path).space.valid_points()) == 3


def test_a_value_a_step_rejects_is_left_out_before_measuring(tmp_path):
    """Orio ranges often start at 0: `Unroll(ufactor=0)` fails at the recipe for every point
    that holds it, so it is left out with a note instead of costing the budget."""
    src = tmp_path / "mm.c"
    src.write_text(MM.replace("param U[] = [1, 2];", "param U[] = [0, 1, 2];") % "gcc -O2")
    rc, out, err = run_cli("search", src, "-D", "MVAL=8", "--budget", "3", "--no-progress")
    assert rc == 0 and "status: ok 2" in out and "invalid" not in out, out + err
    assert ("mm.c:3:34: note: param 'U': value 0 is left out of the search, as the recipe rejects "
            "it: ufactor must be an integer >= 1, got 0") in err, err
