"""The recipe's fuse step: which loops to fuse (one name, a level, or a name per statement),
the note that says which loops a fuse renamed, and the message for a later step that names a
loop by the name it had before."""
from __future__ import annotations

import itertools
import re

from looptx.errors import LegalityError, LooptxError, RecipeError, note_once
from looptx.frontend.names import to_user
from looptx.poly import fusion as F
from looptx.poly import schedule as S
from looptx.poly.parallel import check_stacked
from looptx.poly.variant import Renamed, Variant, renames
from looptx.recipe.chill_private import is_script_command
from looptx.recipe.schema import Step


def fuse_step(v: Variant, st: Step) -> Variant:
    """`fuse {stmts, loop: i}` fuses the loops every listed statement calls `i`; `level: N` (or
    an integer `loop`, as CHiLL's fuse([0,1],1) gives it) the N-th loop of each, counted from
    the outermost; `loops: [i, j]` the loop each statement names, in the order of `stmts`.  The
    fused loop keeps the first (lowest-numbered) statement's name; see poly/fusion.py for the
    renames, which a note lists."""
    stmts = st["stmts"]
    if stmts == "all":
        if st.get("loops") is not None:
            raise st.error("fuse: 'loops' names one loop per statement, so 'stmts' must list them",
                           hint="write stmts: [0, 1] with loops: [i, j]")
        spec = st.get("level") or st["loop"]
        stmts = sorted({v.pieces[k].stmt for k, _ in S.sharing(v, 0, S.resolve_name(v, 0, spec))})
    try:
        out = F.fuse(v, stmts, st.get("loop"), level=st.get("level"), loops=st.get("loops"))
    except RecipeError as e:
        if e.hint and _REVERSES.search(e.hint):
            _legal_reverses(v, st, stmts, e)
        # a script's remedy in the script's own form: fuse([0,1],1) is told reverse(1,1)
        if e.hint and is_script_command(st):
            e.hint = _REVERSE.sub(lambda m: f"reverse({m.group(1)},{m.group(2)})", e.hint)
        raise
    check_stacked(out)
    new = renames(out)[len(renames(v)):]
    if new:
        note_once(st.file or "recipe", st.line, f"step {st.index} (fuse): " + _say_renamed(new))
    if out.pieces == v.pieces:
        _say_shared_already(v, st, stmts)
    return out


def _say_shared_already(v: Variant, st: Step, stmts) -> None:
    """A fuse of loops the statements share already (CHiLL's AKp256: fuse([0,1],1) of two `i`
    loops inside one `j`) changes nothing: said, with the level that would fuse the loops inside."""
    level = st.get("level") or (st.get("loop") if isinstance(st.get("loop"), int) else None)
    deeper = ""
    if level is not None and all(len(p.dims) > level for p in v.pieces if p.stmt in stmts):
        deeper = (f" (fuse([{','.join(map(str, stmts))}],{level + 1}) fuses the loops inside it)"
                  if is_script_command(st) else f" (level: {level + 1} fuses the loops inside it)")
    note_once(st.file or "recipe", st.line, f"step {st.index} (fuse): statements {', '.join(map(str, stmts))} "
              f"share {'that loop' if level is None else f'their loops down to level {level}'} already: "
              f"nothing to do{deeper}", per_line=True)


def _legal_reverses(v: Variant, st: Step, stmts, e: RecipeError) -> None:
    """The hint of a fuse of loops that run opposite ways names only the reverses after which
    the fuse keeps every dependence; with three statements or more that may take several
    (two of three reversed by the recipe: both back), and none where the loops carry
    dependences in opposite directions (two recurrences)."""
    from looptx.poly import deps as D
    from looptx.recipe.apply import check_legal
    deps = D.compute_deps(v.scop)

    def tried(w0: Variant, m) -> tuple[bool, Variant | None, str | None]:
        """(whether the fuse is legal after this reverse, the reversed variant, the hint of a
        mismatch left after it)"""
        loop = m.group(2).strip()
        try:
            w = S.reverse(w0, int(m.group(1)), int(loop) if loop.isdigit() else loop)
            check_legal(w, deps)
        except LooptxError:
            return False, None, None
        try:
            check_legal(F.fuse(w, stmts, st.get("loop"), level=st.get("level"), loops=st.get("loops")), deps)
        except RecipeError as again:
            return False, w, again.hint if again.hint and _REVERSES.search(again.hint) else None
        except LooptxError:
            return False, None, None
        return True, w, None

    first = [(m, *tried(v, m)) for m in _REVERSES.finditer(e.hint)]
    good = [(m.group(0),) for m, ok, _, _ in first if ok]
    # (the reverses a mismatch left asks for, depth first, a few tries at most)
    todo = [(w, hint, (m.group(0),)) for m, ok, w, hint in first if not ok and hint]
    tries = 0
    while todo and not good and tries < 4 * len(stmts):
        w0, hint, done = todo.pop(0)
        for m in _REVERSES.finditer(hint):
            tries += 1
            ok, w, again = tried(w0, m)
            if ok:
                good = [done + (m.group(0),)]
                break
            if again and len(done) + 1 < len(stmts):
                todo.append((w, again, done + (m.group(0),)))
    if not good:
        # a reverse after which the fuse needs a shift too (probe 223 G1's pair, one loop
        # reversed by the recipe: the other reversed, then the consumer by -1)
        for m, _, w, _ in first:
            shifts = shifts_that_fuse(w, st, lambda x: check_legal(x, deps)) if w is not None else None
            if shifts:
                e.hint = (f"reverse it first ({m.group(0)}), then {_shifts_text(w, st, shifts)} (the dependence "
                          "has a constant distance)")
                return
        # (which dependence a reverse breaks, of one nest or between the two, is the tried step's
        # to say: probe 217 G2's loops carry none, and their fusion reversed breaks S0 -> S1)
        e.hint = "no reverse of these loops lets them run together in one direction keeping every " \
                 "dependence: keep them apart"
    elif len(good) == 1:
        e.hint = f"reverse {'it' if len(good[0]) == 1 else 'them'} first ({', then '.join(good[0])})"


_REVERSES = re.compile(r"reverse \{stmt: (\d+), loop: ([^}]+)\}")
_REVERSE = re.compile(r"reverse \{stmt: (\d+), loop: (\d+)\}")


def _say_renamed(new: list[Renamed]) -> str:
    parts = []
    for stmt in sorted({r.stmt for r in new}):
        mine = [r for r in new if r.stmt == stmt]
        said = [f"loop '{r.old}' is now '{r.new}'" + (f" (fused with statement {r.lead}'s)" if r.lead >= 0
                                                      else " (its name went to a fused loop)")
                for r in mine]
        parts.append(f"in statement {stmt}, " + ", ".join(said))
    return to_user("; ".join(parts))


_NO_LOOP = re.compile(r"statement (\d+) has no loop named '(.+)'")


def say_fused(e: LooptxError, renamed_by: dict[tuple[int, str], tuple[Step, Renamed]]) -> None:
    """A step that names a loop by the name it had before a fuse renamed it is told the new
    name: "no loop named 'j'" alone sends the user looking for a typo."""
    m = _NO_LOOP.fullmatch(e.what)
    hit = renamed_by.get((int(m.group(1)), m.group(2))) if m else None
    if hit is None:
        return
    by, r = hit
    how = f"fused it into loop '{r.new}' of statement {r.lead}" if r.lead >= 0 else f"renamed it '{r.new}'"
    e.what = f"statement {r.stmt} has no loop named '{r.old}' any more: step {by.index} ({by.name}) {how}"
    e.hint = f"name it '{r.new}'"


MAX_SHIFT = 4          # Pluto's multi-statement stencils fuse after shifts of 1 to 4
MAX_SHIFTED_LOOPS = 3  # the fused loop and up to two around it: 125 tries at most
MAX_LONE_SHIFT = 16    # the fused loop alone, after those


def shifts_that_fuse(before: Variant, st: Step, legal) -> list[tuple[int, str, int]] | None:
    """For a fuse that breaks a dependence: (statement, loop, amount) of the shifts of the
    later statements, the least in total up to MAX_SHIFT per loop, of the fused loop and the
    loops around it (a 2-D stencil's pair, Pluto's jacobi-2d: i by 1 and j by 1), after which
    the fuse keeps every dependence (`legal(variant)` raises where it does not); None when
    there are none."""
    stmts, loops = st["stmts"], st.get("loops")
    if stmts == "all" or len(stmts) < 2:
        return None
    out, v = [], before
    for k in range(1, len(stmts)):
        spec = loops[k] if loops else (st.get("level") or st.get("loop"))
        try:
            name = S.resolve_name(v, stmts[k], spec)
            names = S.loop_names(v, stmts[k])
            names = names[:names.index(name) + 1][-MAX_SHIFTED_LOOPS:]
        except (LooptxError, ValueError):
            return None
        # the loops nearest the fused one first: a shift of an outer loop (an image pipeline's
        # channel `c` by 1) fuses too, but runs a whole row or plane of the producer ahead, where
        # `y` by 4 keeps producer and consumer a few rows apart; the fused loop alone also by
        # more (a radius-5..16 stencil pair, Devito's space orders)
        def outermost(a):
            return next((j for j, x in enumerate(a) if x), len(a))
        tries = sorted(itertools.product(range(MAX_SHIFT + 1), repeat=len(names)),
                       key=lambda a: (-outermost(a), sum(a), a[::-1]))
        lone = [(0,) * (len(names) - 1) + (by,) for by in range(MAX_SHIFT + 1, MAX_LONE_SHIFT + 1)]
        k_lone = next((j for j, a in enumerate(tries) if outermost(a) < len(names) - 1), len(tries))
        tries = tries[:k_lone] + lone + tries[k_lone:]
        trips = _trips(v, stmts[k], names)
        # a loop that runs downwards is shifted the other way (probe 223 G1: a fuse of two reversed
        # loops was told that no shift made it legal; by -1 did)
        signs = [-1 if any(v.pieces[j].dims[pos].reversed for j, pos in S.locate(v, stmts[k], x)) else 1
                 for x in names]
        for amounts in tries:
            amounts = tuple(by * sign for by, sign in zip(amounts, signs))
            # a shift by the loop's trip count less one, at sizes -D fixed (Pluto's matmul-seq
            # at N = 16: `j` by 15), runs the statements one after the other: fused in name
            # only, and legal at that size alone
            if any(t is not None and by and abs(by) >= t - 1 for by, t in zip(amounts, trips)):
                continue
            try:
                moved = v
                for loop, by in zip(names, amounts):
                    if by:
                        moved = S.shift(moved, stmts[k], loop, by)
                legal(F.fuse(moved, stmts[:k + 1], st.get("loop"), level=st.get("level"),
                             loops=loops[:k + 1] if loops else None))
            except LooptxError:
                continue
            v = moved
            out += [(stmts[k], to_user(loop), by) for loop, by in zip(names, amounts) if by]
            break
        else:
            return None
    return out or None


def _shifts_text(v: Variant, st: Step, shifts) -> str:
    """The shift steps of a hint, in the recipe's own form."""
    return " and ".join(_script_shift(v, s, name, by) if is_script_command(st) else
                        f"'shift: {{stmt: {s}, loop: {name}, by: {by}}}'" for s, name, by in shifts)


def _script_shift(v: Variant, stmt: int, name: str, by: int) -> str:
    """A shift of the loop's counter by `by` as a CHiLL script writes it: of the loop's level,
    by the schedule's value, which a reversed loop counts negated."""
    from looptx.frontend.names import to_model
    model = to_model(name)
    down = any(v.pieces[j].dims[pos].reversed for j, pos in S.locate(v, stmt, model))
    return f"'shift([{stmt}],{S.loop_names(v, stmt).index(model) + 1},{-by if down else by})'"


def _trips(v: Variant, stmt: int, names) -> list:
    """The largest trip count of each loop `names` of statement `stmt`, where a constant."""
    from looptx.poly.trips import max_trip
    out = []
    for name in names:
        try:
            group = S.sharing(v, stmt, name)
            out.append(max_trip(v, group, group[0][1]))
        except (LooptxError, IndexError):
            out.append(None)
    return out


def distribute_groups_hint(before: Variant, st: Step, hint: str | None, legal) -> str | None:
    """After a refused `distribute {stmts}`: the groups form that keeps each part of the loop's
    body (a sub-nest, a statement) in one copy, when there is more than one part (Nekbone's
    ax_e, two sibling nests in `e`; COSMO's forward and backward sweeps in `i`) and that form
    keeps the dependences (`legal(variant)` raises where it does not)."""
    try:
        first = _stmt_list(before, st)[0]
        name = S.resolve_name(before, first, st["loop"])
        parts: dict = {}
        for k, pos in S.sharing(before, first, name):
            p = before.pieces[k]
            if pos + 1 < len(p.dims):
                parts.setdefault(p.dims[pos + 1], set()).add(p.stmt)
    except (RecipeError, KeyError, IndexError):
        return hint
    if len(parts) < 2 or all(len(x) == 1 for x in parts.values()):
        return hint
    try:
        split = [sorted(x) for _, x in sorted(parts.items())]
        legal(S.distribute(before, [s for g in split for s in g], name, groups=split))
    except LooptxError:
        return hint
    groups = ", ".join("[" + ", ".join(map(str, sorted(x))) + "]" for _, x in sorted(parts.items()))
    return (hint or "") + f"; to give each part of loop '{to_user(name)}' one copy, with the loops " \
        f"inside it whole: distribute {{groups: [{groups}], loop: {to_user(name)}}}"


def _stmt_list(v: Variant, st: Step) -> list[int]:
    stmts = st["stmts"]
    if stmts == "all":
        return [0]
    return sorted(stmts)


def legal_or_hoisted(v: Variant, before: Variant, st: Step, legal) -> Variant:
    """`v` if legal; for a fuse, else the fused code with the statements that sat between the
    loops moved before the fused loop, if that is legal (Nekbone's `rtr = 0.0;` between the
    update loop and the dot product)."""
    try:
        legal(v)
        return v
    except LegalityError as e:
        if st.name != "fuse" or st["stmts"] == "all":
            raise
        spec = st["loops"][0] if st.get("loops") else st.get("level") or st.get("loop")
        hoisted = F.hoist_between(before, v, sorted(st["stmts"]), spec)
        if hoisted is None:
            raise
        alt, moved = hoisted
        try:
            legal(alt)
        except LooptxError:
            raise e from None
        note_once(st.file or "recipe", st.line, f"step {st.index} (fuse): statement"
                  f"{'s' if len(moved) > 1 else ''} {', '.join(map(str, moved))} between the loops now "
                  "run{} before the fused loop".format("" if len(moved) > 1 else "s"))
        return alt


_DISTRIBUTE_FIRST = re.compile(r"distribute the statements first \(distribute \{stmts: \[(\d+)\], loop: (\S+?)\}\)")


def check_distribute_hint(e: LooptxError, before: Variant, legal) -> None:
    """A permute that would split a loop suggests distributing it first; where that distribute
    is itself illegal (Kernel Tuner's matmul: `float sum = 0.0;` per iteration of the loop, read
    by the other statement), the hint says so instead of sending the user into a second refusal."""
    m = _DISTRIBUTE_FIRST.search(e.hint or "")
    if m is None:
        return
    try:
        legal(S.distribute(before, [int(m.group(1))], m.group(2)))
    except LegalityError as bad:
        on = re.search(r"\((?:RAW|WAR|WAW) on (\w+)\)", bad.what)
        scalar = on is not None and on.group(1) in {a.name for a in before.scop.arrays if a.is_scalar}
        e.hint = (f"distributing loop '{to_user(m.group(2))}' first would not do either: {bad.what}; "
                  "keep the statements together in this order" + (
                      ", or change the code so that they share no value per iteration (accumulate into "
                      "the array instead of a local)" if scalar else ""))
    except LooptxError:
        return


def legal_at_file_values(v: Variant, legal) -> Variant | None:
    """`v`, with the #defined sizes at their file's values, where the step is legal only there
    (x264's `dst[i + 1*FDEC_STRIDE]` rows overlap at FDEC_STRIDE = 1, not at the file's 32; CHiLL
    reads the preprocessed file): as few of them as it needs, each checked by the output's #if,
    with a note; None where the values do not make it legal either.  A tuned region's sizes set
    from its problem sizes (SPAPT's `int nx = N;`) count too, at the values they have there,
    checked as the code runs; where even those do not make the step legal, its refusal there
    is raised, since those are the sizes the user tunes for."""
    from dataclasses import replace
    from looptx.poly.known_values import with_defines_checked
    behind = dict(v.scop.local_macros)
    # (and the sizes set from plain #defines, `int m = N/2;`: the #defines are checked)
    macros = [(k, x) for k, x in v.scop.macro_values
              if k in v.scop.params and k not in dict(v.scop.baked)] + \
        [(k, x) for k, x in v.scop.local_values if k in behind]
    implied = [(k, x) for k, x in v.scop.implied_values if f"{k} = {x}" not in v.scop.runtime_facts]

    def at(chosen) -> Variant:
        facts = tuple(f"{k} = {x}" for k, x in chosen if (k, x) in implied)
        scop = with_defines_checked(replace(v.scop, baked=v.scop.baked + tuple(
            c for c in chosen if c in macros and c[0] not in behind)), [m for k, _ in chosen for m in behind.get(k, ())])
        if facts:
            scop = replace(scop, assumptions=scop.assumptions + facts, runtime_facts=scop.runtime_facts + facts,
                           stand_ins=scop.stand_ins + tuple(k for k, x in chosen if (k, x) in implied), _cache={})
        return v.evolve(assumptions=v.assumptions + tuple(f"{k} = {x}" for k, x in chosen), scop=scop)
    try:
        legal(at(macros + implied))
    except LooptxError:
        if implied:
            legal(at(implied))
        return None
    if not macros + implied:
        return None
    needed = macros + implied
    for m in macros + implied:
        fewer = [x for x in needed if x != m]
        try:
            legal(at(fewer))
        except LooptxError:
            continue
        needed = fewer
    where = v.scop.where()
    baked = [(k, x) for k, x in needed if (k, x) in macros]
    checked = [(k, x) for k, x in needed if (k, x) in implied]
    if baked:
        note_once(where["file"], where["line"], "the step is legal at the #defines' values, "
                  f"{', '.join(_valued(k, x, behind) for k, x in baked)}, not for every value: the region is "
                  "made for them (the output checks the build with #if; give others with --define)")
    if checked:
        note_once(where["file"], where["line"], "the step is legal at "
                  f"{', '.join(f'{to_user(k)} = {x}' for k, x in checked)}, the value"
                  f"{'s' if len(checked) > 1 else ''} set from the problem size, not for every value: the "
                  f"region is made for {'them' if len(checked) > 1 else 'it'} and checks "
                  f"{'them' if len(checked) > 1 else 'it'} as it runs (the region as written runs otherwise)")
    return at(needed)


def _valued(k: str, x: int, behind: dict) -> str:
    """`m = 500 (set from N = 1000)` for a size set from #defines; `N = 1000` for one."""
    macros = behind.get(k)
    return f"{to_user(k)} = {x}" + (f" (set from {', '.join(f'{to_user(a)} = {b}' for a, b in macros)})" if macros else "")


def fuse_refusal_hint(e: LegalityError, before: Variant, st: Step, check) -> None:
    """The way out of a fuse that breaks a dependence: the shifts after which it keeps every
    one (the statements' distance is constant), or else no order to choose."""
    from looptx.recipe.refusal import GENERIC_HINT

    def legal_somewhere(w):
        # as the step itself is: at the file's #define values where not for every one
        try:
            check(w)
        except LegalityError:
            if legal_at_file_values(w, check) is None:
                raise
    shifts = shifts_that_fuse(before, st, legal_somewhere)
    if shifts:
        e.hint = (f"the statements fuse after {_shifts_text(before, st, shifts)} before this step (the "
                  "dependence has a constant distance), or pass --unsafe")
    elif e.hint and GENERIC_HINT in e.hint:
        # a fuse has no order to choose: what could make it legal is a shift, and none does
        e.hint = e.hint.replace(GENERIC_HINT, "the fuse breaks a dependence of the original program, and no "
                                "shift of a statement's loop before this step makes up for it; keep the loops "
                                "apart or fuse only the loops outside this one")
