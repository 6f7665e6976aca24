"""Loops whose header sets another variable along with the iterator, as Numerical Recipes
writes them: `for (sum = a[i][j], k = i - 1; k >= 0; k--) sum -= a[i][k] * a[j][k];`.

The other assignments run once, before the first test of the loop: they are the statements
right before it, in the order the comma writes them, and the loop keeps one iterator, as the
model needs.  Only where that order is the same: an assignment after the iterator's may not
read the iterator, nor set what the iterator's start reads."""
from __future__ import annotations

from pycparser import c_ast

from looptx.frontend.paired_iterators import _steps, counter
from looptx.frontend.symbols import all_nodes


def _names(node) -> set[str]:
    return {n.name for n in all_nodes(node) if isinstance(n, c_ast.ID)}


def _split(loop: c_ast.For) -> tuple[list, c_ast.Assignment] | None:
    """(the assignments to run before the loop, the iterator's) where the header's comma
    list can be split so; else None."""
    init, cond = loop.init, loop.cond
    if not isinstance(init, c_ast.ExprList) or loop.next is None or not isinstance(cond, c_ast.BinaryOp):
        return None
    nxt = loop.next.exprs if isinstance(loop.next, c_ast.ExprList) else [loop.next]
    it = counter(cond, nxt)
    if set(_steps(nxt) or {}) != {it}:
        return None
    if not all(isinstance(e, c_ast.Assignment) and isinstance(e.lvalue, c_ast.ID) for e in init.exprs):
        return None
    mine = [e for e in init.exprs if e.lvalue.name == it]
    if len(mine) != 1 or mine[0].op != "=":
        return None
    at = init.exprs.index(mine[0])
    for e in init.exprs[at + 1:]:
        if it in _names(e) or e.lvalue.name in _names(mine[0].rvalue):
            return None
    return [e for e in init.exprs if e is not mine[0]], mine[0]


def comma_inits_hoisted(ast) -> None:
    """Rewrites such loops in place: the other assignments become statements before the loop."""
    for parent in list(all_nodes(ast)):
        if isinstance(parent, c_ast.Compound) and parent.block_items:
            items = []
            for item in parent.block_items:
                got = _split(item) if isinstance(item, c_ast.For) else None
                if got:
                    item.init = got[1]
                    items += got[0]
                items.append(item)
            parent.block_items = items
        for attr in ("stmt", "iftrue", "iffalse"):
            child = getattr(parent, attr, None)
            got = _split(child) if isinstance(child, c_ast.For) else None
            if got:
                child.init = got[1]
                setattr(parent, attr, c_ast.Compound(got[0] + [child], child.coord))
