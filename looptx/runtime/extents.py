"""C integer extent expressions (`N + 2`, `((P4 * P5) * H1)`, `1 << K`) evaluated by a tree walker.

Extents, counts and offsets come from the user's file; they are evaluated with C's truncating
division, never with eval()."""
from __future__ import annotations

import ast
import re
from typing import Mapping

_INT_SUFFIX = re.compile(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]+\b")


class _Missing(Exception):
    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


def _c_div(a: int, b: int) -> int:
    if b == 0:
        raise ZeroDivisionError
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q   # C truncates toward zero


def _c_mod(a: int, b: int) -> int:
    return a - _c_div(a, b) * b


_COMPARE = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
            ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b}
_BINOPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
           ast.Mult: lambda a, b: a * b, ast.Div: _c_div, ast.FloorDiv: _c_div, ast.Mod: _c_mod,
           ast.LShift: lambda a, b: a << b, ast.RShift: lambda a, b: a >> b}


def eval_extent(text: str, env: Mapping[str, int]) -> int:
    """Value of a C integer extent expression (`N + 2`, `((P4 * P5) * H1)`, `1 << K`).

    Raises KeyError(name) for an unknown identifier and ValueError for anything that is not a
    plain integer expression."""
    src = _INT_SUFFIX.sub(r"\1", text.strip())
    try:
        tree = ast.parse(src, mode="eval")
    except SyntaxError:
        raise ValueError(f"'{text}' is not an integer expression") from None

    def walk(node) -> int:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int) \
                and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in env:
                raise _Missing(node.id)
            return int(env[node.id])
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = walk(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
            # a size chosen by a comparison (implied.py's `(m == 3) * (2) + (m != 3) * (1)`)
            return int(_COMPARE[type(node.ops[0])](walk(node.left), walk(node.comparators[0])))
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            a, b = walk(node.left), walk(node.right)
            if isinstance(node.op, ast.LShift) and b > 62:
                raise ValueError(f"'{text}' is too large")
            return _BINOPS[type(node.op)](a, b)
        raise ValueError(f"'{text}' is not an integer expression")

    try:
        return walk(tree)
    except _Missing as m:
        raise KeyError(m.name) from None
    except ZeroDivisionError:
        raise ValueError(f"'{text}' divides by zero") from None
