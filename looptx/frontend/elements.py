"""Array elements at constant subscripts that bound the region's loops (NPB's
`for (k = 1; k <= grid_points[2] - 2; k++)`), read once before the region.

An element is no size of the model; but when the region never writes its array, its value
is the same at every use, so the region is modelled, as struct members are, as if the user had
written `const int grid_points__2 = grid_points[2];` before it.  Only elements that reach a
loop bound, a subscript or a condition are hoisted: an element read as data stays a read."""
from __future__ import annotations

from pycparser import c_ast

from looptx.errors import note_once
from looptx.frontend.names import to_user
from looptx.frontend.symbols import INT_TYPES, all_nodes, symbol_of
from looptx.frontend.temporaries import index_parts, written_names

# element types whose value is a size as C computes it (a char or a bool is not one)
_SIZE_WORDS = INT_TYPES - {"char", "bool", "_Bool", "int8_t", "uint8_t"}


def _constant_element(node) -> tuple[str, tuple[int, ...]] | None:
    """(array, subscripts) of `a[2]` or `a[0][1]`, None for anything else."""
    subs = []
    while isinstance(node, c_ast.ArrayRef):
        s = node.subscript
        if not (isinstance(s, c_ast.Constant) and s.type == "int"):
            return None
        try:
            subs.append(int(s.value.rstrip("uUlL"), 0))
        except ValueError:
            return None
        node = node.name
    return (node.name, tuple(reversed(subs))) if isinstance(node, c_ast.ID) and subs else None


def _element_type(decl, typedefs: dict[str, list[str]]) -> list[str] | None:
    """The element type's words of an array or pointer declaration of integers, a typedef
    resolved (f2c's `integer *n`, `typedef long int integer;`)."""
    t = decl.type
    if not isinstance(t, (c_ast.ArrayDecl, c_ast.PtrDecl)):
        return None
    while isinstance(t, (c_ast.ArrayDecl, c_ast.PtrDecl)):
        t = t.type
    if not (isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType)):
        return None
    words, seen = list(t.type.names), set()
    while len(words) == 1 and words[0] in typedefs and words[0] not in seen:
        seen.add(words[0])
        words = typedefs[words[0]]
    return words if set(words) <= _SIZE_WORDS else None


def constant_elements(items, decls_of, inside: set[str], spellings, fresh, typedefs_of) -> tuple[list, dict]:
    """(members, replacements) for the constant elements the region reads in a bound, a
    subscript or a condition, of integer arrays declared before it that it never writes.
    `decls_of()` gives the declarations visible at the region (read only when there is a
    candidate), `typedefs_of()` the file's typedefs (typedef_words), `fresh(stem)` names a
    variable; the members are members.Member values."""
    from looptx.frontend.members import Member
    # (`idx[1]` of `x[i + idx[1][k]]` is a row, not an element)
    rows = {id(n.name) for it in items for n in all_nodes(it) if isinstance(n, c_ast.ArrayRef)}
    candidates = {e for part in index_parts(items) for n in all_nodes(part) if id(n) not in rows
                  for e in (_constant_element(n),) if e and e[0] not in inside}
    if not candidates:
        return [], {}
    written, decls, typedefs = written_names(items), decls_of(), typedefs_of()
    wanted = {e for e in candidates if e[0] not in written and e[0] in decls
              and _element_type(decls[e[0]], typedefs) is not None}
    if not wanted:
        return [], {}
    members, names, repl = [], {}, {}
    for it in items:
        for n in all_nodes(it):
            e = _constant_element(n) if isinstance(n, c_ast.ArrayRef) and id(n) not in rows else None
            if e not in wanted:
                continue
            if e not in names:
                base, subs = e
                name = fresh(f"{base}__{'_'.join(map(str, subs))}")
                names[e] = name
                words = _element_type(decls[base], typedefs)
                chain = spellings.text(n)
                t = c_ast.TypeDecl(name, ["const"], None, c_ast.IdentifierType(words))
                symbol = symbol_of(c_ast.Decl(name, ["const"], [], [], [], t, None, None), spellings)
                members.append(Member(chain, name, symbol, f"const {' '.join(words)} {name} = {chain};",
                                      element=True))
            repl[id(n)] = c_ast.ID(names[e], n.coord)
    return members, repl


def note_elements(members, file: str, line: int) -> None:
    if members:
        note_once(file, line or 1, "array elements at constant subscripts are read once before the region: "
                  f"{', '.join(to_user(m.chain) for m in members)} (as {', '.join(to_user(m.name) for m in members)})")
