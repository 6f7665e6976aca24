"""Where a marked region sits in the parsed file: the function around it, the statements of
the block it spans, and how many statements the extractor will number there."""
from __future__ import annotations

from pycparser import c_ast

from looptx.frontend.ifconvert import needs_condition_temporary
from looptx.frontend.regions import Region, SourceText


def count_statements(funcs, src: SourceText, r: Region, where) -> int:
    """How many statements the Extractor numbers in region r, counted on the syntax alone, so
    that a region left out by --function is not analysed (nor its errors reported)."""
    fdef = enclosing_function(funcs, src, r, where)
    if fdef is None:
        return 0

    def count(node) -> int:
        if isinstance(node, (c_ast.Assignment, c_ast.UnaryOp)):
            return 1
        if isinstance(node, c_ast.Decl):
            return int(node.init is not None)
        if isinstance(node, c_ast.Compound):
            return sum(count(it) for it in node.block_items or [])
        if isinstance(node, c_ast.For):
            return count(node.stmt)
        if isinstance(node, c_ast.If):
            return count(node.iftrue) + (count(node.iffalse) if node.iffalse is not None else 0) \
                + needs_condition_temporary(node)
        return 0
    return sum(count(it) for it in region_items(fdef.body, src, r, where))


def enclosing_function(funcs, src: SourceText, r: Region, where):
    start = src.pos(r.start)
    best = None
    for f in funcs:
        if where(f) <= start:
            best = f
    return best


def in_function(fdef, funcs, src, r: Region, where) -> bool:
    return enclosing_function(funcs, src, r, where) is fdef


def nodes(node):
    yield node
    for _, ch in node.children():
        yield from nodes(ch)


def region_items(body: c_ast.Compound, src: SourceText, r: Region, where, pragmas: dict | None = None) -> list:
    """The statements of the block that the region spans (pragmas aside: `pragmas`, if given,
    gets the pragma texts before each, by its position in the list)."""
    lo, hi = src.pos(r.start), src.pos(r.end)

    def inside(n) -> bool:
        p = where(n)
        return lo <= p < hi

    def search(comp):
        items = [it for it in (comp.block_items or []) if not isinstance(it, c_ast.Pragma)]
        chosen = [it for it in items if inside(it)]
        if chosen:
            if pragmas is not None:
                position = {id(it): k for k, it in enumerate(chosen)}
                waiting = []
                for it in comp.block_items:
                    if isinstance(it, c_ast.Pragma) and inside(it):
                        waiting.append(it.string)
                    elif id(it) in position and waiting:
                        pragmas[position[id(it)]] = waiting
                        waiting = []
            return chosen
        for it in items:
            for n in nodes(it):
                if isinstance(n, c_ast.Compound) and n is not comp:
                    found = search(n)
                    if found:
                        return found
        return []
    return search(body)
