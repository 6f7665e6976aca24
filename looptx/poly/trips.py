"""Keeping the recorded trip counts of unrolled loops true.

Code generation unrolls a marked loop into exactly `LoopDim.trip` copies, so that number must
bound the loop's iterations per iteration of its enclosing loops in the *current* schedule, not
only in the one the unroll step saw.  Unrolling an enclosing loop by a factor coarsens that loop
(one of its iterations now covers `factor` old ones), so every loop already unrolled inside it
may run more often per iteration; without a recount, the surplus iterations were dropped.
"""
from __future__ import annotations

from dataclasses import replace

import islpy as isl

from looptx.errors import RecipeError
from looptx.poly.deps import upper_constant
from looptx.poly.variant import LoopDim, Variant


def recount_inside(v: Variant, group, outer: str, limit: int) -> Variant:
    """Recount the unrolled loops nested inside the loop at `group`'s positions (the pieces of
    one loop, as `schedule.sharing` gives them); refuse when one would exceed `limit` copies."""
    loops: dict[tuple, list] = {}
    for k, pos in group:
        q = v.pieces[k]
        for inner in range(pos + 1, len(q.dims)):
            d = q.dims[inner]
            if isinstance(d, LoopDim) and d.unroll:
                loops.setdefault((inner, q.prefix(inner), d.name), []).append((k, inner))
    if not loops:
        return v
    pieces = list(v.pieces)
    for (inner, _, name), members in loops.items():
        trip = max_trip(v, members, inner)
        if trip is None or trip > limit:
            shown = "an unbounded number of" if trip is None else f"up to {trip}"
            raise RecipeError(f"after unrolling '{outer}', the unrolled loop '{name.rstrip(chr(39))}' "
                              f"inside it would need {shown} copies",
                              hint=f"use a smaller unroll factor for '{outer}' (at most {limit} "
                                   "copies of an inner unrolled loop)")
        for k, pos in members:
            q = pieces[k]
            d = q.dims[pos]
            if trip > d.trip:
                pieces[k] = replace(q, dims=q.dims[:pos] + (replace(d, trip=trip),) + q.dims[pos + 1:])
    return v.evolve(pieces=tuple(pieces))


def check_factor(name: str, factor: int, limit: int) -> None:
    """A partial unroll makes `factor` copies of the body whatever the trip count turns out to
    be; refused here, at the step, rather than when code generation runs out of copies."""
    if factor > limit:
        raise RecipeError(f"unrolling loop '{name}' by {factor} would make {factor} copies of its body "
                          f"(at most {limit})",
                          hint="use a smaller factor (4 to 16 is typical), or fix the sizes with "
                               "--define so that a factor at or above the trip count unrolls fully")


def _ranges(v: Variant, group, upto: int) -> isl.Set:
    width = v.width
    out = None
    for k, _ in group:
        r = v.piece_map(v.pieces[k], width).range()
        r = r.project_out(isl.dim_type.set, upto + 1, width - upto - 1)
        out = r if out is None else out.union(r)
    return out


def _param_aff_text(pa: isl.PwAff) -> str | None:
    """Text of a piecewise expression that is one affine function of parameters, else None."""
    pieces = pa.get_pieces()
    if len(pieces) != 1:
        return None
    _, aff = pieces[0]
    if aff.dim(isl.dim_type.div) or aff.dim(isl.dim_type.in_) and any(
            not aff.get_coefficient_val(isl.dim_type.in_, i).is_zero()
            for i in range(aff.dim(isl.dim_type.in_))):
        return None
    if not aff.get_denominator_val().is_one():
        return None
    terms = []
    for i in range(aff.dim(isl.dim_type.param)):
        c = aff.get_coefficient_val(isl.dim_type.param, i).to_python()
        if c:
            terms.append(f"{c}*{aff.get_dim_name(isl.dim_type.param, i)}")
    terms.append(str(aff.get_constant_val().to_python()))
    return " + ".join(terms)


def _global_min(v: Variant, group, pos: int) -> str:
    vals = _ranges(v, group, pos).project_out(isl.dim_type.set, 0, pos)
    if vals.is_empty():
        return "0"
    lo = vals.dim_min(0)
    text = _param_aff_text(lo)
    return text if text is not None else "0"


def _values(v: Variant, group, pos: int) -> isl.Map:
    """Outer loops' values -> the loop's values."""
    r = _ranges(v, group, pos)
    return isl.Map.from_range(r).move_dims(isl.dim_type.in_, 0, isl.dim_type.out, 0, pos)


def _stride_of(m: isl.Map) -> int:
    return 1 if m.is_empty() else max(int(m.get_range_stride_info(0).get_stride().to_python()), 1)


def loop_stride(v: Variant, group, pos: int) -> int:
    """The step between the loop's values in one iteration of its outer loops (2 for j += 2)."""
    return _stride_of(_values(v, group, pos))


def max_trip(v: Variant, group, pos: int) -> int | None:
    """The largest number of values the loop takes in one iteration of its outer loops, if
    bounded (a loop over `j += 2` takes every other value of its span)."""
    m = _values(v, group, pos)
    widths = m.reverse().apply_range(m).deltas()
    if widths.is_empty():
        return 0
    hi = upper_constant(widths)
    return None if hi is None else hi // _stride_of(m) + 1
