"""Locals of a jammed loop body, one variable per copy (llama2.c's matmul:
`for (i) { float val = 0.0f; for (j) val += w[i*n + j] * x[j]; xout[i] = val; }` unrolled by 4
and jammed: each of the 4 interleaved iterations accumulates in a `val` of its own).

C gives each iteration of the loops around a local's declaration an object of its own; the code
keeps one variable, which a jam would share between the iterations it interleaves.  So each
copy of an unroll's point loop over an iterator the local is private to gets a variable of its
own (`val`, `val__i1`, `val__i2`, ...; codegen/unroll.py), and the lifetime check
(deps.lifetime_overlap) sees the copy number as a coordinate of the variable.  A local whose
statements are split into pieces keeps one variable (the check then refuses what overlaps)."""
from __future__ import annotations

import re

from looptx.poly.variant import LoopDim, Variant

__all__ = ["jam_renames", "copy_cells", "copy_name", "root_of"]

_COPY = re.compile(r"([A-Za-z_]\w*?)((?:__[A-Za-z_]\w*?\d+)+)")


def copy_name(name: str, loop: str, k: int) -> str:
    """Copy k of a jam of `loop` (`val__i1`); copy 0 keeps the name.  Each jam adds its loop's
    tag, so the copies of nested jams differ (`s__j2__i1`, `s__i1`, `s__j2`)."""
    return name if k == 0 else f"{name}__{loop}{k}"


def root_of(name: str, arrays) -> str:
    """The local a copy's variable stands for (`val__j2__i1` is `val`); a name of the region's
    own (`arrays`) is itself."""
    if name in arrays:
        return name
    m = _COPY.fullmatch(name)
    return m.group(1) if m and m.group(1) in arrays else name


def _jams(v: Variant):
    """(piece, point position, point dim, control dim) of each unroll that jams."""
    for q in v.pieces:
        for pos, d in enumerate(q.dims):
            if isinstance(d, LoopDim) and d.unroll and d.name.endswith("'"):
                ctrl = next((c for c in q.dims if isinstance(c, LoopDim) and c.name == d.name[:-1]
                             and c.factor), None)
                if ctrl is not None:
                    yield q, pos, d, ctrl


def jam_renames(v: Variant) -> dict[tuple[int, int], frozenset[str]]:
    """(statement, point loop position) -> the locals each copy of that loop has its own of."""
    scop = v.scop
    split = {q.stmt for q in v.pieces if sum(p.stmt == q.stmt for p in v.pieces) > 1}
    out: dict[tuple[int, int], set[str]] = {}
    # a local whose statements are copied only as whole iterations, one after another (an
    # unroll of the loop right around them), needs no copies: only a jam interleaves them
    interleaved: set[str] = set()
    for q, pos, d, ctrl in _jams(v):
        s = scop.statements[q.stmt]
        inner = any(isinstance(x, LoopDim) for x in q.dims[q.dims.index(ctrl) + 1:pos])
        for a in s.accesses:
            arr = scop.array(a.array)
            if arr.private_depth and d.expr.strip() in s.iterators[:arr.private_depth]:
                out.setdefault((q.stmt, pos), set()).add(a.array)
                if inner:           # the copies sit inside a loop of the body: a jam
                    interleaved.add(a.array)
    # every statement of a local must be in one piece, or its pieces could disagree on names
    users = {}
    for s in scop.statements:
        for a in s.accesses:
            users.setdefault(a.array, set()).add(s.id)
    return {k: frozenset(n for n in names if n in interleaved and not users.get(n, set()) & split)
            for k, names in out.items()}


def copy_cells(v: Variant) -> dict[str, dict[int, list[str]]]:
    """local -> statement -> the copy numbers (isl expressions over its iterators) that name
    the variable its instances use; a statement not jammed uses copy 0."""
    renames = jam_renames(v)
    out: dict[str, dict[int, list[str]]] = {}
    for q, pos, d, ctrl in _jams(v):
        for name in renames.get((q.stmt, pos), ()):
            out.setdefault(name, {}).setdefault(q.stmt, []).append(f"({d.expr}) - ({ctrl.expr})")
    return out
