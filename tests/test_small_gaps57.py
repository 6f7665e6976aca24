"""Gaps found by the probes (left open by earlier sessions), each checked end to end."""
import pytest

from conftest import case_files, run_cli, runs_ok

pytestmark = pytest.mark.usefixtures("private_build_cache")


TRIANGLE_WITH_TAIL = """void f(int n, double A[n][n], double *B, double *s)
{
#pragma scop
  for (int i = 0; i < n; i++) {
    for (int j = 0; j <= i; j++)
      A[i][j] = A[i][j] + B[j] * 0.5;
    s[i] = A[i][i] * 2.0 + s[i];
  }
#pragma endscop
}
"""


def test_unrolled_copies_cover_a_point_loop_isl_prints_wide(tmp_path):
    """Probe 116 G1: under a tile of i, unrolls of j, the tile loop and i, isl printed j's point
    loop (its control loop folded away) from n - 12, with the rest of its bounds as a guard
    inside; the four copies counted from that start missed the rows past them (A[16][16] at
    n = 18).  Such a loop now steps by the factor over its whole range."""
    src, rec = case_files(tmp_path, TRIANGLE_WITH_TAIL,
                          "steps:\n  - tile: {stmt: 0, loop: i, size: 4, control: ii}\n"
                          "  - unroll: {stmt: 0, loop: j, factor: 4}\n  - unroll: {stmt: 0, loop: ii, factor: 4}\n"
                          "  - unroll: {stmt: 0, loop: i, factor: 3}\n")
    runs_ok(src, rec, (18, 25, 7), "--function", "f")
    rc, out, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 0, err
    assert "j += 4" in out and "j' " not in out, out


ORIO_TRMV = """#define N {n}
double L[N][N], x[N], y[N];
void f(void) {{
int i, j;
/*@ begin Loop(
  transform Composite(permut = [['j','i']])
  transform UnrollJam(ufactor=2)
  for (i = 0; i <= N-1; i++)
    transform Unroll(ufactor=2)
    for (j = i; j <= N-1; j++)
      y[i] = y[i] + L[i][j] * x[j];
) @*/
  for (i = 0; i <= N-1; i++)
    for (j = i; j <= N-1; j++)
      y[i] = y[i] + L[i][j] * x[j];
/*@ end @*/
}}
"""


@pytest.mark.parametrize("n", [5, 6, 12])
def test_orio_unrolljam_kept_apart_then_permuted_jams_inside(tmp_path, n):
    """Probe 118 G2: Orio's unrolljam keeps a loop whose bounds read the unrolled counter
    apart (its copies one after another); the permutation then moved `i` inside `j`, past
    its own unrolled copies, which ran over every `i` as one strip of two.  The copies now
    move with their loop (jammed inside `j`); an unrolled loop that isl prints in pieces is
    cleaned up per piece."""
    src = tmp_path / "k.c"
    src.write_text(ORIO_TRMV.format(n=n))
    rc, out, err = run_cli("run", src, "-D", f"N={n}")
    assert rc == 0 and ": ok" in out, out + err
    rc, out, err = run_cli("transform", src, "-D", f"N={n}")
    assert rc == 0 and "if (1)" not in out and "if (0)" not in out and "c5" not in out, out


BLOCK_AFTER_SCALAR = """double x[100], y[100], s, t;
void f(void) {{
  int i;
/*@ begin CHiLL (
  {first}
) @*/
  s = 0.0;
  for (i = 0; i < 100; i++)
    x[i] = 2.0 * y[i];
/*@ end @*/
/*@ begin CHiLL (
  {second}
) @*/
  t = 1.0;
  for (i = 0; i < 100; i++)
    y[i] = y[i] + t;
/*@ end @*/
}}
"""


@pytest.mark.parametrize("first, second", [('unroll(1,"i",4)', 'unroll(3,"i",2)'),
                                           ('unroll(0,"i",4)', 'unroll(1,"i",2)'),
                                           ('unroll(1,"i",4)', 'unroll(0,"i",2)')])
def test_a_block_that_opens_with_a_scalar_statement_counts_it(tmp_path, first, second):
    """Probe 118 G1: a block's commands count within its first loop nest, as CHiLL's loop(0);
    after a statement outside every loop (`s = 0.0;`), `unroll(1,"i",4)` (the file's and the
    block's count) went to a statement 2 that is not there.  Where the nest's count names no
    statement with the loop, the block's or the file's count is read."""
    src = tmp_path / "k.c"
    src.write_text(BLOCK_AFTER_SCALAR.format(first=first, second=second))
    rc, out, err = run_cli("transform", src)
    assert rc == 0, err
    assert "unroll: {stmt: 1, loop: i, factor: 4}" in out and "unroll: {stmt: 3, loop: i, factor: 2}" in out, out
    assert "x[i + 3] = 2.0 * y[i + 3];" in out and "y[i + 1] = y[i + 1] + t;" in out, out


def test_a_step_refused_at_a_later_problem_size_stops_the_search_before_measuring(tmp_path):
    """Probe 118 G3: with `N[] = [64, 66]` and `known(N % 4 == 0)`, N = 64 was measured, then
    the fact refused at N = 66 ended the search with no best file; a step that refuses a size
    whatever the point is bad input, said before any size is measured."""
    src = tmp_path / "k.c"
    src.write_text("""/*@ begin PerfTuning (
  def performance_params { param U[] = [1, 4]; }
  def input_params { param N[] = [64, 66]; }
  def input_vars { decl static double a[N] = random; }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
int i;
/*@ begin CHiLL (
  known(N % 4 == 0)
  unroll(0,"i",U)
) @*/
for (i = 0; i < N; i++)
  a[i] = 2.0 * a[i];
/*@ end @*/
/*@ end @*/
""")
    rc, out, err = run_cli("search", src, "--no-progress")
    assert rc == 2 and "N=66" in err and "known" in err and len(err.strip().splitlines()) == 1, err
    assert "looptx search" not in out, out          # no size was searched
