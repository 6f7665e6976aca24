"""Recipes with a CUDA mapping built at tiny fixed sizes (probe 19): where a mapped statement
runs at no point, or an unroll took a mapped loop away, `run -D` used to refuse recipes that
work at every larger size."""
from __future__ import annotations

from conftest import run_cli, runs_ok

STRIDED = """void f(int n, double a[n][n], double b[n][n], double x[n]) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i += 2)
    for (j = 1; j < n; j += 3)
      a[i][j] = b[i][j] * 2.0 + x[j];
#pragma endscop
}
"""
TILED = """steps:
  - tile: {stmt: 0, loop: i, size: 8, control: ii}
  - tile: {stmt: 0, loop: j, size: 6, control: jj}
  - permute: {stmt: 0, order: [ii, jj, i, j]}
  - cuda: {stmt: 0, block: [jj, ii], thread: [j, i]}
"""
DOWN = """void f(int n, double a[n][n], double b[n][n], double x[n]) {
  int i, j;
#pragma scop
  for (i = n - 1; i >= 0; i--)
    for (j = n - 1; j >= 0; j -= 2)
      a[i][j] = b[i][j] + x[j] * 2.0;
#pragma endscop
}
"""


def test_a_mapping_whose_statement_runs_at_no_point(tmp_path):
    # at n = 1 the j loop is empty: the thread loop has no extent to count
    (tmp_path / "k.c").write_text(STRIDED)
    (tmp_path / "r.yaml").write_text(TILED)
    runs_ok(tmp_path / "k.c", tmp_path / "r.yaml", ("1", "2", "9"))


def test_a_shared_copy_of_references_that_run_at_no_point(tmp_path):
    (tmp_path / "k.c").write_text(STRIDED)
    (tmp_path / "r.yaml").write_text(TILED + "  - shared: {stmt: 0, array: x, at: jj}\n")
    runs_ok(tmp_path / "k.c", tmp_path / "r.yaml", ("1", "2", "9"))


def test_a_thread_loop_that_an_unroll_took_away_at_small_sizes(tmp_path):
    (tmp_path / "k.c").write_text(DOWN)
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: j, size: 12, control: jj}\n"
                                     "  - unroll: {stmt: 0, loop: j, factor: 2}\n"
                                     "  - cuda: {stmt: 0, block: [i, jj], thread: [j]}\n")
    runs_ok(tmp_path / "k.c", tmp_path / "r.yaml", ("1", "3", "4", "30"))
    rc, out, err = run_cli("transform", tmp_path / "k.c", "--recipe", tmp_path / "r.yaml",
                           "--target", "cuda", "-D", "n=3")
    assert rc == 0, err
    assert f"{tmp_path / 'r.yaml'}:4: note: loop 'j' was unrolled fully by an earlier step: " \
           "the cuda step maps it to no axis" in err
    assert "__launch_bounds__(1)" in out and "threadIdx" not in out
    # where strips of 2 of the 12 iterations of a tile remain, they are the threads
    rc, out, _ = run_cli("transform", tmp_path / "k.c", "--recipe", tmp_path / "r.yaml",
                         "--target", "cuda", "-D", "n=30")
    assert rc == 0 and "__launch_bounds__(6)" in out, out


def test_a_mapping_of_only_unrolled_loops_is_still_refused(tmp_path):
    (tmp_path / "k.c").write_text(DOWN)
    (tmp_path / "r.yaml").write_text("steps:\n  - unroll: {stmt: 0, loop: j, factor: 0}\n"
                                     "  - cuda: {stmt: 0, thread: [j]}\n")
    rc, out, err = run_cli("transform", tmp_path / "k.c", "--recipe", tmp_path / "r.yaml", "-D", "n=4")
    assert rc == 2 and out == "" and "step 1 (unroll) removed it (full unroll)" in err, err
