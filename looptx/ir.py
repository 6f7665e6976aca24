"""Immutable C expression IR for statement bodies, shared by the front end and the printers.

Statement bodies never change under loop transformations; printers only substitute iterators
and array subscripts, so the IR stays close to the source (number spellings are kept).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Callable


# An index of a read through an index array (`x[cols[k]]`) in the model's access texts: any
# element, `lx_g<ref>_<dim>`; the printed subscript is the statement's own expression.
GATHERED = "lx_g"


GATHERED_REF = -2       # a code generator's reference that stands for such a read


def is_gathered(index_text: str) -> bool:
    return index_text.startswith(GATHERED)


class Expr:
    __slots__ = ()


@dataclass(frozen=True)
class Num(Expr):
    text: str                    # spelling from the source, e.g. "0.5f", "2", "1e-3"
    spelled: str | None = field(default=None, compare=False)   # the macro use it came from, `SCALAR_VAL(0.5)` (see frontend/spelling)


@dataclass(frozen=True)
class Var(Expr):
    name: str


@dataclass(frozen=True)
class Ref(Expr):
    """An array (or scalar, with no index) reference; `ref` is the Access id in the Scop."""
    array: str
    ref: int
    index: tuple[Expr, ...] = ()


@dataclass(frozen=True)
class Bin(Expr):
    op: str
    a: Expr
    b: Expr


@dataclass(frozen=True)
class Un(Expr):
    op: str                      # '-', '+', '!', '~'
    a: Expr


@dataclass(frozen=True)
class Call(Expr):
    fn: str
    args: tuple[Expr, ...]
    spelled: str | None = field(default=None, compare=False)   # the macro the user called it by, `SQRT_FUN`


@dataclass(frozen=True)
class Cond(Expr):
    c: Expr
    a: Expr
    b: Expr


@dataclass(frozen=True)
class Cast(Expr):
    ctype: str
    a: Expr
    spelled: str | None = field(default=None, compare=False)   # the macro that names the type, `DATA_TYPE`


@dataclass(frozen=True)
class Assign(Expr):
    op: str                      # '=', '+=', '-=', '*=', '/=', ...
    lhs: Expr
    rhs: Expr


# C operator precedence (higher binds tighter) and associativity for the printer.
PRECEDENCE = {
    ",": 1, "=": 2, "?:": 3, "||": 4, "&&": 5, "|": 6, "^": 7, "&": 8,
    "==": 9, "!=": 9, "<": 10, "<=": 10, ">": 10, ">=": 10, "<<": 11, ">>": 11,
    "+": 12, "-": 12, "*": 13, "/": 13, "%": 13, "unary": 14, "postfix": 15, "atom": 16,
}


def _prec(e: Expr) -> int:
    if isinstance(e, Bin):
        return PRECEDENCE[e.op]
    if isinstance(e, (Un, Cast)):
        return PRECEDENCE["unary"]
    if isinstance(e, Cond):
        return PRECEDENCE["?:"]
    if isinstance(e, Assign):
        return PRECEDENCE["="]
    if isinstance(e, Num) and e.text.startswith("-"):
        return PRECEDENCE["unary"]
    return PRECEDENCE["atom"]


_COMPARE = {"==", "!=", "<", "<=", ">", ">="}
_BITWISE = {"&", "|", "^"}


def _unclear(op: str, x: Expr) -> bool:
    """Parentheses that C's precedence does not need but gcc -Wparentheses asks for (and the
    user wrote: OpenCV's CV_DESCALE `(x + (1 << (n-1))) >> n`, pnpoly's `(a > b) != (c > d)`)."""
    if not op or not isinstance(x, Bin):
        return False
    if op in ("<<", ">>"):
        return x.op in ("+", "-")
    if op in _COMPARE:
        return x.op in _COMPARE
    if op == "||":
        return x.op == "&&"
    if op in _BITWISE:
        return x.op in ("+", "-") or x.op in _COMPARE or x.op in _BITWISE and x.op != op
    return False


def to_c(e: Expr, ref: Callable[[Ref], str] | None = None,
         var: Callable[[str], str | None] | None = None, spelled: bool = False) -> str:
    """Print with the fewest parentheses C's precedence allows.

    `ref` prints an array reference (the caller decides subscripts); `var` may replace a
    variable by already-printed text (parenthesised by the caller if needed); `spelled` prints
    macro uses as the user wrote them, for code that goes back into the user's file."""
    def p(x: Expr, need: int, right: bool = False, op: str = "") -> str:
        s = go(x)
        px = _prec(x)
        if px < need or (right and px == need and isinstance(x, Bin)) or _unclear(op, x):
            return f"({s})"
        return s

    def go(x: Expr) -> str:
        if isinstance(x, Num):
            return x.spelled if spelled and x.spelled else x.text
        if isinstance(x, Var):
            if var is not None:
                s = var(x.name)
                if s is not None:
                    return s
            return x.name
        if isinstance(x, Ref):
            if ref is not None:
                return ref(x)
            return x.array + "".join(f"[{go(i)}]" for i in x.index)
        if isinstance(x, Bin):
            q = PRECEDENCE[x.op]
            return f"{p(x.a, q, op=x.op)} {x.op} {p(x.b, q, right=True, op=x.op)}"
        if isinstance(x, Un):
            inner = p(x.a, PRECEDENCE["unary"])
            if x.op in ("-", "+") and inner.startswith(x.op):
                inner = f"({inner})"
            return f"{x.op}{inner}"
        if isinstance(x, Cast):
            return f"({x.spelled if spelled and x.spelled else x.ctype}){p(x.a, PRECEDENCE['unary'])}"
        if isinstance(x, Call):
            return f"{x.spelled if spelled and x.spelled else x.fn}({', '.join(go(a) for a in x.args)})"
        if isinstance(x, Cond):
            q = PRECEDENCE["?:"]
            return f"{p(x.c, q + 1)} ? {p(x.a, q)} : {p(x.b, q)}"
        if isinstance(x, Assign):
            return f"{go(x.lhs)} {x.op} {go(x.rhs)}"
        raise TypeError(f"not an expression: {x!r}")

    return go(e)


def map_up(e: Expr, f: Callable[[Expr], Expr]) -> Expr:
    """`e` rebuilt bottom-up: f applied to each node once its operands are mapped."""
    changes = {}
    for fld in fields(e):
        x = getattr(e, fld.name)
        if isinstance(x, Expr):
            changes[fld.name] = map_up(x, f)
        elif isinstance(x, tuple) and any(isinstance(y, Expr) for y in x):
            changes[fld.name] = tuple(map_up(y, f) if isinstance(y, Expr) else y for y in x)
    return f(replace(e, **changes) if changes else e)


def walk(e: Expr):
    """Pre-order traversal."""
    yield e
    if isinstance(e, Ref):
        for i in e.index:
            yield from walk(i)
    elif isinstance(e, Bin):
        yield from walk(e.a)
        yield from walk(e.b)
    elif isinstance(e, (Un, Cast)):
        yield from walk(e.a)
    elif isinstance(e, Call):
        for a in e.args:
            yield from walk(a)
    elif isinstance(e, Cond):
        yield from walk(e.c)
        yield from walk(e.a)
        yield from walk(e.b)
    elif isinstance(e, Assign):
        yield from walk(e.lhs)
        yield from walk(e.rhs)


def same_apart_from_refs(a: Expr, b: Expr) -> bool:
    """Equal expressions apart from the access numbers of their references (`x[i]` read twice
    is two accesses of one value)."""
    strip = lambda e: map_up(e, lambda x: replace(x, ref=0) if isinstance(x, Ref) else x)
    return strip(a) == strip(b)


def floating(e: Expr, ctype_of: Callable[[str], str | None]) -> bool:
    """Whether C evaluates `e` in a floating type (C's usual conversions; `ctype_of` gives a
    variable's element type, None when unknown): a literal with a point or exponent, a
    float/double variable or cast, a math call other than the integer abs family."""
    if isinstance(e, Num):
        t = e.text.lower()
        return not t.startswith("0x") and ("." in t or "e" in t or t.endswith("f"))
    if isinstance(e, Ref):
        return any(w in (ctype_of(e.array) or "") for w in ("float", "double"))
    if isinstance(e, Cast):
        return any(w in e.ctype for w in ("float", "double"))
    if isinstance(e, Call):
        return not e.fn.endswith("abs") or e.fn.startswith("f")
    if isinstance(e, Bin) and e.op in ("+", "-", "*", "/"):
        return floating(e.a, ctype_of) or floating(e.b, ctype_of)
    if isinstance(e, Un) and e.op in ("-", "+"):
        return floating(e.a, ctype_of)
    if isinstance(e, Cond):
        return floating(e.a, ctype_of) or floating(e.b, ctype_of)
    return False
