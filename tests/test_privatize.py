"""privatize: a temporary declared before the loops gets an object per iteration of a loop,
after looptx has checked that this keeps the program's meaning (dead after the region, every
use inside the loop, no value carried between iterations).  Differential checks on the
scalar-accumulator kernels at sizes that do and do not divide the tiles, the CUDA it unlocks,
and each refusal."""
from __future__ import annotations

import pytest
from conftest import run_cli as cli

from difftest import KERNELS
from looptx.errors import LegalityError, RecipeError
from looptx.pipeline import load
from recipe_cases import accepted, transform_text
from test_cuda_codegen import needs_nvcc, nvcc_compile

DOITGEN = KERNELS / "doitgen-scalar.c"
GEMV = KERNELS / "gemv-scalar.c"
DOITGEN_SIZES = [{"NR": 16, "NQ": 8, "NP": 32}, {"NR": 11, "NQ": 13, "NP": 17}]
GEMV_SIZES = [{"N": 32, "M": 48}, {"N": 37, "M": 41}]
BLOCKED = ["tile: {stmt: 0, loop: p, size: 8}", "permute: {stmt: 0, order: [r, pp, q, p]}"]


def refused(path, steps):
    text, err = transform_text(load(str(path)), steps)
    assert text is None, "accepted"
    return err


def test_the_shared_accumulator_forbids_the_order_and_privatize_allows_it():
    err = refused(DOITGEN, BLOCKED)
    assert isinstance(err, LegalityError) and "sum" in str(err)
    text = accepted(DOITGEN, ["privatize: {var: sum, at: p}"] + BLOCKED, DOITGEN_SIZES)
    # the function's own sum stays; the region block declares the private one
    assert text.count("double sum;") == 2


def test_privatize_then_an_interchange_of_the_rows_of_gemv():
    # acc private to i: i tiled and its tiles run with i innermost of the tile loop
    accepted(GEMV, ["privatize: {var: acc, at: i}", "tile: {stmt: 0, loop: i, size: 8}"], GEMV_SIZES)


def test_a_jam_gives_each_copy_its_own_private_variable():
    # (once refused: the one `acc` would hold four iterations' values; poly/jam_locals.py)
    text = accepted(GEMV, ["privatize: {var: acc, at: i}", "unroll: {stmt: 0, loop: i, factor: 4}"], GEMV_SIZES)
    assert "double acc__i3 = 0;" in text, text


SUM_ARRAY = KERNELS / "doitgen-local-sum.c"
SUM_ARRAY_SIZES = [{"NR": 5, "NQ": 6, "NP": 32}, {"NR": 3, "NQ": 7, "NP": 17}]


def test_an_array_temporary_is_privatized_element_by_element():
    """PolyBench's doitgen keeps sum[p] in an array: another element written in between is not
    in the way, only the same element of another iteration (once refused as a whole)."""
    swap = "permute: {stmt: 0, order: [q, r]}"
    err = refused(SUM_ARRAY, [swap])
    assert isinstance(err, LegalityError) and "sum" in str(err)
    accepted(SUM_ARRAY, ["privatize: {var: sum, at: q}", swap], SUM_ARRAY_SIZES)
    accepted(SUM_ARRAY, ["privatize: {var: sum, at: q}", "unroll: {stmt: 0, loop: p, factor: 2}"],
             SUM_ARRAY_SIZES)
    # a jam of q gives each copy its own sum[] (once refused: the next iteration's write of
    # sum[p] fell between this one's write and read)
    text = accepted(SUM_ARRAY, ["privatize: {var: sum, at: q}", "unroll: {stmt: 0, loop: q, factor: 2}"],
                    SUM_ARRAY_SIZES)
    assert "sum__q1[" in text, text


@needs_nvcc
def test_privatize_unlocks_a_thread_mapping_that_compiles(tmp_path):
    recipe = tmp_path / "r.yaml"
    recipe.write_text("steps:\n  - privatize: {var: acc, at: i}\n  - tile: {stmt: 0, loop: i, size: 32}\n"
                      "  - cuda: {stmt: 0, block: [ii], thread: [i]}\n")
    out = tmp_path / "g.cu"
    rc, _, err = cli("transform", GEMV, "--recipe", recipe, "--target", "cuda", "-o", out)
    assert rc == 0, err
    cu = out.read_text()
    kernel = cu.split("__global__")[1].split("\n}\n")[0]
    assert "double acc;" in kernel and "double *acc" not in kernel.split("{")[0]
    assert nvcc_compile(cu) is None
    # without the step the same mapping is a race on acc
    recipe.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 32}\n"
                      "  - cuda: {stmt: 0, block: [ii], thread: [i]}\n")
    rc, _, err = cli("transform", GEMV, "--recipe", recipe, "--target", "cuda", "-o", out)
    assert rc == 2 and "acc" in err


@pytest.mark.gpu
def test_privatized_gemv_on_the_gpu():
    from looptx.pipeline import variants_for
    from looptx.recipe.schema import load_yaml
    from looptx.runtime.cuda import run_region
    from test_gpu import _gpu
    session = _gpu()
    program = load(str(GEMV))
    rec = load_yaml("steps:\n  - privatize: {var: acc, at: i}\n  - tile: {stmt: 0, loop: i, size: 32}\n"
                    "  - cuda: {stmt: 0, block: [ii], thread: [i]}\n", file="g.yaml")
    variant = variants_for(program, rec)[0][0]
    for sizes in GEMV_SIZES:
        r = run_region(program, 0, variant, sizes, session=session, repetitions=2)
        assert r["status"] == "ok", (sizes, r)


LOCAL_SUM = """\
#define N 40
void mm(double A[N][N], double B[N][N], double C[N][N])
{
  int i, j, k;
  double sum;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      sum = 0.0;
      for (k = 0; k < N; k++)
        sum += A[i][k] * B[k][j];
      C[i][j] = sum;
    }
#pragma endscop
%s}
"""


def test_looptx_run_validates_a_privatized_variant(tmp_path):
    src = tmp_path / "mm.c"
    src.write_text(LOCAL_SUM % "")
    recipe = tmp_path / "r.yaml"
    recipe.write_text("steps:\n  - privatize: {var: sum, at: j}\n  - tile: {stmt: 0, loop: i, size: 8}\n"
                      "  - permute: {stmt: 0, order: [ii, j, i]}\n")
    rc, out, err = cli("run", src, "--recipe", recipe)
    assert rc == 0 and " ok " in out, out + err


@pytest.mark.parametrize("after,why", [
    ("  C[0][0] = sum;\n", "used at line 15, column 13, after the region"),
    ("  {double *p = &sum; *p = 1;}\n", "its address is taken at line 15"),
])
def test_a_value_the_function_reads_after_the_region_is_not_privatized(tmp_path, after, why):
    src = tmp_path / "mm.c"
    src.write_text(LOCAL_SUM % after)
    err = refused(src, ["privatize: {var: sum, at: j}"])
    assert isinstance(err, RecipeError) and why in str(err), err


@pytest.mark.parametrize("decl,why", [
    ("static double sum;", "is static"),
])
def test_a_variable_that_outlives_the_call_is_not_privatized(tmp_path, decl, why):
    src = tmp_path / "mm.c"
    src.write_text((LOCAL_SUM % "").replace("  double sum;", "  " + decl))
    err = refused(src, ["privatize: {var: sum, at: j}"])
    assert isinstance(err, RecipeError) and why in str(err), err


def test_a_global_is_not_privatized(tmp_path):
    src = tmp_path / "mm.c"
    src.write_text("double sum;\n" + (LOCAL_SUM % "").replace("  double sum;\n", ""))
    err = refused(src, ["privatize: {var: sum, at: j}"])
    assert isinstance(err, RecipeError) and "not a local" in str(err), err


def test_a_region_inside_a_loop_whose_other_code_reads_it(tmp_path):
    text = (LOCAL_SUM % "").replace("#pragma scop\n", "  for (int t = 0; t < 2; t++) {\n  C[1][1] += sum;\n#pragma scop\n") \
        .replace("#pragma endscop\n", "#pragma endscop\n  }\n")
    src = tmp_path / "mm.c"
    src.write_text(text)
    err = refused(src, ["privatize: {var: sum, at: j}"])
    assert isinstance(err, RecipeError) and "in the loop around the region" in str(err), err


def test_a_value_carried_between_iterations_is_refused(tmp_path):
    err = refused(GEMV, ["privatize: {stmt: 1, var: acc, at: j}"])
    assert isinstance(err, RecipeError) and "S0 (line 25) uses 'acc' outside loop 'j'" in str(err), err
    # without its reset, sum accumulates over every p: a private copy per p would restart it
    src = tmp_path / "k.c"
    src.write_text(DOITGEN.read_text().replace("                sum = 0.0;\n", ""))
    (tmp_path / "harness.h").write_text((KERNELS / "harness.h").read_text())
    err = refused(src, ["privatize: {var: sum, at: p}"])
    assert isinstance(err, LegalityError) and "S0(0,0,0,0) (with NR=1, NQ=1, NP=1) reads 'sum' before any write of it" in str(err), err


@pytest.mark.parametrize("step,what", [
    ("privatize: {var: nope, at: p}", "'nope' is not used in the region"),
    ("privatize: {var: C4, at: p}", "only reads 'C4'"),
    ("privatize: {var: Out, at: p}", "cannot be private"),
    ("privatize: {var: sum, at: pp}", "'pp' is not a loop around statement"),
])
def test_bad_privatize_steps(step, what):
    err = refused(DOITGEN, [step])
    assert isinstance(err, RecipeError) and what in str(err), err


def test_a_local_declared_in_the_loop_is_already_private(tmp_path):
    src = tmp_path / "k.c"
    src.write_text((LOCAL_SUM % "").replace("  double sum;\n", "").replace(
        "      sum = 0.0;", "      double sum = 0.0;"))
    err = refused(src, ["privatize: {var: sum, at: j}"])
    assert isinstance(err, RecipeError) and "already private" in str(err), err


def test_deps_and_refusals_name_the_privatize_step_that_would_help(tmp_path):
    rc, out, _ = cli("deps", DOITGEN)
    assert rc == 0 and "'privatize: {var: sum, at: p}' removes the dependences" in out, out
    rc, out, _ = cli("deps", DOITGEN, "--json")
    import json
    assert rc == 0 and json.loads(out)["regions"][0]["privatizable"] == [{"var": "sum", "at": "p"}]
    err = refused(DOITGEN, BLOCKED)
    assert "a step 'privatize: {var: sum, at: p}' (privatize(\"sum\",\"p\") in a CHiLL script) before " \
           "this one removes it" in err.hint, err
    recipe = tmp_path / "r.yaml"
    recipe.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 32}\n"
                      "  - cuda: {stmt: 0, block: [ii], thread: [i]}\n")
    rc, _, err = cli("transform", GEMV, "--recipe", recipe, "--target", "cuda", "-o", tmp_path / "g.cu")
    assert rc == 2 and "'privatize: {var: acc, at: i}' (privatize(\"acc\",\"i\") in a CHiLL script) before this one" in err, err
    # a dependence that privatizing cannot remove gets no such hint
    err = refused(GEMV, ["permute: {stmt: 1, order: [j, i]}"])
    assert "privatize" not in str(err) + (err.hint or ""), err
