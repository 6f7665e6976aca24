"""Gaps found in session 73 (and left open by probes 216-222)."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_cli, runs_ok

DATA = Path(__file__).parent / "data" / "gaps73"
REVERSE_SKEW_PERMUTE = "reverse([0],2)\nskew([0],2,[1,1])\npermute([0],[2,1])\n"


def test_a_chill_skew_of_a_reversed_loop_skews_its_schedule_value(tmp_path):
    """Probe 220 G1: CHiLL's reverse is scale by -1, and its skew sums the levels' values, so
    after reverse([0],2), skew([0],2,[1,1]) orders by i - j; looptx skewed the loop's own
    counter (i + j, negated) and refused the permutation that CHiLL's order makes legal for
    A[i][j] = A[i-1][j-1]."""
    (tmp_path / "r.script").write_text(REVERSE_SKEW_PERMUTE)
    runs_ok(DATA / "diag.c", tmp_path / "r.script", (2, 13))
    rc, out, err = run_cli("transform", DATA / "diag.c", "--recipe", tmp_path / "r.script")
    assert rc == 0 and "skew: {stmt: 0, loop: 2, by: {1: 1}, chill: True}" in out, err
    # the same steps in YAML skew the counter: i + j, which the permutation reverses
    (tmp_path / "r.yaml").write_text("steps:\n  - reverse: {stmt: 0, loop: j}\n  - skew: {stmt: 0, loop: j, by: {i: 1}}\n"
                                     "  - permute: {stmt: 0, order: [j, i]}\n")
    rc, _, err = run_cli("transform", DATA / "diag.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and "step 3 (permute)" in err and "RAW on A" in err, err
    # the header's steps, given again as YAML, are the script's
    (tmp_path / "h.yaml").write_text("steps:\n  - reverse: {stmt: 0, loop: 2}\n"
                                     "  - skew: {stmt: 0, loop: 2, by: {1: 1}, chill: true}\n"
                                     "  - permute: {stmt: 0, order: [2, 1]}\n")
    rc, again, err = run_cli("transform", DATA / "diag.c", "--recipe", tmp_path / "h.yaml")
    assert rc == 0 and again.split("*/", 1)[1] == out.split("*/", 1)[1], err


def test_a_chill_shift_of_a_reversed_loop_moves_its_schedule_value(tmp_path):
    """shift([0],2,3) after reverse([0],2): the schedule's value -j moves to -j + 3, so the
    counter runs 3 lower (CHiLL); a YAML shift moves the counter itself, 3 higher."""
    (tmp_path / "s.script").write_text("reverse([0],2)\nshift([0],2,3)\n")
    rc, out, err = run_cli("transform", DATA / "plain.c", "--recipe", tmp_path / "s.script")
    assert rc == 0 and "for (int j = n - 4; j >= -3; j--)" in out and "A[i][j + 3]" in out, out + err
    (tmp_path / "s.yaml").write_text("steps:\n  - reverse: {stmt: 0, loop: j}\n  - shift: {stmt: 0, loop: j, by: 3}\n")
    rc, out, err = run_cli("transform", DATA / "plain.c", "--recipe", tmp_path / "s.yaml")
    assert rc == 0 and "for (int j = n + 2; j > 2; j--)" in out and "A[i][j - 3]" in out, out + err
    runs_ok(DATA / "plain.c", tmp_path / "s.script", (1, 6))


@pytest.mark.parametrize("steps, first", [
    ("  - peel: {stmt: 0, loop: i, first: 2}\n  - shift_to: {stmt: 0, loop: i, to: 5}\n", "for (int i = 7; i <= n + 4; i++)"),
    ("  - split: {stmt: 0, loop: i, at: \"4\"}\n  - shift_to: {stmt: 0, loop: i, to: 1}\n", "for (int i = 1; i <= lx_min(4, n); i++)"),
    ("  - peel: {stmt: 0, loop: j, first: 2}\n  - shift_to: {stmt: 0, loop: j, to: 0}\n", "for (int j = 2; j < n; j++)")])
def test_shift_to_after_a_peel_or_split_moves_the_loops_copies_together(tmp_path, steps, first):
    """Probe 220 G2: after a peel, shift_to took the start of each copy of the loop (0, 1, then
    2) for a start that varies with the loops around it, and refused.  The copies move
    together, as a shift moves them: the first of their iterations starts at `to`."""
    (tmp_path / "r.yaml").write_text("steps:\n" + steps)
    rc, out, err = run_cli("transform", DATA / "plain.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 0 and first in out, out + err
    runs_ok(DATA / "plain.c", tmp_path / "r.yaml", (1, 2, 7))


def test_distribute_after_a_peel_and_a_fuse_separates_the_fused_loop(tmp_path):
    """Probe 220 G3: peel S0's first i, fuse S0 and S1, distribute them: the note said they
    were already in separate loops (S0's loop holds its peeled copy too), and they stayed in
    one loop."""
    (tmp_path / "r.yaml").write_text("steps:\n  - peel: {stmt: 0, loop: i, first: 1}\n  - fuse: {stmts: [0, 1], loop: i}\n"
                                     "  - distribute: {stmts: [0, 1], loop: i}\n")
    rc, out, err = run_cli("transform", DATA / "two_loops.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 0 and "already" not in err, err
    assert "for (int i = 1; i < n; i++)\n      a[i] = b[i] * 2.0;\n    for (int i = 0; i < n; i++)\n      c[i]" in out, out
    runs_ok(DATA / "two_loops.c", tmp_path / "r.yaml", (1, 2, 5))


@pytest.mark.parametrize("steps, blamed", [
    ("  - pragma: {stmt: 0, loop: i, text: \"omp parallel for collapse(2)\"}\n  - unroll: {stmt: 0, loop: j, factor: 4}\n",
     "step 2 (unroll)"),
    ("  - unroll: {stmt: 0, loop: j, factor: 4}\n  - pragma: {stmt: 0, loop: i, text: \"omp parallel for collapse(2)\"}\n",
     "step 2 (pragma)")])
def test_a_collapse_that_the_code_written_breaks_is_refused_at_its_step(tmp_path, steps, blamed):
    """Probe 222 G1: a collapse(2) over a loop whose unroll leaves a remainder loop was refused
    at the C file's region (k.c:3:1), not at the step: the pragma's, or the unroll after it that
    broke the nest.  `run` at a size the factor divides has no remainder and runs."""
    (tmp_path / "r.yaml").write_text("steps:\n" + steps)
    for argv in ((), ("-D", "n=10")):
        rc, out, err = run_cli("transform" if not argv else "run", DATA / "plain.c", "--recipe", tmp_path / "r.yaml", *argv)
        assert rc == 2 and err.startswith(f"{tmp_path / 'r.yaml'}:3: {blamed}: error: '#pragma omp parallel for "
                                          "collapse(2)' collapses 2 loops"), err
        assert "divides the loop's trip count" in err and err.count("\n") == 1
    rc, out, err = run_cli("run", DATA / "plain.c", "--recipe", tmp_path / "r.yaml", "-D", "n=12")
    assert rc == 0 and ": ok" in out, out + err
