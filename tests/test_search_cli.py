"""`looptx search` and `looptx report` end to end on the C backend: every annotated file of
annotations/ with every searcher, the best variant checked against the original fragment, the
size dispatch of a two-size search, bad annotations through the command line, report exports."""
from __future__ import annotations

import json
import pathlib
import re
import shutil

import pytest
from conftest import run_cli as cli

from conftest import annotated_files
from fragments import check_best
from looptx.search.registry import available_searchers
from looptx.search.db import ResultsDB

ROOT = pathlib.Path(__file__).resolve().parent.parent
ANNOTATED = [p.name for p in annotated_files()]
SEARCHERS = available_searchers()
BAD = sorted((ROOT / "tests" / "bad_annotations").glob("*.c"))
# A good annotation never produces a wrong, crashing or uncompilable variant: those statuses
# would be looptx bugs.  Pruned points (constraints checked late, legality, device limits) may.
FINE = {"ok", "illegal", "invalid", "over_limit"}



@pytest.fixture
def work(tmp_path):
    shutil.copytree(ROOT / "annotations", tmp_path / "ann")
    return tmp_path / "ann"


def records(db):
    with ResultsDB(db, create=False) as rdb:
        return {s.key: rdb.evaluations(s.key) for s in rdb.searches()}


def test_at_least_eight_annotated_files_and_all_searchers():
    assert len(ANNOTATED) >= 8
    for name in ("exhaustive", "random", "simplex", "annealing", "greedy_ils", "pso", "genetic",
                 "surf", "surf+"):
        assert name in SEARCHERS


def _pairs() -> list[tuple[str, str]]:
    """Every file with the default searcher and with one other, the others in turn, so that
    every searcher runs end to end on two files or more (each searcher's own behaviour is
    unit-tested on synthetic spaces; 81 full searches cost CI 1.5 minutes)."""
    others = [s for s in SEARCHERS if s != "surf+"]
    out = []
    for k, name in enumerate(ANNOTATED):
        out += [(name, "surf+"), (name, others[k % len(others)]), (name, others[(k + 4) % len(others)])]
    return out


def test_pairs_run_every_searcher_twice():
    runs = [s for _, s in _pairs()]
    assert all(runs.count(s) >= 2 for s in SEARCHERS), runs


@pytest.mark.parametrize("name,searcher", _pairs())
def test_search_each_file_with_three_searchers(work, name, searcher):
    db = work / f"{searcher}.db"
    rc, out, err = cli("search", work / name, "--algorithm", searcher, "--budget", 3, "--seed", 2,
                       "--db", db, "--no-progress")
    assert rc == 0, out + err
    assert "error" not in err
    best = work / name.replace(".c", ".best.c")
    assert best.exists() and "looptx search" in best.read_text()
    for key, recs in records(db).items():
        assert 1 <= len(recs) <= 3, key
        assert [r.eval_index for r in recs] == list(range(len(recs)))
        assert {r.status for r in recs} <= FINE, [(r.status, r.error) for r in recs]
        assert len({r.point_key for r in recs}) == len(recs), "a point was measured twice"
        assert any(r.ok for r in recs)
    if searcher == "surf+":
        best_matches_the_original(work, name, db, best)


def best_matches_the_original(work, name, db, best):
    """The written .best.c computes what the fragment computes, at the tuned size(s) and at a
    size that was not tuned (the dispatch's fallback to the original)."""
    text = best.read_text()
    tuned = [json.loads(k.split("|")[1]) for k in records(db)]
    guards = [set(m.group(1).split(" && ")) for m in re.finditer(r"^(?:else )?if \((.*)\) \{$", text, re.M)]
    for sizes in tuned:
        assert {f"{k} == {v}" for k, v in sizes.items()} in guards, guards
    other = {k: v + 3 for k, v in tuned[0].items()}
    check_best(str(work / name), str(best), tuned + [other], work)


def test_two_problem_sizes_give_two_searches_and_a_dispatch(work):
    db = work / "mvt.db"
    rc, out, _ = cli("search", work / "mvt.c", "--algorithm", "random", "--budget", 3, "--db", db,
                     "--no-progress")
    assert rc == 0
    keys = sorted(records(db))
    assert len(keys) == 2 and '"N": 64' in keys[0] and '"N": 96' in keys[1]
    text = (work / "mvt.best.c").read_text()
    assert re.search(r"^if \(N == 64\) \{", text, re.M)
    assert re.search(r"^else if \(N == 96\) \{", text, re.M)
    assert re.search(r"^else \{", text, re.M)
    assert text.count("[N=64]") == 1 and text.count("[N=96]") == 1     # provenance of both


def test_provenance_header(work):
    db = work / "m.db"
    rc, _, _ = cli("search", work / "matmul.c", "--algorithm", "exhaustive", "--budget", 2,
                   "--db", db, "--no-progress")
    assert rc == 0
    head = (work / "matmul.best.c").read_text().split("*/")[0]
    for needle in ("looptx", "exhaustive", "backend c", "median", "evaluation", "code hash",
                   "gcc", "tile:", "TI"):
        assert needle in head, needle


def test_default_db_and_best_names(work):
    rc, _, _ = cli("search", work / "axpy.c", "--budget", 2, "--no-progress")
    assert rc == 0
    assert (work / "axpy.looptx.db").exists() and (work / "axpy.best.c").exists()


def test_resume_does_not_measure_again(work):
    db = work / "r.db"
    assert cli("search", work / "matmul.c", "-a", "random", "--budget", 3, "--db", db,
               "--no-progress")[0] == 0
    first = records(db)
    assert cli("search", work / "matmul.c", "-a", "random", "--budget", 5, "--db", db, "--resume",
               "--no-progress")[0] == 0
    second = records(db)
    for key, recs in first.items():
        again = second[key]
        assert len(again) == 5
        assert [(r.point_key, r.timestamp, r.time) for r in again[:3]] == \
               [(r.point_key, r.timestamp, r.time) for r in recs]
        assert len({r.point_key for r in again}) == 5


def test_same_search_without_resume_is_refused(work):
    db = work / "r.db"
    assert cli("search", work / "axpy.c", "--budget", 2, "--db", db, "--no-progress")[0] == 0
    rc, _, err = cli("search", work / "axpy.c", "--budget", 2, "--db", db, "--no-progress")
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "--resume" in err


def test_spec_file_on_the_command_line(work, tmp_path):
    """--spec FILE gives the tuning spec to a file without a PerfTuning block, and --recipe a
    YAML recipe whose $PARAMS the search binds."""
    src = tmp_path / "scale.c"
    src.write_text("void scale(int n, double a[n], double b[n]) {\n#pragma scop\n"
                   "  for (int i = 0; i < n; i++)\n    a[i] = 2.0 * b[i] + a[i];\n#pragma endscop\n}\n")
    (tmp_path / "scale.spec").write_text(
        "spec scale {\n def performance_params { param U[] = [1, 2, 4, 8]; }\n"
        " def input_params { param n[] = [100]; }\n def search { arg algorithm = 'Exhaustive'; }\n}\n")
    (tmp_path / "unroll.yaml").write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: $U}\n")
    rc, out, err = cli("search", src, "--spec", tmp_path / "scale.spec", "--recipe",
                       tmp_path / "unroll.yaml", "--no-progress")
    assert rc == 0, out + err
    recs = next(iter(records(tmp_path / "scale.looptx.db").values()))
    assert len(recs) == 4 and all(r.ok for r in recs)
    assert len({r.code_hash for r in recs}) == 4
    assert "unroll: {stmt: 0, loop: i, factor:" in (tmp_path / "scale.best.c").read_text()


def test_identical_code_is_measured_once(tmp_path):
    src = tmp_path / "dup.c"
    src.write_text("""/*@ begin PerfTuning (
  def performance_params { param T[] = [1, 64, 128, 256]; param U[] = [1]; }
  def input_params { param N[] = [32]; }
  def input_vars { decl static double x[N] = random; }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
int i;
/*@ begin CHiLL ( tile(0,"i",T,"ii") ) @*/
for (i = 0; i < N; i++) x[i] = 2.0 * x[i];
/*@ end @*/
/*@ end @*/
""")
    rc, out, err = cli("search", src, "--no-progress")
    assert rc == 0, out + err
    recs = next(iter(records(tmp_path / "dup.looptx.db").values()))
    # T >= N all give one tile: the same code, measured once
    measured = [r for r in recs if r.duplicate_of is None]
    dups = [r for r in recs if r.duplicate_of is not None]
    assert len(recs) == 4 and len(dups) >= 2
    assert all(r.code_hash == recs[r.duplicate_of].code_hash for r in dups)
    assert len({r.code_hash for r in measured}) == len(measured)


def test_searcher_options_from_the_spec_reach_the_searcher(work):
    db = work / "a.db"
    rc, out, err = cli("search", work / "stencil-annealing.c", "--budget", 3, "--db", db,
                       "--no-progress")
    assert rc == 0 and "warning" not in err
    with ResultsDB(db, create=False) as rdb:
        info = rdb.searches()[0]
    assert info.searcher == "annealing"
    assert float(info.searcher_options["annealing_cooling_factor"]) == 0.9
    # another searcher on the command line: the annealing options are dropped with a warning
    rc, out, err = cli("search", work / "stencil-annealing.c", "-a", "random", "--budget", 2,
                       "--db", work / "b.db", "--no-progress")
    assert rc == 0 and "ignored by 'random'" in err


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.name)
def test_bad_annotation_is_one_line_exit_2(path, tmp_path):
    want = re.search(r"expect:\s*(\d+):(\d+)\s+(\S+)", path.read_text().splitlines()[0])
    rc, out, err = cli("search", path, "--budget", 1, "--db", tmp_path / "x.db", "--no-progress")
    assert rc == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"{path}:{want.group(1)}:{want.group(2)}: error: "), lines[0]
    assert want.group(3).lower() in lines[0].lower()
    assert not (tmp_path / "x.db").exists() or not records(tmp_path / "x.db")


@pytest.mark.parametrize("argv, needle", [
    (["--algorithm", "nosuch"], "unknown searcher 'nosuch'"),
    (["--budget", "-1"], "budget"),
    (["--workers", "0"], "workers"),
    (["--executor", "ftp://x"], "executor"),
    (["--executor", "dask://host"], "HOST:PORT"),
    (["-D", "N"], "bad --define"),
])
def test_bad_search_options(work, argv, needle, tmp_path):
    rc, _, err = cli("search", work / "axpy.c", "--db", tmp_path / "x.db", "--no-progress", *argv)
    assert rc == 2 and len(err.strip().splitlines()) == 1 and needle in err, err


def test_missing_file_and_missing_sizes(tmp_path):
    rc, _, err = cli("search", tmp_path / "nope.c")
    assert rc == 2 and len(err.strip().splitlines()) == 1
    src = tmp_path / "p.c"
    src.write_text("/*@ begin PerfTuning ( def performance_params { param U[] = [1, 2]; } ) @*/\n"
                   "/*@ begin CHiLL ( unroll(0,\"i\",U) ) @*/\n"
                   "for (int i = 0; i < N; i++) x[i] = 1.0;\n/*@ end @*/\n/*@ end @*/\n")
    rc, _, err = cli("search", src, "--no-progress")
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "N" in err, err


def test_report_tables_and_exports(work, tmp_path):
    db = work / "rep.db"
    assert cli("search", work / "matmul.c", "-a", "random", "--budget", 4, "--db", db,
               "--no-progress")[0] == 0
    rc, out, _ = cli("report", db)
    assert rc == 0 and "TI=" in out and "status: ok" in out
    rc, out, _ = cli("report", db, "--csv")
    assert rc == 0 and out.splitlines()[0].startswith("search_key,eval_index,status")
    assert len(out.strip().splitlines()) == 5
    rc, out, _ = cli("report", db, "--json")
    doc = json.loads(out)
    assert rc == 0 and sum(len(s["evaluations"]) for s in doc["searches"]) == 4
    png, cache = tmp_path / "c.png", tmp_path / "kt.json"
    rc, out, _ = cli("report", db, "--plot", png, "--kernel-tuner", cache)
    assert rc == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    kt = json.loads(cache.read_text())
    assert set(kt["tune_params_keys"]) == {"TI", "TJ", "UF"} and len(kt["cache"]) == 4
    # the exported search replays
    rc, out, _ = cli("search", "--replay", cache, "-a", "random", "--budget", 4)
    assert rc == 0 and "best found" in out


def test_report_bad_database(tmp_path):
    rc, _, err = cli("report", tmp_path / "none.db")
    assert rc == 2 and len(err.strip().splitlines()) == 1
    bad = tmp_path / "bad.db"
    bad.write_text("not a database")
    rc, _, err = cli("report", bad)
    assert rc == 2 and len(err.strip().splitlines()) == 1, err


def test_annotation_names_a_yaml_recipe(tmp_path):
    """`recipe("r/x.yaml")` in the CHiLL block: the path is relative to the annotated file and
    the recipe's $PARAMS are bound from the point."""
    (tmp_path / "r").mkdir()
    (tmp_path / "r" / "scale.yaml").write_text(
        "steps:\n  - tile: {stmt: 0, loop: i, size: $T, control: ii}\n"
        "  - unroll: {stmt: 0, loop: i, factor: $U}\n")
    src = tmp_path / "scale.c"
    src.write_text("""/*@ begin PerfTuning (
  def performance_params { param U[] = [1, 2, 4]; param T[] = [8, 16]; }
  def input_params { param N[] = [100]; }
  def input_vars { decl static double a[N] = random; decl static double b[N] = random; }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
int i;
/*@ begin CHiLL ( recipe("r/scale.yaml") ) @*/
for (i = 0; i < N; i++)
  a[i] = 2.0 * b[i] + a[i];
/*@ end @*/
/*@ end @*/
""")
    rc, out, err = cli("search", src, "--no-progress")
    assert rc == 0, out + err
    recs = next(iter(records(tmp_path / "scale.looptx.db").values()))
    assert len(recs) == 6 and all(r.ok for r in recs)
    assert {r.recipe.count("factor: ") for r in recs} == {1}
    assert len({r.code_hash for r in recs}) == 6
    check_best(str(src), str(tmp_path / "scale.best.c"), [{"N": 100}, {"N": 37}], tmp_path)


def test_simplex_coefficient_lists_from_the_annotation(work):
    src = work / "matmul.c"
    text = src.read_text().replace(
        "arg algorithm = 'Randomsearch'; arg total_runs = 8;",
        "arg algorithm = 'Simplex'; arg total_runs = 4; "
        "arg simplex_reflection_coef = [1.0, 1.5]; arg simplex_expansion_coef = [2.0, 3.0];")
    assert text != src.read_text()
    src.write_text(text)
    rc, out, err = cli("search", src, "--db", work / "s.db", "--no-progress")
    assert rc == 0, out + err
    assert (work / "matmul.best.c").exists()
    src.write_text(text.replace("[2.0, 3.0]", "[2.0, 0.5]"))
    rc, out, err = cli("search", src, "--db", work / "t.db", "--no-progress")
    assert rc == 2 and re.match(r"\S+matmul\.c:\d+:\d+: error: option 'expansion_coef'", err), err


def test_a_constraint_that_raises_rules_its_points_out_with_a_located_note(tmp_path):
    src = tmp_path / "z.c"
    src.write_text("""#define N 32
double A[N][N], B[N][N];
void f(void) {
/*@ begin PerfTuning (
  def performance_params {
    param T[] = [0, 2, 4];
    constraint c1 = (32 / T) > 4;
  }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
/*@ begin CHiLL ( tile(0,"i",T) ) @*/
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = B[i][j] * 2.0;
/*@ end @*/
/*@ end @*/
}
""")
    rc, out, err = cli("search", src, "--budget", 5, "--no-progress", "--db", tmp_path / "z.db")
    assert rc == 0, err
    assert (f"{src}:7: note: constraint c1 cannot be evaluated at T=0 (division by zero); "
            "the points where it cannot are ruled out") in err
    assert "2 valid points" in out, out


def _spec_file(tmp_path, search_args: str):
    src = tmp_path / "s.c"
    src.write_text(f"""#define N 16
double A[N][N], B[N][N];
void f(void) {{
/*@ begin PerfTuning (
  def performance_params {{ param T[] = [1, 2, 4, 8]; param U[] = [1, 2]; }}
  def search {{ {search_args} }}
) @*/
/*@ begin CHiLL ( tile(0,"i",T) unroll(0,"j",U) ) @*/
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = B[i][j] * 2.0;
/*@ end @*/
/*@ end @*/
}}
""")
    return src


def test_the_annotations_batch_size_reaches_the_searcher(tmp_path):
    src = _spec_file(tmp_path, "arg algorithm = 'Randomsearch'; arg total_runs = 4; arg batch_size = 4;")
    rc, out, err = cli("search", src, "--db", tmp_path / "s.db", "--no-progress")
    assert rc == 0, err
    with ResultsDB(tmp_path / "s.db", create=False) as rdb:
        assert rdb.searches()[0].state["batch_size"] == 4


@pytest.mark.parametrize("arg,what", [
    ("arg batch_size = 0;", "arg batch_size must be a positive integer, got 0"),
    ("arg workers = 'many';", "arg workers must be a positive integer, got 'many'"),
    ("arg seed = -1;", "arg seed must be a non-negative integer, got -1"),
    ("arg total_runs = 0;", "arg total_runs must be a positive integer, got 0"),
])
def test_bad_standard_search_args_are_located_errors(tmp_path, arg, what):
    src = _spec_file(tmp_path, arg)
    rc, out, err = cli("search", src, "--db", tmp_path / "s.db", "--no-progress")
    assert rc == 2 and len(err.strip().splitlines()) == 1 and err.startswith(f"{src}:6:"), err
    assert what in err, err


def test_a_negative_seed_on_the_command_line_is_bad_input(tmp_path):
    src = _spec_file(tmp_path, "")
    rc, _, err = cli("search", src, "--seed", -1, "--db", tmp_path / "s.db", "--no-progress")
    assert rc == 2 and "--seed must be 0 or more, got -1" in err and "Traceback" not in err, err


DATA_BRANCH = """/*@ begin PerfTuning (
  def performance_params { param U[] = [1, 2]; }
  def input_params { param N[] = [20]; }
  def input_vars { decl static double x[N] = random; decl static double y[N] = 0; }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
int i;
/*@ begin CHiLL ( unroll(0,"i",U) ) @*/
for (i = 0; i < N; i++)
  if (x[i] > 0.5) y[i] = x[i];
/*@ end @*/
/*@ end @*/
"""


def test_notes_name_the_file_as_the_command_line_does(tmp_path, monkeypatch):
    """A search loads its file by its absolute path; its notes once named it so, while its
    errors used the user's relative path."""
    (tmp_path / "branch.c").write_text(DATA_BRANCH)
    monkeypatch.chdir(tmp_path)
    rc, out, err = cli("search", "branch.c", "--no-progress")
    assert rc == 0, out + err
    notes = [ln for ln in err.splitlines() if ": note: " in ln]
    assert notes and all(ln.startswith("branch.c:") for ln in notes), err
