"""The message of a step that breaks a dependence of the original program: the witness, and
the way out that fits the step (a distribute's textual order, a reduction's clause); and of a
step that names a loop an earlier full unroll took away."""
from __future__ import annotations

import re

from looptx.errors import LegalityError, LooptxError
from looptx.frontend.names import to_user
from looptx.poly import deps as D
from looptx.poly import parallel as PL
from looptx.poly import privatize as PV
from looptx.poly.reductions import clause_pairs
from looptx.poly.variant import Variant
from looptx.recipe.schema import Step

GENERIC_HINT = "this order breaks a dependence of the original program; choose another order (or skew first)"


def refuse(v: Variant, deps: D.Deps, bad: list, st: Step | None) -> None:
    dep, rel = bad[0]
    what = D.describe_violation(deps, dep, rel)
    if st is not None and st.name == "distribute" and st.get("groups") is not None:
        hint = "the loop's copies run one after another in the order the groups are listed, and a " \
               "dependence goes back from a later copy to an earlier one; list the groups in another " \
               "order or keep the statements in one group (or shift first)"
    elif st is not None and st.name == "distribute":
        # its copies keep the textual order: there is no other order to choose
        hint = "the loop's copies run one after another in the statements' textual order, and a " \
               "dependence goes back from a later statement to an earlier one; keep them in one " \
               "loop (or shift first)"
    elif PL.plain_reduction(v, dep) is not None:
        op, var = PL.plain_reduction(v, dep), to_user(dep.array)
        # a max or min gives one value in any order (fmax) or nearly (a NaN), unlike a sum
        ctype = v.scop.array(dep.array).ctype.split()[-1] if any(a.name == dep.array for a in v.scop.arrays) else ""
        change = "" if op in ("max", "min") else \
            ", which changes its rounding" if ctype in ("float", "double") or not ctype else \
            " (integer sums come out the same unless they overflow, but only a step's clause allows it)"
        hint = f"the new order runs the updates of '{var}' (a {op} reduction) in another order" \
               f"{change}; an omp_for step with reduction: {{'{op}': [{var}]}} on the " \
               "loop, before this one, allows any order of them inside that loop; else choose another order"
        clause = next((d.name for _, _, d, omp in PL.omp_loops(v)
                       if dep.array in {x for _, x in clause_pairs(omp)}), None)
        if clause is not None:
            hint = f"the reduction clause on loop '{to_user(clause)}' lets its updates of '{var}' run in any " \
                   "order inside one run of that loop, and this order moves them across the loops around " \
                   "it; choose another order"
    else:
        hint = GENERIC_HINT
    hint += PV.hint(deps, dep, [d for d, _ in bad[1:]])
    raise LegalityError(what, hint=hint + ", or pass --unsafe",
                        file=st.file if st else None, line=st.line if st else None,
                        step=st.index if st else None, step_name=st.shown_name if st else None)


def unrolled_away(before: Variant, after: Variant) -> list[tuple[int, str, int]]:
    """(statement, loop, trip count) of each loop a step unrolled fully: it had a name
    before and is only a hidden (unrolled) loop after."""
    out = []
    for s in sorted({p.stmt for p in after.pieces}):
        was = {d.name for _, p in before.pieces_of(s) for d in p.loops if not d.hidden}
        now = {d.name for _, p in after.pieces_of(s) for d in p.loops if not d.hidden}
        gone = {d.name: d.trip for _, p in after.pieces_of(s) for d in p.loops if d.hidden}
        out += [(s, name, gone[name]) for name in sorted(was - now) if name in gone]
    return out


_NO_LOOP = re.compile(r"statement (\d+) has no loop named '(.+)'")
_NO_LEVEL = re.compile(r"statement (\d+) has no loop level (\d+)")


def unrolled_by(e: LooptxError, removed: dict[tuple[int, str], tuple[Step, int]]) -> Step | None:
    """The step whose full unroll took away the loop (or level) that `e` says is missing."""
    m = _NO_LOOP.fullmatch(e.what)
    if m:
        hit = removed.get((int(m.group(1)), m.group(2)))
        return hit[0] if hit else None
    m = _NO_LEVEL.fullmatch(e.what)
    return next((by for (s, _), (by, _) in removed.items() if m and s == int(m.group(1))), None)


def say_unrolled(e: LooptxError, removed: dict[tuple[int, str], tuple[Step, int]], v: Variant) -> None:
    """A step that names a loop an earlier step unrolled fully says which step took it away:
    "no loop named 'k'" alone sends the user looking for a typo."""
    m = _NO_LOOP.fullmatch(e.what)
    if m:
        stmt, name = int(m.group(1)), m.group(2)
        hit = removed.get((stmt, name))
        if hit is None and any(d.name == name and d.hidden for p in v.pieces if p.stmt == stmt
                               for d in p.loops):
            # a statement that came under the loop after it was unrolled (fuse)
            hit = next((r for (_, n), r in removed.items() if n == name), None)
        if hit:
            by, trip = hit
            e.what = f"statement {stmt} has no loop named '{name}' any more: step {by.index} " \
                     f"({by.name}) removed it (full unroll)"
            e.hint = f"order the steps so that this one comes before step {by.index}, or unroll " \
                     f"'{name}' by a factor below its trip count" + (f" ({trip})" if trip else "")
            if by.jam:
                # an Orio annotation's steps keep its order; its factors of one loop multiply
                e.hint = (f"the annotation unrolls '{name}' by {by['factor']} in all (its Unroll, UnrollJam, "
                          f"unrolljam and regtile factors of '{name}' multiply), which unrolls it fully"
                          + (f" at its trip count {trip}" if trip else "") + "; keep the product below it "
                          "(a constraint on the factors in a search)")
        return
    m = _NO_LEVEL.fullmatch(e.what)
    gone = [(n, by) for (s, n), (by, _) in removed.items() if m and s == int(m.group(1))]
    if gone:
        name, by = gone[0]
        e.what += f" (step {by.index} ({by.name}) removed loop '{name}' by a full unroll)"
        e.hint = f"order the steps so that this one comes before step {by.index}; " \
                 "levels count the loops that remain"
