"""CHiLL's nonsingular (i' = T.i + c on a whole nest) and scale: differential checks at sizes
that do and do not divide the tiles, the names the new loops get, and the errors."""
import pytest
from conftest import run_cli as cli

from difftest import KERNELS, check_same
from looptx.errors import LegalityError, RecipeError
from looptx.pipeline import load
from recipe_cases import accepted, transform_text

SEIDEL_1D = KERNELS / "seidel-1d.c"
SEIDEL_2D = KERNELS / "seidel-2d.c"
MATMUL = KERNELS / "matmul.c"
MATMUL_SIZES = [{"NI": 8, "NJ": 12, "NK": 16}, {"NI": 7, "NJ": 9, "NK": 13}]


def test_time_skew_makes_seidel_1d_tiles_legal():
    plain, err = transform_text(load(str(SEIDEL_1D)), ["tile: {stmt: 0, loop: i, size: 8, outer: 1}"])
    assert plain is None and isinstance(err, LegalityError)
    accepted(SEIDEL_1D, ["nonsingular: {matrix: [[1, 0], [1, 1]]}",
                         "tile: {stmt: 0, loop: i, size: 8, outer: 1}"],
             [{"T": 8, "N": 64}, {"T": 7, "N": 53}, {"T": 1, "N": 3}])


def test_seidel_2d_skewed_band_is_tiled_in_all_three_loops():
    text = accepted(SEIDEL_2D, ["nonsingular: {matrix: [[1, 0, 0], [1, 1, 0], [2, 1, 1]]}",
                                "tile: {stmt: 0, loop: t, size: 4}",
                                "tile: {stmt: 0, loop: i, size: 5, outer: 2}",
                                "tile: {stmt: 0, loop: j, size: 8, outer: 3}"],
                    [{"TSTEPS": 8, "N": 32}, {"TSTEPS": 5, "N": 41}, {"TSTEPS": 1, "N": 3}])
    assert "for (int tt = " in text and "for (int ii = " in text and "for (int jj = " in text


def test_a_permutation_row_keeps_its_loop_name_and_a_shift_column_shifts():
    text = accepted(MATMUL, ["nonsingular: {matrix: [[0, 1, 0, 3], [-1, 0, 0, 0], [0, 0, 1, 0]]}"],
                    MATMUL_SIZES)
    region = text.split("#pragma scop")[1]
    assert region.index("for (int j = 3;") < region.index("for (int i = NI - 1;") < region.index("for (int k = ")


def test_a_non_unimodular_matrix_then_a_tile():
    accepted(MATMUL, ["nonsingular: {matrix: [[2, 0, 0], [0, 1, 0], [1, 0, 3]]}",
                      "tile: {stmt: 0, loop: j, size: 4}"], MATMUL_SIZES)


def test_scale_and_a_negative_scale():
    text = accepted(MATMUL, ["scale: {stmt: 0, loop: k, by: 3}", "scale: {stmt: 0, loop: j, by: -2}"],
                    MATMUL_SIZES)
    assert "for (int j = NJ - 1; j >= 0; j--)" in text


@pytest.mark.parametrize("matrix,what", [
    ("[[1, 0], [2, 0]]", "is singular"),
    ("[[1, 0, 0, 0, 0]]", "needs 1 columns (2 with a shift column)"),
    ("[[1, 0], [0, 1], [0, 0]]", "needs 3 columns"),
    ("[[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]", "needs 4 loops, statement 0 is in 3"),
])
def test_bad_matrices_are_refused_with_what_is_wrong(matrix, what):
    _, err = transform_text(load(str(MATMUL)), [f"nonsingular: {{matrix: {matrix}}}"])
    assert isinstance(err, RecipeError) and what in str(err), err


def test_an_order_that_breaks_a_dependence_is_refused():
    _, err = transform_text(load(str(SEIDEL_1D)), ["nonsingular: {matrix: [[0, 1], [1, 0]]}"])
    assert isinstance(err, LegalityError) and "breaks a dependence" in err.hint


def test_an_imperfect_nest_needs_a_distribute_first():
    _, err = transform_text(load(str(KERNELS / "jacobi-1d.c")), ["nonsingular: {matrix: [[1, 0], [1, 1]]}"])
    assert isinstance(err, RecipeError) and "perfect nest" in str(err) and "distribute" in err.hint


def test_a_tiled_loop_is_refused():
    _, err = transform_text(load(str(MATMUL)), ["tile: {stmt: 0, loop: i, size: 4}",
                                                "nonsingular: {matrix: [[1, 0], [1, 1]]}"])
    assert isinstance(err, RecipeError) and "before tiling" in err.hint


JACOBI = """#define N 64
void jacobi(float a[N][N]) {
\tint i, t;
\tfor (t = 2; t <= 40; t++)
\t\tfor (i = 2; i <= N - 1; i++)
\t\t\ta[t][i] = a[t - 1][i - 1] + a[t - 1][i] + a[t - 1][i + 1];
}
"""


@pytest.mark.parametrize("name,script", [
    ("r.py", "from chill import *\nsource('j.c')\nprocedure('jacobi')\nloop(0)\nprint_dep()\n"
             "nonsingular([[1,0],[1,1]])\ntile(0,2,16)\nprint_code()\n"),
    ("r.lua", 'init("j.c","jacobi",0)\nnonsingular(0,{{1,0},{1,1}})\nscale(0,1,2)\ntile(0,2,16)\n'),
])
def test_chill_scripts_with_nonsingular_run_and_agree_with_the_original(tmp_path, name, script):
    """CHiLL's testcase jacobi1.py (nonsingular then a tile that only the skew makes legal)."""
    (tmp_path / "j.c").write_text(JACOBI)
    (tmp_path / name).write_text(script)
    rc, out, err = cli("run", tmp_path / "j.c", "--recipe", tmp_path / name, "--repetitions", "1")
    assert rc == 0 and "ok" in out and "max rel err 0.0e+00" in out, (out, err)


def test_chill_nonsingular_with_a_bad_matrix_names_the_script_line(tmp_path):
    (tmp_path / "j.c").write_text(JACOBI)
    (tmp_path / "r.py").write_text("from chill import *\nsource('j.c')\nprocedure('jacobi')\nloop(0)\n"
                                   "nonsingular([[1,1],[1,1]])\n")
    rc, _, err = cli("transform", tmp_path / "j.c", "--recipe", tmp_path / "r.py")
    assert rc == 2 and len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"{tmp_path / 'r.py'}:5: step 1 (nonsingular): error: nonsingular: the matrix"), err
