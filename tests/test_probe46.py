"""Probe 46 (generated and physics codes: Devito, Lattice-Boltzmann, MD, DSP)."""
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "probe46"


def _recipe(tmp_path, *steps, name="r.yaml"):
    r = tmp_path / name
    r.write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps))
    return r


def test_a_quoted_libc_include_falls_back_to_the_system_headers(tmp_path):
    """Devito writes `#include "stdlib.h"`: gcc goes on to the system headers; looptx stopped
    with "stdlib.h: No such file or directory"."""
    rc, out, err = run_cli("deps", DATA / "quoted_includes.c")
    assert rc == 0 and "parallel" in out, err
    # a project header that exists nowhere is still an error, as gcc's
    src = tmp_path / "missing.c"
    src.write_text('#include "no_such_project_header.h"\n' + (DATA / "quoted_includes.c").read_text())
    rc, out, err = run_cli("deps", src)
    assert rc == 2 and "no_such_project_header.h" in err, err


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc on PATH: the test compiles the generated C (CI has it)")
def test_modulo_locals_put_into_the_region_leave_no_unused_variable(tmp_path):
    """Devito's `int t0 = (time)%(2);` in the time loop's block: the region reads the expression,
    and gcc -Wall warned that t0 and t1 were unused."""
    out_c = tmp_path / "out.c"
    rc, out, err = run_cli("transform", DATA / "devito_mod_locals.c", "--recipe", DATA / "devito_mod_locals.yaml",
                           "-o", out_c)
    assert rc == 0 and "(void)t0;" in out_c.read_text(), err
    p = subprocess.run(["gcc", "-Wall", "-Wno-unknown-pragmas", "-Werror", "-fopenmp", "-c", str(out_c), "-o",
                        str(tmp_path / "o.o")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


needs_nvcc = pytest.mark.skipif(shutil.which("nvcc") is None,
                                reason="needs nvcc on PATH: the test compiles the generated .cu (CI has it)")


def _nvcc(tmp_path, cu):
    p = subprocess.run(["nvcc", "-c", str(cu), "-o", str(tmp_path / "k.o")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


@needs_nvcc
def test_a_row_length_that_bounds_no_loop_reaches_the_kernels(tmp_path):
    """Devito's `float (*u)[ny] = (float (*)[ny]) u_data;` (and `float u[nx][ny]` parameters)
    over loops bounded by x_M, y_M: the kernels read `ny` and were not given it (nvcc: "identifier
    ny is undefined"); a `sizes:` count could not name it either."""
    for name, recipe in (("rowlen_cast.c", "rowlen_cuda.yaml"), ("rowlen_vla.c", "rowlen_cuda.yaml"),
                         ("rowlen_cast.c", "rowlen_cuda_sizes.yaml")):
        cu = tmp_path / (name + ".cu")
        rc, out, err = run_cli("transform", DATA / name, "--recipe", DATA / recipe, "--target", "cuda", "-o", cu)
        assert rc == 0, err
        assert "int y_M, int ny)" in cu.read_text(), cu.read_text()
        _nvcc(tmp_path, cu)
    rc, out, err = run_cli("run", DATA / "rowlen_vla.c", "--recipe", DATA / "rowlen_cuda.yaml", "-D", "nx=10",
                           "-D", "ny=40", "-D", "x_M=7", "-D", "y_M=37", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


@needs_nvcc
def test_an_element_count_may_name_an_integer_parameter_of_the_function(tmp_path):
    """miniMD's `sizes: {x: nall*PAD}`: "'nall' is not a size of the region"."""
    cu = tmp_path / "ell.cu"
    rc, out, err = run_cli("transform", DATA / "minimd_ell.c", "--function", "compute_ell", "--recipe",
                           DATA / "minimd_ell_cuda.yaml", "--target", "cuda", "-o", cu)
    assert rc == 0 and "(size_t)(nall * PAD)" in cu.read_text(), err
    _nvcc(tmp_path, cu)


def test_a_define_or_enum_times_an_iterator_in_a_bound(tmp_path):
    """`for (i = ib*BS; i < ib*BS + BS; i++)` with `#define BS 16` or `enum { BS = 16 };`, and
    CoMD's `iOff = MAXATOMS*iBox`: a bare "non-affine expression" before."""
    for name in ("define_times_iterator.c", "enum_times_iterator.c", "comd_boxes.c"):
        rc, out, err = run_cli("deps", DATA / name, "--function", "f")
        assert rc == 0 and "parallel" in out, (name, err)
    r = _recipe(tmp_path, "unroll: {stmt: 0, loop: i, factor: 4}")
    for nb in (3, 5):
        rc, out, err = run_cli("run", DATA / "define_times_iterator.c", "--function", "f", "--recipe", r,
                               "-D", f"nb={nb}", "--repetitions", "1")
        assert rc == 0 and ": ok" in out, out + err
    rc, out, err = run_cli("transform", DATA / "define_times_iterator.c", "--function", "f", "--recipe", r)
    assert rc == 0 and "#if BS != 16" in out, out


def test_a_modulo_of_an_iterator_from_a_size_is_modelled_for_that_size_non_negative(tmp_path):
    """Devito's `u[(time + 1)%(3)]` with `time` from `time_m`: "'%' of a possibly negative value"
    even with `known: time_m >= 0`; now the region is modelled for time_m >= 0, checked as the code
    runs."""
    r = _recipe(tmp_path, "tile: {stmt: 0, loop: x, size: 16, control: xx}")
    rc, out, err = run_cli("transform", DATA / "devito_modulo_time.c", "--recipe", r)
    assert rc == 0 and "modelled for time_m >= 0" in err and "if (time_m >= 0" in out, err
    for tm in (0, 2):
        rc, out, err = run_cli("run", DATA / "devito_modulo_time.c", "--recipe", r, "-D", f"time_m={tm}",
                               "-D", "time_M=4", "--repetitions", "1")
        assert rc == 0 and ": ok" in out, out + err


def test_timers_in_the_region_are_refused_for_the_call():
    """Devito's START_TIMER/STOP_TIMER in the time loop: the first refusal was about the struct
    local ("declare it before the region"), which only led to the next one."""
    rc, out, err = run_cli("deps", DATA / "devito_timers.c", "--function", "Forward", "-D", "time_m=0")
    assert rc == 2 and "call to 'gettimeofday' (with 'end_section0') is a statement with side effects" in err, err


def test_run_reads_the_files_constant_tables(tmp_path):
    """LBM streaming `f_old[q][y - cy[q]][x - cx[q]]` with `static const int cx[Q] = {...}`:
    `run` refused (random table values would read outside f_old); it now uses the file's values,
    after checking that each keeps the reads inside the array."""
    r = _recipe(tmp_path, "permute: {stmt: 0, order: [y, x, q]}", "tile: {stmt: 0, loop: x, size: 16}")
    for nx, ny in ((37, 21), (64, 32)):
        rc, out, err = run_cli("run", DATA / "lbm_stream.c", "--function", "stream_soa", "--recipe", r,
                               "-D", f"NX={nx}", "-D", f"NY={ny}", "--repetitions", "1")
        assert rc == 0 and ": ok" in out, out + err
    rc, out, err = run_cli("run", DATA / "lbm_stream_far.c", "--function", "stream_soa", "--recipe", r,
                           "--repetitions", "1")
    assert rc == 2 and "'f_old[y - cy[q]]' reaches outside 'f_old' (extent 32) where cy = 2" in err, err


def test_a_branch_that_writes_at_a_place_from_the_data_is_refused_for_the_write():
    """Devito's source injection: `if (ii_src_0 >= x_m - 1 && ...) { ...; u[t2][ii_src_0 + 4][...] += r0; }`
    was refused for its condition, with the hint to write conditional assignments; followed, the
    hint led to the real obstacle, the write at a place computed from the data."""
    rc, out, err = run_cli("deps", DATA / "devito_inject.c", "--function", "Inject", "-D", "time=2")
    assert rc == 2 and "Traceback" not in err, err
    assert "devito_inject.c:18:7: error: non-affine subscript of 'u': 'ii_src_0'" in err, err
    assert "conditional assignments" not in err, err
