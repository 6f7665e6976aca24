"""Kernels in the style of application code (a probe of looptx on such code found these):
offsets and sizes that may be 0, size_t sizes, #defined sizes that make a subscript affine
only at their value, typedef'd integer sizes, and files that mix the two region markers.
Each is checked by compiling and running the original and the output."""
import subprocess

import pytest
from conftest import run_cli as cli
from test_cuda_codegen import NVCC, needs_nvcc


def _run(src, tmp_path, *flags):
    exe = tmp_path / f"{src.stem}{''.join(flags).replace('-', '_').replace('=', '_')}"
    proc = subprocess.run(["gcc", "-w", "-O1", *flags, str(src), "-o", str(exe)], capture_output=True, text=True)
    if proc.returncode:
        return proc.stderr
    return subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout


def _transform(tmp_path, name, text, steps, *extra):
    src = tmp_path / name
    src.write_text(text)
    recipe = tmp_path / f"{src.stem}.yaml"
    recipe.write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps) if steps else "steps: []\n")
    out = tmp_path / f"{src.stem}.out.c"
    rc, _, err = cli("transform", src, "--recipe", recipe, "-o", out, *extra)
    assert rc == 0, err
    return src, out, err


BOUNDARY = """#include <stdio.h>
void apply_bc(int lo, int hi, double *F, const double *q)
{
#pragma scop
    for (int i = lo; i < hi; i++) {
        if (i == 0)
            F[i] = 100.0;
        else
            F[i] = q[i - 1] + q[i];
    }
#pragma endscop
}
int main(void)
{
    double F[8] = {0}, q[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    apply_bc(0, 6, F, q);
    apply_bc(6, 8, F, q);
    apply_bc(3, 3, F, q);
    for (int i = 0; i < 8; i++) printf("%g ", F[i]);
    printf("\\n");
    return 0;
}
"""


@pytest.mark.parametrize("steps", [[], ["unroll: {stmt: 0, loop: i, factor: 2}"],
                                   ["split: {stmt: 0, loop: i, at: 1}"]])
def test_an_offset_may_be_zero_or_negative(tmp_path, steps):
    """`lo` is no size: assuming lo >= 1 dropped the i == 0 statement, even with no step."""
    src, out, _ = _transform(tmp_path, "bc.c", BOUNDARY, steps)
    assert _run(out, tmp_path) == _run(src, tmp_path) == "100 3 5 7 9 11 13 15 \n"


EMPTY_RANGE = """#include <stdio.h>
void f(int n, double *a)
{
#pragma scop
    for (int i = 0; i < n; i++) {
        if (i == 0)
            a[i] = 100.0;
        else
            a[i] = a[i - 1] + 1.0;
    }
#pragma endscop
}
int main(void)
{
    double a[3] = {7, 7, 7};
    f(0, a);
    printf("%g %g %g\\n", a[0], a[1], a[2]);
    f(2, a);
    printf("%g %g %g\\n", a[0], a[1], a[2]);
    return 0;
}
"""


def test_a_loop_bound_that_is_no_array_extent_may_be_zero(tmp_path):
    src, out, _ = _transform(tmp_path, "zero.c", EMPTY_RANGE, [])
    assert _run(out, tmp_path) == _run(src, tmp_path) == "7 7 7\n100 101 7\n"


UNSIGNED = """#include <stdio.h>
#include <stddef.h>
void scale(size_t n, double *a)
{
#pragma scop
    for (size_t i = 0; i < n; i++)
        a[i] = a[i] * 2.0 + 1.0;
#pragma endscop
}
int main(void)
{
    double a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    for (size_t n = 0; n < 6; n++)
        scale(n, a);
    for (int i = 0; i < 8; i++) printf("%g ", a[i]);
    printf("\\n");
    return 0;
}
"""


@pytest.mark.parametrize("step", ["shift: {stmt: 0, loop: i, by: -2}", "peel: {stmt: 0, loop: i, first: 1}",
                                  "peel: {stmt: 0, loop: i, last: 2}", "unroll: {stmt: 0, loop: i, factor: 4}",
                                  "tile: {stmt: 0, loop: i, size: 4}", "split: {stmt: 0, loop: i, at: 2}"])
def test_size_t_sizes_do_not_wrap_in_the_bounds_looptx_computes(tmp_path, step):
    """n - 2 with size_t n = 1 wraps, and `int i < size_t` compares unsigned: -2 < n is false."""
    src, out, _ = _transform(tmp_path, "scale.c", UNSIGNED, [step])
    assert _run(out, tmp_path) == _run(src, tmp_path)
    assert "(long)n" in out.read_text()


SHIFT_ROWS = """#include <stdio.h>
#ifndef S
#define S 16
#endif
#define W 8
#define R 6
static double buf[S * (R + 2) + 2 * W];
void shift_rows(void)
{
    int i, j;
#pragma scop
    for (j = 0; j < R; j++)
        for (i = 0; i < W; i++)
            buf[S * j + i] = buf[S * j + i + W] * 0.5 + 1.0;
#pragma endscop
}
int main(void)
{
    double s = 0;
    for (int i = 0; i < S * (R + 2) + 2 * W; i++) buf[i] = i % 11;
    shift_rows();
    for (int i = 0; i < S * (R + 2) + 2 * W; i++) s += buf[i] * (i % 13 + 1);
    printf("%.17g\\n", s);
    return 0;
}
"""


def test_a_define_that_makes_a_subscript_affine_is_checked_in_the_output(tmp_path):
    """At S = 16 the rows do not overlap and the reversal is legal; at S = 8 they do: the
    output holds for S = 16 only, and a build with another S stops at an #error that says so."""
    src, out, err = _transform(tmp_path, "rows.c", SHIFT_ROWS, ["reverse: {stmt: 0, loop: j}"])
    assert "note: the region is modelled at S = 16, W = 8" in err
    assert _run(out, tmp_path) == _run(src, tmp_path)
    failed = _run(out, tmp_path, "-DS=8")
    assert "#error" in failed and "transformed this region for S == 16" in failed
    # --define S=8 makes code for S = 8 of a default the build may change: checked the same way
    src2, out2, _ = _transform(tmp_path, "rows8.c", SHIFT_ROWS, [], "--define", "S=8")
    assert "#if S != 8" in out2.read_text() and "S == 16" not in out2.read_text()
    assert "#error" in _run(out2, tmp_path, "-DS=16")


@needs_nvcc
def test_a_define_the_model_took_at_its_value_is_defined_in_the_cu(tmp_path):
    """The .cu does not see the file's macros: S, modelled at 16, is #defined there and checked
    as in the C output (once an argument of its functions, with `#if S != 16` reading an
    undefined S, so nvcc always stopped at the #error)."""
    src = tmp_path / "rows.c"
    src.write_text(SHIFT_ROWS)
    recipe = tmp_path / "map.yaml"
    recipe.write_text("steps:\n  - cuda: {stmt: 0, block: [j], thread: [i]}\n")
    cu = tmp_path / "rows.cu"
    rc, _, err = cli("transform", src, "--recipe", recipe, "--target", "cuda", "-o", cu)
    assert rc == 0, err
    text = cu.read_text()
    assert "#define S 16" in text and "int S" not in text, text
    for flags, ok in (([], True), (["-DS=8"], False)):
        p = subprocess.run([NVCC, "-arch=sm_90", "-c", *flags, str(cu), "-o", str(tmp_path / "k.o")],
                           capture_output=True, text=True)
        assert (p.returncode == 0) == ok, p.stderr[-1500:]
        assert ok or "transformed this region for S == 16" in p.stderr


TYPEDEF = """#include <stdio.h>
typedef int Index_t;
typedef Index_t Count_t;
void axpy(Index_t length, const Count_t m, double *a, const double *b)
{
#pragma scop
    for (Index_t i = 0; i < length; ++i)
        for (Index_t j = 0; j < m; ++j)
            a[i * 4 + j] += b[i * 4 + j] * 2.0;
#pragma endscop
}
int main(void)
{
    double a[40], b[40];
    for (int i = 0; i < 40; i++) { a[i] = i; b[i] = 40 - i; }
    axpy(9, 3, a, b);
    for (int i = 0; i < 40; i++) printf("%g ", a[i]);
    printf("\\n");
    return 0;
}
"""


def test_sizes_of_a_typedef_integer_type_are_parameters(tmp_path):
    src, out, _ = _transform(tmp_path, "td.c", TYPEDEF, ["tile: {stmt: 0, loop: i, size: 4}"])
    assert _run(out, tmp_path) == _run(src, tmp_path)


MIXED = """#include <stdio.h>
static double A[64][64], x[64], y[64], z[64];
static void matvec(int n)
{
    int i, j;
/*@ begin CHiLL ( ) @*/
    for (i = 0; i < n; i++) {
        y[i] = 0.0;
        for (j = 0; j < n; j++)
            y[i] += A[i][j] * x[j];
    }
/*@ end @*/
}
static void update(int n)
{
#pragma scop
    for (int i = 0; i < n; i++)
        z[i] = y[i] - 2.0 * x[i];
#pragma endscop
    z[0] = -1.0;
}
int main(void)
{
    for (int i = 0; i < 64; i++) { x[i] = i % 5; for (int j = 0; j < 64; j++) A[i][j] = (i + j) % 3; }
    matvec(37);
    update(37);
    double s = 0;
    for (int i = 0; i < 64; i++) s += z[i] * (i + 1);
    printf("%g\\n", s);
    return 0;
}
"""


def test_a_file_may_mark_regions_with_both_markers(tmp_path):
    src = tmp_path / "m.c"
    src.write_text(MIXED)
    rc, out, err = cli("deps", src)
    assert rc == 0 and "region 0" in out and "region 1" in out and "function update" in out, out + err
    src, out, _ = _transform(tmp_path, "m.c", MIXED, ["unroll: {stmt: 2, loop: i, factor: 2}"])
    text = out.read_text()
    assert "i += 2" in text and "z[0] = -1.0;" in text
    assert _run(out, tmp_path) == _run(src, tmp_path)
