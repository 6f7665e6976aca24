"""Gaps found in session 65 (probes 164 G2, G3 and what probes 167-169 found), end to end."""
import re

import pytest

from conftest import run_cli, runs_ok

pytestmark = pytest.mark.usefixtures("private_build_cache")

DATA = __import__("pathlib").Path(__file__).resolve().parent / "data" / "gaps65"
GAPS64 = DATA.parent / "gaps64"


def test_output_of_a_short_counter_reads_again(tmp_path):
    """Probe 164 G2: a `short i` counter's output, `if (n < 32768) { (void)i; for (int i ...) }
    else { for (i = 0; ...) }`, was refused when read again: its `(void)i` and the fallback's
    loop were "another variable than the counter".  Neither reads the loop's `i`; the fallback's
    loop, where its counter would wrap, is left to the new output's own fallback."""
    first, second = tmp_path / "once.c", tmp_path / "twice.c"
    rc, _, err = run_cli("transform", DATA / "short_counter.c", "--recipe", DATA / "tile_i4.yaml", "-o", first)
    assert rc == 0 and "(void)i;" in first.read_text(), err
    rc, _, err = run_cli("transform", first, "--function", "f", "--recipe", DATA / "tile_i4.yaml", "-o", second)
    assert rc == 0, err
    assert second.read_text().count("if (n < 32768)") == 1
    runs_ok(first, DATA / "tile_i4.yaml", [0, 5, 13], "--function", "f")


def test_a_read_after_a_loop_of_the_same_name_is_still_another_variable(tmp_path):
    """The function's `i` read after its own loop is that loop's exit value, not the value of a
    `for (int i ...)` beside it: still refused, with the rename."""
    src = tmp_path / "k.c"
    src.write_text("void f(int n, int m, double *a, double *x) {\n  int i;\n#pragma scop\n"
                   "  for (i = 0; i < n; i++)\n    a[i] = 1.0;\n  for (int i = 0; i < m; i++)\n    a[i] += 2.0;\n"
                   "  x[i] = 3.0;\n#pragma endscop\n}\n")
    rc, _, err = run_cli("transform", src)
    assert rc == 2 and re.search(r"k\.c:8:\d+: error: 'i' here is another variable", err), err


def test_a_chain_of_transforms_keeps_one_fallback(tmp_path):
    """Probe 164 G3: each transform of an output `if (n >= 1) { new } else { as written }` kept
    the whole earlier output in its `else`, so a chain of steps grew without end.  The `else`
    runs where the same facts fail, where the earlier output ran its own `else`: only that is
    kept.  Each output is checked at sizes on both sides of the fact."""
    prev = GAPS64 / "div_bound.c"
    for k, recipe in enumerate(("tile_i4.yaml", "unroll_i2.yaml", "tile_i4.yaml")):
        out = tmp_path / f"step{k}.c"
        rc, _, err = run_cli("transform", prev, "--recipe", GAPS64 / recipe, "-o", out)
        assert rc == 0, err
        assert out.read_text().count("if (n >= 1)") == 1, out.read_text()
        prev = out
    assert len(prev.read_text()) < 1200
    runs_ok(prev, GAPS64 / "unroll_i2.yaml", [-3, 0, 1, 2, 7, 37])


def test_the_header_lists_the_privatize_steps_a_chill_script_got(tmp_path):
    """A CHiLL script's command that got privatize steps (cp.py's `dx`, `dy`, `dz`) had a
    header with the script's commands alone: given again as a recipe, it was refused.  The
    header lists the privatize steps before the command, and gives the same file again."""
    first, again, recipe = tmp_path / "cp.cu", tmp_path / "again.cu", tmp_path / "header.yaml"
    rc, _, err = run_cli("transform", GAPS64 / "cp.c", "--recipe", GAPS64 / "cp.py", "--target", "cuda", "-o", first)
    assert rc == 0, err
    head = first.read_text().split("*/", 1)[0]
    steps = [ln.split("*", 1)[1].strip() for ln in head.splitlines()[3:] if ln.strip().startswith("*")]
    at = steps.index("privatize: {var: dx, at: n}")
    assert steps[at:at + 3] == ["privatize: {var: dx, at: n}", "privatize: {var: dy, at: n}",
                                "privatize: {var: dz, at: n}"], steps
    recipe.write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps))
    rc, _, err = run_cli("transform", GAPS64 / "cp.c", "--function", "cenergy_cpu", "--recipe", recipe,
                         "--target", "cuda", "-o", again)
    assert rc == 0, err
    assert again.read_text().split("*/", 1)[1] == first.read_text().split("*/", 1)[1]


def test_read_only_views_into_one_array_are_read():
    """Probe 167 G1: IRSmk's rmatmult3 reads `x` through 27 pointers `x - kp - jp - 1`, ...,
    `x + kp + jp + 1`, and writes none of them.  Refused as "both point into x", though reads
    alone carry no dependence.  The CHiLL script runs; a view the region writes is still
    refused."""
    for n in (5, 37):
        rc, out, err = run_cli("run", DATA / "views.c", "--recipe", DATA / "views_unroll.py", "-D", f"n={n}")
        assert rc == 0 and ": ok" in out, out + err
    rc, _, err = run_cli("transform", DATA / "views_written.c", "--function", "smooth")
    assert rc == 2 and "'xr' and 'xl' both point into x" in err, err


def test_a_row_at_a_constant_subscript_of_an_index_table():
    """Probe 167 G2: `x[i + idx[1][k]]` (SMG2000's `(*dxp_s)[si]`) was refused as "'idx[1]' has
    0 dimension(s) but 1 subscript(s)": the row `idx[1]` was taken for an element at constant
    subscripts, read once before the region."""
    rc, out, err = run_cli("transform", DATA / "index_row.c", "--function", "f", "--recipe", DATA / "unroll_i2.yaml")
    assert rc == 0, err
    assert "x[i + 1 + idx[2][k]]" in out and "x[idx[1][k]] * (i + 1)" in out, out


def test_a_fuse_of_loops_shared_already_says_so():
    """Probe 167: CHiLL's AKp256 test, fuse([0,1],1) of two `i` loops inside one `j` loop,
    changed nothing without a word.  The note names the level that fuses the loops inside."""
    rc, out, err = run_cli("transform", DATA / "AKp256hack.c", "--recipe", DATA / "akp256_fuse1.py")
    assert rc == 0 and out.count("for (i = 0; i < N; i++)") == 2, out
    assert "akp256_fuse1.py:5: note: step 1 (fuse): statements 0, 1 share their loops down to level 1 already: " \
           "nothing to do (fuse([0,1],2) fuses the loops inside it)" in err, err


def _copy(tmp_path, name):
    dst = tmp_path / name
    dst.write_text((DATA / name).read_text())
    return dst


def test_best_file_of_an_orio_fragment_declares_its_counters(tmp_path):
    """Probe 168 G1: the best file of an Orio CUDA fragment whose counters nothing declares ran
    the fragment as written (`for (i=0; ...)`) for other sizes: `'i' undeclared` where Orio's
    driver pastes it.  Its block declares them."""
    src = _copy(tmp_path, "orio_cuda_frag.c")
    rc, _, err = run_cli("search", src, "--budget", "2", "--db", tmp_path / "s.db")
    assert rc == 0, err
    best = (tmp_path / "orio_cuda_frag.best.c").read_text()
    assert "else {\n  int i;\n" in best, best
    (tmp_path / "wrap.c").write_text("#define N 1000\nint n = N;\ndouble x[N], y[N];\n"
                                     "void tuned(void) {\n#include \"orio_cuda_frag.best.c\"\n}\n")
    import subprocess
    r = subprocess.run(["gcc", "-Wall", "-Werror", "-c", "wrap.c", "-o", "wrap.o"], cwd=tmp_path,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_define_gives_an_annotation_or_script_param_its_value(tmp_path):
    """Probe 168 G2: `-D UF=4` for `Unroll(ufactor=UF)` in a Loop annotation with no PerfTuning
    block (Orio's _orio_perftest files) was ignored and UF "unknown"; so was a CHiLL script's
    `unroll(0,1,UF)`.  Both take -D's value, as a YAML recipe's `$UF` does; without it the
    hint names -D."""
    rc, out, err = run_cli("transform", DATA / "loop_no_tuning.c", "-D", "UF=4")
    assert rc == 0 and "y[i + 3] = 2.0 * x[i + 3];" in out, out + err
    rc, _, err = run_cli("transform", DATA / "loop_no_tuning.c")
    assert rc == 2 and "give it with -D UF=VALUE" in err, err
    rc, out, err = run_cli("transform", DATA / "short_counter.c", "--recipe", DATA / "unroll_uf.py", "-D", "UF=2")
    assert rc == 0 and "unroll: {stmt: 0, loop: 1, factor: 2}" in out, out + err


def test_a_string_input_param_is_no_problem_size():
    """Probe 168 G3: Orio's MPIOverlap example's `param datatype = 'MPI_BYTE';` refused the file
    as a problem size that is no integer.  Orio #defines it; looptx notes that it does not."""
    rc, out, err = run_cli("transform", DATA / "string_input_param.c", "-D", "UF=2")
    assert rc == 0, err
    assert "string_input_param.c:7: note: input param 'datatype' = 'MPI_BYTE' is no problem size" in err, err


def test_cflags_replacing_the_build_command_that_uses_a_param(tmp_path):
    """Probe 168 G4: with --cflags, a CFLAGS param of the build command `icc @CFLAGS` was "used
    by no step, recipe or build command"."""
    src = _copy(tmp_path, "cflags_param.c")
    rc, _, err = run_cli("search", src, "--cflags", "-O2", "--budget", "2", "--db", tmp_path / "s.db")
    assert rc == 0, err
    assert "param 'CFLAGS' is used only by the build command 'icc @CFLAGS', which this search replaces by " \
           "'gcc -O2' (--cflags)" in err, err


def test_an_orio_fragment_with_its_loops_under_an_if(tmp_path):
    """Probe 168 G5: BG/P's align_unroll fragment, `int i; if (a != 0.0) { Loop }`, was a
    "syntax error before 'if'": Orio pastes the fragment into its driver's main, where an `if`
    is a statement."""
    rc, out, err = run_cli("run", DATA / "fragment_if.c", "-D", "UF=4")
    assert rc == 0 and ": ok" in out, out + err
    rc, out, err = run_cli("transform", DATA / "fragment_if.c", "-D", "UF=4")
    assert rc == 0 and "if (a != 0.0) {" in out, out + err


@pytest.mark.parametrize("name, says", [
    ("orio_pack.c", "Orio's Pack transformation is not generated by looptx (copy the array into a packed buffer"),
    ("orio_mpi.c", "Orio's MPIOverlap transformation is not generated by looptx (looptx generates no MPI"),
])
def test_orio_transformations_looptx_does_not_generate(name, says):
    """Probe 168 G6: Pack was an "unknown Orio transformation", MPIOverlap was told to map its
    loops to a GPU."""
    rc, _, err = run_cli("transform", DATA / name)
    assert rc == 2 and says in err and err.count("\n") == 1, err


def test_a_size_never_reached_resumes_with_the_recorded_settings(tmp_path):
    """Probe 169 G1: a search interrupted between two problem sizes resumed the second with the
    annotation's searcher, budget and seed (random, 6, 6), not the recorded ones, though the
    resume said the recorded budget and searcher go on."""
    import json
    import sqlite3
    src = tmp_path / "mvt.c"
    src.write_text((DATA.parents[2] / "annotations" / "mvt.c").read_text())
    db = tmp_path / "m.db"
    rc, _, err = run_cli("search", src, "-a", "annealing", "--budget", "2", "--seed", "1", "--batch-size", "2",
                         "-D", "N=64", "--db", db, "--no-progress")
    assert rc == 0, err
    rc, out, err = run_cli("search", src, "--resume", "--db", db, "--no-progress")
    assert rc == 0 and "[N=96]: annealing, budget 2," in out, out + err
    rows = sqlite3.connect(db).execute("select search_key, searcher, seed, budget, status, state from searches").fetchall()
    assert {(k.split("|")[1], s, seed, b, st, json.loads(state)["batch_size"]) for k, s, seed, b, st, state in rows} == {
        ('{"N": 64}', "annealing", 1, 2, "finished", 2), ('{"N": 96}', "annealing", 1, 2, "finished", 2)}


def test_the_batch_size_is_recorded_before_the_first_evaluation(tmp_path):
    """Probe 169 G4: the batch size lived only in the searcher's state, saved every 5 s, so a
    search killed in its first seconds resumed with batch size 1."""
    from fakes.evaluators import FakeEvaluator, grid_space
    from looptx.search.db import ResultsDB
    from looptx.search.driver import run_search
    from looptx.search.random import RandomSearcher
    space, db, states = grid_space(), tmp_path / "r.looptx.db", []

    def first(rec):
        if not states:
            with ResultsDB(db) as rdb:
                states.append(rdb.get_search("s").state)
    run_search(space, RandomSearcher(space, max_evals=3, batch_size=3), FakeEvaluator(), db=db, search_key="s",
               budget=3, workers=1, progress=False, on_record=first)
    assert states and states[0] is not None and states[0]["batch_size"] == 3, states


def test_replay_and_report_errors_name_the_file_they_read(tmp_path):
    """Probe 169 G2: with --replay, a bad --budget (-O, --seed, ...) named no file; so did
    report's --top 0."""
    cache = DATA.parents[2] / "search" / "tccg_cuda_h200.json.gz"
    rc, _, err = run_cli("search", "--replay", cache, "--budget", "0")
    # probe 175 G7: a command-line error names the command, not the cache it would blame
    assert rc == 2 and err.startswith("looptx search: error: --budget must be at least 1"), err
    db = tmp_path / "none.db"
    import sqlite3
    sqlite3.connect(db).close()
    rc, _, err = run_cli("report", db, "--top", "0")
    assert rc == 2 and err.startswith(f"{db}: error: --top must be at least 1"), err
    t1 = tmp_path / "t1.json"
    t1.write_text("[]")
    rc, _, err = run_cli("search", "--replay", cache, "--t1", t1)
    assert rc == 2 and "expected a JSON object (give a T1 definition" in err, err


def test_an_output_path_the_system_refuses_is_bad_input(tmp_path):
    """Probe 169 G3: a file name too long for the system (`report --csv`, `search --db`) was an
    internal error (exit 1), after report had printed its table."""
    src = _copy(tmp_path, "orio_cuda_frag.c")
    long = tmp_path / ("a" * 300)
    rc, out, err = run_cli("search", src, "--budget", "1", "--db", f"{long}.db")
    assert rc == 2 and "File name too long (give another --db)" in err and err.count("\n") == 1, err
    rc, _, err = run_cli("search", src, "--budget", "1", "--db", tmp_path / "s.db")
    assert rc == 0, err
    rc, out, err = run_cli("report", tmp_path / "s.db", "--csv", f"{long}.csv")
    assert rc == 2 and out == "" and "cannot write here: File name too long" in err and err.count("\n") == 1, err


def test_temporaries_both_arms_set_are_private(tmp_path):
    """Probe 171 G1: Livermore 15's `if (c) { r = ...; s = ...; } else { r = ...; s = ...; }`
    was read as `r = c ? v : r` then `r = c ? r : w`, whose `: r` reads the last iteration's r:
    `omp_for private: [r, s]` and `privatize` were refused for a dependence C does not have.
    Both arms set the same places in the same order: one `r = c ? v : w` each."""
    rc, out, err = run_cli("run", DATA / "ifelse_two_temporaries.c", "--recipe", DATA / "omp_private_rs.yaml",
                           "-D", "n=100")
    assert rc == 0 and ": ok" in out, out + err
    rc, out, err = run_cli("deps", DATA / "ifelse_two_temporaries.c")
    assert rc == 0 and "WAR  S2 -> S0" in out and not re.search(r"RAW .* carried by k", out), out


def test_a_pragma_under_an_ifdef_with_a_call(tmp_path):
    """Probe 171 G2: `#ifdef OPEN` / `omp_set_num_threads(4);` / `#pragma omp parallel for` /
    `#endif` before `#pragma scop` (Rodinia backprop) left the pragma before the block the output
    writes: `-fopenmp -DOPEN` failed with "for statement expected".  The pragma goes onto the
    loop, under its #ifdef; the call stays."""
    import subprocess
    out = tmp_path / "out.c"
    rc, _, err = run_cli("transform", DATA / "omp_call_pragma.c", "-D", "OPEN=1", "-o", out)
    assert rc == 0, err
    text = out.read_text()
    assert "#ifdef OPEN\n  omp_set_num_threads(4);\n#endif" in text, text
    r = subprocess.run(["gcc", "-fopenmp", "-DOPEN", "-Wall", "-c", str(out), "-o", str(tmp_path / "o.o")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_a_function_whose_ifdef_group_a_call_splits(tmp_path):
    """Probe 171 G4: `--function` on backprop's layer, whose `#ifdef OPEN` group holds a call
    (outside any region) and the loop's pragma, was refused as a conditional that "opens on one
    side of the region", at the first statement.  The group stays outside both regions; the
    pragma goes onto the loop."""
    import subprocess
    out = tmp_path / "out.c"
    rc, _, err = run_cli("transform", DATA / "backprop_layer.c", "--function", "layer", "-D", "OPEN=1", "-o", out)
    assert rc == 0, err
    r = subprocess.run(["gcc", "-fopenmp", "-DOPEN", "-Wall", "-c", str(out), "-o", str(tmp_path / "o.o")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    rc, out, err = run_cli("run", DATA / "backprop_layer.c", "--function", "layer", "-D", "OPEN=1",
                           "-D", "n1=20", "-D", "n2=30")
    assert rc == 0 and out.count(": ok") == 2, out + err


def test_a_narrow_counters_start_is_checked(tmp_path):
    """Probe 170 G2 (a wrong result): `unsigned short i; for (i = n; i > 0; i--)` converts n into
    the counter's type: at n = -5 the loop starts at 65531, at 70000 at 4464, where the model
    started at n; the tiled output had no check and differed there.  The start's range is a fact
    the output checks (the region as written runs otherwise), compared here at sizes on both sides."""
    import subprocess
    out = tmp_path / "out.c"
    rc, _, err = run_cli("transform", DATA / "ushort_start.c", "--recipe", DATA / "tile_i4.yaml", "-o", out)
    assert rc == 0 and "modelled for (n) >= 0 and (n) <= 65535" in err, err
    assert "if (n >= 0 && n < 65536)" in out.read_text()
    for src, name in ((DATA / "ushort_start.c", "o"), (out, "v")):
        r = subprocess.run(["gcc", "-w", "-O1", f"-Df=f_{'orig' if name == 'o' else 'var'}", "-c", str(src),
                            "-o", str(tmp_path / f"{name}.o")], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    exe = tmp_path / "t"
    r = subprocess.run(["gcc", "-O1", str(DATA / "ushort_start_main.c"), str(tmp_path / "o.o"), str(tmp_path / "v.o"),
                        "-o", str(exe)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    for n in (-5, -1, 0, 7, 65535, 70000):
        r = subprocess.run([str(exe), str(n)], capture_output=True, text=True)
        assert r.returncode == 0, r.stdout
    # a start read from a size (m) and one from an outer loop's counter (n bounds it)
    rc, _, err = run_cli("transform", DATA / "uchar_start.c", "--recipe", DATA / "tile_i4.yaml")
    assert rc == 0 and "modelled for (m) >= 0 and (m) <= 255 and (n) <= 255" in err, err
    rc, _, err = run_cli("transform", DATA / "uchar_inner_start.c", "--recipe", DATA / "tile_i4.yaml")
    assert rc == 0 and "modelled for n <= 256" in err, err


def test_the_guards_of_a_long_chains_output_are_pruned_within_a_budget():
    """Probe 170 G1: the output of tile, tile, unroll, unroll over `/` bounds (200 lines, its
    `else` guards negated facts with divisions) took isl seconds per guard to prune when read
    again: `looptx run` ran past 300 s.  Each question has a budget; a guard it cannot decide
    stays.  (Run in a process of its own, with a limit, so that a regression fails rather than
    hangs.)"""
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "looptx", "run", str(DATA / "chain4_output.c"), "-D", "n=20", "-D", "m=9"],
                       capture_output=True, text=True, timeout=280)
    assert r.returncode == 0 and ": ok" in r.stdout, r.stdout + r.stderr


def _same_results(tmp_path, original, output, main, sizes, kern="kern"):
    """`original` and `output` built with gcc -O1 and -O3 and compared by `main` at each size."""
    import subprocess
    for opt in ("-O1", "-O3"):
        for src, name in ((original, "f_orig"), (output, "f_var")):
            r = subprocess.run(["gcc", "-w", opt, f"-D{kern}={name}", "-c", str(src), "-o", str(tmp_path / f"{name}.o")],
                               capture_output=True, text=True)
            assert r.returncode == 0, r.stderr
        r = subprocess.run(["gcc", opt, str(main), str(tmp_path / "f_orig.o"), str(tmp_path / "f_var.o"),
                            "-o", str(tmp_path / "t")], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        for n in sizes:
            r = subprocess.run([str(tmp_path / "t"), str(n)], capture_output=True, text=True)
            assert r.returncode == 0, (opt, r.stdout)


def test_narrow_counters_tested_with_not_equal(tmp_path):
    """Probe 172 G1/G3: `unsigned char i; for (i = n; i != 0; i--)` was refused as a test that
    "lets it pass 0", and `for (i = 0; i != n; i++)` as one that lets it pass 255: the start
    on the right side of the bound is a fact over the sizes where C first tests it."""
    down, up = tmp_path / "down.c", tmp_path / "up.c"
    rc, _, err = run_cli("transform", DATA / "uchar_down_ne.c", "--recipe", DATA / "tile_i4.yaml", "-o", down)
    assert rc == 0 and "modelled for (n) >= 0 and (n) <= 255:" in err, err
    rc, _, err = run_cli("transform", DATA / "uchar_up_ne.c", "--recipe", DATA / "tile_i4.yaml", "-o", up)
    assert rc == 0 and "modelled for n >= 0 and (n) <= 255:" in err, err
    main = DATA / "uchar_ne_main.c"
    _same_results(tmp_path, DATA / "uchar_down_ne.c", down, main, (-300, -5, 0, 1, 7, 255, 256, 300, 70000))
    _same_results(tmp_path, DATA / "uchar_up_ne.c", up, main, (0, 1, 5, 8, 255))


def test_arms_that_set_the_same_temporaries_in_another_order(tmp_path):
    """Probe 172 G2: `{ r = a[k]; s = b[k]; } else { s = a[k]; r = b[k]; }` kept the
    `r = c ? r : ...` reading, a false carried RAW: privatize was refused.  The other arm, whose
    order does not matter, is read in the first arm's order."""
    rc, out, err = run_cli("deps", DATA / "arms_other_order.c")
    assert rc == 0 and "r = (a[k] > b[k]) ? (a[k]) : (b[k])" in out and not re.search(r"RAW .* carried by k", out), out
    rc, out, err = run_cli("run", DATA / "arms_other_order.c", "--recipe", DATA / "omp_private_rs.yaml", "-D", "n=50")
    assert rc == 0 and ": ok" in out, out + err
