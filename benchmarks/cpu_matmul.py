"""CPU benchmark: matmul N^3 (double), the original at gcc -O3 against the recipe
recipes/cpu/matmul.yaml (tiles + unroll-and-jam + registers), both measured in this run.

Prints a table of median times over --runs runs, GFLOP/s, the speed-up, and whether the
checksums agree (exact legality keeps the update order, so they must be identical)."""
from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from looptx.pipeline import transform_file  # noqa: E402


def build_and_time(src: Path, n: int, cflags: list[str], runs: int, tmp: Path) -> tuple[float, str]:
    exe = tmp / (src.stem + ".exe")
    subprocess.run(["gcc", *cflags, f"-DN={n}", str(src), "-o", str(exe)], check=True)
    times, checksum = [], None
    for _ in range(runs):
        out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
        m = re.search(r"time ([\d.]+) s .* checksum (\S+)", out)
        times.append(float(m.group(1)))
        checksum = m.group(2)
    return statistics.median(times), checksum


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=1024)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--recipe", default=str(ROOT / "recipes/cpu/matmul.yaml"))
    ap.add_argument("--cflags", default="-O3")
    args = ap.parse_args()
    cflags = args.cflags.split() + ["-w"]
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        orig = ROOT / "examples/matmul.c"
        variant = tmp / "matmul_tuned.c"
        variant.write_text(transform_file(str(orig), recipe=args.recipe))
        t0, c0 = build_and_time(orig, args.n, cflags, args.runs, tmp)
        t1, c1 = build_and_time(variant, args.n, cflags, args.runs, tmp)
    flops = 2.0 * args.n ** 3
    print(f"matmul {args.n}^3 double, gcc {' '.join(cflags)}, one core, median of {args.runs}")
    print(f"{'version':<28}{'time s':>10}{'GFLOP/s':>10}{'ratio':>8}")
    print(f"{'original':<28}{t0:>10.3f}{flops / t0 * 1e-9:>10.2f}{1.0:>8.2f}")
    print(f"{'recipes/cpu/matmul.yaml':<28}{t1:>10.3f}{flops / t1 * 1e-9:>10.2f}{t0 / t1:>8.2f}")
    print(f"checksums {'identical' if c0 == c1 else 'DIFFER: ' + c0 + ' vs ' + c1}")


if __name__ == "__main__":
    main()
