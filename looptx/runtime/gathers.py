"""Input data for reads through index arrays (`y[row] += a[k] * x[cols[k]]`, SHOC MD's
`posx[jidx]` with `jidx = neighList[j]`).

The model takes such a read as any element of an array the region never writes, so a harness
must make the indexes valid itself: random integers would read outside `x`.  Each index array
is filled with values that keep every subscript it feeds inside its dimension (`cols[k] - 1`
takes values 1..n), and a pointer that only such reads reach gets as many elements as the
largest other array, so that the indexes spread over a realistic range.  A row of a table
(llm.c's embedding `wte[ix*C + i]`, i < C) takes the index as a row number: 0..rows-1.
A read that a guard of its own bounds (PETSc's DIA `if (i + offsets[j] >= 0 && i + offsets[j]
< n) ... x[i + offsets[j]]`, a `?:` that C evaluates lazily) is safe whatever the indexes hold:
they are drawn so that the guard holds for some reads and fails for others."""
from __future__ import annotations

from dataclasses import dataclass, field

from looptx import ir
from looptx.errors import LooptxError

_MAX_SPREAD = 1 << 20          # elements a pointer only reached through indexes gets at most


@dataclass
class GatherPlan:
    arrays: set[str] = field(default_factory=set)                  # read through indexes somewhere
    # index array -> [lowest, highest + 1) of the values it may hold, once the extents are known
    # (index, offset, array, dim, text, row length: the index numbers rows of it, or None,
    # in-row length: the index is a position within rows of it, or None)
    uses: list[tuple[str, int, str, int, str, str | None, str | None]] = field(default_factory=list)
    # array -> (statement, row start, row length) of each in-row use: the rows it must hold
    starts: dict[str, list] = field(default_factory=dict)
    scop: object = None
    # (statement, subscript, array, dim, text) of each subscript that reads the file's constant
    # tables (frontend/tables.py): their values are the file's, checked to stay in the array
    tables: list = field(default_factory=list)
    # (array, dim, values, text, name) of each subscript whose form bounds it (`x & 0xff`, a
    # cast to unsigned char): the array must hold that many elements there
    masked: list = field(default_factory=list)
    # index array -> {(dim, ndim, offset)}: read with the model's `ndim` subscripts, the one of
    # `dim` a plain iterator that also reads the array its values index, at the dimension they
    # feed (MachSuite md's `NL[i*maxNeighbors + j]` and `position_x[i]`); `offset` as in uses
    own: dict[str, set] = field(default_factory=dict)
    # (array, dim, bound, text, index arrays) of each read that a guard of its own keeps in
    # 0..bound-1 (PETSc's DIA `if (i + offsets[j] >= 0 && i + offsets[j] < n) ... x[i + offsets[j]]`)
    guarded: list = field(default_factory=list)

    def elements_needed(self, array: str, env: dict[str, int]) -> int:
        """The elements `array` needs for the last row an in-row use reaches to exist; -1 where
        one reaches a row before the first."""
        from looptx.poly.footprint import highest_value
        # a guarded read reaches up to its guard's bound, wherever the indexes point
        need = max((offset_value(b, env) for a, _, b, _, _ in self.guarded if a == array), default=0)
        for s, start, row in self.starts.get(array, ()):
            hi, minus_lo = (highest_value(self.scop, s, x, env) for x in (start, f"-({start})"))
            if minus_lo is not None and minus_lo > 0:
                return -1
            if hi is not None:
                need = max(need, (hi + 1) * _value(row, env))
        return need

    def index_ranges(self, extents: dict[str, tuple[int, ...]], where,
                     env: dict[str, int]) -> dict[str, tuple[int, int]]:
        self._check_tables(extents, where, env)
        for array, dim, values, text, name in self.masked:
            if extents[array][dim] < values:
                raise LooptxError(f"'{text}' may reach element {values - 1} of '{array}', which has "
                                  f"{extents[array][dim]} there", hint="declare the table with all the elements "
                                  "its subscript can reach", **where(name))
        out: dict[str, tuple[int, int]] = {}
        for index, offset, array, dim, text, row, within in self.uses:
            offset = offset_value(offset, env)
            n = extents[array][dim]
            if row is not None:
                n //= max(_value(row, env), 1)
            if within is not None:
                if not 0 <= self.elements_needed(array, env) <= n:
                    n = 0               # a row the region reads is outside the array
                n = min(n, _value(within, env))
            lo, hi = out.get(index, (-offset, n - offset))
            lo, hi = max(lo, -offset), min(hi, n - offset)
            if lo >= hi:
                raise LooptxError(f"no values of '{index}' keep '{text}' inside '{array}' at these sizes",
                                  hint="give sizes under which every index read stays in its array",
                                  **where(index))
            out[index] = (lo, hi)
        return self._guarded_ranges(out, extents, where, env)

    def _guarded_ranges(self, out: dict, extents, where, env) -> dict[str, tuple[int, int]]:
        """Each index array that only guarded reads use takes values in -bound..bound, so that
        the guards both hold and fail (DIA offsets run from -(n-1) to n-1); one that an
        unguarded read also uses keeps that read's range."""
        loose: dict[str, tuple[int, int]] = {}
        for array, dim, bound, text, indexes in self.guarded:
            b, n = offset_value(bound, env), extents[array][dim]
            if b > n:
                raise LooptxError(f"the guard of '{text}' lets it reach element {b - 1} of '{array}', "
                                  f"which has {n} there, at these sizes", hint="bound the subscript by "
                                  "the array's extent in the guard, or give sizes under which it fits",
                                  **where(array))
            for index in indexes:
                lo, hi = loose.get(index, (0, 1))
                loose[index] = (min(lo, -b), max(hi, b + 1))
        return {**loose, **out}


    def _check_tables(self, extents, where, env) -> None:
        """Each value of the tables a subscript reads keeps it inside its dimension wherever
        the statement runs (LBM's `y - cy[q]`, y = 1..NY-2, cy in -1..1)."""
        from itertools import product

        from looptx.poly.footprint import highest_value
        tables = dict(self.scop.tables)
        for s, e, array, dim, text in self.tables:
            refs = sorted({x.array for x in ir.walk(e) if isinstance(x, ir.Ref)})
            for combo in product(*(sorted(set(tables[t])) for t in refs)):
                value = dict(zip(refs, combo))
                c = ir.to_c(ir.map_up(e, lambda x: ir.Var(f"({value[x.array]})") if isinstance(x, ir.Ref) else x))
                hi, minus_lo = (highest_value(self.scop, s, x, env) for x in (c, f"-({c})"))
                n = extents[array][dim]
                if hi is not None and (hi >= n or minus_lo > 0):
                    shown = ", ".join(f"{t} = {v}" for t, v in value.items())
                    raise LooptxError(f"'{text}' reaches outside '{array}' (extent {n}) where {shown}, at these sizes",
                                      hint="give sizes under which every read stays in its array", **where(array))

def gather_plan(scop, where) -> GatherPlan:
    """The arrays read through indexes and, per index array, the subscripts its values feed;
    an error at a subscript that is not an index array's element (plus or minus a constant),
    whose values the harness cannot choose, unless a guard evaluated before the read keeps it
    inside the array whatever they are."""
    plan = GatherPlan(scop=scop)
    arrays = {a.name: a for a in scop.arrays}
    scalar_sources = _scalar_sources(scop, arrays)
    for s in scop.statements:
        for r, known in _guarded_refs(s.body, ()):
            acc = scop.access(r.ref)
            # a linearized reference split into rows keeps its flat subscript in the statement
            for d, text in enumerate(acc.index[:len(r.index)]):
                if not ir.is_gathered(text):
                    continue
                plan.arrays.add(r.array)
                shown = ir.to_c(r.index[d])
                bound = _guard_bound(r.index[d], known, set(scop.params))
                if bound is not None and r.array in arrays and len(r.index) == arrays[r.array].rank:
                    plan.guarded.append((r.array, d, bound, f"{r.array}[{shown}]",
                                         _feeders(r.index[d], arrays, scalar_sources)))
                    continue
                src, row, within = _source(r.index[d], arrays, scalar_sources, set(scop.params)), None, None
                if src is None:
                    src, row = _row_of_table(scop, s, r.index[d], arrays, scalar_sources)
                if src is None:
                    src, within, start = _in_row(r.index[d], arrays, scalar_sources)
                    if src is not None:
                        plan.starts.setdefault(r.array, []).append((s, start, within))
                if src is None and _masked(r.index[d]) is not None:
                    plan.masked.append((r.array, d, _masked(r.index[d]), f"{r.array}[{shown}]", r.array))
                    continue
                if src is None and _reads_tables(r.index[d], scop):
                    plan.tables.append((s, r.index[d], r.array, d, f"{r.array}[{shown}]"))
                    continue
                if src is None:
                    raise LooptxError(
                        f"the region reads '{r.array}' at [{shown}], an index whose values the harness "
                        "cannot keep inside the array", hint="read the index array's element as the subscript "
                        f"({r.array}[idx[k]] or {r.array}[idx[k] - 1]), or guard the read by its bounds "
                        f"(`if (e >= 0 && e < n) ... {r.array}[e]`), to validate with looptx run",
                        **where(r.array))
                plan.uses.append((src[0], src[1], r.array, d, f"{r.array}[{shown}]", row, within))
    _own_elements(scop, plan)
    return plan


def _guarded_refs(e: ir.Expr, known: tuple):
    """(reference, the conjuncts C has found true before it evaluates it) for each reference
    of `e`: `c ? a : b` and `c && a` evaluate `a` only where `c` holds."""
    if isinstance(e, ir.Ref):
        yield e, known
    if isinstance(e, ir.Cond) or isinstance(e, ir.Bin) and e.op == "&&":
        c, rest = (e.c, (e.a, e.b)) if isinstance(e, ir.Cond) else (e.a, (e.b,))
        yield from _guarded_refs(c, known)
        yield from _guarded_refs(rest[0], known + tuple(_conjuncts(c)))
        for x in rest[1:]:
            yield from _guarded_refs(x, known)
        return
    for x in ((e.a, e.b) if isinstance(e, ir.Bin) else (e.a,) if isinstance(e, (ir.Un, ir.Cast))
              else e.args if isinstance(e, ir.Call) else (e.lhs, e.rhs) if isinstance(e, ir.Assign)
              else e.index if isinstance(e, ir.Ref) else ()):
        yield from _guarded_refs(x, known)


def _conjuncts(c: ir.Expr) -> list[ir.Expr]:
    if isinstance(c, ir.Bin) and c.op == "&&":
        return _conjuncts(c.a) + _conjuncts(c.b)
    return [c]


def _guard_bound(sub: ir.Expr, known: tuple, sizes) -> int | str | None:
    """The bound B of `sub` where `known` holds `sub >= 0` (or `sub > -1`) and `sub < B` (or
    `sub <= B - 1`), in either operand order, B an integer or an expression of the sizes."""
    low, high = False, None
    for c in known:
        if not (isinstance(c, ir.Bin) and c.op in _FLIPPED):
            continue
        op, other = (c.op, c.b) if ir.same_apart_from_refs(c.a, sub) else \
            (_FLIPPED[c.op], c.a) if ir.same_apart_from_refs(c.b, sub) else (None, None)
        value = _signed(other) if op is not None else None
        if op in (">=", ">") and value is not None and value >= (0 if op == ">=" else -1):
            low = True
        elif op in ("<", "<=") and _constant(other, sizes) is not None:
            b = _constant(other, sizes)
            high = b + (op == "<=") if isinstance(b, int) else f"({b}) + 1" if op == "<=" else b
    return high if low else None


_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _signed(x: ir.Expr) -> int | None:
    if isinstance(x, ir.Un) and x.op == "-" and isinstance(x.a, ir.Num):
        v = _int(x.a)
        return -v if v is not None else None
    return _int(x) if isinstance(x, ir.Num) else None


def _feeders(e: ir.Expr, arrays, scalars, seen=frozenset()) -> list[str]:
    """The index arrays whose values a subscript reads, through the region's integer scalars
    (`col = i + offsets[j]`) too."""
    out = []
    for x in ir.walk(e):
        if isinstance(x, ir.Ref) and x.index and x.array in arrays:
            out.append(x.array)
        elif isinstance(x, ir.Ref) and x.array in scalars and x.array not in seen:
            for v in scalars[x.array]:
                out += _feeders(v, arrays, scalars, seen | {x.array}) if v is not None else []
    return sorted(set(out))


def _own_elements(scop, plan: GatherPlan) -> None:
    """GatherPlan.own: where an iteration that reads `a[i]` also reads `a` through an index,
    the index that names element i itself is the self-pair a neighbour list never holds (an
    atom at distance 0 from itself); data that avoid it are a data set of their own
    (runtime/reference.py)."""
    direct: dict[tuple[str, int], set[str]] = {}
    reads: dict[str, list] = {}
    for s in scop.statements:
        for r in (x for x in ir.walk(s.body) if isinstance(x, ir.Ref) and x.index):
            index = scop.access(r.ref).index
            reads.setdefault(r.array, []).append((s, index))
            for d, text in enumerate(index):
                if text in s.iterators:
                    direct.setdefault((r.array, d), set()).add(text)
    for index, offset, array, dim, _, row, within in plan.uses:
        if row is not None or within is not None or not isinstance(offset, int):
            continue
        for s, sub in reads.get(index, ()):
            for k, text in enumerate(sub):
                if text in s.iterators and text in direct.get((array, dim), ()):
                    plan.own.setdefault(index, set()).add((k, len(sub), offset))


def _reads_tables(e: ir.Expr, scop) -> bool:
    """Whether the subscript's element reads are all of the file's constant tables, read at
    subscripts that hold no element read themselves, with few value combinations to check."""
    tables = dict(scop.tables)
    refs = [x for x in ir.walk(e) if isinstance(x, ir.Ref)]
    combos = 1
    for t in {x.array for x in refs}:
        combos *= len(set(tables.get(t, ())))
    return bool(refs) and all(x.array in tables and not any(isinstance(y, ir.Ref) for i in x.index
                                                             for y in ir.walk(i)) for x in refs) \
        and combos <= 4096


def _row_of_table(scop, s, e: ir.Expr, arrays, scalars):
    """((index array, offset), row length) for `idx[..] * ROW + i` with `0 <= i < ROW` wherever
    the statement runs (either operand order); else (None, None)."""
    from looptx.poly.footprint import stays_in_rows
    terms = [e.a, e.b] if isinstance(e, ir.Bin) and e.op == "+" else [e]
    for k, scaled in enumerate(terms):
        if not (isinstance(scaled, ir.Bin) and scaled.op == "*"):
            continue
        for index, row in ((scaled.a, scaled.b), (scaled.b, scaled.a)):
            src, rows = _source(index, arrays, scalars), _row_length(row)
            if src is None or rows is None:
                continue
            rest = terms[1 - k] if len(terms) == 2 else ir.Num("0")
            if all(isinstance(x, (ir.Var, ir.Num, ir.Bin)) for x in ir.walk(rest)) and \
                    stays_in_rows(scop, s, ir.to_c(rest), rows):
                return src, rows
    return None, None


def _in_row(e: ir.Expr, arrays, scalars):
    """((index array, offset), row length, row number x as C) for `x * ROW + idx[..]` (either
    operand order): the index is a position within a row (srad's `J[i*cols + jW[j]]`), so its
    values are 0..ROW-1; else (None, None, None)."""
    terms = [e.a, e.b] if isinstance(e, ir.Bin) and e.op == "+" else []
    for k, term in enumerate(terms):
        src = _source(term, arrays, scalars)
        scaled = terms[1 - k]
        if src is None or not (isinstance(scaled, ir.Bin) and scaled.op == "*"):
            continue
        for row, start in ((scaled.b, scaled.a), (scaled.a, scaled.b)):
            if _row_length(row) is not None and not any(isinstance(x, ir.Ref) for x in ir.walk(start)):
                return src, _row_length(row), ir.to_c(start)
    return None, None, None


def _row_length(x: ir.Expr) -> str | None:
    """A row length as a size's name or a nonzero integer, else None."""
    if isinstance(x, ir.Var):
        return x.name
    return str(_int(x)) if isinstance(x, ir.Num) and _int(x) else None


def _value(size: str, env: dict[str, int]) -> int:
    return int(size) if size.isdigit() else int(env[size])


def _scalar_sources(scop, arrays) -> dict[str, list[ir.Expr]]:
    """Integer scalars of the region: every value assigned to each (`jidx = neighList[j]`)."""
    out: dict[str, list[ir.Expr]] = {}
    for s in scop.statements:
        lhs = s.body.lhs
        if isinstance(lhs, ir.Ref) and not lhs.index and lhs.array in arrays and arrays[lhs.array].is_scalar:
            out.setdefault(lhs.array, []).append(s.body.rhs if s.body.op == "=" else None)
    return out


def _source(e: ir.Expr, arrays, scalars, sizes=frozenset()) -> tuple[str, int | str] | None:
    """(index array, offset) for `idx[..]`, `idx[..] + c`, `idx[..] - c`, or a scalar every
    assignment of which is one of these (of one array and offset); c may be an expression of
    the sizes (libjpeg's `ctab[g + G_Y_OFF]`), the offset then its C text."""
    offset: int | str = 0
    while isinstance(e, ir.Cast):
        e = e.a
    if isinstance(e, ir.Bin) and e.op in ("+", "-") and _constant(e.b, sizes) is not None:
        offset = _constant(e.b, sizes) if e.op == "+" else _negated(_constant(e.b, sizes))
        e = e.a
    elif isinstance(e, ir.Bin) and e.op == "+" and _constant(e.a, sizes) is not None:
        offset, e = _constant(e.a, sizes), e.b
    while isinstance(e, ir.Cast):
        e = e.a
    if not isinstance(e, ir.Ref) or e.array not in arrays:
        return None
    if e.index:
        return (e.array, offset)
    values = scalars.get(e.array) or [None]
    found = {_source(v, arrays, {}) if v is not None else None for v in values}
    if len(found) != 1 or None in found:
        return None
    name, inner = found.pop()
    both = isinstance(inner, int) and isinstance(offset, int)
    return (name, inner + offset if both else f"({inner}) + ({offset})")


def _masked(e: ir.Expr) -> int | None:
    """As frontend/gathered.masked_bound, on the model's expression."""
    if isinstance(e, ir.Bin) and e.op == "&":
        for k in (e.b, e.a):
            mask = _int(k) if isinstance(k, ir.Num) else None
            if mask is not None and mask >= 0 and mask & (mask + 1) == 0:
                return mask + 1
    if isinstance(e, ir.Cast) and e.ctype in ("unsigned char", "uint8_t"):
        return 256
    lo, hi = _clamped(e)
    if lo is not None and hi is not None and lo >= 0:
        return hi + 1           # the camera pipe's `curve[min(max(v, 0), 1023)]`
    return None


def _clamped(e: ir.Expr) -> tuple[int | None, int | None]:
    """The least and greatest value `e` may have, whatever the data (None: unbounded), from
    the constants its min / max (calls, or their `?:` spellings) compare it with."""
    if isinstance(e, ir.Num):
        v = _int(e)
        return v, v
    if isinstance(e, ir.Cast):
        return _clamped(e.a)
    pick = None
    if isinstance(e, ir.Call) and e.fn in ("min", "max", "imin", "imax") and len(e.args) == 2:
        pick, x, y = e.fn.lstrip("i"), e.args[0], e.args[1]
    elif isinstance(e, ir.Cond) and isinstance(e.c, ir.Bin) and e.c.op in ("<", "<=", ">", ">="):
        # (the copies of a read are other references of it: compared as C)
        x, y = e.c.a, e.c.b
        ab, xy = (ir.to_c(e.a), ir.to_c(e.b)), (ir.to_c(x), ir.to_c(y))
        if ab == xy:
            pick = "min" if e.c.op in ("<", "<=") else "max"
        elif ab == xy[::-1]:
            pick = "max" if e.c.op in ("<", "<=") else "min"
    if pick is None:
        return None, None
    (lx, hx), (ly, hy) = _clamped(x), _clamped(y)
    if pick == "min":
        return (None if lx is None or ly is None else min(lx, ly)), \
            min((h for h in (hx, hy) if h is not None), default=None)
    return max((lo for lo in (lx, ly) if lo is not None), default=None), \
        (None if hx is None or hy is None else max(hx, hy))


def _constant(x: ir.Expr, sizes) -> int | str | None:
    """An integer, or the C text of an expression of `sizes` alone; None for anything else."""
    if isinstance(x, ir.Num):
        return _int(x)
    if all(isinstance(n, (ir.Var, ir.Num, ir.Bin)) and not (isinstance(n, ir.Var) and n.name not in sizes)
           and not (isinstance(n, ir.Bin) and n.op not in ("+", "-", "*")) for n in ir.walk(x)):
        return ir.to_c(x)
    return None


def _negated(c: int | str) -> int | str:
    return -c if isinstance(c, int) else f"-({c})"


def offset_value(offset: int | str, env: dict[str, int]) -> int:
    if isinstance(offset, int):
        return offset
    from looptx.runtime.extents import eval_extent
    return eval_extent(offset, env)


def _int(n: ir.Num) -> int | None:
    try:
        return int(n.text.rstrip("uUlL"), 0)
    except ValueError:
        return None


def spread(shapes: dict[str, tuple[int, ...]]) -> int:
    """Elements for a pointer only indexes reach: as many as the largest other array."""
    total = 1
    for shape in shapes.values():
        n = 1
        for d in shape:
            n *= d
        total = max(total, n)
    return min(total, _MAX_SPREAD)
