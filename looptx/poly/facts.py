"""Facts about the sizes as a note says them: without those the others imply (`x_min > 0`
makes `x_min >= 0` go), each kept as written."""
from __future__ import annotations

import re

import islpy as isl


def without_implied(facts) -> list:
    """`facts` (isl constraint texts, or (key, text) pairs) less each one that the ones kept
    after it imply; the order is kept."""
    items = list(facts)
    texts = [f[1] if isinstance(f, tuple) else f for f in items]
    names = sorted({w for t in texts for w in re.findall(r"[A-Za-z_]\w*", t)} - {"and", "or", "not", "mod", "floor"})
    prefix = f"[{', '.join(names)}] -> "
    try:
        sets = [isl.Set(f"{prefix}{{ : {t} }}") for t in texts]
    except isl.Error:
        return items
    keep = list(range(len(items)))
    for k in range(len(items)):
        others = [j for j in keep if j != k]
        if not others:
            break
        rest = sets[others[0]]
        for j in others[1:]:
            rest = rest.intersect(sets[j])
        if rest.is_subset(sets[k]):
            keep.remove(k)
    return [items[k] for k in keep]


FACT_OPERATIONS = 5_000_000


def nonneg_fact(scop, sid: int, cond: str, where: str | None = None, bounded: bool = False) -> str | None:
    """For `e >= 0` over iterators (Devito's `(time + 1)%(3)` with time from time_m), or another
    condition over them: the condition on the sizes under which it holds in the statement's domain
    (`time_m >= 0`), as isl text; '' when the domain implies it (`j % 2` of a loop from 2);
    None when there is none or it needs a disjunction (or, unless `bounded`, it pins the sizes to
    a few values: a narrow counter's range may, `j = i` of an unsigned char j holds for n <= 256)."""
    s = scop.statements[sid]
    # (any condition: a narrow counter stepping by 3 owes `not (i < n) or i + 3*ceil((n - i)/3)
    # <= 255` where C first tests it, which holds for n <= 255)
    failing = f"{cond[:-5]} < 0" if cond.endswith(" >= 0") else f"not ({cond})"
    from looptx.poly.budget import isl_budget
    from looptx.poly.obligations import evaluated_set
    try:
        # isl-generated code (`(c2 - c3) / 2` under `(c2 + 1) % 4` guards) makes domains whose
        # minimum isl may search for minutes: past the budget there is no fact
        with isl_budget(FACT_OPERATIONS):
            dom = evaluated_set(scop, sid, where)
            # the sizes under which some instance has e < 0 (a projection: isl's dim_min of
            # such a domain may search for minutes)
            bad = dom.intersect(isl.Set(f"{scop.prefix}{{ {s.tuple_text()} : {failing} }}")).params()
            if scop.context.intersect(bad).is_empty():
                return ""
            ok = bad.complement().intersect(dom.params()).coalesce()
            # (less what evaluating it at all says of the sizes: `lo >= 0` for an unsigned
            # counter from lo below hi, not `lo >= 0 and hi > lo`)
            shown = ok.gist(dom.params()).coalesce()
    except isl.Error:
        return None
    if ok.is_empty() or ok.n_basic_set() != 1:
        return None
    if not bounded and ok.move_dims(isl.dim_type.set, 0, isl.dim_type.param, 0, ok.dim(isl.dim_type.param)).is_bounded():
        # the sizes pinned to a few values (`-i / 2` holds C's rounding only at n = 1): no model
        # of the region, which is refused rather than kept as written for every other size
        return None
    return condition_text(shown if shown.n_basic_set() == 1 and not shown.plain_is_universe() else ok)


def condition_text(params: isl.Set) -> str | None:
    """The isl condition of a set of sizes (`[n] -> { : n <= 5 }` is `n <= 5`), None where it
    has none to show."""
    text = str(params)
    inner = text[text.index("{") + 1:text.rindex("}")].strip()
    return inner[1:].strip() if inner.startswith(":") else None
