"""Orio files as users wrote them: a PerfTuning block inside the tuned function, whose pointer
parameters input_vars declares with extents, a local `int n=N;` bounding the loop, and Orio's
Align module around the Loop annotation (from Orio's Blue Gene axpy examples).  Also integer
locals initialized from sizes in plain C regions."""
from __future__ import annotations

import math
import re
import subprocess

import pytest
from conftest import run_cli as cli

from fragments import check_best
from looptx.search.db import ResultsDB

AXPY = """
void axpy_4(int N, double *y,
	    double a1, double *x1, double a2, double *x2,
	    double a3, double *x3, double a4, double *x4,
	    double a5, double *x5) {

/*@ begin PerfTuning (
 def build {
   arg build_command = 'gcc -O1';
 }
 def performance_counter {
   arg repetitions = 1;
 }
 def performance_params {
   param UF[] = range(1,11);
   constraint divisible_by_two = (UF % 2 == 0);
 }
 def input_params {
   param N[] = [1000, 999];
 }
 def input_vars {
   decl dynamic double x1[N] = random;
   decl dynamic double x2[N] = random;
   decl dynamic double x3[N] = random;
   decl dynamic double x4[N] = random;
   decl dynamic double x5[N] = random;
   decl dynamic double y[N] = 0;
   decl double a1 = random;
   decl double a2 = random;
   decl double a3 = random;
   decl double a4 = random;
   decl double a5 = random;
 }
 def search {
   arg algorithm = 'Exhaustive';
 }
) @*/

  int n=N;
  register int i;

/*@ begin Align (x1[],x2[],x3[],x4[],x5[],y[]) @*/
/*@ begin Loop (
  transform Unroll(ufactor=UF)
  for (i=0; i<=n-1; i++)
    y[i]=y[i]+a1*x1[i]+a2*x2[i]+a3*x3[i]+a4*x4[i]+a5*x5[i];
) @*/

 for (i=0; i<=n-1; i++)
   y[i]=y[i]+a1*x1[i]+a2*x2[i]+a3*x3[i]+a4*x4[i]+a5*x5[i];

/*@ end @*/
/*@ end @*/
/*@ end @*/

}
"""

DRIVER = r"""
#include <stdio.h>
#include <stdlib.h>
#include "%s"
int main(int argc, char **argv) {
  int N = atoi(argv[1]);
  double *v[6];
  unsigned s = 12345;
  for (int k = 0; k < 6; k++) {
    v[k] = malloc(sizeof(double) * N);
    for (int i = 0; i < N; i++) { s = s * 1103515245u + 12345u; v[k][i] = (s >> 8) / 16777216.0; }
  }
  axpy_4(N, v[0], 0.5, v[1], 1.5, v[2], -2.0, v[3], 0.25, v[4], 3.0, v[5]);
  for (int i = 0; i < N; i++) printf("%%.17g\n", v[0][i]);
  return 0;
}
"""


def _outputs(tmp_path, source, n: int) -> list[float]:
    drv = tmp_path / f"drv_{source.stem}.c"
    drv.write_text(DRIVER % source.name)
    exe = tmp_path / f"drv_{source.stem}"
    cc = subprocess.run(["gcc", "-O1", "-w", str(drv), "-o", str(exe)], capture_output=True,
                        text=True, cwd=tmp_path)
    assert cc.returncode == 0, cc.stderr[:2000]
    run = subprocess.run([str(exe), str(n)], capture_output=True, text=True, timeout=60)
    return [float(x) for x in run.stdout.split()]


def test_orio_axpy_in_its_function_with_align_is_searched_and_the_best_file_matches(tmp_path):
    src = tmp_path / "axpy4.c"
    src.write_text(AXPY)
    rc, out, err = cli("search", src, "--db", tmp_path / "a.db", "--no-progress")
    assert rc == 0, out + err
    notes = [ln for ln in err.splitlines() if ln.strip()]
    # the hint module is reported once, at its line, and nothing else goes to stderr
    assert len(notes) == 1 and "Align module" in notes[0] and ":42: note:" in notes[0], err
    assert "status: ok 5" in out and out.count("status: ok 5") == 2, out
    best = tmp_path / "axpy4.best.c"
    text = best.read_text()
    # the loop reads n, which no problem size fixes: its variant is symbolic in n, right for
    # every n, and needs no size guard (a guard on N would not compile in a function without N)
    assert "int n=N;" in text and "== 1000" not in text and re.search(r"i < [^;]*\bn\b", text), text
    for n in (1000, 999, 7):
        want = _outputs(tmp_path, src, n)
        got = _outputs(tmp_path, best, n)
        assert len(want) == len(got) == n
        assert all(math.isclose(a, b, rel_tol=1e-12, abs_tol=0) for a, b in zip(want, got))


def test_a_pointer_parameter_input_vars_does_not_declare_is_allocated_as_far_as_the_loop_reaches(tmp_path):
    src = tmp_path / "axpy4.c"
    src.write_text(AXPY.replace("   decl dynamic double y[N] = 0;\n", ""))
    rc, out, err = cli("search", src, "--db", tmp_path / "a.db", "--no-progress")
    assert rc == 0 and out.count("status: ok") == 2, out + err


PLAIN = """void f(int N, double A[N], double B[N]) {
  int n = N - 1, m;
  int w = n / 2;
CHANGE
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < w; j++)
      B[i] = B[i] + A[i + 1] * j;
#pragma endscop
}
"""
RECIPE = """steps:
  - tile: {stmt: 0, loop: i, size: 8, control: ii}
  - unroll: {stmt: 0, loop: j, factor: 3}
"""


@pytest.mark.parametrize("n", [37, 40])
def test_integer_locals_initialized_from_sizes_get_their_values(tmp_path, n):
    (tmp_path / "f.c").write_text(PLAIN.replace("CHANGE", ""))
    (tmp_path / "r.yaml").write_text(RECIPE)
    rc, out, err = cli("run", tmp_path / "f.c", "--recipe", tmp_path / "r.yaml", "-D", f"N={n}",
                       "--repetitions", 1)
    assert rc == 0 and "f.c: ok" in out, out + err


@pytest.mark.parametrize("change", ["  w++;", "  w = w / 2;", "  g(&w);", "  w += 1;"])
def test_a_local_changed_before_the_region_is_not_taken_from_its_initializer(tmp_path, change):
    (tmp_path / "f.c").write_text("void g(int *p);\n" + PLAIN.replace("CHANGE", change))
    (tmp_path / "r.yaml").write_text(RECIPE)
    rc, out, err = cli("run", tmp_path / "f.c", "--recipe", tmp_path / "r.yaml", "-D", "N=37",
                       "--repetitions", 1)
    assert rc == 2, out + err
    assert len(err.strip().splitlines()) == 1 and "the size 'w' has no value" in err, err


def test_a_bad_directive_under_ignored_modules_is_the_only_stderr_line(tmp_path):
    """Notes about what looptx ignores (Align here) are dropped when the input is bad: the
    located error is the one line on stderr."""
    src = tmp_path / "axpy4.c"
    src.write_text(AXPY.replace("transform Unroll(ufactor=UF)", "transform Unroll(ufactor=UF, bogus=1)"))
    for command in ("search", "transform"):
        rc, out, err = cli(command, src, "--db", tmp_path / "a.db", "--no-progress") \
            if command == "search" else cli(command, src)
        assert rc == 2, out + err
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"{src}:44:") and "'bogus'" in lines[0], err


SCALE = """/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O1'; }
  def performance_params { param U[] = [1,2,4]; }
  def input_params { param SN[] = [64, 37]; }
  def input_vars { decl int n = SN; decl dynamic double x[SN] = random; }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
void scale(int n, double *x) {
  int i;
  /*@ begin Loop (
    transform Unroll(ufactor=U)
    for (i=0; i<=n-1; i++)
      x[i] = 2.0*x[i] + i;
  ) @*/
  for (i=0; i<=n-1; i++)
    x[i] = 2.0*x[i] + i;
  /*@ end @*/
}
/*@ end @*/
"""

SCALE_MAIN = r"""
#include <stdio.h>
#include "%s"
int main(void) {
  for (int n = 30; n <= 70; n++) {
    double x[80];
    for (int i = 0; i < 80; i++) x[i] = i * 0.25 - 3.0;
    scale(n, x);
    for (int i = 0; i < 80; i++) printf("%%.17g\n", x[i]);
  }
  return 0;
}
"""


def _run_main(tmp_path, source) -> str:
    drv = tmp_path / f"main_{source.stem}.c"
    drv.write_text(SCALE_MAIN % source.name)
    exe = tmp_path / f"main_{source.stem}"
    cc = subprocess.run(["gcc", "-O1", "-Wall", "-Werror=implicit-function-declaration",
                         str(drv), "-o", str(exe)], capture_output=True, text=True, cwd=tmp_path)
    assert cc.returncode == 0, cc.stderr[:2000]
    return subprocess.run([str(exe)], capture_output=True, text=True, timeout=60).stdout


def test_best_file_guards_on_the_sizes_the_code_reads_not_on_orio_input_params(tmp_path):
    """Once `if (SN == 64 && n == 64)`: SN is an Orio input param the function never declares,
    so the best file did not compile.  The guard is on the region's own sizes (`n`)."""
    src = tmp_path / "scale.c"
    src.write_text(SCALE)
    rc, out, err = cli("search", src, "--db", tmp_path / "s.db", "--no-progress")
    assert rc == 0, out + err
    best = tmp_path / "scale.best.c"
    text = best.read_text().split("*/", 1)[1]
    assert "SN" not in text and "if (n == 64)" in text and "else if (n == 37)" in text, text
    assert _run_main(tmp_path, best) == _run_main(tmp_path, src)


def test_define_picks_a_performance_param_for_transform_and_search(tmp_path):
    src = tmp_path / "scale.c"
    src.write_text(SCALE)
    # the function's own `n` stays symbolic: the output is right for every n it is called with
    rc, out, err = cli("transform", src)
    assert rc == 0 and "for (i = 0; i < n; i++)" in out and "64" not in out, out + err
    rc, out, err = cli("transform", src, "-D", "U=4")
    assert rc == 0 and "params: {U: 4}" in out and "factor: 4" in out and "64" not in out, out + err
    code = tmp_path / "u4.c"
    code.write_text(out)
    assert _run_main(tmp_path, code) == _run_main(tmp_path, src)
    rc, out, err = cli("search", src, "-D", "U=2", "--db", tmp_path / "s.db", "--no-progress")
    assert rc == 0 and "1 valid point" in out, out + err
    with ResultsDB(tmp_path / "s.db", create=False) as rdb:
        points = [r.point for s in rdb.searches() for r in rdb.evaluations(s.key)]
    assert points == [{"U": 2}, {"U": 2}], points            # one point per size
    for extra in ((), ("--db", tmp_path / "t.db")):
        rc, out, err = cli("search" if extra else "transform", src, "-D", "U=3", *extra)
        assert rc == 2, out + err
        assert err.strip() == f"{src}:3:34: error: --define U=3 is not a value of performance param " \
                              "'U' (1, 2, 4) (pick one of its values)", err


FLAGGED = SCALE.replace("param U[] = [1,2,4];",
                        "param U[] = [1,2,4]; param SCR[] = [False, True]; param CF[] = ['-O1', '-O2'];") \
    .replace("'gcc -O1'", "'gcc @CF@'").replace("Unroll(ufactor=U)", "Composite(unrolljam=(['i'],[U]), scalarreplace=(SCR, 'double'))")


@pytest.mark.parametrize("given, shown", [(("SCR=True",), "SCR: True"), (("SCR=1", "U=2"), "SCR: True, U: 2"),
                                          (("SCR=false", "U=4"), "SCR: False, U: 4"),
                                          (("CF=-O2", "U=2"), "CF: -O2, U: 2"),
                                          (("CF='-O2'", "SCR=true"), "CF: -O2, SCR: True")])
def test_define_picks_a_bool_or_string_performance_param(tmp_path, given, shown):
    """SPAPT's SCREP/VEC/OMP flags are [False, True] and build flags are strings: -D picks them
    by their spelling (once only integers were accepted)."""
    src = tmp_path / "flags.c"
    src.write_text(FLAGGED)
    rc, out, err = cli("transform", src, *[a for g in given for a in ("-D", g)])
    assert rc == 0, err
    params = re.search(r"params: \{(.*)\}", out).group(1)
    assert all(p in params for p in shown.split(", ")), (params, shown)
    code = tmp_path / "t.c"
    code.write_text(out)
    assert _run_main(tmp_path, code) == _run_main(tmp_path, src)
    rc, out, err = cli("search", src, *[a for g in given for a in ("-D", g)], "--db", tmp_path / "f.db",
                       "--no-progress", "--budget", "2")
    assert rc == 0 and "status: ok 2" in out, out + err
    with ResultsDB(tmp_path / "f.db", create=False) as rdb:
        rows = [r for s in rdb.searches() for r in rdb.evaluations(s.key)]
    # the flags each point was built with, not the build command's template
    assert rows and all(r.flags == f"gcc {r.point['CF']}" for r in rows), [r.flags for r in rows]


@pytest.mark.parametrize("given, what", [
    ("SCR=maybe", ":3:55: error: --define SCR=maybe is not a value of performance param 'SCR' (False, True)"),
    ("SN=big", ": error: bad --define 'SN=big': 'big' is not an integer")])
def test_define_of_an_unknown_spelling_is_located(tmp_path, given, what):
    src = tmp_path / "flags.c"
    src.write_text(FLAGGED)
    rc, out, err = cli("transform", src, "-D", given)
    assert rc == 2 and err.startswith(f"{src}{what}") and len(err.strip().splitlines()) == 1, err


FRAGMENT = """/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O1'; }
  def performance_params { param U[] = [1,2,3]; }
  def input_params { param N[] = [64, 37]; }
  def input_vars { decl dynamic double x[N] = random; decl dynamic double y[N] = 0; }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
int i;
int n = N - 1;
/*@ begin Loop (
  transform Unroll(ufactor=U)
  for (i=0; i<=n-1; i++)
    y[i] = 2.0*x[i] + x[i+1];
) @*/
for (i=0; i<=n-1; i++)
  y[i] = 2.0*x[i] + x[i+1];
/*@ end @*/
/*@ end @*/
"""


def test_a_fragment_local_set_from_a_size_gets_its_value(tmp_path):
    """Orio pastes a fragment into main(), so `int n = N - 1;` is a local there; once looptx
    asked for --define n=VALUE."""
    src = tmp_path / "frag.c"
    src.write_text(FRAGMENT)
    rc, out, err = cli("search", src, "--db", tmp_path / "f.db", "--no-progress")
    assert rc == 0 and out.count("status: ok 3") == 2, out + err
    check_best(str(src), str(tmp_path / "frag.best.c"), [{"N": 64}, {"N": 37}], tmp_path)
    changed = FRAGMENT.replace("int n = N - 1;", "int n = N - 1;\nvoid shrink(void) { n--; }")
    src.write_text(changed)
    rc, out, err = cli("search", src, "--db", tmp_path / "g.db", "--no-progress")
    assert rc == 2 and "the size 'n' has no value" in err, out + err


STRIDED = """/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O1'; }
  def performance_params { param U[] = [1,2,3]; }
  def input_params { param lx[] = [4, 5]; param ly[] = [3]; param ne[] = [7]; }
  def input_vars { decl dynamic double u[ne*lx*ly] = random; decl dynamic double w[ne*lx*ly] = 0; }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
int e, j, i;
/*@ begin CHiLL ( unroll(0,"j",U) ) @*/
for (e = 0; e < ne; e++)
  for (j = 0; j < ly; j++)
    for (i = 0; i < lx; i++)
      w[e*lx*ly + j*lx + i] = 2.0 * u[e*lx*ly + j*lx + i] + u[e*lx*ly + i];
/*@ end @*/
/*@ end @*/
"""


def test_a_stride_that_is_a_product_of_fixed_sizes_is_affine(tmp_path):
    """nekbone-style `e*lx*ly + j*lx + i` with every size given: once refused as 'stride lx*ly
    is a product of sizes' even with the sizes fixed."""
    src = tmp_path / "nek.c"
    src.write_text(STRIDED)
    rc, out, err = cli("search", src, "--db", tmp_path / "n.db", "--no-progress")
    assert rc == 0 and out.count("status: ok 3") == 2, out + err
    best = tmp_path / "nek.best.c"
    assert "if (lx == 4 && ly == 3 && ne == 7)" in best.read_text()
    sizes = [{"lx": 4, "ly": 3, "ne": 7}, {"lx": 5, "ly": 3, "ne": 7}, {"lx": 6, "ly": 2, "ne": 3}]
    check_best(str(src), str(best), sizes, tmp_path)     # the last size runs the code as written


def test_a_stride_of_defined_macros_is_affine(tmp_path):
    src = tmp_path / "m.c"
    src.write_text("#define lx 10\n#define ly 10\ndouble x[300];\nvoid f(void) {\n  int i;\n"
                   "/*@ begin CHiLL ( unroll(0,\"i\",2) ) @*/\nfor (i = 0; i < 3; i++)\n"
                   "  x[i*lx*ly] = 2.0 * x[i*lx*ly] + i;\n/*@ end @*/\n}\n")
    rc, out, err = cli("run", src, "--repetitions", 1)
    assert rc == 0 and "m.c: ok" in out, out + err


def test_a_pointer_parameter_over_a_two_dimensional_decl_is_read_in_a_row(tmp_path):
    """`double *x` over `decl static double x[N][N]`, indexed x[i*N + j]: once 'the extent of
    array x is unknown' although input_vars gives it."""
    src = tmp_path / "row.c"
    src.write_text("""void scale(double *x) {
/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O1'; }
  def performance_params { param U[] = [1,2,3]; }
  def input_params { param N[] = [16, 13]; }
  def input_vars { decl static double x[N][N] = random; }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
  int i, j;
/*@ begin Loop (
  transform UnrollJam(ufactor=U)
  for (i=0; i<=N-1; i++)
    for (j=1; j<=N-1; j++)
      x[i*N+j] = 2.0*x[i*N+j-1] + x[i*N+j];
) @*/
/*@ end @*/
/*@ end @*/
}
""")
    rc, out, err = cli("search", src, "--db", tmp_path / "r.db", "--no-progress")
    assert rc == 0 and out.count("status: ok 3") == 2, out + err


DECL_H = """/* SPAPT-style decl file */
#define STRIDE 2
#ifdef DYNAMIC
double *x;
#else
double x[N*STRIDE];
#endif
"""
DECL_FILE = """/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O1 BUILD'; }
  def performance_params { param U[] = [1,2]; }
  def input_params { param N[] = [40, 23]; }
  def input_vars { arg decl_file = 'decl.h'; }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
int i;
/*@ begin Loop (
  transform Unroll(ufactor=U)
  for (i=0; i<=N-1; i++)
    x[i*STRIDE] = 2.0*x[i*STRIDE+1];
) @*/
/*@ end @*/
/*@ end @*/
"""


def test_a_decl_file_with_directives_is_preprocessed_with_the_build_flags(tmp_path):
    """Two of three real decl files use #ifdef/#define; once an unlocated 'directives not
    supported yet' error.  The build command's -D flags steer them, as in Orio."""
    (tmp_path / "decl.h").write_text(DECL_H)
    src = tmp_path / "d.c"
    src.write_text(DECL_FILE.replace(" BUILD", ""))
    rc, out, err = cli("search", src, "--db", tmp_path / "d.db", "--no-progress")
    assert rc == 0 and out.count("status: ok 2") == 2, out + err
    src.write_text(DECL_FILE.replace("BUILD", "-DDYNAMIC"))
    rc, out, err = cli("search", src, "--db", tmp_path / "e.db", "--no-progress")
    # pointers: allocated as far as the loop reaches into them
    assert rc == 0 and out.count("status: ok 2") == 2, out + err


ALIAS_DECL_H = """#define n N
double A[N*N];
double x[N];
double y[N];
"""
ALIAS_FILE = """/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O1'; }
  def performance_params { param U[] = [1, 2, 4]; }
  def input_params { param N[] = [40, 23]; }
  def input_vars { arg decl_file = 'decl.h'; }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
int i, j;
/*@ begin Loop(
  transform Composite(unrolljam = (['j'], [U]))
  for (i = 0; i <= n-1; i++)
    for (j = 0; j <= n-1; j++)
      y[i] = y[i] + A[i*n+j]*x[j];
) @*/
for (i = 0; i <= n-1; i++)
  for (j = 0; j <= n-1; j++)
    y[i] = y[i] + A[i*n+j]*x[j];
/*@ end @*/
/*@ end @*/
"""
ALIAS_MAIN = """#include <stdio.h>
#include "decl.h"
int main(void) {
  for (int q = 0; q < N * N; q++) A[q] = (q * 7 % 11) / 8.0;
  for (int q = 0; q < N; q++) { x[q] = (q % 5) / 4.0; y[q] = q; }
#include "FRAGMENT"
  for (int q = 0; q < N; q++) printf("%.17g\\n", y[q]);
  return 0;
}
"""


def test_a_decl_file_macro_alias_of_a_size_is_a_size(tmp_path):
    """SPAPT's gemver and atax decl files `#define n N`; Orio includes them before the code,
    so the code's `n` is the problem size (once 'undeclared identifier n')."""
    (tmp_path / "decl.h").write_text(ALIAS_DECL_H)
    src = tmp_path / "alias.c"
    src.write_text(ALIAS_FILE)
    rc, out, err = cli("search", src, "--db", tmp_path / "a.db", "--no-progress")
    assert rc == 0 and out.count("status: ok 3") == 2, out + err
    for n in (40, 23):
        outputs = []
        for frag in (src, tmp_path / "alias.best.c"):
            main = tmp_path / f"main_{frag.stem}_{n}.c"
            main.write_text(ALIAS_MAIN.replace("FRAGMENT", str(frag)))
            exe = tmp_path / f"m_{frag.stem}_{n}"
            subprocess.run(["gcc", "-O1", "-w", f"-DN={n}", "-I", str(tmp_path), str(main), "-o", str(exe)],
                           check=True)
            outputs.append(subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout)
        assert len(outputs[0].split()) == n and outputs[0] == outputs[1]


def test_orio_init_and_validation_files_are_noted_not_silently_ignored(tmp_path):
    text = SCALE.replace("def search {", "def validation { arg validation_file = 'check.c'; }\n  def search {") \
        .replace("decl dynamic double x[SN] = random; }", "decl dynamic double x[SN] = random; "
                 "arg init_file = 'init.c'; }")
    src = tmp_path / "v.c"
    src.write_text(text)
    rc, out, err = cli("search", src, "--db", tmp_path / "v.db", "--no-progress")
    assert rc == 0, out + err
    notes = err.strip().splitlines()
    assert notes == [f"{src}:5: note: init_file 'init.c' is not run: looptx fills the inputs with "
                     "seeded random data (the sizes its init function sets first, `n = N;`, are read)",
                     f"{src}:6: note: validation_file 'check.c' is not used: looptx checks each "
                     "variant against the original code"], err


CHAINED = """#define N 20
double A[N], B[N], s, t;
void f(void) {
  int i;
#pragma scop
  for (i = 0; i < N; i++)
    B[i] = A[i] = s = t = i * 0.5;
  for (i = 1; i < N; i++) {
    s = t = A[i - 1];
    A[i] += s + t;
  }
#pragma endscop
}
"""


def test_chained_assignments_are_statements_in_order(tmp_path):
    """MILC's `cr = ci = 0.0;` was 'assignment inside an expression'.  `a = b = E` is
    `b = E; a = b;`: statements 0-3 in the first loop, 4-6 in the second."""
    (tmp_path / "ch.c").write_text(CHAINED)
    (tmp_path / "r.yaml").write_text("steps:\n  - unroll: {stmt: 3, loop: i, factor: 3}\n"
                                     "  - shift: {stmt: 6, loop: i, by: 2}\n")
    rc, out, err = cli("run", tmp_path / "ch.c", "--recipe", tmp_path / "r.yaml", "--repetitions", 1)
    assert rc == 0 and "ch.c: ok" in out, out + err
    rc, out, err = cli("transform", tmp_path / "ch.c")
    assert rc == 0 and "t = i * 0.5;\n      s = t;\n      A[i] = s;\n      B[i] = A[i];" in out, out


MILC = """/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O1 @CFLAGS'; }
  def performance_params {
    param U1[] = [1] + range(2, 4);
    param CFLAGS[] = map(join, product(['', '-funroll-loops']));
  }
  def input_params { param SITES[] = [5]; }
  def input_vars {
    decl dynamic double A[18*SITES] = random;
    decl dynamic double x[6*SITES] = random;
    decl dynamic double y[6*SITES] = 0;
  }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
int i, j, k;
double ar, ai, br, bi, cr, ci;
int sites_on_node = SITES;
/*@ begin Loop(
  transform RegTile(loops=['j'], ufactors=[U1])
  for(i=0; i<=sites_on_node-1; i++) {
    for(j=0; j<=5; j+=2) {
      cr = ci = 0.0;
      for(k=0; k<=5; k+=2) {
        ar=A[18*i+3*j+k];
        ai=A[18*i+3*j+k+1];
        br=x[6*i+k];
        bi=x[6*i+k+1];
        cr += ar*br - ai*bi;
        ci += ar*bi + ai*br;
      }
      y[6*i+j]  =cr;
      y[6*i+j+1]=ci;
    }
  }
) @*/
/*@ end @*/
/*@ end @*/
"""


def test_milc_matvec_as_written(tmp_path):
    """MILC's Orio file: Python 2 param lists ([1] + range(2, 4), map(join, product(...))), a
    fragment-scope `int sites_on_node = SITES;`, a chained assignment, strided loops."""
    src = tmp_path / "milc.c"
    src.write_text(MILC)
    rc, out, err = cli("search", src, "--db", tmp_path / "m.db", "--no-progress")
    # a register tile of 2 or 3 jams as many iterations of j (j += 2: a factor counts
    # iterations, as in Orio), which share the scalars cr, ci (looptx does not privatize):
    # those four points are illegal, U1 = 1 validates
    assert rc == 0 and "status: illegal 4, ok 2" in out, out + err
    assert "best variant written" in out


def test_transform_of_a_fragment_checks_the_size_it_was_made_for(tmp_path):
    """`transform` makes a fragment's code at its first input_params size, which the file does
    not declare: other sizes (the spec's second, a third) run the region as written."""
    src = tmp_path / "two.c"
    src.write_text(STRIDED.replace("param U[] = [1,2,3];", "param U[] = [2,3];"))
    out = tmp_path / "two.out.c"
    rc, _, err = cli("transform", src, "-o", out)
    assert rc == 0, err
    guard = re.search(r"if \((.*)\) \{", out.read_text()).group(1)
    assert sorted(guard.split(" && ")) == ["lx == 4", "ly == 3", "ne == 7"], guard
    assert re.search(r"the region is transformed for (\w+ = \d+, ){3}the problem size being built "
                     r"\(--define, else the first of input_params\)", err), err
    sizes = [{"lx": 4, "ly": 3, "ne": 7}, {"lx": 5, "ly": 3, "ne": 7}, {"lx": 6, "ly": 2, "ne": 3}]
    check_best(str(src), str(out), sizes, tmp_path)
    # a size given with --define is the user's: no check
    rc, text, err = cli("transform", src, "-D", "lx=5", "-D", "ly=3", "-D", "ne=7")
    assert rc == 0 and "lx == " not in text and "problem size being built" not in err, text + err


def test_define_picks_a_sequence_param_as_the_spec_writes_it():
    # Orio specs write loop orders as lists (param PERM[] = [['i1','i2'], ['i2','i1']]); the
    # evaluator keeps them as tuples: -D takes either spelling, quoted or bare
    from types import SimpleNamespace
    from looptx.errors import AnnotationError
    from looptx.search.from_spec import picked
    p = SimpleNamespace(name="PERM", values=[("i1", "i2"), ("i2", "i1")], file="f.c", line=3, col=9)
    for given in ("['i2','i1']", "('i2', 'i1')", "[i2, i1]", "i2,i1"):
        assert picked(None, p, given) == ("i2", "i1"), given
    with pytest.raises(AnnotationError, match="not a value"):
        picked(SimpleNamespace(file="f.c"), p, "['i1','i1']")
