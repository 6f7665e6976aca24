"""`sizeof a / sizeof a[0]` (the ARRAY_SIZE idiom of embedded and DSP code, `sizeof taps /
sizeof *taps`) as the array's first extent: an integer constant of C's, which the model reads
as the extent itself (a number, or a #defined size)."""
from __future__ import annotations

import copy

from pycparser import c_ast

from looptx.frontend.symbols import all_nodes, c_text


_SIZE_T = c_ast.Typename(None, [], None, c_ast.TypeDecl(None, [], None, c_ast.IdentifierType(["unsigned", "long"])))


def _sized(n) -> str | None:
    """The name `sizeof x` or `sizeof(x)` measures, if it is a plain name."""
    if isinstance(n, c_ast.UnaryOp) and n.op == "sizeof" and isinstance(n.expr, c_ast.ID):
        return n.expr.name
    return None


def _element(n) -> str | None:
    """The name `sizeof x[0]` or `sizeof *x` measures an element of."""
    if not (isinstance(n, c_ast.UnaryOp) and n.op == "sizeof"):
        return None
    e = n.expr
    if isinstance(e, c_ast.ArrayRef) and isinstance(e.name, c_ast.ID) and isinstance(e.subscript, c_ast.Constant):
        return e.name.name
    if isinstance(e, c_ast.UnaryOp) and e.op == "*" and isinstance(e.expr, c_ast.ID):
        return e.expr.name
    return None


def _extents(ast) -> dict:
    """name -> the first extent's expression of each array the file or a function declares
    as an array (a parameter `double a[5]` is a pointer, whose sizeof is not the array's)."""
    params = {id(p) for f in ast.ext if isinstance(f, c_ast.FuncDef) and f.decl.type.args
              for p in f.decl.type.args.params}
    out: dict = {}
    for n in all_nodes(ast):
        if isinstance(n, c_ast.Decl) and id(n) not in params and isinstance(n.type, c_ast.ArrayDecl) \
                and n.type.dim is not None:
            # a name declared twice with other extents is not one array
            out[n.name] = n.type.dim if n.name not in out or c_text(out[n.name]) == c_text(n.type.dim) else None
    return {k: v for k, v in out.items() if v is not None}


def array_counts(ast) -> None:
    """Rewrites, in place, each `sizeof a / sizeof a[0]` of an array with a declared extent."""
    extents = None
    for n in all_nodes(ast):
        for attr in ("left", "right", "cond", "subscript", "expr", "rvalue", "init", "next"):
            e = getattr(n, attr, None)
            if not (isinstance(e, c_ast.BinaryOp) and e.op == "/"):
                continue
            name = _sized(e.left)
            if name is None or _element(e.right) != name:
                continue
            extents = _extents(ast) if extents is None else extents
            if name in extents:
                # a size_t, as C's sizeof gives: `i < N` then compares unsigned (frontend/int_types.py)
                setattr(n, attr, c_ast.Cast(_SIZE_T, copy.deepcopy(extents[name]), e.coord))
