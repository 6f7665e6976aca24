"""`distribute {groups: [[...], [...]], loop}`: each group keeps one copy of the loop and the
loops inside it (Nekbone ax_e's two sibling nests in `e`, COSMO's forward and backward sweeps
in `i`), where `stmts` gives each listed statement its own copy, as CHiLL's list does."""
from pathlib import Path

import pytest

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "distribute"


def _recipe(tmp_path, *steps):
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps))
    return r


@pytest.mark.parametrize("n", [3, 4])
def test_two_sibling_nests_get_a_copy_each(tmp_path, n):
    r = _recipe(tmp_path, "distribute: {groups: [[0, 1, 2], [3, 4, 5]], loop: e}", "permute: {stmt: 3, order: [i, e]}")
    rc, out, err = run_cli("transform", DATA / "ax_two_nests.c", "--recipe", r)
    assert rc == 0, err
    assert out.count("for (e = 0;") + out.count("for (int e = 0;") == 2, out
    rc, out, err = run_cli("run", DATA / "ax_two_nests.c", "--recipe", r, "-D", "nelt=3", "-D", f"n={n}",
                           "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


def test_the_forward_and_backward_sweeps_split_and_interchange(tmp_path):
    r = _recipe(tmp_path, "distribute: {groups: [[0, 1], [2, 3]], loop: i}", "privatize: {var: t, at: k, stmt: 0}",
                "permute: {stmt: 0, order: [k, i]}")
    rc, out, err = run_cli("run", DATA / "sweeps.c", "--recipe", r, "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


def test_a_refused_distribute_names_the_groups_that_keep_the_parts_whole(tmp_path):
    rc, out, err = run_cli("transform", DATA / "ax_two_nests.c", "--recipe",
                           _recipe(tmp_path, "distribute: {stmts: [3, 4, 5], loop: e}"))
    assert rc == 2 and "distribute {groups: [[0, 1, 2], [3, 4, 5]], loop: e}" in err, err
    rc, out, err = run_cli("transform", DATA / "sweeps.c", "--recipe",
                           _recipe(tmp_path, "distribute: {groups: [[0, 1], [1, 3]], loop: i}"))
    assert rc == 2 and "a statement is in two groups" in err, err
    rc, out, err = run_cli("transform", DATA / "sweeps.c", "--recipe",
                           _recipe(tmp_path, "distribute: {loop: i}"))
    assert rc == 2 and "one of stmts or groups" in err and "groups: [[0, 1], [2, 3]]" in err, err
