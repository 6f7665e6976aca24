"""Probe 63 (Orio's own annotated files): Orio declares a fragment's loop counters itself, so a
region whose counters nothing declares (its MatMatMult CUDA test) counts with ints of its own."""
from conftest import run_cli
from test_search_regressions import annotated


def test_undeclared_loop_counters_of_an_orio_region_are_ints_of_their_loops(tmp_path):
    f, db = tmp_path / "t.c", tmp_path / "t.db"
    f.write_text(annotated(search="arg algorithm = 'Randomsearch';").replace("int i, j;\n", ""))
    rc, out, err = run_cli("search", f, "--db", db, "--budget", 2, "--no-progress")
    assert rc == 0 and "nothing declares the loop counters i, j" in err, out + err
    assert "for (int i" in (tmp_path / "t.best.c").read_text()


def test_an_overrun_is_located_at_the_statement_that_leaves_the_array(tmp_path):
    # SPAPT dgemv3's second nest runs j <= M: the error named the first, in-bounds A[i][j]
    from pathlib import Path
    data = Path(__file__).resolve().parent / "data" / "probe63"
    rc, out, err = run_cli("search", data / "oob_loc.c", "--budget", 1, "--db", tmp_path / "o.db", "--no-progress")
    assert rc == 2 and err.count("\n") == 1 and "oob_loc.c:20:25:" in err and "passes the array's end" in err, err


def test_run_of_a_file_whose_build_command_names_a_missing_compiler_is_located(tmp_path):
    # Orio's UnrollJam tests name icc: `run` said "compile_error: compiler 'icc' not found", exit 1
    f = tmp_path / "t.c"
    text = annotated(build="arg build_command = 'icc -O2';")
    f.write_text(text)
    line = next(k for k, ln in enumerate(text.splitlines(), 1) if "icc -O2" in ln)
    rc, out, err = run_cli("run", f, "--repetitions", 1)
    assert rc == 2 and err.count("\n") == 1 and f"t.c:{line}:" in err and "'icc' is not installed" in err, out + err
