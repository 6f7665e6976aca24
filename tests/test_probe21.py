"""Findings of probe 21 (Orio's own test files): a .cu whose host code sized its copies with
parameters it did not take, and a size given with -D that the file never defines, hard-coded
without a check."""
from __future__ import annotations

from conftest import run_cli
from test_cuda_codegen import needs_nvcc, nvcc_compile

# Orio's bratu2D with its pointer parameters declared with extents
VLA = """void f(int m, int n, double X[m*n], double F[m*n]) {
  int i;
  int nrows = m*n;
  /*@ begin Loop(transform CUDA(threadCount=32)
  for (i=0; i<=nrows-1; i++) F[i] = 2*X[i];
  ) @*/
  for (i=0; i<=nrows-1; i++) F[i] = 2*X[i];
  /*@ end @*/
}
"""


@needs_nvcc
def test_the_host_function_takes_the_sizes_its_copies_use(tmp_path):
    (tmp_path / "v.c").write_text(VLA)
    rc, out, err = run_cli("transform", tmp_path / "v.c", "--target", "cuda")
    assert rc == 0, err
    assert 'extern "C" int f_host_status(int m, int n, double *__restrict__ X, double *__restrict__ F, ' \
           'int nrows)' in out, out
    assert nvcc_compile(out) is None


# Orio's regression test tile03.c: a fragment whose sizes the build defines
FRAGMENT = """  double a[NRA][NCA];
  int ia, ja;
  /*@ begin Loop(
  transform Composite(tile = [('ia',32,'tia'), ('ja',32,'tja')])
  for (ia=0; ia<=NRA-1; ia++)
    for (ja=0; ja<=NCA-1; ja++)
      a[ia][ja] = ia+ja;
  ) @*/
  for (ia=0; ia<=NRA-1; ia++)
    for (ja=0; ja<=NCA-1; ja++)
      a[ia][ja] = ia+ja;
  /*@ end @*/
"""


def test_a_size_only_the_build_defines_is_checked_when_fixed(tmp_path):
    (tmp_path / "t.c").write_text(FRAGMENT)
    rc, out, err = run_cli("transform", tmp_path / "t.c", "-D", "NRA=37", "-D", "NCA=41")
    assert rc == 0, err
    assert "lx_min(36, 32 * tia + 31)" in out, out
    for name, value in (("NRA", 37), ("NCA", 41)):
        assert f"#if {name} != {value}\n#error" in out, out
    # a size the file #defines itself needs no check: no build can change it
    (tmp_path / "d.c").write_text("#define NRA 37\n#define NCA 41\n" + FRAGMENT)
    rc, out, err = run_cli("transform", tmp_path / "d.c")
    assert rc == 0 and "#error" not in out, out + err


# Orio's regression test cuda/sources/composite1.c, as written (its loop in braces)
COMPOSITE = """void axpy1(int n, double *y, double a1, double *x1)
{
register int i;
/*@ begin Loop(
  transform Composite(
    cuda = (16,False, False, 1)
    ,scalarreplace = (False, 'int')
, unrolljam = (['i'], [UJ])
  )
   {
    for (i=0; i<=n-1; i++) {
    \ty[i]=y[i]+a1*x1[i];
    }
   }
) @*/
/*@ end @*/
}
"""


@needs_nvcc
def test_composite_cuda_over_a_block_with_unrolljam(tmp_path):
    """Each of the block's 16 threads runs one unrolled iteration (UJ elements), as in Orio; a
    loop shorter than the factor no longer loses its tiling."""
    for uj in (2, 8):
        (tmp_path / "c.c").write_text(COMPOSITE.replace("UJ", str(uj)))
        rc, out, err = run_cli("transform", tmp_path / "c.c", "--target", "cuda", "-D", "n=1000")
        assert rc == 0, err
        assert "__launch_bounds__(16)" in out and f"y[{uj} * tx + {16 * uj} * bx + {uj - 1}]" in out, out
        assert nvcc_compile(out) is None
        for n in ((1, 3, 17) if uj == 2 else (uj, 100)):
            rc, o, e = run_cli("run", tmp_path / "c.c", "-D", f"n={n}", "--repetitions", "1")
            assert rc == 0 and ": ok" in o, (uj, n, o + e)


def test_run_names_an_access_past_the_declared_extents(tmp_path):
    """SPAPT's atax run with nx > N: the original itself leaves its arrays, so every variant
    looked wrong or crashed; `run` now says so before building anything."""
    (tmp_path / "a.c").write_text("void f(int n, int m, double y[n], const double x[m]) {\n  int i;\n"
                                  "  for (i = 0; i < m; i++)\n    y[i] = 2.0 * x[i];\n}\n")
    rc, out, err = run_cli("run", tmp_path / "a.c", "--function", "f", "-D", "n=37", "-D", "m=40")
    assert rc == 2 and out == "", out + err
    assert "error: at these sizes the region reaches element 39 of array 'y', outside its 37 " \
           "elements (y[n])" in err and len(err.strip().splitlines()) == 1, err
    rc, out, err = run_cli("run", tmp_path / "a.c", "--function", "f", "-D", "n=40", "-D", "m=37")
    assert rc == 0 and ": ok" in out, out + err


def test_a_decl_file_global_set_from_the_sizes_takes_its_value(tmp_path):
    """SPAPT's atax decl.h: `int nx = N;` is N, as a local `int n = N;` is."""
    (tmp_path / "decl.h").write_text("int nx = N;\ndouble x[N];\ndouble y[N];\n")
    (tmp_path / "f.c").write_text("""/*@ begin PerfTuning (
  def performance_params { param U[] = [1, 2]; }
  def input_params { param N[] = [40]; }
  def input_vars { arg decl_file = 'decl.h'; }
) @*/
int i;
/*@ begin Loop(transform Unroll(ufactor=U)
for (i=0; i<=nx-1; i++) y[i] = 2*x[i];
) @*/
for (i=0; i<=nx-1; i++) y[i] = 2*x[i];
/*@ end @*/
/*@ end @*/
""")
    for n in ("37", "1"):
        rc, out, err = run_cli("run", tmp_path / "f.c", "-D", f"N={n}", "-D", "U=2", "--repetitions", "1")
        assert rc == 0 and ": ok" in out, out + err
