"""`--resume` continues the search the database recorded: its budget, and for a problem size
interrupted before its first evaluation, its searcher and seed as well (probe 52)."""
from __future__ import annotations

import sqlite3

from conftest import run_cli as cli
from test_search_options import annotated, lines

from looptx.search.db import ResultsDB


def _info(db):
    with ResultsDB(db, create=False) as rdb:
        return {i.key: i for i in rdb.searches()}


def test_resume_keeps_the_recorded_budget_over_total_runs(tmp_path):
    f = tmp_path / "an.c"
    f.write_text(annotated("arg algorithm = 'Simplex'; arg total_runs = 2;"))
    db = tmp_path / "t.db"
    assert cli("search", f, "--no-progress", "--db", db, "-a", "random", "--seed", 5, "--budget", 3)[0] == 0
    # no --budget: the recorded 3 goes on (nothing is left to measure), not total_runs = 2
    rc, out, err = cli("search", f, "--no-progress", "--db", db, "--resume")
    assert rc == 0, out + err
    assert ": random, budget 3," in out, out
    assert f"the search in '{db}' was recorded with budget 3, which --resume continues; the " \
           "annotation's total_runs is 2 (give --budget 2 to change it)" in err, err
    (info,) = _info(db).values()
    assert info.budget == 3 and info.n_evals == 3 and info.seed == 5
    # --budget is the one way to change it
    rc, out, err = cli("search", f, "--no-progress", "--db", db, "--resume", "--budget", 4)
    assert rc == 0 and ": random, budget 4," in out, out + err
    (info,) = _info(db).values()
    assert info.budget == 4 and info.n_evals == 4


def test_a_size_interrupted_before_its_first_evaluation_resumes_as_recorded(tmp_path):
    f = tmp_path / "an.c"
    f.write_text(annotated("arg algorithm = 'Simplex'; arg total_runs = 1;")
                 .replace("param N[] = [32];", "param N[] = [32, 48];"))
    db = tmp_path / "t.db"
    rc, out, err = cli("search", f, "--no-progress", "--db", db, "-a", "random", "--seed", 5, "--budget", 2)
    assert rc == 0, out + err
    second = [k for k in _info(db) if '"N": 48' in k][0]
    # as an interrupt leaves it: the record of the second size, with no evaluation yet
    c = sqlite3.connect(str(db))
    with c:
        c.execute("DELETE FROM evaluations WHERE search_id = "
                  "(SELECT id FROM searches WHERE search_key = ?)", (second,))
        c.execute("UPDATE searches SET status = 'interrupted' WHERE search_key = ?", (second,))
    c.close()
    rc, out, err = cli("search", f, "--no-progress", "--db", db, "--resume")
    assert rc == 0, out + err
    heads = [ln for ln in out.splitlines() if ln.startswith("looptx search")]
    assert len(heads) == 2 and all(": random, budget 2," in h for h in heads), out
    info = _info(db)[second]
    assert (info.searcher, info.seed, info.budget, info.n_evals) == ("random", 5, 2, 2)
    assert not any("simplex" in ln for ln in lines(err) if "warning" not in ln), err
