"""Summary of the GPU search runs written by benchmarks/gpu_search.sh: for each searcher, the best
variant it found, how good that variant is according to the exhaustive run (the same point's
exhaustively measured time, so run-to-run noise does not decide), its rank among all valid
points, the evaluations it needed to get within 5% of the optimum, and the wall time.

    python benchmarks/gpu_search_summary.py OUT_DIR"""
from __future__ import annotations

import math
import os
import sys
from collections import Counter

from looptx.search.db import ResultsDB


def load(path):
    with ResultsDB(path, create=False) as rdb:
        info = rdb.searches()[0]
        return info, rdb.evaluations(info.key)


def main(out: str) -> None:
    walls = {}
    if os.path.exists(os.path.join(out, "walltimes.txt")):
        for line in open(os.path.join(out, "walltimes.txt")):
            parts = line.split()
            if len(parts) >= 2:
                walls[parts[0]] = float(parts[1])
    exh_path = os.path.join(out, "exhaustive.db")
    if not os.path.exists(exh_path):
        print("no exhaustive.db: nothing to compare against")
        return
    info, exh = load(exh_path)
    truth = {r.point_key: r.time for r in exh if r.ok}
    ranked = sorted(truth.values())
    opt = ranked[0]
    n_valid = len(exh)
    print(f"space: {info.input_file}, {n_valid} points, {len(truth)} valid variants "
          f"({', '.join(f'{k} {v}' for k, v in sorted(Counter(r.status for r in exh).items()))}), "
          f"device {(info.evaluator or {}).get('device')}")
    print(f"optimum {opt * 1e3:.4f} ms; median variant {ranked[len(ranked) // 2] * 1e3:.4f} ms; worst {ranked[-1] * 1e3:.4f} ms")
    print(f"{'run':<12}{'evals':>6}{'best (own)':>12}{'best (exh)':>12}{'opt/best':>10}{'rank':>7}"
          f"{'evals@5%':>10}{'wall s':>9}  statuses")
    names = ["exhaustive"] + sorted(os.path.basename(p)[:-3] for p in os.listdir(out)
                                    if p.endswith(".db") and p != "exhaustive.db")
    for name in names:
        _, recs = load(os.path.join(out, f"{name}.db"))
        ok = [r for r in recs if r.ok]
        if not ok:
            print(f"{name:<12}{len(recs):>6}  no valid variant")
            continue
        own = min(ok, key=lambda r: r.time)
        true_t = truth.get(own.point_key, math.nan)
        rank = 1 + sum(1 for t in ranked if t < true_t) if math.isfinite(true_t) else -1
        hit = next((i + 1 for i, r in enumerate(recs)
                    if r.ok and truth.get(r.point_key, math.inf) <= 1.05 * opt), None)
        counts = ", ".join(f"{k} {v}" for k, v in sorted(Counter(r.status for r in recs).items()))
        print(f"{name:<12}{len(recs):>6}{own.time * 1e3:>10.4f}ms{true_t * 1e3:>10.4f}ms"
              f"{opt / true_t:>10.3f}{rank:>7}{hit if hit else '-':>10}"
              f"{walls.get(name, math.nan):>9.1f}  {counts}")


if __name__ == "__main__":
    usage = "usage: " + __doc__.strip().splitlines()[-1].strip()
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        sys.exit(usage)
    if not os.path.isdir(sys.argv[1]):
        sys.exit(f"gpu_search_summary.py: no folder {sys.argv[1]!r} ({usage})")
    main(sys.argv[1])
