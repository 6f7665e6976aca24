"""Core speed: parse + exact dependences + identity code generation, median of N runs.

Prints one row per kernel (target: < 200 ms each for the 7-deep sd_t kernel and heat-3d)."""
from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from looptx.frontend.cparse import parse_file
from looptx.pipeline import c_block
from looptx.poly.deps import compute_deps
from looptx.poly.variant import original

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ["tests/kernels/sd_t_d1_1.c", "tests/kernels/sd_t_d2_1.c", "tests/kernels/heat-3d.c",
           "tests/kernels/matmul.c", "tests/kernels/lu.c"]


def once(path: str) -> tuple[float, float, float]:
    t0 = time.perf_counter()
    program = parse_file(path)
    t1 = time.perf_counter()
    for scop in program.scops:
        compute_deps(scop)
    t2 = time.perf_counter()
    for scop in program.scops:
        c_block(original(scop))
    t3 = time.perf_counter()
    return t1 - t0, t2 - t1, t3 - t2


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("files", nargs="*", default=DEFAULT)
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()
    print(f"{'kernel':<22}{'parse ms':>10}{'deps ms':>10}{'codegen ms':>12}{'total ms':>10}  (median of {args.runs})")
    for f in args.files:
        path = str(ROOT / f) if not Path(f).is_absolute() else f
        once(path)                                   # warm-up: imports, isl initialisation
        runs = [once(path) for _ in range(args.runs)]
        parse, deps, gen = (statistics.median(r[k] for r in runs) * 1e3 for k in range(3))
        total = statistics.median(sum(r) for r in runs) * 1e3
        flag = "" if total < 200 else "  (over the 200 ms target)"
        print(f"{Path(f).stem:<22}{parse:>10.1f}{deps:>10.1f}{gen:>12.1f}{total:>10.1f}{flag}")


if __name__ == "__main__":
    main()
