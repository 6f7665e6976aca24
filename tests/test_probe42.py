"""Probe 42 (the SNU NPB 3.3 C codes): NPB's `logical` enum after <stdio.h>, its `if (timeron)`
timer calls, OpenMP private lists naming loop counters, `k = 1;` before a nest in the region,
and a -D of a floating variable."""
import subprocess
from pathlib import Path

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "probe42"


def _recipe(tmp_path, *steps, name="r.yaml"):
    r = tmp_path / name
    r.write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps))
    return r


def test_true_and_false_are_free_names_after_stdio():
    """`typedef enum { false, true } logical;` (NPB's type.h) after <stdio.h>: only
    <stdbool.h> defines them."""
    for name in ("inline.c", "header.c"):
        rc, out, err = run_cli("deps", DATA / name)
        assert rc == 0 and "parallel" in out, (name, err)


def test_guarded_timer_calls_stay_outside_a_function_region(tmp_path):
    rc, out, err = run_cli("deps", DATA / "timer_add.c", "--function", "add")
    assert rc == 0 and "the guarded call to 'timer_start' stays outside the region of 'add'" in err, err
    rc, out, err = run_cli("deps", DATA / "timer_between.c", "--function", "f")
    assert rc == 0 and "region 1" in out and "the guarded call to 'timer_stop'" in err, err
    rc, out, err = run_cli("transform", DATA / "timer_add.c", "--function", "add",
                           "--recipe", _recipe(tmp_path, "unroll: {stmt: 0, loop: i, factor: 2}"))
    assert rc == 0 and "  if (timeron) timer_start(t_add);\n" in out, out
    # inside a marked region the call is refused, with what to do about it
    rc, out, err = run_cli("deps", DATA / "timer_in_region.c")
    assert rc == 2 and "calls 'timer_stop', which a region cannot hold" in err, err


def test_a_private_list_may_name_the_loop_counters(tmp_path):
    out_c = tmp_path / "add.out.c"
    rc, out, err = run_cli("transform", DATA / "add.c", "--recipe", DATA / "add_omp.yaml", "-o", out_c)
    assert rc == 0 and "'i', 'j', 'm' count loops of the region" in err, err
    text = out_c.read_text()
    assert "#pragma omp parallel for private(i, j, m)" in text, text
    p = subprocess.run(["gcc", "-fopenmp", "-c", str(out_c), "-o", str(tmp_path / "o.o")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def test_a_constant_set_before_a_nest_in_the_region_is_put_in(tmp_path):
    """BT's zeta dissipation: `k = 1; for j, m: rhs[k][j][m] ...; k = 2; ...`."""
    rc, out, err = run_cli("deps", DATA / "zdiss.c")
    assert rc == 0 and "rhs[1][j][m] = rhs[1][j][m]" in out, err
    r = _recipe(tmp_path, "fuse: {stmts: [0, 1], loop: j}")
    for nj in (10, 5):
        rc, out, err = run_cli("run", DATA / "zdiss.c", "--recipe", r, "-D", f"nj={nj}", "--repetitions", "1")
        assert rc == 0 and ": ok" in out, out + err


def test_a_define_of_a_floating_variable_is_a_value_for_both_checks(tmp_path):
    """`-D c1c2=-1` keeps sqrt's argument positive; the check of the code for variable sizes
    read c1c2 from random data and reported NaNs as a wrong result."""
    r = _recipe(tmp_path, "unroll: {stmt: 0, loop: i, factor: 4}")
    rc, out, err = run_cli("run", DATA / "c1c2.c", "--recipe", r, "-D", "n=40", "-D", "c1c2=-1", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


def test_an_omp_private_list_privatizes_as_deep_as_it_can(tmp_path):
    """SP's ninvr: `omp_for private: [r1, ...]` on k, then an unroll-and-jam of j, which needs a
    copy per iteration of i (privatizing at k alone made the jam break a WAW on r1)."""
    r = DATA / "ninvr_omp_jam.yaml"
    rc, out, err = run_cli("transform", DATA / "ninvr.c", "--recipe", r)
    # the function's own r1 (declared without a value) is private, its jam copy firstprivate
    assert rc == 0 and "#pragma omp parallel for private(i, j, r1, r2, r3, r4, r5, t1, t2) " \
        "firstprivate(r1__j1, r2__j1" in out, err
    for sizes in ((5, 4, 7), (2, 3, 2)):
        rc, out, err = run_cli("run", DATA / "ninvr.c", "--recipe", r, *(f"-D{k}={x}" for k, x in zip(("nz2", "ny2", "nx2"), sizes)),
                               "--repetitions", "1")
        assert rc == 0 and ": ok" in out, out + err


def test_a_privatize_without_stmt_goes_to_the_region_that_uses_the_variable(tmp_path):
    r = _recipe(tmp_path, "privatize: {var: u21, at: i}")
    rc, out, err = run_cli("transform", DATA / "two_regions.c", "--recipe", r)
    assert rc == 0, err


def test_no_final_value_loop_where_the_next_time_step_sets_the_counter_first(tmp_path):
    """LU ssor: the region sits in the time-step loop, whose next pass starts `for (i = 0; ...`."""
    r = _recipe(tmp_path, "permute: {stmt: 0, order: [j, i]}")
    rc, out, err = run_cli("transform", DATA / "next_step_loops.c", "--recipe", r)
    assert rc == 0 and "the value the loops leave" not in out, out
    rc, out, err = run_cli("run", DATA / "next_step_loops.c", "--recipe", r, "-D", "n=13", "-D", "niter=2",
                           "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err
