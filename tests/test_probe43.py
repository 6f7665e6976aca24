"""Probe 43 (spectral-element CFD: Nek5000 / Nekbone mxm in f2c and C, libCEED, MFEM)."""
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "probe43"
MAIN = """#include <stdio.h>
int zero_(double *c__, int *m, int *n, int c_dim1);
int main(void) { static double c[64 * 64]; int m = 5, n = 3; printf("%d\\n", zero_(c, &m, &n, 8)); return 0; }
"""


def _recipe(tmp_path, *steps, name="r.yaml"):
    r = tmp_path / name
    r.write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps))
    return r


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc on PATH: the test builds and runs the generated C (CI has it)")
def test_the_final_values_use_the_bounds_the_region_put_in(tmp_path):
    """The loop headers run again after the region for the counters the function reads there;
    as written they read f2c's `i__2 = *m;`, which the region dropped: zero_ returned 1004."""
    out_c = tmp_path / "out.c"
    r = _recipe(tmp_path, "permute: {stmt: 0, order: [i__, j]}")
    rc, out, err = run_cli("transform", DATA / "f2c_bound_epilogue.c", "--recipe", r, "-o", out_c)
    assert rc == 0, err
    (tmp_path / "main.c").write_text(MAIN)
    p = subprocess.run(["gcc", "-O0", "-Wall", "-Wno-unknown-pragmas", "-Werror", str(tmp_path / "main.c"),
                        str(out_c), "-o", str(tmp_path / "t")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert subprocess.run([str(tmp_path / "t")], capture_output=True, text=True).stdout.strip() == "6004"
    # `int lim = m;` in the outer loop's body: the header named an undeclared 'lim'
    out2 = tmp_path / "out2.c"
    r = _recipe(tmp_path, "permute: {stmt: 0, order: [i, j]}", name="r2.yaml")
    rc, out, err = run_cli("transform", DATA / "c_bound_epilogue.c", "--function", "zero2", "--recipe", r, "-o", out2)
    assert rc == 0, err
    assert "for (i = 0; i < m; ++i)" in out2.read_text()
    p = subprocess.run(["gcc", "-Wall", "-Werror", "-c", str(out2), "-o", str(tmp_path / "o.o")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def test_orio_scalar_replacement_after_an_unroll_by_the_trip_count(tmp_path):
    """Nek5000's key point: unrolljam with U_K = N2 = 8 and SCREP=True gave no scalars and no
    note (the registers step at the unrolled loop was skipped as inapplicable)."""
    out_c = tmp_path / "out.c"
    args = ("-D", "U_J=2", "-D", "U_I=4", "-D", "U_K=8", "-D", "SCREP=True")
    rc, out, err = run_cli("transform", DATA / "orio_mxm_screp.c", *args, "-o", out_c)
    assert rc == 0, err
    assert "c_r[0][0] = c_r[0][0] + a[i] * b[j * N2 + 0];" in out_c.read_text()
    rc, out, err = run_cli("run", DATA / "orio_mxm_screp.c", *args, "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("n", [37, 40])
def test_f2c_parameter_adjustments_stay_outside_a_function_region(tmp_path, n):
    """`--b; --a;` and `a -= a_offset;` before the loops: every f2c routine was refused under
    --function ("'b' used as a pointer")."""
    rc, out, err = run_cli("deps", DATA / "f2c_routines.c", "--function", "mxmf2_")
    assert rc == 0 and "c__[i__ + (j * c_dim1)] += a[i__ + (k * a_dim1)]" in out, err
    r = _recipe(tmp_path, "unroll: {stmt: 0, loop: i__, factor: 4}")
    rc, out, err = run_cli("run", DATA / "f2c_routines.c", "--function", "add2s2_", "--recipe", r,
                           "-D", f"n__0={n}", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err
    r = _recipe(tmp_path, "distribute: {stmts: [1], loop: j}", "permute: {stmt: 1, order: [j, k, i__]}", name="m.yaml")
    rc, out, err = run_cli("run", DATA / "f2c_routines.c", "--function", "mxmf2_", "--recipe", r, "-D", "m1__0=7",
                           "-D", "m2__0=5", "-D", "n3__0=6", "-D", "a_dim1=7", "-D", "b_dim1=5", "-D", "c_dim1=7",
                           "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc on PATH: the test builds and runs the generated C (CI has it)")
@pytest.mark.parametrize("n", [7, 8])
def test_a_fuse_moves_a_statement_between_the_loops_before_them(tmp_path, n):
    """Nekbone's CG update: `rtr = 0.0;` between the update loop and the dot product; fusing
    them put it after the fused loop, which the fuse's hint could not help with."""
    r = _recipe(tmp_path, "fuse: {stmts: [0, 3], loop: i}", "omp_for: {stmt: 0, loop: i, reduction: {+: [rtr]}}",
                "unroll: {stmt: 0, loop: i, factor: 2}")
    rc, out, err = run_cli("transform", DATA / "cg_update.c", "--function", "cg_update", "--recipe", r)
    assert rc == 0 and "statement 2 between the loops now runs before the fused loop" in err, err
    assert out.index("rtr = 0.0;") < out.index("#pragma omp parallel for reduction(+:rtr)"), out
    rc, out, err = run_cli("run", DATA / "cg_update.c", "--function", "cg_update", "--recipe", r, "-D", f"n={n}",
                           "--cflags", "-O2 -fopenmp", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


def test_a_cpu_copy_before_the_outermost_loop_says_what_to_do():
    rc, out, err = run_cli("transform", DATA / "local_grad3_batch.c", "--function", "local_grad3_batch", "--recipe",
                           DATA / "datacopy_around_e.yaml")
    assert rc == 2 and "copy at 'e' itself: once per iteration of 'e'" in err and "blocks" not in err, err


def test_a_parallel_pragma_step_lists_the_locals_its_iterations_write():
    """OpenACC pragmas put back with `pragma` steps: the loop body's locals are declared before
    the region's loops in the output, so the pragma would race on them unless it lists them
    (session 50: the output completes the clause, as it does omp_for's; it used to say so)."""
    rc, out, err = run_cli("transform", DATA / "ax_acc.c", "--recipe", DATA / "acc_unroll2.yaml")
    assert rc == 0, err
    assert "#pragma acc parallel loop gang present(ur, us, ut, u, D) private(i, j, k, wr, ws, wt)" in out, out
    assert "#pragma acc loop collapse(3) vector private(wr, ws, wt)" in out, out
