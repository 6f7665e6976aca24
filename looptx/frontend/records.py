"""Arrays of structs (`kVals[k].Kx`, `image[i][j].rgbtRed`, `p[i].pos.x`, `p[i].f[d]`).

Each member an array of structs is used through is modelled as an array of its own, with the
array's subscripts then the member's own (`p[i].f[d]` is `p__f[i][d]`).  That is exact: two
members of a struct are two objects, so their dependences are those of two arrays.  The code
keeps the user's layout: printers write `p__f[i][d]` back as `p[i].f[d]` (Scop.records), and
`run`'s harness passes the struct array itself, laid out by the file's definition.

What the model cannot stand for is refused: the whole struct used as a value (`p[i] = q[j]`,
`f(p)`, `&p[i]`), a member of a union (members overlap), a member reached through a pointer
(`p[i].next->x`, `p[i].data[k]` with a pointer member: the pointee may be anything)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from pycparser import c_ast, c_generator

from looptx.frontend.names import register_record
from looptx.frontend.symbols import all_nodes

__all__ = ["Record", "RecordLayout", "record_declarator", "layout_of", "check_whole_uses"]


@dataclass(frozen=True)
class RecordLayout:
    """How run's harness lays out one struct type: its C definitions (typedefs and struct
    definitions it needs, in the file's order) and its fields, for a numpy structured dtype.
    Each field: (name, C arithmetic type or a nested tuple of fields, extents as C text);
    a pointer member is 'void *' (only its size and alignment matter: the region never reads it)."""
    ctype: str                                 # the element type as written: `struct kValues`, `RGBTRIPLE`
    definitions: tuple[str, ...]
    fields: tuple
    packed: bool = False                       # `__attribute__((packed))` on the struct
    # another layout attribute or `#pragma pack` in the file: code compiled apart from the
    # file (the .cu) cannot be sure to lay the struct out as the user's build does
    unsure: str = ""


@dataclass(frozen=True)
class Record:
    """One member of an array of structs, as the array the model sees."""
    name: str                  # the model's array: `p__pos__x`
    base: str                  # the user's array of structs: `p`
    path: str                  # `.pos.x`
    rank: int                  # the base's subscripts (`image[i][j]`: 2)
    layout: RecordLayout

    def __post_init__(self):
        register_record(self.name, self.base, self.path, self.rank)

    def spell(self, index: list[str]) -> str:
        """`p[i].pos.x` (with the member's own subscripts after it)."""
        head, tail = index[:self.rank], index[self.rank:]
        return self.base + "".join(f"[{i}]" for i in head) + self.path + "".join(f"[{i}]" for i in tail)


def record_declarator(types, base_decl, subs: int, steps, chain: str, node, name: str, error):
    """(the declarator of the model's array `name`, the element type node, the chain's holders):
    the base's `subs` array or pointer levels around the member's own declarator."""
    levels, t = [], base_decl.type
    for _ in range(subs):
        u = types.unalias(t)
        if not isinstance(u, (c_ast.PtrDecl, c_ast.ArrayDecl)):
            raise error(node, f"'{base_decl.name}' in '{chain}' has fewer than {subs} subscript(s)",
                        "check the subscripts")
        levels.append(u)
        t = u.type
    if steps[0][0] != ".":
        raise error(node, f"'{chain}' reaches a struct through a pointer held in an array: looptx cannot "
                          "tell which objects the pointers reach",
                    "keep the structs themselves in the array (p[i].x), or copy the values into arrays of numbers")
    element = t
    member, holders, const = types.chain(element, steps, chain, node, error)
    if any(isinstance(h, c_ast.Union) for h in holders):
        raise error(node, f"'{chain}' is a member of a union, whose members share storage",
                    "use a struct, or copy the member into an array of numbers before the region")
    d = types.declarator(member, name)
    leaf = d
    while isinstance(leaf, c_ast.ArrayDecl):
        leaf = leaf.type
    if not isinstance(leaf, c_ast.TypeDecl) or not types.arithmetic(leaf):
        _, rec = types.record(leaf) if isinstance(leaf, c_ast.TypeDecl) else (None, None)
        what = ("a pointer, which may point anywhere" if isinstance(leaf, c_ast.PtrDecl) else
                f"a {rec}, used as a whole" if rec else "not a number")
        raise error(node, f"the member '{chain}' is {what}",
                    "use members that are numbers or arrays of numbers (p[i].pos.x, p[i].f[d])")
    if const and "const" not in leaf.quals:
        leaf.quals.insert(0, "const")
    for lvl in reversed(levels):
        d = c_ast.PtrDecl(list(lvl.quals or []), d) if isinstance(lvl, c_ast.PtrDecl) \
            else c_ast.ArrayDecl(d, lvl.dim, list(lvl.dim_quals or []))
    return d, element, holders


_STANDARD = re.compile(r"u?int(_least|_fast)?(8|16|32|64)_t|u?intptr_t|u?intmax_t|size_t|ssize_t|ptrdiff_t|wchar_t")


def layout_of(types, element, ast, node, error, text: str) -> RecordLayout:
    """The harness's view of the struct type `element` (a TypeDecl); `text`: the file as written
    (its attributes, which the parser does not keep)."""
    gen = c_generator.CGenerator()
    rec, _ = types.record(element)
    spelled = gen.visit(element.type) if not isinstance(element.type, c_ast.Struct) \
        else f"struct {element.type.name}"
    if isinstance(element.type, c_ast.Struct) and not element.type.name:
        raise error(node, "the array's struct type has no name", "give the struct a tag or a typedef name")
    packed, other = _attributes(text, rec)
    needed = _needed_types(types, element)
    definitions = []
    for e in ast.ext:
        if isinstance(e, c_ast.Typedef) and e.name in needed[0] and not _STANDARD.fullmatch(e.name):
            d = gen.visit(e) + ";"
        elif isinstance(e, c_ast.Decl) and e.name is None and isinstance(e.type, (c_ast.Struct, c_ast.Union, c_ast.Enum)) \
                and (type(e.type).__name__, e.type.name) in needed[1]:
            d = gen.visit(e) + ";"
        else:
            continue
        if packed and any(x is rec for x in all_nodes(e)):
            k = d.rindex("}")
            d = d[:k + 1] + " __attribute__((packed))" + d[k + 1:]
        definitions.append(d)
    return RecordLayout(spelled, tuple(definitions), _fields(types, rec), packed, other)


def _attributes(text: str, rec) -> tuple[bool, str]:
    """(packed, any other layout attribute or pragma, as written) of the struct definition
    `rec`, read from the file's text: `} __attribute__((packed)) RGBTRIPLE;` (CS50)."""
    other = "#pragma pack" if re.search(r"^\s*#\s*pragma\s+pack\b", text, re.M) else ""
    if rec is None or rec.coord is None or not text:
        return False, other
    lines = text.split("\n")
    start = sum(len(ln) + 1 for ln in lines[:max(rec.coord.line - 1, 0)])
    brace = text.find("{", start)
    if brace < 0:
        return False, other
    depth, k = 0, brace
    while k < len(text):
        depth += (text[k] == "{") - (text[k] == "}")
        if depth == 0:
            break
        k += 1
    end = text.find(";", k)
    found = re.findall(r"__attribute__\s*\(\((.*?)\)\)", text[start:end if end > 0 else len(text)], re.S)
    words = {w.strip() for f in found for w in f.split(",") if w.strip()}
    packed = bool(words & {"packed", "__packed__"})
    rest = sorted(w for w in words if w not in ("packed", "__packed__"))
    return packed, other or ", ".join(f"__attribute__(({w}))" for w in rest)


def _needed_types(types, t) -> tuple[set[str], set[tuple[str, str]]]:
    """The typedef names and (kind, tag) of the structs, unions and enums that type t uses."""
    names, tags, stack = set(), set(), [t]
    while stack:
        n = stack.pop()
        for x in all_nodes(n):
            if isinstance(x, c_ast.IdentifierType):
                for w in x.names:
                    if w in types.typedefs and w not in names:
                        names.add(w)
                        stack.append(types.typedefs[w])
            elif isinstance(x, (c_ast.Struct, c_ast.Union, c_ast.Enum)) and x.name:
                key = (type(x).__name__, x.name)
                if key not in tags:
                    tags.add(key)
                    full = types.structs.get(key)
                    if full is not None and full is not x:
                        stack.append(full)
    return names, tags


def _fields(types, rec) -> tuple:
    gen = c_generator.CGenerator()
    out = []
    for k, d in enumerate(rec.decls or ()):
        t, dims = d.type, []
        while True:
            u = types.unalias(t)
            if isinstance(u, c_ast.ArrayDecl):
                dims.append(gen.visit(u.dim) if u.dim is not None else "0")
                t = u.type
            else:
                t = u
                break
        if getattr(d, "bitsize", None) is not None:
            kind = "bit-field"
        elif isinstance(t, c_ast.PtrDecl):
            kind = "void *"
        elif isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.Enum):
            kind = "int"
        elif isinstance(t, c_ast.TypeDecl) and types.arithmetic(t):
            kind = " ".join(w for w in t.type.names if w not in ("const", "volatile"))
            kind = _resolve_words(types, kind)
        else:
            inner, _ = types.record(t) if isinstance(t, c_ast.TypeDecl) else (None, None)
            if inner is None and isinstance(getattr(t, "type", None), (c_ast.Struct, c_ast.Union)):
                inner = t.type if t.type.decls is not None else None
            kind = "union" if isinstance(inner, c_ast.Union) else _fields(types, inner) if inner is not None else "?"
        out.append((d.name or f"lx_anon{k}", kind, tuple(dims)))
    return tuple(out)


def _resolve_words(types, kind: str) -> str:
    for _ in range(64):
        td = types.typedefs.get(kind)
        if td is None or not isinstance(td.type, c_ast.TypeDecl) or not isinstance(td.type.type, c_ast.IdentifierType):
            return kind
        kind = " ".join(td.type.type.names)
    return kind


def check_whole_uses(items, bases: dict[str, str], spellings, error) -> None:
    """After the members are rewritten, a base left in the region is the struct used whole."""
    for it in items:
        stack = [it]
        while stack:
            n = stack.pop()
            if isinstance(n, c_ast.UnaryOp) and n.op == "sizeof":
                continue
            if isinstance(n, c_ast.ID) and n.name in bases:
                raise error(n, f"the region uses the array of structs '{n.name}' other than through its "
                               f"members (as {bases[n.name]} is)",
                            "read and write its members one by one (p[i].x = q[j].x), outside calls and '&'")
            stack.extend(ch for _, ch in n.children())


def check_whole_values(items, held: dict[str, str], spellings, error) -> None:
    """A struct variable whose members the region reads as variables (MILC's `complex x;`, built
    by CMUL member by member) must not be read or written whole there too: `c[i] = x;` would read
    the struct as it was before the region, not the members' new values.  `held`: struct
    name -> one of its member chains, as written."""
    for it in items:
        stack = [(it, None)]
        while stack:
            n, parent = stack.pop()
            if isinstance(n, c_ast.UnaryOp) and n.op == "sizeof":
                continue
            if isinstance(n, c_ast.ID) and n.name in held and not (
                    isinstance(parent, c_ast.StructRef) and parent.field is n):
                raise error(n, f"the region uses the struct '{n.name}' whole while it keeps its members "
                               f"in variables ({held[n.name]} ...): the whole use would see the struct as "
                               "it was before the region",
                            f"write one assignment per member where the region uses '{n.name}' whole "
                            f"(`... = {held[n.name]};` and so on), or declare '{n.name}' inside the loop")
            stack.extend((ch, n) for _, ch in n.children())


INCDEC = ("p++", "++", "p--", "--")


def check_base_writes(items, bases, by_key, spellings, error) -> None:
    """The region must not change what a chain denotes: no assignment to a base (`g = h`,
    `g[0] = s`, `g++`) nor to a pointer, array or struct member of a chain (`g->p = q`)."""
    for it in items:
        for n in all_nodes(it):
            if isinstance(n, c_ast.Assignment):
                target = n.lvalue
            elif isinstance(n, c_ast.UnaryOp) and n.op in INCDEC:
                target = n.expr
            else:
                continue
            root = target
            while isinstance(root, c_ast.ArrayRef):
                root = root.name
            if isinstance(root, c_ast.ID) and root.name in bases:
                other = next(spellings.text(chs[0].node) for k, chs in by_key.items() if k[0] == root.name)
                mine = [m for i2 in items for m in all_nodes(i2)]
                walked = next((m.rvalue for m in mine if isinstance(m, c_ast.Assignment) and m.op == "="
                               and isinstance(m.lvalue, c_ast.ID) and m.lvalue.name == root.name), None)
                if isinstance(walked, c_ast.ID) and any(
                        isinstance(m, c_ast.UnaryOp) and m.op in INCDEC and isinstance(m.expr, c_ast.ID)
                        and m.expr.name == root.name for m in mine):
                    # MILC's FORALLSITES(i,s): `for (i = 0, s = lattice; ...; i++, s++)`
                    member = other.split("->", 1)[1] if "->" in other else None
                    raise error(n, f"the region steps pointer '{root.name}' along '{walked.name}' "
                                   f"({root.name} = {walked.name}, then {root.name}++), which the model cannot follow",
                                f"index the array with the loop's counter instead: {walked.name}[k] for *{root.name} "
                                f"after k steps" + (f" ({walked.name}[k].{member} for {other})" if member else ""))
                raise error(n, f"the region assigns '{spellings.text(target)}', the base of the struct "
                               f"member '{other}' that looptx reads once before the region",
                            "assign it before or after the region, or copy the members into variables")
