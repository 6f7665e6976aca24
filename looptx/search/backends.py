"""Where a search's points are built and measured: local worker processes (builds in parallel,
one measurement at a time) or a dask.distributed cluster (local, or a scheduler's workers)."""
from __future__ import annotations

import concurrent.futures as cf
import contextlib
import os
import pickle
import uuid
from typing import Any, Callable

from looptx.runtime.worker import WorkerPool
from looptx.search.db import SearchError
from looptx.search.evaluate import (DEFAULT_PREPARE_TIMEOUT, Prepared, dask_measure_task, dask_prepare_task,
                                    install_evaluator, measure_task, measurement_from_call,
                                    prepare_task, prepared_from_call, restart_after_measure)
from looptx.search.interrupt import quiet_dask, sigint_blocked

DASK_CONNECT_TIMEOUT = 30.0   # seconds to reach a remote scheduler before giving up


def _chain(fut, fn: Callable[[Any], Any]) -> cf.Future:
    """A concurrent Future for fn(fut.result()); cancelling it cancels `fut` (also a Dask one)."""
    out: cf.Future = cf.Future()

    def done(f):
        if out.done():
            return
        try:
            value = fn(f.result())
        except BaseException as e:  # noqa: BLE001 - hand any failure to the waiting driver
            with contextlib.suppress(cf.InvalidStateError):
                out.set_exception(e)
            return
        with contextlib.suppress(cf.InvalidStateError):
            out.set_result(value)

    out.add_done_callback(lambda o: o.cancelled() and fut.cancel())
    fut.add_done_callback(done)
    return out


class _LocalBackend:
    n_devices = 1

    def __init__(self, evaluator, workers: int, context: str):
        # a CPU timing shares the machine with the batch's preparation (codegen, compilers):
        # it waits until the whole batch is prepared
        self.measure_alone = bool(getattr(evaluator, "times_on_cpu", False))
        try:
            pickle.dumps(evaluator)
        except Exception as e:  # noqa: BLE001 - fail once here, not once per point
            raise TypeError(f"the evaluator must be picklable to reach worker processes: "
                            f"{type(e).__name__}: {e}") from None
        init = dict(initializer=install_evaluator, initargs=(evaluator,), context=context)
        self._prep = WorkerPool(max(1, workers), name="looptx-prepare", **init)
        self._meas = WorkerPool(1, name="looptx-measure", **init)
        self._prepare_timeout = float(getattr(evaluator, "prepare_timeout", DEFAULT_PREPARE_TIMEOUT))
        self._timeout = float(evaluator.timeout)
        self._cache = getattr(evaluator, "cache_dir", None)

    def submit_prepare(self, point: dict) -> cf.Future:
        with sigint_blocked():           # the pool's threads start the children
            f = self._prep.submit(prepare_task, point, timeout=self._prepare_timeout)
        return _chain(f, lambda r: prepared_from_call(point, r))

    def submit_measure(self, prepared: Prepared) -> cf.Future:
        with sigint_blocked():
            f = self._meas.submit(measure_task, prepared, timeout=self._timeout,
                                  restart_after=restart_after_measure)
        return _chain(f, measurement_from_call)

    def close(self, kill: bool) -> None:
        self._prep.close(kill=True)      # only pure work can be left there: never wait for it
        self._meas.close(kill=kill)
        # a build killed with its worker leaves its temporary output, which nothing renames
        from looptx.runtime.cache_check import remove_orphan_temps
        from looptx.runtime.cpu import cache_dir
        for folder in {self._cache or cache_dir(),
                       os.environ.get("LOOPTX_CACHE_DIR") or os.path.expanduser("~/.cache/looptx/cuda")}:
            remove_orphan_temps(folder)


class _DaskBackend:
    def __init__(self, evaluator, executor, workers: int | None):
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError:
            raise SearchError("the Dask executor needs dask.distributed",
                              hint='pip install "dask[distributed]"') from None
        self._stack = contextlib.ExitStack()
        self._owns_client = False
        if executor == "local-dask":
            # Isolated measurement children need non-daemonic worker processes; the nanny reads
            # this setting whenever it (re)starts a worker, so it stays set for the cluster's life.
            self._stack.enter_context(dask.config.set({"distributed.worker.daemon": False}))
            # Read by the worker processes as they import distributed: the tasks that Ctrl-C
            # cancels would each log a warning there, and a heartbeat that meets the scheduler
            # closing at the end logs a traceback.  A task's own failure reaches the search
            # through its future, not through these logs.
            os.environ.setdefault("DASK_LOGGING", repr({
                **dask.config.get("logging", {}), "distributed.worker.state_machine": "error",
                "distributed.worker": "critical"}))
            with sigint_blocked():       # its event-loop thread starts the worker processes
                cluster = self._stack.enter_context(LocalCluster(
                    n_workers=workers or 1, threads_per_worker=1, processes=True,
                    # no dashboard; the scheduler's HTTP server (which it starts anyway) on a free
                    # port: on 8787, taken by another cluster, it warns on stderr
                    dashboard_address=None, scheduler_kwargs={"dashboard_address": ":0"}))
            client = self._stack.enter_context(Client(cluster))
        elif isinstance(executor, str):
            addr = "tcp://" + executor[len("dask://"):] if executor.startswith("dask://") else executor
            try:
                client = self._stack.enter_context(Client(addr, timeout=DASK_CONNECT_TIMEOUT))
            except (OSError, TimeoutError) as e:
                self._stack.close()
                raise SearchError(f"cannot reach the Dask scheduler at {executor!r} ({e})",
                                  hint="start it with `dask scheduler` or check --executor") from None
        else:
            client = executor
        self.client = client
        self.n_devices = max(1, len(client.nthreads()))
        self._token = uuid.uuid4().hex
        self._ev = client.scatter(evaluator, broadcast=True)
        self._prepare_timeout = float(getattr(evaluator, "prepare_timeout", DEFAULT_PREPARE_TIMEOUT))
        self._futures: list = []

    def _wrap(self, dfut, fn) -> cf.Future:
        self._futures.append(dfut)
        return _chain(dfut, fn)

    def submit_prepare(self, point: dict) -> cf.Future:
        f = self.client.submit(dask_prepare_task, self._ev, point, self._token,
                               self._prepare_timeout, pure=False)
        return self._wrap(f, lambda p: p)

    def submit_measure(self, prepared: Prepared) -> cf.Future:
        f = self.client.submit(dask_measure_task, self._ev, prepared, self._token, pure=False)
        return self._wrap(f, lambda m: m)

    def close(self, kill: bool) -> None:
        with contextlib.suppress(Exception):
            self.client.cancel([f for f in self._futures if not f.done()])
        self._futures.clear()
        with quiet_dask() if kill else contextlib.nullcontext():
            self._stack.close()


def make_backend(executor, evaluator, workers, context):
    if executor is None or executor == "local":
        return _LocalBackend(evaluator, workers or os.cpu_count() or 1, context)
    return _DaskBackend(evaluator, executor, workers)


# --- progress ---------------------------------------------------------------------------------
