"""The iterations a peel takes off either end of a loop.

One lexmin per peeled iteration is exact for any loop, but a request far beyond the trip count
(first: 10000 on a 16-iteration loop) made thousands of ever slower isl calls.  So a request
is cut to the trip count where that is known; a long peel of a loop whose values fill an interval
on its stride (the usual case) takes its first n iterations in closed form (one peeled loop), and
only a short peel, or one of a loop with gaps, goes one iteration at a time.
"""
from __future__ import annotations

import islpy as isl

from looptx.errors import RecipeError

ONE_BY_ONE = 16                 # up to this many, each peeled iteration is a statement of its own
MAX_ONE_BY_ONE = 256


def _dense(m: isl.Map, lo: isl.Map, hi: isl.Map, step: int) -> bool:
    """Every value between the loop's first and last one (per outer iteration), on its stride,
    occurs."""
    between = lo.apply_range(isl.Map(f"{{ [a] -> [x] : x >= a and (x - a) mod {step} = 0 }}")).intersect(
        hi.apply_range(isl.Map("{ [b] -> [x] : x <= b }")))
    return between.subtract(m).is_empty()


def ends(m: isl.Map, n: int, lowest: bool, trip: int | None, what: str) -> isl.Map:
    """The `n` lowest (or highest) values of the loop `m` (outer values -> loop value) per outer
    iteration; `trip`, when known, bounds how many values it takes there."""
    if n == 0 or m.is_empty():
        return isl.Map.empty(m.get_space())
    if trip is not None:
        n = min(n, trip)
    if n > ONE_BY_ONE:
        lo, hi = m.lexmin(), m.lexmax()
        step = m.get_range_stride_info(0).get_stride().to_python()
        if step >= 1 and _dense(m, lo, hi, step):
            span = n * step
            window = f"{{ [a] -> [x] : a <= x < a + {span} }}" if lowest else \
                f"{{ [a] -> [x] : a - {span} < x <= a }}"
            return (lo if lowest else hi).apply_range(isl.Map(window)).intersect(m)
    if n > MAX_ONE_BY_ONE:
        raise RecipeError(f"peeling {n} iterations ('{what}') of a loop with gaps in its range would "
                          "take them one by one, which is too slow",
                          hint=f"peel at most {MAX_ONE_BY_ONE}, or split the loop (split {{at: ...}})")
    out = isl.Map.empty(m.get_space())
    rest = m
    for _ in range(n):
        if rest.is_empty():
            break
        e = rest.lexmin() if lowest else rest.lexmax()
        out = out.union(e)
        rest = rest.subtract(e)
    return out


def each(m: isl.Map, n: int, lowest: bool, trip: int | None, what: str) -> list[isl.Map]:
    """The peeled iterations as CHiLL writes them out (its peel splits one iteration at a time):
    up to ONE_BY_ONE, each on its own, in the loop's order; a longer peel as one loop."""
    if trip is not None:
        n = min(n, trip)
    if n > ONE_BY_ONE:
        return [ends(m, n, lowest, trip, what)]
    out, rest = [], m
    for _ in range(n):
        if rest.is_empty():
            break
        e = rest.lexmin() if lowest else rest.lexmax()
        out.append(e)
        rest = rest.subtract(e)
    return out if lowest else out[::-1]
