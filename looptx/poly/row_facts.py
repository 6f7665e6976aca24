"""Facts on the row length of a linearized subscript (`a[i*lda + p]`): what keeps its in-row
index inside its row where nothing else does (BLAS's `lda >= k`, a halo's `h >= 0`)."""
from __future__ import annotations

import islpy as isl


def _row_extreme(scop, sid: int, part: str, row: str, top: bool):
    """The maximum (or minimum) of an in-row index over statement sid's domain as one affine
    piece free of the row length, with the domain's parameters; None otherwise.  An index whose
    extreme moves with the row itself (`x + 1` in rows of w, x < w) leaves its row whatever the
    row length: no fact on it can help, and an empty one would hide that."""
    s = scop.statements[sid]
    if row not in scop.params:
        return None
    dom = scop.domain(s)
    k = scop.params.index(row)
    # isl may write the extreme through the row length where the context defines it
    # (`lx_row = m + 2h`: the extreme m - 1 of `j - h` comes back as lx_row - 2h - 1); over the
    # domain without its constraints on the row length, the extreme is free of it or unbounded
    for where in (dom, dom.eliminate(isl.dim_type.param, k, 1)):
        try:
            img = where.apply(isl.Map(f"{scop.prefix}{{ {s.tuple_text()} -> [({part})] }}"))
            pieces = (img.dim_max(0) if top else img.dim_min(0)).get_pieces()
        except isl.Error:
            return None
        if any(aff.involves_dims(isl.dim_type.param, k, 1) for _, aff in pieces):
            continue
        # pieces for small sizes (`x/2 - 1 + 2*(x%2)`, x < w - 2: w = 5 apart): a fact on the
        # piece beyond every other on their sizes is enough; the general piece (no equality)
        # first, as a special one may be beyond it by growing faster, asking far longer rows
        pieces.sort(key=lambda pc: sum(c.is_equality() for c in pc[0].affine_hull().get_constraints()))
        for _, aff in pieces:
            if all((other.gt_set(aff) if top else other.lt_set(aff)).intersect(where_).is_empty()
                   for where_, other in pieces):
                return aff, dom.params()
    return None


def _fact_text(holds: isl.Set, params: isl.Set, row: int | None = None) -> str | None:
    """A set of parameter values as a conjunction of constraints, when the domain allows it;
    over the other sizes where the row length (param `row`) is one of theirs (`h >= 0` for
    `lx_row >= m + h` with lx_row = m + 2h)."""
    if holds.intersect(params).is_empty():
        return None
    if row is not None:
        free = holds.intersect(params).eliminate(isl.dim_type.param, row, 1)
        if free.intersect(params).is_subset(holds):
            holds = free.gist(params.eliminate(isl.dim_type.param, row, 1))
    text = str(holds)
    fact = text[text.index(":") + 1:text.rindex("}")].strip() if ":" in text else ""
    return fact if fact and "exists" not in fact and " or " not in fact else None


def row_cover_fact(scop, sid: int, part: str, row: str, dead: bool = False) -> str | None:
    """The fact on the parameters `row >= max(part) + 1` (statement sid's domain).  It is what
    keeps the in-row index of a linearized subscript below the row length when nothing else
    does: BLAS's `lda >= k` for `a[i*lda + p]` with `p < k`.  `dead`: also a fact under which
    the statement never runs (the caller checks that others do)."""
    found = _row_extreme(scop, sid, part, row, top=True)
    if found is None:
        return None
    top, params = found
    try:
        row_aff = isl.Aff(f"{scop.prefix}{{ [({row})] }}")
    except isl.Error:
        return None
    holds = top.add_constant_val(1).le_set(row_aff)
    return _fact_text(holds, scop.context if dead else params, scop.params.index(row))


def row_floor_fact(scop, sid: int, part: str, row: str) -> str | None:
    """The fact on the parameters `min(part) >= 0` (statement sid's domain): a halo's in-row
    index `j` from `h` in rows of `m + 2*h` is in its row for h >= 0 only."""
    found = _row_extreme(scop, sid, part, row, top=False)
    if found is None:
        return None
    low, params = found
    return _fact_text(low.ge_set(isl.Aff(f"{scop.prefix}{{ [(0)] }}")), params)
