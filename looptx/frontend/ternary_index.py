"""Reads whose subscript chooses with `?:` become a `?:` of reads.

Rodinia's hotspot3D clamps each neighbour at the border, `w = (x == 0) ? c : c - 1;` ...
`tIn[w]`: after index temporaries are put in (temporaries.py) that is `tIn[(x == 0) ? c : c -
1]`, which no affine access describes.  `(x == 0) ? tIn[c] : tIn[c - 1]` reads the same element
and is two affine reads, each under the guard of its branch (guards.py), as pet models it.  A
read has no side effect, so C evaluates exactly one of them either way.  min/max written as a
ternary stay as they are: they are affine.  Writes are left alone (an lvalue cannot be split
so), and so is a subscript inside another subscript, which is its own read."""
from __future__ import annotations

import copy

from pycparser import c_ast

from looptx.frontend.affine import min_max_of_ternary

__all__ = ["ternary_subscripts_lifted"]

_NOT_READ = ("++", "--", "p++", "p--", "&", "sizeof")


def ternary_subscripts_lifted(node) -> None:
    """Rewrites, in place, every read `A[..(c ? a : b)..]` under `node` as `c ? A[..a..] :
    A[..b..]`.  Inner reads first: `A[idx[c ? i : j]]` is `A[c ? idx[i] : idx[j]]`, then
    `c ? A[idx[i]] : A[idx[j]]`."""
    stack = [(node, False)]
    while stack:
        n, children_done = stack.pop()
        if not children_done:
            stack.append((n, True))
            stack.extend((ch, False) for _, ch in n.children())
            continue
        for attr in getattr(n, "__slots__", ()):
            child = getattr(n, attr, None)
            if isinstance(child, c_ast.Node):
                setattr(n, attr, _lifted(n, attr, child))
            elif isinstance(child, list):
                setattr(n, attr, [_lifted(n, attr, c) if isinstance(c, c_ast.Node) else c for c in child])


def _lifted(parent, attr: str, child):
    # a member of an element (Kernel Tuner's `vertices[k].x`) is one read with its chain
    if not isinstance(child, (c_ast.ArrayRef, c_ast.StructRef)) or not _read(parent, attr):
        return child
    choice = _choice(child)
    if choice is None:
        return child
    return c_ast.TernaryOp(copy.deepcopy(choice.cond),
                           _lifted(parent, attr, _copy_replacing(child, choice, choice.iftrue)),
                           _lifted(parent, attr, _copy_replacing(child, choice, choice.iffalse)),
                           coord=child.coord)


def _read(parent, attr: str) -> bool:
    if isinstance(parent, c_ast.ArrayRef) and attr == "name":
        return False                  # an inner part of a chain: the whole chain is lifted
    if isinstance(parent, c_ast.StructRef) and attr == "name":
        return False
    if isinstance(parent, c_ast.Assignment) and attr == "lvalue":
        return False
    return not (isinstance(parent, c_ast.UnaryOp) and parent.op in _NOT_READ)


def _choice(ref: c_ast.ArrayRef):
    """The first `?:` that is not min/max in the subscripts of the chain `ref`, outside any
    element read inside them."""
    chain = ref
    while isinstance(chain, (c_ast.ArrayRef, c_ast.StructRef)):
        if isinstance(chain, c_ast.StructRef):
            chain = chain.name
            continue
        stack = [chain.subscript]
        while stack:
            n = stack.pop()
            if isinstance(n, c_ast.ArrayRef):
                continue
            if isinstance(n, c_ast.TernaryOp) and min_max_of_ternary(n) is None:
                return n
            stack.extend(ch for _, ch in n.children())
        chain = chain.name
    return None


def _copy_replacing(node, target, replacement):
    if node is target:
        return copy.deepcopy(replacement)
    new = copy.copy(node)
    for attr in getattr(node, "__slots__", ()):
        child = getattr(node, attr, None)
        if isinstance(child, c_ast.Node):
            setattr(new, attr, _copy_replacing(child, target, replacement))
        elif isinstance(child, list):
            setattr(new, attr, [_copy_replacing(c, target, replacement) if isinstance(c, c_ast.Node)
                                else c for c in child])
    return new
