"""The one-thread kernels of statements no cuda step maps: sibling groups under the same host
loops run in one launch."""
from __future__ import annotations

from looptx.poly.variant import Variant


def siblings_merged(v: Variant, serial, covered: set[int]) -> list[tuple[int, list[int], int | None]]:
    """(root, pieces, first sibling position or None) per one-thread kernel.  Groups that are
    siblings under the same host loops, with nothing else between them, run in one launch (one
    thread runs them in schedule order, as the launches would); other groups stay as they are."""
    def level(root: int) -> int:
        # the schedule position that orders the group among its siblings
        return root - 1 if root % 2 == 1 else root
    # who sits at each sibling position: a serial group alone there, or anything else
    owner: dict[tuple, set] = {}
    for n, ((root, _, _), pieces) in enumerate(serial):
        for k in pieces:
            owner.setdefault(v.pieces[k].prefix(level(root) + 1), set()).add(n)
        for k in pieces:
            for pos in range(0, level(root), 2):
                owner.setdefault(v.pieces[k].prefix(pos + 1), set()).add(None)
    for k in covered:
        p = v.pieces[k]
        for pos in range(0, len(p.dims), 2):
            owner.setdefault(p.prefix(pos + 1), set()).add(None)
    runs: list[list[int]] = []
    for n, ((root, _, _), pieces) in enumerate(serial):
        lv = level(root)
        here = v.pieces[pieces[0]].prefix(lv + 1)
        alone = owner.get(here) == {n} and all(v.pieces[k].prefix(lv + 1) == here for k in pieces)
        if alone and runs and runs[-1][-1] == n - 1 and _next_to(v, serial, owner, runs[-1][-1], n, level):
            runs[-1].append(n)
        else:
            # a trailing None closes the run: a group that shares its position takes no neighbour
            runs.append([n] if alone else [n, None])
    out = []
    for run in runs:
        run = [n for n in run if n is not None]
        (root, _, _), pieces = serial[run[0]]
        if len(run) == 1:
            out.append((root, pieces, None))
            continue
        lv = level(root)
        pieces = sorted(k for n in run for k in serial[n][1])
        out.append((lv, pieces, min(v.pieces[k].dims[lv] for k in pieces)))
    return out


def _next_to(v: Variant, serial, owner: dict, a: int, b: int, level) -> bool:
    """Whether serial groups a and b are adjacent siblings: same level and host loops, and no
    sibling position between theirs is taken."""
    (ra, _, _), pa = serial[a]
    (rb, _, _), pb = serial[b]
    la, lb = level(ra), level(rb)
    if la != lb:
        return False
    ka, kb = v.pieces[pa[0]].prefix(la + 1), v.pieces[pb[0]].prefix(lb + 1)
    if ka[:la] != kb[:lb]:
        return False
    lo, hi = sorted((ka[la], kb[lb]))
    return not any(key[:la] == ka[:la] and lo < key[la] < hi for key in owner if len(key) == la + 1)
