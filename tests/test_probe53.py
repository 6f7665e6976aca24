"""Probe 53 (loops of geoscience codes: WRF, SW4, DENISE): the .cu host checks a given count
where the loop starts at a parameter; #undef lines at the end of a --function body follow the
versioned region; the function's own declaration of a jammed local is private, not
firstprivate; CHiLL's loop(0) counts from the first nest, past a statement before it."""
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import cli_process as cli
from test_cuda_codegen import needs_nvcc, nvcc_compile

DATA = Path(__file__).resolve().parent / "data" / "probe53"
needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc on PATH (CI has it): compiles the output")


def _gcc(path: Path, *flags: str) -> None:
    g = subprocess.run(["gcc", "-O2", "-Wall", "-Werror", *flags, "-c", str(path), "-o", str(path) + ".o"],
                       capture_output=True, text=True)
    assert g.returncode == 0, g.stderr


def test_a_given_count_is_checked_where_the_loop_starts_at_a_parameter(tmp_path):
    # WRF's `for (i = its; i <= ite; i++)` with `sizes: {x: 64, y: 64}`: the host copied 64
    # elements and launched whatever its and ite were
    out = tmp_path / "cnt.cu"
    p = cli("transform", "cnt_min.c", "--function", "scale", "--recipe", "cnt_min.yaml", "--target", "cuda",
            "-o", out, cwd=DATA)
    assert p.returncode == 0, p.stderr
    cu = out.read_text()
    host = cu[cu.index('extern "C" int scale_host'):]
    for name in ("x", "y"):
        assert (f"  /* the kernels reach '{name}' below the first element copied */\n"
                "  if ((ite >= its) && (its) < 0) return (int)cudaErrorInvalidValue;\n"
                f"  /* the sizes give '{name}' fewer elements than the kernels reach */\n"
                "  if ((size_t)(64) < ((ite >= its) ? ((size_t)(ite) + 1) : (size_t)0)) "
                "return (int)cudaErrorInvalidValue;") in host, host
    assert host.index("cudaErrorInvalidValue") < host.index("cudaMalloc")


@needs_nvcc
def test_the_checked_host_compiles(tmp_path):
    p = cli("transform", "cnt_min.c", "--function", "scale", "--recipe", "cnt_min.yaml", "--target", "cuda",
            cwd=DATA)
    assert p.returncode == 0 and nvcc_compile(p.stdout) is None


@needs_gcc
def test_undefs_at_the_end_of_a_function_follow_the_versioned_region(tmp_path):
    out = tmp_path / "u.c"
    p = cli("transform", "undef_min.c", "--function", "f", "--recipe", "undef_min.yaml", "-o", out, cwd=DATA)
    assert p.returncode == 0, p.stderr
    text = out.read_text()
    assert text.rstrip().endswith("     }\n   }\n#undef mu\n#undef lu\n}"), text[-400:]
    _gcc(out)
    p = cli("run", "undef_min.c", "--function", "f", "--recipe", "undef_min.yaml", "-D", "ifirst=0",
            "-D", "ilast=29", "-D", "jfirst=0", "-D", "jlast=13", "--repetitions", "1", cwd=DATA)
    assert p.returncode == 0 and ": ok" in p.stdout, p.stdout + p.stderr


@needs_gcc
def test_the_functions_own_temporary_is_private_after_a_jam(tmp_path):
    out = tmp_path / "j.c"
    p = cli("transform", "ujfp_min.c", "--function", "f", "--recipe", "ujfp_min.yaml", "-o", out, cwd=DATA)
    assert p.returncode == 0, p.stderr
    text = out.read_text()
    # `double t;` of the function has no 0 to copy in; its jam copy is declared `= 0`
    assert "#pragma omp parallel for private(i, t) firstprivate(t__k1)" in text, text
    _gcc(out, "-fopenmp")


def test_chill_loop_0_counts_from_the_first_nest_past_a_statement_before_it(tmp_path):
    out = tmp_path / "d.c"
    p = cli("transform", "denise_v4.c", "--function", "update_v_o4", "--recipe", "denise_cc2.lua", "-o", out,
            cwd=DATA)
    assert p.returncode == 0, p.stderr
    loops = [ln.strip() for ln in out.read_text().splitlines() if ln.strip().startswith("for (")]
    # the velocity nest is tiled; the damping nest after it is as written
    assert loops[:3] == ["for (int jj = 0; jj <= lx_floord(ny2 - ny1, 8); jj++)",
                         "for (j = ny1 + 8 * jj; j <= lx_min(ny2, ny1 + 8 * jj + 7); j++)",
                         "for (i = nx1; i <= nx2; i++) {"], loops
    assert loops[3:] == ["for (j = ny1; j <= ny2; j++)", "for (i = nx1; i <= nx2; i++) {"], loops


F2C_FUSE = "steps:\n  - fuse: {stmts: [0, 1], loop: i__}\n"


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc on PATH (CI has it): runs the kernel")
def test_f2c_sets_a_bound_temporary_again_to_the_value_it_holds(tmp_path):
    # `i__1 = *n;` before each of two nests: the second changes nothing and goes
    r = tmp_path / "r.yaml"
    r.write_text(F2C_FUSE)
    p = cli("run", "f2c_i1.c", "--function", "twoloops_", "--recipe", r, "-D", "n__0=37", "--repetitions", "1",
            cwd=DATA)
    assert p.returncode == 0 and ": ok" in p.stdout, p.stdout + p.stderr


def test_a_bound_temporary_set_to_another_value_is_still_refused(tmp_path):
    f = tmp_path / "f.c"
    f.write_text((DATA / "f2c_i1.c").read_text().replace("    i__1 = *n;\n    for (i__ = 1; i__ <= i__1; ++i__) {\n\tb[i__]",
                                                          "    i__1 = *n - 1;\n    for (i__ = 1; i__ <= i__1; ++i__) {\n\tb[i__]"))
    assert "*n - 1" in f.read_text()
    p = cli("deps", f, "--function", "twoloops_")
    assert p.returncode == 2 and "'i__1' is written inside the region" in p.stderr, p.stderr


SCALE_DRIVER = """
int main(void) {
  float x[200], y[200];
  for (int i = 0; i < 200; i++) { x[i] = 1.0f + i; y[i] = -1.0f; }
  if (scale_host_status(5, 60, x, y) != 0) return 3;               /* inside the 64 copied */
  for (int i = 0; i < 200; i++) if (y[i] != (i >= 5 && i <= 60 ? 2.0f * x[i] : -1.0f)) return 1;
  /* WRF's its = 10, ite = 70: past the 64 elements the sizes give; its = -3: below them */
  if (scale_host_status(10, 70, x, y) != (int)cudaErrorInvalidValue) return 4;
  if (scale_host_status(-3, 20, x + 3, y + 3) != (int)cudaErrorInvalidValue) return 5;
  printf("ok\\n");
  return 0;
}
"""


@pytest.mark.gpu
def test_a_count_past_the_given_size_is_refused_on_the_gpu(tmp_path):
    from test_cuda_regressions import gpu_build_and_run
    p = cli("transform", "cnt_min.c", "--function", "scale", "--recipe", "cnt_min.yaml", "--target", "cuda",
            cwd=DATA)
    assert p.returncode == 0, p.stderr
    (tmp_path / "main.cu").write_text(p.stdout + SCALE_DRIVER)
    run = gpu_build_and_run(tmp_path / "main.cu")
    assert run.returncode == 0 and run.stdout.strip() == "ok", (run.returncode, run.stdout)
