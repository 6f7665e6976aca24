"""Probe 52 (autotuning end to end on Orio-style files): a constraint written as a string
would hold at every point; it is refused at its text.  A param whose values are all whole
floats stops the search at its line, and constraints that hold nowhere give one line."""
import re
from pathlib import Path

from conftest import cli_process as cli

DATA = Path(__file__).resolve().parent / "data" / "probe52"


def test_a_quoted_constraint_is_refused_where_it_is_written():
    p = cli("search", "b24_constraint_str.c", "--budget", "2", cwd=DATA)
    assert p.returncode == 2, p.stdout + p.stderr
    assert p.stderr.strip() == ("b24_constraint_str.c:19:24: error: constraint tiles is a string, which holds at "
                                "every point (write the condition without quotes: constraint tiles = TI * TJ <= 64;)"), p.stderr
    assert not list(DATA.glob("*.looptx.db")), "nothing is measured"


def test_a_param_of_whole_floats_stops_at_its_line_before_measuring():
    """`[16/2, 4]` is [8.0, 4.0] under true division: every point fails the tile step."""
    p = cli("search", "m4_true_div_tile.c", "-D", "M=24", "--budget", "4", cwd=DATA)
    assert p.returncode == 2, p.stdout + p.stderr
    assert re.fullmatch(re.escape(
        "m4_true_div_tile.c:14:11: error: param 'TI' has the values 8.0, 4.0, floats where an integer "
        "is needed (argument 'size' must be an integer >= 1, got ") + r"[84]\.0" + re.escape(
        ") ('/' is true division in an annotation: write // for a whole quotient, or give TI whole "
        "numbers)"), p.stderr.strip()), p.stderr
    assert not list(DATA.glob("*.looptx.db")), "nothing is measured"


def test_constraints_that_hold_nowhere_give_one_line():
    p = cli("search", "b04_never_true.c", "--budget", "4", cwd=DATA)
    assert p.returncode == 2, p.stdout + p.stderr
    assert p.stderr.strip() == (
        "b04_never_true.c:19:16: error: constraint 'tiles' holds for no point for M=24, N=20, K=17: "
        "the search space is empty (relax the constraint or add param values)"), p.stderr
