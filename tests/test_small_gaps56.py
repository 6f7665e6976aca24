"""Gaps found by the probes of session 56 (and left open by earlier ones), each checked end to end."""
import pytest

from conftest import run_cli

pytestmark = pytest.mark.usefixtures("private_build_cache")


TEAM_REDUCTION = """void f(int n, int m, double *a, double *b, double *out)
{
  double s = 0.0;
#pragma omp parallel
  {
#pragma omp for reduction(+:s)
    for (int k = 0; k < n; k++)
      for (int j = 0; j < m; j++) {
        b[k * m + j] = 2.0 * a[k * m + j];
        s = s + b[k * m + j];
      }
  }
  out[0] = s;
}
"""


def test_a_team_reduction_allows_an_unroll_after_the_permute_it_allowed(tmp_path):
    """Probe 108 G2: the team's `omp for reduction` let a tile + permute reorder the sum's
    updates across the shared loop, but an unroll of that loop afterwards was refused: the
    clause was looked for on a loop named as written, which the unroll had strip-mined."""
    src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(TEAM_REDUCTION)
    rec.write_text("steps:\n  - tile: {stmt: 0, loop: j, size: 4}\n  - permute: {stmt: 0, order: [jj, k, j]}\n"
                   "  - unroll: {stmt: 0, loop: k, factor: 2}\n")
    rc, out, err = run_cli("transform", src, "--function", "f", "--recipe", rec)
    assert rc == 0, err
    assert out.count("#pragma omp for reduction(+:s)") == 1 and out.index("omp for") < out.index("for (int jj"), out
    for n, m in ((37, 23), (8, 16)):
        rc, out, err = run_cli("run", src, "--function", "f", "--recipe", rec, "-D", f"n={n}", "-D", f"m={m}",
                               "--cflags", "-O2 -fopenmp")
        assert rc == 0 and out.count(": ok") == 2, out + err


def test_a_reduction_clause_does_not_cover_a_nest_it_is_not_on(tmp_path):
    """The team's clause frees the order of the updates inside its own nest only: a sum the
    region keeps outside the team's nests is still ordered."""
    src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text("void f(int n, double *a, double *c)\n{\n  double s = 0.0;\n#pragma scop\n"
                   "  for (int k = 0; k < n; k++)\n    for (int j = 0; j < n; j++)\n      s = s + a[k * n + j];\n"
                   "#pragma endscop\n  c[0] = s;\n}\n")
    rec.write_text("steps:\n  - permute: {stmt: 0, order: [j, k]}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 2 and "reduction" in err and "omp_for" in err, err


LGB = """/*@ begin PerfTuning (
  def performance_params {
    param UF[] = [1, 2, 3, 4];
    param TJ[] = [4, 8];
  }
  def input_params {
    param n[] = [8];
  }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
int i, j;
double b[n][n];
/*@ begin CHiLL (
  tile(0,"j",TJ,"jj")
  unroll(0,"j",UF)
) @*/
for (i = 1; i < n; i++)
  for (j = 1; j < n; j++)
    b[i][j] = b[i - 1][j - 1] + 1.0;
/*@ end @*/
/*@ end @*/
"""


def test_search_does_not_blame_variants_for_an_original_the_flags_break(tmp_path, monkeypatch):
    """Probe 105 G1, in search: gcc 12's -O3 gets `b[i][j] = b[i-1][j-1] + 1` wrong at even n,
    and every point that gcc got wrong was a plain wrong_result; the failure now says that
    the original built with the same flags fails validation too."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lgb.c").write_text(LGB)
    rc, out, err = run_cli("search", "lgb.c")
    assert rc == 0, err
    if "wrong_result" in out:
        assert "the original region built with these flags fails validation" in out, out
        assert out.count("wrong_result x") == 1, out



def test_damaged_replay_records_are_said(tmp_path):
    """Probe 110 G3: a record whose fields differ from its key, one without a parameter field
    and a compile time that is no number were taken without a word."""
    from test_probe69_replay import kt_cache
    good = [("32", {"bs": 32, "time": 3.0, "compile_time": 900.0, "benchmark_time": 50.0}),
            ("64", {"bs": 64, "time": 2.0, "compile_time": 800.0, "benchmark_time": 40.0})]
    cases = {
        "fields": ([("128", {"bs": 999, "time": 1.0, "compile_time": 1.0, "benchmark_time": 1.0})],
                   "'128' holds bs=999 where its key reads bs=128 (its fields are used)"),
        "missing": ([("128", {"time": 1.0, "compile_time": 1.0, "benchmark_time": 1.0})],
                    "'128' lacks the field bs (read from its key)"),
        "cost": ([("128", {"bs": 128, "time": 1.0, "compile_time": "x", "benchmark_time": 1.0})],
                 "a compile_time or benchmark_time that is no number (the first: '128'), counted as 0 s"),
    }
    for name, (extra, needle) in cases.items():
        path = kt_cache(tmp_path, good + extra, name=f"{name}.json")
        rc, out, err = run_cli("search", "--replay", path, "-a", "exhaustive")
        assert rc == 0 and needle in err and err.count("note:") == 1, (name, err)
    rc, out, err = run_cli("search", "--replay", kt_cache(tmp_path, good, name="ok.json"), "-a", "exhaustive")
    assert rc == 0 and "note" not in err, err


def test_search_reads_a_recipe_named_from_the_current_folder(tmp_path, monkeypatch):
    """Probe 111 G1: `search ann/matmul.c --recipe r.yaml` looked for the recipe beside the
    annotated file when it checked which params it uses, and warned that TI and UF, which it
    tunes, were used by no step."""
    import pathlib
    import shutil
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ann").mkdir()
    shutil.copy(pathlib.Path(__file__).parent.parent / "annotations" / "matmul.c", tmp_path / "ann" / "matmul.c")
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: i, size: $TI, control: ii}\n"
                                     "  - unroll: {stmt: 0, loop: k, factor: $UF}\n")
    rc, out, err = run_cli("search", "ann/matmul.c", "--recipe", "r.yaml", "--budget", "2")
    assert rc == 0, err
    assert "param 'TJ' is used by no step" in err, err
    assert "param 'TI'" not in err and "param 'UF'" not in err, err


def test_a_recipe_name_finds_the_user_s_own_recipes_folder_first(tmp_path, monkeypatch):
    """Probe 111 G2: `--recipe cpu/matmul` took looptx's recipes/cpu/matmul.yaml over the
    user's ./recipes/cpu/matmul.yaml without a word."""
    import pathlib
    import shutil
    monkeypatch.chdir(tmp_path)
    shutil.copy(pathlib.Path(__file__).parent.parent / "examples" / "matmul.c", tmp_path / "m.c")
    (tmp_path / "recipes" / "cpu").mkdir(parents=True)
    (tmp_path / "recipes" / "cpu" / "matmul.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: j, size: 24}\n")
    rc, out, err = run_cli("transform", "m.c", "--recipe", "cpu/matmul")
    assert rc == 0 and "size: 24" in out and "registers" not in out, err
    (tmp_path / "recipes" / "cpu" / "matmul.yaml").unlink()
    rc, out, err = run_cli("transform", "m.c", "--recipe", "cpu/matmul")
    assert rc == 0 and "registers" in out, err


def test_a_copy_sized_by_an_ifndef_default_names_the_define_that_fixes_it(tmp_path):
    """Probe 111 G3: a copy whose footprint an `#ifndef` default sizes was refused with no
    word of the default; its hint now names the --define, as the unroll's does."""
    src, rec = tmp_path / "s.c", tmp_path / "r.yaml"
    src.write_text("#ifndef M\n#define M 16\n#endif\nvoid f(int n, double a[n][M], double b[n][M])\n{\n"
                   "#pragma scop\n  for (int i = 0; i < n; i++)\n    for (int j = 0; j < M; j++)\n"
                   "      a[i][j] = 2.0 * b[i][j];\n#pragma endscop\n}\n")
    rec.write_text("steps:\n  - datacopy: {stmt: 0, array: b, at: i}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 2 and "M is an #ifndef default, which a build may change: --define M=VALUE" in err, err
    rc, out, err = run_cli("transform", src, "--recipe", rec, "-D", "M=16")
    assert rc == 0, err


def test_a_misspelt_recipe_param_define_gets_the_closest_name(tmp_path):
    """Probe 111 G4: `-D TQ=3` for a recipe whose params are TI, TJ, TK named none of them
    (two-letter names are one letter apart, below difflib's cutoff, and the recipe's own
    params were not candidates)."""
    import pathlib
    src, rec = tmp_path / "m.c", tmp_path / "r.yaml"
    src.write_text((pathlib.Path(__file__).parent.parent / "examples" / "matmul.c").read_text())
    rec.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: $TI, control: ii}\n"
                   "  - tile: {stmt: 0, loop: j, size: $TJ, control: jj}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec, "-D", "TQ=3")
    assert rc == 2 and ("did you mean 'TI'?" in err or "did you mean 'TJ'?" in err), err


NR_CHOLESKY = """#include <math.h>
void choldc(int n, double a[n][n], double p[n])
{
  int i, j, k;
  double sum;
#pragma scop
  for (i = 0; i < n; i++) {
    for (j = i; j < n; j++) {
      for (sum = a[i][j], k = i - 1; k >= 0; k--) sum -= a[i][k] * a[j][k];
      if (i == j) {
        p[i] = sqrt(sum);
      } else a[j][i] = sum / p[i];
    }
  }
#pragma endscop
}
"""


def test_a_header_that_sets_another_variable_before_the_iterator(tmp_path):
    """Probe 112 G3: Numerical Recipes' `for (sum = a[i][j], k = i-1; k >= 0; k--)` was refused
    as a loop of several iterators; the other assignment is the statement before the loop."""
    src, rec = tmp_path / "c.c", tmp_path / "r.yaml"
    src.write_text(NR_CHOLESKY)
    rc, out, err = run_cli("transform", src)
    assert rc == 0, err
    assert out.index("sum = a[i][j];") < out.index("for (k = i - 1; k >= 0; k--)"), out
    rec.write_text("steps:\n  - privatize: {var: sum, at: j}\n  - unroll: {stmt: 1, loop: k, factor: 4}\n")
    for n in ("37", "8"):
        rc, out, err = run_cli("run", src, "--recipe", rec, "-D", f"n={n}")
        assert rc == 0 and ": ok" in out, out + err
    # set after the iterator from it: another order, still refused
    src.write_text(NR_CHOLESKY.replace("sum = a[i][j], k = i - 1", "k = i - 1, sum = a[i][k + 1]"))
    rc, _, err = run_cli("transform", src)
    assert rc == 2 and "exactly one iterator" in err, err


def test_a_write_through_a_table_says_to_write_the_pull_form(tmp_path):
    """Probe 112 G2: LBM's push streaming, `b[q][x + cx[q]] = a[q][x]`, was refused with no way
    out, and its periodic form with the CSR/ELL advice of a loop bounded by data; both now
    point to the pull form, which looptx transforms (checked here too)."""
    head = "#define NX 40\n#define Q 3\nstatic const int cx[Q] = {0, 1, -1};\n" \
           "void s(double b[Q][NX], double a[Q][NX])\n{\n#pragma scop\n  for (int q = 0; q < Q; q++)\n" \
           "    for (int x = 1; x < NX - 1; x++)\n"
    src = tmp_path / "p.c"
    src.write_text(head + "      b[q][x + cx[q]] = a[q][x];\n#pragma endscop\n}\n")
    rc, _, err = run_cli("deps", src)
    assert rc == 2 and "write the update as a pull" in err and "CSR" not in err, err
    src.write_text(head.replace("x++)\n", "x++) {\n") + "      int xn = (x + cx[q] + NX) % NX;\n"
                   "      b[q][xn] = a[q][x];\n    }\n#pragma endscop\n}\n")
    rc, _, err = run_cli("deps", src)
    assert rc == 2 and "write the update as a pull" in err and "CSR" not in err, err
    src.write_text(head + "      b[q][x] = a[q][x - cx[q]];\n#pragma endscop\n}\n")
    rec = tmp_path / "r.yaml"
    rec.write_text("steps:\n  - permute: {stmt: 0, order: [x, q]}\n")
    rc, out, err = run_cli("run", src, "--recipe", rec)
    assert rc == 0 and ": ok" in out, out + err


def test_a_step_naming_another_statement_s_loop_quotes_the_statement(tmp_path):
    """Probe 112 G5: an index temporary (`int d = y + k;`) is read as its expression and is no
    statement, so a count by hand was one too high, and the error did not say which statement
    the number named."""
    src, rec = tmp_path / "c.c", tmp_path / "r.yaml"
    src.write_text("void f(int h, int w, float *dst, const float *src, const float *k3)\n{\n#pragma scop\n"
                   "  for (int y = 1; y < h - 1; y++)\n    for (int x = 0; x < w; x++) {\n      float sum = 0;\n"
                   "      for (int k = -1; k <= 1; k++) {\n        int d = y + k;\n"
                   "        sum += src[d * w + x] * k3[k + 1];\n      }\n      dst[y * w + x] = sum;\n    }\n"
                   "#pragma endscop\n}\n")
    rec.write_text("steps:\n  - unroll: {stmt: 2, loop: k, factor: 3}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec, "-D", "w=16")
    assert rc == 2 and "it is line 11's `dst[(y * w) + x] = sum`" in err, err


def test_a_reduction_into_a_pointed_to_scalar_takes_its_one_element_section(tmp_path):
    """Probe 112 G4: Rodinia kmeans' `*delta += 1.0` under `reduction: {+: [delta]}` asked for a
    pragma step with `delta[0:LENGTH]`, and the section written in the step was 'not used'."""
    src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text("void f(int n, const int *m, const int *idx, float *delta)\n{\n#pragma scop\n"
                   "  for (int i = 0; i < n; i++)\n    if (m[i] != idx[i]) *delta += 1.0f;\n#pragma endscop\n}\n")
    for given in ("delta", "delta[0:1]"):
        rec.write_text(f"steps:\n  - omp_for: {{stmt: 0, loop: i, reduction: {{+: ['{given}']}}}}\n")
        rc, out, err = run_cli("transform", src, "--recipe", rec)
        assert rc == 0 and "#pragma omp parallel for reduction(+:delta[0:1])" in out, err
        rc, out, err = run_cli("run", src, "--recipe", rec, "-D", "n=100", "--cflags", "-O2 -fopenmp")
        assert rc == 0 and ": ok" in out, out + err


def test_a_fraction_from_a_param_expression_gets_the_floor_division_hint(tmp_path, monkeypatch):
    """Probe 111 G5: `tile(0,"i",TI/2,"ii")` with TI = 1 gave 0.5 and no word of `//`."""
    import pathlib
    monkeypatch.chdir(tmp_path)
    text = (pathlib.Path(__file__).parent.parent / "annotations" / "matmul.c").read_text()
    assert 'tile(0,"i",TI,"ii")' in text
    (tmp_path / "d.c").write_text(text.replace('tile(0,"i",TI,"ii")', 'tile(0,"i",TI/2,"ii")'))
    rc, _, err = run_cli("search", "d.c", "--budget", "2")
    assert rc == 2 and "got 0.5" in err and "write // for a whole quotient" in err, err


def test_a_read_of_a_counter_an_inner_loop_left_is_refused(tmp_path):
    """Probe 113 G1: `s = k;` ahead of `for (k = 0; k < m; k++)` inside a loop over i reads,
    from i = 1 on, what the k loop left; looptx read k as a size (its entry value) and wrote
    a wrong output with `k_1` as the loop's counter."""
    src = tmp_path / "k.c"
    body = ("void f(int n, int m, double *a)\n{\n  int i, k = 5;\n  double s;\n#pragma scop\n"
            "  for (i = 0; i < n; i++) {\n%s  }\n#pragma endscop\n}\n")
    for inner in ("    s = k;\n    for (k = 0; k < m; k++)\n      a[i * m + k] += s;\n",
                  "    for (s = k, k = 0; k < m; k++)\n      a[i * m + k] += s;\n",
                  "    if (k > 2)\n      a[i] = 1.0;\n    for (k = 0; k < m; k++)\n      a[i * m + k] += 1.0;\n"):
        src.write_text(body % inner)
        rc, _, err = run_cli("transform", src)
        assert rc == 2 and "'k' is read where a loop of the region that counts with it has run before" in err, err
    # after the loop, in the same iteration: the value that ended it, as before
    src.write_text(body % "    for (k = 0; k < m; k++)\n      a[i * m + k] += 1.0;\n    a[i] = k;\n")
    rc, out, err = run_cli("transform", src)
    assert rc == 0 and "a[i] = 0 > m ? 0 : m;" in out, out + err


def test_a_header_whose_test_names_the_bound_first(tmp_path):
    """Probe 113 G3: `for (s = 0.0, k = 0; n > k; k++)` and `for (i = 0, j = n - 1; n > i; i++,
    j--)` stopped with an internal ValueError."""
    src = tmp_path / "k.c"
    src.write_text("void f(int n, double *x, double *out)\n{\n  int k;\n  double s;\n#pragma scop\n"
                   "  for (s = 0.0, k = 0; n > k; k++)\n    s += x[k];\n#pragma endscop\n  *out = s;\n}\n")
    rc, out, err = run_cli("run", src, "-D", "n=11")
    assert rc == 0 and ": ok" in out, out + err
    src.write_text("void r(int n, double *x)\n{\n  int i, j;\n#pragma scop\n"
                   "  for (i = 0, j = n - 1; n > i; i++, j--)\n    x[i] = x[i] + j;\n#pragma endscop\n}\n")
    rc, out, err = run_cli("run", src, "-D", "n=11")
    assert rc == 0 and ": ok" in out, out + err


def test_rows_left_at_every_size_are_not_taken_for_sizes_of_no_interest(tmp_path):
    """Probe 109 G4: `a[i][j + 1]` of `double a[16][8]` to j < 16 runs two rows on, at every
    size (the bounds are constants); those sizes were taken as of no interest (the code
    leaves its extents there), and a permute that reorders a read and a write of one element
    was accepted."""
    src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text("double a[16][8];\nvoid f(void)\n{\n  int i, j;\n#pragma scop\n  for (i = 0; i < 15; i++)\n"
                   "    for (j = 0; j < 16; j++)\n      a[i][j] = a[i][j + 1] + 1.0;\n#pragma endscop\n}\n")
    rec.write_text("steps:\n  - permute: {stmt: 0, order: [j, i]}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 2 and "leaves its extent 8" in err and "at every size of interest" in err, err


def test_an_orio_loop_annotation_with_a_continuation_loop(tmp_path):
    """Probe 114 G2: Pluto + Orio's `for (; t1 <= N - 1; t1++)` inside a Loop annotation was
    refused ('cannot tell the index of this loop'); under #pragma scop it was read."""
    src = tmp_path / "o.c"
    src.write_text("#define N 101\ndouble Z[N], X[N];\nvoid f(void) {\n  int t1;\n/*@ begin Loop(\n"
                   "  transform ScalarReplace(dtype='double')\n  for (t1 = 0; t1 <= N - 4; t1 += 4) {\n"
                   "    Z[t1] += X[t1];\n    Z[t1 + 1] += X[t1 + 1];\n  }\n  for (; t1 <= N - 1; t1++)\n"
                   "    Z[t1] += X[t1];\n) @*/\n/*@ end @*/\n}\n")
    rc, out, err = run_cli("run", src)
    assert rc == 0 and ": ok" in out, out + err


def test_orio_unroll_jam_of_two_loops_keeps_a_body_whole_around_a_loop_it_cannot_jam(tmp_path):
    """Probe 114 G1: SPAPT trmm's `unrolljam = (['i','j'],[2,2])` was refused: after j's jam,
    the copies of `B[i][j] = ...` for i and i + 1 were jammed ahead of the k loop of i (whose
    bounds read i, so its copies stay apart), which reads B[i + 1][j] first."""
    from test_small_gaps51 import TRMM
    src = tmp_path / "t.c"
    text = TRMM.replace("param U1_I[] = [2, 3];", "param U1_I[] = [2]; param U1_J[] = [2];")
    src.write_text(text.replace("unrolljam = (['i'],[U1_I])", "unrolljam = (['i','j'],[U1_I,U1_J])"))
    rc, out, err = run_cli("run", src)
    assert rc == 0 and ": ok" in out, out + err
    rc, out, err = run_cli("transform", src)
    body = out[out.index("for (int i = 0; i < 35; i += 2)"):]
    assert body.index("for (int k = i + 1") < body.index("B[i + 1][j] = alpha"), body


def test_an_orio_init_file_sets_the_sizes_it_assigns_first(tmp_path, monkeypatch):
    """Probe 114 G3: SPAPT gemver keeps `int n;` in its decl_file and `n = N;` at the top of
    init.c's init_input_vars(); the init_file was not read, and `n` had no value."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "decl.h").write_text("double x[N];\ndouble b;\nint n;\n")
    (tmp_path / "init.c").write_text("/* SPAPT */\nvoid init_input_vars()\n{\n  int i;\n  n = N;\n  b = 2.5;\n"
                                     "  for (i=0; i<=n-1; i++) x[i] = i;\n}\n")
    (tmp_path / "g.c").write_text(
        "/*@ begin PerfTuning (\n  def build { arg build_command = 'gcc -O3'; }\n"
        "  def performance_params { param U1_I[] = [1,2]; }\n  def input_params { param N[] = [100]; }\n"
        "  def input_vars {\n  arg decl_file = 'decl.h';\n  arg init_file = 'init.c';\n  }\n) @*/\nint i;\n"
        "/*@ begin Loop(\ntransform Composite(\n  unrolljam = (['i'],[U1_I])\n)\nfor (i=0;i<=n-1;i++) {\n"
        "  x[i]=b*x[i];\n }\n) @*/\n/*@ end @*/\n/*@ end @*/\n")
    rc, out, err = run_cli("run", "g.c")
    assert rc == 0 and ": ok" in out, out + err
    rc, out, err = run_cli("search", "g.c")
    assert rc == 0 and "ok 2" in out, out + err


def test_init_assignments_stop_at_the_first_other_statement():
    from looptx.search.init_file import init_assignments
    text = ("void init_input_vars(void) {\n  int i, j;\n  n = N; /* rows */\n  m = 2 * N + 1;\n"
            "  srand(1);\n  k = 3;\n}\nvoid other(void) { q = 1; }\n")
    assert init_assignments(text) == [("n", "N"), ("m", "2 * N + 1")]


def test_a_define_of_a_param_of_an_imported_or_given_spec(tmp_path, monkeypatch):
    """Probe 114 G4: `-D CFLAGS=-O1` for a string param of `import spec dp;` was 'not a size
    or parameter', and with `--spec dp.spec` 'not an integer'; an inline spec took it."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "dp.spec").write_text(
        "spec dp {\n def build { arg build_command = 'gcc -O0'; }\n def performance_params {\n"
        "   param UF[] = [1,2];\n   param CFLAGS[] = ['-O0', '-O1'];\n }\n def input_params { param N[] = [1000]; }\n"
        " def input_vars { decl dynamic double y[N] = 0; decl dynamic double x[N] = random; }\n}\n")
    loop = ("int i;\n/*@ begin Loop (\n    transform Unroll(ufactor=UF)\n  for (i=0; i<=N-1; i++)\n"
            "    y[i]=y[i]+x[i];\n) @*/\n/*@ end @*/\n")
    (tmp_path / "imp.c").write_text("/*@ begin PerfTuning ( import spec dp; ) @*/\n" + loop + "/*@ end @*/\n")
    (tmp_path / "bare.c").write_text("/*@ begin PerfTuning ( ) @*/\n" + loop + "/*@ end @*/\n")
    rc, out, err = run_cli("search", "imp.c", "--budget", "2", "-D", "CFLAGS=-O1")
    assert rc == 0 and "CFLAGS" not in err, out + err
    rc, out, err = run_cli("search", "bare.c", "--spec", "dp.spec", "--budget", "2", "-D", "CFLAGS=-O1")
    assert rc == 0 and "not an integer" not in err, out + err


def test_orio_scalar_prefixes_and_bound_replacement_are_noted(tmp_path):
    """Probes 107 G10 and 114 G8: ScalarReplace's prefix and BoundReplace were dropped with no
    note."""
    src = tmp_path / "s.c"
    src.write_text(
        "/*@ begin PerfTuning (\n  def performance_params { param SR[] = [True]; param BR[] = [True]; }\n"
        "  def input_params { param N[] = [40]; }\n  def input_vars { decl static double a[N][N] = random; "
        "decl static double x[N] = random; decl static double y[N] = 0; }\n) @*/\nint i, j;\n/*@ begin Loop(\n"
        "  transform Composite(scalarreplace = (SR, 'double', 'scv_'), boundreplace = (BR, 'lbv', 'ubv'))\n"
        "  for (i = 0; i <= N-1; i++)\n    for (j = 0; j <= N-1; j++)\n      y[i] = y[i] + a[i][j] * x[j];\n"
        ") @*/\n/*@ end @*/\n/*@ end @*/\n")
    rc, out, err = run_cli("transform", src)
    assert rc == 0 and "scalarreplace prefix 'scv_' is not used" in err and "boundreplace is ignored" in err, err


def test_headers_that_declare_or_set_an_element_besides_the_iterator(tmp_path):
    """Probe 113 G4: `for (int k = 0, q = 2; ...)` and `for (b[i] = 0.0, k = 0; ...)` were
    refused; the message of a header still refused now says what it takes apart."""
    src = tmp_path / "k.c"
    head = "void f(int n, int m, double a[n][m], double b[n])\n{\n  int i, k;\n  double s;\n#pragma scop\n" \
           "  for (i = 0; i < n; i++)\n"
    for loop in ("    for (int k2 = 0, q2 = 2; k2 < m; k2++)\n      a[i][k2] = q2 * a[i][k2];\n",
                 "    for (b[i] = 0.0, k = 0; k < m; k++)\n      b[i] += a[i][k];\n"):
        src.write_text(head + loop + "#pragma endscop\n}\n")
        rc, out, err = run_cli("run", src, "-D", "n=7", "-D", "m=5")
        assert rc == 0 and ": ok" in out, out + err
    src.write_text(head + "    for (k = 1, s = k; k < m; k++)\n      a[i][k] = s;\n#pragma endscop\n}\n")
    rc, _, err = run_cli("transform", src)
    assert rc == 2 and "the header sets k, s" in err, err


def test_the_cuda_host_note_names_a_size_the_function_computes(tmp_path):
    """Probe 114 G5: Orio's matVec2D sets `int nrows = m*n;` before the region; the host
    function takes nrows from the caller, and the note named only the file's arrays."""
    src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text("void f(int m, int n, double *x)\n{\n  int i;\n  int nrows = m * n;\n#pragma scop\n"
                   "  for (i = 0; i <= nrows - 1; i++)\n    x[i] = 2.0 * x[i];\n#pragma endscop\n}\n")
    rec.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 64, control: ii}\n"
                   "  - cuda: {stmt: 0, block: [ii], thread: [i]}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda")
    assert rc == 0, err
    assert ") takes nrows: the function sets nrows = m * n before the region" in err, err


def test_a_function_that_opens_with_a_comma_header_keeps_its_loop(tmp_path):
    """Probe 115 G1: with --function, a body whose first statement is `for (s = 0.0, k = 0;
    ...)` began its region at the hoisted `s = 0.0`, inside the header, and the output was
    `for { s = 0.0; }`.  A header variable the test reads stays refused, with what to write."""
    src = tmp_path / "c.c"
    src.write_text("double cf1(int n, double a[n])\n{\n  int k;\n  double s;\n  for (s = 0.0, k = 0; k < n; k++)\n"
                   "    s += a[k];\n  return s;\n}\n")
    rc, out, err = run_cli("transform", src, "--function", "cf1")
    assert rc == 0 and "for (k = 0; k < n; k++)" in out and "for {" not in out, out + err
    rc, out, err = run_cli("run", src, "--function", "cf1", "-D", "n=10")
    assert rc == 0 and ": ok" in out, out + err
    src.write_text("double cf2(int n, double a[n])\n{\n  int k, m;\n  double s = 0.0;\n"
                   "  for (m = n / 2, k = 0; k < m; k++)\n    s += a[k];\n  return s + m;\n}\n")
    rc, _, err = run_cli("transform", src, "--function", "cf2")
    assert rc == 2 and "the header sets m, k" in err and "read by the loop's test" in err, err


def test_a_counter_declared_in_the_body_is_a_new_one_each_iteration(tmp_path):
    """Probe 115 G3: `int k = 0;` in the body, then `for (k = 1; ...)`, was said to hold the
    value an earlier iteration's loop left; each iteration declares its own k."""
    src = tmp_path / "k.c"
    src.write_text("void f(int n, int m, double a[n][m], double x[n])\n{\n#pragma scop\n  for (int i = 0; i < n; i++) {\n"
                   "    int k = 0;\n    x[i] = a[i][k];\n    for (k = 1; k < m; k++)\n      x[i] += a[i][k];\n  }\n"
                   "#pragma endscop\n}\n")
    rc, _, err = run_cli("transform", src)
    assert "has run before" not in err, err


def test_a_jam_names_its_copies_alike_where_a_statement_reaches_one_copy_only(tmp_path):
    """Probe 116 G2: at -D N=3 the k loop's statement of a Cholesky body reaches only the
    second copy of the j strip, and was written with copy 0's local `t`, not `t__j1`."""
    src, rec = tmp_path / "c.c", tmp_path / "r.yaml"
    src.write_text("void kern(int N, unsigned A[N][N], unsigned y[N])\n{\n  int i, j, k;\n#pragma scop\n"
                   "  for (i = 0; i <= N-1; i++) {\n    for (j = i+1; j <= N-1; j++) {\n      unsigned t = A[i][j];\n"
                   "      for (k = 0; k <= i-1; k++)\n        t = t - A[j][k] * A[i][k];\n      A[j][i] = t * y[i];\n"
                   "    }\n  }\n#pragma endscop\n}\n")
    rec.write_text("steps:\n  - unroll: {stmt: 0, loop: j, factor: 2}\n")
    for n in ("3", "2", "5"):
        rc, out, err = run_cli("run", src, "--recipe", rec, "-D", f"N={n}")
        assert rc == 0 and ": ok" in out, (n, out + err)


def _orio_loop(arrays: str, counters: str, transform: str, loop: str) -> str:
    """A function whose loop nest an Orio Loop annotation transforms (written twice, as Orio
    files do: in the annotation and between its markers)."""
    return (f"void kern(int N, {arrays})\n{{\n  int {counters};\n/*@ begin Loop(\n  transform {transform}\n"
            f"{loop}) @*/\n{loop}/*@ end @*/\n}}\n")


def test_orio_unrolljam_as_a_list_of_pairs(tmp_path):
    """Probe 116 G4: Orio's `unrolljam = [('i',2),('j',2)]` was read as loops ('i', 2) and
    factors ('j', 2): 'an unroll factor must be an integer >= 1, got 'j''."""
    src = tmp_path / "o.c"
    src.write_text(_orio_loop("unsigned A[N][N], unsigned B[N][N]", "i, j", "Composite(unrolljam = [('i',2),('j',2)])",
                              "  for (i = 0; i <= N-1; i++)\n    for (j = 0; j <= N-1; j++)\n"
                              "      A[i][j] = A[i][j] + B[j][i];\n"))
    rc, out, err = run_cli("transform", src)
    assert rc == 0 and "unroll: {stmt: 0, loop: j, factor: 2, orio: True}" in out and "unroll: {stmt: 0, loop: i, factor: 2, orio: True}" in out, err


def test_orio_unroll_jam_at_tiny_sizes_keeps_the_copies_it_keeps_symbolically(tmp_path):
    """Probe 116 G3: at -D N = 2 or 3 a k loop unrolled fully (its trip at most the factor), or
    a bound isl finds redundant (`j >= max(0, i - 2)` at N = 3), no longer read the counter, so
    the copies were jammed and the order refused; symbolically and at N >= 4 it was accepted."""
    tiny = tmp_path / "t.c"
    tiny.write_text(_orio_loop("unsigned B[N][N]", "i, j, k", "Composite(unrolljam = (['i','k'],[2,2]))",
                               "  for (i = 0; i <= N-1; i++)\n    for (j = 0; j <= N-1; j++) {\n"
                               "      B[i][j] = B[i][j] + B[j][j];\n      for (k = i+1; k <= N-1; k++)\n"
                               "        B[i][j] = B[i][j] + B[k][j];\n    }\n"))
    band = tmp_path / "b.c"
    loop = ("  for (i = 0; i <= N-1; i++) {\n    A[i][i] = A[i][i] + 1;\n"
            "    for (j = max(0, i-2); j <= min(N-1, i+2); j++)\n      A[i][j] = A[i][j] - A[i][i] * A[j][i];\n  }\n")
    band.write_text("#define max(a,b) ((a) > (b) ? (a) : (b))\n#define min(a,b) ((a) < (b) ? (a) : (b))\n"
                    + _orio_loop("unsigned A[N][N]", "i, j", "Composite(unrolljam = (['i','j'],[2,2]))", loop))
    for src in (tiny, band):
        for n in ("2", "3", "5"):
            rc, out, err = run_cli("run", src, "-D", f"N={n}")
            assert rc == 0 and ": ok" in out, (src.name, n, out + err)
