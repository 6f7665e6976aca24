"""Simulated annealing over neighbouring points, with Orio's options."""
from __future__ import annotations

import math

from looptx.search.base import TrajectorySearcher, register_searcher


class AnnealingSearcher(TrajectorySearcher):
    """Simulated annealing on log(time), as Orio's `Annealing`.

    A move goes to a random neighbour (one parameter changed); a slower point is accepted
    with probability exp(-delta / T), where delta is the log-time difference.  Each
    temperature allows `trials_limit` trials and `moves_limit` accepted moves, then
    T *= cooling_factor; below final_temperature_ratio * T0 the search restarts from a new
    random point.  T0 makes an average uphill step between a few random points accepted with
    probability 0.8.  Failures are never accepted.

    Options (also accepted as annealing_<name>):
      cooling_factor (0.95), final_temperature_ratio (0.05), trials_limit (100),
      moves_limit (20), local_distance (1): neighbourhood radius in index steps;
      init_samples (4): random points used to set T0.
    """

    name = "annealing"
    options = {"cooling_factor": 0.95, "final_temperature_ratio": 0.05, "trials_limit": 100,
               "moves_limit": 20, "local_distance": 1, "init_samples": 4}

    def _check_options(self) -> None:
        self._require(0.0 < self.opts["cooling_factor"] < 1.0, "cooling_factor", "in (0, 1)")
        self._require(0.0 < self.opts["final_temperature_ratio"] < 1.0,
                      "final_temperature_ratio", "in (0, 1)")
        for opt in ("trials_limit", "moves_limit", "local_distance", "init_samples"):
            self._require(self.opts[opt] >= 1, opt, "at least 1")

    def _initial_temperature(self, costs: list[float]) -> float:
        finite = [c for c in costs if math.isfinite(c)]
        steps = [abs(a - b) for a, b in zip(finite, finite[1:])]
        mean = sum(steps) / len(steps) if steps else 0.0
        return mean / -math.log(0.8) if mean > 0 else 0.5

    def _run(self):
        opts = self.opts
        t0 = None
        while True:
            sample = self._unrequested(opts["init_samples"] if t0 is None else 1)
            if not sample:
                return
            results = yield sample
            costs = [self._log_cost(r) for r in results]
            if t0 is None:
                t0 = self._initial_temperature(costs)
            i = min(range(len(costs)), key=costs.__getitem__)
            cur, cur_cost = sample[i], costs[i]
            temp = t0
            while temp > opts["final_temperature_ratio"] * t0:
                nbrs = self.space.neighbours(cur, opts["local_distance"])
                if not nbrs:
                    break
                moves = 0
                for _ in range(opts["trials_limit"]):
                    cand = nbrs[int(self.rng.integers(len(nbrs)))]
                    (res,) = yield [cand]
                    c = self._log_cost(res)
                    delta = c - cur_cost
                    if c < math.inf and (delta <= 0 or self.rng.random() < math.exp(-delta / temp)):
                        cur, cur_cost = cand, c
                        nbrs = self.space.neighbours(cur, opts["local_distance"])
                        moves += 1
                        if moves >= opts["moves_limit"] or not nbrs:
                            break
                temp *= opts["cooling_factor"]


register_searcher(AnnealingSearcher, "Annealing")
