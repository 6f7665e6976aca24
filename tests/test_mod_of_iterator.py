"""`j % 2` of a loop variable that runs from 2 (red-black SOR, Numerical Recipes' relax written
affinely: `for (i = 2 + j%2; i < n; i += 2)`) is floor-mod wherever it is evaluated; looptx said
"the region is modelled for n >= 3: C's '/' and '%' of sizes round toward zero ..." and versioned
the output on it, naming a size the file does not divide."""
from pathlib import Path

import pytest

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "mod_iter"


def test_no_fact_where_the_loop_bounds_make_the_operand_non_negative():
    rc, out, err = run_cli("transform", DATA / "red.c", "--function", "red", "--recipe", DATA / "tile.yaml")
    assert rc == 0 and "modelled for" not in err and "if (n >= 3)" not in out, out + err


@pytest.mark.parametrize("n", [3, 14, 17])
def test_the_tiled_sweep_agrees(n):
    rc, out, err = run_cli("run", DATA / "red.c", "--function", "red", "--recipe", DATA / "tile.yaml", "-D", f"n={n}",
                           "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err
