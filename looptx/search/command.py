"""`looptx search`: an annotated file (Orio PerfTuning + CHiLL block, or a .spec and a recipe)
-> one search per problem size -> the best variant written next to the input.

Precedence of settings: command line, then the annotation's `def search`, then defaults
(searcher surf+, budget min(space size, 100), seed 0).  `time_limit` is in seconds.
Orio refuses a search with neither total_runs nor time_limit; looptx runs the default budget
instead (a first look at a space should need no flags) and says so on its first line."""
from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Mapping

from looptx.errors import AnnotationError, LooptxError, drop_notes, flush_notes, note_once, read_utf8, signals_deferred
from looptx.frontend.annotations import load_spec_file, parse_tuning_spec
from looptx.frontend.regions import scan
from looptx.search.options import (STANDARD, flush_warnings, locate_option, options_for, queue_warning,
                                   parse_option_args, recorded_options, reset_warnings,
                                   with_command_line)
from looptx.search.db import DBWriteError
from looptx.search.resume_checks import recorded_settings
from looptx.search.space import Space
from looptx.search.spec_space import space_for
from looptx.search.space_checks import check_constraints, count, empty_space, rng


DEFAULT_BUDGET = 100


@dataclass
class Setup:
    path: str
    spec: Any                         # TuningSpec or None
    regions: tuple[int, ...]          # the CHiLL regions of the PerfTuning block, tuned jointly
    sizes: list[dict]                 # problem sizes, one search each
    algorithm: str
    options: dict
    budget: int | None
    time_limit: float | None
    seed: int
    resume: bool
    backend: str
    db: str
    recipe: str | None
    extra_decls: str | None
    build_command: str | None
    repetitions: int
    defines: dict = field(default_factory=dict)
    timeout: float = 60.0             # seconds for one measurement (build + validate + time)
    rtol: float | None = None
    chosen: dict = field(default_factory=dict)     # performance params fixed by --define
    batch_size: int = 1
    workers: int | None = None


def find_spec(path: str, text: str, spec_file: str | None):
    """(TuningSpec or None, region indices) for the file: --spec wins over the annotation.
    The CHiLL regions of one PerfTuning block are tuned jointly."""
    if spec_file:
        return load_spec_file(spec_file), (0,)
    markup = scan(text, path)
    if not markup.tuning:
        return None, (0,)
    ann = markup.tuning[0]
    # One search tunes one block: refused here rather than tuning the first one only and
    # writing a best file that leaves the others as they were.
    if len(markup.tuning) > 1:
        raise AnnotationError("this file holds several PerfTuning blocks; looptx search tunes one "
                              "block per file", hint="put each PerfTuning block in its own file",
                              **_at(markup, markup.tuning[1].begin[0], path))
    inside = tuple(k for k, r in enumerate(markup.regions)
                   if r.tuning is not None and r.tuning.begin == ann.begin)
    line, col = markup.src.pos(ann.body_start)
    spec = parse_tuning_spec(ann.body, file=path, line=line, col=col,
                             base_dir=os.path.dirname(os.path.abspath(path)))
    return spec, (inside or (0,))


def _at(markup, offset: int, path: str) -> dict:
    line, col = markup.src.pos(offset)
    return dict(file=path, line=line, col=col)


def input_decls(spec, path: str) -> str | None:
    """C declarations for Orio `input_vars` (fragments declare their data there)."""
    if spec is None:
        return None
    lines = []
    if any(d.ctype.endswith("_t") for d in spec.input_vars):
        lines.append("#include <stdint.h>")
        lines.append("#include <stddef.h>")
    for d in spec.input_vars:
        dims = "".join(f"[{e.text}]" for e in d.dims)
        lines.append(f"{d.ctype} {d.name}{dims};")
    if spec.decl_file:
        f = os.path.join(os.path.dirname(path), spec.decl_file)     # (an absolute name stays itself)
        try:
            text = read_utf8(f, AnnotationError, "decl_file")
            # Orio compiles the decl file with the build command: its -D flags steer #ifdefs
            if "#" in text:
                lines += [f"#define {k} {v}" for k, v in spec.command_macros().items()]
            # its own name and lines in a syntax error (cparse reads the marker)
            lines += [f'# 1 "{spec.decl_file}"', text]
        except OSError as e:
            raise AnnotationError(f"cannot read decl_file '{spec.decl_file}': {e.strerror}",
                                  hint=f"put {spec.decl_file} next to {os.path.basename(path)}",
                                  **spec.where("input_vars", "decl_file")) from None
    if spec.decl_file and spec.init_file:
        from looptx.search.init_file import init_function
        f = os.path.join(os.path.dirname(path), spec.init_file)
        try:
            lines.append(init_function(read_utf8(f, AnnotationError, "init_file"), spec.command_macros(),
                                       skip="\n".join(lines)))
        except OSError:
            pass                     # noted as not read (_note_replaced_files): its data are random
    return "\n".join(lines) or None


def setup(args) -> Setup:
    path = args.file
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as f:     # -sig: without a BOM
            text = f.read()
    except OSError as e:
        raise LooptxError(f"cannot read the input: {e.strerror}", file=path) from None
    spec, regions = find_spec(path, text, args.spec)
    s = dict(spec.search) if spec is not None else {}
    defines = dict(args.defines or {})
    # --define of a performance param fixes it; of anything else, a size
    perf = {p.name for p in spec.performance_params} if spec is not None else set()
    chosen = {k: v for k, v in defines.items() if k in perf}
    defines = {k: v for k, v in defines.items() if k not in perf}
    # --define fixes a size: the input constraints and the sizes declared from it (`decl int
    # M = MVAL;`) see its value, and the listed values it overrides collapse into one search
    sizes = spec.allowed_sizes(defines) if spec is not None else []
    sizes = list({json.dumps(m, sort_keys=True): m for m in ({**sz, **defines} for sz in sizes)}.values()) \
        or [defines]
    options = {k: v for k, v in s.items() if k not in STANDARD}
    algorithm = args.algorithm or s.get("algorithm") or "surf+"
    budget = args.budget if args.budget is not None else s.get("total_runs")
    time_limit = args.time_limit if args.time_limit is not None else s.get("time_limit")
    if args.time_limit is None and isinstance(time_limit, (int, float)) and 0 < time_limit < 10:
        # Orio multiplies it by 60: a file written for Orio means minutes
        where = spec.where("search", "time_limit")
        note_once(where["file"], where["line"], f"time_limit is in seconds in looptx (Orio reads minutes): "
                  f"this search stops after {time_limit:g} s; write {60 * time_limit:g} for Orio's "
                  f"{time_limit:g} minutes")
    seed = args.seed if args.seed is not None else int(s.get("seed", 0))
    base = os.path.splitext(path)[0]
    counter = dict(spec.performance_counter) if spec is not None else {}
    build_command = spec.compile_command() if spec is not None else None
    if getattr(args, "cflags", None) is not None:
        build_command = f"gcc {args.cflags}"
    if args.backend == "c":
        from looptx.runtime.evaluators import c_build_command
        build_command = c_build_command(build_command, os.path.abspath(path))
        from looptx.runtime.build_flags import check_compiler, check_flags
        check_compiler(build_command, spec)
        check_flags(build_command, spec, cli=getattr(args, "cflags", None) is not None)
    reps = int(counter.get("repetitions") or (5 if args.backend == "c" else 10))
    rtol = dict(spec.validation).get("rtol") if spec is not None else None
    if spec is not None:
        _note_replaced_files(spec)
    return Setup(path, spec, regions, sizes, str(algorithm), options, budget, time_limit, seed,
                 bool(args.resume or s.get("resume")), args.backend, args.db or base + ".looptx.db",
                 args.recipe, input_decls(spec, path), build_command, reps, defines,
                 float(counter.get("timeout", 60.0 if args.backend == "c" else 120.0)), rtol, chosen,
                 args.batch_size if args.batch_size is not None else int(s.get("batch_size", 1)),
                 args.workers if args.workers is not None else s.get("workers"))


def evaluator_for(st: Setup, sizes: Mapping[str, int], function=None):
    recipe = None
    if st.recipe:
        from looptx.recipe.schema import find_recipe
        recipe = find_recipe(st.recipe, os.path.dirname(os.path.abspath(st.path)))
    common = dict(sizes=sizes, recipe_path=recipe, function=function, seed=st.seed,
                  extra_decls=st.extra_decls, repetitions=st.repetitions, timeout=st.timeout,
                  rtol=st.rtol)
    if st.backend == "cuda":
        from looptx.runtime.cuda_eval import CudaEvaluator, preflight
        arch, name = preflight()
        parts = [CudaEvaluator(st.path, arch=arch, device_name=name, region=r, **common)
                 for r in st.regions]
    else:
        from looptx.runtime.evaluators import CEvaluator
        parts = [CEvaluator(st.path, build_command=st.build_command, region=r, **common)
                 for r in st.regions]
    if len(parts) == 1:
        return parts[0]
    from looptx.search.joint import JointEvaluator
    return JointEvaluator(parts, st.regions)


class Terminated(KeyboardInterrupt):
    """SIGTERM (`timeout`, a batch system's end of job): handled as Ctrl-C is."""


def run(args) -> int:
    """`looptx search`; SIGTERM stops it as Ctrl-C does: the best so far written, exit 143."""
    from looptx.search.lifecycle import guarded
    return guarded(_run, args, Terminated)


def _run(args) -> int:
    from looptx.search.arg_checks import check_args
    check_args(args)
    reset_warnings()
    try:
        given = parse_option_args(getattr(args, "option", None))
    except LooptxError as e:
        # cli.py would put a replay's cache before it: a bad -O is the command line's
        if args.replay:
            from looptx.search.replay_checks import COMMAND_LINE
            e.located(file=COMMAND_LINE)
        raise
    if args.replay:
        from looptx.search.replay_cli import replay_command
        return replay_command(args, given)
    if not args.file:
        raise LooptxError("looptx search needs a FILE (or --replay CACHE)", hint="looptx search file.c")
    from looptx.search.registry import get_searcher
    from looptx.search.driver import run_search
    from looptx.search.report import top_table
    st = setup(args)
    from looptx.search.lifecycle import check_best_writable, check_limits
    check_limits(st)
    from looptx.outputs import refuse_search_db
    refuse_search_db(st.db, st.path, st.backend, st.recipe, args.spec)
    if st.spec is None or not st.spec.performance_params:
        # queued: a search that ends in a bad input prints that one error line only
        queue_warning(f"looptx: warning: {st.path} declares no performance params (no PerfTuning block "
                      "with def performance_params): there is one variant to measure, as `looptx run` does")
    try:
        cls = get_searcher(st.algorithm)
    except LooptxError as e:
        if args.algorithm:                          # from the command line: not the file's
            from looptx.search.replay_checks import COMMAND_LINE
            raise e.located(file=COMMAND_LINE)
        if st.spec is None:
            raise
        raise e.located(**st.spec.where("search", "algorithm"))
    st.options = with_command_line(cls, options_for(cls, st.options, st.spec), given, st.spec)
    # --workers alone means a local Dask cluster (one single-threaded worker per device)
    executor = args.executor or ("local-dask" if st.workers else None)
    results, keys, empties = [], [], []     # empties: sizes whose constraints leave no point
    skipped: list[str] = []                 # their warnings, said once another size is searched
    fingerprint = _fingerprint(st, args.function)
    from looptx.search.resume_checks import check_db_folder, check_resume_target
    check_db_folder(st.db)
    check_best_writable(st)
    if args.resume:        # `arg resume = True` in a file also serves its first run
        check_resume_target(st.db, [_key(st, sz) for sz in st.sizes], st.path)
    checked = {}                # the evaluators whose sizes were checked before any search
    spaces = {}                 # and their spaces
    said: set[str] = set()      # notes of params' values left out, once for all sizes
    from looptx.search.param_checks import check_integer_params, check_recipe
    from looptx.runtime.inputs import fits_in_memory
    for n, sizes in enumerate(st.sizes[1:] and st.sizes):
        # sizes the region cannot run at (past an array's declared extents) or that a step
        # refuses whatever the point (a `known` fact false at the size) are bad input: said
        # before any size is measured, not after the others
        checked[n] = evaluator_for(st, sizes, args.function)
        try:
            fits_in_memory(checked[n].signature(), st.spec)
        except LooptxError as e:
            e.what = e.what.replace("at these sizes", "at " + ", ".join(f"{k}={v}" for k, v in sizes.items()))
            raise
        space = space_for(st.spec, sizes, name=os.path.basename(st.path), chosen=st.chosen)
        check_constraints(st, space, sizes)
        spaces[n] = space, count(space)
        if spaces[n][1] or (spaces[n][1] is None and space.sample(rng(st.seed), 1)):
            check_integer_params(st.spec, space, checked[n])
            check_recipe(checked[n], space, st.seed)
    for index, sizes in enumerate(st.sizes):
        if index in spaces:
            space, n_valid = spaces[index]
        else:
            space = space_for(st.spec, sizes, name=os.path.basename(st.path), chosen=st.chosen)
            check_constraints(st, space, sizes)
            n_valid = count(space)
        if n_valid == 0 or (n_valid is None and not space.sample(rng(st.seed), 1)):
            # One problem size whose constraints leave nothing does not stop the others; the
            # best file runs the original code at that size.
            empties.append(empty_space(st, space, sizes, listed=n_valid is not None))
            if sizes is st.sizes[-1] and not results:
                raise empties[0]          # every size is empty: that one error line alone
            skipped.append(str(empties[-1]).replace(": error: ", ": warning: ", 1)
                           + "; this problem size is skipped")
            continue
        _say_skipped(skipped)
        budget = st.budget if st.budget is not None else min(n_valid or DEFAULT_BUDGET, DEFAULT_BUDGET)
        key = _key(st, sizes)
        recorded = recorded_settings(st.db, key, [_key(st, other) for other in st.sizes]) if st.resume else None
        # said once the searcher takes its options: a bad input is one line (CONTRACT)
        held: list[str] = []
        run_cls, run_options = (_recorded_searcher(st, recorded, cls, given, held.append)
                                if recorded and not args.algorithm else (cls, st.options))
        seed = _resumed_seed(st, recorded, args.seed, held.append)
        ev = checked.get(index)
        if ev is None:
            ev = evaluator_for(st, sizes, args.function)
            # a missing size, or one too big for memory, is a bad input, not a failure per point
            fits_in_memory(ev.signature(), st.spec)
        if index not in spaces:
            check_integer_params(st.spec, space, ev)
            check_recipe(ev, space, st.seed)
        from looptx.search.rejected_values import without_rejected_values
        space, n_valid = without_rejected_values(st, space, ev, n_valid, said)
        if st.budget is None:
            budget = min(n_valid or DEFAULT_BUDGET, DEFAULT_BUDGET)
        from_record = args.budget is None and recorded is not None and recorded.budget is not None
        if from_record:
            # a resume continues the search it recorded: only --budget changes its budget
            budget = int(recorded.budget)
            if st.budget is not None and int(st.budget) != budget:
                held.append(f"the search in '{st.db}' was recorded with budget {budget}, which --resume "
                            f"continues; the annotation's total_runs is {st.budget} (give --budget "
                            f"{st.budget} to change it)")
        if recorded is not None and not from_record and recorded.n_evals >= int(budget):
            held.append(f"the search in '{st.db}' has {recorded.n_evals} evaluations already, as many as "
                        f"budget {budget} or more: --resume measures nothing new (give a budget above "
                        f"{recorded.n_evals} to measure more)")
        batch_size, time_limit = _resumed_limits(st, recorded, args)
        try:
            searcher = run_cls(space, seed=seed, max_evals=int(budget), batch_size=batch_size,
                               time_limit=time_limit, **run_options)
        except LooptxError as e:
            raise locate_option(e, run_cls, st.spec, given)
        # (queued: a resume that the database then refuses, or a search whose every point a
        # step rejects, ends in one error line, as the contract says)
        for line in held:
            queue_warning(f"looptx: warning: {line}")
        if sizes is st.sizes[0]:
            from looptx.search.unused_params import unused_param_warnings
            for line in unused_param_warnings(st, ev, space):
                queue_warning(line)
        label = ", ".join(f"{k}={v}" for k, v in sizes.items()) or "default sizes"
        shown = budget if st.budget is not None or from_record else \
            f"{budget} (default: no total_runs or --budget)"
        print(f"looptx search {st.path} [{label}]: {run_cls.name}, budget {shown}, {_points_text(space, n_valid)}, "
              f"backend {st.backend}")
        try:
            out = run_search(space, searcher, ev, db=st.db, search_key=key, budget=int(budget),
                             time_limit=time_limit, executor=executor, workers=st.workers,
                             progress=not args.no_progress and sys.stdout.isatty(), resume=st.resume,
                             input_file=st.path, problem=sizes, searcher_options=run_options,
                             fingerprint=fingerprint, warn=_warn_now,
                             settings={"repetitions": st.repetitions, "timeout": st.timeout, "rtol": st.rtol})
        except KeyboardInterrupt as e:
            flush_warnings()
            from looptx.search.interrupt import interrupted
            return interrupted(st, results, key, args.function, terminated=isinstance(e, Terminated))
        except DBWriteError as e:
            # as after Ctrl-C: what was committed is kept and its best variant written
            from looptx.search.interrupt import interrupted
            return interrupted(st, results, key, args.function, failure=e)
        except Exception as e:
            # a plugin searcher's own bug ends the search as Ctrl-C does, not its measurements
            from looptx.search.plugins import plugin_fault
            fault = plugin_fault(e)
            if fault is None or getattr(args, "debug", False):
                raise
            from looptx.search.interrupt import interrupted
            return interrupted(st, results, key, args.function, plugin=fault)
        # this size is measured: a Ctrl-C now stops the search at the next size's first round,
        # or, after the last, lets the report and the best file finish
        with signals_deferred():
            if out.best_point is not None:
                # Held until a variant passes: a search that ends in a bad input (every point
                # rejected by a step) prints that one error line and nothing else.
                flush_warnings()
                flush_notes()
            print(top_table(st.db, key, n=args.top or 10))
            if out.stop_reason == "time_limit":
                print(f"time limit of {time_limit:g} s reached: stopped after {out.n_evals} of "
                      f"{budget} evaluations")
            elif out.stop_reason == "same_failure":
                from looptx.search.same_failure import stop_line
                print(stop_line(out.records, out.n_resumed, budget, st.db))
            elif out.stop_reason == "finished" and n_valid is None and out.n_evals < budget:
                print(short_of_budget(run_cls.name, out.n_evals, budget, space))
            results.append((sizes, out))
            keys.append(key)
    with signals_deferred():
        _say_skipped(skipped)
        best = [(sz, o) for sz, o in results if o.best_point is not None]
        if not best:
            return _nothing_passed(st, keys)
        from looptx.search.best import with_earlier_sizes, write_best
        written = write_best(st, with_earlier_sizes(st, best, keys, fingerprint), args.function)
        print(f"best variant written to {written}")
    return 0


def _say_skipped(lines: list[str]) -> None:
    while lines:
        print(lines.pop(0), file=sys.stderr)


def _resumed_limits(st: Setup, info, args) -> tuple[int, float | None]:
    """(batch size, time limit) of a search: a resume goes on with those it was recorded with,
    unless the command line gives others (the batch decides which points a batch searcher
    proposes, so the resumed search measures what the uninterrupted one would have)."""
    batch, limit = st.batch_size, st.time_limit
    if info is None:
        return batch, limit
    state = info.state if isinstance(info.state, dict) else {}
    if args.batch_size is None and state.get("batch_size"):
        batch = int(state["batch_size"])
    if args.time_limit is None and info.time_limit:
        limit = float(info.time_limit)
    return batch, limit


def _resumed_seed(st: Setup, info, given: int | None, warn) -> int:
    """A resumed search goes on with its recorded seed (the searchers that keep no state redraw
    from it); a --seed that differs from it is a warning, and wins."""
    if info is None or info.seed is None or info.seed == st.seed:
        return st.seed
    if given is None:
        return int(info.seed)
    warn(f"the search in '{st.db}' was recorded with seed {info.seed}; it goes on with --seed {given}")
    return st.seed


def _recorded_searcher(st: Setup, info, cls, given, warn):
    """(searcher class, options) that `--resume` without `--algorithm` goes on with: the ones
    the search was recorded with (Orio's and Kernel Tuner's resumes keep their strategy), with
    any --option on top."""
    from looptx.search.registry import get_searcher
    if not info.searcher or info.searcher == cls.name:
        return cls, st.options
    try:
        rec = get_searcher(info.searcher)
    except LooptxError as e:
        raise LooptxError(f"the search in '{st.db}' was recorded with searcher '{info.searcher}', "
                          f"which is not available now ({e.what})",
                          hint=f"install it again, or resume with --algorithm {cls.name}", file=st.db) from None
    if st.spec is not None and st.spec.search.get("algorithm"):
        warn(f"the search in '{st.db}' was recorded with searcher '{rec.name}', which --resume "
             f"continues; the annotation names '{cls.name}' (give --algorithm {cls.name} to switch)")
    return rec, with_command_line(rec, recorded_options(rec, info.searcher_options), given)


def _warn_now(text: str) -> None:
    print(f"looptx: warning: {text}", file=sys.stderr)


def _note_replaced_files(spec) -> None:
    """Orio's own data and checking files have looptx counterparts: said once, not silently."""
    for section, name, instead in (
            ("input_vars", "init_file", "looptx fills the inputs with seeded random data (the sizes its "
             "init function sets first, `n = N;`, are read)"),
            ("validation", "validation_file", "looptx checks each variant against the original code"),
            ("validation", "expected_output", "looptx checks each variant against the original code"),
            ("performance_test_code", "skeleton_code_file", "looptx times the region with its own harness"),
            ("performance_test_code", "skeleton_test_code", "looptx times the region with its own harness")):
        value = spec.init_file if name == "init_file" else dict(spec.validation).get(name) \
            if section == "validation" else dict(spec.other.get(section, {})).get(name)
        if value:
            where = spec.where(section, name)
            note_once(where["file"] or spec.file, where.get("line") or spec.line,
                      f"{name} '{value}' is not {'run' if name == 'init_file' else 'used'}: {instead}")


def _nothing_passed(st: Setup, keys: list[str]) -> int:
    """The end of a search in which no variant passed, as one line on stderr.  When every
    point was rejected by a recipe step (an illegal transformation, or a step that makes no
    sense for these params) the input is at fault: the first rejection is the located error,
    exit 2.  Anything else (builds, runs, wrong results) is a failed run, exit 1."""
    from collections import Counter
    from looptx.search.db import ResultsDB
    with ResultsDB(st.db, create=False) as rdb:
        recs = [r for k in keys for r in rdb.evaluations(k)]
    counts = Counter(r.status for r in recs)
    summary = ", ".join(f"{v} {k}" for k, v in sorted(counts.items())) or "nothing"
    # a build, run or validation failure says more about a failed run than a point a step
    # refused (a broken build_command: every build fails whatever the params)
    first = next((r.error for r in recs if r.error and r.status not in ("illegal", "invalid")), None) \
        or next((r.error for r in recs if r.error), None)
    if first:                   # compiler output spans lines; the message is one
        first = " ".join(first.split())
        if first.startswith(os.path.abspath(st.path) + ":"):      # as the user wrote it
            first = st.path + first[len(os.path.abspath(st.path)):]
        first = first if len(first) <= 400 else first[:400] + " ..."
    report = f"`looptx report {st.db}` lists every error"
    if recs and set(counts) <= {"illegal", "invalid"} and first:
        drop_notes()
        reset_warnings()
        print(f"{first}; no variant passed: all {len(recs)} evaluated points were rejected "
              f"({summary}); constrain the performance params or change the transformation, "
              f"{report}", file=sys.stderr)
        return 2
    flush_warnings()
    flush_notes()
    print(f"{st.path}: error: no variant passed validation ({summary} of {len(recs)} evaluated)"
          + (f"; the first: {first}" if first else "") + f"; {report}", file=sys.stderr)
    return 1


def _key(st: Setup, sizes: Mapping[str, Any]) -> str:
    return f"{os.path.basename(st.path)}|{json.dumps(sizes, sort_keys=True)}|{st.backend}|r{_region_tag(st)}"


def _region_tag(st: Setup) -> str:
    """The regions in search keys and fingerprints: `0` for one region (as before joint tuning,
    so older databases resume), `0+1` for a block tuned jointly."""
    return "+".join(str(r) for r in st.regions)


def _fingerprint(st: Setup, function=None) -> str:
    """What determines what a point measures, hashed: the region's code and CHiLL annotation,
    the recipe files it uses, the declarations, the build command and the backend.  A resumed
    search must have the same (a changed recipe would mix two experiments in one search)."""
    import hashlib
    with open(st.path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    parts = [f"backend={st.backend}", f"build={st.build_command!r}", f"function={function!r}",
             f"decls={st.extra_decls!r}", f"region={_region_tag(st)}"]
    try:
        markup = scan(text, st.path)
        region_text = "\0".join(text[markup.regions[r].outer[0]:markup.regions[r].outer[1]]
                                 for r in st.regions)
    except (LooptxError, IndexError):
        region_text = text
    parts.append(region_text)
    parts += recipe_texts(st, region_text)
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:32]


def recipe_texts(st: Setup, text: str) -> list[str]:
    """The contents of the recipe files that `text` names (CHiLL's `recipe("r.yaml")`) and of
    --recipe, `<missing NAME>` for one that cannot be read."""
    base = os.path.dirname(os.path.abspath(st.path))
    recipes = re.findall(r"""\brecipe\s*\(\s*["']([^"']+)["']""", text)
    if st.recipe:
        try:
            from looptx.recipe.schema import find_recipe
            recipes.append(os.path.abspath(find_recipe(st.recipe, base)))
        except LooptxError:
            recipes.append(st.recipe)
    out = []
    for name in recipes:
        path = name if os.path.isabs(name) else os.path.join(base, name)
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                out.append(f.read())
        except OSError:
            out.append(f"<missing {name}>")
    return out


def _points_text(space: Space, n_valid: int | None) -> str:
    if n_valid is not None:
        return f"{n_valid} valid point{'s' if n_valid != 1 else ''}"
    return f"{space.grid_size} raw points (too many to count the valid ones)"


def short_of_budget(searcher: str, n_evals: int, budget: int, space: Space) -> str:
    """Why a search of a space too large to list ended before its budget (probe 225)."""
    return (f"{searcher} stopped after {n_evals} of {budget} evaluations: sampling found no "
            f"further valid point among the {space.grid_size} raw points (they are too rare to "
            "draw); constraints that each read fewer params, or fewer values, let looptx list "
            "the valid points")

