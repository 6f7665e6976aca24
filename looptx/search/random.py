"""Random search: uniform over valid points, without replacement, seeded."""
from __future__ import annotations

from looptx.search.base import Searcher
from looptx.search.registry import register_searcher
from looptx.search.space import Point, point_key


class RandomSearcher(Searcher):
    """Uniform random sampling of valid points without replacement.

    Options:
      local_distance (0): when > 0, the last `local_fraction` of the budget is spent on a
        local search around the best point (neighbours at most this many index steps away),
        as Orio's `Randomsearch`/`Randomlocal`;
      local_fraction (0.25): share of the budget kept for that local search.
    """

    name = "random"
    options = {"local_distance": 0, "local_fraction": 0.25}

    def _check_options(self) -> None:
        self._require(self.opts["local_distance"] >= 0, "local_distance", "0 or more")
        self._require(0.0 <= self.opts["local_fraction"] <= 1.0, "local_fraction",
                      "between 0 and 1")

    def _local_phase(self) -> bool:
        if self.opts["local_distance"] <= 0 or self.best is None:
            return False
        spent = len(self._told) + len(self._pending)
        return spent >= self.max_evals * (1.0 - self.opts["local_fraction"])

    def _propose(self, n: int) -> list[Point]:
        out: list[Point] = []
        if self._local_phase():
            near = self.space.neighbours(self.best[0], self.opts["local_distance"])
            near = [p for p in near if point_key(p) not in self._told
                    and point_key(p) not in self._pending]
            if near:
                order = self.rng.permutation(len(near))
                out = [near[int(i)] for i in order[:n]]
        if len(out) < n:
            exclude = self._seen() | {point_key(p) for p in out}
            out += self.space.sample(self.rng, n - len(out), exclude=exclude)
        return out


class RandomLocalSearcher(RandomSearcher):
    """Random search followed by local refinement (Orio's `Randomlocal`): `random` with
    local_distance 1 by default."""

    name = "randomlocal"
    options = {"local_distance": 1, "local_fraction": 0.25}
    listed = False


register_searcher(RandomSearcher, "Randomsearch", "Randomsimple")
register_searcher(RandomLocalSearcher, "Randomlocal")
