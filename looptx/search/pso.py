"""Particle swarm optimisation on value-index coordinates."""
from __future__ import annotations

import numpy as np

from looptx.search.base import TrajectorySearcher
from looptx.search.registry import register_searcher


class PSOSearcher(TrajectorySearcher):
    """Particle swarm (Kernel Tuner's defaults): particles move in continuous index
    coordinates, rounded to the grid to be evaluated (log-time; a rounded point that violates a
    constraint costs +inf, unevaluated).  A particle whose rounded position brings nothing new
    for `stall_limit` iterations is sent to a fresh random point.

    Options: swarm_size (20), w (0.5): inertia, c1 (2.0): pull to the particle's best,
    c2 (1.0): pull to the swarm's best, stall_limit (3).
    """

    name = "pso"
    options = {"swarm_size": 20, "w": 0.5, "c1": 2.0, "c2": 1.0, "stall_limit": 3}
    option_limits = {"swarm_size": 10000}

    def _check_options(self) -> None:
        self._require(self.opts["swarm_size"] >= 2, "swarm_size", "at least 2")
        self._require(self.opts["stall_limit"] >= 1, "stall_limit", "at least 1")
        for opt in ("w", "c1", "c2"):
            self._require(self.opts[opt] >= 0, opt, "0 or more")

    def _run(self):
        space = self.space
        o = self.opts
        hi = np.array([s - 1 for s in space.sizes], dtype=float)
        start = self._unrequested(o["swarm_size"])
        if not start:
            return
        x = np.array([space.coords(p) for p in start], dtype=float)
        n = len(x)
        v = self.rng.uniform(-1, 1, size=x.shape) * np.maximum(hi, 1) * 0.25
        results = yield start
        cost = np.array([self._log_cost(r) for r in results])
        pbest, pcost = x.copy(), cost.copy()
        stall = np.zeros(n, dtype=int)
        while True:
            g = pbest[int(np.argmin(pcost))]
            r1 = self.rng.random(x.shape)
            r2 = self.rng.random(x.shape)
            # large weights (1e300) overflow; a velocity past any edge moves no further than
            # one at the edge, so it is kept finite instead
            with np.errstate(over="ignore", invalid="ignore"):
                v = o["w"] * v + o["c1"] * r1 * (pbest - x) + o["c2"] * r2 * (g - x)
            v = np.clip(np.nan_to_num(v, nan=0.0, posinf=1e12, neginf=-1e12), -1e12, 1e12)
            x = np.clip(x + v, 0, hi)
            points = [space.from_coords(np.rint(row).astype(int)) for row in x]
            for i, p in enumerate(points):
                stall[i] = 0 if self._is_new(p) and space.is_valid(p) else stall[i] + 1
                if stall[i] >= o["stall_limit"]:
                    fresh = self._unrequested(1)
                    if not fresh:
                        return
                    points[i] = fresh[0]
                    x[i] = np.array(space.coords(fresh[0]), dtype=float)
                    v[i] = self.rng.uniform(-1, 1, size=len(hi)) * np.maximum(hi, 1) * 0.25
                    stall[i] = 0
            results = yield points
            cost = np.array([self._log_cost(r) for r in results])
            better = cost < pcost
            pbest[better] = x[better]
            pcost[better] = cost[better]


register_searcher(PSOSearcher)
