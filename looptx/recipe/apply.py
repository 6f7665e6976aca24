"""Typed steps -> Variant, with the exact legality check after every step."""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Callable

from looptx.errors import LegalityError, LooptxError, RecipeError, note_once, spelled_as_written
from looptx.frontend.names import spelled_members, to_model, to_user
from looptx.poly import deps as D
from looptx.poly.jam_locals import copy_cells
from looptx.poly.combine import combine
from looptx.poly import nonsingular as NS
from looptx.poly import parallel as PL
from looptx.poly import privatize as PV
from looptx.poly import schedule as S
from looptx.poly.gpu_checks import mapping_error
from looptx.poly.known_values import at_macro_value, known
from looptx.poly.variant import LoopDim, Variant, original, renames
from looptx.recipe.chill_lists import EARLIER, moved_along
from looptx.recipe.chill_nest import distribute_apart, permute_step
from looptx.recipe.chill_private import with_private_temporaries
from looptx.recipe.copy_steps import fits_the_stack, not_around_hint, shared_by_all_threads
from looptx.recipe.cuda_step import cuda_step
from looptx.recipe.exprs import to_isl
from looptx.recipe.fusing import (check_distribute_hint, distribute_groups_hint, fuse_refusal_hint, fuse_step,
                                  legal_at_file_values, legal_or_hoisted, say_fused)
from looptx.recipe.orio_cuda import as_mapping_refusal
from looptx.recipe.schema import Recipe, Step
from looptx.recipe.split_cond import split_cuts
from looptx.recipe.pragma_step import omp_for_step, pragma_text_step
from looptx.recipe.refusal import refuse, say_unrolled, unrolled_away
from looptx.recipe.team import team_loops, team_outermost


def _no_promotion_inside(v: Variant, st: Step) -> None:
    """Splitting or peeling a loop that holds a copy made by an earlier promotion step would
    give the copy's loop two bodies, each needing its own copy; not generated, so refused."""
    from looptx.poly.promote import promotions
    names = S.loop_names(v, st["stmt"])
    loop = S.resolve_name(v, st["stmt"], st["loop"])
    members = {v.pieces[k].stmt for k, _ in S.sharing(v, st["stmt"], loop)}
    for pr in promotions(v):
        if pr.stmt in members and pr.at in names and names.index(loop) <= names.index(pr.at):
            raise st.error(f"{st.name} of loop '{loop}', which holds the {pr.kind} of step {pr.step}",
                           hint=f"{st.name} before the {pr.kind} step")


def _peel(v: Variant, st: Step) -> Variant:
    _no_promotion_inside(v, st)
    # neither amount given: one iteration from the front, as CHiLL's peel(stmt, loop) does
    first = st.get("first", 0 if st.get("last") is not None else 1)
    return S.peel(v, st["stmt"], st["loop"], first, st.get("last", 0))


def _split(v: Variant, st: Step) -> Variant:
    _no_promotion_inside(v, st)
    stmt = st["stmt"]
    params = set(v.scop.params)
    at_isl = {}
    split_loop = S.resolve_name(v, stmt, st["loop"])
    cuts = split_cuts(v, st, split_loop, st["at"])
    for at in cuts[1:]:
        # an equality: the cut after it first, then the cut before it on every part
        v = _split(v, replace(st, args=tuple((k, at if k == "at" else x) for k, x in st.args)))
    at = cuts[0]
    stmt_loops = set(S.loop_names(v, stmt))
    for k, pos in S.sharing(v, stmt, split_loop):
        loops = S.loop_expr_map(v, k)
        # the loop itself and those inside it change within one iteration of the split loop
        outer = S.loops_outside(v, k, pos)

        def name(n, loops=loops, outer=outer):
            if n in outer:
                return f"({loops[n]})"
            if n in params:
                return n
            if n in loops or n in stmt_loops:
                raise RecipeError(f"'at' uses loop '{to_user(n)}', which is not outside loop "
                                  f"'{to_user(split_loop)}'",
                                  hint="'at' is an expression of the sizes and the loops around the split "
                                       f"loop ({', '.join(map(to_user, outer)) or 'none here'})")
            raise RecipeError(f"'{n}' in 'at' is neither a loop of statement {stmt} nor a parameter",
                              hint=f"loops: {', '.join(loops)}; parameters: {', '.join(sorted(params)) or 'none'}")
        at_isl[k] = to_isl(at, name)
    return S.split(v, stmt, st["loop"], at_isl)


def _known(v: Variant, st: Step) -> Variant:
    params = set(v.scop.params)

    def name(n):
        if n in params:
            return n
        raise RecipeError(f"'{n}' in a known fact is not a parameter of the region",
                          hint=f"parameters: {', '.join(sorted(params)) or 'none'}")
    out = known(v, [to_isl(f, name, condition=True) for f in st["facts"]])
    # a fact on #defined sizes alone is one the build can check (probe 58: `LEN2 % 4 == 1` with
    # `#ifndef LEN2 #define LEN2 256`, built as is, ran the unrolled code for 256)
    macros = set(v.scop.soft_macros) | {k for k, _ in v.scop.macro_values}
    checked = tuple(f for f in st["facts"] if isinstance(f, str)
                    and set(re.findall(r"[A-Za-z_]\w*", f)) <= macros and re.fullmatch(r"[\w\s%*/+\-<>=!&|()]+", f))
    return out.evolve(scop=replace(out.scop, macro_facts=out.scop.macro_facts + checked)) if checked else out


def _new_loop_name(v: Variant, st: Step, name: str, arg: str) -> str:
    """A step's new loop becomes a C variable next to the region's arrays and sizes."""
    if name in {a.name for a in v.scop.arrays} | set(v.scop.params):
        raise st.error(f"argument '{arg}': '{to_user(name)}' is already the name of an array or size "
                       "of the region", hint=f"give '{arg}' another name")
    return name


def _tile(v: Variant, st: Step) -> Variant:
    # default names are made from the user's spelling, so later steps can name them
    control = st.get("control")
    if control is None:
        # the name doubled, or where a tile of the loop made that one (CHiLL's two-level
        # tile(0,3,16,1), tile(0,4,4,2), which names nothing), the next one free
        user = to_user(S.resolve_name(v, st["stmt"], st["loop"]))
        taken = set(S.loop_names(v, st["stmt"])) | {a.name for a in v.scop.arrays} | set(v.scop.params)
        control = next((c for c in map(to_model, [user * 2] + [f"{user * 2}{n}" for n in range(2, 100)])
                        if c not in taken), to_model(user * 2))
    control = _new_loop_name(v, st, control, "control")
    loop = S.resolve_name(v, st["stmt"], st["loop"])
    v = S.tile(v, st["stmt"], st["loop"], st["size"], control)
    if st.get("name") and to_model(st["name"]) != loop:
        v = _renamed_loop(v, st, loop, _new_loop_name(v, st, to_model(st["name"]), "name"))
    outer = st.get("outer")
    if outer:
        names = S.loop_names(v, st["stmt"])
        names.remove(control)
        names.insert(min(outer, len(names) + 1) - 1, control)
        try:
            v = S.permute(v, st["stmt"], names)
        except RecipeError as e:
            # the permute is the step's own placing of its control loop
            e.what = e.what.replace("permute would split", f"placing control loop '{to_user(control)}' at level "
                                    f"{outer} would split")
            raise
    return v


def _renamed_loop(v: Variant, st: Step, old: str, new: str) -> Variant:
    """Loop `old` of the statement (and of those sharing it) named `new`; a control loop that
    names it as its tile loop follows."""
    sharing = S.sharing(v, st["stmt"], old)
    S._check_name_free(v, sharing, new)
    group = {k for k, _ in sharing}
    pieces = []
    for k, p in enumerate(v.pieces):
        if k in group:
            p = replace(p, dims=tuple(
                replace(d, name=new) if isinstance(d, LoopDim) and d.name == old else
                replace(d, counted=(new,) + tuple(d.counted[1:])) if isinstance(d, LoopDim) and d.counted
                and d.counted[0] == old else d for d in p.dims))
        pieces.append(p)
    return v.evolve(pieces=tuple(pieces))


def _distribute(v: Variant, st: Step) -> Variant:
    if st.get("groups") is not None:
        groups = st["groups"]
        flat = [s for g in groups for s in g]
        if len(flat) != len(set(flat)):
            raise st.error("a statement is in two groups", hint="list each statement in one group")
        return S.distribute(v, flat, st["loop"], groups=[sorted(set(g)) for g in groups])
    stmts = _stmts(v, st)
    if list(stmts) != sorted(set(stmts)):
        # CHiLL's distribute takes a set too: a list out of order is no reordering
        note_once(st.file or "recipe", st.line or 1,
                  f"step {st.index} ({st.name}): the copies of loop "
                  f"'{to_user(S.resolve_name(v, stmts[0], st['loop']))}' keep the "
                  f"statements' textual order ({', '.join(f'S{s}' for s in sorted(set(stmts)))}), not "
                  f"the order of stmts: {list(stmts)}")
    apart = distribute_apart(v, st, stmts)
    return apart if apart is not None else S.distribute(v, stmts, st["loop"])


def _stmts(v: Variant, st: Step) -> list[int]:
    stmts = st["stmts"]
    if stmts == "all":
        first = 0
        loop = S.resolve_name(v, first, st["loop"])
        return sorted({v.pieces[k].stmt for k, _ in S.sharing(v, first, loop)})
    return stmts


def _promotion(kind: str):
    def step(v: Variant, st: Step) -> Variant:
        try:
            return _promote(kind, v, st)
        except RecipeError:
            mapped = mapping_error(v)
            if mapped is None:
                raise
            # the copy failed for want of a valid mapping: the cuda step's own error is the one to fix
            raise mapped from None
    return step


def _promote(kind: str, v: Variant, st: Step) -> Variant:
    from looptx.poly.promote import Promotion, plan
    try:
        at = S.resolve_name(v, st["stmt"], st["at"])
    except RecipeError:
        if kind != "registers":
            raise
        # a loop an earlier step unrolled fully (Orio's unrolljam by the trip count before its
        # scalarreplace): the registers hold what its unrolled copies reuse
        at = S.resolve_name(v, st["stmt"], st["at"], hidden=True)
    written = at
    if st.get("around"):
        at = _loop_around(v, st, at, kind)
    _check_promotion_at(v, st, kind, at, written)
    if kind == "registers" and at == written:
        v = _sequential_inside_threads(v, st, at)
    if kind == "shared" and not st.get("around"):
        v = shared_by_all_threads(v, st, at)
    array = _array_of_refs(v, st) if st.get("refs") is not None else _model_array(v, st.get("array"))
    if kind == "datacopy" and array is None:
        raise st.error("datacopy needs the array to copy",
                       hint="give array: A, or CHiLL's refs: [1] (reference numbers)")
    pr = Promotion(kind, st["stmt"], array, at, st.get("pad", 0) or 0,
                   st.index, st.shown_name, st.file, st.line, st.get("align", 0) or 0)
    out = v.evolve(extra=v.extra + (pr,))
    try:
        planned = plan(out)        # report a bad footprint at this step, not at the end
    except RecipeError as e:
        if "no constant size" not in e.what:
            raise
        if at != written:       # around: true, or CHiLL's datacopy(s, "j", A)
            e.what += f" (the copy around loop '{to_user(written)}' is made once per iteration of '{to_user(at)}')"
        # a #defined size kept symbolic: as CHiLL does, copy at the file's value
        out = at_macro_value(out, plan, e, f"the copy of '{to_user(array or '')}' is made")
        planned = plan(out) if kind == "datacopy" else None
    if kind == "datacopy":
        fits_the_stack(planned, pr, st)
    return out


def _model_array(v: Variant, name: str | None) -> str | None:
    """The model's array for a member of an array of structs, as the user names it:
    `p.pos`, `p[].pos` or `p[][].pos` (frontend/records.py)."""
    if name is None:
        return name
    plain = re.sub(r"\[\s*\]|\s", "", name)
    # a member the region reads as a variable (`double *const g__hy = g->hy;`), as written
    chained = next((k for k, chain in v.scop.member_chains().items() if chain == plain), None)
    if chained is not None:
        return chained
    return next((r.name for r in v.scop.records if plain == r.base + r.path), name)


def _array_of_refs(v: Variant, st: Step) -> str:
    """The array that CHiLL's reference numbers name: a statement's array references are
    numbered as CHiLL's front end finds them, the written one first (a compound assignment's
    target once), then the ones it reads, left to right.  looptx copies every reference of an
    array, so the numbers must be all of that array's references."""
    s = v.scop.statements[st["stmt"]]
    scalar = {a.name for a in v.scop.arrays if a.is_scalar}
    writes = [a for a in s.accesses if a.kind == "write"]
    reads = [a for a in s.accesses if a.kind == "read"]
    if s.body.op != "=" and writes:
        # the read a compound assignment makes of its target is the same reference
        same = [k for k, a in enumerate(reads) if (a.array, a.index) == (writes[0].array, writes[0].index)]
        if same:
            del reads[same[-1]]
    refs = [a.array for a in writes + reads if a.array not in scalar]
    bad = [r for r in st["refs"] if r >= len(refs)]
    if bad:
        raise st.error(f"statement {st['stmt']} has no array reference {bad[0]} (it has "
                       f"{len(refs)}: {', '.join(f'{k} {a}' for k, a in enumerate(refs))})",
                       hint="number its array references from 0, the written one first")
    named = sorted({refs[r] for r in st["refs"]})
    if len(named) > 1:
        raise st.error(f"the references name several arrays ({', '.join(named)})",
                       hint="copy one array per datacopy")
    missing = [k for k, a in enumerate(refs) if a == named[0] and k not in st["refs"]]
    if missing:
        raise st.error(f"datacopy of some of the references of '{named[0]}' only: looptx copies "
                       f"every reference of an array (add reference {missing[0]})",
                       hint=f"list them all, or write array: {named[0]}")
    return named[0]


def _sequential_inside_threads(v: Variant, st: Step, at: str) -> Variant:
    """registers at a loop with sequential loops between it and the thread loops, or between
    those (CUDA-CHiLL's mm.lua: kk, i, jjj, iii, j with threads i, j): each thread runs them in the same
    order wherever they sit around its own thread loops, so they move inside the innermost
    thread loop, where the thread's elements no longer follow their values and the registers
    hold them across `at`.  Where the program's order forbids the move, the order stays."""
    from looptx.poly.gpu import mappings
    names = S.loop_names(v, st["stmt"])
    # the statement's own kernel's mapping (another nest's may name the same loops)
    m = next((m for m in mappings(v) if m.thread and all(t in names for t in m.thread) and st["stmt"] in
              {v.pieces[k].stmt for k, _ in S.sharing(v, m.stmt, (m.block + m.thread)[0])}), None)
    if m is None or at not in names:
        return v
    tpos = sorted(names.index(t) for t in m.thread)
    if tpos[0] <= names.index(at):
        return v
    between = [n for n in names[names.index(at) + 1:tpos[-1]] if n not in m.thread]
    from looptx.poly.promote import promotions
    # a copy an earlier step makes at one of them stays where the recipe put it
    if not between or any(n in m.block for n in between) or any(pr.at in between for pr in promotions(v)):
        return v
    order = [n for n in names if n not in between]
    k = order.index(names[tpos[-1]]) + 1
    order[k:k] = between
    try:
        moved = S.permute(v, st["stmt"], order)
        check_legal(moved, D.compute_deps(moved.scop))
    except LooptxError:
        return v
    note_once(st.file or "recipe", st.line or 1, f"step {st.index} ({st.shown_name}): loop"
              f"{'s' * (len(between) > 1)} {', '.join(repr(to_user(n)) for n in between)} between '{to_user(at)}' "
              "and the thread loops run inside them (each thread runs them in the same order), so that a thread "
              f"keeps its elements in registers across '{to_user(at)}'", per_line=True)
    return moved


def _loop_around(v: Variant, st: Step, at: str, kind: str) -> str:
    """CUDA-CHiLL copies before loop `at`, with the thread loops privatized: a shared copy
    belongs to the loop around `at`, and around the thread loops when it is one, made by all
    the block's threads together.  A datacopy or registers is one thread's own: around `at` is
    the loop around it, a thread loop included (the placement `at` that loop asks for)."""
    from looptx.poly.gpu import mappings
    names = S.loop_names(v, st["stmt"])
    threads = set() if kind != "shared" else {t for m in mappings(v) if m.thread and
               st["stmt"] in {v.pieces[k].stmt for k, _ in S.sharing(v, m.stmt, m.thread[0])}
               for t in m.thread}
    k = names.index(at)
    while k > 0 and names[k - 1] in threads:
        k -= 1
    if k == 0:
        raise st.error(f"no loop encloses '{at}' to make the copy in (looptx makes no copy before the "
                       "outermost loop of a region)",
                       hint=f"copy at '{at}' itself: once per iteration of '{at}', the footprint of the loops "
                            "inside it" if st.name == "datacopy" else
                            "copy at a loop inside it, or map an outer loop to blocks")
    return names[k - 1]


def _check_promotion_at(v: Variant, st: Step, kind: str, at: str, written: str) -> None:
    """A copy made at a block loop runs once per block: only `shared` at the innermost block
    loop is spread over the block's threads (and synchronized); a register (one thread's) or a
    shared copy at an outer block loop would be filled by the wrong threads."""
    from looptx.poly.gpu import mappings
    names = S.loop_names(v, st["stmt"])
    for m in mappings(v):
        if at not in m.block or not set(m.block) <= set(names) or \
                st["stmt"] not in {v.pieces[k].stmt for k, _ in S.sharing(v, m.stmt, m.block[0])}:
            continue
        innermost = max(m.block, key=names.index)
        if kind == "shared" and at == innermost:
            return
        where = f"loop '{at}'" if at == written else f"around '{written}', which is at loop '{at}'"
        if kind == "shared" and at != written and written == innermost:
            # it already names the innermost block loop: only `around` moves the copy out of it
            raise st.error(f"shared {where}, which is mapped to blocks: the copy would be made once per "
                           f"'{to_user(at)}', for all of its '{to_user(written)}' blocks, by the wrong threads",
                           hint=not_around_hint(st, to_user(written), [to_user(n) for n in names]))
        if kind == "registers":
            raise st.error(f"registers {where}, which is mapped to blocks: registers are one thread's, "
                           "and a block loop is not run by any one thread",
                           hint=f"put it at a loop inside the innermost block loop '{innermost}'")
        raise st.error(f"{kind} {where}, which is mapped to blocks: the copy would be "
                       "made by the wrong threads",
                       hint=f"put it at the innermost block loop '{innermost}' or at a loop inside "
                            "the thread loops" if kind == "shared" else
                       "put it at a loop inside the thread loops")


def _unroll_to_depth(v: Variant, st: Step) -> Variant:
    """Fully unroll the first `depth` loops inside the innermost thread loop (CUDA-CHiLL; the
    innermost block loop of a kernel without thread loops), or the
    innermost `depth` loops of statements no cuda step maps; loops without a constant trip count
    are left alone."""
    from looptx.poly.gpu import mappings
    depth = st["depth"]
    stmts = [st["stmt"]] if st.get("stmt") is not None else [s.id for s in v.scop.statements]
    # The loops are chosen before any is unrolled: a loop shared by two statements is unrolled
    # once, and a statement's next loop out does not become "innermost" in its place.
    before = v
    for s in stmts:
        names = S.loop_names(before, s)
        m = next((m for m in mappings(v) if s in {v.pieces[k].stmt for k, _ in
                                                  S.sharing(v, m.stmt, (m.block + m.thread)[0])}), None)
        # a kernel without thread loops runs the loops inside its innermost block loop in order
        mapped = ([t for t in m.thread if t in names] or [b for b in m.block if b in names]) if m else []
        if mapped:
            inner = max(names.index(t) for t in mapped)
            chosen = names[inner + 1:inner + 1 + depth]
        else:
            chosen = names[len(names) - depth:] if depth else []
        for name in reversed(chosen):
            if name not in S.loop_names(v, s):
                continue
            k, pos = S.locate(v, s, name)[0]
            if S.max_trip(v, S.sharing(v, s, name), pos) is not None:
                v = S.unroll(v, s, name, 0)
    return v


STEPS: dict[str, Callable[[Variant, Step], Variant]] = {
    "cuda": cuda_step,
    "shared": _promotion("shared"),
    "unroll_to_depth": _unroll_to_depth,
    "registers": _promotion("registers"),
    "datacopy": _promotion("datacopy"),
    "permute": permute_step,
    "tile": _tile,
    "split": _split,
    "unroll": lambda v, st: S.unroll(v, st["stmt"], st["loop"], st["factor"], jam=st.jam, apart=st.jam),
    "fuse": fuse_step,
    "distribute": _distribute,
    "skew": lambda v, st: S.skew(v, st["stmt"], st["loop"], st["by"]),
    "shift": lambda v, st: S.shift(v, st["stmt"], st["loop"], st["by"]) if st.get("stmts") is None
    else _listed_shift(v, st),
    "shift_to": lambda v, st: S.shift_to(v, st["stmt"], st["loop"], st["to"]),
    "peel": _peel,
    "reverse": lambda v, st: S.reverse(v, st["stmt"], st["loop"]),
    "scale": lambda v, st: NS.scale(v, st["stmt"], st["loop"], st["by"]),
    "nonsingular": lambda v, st: NS.nonsingular(v, st.get("stmt", 0), st["matrix"]),
    "combine": lambda v, st: combine(v, st["stmt"], st["loops"], _new_loop_name(v, st, st.get("name") or to_model(
        "".join(to_user(S.resolve_name(v, st["stmt"], x)) for x in st["loops"])), "name")),
    "known": _known,
    "privatize": lambda v, st: PV.privatize(v, st.get("stmt"), st["var"], st["at"]),
    "pragma": pragma_text_step,
    "omp_for": omp_for_step,
}


def _listed_shift(v: Variant, st: Step) -> Variant:
    """CHiLL's shift([1],1,4) moves the listed statements against the others of the loop; a
    shift moves the whole loop, so every statement it holds must be listed."""
    name = S.resolve_name(v, st["stmt"], st["loop"])
    held = sorted({v.pieces[k].stmt for k, _ in S.sharing(v, st["stmt"], name)})
    left = [s for s in held if s not in st["stmts"]]
    if left:
        raise st.error(f"shift of statements {st['stmts']} by {st['by']}: loop '{to_user(name)}' also holds "
                       f"statement{'s' if len(left) > 1 else ''} {', '.join(map(str, left))}, which a shift "
                       "of the loop would move too", hint=f"distribute first (distribute({held},{st['loop']}))"
                       if isinstance(st["loop"], int) else "distribute the loop first, then shift")
    return S.shift(v, st["stmt"], st["loop"], st["by"])


def register_step(name: str, fn: Callable[[Variant, Step], Variant]) -> None:
    """Later stages (promotions, GPU mapping) add their steps here."""
    STEPS[name] = fn


def check_legal(v: Variant, deps: D.Deps, st: Step | None = None) -> None:
    theta = v.schedule_map()
    all_deps = deps.all.intersect_params(v.context)
    if not D.respects(all_deps, theta):
        bad = D.violated(deps, theta)
        bad = [(d, r.intersect_params(v.context)) for d, r in bad]
        bad = [(d, r.subtract(PL.reordered_updates(v, d, r))) for d, r in bad if not r.is_empty()]
        bad = [(d, r) for d, r in bad if not r.is_empty()]
        if bad:
            refuse(v, deps, bad, st)
    from looptx.poly.gpu import mappings
    from looptx.poly.gpu_checks import check, mapped_loops_kept
    if mappings(v):
        mapped_loops_kept(v, st.index if st is not None else None)
        check(v, deps)                     # mapped loops carry no dependence
    PL.check_parallel(v, deps)
    copies = copy_cells(v)
    overlap = D.lifetime_overlap(deps, theta, copies)
    if overlap:
        # a jam's copies of the local are told apart only while its strips stay whole
        jammed = copies or any(h.startswith("unroll:") for h in v.history)
        raise LegalityError(overlap, hint=("where an unroll_jam gave each of its copies the local of its own, only "
                                           "whole strips of the jammed loop keep them apart: leave the loops inside it "
                                           "uncut (no peel or split of them, before or after the jam), or make the local "
                                           "an array indexed by the loop" if jammed else
                                           "keep the statements that use it together, one iteration after another, or "
                                           "make it an array indexed by the loop") + "; or pass --unsafe",
                            file=st.file if st else None, line=st.line if st else None,
                            step=st.index if st else None, step_name=st.shown_name if st else None)


def apply_recipe(scop, recipe: Recipe, **options) -> Variant:
    """Options: deps, unsafe, trace (called after each step), start (a variant to go on from)."""
    with spelled_as_written(spelled_members(scop.member_chains())):
        return _apply(scop, recipe, **options)


def _apply(scop, recipe: Recipe, *, deps: D.Deps | None = None, unsafe: bool = False,
           trace: Callable[[Step, Variant], None] | None = None, start: Variant | None = None) -> Variant:
    v = start or original(scop, team=False)
    deps = deps if deps is not None or unsafe else D.compute_deps(scop)
    if start is None and scop.team:
        v, deps = team_loops(v, deps, unsafe)
    removed: dict[tuple[int, str], tuple[Step, int]] = {}
    renamed_by: dict = {}              # (statement, old loop name) -> (fuse step, Renamed)
    for st in recipe.steps:
        fn = STEPS.get(st.name)
        if fn is None:
            raise st.error(f"step '{st.name}' is not available for this target",
                           hint="cuda/shared steps need --target cuda")
        before = v
        moved = moved_along(v, st) if st.get(EARLIER) else None
        if moved is not None:
            note_once(st.file or "recipe", st.line, f"step {st.index} ({st.shown_name}): statement {st['stmt']} is "
                      f"inside loop '{to_user(moved[1])}' with statement {moved[0]}, which the same command "
                      "listed before it: that step moved it already", per_line=True)
            continue
        try:
            v = fn(v, st)
            v = v.evolve(history=v.history + (st.describe(),))
            if v.scop is not before.scop and not unsafe:
                deps = D.compute_deps(v.scop)       # privatize: fewer dependences from now on
            if not unsafe:
                try:
                    v = legal_or_hoisted(v, before, st, lambda w: check_legal(w, deps, st))
                except LegalityError:
                    pinned = legal_at_file_values(v, lambda w: check_legal(w, deps, st))
                    if pinned is None:
                        raise
                    v = pinned
        except LooptxError as e:
            # (a CHiLL script's temporaries are each iteration's own, as in CHiLL)
            v = None if unsafe else with_private_temporaries(
                before, st, e, lambda steps: _apply(scop, Recipe(steps), deps=deps, start=before))
            if v is None:
                if st.optional:
                    v = before
                    note_once(st.file or "recipe", st.line, f"step {st.index} ({st.shown_name}) is left out "
                              f"(a hint of the annotation, which does not apply here): {e.what}", per_line=True)
                    continue
                if removed and type(e) is RecipeError:
                    say_unrolled(e, removed, before)
                if renamed_by and type(e) is RecipeError:
                    say_fused(e, renamed_by)
                if type(e) is RecipeError and not unsafe:      # a permute's, a tile's (poly/schedule.py)
                    check_distribute_hint(e, before, lambda w: check_legal(w, deps))
                if isinstance(e, LegalityError):
                    as_mapping_refusal(e, st)
                if st.jam and e.hint and "(privatize(" in e.hint:
                    # an Orio Loop annotation has no privatize step: a declaration in the loop is one
                    e.hint = re.sub(r"a step 'privatize: \{var: (\w+), at: (\w+)\}' \(privatize\([^)]*\) in a CHiLL "
                                    r"script\) before this one removes it",
                                    r"declaring '\1' inside loop '\2' in the annotated code removes it (Orio's "
                                    r"annotation has no privatize step; each jammed copy then gets its own)",
                                    e.hint).replace("and one such step for each of", "and the same for each of")
                if st.name == "distribute" and isinstance(e, LegalityError) and st.get("groups") is None:
                    e.hint = distribute_groups_hint(before, st, e.hint, lambda w: check_legal(w, deps))
                if st.name == "fuse" and isinstance(e, LegalityError):
                    fuse_refusal_hint(e, before, st, lambda w: check_legal(w, deps))
                if e.step is None and st.file is not None and e.file not in (None, st.file):
                    # a check that knew only the region's line: a step's error is at the step
                    e.file, e.line, e.col = st.file, st.line, None
                raise e.located(file=st.file, line=st.line, step=st.index, step_name=st.shown_name)
            if v.scop is not before.scop:
                deps = D.compute_deps(v.scop)
        for stmt, name, trip in unrolled_away(before, v):
            removed.setdefault((stmt, name), (st, trip))
        for r in renames(v)[len(renames(before)):]:
            renamed_by[(r.stmt, r.old)] = (st, r)
        if trace is not None:
            trace(st, v)
    if start is None and scop.team:
        v = team_outermost(v, deps, unsafe)
    if not unsafe and recipe.steps:
        v = _rows_checked(v, recipe.steps[-1])
    return v.evolve(unchecked=True) if unsafe else v


def _rows_checked(v: Variant, last: Step) -> Variant:
    """poly/row_leave.rows_kept of the recipe's result: refused, at its last step, where the
    order it makes meets a row left at every size of interest."""
    from looptx.poly.gpu import mappings
    from looptx.poly.row_leave import rows_kept
    from looptx.poly.variant import LoopDim
    # an unroll hint reorders nothing; any other pragma (omp, acc, ivdep, simd) may
    parallel = bool(mappings(v)) or any(not re.match(r"\s*(GCC\s+unroll|unroll|nounroll|clang\s+loop\s+unroll)\b", t)
                                        for q in v.pieces for d in q.dims if isinstance(d, LoopDim) for t in d.pragmas)
    kept = rows_kept(v, parallel)
    if kept is None:
        lv = v.scop.row_leaving
        raise LegalityError(f"{lv.what} ({lv.path}:{lv.line}), {lv.sizes}, and the recipe reorders such a pair, "
                            "runs a loop over it in parallel or copies the array (a copy gives the two names "
                            "of one element a cell each)",
                            hint="keep the subscripts inside their extents (a loop bound one lower, or a bigger "
                                 "declared extent), or pass --unsafe",
                            file=last.file, line=last.line, step=last.index, step_name=last.shown_name)
    return kept
