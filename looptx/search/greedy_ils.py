"""Greedy iterated local search: first improvement, kicks, restarts."""
from __future__ import annotations

import math

from looptx.search.base import TrajectorySearcher
from looptx.search.registry import register_searcher


class GreedyILSSearcher(TrajectorySearcher):
    """First-improvement local search with perturbation (iterated local search).

    From a random point, neighbours (one parameter changed) are tried in random order, a batch
    at a time; the first batch holding a faster point moves there.  At a local optimum the best
    point so far is kicked (`perturbation` random parameters changed) and the local search
    starts again; after `restart_after` kicks that do not improve the best, it restarts from a
    fresh random point.

    Options: perturbation (3), restart_after (3), local_distance (1): neighbourhood radius in
    index steps for ordinal parameters.
    """

    name = "greedy_ils"
    options = {"perturbation": 3, "restart_after": 3, "local_distance": 1}

    def _check_options(self) -> None:
        for opt in ("perturbation", "restart_after", "local_distance"):
            self._require(self.opts[opt] >= 1, opt, "at least 1")

    def _kick(self, point):
        """`perturbation` random parameters set to random values, kept valid."""
        space = self.space
        coords = list(space.coords(point))
        for _ in range(20):
            c = list(coords)
            free = [j for j, s in enumerate(space.sizes) if s > 1]
            if not free:
                return None
            pick = self.rng.choice(len(free), size=min(len(free), self.opts["perturbation"]),
                                   replace=False)
            for i in pick:
                j = free[int(i)]
                c[j] = int(self.rng.integers(space.sizes[j]))
            cand = space.from_coords(c)
            if space.is_valid(cand) and self._is_new(cand):
                return cand
        return None

    def _local_search(self, start, start_cost):
        cur, cur_cost = start, start_cost
        bs = max(1, self.batch_size)
        while True:
            nbrs = self.space.neighbours(cur, self.opts["local_distance"])
            order = self.rng.permutation(len(nbrs))
            moved = False
            for i in range(0, len(nbrs), bs):
                chunk = [nbrs[int(j)] for j in order[i:i + bs]]
                results = yield chunk
                costs = [self._log_cost(r) for r in results]
                k = min(range(len(costs)), key=costs.__getitem__)
                if costs[k] < cur_cost:
                    cur, cur_cost = chunk[k], costs[k]
                    moved = True
                    break
            if not moved:
                return cur, cur_cost

    def _run(self):
        best, best_cost = None, math.inf
        while True:
            start = self._unrequested(1)
            if not start:
                return
            (res,) = yield start
            cur, cur_cost = start[0], self._log_cost(res)
            fails = 0
            while True:
                cur, cur_cost = yield from self._local_search(cur, cur_cost)
                if cur_cost < best_cost:
                    best, best_cost = cur, cur_cost
                    fails = 0
                else:
                    fails += 1
                if fails >= self.opts["restart_after"] or best is None:
                    break
                kicked = self._kick(best)
                if kicked is None:
                    break
                (res,) = yield [kicked]
                cur, cur_cost = kicked, self._log_cost(res)


register_searcher(GreedyILSSearcher, "greedy", "ils")
