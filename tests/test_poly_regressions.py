"""Regressions from probing the polyhedral steps: fusion inside a shared time loop, unrolling a
body with a scalar temporary, distribution in textual order, and datacopy after skewing.
Every accepted recipe is checked differentially (original vs transformed, gcc, seeded data) at
sizes that do and do not divide the tile sizes."""
import subprocess
import sys
import time

import pytest

from difftest import KERNELS, check_same
from looptx.errors import LegalityError, RecipeError
from looptx.pipeline import load, transform_file
from recipe_cases import accepted, transform_text

TIME_FUSE = """#include "harness.h"
#ifndef T
#define T 10
#endif
#ifndef N
#define N 100
#endif
static double A[N], B[N];
static void kernel(void)
{
  int t, i;
#pragma scop
  for (t = 0; t < T; t++) {
    for (i = 1; i < N - 1; i++)
      B[i] = 0.5 * A[i] + 0.25;
    for (i = 1; i < N - 1; i++)
      A[i] = B[i];
  }
#pragma endscop
}
int main(void)
{
  lx_seed(201);
  lx_fill_double(A, N);
  lx_fill_double(B, N);
  kernel();
  lx_dump("A", A, sizeof A);
  lx_dump("B", B, sizeof B);
  return 0;
}
"""

GEMM_MVT = """#include "harness.h"
#ifndef N
#define N 32
#endif
static double C[N][N], A[N][N], B[N][N], x1[N], y1[N];
static void kernel(void)
{
  int i, j, k;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        C[i][j] += 1.5 * A[i][k] * B[k][j];
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      x1[i] = x1[i] + A[i][j] * y1[j];
#pragma endscop
}
int main(void)
{
  lx_seed(202);
  lx_fill_double(&C[0][0], (size_t)N * N);
  lx_fill_double(&A[0][0], (size_t)N * N);
  lx_fill_double(&B[0][0], (size_t)N * N);
  lx_fill_double(x1, N);
  lx_fill_double(y1, N);
  kernel();
  lx_dump("C", C, sizeof C);
  lx_dump("x1", x1, sizeof x1);
  return 0;
}
"""

SCALAR_TEMP = """#include "harness.h"
#ifndef N
#define N 50
#endif
static double A[N], B[N], t;
static void kernel(void)
{
  int j;
#pragma scop
  for (j = 0; j < N; j++) {
    t = A[j] * 0.5;
    B[j] = t + B[j];
  }
#pragma endscop
}
int main(void)
{
  lx_seed(203);
  lx_fill_double(A, N);
  lx_fill_double(B, N);
  t = 0.0;
  kernel();
  lx_dump("B", B, sizeof B);
  lx_dump("t", &t, sizeof t);
  return 0;
}
"""

GEMM_BETA = """#include "harness.h"
#ifndef N
#define N 24
#endif
static double C[N][N], A[N][N], B[N][N];
static void kernel(void)
{
  int i, j, k;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      C[i][j] *= 0.75;
      for (k = 0; k < N; k++)
        C[i][j] += 1.5 * A[i][k] * B[k][j];
    }
#pragma endscop
}
int main(void)
{
  lx_seed(204);
  lx_fill_double(&C[0][0], (size_t)N * N);
  lx_fill_double(&A[0][0], (size_t)N * N);
  lx_fill_double(&B[0][0], (size_t)N * N);
  kernel();
  lx_dump("C", C, sizeof C);
  return 0;
}
"""

SEIDEL_DATACOPY = ["skew: {stmt: 0, loop: i, by: {t: 1}}",
                   "skew: {stmt: 0, loop: j, by: {t: 1, i: 1}}",
                   "tile: {stmt: 0, loop: i, size: 8}",
                   "tile: {stmt: 0, loop: j, size: 8}",
                   "permute: {stmt: 0, order: [t, ii, jj, i, j]}",
                   "datacopy: {stmt: 0, array: A, at: jj}"]


def region(text: str) -> str:
    return text.split("#pragma scop")[1].split("#pragma endscop")[0]


def kernel(tmp_path, name: str, source: str):
    (tmp_path / "harness.h").write_text((KERNELS / "harness.h").read_text())
    path = tmp_path / name
    path.write_text(source)
    return path


# ---- 1. fuse inside a shared outer loop ---------------------------------------------------

def test_fuse_siblings_inside_time_loop(tmp_path):
    k = kernel(tmp_path, "timefuse.c", TIME_FUSE)
    text = accepted(k, ["fuse: {stmts: [0, 1], loop: i}"], [{"T": 4, "N": 20}, {"T": 3, "N": 37}])
    body = region(text)
    assert body.count("for (int t") == 1 and body.count("for (int i") == 1


def test_fuse_jacobi1d_after_shift_then_tile():
    k = KERNELS / "jacobi-1d.c"
    steps = ["shift: {stmt: 1, loop: i, by: 1}", "fuse: {stmts: [0, 1], loop: i}",
             "tile: {stmt: 0, loop: i, size: 8}"]
    text = accepted(k, steps, [{"TSTEPS": 4, "N": 65}, {"TSTEPS": 5, "N": 53}])
    assert region(text).count("for (int i ") == 1


def test_fuse_in_time_loop_still_checks_dependences():
    """Without the shift, S1 would overwrite A[i] before S0 of i+1 reads it: a legality error
    with a witness, not the 'would split' complaint."""
    prog = load(str(KERNELS / "jacobi-1d.c"))
    _, err = transform_text(prog, ["fuse: {stmts: [0, 1], loop: i}"])
    assert isinstance(err, LegalityError), err
    assert "would split" not in str(err) and "before" in str(err)


def test_fuse_fdtd2d_inside_time_loop():
    k = KERNELS / "fdtd-2d.c"
    sizes = [{"TMAX": 3, "NX": 12, "NY": 10}, {"TMAX": 4, "NX": 13, "NY": 11}]
    accepted(k, ["fuse: {stmts: [1, 2], loop: j}"], sizes)
    # hz[i][j] reads ey[i+1][j], which a fused i loop has not written yet
    _, err = transform_text(load(str(k)), ["fuse: {stmts: [1, 2, 3], loop: i}"])
    assert isinstance(err, LegalityError) and "would split" not in str(err), err


def test_fuse_that_splits_a_loop_is_still_refused(tmp_path):
    src = TIME_FUSE.replace("#pragma scop\n  for (t", "#pragma scop\n  for (t = 0; t < T; t++)\n"
                            "    for (i = 1; i < N - 1; i++)\n      A[i] = A[i] * 0.5;\n  for (t")
    k = kernel(tmp_path, "split.c", src)
    # statement 1 lives in the second t loop with statement 2, which is not fused
    _, err = transform_text(load(str(k)), ["fuse: {stmts: [0, 1], loop: i}"])
    assert isinstance(err, RecipeError) and "would split loop 't'" in str(err), err


SPLIT_J = """#define N 12
double A[N][N], B[N][N], C[N][N];
void f(void) {
  int i, j, kk;
#pragma scop
  for (i = 1; i < N; i++)
    for (j = 0; j < N; j++) {
      for (kk = 0; kk < N; kk++)
        B[i][j] += ROW[kk] * C[kk][j];
      B[i][j] = B[i][j] * 0.5;
    }
#pragma endscop
}
"""


@pytest.mark.parametrize("row, before, order, cut", [
    # S1 shares i and j; only j is split.  Distributing at i is illegal here (S0 of row i+1
    # reads row i after S1 scales it), so naming the outer loop gave a hint that cannot work.
    ("B[i - 1]", [], "[i, kk, j]", "j"),
    # after tiling, the tile loop ii stays shared and i is the loop that is split
    ("A[i]", ["tile: {stmt: 0, loop: i, size: 4}"], "[ii, kk, i, j]", "i")])
def test_permute_names_the_shared_loop_it_splits(tmp_path, row, before, order, cut):
    src = SPLIT_J.replace("ROW", row)
    steps = before + [f"permute: {{stmt: 0, order: {order}}}"]
    p, rec = _run(tmp_path, src, "steps:\n" + "".join(f"  - {s}\n" for s in steps))
    lines = p.stderr.splitlines()
    assert p.returncode == 2 and len(lines) == 1, p.stderr
    assert lines[0].startswith(f"{rec}:{len(steps) + 1}: step {len(steps)} (permute): error: "
                               f"permute would split loop '{cut}'"), p.stderr
    hint = f"distribute {{stmts: [0], loop: {cut}}}"
    assert hint in lines[0], p.stderr
    steps.insert(len(before), hint.replace(" {", ": {"))
    for n in ("12", "7"):
        p, _ = _run(tmp_path, src, "steps:\n" + "".join(f"  - {s}\n" for s in steps), "-D", f"N={n}")
        assert p.returncode == 0 and ": ok" in p.stdout, p.stdout + p.stderr


def test_fuse_gemm_then_mvt_chill_dialect(tmp_path):
    k = kernel(tmp_path, "gemm_mvt.c", GEMM_MVT)
    r = tmp_path / "r.chill"
    r.write_text('fuse([0,1],"j")\n')
    text = transform_file(str(k), recipe=str(r))
    assert region(text).count("for (j") == 1
    for sizes in ({"N": 16}, {"N": 19}):
        check_same(k, text, sizes)


# ---- 2. unroll keeps whole iterations together -------------------------------------------

@pytest.mark.parametrize("factor", [2, 3])
def test_unroll_body_with_scalar_temporary(tmp_path, factor):
    k = kernel(tmp_path, "temp.c", SCALAR_TEMP)
    text = accepted(k, [f"unroll: {{stmt: 0, loop: j, factor: {factor}}}"], [{"N": 48}, {"N": 50}, {"N": 7}])
    body = region(text)
    first = [body.index(s) for s in ("t = A[j] * 0.5", "B[j] = t + B[j]", "t = A[j + 1] * 0.5",
                                     "B[j + 1] = t + B[j + 1]")]
    assert first == sorted(first), body


def test_unroll_and_jam_interleaves_inner_loop(tmp_path):
    k = kernel(tmp_path, "gemm.c", GEMM_BETA)
    text = accepted(k, ["unroll: {stmt: 1, loop: j, factor: 2}"], [{"N": 24}, {"N": 21}])
    body = region(text)
    # the k loop holds both copies of S1 (jammed); the two S0 copies come before it
    kloop = body[body.index("for (int k"):]
    assert "C[i][j + 1] += " in kloop.split("}")[0] and "C[i][j] += " in kloop.split("}")[0]
    assert body.index("C[i][j + 1] *= 0.75") < body.index("for (int k")


def test_unroll_single_statement_schedule_unchanged():
    """One statement: the point loop stays innermost, as before (plain unroll and jam)."""
    from looptx.recipe.apply import apply_recipe
    from looptx.recipe.schema import load_yaml
    k = KERNELS / "matmul.c"
    scop = load(str(k)).scops[0]
    for loop, names in (("k", ["i", "j", "k", "k'"]), ("j", ["i", "j", "k", "j'"])):
        v = apply_recipe(scop, load_yaml(f"steps:\n  - unroll: {{stmt: 0, loop: {loop}, factor: 4}}\n"))
        dims = v.pieces[0].dims
        assert [d.name for d in dims[1::2]] == names and dims[0::2] == (0, 0, 0, 0, 0)
        accepted(k, [f"unroll: {{stmt: 0, loop: {loop}, factor: 4}}"], [{"NI": 5, "NJ": 6, "NK": 18}])


# ---- 3. distribute follows textual order -------------------------------------------------

def test_distribute_middle_statement_atax():
    k = KERNELS / "atax.c"
    text = accepted(k, ["distribute: {stmts: [2], loop: i}"], [{"M": 32, "N": 48}, {"M": 37, "N": 41}])
    body = region(text)
    order = [body.index(s) for s in ("tmp[i] = 0.0", "tmp[i] = tmp[i] +", "y[j] = y[j] +")]
    assert order == sorted(order)
    assert body.count("for (int i") == 4


def test_distribute_keeps_contiguous_unlisted_statements_together(tmp_path):
    src = GEMM_BETA.replace("      C[i][j] *= 0.75;\n", "      C[i][j] *= 0.75;\n      C[i][j] += 0.125;\n")
    k = kernel(tmp_path, "gemm2.c", src)
    text = accepted(k, ["distribute: {stmts: [2], loop: j}"], [{"N": 9}, {"N": 12}])
    body = region(text)
    assert body.count("for (int j") == 2            # {S0, S1} | {S2}


def test_distribute_cli_run(tmp_path):
    k = KERNELS / "atax.c"
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - distribute: {stmts: [2], loop: i}\n")
    proc = subprocess.run([sys.executable, "-m", "looptx", "run", str(k), "--recipe", str(r),
                           "--define", "m=37", "--define", "n=41"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert " ok " in proc.stdout


# ---- 4. datacopy after skew + tile --------------------------------------------------------

def test_datacopy_after_skew_and_tile_seidel():
    k = KERNELS / "seidel-2d.c"
    start = time.monotonic()
    prog = load(str(k))
    text, err = transform_text(prog, SEIDEL_DATACOPY)
    assert err is None, err
    assert time.monotonic() - start < 60
    assert "A_buf[" in text
    for sizes in ({"TSTEPS": 3, "N": 34}, {"TSTEPS": 4, "N": 41}):
        check_same(k, text, sizes)


def test_datacopy_exact_fallback_untiled_loop():
    """An untiled loop inside the scope has no whole-tile footprint: the exact one is used."""
    k = KERNELS / "matmul.c"
    accepted(k, ["datacopy: {stmt: 0, array: B, at: i}"], [{"NI": 7, "NJ": 9, "NK": 5}],
             defines={"NI": 7, "NJ": 9, "NK": 5})


def test_datacopy_footprint_budget_is_a_located_error(monkeypatch):
    from looptx.poly import promote
    monkeypatch.setattr(promote, "MAX_OPERATIONS", 200)
    _, err = transform_text(load(str(KERNELS / "seidel-2d.c")), SEIDEL_DATACOPY)
    assert isinstance(err, RecipeError), err
    assert err.step == 6 and err.step_name == "datacopy" and "too complex" in str(err)


def test_datacopy_codegen_budget_is_a_located_error(tmp_path):
    """The old exact footprint corner exhausted isl's operation budget while generating the
    copies: that must be one located line and exit 2, and quick."""
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n" + "".join(f"  - {s}\n" for s in SEIDEL_DATACOPY))
    code = ("import sys, looptx.poly.astgen as a, looptx.poly.promote as p\n"
            "a.MAX_OPERATIONS = 300000\n"
            "p.tile_low = lambda fd, loose: None\n"
            "from looptx.cli import main\n"
            f"sys.exit(main(['transform', {str(KERNELS / 'seidel-2d.c')!r}, '--recipe', {str(r)!r}]))\n")
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert time.monotonic() - start < 120
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"{r}:7: step 6 (datacopy): error: ") and "too complex" in lines[0], lines[0]


KNOWN = """#ifndef N
#define N 100
#endif
double x[N], y[N];
void f(void) {
int i;
/*@ begin CHiLL (
  known("N % 8 == 0")
  unroll(0,"i",2)
) @*/
for (i = 0; i < N; i++)
  y[i] = y[i] + 3.0 * x[i];
/*@ end @*/
}
"""


def test_known_fact_false_for_fixed_sizes_is_bad_input(tmp_path):
    """A fact that the fixed sizes contradict would empty every domain and delete the loop."""
    src = tmp_path / "k.c"
    src.write_text(KNOWN)
    p = subprocess.run([sys.executable, "-m", "looptx", "transform", str(src), "-D", "N=100"],
                       capture_output=True, text=True)
    assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
    assert p.stderr.startswith(f"{src}:8: step 1 (known)") and "cannot hold" in p.stderr
    ok = transform_file(str(src), defines={"N": 96})
    assert "y[i + 1]" in ok


FULL_JAM = """#define N 4
#define M 37
double A[N][M], B[N][M];
void f(void) {
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      A[i][j] = A[i][j] + B[i][j] * 2.0;
#pragma endscop
}
"""


@pytest.mark.parametrize("factor", [0, 4, 6])
def test_full_unroll_of_an_outer_loop_jams(tmp_path, factor):
    """Contract: unrolling a non-innermost loop jams the loops inside it, also when the factor
    covers the whole trip count (0 = full): one j loop holding the four copies."""
    src = tmp_path / "fj.c"
    src.write_text(FULL_JAM)
    rec = tmp_path / "r.yaml"
    rec.write_text(f"steps:\n  - unroll: {{stmt: 0, loop: i, factor: {factor}}}\n")
    text = transform_file(str(src), recipe=str(rec), defines={"N": 4})
    body = text.split("#pragma scop")[1]
    assert body.count("for (") == 1 and "A[3][j]" in body, body
    p = subprocess.run([sys.executable, "-m", "looptx", "run", str(src), "--recipe", str(rec),
                        "-D", "N=4", "--repetitions", "1"], capture_output=True, text=True)
    assert p.returncode == 0 and ": ok" in p.stdout, p.stdout + p.stderr


def _run(tmp_path, src_text, recipe_text, *defines):
    src = tmp_path / "k.c"
    src.write_text(src_text)
    rec = tmp_path / "r.yaml"
    rec.write_text(recipe_text)
    return subprocess.run([sys.executable, "-m", "looptx", "run", str(src), "--recipe", str(rec),
                           "--repetitions", "1", *defines], capture_output=True, text=True), rec


SHARED_L = """#define N 6
double T[N][N][N], C[N][N];
void f(void) {
  int i, j, k, l;
#pragma scop
  for (i = 1; i <= N; i++)
    for (j = (0 > i - 2 ? 0 : i - 2); j < (N < i + 3 ? N : i + 3); j++)
      for (k = 0; k < j; k++)
        for (l = (1 > k ? 1 : k); l <= k; l++) {
          T[j][l][l] = 1.0;
          C[k][l] = 1.0;
        }
#pragma endscop
}
"""


def test_unroll_to_depth_unrolls_a_shared_loop_once(tmp_path):
    """Found by fuzzing: the innermost loop, shared by two statements, was unrolled for the
    first and then the next loop out for the second (and wrongly jammed)."""
    for n in ("6", "9"):
        p, _ = _run(tmp_path, SHARED_L, "steps:\n  - unroll_to_depth: {depth: 1}\n", "-D", f"N={n}")
        assert p.returncode == 0 and ": ok" in p.stdout, p.stdout + p.stderr


ROWS = """#define N 8
double C[N + 4][N + 4], y[N + 4];
void f(void) {
  int i;
#pragma scop
  for (i = 0; i < N; i++)
    C[i][0] = 0.3 * (C[i + 2][i + 1] + y[i + 2]);
#pragma endscop
}
"""


def test_unrolling_an_unrolled_loop_again_is_refused(tmp_path):
    p, rec = _run(tmp_path, ROWS, "steps:\n  - unroll: {stmt: 0, loop: i, factor: 3}\n"
                                  "  - unroll: {stmt: 0, loop: i, factor: 4}\n")
    assert p.returncode == 2 and p.stderr.startswith(f"{rec}:3: step 2 (unroll)"), p.stderr
    assert "already unrolled by 3" in p.stderr and "(12)" in p.stderr
    for n in ("8", "29"):
        p, _ = _run(tmp_path, ROWS, "steps:\n  - unroll: {stmt: 0, loop: i, factor: 12}\n", "-D", f"N={n}")
        assert p.returncode == 0 and ": ok" in p.stdout, p.stdout + p.stderr


@pytest.mark.parametrize("step", ["split: {stmt: 0, loop: i, at: '3'}",
                                  "peel: {stmt: 0, loop: i, first: 1}"])
def test_split_or_peel_around_a_promotion_is_refused(tmp_path, step):
    body = ("#define N 10\ndouble A[N][N], B[N][N];\nvoid f(void) {\n  int i, j;\n#pragma scop\n"
            "  for (i = 0; i < N; i++)\n    for (j = 0; j < N; j++)\n"
            "      A[i][j] = A[i][j] + B[j][i];\n#pragma endscop\n}\n")
    p, rec = _run(tmp_path, body, f"steps:\n  - datacopy: {{stmt: 0, array: B, at: i}}\n  - {step}\n",
                  "-D", "N=10")
    assert p.returncode == 2 and p.stderr.startswith(f"{rec}:3: step 2"), p.stderr
    assert "holds the datacopy of step 1" in p.stderr
