"""Messages of probe15 (finding 9 and 10): a misspelled -D name, a file that is not UTF-8, a
data-dependent `break`, Orio's `8/2` (4.0 in Python 3: refused with a `//` hint), and C99's
`double complex`.  Bad inputs are exit 2 with one located line, a hint and no traceback."""
import pytest
from test_badinput_regressions import cli
from test_badinput_regressions import one_error as one_line_error

DOT = """#include <stddef.h>
float sdot(size_t n, const float *x, const float *y, float *out)
{
  size_t i;
  float acc = 0.0f;
#pragma scop
  for (i = 0; i < n; i++)
    acc += x[i] * y[i];
  out[0] = acc;
#pragma endscop
  return acc;
}
"""

SCALE = """void f(int n, double a[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = a[i] BODY;
#pragma endscop
}
"""

FLAG = """#include "cfg.h"
void f(double a[N])
{
  int i;
#ifdef MINI_DATASET
  int m = 4;
#endif
#pragma scop
  for (i = 0; i < N; i++)
    a[i] = a[i] * 2.0;
#pragma endscop
}
"""

BREAK = """void f(int n, double a[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    if (a[i] < 0) break;
    a[i] = a[i] * 2.0;
  }
#pragma endscop
}
"""

FRAGMENT = """/*@ begin PerfTuning (
  def performance_params { param T[] = [SIZES]; }
  def input_params { param N[] = [40]; }
  def input_vars { decl static double A[N] = random; }
) @*/
int i;
/*@ begin CHiLL ( tile(0,"i",T,"ii") ) @*/
for (i = 0; i < N; i++)
  A[i] = A[i] * 2.0;
/*@ end @*/
/*@ end @*/
"""

COMPLEX = """#include <complex.h>
void f(int n, TYPE a[n], TYPE b[n])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    a[i] = a[i] * b[i];
#pragma endscop
}
"""




@pytest.mark.parametrize("command", ["transform", "run", "search"])
def test_misspelled_define_is_named(tmp_path, command):
    src = tmp_path / "dot.c"
    src.write_text(DOT)
    one_line_error(cli(command, src, "-D", "nn=5"), f"{src}:2:19: error: -D nn=5: 'nn' is not a size",
                   "did you mean 'n'?", "--define n=5")


def test_define_with_no_close_name_points_at_the_region(tmp_path):
    src = tmp_path / "dot.c"
    src.write_text(DOT)
    one_line_error(cli("transform", src, "-D", "qqqq=5"), f"{src}:6:1: error: -D qqqq=5: 'qqqq'")


def test_defines_used_outside_the_region_are_accepted(tmp_path):
    """A macro the file tests, one its header uses, and a correct size: no error."""
    (tmp_path / "cfg.h").write_text("#ifndef N\n#define N 32\n#endif\n#ifdef LARGE\n#endif\n")
    src = tmp_path / "flag.c"
    src.write_text(FLAG)
    proc = cli("transform", src, "-D", "MINI_DATASET=1", "-D", "LARGE=1", "-D", "N=16")
    assert proc.returncode == 0, proc.stderr
    src = tmp_path / "dot.c"
    src.write_text(DOT)
    assert cli("run", src, "-D", "n=50", "--repetitions", "1").returncode == 0


def test_bad_byte_in_code_is_located(tmp_path):
    src = tmp_path / "bad.c"
    src.write_bytes(SCALE.replace("BODY", "\xff 2.0").encode("latin-1"))
    one_line_error(cli("transform", src), f"{src}:6:17: error: the file is not UTF-8 text (byte 0xff",
                   "save it as UTF-8")


def test_latin1_comment_is_read_as_latin1(tmp_path):
    src = tmp_path / "old.c"
    src.write_bytes(("/* auteur: Fran\xe7ois */\n" + SCALE.replace("BODY", "* 2.0")).encode("latin-1"))
    proc = cli("transform", src)
    assert proc.returncode == 0, proc.stderr
    assert "Fran\xe7ois" in proc.stdout
    assert "not UTF-8" in proc.stderr and "Traceback" not in proc.stderr


def test_syntax_error_has_a_colon(tmp_path):
    src = tmp_path / "syn.c"
    src.write_text(SCALE.replace("BODY", "* 2.0 )"))
    one_line_error(cli("transform", src), f"{src}:6:", "error: syntax error: expected ';' before ')' token")


def test_break_is_reported_before_its_data_condition(tmp_path):
    src = tmp_path / "brk.c"
    src.write_text(BREAK)
    msg = one_line_error(cli("transform", src), f"{src}:6:19: error: 'break' is not supported")
    assert "non-affine" not in msg


def test_true_division_in_a_param_list_is_refused_with_the_floor_hint(tmp_path):
    # CONTRACT: annotation expressions are Python 3, so 8/2 is 4.0; 8//2 is the tile size 4
    src = tmp_path / "frag.c"
    src.write_text(FRAGMENT.replace("SIZES", "8/2, 16"))
    one_line_error(cli("transform", src), f"{src}:7", "got 4.0 ('/' is true division")
    src.write_text(FRAGMENT.replace("SIZES", "8//2, 16"))
    proc = cli("transform", src)
    assert proc.returncode == 0, proc.stderr
    assert "size: 4," in proc.stdout


def test_inexact_division_is_still_refused(tmp_path):
    src = tmp_path / "frag.c"
    src.write_text(FRAGMENT.replace("SIZES", "7/2"))
    one_line_error(cli("transform", src), f"{src}:7", "must be an integer >= 1, got 3.5")


@pytest.mark.parametrize("ctype", ["double complex", "float complex"])
def test_complex_h_spelling_parses(tmp_path, ctype):
    src = tmp_path / "cx.c"
    src.write_text(COMPLEX.replace("TYPE", ctype))
    proc = cli("transform", src)
    assert proc.returncode == 0, proc.stderr
    assert f"{ctype} a[n]" in proc.stdout
