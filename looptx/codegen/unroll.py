"""Unrolling on KernelAST: every loop whose schedule dimension is marked `unroll` is replaced
by copies of its body with the loop variable substituted; a copy that may fall outside the
loop's bounds keeps a guard (remainder iterations of partial tiles)."""
from __future__ import annotations

from looptx import ir
from looptx.codegen import ast as K
from looptx.errors import RecipeError
from looptx.poly.variant import LoopDim, Variant

MAX_COPIES = 4096


def _marked(variant: Variant, node: K.For) -> LoopDim | None:
    leaf = next(K.leaves(node.body), None)
    if leaf is None or node.dim < 0:
        return None
    for _, p in variant.pieces_of(leaf.stmt):
        if node.dim < len(p.dims):
            d = p.dims[node.dim]
            if isinstance(d, LoopDim) and d.unroll:
                return d
    return None


def _upper(node: K.For) -> ir.Expr | None:
    c = node.cond
    if isinstance(c, ir.Bin) and isinstance(c.a, ir.Var) and c.a.name == node.var:
        if c.op == "<=":
            return c.b
        if c.op == "<":
            return ir.Bin("-", c.b, ir.Num("1"))
    return None


def _const(e: ir.Expr) -> int | None:
    e = K.simplify(e)
    if isinstance(e, ir.Num):
        try:
            return int(e.text)
        except ValueError:
            return None
    return None


def _drop_guard(guard: ir.Expr) -> bool:
    """True when `a <= b` is always true because b - a simplifies to a non-negative constant,
    or when b is lx_min(...) and every argument satisfies that."""
    a, b = guard.a, guard.b
    if isinstance(b, ir.Call) and b.fn == "lx_min":
        return all(_drop_guard(ir.Bin("<=", a, arg)) for arg in b.args)
    diff = _const(ir.Bin("-", b, a))
    return diff is not None and diff >= 0


def unroll_for(node: K.For, trip: int) -> K.Node:
    ub = _upper(node)
    if ub is None or node.step <= 0:
        raise RecipeError("internal: cannot unroll a loop of unexpected shape",
                          hint="please report this recipe")
    copies = []
    for k in range(trip):
        value = K.simplify(ir.Bin("+", node.init, ir.Num(str(k * node.step))))
        body = K.map_exprs(node.body, lambda e, value=value: K.simplify_any(K.subst(e, {node.var: value})))
        guard = ir.Bin("<=", value, ub)
        if _drop_guard(guard):
            copies.append(body)
        elif k == 0 and _const(ir.Bin("-", ub, node.init)) is not None and _const(ir.Bin("-", ub, node.init)) < 0:
            continue
        else:
            copies.append(K.If(K.simplify_cond(guard), body))
        if len(copies) > MAX_COPIES:
            raise RecipeError("unrolling would create too many copies", hint="use smaller unroll factors")
    if not copies:
        return K.Block(())
    return copies[0] if len(copies) == 1 else K.Block(tuple(_flatten(copies)))


def _flatten(items):
    for n in items:
        if isinstance(n, K.Block):
            yield from n.items
        else:
            yield n


def unroll_marked(node: K.Node, variant: Variant) -> K.Node:
    if isinstance(node, K.For):
        body = unroll_marked(node.body, variant)
        node = K.For(node.var, node.init, node.cond, node.step, body, node.dim)
        d = _marked(variant, node)
        span = _const(ir.Bin("-", _upper(node), node.init)) if _upper(node) is not None else None
        if d is not None and d.trip > 0:
            trip = d.trip if span is None else min(d.trip, span // node.step + 1)
            return unroll_for(node, max(trip, 0))
        stmts = list(K.statements(node.body))
        if span is not None and stmts and all(isinstance(s, K.Assign) and s.unroll for s in stmts):
            return unroll_for(node, span // node.step + 1)       # register copies
        return node
    if isinstance(node, K.If):
        return K.If(node.cond, unroll_marked(node.then, variant),
                    unroll_marked(node.orelse, variant) if node.orelse is not None else None)
    if isinstance(node, K.Block):
        return K.Block(tuple(_flatten(unroll_marked(c, variant) for c in node.items)))
    if isinstance(node, K.Mark):
        return K.Mark(node.name, unroll_marked(node.body, variant), node.info)
    return node
