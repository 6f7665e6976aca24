"""Guards that the code around them already decides, removed after unrolling: a copy of a
jam's last strip checks `N - N % 4 >= 0` inside `if (N >= 1)` (its value is past the loop's
start by construction, which the copy's own bounds do not show).  A condition is dropped where
the enclosing loops' bounds and branches imply it (poly/implied.py); a branch they rule out is
dropped with its body.  Conditions on data, or not affine, stay as they are."""
from __future__ import annotations

from dataclasses import replace

from looptx import ir
from looptx.codegen import ast as K
from looptx.codegen.unroll import _conjuncts, _flatten, _isl_cond, _isl_text
from looptx.poly.implied import never, readable


def _loop_facts(node: K.For) -> tuple[str, ...]:
    init, cond = _isl_text(node.init), _isl_cond(node.cond)
    out = []
    if init is not None:
        out.append(f"{node.var} >= {init}")
        if node.step > 1:
            out.append(f"({node.var} - ({init})) mod {node.step} = 0")
    if cond is not None and node.step > 0:
        out.append(cond)
    return tuple(f for f in out if readable(f))


def _joined(conds: list[ir.Expr]) -> ir.Expr:
    out = conds[0]
    for c in conds[1:]:
        out = ir.Bin("&&", out, c)
    return out


def pruned(node: K.Node, known: tuple[str, ...] = ()) -> K.Node:
    if isinstance(node, K.For):
        return replace(node, body=pruned(node.body, known + _loop_facts(node)))
    if isinstance(node, K.If):
        whole = _isl_cond(node.cond)
        if whole is not None and never(known, whole):
            return pruned(node.orelse, known) if node.orelse is not None else K.Block(())
        kept = []
        for c in _conjuncts(node.cond):
            other = _isl_cond(c, negate=True)
            if other is None or not never(known, other):
                kept.append(c)
        inner = known + (whole,) if whole is not None and readable(whole) else known
        if not kept:
            return pruned(node.then, inner)
        other = _isl_cond(node.cond, negate=True)
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
