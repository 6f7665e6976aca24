"""Probe 44 (image processing: Halide pipelines in C, OpenCV filters, Kernel Tuner's examples)."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "probe44"


def _recipe(tmp_path, *steps, name="r.yaml"):
    r = tmp_path / name
    r.write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps))
    return r


def test_a_helper_typed_with_typedefs_is_pure(tmp_path):
    """`typedef float real; static inline real avg(real a, real b)` (and Halide's `i16`,
    LULESH's `Real_t`) was "a call that may have side effects"."""
    rc, out, err = run_cli("deps", DATA / "helper_typedef.c", "--function", "f")
    assert rc == 0 and "parallel" in out, err
    rc, out, err = run_cli("deps", DATA / "demosaic.c", "--function", "demosaic")
    assert rc == 0 and "parallel" in out, err
    rc, out, err = run_cli("deps", DATA.parent / "probe45" / "lulesh_helper_typedef.c", "--function", "f")
    assert rc == 0 and "parallel" in out, err
    for n in (37, 40):
        rc, out, err = run_cli("run", DATA / "helper_typedef.c", "--function", "f", "-D", f"n={n}", "--repetitions", "1",
                               "--recipe", _recipe(tmp_path, "unroll: {stmt: 0, loop: i, factor: 4}"))
        assert rc == 0 and ": ok" in out, out + err


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs nvcc on PATH: the test compiles the generated .cu (CI has it)")
def test_a_typedef_helper_compiles_in_the_cu(tmp_path):
    cu = tmp_path / "h.cu"
    rc, out, err = run_cli("transform", DATA / "helper_typedef.c", "--function", "f", "--target", "cuda", "-o", cu,
                           "--recipe", _recipe(tmp_path, "tile: {stmt: 0, loop: i, size: 16}",
                                               "cuda: {stmt: 0, block: [ii], thread: [i]}"))
    assert rc == 0, err
    p = subprocess.run(["nvcc", "-c", str(cu), "-o", str(tmp_path / "h.o")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


@pytest.mark.parametrize("name", ["blur_tune.c", "blur_tune2.c"])
def test_orio_decl_takes_unsigned_and_stdint_types(tmp_path, name):
    """`decl dynamic uint16_t tmp[...]` / `unsigned short`: "unknown type" before."""
    src = tmp_path / name
    shutil.copy(DATA / name, src)
    rc, out, err = run_cli("search", src, "--budget", "2", "--no-progress")
    assert rc == 0 and "status: ok 2" in out, out + err


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc on PATH: the test compiles the generated C (CI has it)")
@pytest.mark.parametrize("name, function, recipe, check", [
    ("sepfilter.c", "icvSepFilter3x3_8u_C1R", "sep1.yaml", ") >> 16"),
    ("pnpoly_soa.c", "pnpoly_soa", "pnpoly_omp.yaml", ") != ("),
])
def test_the_output_keeps_the_parentheses_gcc_asks_for(tmp_path, name, function, recipe, check):
    """CV_DESCALE's `(x + (1 << 15)) >> 16` and pnpoly's `(a > b) != (c > d)` were printed
    without them: 18 -Wparentheses warnings where the originals compile clean."""
    out_c = tmp_path / "out.c"
    rc, out, err = run_cli("transform", DATA / name, "--function", function, "--recipe", DATA / recipe, "-o", out_c)
    assert rc == 0, err
    assert check in out_c.read_text()
    p = subprocess.run(["gcc", "-Wall", "-Wno-unknown-pragmas", "-Werror", "-fopenmp", "-c", str(out_c), "-o",
                        str(tmp_path / "o.o")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


@pytest.mark.parametrize("n", [37, 40])
def test_a_choosing_subscript_of_an_array_of_structs(tmp_path, n):
    """Kernel Tuner's pnpoly: `int km = (j == 0) ? VERTICES - 1 : j - 1; ... vertices[km].x` is a
    `?:` of two member reads, as `vx[km]` already was."""
    r = _recipe(tmp_path, "tile: {stmt: 0, loop: i, size: 8}")
    rc, out, err = run_cli("transform", DATA / "pnpoly_float2.c", "--function", "cn_pnpoly_reference_kernel",
                           "--recipe", r)
    assert rc == 0 and "j == 0 ? vertices[VERTICES - 1].x : vertices[j - 1].x" in out, err
    rc, out, err = run_cli("run", DATA / "pnpoly_float2.c", "--function", "cn_pnpoly_reference_kernel", "--recipe", r,
                           "-D", f"n={n}", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


def test_a_trailing_counter_in_the_increment_is_named():
    rc, out, err = run_cli("deps", DATA / "pnpoly_kj.c", "--function", "cn_pnpoly_reference_kernel")
    assert rc == 2 and "the loop's increment also sets 'k' (the value 'j' had before it)" in err, err


@pytest.mark.parametrize("n", [37, 40])
def test_struct_copies_of_elements_read_member_by_member(tmp_path, n):
    """Kernel Tuner's pnpoly: `float2 vj = vertices[j]; ... vj.x` was refused (a struct variable
    of the region), and the hint to declare it before the region led to another refusal."""
    r = _recipe(tmp_path, "tile: {stmt: 0, loop: i, size: 8}")
    rc, out, err = run_cli("transform", DATA / "pnpoly_struct_locals.c", "--function", "cn_pnpoly_reference_kernel",
                           "--recipe", r)
    assert rc == 0 and "vertices[j].x" in out and "float2 vj" not in out, err
    rc, out, err = run_cli("run", DATA / "pnpoly_struct_locals.c", "--function", "cn_pnpoly_reference_kernel",
                           "--recipe", r, "-D", f"n={n}", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("name, function, what", [
    ("rowfilter16u.c", "rowFilter_16u", "pointer 'S' reads its array through a cast to another element type"),
    ("../probe45/hpcg_spmv.c", "ComputeSPMV_ref", "pointer 'cur_vals' is loaded from memory (matrixValues[i])"),
])
def test_pointer_locals_no_rewrite_reads_are_named_for_what_they_are(name, function, what):
    rc, out, err = run_cli("deps", DATA / name, "--function", function)
    assert rc == 2 and what in err and "declare it outside the region" not in err, err


def test_a_permute_that_needs_an_illegal_distribute_says_so():
    """Kernel Tuner's matmul (`float sum = 0.0;` per iteration): the permute's hint sent the
    user to a distribute that is refused in turn."""
    rc, out, err = run_cli("transform", DATA / "matmul_kt.c", "--function", "matmul_kernel", "--recipe",
                           DATA / "matmul_kt.lua", "--target", "cuda", "-o", os.devnull)
    assert rc == 2 and "distributing loop 'y' first would not do either" in err, err
