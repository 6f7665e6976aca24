"""Guards that the code around them already decides, removed after unrolling: a copy of a
jam's last strip checks `N - N % 4 >= 0` inside `if (N >= 1)` (its value is past the loop's
start by construction, which the copy's own bounds do not show).  A condition is dropped where
the enclosing loops' bounds and branches imply it (poly/implied.py); a branch they rule out is
dropped with its body.  Conditions on data, or not affine, stay as they are."""
from __future__ import annotations

from dataclasses import replace

from looptx import ir
from looptx.codegen import ast as K
from looptx.codegen.code_facts import conjuncts, facts_of, isl_cond, loop_facts
from looptx.codegen.unroll import _flatten
from looptx.poly.implied import never, readable


def _joined(conds: list[ir.Expr]) -> ir.Expr:
    out = conds[0]
    for c in conds[1:]:
        out = ir.Bin("&&", out, c)
    return out


def pruned(node: K.Node, known: tuple[str, ...] = ()) -> K.Node:
    if isinstance(node, K.For):
        body = pruned(node.body, known + loop_facts(node))
        # a loop whose every branch its own bounds rule out (an unroll's cleanup loop after
        # whole strips) does nothing
        return K.Block(()) if isinstance(body, K.Block) and not body.items else replace(node, body=body)
    if isinstance(node, K.If):
        whole = isl_cond(node.cond)
        if whole is not None and never(known, whole):
            return pruned(node.orelse, known) if node.orelse is not None else K.Block(())
        kept = []
        for c in conjuncts(node.cond):
            other = isl_cond(c, negate=True)
            if other is None or not never(known, other):
                kept.append(c)
        inner = known + facts_of(node.cond)
        if not kept:
            return pruned(node.then, inner)
        other = isl_cond(node.cond, negate=True)
        orelse = None
        if node.orelse is not None:
            orelse = pruned(node.orelse, known + (other,) if other is not None and readable(other) else known)
        return K.If(_joined(kept), pruned(node.then, inner), orelse)
    if isinstance(node, K.Block):
        items = [pruned(c, known) for c in node.items]
        return K.Block(tuple(c for c in _flatten(items) if not (isinstance(c, K.Block) and not c.items)))
    if isinstance(node, K.Mark):
        return K.Mark(node.name, pruned(node.body, known), node.info)
    return node
