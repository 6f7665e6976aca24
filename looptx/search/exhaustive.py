"""Exhaustive search: every valid point, the first parameter fastest, as Orio's Exhaustive."""
from __future__ import annotations

from collections.abc import Iterator

from looptx.search.base import Searcher
from looptx.search.registry import register_searcher
from looptx.search.space import Point, point_key


class ExhaustiveSearcher(Searcher):
    """Enumeration of the valid points in Orio's `Exhaustive` order: the first parameter's
    value moves fastest, the next one's when it wraps, and so on.

    Options:
      start_coord (None): a list of value indices, one per parameter; enumeration starts at
        that coordinate and runs to the end of the space, as Orio's `exhaustive_start_coord`
        resumes a run that stopped there (the points before it are not measured).
    Resuming skips every told point, so the order is the same as an uninterrupted run.
    """

    name = "exhaustive"
    options = {"start_coord": None}

    def __init__(self, space, **kwargs):
        super().__init__(space, **kwargs)
        self._order: Iterator[Point] | None = None

    def _check_options(self) -> None:
        start = self.opts["start_coord"]
        if start is not None:
            ok = (isinstance(start, (list, tuple)) and len(start) == len(self.space.params)
                  and all(isinstance(c, int) and 0 <= c < s for c, s in zip(start, self.space.sizes)))
            self._require(ok, "start_coord",
                          f"a list of {len(self.space.params)} value indices within each "
                          "parameter's range")

    def _points(self) -> Iterator[Point]:
        start = self.opts["start_coord"]
        if start is None:
            return self.space.enumerate_first_fastest()
        late = tuple(reversed(start))
        return (p for p in self.space.enumerate_first_fastest() if tuple(reversed(self.space.coords(p))) >= late)

    def _propose(self, n: int) -> list[Point]:
        if self._order is None:
            self._order = self._points()
        out = []
        for p in self._order:
            key = point_key(p)
            if key in self._told or key in self._pending:
                continue
            out.append(p)
            if len(out) == n:
                break
        return out


register_searcher(ExhaustiveSearcher, "Exhaustive")
