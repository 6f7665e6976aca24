"""Shared-memory bank conflicts of a kernel's accesses to its `shared` buffers, said in a note
with the padding that removes them.

CUDA-CHiLL leaves padding to the script (copy_to_shared's negative alignment), and so does
looptx: a buffer read down a column by neighbouring threads (`A_sh[tx][k]` with rows of 64
floats) serialises a warp's access 32 ways, which the user cannot see in the .cu without
working out the addresses.  Shared memory has 32 banks of 4 bytes; the lanes of a warp that
reach different words of one bank wait for each other."""
from __future__ import annotations

from math import ceil

import islpy as isl

from looptx.errors import note_once
from looptx.poly.budget import isl_budget
from looptx.frontend.names import to_user

BANKS = 32
WARP = 32
NOTE_OPERATIONS = 2_000_000


def _along(width: int, p: int, prefix: str, at_p: str) -> isl.Map:
    """Schedule -> schedule: the dimensions before p the same, p related by `at_p` (in t, u),
    the constant positions after it the same; the loops after it free."""
    t = [f"t{k}" for k in range(width)]
    u = [f"u{k}" for k in range(width)]
    same = [f"u{k} = t{k}" for k in range(width) if k < p or (k > p and k % 2 == 0)]
    return isl.Map(f"{prefix}{{ [{', '.join(t)}] -> [{', '.join(u)}] : {' and '.join(same + [at_p])} }}")


def _delta(P: isl.Map, T: isl.Map, width: int, p: int, prefix: str) -> tuple[int, ...] | None:
    """The buffer element's change between the instances that neighbouring threads run at once,
    where it is one constant vector; None where it varies or the loop has one value.
    Neighbours: thread loop p one step on (a counted tile's thread loop steps by its register
    tile), each loop inside it at the same distance from its own lower bound, which is what
    the kernel's loops count from in each thread."""
    from looptx.poly.gpu import _offset
    R = P.range()
    later = _along(width, p, prefix, f"u{p} > t{p}").intersect_domain(R).intersect_range(R)
    gaps = later.deltas()
    if gaps.is_empty():
        return None
    gap = gaps.project_out(isl.dim_type.param, 0, gaps.dim(isl.dim_type.param)).lexmin()
    if not gap.is_singleton():
        return None
    step = gap.sample_point().get_coordinate_val(isl.dim_type.set, p).to_python()
    near = _along(width, p, prefix, f"u{p} = t{p} + {step}")
    for q in range(p + 2, width, 2):
        off = _offset(R, width, list(range(q)), q, prefix, exact=True)[0]
        near = near.intersect(off.apply_range(off.reverse()))
    near = near.intersect_domain(R).intersect_range(R)
    moved = T.reverse().apply_range(P).apply_range(near).apply_range(P.reverse()).apply_range(T)
    d = moved.deltas()
    if d.is_empty():
        return None
    d = d.project_out(isl.dim_type.param, 0, d.dim(isl.dim_type.param))
    if not d.is_singleton():
        return None
    point = d.sample_point()
    return tuple(point.get_coordinate_val(isl.dim_type.set, k).to_python()
                 for k in range(d.dim(isl.dim_type.set)))


def _linear(delta: tuple[int, ...], sizes: tuple[int, ...], pad: int) -> int:
    rows = list(sizes[:-1]) + [sizes[-1] + pad] if sizes else []
    stride, out = 1, 0
    for d, n in zip(reversed(delta), reversed(rows)):
        out += d * stride
        stride *= n
    return out


def ways(strides: list[tuple[int, int]], itemsize: int) -> int:
    """How many times slower than conflict-free a warp's access is: `strides` holds (element
    stride, threads) per thread axis, x first, the warp's lanes taking x fastest."""
    lanes, shape = [], []
    left = WARP
    for s, n in strides:
        shape.append((s, min(n, left)))
        left = max(1, ceil(left / max(n, 1)))
    for lane in range(WARP):
        rest, addr = lane, 0
        for s, n in shape:
            addr += (rest % n) * s
            rest //= n
        if rest == 0:                    # else the block has fewer threads than a warp
            lanes.append(addr)
    # a warp's 8-byte accesses go in two halves, 16-byte ones in quarters
    group = WARP * 4 // itemsize if itemsize >= 4 else WARP
    taken = ideal = 0
    for g in range(0, len(lanes), group):
        words: dict[int, set[int]] = {}
        for a in lanes[g:g + group]:
            first, last = a * itemsize // 4, (a * itemsize + itemsize - 1) // 4
            for w in range(first, last + 1):
                words.setdefault(w % BANKS, set()).add(w)
        taken += max(len(s) for s in words.values())
        ideal += ceil(sum(len(s) for s in words.values()) / BANKS)
    return taken // max(1, ideal)


def note_conflicts(plan, kernels, thread_axes) -> None:
    """One note per shared buffer whose accesses in a kernel's statements conflict at least
    2 ways.  `thread_axes(K)`: the axis (0 = x) of each of K's thread loops."""
    from looptx.runtime.harness import ctype_info
    v = plan.variant
    buffers = {b.name: b for b in plan.buffers if b.kind == "shared"}
    owners = {}
    for c in plan.copies:
        buf = c.dst_array if c.direction == "in" else c.src_array
        if buf in buffers:
            owners.setdefault(buf, c.promotion)
    said = set()
    for K in kernels:
        if not K.mapped or not K.thread:
            continue
        axes = thread_axes(K)
        order = sorted(range(len(K.thread)), key=lambda n: axes[n])
        for (k, ref), (buf, T) in plan.redirect.items():
            if buf not in buffers or buf in said or k not in K.pieces or buf not in owners:
                continue
            b = buffers[buf]
            try:
                # a note is not worth more than a moment of isl's time
                with isl_budget(NOTE_OPERATIONS):
                    P = v.piece_map(v.pieces[k], plan.width)
                    deltas = [_delta(P, T, plan.width, K.thread[n], v.scop.prefix) for n in order]
            except isl.Error:
                continue
            sizes = [K.block_size[n] for n in order]
            usable = []
            for d, n in zip(deltas, sizes):
                if d is None and n > 1:
                    break
                usable.append((d, n))
            if not usable or usable[0][0] is None:
                continue
            item = ctype_info(b.ctype)[0].itemsize
            at = lambda pad: ways([(_linear(d, b.sizes, pad) if d else 0, n) for d, n in usable], item)
            now = at(b.pad)
            if now < 2:
                continue
            fix = next((p for p in range(1, 33) if at(p) == 1), None)
            pr = owners[buf]
            apart = _linear(usable[0][0], b.sizes, b.pad)
            how = "; padding does not change it: each thread's elements lie along a row" if now == at(b.pad + 1) else ""
            free = _free_layout(usable, b, item, pr)
            if fix is None and free is not None:
                cur = list(pr.layout) or list(range(len(b.sizes)))
                how = f"; `layout: {[cur[i] for i in free]}` on its shared step (the buffer's subscripts in that " \
                      "order of the array's) removes it"
            elif fix is not None:
                # copy_to_shared's negative alignment is a pad of 1 (recipe/chill.py)
                chill = "copy_to_shared: a negative alignment; " if fix == 1 else ""
                how = f"; `pad: {fix}` on its shared step ({chill}rows of {b.sizes[-1] + fix}) removes it"
            note_once(pr.file or v.scop.filename, pr.line or v.scop.region_span[0],
                      f"in kernel {K.name}, neighbouring threads reach '{to_user(buf)}' {abs(apart)} element{'s' if abs(apart) != 1 else ''} "
                      f"apart: a {now}-way shared-memory bank conflict on each access{how}")
            said.add(buf)


def _free_layout(usable, b, item: int, pr) -> list[int] | None:
    """The order of a buffer's dimensions, nearest its own, in which the threads' accesses are
    conflict-free with the step's own padding (its `pad`, its `align` of the new rows); None
    where none is."""
    from itertools import permutations
    from looptx.poly.promote import row_padding
    if not 1 < len(b.sizes) <= 6 or b.lead:
        return None
    for perm in sorted(permutations(range(len(b.sizes))),
                       key=lambda p: sum(abs(i - k) for k, i in enumerate(p))):
        sizes = tuple(b.sizes[i] for i in perm)
        pad = pr.pad + row_padding(sizes[-1] + pr.pad, pr.align)
        if ways([(_linear(tuple(d[i] for i in perm), sizes, pad) if d else 0, n) for d, n in usable], item) == 1:
            return list(perm)
    return None
