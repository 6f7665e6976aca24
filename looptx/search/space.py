"""Parameter spaces: a grid of declared values, cut down by constraints.

Searchers only ever see a `Space`: they draw, encode and walk points, and never learn what a
parameter means.  A point is a plain dict `{name: value}`; `point_key` turns it into the
canonical string that identifies it everywhere (results database, replay caches, searcher
history), so two spellings of one point (a tuple read back from JSON as a list) are one key.
"""
from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from looptx.errors import AnnotationError, LooptxError
from looptx.search.constraints import AtLeast, remembered
from looptx.search.value_masks import allowed_values, one_param_checks

Point = dict

KINDS = ("int", "float", "bool", "str", "tuple", "mapping")
ENUMERATION_LIMIT = 2_000_000
# Below this raw size, sampling enumerates the valid set once: exact and cheap.
_DIRECT_SAMPLING_LIMIT = 200_000


def _plain(value):
    """JSON has no tuples and no numpy scalars: map both to what json.dumps accepts."""
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def point_key(point: Mapping) -> str:
    """Canonical JSON of a point: sorted keys, tuples as lists, no spaces."""
    return json.dumps({str(k): _plain(v) for k, v in point.items()}, sort_keys=True,
                      separators=(",", ":"))


def _freeze(value):
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, np.generic):
        return value.item()
    return value


def value_key(v):
    """A value as a dict key: True is not the value 1 (Kernel Tuner's `["test", 1, True, 2.45]`),
    though Python hashes them alike."""
    return (isinstance(v, bool), v)


def infer_kind(values: Sequence) -> str:
    """The kind a list of declared values implies (bool before int: bool is an int subtype)."""
    vals = [_freeze(v) for v in values]
    if vals and all(isinstance(v, bool) for v in vals):
        return "bool"
    if vals and all(isinstance(v, int) and not isinstance(v, bool) for v in vals):
        return "int"
    if vals and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals):
        return "float"
    if vals and all(isinstance(v, tuple) for v in vals):
        return "tuple"
    return "str"


@dataclass(frozen=True)
class Param:
    """One tunable parameter: its declared values in order, and how to treat them."""

    name: str
    values: tuple
    kind: str
    slots: tuple[str, ...] = ()

    def __post_init__(self):
        object.__setattr__(self, "values", tuple(_freeze(v) for v in self.values))
        object.__setattr__(self, "slots", tuple(self.slots))
        if self.kind not in KINDS:
            raise AnnotationError(f"parameter '{self.name}' has unknown kind '{self.kind}'",
                                  hint="use one of " + ", ".join(KINDS))
        if not self.values:
            raise AnnotationError(f"parameter '{self.name}' has no values",
                                  hint="give it at least one value")
        if len({value_key(v) for v in self.values}) != len(self.values):
            raise AnnotationError(f"parameter '{self.name}' repeats a value",
                                  hint="list each value once")
        if self.kind == "mapping":
            if not self.slots:
                raise AnnotationError(f"mapping parameter '{self.name}' has no slot names",
                                      hint="give slots such as ('BX','BY','TX','TY')")
            for v in self.values:
                if not isinstance(v, tuple) or len(v) != len(self.slots):
                    raise AnnotationError(
                        f"mapping parameter '{self.name}' has value {v!r} that does not fill "
                        f"its {len(self.slots)} slots", hint="one loop name or '1' per slot")

    @classmethod
    def of(cls, name: str, values: Sequence, *, slots: Sequence[str] = ()) -> "Param":
        """A parameter whose kind is inferred from its values ('mapping' when slots are given)."""
        kind = "mapping" if slots else infer_kind(values)
        return cls(name, tuple(values), kind, tuple(slots))

    @property
    def ordinal(self) -> bool:
        """int/float values have an order: a neighbour is an adjacent index."""
        return self.kind in ("int", "float")


def mapping_values(loops: Sequence[str], block: int, thread: int,
                   cover: bool = False) -> tuple[tuple[str, ...], ...]:
    """Every assignment of loops to `block` block slots then `thread` thread slots.

    '1' marks an empty slot; a loop fills at most one slot; the first thread slot (x) is never
    empty, since a kernel without threads mapped is not a GPU mapping.  `cover=True` keeps only
    assignments that use every loop.  Order is deterministic (loops in given order, then '1').
    """
    loops = tuple(loops)
    choices = loops + ("1",)
    out = []
    for combo in itertools.product(choices, repeat=block + thread):
        used = [c for c in combo if c != "1"]
        if len(used) != len(set(used)):
            continue
        if thread and combo[block] == "1":
            continue
        if cover and len(used) != len(loops):
            continue
        out.append(combo)
    return tuple(out)


class Listed(Sequence):
    """The valid points of a listed space, each made from its coordinates when asked for: a
    list of a million dicts took a gigabyte (probe 228 G1).  Rows are in odometer order, so
    their places in the grid, where they fit in an int64, are sorted and found by bisection."""

    def __init__(self, space: "Space", coords: np.ndarray):
        self.space, self.coords = space, coords
        self._flat = self._rows = None
        try:
            if len(coords) and space.grid_size < 2 ** 62:
                flat = np.ravel_multi_index(coords.T, space.sizes) if space.sizes else np.zeros(len(coords), np.int64)
                if np.all(flat[1:] > flat[:-1]):
                    self._flat = flat
        except ValueError:
            pass
        if self._flat is None:
            self._rows = {tuple(r): i for i, r in enumerate(coords.tolist())}

    def __len__(self) -> int:
        return len(self.coords)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        return self.space.from_coords(self.coords[i])

    def index_of(self, coords: Sequence[int]) -> int | None:
        if self._rows is not None:
            return self._rows.get(tuple(coords))
        if not len(self.coords):
            return None
        x = np.ravel_multi_index(tuple(int(c) for c in coords), self.space.sizes) if self.space.sizes else 0
        i = int(np.searchsorted(self._flat, x))
        return i if i < len(self._flat) and self._flat[i] == x else None


class SpaceTooLarge(LooptxError):
    """The raw grid is too large to list every valid point."""


class Space:
    """A grid of parameter values restricted by constraints (callables on a point)."""

    def __init__(self, params: Sequence[Param], constraints: Sequence[Callable[[Mapping], bool]] = (),
                 *, name: str = "space", rows: Sequence[Sequence[int]] | None = None):
        """`rows`: the coordinates of the valid points when they are known without listing the
        grid (a recorded space whose grid is too large to list); the constraints must hold on
        them."""
        self.params: tuple[Param, ...] = tuple(params)
        self.names: tuple[str, ...] = tuple(p.name for p in self.params)
        if len(set(self.names)) != len(self.names):
            dup = next(n for n in self.names if self.names.count(n) > 1)
            raise AnnotationError(f"parameter '{dup}' is declared twice",
                                  hint="give each parameter one declaration")
        self.constraints = tuple(constraints)
        self.name = name
        self.sizes: tuple[int, ...] = tuple(len(p.values) for p in self.params)
        self.grid_size: int = math.prod(self.sizes)
        self._index = tuple({value_key(v): i for i, v in enumerate(p.values)} for p in self.params)
        self._valid: Listed | None = None
        self._listing_tried = False
        self._part_rows: list | None = None
        self._valid_coords: np.ndarray | None = None
        self._valid_keys: list[str] | None = None
        self._tables: dict[frozenset, list[np.ndarray]] = {}
        self._mapping_adj: dict[int, list[list[int]]] = {}
        self._allowed: list[np.ndarray] | None = None
        self._decided: set[tuple[int, int]] = set()
        self._key_places: dict[str, int | None] = {}
        if rows is not None:
            self._set_valid(sorted({tuple(int(c) for c in r) for r in rows}))

    def __repr__(self) -> str:
        return f"Space({self.name!r}, {len(self.params)} params, grid {self.grid_size})"

    # -- points -------------------------------------------------------------------------
    def normalize(self, point: Mapping) -> Point:
        """The same point with JSON lists turned back into tuples, in declaration order."""
        out = {n: _freeze(point[n]) for n in self.names if n in point}
        for k, v in point.items():
            if k not in out:
                out[k] = _freeze(v)
        return out

    def coords(self, point: Mapping) -> tuple[int, ...]:
        """Declaration index of each value; KeyError when a value is not declared."""
        return tuple(self._index[i][value_key(_freeze(point[n]))] for i, n in enumerate(self.names))

    def from_coords(self, coords: Sequence[int]) -> Point:
        return {p.name: p.values[int(c)] for p, c in zip(self.params, coords)}

    def _in_domain(self, point: Mapping) -> tuple[int, ...] | None:
        if len(point) != len(self.names):
            return None
        try:
            return self.coords(point)
        except (KeyError, TypeError):
            return None

    def _constraints_hold(self, point: Mapping) -> bool:
        return self._all_hold(self.constraints, point)

    def is_valid(self, point: Mapping) -> bool:
        """In the declared domain and every constraint true (a constraint that raises: false)."""
        c = self._in_domain(point)
        if c is None:
            return False
        if self._valid is not None:
            return self._valid.index_of(c) is not None
        return self._constraints_hold(self.from_coords(c))

    # -- enumeration ----------------------------------------------------------------------
    @property
    def enumerable(self) -> bool:
        """Whether the valid points can be listed: a grid within the limit, or a larger one
        whose constraints prune it to a listing within the same work (sparse SPAPT spaces)."""
        if self._valid is not None or self.grid_size <= ENUMERATION_LIMIT \
                or self.allowed_size <= ENUMERATION_LIMIT:
            return True
        if self._listing_tried:
            return False
        self._listing_tried = True
        rows = []
        for row in self._valid_rows_in_order(budget=ENUMERATION_LIMIT):
            if row is None:
                return False
            rows.append(row)
        self._set_valid(rows)
        return True

    def enumerate(self) -> Iterator[Point]:
        """All valid points in odometer order (last parameter fastest), lazily."""
        if self._valid is not None:
            yield from (self.from_coords(row) for row in self._valid_coords.tolist())
            return
        for row in self._valid_rows_in_order():
            yield self.from_coords(row)

    def enumerate_first_fastest(self) -> Iterator[Point]:
        """All valid points with the first parameter fastest (Orio's Exhaustive moves its
        coordinates so), lazily: the odometer of the parameters in reverse."""
        if self._valid is not None:
            for i in np.lexsort(self._valid_coords.T) if len(self.params) else range(len(self._valid)):
                yield dict(self._valid[i])
            return
        backwards = Space(tuple(reversed(self.params)), self.constraints, name=self.name)
        for row in backwards._valid_rows_in_order():
            yield self.from_coords(row[::-1])

    def _valid_rows_in_order(self, budget: int | None = None,
                             rng: np.random.Generator | None = None) -> Iterator[tuple[int, ...] | None]:
        """Coordinates of the valid points in odometer order.

        A constraint that says which params it reads (a `names` attribute) is checked as soon
        as the last of them has a value, so a prefix it rules out is never extended: Orio
        spaces of a million combinations, whose constraints each tie two or three params,
        are listed in a fraction of the time of checking every combination.  The conjuncts of
        a constraint (`parts`) prune as soon as their own params have values; the constraint
        itself still decides.  With a `budget` of values tried, None ends a listing that would
        take more.  With `rng`, each level tries its values in a random order."""
        n = len(self.params)
        at_depth: list[list] = [[] for _ in range(n)]
        position = {name: d for d, name in enumerate(self.names)}

        def depth(names) -> int:
            return n - 1 if names is None else max((position[x] for x in names if x in position),
                                                   default=0)
        decided = self._decided_by_masks()
        for ci, c in enumerate(self.constraints):
            for k, (names, check) in enumerate(one_param_checks(c)):
                if (ci, k) not in decided:
                    at_depth[depth(names)].append(remembered(check, names, position))
            for d, check in self._least_checks(c, position):
                at_depth[d].append(check)
        point: dict = {}
        row = [0] * n
        tried = [0]

        def extend(d: int) -> Iterator[tuple[int, ...] | None]:
            p = self.params[d]
            checks = at_depth[d]
            order = self.allowed[d] if rng is None else rng.permutation(self.allowed[d])
            for i in order:
                i, v = int(i), p.values[int(i)]
                tried[0] += 1
                if budget is not None and tried[0] > budget:
                    yield None
                    return
                point[p.name] = v
                row[d] = i
                if checks and not self._all_hold(checks, point):
                    continue
                if d == n - 1:
                    yield tuple(row)
                else:
                    for r in extend(d + 1):
                        yield r
                        if r is None:
                            return
            point.pop(p.name, None)       # (no value may be allowed at all)

        if n:
            yield from extend(0)

    @property
    def allowed(self) -> list[np.ndarray]:
        """Each param's value indices that the checks reading it alone leave (value_masks)."""
        if self._allowed is None:
            self._allowed, self._decided = allowed_values(self)
        return self._allowed

    def _decided_by_masks(self) -> set[tuple[int, int]]:
        """The checks `allowed` has answered: (constraint number, place in one_param_checks)."""
        self.allowed
        return self._decided

    @property
    def allowed_size(self) -> int:
        """The grid of the allowed values: every valid point is in it."""
        return math.prod(len(a) for a in self.allowed)

    def _least_checks(self, c, position) -> list:
        """(depth, check) for a constraint (or a conjunct) that only a param's growth can make
        false (`U1 * ... * U6 <= 32`) or true (`A + ... + G >= 61`): from its first param on, a
        prefix is ruled out where it fails with the params after it at their least (greatest)
        values."""
        out = []
        for names, holds, way in getattr(c, "monotone", ()):
            names = [x for x in (names or ()) if x in position]
            if len(names) < 2:
                continue
            filled = {}
            for x in names:
                values = self.params[position[x]].values
                if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 for v in values):
                    break
                filled[x] = (min if way == "least" else max)(values)
            else:
                depths = sorted(position[x] for x in names)
                out += [(d, AtLeast(holds, filled)) for d in range(depths[0], depths[-1])]
        return out

    @staticmethod
    def _all_hold(constraints, point: Mapping) -> bool:
        for c in constraints:
            try:
                if not c(point):
                    return False
            except Exception:  # noqa: BLE001 - a constraint that cannot be evaluated rules the point out
                return False
        return True

    def _build_valid(self) -> None:
        if self._valid is not None:
            return
        if not self.enumerable:
            raise SpaceTooLarge(
                f"search space '{self.name}' has {self.grid_size} raw points, too many to list",
                hint=f"add constraints or fewer values (limit {ENUMERATION_LIMIT}), or use a "
                     "sampling searcher")
        self._set_valid(list(self._valid_rows_in_order()))

    def _set_valid(self, rows: list[tuple[int, ...]]) -> None:
        self._valid_coords = np.array(rows, dtype=np.int64).reshape(len(rows), len(self.params))
        self._valid = Listed(self, self._valid_coords)
        self._key_places = {}

    def point_at(self, i: int) -> Point:
        """The i-th valid point of `valid_points()` (listed once)."""
        self._build_valid()
        return self._valid[int(i)]

    def valid_index(self, key: str) -> int | None:
        """The place of the point with this `point_key` in `valid_points()`, or None."""
        self._build_valid()
        # (each draw excludes every measured key again: each is parsed once)
        if key not in self._key_places:
            try:
                c = self._in_domain(self.normalize(json.loads(key)))
            except (ValueError, TypeError, AttributeError):
                c = None
            self._key_places[key] = None if c is None else self._valid.index_of(c)
        return self._key_places[key]

    def valid_points(self) -> list[Point]:
        """Every valid point (cached); raises SpaceTooLarge above the enumeration limit."""
        self._build_valid()
        return [dict(p) for p in self._valid]

    def valid_coords(self) -> np.ndarray:
        """Coordinates of `valid_points()`, one row each (read-only view, cached)."""
        self._build_valid()
        view = self._valid_coords.view()
        view.flags.writeable = False
        return view

    def valid_keys(self) -> list[str]:
        """`point_key` of each valid point, aligned with `valid_points()` (cached)."""
        self._build_valid()
        if self._valid_keys is None:
            # point_key of each row, from each param's JSON pieces: json.dumps per point takes
            # seconds on the million-point spaces Orio files declare.
            order = sorted(range(len(self.names)), key=lambda j: str(self.names[j]))
            cols = [self._valid_coords[:, j].tolist() for j in order]
            # (only the values some valid point has: a param may declare millions)
            pieces = [{c: json.dumps({str(self.names[j]): _plain(self.params[j].values[c])},
                                     separators=(",", ":"))[1:-1] for c in set(col)}
                      for j, col in zip(order, cols)]
            self._valid_keys = ["{" + ",".join(piece[c] for piece, c in zip(pieces, row)) + "}"
                                for row in zip(*cols)] if cols else ["{}"] * len(self._valid)
        return self._valid_keys

    def size(self) -> int:
        """Number of valid points (enumerates once)."""
        self._build_valid()
        return len(self._valid)

    # -- sampling -------------------------------------------------------------------------
    def sample(self, rng: np.random.Generator, n: int, exclude: Collection[str] = ()) -> list[Point]:
        """Up to n distinct valid points, uniform, none whose key is in `exclude`."""
        from looptx.search.space_sampling import sample
        return sample(self, rng, n, exclude)

    # -- model features -------------------------------------------------------------------
    def _feature_tables(self, extras: frozenset) -> list[np.ndarray]:
        tables = []
        for p in self.params:
            k = len(p.values)
            cols = []
            if p.ordinal:
                if k > 1:
                    cols.append(np.arange(k, dtype=np.float64)[:, None] / (k - 1))
                    positive = all(v > 0 for v in p.values)
                    if "log2" in extras and positive:
                        cols.append(np.log2(np.array(p.values, dtype=np.float64))[:, None])
                    if "align" in extras and positive and p.kind == "int":
                        # Power-of-two alignment (warp, wavefront, bank and vector widths) is
                        # what often decides GPU speed, and it is not monotone in the value.
                        tz = np.array([min((v & -v).bit_length() - 1, 10) for v in p.values],
                                      dtype=np.float64)
                        if len(set(tz)) > 1:
                            cols.append(tz[:, None] / max(tz.max(), 1.0))
                    if "onehot" in extras and k > 2:
                        cols.append(np.eye(k))
            elif k > 1:
                cols.append(np.eye(k))
                if p.kind in ("mapping", "tuple") and len({len(v) for v in p.values}) == 1:
                    # Per-slot one-hot: "which loop is innermost / on threadIdx.x" is shared
                    # by many values, and that is what decides the speed.
                    for s in range(len(p.values[0])):
                        entries = list(dict.fromkeys(v[s] for v in p.values))
                        if len(entries) > 1:
                            m = np.zeros((k, len(entries)))
                            for i, v in enumerate(p.values):
                                m[i, entries.index(v[s])] = 1.0
                            cols.append(m)
            tables.append(np.hstack(cols) if cols else np.zeros((k, 0)))
        return tables

    def encode_coords(self, coords: np.ndarray, *, log2: bool = False,
                      features: Collection[str] = ()) -> np.ndarray:
        """Model features of the points given by their coordinates (rows).  `features` adds
        columns for ordinal parameters: 'log2' (log2 of the value), 'align' (power-of-two
        alignment of an int value), 'onehot' (one-hot of the value as well)."""
        coords = np.asarray(coords, dtype=np.int64).reshape(-1, len(self.params))
        extras = frozenset(features) | ({"log2"} if log2 else frozenset())
        tables = self._tables.get(extras)
        if tables is None:
            tables = self._tables[extras] = self._feature_tables(extras)
        parts = [t[coords[:, j]] for j, t in enumerate(tables) if t.shape[1]]
        if "pairs" in extras:
            # log2(a*b) for every pair of size-like parameters: threads per block, tile
            # areas and footprints are products of parameters.
            logs = [(j, np.log2(np.array(p.values, dtype=np.float64)))
                    for j, p in enumerate(self.params)
                    if p.ordinal and len(p.values) > 2 and all(v > 0 for v in p.values)]
            for (a, la), (b, lb) in itertools.combinations(logs, 2):
                parts.append((la[coords[:, a]] + lb[coords[:, b]])[:, None])
        if not parts:
            return np.zeros((coords.shape[0], 0))
        return np.hstack(parts)

    def encode(self, points: Sequence[Point], *, log2: bool = False,
               features: Collection[str] = ()) -> np.ndarray:
        """Features: ordinal -> index/(len-1) in [0,1] (+ log2 value when asked);
        categorical -> one-hot; mapping and tuple -> one-hot of the value and of each slot.
        Parameters with one value give no column.  See `encode_coords` for `features`."""
        coords = np.array([self.coords(p) for p in points], dtype=np.int64)
        return self.encode_coords(coords.reshape(len(points), len(self.params)), log2=log2,
                                  features=features)

    # -- neighbourhoods -------------------------------------------------------------------
    def _mapping_neighbours(self, j: int) -> list[list[int]]:
        adj = self._mapping_adj.get(j)
        if adj is None:
            values = self.params[j].values
            adj = [[] for _ in values]
            for a, b in itertools.combinations(range(len(values)), 2):
                va, vb = values[a], values[b]
                diff = [s for s in range(len(va)) if va[s] != vb[s]]
                one_move = len(diff) == 1 or (
                    len(diff) == 2 and va[diff[0]] == vb[diff[1]] and va[diff[1]] == vb[diff[0]])
                if one_move:
                    adj[a].append(b)
                    adj[b].append(a)
            self._mapping_adj[j] = adj
        return adj

    def _value_neighbours(self, j: int, i: int, distance: int) -> list[int]:
        p = self.params[j]
        k = len(p.values)
        if p.ordinal:
            return [t for t in range(max(0, i - distance), min(k, i + distance + 1)) if t != i]
        if p.kind == "mapping":
            adj = self._mapping_neighbours(j)
            seen, frontier = {i}, [i]
            for _ in range(max(1, distance)):
                frontier = [b for a in frontier for b in adj[a] if b not in seen]
                if not frontier:        # a distance of 2**62 steps must not take that long
                    break
                seen.update(frontier)
            return sorted(seen - {i})
        return [t for t in range(k) if t != i]

    def neighbours(self, point: Mapping, distance: int = 1) -> list[Point]:
        """Valid points that differ from `point` in one parameter: an ordinal value at most
        `distance` index steps away, any other categorical value, or (mapping) two slots
        swapped or one slot's loop replaced."""
        base = list(self.coords(point))
        out = []
        for j in range(len(self.params)):
            for t in self._value_neighbours(j, base[j], distance):
                c = list(base)
                c[j] = t
                cand = self.from_coords(c)
                if self.is_valid(cand):
                    out.append(cand)
        return out
