"""Whether the function can read a variable's value after the region: the precondition of the
`privatize` step (a private copy per iteration leaves the function's own variable as it was).

The answer is per name: '' when the value written in the region is provably dead after it (a
non-static local or by-value parameter of the region's function, whose address is never taken,
not used after the region, nor elsewhere in a loop around it), otherwise why it may be read.
"""
from __future__ import annotations

import copy
import re

from pycparser import c_ast

from looptx.frontend.symbols import DeclCollector, c_text, typedefs_resolved

LOOPS = (c_ast.For, c_ast.While, c_ast.DoWhile)


def _walk(node, parent=None):
    yield node, parent
    for _, ch in node.children():
        yield from _walk(ch, node)


def _bare_decl(d: c_ast.Decl, spellings, lookup) -> tuple[str, str]:
    """(declaration, as spelled) without the initializer and without const; the first with
    a typedef'd type written as the type (a harness or a .cu has no typedefs of the file)."""
    bare = copy.copy(d)
    bare.init = None
    bare.quals = [q for q in (bare.quals or []) if q != "const"]
    bare.storage = []
    plain = c_text(typedefs_resolved(bare, lookup) if lookup is not None else bare)
    spelled = spellings.text(bare) if spellings is not None else plain
    return plain, (spelled if spelled != plain else "")


def dead_after(fdef: c_ast.FuncDef, items: list, lo, hi, where, spellings=None,
               hoisted: dict[str, str] | None = None, lookup=None,
               dead_hoisted: dict | None = None) -> dict[str, tuple[str, str, str]]:
    """name -> (why the function may read it after the region, or '';
    its declaration; its declaration as the user spells it), for the function's locals and
    parameters declared before the region.  Names not in the result are globals.  `hoisted`:
    the variables that stand for struct members (frontend/members.py), with why each is live."""
    found: dict[str, tuple[str, str, str]] = {}
    params = fdef.decl.type.args.params if fdef.decl.type.args else []
    for p in params:
        if not isinstance(p, c_ast.Decl) or not p.name:
            continue
        if isinstance(p.type, (c_ast.ArrayDecl, c_ast.PtrDecl)):
            found[p.name] = ("a parameter of pointer or array type (the caller sees its elements)", "", "")
        else:
            found[p.name] = ("",) + _bare_decl(p, spellings, lookup)
    collector = DeclCollector()
    collector.visit(fdef.body)
    for d in collector.decls:
        if not d.name or not where(d) < lo or isinstance(d.type, c_ast.FuncDecl):
            continue
        if "static" in (d.storage or []) or "extern" in (d.storage or []):
            found[d.name] = (f"'{d.name}' is {'static' if 'static' in d.storage else 'extern'}: its "
                             "value outlives the call", "", "")
        elif isinstance(d.type, c_ast.PtrDecl):
            found[d.name] = ("a pointer (its elements belong to another array)", "", "")
        else:
            found[d.name] = ("",) + _bare_decl(d, spellings, lookup)

    inside = lambda n: lo <= where(n) < hi
    region_nodes = {id(n) for it in items for n, _ in _walk(it)}
    # the outermost loop around the region: what it runs outside the region also runs after it
    around = None
    for n, _ in _walk(fdef.body):
        if isinstance(n, LOOPS) and any(id(m) in region_nodes for m, _ in _walk(n) if m is not n):
            around = {id(m) for m, _ in _walk(n)}
            break
    gotos = [n for n, _ in _walk(fdef.body) if isinstance(n, c_ast.Goto)]

    parents = {id(n): p for n, p in _walk(fdef.body)}
    kills = _kills(fdef.body, parents)
    kills_of: dict[str, list] = {}
    for k in kills.values():
        kills_of.setdefault(k.lvalue.name, []).append(k)

    def killed(n, parent, after: bool = False) -> bool:
        """Whether this use outside the region cannot see the region's value: it stores a value
        that reads no old one (TSVC's `s = 0.;` before the region, each time round the loop), or
        such a store runs before it in every pass of its loop (and, for a use `after` the
        region, after the region: CloverLeaf PdV's other nest setting the temporary first).  After
        the region, a store in a block around the use before it (MachSuite viterbi's `m = b[0];`
        before the loop that reads m) runs between the region and every run of the use."""
        if isinstance(parent, c_ast.Assignment) and parent.lvalue is n and id(parent) in kills:
            return True
        loop = _loop_of(n, parents)
        return any(where(k) < where(n) and (after or _loop_of(k, parents) is loop)
                   and (not after or where(k) >= hi) and _encloses(parents.get(id(k)), n, parents)
                   for k in kills_of.get(n.name, ()))

    def blame(name: str, why: str) -> None:
        if name in found and not found[name][0]:
            found[name] = (why,) + found[name][1:]

    for n, parent in _walk(fdef.body):
        if isinstance(n, c_ast.UnaryOp) and n.op == "&" and isinstance(n.expr, c_ast.ID):
            line, col = where(n)
            blame(n.expr.name, f"its address is taken at line {line}, column {col}")
        if not isinstance(n, c_ast.ID) or (isinstance(parent, c_ast.StructRef) and parent.field is n):
            continue
        line, col = where(n)
        if isinstance(parent, c_ast.FuncCall) and parent.name is n:
            continue
        if id(n) not in region_nodes and not inside(n):
            if where(n) >= hi:
                if not killed(n, parent, after=True):
                    blame(n.name, f"it is used at line {line}, column {col}, after the region")
            elif around is not None and id(n) in around and not killed(n, parent):
                blame(n.name, f"it is used at line {line}, column {col}, in the loop around the "
                              "region, which runs that use again after the region")
        elif not isinstance(parent, c_ast.ArrayRef) or parent.name is not n:
            kind = found.get(n.name, ("", "", ""))
            if kind[1] and "[" in kind[1] and not isinstance(parent, c_ast.ArrayRef):
                blame(n.name, f"the array is used as a pointer at line {line}, column {col}")
    if gotos:
        line, col = where(gotos[0])
        for name in found:
            blame(name, f"the function jumps with goto (line {line}), which may run the region again")
    # a member's variable is the struct's data: a written scalar is stored back after the region
    found.update((name, (why, "", "")) for name, why in (hoisted or {}).items())
    found.update((name, ("",) + _bare_decl(d, spellings, lookup)) for name, d in (dead_hoisted or {}).items())
    return found


def _kills(body, parents: dict) -> dict[int, c_ast.Assignment]:
    """The statements `x = e;` whose e does not read x, and loop headers' `for (x = e; ...)`,
    by id: after one, x holds no older value (NPB LU's next time step starts `for (i = 0; ...`)."""
    from looptx.frontend.symbols import id_names
    return {id(n): n for n, p in _walk(body)
            if isinstance(n, c_ast.Assignment) and n.op == "=" and isinstance(n.lvalue, c_ast.ID)
            and (isinstance(p, c_ast.Compound) or isinstance(p, c_ast.For) and p.init is n)
            and n.lvalue.name not in id_names(n.rvalue)}


def _loop_of(node, parents: dict):
    """The innermost loop around `node` (None: the function's body)."""
    p = parents.get(id(node))
    while p is not None and not isinstance(p, LOOPS):
        p = parents.get(id(p))
    return p


def _encloses(block, node, parents: dict) -> bool:
    p = parents.get(id(node))
    while p is not None:
        if p is block:
            return True
        p = parents.get(id(p))
    return False


def with_live_out(scop, found: dict[str, tuple[str, str, str]]):
    """The scop with each array's `live_out` (and, where it is dead after the region, the
    declaration that `privatize` gives it)."""
    from dataclasses import replace
    arrays = []
    for a in scop.arrays:
        if not a.local and a.name in found:
            why, decl, spelled = found[a.name]
            a = replace(a, live_out=why, decl=decl + ";" if decl and not why else "",
                        spelled_decl=spelled + ";" if spelled and not why else "")
        arrays.append(a)
    return replace(scop, arrays=tuple(arrays), _cache={})


def used_after(fdef: c_ast.FuncDef, names, hi, where) -> dict[str, str]:
    """name -> where the function reads it after the region, for the variables that the region
    declares at its top level (C's scope of such a declaration goes on past the region)."""
    found: dict[str, str] = {}
    for n, parent in _walk(fdef.body):
        if isinstance(n, c_ast.ID) and n.name in names and n.name not in found and where(n) >= hi \
                and not (isinstance(parent, c_ast.StructRef) and parent.field is n):
            line, col = where(n)
            found[n.name] = f"it is used at line {line}, column {col}, after the region"
    return found


def fragment_locals(ast, text_after: str, spellings, lookup, main: str) -> dict[str, tuple[str, str, str]]:
    """For an Orio fragment, which Orio pastes into the function it times: its own scalar
    declarations at file scope (not input_vars') are that function's locals, dead after the
    region where the fragment's text after it does not name them."""
    out = {}
    for e in ast.ext:
        if isinstance(e, c_ast.Decl) and e.name and e.coord is not None and e.coord.file == main \
                and isinstance(e.type, c_ast.TypeDecl) \
                and not set(e.storage or ()) & {"static", "extern", "typedef"} \
                and not re.search(rf"(?<![\w.]){re.escape(e.name)}(?!\w)", text_after):
            out[e.name] = ("",) + _bare_decl(e, spellings, lookup)
    return out
