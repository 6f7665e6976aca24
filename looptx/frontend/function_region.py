"""The region of `--function NAME` when NAME has no marker: its body's loops, between the
declarations and calls before them and the calls and return after them."""
from __future__ import annotations

from pycparser import c_ast

from looptx.errors import SourceError, note_once
from looptx.frontend.regions import Region, SourceText


def braces(text: str, start: int = 0):
    """(offset, depth after it) of every brace outside string and character literals."""
    depth, i, quote = 0, start, None
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote or ch == "\n":
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch in "{}":
            depth += 1 if ch == "{" else -1
            yield i, depth
        i += 1


def _outside_statement(node) -> str | None:
    """What a statement at the edge of a function body is when no region can hold it (a call
    such as `memset(...)`, `free(t)` or `printf(...)`, a `(void)x;`), or None."""
    if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID):
        return f"the call to '{node.name.name}'"
    if isinstance(node, c_ast.FuncCall):
        return "the call"
    if isinstance(node, c_ast.Cast):
        return "the cast statement"
    return None


def function_region(fdef: c_ast.FuncDef, src: SourceText, where, blanked: str) -> Region:
    """The whole body of a function, minus its leading declarations, calls before its first
    loop and calls and a return after its last (a kernel that allocates, clears or frees
    around its loops): the region is the loops in between."""
    body = list(fdef.body.block_items or [])
    outside = []
    while body and (isinstance(body[0], c_ast.Decl) or _outside_statement(body[0])):
        stmt = body.pop(0)
        if not isinstance(stmt, c_ast.Decl):
            outside.append(stmt)
    trailing = None
    while body and (isinstance(body[-1], c_ast.Return) or _outside_statement(body[-1])):
        trailing = body.pop()
        if not isinstance(trailing, c_ast.Return):
            outside.append(trailing)
    if not body:
        line, col = where(fdef)
        raise SourceError(f"function '{fdef.decl.name}' has no statements to transform",
                          hint="name a function with loops, or mark the loops with #pragma scop",
                          file=src.filename, line=line, col=col)
    between = next((stmt for stmt in body if _outside_statement(stmt)), None)
    if between is not None:
        line, col = where(between)
        raise SourceError(f"{_outside_statement(between)} is between the loops of '{fdef.decl.name}', "
                          "whose body --function takes as one region",
                          hint="mark each loop nest with #pragma scop/#pragma endscop, or move the call "
                               "before the first loop or after the last",
                          file=src.filename, line=line, col=col)
    line, col = where(body[0])
    if isinstance(body[0], c_ast.Pragma):
        col = 1                 # pycparser places a pragma at its text, after `#pragma`
    first = src.offset(line, col)
    if trailing is not None:
        last = src.offset(*where(trailing))
    else:
        open_brace = src.offset(*where(fdef.body))
        last = matching_brace(blanked, open_brace)
    # end right after the last statement, so that the line break and indentation before the
    # return or the closing brace stay in the output
    while last > first and blanked[last - 1] in " \t\r\n":
        last -= 1
    if outside:
        stmt = min(outside, key=where)
        note_once(src.filename, where(stmt)[0],
                  f"{_outside_statement(stmt)} stays outside the region of '{fdef.decl.name}'"
                  f"{' (and ' + str(len(outside) - 1) + ' more statement' + ('s' if len(outside) > 2 else '') + ')' if len(outside) > 1 else ''}"
                  f": the region is lines {src.pos(first)[0]}-{src.pos(last)[0]}", col=where(stmt)[1])
    return Region("function", first, last, (first, last), function=fdef.decl.name)


def matching_brace(text: str, open_at: int) -> int:
    return next((i for i, depth in braces(text, open_at) if depth == 0), len(text))


