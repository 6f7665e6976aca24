"""Single-valued isl maps as piecewise functions.

isl's `isl_pw_multi_aff_from_map` (isl 0.26, islpy 2026.2) can drop pieces of a map whose
disjuncts carry their own integer divisions: the register copy of a strip that starts before
its tile (`C_r[..][j - max(100*floor(j/100), 6*floor(j/6))]`) came back defined only where the
strip starts inside the tile, and the AST build then printed the other piece's expression
(`c13 - c7`) for every instance, a wrong result.  One disjunct's conversion keeps its whole
domain; the union of the disjuncts' functions, either value where they overlap (the same
there), is the map's."""
from __future__ import annotations

import islpy as isl


def pw_function(m: isl.Map) -> isl.PwMultiAff:
    """`m` (single-valued) as a piecewise multi-affine function defined on all of its domain:
    each disjunct's function, joined where they overlap (the same value there).  (Checking
    from_map's domain instead took 2.8 s on one register copy of a banded kernel.)"""
    basics = m.get_basic_maps()
    if len(basics) <= 1:
        return isl.PwMultiAff.from_map(m)
    out = None
    for b in basics:
        f = isl.PwMultiAff.from_map(isl.Map.from_basic_map(b))
        out = f if out is None else out.union_lexmin(f)
    return out
