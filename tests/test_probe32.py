"""Probe 32: Orio's SPAPT suite.  A decl_file with comments, an input_vars size derived from an
input param that -D changes (`decl int nr = M;`), and a -D of a size that the decl_file declares
as a variable, which the output must check at run time, not with #if."""
from __future__ import annotations

import shutil

import pytest

from conftest import run_cli

gcc = pytest.mark.skipif(shutil.which("gcc") is None,
                         reason="compiles the generated C with gcc, which this machine lacks")

STENCIL = """/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O3'; }
  def performance_params { param U[] = [1,2]; }
  def input_params { param T[] = [10]; param N[] = [20]; }
  def input_vars { arg decl_file = 'decl.h'; }
) @*/
int i, j;
/*@ begin Loop (
  for (i=1; i<=T-1; i++)
    transform Unroll(ufactor=U)
    for (j=1; j<=N-2; j++)
      a[i][j] = 0.333 * (a[i-1][j-1] + a[i-1][j] + a[i-1][j+1]);
) @*/
/*@ end @*/
/*@ end @*/
"""


@gcc
@pytest.mark.parametrize("decl", ["/* sizes */\ndouble a[T][N]; // the grid\n",
                                  "#ifdef X\n#endif\n/* sizes */\ndouble a[T][N];\n"])
def test_a_decl_file_may_hold_comments(tmp_path, decl):
    (tmp_path / "decl.h").write_text(decl)
    (tmp_path / "k.c").write_text(STENCIL)
    rc, out, err = run_cli("transform", tmp_path / "k.c")
    assert rc == 0 and "a[i][j] = 0.333 *" in out, err
    rc, out, err = run_cli("run", tmp_path / "k.c", "-D", "U=2")
    assert rc == 0 and ": ok" in out, out + err


DERIVED = """/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O3'; }
  def performance_params { param U[] = [1,2]; }
  def input_params { param M = 5000; }
  def input_vars {
    decl int nr = M;
    decl dynamic double t[M] = 0;
    decl dynamic double x[M] = random;
  }
) @*/
int i;
/*@ begin Loop (
  transform Unroll(ufactor=U)
  for (i = 0; i <= nr-1; i++)
    t[i] = t[i] + x[i];
) @*/
/*@ end @*/
/*@ end @*/
"""


@gcc
def test_a_size_derived_from_an_input_param_follows_its_define(tmp_path):
    (tmp_path / "k.c").write_text(DERIVED)
    rc, out, err = run_cli("transform", tmp_path / "k.c", "-D", "M=37")
    assert rc == 0 and "if (nr == 37)" in out, out + err
    rc, out, err = run_cli("run", tmp_path / "k.c", "-D", "M=37", "-D", "U=2")
    assert rc == 0 and ": ok" in out, out + err


VARIABLE = """/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O3'; }
  def performance_params { param U[] = [1]; }
  def input_params { param N[] = [100]; }
  def input_vars { arg decl_file = 'decl.h'; }
) @*/
int i, j;
/*@ begin Loop (
  for (i = 0; i <= nx-1; i++)
    for (j = 0; j <= ny-1; j++)
      y[i] = y[i] + A[i*ny+j]*x[j];
) @*/
/*@ end @*/
/*@ end @*/
"""


def test_a_define_of_a_variable_the_decl_file_declares_is_checked_as_it_runs(tmp_path):
    (tmp_path / "decl.h").write_text("int nx;\nint ny;\ndouble *A;\ndouble *x;\ndouble *y;\n")
    (tmp_path / "k.c").write_text(VARIABLE)
    rc, out, err = run_cli("transform", tmp_path / "k.c", "-D", "ny=31")
    assert rc == 0 and "#if ny" not in out and "if (ny == 31) {" in out, out + err


ROW_OVER = """/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2'; }
  def performance_params { param P[] = [['j','i']]; }
  def input_params { param m = 60; param n = 20; }
  def input_vars { decl static double d[m][n] = random; }
) @*/
int i, j;
/*@ begin Loop (
  transform Composite(permut = [P])
  for (i = 1; i <= n-1; i++)
    for (j = 0; j <= m-1; j++)
      d[i][j] = d[i][j] * 0.5 + d[i-1][j];
) @*/
/*@ end @*/
/*@ end @*/
"""


@gcc
def test_sizes_that_run_past_a_row_are_refused(tmp_path):
    """d[i][25] in rows of 20 is d[i+1][5] in C, which the model takes for another element:
    the interchange, legal in the model, changes the result there."""
    (tmp_path / "k.c").write_text(ROW_OVER)
    rc, out, err = run_cli("run", tmp_path / "k.c")
    assert rc == 2 and err.count("\n") == 1, err
    assert "k.c:12:7: error: at these sizes the region indexes dimension 2 of array 'd' at 59, outside its " \
           "extent 20 (d[m][n])" in err, err
    rc, out, err = run_cli("search", tmp_path / "k.c", "--budget", "1")
    assert rc == 2 and "outside its extent 20" in err, err
    rc, out, err = run_cli("run", tmp_path / "k.c", "-D", "m=20", "-D", "n=20")
    assert rc == 0 and ": ok" in out, out + err
