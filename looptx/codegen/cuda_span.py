"""Which elements the host code of a .cu copies of a pointer without a count: from element 0
to the highest the region reaches, except where element 0 may not be the caller's.  That is
so where the function moved the pointer before the region (f2c's parameter adjustments,
`--a;`, `c__ -= c_offset;`, make a[1] the caller's first element), and where the region
reads below element 0 at some sizes (not at the values the file gives them, or the count is
refused): those arrays are copied from the lowest element the region reaches, and the
kernels get the device buffer less that offset, so they index it as the region does."""
from __future__ import annotations

from looptx import ir
from looptx.frontend.names import to_user


def copied_from_lowest(scop, a, top) -> bool:
    return top.lowest is not None and (top.below_first or to_user(a.name) in scop.moved_pointers)


def span_count(a, top, fixed: dict, offsets: dict) -> tuple[str, None]:
    """The count from the lowest element reached to the highest; `offsets` gets the lowest's
    offset (C text)."""
    def text(e) -> str:
        return ir.to_c(e, var=lambda name: str(fixed[name]) if name in fixed else None)

    def flat(index, cast) -> str:
        out = f"{cast}({text(index[0])})"
        for extent, idx in zip(a.strides or (), index[1:]):
            out = f"({out} * {cast}({fixed.get(extent, extent)}) + {cast}({text(idx)}))"
        return out
    rows = [] if a.strides else [f"(size_t)({d})" for d in a.dims[1:]]
    first = f"(size_t)({text(top.distance)})" if top.distance is not None else \
        f"{flat(top.index, '(size_t)')} - {flat(top.lowest, '(size_t)')}"
    count = " * ".join([f"({first} + 1)"] + rows)
    offset = " * ".join([flat(top.lowest, "(ptrdiff_t)")] + [r.replace("size_t", "ptrdiff_t") for r in rows])
    if top.reached_if is not None:
        cond = text(top.reached_if)
        count, offset = f"(({cond}) ? {count} : (size_t)0)", f"(({cond}) ? {offset} : (ptrdiff_t)0)"
    offsets[a.name] = offset
    return count, None
