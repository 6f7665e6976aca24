"""Loop transformations on a Variant's per-piece 2d+1 schedule.  Each is a pure function
Variant -> Variant; legality is checked by the caller against the original dependences.

Loops are addressed by name among the loops of the step's statement; a step on loop L acts on
every piece that shares L (CHiLL semantics).  A step that would have to split a shared loop
implicitly raises a RecipeError that says to distribute first.  Fusion, which also renames
loops, is in fusion.py.
"""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import islpy as isl

from looptx.errors import RecipeError
from looptx.frontend.names import to_user
from looptx.poly.known_values import at_macro_value, soft_sizes_hint
from looptx.poly.budget import isl_budget
from looptx.poly.peeling import each
from looptx.poly.trips import (_global_min, _ranges, apart_from, strip_bases, check_copies, check_factor, kept_loop, loop_stride,
                               max_trip, recount_inside)
from looptx.poly.variant import LoopDim, Piece, Variant, counted_tiles, points_inside

MAX_FULL_UNROLL = 1024
PEEL_OPERATIONS = 20_000_000        # isl operations for one peel's iterations (seconds)


# ---- addressing ----------------------------------------------------------------------------

def _pieces(v: Variant, stmt: int) -> list[tuple[int, Piece]]:
    pcs = v.pieces_of(stmt)
    if not pcs:
        n = len(v.scop.statements)
        raise RecipeError(f"there is no statement {stmt}", hint=f"statements are numbered 0..{n - 1}")
    return pcs


def loop_names(v: Variant, stmt: int) -> list[str]:
    _, p = _pieces(v, stmt)[0]
    return [d.name for d in p.loops if not d.hidden]


def locate(v: Variant, stmt: int, name: str, hidden: bool = False) -> list[tuple[int, int]]:
    """(piece index, position) of loop `name` in every piece of `stmt`."""
    if isinstance(name, int) and not isinstance(name, bool):
        names = loop_names(v, stmt)
        if not 1 <= name <= len(names):
            raise RecipeError(f"statement {stmt} has no loop level {name}",
                              hint=f"its loops are {', '.join(names)} (levels 1..{len(names)})")
        name = names[name - 1]
    out = []
    for k, p in _pieces(v, stmt):
        pos = p.position_of(name, hidden)
        if pos is None:
            own = ", ".join(d.name for d in p.dims if isinstance(d, LoopDim)) or "none"
            if any(q.position_of(name, hidden) is not None for _, q in _pieces(v, stmt)):
                # a peel or split left a part without it (its loop ran one iteration at these sizes)
                raise RecipeError(f"statement {stmt} is in parts (a peel or split made them), and one of them "
                                  f"has no loop named '{name}' (its loops: {own})",
                                  hint="name a loop every part has, or give this step before the peel or split")
            names = ", ".join(loop_names(v, stmt)) or "none"
            # (a tile's default control name taken by a size: `kk` became `kk2`)
            size = f"; '{name}' is a size of the region, so a tile names its control loop otherwise" \
                if name in v.scop.params and any(n.startswith(name) for n in loop_names(v, stmt)) else ""
            raise RecipeError(f"statement {stmt} has no loop named '{name}'",
                              hint=f"its loops, outermost first: {names}{size}{_source_of(v, stmt)}")
        out.append((k, pos))
    return out


def _source_of(v: Variant, stmt: int) -> str:
    """Which statement of the source it is: a count by hand may differ from the contract's
    (an index temporary, `int d = y + k;`, is read as its expression and is no statement)."""
    st = next((s for s in v.scop.statements if s.id == stmt), None)
    if st is None or not st.line or not st.text:
        return ""
    text = " ".join(st.text.split())
    return f"; it is line {st.line}'s `{text if len(text) <= 60 else text[:57] + '...'}` (looptx deps lists them all)"


def resolve_name(v: Variant, stmt: int, name, hidden: bool = False) -> str:
    k, pos = locate(v, stmt, name, hidden)[0]
    return v.pieces[k].dims[pos].name


def sharing(v: Variant, stmt: int, name, hidden: bool = False) -> list[tuple[int, int]]:
    """Every piece inside the loop `name` of `stmt` (the loop is shared structure)."""
    keys = {(pos, v.pieces[k].prefix(pos), v.pieces[k].dims[pos].name) for k, pos in locate(v, stmt, name, hidden)}
    out = []
    for k, q in enumerate(v.pieces):
        for pos, pre, nm in keys:
            d = q.dims[pos] if pos < len(q.dims) else None
            if isinstance(d, LoopDim) and d.name == nm and q.prefix(pos) == pre:
                out.append((k, pos))
                break
    return out


def _value(d: LoopDim) -> str:
    return f"-({d.expr})" if d.reversed else d.expr


def _expr_of_value(d: LoopDim, value: str) -> str:
    return f"-({value})" if d.reversed else value


def normalize(pieces: list[Piece]) -> tuple[Piece, ...]:
    """Renumber the positions of siblings to 0, 1, ... (steps insert fractional positions)."""
    dims = [list(p.dims) for p in pieces]
    width = max(len(d) for d in dims)
    for k in range(0, width, 2):
        groups: dict[tuple, set] = {}
        for d in dims:
            if k < len(d):
                key = tuple(x if not isinstance(x, LoopDim) else x.name for x in d[:k])
                groups.setdefault(key, set()).add(d[k])
        ranks = {key: {val: i for i, val in enumerate(sorted(vals))} for key, vals in groups.items()}
        for d in dims:
            if k < len(d):
                key = tuple(x if not isinstance(x, LoopDim) else x.name for x in d[:k])
                d[k] = ranks[key][d[k]]
    return tuple(replace(p, dims=tuple(d)) for p, d in zip(pieces, dims))


def _check_name_free(v: Variant, group, name: str):
    for k, _ in group:
        if v.pieces[k].position_of(name) is not None:
            raise RecipeError(f"a loop named '{name}' already encloses statement {v.pieces[k].stmt}",
                              hint="choose another name")


# ---- the steps -----------------------------------------------------------------------------

def permute(v: Variant, stmt: int, order: list) -> Variant:
    order = [resolve_name(v, stmt, n) for n in order]
    if len(set(order)) != len(order):
        twice = next(n for n in order if order.count(n) > 1)
        raise RecipeError(f"permute: loop '{to_user(twice)}' is named twice in the order", hint="name each loop once")
    # The parts of a split, a peel or an unroll's cleanup are the statement too: permuting one
    # left the other in its old order under the permuted names.  Each part's loops move, and a
    # loop another statement shares with a part must move the same way there, or it would split.
    parts = _pieces(v, stmt)
    moves: dict[int, dict[int, str]] = {}             # piece -> {position: loop name placed there}
    placed_at: dict[tuple, str] = {}                  # a part's loop (pos, prefix, name) -> new name
    for k, p in parts:
        positions = sorted(p.position_of(n) for n in order)
        moves[k] = dict(zip(positions, order))
        for pos in positions:
            placed_at[(pos, p.prefix(pos), p.dims[pos].name)] = moves[k][pos]
    for k, q in enumerate(v.pieces):
        shared = {pos: placed_at[key] for pos, d in enumerate(q.dims)
                  if isinstance(d, LoopDim) and (key := (pos, q.prefix(pos), d.name)) in placed_at}
        if not shared or k in moves:
            continue
        new_names = set(shared.values())
        old_names = {q.dims[pos].name for pos in shared}
        if new_names != old_names:
            # loops above the first changed position stay put: distributing there is the least that works
            cut = q.dims[next(pos for pos in sorted(shared) if shared[pos] != q.dims[pos].name)].name
            missing = sorted(new_names - old_names)[0]
            own = " (the loop of that name it is in is another one)" if missing in loop_names(v, q.stmt) else ""
            raise RecipeError(f"permute would split loop '{cut}': statement {q.stmt} shares it with statement "
                              f"{stmt} but not its loop {missing}{own}",
                              hint=f"distribute the statements first (distribute {{stmts: [{stmt}], loop: {cut}}})")
        moves[k] = shared
    pieces = list(v.pieces)
    for k, placed in moves.items():
        q = pieces[k]
        by_name = {q.dims[pos].name: q.dims[pos] for pos in placed}
        dims = list(q.dims)
        for pos, name in placed.items():
            dims[pos] = by_name[name]
        pieces[k] = replace(q, dims=points_inside(counted_tiles(tuple(dims))))
    return v.evolve(pieces=normalize(pieces))


def tile(v: Variant, stmt: int, loop, size: int, control: str | None = None) -> Variant:
    name = resolve_name(v, stmt, loop)
    if not isinstance(size, int) or size < 1:
        raise RecipeError(f"tile size must be an integer >= 1, got {size!r}", hint="use e.g. size: 32")
    control = control or name * 2
    group = sharing(v, stmt, name)
    _check_name_free(v, group, control)
    pos = group[0][1]
    lb = _global_min(v, group, pos)
    # a tile holds `size` iterations, as an unroll's strip does: on a loop stepping by s
    # (Parboil lbm's sweep over 20-float cells), s * size values, so no tile starts off the
    # loop's lattice and a thread or block of a mapped tile never idles
    width = size * loop_stride(v, group, pos)
    pieces = list(v.pieces)
    for k, pos in group:
        q = pieces[k]
        d = q.dims[pos]
        ctrl = LoopDim(control, f"floor(({d.expr} - ({lb}))/{width})", counted=(d.name, d.expr, lb, width))
        pieces[k] = replace(q, dims=q.dims[:pos] + (ctrl, 0) + q.dims[pos:])
    return v.evolve(pieces=normalize(pieces))


def _kept_as_loop(v: Variant, stmt: int, name: str, group) -> bool:
    """Whether a cuda step maps loop `name` of statement `stmt`, or a pragma is on it."""
    if any(v.pieces[k].dims[p].pragmas for k, p in group):
        return True
    from looptx.poly.gpu import mappings
    return any(m.stmt == stmt and name in (*m.block, *m.thread) for m in mappings(v))


def unroll(v: Variant, stmt: int, loop, factor: int, jam: bool = False, apart: bool = False) -> Variant:
    """`jam`: Orio's unrolljam, which also interleaves the copies of a loop inside that an
    earlier step unrolled fully (its register tiles); otherwise those stay in order.  `apart`:
    as Orio, loops whose bounds read the unrolled counter are not jammed (trips.apart_from)."""
    name = resolve_name(v, stmt, loop)
    if not isinstance(factor, int) or factor < 0:
        raise RecipeError(f"unroll factor must be an integer >= 0, got {factor!r}",
                          hint="0 unrolls fully, 1 does nothing")
    if factor == 1:
        return v
    group = sharing(v, stmt, name)
    pos = group[0][1]
    asked = factor
    trip = max_trip(v, group, pos)
    if trip is None and factor > 1 and not any(v.pieces[k].dims[p].factor for k, p in group):
        v, trip = _covered_at_macro_value(v, group, pos, name, factor)
    if trip == 0:
        return v        # the loop never runs at these sizes: there is nothing to copy
    # a partial unroll of a loop that a cuda step maps or a pragma shares out stays a loop where
    # these sizes leave it no more iterations than the factor (one strip): a full unroll would
    # take away what the mapping or the pragma names (a recipe fine at other sizes)
    if factor > 1 and trip is not None and factor >= trip and _kept_as_loop(v, stmt, name, group):
        factor = trip if trip > 1 else 2
    if factor == 0 or (trip is not None and factor >= trip and not _kept_as_loop(v, stmt, name, group)):
        # A #defined bound (k < TAPS) or a constant local (`const int K = 3;`) stays symbolic
        # until a step needs its value: then, as CHiLL does, the loop is unrolled at that value
        # (a #define's is checked by the output).  So it is too where a guard and a size that
        # --define fixed also bound the loop (`if (x + f >= w) continue;`): the copies follow
        # the loop's own bound, not the image width.
        error = RecipeError(f"loop '{name}' has no constant trip count and cannot be unrolled fully",
                            hint="give an unroll factor (e.g. factor: 4) or fix the sizes with --define"
                                 + soft_sizes_hint(v.scop))

        def shorter(w: Variant) -> int:
            t = max_trip(w, group, pos)
            if t is None or (trip is not None and t >= trip):
                raise error
            return t
        try:
            v = at_macro_value(v, shorter, error, f"loop '{to_user(name)}' is unrolled fully")
            trip = max_trip(v, group, pos)
        except RecipeError:
            if trip is None:
                raise
        if trip > MAX_FULL_UNROLL:
            raise RecipeError(f"loop '{name}' has up to {trip} iterations: too many to unroll fully",
                              hint=f"unroll by a factor instead (at most {MAX_FULL_UNROLL} copies)")
        # A loop with loops inside is jammed (below); an unroll's control loop (strided) and
        # innermost loops are unrolled in place.
        if all(v.pieces[k].dims[pos].factor or
               not any(isinstance(d, LoopDim) and not d.unroll for d in v.pieces[k].dims[pos + 1:])
               for k, pos in group):
            pieces = list(v.pieces)
            for k, pos in group:
                q = pieces[k]
                pieces[k] = replace(q, dims=q.dims[:pos] + (replace(q.dims[pos], unroll=True, hidden=True,
                                                                            trip=trip),) + q.dims[pos + 1:])
            return v.evolve(pieces=tuple(pieces))
        # Loops inside: a full unroll jams them like any other unroll (one control iteration).
        factor = trip
    done = next((v.pieces[k].dims[p].asked or v.pieces[k].dims[p].factor for k, p in group
                 if v.pieces[k].dims[p].factor), 0)
    if done:
        # The control loop of an unroll steps by its factor; a second partial unroll of it
        # would need strided copies, which are not generated.
        # (the factors as the steps asked for them, not as these sizes cut them down)
        raise RecipeError(f"loop '{name}' is already unrolled by {done}",
                          hint=f"unroll it once by the product of the factors ({done * (asked or factor)}), "
                               "or fully (factor 0)")
    check_factor(name, factor, MAX_FULL_UNROLL)
    lb = _global_min(v, group, pos)
    starts = None if any(v.pieces[k].dims[p].reversed for k, p in group) else strip_bases(v, group, pos)
    innermost = (lambda q: len(q.dims) - 2) if jam else kept_loop
    innermost = apart_from(v, group, innermost) if apart else innermost
    if not jam:
        check_copies(v, group, name, factor, MAX_FULL_UNROLL)
    runs = _straight_runs(v, group, innermost)
    # A factor counts iterations, as in CHiLL and Orio: over `j += 2` a strip of 2 * factor
    # values holds `factor` of them
    width = factor * loop_stride(v, group, pos)
    pieces = list(v.pieces)
    for k, pos in group:
        q = pieces[k]
        d = q.dims[pos]
        base = starts[k] if starts else lb
        ctrl = replace(d, expr=f"{width}*floor(({d.expr} - ({base}))/{width}) + ({base})", factor=width, asked=factor)
        point = LoopDim(name + "'", d.expr, unroll=True, reversed=d.reversed, hidden=True, trip=factor)
        dims = q.dims[:pos] + (ctrl,) + q.dims[pos + 1:]
        m = innermost(q)
        pieces[k] = replace(q, dims=dims[:m + 1] + (runs[k], point) + dims[m + 1:])
    return recount_inside(v.evolve(pieces=normalize(pieces)), group, name, MAX_FULL_UNROLL)


def _covered_at_macro_value(v: Variant, group, pos: int, name: str, factor: int):
    """(v, trip): a factor at or above the trip count that a #define or a constant local gives
    unrolls fully at that value, as in CHiLL, rather than leaving a main loop that never runs."""
    if not (v.scop.local_values or v.scop.macro_values):
        return v, None
    short = RecipeError("the factor does not cover the trip count")

    def covered(w: Variant) -> int:
        t = max_trip(w, group, pos)
        if t is None or t > factor:
            raise short
        return t
    try:
        w = at_macro_value(v, covered, short, f"loop '{to_user(name)}' is unrolled fully (the factor "
                                              f"{factor} covers its trip count)")
    except RecipeError:
        return v, None
    return w, max_trip(w, group, pos)


def _straight_runs(v: Variant, group, innermost=kept_loop) -> dict[int, object]:
    """Where the point loop of an unroll goes, per piece: directly inside the piece's innermost
    loop, around the maximal run of consecutive statements it belongs to there (keyed by the
    run's first position).  Copies of a run are therefore emitted iteration-major (whole
    iterations in order, as CHiLL does for a multi-statement body: a scalar temporary reused
    by the statements stays legal), while loops nested inside the unrolled loop get their own
    point loop innermost, which is what jams them (unroll-and-jam).  A single statement gets
    the same schedule as before: its point loop innermost.  `innermost` finds a piece's
    innermost loop: loops unrolled fully count as straight code unless the unroll jams them."""
    members = [(k, v.pieces[k]) for k, _ in group]
    out: dict[int, object] = {}
    for k, q in members:
        m = innermost(q)                       # innermost loop of q (fully unrolled ones are code)
        here = q.prefix(m + 1)
        sibling_loops = sorted({p.dims[m + 1] for _, p in members
                                if innermost(p) > m and p.prefix(m + 1) == here})
        mine = q.dims[m + 1]
        before = [x for x in sibling_loops if x < mine]
        after = [x for x in sibling_loops if x > mine]
        run = [p.dims[m + 1] for _, p in members if innermost(p) == m and p.prefix(m + 1) == here
               and (not before or p.dims[m + 1] > before[-1]) and (not after or p.dims[m + 1] < after[0])]
        out[k] = min(run)
    return out


def _restricted(v: Variant, q: Piece, cond: str) -> str:
    s = v.scop.statements[q.stmt]
    text = f"{v.scop.prefix}{{ {s.tuple_text()} : {cond} }}"
    try:
        new = isl.Set(text)
    except isl.Error:
        raise RecipeError(f"cannot use the condition '{cond}'", hint="write an affine expression") from None
    if q.restrict:
        new = new.intersect(isl.Set(q.restrict))
    return str(new.coalesce())


def split(v: Variant, stmt: int, loop, at_isl: dict[int, str]) -> Variant:
    """`at_isl[piece index]` is the split point as isl text over that piece's iterators."""
    name = resolve_name(v, stmt, loop)
    group = sharing(v, stmt, name)
    pieces = list(v.pieces)
    extra = []
    for k, pos in group:
        q = pieces[k]
        val = _value(q.dims[pos])
        at = at_isl[k]
        lo = replace(q, restrict=_restricted(v, q, f"{val} < {at}"))
        hi = replace(q, restrict=_restricted(v, q, f"{val} >= {at}"))
        # the piece the loop reaches second runs second: the high one, or for a loop that
        # runs downwards the low one
        first, second = (hi, lo) if q.dims[pos].reversed else (lo, hi)
        pieces[k] = first
        extra.append(replace(second, dims=q.dims[:pos - 1] + (Fraction(q.dims[pos - 1]) + Fraction(1, 2),)
                             + q.dims[pos:]))
    return v.evolve(pieces=normalize(pieces + extra))


def loops_outside(v: Variant, piece_index: int, pos: int) -> list[str]:
    """Names of the piece's loops outside schedule position `pos`, outermost first."""
    return [d.name for d in v.pieces[piece_index].dims[:pos] if isinstance(d, LoopDim) and not d.hidden]


def loop_expr_map(v: Variant, piece_index: int) -> dict[str, str]:
    """Loop name -> its value (isl text over the statement's iterators) for one piece."""
    q = v.pieces[piece_index]
    return {d.name: _value(d) for d in q.loops if not d.hidden}


def _union(maps: list, space) -> isl.Map:
    out = isl.Map.empty(space)
    for x in maps:
        out = out.union(x)
    return out


def peel(v: Variant, stmt: int, loop, first: int = 0, last: int = 0) -> Variant:
    name = resolve_name(v, stmt, loop)
    for what, n in (("first", first), ("last", last)):
        if not isinstance(n, int) or n < 0:
            raise RecipeError(f"peel: '{what}' must be an integer >= 0, got {n!r}")
    if first == 0 and last == 0:
        return v
    group = sharing(v, stmt, name)
    pos = group[0][1]
    r = _ranges(v, group, pos)
    m = isl.Map.from_range(r).move_dims(isl.dim_type.in_, 0, isl.dim_type.out, 0, pos)
    trip = max_trip(v, group, pos)
    try:
        # isl's lexmin over a loop of many pieces (a peel after a jam, a tile, a shift and
        # another peel) ran for minutes, beyond Ctrl-C: bounded, and refused past the bound
        with isl_budget(PEEL_OPERATIONS):
            # "first" iterations run first: in schedule order, which is the lowest schedule value
            heads = each(m, first, True, trip, "first")
            head = _union(heads, m.get_space())
            # an iteration is peeled once
            tails = [t.subtract(head) for t in each(m, last, False, trip, "last")]
    except isl.Error as e:
        if "operations" not in str(e):
            raise
        raise RecipeError(f"peeling loop '{to_user(name)}' outgrew isl's operation budget: the loop has "
                          f"{m.n_basic_map()} pieces by now",
                          hint="peel before the steps that cut the loop into pieces (unroll_jam, tile, split, "
                               "other peels), or fix the sizes with --define") from None
    pieces = list(v.pieces)
    extra = []
    width = v.width
    for k, pos in group:
        q = pieces[k]
        qm = v.piece_map(q, width)
        proj = qm.project_out(isl.dim_type.out, pos + 1, width - pos - 1)
        mid = qm.domain()
        base = Fraction(q.dims[pos - 1])
        # the peeled iterations in their order, around the loop's place among its siblings
        for side, peeled in ((-1, heads), (1, tails)):
            for j, it in enumerate(peeled):
                inst = proj.intersect_range(it.wrap().flatten()).domain()
                if inst.is_empty():
                    continue
                mid = mid.subtract(inst)
                order = base + side * Fraction(1, 3) + Fraction(j + 1, 3 * (len(peeled) + 2))
                extra.append(replace(q, dims=q.dims[:pos - 1] + (order,) + q.dims[pos:],
                                     restrict=str(inst.coalesce())))
        pieces[k] = replace(q, restrict=str(mid.coalesce()))
    return v.evolve(pieces=normalize(pieces + extra))


def skew(v: Variant, stmt: int, loop, by: dict, scheduled: bool = False) -> Variant:
    """`scheduled`: CHiLL's skew, of the loops' schedule values, where a reversed loop counts
    its index negated (reverse is scale by -1 there); else of the loops' own counters."""
    name = resolve_name(v, stmt, loop)
    group = sharing(v, stmt, name)
    pieces = list(v.pieces)
    of = (lambda d: d.expr) if scheduled else _value
    for k, pos in group:
        q = pieces[k]
        d = q.dims[pos]
        value = of(d)
        for other, coef in by.items():
            other = resolve_name(v, stmt, other)
            opos = q.position_of(other)
            if opos is None or opos >= pos:
                raise RecipeError(f"skew: loop '{other}' does not enclose loop '{name}'",
                                  hint="skew by enclosing loops only")
            if not isinstance(coef, int):
                raise RecipeError(f"skew factor for '{other}' must be an integer, got {coef!r}")
            value = f"({value}) + {coef}*({of(q.dims[opos])})"
        dims = list(q.dims)
        dims[pos] = replace(d, expr=value if scheduled else _expr_of_value(d, value))
        pieces[k] = replace(q, dims=tuple(dims))
    return v.evolve(pieces=tuple(pieces))


def shift(v: Variant, stmt: int, loop, by: int, scheduled: bool = False) -> Variant:
    """`scheduled`: CHiLL's shift, of the loop's schedule value (a reversed loop's counter moves
    by -by); else of the loop's counter."""
    if not isinstance(by, int):
        raise RecipeError(f"shift amount must be an integer, got {by!r}")
    name = resolve_name(v, stmt, loop)
    if scheduled:
        return remap_loop(v, stmt, name, lambda d: replace(d, expr=f"({d.expr}) + {by}"))
    return _shifted(v, stmt, name, str(by))


def _shifted(v: Variant, stmt: int, name: str, amount: str) -> Variant:
    """Loop `name` shifted by `amount` (isl text: a number, or an affine form of the sizes)."""
    return remap_loop(v, stmt, name, lambda d: replace(d, expr=_expr_of_value(d, f"({_value(d)}) + {amount}")))


def remap_loop(v: Variant, stmt: int, name: str, new_dim) -> Variant:
    """Loop `name` of `stmt` becomes new_dim(itself) in every piece that shares it."""
    pieces = list(v.pieces)
    for k, pos in sharing(v, stmt, name):
        q = pieces[k]
        dims = list(q.dims)
        dims[pos] = new_dim(q.dims[pos])
        pieces[k] = replace(q, dims=tuple(dims))
    return v.evolve(pieces=tuple(pieces))


def reverse(v: Variant, stmt: int, loop) -> Variant:
    name = resolve_name(v, stmt, loop)
    done = next((v.pieces[k].dims[p].asked or v.pieces[k].dims[p].factor for k, p in sharing(v, stmt, name)
                 if v.pieces[k].dims[p].factor), 0)
    if done:
        # the strips of an unroll keep their copies in the loop's first order, and its control
        # loop's code does not count down over them (probe 217 G1: the output ran forwards)
        raise RecipeError(f"loop '{to_user(name)}' is already unrolled by {done}, and an unrolled loop is "
                          "not reversed", hint="reverse it before the unroll")
    return remap_loop(v, stmt, name,
                      lambda d: replace(d, expr=f"-({d.expr})", reversed=not d.reversed))


def distribute(v: Variant, stmts: list[int], loop, groups: list[list[int]] | None = None) -> Variant:
    """`groups`: the statements of a group keep one copy of the loop between them (and the loops
    inside it they share), as CHiLL keeps a dependence cycle together: COSMO's vertical advection
    splits `i` between its forward and its backward k-sweep."""
    stmts = sorted(set(stmts))
    name = resolve_name(v, stmts[0], loop)
    group = sharing(v, stmts[0], name)
    inside = {v.pieces[k].stmt for k, _ in group}
    for s in stmts:
        if s not in inside:
            raise RecipeError(f"statement {s} is not inside loop '{name}' of statement {stmts[0]}",
                              hint="list statements that share the loop")
    inner = lambda k: (tuple(d for d in v.pieces[k].dims[group[0][1] + 1::2]), v.pieces[k].stmt)
    ordered = sorted(group, key=lambda kp: inner(kp[0]))
    copies = _group_copies(v, ordered, groups) if groups else _textual_copies(v, ordered, stmts)
    pieces = list(v.pieces)
    n = len(copies)
    for rank, members in enumerate(copies):
        for k, pos in members:
            q = pieces[k]
            base = Fraction(q.dims[pos - 1])
            pieces[k] = replace(q, dims=q.dims[:pos - 1] + (base + Fraction(rank, n + 1),) + q.dims[pos:])
    return v.evolve(pieces=normalize(pieces))


def _textual_copies(v: Variant, ordered, stmts: list[int]) -> list[list]:
    # CHiLL's list form: copies follow the textual order inside L, each listed statement gets its
    # own, unlisted ones share one while contiguous.  Regrouping {S1, S3} | {S2} would move S3
    # before S2, which the legality check rightly refuses (atax).
    runs: list[tuple[object, list]] = []
    for k, pos in ordered:
        key = v.pieces[k].stmt if v.pieces[k].stmt in stmts else "rest"
        if runs and runs[-1][0] == key:
            runs[-1][1].append((k, pos))
        else:
            runs.append((key, [(k, pos)]))
    return [members for _, members in runs]


def _group_copies(v: Variant, ordered, groups: list[list[int]]) -> list[list]:
    # Groups run in the order listed, even where one is not contiguous (Kastner's FIR fission:
    # the shift {S2, S3}, then the MAC {S1, S4}): that order is the legality check's to judge.
    # Statements in no group share a copy while contiguous, right after the copy of the statement
    # before them, where the list form puts them too.
    group_of = {s: g for g, members in enumerate(groups) for s in members}
    copies: dict[tuple, list] = {}         # an unlisted run's key (g, n) sorts right after group g's
    prev, key = (-1,), None
    for k, pos in ordered:
        g = group_of.get(v.pieces[k].stmt)
        if g is not None:
            prev = key = (g,)
        elif key is None or len(key) == 1:
            key = prev + (len(copies),)
        copies.setdefault(key, []).append((k, pos))
    return [copies[key] for key in sorted(copies)]
