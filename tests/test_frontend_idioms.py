"""Idioms of application code that the front end refused or passed over in silence (found by
probing looptx on such kernels): the last pixel of a row of a linearized image
(`dst[y*w + w - 1]`), loop steps written with a #define, a const or an enum (`ii += BS` of a
hand-blocked nest), and `#pragma omp` lines inside a region.  Accepted code is checked by
compiling and running the original and the output (gcc), at sizes that do and do not divide
the tile sizes; refused code by its one error line."""
import re

import pytest
from conftest import run_cli as cli
from test_app_kernels import _run, _transform


def _same(tmp_path, name, text, steps, *extra, want_note=None):
    src, out, err = _transform(tmp_path, name, text, steps, *extra)
    if want_note is not None:
        assert want_note in err, err
    expected = _run(src, tmp_path)
    assert expected.strip() and "error" not in expected, expected
    assert _run(out, tmp_path) == expected
    return out, err


def _error(tmp_path, name, text) -> str:
    src = tmp_path / name
    src.write_text(text)
    rc, _, err = cli("deps", src)
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 1, err
    return lines[0]


# ---- F6: the last element of a row of a linearized array ------------------------------------
ROW_END = """#include <stdio.h>
/* copy rows of an image and clear the last pixel of each row */
void f(int w, int h, const double *src, double *dst)
{
    int x, y;
#pragma scop
    for (y = 0; y < h; y++) {
        for (x = 0; x < w; x++)
            dst[y * w + x] = src[y * w + x] + 0.5 * y;
        dst[y * w + w - 1] = 0.25 * dst[y * w] + 1.0;
    }
#pragma endscop
}
int main(void)
{
    static double src[40 * 40], dst[40 * 40];
    static const int sizes[][2] = {{16, 8}, {13, 7}, {3, 3}, {1, 5}, {8, 1}, {37, 11}};
    double s = 0;
    for (int k = 0; k < 6; k++) {
        int w = sizes[k][0], h = sizes[k][1];
        for (int i = 0; i < 40 * 40; i++) { src[i] = (i * 7) % 23; dst[i] = -1.0; }
        f(w, h, src, dst);
        for (int i = 0; i < 40 * 40; i++) s += dst[i] * (i % 13 + 1);
        printf("%d %d %.17g\\n", w, h, s);
    }
    return 0;
}
"""


@pytest.mark.parametrize("steps", [
    [],
    ["tile: {stmt: 0, loop: x, size: 4}", "tile: {stmt: 0, loop: y, size: 3}"],
    ["reverse: {stmt: 0, loop: y}", "unroll: {stmt: 0, loop: x, factor: 4}"],
    ["distribute: {stmts: [0, 1], loop: y}", "permute: {stmt: 0, order: [x, y]}"],
])
def test_the_last_pixel_of_a_row_is_column_w_minus_1_of_its_row(tmp_path, steps):
    """`y*w + w - 1` groups as row y + 1, column -1, which leaves its row; the split row y,
    column w - 1 stays in it for w >= 1, which the region is modelled for (with a note)."""
    _same(tmp_path, "row_end.c", ROW_END, steps,
          want_note="note: the region is modelled for w >= 1: the linearized subscripts of 'src', 'dst'")


def test_the_row_end_written_as_next_row_minus_one_is_the_same_access(tmp_path):
    _same(tmp_path, "row_end2.c", ROW_END.replace("dst[y * w + w - 1]", "dst[(y + 1) * w - 1]"),
          ["tile: {stmt: 1, loop: y, size: 4}"])


# k/img_blur.c of the probe: a separable box blur with copied borders, on an 8-bit image
BLUR = """#include <stdio.h>
#include <stdint.h>
void box_blur(int w, int h, const uint8_t *restrict src, uint8_t *restrict dst, int *restrict tmp)
{
    int x, y;
#pragma scop
    for (y = 0; y < h; y++) {
        tmp[y * w] = 3 * src[y * w];
        for (x = 1; x < w - 1; x++)
            tmp[y * w + x] = src[y * w + x - 1] + src[y * w + x] + src[y * w + x + 1];
        tmp[y * w + w - 1] = 3 * src[y * w + w - 1];
    }
    for (y = 1; y < h - 1; y++)
        for (x = 0; x < w; x++)
            dst[y * w + x] = (uint8_t)((tmp[(y - 1) * w + x] + tmp[y * w + x] + tmp[(y + 1) * w + x] + 4) / 9);
    for (x = 0; x < w; x++) {
        dst[x] = src[x];
        dst[(h - 1) * w + x] = src[(h - 1) * w + x];
    }
#pragma endscop
}
int main(void)
{
    static uint8_t src[64 * 48], dst[64 * 48]; static int tmp[64 * 48];
    static const int sizes[][2] = {{64, 48}, {13, 7}, {3, 3}, {17, 2}, {1, 4}};
    long s = 0;
    for (int k = 0; k < 5; k++) {
        int w = sizes[k][0], h = sizes[k][1];
        unsigned r = 2024u;
        for (int i = 0; i < 64 * 48; i++) { r = r * 1103515245u + 12345u; src[i] = (uint8_t)(r >> 24); dst[i] = 0; tmp[i] = 0; }
        box_blur(w, h, src, dst, tmp);
        for (int i = 0; i < 64 * 48; i++) s += (long)dst[i] * (i % 7 + 1) + tmp[i];
        printf("%d %d %ld\\n", w, h, s);
    }
    return 0;
}
"""


@pytest.mark.parametrize("steps", [
    [],
    ["tile: {stmt: 3, loop: x, size: 16}", "permute: {stmt: 3, order: [xx, y, x]}",
     "unroll: {stmt: 1, loop: x, factor: 4}"],
    ["distribute: {stmts: [4, 5], loop: x}", "unroll: {stmt: 4, loop: x, factor: 3}"],
    ["tile: {stmt: 1, loop: x, size: 8}", "tile: {stmt: 3, loop: y, size: 5}"],
])
def test_a_blur_that_copies_the_row_ends(tmp_path, steps):
    _same(tmp_path, "blur.c", BLUR, steps, want_note="note: the region is modelled for w >= 1:")


LEAVES = """void f(int w, int h, double *a, const double *b)
{
    int x, y;
#pragma scop
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
            a[y * w + x + 1] = b[y * w + x] + a[y * w + x];
#pragma endscop
}
"""


def test_a_subscript_that_leaves_its_row_is_still_refused_with_what_to_do(tmp_path):
    """At x = w - 1, a[y*w + x + 1] is element 0 of the next row, which a[y*w + x] reads at
    x = 0: no split keeps both in their rows (from 0 or from 1), and modelling them so would
    miss that they alias."""
    line = _error(tmp_path, "leaves.c", LEAVES)
    assert line.endswith(
        "leaves.c:7:15: error: non-affine: linearized subscript of 'a' leaves its row: in a[y * w + x + 1] "
        "the index x + 1 within rows of w elements is not always in [0, w) (write the access through a "
        "multi-dimensional view in which it stays in its row (double (*a_v)[w] = (double (*)[w])a; then "
        "a_v[..][..]), or fix the sizes with --define to model it flat)"), line
    assert "floord" not in line


LEAVES_MAIN = LEAVES + """#include <stdio.h>
int main(void)
{
    static double a[9 * 8 + 1], b[9 * 8];
    for (int i = 0; i < 9 * 8; i++) b[i] = i % 5;
    f(8, 9, a, b);
    double s = 0;
    for (int i = 0; i < 9 * 8 + 1; i++) s += a[i] * (i + 1);
    printf("%.17g\\n", s);
    return 0;
}
"""


def test_rows_whose_index_runs_from_one_are_rows_too(tmp_path):
    """a[y*w + x + 1] alone: its in-row index runs over 1..w, one window of w elements per
    row, so no two (y, x) reach one element; a permute validates, symbolic code included."""
    _same(tmp_path, "leaves_one.c", LEAVES_MAIN.replace(" + a[y * w + x];", ";"),
          ["unroll: {stmt: 0, loop: x, factor: 3}", "permute: {stmt: 0, order: [x, y]}"])


def test_a_subscript_that_leaves_its_row_is_modelled_flat_when_the_sizes_have_values(tmp_path):
    _same(tmp_path, "leaves_flat.c", LEAVES_MAIN, ["unroll: {stmt: 0, loop: x, factor: 3}"],
          "--define", "w=8", "--define", "h=9")


STRIDED = """#include <stdio.h>
#ifndef STRIDE
#define STRIDE 2
#endif
void f(int n, double *x)
{
#pragma scop
    for (int i = 0; i < n; i++)
        x[i * STRIDE + 1] = x[i * STRIDE] * 0.5 + i;
#pragma endscop
}
int main(void)
{
    static double x[2 * 40 + 2];
    for (int i = 0; i < 2 * 40 + 2; i++) x[i] = i % 7;
    f(40, x);
    double s = 0;
    for (int i = 0; i < 2 * 40 + 2; i++) s += x[i] * (i + 1);
    printf("%.17g\\n", s);
    return 0;
}
"""


def test_a_defined_row_length_for_which_alone_the_row_holds_is_checked_in_the_output(tmp_path):
    """x[i*STRIDE + 1] stays in a row of STRIDE = 2 elements, and not of 1: the model holds for
    the file's value only, and a build with another one stops at the #error."""
    out, _ = _same(tmp_path, "strided.c", STRIDED, ["reverse: {stmt: 0, loop: i}"],
                   want_note="note: the region is modelled at STRIDE = 2 (the #define value), where the "
                             "linearized subscripts stay in their rows")
    failed = _run(out, tmp_path, "-DSTRIDE=1")
    assert "#error" in failed and "STRIDE == 2" in failed


# ---- F7: a step written with a #define, a const or an enum ----------------------------------
BLOCKED = """#include <stdio.h>
#ifndef BS
#define BS 16
#endif
#define MIN(a, b) ((a) < (b) ? (a) : (b))
/* already hand-blocked transpose-add, as application code writes it */
void transpose_add(int n, double A[64][64], double B[64][64])
{
    int ii, jj, i, j;
#pragma scop
    for (ii = 0; ii < n; ii += BS)
        for (jj = 0; jj < n; jj += BS)
            for (i = ii; i < MIN(ii + BS, n); i++)
                for (j = jj; j < MIN(jj + BS, n); j++)
                    B[i][j] += A[j][i];
#pragma endscop
}
int main(void)
{
    static double A[64][64], B[64][64];
    double s = 0;
    for (int n = 1; n <= 64; n += 9) {
        for (int i = 0; i < 64; i++) for (int j = 0; j < 64; j++) { A[i][j] = (i * 3 + j) % 11; B[i][j] = 0; }
        transpose_add(n, A, B);
        for (int i = 0; i < 64; i++) for (int j = 0; j < 64; j++) s += B[i][j] * ((i + 2 * j) % 13 + 1);
        printf("%d %.17g\\n", n, s);
    }
    return 0;
}
"""
BLOCKED_NOTE = ("note: the region is modelled at BS = 16 (the #define value), where the steps of "
                "loops 'ii', 'jj' are constants")


@pytest.mark.parametrize("steps", [
    [],
    ["permute: {stmt: 0, order: [jj, ii, j, i]}", "unroll: {stmt: 0, loop: i, factor: 4}"],
    ["tile: {stmt: 0, loop: j, size: 4, control: jt}", "unroll: {stmt: 0, loop: j, factor: 2}"],
])
def test_a_defined_step_is_modelled_at_its_value_and_checked_in_the_output(tmp_path, steps):
    """n = 1, 10, ..., 64: block sizes that do and do not divide n."""
    out, _ = _same(tmp_path, "blocked.c", BLOCKED, steps, want_note=BLOCKED_NOTE)
    text = out.read_text()
    assert "#if BS != 16" in text
    failed = _run(out, tmp_path, "-DBS=8")
    assert "#error" in failed and "BS == 16" in failed
    assert "error" not in _run(out.with_name("blocked.c"), tmp_path, "-DBS=8")


def test_a_defined_step_given_with_define_is_that_value_without_a_check(tmp_path):
    _, err = _same(tmp_path, "blocked16.c", BLOCKED, ["permute: {stmt: 0, order: [jj, ii, j, i]}"],
                   "--define", "BS=16")
    assert "note:" not in err


@pytest.mark.parametrize("decl", ["static const int BS = 16;", "const int BS = 4 * 4;",
                                  "enum { BS = 16 };", "enum { ONE = 1, BS = ONE * 16, TWO };"])
def test_a_const_or_enum_step_is_its_value(tmp_path, decl):
    text = BLOCKED.replace("#ifndef BS\n#define BS 16\n#endif", decl)
    if decl.startswith("enum"):
        # an enum constant is no variable, so looptx sees it only in the step: bounds need it
        # as a number or a #define (resolve_affine would need enum constants too)
        text = text.replace("MIN(ii + BS, n)", "MIN(ii + 16, n)").replace("MIN(jj + BS, n)", "MIN(jj + 16, n)")
    out, err = _same(tmp_path, "blocked_c.c", text, ["permute: {stmt: 0, order: [jj, ii, j, i]}",
                                                     "unroll: {stmt: 0, loop: j, factor: 4}"])
    assert "note:" not in err and "#if BS" not in out.read_text()


STEP_OF = """void f(int n, int s, double *a)
{
    int i;
#pragma scop
    for (i = 0; i < n; i += %s)
        a[i] = 1.0;
#pragma endscop
}
"""


def test_a_step_that_is_a_parameter_says_why_and_what_to_do(tmp_path):
    line = _error(tmp_path, "param_step.c", STEP_OF % "s")
    assert line.endswith(
        "param_step.c:5:24: error: the loop step of 'i' must be a constant, and 's' is a variable (its value "
        "is known only when the program runs) (looptx models loops with a constant step only: fix it with "
        "--define s=VALUE (the output is then for that step only), or write the constant)"), line


def test_a_step_macro_the_file_does_not_define_says_define_it(tmp_path):
    line = _error(tmp_path, "macro_step.c", STEP_OF % "BLK")
    assert line.endswith(
        "macro_step.c:5:24: error: the loop step of 'i' must be a constant, and 'BLK' is not declared in the "
        "file (a macro the build defines?) (the step must be a constant: fix it with --define BLK=VALUE "
        "(the output is then for that step only))"), line
    src = tmp_path / "macro_step.c"
    rc, out, err = cli("deps", src, "--define", "BLK=4")
    assert rc == 0, err


def test_a_step_that_is_an_enclosing_iterator_is_refused(tmp_path):
    text = STEP_OF.replace("for (i = 0; i < n; i += %s)", "for (int k = 1; k < 4; k++) for (i = 0; i < n; i += k)")
    line = _error(tmp_path, "iter_step.c", text)
    assert "the loop step of 'i' must be a constant, and 'k' is a loop iterator" in line, line


def test_a_const_step_set_from_a_default_define_is_checked_in_the_output(tmp_path):
    text = BLOCKED.replace("#ifndef BS\n#define BS 16\n#endif",
                           "#ifndef BLK\n#define BLK 16\n#endif\nstatic const int BS = BLK;")
    out, _ = _same(tmp_path, "blocked_blk.c", text, ["permute: {stmt: 0, order: [jj, ii, j, i]}"],
                   want_note="note: the region is modelled at BLK = 16 (the #define value), where the steps")
    failed = _run(out, tmp_path, "-DBLK=8")
    assert "#error" in failed and "BLK == 16" in failed


# ---- N1: pragmas inside a region are dropped, with a note -----------------------------------
JACOBI = """#include <stdio.h>
#define NN 30
static double u[NN][NN], unew[NN][NN], f[NN][NN];
void jacobi(int n, int nsteps, double h2)
{
    int t, i, j;
#pragma omp parallel
    {
    }
#pragma scop
    for (t = 0; t < nsteps; t++) {
#pragma omp parallel for private(j)
        for (i = 1; i < n - 1; i++)
            for (j = 1; j < n - 1; j++)
                unew[i][j] = 0.25 * (u[i-1][j] + u[i+1][j] + u[i][j-1] + u[i][j+1] - h2 * f[i][j]);
      #  pragma   omp parallel for \\
            private(j)
        for (i = 1; i < n - 1; i++)
#pragma GCC ivdep
            for (j = 1; j < n - 1; j++)
                u[i][j] = unew[i][j];
    }
#pragma endscop
}
void scale(int n)
{
    int i;
#pragma scop
    for (i = 0; i < n; i++)
        u[0][i] = 2.0 * u[0][i];
#pragma endscop
}
int main(void)
{
    for (int i = 0; i < NN; i++) for (int j = 0; j < NN; j++) { u[i][j] = (i * j) % 7; f[i][j] = (i + j) % 3; }
    jacobi(NN, 3, 0.01);
    scale(NN);
    double s = 0;
    for (int i = 0; i < NN; i++) for (int j = 0; j < NN; j++) s += u[i][j] * (i + 2 * j + 1);
    printf("%.17g\\n", s);
    return 0;
}
"""


def test_pragmas_dropped_from_a_region_get_one_note_at_the_first(tmp_path):
    out, err = _same(tmp_path, "jacobi.c", JACOBI, ["tile: {stmt: 0, loop: j, size: 8}"])
    notes = [ln for ln in err.splitlines() if "note:" in ln]
    assert len(notes) == 1, err
    assert re.search(r"jacobi\.c:12:1: note: '#pragma omp parallel for private\(j\)' inside the region is "
                     r"dropped \(and 2 more pragmas in the region, on lines 16, 19\): looptx writes", notes[0]), notes
    assert "add the pragma back where the transformed loop is parallel" in notes[0]
    assert "omp parallel for" not in out.read_text() and "ivdep" not in out.read_text()
    assert "#pragma omp parallel\n" in out.read_text()        # the one outside the regions stays


UNROLL_PRAGMA = """void f(int n, double *a)
{
    int i;
#pragma scop
    for (i = 0; i < n; i++)
        #pragma unroll 4
        for (int k = 0; k < 4; k++)
            a[4 * i + k] += 1.0;
#pragma endscop
}
"""


def test_a_pragma_inside_a_loop_body_gets_the_note_too(tmp_path):
    src = tmp_path / "unroll.c"
    src.write_text(UNROLL_PRAGMA)
    rc, _, err = cli("deps", src)
    assert rc == 0, err
    assert f"{src}:6:9: note: '#pragma unroll 4' inside the region is dropped: looptx" in err, err


def test_a_pragma_inside_an_unmarked_function_region_gets_the_note(tmp_path):
    src = tmp_path / "fn.c"
    src.write_text(UNROLL_PRAGMA.replace("#pragma scop\n", "").replace("#pragma endscop\n", "")
                   .replace("        #pragma unroll 4\n", "").replace("    int i;\n", "    int i;\n#pragma omp simd\n"))
    rc, _, err = cli("deps", src, "--function", "f")
    assert rc == 0, err
    assert f"{src}:4:1: note: '#pragma omp simd' inside the region is dropped" in err, err


FIR = """#include <stdio.h>
#define TAPS 8
void fir(int n, const float *x, const float *h, float *y)
{
  for (int i = 0; i < n; i++) {
    y[i] = 0.0f;
    for (int k = 0; k < TAPS; k++)
      y[i] += h[k] * x[i + k];
  }
}
int main(void)
{
  float x[40], h[8], y[32];
  for (int i = 0; i < 40; i++) x[i] = (float)(i % 7) * 0.5f;
  for (int k = 0; k < 8; k++) h[k] = 1.0f / (k + 1);
  fir(32, x, h, y);
  for (int i = 0; i < 32; i++) printf("%.9g\\n", y[i]);
  return 0;
}
"""


def test_a_full_unroll_of_a_loop_bounded_by_a_define_takes_its_value(tmp_path):
    """As CHiLL does (its unroll2a test), the loop is unrolled at the #define's value, and the
    output checks the build."""
    src = tmp_path / "fir.c"
    src.write_text(FIR)
    recipe = tmp_path / "r.yaml"
    recipe.write_text("steps:\n  - unroll: {stmt: 1, loop: k, factor: 0}\n")
    rc, _, err = cli("transform", src, "--recipe", recipe, "--function", "fir", "-o", tmp_path / "o.c")
    assert rc == 0 and "loop 'k' is unrolled fully at TAPS = 8, the #define's value" in err, err
    text = (tmp_path / "o.c").read_text()
    assert "#if TAPS != 8" in text and "for (int k" not in text.split("void fir")[1].split("int main")[0]
    src, out, _ = _transform(tmp_path, "fir.c", FIR, ["unroll: {stmt: 1, loop: k, factor: 0}"],
                             "--function", "fir", "--define", "TAPS=8")
    assert "for (int k" not in out.read_text().split("void fir")[1].split("int main")[0]
    assert _run(out, tmp_path) == _run(src, tmp_path)
