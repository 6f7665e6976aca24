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
        for loop in (n for n in all_nodes(fdef.body) if isinstance(n, c_ast.For)):
            _past_zero_test(loop, _decls(fdef), typedefs)


def _bits(words: list[str], typedefs: dict) -> int | None:
    while len(words) == 1 and words[0] in typedefs:
        words = list(typedefs[words[0]])
    if set(words) & {"char", "short", "_Bool"} or not set(words) <= {"unsigned", "signed", "int", "long", "size_t"}:
        return None
    return 64 if set(words) & {"long", "size_t"} else 32


def _promoted(words: list[str], typedefs: dict) -> tuple[int, int, bool] | None:
    """(bits, bits after C's integer promotions, signed after them) of an integer type."""
    while len(words) == 1 and words[0] in typedefs:
        words = list(typedefs[words[0]])
    narrow = 8 if "char" in words else 16 if "short" in words else 0
    if narrow and set(words) <= {"unsigned", "signed", "char", "short", "int"}:
        return narrow, 32, True
    bits = _bits(words, typedefs)
    return None if bits is None else (bits, bits, not set(words) & UNSIGNED_WORDS and words != ["size_t"])


def _value(e, typedefs: dict) -> tuple[int, int, bool] | None:
    """(value, bits, unsigned) of an integer constant: `-1u`, `(size_t)-1`, `~0u`, `(unsigned short)-1`."""
    from looptx.frontend.affine import c_int_value
    if isinstance(e, c_ast.Constant) and e.type.endswith("int"):
        suffix = e.value.lower()[len(e.value.lower().rstrip("ul")):]
        v = c_int_value(e.value)
        # (a decimal constant too big for int is a long; a hex one, an unsigned int first)
        bits = 64 if "l" in suffix or v > 0xFFFFFFFF or v > 0x7FFFFFFF and not e.value.lower().startswith("0x") \
            and "u" not in suffix else 32
        return v, bits, "u" in suffix or (bits == 32 and v > 0x7FFFFFFF)
    if isinstance(e, c_ast.UnaryOp) and e.op in ("-", "~"):
        inner = _value(e.expr, typedefs)
        return None if inner is None else ((-inner[0] if e.op == "-" else ~inner[0]), *inner[1:])
    if isinstance(e, c_ast.Cast) and isinstance(e.to_type.type, c_ast.TypeDecl) \
            and isinstance(e.to_type.type.type, c_ast.IdentifierType):
        words = list(e.to_type.type.type.names)
        width, inner = _promoted(words, typedefs), _value(e.expr, typedefs)
        bits = None if width is None else width[0]
        return None if bits is None or inner is None else (inner[0], bits, bool(set(words) & UNSIGNED_WORDS)
                                                           or words == ["size_t"])
    return None


def _meets_wrap(const: tuple[int, int, bool], bits: int) -> bool:
    """Whether C's `i != const` of an unsigned counter of `bits` bits is false where it wraps
    past 0, to 2^bits - 1 (the usual conversions of the comparison)."""
    v, c, unsigned = const
    v %= 1 << c
    if not unsigned and v >= 1 << (c - 1):
        v -= 1 << c                     # its value as the signed type
    if c > bits and not unsigned:
        return v == (1 << bits) - 1     # the counter converts to the wider signed type
    return v % (1 << max(c, bits)) == (1 << bits) - 1


def _past_zero_test(loop, decls: dict, typedefs: dict) -> None:
    """`for (i = n - 1; i != (unsigned)-1; i--)` (also `-1u`, `UINT_MAX`, `(size_t)-1` at the
    counter's width): the unsigned counter stops where it wraps past 0, as `i < n` does."""
    cond, init, nxt = loop.cond, loop.init, loop.next
    if isinstance(cond, c_ast.BinaryOp) and cond.op == "!=" and isinstance(cond.right, c_ast.ID) \
            and not isinstance(cond.left, c_ast.ID):
        cond = c_ast.BinaryOp("!=", cond.right, cond.left, cond.coord)     # `UINT_MAX != i`
    if not (isinstance(cond, c_ast.BinaryOp) and cond.op == "!=" and isinstance(cond.left, c_ast.ID)):
        return
    it = cond.left.name
    down = isinstance(nxt, c_ast.UnaryOp) and nxt.op in ("p--", "--") and isinstance(nxt.expr, c_ast.ID) \
        and nxt.expr.name == it or isinstance(nxt, c_ast.Assignment) and nxt.op == "-=" \
        and isinstance(nxt.lvalue, c_ast.ID) and nxt.lvalue.name == it and _value(nxt.rvalue, typedefs) == (1, 32, False)
    if isinstance(init, c_ast.DeclList) and len(init.decls) == 1 and init.decls[0].name == it:
        start, decl = init.decls[0].init, init.decls[0]
    elif isinstance(init, c_ast.Assignment) and init.op == "=" and isinstance(init.lvalue, c_ast.ID) \
            and init.lvalue.name == it:
        start, decl = init.rvalue, decls.get(it)
    else:
        return
    t = getattr(decl, "type", None)
    # (an unsigned short or char counter too: `i != USHRT_MAX`, its `--i` at 0 stores 65535)
    width = _promoted(list(t.type.names), typedefs) if isinstance(t, c_ast.TypeDecl) \
        and isinstance(t.type, c_ast.IdentifierType) and _unsigned(decl, typedefs) else None
    bits = None if width is None else width[0]
    ones = _value(cond.right, typedefs)
    if not down or bits is None or ones is None or not _meets_wrap(ones, bits):
        return
    # only from `X - 1`: C converts X - 1 and X to the counter's type alike, (T)(X - 1) being
    # (T)X - 1, where X has no more bits than the counter and X - 1 is computed at the counter's
    # width or signed (an unsigned int X - 1 at 0 is 2^32 - 1, no wrap of a 64-bit counter; an
    # unsigned short X is promoted to int), so `!=` stops where `i < X` does: at X = 0 at once
    x = start.left if isinstance(start, c_ast.BinaryOp) and start.op == "-" \
        and _value(start.right, typedefs) == (1, 32, False) else None
    xt = getattr(decls.get(x.name), "type", None) if isinstance(x, c_ast.ID) else None
    width = _promoted(list(xt.type.names), typedefs) if isinstance(xt, c_ast.TypeDecl) \
        and isinstance(xt.type, c_ast.IdentifierType) else None
    if width is not None and width[0] <= bits and (width[2] or width[1] == bits):
        loop.cond = c_ast.BinaryOp("<", cond.left, copy.deepcopy(x), cond.coord)
