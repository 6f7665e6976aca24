"""How far a region reaches into an array whose extent C does not give (`double *a`,
`double a[][M]`), at given sizes: what a harness must allocate to run it."""
from __future__ import annotations

import islpy as isl

from looptx.poly.scop import Scop


def reach(scop: Scop, array: str, values: dict[str, int]) -> tuple[tuple[int, int], ...] | None:
    """(lowest, highest) index of each declared dimension of `array` over every access of the
    region at the sizes `values` (every parameter must have one); None when the region does not
    access it or an index is unbounded.  A linearized array's dimension is its flat index."""
    arr = scop.array(array)
    fix = [f"{p} = {values[p]}" for p in scop.params if p in values]
    if len(fix) < len(scop.params):
        return None
    sizes = isl.Set(f"{scop.prefix}{{ : {' and '.join(fix) or '1 = 1'} }}")
    reached = None
    for s in scop.statements:
        for a in s.accesses:
            if a.array != array:
                continue
            if arr.strides:
                # the flat index of a delinearized access: rows times their lengths
                flat = a.index[0]
                for extent, idx in zip(arr.strides, a.index[1:]):
                    flat = f"{values[extent] if extent in values else extent} * ({flat}) + ({idx})"
                index = [flat]
            else:
                index = list(a.index) if arr.rank else []
            if not index:
                continue
            m = isl.Map(f"{scop.prefix}{{ {s.tuple_text()} -> {array}[{', '.join(index)}] }}")
            r = m.intersect_domain(scop.domain(s)).intersect_params(sizes).range()
            reached = r if reached is None else reached.union(r)
    if reached is None or reached.is_empty():
        return None
    out = []
    for d in range(reached.dim(isl.dim_type.set)):
        lo, hi = reached.dim_min_val(d), reached.dim_max_val(d)
        if not (lo.is_int() and hi.is_int()):
            return None
        out.append((lo.to_python(), hi.to_python()))
    return tuple(out)
