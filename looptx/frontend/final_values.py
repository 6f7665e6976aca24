"""The values a region's loops leave in the function's own loop variables.

`int i; for (i = 0; i < n; i++) ...` leaves i == n (or 0 when n < 0) for the code after the
region.  The generated loops declare their own iterators, so when the function may read such a
variable after the region, the output runs the region's loop headers again with empty bodies:
the same headers over the same sizes give the same values, whatever the recipe did to the
loops (a compiler folds empty loops with affine bounds to their final values).
"""
from __future__ import annotations

import re

from pycparser import c_ast, c_generator

from looptx.frontend.escape import LOOPS, _walk
from looptx.frontend.regions import SourceText


def _own_iterator(node: c_ast.For) -> str | None:
    """The function's variable a loop counts with (None for `for (int i = ...)`)."""
    init = node.init
    if isinstance(init, c_ast.Assignment) and isinstance(init.lvalue, c_ast.ID):
        return init.lvalue.name
    return None


def _assigned_first(fdef: c_ast.FuncDef, name: str, hi, where) -> bool:
    """Whether the first use of `name` after the region assigns it without reading it (`i = 0`,
    `for (i = 0; ...)`), so that the value the region leaves is never read."""
    parents = {}
    first = None
    for n, parent in _walk(fdef.body):
        parents[id(n)] = parent
        if isinstance(n, c_ast.ID) and n.name == name and where(n) >= hi \
                and not (isinstance(parent, c_ast.StructRef) and parent.field is n):
            if first is None or where(n) < where(first):
                first = n
    if first is None:
        return True
    parent = parents[id(first)]
    if not (isinstance(parent, c_ast.Assignment) and parent.op == "=" and parent.lvalue is first):
        return False
    return not any(isinstance(m, c_ast.ID) and m.name == name for m, _ in _walk(parent.rvalue))


def _inside_a_loop(fdef: c_ast.FuncDef, items: list) -> bool:
    inside = {id(m) for it in items for m, _ in _walk(it)}
    return any(isinstance(n, LOOPS) and id(n) not in inside and any(id(m) == id(items[0]) for m, _ in _walk(n))
               for n, _ in _walk(fdef.body))


def needed_iterators(fdef: c_ast.FuncDef, items: list, live: dict, hi, where) -> set[str]:
    """The function's own variables that the region's loops count with and that the function
    may read after the region (`live`: name -> why, from escape.dead_after)."""
    own = {_own_iterator(n) for it in items for n, _ in _walk(it) if isinstance(n, c_ast.For)} - {None}
    # declared in the region: a later read makes it a variable the output declares before the
    # region's block (and `live` then has it); otherwise nothing after the region sees it
    declared = {n.name for it in items for n, _ in _walk(it) if isinstance(n, c_ast.Decl)}
    around = _inside_a_loop(fdef, items)
    needed = set()
    for name in own:
        if name not in live:
            if name not in declared:
                needed.add(name)    # a global: other functions may read it
            continue
        why = live[name][0]
        if why.endswith("value outlives the call") and _counter_only(fdef, items, name):
            continue
        # only a use after the region can be a plain assignment that discards the value (an
        # address taken, a static, a goto, a loop around the region keep it)
        if why and (around or not why.endswith("after the region")
                    or not _assigned_first(fdef, name, hi, where)):
            needed.add(name)
    return needed


def _counter_only(fdef: c_ast.FuncDef, items: list, name: str) -> bool:
    """f2c's `static integer i, j;`: a static the function uses only as the counter of the
    region's loops, inside them, whose value no call reads (each sets it before reading it),
    and whose address it does not take."""
    region = {id(m) for it in items for m, _ in _walk(it)}
    counted: set[int] = set()           # nodes inside a loop that counts with `name`
    for it in items:
        for n, _ in _walk(it):
            if isinstance(n, c_ast.For) and _own_iterator(n) == name:
                counted |= {id(m) for m, _ in _walk(n)}
    for n, parent in _walk(fdef.body):
        if isinstance(n, c_ast.ID) and n.name == name and not (isinstance(parent, c_ast.StructRef)
                                                               and parent.field is n):
            if id(n) not in region or id(n) not in counted or \
                    isinstance(parent, c_ast.UnaryOp) and parent.op == "&":
                return False
    return True


class _Header:
    """The text of a loop or if header as the user wrote it (macros and all)."""

    def __init__(self, src: SourceText, blanked: str, where, gone=frozenset()):
        self.src, self.blanked, self.where = src, blanked, where
        # temporaries the front end put into their uses and dropped (f2c's bound `i__2 = *m;`,
        # `int lim = m;` in the outer loop's body): a header as written would read them
        self.gone = re.compile(r"(?<![\w.])(?:" + "|".join(map(re.escape, sorted(gone))) + r")(?!\w)") \
            if gone else None

    def __call__(self, node, keyword: str) -> str:
        text = self.blanked
        line, col = self.where(node)
        at = self.src.offset(line, col) if line >= 1 else -1
        if at >= 0 and text.startswith(keyword, at):
            k = at + len(keyword)
            while k < len(text) and text[k].isspace():
                k += 1
            if k < len(text) and text[k] == "(":
                depth = 0
                for e in range(k, len(text)):
                    depth += {"(": 1, ")": -1}.get(text[e], 0)
                    if depth == 0:
                        written = f"{keyword} " + " ".join(self.src.text[k:e + 1].split())
                        if self.gone is None or not self.gone.search(written):
                            return written
                        break
        # a header the source does not show (from a macro): as the preprocessor left it
        gen = c_generator.CGenerator()
        if keyword == "for":
            return f"for ({gen.visit(node.init)}; {gen.visit(node.cond)}; {gen.visit(node.next)})"
        return f"if ({gen.visit(node.cond)})"


def _skeleton(node, needed: set[str], header: _Header) -> list[str] | None:
    if isinstance(node, c_ast.For):
        inner = _skeleton(node.stmt, needed, header)
        if inner is None and _own_iterator(node) not in needed:
            return None
        head = header(node, "for")
        return [head + " {"] + ["  " + ln for ln in inner] + ["}"] if inner else [head, "  ;"]
    if isinstance(node, c_ast.Compound):
        parts = [_skeleton(c, needed, header) for c in node.block_items or []]
        out = [ln for p in parts if p for ln in p]
        return out or None
    if isinstance(node, c_ast.If):
        then = _skeleton(node.iftrue, needed, header)
        other = _skeleton(node.iffalse, needed, header) if node.iffalse is not None else None
        if then is None and other is None:
            return None
        out = [header(node, "if") + " {"] + ["  " + ln for ln in then or []] + ["}"]
        if other:
            out[-1] += " else {"
            out += ["  " + ln for ln in other] + ["}"]
        return out
    return None


def final_value_lines(fdef, items: list, live: dict, hi, src: SourceText, blanked: str,
                      where, gone=frozenset()) -> tuple[str, ...]:
    """C lines, after the region's block, that leave the region's values in the function's
    own loop variables which the code after it may read; () when it reads none."""
    needed = needed_iterators(fdef, items, live, hi, where)
    if not needed:
        return ()
    header = _Header(src, blanked, where, gone)
    body = [ln for it in items for ln in (_skeleton(it, needed, header) or [])]
    names = ", ".join(sorted(needed))
    return (f"/* {names}: the value{'s' if len(needed) > 1 else ''} the loops leave, which the "
            "code after the region reads */",) + tuple(body)


def reusable_iterators(fdef: c_ast.FuncDef, items: list, symbols: dict) -> tuple[tuple[str, str], ...]:
    """(name, arithmetic type) of the function's own variables that the region's loops count
    with (`int i, j; ... for (i = 0; ...)`), declared outside the region: code for the user's
    file counts with them again, as CHiLL does, instead of declaring new ones and leaving the
    user's unused (gcc -Wall warns).  Not a volatile one or one whose address the function
    takes: the loops would keep it in memory."""
    from looptx.frontend.symbols import arithmetic_type
    own = {_own_iterator(n) for it in items for n, _ in _walk(it) if isinstance(n, c_ast.For)} - {None}
    declared = {n.name for it in items for n, _ in _walk(it) if isinstance(n, c_ast.Decl)}
    addressed = {n.expr.name for n, _ in _walk(fdef.body)
                 if isinstance(n, c_ast.UnaryOp) and n.op == "&" and isinstance(n.expr, c_ast.ID)}
    out = []
    for name in sorted(own - declared - addressed):
        sym = symbols.get(name)
        if sym is None or sym.kind != "var" or "volatile" in sym.decl_text.split():
            continue
        out.append((name, arithmetic_type(sym.ctype, symbols.get)))
    return tuple(out)

