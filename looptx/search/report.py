"""Reports over a results database: best-variant tables, CSV/JSON export, convergence plot, and
export of a search as a Kernel Tuner cache (a recorded space that `replay` can use).

Every function takes a path or an open `ResultsDB` and, where it makes sense, a search key
(None = every search in the file, or the only one for single-search exports).
"""
from __future__ import annotations

import csv
import io
import json
import math
import os
import sqlite3
from collections import Counter
from contextlib import contextmanager
from typing import IO, Any, Iterator

from looptx.errors import LooptxError
from looptx.search.db import EvalRecord, ResultsDB, SearchInfo

__all__ = ["top_table", "export_csv", "export_json", "convergence_plot", "convergence_figure", "plot_format",
           "export_kernel_tuner_cache", "format_time", "best_so_far", "report_command"]


@contextmanager
def _opened(db) -> Iterator[ResultsDB]:
    if isinstance(db, ResultsDB):
        yield db
    else:
        with ResultsDB(db, create=False) as rdb:
            yield rdb


@contextmanager
def _stream(path_or_stream, mode: str = "w") -> Iterator[IO]:
    if hasattr(path_or_stream, "write"):
        yield path_or_stream
    else:
        with open(path_or_stream, mode, encoding="utf-8", newline="") as f:
            yield f


def _selected(rdb: ResultsDB, key: str | None) -> list[SearchInfo]:
    return rdb.searches() if key is None else [rdb.require_search(key)]


def format_time(t: float | None) -> str:
    """Seconds in the unit that keeps 3-4 significant digits readable."""
    if t is None or not math.isfinite(t):
        return "-"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if t >= scale:
            return f"{t / scale:.4g} {unit}"
    return f"{t / 1e-9:.4g} ns"


def best_so_far(records: list[EvalRecord]) -> list[float]:
    """Best 'ok' time after each evaluation, in eval order (inf before the first success)."""
    out, best = [], math.inf
    for r in sorted(records, key=lambda r: r.eval_index):
        if r.ok and r.time is not None and r.time < best:
            best = r.time
        out.append(best)
    return out


def _point_text(point: dict) -> str:
    def v(x):
        return "(" + ",".join(map(str, x)) + ")" if isinstance(x, tuple) else str(x)
    return " ".join(f"{k}={v(x)}" for k, x in point.items())


def top_table(db, search_key: str | None = None, n: int = 10, *, width: int = 120) -> str:
    """The n fastest distinct variants of each search, as plain text (rich table layout).

    Duplicates (points that generated the same code as a measured one) are folded into the
    measured row's 'same code' count."""
    from rich.console import Console
    from rich.table import Table

    buf = io.StringIO()
    # markup off: keys and parameter values are user text and may contain [brackets].
    console = Console(file=buf, width=width, force_terminal=False, color_system=None,
                      highlight=False, markup=False, emoji=False)
    with _opened(db) as rdb:
        for info in _selected(rdb, search_key):
            recs = rdb.evaluations(info.key)
            counts = Counter(r.status for r in recs)
            dups = Counter(r.duplicate_of for r in recs if r.duplicate_of is not None)
            ok = sorted((r for r in recs if r.ok and r.duplicate_of is None and r.time is not None),
                        key=lambda r: (r.time, r.eval_index))
            best = ok[0].time if ok else None
            dev = (info.evaluator or {}).get("device") if isinstance(info.evaluator, dict) else None
            title = (f"{info.key}: {len(recs)} evaluation{'s' if len(recs) != 1 else ''}, searcher {info.searcher or '?'}, "
                     f"backend {info.backend or '?'}" + (f", {dev}" if dev else "")
                     + _unfinished(rdb, info, len(recs)))
            console.print(title, soft_wrap=True)
            t = Table()
            for col, just in (("#", "right"), ("eval", "right"), ("time", "right"),
                              ("spread", "right"), ("vs best", "right"), ("same code", "right"),
                              ("parameters", "left")):
                t.add_column(col, justify=just, overflow="fold")
            for rank, r in enumerate(ok[:n], 1):
                t.add_row(str(rank), str(r.eval_index), format_time(r.time),
                          "-" if r.spread is None else f"{100 * r.spread:.1f}%",
                          f"{r.time / best:.2f}x" if best else "-",
                          str(dups.get(r.eval_index, 0)), _point_text(r.point))
            console.print(t)
            console.print("status: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
                          if counts else "status: no evaluations", soft_wrap=True)
            for line in _error_lines(recs):
                console.print(line, soft_wrap=True)
            console.print()
    return buf.getvalue()


def _unfinished(rdb: ResultsDB, info: SearchInfo, n: int) -> str:
    """A search that did not finish says so: its table alone looks like a finished one's."""
    if info.status in (None, "finished"):
        return ""
    of = f"{n} of {info.budget}" if info.budget else f"{n}"
    evaluations = "evaluations" if (info.budget or n) != 1 else "evaluation"
    if info.status == "running" and not rdb.in_use():
        return f"; stopped before it finished (killed?) after {of} {evaluations}; --resume goes on"
    if info.status == "running":
        return f"; running now ({of} {evaluations} so far)"
    return f"; {info.status} after {of} {evaluations}; --resume goes on"


def _error_lines(recs, most: int = 5) -> list[str]:
    """The distinct errors of the failed evaluations, most frequent first, each with its count
    and first evaluation (`looptx report --csv` has every one)."""
    seen: dict[tuple[str, str], list[int]] = {}
    group_of: dict[int, tuple[str, str]] = {}
    for r in recs:
        if not r.ok and r.duplicate_of is None and r.error:
            # looptx's own errors are one line, their remedy at its end: kept whole
            first = r.error.strip().splitlines()[0]
            first = first if len(first) <= 1000 else first[:1000] + " ..."
            seen.setdefault((r.status, first), []).append(r.eval_index)
            group_of[r.eval_index] = (r.status, first)
    # a point whose code another one's is gets its error: counted with it, as the status line does
    for r in recs:
        if not r.ok and r.duplicate_of in group_of and r.status == group_of[r.duplicate_of][0]:
            seen[group_of[r.duplicate_of]].append(r.eval_index)
    ranked = sorted(seen.items(), key=lambda kv: (-len(kv[1]), min(kv[1])))
    out = [f"  {status} x{len(evals)} (first: eval {min(evals)}): {text}" for (status, text), evals in ranked[:most]]
    if len(ranked) > most:
        out.append(f"  ... {len(ranked) - most} other errors (`looptx report DB --csv FILE` lists every one)")
    return out


_CSV_FIXED = ["search_key", "eval_index", "status", "time", "spread", "compile_time",
              "run_time", "duplicate_of", "code_hash", "compiler", "flags", "device", "timestamp",
              "error", "point_key"]


def _csv_value(v: Any) -> Any:
    if isinstance(v, tuple):
        return " ".join(map(str, v))
    return "" if v is None else v


def export_csv(db, path_or_stream, search_key: str | None = None) -> int:
    """One row per evaluation (fixed columns, then one column per parameter, union over the
    searches; a parameter named like a fixed column gets a 'param_' prefix).  Returns the number
    of rows written."""
    with _opened(db) as rdb:
        rows: list[tuple[str, EvalRecord]] = []
        params: list[str] = []
        for info in _selected(rdb, search_key):
            for r in rdb.evaluations(info.key):
                rows.append((info.key, r))
                params += [p for p in r.point if p not in params]
    col = {p: (f"param_{p}" if p in _CSV_FIXED else p) for p in params}
    with _stream(path_or_stream) as f:
        w = csv.writer(f)
        w.writerow(_CSV_FIXED + [col[p] for p in params])
        for key, r in rows:
            fixed = [key, r.eval_index, r.status, r.time, r.spread, r.compile_time, r.run_time,
                     r.duplicate_of, r.code_hash, r.compiler, r.flags, r.device, r.timestamp,
                     r.error, r.point_key]
            w.writerow([_csv_value(v) for v in fixed]
                       + [_csv_value(r.point.get(p)) for p in params])
    return len(rows)


def _record_json(r: EvalRecord) -> dict:
    return {"eval_index": r.eval_index, "point": r.point, "point_key": r.point_key,
            "status": r.status, "time": r.time, "times": list(r.times), "spread": r.spread,
            "code_hash": r.code_hash, "recipe": r.recipe, "compiler": r.compiler,
            "flags": r.flags, "device": r.device, "compile_time": r.compile_time,
            "run_time": r.run_time, "error": r.error, "duplicate_of": r.duplicate_of,
            "info": dict(r.info), "timestamp": r.timestamp}


def export_json(db, path_or_stream, search_key: str | None = None) -> dict:
    """{'searches': [{search fields..., 'evaluations': [...]}]}; also returned."""
    with _opened(db) as rdb:
        out = []
        for info in _selected(rdb, search_key):
            d = {k: getattr(info, k) for k in info.__dataclass_fields__ if k not in ("id",)}
            if isinstance(d.get("searcher_options"), dict):
                # the stored options' format version is the database's business, not the user's
                from looptx.search.options import VERSION_KEY
                d["searcher_options"] = {k: v for k, v in d["searcher_options"].items() if k != VERSION_KEY}
            d["evaluations"] = [_record_json(r) for r in rdb.evaluations(info.key)]
            best = [e for e in d["evaluations"] if e["status"] == "ok" and e["time"] is not None]
            d["best"] = min(best, key=lambda e: (e["time"], e["eval_index"])) if best else None
            out.append(d)
    doc = {"format": "looptx-results", "version": 1, "searches": out}
    with _stream(path_or_stream) as f:
        json.dump(doc, f, indent=1, default=str)
        f.write("\n")
    return doc


def plot_format(path) -> str:
    """The file format `--plot PATH` names by its extension (png without one); an extension
    matplotlib cannot write is bad input."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    ext = os.path.splitext(os.fspath(path))[1].lower().lstrip(".")
    known = FigureCanvasAgg(Figure()).get_supported_filetypes()
    if ext and ext not in known:
        from looptx.search.db import SearchError
        raise SearchError(f"cannot write a plot as '.{ext}'", file=os.fspath(path),
                          hint="use one of " + ", ".join(f".{k}" for k in sorted(known)))
    return ext or "png"


def convergence_figure(db, search_key: str | None = None, *, title: str | None = None):
    """(figure, lines drawn) of `convergence_plot`."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    # Figure + Agg canvas directly: no pyplot global state, no GUI backend selection.
    fig = Figure(figsize=(7, 4.5), dpi=110)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    lines, evaluations = 0, 1
    with _opened(db) as rdb:
        for info in _selected(rdb, search_key):
            curve = best_so_far(rdb.evaluations(info.key))
            evaluations = max(evaluations, len(curve))
            xs = [i + 1 for i, v in enumerate(curve) if math.isfinite(v)]
            ys = [v for v in curve if math.isfinite(v)]
            if not xs:
                continue
            ax.step(xs, ys, where="post", label=f"{info.key} ({info.searcher or '?'})")
            lines += 1
    # evaluations that failed before the first success cost budget too: the axis shows them
    ax.set_xlim(1, max(evaluations, 2))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("evaluation")
    ax.set_ylabel("best time so far (s)")
    ax.set_yscale("log")
    ax.grid(True, which="both", alpha=0.3)
    ax.set_title(title or "search convergence")
    if lines:
        ax.legend(fontsize="small")
    else:
        ax.text(0.5, 0.5, "no successful evaluation", ha="center", va="center",
                transform=ax.transAxes)
    fig.tight_layout()
    return fig, lines


def convergence_plot(db, png_path, search_key: str | None = None, *,
                     title: str | None = None) -> int:
    """Best-so-far time against evaluation number, one line per search (labelled with its key
    and searcher), log-scaled time axis, in the format the file's extension names.  Returns
    the number of lines drawn."""
    fmt = plot_format(png_path)
    fig, lines = convergence_figure(db, search_key, title=title)
    fig.savefig(os.fspath(png_path), format=fmt)
    return lines


def _space_from_description(desc: dict, db=None):
    from looptx.errors import LooptxError
    from looptx.search.db import SearchError
    from looptx.search.space import Param, Space
    try:
        params = [Param(p["name"], tuple(p["values"]), p["kind"], tuple(p.get("slots") or ()))
                  for p in desc["params"]]
        return Space(params, name=desc.get("name") or "space")
    except (KeyError, TypeError, ValueError, AttributeError, LooptxError) as e:
        where = f"'{db}'" if isinstance(db, (str, os.PathLike)) else "the results database"
        raise SearchError(f"{where} is damaged: its recorded search space cannot be read "
                          f"({getattr(e, 'what', None) or e!r})",
                          hint="restore it from a copy") from None


def export_kernel_tuner_cache(db, search_key: str | None, path, *, space=None,
                              kernel_name: str | None = None) -> int:
    """Write the search's measured points as a Kernel Tuner cache (`.json` or `.json.gz`).

    The space comes from the stored description unless given (constraints are not stored; a
    cache only needs the parameter grid).  Duplicates are exported with their measurement, so
    every evaluated point is in the cache; a point evaluated twice keeps its last evaluation.
    Returns the number of configurations written."""
    from looptx.search.replay import write_cache
    args, n = _kernel_tuner_parts(db, search_key, space, kernel_name)
    write_cache(path, *args[:2], **args[2])
    return n


def kernel_tuner_document(db, search_key: str | None = None) -> dict:
    """The Kernel Tuner cache `export_kernel_tuner_cache` writes, as its JSON object."""
    from looptx.search.replay import cache_document
    args, _ = _kernel_tuner_parts(db, search_key, None, None)
    return json.loads(json.dumps(cache_document(*args[:2], **args[2])))


def _kernel_tuner_parts(db, search_key, space, kernel_name):
    with _opened(db) as rdb:
        info = rdb.require_search(search_key)
        recs = rdb.evaluations(info.key)
    if space is None:
        if not info.space:
            from looptx.search.db import SearchError
            raise SearchError(f"search {info.key!r} has no stored space description",
                              hint="pass the space explicitly")
        space = _space_from_description(info.space, db)
    latest: dict[str, EvalRecord] = {}
    for r in recs:
        latest[r.point_key] = r
    records = []
    for r in latest.values():
        extra = {"compile_time": r.compile_time, "benchmark_time": r.run_time,
                 "times": list(r.times) or ([r.time] if r.time is not None else []),
                 "timestamp": r.timestamp}
        records.append((r.point, r.result(), extra))
    evaluator = info.evaluator if isinstance(info.evaluator, dict) else {}
    return (space, records, dict(device_name=str(evaluator.get("device") or "unknown"),
                                 kernel_name=kernel_name or str(info.input_file or info.key),
                                 problem_size=info.problem)), len(records)


def _searched_files(db: str) -> list[tuple[str, str]]:
    """The files the database's searches read and wrote (an input, its best variant): an export
    given one of their names would overwrite the user's code."""
    try:
        with ResultsDB(db, create=False) as rdb:
            inputs = sorted({i.input_file for i in rdb.searches() if i.input_file})
    except (LooptxError, OSError, sqlite3.Error):
        return []               # not a database: the command says so where it opens it
    here = os.path.dirname(os.path.abspath(db))
    # a relative name was relative to where the search ran, most often the database's folder
    inputs = {p for path in inputs for p in (path, os.path.join(here, os.path.basename(path)))}
    out = []
    for path in sorted(inputs):
        base = os.path.splitext(path)[0]
        out += [(path, "the searched input file"), (base + ".best.c", "the search's best variant"),
                (base + ".best.cu", "the search's best variant")]
    return out


def report_command(args) -> int:
    """`looptx report DB [--csv [OUT]] [--json [OUT]] [--plot PNG] [--kernel-tuner CACHE]`:
    the top-variant tables on stdout unless an export goes to stdout."""
    import sys
    from looptx.search.db import SearchError

    if not os.path.exists(args.db):
        raise SearchError(f"no results database at '{args.db}'",
                          hint="give the FILE.looptx.db written by `looptx search`", file=args.db)
    if args.top < 1:
        raise SearchError(f"--top must be at least 1, got {args.top}", hint="e.g. --top 10")
    if args.plot:
        plot_format(args.plot)
    # Checked before anything is printed: an export that cannot be written is bad input.
    from looptx.outputs import refuse_overwrite
    if args.csv == "-" and args.json == "-":
        raise SearchError("--csv and --json would both write to stdout, one after the other",
                          hint="give one of them a file: --csv out.csv --json, or --csv --json out.json", file=args.db)
    exports = (("--csv", args.csv), ("--json", args.json), ("--plot", args.plot), ("--kernel-tuner", args.kernel_tuner))
    kept = [(args.db, "the results database")] + _searched_files(args.db)
    for k, (option, out) in enumerate(exports):
        refuse_overwrite(option, out, kept + [(path, f"the file {other} writes") for other, path in exports[:k]])
    for out in (args.csv, args.json, args.plot, args.kernel_tuner):
        if out and out != "-":
            folder = os.path.dirname(os.path.abspath(out))
            if not os.path.isdir(folder) or not os.access(folder, os.W_OK) or os.path.isdir(out):
                raise SearchError("cannot write here: the folder does not exist or is not writable"
                                  if not os.path.isdir(out) else "cannot write here: it is a folder",
                                  hint="give a file path in an existing, writable folder", file=out)
            from looptx.outputs import cannot_create
            why = cannot_create(out)
            if why:
                raise SearchError(f"cannot write here: {why}", hint="give another file path", file=out)
    with ResultsDB(args.db, create=False) as rdb:
        key = args.search
        if key is not None:
            rdb.require_search(key)
        if not rdb.searches():
            print(f"{args.db}: no searches recorded")
            return 0
        if args.kernel_tuner:
            rdb.require_search(key)    # a cache holds one search: ask which before writing anything
        to_stdout = "-" in (args.csv, args.json)
        if not to_stdout:
            sys.stdout.write(top_table(rdb, key, n=args.top))
        if args.csv is not None:
            n = export_csv(rdb, sys.stdout if args.csv == "-" else args.csv, key)
            if args.csv != "-":
                print(f"{n} evaluations written to {args.csv}")
        if args.json is not None:
            export_json(rdb, sys.stdout if args.json == "-" else args.json, key)
            if args.json != "-":
                print(f"evaluations written to {args.json}")
        if args.plot:
            lines = convergence_plot(rdb, args.plot, key)
            what = f"{lines} search{'' if lines == 1 else 'es'}" if lines else \
                "empty: no search has a measured evaluation yet"
            bare = "" if os.path.splitext(os.fspath(args.plot))[1] else " as PNG (the name has no extension)"
            print(f"convergence plot ({what}) written to {args.plot}{bare}", file=sys.stderr
                  if to_stdout else sys.stdout)
        if args.kernel_tuner:
            n = export_kernel_tuner_cache(rdb, key, args.kernel_tuner)
            print(f"{n} configurations written to {args.kernel_tuner} (Kernel Tuner cache format)",
                  file=sys.stderr if to_stdout else sys.stdout)
    return 0
