"""Single-valued isl maps as piecewise functions.

isl's `isl_pw_multi_aff_from_map` (isl 0.26, islpy 2026.2) can drop pieces of a map whose
disjuncts carry their own integer divisions: the register copy of a strip that starts before
its tile (`C_r[..][j - max(100*floor(j/100), 6*floor(j/6))]`) came back defined only where the
strip starts inside the tile, and the AST build then printed the other piece's expression
(`c13 - c7`) for every instance, a wrong result.  lexmin of a single-valued map is the same
function over all of its domain."""
from __future__ import annotations

import islpy as isl


def pw_function(m: isl.Map) -> isl.PwMultiAff:
    """`m` (single-valued) as a piecewise multi-affine function defined on all of its domain."""
    pma = isl.PwMultiAff.from_map(m)
    if m.domain().is_subset(pma.domain()):
        return pma
    return m.lexmin_pw_multi_aff()
