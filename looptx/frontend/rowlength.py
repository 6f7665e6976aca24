"""Row lengths written inline in linearized subscripts: `u[i*(nx + 2) + j]`, `a[(i)*(m+1) + (j)]`.

A linearized subscript is split into rows by its size monomials (frontend/linearized.py), which
reads `i*(nx + 2) + j` as `i*nx + (2*i + j)`: rows of nx elements, in which the index 2*i + j
does not stay.  The user means rows of nx + 2 (halo or padding), as they would with
`int ld = nx + 2;` and `u[i*ld + j]`, which works.  So the region reads such a factor through a
name, `const long lx_row = nx + 2;`, declared at the top of the regenerated block; the model
knows `lx_row = nx + 2` exactly, and the output reads `u[i * lx_row + j]`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from pycparser import c_ast

from looptx.errors import note_once, spelled_as_written
from looptx.frontend.members import _rewrite, _fresh, _identifiers
from looptx.frontend.names import to_user, with_values
from looptx.frontend.spelling import Spellings
from looptx.frontend.symbols import Symbol, c_text, id_names


@dataclass(frozen=True)
class RowNames:
    items: tuple
    spellings: Spellings
    names: tuple[tuple[str, str, str], ...] = ()   # (name, C text, as the user spells it)

    @property
    def symbols(self) -> dict[str, Symbol]:
        return {n: Symbol(n, "var", "long", is_const=True) for n, _, _ in self.names}

    def assumptions(self, params, values: dict) -> tuple[str, ...]:
        """`lx_row = nx + 2` for the model, over its parameters (#defined names at their
        values); a length over a name the model does not know stays unrelated, which is sound."""
        out = []
        for n, text, _ in self.names:
            names = set(re.findall(r"[A-Za-z_]\w*", text))
            if n not in params or not names <= set(params) | set(values):
                continue
            # a size the model has as a parameter (a #define that --define may change) stays one
            out.append(f"{n} = " + with_values(text, {k: v for k, v in values.items() if k not in params}))
        return tuple(out)

    def derived(self, constants: dict) -> tuple[tuple[str, str], ...]:
        """(name, C text) with the file's enum constants at their values: a harness that
        computes the length has no enum."""
        return tuple((n, with_values(text, constants)) for n, text, _ in self.names)

    def explaining(self):
        """Errors and notes name a row length as the user wrote it, not by looptx's own name."""
        def spell(text: str) -> str:
            for n, _, spelled in self.names:
                text = re.sub(rf"(?<!\w){re.escape(n)}(?!\w)", lambda _: f"({spelled})", text)
            return text
        return spelled_as_written(spell)

    def declarations(self) -> tuple[tuple[str, str], ...]:
        """(declaration, write-back) pairs for Scop.hoisted."""
        return tuple((f"const long {n} = {spelled};", "") for n, _, spelled in self.names)


def _iterators(items) -> set[str]:
    out = set()

    def go(n):
        if isinstance(n, c_ast.For):
            init = n.init
            if isinstance(init, c_ast.DeclList):
                out.update(d.name for d in init.decls)
            elif isinstance(init, c_ast.Assignment) and isinstance(init.lvalue, c_ast.ID):
                out.add(init.lvalue.name)
        for _, ch in n.children():
            go(ch)
    for it in items:
        go(it)
    return out


def _row_factor(node, iterators: set[str]) -> bool:
    """A sum or difference of sizes and constants with at least one size (`nx + 2`, `m - 1`,
    `nx + 2*h`), no iterator and nothing but + - * on names and integer constants."""
    if not (isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-")):
        return False
    names = id_names(node)

    def plain(n) -> bool:
        if isinstance(n, c_ast.ID):
            return True
        if isinstance(n, c_ast.Constant):
            return n.type == "int"
        if isinstance(n, c_ast.BinaryOp) and n.op in ("+", "-"):
            return plain(n.left) and plain(n.right)
        if isinstance(n, c_ast.BinaryOp) and n.op == "*":     # linear: one side a constant
            return plain(n.left) and plain(n.right) and not (id_names(n.left) and id_names(n.right))
        if isinstance(n, c_ast.UnaryOp) and n.op == "-":
            return plain(n.expr)
        return False
    return bool(names) and not names & iterators and plain(node)


def _linear(n) -> dict | None:
    """A row factor as {name or '': coefficient}: `(m + 2)`, `(2 + m)` and `(m + 1 + 1)` are one
    row length; None where it is not a sum of constant multiples of names."""
    if isinstance(n, c_ast.ID):
        return {n.name: 1}
    if isinstance(n, c_ast.Constant):
        try:
            return {"": int(n.value.rstrip("uUlL"), 0)}
        except ValueError:
            return None
    if isinstance(n, c_ast.UnaryOp) and n.op == "-":
        inner = _linear(n.expr)
        return None if inner is None else {k: -v for k, v in inner.items()}
    if isinstance(n, c_ast.BinaryOp) and n.op in ("+", "-", "*"):
        a, b = _linear(n.left), _linear(n.right)
        if a is None or b is None:
            return None
        if n.op == "*":
            if set(a) == {""}:
                a, b = b, a
            if set(b) != {""}:
                return None
            return {k: v * b[""] for k, v in a.items()}
        sign = 1 if n.op == "+" else -1
        out = dict(a)
        for k, v in b.items():
            out[k] = out.get(k, 0) + sign * v
        return out
    return None


def _row_key(factor, iterators: set[str]):
    if not _row_factor(factor, iterators):
        return None
    lin = _linear(factor)
    return tuple(sorted((k, v) for k, v in lin.items() if v)) if lin is not None else None


def _products(e, iterators: set[str]):
    """(size factor node, its key) of each product of an iterator expression and a size in a
    subscript; the key is the factor's linear form when it is a row length to name (one key
    however the user orders its terms), None otherwise."""
    if isinstance(e, c_ast.BinaryOp) and e.op == "*":
        for factor, other in ((e.right, e.left), (e.left, e.right)):
            names = id_names(factor)
            if names and not names & iterators and id_names(other) & iterators:
                yield factor, _row_key(factor, iterators)
                break
    for _, ch in e.children():
        yield from _products(ch, iterators)


def name_row_lengths(items, *, lookup, spellings, path: str, line: int, ast, text: str) -> RowNames:
    """The items with each inline row length of a 1-D array's subscripts read through a name,
    for the arrays whose every row product has that one length (`a[k*(n+1)]`, the diagonal of
    rows of n next to `a[i*n + j]`, stays as it is)."""
    iterators = _iterators(items)
    uses: dict[str, list] = {}

    def visit(n):
        if isinstance(n, c_ast.ArrayRef) and isinstance(n.name, c_ast.ID):
            sym = lookup(n.name.name)
            if sym is not None and len(sym.dims) == 1:
                uses.setdefault(n.name.name, []).extend(_products(n.subscript, iterators))
        for _, ch in n.children():
            visit(ch)
    for it in items:
        visit(it)
    found: dict = {}                   # linear form -> name
    texts: dict = {}                   # linear form -> C text of its first spelling
    spelled: dict = {}
    repl = {}
    taken = None
    for array, products in uses.items():
        keys = {key for _, key in products}
        if len(keys) != 1 or None in keys:
            continue
        key = keys.pop()
        if key not in found:
            taken = _identifiers(ast) if taken is None else taken
            found[key] = _fresh("lx_row", taken, text)
            taken.add(found[key])
            texts[key] = c_text(products[0][0])
            spelled[key] = spellings.text(products[0][0])
        for factor, _ in products:
            repl[id(factor)] = c_ast.ID(found[key], factor.coord)
    if not repl:
        return RowNames(tuple(items), spellings)
    calls = dict(spellings.calls)
    new_items = tuple(_rewrite(it, repl, calls) for it in items)
    names = tuple((name, texts[key], spelled[key]) for key, name in found.items())
    note_once(path, line or 1, "inline row lengths are read through names: "
              + ", ".join(f"{to_user(n)} = {to_user(s)}" for n, _, s in names))
    return RowNames(new_items, spellings.with_calls(calls), names)
