"""The search lifecycle under what users and machines do to it: a results database removed,
filled up, damaged, locked or read-only while or before a search writes it; Ctrl-C followed
by SIGTERM; a resume with edited constraints or measurement settings; limits SQLite cannot
store; and a replay of looptx's own database."""
from __future__ import annotations

import contextlib
import os
import pathlib
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from conftest import run_cli as cli

from looptx.search.db import ResultsDB

ROOT = pathlib.Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.usefixtures("private_build_cache")


@pytest.fixture
def axpy(tmp_path):
    for name in ("axpy.c", "axpy.spec"):
        shutil.copy(ROOT / "annotations" / name, tmp_path / name)
    return tmp_path / "axpy.c"


@pytest.fixture
def slow_axpy(axpy):
    """axpy built by a compiler that takes 0.2 s more: a search that lasts long enough for a
    signal or a file system change to land in its middle (and that no cached build skips)."""
    cc = axpy.parent / "slowcc"
    cc.write_text('#!/bin/sh\nsleep 0.2\nexec gcc "$@"\n')
    cc.chmod(0o755)
    spec = axpy.parent / "axpy.spec"
    spec.write_text(spec.read_text().replace("'gcc -O2'", f"'{cc} -O2'"))
    return axpy


def search_cmd(src, db, *extra):
    return [sys.executable, "-m", "looptx", "search", str(src), "--db", str(db), "--no-progress",
            *map(str, extra)]


def n_recorded(db) -> int:
    try:
        with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as c:
            return c.execute("SELECT COUNT(*) FROM evaluations").fetchone()[0]
    except sqlite3.Error:
        return 0


def wait_for(proc, db, n: int, limit: float = 120.0) -> None:
    deadline = time.monotonic() + limit
    while n_recorded(db) < n:
        assert proc.poll() is None, "the search ended too early"
        assert time.monotonic() < deadline, "the search recorded nothing in time"
        time.sleep(0.03)


def rows(db):
    with ResultsDB(db, create=False) as rdb:
        (info,) = rdb.searches()
        return info, rdb.evaluations(info.key)


@contextlib.contextmanager
def mounted_tmpfs(path: pathlib.Path, size: str = "1m"):
    """A small file system of its own (root only): made read-only or filled by the test."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("a full disk and a read-only file system need a tmpfs, which only root can mount")
    path.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                      capture_output=True).returncode != 0:
        pytest.skip("mount -t tmpfs failed here (a container without that permission)")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


# -- G1: the database removed while the search runs ----------------------------------------
def test_database_removed_mid_search_is_written_again(slow_axpy):
    axpy = slow_axpy
    db = axpy.parent / "d.db"
    proc = subprocess.Popen(search_cmd(axpy, db, "-a", "exhaustive", "--budget", 12),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for(proc, db, 2)
    db.unlink()
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, out + err
    assert "was removed while the search ran: it is written again" in err
    info, recs = rows(db)
    assert [r.eval_index for r in recs] == list(range(12))
    assert info.status == "finished"
    assert (axpy.parent / "axpy.best.c").exists()


# -- G2: a resume with other constraints or measurement settings ---------------------------
def test_resume_refuses_an_edited_constraint_and_other_settings(axpy):
    spec = axpy.parent / "axpy.spec"
    text = spec.read_text()
    db = axpy.parent / "c.db"
    assert cli("search", axpy, "--budget", 2, "--db", db, "--no-progress")[0] == 0
    spec.write_text(text.replace("UF <= TI // 2", "UF <= TI // 4"))
    rc, out, err = cli("search", axpy, "--budget", 4, "--db", db, "--resume", "--no-progress")
    assert rc == 2, out + err
    assert err.count("\n") == 1 and "constraint unroll_in_tile was 'UF <= TI // 2' and is now " \
        "'UF <= TI // 4'" in err
    spec.write_text(text.replace("arg repetitions = 5;", "arg repetitions = 3;"))
    rc, out, err = cli("search", axpy, "--budget", 4, "--db", db, "--resume", "--no-progress")
    assert rc == 2 and "measurement settings" in err and "repetitions 5 -> 3" in err, err
    spec.write_text(text)
    rc, out, err = cli("search", axpy, "--budget", 4, "--db", db, "--resume", "--no-progress")
    assert rc == 0, out + err
    assert len(rows(db)[1]) == 4


# -- G3: the disk fills up ------------------------------------------------------------------
def test_disk_full_is_one_line_exit_2_and_keeps_the_committed_rows(slow_axpy, tmp_path):
    axpy = slow_axpy
    with mounted_tmpfs(tmp_path / "small") as small:
        db = small / "f.db"
        proc = subprocess.Popen(search_cmd(axpy, db, "-a", "exhaustive", "--budget", 28),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_for(proc, db, 2)
        with open(small / "fill", "wb") as f, contextlib.suppress(OSError):
            while True:
                f.write(b"\0" * 65536)
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 2, out + err
        assert err.count("\n") == 1 and "internal error" not in err
        assert "database or disk is full" in err and "continue with --resume" in err
        assert "best variant so far written to" in err
        (small / "fill").unlink()
        kept = rows(db)[1]
        assert 2 <= len(kept) < 28
        assert [r.eval_index for r in kept] == list(range(len(kept)))
        assert (axpy.parent / "axpy.best.c").exists()


# -- G4 / G10: signals ----------------------------------------------------------------------
def test_a_second_signal_while_the_first_unwinds_is_ignored():
    from looptx.search.command import Terminated
    from looptx.search.lifecycle import guarded

    def body(args):
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
        except KeyboardInterrupt:
            os.kill(os.getpid(), signal.SIGTERM)        # a scheduler's SIGTERM 1 ms later
            time.sleep(0.2)
            return 130
        return 0
    assert guarded(body, None, Terminated) == 130


def test_sigterm_before_the_search_measures_exits_143(capsys):
    from looptx.search.command import Terminated
    from looptx.search.lifecycle import guarded

    def body(args):
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)
        return 0
    assert guarded(body, None, Terminated) == 143
    assert capsys.readouterr().err == "looptx: terminated (SIGTERM)\n"


def test_int_then_term_mid_search_ends_cleanly(slow_axpy):
    axpy = slow_axpy
    db = axpy.parent / "it.db"
    proc = subprocess.Popen(search_cmd(axpy, db, "-a", "exhaustive", "--budget", 28),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for(proc, db, 3)
    proc.send_signal(signal.SIGINT)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    # (the SIGINT's interrupt may still be unwinding a build when the SIGTERM lands: either ends
    # the search, with its own exit code and words)
    assert proc.returncode in (130, 143), out + err
    assert ("terminated (SIGTERM)" in err) == (proc.returncode == 143), err
    assert "internal error" not in err and err.count("\n") == 1, err
    info, recs = rows(db)
    assert info.status == "interrupted"
    assert "best variant" in (axpy.parent / "axpy.best.c").read_text()


def test_the_best_file_is_replaced_whole_or_not_at_all(tmp_path, monkeypatch):
    from looptx.search import best
    target = tmp_path / "k.best.c"
    target.write_text("the previous best\n")

    def interrupted(text):
        raise KeyboardInterrupt
    monkeypatch.setattr(best, "to_user", interrupted)
    with pytest.raises(KeyboardInterrupt):
        best._write(str(target), "new")
    assert target.read_text() == "the previous best\n"
    assert os.listdir(tmp_path) == ["k.best.c"]


# -- G5: read-only folders ------------------------------------------------------------------
def test_best_file_that_cannot_be_written_is_refused_before_measuring(axpy):
    (axpy.parent / "axpy.best.c").mkdir()
    db = axpy.parent / "b.db"
    rc, out, err = cli("search", axpy, "--budget", 2, "--db", db, "--no-progress")
    assert rc == 2 and err.count("\n") == 1, out + err
    assert "cannot write the best variant to" in err and "it is a folder" in err
    assert not db.exists() or n_recorded(db) == 0


def test_read_only_folders_are_refused_before_measuring(axpy, tmp_path):
    with mounted_tmpfs(tmp_path / "ro") as ro:
        for name in ("axpy.c", "axpy.spec"):
            shutil.copy(axpy.parent / name, ro / name)
        subprocess.run(["mount", "-o", "remount,ro", str(ro)], check=True)
        rc, out, err = cli("search", ro / "axpy.c", "--budget", 2, "--db", axpy.parent / "r.db",
                           "--no-progress")
        assert rc == 2 and err.count("\n") == 1, out + err
        assert "cannot write the best variant" in err and "Read-only file system" in err
        assert n_recorded(axpy.parent / "r.db") == 0
        rc, out, err = cli("search", axpy, "--budget", 2, "--db", ro / "x.db", "--no-progress")
        assert rc == 2 and err.count("\n") == 1, out + err
        assert "folder" in err and "not writable" in err and "not a looptx results database" not in err


# -- G9: a second search on a database in use -----------------------------------------------
def test_a_database_in_use_by_another_search_is_refused(axpy):
    import fcntl
    db = axpy.parent / "l.db"
    assert cli("search", axpy, "--budget", 2, "--db", db, "--no-progress")[0] == 0
    with open(db, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)       # what a running search holds
        rc, out, err = cli("search", axpy, "--budget", 4, "--db", db, "--resume", "--no-progress")
    assert rc == 2 and "in use by another `looptx search`" in err, out + err
    assert len(rows(db)[1]) == 2
    assert cli("search", axpy, "--budget", 3, "--db", db, "--resume", "--no-progress")[0] == 0


# -- G7: replaying looptx's own database ------------------------------------------------------
def test_replay_reads_a_results_database(axpy):
    db = axpy.parent / "r.db"
    assert cli("search", axpy, "--budget", 4, "--db", db, "--no-progress")[0] == 0
    rc, out, err = cli("search", "--replay", db, "--budget", 3, "-a", "random")
    assert rc == 0, out + err
    assert "4 valid points" in out and "best point" in out
    assert cli("search", axpy, "--budget", 2, "--db", db, "-D", "N=64", "--no-progress")[0] == 0
    rc, out, err = cli("search", "--replay", db, "--budget", 3)
    assert rc == 2 and err.count("\n") == 1 and "--kernel-tuner" in err, err


# -- probe 76: damaged databases, limits -----------------------------------------------------
DAMAGE = {
    "UPDATE looptx_meta SET value='abc'": "schema version abc",
    "DROP TABLE evaluations": "evaluations is missing",
    "UPDATE searches SET state='{'": "the state of search",
    "UPDATE searches SET space='nope'": "the space of search",
    "UPDATE evaluations SET point='[1,2]'": "the point of evaluation 0",
    "UPDATE evaluations SET info='{'": "not JSON",
    "UPDATE evaluations SET times='5'": "the times of evaluation 0",
    "UPDATE evaluations SET spread='x'": "the spread of evaluation 0",
}


def test_a_damaged_database_is_one_line_exit_2(axpy):
    good = axpy.parent / "good.db"
    assert cli("search", axpy, "--budget", 2, "--db", good, "--no-progress")[0] == 0
    for k, (sql, said) in enumerate(DAMAGE.items()):
        db = axpy.parent / f"bad{k}.db"
        shutil.copy(good, db)
        with contextlib.closing(sqlite3.connect(db)) as c:
            c.executescript(sql)
        rc, out, err = cli("report", db)
        assert rc == 2 and err.count("\n") == 1 and said in err, (sql, err)
        rc, out, err = cli("search", axpy, "--resume", "--db", db, "--no-progress")
        assert rc == 2 and "internal error" not in err and said in err.splitlines()[-1], (sql, err)


def test_an_infinite_time_limit_is_no_limit(axpy):
    rc, out, err = cli("search", axpy, "--budget", 2, "--time-limit", "inf", "--db",
                       axpy.parent / "i.db", "--no-progress")
    assert rc == 0, out + err
    spec = axpy.parent / "axpy.spec"
    spec.write_text(spec.read_text().replace("arg seed = 7;", "arg seed = 7; arg time_limit = 1e300;"))
    rc, out, err = cli("search", axpy, "--budget", 2, "--db", axpy.parent / "h.db", "--no-progress")
    assert rc == 0, out + err
    assert len(rows(axpy.parent / "h.db")[1]) == 2


def test_seeds_and_budgets_sqlite_cannot_store_are_refused(axpy):
    db = axpy.parent / "s.db"
    for option in ("--seed", "--budget"):
        rc, out, err = cli("search", axpy, option, 2 ** 63, "--db", db, "--no-progress")
        assert rc == 2 and err.count("\n") == 1 and "2**63-1" in err, err
    spec = axpy.parent / "axpy.spec"
    spec.write_text(spec.read_text().replace("arg seed = 7;", "arg seed = 10**30;"))
    rc, out, err = cli("search", axpy, "--db", db, "--no-progress")
    assert rc == 2 and err.count("\n") == 1, err
    assert "axpy.spec:18:" in err and "arg seed must be at most 2**63-1" in err
    assert not db.exists()


# -- G11: a report tells an unfinished search from a finished one -----------------------------
def test_report_says_a_search_did_not_finish(axpy):
    import fcntl
    db = axpy.parent / "u.db"
    assert cli("search", axpy, "--budget", 2, "--db", db, "--no-progress")[0] == 0
    assert "finished" not in cli("report", db)[1].splitlines()[0]
    with contextlib.closing(sqlite3.connect(db)) as c:
        c.execute("UPDATE searches SET status='running', budget=8")
        c.commit()
    assert "stopped before it finished (killed?) after 2 of 8 evaluations" in cli("report", db)[1]
    with open(db, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert "running now (2 of 8 evaluations so far)" in cli("report", db)[1]
    with contextlib.closing(sqlite3.connect(db)) as c:
        c.execute("UPDATE searches SET status='interrupted'")
        c.commit()
    assert "interrupted after 2 of 8 evaluations; --resume goes on" in cli("report", db)[1]
