"""Interleaved layouts (`z[2*(i*m + j) + 1]`, the imaginary part of complex element (i, j) in a
flat array): modelled as z[i][j][1] of a [*][m][2] array with m symbolic, transformed, and
written back linearized.  Every output is compiled and run against the original on seeded
pseudo-random data at sizes that do and do not divide the tile sizes, with m = 1 and n = 0; a
subscript whose offset reaches the next group and leaves its row is still refused."""
import pytest
from conftest import run_cli as cli
from test_app_kernels import _run, _transform

# fills every array from a seeded LCG, runs the kernel at each size, prints a checksum per size
MAIN = """
static unsigned long lx_seed = 12345u;
static double rnd(void)
{
    lx_seed = lx_seed * 6364136223846793005ul + 1442695040888963407ul;
    return (double)((lx_seed >> 33) %% 2001u) / 1000.0 - 1.0;
}
int main(void)
{
    static double z[4096], w[4096];
    static const int sizes[][2] = {{0, 5}, {3, 1}, {5, 8}, {7, 7}, {4, 13}, {1, 3}, {6, 4}};
    for (int t = 0; t < 7; t++) {
        int n = sizes[t][0], m = sizes[t][1];
        for (int k = 0; k < 4096; k++) { z[k] = rnd(); w[k] = rnd(); }
        %s;
        double s = 0;
        for (int k = 0; k < 4096; k++) s += (z[k] + 3.0 * w[k]) * (k %% 17 + 1);
        printf("%%d %%d %%.17g\\n", n, m, s);
    }
    return 0;
}
"""

ZROT = """void zrot(int n, int m, double *z, double a, double b)
{
    int i, j;
    /*@ begin CHiLL ( ) @*/
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++) {
            z[%(re)s] = a * z[%(re)s] - b * z[%(im)s];
            z[%(im)s] = b * z[%(re)s] + a * z[%(im)s];
        }
    /*@ end @*/
}
"""
ZROT_MAIN = MAIN % "zrot(n, m, z, 0.75, -0.5)"

SPELLINGS = {
    "grouped": {"re": "2*(i*m + j)", "im": "2*(i*m + j) + 1"},
    "expanded": {"re": "2*i*m + 2*j", "im": "2*i*m + 2*j + 1"},
    "scrambled": {"re": "j*2 + m*i*2", "im": "1 + 2*j + i*(2*m)"},
}

RECIPES = {
    "empty": [],
    "tile_j": ["tile: {stmt: 0, loop: j, size: 4}"],
    "permute": ["permute: {stmt: 0, order: [j, i]}"],
    "unroll_j": ["unroll: {stmt: 0, loop: j, factor: 3}"],
    "tile_both": ["tile: {stmt: 0, loop: i, size: 2}", "tile: {stmt: 0, loop: j, size: 4}",
                  "permute: {stmt: 0, order: [jj, ii, i, j]}"],
}


@pytest.mark.parametrize("recipe", sorted(RECIPES))
@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_interleaved_complex_layout_with_symbolic_row_length(tmp_path, spelling, recipe):
    text = "#include <stdio.h>\n" + ZROT % SPELLINGS[spelling] + ZROT_MAIN
    src, out, err = _transform(tmp_path, "zrot.c", text, RECIPES[recipe])
    text = out.read_text()
    # written back linearized: c times the row-major index plus the element
    assert "z[2 * (i * m + j" in text and ") + 1]" in text, text
    expected = _run(src, tmp_path)
    assert expected.count("\n") == 7, expected
    assert _run(out, tmp_path) == expected


# dependences across groups and rows: the imaginary part reads the left neighbour's imaginary
# part (offset -1 of the real part: the previous group's element 1) and the real part above
STENCIL = """#include <stdio.h>
void zsweep(int n, int m, double *z)
{
#pragma scop
    for (int i = 1; i < n; i++)
        for (int j = 1; j < m; j++) {
            z[2*(i*m + j) + 1] = 0.5 * z[2*(i*m + j) - 1] + 0.25 * z[2*((i - 1)*m + j)];
            z[2*i*m + 2*j] = z[2*i*m + 2*j] - 0.125 * z[2*(i*m + j) + 1];
        }
#pragma endscop
}
""" + MAIN % "zsweep(n, m, z)"


@pytest.mark.parametrize("steps", [
    ["tile: {stmt: 0, loop: i, size: 2}", "tile: {stmt: 0, loop: j, size: 4}"],
    ["unroll: {stmt: 0, loop: j, factor: 2}"],
    ["skew: {stmt: 0, loop: j, by: {i: 1}}", "permute: {stmt: 0, order: [j, i]}"],
])
def test_interleaved_stencil_keeps_its_dependences(tmp_path, steps):
    src, out, _ = _transform(tmp_path, "sweep.c", STENCIL, steps)
    assert _run(out, tmp_path) == _run(src, tmp_path)


def test_interchange_that_breaks_a_dependence_across_groups_is_refused(tmp_path):
    src = tmp_path / "sweep.c"
    src.write_text(STENCIL.replace("0.25 * z[2*((i - 1)*m + j)]", "0.25 * z[2*((i - 1)*m + j + 1)]")
                   .replace("j < m;", "j < m - 1;"))
    (tmp_path / "p.yaml").write_text("steps:\n  - permute: {stmt: 0, order: [j, i]}\n")
    rc, _, err = cli("transform", src, "--recipe", tmp_path / "p.yaml")
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "RAW on z" in err, err


# a leading dimension counted in complex elements: rows of ld groups hold the row for ld >= m
# (rows of ld doubles would need ld >= 2*m); main runs it with ld = m, m + 3 and m - 1, where
# the rows overlap and the output must run the region as written
LEADING = """#include <stdio.h>
void zaxpy(int n, int m, int ld, const double *w, double *z)
{
#pragma scop
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            z[2*(i*ld + j)] += 0.5 * w[2*(i*ld + j) + 1];
            z[2*(i*ld + j) + 1] -= 0.5 * z[2*(i*ld + j)];
        }
#pragma endscop
}
""" + MAIN % ("for (int d = -1; d <= 3; d += 4) zaxpy(n, m, m + d, w, z); zaxpy(n, m, m, w, z)")


@pytest.mark.parametrize("steps", [["tile: {stmt: 0, loop: j, size: 4}", "permute: {stmt: 0, order: [jj, i, j]}"],
                                   ["unroll: {stmt: 0, loop: j, factor: 4}"]])
def test_leading_dimension_in_groups_is_assumed_and_checked(tmp_path, steps):
    src, out, err = _transform(tmp_path, "zaxpy.c", LEADING, steps)
    assert "modelled for ld >= m" in err and "rows of ld groups of 2 elements" in err, err
    assert "if (ld >= m)" in out.read_text(), out.read_text()
    assert _run(out, tmp_path) == _run(src, tmp_path)


WIDE = """#include <stdio.h>
void zwide(int n, int m, double *z, const double *w)
{
    /*@ begin CHiLL ( ) @*/
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            z[2*((long)i*m + j) + 1] += w[2*((long)i*m + j)] * z[2*((long)i*m + j)];
    /*@ end @*/
}
""" + MAIN % "zwide(n, m, z, w)"


def test_a_64_bit_subscript_stays_64_bit(tmp_path):
    src, out, _ = _transform(tmp_path, "zwide.c", WIDE, ["tile: {stmt: 0, loop: j, size: 4}",
                                                         "permute: {stmt: 0, order: [jj, i, j]}"])
    text = out.read_text()
    assert "z[2 * ((long)i * m + j) + 1]" in text, text
    assert _run(out, tmp_path) == _run(src, tmp_path)


# three interleaved components over a 3-D row-major index, #defined and parameter sizes
TRIPLE = """#include <stdio.h>
#define P 3
void vec3(int n, int m, double *z, const double *w)
{
#pragma scop
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            for (int k = 0; k < P; k++) {
                z[3*((i*m + j)*P + k)] += w[3*((i*m + j)*P + k) + 2];
                z[3*((i*m + j)*P + k) + 2] = z[3*((i*m + j)*P + k) + 1] - w[3*((i*m + j)*P + k)];
            }
#pragma endscop
}
""" + MAIN % "vec3(n, m, z, w)"


def test_three_components_over_three_dimensions(tmp_path):
    src, out, err = _transform(tmp_path, "vec3.c", TRIPLE, ["permute: {stmt: 0, order: [k, j, i]}",
                                                           "tile: {stmt: 0, loop: j, size: 4}"])
    text = out.read_text()
    assert "z[3 * ((i * m + j) * P + k) + 2]" in text, text
    assert "modelled at" not in err, err          # P stays a size the build may change
    assert _run(out, tmp_path) == _run(src, tmp_path)


# offset 2 of groups of 2 is the next group's element 0: j + 1 leaves the row at j = m - 1
NEXT_GROUP = """#include <stdio.h>
void zshift(int n, int m, double *z)
{
#pragma scop
    for (int i = 0; i < n; i++)
        for (int j = 0; j < %s; j++)
            z[2*(i*m + j) + 2] = 0.5 * z[2*(i*m + j)] + z[2*(i*m + j) + 3];
#pragma endscop
}
"""


def test_an_offset_past_the_group_that_leaves_the_row_is_refused(tmp_path):
    src = tmp_path / "zshift.c"
    src.write_text(NEXT_GROUP % "m")
    (tmp_path / "r.yaml").write_text("steps:\n  - permute: {stmt: 0, order: [j, i]}\n")
    rc, _, err = cli("transform", src, "--recipe", tmp_path / "r.yaml")
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 1, err
    assert lines[0].startswith(f"{src}:7:")
    assert "linearized subscript of 'z' leaves its row" in lines[0] and "[m][2]" in lines[0], err


def test_an_offset_past_the_group_that_stays_in_the_row_is_modelled(tmp_path):
    text = (NEXT_GROUP % "m - 1") + MAIN % "zshift(n, m, z)"
    src, out, _ = _transform(tmp_path, "zshift.c", text, ["tile: {stmt: 0, loop: j, size: 4}",
                                                         "permute: {stmt: 0, order: [jj, i, j]}"])
    assert _run(out, tmp_path) == _run(src, tmp_path)


def test_an_offset_past_the_group_at_a_fixed_row_length_is_modelled_flat(tmp_path):
    text = (NEXT_GROUP % "m") + (MAIN % "zshift(n, 5, z)")
    src, out, _ = _transform(tmp_path, "zshift.c", text, ["tile: {stmt: 0, loop: j, size: 2}"], "-D", "m=5")
    assert _run(out, tmp_path) == _run(src, tmp_path)


def test_looptx_run_validates_an_interleaved_layout(tmp_path):
    src = tmp_path / "zrot.c"
    src.write_text(ZROT % SPELLINGS["expanded"])
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: j, size: 4}\n"
                                     "  - unroll: {stmt: 0, loop: j, factor: 2}\n")
    for n, m in ((7, 5), (3, 1), (4, 8)):
        rc, out, err = cli("run", src, "--recipe", tmp_path / "r.yaml", "-D", f"n={n}", "-D", f"m={m}")
        assert rc == 0 and ": ok " in out, out + err
