"""Gaps found in session 65 (probes 164 G2, G3 and what probes 167-169 found), end to end."""
import re

import pytest

from conftest import run_cli, runs_ok

pytestmark = pytest.mark.usefixtures("private_build_cache")

DATA = __import__("pathlib").Path(__file__).resolve().parent / "data" / "gaps65"
GAPS64 = DATA.parent / "gaps64"


def test_output_of_a_short_counter_reads_again(tmp_path):
    """Probe 164 G2: a `short i` counter's output, `if (n < 32768) { (void)i; for (int i ...) }
    else { for (i = 0; ...) }`, was refused when read again: its `(void)i` and the fallback's
    loop were "another variable than the counter".  Neither reads the loop's `i`; the fallback's
    loop, where its counter would wrap, is left to the new output's own fallback."""
    first, second = tmp_path / "once.c", tmp_path / "twice.c"
    rc, _, err = run_cli("transform", DATA / "short_counter.c", "--recipe", DATA / "tile_i4.yaml", "-o", first)
    assert rc == 0 and "(void)i;" in first.read_text(), err
    rc, _, err = run_cli("transform", first, "--function", "f", "--recipe", DATA / "tile_i4.yaml", "-o", second)
    assert rc == 0, err
    assert second.read_text().count("if (n < 32768)") == 1
    runs_ok(first, DATA / "tile_i4.yaml", [0, 5, 13], "--function", "f")


def test_a_read_after_a_loop_of_the_same_name_is_still_another_variable(tmp_path):
    """The function's `i` read after its own loop is that loop's exit value, not the value of a
    `for (int i ...)` beside it: still refused, with the rename."""
    src = tmp_path / "k.c"
    src.write_text("void f(int n, int m, double *a, double *x) {\n  int i;\n#pragma scop\n"
                   "  for (i = 0; i < n; i++)\n    a[i] = 1.0;\n  for (int i = 0; i < m; i++)\n    a[i] += 2.0;\n"
                   "  x[i] = 3.0;\n#pragma endscop\n}\n")
    rc, _, err = run_cli("transform", src)
    assert rc == 2 and re.search(r"k\.c:8:\d+: error: 'i' here is another variable", err), err


def test_a_chain_of_transforms_keeps_one_fallback(tmp_path):
    """Probe 164 G3: each transform of an output `if (n >= 1) { new } else { as written }` kept
    the whole earlier output in its `else`, so a chain of steps grew without end.  The `else`
    runs where the same facts fail, where the earlier output ran its own `else`: only that is
    kept.  Each output is checked at sizes on both sides of the fact."""
    prev = GAPS64 / "div_bound.c"
    for k, recipe in enumerate(("tile_i4.yaml", "unroll_i2.yaml", "tile_i4.yaml")):
        out = tmp_path / f"step{k}.c"
        rc, _, err = run_cli("transform", prev, "--recipe", GAPS64 / recipe, "-o", out)
        assert rc == 0, err
        assert out.read_text().count("if (n >= 1)") == 1, out.read_text()
        prev = out
    assert len(prev.read_text()) < 1200
    runs_ok(prev, GAPS64 / "unroll_i2.yaml", [-3, 0, 1, 2, 7, 37])


def test_the_header_lists_the_privatize_steps_a_chill_script_got(tmp_path):
    """A CHiLL script's command that got privatize steps (cp.py's `dx`, `dy`, `dz`) had a
    header with the script's commands alone: given again as a recipe, it was refused.  The
    header lists the privatize steps before the command, and gives the same file again."""
    first, again, recipe = tmp_path / "cp.cu", tmp_path / "again.cu", tmp_path / "header.yaml"
    rc, _, err = run_cli("transform", GAPS64 / "cp.c", "--recipe", GAPS64 / "cp.py", "--target", "cuda", "-o", first)
    assert rc == 0, err
    head = first.read_text().split("*/", 1)[0]
    steps = [ln.split("*", 1)[1].strip() for ln in head.splitlines()[3:] if ln.strip().startswith("*")]
    assert steps[2:5] == ["privatize: {var: dx, at: n}", "privatize: {var: dy, at: n}",
                          "privatize: {var: dz, at: n}"], steps
    recipe.write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps))
    rc, _, err = run_cli("transform", GAPS64 / "cp.c", "--function", "cenergy_cpu", "--recipe", recipe,
                         "--target", "cuda", "-o", again)
    assert rc == 0, err
    assert again.read_text().split("*/", 1)[1] == first.read_text().split("*/", 1)[1]


def test_read_only_views_into_one_array_are_read():
    """Probe 167 G1: IRSmk's rmatmult3 reads `x` through 27 pointers `x - kp - jp - 1`, ...,
    `x + kp + jp + 1`, and writes none of them.  Refused as "both point into x", though reads
    alone carry no dependence.  The CHiLL script runs; a view the region writes is still
    refused."""
    for n in (5, 37):
        rc, out, err = run_cli("run", DATA / "views.c", "--recipe", DATA / "views_unroll.py", "-D", f"n={n}")
        assert rc == 0 and ": ok" in out, out + err
    rc, _, err = run_cli("transform", DATA / "views_written.c", "--function", "smooth")
    assert rc == 2 and "'xr' and 'xl' both point into x" in err, err


def test_a_row_at_a_constant_subscript_of_an_index_table():
    """Probe 167 G2: `x[i + idx[1][k]]` (SMG2000's `(*dxp_s)[si]`) was refused as "'idx[1]' has
    0 dimension(s) but 1 subscript(s)": the row `idx[1]` was taken for an element at constant
    subscripts, read once before the region."""
    rc, out, err = run_cli("transform", DATA / "index_row.c", "--function", "f", "--recipe", DATA / "unroll_i2.yaml")
    assert rc == 0, err
    assert "x[i + 1 + idx[2][k]]" in out and "x[idx[1][k]] * (i + 1)" in out, out


def test_a_fuse_of_loops_shared_already_says_so():
    """Probe 167: CHiLL's AKp256 test, fuse([0,1],1) of two `i` loops inside one `j` loop,
    changed nothing without a word.  The note names the level that fuses the loops inside."""
    rc, out, err = run_cli("transform", DATA / "AKp256hack.c", "--recipe", DATA / "akp256_fuse1.py")
    assert rc == 0 and out.count("for (i = 0; i < N; i++)") == 2, out
    assert "akp256_fuse1.py:5: note: step 1 (fuse): statements 0, 1 share their loops down to level 1 already: " \
           "nothing to do (fuse([0,1],2) fuses the loops inside it)" in err, err
