"""Findings of probe 16 on `looptx search`: provenance after --resume, resume targets, -D on
resume, searcher names, time limits, failing constraints, default budget, float params, and
Ctrl-C.  Each search is tiny (budget <= 4, N = 12)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import run_cli as cli

SRC = """/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O1'; }
  def performance_counter { arg repetitions = 1; }
  def performance_params {
    param TI[] = [1, 4, 8%s];
    param UF[] = [1, 2];
%s  }
  def input_params { param N[] = [12]; }
  def input_vars {
    decl static double A[N][N] = random;
    decl static double B[N][N] = 0;
  }
  def search { arg algorithm = 'Randomsearch';%s }
) @*/
int i, j;
/*@ begin CHiLL ( tile(0,"i",TI,"ii") unroll(0,"j",UF) ) @*/
for (i = 1; i < N - 1; i++)
  for (j = 1; j < N - 1; j++)
    B[i][j] = 0.25 * (A[i - 1][j] + A[i + 1][j]);
/*@ end @*/
/*@ end @*/
"""


def write(tmp_path, name="k.c", extra_value="", constraint="", search=" arg total_runs = 3;"):
    path = tmp_path / name
    path.write_text(SRC % (extra_value, constraint, search))
    return path


def one_line(err: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def search(*argv):
    return cli("search", *argv, "--no-progress")


# -- #4 provenance after --resume ---------------------------------------------------------

def test_best_header_names_the_searchers_that_ran(tmp_path):
    src, db = write(tmp_path), tmp_path / "r.db"
    assert search(src, "-a", "annealing", "--budget", 2, "--seed", 5, "--db", db)[0] == 0
    assert search(src, "--budget", 3, "--resume", "--db", db)[0] == 0
    head = (tmp_path / "k.best.c").read_text().split("\n")[1]
    assert "(annealing, backend c)" in head, head
    assert search(src, "-a", "pso", "--budget", 4, "--resume", "--db", db)[0] == 0
    head = (tmp_path / "k.best.c").read_text().split("\n")[1]
    assert "(annealing then pso, backend c)" in head, head


# -- #9, #14 what --resume and --db need ----------------------------------------------------

def test_resume_without_a_database_is_an_error(tmp_path):
    src = write(tmp_path)
    rc, _, err = search(src, "--budget", 2, "--resume", "--db", tmp_path / "none.db")
    assert rc == 2
    assert "none.db' does not exist, so there is no search to continue" in one_line(err)
    assert not (tmp_path / "none.db").exists()


def test_resume_of_another_files_database_is_an_error(tmp_path):
    a, b, db = write(tmp_path, "a.c"), write(tmp_path, "b.c"), tmp_path / "r.db"
    assert search(a, "-a", "random", "--budget", 1, "--db", db)[0] == 0
    rc, _, err = search(b, "--budget", 2, "--resume", "--db", db)
    assert rc == 2
    line = one_line(err)
    assert "holds no search of b.c to continue" in line and "a.c" in line


def test_db_in_a_missing_folder(tmp_path):
    src = write(tmp_path)
    rc, out, err = search(src, "--budget", 1, "--db", tmp_path / "nodir" / "x.db")
    assert rc == 2 and out == ""
    assert "the folder" in one_line(err) and "does not exist" in err


# -- #10 -D on resume ---------------------------------------------------------------------

def test_resume_names_the_define_of_the_first_run(tmp_path):
    src, db = write(tmp_path), tmp_path / "d.db"
    assert search(src, "-D", "UF=2", "-a", "random", "--budget", 1, "--db", db)[0] == 0
    rc, _, err = search(src, "--budget", 2, "--resume", "--db", db)
    assert rc == 2
    line = one_line(err)
    assert "-D UF=2 was given to the first run" in line and "resume with -D UF=2" in line
    assert "annotations" not in line


# -- #11 searcher names ---------------------------------------------------------------------

def test_randomlocal_is_named_among_the_searchers():
    from looptx.search.registry import available_searchers
    assert "randomlocal" in available_searchers(hidden=True)
    assert "randomlocal" not in available_searchers()      # the per-searcher test matrices


def test_searcher_typo_gets_did_you_mean(tmp_path):
    rc, _, err = search(write(tmp_path), "-a", "simplx", "--budget", 1)
    assert rc == 2 and "did you mean 'simplex'" in one_line(err) and "randomlocal" in err


@pytest.mark.parametrize("name", ["Direct", "Firefly"])
def test_orio_searchers_looptx_lacks(tmp_path, name):
    src = write(tmp_path)
    src.write_text(src.read_text().replace("'Randomsearch'", f"'{name}'"))
    rc, _, err = search(src, "--budget", 1)
    line = one_line(err)
    assert rc == 2 and f"'{name}' is an Orio searcher" in line and "use one of: " in line


def test_msimplex_runs_as_simplex_with_a_note(tmp_path):
    rc, out, err = search(write(tmp_path), "-a", "MSimplex", "--budget", 2, "--db", tmp_path / "m.db")
    assert rc == 0 and ": simplex, budget 2" in out
    assert "MSimplex runs as simplex" in err


# -- #6 time limit ------------------------------------------------------------------------

def test_time_limit_shorter_than_setup_measures_one_point(tmp_path):
    rc, out, err = search(write(tmp_path), "-a", "random", "--budget", 4, "--time-limit", 0.01,
                          "--db", tmp_path / "t.db")
    assert rc == 0, err
    assert "no variant passed" not in err
    assert "time limit of 0.01 s reached: stopped after 1 of 4 evaluations" in out


# -- #7 failing constraint ---------------------------------------------------------------

@pytest.mark.parametrize("expr, cause", [("(TI <= 4) and (UF / 0 > 1)", "division by zero"),
                                         ('(TI <= 4) and (TI < "a")', "'<' not supported")])
def test_constraint_that_fails_everywhere_it_matters(tmp_path, expr, cause):
    src = write(tmp_path, constraint=f"    constraint c = {expr};\n")
    rc, _, err = search(src, "--budget", 1, "--db", tmp_path / "c.db")
    line = one_line(err)
    assert rc == 2 and line.startswith(f"{src}:7:")
    assert "constraint 'c' cannot be evaluated" in line and cause in line


# -- #12 default budget --------------------------------------------------------------------

def test_default_budget_is_announced(tmp_path):
    src = write(tmp_path, search="")
    rc, out, _ = search(src, "-D", "TI=4", "-D", "UF=2", "--db", tmp_path / "b.db")
    assert rc == 0
    assert "budget 1 (default: no total_runs or --budget)" in out


# -- #16 a float among int values --------------------------------------------------------

def test_float_among_int_values_is_reported_at_the_param(tmp_path):
    src = write(tmp_path, extra_value=", 2.5")
    rc, out, err = search(src, "--budget", 2, "--db", tmp_path / "f.db")
    line = one_line(err)
    assert rc == 2 and line.startswith(f"{src}:5:")
    assert "param 'TI' has the value 2.5, which is not an integer" in line
    assert "true division" not in line


# -- #5 Ctrl-C -------------------------------------------------------------------------------

@pytest.mark.parametrize("workers", [None, 2])
def test_interrupt_prints_one_line_and_keeps_the_results(tmp_path, workers):
    """The budget is the whole space (6 points) and a point takes about a second, so when the
    first result is in the database at least four are still to come, however loaded the
    machine: the SIGINT always lands mid-search."""
    src = write(tmp_path, search="")
    src.write_text(src.read_text().replace("repetitions = 1", "repetitions = 400")
                   .replace("[12]", "[1500]"))
    db = tmp_path / "i.db"
    cmd = [os.path.join(os.path.dirname(sys.executable), "looptx"), "search", str(src), "-a", "random",
           "--budget", "6", "--db", str(db), "--no-progress"] + (["--workers", str(workers)] if workers else [])
    # as a shell starts it: SIGINT at its default and unblocked, whatever this test process
    # inherited (a SIGINT that the runner's process ignores or blocks would be ignored by the
    # search too, which then ends normally)
    inherited = (signal.getsignal(signal.SIGINT), signal.pthread_sigmask(signal.SIG_BLOCK, []))
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, cwd=tmp_path, preexec_fn=_default_sigint)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None and _n_evals(db) < 1:
        time.sleep(0.05)
    assert proc.poll() is None, "the search ended before its first result was read: " + proc.communicate()[1]
    assert _n_evals(db) >= 1, "no result in 240 s"
    os.killpg(proc.pid, signal.SIGINT)                           # as Ctrl-C: the whole group
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, f"{out}{err}\n(SIGINT in the test process: {inherited})"
    assert "Traceback" not in err and "WARNING" not in err and "ERROR" not in err, err
    line = one_line(err)
    assert "search interrupted" in line and str(db.name) in line and "--resume" in line
    assert (tmp_path / "k.best.c").exists() and "best variant so far written" in line


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _n_evals(db) -> int:
    import sqlite3
    if not db.exists():
        return 0                    # connecting would create the file before the search does
    try:
        with sqlite3.connect(str(db), timeout=1) as c:
            return c.execute("SELECT COUNT(*) FROM evaluations").fetchone()[0]
    except sqlite3.Error:
        return 0


# -- #13 a param no step uses ---------------------------------------------------------------

def test_param_no_step_uses_is_warned_about_at_its_line(tmp_path):
    src = write(tmp_path, constraint="    param PAR[] = [False, True];\n    constraint c = (PAR or TI > 1);\n")
    rc, _, err = search(src, "--budget", 2, "--db", tmp_path / "u.db")
    assert rc == 0, err
    line = [ln for ln in err.splitlines() if "PAR" in ln]
    assert len(line) == 1, err
    assert line[0].startswith(f"{src}:7:11: warning: param 'PAR' is used by no step"), line[0]
    assert "measured 2 times over" in line[0]
    assert "'TI'" not in err and "'UF'" not in err


def test_param_named_like_a_variable_of_the_code_is_warned_about_too(tmp_path):
    # `i` is the region's loop variable and a string in the CHiLL commands, not a use
    src = write(tmp_path, constraint="    param i[] = [1, 2];\n")
    rc, _, err = search(src, "--budget", 2, "--db", tmp_path / "u.db")
    assert rc == 0, err
    assert f"{src}:7:11: warning: param 'i' is used by no step" in err, err
    assert "'TI'" not in err and "'UF'" not in err


def test_param_in_the_build_command_is_used(tmp_path):
    src = write(tmp_path, constraint="    param OPT[] = ['-O1', '-O2'];\n")
    src.write_text(src.read_text().replace("'gcc -O1'", "'gcc @OPT'"))
    rc, _, err = search(src, "--budget", 2, "--db", tmp_path / "u.db")
    assert rc == 0, err
    assert "used by no step" not in err, err
