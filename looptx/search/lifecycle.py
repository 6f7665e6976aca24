"""What keeps a `looptx search` from losing what it ran: signals that stop it once, however
many arrive, and outputs checked before anything is measured."""
from __future__ import annotations

import math
import os
import sys
import tempfile

from looptx.errors import AnnotationError, LooptxError, signals_are_deferred
from looptx.search.db import MAX_INTEGER


def guarded(run, args, terminated) -> int:
    """`run(args)` with SIGINT raising KeyboardInterrupt and SIGTERM `terminated` (a
    KeyboardInterrupt), the first signal only: a second one (Ctrl-C, then a job scheduler's
    SIGTERM a millisecond later) would be raised wherever the first one's unwinding stands,
    inside a lock's release or half through the best file.  SIGTERM before a search measures
    (setup, compiler checks) ends with 143 too, not as an interrupt."""
    import signal
    import threading
    if threading.current_thread() is not threading.main_thread():
        return run(args)
    from looptx.search.interrupt import clear_signals, note_signal
    fired: list = []

    def raising(exc_type):
        def handler(signum, frame):
            if fired:
                return
            fired.append(exc_type)
            note_signal(exc_type)
            if signals_are_deferred():
                # raised at the search's next round (raise_pending), or not at all once the
                # search has ended and only its best file is being written
                return
            raise exc_type()
        return handler
    clear_signals()
    previous = signal.signal(signal.SIGTERM, raising(terminated))
    previous_int = signal.signal(signal.SIGINT, raising(KeyboardInterrupt))
    try:
        return run(args)
    except terminated:
        print("looptx: terminated (SIGTERM)", file=sys.stderr)
        return 143
    finally:
        # after a signal, the process only ends: one more (a scheduler's SIGTERM after Ctrl-C)
        # must not kill it with another status while it exits (its pools' threads joined)
        # (a handler that does nothing, not SIG_IGN, which programs this process starts would
        # inherit)
        signal.signal(signal.SIGTERM, _ignored if fired else previous)
        signal.signal(signal.SIGINT, _ignored if fired else previous_int)
        clear_signals()
        if fired:
            # Python's finalization puts a Python handler back to SIG_DFL before the process
            # is gone (its modules and pools still being torn down): a SIGTERM 0.1 s after
            # Ctrl-C landed there and ended it as killed by SIGTERM, not with 130.  SIG_IGN
            # is left alone, and at exit no program is started that would inherit it.
            import atexit
            atexit.register(_ignore_at_exit)


def _ignored(signum, frame) -> None:
    pass


def _ignore_at_exit() -> None:
    import signal
    for sig in (signal.SIGTERM, signal.SIGINT):
        if signal.getsignal(sig) is _ignored:
            signal.signal(sig, signal.SIG_IGN)


def best_path(st) -> str:
    return os.path.splitext(st.path)[0] + (".best.cu" if st.backend == "cuda" else ".best.c")


def check_best_writable(st) -> None:
    """The best file goes next to the input: a folder that cannot take it (read-only, a
    file system mounted so) is said before the search measures, not after."""
    path = best_path(st)
    why = None
    if os.path.isdir(path):
        why = "it is a folder"
    else:
        why = folder_unwritable(os.path.dirname(os.path.abspath(path)))
    if why:
        raise LooptxError(f"cannot write the best variant to '{path}' ({why})",
                          hint="the search writes it next to the input: copy the input to a "
                               "writable folder and search it there", file=st.path)


def folder_unwritable(folder: str) -> str | None:
    """Why nothing can be created in `folder`, or None.  A file is made and removed: access()
    says yes to root on a read-only file system."""
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".looptx-", suffix=".tmp")
    except OSError as e:
        return e.strerror or str(e)
    os.close(fd)
    os.unlink(tmp)
    return None


def check_limits(st) -> None:
    """Values SQLite cannot record (64-bit integers) and an infinite time limit (no limit).
    The command line's are checked in arg_checks; these come from `def search`."""
    if isinstance(st.time_limit, float) and math.isinf(st.time_limit) and st.time_limit > 0:
        st.time_limit = None
    for name, option, value in (("seed", "seed", st.seed), ("total_runs", "budget", st.budget)):
        if isinstance(value, int) and value > MAX_INTEGER:
            where = st.spec.where("search", name) if st.spec is not None else {"file": st.path}
            raise AnnotationError(f"arg {name} must be at most 2**63-1 (a 64-bit integer), got {value}",
                                  hint=f"give a smaller {option}", **where)
