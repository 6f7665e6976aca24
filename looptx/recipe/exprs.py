"""Affine expressions and facts written in recipes (`split at: N/2`, `known: N % 16 == 0`),
translated to isl syntax.  Parsed with Python's `ast` (parsing only, never evaluated)."""
from __future__ import annotations

import ast
from typing import Callable

from looptx.errors import RecipeError
from looptx.frontend.names import to_model

_CMP = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "=", ast.NotEq: "!="}


def _c_to_py(text: str) -> str:
    return (text.replace("&&", " and ").replace("||", " or ")
            .replace("!=", "\0").replace("!", " not ").replace("\0", "!="))


def to_isl(text: str, name: Callable[[str], str], *, condition: bool = False) -> str:
    """`name(identifier)` returns the isl text for a loop or parameter name (or raises)."""
    try:
        tree = ast.parse(_c_to_py(str(text)).strip(), mode="eval").body
    except SyntaxError:
        raise RecipeError(f"cannot parse expression '{text}'",
                          hint="write an affine expression such as N/2 or ii*32 + 8") from None
    except (RecursionError, MemoryError):
        raise _too_deep(text) from None

    def go(n) -> str:
        if isinstance(n, ast.Constant) and isinstance(n.value, int) and not isinstance(n.value, bool):
            return str(n.value)
        if isinstance(n, ast.Name):
            return name(to_model(n.id))
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.USub, ast.UAdd)):
            return f"{'-' if isinstance(n.op, ast.USub) else ''}({go(n.operand)})"
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
            return _negate(n.operand)
        if isinstance(n, ast.BinOp):
            a, b = go(n.left), go(n.right)
            if isinstance(n.op, ast.Add):
                return f"({a}) + ({b})"
            if isinstance(n.op, ast.Sub):
                return f"({a}) - ({b})"
            if isinstance(n.op, ast.Mult):
                if not (a.lstrip("-").isdigit() or b.lstrip("-").isdigit()):
                    raise RecipeError(f"'{text}' multiplies '{ast.unparse(n.left)}' by "
                                      f"'{ast.unparse(n.right)}': not an affine expression",
                                      hint="multiply loops and sizes by integer constants only")
                return f"{a}*({b})" if a.lstrip("-").isdigit() else f"{b}*({a})"
            if isinstance(n.op, (ast.Div, ast.FloorDiv, ast.Mod)):
                if not b.lstrip("-").isdigit():
                    raise RecipeError(f"'{text}' divides by '{b}', which is not an integer constant",
                                      hint="divide only by integer constants")
                return f"floor(({a})/{b})" if not isinstance(n.op, ast.Mod) else f"({a}) mod {b}"
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("min", "max") \
                and len(n.args) >= 2:
            out = go(n.args[0])
            for a in n.args[1:]:
                out = f"{n.func.id}({out}, {go(a)})"
            return out
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("floord", "ceild") \
                and len(n.args) == 2:
            fn = "floor" if n.func.id == "floord" else "ceil"
            b = go(n.args[1])
            if not b.lstrip("-").isdigit() or int(b) == 0:
                raise RecipeError(f"'{text}' divides by '{ast.unparse(n.args[1])}', which is not a non-zero integer "
                                  "constant", hint="divide only by integer constants")
            # isl reads a division by a number, not by a parenthesised one
            return f"{fn}(({go(n.args[0])})/{b})"
        if condition and isinstance(n, ast.Compare):
            parts, left = [], go(n.left)
            for op, right in zip(n.ops, n.comparators):
                r = go(right)
                if type(op) not in _CMP:
                    break
                sym = _CMP[type(op)]
                parts.append(f"(({left}) < ({r}) or ({left}) > ({r}))" if sym == "!=" else f"({left}) {sym} ({r})")
                left = r
            else:
                return " and ".join(parts)
        if condition and isinstance(n, ast.BoolOp):
            op = " and " if isinstance(n.op, ast.And) else " or "
            return "(" + op.join(go(v) for v in n.values) + ")"
        raise RecipeError(f"'{text}' is not an affine expression",
                          hint="use + - * / % min max with integers, parameters and loop names")

    def _negate(n) -> str:
        if isinstance(n, ast.Compare) and len(n.ops) == 1:
            flip = {ast.Lt: ast.GtE, ast.LtE: ast.Gt, ast.Gt: ast.LtE, ast.GtE: ast.Lt,
                    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}[type(n.ops[0])]
            return go(ast.Compare(n.left, [flip()], n.comparators))
        raise RecipeError(f"cannot negate '{ast.unparse(n)}'", hint="write the comparison directly")

    try:
        out = go(tree)
    except RecursionError:
        raise _too_deep(text) from None
    if condition and not isinstance(tree, (ast.Compare, ast.BoolOp, ast.UnaryOp)):
        raise RecipeError(f"'{text}' is not a condition", hint="write a comparison such as N >= 16")
    return out


def _too_deep(text: str) -> RecipeError:
    return RecipeError(f"expression '{str(text)[:40]}...' is nested too deeply",
                       hint="write an affine expression such as N/2 or ii*32 + 8")
