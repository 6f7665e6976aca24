"""Where a `registers` promotion loads its elements: per thread, at the loop the recipe names
or, where a thread's elements change with the loops between it and the thread loops, at the
thread loop (promote.py plans the copies)."""
from __future__ import annotations

from dataclasses import replace

import islpy as isl

from looptx.errors import RecipeError, note_once
from looptx.frontend.names import to_user
from looptx.poly import schedule as S
from looptx.poly.deps import upper_constant
from looptx.poly.variant import Variant


def thread_positions(v: Variant, group, pos: int) -> list[int]:
    """Positions of the GPU thread loops at or inside loop `pos` of the scope: registers are
    per thread, also when `pos` is a thread loop itself (CUDA-CHiLL's copy_to_registers("tx", ...))."""
    from looptx.poly.gpu import mappings
    k0 = group[0][0]
    inside = {k for k, _ in group}
    for m in mappings(v):
        names = S.loop_names(v, m.stmt)
        outer = min(names.index(x) for x in m.block + m.thread)
        members = {k for k, _ in S.sharing(v, m.stmt, names[outer])}
        if inside <= members:
            tpos = [v.pieces[k0].position_of(t) for t in m.thread]
            return sorted(p for p in tpos if p is not None and p >= pos)
    return []


def _width_given(R: isl.Set, width: int, given: list[int], d: int, prefix: str) -> int | None:
    """The most values schedule dimension d takes at fixed values of the `given` dimensions."""
    from looptx.poly.gpu import _proj
    m = isl.Map.from_range(_proj(width, given + [d], prefix).intersect_domain(R).range()) \
        .move_dims(isl.dim_type.in_, 0, isl.dim_type.out, 0, len(given))
    return upper_constant(m.reverse().apply_range(m).deltas())


def per_thread_scope(v: Variant, pr):
    """registers at a loop with a thread loop inside whose values follow that loop or one
    between them (CUDA-CHiLL's mpeg4: copy_to_registers("jjj", ...) with thread loop j from
    16*jjj): which elements a thread keeps changes with it, so each thread loads its own at
    that thread loop, once per iteration of the loops the thread follows (the same elements,
    loaded and stored once each)."""
    if pr.kind != "registers":
        return pr
    try:
        name = S.resolve_name(v, pr.stmt, pr.at, hidden=True)
        group = S.sharing(v, pr.stmt, name, hidden=True)
    except RecipeError:
        return pr                 # reported where the plan locates it
    pos = group[0][1]
    threads = thread_positions(v, group, pos)
    R = None
    for k, _ in group:
        r = v.piece_map(v.pieces[k], v.width).range()
        R = r if R is None else R.union(r)
    for tp in (t for t in threads if t > pos):
        outer = sorted(set(range(1, pos, 2)) | {t for t in threads if t < tp})
        if _width_given(R, v.width, outer, tp, v.scop.prefix) != \
                _width_given(R, v.width, list(range(1, tp, 2)), tp, v.scop.prefix):
            dims = v.pieces[group[0][0]].dims
            inner = dims[tp].name
            # a sequential loop between: the registers are loaded and stored again in each of its iterations
            seq = [dims[p].name for p in range(pos + 2, tp, 2) if p not in threads]
            note_once(pr.file or v.scop.filename, pr.line or v.scop.region_span[0],
                      f"registers of '{to_user(pr.array or '')}' at '{to_user(name)}' are loaded at thread loop "
                      f"'{to_user(inner)}': its threads' elements change with the loops around it"
                      + (f"; inside loop '{to_user(seq[0])}', each of whose iterations loads and stores them again "
                         f"(put the registers at a loop inside the thread loops, or '{to_user(seq[0])}' there)"
                         if seq else ""), kind="warning" if seq else "note")
            return replace(pr, at=inner)
    return pr
