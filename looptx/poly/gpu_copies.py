"""Which of a block's threads make a copy: all of them together (a shared copy), or each its
own elements (registers loaded outside the thread loops)."""
from __future__ import annotations

import islpy as isl

from looptx.frontend.names import to_user


def copy_thread_pins(c, K, counted_from, width: int, prefix: str) -> isl.Set:
    """The thread ids of a per-thread copy (registers loaded at a loop outside the thread
    loops): its schedule holds values at the positions before the loop it is made at and at the
    thread positions only, so a thread index that counts from a loop between them (the `i` of
    `kk, i, j` with j the thread loop) is counted again without it; it must come out the same
    on the kernel's statements, or the copy would go to other threads than the uses."""
    from looptx.poly.gpu import _dense, _offset, _pin
    pins = None
    for n, (Rp, reads, off) in enumerate(counted_from):
        p = K.thread[n]
        held = [q for q in reads if q < c.keep or q in K.thread or q in K.block or q < K.root]
        if held != reads:
            again, _, _ = _offset(Rp, width, held, p, prefix, exact=True)
            again, _ = _dense(again, Rp)
            if not again.intersect_domain(Rp).is_equal(off.intersect_domain(Rp)):
                raise c.promotion.error(f"{c.promotion.kind} of '{to_user(c.promotion.array or '')}' at loop "
                                        f"'{to_user(c.promotion.at)}': which thread holds an element depends on "
                                        "a loop inside it", hint="make the copy at a loop inside that one")
            off = again
        pin = _pin(off, f"lx_t{n}")
        pins = pin if pins is None else pins.intersect(pin)
    return pins


def cooperative(c, block: tuple[int, ...], width: int, prefix: str) -> isl.Set:
    """The block's threads share a copy: the innermost element dimension goes to threadIdx.x
    (coalesced), the next to y, ...; the outermost takes the remaining threads linearized.
    Elements count from the footprint's first one (given the loops outside), so thread x
    copies buffer element x, x + X, ... rather than a rotation of them."""
    from looptx.poly.gpu import _offset
    ts = [f"t{k}" for k in range(width)]
    elem = [c.keep + 1 + 2 * k for k in range(c.rank)]          # schedule positions of e0..e_{r-1}
    params = ", ".join(f"lx_t{j}" for j in range(len(block)))
    footprint = c.schedule.range()
    out = isl.Set(f"[{params}] -> {{ [{', '.join(ts)}] }}")
    offsets = {pos: _offset(footprint, width, list(range(pos)), pos, prefix)[0] for pos in elem}
    # innermost first; a dimension of one element given the others (`A_sh[8][16][1]` of
    # `A[k][i][b]` with b a block loop) takes no threads, which would leave all but one idle
    dims = [pos for pos in reversed(elem) if not offsets[pos].intersect_domain(footprint).range().is_singleton()]
    if not dims:
        # a scalar, or one element: thread 0 copies it
        return isl.Set(f"[{params}] -> {{ [{', '.join(ts)}] : "
                       f"{' and '.join(f'lx_t{j} = 0' for j in range(len(block))) or '1 = 1'} }}")
    for k, pos in enumerate(dims):
        if k >= len(block):
            break
        if k == len(dims) - 1 and len(block) > k + 1:
            # last element dimension: all remaining thread dimensions, linearized
            lin, stride = [], 1
            for j in range(k, len(block)):
                lin.append(f"{stride}*lx_t{j}")
                stride *= block[j]
            cond = f"(v - ({' + '.join(lin)})) mod {stride} = 0"
        else:
            cond = f"(v - lx_t{k}) mod {block[k]} = 0"
        off = offsets[pos]
        mine = isl.Set(f"[{params}] -> {{ [v] : {cond} }}").align_params(off.get_space())
        out = out.align_params(off.get_space()).intersect(off.intersect_range(mine).domain())
    return out
