"""Probe 54 (signal and image processing): a loop-body local set by a one-thread kernel and read
by a mapped one keeps its value in device memory; the harness sizes a read-only flattened array
by what the code reads where its rows overlap (a decimator's `ntaps > M`); `(n*NUM)/DEN` with
#defines and `len>>1` in a bound are modelled."""
import re
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli
from test_cuda_codegen import needs_nvcc, nvcc_compile

DATA = Path(__file__).resolve().parent / "data" / "probe54"


def _ok(rc, out, err):
    assert rc == 0 and ": ok " in out, out + err


def test_a_local_of_a_host_loop_reaches_the_mapped_kernel():
    # resize's per-row weight `float fy = beta[y];`: the emulation declares it once, outside the
    # kernels, and the value reaches the x kernel (before: each kernel had its own, unset)
    for sizes in (("w=37", "h=5"), ("w=64", "h=3")):
        _ok(*run_cli("run", DATA / "rowscale_min.c", "--function", "row_scale",
                     "--recipe", DATA / "rowscale_cuda.yaml", *[x for s in sizes for x in ("-D", s)]))


@needs_nvcc
def test_the_cu_keeps_that_local_in_device_memory():
    rc, cu, err = run_cli("transform", DATA / "rowscale_min.c", "--function", "row_scale",
                          "--recipe", DATA / "rowscale_cuda.yaml", "--target", "cuda")
    assert rc == 0, err
    assert "fy[0] = beta[lx_h0];" in cu and "= fy[0] * src[" in cu, cu
    assert not re.search(r"^\s*float fy;", cu, re.M), cu
    assert nvcc_compile(cu) is None


@pytest.mark.parametrize("sizes", [("nout=37", "ntaps=9", "M=3"), ("nout=5", "ntaps=16", "M=2"),
                                   ("nout=10", "ntaps=4", "M=4")])
def test_a_decimator_whose_taps_span_rows_validates(sizes):
    # x[n*M + k] with ntaps > M: rows overlap, which the model assumes away for an array it only
    # reads; the harness gave x one element there and the variable-size build wrote past it
    rc, out, err = run_cli("run", DATA / "decim.c", "--function", "fir_decimate",
                           *[x for s in sizes for x in ("-D", s)])
    _ok(rc, out, err)


def test_a_fixed_ratio_resampler_divides_a_defined_product():
    recipe = DATA / "resamp.yaml"
    for n in (37, 40):
        _ok(*run_cli("run", DATA / "resamp2.c", "--function", "resample_fixed", "--recipe", recipe,
                     "-D", f"out_len={n}", "-D", "out_stride=2"))


def test_a_right_shift_in_a_bound_is_a_floor_division():
    for n in (37, 40, 1):
        _ok(*run_cli("run", DATA / "pitch_down.c", "--function", "pitch_downsample",
                     "--recipe", DATA / "pitch_tile.yaml", "-D", f"len={n}", "-D", "C=2"))


def test_the_emulation_of_a_privatized_accumulator_compiles_without_warnings(tmp_path):
    # CMSIS arm_conv_q7: the grid emulation's `for (int j` and each thread's `sum` leave the
    # function's `uint32_t i, j;` and `q31_t sum;` unused; a thread's `sum = 0` sits under a
    # guard that the j loop's bounds imply, which gcc cannot see
    out = tmp_path / "conv.c"
    rc, _, err = run_cli("transform", DATA / "conv_q7.c", "--function", "arm_conv_q7",
                         "--recipe", DATA / "conv_cuda.yaml", "-o", out)
    assert rc == 0, err
    # and in the file's own type names
    assert "q31_t sum = 0;" in out.read_text() and "(q15_t)pIn1[j]" in out.read_text()
    p = subprocess.run(["gcc", "-O2", "-Wall", "-Werror", "-c", str(out), "-o", str(tmp_path / "conv.o")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    _ok(*run_cli("run", DATA / "conv_q7.c", "--function", "arm_conv_q7", "--recipe", DATA / "conv_cuda.yaml",
                 "-D", "srcALen=37", "-D", "srcBLen=9"))


def test_a_table_built_and_read_through_an_index_in_one_region_says_why_and_how():
    rc, out, err = run_cli("deps", DATA / "histeq.c", "--function", "histeq_apply")
    assert rc == 2 and err.count("\n") == 1, err
    assert err.startswith(f"{DATA / 'histeq.c'}:27:14: error: non-affine subscript of 'lut'") and \
        "the region writes 'lut'" in err and "a region of their own" in err, err
    # the remedy: the region that only reads the table
    rc, out, err = run_cli("deps", DATA / "histeq.c", "--function", "histeq_lut_only")
    assert rc == 0, err


@pytest.mark.gpu
def test_the_local_reaches_the_mapped_kernel_on_the_gpu():
    from conftest import require_gpu
    require_gpu()
    for sizes in (("w=37", "h=5"), ("w=64", "h=3")):
        _ok(*run_cli("run", DATA / "rowscale_min.c", "--function", "row_scale", "--target", "cuda",
                     "--recipe", DATA / "rowscale_cuda.yaml", *[x for s in sizes for x in ("-D", s)]))


def test_a_misspelt_define_does_not_suggest_one_the_file_fixes():
    rc, out, err = run_cli("transform", DATA / "sobel.c", "--function", "sobel", "-D", "WW=3")
    assert rc == 2 and err.count("\n") == 1, err
    assert "did you mean 'W'? sobel.c #defines it" in err and "change the #define" in err, err


def test_an_error_names_an_aliased_step_as_the_recipe_writes_it():
    rc, out, err = run_cli("transform", DATA / "biquad_idx.c", "--function", "arm_biquad_cascade_df1_f32_idx",
                           "--recipe", DATA / "biquad_r2.yaml")
    assert rc == 2 and err.count("\n") == 1 and "biquad_r2.yaml:2: step 1 (unroll_jam): error:" in err, err


def test_a_fuse_suggests_the_shift_it_needs_at_the_defines_value(tmp_path):
    # a separable box blur with `#define R 2`: the passes fuse after a shift by R, at R = 2
    rc, out, err = run_cli("transform", DATA / "boxblur.c", "--function", "box_blur", "--recipe", DATA / "boxblur_r2.yaml")
    assert rc == 2 and "the statements fuse after 'shift: {stmt: 3, loop: y, by: 2}'" in err, err
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - shift: {stmt: 3, loop: y, by: 2}\n  - fuse: {stmts: [0, 3], loop: y}\n")
    _ok(*run_cli("run", DATA / "boxblur.c", "--function", "box_blur", "--recipe", r, "-D", "h=20", "-D", "w=17"))


def test_a_tile_that_would_split_a_loop_does_not_suggest_an_illegal_distribute():
    # opus celt_fir: `sum` per iteration of i, read by the statement after the j loop
    rc, out, err = run_cli("transform", DATA / "celt_fir.c", "--recipe", DATA / "celt_fir_chill.py")
    assert rc == 2 and err.count("\n") == 1, err
    assert "step 1 (tile)" in err and "distributing loop 'i' first would not do either" in err, err
    assert "(distribute {stmts:" not in err, err


def test_a_chill_scripts_unroll_jam_gets_its_temporaries_private():
    # (it was refused, naming them: the biquad's coefficients and states are each stage's own)
    rc, out, err = run_cli("transform", DATA / "biquad_idx.c", "--recipe", DATA / "biquad_uj.py")
    assert rc == 0 and "biquad_uj.py:5: note: step 1 (unroll_jam): as in CHiLL, each iteration has its own" in err, err
    for sizes in (("blockSize=1", "S__numStages=3"), ("blockSize=7", "S__numStages=4")):
        rc, out, err = run_cli("run", DATA / "biquad_idx.c", "--recipe", DATA / "biquad_uj.py",
                               *[x for kv in sizes for x in ("-D", kv)])
        assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("recipe", ["rowuniform_cuda.yaml", "rowuniform_blocks.yaml"])
def test_block_uniform_work_between_block_and_thread_loops_runs_in_every_thread(recipe):
    # resize's `float fy = beta[y];` between block [y] and thread [x]: each thread computes it
    # (with block [xx, y], every block of the row too), as CUDA-CHiLL does
    for sizes in (("w=37", "h=5"), ("w=64", "h=3"), ("w=1", "h=2")):
        _ok(*run_cli("run", DATA / "rowuniform.c", "--function", "row_blend",
                     "--recipe", DATA / recipe, *[x for s in sizes for x in ("-D", s)]))


@needs_nvcc
def test_the_cu_computes_the_uniform_locals_in_each_thread():
    rc, cu, err = run_cli("transform", DATA / "rowuniform.c", "--function", "row_blend",
                          "--recipe", DATA / "rowuniform_cuda.yaml", "--target", "cuda")
    assert rc == 0, err
    kernel = cu[cu.index("__global__"):cu.index("extern \"C\"")]
    # the weights are set before the loop over the row's tiles, outside anything on the thread
    # index, so every thread has them
    assert re.search(r"fy = beta\[bx\];\s*gy = 1\.f - fy;\s*for \(int xx = 0; xx <= lx_floord\(w - tx - 1",
                     kernel), kernel
    assert nvcc_compile(cu) is None


@pytest.mark.parametrize("function, expected", [
    ("row_first", "statement 0 is inside the kernel of statement 1 (loop 'y') but not inside its "
                  "thread loop 'x': it writes 'dst', which every thread would write"),
    ("row_prev", "S0(0) reads dst[3] before S1(0,3) writes it"),
])
def test_uniform_work_that_writes_or_reads_the_threads_data_is_refused(tmp_path, function, expected):
    recipe = tmp_path / "r.yaml"
    recipe.write_text("steps:\n  - tile: {stmt: 1, loop: x, size: 32}\n"
                      "  - cuda: {stmt: 1, block: [y], thread: [x]}\n")
    rc, out, err = run_cli("transform", DATA / "rowuniform.c", "--function", function,
                           "--recipe", recipe, "--target", "cuda")
    assert rc == 2 and err.count("\n") == 1 and expected in err, err


@pytest.mark.gpu
def test_block_uniform_work_on_the_gpu():
    from conftest import require_gpu
    require_gpu()
    for recipe in ("rowuniform_cuda.yaml", "rowuniform_blocks.yaml"):
        for sizes in (("w=37", "h=5"), ("w=300", "h=3")):
            _ok(*run_cli("run", DATA / "rowuniform.c", "--function", "row_blend", "--target", "cuda",
                         "--recipe", DATA / recipe, *[x for s in sizes for x in ("-D", s)]))
