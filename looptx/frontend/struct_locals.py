"""A struct the region declares itself and uses only member by member (Rodinia lavaMD's
`THREE_VECTOR d;` in the particle loop's body, then `d.x = ...; ... fs*d.x`) is as many scalars
as the members it uses: `fp d__x;` where it was declared, so each is a local of that body like
the region's other locals (privatized per iteration, in each thread's registers on the GPU).
A struct used whole (assigned, passed, its address taken), initialised, or reached through a
member that is itself an array or a struct used whole stays as it is (and is refused, as
before, by frontend/members.py)."""
from __future__ import annotations

from pycparser import c_ast

from looptx.frontend.symbols import DeclCollector, all_nodes


def _decls_named(items, name: str) -> list[c_ast.Decl]:
    c = DeclCollector()
    for it in items:
        c.visit(it)
    return [d for d in c.decls if d.name == name]


def _uses(items, name: str) -> int:
    return sum(1 for it in items for n in all_nodes(it) if isinstance(n, c_ast.ID) and n.name == name)


def scalarized(items, by_key: dict, inside: set, types, fresh, error) -> tuple[dict, dict, set, dict]:
    """(chain node id -> its scalar's ID, id of a struct's declaration -> the scalars'
    declarations, the structs replaced, why each other one is not) for the region's own
    structs."""
    repl: dict = {}
    expand: dict = {}
    done: set = set()
    why: dict = {}
    bases = {k[0] for k in by_key if k[0] in inside}
    for base in sorted(bases):
        keys = [k for k in by_key if k[0] == base]
        chains = [u for k in keys for u in by_key[k]]
        decls = _decls_named(items, base)
        if len(decls) != 1 or any(u.subs for u in chains):
            continue
        if _uses(items, base) != len(chains):
            why[base] = "the region uses it whole, not only member by member"
            continue
        decl = decls[0]
        rec, kind = types.record(decl.type)
        if rec is not None and not kind.startswith("struct"):
            # its members share their storage: writing one and reading another is not two scalars
            why[base] = "it is a union"
            continue
        if decl.init is not None:
            why[base] = "its declaration initialises it"
            continue
        if decl.bitsize is not None or rec is None or not isinstance(types.unalias(decl.type), c_ast.TypeDecl):
            continue
        made, ok = [], True
        names = {}
        for k in keys:
            first = by_key[k][0]
            member, _, _ = types.chain(decl.type, first.steps, "", first.node, error)
            name = fresh("__".join([base, *(f for _, f in first.steps)]))
            d = types.declarator(member, name)
            if not isinstance(d, c_ast.TypeDecl) or types.record(member)[0] is not None:
                why[base] = f"its member '{first.steps[-1][1]}' is not a scalar"
                ok = False
                break
            made.append(c_ast.Decl(name, list(decl.quals or []), list(getattr(decl, "align", None) or []),
                                   list(decl.storage or []), list(decl.funcspec or []), d, None, None,
                                   decl.coord))
            names[k] = name
        if not ok:
            continue
        for k in keys:
            for u in by_key[k]:
                repl[id(u.node)] = c_ast.ID(names[k], u.node.coord)
        expand[id(decl)] = made
        done.add(base)
    if expand:
        for it in items:
            for n in all_nodes(it):
                if isinstance(n, c_ast.Compound) and any(id(x) in expand for x in n.block_items or ()):
                    repl[id(n)] = _compound_builder(n, expand)
    return repl, expand, done, why


def _compound_builder(node: c_ast.Compound, expand: dict):
    def build(rewrite):
        items = []
        for x in node.block_items:
            items += expand[id(x)] if id(x) in expand else [rewrite(x)]
        return c_ast.Compound(items, node.coord)
    return build


def unset_before(fdef, decl, where, start) -> bool:
    """Whether the function's local struct `decl`, declared without a value, is set nowhere
    before the region (`start`): MILC's `register complex x,y;`, built by CMUL inside the loop.
    A load of its members before the region would read indeterminate values (gcc:
    -Wuninitialized)."""
    if decl is None or decl.init is not None or "static" in (decl.storage or []) \
            or decl not in list(all_nodes(fdef.body)):
        return False
    name = decl.name

    def rooted(e) -> bool:
        while isinstance(e, (c_ast.StructRef, c_ast.ArrayRef)):
            e = e.name
        return isinstance(e, c_ast.ID) and e.name == name
    for n in all_nodes(fdef.body):
        if not where(decl) < where(n) < start:
            continue
        if isinstance(n, c_ast.Assignment) and rooted(n.lvalue) or \
                isinstance(n, c_ast.UnaryOp) and n.op in ("&", "++", "--", "p++", "p--") and rooted(n.expr):
            return False
    return True


def only_in(fdef, decl, where, start, end) -> bool:
    """Whether nothing outside the region (from `start` to `end`) names the local `decl`: a
    value it is given there is dead after it."""
    if decl is None or "static" in (decl.storage or []) or decl not in list(all_nodes(fdef.body)):
        return False
    for n, parent in _with_parents(fdef.body):
        if isinstance(n, c_ast.ID) and n.name == decl.name and not (
                isinstance(parent, c_ast.StructRef) and parent.field is n) and not start <= where(n) < end:
            return False
    return True


def _with_parents(node, parent=None):
    stack = [(node, parent)]
    while stack:
        n, p = stack.pop()
        yield n, p
        stack.extend((ch, n) for _, ch in n.children())
