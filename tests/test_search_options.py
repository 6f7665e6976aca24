"""Searcher options of `looptx search`: Orio's spellings with Orio's meaning (annealing's and
Mlsearch's local_distance), `--option KEY=VALUE` (annotation, replay, resume), searcher plugins
that do not import, and workers orphaned by a SIGKILLed search."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import run_cli as cli

from looptx.search.base import Result
from looptx.search.registry import available_searchers, get_searcher
from looptx.search.db import ResultsDB
from looptx.search.replay import load_recorded_space, replay
from looptx.search.space import Param, Space, point_key

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent
CACHE = ROOT / "search" / "cpu_matmul.json.gz"          # 31 valid points, in the repo


def annotated(search: str) -> str:
    """A small Orio fragment (4 points) with the given `def search` body."""
    return f"""/*@ begin PerfTuning (
  def build {{ arg build_command = 'gcc -O1'; }}
  def performance_counter {{ arg repetitions = 1; }}
  def performance_params {{
    param T1[] = [16, 32];
    param U[] = [1, 2];
  }}
  def input_params {{ param N[] = [32]; }}
  def input_vars {{
    decl static double A[N][N] = random;
    decl static double B[N][N] = random;
  }}
  def search {{ {search} }}
) @*/
int i, j;
/*@ begin CHiLL (
  tile(0,"i",T1,"ii")
  unroll(0,"j",U)
) @*/
for (i = 0; i < N; i++)
  for (j = 0; j < N; j++)
    B[i][j] = B[i][j] + A[j][i];
/*@ end @*/
/*@ end @*/
"""


def position(text: str, needle: str) -> tuple[int, int]:
    for n, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return n, line.index(needle) + 1
    raise AssertionError(needle)


def stored(db) -> tuple[str, dict]:
    with ResultsDB(db, create=False) as rdb:
        info = rdb.searches()[0]
    return info.searcher, info.searcher_options


def lines(err: str) -> list[str]:
    return [ln for ln in err.splitlines() if ln.strip()]


# -- 1. Orio's local_distance ------------------------------------------------------------------

def test_orio_annealing_local_distance_zero_is_accepted(tmp_path):
    """Orio's default `annealing_local_distance = 0` (no final local search) runs."""
    f = tmp_path / "mm.c"
    f.write_text(annotated("arg algorithm = 'Annealing'; arg total_runs = 1; "
                           "arg annealing_local_distance = 0;"))
    rc, out, err = cli("search", f, "--no-progress", "--db", tmp_path / "t.db")
    assert rc == 0, out + err
    assert err == ""
    assert stored(tmp_path / "t.db") == ("annealing", {"annealing_local_distance": 0,
                                                       "_options_version": 2})


@pytest.mark.parametrize("search, arg, message", [
    ("arg algorithm = 'Annealing'; arg annealing_local_distance = -1;", "annealing_local_distance",
     "option 'local_distance' of searcher 'annealing' must be 0 or more"),
    # a misspelled arg names the closest one
    ("arg algorithm = 'Randomsearch'; arg total_run = 4;", "total_run",
     "unknown option 'total_run' for searcher 'random' (did you mean 'total_runs'?) ('total_runs' "
     "is an arg of every search (--budget on the command line); the options of random: "),
])
def test_a_bad_search_arg_is_located(tmp_path, search, arg, message):
    text = annotated(search)
    f = tmp_path / "mm.c"
    f.write_text(text)
    rc, out, err = cli("search", f, "--no-progress", "--db", tmp_path / "t.db")
    line, col = position(text, arg)
    assert rc == 2 and len(lines(err)) == 1, err
    assert err.startswith(f"{f}:{line}:{col}: error: {message}"), err


def _annealing(space, **opts):
    return get_searcher("Annealing")(space, seed=3, max_evals=200, batch_size=100,
                                     init_samples=1, trials_limit=1,
                                     final_temperature_ratio=0.99, **opts)


def _cost(point) -> float:
    return 1e-3 * (1 + (point["x"] - 4) ** 2 + (point["y"] - 5) ** 2)


def _step(s):
    asked = s.ask()
    for p in asked:
        s.tell(p, Result("ok", _cost(p)))
    return asked


def test_annealing_local_distance_is_orios_final_local_search():
    """Orio's local_distance d > 0: when an annealing run ends, every neighbour within d of the
    run's best point is measured (then around a better one, while one is found); d = 0 goes
    straight to the next random start, as Orio's default does."""
    space = Space([Param.of("x", list(range(9))), Param.of("y", list(range(11)))])
    for d in (1, 2):
        s = _annealing(space, annealing_local_distance=d)
        told = _step(s) + _step(s)           # the random start, one annealing move
        assert len(told) == 2
        best = min(told, key=_cost)
        local = _step(s)
        want = {point_key(p) for p in space.neighbours(best, d)} - {point_key(p) for p in told}
        assert {point_key(p) for p in local} == want and len(local) == len(want) > 1
        # steepest descent: the next request is around the best point found so far
        nxt = min(told + local, key=_cost)
        if _cost(nxt) < _cost(best):
            again = {point_key(p) for p in _step(s)}
            around = {point_key(p) for p in space.neighbours(nxt, d)}
            assert again and again <= around
    s = _annealing(space, local_distance=0)
    _step(s), _step(s)
    assert len(_step(s)) == 1                # a new random start, no local search


def test_annealing_default_path_is_unchanged():
    """looptx's default annealing (moves of one index step, no final local search) follows the
    path it followed before Orio's local_distance was given its meaning."""
    rec = load_recorded_space(CACHE)
    path = [json.dumps(p, sort_keys=True) for p, _, _ in
            replay(rec, "annealing", seed=0, max_evals=12)]
    assert path == [
        '{"TI": 1, "TJ": 32, "UF": 2}', '{"TI": 8, "TJ": 16, "UF": 2}',
        '{"TI": 16, "TJ": 8, "UF": 4}', '{"TI": 8, "TJ": 32, "UF": 2}',
        '{"TI": 1, "TJ": 16, "UF": 2}', '{"TI": 1, "TJ": 16, "UF": 1}',
        '{"TI": 1, "TJ": 16, "UF": 4}', '{"TI": 1, "TJ": 32, "UF": 4}',
        '{"TI": 8, "TJ": 16, "UF": 1}', '{"TI": 8, "TJ": 8, "UF": 1}',
        '{"TI": 1, "TJ": 8, "UF": 1}', '{"TI": 1, "TJ": 8, "UF": 2}']
    same = replay(rec, "annealing", seed=0, max_evals=12,
                  options={"local_distance": 0, "move_distance": 1})
    assert [json.dumps(p, sort_keys=True) for p, _, _ in same] == path


def test_orio_mlsearch_local_distance_is_ignored_with_one_located_warning(tmp_path):
    text = annotated("arg algorithm = 'Mlsearch'; arg total_runs = 1; "
                     "arg mlsearch_local_distance = 1;")
    f = tmp_path / "ml.c"
    f.write_text(text)
    rc, out, err = cli("search", f, "--no-progress", "--db", tmp_path / "t.db")
    assert rc == 0, out + err
    line, col = position(text, "mlsearch_local_distance")
    assert lines(err) == [f"{f}:{line}:{col}: warning: option 'mlsearch_local_distance' has no "
                          "counterpart in searcher 'surf' (Orio's Mlsearch accepts it but never "
                          "uses it); ignored"], err
    # checked as Orio checks it
    f.write_text(text.replace("mlsearch_local_distance = 1", "mlsearch_local_distance = -2"))
    rc, out, err = cli("search", f, "--no-progress", "--db", tmp_path / "u.db")
    assert rc == 2 and len(lines(err)) == 1, err
    assert err.startswith(f"{f}:{line}:{col}: error: option 'mlsearch_local_distance'"), err


def test_surf_plus_does_not_take_mlsearch_options():
    with pytest.raises(Exception, match="unknown option 'local_distance'"):
        get_searcher("surf+")(Space([Param.of("x", [1, 2])]), local_distance=1)


# -- 2. a searcher plugin that does not import -----------------------------------------------

@pytest.fixture
def broken_plugin(tmp_path, monkeypatch):
    site = tmp_path / "site"
    info = site / "probe_plugin-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: probe-plugin\nVersion: 0.1\n")
    (info / "RECORD").write_text("")
    (info / "entry_points.txt").write_text(
        "[looptx.searchers]\nmyrand = probe_plugin:MyRand\n"
        "brokenplug = probe_plugin_missing:X\nforgot = probe_plugin:Forgot\n")
    (site / "probe_plugin.py").write_text(textwrap.dedent("""
        from looptx.search.base import Searcher

        class MyRand(Searcher):
            name = "myrand"

            def _propose(self, n):
                return self._random_unseen(n)

        class Forgot(Searcher):
            def propose(self, n):          # (a slip: the abstract method is _propose)
                return self._random_unseen(n)
    """))
    monkeypatch.syspath_prepend(str(site))
    return site


def test_selecting_a_plugin_that_does_not_import_is_one_line_exit_2(broken_plugin):
    rc, out, err = cli("search", "--replay", CACHE, "-a", "brokenplug", "--budget", 2)
    assert rc == 2 and len(lines(err)) == 1, err
    assert "internal error" not in err and "please report" not in err
    assert err.strip() == (
        "looptx search: error: searcher plugin 'brokenplug' (entry point brokenplug = probe_plugin_missing:X "
        "of probe-plugin 0.1) cannot be loaded from module 'probe_plugin_missing': "
        "ModuleNotFoundError: No module named 'probe_plugin_missing' (fix the plugin or "
        "uninstall it: pip uninstall probe-plugin)")


def test_a_plugin_that_leaves_propose_abstract_is_the_plugins_error(broken_plugin):
    """Probe 225 G2: it was looptx's internal error, asking to be reported."""
    rc, out, err = cli("search", "--replay", CACHE, "-a", "forgot", "--budget", 2)
    assert rc == 2 and len(lines(err)) == 1 and "internal error" not in err, err
    assert "searcher plugin 'forgot' (entry point forgot = probe_plugin:Forgot of probe-plugin 0.1) does not " \
           "define _propose" in err and "pip uninstall probe-plugin" in err, err
    rc, out, err = cli("search", "--list-searchers")
    assert "warning: searcher plugin 'forgot'" in err and "forgot" not in out, out + err


def test_a_broken_plugin_does_not_stop_other_searches(broken_plugin, tmp_path):
    for name in ("surf+", "myrand"):
        rc, out, err = cli("search", "--replay", CACHE, "-a", name, "--budget", 3)
        assert rc == 0 and err == "", err
    # named in an annotation: located at its arg
    text = annotated("arg algorithm = 'brokenplug';")
    f = tmp_path / "p.c"
    f.write_text(text)
    rc, out, err = cli("search", f, "--no-progress", "--db", tmp_path / "t.db")
    line, col = position(text, "algorithm")
    assert rc == 2 and err.startswith(f"{f}:{line}:{col}: error: searcher plugin 'brokenplug'"), err


def test_list_searchers_warns_about_a_broken_plugin(broken_plugin):
    rc, out, err = cli("search", "--list-searchers")
    assert rc == 0
    assert "myrand" in out.split() and "brokenplug" not in out.split()
    assert len(lines(err)) == 2 and err.startswith("looptx: warning: searcher plugin 'brokenplug'")
    assert "brokenplug" in available_searchers()      # the hint of an unknown name still lists it


# -- 3. workers of a SIGKILLed search ----------------------------------------------------------

def test_workers_of_a_killed_search_exit_quietly(tmp_path):
    """A measurement that ends after its search was SIGKILLed has nobody to report to: the
    orphaned worker exits without a BrokenPipeError traceback on the terminal."""
    def start(i):
        log = tmp_path / f"measured{i}.log"
        drive_i = tmp_path / f"drive{i}.py"
        drive_i.write_text(textwrap.dedent(f"""
            import sys
            sys.path.insert(0, {str(TESTS)!r})
            from fakes.evaluators import FakeEvaluator, grid_space
            from looptx.search.registry import get_searcher
            from looptx.search.driver import run_search
            if __name__ == "__main__":
                space = grid_space(8, 8)
                s = get_searcher("random")(space, seed=0, max_evals=60)
                run_search(space, s, FakeEvaluator(log={str(log)!r}, sleep=0.06),
                           db={str(tmp_path / f'o{i}.db')!r}, search_key="k", budget=60,
                           progress=False)
        """))
        proc = subprocess.Popen([sys.executable, str(drive_i)], stderr=subprocess.PIPE,
                                text=True)
        return proc, log

    def count(log):
        return len(log.read_text().splitlines()) if log.exists() else 0

    # two searches: each is killed just after a measurement started, so that the measurement
    # ends in an orphan (its parent's watchdog may win the race now and then)
    runs = [start(i) for i in range(2)]
    t0 = time.monotonic()
    waiting = list(runs)
    while waiting and time.monotonic() - t0 < 60:
        for proc, log in list(waiting):
            n = count(log)
            if n >= 3:
                while count(log) == n and time.monotonic() - t0 < 60:
                    time.sleep(0.001)
                os.kill(proc.pid, signal.SIGKILL)
                waiting.remove((proc, log))
        time.sleep(0.002)
    assert not waiting, "the searches never measured"
    for proc, _ in runs:
        _, err = proc.communicate(timeout=15)         # EOF once the orphans are gone too
        assert proc.returncode == -signal.SIGKILL
        assert "Traceback" not in err and "BrokenPipeError" not in err, err[-1500:]


# -- 4. --option KEY=VALUE ---------------------------------------------------------------------

def test_option_reaches_the_replayed_searcher():
    """-O start_coord sets exhaustive's first point (value indices): budget 1 measures it."""
    rc, out, err = cli("search", "--replay", CACHE, "-a", "exhaustive", "--budget", 1,
                       "-O", "start_coord=[2, 1, 0]")
    assert rc == 0 and err == "", err
    rec = load_recorded_space(CACHE)
    want = {p.name: p.values[i] for p, i in zip(rec.space.params, (2, 1, 0))}
    assert f"best point {json.dumps(want)}" in out, out
    rc, out2, err = cli("search", "--replay", CACHE, "-a", "Exhaustive", "--budget", 1,
                        "--option", "exhaustive_start_coord=[2, 1, 0]")
    # the searcher's own time is measured, so it alone may differ
    def timeless(text):
        return re.sub(r"searcher \d+\.\d+ s", "searcher T s", text)
    assert rc == 0 and timeless(out2) == timeless(out), (out, out2)


@pytest.mark.parametrize("argv, message", [
    (["-a", "annealing", "-O", "cooling_factor=2"],
     "error: --option cooling_factor=2: option 'cooling_factor' of searcher 'annealing' must be "
     "in (0, 1), got 2.0 (default is 0.95)"),
    (["-a", "random", "-O", "annealing_cooling_factor=0.9"],
     "error: --option annealing_cooling_factor=0.9: unknown option 'annealing_cooling_factor' for "
     "searcher 'random' (valid options: local_distance, local_fraction)"),
    (["-a", "random", "-O", "local_fraction=many"],
     "error: --option local_fraction=many: option 'local_fraction' of searcher 'random' must be "
     "a number, got 'many' (default is 0.25)"),
    # (probe 182 O3: the hint was "(default is None)")
    (["-a", "simplex", "-O", "x0=[1, 2]"],
     "error: --option x0=[1, 2]: option 'x0' of searcher 'simplex' must be 3 value indices within "
     "range, got [1, 2] (leave the option out for the searcher's own choice)"),
    (["-O", "seed=3"], "error: --option seed=3: 'seed' is not a searcher option (use --seed)"),
    (["-O", "total_runs=3"],
     "error: --option total_runs=3: 'total_runs' is not a searcher option (use --budget)"),
    (["-O", "cooling_factor"],
     "error: bad --option 'cooling_factor' (write --option KEY=VALUE, e.g. --option "
     "cooling_factor=0.9)"),
    (["-O", "n_init=[1,"], "error: bad --option 'n_init=[1,': syntax error in '[1,'"),
    (["-O", "n_init=__import__('os').getcwd()"],
     "error: bad --option 'n_init=__import__('os').getcwd()': "),
])
def test_bad_option_is_one_line_exit_2(argv, message):
    rc, out, err = cli("search", "--replay", CACHE, "--budget", 2, *argv)
    assert rc == 2 and out == "" and len(lines(err)) == 1, err
    # (probe 169 G2: a replay's error is located; probe 175 G7: a bad -O is the command
    # line's, not the cache's, and names the command as argparse does)
    assert err.startswith(f"looptx search: {message}"), err


def test_option_values_are_never_evaluated_as_code(tmp_path):
    marker = tmp_path / "ran"
    rc, out, err = cli("search", "--replay", CACHE, "-a", "random",
                       "-O", f"local_distance=open({str(marker)!r}, 'w')")
    assert rc == 2 and not marker.exists()


def test_ignored_orio_option_on_the_command_line_is_one_warning():
    rc, out, err = cli("search", "--replay", CACHE, "-a", "Mlsearch", "--budget", 3,
                       "-O", "local_distance=1", "-O", "n_trees=5")
    assert rc == 0, err
    assert lines(err) == ["looptx: warning: --option local_distance=1: option 'local_distance' "
                          "has no counterpart in searcher 'surf' (Orio's Mlsearch accepts it but "
                          "never uses it); ignored"]


def test_option_wins_over_the_annotation_and_resume_warns_when_it_changes(tmp_path):
    # the annotation's value is out of range: the command line's replaces it, under another
    # spelling of the same option
    f = tmp_path / "an.c"
    f.write_text(annotated("arg algorithm = 'Annealing'; arg total_runs = 1; "
                           "arg annealing_cooling_factor = 2.0; arg annealing_trials_limit = 7;"))
    db = tmp_path / "t.db"
    rc, out, err = cli("search", f, "--no-progress", "--db", db, "-O", "cooling_factor=0.5")
    assert rc == 0 and err == "", out + err
    assert stored(db) == ("annealing", {"annealing_trials_limit": 7, "cooling_factor": 0.5,
                                        "_options_version": 2})
    # the same options again: nothing to say
    rc, out, err = cli("search", f, "--no-progress", "--db", db, "--budget", 2, "--resume",
                       "-O", "cooling_factor=0.5")
    assert rc == 0 and err == "", out + err
    # another value: accepted (as another --algorithm is), with one warning
    rc, out, err = cli("search", f, "--no-progress", "--db", db, "--budget", 3, "--resume",
                       "-O", "cooling_factor=0.75", "-O", "annealing_trials_limit=3")
    assert rc == 0, out + err
    assert lines(err) == [
        "looptx: warning: search 'an.c|{\"N\": 32}|c|r0' resumes with other searcher options "
        "than it was recorded with (cooling_factor 0.5 -> 0.75; trials_limit 7 -> 3): its "
        "evaluations are kept and the searcher goes on with the new options"], err
    assert stored(db)[1] == {"annealing_trials_limit": 3, "cooling_factor": 0.75,
                             "_options_version": 2}
    with ResultsDB(db, create=False) as rdb:
        recs = rdb.evaluations(rdb.searches()[0].key)
    assert len(recs) == 3 and len({r.point_key for r in recs}) == 3


def _record_as_version_1(db, options):
    """Make `db`'s search look recorded before annealing's local_distance took Orio's meaning
    (it was the move reach, and no version was stored)."""
    import sqlite3
    with sqlite3.connect(db) as c:
        c.execute("UPDATE searches SET searcher_options = ?", (json.dumps(options),))


@pytest.mark.parametrize("old, resumed, warned", [
    # the old local_distance 2 is today's move_distance 2: the same search goes on quietly
    ({"annealing_local_distance": 2}, ["-O", "move_distance=2"], None),
    # today's local_distance 2 is another search (a final local search, moves of 1)
    ({"annealing_local_distance": 2}, ["-O", "local_distance=2"],
     "local_distance 0 -> 2; move_distance 2 -> 1"),
    # recorded with the defaults then and now: nothing changed
    ({"cooling_factor": 0.95, "final_temperature_ratio": 0.05, "trials_limit": 100,
      "moves_limit": 20, "local_distance": 1, "init_samples": 4}, [], None),
])
def test_resume_reads_an_annealing_database_with_the_meaning_it_was_recorded_with(
        tmp_path, old, resumed, warned):
    f = tmp_path / "an.c"
    f.write_text(annotated("arg algorithm = 'Annealing'; arg total_runs = 1;"))
    db = tmp_path / "t.db"
    rc, out, err = cli("search", f, "--no-progress", "--db", db)
    assert rc == 0 and err == "", out + err
    _record_as_version_1(db, old)
    rc, out, err = cli("search", f, "--no-progress", "--db", db, "--budget", 2, "--resume",
                       *resumed)
    assert rc == 0, out + err
    if warned is None:
        assert err == "", err
    else:
        assert lines(err) == [
            "looptx: warning: search 'an.c|{\"N\": 32}|c|r0' resumes with other searcher "
            f"options than it was recorded with ({warned}): its evaluations are kept and the "
            "searcher goes on with the new options"], err
    assert stored(db)[1]["_options_version"] == 2
    assert len(set(_points(db))) == 2


def test_resume_without_algorithm_reads_old_annealing_options_with_their_meaning(tmp_path):
    f = tmp_path / "an.c"
    f.write_text(annotated("arg total_runs = 1;"))
    db = tmp_path / "t.db"
    rc, out, err = cli("search", f, "--no-progress", "--db", db, "-a", "annealing")
    assert rc == 0 and err == "", out + err
    _record_as_version_1(db, {"local_distance": 3})
    rc, out, err = cli("search", f, "--no-progress", "--db", db, "--budget", 2, "--resume")
    assert rc == 0 and err == "", out + err
    assert stored(db) == ("annealing", {"move_distance": 3, "_options_version": 2})


def test_bad_option_in_a_real_search_names_the_option(tmp_path):
    f = tmp_path / "an.c"
    f.write_text(annotated("arg algorithm = 'Annealing'; arg total_runs = 1;"))
    rc, out, err = cli("search", f, "--no-progress", "--db", tmp_path / "t.db",
                       "-O", "moves_limit=0")
    assert rc == 2 and len(lines(err)) == 1, err
    assert err.startswith(f"{f}: error: --option moves_limit=0: option 'moves_limit' of "
                          "searcher 'annealing' must be at least 1"), err
    assert not (tmp_path / "t.db").exists()


def test_help_documents_option(capsys):
    from looptx.cli import parser
    with pytest.raises(SystemExit):
        parser().parse_args(["search", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert re.search(r"--option KEY=VALUE, -O KEY=VALUE a searcher option \(repeatable\)", text)
    assert "--replay" in text and "--resume" in text


# -- resume: which searcher goes on -------------------------------------------------------------

def _points(db) -> list[str]:
    with ResultsDB(db, create=False) as rdb:
        return [r.point_key for r in rdb.evaluations(rdb.searches()[0].key)]


def test_resume_without_algorithm_continues_the_recorded_searcher(tmp_path):
    f = tmp_path / "an.c"
    f.write_text(annotated("arg total_runs = 1;"))
    db = tmp_path / "t.db"
    rc, out, err = cli("search", f, "--no-progress", "--db", db, "-a", "greedy_ils",
                       "-O", "restart_after=5")
    assert rc == 0 and err == "", out + err
    # no --algorithm: the recorded searcher and its options go on, not the default surf+
    rc, out, err = cli("search", f, "--no-progress", "--db", db, "--budget", 3, "--resume")
    assert rc == 0 and err == "", out + err
    assert ": greedy_ils, budget 3" in out, out
    assert stored(db) == ("greedy_ils", {"restart_after": 5})
    pts = _points(db)
    assert len(pts) == 3 and len(set(pts)) == 3


def test_resume_with_another_algorithm_warns_and_records_it(tmp_path):
    f = tmp_path / "an.c"
    f.write_text(annotated("arg total_runs = 1;"))
    db = tmp_path / "t.db"
    assert cli("search", f, "--no-progress", "--db", db, "-a", "random")[0] == 0
    rc, out, err = cli("search", f, "--no-progress", "--db", db, "--budget", 3, "--resume",
                       "-a", "greedy_ils")
    assert rc == 0, out + err
    assert lines(err) == [
        "looptx: warning: search 'an.c|{\"N\": 32}|c|r0' was recorded with searcher 'random' and "
        "resumes with 'greedy_ils': its 1 evaluations are told to the new searcher, which goes "
        "on from them"], err
    assert stored(db)[0] == "greedy_ils"
    # the next resume goes on with the searcher it now holds, silently
    rc, out, err = cli("search", f, "--no-progress", "--db", db, "--budget", 4, "--resume")
    assert rc == 0 and err == "" and ": greedy_ils, budget 4" in out, out + err
    pts = _points(db)
    assert len(pts) == 4 and len(set(pts)) == 4


def test_resume_against_an_annotation_naming_another_searcher_says_which_goes_on(tmp_path):
    f = tmp_path / "an.c"
    f.write_text(annotated("arg algorithm = 'Annealing'; arg total_runs = 1;"))
    db = tmp_path / "t.db"
    assert cli("search", f, "--no-progress", "--db", db, "-a", "random")[0] == 0
    rc, out, err = cli("search", f, "--no-progress", "--db", db, "--budget", 2, "--resume")
    assert rc == 0 and ": random, budget 2" in out, out + err
    assert lines(err) == [
        f"looptx: warning: the search in '{db}' was recorded with searcher 'random', which "
        "--resume continues; the annotation names 'annealing' (give --algorithm annealing to "
        "switch)"], err


def _seed(db) -> int:
    with ResultsDB(db, create=False) as rdb:
        return rdb.searches()[0].seed


def test_resume_goes_on_with_the_recorded_seed_and_warns_on_another(tmp_path):
    f = tmp_path / "an.c"
    f.write_text(annotated("arg total_runs = 2;"))
    whole, cut = tmp_path / "whole.db", tmp_path / "cut.db"
    assert cli("search", f, "--no-progress", "--db", whole, "-a", "random", "--seed", 7, "--budget", 4)[0] == 0
    assert cli("search", f, "--no-progress", "--db", cut, "-a", "random", "--seed", 7, "--budget", 1)[0] == 0
    # no --seed on resume: the recorded seed 7 goes on (not the default 0), silently
    rc, out, err = cli("search", f, "--no-progress", "--db", cut, "--budget", 2, "--resume")
    assert rc == 0 and err == "", out + err
    assert _seed(cut) == 7 and _points(cut) == _points(whole)[:2]
    # another --seed: a warning, a fresh stream from it, and the database records it
    rc, out, err = cli("search", f, "--no-progress", "--db", cut, "--budget", 4, "--resume", "--seed", 9)
    assert rc == 0, out + err
    assert lines(err) == [f"looptx: warning: the search in '{cut}' was recorded with seed 7; it goes on "
                          "with --seed 9"], err
    pts = _points(cut)
    assert _seed(cut) == 9 and len(pts) == 4 and len(set(pts)) == 4

