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


def _args(e: ir.Expr, fn: str) -> list[ir.Expr]:
    if isinstance(e, ir.Call) and e.fn == fn:
        return [x for a in e.args for x in _args(a, fn)]
    return [e]


def _split(c: ir.Expr) -> list[ir.Expr]:
    """`c` as a list of conditions whose conjunction it is, with `x <= min(a, b)` as `x <= a`
    and `x <= b`: isl reads a min or max as one piece per argument, so a tile loop of a skewed
    nest (5-way min and 4-way max bounds, nested 4 deep) read whole is a union of thousands of
    pieces, and each emptiness check took seconds."""
    out = []
    for x in _conjuncts(c):
        if isinstance(x, ir.Bin) and x.op in ("<", "<=", ">", ">="):
            lo_hi = ("lx_max", "lx_min") if x.op in ("<", "<=") else ("lx_min", "lx_max")
            out += [ir.Bin(x.op, a, b) for a in _args(x.a, lo_hi[0]) for b in _args(x.b, lo_hi[1])]
        else:
            out.append(x)
    return out


def _facts(c: ir.Expr) -> tuple[str, ...]:
    texts = [_isl_cond(x) for x in _split(c)]
    return tuple(t for t in texts if t is not None and readable(t))


def _loop_facts(node: K.For) -> tuple[str, ...]:
    init = _isl_text(node.init)
    out = _facts(ir.Bin(">=", ir.Var(node.var), node.init))
    if init is not None and node.step > 1:
        out += tuple(f for f in (f"({node.var} - ({init})) mod {node.step} = 0",) if readable(f))
    if node.step > 0:
        out += _facts(node.cond)
    return out


def _joined(conds: list[ir.Expr]) -> ir.Expr:
    out = conds[0]
    for c in conds[1:]:
        out = ir.Bin("&&", out, c)
    return out


def pruned(node: K.Node, known: tuple[str, ...] = ()) -> K.Node:
    if isinstance(node, K.For):
        body = pruned(node.body, known + _loop_facts(node))
        # a loop whose every branch its own bounds rule out (an unroll's cleanup loop after
        # whole strips) does nothing
        return K.Block(()) if isinstance(body, K.Block) and not body.items else replace(node, body=body)
    if isinstance(node, K.If):
        whole = _isl_cond(node.cond)
        if whole is not None and never(known, whole):
            return pruned(node.orelse, known) if node.orelse is not None else K.Block(())
        kept = []
        for c in _conjuncts(node.cond):
            other = _isl_cond(c, negate=True)
            if other is None or not never(known, other):
                kept.append(c)
        inner = known + _facts(node.cond)
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
