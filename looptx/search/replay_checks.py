"""Checks and restrictions of a recorded space that come from the command line or a T1 file:
the objective to optimise and its direction, the T1 `Values`, `-D` fixes, and recorded times
that cannot be times.
They live apart from replay.py's reader so each can say precisely what is wrong."""
from __future__ import annotations

import difflib
import gzip
import json
import math
import re
from collections.abc import Mapping, Sequence

from looptx.errors import AnnotationError, note_once
from looptx.search.constraints import Constraint
from looptx.search.space import Param, infer_kind


def _closest(word: str, names: Sequence[str]) -> str:
    near = difflib.get_close_matches(word, list(names), n=1, cutoff=0.6)
    if not near:
        near = [n for n in names if n.lower() == word.lower()]
    return f"did you mean '{near[0]}'? " if near else ""


def _listing(values, limit: int = 12) -> str:
    values = list(values)
    text = ", ".join(map(str, values[:limit]))
    return text + (f", ... ({len(values)} in all)" if len(values) > limit else "")


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def recorded_objectives(records: Sequence[Mapping], params: Sequence[str]) -> list[str]:
    """Fields that some record holds a number in: what --objective may name."""
    seen: dict[str, None] = {}
    for rec in records:
        for k, v in rec.items():
            if k not in params and _is_number(v):
                seen.setdefault(k)
    return list(seen)


def split_objective(text: str, records: Sequence[Mapping], params: Sequence[str],
                    path: str) -> tuple[str, str]:
    """(NAME, '', 'max' or 'min') of an --objective, refused with what is wrong with it: empty,
    a direction other than max/min, or a name no record holds a value for."""
    names = recorded_objectives(records, params)
    valid = f"recorded: {_listing(names) or 'none'}; write NAME, NAME:max or NAME:min"
    if not text.strip():
        raise AnnotationError("--objective is empty: name the recorded value to optimise",
                              hint=valid, file=path)
    base, how = text, ""
    if ":" in text and text not in names:
        base, _, how = text.rpartition(":")
        if how not in ("max", "min"):
            raise AnnotationError(f"--objective '{text}': the direction after ':' must be max or "
                                  f"min, not '{how}'", hint=valid, file=path)
    if not any(base in rec for rec in records):
        raise AnnotationError(f"no record of the cache has the objective '{base}'",
                              hint=_closest(base, names) + valid, file=path)
    if base in params:
        raise AnnotationError(f"--objective '{base}' is a tuning parameter of the cache, not a "
                              "measured value", hint=valid, file=path)
    return base, how


def header_objective(given, records: Sequence[Mapping], params: Sequence[str], path: str) -> str:
    """The cache's own `objective` field, checked as --objective is: a name that no record
    holds would otherwise leave only the failed records (whose error string stands for any
    value) and read as a space where nothing worked."""
    if given is None or given == "":
        return "time"
    names = recorded_objectives(records, params)
    hint = f"recorded: {_listing(names) or 'none'}; name the value to optimise with --objective NAME"
    if not isinstance(given, str):
        raise AnnotationError(f"the cache's 'objective' field is a JSON {_JSON_KIND.get(type(given), 'value')} "
                              f"({json.dumps(given)[:40]}), not the name of a recorded value",
                              hint=hint, file=path)
    base = objective_direction(given)[0]
    if not any(base in rec for rec in records):
        raise AnnotationError(f"no record of the cache has the objective '{base}' that its 'objective' "
                              "field names", hint=_closest(base, names) + hint, file=path)
    return given


def refuse_negative_times(path: str, cache: Mapping[str, object], name: str) -> None:
    """A time below zero is no measurement, and every rank and ratio built on it would be
    wrong, so it is refused at its record; a time of 0 (a kernel below the timer's resolution)
    is kept and shown as recorded."""
    # the costs, whatever the objective: a negative one runs the simulated clock backwards,
    # and --time-limit would never stop the replay
    fields = (("time",) if name == "time" else ()) + ("compile_time", "benchmark_time")
    for key, rec in cache.items():
        for field in fields:
            v = rec.get(field) if isinstance(rec, Mapping) else None
            if _is_number(v) and v < 0:
                what = "time" if field == "time" else field.replace("_", " ")
                raise AnnotationError(f"the record '{key}' has a negative {what} ({v} ms)",
                                      hint=f"a {what} cannot be below 0; remove or re-measure that "
                                      "record" + (", or optimise another value with --objective"
                                                  if field == "time" else ""),
                                      file=path, line=_line_of(path, key))


def _line_of(path: str, key: str) -> int | None:
    """The line of the cache where the record `key` starts (Kernel Tuner writes one a line)."""
    return json_position(path, json.dumps(key) + ":")[0]


def json_position(path: str, *needles) -> tuple[int | None, int | None]:
    """Line and column in the JSON file `path` of the last of `needles`, each found after the
    one before it (a JSON string is given as a str, written as JSON writes it): json does not
    keep positions, and the file was written by hand or by Kernel Tuner, one entry a line."""
    try:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8-sig") as f:
            text = f.read()
    except (OSError, EOFError, UnicodeDecodeError):
        return None, None
    at = -1
    for needle in needles:
        quoted = isinstance(needle, str) and needle.startswith('"')
        found = text.find(needle if quoted else json.dumps(needle), at + 1)
        if found < 0:
            break
        at = found
    if at < 0:
        return None, None
    return text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)


class _InValues(Constraint):
    def __init__(self, name: str, allowed: frozenset, file: str):
        super().__init__((name,), f"the T1 Values of {name}", file)
        self.name, self.allowed = name, allowed

    def holds(self, point: Mapping) -> bool:
        return _canon(point[self.name]) in self.allowed


class _Fixed(Constraint):
    def __init__(self, name: str, value, file: str):
        super().__init__((name,), f"-D {name}={value}", file)
        self.name, self.value = name, _canon(value)

    def holds(self, point: Mapping) -> bool:
        return _canon(point[self.name]) == self.value


def _canon(v) -> str:
    # a T1 file's `[False, True]` names the 0 and 1 a cache records (Kernel Tuner writes either)
    if isinstance(v, bool):
        v = int(v)
    return json.dumps(list(v) if isinstance(v, tuple) else v, sort_keys=True, default=str)


def _t1_values(entry: Mapping, t1_path: str):
    """The Values of one T1 tuning parameter, or None where it lists none."""
    values = entry.get("Values")
    if isinstance(values, str):
        # a Python expression that Kernel Tuner evaluates: `list(range(1, 9))`,
        # `[128 + 64*i for i in range(15)]`, `[1] + [2*i for i in range(1, 11)]`; read by the
        # annotations' safe evaluator, never eval
        from looptx.frontend.expr import evaluate
        try:
            values = evaluate(values.strip() or "[]")
        except AnnotationError as e:
            raise AnnotationError(f"cannot read the Values of {entry.get('Name')}: {values!r} ({e.what})",
                                  hint="write a list such as \"[16, 32, 64]\" or an expression of "
                                       "literals, range and comprehensions", file=t1_path,
                                  **_values_at(t1_path, entry)) from None
    if values is None or (isinstance(values, (list, tuple)) and not values):
        return None
    if not isinstance(values, (list, tuple)):
        raise AnnotationError(f"the Values of {entry.get('Name')} are not a list", file=t1_path,
                              hint="write a list such as \"[16, 32, 64]\"", **_values_at(t1_path, entry))
    return [tuple(v) if isinstance(v, list) else v for v in values]


def _values_at(t1_path: str, entry: Mapping) -> dict:
    name = entry.get("Name")
    line, col = json_position(t1_path, '"TuningParameters"', *([name] if isinstance(name, str) else []), '"Values"')
    return {"line": line, "col": col}


def t1_value_space(entries: Sequence[Mapping], params: list[Param],
                   t1_path: str) -> tuple[list[Param], list[Constraint]]:
    """The T1 space is the product of its Values: a cached value the T1 file does not list is
    outside it (a constraint), and a listed value the cache never measured joins the grid, so
    its points are failures that cost an evaluation like any unmeasured valid point."""
    by_name = {e.get("Name"): e for e in entries if isinstance(e, Mapping)}
    out, constraints, unmeasured, excluded = [], [], [], []
    for p in params:
        values = _t1_values(by_name.get(p.name, {}), t1_path)
        if values is None:
            out.append(p)
            continue
        allowed = frozenset(_canon(v) for v in values)
        have = {_canon(v) for v in p.values}
        extra = [v for v in values if _canon(v) not in have]
        dropped = [v for v in p.values if _canon(v) not in allowed]
        unmeasured += [f"{p.name}={v}" for v in extra]
        excluded += [f"{p.name}={v}" for v in dropped]
        if extra:
            merged = list(p.values) + extra
            kind = p.kind if p.kind == "permutation" else infer_kind(merged)
            try:
                p = Param(p.name, tuple(merged), kind, p.slots)
            except AnnotationError as e:
                raise AnnotationError(f"the T1 Values of {p.name} ({_listing(extra, 6)}) and the values the "
                                      f"cache recorded ({_listing(list(p.values), 6)}) name one value twice "
                                      f"({e.what})", hint="list the cache's values in the T1 file",
                                      file=t1_path, **_values_at(t1_path, {"Name": p.name})) from None
        if dropped:
            constraints.append(_InValues(p.name, allowed, t1_path))
        out.append(p)
    if excluded:
        note_once(t1_path, None, f"the cache's tune_params list values the T1 file does not list "
                  f"({_listing(excluded, 6)}); their points are not part of the space")
    if unmeasured:
        note_once(t1_path, None, f"the T1 file lists values the cache never measured "
                  f"({_listing(unmeasured, 6)}); their points count as failed evaluations")
    return out, constraints


def fixed_values(defines: Sequence[str], params: Sequence[Param], path: str) -> dict:
    """`-D NAME=VALUE` items as {name: the param's own value}: each must name a parameter of
    the cache and one of its recorded values, as a -D of a performance param does in a real
    search."""
    names = [p.name for p in params]
    out = {}
    for item in defines:
        name, _, text = item.partition("=")
        p = next((q for q in params if q.name == name), None)
        if p is None:
            raise AnnotationError(f"-D {item}: '{name}' is not a parameter of the cache",
                                  hint=_closest(name, names) + f"parameters: {_listing(names)}",
                                  file=path)
        match = [v for v in p.values if _spelled(v, text)]
        if not match:
            raise AnnotationError(f"-D {item}: the cache has no value {text} for {name}",
                                  hint=f"values: {_listing(p.values)}", file=path)
        out[name] = match[0]
    return out


def _spelled(value, text: str) -> bool:
    if str(value) == text or _canon(value) == text:
        return True
    if isinstance(value, str) and len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        # a string as the spec language writes it: -D "layout='col'"
        return value == text[1:-1]
    if isinstance(value, (tuple, list)):
        # a sequence as a spec writes it (['i', 'j']), as a tuple, or bare (i,j), as a -D of a
        # performance param takes it in a real search
        bare = text.strip().strip("[]()").replace("'", "").replace('"', "")
        return [x.strip() for x in bare.split(",") if x.strip()] == [str(x) for x in value]
    if isinstance(value, bool):
        return text in (("True", "true", "1") if value else ("False", "false", "0"))
    try:
        return _is_number(value) and float(text) == value
    except ValueError:
        return False


def fixed_constraints(fixed: Mapping, path: str) -> list[Constraint]:
    return [_Fixed(n, v, path) for n, v in fixed.items()]


_HIGHER = re.compile(r"flop|ops\b|/s\b|per_?s(ec)?\b|/w\b|score|throughput|bandwidth|"
                     r"efficien|speed_?up", re.I)


def objective_direction(name: str, given: str | None = None) -> tuple[str, bool]:
    """(objective, higher is better) from `NAME`, `NAME:max` or `NAME:min`.  A cache does not
    record the direction (Kernel Tuner takes it as an argument); without a suffix, throughput-
    like names (GFLOP/s, GFLOPS/W, score) are maximised and the rest (time, energy) minimised."""
    text = given if given is not None else name
    base, _, how = text.rpartition(":") if text.endswith((":max", ":min")) else (text, "", "")
    return base, (how == "max") if how else bool(_HIGHER.search(base))


def objective_keys(values: list[float], name: str, higher: bool):
    """(key, shown, ratio): the minimised key of a recorded value, its inverse, and whether
    optimum/best of keys is a performance ratio."""
    scale = 1000.0 if name == "time" else 1.0          # Kernel Tuner records ms; looptx uses s
    low, high = min(values), max(values)
    if low == 0 and name == "time" and not higher:
        # a time of 0 stays 0, shown as recorded; optimum/best means nothing with it
        return (lambda v: v / scale), (lambda k: k * scale), False
    if low > 0:
        if higher:
            return (lambda v: 1.0 / v), (lambda k: 1.0 / k), True
        return (lambda v: v / scale), (lambda k: k * scale), name == "time"
    # zero or negative values (a score): a shift keeps the order and makes keys positive
    pad = max((high - low) * 1e-3, 1e-12)
    if higher:
        return (lambda v: high - v + pad), (lambda k: high + pad - k), False
    return (lambda v: (v - low + pad) / scale), (lambda k: k * scale + low - pad), False


def no_success_error(path: str, cache: Mapping, records: list, obj_name: str, params: Sequence[Param],
                     fixed: Mapping, t1_path, failure_names) -> AnnotationError:
    """Why the replayed space has no successful point, where the cause is not the recording:
    a value of the objective that is not a number, a parameter no record gives, a -D or the T1
    conditions that leave only failed points."""
    entries = [r for r in cache.values() if isinstance(r, Mapping)]
    if entries and not records:
        missing = [p.name for p in params if not any(p.name in r for r in entries)]
        if missing:
            return AnnotationError(f"'{missing[0]}' of tune_params_keys is in no record of the cache",
                                   hint="drop it from tune_params_keys and tune_params, or give the "
                                        "cache that recorded it", file=path)
    values = [r.get(obj_name) for r in entries if obj_name in r]
    odd = next((v for v in values if not _is_number(v) and str(v) not in failure_names), None)
    if odd is not None and not any(_is_number(v) for v in values):
        return AnnotationError(f"the objective '{obj_name}' is not a number in the records (e.g. {odd!r})",
                               hint="name a numeric field with --objective NAME", file=path)
    if fixed:
        given = ", ".join(f"-D {k}={v}" for k, v in fixed.items())
        return AnnotationError(f"with {given} only failed points are left", file=path,
                               hint="give another value, or drop the -D")
    if t1_path is not None:
        return AnnotationError("the points that meet the T1 conditions all failed", file=str(t1_path),
                               hint="check the conditions against the cache's parameters")
    return AnnotationError("the recorded space has no successful configuration",
                           hint="record a space with at least one working point", file=path)


_T4_FAILURE = {"compile": "CompilationFailedConfig", "runtime": "RuntimeFailedConfig",
               "constraints": "InvalidConfig"}


def t4_as_cache(data: Mapping, path: str) -> dict:
    """A Kernel Tuner T4 results file (`results[]` of configuration, measurements, invalidity
    and times, as benchmark_hub's `*_T4.json` and Kernel Tuner's converter write) as the cache
    it came from: the configurations' values make tune_params, each measurement its own field
    (milliseconds, as in a cache), a result that is not "correct" Kernel Tuner's failure string."""
    results = [r for r in data["results"] if isinstance(r, Mapping) and isinstance(r.get("configuration"), Mapping)]
    if not results:
        raise AnnotationError("the T4 file holds no result with a configuration",
                              hint="give a T4 results file with results, or a Kernel Tuner cache", file=path)
    names = list(results[0]["configuration"])
    values: dict[str, list] = {n: [] for n in names}
    cache = {}
    for r in results:
        conf = r["configuration"]
        if list(conf) != names:
            raise AnnotationError(f"the T4 results name different parameters ({', '.join(conf)} after "
                                  f"{', '.join(names)})", hint="give the results of one tuning run", file=path)
        rec = dict(conf)
        for n in names:
            if conf[n] not in values[n]:
                values[n].append(conf[n])
        for m in r.get("measurements") or ():
            if isinstance(m, Mapping) and isinstance(m.get("name"), str):
                rec[m["name"]] = m.get("value")
        if r.get("invalidity", "correct") != "correct":
            rec["time"] = _T4_FAILURE.get(r.get("invalidity"), "RuntimeFailedConfig")
        times = r.get("times") if isinstance(r.get("times"), Mapping) else {}
        # Kernel Tuner's T4 writer (file_utils.store_output_file) names them compilation and
        # benchmark; compilation_time is an older spelling, and the runtimes add up to the
        # benchmark where it is not written
        compile_time = next((t for t in (times.get("compilation"), times.get("compilation_time"))
                             if _is_number(t)), 0.0)
        runs = [t for t in times.get("runtimes") or () if _is_number(t)]
        rec["compile_time"] = compile_time
        rec["benchmark_time"] = times["benchmark"] if _is_number(times.get("benchmark")) else sum(runs)
        cache[",".join(str(conf[n]) for n in names)] = rec
    for n in names:
        if all(_is_number(v) for v in values[n]):
            values[n].sort()
    objectives = results[0].get("objectives") or ["time"]
    return {"tune_params_keys": names, "tune_params": values, "cache": cache,
            "objective": objectives[0] if isinstance(objectives[0], str) else "time"}


_JSON_KIND = {list: "array", dict: "object", str: "string", int: "number", float: "number",
              bool: "boolean", type(None): "null"}


def check_cache_fields(data: dict, path: str) -> None:
    """The three fields of a Kernel Tuner cache, of their JSON types, naming each parameter."""
    for name, want in (("tune_params_keys", list), ("tune_params", dict), ("cache", dict)):
        if not isinstance(data.get(name), want):
            got = "missing" if name not in data else \
                f"a JSON {_JSON_KIND.get(type(data[name]), 'value')}, not a JSON {_JSON_KIND[want]}"
            hint = "give a cache written by Kernel Tuner or looptx"
            if "ConfigurationSpace" in data:
                hint = "this is a T1 problem definition: give it with --t1, next to the cache as --replay"
            raise AnnotationError(f"not a Kernel Tuner cache: '{name}' is {got}", hint=hint, file=path)
    keys, tp = data["tune_params_keys"], data["tune_params"]
    extra = [k for k in tp if k not in keys]
    if extra:
        # Kernel Tuner writes both from one dict: the records' keys would hold a value more
        # than tune_params_keys names, and points that differ only there would merge
        raise AnnotationError(f"'{extra[0]}' is in 'tune_params' but not in 'tune_params_keys'",
                              hint="the cache is damaged: list every tuned parameter in "
                                   "tune_params_keys, in the order of the records' keys", file=path,
                              line=json_position(path, '"tune_params"', extra[0])[0])
