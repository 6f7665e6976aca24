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

# cli.py puts the cache's name before an error that names no file; an error of the command
# line itself is not the cache's, and names the command, as argparse's usage errors do
COMMAND_LINE = "looptx search"


def is_gzip(path: str) -> bool:
    """Whether `path` holds gzip data: its magic bytes say so, whatever its name (`.JSON.GZ`, or
    a compressed cache saved as `.json`)."""
    try:
        with open(path, "rb") as f:
            return f.read(2) == b"\x1f\x8b"
    except OSError:
        return False


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
                                      file=path, line=record_line(path, key))


def record_line(path: str, key: str) -> int | None:
    """The line of the cache where the record `key` starts (Kernel Tuner writes one a line)."""
    return json_position(path, json.dumps(key) + ":")[0]


def json_position(path: str, *needles) -> tuple[int | None, int | None]:
    """Line and column in the JSON file `path` of the last of `needles`, each found after the
    one before it (a JSON string is given as a str, written as JSON writes it): json does not
    keep positions, and the file was written by hand or by Kernel Tuner, one entry a line."""
    try:
        opener = gzip.open if is_gzip(path) else open
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
                   t1_path: str) -> tuple[list[Param], list[Constraint], frozenset]:
    """The T1 space is the product of its Values: a cached value the T1 file does not list is
    outside it (a constraint), and a listed value the cache never measured joins the grid, so
    its points are failures that cost an evaluation like any unmeasured valid point.  Also
    returns the params the T1 file declares bool (a -D of one takes True/False for 0/1)."""
    by_name = {e.get("Name"): e for e in entries if isinstance(e, Mapping)}
    out, constraints, unmeasured, excluded, as_text = [], [], [], [], []
    bools = set()
    for p in params:
        entry = by_name.get(p.name, {})
        values = _t1_values(entry, t1_path)
        if values is None:
            out.append(p)
            continue
        if entry.get("Type") == "bool" or all(isinstance(v, bool) for v in values):
            bools.add(p.name)
        have = {_canon(v) for v in p.values}
        # Kernel Tuner keys its cache by ",".join(str(v)), so a T1 file's '16' finds the record
        # of a measured 16: a value the typed match misses is matched by its key text
        by_text = {}
        for v in p.values:
            by_text.setdefault(str(v), v)
        matched = [v if _canon(v) in have else by_text.get(str(v), v) for v in values]
        as_text += [f"{v!r}" for v, m in zip(values, matched) if _canon(v) not in have and _canon(m) in have]
        values = matched
        allowed = frozenset(_canon(v) for v in values)
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
    if as_text:
        note_once(t1_path, None, f"the T1 file lists values of another type than the cache records "
                  f"({_listing(as_text, 6)}); each is matched to the recorded value of the same text, "
                  "as Kernel Tuner's cache keys are")
    if excluded:
        note_once(t1_path, None, f"the cache's tune_params list values the T1 file does not list "
                  f"({_listing(excluded, 6)}); their points are not part of the space")
    if unmeasured:
        note_once(t1_path, None, f"the T1 file lists values the cache never measured "
                  f"({_listing(unmeasured, 6)}); their points count as failed evaluations")
    return out, constraints, frozenset(bools)


def fixed_values(defines: Sequence[str], params: Sequence[Param], path: str,
                 bools: frozenset = frozenset()) -> dict:
    """`-D NAME=VALUE` items as {name: the param's own value}: each must name a parameter of
    the cache and one of its recorded values, as a -D of a performance param does in a real
    search.  `bools`: params a T1 file declares bool, whose 0 and 1 also read True and False."""
    names = [p.name for p in params]
    out = {}
    for item in defines:
        name, eq, text = item.partition("=")
        p = next((q for q in params if q.name == name), None)
        if not eq:
            example = f"{name}={p.values[0]}" if p is not None else f"{names[0]}=VALUE"
            raise AnnotationError(f"-D {item}: expected NAME=VALUE", hint=f"e.g. -D {example}",
                                  file=COMMAND_LINE)
        if p is None:
            raise AnnotationError(f"-D {item}: '{name}' is not a parameter of the cache",
                                  hint=_closest(name, names) + f"parameters: {_listing(names)}",
                                  file=path)
        match = [v for v in p.values if _spelled(v, text, name in bools)]
        if not match:
            raise AnnotationError(f"-D {item}: the cache has no value {text or '(empty)'} for {name}",
                                  hint=f"values: {_listing(p.values)}", file=path)
        out[name] = match[0]
    return out


def _spelled(value, text: str, as_bool: bool = False) -> bool:
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
    if isinstance(value, bool) or (as_bool and value in (0, 1) and _is_number(value)):
        return text in (("True", "true", "1") if value else ("False", "false", "0"))
    try:
        return _is_number(value) and float(text) == value
    except ValueError:
        return False


def fixed_constraints(fixed: Mapping, path: str) -> list[Constraint]:
    return [_Fixed(n, v, path) for n, v in fixed.items()]


# A name's direction from its words, as a reader would take it: a name that ends in what it
# costs (GFLOP/s_error, mean_score_loss) is minimised; a rate of work (GFLOP/s, ops_per_joule,
# per_watt) is maximised, a rate of cost (ms/iter, energy_per_op) minimised; throughput-like
# words (fps, score, bandwidth) are maximised; the rest (time, energy) minimised.  Whole words
# only: `underscore` holds no score.
_COST_LAST = {"error", "err", "errors", "loss", "time", "times", "energy", "latency", "cost", "duration",
              "runtime", "regret", "power", "delay"}
_COST_RATE = _COST_LAST | {"ms", "us", "ns", "s", "sec", "secs", "second", "seconds", "j", "joule", "joules",
                           "cycle", "cycles", "w", "watt", "watts"}
_HIGHER_WORDS = {"fps", "throughput", "bandwidth", "score", "flop", "flops", "gflop", "gflops", "tflop",
                 "tflops", "mflops", "pflops", "ops", "iops", "gops", "tops", "speedup", "speed",
                 "efficiency", "accuracy", "occupancy", "utilization", "utilisation"}


def _words(name: str) -> list[str]:
    # a camelCase name splits where a capital follows a small letter (gflopsPerWatt), so
    # GFLOPs stays one word
    chunks = re.findall(r"/|[A-Za-z]+|\d+", name)
    return [w.lower() for c in chunks for w in re.split(r"(?<=[a-z])(?=[A-Z])", c)]


def _named_higher(name: str) -> bool:
    words = _words(name)
    if not words or words[-1] in _COST_LAST:
        return False
    cut = next((i for i, w in enumerate(words) if w in ("/", "per")), None)
    if cut is not None and cut + 1 < len(words):
        top = [w for w in words[:cut] if w != "/"]
        return not (top and top[-1] in _COST_RATE)
    return any(w in _HIGHER_WORDS for w in words)


def objective_direction(name: str, given: str | None = None) -> tuple[str, bool]:
    """(objective, higher is better) from `NAME`, `NAME:max` or `NAME:min`.  A cache does not
    record the direction (Kernel Tuner takes it as an argument); without a suffix it is
    guessed from the name's words (_named_higher)."""
    text = given if given is not None else name
    base, _, how = text.rpartition(":") if text.endswith((":max", ":min")) else (text, "", "")
    return base, (how == "max") if how else _named_higher(base)


def note_guessed_direction(path: str, objective: str) -> None:
    """Say that the direction of `objective` was guessed from its name, and how to give it:
    a wrong guess reports the worst configuration as the optimum.  `time` is Kernel Tuner's own
    default objective, which it minimises unless told otherwise: no guess."""
    base, higher = objective_direction(objective)
    if objective.endswith((":max", ":min")) or base == "time":
        return
    way, other = ("maximised", "min") if higher else ("minimised", "max")
    note_once(path, None, f"the objective '{base}' is {way}, as guessed from its name (a cache does "
              f"not record the direction); write --objective {base}:{other} if that is wrong")


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


def note_odd_objectives(path: str, keyed: Sequence[tuple[str, object]], obj_name: str,
                        failure_names) -> None:
    """A value of the objective that is neither a number nor one of Kernel Tuner's error
    strings ("0.5", "Timeout", NaN, true, a list) is counted as a failure: Kernel Tuner's reader
    (util.read_cache) keeps it as it is and turns only its error strings into failures, so
    such a record was never a usable measurement.  Said, naming the first (`keyed`: (key,
    value) of each record), since a quoted number would otherwise vanish without a word."""
    odd = [(k, v) for k, v in keyed if not _is_number(v) and not (isinstance(v, str) and v in failure_names)]
    if not odd:
        return
    key, value = odd[0]
    text = json.dumps(value, default=str)[:40]
    quoted = isinstance(value, str) and _is_number(_float_or_none(value))
    n = len(odd)
    note_once(path, record_line(path, key), f"{n} record{'s' if n > 1 else ''} of the cache hold{'' if n > 1 else 's'} "
              f"a '{obj_name}' that is neither a number nor one of Kernel Tuner's error strings (the first: "
              f"'{key}' holds {text}); such a record counts as a failed evaluation"
              + (f" (write it as a number, {value.strip()}, without quotes, to use it)" if quoted else ""))


def _float_or_none(text: str):
    try:
        return float(text)
    except ValueError:
        return None


def no_success_error(path: str, cache: Mapping, records: list, obj_name: str, params: Sequence[Param],
                     fixed: Mapping, t1_path, failure_names, never_measured: bool = False) -> AnnotationError:
    """Why the replayed space has no successful point, where the cause is not the recording:
    a value of the objective that is not a number, a parameter no record gives, a -D or the T1
    conditions that leave only failed points, or only points no record holds
    (`never_measured`: nothing failed, nothing was looked up)."""
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
        # a value that only the T1 file or tune_params lists has no record: nothing with it failed
        unseen = [f"{k}={v}" for k, v in fixed.items()
                  if not any(_canon(point.get(k)) == _canon(v) for point, _ in records)]
        if unseen or never_measured:
            why = (f"{', '.join(unseen)} {'was' if len(unseen) == 1 else 'were'} never measured (the cache "
                   "holds no record with it)" if unseen else
                   "the points left were never measured (the cache holds no record of them)")
            return AnnotationError(f"with {given} nothing is left to replay: {why}", file=path,
                                   hint="give a value the cache measured, or drop the -D")
        return AnnotationError(f"with {given} only failed points are left", file=path,
                               hint="give another value, or drop the -D")
    if t1_path is not None and never_measured:
        return AnnotationError("no point that meets the T1 conditions was ever measured: the cache "
                               "holds no record of any of them", file=str(t1_path),
                               hint="give the T1 file of the space the cache recorded, its Values "
                                    "as the cache writes them")
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
    cache, seen = {}, {}
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
        key = ",".join(str(conf[n]) for n in names)
        cache[key] = rec
        seen[key] = seen.get(key, 0) + 1
    repeated = [(k, n) for k, n in seen.items() if n > 1]
    if repeated:
        # as a cache whose key is repeated (cache_read.read_json): the last one counts, and
        # the first was a measurement too
        more = f" (and {len(repeated) - 1} more repeated configurations)" if len(repeated) > 1 else ""
        note_once(path, None, f"the configuration '{repeated[0][0]}' appears {repeated[0][1]} times in the T4 "
                  f"results{more}; the last result of each is used, as Kernel Tuner reads a cache's "
                  "repeated key")
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
