"""The count-down idiom of unsigned counters, `for (unsigned i = n; i-- > 0; )` (also `i-- != 0`,
`0 < i--` and a bare `i--`): the body sees n - 1 down to 0, and i ends at the value the test
of 0 leaves, -1 (wrapped for an unsigned type).  It is rewritten, in place, as the loop with a
step, `for (i = n - 1; i >= 0; i--)` for a signed counter and `for (i = n - 1; i < n; i--)` for
an unsigned one (its wrap past 0 ends it, as looptx reads C's unsigned loops): the same values
in the body and after the loop."""
from __future__ import annotations

import copy

from pycparser import c_ast

from looptx.frontend.symbols import UNSIGNED_WORDS, all_nodes, id_names


def _post_decremented(cond) -> str | None:
    """i of `i-- > 0`, `i-- != 0`, `0 < i--`, `0 != i--` or `i--`."""
    def dec(e):
        return e.expr.name if isinstance(e, c_ast.UnaryOp) and e.op == "p--" and isinstance(e.expr, c_ast.ID) else None

    def zero(e):
        return isinstance(e, c_ast.Constant) and e.value.rstrip("uUlL") in ("0", "0x0")
    if dec(cond):
        return dec(cond)
    if isinstance(cond, c_ast.BinaryOp):
        if cond.op in (">", "!=") and dec(cond.left) and zero(cond.right):
            return dec(cond.left)
        if cond.op in ("<", "!=") and zero(cond.left) and dec(cond.right):
            return dec(cond.right)
    return None


def _decls(fdef: c_ast.FuncDef) -> dict:
    params = fdef.decl.type.args.params if fdef.decl.type.args else []
    return {d.name: d for d in [*params, *all_nodes(fdef.body)] if isinstance(d, c_ast.Decl) and d.name}


def _unsigned(decl, typedefs: dict) -> bool | None:
    """Whether a counter's declared type is unsigned; None where it is not a plain integer."""
    t = decl.type
    if not (isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType)):
        return None
    words = list(t.type.names)
    while len(words) == 1 and words[0] in typedefs:
        words = list(typedefs[words[0]])
    return bool(set(words) & UNSIGNED_WORDS)


def countdowns_with_steps(ast, typedefs: dict) -> None:
    for fdef in (e for e in ast.ext if isinstance(e, c_ast.FuncDef)):
        decls = None
        for loop in (n for n in all_nodes(fdef.body) if isinstance(n, c_ast.For)):
            it = _post_decremented(loop.cond) if loop.next is None else None
            if it is None:
                continue
            init = loop.init
            if isinstance(init, c_ast.DeclList) and len(init.decls) == 1 and init.decls[0].name == it \
                    and init.decls[0].init is not None:
                start, decl = init.decls[0].init, init.decls[0]
            elif isinstance(init, c_ast.Assignment) and init.op == "=" and isinstance(init.lvalue, c_ast.ID) \
                    and init.lvalue.name == it:
                decls = _decls(fdef) if decls is None else decls
                start, decl = init.rvalue, decls.get(it)
            else:
                continue
            unsigned = _unsigned(decl, typedefs) if decl is not None else None
            # the start is read again in the test: it must not change in the body
            written = {x.lvalue.name for x in all_nodes(loop.stmt) if isinstance(x, c_ast.Assignment)
                       and isinstance(x.lvalue, c_ast.ID)} | \
                {x.expr.name for x in all_nodes(loop.stmt) if isinstance(x, c_ast.UnaryOp)
                 and x.op in ("++", "--", "p++", "p--") and isinstance(x.expr, c_ast.ID)}
            if unsigned is None or it in written or (unsigned and id_names(start) & written) \
                    or any(isinstance(x, c_ast.FuncCall) for x in all_nodes(start)):
                continue
            first = c_ast.BinaryOp("-", copy.deepcopy(start), c_ast.Constant("int", "1"), loop.coord)
            if isinstance(init, c_ast.DeclList):
                init.decls[0].init = first
            else:
                init.rvalue = first
            ref = c_ast.ID(it, loop.coord)
            loop.cond = c_ast.BinaryOp("<", ref, copy.deepcopy(start), loop.coord) if unsigned else \
                c_ast.BinaryOp(">=", ref, c_ast.Constant("int", "0"), loop.coord)
            loop.next = c_ast.UnaryOp("p--", c_ast.ID(it, loop.coord), loop.coord)
