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
