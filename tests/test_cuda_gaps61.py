"""CUDA gaps found by probe 148, end to end: which step an invalid mapping is blamed on, the
hint for a shared copy around the innermost block loop, and compare_host on pointer arrays."""
import re
import shutil
from pathlib import Path

import pytest

from conftest import run_cli
from cuda_on_threads import compare_host, element_counts

pytestmark = pytest.mark.usefixtures("private_build_cache")

DATA = Path(__file__).resolve().parent / "data" / "cuda_gaps61"

NO_EXTENT = "step 3 (cuda): error: thread loop 'i' has no constant extent (tile 'i'"


def _one_error_line(err: str) -> str:
    lines = [ln for ln in err.splitlines() if ": error: " in ln]
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize("src, recipe", [("tr.c", "r.yaml"), ("tri.c", "tri_shared.yaml"),
                                         ("tri.c", "tri_regs.yaml")])
def test_a_copy_step_does_not_hide_the_cuda_steps_own_error(tmp_path, src, recipe):
    """Probe 148 G1: the cuda step maps the untiled loop i to threads (no constant extent).
    The later copy step failed first, for a reason the bad mapping made (a footprint of no
    constant size, tiles a varying distance apart, threads of no constant extent), and the
    error named the copy step.  The cuda step's own error wins."""
    rc, out, err = run_cli("transform", DATA / src, "--recipe", DATA / recipe, "--target", "cuda",
                           "-o", tmp_path / "k.cu")
    assert rc == 2, out + err
    line = _one_error_line(err)
    assert f"{recipe}:4: {NO_EXTENT}" in line, err
    assert "step 4" not in err, err


@pytest.mark.parametrize("recipe", ["r0.yaml", "r_at_j.yaml", "r_dc.yaml"])
def test_without_a_failing_copy_the_cuda_error_is_as_before(tmp_path, recipe):
    rc, out, err = run_cli("transform", DATA / "tr.c", "--recipe", DATA / recipe, "--target", "cuda",
                           "-o", tmp_path / "k.cu")
    assert rc == 2 and f"{recipe}:4: {NO_EXTENT}" in _one_error_line(err), err


def test_a_copy_that_fails_under_a_valid_mapping_keeps_its_own_error(tmp_path):
    """Both loops tiled: the mapping is valid, and A[i][j], A[j][i] of the triangle still lie a
    varying distance apart, which is the shared step's own error."""
    rc, out, err = run_cli("transform", DATA / "tri.c", "--recipe", DATA / "tri_ok.yaml", "--target", "cuda",
                           "-o", tmp_path / "k.cu")
    assert rc == 2, out + err
    line = _one_error_line(err)
    assert "tri_ok.yaml:6: step 5 (shared): error:" in line and "varying distance apart" in line, err


def _around_error(err: str) -> str:
    line = _one_error_line(err)
    assert "shared around 'jj', which is at loop 'ii', which is mapped to blocks" in line, err
    # jj is the innermost block loop already: the old hint said to put the copy there
    assert "put it at the innermost block loop" not in line, err
    return line


def test_shared_around_the_innermost_block_loop_says_drop_around(tmp_path):
    """Probe 148 G2, YAML: the refusal is right (around jj is once per ii, for all its jj
    blocks); the hint now says to drop `around`, and that recipe is accepted."""
    rc, out, err = run_cli("transform", DATA / "st2.c", "--recipe", DATA / "st2_around.yaml", "--target", "cuda",
                           "-o", tmp_path / "k.cu")
    assert rc == 2
    assert "(drop 'around: true': the copy is then made at 'jj' itself" in _around_error(err), err
    fixed = tmp_path / "r.yaml"
    fixed.write_text((DATA / "st2_around.yaml").read_text().replace(", around: true", ""))
    rc, out, err = run_cli("transform", DATA / "st2.c", "--recipe", fixed, "--target", "cuda", "-o", tmp_path / "k.cu")
    assert rc == 0 and "__shared__ double A_sh" in (tmp_path / "k.cu").read_text(), err


def test_copy_to_shared_around_the_innermost_block_loop_in_a_lua_script(tmp_path):
    """Probe 148 G2, CUDA-CHiLL: copy_to_shared always copies around the loop it names in a
    .lua script; the hint names the loop inside jj, and that script is accepted."""
    shutil.copy(DATA / "lst.c", tmp_path / "lst.c")
    script = tmp_path / "s.lua"
    script.write_text((DATA / "lstb.lua").read_text())
    rc, out, err = run_cli("transform", tmp_path / "lst.c", "--recipe", script, "--target", "cuda",
                           "-o", tmp_path / "k.cu")
    assert rc == 2
    hint = re.search(r"\((CUDA-CHiLL's copy_to_shared copies around the loop it names: (.*?) copies around 'i', "
                     r"at 'jj'.*)\)$", _around_error(err))
    assert hint and hint.group(2) == 'copy_to_shared("i","A",-16)', err
    script.write_text(script.read_text().replace('copy_to_shared("jj","A",-16)', hint.group(2)))
    rc, out, err = run_cli("transform", tmp_path / "lst.c", "--recipe", script, "--target", "cuda",
                           "-o", tmp_path / "k.cu")
    assert rc == 0 and "__shared__ float A_sh" in (tmp_path / "k.cu").read_text(), err


def test_copy_to_shared_around_the_innermost_block_loop_in_an_annotation(tmp_path):
    """Probe 148 G2, a CHiLL annotation: the 4-argument form means around; the hint gives the
    3-argument form, which copies at jj, and that annotation is accepted."""
    src = tmp_path / "jac4.c"
    src.write_text((DATA / "jac4.c").read_text())
    rc, out, err = run_cli("transform", src, "--target", "cuda", "-o", tmp_path / "k.cu")
    assert rc == 2 and "jac4.c:14: step 10 (shared)" in err, err
    assert "(use the 3-argument form copy_to_shared(1,\"jj\",\"B\"), which copies at 'jj' itself" \
        in _around_error(err), err
    src.write_text(src.read_text().replace('copy_to_shared(1,"jj","B",1)', 'copy_to_shared(1,"jj","B")'))
    rc, out, err = run_cli("transform", src, "--target", "cuda", "-o", tmp_path / "k.cu")
    assert rc == 0 and "__shared__ double B_sh" in (tmp_path / "k.cu").read_text(), err


def test_compare_host_sizes_linearized_pointer_arrays(tmp_path):
    """Probe 148: the host code sizes a pointer array by its guarded footprint,
    `(n >= 3 && m >= 3) ? ... : 0`, which element_counts could not evaluate (ValueError)."""
    rc, out, err = run_cli("transform", DATA / "lst.c", "--recipe", DATA / "lst_shared.yaml", "--target", "cuda",
                           "-o", tmp_path / "k.cu")
    assert rc == 0, err
    cu = (tmp_path / "k.cu").read_text()
    assert re.search(r"lx_n_A = \(\(n >= 3 && m >= 3\) \?", cu), cu
    # the last element read is A[(n - 1) * m + m - 2]; nothing at sizes the loops skip
    assert element_counts(cu, {"n": 19, "m": 37}) == {"A": 18 * 37 + 36, "B": 17 * 37 + 36}
    assert element_counts(cu, {"n": 2, "m": 37}) == {"A": 0, "B": 0}
    for n, m in [(19, 37), (16, 32), (3, 3), (2, 5)]:
        diff = compare_host(cu, DATA / "lst.c", "lst", {"n": n, "m": m}, tmp_path / "b")
        assert max(diff.values()) == 0.0, (n, m, diff)
