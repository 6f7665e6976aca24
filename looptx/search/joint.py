"""Joint tuning of the CHiLL regions of one PerfTuning block: one point configures every region.

Orio measures a PerfTuning block as a whole.  Here each region is built, validated against its
own original and timed on its own (as `looptx run` does for one region), and a point's time is
the sum of the regions' times: the regions' data are separate arguments, so one region's
output need not be a valid input of the next, and a failure names the region it came from.
"""
from __future__ import annotations

import dataclasses
import hashlib
from typing import Any, Mapping

from looptx.errors import LooptxError
from looptx.search.evaluate import Measurement, Prepared, summarize_times


class JointEvaluator:
    """The Evaluator protocol over one evaluator per region (picklable: plain attributes)."""

    def __init__(self, evaluators: list, regions: tuple[int, ...]):
        self.parts = list(evaluators)
        self.regions = tuple(regions)
        self.backend = self.parts[0].backend

    @property
    def timeout(self) -> float:
        return sum(float(e.timeout) for e in self.parts)

    def _label(self, k: int) -> str:
        return f"region {self.regions[k]}"

    def signature(self):
        return [e.signature() for e in self.parts]

    def build(self, point: Mapping[str, Any], recipe=None):
        out = []
        for k, e in enumerate(self.parts):
            try:
                out.append(e.build(point, recipe))
            except LooptxError as err:
                if err.line is None:       # located errors already point into the region
                    err.what = f"{self._label(k)}: {err.what}"
                raise
        return out

    def prepare(self, point: dict) -> Prepared:
        preps = []
        for k, e in enumerate(self.parts):
            p = e.prepare(point)
            if not p.ok:
                return dataclasses.replace(p, error=f"{self._label(k)}: {p.error}")
            preps.append(p)
        h = hashlib.sha256("\0".join(p.code_hash or "" for p in preps).encode()).hexdigest()
        recipe = "\n".join(f"# {self._label(k)}\n{p.recipe or 'no recipe'}"
                           for k, p in enumerate(preps))
        return Prepared(point=point, status="ok", code_hash=h, recipe=recipe, payload=tuple(preps))

    def measure(self, prepared: Prepared) -> Measurement:
        if not prepared.ok or not isinstance(prepared.payload, tuple):
            return Measurement(status="runtime_error", error="measure() got a point that was not "
                               f"prepared for joint tuning (status {prepared.status})")
        ms = []
        for k, (e, p) in enumerate(zip(self.parts, prepared.payload)):
            m = e.measure(p)
            if not m.ok:
                return dataclasses.replace(
                    m, error=f"{self._label(k)}: {m.error}",
                    compile_time=m.compile_time + sum(x.compile_time for x in ms),
                    run_time=m.run_time + sum(x.run_time for x in ms))
            ms.append(m)
        n = min(len(m.times) for m in ms)
        # repetition r of the block = repetition r of every region, so the spread stays that of
        # whole-block timings
        times = tuple(sum(m.times[r] for m in ms) for r in range(n))
        if times:
            time, spread = summarize_times(times)
        else:
            time, spread = sum(m.time for m in ms), None
        info = dict(ms[0].info)
        info["region_times"] = [m.time for m in ms]
        return Measurement(status="ok", time=time, times=times, spread=spread,
                           compile_time=sum(m.compile_time for m in ms),
                           run_time=sum(m.run_time for m in ms), info=info)

    def describe(self) -> dict:
        d = dict(self.parts[0].describe())
        d["regions"] = list(self.regions)
        return d
