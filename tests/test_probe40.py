"""Probe 40 (PolyBench/GPU, Parboil and SHOC reference loops mapped to CUDA): row-pointer
arrays in a .cu, a linearized corner element, a .cu given as input, a pointer swap inside the
region, and Orio's host-only CUDA options noted once per search."""
import shutil
from pathlib import Path

from conftest import cli_process, run_cli

DATA = Path(__file__).resolve().parent / "data" / "probe40"


def test_row_pointer_arrays_are_copied_row_by_row_for_the_cu():
    """SHOC Stencil2D's `float **`: the .cu said `a[by * () + ...]`; then it was refused at the
    declaration; now the host function copies each row (tests/test_cuda_rows.py)."""
    rc, out, err = run_cli("transform", DATA / "rows.c", "--recipe", DATA / "rows_map.yaml", "--target", "cuda")
    assert rc == 0 and "float **a, float **b, int n, int m)" in out and " * lx_a_n1 + " in out, err
    rc, out, err = run_cli("run", DATA / "rows.c", "--recipe", DATA / "rows_map.yaml", "-D", "n=5", "-D", "m=37",
                           "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


def test_a_corner_element_of_a_linearized_array_is_in_its_row(tmp_path):
    """PolyBench/GPU correlation's `symmat[M*(M+1) + M] = 1.0` is row M, index M."""
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - unroll: {stmt: 0, loop: j1, factor: 2}\n")
    rc, out, err = run_cli("deps", DATA / "corner.c", "-D", "M=8")
    assert rc == 0 and "j1       [S0] parallel" in out, err
    rc, out, err = run_cli("run", DATA / "corner.c", "--recipe", r, "-D", "M=8", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err
    # with M symbolic the error is at the corner element, not at the loop's reference
    rc, out, err = run_cli("deps", DATA / "corner.c")
    assert rc == 2 and "corner.c:9:3: error: non-affine subscript of 'symmat'" in err, err


def test_a_cu_file_is_named_as_cuda_code(tmp_path):
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 2}\n")
    rc, out, err = run_cli("transform", DATA / "ref.cu", "--recipe", r)
    assert rc == 2 and "ref.cu:5:1: error: the file holds CUDA code ('__global__')" in err, err
    assert "cuda.h" not in err and err.count("\n") == 1, err


def test_a_pointer_swap_in_the_region_is_named_at_the_swap():
    rc, out, err = run_cli("deps", DATA / "swap1.c")
    assert rc == 2 and "swap1.c:10:5: error: the region changes which array 'a' points to (a = b)" in err, err
    rc, out, err = run_cli("deps", DATA / "swap2.c")
    assert rc == 2 and "swap2.c:10:5: error: the region changes which array 'tmp' points to (tmp = a)" in err, err


def test_orio_host_only_cuda_options_are_noted_once(tmp_path):
    shutil.copy(DATA / "triad.c", tmp_path / "triad.c")
    p = cli_process("search", "triad.c", "--no-progress", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    notes = [ln for ln in p.stderr.splitlines() if "ignored" in ln]
    assert len(notes) == 1 and "cacheBlocks, streamCount are ignored" in notes[0], p.stderr
