"""Ctrl-C during a search: one line, the best file of what was measured, and no child
process tracebacks.

Children (spawn workers, Dask nannies) share the terminal's process group, so they receive the
SIGINT too; a child still importing (numpy, distributed) then prints its own traceback.  The
threads that start them are started with SIGINT blocked (a thread keeps the mask it was made
with), and a worker ignores SIGINT once it runs (the parent ends them).  The fork server, which
imports the most, starts with SIGINT ignored (runtime/worker.py).  The main thread blocks it
only while it starts threads or processes, so Ctrl-C still reaches the search at once."""
from __future__ import annotations

import contextlib
import logging
import signal
import sys
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:                      # driver imports this module
    from looptx.search.driver import SearchOutcome


@contextlib.contextmanager
def sigint_blocked():
    """Threads and processes started inside inherit a mask with SIGINT blocked."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


@contextlib.contextmanager
def quiet_dask():
    """A cluster torn down mid-task logs warnings about lost data: not the user's concern."""
    loggers = [logging.getLogger(n) for n in ("distributed", "distributed.worker", "distributed.scheduler",
                                              "distributed.nanny", "distributed.core", "distributed.client")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for lg, lv in zip(loggers, levels):
            lg.setLevel(lv)


def interrupted(st, results: list, key: str, function=None, terminated: bool = False,
                failure=None, plugin: str | None = None) -> int:
    """After Ctrl-C (or SIGTERM: `terminated`) in the search of `key`: the best file of every
    size with a variant (the finished sizes in `results` and what the interrupted one
    measured), and one line on stderr; 130 (143).  `failure`, a DBWriteError (disk full),
    ends it the same way, with that error as the line; 2.  `plugin`: the line of a searcher
    plugin that raised (plugins.plugin_fault); 1, a failed run."""
    # a second Ctrl-C, or a scheduler's SIGTERM after it, would cut the best file or the line
    # short: the first signal wins
    old = {sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGINT, signal.SIGTERM)} \
        if threading.current_thread() is threading.main_thread() else {}
    try:
        out = None
        with contextlib.suppress(Exception):
            out = recorded_outcome(st.db, key)
        n = out.n_evals if out is not None else 0
        sizes = _sizes_of(key)
        best = [(sz, o) for sz, o in results if o.best_point is not None]
        if out is not None and out.best_point is not None:
            best.append((sizes, out))
        written = None
        with contextlib.suppress(Exception):
            # the other sizes the database holds for the same code stay in the best file
            from looptx.search.best import with_earlier_sizes
            from looptx.search.command import _fingerprint
            best = with_earlier_sizes(st, best, [o.search_key for _, o in results] + [key], _fingerprint(st, function))
        if best:
            with contextlib.suppress(Exception):
                from looptx.search.best import write_best
                written = write_best(st, best, function)
        what = f"best variant so far written to {written}; " if written else ""
        how = "terminated (SIGTERM)" if terminated else "interrupted"
        if failure is not None:
            kept = (f"; {what}every point recorded before is in {st.db} (free space or fix the "
                    "file, then continue with --resume)") if out is not None else \
                (f"; {what.rstrip('; ')}" if what else "") + f" ({failure.hint})"
            print(f"{failure.file}: error: {failure.what}; the search stopped after {n} "
                  f"evaluation{'s' if n != 1 else ''} of this size{kept}", file=sys.stderr)
            sys.stdout.flush()
            return 2
        if plugin is not None:
            print(f"{plugin}; the search stopped after {n} evaluation{'s' if n != 1 else ''} of this size"
                  + (f"; {what}every measured point is in {st.db} (--resume goes on, -a another searcher too)"
                     if n else ""), file=sys.stderr)
            sys.stdout.flush()
            return 1
        if n or results:
            print(f"looptx: search {how} after {n} evaluation{'s' if n != 1 else ''} of this "
                  f"size; {what}every measured point is in {st.db} (continue with --resume)",
                  file=sys.stderr)
        else:
            print(f"looptx: search {how} before its first evaluation: nothing was measured "
                  "(run it again to start)", file=sys.stderr)
        sys.stdout.flush()
        return 143 if terminated else 130
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def recorded_outcome(db, key: str) -> SearchOutcome:
    """The outcome of what the database holds of a search (an interrupted one included)."""
    from collections import Counter
    from looptx.search.db import ResultsDB
    from looptx.search.driver import Measurement, SearchOutcome, _best, _history
    with ResultsDB(db, create=False) as rdb:
        info = rdb.get_search(key)
        records = rdb.evaluations(key)
    records.sort(key=lambda r: r.eval_index)
    best = _best(records)
    bm = None if best is None else Measurement(status="ok", time=best.time, times=best.times,
                                               spread=best.spread, compile_time=best.compile_time,
                                               run_time=best.run_time, info=best.info)
    return SearchOutcome(search_key=key, best_point=best.point if best else None,
                         best_measurement=bm, best_record=best, n_evals=len(records),
                         counts=dict(Counter(r.status for r in records)), wall_time=0.0,
                         records=tuple(records), stop_reason="interrupted",
                         searchers=_history(info) if info is not None else ())


def _sizes_of(key: str) -> dict:
    import json
    try:
        return json.loads(key.split("|")[1])
    except (IndexError, ValueError):
        return {}



# A signal whose exception islpy swallowed (raised inside one of its callbacks, it prints the
# traceback and goes on): the search raises it again at its next round.
_pending: list = []


def note_signal(exc_type) -> None:
    _pending.append(exc_type)


def clear_signals() -> None:
    _pending.clear()


def raise_pending() -> None:
    if _pending:
        exc_type = _pending[0]
        _pending.clear()
        raise exc_type()
