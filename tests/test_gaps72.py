"""Gaps found in session 72 (probes 212-215)."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_cli, same_output_c

DATA = Path(__file__).parent / "data" / "gaps72"
TILE_COPY = "steps:\n  - tile: {stmt: 0, loop: i, size: 4}\n  - datacopy: {stmt: 0, array: x, at: ii}\n"


@pytest.mark.parametrize("name, recipe", [
    ("wrap_guard", TILE_COPY),
    ("wrap_guard_2d", "steps:\n  - registers: {stmt: 0, array: x, at: j}\n")])
def test_a_copy_of_a_read_under_a_wrapping_unsigned_test_is_refused(tmp_path, name, recipe):
    """Probe 212 G1: `i - 1 < n ? x[i - 1] : 0` of an unsigned i never reads x[-1] (i - 1 wraps
    at i = 0), but the model's guard was dropped, and the copy loaded x[-1]."""
    (tmp_path / "r.yaml").write_text(recipe)
    rc, _, err = run_cli("transform", DATA / f"{name}.c", "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o.c")
    assert rc == 2 and "error: the read of 'x' on line" in err and "may wrap" in err, err
    assert err.count("\n") == 1 and "test that no value wraps first" in err


def test_a_test_after_the_bound_it_needs_keeps_the_guard(tmp_path):
    """`i >= 1 && i - 1 < n`: C tests i - 1 < n only where i >= 1, where it does not wrap; the
    copy loads from x[0]."""
    (tmp_path / "r.yaml").write_text(TILE_COPY)
    rc, _, err = run_cli("transform", DATA / "signed_guard.c", "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o.c")
    assert rc == 0, err
    assert "c3 = lx_max(0, 4 * ii - 1)" in (tmp_path / "o.c").read_text()
    same_output_c(tmp_path, DATA / "signed_guard.c", tmp_path / "o.c", (DATA / "main_wrap.c").read_text(),
                  [["0"], ["1"], ["4"], ["7"], ["13"]])


def test_a_constraint_that_starts_with_a_string_is_an_expression(tmp_path):
    """Probe 215 G1: `constraint c1 = 'i' == P or U == 2;` (TCR's `'c' in (TX0, TY0)`) was taken
    for a quoted string, and the suggested fix cut its first and last characters."""
    rc, out, err = run_cli("transform", DATA / "string_first.c", "-D", "P=j", "-D", "U=1")
    assert rc == 2 and ":8:16: error: constraint 'c1' rules out every point with P=j, U=1" in err, err
    rc, out, err = run_cli("transform", DATA / "string_first.c", "-D", "P=i", "-D", "U=1")
    assert rc == 0, err
    quoted = tmp_path / "q.c"
    quoted.write_text((DATA / "string_first.c").read_text().replace("'i' == P or U == 2", "'U == 2'"))
    rc, _, err = run_cli("transform", quoted)
    assert rc == 2 and err.strip() == f"{quoted}:8:21: error: constraint c1 is a string, which holds at every " \
        "point (write the condition without quotes: constraint c1 = U == 2;)", err


def test_a_define_of_a_param_of_a_spec_that_does_not_read_gives_the_specs_error(tmp_path):
    """Probe 215 G2: `-D P=j` said P was no performance param, hiding the spec's error."""
    bad = tmp_path / "b.c"
    bad.write_text((DATA / "string_first.c").read_text().replace("U == 2;", "U == 2 or;"))
    rc, _, err = run_cli("transform", bad, "-D", "P=j")
    assert rc == 2 and err.startswith(f"{bad}:8:") and "syntax error" in err, err


def test_a_flag_set_from_a_conjunction_guards_a_read_by_its_affine_conjuncts(tmp_path):
    """Probe 212 G6: `int ok = i + 1 < n && b[i] > 0.5; y[i] = ok ? x[i + 1] : 0` had no guard,
    and the copy loaded x[n] (the same test written inline had its affine conjunct)."""
    (tmp_path / "r.yaml").write_text(TILE_COPY)
    src = DATA / "flag_conjunction.c"
    rc, _, err = run_cli("transform", src, "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o.c")
    assert rc == 0, err
    assert "c3 <= lx_min(n - 1, 4 * ii + 4)" in (tmp_path / "o.c").read_text()
    same_output_c(tmp_path, src, tmp_path / "o.c", (DATA / "main_flag.c").read_text(), [["0"], ["1"], ["4"], ["7"]])


@pytest.mark.parametrize("name, ntype", [("countdown_left", "unsigned"), ("countdown_short", "unsigned short")])
def test_wrap_countdowns_with_the_constant_left_or_a_promoted_size(tmp_path, name, ntype):
    """Probe 212 G3, G4: `UINT_MAX != i` was refused (as a constant that does not fit in an int),
    and `i = n - 1 ... i != -1u` of an unsigned short n too, though C computes n - 1 in int."""
    (tmp_path / "r.yaml").write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 3}\n")
    src = DATA / f"{name}.c"
    rc, _, err = run_cli("transform", src, "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o.c")
    assert rc == 0, err
    main = f"#define NTYPE {ntype}\n" + (DATA / "main_countdown.c").read_text()
    same_output_c(tmp_path, src, tmp_path / "o.c", main, [["0"], ["1"], ["2"], ["5"], ["7"]])


def test_a_wrap_countdown_from_a_wider_size_is_refused_for_that_reason(tmp_path):
    """Probe 212 G4: the refusal said the test 'lets it pass 0', which it does not."""
    src = tmp_path / "k.c"
    src.write_text((DATA / "countdown_short.c").read_text().replace("unsigned short n", "unsigned long n"))
    (tmp_path / "r.yaml").write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 3}\n")
    rc, _, err = run_cli("transform", src, "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and err.startswith(f"{src}:5:19: error: the test 'i != (-1u)' stops the counter 'i' "
                                      "(unsigned) where it wraps past 0; looptx reads it as 'i < n' only"), err


def test_a_function_like_default_macro_is_not_sent_to_define(tmp_path):
    """Probe 212 G2: the output's #error told a build with -D'F(a)=...' to transform again with
    --define, which takes no function-like macro."""
    (tmp_path / "r.yaml").write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 3}\n")
    src = DATA / "function_default.c"
    rc, _, err = run_cli("transform", src, "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o.c")
    assert rc == 0, err
    assert "which defines F: write the build's definition of F in the file and transform it again " \
        "(--define takes values, not function-like macros)" in (tmp_path / "o.c").read_text()
    rc, _, err = run_cli("transform", src, "--recipe", tmp_path / "r.yaml", "--define", "F(a)=((a)+1.0)")
    assert rc == 2 and "looptx takes no function-like macro on the command line" in err, err


@pytest.mark.parametrize("name, at, what", [
    ("overflow_macro", "7:19", "'N * N' overflows int"),
    ("overflow_sum", "6:19", "'2147483647 + 1' overflows int"),
    ("overflow_subscript", "8:5", "'(i * N) * N' overflows int")])
def test_int_arithmetic_of_valued_sizes_that_overflows_is_refused(name, at, what):
    """Probe 214 G1: `i < N*N` of a #define N 46341 was modelled as 2147488281, where C's int
    overflows (gcc's build ran no iteration); the literal 46341*46341 was refused."""
    src = DATA / f"{name}.c"
    rc, _, err = run_cli("transform", src)
    assert rc == 2 and err.startswith(f"{src}:{at}: error: ") and what in err, err


@pytest.mark.parametrize("name, at, what", [
    ("missing_paren", "6:25", "expected ')' before 'for'"),
    ("typo_type", "2:1", "unknown type name 'dobule'"),
    ("stray_endif", "2:2", "#endif without #if")])
def test_a_syntax_error_is_said_in_gccs_words_where_gcc_finds_it(name, at, what):
    """Probe 214 G4, G5: the parser's "before 'for'" on the line after the `for (...` that lacks
    its `)`, "Invalid function definition", "Directives not supported yet"."""
    src = DATA / f"{name}.c"
    rc, _, err = run_cli("transform", src)
    assert rc == 2 and err.startswith(f"{src}:{at}: error: syntax error: {what}"), err


@pytest.mark.parametrize("script", ["bom.py", "bom.lua"])
def test_a_script_with_a_byte_order_mark_is_read(tmp_path, script):
    """Probe 214 G2: `\\ufefffrom chill import *` was a syntax error."""
    assert (DATA / script).read_bytes().startswith(b"\xef\xbb\xbf")
    rc, out, err = run_cli("transform", DATA / "mm.c", "--recipe", DATA / script)
    assert rc == 0 and "for (int jj = 0; jj <= (N - 1) / 16; jj++)" in out, err


@pytest.mark.parametrize("text", ["", "# TODO: steps\n", "\n\n"])
def test_an_empty_recipe_file_is_refused(tmp_path, text):
    """Probe 214 G6: an empty recipe was read as no recipe, though one with params and no
    steps is refused."""
    (tmp_path / "r.yaml").write_text(text)
    rc, _, err = run_cli("transform", DATA / "mm.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and err.startswith(f"{tmp_path / 'r.yaml'}:1:1: error: the recipe has no steps"), err


def test_crossed_region_markers_are_refused(tmp_path):
    """Probe 214 G3: `#pragma scop`, a CHiLL begin, `#pragma endscop`, its end was accepted,
    and the output kept `#pragma scop` without its end."""
    src = DATA / "crossed.c"
    rc, _, err = run_cli("transform", src)
    assert rc == 2 and err.startswith(f"{src}:6:1: error: this region opens inside the region marked at "
                                      "line 5 and ends after it (at line 10)"), err


def test_an_unsigned_product_that_wraps_is_refused_and_a_long_one_is_not(tmp_path):
    """Probe 216 G1, G2: `N * N` of `#define N 65536u` is 0 in C (the model had 2^32), and
    `N * N` of `46341L` is a long, which does not overflow (it was refused as an int)."""
    src = DATA / "wrap_unsigned_product.c"
    rc, _, err = run_cli("transform", src)
    assert rc == 2 and err.startswith(f"{src}:5:19: error: 'N * N' wraps unsigned int"), err
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 32}\n")
    rc, out, err = run_cli("transform", DATA / "long_product.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 0 and "for (long ii = 0; ii < 67109009; ii++)" in out, err


def test_a_read_under_a_disjunction_that_tests_data_is_guarded_by_its_sides(tmp_path):
    """Probe 216 G3: `(i >= 1 && b[i] > 0.5) || i >= 2 ? x[i - 1] : 0` had no guard (the test
    reads b), and a datacopy loaded x[-1]."""
    (tmp_path / "r.yaml").write_text(TILE_COPY)
    src = DATA / "data_disjunction.c"
    rc, _, err = run_cli("transform", src, "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o.c")
    assert rc == 0, err
    assert "c3 = lx_max(0, 4 * ii - 1)" in (tmp_path / "o.c").read_text()
    main = (DATA / "main_flag.c").read_text().replace("double *x = malloc(sizeof(double) * (n + 1))",
                                                      "double *x = (double *)malloc(sizeof(double) * (n + 2)) + 1")
    main = main.replace("kern(int n, double *x, double *b, double *y)", "kern(int n, double *x, double *y, double *b)")
    main = main.replace("kern(n, x, b, y)", "kern(n, x, y, b)").replace("x[n] = 1e300;", "x[-1] = 1e300;")
    same_output_c(tmp_path, src, tmp_path / "o.c", main, [["0"], ["1"], ["2"], ["5"], ["9"]])


@pytest.mark.parametrize("name", ["countdown_ushort", "countdown_ushort_cast"])
def test_a_narrow_counter_counting_down_to_its_wrapped_value_is_transformed(tmp_path, name):
    """Probe 216 G4: `unsigned short i; for (i = n - 1; i != USHRT_MAX; i--)` was modelled for
    n >= 65536, which no such n reaches, so only the loop as written ever ran;
    `(unsigned short)-1` was refused."""
    (tmp_path / "r.yaml").write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 3}\n")
    src = DATA / f"{name}.c"
    rc, _, err = run_cli("transform", src, "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o.c")
    assert rc == 0 and "65536" not in err, err
    assert "i -= 3" in (tmp_path / "o.c").read_text()
    main = "#define NTYPE unsigned short\n" + (DATA / "main_countdown.c").read_text().replace(
        "void kern(NTYPE n, double *x, double *y);", "void kern(NTYPE n, double *x, double *y, double *b);").replace(
        "kern(n, x, y);", "kern(n, x, y, 0);")
    same_output_c(tmp_path, src, tmp_path / "o.c", main, [["0"], ["1"], ["2"], ["5"], ["7"], ["300"]])


def test_a_missing_header_and_gnu_c_are_said_so():
    """Probe 216 G5, G6: gcc's follow-on error was shown for `(uint32_t)n` without <stdint.h>;
    a nested function (which gcc reads) was a plain syntax error."""
    src = DATA / "missing_header.c"
    rc, _, err = run_cli("transform", src)
    assert rc == 2 and err.startswith(f"{src}:4:17: error: 'uint32_t' undeclared") and "<stdint.h>" in err, err
    src = DATA / "nested_function.c"
    rc, _, err = run_cli("transform", src)
    assert rc == 2 and err.startswith(f"{src}:4:") and "gcc reads this file and looptx's C parser" in err, err


@pytest.mark.parametrize("steps", ["unroll: {stmt: 0, loop: i, factor: 2}\n  - reverse: {stmt: 0, loop: i}",
                                   "unroll_and_jam: {stmt: 0, loop: i, factor: 2}\n  - reverse: {stmt: 0, loop: i}"])
def test_an_unrolled_loop_is_not_reversed(tmp_path, steps):
    """Probe 217 G1: unroll then reverse ran the loop forwards (the control loop counted down over
    negated values), while the legality check judged it reversed."""
    (tmp_path / "r.yaml").write_text(f"steps:\n  - {steps}\n")
    rc, _, err = run_cli("transform", DATA / "rev.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and "step 2 (reverse): error: loop 'i' is already unrolled by 2, and an unrolled loop is not " \
        "reversed (reverse it before the unroll)" in err, err


def test_reverse_then_unroll_runs_backwards(tmp_path):
    (tmp_path / "r.yaml").write_text("steps:\n  - reverse: {stmt: 0, loop: i}\n  - unroll: {stmt: 0, loop: i, factor: 2}\n")
    rc, out, err = run_cli("transform", DATA / "rev.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 0 and "for (i = N + 1; i > 2; i -= 2) {\n      y[i] = x[i] * 2.0;\n      y[i - 1] = x[i - 1] * 2.0;" in out, err


def test_a_fuse_no_reverse_makes_legal_claims_no_carried_dependence(tmp_path):
    """Probe 217 G2: the hint said each loop carries a dependence in its own direction, where
    neither carries any (the fusion reversed breaks S0 -> S1)."""
    (tmp_path / "r.yaml").write_text("steps:\n  - reverse: {stmt: 1, loop: i}\n  - fuse: {stmts: [0, 1], loop: i}\n")
    rc, _, err = run_cli("transform", DATA / "fuse_opposite.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and "no reverse of these loops lets them run together in one direction keeping every " \
        "dependence: keep them apart" in err and "its own direction" not in err, err


def test_a_fuse_moves_a_nest_between_the_loops_whole(tmp_path):
    """Probe 218 G1: fusing S0 with S3 split the loop S1 and S2 share between them into two
    (ATAX's second kernel then lost S2 to a one-thread kernel)."""
    (tmp_path / "r.yaml").write_text("steps:\n  - fuse: {stmts: [0, 3], loop: i}\n")
    src = DATA / "fuse_around.c"
    rc, _, err = run_cli("transform", src, "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o.c")
    assert rc == 0, err
    assert "for (int i = 0; i < n; i++) {\n      b[i] = 0;\n      for (int j = 0; j < n; j++)" in (tmp_path / "o.c").read_text()
    same_output_c(tmp_path, src, tmp_path / "o.c", (DATA / "main_fuse_around.c").read_text(), [["0"], ["1"], ["7"]])


def test_a_copy_of_a_read_under_a_test_of_the_counters_not_modelled_is_refused(tmp_path):
    """Probe 219 G1: `(i >= 1 ? 1 : 0) ? x[i - 1] : 0` had no guard (a `?:` in the test), and
    the datacopy loaded x[-1]; a test of data alone (`b[i] > 0`) bounds no element and is not
    refused."""
    (tmp_path / "r.yaml").write_text(TILE_COPY)
    src = DATA / "ternary_test.c"
    rc, _, err = run_cli("transform", src, "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and "step 2 (datacopy): error: the read of 'x' on line 6 sits under a test looptx does not " \
        "model exactly" in err, err
    data = tmp_path / "d.c"
    data.write_text(src.read_text().replace("(i >= 1 ? 1 : 0) ? x[i-1]", "b[i] > 0.5 ? x[i]"))
    rc, _, err = run_cli("transform", data, "--recipe", tmp_path / "r.yaml")
    assert rc == 0, err


def test_a_read_in_a_branch_depends_only_where_the_branch_runs(tmp_path):
    """Probe 221 G1: Rodinia pathfinder's clamp `n < cols - 1 ? n + 1 : cols - 1` read
    dst[t*cols + cols - 1] at every n for the dependences (distance (1, 0-)), so the wavefront
    tiling was refused, citing a read that never happens."""
    src = DATA / "pathfinder.c"
    rc, out, err = run_cli("deps", src)
    assert rc == 0 and "distance (1, 0)" in out and "0-" not in out, out + err
    rc, _, err = run_cli("transform", src, "--recipe", DATA / "pathfinder.yaml", "-o", tmp_path / "o.c")
    assert rc == 0, err
    same_output_c(tmp_path, src, tmp_path / "o.c", (DATA / "main_pathfinder.c").read_text(),
                  [["5", "7"], ["9", "4"], ["1", "1"], ["13", "13"], ["0", "5"]])
