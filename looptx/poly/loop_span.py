"""How many iterations a loop of the generated code can run, asked of isl.

isl may print an unrolled point loop over a range wider than its strip, with the rest of
its bounds as a guard inside (a tile's unrolled row loop under two more unrolls, its
control loop folded away: `for (c7 = N - 12; c7 < N; c7++) if (c7 >= N - 1 - (N - 1) % 16)`).
Copies counted from the loop's start would then miss the iterations past the factor."""
from __future__ import annotations

import re
from functools import lru_cache

import islpy as isl

from looptx.poly.variant import Variant

_WORDS = {"floor", "mod", "and", "or", "min", "max"}


def runs_at_most(v: Variant, lo: str, hi: str, most: int, where: tuple = ()) -> bool:
    """Whether `hi - lo <= most` wherever `where` holds (isl texts over the code's loop
    variables and the sizes).  False where isl cannot tell."""
    return _never(f"({hi}) - ({lo}) > {most}", tuple(where), tuple(v.scop.params), str(v.context))


def whole_strips(v: Variant, lo: str, hi: str, step: int, factor: int, where: tuple = ()) -> bool:
    """Whether the loop from `lo` to `hi` by `step` runs a multiple of `factor` iterations
    wherever `where` holds: isl may print an unrolled loop of whole strips in pieces (by the
    bounds of a loop inside it), each piece then not whole."""
    return _never(f"({hi}) >= ({lo}) and (floor((({hi}) - ({lo}))/{step}) + 1) mod {factor} != 0",
                  tuple(where), tuple(v.scop.params), str(v.context))


@lru_cache(maxsize=4096)
def _never(wrong: str, where: tuple, params: tuple, context: str) -> bool:
    """Whether no values of the names in `wrong` and `where` meet both (False where isl cannot tell)."""
    names = sorted({w for t in (wrong, *where) for w in re.findall(r"[A-Za-z_]\w*", t)}
                   - _WORDS - set(params))
    # a condition isl cannot read costs the facts it gives: fewer facts only make a proof harder
    for known in (where, [c for c in where if " or " not in c], []):
        cond = " and ".join([f"({wrong})"] + [f"({c})" for c in known])
        try:
            wide = isl.Set(f"[{', '.join(params)}] -> {{ [{', '.join(names)}] : {cond} }}")
            wide = wide.intersect_params(isl.Set(context).align_params(wide.get_space()))
            return wide.is_empty()
        except isl.Error:
            continue
    return False
