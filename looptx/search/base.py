"""The searcher protocol (ask/tell); the registry of names is `looptx.search.registry`.

A searcher hands out points of a `Space` and is told their results; it never sees a compiler
or a GPU, so the same searcher drives real runs, a Dask cluster or a recorded-space replay.

Two bookkeeping rules are enforced here for every searcher:
- a point is handed out at most once (unless named in `remeasure`), and only valid points;
- the number of distinct points handed out or told never exceeds `max_evals`.

Resume: build a fresh searcher with the same seed and options, replay every recorded
(point, result) through `tell`, and (if one was stored) call `load_state`; the search goes on
and never proposes a told point again.  Searchers whose path depends on their own history
(simplex, annealing, ...) derive from `TrajectorySearcher`: they re-run their trajectory from
the seed and take every already known result from the history for free, so a resumed run
follows exactly the path the first run would have taken.
"""
from __future__ import annotations

import abc
import math
import time
from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from looptx.errors import AnnotationError
from looptx.search.db import MAX_INTEGER
from looptx.search.registry import _REGISTRY, _same_searcher
from looptx.search.space import Point, Space, point_key

STATUSES = ("ok", "compile_error", "runtime_error", "crash", "timeout", "wrong_result",
            "illegal", "over_limit", "invalid")
DEFAULT_SEARCHER = "surf+"


@dataclass(frozen=True)
class Result:
    """Outcome of one evaluation: `value` is the objective (seconds, lower is better)."""

    status: str
    value: float | None = None

    def __post_init__(self):
        if self.status == "ok":
            if self.value is None or not math.isfinite(float(self.value)):
                raise ValueError(f"an ok result needs a finite value, got {self.value!r}")
            object.__setattr__(self, "value", float(self.value))
        elif self.value is not None:
            object.__setattr__(self, "value", None)

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def cost(self) -> float:
        """The value to minimise: +inf for every failure."""
        return self.value if self.status == "ok" else math.inf


INVALID = Result("invalid")


class Searcher(abc.ABC):
    """Base of all searchers.

    Subclasses set `name`, declare their options in `options` (name -> default; the default's
    type is the option's type) and implement `_propose(n)`: up to n new points.  Options are
    also accepted with the searcher's name as prefix (`annealing_cooling_factor`).
    """

    name: ClassVar[str] = ""
    options: ClassVar[Mapping[str, Any]] = {}
    option_aliases: ClassVar[Mapping[str, str]] = {}
    # Options of the Orio searcher this one stands for that have no counterpart here:
    # name -> (Orio's default, why it is ignored).  They are checked as Orio checks them
    # (a non-negative number) and then dropped; `ignored_options` names them for a warning.
    orio_ignored: ClassVar[Mapping[str, tuple[Any, str]]] = {}
    # Upper bounds of integer options whose size is work done at once (trees fitted, points
    # drawn per round): a value past them would run for hours, not fail.  Any other integer
    # option stops at SQLite's 2**63-1, as the database records it.
    option_limits: ClassVar[Mapping[str, int]] = {}
    listed: ClassVar[bool] = True
    # Raised when an option's meaning changes, so that a results database recorded under the
    # old meaning is read with it (`upgrade_options`) when the search is resumed.
    options_version: ClassVar[int] = 1
    # Whether load_state restores the random generator (trajectory searchers re-run from the seed).
    _restore_rng: ClassVar[bool] = True

    def __init__(self, space: Space, *, seed: int = 0, max_evals: int = 100, batch_size: int = 1,
                 time_limit: float | None = None, clock: Callable[[], float] = time.monotonic,
                 **options):
        if not isinstance(max_evals, int) or isinstance(max_evals, bool) or max_evals < 0:
            raise AnnotationError(f"max_evals must be a non-negative integer, got {max_evals!r}",
                                  hint="give a budget such as 100")
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size < 1:
            raise AnnotationError(f"batch_size must be a positive integer, got {batch_size!r}",
                                  hint="use 1 for sequential search")
        if time_limit is not None and not (isinstance(time_limit, (int, float)) and time_limit > 0):
            raise AnnotationError(f"time_limit must be a positive number of seconds, got {time_limit!r}",
                                  hint="leave it out for no limit")
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise AnnotationError(f"seed must be a non-negative integer, got {seed!r}", hint="e.g. 0")
        self.space = space
        self.seed = int(seed)
        self.max_evals = max_evals
        self.batch_size = batch_size
        self.time_limit = time_limit
        self.clock = clock
        self.opts: dict[str, Any] = self._parse_options(options)
        self._check_options()
        self.rng = np.random.default_rng(self.seed)
        self.remeasure: set[str] = set()
        self._told: dict[str, tuple[Point, Result]] = {}
        self._pending: dict[str, Point] = {}
        self._best: tuple[Point, Result] | None = None
        self._t0 = clock()
        self._elapsed_before = 0.0
        self._exhausted = False
        self._asked_any = False       # this run asked a point (resumed history does not count)
        # Points asked before an interrupt and never told: a resumed search asks them first,
        # as the interrupted one would have measured them (its random state is past their draw).
        self._carried: list[Point] = []

    # -- options --------------------------------------------------------------------------
    @classmethod
    def option_names(cls) -> list[str]:
        return sorted(cls.options)

    @classmethod
    def canonical_option(cls, raw: str) -> str | None:
        """The option that a given name sets (`annealing_cooling_factor`, `cooling_factor` ->
        `cooling_factor`), or None when this searcher has no such option."""
        known = set(cls.options) | set(cls.orio_ignored)
        key = str(raw).lower()
        key = cls.option_aliases.get(key, key)
        if key in known:
            return key
        # Orio writes options as <algorithm>_<option>, with any name the searcher answers to
        names = [cls.name.lower().rstrip("+"), *cls._prefixes(),
                 *(alias for alias, c in _REGISTRY.items() if c is cls)]
        for pre in sorted({n.lower() + "_" for n in names}, key=len, reverse=True):
            if key.startswith(pre):
                rest = cls.option_aliases.get(key[len(pre):], key[len(pre):])
                if rest in known:
                    return rest
        return None

    @classmethod
    def ignored_options(cls, given: Mapping[str, Any]) -> list[tuple[str, str]]:
        """(name as given, why) for each given option that is accepted only to be ignored."""
        out = []
        for raw in given:
            key = cls.canonical_option(raw)
            if key in cls.orio_ignored:
                out.append((raw, cls.orio_ignored[key][1]))
        return out

    @classmethod
    def upgrade_options(cls, given: Mapping[str, Any], version: int) -> dict[str, Any]:
        """`given`, recorded under `options_version` `version`, with today's meaning."""
        return dict(given)

    @classmethod
    def _parse_options(cls, given: Mapping[str, Any]) -> dict[str, Any]:
        opts = dict(cls.options)
        for raw, value in given.items():
            key = cls.canonical_option(raw)
            if key is None:
                import difflib
                from looptx.search.options import STANDARD
                valid = ", ".join(cls.option_names()) or "none"
                close = difflib.get_close_matches(str(raw).lower(), [*STANDARD, *cls.option_names()], 1, 0.75)
                hint = f"valid options: {valid}"
                if close and close[0] in STANDARD:
                    hint = (f"'{close[0]}' is an arg of every search ({STANDARD[close[0]]} on the "
                            f"command line); the options of {cls.name}: {valid}")
                raise AnnotationError(f"unknown option '{raw}' for searcher '{cls.name}'"
                                      + (f" (did you mean '{close[0]}'?)" if close else ""), hint=hint)
            if key in cls.orio_ignored:
                default = cls.orio_ignored[key][0]
                v = cls._coerce(raw, default, value)
                if isinstance(v, (int, float)) and v < 0:
                    raise AnnotationError(f"option '{raw}' of searcher '{cls.name}' must be 0 or "
                                          f"more, got {value!r}", hint=_default_hint(default))
                continue
            opts[key] = cls._coerce(raw, opts[key], value)
            limit = cls.option_limits.get(key, MAX_INTEGER)
            if isinstance(opts[key], int) and not isinstance(opts[key], bool) and opts[key] > limit:
                raise AnnotationError(
                    f"option '{raw}' of searcher '{cls.name}' must be at most "
                    f"{'2**63-1' if limit == MAX_INTEGER else limit}, got {value!r}",
                    hint=_default_hint(cls.options[key]))
        return opts

    @classmethod
    def _prefixes(cls) -> tuple[str, ...]:
        return ()

    @classmethod
    def _coerce(cls, raw: str, default, value):
        def bad(kind):
            return AnnotationError(f"option '{raw}' of searcher '{cls.name}' must be {kind}, "
                                   f"got {value!r}", hint=_default_hint(default))
        if isinstance(default, float) and isinstance(value, (int, float)) and not isinstance(value, bool):
            # 1e400 reads as inf: the searcher's arithmetic would turn it into NaN coordinates
            try:
                value_f = float(value)
            except OverflowError:
                value_f = math.inf
            if not math.isfinite(value_f):
                value = value_f         # inf, not 10**400's 400 digits
                raise bad("a finite number")
            return value_f
        if default is None or isinstance(value, type(default)) and not (
                isinstance(value, bool) and not isinstance(default, bool)):
            return value
        if isinstance(default, bool):
            if isinstance(value, str) and value.lower() in ("true", "false", "1", "0"):
                return value.lower() in ("true", "1")
            if isinstance(value, int):
                return bool(value)
            raise bad("true or false")
        if isinstance(default, int):
            if isinstance(value, float) and value.is_integer():
                return int(value)
            if isinstance(value, str):
                try:
                    return int(value)
                except ValueError:
                    raise bad("an integer") from None
            raise bad("an integer")
        if isinstance(default, float):
            if isinstance(value, str):
                try:
                    f = float(value)
                except ValueError:
                    raise bad("a number") from None
                if not math.isfinite(f):
                    raise bad("a finite number")
                return f
            raise bad("a number")
        return value

    def _check_options(self) -> None:
        """Subclasses raise AnnotationError for out-of-range option values."""

    def _require(self, cond: bool, option: str, what: str) -> None:
        if not cond:
            raise AnnotationError(f"option '{option}' of searcher '{self.name}' must be {what}, "
                                  f"got {self.opts[option]!r}", hint=_default_hint(self.options[option]))

    # -- protocol -------------------------------------------------------------------------
    @property
    def n_told(self) -> int:
        return len(self._told)

    @property
    def best(self) -> tuple[Point, Result] | None:
        return self._best

    @property
    def history(self) -> list[tuple[Point, Result]]:
        return list(self._told.values())

    @property
    def pending(self) -> list[Point]:
        return list(self._pending.values())

    @property
    def elapsed(self) -> float:
        return self._elapsed_before + (self.clock() - self._t0)

    def _time_up(self) -> bool:
        # the limit counts this run, as the driver's does: a resumed search gets its own; and
        # as in Orio and Kernel Tuner, a run asks for a point before the limit can stop it
        return self.time_limit is not None and self._asked_any \
            and self.clock() - self._t0 >= self.time_limit

    @property
    def budget_left(self) -> int:
        return max(0, self.max_evals - len(self._told) - len(self._pending))

    @property
    def finished(self) -> bool:
        if self._time_up():
            return True
        if self._pending:
            return False
        return self._exhausted or self.budget_left == 0

    def ask(self, n: int | None = None) -> list[Point]:
        """Up to n (default batch_size) new valid points; [] when finished, or while the
        searcher needs the results of its pending points before it can go on."""
        n = self.batch_size if n is None else int(n)
        n = min(n, self.budget_left)
        if n <= 0 or self._time_up() or self._exhausted:
            return []
        out = self._accept(self._carried, n)
        self._carried = [p for p in self._carried if point_key(p) not in self._pending]
        if not out:
            out = self._accept(self._propose(n), n)
        if not out and not self._pending:
            self._exhausted = True
        self._asked_any = self._asked_any or bool(out)
        return out

    def _accept(self, points, n: int) -> list[Point]:
        out: list[Point] = []
        for point in points:
            point = self.space.normalize(point)
            key = point_key(point)
            fresh = key not in self._told or key in self.remeasure
            if fresh and key not in self._pending and self.space.is_valid(point):
                self._pending[key] = point
                out.append(point)
                if len(out) == n:
                    break
        return out

    def tell(self, point: Point, result: Result) -> None:
        """Record the result of a point (asked or not: resume replays history this way)."""
        point = self.space.normalize(point)
        key = point_key(point)
        if key in self._told and key not in self.remeasure:
            self._pending.pop(key, None)
            return
        self.remeasure.discard(key)
        self._pending.pop(key, None)
        self._told[key] = (point, result)
        if result.ok and (self._best is None or result.value < self._best[1].value):
            self._best = (point, result)
        self._on_tell(point, key, result)

    @abc.abstractmethod
    def _propose(self, n: int) -> list[Point]:
        """Up to n candidate points, best first; the base drops told, pending and invalid ones."""

    def _on_tell(self, point: Point, key: str, result: Result) -> None:
        """Hook for searchers that update a model or state on each result."""

    # -- helpers for subclasses -----------------------------------------------------------
    def _seen(self) -> set[str]:
        return set(self._told) | set(self._pending)

    def _random_unseen(self, n: int) -> list[Point]:
        return self.space.sample(self.rng, n, exclude=self._seen())

    # -- state ----------------------------------------------------------------------------
    def state(self) -> dict:
        """JSON-serializable snapshot: settings, rng, elapsed time and history keys."""
        return {
            "searcher": self.name,
            "seed": self.seed,
            "max_evals": self.max_evals,
            "batch_size": self.batch_size,
            "options": {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.opts.items()},
            "elapsed": self.elapsed,
            "told": list(self._told),
            "rng": self.rng.bit_generator.state,
            "pending": [plain_point(p) for p in self._pending.values()] if self._restore_rng else [],
            "extra": self._extra_state(),
        }

    def load_state(self, state: Mapping) -> None:
        stored = str(state.get("searcher", self.name))
        if not _same_searcher(stored, self.name):
            raise AnnotationError(f"the stored search state belongs to searcher '{stored}', "
                                  f"not '{self.name}'", hint=f"resume with searcher '{stored}'")
        self._elapsed_before = float(state.get("elapsed", 0.0))
        self._t0 = self.clock()
        if self._restore_rng and "rng" in state:
            self.rng.bit_generator.state = state["rng"]
            self._carried = [self.space.normalize(p) for p in state.get("pending") or []]
        self._load_extra(state.get("extra") or {})

    def _extra_state(self) -> dict:
        return {}

    def _load_extra(self, extra: Mapping) -> None:
        pass


Request = list  # list[Point]: the points a trajectory needs results for before it goes on


class TrajectorySearcher(Searcher):
    """A searcher written as a generator: `results = yield [points]`.

    The generator asks for points and receives one Result per point (known points are
    answered from the history at no cost, invalid ones with status 'invalid').  Its path
    depends only on the seed and on results, so replaying the history rebuilds it exactly.
    Generator code must draw randomness from `self.rng` only and must not look at the history
    directly; `self._unrequested(n)` gives fresh random points deterministically.
    """

    _restore_rng = False
    # A trajectory that asks this many times in a row for nothing new is stuck (a fully
    # explored neighbourhood): a few random points are evaluated before it goes on, so the
    # budget is still spent usefully.
    stale_limit: ClassVar[int] = 2000

    def __init__(self, space: Space, **kwargs):
        super().__init__(space, **kwargs)
        self._gen: Generator | None = None
        self._request: list[tuple[str, Point, bool]] | None = None
        self._requested: set[str] = set()
        self._stale = 0
        self._held: list | None = None
        self._gen_done = False

    @abc.abstractmethod
    def _run(self) -> Generator[Request, list[Result], None]:
        """The search as a generator of requests."""

    def _unrequested(self, n: int) -> list[Point]:
        return self.space.sample(self.rng, n, exclude=self._requested)

    def _is_new(self, point: Point) -> bool:
        """Not requested before by this trajectory (deterministic under replay)."""
        return point_key(point) not in self._requested

    @staticmethod
    def _log_cost(result: Result) -> float:
        """Searchers compare log(time): steps are relative, failures are +inf.  Values <= 0
        (objectives that are not times) map below every log, keeping the order."""
        if not result.ok:
            return math.inf
        return math.log(result.value) if result.value > 0 else -1e6 + result.value

    def _advance(self, results: list[Result] | None) -> bool:
        if self._gen is None:
            self._gen = self._run()
        try:
            req = self._gen.send(results) if results is not None else next(self._gen)
        except StopIteration:
            self._gen_done = True
            self._request = None
            return False
        entries = []
        fresh = False
        for p in req:
            p = self.space.normalize(p)
            key = point_key(p)
            if key not in self._requested:
                fresh = True
                self._requested.add(key)
            entries.append((key, p, self.space.is_valid(p)))
        self._stale = 0 if fresh else self._stale + 1
        if self._stale > self.stale_limit:
            self._stale = 0
            extra = self._unrequested(max(1, self.batch_size))
            if extra:
                # Interlude: random points first, then the trajectory's own request again.
                self._held = entries
                self._requested.update(point_key(p) for p in extra)
                entries = [(point_key(p), p, True) for p in extra]
            else:
                # Every valid point has been requested: nothing new can come.
                self._gen_done = True
                self._request = None
                return False
        self._request = entries
        return True

    def _propose(self, n: int) -> list[Point]:
        if self._gen_done:
            return []
        if self._request is None and not self._advance(None):
            return []
        while True:
            out, keys = [], set()
            waiting = False
            for key, p, valid in self._request:
                if not valid or key in self._told:
                    continue
                waiting = True
                if key not in self._pending and key not in keys and len(out) < n:
                    out.append(p)
                    keys.add(key)
            if waiting:
                return out
            if self._held is not None:
                self._request, self._held = self._held, None
                continue
            results = [self._told[key][1] if valid else INVALID for key, p, valid in self._request]
            if not self._advance(results):
                return []


class Offered:
    """What a driver evaluates of a searcher's ask(): the two bookkeeping rules above, kept where
    a plugin writes its own ask() (an optuna or ytopt wrapper may offer a known point again).
    Points handed out before (not named in `remeasure`) and invalid ones are dropped; a searcher
    that offers nothing new IDLE_ASKS times in a row is finished."""

    IDLE_ASKS = 50

    def __init__(self, space: Space, handed=()):
        self.space = space
        self.handed = set(handed)
        self.idle = 0

    def fresh(self, searcher, points, limit: int) -> list[Point] | None:
        """The new points of an ask() (an empty list: ask again), None once it is finished;
        `limit`: the distinct points the budget allows."""
        remeasure = set(getattr(searcher, "remeasure", ()) or ())
        out, keys = [], set()
        for point in points:
            point = self.space.normalize(point)
            key = point_key(point)
            if key in keys or not self.space.is_valid(point):
                continue
            if key in self.handed and key not in remeasure:
                continue
            if key not in self.handed and len(self.handed) + len(keys - self.handed) >= limit:
                break
            out.append(point)
            keys.add(key)
        self.handed |= keys
        self.idle = 0 if out else self.idle + 1
        return None if self.idle >= self.IDLE_ASKS else out


def plain_point(point: Point) -> dict:
    """A point as JSON keeps it (a mapping param's tuple as a list; normalize() restores it)."""
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in point.items()}


def _default_hint(default) -> str:
    # an option whose default is None is chosen by the searcher (simplex's x0: a random start)
    return "leave the option out for the searcher's own choice" if default is None else f"default is {default!r}"

