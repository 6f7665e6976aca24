"""Probe 65, section 1: time-skewed tiling of seidel-2d followed by unroll_jam ran for minutes
at symbolic sizes.  The guard pruning after unrolling read each loop's `max(...)`/`min(...)`
bounds into isl whole, which isl turns into one piece per argument: under four skewed tile
loops that is thousands of pieces per emptiness check, several seconds each."""
import subprocess
import sys

import pytest

from conftest import run_cli

SEIDEL = """#define N 40
static void kernel_seidel_2d(int tsteps, int n, double A[N][N])
{
  int t, i, j;
#pragma scop
  for (t = 0; t <= tsteps - 1; t++)
    for (i = 1; i <= n - 2; i++)
      for (j = 1; j <= n - 2; j++)
        A[i][j] = (A[i-1][j-1] + A[i-1][j] + A[i-1][j+1]
                   + A[i][j-1] + A[i][j] + A[i][j+1]
                   + A[i+1][j-1] + A[i+1][j] + A[i+1][j+1]) / 9.0;
#pragma endscop
}
"""

TILED = """  - tile: {stmt: 0, loop: t, size: %d, control: tt}
  - tile: {stmt: 0, loop: i, size: %d, control: ii}
  - tile: {stmt: 0, loop: j, size: %d, control: jj}
  - permute: {stmt: 0, order: [tt, ii, jj, t, i, j]}
  - unroll_jam: {stmt: 0, loop: i, factor: 2}
"""

# recipe and the bound on its transform, in seconds (a few seconds now: room for a loaded machine)
RECIPES = {
    # Pluto's time skew: did not finish in 200 s before
    "nonsingular": (60, "steps:\n  - nonsingular: {stmt: 0, matrix: [[1, 0, 0], [1, 1, 0], [2, 1, 1]]}\n"
                    + TILED % (3, 5, 7)),
    # the same by two skews: 47 s before
    "skew": (30, "steps:\n  - skew: {stmt: 0, loop: i, by: {t: 1}}\n  - skew: {stmt: 0, loop: j, by: {t: 2, i: 1}}\n"
             + TILED % (4, 8, 6)),
}


def _files(tmp_path, which):
    f, r = tmp_path / "seidel2d.c", tmp_path / "r.yaml"
    f.write_text(SEIDEL)
    r.write_text(RECIPES[which][1])
    return f, r


@pytest.mark.parametrize("which", sorted(RECIPES))
def test_skewed_tiles_with_unroll_jam_transform_in_bounded_time(tmp_path, which):
    # a process of its own so that a regression fails at the bound instead of hanging the suite
    f, r = _files(tmp_path, which)
    bound = RECIPES[which][0]
    try:
        p = subprocess.run([sys.executable, "-m", "looptx", "transform", str(f), "--recipe", str(r)],
                           capture_output=True, text=True, timeout=bound)
    except subprocess.TimeoutExpired:
        pytest.fail(f"looptx transform of seidel-2d ({which} skew, tiles, unroll_jam) ran past {bound} s")
    assert p.returncode == 0 and "for (" in p.stdout, p.stderr


@pytest.mark.parametrize("sizes", [("tsteps=6", "n=37"), ("tsteps=7", "n=23")])
def test_nonsingular_tiles_with_unroll_jam_validate(tmp_path, sizes):
    # 6 and 35 interior points divide the tiles 3, 5, 7 of the original loops; 7 and 21 do not
    # (in the skewed space no size divides them all: both give partial jam strips)
    f, r = _files(tmp_path, "nonsingular")
    rc, out, err = run_cli("run", f, "--recipe", r, *(x for s in sizes for x in ("-D", s)))
    assert rc == 0 and ": ok " in out, out + err
