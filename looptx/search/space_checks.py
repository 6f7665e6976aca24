"""Checks of an annotated space's constraints before a search: one that cannot be evaluated
anywhere, or constraints that leave no point, are bad input located at the constraint."""
from __future__ import annotations

from typing import Any, Mapping

from looptx.errors import AnnotationError, LooptxError
from looptx.search.space import Space


def rng(seed: int):
    import numpy as np
    return np.random.default_rng(seed)


def grid_sample(space: Space, limit: int = 2000, seed: int = 0) -> list[dict]:
    """Up to `limit` points of the raw grid (all of it when small enough), constraints ignored."""
    import itertools
    if space.grid_size <= limit:
        return [dict(zip(space.names, combo))
                for combo in itertools.product(*(p.values for p in space.params))]
    gen = rng(seed)
    cols = [gen.integers(0, n, size=limit) for n in space.sizes]
    return [space.from_coords(row) for row in zip(*cols)]


def constraint_where(st, c) -> dict:
    return dict(file=getattr(c.expr, "file", None) or st.spec.file, line=c.line, col=c.col)


def check_constraints(st, space: Space, sizes: Mapping[str, Any]) -> None:
    """A performance constraint that cannot be evaluated at any point is a bad input, not a
    constraint that is false everywhere: report it at the constraint."""
    spec = st.spec
    if spec is None or not spec.constraints:
        return
    points = grid_sample(space, seed=st.seed)
    base = {**spec.lets, **sizes}
    for c in spec.constraints:
        first = None
        for p in points:
            try:
                c.expr({**base, **p})
            except Exception as e:  # noqa: BLE001 - any failure of the expression
                first = first or e
                continue
            first = None
            break
        if first is not None:
            what = first.what if isinstance(first, LooptxError) else f"{type(first).__name__}: {first}"
            shown = ", ".join(f"{k}={v!r}" for k, v in points[0].items())
            raise AnnotationError(f"constraint '{c.name}' cannot be evaluated at any point: {what}",
                                  hint=f"fix the expression; it fails e.g. for {shown}",
                                  **constraint_where(st, c))


def empty_space(st, space: Space, sizes: Mapping[str, Any], *, listed: bool = True) -> LooptxError:
    """The error for constraints that leave no point, located at the constraint that rules out
    every point by itself (else at the first constraint).  Not `listed`: sampling a space too
    large to list found no valid point, which does not make it empty."""
    spec = st.spec
    label = ", ".join(f"{k}={v}" for k, v in sizes.items())
    where_size = f" for {label}" if label else ""
    if spec is None or not spec.constraints:
        return AnnotationError(f"the search space is empty{where_size}",
                               hint="give every param at least one value",
                               file=st.path, line=spec.line if spec else None)
    if not listed:
        names = ", ".join(f"'{c.name}'" for c in spec.constraints)
        return AnnotationError(f"no valid point found{where_size}: the {space.grid_size} raw points are too "
                               f"many to list, and sampling found none that constraints {names} allow",
                               hint="relax the constraints, or write them so that each reads fewer params "
                                    "(looptx then lists the valid points)",
                               **constraint_where(st, spec.constraints[0]))
    points = grid_sample(space, limit=200_000, seed=st.seed)
    base = {**spec.lets, **sizes}

    failed: dict = {}

    def holds(c, p):
        try:
            return bool(c.expr({**base, **p}))
        except Exception as e:  # noqa: BLE001 - as in the search: a failing constraint is false
            failed.setdefault(c.name, (e, p))
            return False
    for c in spec.constraints:
        if not any(holds(c, p) for p in points):
            if c.name in failed:
                # false where it evaluates, an error everywhere else: the error is the cause
                e, p = failed[c.name]
                what = e.what if isinstance(e, LooptxError) else f"{type(e).__name__}: {e}"
                shown = ", ".join(f"{k}={v!r}" for k, v in p.items())
                return AnnotationError(f"constraint '{c.name}' cannot be evaluated: {what} (at {shown}); "
                                       f"it holds for no point{where_size}",
                                       hint="fix the expression", **constraint_where(st, c))
            return AnnotationError(f"constraint '{c.name}' holds for no point{where_size}: the search "
                                   "space is empty", hint="relax the constraint or add param values",
                                   **constraint_where(st, c))
    names = ", ".join(f"'{c.name}'" for c in spec.constraints)
    return AnnotationError(f"constraints {names} together hold for no point{where_size}: the search "
                           "space is empty", hint="relax the constraints or add param values",
                           **constraint_where(st, spec.constraints[0]))


def count(space: Space) -> int | None:
    try:
        return space.size() if space.enumerable else None
    except LooptxError:
        return None
