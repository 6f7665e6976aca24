"""Genetic algorithm with permutation-aware crossover for loop-order and mapping parameters."""
from __future__ import annotations

import numpy as np

from looptx.search.base import TrajectorySearcher
from looptx.search.registry import register_searcher
from looptx.search.space import point_key


class GeneticSearcher(TrajectorySearcher):
    """Generational GA on log(time) with elitism and tournament selection.

    Crossover is uniform per parameter, except:
    - a 'tuple' parameter whose values are orderings of the same items (a loop order) uses
      order crossover (OX): a slice of one parent, the rest in the other parent's order;
    - a 'mapping' parameter crosses slot by slot, then repairs loops used twice, so a child
      maps each loop once; a result outside the declared values becomes the closest one.
    Mutation changes a parameter with probability `mutation_rate` (a mapping by a swap or a
    replaced loop).  Invalid children are mutated again, then replaced by random points.

    Options: pop_size (20), mutation_rate (0.1), elite (2), tournament (2).
    """

    name = "genetic"
    options = {"pop_size": 20, "mutation_rate": 0.1, "elite": 2, "tournament": 2}
    option_limits = {"pop_size": 10000}

    def _check_options(self) -> None:
        o = self.opts
        self._require(o["pop_size"] >= 2, "pop_size", "at least 2")
        self._require(0.0 <= o["mutation_rate"] <= 1.0, "mutation_rate", "between 0 and 1")
        self._require(0 <= o["elite"] < o["pop_size"], "elite", "from 0 to pop_size - 1")
        self._require(o["tournament"] >= 1, "tournament", "at least 1")

    # -- operators ------------------------------------------------------------------------
    def _closest(self, j: int, value: tuple) -> int:
        values = self.space.params[j].values
        dist = [sum(a != b for a, b in zip(v, value)) + abs(len(v) - len(value)) for v in values]
        return int(np.argmin(dist))

    def _cross_value(self, j: int, ia: int, ib: int) -> int:
        p = self.space.params[j]
        a, b = p.values[ia], p.values[ib]
        if ia == ib:
            return ia
        if p.kind == "tuple" and sorted(map(str, a)) == sorted(map(str, b)) and len(a) > 1:
            i, k = sorted(int(x) for x in self.rng.choice(len(a) + 1, size=2, replace=False))
            middle = list(a[i:k])
            rest = [x for x in b if x not in middle]
            child = tuple(rest[:i] + middle + rest[i:])
            return p.values.index(child) if child in p.values else self._closest(j, child)
        if p.kind == "mapping":
            take = self.rng.random(len(a)) < 0.5
            child = [a[s] if take[s] else b[s] for s in range(len(a))]
            used = set()
            for s, loop in enumerate(child):
                if loop == "1":
                    continue
                if loop in used:
                    other = b[s] if take[s] else a[s]
                    child[s] = other if other != "1" and other not in used else "1"
                if child[s] != "1":
                    used.add(child[s])
            child = tuple(child)
            return p.values.index(child) if child in p.values else self._closest(j, child)
        return ia if self.rng.random() < 0.5 else ib

    def _mutate_value(self, j: int, i: int) -> int:
        opts = self.space._value_neighbours(j, i, 1)
        p = self.space.params[j]
        if p.ordinal:
            opts = [t for t in range(len(p.values)) if t != i]
        return int(opts[int(self.rng.integers(len(opts)))]) if opts else i

    def _child(self, ca, cb):
        space = self.space
        rate = self.opts["mutation_rate"]
        c = [self._cross_value(j, ca[j], cb[j]) for j in range(len(ca))]
        for tries in range(20):
            for j, s in enumerate(space.sizes):
                if s > 1 and (self.rng.random() < rate or tries > 0 and self.rng.random() < 0.3):
                    c[j] = self._mutate_value(j, c[j])
            point = space.from_coords(c)
            if space.is_valid(point) and self._is_new(point):
                return point
        return None

    # -- search ---------------------------------------------------------------------------
    def _run(self):
        o = self.opts
        space = self.space
        pop = self._unrequested(o["pop_size"])
        if not pop:
            return
        results = yield pop
        fit = [self._log_cost(r) for r in results]
        while True:
            order = np.argsort(fit, kind="stable")
            coords = [space.coords(p) for p in pop]

            def pick():
                idx = self.rng.choice(len(pop), size=min(o["tournament"], len(pop)), replace=False)
                return coords[min((int(i) for i in idx), key=lambda i: fit[i])]

            elite = [int(i) for i in order[:o["elite"]]]
            children, keys = [], set()
            for _ in range(4 * o["pop_size"]):
                if len(children) >= o["pop_size"] - len(elite):
                    break
                child = self._child(pick(), pick())
                if child is not None and point_key(child) not in keys:
                    children.append(child)
                    keys.add(point_key(child))
            missing = o["pop_size"] - len(elite) - len(children)
            if missing > 0:
                children += [p for p in self._unrequested(missing + len(keys))
                             if point_key(p) not in keys][:missing]
            if not children:
                return
            results = yield children
            pop = [pop[i] for i in elite] + children
            fit = [fit[i] for i in elite] + [self._log_cost(r) for r in results]


# Orio's ChaosGA is a genetic search too (its chaotic initial population aside)
register_searcher(GeneticSearcher, "ga", "ChaosGA")
