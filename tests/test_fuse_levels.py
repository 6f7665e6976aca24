"""fuse by level (CHiLL's fuse([0,1],1)) and by one loop name per statement (`level: 1`,
`loops: [i, j]`): the loops at that depth are fused whatever each statement calls them, the
fused loop keeps the first statement's name (a note lists the renames), a later step that names
a loop by its old name is told the new one, and an illegal fusion is still refused by the exact
dependence check.  Every accepted recipe is checked differentially (original vs transformed,
gcc, seeded data) at sizes that do and do not divide the tile sizes."""
import pytest
from conftest import run_cli as cli

from difftest import KERNELS, check_same
from looptx.codegen.render import render_file
from looptx.errors import LegalityError, RecipeError
from looptx.pipeline import header, c_block, load, variants_for
from looptx.recipe.schema import load_file
from recipe_cases import accepted, transform_text

GEMVER = KERNELS / "gemver.c"
GEMVER_SIZES = [{"N": 64}, {"N": 53}]          # tiles of 8: 64 divides, 53 does not

# three nests with three different loop names; S1 reads the row of A that S0 writes at the same
# outer value, S2 the row of C that S1 writes: fusing all three at level 1 is legal
THREE = """#include "harness.h"
#ifndef N
#define N 40
#endif
static double A[N][N], B[N][N], C[N][N], s[N], u[N];
static void kernel(void)
{
  int i, j, k;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] = 2.0 * B[i][j] + u[j];
  for (j = 0; j < N; j++)
    for (k = 0; k < N; k++)
      C[j][k] = A[j][k] + 0.5 * C[j][k];
  for (k = 0; k < N; k++)
    s[k] = C[k][0] + C[k][N - 1] + s[k];
#pragma endscop
}
int main(void)
{
  lx_seed(77);
  lx_fill_double(&A[0][0], N * N);
  lx_fill_double(&B[0][0], N * N);
  lx_fill_double(&C[0][0], N * N);
  lx_fill_double(s, N);
  lx_fill_double(u, N);
  kernel();
  lx_dump("A", A, sizeof A);
  lx_dump("C", C, sizeof C);
  lx_dump("s", s, sizeof s);
  return 0;
}
"""
THREE_SIZES = [{"N": 64}, {"N": 37}]


def three(tmp_path, source=THREE):
    (tmp_path / "harness.h").write_text((KERNELS / "harness.h").read_text())
    path = tmp_path / "three.c"
    path.write_text(source)
    return path


def region(text: str) -> str:
    return text[text.index("#pragma scop"):text.index("#pragma endscop")]


def chill_text(path, script: str, tmp_path):
    """The transformed file for a CHiLL-dialect script, or the error that refused it."""
    f = tmp_path / "r.chill"
    f.write_text(script)
    prog = load(str(path))
    try:
        variants, applied = variants_for(prog, load_file(str(f)))
    except (LegalityError, RecipeError) as e:
        return None, e
    return render_file(prog, {i: c_block(v) for i, v in variants.items()},
                       header(prog.filename, applied)), None


def fused_gemver(body: str) -> None:
    """S0 and S1 in one outer loop: the loop holding S0 also holds S1's inner loop."""
    outer = body.split("for (int i = 0; i < n; i++)")
    assert body.count("A[i][j] = A[i][j]") and "x[i1] = x[i1] + beta * A[i][i1] * y[i]" in body, body
    assert not any("x[i] = x[i] + beta" in part for part in outer), body


# ---- gemver: the probe's case ------------------------------------------------------------

@pytest.mark.parametrize("script", [
    'permute(1,("j","i"))\nfuse([0,1],1)\n',
    'permute(1,("j","i"))\nfuse([0,1],1)\ntile(0,1,8)\n',
    'permute(1,("j","i"))\nfuse([0,1],1)\ntile(0,1,8)\nunroll(1,2,4)\n',
])
def test_gemver_chill_fuse_by_level(tmp_path, script):
    text, err = chill_text(GEMVER, script, tmp_path)
    assert err is None, err
    body = region(text)
    assert "x[i1] = x[i1] + beta * A[i" in body, body     # S1 runs inside the fused i loop
    for sizes in GEMVER_SIZES:
        check_same(GEMVER, text, sizes)


def test_gemver_chill_fuse_structure(tmp_path):
    text, err = chill_text(GEMVER, 'permute(1,("j","i"))\nfuse([0,1],1)\n', tmp_path)
    assert err is None, err
    fused_gemver(region(text))


@pytest.mark.parametrize("fuse", [
    "fuse: {stmts: [0, 1], level: 1}",
    "fuse: {stmts: [0, 1], loop: 1}",
    "fuse: {stmts: [0, 1], loops: [i, j]}",
    "fuse: {stmts: [1, 0], loops: [j, i]}",
])
def test_gemver_yaml_fuse_by_level_or_per_statement_names(fuse):
    steps = ["permute: {stmt: 1, order: [j, i]}", fuse]
    text = accepted(GEMVER, steps, GEMVER_SIZES)
    fused_gemver(region(text))
    # later steps name the fused loop by the first statement's name, the renamed inner one by its new name
    text = accepted(GEMVER, steps + ["tile: {stmt: 1, loop: i, size: 8}", "unroll: {stmt: 1, loop: i1, factor: 4}"],
                    GEMVER_SIZES)
    assert "for (int ii = 0;" in region(text)


def test_gemver_fuse_at_level_two_fuses_the_whole_nests():
    text = accepted(GEMVER, ["permute: {stmt: 1, order: [j, i]}", "fuse: {stmts: [0, 1], level: 2}",
                             "tile: {stmt: 1, loop: j, size: 8}"], GEMVER_SIZES)
    body = region(text)
    # one j loop holds both statements; S1's loops took S0's names level by level
    assert "x[j] = x[j] + beta * A[i][j] * y[i];" in body, body
    assert body.count("for (int jj") == 1, body


def test_renames_are_noted_once_on_the_step(tmp_path):
    (tmp_path / "r.chill").write_text('permute(1,("j","i"))\nfuse([0,1],1)\n')
    rc, out, err = cli("transform", GEMVER, "--recipe", tmp_path / "r.chill")
    assert rc == 0, err
    assert err.strip().splitlines() == [
        f"{tmp_path / 'r.chill'}:2: note: step 2 (fuse): in statement 1, loop 'j' is now 'i' (fused with "
        "statement 0's), loop 'i' is now 'i1' (its name went to a fused loop)"], err


def test_a_later_step_naming_the_old_name_is_told_the_new_one(tmp_path):
    f = tmp_path / "r.yaml"
    f.write_text("steps:\n  - permute: {stmt: 1, order: [j, i]}\n  - fuse: {stmts: [0, 1], level: 1}\n"
                 "  - unroll: {stmt: 1, loop: j, factor: 4}\n")
    rc, out, err = cli("transform", GEMVER, "--recipe", f)
    assert rc == 2 and out == ""
    assert err.splitlines() == [f"{f}:4: step 3 (unroll): error: statement 1 has no loop named 'j' any more: "
                                "step 2 (fuse) fused it into loop 'i' of statement 0 (name it 'i')"], err


def test_illegal_gemver_level_fuse_is_refused_with_one_line(tmp_path):
    """Without the permute, S1's outer loop runs over columns of A that S0 writes later."""
    _, err = transform_text(load(str(GEMVER)), ["fuse: {stmts: [0, 1], level: 1}"])
    assert isinstance(err, LegalityError) and "RAW on A" in str(err), err
    (tmp_path / "r.chill").write_text("fuse([0,1],1)\n")
    rc, out, err = cli("transform", GEMVER, "--recipe", tmp_path / "r.chill")
    assert rc == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{tmp_path / 'r.chill'}:1: step 1 (fuse): error: "), err
    assert "RAW on A" in lines[0]


def test_the_named_form_keeps_its_behaviour():
    prog = load(str(GEMVER))
    _, err = transform_text(prog, ["permute: {stmt: 1, order: [j, i]}", "fuse: {stmts: [0, 1], loop: i}"])
    assert isinstance(err, RecipeError) and err.what == (
        "cannot fuse: loop 'i' is at depth 1 for statement 0 but at depth 2 for statement 1"), err
    text = accepted(KERNELS / "jacobi-1d.c", ["shift: {stmt: 1, loop: i, by: 1}", "fuse: {stmts: [0, 1], loop: i}",
                                              "tile: {stmt: 0, loop: i, size: 8}"],
                    [{"TSTEPS": 4, "N": 65}, {"TSTEPS": 5, "N": 64}])
    assert region(text).count("for (int i ") == 1


# ---- three statements ----------------------------------------------------------------------

@pytest.mark.parametrize("steps", [
    ["fuse: {stmts: [0, 1, 2], level: 1}", "tile: {stmt: 2, loop: i, size: 8}"],
    ["fuse: {stmts: [0, 1, 2], loops: [i, j, k]}", "tile: {stmt: 0, loop: i, size: 8}",
     "unroll: {stmt: 1, loop: k, factor: 3}"],
])
def test_three_statements_fused_by_level(tmp_path, steps):
    path = three(tmp_path)
    text = accepted(path, steps, THREE_SIZES)
    body = region(text)
    assert body.count("for (int ii") == 1 and "s[i] = C[i][0]" in body, body


def test_three_statements_chill(tmp_path):
    path = three(tmp_path)
    text, err = chill_text(path, "fuse([0,1,2],1)\ntile(0,1,8)\n", tmp_path)
    assert err is None, err
    assert region(text).count("for (int ii") == 1
    for sizes in THREE_SIZES:
        check_same(path, text, sizes)


def test_three_statements_with_a_backward_dependence_are_refused(tmp_path):
    """S2 reads row k+1 of C, which the fused loop writes one iteration later."""
    source = THREE.replace("for (k = 0; k < N; k++)\n    s[k] = C[k][0]",
                           "for (k = 0; k < N - 1; k++)\n    s[k] = C[k + 1][0]")
    assert source != THREE
    path = three(tmp_path, source)
    _, err = transform_text(load(str(path)), ["fuse: {stmts: [0, 1, 2], level: 1}"])
    assert isinstance(err, LegalityError) and "RAW on C" in str(err), err
    # the first two alone are legal
    accepted(path, ["fuse: {stmts: [0, 1], level: 1}"], THREE_SIZES)


# ---- bad arguments -----------------------------------------------------------------------

@pytest.mark.parametrize("fuse, what", [
    ("fuse: {stmts: [0, 1]}", "missing argument: one of loop, level or loops"),
    ("fuse: {stmts: [0, 1], level: 1, loop: i}", "give one of loop, level and loops, not both loop and level"),
    ("fuse: {stmts: [0, 1, 2], loops: [i, j]}", "fuse: 'loops' names 2 loop(s) for 3 statement(s)"),
    ("fuse: {stmts: [0, 1], loops: [i, i]}", "cannot fuse: loop 'i' of statement 0 is at depth 1 but loop 'i' "
                                             "of statement 1 is at depth 2"),
    ("fuse: {stmts: [0, 2], level: 2}", "statement 2 has no loop level 2"),
    ("fuse: {stmts: [0, 1], level: 0}", "argument 'level' must be an integer >= 1, got 0"),
])
def test_bad_fuse_arguments(fuse, what):
    try:        # a bad argument is found when the recipe is read, a bad loop when it is applied
        _, err = transform_text(load(str(GEMVER)), ["permute: {stmt: 1, order: [j, i]}", fuse])
    except RecipeError as e:
        err = e
    assert isinstance(err, RecipeError) and err.what == what and err.step == 2, err


def test_a_rename_that_an_earlier_promotion_depends_on_is_refused():
    _, err = transform_text(load(str(GEMVER)), ["permute: {stmt: 1, order: [j, i]}",
                                                "registers: {stmt: 1, array: y, at: i}",
                                                "fuse: {stmts: [0, 1], level: 1}"])
    assert isinstance(err, RecipeError) and "which step 2 (registers) names" in str(err), err
