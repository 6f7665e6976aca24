"""Loops that carry a pragma (CHiLL's `pragma` and `omp_for`): the mark on the loop, and the
check that a loop run as `omp parallel for` carries no dependence.

A pragma belongs to a named loop (`LoopDim.pragmas`) and moves with it through later steps;
the check runs after every step, as the GPU mapping's does, so a later permute or fuse that
gives the loop a dependence is refused too."""
from __future__ import annotations

import re
from dataclasses import replace

import islpy as isl

from looptx.errors import LegalityError, RecipeError
from looptx.frontend.names import to_model, to_user
from looptx.poly import deps as D
from looptx.poly.lastprivate import shared_copies
from looptx.poly.privatize import hint as privatize_hint
from looptx.poly.reductions import clause_pairs, element_update_op, update_op, updates_with
from looptx.poly.schedule import loop_names, resolve_name, sharing
from looptx.poly.variant import LoopDim, Variant, loop_reads, original

OMP_FOR = "omp parallel for"
# clauses that change neither which loop is shared out nor which variables the team shares,
# but for a private list, which looptx checks as omp_for's (a `collapse`, `firstprivate` or
# `default(none)` clause does more)
_PLAIN_CLAUSE = r"(?:reduction|schedule|num_threads|proc_bind|if|private)\s*\((?:[^()]|\([^()]*\))*\)|default\s*\(\s*shared\s*\)"
_OMP_FOR_TEXT = re.compile(rf"omp parallel for(?:\s*,?\s*(?:{_PLAIN_CLAUSE}))*")
# directives by which the loop's iterations run at once, or in any order (OpenMP and OpenACC
# loop constructs, GCC's and Intel's ivdep, clang's assume_safety): each loop they stand on is
# checked as omp_for's is (`acc loop seq` runs in order)
_PARALLEL_TEXT = re.compile(r"(?:omp\b.*\b(?:for|simd|distribute|taskloop|loop)\b"
                            r"|acc\b(?!.*\b(?:seq|auto)\b)(?!\s*kernels\b(?!.*\bindependent\b)).*\bloop\b"
                            r"|(?:GCC\s+)?ivdep\b|simd\b|clang\s+loop\b.*\bassume_safety\b)")


def is_omp_for(text: str) -> bool:
    """`omp parallel for`, with reduction or scheduling clauses or none: the pragmas looptx
    checks and completes with the private list (and turns into `omp for` in a team)."""
    return _OMP_FOR_TEXT.fullmatch(text.strip()) is not None


def is_parallel_loop(text: str) -> bool:
    """A directive that runs its loop's iterations at once or in any order (omp_for's among
    them): looptx checks that the loop carries no dependence."""
    return _PARALLEL_TEXT.match(text.strip()) is not None


def takes_data_clauses(text: str) -> bool:
    """An OpenMP or OpenACC loop construct, whose own private clause the output completes."""
    return is_parallel_loop(text) and re.match(r"\s*(omp|acc)\b", text) is not None


def clause_names(text: str) -> set[str]:
    """The variables a directive's own private, firstprivate and lastprivate clauses name."""
    return {to_model(x.strip()) for names in re.findall(r"\b(?:first|last)?private\s*\(([^()]*)\)", text)
            for x in names.split(",") if x.strip()}


def collapsed(text: str) -> int:
    """How many loops from this one down a `collapse(n)` clause shares out together."""
    m = re.search(r"\bcollapse\s*\(\s*(\d+)\s*\)", text)
    return max(1, int(m.group(1))) if m else 1


def same_spacing(text: str) -> str:
    """A loop directive with its words one blank apart (`omp  parallel   for`), as looptx
    reads and completes it."""
    return " ".join(text.split()) if is_parallel_loop(text) and '"' not in text else text


def _loop_directive(text: str) -> bool:
    """An OpenMP or OpenACC directive that must be the last line before its loop."""
    return re.match(r"\s*(omp|acc)\b.*\b(for|loop|simd|distribute|taskloop)\b", text) is not None


# no loop constructs, yet C takes them before a loop: a team (teams, OpenACC gangs) each of whose
# threads runs the whole loop, or constructs whose statement is of another form
_REDUNDANT = re.compile(r"(?:omp\s+(?:target\s+)?(?:parallel|teams)|acc\s+parallel)\b"
                        r"(?!.*\b(?:for|loop|distribute|simd|master|masked|sections|taskloop)\b)")
_OTHER_FORM = re.compile(r"omp\s+(?:parallel\s+)?(sections|section|atomic|workshare|scan)\b")
# a worksharing loop of the enclosing team, and a loop construct that shares a loop out
_ORPHANED_FOR = re.compile(r"omp\s+(?:for|single|sections|barrier|masked|master)\b")
_SHARES_OUT = re.compile(r"omp\b.*\bfor\b")
# `omp loop` binds to the construct around it; without one it needs its bind clause
_UNBOUND_LOOP = re.compile(r"omp\s+loop\b")
_TEAM_MADE = re.compile(r"(omp|acc)\b.*\b(parallel|teams|kernels)\b")


def _misplaced(text: str, name: str) -> RecipeError | None:
    """Why `#pragma text` cannot stand before loop `name`; None where it can."""
    if not is_parallel_loop(text) and _REDUNDANT.match(text):
        return RecipeError(f"'#pragma {text}' before loop '{to_user(name)}' has every thread of a team run the "
                           "whole loop, each iteration once per thread",
                           hint="share the iterations out with 'omp parallel for' (omp_for in a recipe) or "
                                "'acc parallel loop'")
    m = _OTHER_FORM.match(text)
    if m:
        what = {"atomic": "an update statement", "scan": "the inside of a scan loop"}.get(
            m.group(1), "a block of '#pragma omp section' parts" if "sections" in m.group(1) else "a structured block")
        return RecipeError(f"'#pragma {text}' takes {what}, not loop '{to_user(name)}'",
                           hint="put a loop directive there ('omp parallel for', 'omp simd'), or leave it out")
    return None


def add_pragma(v: Variant, stmt: int, loop, text: str) -> Variant:
    """`#pragma text` before loop `loop` of `stmt` (every statement inside it shares it)."""
    name = resolve_name(v, stmt, loop)
    bad = _misplaced(text.strip(), name)
    if bad is not None:
        raise bad
    pieces = list(v.pieces)
    for k, pos in sharing(v, stmt, name):
        q = pieces[k]
        d = q.dims[pos]
        inner = [x.name for x in q.dims[pos:] if isinstance(x, LoopDim)]
        if collapsed(text) > len(inner):
            raise RecipeError(f"'#pragma {text}' collapses {collapsed(text)} loops, but statement {q.stmt} has "
                              f"{len(inner)} from loop '{to_user(name)}' inwards ({', '.join(map(to_user, inner))})",
                              hint="put the pragma on an outer loop, or collapse fewer loops")
        other = next((p for p in d.pragmas if p != text and (_loop_directive(p) or _loop_directive(text))), None)
        if other is not None:
            # C takes an OpenMP or OpenACC loop construct right before its `for`: gcc refuses
            # `#pragma GCC ivdep` between them, or after (`omp parallel for` then the pragma)
            raise RecipeError(f"loop '{to_user(name)}' already has '#pragma {other}': '#pragma {text}' cannot "
                              "stand next to it before the same loop",
                              hint="keep one of the two, or put the other on a loop inside it (an "
                                   "OpenMP clause such as simd goes into the omp pragma's own text)")
        if text not in d.pragmas:
            pieces[k] = replace(q, dims=q.dims[:pos] + (replace(d, pragmas=d.pragmas + (text,)),)
                                + q.dims[pos + 1:])
    return v.evolve(pieces=tuple(pieces))


def check_stacked(v: Variant) -> None:
    """No loop holds two directives of which one is a loop construct: a fuse gathers the
    pragmas its statements' loops had (probe 224 G10: `omp parallel for` over `omp simd`,
    which gcc refuses)."""
    texts: dict[tuple, list[str]] = {}
    for q in v.pieces:
        for pos, d in enumerate(q.dims):
            if isinstance(d, LoopDim) and d.pragmas:
                have = texts.setdefault((pos, q.prefix(pos), d.name), [])
                have += [t for t in d.pragmas if t not in have]
    for (_, _, name), have in texts.items():
        pair = next(((a, b) for a in have for b in have if a != b and (_loop_directive(a) or _loop_directive(b))), None)
        if pair is not None:
            raise RecipeError(f"loop '{to_user(name)}' would have '#pragma {pair[0]}' and '#pragma {pair[1]}', the "
                              "pragmas of the loops fused, and the two cannot stand before the same loop",
                              hint="give the pragma after the fuse, to the fused loop (one of the two)")


def safelen(text: str) -> int:
    """The `safelen(n)` of an `omp simd` that shares the loop with no threads and collapses
    no other loop (0 otherwise): iterations n or more apart never run at once."""
    m = re.search(r"\bsafelen\s*\(\s*(\d+)\s*\)", text)
    words = set(re.findall(r"\w+", text))
    if m is None or "simd" not in words or words & {"for", "distribute", "taskloop", "loop"} or collapsed(text) > 1:
        return 0
    return int(m.group(1))


def _within(v: Variant, pieces, width: int, pairs: isl.Map, c: int, length: int) -> isl.Map:
    """The pairs of `pairs` fewer than `length` iterations of the loop at schedule position `c`
    apart (its values step by the stride isl finds, and prints the loop with)."""
    points = None
    for k in pieces:
        r = v.piece_map(v.pieces[k], width).range()
        points = r if points is None else points.union(r)
    stride = points.coalesce().get_stride(c).to_python() if points is not None else 1
    near = pairs
    for sign in (1, -1):
        ls = isl.LocalSpace.from_space(pairs.get_space())
        near = near.add_constraint(isl.Constraint.inequality_alloc(ls)
                                   .set_coefficient_val(isl.dim_type.in_, c, sign)
                                   .set_coefficient_val(isl.dim_type.out, c, -sign)
                                   .set_constant_val(length * stride - 1))
    return near


def scheduled_deps(v: Variant, pieces, deps: D.Deps, width: int):
    """(dependence, its pairs as schedule points) for every dependence between two instances
    of `pieces` (piece indices): what a loop over them must not run at once."""
    stmts = {v.pieces[k].stmt for k in pieces}
    inside = isl.UnionMap.empty(v.schedule_map(width).get_space())
    for k in pieces:
        inside = inside.union(isl.UnionMap.from_map(v.piece_map(v.pieces[k], width)))
    for dep in deps.items:
        if dep.source not in stmts or dep.sink not in stmts:
            continue
        rel = isl.UnionMap.from_map(dep.relation).apply_domain(inside).apply_range(inside)
        if not rel.is_empty():
            yield dep, isl.Map.from_union_map(rel).intersect_params(v.context)


def instances(v: Variant, dep: D.Dep, pairs: isl.Map) -> isl.Map:
    """Schedule-point pairs of `dep` back as the statement instances they are."""
    back = v.schedule_map().reverse()
    rel = isl.UnionMap.from_map(pairs).apply_domain(back).apply_range(back)
    return isl.Map.from_union_map(rel.intersect(isl.UnionMap.from_map(dep.relation)))


def omp_loops(v: Variant):
    """(a piece, its position, the loop, the directive's text) of each parallel loop, once."""
    seen = set()
    for p in v.pieces:
        for c, d in enumerate(p.dims):
            omp = next((t for t in d.pragmas if is_parallel_loop(t)), None) if isinstance(d, LoopDim) else None
            if omp is None or (c, d.name, p.prefix(c)) in seen:
                continue
            seen.add((c, d.name, p.prefix(c)))
            yield p, c, d, omp


def check_parallel(v: Variant, deps: D.Deps) -> None:
    """Every loop marked `omp parallel for` (or another parallel directive) runs its iterations
    in any order and at once: no dependence between two of its iterations (within one iteration
    of the loops around it); under `collapse(n)`, between two iterations of its n loops."""
    width = v.width
    if v.scop.team and v.scop.team_kind == "team":
        for p in v.pieces:
            shared = [d for d in p.loops if any(is_omp_for(t) for t in d.pragmas)]
            if len(shared) > 1:
                raise RecipeError(f"loop '{to_user(shared[1].name)}' is inside loop '{to_user(shared[0].name)}', "
                                  f"which the team around the region shares out already: in a team, "
                                  f"'#pragma omp parallel for' is the team's 'omp for', and OpenMP does not "
                                  f"nest one inside another",
                                  hint=f"give loop '{to_user(shared[1].name)}' 'omp simd' instead, or let the "
                                       "team share out the outer loop alone")
    _nested_worksharing(v)
    for p, c, d, omp in omp_loops(v):
        try:
            group = [k for k, _ in sharing(v, p.stmt, d.name)]
        except RecipeError:
            # a later step took the loop away (a full unroll at the sizes -D gives)
            raise RecipeError(f"loop '{to_user(d.name)}' is no loop after this step (unrolled fully), and an "
                              f"earlier step runs it as '#pragma {omp}'",
                              hint="unroll it by a factor below its trip count, or put the omp_for on "
                                   "another loop") from None
        reduced = dict((var, op) for op, var in clause_pairs(omp))
        carried = []
        hint_only = not takes_data_clauses(omp)
        copied = shared_copies(v, group, c, collapsed(omp), omp) if "lastprivate" in omp else set()
        for dep, t in scheduled_deps(v, group, deps, width):
            if _combined(v.scop, dep, reduced) or hint_only and _loop_invariant_update(v.scop, dep, d) \
                    or dep.array in copied:
                continue
            for q in range(c):
                t = t.equate(isl.dim_type.in_, q, isl.dim_type.out, q)
            same = t
            for q in range(c, min(c + 2 * collapsed(omp) - 1, len(p.dims))):
                same = same.equate(isl.dim_type.in_, q, isl.dim_type.out, q)
            across = t.subtract(same)
            if not across.is_empty() and safelen(omp):
                across = _within(v, group, width, across, c, safelen(omp))
            if not across.is_empty():
                carried.append((dep, across))
        if carried:
            # one that no privatize step removes comes first: the step the hint would name only
            # uncovers it (heat-1d's time loop: the temporary, then the stencil's own values)
            carried.sort(key=lambda x: privatize_hint(deps, x[0]) != "")
            dep, across = carried[0]
            named = clause_names(omp)
            raise LegalityError(
                D.describe_violation(deps, dep, instances(v, dep, across), f"'{omp}' "
                                     f"on loop '{to_user(d.name)}' runs them at once"),
                hint=(f"looptx does not read this directive's own clause for '{to_user(dep.array)}': add a step "
                      f"'privatize: {{var: {to_user(dep.array)}, at: LOOP}}' before this one (LOOP: the loop "
                      f"each of whose iterations writes it first), which checks it"
                      if dep.array in named else None) or
                (_reduction_hint(v, dep) if is_omp_for(omp) else _text_reduction_hint(v, dep, omp)) or
                (f"put '#pragma {omp}'" if not is_omp_for(omp) else "put omp_for") +
                " on a loop that carries no dependence (see looptx deps)"
                + privatize_hint(deps, dep, [x for x, _ in carried[1:]]) + ", or pass --unsafe")


def _nested_worksharing(v: Variant) -> None:
    """`omp for` binds to the team of the loop around it that shares its iterations out (its
    `omp parallel for`), and OpenMP refuses one worksharing loop inside another."""
    if v.scop.team:
        return                  # the team's own checks (recipe/team.py), around the region too
    for p in v.pieces:
        outer, team = None, False
        for d in p.loops:
            inner = next((t for t in d.pragmas if _ORPHANED_FOR.match(t)), None)
            if outer is not None and inner is not None:
                raise RecipeError(f"loop '{to_user(d.name)}' has '#pragma {inner}' inside loop '{to_user(outer[0])}', "
                                  f"whose '#pragma {outer[1]}' shares its iterations out already: OpenMP does not "
                                  "nest a worksharing, single, masked or barrier construct in a worksharing loop",
                                  hint=f"give loop '{to_user(d.name)}' 'omp parallel for' (a team of its own) or "
                                       "'omp simd', or keep one of the two")
            bare = next((t for t in d.pragmas if _UNBOUND_LOOP.match(t) and "bind" not in t), None)
            if bare is not None and not team:
                raise RecipeError(f"'#pragma {bare}' on loop '{to_user(d.name)}' is outside any parallel or teams "
                                  "construct, where OpenMP needs its bind clause (gcc refuses it)",
                                  hint=f"write '{bare} bind(thread)', or 'omp parallel loop' for a team of its own")
            team = team or any(_TEAM_MADE.match(t) for t in d.pragmas)
            if outer is None:
                outer = next(((d.name, t) for t in d.pragmas if _SHARES_OUT.match(t)), None)


def _team_reorders(v: Variant, dep: D.Dep, rel: isl.Map) -> isl.Map:
    """The pairs of `rel` that the team's own `omp for reduction` allows in the program as
    written: its updates run in any order inside the whole nest it shares out, wherever later
    steps move or unroll that loop (the clause's text moves to the nest's outermost loop)."""
    # (asked for each dependence a step reverses: the program as written is the scop's own)
    written = v.scop.cached("written_variant", lambda: original(v.scop))
    for p, _, d, omp in omp_loops(written):
        held = {written.pieces[k].stmt for k, _ in sharing(written, p.stmt, d.name)}
        if dep.source in held and dep.sink in held and \
                _combined(v.scop, dep, dict((var, op) for op, var in clause_pairs(omp))):
            t = rel
            for q in range(v.scop.statements[p.stmt].iterators.index(d.name)):
                t = t.equate(isl.dim_type.in_, q, isl.dim_type.out, q)
            return t
    return rel.subtract(rel)


def reordered_updates(v: Variant, dep: D.Dep, rel: isl.Map) -> isl.Map:
    """The pairs of `rel` (instances of `dep` that the new order reverses) that an `omp parallel
    for` reduction allows: two updates of its variable with its operator, inside one run of the
    loop (the same iteration of the loops around it).  OpenMP combines those updates in any
    order already, so a later unroll-and-jam of the loop may reorder them too.  A run of the
    loop is the one the code runs now, and also, where the loop is one of the statement's
    loops, the one the clause was written for (a reduction on j, tiled since: the tile loop's
    whole run, which `jj, ii, j, i` reorders)."""
    allowed = _team_reorders(v, dep, rel)
    width = v.width
    for p, c, d, omp in omp_loops(v):
        if not _combined(v.scop, dep, dict((var, op) for op, var in clause_pairs(omp))):
            continue
        iterators = v.scop.statements[p.stmt].iterators
        stmts = {v.pieces[k].stmt for k, _ in sharing(v, p.stmt, d.name)}
        # the loop the clause was written for: the one iterator its expression reads (also
        # after a tile or an unroll made it `2*floor(i/2)`)
        read = loop_reads(d, iterators)
        if len(read) == 1 and dep.source in stmts and dep.sink in stmts:
            t = rel
            for q in range(iterators.index(next(iter(read)))):
                t = t.equate(isl.dim_type.in_, q, isl.dim_type.out, q)
            allowed = allowed.union(t)
        inside = None
        for k, _ in sharing(v, p.stmt, d.name):
            m = isl.UnionMap.from_map(v.piece_map(v.pieces[k], width))
            inside = m if inside is None else inside.union(m)
        t = isl.UnionMap.from_map(rel).apply_domain(inside).apply_range(inside)
        if t.is_empty():
            continue
        t = isl.Map.from_union_map(t)
        for q in range(c):
            t = t.equate(isl.dim_type.in_, q, isl.dim_type.out, q)
        if not t.is_empty():
            allowed = allowed.union(instances(v, dep, t).intersect(rel))
    return allowed


def _loop_invariant_update(scop, dep: D.Dep, d: LoopDim) -> bool:
    """Two updates `a[f] op= e` of one element that loop `d` does not move (a matmul's
    `C[i][j] +=` under Orio's `GCC ivdep` on k): a reduction, which vectorizers recognise and
    keep right under ivdep; an element that moves with the loop (`h[i/2] +=`) is not one."""
    # the counters the loop's value reads: an unrolled loop's is its strip's start (probe 224
    # G11: Orio's `GCC ivdep` with `Unroll` on k was refused)
    named = set(re.findall(r"[A-Za-z_]\w*", d.expr))
    ops = set()
    for s in (dep.source, dep.sink):
        st = scop.statements[s]
        its = named & set(st.iterators)
        if not its:
            return False
        ops.add(element_update_op(st.body, dep.array))
        if any(re.search(rf"\b{re.escape(it)}\b", x) for it in its
               for a in st.accesses if a.array == dep.array for x in a.index):
            return False
    return len(ops) == 1 and None not in ops


def _combined(scop, dep: D.Dep, reduced: dict) -> bool:
    """A dependence between two updates of one reduction variable with its operator: OpenMP
    gives each thread its own copy and combines them."""
    op = reduced.get(dep.array)
    scalar = scop.array(dep.array).is_scalar if any(a.name == dep.array for a in scop.arrays) else True
    return op is not None and all(updates_with(scop.statements[s].body, dep.array, scalar) == op
                                  for s in (dep.source, dep.sink))


def reduction_op(scop, dep: D.Dep) -> str | None:
    """The operator when `dep` joins two updates of a variable with one operator (`s += ...`)."""
    ops = {update_op(scop.statements[s].body, dep.array) for s in (dep.source, dep.sink)}
    return None if len(ops) != 1 or None in ops else ops.pop()


def plain_reduction(v: Variant, dep: D.Dep) -> str | None:
    """reduction_op, where the statements of the source's innermost loop use the variable only
    in such updates: a prefix sum (`s += a[i]; b[i] = s;`) is no reduction a clause allows."""
    op = reduction_op(v.scop, dep)
    names = loop_names(v, dep.source) if op is not None else []
    for k, _ in sharing(v, dep.source, names[-1]) if names else ():
        st = v.scop.statements[v.pieces[k].stmt]
        if any(a.array == dep.array for a in st.accesses) and update_op(st.body, dep.array) != op:
            return None
    return op


def _text_reduction_hint(v: Variant, dep: D.Dep, text: str) -> str | None:
    """A pragma step's directive: the reduction clause goes into its own text."""
    op = plain_reduction(v, dep)
    if op is None:
        return None
    if not takes_data_clauses(text):
        # (probe 224 G11: `GCC ivdep` takes no clause)
        return (f"'{to_user(dep.array)}' is a {op} reduction, which '#pragma {text}' cannot say: use '#pragma omp "
                f"simd reduction({op}:{to_user(dep.array)})' instead")
    return f"'{to_user(dep.array)}' is a {op} reduction: add reduction({op}:{to_user(dep.array)}) to '#pragma {text}'"


def _reduction_hint(v: Variant, dep: D.Dep) -> str | None:
    """Two updates of a scalar with one operator (`s += ...`): a reduction clause would do."""
    op, var = plain_reduction(v, dep), to_user(dep.array)
    if op is None:
        return None
    return (f"'{var}' is a {op} reduction: give omp_for reduction: {{'{op}': [{var}]}} (OpenMP combines "
            f"the threads' copies), or put omp_for on a loop that carries no dependence")
