#!/usr/bin/env python3
"""Check the kernel corpus (tests/kernels/*.c) and the bad-input headers (tests/bad/*.c).

For every kernel, at both size sets of its `// sizes:` line:
  * builds it with gcc (-std=c99 -O1, warnings as errors) and runs it twice: exit 0, nothing on
    stderr, one `NAME <16 hex>` line per lx_dump call, identical output both times, < 0.3 s;
  * rebuilds it at -O0 and -O3 and with ASan+UBSan, and runs it under valgrind where installed:
    all must print the same bytes.  A region that read out of bounds, read an unset scalar or
    relied on undefined behaviour would show up here, which is what "pure" means for the
    lead's original-versus-transformed comparison;
  * parses the preprocessed file with pycparser (fake_libc/ stands in for glibc's headers).
Statically it also checks the header lines, the region markers, that every global array is
filled by lx_fill_*, and that the dumped arrays are exactly the arrays the region assigns.

Usage: python tests/kernels/check_corpus.py [-j JOBS] [NAME ...]     (exit 1 on any failure)
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
BAD_DIR = HERE.parent / "bad"
FAKE_LIBC = HERE / "fake_libc"
TIME_LIMIT_S = 0.3

SIZES_RE = re.compile(r"^// sizes: (.+?) \| (.+)$")
PAIR_RE = re.compile(r"^([A-Z][A-Z0-9_]*)=([1-9][0-9]*)$")
REGION_RE = re.compile(r"^// region: (pragma|chill|function ([A-Za-z_]\w*))$")
OUT_LINE_RE = re.compile(r"^([A-Za-z_]\w*) ([0-9a-f]{16})$")
DUMP_RE = re.compile(r'lx_dump\("(\w+)",\s*(\w+),\s*sizeof\s*\(?\s*(\w+)\s*\)?\)')
FILL_RE = re.compile(r"lx_fill_\w+\(\s*&?\s*(\w+)")
GLOBAL_ARRAY_RE = re.compile(r"^static\s+(?:double|float|int)\s+(\w+)\s*\[", re.M)
# An assignment to an array element: NAME[...]...[...] followed by =, +=, -=, *= or /=.
ARRAY_WRITE_RE = re.compile(r"\b([A-Za-z_]\w*)\s*((?:\[[^\[\]]*\]\s*)+)[-+*/]?=(?!=)")
CHILL_BEGIN_RE = re.compile(r"^\s*/\*@\s*begin\s+CHiLL\s*\(.*\)\s*@\*/\s*$", re.M)
CHILL_END_RE = re.compile(r"^\s*/\*@\s*end\s*@\*/\s*$", re.M)
PRAGMA_BEGIN_RE = re.compile(r"^\s*#\s*pragma\s+scop\s*$", re.M)
PRAGMA_END_RE = re.compile(r"^\s*#\s*pragma\s+endscop\s*$", re.M)

BASE_FLAGS = ["-std=c99", "-Wall", "-Wextra", "-Wno-unused-function", "-Wno-unknown-pragmas",
              "-Werror"]
SANITIZE_FLAGS = ["-fsanitize=address,undefined", "-fsanitize=float-cast-overflow",
                  "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"]
# (label, extra flags, run under valgrind)
VARIANTS = [
    ("O0", ["-O0"], False),
    ("O3", ["-O3"], False),
    ("asan+ubsan", ["-O1", *SANITIZE_FLAGS], False),
    ("valgrind", ["-O1", "-g"], True),
]

BAD_KEYWORDS = {
    "non-affine", "while", "pointer", "goto", "call", "end", "undeclared", "struct", "step",
    "iterator", "break", "return", "condition", "syntax", "region", "dereference", "address",
    "assignment", "increment",
}
BAD_EXPECT_RE = re.compile(r"^// expect: ([1-9][0-9]*):([1-9][0-9]*) ([a-z-]+)$")


@dataclass(frozen=True)
class Kernel:
    path: Path
    sizes: tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]
    region: str           # "pragma", "chill" or "function"
    function: str | None  # for region "function"


class Failure(Exception):
    pass


def parse_sizes(text: str, where: str) -> tuple[tuple[str, int], ...]:
    pairs = []
    for item in text.split():
        m = PAIR_RE.match(item)
        if not m:
            raise Failure(f"{where}: bad size item {item!r} (want NAME=POSITIVE_INT)")
        pairs.append((m.group(1), int(m.group(2))))
    names = [n for n, _ in pairs]
    if len(set(names)) != len(names):
        raise Failure(f"{where}: a size macro is named twice")
    return tuple(pairs)


def region_text(src: str, kernel: Kernel) -> str:
    """The region's source text, after checking that its markers match the declared style."""
    pb, pe = PRAGMA_BEGIN_RE.findall(src), PRAGMA_END_RE.findall(src)
    cb, ce = CHILL_BEGIN_RE.findall(src), CHILL_END_RE.findall(src)
    if kernel.region == "pragma":
        if len(pb) != 1 or len(pe) != 1 or cb or ce:
            raise Failure("want exactly one #pragma scop/endscop pair and no CHiLL marker")
        return src[PRAGMA_BEGIN_RE.search(src).end():PRAGMA_END_RE.search(src).start()]
    if kernel.region == "chill":
        if len(cb) != 1 or len(ce) != 1 or pb or pe:
            raise Failure("want exactly one CHiLL begin/end pair and no pragma")
        return src[CHILL_BEGIN_RE.search(src).end():CHILL_END_RE.search(src).start()]
    if pb or pe or cb or ce:
        raise Failure("region 'function' must have no marker")
    m = re.search(r"^static\s+void\s+" + re.escape(kernel.function) + r"\s*\([^)]*\)\s*\{", src,
                  re.M)
    if not m:
        raise Failure(f"function {kernel.function} not found")
    depth, k = 1, m.end()
    while depth:
        if k >= len(src):
            raise Failure(f"unbalanced braces in {kernel.function}")
        depth += {"{": 1, "}": -1}.get(src[k], 0)
        k += 1
    return src[m.end():k - 1]


def load_kernel(path: Path) -> Kernel:
    lines = path.read_text().splitlines()
    if len(lines) < 3:
        raise Failure(f"{path.name}: too short")
    m = SIZES_RE.match(lines[0])
    if not m:
        raise Failure(f"{path.name}:1: want `// sizes: N=32 M=24 | N=37 M=41`")
    s1 = parse_sizes(m.group(1), f"{path.name}:1")
    s2 = parse_sizes(m.group(2), f"{path.name}:1")
    if [n for n, _ in s1] != [n for n, _ in s2]:
        raise Failure(f"{path.name}:1: both size sets must name the same macros in the same order")
    for n, v in s1:
        if v % 8:
            raise Failure(f"{path.name}:1: first set must be divisible by 8 ({n}={v})")
    if all(v % 2 == 0 for _, v in s2):
        raise Failure(f"{path.name}:1: second set should hold odd sizes")
    r = REGION_RE.match(lines[1])
    if not r:
        raise Failure(f"{path.name}:2: want `// region: pragma|chill|function NAME`")
    kind = r.group(1).split()[0]
    return Kernel(path, (s1, s2), kind, r.group(2))


def static_checks(kernel: Kernel) -> list[str]:
    """Header/default consistency, fills and dumps; returns the dumped names in print order."""
    src = kernel.path.read_text()
    defaults = dict(re.findall(r"^#ifndef\s+(\w+)\s*\n#define\s+\1\s+(\d+)\s*\n#endif", src, re.M))
    declared = {n: v for n, v in kernel.sizes[0]}
    if set(defaults) != set(declared):
        raise Failure(f"sizes line names {sorted(declared)} but #ifndef defaults are "
                      f"{sorted(defaults)}")
    for n, v in declared.items():
        if int(defaults[n]) != v:
            raise Failure(f"default {n}={defaults[n]} differs from the first size set {v}")
    filled = set(FILL_RE.findall(src))
    for arr in GLOBAL_ARRAY_RE.findall(src):
        if arr not in filled:
            raise Failure(f"global array {arr} is never filled by lx_fill_*")
    dumps = DUMP_RE.findall(src)
    for label, arg, size in dumps:
        if arg != size or arg not in (label, "g_" + label):
            raise Failure(f"lx_dump label/array/sizeof disagree: {label}, {arg}, {size}")
    dumped = [d[0] for d in dumps]
    if not dumped or len(set(dumped)) != len(dumped):
        raise Failure("want one lx_dump per written array, each once")
    written = {m.group(1) for m in ARRAY_WRITE_RE.finditer(region_text(src, kernel))}
    if written != set(dumped):
        raise Failure(f"region writes {sorted(written)} but main dumps {sorted(dumped)}")
    return dumped


def build(src: Path, out: Path, sizes, flags) -> None:
    cmd = ["gcc", *flags, "-I", str(HERE), str(src), "-lm", "-o", str(out),
           *[f"-D{n}={v}" for n, v in sizes]]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise Failure(f"build failed: {' '.join(cmd)}\n{proc.stderr.strip()}")


def run(cmd: list[str], env=None) -> tuple[str, float]:
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0 or proc.stderr:
        raise Failure(f"{' '.join(cmd)}: exit {proc.returncode}\n{proc.stderr.strip()[:2000]}")
    return proc.stdout, elapsed


def check_output(out: str, dumped: list[str]) -> None:
    lines = out.splitlines()
    names = []
    for line in lines:
        m = OUT_LINE_RE.match(line)
        if not m:
            raise Failure(f"bad output line {line!r}")
        names.append(m.group(1))
    if names != dumped:
        raise Failure(f"output names {names} != lx_dump calls {dumped}")


def parse_check(kernel: Kernel, sizes) -> None:
    try:
        import pycparser
    except ImportError:
        return
    cmd = ["gcc", "-E", "-std=c99", "-nostdinc", "-I", str(FAKE_LIBC), "-I", str(HERE),
           *[f"-D{n}={v}" for n, v in sizes], str(kernel.path)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise Failure(f"preprocessing failed: {proc.stderr.strip()}")
    try:
        pycparser.CParser().parse(proc.stdout, kernel.path.name)
    except Exception as exc:  # pycparser raises its own ParseError; any failure is a finding
        raise Failure(f"pycparser cannot parse the preprocessed file: {exc}") from None


def check_kernel(kernel: Kernel, tmp: Path, use_valgrind: bool) -> str:
    dumped = static_checks(kernel)
    stem = kernel.path.stem
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1")
    report = []
    for set_no, sizes in enumerate(kernel.sizes, 1):
        parse_check(kernel, sizes)
        exe = tmp / f"{stem}.set{set_no}.O1"
        build(kernel.path, exe, sizes, [*BASE_FLAGS, "-O1"])
        first, t1 = run([str(exe)])
        second, t2 = run([str(exe)])
        check_output(first, dumped)
        if first != second:
            raise Failure(f"set {set_no}: output differs between two runs")
        best = min(t1, t2)
        if best >= TIME_LIMIT_S:
            raise Failure(f"set {set_no}: run takes {best:.3f} s (limit {TIME_LIMIT_S} s)")
        for label, flags, under_valgrind in VARIANTS:
            if under_valgrind and not use_valgrind:
                continue
            vexe = tmp / f"{stem}.set{set_no}.{label}"
            build(kernel.path, vexe, sizes, [*BASE_FLAGS, *flags])
            cmd = [str(vexe)]
            if under_valgrind:
                cmd = ["valgrind", "-q", "--error-exitcode=97", "--track-origins=yes", *cmd]
            out, _ = run(cmd, env=env)
            if out != first:
                raise Failure(f"set {set_no}: {label} build prints different results")
        report.append(f"set{set_no} {best * 1000:6.1f} ms")
    return ", ".join(report)


def check_bad(path: Path) -> None:
    lines = path.read_text().splitlines()
    m = BAD_EXPECT_RE.match(lines[0]) if lines else None
    if not m:
        raise Failure(f"{path.name}:1: want `// expect: LINE:COL keyword`")
    line, col, keyword = int(m.group(1)), int(m.group(2)), m.group(3)
    if keyword not in BAD_KEYWORDS:
        raise Failure(f"{path.name}:1: keyword {keyword!r} not in the agreed list")
    if not 2 <= line <= len(lines) or not 1 <= col <= len(lines[line - 1]):
        raise Failure(f"{path.name}:1: {line}:{col} is outside the file")
    if lines[line - 1][col - 1].isspace():
        raise Failure(f"{path.name}:1: {line}:{col} points at whitespace")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("names", nargs="*", help="kernel file stems to check (default: all)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--no-valgrind", action="store_true", help="skip the valgrind runs")
    args = ap.parse_args(argv)
    if shutil.which("gcc") is None:
        print("check_corpus: gcc not found", file=sys.stderr)
        return 1
    use_valgrind = not args.no_valgrind and shutil.which("valgrind") is not None
    paths = sorted(HERE.glob("*.c"))
    if args.names:
        paths = [p for p in paths if p.stem in args.names]
    failures = []
    kernels = []
    for p in paths:
        try:
            kernels.append(load_kernel(p))
        except Failure as exc:
            failures.append(str(exc))
    with tempfile.TemporaryDirectory(prefix="lx_corpus_") as tmpdir:
        def one(k: Kernel):
            try:
                return k, check_kernel(k, Path(tmpdir), use_valgrind), None
            except Failure as exc:
                return k, None, str(exc)
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for k, ok, err in pool.map(one, kernels):
                if err:
                    failures.append(f"{k.path.name}: {err}")
                    print(f"FAIL {k.path.name}")
                else:
                    print(f"ok   {k.path.name:<24} {k.region:<8} {ok}")
    if not args.names:
        bad = sorted(BAD_DIR.glob("*.c"))
        for p in bad:
            try:
                check_bad(p)
            except Failure as exc:
                failures.append(str(exc))
        print(f"bad-input headers: {len(bad)} files checked")
    notes = []
    if not use_valgrind:
        notes.append("valgrind runs skipped")
    try:
        import pycparser  # noqa: F401
    except ImportError:
        notes.append("pycparser not importable: parse check skipped")
    for note in notes:
        print(f"note: {note}")
    for f in failures:
        print(f"FAILURE: {f}", file=sys.stderr)
    print(f"{len(kernels)} kernels, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
