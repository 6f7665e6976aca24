"""A step's legality from the variant it started from: only the dependences that touch the
statements it changed need checking, where every dependence ran forward before it."""
from __future__ import annotations

import islpy as isl

from looptx.poly import deps as D


def mark_respected(v) -> None:
    """Note that every dependence runs forward in v's schedule (no reordered update allowed)."""
    v._cache["respects_all"] = True


def is_respected(v) -> bool:
    return bool(v._cache.get("respects_all"))


def respects_since(v, deps: D.Deps, since) -> bool:
    """Whether every dependence runs forward in v's schedule, known from `since`, in whose
    schedule each does, and the dependences that touch a statement whose pieces the step
    changed: two statements the step left alone keep their order (their schedules only gain
    the same padding).  A region of eighty nests with a tile step each rechecked every
    dependence at every step (72 s; probe 228 G4).  Marks v where it answers True."""
    if since is None or since.scop is not v.scop or not is_respected(since) \
            or not v.context.is_subset(since.context):
        return False
    changed = {s.id for s in v.scop.statements
               if [p for p in v.pieces if p.stmt == s.id] != [p for p in since.pieces if p.stmt == s.id]}
    touching = [d for d in deps.items if d.source in changed or d.sink in changed]
    involved = {d.source for d in touching} | {d.sink for d in touching}
    rel = isl.UnionMap.empty(deps.context.get_space())
    for d in touching:
        rel = rel.union(isl.UnionMap.from_map(d.relation))
    theta = None
    maps = [v.piece_map(p, v.width) for p in v.pieces if p.stmt in involved]
    if maps:
        theta = isl.UnionMap.from_map(maps[0])
        for m in maps[1:]:
            theta = theta.union(isl.UnionMap.from_map(m))
    if theta is not None and not D.respects(rel.intersect_params(v.context), theta.intersect_params(v.context)):
        return False
    mark_respected(v)
    return True
