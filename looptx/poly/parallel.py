"""Loops that carry a pragma (CHiLL's `pragma` and `omp_for`): the mark on the loop, and the
check that a loop run as `omp parallel for` carries no dependence.

A pragma belongs to a named loop (`LoopDim.pragmas`) and moves with it through later steps;
the check runs after every step, as the GPU mapping's does, so a later permute or fuse that
gives the loop a dependence is refused too."""
from __future__ import annotations

from dataclasses import replace

import islpy as isl

from looptx.errors import LegalityError
from looptx.frontend.names import to_user
from looptx.poly import deps as D
from looptx.poly.privatize import hint as privatize_hint
from looptx.poly.schedule import resolve_name, sharing
from looptx.poly.variant import LoopDim, Variant

OMP_FOR = "omp parallel for"


def add_pragma(v: Variant, stmt: int, loop, text: str) -> Variant:
    """`#pragma text` before loop `loop` of `stmt` (every statement inside it shares it)."""
    name = resolve_name(v, stmt, loop)
    pieces = list(v.pieces)
    for k, pos in sharing(v, stmt, name):
        q = pieces[k]
        d = q.dims[pos]
        if text not in d.pragmas:
            pieces[k] = replace(q, dims=q.dims[:pos] + (replace(d, pragmas=d.pragmas + (text,)),)
                                + q.dims[pos + 1:])
    return v.evolve(pieces=tuple(pieces))


def scheduled_deps(v: Variant, pieces, deps: D.Deps, width: int):
    """(dependence, its pairs as schedule points) for every dependence between two instances
    of `pieces` (piece indices): what a loop over them must not run at once."""
    stmts = {v.pieces[k].stmt for k in pieces}
    inside = isl.UnionMap.empty(v.schedule_map(width).get_space())
    for k in pieces:
        inside = inside.union(isl.UnionMap.from_map(v.piece_map(v.pieces[k], width)))
    for dep in deps.items:
        if dep.source not in stmts or dep.sink not in stmts:
            continue
        rel = isl.UnionMap.from_map(dep.relation).apply_domain(inside).apply_range(inside)
        if not rel.is_empty():
            yield dep, isl.Map.from_union_map(rel).intersect_params(v.context)


def instances(v: Variant, dep: D.Dep, pairs: isl.Map) -> isl.Map:
    """Schedule-point pairs of `dep` back as the statement instances they are."""
    back = v.schedule_map().reverse()
    rel = isl.UnionMap.from_map(pairs).apply_domain(back).apply_range(back)
    return isl.Map.from_union_map(rel.intersect(isl.UnionMap.from_map(dep.relation)))


def check_parallel(v: Variant, deps: D.Deps) -> None:
    """Every loop marked `omp parallel for` runs its iterations in any order and at once: no
    dependence between two of its iterations (within one iteration of the loops around it)."""
    width = v.width
    seen = set()
    for p in v.pieces:
        for c, d in enumerate(p.dims):
            if not (isinstance(d, LoopDim) and OMP_FOR in d.pragmas) or (c, d.name, p.prefix(c)) in seen:
                continue
            seen.add((c, d.name, p.prefix(c)))
            group = [k for k, _ in sharing(v, p.stmt, d.name)]
            for dep, t in scheduled_deps(v, group, deps, width):
                for q in range(c):
                    t = t.equate(isl.dim_type.in_, q, isl.dim_type.out, q)
                across = t.subtract(t.equate(isl.dim_type.in_, c, isl.dim_type.out, c))
                if across.is_empty():
                    continue
                raise LegalityError(
                    D.describe_violation(deps, dep, instances(v, dep, across), f"'omp parallel for' "
                                         f"on loop '{to_user(d.name)}' runs them at once"),
                    hint="put omp_for on a loop that carries no dependence (see looptx deps)"
                         + privatize_hint(deps, dep) + ", or pass --unsafe")
