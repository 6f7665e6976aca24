"""BLAS-style leading dimensions: `a[i*lda + p]` with `p < k` stays in its row only when
`lda >= k`, the precondition every BLAS routine states.  The region is modelled under that fact,
with a note naming it, instead of being refused; an index that leaves its row whatever the row
length is still refused.  Checked by compiling and running the original and the output (gcc),
at sizes that do and do not divide the tiles, with padded leading dimensions."""
import pytest
from conftest import run_cli as cli
from test_app_kernels import _run, _transform

DGEMM = """#include <stdio.h>
#define A(i,j) a[(i)*lda + (j)]
#define B(i,j) b[(i)*ldb + (j)]
#define C(i,j) c[(i)*ldc + (j)]
void dgemm(int m, int n, int k, const double *restrict a, int lda, const double *restrict b,
           int ldb, double *restrict c, int ldc)
{
#pragma scop
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j)
            for (int p = 0; p < k; ++p)
                C(i,j) += A(i,p) * B(p,j);
#pragma endscop
}
int main(void)
{
    static double a[80 * 80], b[80 * 80], c[80 * 80];
    static const int sizes[][3] = {{33, 37, 29}, {64, 32, 48}, {1, 5, 3}, {17, 1, 40}};
    double s = 0;
    for (int t = 0; t < 4; t++) {
        int m = sizes[t][0], n = sizes[t][1], k = sizes[t][2];
        int lda = k + t, ldb = n + 2 * t + 1, ldc = n + 3;
        for (int i = 0; i < 80 * 80; i++) { a[i] = (i * 7) % 13 - 6; b[i] = (i * 5) % 11; c[i] = i % 3; }
        dgemm(m, n, k, a, lda, b, ldb, c, ldc);
        for (int i = 0; i < 80 * 80; i++) s += c[i] * (i % 17 + 1);
        printf("%d %.17g\\n", t, s);
    }
    return 0;
}
"""

NOTE = ("note: the region is modelled for lda >= k and ldb >= n and ldc >= n: the linearized "
        "subscripts of 'a', 'b', 'c' stay in their rows")


@pytest.mark.parametrize("steps", [
    ["tile: {stmt: 0, loop: i, size: 32}", "tile: {stmt: 0, loop: j, size: 16}",
     "permute: {stmt: 0, order: [ii, jj, i, p, j]}"],
    ["permute: {stmt: 0, order: [i, p, j]}", "unroll: {stmt: 0, loop: p, factor: 4}"],
    ["tile: {stmt: 0, loop: p, size: 8}", "permute: {stmt: 0, order: [pp, i, j, p]}",
     "unroll: {stmt: 0, loop: j, factor: 3}"],
])
def test_blas_leading_dimensions_are_modelled_and_transformed(tmp_path, steps):
    src, out, err = _transform(tmp_path, "dgemm.c", DGEMM, steps)
    assert NOTE in err, err
    expected = _run(src, tmp_path)
    assert expected.count("\n") == 4
    assert _run(out, tmp_path) == expected


def test_deps_reports_the_fact_and_no_overlap_of_rows(tmp_path):
    src = tmp_path / "dgemm.c"
    src.write_text(DGEMM)
    rc, out, err = cli("deps", src)
    assert rc == 0 and NOTE in err, err
    # under ldc >= n the rows of c do not overlap: i and j carry nothing
    assert "i        [S0] parallel" in out and "j        [S0] parallel" in out, out


COLUMN_MAJOR = """#include <stdio.h>
void dgemv_n(int m, int n, const double *a, int lda, const double *x, double *y)
{
#pragma scop
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            y[i] += a[i + j * lda] * x[j];
#pragma endscop
}
int main(void)
{
    static double a[60 * 60], x[60], y[60];
    static const int sizes[][3] = {{40, 33, 41}, {7, 50, 9}, {32, 32, 32}};
    double s = 0;
    for (int t = 0; t < 3; t++) {
        for (int i = 0; i < 60 * 60; i++) a[i] = (i * 3) % 7 - 3;
        for (int i = 0; i < 60; i++) { x[i] = i % 5; y[i] = 1.0; }
        dgemv_n(sizes[t][0], sizes[t][1], a, sizes[t][2], x, y);
        for (int i = 0; i < 60; i++) s += y[i] * (i + 1);
        printf("%.17g\\n", s);
    }
    return 0;
}
"""


def test_column_major_leading_dimension(tmp_path):
    steps = ["tile: {stmt: 0, loop: i, size: 16}", "permute: {stmt: 0, order: [ii, j, i]}"]
    src, out, err = _transform(tmp_path, "gemv.c", COLUMN_MAJOR, steps)
    assert "modelled for lda >= m" in err, err
    assert _run(out, tmp_path) == _run(src, tmp_path)


@pytest.mark.parametrize("body, subscript", [
    ("a[y*w + x + 1] = a[y*w + x] * 0.5;", "a[y*w + x + 1]"),          # leaves for every w
    ("a[y*w + x] = a[y*w + x - 1] * 0.5;", "a[y*w + x - 1]"),          # below 0 at x = 0
])
def test_an_index_that_leaves_its_row_for_every_length_is_still_refused(tmp_path, body, subscript):
    src = tmp_path / "r.c"
    src.write_text("void f(int w, int h, double *a)\n{\n#pragma scop\n    for (int y = 0; y < h; y++)\n"
                   f"        for (int x = 0; x < w; x++)\n            {body}\n#pragma endscop\n}}\n")
    rc, out, err = cli("deps", src)
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 1, err
    assert f"error: non-affine: linearized subscript of 'a' leaves its row: in {subscript}" in lines[0]
