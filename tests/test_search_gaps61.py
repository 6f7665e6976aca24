"""Gaps of `looptx search` found by probe 147, end to end: searcher options that crashed or
hung the search, a damaged build cache, compilers left running by an interrupted search, a
second signal at exit, hand-edited database points, and advice that did not work."""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
import warnings

import pytest

from conftest import run_cli

pytestmark = pytest.mark.usefixtures("private_build_cache")

SMALL = """\
/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O1'; }
  def performance_params {
    param TI[] = [1, 4, 8, 16];
    param UF[] = [1, 2, 3, 4];
  }
  def input_params { param N[] = [64]; }
  def input_vars {
    decl static double A[N] = random;
    decl static double B[N] = 0;
  }
  def search {
    arg algorithm = 'Exhaustive';
    arg total_runs = 3;
  }
) @*/
int i;
/*@ begin CHiLL (
  tile(0,"i",TI,"ii")
  unroll(0,"i",UF)
) @*/
for (i = 0; i < N; i++)
  B[i] = 2.0 * A[i] + 1.0;
/*@ end @*/
/*@ end @*/
"""


def small(tmp_path, text=SMALL):
    src = tmp_path / "s.c"
    src.write_text(text)
    return src


@pytest.fixture
def kt_cache(tmp_path):
    """A recorded space of 144 points with one smooth valley: a replay measures nothing."""
    vals = list(range(12))
    cache = {f"{x},{y}": {"X": x, "Y": y, "time": 1.0 + (x - 7) ** 2 + 0.5 * (y - 3) ** 2}
             for x in vals for y in vals}
    path = tmp_path / "kt.json"
    path.write_text(json.dumps({"tune_params_keys": ["X", "Y"], "tune_params": {"X": vals, "Y": vals},
                                "objective": "time", "cache": cache}))
    return path


# -- G1: non-finite float options ------------------------------------------------------------
@pytest.mark.parametrize("algo, option", [
    ("simplex", "reflection_coef=1e400"), ("simplex", "expansion_coef=[3, 1e400]"),
    ("simplex", "contraction_coef=10**400"), ("pso", "w=nan"), ("pso", "c2=1e400"),
    ("surf+", "kappa=1e400"), ("surf+", "xi=nan")])
def test_a_non_finite_option_is_refused_before_anything_runs(kt_cache, algo, option):
    """Probe 147 G1: 1e400 (inf) was accepted and crashed after measuring ('cannot convert
    float NaN to integer'), with numpy's warnings on stderr."""
    rc, out, err = run_cli("search", "--replay", kt_cache, "-a", algo, "-O", option, "--budget", 20,
                           "--no-progress")
    assert rc == 2 and out == "", out + err
    assert err.count("\n") == 1 and f"--option {option}: " in err and "must be a finite number" in err, err


def test_a_non_finite_arg_of_def_search_is_refused_at_its_line(tmp_path):
    src = small(tmp_path, SMALL.replace("arg algorithm = 'Exhaustive';",
                                        "arg algorithm = 'Simplex'; arg simplex_reflection_coef = 1e400;"))
    rc, out, err = run_cli("search", src, "--no-progress")
    assert rc == 2 and err.count("\n") == 1, out + err
    assert err.startswith(f"{src}:13:") and "'simplex_reflection_coef' of searcher 'simplex' must be a " \
        "finite number, got inf" in err, err


@pytest.mark.parametrize("algo, options", [
    ("simplex", ["reflection_coef=1e300", "expansion_coef=1e308"]),
    ("pso", ["w=1e300", "c1=1e308", "c2=1e308"]),
    ("surf+", ["acquisition=ei", "xi=1.7e308"])])
def test_huge_finite_options_search_without_a_warning(kt_cache, algo, options):
    """1e300 overflowed numpy's arithmetic: RuntimeWarnings on stderr, and NaN coordinates."""
    args = [a for o in options for a in ("-O", o)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # a warning would reach the user's stderr
        rc, out, err = run_cli("search", "--replay", kt_cache, "-a", algo, *args, "--budget", 40,
                               "--no-progress")
    assert rc == 0 and "Warning" not in err, out + err


# -- G2: integer options past what the search can take ----------------------------------------
@pytest.mark.parametrize("algo, option, limit", [
    ("surf", "min_samples_leaf=99999999999999999999", "2**63-1"),
    ("surf", "n_trees=99999999999999999999", "10000"),
    ("surf+", "feas_trees=10001", "10000"),
    ("surf+", "pool_size=10**12", "1000000"),
    ("genetic", "pop_size=100000", "10000"),
    ("random", "local_distance=2**63", "2**63-1")])
def test_an_integer_option_past_its_limit_is_refused(kt_cache, algo, option, limit):
    """Probe 147 G2: min_samples_leaf=1e20 was an OverflowError after measuring, n_trees=1e20
    a search that never ended."""
    rc, out, err = run_cli("search", "--replay", kt_cache, "-a", algo, "-O", option, "--no-progress")
    assert rc == 2 and err.count("\n") == 1, out + err
    assert f"--option {option}: " in err and f"must be at most {limit}, got" in err, err


def test_the_largest_leaf_size_is_a_forest_of_single_leaves(kt_cache):
    rc, out, err = run_cli("search", "--replay", kt_cache, "-a", "surf", "-O",
                           f"min_samples_leaf={2 ** 63 - 1}", "--budget", 14, "--no-progress")
    assert rc == 0, out + err


# -- G5: a damaged build cache ---------------------------------------------------------------
def test_a_damaged_cached_build_is_built_again_not_a_failed_point(tmp_path, monkeypatch):
    """Probe 147 G5: a truncated or foreign `.so` in the cache made every later point a
    runtime_error, recorded in the database as the variant's result."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("LOOPTX_CACHE_DIR", str(cache))
    src = small(tmp_path)
    rc, out, err = run_cli("search", src, "--no-progress", "--db", tmp_path / "a.db")
    assert rc == 0 and "status: ok 3" in out, out + err
    other = tmp_path / "other.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-x", "c", "-", "-o", other],
                   input="void lx_other(void) {}\n", text=True, check=True)
    damages = [lambda b: b"",                                   # file too short
               lambda b: os.urandom(3000),                      # invalid ELF header
               lambda b: other.read_bytes(),                    # undefined symbol: lx_region
               lambda b: b[:1000]]                              # cut short
    builds = sorted(cache.glob("lx_*.so"))
    assert len(builds) >= 3
    for i, b in enumerate(builds):
        b.write_bytes(damages[i % len(damages)](b.read_bytes()))
    rc, out, err = run_cli("search", src, "--no-progress", "--db", tmp_path / "b.db")
    assert rc == 0 and "status: ok 3" in out, out + err
    with sqlite3.connect(tmp_path / "b.db") as c:
        assert {s for s, in c.execute("SELECT status FROM evaluations")} == {"ok"}


# -- G3: compilers stopped with the search -----------------------------------------------------
SLOW_BUILD = """\
/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O3'; }
  def performance_params { param UI[] = [32, 48]; param UJ[] = [16, 24]; }
  def input_params { param N[] = [96]; }
  def input_vars {
    decl static double A[N][N] = random;
    decl static double B[N][N] = random;
    decl static double C[N][N] = 0;
  }
  def search { arg algorithm = 'Exhaustive'; arg total_runs = 4; }
) @*/
int i, j, k;
/*@ begin CHiLL ( unroll(0,"j",UJ) unroll(0,"i",UI) ) @*/
for (i = 0; i < N; i++)
  for (j = 0; j < N; j++)
    for (k = 0; k < N; k++)
      C[i][j] = C[i][j] + A[i][k] * B[k][j];
/*@ end @*/
/*@ end @*/
"""


def _compilers_of(cache, besides=None) -> list[str]:
    """The variant builds (gcc -O3 and its cc1; the reference is built at -O1) by the cache
    folder on their command line, those of the search process itself (`besides`: its checks
    of the original) left out."""
    out = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                args = f.read().decode(errors="replace").split("\0")
            with open(f"/proc/{pid}/stat", "rb") as f:
                ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if any(str(cache) in a for a in args) and "-O3" in args and ppid != besides:
            out.append(" ".join(args))
    return out


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_an_interrupted_search_stops_its_compilers_and_leaves_no_temp_build(tmp_path, sig):
    """Probe 147 G3: gcc -O3 of a big unroll ran on, in a session of its own, after the search
    ended, and left its `lx_<hash>.so.<pid>_<tag>.so` in the cache for good."""
    cache = tmp_path / "cache"
    src = small(tmp_path, SLOW_BUILD)
    env = dict(os.environ, LOOPTX_CACHE_DIR=str(cache))
    proc = subprocess.Popen([sys.executable, "-m", "looptx", "search", str(src), "--no-progress"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        # a variant's build in a worker, one that takes a while: the search has started
        deadline, building = time.monotonic() + 60, False
        while not building and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
            if _compilers_of(cache, proc.pid):
                time.sleep(0.3)
                building = bool(_compilers_of(cache, proc.pid))
        assert building, "no build started"
        proc.send_signal(sig)
        err = proc.communicate(timeout=60)[1]
    finally:
        proc.kill()
    assert proc.returncode == (143 if sig == signal.SIGTERM else 130), err
    time.sleep(0.2)
    assert _compilers_of(cache) == []
    assert [p.name for p in cache.iterdir() if ".so." in p.name or ".c." in p.name] == []


# -- G4: a second signal while the search ends --------------------------------------------------
def test_a_sigterm_after_ctrl_c_at_exit_does_not_change_the_status(tmp_path):
    """Probe 147 G4: Ctrl-C, then SIGTERM 0.1 s later, ended the process as killed by SIGTERM:
    Python's finalization puts its handlers back to SIG_DFL while the process tears down."""
    script = tmp_path / "two_signals.py"
    script.write_text(textwrap.dedent("""\
        import os, signal, sys
        from looptx.search.command import Terminated
        from looptx.search.lifecycle import guarded

        class SigtermAtTeardown:
            # runs as the interpreter clears its modules, after its signal handling is shut down
            def __del__(self):
                os.kill(os.getpid(), signal.SIGTERM)

        def body(args):
            try:
                os.kill(os.getpid(), signal.SIGINT)
                signal.pause()
            except KeyboardInterrupt:
                return 130

        keep = SigtermAtTeardown()
        sys.exit(guarded(body, None, Terminated))
        """))
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 130, (p.returncode, p.stderr)


# -- G6: a hand-edited point ---------------------------------------------------------------------
@pytest.mark.parametrize("point, what", [('{"TI": 4}', "lacks UF"),
                                         ('{"TI": 5, "UF": 2}', "has TI = 5, not one of its values"),
                                         ('{"TI": 4, "UF": 2, "X": 1}', "holds X, no param of the search")])
def test_a_point_outside_the_recorded_space_is_database_damage(tmp_path, point, what):
    """Probe 147 G6: `report` showed such a point as the best, and `--resume` measured, then
    failed with an error at the source file."""
    src = small(tmp_path)
    db = tmp_path / "pm.db"
    rc, out, err = run_cli("search", src, "--no-progress", "--db", db, "-a", "random", "--budget", 2)
    assert rc == 0, out + err
    with sqlite3.connect(db) as c:
        c.execute("UPDATE evaluations SET point = ?, time = 1e-9 WHERE eval_index = 1", (point,))
    line = f"{db}: error: '{db}' is damaged: the point of evaluation 1 of search "
    rc, out, err = run_cli("report", db)
    assert rc == 2 and err.count("\n") == 1 and err.startswith(line) and what in err, out + err
    rc, out, err = run_cli("search", src, "--no-progress", "--db", db, "-a", "random", "--resume",
                           "--budget", 4)
    assert rc == 2 and err.count("\n") == 1 and err.startswith(line) and what in err, out + err
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT COUNT(*) FROM evaluations").fetchone()[0] == 2


# -- G7: messages -----------------------------------------------------------------------------
def test_a_stop_for_one_build_error_says_how_to_run_again(tmp_path):
    """Probe 147 G7: 'fix it and run again' was refused (the database records the build
    command) and so was --resume."""
    src = small(tmp_path, SMALL.replace("gcc -O1", "gcc -O1 -lnosuchlib").replace("total_runs = 3", "total_runs = 12"))
    db = tmp_path / "lib.db"
    rc, out, err = run_cli("search", src, "--no-progress", "--db", db, "-a", "random")
    assert "the last 5 builds failed with the same error" in out, out + err
    assert f"fix it and run again with a new --db, or remove {db} first" in out, out
    src.write_text(src.read_text().replace(" -lnosuchlib", ""))
    rc, out, err = run_cli("search", src, "--no-progress", "--db", db)
    assert rc == 2 and "pick another --db, or remove the database" in err, out + err


@pytest.mark.parametrize("command", ["search", "report"])
@pytest.mark.parametrize("target, what", [("folder", "is a folder, not a results database"),
                                          ("/dev/null", "is not a regular file")])
def test_a_db_that_is_no_file_says_what_it_is(tmp_path, command, target, what):
    """Probe 147 G7: a folder was 'not a looptx results database (unable to open database
    file)'; /dev/null a 'disk I/O error' after the search had started."""
    if target == "folder":
        target = tmp_path / "adir"
        target.mkdir()
    args = ("search", small(tmp_path), "--no-progress", "--db", target) if command == "search" \
        else ("report", target)
    rc, out, err = run_cli(*args)
    assert rc == 2 and err.count("\n") == 1 and f"'{target}' {what}" in err, out + err
    assert "disk I/O" not in err and "; (" not in err
