"""Isolated worker processes: crashes, hangs and exceptions cost one call, never the parent."""
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from fakes import calls
from looptx.runtime.worker import IsolatedWorker, WorkerPool, run_isolated

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def worker():
    with IsolatedWorker() as w:
        yield w


def test_ok_call_and_persistent_child(worker):
    r = worker.call(calls.add, 2, b=3)
    assert r.ok and r.value == 5 and r.error is None
    p1 = worker.call(calls.pid).value
    p2 = worker.call(calls.pid).value
    assert p1 == p2 == worker.pid != os.getpid()


def test_exception_is_reported_and_child_kept(worker):
    before = worker.call(calls.pid).value
    r = worker.call(calls.boom, "bad input")
    assert r.status == "error"
    assert r.error == "ValueError: bad input"
    assert "Traceback" in r.traceback and "boom" in r.traceback
    assert worker.call(calls.pid).value == before


def test_system_exit_in_call_does_not_end_child(worker):
    before = worker.call(calls.pid).value
    r = worker.call(calls.sys_exit)
    assert r.status == "error" and "SystemExit" in r.error
    assert worker.call(calls.pid).value == before


@pytest.mark.parametrize("fn, expect", [(calls.segfault, "SIGSEGV"), (calls.abort, "SIGABRT"),
                                        (calls.hard_exit, "exited with code 7")])
def test_crash_is_reported_and_worker_restarts(worker, fn, expect):
    before = worker.call(calls.pid).value
    starts = worker.starts
    r = worker.call(fn, timeout=10)
    assert r.status == "crash"
    assert expect in r.error
    assert not worker.alive
    after = worker.call(calls.pid)
    assert after.ok and after.value != before
    assert worker.starts == starts + 1


def test_hang_is_killed_at_timeout(worker):
    before = worker.call(calls.pid).value
    t0 = time.monotonic()
    r = worker.call(calls.hang, timeout=0.5)
    took = time.monotonic() - t0
    assert r.status == "timeout" and "0.5" in r.error
    assert 0.45 <= took < 3.0
    after = worker.call(calls.add, 1, 1)
    assert after.ok and after.value == 2
    assert worker.call(calls.pid).value != before


def test_call_finishing_before_timeout_is_ok(worker):
    r = worker.call(calls.sleep_then, 0.1, "done", timeout=5)
    assert r.ok and r.value == "done" and r.elapsed >= 0.1


def test_unpicklable_request_and_result(worker):
    before = worker.call(calls.pid).value
    r = worker.call(lambda: 1)
    assert r.status == "error" and "cannot send the call" in r.error
    r = worker.call(calls.unpicklable_result)
    assert r.status == "error" and "cannot be sent back" in r.error
    assert worker.call(calls.pid).value == before


def test_restart_after_predicate(worker):
    before = worker.call(calls.pid).value
    r = worker.call(calls.add, 1, 2, restart_after=lambda res: res.value == 3)
    assert r.ok
    assert worker.call(calls.pid).value != before
    mid = worker.call(calls.pid).value
    worker.call(calls.add, 1, 1, restart_after=lambda res: res.value == 3)
    assert worker.call(calls.pid).value == mid


def test_initializer_state_and_failure():
    with IsolatedWorker(initializer=calls.make_state, initargs=(41,)) as w:
        assert w.call(calls.state).value == (True, {"x": 41})
        w.call(calls.segfault)
        assert w.call(calls.state).value == (True, {"x": 41})   # re-initialised after restart
    with IsolatedWorker(initializer=calls.bad_init) as w:
        r = w.call(calls.add, 1, 2)
        assert r.status == "error" and "cannot init" in r.error


def test_run_isolated_one_shot():
    assert run_isolated(calls.add, 1, 2).value == 3
    assert run_isolated(calls.segfault).status == "crash"
    assert run_isolated(calls.state).value == (True, None)


@pytest.mark.parametrize("context", ["default", "spawn"])
def test_a_child_starts_with_the_callers_environment_and_folder(tmp_path, monkeypatch, context):
    """Children of a fork server would otherwise keep the environment the server started with
    (a LOOPTX_CACHE_DIR set later, a --include-path, TMPDIR)."""
    run_isolated(calls.pid, context=context)          # the fork server, if any, runs from here on
    monkeypatch.setenv("LOOPTX_TEST_VALUE", "later")
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    r = run_isolated(calls.environment, "LOOPTX_TEST_VALUE", context=context)
    assert r.ok and r.value == ("later", str(tmp_path), str(tmp_path)), r


def test_pool_runs_calls_concurrently_and_survives_faults():
    with WorkerPool(3) as pool:
        # warm the children first, so the timing below measures calls, not start-up
        list(cf_results(pool.submit(calls.sleep_then, 0.2, i) for i in range(3)))
        t0 = time.monotonic()
        futs = [pool.submit(calls.sleep_then, 0.5, i) for i in range(3)]
        assert [f.result().value for f in futs] == [0, 1, 2]
        assert time.monotonic() - t0 < 1.2          # would be >= 1.5 s one after another
        assert pool.starts == 3
        futs = [pool.submit(calls.segfault), pool.submit(calls.hang, timeout=0.5),
                pool.submit(calls.boom), pool.submit(calls.add, 2, 2)]
        statuses = [f.result().status for f in futs]
        assert statuses == ["crash", "timeout", "error", "ok"]
        assert pool.call(calls.add, 5, 5).value == 10


def cf_results(futs):
    for f in futs:
        yield f.result()


def test_children_exit_when_parent_is_killed(tmp_path):
    """A SIGKILLed parent cannot clean up: its children must notice on their own."""
    script = tmp_path / "parent.py"
    script.write_text(textwrap.dedent("""
        import sys, time
        from looptx.runtime.worker import IsolatedWorker
        from fakes import calls
        if __name__ == "__main__":
            w = IsolatedWorker()
            print(w.call(calls.pid).value, flush=True)
            w.call(calls.hang)              # blocks forever
    """))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
                            env=env)
    child = int(proc.stdout.readline())
    time.sleep(0.3)
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and _alive(child):
        time.sleep(0.1)
    assert not _alive(child)


@pytest.mark.parametrize("how", ["timeout", "parent killed"])
def test_what_a_worker_started_ends_with_it(tmp_path, how):
    """A search stopped (or a build past its time) must not leave gcc's cc1 compiling for
    minutes: the worker's process group goes with it."""
    pid_file = tmp_path / "grandchild.pid"
    if how == "timeout":
        with IsolatedWorker() as w:
            r = w.call(calls.compile_forever, str(pid_file), timeout=1.5)
            assert r.status == "timeout", r
    else:
        script = tmp_path / "parent.py"
        script.write_text(textwrap.dedent(f"""
            from looptx.runtime.worker import IsolatedWorker
            from fakes import calls
            if __name__ == "__main__":
                IsolatedWorker().call(calls.compile_forever, {str(pid_file)!r})
        """))
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]))
        proc = subprocess.Popen([sys.executable, str(script)], env=env)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not pid_file.exists():
            time.sleep(0.1)
        time.sleep(0.2)
        proc.kill()
        proc.wait()
    grandchild = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and _alive(grandchild):
        time.sleep(0.1)
    assert not _alive(grandchild)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers kill(0): check its state.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc (Linux)")
def test_the_fork_server_ignores_ctrl_c_while_it_imports(tmp_path):
    """Ctrl-C reaches the whole process group: a fork server still importing its preload
    modules would print a KeyboardInterrupt traceback (probe 52).  It starts with SIGINT
    ignored, and the caller's own handler is back afterwards."""
    script = tmp_path / "server.py"
    script.write_text(textwrap.dedent("""
        import signal
        from multiprocessing import forkserver
        from looptx.runtime.worker import _context
        if __name__ == "__main__":
            _context("default")
            pid = forkserver._forkserver._forkserver_pid
            ignored = [ln for ln in open(f"/proc/{pid}/status") if ln.startswith("SigIgn:")][0]
            print(int(ignored.split()[1], 16) >> (signal.SIGINT - 1) & 1,
                  signal.getsignal(signal.SIGINT) is signal.default_int_handler)
    """))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["1", "True"], out.stdout
