"""Struct locals that copy an element of an array of structs, read member by member.

Kernel Tuner's pnpoly reads its polygon as `float2 vj = vertices[j]; ... vj.x ... vj.y`: a copy
of the element, which the model has no object for (a struct variable of the region).  Where the
copy is only read through its members, and nothing in its block writes the array or the
subscript's variables after it, `vj.x` reads the same value as `vertices[j].x`, which is an
access of the member array `vertices[].x` (frontend/records.py); the copy goes, as index
temporaries do (temporaries.py)."""
from __future__ import annotations

import copy

from pycparser import c_ast

from looptx.frontend.symbols import all_nodes

__all__ = ["struct_copies_substituted"]


def struct_copies_substituted(ast) -> None:
    """Rewrites, in place, the member reads of each such copy inside loop bodies, and drops
    its declaration."""
    structs = _struct_typedefs(ast)
    for fdef in (e for e in ast.ext if isinstance(e, c_ast.FuncDef)):
        for block in _blocks_in_loops(fdef.body):
            items = list(block.block_items or [])
            k = 0
            while k < len(items):
                d = items[k]
                if _element_copy(d, structs) and _substitute(d, items[k + 1:]):
                    del items[k]
                    continue
                k += 1
            block.block_items = items


def _struct_typedefs(ast) -> set[str]:
    return {d.name for d in getattr(ast, "ext", ()) if isinstance(d, c_ast.Typedef)
            and isinstance(d.type, c_ast.TypeDecl) and isinstance(d.type.type, c_ast.Struct)}


def _element_copy(d, structs: set[str]) -> bool:
    """`T v = a[i];` (or `= p->q[i]`) with T a struct type."""
    if not (isinstance(d, c_ast.Decl) and d.name and isinstance(d.type, c_ast.TypeDecl)
            and isinstance(d.init, c_ast.ArrayRef)) or set(d.storage or ()) - {"register"}:
        return False
    t = d.type.type
    return isinstance(t, c_ast.Struct) or isinstance(t, c_ast.IdentifierType) and len(t.names) == 1 \
        and t.names[0] in structs


def _substitute(d: c_ast.Decl, rest: list) -> bool:
    """Puts `d.init` in for `d.name` in `d.name.member` reads of `rest`; False (and nothing
    changed) where the copy is used otherwise, or what it was copied from may change."""
    name = d.name
    read = _names(d.init)
    uses, parents = [], {}
    for it in rest:
        for n in all_nodes(it):
            for _, ch in n.children():
                parents[id(ch)] = n
    for it in rest:
        for n in all_nodes(it):
            if isinstance(n, c_ast.ID) and n.name == name:
                p = parents.get(id(n))
                if not (isinstance(p, c_ast.StructRef) and p.name is n and p.type == "."):
                    return False                    # the copy as a whole, or its address
                if _written(p, parents):
                    return False
                uses.append(p)
            target = _target(n)
            if target is not None and (_root(target) in read or target == name):
                return False                        # the element or its subscript changes
            if isinstance(n, c_ast.Decl) and n.name in read | {name}:
                return False                        # shadowed
    for u in uses:
        u.name = copy.deepcopy(d.init)
    return bool(uses)


def _names(node) -> set[str]:
    return {n.name for n in all_nodes(node) if isinstance(n, c_ast.ID)}


def _target(n) -> str | None:
    t = n.lvalue if isinstance(n, c_ast.Assignment) else \
        n.expr if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&") else None
    return _root(t) if t is not None else None


def _root(t) -> str | None:
    while isinstance(t, (c_ast.ArrayRef, c_ast.StructRef)):
        t = t.name
    return t.name if isinstance(t, c_ast.ID) else None


def _written(member, parents) -> bool:
    p = parents.get(id(member))
    return isinstance(p, c_ast.Assignment) and p.lvalue is member or \
        isinstance(p, c_ast.UnaryOp) and p.op in ("++", "--", "p++", "p--", "&") and p.expr is member


def _blocks_in_loops(body) -> list:
    out, stack = [], [(body, False)]
    while stack:
        n, in_loop = stack.pop()
        if isinstance(n, c_ast.Compound) and in_loop:
            out.append(n)
        inner = in_loop or isinstance(n, (c_ast.For, c_ast.While, c_ast.DoWhile))
        stack.extend((ch, inner) for _, ch in n.children())
    return out
