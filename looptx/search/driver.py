"""The search loop: ask -> prepare -> dedupe -> measure -> record -> tell.

    outcome = run_search(space, searcher, evaluator, db="mm.looptx.db", search_key="mm.c|cuda",
                         budget=200)

Rounds: the searcher is asked for up to `searcher.batch_size` points (capped by what is left of
the budget).  All of them are prepared at once in a pool of isolated worker processes; they are
then taken in the order they were asked:
* a pruned point (prepare status != 'ok') is recorded at once;
* a point whose code hash was already measured in this search gets that measurement, recorded
  with `duplicate_of` = the eval index of the measured one (finalists the searcher flags in
  `searcher.remeasure` are measured again);
* otherwise it is measured in an isolated worker, one at a time per device (the local executor
  has one device; a Dask cluster has one per worker).
Each evaluation is committed to the database as soon as it completes; the searcher is told the
results in the order it asked, each only after it is committed.  Eval indices follow the ask
order, so a resumed search replays the tells in the same order.  The searcher's state is stored
after each round and when the call ends.

`resume=True` reloads the search's evaluations, calls `searcher.load_state` with the stored state
(when the searcher has the same name) and replays every evaluation through `searcher.tell`, then
continues until `budget` evaluations exist in total; nothing recorded is measured again.
`time_limit` counts the wall time of this call; when it passes, no new point is started, the
measurements in flight are completed and recorded, and the call returns.

Executors: None (local processes), 'local-dask' (a LocalCluster of `workers` single-threaded
worker processes, one per device), a `dask.distributed.Client`, or a scheduler address
('dask://HOST:PORT', 'tcp://...', 'tls://...').  Start remote workers with `--nthreads 1` (one per
GPU) and DASK_DISTRIBUTED__WORKER__DAEMON=False (or `--no-nanny`) so that each can keep an isolated
child process; otherwise measurements run inside the Dask worker and a crash costs the worker.
With several devices, give the searcher `batch_size` >= the number of devices to keep them busy.
"""
from __future__ import annotations

import concurrent.futures as cf
import contextlib
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Mapping

from looptx.errors import signals_deferred
from looptx.search.backends import make_backend
from looptx.search.base import Offered
from looptx.search.db import EvalRecord, ResultsDB, SearchError, utc_now
from looptx.search.same_failure import repeated_build_failure
from looptx.search.provenance import history as _history, searcher_label as _searcher_label
from looptx.search.options import options_to_record, recorded_options
from looptx.frontend.tuning import substitute_params
from looptx.search.evaluate import MEASURE_STATUSES, Measurement, Prepared

__all__ = ["run_search", "SearchOutcome", "describe_space"]

# The searcher state (its random stream, which replaying the tells does not advance) is stored
# after each round and at the end; it grows with the history, a few kB per thousand evaluations.
_LONGEST_WAIT = 3600.0


@dataclass(frozen=True)
class SearchOutcome:
    search_key: str
    best_point: dict | None
    best_measurement: Measurement | None
    best_record: EvalRecord | None
    n_evals: int                         # evaluations recorded for this search (all runs)
    counts: Mapping[str, int]            # evaluations per status (all runs)
    wall_time: float                     # seconds spent in this call
    records: tuple[EvalRecord, ...]      # all evaluations of the search, eval_index order
    # 'budget' | 'time_limit' | 'finished' (searcher done) | 'same_failure' (same_failure.py)
    stop_reason: str = "budget"
    n_measured: int = 0                  # measurements actually run by this call
    n_resumed: int = 0                   # evaluations replayed from the database
    # every searcher that measured for this search, in order, as 'name' or 'name {options}'
    searchers: tuple[str, ...] = ()


def describe_space(space) -> dict:
    """JSON description of a Space's parameters (stored with the search, checked on resume)."""
    def plain(v):
        return [plain(x) for x in v] if isinstance(v, (tuple, list)) else v
    return {
        "name": getattr(space, "name", None),
        "params": [{"name": p.name, "kind": p.kind, "values": plain(p.values),
                    "slots": list(getattr(p, "slots", ()) or ())} for p in space.params],
        "n_constraints": len(getattr(space, "constraints", ()) or ()),
        # their texts: an edited constraint changes the space as an edited value list does
        "constraints": [f"{c.label}: {' '.join(c.expr.text.split())}"
                        for c in getattr(space, "constraints", ()) or ()
                        if isinstance(getattr(getattr(c, "expr", None), "text", None), str)
                        and isinstance(getattr(c, "label", None), str)],
    }


def _best(records) -> EvalRecord | None:
    ok = [r for r in records if r.ok and r.time is not None]
    return min(ok, key=lambda r: (r.time, r.eval_index)) if ok else None


# --- executors ------------------------------------------------------------------------------

class _Progress:
    def __init__(self, enabled: bool, budget: int, done: int, best: EvalRecord | None):
        self._p = None
        self._best = best.time if best is not None else None
        if not enabled:
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, \
            TimeElapsedColumn
        self._p = Progress(TextColumn("search"), BarColumn(), MofNCompleteColumn(),
                           TimeElapsedColumn(), TextColumn("{task.fields[best]}"),
                           TextColumn("{task.fields[counts]}"), transient=False)
        self._task = self._p.add_task("search", total=budget, completed=done, best="", counts="")
        self._p.start()

    def update(self, done: int, rec: EvalRecord, counts: Counter) -> None:
        if self._p is None:
            return
        if rec.ok and rec.time is not None and (self._best is None or rec.time < self._best):
            self._best = rec.time
        b = f"best {self._best:.4g} s" if self._best is not None else "best -"
        c = " ".join(f"{k}:{v}" for k, v in sorted(counts.items()))
        self._p.update(self._task, completed=done, best=b, counts=c)

    def stop(self) -> None:
        if self._p is not None:
            self._p.stop()


# --- the loop ---------------------------------------------------------------------------------

def _point_flags(flags: str | None, point: Mapping) -> str | None:
    # a build command with @NAME@ placeholders: each evaluation records the flags it was built with
    return substitute_params(flags, point) if flags and "@" in flags else flags


def _record(prepared_or_point, status: str, m: Measurement | None, *, index: int, desc: Mapping,
            point: dict, pkey: str, duplicate_of: int | None = None) -> EvalRecord:
    p = prepared_or_point if isinstance(prepared_or_point, Prepared) else None
    info = dict(m.info) if m is not None else {}
    dup = duplicate_of is not None
    return EvalRecord(
        eval_index=index, point=dict(point), point_key=pkey, status=status,
        time=m.time if (m is not None and status == "ok") else None,
        times=tuple(m.times) if m is not None else (),
        spread=m.spread if m is not None else None,
        code_hash=p.code_hash if p else None, recipe=p.recipe if p else None,
        compiler=desc.get("compiler"), flags=_point_flags(desc.get("flags"), point),
        device=info.get("device") or desc.get("device"),
        compile_time=0.0 if (dup or m is None) else float(m.compile_time),
        run_time=0.0 if (dup or m is None) else float(m.run_time),
        error=(m.error if m is not None else (p.error if p else None)),
        duplicate_of=duplicate_of, info=info, timestamp=utc_now())


def run_search(space, searcher, evaluator, *, db, search_key: str, budget: int,
               time_limit: float | None = None, executor=None, workers: int | None = None,
               progress: bool = True, resume: bool = False,
               on_record: Callable[[EvalRecord], None] | None = None,
               input_file: str | None = None, problem: Mapping | None = None,
               searcher_options: Mapping | None = None, context: str = "default",
               fingerprint: str | None = None,
               warn: Callable[[str], None] | None = None,
               settings: Mapping | None = None) -> SearchOutcome:
    """Run (or resume) one search; see the module docstring.  `db` is a path or a ResultsDB.
    `fingerprint` identifies what a point measures (code, recipe, build command): stored with
    the search, a resume with another one is refused.  `warn` gets what a resume accepts but
    the user should know (other searcher options than recorded; default: warnings.warn).
    `settings` (repetitions, timeout, rtol) decide what a measurement and a pass are: a
    resume with others is refused, as with another fingerprint."""
    from looptx.search.space import point_key

    t_start = time.monotonic()
    own_db = not isinstance(db, ResultsDB)
    rdb = ResultsDB(db) if own_db else db
    try:
        if own_db:
            rdb.lock()
        if warn is not None:
            rdb.warn = warn
        return _run(space, searcher, evaluator, rdb, search_key, int(budget), time_limit, executor,
                    workers, progress, resume, on_record, input_file, problem, searcher_options,
                    context, point_key, t_start, fingerprint, warn, settings)
    finally:
        if own_db:
            rdb.close()


def _open_search(rdb: ResultsDB, key, space, searcher, evaluator, budget, time_limit, resume,
                 input_file, problem, searcher_options, desc, fingerprint=None,
                 warn=None, settings=None) -> list[EvalRecord]:
    from looptx.search.resume_checks import constraint_change, settings_change
    space_desc = describe_space(space)
    if fingerprint is not None:
        space_desc["fingerprint"] = fingerprint
    if settings is not None:
        space_desc["settings"] = json.loads(json.dumps(dict(settings)))
    info = rdb.get_search(key)
    if info is not None and info.n_evals == 0:
        # A start that failed before any evaluation (e.g. no Dask scheduler) holds nothing
        # worth keeping: start over rather than insist on --resume.
        rdb.delete_search(key)
        info = None
    if info is None:
        rdb.create_search(key, input_file=input_file, problem=problem,
                          backend=desc.get("backend"), searcher=getattr(searcher, "name", None),
                          searcher_options=_options_record(searcher, searcher_options),
                          seed=getattr(searcher, "seed", None), budget=budget,
                          time_limit=time_limit, space=space_desc, evaluator=desc)
        return []
    stored = json.loads(json.dumps(info.space)) if info.space is not None else None
    space_changed = stored is not None and stored.get("params") != json.loads(json.dumps(space_desc))["params"]
    # older databases recorded neither: nothing to compare
    constraints = constraint_change(stored.get("constraints"), space_desc["constraints"]) \
        if stored is not None and stored.get("constraints") is not None else None
    measuring = settings_change(stored.get("settings"), space_desc.get("settings")) \
        if stored is not None and stored.get("settings") is not None and settings is not None else None
    code_changed = stored is not None and fingerprint is not None and stored.get("fingerprint") is not None \
        and stored["fingerprint"] != fingerprint
    if not resume:
        # an edited annotation (Orio's usual loop) cannot be continued: say so now, not after
        # a --resume that fails
        why = " with another search space" if space_changed or constraints else \
            " with other code, recipe or build command" if code_changed else \
            " with other measurement settings" if measuring else ""
        raise SearchError(f"search {key!r} is already recorded in '{rdb.path}'{why}",
                          hint="pick another --db, or remove the database to start over" if why
                          else "continue it with --resume, or pick another --db",
                          file=str(rdb.path))
    if space_changed or constraints:
        # every change at once: fixing one should not reveal the next
        changes, how = [constraints] if constraints else [], \
            "resume with the constraints the search was recorded with, or start a new --db"
        if space_changed:
            from looptx.search.resume_checks import space_change
            what, how = space_change(stored.get("params") or [], json.loads(json.dumps(space_desc))["params"])
            changes.insert(0, what)
        also = [x for x in (measuring and f"the measurement settings ({measuring})",
                            code_changed and "the code, recipe or build command") if x]
        raise SearchError(f"the search space of {key!r} changed since it was recorded: {'; '.join(changes)}"
                          + (f"; also {' and '.join(also)}" if also else ""), hint=how, file=str(rdb.path))
    if measuring:
        raise SearchError(f"the measurement settings of {key!r} changed since it was recorded "
                          f"({measuring}), so its results would not be comparable",
                          hint="resume with the recorded settings, or start a new --db",
                          file=str(rdb.path))
    if code_changed:
        raise SearchError(f"the code, recipe or build command of {key!r} changed since it was "
                          "recorded, so its results would not be comparable",
                          hint="start a new --db, or drop --resume and remove the old database "
                               "to start over",
                          file=str(rdb.path))
    records = rdb.evaluations(key)
    same = info.searcher == getattr(searcher, "name", None)
    # As with another searcher, other options are the user's call: the history is kept and
    # told to the searcher, whose saved state (made under the old options) is not used.
    changed = _changed_options(searcher, info.searcher_options) if same else []
    if not same:
        # The best file names who found what: a run that switched searchers keeps them all.
        history = list(_history(info)) + [_searcher_label(searcher, searcher_options)]
        rdb.update_search(key, evaluator={**(info.evaluator if isinstance(info.evaluator, dict) else {}),
                                          "searchers": history})
        (warn or _py_warn)(f"search {key!r} was recorded with searcher {info.searcher!r} and resumes "
                           f"with {getattr(searcher, 'name', None)!r}: its {len(records)} evaluations "
                           "are told to the new searcher, which goes on from them")
        rdb.update_search(key, searcher=getattr(searcher, "name", None),
                          searcher_options=_options_record(searcher, searcher_options))
    if changed:
        (warn or _py_warn)(f"search {key!r} resumes with other searcher options than it was "
                           f"recorded with ({'; '.join(changed)}): its evaluations are kept and "
                           "the searcher goes on with the new options")
        rdb.update_search(key, searcher_options=_options_record(searcher, searcher_options))
    elif same and info.searcher_options is not None:
        # recorded under an older meaning: kept with today's, so that it is read once as that
        today = _options_record(searcher, recorded_options(type(searcher), info.searcher_options))
        if today != info.searcher_options:
            rdb.update_search(key, searcher_options=today)
    # another seed (the user's --seed) is another random stream: the saved one is not restored
    reseeded = info.seed is not None and getattr(searcher, "seed", info.seed) != info.seed
    if reseeded:
        rdb.update_search(key, seed=searcher.seed)
    if info.state is not None and same and not changed and not reseeded:
        searcher.load_state(info.state)
    for r in records:
        searcher.tell(r.point, r.result())
    rdb.update_search(key, budget=budget, time_limit=time_limit, status="running", finished=None)
    return records


def _py_warn(text: str) -> None:
    import warnings
    warnings.warn(text, stacklevel=4)


def _options_record(searcher, given) -> dict | None:
    options = dict(given) if given is not None else getattr(searcher, "opts", None)
    return None if options is None else options_to_record(type(searcher), options)


def _changed_options(searcher, stored) -> list[str]:
    """'name old -> new' for each option of `searcher` that differs from the stored ones (the
    options given when the search was created, read with the searcher's defaults)."""
    new = getattr(searcher, "opts", None)
    parse = getattr(type(searcher), "_parse_options", None)
    if new is None or parse is None:
        return []
    try:
        old = parse(recorded_options(type(searcher), stored))
    except Exception:  # noqa: BLE001 - an option this searcher no longer knows
        return [f"recorded {json.dumps(stored, default=str)}"]

    def plain(v):
        return json.loads(json.dumps(v, default=str))
    return [f"{k} {plain(old.get(k))!r} -> {plain(new.get(k))!r}" for k in sorted(set(old) | set(new))
            if plain(old.get(k)) != plain(new.get(k))]


def _run(space, searcher, evaluator, rdb, key, budget, time_limit, executor, workers, progress,
         resume, on_record, input_file, problem, searcher_options, context, point_key, t_start,
         fingerprint=None, warn=None, settings=None):
    desc = dict(evaluator.describe() or {})
    records: list[EvalRecord] = _open_search(rdb, key, space, searcher, evaluator, budget,
                                             time_limit, resume, input_file, problem,
                                             searcher_options, desc, fingerprint, warn, settings)
    n_resumed = len(records)
    # a build command that takes params (`gcc @CF@`, Orio's @CFLAGS): its flags vary by point
    parts = getattr(evaluator, "parts", None) or [evaluator]
    tuned_flags = any("@" in str(getattr(e, "build_command", "") or "") for e in parts)
    counts = Counter(r.status for r in records)
    # code hash -> the record whose measurement it owns (measured, not a duplicate)
    measured: dict[str, EvalRecord] = {}
    for r in records:
        if r.code_hash and r.duplicate_of is None and r.status in MEASURE_STATUSES:
            measured.setdefault(r.code_hash, r)
    next_index = (max(r.eval_index for r in records) + 1) if records else 0
    deadline = None if time_limit is None else t_start + float(time_limit)
    stop_reason = "budget"
    n_measured = 0
    show = progress and sys.stdout.isatty()
    bar = _Progress(show, budget, len(records), _best(records))
    backend = None
    status = "interrupted"
    # (now, before the first round: its batch size is what a resume goes on with)
    _save_state(rdb, key, searcher)
    offered = Offered(space, (r.point_key for r in records))
    try:
        backend = make_backend(executor, evaluator, workers, context)
        while True:
            left = budget - len(records)
            if left <= 0:
                stop_reason = "budget"
                break
            # As Orio and Kernel Tuner do, the limit is checked only once this call has an
            # evaluation: a limit shorter than the setup still measures a point.
            started = len(records) > n_resumed
            if deadline is not None and started and time.monotonic() >= deadline:
                stop_reason = "time_limit"
                break
            if getattr(searcher, "finished", False):
                stop_reason = "finished"
                break
            from looptx.search.interrupt import raise_pending
            raise_pending()             # a Ctrl-C or SIGTERM that isl's code swallowed
            n = max(1, min(int(getattr(searcher, "batch_size", 1) or 1), left))
            points = searcher.ask(n)
            points = offered.fresh(searcher, points, len(offered.handed) + left) if points else None
            if points is None:
                stop_reason = "finished"
                break
            if not points:
                continue
            points = points[:left]
            remeasure = set(getattr(searcher, "remeasure", ()) or ())
            out, timed_out, nm = _round(points, backend, searcher, rdb, key, desc, point_key,
                                        measured, remeasure, next_index,
                                        deadline if started else None,
                                        lambda rec: _after_record(rec, records, counts, bar,
                                                                  on_record, budget))
            n_measured += nm
            if out:
                next_index = max(r.eval_index for r in out) + 1
            # after each round: a search killed (SIGKILL, OOM) in the next one resumes from the
            # state that asked it, and draws what the uninterrupted search draws (probe 208 G1)
            _save_state(rdb, key, searcher)
            if timed_out:
                stop_reason = "time_limit"
                break
            # (a search that has spent its budget ends as such, not as stopped by its failures)
            if len(records) < budget and repeated_build_failure(records, n_resumed, tuned_flags):
                stop_reason = "same_failure"
                break
        status = "finished"
    finally:
        try:
            bar.stop()
            if backend is not None:
                backend.close(kill=status != "finished")
        finally:
            # a Ctrl-C while the workers stop (a stuck one may be stopped so) must not leave the
            # search 'running': its state and status are written first
            with signals_deferred():
                with contextlib.suppress(Exception):
                    _save_state(rdb, key, searcher)
                with contextlib.suppress(Exception):
                    rdb.update_search(key, status=status, finished=utc_now() if status == "finished" else None)
    records.sort(key=lambda r: r.eval_index)
    best = _best(records)
    info = rdb.get_search(key)
    bm = None if best is None else Measurement(status="ok", time=best.time, times=best.times,
                                               spread=best.spread, compile_time=best.compile_time,
                                               run_time=best.run_time, info=best.info)
    return SearchOutcome(search_key=key, best_point=best.point if best else None,
                         best_measurement=bm, best_record=best, n_evals=len(records),
                         counts=dict(counts), wall_time=time.monotonic() - t_start,
                         records=tuple(records), stop_reason=stop_reason, n_measured=n_measured,
                         n_resumed=n_resumed,
                         searchers=_history(info) if info is not None else ())


def _after_record(rec, records, counts, bar, on_record, budget):
    records.append(rec)
    counts[rec.status] += 1
    bar.update(len(records), rec, counts)
    if on_record is not None:
        on_record(rec)


def _save_state(rdb, key, searcher) -> None:
    try:
        state = searcher.state()
        json.dumps(state)
    except (TypeError, ValueError, NotImplementedError):
        state = None  # resume then relies on replaying tells alone
    rdb.update_search(key, state=state)


def _round(points, backend, searcher, rdb, key, desc, point_key, measured, remeasure,
           first_index, deadline, recorded) -> tuple[list[EvalRecord], bool, int]:
    """Evaluate one batch; returns (records, stopped by the time limit, measurements run)."""
    n = len(points)
    keys = [point_key(p) for p in points]
    prep_f = [backend.submit_prepare(p) for p in points]
    prepared: list[Prepared | None] = [None] * n
    slots: list[EvalRecord | None] = [None] * n
    index: list[int | None] = [None] * n
    inflight: dict[cf.Future, int] = {}       # measurement future -> position in the batch
    owner: dict[str, int] = {}                # code hash -> position measuring it in this batch
    waiting: dict[int, list[int]] = {}        # position measuring -> duplicates waiting for it
    consumed = told = n_measured = 0
    stopped = False
    alone = getattr(backend, "measure_alone", False)
    done_list: list[EvalRecord] = []

    def finish(i: int, rec: EvalRecord) -> None:
        rdb.add_evaluation(key, rec)          # committed before anyone is told
        slots[i] = rec
        done_list.append(rec)
        recorded(rec)

    def dup_record(i: int, src: EvalRecord) -> EvalRecord:
        m = Measurement(status=src.status, time=src.time, times=src.times, spread=src.spread,
                        error=src.error, info=src.info)
        return _record(prepared[i], src.status, m, index=index[i], desc=desc, point=points[i],
                       pkey=keys[i], duplicate_of=src.eval_index)

    try:
        while told < n:
            # Take prepared points in ask order while the devices have room.
            while not stopped and consumed < n and prep_f[consumed].done():
                if deadline is not None and time.monotonic() >= deadline:
                    stopped = True
                    break
                i = consumed
                try:
                    p = prep_f[i].result()
                except Exception as e:  # noqa: BLE001 - executor-level failure (e.g. Dask)
                    p = Prepared(point=points[i], status="codegen_error",
                                 error=f"prepare failed: {type(e).__name__}: {e}")
                h = p.code_hash if p.ok else None
                fresh = h is None or keys[i] in remeasure
                if p.ok and (fresh or (h not in measured and h not in owner)) \
                        and (len(inflight) >= backend.n_devices or alone and not all(f.done() for f in prep_f)):
                    break                      # wait for a device, or for the batch's preparation
                prepared[i], index[i] = p, first_index + i
                consumed += 1
                if not p.ok:
                    finish(i, _record(p, p.status, None, index=index[i], desc=desc,
                                      point=points[i], pkey=keys[i]))
                elif not fresh and h in measured:
                    finish(i, dup_record(i, measured[h]))
                elif not fresh and h in owner:
                    waiting.setdefault(owner[h], []).append(i)
                else:
                    if h is not None and keys[i] not in remeasure:
                        owner[h] = i
                    inflight[backend.submit_measure(p)] = i
            while told < n and slots[told] is not None:
                searcher.tell(points[told], slots[told].result())
                told += 1
            if told >= n or (stopped and not inflight):
                break
            wait_on = list(inflight)
            if not stopped and consumed < n and not prep_f[consumed].done():
                wait_on.append(prep_f[consumed])
            elif not stopped and consumed < n and alone:
                wait_on += [f for f in prep_f if not f.done()]
            if not wait_on:
                raise RuntimeError("search driver stalled (internal error)")
            # capped: a limit of 1e300 s overflows the wait's clock (the loop waits again)
            timeout = None if deadline is None else min(max(0.0, deadline - time.monotonic()) + 0.01,
                                                         _LONGEST_WAIT)
            done, _ = cf.wait(wait_on, timeout=timeout, return_when=cf.FIRST_COMPLETED)
            if not done and deadline is not None and time.monotonic() >= deadline:
                stopped = True
            for f in done:
                if f not in inflight:
                    continue
                i = inflight.pop(f)
                try:
                    m = f.result()
                except Exception as e:  # noqa: BLE001 - e.g. the Dask worker died (KilledWorker)
                    m = Measurement(status="crash", error=f"{type(e).__name__}: {e}")
                n_measured += 1
                rec = _record(prepared[i], m.status, m, index=index[i], desc=desc,
                              point=points[i], pkey=keys[i])
                finish(i, rec)
                h = prepared[i].code_hash
                if h and keys[i] not in remeasure:
                    measured.setdefault(h, rec)
                    owner.pop(h, None)
                for j in waiting.pop(i, []):
                    finish(j, dup_record(j, rec))
    finally:
        for f in prep_f:
            f.cancel()
    return sorted(done_list, key=lambda r: r.eval_index), stopped, n_measured
