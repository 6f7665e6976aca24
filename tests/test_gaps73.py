"""Gaps found in session 73 (and left open by probes 216-222)."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_cli, runs_ok

DATA = Path(__file__).parent / "data" / "gaps73"
REVERSE_SKEW_PERMUTE = "reverse([0],2)\nskew([0],2,[1,1])\npermute([0],[2,1])\n"


def test_a_chill_skew_of_a_reversed_loop_skews_its_schedule_value(tmp_path):
    """Probe 220 G1: CHiLL's reverse is scale by -1, and its skew sums the levels' values, so
    after reverse([0],2), skew([0],2,[1,1]) orders by i - j; looptx skewed the loop's own
    counter (i + j, negated) and refused the permutation that CHiLL's order makes legal for
    A[i][j] = A[i-1][j-1]."""
    (tmp_path / "r.script").write_text(REVERSE_SKEW_PERMUTE)
    runs_ok(DATA / "diag.c", tmp_path / "r.script", (2, 13))
    rc, out, err = run_cli("transform", DATA / "diag.c", "--recipe", tmp_path / "r.script")
    assert rc == 0 and "skew: {stmt: 0, loop: 2, by: {1: 1}, chill: True}" in out, err
    # the same steps in YAML skew the counter: i + j, which the permutation reverses
    (tmp_path / "r.yaml").write_text("steps:\n  - reverse: {stmt: 0, loop: j}\n  - skew: {stmt: 0, loop: j, by: {i: 1}}\n"
                                     "  - permute: {stmt: 0, order: [j, i]}\n")
    rc, _, err = run_cli("transform", DATA / "diag.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and "step 3 (permute)" in err and "RAW on A" in err, err
    # the header's steps, given again as YAML, are the script's
    (tmp_path / "h.yaml").write_text("steps:\n  - reverse: {stmt: 0, loop: 2}\n"
                                     "  - skew: {stmt: 0, loop: 2, by: {1: 1}, chill: true}\n"
                                     "  - permute: {stmt: 0, order: [2, 1]}\n")
    rc, again, err = run_cli("transform", DATA / "diag.c", "--recipe", tmp_path / "h.yaml")
    assert rc == 0 and again.split("*/", 1)[1] == out.split("*/", 1)[1], err


def test_a_chill_shift_of_a_reversed_loop_moves_its_schedule_value(tmp_path):
    """shift([0],2,3) after reverse([0],2): the schedule's value -j moves to -j + 3, so the
    counter runs 3 lower (CHiLL); a YAML shift moves the counter itself, 3 higher."""
    (tmp_path / "s.script").write_text("reverse([0],2)\nshift([0],2,3)\n")
    rc, out, err = run_cli("transform", DATA / "plain.c", "--recipe", tmp_path / "s.script")
    assert rc == 0 and "for (int j = n - 4; j >= -3; j--)" in out and "A[i][j + 3]" in out, out + err
    (tmp_path / "s.yaml").write_text("steps:\n  - reverse: {stmt: 0, loop: j}\n  - shift: {stmt: 0, loop: j, by: 3}\n")
    rc, out, err = run_cli("transform", DATA / "plain.c", "--recipe", tmp_path / "s.yaml")
    assert rc == 0 and "for (int j = n + 2; j > 2; j--)" in out and "A[i][j - 3]" in out, out + err
    runs_ok(DATA / "plain.c", tmp_path / "s.script", (1, 6))


@pytest.mark.parametrize("steps, first", [
    ("  - peel: {stmt: 0, loop: i, first: 2}\n  - shift_to: {stmt: 0, loop: i, to: 5}\n", "for (int i = 7; i <= n + 4; i++)"),
    ("  - split: {stmt: 0, loop: i, at: \"4\"}\n  - shift_to: {stmt: 0, loop: i, to: 1}\n", "for (int i = 1; i <= lx_min(4, n); i++)"),
    ("  - peel: {stmt: 0, loop: j, first: 2}\n  - shift_to: {stmt: 0, loop: j, to: 0}\n", "for (int j = 2; j < n; j++)")])
def test_shift_to_after_a_peel_or_split_moves_the_loops_copies_together(tmp_path, steps, first):
    """Probe 220 G2: after a peel, shift_to took the start of each copy of the loop (0, 1, then
    2) for a start that varies with the loops around it, and refused.  The copies move
    together, as a shift moves them: the first of their iterations starts at `to`."""
    (tmp_path / "r.yaml").write_text("steps:\n" + steps)
    rc, out, err = run_cli("transform", DATA / "plain.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 0 and first in out, out + err
    runs_ok(DATA / "plain.c", tmp_path / "r.yaml", (1, 2, 7))


def test_distribute_after_a_peel_and_a_fuse_separates_the_fused_loop(tmp_path):
    """Probe 220 G3: peel S0's first i, fuse S0 and S1, distribute them: the note said they
    were already in separate loops (S0's loop holds its peeled copy too), and they stayed in
    one loop."""
    (tmp_path / "r.yaml").write_text("steps:\n  - peel: {stmt: 0, loop: i, first: 1}\n  - fuse: {stmts: [0, 1], loop: i}\n"
                                     "  - distribute: {stmts: [0, 1], loop: i}\n")
    rc, out, err = run_cli("transform", DATA / "two_loops.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 0 and "already" not in err, err
    assert "for (int i = 1; i < n; i++)\n      a[i] = b[i] * 2.0;\n    for (int i = 0; i < n; i++)\n      c[i]" in out, out
    runs_ok(DATA / "two_loops.c", tmp_path / "r.yaml", (1, 2, 5))


@pytest.mark.parametrize("steps, blamed", [
    ("  - pragma: {stmt: 0, loop: i, text: \"omp parallel for collapse(2)\"}\n  - unroll: {stmt: 0, loop: j, factor: 4}\n",
     "step 2 (unroll)"),
    ("  - unroll: {stmt: 0, loop: j, factor: 4}\n  - pragma: {stmt: 0, loop: i, text: \"omp parallel for collapse(2)\"}\n",
     "step 2 (pragma)")])
def test_a_collapse_that_the_code_written_breaks_is_refused_at_its_step(tmp_path, steps, blamed):
    """Probe 222 G1: a collapse(2) over a loop whose unroll leaves a remainder loop was refused
    at the C file's region (k.c:3:1), not at the step: the pragma's, or the unroll after it that
    broke the nest.  `run` at a size the factor divides has no remainder and runs."""
    (tmp_path / "r.yaml").write_text("steps:\n" + steps)
    for argv in ((), ("-D", "n=10")):
        rc, out, err = run_cli("transform" if not argv else "run", DATA / "plain.c", "--recipe", tmp_path / "r.yaml", *argv)
        assert rc == 2 and err.startswith(f"{tmp_path / 'r.yaml'}:3: {blamed}: error: '#pragma omp parallel for "
                                          "collapse(2)' collapses 2 loops"), err
        assert "divides the loop's trip count" in err and err.count("\n") == 1
    rc, out, err = run_cli("run", DATA / "plain.c", "--recipe", tmp_path / "r.yaml", "-D", "n=12")
    assert rc == 0 and ": ok" in out, out + err


def _openmp_runs(tmp_path, original, output, main, sizes):
    """`output` built with -fopenmp and run on 2 threads prints what `original` does."""
    import os
    import subprocess
    for src, name, flags in ((original, "orig", []), (output, "var", ["-fopenmp"])):
        r = subprocess.run(["gcc", "-O1", *flags, str(main), str(src), "-o", str(tmp_path / name)],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    for n in sizes:
        runs = [subprocess.run([str(tmp_path / name), str(n)], capture_output=True, text=True,
                               env={**os.environ, "OMP_NUM_THREADS": "2"}) for name in ("orig", "var")]
        assert [r.returncode for r in runs] == [0, 0] and runs[0].stdout == runs[1].stdout, (n, runs)


def test_a_reduction_over_a_section_that_may_be_empty_is_guarded(tmp_path):
    """Probe 224 G3: `reduction(+:cs[0:n])` at n = 0 crashes gcc's libgomp (even where the loop
    runs); the pragma is written under `if (n >= 1)`, and the loop again without it where it may
    run otherwise.  A known fact that the section has an element needs no guard."""
    out = tmp_path / "o.c"
    (tmp_path / "r.yaml").write_text("steps:\n  - omp_for: {stmt: 0, loop: i, reduction: {+: [cs]}}\n")
    rc, _, err = run_cli("transform", DATA / "colsum.c", "--recipe", tmp_path / "r.yaml", "-o", out)
    assert rc == 0 and "if (n >= 1) {\n      #pragma omp parallel for reduction(+:cs[0:n])" in out.read_text(), err
    assert "else" not in out.read_text()             # at n = 0 the loop runs no iteration
    _openmp_runs(tmp_path, DATA / "colsum.c", out, DATA / "colsum_main.c", (0, 1, 5))
    (tmp_path / "rows.yaml").write_text("steps:\n  - omp_for: {stmt: 1, loop: i, reduction: {+: [cs]}}\n")
    rc, text, err = run_cli("transform", DATA / "colsum_rows.c", "--recipe", tmp_path / "rows.yaml")
    assert rc == 0 and "} else {\n      for (i = 0; i < m; i++) {" in text, text + err
    (tmp_path / "known.yaml").write_text("steps:\n  - known: {facts: ['n >= 1']}\n"
                                         "  - omp_for: {stmt: 0, loop: i, reduction: {+: [cs]}}\n")
    rc, text, err = run_cli("transform", DATA / "colsum.c", "--recipe", tmp_path / "known.yaml")
    assert rc == 0 and "if (n >= 1)" not in text and "reduction(+:cs[0:n])" in text, text + err


@pytest.mark.parametrize("name, text, said", [
    ("temporary.c", "omp parallel for", "add private(t) to the pragma's text (looptx checks it), or a step "
                                        "'privatize: {var: t, at: i}'"),
    ("temporary_sum.c", "omp parallel for private(t)", "'s' is a + reduction: add reduction(+:s) to the pragma's text, "
                                                       "or put '#pragma omp parallel for private(t)' on a loop")])
def test_a_refused_pragma_step_is_told_the_clause_its_text_needs(tmp_path, name, text, said):
    """Probe 224 G2: a pragma step refused for a reused temporary or a reduction was told to
    "put omp_for on a loop" and give omp_for's arguments; its own text takes the clause."""
    (tmp_path / "r.yaml").write_text(f"steps:\n  - pragma: {{stmt: 0, loop: i, text: \"{text}\"}}\n")
    rc, _, err = run_cli("transform", DATA / name, "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and "step 1 (pragma)" in err and said in err and "omp_for" not in err, err
    fixed = text + (" reduction(+:s)" if "private" in text else " private(t)")
    (tmp_path / "f.yaml").write_text(f"steps:\n  - pragma: {{stmt: 0, loop: i, text: \"{fixed}\"}}\n")
    rc, out, err = run_cli("transform", DATA / name, "--recipe", tmp_path / "f.yaml")
    assert rc == 0, err


def test_a_cuda_search_in_a_fresh_process_gets_past_its_imports(tmp_path):
    """Probe 225 G1: `looptx search --backend cuda` imported runtime/inputs.py before
    runtime/harness.py, which imported inputs back half made: an internal error, on every
    machine.  (A process of its own: the tests' own imports hide the order.)"""
    import shutil
    import subprocess
    import sys
    shutil.copy(DATA / "axpy_tuned.c", tmp_path / "k.c")
    p = subprocess.run([sys.executable, "-m", "looptx", "search", "k.c", "--backend", "cuda", "--no-progress"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert "internal error" not in p.stderr, p.stderr
    assert p.returncode == 0 or (p.returncode == 2 and "needs pycuda" in p.stderr), p.stdout + p.stderr
    p = subprocess.run([sys.executable, "-c", "import looptx.runtime.inputs"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


@pytest.mark.parametrize("text", ["omp simd private(t)", "omp loop bind(thread) private(t)"])
def test_a_jams_copies_under_a_directive_without_firstprivate_are_private(tmp_path, text):
    """Probe 224 G8: a jam above an `omp simd private(t)` loop wrote `firstprivate(t__i1)` for
    the copy of t, which gcc refuses on `omp simd` (and `omp loop`): the copies are private,
    each iteration sets them before it reads them."""
    import subprocess
    (tmp_path / "r.yaml").write_text(f"steps:\n  - pragma: {{stmt: 0, loop: j, text: \"{text}\"}}\n"
                                     "  - unroll: {stmt: 0, loop: i, factor: 2}\n")
    out = tmp_path / "o.c"
    rc, _, err = run_cli("transform", DATA / "temporary_2d.c", "--recipe", tmp_path / "r.yaml", "-o", out)
    assert rc == 0 and f"#pragma {text.replace('private(t)', 'private(t, t__i1)')}" in out.read_text(), err
    assert "firstprivate" not in out.read_text()
    p = subprocess.run(["gcc", "-fopenmp", "-Werror=all", "-Wno-unknown-pragmas", "-c", str(out), "-o", str(tmp_path / "o.o")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    for n in (1, 7):
        rc, res, err = run_cli("run", DATA / "temporary_2d.c", "--recipe", tmp_path / "r.yaml", "-D", f"n={n}",
                               "--cflags", "-O2 -fopenmp")
        assert rc == 0 and ": ok" in res, res + err


@pytest.mark.parametrize("text, said", [
    ("omp parallel for lastprivate(t) reduction(+:t)", "names 't' in both lastprivate and reduction clauses"),
    ("omp parallel for private(t) private(t)", "names 't' in two private clauses")])
def test_a_variable_in_two_data_clauses_is_refused_at_the_step(tmp_path, text, said):
    """Probe 224 G7: `lastprivate(t) reduction(+:t)` passed (the reduction went unchecked) and
    gcc refused the output; OpenMP takes a variable in one data clause (or first- and
    lastprivate both)."""
    (tmp_path / "r.yaml").write_text(f"steps:\n  - pragma: {{stmt: 0, loop: i, text: \"{text}\"}}\n")
    rc, _, err = run_cli("transform", DATA / "last_value.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and err.startswith(f"{tmp_path / 'r.yaml'}:2: step 1 (pragma): error: '#pragma {text}' {said}"), err
    assert err.count("\n") == 1


@pytest.mark.parametrize("steps, outcome", [
    ("  - omp_for: {stmt: 0, loop: i}\n  - combine: {stmt: 0, loops: [i, j], name: ij}\n",
     "#pragma omp parallel for\n      for (int ij = 8; ij < 72; ij++)"),
    ("  - omp_for: {stmt: 0, loop: i}\n  - nonsingular: {stmt: 0, matrix: [[0, 1], [1, 0]]}\n",
     "#pragma omp parallel for\n        for (i = 1; i < 9; i++)"),
    ("  - omp_for: {stmt: 0, loop: j}\n  - nonsingular: {stmt: 0, matrix: [[1, 0], [1, 1]]}\n",
     "step 2 (nonsingular): error: nonsingular: loop 'j' carries '#pragma omp parallel for', and no loop"),
    ("  - omp_for: {stmt: 0, loop: i}\n  - pragma: {stmt: 0, loop: j, text: \"omp simd\"}\n"
     "  - combine: {stmt: 0, loops: [i, j], name: ij}\n", "step 3 (combine): error: combine: loop 'j' carries")])
def test_combine_and_nonsingular_keep_a_loops_pragma_or_refuse(tmp_path, steps, outcome):
    """Probe 224 G9: combine and nonsingular after omp_for dropped the pragma without a word.
    A loop that stays one loop keeps it (and is checked as the new loop); one that does not is
    refused."""
    (tmp_path / "r.yaml").write_text("steps:\n" + steps)
    rc, out, err = run_cli("transform", DATA / "jacobi_2d.c", "--recipe", tmp_path / "r.yaml", "-D", "n=8")
    assert outcome in out + err, out + err
    assert rc == (2 if "error" in outcome else 0)


def test_a_jammed_copy_of_a_reduction_joins_its_clause(tmp_path):
    """Probe 224 G12: the jam of matvec's rows around `omp simd reduction(+:s)` was refused at
    the C file, asking for the copy s__i1 to be private; it is the same reduction over the
    other row: `reduction(+:s, s__i1)`."""
    (tmp_path / "r.yaml").write_text("steps:\n  - privatize: {var: s, at: i}\n"
                                     "  - pragma: {stmt: 1, loop: j, text: \"omp simd reduction(+:s)\"}\n"
                                     "  - unroll: {stmt: 1, loop: i, factor: 2}\n")
    rc, out, err = run_cli("transform", DATA / "matvec_rows.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 0 and "#pragma omp simd reduction(+:s, s__i1)\n" in out, out + err
    for n in (1, 6, 7):
        rc, res, err = run_cli("run", DATA / "matvec_rows.c", "--recipe", tmp_path / "r.yaml", "-D", f"n={n}",
                               "--cflags", "-O2 -fopenmp")
        assert rc == 0 and ": ok" in res, res + err


@pytest.mark.parametrize("second", ["omp parallel for schedule(dynamic)", "omp simd"])
def test_a_fuse_that_would_stack_two_loop_directives_is_refused(tmp_path, second):
    """Probe 224 G10: the fused loop got both loops' pragmas, which gcc refuses."""
    (tmp_path / "r.yaml").write_text("steps:\n  - pragma: {stmt: 0, loop: i, text: \"omp parallel for\"}\n"
                                     f"  - pragma: {{stmt: 1, loop: i, text: \"{second}\"}}\n"
                                     "  - fuse: {stmts: [0, 1], loop: i}\n")
    rc, _, err = run_cli("transform", DATA / "two_loops_same.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and "step 3 (fuse): error: loop 'i' would have '#pragma omp parallel for' and " \
                       f"'#pragma {second}'" in err, err


def test_gcc_ivdep_allows_an_unrolled_reduction_and_takes_no_clause(tmp_path):
    """Probe 224 G11: `GCC ivdep` over `s +=` was refused once the loop was unrolled (Orio's
    layout), with a hint to write `GCC ivdep reduction(+:s)`, which gcc refuses."""
    (tmp_path / "r.yaml").write_text("steps:\n  - pragma: {stmt: 0, loop: i, text: \"GCC ivdep\"}\n"
                                     "  - unroll: {stmt: 0, loop: i, factor: 4}\n")
    for n in (1, 5, 9):
        rc, out, err = run_cli("run", DATA / "dot.c", "--recipe", tmp_path / "r.yaml", "-D", f"n={n}")
        assert rc == 0 and ": ok" in out, out + err
    (tmp_path / "c.yaml").write_text("steps:\n  - pragma: {stmt: 0, loop: i, text: \"GCC ivdep reduction(+:s)\"}\n")
    rc, _, err = run_cli("transform", DATA / "dot.c", "--recipe", tmp_path / "c.yaml")
    assert rc == 2 and "GCC ivdep takes nothing after it" in err, err


def test_a_section_refusal_names_the_sizes_of_its_element(tmp_path):
    """Probe 224 G5: `cs[0]` lies outside `cs[0:n-1]` at n = 1 only, which the refusal did not say."""
    (tmp_path / "r.yaml").write_text("steps:\n  - pragma: {stmt: 0, loop: i, text: \"omp parallel for reduction(+:cs[0:n-1])\"}\n")
    rc, _, err = run_cli("transform", DATA / "colsum.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and "updates cs[0] (with n=1), outside the section" in err, err


def test_a_directive_before_the_region_that_a_step_breaks_is_refused_at_the_step(tmp_path):
    """Probe 224 G6: `#pragma omp parallel for` before a nest, which a permute moves to a loop
    that carries a dependence, was told as a team's `omp for`, at the C file, naming no step."""
    (tmp_path / "r.yaml").write_text("steps:\n  - permute: {stmt: 0, order: [j, i]}\n")
    rc, _, err = run_cli("transform", DATA / "parallel_before.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and err.startswith(f"{tmp_path / 'r.yaml'}:2: step 1 (permute): error: the '#pragma omp parallel "
                                      "for' before the region (parallel_before.c:3) goes to the outermost loop"), err
    assert "team" not in err and "omp for'" not in err and err.count("\n") == 1, err


def test_a_teams_private_variable_is_private_to_its_shared_loops(tmp_path):
    """Probe 224 G4: `#pragma omp parallel private(t) { #pragma omp for ... }` was refused, with
    a message that the code as written races; the team's private t is each thread's, and each
    iteration sets it before it reads it."""
    rc, out, err = run_cli("transform", DATA / "team_private.c")
    assert rc == 0 and "#pragma omp for private(t)\n" in out, out + err
    (tmp_path / "r.yaml").write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 2}\n")
    for n in (1, 9):
        rc, res, err = run_cli("run", DATA / "team_private.c", "--recipe", tmp_path / "r.yaml", "-D", f"n={n}",
                               "--cflags", "-O2 -fopenmp")
        assert rc == 0 and ": ok" in res, res + err


@pytest.mark.parametrize("name, recipe, said", [
    ("r.yaml", "steps:\n  - reverse: {stmt: 0, loop: i}\n  - reverse: {stmt: 1, loop: i}\n  - fuse: {stmts: [0, 1], loop: i}\n",
     "'shift: {stmt: 1, loop: i, by: -1}'"),
    ("r.script", "reverse([0],1)\nreverse([1],1)\nfuse([0,1],1)\n", "'shift([1],1,1)'")])
def test_a_fuse_of_loops_that_run_down_is_told_the_shift_that_fuses_them(tmp_path, name, recipe, said):
    """Probe 223 G1: only shifts upwards were tried, and the fuse of two reversed loops was told
    that none made it legal; by -1 (in a script, whose shift moves the schedule's value, 1) does."""
    (tmp_path / name).write_text(recipe)
    rc, _, err = run_cli("transform", DATA / "producer_consumer.c", "--recipe", tmp_path / name)
    assert rc == 2 and f"the statements fuse after {said} before this step" in err, err
    lines = recipe.splitlines()
    given = "\n".join(lines[:-1] + ([f"  - shift: {{stmt: 1, loop: i, by: -1}}"] if name.endswith("yaml")
                                    else ["shift([1],1,1)"]) + lines[-1:]) + "\n"
    (tmp_path / name).write_text(given)
    runs_ok(DATA / "producer_consumer.c", tmp_path / name, (1, 2, 13))


def test_a_product_budget_over_every_param_is_listed_by_its_least_values(tmp_path):
    """Probe 225 G2: six unroll factors in 1..16 under `U1 * ... * U6 <= 32` (SPAPT's register
    budget) could be checked only once all six had values: the searchers found a valid point
    in tens of seconds each (surf+ measured 2 in 300 s).  A prefix whose product with the
    other factors at 1 is past the budget is ruled out: the 1832 valid points are listed."""
    import shutil
    shutil.copy(DATA / "register_budget.c", tmp_path / "k.c")
    rc, out, err = run_cli("search", tmp_path / "k.c", "-a", "random", "--budget", "3", "--no-progress",
                           "--db", tmp_path / "r.db")
    assert rc == 0 and "1832 valid points" in out and "status: ok 3" in out, out + err


@pytest.mark.parametrize("text, falls", [
    ("U1 * U2 * U3 <= 32", True), ("N >= U1 + 2 * U2", True), ("U1 * U2 <= N and U1 + U2 < 9", True),
    ("U1 - U2 <= 3", False), ("U1 * U2 >= 4", False), ("U1 * U2 <= U3", False), ("U1 * M <= 32", False),
    ("U1 == 1 or U2 == 1", False)])
def test_which_constraints_only_a_growing_param_breaks(text, falls):
    """Only where the expression rises with every param (sums and products of params and sizes
    at least 0, below a bound of the sizes) may a partial point be judged at its least values."""
    import ast
    from looptx.search.constraints import falls_with_values
    assert falls_with_values(ast.parse(text, mode="eval").body, {"N": 40, "M": -2}) is falls


@pytest.mark.parametrize("step, said", [
    ("nonsingular: {stmt: 0, matrix: [[1, 0], [1, 1]]}",
     "statement 1 shares loop 't' with statement 0 but not its loop 'i' (the loop of that name it is in is another one)"),
    ("permute: {stmt: 0, order: [i, t]}",
     "statement 1 shares it with statement 0 but not its loop i (the loop of that name it is in is another one)")])
def test_an_imperfect_nest_refusal_tells_a_sibling_loop_of_the_same_name(tmp_path, step, said):
    """Probe 223 G3: statement 1, in its own loop `i` beside statement 0's, was said to be
    "not inside loop 'i'"."""
    (tmp_path / "r.yaml").write_text(f"steps:\n  - {step}\n")
    rc, _, err = run_cli("transform", DATA / "time_jacobi_1d.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and said in err, err


@pytest.mark.parametrize("name, recipe, said", [
    ("r.yaml", "steps:\n  - reverse: {stmt: 0, loop: i}\n  - fuse: {stmts: [0, 1], loop: i}\n",
     "reverse it first (reverse {stmt: 1, loop: i}), then 'shift: {stmt: 1, loop: i, by: -1}'"),
    ("r.script", "reverse([0],2)\nfuse([0,1],2)\n", "reverse it first (reverse(1,2)), then 'shift([1],2,1)'")])
def test_a_fuse_of_loops_in_opposite_directions_is_told_the_reverse_and_shift(tmp_path, name, recipe, said):
    """Probe 223 G2: "no reverse of these loops lets them run together ...: keep them apart",
    where reversing the other loop and shifting its statement by -1 fuses them."""
    (tmp_path / name).write_text(recipe)
    rc, _, err = run_cli("transform", DATA / "time_jacobi_1d.c", "--recipe", tmp_path / name)
    assert rc == 2 and said in err, err
