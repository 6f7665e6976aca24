"""Probe 49 (hand-optimized dense linear algebra: CS267, how-to-optimize-gemm, ulmBLAS, f2c
BLAS, Orio): unroll-and-jam inside CS267's hand-blocked square_dgemm (isl's parametric
minimum failed on the blocks' disjunctions); jammed locals declared with 0 so that gcc -Wall
is quiet; the cleanup loop that continues from the unrolled loop's iterator; Orio's
scalarreplace on subscripts written with function-like macros; the dialect's step aliases."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import cli_process as cli

DATA = Path(__file__).resolve().parent / "data" / "probe49"
needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc on PATH (CI has it): builds, runs and compiles the kernels")


def _recipe(tmp_path, *steps) -> Path:
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps))
    return r


DGEMM_DRIVER = r"""
#include <stdio.h>
#include <stdlib.h>
void square_dgemm(int lda, double *A, double *B, double *restrict C);
int main(int argc, char **argv)
{
    int n = atoi(argv[1]);
    double *m = malloc(3 * sizeof(double) * n * n), sum = 0;
    srand(7);
    for (int i = 0; i < 3 * n * n; i++)
        m[i] = rand() % 10;                 /* small integers: every sum is exact */
    square_dgemm(n, m, m + n * n, m + 2 * n * n);
    for (int i = 0; i < n * n; i++)
        sum += m[2 * n * n + i] * (i % 7 + 1);
    printf("%.1f\n", sum);
    return 0;
}
"""


@needs_gcc
def test_unroll_jam_inside_a_hand_blocked_dgemm(tmp_path):
    # three loops stepping by BLOCK_SIZE = 41, `int M = min(BLOCK_SIZE, lda - i)`, a local cij;
    # every factor met the same isl failure (3, 4, 5 and 8 on either block loop).  The code
    # for any lda, run at sizes that do and do not divide the block and the factor: each model
    # takes twenty seconds of exact dependence analysis, so `looptx run` (which checks both
    # the code for its -D sizes and this one) is left to the smaller kernels.
    r = _recipe(tmp_path, "unroll_jam: {stmt: 0, loop: jj, factor: 3}")
    out = tmp_path / "jammed.c"
    p = cli("transform", "cs267_inl.c", "--function", "square_dgemm", "--recipe", r, "-o", out, cwd=DATA)
    assert p.returncode == 0, p.stderr
    assert "cij__jj2" in out.read_text()
    (tmp_path / "driver.c").write_text(DGEMM_DRIVER)
    results = {}
    for name, src in (("original", DATA / "cs267_inl.c"), ("jammed", out)):
        exe = tmp_path / name
        g = subprocess.run(["gcc", "-O1", str(tmp_path / "driver.c"), str(src), "-o", str(exe)],
                           capture_output=True, text=True)
        assert g.returncode == 0, g.stderr
        results[name] = [subprocess.run([str(exe), str(n)], capture_output=True, text=True, check=True).stdout
                         for n in (82, 83, 50)]
    assert results["jammed"] == results["original"]


@needs_gcc
@pytest.mark.parametrize("name, function, recipe, flags", [
    ("cs267_starter.c", "do_block", "unroll_jam: {stmt: 0, loop: i, factor: 4}", ()),
    ("kobe_transpose.c", "do_block_cr", None, ("-fopenmp",)),
])
def test_jammed_locals_leave_gcc_quiet(tmp_path, name, function, recipe, flags):
    r = _recipe(tmp_path, recipe) if recipe else DATA / "r_kobe2.yaml"
    out = tmp_path / "out.c"
    p = cli("transform", name, "--function", function, "--recipe", r, "-o", out, cwd=DATA)
    assert p.returncode == 0, p.stderr
    g = subprocess.run(["gcc", "-O2", "-Wall", "-Werror", *flags, "-c", str(out), "-o", str(tmp_path / "o.o")],
                       capture_output=True, text=True)
    assert g.returncode == 0, g.stderr
    if flags:
        # the copies start at their declared 0 in each thread too
        assert "firstprivate(bkj, bkj__k1, bkj__k2, bkj__k3)" in out.read_text()
        p = cli("run", name, "--function", function, "--recipe", r, "--cflags", "-O2 -fopenmp", "-D", "lda=37",
                "-D", "M=37", "-D", "N=29", "-D", "K=31", "--repetitions", "1", cwd=DATA,
                env={**os.environ, "OMP_NUM_THREADS": "2"})
        assert p.returncode == 0 and ": ok" in p.stdout, p.stdout + p.stderr


CONTINUED = """\
void f(int n, int m, double *x, double *y)
{
  int i;
  for (i = 2; i < n - 4; i += 3)
    y[i] = x[i] + x[i + 1] + x[i + 2];
  for (; i <= n; i++)
    y[i] = 2.0 * x[i];
  for (; i < m; i++)
    y[i] = 3.0 * x[i];
}
"""


@needs_gcc
def test_a_cleanup_loop_continues_from_the_loop_before_it(tmp_path):
    p = cli("run", "cs267_l1.c", "--function", "do_block_l1", "-D", "lda=40", "-D", "M=37", "-D", "N=29",
            "-D", "K=31", "--repetitions", "1", cwd=DATA)
    assert p.returncode == 0 and ": ok" in p.stdout, p.stdout + p.stderr
    (tmp_path / "c.c").write_text(CONTINUED)
    for n in (0, 1, 5, 6, 7, 8, 22, 35):       # the step-3 loop runs 0, 1, 2, ... times
        p = cli("run", "c.c", "--function", "f", "-D", f"n={n}", "-D", "m=30", "--repetitions", "1", cwd=tmp_path)
        assert p.returncode == 0 and ": ok" in p.stdout, (n, p.stdout + p.stderr)
    p = cli("transform", "c.c", "--function", "f", cwd=tmp_path)
    assert "for (i = n - (n - 1) % 3 - 2; i <= n; i++)" in p.stdout, p.stdout


def test_a_loop_without_a_start_says_where_looptx_takes_one(tmp_path):
    (tmp_path / "c.c").write_text("void f(int n, double *x)\n{\n  int i;\n  i = 0;\n  for (; i < n; i++)\n"
                                  "    x[i] = 0.0;\n}\n")
    p = cli("transform", "c.c", "--function", "f", cwd=tmp_path)
    assert p.returncode == 2 and p.stderr.startswith("c.c:5:3: error: the loop does not initialise its iterator"), p.stderr
    assert "a declaration `int i = LB;` or a loop over i right before it" in p.stderr, p.stderr


def test_orio_scalarreplace_sees_through_function_like_macros():
    # how-to-optimize-gemm's `C( i,j )` for c[(j)*ldc + (i)]
    p = cli("transform", "orio_loop_cm.c", "-D", "T1_J=1", "-D", "T1_P=1", "-D", "T2_J=1", "-D", "U_I=2",
            "-D", "U_J=1", "-D", "SCREP=True", cwd=DATA)
    assert p.returncode == 0, p.stderr
    head = p.stdout.split("*/", 1)[0]
    # one step per array; those whose array varies with `i` are left out, and the header,
    # which can be given again, lists the one applied (probe 119 G1)
    assert "registers: {stmt: 0, array: b, at: i}" in head, head
    for a in ("c", "a"):
        assert f"(registers) is left out (a hint of the annotation, which does not apply here): '{a}' varies" \
            in p.stderr and f"array: {a}," not in head, p.stderr


def test_the_dialect_takes_the_steps_other_names(tmp_path):
    p = cli("transform", "orio_mmult_uj.c", cwd=DATA)          # unroll_jam(0,"j",UJ)
    assert p.returncode == 0, p.stderr
    (tmp_path / "r.chill").write_text('interchange(0,("j","i","k"))\nunroll_and_jam(0,"i",2)\nscalar_replace(0,"k")\n')
    src = Path(__file__).resolve().parents[1] / "examples" / "matmul.c"
    p = cli("transform", src, "--recipe", tmp_path / "r.chill", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    (tmp_path / "bad.chill").write_text('untroll(0,"i",2)\n')
    p = cli("transform", src, "--recipe", tmp_path / "bad.chill", cwd=tmp_path)
    assert p.returncode == 2 and "unknown or unsupported command 'untroll' (did you mean 'unroll'?)" in p.stderr, p.stderr


def test_a_pointer_stepped_in_the_region_gets_the_index_to_write():
    # ulmBLAS's micro-kernel reads A[i], then `A += MR;` once per iteration of l
    p = cli("deps", "ulm_micro.c", "--function", "dgemm_micro_kernel", cwd=DATA)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert p.stderr.startswith("ulm_micro.c:27:9: error: the region moves pointer 'A' (A += MR)"), p.stderr
    assert "A[k*MR + i] for A[i], with k the iterations of loop 'l'" in p.stderr, p.stderr


def test_an_early_return_stays_outside_the_function_region():
    # `if (alpha == 0.0) return;` before the loops: what is refused now is the branch between
    # the two nests, with its own remedy, not the return
    p = cli("deps", "ulm_dgeaxpy.c", "--function", "dgeaxpy", cwd=DATA)
    assert p.returncode == 2 and "return" not in p.stderr, p.stderr
    assert "ulm_dgeaxpy.c:17:9: error: non-affine condition: 'alpha'" in p.stderr, p.stderr


@needs_gcc
def test_a_function_with_an_early_return_runs(tmp_path):
    (tmp_path / "s.c").write_text("void scal(int n, double a, double *x)\n{\n  int i;\n  if (a == 1.0) return;\n"
                                  "  for (i = 0; i < n; i++)\n    x[i] *= a;\n}\n")
    r = _recipe(tmp_path, "unroll: {stmt: 0, loop: i, factor: 4}")
    p = cli("run", "s.c", "--function", "scal", "--recipe", r, "-D", "n=10", "--repetitions", "1", cwd=tmp_path)
    assert p.returncode == 0 and ": ok" in p.stdout, p.stdout + p.stderr
    assert "the guarded return stays outside the region of 'scal'" in p.stderr, p.stderr
    p = cli("transform", "s.c", "--function", "scal", "--recipe", r, cwd=tmp_path)
    assert "  if (a == 1.0) return;\n" in p.stdout, p.stdout


@needs_gcc
def test_a_jammed_copy_known_in_the_code_has_no_constant_test():
    # LAMMPS's f2c dgemm, T.N path: the last strip's copy is 0 there, `if (0 == 0)` before
    p = cli("transform", "dgemm_f2c_b.c", "--recipe", "r_dgemm_tn.yaml", cwd=DATA)
    assert p.returncode == 0, p.stderr
    assert "if (0 == " not in p.stdout, p.stdout
    for m in (33, 34):
        p = cli("run", "dgemm_f2c_b.c", "--recipe", "r_dgemm_tn.yaml", "-D", "lda__0=37", "-D", "ldb__0=41",
                "-D", "ldc__0=37", "-D", f"m__0={m}", "-D", "n__0=20", "-D", "k__0=37", "--repetitions", "1", cwd=DATA)
        assert p.returncode == 0 and ": ok" in p.stdout, p.stdout + p.stderr
