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
from sklearn.tree import ExtraTreeRegressor

from looptx.search.base import Searcher, register_searcher
from looptx.search.space import Point, point_key

_SQRT_2PI = math.sqrt(2.0 * math.pi)


class _Pool:
    """Candidate points (all valid points, or a large valid sample) with their features."""

    def __init__(self, searcher: Searcher, size: int, features: tuple[str, ...] = ()):
        space = searcher.space
        self.space = space
        self.extras = features
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
        self.X = np.ascontiguousarray(space.encode_coords(self.coords, features=features),
                                      dtype=np.float32)
        self._free = [j for j, n in enumerate(space.sizes) if n > 1]
        self.H = self.onehot(self.coords)
        self.space = space

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

    def onehot(self, coords: np.ndarray) -> np.ndarray:
        """Every parameter value as its own 0/1 column: the additive model's features."""
        coords = np.asarray(coords).reshape(-1, len(self.space.sizes))
        if not self._free:
            return np.zeros((len(coords), 0))
        return np.hstack([np.eye(self.space.sizes[j])[coords[:, j]] for j in self._free])

    def unseen(self, seen: set[str]) -> np.ndarray:
        return np.array([i for i, k in enumerate(self.keys) if k not in seen], dtype=np.int64)


def _fit_forest(X: np.ndarray, y: np.ndarray, n_trees: int, seed: int, *,
                min_samples_leaf: int = 1, max_features: float = 1.0,
                bootstrap: bool = False) -> list:
    """Extremely randomized regression trees (Geurts et al.), fitted one by one.

    sklearn's ensemble wrapper clones its parameters for every tree, which costs more than
    growing a tree on a few hundred points; this runs after every batch, so it is skipped.
    A 0/1 target gives the probability of success (the tree's leaf means)."""
    X = np.ascontiguousarray(X, dtype=np.float32)
    y = np.ascontiguousarray(y, dtype=np.float64)
    rs = np.random.RandomState(seed % (2**32))
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
        return {"queue": [{k: (list(v) if isinstance(v, tuple) else v) for k, v in p.items()}
                          for p in self._queue]}

    def _load_extra(self, extra) -> None:
        self._queue = [self.space.normalize(p) for p in extra.get("queue", [])]


class SurfPlusSearcher(SurfSearcher):
    """SURF+ (the default searcher): SURF with log-time fit, uncertainty from the spread
    across trees, a feasibility model for failures, diverse batches and a final local
    refinement of the incumbent.

    Options:
      n_init (8): random points before the first fit;
      n_trees (24): trees per forest (refit + pool prediction well under a second);
      min_samples_leaf (1), max_features (1.0), bootstrap (False): of the trees;
      acquisition ('ei'): 'ei' expected improvement in log-time, 'lcb' mean - kappa * spread,
        'ts' Thompson sampling (each pick follows one random tree), 'mean' pure exploitation;
      kappa (1.0): for 'lcb'; xi (0.0): EI margin in log-time (0.05 = 5% slower than the best);
      explore (0.0): chance that a pick is a random pool point instead;
      feasibility (True): learn where points fail (failures weight the acquisition by the
        predicted chance of success); off = SURF's fake runtimes;
      refine (0.1): share of the budget, at its end, for the incumbent's neighbourhood;
      pool_size (10000): candidates sampled when the space has more valid points than 20000.
    """

    name = "surf+"
    options = {"n_init": 8, "n_trees": 24, "min_samples_leaf": 1, "max_features": 1.0,
               "bootstrap": False, "acquisition": "ei", "kappa": 1.0, "xi": 0.0,
               "explore": 0.0, "feasibility": True, "feas_trees": 16, "ts_trees": 1, "additive": 0.0, "additive_noise": 1.0, "far_every": 0, "far_distance": 3, "feas_gate": 0.5,
               "refine": 0.1,
               "pool_size": 10000, "features": ""}

    @classmethod
    def _prefixes(cls):
        return ("surfplus",)

    def _check_options(self) -> None:
        for opt in ("n_init", "n_trees", "pool_size", "min_samples_leaf", "feas_trees", "ts_trees"):
            self._require(self.opts[opt] >= 1, opt, "at least 1")
        for opt in ("refine", "explore"):
            self._require(0.0 <= self.opts[opt] <= 1.0, opt, "between 0 and 1")
        self._require(0.0 < self.opts["max_features"] <= 1.0, "max_features", "in (0, 1]")
        self._require(self.opts["xi"] >= 0.0, "xi", "0 or more")
        self._require(self.opts["kappa"] >= 0.0, "kappa", "0 or more")
        self._require(self.opts["acquisition"] in ("ei", "lcb", "ts", "mean"), "acquisition",
                      "one of ei, lcb, ts, mean")
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

    def _fit(self, n_reg: int):
        """Objective trees on log(time) of the successes, feasibility trees on all points."""
        pool = self._pool_()
        points, results = self._training()
        X = pool.features(points)
        ok = np.array([r.ok for r in results])
        y = np.log(np.array([max(r.value, 1e-300) if r.ok else 1.0 for r in results]))
        seed = self.seed * 7919 + len(points)
        o = self.opts
        kw = dict(min_samples_leaf=o["min_samples_leaf"], max_features=o["max_features"],
                  bootstrap=o["bootstrap"])
        feas = None
        if o["feasibility"]:
            if not ok.all():
                feas = _fit_forest(X, ok.astype(np.float64), o["feas_trees"], seed + 1)
        else:
            y = np.where(ok, y, np.log(2.0) + y[ok].max())
            ok = np.ones(len(y), dtype=bool)
        lin = None
        target = y[ok]
        if o["additive"] > 0:
            lin = self._fit_additive([self.space.coords(p) for p, good in zip(points, ok) if good],
                                     target)
            target = target - lin[3]
        reg = _fit_forest(X[ok], target, n_reg, seed, **kw)
        return reg, feas, float(y[ok].min()), lin

    def _fit_additive(self, coords, y):
        """Bayesian ridge on one-hot parameter values (log-time = sum of per-value effects).

        Trees cannot predict below the best time they were shown; main effects can, by
        combining the best value of each parameter, which is how good GPU configurations
        are usually put together.  Returns (mean, coefficients, posterior Cholesky factor,
        fitted values)."""
        H = self._pool_().onehot(np.array(coords))
        mean = float(y.mean())
        lam = self.opts["additive"]
        A = H.T @ H + lam * np.eye(H.shape[1])
        beta = np.linalg.solve(A, H.T @ (y - mean))
        fitted = mean + H @ beta
        resid = y - fitted
        dof = max(1.0, len(y) - np.trace(np.linalg.solve(A, H.T @ H)))
        sigma2 = max(float(resid @ resid) / dof, 1e-4)
        chol = np.linalg.cholesky(sigma2 * np.linalg.inv(A) + 1e-12 * np.eye(len(beta)))
        return mean, beta, chol, fitted

    def _scorer(self, model, X: np.ndarray, coords: np.ndarray):
        """score(pick) -> acquisition of each row of X for the pick-th point of a batch
        (higher is better).  Thompson sampling follows a different tree for each pick."""
        reg, feas, y_best, lin = model
        o = self.opts
        H = self._pool_().onehot(coords) if lin is not None else None
        X = np.ascontiguousarray(X, dtype=np.float32)
        p_ok = _predict_forest(feas, X).mean(axis=0) if feas is not None else None
        acq = o["acquisition"]
        base = 0.0 if lin is None else lin[0] + H @ lin[1]

        def gate(score):
            # Points predicted to fail go behind every point predicted to work.
            return score if p_ok is None else np.where(p_ok >= o["feas_gate"], score, score - 1e6)

        if acq == "ts":
            m = o["ts_trees"]

            def thompson(pick):
                trees = [reg[(pick * m + t) % len(reg)] for t in range(m)]
                pred = np.min([t.predict(X, check_input=False) for t in trees], axis=0)
                if lin is not None:
                    beta = lin[1] + o["additive_noise"] * (
                        lin[2] @ self.rng.standard_normal(len(lin[1])))
                    pred = pred + lin[0] + H @ beta
                return gate(-pred)
            return thompson
        P = _predict_forest(reg, X) + base
        mu = P.mean(axis=0)
        if acq == "mean":
            score = gate(-mu)
        elif acq == "lcb":
            score = gate(-(mu - o["kappa"] * P.std(axis=0)))
        else:
            sd = P.std(axis=0)
            imp = y_best - mu - o["xi"]
            z = imp / np.where(sd > 0, sd, 1.0)
            ei = np.where(sd > 0, imp * ndtr(z) + sd * np.exp(-0.5 * z * z) / _SQRT_2PI,
                          np.maximum(imp, 0.0))
            # Zero-EI points are still ordered by their mean, so exploitation goes on.
            score = ei - 1e-9 * mu
            if p_ok is not None:
                score = score * p_ok
        return lambda pick: score

    def _model_batch(self, seen: set[str], k: int, refining: bool) -> list[Point]:
        if k <= 0:
            return []
        pool = self._pool_()
        space = self.space
        ts = self.opts["acquisition"] == "ts"
        model = self._fit(k * self.opts["ts_trees"] if ts else self.opts["n_trees"])
        chosen: list[Point] = []
        if refining and self.best is not None:
            near = [p for p in space.neighbours(self.best[0]) if point_key(p) not in seen]
            if near:
                score = self._scorer(model, pool.features(near),
                                     np.array([space.coords(p) for p in near]))
                order = np.argsort(-score(0), kind="stable")
                chosen = [near[int(i)] for i in order[:k]]
                seen = seen | {point_key(p) for p in chosen}
        if len(chosen) >= k:
            return chosen
        cand = pool.unseen(seen)
        if cand.size == 0:
            return chosen + self.space.sample(self.rng, k - len(chosen), exclude=seen)
        score = self._scorer(model, pool.X[cand], pool.coords[cand])
        picked = [np.array(space.coords(p)) for p in chosen]
        taken = np.zeros(cand.size, dtype=bool)
        order = None
        spent = len(self._told) + len(self._pending)
        far_every = self.opts["far_every"]
        far = None
        if far_every and self.best is not None:
            inc = np.array(space.coords(self.best[0]))
            far = np.sum(pool.coords[cand] != inc, axis=1) >= self.opts["far_distance"]
        while len(chosen) < k and not taken.all():
            if self.opts["explore"] > 0 and self.rng.random() < self.opts["explore"]:
                free = np.flatnonzero(~taken)
                i = int(free[int(self.rng.integers(free.size))])
            else:
                if order is None or ts:
                    order = np.argsort(-score(len(chosen)), kind="stable")
                free = order[~taken[order]]
                if far is not None and (spent + len(chosen)) % far_every == far_every - 1:
                    # A pick away from the incumbent: rugged spaces hide their best
                    # configurations in basins that a local model does not reach.
                    away = free[far[free]]
                    free = away if away.size else free
                i = int(free[0])
                # Diversity: a batch never holds two points one parameter apart.
                for j in free[:256]:
                    c = pool.coords[cand[j]]
                    if all(int(np.sum(c != q)) > 1 for q in picked):
                        i = int(j)
                        break
            taken[i] = True
            picked.append(pool.coords[cand[i]])
            chosen.append(space.from_coords(pool.coords[cand[i]]))
        return chosen


register_searcher(SurfSearcher, "Mlsearch")
register_searcher(SurfPlusSearcher, "surfplus")
