"""privatize: a variable of the function becomes private to each iteration of a loop.

A temporary declared before the loops (`double sum;` at the top of the function, doitgen's
and matmul's accumulator) makes every loop around its uses carry WAR and WAW dependences
that C's semantics do not need: the value never crosses an iteration.  Declaring it inside
the loop would remove them, and that is what this step models, after checking that it keeps
the program's meaning:
- the value the region leaves in the variable is never read (the front end's `live_out`);
- every use of the variable is inside the loop;
- no read takes its value from an earlier iteration of the loop or from before the region:
  in the program with one object per iteration, every read has a write before it.
The dependences are then those of a local declared inside the loop (`private_depth`), and the
code declares it at the top of the region, as it does for such locals, so legality also checks
that no new order overlaps two iterations' values in it (deps.lifetime_overlap).
"""
from __future__ import annotations

import re
from dataclasses import replace

import islpy as isl

from looptx import ir
from looptx.errors import LegalityError, RecipeError, note_once
from looptx.frontend.names import to_user
from looptx.poly.deps import small_point
from looptx.poly.scop import union_maps, union_sets
from looptx.poly.variant import Variant


def privatize(v: Variant, stmt: int | None, var: str, at: str) -> Variant:
    scop = v.scop
    arr = next((a for a in scop.arrays if a.name == var), None)
    written = sorted({to_user(a.name) for a in scop.arrays
                      if a.role != "in" and not a.local and not a.live_out})
    if arr is None and var in {n for n, _ in scop.substituted}:
        # srad's `k = i*cols + j; ... J[k]` with OpenMP's private(k): the same request, met
        where = scop.where()
        note_once(where["file"], where["line"], f"'{to_user(var)}' needs no private copy: its uses in the region "
                  "read the expression it is set to, so no loop carries it")
        return v
    members = [k for k, chain in scop.member_chains().items() if chain.startswith(f"{to_user(var)}.")]
    if arr is None and members:
        # MILC's `omp_for private(x, y)` of `complex x, y;`: the region holds x.real, x.imag
        for m in members:
            v = privatize(v, stmt, m, at)
        return v
    if arr is None:
        raise RecipeError(f"'{to_user(var)}' is not used in the region",
                          hint=f"variables that can be private: {', '.join(written) or 'none'}")
    if arr.local and arr.private_depth:
        raise RecipeError(f"'{to_user(var)}' is declared inside the region: it is already private to "
                          "the loops around its declaration", hint="remove this step")
    if arr.role == "in":
        raise RecipeError(f"the region only reads '{to_user(var)}': there is nothing to privatize",
                          hint="privatize a variable the region writes")
    live_out = read_after(arr)
    if live_out or not arr.decl:
        raise RecipeError(f"'{to_user(var)}' cannot be private: {live_out or 'it has no declaration'}",
                          hint="privatize a local of the function whose value is not used after the region "
                               "(or declare it inside the loop yourself)")
    users = [s for s in scop.statements if any(a.array == var for a in s.accesses)]
    if stmt is None:
        loops = _loops_named(users, at)
        if len(loops) > 1:
            # Rodinia's lud: two sibling `j` loops reuse `sum`; privatizing the first alone
            # would leave the user wondering why the second still carries the dependence
            firsts = [group[0] for group in loops.values()]
            raise RecipeError(f"'{to_user(at)}' names {len(loops)} loops that use '{to_user(var)}' "
                              f"(around statements {' and '.join(str(u) for u in firsts)})",
                              hint=f"say which with stmt: privatize: {{stmt: {firsts[-1]}, var: {to_user(var)}, "
                                   f"at: {to_user(at)}}}, one step per loop")
        stmt = next((u.id for u in users if at in u.iterators), users[0].id)
    if not 0 <= stmt < len(scop.statements):
        raise RecipeError(f"there is no statement {stmt} in the region",
                          hint=f"statements: 0..{len(scop.statements) - 1}")
    s = scop.statements[stmt]
    if at not in s.iterators:
        raise RecipeError(f"'{to_user(at)}' is not a loop around statement {stmt} (line {s.line}) in the "
                          "original nest",
                          hint=f"name one of {', '.join(map(to_user, s.iterators)) or '(none: S%d is in no loop)' % stmt}")
    depth = s.iterators.index(at) + 1
    loop = s.schedule[:2 * depth]
    inside = {u.id for u in users if tuple(u.schedule[:2 * depth]) == tuple(loop)}
    if not inside:
        around = next((u for u in users if at in u.iterators), users[0])
        raise RecipeError(f"loop '{to_user(at)}' around statement {stmt} (line {s.line}) holds no use of "
                          f"'{to_user(var)}'",
                          hint=f"name a statement that uses it: privatize: {{stmt: {around.id}, var: {to_user(var)}, "
                               f"at: {to_user(at) if at in around.iterators else 'LOOP'}}}")
    if len(inside) < len(users):
        # Reused elsewhere in the region (deriche's ym1, set again by the next nest): the uses
        # inside the loop become a variable of their own, if no value passes between them and
        # the others
        crossing = _crossing_flow(scop, var, inside)
        if crossing is not None:
            u = scop.statements[crossing]
            raise RecipeError(f"S{u.id} (line {u.line}) uses '{to_user(var)}' outside loop '{to_user(at)}', "
                              "and a value of it passes between that use and the loop",
                              hint="privatize at a loop around every use of it")
        scop, arr = _own_variable(scop, arr, inside, at)
    elif not arr.local:
        arr = replace(arr, declared_by_function=True)
    out = _with_private(scop, arr, depth)
    _check_no_live_in(out, arr.name, at)
    return v.evolve(scop=out)


def read_after(arr) -> str:
    """Why the function reads the value the region leaves in `arr` ('' where it does not): a
    local the region declares before its loops is dead after it, unless the code after the
    region reads it (declared_in_region)."""
    return arr.live_out if not arr.local or arr.declared_in_region else ""


def _accesses(scop, names):
    reads = isl.UnionMap.empty(scop.context.get_space())
    writes = reads
    for s in scop.statements:
        for a in s.accesses:
            if a.array in names:
                m = isl.UnionMap.from_map(scop.access_map(s, a, private=True))
                if a.kind == "read":
                    reads = reads.union(m)
                else:
                    writes = writes.union(m)
    return reads, writes


def value_flow(scop, names):
    """isl's value flow of the variables `names` in the original program."""
    reads, writes = _accesses(scop, names)
    ctx = scop.context
    return (isl.UnionAccessInfo.from_sink(reads.intersect_params(ctx))
            .set_must_source(writes.intersect_params(ctx))
            .set_schedule_map(scop.schedule.intersect_params(ctx)).compute_flow())


def _crossing_flow(scop, var: str, inside: set[int]) -> int | None:
    """A statement outside `inside` that reads a value of `var` written inside, or writes one
    read inside; None when the uses inside and outside share no value."""
    found = []
    for m in union_maps(value_flow(scop, {var}).get_may_dependence().intersect_params(scop.context)):
        if m.is_empty():
            continue
        src = int(m.get_tuple_name(isl.dim_type.in_)[1:])
        dst = int(m.get_tuple_name(isl.dim_type.out)[1:])
        if (src in inside) != (dst in inside):
            found.append(dst if src in inside else src)
    return min(found, default=None)


def _own_variable(scop, arr, inside: set[int], at: str):
    """The scop in which the statements `inside` use a new variable instead of `arr`, named
    after it and the loop (`ym1_i`), declared like it."""
    taken = {a.name for a in scop.arrays} | set(scop.params) | \
        {it for st in scop.statements for it in st.iterators}
    name, k = f"{arr.name}_{at}", 1
    while name in taken:
        k += 1
        name = f"{arr.name}_{at}{k}"
    word = re.compile(rf"(?<![\w.]){re.escape(to_user(arr.name))}(?!\w)")

    def rename(e):
        return ir.map_up(e, lambda x: replace(x, array=name) if isinstance(x, ir.Ref) and x.array == arr.name
                         else x)

    stmts = tuple(replace(s, body=rename(s.body),
                          accesses=tuple(replace(a, array=name) if a.array == arr.name else a
                                         for a in s.accesses)) if s.id in inside else s
                  for s in scop.statements)
    own = replace(arr, name=name, decl=word.sub(to_user(name), arr.decl),
                  spelled_decl=word.sub(to_user(name), arr.spelled_decl))
    return replace(scop, statements=stmts, arrays=scop.arrays + (own,), _cache={}), own


def _with_private(scop, arr, depth: int):
    """The scop in which `arr` has one object per iteration of its `depth` outer loops."""
    private = replace(arr, local=True, private_depth=depth, role="temp")
    return replace(scop, arrays=tuple(private if a.name == arr.name else a for a in scop.arrays), _cache={})


def _orphan_reads(scop, names) -> isl.UnionSet:
    """The statement instances that read one of `names` before the region writes it."""
    return value_flow(scop, names).get_may_no_source().domain().intersect_params(scop.context)


def scratch(scop) -> frozenset[str]:
    """Variables of the region's function (not parameters, not globals) that carry no value
    into the region or out of it: every read follows a write of the region, and the function
    does not read them after it.  Code with its own signature (the .cu's host function) keeps
    them to itself, since the caller has no such variable."""
    return scop.cached("scratch", lambda: frozenset(
        a.name for a in scop.arrays
        if a.decl and not a.local and not a.live_out and _orphan_reads(scop, {a.name}).is_empty()))


def _check_no_live_in(scop, var: str, at: str) -> None:
    """Every read of `var` has a write before it in the same iteration of `at`."""
    orphans = _orphan_reads(scop, {var})
    if orphans.is_empty():
        return
    first = next(x for x in union_sets(orphans) if not x.is_empty())
    pt = small_point(first.identity(), scop)
    name = first.get_tuple_name()
    if pt is None:
        where = f"{name}"
    else:
        where = f"{name}({','.join(map(str, pt[0]))})" + \
            (f" (with {', '.join(f'{p}={x}' for p, x in pt[2].items())})" if pt[2] else "")
    raise LegalityError(f"{where} reads '{to_user(var)}' before any write of it in the same iteration "
                        f"of loop '{to_user(at)}': the value comes from an earlier iteration or from "
                        "before the region, so a private copy would change it",
                        hint="privatize at an outer loop, or assign the variable at the start of each "
                             "iteration")


def suggestions(scop) -> dict[str, str]:
    """var -> the innermost loop at which `privatize` accepts it (its first nest that can have
    it private), for `looptx deps`."""
    out: dict[str, str] = {}
    for var, _, at, _ in _groups(scop):
        out.setdefault(var, at)
    return out


def _groups(scop) -> list[tuple[str, frozenset, str, int | None]]:
    """(var, statements, loop, stmt) for every nest whose uses of a variable of the region can
    be private to one of its loops: the innermost such loop, and the statement a privatize step
    must name (None when the nest holds every use).  Cached on the scop: a search meets many
    refused points of one region."""
    return scop.cached("privatize_suggestions", lambda: _find_groups(scop))


def _find_groups(scop) -> list[tuple[str, frozenset, str, int | None]]:
    out = []
    for arr in scop.arrays:
        # (a local the region declares outside its loops, looptx's own `double C_r;` read
        # again, is shared by their iterations as a function's is)
        if arr.local and arr.private_depth or arr.role == "in" or arr.live_out and not arr.local or not arr.decl:
            continue
        users = [s for s in scop.statements if any(a.array == arr.name for a in s.accesses)]
        nests: dict[tuple, list] = {}
        for u in users:
            nests.setdefault(tuple(u.schedule[:2]) if u.iterators else ("top", u.id), []).append(u)
        for group in nests.values():
            ids = frozenset(u.id for u in group)
            found = _innermost_private(scop, arr, group, ids, len(ids) == len(users))
            if found is not None:
                out.append((arr.name, ids, found, None if len(ids) == len(users) else group[0].id))
    return out


def _innermost_private(scop, arr, group, ids, whole: bool) -> str | None:
    common = 0
    while common < min(len(u.iterators) for u in group) and \
            len({tuple(u.schedule[:2 * (common + 1)]) for u in group}) == 1:
        common += 1
    if not common or not whole and _crossing_flow(scop, arr.name, set(ids)) is not None:
        return None
    own_scop, own = (scop, arr) if whole else _own_variable(scop, arr, set(ids), group[0].iterators[0])
    for depth in range(common, 0, -1):
        at = group[0].iterators[depth - 1]
        try:
            _check_no_live_in(_with_private(own_scop, own, depth), own.name, at)
        except LegalityError:
            continue
        return at
    return None


def _loops_named(users, at: str) -> dict[tuple, list[int]]:
    """The distinct loops named `at` around the statements `users`: schedule prefix -> ids."""
    out: dict[tuple, list[int]] = {}
    for u in users:
        if at in u.iterators:
            depth = u.iterators.index(at) + 1
            out.setdefault(tuple(u.schedule[:2 * depth]), []).append(u.id)
    return out


def hint(deps, dep, more=()) -> str:
    """'' or, for a WAR/WAW dependence that only the reuse of a privatizable temporary makes,
    the step that removes it (for the hint of a refused order or mapping), with those for the
    other temporaries among the violated dependences `more` (CUDA-CHiLL's cp reuses dx, dy and
    dz: one message names all three)."""
    first = _privatize_step(deps, dep)
    if first is None:
        return ""
    var, yaml, chill, _ = first
    others, rest = {}, False
    for d in more:
        got = _privatize_step(deps, d)
        if got is not None and got[0] != var:
            others.setdefault(got[0], got[3])
        rest = rest or got is None
    text = (f"; the dependence comes from reusing the temporary '{var}': a step "
            f"'privatize: {yaml}' (privatize({chill}) in a CHiLL script) before this one removes it")
    if others:
        text += f" (and one such step for each of {', '.join(others.values())}, which it reuses too)"
    if rest:
        # (probe 130 G3: after the privatize, the step was still refused, on another array)
        text += "; other dependences the step breaks remain after it"
    return text


def hinted(text: str) -> set[str]:
    """The temporaries a refusal's hint (as `hint` writes it) says to privatize."""
    text = text or ""
    at = text.find("reusing the temporary '")
    return set() if at < 0 else \
        {a or b for a, b in re.findall(r"reusing the temporary '([^']+)'|'([^']+)' at \w+", text[at:])}


def innermost_loop(scop, var: str, stmts) -> tuple[str, int] | None:
    """(the innermost loop at which `var` can be private, a statement in that nest) for a
    nest of `var`'s uses among `stmts`, or None."""
    return next(((at, min(ids)) for name, ids, at, _ in _groups(scop) if name == var and ids <= set(stmts)),
                None)


def _in_shared_loop(scop, dep, at: str) -> tuple[str, int] | None:
    """(loop, statement) where the dependence's two statements share loops inside `at` that
    hold other uses of the variable apart (Rodinia's lud: two sibling `j` loops reuse `sum`,
    so the nest's uses are private only at `i`, which leaves the dependence between two `j`
    iterations): the innermost of them at which their own uses can be private, or None."""
    src, snk = scop.statements[dep.source], scop.statements[dep.sink]
    if at not in snk.iterators:
        return None
    common = 0
    while common < min(len(src.iterators), len(snk.iterators)) and \
            tuple(src.schedule[:2 * (common + 1)]) == tuple(snk.schedule[:2 * (common + 1)]):
        common += 1
    arr = next((a for a in scop.arrays if a.name == dep.array), None)
    users = [u for u in scop.statements if any(a.array == dep.array for a in u.accesses)]
    for depth in range(common, snk.iterators.index(at) + 1, -1):
        prefix = tuple(snk.schedule[:2 * depth])
        inside = [u for u in users if tuple(u.schedule[:2 * depth]) == prefix]
        ids = frozenset(u.id for u in inside)
        if arr is None or len(ids) == len(users):
            return None
        found = _innermost_private(scop, arr, inside, ids, False)
        if found is not None and snk.iterators.index(found) + 1 >= depth:
            return found, dep.sink
    return None


def _privatize_step(deps, dep) -> tuple[str, str, str, str] | None:
    """(variable, the YAML step's arguments, the CHiLL call's, 'var' at loop) of the step that
    removes `dep`, or None."""
    if dep.kind == "RAW":
        return None
    hit = next(((at, stmt) for var, ids, at, stmt in _groups(deps.scop)
                if var == dep.array and dep.source in ids and dep.sink in ids), None)
    if hit is None:
        return None
    at, stmt = hit
    deeper = _in_shared_loop(deps.scop, dep, at)
    if deeper is not None:
        at, stmt = deeper
    if stmt is None and len(_loops_named([s for s in deps.scop.statements
                                          if any(a.array == dep.array for a in s.accesses)], at)) > 1:
        stmt = dep.sink
    var, loop = to_user(dep.array), to_user(at)
    yaml = f"{{var: {var}, at: {loop}}}" if stmt is None else f"{{stmt: {stmt}, var: {var}, at: {loop}}}"
    chill = f'"{var}","{loop}"' if stmt is None else f'{stmt},"{var}","{loop}"'
    where = f"'{var}' at {loop}" + ("" if stmt is None else f" in S{stmt}")
    return var, yaml, chill, where
