"""Loops that continue from where the code before them left their iterator (hand-unrolled
code's cleanup loop, CS267's `int k = 0; for (; k < K - 3; k += 4) ...; for (; k < K; ++k) ...`).

A `for` without an initialisation starts at the value its iterator has: the one the
declaration or assignment right before it gives (`int k = 0;`), or the one the loop right
before it over the same iterator ends with, `L + s * ceil((U - L) / s)` where that loop runs
(`for (k = L; k < U; k += s)`) and L where it does not.  Each such loop gets that start written
as its initialisation (in place, before the front end reads the loops), so the model is the
usual one; the declaration keeps no initialiser (it would be a statement of the region
writing the iterator)."""
from __future__ import annotations

import copy

from pycparser import c_ast

from looptx.frontend.symbols import all_nodes


def _iterator_step(node: c_ast.For, it: str | None = None) -> tuple[str, int] | None:
    """(iterator, constant positive step) of `for (; i < U; i++ / i += s / i = i + s)`; of
    `it` in a comma list (SHA-256's `for (i = 0, j = 0; i < 16; ++i, j += 4)`)."""
    if isinstance(node.next, c_ast.ExprList) and it is not None:
        steps = [_step_of(e) for e in node.next.exprs]
        return next((s for s in steps if s is not None and s[0] == it), None)
    return _step_of(node.next)


def _step_of(n) -> tuple[str, int] | None:
    if isinstance(n, c_ast.UnaryOp) and n.op in ("p++", "++") and isinstance(n.expr, c_ast.ID):
        return n.expr.name, 1
    if isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, c_ast.ID):
        it = n.lvalue.name
        r = n.rvalue
        if n.op == "+=" and isinstance(r, c_ast.Constant) and r.type == "int":
            step = int(r.value.rstrip("uUlL"), 0)
            return (it, step) if step > 0 else None
        if n.op == "=" and isinstance(r, c_ast.BinaryOp) and r.op == "+" and isinstance(r.left, c_ast.ID) \
                and r.left.name == it and isinstance(r.right, c_ast.Constant) and r.right.type == "int":
            step = int(r.right.value.rstrip("uUlL"), 0)
            return (it, step) if step > 0 else None
    return None


def _upper(node: c_ast.For, it: str) -> c_ast.Node | None:
    """U of `i < U` (U + 1 of `i <= U`), where U does not read i; U - c of `i + c < U` (the
    SIMD-width idiom `for (i = 0; i + 4 <= n; i += 4)`)."""
    c = node.cond
    if not (isinstance(c, c_ast.BinaryOp) and c.op in ("<", "<=")) or _reads(c.right, it):
        return None
    left, less = c.left, None
    if isinstance(left, c_ast.BinaryOp) and left.op == "+":
        for x, k in ((left.left, left.right), (left.right, left.left)):
            if isinstance(x, c_ast.ID) and x.name == it and isinstance(k, c_ast.Constant) and k.type == "int":
                left, less = x, k
    if not (isinstance(left, c_ast.ID) and left.name == it):
        return None
    bound = c.right if c.op == "<" else c_ast.BinaryOp("+", copy.deepcopy(c.right), c_ast.Constant("int", "1"))
    return bound if less is None else c_ast.BinaryOp("-", copy.deepcopy(bound), copy.deepcopy(less))


def _nodes(node):
    return all_nodes(node) if node is not None else ()


def _reads(node, name: str) -> bool:
    return any(isinstance(n, c_ast.ID) and n.name == name for n in _nodes(node))


def _writes(node, name: str) -> bool:
    for n in _nodes(node):
        if isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, c_ast.ID) and n.lvalue.name == name:
            return True
        if isinstance(n, c_ast.UnaryOp) and n.op in ("p++", "p--", "++", "--", "&") \
                and isinstance(n.expr, c_ast.ID) and n.expr.name == name:
            return True
    return False


def _start(node: c_ast.For, it: str) -> c_ast.Node | None:
    init = node.init
    if isinstance(init, c_ast.Assignment) and init.op == "=" and isinstance(init.lvalue, c_ast.ID) \
            and init.lvalue.name == it:
        return init.rvalue
    if isinstance(init, c_ast.DeclList) and len(init.decls) == 1 and init.decls[0].name == it:
        return init.decls[0].init
    if isinstance(init, c_ast.ExprList):
        return next((e.rvalue for e in init.exprs if isinstance(e, c_ast.Assignment) and e.op == "="
                     and isinstance(e.lvalue, c_ast.ID) and e.lvalue.name == it), None)
    return None


def _end_value(prev: c_ast.For, it: str) -> c_ast.Node | None:
    """The value loop `prev` (over `it`) leaves in it, as C: `L + max(0, U - L + s - 1) / s * s`
    (`max(L, U)` for a step of 1)."""
    got = _iterator_step(prev, it)
    low = _start(prev, it)
    if got is None or got[0] != it or low is None or _writes(prev.stmt, it):
        return None
    step = got[1]
    up = _upper(prev, it)
    if up is None:
        return None
    low, up = copy.deepcopy(low), copy.deepcopy(up)
    zero = isinstance(low, c_ast.Constant) and low.value == "0"
    if step == 1:
        return c_ast.TernaryOp(c_ast.BinaryOp(">", copy.deepcopy(low), up), copy.deepcopy(low), copy.deepcopy(up))
    # L + max(0, U - L + s - 1) / s * s: C's `/` of a non-negative number is the floor
    span = c_ast.BinaryOp("+", up if zero else c_ast.BinaryOp("-", up, copy.deepcopy(low)),
                          c_ast.Constant("int", str(step - 1)))
    span = c_ast.TernaryOp(c_ast.BinaryOp(">", c_ast.Constant("int", "0"), span), c_ast.Constant("int", "0"),
                           copy.deepcopy(span))
    end = c_ast.BinaryOp("*", c_ast.BinaryOp("/", span, c_ast.Constant("int", str(step))),
                         c_ast.Constant("int", str(step)))
    return end if zero else c_ast.BinaryOp("+", copy.deepcopy(low), end)


def continued_loops(ast: c_ast.Node) -> None:
    """Give each `for (; ...)` whose start the code right before it fixes that start (in place)."""
    for block in (n for n in _nodes(ast) if isinstance(n, c_ast.Compound)):
        items = block.block_items or []
        for k, node in enumerate(items):
            if not isinstance(node, c_ast.For) or node.init is not None or k == 0:
                continue
            got = _iterator_step(node)
            if got is None or _upper(node, got[0]) is None:
                continue
            # (past pragmas: `int i = 0;` then `#pragma scop`, the region's start)
            before = k - 1
            while before > 0 and isinstance(items[before], c_ast.Pragma):
                before -= 1
            it, prev = got[0], items[before]
            value = None
            if isinstance(prev, c_ast.Decl) and prev.name == it and prev.init is not None \
                    and not isinstance(prev.init, c_ast.InitList):
                value, prev.init = prev.init, None
            elif isinstance(prev, c_ast.For):
                value = _end_value(prev, it)
            if value is not None:
                node.init = c_ast.Assignment("=", c_ast.ID(it, coord=node.coord), value, coord=node.coord)
