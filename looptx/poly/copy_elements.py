"""Which elements a copy step (datacopy, registers, shared) loads, and in which order its
buffer keeps the array's subscripts (poly/promote.py plans the copy)."""
from __future__ import annotations

import islpy as isl

from looptx.frontend.names import to_user


def copy_layout(pr, rank: int, arr) -> list[int]:
    """The array's subscripts in the buffer's order (a shared buffer read down a column by a
    warp's threads conflicts in the banks: its layout may put the threads' subscript last)."""
    if not pr.layout:
        return list(range(rank))
    if sorted(pr.layout) != list(range(rank)):
        raise pr.error(f"layout {list(pr.layout)} is no order of the {rank} subscripts of "
                       f"'{to_user(arr.name)}'", hint=f"list each of 0 .. {rank - 1} once, outermost first "
                       f"(the array's own order is {list(range(rank))})")
    return list(pr.layout)


def exposed_reads(accesses, timed: list[isl.Map], key: list[int], width: int) -> list[isl.Map] | None:
    """Per reference, the elements each scope instance (the `key` positions) reads before the
    scope writes them (as key -> element; a write's entry is unused); None when nothing is
    written unconditionally."""
    writes = None
    for a, t in zip(accesses, timed):
        if a.kind == "write" and not a.guard:
            writes = t if writes is None else writes.union(t)
    if writes is None:
        return None
    ts, ss = [f"t{k}" for k in range(width)], [f"s{k}" for k in range(width)]
    same = isl.Map(f"{{ [{', '.join(ss)}] -> [{', '.join(ts)}] : "
                   f"{' and '.join(f'{ss[p]} = {ts[p]}' for p in key) or 'true'} }}")
    # t -> e: an earlier instance of the same scope instance writes e
    before = isl.Map.lex_lt(writes.domain().get_space()).intersect(same).reverse().apply_range(writes)
    to_key = isl.Map(f"{{ [{', '.join(ts)}] -> [{', '.join(ts[p] for p in key)}] }}")
    return [t.subtract(before).apply_domain(to_key) for t in timed]
