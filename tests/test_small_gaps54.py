"""Gaps found by the probes of session 54 (and left open by earlier ones), each checked end to end."""
import subprocess

import pytest

from conftest import run_cli
from test_small_gaps53 import MM_VLA, _built_output, _run_ok

pytestmark = pytest.mark.usefixtures("private_build_cache")

MM_GRID = ("steps:\n  - tile: {stmt: 0, loop: i, size: 8}\n  - tile: {stmt: 0, loop: j, size: 4}\n"
           "  - permute: {stmt: 0, order: [ii, jj, i, j, k]}\n  - cuda: {stmt: 0, block: [jj, ii], thread: [j, i]}\n")


@pytest.mark.parametrize("copy", ["datacopy: {stmt: 0, array: A, at: k, around: true}",
                                  "datacopy: {stmt: 0, array: A, at: j}"])
def test_a_per_thread_copy_around_a_loop_just_inside_the_thread_loops(tmp_path, copy):
    """Probe 96 G1: `around: true` at a loop whose parent is a thread loop skipped the thread
    loops, as a shared copy does, and was refused at a block loop; a datacopy is one
    thread's own, so around 'k' is at thread loop 'j', as `at: j` is."""
    src, rec = tmp_path / "mm.c", tmp_path / "r.yaml"
    src.write_text(MM_VLA)
    rec.write_text(MM_GRID + f"  - {copy}\n")
    rc, out, err = run_cli("run", src, "--recipe", rec, "-D", "n=37", "-D", "m=19", "-D", "p=16")
    assert rc == 0 and ": ok" in out, out + err
    rc, _, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda", "-D", "p=16")
    assert rc == 0, err


@pytest.mark.parametrize("copy,expected", [
    ("shared: {stmt: 0, array: A, at: jj, around: true}", "shared around 'jj', which is at loop 'ii'"),
    ("registers: {stmt: 0, array: C, at: jj}", "inside the innermost block loop 'jj'")])
def test_a_copy_at_a_block_loop_names_the_loop_the_user_wrote(tmp_path, copy, expected):
    """Probe 96 G2: the refusal named the loop `around` resolved to, and told registers (one
    thread's) to go inside the thread loops, where a loop between blocks and threads works."""
    src, rec = tmp_path / "mm.c", tmp_path / "r.yaml"
    src.write_text(MM_VLA)
    rec.write_text(MM_GRID + f"  - {copy}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda", "-D", "p=16")
    assert rc == 2 and "step 5" in err and expected in err and len(err.strip().splitlines()) == 1, err


ALL_REJECTED = """/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2'; }
  def performance_params { param T[] = [8, 16]; param U[] = [1, 2]; }
  def input_params { param N = 64; }
  def input_vars { decl static double A[N][N] = random; decl static double B[N][N] = random; }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
int i, j;
/*@ begin CHiLL ( tile(0,"i",%s,"ii") unroll(0,"j",U) ) @*/
for (i = 0; i <= N-1; i++)
  for (j = 0; j <= N-1; j++)
    B[i][j] = A[j][i] + B[i][j];
/*@ end @*/
/*@ end @*/
"""


@pytest.mark.parametrize("size,stops", [("T-20", True), ("T-10", False)])
def test_a_param_a_step_rejects_at_every_value_stops_before_measuring(tmp_path, size, stops):
    """Probe 97 G3: `tile(..., T-20)` says `got -12` at T = 8 and `got -4` at T = 16; the
    search measured and recorded every point as invalid, then said none passed."""
    src, db = tmp_path / "k.c", tmp_path / "k.db"
    src.write_text(ALL_REJECTED % size)
    rc, out, err = run_cli("search", src, "--db", db, "--no-progress")
    if stops:
        assert rc == 2 and not db.exists(), out + err
        assert err.strip() == f"{src}:9: step 1 (tile): error: argument 'size' must be an integer >= 1, got -12 " \
                              "(see the 'tile' step in the recipe reference)", err
    else:
        # T = 8 is left out with a note; T = 16 is searched
        assert rc == 0 and "value 8 is left out" in err, out + err


HEAT1D_LAP = """double heat1d(int n, int tsteps, double u[2][n], double alpha)
{
  double lap = 0.0;
  int t, i;
#pragma scop
  for (t = 0; t < tsteps; t++)
    for (i = 1; i < n - 1; i++) {
      lap = u[t %% 2][i - 1] - 2.0 * u[t %% 2][i] + u[t %% 2][i + 1];
      u[(t + 1) %% 2][i] = u[t %% 2][i] + alpha * lap;
    }
#pragma endscop
  return lap;
}
"""


@pytest.mark.parametrize("known,ok", [("", False), ("  - known: {facts: ['n >= 3']}\n", True)])
def test_lastprivate_on_an_inner_loop_that_may_run_no_iteration(tmp_path, known, ok):
    """Probe 95 G6: the model has no instance of t where the i loop runs none, so the check
    that refuses lastprivate on a loop that may run no iteration missed inner loops."""
    src, rec = tmp_path / "h.c", tmp_path / "r.yaml"
    src.write_text(HEAT1D_LAP.replace("%%", "%"))
    rec.write_text("steps:\n" + known + '  - pragma: {stmt: 0, loop: i, text: "omp parallel for lastprivate(lap)"}\n')
    rc, out, err = run_cli("run", src, "--recipe", rec, "-D", "n=40", "-D", "tsteps=5")
    assert rc == 0 and ": ok" in out, out + err
    rc, out, err = run_cli("transform", src, "--recipe", rec)
    if ok:
        assert rc == 0 and "lastprivate(lap)" in out, err
    else:
        assert rc == 2 and "runs no iteration at some sizes" in err and "facts: ['n >= 3']" in err, err


CONTINUE_ON_DATA = """void f(double *a, double *b, int n, int m) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      if (b[i*m + j] < 0.5) continue;
      b[i*m + j] = b[i*m + j] - 1.0;
      a[i*m + j] = b[i*m + j] * 2.0;
    }
#pragma endscop
}
"""


def test_a_condition_taken_before_its_branch_is_numbered_after_the_users_statements(tmp_path):
    """Probe 91 G8: the temporary a changed condition is taken into was S0, so the user's
    `b = ...` was S1 against the contract's textual numbering, and a recipe written from the
    source addressed the temporary."""
    src = tmp_path / "k.c"
    src.write_text(CONTINUE_ON_DATA)
    rc, out, err = run_cli("deps", src)
    assert rc == 0, err
    numbered = [line.split()[0] + " " + line.split()[2] for line in out.splitlines() if line.lstrip().startswith("S")]
    assert numbered == ["S0 7", "S1 8", "S2 6"], out
    _, rec = _run_ok(tmp_path, CONTINUE_ON_DATA,
                     "steps:\n  - tile: {stmt: 0, loop: j, size: 4}\n  - unroll: {stmt: 1, loop: j, factor: 2}\n",
                     "-D", "n=7", "-D", "m=10")
    rc, out, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 0 and "lx_c6_7" in out, err


def test_a_typo_in_a_param_name_is_answered_with_the_near_name(tmp_path):
    """Probe 97 G5: a typo'd param (`U` for `Uu`) got the script's generic hint."""
    src = tmp_path / "k.c"
    src.write_text(ALL_REJECTED.replace("param U[]", "param Uu[]").replace('tile(0,"i",%s,"ii")', 'tile(0,"i",T,"ii")'))
    rc, _, err = run_cli("search", src, "--db", tmp_path / "k.db", "--no-progress")
    assert rc == 2 and "unknown parameter 'U' (did you mean 'Uu'?" in err, err


def test_the_errors_of_rejected_points_name_the_file_as_given(tmp_path, monkeypatch):
    """Probe 97 G5: the errors of illegal points named the input by its absolute path."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.c").write_text(ALL_REJECTED.replace('tile(0,"i",%s,"ii")', 'permute(0,["j","i"])')
                                  .replace("i = 0; i <= N-1", "i = 1; i <= N-1").replace("j = 0; j <= N-1", "j = 0; j <= N-2")
                                  .replace("A[j][i] + B[i][j]", "A[j][i] + B[i-1][j+1]"))
    rc, out, err = run_cli("search", "k.c", "--db", "k.db", "--no-progress")
    assert "illegal" in out + err and "k.c:9" in out + err and str(tmp_path) not in out + err, out + err


def _same_as_original(tmp_path, text: str, recipe: str, runs: list[str], flags=("-O1",)):
    """Builds the file and its output (each with its own `main`, which takes the sizes from
    argv and prints the array) and asserts they print the same at every size of `runs`."""
    src, rec, out = tmp_path / "k.c", tmp_path / "r.yaml", tmp_path / "out.c"
    src.write_text(text)
    rec.write_text(recipe)
    rc, _, err = run_cli("transform", src, "--recipe", rec, "-o", out)
    assert rc == 0, err
    exes = []
    for c in (src, out):
        exe = tmp_path / (c.stem + ".exe")
        subprocess.run(["gcc", *flags, str(c), "-o", str(exe)], check=True, capture_output=True)
        exes.append(exe)
    for args in runs:
        outs = [subprocess.run([str(e), *args.split()], capture_output=True, text=True, check=True).stdout for e in exes]
        assert outs[0] == outs[1], f"differs at {args}"
    return err


ROWS_MAIN = """
#include <stdio.h>
#include <stdlib.h>
static double A[10][4][8];
int main(int argc, char **argv)
{
  int k, x[3] = {0, 0, 0};
  for (k = 1; k < argc; k++) x[k - 1] = atoi(argv[k]);
  for (k = 0; k < 10 * 4 * 8; k++) (&A[0][0][0])[k] = k %% 7;
  kern(x[0], x[1], x[2], A);
  for (k = 0; k < 10 * 4 * 8; k++) printf("%%g ", (&A[0][0][0])[k]);
  return 0;
}
"""


@pytest.mark.parametrize("body,recipe,fact", [
    # probe 99 G2: the second dimension that leaves its extent counts too (p > 4 is no size of
    # interest: a[i][j][k] itself leaves there)
    ("for (i = 0; i < n; i++) for (j = 0; j < p; j++) for (k = 0; k < q; k++)\n"
     "      a[i][j][k + 1] = a[i][j][k] * 0.5 + 1.0;", "permute: {stmt: 0, order: [k, j, i]}", "q <= 7"),
    # probe 99 G4: a row left through two dimensions at once, a[i][3][8] is a[i + 1][0][0]
    ("for (i = 0; i < n; i++) for (k = 0; k < q; k++)\n      a[i][3][k + 1] = a[i][0][k] * 0.5 + 1.0;",
     "permute: {stmt: 0, order: [k, i]}", "q <= 7")])
def test_rows_left_through_every_dimension(tmp_path, body, recipe, fact):
    text = ("#define D1 4\nvoid kern(int n, int p, int q, double a[8][D1][8])\n{\n  int i, j, k;\n#pragma scop\n  "
            + body + "\n#pragma endscop\n}\n" + ROWS_MAIN.replace("%%", "%"))
    err = _same_as_original(tmp_path, text, f"steps:\n  - {recipe}\n", ["4 4 8", "4 4 7", "4 3 8", "6 4 5"])
    assert f"the recipe is made for {fact}," in err, err


FLAT_MAIN = """
#include <stdio.h>
#include <stdlib.h>
static double A[80][16];
int main(int argc, char **argv)
{
  int k, n = atoi(argv[1]), m = atoi(argv[2]), s = atoi(argv[3]);
  for (k = 0; k < 80 * 16; k++) (&A[0][0])[k] = k %% 5;
  kern(n, m, s, A);
  for (k = 0; k < 80 * 16; k++) printf("%%g ", (&A[0][0])[k]);
  return 0;
}
"""


@pytest.mark.parametrize("subscript,recipe,expected", [
    # probe 99 G3: more than two rows on, at every size: refused
    ("j + 50", "omp_for: {stmt: 0, loop: i}", None),
    # probe 99 G10: the fact was `n >= 65`, sizes at which the region leaves the array
    ("j + s", "permute: {stmt: 0, order: [j, i]}", "s <= 16 - m"),
    # probe 99 G5: a copy gives the two names of one element a cell each
    ("j + 1", "datacopy: {stmt: 0, array: a, at: jj}", "m <= 15")])
def test_rows_left_far_or_by_a_size_or_into_a_copy(tmp_path, subscript, recipe, expected):
    text = ("#define M 16\nvoid kern(int n, int m, int s, double a[64][M])\n{\n  int i, j;\n#pragma scop\n"
            f"  for (i = 0; i < n; i++)\n    for (j = 0; j < m; j++)\n      a[i][{subscript}] = a[i][j] * 0.5 + 1.0;\n"
            "#pragma endscop\n}\n" + FLAT_MAIN.replace("%%", "%"))
    if expected is None:
        src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
        src.write_text(text)
        rec.write_text(f"steps:\n  - {recipe}\n")
        rc, _, err = run_cli("transform", src, "--recipe", rec)
        assert rc == 2 and "leaves its extent" in err and "step 1" in err, err
        return
    if recipe.startswith("datacopy"):
        recipe = "tile: {stmt: 0, loop: j, size: 16}\n  - " + recipe
    err = _same_as_original(tmp_path, text, f"steps:\n  - {recipe}\n", ["8 16 0", "8 15 0", "8 8 8", "8 8 9", "60 4 1"])
    assert f"the recipe is made for {expected}," in err, err


@pytest.mark.parametrize("before,after,refused", [
    # probe 99 G11: the C99 swap, and the time loop's swap after its sweep
    ("  double *t = a;\n  a = b;\n  b = t;\n", "", False),
    ("", "  { double *t = a; a = b; b = t; }\n", False),
    # probe 99 G12: a pointer set again before the region, or set after it
    ("  b = a + 1;\n  b[0] = 0.0;\n  b = c;\n", "", False),
    ("", "  b = a + 1;\n  b[0] = 2.0;\n", False),
    # probe 99 G8: a copy whose source is set again after the region, or only on one path
    ("  b = a;\n  b++;\n", "  a = c;\n", True),
    ("  b = a;\n  if (n > 3) a = c;\n", "", True),
    # probe 103 G10: set again on both arms of an if (one arm into a: still an alias)
    ("  b = a + 1;\n  if (n > 3) b = c; else b = a - 1 + 2 * n;\n", "", True),
    ("  b = a + 1;\n  if (n > 3) b = c; else b = c + n;\n", "", False),
    # probe 99 G9: through a call, memcpy, or a table of pointers
    ("  b = after(a, 1);\n", "", True),
    ("  { double *t = a + 1; memcpy(&b, &t, sizeof b); }\n", "", True),
    ("  { double *v[2] = { a, a + 1 }; b = v[1]; }\n", "", True),
    # probe 104 G1: a swap through a function of the user's is a swap
    ("", "  swap_ptr(&a, &b);\n", False)])
def test_what_a_pointer_holds_at_the_region(tmp_path, before, after, refused):
    loop = "for (int i = 0; i < n - 1; i++)\n      b[i] = a[i + 1] + 1.0;"
    body = (f"  for (int t = 0; t < 3; t++) {{\n#pragma scop\n    {loop}\n#pragma endscop\n{after}  }}\n"
            if after.startswith("  {") or "swap_ptr" in after
            else f"{before}#pragma scop\n  {loop}\n#pragma endscop\n{after}")
    src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text("#include <string.h>\nstatic double *after(double *p, int k) { return p + k; }\n"
                   "static void swap_ptr(double **p, double **q) { double *t = *p; *p = *q; *q = t; }\n"
                   "void kern(int n, double *a, double *b, double *c)\n{\n" + body + "}\n")
    rec.write_text("steps:\n  - reverse: {stmt: 0, loop: i}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec)
    if refused:
        assert rc == 2 and "'b' points into 'a'" in err, err
    else:
        assert rc == 0, err


@pytest.mark.parametrize("after,printed", [("  return lim;\n", "8 16\n"), ("  lim = n[0];\n  return lim;\n", "9 16\n")])
def test_a_bound_temporary_the_code_after_the_region_reads_stays_set(tmp_path, after, printed):
    """Probe 98 G1: `lim = *n - 1;` in the region and `return lim;` after it: the region's
    uses read the expression, the assignment went, and the output returned an unset local."""
    text = ("int scale(int *n, double *x)\n{\n  int lim, i;\n#pragma scop\n  lim = *n - 1;\n"
            "  for (i = 0; i < lim; i++)\n    x[i] = x[i] * 2.;\n#pragma endscop\n" + after + "}\n"
            "#include <stdio.h>\nint main(void)\n{\n  double x[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};\n  int n = 9;\n"
            "  int r = scale(&n, x);\n  printf(\"%d %g\\n\", r, x[7]);\n  return 0;\n}\n")
    src = tmp_path / "k.c"
    src.write_text(text)
    rc, out, err = run_cli("deps", src)
    assert rc == 0 and "S0   line 5" in out, out + err
    rc, got = _built_output(tmp_path, text, "steps:\n  - unroll: {stmt: 1, loop: i, factor: 2}\n",
                            "-Wall", "-Werror", "-Wno-unknown-pragmas")
    assert rc == 0 and got == printed, got


@pytest.mark.parametrize("holder,refused", [("union", True), ("struct", False)])
def test_two_members_of_a_union_written_as_arrays(tmp_path, holder, refused):
    """Probe 99 G7: `U.g[i][j] = U.flat[i*16 + j + 1]` of a union were two arrays to the model;
    a permute computed something else."""
    src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(f"static {holder} {{ double flat[1024]; double g[64][16]; }} U;\nvoid kern(int n)\n{{\n"
                   "  int i, j;\n#pragma scop\n  for (i = 0; i < n; i++)\n    for (j = 0; j < 16; j++)\n"
                   "      U.g[i][j] = U.flat[i * 16 + j + 1] + 1.0;\n#pragma endscop\n}\n")
    rec.write_text("steps:\n  - permute: {stmt: 0, order: [j, i]}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec)
    if refused:
        assert rc == 2 and "k.c:8:7: error: the region writes elements of the union member 'U.g'" in err, err
    else:
        assert rc == 0, err


def test_a_define_of_an_f2c_pointer_whose_type_comes_from_f2c_h(tmp_path):
    """Probe 98 G2: `-D n=8` on `integer *n` was refused only when the file itself declared
    `integer`; with `#include "f2c.h"` (every real f2c file) it was accepted and did nothing."""
    (tmp_path / "f2c.h").write_text("typedef long int integer;\ntypedef double doublereal;\n")
    src = tmp_path / "daxpy.c"
    src.write_text('#include "f2c.h"\nint daxpy_(integer *n, doublereal *da, doublereal *dx, doublereal *dy)\n{\n'
                   "    integer i__1;\n    integer i__;\n    --dy;\n    --dx;\n    i__1 = *n;\n#pragma scop\n"
                   "    for (i__ = 1; i__ <= i__1; ++i__) {\n        dy[i__] += *da * dx[i__];\n    }\n"
                   "#pragma endscop\n    return 0;\n}\n")
    rc, _, err = run_cli("transform", src, "-D", "n=8")
    assert rc == 2 and "daxpy.c:2:12: error: -D n=8: 'n' is a pointer in daxpy.c, not a size" in err, err


PIX_SORT = """#define PIX_SORT(a,b) { if ((a)>(b)) PIX_SWAP((a),(b)); }
#define PIX_SWAP(a,b) { unsigned char temp=(a);(a)=(b);(b)=temp; }
void sort4(int H, int W, unsigned char p[H][W][4])
{
  int y, x;
#pragma scop
  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++) {
      PIX_SORT(p[y][x][0], p[y][x][1]) ; PIX_SORT(p[y][x][2], p[y][x][3]) ; PIX_SORT(p[y][x][1], p[y][x][2]) ;
    }
#pragma endscop
}
"""


def test_two_branches_of_macros_on_one_line_take_their_conditions_apart(tmp_path):
    """Probe 100 G1: Devillard's median writes several PIX_SORTs on a line; two of their
    conditions were taken into one variable, which no loop could make private."""
    _run_ok(tmp_path, PIX_SORT, "steps:\n  - omp_for: {stmt: 0, loop: y}\n", "-D", "H=13", "-D", "W=7")


def test_abs_in_a_subscript(tmp_path):
    """Probe 100 G3: OpenCV's BORDER_REFLECT_101 `in[abs(y - 1)]` was a non-affine call."""
    text = ("#include <stdlib.h>\nvoid reflect(int H, int W, const float in[H][W], float out[H][W])\n{\n  int y, x;\n"
            "#pragma scop\n  for (y = 0; y < H; y++)\n    for (x = 0; x < W; x++)\n"
            "      out[y][x] = 0.25f * in[abs(y - 1)][x] + 0.5f * in[y][x] + 0.25f * in[y + 1 < H ? y + 1 : 2 * H - y - 3][x];\n"
            "#pragma endscop\n}\n")
    recipe = ("steps:\n  - tile: {stmt: 0, loop: y, size: 8}\n  - permute: {stmt: 0, order: [yy, x, y]}\n"
              "  - unroll: {stmt: 0, loop: y, factor: 4}\n")
    for sizes in (["-D", "H=9", "-D", "W=13"], ["-D", "H=16", "-D", "W=5"]):
        _run_ok(tmp_path, text, recipe, *sizes)


@pytest.mark.parametrize("index", ["min(max(img[y][x] + offset, 0), 255)", "MIN(MAX(img[y][x] + offset, 0), 255)"])
def test_a_table_read_at_a_clamped_index_runs(tmp_path, index):
    """Probe 100 G2: `lut[min(max(e, 0), 255)]` (the camera pipe's curve) is inside the table
    whatever the data, but `run` asked for a guard."""
    text = ("#define MIN(a, b) ((a) < (b) ? (a) : (b))\n#define MAX(a, b) ((a) > (b) ? (a) : (b))\n"
            "static inline int min(int a, int b) { return a < b ? a : b; }\n"
            "static inline int max(int a, int b) { return a > b ? a : b; }\n"
            "void tone(int H, int W, int offset, const unsigned char img[H][W], unsigned char out[H][W], "
            "const unsigned char lut[256])\n{\n  int y, x;\n#pragma scop\n  for (y = 0; y < H; y++)\n"
            f"    for (x = 0; x < W; x++)\n      out[y][x] = lut[{index}];\n#pragma endscop\n}}\n")
    _run_ok(tmp_path, text, "steps:\n  - unroll: {stmt: 0, loop: x, factor: 4}\n", "-D", "H=9", "-D", "W=11")


def test_lastprivate_on_an_inner_loop_with_a_statement_after_it(tmp_path):
    """Probe 101 G3: `c[i] = t;` after the j loop counted as a place where the loop was reached
    and ran no iteration, so lastprivate on j was refused at every size (with n=1, m=8)."""
    src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text("void k(int n, int m, const double *a, double *c)\n{\n  double t = 0.0;\n  int i, j;\n#pragma scop\n"
                   "  for (i = 0; i < n; i++) {\n    for (j = 0; j < m; j++)\n      t = a[i*m + j] * 2.0;\n"
                   "    c[i] = t;\n  }\n#pragma endscop\n}\n")
    rec.write_text('steps:\n  - pragma: {stmt: 0, loop: j, text: "omp parallel for lastprivate(t)"}\n')
    rc, _, err = run_cli("transform", src, "--recipe", rec, "-D", "m=8")
    assert rc == 0, err
    rc, _, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 2 and "(with n=1, m=0)" in err and "facts: ['m > 0']" in err, err


def test_fuse_of_a_loop_whose_branch_takes_its_condition_first(tmp_path):
    """Probe 101 G1: fuse ordered the fused body by statement number, and the condition
    temporary, numbered after the region's statements, came after the statements reading it."""
    _run_ok(tmp_path, "void clip(int n, double t, double *restrict x, double *restrict y, double *restrict c)\n{\n"
            "  int i;\n#pragma scop\n  for (i = 0; i < n; i++)\n    y[i] = 2.0 * x[i];\n  for (i = 0; i < n; i++)\n"
            "    if (y[i] > t) {\n      y[i] = t;\n      c[i] = 1.0;\n    }\n#pragma endscop\n}\n",
            "steps:\n  - fuse: {stmts: [0, 1], loop: i}\n", "-D", "n=50")


def test_an_invariant_branch_between_loops_says_to_put_it_outside(tmp_path):
    """Probe 98 G8: DGEMM's `if (*beta == 0.) { for ... } else { for ... }` inside its j loop
    got the hint to write conditional assignments, which a branch of loops cannot be."""
    src = tmp_path / "k.c"
    src.write_text("void scal(int m, int n, const double *beta, double c[n][m])\n{\n  int i, j;\n#pragma scop\n"
                   "  for (j = 0; j < n; j++) {\n    if (*beta == 0.) {\n      for (i = 0; i < m; i++)\n        c[j][i] = 0.;\n"
                   "    } else {\n      for (i = 0; i < m; i++)\n        c[j][i] = *beta * c[j][i];\n    }\n  }\n#pragma endscop\n}\n")
    rc, _, err = run_cli("deps", src)
    assert rc == 2 and "k.c:6:10: error" in err and "put the `if` outside the loops around it" in err, err


@pytest.mark.parametrize("marker", ["pragma", "chill"])
def test_the_f2c_cleanup_bound_copied_from_a_local_set_before_the_region(tmp_path, marker):
    """Probe 98 G4/G5: `i__1 = m;` (m = *n % 4 before the region: the unrolled BLAS cleanup) was
    refused as written inside the region, and `i__1 = *n;` under a CHiLL annotation too."""
    begin, end = ("#pragma scop", "#pragma endscop") if marker == "pragma" else \
        ('/*@ begin CHiLL ( unroll(0,"i__",2) ) @*/', "/*@ end @*/")
    text = ("typedef int integer;\ntypedef double doublereal;\n"
            "int cl_(integer *n, doublereal *da, doublereal *dx, doublereal *dy)\n{\n    integer i__1;\n"
            f"    integer i__, m;\n    --dy;\n    --dx;\n    m = *n % 4;\n{begin}\n    i__1 = m;\n"
            f"    for (i__ = 1; i__ <= i__1; ++i__) {{\n\tdy[i__] += *da * dx[i__];\n    }}\n{end}\n    return 0;\n}}\n")
    src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(text)
    rc, out, err = run_cli("deps", src)
    assert rc == 0 and "parameters: m" in out, out + err
    if marker == "pragma":
        _run_ok(tmp_path, text, "steps:\n  - unroll: {stmt: 0, loop: i__, factor: 2}\n", "-D", "m=7")


def test_a_loop_continued_after_a_loop_with_a_comma_list(tmp_path):
    """Probe 102 G1: SHA-256's schedule, `for (i = 0, j = 0; i < 16; ++i, j += 4)` then
    `for ( ; i < 64; ++i)`: the second loop's start was not found."""
    _run_ok(tmp_path, "void f(unsigned int *m, const unsigned char *data)\n{\n\tunsigned int i, j;\n#pragma scop\n"
            "\tfor (i = 0, j = 0; i < 16; ++i, j += 4)\n\t\tm[i] = data[j];\n\tfor ( ; i < 64; ++i)\n"
            "\t\tm[i] = m[i - 2] + m[i - 16];\n#pragma endscop\n}\n",
            "steps:\n  - unroll: {stmt: 1, loop: i, factor: 4}\n")


@pytest.mark.parametrize("ref,decl", [("((double (*)[16])p)[i][j]", "double (*v)[16] = (double (*)[16]) p;"),
                                      ("((double *)p)[i * 16 + j]", "double *v = (double *) p;")])
def test_an_array_indexed_through_a_cast_says_how_to_name_the_view(tmp_path, ref, decl):
    """Probe 99 G14: a cast indexed in the region got 'index a named array'."""
    src = tmp_path / "k.c"
    src.write_text("void kern(int n, void *p)\n{\n  int i, j;\n#pragma scop\n  for (i = 0; i < n; i++)\n"
                   f"    for (j = 0; j < 16; j++)\n      {ref} = 1.0;\n#pragma endscop\n}}\n")
    rc, _, err = run_cli("deps", src)
    assert rc == 2 and "an array indexed through a cast" in err and f"`{decl}`" in err, err


def test_registers_at_a_loop_that_indexes_the_array_names_the_loops_that_do_not(tmp_path):
    """Probe 96 G3: the hint said 'a loop that does not index C' without naming one."""
    src, rec = tmp_path / "mm.c", tmp_path / "r.yaml"
    src.write_text(MM_VLA)
    rec.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 8}\n  - tile: {stmt: 0, loop: j, size: 8}\n"
                   "  - tile: {stmt: 0, loop: k, size: 4}\n  - permute: {stmt: 0, order: [ii, jj, kk, i, j, k]}\n"
                   "  - registers: {stmt: 0, array: C, at: i}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec, "-D", "p=16")
    assert rc == 2 and "promote at a loop that does not index C: kk, k" in err, err


def test_the_shift_a_refused_fuse_suggests_is_on_the_loop_nearest_the_fused_one(tmp_path):
    """Probe 100 G4: the hint shifted the channel loop by 1 (a whole channel of the producer
    ahead), where `y` by 2 keeps producer and consumer two rows apart."""
    src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text("void f(int C, int H, int W, float in[C][H + 2][W], float bx[C][H + 2][W], float out[C][H][W])\n{\n"
                   "  int c, y, x;\n#pragma scop\n  for (c = 0; c < C; c++)\n    for (y = 0; y < H + 2; y++)\n"
                   "      for (x = 0; x < W; x++)\n        bx[c][y][x] = 2.0f * in[c][y][x];\n"
                   "  for (c = 0; c < C; c++)\n    for (y = 0; y < H; y++)\n      for (x = 0; x < W; x++)\n"
                   "        out[c][y][x] = bx[c][y][x] + bx[c][y + 1][x] + bx[c][y + 2][x];\n#pragma endscop\n}\n")
    rec.write_text("steps:\n  - fuse: {stmts: [0, 1], loop: x}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 2 and "the statements fuse after 'shift: {stmt: 1, loop: y, by: 2}' before this step" in err, err


def test_f2c_do_loop_of_a_variable_step_given_by_define(tmp_path):
    """Probe 98 G6: f2c's `for (j = 1; i__2 < 0 ? j >= i__1 : j <= i__1; j += i__2)` (DO with a
    step): with the step given, its sign picks the bound."""
    _run_ok(tmp_path, "void scal(int *n, int *nb, double *x)\n{\n  int i__1, i__2, j;\n  --x;\n#pragma scop\n"
            "  i__1 = *n;\n  i__2 = *nb;\n  for (j = 1; i__2 < 0 ? j >= i__1 : j <= i__1; j += i__2)\n    x[j] = 2. * x[j];\n"
            "#pragma endscop\n}\n", "steps:\n  - unroll: {stmt: 0, loop: j, factor: 2}\n", "-D", "nb__0=3", "-D", "n__0=20")


def test_a_bound_copied_from_array_data_gets_the_ell_hint(tmp_path):
    """Probe 102 G4: miniMD's `const int numneighs = numneigh[i];` as a bound said only that it
    was written in the region."""
    src = tmp_path / "k.c"
    src.write_text("void f(int n, const int *numneigh, const int *neighs, const double *x, double *f)\n{\n  int i, k;\n"
                   "#pragma scop\n  for (i = 0; i < n; i++) {\n    const int numneighs = numneigh[i];\n"
                   "    for (k = 0; k < numneighs; k++)\n      f[i] += x[neighs[i * 64 + k]];\n  }\n#pragma endscop\n}\n")
    rc, _, err = run_cli("deps", src)
    assert rc == 2 and "'numneighs' is set from array data: a loop bounded by array data" in err, err


def test_the_region_as_written_keeps_the_nests_own_parallel_pragma(tmp_path):
    """Probe 102 G7: the branch that runs the region as written (here where ldc < N) lost the
    `#pragma omp parallel for` the nest had, which moved into the transformed branch."""
    src, rec = tmp_path / "g.c", tmp_path / "r.yaml"
    src.write_text("void gemm_nn(int M, int N, int K, float ALPHA, float *A, int lda, float *B, int ldb, float *C, int ldc)\n"
                   "{\n    int i,j,k;\n    #pragma omp parallel for\n    for(i = 0; i < M; ++i){\n"
                   "        for(k = 0; k < K; ++k){\n            register float A_PART = ALPHA*A[i*lda+k];\n"
                   "            for(j = 0; j < N; ++j){\n                C[i*ldc+j] += A_PART*B[k*ldb+j];\n"
                   "            }\n        }\n    }\n}\n")
    rec.write_text("steps:\n  - unroll: {stmt: 1, loop: j, factor: 4}\n")
    rc, out, err = run_cli("transform", src, "--function", "gemm_nn", "--recipe", rec)
    assert rc == 0, err
    fallback = out.split("} else {", 1)[1]
    assert "#pragma omp parallel for\n" in fallback and "parallel for private(j, k, A_PART)" in out, out


def test_rows_left_of_four_dimensional_symbolic_arrays(tmp_path):
    """The rows-left analysis composed the moves of every dimension into a closure, which for
    NPB-style `u[nz][ny][nx][5]` did not finish; one pass, innermost dimension first."""
    src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text("void k(int nx, int ny, int nz, double u[nz][ny][nx][5], double r[nz][ny][nx][5], double f[nz][ny][nx][5])\n"
                   "{\n  int i, j, kk, m;\n#pragma scop\n  for (kk = 1; kk < nz; kk++)\n    for (j = 1; j < ny; j++)\n"
                   "      for (i = 1; i < nx; i++)\n        for (m = 0; m < 5; m++) {\n"
                   "          r[kk][j][i][m] = u[kk][j][i + 1][m] - u[kk][j][i - 1][m] + u[kk][j + 1][i][m] + u[kk - 1][j][i][m];\n"
                   "          f[kk][j][i][m] = r[kk][j][i][m] + f[kk][j][i + 1][m] + f[kk + 1][j][i][m];\n"
                   "        }\n#pragma endscop\n}\n")
    rec.write_text("steps:\n  - permute: {stmt: 0, order: [i, j, kk, m]}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 0 and "else" not in out, err


def test_a_condition_temporary_does_not_take_the_next_regions_number(tmp_path):
    """Probe 103 G2: region 0's condition temporary was S2, and so was region 1's first
    statement, which no recipe could then address."""
    src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text("void k(int n, double *x, double *y, double *z)\n{\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++)\n"
                   "    if (x[i] > 1.0) { x[i] = x[i] * 0.5; y[i] += x[i]; }\n#pragma endscop\n  z[0] = 1.0;\n#pragma scop\n"
                   "  for (i = 0; i < n; i++)\n    z[i] = y[i];\n#pragma endscop\n}\n")
    rc, out, err = run_cli("deps", src)
    numbers = [line.split()[0] for line in out.splitlines() if line.lstrip().startswith("S")]
    assert rc == 0 and numbers == ["S0", "S1", "S2", "S3"], out + err
    rec.write_text("steps:\n  - reverse: {stmt: 3, loop: i}\n")
    rc, _, err = run_cli("run", src, "--recipe", rec, "-D", "n=9")
    assert rc == 0, err


def test_a_pointer_set_after_the_region_that_a_backward_goto_brings_back(tmp_path):
    """Probe 103 G1: `q = x; if (--T > 0) goto L;` after the region, with `L:` before it, is a
    loop: q is x on the second pass, and a reversal computed something else."""
    src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text("void k(int n, int T, double *x, double *y)\n{\n    double *q = y; L: ;\n#pragma scop\n"
                   "    for (int i = 0; i < n; i++)\n        q[i] = x[i + 1] * 0.5;\n#pragma endscop\n"
                   "    q = x; if (--T > 0) goto L;\n}\n")
    rec.write_text("steps:\n  - reverse: {stmt: 0, loop: i}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 2 and "'q' points into 'x'" in err, err


def test_a_rows_left_fact_against_a_known_fact_is_a_refusal(tmp_path):
    """Probe 103 G7: `known: m >= 16` then a permute was made for m <= 15, checked as the output
    ran: the transformed code could never run, and nothing said so."""
    src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(ROW_OF_16)
    rec.write_text("steps:\n  - known: {facts: ['m >= 16']}\n  - permute: {stmt: 0, order: [j, i]}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 2 and "leaves its extent" in err and "step 2 (permute)" in err, err


ROW_OF_16 = """void f(int n, int m, double (*a)[16])
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      a[i][j + 1] = a[i][j] * 0.5 + 1.0;
#pragma endscop
}
"""


@pytest.mark.parametrize("bound,known,ok", [("4", "", True), ("k", "", False), ("k", ", 'k >= 1'", True)])
def test_lastprivate_of_a_value_written_in_an_inner_loop_that_always_runs(tmp_path, bound, known, ok):
    """Probe 103 G9: lastprivate was refused whenever the variable was written in an inner loop,
    even one of 4 iterations; only an inner loop that may run none leaves an iteration unwritten."""
    src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text("void lp(int n, int k, double A[n][8], double *out)\n{\n    double s = -1.0;\n#pragma scop\n"
                   f"    for (int i = 0; i < n; i++)\n        for (int j = 0; j < {bound}; j++) {{\n"
                   "            s = A[i][j] * 2.0;\n            A[i][j] = s;\n        }\n#pragma endscop\n    out[0] = s;\n}\n")
    rec.write_text(f"steps:\n  - known: {{facts: ['n >= 1'{known}]}}\n"
                   '  - pragma: {stmt: 0, loop: i, text: "omp parallel for lastprivate(s)"}\n')
    rc, out, err = run_cli("transform", src, "--recipe", rec)
    assert (rc == 0) == ok, err
    if not ok:
        assert "runs no iteration" in err, err


def test_run_of_a_region_that_reads_past_a_row_at_o3(tmp_path):
    """Probe 103 G3: `W[i][j][j + 2]` past its extent at j >= 4 (read only, which the model
    follows) is undefined in ISO C; gcc -O3 cut the original's and the variant's loops at points
    of their own, and run reported a wrong result for a right transform."""
    _run_ok(tmp_path, "#define P 6\nvoid ub(int n, int m, double W[n + 1][P][P], double H[n][P])\n{\n#pragma scop\n"
            "    for (int i = 0; i < n; i++)\n        for (int j = 0; j < m; j++)\n"
            "            H[i][j] = W[i][j][j + 2] * 0.5;\n#pragma endscop\n}\n",
            "steps:\n  - unroll: {stmt: 0, loop: i, factor: 5}\n", "-D", "n=8", "-D", "m=6")


def test_an_extent_the_region_does_not_read_is_said_to_be_assumed(tmp_path):
    """Probe 103 G6 / probe 99 G6: `A[..][m + 3]` with m read nowhere in the region was taken
    to hold `A[i][j + 1]` (j < n) without a word; with -D m it is checked."""
    src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text("void rl(int n, int m, double A[n + 1][m + 3])\n{\n#pragma scop\n    for (int i = 0; i < n; i++)\n"
                   "        for (int j = 0; j < n; j++)\n            A[i][j + 1] = A[i][j] * 0.5;\n#pragma endscop\n}\n")
    rec.write_text("steps:\n  - permute: {stmt: 0, order: [j, i]}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 0 and "the extent m of 'A' is a size the region does not read" in err, err
    rc, out, err = run_cli("transform", src, "--recipe", rec, "-D", "m=8")
    assert rc == 0 and "leaves its extent m + 3" in err and "else" in out, err


@pytest.mark.parametrize("outer", ["if (x[i] < 0.8) continue;\n        ", "if (x[i] > 0.8)\n        "])
def test_a_branch_that_changes_its_condition_inside_another_data_branch(tmp_path, outer):
    """Probe 103 G8: the condition of a nested branch that changes what it reads was not taken
    into a variable of its own, and the whole branch was refused with a wrong reason."""
    text = ("void f(int n, double *x, double *y, double *z)\n{\n#pragma scop\n    for (int i = 0; i < n; i++) {\n"
            f"        {outer}if (y[i] > 1.0) {{\n            y[i] = y[i] * 0.5;\n            z[i] += y[i];\n        }}\n"
            "    }\n#pragma endscop\n}\n")
    _run_ok(tmp_path, text, "steps:\n  - omp_for: {stmt: 0, loop: i}\n", "-D", "n=9")
    rc, out, err = run_cli("deps", tmp_path / "k.c")
    assert rc == 0 and [ln.split()[0] for ln in out.splitlines() if ln.lstrip().startswith("S")] == ["S0", "S1", "S2"], out


def test_the_cu_host_gives_back_a_bound_temporary_the_code_after_the_region_reads(tmp_path):
    """Probe 98 G1/G9 on CUDA: `lim = *n - 1;` in the region, `return lim;` after it: the .cu
    set lim in a one-thread kernel and kept it on the device, so the caller's lim was unset."""
    src, rec, out = tmp_path / "k.c", tmp_path / "r.yaml", tmp_path / "k.cu"
    src.write_text("int scale(int *n, double *x)\n{\n  int lim, i;\n#pragma scop\n  lim = *n - 1;\n"
                   "  for (i = 0; i < lim; i++)\n    x[i] = x[i] * 2.;\n#pragma endscop\n  return lim;\n}\n")
    rec.write_text("steps:\n  - tile: {stmt: 1, loop: i, size: 32, control: ii}\n"
                   "  - cuda: {stmt: 1, block: [ii], thread: [i]}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda", "-o", out)
    assert rc == 0 and "int scale_host_status(int n__0, double *__restrict__ x, int *__restrict__ lim)" in out.read_text(), err


def test_the_fuse_of_loops_of_two_directions_names_both_reversals(tmp_path):
    """Probe 103 G11: after `reverse stmt 1`, the fuse's hint was to reverse statement 1, the
    step the user had just written; either reversal aligns them."""
    src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text("void f(int n, double *a, double *b)\n{\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++)\n"
                   "    a[i] = 2.0 * a[i];\n  for (i = 0; i < n; i++)\n    b[i] = b[i] + 1.0;\n#pragma endscop\n}\n")
    rec.write_text("steps:\n  - reverse: {stmt: 1, loop: i}\n  - fuse: {stmts: [0, 1], loop: i}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 2 and "reverse {stmt: 1, loop: i} or reverse {stmt: 0, loop: i}" in err, err
