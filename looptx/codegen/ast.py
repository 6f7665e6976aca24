"""KernelAST: the small own IR between isl's AST and the C / CUDA printers.

Loop bounds and subscripts are integer expressions in looptx IR, so printers can rename loop
variables, present reversed loops as decreasing ones and simplify, without going back to isl.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, replace

from looptx import ir


class Node:
    __slots__ = ()


@dataclass(frozen=True)
class For(Node):
    var: str
    init: ir.Expr
    cond: ir.Expr
    step: int
    body: Node
    dim: int = -1                 # schedule dimension (for naming / mapping)


@dataclass(frozen=True)
class If(Node):
    cond: ir.Expr
    then: Node
    orelse: Node | None = None


@dataclass(frozen=True)
class Block(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Leaf(Node):
    """One statement instance: the original iterators as expressions of the loop variables,
    and each reference as printed (array name, possibly a promoted buffer, and subscripts
    already simplified by isl)."""
    stmt: int
    iters: tuple[ir.Expr, ...]
    refs: tuple[tuple[int, ir.Ref], ...]


@dataclass(frozen=True)
class Assign(Node):
    """A statement added by a step (copy into / out of a buffer): lhs = rhs."""
    lhs: ir.Expr
    rhs: ir.Expr
    unroll: bool = False          # register copies: their loops are unrolled


@dataclass(frozen=True)
class Sync(Node):
    pass


@dataclass(frozen=True)
class Launch(Node):
    """Host code: launch kernel `kernel` with the host loop values `args` on `grid` blocks."""
    kernel: int
    stmt: int                      # a statement of the kernel (names the surrounding host loops)
    args: tuple[ir.Expr, ...]
    grid: tuple[ir.Expr, ...]


@dataclass(frozen=True)
class Text(Node):
    """A line of target code produced by a later stage (copies, declarations, launches)."""
    text: str


@dataclass(frozen=True)
class Mark(Node):
    name: str
    body: Node
    info: tuple = ()


def children(n: Node) -> list[Node]:
    if isinstance(n, For):
        return [n.body]
    if isinstance(n, If):
        return [n.then] + ([n.orelse] if n.orelse is not None else [])
    if isinstance(n, Block):
        return list(n.items)
    if isinstance(n, Mark):
        return [n.body]
    return []


def nodes(n: Node, kind):
    """The nodes of type `kind` under `n` (itself included), outermost first."""
    if isinstance(n, kind):
        yield n
    for c in children(n):
        yield from nodes(c, kind)


def leaves(n: Node):
    if isinstance(n, (Leaf, Launch)):
        yield n
    for c in children(n):
        yield from leaves(c)


def statements(n: Node):
    """Leaves and added assignments."""
    if isinstance(n, (Leaf, Assign)):
        yield n
    for c in children(n):
        yield from statements(c)


# ---- integer expression helpers ------------------------------------------------------------

def subst(e: ir.Expr, mapping: dict[str, ir.Expr], in_refs: dict[str, ir.Expr] | None = None) -> ir.Expr:
    """`in_refs`: another mapping for the subscripts of array references."""
    def go(x):
        return subst(x, mapping, in_refs)
    if isinstance(e, ir.Var):
        return mapping.get(e.name, e)
    if isinstance(e, ir.Bin):
        return ir.Bin(e.op, go(e.a), go(e.b))
    if isinstance(e, ir.Un):
        return ir.Un(e.op, go(e.a))
    if isinstance(e, ir.Call):
        return ir.Call(e.fn, tuple(go(a) for a in e.args), e.spelled)
    if isinstance(e, ir.Cond):
        return ir.Cond(go(e.c), go(e.a), go(e.b))
    if isinstance(e, ir.Cast):
        return ir.Cast(e.ctype, go(e.a), e.spelled)
    if isinstance(e, ir.Ref):
        m = mapping if in_refs is None else in_refs
        return ir.Ref(e.array, e.ref, tuple(subst(i, m) for i in e.index))
    if isinstance(e, ir.Assign):
        return ir.Assign(e.op, go(e.lhs), go(e.rhs))
    return e


def _int(e: ir.Expr) -> int | None:
    if isinstance(e, ir.Num):
        try:
            return int(e.text)
        except ValueError:
            return None
    return None


def _linear(e: ir.Expr):
    """(terms, const) with terms an ordered {atom key: (coef, atom)}; None if not linear."""
    if isinstance(e, ir.Num):
        v = _int(e)
        return None if v is None else ({}, v)
    if isinstance(e, ir.Var):
        return ({e.name: (1, e)}, 0)
    if isinstance(e, ir.Un) and e.op == "-":
        inner = _linear(e.a)
        if inner is None:
            return None
        t, c = inner
        return ({k: (-v, a) for k, (v, a) in t.items()}, -c)
    if isinstance(e, ir.Bin) and e.op in ("+", "-"):
        la, lb = _linear(e.a), _linear(e.b)
        if la is None or lb is None:
            return None
        sign = 1 if e.op == "+" else -1
        t = dict(la[0])
        for k, (v, a) in lb[0].items():
            t[k] = (t.get(k, (0, a))[0] + sign * v, a)
        return (t, la[1] + sign * lb[1])
    if isinstance(e, ir.Bin) and e.op == "*":
        ca, cb = _int(e.a), _int(e.b)
        if ca is not None or cb is not None:
            k, other = (ca, e.b) if ca is not None else (cb, e.a)
            inner = _linear(other)
            if inner is None:
                inner = ({other: (1, other)}, 0)
            t, c = inner
            return ({kk: (k * v, a) for kk, (v, a) in t.items()}, k * c)
        return None
    return ({e: (1, e)}, 0)


def _simplify_children(e: ir.Expr) -> ir.Expr:
    if isinstance(e, ir.Un) and e.op == "-" and isinstance(e.a, ir.Call) and e.a.fn in ("lx_min", "lx_max"):
        other = "lx_max" if e.a.fn == "lx_min" else "lx_min"
        return ir.Call(other, tuple(simplify(ir.Un("-", a)) for a in e.a.args))
    if isinstance(e, ir.Call):
        return ir.Call(e.fn, tuple(simplify(a) for a in e.args), e.spelled)
    if isinstance(e, ir.Bin):
        return ir.Bin(e.op, simplify(e.a), simplify(e.b))
    if isinstance(e, ir.Un):
        return ir.Un(e.op, simplify(e.a))
    if isinstance(e, ir.Cond):
        # a register copy's element `k == k && c == tx ? 0 : ...` (the copy's loop is the
        # statement's): the branch a constant condition takes
        c = simplify_cond(e.c)
        known = _int(c)
        if known is not None:
            return simplify(e.a if known else e.b)
        return ir.Cond(c, simplify(e.a), simplify(e.b))
    return e


@functools.lru_cache(maxsize=1 << 16)
def simplify(e: ir.Expr) -> ir.Expr:
    """Canonical integer arithmetic: fold constants, merge like terms, negate through min/max."""
    e = _simplify_children(e)
    lin = _linear(e)
    if lin is None:
        return e
    terms, const = lin
    pos, neg = [], []
    for _, (coef, atom) in terms.items():
        if coef == 0:
            continue
        term = atom if abs(coef) == 1 else ir.Bin("*", ir.Num(str(abs(coef))), atom)
        (pos if coef > 0 else neg).append(term)
    if not pos and not neg:
        return ir.Num(str(const))
    if pos:
        out = pos[0]
        for t in pos[1:]:
            out = ir.Bin("+", out, t)
    else:
        out = ir.Un("-", neg[0])
        neg = neg[1:]
    for t in neg:
        out = ir.Bin("-", out, t)
    if const > 0:
        out = ir.Bin("+", out, ir.Num(str(const)))
    elif const < 0:
        out = ir.Bin("-", out, ir.Num(str(-const)))
    return out


CMP_MIRROR = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def simplify_cond(e: ir.Expr) -> ir.Expr:
    """Comparisons in canonical form (`i <= N - 1` -> `i < N`); && / || recursively."""
    if isinstance(e, ir.Bin) and e.op in ("&&", "||"):
        return _logic(e.op, simplify_cond(e.a), simplify_cond(e.b))
    if isinstance(e, ir.Bin) and e.op in CMP_MIRROR:
        a, b = simplify(e.a), simplify(e.b)
        d = _int(simplify(ir.Bin("-", b, a)))
        if d is not None:
            # sides that differ by a constant (`i == i`, `i >= i + 2` once an unrolled copy's
            # offset is put in): gcc would warn of the self-comparison
            return ir.Num("1" if CMP_TRUTH[e.op](d) else "0")
        if e.op == "<=" and isinstance(b, ir.Bin) and b.op == "-" and _int(b.b) == 1:
            return ir.Bin("<", a, b.a)
        if e.op == "<=" and _int(b) is not None and isinstance(a, ir.Var):
            return ir.Bin("<", a, ir.Num(str(_int(b) + 1)))
        if e.op == ">=" and isinstance(b, ir.Bin) and b.op == "+" and _int(b.b) == 1:
            return ir.Bin(">", a, b.a)
        return ir.Bin(e.op, a, b)
    if isinstance(e, ir.Un) and e.op == "!":
        return ir.Un("!", simplify_cond(e.a))
    return simplify(e)


CMP_TRUTH = {"<": lambda d: d > 0, "<=": lambda d: d >= 0, ">": lambda d: d < 0, ">=": lambda d: d <= 0,
              "==": lambda d: d == 0, "!=": lambda d: d != 0}


def _logic(op: str, a: ir.Expr, b: ir.Expr) -> ir.Expr:
    """`a && b` / `a || b` with a side that is a constant folded (guards have no side effects)."""
    ia, ib = _int(a), _int(b)
    if op == "&&":
        if ia == 0 or ib == 0:
            return ir.Num("0")
        return b if ia is not None else a if ib is not None else ir.Bin(op, a, b)
    if ia not in (None, 0) or ib not in (None, 0):
        return ir.Num("1")
    return b if ia == 0 else a if ib == 0 else ir.Bin(op, a, b)


def simplify_any(e: ir.Expr) -> ir.Expr:
    """Conditions and integer expressions alike (loop bounds, guards, subscripts)."""
    if isinstance(e, ir.Bin) and (e.op in CMP_MIRROR or e.op in ("&&", "||")):
        return simplify_cond(e)
    return simplify(e)


def _map_ref(e: ir.Expr, f) -> ir.Expr:
    if isinstance(e, ir.Ref):
        return ir.Ref(e.array, e.ref, tuple(f(i) for i in e.index))
    return f(e)


def map_exprs(n: Node, f) -> Node:
    """Apply f to every expression of the tree (bounds, conditions, leaf subscripts)."""
    if isinstance(n, For):
        return replace(n, init=f(n.init), cond=f(n.cond), body=map_exprs(n.body, f))
    if isinstance(n, If):
        return If(f(n.cond), map_exprs(n.then, f), map_exprs(n.orelse, f) if n.orelse else None)
    if isinstance(n, Block):
        return Block(tuple(map_exprs(c, f) for c in n.items))
    if isinstance(n, Leaf):
        return Leaf(n.stmt, tuple(f(x) for x in n.iters),
                    tuple((r, ir.Ref(x.array, x.ref, tuple(f(i) for i in x.index))) for r, x in n.refs))
    if isinstance(n, Assign):
        return Assign(_map_ref(n.lhs, f), _map_ref(n.rhs, f), n.unroll)
    if isinstance(n, Mark):
        return Mark(n.name, map_exprs(n.body, f), n.info)
    if isinstance(n, Launch):
        return Launch(n.kernel, n.stmt, tuple(f(x) for x in n.args), tuple(f(x) for x in n.grid))
    return n


def map_blocks(n: Node, f) -> Node:
    """The tree with every block's items replaced by f(items), inner blocks first."""
    if isinstance(n, Block):
        return Block(tuple(f([map_blocks(c, f) for c in n.items])))
    if isinstance(n, For):
        return replace(n, body=map_blocks(n.body, f))
    if isinstance(n, If):
        return If(n.cond, map_blocks(n.then, f), map_blocks(n.orelse, f) if n.orelse is not None else None)
    if isinstance(n, Mark):
        return Mark(n.name, map_blocks(n.body, f), n.info)
    return n


def without_leading_sync(node: Node) -> Node:
    """A kernel's body without a barrier that comes before anything else it runs (a `shared`
    copy's barrier before its loads, where no loop repeats the copy in the block): a block
    starts with shared memory no thread has used, so it orders nothing (probe 207 Q2)."""
    if isinstance(node, Block) and node.items:
        first = node.items[0]
        if isinstance(first, Sync):
            return Block(node.items[1:])
        return replace(node, items=(without_leading_sync(first),) + node.items[1:])
    if isinstance(node, If):
        return replace(node, then=without_leading_sync(node.then),
                                   orelse=None if node.orelse is None else without_leading_sync(node.orelse))
    if isinstance(node, Mark):
        return replace(node, body=without_leading_sync(node.body))
    return node
