"""The copy steps (registers, shared, datacopy): where each copy is made (a loop, around it,
each thread's own inside the thread loops), and the array or struct members it copies."""
from __future__ import annotations

import re
from dataclasses import replace

from looptx.errors import LooptxError, RecipeError, note_once
from looptx.frontend.names import to_user
from looptx.poly import deps as D
from looptx.poly import schedule as S
from looptx.poly.gpu_checks import mapping_error
from looptx.poly.known_values import at_macro_value
from looptx.poly.variant import Variant
from looptx.recipe.copy_steps import fits_the_stack, not_around_hint, shared_by_all_threads
from looptx.recipe.schema import Step


def promotion(kind: str):
    def step(v: Variant, st: Step) -> Variant:
        try:
            members = _struct_members(v, st)
            if members:
                # CUDA-CHiLL's copy_to_shared("tx","kVals",1) of an array of structs (mriq): the
                # copy of each member the region reads, an array of its own in the model
                note_once(st.file or "recipe", st.line, f"step {st.index} ({st.shown_name}): '{st['array']}' is an "
                          f"array of structs, copied one member at a time: {', '.join(m for _, m in members)}",
                          per_line=True)
                for name, _ in members:
                    v = _promote(kind, v, replace(st, args=tuple((k, name if k == "array" else x) for k, x in st.args)))
                return v
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
    if st.get("around") or st.get("private") is not None and not _privatized_at(v, st, at):
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
                   st.index, st.shown_name, st.file, st.line, st.get("align", 0) or 0, tuple(st.get("layout") or ()))
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


def _struct_members(v: Variant, st: Step) -> list[tuple[str, str]]:
    """(model name, as written) of the members the step's statement uses of the array of
    structs it names; [] where it names an array."""
    name = st.get("array")
    if not isinstance(name, str) or st.get("refs") is not None:
        return []
    base = re.sub(r"\[\s*\]|\s", "", name)
    if any(a.name == base for a in v.scop.arrays) or not any(r.base == base for r in v.scop.records):
        return []
    # (of the statements in the copy's loop, to which the step applies)
    try:
        stmts = {v.pieces[k].stmt for k, _ in S.sharing(v, st["stmt"], S.resolve_name(v, st["stmt"], st["at"]))}
    except RecipeError:
        stmts = {st["stmt"]}
    used = {a.array for s in stmts for a in v.scop.statements[s].accesses}
    return [(r.name, r.base + r.path) for r in v.scop.records if r.base == base and r.name in used]


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
        from looptx.recipe.apply import check_legal
        check_legal(moved, D.compute_deps(moved.scop))
    except LooptxError:
        return v
    note_once(st.file or "recipe", st.line or 1, f"step {st.index} ({st.shown_name}): loop"
              f"{'s' * (len(between) > 1)} {', '.join(repr(to_user(n)) for n in between)} between '{to_user(at)}' "
              "and the thread loops run inside them (each thread runs them in the same order), so that a thread "
              f"keeps its elements in registers across '{to_user(at)}'", per_line=True)
    return moved


def _privatized_at(v: Variant, st: Step, at: str) -> bool:
    """Whether CHiLL's datacopy_privatized holds the copy's loop `at` itself fixed (a copy per
    iteration of it); refused where it holds a loop inside `at`: a copy for each iteration of
    that loop would be made before it starts, which looptx does not make."""
    names = S.loop_names(v, st["stmt"])
    held = [S.resolve_name(v, st["stmt"], p) for p in st["private"]]
    inside = [h for h in held if names.index(h) > names.index(at)]
    if inside:
        said = ", ".join(f"'{to_user(h)}'" for h in inside)
        last, array = to_user(inside[-1]), st.get("array")
        script = st.text.startswith("datacopy_priv")
        raise st.error(f"the privatized loop{'s' if len(inside) > 1 else ''} {said} inside the copy's loop "
                       f"('{to_user(at)}') cannot be honoured: looptx makes no private copy for each iteration "
                       "of a loop inside the copy",
                       hint=(f'write datacopy({st["stmt"]},"{last}","{array}") for a copy made in each iteration of '
                             f'\'{last}\', or datacopy({st["stmt"]},"{to_user(at)}","{array}") for one copy they share'
                             if script else f"copy at '{last}' for a copy made in each iteration of it, or hold "
                             f"only loops around '{to_user(at)}'") + " (the same results)")
    return at in held


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
