"""Probe 67, groups 2, 3 and 5: a permute after split or peel acts on every part of the statement
(one part kept its order under swapped loop names); a fuse of an upward and a downward loop is
refused with the reverse that makes it a fusion (it swapped the nests); CHiLL's shift(2,1,3)
means shift([2],1,3), as in CHiLL."""
import re

import pytest

from conftest import run_cli
from test_probe54 import _ok
from test_probe55 import _one_error

MM3 = """void k_sp3(int n, double C[n][n], double A[n][n], double B[n][n])
{
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        C[i][j] += A[i][k] * B[k][j];
#pragma endscop
}
"""

COLUMN = """void k_so(int n, double A[n][n])
{
  int i, j;
#pragma scop
  for (i = 1; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] = A[i-1][j] * 0.5 + A[i][j];
#pragma endscop
}
"""

SWEEPS = """void k_fr(int n, double x[n], double y[n], double z[n], double w[n])
{
  int j;
%s
  for (j = 1; j < n; j++)
    x[j] = y[j] * 2.0;
  for (j = n - 1; j >= 1; j--)
    z[j] = w[j] + 1.0;
%s
}
"""

TRISOLV = """void trisolv(int n, double L[n][n], double x[n], double b[n])
{
  int i, j;
/*@ begin CHiLL (
  shift(%s,1,3)
) @*/
  for (i = 0; i < n; i++)
    {
      x[i] = b[i];
      for (j = 0; j < i; j++)
        x[i] -= L[i][j] * x[j];
      x[i] = x[i] / L[i][i];
    }
/*@ end @*/
}
"""


def _files(tmp_path, src, *steps):
    f, r = tmp_path / "k.c", tmp_path / "r.yaml"
    f.write_text(src)
    r.write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps))
    return f, r


def _loop_orders(out):
    """The loop names, outermost first, around each printed copy of the statement."""
    body = out[out.index("#pragma scop"):out.index("#pragma endscop")]
    orders, stack = [], []
    for line in body.splitlines():
        indent = len(line) - len(line.lstrip())
        stack = [(d, n) for d, n in stack if d < indent]
        m = re.search(r"for \((?:int )?(\w+) =", line)
        if m:
            stack.append((indent, m.group(1)))
        elif "+=" in line:
            orders.append(([n for _, n in stack], line.strip()))
    return orders


# ---- group 2: permute after split / peel ---------------------------------------------------------

@pytest.mark.parametrize("first", ["split: {stmt: 0, loop: i, at: n/2}",
                                   "peel: {stmt: 0, loop: i, first: 1}"])
def test_a_permute_after_a_split_of_the_outer_loop_permutes_both_parts(tmp_path, first):
    f, r = _files(tmp_path, MM3, first, "permute: {stmt: 0, order: [i, k, j]}")
    rc, out, err = run_cli("transform", f, "--recipe", r)
    assert rc == 0, err
    orders = _loop_orders(out)
    assert len(orders) == 2, out
    for loops, text in orders:
        # every part runs k outside j, and the statement reads its own loops (no swapped names)
        assert [x for x in loops if x in "jk"] == ["k", "j"], out
        assert "B[k][j]" in text, out
    for n in ("1", "2", "7"):
        _ok(*run_cli("run", f, "--recipe", r, "-D", f"n={n}"))


@pytest.mark.parametrize("steps, order", [
    (("split: {stmt: 0, loop: j, at: n - 2}", "permute: {stmt: 0, order: [i, k, j]}"), ["i", "k", "j"]),
    (("split: {stmt: 0, loop: i, at: n/2}", "tile: {stmt: 0, loop: k, size: 4, control: kk}",
      "permute: {stmt: 0, order: [i, kk, j, k]}"), ["i", "kk", "j", "k"]),
])
def test_every_part_gets_the_new_order(tmp_path, steps, order):
    f, r = _files(tmp_path, MM3, *steps)
    rc, out, err = run_cli("transform", f, "--recipe", r)
    assert rc == 0, err
    orders = _loop_orders(out)
    assert len(orders) == 2, out
    for loops, text in orders:
        assert loops == order and "B[k][j]" in text, out
    for n in ("1", "3", "7"):
        _ok(*run_cli("run", f, "--recipe", r, "-D", f"n={n}"))


@pytest.mark.parametrize("first", ["split: {stmt: 0, loop: k, at: 3}", "peel: {stmt: 0, loop: j, last: 1}"])
def test_a_loop_split_into_siblings_can_be_moved_outside(tmp_path, first):
    # it was refused: "permute would split loop 'i': statement 0 ... is not inside loop k",
    # with a distribute remedy that gave the same error again
    moved = "k" if "loop: k" in first else "j"
    order = "[k, i, j]" if moved == "k" else "[j, i, k]"
    f, r = _files(tmp_path, MM3, first, f"permute: {{stmt: 0, order: {order}}}")
    rc, out, err = run_cli("transform", f, "--recipe", r)
    assert rc == 0 and not err.strip(), err
    for loops, _ in _loop_orders(out):
        if moved in loops:
            assert loops[0] == moved, out
    for n in ("1", "2", "5"):
        _ok(*run_cli("run", f, "--recipe", r, "-D", f"n={n}"))


def test_a_split_then_interchange_lets_the_inner_loop_go_parallel(tmp_path):
    # before, the second part kept its i outside j, and the omp_for on j was refused with a
    # witness about it
    f, r = _files(tmp_path, COLUMN, "split: {stmt: 0, loop: i, at: 4}", "permute: {stmt: 0, order: [j, i]}",
                  "omp_for: {stmt: 0, loop: j}")
    rc, out, err = run_cli("transform", f, "--recipe", r)
    assert rc == 0, err
    assert out.count("omp parallel for") == 2, out
    _ok(*run_cli("run", f, "--recipe", r, "-D", "n=9"))


def test_another_statement_sharing_the_loop_is_still_refused(tmp_path):
    src = MM3.replace("      for (k = 0; k < n; k++)\n",
                      "    {\n      C[i][j] *= 0.5;\n      for (k = 0; k < n; k++)\n") \
             .replace("B[k][j];\n", "B[k][j];\n    }\n")
    f, r = _files(tmp_path, src, "split: {stmt: 1, loop: i, at: 3}", "permute: {stmt: 1, order: [k, i, j]}")
    _one_error(*run_cli("transform", f, "--recipe", r), "step 2 (permute)",
               "statement 0 shares it with statement 1 but not its loop k")


# ---- group 3: fuse of loops that run in opposite directions ---------------------------------------

@pytest.mark.parametrize("step", ["fuse: {stmts: [0, 1], loop: j}", "fuse: {stmts: [0, 1], level: 1}"])
def test_fusing_an_upward_and_a_downward_loop_is_refused_with_the_reverse(tmp_path, step):
    f, r = _files(tmp_path, SWEEPS % ("#pragma scop", "#pragma endscop"), step)
    loop = "1" if "level" in step else "j"
    _one_error(*run_cli("transform", f, "--recipe", r), "step 1 (fuse)", "runs upwards", "runs downwards",
               f"reverse {{stmt: 1, loop: {loop}}}")


def test_the_reverse_it_names_makes_the_fusion(tmp_path):
    f, r = _files(tmp_path, SWEEPS % ("#pragma scop", "#pragma endscop"),
                  "reverse: {stmt: 1, loop: j}", "fuse: {stmts: [0, 1], loop: j}")
    rc, out, err = run_cli("transform", f, "--recipe", r)
    assert rc == 0, err
    assert out.count("for (j") == 1, out
    for n in ("1", "2", "7"):
        _ok(*run_cli("run", f, "--recipe", r, "-D", f"n={n}"))


def test_two_downward_loops_still_fuse(tmp_path):
    src = (SWEEPS % ("#pragma scop", "#pragma endscop")).replace("for (j = 1; j < n; j++)",
                                                                 "for (j = n - 1; j >= 1; j--)")
    f, r = _files(tmp_path, src, "fuse: {stmts: [0, 1], loop: j}")
    rc, out, err = run_cli("transform", f, "--recipe", r)
    assert rc == 0 and out.count("for (j") == 1, out + err
    _ok(*run_cli("run", f, "--recipe", r, "-D", "n=7"))


def test_a_chill_script_is_told_the_reverse_in_its_own_form(tmp_path):
    f = tmp_path / "k.c"
    f.write_text(SWEEPS % ("/*@ begin CHiLL ( fuse([0,1],1) ) @*/", "/*@ end @*/"))
    _one_error(*run_cli("transform", f), "step 1 (fuse)", "runs downwards", "reverse(1,1)")


# ---- group 5: CHiLL shift of one statement ---------------------------------------------------------

@pytest.mark.parametrize("stmts", ["2", "[2]"])
def test_a_chill_shift_of_one_statement_of_a_shared_loop_is_refused_either_way(tmp_path, stmts):
    f = tmp_path / "k.c"
    f.write_text(TRISOLV % stmts)
    err = _one_error(*run_cli("transform", f), "step 1 (shift)", "shift of statements [2] by 3",
                     "loop 'i' also holds statements 0, 1", "distribute([0, 1, 2],1))")
    assert err.count("(") == err.count(")"), err


def test_a_chill_shift_listing_every_statement_shifts_the_loop(tmp_path):
    f = tmp_path / "k.c"
    f.write_text(TRISOLV % "[0,1,2]")
    rc, out, err = run_cli("transform", f)
    assert rc == 0, err
    _ok(*run_cli("run", f, "-D", "n=6"))
