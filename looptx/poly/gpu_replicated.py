"""Statements of a kernel that lie outside some of its mapped loops: each runs in every block
or thread it is outside of (poly/gpu.kernels)."""
from __future__ import annotations

from looptx.frontend.names import to_user
from looptx.poly.variant import LoopDim, Variant


def _inside(v: Variant, q, k0: int, name: str, p: int) -> bool:
    d = q.dims[p] if p < len(q.dims) else None
    return isinstance(d, LoopDim) and d.name == name and q.prefix(p) == v.pieces[k0].prefix(p)


def replicated(v: Variant, m, pieces, k0, blocks, threads, outer_loop) -> dict[int, frozenset[int]]:
    """The kernel's pieces that lie outside some mapped loops, each with those loops'
    positions.  Such a statement runs in every block and thread it is outside of, so it may
    write only the region's own locals, which each thread has a copy of; its other
    dependences are checked as crossing threads (`check`)."""
    scop = v.scop
    out: dict[int, frozenset[int]] = {}
    for k in pieces:
        q = v.pieces[k]
        missing = [(name, p) for name, p in zip(m.block + m.thread, blocks + threads)
                   if not _inside(v, q, k0, name, p)]
        if not missing:
            continue
        name = missing[0][0]
        kind = "thread" if name in m.thread else "block"
        shared = sorted({a.array for a in scop.statements[q.stmt].accesses
                         if a.kind == "write" and not scop.array(a.array).local})
        p = dict(missing)[name]
        sibling = q.dims[p] if p < len(q.dims) and isinstance(q.dims[p], LoopDim) else None
        if (q.stmt == m.stmt or shared) and sibling is not None and q.stmt != m.stmt:
            # CUDA-CHiLL's kernels are one loop nest too: two phases with a barrier between are
            # two kernels
            raise m.error(f"statement {q.stmt} runs in its own loop '{to_user(sibling.name)}' beside the {kind} "
                          f"loop '{name}' of statement {m.stmt}, inside the same kernel (loop '{outer_loop}'): "
                          f"looptx maps one {kind} loop nest per kernel, not phases with a barrier between",
                          hint=f"distribute statement {q.stmt} out of loop '{outer_loop}' first, for a kernel "
                               f"of its own, where that is legal (else keep loop '{outer_loop}' on the host and "
                               "map loops inside it)")
        if q.stmt == m.stmt and sibling is not None and sibling.name.rstrip("'") == name.rstrip("'"):
            raise m.error(f"statement {q.stmt} runs in two {kind} loops '{to_user(name)}' inside loop "
                          f"'{outer_loop}' (a split or peel made them): looptx maps one {kind} loop nest per kernel",
                          hint="split or peel a loop outside the mapped ones instead (each part is then a "
                               "kernel of its own)")
        if q.stmt == m.stmt or shared:
            why = (f": it writes '{to_user(shared[0])}', which every {kind} would write"
                   if shared and q.stmt != m.stmt else "")
            # a scalar set once per iteration of the loop (`s = alpha * x[i]`) is each
            # iteration's own where the privatize step allows it: every thread then has a copy
            scalar = next((a for a in shared if scop.array(a).rank == 0), None) if q.stmt != m.stmt else None
            first = f"privatize {{var: {to_user(scalar)}, at: {to_user(outer_loop)}}} first, or " if scalar else ""
            raise m.error(f"statement {q.stmt} is inside the kernel of statement {m.stmt} (loop "
                          f"'{outer_loop}') but not inside its {kind} loop '{name}'{why}",
                          hint=f"{first}map loops inside '{outer_loop}' (a time loop stays on the host, "
                               f"one launch per iteration), or distribute statement {q.stmt} out of "
                               f"loop '{outer_loop}' first where that is legal")
        out[k] = frozenset(p for _, p in missing)
    stmts = {v.pieces[k].stmt for k in out}
    for k in pieces:
        if k not in out and v.pieces[k].stmt in stmts:
            raise m.error(f"statement {v.pieces[k].stmt} is partly inside and partly outside the mapped "
                          f"loops of the kernel of statement {m.stmt}",
                          hint=f"distribute statement {v.pieces[k].stmt} out of loop '{outer_loop}' first")
    return out
