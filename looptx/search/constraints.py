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
