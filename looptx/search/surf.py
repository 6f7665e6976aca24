"""Model-based search with extremely randomized trees: SURF and SURF+ (the default).

SURF (Nelson et al., "Generating efficient tensor contractions for GPUs", ICPP 2015; Orio's
`Mlsearch`) fits extremely randomized trees to the measured points, with categorical
parameters one-hot encoded, and evaluates the predicted-best unseen points of a pool (every
valid point, or a large valid sample), refitting after each batch.  It only exploits and gives
failed points a fake runtime, so a space with many failures, or with its best points away from
the first good region it finds, misleads it.  SURF+ keeps the pool and the trees and adds:
- the fit is on log(time): times span decades and errors are relative;
- uncertainty from the spread across trees, by Thompson sampling (each pick follows one
  random tree), plus a share of uniform random picks;
- failures train a feasibility forest instead of getting fake runtimes;
- size-like parameters get power-of-two alignment and pairwise-product features;
- in a batch, each pick's tree is fitted as if the batch's earlier picks had come back slow
  (pessimistic fantasies), so the batch covers what a sequential search would try next;
- the end of the budget refines the incumbent: its unseen neighbours, best predicted first.
Both are history-based: a fresh instance that is told the history continues the search, and
refits cost milliseconds (a tree per pick, not a forest per point).
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from looptx.search.base import Searcher, plain_point
from looptx.search.registry import register_searcher
from looptx.search.space import Point, point_key

_SQRT_2PI = math.sqrt(2.0 * math.pi)


class _Model(NamedTuple):
    """One refit of surf+: the objective trees, the feasibility trees (None while nothing
    has failed), and the training data of the objective, which fantasy trees extend."""
    reg: list
    feas: list | None
    y_best: float
    X: np.ndarray
    y: np.ndarray
# Spaces with up to this many valid points use all of them as the pool.
_FULL_POOL = 20_000


class _Pool:
    """Candidate points (all valid points, or a large valid sample) with their features."""

    def __init__(self, searcher: Searcher, size: int, features: tuple[str, ...] = ()):
        space = searcher.space
        self.space = space
        self.extras = features
        if space.enumerable and space.size() <= max(size, _FULL_POOL):
            coords = space.valid_coords()
            keys = space.valid_keys()
        else:
            if space.enumerable:
                rows = np.sort(searcher.rng.choice(space.size(), size=size, replace=False))
                coords = space.valid_coords()[rows]
                all_keys = space.valid_keys()
                keys = [all_keys[int(r)] for r in rows]
            else:
                pts = space.sample(searcher.rng, size)
                coords = np.array([space.coords(p) for p in pts], dtype=np.int64)
                keys = [point_key(p) for p in pts]
        self.coords = np.asarray(coords)
        self.keys = list(keys)
        self.row = {k: i for i, k in enumerate(self.keys)}
        self.X = np.ascontiguousarray(space.encode_coords(self.coords, features=features),
                                      dtype=np.float32)

    def features(self, points: list[Point]) -> np.ndarray:
        rows = [self.row.get(point_key(p)) for p in points]
        out = np.empty((len(points), self.X.shape[1]), dtype=np.float32)
        missing = [i for i, r in enumerate(rows) if r is None]
        for i, r in enumerate(rows):
            if r is not None:
                out[i] = self.X[r]
        if missing:
            out[missing] = self.space.encode([points[i] for i in missing], features=self.extras)
        return out

    def unseen(self, seen: set[str]) -> np.ndarray:
        return np.array([i for i, k in enumerate(self.keys) if k not in seen], dtype=np.int64)


def _fit_forest(X: np.ndarray, y: np.ndarray, n_trees: int, seed: int, *,
                min_samples_leaf: int = 1, max_features: float = 1.0,
                bootstrap: bool = False) -> list:
    """Extremely randomized regression trees (Geurts et al.), fitted one by one.

    sklearn's ensemble wrapper clones its parameters for every tree, which costs more than
    growing a tree on a few hundred points; this runs after every batch, so it is skipped.
    A 0/1 target gives the probability of success (the tree's leaf means)."""
    # imported here: scikit-learn takes a second to import, and every command that lists the
    # searchers (or runs another one) imports this module
    import sklearn
    from sklearn.tree import ExtraTreeRegressor

    X = np.ascontiguousarray(X, dtype=np.float32)
    y = np.ascontiguousarray(y, dtype=np.float64)
    rs = np.random.RandomState(seed % (2**32))
    # a leaf larger than half the data already forbids every split; sklearn doubles the value
    # into a C size_t, which a huge one overflows
    min_samples_leaf = min(min_samples_leaf, max(1, len(y)))
    trees = []
    with sklearn.config_context(skip_parameter_validation=True, assume_finite=True):
        for _ in range(n_trees):
            est = ExtraTreeRegressor(max_features=max_features, min_samples_leaf=min_samples_leaf,
                                     random_state=rs)
            if bootstrap:
                rows = rs.randint(0, len(y), len(y))
                est.fit(X[rows], y[rows], check_input=False)
            else:
                est.fit(X, y, check_input=False)
            trees.append(est)
    return trees


def _predict_forest(trees: list, X: np.ndarray) -> np.ndarray:
    """Per-tree predictions, trees x points."""
    X = np.ascontiguousarray(X, dtype=np.float32)
    return np.stack([t.predict(X, check_input=False) for t in trees])


class SurfSearcher(Searcher):
    """SURF as published: random start, then the `bs` best predicted unseen points of the
    pool per round, refitting the trees after each round.

    Options:
      n_init (10): random points before the first fit;
      bs (5): points per model round (Orio's Mlsearch uses 5); rounds never exceed a request;
      n_trees (100): trees in the forest (Orio uses 1000, slower for little gain);
      pool_size (10000): candidates sampled when the space has more valid points than 20000;
      min_samples_leaf (1): of each tree.
    Failed points get a fake runtime of twice the worst measured time.  Orio's Mlsearch option
    local_distance (mlsearch_local_distance) is checked and ignored, with a warning: Orio reads
    it and never uses it.
    """

    @staticmethod
    def warm_up() -> None:
        """scikit-learn's import (about a second), which a replay keeps off the searcher's
        clock: it is paid once per process, not per ask."""
        import importlib
        importlib.import_module("sklearn.tree")

    name = "surf"
    options = {"n_init": 10, "bs": 5, "n_trees": 100, "pool_size": 10000, "min_samples_leaf": 1}
    option_limits = {"n_trees": 10000, "bs": 10000, "pool_size": 1000000}
    # Orio's Mlsearch checks local_distance (a count, 0 or more) and then never reads it
    orio_ignored = {"local_distance": (0, "Orio's Mlsearch accepts it but never uses it")}

    def __init__(self, space, **kwargs):
        super().__init__(space, **kwargs)
        self._pool: _Pool | None = None
        self._queue: list[Point] = []

    @classmethod
    def _prefixes(cls):
        return ("mlsearch",)

    def _check_options(self) -> None:
        for opt in ("n_init", "bs", "n_trees", "pool_size", "min_samples_leaf"):
            self._require(self.opts[opt] >= 1, opt, "at least 1")

    def _pool_(self) -> _Pool:
        if self._pool is None:
            extras = tuple(f for f in str(self.opts.get("features", "")).split(",") if f)
            self._pool = _Pool(self, self.opts["pool_size"], extras)
        return self._pool

    def _training(self):
        points = [p for p, _ in self._told.values()]
        results = [r for _, r in self._told.values()]
        return points, results

    def _propose(self, n: int) -> list[Point]:
        spent = len(self._told) + len(self._pending)
        out: list[Point] = []
        if spent < self.opts["n_init"] or self.best is None:
            k = n if self.best is None else min(n, self.opts["n_init"] - spent)
            out = self._random_unseen(k)
            if len(out) == n or self.best is None or not self._told:
                return out
        seen = self._seen() | {point_key(p) for p in out}
        self._queue = [p for p in self._queue if point_key(p) not in seen]
        while len(out) < n:
            if not self._queue:
                self._queue = self._round(seen, self.opts["bs"])
                if not self._queue:
                    break
            p = self._queue.pop(0)
            out.append(p)
            seen.add(point_key(p))
        return out

    def _round(self, seen: set[str], k: int) -> list[Point]:
        pool = self._pool_()
        points, results = self._training()
        ok = [r.value for r in results if r.ok]
        fake = 2.0 * max(ok)
        y = np.array([r.value if r.ok else fake for r in results])
        trees = _fit_forest(pool.features(points), y, self.opts["n_trees"],
                            self.seed * 7919 + len(points),
                            min_samples_leaf=self.opts["min_samples_leaf"])
        cand = pool.unseen(seen)
        if cand.size == 0:
            return self._random_unseen(k)
        mu = _predict_forest(trees, pool.X[cand]).mean(axis=0)
        best = cand[np.argsort(mu, kind="stable")[:k]]
        return [pool.space.from_coords(pool.coords[i]) for i in best]

    def _extra_state(self) -> dict:
        # The rest of the current round: a resumed search hands it out before refitting.
        return {"queue": [plain_point(p) for p in self._queue]}

    def _load_extra(self, extra) -> None:
        self._queue = [self.space.normalize(p) for p in extra.get("queue", [])]


class SurfPlusSearcher(SurfSearcher):
    """SURF+, the default searcher: SURF's pool and extremely randomized trees, plus what
    real tuning spaces need (see the module docstring).

    Each pick follows Thompson sampling: a fresh random tree, fitted to log(time) of the
    successes, names the unseen pool point it predicts fastest; the spread across trees is
    the model's uncertainty, so picks explore where trees disagree.  A share `explore` of the
    picks is uniform random, which keeps the search above random search on spaces whose best
    configurations the trees cannot predict.  Failures train a second forest (the chance of
    success); points it predicts to fail go last.  Within a batch, each pick's tree is fitted
    with the batch's earlier picks as fantasy results at the slowest time seen, and the first
    round holds only the `n_init` random points.  The last `refine` share of the budget
    goes to the unseen neighbours of the incumbent.  Settings were tuned on the recorded
    convolution spaces (benchmarks/search_quality.py, benchmarks/RESULTS-search.md).

    Options:
      n_init (2): random points before the first fit (the first batch is random anyway);
      explore (0.2): chance that a pick is a uniform random pool point;
      acquisition ('ts'): 'ts' Thompson sampling, 'ei' expected improvement in log-time,
        'lcb' mean - kappa * spread, 'mean' pure exploitation (the last three use a forest of
        n_trees and its spread);
      n_trees (24), kappa (1.0), xi (0.0): forest size, LCB weight, EI margin in log-time;
      min_samples_leaf (1), max_features (1.0), bootstrap (False): of each tree;
      features ('align,pairs'): extra model columns for size-like parameters: 'align'
        (power-of-two alignment), 'pairs' (log2 of each pairwise product), 'log2', 'onehot';
      feasibility (True): learn where points fail; off = SURF's fake runtimes (2x the worst);
      feas_trees (16): trees of the feasibility forest;
      refine (0.1): share of the budget, at its end, for the incumbent's neighbourhood;
      pool_size (10000): candidates sampled when the space has more valid points than 20000;
      fantasies (True): batches with 'ts' fit each pick's tree to the earlier picks at the
        slowest time so far; off = independent trees per pick (plain parallel Thompson
        sampling).
    """

    name = "surf+"
    options = {"n_init": 2, "explore": 0.2, "acquisition": "ts", "n_trees": 24, "kappa": 1.0,
               "xi": 0.0, "min_samples_leaf": 1, "max_features": 1.0, "bootstrap": False,
               "features": "align,pairs", "feasibility": True, "feas_trees": 16,
               "refine": 0.1, "pool_size": 10000, "fantasies": True}
    option_limits = {"n_trees": 10000, "feas_trees": 10000, "pool_size": 1000000}
    _FEATURES = ("align", "pairs", "log2", "onehot")
    orio_ignored = {}            # not an Orio searcher

    @classmethod
    def _prefixes(cls):
        return ("surfplus",)

    def _check_options(self) -> None:
        o = self.opts
        for opt in ("n_init", "n_trees", "pool_size", "min_samples_leaf", "feas_trees"):
            self._require(o[opt] >= 1, opt, "at least 1")
        for opt in ("refine", "explore"):
            self._require(0.0 <= o[opt] <= 1.0, opt, "between 0 and 1")
        self._require(0.0 < o["max_features"] <= 1.0, "max_features", "in (0, 1]")
        self._require(o["xi"] >= 0.0, "xi", "0 or more")
        self._require(o["kappa"] >= 0.0, "kappa", "0 or more")
        self._require(o["acquisition"] in ("ts", "ei", "lcb", "mean"), "acquisition",
                      "one of ts, ei, lcb, mean")
        feats = [f for f in str(o["features"]).split(",") if f]
        self._require(all(f in self._FEATURES for f in feats), "features",
                      "a comma-separated list of " + ", ".join(self._FEATURES))

    def _propose(self, n: int) -> list[Point]:
        spent = len(self._told) + len(self._pending)
        n_ok = sum(1 for _, r in self._told.values() if r.ok)
        out: list[Point] = []
        if spent < self.opts["n_init"] or n_ok < 2:
            # Only the random start goes into the first round, even of a large batch: the
            # points after it are worth more ranked by a model of two results than unranked.
            # Once the start has failed, whole batches are random until two points work.
            k = min(n, self.opts["n_init"] - spent) if spent < self.opts["n_init"] else n
            out = self._random_unseen(k)
            if len(out) == n or n_ok < 2:
                return out
        seen = self._seen() | {point_key(p) for p in out}
        refine_from = self.max_evals * (1.0 - self.opts["refine"])
        out += self._model_batch(seen, n - len(out), refining=spent >= refine_from)
        return out

    def _fit(self, n_reg: int):
        """Objective trees on log(time) of the successes; feasibility trees on all points."""
        pool = self._pool_()
        points, results = self._training()
        X = pool.features(points)
        ok = np.array([r.ok for r in results])
        y = np.log(np.array([max(r.value, 1e-300) if r.ok else 1.0 for r in results]))
        seed = self.seed * 7919 + len(points)
        o = self.opts
        feas = None
        if not o["feasibility"]:
            y = np.where(ok, y, np.log(2.0) + y[ok].max())
            ok = np.ones(len(y), dtype=bool)
        elif not ok.all():
            feas = _fit_forest(X, ok.astype(np.float64), o["feas_trees"], seed + 1)
        reg = self._objective_trees(X[ok], y[ok], n_reg, seed)
        return _Model(reg, feas, float(y[ok].min()), X[ok], y[ok])

    def _objective_trees(self, X: np.ndarray, y: np.ndarray, n: int, seed: int) -> list:
        o = self.opts
        return _fit_forest(X, y, n, seed, min_samples_leaf=o["min_samples_leaf"],
                           max_features=o["max_features"], bootstrap=o["bootstrap"])

    def _fantasy_tree(self, model: _Model, batch: list[Point]) -> object:
        """A Thompson tree for the next pick of a batch, fitted as if the batch's earlier
        picks had come back as slow as the slowest success so far.

        Sequentially, a pick that does not improve (most do not) becomes a training point and
        splits the incumbent's cell, and the next tree looks elsewhere; the pessimistic
        fantasy does that split in advance, so the picks of a batch spread over the cells a
        sequential search would visit one after the other."""
        X = np.concatenate([model.X, self._pool_().features(batch)])
        y = np.concatenate([model.y, np.full(len(batch), model.y.max())])
        return self._objective_trees(X, y, 1, self.seed * 7919 + len(self._told) * 31
                                     + len(batch))[0]

    def _scorer(self, model: _Model, X: np.ndarray):
        """score(pick, tree=None) -> acquisition of each row of X for the pick-th point of a
        batch (higher is better); with 'ts', `tree` (a fantasy tree) replaces the pick's own."""
        reg, feas, y_best = model.reg, model.feas, model.y_best
        o = self.opts
        X = np.ascontiguousarray(X, dtype=np.float32)
        p_ok = _predict_forest(feas, X).mean(axis=0) if feas is not None else None

        def gate(score):
            # Points predicted to fail go behind every point predicted to work.
            return score if p_ok is None else np.where(p_ok >= 0.5, score, score - 1e6)

        acq = o["acquisition"]
        if acq == "ts":
            return lambda pick, tree=None: gate(-(reg[pick % len(reg)] if tree is None
                                                  else tree).predict(X, check_input=False))
        P = _predict_forest(reg, X)
        mu = P.mean(axis=0)
        # a huge kappa or xi (1e300) overflows to +-inf, which still ranks the points as the
        # limit would: numpy's warning about it is no news to the user
        with np.errstate(over="ignore", invalid="ignore"):
            if acq == "mean":
                score = gate(-mu)
            elif acq == "lcb":
                score = gate(-(mu - o["kappa"] * P.std(axis=0)))
            else:
                from scipy.special import ndtr
                sd = P.std(axis=0)
                imp = y_best - mu - o["xi"]
                z = imp / np.where(sd > 0, sd, 1.0)
                ei = np.where(sd > 0, imp * ndtr(z) + sd * np.exp(-0.5 * z * z) / _SQRT_2PI,
                              np.maximum(imp, 0.0))
                # Zero-EI points are still ordered by their mean, so exploitation goes on.
                score = ei - 1e-9 * mu
                if p_ok is not None:
                    score = score * p_ok
        return lambda pick, tree=None: np.nan_to_num(score, nan=-np.inf)

    def _model_batch(self, seen: set[str], k: int, refining: bool) -> list[Point]:
        if k <= 0:
            return []
        pool = self._pool_()
        space = self.space
        ts = self.opts["acquisition"] == "ts"
        fantasies = ts and self.opts["fantasies"]
        model = self._fit((1 if fantasies else k) if ts else self.opts["n_trees"])
        chosen: list[Point] = []
        if refining and self.best is not None:
            near = [p for p in space.neighbours(self.best[0]) if point_key(p) not in seen]
            if near:
                order = np.argsort(-self._scorer(model, pool.features(near))(0), kind="stable")
                chosen = [near[int(i)] for i in order[:k]]
                seen = seen | {point_key(p) for p in chosen}
        if len(chosen) >= k:
            return chosen
        cand = pool.unseen(seen)
        if cand.size == 0:
            return chosen + self.space.sample(self.rng, k - len(chosen), exclude=seen)
        score = self._scorer(model, pool.X[cand])
        taken = np.zeros(cand.size, dtype=bool)
        order = None
        while len(chosen) < k and not taken.all():
            free = np.flatnonzero(~taken)
            if self.rng.random() < self.opts["explore"]:
                i = int(free[int(self.rng.integers(free.size))])
            else:
                if order is None or ts:
                    tree = self._fantasy_tree(model, chosen) if fantasies and chosen else None
                    order = np.argsort(-score(len(chosen), tree), kind="stable")
                i = int(order[~taken[order]][0])
            taken[i] = True
            chosen.append(space.from_coords(pool.coords[cand[i]]))
        return chosen


register_searcher(SurfSearcher, "Mlsearch")
register_searcher(SurfPlusSearcher, "surfplus")
