"""A copy into a register that the next statement overwrites whole is dropped: `registers` on
an accumulator the code sets before it adds to it (the D2Q9 collide's `rho[y][x] = 0.0;`)
loaded it anyway, `rho_r = rho[...]; rho_r = 0.0;`, a global load per thread for nothing."""
from __future__ import annotations

from looptx import ir
from looptx.codegen import ast as K


def _overwrites(node: K.Node, target: ir.Expr, scop) -> bool:
    """`node` is one statement that sets `target` with `=` and reads nothing of its array."""
    if not isinstance(node, K.Leaf) or not isinstance(target, ir.Ref):
        return False
    body = scop.statements[node.stmt].body
    if not isinstance(body, ir.Assign) or body.op != "=" or not isinstance(body.lhs, ir.Ref):
        return False
    written = dict(node.refs).get(body.lhs.ref)
    # the copy's reference id is its own: the element is what must match
    if written is None or (written.array, written.index) != (target.array, target.index):
        return False
    return not any(r.array == target.array for k, r in node.refs if k != body.lhs.ref)


def without_dead_loads(node: K.Node, scop) -> K.Node:
    def kept(items: list) -> list:
        return [x for n, x in enumerate(items)
                if not (isinstance(x, K.Assign) and n + 1 < len(items) and _overwrites(items[n + 1], x.lhs, scop))]
    return K.map_blocks(node, kept)
