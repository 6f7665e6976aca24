"""Row lengths written inline in linearized subscripts: `u[i*(nx + 2) + j]`, `a[(i)*(m+1) + (j)]`.

A linearized subscript is split into rows by its size monomials (frontend/linearized.py), which
reads `i*(nx + 2) + j` as `i*nx + (2*i + j)`: rows of nx elements, in which the index 2*i + j
does not stay.  The user means rows of nx + 2 (halo or padding), as they would with
`int ld = nx + 2;` and `u[i*ld + j]`, which works.  So the region reads such a factor through a
name, `const long lx_row = nx + 2;`, declared at the top of the regenerated block; the model
knows `lx_row = nx + 2` exactly, and the output reads `u[i * lx_row + j]`.

A 3-D array has two row lengths (miniGhost's `k*(ny+2)*(nx+2) + j*(nx+2) + i`: planes of ny + 2
rows of nx + 2), and a halo may pad one of them only (`k*(ny+2)*nx + j*nx + i`).  Each length
gets its name where the size factors of the terms nest, each term's a part of the next one's
(nx+2 | (ny+2)*(nx+2)): they are then the strides of one array.  A factor may halve a size
(Kernel Tuner's `image_width + (filter_width/2)*2`); the model reads C's `/` as isl's floor,
which it is for a non-negative size: the region is modelled for that, as for a `/` in a subscript.
"""
from __future__ import annotations

import copy

import re
from collections import Counter
from dataclasses import dataclass

from pycparser import c_ast

from looptx.errors import note_once, spelled_as_written
from looptx.frontend.affine import c_int_value
from looptx.frontend.members import _rewrite, _fresh, _identifiers
from looptx.frontend.names import to_user, with_values
from looptx.frontend.spelling import Spellings
from looptx.frontend.symbols import Symbol, c_text, id_names


@dataclass(frozen=True)
class RowNames:
    items: tuple
    spellings: Spellings
    names: tuple[tuple[str, str, str], ...] = ()   # (name, C text, as the user spells it)
    factors: tuple = ()                            # per name: the factor's C AST

    @property
    def symbols(self) -> dict[str, Symbol]:
        return {n: Symbol(n, "var", "long", is_const=True) for n, _, _ in self.names}

    def assumptions(self, params, values: dict) -> tuple[str, ...]:
        """`lx_row = nx + 2` for the model, over its parameters (#defined names at their
        values); a length over a name the model does not know stays unrelated, which is sound."""
        return tuple(f"{n} = {model}" for n, model, _ in self._modelled(params, values))

    def obligations(self, params, values: dict) -> tuple[tuple[str, str], ...]:
        """(name, condition on the sizes) where the model's length is C's: C's '/' rounds a
        negative size toward zero, isl's floor down (the same conditions as those of a '/' in
        a subscript, which the model assumes, checks or refuses alike)."""
        return tuple((n, f"{x} >= 0") for n, _, numerators in self._modelled(params, values) for x in numerators)

    def _modelled(self, params, values: dict):
        """(name, isl text, numerators) of the lengths over names the model knows."""
        for (n, text, _), factor in zip(self.names, self.factors):
            names = set(re.findall(r"[A-Za-z_]\w*", text))
            if n not in params or not names <= set(params) | set(values):
                continue
            # a size the model has as a parameter (a #define that --define may change) stays one
            numerators: list = []
            model = _isl_length(factor, {k: v for k, v in values.items() if k not in params}, numerators)
            yield n, model, tuple(numerators)

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


def _row_factor(node, iterators: set[str], scaled_ok: bool = False) -> bool:
    """A sum or difference of sizes and constants with at least one size (`nx + 2`, `m - 1`,
    `nx + 2*h`, `n/2`), no iterator and nothing but + - * on names and integer constants."""
    # a size halved on its own counts too (`#define HALF (N/2)`, `a[i*HALF + j]`)
    # and a multiple of one (`2 * n`: interleaved complex rows, `a[i*(2*n) + j]`)
    scaled = scaled_ok and isinstance(node, c_ast.BinaryOp) and node.op == "*" and any(
        isinstance(x, c_ast.Constant) and x.type == "int" for x in (node.left, node.right))
    if not (isinstance(node, c_ast.BinaryOp) and (node.op in ("+", "-") or scaled or _divisor(node) is not None)):
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
        if _divisor(n) is not None:         # `filter_width/2`: a number the model floors
            return plain(n.left)
        return False
    return bool(names) and not names & iterators and plain(node)


def _sum_terms(e, sign: int = 1):
    if isinstance(e, c_ast.BinaryOp) and e.op in ("+", "-"):
        yield from _sum_terms(e.left, sign)
        yield from _sum_terms(e.right, sign if e.op == "+" else -sign)
    else:
        yield sign, e


def _in_row_ends(e, iterators: set[str], bounds: dict) -> set:
    """Row keys of the loop bounds of the one iterator that is a term of the sum `e` alone (`+ j`),
    plus the sum's offsets (`+ j + m`, j < m: 2*m): the rows may be a multiple of a size
    (`i*2*n + j`).  (Which rows is a reading only: the model checks that each index stays in its
    row.)"""
    bare, offset = [], {}
    for sign, t in _sum_terms(e):
        if isinstance(t, c_ast.ID) and t.name in iterators and sign > 0:
            bare.append(t.name)
        elif not id_names(t) & iterators:
            lin = _linear(t)
            if lin is None:
                return set()
            for k, v in lin.items():
                offset[k] = offset.get(k, 0) + sign * v
    if len(bare) != 1:
        return set()
    return {tuple(sorted((k, v) for k, v in _added(dict(key), offset).items() if v)) for key in bounds.get(bare[0], ())}


def _added(a: dict, b: dict) -> dict:
    return {k: a.get(k, 0) + b.get(k, 0) for k in set(a) | set(b)}


def _upper_bounds(items) -> dict[str, set]:
    """iterator -> the row keys of its loops' upper bounds (`j < 2*n`, `j <= 2*n - 1`)."""
    out: dict[str, set] = {}

    def go(n):
        c = n.cond if isinstance(n, c_ast.For) else None
        if isinstance(c, c_ast.BinaryOp) and c.op in ("<", "<=") and isinstance(c.left, c_ast.ID):
            lin = _linear(c.right)
            if lin is not None:
                lin[""] = lin.get("", 0) + (c.op == "<=")
                out.setdefault(c.left.name, set()).add(tuple(sorted((k, v) for k, v in lin.items() if v)))
        for _, ch in n.children():
            go(ch)
    for it in items:
        go(it)
    return out


def _constant_with_size(e, iterators: set[str]) -> None:
    """`i*2*n` (C's `(i*2)*n`), `2*i*n`, `i*n*2` and `2*(i*n)` regrouped in place as `i*(2*n)`:
    a row of 2*n elements (interleaved complex numbers), where the row's index is `i`, not `2*i`."""
    for _, ch in e.children():
        _constant_with_size(ch, iterators)
    if not (isinstance(e, c_ast.BinaryOp) and e.op == "*"):
        return
    const = lambda x: isinstance(x, c_ast.Constant) and x.type == "int"
    size = lambda x: bool(id_names(x)) and not id_names(x) & iterators
    for pair, other in ((e.left, e.right), (e.right, e.left)):
        if not (isinstance(pair, c_ast.BinaryOp) and pair.op == "*"):
            continue
        factors = [pair.left, pair.right, other]
        for c in factors:
            for s in factors:
                rest = [f for f in factors if f is not c and f is not s]
                if c is not s and const(c) and size(s) and len(rest) == 1 and id_names(rest[0]) & iterators:
                    e.left, e.right = rest[0], c_ast.BinaryOp("*", c, s, s.coord)
                    return


def _divisor(n) -> int | None:
    """The positive constant that `n` divides by or takes the remainder of, else None."""
    if not (isinstance(n, c_ast.BinaryOp) and n.op in ("/", "%") and isinstance(n.right, c_ast.Constant)
            and n.right.type == "int"):
        return None
    try:
        c = c_int_value(n.right.value)
    except ValueError:
        return None
    return c if c > 0 else None


def _value(n, values: dict) -> int | None:
    """C's value of a row factor (`_row_factor`) whose names all have values, else None."""
    if isinstance(n, c_ast.ID):
        v = values.get(n.name)
        return v if isinstance(v, int) else None
    if isinstance(n, c_ast.Constant):
        return c_int_value(n.value)
    if isinstance(n, c_ast.UnaryOp):
        v = _value(n.expr, values)
        return None if v is None else -v
    a, b = _value(n.left, values), _value(n.right, values)
    if a is None or b is None:
        return None
    if n.op in ("/", "%"):
        q = abs(a) // b * (1 if a >= 0 else -1)      # toward zero, as C
        return q if n.op == "/" else a - q * b
    return a + b if n.op == "+" else a - b if n.op == "-" else a * b


def _isl_length(n, values: dict, numerators: list) -> str:
    """isl text of a row factor (`_row_factor`) with the names `values` gives at their values,
    collecting the numerators of its '/' and '%' that stay sizes."""
    v = _value(n, values)
    if v is not None:
        return str(v)
    if isinstance(n, c_ast.ID):
        return n.name
    if isinstance(n, c_ast.UnaryOp):
        return f"-({_isl_length(n.expr, values, numerators)})"
    if n.op == "*":
        # isl reads a product only as a number times an expression
        for c, other in ((n.left, n.right), (n.right, n.left)):
            if not id_names(c):
                return f"{_value(c, {})}*({_isl_length(other, values, numerators)})"
    a = _isl_length(n.left, values, numerators)
    if n.op in ("/", "%"):
        numerators.append(f"({a})")
        return f"floor(({a})/{_divisor(n)})" if n.op == "/" else f"(({a}) mod {_divisor(n)})"
    return f"({a}) {n.op} ({_isl_length(n.right, values, numerators)})"


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
    if _divisor(n) is not None:
        # not linear in its names: a term of its own, the same wherever it is spelled alike
        return None if _linear(n.left) is None else {c_text(n): 1}
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


def _row_key(factor, iterators: set[str], scaled_ok: bool = False):
    if not _row_factor(factor, iterators, scaled_ok):
        return None
    lin = _linear(factor)
    return tuple(sorted((k, v) for k, v in lin.items() if v)) if lin is not None else None


def _products(e, iterators: set[str], scaled_ok: bool = False):
    """(size factor node, its key) of each product of an iterator expression and a size in a
    subscript; the key is the factor's linear form when it is a row length to name (one key
    however the user orders its terms), None otherwise."""
    if isinstance(e, c_ast.BinaryOp) and e.op == "*":
        for factor, other in ((e.right, e.left), (e.left, e.right)):
            names = id_names(factor)
            if names and not names & iterators and id_names(other) & iterators:
                yield factor, _row_key(factor, iterators, scaled_ok)
                break
    for _, ch in e.children():
        yield from _products(ch, iterators, scaled_ok)


def _size_factors(n, iterators: set[str]) -> list | None:
    """(node, key) of each size in a product of sizes and constants (`(ny+2)*(nx+2)`, `2*nx`);
    None where one is neither a name nor a row factor."""
    if isinstance(n, c_ast.Constant):
        return []                           # a coefficient
    if isinstance(n, c_ast.Cast):
        return _size_factors(n.expr, iterators)
    if isinstance(n, c_ast.BinaryOp) and n.op == "*":
        a, b = _size_factors(n.left, iterators), _size_factors(n.right, iterators)
        return None if a is None or b is None else a + b
    key = ((n.name, 1),) if isinstance(n, c_ast.ID) else _row_key(n, iterators)
    return None if key is None else [(n, key)]


def _terms(e, iterators: set[str]) -> list | None:
    """The size factors of each term of subscript `e` that holds an iterator, expanding products
    of sums (`(k*(ny+2) + j)*(nx+2)`), as lists of (node, key); None where a term multiplies two
    iterator expressions or by a factor `_size_factors` does not read."""
    if not id_names(e) & iterators:
        return []                           # an offset
    if isinstance(e, c_ast.Cast) or isinstance(e, c_ast.UnaryOp) and e.op in ("-", "+"):
        return _terms(e.expr, iterators)
    if isinstance(e, c_ast.BinaryOp) and e.op in ("+", "-"):
        a, b = _terms(e.left, iterators), _terms(e.right, iterators)
        return None if a is None or b is None else a + b
    if isinstance(e, c_ast.BinaryOp) and e.op == "*":
        for factor, other in ((e.right, e.left), (e.left, e.right)):
            if not id_names(factor) & iterators:
                sizes, inner = _size_factors(factor, iterators), _terms(other, iterators)
                return None if sizes is None or inner is None else [t + sizes for t in inner]
        return None
    return [[]]                             # an iterator, or an in-row index of its own (`x/2`)


def _nested(subscripts, iterators: set[str]) -> list:
    """(node, key) of the row factors to name in an array whose terms' size factors nest, each
    term's a part of the next one's (miniGhost's nx+2 | (ny+2)*(nx+2)): the strides of one array
    of several row lengths.  [] otherwise: `a[k*(n+1)]` beside `a[i*n + j]` is the diagonal of
    rows of n, not rows of n + 1."""
    terms = []
    for e in subscripts:
        found = _terms(e, iterators)
        if found is None:
            return []
        terms += found
    counts = sorted((Counter(key for _, key in t) for t in terms), key=lambda c: sum(c.values()))
    if any(a - b for a, b in zip(counts, counts[1:])):
        return []
    # a length that is also written as a plain name (`(n + 0)` beside `n`) would be two names
    plain = {key for t in terms for f, key in t if isinstance(f, c_ast.ID)}
    named = [(f, key) for t in terms for f, key in t if not isinstance(f, c_ast.ID) and key not in plain]
    # the innermost length first, in the most terms: lx_row is the row's, as in 2-D
    return sorted(named, key=lambda fk: -sum(fk[1] in c for c in counts))


def _runs_within(key, runs) -> bool:
    """A loop bound of the in-row iterator is the row length, or that less a constant
    (`j < 2*n - 1`, a stencil's interior)."""
    names = {k: v for k, v in key if k}
    return any({k: v for k, v in r if k} == names and dict(r).get("", 0) <= dict(key).get("", 0) for r in runs)


def name_row_lengths(items, *, lookup, spellings, path: str, line: int, ast, text: str,
                     fixed: set = frozenset()) -> RowNames:
    """The items with each inline row length of a 1-D array's subscripts read through a name,
    for the arrays whose every row product has that one length, or whose lengths nest
    (`_nested`).  `fixed`: the sizes with a value (-D, #define), which a flat model reads."""
    iterators = _iterators(items)
    bounds = _upper_bounds(items)
    uses: dict[str, list] = {}
    subscripts: dict[str, list] = {}

    def visit(n):
        if isinstance(n, c_ast.ArrayRef) and isinstance(n.name, c_ast.ID):
            sym = lookup(n.name.name)
            if sym is not None and len(sym.dims) == 1:
                # rows of `2*n` where the in-row index runs to 2*n (`for (j = 0; j < 2*n; j++)
                # a[i*2*n + j]`): elsewhere the rows of n that C's sizes make are kept
                # (`z[2*i*m + 2*j + 1]` is an interleaved layout, [*][m][2], and at fixed sizes
                # a flat model reads `a[i*2*n + j - 1]`)
                trial = copy.deepcopy(n.subscript)
                _constant_with_size(trial, iterators)
                runs = _in_row_ends(n.subscript, iterators, bounds)
                scaled = any(_runs_within(key, runs) and not {k for k, _ in key if k} <= fixed
                             for _, key in _products(trial, iterators, True) if key)
                if scaled:
                    _constant_with_size(n.subscript, iterators)
                uses.setdefault(n.name.name, []).extend(_products(n.subscript, iterators, scaled))
                subscripts.setdefault(n.name.name, []).append(n.subscript)
        for _, ch in n.children():
            visit(ch)
    for it in items:
        visit(it)
    found: dict = {}                   # linear form -> name
    texts: dict = {}                   # linear form -> C text of its first spelling
    spelled: dict = {}
    repl = {}
    taken = None
    factors: dict = {}                 # linear form -> its first spelling
    for array, products in uses.items():
        keys = {key for _, key in products}
        if len(keys) != 1 or None in keys:
            products = _nested(subscripts[array], iterators)
        for factor, key in products:
            if key not in found:
                taken = _identifiers(ast) if taken is None else taken
                found[key] = _fresh("lx_row", taken, text)
                taken.add(found[key])
                texts[key] = c_text(factor)
                spelled[key] = spellings.text(factor)
                factors[key] = factor
            repl[id(factor)] = c_ast.ID(found[key], factor.coord)
    if not repl:
        return RowNames(tuple(items), spellings)
    calls = dict(spellings.calls)
    new_items = tuple(_rewrite(it, repl, calls) for it in items)
    names = tuple((name, texts[key], spelled[key]) for key, name in found.items())
    note_once(path, line or 1, "inline row lengths are read through names: "
              + ", ".join(f"{to_user(n)} = {to_user(s)}" for n, _, s in names))
    return RowNames(new_items, spellings.with_calls(calls), names, tuple(factors[key] for key in found))
