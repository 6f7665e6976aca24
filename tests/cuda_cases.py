"""CUDA recipes for any kernel of the corpus, generated from its parallel loops."""
from __future__ import annotations

import re

from looptx.errors import LooptxError
from looptx.pipeline import variants_for
from looptx.poly import deps as D
from looptx.recipe.schema import load_yaml


def _parallel(scop):
    info = D.loops(D.compute_deps(scop))
    return {(lp.name, lp.statements): lp.parallel for lp in info}


def _plan(scop):
    """For each group of statements: (stmt, [outer parallel loop, inner parallel loop or None],
    innermost sequential loop or None)."""
    par = _parallel(scop)
    covered, out = set(), []
    for s in scop.statements:
        if s.id in covered:
            continue
        loops = []
        for k, name in enumerate(s.iterators):
            stmts = next((st for (n, st) in par if n == name and s.id in st and
                          len([x for x in st]) and _depth_ok(scop, st, s, k)), None)
            if stmts is not None and par[(name, stmts)]:
                loops.append((name, stmts))
        if not loops:
            continue
        outer, group = loops[0]
        inner = next((n for n, st in loops[1:] if set(st) == set(group)), None)
        if any(scop.statements[t].depth <= s.iterators.index(outer) for t in group):
            continue
        seq = [n for n in s.iterators if n not in (outer, inner)]
        after = s.iterators.index(inner or outer)
        seq = [n for n in seq if s.iterators.index(n) > after]
        out.append((s.id, outer, inner, seq[-1] if seq else None,
                    next((a.array for a in s.accesses if a.kind == "write"), None)))
        covered |= set(group)
    return out


def _depth_ok(scop, stmts, s, k):
    return all(scop.statements[t].depth > k and scop.statements[t].iterators[k] == s.iterators[k] for t in stmts)


def recipes(program) -> list[list[str]]:
    scop = program.scops[0]
    plan = _plan(scop)
    one, two, three = [], [], []
    for stmt, outer, inner, seq, out in plan:
        one += [f"tile: {{stmt: {stmt}, loop: {outer}, size: 32, control: {outer}B}}",
                f"cuda: {{stmt: {stmt}, block: [{outer}B], thread: [{outer}]}}"]
        if inner:
            body = [f"tile: {{stmt: {stmt}, loop: {outer}, size: 8, control: {outer}B}}",
                    f"tile: {{stmt: {stmt}, loop: {inner}, size: 16, control: {inner}B}}",
                    f"permute: {{stmt: {stmt}, order: [{outer}B, {inner}B, {outer}, {inner}]}}",
                    f"cuda: {{stmt: {stmt}, block: [{inner}B, {outer}B], thread: [{inner}, {outer}]}}"]
        else:
            body = [f"tile: {{stmt: {stmt}, loop: {outer}, size: 64, control: {outer}B}}",
                    f"cuda: {{stmt: {stmt}, block: [{outer}B], thread: [{outer}]}}"]
        two += body + ([f"unroll: {{stmt: {stmt}, loop: {seq}, factor: 2}}"] if seq else [])
        three += body + ([f"registers: {{stmt: {stmt}, array: {out}, at: {seq}}}",
                          f"unroll: {{stmt: {stmt}, loop: {seq}, factor: 3}}"] if seq else []) + \
            [f"unroll_to_depth: {{stmt: {stmt}, depth: 1}}"]
    candidates = [one, two, three] if plan else []
    good = [r for r in candidates if r and accepted(program, r)]
    # fewer than three mappings: one-thread kernels (no cuda step) fill the set
    for fallback in ([], [f"unroll: {{stmt: 0, loop: {scop.statements[0].iterators[-1]}, factor: 2}}"]
                     if scop.statements[0].iterators else [], ["known: ['1 >= 0']"]):
        if len(good) >= 3:
            break
        if not fallback or accepted(program, fallback):
            good.append(fallback)
    return good[:3]


def accepted(program, steps) -> bool:
    text = "steps:\n" + "".join(f"  - {s}\n" for s in steps) if steps else "steps: []\n"
    try:
        variants_for(program, load_yaml(text, file="cuda-case.yaml"))
        return True
    except LooptxError:
        return False


def yaml_text(steps) -> str:
    return "steps:\n" + "".join(f"  - {s}\n" for s in steps) if steps else "steps: []\n"


def kernel_names(cu_text: str) -> list[str]:
    return re.findall(r"__global__ void __launch_bounds__\(\d+\) (\w+)\(", cu_text)
