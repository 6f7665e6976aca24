"""Fusion of statements' loop nests (CHiLL's fuse) on a Variant's 2d+1 schedule.

The loop to fuse is given for each statement: by one name they all use (looptx's
`fuse {stmts, loop: i}`), by level (CHiLL's `fuse(stmts, level)`, `level: 1`) or by a name per
statement (`loops: [i, j]`).  Legality is checked by the caller (the exact dependence check).
"""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from looptx.errors import RecipeError
from looptx.frontend.names import to_model, to_user
from looptx.poly.schedule import locate, normalize, resolve_name, sharing
from looptx.poly.variant import LoopDim, Piece, Renamed, Variant


def fuse(v: Variant, stmts: list[int], loop=None, *, level: int | None = None,
         loops: list | None = None) -> Variant:
    """Fuse the listed statements' nests at every depth down to and including the given loop,
    which must be at the same depth in each; iterations are aligned by value, bounds may
    differ, and the statements keep their textual order inside.  `loop` is a name every
    statement has (an integer `loop` is a level, as CHiLL's fuse([0,1],1) gives it); `level`
    counts each statement's loops from 1 = outermost; `loops` names each statement's loop, in
    the order of `stmts`.

    Names, as a CHiLL user sees them (CHiLL fuses by level, whatever the loops are called): a
    fused loop is one loop, and it takes the name that the first (lowest-numbered) listed
    statement gives it.  A loop of another statement that was fused under another name no
    longer exists under that name: a later step that names it is told which loop it became.
    An inner loop of another statement whose name a fused loop takes (gemver's second nest, j
    outside i, fused at level 1 with an i loop) gets a fresh name (`i1`), since names are
    unique along a nest.  Every rename is recorded (Variant.extra, `Renamed`) for the step's
    note and for those messages.  Statements addressed by level are not affected."""
    targets = _targets(stmts, loop, level, loops)
    by_name = loops is None and level is None and not isinstance(loop, int)
    s0, spec0 = targets[0]
    if by_name:
        spec0 = resolve_name(v, s0, spec0)
    first = dict(locate(v, s0, spec0))
    k0 = next(iter(first))
    pos0 = first[k0]
    lead = v.pieces[k0]
    name = lead.dims[pos0].name
    taken = _taken(v)
    pieces = list(v.pieces)
    moved: set[int] = set()
    origin: dict[int, int] = {}
    records: list[Renamed] = []
    for s, spec in targets[1:]:
        where = locate(v, s, spec0 if by_name else spec)
        for k, pos in where:
            if pos == pos0:
                continue
            if by_name:
                raise RecipeError(f"cannot fuse: loop '{name}' is at depth {pos0 // 2 + 1} for statement "
                                  f"{s0} but at depth {pos // 2 + 1} for statement {s}",
                                  hint="fuse loops at the same depth; loops with different names fuse "
                                       "by level (level: N) or by one name per statement (loops: [...])")
            raise RecipeError(f"cannot fuse: loop '{name}' of statement {s0} is at depth {pos0 // 2 + 1} "
                              f"but loop '{v.pieces[k].dims[pos].name}' of statement {s} is at depth "
                              f"{pos // 2 + 1}", hint="fuse loops at the same depth")
        sx = v.pieces[where[0][0]]
        _check_same_direction(lead, sx, s0, s, pos0, by_level=not by_name and loops is None)
        key = sx.prefix(pos0)
        group = [k for k, q in enumerate(v.pieces)
                 if k not in moved and len(q.dims) > pos0 and q.prefix(pos0) == key
                 and isinstance(q.dims[pos0], LoopDim) and q.dims[pos0].name == sx.dims[pos0].name]
        rename = _renaming(v, lead, sx, group, pos0, taken)
        members = sorted({v.pieces[k].stmt for k in group} - {s0})
        _check_named_later(v, members, rename)
        fused_names = {sx.dims[j].name for j in range(1, pos0 + 1, 2)}
        records += [Renamed(m, old, new, s0 if old in fused_names else -1)
                    for m in members for old, new in rename.items()]
        for k in group:
            q = v.pieces[k]
            dims = [lead.dims[j] if isinstance(lead.dims[j], int) else _renamed(q.dims[j], rename)
                    for j in range(pos0 + 1)]
            dims += [_renamed(d, rename) if isinstance(d, LoopDim) else d for d in q.dims[pos0 + 1:]]
            origin[k] = s
            pieces[k] = replace(q, dims=tuple(dims))
            moved.add(k)
    _check_no_split(v, pieces, moved, origin, name, pos0)
    # inside the fused loop, children keep textual order
    fused_key = pieces[k0].prefix(pos0 + 1)
    inside = [k for k, q in enumerate(pieces) if len(q.dims) > pos0 + 1 and q.prefix(pos0 + 1) == fused_key]
    child: dict[tuple, list[int]] = {}
    for k in inside:
        child.setdefault((origin.get(k, -1), pieces[k].dims[pos0 + 1]), []).append(k)
    # (by the source's positions: a condition taken before its branch is numbered after the
    # region's own statements, frontend/extract.py)
    ranked = sorted(child, key=lambda c: min(_text_position(v, pieces[k].stmt) for k in child[c]))
    for rank, c in enumerate(ranked):
        for k in child[c]:
            q = pieces[k]
            pieces[k] = replace(q, dims=q.dims[:pos0 + 1] + (rank,) + q.dims[pos0 + 2:])
    return v.evolve(pieces=normalize(pieces), extra=v.extra + tuple(records))


def _text_position(v: Variant, stmt: int) -> tuple[int, ...]:
    """Where the statement is in the source: its positions in the loops around it."""
    return tuple(x for x in v.scop.statements[stmt].schedule if isinstance(x, int))


def _targets(stmts: list[int], loop, level, loops) -> list[tuple[int, object]]:
    """(statement, its loop: a name or a level), by statement number: the lowest one leads."""
    if loops is not None:
        if len(loops) != len(stmts):
            raise RecipeError(f"fuse: 'loops' names {len(loops)} loop(s) for {len(stmts)} statement(s)",
                              hint="name one loop per listed statement, in the order of stmts")
        pairs: dict[int, object] = {}
        for s, name in zip(stmts, loops):
            if pairs.get(s, name) != name:
                raise RecipeError(f"fuse: statement {s} is listed twice, with loops '{pairs[s]}' and '{name}'",
                                  hint="list each statement once")
            pairs[s] = name
        out = sorted(pairs.items())
    else:
        spec = level if level is not None else loop
        out = [(s, spec) for s in sorted(set(stmts))]
    if len(out) < 2:
        raise RecipeError("fuse needs at least two statements", hint="list the statements to fuse")
    return out


def _base(name: str) -> str:
    """An unrolled loop's hidden point loop is its control loop's name with a prime."""
    return name.rstrip("'")


def _taken(v: Variant) -> set[str]:
    """Names a fresh loop name must avoid: the generated code declares loops next to the
    region's arrays and sizes, and the user reads them next to the source's iterators."""
    out = set(v.scop.params) | {a.name for a in v.scop.arrays}
    for s in v.scop.statements:
        out |= set(s.iterators)
    for p in v.pieces:
        out |= {_base(d.name) for d in p.loops}
    return out


def _fresh(name: str, taken: set[str]) -> str:
    # made from the user's spelling (`max` -> `max1`, not `lx_kw_max1`), so later steps can name it
    k = 1
    while to_model(f"{to_user(name)}{k}") in taken:
        k += 1
    out = to_model(f"{to_user(name)}{k}")
    taken.add(out)
    return out


def _renaming(v: Variant, lead: Piece, sx: Piece, group: list[int], pos0: int,
              taken: set[str]) -> dict[str, str]:
    """Old name -> new name for the moved nest: its fused loops take the lead's names, and an
    inner loop whose name one of them takes gets a fresh name."""
    fused = [j for j in range(1, pos0 + 1, 2)]
    rename = {sx.dims[j].name: lead.dims[j].name for j in fused if sx.dims[j].name != lead.dims[j].name}
    if not rename:
        return rename
    new_names = {lead.dims[j].name for j in fused}
    inner = {_base(d.name) for k in group for d in v.pieces[k].dims[pos0 + 1:] if isinstance(d, LoopDim)}
    for x in sorted(inner & new_names):
        rename[x] = _fresh(x, taken)
    return rename


def _renamed(d: LoopDim, rename: dict[str, str]) -> LoopDim:
    base = _base(d.name)
    counted = d.counted
    if counted and counted[0] in rename:
        counted = (rename[counted[0]],) + tuple(counted[1:])
    if base not in rename and counted == d.counted:
        return d
    return replace(d, name=rename.get(base, base) + d.name[len(base):], counted=counted)


def _check_same_direction(lead: Piece, sx: Piece, s0: int, s: int, pos0: int, by_level: bool) -> None:
    """Iterations are aligned by value, and a downward loop's schedule value is -j: fused with
    an upward loop, its iterations would all sort before the other's, which runs the later nest
    first instead of fusing (a forward and a backward sweep, adi, Thomas)."""
    for j in range(1, pos0 + 1, 2):
        a, b = lead.dims[j], sx.dims[j]
        if a.reversed == b.reversed:
            continue
        way = lambda d: "downwards" if d.reversed else "upwards"
        loop = j // 2 + 1 if by_level else to_user(b.name)
        loop0 = j // 2 + 1 if by_level else to_user(a.name)
        # (either way aligns them: a recipe that reversed one means the other, a source's
        # backward sweep the one itself)
        raise RecipeError(f"cannot fuse: loop '{to_user(a.name)}' of statement {s0} runs {way(a)} but loop "
                          f"'{to_user(b.name)}' of statement {s} runs {way(b)}",
                          hint=f"reverse one of them first (reverse {{stmt: {s}, loop: {loop}}} or "
                               f"reverse {{stmt: {s0}, loop: {loop0}}})")


def _check_named_later(v: Variant, members: list[int], rename: dict[str, str]) -> None:
    """A GPU mapping or a promotion (registers, datacopy, shared) of an earlier step names its
    loops, and is resolved by name when the code is generated: after a rename it would find
    another loop, or none."""
    for x in v.extra:
        if isinstance(x, Renamed) or getattr(x, "stmt", None) not in members:
            continue
        named = [getattr(x, "at", None), *getattr(x, "block", ()), *getattr(x, "thread", ())]
        hit = next((n for n in named if n in rename), None)
        if hit is not None:
            raise RecipeError(f"fusing statement {x.stmt} renames its loop '{hit}' to '{rename[hit]}', "
                              f"which step {x.step} ({x.step_name}) names",
                              hint="fuse before that step")


def _check_no_split(v: Variant, pieces: list[Piece], moved: set[int], origin: dict[int, int],
                    name: str, pos0: int) -> None:
    """Fusion moves the listed nests under the first one's outer loops.  An outer loop is split
    only if some of the pieces it encloses move to another loop while others stay: a loop that
    the fused statements already share (a time loop around both) maps to itself and is fine."""
    for j in range(1, pos0, 2):
        after: dict[tuple, dict[tuple, list[int]]] = {}
        for k, q in enumerate(v.pieces):
            if len(q.dims) > j and isinstance(q.dims[j], LoopDim):
                after.setdefault(q.prefix(j + 1), {}).setdefault(pieces[k].prefix(j + 1), []).append(k)
        for old, targets in after.items():
            if len(targets) < 2:
                continue
            groups = list(targets.values())
            went = next(g for g in groups if any(k in moved for k in g))
            mover = next(k for k in went if k in moved)
            stay = next(g for g in groups if g is not went)[0]
            raise RecipeError(f"fusing statement {origin.get(mover, v.pieces[mover].stmt)} at '{name}' "
                              f"would split loop '{old[-1]}', which it shares with statement "
                              f"{v.pieces[stay].stmt}", hint="distribute first, or fuse that statement too")


def hoist_between(before: Variant, fused: Variant, stmts: list[int], loop) -> tuple[Variant, list[int]] | None:
    """`fused` with the statements that sat between the fused loops, outside them (Nekbone's
    `rtr = 0.0;` between the update loop and the dot product), moved to just before the fused
    loop, in their order: after it, the later loop's statements would run before them; and
    those statements.  None when there are none."""
    if len(before.pieces) != len(fused.pieces):
        return None
    try:
        name = resolve_name(fused, stmts[0], loop)
        group = sharing(fused, stmts[0], name)
    except RecipeError:
        return None
    k0, pos = group[0]
    prefix = fused.pieces[k0].dims[:pos - 1]
    at = Fraction(fused.pieces[k0].dims[pos - 1])
    inside = {k for k, _ in group}
    olds = [before.pieces[k].dims[pos - 1] for k in inside
            if len(before.pieces[k].dims) > pos and before.pieces[k].dims[:pos - 1] == prefix]
    if not olds:
        return None
    lo, hi = min(olds), max(olds)
    between = sorted((q.dims[pos - 1], k) for k, q in enumerate(before.pieces)
                     if k not in inside and len(q.dims) >= pos and q.dims[:pos - 1] == prefix
                     and lo < q.dims[pos - 1] < hi)
    if not between:
        return None
    pieces = list(fused.pieces)
    # (one position per nest between: statements that shared a loop there still do, probe 218 G1)
    places = sorted({old for old, _ in between})
    for old, k in between:
        q = pieces[k]
        rank = places.index(old)
        pieces[k] = replace(q, dims=q.dims[:pos - 1] + (at - 1 + Fraction(rank + 1, len(places) + 1),)
                            + q.dims[pos:])
    return fused.evolve(pieces=normalize(pieces)), sorted({before.pieces[k].stmt for _, k in between})
