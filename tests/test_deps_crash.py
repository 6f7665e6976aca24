"""Regression: isl's dependence analysis used to crash with a segmentation fault (exit 139).

The program below is the minimized form of a fuzzer kernel.  With islpy 2026.2.2 the WAR/WAW
`compute_flow` of looptx.poly.deps crashed on it: the `j % 2` guard puts an integer division into
S0's domain; during a partial lexmax isl later holds a context set with two identical divisions
(floor((1 + N)/2) twice) and align_context_divs (isl_tab_pip.c) swaps div -1 (heap overflow in
isl_basic_map_swap_div).  compute_deps now lifts such divisions to ordinary dimensions before the
analysis (an exact bijection, see deps._lifting).

Everything that could crash runs in a subprocess, so that a regression fails these tests instead of
killing pytest.  The dependences are checked against a brute-force simulation of the program.
"""
import json
import subprocess
import sys
from pathlib import Path

import pytest

PROGRAM = """#ifndef N
#define N 6
#endif
#ifndef M
#define M 9
#endif
static double T[N + M + 4][N + M + 4][N + M + 4];
static void kernel(void)
{
#pragma scop
    for (int i = 0; i <= N; i++)
        for (int j = 0; j < M; j++) {
            if (j % 2 == 0)
                T[j + 3][i][N + M - i] = T[i][j][i + 2];
            for (int k = 0; k < N; k++)
                T[k + 3][k + 1][j + 1] = 1.0;
        }
#pragma endscop
}
"""

# (kind, source, sink, array, distance, carried_by), as `looptx deps --json` reports them.
EXPECTED = [
    ("RAW", 0, 0, "T", ["+", "0+"], ["i"]),
    ("WAR", 0, 0, "T", ["1", "-4"], ["i"]),
    ("WAR", 0, 1, "T", ["0", "3"], ["j"]),
    ("WAW", 0, 1, "T", ["0", "0+"], ["j"]),
    ("RAW", 1, 0, "T", ["1", "-3"], ["i"]),
    ("WAW", 1, 0, "T", ["1", "0-"], ["i"]),
    ("WAW", 1, 1, "T", ["1", "0", "0"], ["i"]),
]

# Prints the dependence relations of the program for fixed sizes, as lists of points.
POINTS = """
import json, sys
import islpy as isl
from looptx.frontend.cparse import parse_file
from looptx.poly import deps as D
scop = parse_file(sys.argv[1]).scops[0]
deps = D.compute_deps(scop)
out = []
for n, m in json.loads(sys.argv[2]):
    fix = isl.Set(f"[N, M] -> {{ : N = {n} and M = {m} }}")
    pts = {}
    for d in deps.items:
        key = f"{d.kind} {d.source} {d.sink}"
        rel = d.relation.intersect_params(fix)
        nin = rel.dim(isl.dim_type.in_)
        def add(p, key=key, nin=nin, w=rel.wrap()):
            v = [p.get_coordinate_val(isl.dim_type.set, k).to_python() for k in range(w.dim(isl.dim_type.set))]
            pts.setdefault(key, []).append([v[:nin], v[nin:]])
        rel.wrap().foreach_point(add)
    out.append({k: sorted(v) for k, v in pts.items()})
print(json.dumps(out))
"""

SIZES = [(6, 9), (5, 4), (4, 4)]


def cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "looptx", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


@pytest.fixture
def program(tmp_path) -> Path:
    src = tmp_path / "seg.c"
    src.write_text(PROGRAM)
    return src


def simulate(n: int, m: int) -> dict:
    """Memory-based direct dependences by running the program instance by instance: reads of an
    instance happen before its writes; a write kills the earlier accesses of its element."""
    last_write, readers, deps = {}, {}, {}

    def add(kind, src, dst):
        deps.setdefault(f"{kind} {src[0]} {dst[0]}", set()).add((src[1], dst[1]))

    def instance(stmt, it, reads, writes):
        me = (stmt, it)
        for e in reads:
            if e in last_write:
                add("RAW", last_write[e], me)
            readers.setdefault(e, set()).add(me)
        for e in writes:
            if e in last_write:
                add("WAW", last_write[e], me)
            for r in readers.get(e, ()):
                if r != me:
                    add("WAR", r, me)
            last_write[e], readers[e] = me, set()

    for i in range(n + 1):
        for j in range(m):
            if j % 2 == 0:
                instance(0, (i, j), [(i, j, i + 2)], [(j + 3, i, n + m - i)])
            for k in range(n):
                instance(1, (i, j, k), [], [(k + 3, k + 1, j + 1)])
    return {k: sorted([list(a), list(b)] for a, b in v) for k, v in deps.items()}


def test_deps_does_not_crash(program):
    p = cli("deps", "--json", str(program), cwd=program.parent)
    assert p.returncode == 0, (p.returncode, p.stdout[-2000:], p.stderr[-2000:])
    region = json.loads(p.stdout)["regions"][0]
    got = [(r["kind"], r["source"], r["sink"], r["array"], r["distance"], r["carried_by"])
           for r in region["dependences"]]
    assert got == EXPECTED
    loops = {lp["name"]: lp["parallel"] for lp in region["loops"]}
    assert loops == {"i": False, "j": False, "k": True}


def test_deps_are_exact(program):
    p = subprocess.run([sys.executable, "-c", POINTS, str(program), json.dumps(SIZES)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, (p.returncode, p.stderr[-2000:])
    for (n, m), got in zip(SIZES, json.loads(p.stdout)):
        assert got == simulate(n, m), (n, m)


def test_run_with_recipe(program, tmp_path):
    tile = tmp_path / "tile.yaml"
    tile.write_text("steps:\n  - tile: {stmt: 1, loop: k, size: 4}\n")
    p = cli("run", str(program), "--recipe", str(tile), "--repetitions", "1", cwd=tmp_path)
    assert p.returncode == 0 and ": ok" in p.stdout, (p.returncode, p.stdout, p.stderr)
    # The dependences still reject an illegal order (RAW carried by i).
    rev = tmp_path / "rev.yaml"
    rev.write_text("steps:\n  - reverse: {stmt: 0, loop: i}\n")
    p = cli("run", str(program), "--recipe", str(rev), "--repetitions", "1", cwd=tmp_path)
    assert p.returncode == 2 and "step 1 (reverse): error: S0(" in p.stderr and "(RAW on T)" in p.stderr, \
        (p.returncode, p.stderr)
