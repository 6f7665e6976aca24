"""Typed steps -> Variant, with the exact legality check after every step."""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Callable

from looptx.errors import LegalityError, LooptxError, RecipeError, note_once, spelled_as_written
from looptx.frontend.names import spelled_members, to_model, to_user
from looptx.poly import deps as D
from looptx.poly import legal_since as LS
from looptx.poly.jam_locals import copy_cells
from looptx.poly.combine import combine
from looptx.poly import nonsingular as NS
from looptx.poly import parallel as PL
from looptx.poly import privatize as PV
from looptx.poly import schedule as S
from looptx.poly.shift_to import VaryingStart, shift_to
from looptx.poly.known_values import known
from looptx.poly.variant import LoopDim, Variant, original, renames
from looptx.recipe.chill_lists import EARLIER, moved_along
from looptx.recipe.chill_nest import distribute_apart, permute_step
from looptx.recipe.chill_private import with_private_temporaries
from looptx.recipe.promotion_step import promotion
from looptx.recipe.cuda_step import cuda_step
from looptx.recipe.exprs import to_isl
from looptx.recipe.fusing import (check_distribute_hint, distribute_groups_hint, fuse_refusal_hint, fuse_step,
                                  legal_at_file_values, legal_or_hoisted, say_fused)
from looptx.recipe.orio_cuda import as_mapping_refusal
from looptx.recipe.schema import Recipe, Step
from looptx.recipe.split_cond import split_cuts
from looptx.recipe.pragma_step import omp_for_step, pragma_refusal_hint, pragma_text_step
from looptx.recipe.refusal import refuse, say_unrolled, unrolled_away, unrolled_by
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
        clash = to_model(user * 2)
        if control != clash and clash not in S.loop_names(v, st["stmt"]):
            # (a size or an array of that name: a later step that names the loop must know)
            note_once(st.file or "recipe", st.line, f"step {st.index} (tile): '{user * 2}' names "
                      f"{'a size' if clash in v.scop.params else 'an array'} of the region, so the control "
                      f"loop is '{to_user(control)}' (give control: NAME to choose)", per_line=True)
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
    if st.get("moved") and st["size"] == 1:
        # CUDA-CHiLL's move (tile_cuda): the moved loop keeps its name, which later commands and
        # cudaize's block/thread lists use; the one-iteration loop left behind takes the other
        for old, new in ((control, "lx_moved"), (loop, control), ("lx_moved", loop)):
            v = _renamed_loop(v, st, old, new)
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
    "shared": promotion("shared"),
    "unroll_to_depth": _unroll_to_depth,
    "registers": promotion("registers"),
    "datacopy": promotion("datacopy"),
    "permute": permute_step,
    "tile": _tile,
    "split": _split,
    "unroll": lambda v, st: S.unroll(v, st["stmt"], st["loop"], st["factor"], jam=st.jam, apart=st.jam),
    "fuse": fuse_step,
    "distribute": _distribute,
    "skew": lambda v, st: S.skew(v, st["stmt"], st["loop"], st["by"], scheduled=bool(st.get("chill"))),
    "shift": lambda v, st: S.shift(v, st["stmt"], st["loop"], st["by"], scheduled=bool(st.get("chill")))
    if st.get("stmts") is None else _listed_shift(v, st),
    "shift_to": lambda v, st: shift_to(v, st["stmt"], st["loop"], st["to"]),
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
    return S.shift(v, st["stmt"], st["loop"], st["by"], scheduled=bool(st.get("chill")))


def register_step(name: str, fn: Callable[[Variant, Step], Variant]) -> None:
    """Later stages (promotions, GPU mapping) add their steps here."""
    STEPS[name] = fn


def check_legal(v: Variant, deps: D.Deps, st: Step | None = None, since: Variant | None = None) -> None:
    """Refuses a variant that breaks a dependence, runs a dependence across a parallel or mapped
    loop, or overlaps a local's lifetimes.  `since`: the variant the step started from."""
    theta = None
    if not LS.respects_since(v, deps, since):
        theta = v.schedule_map()
        if D.respects(deps.all.intersect_params(v.context), theta):
            LS.mark_respected(v)
    if theta is not None and not LS.is_respected(v):
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
    if not any(a.private_depth for a in v.scop.arrays):
        return
    copies = copy_cells(v)
    overlap = D.lifetime_overlap(deps, v.schedule_map() if theta is None else theta, copies)
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
    after: list[tuple[Step, Variant]] = []     # each step's result
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
                    v = legal_or_hoisted(v, before, st, lambda w: check_legal(w, deps, st, since=before))
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
                # (cudaize's normalize_index: only of a loop whose start varies with the loops around it)
                if st.optional and (st.spelled != "normalize_index" or isinstance(e, VaryingStart)):
                    v = before
                    note_once(st.file or "recipe", st.line, f"step {st.index} ({st.shown_name}) is left out "
                              f"({'a hint of the annotation' if not st.spelled else st.spelled + ' of the script'}, which "
                              f"does not apply here): {e.what}", per_line=True)
                    if trace is not None:
                        trace(st, v)
                    continue
                by = unrolled_by(e, removed) if removed and type(e) is RecipeError else None
                if by is not None and st.name in ("omp_for", "pragma") and "# Orio" in (st.text or ""):
                    # Orio keeps a loop that runs once and puts its pragma there (probe 229 G1)
                    note_once(st.file or "recipe", st.line, f"the pragma of step {st.index} ({st.shown_name}) is "
                              f"dropped: step {by.index} ({by.name}) unrolled its loop fully at these sizes, so the "
                              "output has no loop to put it on", per_line=True)
                    v = before
                    if trace is not None:
                        trace(st, v)
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
                if st.name == "pragma" and isinstance(e, LegalityError):
                    e.hint = pragma_refusal_hint(e.hint, st)
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
        after.append((st, v))
    copies_kept(after)
    if start is None and scop.team:
        try:
            v = team_outermost(v, deps, unsafe)
        except LegalityError as e:
            # said at the step after which the team's loop carries a dependence
            st = next((st for st, w in after if _team_refuses(w, deps, unsafe)), None)
            if st is None or st.file is None:
                raise
            e.file, e.line, e.col = st.file, st.line, None
            raise e.located(step=st.index, step_name=st.shown_name) from None
    if not unsafe and recipe.steps:
        v = _rows_checked(v, recipe.steps[-1])
    return v.evolve(unchecked=True) if unsafe else v


def _team_refuses(v: Variant, deps, unsafe: bool) -> bool:
    try:
        team_outermost(v, deps, unsafe)
        return False
    except LegalityError:
        return True


def copies_kept(after: list[tuple[Step, Variant]]) -> None:
    """A copy step's buffer that a later step's loops undo (a permute that makes the copy's loop
    span every tile, probe 206 G2) is refused at that later step, not at the copy's own."""
    from looptx.poly.promote import plan, promotions
    # (a copy step plans every copy made so far: after one, all are known to fit)
    if not after or after[-1][0].name in ("datacopy", "shared", "registers") or not promotions(after[-1][1]):
        return
    try:
        plan(after[-1][1])
        return
    except RecipeError as e:
        if e.step is None or e.step >= after[-1][0].index or "no constant size" not in e.what:
            return                      # (codegen reports it as before)
        first = e.step
    for st, v in after:
        if st.index <= first:
            continue
        try:
            plan(v)
        except RecipeError as e:
            if e.step != first:
                return
            raise RecipeError(f"{e.what.split(' (the copy around')[0]} after this step: the {e.step_name} of step "
                              f"{first} copies at the loops this step leaves",
                              hint=f"change this step, or make the {e.step_name} after it",
                              file=st.file, line=st.line, step=st.index, step_name=st.shown_name) from None


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
