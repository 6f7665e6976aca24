"""combine (index combining, Ma et al.): two perfectly nested loops become one over the
product of their extents, where every reference addresses them as adjacent dimensions."""
from __future__ import annotations

import re
from dataclasses import replace

import islpy as isl

from looptx import ir
from looptx.errors import RecipeError
from looptx.frontend.names import to_user
from looptx.poly.deps import _constant
from looptx.poly.known_values import at_macro_value
from looptx.poly.parallel import collapsed
from looptx.poly.schedule import _check_name_free, normalize, resolve_name, sharing
from looptx.poly.trips import _global_min, _ranges, max_trip
from looptx.poly.variant import LoopDim, Variant


def combine(v: Variant, stmt: int, loops: list, name: str | None = None) -> Variant:
    if len(loops) != 2:
        raise RecipeError("combine takes exactly two loops", hint="e.g. loops: [i, j]")
    a, b = (resolve_name(v, stmt, x) for x in loops)
    name = name or a + b
    group = sharing(v, stmt, a)
    _check_name_free(v, group, name)
    pieces = list(v.pieces)
    for k, pos in group:
        q = pieces[k]
        pb = q.position_of(b)
        if pb != pos + 2 and q.stmt != stmt and b not in (d.name for d in q.dims if isinstance(d, LoopDim)):
            raise RecipeError(f"combine would split loop '{to_user(a)}': statement {q.stmt} shares it but is not "
                              f"inside loop '{to_user(b)}'",
                              hint=f"distribute the statements first (distribute {{stmts: [{stmt}], loop: {a}}})")
        if pb != pos + 2:
            raise RecipeError(f"combine: loop '{b}' is not immediately inside '{a}' for statement {q.stmt}",
                              hint="combine two perfectly nested loops")
    inner = sharing(v, stmt, b)
    if sorted(k for k, _ in inner) != sorted(k for k, _ in group):
        raise RecipeError(f"combine: loops '{a}' and '{b}' are not perfectly nested",
                          hint="distribute the other statements first")
    _check_together(v, group, a, b)
    pos = group[0][1]
    trip = max_trip(v, group, pos + 2)
    lb_b = _global_min(v, group, pos + 2)
    r = _ranges(v, group, pos + 2).project_out(isl.dim_type.set, 0, pos + 2)
    hi_b = _constant(r.dim_max(0)) if not r.is_empty() else None
    lo_b = _constant(r.dim_min(0)) if not r.is_empty() else None
    if r.is_empty():
        raise RecipeError(f"combine: loop '{b}' runs no iteration at these sizes",
                          hint="there is nothing to combine: drop the step for these sizes, or give "
                               "sizes where the loops run")
    if trip is None or hi_b is None or lo_b is None:
        fixed = not set(v.scop.params) - {n for n, _ in v.scop.fixed}
        error = RecipeError(f"combine: loop '{b}' needs a constant extent",
                            hint="its extent varies with the loops around it; combine loops with fixed bounds"
                            if fixed else "fix the sizes with --define")

        def extent_of(w: Variant) -> tuple[int, int]:
            rw = _ranges(w, group, pos + 2).project_out(isl.dim_type.set, 0, pos + 2)
            lo, hi = (None, None) if rw.is_empty() else (_constant(rw.dim_min(0)), _constant(rw.dim_max(0)))
            if lo is None or hi is None:
                raise error
            return lo, hi
        # a #defined extent (or a constant local's) is taken at its value, as unroll does
        v = at_macro_value(v, extent_of, error, f"loop '{to_user(b)}' is combined")
        lo_b, hi_b = extent_of(v)
        lb_b = _global_min(v, group, pos + 2)
        pieces = list(v.pieces)
    extent = hi_b - lo_b + 1
    for k, pos in group:
        q = pieces[k]
        da, db = q.dims[pos], q.dims[pos + 2]
        if da.reversed or db.reversed:
            which = to_user(da.name if da.reversed else db.name)
            raise RecipeError(f"combine: loop '{which}' runs downwards (as written, or reversed), which a "
                              "combined loop cannot", hint=f"a step 'reverse: {{stmt: ..., loop: {which}}}' before "
                              "this one makes it run upwards, where the dependences allow that")
        if da.factor or db.factor:
            # the unroll's control loop steps by its factor and owns a hidden point loop: a
            # merged index would lose both (a wrong result, found by fuzzing)
            raise RecipeError(f"combine: loop '{a if da.factor else b}' is already unrolled",
                              hint="combine first, then unroll the combined loop")
        marked = [d for d in (da, db) if d.pragmas]
        if len(marked) > 1 or marked and any(collapsed(t) > 1 for t in marked[0].pragmas):
            # (probe 224 G9: the pragmas were dropped without a word)
            raise RecipeError(f"combine: loop '{to_user(marked[-1].name)}' carries '#pragma {marked[-1].pragmas[0]}', "
                              f"which the combined loop cannot"
                              + (", with the other loop's" if len(marked) > 1 else " (it collapses loops)"),
                              hint="give the pragma after this step, to the combined loop")
        merged = LoopDim(name, f"{extent}*({da.expr}) + ({db.expr}) - ({lb_b})",
                         pragmas=marked[0].pragmas if marked else ())
        pieces[k] = replace(q, dims=q.dims[:pos] + (merged,) + q.dims[pos + 3:])
    return v.evolve(pieces=normalize(pieces))


def _written(st, acc) -> str:
    """The reference as C writes it (`x[i % 5]`, not isl's `x[((i) mod 5)]`), with its line."""
    found = next((r for side in (st.body.lhs, st.body.rhs) for r in ir.walk(side)
                  if isinstance(r, ir.Ref) and r.ref == acc.ref), None)
    text = to_user(ir.to_c(found)) if found is not None else f"{acc.array}" + "".join(f"[{e}]" for e in acc.index)
    return f"{text} (line {st.line})" if st.line else text


def _check_together(v: Variant, group, a: str, b: str) -> None:
    """Index combining pays when the two indices address consecutive memory: in every reference
    that uses them, a's index sits in the dimension right before b's (Ma et al.)."""
    for k, pos in group:
        q = v.pieces[k]
        st = v.scop.statements[q.stmt]
        ia, ib = (re.sub(r"[^\w]", "", q.dims[p].expr) for p in (pos, pos + 2))
        if ia not in st.iterators or ib not in st.iterators:
            continue                       # transformed loops: nothing to check by name
        for acc in st.accesses:
            uses = lambda it: [d for d, e in enumerate(acc.index) if re.search(rf"\b{it}\b", e)]
            da, db = uses(ia), uses(ib)
            if not da and not db:
                continue
            if len(da) != 1 or len(db) != 1 or db[0] != da[0] + 1:
                raise RecipeError(f"combine: loops '{a}' and '{b}' do not appear together in "
                                  f"{_written(st, acc)}", hint="combine loops whose indices are adjacent "
                                  "dimensions, in order, in every reference")
