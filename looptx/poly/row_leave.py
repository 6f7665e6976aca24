"""Subscripts that leave their row of a declared multi-dimensional array: `a[i][j + 1]` at
j = M - 1 in `double (*a)[M]` is `a[i + 1][0]` in C's memory, which the model, one element
per subscript tuple, takes for another element.  Where one of the two is written, the
dependences miss a pair, and a step they allow may reorder the two (`run` refuses such sizes,
frontend/harness; a transform must not accept them either).  CHiLL's jacobi reads `a[t-1][N]`,
which is `a[t][0]` and never written: harmless, and accepted."""
from __future__ import annotations

from dataclasses import dataclass, replace

import islpy as isl

from looptx import ir
from looptx.frontend.names import to_user
from looptx.poly.scop import Scop

# rows an overrunning subscript may cross that are told apart (a larger overrun is taken as
# meeting whatever the array's writes reach)
_ROWS = 2
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

    @property
    def what(self) -> str:
        return (f"a subscript of '{to_user(self.array)}' in dimension {self.dim + 1} leaves its extent "
                f"{to_user(self.extent)}: C puts that element in another row, on one the region also reaches, "
                "one of the two written, which looptx's dependences take for a different one")


def leaving_rows(scop: Scop) -> Leaving | None:
    """The first array whose subscripts leave their rows onto elements the region also
    reaches, one of the two written, at some sizes the model allows, with the sizes under which
    no array's do (its fact); None where none does."""
    first, bad = None, None
    for arr in _candidates(scop):
        try:
            found = _leaving(scop, arr)
        except isl.Error:
            continue                # an extent the model cannot read (a name it has no size of)
        if found is not None:
            first = first or found[0]
            bad = found[1] if bad is None else bad.union(found[1])
    if first is None:
        return None
    return replace(first, fact=_fact(scop, bad))


def _candidates(scop: Scop):
    return [arr for arr in scop.arrays
            if not arr.strides and arr.rank >= 2 and len(arr.dims) == arr.rank and all(arr.dims[1:])]


def _shifts(scop: Scop, arr):
    """(dimension, map) of each element past its row's extent onto the element C puts there,
    d rows on in the dimension before it."""
    names = [f"i{k}" for k in range(arr.rank)]
    tup = f"{arr.name}[{', '.join(names)}]"
    for k in range(1, arr.rank):
        e = f"({arr.dims[k]})"
        for d in [d for r in range(1, _ROWS + 1) for d in (r, -r)]:
            moved = [f"{x} + {d}" if j == k - 1 else f"{x} - {d} * {e}" if j == k else x for j, x in enumerate(names)]
            yield k, isl.Map(f"{scop.prefix}{{ {tup} -> {arr.name}[{', '.join(moved)}] : "
                             f"({names[k]} < 0 or {names[k]} >= {e}) and 0 <= {names[k]} - {d} * {e} < {e} }}")


def alias_pairs(scop: Scop) -> isl.UnionMap:
    """The statement instances, in the program's order, whose accesses meet through a row
    left (one of the two a write): the dependences the model, one element per subscript tuple,
    does not see.  Kept with the scop: each recipe of a search asks."""
    return scop.cached("alias_pairs", lambda: _alias_pairs(scop))


def _alias_pairs(scop: Scop) -> isl.UnionMap:
    out = isl.UnionMap.empty(scop.context.get_space())
    reads, writes = scop.accesses("read"), scop.accesses("write")
    for arr in _candidates(scop):
        try:
            shifts = [m for _, m in _shifts(scop, arr)]
        except isl.Error:
            continue
        for m in shifts:
            al = isl.UnionMap.from_map(m)
            al = al.union(al.reverse())
            for a, b in ((writes, writes), (writes, reads), (reads, writes)):
                out = out.union(a.apply_range(al).apply_range(b.reverse()))
    order = scop.schedule.lex_lt_union_map(scop.schedule)
    return out.intersect(order).intersect_params(scop.context).coalesce()


def _leaving(scop: Scop, arr) -> tuple[Leaving, isl.Set] | None:
    n = arr.rank
    names = [f"i{k}" for k in range(n)]
    tup = f"{arr.name}[{', '.join(names)}]"
    reached, written, per_stmt = None, None, {}
    for s in scop.statements:
        for a in s.accesses:
            if a.array != arr.name or any(ir.is_gathered(x) for x in a.index):
                continue
            dom = isl.Set(f"{scop.prefix}{{ {s.tuple_text()} : {s.domain or '1 = 1'}"
                          f"{' and (' + a.guard + ')' if a.guard else ''} }}").intersect_params(scop.context)
            r = isl.Map(f"{scop.prefix}{{ {s.tuple_text()} -> {arr.name}[{', '.join(a.index)}] }}") \
                .intersect_domain(dom).range()
            reached = r if reached is None else reached.union(r)
            if a.kind == "write":
                written = r if written is None else written.union(r)
            per_stmt[s.id] = r if s.id not in per_stmt else per_stmt[s.id].union(r)
    if reached is None or written is None:
        return None
    # sizes under which the region leaves the array altogether (`B[i][j]` of `double B[64][64]`
    # to i < n, at n > 64) are none a C program runs: the rows it leaves at those do not count
    undefined = None
    if arr.dims[0]:
        try:
            undefined = reached.intersect(isl.Set(f"{scop.prefix}{{ {tup} : i0 < 0 or i0 >= ({arr.dims[0]}) }}")).params()
        except isl.Error:
            undefined = None
    bad = None
    shifts = list(_shifts(scop, arr))
    for k in range(1, n):
        e = f"({arr.dims[k]})"
        over = reached.intersect(isl.Set(f"{scop.prefix}{{ {tup} : {names[k]} < 0 or {names[k]} >= {e} }}"))
        if over.is_empty():
            continue
        # the element C puts there: d rows on in dimension k - 1
        met = None
        for shift in (m for j, m in shifts if j == k):
            onto = shift.intersect_domain(over)
            # a pair that meets, one of the two written
            hit = onto.intersect_range(written).domain().union(onto.intersect_domain(written).intersect_range(reached).domain())
            met = hit if met is None else met.union(hit)
            over = over.subtract(shift.domain())
        far = over.params() if not over.is_empty() else None
        found = met.params() if met is not None else None
        for part in (found, far):
            if part is not None and not part.is_empty():
                bad = part if bad is None else bad.union(part)
        if bad is not None and undefined is not None:
            bad = bad.subtract(undefined)
        if bad is not None and not bad.is_empty():
            stmt = next((sid for sid, r in per_stmt.items()
                         if not r.intersect(isl.Set(f"{scop.prefix}{{ {tup} : {names[k]} < 0 or {names[k]} >= {e} }}"))
                         .is_empty()), 0)
            return Leaving(arr.name, stmt, k, arr.dims[k]), bad
    return None


def _fact(scop: Scop, bad: isl.Set) -> str | None:
    """The sizes outside `bad`, as one conjunction of constraints, where some of them are large
    enough to be worth running the transformed code for; else None."""
    ok = bad.complement().intersect(scop.context).coalesce()
    # one conjunction inside it (any part of `ok` is sound): the one that holds the values the
    # file's #defines give, where it has some (a condition that leaves those out would run the
    # transformed code at no build of the file); else the first with large sizes (`m <= 16`,
    # not `n <= 1`, of `m <= 16 or n <= 1`)
    values = dict(scop.macro_values)
    big = scop.params_where([f"{k} = {x}" for k, x in values.items() if k in scop.params]
                            + [f"{p} >= {_SMALLEST_USEFUL}" for p in scop.params
                               if p not in dict(scop.fixed) and p not in values])
    part = next((isl.Set.from_basic_set(b) for b in ok.get_basic_sets()
                 if not isl.Set.from_basic_set(b).intersect(big).is_empty()), None)
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
    loop runs in `parallel`); else made for the sizes under which no row is left, which the
    output checks (a note says so), or None where there are none: the caller refuses."""
    lv = v.scop.row_leaving
    if lv is None:
        return v
    from looptx.poly.deps import respects
    pairs = alias_pairs(v.scop).intersect_params(v.context)
    if pairs.is_empty() or not parallel and respects(pairs, v.schedule_map()):
        return v
    if lv.fact is None:
        return None
    from dataclasses import replace as _replace
    from looptx.errors import note_once
    from looptx.frontend.fallback import as_c
    note_once(lv.path, lv.line, f"at some sizes {lv.what}: the recipe is made for {as_c(lv.fact)}, which the "
              "output checks (its C runs the region as written otherwise, its CUDA host code returns "
              "cudaErrorInvalidValue)", per_line=True)
    scop = _replace(v.scop, assumptions=v.scop.assumptions + (lv.fact,), _cache={},
                    runtime_facts=tuple(dict.fromkeys(v.scop.runtime_facts + (lv.fact,))))
    return v.evolve(scop=scop)
