"""A reduction clause on a loop lets its updates run in any order inside one run of the loop as
written, also after a tile of it: a Jacobi sweep's `err = fmax(err, fabs(...))` with
`reduction(max:err)` on j, tiled in both loops and permuted to jj, ii, j, i, was refused ("the
reduction clause on loop 'j' ... moves them across the loops around it": the check followed the
tile's inner loop j), whether the clause was in a pragma before the region or an omp_for step.
Without a clause the order stays (each dependence keeps its order), and the hint no longer says
a max "changes its rounding"."""
import shutil
from pathlib import Path

import pytest

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "reduction_scope"
needs_omp = pytest.mark.skipif(shutil.which("gcc") is None,
                               reason="needs gcc with -fopenmp on PATH: run compiles the OpenMP output (CI has it)")


@needs_omp
@pytest.mark.parametrize("src,recipe", [("jstep.c", "r.yaml"), ("jstep_noomp.c", "r_step.yaml")])
@pytest.mark.parametrize("n,m", [(23, 37), (18, 64)])
def test_fmax_updates_may_run_in_the_tiled_order(src, recipe, n, m):
    rc, out, err = run_cli("run", DATA / src, "--recipe", DATA / recipe, "-D", f"n={n}", "-D", f"m={m}",
                           "--cflags", "-O2 -fopenmp", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("n,m", [(13, 21), (9, 16)])
def test_an_integer_max_with_its_clause_on_the_outer_loop(n, m):
    rc, out, err = run_cli("run", DATA / "imax.c", "--recipe", DATA / "imax_clause.yaml", "-D", f"n={n}", "-D",
                           f"m={m}", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("src,recipe", [("imax.c", "imax.yaml"), ("jstep_ternary.c", "ternary.yaml")])
def test_without_a_clause_the_updates_keep_their_order(src, recipe):
    rc, out, err = run_cli("transform", DATA / src, "--recipe", DATA / recipe)
    assert rc == 2 and "a max reduction) in another order; an omp_for step with reduction: {'max'" in err, err
    assert "rounding" not in err, err


def test_a_permute_across_the_runs_of_the_clauses_loop_is_refused():
    """`reduction(+:s)` on the innermost j: a run of j is one (t, k); [k, t, j] orders the runs
    otherwise, which the clause does not allow."""
    rc, out, err = run_cli("transform", DATA / "three.c", "--recipe", DATA / "three.yaml")
    assert rc == 2 and "the reduction clause on loop 'j' lets its updates of 's' run in any order" in err, err
