"""Gaps found by the probes (left open by earlier sessions), each checked end to end."""
import pytest

from conftest import case_files, run_cli, runs_ok

pytestmark = pytest.mark.usefixtures("private_build_cache")


TRIANGLE_WITH_TAIL = """void f(int n, double A[n][n], double *B, double *s)
{
#pragma scop
  for (int i = 0; i < n; i++) {
    for (int j = 0; j <= i; j++)
      A[i][j] = A[i][j] + B[j] * 0.5;
    s[i] = A[i][i] * 2.0 + s[i];
  }
#pragma endscop
}
"""


def test_unrolled_copies_cover_a_point_loop_isl_prints_wide(tmp_path):
    """Probe 116 G1: under a tile of i, unrolls of j, the tile loop and i, isl printed j's point
    loop (its control loop folded away) from n - 12, with the rest of its bounds as a guard
    inside; the four copies counted from that start missed the rows past them (A[16][16] at
    n = 18).  Such a loop now steps by the factor over its whole range."""
    src, rec = case_files(tmp_path, TRIANGLE_WITH_TAIL,
                          "steps:\n  - tile: {stmt: 0, loop: i, size: 4, control: ii}\n"
                          "  - unroll: {stmt: 0, loop: j, factor: 4}\n  - unroll: {stmt: 0, loop: ii, factor: 4}\n"
                          "  - unroll: {stmt: 0, loop: i, factor: 3}\n")
    runs_ok(src, rec, (18, 7), "--function", "f")   # 18 missed rows; 7 leaves remainders of the unrolls by 4 and 3
    rc, out, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 0, err
    assert "j += 4" in out and "j' " not in out, out


ORIO_TRMV = """#define N {n}
double L[N][N], x[N], y[N];
void f(void) {{
int i, j;
/*@ begin Loop(
  transform Composite(permut = [['j','i']])
  transform UnrollJam(ufactor=2)
  for (i = 0; i <= N-1; i++)
    transform Unroll(ufactor=2)
    for (j = i; j <= N-1; j++)
      y[i] = y[i] + L[i][j] * x[j];
) @*/
  for (i = 0; i <= N-1; i++)
    for (j = i; j <= N-1; j++)
      y[i] = y[i] + L[i][j] * x[j];
/*@ end @*/
}}
"""


@pytest.mark.parametrize("n", [5, 6, 12])
def test_orio_unrolljam_kept_apart_then_permuted_jams_inside(tmp_path, n):
    """Probe 118 G2: Orio's unrolljam keeps a loop whose bounds read the unrolled counter
    apart (its copies one after another); the permutation then moved `i` inside `j`, past
    its own unrolled copies, which ran over every `i` as one strip of two.  The copies now
    move with their loop (jammed inside `j`); an unrolled loop that isl prints in pieces is
    cleaned up per piece."""
    src = tmp_path / "k.c"
    src.write_text(ORIO_TRMV.format(n=n))
    rc, out, err = run_cli("run", src, "-D", f"N={n}")
    assert rc == 0 and ": ok" in out, out + err
    rc, out, err = run_cli("transform", src, "-D", f"N={n}")
    assert rc == 0 and "if (1)" not in out and "if (0)" not in out and "c5" not in out, out


BLOCK_AFTER_SCALAR = """double x[100], y[100], s, t;
void f(void) {{
  int i;
/*@ begin CHiLL (
  {first}
) @*/
  s = 0.0;
  for (i = 0; i < 100; i++)
    x[i] = 2.0 * y[i];
/*@ end @*/
/*@ begin CHiLL (
  {second}
) @*/
  t = 1.0;
  for (i = 0; i < 100; i++)
    y[i] = y[i] + t;
/*@ end @*/
}}
"""


@pytest.mark.parametrize("first, second", [('unroll(1,"i",4)', 'unroll(3,"i",2)'),
                                           ('unroll(0,"i",4)', 'unroll(1,"i",2)'),
                                           ('unroll(1,"i",4)', 'unroll(0,"i",2)')])
def test_a_block_that_opens_with_a_scalar_statement_counts_it(tmp_path, first, second):
    """Probe 118 G1: a block's commands count within its first loop nest, as CHiLL's loop(0);
    after a statement outside every loop (`s = 0.0;`), `unroll(1,"i",4)` (the file's and the
    block's count) went to a statement 2 that is not there.  Where the nest's count names no
    statement with the loop, the block's or the file's count is read."""
    src = tmp_path / "k.c"
    src.write_text(BLOCK_AFTER_SCALAR.format(first=first, second=second))
    rc, out, err = run_cli("transform", src)
    assert rc == 0, err
    assert "unroll: {stmt: 1, loop: i, factor: 4}" in out and "unroll: {stmt: 3, loop: i, factor: 2}" in out, out
    assert "x[i + 3] = 2.0 * y[i + 3];" in out and "y[i + 1] = y[i + 1] + t;" in out, out


def _annotated(perf: str, inputs: str, commands: str) -> str:
    """A PerfTuning file around a CHiLL block doubling `a[i]`."""
    return ("/*@ begin PerfTuning (\n  def performance_params { " + perf + " }\n  def input_params { " + inputs
            + " }\n  def input_vars { decl static double a[N] = random; }\n"
            "  def search { arg algorithm = 'Exhaustive'; }\n) @*/\nint i;\n/*@ begin CHiLL (\n" + commands
            + "\n) @*/\nfor (i = 0; i < N; i++)\n  a[i] = 2.0 * a[i];\n/*@ end @*/\n/*@ end @*/\n")


def test_a_step_refused_at_a_later_problem_size_stops_the_search_before_measuring(tmp_path):
    """Probe 118 G3: with `N[] = [64, 66]` and `known(N % 4 == 0)`, N = 64 was measured, then
    the fact refused at N = 66 ended the search with no best file; a step that refuses a size
    whatever the point is bad input, said before any size is measured."""
    src = tmp_path / "k.c"
    src.write_text(_annotated("param U[] = [1, 4];", "param N[] = [64, 66];", '  known(N % 4 == 0)\n  unroll(0,"i",U)'))
    rc, out, err = run_cli("search", src, "--no-progress")
    assert rc == 2 and "N=66" in err and "known" in err and len(err.strip().splitlines()) == 1, err
    assert "looptx search" not in out, out          # no size was searched


def test_a_wrong_result_that_minus_o1_does_not_give_blames_the_optimisation(tmp_path):
    """Probe 117 G1: gcc 12.2's -O3 vectorizer miscompiles a correct unrolled variant of
    `B[i + 1][j + 1] = B[i][j] + A[i][j]`; `run` said wrong_result as if the transformation
    were wrong.  The variant built with -O1 is checked too, and the error says which."""
    from looptx.runtime.cpu import Toolchain
    from looptx.runtime.evaluators import CPayload
    from looptx.runtime.run_once import _at_o1
    from looptx.search.evaluate import Measurement
    built = []

    class Ev:
        def measure(self, prepared):
            built.append(prepared.payload.toolchain.flags)
            return Measurement(status="ok", time=1e-6) if "-O1" in prepared.payload.toolchain.flags \
                else Measurement(status="wrong_result", error="wrong")
    payload = CPayload("src", None, Toolchain("gcc", ("-O3", "-march=native")))
    text = _at_o1(Ev(), payload, "wrong result in 'B'")
    assert built == [("-march=native", "-O1")]
    assert text.startswith("wrong result in 'B'; built with -O1 instead of -O3, the same code gives the right result")
    assert _at_o1(Ev(), CPayload("src", None, Toolchain("gcc", ("-O1",))), "wrong") == "wrong"


GCC12_MISCOMPILES = """#include <stdio.h>
#define N 5
static double A[N + 4][N + 4], B[N + 4][N + 4];
__attribute__((noinline)) void f(void)
{
  for (int i = 1; i < N; i++)
    for (int j = 1; j < N - 1; j++)
      B[i + 1][j + 1] = B[i][j] + A[i][j];
}
int main(void)
{
  for (int i = 0; i < N + 4; i++)
    for (int j = 0; j < N + 4; j++) { A[i][j] = i + 0.5 * j; B[i][j] = 3 * i - j; }
  f();
  double s = 0;
  for (int i = 0; i < N + 4; i++)
    for (int j = 0; j < N + 4; j++) s += B[i][j] * (i * 7 + j + 1);
  printf("%.17g", s);
  return 0;
}
"""


def test_run_names_a_compiler_that_miscompiles_the_variant(tmp_path):
    """The same, end to end, where this machine's gcc has the bug (Debian 12's gcc 12.2 has)."""
    import shutil
    import subprocess
    if shutil.which("gcc") is None:
        pytest.skip("needs gcc on PATH (CI has it): builds a probe program to see whether this gcc has the bug")
    probe = tmp_path / "t.c"
    probe.write_text(GCC12_MISCOMPILES)
    sums = []
    for opt in ("-O1", "-O3"):
        subprocess.run(["gcc", opt, str(probe), "-o", str(tmp_path / "t")], check=True)
        sums.append(subprocess.run([str(tmp_path / "t")], capture_output=True, text=True).stdout)
    if sums[0] == sums[1]:
        pytest.skip("this gcc's -O3 computes the probe loop as its -O1 does (its vectorizer bug is fixed), so "
                    "no variant is miscompiled here; test_a_wrong_result_that_minus_o1 covers the check")
    src, rec = case_files(tmp_path, "void f(int n, double A[n + 4][n + 4], double B[n + 4][n + 4])\n{\n  int i, j;\n"
                          "#pragma scop\n  for (i = 1; i < n; i++)\n    for (j = 0; j < n; j++)\n"
                          "      B[i + 1][j + 1] = B[i][j] + A[i][j];\n#pragma endscop\n}\n",
                          "steps:\n  - unroll: {stmt: 0, loop: j, factor: 4}\n")
    rc, out, err = run_cli("run", src, "--function", "f", "--recipe", rec, "-D", "n=33")
    assert rc == 1 and "built with -O1 instead of -O3, the same code gives the right result" in out, out + err


def test_a_search_of_one_size_keeps_the_other_sizes_in_the_best_file(tmp_path):
    """Probe 118 G5: `search -D N=80` after a search of N[] = [64, 80] wrote a best file with
    N = 80 alone: the tuned N = 64 variant was gone, though the database still held it."""
    src = tmp_path / "k.c"
    src.write_text(_annotated("param U[] = [1, 4];", "param N[] = [64, 80];", '  unroll(0,"i",U)'))
    rc, out, err = run_cli("search", src, "--no-progress")
    assert rc == 0, out + err
    rc, out, err = run_cli("search", src, "--no-progress", "-D", "N=80", "--resume", "--budget", "2")
    assert rc == 0, out + err
    best = (tmp_path / "k.best.c").read_text()
    assert "if (N == 80) {" in best and "else if (N == 64) {" in best, best
    # so does the best file a Ctrl-C writes
    import looptx.search.driver as driver

    def interrupted(*a, **k):
        raise KeyboardInterrupt
    saved, driver.run_search = driver.run_search, interrupted
    try:
        rc, out, err = run_cli("search", src, "--no-progress", "-D", "N=80", "--resume", "--budget", "3")
    finally:
        driver.run_search = saved
    best = (tmp_path / "k.best.c").read_text()
    assert rc == 130 and "if (N == 80) {" in best and "else if (N == 64) {" in best, out + err + best
    # the sizes searched before the code changed are not mixed in
    src.write_text(src.read_text().replace("2.0 * a[i]", "3.0 * a[i]"))
    rc, out, err = run_cli("search", src, "--no-progress", "-D", "N=96")
    best = (tmp_path / "k.best.c").read_text()
    assert rc == 0 and "N == 96" in best and "N == 64" not in best and "N == 80" not in best, out + err + best


def test_run_gives_a_chill_blocks_remedy_in_its_own_dialect(tmp_path):
    """Probe 118 G6: `transform` suggested `distribute([1],"i")` for a CHiLL block's permute,
    `run` the YAML step, which cannot be pasted into the block."""
    src = tmp_path / "k.c"
    src.write_text("""#define N 32
double A[N][N], B[N][N], C[N][N];
void f(void) {
  int i, j, k;
/*@ begin CHiLL (
  tile(1,"k",8,"kk")
  permute(1,("kk","i","k","j"))
) @*/
  for (i = 0; i < N; i++) {
    for (j = 0; j < N; j++)
      C[i][j] = 0.9 * C[i][j];
    for (k = 0; k < N; k++)
      for (j = 0; j < N; j++)
        C[i][j] += A[i][k] * B[k][j];
  }
/*@ end @*/
}
""")
    for cmd in ("transform", "run"):
        rc, out, err = run_cli(cmd, src)
        assert rc == 2 and '(distribute([1],"i"))' in err and "{stmts" not in err, (cmd, err)


def test_a_refused_resume_names_every_change_at_once(tmp_path):
    """Probe 118 G7: with both a param's values and a constraint edited, the refusal named the
    values only; after fixing them, the next run named the constraint."""
    src = tmp_path / "k.c"
    text = _annotated("param U[] = [1, 2]; param V[] = [1, 2]; constraint c1 = (U * V <= 4);", "param N = 64;",
                      '  unroll(0,"i",U)')
    src.write_text(text)
    rc, out, err = run_cli("search", src, "--no-progress", "--budget", "2")
    assert rc == 0, out + err
    src.write_text(text.replace("[1, 2]; constraint c1 = (U * V <= 4)", "[1, 2, 3]; constraint c1 = (U * V <= 2)"))
    rc, out, err = run_cli("search", src, "--no-progress", "--resume", "--budget", "3")
    assert rc == 2 and "the values of V changed" in err and "constraint c1 was" in err, err


TRANSPOSE = """#define N 1000
float out[N * N], in[N * N];
void transpose(void)
{
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      out[j * N + i] = in[i * N + j];
}
"""


def test_lua_tables_with_bracketed_keys_and_joined_strings(tmp_path):
    """Probe 120 G1: `{out=N*N,["in"]=N*N}` (the only way to size an array named `in`, a Lua
    keyword) and `"transpose" .. "_GPU"` were a syntax error."""
    (tmp_path / "tr.c").write_text(TRANSPOSE)
    (tmp_path / "tr.lua").write_text(
        'init("tr.c", "transpose", 0)\ndofile("cudaize.lua")\nN=1000\nTI=32\n'
        'tile_by_index({"i","j"},{TI,TI},{l1_control="ii",l2_control="jj"},{"ii","jj","i","j"})\n'
        'cudaize("transpose" .. "_GPU",{out=N*N,["in"]=N*N},{block={"ii","jj"}, thread={"j","i"}})\n')
    rc, out, err = run_cli("transform", tmp_path / "tr.c", "--recipe", tmp_path / "tr.lua", "--target", "cuda")
    assert rc == 0 and "transpose_GPU" in out, err
    rc, out, err = run_cli("run", tmp_path / "tr.c", "--recipe", tmp_path / "tr.lua", "-D", "N=77")
    assert rc == 0 and ": ok" in out, out + err


def test_a_grid_past_cudas_limit_on_y_is_refused_at_the_step(tmp_path):
    """Probe 120 G2: 100000 rows on blockIdx.y (CUDA allows 65535) were launched as written."""
    src, rec = case_files(tmp_path, "void scale(int n, int m, float a, float X[n][m], float Y[n][m])\n{\n  int i, j;\n"
                          "#pragma scop\n  for (i = 0; i < n; i++)\n    for (j = 0; j < m; j++)\n"
                          "      Y[i][j] = a * X[i][j] + Y[i][j];\n#pragma endscop\n}\n",
                          "steps:\n  - tile: {stmt: 0, loop: j, size: 32, control: jj}\n"
                          "  - permute: {stmt: 0, order: [i, jj, j]}\n  - cuda: {stmt: 0, block: [jj, i], thread: [j]}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda", "-D", "n=100000", "-D", "m=64")
    assert rc == 2 and "gridDim.y" in err and "100000" in err, err
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda", "-D", "n=65535", "-D", "m=64")
    assert rc == 0, err


def test_a_kernel_scalar_set_outside_the_thread_loop_suggests_privatize(tmp_path):
    """Probe 120 G3: the refusal suggested a distribute that is itself illegal (the scalar's
    WAR) and not the privatize that makes the recipe legal."""
    src, rec = case_files(tmp_path, "void bt(int n, int m, float alpha, float x[n], float A[n][m], float Y[n][m])\n"
                          "{\n  int i, j;\n  float s;\n#pragma scop\n  for (i = 0; i < n; i++) {\n"
                          "    s = alpha * x[i];\n    for (j = 0; j < m; j++)\n"
                          "      Y[i][j] = s * A[i][j] + Y[i][j];\n  }\n#pragma endscop\n}\n",
                          "steps:\n  - tile: {stmt: 1, loop: j, size: 64, control: jj}\n"
                          "  - cuda: {stmt: 1, block: [i], thread: [j]}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda")
    assert rc == 2 and "privatize {var: s, at: i} first" in err, err
    rec.write_text("steps:\n  - privatize: {var: s, at: i}\n" + rec.read_text()[len("steps:\n"):])
    runs_ok(src, rec, (37,), "-D", "m=70")


ORIO_HEADER = """#define N 9
double A[N][N], B[N][N], y[N + 2];
void kern(void) {{
  int i, j;
/*@ begin Loop(
{body}
) @*/
/*@ end @*/
}}
"""


@pytest.mark.parametrize("body", [
    # G1: the registers steps of scalarreplace, both left out (each array varies with j)
    """  transform Composite(scalarreplace = (True,'double'))
  for (i = 0; i <= N-1; i++)
    for (j = 0; j <= N-1; j++)
      A[i][j] = A[i][j] + B[j][i];""",
    # G2: an unroll whose inner loop reads the counter is not jammed
    """  transform Unroll(ufactor=2)
  for (i = 0; i <= N-1; i++) {
    for (j = i; j <= i+1; j++)
      y[i] = y[i] + y[j];
    y[j] = y[j] * 0.5;
  }""",
])
def test_an_orio_header_given_back_as_a_recipe_gives_the_same_code(tmp_path, body):
    """Probe 119 G1, G2: the header listed register steps that were left out, and wrote Orio's
    unjammed unroll as a plain (jamming) one; given back with --recipe, both were refused."""
    src = tmp_path / "k.c"
    loop = body.split("\n", 1)[1]
    src.write_text(ORIO_HEADER.format(body=body).replace("/*@ end @*/", loop.replace("  ", "", 1) + "\n/*@ end @*/"))
    rc, first, err = run_cli("transform", src)
    assert rc == 0, err
    head = first.split("*/", 1)[0]
    steps = [ln.strip(" *") for ln in head.splitlines()[3:] if ln.strip(" *")]
    rec = tmp_path / "r.yaml"
    rec.write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps) if steps else "steps: []\n")
    rc, again, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 0, err
    assert again.split("*/", 1)[1] == first.split("*/", 1)[1]


def test_header_params_are_yaml(tmp_path):
    """Probe 119 G4: a tuple param (SPAPT's permutations) and a string with `:` made the
    header's params line YAML that does not read back."""
    from looptx.recipe.schema import Recipe, load_yaml
    r = Recipe((), bindings=(("CF", "x: y, z"), ("PERM", ("j", "i")), ("U", 4)))
    line = r.describe()
    assert line == 'params: {CF: "x: y, z", PERM: [j, i], U: 4}'
    back = load_yaml(line + "\nsteps: []\n", file="r.yaml")
    assert dict(back.params) == {"CF": "x: y, z", "PERM": ["j", "i"], "U": 4}


ORIO_J = """#define N 7
#define M 9
double B[M][N], C[N][M];
void kern(void) {{
  int i, j;
/*@ begin Loop(
  transform Composite(permut = [{perm}]{extra})
  for (i = 0; i <= N-1; i++)
    transform Unroll(ufactor=4)
    for (j = 0; j <= M-1; j++)
      B[j][i] = B[j][i] + C[i][j];
) @*/
  for (i = 0; i <= N-1; i++)
    for (j = 0; j <= M-1; j++)
      B[j][i] = B[j][i] + C[i][j];
/*@ end @*/
}}
"""


@pytest.mark.parametrize("perm, extra, said", [
    # G3: Unroll 4 times regtile 3 reach j's 9 iterations: unrolled fully before the permut
    ("['j','i']", ", regtile = (['j'],[3])", "the annotation unrolls 'j' by 12 in all"),
    # G5: a tile of j by its own unroll step is left out, as Orio does, and the permut named it
    ("['jj','i','j']", ", tile = [('j',4,'jj')]", "the tile ('j', 4, 'jj') is left out"),
])
def test_orio_refusals_name_the_annotations_own_transforms(tmp_path, perm, extra, said):
    """Probe 119 G3, G5: the refusals named a factor (12) and a step order the Orio user never
    wrote, or contradicted the annotation (no loop 'jj')."""
    src = tmp_path / "k.c"
    src.write_text(ORIO_J.format(perm=perm, extra=extra))
    rc, out, err = run_cli("run", src)
    assert rc == 2 and said in err and len(err.strip().splitlines()) == 1, err
