"""Simulated annealing over neighbouring points, with Orio's options."""
from __future__ import annotations

import math

from looptx.search.base import TrajectorySearcher
from looptx.search.registry import register_searcher


class AnnealingSearcher(TrajectorySearcher):
    """Simulated annealing on log(time), as Orio's `Annealing`.

    A move goes to a random neighbour (one parameter changed); a slower point is accepted
    with probability exp(-delta / T), where delta is the log-time difference.  Each
    temperature allows `trials_limit` trials and `moves_limit` accepted moves, then
    T *= cooling_factor; below final_temperature_ratio * T0 the run ends (with Orio's local
    search when local_distance > 0) and the search restarts from a new random point.  T0
    makes an average uphill step between a few random points accepted with probability 0.8.
    Failures are never accepted.

    Options (also accepted as annealing_<name>):
      cooling_factor (0.95), final_temperature_ratio (0.05), trials_limit (100),
      moves_limit (20): as Orio's;
      local_distance (0): as Orio's, the radius of the local search that ends each annealing
        run: the neighbours of the run's best point within this many index steps are measured,
        and again around a better one while one is found; 0 = no local search;
      move_distance (1): how far one move reaches, in index steps of one parameter;
      init_samples (4): random points used to set T0.
    """

    name = "annealing"
    options = {"cooling_factor": 0.95, "final_temperature_ratio": 0.05, "trials_limit": 100,
               "moves_limit": 20, "local_distance": 0, "move_distance": 1, "init_samples": 4}
    option_limits = {"init_samples": 10000}
    # 1: local_distance was the move reach (now move_distance) and no run ended in a local search
    options_version = 2

    @classmethod
    def upgrade_options(cls, given, version):
        if version >= 2:
            return dict(given)
        return {("move_distance" if cls.canonical_option(k) == "local_distance" else k): v
                for k, v in given.items()}

    def _check_options(self) -> None:
        self._require(0.0 < self.opts["cooling_factor"] < 1.0, "cooling_factor", "in (0, 1)")
        self._require(0.0 < self.opts["final_temperature_ratio"] < 1.0,
                      "final_temperature_ratio", "in (0, 1)")
        for opt in ("trials_limit", "moves_limit", "move_distance", "init_samples"):
            self._require(self.opts[opt] >= 1, opt, "at least 1")
        self._require(self.opts["local_distance"] >= 0, "local_distance", "0 or more")

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
            best, best_cost = cur, cur_cost
            temp = t0
            while temp > opts["final_temperature_ratio"] * t0:
                nbrs = self.space.neighbours(cur, opts["move_distance"])
                if not nbrs:
                    break
                moves = trials = 0
                while trials < opts["trials_limit"] and moves < opts["moves_limit"] and nbrs:
                    cands = self._trials(nbrs, min(max(1, self.batch_size), opts["trials_limit"] - trials))
                    results = yield cands
                    trials += len(cands)
                    # a batch's trials are taken in turn, each against the point reached so far:
                    # one at a time, this is Orio's annealing
                    start = cur
                    for cand, res in zip(cands, results):
                        c = self._log_cost(res)
                        if c < best_cost:
                            best, best_cost = cand, c
                        delta = c - cur_cost
                        if moves < opts["moves_limit"] and c < math.inf and \
                                (delta <= 0 or self.rng.random() < math.exp(-delta / temp)):
                            cur, cur_cost = cand, c
                            moves += 1
                    if cur is not start:
                        nbrs = self.space.neighbours(cur, opts["move_distance"])
                temp *= opts["cooling_factor"]
            yield from self._local_search(best, best_cost)

    def _trials(self, nbrs: list, n: int) -> list:
        """n different random neighbours: a batch's trial moves, built at once."""
        if n == 1:
            return [nbrs[int(self.rng.integers(len(nbrs)))]]
        return [nbrs[int(i)] for i in self.rng.choice(len(nbrs), size=min(n, len(nbrs)), replace=False)]

    def _local_search(self, best, best_cost):
        """Orio's searchBestNeighbor: steepest descent over the local_distance neighbourhood."""
        while self.opts["local_distance"] > 0:
            nbrs = self.space.neighbours(best, self.opts["local_distance"])
            if not nbrs:
                return
            costs = [self._log_cost(r) for r in (yield nbrs)]
            i = min(range(len(costs)), key=costs.__getitem__)
            if not costs[i] < best_cost:
                return
            best, best_cost = nbrs[i], costs[i]


register_searcher(AnnealingSearcher, "Annealing")
