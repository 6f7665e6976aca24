"""Search-quality metrics on recorded spaces, with exact random-search baselines.

Budgets count unique evaluations, failures included.  For a run, b(n) is the best time found
in its first n evaluations.  Conventions (see /shared/data/spaces/README.md):
- F@n   = mean over runs of optimum / b(n)  (0 while nothing has succeeded);
- S@B   = mean over n = 1..B of (R(n) - b(n)) / (R(n) - optimum), where R(n) is the exact
          expected best-of-n of random search without replacement: random = 0, optimum = 1
          (Willemsen et al. 2024).  A run with no success yet, and a failed point inside R(n),
          count as the worst successful time of the space, so S stays finite;
- hit5@n = share of runs with b(n) <= 1.05 * optimum.
Random search's distributions have closed forms: among N valid points (sorted by time, failures
last), the chance that the best of n draws has rank >= k is C(N-k+1, n) / C(N, n).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.special import gammaln


def _sorted_times(times: Sequence[float]) -> np.ndarray:
    t = np.asarray([math.inf if v is None else float(v) for v in times], dtype=np.float64)
    return np.sort(t)


def _min_rank_probs(n_points: int, n: int) -> np.ndarray:
    """P(the best of n draws without replacement is the k-th smallest), k = 1..N."""
    N = n_points
    n = min(max(int(n), 0), N)
    if n == 0:
        return np.zeros(N)
    k = np.arange(1, N + 2)
    a = N - k + 1  # points of rank >= k
    with np.errstate(invalid="ignore"):
        log_tail = np.where(a >= n, gammaln(a + 1) - gammaln(n + 1) - gammaln(a - n + 1), -np.inf)
    log_all = gammaln(N + 1) - gammaln(n + 1) - gammaln(N - n + 1)
    tail = np.exp(log_tail - log_all)  # P(min rank >= k)
    return tail[:-1] - tail[1:]


def _penalised(t: np.ndarray) -> np.ndarray:
    finite = t[np.isfinite(t)]
    worst = finite.max() if finite.size else math.inf
    return np.where(np.isfinite(t), t, worst)


def random_expected_best(times: Sequence[float], n: int) -> float:
    """Exact E[best time of n random draws without replacement] (failures = worst time)."""
    t = _sorted_times(times)
    return float(np.dot(_min_rank_probs(len(t), n), _penalised(t)))


def random_curve(times: Sequence[float], budget: int) -> np.ndarray:
    """R(n) for n = 1..budget."""
    t = _penalised(_sorted_times(times))
    return np.array([float(np.dot(_min_rank_probs(len(t), n), t)) for n in range(1, budget + 1)])


def random_fraction(times: Sequence[float], n: int) -> float:
    """Exact E[optimum / best of n] for random search (0 when all n draws failed)."""
    t = _sorted_times(times)
    opt = t[0]
    ratio = np.where(np.isfinite(t), opt / t, 0.0)
    return float(np.dot(_min_rank_probs(len(t), n), ratio))


def random_hit(times: Sequence[float], n: int, tol: float = 0.05) -> float:
    """Exact P(best of n random draws is within `tol` of the optimum)."""
    t = _sorted_times(times)
    good = int(np.sum(t <= t[0] * (1.0 + tol)))
    return float(np.sum(_min_rank_probs(len(t), n)[:good]))


def best_curve(values: Sequence[float | None], budget: int) -> np.ndarray:
    """Best-so-far after n = 1..budget evaluations (inf = no success yet); a run that stopped
    early keeps its last best."""
    out = np.full(budget, math.inf)
    best = math.inf
    for i in range(budget):
        if i < len(values):
            v = values[i]
            if v is not None and math.isfinite(v) and v < best:
                best = v
        out[i] = best
    return out


@dataclass(frozen=True)
class RunScores:
    """Scores of one run (or of the exact random baseline) at the requested budgets."""

    F: dict[int, float]
    S: dict[int, float]
    hit5: dict[int, float]


def score_run(curve: np.ndarray, times: Sequence[float], budgets: Sequence[int],
              rand: np.ndarray | None = None) -> RunScores:
    """F@n, S@n and hit5@n of one best-so-far curve (from `best_curve`)."""
    t = _sorted_times(times)
    opt = float(t[0])
    worst = float(_penalised(t).max())
    B = max(budgets)
    rand = random_curve(times, B) if rand is None else rand
    b = np.where(np.isfinite(curve[:B]), curve[:B], worst)
    denom = rand - opt
    s_n = np.where(denom > 0, (rand - b) / np.where(denom > 0, denom, 1.0), 1.0)
    F = {n: (float(opt / curve[n - 1]) if math.isfinite(curve[n - 1]) else 0.0) for n in budgets}
    S = {n: float(np.mean(s_n[:n])) for n in budgets}
    H = {n: float(curve[n - 1] <= opt * 1.05) for n in budgets}
    return RunScores(F, S, H)


def random_scores(times: Sequence[float], budgets: Sequence[int]) -> RunScores:
    """The exact random-search baseline (S is 0 by construction)."""
    return RunScores({n: random_fraction(times, n) for n in budgets},
                     {n: 0.0 for n in budgets},
                     {n: random_hit(times, n) for n in budgets})


def mean_ci(samples: Sequence[float]) -> tuple[float, float]:
    """Mean and half-width of its 95% normal-approximation confidence interval."""
    x = np.asarray(samples, dtype=np.float64)
    if x.size == 0:
        return math.nan, math.nan
    if x.size == 1:
        return float(x[0]), 0.0
    return float(x.mean()), float(1.96 * x.std(ddof=1) / math.sqrt(x.size))
