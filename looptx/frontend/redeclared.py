"""A name declared again inside a region is another object in C: the same temporary declared in
two sibling loops (llm.c's `float norm_bti` in both loops of layernorm_backward), or an inner
block's variable shadowing one declared before the region.  The model keys a variable by its
name, so it would take the two for one, and their reuse would order iterations that C keeps
apart (an `omp_for` of the second loop refused for a WAW on the first loop's temporary).  Each
such declaration therefore gets a name of its own (`norm_bti__2`), along with the uses its scope
reaches, in a copy of the region's statements; the generated code declares both.  Loop
iterators declared in `for (int i = ...)` keep their names: the model gives each loop its own.
"""
from __future__ import annotations

import copy

from pycparser import c_ast


def separate_redeclarations(items: list, declared: set[str], taken: set[str]) -> list:
    """`items` (a region's statements), or a renamed copy where a declaration in them names a
    variable declared before it (`declared`: visible at the region's start) or earlier in the
    region.  `taken`: every identifier of the file, which no new name may be."""
    if not _redeclares(items, set(declared)):
        return items
    items = copy.deepcopy(items)
    _Renamer(set(declared), set(taken)).block(items)
    return items


_TYPES = (c_ast.Struct, c_ast.Union, c_ast.Enum)      # their members are not variables


def _block_decls(node):
    if isinstance(node, _TYPES):
        return
    if isinstance(node, c_ast.Decl) and node.name and not isinstance(node.type, c_ast.FuncDecl):
        yield node
    for _, child in node.children():
        if not isinstance(node, c_ast.For) or child is not node.init:
            yield from _block_decls(child)


def _redeclares(items, seen: set[str]) -> bool:
    for it in items:
        for d in _block_decls(it):
            if d.name in seen:
                return True
            seen.add(d.name)
    return False


class _Renamer:
    def __init__(self, declared: set[str], taken: set[str]):
        self.seen = declared
        self.taken = taken
        self.scopes: list[dict[str, str]] = [{}]

    def fresh(self, name: str) -> str:
        k = 2
        while f"{name}__{k}" in self.taken:
            k += 1
        self.taken.add(f"{name}__{k}")
        return f"{name}__{k}"

    def current(self, name: str) -> str:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return name

    def block(self, items):
        self.scopes.append({})
        for it in items:
            self.visit(it)
        self.scopes.pop()

    def declare(self, node: c_ast.Decl, keep: bool) -> None:
        name = node.name
        new = name if keep or name not in self.seen else self.fresh(name)
        self.seen.add(name)
        self.scopes[-1][name] = new
        if new != name:
            node.name = new
            t = node.type
            while not isinstance(t, c_ast.TypeDecl) and hasattr(t, "type"):
                t = t.type
            if isinstance(t, c_ast.TypeDecl):
                t.declname = new

    def visit(self, node) -> None:
        if node is None:
            return
        if isinstance(node, c_ast.Compound):
            self.block(node.block_items or [])
        elif isinstance(node, c_ast.For):
            self.scopes.append({})
            init = node.init
            if isinstance(init, c_ast.DeclList):
                for d in init.decls:
                    self.visit(d.init)
                    self.declare(d, keep=True)
            else:
                self.visit(init)
            for part in (node.cond, node.next, node.stmt):
                self.visit(part)
            self.scopes.pop()
        elif isinstance(node, c_ast.Decl):
            if node.name and not isinstance(node.type, c_ast.FuncDecl):
                # C's scope of a name starts after its declarator: array extents and the
                # initializer are read first (an initializer reading the new name is undefined)
                self.visit(node.type)
                self.visit(node.init)
                self.declare(node, keep=False)
        elif isinstance(node, c_ast.ID):
            node.name = self.current(node.name)
        elif isinstance(node, c_ast.StructRef):
            self.visit(node.name)            # not the member name
        elif not isinstance(node, _TYPES):
            for _, child in node.children():
                self.visit(child)
