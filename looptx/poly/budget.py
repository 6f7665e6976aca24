"""Budgets for isl computations: operations, and the memory a computation may add."""
from __future__ import annotations

import threading
from contextlib import contextmanager

import islpy as isl


@contextmanager
def isl_budget(operations: int):
    """isl's operation count capped for a block: an overrun raises isl.Error, which the caller
    reports at its place, instead of running for minutes.  The previous cap comes back after.
    The memory the block may add is capped too: isl's exact dependence analysis of Pluto's
    time-tiled jacobi-1d grew to 11 GB before its operation count ran out, and a machine with
    less would have killed the process (or another).  isl reports a failed allocation as an
    error, which is raised as an overrun of the budget."""
    ctx = isl.DEFAULT_CONTEXT
    before = ctx.get_max_operations()
    ctx.set_max_operations(operations)
    ctx.reset_operations()
    _memory_cap(True)
    try:
        yield
    except isl.Error as e:
        if "allocation failure" not in str(e):
            raise
        raise isl.Error(f"maximal number of operations exceeded: the computation outgrew the memory "
                        f"it may take ({_GIB} GiB)") from None
    finally:
        ctx.set_max_operations(before)
        _memory_cap(False)


_GIB = 6       # memory one isl computation may add (GiB), or half of what the machine has free
# the process's own limit, set by the first budget to start and given back by the last to end
# (a search's threads build variants at once)
_CAP = {"depth": 0, "before": None}
_CAP_LOCK = threading.Lock()


def _memory_cap(enter: bool) -> None:
    """Caps the process's address space at what it has now plus the budget while a budget runs,
    where the platform lets it (Linux)."""
    with _CAP_LOCK:
        _CAP["depth"] += 1 if enter else -1
        if _CAP["depth"] != (1 if enter else 0):
            return
        try:
            import resource
            if not enter:
                if _CAP["before"] is not None:
                    resource.setrlimit(resource.RLIMIT_AS, _CAP["before"])
                _CAP["before"] = None
                return
            with open("/proc/self/status") as f:
                size = next(int(x.split()[1]) * 1024 for x in f if x.startswith("VmSize:"))
            with open("/proc/meminfo") as f:
                free = next(int(x.split()[1]) * 1024 for x in f if x.startswith("MemAvailable:"))
            before = resource.getrlimit(resource.RLIMIT_AS)
            cap = size + max(1 << 30, min(_GIB << 30, free // 2))
            if before[0] != resource.RLIM_INFINITY:
                cap = min(cap, before[0])
            resource.setrlimit(resource.RLIMIT_AS, (cap, before[1]))
            _CAP["before"] = before
        except (OSError, ValueError, StopIteration, ImportError):
            pass
