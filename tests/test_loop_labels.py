"""Loop labels that no goto names (MachSuite's `outer:for(...)`, Vitis HLS's `Shift_Accum_Loop:`
on its own line) were refused as "goto and labels are not supported", with a hint about jumps:
every labelled HLS kernel.  They are names, not control flow: the region is modelled without
them, with a note that the output does not have them."""
from pathlib import Path

import pytest

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "labels"


@pytest.mark.parametrize("size", [10, 12])
def test_labelled_loops_are_modelled_and_transformed(size):
    rc, out, err = run_cli("run", DATA / "gemm_ncubed.c", "--function", "gemm", "--recipe", DATA / "gemm_tile.yaml",
                           "-D", f"row_size={size}", "-D", f"col_size={size}", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err
    assert "the labels outer, middle, inner are not in the output" in err, err


def test_a_label_on_its_own_line_before_a_loop():
    rc, out, err = run_cli("deps", DATA / "fir11_label.c", "--function", "fir")
    assert rc == 0 and "i        [S1,S2,S3,S4] sequential" in out, out + err
    assert "fir11_label.c:9:1: note: the label Shift_Accum_Loop is not in the output" in err, err
    rc, out, err = run_cli("transform", DATA / "gemm_ncubed.c", "--function", "gemm", "--recipe",
                           DATA / "gemm_tile.yaml")
    assert rc == 0 and "outer:" not in out and "for (" in out, out + err


def test_a_label_a_goto_names_is_still_a_jump():
    rc, out, err = run_cli("deps", DATA / "goto_label.c", "--function", "f")
    assert rc == 2 and "goto_label.c:5:19: error: goto and labels are not supported" in err, err
