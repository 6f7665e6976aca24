"""Gaps found by probes 158 and later, end to end."""
import pytest

from conftest import run_cli, runs_ok

pytestmark = pytest.mark.usefixtures("private_build_cache")

DATA = __import__("pathlib").Path(__file__).resolve().parent / "data" / "gaps63"


def test_an_unroll_isl_separates_wrongly_runs_every_iteration():
    """Probe 158 G1: the unroll by 2 of `for (i = n / 2 + 4; i >= -3; i -= 2) for (j = 0; j <=
    (i + 8) % 3 + 3; j++)` wrote row i = 6 only at j = 0 for n >= 8, n % 4 < 3: isl's AST with
    full tiles separated loses instances there.  The AST is now read back and checked, and
    generated without the separation where it fails; `run` checks the variable-size code."""
    runs_ok(DATA / "unroll_down_mod.c", DATA / "unroll_i2.yaml", [8, 13, 14, 40])


def test_the_ast_check_tells_a_schedule_the_ast_does_not_run():
    import islpy as isl

    from looptx.poly.ast_check import runs_schedule
    ctx = isl.Set("[n] -> { : n >= 0 }")
    strided = isl.UnionMap("[n] -> { S0[i, j] -> [2i, j] : 0 <= i < n and 0 <= j <= i }")
    node = isl.AstBuild.from_context(ctx).node_from_schedule_map(strided)
    assert runs_schedule(node, strided, ctx) is True
    # (the same order over one more row, and over a row less)
    for other in ("[n] -> { S0[i, j] -> [2i, j] : 0 <= i <= n and 0 <= j <= i }",
                  "[n] -> { S0[i, j] -> [2i, j] : 0 <= i < n and 0 <= j < i }"):
        assert runs_schedule(node, isl.UnionMap(other), ctx) is False
    # an AST that runs each instance twice
    doubled = isl.UnionMap("[n] -> { S0[i, j] -> [2i, o] : 0 <= i < n and 0 <= j <= i and j <= o <= j + 1 }")
    node = isl.AstBuild.from_context(ctx).node_from_schedule_map(doubled)
    assert runs_schedule(node, strided, ctx) is False
    # a statement the schedule does not have
    two = isl.UnionMap("[n] -> { S0[i] -> [i, 0] : 0 <= i < n; S1[i] -> [i, 1] : 0 <= i < n }")
    node = isl.AstBuild.from_context(ctx).node_from_schedule_map(two)
    assert runs_schedule(node, two, ctx) is True
    assert runs_schedule(node, isl.UnionMap("[n] -> { S0[i] -> [i, 0] : 0 <= i < n }"), ctx) is False


def test_an_unsigned_size_is_read_signed_in_the_subscripts_isl_writes(tmp_path):
    """Probe 159 G1: an unrolled copy's subscript `lx_floord(4 * j - n + 3, 12)` of an unsigned n
    wrapped (its guard read `(long)n`): the output crashed at n = 7, 13, ...  `run` checks the
    variable-size code at each size."""
    rc, out, err = run_cli("transform", DATA / "unsigned_unroll.c", "--recipe", DATA / "unroll_i4.yaml",
                           "-o", tmp_path / "t.c")
    assert rc == 0 and "- n +" not in (tmp_path / "t.c").read_text(), err
    runs_ok(DATA / "unsigned_unroll.c", DATA / "unroll_i4.yaml", [7, 13, 31])


def test_dependences_of_a_domain_two_accesses_spell_differently():
    """Probe 159 G2: `(i - j) mod 3` spelled two ways by two accesses of one statement lifted to
    two division dimensions, and isl's flow analysis failed (an internal error on every recipe,
    `looptx deps` too)."""
    rc, out, err = run_cli("deps", DATA / "lift_twice.c")
    assert rc == 0 and "carries WAW on A" in out, out + err
    runs_ok(DATA / "lift_twice.c", DATA / "tile_j2.yaml", [0, 5, 17])


def test_registers_after_a_jam_over_a_triangle():
    """Probe 159 G3: after the jam of j by 2 over `k <= j`, `registers C at k` was refused ('C'
    varies with loop 'k' ... promote at: k): the copy of C[j + 1] runs at k = j + 1 too, where
    C[j] does not, but neither element changes with k."""
    rc, out, err = run_cli("transform", DATA / "jam_triangle_registers.c", "--recipe", DATA / "jam_registers.yaml")
    assert rc == 0 and "C_r[1] += B[j + 1][j + 1];" in out, err
    runs_ok(DATA / "jam_triangle_registers.c", DATA / "jam_registers.yaml", [0, 1, 2, 5, 13])


@pytest.mark.parametrize("nest,at", [
    ("  for (j = 0; j < n; j++)\n    for (k = 0; k < n; k++)\n      C[k] += B[k][j];", "k"),
    ("  for (j = 0; j < n; j++)\n    for (k = 0; k <= j; k++)\n      C[j + k] += B[k][j];", "k")])
def test_registers_of_an_element_that_moves_with_the_loop_stay_refused(tmp_path, nest, at):
    src = tmp_path / "k.c"
    src.write_text("void kern(int n, double C[200], double B[100][100])\n{\n  int j, k;\n#pragma scop\n"
                   f"{nest}\n#pragma endscop\n}}\n")
    recipe = tmp_path / "r.yaml"
    recipe.write_text(f"steps:\n  - registers: {{stmt: 0, array: C, at: {at}}}\n")
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 2 and "varies with loop 'k'" in err, out + err


def test_isl_losing_a_loop_under_trailing_constant_dimensions():
    """Probe 160 G1: after a jam of i and registers of C, isl wrote `for (k = j; k < j + 3; k +=
    2)` as k = j alone, separated or not: the schedule's seven trailing zero dimensions were
    enough for it to lose the loop.  Without them the AST runs every iteration."""
    for n, m in ((3, 4), (8, 13), (5, 1)):
        rc, out, err = run_cli("run", DATA / "jam_stride_k2.c", "--recipe", DATA / "jam_registers_j.yaml",
                               "-D", f"n={n}", "-D", f"m={m}")
        assert rc == 0 and ": ok" in out, (n, m, out + err)


def test_trailing_constant_dimensions_are_dropped_only_where_each_statement_agrees():
    import islpy as isl

    from looptx.poly.ast_check import trailing_constants_dropped
    u = isl.UnionMap("[n] -> { S0[i] -> [i, 0, 0, 0] : 0 <= i < n; S1[i] -> [i, 1, 0, 0] : 0 <= i < n }")
    assert trailing_constants_dropped(u).is_equal(
        isl.UnionMap("[n] -> { S0[i] -> [i, 0] : 0 <= i < n; S1[i] -> [i, 1] : 0 <= i < n }"))
    assert trailing_constants_dropped(isl.UnionMap("[n] -> { S0[i] -> [0, i] : 0 <= i < n }")) is None


def test_a_peeled_int_counter_stays_int_in_the_statement():
    """Probe 160 G2: the peeled `A[i] = i - n` of an unsigned n was written `(long)n - 1 - n`,
    -1 in long where C's `int - unsigned` is 4294967295."""
    rc, out, err = run_cli("transform", DATA / "peel_unsigned_value.c", "--recipe", DATA / "peel_last.yaml")
    assert rc == 0 and "= (int)((long)n - 1) - n;" in out, out + err
    runs_ok(DATA / "peel_unsigned_value.c", DATA / "peel_last.yaml", [1, 3, 7])


def test_dependences_where_isls_value_based_analysis_fails():
    """Probe 161 G1: isl's compute_flow failed on a reduction under a loop down by 3 in four
    loops (an internal error on every recipe): the dependences are now memory-based there (each
    ordered pair of accesses to an element), with a note, and legality is checked against them."""
    rc, out, err = run_cli("deps", DATA / "flow_fails.c")
    assert rc == 0 and "carries RAW on acc" in out and "isl's exact dependence analysis failed" in err, out + err
    rc, out, err = run_cli("transform", DATA / "flow_fails.c", "--recipe", DATA / "unroll_i2.yaml")
    assert rc == 2 and "writes acc before" in err, out + err
