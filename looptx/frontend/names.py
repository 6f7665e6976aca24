"""C identifiers that isl's parser reserves (`max`, `floor`, `and`, ...) are valid C names, so a
loop variable, size or array may carry one.  The model renames them once, on the way in (C AST,
defines, recipe names), to a spelling isl reads as an identifier, and every user-facing text
(generated code, reports, messages) is passed through `to_user` on the way out.

The renaming is a fixed prefix rather than a table so that any piece of text can be translated
back without knowing which program it came from, names built from a renamed one inside the model
included.  Default names that later steps refer to (a tile's control loop `maxmax`) are built
from the user's spelling instead (recipe/apply.py), so that the user can write them.
"""
from __future__ import annotations

import re

from pycparser import c_ast

# isl_stream.c check_keywords(), compared with strcasecmp: `MAX` and `True` are keywords too.
ISL_RESERVED = frozenset("""exists and or implies not infty infinity nan min max rat true false
ceild floord mod ceil floor""".split())
MARK = "lx_kw_"


def is_reserved(name: str) -> bool:
    return name.lower() in ISL_RESERVED


def to_model(name):
    """The model's spelling of a user's name (other values pass through)."""
    if isinstance(name, str) and is_reserved(name):
        return MARK + name
    return name


# members of arrays of structs that the model names as arrays (frontend/records.py): name ->
# (the user's array, the member path, the array's subscripts).  Fresh names, never the user's.
_records: dict[str, tuple[str, str, int]] = {}


def register_record(name: str, base: str, path: str, rank: int) -> None:
    _records[name] = (base, path, rank)


def forget_records() -> None:
    _records.clear()


def spell_record(name: str, index: list[str]) -> str:
    """`p__pos` with subscripts [1, 0] as the user wrote it: `p[1].pos[0]`."""
    base, path, rank = _records[name]
    if not index:
        return f"{base}[...]{path}"
    return base + "".join(f"[{i}]" for i in index[:rank]) + path + "".join(f"[{i}]" for i in index[rank:])


def to_user(text: str) -> str:
    text = text.replace(MARK, "") if MARK in text else text
    if _records and "__" in text:
        text = re.sub(r"(?<![\w.>])(\w+__\w+)((?:\[[^\[\]]*\])*)",
                      lambda m: spell_record(m.group(1), re.findall(r"\[([^\[\]]*)\]", m.group(2)))
                      if m.group(1) in _records else m.group(0), text)
    return text


def spelled_members(chains: dict[str, str]):
    """A message speller: each variable a struct member is read into (`bp__array`) named by
    the member as written (`bp->array`), which is also how a recipe may name it."""
    def spell(text: str) -> str:
        text = to_user(text)
        for name, chain in chains.items():
            text = re.sub(rf"(?<![\w>.]){re.escape(name)}(?!\w)", lambda _: chain, text)
        return text
    return spell


def rename_reserved(ast: c_ast.Node) -> None:
    """Rename, in place, every variable (declaration and use) whose name isl reserves.  Called
    functions keep their names (`max(a, b)` in a bound is recognized as such), and so do
    function definitions (`--function` names them), struct fields and types."""
    skip: set[int] = set()
    stack = [ast]
    while stack:                  # iterative: a deeply nested expression must not recurse here
        node = stack.pop()
        if isinstance(node, c_ast.FuncCall):
            skip.add(id(node.name))
        elif isinstance(node, c_ast.StructRef):
            skip.add(id(node.field))
        elif isinstance(node, c_ast.Decl) and isinstance(node.type, c_ast.FuncDecl):
            skip.update((id(node), id(_declarator(node.type))))
        elif isinstance(node, c_ast.Typedef):
            skip.add(id(_declarator(node)))
        elif isinstance(node, c_ast.Struct):
            skip.update(id(x) for d in node.decls or () for x in (d, _declarator(d)))
        if id(node) not in skip:
            if isinstance(node, (c_ast.ID, c_ast.Decl, c_ast.Enumerator)) and node.name:
                node.name = to_model(node.name)
            elif isinstance(node, c_ast.TypeDecl) and node.declname:
                node.declname = to_model(node.declname)
        stack.extend(ch for _, ch in node.children())


def _declarator(node):
    """The TypeDecl that carries a declaration's name (under pointers, arrays, functions)."""
    t = node.type
    while isinstance(t, (c_ast.PtrDecl, c_ast.ArrayDecl, c_ast.FuncDecl)):
        t = t.type
    return t


def with_values(text: str, values) -> str:
    """C text with each name that `values` gives replaced by its value."""
    return re.sub(r"[A-Za-z_]\w*", lambda m: str(values.get(m.group(0), m.group(0))), text)


# C's keywords: no variable, macro or generated name is one
C_KEYWORDS = frozenset("""auto break case char const continue default do double else enum extern float for goto
if inline int long register restrict return short signed sizeof static struct switch typedef union
unsigned void volatile while""".split())
