"""`registers` at a loop where one reference of the array varies with it and another does
not (NPB BT's back-substitution `rhs[i][j][m] -= lhs[i][j][m][p] * rhs[i+1][j][p]` at p): the
invariant accumulator goes to registers, the varying read stays in memory, as CHiLL's scalar
replacement does; where the two may meet and one is written, the step is refused."""
from pathlib import Path

import pytest

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "registers"


def _recipe(tmp_path, *steps):
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps))
    return r


def test_the_invariant_reference_is_kept_and_the_varying_one_stays(tmp_path):
    r = _recipe(tmp_path, "registers: {stmt: 0, array: rhs, at: p}")
    rc, out, err = run_cli("transform", DATA / "bt_backsub.c", "--recipe", r)
    assert rc == 0, err
    assert "rhs_r = rhs[i][j][m];" in out and "rhs_r = rhs_r - lhs[i][j][m][p] * rhs[i + 1][j][p];" in out, out
    assert "rhs[i][j][m] = rhs_r;" in out, out
    assert "rhs[i + 1][j][p] varies with 'p' and stays in memory" in err, err


@pytest.mark.parametrize("n", [9, 12])
def test_validated_after_tiling_and_unroll_and_jam(tmp_path, n):
    r = _recipe(tmp_path, "tile: {stmt: 0, loop: j, size: 4}", "unroll: {stmt: 0, loop: m, factor: 2}",
                "registers: {stmt: 0, array: rhs, at: p}")
    rc, out, err = run_cli("run", DATA / "bt_backsub.c", "--recipe", r, "-D", f"n={n}", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


def test_a_varying_reference_that_meets_a_written_register_is_refused(tmp_path):
    r = _recipe(tmp_path, "registers: {stmt: 0, array: a, at: j}")
    rc, out, err = run_cli("transform", DATA / "overlap.c", "--recipe", r)
    assert rc == 2 and "a[j] varies with loop 'j' and reaches elements that a[i] keeps in registers" in err, err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_an_argument_named_loop_suggests_at(tmp_path):
    r = _recipe(tmp_path, "registers: {stmt: 0, array: rhs, loop: p}")
    rc, out, err = run_cli("transform", DATA / "bt_backsub.c", "--recipe", r)
    assert rc == 2 and "did you mean 'at'?" in err, err
