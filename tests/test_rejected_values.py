"""Values a step's argument check rejects whatever the other params are leave the space;
values rejected only in combination with others stay (the points fail one by one)."""
from __future__ import annotations

from looptx.errors import RecipeError
from looptx.search.rejected_values import drop_rejected_values
from looptx.search.space import Param, Space


class _Recipe:
    """recipe_for of an evaluator whose steps are tile(T) and tile(T - U)."""

    def recipe_for(self, point):
        for size in (point["T"], point["T"] - point["U"]):
            if size < 1:
                raise RecipeError(f"argument 'size' must be an integer >= 1, got {size}",
                                  step=1, step_name="tile")
        return None, None


def test_only_values_rejected_on_their_own_are_dropped():
    space = Space([Param.of("T", (-1, 0, 2, 3, 4, 5, 6)), Param.of("U", (1, 2, 3))])
    smaller, dropped = drop_rejected_values(space, _Recipe(), seed=0)
    assert sorted(v for _, v, _ in dropped) == [-1, 0]
    assert smaller.params[0].values == (2, 3, 4, 5, 6) and smaller.params[1].values == (1, 2, 3)
    assert all("step 1 (tile) rejects it: argument 'size' must be an integer >= 1" in e for _, _, e in dropped)


def test_nothing_is_dropped_when_every_value_fails():
    space = Space([Param.of("T", (0, -1)), Param.of("U", (1,))])
    smaller, dropped = drop_rejected_values(space, _Recipe(), seed=0)
    assert smaller is space and dropped == []
