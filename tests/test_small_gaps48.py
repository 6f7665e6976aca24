"""Leftovers of probes 60 and 63: C99's imaginary unit `I` (and CMPLX) in a complex kernel; an
Orio Composite tile that names a missing loop is located at that loop's name."""
import subprocess

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


DEVITO = """void Kernel(float *restrict u_data, const int x_M, const int x_m, const int time_M, const int time_m)
{
  float (*restrict u)[40] = (float (*)[40]) u_data;
  for (int time = time_m, t0 = (time)%(2), t1 = (time + 1)%(2); {next})
  {
    for (int x = x_m; x <= x_M; x += 1)
    {
      u[t1][x + 1] = 0.5F*(u[t0][x] + u[t0][x + 2]);
    }
  }
}
"""


def test_devitos_buffer_indexes_set_in_the_time_loop_header_are_its_expressions(tmp_path):
    # every Devito operator: t0/t1 are (time)%(2) and (time + 1)%(2) in each iteration
    f, r = tmp_path / "k.c", tmp_path / "r.yaml"
    f.write_text(DEVITO.replace("{next}", "time <= time_M; time += 1, t0 = (time)%(2), t1 = (time + 1)%(2)"))
    r.write_text("steps:\n  - tile: {stmt: 0, loop: x, size: 5, control: xx}\n")
    rc, out, err = run_cli("deps", f, "--function", "Kernel")
    assert rc == 0 and "u[(time + 1) % 2][x + 1]" in out and "distance (1, 1)" in out, out + err
    for xm in ("13", "30"):
        _ok(*run_cli("run", f, "--function", "Kernel", "--recipe", r, "-D", "time_m=0", "-D", "time_M=6",
                     "-D", "x_m=0", "-D", f"x_M={xm}"))


@pytest.mark.parametrize("next_", ["time <= time_M; t0 = (time)%(2), time += 1, t1 = (time + 1)%(2)",
                                   "time <= time_M; time += 1, t0 = (time + 1)%(2), t1 = (time + 1)%(2)"])
def test_a_header_variable_set_before_the_step_or_from_another_expression_is_refused(tmp_path, next_):
    f = tmp_path / "k.c"
    f.write_text(DEVITO.replace("{next}", next_))
    _one_error(*run_cli("deps", f, "--function", "Kernel"), "k.c:4:", "exactly one iterator")


ISO = """#define HALF 2
void iso(float *next, const float *prev, const float *vel, const float *coeff,
         const int n1, const int n2, const int n3)
{
  int dimn1n2 = n1*n2;
  for (int iz = HALF; iz < n3 - HALF; iz++)
    for (int iy = HALF; iy < n2 - HALF; iy++)
      for (int ix = HALF; ix < n1 - HALF; ix++) {
        int offset = iz*dimn1n2 + iy*n1 + ix;
        float value = prev[offset]*coeff[0];
        for (int ir = 1; ir <= HALF; ir++) {
          value += coeff[ir] * (prev[offset + ir] + prev[offset - ir]);
          value += coeff[ir] * (prev[offset + ir*n1] + prev[offset - ir*n1]);
          value += coeff[ir] * (prev[offset + ir*dimn1n2] + prev[offset - ir*dimn1n2]);
        }
        next[offset] = 2.0f*prev[offset] - next[offset] + value*vel[offset];
      }
}
"""


def test_a_size_local_that_is_a_product_of_sizes_delinearizes_as_the_product(tmp_path):
    # Intel ISO-3DFD: `int dimn1n2 = n1*n2;` ... `iz*dimn1n2 + iy*n1 + ix`
    f, r, o = tmp_path / "iso.c", tmp_path / "r.yaml", tmp_path / "iso_t.c"
    f.write_text(ISO)
    r.write_text("steps:\n  - tile: {stmt: 4, loop: ix, size: 8, control: ixx}\n"
                 "  - unroll: {stmt: 2, loop: ir, factor: 0}\n")
    rc, out, err = run_cli("transform", f, "--function", "iso", "--recipe", r, "-o", o)
    assert rc == 0, err
    proc = subprocess.run(["gcc", "-O2", "-Wall", "-Werror", "-c", str(o), "-o", str(tmp_path / "o.o")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    for n1 in ("13", "20"):
        _ok(*run_cli("run", f, "--function", "iso", "--recipe", r, "-D", f"n1={n1}", "-D", "n2=9", "-D", "n3=7"))


def test_a_const_parameter_step_is_called_a_parameter(tmp_path):
    # Devito's blocked loops: `for (int x0_blk0 = x_m; x0_blk0 <= x_M; x0_blk0 += x0_blk0_size)`
    f = tmp_path / "b.c"
    f.write_text("void bf0(float *a, const int x_m, const int x_M, const int x0_blk0_size)\n{\n"
                 "  for (int x0_blk0 = x_m; x0_blk0 <= x_M; x0_blk0 += x0_blk0_size)\n"
                 "    a[x0_blk0] = 0.0F;\n}\n")
    err = _one_error(*run_cli("deps", f, "--function", "bf0"), "b.c:3:", "a const parameter",
                     "--define x0_blk0_size=VALUE")
    assert "initialize it" not in err
    rc, out, err = run_cli("deps", f, "--function", "bf0", "-D", "x0_blk0_size=4")
    assert rc == 0, err


GEMM = """#define NI 20
#define NJ 25
void kernel_gemm(int ni, int nj, double beta, double C[NI][NJ])
{
  int i, j;
#pragma scop
  for (i = 0; i < ni; i++)
    for (j = 0; j < nj; j++)
      C[i][j] *= beta;
#pragma endscop
}
"""


def test_a_define_of_a_loop_counter_is_refused_at_its_statement(tmp_path):
    f = tmp_path / "g.c"
    f.write_text(GEMM)
    _one_error(*run_cli("transform", f, "-D", "i=3"), "g.c:9:", "'i' counts a loop of the region")
    _one_error(*run_cli("run", f, "-D", "j=3"), "g.c:9:", "'j' counts a loop of the region")
    # the case-blind match of a #define comes first, and a counter is never suggested
    err = _one_error(*run_cli("transform", f, "-D", "Ni=3"), "did you mean 'NI'?")
    assert "--define i=" not in err
    rc, out, err = run_cli("transform", f, "-D", "ni=7")
    assert rc == 0, err


def test_a_peel_without_amounts_peels_the_first_iteration_as_chill_does(tmp_path):
    f, r = tmp_path / "g.c", tmp_path / "r.yaml"
    f.write_text(GEMM)
    r.write_text("steps:\n  - peel: {stmt: 0, loop: j}\n")
    rc, out, err = run_cli("transform", f, "--recipe", r)
    assert rc == 0 and "C[i][0] *= beta;" in out.replace("C[i][0] = C[i][0] * beta", "C[i][0] *= beta;"), out + err
    _ok(*run_cli("run", f, "--recipe", r, "-D", "ni=5", "-D", "nj=9"))


def test_a_pragma_on_a_loop_that_runs_once_is_noted_as_dropped(tmp_path):
    f, r = tmp_path / "g.c", tmp_path / "r.yaml"
    f.write_text(GEMM)
    r.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 64, control: ii}\n"
                 "  - omp_for: {stmt: 0, loop: ii}\n")
    rc, out, err = run_cli("transform", f, "--recipe", r, "-D", "ni=20", "-D", "nj=25")
    assert rc == 0 and "pragma omp" not in out and "the pragma of loop 'ii' is dropped" in err, out + err
    rc, out, err = run_cli("transform", f, "--recipe", r)
    assert rc == 0 and "#pragma omp parallel for" in out and "dropped" not in err, out + err


SYMM = """#define M 20
#define N 24
void kernel_symm(int m, int n, double alpha, double beta, double C[M][N], double A[M][M], double B[M][N])
{
  int i, j, k;
  double temp2;
#pragma scop
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      temp2 = 0;
      for (k = 0; k < i; k++) {
        C[k][j] += alpha * B[i][j] * A[i][k];
        temp2 += B[k][j] * A[i][k];
      }
      C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * temp2;
    }
#pragma endscop
}
"""


def test_a_privatized_function_variable_jammed_gives_no_uninitialized_warning(tmp_path):
    # PolyBench symm's temp2: copy 0 of the jam is the function's own, declared without a value
    f, r, o = tmp_path / "s.c", tmp_path / "r.yaml", tmp_path / "s_t.c"
    f.write_text(SYMM)
    r.write_text("steps:\n  - privatize: {var: temp2, at: j}\n  - unroll_jam: {stmt: 1, loop: j, factor: 3}\n")
    rc, out, err = run_cli("transform", f, "--recipe", r, "-o", o)
    assert rc == 0, err
    proc = subprocess.run(["gcc", "-O2", "-Wall", "-Wno-unknown-pragmas", "-Werror", "-c", str(o), "-o",
                           str(tmp_path / "s.o")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    _ok(*run_cli("run", f, "--recipe", r, "-D", "m=7", "-D", "n=10"))


@pytest.mark.parametrize("cond", ["L1 >= 5", "L1 > 4", "5 > L1", "L1 <= 4", "4 < L1", "i < 5", "4 >= i"])
def test_chill_split_conditions_of_every_direction(tmp_path, cond):
    f = tmp_path / "m.c"
    f.write_text(MM_CHILL.replace('tile(0,3,16,1,"kk","kc")', f'split(0,1,"{cond}")'))
    rc, out, err = run_cli("transform", f)
    # every one cuts the i loop at 5: the first part runs to 4, the second from 5
    assert rc == 0 and f"split: {{stmt: 0, loop: 1, at: {cond}}}" in out, out + err
    assert out.count("for (i = ") == 2 and "for (i = 5; " in out, out


def test_a_chill_scripts_remedy_is_in_the_scripts_dialect(tmp_path):
    f = tmp_path / "m.c"
    f.write_text(MM_CHILL.replace('tile(0,3,16,1,"kk","kc")', 'tile(1,3,16,1)').replace(
        "    for (j = 0; j < N; j++)\n", "  { C[i][0] = 0;\n    for (j = 0; j < N; j++)\n").replace(
        "B[k][j];\n", "B[k][j]; }\n"))
    err = _one_error(*run_cli("transform", f), "step 1 (tile)")
    assert 'distribute([1],"i")' in err and "stmts:" not in err, err


COPY2D = """#define N 30
#define M 20
double a[N][M], b[N][M];
void copy2d(double s)
{
  int i, j;
#pragma scop
  for (i = 0; i < N; i++) {
    b[i][0] = s;
    for (j = 0; j < M; j++)
      a[i][j] = s * b[i][j];
  }
#pragma endscop
}
"""


def test_combine_takes_a_defined_extent_at_its_value_and_says_when_it_would_split(tmp_path):
    f, r = tmp_path / "c.c", tmp_path / "r.yaml"
    f.write_text(COPY2D)
    r.write_text("steps:\n  - combine: {stmt: 1, loops: [i, j]}\n")
    err = _one_error(*run_cli("transform", f, "--recipe", r), "step 1 (combine)",
                     "combine would split loop 'i': statement 0 shares it", "distribute {stmts: [1], loop: i}")
    r.write_text("steps:\n  - distribute: {stmts: [1], loop: i}\n  - combine: {stmt: 1, loops: [i, j]}\n")
    rc, out, err = run_cli("transform", f, "--recipe", r)
    assert rc == 0 and "#if M != 20" in out and "combined at M = 20" in err, out + err
    _ok(*run_cli("run", f, "--recipe", r))


def test_a_define_of_a_file_const_is_located_at_its_declaration(tmp_path):
    f = tmp_path / "k.c"
    f.write_text("const int nx = 50;\ndouble u[100];\nvoid k(void) {\n  int i;\n#pragma scop\n"
                 "  for (i = 1; i < nx - 1; i++)\n    u[i] = 0.5 * u[i];\n#pragma endscop\n}\n")
    _one_error(*run_cli("transform", f, "-D", "nx=30"), "k.c:1:11:", "the file sets it to 50")


def test_a_define_of_a_floating_value_does_not_copy_the_region_under_a_guard(tmp_path):
    # probe 66 G2: `-D beta=3` wrapped the region in `if (beta == 3)` around two equal copies
    f = tmp_path / "g.c"
    f.write_text(GEMM)
    rc, out, err = run_cli("transform", f, "-D", "beta=3")
    assert rc == 0 and "beta == 3" not in out and out.count("*= beta") + out.count("* beta;") == 1, out + err
