"""Struct members in a region (`g->n`, `s.len`, `g->a[i][j]`, `p->u[i]`), hoisted by the tool.

The region is modelled and regenerated as if the user had copied every member chain it uses into
a variable just before it, which is the usual manual fix:

    const int g__n = g->n;              scalar member, read only: a parameter like `int n`
    double (*const g__a)[64] = g->a;    array member: a pointer to its rows, extents [64][64]
    double *const g__u = g->u;          pointer member: extent unknown, like a pointer parameter
    double s__acc = s->acc;             scalar member the region writes ...
    s->acc = s__acc;                    ... written back after the region

so everything downstream sees ordinary variables, parameters and arrays.  That is exact when the
chain's value cannot change inside the region: the region must not assign a pointer or array
member, nor any part of a chain's base, and a written scalar member must not be reachable
through another chain of the region (two pointers to one struct).  What cannot be hoisted is
refused with the manual fix as the hint.

The region's items are rewritten on a copy: only the nodes on the path to a member chain are
copied, the rest of the tree is shared, so positions and the user's spellings stay with it.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field, replace

from pycparser import c_ast

from looptx.errors import SourceError, note_once, spelled_as_written
from looptx.frontend.elements import constant_elements, note_elements
from looptx.frontend.names import spelled_members, to_user
from looptx.frontend.records import (Record, check_base_writes, check_whole_uses, check_whole_values, layout_of,
                                     record_declarator)
from looptx.frontend.spelling import Spellings
from looptx.frontend.symbols import ARITH_WORDS, DeclCollector, Symbol, all_nodes, symbol_of, typedef_words

_ARITH = ARITH_WORDS
_INCDEC = ("p++", "++", "p--", "--")
_COPY_HINT = "copy the value into a variable before the region"


@dataclass(frozen=True)
class Member:
    """One hoisted chain."""
    chain: str                 # as the user wrote it: `g->a`
    name: str                  # the variable that stands for it in the region
    symbol: Symbol             # what the region sees (a variable, parameter or array)
    decl: str                  # `double (*const g__a)[64] = g->a;`
    written: bool = False      # a scalar member the region assigns
    element: bool = False      # an element at constant subscripts (elements.py), not a member
    record: Record | None = None   # a member of an array of structs (records.py): not hoisted
    dead_after: bool = False   # of a local struct that nothing outside the region uses
    node: object = field(default=None, compare=False)   # its declaration (c_ast.Decl)

    @property
    def write_back(self) -> str:
        return f"{self.chain} = {self.name};" if self.written and not self.dead_after else ""


@dataclass(frozen=True)
class Hoist:
    """The region's items with every member chain replaced by its variable, and the members."""
    items: tuple
    members: tuple[Member, ...] = ()
    spellings: Spellings | None = None
    file: str = ""
    line: int = 0

    @property
    def symbols(self) -> dict[str, Symbol]:
        return {m.name: m.symbol for m in self.members}

    @property
    def live_out(self) -> dict[str, str]:
        """Why the function may read each hoisted variable's value after the region (all of
        them: written scalars are stored back into the struct, the others are its data)."""
        return {m.name: (f"it is written back to '{m.chain}' after the region" if m.written
                         else f"it is the array element '{m.chain}'" if m.element
                         else f"it is the member '{m.record.path}' of the array of structs "
                              f"'{m.record.base}'" if m.record
                         else f"it is the struct member '{m.chain}'") for m in self.members
                if not m.dead_after}

    @property
    def dead_locals(self) -> dict:
        """name -> declaration of the variables of a local struct dead after the region
        (MILC's `complex x;`): locals of the function as far as privatize is concerned."""
        return {m.name: m.node for m in self.members if m.dead_after}

    def explaining(self):
        """Errors and notes about a hoisted variable name the member the user wrote."""
        return spelled_as_written(spelled_members({m.name: m.chain for m in self.members if not m.record}))

    def note(self) -> None:
        """Says what was hoisted (before the notes of the region's analysis, which name the
        variables; a region that fails drops it with them)."""
        chains = [m for m in self.members if not m.element and not m.record]
        note_elements([m for m in self.members if m.element], self.file, self.line)
        if not chains:
            return
        text = (f"struct members are read once before the region: {', '.join(to_user(m.chain) for m in chains)} "
                f"(as {', '.join(to_user(m.name) for m in chains)})")
        written = [to_user(m.chain) for m in chains if m.written and not m.dead_after]
        if written:
            text += f"; {', '.join(written)} {'is' if len(written) == 1 else 'are'} written back after it"
        note_once(self.file, self.line or 1, text)

    def attach(self, scop):
        """The scop with the declarations and write-backs its regenerated code needs."""
        if not self.members:
            return scop
        # a local struct that only the region used is named nowhere else now: gcc -Wunused-variable
        unused = dict.fromkeys(re.match(r"\w+", m.chain).group() for m in self.members if m.dead_after)
        return replace(scop, hoisted=tuple((m.decl, m.write_back) for m in self.members if not m.record)
                       + tuple((f"(void){base};", "") for base in unused),
                       unloaded=tuple((m.name, re.sub(r"\s", "", m.chain)) for m in self.members
                                      if m.written and m.decl.endswith(f"{m.name};")),
                       records=tuple(m.record for m in self.members if m.record))


@dataclass(frozen=True)
class _Chain:
    node: c_ast.StructRef
    base: str
    steps: tuple[tuple[str, str], ...]          # (op, field) from the base out
    lvalue: bool = False                       # assigned (or ++/--) as a whole
    subs: tuple = ()                           # an array of structs' subscripts (`p[i][j].x`)
    argument: bool = False                     # an argument of a call (`f(s->boxes, i)`)

    @property
    def key(self):
        return (self.base, self.steps, len(self.subs))

    @property
    def all_dot(self) -> bool:
        return all(op == "." for op, _ in self.steps)


def hoist_members(items, *, ast, fdef, where, spellings: Spellings, start, end, text: str, path: str,
                  line: int = 0) -> Hoist:
    """The region's items with their member chains replaced (`start`, `end`: the region's first
    and past-the-last positions; `text`: the file as the user wrote it, for names that must not
    clash)."""
    def error(node, what, hint=_COPY_HINT) -> SourceError:
        ln, col = where(node)
        return SourceError(what, hint=hint, file=path, line=ln, col=col)

    found = _find_chains(items, spellings, error)
    inside = {d.name for it in items for d in _decls(it) if d.name}
    # the file's declarations and names, read only for a region that has something to hoist
    known: dict = {}

    def decls_of() -> dict:
        if "decls" not in known:
            known["decls"] = _visible_decls(ast, fdef, where, start)
        return known["decls"]

    def fresh(stem: str) -> str:
        if "taken" not in known:
            known["taken"] = _identifiers(ast)
        name = _fresh(stem, known["taken"], text)
        known["taken"].add(name)
        return name
    elements, element_repl = constant_elements(items, decls_of, inside, spellings, fresh,
                                               lambda: typedef_words(ast))
    if not found and not elements:
        return Hoist(tuple(items), spellings=spellings, file=path, line=line)
    decls = decls_of()
    types = _Types(ast)
    by_key: dict[tuple, list[_Chain]] = {}
    for ch in found:
        by_key.setdefault(ch.key, []).append(ch)
    records = {ch.base: spellings.text(ch.node) for ch in found if ch.subs}
    for ch in found:
        if not ch.subs and ch.base in records:
            raise error(ch.node, f"'{spellings.text(ch.node)}' and '{records[ch.base]}' reach the same array of "
                                 "structs, once without a subscript", f"write {ch.base}[0] for the first element")
    bases = {ch.base for ch in found if not ch.subs}
    for it in items:
        for n in all_nodes(it):
            if isinstance(n, c_ast.For) and isinstance(n.init, c_ast.Assignment) \
                    and isinstance(n.init.lvalue, c_ast.StructRef):
                raise error(n.init, f"the loop iterator '{spellings.text(n.init.lvalue)}' is a struct member",
                            "count with a local variable, and store it into the member after the loop")
    # the region's own structs are its locals: a whole use is refused below, saying why
    check_base_writes(items, bases - inside, by_key, spellings, error)
    from looptx.frontend.struct_locals import only_in, scalarized, unset_before
    local_repl, expand, done, why = scalarized(items, by_key, inside, types, fresh, error)
    by_key = {k: v for k, v in by_key.items() if k[0] not in done}

    members, repl, info, holders, skipped = [], {**element_repl, **local_repl}, {}, {}, []
    for key, uses in by_key.items():
        first = uses[0]
        chain = spellings.text(first.node)
        if first.base in inside:
            _refuse_call_with(items, first.base, error)
            if first.base in why:
                raise error(first.node, f"the struct member '{chain}' belongs to '{first.base}', which the "
                                        f"region declares, and {why[first.base]}: looptx models such a "
                                        f"struct as one variable per member",
                            "keep the union's use outside the region" if why[first.base] == "it is a union" else
                            f"use '{first.base}' member by member, or use a variable per member yourself")
            raise error(first.node, f"the struct member '{chain}' belongs to '{first.base}', which is "
                                    "declared inside the region", "declare it before the region")
        decl = decls.get(first.base)
        if decl is None:
            raise error(first.node, f"undeclared identifier '{first.base}'", "declare it before the region")
        if first.subs:
            name = fresh("__".join([first.base, *(f for _, f in first.steps)]))
            d, element, holders[key] = record_declarator(types, decl, len(first.subs), first.steps, chain,
                                                         first.node, name, error)
            rec = Record(name, first.base, "".join(f".{f}" for _, f in first.steps), len(first.subs),
                         layout_of(types, element, ast, first.node, error, text))
            info[key] = Member(rec.spell(["..."] * rec.rank), name, symbol_of(_decl(name, d), spellings), "",
                               record=rec)
            members.append(info[key])
            for u in uses:
                repl[id(u.node)] = _subscripted(name, u)
            continue
        member, holders[key], const = types.chain(decl.type, first.steps, chain, first.node, error)
        written = any(u.lvalue for u in uses)
        name = fresh("__".join([first.base, *(f for _, f in first.steps)]))
        try:
            m = types.member(member, name, chain, written, const, spellings, first.node, error, by_key, key)
        except SourceError:
            if all(u.argument for u in uses):
                skipped.append(key)     # what a call takes (`f(s->boxes)`): the call is what the model refuses
                continue
            raise
        if m.written and unset_before(fdef, decl, where, start):
            m = replace(m, decl=m.decl.rsplit(" = ", 1)[0] + ";", dead_after=only_in(fdef, decl, where, start, end))
        members.append(m)
        info[key] = m
        for u in uses:
            repl[id(u.node)] = c_ast.ID(name, u.node.coord)
    # the chains an assignment's target holds (`U.g[i][j] = ...`: an array member written)
    targets = [n.lvalue if isinstance(n, c_ast.Assignment) else n.expr for it in items for n in all_nodes(it)
               if isinstance(n, c_ast.Assignment) or isinstance(n, c_ast.UnaryOp) and n.op in _INCDEC]
    stored = {id(x) for t in targets for x in all_nodes(t)}
    _check_aliases({k: v for k, v in by_key.items() if k not in skipped}, info, holders, error, stored)
    calls = dict(spellings.calls)
    new_items = tuple(x for it in items for x in (expand[id(it)] if id(it) in expand else [_rewrite(it, repl, calls)]))
    if records:
        check_whole_uses(new_items, records, spellings, error)
    values = {k[0]: spellings.text(v[0].node) for k, v in by_key.items()
              if k in info and not v[0].subs and isinstance(getattr(decls.get(k[0]), "type", None), c_ast.TypeDecl)}
    if values:
        check_whole_values(new_items, values, spellings, error)
    hoist = Hoist(new_items, tuple(members + elements), spellings.with_calls(calls),
                  path, line)
    hoist.note()
    return hoist


# ---- finding the chains ----------------------------------------------------------------------
def _children(node):
    if isinstance(node, c_ast.UnaryOp) and node.op == "sizeof":
        return []           # sizeof(g->a) stays as written: it reads nothing
    return [ch for _, ch in node.children()]


def _find_chains(items, spellings, error) -> list[_Chain]:
    out = []
    stack = [(it, None) for it in reversed(list(items))]
    while stack:
        node, parent = stack.pop()
        if isinstance(node, c_ast.StructRef):
            ch = _chain(node, parent, spellings, error)
            out.append(ch)
            stack.extend((sub, None) for sub in reversed(ch.subs))
            continue
        stack.extend((ch, node) for ch in reversed(_children(node)))
    return out


def _chain(node: c_ast.StructRef, parent, spellings, error) -> _Chain:
    steps, n = [], node
    while isinstance(n, c_ast.StructRef):
        steps.append((n.type, n.field.name))
        n = n.name
    subs = []
    while isinstance(n, c_ast.ArrayRef):
        subs.insert(0, n.subscript)
        n = n.name
    if subs and isinstance(n, c_ast.StructRef):
        inner = spellings.text(n)
        outer = n
        while isinstance(outer, (c_ast.StructRef, c_ast.ArrayRef)):
            outer = outer.name
        outer = spellings.text(outer)
        nested = any(isinstance(m, c_ast.ArrayRef) for m in all_nodes(n))
        raise error(node, f"the array of structs '{inner}' in '{spellings.text(node)}' is itself a struct member",
                    # MILC's links[i].e[ii][j].real: no pointer before the region holds links[i].e for every i
                    f"read it through a view of numbers over '{outer}' declared before the region "
                    f"(`double (*{outer}_v)[..][..] = (double (*)[..][..]){outer};`: a subscript per array, and "
                    "the last one picks the member), or copy it into arrays of numbers" if nested else
                    f"copy it into a pointer before the region (T *{n.field.name} = {inner};) and index that")
    if not isinstance(n, c_ast.ID):
        what = ("a subscript" if isinstance(n, c_ast.ArrayRef) else
                "a call" if isinstance(n, c_ast.FuncCall) else
                "a pointer dereference" if isinstance(n, c_ast.UnaryOp) and n.op == "*" else
                "a cast" if isinstance(n, c_ast.Cast) else "an expression")
        raise error(node, f"struct member access is not supported through {what} ('{spellings.text(node)}')",
                    "copy the member into a variable before the region; looptx reads only chains of "
                    "members of a variable, such as g->n or s.blk.v, itself")
    lvalue = (isinstance(parent, c_ast.Assignment) and parent.lvalue is node) or \
        (isinstance(parent, c_ast.UnaryOp) and parent.op in _INCDEC and parent.expr is node)
    return _Chain(node, n.name, tuple(reversed(steps)), lvalue=lvalue, subs=tuple(subs),
                  argument=isinstance(parent, c_ast.ExprList))


def _decls(node):
    c = DeclCollector()
    c.visit(node)
    return c.decls


def _check_aliases(by_key, info, holders, error, stored=frozenset()) -> None:
    """A written scalar member is one variable in the region: another chain that may reach the
    same object (`s->sum` and `t->sum`, or any member of a union around it) would be another;
    so is a written array member and another member of a union around it (`U.g[i][j]` and
    `U.flat[k]`).  `holders[key]`: the struct or union that holds each step of the chain;
    `stored`: the nodes inside the region's assignment targets."""
    for key, uses in by_key.items():
        array_written = any(id(u.node) in stored for u in uses)
        if not info[key].written and not array_written:
            continue
        w = uses[0]
        unions = {id(c) for c in holders[key] if isinstance(c, c_ast.Union)}
        for other_key, others in by_key.items():
            if other_key == key:
                continue
            o = others[0]
            same_end = holders[other_key][-1] is holders[key][-1] and o.steps[-1][1] == w.steps[-1][1]
            shares_union = bool(unions & {id(c) for c in holders[other_key]})
            if not info[key].written and not shares_union:
                continue            # an array member is elements: another chain to it is the scalar case's
            if (same_end or shares_union) and not _distinct(w, o, holders[key]):
                if not info[key].written:
                    raise error(w.node, f"the region writes elements of the union member '{info[key].chain}' and "
                                        f"also uses '{info[other_key].chain}', which is the same storage: the "
                                        "dependence model would take them for different arrays",
                                "use one member of the union in the region, with the offsets in its subscripts")
                raise error(w.node, f"the region writes the struct member '{info[key].chain}' and also uses "
                                    f"'{info[other_key].chain}', which may be the same "
                                    f"{'storage (a union)' if shares_union and not same_end else 'object'}",
                            "copy the member into a variable before the region and store it back after it")


def _distinct(a: _Chain, b: _Chain, a_holders) -> bool:
    """Whether two chains surely denote different objects: members of two variables reached
    without pointers, or paths from one variable that part at members of a struct (not a union)
    and follow no pointer after."""
    if a.base != b.base:
        return a.all_dot and b.all_dot
    k = next((i for i, (x, y) in enumerate(zip(a.steps, b.steps)) if x != y), None)
    if k is None or isinstance(a_holders[k], c_ast.Union):
        return False
    return all(op == "." for op, _ in a.steps[k + 1:] + b.steps[k + 1:])


# ---- types -----------------------------------------------------------------------------------
class _Types:
    """Typedefs and struct definitions of the file, for the types of member chains."""

    def __init__(self, ast):
        self.typedefs: dict[str, c_ast.Typedef] = {}
        self.structs: dict[tuple[str, str], c_ast.Node] = {}
        for n in all_nodes(ast):
            if isinstance(n, c_ast.Typedef) and n.name:
                self.typedefs.setdefault(n.name, n)
            elif isinstance(n, (c_ast.Struct, c_ast.Union)) and n.name and n.decls is not None:
                self.structs.setdefault((type(n).__name__, n.name), n)

    def unalias(self, t):
        for _ in range(64):
            if isinstance(t, (c_ast.TypeDecl, c_ast.Typename)) and isinstance(t.type, c_ast.IdentifierType) \
                    and len(t.type.names) == 1 and t.type.names[0] in self.typedefs:
                t = self.typedefs[t.type.names[0]].type
            else:
                break
        return t

    def record(self, t):
        """(struct or union node with its members, or None; how the type is written)."""
        t = self.unalias(t)
        if isinstance(t, c_ast.TypeDecl) and isinstance(t.type, (c_ast.Struct, c_ast.Union)):
            s = t.type
            kind = "struct" if isinstance(s, c_ast.Struct) else "union"
            if s.decls is None:
                s = self.structs.get((type(s).__name__, s.name))
            return s, f"{kind} {t.type.name or '(anonymous)'}"
        return None, None

    def find(self, s, name: str):
        """(member declaration, the struct or union that holds it): through anonymous members."""
        for d in s.decls or ():
            if d.name == name:
                return d, s
            if d.name is None:
                inner = d.type if isinstance(d.type, (c_ast.Struct, c_ast.Union)) else self.record(d.type)[0]
                if inner is not None:
                    hit = self.find(inner, name)
                    if hit is not None:
                        return hit
        return None

    def chain(self, t, steps, chain: str, node, error):
        """The type of the chain's last member, the struct holding each step, and whether the
        chain passes through a const struct (`const grid_t *g`: the elements of g->a are const)."""
        containers = []
        const = False
        prefix = chain.split("->")[0].split(".")[0]
        for op, name in steps:
            if op == "->":
                u = self.unalias(t)
                if not isinstance(u, (c_ast.PtrDecl, c_ast.ArrayDecl)):
                    raise error(node, f"'{prefix}' in '{chain}' is not a pointer to a struct",
                                "write '.' for a struct value")
                t = u.type
            const = const or any("const" in (getattr(x, "quals", None) or []) for x in (t, self.unalias(t)))
            s, written_as = self.record(t)
            if s is None:
                if written_as:
                    raise error(node, f"the type of '{prefix}' ({written_as}) is not defined in the file, so "
                                      f"the type of '{chain}' is unknown",
                                "define the struct in the file, or copy the member into a variable before the region")
                raise error(node, f"'{prefix}' in '{chain}' is not a struct", _COPY_HINT)
            hit = self.find(s, name)
            if hit is None:
                raise error(node, f"'{prefix}' has no member '{name}'", "check the member's name")
            d, holder = hit
            if getattr(d, "bitsize", None) is not None:
                # a copy in a variable of its type would not wrap at the field's width
                raise error(node, f"'{prefix}{op}{name}' is a bit-field, which looptx cannot read into a variable",
                            "copy it into a variable before the region and store it back after it")
            containers.append(holder)
            t = d.type
            prefix = f"{prefix}{op}{name}"
        return t, containers, const

    def arithmetic(self, t) -> bool:
        inner = t.type
        if isinstance(inner, c_ast.Enum):
            return True
        if not isinstance(inner, c_ast.IdentifierType):
            return False
        u = self.unalias(t)
        if u is not t:
            return isinstance(u, c_ast.TypeDecl) and self.arithmetic(u)
        return set(inner.names) <= _ARITH

    def declarator(self, t, name):
        """The declarator of `name` with the type t (typedefs of pointer and array types
        resolved, so that its extents show), or None for a function type."""
        u = self.unalias(t)
        if isinstance(u, (c_ast.PtrDecl, c_ast.ArrayDecl)):
            t = u
        if isinstance(t, c_ast.PtrDecl):
            inner = self.declarator(t.type, name)
            return inner and c_ast.PtrDecl(list(t.quals or []), inner)
        if isinstance(t, c_ast.ArrayDecl):
            inner = self.declarator(t.type, name)
            return inner and c_ast.ArrayDecl(inner, t.dim, list(t.dim_quals or []))
        if isinstance(t, c_ast.TypeDecl):
            return c_ast.TypeDecl(name, list(t.quals or []), None, t.type)
        return None

    def member(self, t, name, chain, written, const, spellings, node, error, by_key, key) -> Member:
        d = self.declarator(t, name)
        if written and any(k[0] == key[0] and k[1][:len(key[1])] == key[1] and k != key for k in by_key):
            raise error(node, f"the region assigns '{chain}', part of a member chain that looptx "
                              "reads once before the region",
                        "assign it before or after the region, or copy the members into variables")
        if written and not isinstance(d, c_ast.TypeDecl):
            kind = "array" if isinstance(d, c_ast.ArrayDecl) else "pointer"
            raise error(node, f"the region assigns the {kind} member '{chain}', whose value looptx "
                              "reads once before the region", "assign it before the region")
        leaf = d
        while isinstance(leaf, (c_ast.PtrDecl, c_ast.ArrayDecl)):
            leaf = leaf.type
        if leaf is None or not self.arithmetic(leaf):
            _, record = self.record(leaf) if leaf is not None else (None, None)
            what = ("a function pointer" if leaf is None else
                    "not a number" if not record else
                    f"a {record}" if leaf is d else
                    f"a pointer to {record}" if isinstance(d, c_ast.PtrDecl) else f"an array of {record}")
            raise error(node, f"the struct member '{chain}' is {what}",
                        "copy the value into a variable before the region: a region computes on numbers, "
                        "pointers to numbers and arrays of numbers")
        if const and isinstance(d, c_ast.ArrayDecl) and "const" not in leaf.quals:
            leaf.quals.insert(0, "const")       # the rows of a const struct's array are const
        symbol = symbol_of(_decl(name, d), spellings)
        if isinstance(d, c_ast.TypeDecl):
            quals = [q for q in d.quals if q != "const"]
            held = c_ast.TypeDecl(name, quals if written else ["const", *quals], None, d.type)
        else:
            # an array member is reached through a pointer to its rows; the pointer is const
            quals = [] if isinstance(d, c_ast.ArrayDecl) else [q for q in d.quals if q != "const"]
            held = c_ast.PtrDecl(["const", *quals], d.type)
        text = f"{spellings.text(_decl(name, held)).replace('* const ', '*const ')} = {chain};"
        return Member(chain, name, symbol, text, written, node=_decl(name, held))


def _subscripted(name: str, use: _Chain):
    """`p[i][j].x` as the model's `p__x[i][j]`, its subscripts rewritten in turn."""
    def build(rewrite):
        ref = c_ast.ID(name, use.node.coord)
        for sub in use.subs:
            ref = c_ast.ArrayRef(ref, rewrite(sub), use.node.coord)
        return ref
    return build


def _decl(name, t) -> c_ast.Decl:
    return c_ast.Decl(name, [], [], [], [], t, None, None)


def _visible_decls(ast, fdef, where, start) -> dict[str, c_ast.Decl]:
    """The declaration each name has at the region: globals, parameters, then the function's
    locals declared before it (as cparse builds the region's symbols)."""
    out = {}
    for e in ast.ext:
        if isinstance(e, c_ast.Decl) and e.name and not isinstance(e.type, c_ast.FuncDecl):
            out[e.name] = e
    params = fdef.decl.type.args.params if fdef.decl.type.args else []
    for p in params:
        if isinstance(p, c_ast.Decl) and p.name:
            out[p.name] = p
    for d in _decls(fdef.body):
        if d.name and where(d) < start:
            out[d.name] = d
    return out


def _identifiers(ast) -> set[str]:
    names = set()
    for n in all_nodes(ast):
        for attr in ("name", "declname"):
            v = getattr(n, attr, None)
            if isinstance(v, str):
                names.add(v)
    return names


def _fresh(stem: str, taken: set[str], text: str) -> str:
    name, k = stem, 1
    while name in taken or re.search(rf"(?<!\w){re.escape(to_user(name))}(?!\w)", text):
        k += 1
        name = f"{stem}_{k}"
    return name


def _rewrite(node, repl: dict, calls: dict):
    """node with the chains in `repl` replaced: the nodes on the way to one are copied (and
    keep their call spellings), every other node is shared."""
    if id(node) in repl:
        r = repl[id(node)]
        return r(lambda sub: _rewrite(sub, repl, calls)) if callable(r) else r
    if isinstance(node, c_ast.UnaryOp) and node.op == "sizeof":
        return node
    new = None
    for slot in node.__slots__:
        if slot in ("coord", "__weakref__"):
            continue
        value = getattr(node, slot, None)
        if isinstance(value, c_ast.Node):
            changed = _rewrite(value, repl, calls)
        elif isinstance(value, list) and any(isinstance(v, c_ast.Node) for v in value):
            changed = [_rewrite(v, repl, calls) if isinstance(v, c_ast.Node) else v for v in value]
            if all(a is b for a, b in zip(changed, value)):
                changed = value
        else:
            continue
        if changed is not value:
            if new is None:
                new = copy.copy(node)
            setattr(new, slot, changed)
    if new is None:
        return node
    if id(node) in calls:
        calls[id(new)] = calls[id(node)]
    return new


def _refuse_call_with(items, base: str, error) -> None:
    """A struct local of the region that a call fills (Devito's timers: `struct timeval end;
    gettimeofday(&end, NULL);`) is refused for the call, the real obstacle: declaring the struct
    elsewhere would only lead to the call's refusal."""
    for it in items:
        for n in all_nodes(it):
            if isinstance(n, c_ast.FuncCall) and n.args is not None and any(
                    isinstance(a, c_ast.ID) and a.name == base or isinstance(a, c_ast.UnaryOp) and a.op == "&"
                    and isinstance(a.expr, c_ast.ID) and a.expr.name == base for a in n.args.exprs):
                name = n.name.name if isinstance(n.name, c_ast.ID) else "the function"
                raise error(n, f"call to '{name}' (with '{base}') is a statement with side effects, which a "
                               "region cannot hold", "mark the loops between such calls as the region "
                               "(#pragma scop ... #pragma endscop), or move the calls out of it")
