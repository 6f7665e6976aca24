"""f2c sets a loop's bound temporary before every loop it bounds (`i__1 = *n;`), so a
subroutine of several loop nests sets it again to the value it already holds (SPEC swim's
`calc1`), and a region over the function body would then write one of its sizes.  Such an
assignment changes nothing and is dropped, where that is certain: the same expression, which
reads neither the variable itself nor a call, and nothing between the two assignments writes
the variable or anything the expression reads (an element of an integer array is taken as
possibly any integer the expression reads through a pointer; a float array's is not)."""
from __future__ import annotations

from pycparser import c_ast, c_generator

from looptx.frontend.symbols import all_nodes

_FLOATING = {"float", "double"}


def drop_repeated_sets(ast, typedefs: dict[str, list[str]]) -> None:
    """Removes, in place, the repeated assignments of each function body's outer block."""
    gen = c_generator.CGenerator()
    for fdef in (e for e in ast.ext if isinstance(e, c_ast.FuncDef)):
        items = fdef.body.block_items or []
        floats = _floating_names(fdef, typedefs)
        held: dict[str, tuple[str, set[str], bool]] = {}
        kept = []
        for item in items:
            s = _plain_set(item)
            if s is not None and s[0] in held and held[s[0]][0] == gen.visit(s[1]):
                continue
            written, through, calls = _writes(item, floats)
            for name, (_, reads, via) in list(held.items()):
                if calls or name in written or reads & written or (via and through):
                    del held[name]
            if s is not None:
                held[s[0]] = (gen.visit(s[1]), _names(s[1]), any(isinstance(n, c_ast.ArrayRef)
                                                                 for n in all_nodes(s[1])))
            kept.append(item)
        if len(kept) != len(items):
            fdef.body.block_items = kept


def _plain_set(item):
    """(name, value) of `name = value;` where value reads only names, elements and operators,
    and not name itself."""
    if not (isinstance(item, c_ast.Assignment) and item.op == "=" and isinstance(item.lvalue, c_ast.ID)):
        return None
    ok = (c_ast.ID, c_ast.Constant, c_ast.ArrayRef, c_ast.BinaryOp, c_ast.UnaryOp)
    nodes = list(all_nodes(item.rvalue))
    if not all(isinstance(n, ok) for n in nodes) or \
            any(isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&") for n in nodes):
        return None
    if item.lvalue.name in _names(item.rvalue):
        return None
    return item.lvalue.name, item.rvalue


def _names(e) -> set[str]:
    return {n.name for n in all_nodes(e) if isinstance(n, c_ast.ID)}


def _root(e):
    while isinstance(e, (c_ast.ArrayRef, c_ast.UnaryOp, c_ast.StructRef, c_ast.Cast)):
        e = e.name if isinstance(e, c_ast.ArrayRef) else e.expr if not isinstance(e, c_ast.StructRef) else e.name
    return e.name if isinstance(e, c_ast.ID) else None


def _writes(item, floats: set[str]) -> tuple[set[str], bool, bool]:
    """(names written, whether an element of a non-float array or pointer is, whether a call
    is made) anywhere in `item`."""
    written, through, calls = set(), False, False
    for n in all_nodes(item):
        target = None
        if isinstance(n, c_ast.Assignment):
            target = n.lvalue
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
            target = n.expr
        elif isinstance(n, c_ast.Decl) and n.name:
            written.add(n.name)
        elif isinstance(n, c_ast.FuncCall):
            calls = True
        if target is None:
            continue
        root = _root(target)
        if isinstance(target, c_ast.ID):
            written.add(target.name)
        else:
            through = through or root not in floats
            if root is not None:
                written.add(root)
    return written, through, calls


def _floating_names(fdef: c_ast.FuncDef, typedefs: dict[str, list[str]]) -> set[str]:
    """Parameters and locals whose elements are floating-point (`doublereal *a`, `float x[9]`)."""
    params = fdef.decl.type.args.params if isinstance(fdef.decl.type, c_ast.FuncDecl) and \
        fdef.decl.type.args else []
    decls = [d for d in params if isinstance(d, c_ast.Decl)] + \
        [n for n in all_nodes(fdef.body) if isinstance(n, c_ast.Decl)]
    out = set()
    for d in decls:
        t = d.type
        while isinstance(t, (c_ast.PtrDecl, c_ast.ArrayDecl)):
            t = t.type
        if not (isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType)):
            continue
        words = list(t.type.names)
        seen = set()
        while len(words) == 1 and words[0] in typedefs and words[0] not in seen:
            seen.add(words[0])
            words = list(typedefs[words[0]])
        if set(words) & _FLOATING:
            out.add(d.name)
    return out
