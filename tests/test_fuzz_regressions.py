"""Wrong results and hangs found by the random-program fuzzer (.work/fuzz/<seed>), reduced.

Every accepted recipe is checked differentially (original vs transformed, gcc, seeded data) at
sizes that do and do not divide the tile and unroll factors, with the sizes symbolic and, where
the fuzzer fixed them, fixed as well."""
import subprocess
import sys
import time

import pytest

from difftest import KERNELS, check_same
from looptx.errors import RecipeError
from looptx.pipeline import load
from recipe_cases import accepted, transform_text

MAIN = """
int main(void)
{
    lx_seed(11);
    lx_fill_double(&A[0][0], sizeof A / sizeof(double));
    lx_fill_double(&B[0][0], sizeof B / sizeof(double));
    lx_fill_double(&C[0][0], sizeof C / sizeof(double));
    lx_fill_double(&T[0][0][0], sizeof T / sizeof(double));
    lx_fill_double(x, sizeof x / sizeof(double));
    lx_fill_double(y, sizeof y / sizeof(double));
    lx_fill_int((int *)I, sizeof I / sizeof(int));
    s = 1.25;
    kernel();
    lx_dump("A", A, sizeof A);
    lx_dump("B", B, sizeof B);
    lx_dump("C", C, sizeof C);
    lx_dump("T", T, sizeof T);
    lx_dump("x", x, sizeof x);
    lx_dump("y", y, sizeof y);
    lx_dump("I", I, sizeof I);
    lx_dump("s", &s, sizeof s);
    return 0;
}
"""


def program(body: str, n: int = 10, m: int = 9) -> str:
    """The fuzzer's program frame around a region body (arrays padded for any small size)."""
    return f"""#include "harness.h"
#ifndef N
#define N {n}
#endif
#ifndef M
#define M {m}
#endif
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define E (N + M + 8)
static double A[E][E], B[E][E], C[E][E], T[E][E][E];
static double x[2 * E], y[2 * E], s;
static unsigned I[2 * E];
static void kernel(void)
{{
#pragma scop
{body}
#pragma endscop
}}
""" + MAIN


def kernel(tmp_path, source: str):
    (tmp_path / "harness.h").write_text((KERNELS / "harness.h").read_text())
    path = tmp_path / "k.c"
    path.write_text(source)
    return path


SIZES = [{"N": n, "M": m} for n, m in ((11, 9), (20, 13), (7, 4), (13, 16))]


# ---- an unroll of a loop around an already unrolled loop ----------------------------------
# Root cause (seeds 100356, 100020, 100214, 100262, 100889): a full unroll records the loop's
# trip count; unrolling an enclosing loop by a factor later makes one outer iteration cover
# `factor` old ones, so the inner unrolled loop runs up to `factor` times as often, but code
# generation still made the old number of copies and dropped the rest.

def test_unroll_tile_loop_around_unrolled_point_loop_100356(tmp_path):
    k = kernel(tmp_path, program("""    for (int i = 0; i < N; i++) {
        B[i + 2][i + 2] = 0.3 * (x[i + 2] + y[i] + y[i + 1]);
    }"""))
    accepted(k, ["tile: {stmt: 0, loop: i, size: 2}", "unroll: {stmt: 0, loop: i, factor: 3}",
                 "unroll_to_depth: {depth: 1}", "unroll: {stmt: 0, loop: ii, factor: 5}",
                 "distribute: {stmts: [0], loop: ii}"], SIZES)
    accepted(k, ["tile: {stmt: 0, loop: i, size: 2}", "unroll: {stmt: 0, loop: i, factor: 0}",
                 "unroll: {stmt: 0, loop: ii, factor: 5}"], SIZES)


def test_unroll_tile_loop_two_nests_scalar_datacopy_100020(tmp_path):
    k = kernel(tmp_path, program("""    for (int i = 1; i < N - 1; i++)
        x[i + 0] = 0.5 * (x[i + 1] + A[i + 2][i + 1]);
    for (int i = 0; i < N - 1; i++)
        {
        s = 0.5 * (A[i + 0][i + 0]);
        x[i + 0] += 0.5 * (x[i + 0] + s);
        }""", n=12))
    accepted(k, ["tile: {stmt: 0, loop: i, size: 5, control: it37}", "unroll_to_depth: {depth: 2}",
                 "datacopy: {stmt: 2, array: s, at: i}", "unroll: {stmt: 0, loop: it37, factor: 4}"],
             SIZES + [{"N": 12, "M": 1}, {"N": 13, "M": 1}, {"N": 22, "M": 1}])


def test_unroll_outer_loop_around_unrolled_one_trip_loop_100214(tmp_path):
    k = kernel(tmp_path, program("""    for (int i = N - 1 - 1; i >= 0; i--) {
        for (int j = MAX(1, i); j < M; j++) {
            if (i >= j) C[i + 1][j + 1] += 0.1 * (x[i + j]);
        }
        C[i + 1][0] = 0.3 * (A[i][i + 1] + C[i + 2][0]);
    }""", n=8, m=11))
    steps = ["unroll_to_depth: {depth: 2}", "unroll: {stmt: 0, loop: i, factor: 8}",
             "tile: {stmt: 0, loop: i, size: 2, control: it31}"]
    accepted(k, steps, [{"N": 8, "M": 11}, {"N": 19, "M": 13}, {"N": 5, "M": 4}, {"N": 20, "M": 21}])


def test_unroll_outer_loop_around_unrolled_triangular_loop_100262(tmp_path):
    k = kernel(tmp_path, program("""    for (int i = 1; i < N - 1; i++) {
        for (int j = MAX(0, i - 2); j < MAX(3, i); j++) {
            y[j + 1] += 0.1 * (A[j + 1][i + 2] + C[j][i] + C[N + 4 - i][i]);
            if (i >= j) C[i + 1][N + 4 - i] += 0.1 * (1.0);
        }
    }"""))
    steps = ["peel: {stmt: 1, loop: i, first: 1, last: 0}", "peel: {stmt: 0, loop: i, first: 1, last: 0}",
             "unroll_to_depth: {stmt: 0, depth: 1}", "unroll: {stmt: 1, loop: i, factor: 3}"]
    accepted(k, steps, [{"N": 10, "M": 1}], defines={"N": 10})
    accepted(k, ["unroll: {stmt: 1, loop: j, factor: 0}", "unroll: {stmt: 1, loop: i, factor: 3}"],
             [{"N": n, "M": 1} for n in (10, 11, 7, 16)])


def test_unroll_outer_loop_around_unrolled_strided_loop_100889(tmp_path):
    k = kernel(tmp_path, program("""    for (int i = 2; i < M - 1; i++) {
        I[3] = I[i] * 3u + i + I[i + 1] % 7u;
        for (int j = MAX(0, i - 2); j <= MIN(N - 1, i + 2); j += 3) {
            C[j + 2][j + 2] = 0.3 * (B[j + 1][i + 2]);
        }
    }
    for (int i = 1; i < M; i++) {
        for (int j = MAX(0, i - 2); j < i; j++) {
            y[j] = 0.3 * (B[i + 1][i] + y[i + j]);
        }
    }"""))
    steps = ["known: {facts: ['M >= 3', 'N % 2 == 0']}", "unroll: {stmt: 1, loop: j, factor: 8}",
             "unroll: {stmt: 1, loop: i, factor: 5}", "peel: {stmt: 0, loop: i, first: 0, last: 1}"]
    accepted(k, steps, [{"N": 10, "M": 9}], defines={"N": 10, "M": 9})
    accepted(k, steps, [{"N": 10, "M": 9}, {"N": 4, "M": 13}, {"N": 16, "M": 22}])


def test_unroll_outer_loop_refuses_too_many_inner_copies(tmp_path):
    k = kernel(tmp_path, program("""    for (int i = 0; i < N; i++)
        for (int j = i; j < i + 40; j++)
            T[0][i][j] = 2.0 * B[i][j - i];"""))
    _, err = transform_text(load(str(k)), ["unroll: {stmt: 0, loop: j, factor: 0}",
                                           "unroll: {stmt: 0, loop: i, factor: 1000}"])
    assert isinstance(err, RecipeError)
    text = str(err)
    assert "step 2 (unroll)" in text and "'j'" in text and "smaller unroll factor" in text, text


# ---- a promotion in a statement whose pieces share a leaf ----------------------------------
# Root cause (seed 100691): peeling gives a statement two pieces, and a datacopy gives each its
# own buffer; isl may print instances of both pieces in one leaf (the peeled iteration's loop
# collapses into its neighbour's), and that leaf then read every instance from the first
# piece's buffer, which the other piece's copy never filled.

PEEL_COPY = """    for (int i = 2; i < N; i++) {
        y[i + 2] = 0.3 * (x[N + 4 - i] + B[i + 1][i]);
        for (int j = MAX(0, i - 2); j <= i; j++) {
            I[j + 1] = I[i + 2] * 3u + i + I[i] % 7u;
            for (int k = MAX(1, j); k < 5; k++) {
                T[j][j + 2][3] = 0.3 * A[j][k + 1] - 0.3 * y[k];
            }
        }
    }"""


@pytest.mark.parametrize("steps", [
    ["datacopy: {stmt: 1, array: I, at: i}", "tile: {stmt: 1, loop: j, size: 4}",
     "peel: {stmt: 2, loop: jj, first: 0, last: 1}", "shift: {stmt: 1, loop: i, by: -1}",
     "datacopy: {stmt: 2, array: A, at: j}"],
    ["tile: {stmt: 1, loop: j, size: 4}", "peel: {stmt: 2, loop: jj, first: 1, last: 0}",
     "datacopy: {stmt: 2, array: A, at: j}"],
    ["tile: {stmt: 1, loop: j, size: 4}", "peel: {stmt: 2, loop: jj, first: 0, last: 1}",
     "datacopy: {stmt: 2, array: A, at: jj}"],
])
def test_datacopy_in_peeled_pieces_sharing_a_leaf_100691(tmp_path, steps):
    k = kernel(tmp_path, program(PEEL_COPY, n=12))
    accepted(k, steps, [{"N": 12, "M": 1}], defines={"N": 12})
    accepted(k, steps, [{"N": n, "M": 1} for n in (12, 6, 9, 17)])


# ---- bad inputs: a peel far beyond the trip count, an unroll factor beyond any budget ----------

ONE_LOOP = """#include "harness.h"
#ifndef N
#define N 16
#endif
static double A[3 * N + 3], B[3 * N + 3];
static void kernel(void)
{
  int i;
#pragma scop
  for (i = 0; i < N; i++)
    A[i] = 2.0 * B[i] + A[i + 1];
  for (i = 0; i < 3 * N; i += 3)
    B[i] = A[i] + 1.0;
#pragma endscop
}
int main(void)
{
  lx_seed(5);
  lx_fill_double(A, 3 * N + 3);
  lx_fill_double(B, 3 * N + 3);
  kernel();
  lx_dump("A", A, sizeof A);
  lx_dump("B", B, sizeof B);
  return 0;
}
"""


@pytest.mark.parametrize("defines", [None, {"N": 16}])
@pytest.mark.parametrize("first,last", [(10000, 0), (0, 10000), (10000, 3), (20, 30), (2, 3)])
def test_peel_beyond_trip_count_is_cheap_and_exact(tmp_path, defines, first, last):
    k = kernel(tmp_path, ONE_LOOP)
    steps = [f"peel: {{stmt: {s}, loop: i, first: {first}, last: {last}}}" for s in (0, 1)]
    start = time.monotonic()
    prog = load(str(k), defines=defines) if defines else load(str(k))
    text, err = transform_text(prog, steps)
    assert err is None, err
    assert time.monotonic() - start < 20
    for n in ((16,) if defines else (16, 5, 40)):
        check_same(k, text, {"N": n})


def _cli(tmp_path, recipe: str):
    k = kernel(tmp_path, ONE_LOOP)
    r = tmp_path / "r.yaml"
    r.write_text(recipe)
    return subprocess.run([sys.executable, "-m", "looptx", "transform", str(k), "--recipe", str(r)],
                          capture_output=True, text=True, timeout=120)


def test_peel_ten_thousand_cli_finishes(tmp_path):
    proc = _cli(tmp_path, "steps:\n  - peel: {stmt: 0, loop: i, first: 10000}\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""


def test_unroll_factor_beyond_budget_is_located_at_the_step(tmp_path):
    proc = _cli(tmp_path, "steps:\n  - tile: {stmt: 0, loop: i, size: 4}\n"
                          "  - unroll: {stmt: 0, loop: ii, factor: 5000}\n")
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"{tmp_path / 'r.yaml'}:3: step 2 (unroll): error: "), lines[0]
    assert "5000" in lines[0] and "smaller factor" in lines[0], lines[0]


# ---- cuda steps from the second fuzz run (.work/fuzz/new), checked on the C emulation --------

@pytest.mark.parametrize("steps", [
    # unroll_to_depth under a kernel with block loops only (was: max() of an empty sequence)
    ["tile: {stmt: 0, loop: i, size: 4, control: bi}", "cuda: {stmt: 0, block: [bi], kernel: kern0}",
     "unroll_to_depth: {stmt: 0, depth: 1}"],
    # a block loop bounded by MAX(N, M): the grid size had no single affine bound
    ["tile: {stmt: 0, loop: i, size: 32, control: bi}", "cuda: {stmt: 0, block: [bi], kernel: kern0}"],
])
def test_cuda_block_only_kernels_200000(tmp_path, steps):
    k = kernel(tmp_path, program("""    for (int i = 2; i < MAX(N, M); i += 1) {
        y[i] = 0.5 * (x[i] + A[i][i + 1]);
    }""", n=5, m=8))
    accepted(k, steps, [{"N": 5, "M": 8}, {"N": 40, "M": 70}, {"N": 70, "M": 33}])


# ---- a full unroll of a loop that never runs at the fixed sizes (seed 200874) ---------------
# With loops inside, a full unroll jams them with factor = trip count; a trip count of 0 made
# that a division by zero in the schedule text (an isl syntax error, exit 1).

def test_full_unroll_of_a_loop_that_never_runs_200874(tmp_path):
    k = kernel(tmp_path, program("""    for (int i = 0; i < N; i++)
        for (int lv = 0; lv < M - 5; lv++)
            for (int c = 0; c < N; c++)
                A[i][c] += 0.5 * B[lv][c];""", n=6, m=4))
    accepted(k, ["unroll: {stmt: 0, loop: lv, factor: 0}", "tile: {stmt: 0, loop: c, size: 4}"],
             [{"N": 6, "M": 4}], defines={"N": 6, "M": 4})


# ---- isl's operation budget in code generation (seed 201115) --------------------------------
# The error named only the file; it is now located at the region's first line.

BUDGET_REGION = """    for (int p = 1; p < MIN(N, M); p++) {
        for (int i = 0; i < MAX(p + 1, M - 1); i++) {
            if (p % 2 == 0) {
                y[2 * p + 1] += A[N + M - i][N + M - p] + C[N + M - p][i + 3] * 0.5;
            }
        }
        if (p != 3) {
            s += A[N + M - p][p + 2] * 0.5;
        }
        if (p + p < N) {
            C[N + M - p][p] = 0.3 * s + x[p] * 0.5;
        }
    }"""


def test_code_generation_budget_error_is_located_201115(tmp_path, monkeypatch):
    """The fuzz case overran isl's budget only with its symbolic sizes on a loaded machine; a
    tiny budget makes the overrun certain, so the test checks the location every time."""
    from looptx.errors import RecipeError
    from looptx.pipeline import transform_file
    from looptx.poly import astgen
    k = kernel(tmp_path, program(BUDGET_REGION, n=5, m=9))
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - unroll: {stmt: 1, loop: p, factor: 5}\n"
                 "  - tile: {stmt: 2, loop: p, size: 4, control: t46}\n"
                 "  - unroll: {stmt: 2, loop: t46, factor: 8}\n"
                 "  - fuse: {stmts: [0, 1], loop: t46}\n")
    monkeypatch.setattr(astgen, "MAX_OPERATIONS", 2000)
    with pytest.raises(RecipeError) as e:
        transform_file(str(k), str(r))
    line = next(n for n, t in enumerate(k.read_text().splitlines(), 1) if "#pragma scop" in t) + 1
    assert str(e.value).startswith(f"{k}:{line}:1: error: code generation of region 0 failed"), \
        str(e.value)


# ---- dependence analysis that would run for minutes (seed 200444) ----------------------------
# With symbolic sizes, isl's exact analysis of some guarded triangular nests ran for many
# minutes; it now has an operation budget whose overrun is a located error with the advice
# to fix the sizes.  A tiny budget stands in for the real case here.

def test_dependence_analysis_budget_is_a_located_error_200444(tmp_path, monkeypatch):
    from looptx.errors import SourceError
    from looptx.poly import deps
    k = kernel(tmp_path, program(BUDGET_REGION, n=5, m=9))
    scop = load(str(k)).scops[0]
    monkeypatch.setattr(deps, "MAX_OPERATIONS", 2000)
    with pytest.raises(SourceError) as e:
        deps.compute_deps(scop)
    assert e.value.line == scop.region_span[0] and "--define" in str(e.value)
    monkeypatch.undo()
    assert deps.compute_deps(scop).items       # the budget is given back afterwards


# ---- a combine of an unrolled loop (fuzz round 3, combine/registers emphasis) ----------------
# Root cause: an unroll turns its loop into a control loop stepping by the factor around a
# hidden point loop; combine replaced the control loop by a merged index and lost both, so the
# generated code left out some instances and ran others twice.  Now refused at the combine; combining first
# and unrolling the combined loop is the same schedule.

COMBINE_BODY = """    for (int lv = 0; lv < N; lv++) {
        for (int col = 0; col < N; col++) {
            C[lv + 1][col + 1] = A[lv + 1][col + 2];
        }
    }"""


def test_combine_of_an_unrolled_loop_is_refused_310117(tmp_path):
    k = kernel(tmp_path, program(COMBINE_BODY, n=7, m=13))
    steps = ["tile: {stmt: 0, loop: col, size: 3, control: t17}",
             "combine: {stmt: 0, loops: [lv, t17], name: cb3}",
             "unroll: {stmt: 0, loop: col, factor: 2}", "combine: {stmt: 0, loops: [cb3, col]}"]
    for sizes in ({"N": 7, "M": 13}, {"N": 9, "M": 3}, {"N": 6, "M": 2}):   # combine: fixed sizes
        _, err = transform_text(load(str(k), defines=sizes), steps)
        assert isinstance(err, RecipeError)
        assert "step 4 (combine)" in str(err) and "'col' is already unrolled" in str(err), str(err)
        accepted(k, steps[:2] + steps[3:] + ["unroll: {stmt: 0, loop: cb3col, factor: 2}"],
                 [sizes], defines=sizes)


def test_legality_witness_with_a_modulo_guard_310520(tmp_path):
    """isl's lexmin failed on the violated dependence of a `c2 % 2` guarded statement (an
    internal error); the witness is now any point of it, and the refusal is located."""
    k = kernel(tmp_path, program("""    for (int c2 = 0; c2 < N; c2++) {
        for (int x0 = 0; x0 < c2; x0++) {
            for (int jj = 0; jj < M; jj++) {
                if (c2 % 2 == 0) {
                    A[c2][c2] = I[2 * jj + 1];
                }
            }
        }
    }"""))
    _, err = transform_text(load(str(k)), ["unroll: {stmt: 0, loop: x0, factor: 2}"])
    assert isinstance(err, RecipeError) and "step 1 (unroll)" in str(err) and "WAW on A" in str(err), str(err)


def test_known_facts_are_checked_against_defined_sizes(tmp_path):
    """`known: N % 2 == 0` with `#define N 7` was accepted and the unroll by 2 then dropped
    the last iteration (a wrong result); -D N=7 was already refused."""
    k = kernel(tmp_path, program("""    for (int i = 0; i < N; i++)
        y[i] = y[i] * 0.5 + x[i];""", n=7).replace("#ifndef N\n#define N 7\n#endif", "#define N 7"))
    _, err = transform_text(load(str(k)), ["known: {facts: ['N % 2 == 0']}",
                                           "unroll: {stmt: 0, loop: i, factor: 2}"])
    assert isinstance(err, RecipeError) and "step 1 (known)" in str(err) \
        and "#defined sizes (N=7)" in str(err), str(err)
    accepted(k, ["known: {facts: ['N % 7 == 0']}", "unroll: {stmt: 0, loop: i, factor: 7}"],
             [{"M": 3}])
