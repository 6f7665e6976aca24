"""`distribute {groups}` with a group that is not contiguous in the loop's body: each group is
one copy of the loop holding exactly its statements, the copies run in the order the groups are
listed, and that order is checked against the dependences (Kastner's FIR fission into a shift
loop {S2, S3} and a multiply-accumulate loop {S1, S4})."""
from pathlib import Path

import pytest

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "distribute_noncontiguous"


def _recipe(tmp_path, *steps):
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps))
    return r


def _in_order(out: str, *texts: str) -> None:
    """The texts occur in this order in the region's code (the header comment repeats the recipe)."""
    pos = out.index("#pragma scop") if "#pragma scop" in out else out.index("*/")
    for t in texts:
        found = out.find(t, pos)
        assert found >= 0, (t, out[pos:])
        pos = found + len(t)


def _runs_ok(path, recipe, define, sizes, *argv):
    for n in sizes:
        rc, out, err = run_cli("run", path, "--recipe", recipe, *argv, "-D", f"{define}={n}", "--repetitions", "1")
        assert rc == 0 and ": ok" in out, (n, out + err)


@pytest.mark.parametrize("groups, loops", [
    ("[[0, 2], [1]]", ["a[i] =", "c[i] =", "|", "b[i] ="]),
    ("[[1], [0, 2]]", ["b[i] =", "|", "a[i] =", "c[i] ="]),
])
def test_a_split_group_is_one_copy_in_the_listed_order(tmp_path, groups, loops):
    rc, out, err = run_cli("transform", DATA / "three.c", "--recipe",
                           _recipe(tmp_path, f"distribute: {{groups: {groups}, loop: i}}"))
    assert rc == 0, err
    assert out.count("for (i = 1;") == 2, out
    _in_order(out, "for (i = 1;", *[t if t != "|" else "for (i = 1;" for t in loops])


def test_the_copies_tile_as_wholes_and_validate(tmp_path):
    # 8, 9 and 13 iterations of i: tiles of 4 and 3 fit none, one or both
    r = _recipe(tmp_path, "distribute: {groups: [[0, 2], [1]], loop: i}",
                "tile: {stmt: 0, loop: i, size: 4}", "tile: {stmt: 1, loop: i, size: 3}")
    rc, out, err = run_cli("transform", DATA / "three.c", "--recipe", r)
    assert rc == 0, err
    assert out.count("for (int ii") == 2 and out.count("for (i = ") == 2, out
    _in_order(out, "for (int ii", "for (i = ", "a[i] =", "c[i] =", "for (int ii", "for (i = ", "b[i] =")
    _runs_ok(DATA / "three.c", r, "n", [9, 10, 14])


def test_a_statement_in_no_group_follows_the_copy_of_the_one_before_it(tmp_path):
    r = _recipe(tmp_path, "distribute: {groups: [[0, 2], [1]], loop: i}", "tile: {stmt: 3, loop: i, size: 4}")
    rc, out, err = run_cli("transform", DATA / "four.c", "--recipe", r)
    assert rc == 0, err
    assert out.count("for (i = ") == 3, out
    _in_order(out, "for (i = ", "a[i] =", "c[i] =", "for (int ii", "for (i = ", "e[i] =", "for (i = ", "b[i] =")
    _runs_ok(DATA / "four.c", r, "n", [9, 12])


def test_an_order_of_groups_that_reverses_a_dependence_is_refused(tmp_path):
    r = _recipe(tmp_path, "distribute: {groups: [[2], [0, 1]], loop: i}")
    rc, out, err = run_cli("transform", DATA / "three.c", "--recipe", r)
    assert rc == 2 and out == "", out + err
    assert err.count("\n") == 1 and err.startswith(f"{r}:2: step 1 (distribute): error: "), err
    assert "RAW on a" in err and "in the order the groups are listed" in err, err


def test_the_fir_loop_fission_into_shift_and_mac_loops(tmp_path):
    # the loop has N - 1 iterations besides i == 0: 10 and 12, tiles of 4 and 5
    r = _recipe(tmp_path, "distribute: {groups: [[2, 3], [1, 4]], loop: i}",
                "tile: {stmt: 4, loop: i, size: 4}", "tile: {stmt: 3, loop: i, size: 5}")
    rc, out, err = run_cli("transform", DATA / "fir.c", "--function", "fir", "--recipe", r)
    assert rc == 0, err
    assert out.count("for (i = ") == 2, out
    _in_order(out, "acc = 0;", "for (i = ", "shift_reg[i] = shift_reg[i - 1];", "shift_reg[0] = x;",
              "for (i = ", "acc += shift_reg[i] * c[i];", "acc += x * c[0];")
    _runs_ok(DATA / "fir.c", r, "N", [11, 13], "--function", "fir")


def test_the_fir_mac_loop_before_the_shift_loop_is_refused_for_the_shift(tmp_path):
    r = _recipe(tmp_path, "distribute: {groups: [[1, 4], [2, 3]], loop: i}")
    rc, out, err = run_cli("transform", DATA / "fir.c", "--function", "fir", "--recipe", r)
    assert rc == 2 and out == "", out + err
    assert err.count("\n") == 1 and err.startswith(f"{r}:2: step 1 (distribute): error: "), err
    assert "RAW on shift_reg" in err and "in the order the groups are listed" in err, err
