"""Subscripts that leave their row of a declared multi-dimensional array: `a[i][j + 1]` at
j = M - 1 in `double (*a)[M]` is `a[i + 1][0]` in C's memory, which the model, one element
per subscript tuple, takes for another element.  Where one of the two is written, the
dependences miss a pair, and a step they allow may reorder the two (`run` refuses such sizes,
frontend/harness; a transform must not accept them either).  CHiLL's jacobi reads `a[t-1][N]`,
which is `a[t][0]` and never written: harmless, and accepted.

Each element is mapped to the one C stores it in (its canonical tuple, every dimension but
the first inside its extent).  With constant extents that is the row-major offset, exactly;
with symbolic ones (`double a[n][m]`) the model moves an element a few rows at a time, through
every dimension (`a[i][3][k + 1]` of `a[8][4][8]` is `a[i + 1][0][0]`), and an element further
out is taken to meet anything of its array.  An extent named by what the model has no value
of (a local `ld` the region does not read) is taken to hold the subscripts, as CHiLL takes
every extent."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, replace

import islpy as isl

from looptx import ir
from looptx.errors import note_once
from looptx.frontend.names import to_user
from looptx.poly.budget import isl_budget
from looptx.poly.scop import Scop

# rows an overrunning subscript may cross, per dimension, that symbolic extents tell apart
_ROWS = 2
# isl operations for one array's rows (about a second)
ROW_OPERATIONS = 2_000_000
# a condition that leaves no size above this is no condition to run the transformed code under
_SMALLEST_USEFUL = 4


@dataclass(frozen=True)
class Leaving:
    array: str
    stmt: int                    # a statement whose subscript leaves the row
    dim: int                     # the dimension (from 0) whose extent it leaves
    extent: str                  # that extent, as the declaration spells it
    fact: str | None = None      # the sizes under which no subscript leaves its row (isl text), or
                                 # None where there are none of interest: a reordering is refused
    path: str = ""               # where the statement is, for the note or the error
    line: int = 0
    col: int = 0
    sizes: str = "at every size of interest"
    # (array, its extents with the values of the names the model knows) of each array that
    # leaves its rows, and those whose overrun the model does not follow (meeting anything)
    views: tuple = ()
    far: tuple = ()

    @property
    def what(self) -> str:
        return (f"a subscript of '{to_user(self.array)}' in dimension {self.dim + 1} leaves its extent "
                f"{to_user(self.extent)}: C puts that element in another row, on one the region also reaches, "
                "one of the two written, which looptx's dependences take for a different one")


def leaving_rows(scop: Scop, values: dict | None = None) -> Leaving | None:
    """The first array whose subscripts leave their rows onto elements the region also
    reaches, one of the two written, at some sizes the model allows, with the sizes under which
    no array's do (its fact); None where none does.  `values`: the file's constants (a
    `#define M 16` extent)."""
    first, bad, undefined, views, far = None, None, None, [], []
    for arr in _candidates(scop):
        dims = _extents(scop, arr, values or {})
        if _unknown(scop, dims):
            continue
        try:
            with isl_budget(ROW_OPERATIONS):
                found = _leaving(scop, arr, dims)
        except isl.Error:
            # a parity test of a parameter (CHiLL's red-black smoother, `(i + j + k + color + s) % 2`)
            # grew isl's sets until it crashed: without the domains' divisions the reached
            # elements are a superset, so what leaves is found all the same, and maybe more
            try:
                with isl_budget(ROW_OPERATIONS):
                    found = _leaving(scop, arr, dims, hull=True)
            except isl.Error:
                # an extent isl does not read (`a[n][(0, n)]`): taken to hold the subscripts
                note_once(scop.filename, scop.region_span[0] or None, f"whether the subscripts of "
                          f"'{to_user(arr.name)}' leave its rows is not checked (its extents are "
                          "beyond the model): looptx takes them to stay inside, as CHiLL takes every extent")
                continue
        if found is None:
            continue
        lv, b, u, is_far = found
        if u is not None:
            # (an array no row of which is left still says at which sizes the region is
            # outside it: none of interest for another array's fact)
            undefined = u if undefined is None else undefined.union(u)
        if lv is None:
            continue
        first = first or lv
        views.append((arr.name, dims))
        if is_far:
            far.append(arr.name)
        bad = b if bad is None else bad.union(b)
    if first is None:
        return None
    return replace(first, fact=_fact(scop, bad, undefined), views=tuple(views), far=tuple(far))


def unread_extents(scop: Scop, values: dict | None = None) -> list[tuple[str, list[str], int]]:
    """(array, the names of its extents the model has no value of, a statement) of each array
    that a subscript with an offset (`a[i][j + 1]`) reads or writes in such a dimension: whether
    it leaves its row is not checked."""
    out = []
    for arr in _candidates(scop):
        dims = _extents(scop, arr, values or {})
        unknown = _unknown(scop, dims)
        if not unknown:
            continue
        k_unknown = [k for k in range(1, arr.rank) if set(re.findall(r"[A-Za-z_]\w*", dims[k])) & set(unknown)]
        for s in scop.statements:
            hit = next((a for a in s.accesses if a.array == arr.name and len(a.index) == arr.rank and any(
                a.index[k].strip() not in s.iterators for k in k_unknown)), None)
            if hit is not None:
                out.append((arr.name, unknown, s.id))
                break
    return out


def _candidates(scop: Scop):
    return [arr for arr in scop.arrays
            if not arr.strides and arr.rank >= 2 and len(arr.dims) == arr.rank and all(arr.dims[1:])]


def _extents(scop: Scop, arr, values: dict) -> tuple[str, ...]:
    """The array's extents, with the file's constants put in for their names."""
    baked = dict(scop.baked)        # sizes the model takes at their value (a shift's count)

    def put(text: str) -> str:
        text = re.sub(r"[A-Za-z_]\w*", lambda m: str(baked[m.group(0)]) if m.group(0) in baked else
                      str(values[m.group(0)]) if m.group(0) not in scop.params and m.group(0) in values
                      else m.group(0), text)
        return _shifts_as_isl(text)
    return tuple(put(d) if d else d for d in arr.dims)


def _shifts_as_isl(text: str) -> str:
    """C's shifts by a constant (NPB's `1 << MK`, MK a #define), which isl does not read, as
    the product or the floor quotient they are.  Read as Python reads it, whose precedence of
    + - * / % << >> is C's (`1 << 4 + 1` is 32); text that is no such expression stays."""
    if "<<" not in text and ">>" not in text:
        return text
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return text

    def isl(e) -> str:
        if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.LShift, ast.RShift)):
            k = _folded(e.right)
            if k is None or not 0 <= k <= 30:
                raise ValueError(text)
            return f"({isl(e.left)} * {2 ** k})" if isinstance(e.op, ast.LShift) else f"floor(({isl(e.left)})/{2 ** k})"
        if isinstance(e, ast.BinOp) and type(e.op) in _OPS:
            return f"({isl(e.left)} {_OPS[type(e.op)]} {isl(e.right)})"
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
            return f"(-{isl(e.operand)})"
        if isinstance(e, ast.Constant) and isinstance(e.value, int):
            return str(e.value)
        if isinstance(e, ast.Name):
            return e.id
        raise ValueError(text)
    try:
        return isl(tree)
    except ValueError:
        return text


_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Mod: "mod"}
_FOLD = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b}


def _folded(e) -> int | None:
    """The value of a shift count of integer constants (`(MK + 1)` once MK has its value)."""
    if isinstance(e, ast.Constant) and isinstance(e.value, int) and not isinstance(e.value, bool):
        return e.value
    if isinstance(e, ast.BinOp) and type(e.op) in _FOLD:
        a, b = _folded(e.left), _folded(e.right)
        return None if a is None or b is None else _FOLD[type(e.op)](a, b)
    return None


def _unknown(scop: Scop, dims) -> list[str]:
    return sorted({w for d in dims for w in re.findall(r"[A-Za-z_]\w*", d or "")} - set(scop.params))


def _constant(text: str) -> int | None:
    try:
        return int(isl.Aff(f"{{ [] -> [({text})] }}").get_constant_val().to_python()) \
            if not re.search(r"[A-Za-z_]", text) else None
    except (isl.Error, ValueError, TypeError):
        return None


def _canonical(prefix: str, name: str, dims) -> tuple[isl.Map, bool]:
    """(each element -> the element C stores it in, whether that is exact for every element).
    With constant extents the row-major offsets, exactly; else a few rows at a time."""
    n = len(dims)
    xs, ys = [f"x{k}" for k in range(n)], [f"y{k}" for k in range(n)]
    inside = " and ".join(f"0 <= y{k} < ({dims[k]})" for k in range(1, n))
    sizes = [_constant(d) for d in dims[1:]]
    if all(s is not None and s > 0 for s in sizes):
        strides = [1] * n
        for k in range(n - 2, -1, -1):
            strides[k] = strides[k + 1] * sizes[k]
        lin = lambda v: " + ".join(f"{strides[k]} * {v[k]}" for k in range(n))   # noqa: E731
        return isl.Map(f"{prefix}{{ {name}[{', '.join(xs)}] -> {name}[{', '.join(ys)}] : "
                       f"{lin(xs)} = {lin(ys)} and {inside} }}"), True
    # dimension by dimension, the innermost first, each carrying into the one before it (a
    # carry may push that one out: `a[i][3][k + 1]` of `a[8][4][8]` is `a[i][4][0]`, then
    # `a[i + 1][0][0]`); one pass, not a closure, keeps the pieces few (5 per dimension)
    canon = None
    for k in range(n - 1, 0, -1):
        e = f"({dims[k]})"
        step = isl.Map(f"{prefix}{{ {name}[{', '.join(xs)}] -> {name}[{', '.join(xs)}] : 0 <= x{k} < {e} }}")
        for d in [d for r in range(1, _ROWS + 1) for d in (r, -r)]:
            moved = [f"{x} + {d}" if j == k - 1 else f"{x} - {d} * {e}" if j == k else x for j, x in enumerate(xs)]
            step = step.union(isl.Map(f"{prefix}{{ {name}[{', '.join(xs)}] -> {name}[{', '.join(moved)}] : "
                                      f"(x{k} < 0 or x{k} >= {e}) and 0 <= x{k} - {d} * {e} < {e} }}"))
        canon = step if canon is None else canon.apply_range(step).coalesce()
    ok = isl.Set(f"{prefix}{{ {name}[{', '.join(ys)}] : {inside} }}")
    return canon.intersect_range(ok), False


def _minus(sizes: isl.Set, other: isl.Set) -> isl.Set:
    """`sizes` without `other` (sets of sizes).  isl's subtract of stride-3 sizes with divisions
    by 1800 ran for minutes without counting its operations against the budget; the same set as
    an intersection with the complement took milliseconds (probe 161)."""
    return sizes.intersect(other.complement())


def _leaving(scop: Scop, arr, dims, hull: bool = False) \
        -> tuple[Leaving | None, isl.Set | None, isl.Set | None, bool] | None:
    """(what leaves, at which sizes, the sizes of no interest, whether the model does not follow
    every overrun); what leaves None where nothing does.  `hull`: the statements' domains without
    their existentially quantified divisions (`% 2`), a superset."""
    prefix = scop.prefix
    n = arr.rank
    names = [f"i{k}" for k in range(n)]
    tup = f"{arr.name}[{', '.join(names)}]"
    reached, written, per_stmt, plain = None, None, {}, None
    for s in scop.statements:
        for a in s.accesses:
            if a.array != arr.name or any(ir.is_gathered(x) for x in a.index):
                continue
            dom = isl.Set(f"{scop.prefix}{{ {s.tuple_text()} : {s.domain or '1 = 1'}"
                          f"{' and (' + a.guard + ')' if a.guard else ''} }}").intersect_params(scop.context)
            if hull:
                dom = dom.remove_divs()
            r = isl.Map(f"{scop.prefix}{{ {s.tuple_text()} -> {arr.name}[{', '.join(a.index)}] }}") \
                .intersect_domain(dom).range()
            reached = r if reached is None else reached.union(r)
            if all(x.strip() in s.iterators or x.strip().isdigit() for x in a.index[1:]):
                plain = r if plain is None else plain.union(r)
            if a.kind == "write":
                written = r if written is None else written.union(r)
            per_stmt[s.id] = r if s.id not in per_stmt else per_stmt[s.id].union(r)
    if reached is None or written is None:
        return None
    out_of_row = " or ".join(f"{names[k]} < 0 or {names[k]} >= ({dims[k]})" for k in range(1, n))
    over = reached.intersect(isl.Set(f"{prefix}{{ {tup} : {out_of_row} }}"))
    if over.is_empty():
        outside = reached.intersect(isl.Set(f"{prefix}{{ {tup} : i0 < 0 or i0 >= ({dims[0]}) }}")).params() \
            if dims[0] else None
        return None, None, outside, False
    # sizes at which a subscript that is a loop's iterator alone runs past its extent (PolyBench's
    # `tmp[i][j]` of `tmp[NI][NJ]` to j < nj, at nj > NJ) are a call that breaks the array's
    # declared type (ISO C leaves it undefined), not code that counts on C's layout: not of interest
    beyond = None if plain is None else \
        plain.intersect(isl.Set(f"{prefix}{{ {tup} : {out_of_row} }}")).params()
    canon, exact = _canonical(prefix, arr.name, dims)
    # pairs of elements C stores in one place, one of the two written: one of them is out of
    # its row (the maps are kept to the elements the region reaches, which keeps them small)
    written_canon, reached_canon = canon.intersect_domain(written), canon.intersect_domain(reached)
    same = canon.intersect_domain(over).apply_range(written_canon.reverse()).union(
        canon.intersect_domain(over.intersect(written)).apply_range(reached_canon.reverse()))
    met = same.subtract(isl.Map(f"{prefix}{{ {tup} -> {tup} }}")).params()
    far = over.subtract(canon.domain())
    far_sizes = None if exact or far.is_empty() else far.params()
    bad = met if far_sizes is None else met.union(far_sizes)
    # sizes under which the region leaves the array altogether (`B[i][j]` of `double B[64][64]`
    # to i < n, at n > 64) are none a C program runs: the rows it leaves at those do not count
    undefined = None
    if dims[0]:
        stored = reached_canon.range() if exact else reached
        undefined = stored.intersect(isl.Set(f"{prefix}{{ {tup} : i0 < 0 or i0 >= ({dims[0]}) }}")).params()
        if not scop.context.is_subset(undefined):
            bad = _minus(bad, undefined)
    if beyond is not None and scop.context.is_subset(beyond):
        # at every size: the code counts on C's layout after all (`a[i][j]` of `a[16][8]` to
        # j < 16 reads the next row on purpose), and its rows meet as C lays them out
        beyond = None
    if beyond is not None:
        bad = _minus(bad, beyond)
        undefined = beyond if undefined is None else undefined.union(beyond)
    if bad.is_empty():
        return None, None, undefined, False
    over = over.intersect_params(bad)
    k = next((k for k in range(1, n) if not over.intersect(
        isl.Set(f"{prefix}{{ {tup} : {names[k]} < 0 or {names[k]} >= ({dims[k]}) }}")).is_empty()), 1)
    e = f"{prefix}{{ {tup} : {names[k]} < 0 or {names[k]} >= ({dims[k]}) }}"
    stmt = next((sid for sid, r in per_stmt.items() if not r.intersect(isl.Set(e)).is_empty()), 0)
    return Leaving(arr.name, stmt, k, arr.dims[k]), bad, undefined, bool(far_sizes is not None)


def alias_pairs(scop: Scop) -> isl.UnionMap:
    """The statement instances, in the program's order, whose accesses meet through a row
    left (one of the two a write): the dependences the model, one element per subscript tuple,
    does not see.  Kept with the scop: each recipe of a search asks."""
    return scop.cached("alias_pairs", lambda: _alias_pairs(scop))


def _alias_pairs(scop: Scop) -> isl.UnionMap:
    out = isl.UnionMap.empty(scop.context.get_space())
    lv = scop.row_leaving
    reads, writes = scop.accesses("read"), scop.accesses("write")
    for name, dims in (lv.views if lv is not None else ()):
        xs = ", ".join(f"x{k}" for k in range(len(dims)))
        if name in lv.far:
            # an overrun the model does not follow may meet any element of the array
            al = isl.Map(f"{scop.prefix}{{ {name}[{xs}] -> {name}[{xs.replace('x', 'y')}] }}")
        else:
            canon, _ = _canonical(scop.prefix, name, dims)
            al = canon.apply_range(canon.reverse())
        al = isl.UnionMap.from_map(al)
        for a, b in ((writes, writes), (writes, reads), (reads, writes)):
            out = out.union(a.apply_range(al).apply_range(b.reverse()))
    order = scop.schedule.lex_lt_union_map(scop.schedule)
    return out.intersect(order).intersect_params(scop.context).coalesce()


def _pinned(part: isl.Set) -> int:
    """How many sizes a part fixes (`n = 4`): a part that fixes none runs at more sizes."""
    return sum(c.is_equality() for b in part.get_basic_sets() for c in b.get_constraints())


def _fact(scop: Scop, bad: isl.Set, undefined: isl.Set | None) -> str | None:
    """The sizes outside `bad`, as one conjunction of constraints, where some of them are large
    enough to be worth running the transformed code for; else None."""
    ok = bad.complement().intersect(scop.context).coalesce()
    # a part at sizes where the region leaves the array (no C program runs those) would make
    # the transformed code dead: the conjunction is taken from where the region is defined
    defined = ok if undefined is None else _minus(ok, undefined).coalesce()
    # one conjunction inside it (any part of `ok` is sound): the one that holds the values the
    # file's #defines give, where it has some (a condition that leaves those out would run the
    # transformed code at no build of the file); else the first with large sizes (`m <= 16`,
    # not `n <= 1`, of `m <= 16 or n <= 1`)
    values = dict(scop.macro_values)
    big = scop.params_where([f"{k} = {x}" for k, x in values.items() if k in scop.params]
                            + [f"{p} >= {_SMALLEST_USEFUL}" for p in scop.params
                               if p not in dict(scop.fixed) and p not in values])
    # and where the region runs at all: `n >= 2` of `for (i = n; i < 2; i++)` holds no iteration
    runs = scop.domain(scop.statements[0]).params()
    for s in scop.statements[1:]:
        runs = runs.union(scop.domain(s).params())
    parts = [isl.Set.from_basic_set(b) for b in defined.get_basic_sets()]
    fit = [b for b in parts if not b.intersect(big).is_empty()]
    part = min(fit, key=lambda b: (b.intersect(runs).is_empty(), _pinned(b))) if fit else None
    if part is None:
        return None
    # without the constraints it needs not (`n >= 2` of `n >= 2 and m <= 16`)
    kept = list(part.get_basic_sets()[0].get_constraints())
    for c in list(kept):
        rest = isl.BasicSet.universe(part.get_space())
        for other in kept:
            if other is not c:
                rest = rest.add_constraint(other)
        if isl.Set.from_basic_set(rest).intersect(scop.context).is_subset(ok):
            kept.remove(c)
            part = isl.Set.from_basic_set(rest)
    text = str(part.gist(scop.context))
    inner = text[text.index("{") + 1:text.rindex("}")].strip()
    return inner[1:].strip() if inner.startswith(":") and inner[1:].strip() else None


def rows_kept(v, parallel: bool):
    """`v` where its order keeps every pair of accesses that meet through a row left (and no
    loop runs in `parallel`, and no copy step gives the two names of one element a cell each);
    else made for the sizes under which no row is left, which the output checks (a note says
    so), or None where there are none: the caller refuses."""
    lv = v.scop.row_leaving
    if lv is None:
        return v
    from looptx.poly.deps import respects
    pairs = alias_pairs(v.scop).intersect_params(v.context)
    copied = {getattr(x, "array", None) for x in v.extra} & {name for name, _ in lv.views}
    if pairs.is_empty() or not parallel and not copied and respects(pairs, v.schedule_map()):
        return v
    if lv.fact is None or v.context.intersect(v.scop.params_where([lv.fact])).is_empty():
        return None             # (a `known` fact against it: the transformed code would never run)
    from dataclasses import replace as _replace
    from looptx.errors import note_once
    from looptx.frontend.fallback import as_c
    note_once(lv.path, lv.line, f"at some sizes {lv.what}: the recipe is made for {as_c(lv.fact)}, which the "
              "output checks (its C runs the region as written otherwise, its CUDA host code returns "
              "cudaErrorInvalidValue)", per_line=True)
    scop = _replace(v.scop, assumptions=v.scop.assumptions + (lv.fact,), _cache={},
                    runtime_facts=tuple(dict.fromkeys(v.scop.runtime_facts + (lv.fact,))))
    return v.evolve(scop=scop)
