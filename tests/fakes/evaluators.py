"""Deterministic fake evaluators for driver tests (picklable, importable by children)."""
from __future__ import annotations

import hashlib
import os
import signal
import time
from dataclasses import dataclass, field

from looptx.errors import LegalityError
from looptx.search.evaluate import Measurement, Prepared
from looptx.search.space import Param, Space, point_key


def grid_space(nx: int = 6, ny: int = 4, name: str = "grid") -> Space:
    return Space([Param.of("x", list(range(nx))), Param.of("y", list(range(ny)))], name=name)


def fake_time(point) -> float:
    """A bowl with its minimum at x=3, y=2 (1 ms); a mapping param 'm' is best led by 'j'."""
    t = 1 + (point.get("x", 3) - 3) ** 2 + (point.get("y", 2) - 2) ** 2
    if "m" in point:
        t += 0 if point["m"][0] == "j" else 1
    return 1e-3 * t


def key_xy(x, y) -> str:
    return point_key({"x": x, "y": y})


@dataclass
class FakeEvaluator:
    """Times are a function of the point; `faults` maps a point_key to a misbehaviour:
    'compile_error' | 'segfault' | 'hang' | 'wrong' | 'raise' | 'exit' (measure),
    'illegal' | 'legality_error' | 'prepare_raise' | 'prepare_segfault' (prepare).
    `log` (a file path) gets one line per measure() call: the side channel that shows what was
    really measured.  `same_code_by` names the parameters the generated code depends on (others
    are ignored by the hash, which makes duplicates)."""

    timeout: float = 2.0
    prepare_timeout: float = 20.0
    log: str | None = None
    sleep: float = 0.0
    faults: dict = field(default_factory=dict)
    same_code_by: tuple | None = None

    def prepare(self, point):
        key = point_key(point)
        fault = self.faults.get(key)
        if fault == "illegal":
            return Prepared(point=point, status="illegal", error="tile breaks a dependence")
        if fault == "legality_error":
            raise LegalityError("step 1 (tile) would reverse a dependence")
        if fault == "prepare_raise":
            raise RuntimeError("codegen bug")
        if fault == "prepare_segfault":
            os.kill(os.getpid(), signal.SIGSEGV)
        names = self.same_code_by or tuple(sorted(point))
        code = ";".join(f"{n}={point[n]}" for n in names)
        return Prepared(point=point, status="ok",
                        code_hash=hashlib.sha256(code.encode()).hexdigest(),
                        recipe=f"tile {code}", payload={"key": key, "fault": fault,
                                                        "time": fake_time(point)})

    def measure(self, prepared):
        p = prepared.payload
        if self.log:
            with open(self.log, "a", encoding="utf-8") as f:
                f.write(p["key"] + "\n")
        if self.sleep:
            time.sleep(self.sleep)
        fault = p["fault"]
        if fault == "segfault":
            os.kill(os.getpid(), signal.SIGSEGV)
        if fault == "exit":
            os._exit(5)
        if fault == "hang":
            time.sleep(3600)
        if fault == "raise":
            raise RuntimeError("kernel launch failed")
        if fault == "compile_error":
            return Measurement(status="compile_error", error="fakecc: syntax error",
                               compile_time=0.01)
        if fault == "wrong":
            return Measurement(status="wrong_result", error="max relative error 1.0",
                               info={"max_rel_error": 1.0})
        t = p["time"]
        return Measurement(status="ok", time=t, times=(t, t, t), spread=0.0, compile_time=0.01,
                           run_time=3 * t, info={"max_rel_error": 0.0})

    def describe(self):
        return {"compiler": "fakecc 1.0", "flags": "-O2", "device": "cpu: fake",
                "backend": "fake"}


def read_log(path) -> list[str]:
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip()]


@dataclass
class CpuTimedEvaluator(FakeEvaluator):
    """Times on this machine's cores (as CEvaluator): `log` gets 'prepared T' when a point's
    preparation ends and 'measure T' when a measurement starts (T: wall clock); points with an
    odd x prepare slowly."""
    times_on_cpu: bool = True
    slow_prepare: float = 0.4

    def prepare(self, point):
        if point.get("x", 0) % 2:
            time.sleep(self.slow_prepare)
        out = super().prepare(point)
        with open(self.log, "a", encoding="utf-8") as f:
            f.write(f"prepared {time.time():.6f}\n")
        return out

    def measure(self, prepared):
        with open(self.log, "a", encoding="utf-8") as f:
            f.write(f"measure {time.time():.6f}\n")
        t = prepared.payload["time"]
        return Measurement(status="ok", time=t, times=(t, t, t), spread=0.0, run_time=3 * t)
