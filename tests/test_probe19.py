"""Findings of probe 19: an unrolled loop that isl prints in pieces (a branch on `i == j`) lost
its cleanup iterations at sizes the factor divides; a split of a loop that runs downwards ran
its pieces in the wrong order; a `continue` ending an else branch was refused."""
from __future__ import annotations

import pytest
from conftest import runs_ok, transform_case

DIAG = """void f(int n, double a[n][n], double b[n][n]) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      if (i == j)
        a[i][j] = 1.0;
      else
        a[i][j] = b[i][j];
    }
#pragma endscop
}
"""


@pytest.mark.parametrize("recipe", ["unroll: {stmt: 0, loop: j, factor: 2}",
                                    "unroll: {stmt: 1, loop: j, factor: 4}"])
def test_an_unrolled_loop_printed_in_pieces_keeps_every_iteration_at_fixed_sizes(tmp_path, recipe):
    (tmp_path / "d.c").write_text(DIAG)
    (tmp_path / "r.yaml").write_text(f"steps:\n  - {recipe}\n")
    # sizes the factor divides took the strips as whole and dropped the cleanup loops
    runs_ok(tmp_path / "d.c", tmp_path / "r.yaml", ("4", "8", "12", "7"))


def test_a_split_of_a_loop_that_runs_downwards_keeps_its_order(tmp_path):
    rc, out, err = transform_case(tmp_path, "void f(int n, double a[n]) {\n  int i;\n#pragma scop\n"
                                  "  for (i = n - 2; i >= 0; i--)\n    a[i] = a[i] + a[i + 1];\n"
                                  "#pragma endscop\n}\n",
                                  "split: {stmt: 0, loop: i, at: 5}")
    assert rc == 0, err
    assert out.index("i > 4; i--)") < out.index("i >= 0; i--)"), out
    runs_ok(tmp_path / "k.c", tmp_path / "r.yaml", ("1", "6", "13"))


def test_a_continue_ending_the_else_branch_guards_the_rest_of_the_body(tmp_path):
    rc, out, err = transform_case(tmp_path, "void f(int n, double *p, double *q) {\n#pragma scop\n"
                                  "  for (int i = 0; i < n; i++) {\n"
                                  "    if (i % 2 == 0) q[i] = 1.0; else { q[i] = 2.0; continue; }\n"
                                  "    p[i] = p[i] + q[i];\n  }\n#pragma endscop\n}\n",
                                  "unroll: {stmt: 0, loop: i, factor: 2}")
    assert rc == 0 and "continue" not in out.split("#pragma scop")[1], out + err
    runs_ok(tmp_path / "k.c", tmp_path / "r.yaml", ("1", "6", "13"))


def test_a_product_of_sizes_in_split_at_is_named_as_written(tmp_path):
    rc, _, err = transform_case(tmp_path, "void f(int n, double a[n]) {\n  int i;\n#pragma scop\n"
                                "  for (i = 0; i < n; i++)\n    a[i] = a[i] * 2.0;\n#pragma endscop\n}\n",
                                'split: {stmt: 0, loop: i, at: "n*n"}')
    assert rc == 2 and "r.yaml:2: step 1 (split): error: 'n*n' multiplies 'n' by 'n': not an affine" in err, err
