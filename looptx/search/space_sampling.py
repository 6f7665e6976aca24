"""Drawing valid points of a space: uniform where it can be listed or rejection sampling
finds them; by independent groups of params, or a pruned search, where valid points are rare."""
from __future__ import annotations

from collections.abc import Collection

import numpy as np

from looptx.search import space as _space
from looptx.search.space import Point, point_key


def sample(space, rng: np.random.Generator, n: int, exclude: Collection[str] = ()) -> list[Point]:
    """Up to n distinct valid points, uniform, none whose key is in `exclude`."""
    if n <= 0:
        return []
    if space._valid is not None or min(space.grid_size, space.allowed_size) <= _space._DIRECT_SAMPLING_LIMIT:
        return _sample_listed(space, rng, n, exclude)
    found: dict[str, Point] = {}
    attempts, cap = 0, max(2000, 200 * n)
    while len(found) < n and attempts < cap:
        batch = min(4096, 4 * (n - len(found)) + 16)
        attempts += batch
        cols = [a[rng.integers(0, len(a), size=batch)] for a in space.allowed]
        for row in zip(*cols):
            point = space.from_coords(row)
            # most draws of a sparse space fail a constraint: test that before the key
            if not space._constraints_hold(point):
                continue
            key = point_key(point)
            if key in found or key in exclude:
                continue
            found[key] = point
            if len(found) == n:
                break
    if len(found) == n:
        return list(found.values())
    if space.enumerable:
        # Rejection sampling stalled (valid points are rare): list them all instead.
        return _sample_listed(space, rng, n, exclude)
    return _sample_by_parts(space, rng, n, exclude, found)


def _parts(space) -> list[tuple[list[int], list[tuple[int, ...]]]] | None:
    """The params split into groups that no constraint links (SPAPT's constraints each tie
    two or three params), with each group's valid value rows: the valid points are every
    combination of one row per group.  None where a group is too large to list."""
    if space._part_rows is not None:
        return space._part_rows or None
    n = len(space.params)
    group = list(range(n))

    def root(i):
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i
    position = {name: d for d, name in enumerate(space.names)}
    for c in space.constraints:
        names = getattr(c, "names", None)
        ds = list(range(n)) if names is None else [position[x] for x in names if x in position]
        for d in ds[1:]:
            group[root(d)] = root(ds[0])
    members: dict[int, list[int]] = {}
    for d in range(n):
        members.setdefault(root(d), []).append(d)
    parts = []
    for ds in members.values():
        sub = _space.Space([space.params[d] for d in ds],
                    [c for c in space.constraints if {position.get(x) for x in
                     (getattr(c, "names", None) or ())} & set(ds)])
        if not sub.enumerable:
            space._part_rows = []
            return None
        parts.append((ds, [tuple(r) for r in sub.valid_coords().tolist()]))
    space._part_rows = parts
    return parts


def _sample_by_parts(space, rng, n, exclude, found: dict) -> list[Point]:
    """Uniform valid points of a space too large to list whose valid points are too rare for
    rejection sampling: one valid row of each independent group of params."""
    parts = _parts(space)
    if parts is None or any(not rows for _, rows in parts):
        return _sample_by_search(space, rng, n, exclude, found)
    row = [0] * len(space.params)
    attempts = 0
    while len(found) < n and attempts < 200 * n + 2000:
        attempts += 1
        for ds, rows in parts:
            for d, c in zip(ds, rows[int(rng.integers(len(rows)))]):
                row[d] = c
        point = space.from_coords(row)
        key = point_key(point)
        # constraints on no param at all (or reading names only the whole point has)
        if key not in found and key not in exclude and space._constraints_hold(point):
            found[key] = point
    return list(found.values())


def _sample_by_search(space, rng, n, exclude, found: dict) -> list[Point]:
    """Valid points of a space whose constraints tie too many params to list them by group
    (SPAPT's tensor: a register budget over every unroll factor): a pruned depth-first
    search with random value orders, restarted for each point.  Not uniform, but every
    point it gives is valid, and a space is not called empty while it finds one."""
    for _ in range(4 * n + 4):
        if len(found) >= n:
            break
        for row in space._valid_rows_in_order(budget=_space.ENUMERATION_LIMIT // 10, rng=rng):
            if row is None:
                break
            point = space.from_coords(row)
            key = point_key(point)
            if key not in found and key not in exclude:
                found[key] = point
                break
    return list(found.values())


def _sample_listed(space, rng, n, exclude) -> list[Point]:
    """Uniform without replacement over the listed valid points that `exclude` leaves: the
    excluded keys are found by their coordinates, not by scanning every key (which cost 0.4 s
    a draw on a space of 1.6 million points; probe 228 G1)."""
    total = space.size()
    out = {space.valid_index(k) for k in exclude} if exclude else set()
    out.discard(None)
    idx = np.delete(np.arange(total), sorted(out)) if out else np.arange(total)
    if not len(idx):
        return []
    pick = rng.choice(len(idx), size=min(n, len(idx)), replace=False)
    return [space.point_at(idx[int(i)]) for i in pick]
