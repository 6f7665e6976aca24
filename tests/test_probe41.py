"""Probe 41 (CloverLeaf, TeaLeaf, stencil benchmarks): regions an OpenMP team shares out,
pragmas in the as-written branch, a `?:` inside a branch temporary's value, stores after the
region that kill a private's value, shift hints for 2-D fuses, the header's statement numbers,
and a private list naming a variable privatized before."""
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "probe41"


def _recipe(tmp_path, *steps, name="r.yaml"):
    r = tmp_path / name
    r.write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps))
    return r


@pytest.mark.parametrize("name, where, what", [
    ("omp_for_before.c", "omp_for_before.c:7:1", "'#pragma omp for' shares out the region's first loop"),
])
def test_a_loop_a_team_shares_out_is_refused_with_the_layout_that_works(tmp_path, name, where, what):
    """Rewritten without its `omp for`, every thread of the team ran every iteration (u + 2p)."""
    rc, out, err = run_cli("transform", DATA / name, "--recipe", _recipe(tmp_path, "unroll: {stmt: 0, loop: i, factor: 2}"))
    assert rc == 2 and f"{where}: error: {what}" in err and "give it an omp_for step" in err, err
    assert err.count("\n") == 1, err


def test_the_as_written_branch_keeps_the_regions_pragmas(tmp_path):
    """calc_dt's `#pragma omp parallel { #pragma omp for reduction(min:m) ... }`: the branch for
    sizes that break the row facts lost the first and kept the second, which gcc refuses."""
    r = _recipe(tmp_path, "omp_for: {stmt: 1, loop: k, reduction: {min: [m]}}")
    out_c = tmp_path / "out.c"
    rc, out, err = run_cli("transform", DATA / "calc_dt_min.c", "--function", "minval", "--recipe", r, "-o", out_c)
    assert rc == 0, err
    text = out_c.read_text()
    assert "} else {" in text and "#pragma omp parallel\n" in text, text
    p = subprocess.run(["gcc", "-fopenmp", "-Wall", "-Werror", "-c", str(out_c), "-o", str(tmp_path / "o.o")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    rc, out, err = run_cli("run", DATA / "calc_dt_min.c", "--function", "minval", "--recipe", r, "-D", "xmin__0=1",
                           "-D", "xmax__0=30", "-D", "ymin__0=1", "-D", "ymax__0=20", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


def test_a_min_in_a_branch_temporarys_value_is_part_of_the_value(tmp_path):
    """viscosity's `grad = MIN(xgrad, ygrad)` under the else arm: xgrad is still written before
    it is read in each iteration where the arm runs."""
    r = _recipe(tmp_path, "omp_for: {stmt: 0, loop: j, private: [lim, pgrad, xgrad, ygrad, grad]}")
    rc, out, err = run_cli("transform", DATA / "viscosity_min.c", "--recipe", r)
    assert rc == 0 and "'pgrad', 'xgrad', 'ygrad', 'grad' are set and read only under branches" in err, err
    rc, out, err = run_cli("run", DATA / "viscosity_min.c", "--recipe", r, "-D", "n=40", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("name", ["pdv_branches.c", "later_write.c"])
def test_a_store_after_the_region_that_reads_no_old_value_kills_it(tmp_path, name):
    r = _recipe(tmp_path, "privatize: {stmt: 0, var: t, at: i}", "omp_for: {stmt: 0, loop: i}")
    rc, out, err = run_cli("transform", DATA / name, "--recipe", r)
    assert rc == 0 and "#pragma omp parallel for private(t)" in out, err
    # a read of the region's value after it is still refused
    src = tmp_path / name
    src.write_text((DATA / name).read_text().replace("t = a[i] + 1.0;", "t = t + a[i];"))
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 2 and "after the region" in err, err


def test_a_2d_fuse_gets_the_shifts_of_the_outer_loops_too(tmp_path):
    r = _recipe(tmp_path, "fuse: {stmts: [0, 1], loop: j}")
    rc, out, err = run_cli("transform", DATA / "jacobi2d_fuse.c", "--recipe", r)
    assert rc == 2 and "the statements fuse after 'shift: {stmt: 1, loop: i, by: 1}'" in err, err
    r = _recipe(tmp_path, "shift: {stmt: 1, loop: i, by: 1}", "fuse: {stmts: [0, 1], loop: j}")
    for n, m in ((9, 7), (16, 16)):
        rc, out, err = run_cli("run", DATA / "jacobi2d_fuse.c", "--recipe", r, "-D", f"n={n}", "-D", f"m={m}",
                               "--repetitions", "1")
        assert rc == 0 and ": ok" in out, out + err


def test_the_header_shows_the_recipes_file_numbers(tmp_path):
    rc, out, err = run_cli("transform", DATA / "two_regions.c", "--recipe", DATA / "two_regions.yaml")
    assert rc == 0, err
    assert " *   distribute: {stmts: [1, 2], loop: i}\n *   unroll: {stmt: 2, loop: i, factor: 2}" in out, out


def test_a_private_list_may_name_a_variable_privatized_before(tmp_path):
    r = _recipe(tmp_path, "privatize: {var: t, at: j}", "tile: {stmt: 0, loop: j, size: 32, control: jj}",
                "permute: {stmt: 0, order: [jj, i, j]}", "omp_for: {stmt: 0, loop: jj, private: [t]}")
    rc, out, err = run_cli("transform", DATA / "private_after.c", "--recipe", r)
    assert rc == 0 and "'t' is private already" in err and "private(i, j, t)" in out, err
    rc, out, err = run_cli("run", DATA / "private_after.c", "--recipe", r, "-D", "n=40", "-D", "m=33",
                           "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


def test_an_orio_fragments_own_declaration_may_be_privatized(tmp_path):
    """`double t;` at the fragment's top is a local of the function Orio pastes it into."""
    import shutil
    from conftest import cli_process
    shutil.copy(DATA / "frag_privatize.c", tmp_path / "frag.c")
    p = cli_process("search", "frag.c", "--no-progress", cwd=tmp_path)
    assert p.returncode == 0 and "ok 2" in p.stdout, p.stdout + p.stderr
    # a variable the fragment reads after the region stays refused
    src = tmp_path / "frag2.c"
    src.write_text((DATA / "frag_privatize.c").read_text().replace(
        "/*@ end @*/\n/*@ end @*/", "/*@ end @*/\n/*@ begin CHiLL ( ) @*/\nfor (i = 0; i < N; i++)\n"
        "  b[i] = b[i] + t;\n/*@ end @*/\n/*@ end @*/"))
    p = cli_process("search", "frag2.c", "--no-progress", cwd=tmp_path)
    assert p.returncode == 2 and "'t' cannot be private" in p.stderr, p.stdout + p.stderr
