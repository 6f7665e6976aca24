"""Conditions of the generated code (KernelAST) as isl texts: what a loop or a branch tells
of its variables, for the unroller's proofs (codegen/unroll.py) and the pruning of guards
the code around them decides (codegen/guards.py)."""
from __future__ import annotations

from looptx import ir
from looptx.codegen import ast as K
from looptx.poly.implied import readable


def conjuncts(c: ir.Expr) -> list[ir.Expr]:
    return conjuncts(c.a) + conjuncts(c.b) if isinstance(c, ir.Bin) and c.op == "&&" else [c]


_NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


def isl_cond(e: ir.Expr, negate: bool = False) -> str | None:
    """A condition of the generated code (comparisons of affine expressions, &&), or where
    `negate` its negation, in isl's syntax, or None."""
    if negate:
        if isinstance(e, ir.Bin) and e.op in _NEGATED:
            return isl_cond(ir.Bin(_NEGATED[e.op], e.a, e.b))
        if isinstance(e, ir.Bin) and e.op == "&&":
            a, b = isl_cond(e.a, True), isl_cond(e.b, True)
            return None if a is None or b is None else f"({a}) or ({b})"
        return None
    if isinstance(e, ir.Bin) and e.op == "&&":
        a, b = isl_cond(e.a), isl_cond(e.b)
        return None if a is None or b is None else f"({a}) and ({b})"
    if isinstance(e, ir.Bin) and e.op in ("==", "!=") and isinstance(e.b, ir.Num) and e.b.text == "0" \
            and isinstance(e.a, ir.Bin) and e.a.op == "%" and isinstance(e.a.b, ir.Num):
        a = isl_text(e.a.a)        # divisibility: C's % and isl's mod agree on it
        return None if a is None else f"({a}) mod {e.a.b.text} {'=' if e.op == '==' else '!='} 0"
    if isinstance(e, ir.Bin) and e.op in ("<", "<=", ">", ">="):
        spread = _compared(_lifted(e.a), e.op, _lifted(e.b), [0])
        if spread is not None:
            return spread
    if isinstance(e, ir.Bin) and e.op in ("<", "<=", ">", ">=", "=="):
        a, b = isl_text(e.a), isl_text(e.b)
        return None if a is None or b is None else f"({a}) {'=' if e.op == '==' else e.op} ({b})"
    return None


_OTHER = {"lx_min": "lx_max", "lx_max": "lx_min"}
_SPREAD = 64          # comparisons of atoms one condition may become


def _minmax(e: ir.Expr) -> bool:
    return isinstance(e, ir.Call) and e.fn in _OTHER


def _lifted(e: ir.Expr) -> ir.Expr:
    """`e` with its min and max moved outside the arithmetic around them (`4 * max(a, b) + 1`
    is `max(4 * a + 1, 4 * b + 1)`): sums, constant factors and floors by a positive constant
    are monotone, a negation swaps min and max."""
    def over(x: ir.Expr, f, swap: bool = False) -> ir.Expr:
        return ir.Call(_OTHER[x.fn] if swap else x.fn, tuple(_lifted(f(a)) for a in x.args))
    if _minmax(e):
        return ir.Call(e.fn, tuple(_lifted(a) for a in e.args))
    if isinstance(e, ir.Un) and e.op == "-":
        a = _lifted(e.a)
        return over(a, lambda y: ir.Un("-", y), swap=True) if _minmax(a) else ir.Un("-", a)
    if isinstance(e, ir.Bin) and e.op in "+-":
        a, b = _lifted(e.a), _lifted(e.b)
        if _minmax(a):
            return over(a, lambda y: ir.Bin(e.op, y, b))
        if _minmax(b):
            return over(b, lambda y: ir.Bin(e.op, a, y), swap=e.op == "-")
        return ir.Bin(e.op, a, b)
    if isinstance(e, ir.Bin) and e.op == "*" and (isinstance(e.a, ir.Num) or isinstance(e.b, ir.Num)):
        k, x = (e.a, e.b) if isinstance(e.a, ir.Num) else (e.b, e.a)
        x = _lifted(x)
        if _minmax(x) and k.text.lstrip("-").isdigit() and int(k.text) != 0:
            return over(x, lambda y: ir.Bin("*", k, y), swap=int(k.text) < 0)
        return ir.Bin("*", k, x) if k is e.a else ir.Bin("*", x, k)
    if isinstance(e, ir.Call) and e.fn == "lx_floord" and len(e.args) == 2 and isinstance(e.args[1], ir.Num) \
            and e.args[1].text.isdigit() and int(e.args[1].text) > 0:
        x = _lifted(e.args[0])
        return over(x, lambda y: ir.Call("lx_floord", (y, e.args[1]))) if _minmax(x) else \
            ir.Call("lx_floord", (x, e.args[1]))
    return e


def _compared(a: ir.Expr, op: str, b: ir.Expr, count: list) -> str | None:
    """`a op b` of lifted sides as a conjunction and disjunction of comparisons of their
    arguments (`max(x, y) < n` is `x < n and y < n`), which isl reads as far fewer and simpler
    pieces than a min or max it splits into cases itself; None past _SPREAD comparisons, or
    where a side is not affine."""
    below = op in ("<", "<=")
    for side, other, left in ((a, b, True), (b, a, False)):
        if _minmax(side):
            # max(..) < b: every argument is; min(..) < b: one is (and mirrored on the right)
            every = (side.fn == "lx_max") == (below == left)
            parts = [_compared(x, op, other, count) if left else _compared(other, op, x, count) for x in side.args]
            if None in parts:
                return None
            return f" {'and' if every else 'or'} ".join(f"({p})" for p in parts)
    count[0] += 1
    ta, tb = isl_text(a), isl_text(b)
    if ta is None or tb is None or count[0] > _SPREAD:
        return None
    return f"({ta}) {op} ({tb})"


def isl_text(e: ir.Expr) -> str | None:
    """An affine expression of the generated code in isl's syntax, or None."""
    if isinstance(e, ir.Num):
        return e.text if e.text.lstrip("-").isdigit() else None
    if isinstance(e, ir.Var):
        return e.name
    def part(x: ir.Expr) -> str | None:
        t = isl_text(x)        # isl reads `9 * (c1)`, not `(9) * (c1)`
        return t if t is None or isinstance(x, (ir.Num, ir.Var)) else f"({t})"
    if isinstance(e, ir.Un) and e.op == "-":
        a = part(e.a)
        return None if a is None else f"-{a}"
    if isinstance(e, ir.Bin) and e.op in "+-*":
        a, b = part(e.a), part(e.b)
        return None if a is None or b is None else f"{a} {e.op} {b}"
    if isinstance(e, ir.Call) and e.fn == "lx_floord" and len(e.args) == 2 and isinstance(e.args[1], ir.Num):
        a, b = isl_text(e.args[0]), isl_text(e.args[1])      # isl divides by a number only
        return None if a is None or b is None else f"floor(({a})/{b})"
    if isinstance(e, ir.Bin) and e.op in ("%", "/") and isinstance(e.b, ir.Num):
        # isl writes them only of what it knows is not negative (pdiv_q, pdiv_r, zdiv_r)
        a = isl_text(e.a)
        return None if a is None else f"({a}) mod {e.b.text}" if e.op == "%" else f"floor(({a})/{e.b.text})"
    if isinstance(e, ir.Call) and e.fn in ("lx_min", "lx_max") and e.args:
        args = [isl_text(x) for x in e.args]
        return None if None in args else f"{e.fn[3:]}({', '.join(args)})"
    return None


def nested(e: ir.Expr, fn: str) -> list[ir.Expr]:
    if isinstance(e, ir.Call) and e.fn == fn:
        return [x for a in e.args for x in nested(a, fn)]
    return [e]


def split_conds(c: ir.Expr) -> list[ir.Expr]:
    """`c` as a list of conditions whose conjunction it is, with `x <= min(a, b)` as `x <= a`
    and `x <= b`: isl reads a min or max as one piece per argument, so a tile loop of a skewed
    nest (5-way min and 4-way max bounds, nested 4 deep) read whole is a union of thousands of
    pieces, and each emptiness check took seconds."""
    out = []
    for x in conjuncts(c):
        if isinstance(x, ir.Bin) and x.op in ("<", "<=", ">", ">="):
            lo_hi = ("lx_max", "lx_min") if x.op in ("<", "<=") else ("lx_min", "lx_max")
            out += [ir.Bin(x.op, a, b) for a in nested(x.a, lo_hi[0]) for b in nested(x.b, lo_hi[1])]
        else:
            out.append(x)
    return out


def facts_of(c: ir.Expr) -> tuple[str, ...]:
    texts = [isl_cond(x) for x in split_conds(c)]
    return tuple(t for t in texts if t is not None and readable(t))


def loop_facts(node: K.For) -> tuple[str, ...]:
    init = isl_text(node.init)
    out = facts_of(ir.Bin(">=", ir.Var(node.var), node.init))
    if init is not None and node.step > 1:
        out += tuple(f for f in (f"({node.var} - ({init})) mod {node.step} = 0",) if readable(f))
    if node.step > 0:
        out += facts_of(node.cond)
    return out
