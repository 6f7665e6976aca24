"""Regions an OpenMP team runs (CloverLeaf's and TeaLeaf's `#pragma omp parallel { #pragma omp
for ... }` with the region inside): each nest's `omp for` moves to the outermost loop of the
transformed nest, checked as omp_for is; what is not a shared loop runs under `omp single`.
`run` runs both codes in a team of threads."""
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "team"
pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc on PATH: the test builds and runs the generated C (CI has it)")
OMP = ("--cflags", "-O2 -fopenmp", "--repetitions", "1")


def _recipe(tmp_path, *steps):
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps))
    return r


@pytest.fixture(autouse=True)
def _three_threads(monkeypatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "3")


def _compiles(tmp_path, text):
    c = tmp_path / "out.c"
    c.write_text(text)
    p = subprocess.run(["gcc", "-Wall", "-Wno-unknown-pragmas", "-Werror", "-fopenmp", "-c", str(c),
                        "-o", str(tmp_path / "out.o")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


@pytest.mark.parametrize("n", [7, 8])
def test_an_unrolled_shared_loop_and_its_remainder_run_once(tmp_path, n):
    """Without its `omp for`, every thread ran every iteration (u + 3p with 3 threads); the
    unroll's remainder runs under `omp single`."""
    r = _recipe(tmp_path, "unroll: {stmt: 0, loop: i, factor: 2}")
    rc, out, err = run_cli("transform", DATA / "cheby.c", "--recipe", r)
    assert rc == 0, err
    assert "#pragma omp for\n" in out and "#pragma omp single" in out and "omp parallel for" not in out, out
    _compiles(tmp_path, out)
    rc, out, err = run_cli("run", DATA / "cheby.c", "--recipe", r, "-D", f"n={n}", *OMP)
    assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("x_max", [13, 16])
def test_the_tile_loop_is_shared_with_the_private_temporaries(tmp_path, x_max):
    r = _recipe(tmp_path, "tile: {stmt: 0, loop: k, size: 4}", "tile: {stmt: 0, loop: j, size: 8}")
    rc, out, err = run_cli("transform", DATA / "ideal_gas.c", "--recipe", r)
    assert rc == 0, err
    assert "#pragma omp for private(j, k, pressurebyenergy, pressurebyvolume, sound_speed_squared, v)\n" \
           "      for (int kk = 0;" in out, out
    _compiles(tmp_path, out)
    rc, out, err = run_cli("run", DATA / "ideal_gas.c", "--recipe", r, "-D", "x_min=1", "-D", f"x_max={x_max}",
                           "-D", "y_min=1", "-D", "y_max=10", *OMP)
    assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("y_max", [9, 10])
def test_two_shared_nests_with_a_reduction(tmp_path, y_max):
    r = _recipe(tmp_path, "tile: {stmt: 0, loop: k, size: 4}", "unroll: {stmt: 3, loop: k, factor: 2}",
                "permute: {stmt: 4, order: [j, k]}")
    rc, out, err = run_cli("transform", DATA / "field_summary.c", "--recipe", r)
    assert rc == 0, err
    assert "#pragma omp for reduction(+:vol, mass, ie) private(j, k, cell_mass, cell_mass__k1)\n" in out, out
    assert "#pragma omp for private(k)\n        for (j = x_min;" in out, out
    _compiles(tmp_path, out)
    rc, out, err = run_cli("run", DATA / "field_summary.c", "--recipe", r, "-D", "x_min=1", "-D", "x_max=13",
                           "-D", "y_min=1", "-D", f"y_max={y_max}", *OMP)
    assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("name, where, what", [
    ("carried.c", "step 1 (permute): error", "the team around the region (carried.c:7) shares out the outermost loop "
                                             "of the nest, 'j'"),
    ("racy.c", "racy.c:7:1: error", "the loop that '#pragma omp for private(j)' shares out: S0(1,0) writes a[1][0]"),
    ("extra.c", "extra.c:8:1: error", "the team runs the region's other statements once per thread"),
    ("lastpriv.c", "lastpriv.c:8:1: error", "the 'lastprivate' clause of '#pragma omp for lastprivate(t)'"),
])
def test_layouts_the_team_cannot_keep_are_refused(tmp_path, name, where, what):
    rc, out, err = run_cli("transform", DATA / name, "--recipe", _recipe(tmp_path, "permute: {stmt: 0, order: [j, i]}")
                           if name in ("carried.c", "racy.c") else _recipe(tmp_path, "unroll: {stmt: 0, loop: i, factor: 2}"))
    assert rc == 2 and where in err and what in err, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    if name == "racy.c":
        assert "the team's threads race there in the code as written too" in err, err


def test_a_permute_inside_the_reduction_clauses_run(tmp_path):
    """The clause lets the updates run in any order inside one run of the shared loop as the
    file writes it (here the whole nest): a permute that puts `j` outside it reorders nothing
    else, and the team then shares out `j` with the clause (refused before, tests/test_reduction_scope.py)."""
    r = _recipe(tmp_path, "permute: {stmt: 0, order: [j, k]}")
    rc, out, err = run_cli("transform", DATA / "field_summary.c", "--recipe", r)
    assert rc == 0 and "#pragma omp for reduction(+:vol, mass, ie) private(k, cell_mass)\n" in out, out + err
    rc, out, err = run_cli("run", DATA / "field_summary.c", "--recipe", r, "-D", "x_min=0", "-D", "x_max=9",
                           "-D", "y_min=0", "-D", "y_max=10", "--cflags", "-O2 -fopenmp", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("n", [37, 40])
def test_a_parallel_for_right_before_the_region_goes_with_its_loop(tmp_path, n):
    """HPCG's dot product with `#pragma scop` put under its `#pragma omp parallel for`: the pragma
    stayed in front of the block looptx writes, which gcc -fopenmp refuses."""
    r = _recipe(tmp_path, "unroll: {stmt: 0, loop: i, factor: 4}")
    rc, out, err = run_cli("transform", DATA / "dot_before.c", "--recipe", r)
    assert rc == 0, err
    assert out.count("#pragma omp parallel for") == 1 and \
        "#pragma omp parallel for reduction(+:local_result)\n      for (int i = 0; i < n - 3; i += 4)" in out, out
    _compiles(tmp_path, out)
    rc, out, err = run_cli("transform", DATA / "dot_before.c")
    assert rc == 0 and out.count("#pragma omp parallel for") == 1, out
    _compiles(tmp_path, out)
    rc, out, err = run_cli("run", DATA / "dot_before.c", "--recipe", r, "-D", f"n={n}", *OMP)
    assert rc == 0 and ": ok" in out, out + err


def test_a_parallel_for_before_a_region_of_two_loops_is_refused(tmp_path):
    rc, out, err = run_cli("transform", DATA / "two_before.c", "--recipe",
                           _recipe(tmp_path, "unroll: {stmt: 0, loop: i, factor: 2}"))
    assert rc == 2 and "two_before.c:3:1: error: '#pragma omp parallel for' right before the region applies " \
                       "to its first loop only" in err, err


@pytest.mark.parametrize("m", [20, 32])
def test_devito_nests_with_modulo_temporaries_stay_shared(tmp_path, m):
    """`int t1 = (time + 1)%(2);` before the region: the temporary put into the second nest's
    subscripts carried its own line, the nest was taken for the first one's, and it ran under
    `omp single` (on one thread), silently."""
    r = _recipe(tmp_path, "tile: {stmt: 0, loop: y, size: 16, control: yy}")
    rc, out, err = run_cli("transform", DATA / "devito_two_nests.c", "--recipe", r)
    assert rc == 0 and "omp single" not in out and out.count("#pragma omp for") == 4, out + err
    rc, out, err = run_cli("run", DATA / "devito_two_nests.c", "--recipe", r, "-D", "n=9", "-D", f"m={m}",
                           "-D", "time=3", *OMP)
    assert rc == 0 and ": ok" in out, out + err
