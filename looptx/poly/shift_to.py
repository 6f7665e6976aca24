"""CHiLL's shift_to: the shift of a loop that makes it start at a given value."""
from __future__ import annotations

import islpy as isl

from looptx.errors import RecipeError
from looptx.frontend.names import to_user
from looptx.poly.deps import _constant
from looptx.poly.schedule import _shifted, resolve_name, sharing, shift
from looptx.poly.trips import _param_aff_text, _ranges
from looptx.poly.variant import LoopDim, Variant


class VaryingStart(RecipeError):
    """shift_to of a loop whose start varies with the loops around it."""


def shift_to(v: Variant, stmt: int, loop, to: int) -> Variant:
    """CHiLL's shift_to: the shift that makes the loop start at `to`, which is one amount only
    when the loop starts at one value (of the sizes) in every iteration of its outer loops."""
    if not isinstance(to, int):
        raise RecipeError(f"shift_to position must be an integer, got {to!r}")
    name = resolve_name(v, stmt, loop)
    group = sharing(v, stmt, name)
    pos = group[0][1]
    # the copies a peel or split made of the loop (and of loops around it) are one loop here, as
    # they are to `shift`: the shift puts the first of all their iterations at `to` (probe 220 G2:
    # each copy's start was taken for a start that varied with the loops around)
    ranges = _ranges(v, group, pos)
    places = [p for p in range(pos) if not isinstance(v.pieces[group[0][0]].dims[p], LoopDim)]
    for p in reversed(places):
        ranges = ranges.project_out(isl.dim_type.set, p, 1)
    per_outer = isl.Map.from_range(ranges).move_dims(isl.dim_type.in_, 0, isl.dim_type.out, 0, pos - len(places))
    starts = per_outer.lexmin().range()
    if starts.is_empty():
        return v                  # a loop that runs no iteration at these sizes: nothing to shift
    # (a loop that counts down runs its schedule's values negated: it starts at -lo, and the
    # shift is of the loop's own value)
    sign = -1 if v.pieces[group[0][0]].dims[pos].reversed else 1
    lo = _constant(starts.dim_min(0))
    if lo is not None and lo == _constant(starts.dim_max(0)):
        return shift(v, stmt, loop, to - sign * lo)
    # a start that the sizes alone give (`for (i = lo; ...)`): the shift by `to - lo`
    mn, mx = starts.dim_min(0), starts.dim_max(0)
    text = _param_aff_text(mn) if mn.is_equal(mx) else None
    if text is None and mn.is_equal(mx):
        # `for (i = lo; ...) for (j = 0; j <= i; ...)`: j's loop makes i start at max(0, lo)
        from looptx import ir
        from looptx.poly.astgen import expr
        start = ir.to_c(expr(isl.AstBuild.from_context(mn.domain()).expr_from_pw_aff(mn if sign > 0 else mn.neg())))
        raise VaryingStart(f"shift_to: loop '{name}' starts at {to_user(start)} "
                           "(the loops inside it bound it too), which no one shift makes "
                           f"{to}", hint="shift it by a constant amount or a size (shift {stmt, loop, by: K}), "
                                         "or fix the sizes with --define")
    if text is None:
        raise VaryingStart(f"shift_to: loop '{name}' does not start at one value in every iteration of the loops "
                          "around it",
                          hint="shift it by a constant amount (shift {stmt, loop, by: K}), or fix the "
                               "sizes with --define")
    return _shifted(v, stmt, name, f"{to} - ({text})" if sign > 0 else f"{to} + ({text})")
