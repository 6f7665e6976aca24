"""Arguments that CHiLL reads as written rather than as values: the facts of `known(ambn > 0)`
(a relation on symbolic constants, in every dialect the same as `known('ambn > 0')`) and a
split's condition (`split(0,1,L1 < 5)`), and, in
the classic `.script` language, a bare array name (`datacopy(0,3,a,false,1)`).  Also the
forms of CHiLL commands that looptx spells as other steps (a skew whose own-loop coefficient is
not 1 is a scale)."""
from __future__ import annotations

import ast
from typing import Any, Mapping

from looptx.errors import note_once

# where each command takes an array's name, by its number of arguments (None: any number);
# the alias names (scalar_replace) are the command's as the script writes it
_ARRAY_AT = {
    "datacopy": lambda args: 2,
    "registers": lambda args: 2,
    "scalar_replace": lambda args: 2,
    "copy_to_registers": lambda args: 2 if len(args) >= 3 else 1,
    "copy_to_shared": lambda args: 2 if args and isinstance(args[0], ast.Constant) else 1,
}


def classic(file: str, text: str) -> bool:
    """The classic command language (CHiLL's `.script` files, with their `source:` header),
    whose grammar reads a bare name where Python or Lua would look up a variable."""
    from looptx.recipe.schema import CHILL_HEADER
    if file.endswith(".script"):
        return True
    first = next((ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")), "")
    return bool(CHILL_HEADER.fullmatch(first))


def as_written(name: str, tree: ast.Call, env: Mapping[str, Any], lua_literals, is_classic: bool) -> ast.Call:
    """`tree` with the arguments CHiLL reads as text made string constants.  A name the script
    assigned keeps its value (`N = 64` then `known(N > 0)` is the fact 64 > 0)."""
    args = list(tree.args)
    if name in ("known", "assume"):
        args = [_fact(a, env) for a in args]
    elif name == "split" and len(args) >= 3 and isinstance(args[2], ast.Compare):
        # split(0,1,L1 < 5): the condition on the loop level, as known's facts are relations
        args[2] = _fact(args[2], env)
    elif is_classic and name in _ARRAY_AT and args:
        at = _ARRAY_AT[name](args)
        if at < len(args):
            node = args[at]
            if isinstance(node, ast.Name) and node.id not in env and node.id not in lua_literals:
                args[at] = ast.copy_location(ast.Constant(node.id), node)
    if args == list(tree.args):
        return tree
    return ast.copy_location(ast.Call(func=tree.func, args=args, keywords=tree.keywords), tree)


def _fact(node, env: Mapping[str, Any]):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return ast.copy_location(ast.List(elts=[_fact(e, env) for e in node.elts], ctx=ast.Load()), node)
    if isinstance(node, ast.Name) and isinstance(env.get(node.id), (str, list)):
        return node                 # a variable holding the fact(s) as text: its value is the fact
    if not isinstance(node, (ast.Compare, ast.BoolOp)) and not (
            isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
        return node                 # not a relation: evaluated, and refused, as before
    return ast.copy_location(ast.Constant(ast.unparse(_Bound(env).visit(node))), node)


class _Bound(ast.NodeTransformer):
    """A relation's names with the script's numeric variables replaced by their values; the
    other names are the region's parameters."""

    def __init__(self, env: Mapping[str, Any]):
        self.env = env

    def visit_Name(self, node):
        value = self.env.get(node.id)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return ast.copy_location(ast.Constant(value), node)
        return node


def skew_list(ln, stmt, level, by: list) -> list[tuple[str, dict]]:
    """CHiLL's skew(stmts, level, [a1..a_level]): the new index of `level` is sum(a_l * i_l).
    A last coefficient k other than 1 scales the loop by k first (CHiLL's test_skew:
    skew([1],1,[4]) is scale([1],1,4))."""
    form = "skew([0],2,[1,1]): one coefficient for each loop level 1..level, the last for the loop itself"
    if not isinstance(level, int) or isinstance(level, bool) or len(by) != level \
            or not all(isinstance(c, int) and not isinstance(c, bool) for c in by):
        raise ln.error("skew with a coefficient list needs the loop level and one integer coefficient "
                       "for each level up to it", hint=f"write {form}")
    own = by[-1]
    if own == 0:
        raise ln.error("skew: the loop's own coefficient (the list's last) is 0, which collapses the loop",
                       hint=f"write {form}; a non-zero last coefficient k scales the loop by k")
    steps: list[tuple[str, dict]] = []
    rest = {lvl + 1: c for lvl, c in enumerate(by[:-1]) if c}
    if own != 1:
        steps.append(("scale", {"stmt": stmt, "loop": level, "by": own}))
        note_once(ln.file, ln.line, f"skew's last coefficient {own} scales loop level {level}: read as "
                                    f"scale(..,{level},{own})" + (", then the skew by the other coefficients"
                                                                  if rest else ""), per_line=True)
    if rest or not steps:
        steps.append(("skew", {"stmt": stmt, "loop": level, "by": rest}))
    return steps
