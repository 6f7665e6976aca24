"""Leftovers of probes 56, 57 and 58: a reduction clause is named as the user wrote it (`-`);
lx_floord gives no -Wextra warning on a cast unsigned size (CMSIS-NN's `const uint16_t`); f2c's
`int h1u; h1u = *h1d;` before a function's loops are sizes; a partial --define names the rest."""
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli
from test_probe54 import _ok
from test_probe55 import _one_error

ALT = """#define LEN 64
double a[LEN];
double alt, sum;
void redmix(void)
{
  for (int i = 0; i < LEN; i++) {
    sum = sum - a[i];
    alt = a[i] - alt;
  }
}
"""


def test_a_minus_reduction_is_named_as_written(tmp_path):
    f, r = tmp_path / "redmix.c", tmp_path / "r.yaml"
    f.write_text(ALT)
    r.write_text("steps:\n  - omp_for: {stmt: 0, loop: i, reduction: {-: [sum, alt]}}\n")
    err = _one_error(*run_cli("transform", f, "--function", "redmix", "--recipe", r),
                     "reduction(-:alt)", "`alt = alt - e`")
    assert "reduction(+" not in err


def test_a_minus_reduction_is_emitted_as_plus(tmp_path):
    # OpenMP combines a '-' reduction's copies with '+' (5.2 deprecates writing '-')
    f, r = tmp_path / "redmix.c", tmp_path / "r.yaml"
    f.write_text(ALT.replace("    alt = a[i] - alt;\n", ""))
    r.write_text("steps:\n  - omp_for: {stmt: 0, loop: i, reduction: {-: [sum], +: sum}}\n")
    rc, out, err = run_cli("transform", f, "--function", "redmix", "--recipe", r)
    assert rc == 0 and "reduction(+:sum)" in out and out.count("reduction(") == 1, out + err
    _ok(*run_cli("run", f, "--function", "redmix", "--recipe", r))


FC = """#include <stdint.h>
void fc(const int8_t *pV, const int8_t *pM, const uint16_t dim_vec, const uint16_t num_of_rows,
        int32_t *pOut)
{
    for (int i = 0; i < num_of_rows; i++) {
        int32_t ip_out = 0;
        for (int j = 0; j < dim_vec; j++)
            ip_out += pV[j] * pM[i * dim_vec + j];
        pOut[i] = ip_out;
    }
}
"""


def test_floor_division_of_an_unsigned_size_has_no_type_limits_warning(tmp_path):
    f, r, o = tmp_path / "fc.c", tmp_path / "r.yaml", tmp_path / "fc_t.c"
    f.write_text(FC)
    r.write_text("steps:\n  - unroll_jam: {stmt: 1, loop: i, factor: 2}\n")
    rc, out, err = run_cli("transform", f, "--function", "fc", "--recipe", r, "-o", o)
    assert rc == 0 and "lx_floord" in o.read_text(), err
    cc = subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-c", str(o), "-o", "/dev/null"],
                        capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr
    for rows in ("7", "8", "1"):
        _ok(*run_cli("run", f, "--function", "fc", "--recipe", r, "-D", "dim_vec=5", "-D", f"num_of_rows={rows}"))


@pytest.mark.parametrize("d", [1, 2, 3, 8])
def test_floor_division_helper_rounds_down(tmp_path, d):
    from looptx.codegen.c import HELPERS
    c = tmp_path / "t.c"
    c.write_text("#include <stdio.h>\n" + HELPERS["lx_floord"] + "\nint main(void) { long bad = 0;"
                 f" for (long n = -50; n <= 50; n++) {{ long q = lx_floord(n, {d}L);"
                 f" if (q * {d} > n || (q + 1) * {d} <= n) bad++; }} printf(\"%ld\", bad); return 0; }}\n")
    subprocess.run(["gcc", "-O2", str(c), "-o", str(tmp_path / "t")], check=True)
    assert subprocess.run([str(tmp_path / "t")], capture_output=True, text=True).stdout == "0"


DATA = Path(__file__).resolve().parent / "data" / "gaps47"


def test_f2c_sizes_declared_then_set_before_the_loops_of_a_function(tmp_path):
    # NWChem's f2c form `int h1u; h1u = *h1d;` at the top of a --function region: the loops read
    # them as sizes, which follow -D h1d__0 (before: "'p4u' is written inside the region")
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - tile: {stmt: 0, loop: h7, size: 4}\n  - unroll: {stmt: 0, loop: h3, factor: 2}\n")
    sizes = ("h1d__0=5", "h2d__0=3", "h3d__0=9", "p4d__0=2", "p5d__0=3", "p6d__0=2", "h7d__0=6")
    _ok(*run_cli("run", DATA / "k01c_assign.c", "--function", "c99_sd_t_d1_1_", "--recipe", r,
                 *[x for s in sizes for x in ("-D", s)]))


def test_sizes_fixed_in_part_name_the_others_instead_of_a_wrong_view():
    # NWChem's t3 at -D h1u=4 -D h2u=4: the rows read from the remaining sizes are no view of the
    # 6-D tensor; the hint names the sizes to fix, and fixing them works
    argv = ("deps", DATA / "k08_d1_same_t3.c", "--function", "sd_t_d1_12", "-D", "h1u=4", "-D", "h2u=4")
    err = _one_error(*run_cli(*argv), "--define fixes h1u, h2u but not h3u, p5u, p6u",
                     "--define h3u=VALUE --define p5u=VALUE --define p6u=VALUE")
    assert "t3_v" not in err
    rc, out, err = run_cli(*argv, "-D", "h3u=7", "-D", "p5u=3", "-D", "p6u=5")
    assert rc == 0 and "carries RAW on t3" in out, out + err


def test_a_stepped_pointer_is_refused_for_its_steps_before_its_alias():
    # CMSIS-DSP's biquad: `float32_t *pOut = pDst; ... *pOut++ = acc;` was first refused as an
    # alias of pDst, whose remedy (one name) leads to the pointer-walk refusal
    err = _one_error(*run_cli("transform", DATA / "biquad_cmsis.c", "--function", "arm_biquad_cascade_df1_f32"),
                     "the region moves pointer")
    assert "points into" not in err


@pytest.mark.parametrize("cflags", ["-O0", "-O2 -fsanitize=undefined -fno-sanitize-recover"])
def test_a_tile_as_large_as_an_int_does_not_overflow_the_bound(tmp_path, cflags):
    # probe 62: `lx_floord(n - 1, 2147483647)` computed `n % d + d` in int
    f, r = tmp_path / "gemv.c", tmp_path / "r.yaml"
    f.write_text("void gemv(int n, double *A, double *x, double *y) {\n  int i, j;\n#pragma scop\n"
                 "  for (i = 0; i < n; i++)\n    for (j = 0; j < n; j++)\n      y[i] = y[i] + A[i*n + j] * x[j];\n"
                 "#pragma endscop\n}\n")
    r.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 2147483647}\n")
    _ok(*run_cli("run", f, "--recipe", r, "-D", "n=6", "--cflags", cflags))
