"""A user's condition on a parameter point, and its conjuncts used to prune partial points."""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from looptx.errors import note_once


class Constraint:
    """A user's condition on a point.  Where it raises (a division by a param that is 0, a
    name it reads that has no value), the point is ruled out as if it failed, as Orio's and
    Kernel Tuner's searches cannot run it either; the first such point is noted, so the
    points that vanish from the space are not a mystery."""

    def __init__(self, names: Sequence[str], label: str, file: str, line: int | None = None):
        self.names = tuple(names)
        self.label, self.file, self.line = label, file, line
        self._noted = False
        self.failure: str | None = None      # the first point where it raised, and why

    def holds(self, point: Mapping) -> bool:
        raise NotImplementedError

    def __call__(self, point: Mapping) -> bool:
        try:
            return bool(self.holds(point))
        except Exception as exc:  # noqa: BLE001 - any failure rules the point out
            if not self._noted:
                self._noted = True
                at = ", ".join(f"{k}={point[k]!r}" for k in self.names if k in point)
                why = re.sub(r"^cannot evaluate .*?: ", "", str(getattr(exc, "what", None) or exc))
                self.failure = f"{self.label} cannot be evaluated at {at} ({why})"
                note_once(self.file, self.line, f"{self.failure}; the points where it cannot are ruled out")
            return False


class Prune:
    """A conjunct of a constraint, checked on partial points only to rule prefixes out: where
    it cannot be evaluated, the whole constraint decides."""

    def __init__(self, part: Callable[[Mapping], object]):
        self.part = part

    def __call__(self, point: Mapping) -> bool:
        try:
            return bool(self.part(point))
        except Exception:  # noqa: BLE001 - not this check's to decide
            return True

    def vector(self, name: str, values):
        vector = getattr(self.part, "vector", None)
        return None if vector is None else vector(name, values)


_REMEMBERED = 200_000     # outcomes one check keeps while a listing runs


def remembered(check, names, position: Mapping[str, int]):
    """`check` answering again from its outcomes at the values of the params it reads: a
    listing tries each value of a param under every prefix, and the annotation's evaluator
    took about 20 us per constraint, so SPAPT's listings (two million values tried) ran for
    tens of seconds before a search started; most constraints read two or three params, whose
    values repeat."""
    if names is None:
        return check
    keys = tuple(x for x in names if x in position)
    seen: dict = {}

    def answer(point: Mapping) -> bool:
        try:
            # (the type too: True and 1 are one dict key, and a constraint may tell them apart)
            key = tuple((type(point[x]), point[x]) for x in keys)
            outcome = seen.get(key)
        except (KeyError, TypeError):
            return check(point)
        if outcome is None:
            outcome = check(point)
            if len(seen) < _REMEMBERED:
                seen[key] = outcome
        return outcome
    return answer


def falls_with_values(body, sizes: Mapping) -> bool:
    """Whether a constraint's expression (`body`, a Python ast node) can only turn false as a
    param grows, where every param is at least 0: `U1 * U2 * U3 <= 32` (SPAPT's register
    budgets), `a + b < N`, and conjunctions of such.  A point that fails it with the params not
    yet chosen at their least values rules out every point that extends it (probe 225 G2: a
    listing of six unroll factors under one product found no valid point in minutes)."""
    return monotone(body, sizes) == "least"


def monotone(body, sizes: Mapping) -> str | None:
    """"least" where the expression can only turn false as params grow (falls_with_values),
    "most" where it can only turn true (`A + B + C >= 61`): a point that fails it with the
    params not yet chosen at their greatest values rules out every point that extends it."""
    import ast

    def rising(e) -> bool:           # non-decreasing in every param, never negative
        if isinstance(e, ast.Name):
            value = sizes.get(e.id, 0)
            return isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0
        if isinstance(e, ast.Constant):
            return isinstance(e.value, (int, float)) and not isinstance(e.value, bool) and e.value >= 0
        return isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Mult)) and rising(e.left) \
            and rising(e.right)

    def fixed(e) -> bool:            # reads no param
        return all(isinstance(n, ast.Name) and n.id in sizes or not isinstance(n, ast.Name) for n in ast.walk(e)) \
            and not any(isinstance(n, ast.Call) for n in ast.walk(e))
    if isinstance(body, ast.BoolOp) and isinstance(body.op, ast.And):
        ways = {monotone(x, sizes) for x in body.values}
        return ways.pop() if len(ways) == 1 else None
    if isinstance(body, ast.Compare) and len(body.ops) == 1:
        op, left, right = body.ops[0], body.left, body.comparators[0]
        if isinstance(op, (ast.Gt, ast.GtE)):
            left, right = right, left
        elif not isinstance(op, (ast.Lt, ast.LtE)):
            return None
        if rising(left) and fixed(right):        # small < big
            return "least"
        if fixed(left) and rising(right):
            return "most"
    return None


class AtLeast:
    """A check of a partial point that fills the params a constraint reads and the point has
    no value for yet with their least values (or greatest, for one that grows true): where the
    constraint fails there, it fails for every value they may take (monotone)."""

    def __init__(self, holds, filled: Mapping):
        self.holds, self.filled = holds, filled

    def __call__(self, point: Mapping) -> bool:
        try:
            return bool(self.holds({**self.filled, **point}))
        except Exception:  # noqa: BLE001 - not this check's to decide
            return True
