"""Unsigned sizes read as signed in what looptx prints: the model's integers are
mathematical, and `i < n - 1` with a size_t n and an int i is an unsigned comparison in C, where
n - 1 wraps at n = 0."""
from __future__ import annotations

from looptx import ir


def signed_params(e: ir.Expr, scop) -> ir.Expr:
    """A bound or condition with the region's unsigned params read as signed: `i < n - 1`
    with size_t n and int i is an unsigned comparison, and n - 1 wraps at n = 0."""
    if not scop.unsigned_params:
        return e
    unsigned = set(scop.unsigned_params)

    def signed(x: ir.Expr) -> ir.Expr:
        if isinstance(x, ir.Var) and x.name in unsigned:
            return ir.Cast("long", x)
        if isinstance(x, ir.Cast) and x.ctype == "long" and isinstance(x.a, ir.Cast) and x.a.ctype == "long":
            return x.a                    # (read once already)
        return x
    return ir.map_up(e, signed)


def signed_ref(r: ir.Ref, scop) -> ir.Ref:
    """A reference whose subscripts isl wrote (an unrolled copy's `lx_floord(4 * j - n + 3, 12)`)
    with the unsigned params read as signed, as its guard reads them (probe 159 G1)."""
    if not scop.unsigned_params or not r.index:
        return r
    return ir.Ref(r.array, r.ref, tuple(signed_params(i, scop) for i in r.index))
