"""Declarations visible at a region: names, C types and array extents (from pycparser)."""
from __future__ import annotations

import copy as _copy
import re
from dataclasses import dataclass, field, replace

from pycparser import c_ast, c_generator

from looptx.frontend.int_ranges import int_type, type_limits

_GEN = c_generator.CGenerator()

INT_TYPES = {"int", "long", "short", "char", "unsigned", "signed", "size_t", "ssize_t", "ptrdiff_t",
             "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t",
             "uint64_t", "intptr_t", "uintptr_t", "intmax_t", "uintmax_t", "bool", "_Bool"}
FLOAT_TYPES = {"float", "double"}
ARITH_WORDS = INT_TYPES | FLOAT_TYPES       # the words of an arithmetic type's name


def id_names(node) -> set[str]:
    """The names of every identifier in an expression or statement."""
    out = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.ID):
            out.add(n.name)
        stack.extend(ch for _, ch in n.children())
    return out


def c_text(node) -> str:
    return _GEN.visit(node) if node is not None else ""


@dataclass(frozen=True)
class Symbol:
    name: str
    kind: str                 # 'var' | 'array' | 'func' | 'typedef'
    ctype: str                # element (or variable) type, e.g. 'double', 'unsigned int'
    dims: tuple[str, ...] = ()   # C text of each extent, '' when unknown (pointers, `A[]`)
    is_const: bool = False
    line: int = 0
    decl_text: str = ""
    # the element type and decl_text as the user spelled them (`DATA_TYPE`, frontend/spelling),
    # where they differ; printing only, so not part of what a symbol is
    spelled_ctype: str = field(default="", compare=False)
    spelled_decl: str = field(default="", compare=False)

    @property
    def is_int(self) -> bool:
        return self.kind == "var" and bool(set(self.ctype.split()) & INT_TYPES) \
            and not set(self.ctype.split()) & FLOAT_TYPES


def _base_type(t) -> tuple[str, tuple[str, ...], bool]:
    """(element type, extents, const) of a declarator."""
    dims: list[str] = []
    const = False
    while True:
        if isinstance(t, c_ast.ArrayDecl):
            dims.append(c_text(t.dim) if t.dim is not None else "")
            t = t.type
        elif isinstance(t, c_ast.PtrDecl):
            dims.append("")
            t = t.type
        elif isinstance(t, c_ast.TypeDecl):
            const = "const" in (t.quals or [])
            inner = t.type
            if isinstance(inner, c_ast.IdentifierType):
                return " ".join(inner.names), tuple(dims), const
            if isinstance(inner, (c_ast.Struct, c_ast.Union)):
                return f"struct {inner.name}", tuple(dims), const
            if isinstance(inner, c_ast.Enum):
                return "int", tuple(dims), const
            return c_text(inner), tuple(dims), const
        elif isinstance(t, c_ast.FuncDecl):
            return "function", tuple(dims), const
        else:
            return c_text(t), tuple(dims), const


def int_var(sym: "Symbol | None", lookup) -> bool:
    """An integer variable, its type through typedefs (libCEED's `CeedInt`)."""
    return sym is not None and replace(sym, ctype=arithmetic_type(sym.ctype, lookup)).is_int


def typedef_words(ast) -> dict[str, list[str]]:
    """The file's typedefs of plain types: name -> the words it stands for."""
    return {d.name: list(d.type.type.names) for d in getattr(ast, "ext", ())
            if isinstance(d, c_ast.Typedef) and isinstance(d.type, c_ast.TypeDecl)
            and isinstance(d.type.type, c_ast.IdentifierType)}


def resolve_typedef(ctype: str, lookup) -> str:
    """The arithmetic type a typedef name stands for (`typedef char base;` -> 'char'), through
    chains of typedefs; other types (structs, arrays, unknown names) are returned unchanged."""
    seen = set()
    words = ctype.split()
    while len(words) == 1 and words[0] not in seen:
        seen.add(words[0])
        sym = lookup(words[0])
        if sym is not None and sym.kind == "typedef" and re.match(r"enum\b", sym.ctype):
            words = ["int"]         # PETSc's PetscBool, libCEED's CeedEvalMode: C's enums are ints
            break
        if sym is None or sym.kind != "typedef" or not re.fullmatch(r"[A-Za-z_]\w*( [A-Za-z_]\w*)*", sym.ctype):
            break
        # (a qualifier at a link of the chain: `typedef const myint cidx_t;`)
        words = [w for w in sym.ctype.split() if w not in _QUALIFIERS] or sym.ctype.split()
    return " ".join(words) if words != ctype.split() else ctype


_QUALIFIERS = {"const", "volatile", "restrict", "register", "static", "extern"}


def arithmetic_type(ctype: str, lookup) -> str:
    """The type's words without qualifiers, a typedef name resolved (`const Index_t` -> 'int')."""
    words = [w for w in ctype.split() if w not in _QUALIFIERS]
    return resolve_typedef(words[0], lookup) if len(words) == 1 else " ".join(words)


def symbol_of(decl: c_ast.Decl, spellings=None) -> Symbol | None:
    if decl.name is None:
        return None
    line = decl.coord.line if decl.coord else 0
    if "typedef" in (decl.storage or []):
        return Symbol(decl.name, "typedef", c_text(decl.type), line=line)
    if isinstance(decl.type, c_ast.FuncDecl):
        return Symbol(decl.name, "func", "function", line=line)
    ctype, dims, const = _base_type(decl.type)
    kind = "array" if dims else "var"
    t = decl.type
    while isinstance(t, (c_ast.ArrayDecl, c_ast.PtrDecl)):
        t = t.type
    spelled = spellings.type_name(t, qualified=True) if spellings is not None else None
    return Symbol(decl.name, kind, ctype, dims, const or "const" in (decl.quals or []), line,
                  c_text(decl), spelled or "")


class DeclCollector(c_ast.NodeVisitor):
    """Every declaration inside a subtree (function bodies: locals at any depth)."""

    def __init__(self):
        self.decls: list[c_ast.Decl] = []

    def visit_Decl(self, node):
        self.decls.append(node)
        self.generic_visit(node)

    def visit_FuncDef(self, node):          # nested function definitions are not C
        self.visit(node.decl)
        self.visit(node.body)


def once_blocks(node) -> None:
    """Rewrites, in place, the idioms that mean a plain block or subscript: `do { ... } while
    (0)` (the body of statement-like macros, DJB's U32TO8_LITTLE) as its body, and `(p + e)[k]`
    (`U32TO8_LITTLE(output + 4 * i, x)` expanded) as `p[e + k]`."""
    import copy
    for n in all_nodes(node):
        for name, child in list(n.children()):
            new = child
            if isinstance(child, c_ast.DoWhile) and isinstance(child.cond, c_ast.Constant) \
                    and child.cond.value in ("0", "0U", "0u"):
                new = child.stmt if isinstance(child.stmt, c_ast.Compound) else \
                    c_ast.Compound([child.stmt], coord=child.coord)
            elif isinstance(child, c_ast.ArrayRef) and isinstance(child.name, c_ast.BinaryOp) \
                    and child.name.op == "+" and isinstance(child.name.left, c_ast.ID):
                new = c_ast.ArrayRef(child.name.left, c_ast.BinaryOp(
                    "+", copy.deepcopy(child.name.right), child.subscript, coord=child.coord), coord=child.coord)
            if new is child:
                continue
            m = re.fullmatch(r"(\w+)\[(\d+)\]", name)
            if m:
                getattr(n, m.group(1))[int(m.group(2))] = new
            else:
                setattr(n, name, new)


def typedef_arrays_expanded(ast: c_ast.FileAST) -> None:
    """Rewrites, in place, each declaration whose type is a typedef of an array or pointer type
    (tiny-AES's `typedef uint8_t state_t[4][4]; state_t *state;`, libjpeg's `typedef JSAMPLE
    *JSAMPROW; JSAMPROW inptr;`) with the declarators the typedef stands for, as gcc reads it
    (`uint8_t (*state)[4][4]`): its subscripts count as the array's dimensions."""
    import copy
    shapes = {}
    for e in ast.ext:
        if isinstance(e, c_ast.Typedef) and isinstance(e.type, (c_ast.ArrayDecl, c_ast.PtrDecl)):
            inner = e.type
            while isinstance(inner, (c_ast.ArrayDecl, c_ast.PtrDecl)):
                inner = inner.type
            # (a pointer to a struct stays a name: its definition would be copied along)
            if isinstance(inner, c_ast.TypeDecl) and isinstance(inner.type, c_ast.IdentifierType):
                shapes[e.name] = e.type
    if not shapes:
        return
    for n in all_nodes(ast):
        if not isinstance(n, (c_ast.Decl, c_ast.Typedef)) or isinstance(n.type, c_ast.FuncDecl):
            continue
        for _ in range(8):          # a typedef of a typedef (libjpeg's JSAMPARRAY of JSAMPROW)
            holder, t = n, n.type
            while isinstance(t, (c_ast.ArrayDecl, c_ast.PtrDecl)):
                holder, t = t, t.type
            if not (isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType)
                    and len(t.type.names) == 1 and t.type.names[0] in shapes):
                break
            chain = copy.deepcopy(shapes[t.type.names[0]])
            inner = chain
            while isinstance(inner.type, (c_ast.ArrayDecl, c_ast.PtrDecl)):
                inner = inner.type
            inner.type.declname = t.declname
            inner.type.quals = list(dict.fromkeys(list(inner.type.quals or []) + list(t.quals or [])))
            holder.type = chain


def split_chained_assignments(node) -> None:
    """Rewrites, in place, each statement `a = b = E;` as `b = E; a = b;` (the value of an
    assignment is its left side's new value, so this is exact), and `a += b, d ^= a;` as its
    parts.  Real kernels write them (MILC's
    `cr = ci = 0.0;`); each part is then a statement of its own, numbered in that order."""
    import copy
    loops = (c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.If)

    def chained(st) -> bool:
        return isinstance(st, c_ast.Assignment) and isinstance(st.rvalue, c_ast.Assignment) \
            and st.rvalue.op == "="

    def listed(st) -> bool:
        # a comma list of updates as a statement (Wikipedia's ChaCha `QR(a, b, c, d)`:
        # `(a += b, d ^= a, d = ROTL(d, 16), ...)`): C runs them one after another
        return isinstance(st, c_ast.ExprList) and all(
            isinstance(e, c_ast.Assignment) or isinstance(e, c_ast.UnaryOp) and e.op in ("p++", "p--", "++", "--")
            for e in st.exprs)

    def split(st) -> list:
        if listed(st):
            return [p for e in st.exprs for p in split(e)]
        if not chained(st):
            return [st]
        inner = st.rvalue
        outer = c_ast.Assignment(st.op, st.lvalue, copy.deepcopy(inner.lvalue), coord=st.coord)
        return split(inner) + [outer]

    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Compound) and n.block_items:
            n.block_items = [p for it in n.block_items for p in split(it)]
        elif isinstance(n, loops):
            for attr in ("stmt", "iftrue", "iffalse"):
                body = getattr(n, attr, None)
                if chained(body) or listed(body):
                    setattr(n, attr, c_ast.Compound(split(body), coord=body.coord))
        stack.extend(ch for _, ch in n.children())


def iterator_types(names, ctypes, lookup) -> tuple[tuple[str, str, str], ...]:
    """(name, type, the user's spelling of it or '') of the loop iterators declared with a type
    other than int: generated code reads them as that type (`i - 3` wraps for a size_t i)."""
    out = []
    for name, ctype in zip(names, ctypes):
        spelled = " ".join(w for w in ctype.split() if w not in _QUALIFIERS)
        t = arithmetic_type(ctype, lookup)
        if t not in ("int", "signed", "signed int", ""):
            out.append((name, t, spelled if spelled != t else ""))
    return tuple(out)


UNSIGNED_WORDS = {"unsigned", "size_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "uintptr_t",
                  "uintmax_t", "_Bool", "bool"}
# a type with one of these words is 64-bit on the LP64 machines looptx targets
WIDE_WORDS = {"long", "size_t", "ssize_t", "ptrdiff_t", "intptr_t", "uintptr_t", "int64_t", "uint64_t",
              "intmax_t", "uintmax_t", "off_t"}


def narrow_range(sym: Symbol | None, symbols: dict) -> tuple[int, int] | None:
    """The values a variable of a type narrower than int holds (char, short, bool), or of an
    unsigned type: (0, 2**31 - 1), as far as an int size goes; None for int and wider."""
    if sym is None or sym.kind != "var":
        return None
    found = int_type(arithmetic_type(sym.ctype, symbols.get).split())
    if found is None:
        return None
    (bits, unsigned), _, _ = found
    if bits < 32:
        return type_limits((bits, unsigned))
    return (0, 2 ** 31 - 1) if unsigned else None


def has_type_word(sym: Symbol | None, symbols: dict, words: set[str]) -> bool:
    """Whether a variable's arithmetic type (typedefs resolved) has one of `words`."""
    if sym is None or sym.kind != "var":
        return False
    return bool(set(arithmetic_type(sym.ctype, symbols.get).split()) & words)


def c_nodes(node):
    """A pycparser tree, node by node."""
    yield node
    for _, ch in node.children():
        yield from c_nodes(ch)


def wide_subscript(node, symbol, lookup, loops) -> bool:
    """Whether a subscript computes in a 64-bit type: a cast to one, or a variable of one."""
    for n in c_nodes(node):
        if isinstance(n, c_ast.Cast) and isinstance(n.to_type.type, c_ast.TypeDecl) \
                and isinstance(n.to_type.type.type, c_ast.IdentifierType):
            words = " ".join(n.to_type.type.type.names)
        elif isinstance(n, c_ast.ID) and n.name.startswith("lx_"):
            continue        # looptx's row lengths: long, and printed as they are
        elif isinstance(n, c_ast.ID) and n.name not in {lp.iterator for lp in loops}:
            sym = symbol(n.name)
            words = sym.ctype if sym is not None and sym.kind == "var" else ""
        elif isinstance(n, c_ast.ID):
            words = next((lp.ctype for lp in loops if lp.iterator == n.name), "")
        else:
            continue
        if set(arithmetic_type(words, lookup).split()) & WIDE_WORDS:
            return True
    return False


def continues_as_guards(node) -> None:
    """Rewrites, in place, `if (c) continue;` at the top level of a for loop's body as a guard
    around the rest of the body, `if (!(c)) { rest }` (and `if (c) { S; continue; } else E;` as
    `if (c) { S; } else { E; rest }`, and a continue ending the else branch alike): exact, and the guard is an if like any other (affine: a
    piece of the domain; on data: conditional assignments).  A `continue` anywhere else is still
    refused where it stands."""
    def ends_in_continue(st) -> list | None:
        """The branch's statements before its final continue, None when it does not end so."""
        if isinstance(st, c_ast.Continue):
            return []
        if isinstance(st, c_ast.Compound) and st.block_items and isinstance(st.block_items[-1], c_ast.Continue):
            return list(st.block_items[:-1])
        return None

    def guarded(items: list) -> list:
        for k, it in enumerate(items):
            if not isinstance(it, c_ast.If):
                continue
            before = ends_in_continue(it.iftrue)
            if before is None:
                skipped = ends_in_continue(it.iffalse) if it.iffalse is not None else None
                if skipped is None:
                    continue
                # `if (c) S; else { T; continue; }` runs S and then the rest of the body
                rest = c_ast.Compound(guarded([it.iftrue] + items[k + 1:]), coord=it.coord)
                return items[:k] + [c_ast.If(it.cond, rest, c_ast.Compound(skipped, coord=it.iffalse.coord),
                                             coord=it.coord)]
            # `if (c) { ...; continue; } else E;` runs E and then the rest of the body
            rest = c_ast.Compound(guarded(([it.iffalse] if it.iffalse is not None else []) + items[k + 1:]),
                                  coord=it.coord)
            if before or it.iffalse is not None:
                return items[:k] + [c_ast.If(it.cond, c_ast.Compound(before, coord=it.iftrue.coord),
                                             rest, coord=it.coord)]
            return items[:k] + [c_ast.If(c_ast.UnaryOp("!", it.cond, coord=it.cond.coord), rest, None,
                                         coord=it.coord)]
        return items

    for n in all_nodes(node):
        if isinstance(n, c_ast.For) and n.stmt is not None:
            body = n.stmt if isinstance(n.stmt, c_ast.Compound) else c_ast.Compound([n.stmt], coord=n.stmt.coord)
            items = guarded(list(body.block_items or []))
            if items != list(body.block_items or []):
                n.stmt = c_ast.Compound(items, coord=body.coord)


def pointer_names(node) -> set[str]:
    """Names declared as pointers or arrays under `node` (struct members included)."""
    return {n.name for n in all_nodes(node)
            if isinstance(n, c_ast.Decl) and isinstance(n.type, (c_ast.PtrDecl, c_ast.ArrayDecl)) and n.name}


def pointer_plus_offset(e, pointers: set[str]):
    """(p, offset) of a pointer expression `p + e`, `e + p`, `p + i - 1` or `p` (offset None),
    where p is a name or member chain (`g->u`) that `pointers` names; None otherwise."""
    def is_pointer(x) -> bool:
        name = x.name if isinstance(x, c_ast.ID) else x.field.name if isinstance(x, c_ast.StructRef) else None
        return name in pointers

    def terms(x, sign: int) -> list:
        if isinstance(x, c_ast.BinaryOp) and x.op in ("+", "-"):
            return terms(x.left, sign) + terms(x.right, sign if x.op == "+" else -sign)
        return [(sign, x)]
    parts = terms(e, 1)
    bases = [t for t in parts if is_pointer(t[1])]
    if len(bases) != 1 or bases[0][0] != 1:
        return None
    index = None
    for sign, t in parts:
        if t is bases[0][1]:
            continue
        if index is None:
            index = t if sign > 0 else c_ast.UnaryOp("-", t, coord=t.coord)
        else:
            index = c_ast.BinaryOp("+" if sign > 0 else "-", index, t, coord=t.coord)
    return bases[0][1], index


def dereferences_as_subscripts(node) -> None:
    """Rewrites, in place, `*(p + e)`, `*(e + p)`, `*(p + i - 1)` and `*p` as `p[e]`, `p[i - 1]`
    and `p[0]`, where p names a pointer or array the file declares (or a pointer member,
    `*(g->u + i)`): the same element, which the model reads as a subscript; `(*g).f` is `g->f`."""
    pointers = pointer_names(node)

    def is_pointer(x) -> bool:
        return pointer_plus_offset(x, pointers) is not None and isinstance(x, (c_ast.ID, c_ast.StructRef))

    def subscript(x):
        if not (isinstance(x, c_ast.UnaryOp) and x.op == "*"):
            return None
        split = pointer_plus_offset(x.expr, pointers)
        if split is None:
            return None
        base, index = split
        return c_ast.ArrayRef(base, index or c_ast.Constant("int", "0", coord=x.coord), coord=x.coord)

    for n in all_nodes(node):
        if isinstance(n, c_ast.StructRef) and isinstance(n.name, c_ast.UnaryOp) and n.name.op == "*":
            if n.type == "." and is_pointer(n.name.expr):
                n.name, n.type = n.name.expr, "->"          # (*g).sum is g->sum
            continue            # members.py names any other dereference as the struct's base
        for attr in getattr(n, "__slots__", ()):
            child = getattr(n, attr, None)
            if isinstance(child, c_ast.Node):
                new = subscript(child)
                if new is not None:
                    setattr(n, attr, new)
            elif isinstance(child, list):
                setattr(n, attr, [subscript(c) or c if isinstance(c, c_ast.Node) else c for c in child])


def chain_operands(node, op: str) -> list:
    """The operands of a chain of one binary operator (`a && b && c`, `49 + x + k`), in source
    order, walked without recursion."""
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.BinaryOp) and n.op == op:
            stack += [n.right, n.left]
        else:
            out.append(n)
    return out


def sum_terms(node) -> list:
    """The terms of a sum of `+` and `-` (`i - offsets[j] + 1`), signs dropped."""
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.BinaryOp) and n.op in ("+", "-"):
            stack += [n.right, n.left]
        else:
            out.append(n)
    return out


def all_nodes(node):
    """Every node under `node`, itself first; a node's children are read after it is yielded,
    so a caller may replace them first."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(ch for _, ch in n.children())


def typedefs_resolved(decl: c_ast.Decl, lookup) -> c_ast.Decl:
    """The declaration with a typedef'd arithmetic element type written as the type it names."""
    t = decl.type
    while isinstance(t, (c_ast.ArrayDecl, c_ast.PtrDecl)):
        t = t.type
    if not (isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType)):
        return decl
    words = " ".join(t.type.names)
    resolved = arithmetic_type(words, lookup)
    if not resolved or resolved == words:
        return decl
    out = _copy.deepcopy(decl)
    t = out.type
    while isinstance(t, (c_ast.ArrayDecl, c_ast.PtrDecl)):
        t = t.type
    t.type = c_ast.IdentifierType(resolved.split())
    return out


def counters_zeroed(node, counters: dict[str, str]):
    """A copy of `node` with each name of `counters` (name -> its declared type) replaced by a
    0 of its type: `sizeof(i)` of a long i stays 8."""
    def zero(name: str):
        ctype = counters[name]
        if ctype == "int":
            return c_ast.Constant("int", "0")
        typename = c_ast.Typename(None, [], None, c_ast.TypeDecl(None, [], None, c_ast.IdentifierType(ctype.split())))
        return c_ast.Cast(typename, c_ast.Constant("int", "0"))
    node = _copy.deepcopy(node)
    stack = [node]
    while stack:
        n = stack.pop()
        for attr in getattr(n, "__slots__", ()):
            child = getattr(n, attr, None)
            if isinstance(child, c_ast.ID) and child.name in counters:
                setattr(n, attr, zero(child.name))
            elif isinstance(child, c_ast.Node):
                stack.append(child)
            elif isinstance(child, list):
                for k, c in enumerate(child):
                    if isinstance(c, c_ast.ID) and c.name in counters:
                        child[k] = zero(c.name)
                    elif isinstance(c, c_ast.Node):
                        stack.append(c)
    return node


def volatile_elements(sym: Symbol) -> bool:
    """`volatile float *out`, `float volatile a[8]`: a qualifier before the declarator (one
    after a `*`, `float *volatile p`, is the pointer's)."""
    head = re.split(rf"[*\[(]|\b{re.escape(sym.name)}\b", sym.decl_text, maxsplit=1)[0]
    return "volatile" in head.split()
