"""Row lengths written inline in linearized subscripts (`u[i*(nx + 2) + j]`, halo and padding):
read through a name the model knows exactly, compiled and run against the original at sizes
that do and do not divide the tile size; an array whose row products differ keeps its rows."""
import pytest
from conftest import run_cli as cli
from test_app_kernels import _run, _transform

HALO = """#include <stdio.h>
#define IDX(i, j) ((i) * (nx + 2) + (j))
void jac(int ny, int nx, double *restrict u, const double *restrict v, double *restrict w, int m)
{
#pragma scop
    for (int i = 1; i <= ny; i++)
        for (int j = 1; j <= nx; j++)
            u[IDX(i, j)] = 0.25 * (v[IDX(i - 1, j)] + v[IDX(i + 1, j)] + v[IDX(i, j - 1)] + v[IDX(i, j + 1)]);
    for (int i = 0; i < ny; i++)
        for (int j = 0; j < m; j++)
            w[i * (m + 1) + j] = v[(i + 1) * (nx + 2) + 1] * 2.0 + w[i * (m + 1) + j + 1];
#pragma endscop
}
int main(void)
{
    static double u[60 * 60], v[60 * 60], w[60 * 60];
    double s = 0;
    int sizes[][3] = {{1, 1, 1}, {16, 8, 8}, {13, 29, 17}, {40, 37, 9}};
    for (int t = 0; t < 4; t++) {
        for (int k = 0; k < 60 * 60; k++) { u[k] = k %% 7; v[k] = (k * 13) %% 17; w[k] = k %% 5; }
        jac(sizes[t][0], sizes[t][1], u, v, w, sizes[t][2]);
        for (int k = 0; k < 60 * 60; k++) s += (u[k] + 2 * w[k]) * (k %% 13 + 1);
    }
    printf("%%.17g\\n", s);
    return 0;
}
"""


@pytest.mark.parametrize("steps", [(), ("tile: {stmt: 0, loop: j, size: 8}", "permute: {stmt: 0, order: [jj, i, j]}"),
                                   ("unroll: {stmt: 1, loop: j, factor: 4}",)])
def test_inline_row_lengths_are_named(tmp_path, steps):
    src, out, err = _transform(tmp_path, "halo.c", HALO % (), steps)
    assert "note: inline row lengths are read through names: lx_row = nx + 2, lx_row_2 = m + 1" in err, err
    text = out.read_text()
    assert "const long lx_row = nx + 2;" in text and "const long lx_row_2 = m + 1;" in text, text
    assert _run(out, tmp_path) == _run(src, tmp_path)


def test_looptx_run_gives_the_named_lengths_their_values(tmp_path):
    src = tmp_path / "pad.c"
    src.write_text("""void pad(int n, int m, double a[n * (m + 1)], const double b[n * m])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i * (m + 1) + j] = b[i * m + j];
#pragma endscop
}
""")
    (tmp_path / "r.yaml").write_text("- tile: {stmt: 0, loop: j, size: 8}\n- permute: {stmt: 0, order: [jj, i, j]}\n")
    rc, out, err = cli("run", src, "--recipe", tmp_path / "r.yaml", "-D", "n=23", "-D", "m=19")
    assert rc == 0 and ": ok " in out, out + err


def test_an_array_with_other_row_products_keeps_its_rows(tmp_path):
    # a[i * (n + 1)] is the diagonal of rows of n, next to a[i * n + j]: nothing is named
    text = """#include <stdio.h>
void d(int n, double *a)
{
#pragma scop
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            a[i * n + j] = a[i * n + j] / a[i * (n + 1)];
#pragma endscop
}
int main(void)
{
    static double a[30 * 30];
    for (int k = 0; k < 900; k++) a[k] = k %% 11 + 1;
    d(29, a);
    double s = 0;
    for (int k = 0; k < 900; k++) s += a[k] * (k %% 7 + 1);
    printf("%%.17g\\n", s);
    return 0;
}
"""
    src, out, err = _transform(tmp_path, "diag.c", text % (), ())
    assert "lx_row" not in out.read_text() and "inline row lengths" not in err
    assert _run(out, tmp_path) == _run(src, tmp_path)


SPELLINGS = """#include <stdio.h>
void k(int n, int m, int h, const double *restrict u, double *restrict v, const double *restrict x,
       double *restrict w)
{
#pragma scop
    for (int i = 1; i < n; i++)
        for (int j = 0; j < m; j++)
            v[i*(m+2) + j] = u[(2+m)*(i-1) + j] + u[i*(m + 1 + 1) + j + 1];
    for (int i = h; i < n + h; i++)
        for (int j = h; j < m + h; j++)
            w[i*(m + 2*h) + j] += x[i*(2*h + m) + j] * 2.0 + v[i*(m+2) + 1];
#pragma endscop
}
int main(void)
{
    static double u[70 * 70], v[70 * 70], x[70 * 70], w[70 * 70];
    double s = 0;
    int sizes[][3] = {{1, 1, 0}, {2, 3, 1}, {16, 8, 1}, {13, 29, 2}, {40, 37, 0}};
    for (int t = 0; t < 5; t++) {
        for (int k = 0; k < 70 * 70; k++) { u[k] = x[k] = (k * 13) %% 17; v[k] = w[k] = k %% 5; }
        k(sizes[t][0], sizes[t][1], sizes[t][2], u, v, x, w);
        for (int k = 0; k < 70 * 70; k++) s += (v[k] + 3 * w[k]) * (k %% 13 + 1);
    }
    printf("%%.17g\\n", s);
    return 0;
}
"""


@pytest.mark.parametrize("steps", [(), ("tile: {stmt: 0, loop: j, size: 8}", "permute: {stmt: 0, order: [jj, i, j]}"),
                                   ("tile: {stmt: 1, loop: i, size: 4}", "unroll: {stmt: 1, loop: j, factor: 3}")])
def test_one_row_length_however_spelled_and_a_halo_of_size_h(tmp_path, steps):
    """`(m+2)`, `(2+m)` and `(m + 1 + 1)` are one row length; rows of `m + 2*h` with the in-row
    index from `h` are rows for h >= 0, which the model assumes with a note (as for a BLAS
    leading dimension)."""
    src, out, err = _transform(tmp_path, "sp.c", SPELLINGS % (), steps)
    assert "lx_row = m + 2, lx_row_2 = m + (2 * h)" in err, err
    assert "note: the region is modelled for h >= 0" in err, err
    text = out.read_text()
    assert text.count("const long lx_row") == 2, text
    assert _run(out, tmp_path) == _run(src, tmp_path)


def test_a_row_leaving_index_names_the_length_as_written(tmp_path):
    f = tmp_path / "leave.c"
    f.write_text("void k(int n, int m, const double *u, double *v)\n{\n#pragma scop\n"
                 "  for (int i = 1; i < n; i++)\n    for (int j = 0; j < m + 3; j++)\n"
                 "      v[i*(m + 2) + j] = u[i*(m + 2) + j] * 2.0;\n#pragma endscop\n}\n")
    rc, out, err = cli("transform", f)
    assert rc == 2
    line = err.strip().splitlines()[-1]
    assert "the index j within rows of (m + 2) elements is not always in [0, (m + 2))" in line, err
    assert "double (*v_v)[(m + 2)] = (double (*)[(m + 2)])v" in line or "double (*u_v)[(m + 2)]" in line, err
    assert "lx_row" not in line


def test_a_halo_of_symbolic_width_is_delinearized(tmp_path):
    """(i + H)*(nx + 2*H) + j + H: the sizes that multiply loop variables are the row lengths;
    H is an offset within its digit, and j + H - 1 stays in its row for H > 0."""
    text = """#include <stdio.h>
void k(int n, int nx, int H, const double *restrict u, double *restrict v)
{
#pragma scop
    for (int i = 0; i < n; i++)
        for (int j = 0; j < nx; j++)
            v[(i+H)*(nx+2*H) + j+H] = u[(i+H)*(nx+2*H) + j+H-1] + u[(i+H-1)*(nx+2*H) + j+H] + v[(i+H)*(nx+2*H) + j+H];
#pragma endscop
}
int main(void)
{
    static double u[80 * 80], v[80 * 80];
    double s = 0;
    int sizes[][3] = {{1, 1, 1}, {9, 17, 1}, {16, 8, 2}, {31, 29, 3}};
    for (int t = 0; t < 4; t++) {
        for (int k = 0; k < 80 * 80; k++) { u[k] = (k * 13) %% 17; v[k] = k %% 5; }
        k(sizes[t][0], sizes[t][1], sizes[t][2], u, v);
        for (int k = 0; k < 80 * 80; k++) s += v[k] * (k %% 13 + 1);
    }
    printf("%%.17g\\n", s);
    return 0;
}
"""
    for steps in [(), ("tile: {stmt: 0, loop: j, size: 8}", "permute: {stmt: 0, order: [jj, i, j]}")]:
        src, out, err = _transform(tmp_path, "h.c", text % (), steps)
        assert "note: the region is modelled for H > 0" in err, err
        assert "v[(H + i) * lx_row + (H + j)]" in out.read_text()
        assert _run(out, tmp_path) == _run(src, tmp_path)
