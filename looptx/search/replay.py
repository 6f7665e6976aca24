"""Recorded search spaces: Kernel Tuner caches read and written, and simulated replay.

A Kernel Tuner cache holds the measured time of every configuration of a space; replaying a
searcher against it costs no hardware and gives the exact same answers every time, which is
how searchers are compared (benchmarks/search_quality.py).  Conventions:
- the valid space is the T1 `Conditions` over the grid of its `Values` when a T1 file is
  given, else the configurations present in the cache; `-D NAME=VALUE` narrows either;
- a valid configuration absent from the cache, or stored with an error string, is a failure
  that still costs one evaluation;
- simulated time = recorded compile_time + benchmark_time (ms in the cache, seconds here) plus
  the searcher's own wall time.
"""
from __future__ import annotations

import ast
import gzip
import json
import math
import operator
import os
import statistics
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from looptx.errors import AnnotationError, LooptxError, note_once
from looptx.search.base import Offered, Result
from looptx.search.registry import get_searcher
from looptx.search.replay_checks import (check_cache_fields, objective_keys, fixed_constraints,
                                         fixed_values, objective_direction, refuse_negative_times,
                                         split_objective, t1_value_space, no_success_error, json_position,
                                         header_objective, note_guessed_direction, note_odd_objectives,
                                         record_line)
from looptx.search.cache_read import hashable, read_json, record_doubts, record_point, widen
from looptx.search.constraints import Constraint
from looptx.search.space import Param, Point, Space, infer_kind, point_key

_KT_FAILURE_STATUS = {"CompilationFailedConfig": "compile_error",
                      "RuntimeFailedConfig": "runtime_error",
                      "InvalidConfig": "invalid"}
_KT_FAILED_TIME = 1e20
_STATUS_KT = {"compile_error": "CompilationFailedConfig", "runtime_error": "RuntimeFailedConfig",
              "crash": "RuntimeFailedConfig", "timeout": "RuntimeFailedConfig",
              "wrong_result": "RuntimeFailedConfig", "illegal": "InvalidConfig",
              "over_limit": "InvalidConfig", "invalid": "InvalidConfig"}


@dataclass(frozen=True)
class RecordedSpace:
    """A fully measured space: the objective and cost of a point are look-ups."""

    space: Space
    objective: Callable[[Point], Result]
    cost: Callable[[Point], float]
    optimum: float
    name: str
    n_valid: int
    # Objective (seconds, inf for a failure) of each valid point, in enumeration order.
    times: tuple[float, ...] = field(default=(), repr=False)
    # What the cache records as the objective; values are minimised as `key(value)` (time in
    # seconds; 1/x for a positive higher-is-better one) and shown back with `shown(key)`.
    objective_name: str = "time"
    higher_is_better: bool = False
    shown: Callable[[float], float] = field(default=lambda k: k, repr=False, compare=False)
    ratio: bool = True          # optimum/best is meaningful (positive, ratio-preserving keys)
    unmeasured: int = 0         # valid points no record holds (an unfinished run): failures


@dataclass(frozen=True)
class ReplayTrace:
    """What one simulated search did: one (point, result, simulated time) per evaluation."""

    name: str
    searcher: str
    seed: int
    entries: tuple[tuple[Point, Result, float], ...]
    optimum: float
    searcher_time: float = 0.0

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self):
        return iter(self.entries)

    def __getitem__(self, i):
        return self.entries[i]

    @property
    def best_curve(self) -> tuple[float, ...]:
        """Best value found after each evaluation (inf until the first success)."""
        out, best = [], math.inf
        for _, r, _ in self.entries:
            if r.ok and r.value < best:
                best = r.value
            out.append(best)
        return tuple(out)

    @property
    def times(self) -> tuple[float, ...]:
        return tuple(t for _, _, t in self.entries)


# -- condition expressions -------------------------------------------------------------
_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
           ast.Pow: operator.pow}
_CMPOPS = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
           ast.Gt: operator.gt, ast.GtE: operator.ge, ast.In: lambda a, b: a in b,
           ast.NotIn: lambda a, b: a not in b}
_FUNCS = {"min": min, "max": max, "abs": abs, "int": int, "float": float, "len": len}


class _Condition:
    """A small interpreter for T1 condition text, used until looptx.frontend.expr exists.
    It walks the Python AST of the text; nothing is ever passed to eval."""

    def __init__(self, text: str):
        self.text = text
        self.tree = ast.parse(text.strip(), mode="eval").body
        self.names = frozenset(n.id for n in ast.walk(self.tree) if isinstance(n, ast.Name)) - set(_FUNCS)

    def __call__(self, env: Mapping):
        return self._ev(self.tree, env)

    def _ev(self, node, env):
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str, bool)):
            return node.value
        if isinstance(node, ast.Name):
            if node.id in env:
                return env[node.id]
            raise NameError(node.id)
        if isinstance(node, ast.BoolOp):
            if isinstance(node.op, ast.And):
                val = True
                for v in node.values:
                    val = self._ev(v, env)
                    if not val:
                        return val
                return val
            val = False
            for v in node.values:
                val = self._ev(v, env)
                if val:
                    return val
            return val
        if isinstance(node, ast.UnaryOp):
            v = self._ev(node.operand, env)
            if isinstance(node.op, ast.Not):
                return not v
            if isinstance(node.op, ast.USub):
                return -v
            if isinstance(node.op, ast.UAdd):
                return +v
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            a, b = self._ev(node.left, env), self._ev(node.right, env)
            if isinstance(node.op, ast.Pow) and abs(b) > 64:
                raise ValueError("exponent too large")
            return _BINOPS[type(node.op)](a, b)
        if isinstance(node, ast.Compare):
            left = self._ev(node.left, env)
            for op, comp in zip(node.ops, node.comparators):
                right = self._ev(comp, env)
                if type(op) not in _CMPOPS or not _CMPOPS[type(op)](left, right):
                    return False
                left = right
            return True
        if isinstance(node, ast.IfExp):
            return self._ev(node.body if self._ev(node.test, env) else node.orelse, env)
        if isinstance(node, (ast.Tuple, ast.List)):
            return tuple(self._ev(e, env) for e in node.elts)
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in _FUNCS and not node.keywords):
            return _FUNCS[node.func.id](*(self._ev(a, env) for a in node.args))
        raise ValueError(f"unsupported expression: {ast.dump(node)[:60]}")


def _compile_condition(text: str, where: str):
    try:
        from looptx.frontend.expr import compile_expr
    except ImportError:
        compile_expr = None
    try:
        return compile_expr(text) if compile_expr is not None else _Condition(text)
    except Exception as exc:  # noqa: BLE001 - any parse failure is a bad T1 file
        err = exc if isinstance(exc, AnnotationError) else None
        line, col = json_position(where, text)
        raise AnnotationError(f"cannot read condition {text!r}: {err.what if err else exc}",
                              hint="use a Python-style boolean expression over the "
                                   "parameter names", file=where, line=line, col=col) from None


class _constraint(Constraint):
    """A T1 condition as a space constraint; `names` lets the space check it as soon as the
    params it reads have values, so large grids are listed without visiting every point."""

    def __init__(self, expr, names, text: str, file: str):
        super().__init__(names, f"condition {text!r}", file)
        self.expr = expr

    def holds(self, point: Mapping) -> bool:
        return self.expr(point)


# -- reading ----------------------------------------------------------------------------
def _load_params(data: dict, path: str) -> list[Param]:
    check_cache_fields(data, path)
    keys, tp = data["tune_params_keys"], data["tune_params"]
    meta = {m["name"]: m for m in data.get("looptx_params", []) if isinstance(m, dict) and "name" in m}
    params = []
    for k in keys:
        if k not in tp or not isinstance(tp[k], list):
            raise AnnotationError(f"parameter '{k}' has no value list in 'tune_params'",
                                  hint="the cache is damaged", file=path)
        m = meta.get(k, {})
        values = [hashable(v) for v in tp[k]]
        kind = m.get("kind") or infer_kind(values)
        try:
            params.append(Param(k, tuple(values), kind, tuple(m.get("slots", ()))))
        except LooptxError as e:
            raise e.located(file=path) from None
    return params


def _load_t1(t1_path, params: list[Param]) -> tuple[list[Callable], list[Param], frozenset]:
    t1_path = str(t1_path)
    t1 = read_json(t1_path, "a T1 definition (JSON with its TuningParameters, Values and Conditions)")
    cs = t1.get("ConfigurationSpace")
    if not isinstance(cs, dict):
        raise AnnotationError("no 'ConfigurationSpace' in the T1 file", hint="give a T1 "
                              "problem definition", file=t1_path)
    t1_names = [p.get("Name") for p in cs.get("TuningParameters", []) if isinstance(p, dict)]
    names = [p.name for p in params]
    dup = sorted({n for n in t1_names if t1_names.count(n) > 1}, key=str)
    if dup:
        raise AnnotationError(f"the T1 file declares {', '.join(map(str, dup))} twice",
                              hint="give each tuning parameter one entry", file=t1_path,
                              line=json_position(t1_path, '"TuningParameters"', dup[0], dup[0])[0])
    if sorted(map(str, t1_names)) != sorted(names):
        only_t1 = [str(n) for n in t1_names if n not in names]
        only_cache = [n for n in names if n not in t1_names]
        parts = ([f"only the T1 file has {', '.join(only_t1)}"] if only_t1 else []) + \
            ([f"only the cache has {', '.join(only_cache)}"] if only_cache else [])
        raise AnnotationError("the T1 parameters do not match the cache's: " + "; ".join(parts),
                              hint="give the T1 file of the space the cache recorded", file=t1_path)
    out = []
    # T1 names them Conditions; some writers say Constraints, with the same entries
    for cond in (cs.get("Conditions") or []) + (cs.get("Constraints") or []):
        text = cond.get("Expression") if isinstance(cond, dict) else cond
        if not isinstance(text, str):
            line, col = json_position(t1_path, '"Conditions"' if cond in (cs.get("Conditions") or []) else
                                      '"Constraints"', *([json.dumps(text)] if text is not None else []))
            raise AnnotationError("a condition has no 'Expression' string", hint="fix the T1 file",
                                  file=t1_path, line=line, col=col)
        expr = _compile_condition(text, t1_path)
        used = expr.names_in_order() if hasattr(expr, "names_in_order") else tuple(expr.names)
        unknown = [n for n in used if n not in names]
        if unknown:
            line, col = json_position(t1_path, text)
            raise AnnotationError(f"condition {text!r} uses '{unknown[0]}', which is not a "
                                  "parameter of the space", hint=f"parameters: {', '.join(names)}",
                                  file=t1_path, line=line, col=col)
        out.append(_constraint(expr, used, text, t1_path))
    params, in_values, bools = t1_value_space(cs.get("TuningParameters", []), params, t1_path)
    return in_values + out, params, bools


def _failure(rec: Mapping, params: frozenset) -> str | None:
    """The Kernel Tuner error string of a failed record.  Kernel Tuner writes it in one field
    only, its tuning objective (`time` unless told otherwise), and keeps the record's other
    numbers (compile_time, benchmark_time = 0, ...), so the record failed whatever value is
    optimised."""
    for k, v in rec.items():
        if isinstance(v, str) and v in _KT_FAILURE_STATUS and k not in params:
            return v
    t = rec.get("time")
    # old Kernel Tuner versions stored a failure as a time of 1e20 ms
    return "RuntimeFailedConfig" if _is_number(t) and t >= _KT_FAILED_TIME else None


def _value(rec: Mapping, name: str, params: frozenset = frozenset()):
    """The objective of a record, or the failure string that stands for it."""
    v = _failure(rec, params)
    if v is not None:
        return v
    # looptx's own records keep the median its search ranks by beside Kernel Tuner's mean
    v = rec.get("looptx_time") if name == "time" and _is_number(rec.get("looptx_time")) else rec.get(name)
    if v is None and name != "time":
        v = rec.get("time") if isinstance(rec.get("time"), str) else None
    return v


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def load_recorded_space(path, t1_path=None, objective: str | None = None,
                        fixed: Iterable[str] = ()) -> RecordedSpace:
    """Read a Kernel Tuner cache (`.json` or `.json.gz`), optionally with its T1 definition.
    `objective` (NAME, NAME:max or NAME:min) overrides the cache's `objective` field; `fixed`
    holds `-D` items NAME=VALUE, each narrowing the space to the points with that value.
    A recorded time of 0 is kept and shown as recorded; a negative one is refused at its line."""
    path = str(path)
    data = read_json(path)
    params = _load_params(data, path)
    if not data["cache"]:
        raise AnnotationError("the cache holds no records yet (Kernel Tuner was stopped before its "
                              "first result, or has not written one)",
                              hint="replay it once Kernel Tuner has recorded results", file=path)
    entries = [r for r in data["cache"].values() if isinstance(r, dict)]
    names = frozenset(p.name for p in params)
    if objective is not None:
        base, how = split_objective(objective, entries, [p.name for p in params], path)
        objective = f"{base}:{how}" if how else base
    else:
        objective = header_objective(data.get("objective"), entries, [p.name for p in params], path)
    obj_name, higher = objective_direction(objective)
    note_guessed_direction(path, objective)
    records, unmeasured, record_keys, unmatched = [], [], [], []
    doubts, odd_costs = [], []
    for key, rec in data["cache"].items():
        if not isinstance(rec, dict) or _value(rec, obj_name, names) is None:
            unmeasured.append(key)
            continue
        point = record_point(rec, key, params)
        if point is not None:
            records.append((point, rec))
            record_keys.append(key)
            doubt = record_doubts(rec, key, params)
            doubts += [f"'{key}' {doubt}"] if doubt else []
            odd_costs += [key for k in ("compile_time", "benchmark_time") if not _is_number(rec.get(k, 0.0))][:1]
        else:
            unmatched.append(key)
    for what, which in ((f"record{'s' if len(doubts) > 1 else ''} of the cache look{'' if len(doubts) > 1 else 's'} "
                         "damaged (the first: {})", doubts),
                        (f"record{'s' if len(odd_costs) > 1 else ''} of the cache hold{'' if len(odd_costs) > 1 else 's'} "
                         "a compile_time or benchmark_time that is no number (the first: '{}'), counted as 0 s of "
                         "simulated time", odd_costs)):
        if which:
            note_once(path, None, f"{len(which)} " + what.format(which[0]))
    if unmatched:
        n = len(unmatched)
        note_once(path, None, f"{n} record{'s' if n > 1 else ''} of the cache hold{'' if n > 1 else 's'} "
                  f"neither the fields of tune_params_keys ({', '.join(p.name for p in params)}) nor a "
                  f"key that reads as their values (the first: '{unmatched[0]}'); left out of the space")
    try:
        params = widen(params, [p for p, _ in records])
        grid = Space(params)
    except LooptxError as e:
        raise e.located(file=path)
    by_key: dict[str, dict] = {}
    first_of: dict[str, str] = {}
    for (p, r), key in zip(records, record_keys):
        pk = point_key(grid.normalize(p))
        if pk in by_key:
            # (the line of the record whose key is not its values, where one is)
            own = ",".join(str(p[q.name]) for q in params if q.name in p)
            at = first_of[pk] if key == own else key
            raise AnnotationError(f"records '{first_of[pk]}' and '{key}' of the cache are one point of "
                                  f"tune_params_keys ({', '.join(q.name for q in params)})",
                                  hint="the cache is damaged: a record's values differ from its key, "
                                       "or the keys hold a parameter that tune_params_keys does not "
                                       "list", file=path, line=record_line(path, at))
        by_key[pk], first_of[pk] = r, key
    if not any(_value(r, obj_name, names) is not None for r in entries):
        raise AnnotationError(f"no record of the cache has the objective '{obj_name}'",
                              hint="name the recorded value to optimise with --objective NAME",
                              file=path)
    refuse_negative_times(path, data["cache"], obj_name)
    note_odd_objectives(path, [(k, _value(r, obj_name, names)) for k, (_, r) in zip(record_keys, records)],
                        obj_name, _KT_FAILURE_STATUS)
    if unmeasured and records:
        note_once(path, None, f"{len(unmeasured)} record{'s' if len(unmeasured) > 1 else ''} of the cache "
                  f"give{'' if len(unmeasured) > 1 else 's'} no '{obj_name}' (the first: '{unmeasured[0]}'); "
                  "left out of the space")
    bools = frozenset()
    if t1_path is not None:
        constraints, params, bools = _load_t1(t1_path, params)
        grid = Space(params)
    else:
        known = frozenset(by_key)
        constraints = [lambda point: point_key(point) in known]
    fixed = fixed_values(list(fixed), params, path, bools)
    constraints += fixed_constraints(fixed, path)
    name = Path(path).name
    for suffix in (".gz", ".json"):
        name = name[: -len(suffix)] if name.lower().endswith(suffix) else name
    rows = None
    if not grid.enumerable:
        # the recorded points stand for the valid space (with a T1 file, those that meet its
        # conditions): listing the grid to find them is out of reach
        rows = [grid.coords(grid.normalize(p)) for p, _ in records
                if Space._all_hold(constraints, grid.normalize(p))]
        if t1_path is not None:
            note_once(str(t1_path), 1, f"the grid has {grid.grid_size} combinations, too many "
                      "to list; the valid space is the cache's points that meet these conditions")
    space = Space(params, constraints, name=name, rows=rows)
    if fixed and space.size() == 0:
        raise AnnotationError("no point of the space has " + ", ".join(f"{k}={v}" for k, v in fixed.items()),
                              hint="-D narrows the replayed space to one value; drop one", file=path)
    if t1_path is not None and space.size() == 0:
        raised = [c.failure for c in constraints if getattr(c, "failure", None)]
        raise AnnotationError("the T1 conditions exclude every point of the space"
                              + (f": {raised[0]}" if raised else ""),
                              hint="check the conditions against the cache's parameters",
                              file=str(t1_path))

    numbers = [v for v in (_value(r, obj_name, names) for r in by_key.values()) if _is_number(v)
               and not (obj_name == "time" and v >= _KT_FAILED_TIME)]
    key, shown, ratio = objective_keys(numbers or [1.0], obj_name, higher)

    compile_times = [float(r.get("compile_time", 0.0)) for r in by_key.values()
                     if isinstance(r.get("compile_time"), (int, float))]
    missing_cost = statistics.median(compile_times) / 1000.0 if compile_times else 0.0

    def objective_of(point: Point) -> Result:
        rec = by_key.get(point_key(space.normalize(point)))
        if rec is None or not space.is_valid(point):
            return Result("invalid")
        v = _value(rec, obj_name, names)
        # old Kernel Tuner versions stored a failure as a time of 1e20 ms
        if _is_number(v) and not (obj_name == "time" and v >= _KT_FAILED_TIME):
            status = rec.get("looptx_status", "ok")
            return Result("ok", key(v)) if status == "ok" else Result(status)
        status = rec.get("looptx_status") or _KT_FAILURE_STATUS.get(str(v), "runtime_error")
        return Result(status if status != "ok" else "runtime_error")

    def cost(point: Point) -> float:
        rec = by_key.get(point_key(space.normalize(point)))
        if rec is None:
            return missing_cost if space.is_valid(point) else 0.0
        total = 0.0
        for k in ("compile_time", "benchmark_time"):
            v = rec.get(k, 0.0)
            if isinstance(v, (int, float)) and math.isfinite(v):
                total += v
        return total / 1000.0

    times, unmeasured = [], 0
    for point in space.valid_points():
        r = objective_of(point)
        times.append(r.value if r.ok else math.inf)
        # a valid point no record holds (a recorded InvalidConfig is a recorded failure)
        unmeasured += by_key.get(point_key(space.normalize(point))) is None
    finite = [t for t in times if math.isfinite(t)]
    if not finite:
        raise no_success_error(path, data["cache"], records, obj_name, params, fixed, t1_path,
                               _KT_FAILURE_STATUS, never_measured=unmeasured == len(times))
    return RecordedSpace(space=space, objective=objective_of, cost=cost, optimum=min(finite),
                         name=name, n_valid=len(times), times=tuple(times), objective_name=obj_name,
                         higher_is_better=higher, shown=shown, ratio=ratio, unmeasured=unmeasured)


# -- simulation -------------------------------------------------------------------------
def replay(recorded: RecordedSpace, searcher_name: str, *, seed: int, max_evals: int,
           batch_size: int = 1, options: Mapping = {}) -> ReplayTrace:
    """Run a searcher against a recorded space on a simulated clock; prints nothing.

    A batch is asked, then evaluated one point after the other (one device); `time_limit` in
    `options` is in simulated seconds.
    """
    options = dict(options)
    time_limit = options.pop("time_limit", None)
    now = [0.0]
    cls = get_searcher(searcher_name)
    getattr(cls, "warm_up", lambda: None)()
    searcher = cls(recorded.space, seed=seed, max_evals=max_evals, batch_size=batch_size,
                   time_limit=time_limit, clock=lambda: now[0], **options)
    entries = []
    own = 0.0
    offered = Offered(recorded.space)
    while not searcher.finished and len(offered.handed) < max_evals:
        t0 = time.perf_counter()
        points = searcher.ask()
        dt = time.perf_counter() - t0
        own += dt
        now[0] += dt
        if not points:
            break
        points = offered.fresh(searcher, points, max_evals)
        if points is None:
            break
        for point in points:
            result = recorded.objective(point)
            now[0] += recorded.cost(point)
            t0 = time.perf_counter()
            searcher.tell(point, result)
            dt = time.perf_counter() - t0
            own += dt
            now[0] += dt
            entries.append((point, result, now[0]))
    return ReplayTrace(name=recorded.name, searcher=cls.name, seed=seed, entries=tuple(entries),
                       optimum=recorded.optimum, searcher_time=own)


# -- writing ----------------------------------------------------------------------------
def _ms(value) -> float:
    return float(value) * 1000.0 if isinstance(value, (int, float)) else 0.0


def _json_value(v):
    return [_json_value(x) for x in v] if isinstance(v, (tuple, list)) else v


def write_cache(path, space: Space, records: Iterable[tuple[Point, Result, dict]], *,
                device_name: str, kernel_name: str, problem_size) -> None:
    """Write measured points as a Kernel Tuner cache (gzip'd when the path ends in .gz)."""
    data = cache_document(space, records, device_name=device_name, kernel_name=kernel_name,
                          problem_size=problem_size)
    path = str(path)
    tmp = path + ".tmp"
    text = json.dumps(data)
    if path.endswith(".gz"):
        # the gzip header names the file it unpacks to: the final name, not the temporary one
        with open(tmp, "wb") as raw, gzip.GzipFile(os.path.basename(path)[:-3], "wb", fileobj=raw) as f:
            f.write(text.encode("utf-8"))
    else:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
    os.replace(tmp, path)


def cache_document(space: Space, records: Iterable[tuple[Point, Result, dict]], *,
                   device_name: str, kernel_name: str, problem_size) -> dict:
    """The Kernel Tuner cache of measured points, as the JSON object `write_cache` writes.

    Each record's dict gives `compile_time`, `benchmark_time` (seconds) and `times` (the
    repetitions, seconds); they are stored in milliseconds, as Kernel Tuner does, and `time`
    is their mean (`looptx_time` their median, which looptx ranks by and replays).  Failures
    store Kernel Tuner's error strings and keep the exact looptx status in `looptx_status`.
    """
    cache = {}
    for point, result, extra in records:
        point = space.normalize(point)
        values = [point[n] for n in space.names]
        key = ",".join(str(v) for v in values)
        rec = {n: _json_value(point[n]) for n in space.names}
        extra = extra or {}
        if result.ok:
            rec["times"] = [_ms(t) for t in extra.get("times") or [result.value]]
            # Kernel Tuner's `time` is the mean of the repetitions (looptx optimises their
            # median); a tool that reads the cache takes it as Kernel Tuner wrote it
            rec["time"] = statistics.fmean(rec["times"]) if all(map(math.isfinite, rec["times"])) \
                else result.value * 1000.0
            rec["looptx_time"] = result.value * 1000.0     # what a replay by looptx optimises
        else:
            rec["time"] = _STATUS_KT.get(result.status, "RuntimeFailedConfig")
        rec["compile_time"] = _ms(extra.get("compile_time", 0.0))
        rec["verification_time"] = _ms(extra.get("verification_time", 0.0))
        rec["benchmark_time"] = _ms(extra.get("benchmark_time", 0.0))
        rec["strategy_time"] = 0
        rec["framework_time"] = 0
        rec["timestamp"] = extra.get("timestamp", time.strftime("%Y-%m-%d %H:%M:%S+00:00", time.gmtime()))
        rec["looptx_status"] = result.status
        cache[key] = rec
    # Kernel Tuner's cache schema: a version, and a problem size that is a list, a number or
    # a string (a size by name is kept beside it, for looptx)
    named = isinstance(problem_size, dict)
    data = {
        "schema_version": "1.0.0",
        "device_name": device_name,
        "kernel_name": kernel_name,
        "problem_size": [_json_value(v) for v in problem_size.values()] if named else _json_value(problem_size),
        **({"looptx_problem_size": {k: _json_value(v) for k, v in problem_size.items()}} if named else {}),
        "tune_params_keys": list(space.names),
        "tune_params": {p.name: [_json_value(v) for v in p.values] for p in space.params},
        "looptx_params": [{"name": p.name, "kind": p.kind, "slots": list(p.slots)}
                          for p in space.params],
        "objective": "time",
        "cache": cache,
    }
    return data
