"""Keeping the recorded trip counts of unrolled loops true.

Code generation unrolls a marked loop into exactly `LoopDim.trip` copies, so that number must
bound the loop's iterations per iteration of its enclosing loops in the *current* schedule, not
only in the one the unroll step saw.  Unrolling an enclosing loop by a factor coarsens that loop
(one of its iterations now covers `factor` old ones), so every loop already unrolled inside it
may run more often per iteration; without a recount, the surplus iterations were dropped.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

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


def apart_from(v: Variant, group, innermost):
    """`innermost` for Orio's unroll-and-jam, which jams the copies of a loop inside only where
    their headers are the same text: a loop whose bounds read the unrolled loop's counter
    (SPAPT trmm's `for (k = i+1; ...)` under an unroll of i) is not jammed, its copies run one
    after another in each copy of the body, so the point loop goes around it."""
    at = {id(v.pieces[k]): pos for k, pos in group}

    def words(expr: str, names) -> list[int]:
        return [names.index(w) for w in re.findall(r"[A-Za-z_]\w*", expr) if w in names]

    def inside(q) -> int:
        m = innermost(q)
        s = v.scop.statements[q.stmt]
        pos = at.get(id(q))
        if pos is None or not s.domain:
            return m
        dom = isl.Set(f"{v.scop.prefix}{{ {s.tuple_text()} : {s.domain} }}")
        unrolled = words(q.dims[pos].expr, list(s.iterators))
        # as written: a bound isl finds redundant at fixed sizes (`j >= max(0, i - 2)` at N = 3)
        # still reads the counter in the header Orio compares
        written = [set(words(part, list(s.iterators))) for part in re.split(r"\band\b", s.domain)]
        for p in range(pos + 2, m + 1, 2):
            d = q.dims[p]
            # a loop a full unroll took away (its trip at most the factor) still had its bounds
            inner = words(d.expr, list(s.iterators)) if isinstance(d, LoopDim) and \
                (not d.unroll or not d.name.endswith("'")) else []
            if inner and (any(set(inner) & w and set(unrolled) & w for w in written) or any(
                    any(not c.get_coefficient_val(isl.dim_type.set, a).is_zero() for a in inner)
                    and any(not c.get_coefficient_val(isl.dim_type.set, b).is_zero() for b in unrolled)
                    for bs in dom.get_basic_sets() for c in bs.get_constraints())):
                return p - 2
        return m

    # a statement whose copies stay apart at a level keeps the copies of the whole body there:
    # SPAPT trmm's `B[i][j] = ...` before the k loop, jammed with j's copies already, is not
    # jammed deeper than that k loop, or its copy for i + 1 would run ahead of the k loop of i
    # (asked again for each piece as the unroll places its copies: each isl test once)
    levels = {id(v.pieces[k]): inside(v.pieces[k]) for k, _ in group}
    cut = [(v.pieces[k], levels[id(v.pieces[k])]) for k, _ in group]
    cut = [(q, level) for q, level in cut if level < innermost(q)]

    def level(q) -> int:
        m = levels[id(q)] if id(q) in levels else inside(q)
        for r, at in cut:
            if at < m and q.prefix(at + 1) == r.prefix(at + 1):
                m = at
        return m
    return level


def kept_loop(q) -> int:
    """Position of the piece's innermost loop that stays a loop: a full unroll leaves only its
    copies (the loop itself, or a control loop and its point loop), which are straight code to
    an unroll of a loop around them, so that unroll keeps their order rather than jam them."""
    gone = {d.name for d in q.loops if d.unroll}
    m = len(q.dims) - 2
    while m > 1 and q.dims[m].unroll and (not q.dims[m].name.endswith("'") or q.dims[m].name[:-1] in gone):
        m -= 2
    return m


def check_copies(v: Variant, group, name: str, factor: int, limit: int) -> None:
    """A plain unroll around loops unrolled fully copies all of their copies `factor` times."""
    for k, _ in group:
        q = v.pieces[k]
        inner = [d for d in q.dims[kept_loop(q) + 1:] if isinstance(d, LoopDim) and d.unroll]
        copies = factor
        for d in inner:
            copies *= max(d.trip, 1)
        if copies > limit:
            raise RecipeError(f"unrolling '{name}' by {factor} around the unrolled loop "
                              f"'{inner[0].name.rstrip(chr(39))}' would make {copies} copies of the body "
                              f"(at most {limit})", hint=f"use a smaller unroll factor for '{name}'")


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
    return _aff_text(aff, [])


def _global_min(v: Variant, group, pos: int) -> str:
    vals = _ranges(v, group, pos).project_out(isl.dim_type.set, 0, pos)
    if vals.is_empty():
        return "0"
    lo = vals.dim_min(0)
    text = _param_aff_text(lo)
    return text if text is not None else "0"


def strip_bases(v: Variant, group, pos: int) -> dict[int, str] | None:
    """Per member piece of `group` (piece index -> isl text over its statement's iterators),
    where the loop at `pos` starts in each of its tiles, where that start is one affine
    function of the tiles' control loops: an unroll's strips counted from there leave one
    partial strip at the tile's end, as CHiLL's and Orio's do, where strips counted from the
    loop's least value leave one at each end of every tile.  None where the start is fixed, not
    one function, or a function of other loops."""
    if not any(_tile_of(d, v.pieces[k].dims[p]) for k, p in group for d in v.pieces[k].dims[:p]):
        return None             # (no tile around it: no parametric minimum to ask isl for)
    m = _values(v, group, pos)
    if m.is_empty():
        return None
    pieces = m.lexmin_pw_multi_aff().get_pw_aff(0).get_pieces()
    affs = [aff for _, aff in pieces]
    if not affs or any(not a.plain_is_equal(affs[0]) for a in affs[1:]):
        return None
    aff = affs[0]
    if aff.dim(isl.dim_type.div) == 0 and all(aff.get_coefficient_val(isl.dim_type.in_, i).is_zero()
                                              for i in range(aff.dim(isl.dim_type.in_))):
        return None
    out = {}
    for k, _ in group:
        q = v.pieces[k]
        if any(aff.involves_dims(isl.dim_type.in_, i, 1) and not _tile_of(q.dims[i], q.dims[pos])
               for i in range(aff.dim(isl.dim_type.in_))):
            # a start over another loop (`for (j = i; ...)`): strips from there would not line
            # up from one i to the next, and a jam of i over them would reorder (probe 188 G1)
            return None
        names = [str(d) if isinstance(d, int) else f"({d.expr})" for d in q.dims[:pos]]
        text = _aff_text(aff, names)
        if text is None:
            return None
        out[k] = text
    return out


def _tile_of(outer, loop) -> bool:
    """Whether schedule dimension `outer` is the control loop of a tile of `loop`."""
    return isinstance(outer, LoopDim) and bool(outer.counted) and isinstance(loop, LoopDim) \
        and outer.counted[0] == loop.name


def _aff_text(aff: isl.Aff, names: list[str]) -> str | None:
    """`aff` as isl text, its input dimensions read as `names`; None where it is not integral."""
    den = aff.get_denominator_val()
    if not den.is_one():
        return None
    terms = []
    for kind, count, name in ((isl.dim_type.in_, aff.dim(isl.dim_type.in_), names.__getitem__),
                              (isl.dim_type.param, aff.dim(isl.dim_type.param),
                               lambda i: aff.get_dim_name(isl.dim_type.param, i))):
        for i in range(count):
            c = aff.get_coefficient_val(kind, i)
            if not c.is_zero():
                terms.append(f"{c.to_python()}*{name(i)}")
    for i in range(aff.dim(isl.dim_type.div)):
        c = aff.get_coefficient_val(isl.dim_type.div, i)
        if c.is_zero():
            continue
        div = aff.get_div(i)
        d = div.get_denominator_val()
        inner = _aff_text(div.scale_val(d), names)
        if inner is None:
            return None
        terms.append(f"{c.to_python()}*floor(({inner})/{d.to_python()})")
    terms.append(str(aff.get_constant_val().to_python()))
    return " + ".join(terms)


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


# ---- strips of partial unrolls, for code generation ------------------------------------------

@dataclass(frozen=True)
class Strip:
    """The control loop (schedule position `ctrl`) and point loop (`point`) of one partial
    unroll by `factor` iterations, over the pieces `members`.

    `counted`: the control loop can be dropped from the schedule and the point loop
    strip-mined from its own start in code generation (CHiLL's main loop plus cleanup loop).
    That keeps the order exactly only when nothing lies between the two loops (no jam) and no
    other statement or copy shares the control loop, and it realigns the strips, so a loop
    with pragmas (checked against the original strips) keeps them too.
    `cleanup`: a partial strip of the old layout may stay a loop; not for a full unroll (a
    factor at least the loop's trip count, jammed), which must leave no loop behind.
    `exact`: every run of a counted point loop has a multiple of `factor` iterations (a `known`
    fact such as `N % 4 == 0`), so its strip-mined form needs no cleanup loop."""
    key: tuple
    ctrl: int
    point: int
    factor: int
    members: tuple
    counted: bool
    cleanup: bool
    exact: bool = False


def _point_of(p, ctrl: int) -> int | None:
    want = p.dims[ctrl].name + "'"
    for k in range(ctrl + 1, len(p.dims)):
        d = p.dims[k]
        if isinstance(d, LoopDim) and d.hidden and d.name == want:
            return k
    return None


def unroll_groups(v: Variant) -> dict[tuple, list]:
    """(ctrl position, prefix) -> [(piece, point position, control LoopDim)] per partial unroll."""
    loops: dict[tuple, list] = {}
    for k, p in enumerate(v.pieces):
        for ctrl, d in enumerate(p.dims):
            if isinstance(d, LoopDim) and d.factor > 0:
                point = _point_of(p, ctrl)
                if point is not None:
                    loops.setdefault((ctrl, p.prefix(ctrl + 1)), []).append((k, point, d))
    return loops


def _outer(m: isl.Map, upto: int, width: int) -> isl.Set:
    return m.range().project_out(isl.dim_type.set, upto, width - upto)


def _point_values(v: Variant, members, ctrl: int, point: int, width: int) -> isl.Map:
    """The loops outside the control loop -> the values of the unrolled loop."""
    r = None
    for k, _, _ in members:
        x = v.piece_map(v.pieces[k], width).range()
        x = x.project_out(isl.dim_type.set, point + 1, width - point - 1) \
             .project_out(isl.dim_type.set, ctrl, point - ctrl)
        r = x if r is None else r.union(x)
    return isl.Map.from_range(r).move_dims(isl.dim_type.in_, 0, isl.dim_type.out, 0, ctrl)


def _whole_strips(m: isl.Map, factor: int) -> bool:
    """Whether every run of the loop `m` maps to has a multiple of `factor` values."""
    s = _stride_of(m)
    spans = isl.Map.from_pw_multi_aff(m.lexmax_pw_multi_aff().sub(m.lexmin_pw_multi_aff())).range()
    partial = isl.Set(f"{{ [w] : (w + {s}) mod {factor * s} != 0 }}").align_params(spans.get_space())
    return spans.intersect(partial).is_empty()


def _one_run_of_whole_strips(maps: list[isl.Map], factor: int) -> bool:
    """Whether code generation prints the unrolled loop as one loop of whole strips: every
    member runs over the same values, without holes (`j != i` leaves one, and isl then prints
    the loop in pieces, each strip-mined from its own start), a multiple of `factor` of them."""
    first = maps[0]
    if not all(m.is_equal(first) for m in maps[1:]) or first.is_empty():
        return False
    s = _stride_of(first)
    lo = isl.Map.from_pw_multi_aff(first.lexmin_pw_multi_aff())
    hi = isl.Map.from_pw_multi_aff(first.lexmax_pw_multi_aff())
    up = isl.Map(f"{{ [a] -> [x] : x >= a and (x - a) mod {s} = 0 }}").align_params(lo.get_space())
    down = isl.Map("{ [b] -> [x] : x <= b }").align_params(hi.get_space())
    box = lo.apply_range(up).intersect(hi.apply_range(down))
    return box.is_subset(first) and _whole_strips(first, factor)


def _whole_trip(v: Variant, members, ctrl: int, point: int, width: int) -> int | None:
    """Most values of the unrolled loop per iteration of the loops outside its control loop."""
    m = _point_values(v, members, ctrl, point, width)
    widths = m.reverse().apply_range(m).deltas()
    if widths.is_empty():
        return 0
    hi = upper_constant(widths)
    return None if hi is None else hi // _stride_of(m) + 1


def strips(v: Variant, width: int, others=(), counting: bool = True) -> list[Strip]:
    """Every partial unroll of `v` (schedules padded to `width`); `others` are the schedules of
    the added statements (copies, barriers) that may share a control loop.  `counting`: False
    keeps every control loop (a GPU mapping addresses schedule positions itself)."""
    groups = unroll_groups(v)
    out = []
    for key, members in groups.items():
        ctrl = key[0]
        d = members[0][2]
        points = {pt for _, pt, _ in members}
        point = min(points)
        factor = max(v.pieces[members[0][0]].dims[point].trip, 1)
        plain = not d.unroll and not d.pragmas
        counted = counting and plain and len(points) == 1 and all(
            all(isinstance(x, int) for x in v.pieces[k].dims[ctrl + 1:point]) for k, _, _ in members) \
            and len({v.pieces[k].dims[ctrl + 1:point] for k, _, _ in members}) == 1
        if counted:
            mine = {k for k, _, _ in members}
            inside = None
            for k, _, _ in members:
                x = _outer(v.piece_map(v.pieces[k], width), ctrl, width)
                inside = x if inside is None else inside.union(x)
            rest = [v.piece_map(p, width) for k, p in enumerate(v.pieces) if k not in mine]
            counted = all(_outer(m, ctrl, width).intersect(inside).is_empty()
                          for m in list(rest) + list(others))
        cleanup = plain and not counted
        if cleanup:
            trip = _whole_trip(v, members, ctrl, point, width)
            cleanup = trip is None or trip > factor
        exact = counted and _one_run_of_whole_strips([_point_values(v, [m], ctrl, point, width)
                                                        for m in members], factor)
        out.append(Strip(key, ctrl, point, factor, tuple(k for k, _, _ in members), counted,
                         cleanup, exact))
    return _consistent(v, out)


def _consistent(v: Variant, found: list[Strip]) -> list[Strip]:
    """Code generation finds a strip by (statement, point position): where two strips of one
    statement meet there (pieces of a split unrolled apart) and differ, neither is counted and
    their partial strips keep the guarded copies (`strip_table` leaves such keys out)."""
    while True:
        clash = set(_table(v, found)[1])
        new = [replace(s, counted=False, cleanup=False, exact=False)
               if any((v.pieces[k].stmt, s.point) in clash for k in s.members) else s for s in found]
        if new == found:
            return found
        found = new


def _table(v: Variant, found: list[Strip]):
    seen: dict[tuple, set] = {}
    for s in found:
        for k in s.members:
            seen.setdefault((v.pieces[k].stmt, s.point), set()).add(
                (s.factor, s.ctrl, s.counted, s.cleanup, s.exact))
    table = {key: next(iter(vals)) for key, vals in seen.items() if len(vals) == 1}
    return table, [key for key, vals in seen.items() if len(vals) > 1]


def strip_table(v: Variant, found: list[Strip]) -> dict[tuple, tuple]:
    """(statement, point position) -> (factor, control position, counted, cleanup, exact)."""
    return _table(v, found)[0]
