"""Lua's meaning of the expressions of a CUDA-CHiLL script, which looptx reads with Python's
parser (chill.py): `^` is a power, not Python's xor; a numeric string in arithmetic is its
number (`TI = "32"; TI*2` is 64); `..` joins the text of its operands (`"i" .. n`); numbers are
doubles, so `N/32` is an integer where it divides; the `math` library's functions and
`tonumber`/`tostring`; `and`/`or`, for which only nil and false are false.  chill_text.lua_tables writes `..` as `@` and `~=` as `!=` first."""
from __future__ import annotations

import ast
import copy
import re
from typing import Any, Callable, Mapping

from looptx.errors import LooptxError

_MATH = {"floor", "ceil", "min", "max", "abs", "sqrt"}


def _number(x: Any):
    """The number a Lua string converts to in arithmetic, or None."""
    if isinstance(x, bool) or not isinstance(x, (str, int, float)):
        return None
    if not isinstance(x, str):
        return x
    try:
        v = int(x.strip(), 0)
    except ValueError:
        try:
            v = float(x.strip())
        except ValueError:
            return None
    return v


def _text(x: Any) -> str | None:
    """The text Lua's `..` and tostring() give a value (`32` for the double 32.0)."""
    if isinstance(x, str):
        return x
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return repr(x)
    return None


def lua_semantics(node: ast.AST, bindings: Mapping[str, Any],
                  evaluate: Callable[[ast.AST], Any] | None = None) -> ast.AST:
    """`node` rewritten so that Python's evaluation of it gives Lua's value.  `evaluate`, where
    given, values an operand of `..` that is itself an expression (`"i" .. (N / 2)`), which Lua
    writes as `i32`, where Python's text of the double is `32.0`."""
    def known(x):
        """The value of an operand the script fixed (a constant, a name it assigned), or None."""
        if isinstance(x, ast.Constant):
            return x.value
        if isinstance(x, ast.Name) and x.id in bindings and isinstance(bindings[x.id], (str, int, float)):
            return bindings[x.id]
        return None

    def joined(x):
        v = known(x)
        if v is None and evaluate is not None and not isinstance(x, ast.Name):
            try:
                v = evaluate(x)
            except LooptxError:
                v = None    # refused where the whole expression is evaluated, with its position
        return _text(v)

    def arith(x):
        v = known(x)
        if isinstance(v, str):
            n = _number(v)
            if n is not None:
                return ast.copy_location(ast.Constant(n), x)
        return x

    def truthy(x):
        if isinstance(x, ast.Compare) or isinstance(x, ast.Constant) and isinstance(x.value, bool):
            return x
        return ast.BoolOp(ast.And(), [ast.Compare(x, [ast.IsNot()], [ast.Constant(None)]),
                                      ast.Compare(x, [ast.IsNot()], [ast.Constant(False)])])

    def str_call(x):
        return ast.Call(ast.Name("str", ast.Load()), [x], [])

    class Lua(ast.NodeTransformer):
        def visit_BinOp(self, n):
            self.generic_visit(n)
            if isinstance(n.op, ast.LShift):
                # `..`: joined as text; where both sides are known, as Lua writes numbers
                a, b = joined(n.left), joined(n.right)
                if a is not None and b is not None:
                    return ast.copy_location(ast.Constant(a + b), n)
                return ast.copy_location(ast.BinOp(str_call(n.left), ast.Add(), str_call(n.right)), n)
            n.left, n.right = arith(n.left), arith(n.right)
            return n

        def visit_UnaryOp(self, n):
            self.generic_visit(n)
            if isinstance(n.op, (ast.USub, ast.UAdd)):
                n.operand = arith(n.operand)
            if isinstance(n.op, ast.Not):
                return ast.copy_location(ast.UnaryOp(ast.Not(), truthy(n.operand)), n)
            return n

        def visit_BoolOp(self, n):
            # Lua's `x and a or b`: only nil and false are false (`0 and 8 or 32` is 8)
            self.generic_visit(n)
            out = n.values[0]
            for x in n.values[1:]:
                out = ast.IfExp(truthy(out), x, out) if isinstance(n.op, ast.And) else ast.IfExp(truthy(out), out, x)
            return ast.copy_location(out, n)

        def visit_Call(self, n):
            self.generic_visit(n)
            f = n.func
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "math" \
                    and f.attr in _MATH and len(n.args) >= 1:
                args = [arith(a) for a in n.args]
                if f.attr == "floor":
                    return ast.copy_location(ast.BinOp(args[0], ast.FloorDiv(), ast.Constant(1)), n)
                if f.attr == "ceil":
                    return ast.copy_location(ast.UnaryOp(ast.USub(), ast.BinOp(
                        ast.UnaryOp(ast.USub(), args[0]), ast.FloorDiv(), ast.Constant(1))), n)
                if f.attr == "sqrt":
                    return ast.copy_location(ast.BinOp(args[0], ast.Pow(), ast.Constant(0.5)), n)
                return ast.copy_location(ast.Call(ast.Name(f.attr, ast.Load()), args, []), n)
            if isinstance(f, ast.Name) and f.id == "tonumber" and len(n.args) == 1:
                v = known(n.args[0])
                num = _number(v) if v is not None else None
                return ast.copy_location(ast.Constant(num), n) if num is not None else n.args[0]
            if isinstance(f, ast.Name) and f.id == "tostring" and len(n.args) == 1:
                t = _text(known(n.args[0]))
                return ast.copy_location(ast.Constant(t), n) if t is not None else str_call(n.args[0])
            return n

    if not any(isinstance(x, (ast.BinOp, ast.UnaryOp, ast.Call, ast.BoolOp)) for x in ast.walk(node)):
        return node
    return ast.fix_missing_locations(Lua().visit(copy.deepcopy(node)))


def lua_value(v: Any, truncate: bool = False) -> Any:
    """A Lua number that is an integer (the double 32.0 of `N/32`) as the int CUDA-CHiLL's
    commands take (luaL_checkint), in lists and tables too; with `truncate`, any number, as
    those commands take it (luaL_checkint truncates toward zero: the 21.33 of `N/3` is 21), and
    a string that is a whole number as that number."""
    if isinstance(v, float) and (v.is_integer() or truncate and v == v and abs(v) != float("inf")):
        return int(v)
    if truncate and isinstance(v, str) and re.fullmatch(r"\s*-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*", v):
        return int(float(v))        # luaL_checkint reads a numeric string too (`"1" .. 6`, "4.9")
    if isinstance(v, list):
        return [lua_value(x, truncate) for x in v]
    if isinstance(v, dict):
        return {k: lua_value(x, truncate) for k, x in v.items()}
    return v


def python2_division(node: ast.AST, evaluate) -> ast.AST:
    """A CHiLL `.py` script is Python 2 (CHiLL embeds 2.7): `/` of two integers is their floor
    quotient (`TK/2` at TK = 7 is 3), of a float a true one.  `evaluate`: an operand's value."""
    class Py2(ast.NodeTransformer):
        def visit_BinOp(self, n):
            self.generic_visit(n)
            if isinstance(n.op, ast.Div):
                try:
                    whole = all(isinstance(evaluate(x), int) for x in (n.left, n.right))
                except Exception:  # noqa: BLE001 - the evaluation of the whole reports it
                    whole = False
                if whole:
                    n.op = ast.FloorDiv()
            return n
    return ast.fix_missing_locations(Py2().visit(copy.deepcopy(node)))


def integer_division(node: ast.AST) -> ast.AST:
    """CHiLL's `.script` language divides integers as C does, toward zero (`U = TI / 2` is 4 at
    TI = 8, `-U/2` is -3 at U = 7): `a / b` as `-(-a // b)` where the quotient is negative, and
    `a % b` with the dividend's sign (`-7 % 3` is -1)."""
    class Whole(ast.NodeTransformer):
        def visit_BinOp(self, n):
            self.generic_visit(n)
            if isinstance(n.op, ast.Div):
                floor = ast.BinOp(n.left, ast.FloorDiv(), n.right)
                up = ast.UnaryOp(ast.USub(), ast.BinOp(ast.UnaryOp(ast.USub(), n.left), ast.FloorDiv(), n.right))
                negative = ast.Compare(ast.BinOp(n.left, ast.Mult(), n.right), [ast.Lt()], [ast.Constant(0)])
                return ast.copy_location(ast.IfExp(negative, up, floor), n)
            if isinstance(n.op, ast.Mod):
                # C's remainder takes the dividend's sign: a - b * (a / b), the quotient truncated
                quotient = self.visit_BinOp(ast.BinOp(copy.deepcopy(n.left), ast.Div(), copy.deepcopy(n.right)))
                return ast.copy_location(ast.BinOp(n.left, ast.Sub(), ast.BinOp(n.right, ast.Mult(), quotient)), n)
            return n
    return ast.fix_missing_locations(Whole().visit(copy.deepcopy(node)))


# `TI, TJ = 32, 64`, Lua's `local a, b = 32, 64`
ASSIGN_MANY = re.compile(r"\s*(?:local\s+)?([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)+)\s*=(?!=)\s*(.+?)\s*;?\s*$", re.S)


def assign_many(ln, m, env: dict, fixed) -> None:
    """Each name of a multiple assignment gets its value (a chill._Line `ln`), as Lua or
    Python gives it; names the command line fixed keep theirs."""
    names = [x.strip() for x in m.group(1).split(",")]
    try:
        node = ast.parse(m.group(2), mode="eval").body
    except SyntaxError:
        raise ln.error(f"cannot read the values '{m.group(2)}'",
                       hint="assign numbers, strings or lists, e.g. TI, TJ = 32, 64") from None
    values = node.elts if isinstance(node, ast.Tuple) else [node]
    if len(values) != len(names) and not ln.lua:
        raise ln.error(f"{len(names)} names are assigned {len(values)} value{'s' if len(values) != 1 else ''}",
                       hint="give one value per name")
    # (Lua gives a name without a value nil, and drops a value without a name)
    for name, value in zip(names, values + [ast.Constant(None)] * (len(names) - len(values))):
        if name not in fixed:
            env[name] = ln.value(value)
