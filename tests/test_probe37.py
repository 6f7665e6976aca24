"""Probe 37 (CHiLL / CUDA-CHiLL scripts and Orio CUDA files written by others): registers at a
loop a thread loop counts from (CUDA-CHiLL's mpeg4), a thread loop bounded by a #define, a
statement number CHiLL's split would make, a blockCount permute that breaks a dependence, and an
nvcc build command's param under the C backend."""
from pathlib import Path

import pytest

from conftest import run_cli
from test_gathers import require_gpu
from test_cuda_codegen import needs_nvcc, nvcc_compile

DATA = Path(__file__).resolve().parent / "data" / "probe37"


def _kernel(cu: str) -> str:
    start = cu.index("__global__")
    return cu[start:cu.index("\n}\n", start)]


def test_registers_at_a_loop_a_thread_loop_counts_from_are_loaded_by_each_thread(tmp_path):
    """copy_to_registers("jjj", "r") with thread loop j from 16*jjj: the .cu loads and stores r
    (it used to drop both, and the kernel computed nothing)."""
    out = tmp_path / "k.cu"
    rc, _, err = run_cli("transform", DATA / "regs_between.c", "--recipe", DATA / "regs_between.py",
                         "--target", "cuda", "-o", out)
    assert rc == 0 and "loaded at thread loop 'j'" in err, err
    kernel = _kernel(out.read_text())
    assert "r_r = r[" in kernel and "] = r_r;" in kernel, kernel
    rc, stdout, err = run_cli("run", DATA / "regs_between.c", "--recipe", DATA / "regs_between.py",
                              "-D", "n=37", "--repetitions", "1")
    assert rc == 0 and ": ok" in stdout, stdout + err


def test_registers_at_the_thread_loop_itself_inside_a_sequential_loop(tmp_path):
    src = tmp_path / "regs_between.c"
    src.write_text((DATA / "regs_between.c").read_text())
    script = tmp_path / "k.py"
    script.write_text((DATA / "regs_between.py").read_text().replace('copy_to_registers("jjj","r")',
                                                                     'copy_to_registers("j","r")'))
    rc, out, err = run_cli("transform", src, "--recipe", script, "--target", "cuda")
    assert rc == 0 and "r_r = r[" in _kernel(out), err + out
    rc, out, err = run_cli("run", src, "--recipe", script, "-D", "n=21", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


@needs_nvcc
def test_cuda_chill_mpeg4_passes_result_to_its_kernel(tmp_path):
    out = tmp_path / "m.cu"
    rc, _, err = run_cli("transform", DATA / "mpeg4.c", "--recipe", DATA / "mpeg4.py", "--target", "cuda",
                         "-o", out)
    cu = out.read_text()
    kernel = _kernel(cu)
    assert rc == 0 and "float *__restrict__ result" in kernel and "result_r = result[" in kernel, err + kernel
    assert nvcc_compile(cu) is None


def test_a_thread_loop_bounded_by_a_define_has_its_value_as_extent(tmp_path):
    out = tmp_path / "d.cu"
    rc, _, err = run_cli("transform", DATA / "define_thread.c", "--recipe", DATA / "define_thread.lua",
                         "--target", "cuda", "-o", out)
    cu = out.read_text()
    assert rc == 0 and "thread loop 'k' is mapped at K = 10" in err and "__launch_bounds__(10)" in cu, err
    assert "#if K != 10" in cu, cu
    rc, stdout, err = run_cli("run", DATA / "define_thread.c", "--recipe", DATA / "define_thread.lua",
                              "--repetitions", "1")
    assert rc == 0 and ": ok" in stdout, stdout + err


def test_a_statement_number_that_only_chill_split_makes_is_refused_with_why():
    rc, out, err = run_cli("transform", DATA / "split_parts.c", "--recipe", DATA / "split_parts.py")
    assert rc == 2 and "split_parts.py:7: step 2 (unroll): error: statement 1 does not exist: in CHiLL it " \
        "would be a part that step 1 (split) makes" in err and "acts on every part" in err, err


def test_an_orio_cuda_block_count_that_breaks_a_dependence_names_the_directive():
    rc, out, err = run_cli("transform", DATA / "orio_cuda_bc.c", "--target", "cuda")
    assert rc == 2 and "step 3 (CUDA, its blockCount rounds): error: S0(127,0) writes s[0] before S0(128,0) " \
        "reads it (with nx=129, ny=1)" in err and "(RAW on s)" in err, err
    assert "Orio's CUDA directive runs the iterations of the loop it maps in parallel" in err, err
    assert "choose another order" not in err, err


def test_a_param_only_an_nvcc_build_command_uses_is_named_so_under_the_c_backend(tmp_path):
    src = tmp_path / "v.c"
    src.write_text((DATA / "cflags_nvcc.c").read_text())
    rc, out, err = run_cli("search", src, "--budget", "2", "--no-progress")
    assert rc == 0, err
    line = next(x for x in err.splitlines() if "warning: param 'CFLAGS'" in x)
    assert "used only by the build command 'nvcc -arch=sm_75 @CFLAGS', which the c backend does not run" in line
    assert "--backend cuda" in line and "remove the param" not in line, line


@pytest.mark.gpu
@pytest.mark.parametrize("case, script, sizes", [
    ("regs_between", "regs_between.py", ["-D", "n=37"]),
    ("define_thread", "define_thread.lua", []),
    ("mpeg4", "mpeg4.py", ["-D", "N1=37", "-D", "N2=45"]),
])
def test_the_cuda_chill_cases_validate_on_the_gpu(case, script, sizes):
    require_gpu()
    rc, out, err = run_cli("run", DATA / f"{case}.c", "--recipe", DATA / script, "--target", "cuda", *sizes)
    assert rc == 0 and ": ok" in out, out + err


def test_an_orio_chill_file_linking_its_cuda_object_runs_on_the_c_backend():
    """Orio's testsuite/sandbox/chill/mm: `arg libs = 'rose__orio_chill_.o ... -lcudart -lcuda'`
    (Orio's build of its own CUDA code): looptx's C code needs none of it."""
    rc, out, err = run_cli("run", DATA / "orio_chill_mm.c", "-D", "N=20", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err
    assert "leaves rose__orio_chill_.o" in err and "-lcuda out of the build command" in err, err
