"""CHiLL commands on a statement set, `permute([0,1],pi)`, `reverse([0,1],l)`, `skew([0,1],l,c)`,
`scale([0,1],l,k)`: one step for each listed statement, in list order.  A loop is shared
structure, so the step on one statement already moves every statement inside the loop it acts
on; a later listed statement in that loop is passed over, where CHiLL too transforms each listed
statement once.  Which statements share the loop is known only once the steps before have been
applied, so the decision is made then: recipe/apply.py passes over a step whose `listed_after`
statements hold its loop (moved_along), with a note; the step, and the header that shows it,
stay as written, so the header given again as a recipe does the same."""
from __future__ import annotations

from looptx.errors import LooptxError
from looptx.poly import schedule as S
from looptx.recipe.schema import Step

# the steps a statement-set command expands to (skew's coefficient list may give a scale)
LISTED = ("permute", "reverse", "skew", "scale")
# the argument that carries the statements listed before a step's, as offsets from its own
# number (so that they follow when loop(N) or a region renumbers it): `listed_after: [-1]`
EARLIER = "listed_after"


def statements(ln, name: str, x) -> list[int]:
    """The statements of a command's first argument, a number or CHiLL's list of them."""
    listed = x if isinstance(x, list) else [x]
    if not listed:
        raise ln.error(f"{name}: empty statement list", hint="give the statement number, e.g. 0, or [0,1]")
    odd = next((s for s in listed if not isinstance(s, int) or isinstance(s, bool)), None)
    if odd is not None:
        raise ln.error(f"{name}: the statement list holds {odd!r}, not a statement number",
                       hint="give the statement number, e.g. 0, or a list of them, [0,1]")
    return list(dict.fromkeys(listed))


def one(ln, name: str, x):
    """A command that CHiLL gives one statement: a list of several is refused rather than cut
    to its first (the others would silently stay as written)."""
    listed = statements(ln, name, x)
    if len(listed) > 1:
        shown = "[" + ",".join(map(str, listed)) + "]"
        raise ln.error(f"{name} takes one statement, got the list {shown}",
                       hint=f"write one {name} command for each statement ({name}({listed[0]},...) then "
                            f"{name}({listed[1]},...)); a step on a loop already acts on every statement in it")
    return listed[0]


def each(listed: list[int], steps_of) -> list[tuple[str, dict]]:
    """steps_of(stmt) for every listed statement; the later ones carry the earlier statements."""
    out = []
    for k, s in enumerate(listed):
        for step_name, args in steps_of(s):
            if k and step_name in LISTED and isinstance(s, int):
                args = {**args, EARLIER: [e - s for e in listed[:k] if isinstance(e, int)]}
            out.append((step_name, args))
    return out


def moved_along(v, st: Step):
    """The earlier listed statement that shares the outermost loop the step moves, if any."""
    me = st["stmt"]
    try:
        names = S.loop_names(v, me)
        if st.name == "permute":
            at = [names.index(S.resolve_name(v, me, x)) for x in st["order"]]
            moved = [p for p, q in zip(sorted(at), at) if p != q]
            if not moved:
                return None
            loop = names[min(moved)]
        else:
            loop = S.resolve_name(v, me, st["loop"])
        held = {v.pieces[k].stmt for k, _ in S.sharing(v, me, loop)}
    except (LooptxError, ValueError):
        return None                 # the step itself says what is wrong
    for d in st.get(EARLIER) or ():
        if d and me + d in held:
            return me + d, loop
    return None
