"""Probes 55 (physics kernels) and 56 (neural-network kernels in C): a struct the loop body
declares and uses member by member (lavaMD's `THREE_VECTOR d;`) is a scalar per member; `/*@ ...
@*/` comments that are no markers (uFDTD's `\\label{}`); copy steps take a member as written
(`g->hy`); messages that name what the user wrote; the .cu includes <stdint.h> for uint16_t
sizes; a jam's last strip keeps only the guards the code around it does not decide."""
import re

import pytest

from conftest import run_cli
from test_cuda_codegen import needs_nvcc, nvcc_compile
from test_probe54 import _ok
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "probe55"


def _one_error(rc, out, err, *expected):
    assert rc == 2 and err.count("\n") == 1, out + err
    assert "Traceback" not in err
    for e in expected:
        assert e in err, err
    return err


@pytest.mark.parametrize("recipe, sizes", [("pairs_cpu.yaml", ("n=9", "m=7")),
                                           ("pairs_cpu.yaml", ("n=4", "m=8")),
                                           ("pairs_cuda.yaml", ("n=40", "m=7"))])
def test_a_struct_the_loop_body_declares_is_a_scalar_per_member(recipe, sizes):
    _ok(*run_cli("run", DATA / "pairs.c", "--function", "pairs", "--recipe", DATA / recipe,
                 *[x for s in sizes for x in ("-D", s)]))


def test_the_struct_s_members_are_private_to_the_parallel_loop():
    rc, out, err = run_cli("transform", DATA / "pairs.c", "--function", "pairs", "--recipe",
                           DATA / "pairs_cpu.yaml")
    assert rc == 0, err
    assert re.search(r"#pragma omp parallel for private\(d__x, d__y, d__z, r2\)", out), out


@pytest.mark.parametrize("function, expected", [
    ("punned", ("'b.f' belongs to 'b', which the region declares, and it is a union",
                "keep the union's use outside the region")),
    ("whole", ("'d.x' belongs to 'd', which the region declares, and the region uses it whole",)),
])
def test_a_struct_local_that_is_not_its_members_says_why(function, expected):
    _one_error(*run_cli("deps", DATA / "pairs.c", "--function", function), *expected)


def test_a_comment_that_only_looks_like_a_marker_is_a_comment(tmp_path):
    # uFDTD labels its loops for LaTeX listings
    f = tmp_path / "updatetmz.c"
    text = (DATA / "fdtd_tmz.c").read_text()
    f.write_text(text.replace("for (mm = 0; mm < SizeX; mm++)\n", "for (mm = 0; mm < SizeX; mm++) "
                                                                 "/*@ \\label{updatetmzB} @*/\n", 1))
    assert "label" in f.read_text()
    rc, out, err = run_cli("deps", f, "--function", "updateH2d")
    assert rc == 0 and "S1" in out, err


def test_a_marker_without_a_module_is_still_malformed(tmp_path):
    f = tmp_path / "m.c"
    f.write_text("void f(int n, double *a)\n{\n/*@ begin @*/\n  for (int i = 0; i < n; i++) a[i] = 0;\n}\n")
    _one_error(*run_cli("deps", f), "malformed annotation marker")


@needs_nvcc
def test_a_copy_step_takes_a_pointer_member_as_written():
    rc, cu, err = run_cli("transform", DATA / "fdtd_tmz.c", "--function", "updateE2d", "--recipe",
                          DATA / "shared_member.yaml", "--target", "cuda")
    assert rc == 0, err
    assert "g__hy_sh" in cu or "__shared__" in cu, cu
    assert nvcc_compile(cu) is None


def test_copy_step_messages_name_arrays_as_written(tmp_path):
    recipe = tmp_path / "r.yaml"
    recipe.write_text((DATA / "shared_member.yaml").read_text().replace("g->hy", "g->hq"))
    _one_error(*run_cli("transform", DATA / "fdtd_tmz.c", "--function", "updateE2d", "--recipe", recipe,
                        "--target", "cuda"),
               "there is no array 'g->hq' in the region (arrays: g->ceze, g->ez, g->cezh, g->hy, g->hx)")
    recipe.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 32, control: ii}\n"
                      "  - cuda: {stmt: 0, block: [ii], thread: [i]}\n"
                      "  - shared: {stmt: 0, array: rB, at: ii}\n")
    # (an array of structs is copied member by member, each an array of the model: session 69)
    rc, out, err = run_cli("run", DATA / "pairs.c", "--function", "pairs", "--recipe", recipe, "-D", "m=7",
                           "-D", "n=40", "--repetitions", "1")
    assert rc == 0 and ": ok" in out and "'rB' is an array of structs, copied one member at a time: rB.v, rB.x, " \
                                         "rB.y, rB.z" in err, out + err


def test_a_step_error_after_a_cuda_step_is_a_step_error():
    # the shared copy's footprint follows j, whose extent is a size: refused at that step, through
    # the check of the distribute hint, which runs the GPU mapping check
    _one_error(*run_cli("transform", DATA / "nbody_gold.c", "--function", "computeGold", "--recipe",
                        DATA / "nbody_cuda_shared.yaml", "--target", "cuda"),
               "step 6 (shared): error: the references pos[j * 4 + 0], pos[i * 4 + 0], pos[j * 4 + 1], ... of 'pos' in "
               "loop 'jj' "
               "each reach a tile of constant size, but the tiles lie a varying distance apart")


def test_a_lua_script_s_unknown_name_is_assigned_in_the_script(tmp_path):
    # cudaize's array table reads a name the script does not set as the region's size (probe 71
    # G3), as a YAML `sizes:` does; elsewhere an unknown name is still the script's to assign
    rc, out, err = run_cli("transform", DATA / "wave2d.c", "--recipe", DATA / "lua_unknown_name.lua",
                           "--target", "cuda")
    assert rc == 0 and "cudaMalloc((void **)&lx_d_u, (size_t)(ny) * (size_t)(nx) * sizeof(double))" in out, err
    script = tmp_path / "s.lua"
    script.write_text((DATA / "lua_unknown_name.lua").read_text().replace("TI = 32\n", "").replace(
        "init(\"wave2d.c\"", f"init(\"{DATA / 'wave2d.c'}\""))
    _one_error(*run_cli("transform", DATA / "wave2d.c", "--recipe", script, "--target", "cuda"),
               "unknown parameter 'TI'", "assign it earlier in the script (TI = VALUE)")


def test_a_write_below_the_first_element_says_write_and_how_to_validate():
    _one_error(*run_cli("run", DATA / "margin.c", "--function", "push", "-D", "n=10"),
               "the region writes array 'dst' below its first element (index -2)",
               "`looptx transform` is not affected", "dst[... + 2]")


def test_a_product_in_a_condition_suggests_the_size_s_value():
    _one_error(*run_cli("deps", DATA / "stride_cond.c", "--function", "conv_rows"),
               "non-affine condition", "--define stride=VALUE")
    rc, out, err = run_cli("deps", DATA / "stride_cond.c", "--function", "conv_rows", "-D", "stride=2")
    assert "non-affine condition" not in err, err


@needs_nvcc
def test_a_cu_with_a_uint16_t_size_fixed_by_define_compiles():
    rc, cu, err = run_cli("transform", DATA / "u16.c", "--function", "scale", "--recipe",
                          DATA / "u16_cuda.yaml", "--target", "cuda", "-D", "n=100")
    assert rc == 0, err
    assert "uint16_t" in cu and "#include <stdint.h>" in cu
    assert nvcc_compile(cu) is None


FIR = """void fir(const float *x, const float *h, float *y, int N, int ord)
{
  int i, j;
  for (i = 0; i < N; i++) {
    float sum = x[i];
    for (j = 0; j < ord; j++)
      sum = sum + h[j] * x[i + j];
    y[i] = sum;
  }
}
"""


def test_a_jam_s_last_strip_keeps_only_guards_the_code_does_not_decide(tmp_path):
    # opus celt_fir: the copies of the last strip were guarded by `N - N % 4 >= 0` inside
    # `if (N >= 1)`, and the fourth copy, which never runs, was kept
    f, r = tmp_path / "fir.c", tmp_path / "r.yaml"
    f.write_text(FIR)
    r.write_text("steps:\n  - unroll_jam: {stmt: 1, loop: i, factor: 4}\n")
    rc, out, err = run_cli("transform", f, "--function", "fir", "--recipe", r)
    assert rc == 0, err
    assert "% 4 >= 0" not in out and "N - N % 4 + 3" not in out, out
    assert "if (N - N % 4 + 2 < N)" in out, out
    for n in (1, 3, 4, 7, 13):
        _ok(*run_cli("run", f, "--function", "fir", "--recipe", r, "-D", f"N={n}", "-D", "ord=3"))


def test_a_pure_helper_from_the_user_s_own_header_is_a_helper(tmp_path):
    # CMSIS-NN's __SSAT / __USAT come from cmsis_gcc.h: they were "calls that may have side effects"
    rc, out, err = run_cli("deps", DATA / "ssat_user.c", "--function", "f")
    assert rc == 0 and "sat8(a[i] * 3)" in out, err
    _ok(*run_cli("run", DATA / "ssat_user.c", "--function", "f", "-D", "n=37"))


def test_a_branch_temporary_set_through_a_pure_helper_is_private():
    # arm_softmax_q7: `shift = (uint8_t)__USAT(vec_in[i] - base, 5);` and its reads, all under
    # `if (vec_in[i] > base)`: the loop is parallel with shift private
    rc, out, err = run_cli("run", DATA / "softmax_q7.c", "--function", "arm_softmax_q7", "--recipe",
                           DATA / "softmax_q7.yaml", "-D", "dim_vec=37")
    _ok(rc, out, err)
    assert "'shift' is set and read only under branches on data" in err, err


@needs_nvcc
def test_a_tile_of_a_strided_loop_holds_size_iterations():
    # Parboil lbm's sweep over cells of 20 floats, tiled by 64 and mapped: 64 cells per block
    # (before: 16 threads a block, 4 of 5 idle), and the kernel takes only the sizes it names
    # (not the enum offsets); `N_CELL * n` in the bound is modelled at the #define's value
    rc, cu, err = run_cli("transform", DATA / "stride.c", "--function", "sweep", "--recipe",
                          DATA / "stride_cuda.yaml", "--target", "cuda")
    assert rc == 0, err
    assert "__launch_bounds__(64) sweep_kernel0(const float *__restrict__ src, float *__restrict__ dst, int n)" in cu, cu
    assert "dst[20 * tx + 1280 * bx]" in cu and "% 5" not in cu, cu
    assert nvcc_compile(cu) is None
    for n in (1, 7, 100):
        _ok(*run_cli("run", DATA / "stride.c", "--function", "sweep", "--recipe", DATA / "stride_cuda.yaml",
                     "-D", f"n={n}"))


PREFIX = """void prefix(int n, const double *a, double *b)
{
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    s += a[i];
    b[i] = s;
  }
}
"""


@pytest.mark.parametrize("step", ["omp_for: {stmt: 0, loop: i}", "reverse: {stmt: 0, loop: i}"])
def test_a_prefix_sum_is_not_offered_a_reduction_clause(tmp_path, step):
    # `b[i] = s` reads every partial sum: the clause the hint offered is refused by omp_for itself
    f, r = tmp_path / "ps.c", tmp_path / "r.yaml"
    f.write_text(PREFIX)
    r.write_text(f"steps:\n  - {step}\n")
    err = _one_error(*run_cli("transform", f, "--function", "prefix", "--recipe", r), "(RAW on s)")
    assert "reduction" not in err, err
    # a sum read only after its loop still is one
    f.write_text(PREFIX.replace("    b[i] = s;\n", "").replace("  }\n}", "  }\n  b[0] = s;\n}"))
    _one_error(*run_cli("transform", f, "--function", "prefix", "--recipe", r), "(a + reduction)"
               if step.startswith("reverse") else "'s' is a + reduction")


@needs_nvcc
def test_a_register_the_next_statement_overwrites_is_not_loaded():
    # the D2Q9 collide's `rho[y][x] = 0.0;` in registers: was `rho_r = rho[...]; rho_r = 0.0;`
    rc, cu, err = run_cli("transform", DATA / "lbm_d2q9.c", "--function", "collide", "--recipe",
                          DATA / "lbm_collide_cuda.yaml", "--target", "cuda")
    assert rc == 0, err
    assert "rho_r = 0.0;" in cu and "rho_r = rho[" not in cu, cu
    assert nvcc_compile(cu) is None
    _ok(*run_cli("run", DATA / "lbm_d2q9.c", "--function", "collide", "--recipe", DATA / "lbm_collide_cuda.yaml"))
