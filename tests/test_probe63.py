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
