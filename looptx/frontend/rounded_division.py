"""Rounded divisions as code generators print them, so that their output can be a region:
Pluto's, PPCG's and CLooG's `floord(n,d)` / `ceild(n,d)` macros, which expand to
`(((n)<0) ? -((-(n)+(d)-1)/(d)) : (n)/(d))`, or to `floor(((double)(n))/((double)(d)))`.

Each is floor(n/d) (ceil(n/d)) for a positive constant d, which the model writes exactly.  A
ternary is taken as one when, with n standing for the expression its condition compares with
0, it computes that value for every n over several periods of d by C's own rules (division
rounds toward zero), so every spelling of the macro is recognized and nothing else is."""
from __future__ import annotations

from pycparser import c_ast, c_generator

_GEN = c_generator.CGenerator()
_FLOOR = ("floor", "floorf", "floorl")
_CEIL = ("ceil", "ceilf", "ceill")


def _text(n) -> str:
    return _GEN.visit(n)


def _int_constant(n) -> int | None:
    while isinstance(n, c_ast.Cast):
        n = n.expr
    if isinstance(n, c_ast.Constant) and n.type in ("int", "long int", "unsigned int") \
            and n.value.rstrip("uUlL").isdigit():
        return int(n.value.rstrip("uUlL"))
    return None


def _divisor(node) -> int | None:
    """The positive constant some `/` under `node` divides by."""
    for _, ch in node.children():
        if isinstance(ch, c_ast.BinaryOp) and ch.op == "/":
            d = _int_constant(ch.right)
            if d is not None and d > 0:
                return d
        d = _divisor(ch)
        if d is not None:
            return d
    return None


class _Unknown(Exception):
    pass


def _value(n, x_text: str, x: int) -> int:
    """`n` with the subtree spelled `x_text` taken as x, by C's integer rules."""
    if _text(n) == x_text:
        return x
    if isinstance(n, c_ast.Cast):
        return _value(n.expr, x_text, x)
    c = _int_constant(n)
    if c is not None:
        return c
    if isinstance(n, c_ast.UnaryOp) and n.op in ("-", "+", "!"):
        v = _value(n.expr, x_text, x)
        return -v if n.op == "-" else v if n.op == "+" else int(not v)
    if isinstance(n, c_ast.TernaryOp):
        return _value(n.iftrue if _value(n.cond, x_text, x) else n.iffalse, x_text, x)
    if isinstance(n, c_ast.BinaryOp):
        a, b = _value(n.left, x_text, x), _value(n.right, x_text, x)
        if n.op in ("/", "%"):
            if b == 0:
                raise _Unknown
            q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
            return q if n.op == "/" else a - q * b
        ops = {"+": a + b, "-": a - b, "*": a * b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b,
               "==": a == b, "!=": a != b}
        if n.op in ops:
            return int(ops[n.op])
    raise _Unknown


def of_ternary(node: c_ast.TernaryOp):
    """('floor' | 'ceil', n, d) where `node` is a rounded division of n by the constant d."""
    c = node.cond
    if not (isinstance(c, c_ast.BinaryOp) and c.op in ("<", "<=", ">", ">=")):
        return None
    if _int_constant(c.right) == 0:
        x = c.left
    elif _int_constant(c.left) == 0:
        x = c.right
    else:
        return None
    d = _divisor(node)
    if d is None:
        return None
    x_text = _text(x)
    try:
        got = [(n, _value(node, x_text, n)) for n in range(-3 * d - 1, 3 * d + 2)]
    except _Unknown:
        return None
    for fn, want in (("floor", lambda n: n // d), ("ceil", lambda n: -(-n // d))):
        if all(v == want(n) for n, v in got):
            return fn, x, d
    return None


def of_call(node: c_ast.FuncCall):
    """('floor' | 'ceil', n, d) of `floor(((double)(n))/((double)(d)))` with d a positive
    constant: the quotient of two integers, exact in a double for every int n."""
    name = node.name.name if isinstance(node.name, c_ast.ID) else ""
    args = node.args.exprs if node.args else []
    if name not in _FLOOR + _CEIL or len(args) != 1:
        return None
    q = args[0]
    if not (isinstance(q, c_ast.BinaryOp) and q.op == "/" and isinstance(q.left, c_ast.Cast)):
        return None
    d = _int_constant(q.right)
    if d is None or d <= 0:
        return None
    return ("floor" if name in _FLOOR else "ceil"), q.left.expr, d


def _remainder_operands(node, d: int):
    """The left operands of the `%` by d under `node` (looptx's own lx_floord is
    `(n - ((n % d + d) % d)) / d`), innermost last."""
    for _, ch in node.children():
        if isinstance(ch, c_ast.BinaryOp) and ch.op == "%" and _int_constant(ch.right) == d:
            yield ch.left
        yield from _remainder_operands(ch, d)


def of_division(node: c_ast.BinaryOp):
    """('floor' | 'mod', n, d) where a `/` or `%` by the positive constant d computes floor(n/d)
    or n mod d for every n by C's own rules, though C's `/` and `%` round toward zero: the
    floored remainder `(n % d + d) % d` and the quotient built from it, as looptx's own output
    spells floord.  Checked over several periods of d, as a ternary is."""
    d = _int_constant(node.right)
    if node.op not in ("/", "%") or d is None or d <= 0:
        return None
    fn, want = ("floor", lambda n: n // d) if node.op == "/" else ("mod", lambda n: n % d)
    for x in _remainder_operands(node, d):
        x_text = _text(x)
        try:
            if all(_value(node, x_text, n) == want(n) for n in range(-3 * d - 1, 3 * d + 2)):
                return fn, x, d
        except _Unknown:
            continue
    return None
