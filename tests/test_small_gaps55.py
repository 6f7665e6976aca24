"""Gaps found by the probes of session 55 (and left open by earlier ones), each checked end to end."""
import shutil
import subprocess

import pytest

from conftest import run_cli
from test_small_gaps53 import _run_ok

pytestmark = pytest.mark.usefixtures("private_build_cache")


def test_a_shift_by_a_defined_count_is_a_constant(tmp_path):
    """Probe 106 G1: NPB EP's `#define NK (1 << MK)` bound was a non-affine shift."""
    text = ("#define MK 4\n#define NK (1 << MK)\ndouble x[NK];\nvoid f(void)\n{\n  int i;\n#pragma scop\n"
            "  for (i = 0; i < NK; i++)\n    x[i] = 2.0 * x[i];\n#pragma endscop\n}\n")
    _run_ok(tmp_path, text, "steps:\n  - unroll: {stmt: 0, loop: i, factor: 3}\n")
    src = tmp_path / "v.c"
    src.write_text(text.replace("#define MK 4\n", "").replace("void f(void)", "void f(int MK)"))
    rc, _, err = run_cli("deps", src)
    assert rc == 2 and "non-affine shift" in err and "--define" in err, err
    rc, out, err = run_cli("deps", src, "-D", "MK=3")
    assert rc == 0 and "S0" in out, err


CLOVER = """void k2(int n, int m, double dt, double a[n][m], double b[n][m])
{
  double t, h;
  int j, k;
  h = 0.5 * dt;
#pragma omp parallel
 {
#pragma omp for private(t, j)
  for (k = 0; k < n; k++) {
    for (j = 0; j < m; j++) {
      t = a[k][j] * h;
      b[k][j] = t + 1.0;
    }
  }
 }
}
"""


def test_a_function_whose_loops_are_an_openmp_team_keeps_the_team(tmp_path):
    """Probe 106 G2: `--function` of a CloverLeaf-style kernel took the team pragma into the
    region and dropped it (the output ran in one thread); the loops inside the team are the
    region now, the scalar statement before it a region of its own."""
    src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(CLOVER)
    rec.write_text("steps:\n  - tile: {stmt: 1, loop: j, size: 8}\n")
    rc, out, err = run_cli("transform", src, "--function", "k2", "--recipe", rec)
    assert rc == 0, err
    assert out.count("#pragma omp parallel") == 1 and "#pragma omp for private(j, t)" in out, out
    assert out.index("#pragma omp parallel") < out.index("#pragma omp for") < out.index("jj"), out
    assert "h = 0.5 * dt;" in out
    rc, out, err = run_cli("run", src, "--function", "k2", "--recipe", rec, "-D", "n=37", "-D", "m=29",
                           "--cflags", "-O2 -fopenmp")
    assert rc == 0 and out.count(": ok") == 2, out + err


JAM_PEEL = """void kernel(int n, int m, double A[n + m + 8][m + 3], double T[n + m + 8][m + 3],
            double G[n + m + 8][12], double x[2 * n + 2 * m + 8])
{
#pragma scop
    for (int i = 0; i < n; i += 2) {
        for (int j = i; j < m; j++) {
            double u1 = x[j];
            if (u1 > 1.0) u1 = u1 - 0.5;
            x[i] = u1 * x[j + 3];
            if (G[i + 2][j + 1] > 1.0)
                A[i + 1][j + 3] = 0.5 * T[j + 1][j > 0 ? j - 1 : 0];
            else
                A[i + 1][j + 3] = G[i][j + 3] + 0.25;
        }
    }
#pragma endscop
}
"""


def test_a_peel_after_a_jam_of_a_loop_local_is_generated(tmp_path):
    """Probe 103 G12: the check that a jammed local's objects keep apart compared pairs of
    instances over a schedule of many pieces (minutes), and separating the jam's full tiles
    then outgrew isl's budget: the unrolled copies keep their guards instead."""
    recipe = ("steps:\n  - unroll_jam: {stmt: 1, loop: i, factor: 3}\n  - permute: {stmt: 1, order: [i, j]}\n"
              "  - tile: {stmt: 3, loop: j, size: 16}\n  - known: {facts: ['n >= m']}\n"
              "  - peel: {stmt: 2, loop: j, first: 3}\n")
    # n = 13: the jam of 3 leaves a remainder of i, the tile of 16 a partial tile of j
    _run_ok(tmp_path, JAM_PEEL, recipe, "-D", "n=13", "-D", "m=11")
    out = tmp_path / "o.c"
    rc, _, err = run_cli("transform", tmp_path / "k.c", "--recipe", tmp_path / "r.yaml", "-o", out)
    assert rc == 0 and "keep a guard on each copy" in err, err
    _compiles_clean(tmp_path, out)


def test_run_does_not_blame_the_variant_for_an_original_that_fails_at_the_same_flags(tmp_path):
    """Probe 105 G1: gcc 12's -O3 vectorizer gets `b[i][j] = b[i-1][j-1] + 1` wrong at even n;
    run blamed the (unchanged) variant with wrong_result.  Where the compiler gets it right,
    this is ok; where not, the original is said to fail at these flags."""
    text = ("void lgb(int n, double b[n][n]) {\n  int i, j;\n#pragma scop\n  for (i = 1; i < n; i++)\n"
            "    for (j = 1; j < n; j++)\n      b[i][j] = b[i - 1][j - 1] + 1.0;\n#pragma endscop\n}\n")
    src = tmp_path / "lgb.c"
    src.write_text(text)
    for n in ("4", "8"):
        rc, out, err = run_cli("run", src, "-D", f"n={n}")
        assert "wrong_result" not in out + err, out + err
        assert (rc == 0 and ": ok" in out) or (rc == 1 and "original region built with these flags fails" in out), out


def test_report_exports_never_overwrite_the_searched_files(tmp_path, monkeypatch):
    """Probe 105 G3: `report DB --csv FILE.c` replaced the annotated source with CSV."""
    from test_small_gaps54 import ALL_REJECTED
    monkeypatch.chdir(tmp_path)
    src = tmp_path / "ax.c"
    src.write_text(ALL_REJECTED % "T")
    rc, _, err = run_cli("search", "ax.c", "--budget", "2")
    assert rc == 0, err
    before = src.read_text()
    for args, what in ((("--csv", "ax.c"), "the searched input file"), (("--json", "ax.best.c"), "best variant"),
                       (("--csv", "o.csv", "--json", "o.csv"), "the file --csv writes")):
        rc, _, err = run_cli("report", "ax.looptx.db", *args)
        assert rc == 2 and what in err and len(err.strip().splitlines()) == 1, err
    assert src.read_text() == before
    rc, out, _ = run_cli("report", "ax.looptx.db", "--csv", "o.csv")
    assert rc == 0 and "written to o.csv" in out


MM = """void mm(int N, float A[N][N], float B[N][N], float C[N][N]) {
  int i, j, k;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        C[i][j] = C[i][j] + A[i][k] * B[k][j];
#pragma endscop
}
"""


def test_a_one_entry_in_a_cuda_mapping_holds_its_axis(tmp_path):
    """Probe 105 G4: `block: ["1", i]` dropped the "1" and put i on x; the contract makes it
    an axis of extent 1, so i is on y (and 4 entries are refused)."""
    recipe = ("steps:\n  - tile: {stmt: 0, loop: i, size: 8}\n  - tile: {stmt: 0, loop: j, size: 4}\n"
              "  - permute: {stmt: 0, order: [ii, jj, i, j, k]}\n"
              "  - cuda: {stmt: 0, block: [jj, \"1\", ii], thread: [\"1\", j, i]}\n")
    src, rec = _run_ok(tmp_path, MM, recipe, "-D", "N=37")
    out = tmp_path / "mm.cu"
    rc, _, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda", "-D", "N=37", "-o", out)
    assert rc == 0, err
    cu = out.read_text()
    assert "bx = blockIdx.x, bz = blockIdx.z" in cu and "ty = threadIdx.y, tz = threadIdx.z" in cu, cu
    assert "lx_g0 = 10, lx_g1 = 1, lx_g2 = 5" in cu and "dim3(1, 4, 8)" in cu, cu
    if shutil.which("nvcc"):
        cc = subprocess.run(["nvcc", "-c", "-o", str(tmp_path / "mm.o"), str(out)], capture_output=True, text=True)
        assert cc.returncode == 0, cc.stderr
    rec.write_text("steps:\n  - cuda: {stmt: 0, block: [\"1\", \"1\", \"1\", i], thread: [j]}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda", "-D", "N=64")
    assert rc == 2 and "at most 3 block" in err, err
    rec.write_text("steps:\n  - cuda: {stmt: 0, block: [i], thread: [\"1\", \"1\", j]}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda", "-D", "N=128")
    assert rc == 2 and "blockDim.z" in err, err


TWO_BLOCKS = """#define N 64
double a[N], x[N], y[N];
void k(void) {
  int i;
/*@ begin CHiLL (
  unroll(0,"i",2)
) @*/
  for (i = 0; i < N; i++)
    a[i] = a[i] + 1.0;
/*@ end @*/
/*@ begin CHiLL (
  unroll(%s,"i",4)
) @*/
  for (i = 0; i < N; i++)
    x[i] = x[i] * 2.0;
  for (i = 0; i < N; i++)
    y[i] = y[i] * 3.0;
/*@ end @*/
}
"""


@pytest.mark.parametrize("stmt,unrolled,note", [(1, "x[i + 3]", True), (2, "y[i + 3]", False), (0, "x[i + 3]", False)])
def test_a_second_chill_block_reads_the_files_statement_numbers_first(tmp_path, stmt, unrolled, note):
    """Probe 105 G2: in a block whose statements are S1 and S2, `unroll(1, ...)` took the
    block's own count (S2); the contract's file numbering names S1, and wins, with a note."""
    src = tmp_path / "k.c"
    src.write_text(TWO_BLOCKS % stmt)
    rc, out, err = run_cli("transform", src)
    assert rc == 0 and unrolled in out, out + err
    assert ("counted from 0 within the block" in err) == note, err
    # the header shows the file's numbers: given again as a recipe, it does the same
    head = out.split("*/")[0]
    assert f"unroll: {{stmt: {stmt if stmt else 1}, loop: i, factor: 4}}" in head, head


def test_a_script_for_a_procedure_takes_the_files_numbers_too(tmp_path):
    """Probe 105 G2: a script counts from its procedure's first statement; the file's numbers
    (the contract's) were refused as 'numbered 0..1 in file order', and the header showed the
    script's numbers, which given back as a recipe named other statements."""
    src = tmp_path / "multi.c"
    src.write_text("void f1(int n, double *a) {\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++)\n"
                   "    a[i] = a[i] + 1.0;\n#pragma endscop\n}\n"
                   "void f2(int n, double *x, double *y) {\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++)\n"
                   "    x[i] = 2.0 * y[i];\n  for (i = 1; i < n; i++)\n    y[i] = y[i] + x[i];\n#pragma endscop\n}\n")
    outs = []
    for stmts in ("[0,1]", "[1,2]"):
        script = tmp_path / "f2.script"
        script.write_text(f"source: multi.c\nprocedure: f2\nloop: 0\nfuse({stmts},1)\n")
        rc, out, err = run_cli("transform", src, "--recipe", script)
        assert rc == 0, err
        assert "fuse: {stmts: [1, 2], level: 1}" in out.split("*/")[0], out
        outs.append(out.split("*/", 1)[1])
    assert outs[0] == outs[1] and outs[0].count("for (i = ") == 2, outs[0]
    script.write_text("source: multi.c\nprocedure: f2\nloop: 0\nfuse([0,5],1)\n")
    rc, _, err = run_cli("transform", src, "--recipe", script)
    assert rc == 2 and "numbered 0..1 within the procedure (1..2 in the file)" in err, err


def test_a_statement_list_header_given_again_does_the_same(tmp_path):
    """Probe 107 G1: the second statement of `permute([0,1],pi)` in one nest is passed over
    (the first's step moved it); the header says so, and given again as a recipe does the same."""
    src, script = tmp_path / "two.c", tmp_path / "one.chill"
    src.write_text("#define N 64\ndouble a[N][N], b[N][N];\nvoid k(void) {\n  int i, j;\n#pragma scop\n"
                   "  for (i = 1; i < N; i++)\n    for (j = 0; j < N; j++) {\n      a[i][j] = a[i][j] + 1.0;\n"
                   "      b[i][j] = b[i][j] * 2.0;\n    }\n#pragma endscop\n}\n")
    script.write_text("permute([0,1],[2,1])\n")
    rc, out, err = run_cli("transform", src, "--recipe", script)
    assert rc == 0 and "listed_after: [-1]" in out and "listed before it" in err, out + err
    head, body = out.split("*/", 1)
    back = tmp_path / "back.yaml"
    back.write_text("steps:\n" + "".join(f"  - {ln.strip(' *')}\n" for ln in head.splitlines() if ": {stmt" in ln))
    rc, again, err = run_cli("transform", src, "--recipe", back)
    assert rc == 0 and again.split("*/", 1)[1] == body, err
    assert body.index("for (j = ") < body.index("for (i = "), body


def test_small_interface_gaps_of_the_contract_audit(tmp_path, monkeypatch):
    """Probe 105 G6-G8: a misspelt `known` argument was parsed as a fact ('fact m >= 16');
    --show-steps wrote its trees into the code on stdout; --csv --json both went to stdout;
    CHiLL's identity skew([0],1,[1]) was refused with 'got {}'."""
    from test_small_gaps54 import ALL_REJECTED
    monkeypatch.chdir(tmp_path)
    src = tmp_path / "mm.c"
    src.write_text(MM)
    rec = tmp_path / "k.yaml"
    rec.write_text("steps:\n  - known: {fact: 'N >= 16'}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 2 and "unknown argument 'fact' for step 'known'" in err and "did you mean 'facts'" in err, err
    rec.write_text("steps:\n  - known: {N: '>= 16'}\n  - tile: {stmt: 0, loop: j, size: 4}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--show-steps")
    assert rc == 0 and "after step 2 (tile" in err and "after step" not in out, out
    out_c = tmp_path / "o.c"
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--show-steps", "-o", out_c)
    assert rc == 0 and "after step 2 (tile" in out and "after step" not in out_c.read_text()
    assert subprocess.run(["gcc", "-c", "-o", str(tmp_path / "o.o"), str(out_c)]).returncode == 0
    script = tmp_path / "s.chill"
    script.write_text("skew([0],1,[1])\n")
    rc, out, err = run_cli("transform", src, "--recipe", script)
    assert rc == 0 and "keeps loop level 1 as it is" in err, err
    (tmp_path / "ax.c").write_text(ALL_REJECTED % "T")
    assert run_cli("search", "ax.c", "--budget", "1")[0] == 0
    rc, out, err = run_cli("report", "ax.looptx.db", "--csv", "--json")
    assert rc == 2 and out == "" and "both write to stdout" in err, out + err


def test_a_param_only_the_replaced_commands_use_is_warned_of(tmp_path, monkeypatch):
    """Probe 105 G8: `search --recipe` replaces the region's own commands, so a param only
    they use builds the same code at each value; no warning said so."""
    monkeypatch.chdir(tmp_path)
    from test_small_gaps54 import ALL_REJECTED
    (tmp_path / "ax.c").write_text(ALL_REJECTED % "T")
    (tmp_path / "r2.yaml").write_text("steps:\n  - unroll: {stmt: 0, loop: j, factor: $U}\n")
    rc, out, err = run_cli("search", "ax.c", "--recipe", "r2.yaml", "--budget", "2")
    assert rc == 0 and "param 'T' is used by no step" in err, err
    rc, out, err = run_cli("search", "ax.c", "--budget", "2", "--db", "own.db")
    assert rc == 0 and "param 'T'" not in err, err


@pytest.mark.parametrize("script", ["loop(3)\n", "loop(3)\npermute([0],[2,1])\n"])
def test_a_loop_nest_past_the_last_is_an_error_at_its_line(tmp_path, script):
    """Probe 107 G8: `loop(3)` with no command after it exited 0; with one, the error was at
    that command's line."""
    src, rec = tmp_path / "mm.c", tmp_path / "s.chill"
    src.write_text(MM)
    rec.write_text("# a script\n" + script)
    rc, _, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 2 and "s.chill:2: error: loop(3): there are 1 loop nest(s) here" in err, err


def _compiles_clean(tmp_path, out, *flags):
    cc = subprocess.run(["gcc", "-Wall", "-Wextra", "-Wno-unknown-pragmas", "-Wno-unused-parameter", *flags, "-c",
                         "-o", str(tmp_path / "o.o"), str(out)], capture_output=True, text=True)
    assert cc.returncode == 0 and "warning" not in cc.stderr, cc.stderr


@pytest.mark.parametrize("first", ["*out = 0.0;", "++*out;", "(*out) = 0.0;"])
def test_a_function_region_that_starts_with_a_store_through_a_pointer(tmp_path, first):
    """Probe 108 G1: pycparser places `*out = ...` at `out`, so the region began past the `*`
    and the output read `*{ ... }` (which run, building each region alone, never saw)."""
    src, out = tmp_path / "k.c", tmp_path / "o.c"
    src.write_text("void f(int n, double *x, double *out)\n{\n  " + first + "\n  for (int i = 0; i < n; i++)\n"
                   "    *out += x[i];\n}\n")
    rc, _, err = run_cli("transform", src, "--function", "f", "-o", out)
    assert rc == 0, err
    _compiles_clean(tmp_path, out)
    assert "*{" not in out.read_text()


@pytest.mark.parametrize("bound", ["8", "(1 << MK)"])
def test_a_shift_in_an_array_extent(tmp_path, bound):
    """Probe 108 G1b: `double a[n][1 << MK]` reached isl as C text (an internal error)."""
    text = ("#define MK 3\nvoid mk(int n, double a[n][1 << MK], double b[n][1 << MK])\n{\n#pragma scop\n"
            f"    for (int i = 0; i < n; i++)\n        for (int j = 0; j < {bound}; j++)\n"
            "            a[i][j] = b[i][j] * 2.0;\n#pragma endscop\n}\n")
    _run_ok(tmp_path, text, "steps:\n  - tile: {stmt: 0, loop: j, size: 3}\n", "-D", "n=7")


def test_guards_that_an_unrolled_copy_decides_are_folded():
    """Probe 108 G6: `i >= i + 2 || 1` and `i == i` stayed in the atomic fallback's guards
    (gcc -Wtautological-compare)."""
    from looptx import ir
    from looptx.codegen import ast as K
    i, n = ir.Var("i"), ir.Var("n")
    e = ir.Bin("||", ir.Bin(">=", i, ir.Bin("+", i, ir.Num("2"))), ir.Num("1"))
    assert K.simplify_cond(e) == ir.Num("1")
    e = ir.Bin("&&", ir.Bin("==", i, i), ir.Bin("<", i, n))
    assert K.simplify_cond(e) == ir.Bin("<", i, n)
    e = ir.Bin("&&", ir.Bin(">", i, i), ir.Bin("<", i, n))
    assert K.simplify_cond(e) == ir.Num("0")


def test_a_counter_a_full_unroll_removes_inside_an_openmp_team(tmp_path):
    """Probe 108 G7: `(void)j;` of the team's shared-out private counter read it unset."""
    src, rec, out = tmp_path / "k.c", tmp_path / "r.yaml", tmp_path / "o.c"
    src.write_text("void f(int n, double *a, double *b)\n{\n  int i, j;\n#pragma omp parallel\n  {\n"
                   "#pragma omp for private(j)\n    for (i = 0; i < n; i++)\n      for (j = 0; j < 2; j++)\n"
                   "        a[2 * i + j] = b[2 * i + j] * 2.0;\n  }\n}\n")
    rec.write_text("steps:\n  - unroll: {stmt: 0, loop: j, factor: 0}\n")
    rc, _, err = run_cli("transform", src, "--function", "f", "--recipe", rec, "-o", out)
    assert rc == 0 and "(void)&j;" in out.read_text(), err
    _compiles_clean(tmp_path, out, "-fopenmp")
    rc, out_, err = run_cli("run", src, "--function", "f", "--recipe", rec, "-D", "n=9", "--cflags", "-O2 -fopenmp")
    assert rc == 0 and ": ok" in out_, out_ + err


def test_a_peel_of_a_loop_of_many_pieces_is_refused_in_bounded_time(tmp_path, monkeypatch):
    """Probe 108 G4: a peel after a jam, a tile, a peel and a shift ran isl's lexmin for
    minutes (beyond Ctrl-C); it is bounded now and refused at its step, naming the cause."""
    import looptx.poly.schedule as S
    # (a quarter of the budget: the first peel fits it, the second outgrows it sooner)
    monkeypatch.setattr(S, "PEEL_OPERATIONS", S.PEEL_OPERATIONS // 4)
    src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(JAM_PEEL)
    rec.write_text("steps:\n  - unroll_jam: {stmt: 1, loop: i, factor: 4}\n  - tile: {stmt: 3, loop: j, size: 5}\n"
                   "  - peel: {stmt: 2, loop: j, first: 2, last: 2}\n  - shift: {stmt: 0, loop: j, by: 1}\n"
                   "  - peel: {stmt: 2, loop: i, first: 1, last: 1}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 2 and "step 5 (peel): error: peeling loop 'i' outgrew isl's operation budget" in err, err


def test_run_compiles_the_whole_transformed_file(tmp_path, monkeypatch):
    """Probe 108 G1: run built each region alone, so an output file that did not compile
    (`*{ ... }`) ran ok; the whole file now goes through the compiler's syntax check, where
    the file as written passes it."""
    from looptx.frontend import function_region
    src = tmp_path / "k.c"
    src.write_text("void f(int n, double *x, double *out)\n{\n  *out = 0.0;\n  for (int i = 0; i < n; i++)\n"
                   "    *out += x[i];\n}\n")
    rc, out, err = run_cli("run", src, "--function", "f", "-D", "n=10")
    assert rc == 0 and ": ok" in out, out + err
    # the region starting one character late, as it did
    monkeypatch.setattr(function_region, "_written_start", lambda blanked, at: at)
    rc, out, err = run_cli("run", src, "--function", "f", "-D", "n=10")
    assert rc == 1 and "k.c: compile_error: the transformed file does not compile where the file as written does" \
        in out, out + err
    # a fragment that does not compile as written gets no verdict
    frag = tmp_path / "frag.c"
    frag.write_text("#pragma scop\nfor (i = 0; i < N; i++)\n  a[i] = 2.0 * a[i];\n#pragma endscop\n")
    rc, out, err = run_cli("run", frag, "-D", "N=10")
    assert "compile_error" not in out, out + err


def test_two_nests_of_a_team_fused_then_tiled_share_one_pragma(tmp_path):
    """Probe 108 G3: after a fuse of two `omp for` nests, the second nest's pragma stayed on
    the inner loop when the first's moved to the tile loop: refused as nested worksharing."""
    src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text("void f(int n, int m, double *a, double *b, double *c)\n{\n  double t;\n#pragma omp parallel\n  {\n"
                   "#pragma omp for private(t)\n    for (int k = 0; k < n; k++)\n      for (int j = 0; j < m; j++) {\n"
                   "        t = 2.0 * a[k * m + j];\n        b[k * m + j] = t;\n      }\n#pragma omp for\n"
                   "    for (int k = 0; k < n; k++)\n      for (int j = 0; j < m; j++)\n"
                   "        c[k * m + j] = a[k * m + j] + 1.0;\n  }\n}\n")
    rec.write_text("steps:\n  - fuse: {stmts: [0, 2], loop: j}\n  - tile: {stmt: 0, loop: k, size: 2}\n")
    rc, out, err = run_cli("transform", src, "--function", "f", "--recipe", rec)
    assert rc == 0, err
    assert out.count("#pragma omp for") == 1 and "#pragma omp for private(" in out, out
    assert out.index("#pragma omp for") < out.index("kk") < out.index("for (int k = 2 * kk"), out
    rc, out, err = run_cli("run", src, "--function", "f", "--recipe", rec, "-D", "n=9", "-D", "m=7",
                           "--cflags", "-O2 -fopenmp")
    assert rc == 0 and ": ok" in out, out + err


def test_a_block_number_whose_file_statement_lacks_the_loop_is_the_blocks_own(tmp_path):
    """Probe 109 G1: in a second CHiLL block, `unroll(1,"j",4)` meant the block's statement 1
    (Orio hands CHiLL the block alone); read as the file's S1, which has no `j`, it was refused."""
    src = tmp_path / "k.c"
    src.write_text("#define N 40\nvoid f(double A[N][N], double B[N], double x[N]) {\n  int i, j;\n"
                   "/*@ begin CHiLL ( unroll(0,\"i\",2) ) @*/\n  for (i = 0; i < N; i++)\n    x[i] = 1.0;\n/*@ end @*/\n"
                   "/*@ begin CHiLL ( unroll(1,\"j\",4) ) @*/\n  for (i = 0; i < N; i++) {\n    B[i] = 0.0;\n"
                   "    for (j = 0; j < N; j++)\n      B[i] = B[i] + A[i][j] * x[j];\n  }\n/*@ end @*/\n}\n")
    rc, out, err = run_cli("transform", src)
    assert rc == 0 and "unroll: {stmt: 2, loop: j, factor: 4}" in out and "x[j + 3]" in out, out + err
    rc, out, err = run_cli("run", src)
    assert rc == 0 and out.count(": ok") == 2, out + err


@pytest.mark.parametrize("extent,value", [("2 * (1 << MK)", 16), ("(1 << (MK + 1))", 16), ("1 << MK + 1", 16),
                                          ("(1 << MK) * 2", 16)])
def test_shifts_inside_larger_extents(tmp_path, extent, value):
    """Probe 109 G3: `2 * (1 << MK)` in an extent was an isl syntax error (old and new), and
    the rewrite ignored C's precedence (`1 << 4 + 1` read as 17)."""
    from looptx.poly.row_leave import _shifts_as_isl
    text = (f"#define MK 3\nvoid k(double a[16][{extent}])\n{{\n  int i, j;\n#pragma scop\n"
            f"  for (i = 0; i < 15; i++)\n    for (j = 0; j < {value - 1}; j++)\n      a[i][j] = a[i][j + 1] + 1.0;\n"
            "#pragma endscop\n}\n")
    _run_ok(tmp_path, text, "steps:\n  - permute: {stmt: 0, order: [j, i]}\n")
    assert _shifts_as_isl("1 << 4 + 1") == "(1 * 32)" and _shifts_as_isl("N + 1 << 2") == "((N + 1) * 4)"


@pytest.mark.parametrize("steps,jam", [
    ("  - unroll_jam: {stmt: 1, loop: i, factor: 2}\n  - peel: {stmt: 1, loop: j, first: 1}\n", True),
    ("  - peel: {stmt: 1, loop: j, first: 1}\n  - unroll_jam: {stmt: 1, loop: i, factor: 2}\n", True),
    ("  - distribute: {stmts: [0, 1], loop: i}\n", False)])
def test_a_jammed_local_cut_by_a_peel_names_the_jam(tmp_path, steps, jam):
    """Probe 108 G5: the refusal of a peel of the loop inside a jam of a loop-local's loop
    said to keep the statements together, not that the jam's copies need whole strips."""
    src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text("void f(int n, int m, double A[n][m], double B[n][m], double x[n]) {\n#pragma scop\n"
                   "  for (int i = 0; i < n; i++) {\n    double t = x[i] * 0.5;\n    for (int j = 0; j < m; j++)\n"
                   "      A[i][j] = t * B[i][j];\n  }\n#pragma endscop\n}\n")
    rec.write_text("steps:\n" + steps)
    rc, _, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 2 and ("where an unroll_jam gave each of its copies" in err) == jam, err


def test_a_row_a_parameter_selects_in_a_linearized_image(tmp_path):
    """Probe 102 G2: `zbuf[y*width + x]`, a span of one image row with y and width both
    parameters, was refused as a product of sizes; y is the row's index as written first."""
    text = ("void clear_row(float *zbuf, int width, int y, int x0, int x1)\n{\n"
            "    for (int x = x0; x < x1; x++)\n        zbuf[y * width + x] = 1.0f;\n}\n")
    src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(text)
    rec.write_text("steps:\n  - unroll: {stmt: 0, loop: x, factor: 4}\n")
    rc, out, err = run_cli("transform", src, "--function", "clear_row", "--recipe", rec)
    assert rc == 0 and "width >= x1" in out and "zbuf[y * width + (x + 3)]" in out, out + err
    for sizes in (("width=37", "y=3", "x0=2", "x1=30"), ("width=8", "y=0", "x0=0", "x1=8"), ("width=5", "y=2", "x0=1", "x1=9")):
        rc, out, err = run_cli("run", src, "--function", "clear_row", "--recipe", rec, *[a for s in sizes for a in ("-D", s)])
        assert rc == 0 and ": ok" in out, out + err
