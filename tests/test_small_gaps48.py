"""Leftovers of probes 60 and 63: C99's imaginary unit `I` (and CMPLX) in a complex kernel; an
Orio Composite tile that names a missing loop is located at that loop's name."""
import pytest

from conftest import run_cli
from test_probe54 import _ok
from test_probe55 import _one_error

ZROT = """#include <complex.h>
void zrot(int n, double complex *z, double complex *w)
{
  int i;
  for (i = 0; i < n; i++)
    z[i] = w[i] * I + CMPLX(1.0, -2.0) * conj(w[i]);
}
"""


def test_the_imaginary_unit_of_complex_h_is_a_constant(tmp_path):
    f, r = tmp_path / "z.c", tmp_path / "r.yaml"
    f.write_text(ZROT)
    r.write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 4}\n")
    rc, out, err = run_cli("transform", f, "--function", "zrot", "--recipe", r)
    assert rc == 0 and out.count("__builtin_complex(0.0f, 1.0f)") == 5, out + err
    _ok(*run_cli("run", f, "--function", "zrot", "--recipe", r, "--define", "n=39"))


def test_without_complex_h_an_undeclared_I_stays_an_error(tmp_path):
    f = tmp_path / "z.c"
    f.write_text(ZROT.replace("#include <complex.h>\n", "").replace("double complex", "double")
                 .replace(" + CMPLX(1.0, -2.0) * conj(w[i])", ""))
    _one_error(*run_cli("deps", f, "--function", "zrot"), "z.c:5:", "undeclared identifier 'I'")


COMPOSITE = """/*@ begin PerfTuning (
  def performance_params { param T[] = [4, 8]; }
  def input_params { param N[] = [40]; }
  def input_vars { decl static double a[N][N] = random; decl static double b[N][N] = random; }
) @*/
int i, j;
/*@ begin Loop(
transform Composite(
      tile = [('i',T,'ii'),
              ('q',T,'jj')]
)
for (i=0; i<=N-1; i++)
  for (j=0; j<=N-1; j++)
    a[i][j] = a[i][j] + b[j][i];
) @*/
/*@ end @*/
/*@ end @*/
"""


def test_a_composite_tile_of_a_missing_loop_points_at_its_name(tmp_path):
    f = tmp_path / "c.c"
    f.write_text(COMPOSITE)
    _one_error(*run_cli("transform", f, "-D", "T=4"), "c.c:10:16:", "no loop 'q' for a tile")


MM_CHILL = """#define N 40
void mm(float A[N][N], float B[N][N], float C[N][N]) {
  int i, j, k;
/*@ begin CHiLL (
tile(0,3,16,1,"kk","kc")
) @*/
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        C[i][j] = C[i][j] + A[i][k] * B[k][j];
/*@ end @*/
}
"""


def test_chill_long_tile_form_names_its_control_loop(tmp_path):
    # tile(stmt, level, size, outer, "tile", "control", method) is tile7's form
    f = tmp_path / "mm.c"
    f.write_text(MM_CHILL)
    rc, out, err = run_cli("transform", f)
    assert rc == 0 and "for (int kc = 0; kc <=" in out and out.index("kc = 0") < out.index("(i = 0"), out + err
    _ok(*run_cli("run", f))


MEMBERS = """typedef struct { double *a; double *b; } grid;
void sweep(grid *g, int n)
{
  int i;
#pragma scop
  for (i = 1; i < n; i++)
    g->b[i] = g->a[i - 1];
  for (i = 1; i < n; i++)
    g->a[i] = 2.0 * g->b[i];
#pragma endscop
}
"""


def test_a_step_refusal_names_a_struct_member_as_written(tmp_path):
    # probe 61 (miniAMR's bp->array): messages said `bp__array`, the model's variable
    f, r = tmp_path / "g.c", tmp_path / "r.yaml"
    f.write_text(MEMBERS)
    r.write_text("steps:\n  - fuse: {stmts: [0, 1], loop: i}\n")
    err = _one_error(*run_cli("transform", f, "--recipe", r), "step 1 (fuse)", "g->a[")
    assert "g__a" not in err


UNROLL1 = """#define N 15
void foo(int n, float* x) {
   int i;
   for (i = 1; i <= N; i++) {
      x[i] = 2.0f *(float)i;
   }
}
"""


@pytest.mark.parametrize("factor", [15, 20])
def test_a_factor_covering_a_defined_trip_count_unrolls_fully(tmp_path, factor):
    # CHiLL's unroll1c.script: unroll(0,1,20) over N = 15 "should be the same as complete unroll"
    f, r = tmp_path / "u.c", tmp_path / "r.yaml"
    f.write_text(UNROLL1)
    r.write_text(f"steps:\n  - unroll: {{stmt: 0, loop: i, factor: {factor}}}\n")
    rc, out, err = run_cli("transform", f, "--function", "foo", "--recipe", r)
    assert rc == 0 and "for (" not in out.split("#endif")[-1] and "x[15] = 2.0f * (float)15;" in out, out + err
    assert "#if N != 15" in out and "unrolled fully (the factor" in err, out + err
    _ok(*run_cli("run", f, "--function", "foo", "--recipe", r))
