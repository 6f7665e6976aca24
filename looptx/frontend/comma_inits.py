"""Loops whose header sets another variable along with the iterator, as Numerical Recipes
writes them: `for (sum = a[i][j], k = i - 1; k >= 0; k--) sum -= a[i][k] * a[j][k];`.

The other assignments run once, before the first test of the loop: they are the statements
right before it, in the order the comma writes them, and the loop keeps one iterator, as the
model needs.  Only where that order is the same: an assignment after the iterator's may not
read the iterator, nor set what the iterator's start reads."""
from __future__ import annotations

from pycparser import c_ast

from looptx.frontend.paired_iterators import _names, _steps, counter
from looptx.frontend.symbols import all_nodes


def _split(loop: c_ast.For) -> tuple[list, c_ast.Node, bool] | None:
    """(what runs before the loop, the iterator's own start, whether that needs a block of its
    own: declarations keep the loop's scope) where the header's list can be split so; else
    None."""
    init, cond = loop.init, loop.cond
    if loop.next is None or not isinstance(cond, c_ast.BinaryOp):
        return None
    nxt = loop.next.exprs if isinstance(loop.next, c_ast.ExprList) else [loop.next]
    it = counter(cond, nxt)
    if set(_steps(nxt) or {}) != {it}:
        return None
    if isinstance(init, c_ast.ExprList) and all(isinstance(e, c_ast.Assignment) for e in init.exprs):
        parts, declared = list(init.exprs), False
        target = lambda e: _names(e.lvalue)                                   # noqa: E731
        mine = [e for e in parts if isinstance(e.lvalue, c_ast.ID) and e.lvalue.name == it and e.op == "="]
        start = lambda e: e.rvalue                                             # noqa: E731
    elif isinstance(init, c_ast.DeclList) and len(init.decls) > 1 and all(d.init is not None for d in init.decls):
        # `for (int k = 0, q = 2; ...)`: q in a block around the loop, as C scopes it
        parts, declared = list(init.decls), True
        target = lambda d: {d.name}                                            # noqa: E731
        mine = [d for d in parts if d.name == it]
        start = lambda d: d.init                                               # noqa: E731
    else:
        return None
    if len(mine) != 1:
        return None
    at = parts.index(mine[0])
    for e in parts[at + 1:]:
        if it in _names(e) or target(e) & _names(start(mine[0])):
            return None
    rest = [e for e in parts if e is not mine[0]]
    # a variable the test reads (`m = n / 2, k = 0; k < m`) would be a size the region sets
    bounds = _names(loop.cond) | set().union(*(_names(x) for x in nxt))
    if any(it in target(e) or target(e) & bounds for e in rest):
        return None
    head = c_ast.DeclList([mine[0]], init.coord) if declared else mine[0]
    return rest, head, declared


def comma_inits_hoisted(ast) -> None:
    """Rewrites such loops in place: the other assignments become statements before the loop
    (declarations, in a block with it)."""
    for parent in list(all_nodes(ast)):
        if isinstance(parent, c_ast.Compound) and parent.block_items:
            items = []
            for item in parent.block_items:
                got = _split(item) if isinstance(item, c_ast.For) else None
                if got:
                    item.init = got[1]
                    if got[2]:
                        items.append(c_ast.Compound(got[0] + [item], item.coord))
                        continue
                    items += got[0]
                items.append(item)
            parent.block_items = items
        for attr in ("stmt", "iftrue", "iffalse"):
            child = getattr(parent, attr, None)
            got = _split(child) if isinstance(child, c_ast.For) else None
            if got:
                child.init = got[1]
                setattr(parent, attr, c_ast.Compound(got[0] + [child], child.coord))
