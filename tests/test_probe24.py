"""Probe 24 (TSVC, the Livermore loops, Rodinia): an omp_for whose loop is also unrolled kept
its temporaries shared, GCC's `__restrict__` in a file without a libc header, a cast to a
typedef in `run`'s harness, and `run -D` of a copy sized at a #define's value."""
from __future__ import annotations

import pytest

from conftest import run_cli

# Livermore kernel 10 (difference predictors): ar, br, cr are each iteration's temporaries
K10 = """double px[1001][25], cx[1001][25];
void k10(long n)
{
    long i;
    double ar, br, cr;
#pragma scop
        for ( i=0 ; i<n ; i++ ) {
            ar        =      cx[i][ 4];
            br        = ar - px[i][ 4];
            px[i][ 4] = ar;
            cr        = br - px[i][ 5];
            px[i][ 5] = br;
            px[i][13] = cr - px[i][12];
            px[i][12] = cr;
        }
#pragma endscop
}
"""
OMP_THEN_UNROLL = """steps:
  - omp_for: {stmt: 0, loop: i, private: [ar, br, cr]}
  - unroll: {stmt: 0, loop: i, factor: 2}
"""
UNROLL_THEN_OMP = """steps:
  - privatize: {var: ar, at: i}
  - privatize: {var: br, at: i}
  - privatize: {var: cr, at: i}
  - unroll: {stmt: 0, loop: i, factor: 2}
  - omp_for: {stmt: 0, loop: i}
"""


# `private:` on a tile's control loop: each iteration of the original loop inside it gets its
# own temporaries, which makes them private to the parallel loop too
TILE_THEN_OMP = """steps:
  - tile: {stmt: 0, loop: i, size: 8, control: ii}
  - omp_for: {stmt: 0, loop: ii, private: [ar, br, cr]}
"""


@pytest.mark.parametrize("recipe, pragma", [(OMP_THEN_UNROLL, "private(ar, br, cr)"),
                                            (UNROLL_THEN_OMP, "private(ar, br, cr)"),
                                            (TILE_THEN_OMP, "private(i, ar, br, cr)")])
def test_a_parallel_loop_keeps_its_temporaries_private(tmp_path, recipe, pragma, monkeypatch):
    (tmp_path / "k10.c").write_text(K10)
    (tmp_path / "r.yaml").write_text(recipe)
    rc, out, err = run_cli("transform", tmp_path / "k10.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 0, err
    # an unroll's remainder runs outside the parallel loop: another iteration, not a reader
    assert f"#pragma omp parallel for {pragma}" in out, out
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    for n in (1001, 13):
        rc, out, err = run_cli("run", tmp_path / "k10.c", "--recipe", tmp_path / "r.yaml", "-D", f"n={n}",
                               "--cflags", "-O0 -fopenmp")
        assert rc == 0 and ": ok" in out, (n, out + err)


# TSVC's s4112 and s1112 spell GCC's restrict, and cast to the suite's real_t
TSVC = """typedef float real_t;
real_t a[1000], b[1000];
void s(real_t * __restrict__ x, real_t * __restrict y, int n)
{
#pragma scop
  for (int i = 0; i < n; i++)
    a[i] = b[i] * x[i] + y[i] + (real_t) 1.;
#pragma endscop
}
"""


def test_gcc_restrict_and_a_cast_to_a_typedef(tmp_path):
    (tmp_path / "t.c").write_text(TSVC)
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 16}\n")
    rc, out, err = run_cli("deps", tmp_path / "t.c")
    assert rc == 0 and "parameters: n" in out, err
    rc, out, err = run_cli("transform", tmp_path / "t.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 0 and "(real_t)1." in out and "real_t * __restrict__ x" in out, out + err
    for n in (100, 37):
        rc, out, err = run_cli("run", tmp_path / "t.c", "--recipe", tmp_path / "r.yaml", "-D", f"n={n}")
        assert rc == 0 and ": ok" in out, (n, out + err)


# TSVC's s2275 with the copy of bb sized at LEN_2D's #define value
S2275 = """#define LEN_2D 64
float a[LEN_2D], b[LEN_2D], c[LEN_2D], d[LEN_2D];
float aa[LEN_2D][LEN_2D], bb[LEN_2D][LEN_2D], cc[LEN_2D][LEN_2D];
void s2275(void)
{
#pragma scop
  for (int i = 0; i < LEN_2D; i++) {
    for (int j = 0; j < LEN_2D; j++)
      aa[j][i] = aa[j][i] + bb[j][i] * cc[j][i];
    a[i] = b[i] + c[i] * d[i];
  }
#pragma endscop
}
"""


def test_run_at_other_sizes_of_a_copy_sized_at_a_define(tmp_path):
    (tmp_path / "s.c").write_text(S2275)
    (tmp_path / "r.yaml").write_text("steps:\n  - distribute: {stmts: [0, 1], loop: i}\n"
                                     "  - permute: {stmt: 0, order: [j, i]}\n"
                                     "  - datacopy: {stmt: 0, array: bb, at: j}\n")
    rc, out, err = run_cli("transform", tmp_path / "s.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 0 and "#if LEN_2D != 64\n#error" in out, out + err
    # the code for other sizes is the code -D gives; the #define's code stops their builds
    for n in (64, 37):
        rc, out, err = run_cli("run", tmp_path / "s.c", "--recipe", tmp_path / "r.yaml", "-D", f"LEN_2D={n}")
        assert rc == 0 and ": ok" in out, (n, out + err)


THREE = """double x[100], y[100][100], z[100][100];
void first(void)
{
#pragma scop
  for (int i = 0; i < 100; i++)
    x[i] = 0.0;
#pragma endscop
}
void second(void)
{
#pragma scop
  for (int i = 0; i < 100; i++)
    for (int j = 0; j < 100; j++) {
      y[i][j] = 1.0;
      z[i][j] = 2.0;
    }
#pragma endscop
}
"""


def test_a_step_error_in_a_later_region_numbers_statements_over_the_file(tmp_path):
    (tmp_path / "t.c").write_text(THREE)
    (tmp_path / "r.yaml").write_text("steps:\n  - distribute: {stmts: [1, 2], loop: j}\n"
                                     "  - permute: {stmt: 1, order: [j, i]}\n")
    for cmd in ("transform", "run"):
        rc, out, err = run_cli(cmd, tmp_path / "t.c", "--recipe", tmp_path / "r.yaml")
        assert rc == 2 and err.strip().endswith(
            "step 2 (permute): error: permute would split loop 'i': statement 2 shares it with statement 1 but not "
            "its loop j (the loop of that name it is in is another one) (distribute the statements first "
            "(distribute {stmts: [1], loop: i}))"), (cmd, err)


# Rodinia's backprop defines its functions old-style
KNR = """void scale(a, n, m)
float *a;
int n;
{
  int i;
  for (i = 0; i < n; i++)
    a[i] = 2.0f * a[i] + m;
}
"""


def test_an_old_style_definition_has_its_typed_parameters(tmp_path):
    (tmp_path / "k.c").write_text(KNR)
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 8, control: ii}\n")
    rc, out, err = run_cli("deps", tmp_path / "k.c", "--function", "scale")
    assert rc == 0 and "parameters: n, m" in out, out + err
    rc, out, err = run_cli("transform", tmp_path / "k.c", "--function", "scale", "--recipe", tmp_path / "r.yaml")
    assert rc == 0 and out.startswith("/*") and "void scale(a, n, m)\nfloat *a;\nint n;\n{" in out, out + err
    for n in (64, 37):
        rc, out, err = run_cli("run", tmp_path / "k.c", "--function", "scale", "--recipe", tmp_path / "r.yaml",
                               "-D", f"n={n}", "-D", "m=3")
        assert rc == 0 and ": ok" in out, (n, out + err)


# Rodinia's lud: two sibling `j` loops reuse the temporary `sum`
LUD = """void lud_omp(float *a, int size)
{
     int i,j,k;
     float sum;

     for (i=0; i <size; i++){
	 for (j=i; j <size; j++){
	     sum=a[i*size+j];
	     for (k=0; k<i; k++) sum -= a[i*size+k]*a[k*size+j];
	     a[i*size+j]=sum;
	 }

	 for (j=i+1;j<size; j++){
	     sum=a[j*size+i];
	     for (k=0; k<i; k++) sum -=a[j*size+k]*a[k*size+i];
	     a[j*size+i]=sum/a[i*size+i];
	 }
     }
}
"""


def test_privatize_at_a_loop_name_two_sibling_loops_share_asks_which(tmp_path):
    (tmp_path / "lud.c").write_text(LUD)
    (tmp_path / "r.yaml").write_text("steps:\n  - privatize: {var: sum, at: j}\n")
    rc, out, err = run_cli("transform", tmp_path / "lud.c", "--function", "lud_omp", "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and err.strip().endswith(
        "step 1 (privatize): error: 'j' names 2 loops that use 'sum' (around statements 0 and 3) (say which "
        "with stmt: privatize: {stmt: 3, var: sum, at: j}, one step per loop)"), err
    (tmp_path / "r.yaml").write_text("steps:\n  - privatize: {stmt: 0, var: sum, at: j}\n"
                                     "  - privatize: {stmt: 3, var: sum, at: j}\n"
                                     "  - omp_for: {stmt: 3, loop: j}\n  - omp_for: {stmt: 0, loop: j}\n")
    for n in (37, 8):
        rc, out, err = run_cli("run", tmp_path / "lud.c", "--function", "lud_omp", "--recipe", tmp_path / "r.yaml",
                               "-D", f"size={n}")
        assert rc == 0 and ": ok" in out, (n, out + err)
