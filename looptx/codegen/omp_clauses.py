"""The data clauses of a parallel loop's pragma: which loops a `collapse(n)` takes, a private
clause's names moved to where the copies need a value, and the directives that take none."""
from __future__ import annotations

import re

from looptx import ir
from looptx.codegen import ast as K
from looptx.frontend.names import to_model, to_user
from looptx.poly.jam_locals import root_of


def takes_firstprivate(text: str) -> bool:
    """Whether the loop directive takes a firstprivate clause (`omp simd`, `omp loop` and
    OpenACC's `loop` take none)."""
    words = text.split()
    return not (words[:1] == ["acc"] and "parallel" not in words or
                words[:1] == ["omp"] and not {"for", "distribute", "taskloop"} & set(words))


def takes_copies(text: str, first: list[str], last: list[str], scop) -> None:
    """An `omp simd` or `omp loop` takes no firstprivate, and OpenACC's loop no firstprivate or
    lastprivate: where isl printed an instance of the loop's first (or last) iteration outside
    it, its private copy cannot start from (or end in) the variable."""
    words = text.split()
    no_first = not takes_firstprivate(text)
    no_last = words[:1] == ["acc"]
    bad = (first if no_first else []) + (last if no_last else [])
    if bad:
        from looptx.errors import RecipeError
        raise RecipeError(f"'#pragma {text}' would make '{to_user(bad[0])}' private to each iteration, but the "
                          f"code isl writes sets it in an iteration printed apart, outside the loop (a "
                          f"statement that runs at the loop's first or last iteration only), and the "
                          f"directive takes no {'firstprivate' if bad[0] in first else 'lastprivate'}",
                          hint="put this pragma on a loop that writes the variable in every iteration, or "
                               "use omp parallel for (which takes firstprivate and lastprivate) there",
                          **scop.where())


def unlisted(text: str, names: set[str]) -> tuple[str, list[str]]:
    """`text` without `names` in its private(...) clauses (an emptied clause goes), and the
    names taken out."""
    taken: list[str] = []

    def keep(m: re.Match) -> str:
        listed = [x.strip() for x in m.group(1).split(",") if x.strip()]
        taken.extend(x for x in listed if to_model(x) in names)
        rest = [x for x in listed if to_model(x) not in names]
        return f"private({', '.join(rest)})" if rest else ""
    out = re.sub(r"(?<![\w])private\s*\(([^()]*)\)", keep, text)
    return (" ".join(out.split()) if taken else text), [to_model(x) for x in taken]


def fors(n: K.Node, collapse: int | None = None):
    """The loops under `n`; with `collapse`, `n` and the loops a `collapse(n)` clause takes
    with it (each the only statement of the one before)."""
    if collapse is None:
        return K.nodes(n, K.For)
    out = [n]
    while len(out) < collapse:
        body = out[-1].body
        while isinstance(body, K.Block) and len(body.items) == 1:
            body = body.items[0]
        if not isinstance(body, K.For):
            break
        out.append(body)
    return out


def loop_private(scop, root, n: K.For) -> tuple[list[str], set[str], set[str]]:
    """What the block declares before the loops and each iteration of `n` uses as its own:
    a buffer that copies inside `n` fill, and a local of the region written inside `n` and
    used nowhere else (the dependence check has made sure that each iteration writes it
    before reading it; one used outside keeps the value of its one writing iteration).
    Also, of those, a local declared in the loops (privatized) that statements printed
    before or after `n` use: isl prints an instance of the first iteration that precedes
    the rest before the loop (hotspot's `if (i == 0 && j == 0) t = a0;`), and one of the
    last after it, so the private copies start from the variable (firstprivate) or end in
    it (lastprivate); a sibling nest's own uses of it do not mind either."""
    arrays = {a.name: a for a in scop.arrays}
    arrays.update({r.array: arrays[root_of(r.array, arrays)] for x in K.nodes(n.body, K.Leaf) for _, r in x.refs
                   if root_of(r.array, arrays) != r.array})
    out = {c.lhs.array for c in K.nodes(n.body, K.Assign)
           if isinstance(c.lhs, ir.Ref) and c.lhs.array not in arrays}
    # a statement of the loop that also runs outside it (an unroll's remainder, a peeled
    # iteration) runs other iterations of the same loop, each with its own copy
    inside = {x.stmt for x in K.nodes(n.body, K.Leaf)}
    outside = {r.array for x in K.nodes(root or n, K.Leaf) if x.stmt not in inside
               for _, r in x.refs}
    order = list(K.nodes(root or n, K.Leaf))
    mine = [k for k, x in enumerate(order) if x.stmt in inside]
    before = {r.array for x in order[:mine[0]] for _, r in x.refs} if mine else set()
    after = {r.array for x in order[mine[-1] + 1:] for _, r in x.refs} if mine else set()
    hoisted = set()
    for x in K.nodes(n.body, K.Leaf):
        for ref, r in x.refs:
            a = arrays.get(r.array)
            if a is None or not a.local or a.declared_in_region or scop.access(ref).kind != "write":
                continue
            if r.array not in outside:
                out.add(r.array)
            elif a.private_depth:
                out.add(r.array)
                hoisted.add(r.array)
    return sorted(out), before & hoisted, after & hoisted


def check_collapse(text: str, loops: list, depth: int, scop) -> None:
    """`collapse(n)` takes n loops each the only statement of the one before (an unroll's
    remainder loop, or a statement between them, breaks that), whose bounds are linear in the
    loops outside (OpenMP's canonical form: no min, max or division of an outer counter, which
    a tile of a triangle brings)."""
    from looptx.errors import RecipeError
    why = None
    hint = ("drop the collapse clause, or collapse loops that are perfectly nested and rectangular (the tile "
            "loops of a rectangle)")
    if len(loops) < depth:
        why = (f"loop '{to_user(loops[-1].var)}' holds more than one loop or statement in the code looptx "
               f"writes (an unroll's remainder loop, a statement between the loops)")
        hint = ("drop the collapse clause, collapse fewer loops, or unroll inside them only by a factor that "
                "divides the loop's trip count (fix the sizes with --define), which leaves no remainder loop")
    else:
        outer = set()
        for f in loops:
            bounds = [f.init, f.cond]
            if outer and any(_nonlinear_in(e, outer) for e in bounds):
                why = f"the bounds of loop '{to_user(f.var)}' take a min, max or division of an outer loop's counter"
                break
            # OpenMP 5 (and gcc) allow no schedule or ordered clause on a non-rectangular nest
            if outer and re.search(r"\b(schedule|ordered)\b", text) and \
                    any(isinstance(y, ir.Var) and y.name in outer for e in bounds for y in ir.walk(e)):
                clause = re.search(r"(schedule|ordered)", text).group(1)
                raise RecipeError(f"'#pragma {text}' collapses {depth} loops, but the bounds of loop "
                                  f"'{to_user(f.var)}' read an outer loop's counter (a triangle, or a skew), and "
                                  f"OpenMP takes no '{clause}' clause on such a nest (gcc refuses it)",
                                  hint=f"drop the {clause} clause, or the collapse", **scop.where())
            outer.add(f.var)
    if why:
        raise RecipeError(f"'#pragma {text}' collapses {depth} loops, but {why}, which OpenMP does not collapse",
                          hint=hint, **scop.where())


def _nonlinear_in(e, names: set) -> bool:
    """`e` reads one of `names` under a call, a conditional, `/` or `%`."""
    for x in ir.walk(e):
        nonlinear = isinstance(x, (ir.Call, ir.Cond)) or isinstance(x, ir.Bin) and x.op in ("/", "%")
        if nonlinear and any(isinstance(y, ir.Var) and y.name in names or isinstance(y, ir.Ref) and y.array in names
                             and not y.index for y in ir.walk(x)):
            return True
    return False


def harness_clauses(text: str, known: set[str]) -> str:
    """A directive for code compiled apart from the user's file: without `shared` and `default`
    clauses (sharing is the default, and `default(none)` would ask for every size the harness
    passes), and without the names of private lists that it does not declare."""
    def keep(m: re.Match) -> str:
        listed = [x.strip() for x in m.group(2).split(",") if x.strip()]
        rest = [x for x in listed if to_model(x) in known]
        return f"{m.group(1)}({', '.join(rest)})" if rest else ""
    out = re.sub(r"(?<![\w])(?:shared|default)\s*\([^()]*\)", "", text)
    out = re.sub(r"(?<![\w])((?:first|last)?private)\s*\(([^()]*)\)", keep, out)
    return " ".join(out.replace(" ,", ",").split())


_REDUCTION = re.compile(r"\breduction\s*\(([^()]*)\)")
_SECTION_LENGTH = re.compile(r"\[\s*[^\[\]:]*:\s*([^\[\]]+)\]")


def section_guard(n: K.For, pragmas: list[str], context: str) -> tuple[str, bool] | None:
    """A reduction over an array section that may be empty (`reduction(+:cs[0:n])` at n = 0)
    crashes gcc's libgomp, whatever the loop runs (probe 224 G3): the condition that every
    such section holds an element, under which the pragma is written, and whether the loop
    may run without it (then written again, without the pragma, for the sizes that empty it).
    None where every section has an element under the known facts `context` (an isl text)."""
    from looptx.codegen.code_facts import loop_facts
    from looptx.poly.implied import never
    lengths = [m.group(1).strip() for t in pragmas for c in _REDUCTION.finditer(t)
               for m in _SECTION_LENGTH.finditer(c.group(1))]
    lengths = [x for x in dict.fromkeys(lengths) if not x.isdigit()]
    known = (context,) if context else ()
    empty = [x for x in lengths if not never(known, f"({x}) <= 0")]
    if not empty:
        return None
    runs = loop_facts(n)
    serial = any(not never(known + (f"({x}) <= 0",), " and ".join(f"({f})" for f in runs) or "0 = 0")
                 for x in empty)
    return " && ".join(f"{x} >= 1" for x in empty), serial


def reductions_of_copies(text: str, names: list[str], arrays) -> tuple[str, list[str]]:
    """`text` with each jam copy among `names` of a variable its reduction clause names added
    to that clause (`reduction(+:s, s__i1)`: the copy is the same reduction over another row),
    and the copies so added (probe 224 G12: they were refused as private copies that need a
    value from before the loop)."""
    joined = []

    def clause(m: re.Match) -> str:
        op, listed = m.group(1), [x.strip() for x in m.group(2).split(",")]
        more = [x for x in names if root_of(x, arrays) in listed and x not in listed and x not in joined]
        joined.extend(more)
        return f"reduction({op}:{', '.join(listed + more)})" if more else m.group(0)
    return re.sub(r"\breduction\s*\(\s*([^:()]+?)\s*:\s*([\w\s,]+)\)", clause, text), joined
