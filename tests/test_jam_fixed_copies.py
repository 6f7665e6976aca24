"""A jam's copies with their own locals, where the generated code does not run them as an
unrolled loop from the strip's first copy: unroll-and-jam of an autocorrelation (EEMBC autcor00,
inner bound n - lag) then an unroll of the inner loop.  isl writes the last strip's copies with
the point loop fixed to one value (`if (i == 4) { ... }`) or as a loop that starts at the second
copy (`for (c5 = lag + 1; ...)`); both were named as copy 0, so lag + 1's terms went into lag's
accumulator: wrong results that only `run` caught."""
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "jam_copies"


def _recipe(tmp_path, jam, unroll, private=True):
    r = tmp_path / f"r{jam}{unroll}{private}.yaml"
    r.write_text("steps:\n" + "  - privatize: {var: acc, at: lag}\n" * private
                 + f"  - unroll_jam: {{stmt: 0, loop: lag, factor: {jam}}}\n"
                 + f"  - unroll: {{stmt: 1, loop: i, factor: {unroll}}}\n")
    return r


@pytest.mark.parametrize("src,jam,unroll,n,m", [
    ("autocorr.c", 2, 4, 8, 2), ("autocorr.c", 2, 4, 30, 11), ("autocorr.c", 3, 3, 9, 9),
    ("autocorr.c", 3, 4, 30, 11), ("autocorr.c", 3, 2, 17, 5), ("autocorr_stride2.c", 2, 3, 30, 11),
    ("autocorr_stride2.c", 2, 3, 9, 9), ("autocorr_local.c", 2, 4, 8, 2)])
def test_each_copy_accumulates_in_its_own_variable(tmp_path, src, jam, unroll, n, m):
    """Each case failed before (wrong result)."""
    r = _recipe(tmp_path, jam, unroll, private=src != "autocorr_local.c")
    rc, out, err = run_cli("run", DATA / src, "--function", "autocorr", "--recipe", r, "-D", f"n={n}", "-D",
                           f"m={m}", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


DRIVER = r"""
#include <math.h>
#include <stdio.h>
void autocorr(int n, int m, double *x, double *y);
int main(void)
{
  double x[40], y[40];
  for (int k = 0; k < 40; k++) x[k] = 1.0 / (k + 2) + 0.25 * (k % 5);
  for (int n = 1; n <= 31; n++)
    for (int m = 1; m <= n; m++) {
      autocorr(n, m, x, y);
      for (int lag = 0; lag < m; lag++) {
        double want = 0;
        for (int i = 0; i < n - lag; i++) want += x[i] * x[i + lag];
        if (fabs(y[lag] - want) > 1e-12 * (1 + fabs(want))) {
          printf("n=%d m=%d y[%d] = %.17g, want %.17g\n", n, m, lag, y[lag], want);
          return 1;
        }
      }
    }
  printf("ok\n");
  return 0;
}
"""


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc on PATH: the test compiles the generated C (CI has it)")
@pytest.mark.parametrize("jam,unroll", [(2, 4), (3, 3), (3, 4)])
def test_the_code_for_every_size_agrees(tmp_path, jam, unroll):
    """Without --define: one output for every n and m, run at 1 <= m <= n <= 31."""
    rc, out, err = run_cli("transform", DATA / "autocorr.c", "--function", "autocorr", "--recipe",
                           _recipe(tmp_path, jam, unroll))
    assert rc == 0, err
    (tmp_path / "k.c").write_text(out)
    (tmp_path / "main.c").write_text(DRIVER)
    exe = tmp_path / "a.out"
    # gcc cannot see that a copy's statements run under the guards that set its accumulator
    # (a last strip's copies), and says it "may be used uninitialized"
    p = subprocess.run(["gcc", "-O1", "-Wall", "-Werror", "-Wno-maybe-uninitialized", str(tmp_path / "k.c"), str(tmp_path / "main.c"),
                        "-lm", "-o", str(exe)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    p = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stdout.strip() == "ok", p.stdout


@pytest.mark.parametrize("src,outer,inner,jam,unroll", [
    ("xcorr_lower.c", "j", "i", 2, 2), ("xcorr_lower.c", "j", "i", 4, 2), ("xcorr_lower.c", "j", "i", 3, 5),
    ("trmv.c", "i", "j", 4, 2), ("trmv.c", "i", "j", 4, 3), ("trmv.c", "i", "j", 3, 5)])
def test_jams_of_triangular_loops_from_the_diagonal(tmp_path, src, outer, inner, jam, unroll):
    """`for (i = j; ...)` and `for (j = 0; j <= i; ...)`: a copy isl writes alone may be a
    different copy at each value of the loops around it (the diagonal element of each jammed
    row): it is written once per copy, under the test of which one it is.  61 of 72 such runs
    gave wrong results before."""
    r = tmp_path / "r.yaml"
    r.write_text(f"steps:\n  - unroll_jam: {{stmt: 0, loop: {outer}, factor: {jam}}}\n"
                 f"  - unroll: {{stmt: 1, loop: {inner}, factor: {unroll}}}\n")
    for n, m in ((9, 9), (13, 7), (6, 6)):
        rc, out, err = run_cli("run", DATA / src, "--function", "f", "--recipe", r, "-D", f"n={n}", "-D", f"m={m}",
                               "--repetitions", "1")
        assert rc == 0 and ": ok" in out, (n, m, out + err)
