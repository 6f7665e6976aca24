"""Probe 52 (autotuning end to end on Orio-style files): a constraint written as a string
would hold at every point; it is refused at its text."""
from pathlib import Path

from conftest import cli_process as cli

DATA = Path(__file__).resolve().parent / "data" / "probe52"


def test_a_quoted_constraint_is_refused_where_it_is_written():
    p = cli("search", "b24_constraint_str.c", "--budget", "2", cwd=DATA)
    assert p.returncode == 2, p.stdout + p.stderr
    assert p.stderr.strip() == ("b24_constraint_str.c:19:24: error: constraint tiles is a string, which holds at "
                                "every point (write the condition without quotes: constraint tiles = TI * TJ <= 64;)"), p.stderr
    assert not list(DATA.glob("*.looptx.db")), "nothing is measured"
