"""`looptx search --replay CACHE`: which options a replay takes, and its summary."""
from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping

from looptx.errors import LooptxError, note_once
from looptx.search.options import flush_warnings, locate_option, with_command_line
from looptx.search.replay_checks import COMMAND_LINE

def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def check_replay_args(args) -> None:
    """A replay reads its space from the cache and measures nothing: what names another
    space (FILE and what selects within it) or places measurements is refused, so it does not
    look as if it had been used; `--backend cuda` only names where the cache was recorded, so
    it is noted and ignored.  These are errors of the command line, not of the cache."""
    if args.db or args.resume:
        raise LooptxError("--db and --resume do not apply to --replay: a replay measures nothing "
                          "and records nothing", hint="drop them; run it again to repeat it",
                          file=COMMAND_LINE)
    if getattr(args, "file", None):
        raise LooptxError(f"a FILE ({args.file}) and --replay do not go together: the replayed space "
                          "is the cache's", hint="drop FILE to replay the cache, or drop --replay "
                          "to search FILE", file=COMMAND_LINE)
    for option, given in (("--spec", getattr(args, "spec", None)), ("--recipe", getattr(args, "recipe", None)),
                          ("--function", getattr(args, "function", None))):
        if given:
            raise LooptxError(f"{option} does not apply to --replay: the replayed space is the "
                              "cache's", hint=f"drop {option}", file=COMMAND_LINE)
    if getattr(args, "include_dir", None):
        raise LooptxError("-I does not apply to --replay: a replay reads no C file and its headers",
                          hint="drop -I", file=COMMAND_LINE)
    # (a replay prints no table: any --top given is refused, the default's too)
    if getattr(args, "top", None) is not None:
        raise LooptxError("--top does not apply to --replay: a replay prints its best point, not a "
                          "table of points", hint="drop --top", file=COMMAND_LINE)
    for option, given in (("--workers", getattr(args, "workers", None)), ("--executor", getattr(args, "executor", None))):
        if given:
            raise LooptxError(f"{option} does not apply to --replay: a replay simulates one device "
                              "and measures nothing", hint=f"drop {option}; --batch-size sets the "
                              "points asked per round", file=COMMAND_LINE)
    if getattr(args, "backend", "c") != "c":
        note_once(args.replay, None, f"--backend {args.backend} is ignored by --replay: the "
                  "times are the cache's, from the device it was recorded on")


def _as_recorded(value):
    """A parameter value as the cache holds it: an object is keyed by its JSON text."""
    if isinstance(value, str) and value[:1] in "{[":
        try:
            return json.loads(value)
        except ValueError:
            pass
    return value


def replay_command(args, given: Mapping | None = None) -> int:
    """A simulated search on a recorded space (no hardware); `given` holds the searcher
    options of the command line (parse_option_args)."""
    from looptx.search.registry import get_searcher
    from looptx.search.replay import load_recorded_space, replay
    check_replay_args(args)
    rec = load_recorded_space(args.replay, args.t1, getattr(args, "objective", None),
                              fixed=getattr(args, "define", None) or ())
    algo = args.algorithm or "surf+"
    budget = args.budget or min(100, rec.n_valid)
    seed = args.seed or 0
    batch = args.batch_size or 1
    # inf: no limit, as for a search
    limited = args.time_limit is not None and math.isfinite(args.time_limit)
    limit = {"time_limit": args.time_limit} if limited else {}
    try:
        cls = get_searcher(algo)
    except LooptxError as e:
        # a name mistyped, or a plugin that cannot load, is the command line's (-a), not the cache's
        raise e.located(file=COMMAND_LINE) from None
    options = with_command_line(cls, {}, given or {})
    try:
        trace = replay(rec, algo, seed=seed, max_evals=budget, batch_size=batch,
                       options={**options, **limit})
    except LooptxError as e:
        e = locate_option(e, cls, None, given)
        # a searcher's refusal of one of its options (-O) is the command line's
        raise (e.located(file=COMMAND_LINE) if e.what.startswith("--option ") else e) from None
    flush_warnings()
    n = len(trace)
    best = trace.best_curve[-1] if n else math.inf
    fails = sum(1 for _, r, _ in trace if not r.ok)
    recorded_fails = sum(1 for t in rec.times if not math.isfinite(t))
    points = (f"{rec.n_valid} points, {recorded_fails} of them failed" if recorded_fails
              else _plural(rec.n_valid, "valid point"))
    if rec.unmeasured:
        # an unfinished tuning run (its header lists every value), or T1 values never measured
        points += (f" ({rec.unmeasured} never measured: the cache holds no record of them, and "
                   "they count as failed evaluations)")
    print(f"replay {os.path.basename(args.replay)}: {trace.searcher}, {_plural(n, 'evaluation')} "
          f"({fails} failed), seed {seed}, batch {batch}; {points}")
    if limited and n < budget and n < rec.n_valid:
        print(f"the time limit ({args.time_limit:g} s of simulated time) stopped the replay after "
              f"{n} of {_plural(budget, 'evaluation')}")
    if not math.isfinite(best):
        print("no successful evaluation")
        return 1
    rank = 1 + sum(1 for t in rec.times if t < best)
    point = next(p for (p, r, _), v in zip(trace, trace.best_curve) if r.ok and r.value == best)
    print(f"best point {json.dumps({k: _as_recorded(v) for k, v in point.items()}, default=str)}")
    tail = f"simulated time {trace.times[-1]:.1f} s (searcher {trace.searcher_time:.2f} s)"
    if rec.objective_name == "time" and rec.ratio and not rec.higher_is_better:
        hit = next((i + 1 for i, v in enumerate(trace.best_curve) if v <= 1.05 * rec.optimum), None)
        when = (f"within 5% of the optimum after {_plural(hit, 'evaluation')}" if hit else
                f"never within 5% of the optimum in {_plural(n, 'evaluation')}")
        print(f"best found {best:.6g} s (optimum {rec.optimum:.6g} s, optimum/best "
              f"{rec.optimum / best:.4f}, rank {rank} of {rec.n_valid}); {when}; {tail}")
        return 0
    # another objective, or time maximised: shown in the cache's own units, with its direction
    name, way = rec.objective_name, "higher" if rec.higher_is_better else "lower"
    first = next(i + 1 for i, v in enumerate(trace.best_curve) if v == rec.optimum) \
        if best == rec.optimum else None
    when = (f"optimum found after {_plural(first, 'evaluation')}" if first else
            f"optimum not found in {_plural(n, 'evaluation')}")
    unit = " ms" if name == "time" else ""
    print(f"best found {name} {rec.shown(best):.6g}{unit} (optimum {rec.shown(rec.optimum):.6g}{unit}, "
          f"{way} is better, rank {rank} of {rec.n_valid}); {when}; {tail}")
    return 0
