"""The evaluation interface between the search driver and a backend (C, CUDA, fakes in tests).

An evaluation has two halves so the driver can treat them differently:

* `prepare(point)` is pure and cheap-ish (bind the recipe, check legality, generate code).  The
  driver runs many at once in a process pool and uses `Prepared.code_hash` to measure each
  distinct generated program only once.
* `measure(prepared)` compiles, runs, validates and times.  The driver runs it one at a time per
  device, each call in an isolated child process (`looptx.runtime.worker`), so a segfault, a CUDA
  fault or a hang costs only that one evaluation.

Evaluators travel to child processes and Dask workers by pickle, so they must be picklable and
their class importable by module path.  Optional attributes the driver honours:
`prepare_timeout` (seconds for one `prepare`, default `DEFAULT_PREPARE_TIMEOUT`).
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol, Sequence, runtime_checkable

# Statuses a `Prepared` may carry: 'ok' means "go and measure it", the rest are pruned points that
# the driver records and reports to the searcher as failures without building anything.
PRUNED_STATUSES = ("illegal", "over_limit", "codegen_error", "invalid")
PREPARE_STATUSES = ("ok",) + PRUNED_STATUSES
# A variant that agrees with an original whose outputs hold NaN/Inf on every input data set is
# not shown right: it is a 'wrong_result' with info['unvalidated'] (runtime/reference.py), never
# an ok point a search could call its best.
MEASURE_STATUSES = ("ok", "compile_error", "runtime_error", "crash", "timeout", "wrong_result")
ALL_STATUSES = MEASURE_STATUSES + PRUNED_STATUSES

DEFAULT_PREPARE_TIMEOUT = 300.0


@dataclass(frozen=True)
class Prepared:
    """Output of `Evaluator.prepare`: what to build for one point, or why not to."""

    point: dict
    status: str
    code_hash: str | None = None   # sha256 of generated source + build flags; equal -> measured once
    recipe: str | None = None      # the concrete recipe applied, recorded in the database
    error: str | None = None
    payload: Any = None            # opaque to the driver; must be picklable

    @property
    def ok(self) -> bool:
        return self.status == "ok"


@dataclass(frozen=True)
class Measurement:
    """Output of `Evaluator.measure`.

    `time` is the median over repetitions in seconds (status 'ok' only).  `spread` is the
    interquartile range divided by the median, (p75 - p25) / median, as computed by
    `summarize_times`; evaluators should use that definition so spreads compare across backends.
    """

    status: str
    time: float | None = None
    times: tuple[float, ...] = ()
    spread: float | None = None
    compile_time: float = 0.0
    run_time: float = 0.0
    error: str | None = None
    info: Mapping[str, Any] = field(default_factory=dict)  # e.g. transfer_time, max_rel_error

    @property
    def ok(self) -> bool:
        return self.status == "ok"


@runtime_checkable
class Evaluator(Protocol):
    """What the driver needs from a backend.  Must be picklable."""

    timeout: float  # seconds allowed for one measure() call

    def prepare(self, point: dict) -> Prepared:
        ...

    def measure(self, prepared: Prepared) -> Measurement:
        ...

    def describe(self) -> dict:
        """E.g. {'compiler': 'gcc 12.2', 'flags': '-O3', 'device': 'cpu: ...', 'backend': 'c'}."""
        ...


def summarize_times(times: Sequence[float]) -> tuple[float, float]:
    """(median, (p75 - p25) / median) of repeated timings: robust to the odd slow repetition."""
    if not times:
        raise ValueError("no timings")
    xs = sorted(float(t) for t in times)
    med = statistics.median(xs)
    if len(xs) < 2:
        return med, 0.0
    q = statistics.quantiles(xs, n=4, method="inclusive")
    spread = (q[2] - q[0]) / med if med > 0 else 0.0
    return med, spread


def checked_measurement(m: Any) -> Measurement:
    """Guard against evaluator bugs: a non-Measurement or an 'ok' without a usable time would
    otherwise poison the searcher's model or the best-so-far."""
    if not isinstance(m, Measurement):
        return Measurement(status="runtime_error",
                           error=f"evaluator.measure returned {type(m).__name__}, not Measurement")
    if m.ok and m.info.get("unvalidated"):
        return Measurement(status="wrong_result", times=m.times, compile_time=m.compile_time,
                           run_time=m.run_time, info=m.info,
                           error=m.error or "the result could not be validated")
    if m.ok and (m.time is None or not isinstance(m.time, (int, float))
                 or not math.isfinite(m.time) or m.time < 0):
        return Measurement(status="runtime_error", times=m.times, compile_time=m.compile_time,
                           run_time=m.run_time, info=m.info,
                           error=f"measurement reported status ok without a valid time ({m.time!r})")
    return m


def checked_prepared(p: Any, point: dict) -> Prepared:
    """Same guard for prepare(): anything malformed becomes a pruned 'codegen_error'."""
    if not isinstance(p, Prepared):
        return Prepared(point=point, status="codegen_error",
                        error=f"evaluator.prepare returned {type(p).__name__}, not Prepared")
    if p.status not in PREPARE_STATUSES:
        return Prepared(point=point, status="codegen_error", code_hash=p.code_hash, recipe=p.recipe,
                        error=f"evaluator.prepare returned unknown status {p.status!r}")
    return p


def prepare_point(evaluator: Evaluator, point: dict) -> Prepared:
    """`evaluator.prepare` with user-level errors turned into pruned statuses.

    A LegalityError is the normal way a recipe step rejects a point ('illegal'); any other
    LooptxError means the point makes no sense for this input ('invalid').  Other exceptions are
    left to the caller (the worker reports them, the driver records 'codegen_error')."""
    from looptx.errors import LegalityError, LooptxError

    try:
        return checked_prepared(evaluator.prepare(point), point)
    except LegalityError as e:
        return Prepared(point=point, status="illegal", error=str(e))
    except LooptxError as e:
        return Prepared(point=point, status="invalid", error=str(e))


def measure_prepared(evaluator: Evaluator, prepared: Prepared) -> Measurement:
    """`evaluator.measure` with its output validated (exceptions are left to the caller)."""
    return checked_measurement(evaluator.measure(prepared))


# --- Task functions run in worker processes (local isolated workers and Dask workers) ---------
# They are module-level so that they pickle by reference.

def install_evaluator(evaluator: Evaluator) -> Evaluator:
    """Initializer of the driver's isolated workers: the evaluator crosses the pipe once per child
    start and is then reached through `looptx.runtime.worker.worker_state()`."""
    return evaluator


def prepare_task(point: dict) -> Prepared:
    from looptx.runtime.worker import worker_state
    return prepare_point(worker_state(), point)


def measure_task(prepared: Prepared) -> Measurement:
    from looptx.runtime.worker import worker_state
    return measure_prepared(worker_state(), prepared)


def prepared_from_call(point: dict, r) -> Prepared:
    """A `CallResult` of `prepare_task` as a Prepared (a crashed/hung/raising prepare is pruned
    as 'codegen_error': the point cannot be built, whatever the reason)."""
    if r.ok:
        return checked_prepared(r.value, point)
    what = {"timeout": "timed out", "crash": "crashed", "error": "failed"}.get(r.status, r.status)
    return Prepared(point=point, status="codegen_error", error=f"prepare {what}: {r.error}")


def measurement_from_call(r) -> Measurement:
    """A `CallResult` of `measure_task` as a Measurement ('crash' / 'timeout' keep their name;
    an exception escaping measure() is a 'runtime_error')."""
    if r.ok:
        return checked_measurement(r.value)
    status = r.status if r.status in ("crash", "timeout") else "runtime_error"
    error = r.error
    if status == "timeout":
        # the build, the reference run, validation and the timed runs share one limit
        error += (": the limit covers building, validating and timing one point; raise it with "
                  "`arg timeout = SECONDS;` in the performance_counter section")
    return Measurement(status=status, error=error, run_time=r.elapsed)


def restart_after_measure(r) -> bool:
    # A runtime error may leave the device context unusable (CUDA faults are sticky): start the
    # next measurement in a fresh process rather than trust it.
    return r.ok and isinstance(r.value, Measurement) and r.value.status == "runtime_error"


# Dask tasks: a Dask worker keeps one isolated child per kind (prepare/measure) per search run,
# so a crash costs the call and not the Dask worker ("one worker per GPU").
_DASK_CHILDREN: dict = {}


def _dask_child(token: str, kind: str, evaluator: Evaluator):
    import multiprocessing as mp
    import threading

    from looptx.runtime.worker import IsolatedWorker

    if mp.current_process().daemon:
        return None  # daemonic Dask worker processes may not have children: run in-process
    lock = _DASK_CHILDREN.setdefault("lock", threading.Lock())
    with lock:
        stale = [k for k in _DASK_CHILDREN if k != "lock" and k[0] != token]
        for k in stale:
            _DASK_CHILDREN.pop(k).close()
        key = (token, kind, threading.get_ident())
        if key not in _DASK_CHILDREN:
            _DASK_CHILDREN[key] = IsolatedWorker(initializer=install_evaluator,
                                                 initargs=(evaluator,),
                                                 name=f"looptx-dask-{kind}")
        return _DASK_CHILDREN[key]


def _worker_address() -> str | None:
    try:
        from distributed import get_worker
        return get_worker().address
    except Exception:  # noqa: BLE001 - not inside a Dask worker
        return None


def dask_prepare_task(evaluator: Evaluator, point: dict, token: str, timeout: float) -> Prepared:
    child = _dask_child(token, "prepare", evaluator)
    if child is None:
        try:
            return prepare_point(evaluator, point)
        except Exception as e:  # noqa: BLE001 - same meaning as a failed isolated prepare
            return Prepared(point=point, status="codegen_error",
                            error=f"prepare failed: {type(e).__name__}: {e}")
    return prepared_from_call(point, child.call(prepare_task, point, timeout=timeout))


def dask_measure_task(evaluator: Evaluator, prepared: Prepared, token: str) -> Measurement:
    import dataclasses

    child = _dask_child(token, "measure", evaluator)
    if child is None:
        try:
            m = measure_prepared(evaluator, prepared)
        except Exception as e:  # noqa: BLE001
            m = Measurement(status="runtime_error", error=f"{type(e).__name__}: {e}")
    else:
        m = measurement_from_call(child.call(measure_task, prepared, timeout=evaluator.timeout,
                                             restart_after=restart_after_measure))
    addr = _worker_address()
    if addr is not None:
        m = dataclasses.replace(m, info={**dict(m.info), "dask_worker": addr})
    return m
