"""Linearized subscripts whose row lengths are written inline: miniGhost's 3-D grid with a halo
(`k*(ny+2)*(nx+2) + j*(nx+2) + i`, its Horner form, a halo in one extent only), Kernel Tuner's
convolution whose row length halves a size (`image_width + (filter_width/2)*2`), and Halide's
upsample, a read-only array read at an in-row index that depends on the parity of x.  Each is
checked at symbolic sizes (deps, transform) and run against the original at sizes that do and
do not divide the tiles."""
import subprocess
from pathlib import Path

import pytest
from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "delinearize"


def _recipe(tmp_path, *steps, name="r.yaml"):
    r = tmp_path / name
    r.write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps))
    return r


def _runs(tmp_path, src, function, recipe, names, sizes):
    for values in sizes:
        defines = [a for n, v in zip(names, values) for a in ("-D", f"{n}={v}")]
        rc, out, err = run_cli("run", src, "--function", function, "--recipe", recipe, *defines, "--repetitions", "1")
        assert rc == 0 and ": ok" in out, (values, out + err)
        assert "refuses this recipe" not in err, err


TILE_JI = ("tile: {stmt: 0, loop: j, size: 4}", "tile: {stmt: 0, loop: i, size: 4}",
           "permute: {stmt: 0, order: [k, jj, ii, j, i]}")
GRIDS = [(8, 8, 4), (9, 6, 3), (5, 7, 2), (1, 1, 1)]


def test_a_3d_grid_with_a_halo_is_planes_of_padded_rows(tmp_path):
    """GRID_IN(i, j, k) = grid_in[(k)*(ny+2)*(nx+2) + (j)*(nx+2) + (i)]: was refused as
    'cannot delinearize' at symbolic sizes."""
    rc, out, err = run_cli("deps", DATA / "st7.c", "--function", "st7")
    assert rc == 0, err
    assert "note: inline row lengths are read through names: lx_row = nx + 2, lx_row_2 = ny + 2" in err, err
    assert "dependences: none" in out and "k        [S0] parallel" in out, out
    r = _recipe(tmp_path, *TILE_JI)
    rc, out, err = run_cli("transform", DATA / "st7.c", "--function", "st7", "--recipe", r)
    assert rc == 0, err
    assert "const long lx_row = nx + 2;" in out and "const long lx_row_2 = ny + 2;" in out, out
    _runs(tmp_path, DATA / "st7.c", "st7", r, ("nx", "ny", "nz"), GRIDS)


def test_a_horner_subscript_carries_the_dependences_of_the_grid(tmp_path):
    """g[((k*(ny+2) + j)*(nx+2) + i)] updated in place: exact distances, a reversal refused,
    a tiling of all three loops validated."""
    rc, out, err = run_cli("deps", DATA / "sweep.c", "--function", "sweep")
    assert rc == 0, err
    for d in ("(0, 0, 1)", "(1, 0, 0)", "(0, 1, 0)"):
        assert f"distance {d}" in out, out
    assert "*" not in out.split("dependences:")[1].split("loops:")[0], out
    rc, out, err = run_cli("transform", DATA / "sweep.c", "--function", "sweep",
                           "--recipe", _recipe(tmp_path, "reverse: {stmt: 0, loop: j}", name="rev.yaml"))
    assert rc == 2 and "RAW on g" in err, err
    r = _recipe(tmp_path, "tile: {stmt: 0, loop: k, size: 4}", "tile: {stmt: 0, loop: j, size: 4}",
                "tile: {stmt: 0, loop: i, size: 4}", "permute: {stmt: 0, order: [kk, jj, ii, k, j, i]}")
    _runs(tmp_path, DATA / "sweep.c", "sweep", r, ("nx", "ny", "nz"), GRIDS)


def test_a_halo_in_one_extent_keeps_the_rows_of_the_other(tmp_path):
    """k*(ny+2)*nx + j*nx + i is planes of ny + 2 rows of nx: it was split into rows of ny with
    the in-row index j + 2*k, and refused."""
    rc, out, err = run_cli("deps", DATA / "planes.c", "--function", "planes")
    assert rc == 0, err
    assert "leaves its row" not in err and "lx_row = ny + 2" in err, err
    assert "distance (1, -1, 0)" in out and "j        [S0] parallel" in out, out
    r = _recipe(tmp_path, *TILE_JI)
    rc, out, err = run_cli("transform", DATA / "planes.c", "--function", "planes", "--recipe", r)
    assert rc == 0 and "a[(k * lx_row + j) * nx + i]" in out, out + err
    _runs(tmp_path, DATA / "planes.c", "planes", r, ("nx", "ny", "nz"), GRIDS)


def test_a_read_only_array_at_a_parity_dependent_index_needs_no_checked_fact(tmp_path):
    """dn[y*hw + x/2 - 1 + 2*(x%2)]: the highest in-row index is one isl piece per small w;
    the general one bounds them all."""
    rc, out, err = run_cli("deps", DATA / "upsample.c", "--function", "up")
    assert rc == 0, err
    assert "the region is modelled for 2*hw >= -1 + w: the linearized subscripts of 'dn'" in err, err
    assert "the region only reads them, in any order, so the output holds for other values too" in err, err
    r = _recipe(tmp_path, "tile: {stmt: 0, loop: x, size: 8}", "permute: {stmt: 0, order: [xx, y, x]}")
    rc, out, err = run_cli("transform", DATA / "upsample.c", "--function", "up", "--recipe", r)
    assert rc == 0 and "if (2 * hw" not in out, out + err
    _runs(tmp_path, DATA / "upsample.c", "up", r, ("w", "h", "hw"),
          [(40, 5, 20), (37, 6, 19), (37, 6, 25), (19, 3, 9)])


CONV_TILES = ("tile: {stmt: 0, loop: x, size: 8}", "tile: {stmt: 1, loop: i, size: 4}")


@pytest.mark.parametrize("defines", [(), ("-D", "image_width=64", "-D", "image_height=48",
                                          "-D", "filter_width=17", "-D", "filter_height=17")])
def test_a_row_length_that_halves_a_define_is_named(tmp_path, defines):
    """Kernel Tuner's input_width = image_width + ((filter_width/2)*2): was refused as
    non-affine, with -D too."""
    rc, out, err = run_cli("deps", DATA / "convolution.c", "--function", "convolution_naive", *defines)
    assert rc == 0, err
    assert "lx_row = image_width + ((filter_width / 2) * 2)" in err, err
    assert "input[((y + j) * lx_row) + (x + i)]" in out and "x        [S0,S1,S2] parallel" in out, out


def test_the_convolution_runs_tiled(tmp_path):
    r = _recipe(tmp_path, *CONV_TILES)
    rc, out, err = run_cli("transform", DATA / "convolution.c", "--function", "convolution_naive", "--recipe", r)
    assert rc == 0 and "const long lx_row = image_width + ((filter_width / 2) * 2);" in out, out + err
    _runs(tmp_path, DATA / "convolution.c", "convolution_naive", r, ("image_width", "image_height"),
          [(64, 48), (37, 29)])


def test_a_halved_size_argument_in_a_row_length(tmp_path):
    """in[(y + j)*(w + (fw/2)*2) + (x + i)] with fw an argument: fw >= 1 where the filter loop
    runs, so C's '/' is the model's floor and no fact is needed."""
    rc, out, err = run_cli("deps", DATA / "conv_param.c", "--function", "conv")
    assert rc == 0 and "modelled for" not in err, err
    r = _recipe(tmp_path, *CONV_TILES)
    _runs(tmp_path, DATA / "conv_param.c", "conv", r, ("w", "h", "fw", "fh"),
          [(32, 16, 5, 3), (37, 9, 4, 4), (13, 7, 1, 2), (8, 8, 8, 8)])


NEG = """void f(int n, int r, int m, double *a, const double *b)
{
  for (int i = 1; i < r; i++)
    for (int j = 0; j < n; j++)
      a[i * (n + (m / 2) * 2) + j] = a[(i - 1) * (n + (m / 2) * 2) + j] + b[j + m + 4];
}
"""
NEG_MAIN = """
#include <stdio.h>
int main(void)
{
  static double a[400], b[40];
  int ms[] = {3, 2, 0, -1, 1};
  double s = 0;
  for (int t = 0; t < 5; t++) {
    for (int k = 0; k < 400; k++) a[k] = k % 7;
    for (int k = 0; k < 40; k++) b[k] = (k * 13) % 17;
    f(9, 6, ms[t], a, b);
    for (int k = 0; k < 400; k++) s += a[k] * (k % 13 + 1);
  }
  printf("%.17g\\n", s);
  return 0;
}
"""


def _exe(tmp_path, c_text, name):
    src = tmp_path / f"{name}.c"
    src.write_text(c_text + NEG_MAIN)
    subprocess.run(["gcc", "-O1", "-w", str(src), "-o", str(tmp_path / name)], check=True)
    return subprocess.run([str(tmp_path / name)], capture_output=True, text=True, check=True).stdout


def test_a_halved_size_that_may_be_negative_is_a_checked_fact(tmp_path):
    """C's m/2 rounds toward zero, the model's floor down: the region is modelled for m >= 0,
    which the output checks (at m = -1 C's row length is n, which it runs as written)."""
    src = tmp_path / "neg.c"
    src.write_text(NEG)
    r = _recipe(tmp_path, "tile: {stmt: 0, loop: j, size: 4}", "permute: {stmt: 0, order: [jj, i, j]}")
    out_c = tmp_path / "neg.out.c"
    rc, out, err = run_cli("transform", src, "--function", "f", "--recipe", r, "-o", out_c)
    assert rc == 0, err
    assert "the region is modelled for (m) >= 0: C's '/' and '%' of sizes round toward zero" in err, err
    text = out_c.read_text()
    assert "const long lx_row = n + ((m / 2) * 2);" in text and "if (m >= 0)" in text, text
    assert _exe(tmp_path, text, "neg_out") == _exe(tmp_path, NEG, "neg_ref")
    _runs(tmp_path, src, "f", r, ("n", "r", "m"), [(9, 5, 3), (8, 4, 4), (9, 5, 0)])
