"""The search's summary cut each failed point's error at 300 characters, just before the
remedy that looptx's one-line errors end with (for an Orio annotation, the declaration inside
the loop that removes a reused temporary's dependence); it is kept whole now."""
from pathlib import Path

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "search_errors"


def test_the_summary_keeps_the_remedy_of_an_illegal_point(tmp_path):
    src = tmp_path / "mv.c"
    src.write_text((DATA / "mv_spapt.c").read_text())
    rc, out, err = run_cli("search", src, "--budget", "6", "--no-progress", "--db", tmp_path / "mv.db")
    assert "illegal x" in out, out + err
    line = next(ln for ln in out.splitlines() if "illegal x" in ln)
    assert "declaring 'sdp' inside loop 'i'" in line and line.endswith("or pass --unsafe)"), line
