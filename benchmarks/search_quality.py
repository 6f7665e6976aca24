#!/usr/bin/env python
"""Search quality of the looptx searchers on recorded (exhaustively measured) spaces.

Every searcher is replayed on every space for many seeds; the tables give F@n, S@n and
hit5@n (looptx/search/metrics.py defines them) with 95% confidence intervals, next to the exact
expectation for random search without replacement.  Budgets count unique evaluations,
failures included.

    .venv/bin/python benchmarks/search_quality.py --jobs 2
    .venv/bin/python benchmarks/search_quality.py --searchers surf+,random --seeds 20 \
        --only convolution --option surf+:n_init=10
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from looptx.search.registry import available_searchers# noqa: E402
from looptx.search.metrics import (best_curve, mean_ci, random_curve, random_scores,  # noqa: E402
                                   score_run)
from looptx.search.replay import load_recorded_space, replay  # noqa: E402

# the issue's recorded Kernel Tuner spaces (beside the repository on the maintainers' machines),
# else the repository's own recorded spaces
_SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "spaces"
DEFAULT_SPACES = _SHARED if _SHARED.is_dir() else Path(__file__).resolve().parent.parent / "search"
TRIVIAL_F50 = 0.98  # random search's expected F@50 above this: the space is easy
NONTRIVIAL = "non-trivial spaces (random's F@50 < 0.98)"


def find_spaces(directory: Path, only: list[str]) -> list[tuple[str, str, str | None]]:
    out = []
    for path in sorted(directory.glob("*.json*")):
        if path.name.startswith("t1_") or not path.name.endswith((".json", ".json.gz")):
            continue
        name = path.name.split(".json")[0]
        if only and not any(o in name for o in only):
            continue
        family = name.split("_")[0]
        t1 = sorted(directory.glob(f"t1_{family}.json")) + sorted(directory.glob(f"t1_{family}_*.json"))
        out.append((name, str(path), str(t1[0]) if t1 else None))
    return out


_RECORDED: dict = {}


def _recorded(path: str, t1: str | None):
    key = (path, t1)
    if key not in _RECORDED:
        _RECORDED[key] = load_recorded_space(path, t1)
    return _RECORDED[key]


def _run(task):
    space_name, path, t1, label, searcher, seed, budget, batch, options = task
    rec = _recorded(path, t1)
    trace = replay(rec, searcher, seed=seed, max_evals=budget, batch_size=batch, options=options)
    values = [r.value if r.ok else math.inf for _, r, _ in trace]
    return space_name, label, seed, values, trace.searcher_time


def _parse_value(text: str):
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def _fmt(mean: float, hw: float | None, digits: int = 3) -> str:
    if hw is None:
        return f"{mean:.{digits}f}"
    return f"{mean:.{digits}f}±{hw:.{digits}f}"


def _table(rows: list[tuple[str, dict]], budgets: list[int]) -> list[str]:
    head = (["searcher"] + [f"F@{n}" for n in budgets] + [f"S@{n}" for n in budgets]
            + [f"hit5@{n}" for n in budgets])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for label, m in rows:
        cells = [label]
        for metric, digits in (("F", 3), ("S", 2), ("hit5", 2)):
            for n in budgets:
                mean, hw = m[metric][n]
                cells.append(_fmt(mean, hw, digits))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--spaces", type=Path, default=DEFAULT_SPACES,
                    help="folder of Kernel Tuner caches (default ../shared/data/spaces)")
    ap.add_argument("--only", default="", help="comma-separated substrings of space names")
    ap.add_argument("--searchers", default=",".join(available_searchers()))
    ap.add_argument("--seeds", type=int, default=50)
    ap.add_argument("--budgets", default="25,50,100,200")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--batch", action="append", default=None, metavar="SEARCHER:BS",
                    help="also run SEARCHER with batch size BS (default surf+:8; 'none' for none)")
    ap.add_argument("--option", action="append", default=[], metavar="SEARCHER:KEY=VALUE")
    ap.add_argument("--markdown", type=Path, default=None, help="also write the tables here")
    args = ap.parse_args(argv)

    budgets = sorted(int(b) for b in args.budgets.split(","))
    B = max(budgets)
    only = [o for o in args.only.split(",") if o]
    spaces = find_spaces(args.spaces, only)
    if not spaces:
        print(f"no recorded spaces in {args.spaces}", file=sys.stderr)
        return 2
    searchers = [s for s in args.searchers.split(",") if s]
    options: dict[str, dict] = defaultdict(dict)
    for opt in args.option:
        name, _, kv = opt.partition(":")
        key, _, value = kv.partition("=")
        options[name][key] = _parse_value(value)
    batches = args.batch if args.batch is not None else ["surf+:8"]
    variants = [(s, s, 1) for s in searchers]
    for b in batches:
        if b.lower() == "none":
            continue
        name, _, bs = b.partition(":")
        variants.append((f"{name} (bs={bs})", name, int(bs)))

    tasks = [(sn, path, t1, label, s, seed, B, bs, options.get(s, {}))
             for label, s, bs in variants for sn, path, t1 in spaces for seed in range(args.seeds)]
    # Model-based runs are the slow ones: start them first so the pool ends evenly.
    tasks.sort(key=lambda t: 0 if t[4].startswith("surf") else 1)
    t0 = time.time()
    curves: dict[tuple[str, str], list] = defaultdict(list)
    own: dict[str, list] = defaultdict(list)
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as ex:
            results = list(ex.map(_run, tasks, chunksize=1))
    else:
        results = [_run(t) for t in tasks]
    for sn, label, seed, values, wall in results:
        curves[(sn, label)].append((seed, values))
        own[label].append(wall / max(1, len(values)))
    elapsed = time.time() - t0

    out: list[str] = []

    def emit(line=""):
        out.append(line)
        print(line)

    emit(f"# Search quality on recorded spaces ({args.seeds} seeds, budgets {budgets})")
    emit()
    emit("F@n = mean optimum/best after n evaluations; S@n = best-so-far curve normalised "
         "(exact random search = 0, optimum = 1) averaged over 1..n; hit5@n = share of runs "
         "within 5% of the optimum. ± = 95% confidence interval over seeds; the random row is "
         "the exact expectation.")
    per_space: dict[str, dict[str, dict]] = {}
    trivial: dict[str, bool] = {}
    for sn, path, t1 in spaces:
        rec = _recorded(path, t1)
        rand = random_curve(rec.times, B)
        rs = random_scores(rec.times, budgets)
        trivial[sn] = rs.F[50] >= TRIVIAL_F50 if 50 in rs.F else False
        rows = [("random (exact)", {"F": {n: (rs.F[n], None) for n in budgets},
                                    "S": {n: (0.0, None) for n in budgets},
                                    "hit5": {n: (rs.hit5[n], None) for n in budgets}})]
        per_space[sn] = {}
        for label, _, _ in variants:
            runs = sorted(curves[(sn, label)])
            scores = [score_run(best_curve(v, B), rec.times, budgets, rand) for _, v in runs]
            m = {metric: {n: mean_ci([getattr(s, metric)[n] for s in scores]) for n in budgets}
                 for metric in ("F", "S", "hit5")}
            per_space[sn][label] = m
            rows.append((label, m))
        per_space[sn]["random (exact)"] = rows[0][1]
        emit()
        emit(f"## {sn}  (valid {rec.n_valid}, failing {sum(1 for t in rec.times if not math.isfinite(t))}"
             f"{', easy' if trivial[sn] else ''})")
        emit()
        for line in _table(rows, budgets):
            emit(line)

    averages: dict[str, dict] = {}

    def average(names: list[str], title: str):
        if not names:
            return
        labels = ["random (exact)"] + [v[0] for v in variants]
        rows = []
        for label in labels:
            m = {}
            for metric in ("F", "S", "hit5"):
                m[metric] = {}
                for n in budgets:
                    cells = [per_space[s][label][metric][n] for s in names]
                    mean = float(np.mean([c[0] for c in cells]))
                    hws = [c[1] for c in cells]
                    hw = None if any(h is None for h in hws) else float(
                        math.sqrt(sum(h * h for h in hws)) / len(hws))
                    m[metric][n] = (mean, hw)
            rows.append((label, m))
        averages[title] = dict(rows)
        emit()
        emit(f"## Average: {title} ({len(names)} spaces: {', '.join(names)})")
        emit()
        for line in _table(rows, budgets):
            emit(line)

    names = [s[0] for s in spaces]
    families = sorted({n.split("_")[0] for n in names})
    for fam in families:
        average([n for n in names if n.split("_")[0] == fam], fam)
    nontrivial = [n for n in names if not trivial[n]]
    average(nontrivial, NONTRIVIAL)
    for fam in families:
        average([n for n in nontrivial if n.split("_")[0] == fam], f"non-trivial {fam}")

    emit()
    emit("## Checks")
    emit()
    hard = averages.get(NONTRIVIAL)
    if hard and "surf+" in hard and {50, 100, 200} <= set(budgets):
        m = hard["surf+"]
        emit(f"- issue 6 targets, surf+ averaged over the non-trivial spaces: "
             f"S@200 = {m['S'][200][0]:.2f} (>= 0.5), S@50 = {m['S'][50][0]:.2f} (>= 0.2), "
             f"F@100 = {m['F'][100][0]:.3f} (>= 0.96)")
    for label, _, _ in variants:
        worse = [sn for sn in names if per_space[sn][label]["S"][B][0] <= 0]
        emit(f"- {label}: S@{B} <= 0 (not above random) on "
             f"{', '.join(worse) if worse else 'no space'}; "
             f"searcher time {1000 * float(np.mean(own[label])):.1f} ms per evaluation")
    emit(f"- wall time of this benchmark: {elapsed:.0f} s with {args.jobs} processes")
    if args.markdown:
        args.markdown.write_text("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
