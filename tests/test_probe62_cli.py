"""Probe 62, bad input at the command line: an output path that names one of the command's
inputs is refused before anything is written (transform -o, search --db, report exports, through
any spelling, symlink or hard link); duplicate YAML keys; options that do not apply or conflict
(--t1 without --replay, --executor with --workers, one -D twice, --standalone for C); extra
CHiLL arguments; a script's procedure() against --function; `-o -`; messages for a missing
header, a float or huge tile size, CUDA without pycuda, and a recipe given as the C file."""
import hashlib
import os
import shutil
from pathlib import Path

import pytest

from conftest import run_cli
from test_probe55 import _one_error

DATA = Path(__file__).resolve().parent / "data" / "probe62"


def _digest(path) -> str:
    return hashlib.md5(Path(path).read_bytes()).hexdigest()


@pytest.fixture
def gemm(tmp_path):
    for name in ("gemm.c", "gemm.yaml"):
        shutil.copy(DATA / name, tmp_path / name)
    return tmp_path / "gemm.c"


# ---- group 4: nothing the user ran is lost ----

def _other_spelling(p: Path) -> str:
    return os.path.join(str(p.parent), "..", p.parent.name, p.name)


@pytest.mark.parametrize("how", ["same", "spelled", "symlink", "hardlink"])
def test_transform_refuses_to_write_over_its_input(gemm, how):
    src, out = gemm, str(gemm)
    if how == "spelled":
        out = _other_spelling(gemm)
    elif how == "symlink":
        out = str(gemm.parent / "link.c")
        os.symlink(gemm.name, out)
    elif how == "hardlink":
        out = str(gemm.parent / "hard.c")
        os.link(gemm, out)
    before = _digest(src)
    _one_error(*run_cli("transform", src, "--recipe", gemm.parent / "gemm.yaml", "-o", out),
               f"gemm.c: error: -o {out} is the input file: writing it would overwrite it",
               "(give another path)")
    assert _digest(src) == before


def test_transform_refuses_to_write_over_its_recipe(gemm):
    recipe = gemm.parent / "gemm.yaml"
    before = _digest(recipe)
    _one_error(*run_cli("transform", gemm, "--recipe", recipe, "-o", recipe),
               "-o", "is the recipe: writing it would overwrite it")
    assert _digest(recipe) == before


def test_transform_refuses_to_write_over_a_header_it_includes(tmp_path):
    shutil.copy(DATA / "missinc.c", tmp_path / "missinc.c")
    shutil.copytree(DATA / "inc", tmp_path / "inc")
    header = tmp_path / "inc" / "polybench.h"
    before = _digest(header)
    _one_error(*run_cli("transform", tmp_path / "missinc.c", "-I", tmp_path / "inc", "-o", header),
               "a header missinc.c includes")
    assert _digest(header) == before


def test_transform_to_a_new_file_still_works(gemm):
    out = gemm.parent / "gemm.out.c"
    rc, _, err = run_cli("transform", gemm, "--recipe", gemm.parent / "gemm.yaml", "-o", out)
    assert rc == 0, err
    assert "lx_floord" in out.read_text()


def test_dash_o_dash_writes_to_stdout(gemm, monkeypatch):
    monkeypatch.chdir(gemm.parent)
    rc, out, err = run_cli("transform", gemm, "--recipe", gemm.parent / "gemm.yaml", "-o", "-")
    assert rc == 0, err
    assert "generated from gemm.c" in out and not (gemm.parent / "-").exists()


@pytest.fixture
def jac(tmp_path):
    shutil.copy(DATA / "jac.c", tmp_path / "jac.c")
    return tmp_path / "jac.c"


def test_search_db_that_is_the_best_file_is_refused(jac):
    best = jac.parent / "jac.best.c"
    _one_error(*run_cli("search", jac, "--budget", 2, "--db", best, "--no-progress"),
               f"--db {best} is the file the search writes its best variant to",
               "give --db another path, e.g. the default")
    assert not best.exists()


def test_search_db_that_is_the_input_is_refused_before_any_output(jac):
    before = _digest(jac)
    rc, out, err = run_cli("search", jac, "--budget", 2, "--db", _other_spelling(jac), "--no-progress")
    _one_error(rc, out, err, "is the input file: writing it would overwrite it")
    assert out == "" and _digest(jac) == before


def _db(tmp_path) -> Path:
    from test_report import make_db
    return make_db(tmp_path / "rep.db")


@pytest.mark.parametrize("option", ["--csv", "--json", "--kernel-tuner"])
def test_report_refuses_to_export_over_its_database(tmp_path, option):
    db = _db(tmp_path)
    before = _digest(db)
    rc, out, err = run_cli("report", db, option, _other_spelling(db))
    _one_error(rc, out, err, f"{option} ", "is the results database: writing it would overwrite it")
    assert out == "" and _digest(db) == before


# ---- group 7: duplicate YAML keys ----

@pytest.mark.parametrize("text, where, key, first", [
    ("steps:\n  - tile: {stmt: 0, loop: i, size: 16}\nsteps:\n  - unroll: {stmt: 0, loop: j, factor: 2}\n",
     "3:1", "steps", 1),
    ("steps:\n  - tile: {stmt: 0, loop: i, size: 16, size: 32}\n", "2:40", "size", 2),
    ("params: {T: 8, T: 16}\nsteps:\n  - tile: {stmt: 0, loop: i, size: $T}\n", "1:16", "T", 1),
    ("steps:\n  - tile:\n      stmt: 0\n      loop: i\n      stmt: 1\n      size: 8\n", "5:7", "stmt", 3),
])
def test_duplicate_yaml_keys_are_bad_input(gemm, text, where, key, first):
    r = gemm.parent / "dup.yaml"
    r.write_text(text)
    _one_error(*run_cli("transform", gemm, "--recipe", r),
               f"dup.yaml:{where}: error: duplicate key '{key}' (first at line {first})")


def test_merge_keys_still_work(gemm):
    r = gemm.parent / "anchors.yaml"
    r.write_text("steps:\n  - tile: &t {stmt: 0, loop: i, size: 16, control: ii}\n"
                 "  - tile: {<<: *t, loop: j, control: jj}\n")
    rc, out, err = run_cli("transform", gemm, "--recipe", r)
    assert rc == 0, err
    assert "ii" in out and "jj" in out


def test_two_steps_under_one_dash_say_so(gemm):
    r = gemm.parent / "two.yaml"
    r.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 16}\n    unroll: {stmt: 0, loop: j, factor: 2}\n")
    _one_error(*run_cli("transform", gemm, "--recipe", r),
               "one-key mapping, got tile, unroll", "start each step with its own '- ' line")


# ---- group 8: options that do not apply, conflict, or say too much ----

def test_t1_without_replay_is_refused(jac):
    _one_error(*run_cli("search", jac, "--t1", jac.parent / "x.json"),
               "--t1 works with --replay only")


def test_executor_address_with_workers_is_refused(jac):
    _one_error(*run_cli("search", jac, "--executor", "dask://localhost:8786", "--workers", 2),
               "--workers with --executor dask://localhost:8786")


def test_one_define_with_two_values_is_refused(gemm):
    err = _one_error(*run_cli("transform", gemm, "--recipe", gemm.parent / "gemm.yaml",
                              "-D", "ni=20", "-D", "ni=30"))
    assert "ni=20" in err and "ni=30" in err


def test_one_define_given_twice_alike_is_fine(gemm):
    rc, _, err = run_cli("deps", gemm, "-D", "ni=20", "-D", "ni=20")
    assert rc == 0, err


def test_standalone_for_c_is_refused(gemm):
    _one_error(*run_cli("transform", gemm, "--standalone"), "--standalone", "--target cuda")


def test_extra_chill_tile_arguments_are_refused():
    _one_error(*run_cli("transform", DATA / "toomany.c"),
               "toomany.c:6:1: error: tile takes at most 4 arguments", "got 8")


def test_chill_tile_with_its_arguments_still_works(tmp_path):
    src = tmp_path / "mm.c"
    src.write_text((DATA / "toomany.c").read_text().replace('tile(0,"i",16,"ii",1,2,3,4)', 'tile(0,"i",16,"ii")'))
    rc, out, err = run_cli("transform", src)
    assert rc == 0 and "ii" in out, err


def test_script_procedure_that_is_not_the_function_is_refused():
    _one_error(*run_cli("transform", DATA / "mm_plain.c", "--recipe", DATA / "bad2.script",
                        "--function", "mm"),
               "bad2.script:3:1: error: the script's procedure 'matmul' is not --function mm")


def test_script_procedure_that_is_the_function_works(tmp_path):
    script = tmp_path / "mm.script"
    script.write_text("from chill import *\nprocedure('mm')\nloop(0)\ntile(0,2,16)\n")
    rc, out, err = run_cli("transform", DATA / "mm_plain.c", "--recipe", script, "--function", "mm")
    assert rc == 0, err


# ---- group 9: messages ----

def test_missing_header_says_to_give_its_folder():
    _one_error(*run_cli("deps", DATA / "missinc.c"),
               "polybench.h: No such file or directory (give its folder with -I DIR)")
    rc, _, err = run_cli("deps", DATA / "missinc.c", "-I", DATA / "inc")
    assert rc == 0, err


def test_a_float_size_in_a_yaml_recipe_gets_a_yaml_remedy(gemm):
    r = gemm.parent / "f.yaml"
    r.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 16.0}\n")
    err = _one_error(*run_cli("transform", gemm, "--recipe", r), "got 16.0", "write 16")
    assert "annotation" not in err


def test_a_huge_size_names_the_range_a_size_takes(gemm):
    r = gemm.parent / "h.yaml"
    r.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 99999999999}\n")
    _one_error(*run_cli("transform", gemm, "--recipe", r), "between 1 and 2147483647")


def test_run_cuda_without_pycuda_is_a_setup_error(gemm, monkeypatch):
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "pycuda" else real(name, *a))
    _one_error(*run_cli("run", gemm, "--recipe", gemm.parent / "gemm.yaml", "--target", "cuda"),
               "--target cuda needs pycuda", "pip install 'looptx[cuda]'")


def test_a_yaml_recipe_given_as_the_c_file_says_so(tmp_path):
    f = tmp_path / "notc.c"
    f.write_text("# a recipe\nparams: {T: 8}\nsteps:\n  - tile: {stmt: 0, loop: i, size: $T}\n")
    err = _one_error(*run_cli("transform", f), "notc.c:1:1: error: the file is a YAML recipe, not C")
    assert "Directives" not in err
