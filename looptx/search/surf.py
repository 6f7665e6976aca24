"""Model-based search with extremely randomized trees: SURF and SURF+ (the default).

SURF (Nelson et al., "Generating efficient tensor contractions for GPUs", ICPP 2015; Orio's
`Mlsearch`) fits an ExtraTreesRegressor to the measured points, with categorical parameters
one-hot encoded, and evaluates the predicted-best unseen points of a pool, refitting after each
batch.  It exploits only, and gives failed points a fake runtime, so a space with many
failures misleads it.  SURF+ keeps the pool and the trees, and adds what those spaces need:
- the objective is fitted on log(time): times span decades and errors are relative;
- uncertainty (spread across trees) enters through expected improvement, so it explores;
- failures train a feasibility classifier instead of getting fake runtimes;
- batches are diverse (no two points of a batch one parameter apart);
- the end of the budget refines the incumbent: its unseen neighbours, best predicted first.
Both are history-based: a fresh instance that is told the history continues the search.
"""
from __future__ import annotations

import math

import numpy as np
import sklearn
from scipy.special import ndtr
from sklearn.tree import ExtraTreeClassifier, ExtraTreeRegressor

from looptx.search.base import Searcher, register_searcher
from looptx.search.space import Point, point_key

_SQRT_2PI = math.sqrt(2.0 * math.pi)


class _Pool:
    """Candidate points (all valid points, or a large valid sample) with their features."""

    def __init__(self, searcher: Searcher, size: int):
        space = searcher.space
        if space.enumerable and space.size() <= max(size, 2 * 10_000):
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
        self.X = np.ascontiguousarray(space.encode_coords(self.coords), dtype=np.float32)
        self.space = space

    def features(self, points: list[Point]) -> np.ndarray:
        rows = [self.row.get(point_key(p)) for p in points]
        out = np.empty((len(points), self.X.shape[1]), dtype=np.float32)
        missing = [i for i, r in enumerate(rows) if r is None]
        for i, r in enumerate(rows):
            if r is not None:
                out[i] = self.X[r]
        if missing:
            out[missing] = self.space.encode([points[i] for i in missing])
        return out

    def unseen(self, seen: set[str]) -> np.ndarray:
        return np.array([i for i, k in enumerate(self.keys) if k not in seen], dtype=np.int64)


def _fit_forest(X: np.ndarray, y: np.ndarray, n_trees: int, seed: int, *,
                min_samples_leaf: int = 1, classify: bool = False) -> list:
    """Extremely randomized trees (no bootstrap, all features: Geurts et al.'s defaults).

    Trees are fitted one by one, without sklearn's ensemble wrapper: cloning the wrapper's
    parameters costs more than growing a tree on a few hundred points, and this runs after
    every batch."""
    X = np.ascontiguousarray(X, dtype=np.float32)
    cls = ExtraTreeClassifier if classify else ExtraTreeRegressor
    trees = []
    with sklearn.config_context(skip_parameter_validation=True, assume_finite=True):
        for t in range(n_trees):
            est = cls(max_features=1.0, min_samples_leaf=min_samples_leaf,
                      random_state=(seed * 1_000_003 + t) % (2**32))
            trees.append(est.fit(X, y, check_input=False))
    return trees


def _predict_forest(trees: list, X: np.ndarray) -> np.ndarray:
    """Per-tree predictions, trees x points (classifiers: probability of success)."""
    X = np.ascontiguousarray(X, dtype=np.float32)
    if isinstance(trees[0], ExtraTreeClassifier):
        cols = [list(t.classes_).index(True) if True in t.classes_ else None for t in trees]
        return np.stack([t.predict_proba(X, check_input=False)[:, c] if c is not None
                         else np.zeros(len(X)) for t, c in zip(trees, cols)])
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
    Failed points get a fake runtime of twice the worst measured time.
    """

    name = "surf"
    options = {"n_init": 10, "bs": 5, "n_trees": 100, "pool_size": 10000, "min_samples_leaf": 1}

    @classmethod
    def _prefixes(cls):
        return ("mlsearch",)

    def _check_options(self) -> None:
        for opt in ("n_init", "bs", "n_trees", "pool_size", "min_samples_leaf"):
            self._require(self.opts[opt] >= 1, opt, "at least 1")
        self._pool: _Pool | None = None
        self._queue: list[Point] = []

    def _pool_(self) -> _Pool:
        if self._pool is None:
            self._pool = _Pool(self, self.opts["pool_size"])
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

    def _load_extra(self, extra):
        self._queue = []


class SurfPlusSearcher(SurfSearcher):
    """SURF+ (the default searcher): SURF with log-time fit, expected improvement from the
    spread across trees, a feasibility classifier for failures, diverse batches and a final
    local refinement of the incumbent.

    Options:
      n_init (8): random points before the first fit;
      n_trees (24): trees per forest (refit + pool prediction well under a second);
      min_samples_leaf (1): of each tree;
      xi (0.0): expected-improvement margin, in log-time (0.05 = 5% slower than the best);
      feasibility (True): learn where points fail; off = SURF's fake runtimes, in log-time;
      refine (0.1): share of the budget, at its end, for the incumbent's neighbourhood;
      pool_size (10000): candidates sampled when the space has more valid points than 20000.
    """

    name = "surf+"
    options = {"n_init": 8, "n_trees": 24, "min_samples_leaf": 1, "xi": 0.0,
               "feasibility": True, "refine": 0.1, "pool_size": 10000}

    @classmethod
    def _prefixes(cls):
        return ("surfplus",)

    def _check_options(self) -> None:
        for opt in ("n_init", "n_trees", "pool_size", "min_samples_leaf"):
            self._require(self.opts[opt] >= 1, opt, "at least 1")
        self._require(0.0 <= self.opts["refine"] <= 1.0, "refine", "between 0 and 1")
        self._require(self.opts["xi"] >= 0.0, "xi", "0 or more")
        self._pool = None
        self._queue = []

    def _propose(self, n: int) -> list[Point]:
        spent = len(self._told) + len(self._pending)
        n_ok = sum(1 for _, r in self._told.values() if r.ok)
        out: list[Point] = []
        if spent < self.opts["n_init"] or n_ok < 2:
            k = n if n_ok < 2 else min(n, self.opts["n_init"] - spent)
            out = self._random_unseen(k)
            if len(out) == n or n_ok < 2:
                return out
        seen = self._seen() | {point_key(p) for p in out}
        refine_from = self.max_evals * (1.0 - self.opts["refine"])
        out += self._model_batch(seen, n - len(out), refining=spent >= refine_from)
        return out

    def _fit(self):
        pool = self._pool_()
        points, results = self._training()
        X = pool.features(points)
        ok = np.array([r.ok for r in results])
        y = np.log(np.array([r.value if r.ok else 1.0 for r in results]))
        rs = self.seed * 7919 + len(points)
        n_trees, leaf = self.opts["n_trees"], self.opts["min_samples_leaf"]
        clf = None
        if self.opts["feasibility"]:
            reg = _fit_forest(X[ok], y[ok], n_trees, rs, min_samples_leaf=leaf)
            if not ok.all():
                clf = _fit_forest(X, ok, n_trees, rs + 1, classify=True)
        else:
            y = np.where(ok, y, np.log(2.0) + y[ok].max())
            reg = _fit_forest(X, y, n_trees, rs, min_samples_leaf=leaf)
        return reg, clf, float(y[ok].min())

    def _acquisition(self, reg, clf, y_best: float, X: np.ndarray) -> np.ndarray:
        P = _predict_forest(reg, X)
        mu = P.mean(axis=0)
        sd = P.std(axis=0)
        imp = y_best - mu - self.opts["xi"]
        with np.errstate(divide="ignore", invalid="ignore"):
            z = np.where(sd > 0, imp / np.where(sd > 0, sd, 1.0), 0.0)
        ei = np.where(sd > 0, imp * ndtr(z) + sd * np.exp(-0.5 * z * z) / _SQRT_2PI,
                      np.maximum(imp, 0.0))
        # Ties among zero-EI points are broken by the mean, so exploitation still orders them.
        score = ei - 1e-9 * mu
        if clf is not None:
            score = score * _predict_forest(clf, X).mean(axis=0)
        return score

    def _model_batch(self, seen: set[str], k: int, refining: bool) -> list[Point]:
        if k <= 0:
            return []
        pool = self._pool_()
        space = self.space
        reg, clf, y_best = self._fit()
        chosen: list[Point] = []
        if refining and self.best is not None:
            near = [p for p in space.neighbours(self.best[0]) if point_key(p) not in seen]
            if near:
                score = self._acquisition(reg, clf, y_best, pool.features(near))
                P = _predict_forest(reg, pool.features(near)).mean(axis=0)
                order = np.lexsort((P, -score))
                chosen = [near[int(i)] for i in order[:k]]
                seen = seen | {point_key(p) for p in chosen}
        if len(chosen) >= k:
            return chosen
        cand = pool.unseen(seen)
        if cand.size == 0:
            return chosen + self.space.sample(self.rng, k - len(chosen), exclude=seen)
        score = self._acquisition(reg, clf, y_best, pool.X[cand])
        order = cand[np.argsort(-score, kind="stable")]
        picked_coords = [np.array(space.coords(p)) for p in chosen]
        for i in order:
            if len(chosen) >= k:
                break
            c = pool.coords[i]
            # Diversity: a batch never holds two points one parameter apart.
            if any(int(np.sum(c != q)) <= 1 for q in picked_coords):
                continue
            chosen.append(space.from_coords(c))
            picked_coords.append(c)
        if len(chosen) < k:
            taken = {point_key(p) for p in chosen}
            for i in order:
                if len(chosen) >= k:
                    break
                if pool.keys[i] not in taken:
                    chosen.append(space.from_coords(pool.coords[i]))
                    taken.add(pool.keys[i])
        return chosen


register_searcher(SurfSearcher, "Mlsearch")
register_searcher(SurfPlusSearcher, "surfplus")
