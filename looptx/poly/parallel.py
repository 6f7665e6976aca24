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


def check_parallel(v: Variant, deps: D.Deps) -> None:
    """Every loop marked `omp parallel for` runs its iterations in any order and at once: no
    dependence between two of its iterations (within one iteration of the loops around it)."""
    width = v.width
    seen = set()
    for k0, p in enumerate(v.pieces):
        for c, d in enumerate(p.dims):
            if not (isinstance(d, LoopDim) and OMP_FOR in d.pragmas) or (c, d.name, p.prefix(c)) in seen:
                continue
            seen.add((c, d.name, p.prefix(c)))
            group = sharing(v, p.stmt, d.name)
            stmts = {v.pieces[k].stmt for k, _ in group}
            inside = isl.UnionMap.empty(v.schedule_map(width).get_space())
            for k, _ in group:
                inside = inside.union(isl.UnionMap.from_map(v.piece_map(v.pieces[k], width)))
            for dep in deps.items:
                if dep.source not in stmts or dep.sink not in stmts:
                    continue
                rel = isl.UnionMap.from_map(dep.relation).apply_domain(inside).apply_range(inside)
                if rel.is_empty():
                    continue
                t = isl.Map.from_union_map(rel).intersect_params(v.context)
                for q in range(c):
                    t = t.equate(isl.dim_type.in_, q, isl.dim_type.out, q)
                across = t.subtract(t.equate(isl.dim_type.in_, c, isl.dim_type.out, c))
                if across.is_empty():
                    continue
                sched = v.schedule_map(width)
                back = isl.UnionMap.from_map(across).apply_domain(sched.reverse()).apply_range(sched.reverse())
                inst = isl.Map.from_union_map(back.intersect(isl.UnionMap.from_map(dep.relation)))
                raise LegalityError(
                    D.describe_violation(deps, dep, inst, f"'omp parallel for' on loop "
                                         f"'{to_user(d.name)}' runs them at once"),
                    hint="put omp_for on a loop that carries no dependence (see looptx deps)"
                         + privatize_hint(deps, dep) + ", or pass --unsafe")
