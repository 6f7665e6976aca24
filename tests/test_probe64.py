"""Probe 64, CHiLL's own example scripts as written: the classic `.script` language reads a bare
relation in known() as a fact and a bare array name as the array; a `.script` with only its
header and inspection lines is the identity; CHiLL's one-argument permute(pi) on an imperfect
nest (the identity is a no-op, others are refused with the distribute-then-permute remedy, in
the script's numbers); distributing statements already apart is a no-op; print_structure();
skew([1],1,[4]) is a scale; the cuda step's privatize hint names every temporary at once."""
from pathlib import Path

from conftest import run_cli
from test_probe55 import _one_error

DATA = Path(__file__).resolve().parent / "data" / "probe64"
MM_SIZES = ("-D", "ambn=7", "-D", "an=5", "-D", "bm=6")


def _ok(rc, out, err):
    assert rc == 0, out + err
    return out, err


def _validated(*argv):
    out, err = _ok(*run_cli("run", *argv))
    assert ": ok " in out + err, out + err


def _body(c_text: str) -> str:
    """The generated code without its provenance comment (which names the recipe)."""
    return c_text[c_text.index("*/") + 2:] if c_text.lstrip().startswith("/*") else c_text


# ---- G1: bare identifiers in the classic .script language -----------------------------------

def test_a_bare_relation_in_known_is_a_fact():
    out, err = _ok(*run_cli("transform", DATA / "mm.c", "--recipe", DATA / "test_known.script"))
    assert "unknown name" not in err
    _validated(DATA / "mm.c", "--recipe", DATA / "test_known.script", *MM_SIZES)


def test_a_bare_fact_is_the_quoted_fact(tmp_path):
    bare = (DATA / "test_known.script").read_text()
    quoted = tmp_path / "quoted.script"
    quoted.write_text(bare.replace("known(ambn > 0)", "known('ambn > 0')"))
    a, _ = _ok(*run_cli("transform", DATA / "mm.c", "--recipe", DATA / "test_known.script"))
    b, _ = _ok(*run_cli("transform", DATA / "mm.c", "--recipe", quoted))
    assert _body(a) == _body(b)


def test_a_script_variable_keeps_its_value_in_a_fact():
    # ambn = 10 makes the fact `10 > 0`, not the value True (which no fact is)
    _ok(*run_cli("transform", DATA / "mm.c", "--recipe", DATA / "remedy.script"))


def test_a_bare_relation_in_a_python_script_is_a_fact_too(tmp_path):
    script = tmp_path / "k.py"
    script.write_text("from chill import *\nsource('mm.c')\nprocedure('mm')\nloop(0)\nN = 2\n"
                      "known(ambn > N)\nunroll(1,3,2)\n")
    _, err = _ok(*run_cli("transform", DATA / "mm.c", "--recipe", script))
    assert "assign it earlier" not in err


def test_a_bare_array_name_in_a_classic_script_is_the_array(tmp_path):
    bare = (DATA / "gemm.script").read_text()
    quoted = tmp_path / "gemm_q.script"
    quoted.write_text(bare.replace("datacopy(0,3,a,", 'datacopy(0,3,"a",').replace("datacopy(0,4,b)", 'datacopy(0,4,"b")'))
    a, _ = _ok(*run_cli("transform", DATA / "gemm.c", "--recipe", DATA / "gemm.script"))
    b, _ = _ok(*run_cli("transform", DATA / "gemm.c", "--recipe", quoted))
    assert _body(a) == _body(b) and "a_buf" in _body(a) and "b_buf" in _body(a)


def test_a_bare_name_of_the_region_in_a_python_script_is_still_refused(tmp_path):
    # Python looks the name up: only the classic language reads it as the array
    script = tmp_path / "d.py"
    script.write_text("from chill import *\nsource('gemm.c')\nprocedure('gemm')\nloop(0)\n"
                      "datacopy(0,3,a)\n")
    _one_error(*run_cli("transform", DATA / "gemm.c", "--recipe", script), "unknown parameter 'a'")


# ---- G2: header and inspection lines only -----------------------------------------------------

def test_a_script_with_only_its_header_and_print_is_the_identity():
    for name in ("only_print.script", "header_only.script"):
        out, err = _ok(*run_cli("transform", DATA / "mm.c", "--recipe", DATA / name))
        assert "YAML" not in err and "recipe section" not in err
        assert "C[i][j] = C[i][j] + A[i][n] * B[n][j];" in out
        _validated(DATA / "mm.c", "--recipe", DATA / name, *MM_SIZES)


# ---- G3: CHiLL's one-argument permute on an imperfect nest -------------------------------------

def test_the_identity_permutation_of_an_imperfect_nest_is_a_no_op():
    out, err = _ok(*run_cli("transform", DATA / "permute123456.c", "--recipe", DATA / "permute6.script.py"))
    assert "permute([1,2,3]) keeps every loop at its level" in err
    _validated(DATA / "permute123456.c", "--recipe", DATA / "permute6.script.py", *MM_SIZES)


def test_a_whole_nest_permute_a_shallower_statement_cannot_take_says_what_works():
    err = _one_error(*run_cli("transform", DATA / "permute123456.c", "--recipe", DATA / "permute1.script.py"),
                     "step 4 (permute)", "permute([3,1,2]) applies to every statement of the nest",
                     "statement 0 is inside levels 1..2 only (i, j)",
                     "distribute([0,1],1) then permute([1],[3,1,2])")
    assert "has no loop level" not in err
    _one_error(*run_cli("transform", DATA / "mm.c", "--recipe", DATA / "test_permute.script"),
               "distribute([0,1],1) then permute([1],[3,1,2])")


def test_the_suggested_remedy_transforms_and_validates(tmp_path):
    script = tmp_path / "fixed.py"
    script.write_text("from chill import *\nsource('permute123456.c')\nprocedure('mm')\nloop(0)\n"
                      "known('ambn > 0')\ndistribute([0,1],1)\npermute([1],[3,1,2])\n")
    _validated(DATA / "permute123456.c", "--recipe", script, *MM_SIZES)


def test_a_whole_nest_permute_that_every_statement_can_take_applies(tmp_path):
    # [2,1,3] swaps i and j, which statement 0 is inside too
    script = tmp_path / "p4.script.py"
    script.write_text((DATA / "permute6.script.py").read_text().replace("permute([1,2,3])", "permute([2,1,3])"))
    out, _ = _ok(*run_cli("transform", DATA / "permute123456.c", "--recipe", script))
    assert out.index("for (j") < out.index("for (i")
    _validated(DATA / "permute123456.c", "--recipe", script, *MM_SIZES)


# ---- G4: distribute of statements already apart ----------------------------------------------

def test_distributing_statements_already_in_separate_loops_is_a_no_op():
    _, err = _ok(*run_cli("transform", DATA / "fuseexample.c", "--recipe", DATA / "fuseexample2.script.py"))
    assert "S0, S1 are already in separate loops at level 1: nothing to do" in err
    _validated(DATA / "fuseexample.c", "--recipe", DATA / "fuseexample2.script.py", *MM_SIZES)


def test_the_later_steps_after_a_no_op_distribute_work():
    out, err = _ok(*run_cli("transform", DATA / "fuse_distribute.c", "--recipe",
                            DATA / "fuse_distribute.script.py"))
    assert "already in separate loops at level 2" in err
    # shift([2],2,1) then fuse([1,2],2): B[j] = 1.0 and the shifted B update share one j loop
    assert out.count("for (j") == 2, out
    _validated(DATA / "fuse_distribute.c", "--recipe", DATA / "fuse_distribute.script.py")


# ---- G5: print_structure ------------------------------------------------------------------------

def test_print_structure_is_an_inspection_command():
    _ok(*run_cli("transform", DATA / "p46.c", "--recipe", DATA / "p46.script.py"))


# ---- G7: skew whose own coefficient is not 1 -------------------------------------------------------

def test_a_skew_list_ending_in_k_is_scale_by_k(tmp_path):
    out, err = _ok(*run_cli("transform", DATA / "mm.c", "--recipe", DATA / "test_skew.script"))
    assert "read as scale(..,1,4)" in err
    scale = tmp_path / "scale.script"
    scale.write_text((DATA / "test_skew.script").read_text().replace("skew([1],1,[4])", "scale([1],1,4)"))
    same, _ = _ok(*run_cli("transform", DATA / "mm.c", "--recipe", scale))
    assert _body(out) == _body(same)
    _validated(DATA / "mm.c", "--recipe", DATA / "test_skew.script", *MM_SIZES)


def test_a_skew_list_of_the_wrong_length_shows_the_list_form(tmp_path):
    script = tmp_path / "s.script"
    script.write_text("source: mm.c\nprocedure: mm\nloop: 0\n\nskew([1],2,[4])\n")
    err = _one_error(*run_cli("transform", DATA / "mm.c", "--recipe", script), "skew([0],2,[1,1])")
    assert '{"i":1}' not in err


# ---- G8: the cuda step names every temporary to privatize -----------------------------------------

def test_the_cuda_step_gets_every_temporary_private():
    # (a YAML recipe is told them; a CUDA-CHiLL script gets them, as CHiLL makes them private)
    rc, out, err = run_cli("transform", DATA / "nbody.c", "--recipe", DATA / "nbody.lua", "--target", "cuda")
    assert rc == 0 and "step 3 (cuda): as in CHiLL, each iteration has its own 'r0', 'r1', 'r2', 'invDist', " \
        "'invDistCube', 'mass'" in err, err


def test_a_bare_split_condition_is_read_as_written(tmp_path):
    script = tmp_path / "sp.script"
    script.write_text("source: mm.c\nprocedure: mm\nloop: 0\nS = 3\nsplit(1,1,L1 < S)\n")
    out, err = _ok(*run_cli("transform", DATA / "mm.c", "--recipe", script))
    assert "split: {stmt: 1, loop: 1, at: L1 < 3}" in out and "VALUE" not in err
    _validated(DATA / "mm.c", "--recipe", script, *MM_SIZES)


def test_a_chill_shift_of_part_of_a_loop_is_refused_with_the_distribute(tmp_path):
    # shift([1],1,4) where loop i also holds statement 0: CHiLL offsets S1 against S0; a
    # shift of the loop would move both (the step silently changed nothing)
    _one_error(*run_cli("transform", DATA / "mm.c", "--recipe", DATA / "test_shift.script"),
               "loop 'i' also holds statement 0", "distribute([0, 1],1)")
    # listing every statement of the loop is the loop's shift
    s = tmp_path / "s.script"
    s.write_text((DATA / "test_shift.script").read_text().replace("shift([1],1,4)", "shift([0,1],1,4)"))
    rc, out, err = run_cli("transform", DATA / "mm.c", "--recipe", s)
    assert rc == 0, err
