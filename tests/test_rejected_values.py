"""Values a step's argument check rejects whatever the other params are leave the space;
values rejected only in combination with others stay (the points fail one by one)."""
from __future__ import annotations

import pytest

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


def test_a_step_that_rejects_every_point_stops_the_search():
    """Nothing is left to measure: the first point's error, before anything is built (probe 97 G3)."""
    space = Space([Param.of("T", (0, -1)), Param.of("U", (1,))])
    with pytest.raises(RecipeError, match="got 0"):
        drop_rejected_values(space, _Recipe(), seed=0)


def test_points_rejected_by_different_steps_are_left_to_the_search():
    class _TwoSteps:
        def recipe_for(self, point):
            raise RecipeError("no", step=1 if point["T"] == 0 else 2, step_name="tile")
    space = Space([Param.of("T", (0, -1)), Param.of("U", (1,))])
    smaller, dropped = drop_rejected_values(space, _TwoSteps(), seed=0)
    assert smaller is space and dropped == []
