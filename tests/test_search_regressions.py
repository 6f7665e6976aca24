"""`looptx search` regressions, end to end through the CLI (C backend, budgets of 1-2):
static recipe errors reported before any measurement, resume refused after the code / recipe /
build command changed, empty spaces and broken constraints, the banner of an uncountable space,
misspelled args outside `def search`, located searcher/option errors, `decl_file` best files."""
from __future__ import annotations

import re

import pytest
from conftest import run_cli as cli

from looptx.frontend.annotations import parse_tuning_spec
from looptx.errors import AnnotationError
from looptx.search.db import ResultsDB

LOCATED = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+): error: .+\(.+\)$")



def annotated(params="param T1[] = [16, 32];\n    param U[] = [1, 2];", recipe='tile(0,"i",T1,"ii")\n  unroll(0,"j",U)',
              search="arg algorithm = 'Exhaustive'; arg total_runs = 1;",
              build="arg build_command = 'gcc -O1';", counter="arg repetitions = 1;",
              extra="", input_vars="decl static double A[N][N] = random;\n    decl static double B[N][N] = random;"):
    return f"""/*@ begin PerfTuning (
  def build {{ {build} }}
  def performance_counter {{ {counter} }}
  def performance_params {{
    {params}
  }}
  def input_params {{ param N[] = [32]; }}
  def input_vars {{
    {input_vars}
  }}
  def search {{ {search} }}
  {extra}
) @*/
int i, j;
/*@ begin CHiLL (
  {recipe}
) @*/
for (i = 0; i < N; i++)
  for (j = 0; j < N; j++)
    B[i][j] = B[i][j] + A[j][i];
/*@ end @*/
/*@ end @*/
"""


def line_of(text: str, needle: str) -> int:
    return next(k for k, ln in enumerate(text.splitlines(), 1) if needle in ln)


def bad_input(tmp_path, text, *args, name="t.c"):
    """Run a search that must stop with exit 2 before measuring: (line, col, message)."""
    f = tmp_path / name
    f.write_text(text)
    db = tmp_path / "t.db"
    rc, out, err = cli("search", f, "--db", db, "--no-progress", *args)
    assert rc == 2, out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    m = LOCATED.match(lines[0])
    assert m, lines[0]
    if db.exists():
        with ResultsDB(db, create=False) as rdb:
            assert all(not rdb.evaluations(s.key) for s in rdb.searches()), "something was measured"
    return int(m["line"]), int(m["col"]), lines[0], m["file"]


# --- bug 6: static recipe errors ------------------------------------------------------------

def test_unknown_param_in_chill_command_is_reported_once(tmp_path):
    text = annotated(params="param T2[] = [16, 32];\n    param U[] = [1, 2];")
    line, _, msg, _ = bad_input(tmp_path, text)
    assert line == line_of(text, 'tile(0,"i",T1') and "unknown parameter 'T1'" in msg


def test_missing_recipe_file_is_located_at_the_recipe_command(tmp_path):
    text = annotated(recipe='recipe("missing.yaml")')
    line, col, msg, f = bad_input(tmp_path, text)
    assert f.endswith("t.c") and line == line_of(text, "recipe(") and "missing.yaml" in msg


def test_yaml_recipe_with_undefined_param(tmp_path):
    (tmp_path / "r.yaml").write_text(
        "params: {T1: 16, U: 1}\nsteps:\n  - tile: {stmt: 0, loop: i, size: $T1, control: ii}\n"
        "  - unroll: {stmt: 0, loop: j, factor: $UX}\n")
    (tmp_path / "t.c").write_text(annotated(recipe='recipe("r.yaml")'))
    rc, out, err = cli("search", tmp_path / "t.c", "--db", tmp_path / "t.db", "--no-progress")
    assert rc == 2, out + err
    assert len(err.strip().splitlines()) == 1 and "$UX" in err and "r.yaml:4" in err, err
    assert not (tmp_path / "t.db").exists()


def test_orio_loop_module_with_a_bare_directive_is_searched(tmp_path):
    """Once refused; Orio's Loop module is read now (tests/test_orio_loop.py), and a bare
    directive transforms the code between the markers."""
    text = annotated().replace("begin CHiLL (", "begin Loop (").replace(
        'tile(0,"i",T1,"ii")\n  unroll(0,"j",U)', "transform Unroll(ufactor=U)")
    assert "transform Unroll" in text
    (tmp_path / "t.c").write_text(text)
    rc, out, err = cli("search", tmp_path / "t.c", "--db", tmp_path / "t.db", "--no-progress")
    assert rc == 0 and "best variant written" in out + err, out + err


def _stencil(**kw):
    return (annotated(**kw).replace("B[i][j] = B[i][j] + A[j][i];", "A[i][j] = A[i-1][j+1] + 1.0;")
            .replace("for (i = 0; i < N; i++)", "for (i = 1; i < N; i++)")
            .replace("for (j = 0; j < N; j++)", "for (j = 0; j < N - 1; j++)"))


def test_point_specific_illegality_does_not_abort(tmp_path):
    """The first point's permutation is illegal: pruned, and the search goes on."""
    f = tmp_path / "legal.c"
    f.write_text(_stencil(params="param PERM[] = [['j','i'], ['i','j']];", recipe="permute(0,PERM)",
                          search="arg algorithm = 'Exhaustive'; arg total_runs = 2;",
                          input_vars="decl static double A[N][N] = random;"))
    db = tmp_path / "legal.db"
    rc, out, err = cli("search", f, "--db", db, "--no-progress")
    assert rc == 0, out + err
    with ResultsDB(db, create=False) as rdb:
        statuses = [r.status for s in rdb.searches() for r in rdb.evaluations(s.key)]
    assert statuses == ["illegal", "ok"]
    assert (tmp_path / "legal.best.c").exists()


def test_search_whose_every_point_is_illegal_is_a_located_bad_input(tmp_path):
    """Once 'no variant passed validation', exit 1, with nothing about why; the recipe is at
    fault, so it is the first rejection, located at its step, exit 2."""
    f = tmp_path / "all.c"
    text = _stencil(params="param PERM[] = [['j','i']];\n    param U[] = [1, 2];",
                    recipe='permute(0,PERM)\n  unroll(0,"j",U)',
                    search="arg algorithm = 'Mlsearch'; arg total_runs = 2; "
                           "arg mlsearch_local_distance = 1;",
                    input_vars="decl static double A[N][N] = random;")
    f.write_text(text)
    # the warning about the ignored Orio option is held back: the error is the one line
    rc, out, err = cli("search", f, "--db", tmp_path / "all.db", "--no-progress")
    assert rc == 2, out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"{f}:{line_of(text, 'permute(')}: step 1 (permute): error: ")
    assert "all 2 evaluated points were rejected (2 illegal)" in lines[0]
    assert "looptx report" in lines[0] and "Traceback" not in err
    assert not (tmp_path / "all.best.c").exists()


def test_search_whose_every_build_fails_says_why(tmp_path):
    f = tmp_path / "cc.c"
    f.write_text(annotated(build="arg build_command = 'gcc -O1 -include lx_no_such_header.h';"))
    rc, out, err = cli("search", f, "--db", tmp_path / "cc.db", "--no-progress")
    assert rc == 1, out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "no variant passed validation" in lines[0], err
    assert "compile_error" in lines[0] and "looptx report" in lines[0], err


# --- bug 4: resume after a change -----------------------------------------------------------

@pytest.mark.parametrize("change", [("unroll(0,\"j\",U)", "unroll(0,\"i\",U)"),
                                    ("gcc -O1", "gcc -O0")])
def test_resume_refuses_changed_recipe_or_build(tmp_path, change):
    f = tmp_path / "rs.c"
    text = annotated()
    f.write_text(text)
    db = tmp_path / "rs.db"
    rc, out, err = cli("search", f, "--db", db, "--budget", 1, "--no-progress")
    assert rc == 0, out + err
    f.write_text(text.replace(*change))
    rc, out, err = cli("search", f, "--db", db, "--budget", 2, "--resume", "--no-progress")
    assert rc == 2, out + err
    assert "changed" in err and "--db" in err and len(err.strip().splitlines()) == 1, err
    with ResultsDB(db, create=False) as rdb:
        assert sum(len(rdb.evaluations(s.key)) for s in rdb.searches()) == 1


# --- bug 5: empty spaces, constraints that cannot be evaluated --------------------------------

def test_empty_space_is_located_at_the_constraint(tmp_path):
    text = annotated(params="param T1[] = [16, 32];\n    param U[] = [1, 2];\n"
                            "    constraint big = T1 * U > 1000;")
    line, col, msg, _ = bad_input(tmp_path, text)
    assert (line, col) == (line_of(text, "constraint big"), 16) and "relax" in msg


def test_constraints_empty_together(tmp_path):
    text = annotated(params="param T1[] = [16, 32];\n    param U[] = [1, 2];\n"
                            "    constraint a = T1 > 16;\n    constraint b = T1 < 32;")
    line, _, msg, _ = bad_input(tmp_path, text)
    assert line == line_of(text, "constraint a") and "'a', 'b'" in msg


def test_constraint_that_always_raises(tmp_path):
    text = annotated(params="param T1[] = [16, 32];\n    param U[] = [1, 2];\n"
                            "    constraint c = T1 + 'x' > 2;")
    line, _, msg, _ = bad_input(tmp_path, text)
    assert line == line_of(text, "constraint c") and "cannot be evaluated" in msg


# --- bug 10: banner of a space too large to count --------------------------------------------

def test_banner_of_uncountable_space(tmp_path):
    f = tmp_path / "big.c"
    f.write_text(annotated(params="param T1[] = range(1, 33);\n    param U[] = range(1, 33);\n"
                                  "    param X[] = range(1000);\n    param Y[] = range(100);",
                           recipe="unroll(0,\"j\",1)", search="arg algorithm = 'Randomsearch';"))
    rc, out, err = cli("search", f, "--db", tmp_path / "b.db", "--budget", 1, "--no-progress")
    assert rc == 0, out + err
    banner = out.splitlines()[0]
    assert "None" not in banner and "102400000 raw points" in banner, banner


# --- bug 12: misspelled args outside def search -----------------------------------------------

@pytest.mark.parametrize("build, counter, extra, bad, fix", [
    ("arg buildcommand = 'gcc -O1';", "arg repetitions = 1;", "", "buildcommand", "build_command"),
    ("arg build_command = 'gcc -O1';", "arg repetition = 1;", "", "repetition", "repetitions"),
    ("arg build_command = 'gcc -O1';", "arg repetitions = 1;", "def validation { arg rtl = 0.01; }",
     "rtl", "rtol"),
])
def test_misspelled_args_are_errors(tmp_path, build, counter, extra, bad, fix):
    text = annotated(build=build, counter=counter, extra=extra)
    line, col, msg, _ = bad_input(tmp_path, text)
    assert f"unknown arg '{bad}'" in msg and f"did you mean '{fix}'" in msg
    assert line == line_of(text, f"arg {bad} ")


def test_documented_orio_args_are_accepted():
    spec = parse_tuning_spec("""
      def build { arg build_command = 'gcc -O3'; arg libs = '-lm'; arg batch_command = 'qsub';
                  arg status_command = 'qstat'; arg num_procs = 2; arg prebuild_command = 'true';
                  arg postbuild_command = 'true'; arg postrun_command = 'true'; }
      def performance_counter { arg method = 'basic timer'; arg repetitions = 3;
                                arg random_seed = 1; arg timing_array_size = 5; arg timeout = 9; }
      def input_vars { arg decl_file = 'd.h'; arg init_file = 'i.c'; }
      def validation { arg validation_file = 'v.c'; arg expected_output = 1; arg rtol = 0.1; }
      def other { arg device_spec_file = 'dev.txt'; }
      def power { arg method = 'none'; arg repetitions = 2; }
      def search { arg algorithm = 'Randomsearch'; arg total_runs = 3; }
    """, file="s.spec")
    assert spec.build["num_procs"] == 2
    with pytest.raises(AnnotationError, match="did you mean 'libs'"):
        parse_tuning_spec("def build { arg lib = '-lm'; }", file="s.spec")


# --- bug 2: searcher and option errors located at their arg/param -----------------------------

@pytest.mark.parametrize("params, search, needle, what", [
    (None, "arg algorithm = 'FooSearch';", "FooSearch", "unknown searcher"),
    (None, "arg algorithm = 'Randomsearch'; arg totl_runs = 4;", "arg totl_runs", "unknown option"),
    (None, "arg algorithm = 'Annealing'; arg annealing_cooling_factor = 2.5;", "arg annealing_cooling",
     "cooling_factor"),
    ("param T1[] = [16, 32];\n    param U[] = [1, 2, 2];", "arg algorithm = 'Exhaustive';",
     "param U[]", "repeats a value"),
])
def test_searcher_errors_are_located(tmp_path, params, search, needle, what):
    kw = {"params": params} if params else {}
    text = annotated(search=search, **kw)
    line, col, msg, _ = bad_input(tmp_path, text)
    assert what in msg
    want = line_of(text, needle)
    assert line == want, msg
    src = text.splitlines()[want - 1]
    assert 1 <= col <= len(src) and src[col - 1] != " ", (src, col)


def test_missing_decl_file_is_located(tmp_path):
    text = annotated(input_vars="arg decl_file = 'nonexist.h';")
    line, col, msg, _ = bad_input(tmp_path, text)
    assert line == line_of(text, "decl_file") and "nonexist.h" in msg


# --- bug 11: decl_file declarations also used for the best file -------------------------------

def test_decl_file_search_writes_the_best_file(tmp_path):
    (tmp_path / "decl_code.h").write_text("double x[N];\ndouble y[N];\ndouble a;\n")
    f = tmp_path / "axpy.c"
    f.write_text("""/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O1'; }
  def performance_counter { arg repetitions = 1; }
  def performance_params { param UF[] = [1, 2]; }
  def input_params { param N[] = [64]; }
  def input_vars { arg decl_file = 'decl_code.h'; }
  def search { arg algorithm = 'Exhaustive'; arg total_runs = 1; }
) @*/
int i;
/*@ begin CHiLL ( unroll(0,"i",UF) ) @*/
for (i = 0; i < N; i++)
  y[i] = y[i] + a * x[i];
/*@ end @*/
/*@ end @*/
""")
    rc, out, err = cli("search", f, "--db", tmp_path / "a.db", "--no-progress")
    assert rc == 0, out + err
    assert "error" not in err
    best = tmp_path / "axpy.best.c"
    assert best.exists() and "if (N == 64)" in best.read_text()


# --- several CHiLL regions in one PerfTuning block are tuned jointly (Orio measures the block) ---

JOINT = """/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O1'; }
  def performance_counter { arg repetitions = 2; }
  def performance_params {
    param TJ[] = [8, 16];
    param U0[] = [1, 2];
    param U1[] = [1, 4];
    constraint few = TJ == 8 or U1 == 1;
  }
  def input_params { param N[] = [40, 45]; }
  def input_vars {
    decl static double A[N][N] = random;
    decl static double x1[N] = random;
    decl static double x2[N] = random;
    decl static double ya[N] = random;
    decl static double yb[N] = random;
  }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
int i, j;
/*@ begin CHiLL (
  tile(0,"j",TJ,"jj")
  permute(0,("jj","i","j"))
  unroll(0,"j",U0)
) @*/
for (i = 0; i < N; i++)
  for (j = 0; j < N; j++)
    x1[i] = x1[i] + A[i][j] * ya[j];
/*@ end @*/
/*@ begin CHiLL (
  permute(0,("j","i"))
  unroll(0,"i",U1)
) @*/
for (i = 0; i < N; i++)
  for (j = 0; j < N; j++)
    x2[i] = x2[i] + A[j][i] * yb[j];
/*@ end @*/
/*@ end @*/
"""


def test_several_chill_regions_in_one_block_are_tuned_jointly(tmp_path):
    from fragments import check_best
    f = tmp_path / "mvt2.c"
    f.write_text(JOINT)
    db = tmp_path / "j.db"
    rc, out, err = cli("search", f, "--db", db, "--no-progress")
    assert rc == 0, out + err
    with ResultsDB(db, create=False) as rdb:
        searches = rdb.searches()
        assert sorted(s.key.split("|")[-1] for s in searches) == ["r0+1", "r0+1"]
        for s in searches:
            recs = rdb.evaluations(s.key)
            assert len(recs) == 6 and all(r.ok for r in recs)
            assert all("region 0" in r.recipe and "region 1" in r.recipe for r in recs)
            # one point configures both regions: U1 = 4 unrolls region 1, whatever TJ/U0 do
            assert len({r.code_hash for r in recs}) == 6
    best = tmp_path / "mvt2.best.c"
    text = best.read_text()
    assert text.count("if (N == 40) {") == 2 and text.count("else if (N == 45) {") == 2
    check_best(str(f), str(best), [{"N": 40}, {"N": 45}, {"N": 43}], tmp_path)
    # a bad step in the second region is reported there, before anything is measured
    bad = JOINT.replace('unroll(0,"i",U1)', 'unroll(0,"q",U1)')
    (tmp_path / "bad.c").write_text(bad)
    rc, out, err = cli("search", tmp_path / "bad.c", "--db", tmp_path / "b.db", "--no-progress")
    assert rc == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    line = line_of(bad, 'unroll(0,"q",U1)')
    assert f"bad.c:{line}: step 2 (unroll)" in err and "'q'" in err


def test_several_perftuning_blocks_are_refused(tmp_path):
    text = annotated() + annotated().replace("int i, j;\n", "")
    line, col, msg, _ = bad_input(tmp_path, text)
    assert "several PerfTuning blocks" in msg
    assert line == [k for k, ln in enumerate(text.splitlines(), 1) if "begin PerfTuning" in ln][1]


# --- Orio fragments outside `search`, --define over listed sizes, Orio option spellings --------

def test_transform_run_and_deps_read_a_fragments_inputs(tmp_path):
    """A fragment declares its arrays in input_vars and sizes in input_params: transform, run and
    deps use them (the first problem size unless --define gives one), as search does."""
    f = tmp_path / "frag.c"
    f.write_text(annotated())
    rc, out, err = cli("transform", f)
    assert rc == 0, err
    assert "ii < 2" in out and "j < 32" in out, out              # N = 32, the listed size
    rc, out, err = cli("transform", f, "-D", "N=40")
    assert rc == 0 and "j < 40" in out, err
    rc, out, err = cli("run", f, "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err
    rc, out, err = cli("deps", f)
    assert rc == 0 and "S0" in out, err


def test_define_collapses_listed_sizes_into_one_search(tmp_path):
    f = tmp_path / "two.c"
    f.write_text(annotated().replace("param N[] = [32];", "param N[] = [32, 48];"))
    rc, out, err = cli("search", f, "-D", "N=32", "--no-progress", "--db", tmp_path / "t.db")
    assert rc == 0, out + err
    assert out.count("looptx search") == 1 and "[N=32]" in out
    assert (tmp_path / "two.best.c").exists()


def test_orio_option_spellings(tmp_path):
    """`<orio name>_<option>` (randomsearch_local_distance) is the searcher's option, and Orio's
    use_z3 is accepted with a warning."""
    f = tmp_path / "o.c"
    f.write_text(annotated(search="arg algorithm = 'Randomsearch'; arg total_runs = 1; "
                                  "arg randomsearch_local_distance = 1; arg use_z3 = False;"))
    rc, out, err = cli("search", f, "--no-progress", "--db", tmp_path / "t.db")
    assert rc == 0, out + err
    assert "use_z3" in err and "ignored" in err


def test_replay_prints_the_best_point_and_refuses_db(tmp_path):
    f = tmp_path / "r.c"
    f.write_text(annotated(search="arg algorithm = 'Exhaustive';"))
    db = tmp_path / "t.db"
    assert cli("search", f, "--no-progress", "--db", db)[0] == 0
    cache = tmp_path / "kt.json"
    assert cli("report", db, "--kernel-tuner", cache)[0] == 0
    rc, out, err = cli("search", "--replay", cache, "-a", "exhaustive")
    assert rc == 0, err
    best = (tmp_path / "r.best.c").read_text()
    point = re.search(r'point (\{.*?\})', best).group(1)
    assert f"best point {point}" in out, (out, point)
    rc, out, err = cli("search", "--replay", cache, "--db", db)
    assert rc == 2 and "--db" in err


def test_best_file_uses_the_users_names_for_isl_reserved_ones(tmp_path):
    """A loop variable named like an isl keyword is renamed inside looptx; the best file, like
    every other output, must spell it as the user did."""
    text = annotated(params="param U[] = [1, 2];", recipe='unroll(0,"max",U)').replace(
        "int i, j;", "int i, max;").replace("j < N; j++", "max < N; max++").replace(
        "[j]", "[max]").replace("j = 0", "max = 0")
    assert "max" in text and "[j]" not in text, text
    f = tmp_path / "kw.c"
    f.write_text(text)
    rc, out, err = cli("search", f, "--db", tmp_path / "kw.db", "--no-progress")
    assert rc == 0, out + err
    best = (tmp_path / "kw.best.c").read_text()
    assert "lx_kw_" not in best and "max" in best


def test_resume_keeps_the_recorded_batch_size_and_time_limit(tmp_path):
    # probe 59: a batch-4 search resumed without --batch-size went on with batches of 1 (other
    # points than the uninterrupted search), and its time limit was dropped
    f, db = tmp_path / "b.c", tmp_path / "b.db"
    f.write_text(annotated(search="arg algorithm = 'Randomsearch';"))
    rc, out, err = cli("search", f, "--db", db, "--budget", 2, "--batch-size", 4, "--time-limit", 900,
                       "--no-progress")
    assert rc == 0, out + err
    rc, out, err = cli("search", f, "--db", db, "--resume", "--budget", 4, "--no-progress")
    assert rc == 0, out + err
    with ResultsDB(db, create=False) as rdb:
        (info,) = rdb.searches()
        assert len(rdb.evaluations(info.key)) == 4
    assert info.state["batch_size"] == 4 and info.time_limit == 900, info


def test_an_interrupt_that_isl_swallowed_still_stops_the_search(tmp_path, monkeypatch):
    # probe 59: a SIGTERM raised inside an isl callback during the setup was printed by islpy and
    # lost, and the search ran its whole budget; the handler's note now stops it at its first round
    import looptx.search.param_checks as pc
    from looptx.search.command import Terminated
    from looptx.search.interrupt import note_signal
    real = pc.check_recipe

    def swallowed(*a, **k):
        note_signal(Terminated)          # what the handler does before islpy eats the exception
        return real(*a, **k)
    monkeypatch.setattr(pc, "check_recipe", swallowed)
    f, db = tmp_path / "t.c", tmp_path / "t.db"
    f.write_text(annotated(search="arg algorithm = 'Randomsearch';"))
    rc, out, err = cli("search", f, "--db", db, "--budget", 4, "--no-progress")
    assert rc == 143 and "SIGTERM" in err, out + err
    with ResultsDB(db, create=False) as rdb:
        assert all(not rdb.evaluations(s.key) for s in rdb.searches())
