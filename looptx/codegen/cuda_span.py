"""Which elements the host code of a .cu copies of a pointer without a count: from element 0
to the highest the region reaches, except where element 0 may not be the caller's.  That is
so where the function moved the pointer before the region (f2c's parameter adjustments,
`--a;`, `c__ -= c_offset;`, make a[1] the caller's first element), and where the region
reads below element 0 at some sizes (not at the values the file gives them, or the count is
refused): those arrays are copied from the lowest element the region reaches, and the
kernels get the device buffer less that offset, so they index it as the region does."""
from __future__ import annotations

import re

from looptx import ir
from looptx.frontend.names import to_user


def copied_from_lowest(scop, a, top) -> bool:
    return top.lowest is not None and (top.below_first or to_user(a.name) in moved_pointers(scop))


def moved_pointers(scop) -> frozenset[str]:
    """The function's parameters (as the file names them) that a statement between its head
    and the region moves (`--a;`, `a++;`, `a -= off;`, `a = a - 1;`)."""
    return scop.cached(("moved_pointers",), lambda: _moved(scop))


def _moved(scop) -> frozenset[str]:
    from looptx.frontend.regions import SourceText, blank, scan_comments
    start = scop.region_span[0]
    if not (scop.function and start and scop.function_params):
        return frozenset()
    try:
        with open(scop.filename, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return frozenset()
    code = blank(text, [(c.start, c.end) for c in scan_comments(text)])
    end = SourceText(text, scop.filename).offset(start, 1) if start <= text.count("\n") + 1 else len(code)
    heads = [m.end() for m in re.finditer(rf"(?<![\w.]){re.escape(scop.function)}\s*\(", code[:end])]
    if not heads:
        return frozenset()
    body = code[heads[-1]:end]
    out = set()
    for p in scop.function_params:
        n = re.escape(p)
        if re.search(rf"(--|\+\+)\s*{n}\s*;|(?<![\w.>]){n}\s*(--|\+\+|[-+]=)|(?<![\w.>]){n}\s*=\s*{n}\s*[-+]", body):
            out.add(p)
    return frozenset(out)


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
