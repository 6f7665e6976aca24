"""Gaps found by the probes of session 54 (and left open by earlier ones), each checked end to end."""
import pytest

from conftest import run_cli
from test_small_gaps53 import MM_VLA

pytestmark = pytest.mark.usefixtures("private_build_cache")

MM_GRID = ("steps:\n  - tile: {stmt: 0, loop: i, size: 8}\n  - tile: {stmt: 0, loop: j, size: 4}\n"
           "  - permute: {stmt: 0, order: [ii, jj, i, j, k]}\n  - cuda: {stmt: 0, block: [jj, ii], thread: [j, i]}\n")


@pytest.mark.parametrize("copy", ["datacopy: {stmt: 0, array: A, at: k, around: true}",
                                  "datacopy: {stmt: 0, array: A, at: j}"])
def test_a_per_thread_copy_around_a_loop_just_inside_the_thread_loops(tmp_path, copy):
    """Probe 96 G1: `around: true` at a loop whose parent is a thread loop skipped the thread
    loops, as a shared copy does, and was refused at a block loop; a datacopy is one
    thread's own, so around 'k' is at thread loop 'j', as `at: j` is."""
    src, rec = tmp_path / "mm.c", tmp_path / "r.yaml"
    src.write_text(MM_VLA)
    rec.write_text(MM_GRID + f"  - {copy}\n")
    rc, out, err = run_cli("run", src, "--recipe", rec, "-D", "n=37", "-D", "m=19", "-D", "p=16")
    assert rc == 0 and ": ok" in out, out + err
    rc, _, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda", "-D", "p=16")
    assert rc == 0, err


@pytest.mark.parametrize("copy,expected", [
    ("shared: {stmt: 0, array: A, at: jj, around: true}", "shared around 'jj', which is at loop 'ii'"),
    ("registers: {stmt: 0, array: C, at: jj}", "inside the innermost block loop 'jj'")])
def test_a_copy_at_a_block_loop_names_the_loop_the_user_wrote(tmp_path, copy, expected):
    """Probe 96 G2: the refusal named the loop `around` resolved to, and told registers (one
    thread's) to go inside the thread loops, where a loop between blocks and threads works."""
    src, rec = tmp_path / "mm.c", tmp_path / "r.yaml"
    src.write_text(MM_VLA)
    rec.write_text(MM_GRID + f"  - {copy}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda", "-D", "p=16")
    assert rc == 2 and "step 5" in err and expected in err and len(err.strip().splitlines()) == 1, err
