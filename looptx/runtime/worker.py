"""Run calls in child processes so that a crash, a hang or a poisoned CUDA context costs one call.

    with IsolatedWorker() as w:
        r = w.call(fn, arg, timeout=10.0)   # -> CallResult
        if r.ok: use(r.value)
        else:    r.status in ('crash', 'timeout', 'error'); r.error is one line of text

* `IsolatedWorker` keeps one persistent child (so start-up is paid once, not per call) and
  restarts it lazily on the next call after the child died or was killed.  A call that raises
  reports 'error' and keeps the child; `call(..., restart_after=True)` or `restart()` throws it
  away anyway (e.g. after a CUDA error, which leaves the context unusable).
* `WorkerPool(n)` runs up to n calls at once, one `IsolatedWorker` per slot, started on demand;
  `submit` returns a `concurrent.futures.Future[CallResult]`.
* `run_isolated(fn, ...)` is a one-shot call in a fresh child.

Children come from multiprocessing's 'forkserver' where the platform has it, else 'spawn': isl
and CUDA are not fork-safe once initialised in the parent, but the fork server is a fresh process
that has only imported looptx's modules (PRELOAD), so a child starts in milliseconds instead of
importing numpy and islpy again (about a second each: `looptx run` starts two children, a search
one per worker and one after each crash).  A fork server's children inherit its environment, not
the caller's, so each child is given the caller's environment as it is at the child's start.
`fn`, its arguments and its result travel by pickle, so `fn` must be importable by module path.
`initializer(*initargs)` runs once per child start; its return value is available inside the
child as `worker_state()` (used to ship a large object, e.g. an evaluator, once per child instead
of once per call).  A child that loses its parent (the parent was SIGKILLed) exits on its own
within a second.
"""
from __future__ import annotations

import concurrent.futures as cf
import contextlib
import multiprocessing as mp
import os
import queue
import signal
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass
from multiprocessing.connection import wait as _mp_wait
from typing import Any, Callable

__all__ = ["CallResult", "IsolatedWorker", "WorkerPool", "run_isolated", "worker_state",
           "in_worker"]

_STATE: Any = None
_IN_WORKER = False


def worker_state() -> Any:
    """Inside a child: what the worker's initializer returned (None without an initializer)."""
    return _STATE


def in_worker() -> bool:
    """True inside a child started by this module."""
    return _IN_WORKER


@dataclass(frozen=True)
class CallResult:
    status: str                    # 'ok' | 'error' (fn raised) | 'crash' (child died) | 'timeout'
    value: Any = None              # fn's return value when ok
    error: str | None = None       # one line: 'ValueError: bad' / 'killed by signal SIGSEGV' / ...
    traceback: str | None = None   # full child traceback for 'error'
    elapsed: float = 0.0           # wall seconds of the call as seen by the parent
    exitcode: int | None = None    # child exit code for 'crash' (negative: killed by that signal)

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "worker process died"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"killed by signal {name}"
    return f"worker process exited with code {code}"


def _watch_parent(ppid: int) -> None:
    # Orphaned children would otherwise keep a GPU busy (or hang forever) after the search
    # process was SIGKILLed; nothing else tells a child that its parent is gone mid-call.  A fork
    # server's child has the server for its parent, which ends when the caller does.
    first = os.getppid()
    while True:
        time.sleep(0.5)
        if os.getppid() != first or not _alive(ppid):
            _end_group()
            os._exit(3)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        pass                        # exists, owned by another user
    return True


def _end_group() -> None:
    """Kill the compilers this child started, and the child with them (their group is the
    child's own, made by _child_main)."""
    try:
        if os.getpgrp() == os.getpid():
            os.killpg(os.getpgrp(), signal.SIGKILL)
    except OSError:
        pass


def _kill_tree(proc) -> None:
    """Kill a worker and what it started: its process group, and the compilers it runs in
    sessions of their own (runtime/cpu.py's _compile, so that a timeout reaches cc1 and as),
    which killing the worker's group misses and which would otherwise compile on for minutes
    after a search was stopped, leaving their output in the build cache."""
    pid = getattr(proc, "pid", None)
    groups: list[int] = []
    if pid is not None:
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGSTOP)      # it starts no compiler while we look
        groups = _compiler_groups(pid)
        for g in groups:
            # SIGTERM first: the gcc driver then deletes its temporary files and its output
            with contextlib.suppress(OSError):
                os.killpg(g, signal.SIGTERM)
    try:
        os.killpg(pid, signal.SIGKILL)
    except (OSError, TypeError):
        pass
    try:
        proc.kill()
    except (ValueError, OSError):
        pass
    deadline = time.monotonic() + 1.0
    for g in groups:
        while time.monotonic() < deadline and _group_alive(g):
            time.sleep(0.02)
        with contextlib.suppress(OSError):
            os.killpg(g, signal.SIGKILL)


def _compiler_groups(pid: int) -> list[int]:
    """The process groups that children of `pid` lead (Linux /proc; none elsewhere)."""
    return sorted({pgrp for p, (ppid, pgrp, _) in _processes().items() if ppid == pid and pgrp == p})


def _group_alive(pgid: int) -> bool:
    # a zombie is done: its parent, the killed worker, may be reaped late (a container's init)
    return any(pgrp == pgid and state != b"Z" for ppid, pgrp, state in _processes().values())


def _processes() -> dict[int, tuple[int, int, bytes]]:
    """pid -> (ppid, process group, state) of every process /proc shows."""
    out = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
            # after the command name in parentheses: state ppid pgrp
            state, ppid, pgrp = stat[stat.rfind(b")") + 2:].split()[:3]
            out[int(name)] = (int(ppid), int(pgrp), state)
        except (OSError, ValueError):
            continue
    return out


def _send(conn, message) -> bool:
    """Send to the parent; False when it is gone (SIGKILLed mid-call): the pipe is broken and
    nobody is left to tell, so the child ends quietly instead of printing a traceback."""
    try:
        conn.send(message)
    except OSError:                 # BrokenPipeError, ConnectionResetError, closed handle
        return False
    return True


def _child_main(conn, initializer, initargs, ppid, environ=None) -> None:
    global _STATE, _IN_WORKER
    _IN_WORKER = True
    if environ is not None and environ != os.environ:
        os.environ.clear()
        os.environ.update(environ)
        tempfile.tempdir = None             # the server may have looked TMPDIR up already
    # Ctrl-C reaches the whole process group; the parent decides what to do with its children.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # a group of its own, so that killing the worker kills the compilers it runs (_kill_tree)
    try:
        os.setpgrp()
    except OSError:
        pass
    threading.Thread(target=_watch_parent, args=(ppid,), daemon=True).start()
    try:
        _STATE = initializer(*initargs) if initializer is not None else None
    except BaseException as e:  # noqa: BLE001 - report any init failure to the parent
        _send(conn, ("init_error", f"{type(e).__name__}: {e}", traceback.format_exc()))
        return
    if not _send(conn, ("ready", None, None)):
        return
    while True:
        try:
            fn, args, kwargs = conn.recv()
        except (EOFError, OSError):
            return
        except BaseException as e:  # noqa: BLE001 - unpicklable request, e.g. unimportable fn
            if not _send(conn, ("error", f"cannot load the call: {type(e).__name__}: {e}",
                                traceback.format_exc())):
                return
            continue
        try:
            out = ("ok", fn(*args, **kwargs), None)
        except BaseException as e:  # noqa: BLE001 - SystemExit too: a call must not end the child
            out = ("error", f"{type(e).__name__}: {e}", traceback.format_exc())
        try:
            sent = _send(conn, out)
        except Exception as e:  # noqa: BLE001 - result not picklable
            sent = _send(conn, ("error", f"result cannot be sent back: {type(e).__name__}: {e}",
                                traceback.format_exc()))
        if not sent:
            return


# What a fork server imports once for all its children: the modules a child's calls run, and
# those they import lazily for their first variant (a module first imported in a child is
# imported again in every child: 130 of the 300 CPU-seconds the tests spent importing).  None
# of them initialises CUDA (pycuda is imported inside the calls that use it).
PRELOAD = ["looptx.cli", "looptx.pipeline", "looptx.runtime.evaluators", "looptx.runtime.cuda_eval",
           "looptx.search.evaluate", "looptx.poly.promote", "looptx.poly.gpu", "looptx.codegen.unroll",
           "looptx.codegen.cuda", "looptx.frontend.tuning", "looptx.frontend.annotations", "numpy.random"]


def _context(name: str):
    """'default': 'forkserver' where there is one, else 'spawn'; any other name as given."""
    if name != "default":
        return mp.get_context(name)
    if "forkserver" not in mp.get_all_start_methods():
        return mp.get_context("spawn")
    ctx = mp.get_context("forkserver")
    from multiprocessing import forkserver
    if not getattr(_context, "started", False):
        ctx.set_forkserver_preload(PRELOAD)
        # Ctrl-C is the caller's to handle (it ends the children), not something the server
        # should print a traceback for while it imports PRELOAD.  A signal mask does not reach
        # it (the spawn resets it); an ignored SIGINT does, and Python keeps it ignored.  The
        # children ignore SIGINT anyway (_child_main).
        main = threading.current_thread() is threading.main_thread()
        old = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            forkserver.ensure_running()
        except OSError:                      # no socket where tempfile puts it, fd limits, ...
            return mp.get_context("spawn")
        finally:
            if main:
                signal.signal(signal.SIGINT, old)
        _context.started = True
    return ctx


class IsolatedWorker:
    """One persistent child process executing calls one at a time.  Not thread-safe: use one
    worker per thread (WorkerPool does)."""

    def __init__(self, *, context: str = "default", initializer: Callable | None = None,
                 initargs: tuple = (), name: str = "looptx-worker"):
        self._ctx = _context(context)
        self._initializer = initializer
        self._initargs = tuple(initargs)
        self._name = name
        self._proc = None
        self._conn = None
        self.starts = 0          # how many children were started (tests, diagnostics)

    # -- lifecycle -------------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.is_alive()

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def start(self) -> CallResult | None:
        """Start the child if needed; returns a failed CallResult if it could not start."""
        if self.alive:
            return None
        self._discard()
        parent_conn, child_conn = self._ctx.Pipe(duplex=True)
        proc = self._ctx.Process(target=_child_main, name=self._name, daemon=True,
                                 args=(child_conn, self._initializer, self._initargs, os.getpid(),
                                       dict(os.environ)))
        t0 = time.monotonic()
        try:
            proc.start()
        except Exception as e:  # noqa: BLE001 - e.g. the initargs cannot be pickled
            parent_conn.close()
            child_conn.close()
            return CallResult("error", error=f"worker did not start: {type(e).__name__}: {e}",
                              elapsed=time.monotonic() - t0)
        child_conn.close()   # so that the child's death shows up as EOF on our end
        self._proc, self._conn = proc, parent_conn
        self.starts += 1
        try:
            kind, err, tb = parent_conn.recv()
        except (EOFError, OSError):
            proc.join(1.0)
            code = proc.exitcode
            self._discard()
            return CallResult("crash", error=f"worker did not start: {_describe_exit(code)}",
                              elapsed=time.monotonic() - t0, exitcode=code)
        if kind != "ready":
            self._discard()
            return CallResult("error", error=f"worker initializer failed: {err}", traceback=tb,
                              elapsed=time.monotonic() - t0)
        return None

    def restart(self) -> None:
        self._discard()

    def kill(self) -> None:
        """Kill the child now; safe from another thread (a call in progress reports 'crash')."""
        proc = self._proc
        if proc is not None:
            _kill_tree(proc)

    def close(self) -> None:
        """Stop the child (politely: closing the pipe ends its loop; killed if it lingers)."""
        proc, conn = self._proc, self._conn
        self._proc = self._conn = None
        if conn is not None:
            conn.close()
        if proc is not None:
            proc.join(0.5)
            if proc.is_alive():
                _kill_tree(proc)
                proc.join()
            proc.close()

    def _discard(self) -> None:
        proc, conn = self._proc, self._conn
        self._proc = self._conn = None
        if conn is not None:
            conn.close()
        if proc is not None:
            if proc.is_alive():
                _kill_tree(proc)
            proc.join()
            proc.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self._discard()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass

    # -- calls -------------------------------------------------------------------------------
    def call(self, fn: Callable, /, *args, timeout: float | None = None,
             restart_after: bool | Callable[[CallResult], bool] = False, **kwargs) -> CallResult:
        """Run fn(*args, **kwargs) in the child; never raises for anything the call does.

        restart_after: True, or a predicate on the CallResult (evaluated here, in the parent),
        to throw the child away after this call even though it survived it."""
        failed = self.start()
        if failed is not None:
            return failed
        t0 = time.monotonic()
        try:
            self._conn.send((fn, args, kwargs))
        except (BrokenPipeError, EOFError, OSError) as e:
            self._discard()
            return CallResult("crash", error=f"worker unreachable: {e}", elapsed=time.monotonic() - t0)
        except Exception as e:  # noqa: BLE001 - pickling the request failed; child untouched
            return CallResult("error", error=f"cannot send the call: {type(e).__name__}: {e}",
                              elapsed=time.monotonic() - t0)
        result = self._receive(t0, timeout)
        if self._proc is not None and (restart_after(result) if callable(restart_after)
                                       else restart_after):
            self._discard()
        return result

    def _receive(self, t0: float, timeout: float | None) -> CallResult:
        conn, proc = self._conn, self._proc
        deadline = None if timeout is None else t0 + timeout
        while True:
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready = _mp_wait([conn, proc.sentinel], remaining)
            if conn in ready or (ready and conn.poll(0)):
                try:
                    kind, value, tb = conn.recv()
                except (EOFError, OSError):
                    break  # died while sending: a crash
                elapsed = time.monotonic() - t0
                if kind == "ok":
                    return CallResult("ok", value=value, elapsed=elapsed)
                return CallResult("error", error=value, traceback=tb, elapsed=elapsed)
            if ready:
                break  # sentinel: the child is gone
            if deadline is not None and time.monotonic() >= deadline:
                self._discard()
                return CallResult("timeout", error=f"no result after {timeout:g} s (worker killed)",
                                  elapsed=time.monotonic() - t0)
        proc.join(1.0)
        code = proc.exitcode
        self._discard()
        return CallResult("crash", error=_describe_exit(code), elapsed=time.monotonic() - t0,
                          exitcode=code)


def run_isolated(fn: Callable, /, *args, timeout: float | None = None, context: str = "default",
                 **kwargs) -> CallResult:
    """One call in a fresh child process (start-up cost every time: prefer IsolatedWorker)."""
    with IsolatedWorker(context=context) as w:
        return w.call(fn, *args, timeout=timeout, **kwargs)


class WorkerPool:
    """Up to `size` concurrent isolated calls; children are started only when the concurrency is
    actually used, and each crashed/killed one is replaced on its next call."""

    def __init__(self, size: int, *, context: str = "default", initializer: Callable | None = None,
                 initargs: tuple = (), name: str = "looptx-pool"):
        if size < 1:
            raise ValueError("WorkerPool size must be >= 1")
        self.size = size
        self._make = lambda i: IsolatedWorker(context=context, initializer=initializer,
                                              initargs=initargs, name=f"{name}-{i}")
        self._idle: queue.LifoQueue[IsolatedWorker] = queue.LifoQueue()
        self._all: list[IsolatedWorker] = []
        self._lock = threading.Lock()
        self._threads = cf.ThreadPoolExecutor(max_workers=size, thread_name_prefix=name)
        self._closed = False

    def _acquire(self) -> IsolatedWorker:
        try:
            return self._idle.get_nowait()
        except queue.Empty:
            pass
        with self._lock:
            # At most `size` threads run _run, so at most `size` workers ever exist.
            w = self._make(len(self._all))
            self._all.append(w)
            return w

    def _run(self, fn, args, kwargs, timeout, restart_after) -> CallResult:
        w = self._acquire()
        try:
            return w.call(fn, *args, timeout=timeout, restart_after=restart_after, **kwargs)
        finally:
            self._idle.put(w)

    def submit(self, fn: Callable, /, *args, timeout: float | None = None,
               restart_after: bool | Callable[[CallResult], bool] = False,
               **kwargs) -> cf.Future:
        if self._closed:
            raise RuntimeError("WorkerPool is closed")
        return self._threads.submit(self._run, fn, args, kwargs, timeout, restart_after)

    def call(self, fn: Callable, /, *args, timeout: float | None = None, **kwargs) -> CallResult:
        return self.submit(fn, *args, timeout=timeout, **kwargs).result()

    @property
    def starts(self) -> int:
        return sum(w.starts for w in self._all)

    def close(self, *, kill: bool = False) -> None:
        """Stop all children; kill=True does not wait for calls in progress (Ctrl-C, time up)."""
        self._closed = True
        if kill:
            for w in list(self._all):
                w.kill()
            self._threads.shutdown(wait=True, cancel_futures=True)
        else:
            self._threads.shutdown(wait=True)
        for w in self._all:
            w.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close(kill=exc[0] is not None)
