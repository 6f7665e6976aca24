"""Orio files as users wrote them: a PerfTuning block inside the tuned function, whose pointer
parameters input_vars declares with extents, a local `int n=N;` bounding the loop, and Orio's
Align module around the Loop annotation (from Orio's Blue Gene axpy examples).  Also integer
locals initialized from sizes in plain C regions."""
from __future__ import annotations

import math
import subprocess

import pytest
from conftest import run_cli as cli

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
    assert "if (N == 1000)" in text and "if (N == 999)" in text and "int n=N;" in text
    for n in (1000, 999, 7):
        want = _outputs(tmp_path, src, n)
        got = _outputs(tmp_path, best, n)
        assert len(want) == len(got) == n
        assert all(math.isclose(a, b, rel_tol=1e-12, abs_tol=0) for a, b in zip(want, got))


def test_a_pointer_parameter_input_vars_does_not_declare_still_asks_for_extents(tmp_path):
    src = tmp_path / "axpy4.c"
    src.write_text(AXPY.replace("   decl dynamic double y[N] = 0;\n", ""))
    rc, out, err = cli("search", src, "--db", tmp_path / "a.db", "--no-progress")
    assert rc == 2, out + err
    line = err.strip().splitlines()[-1]
    assert "the extent of array 'y' is unknown" in line and line.startswith(f"{src}:2:"), err


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
