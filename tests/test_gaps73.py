"""Gaps found in session 73 (and left open by probes 216-222)."""
from __future__ import annotations

from pathlib import Path

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
