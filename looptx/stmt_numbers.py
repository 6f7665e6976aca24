"""Statement numbers of recipes: the CONTRACT's, over the file's regions in textual order, and
the ones CHiLL blocks and scripts count (from 0 within a block, a procedure or a loop(N) nest),
read as the file's; each region's steps renumbered from 0 for the region's model."""
from __future__ import annotations

import re
from dataclasses import replace

from looptx.errors import LooptxError, RecipeError, note_once
from looptx.frontend.cparse import Program
from looptx.frontend.names import to_model
from looptx.recipe.schema import Recipe


def file_numbers_read(rec: Recipe, base: int, n: int, filename: str | None = None, statements=()) -> Recipe:
    """A CHiLL block's statement numbers, read as the file's (the CONTRACT's) where they name
    the block's statements that way, else counted from 0 within the block, as a CHiLL script
    and Orio (which hands CHiLL the block alone) count.  Where both readings name one of its
    statements, the one whose statements have the loops the step names wins (Orio's
    `unroll(1,"j",4)` of a block whose statement 1 in the file has no `j`); the file's where
    both have them, and a note says which statement the other reading would have taken.
    `statements`: the region's (Scop.statements), whose iterators tell."""
    if base == 0:
        return rec

    def file_wide(st) -> bool:
        ss = step_stmts(st) or []
        return bool(ss) and all(isinstance(x, int) and base <= x < base + n for x in ss)

    def has_loops(st, local: list[int]) -> bool:
        loop = st.get("loop")
        if not isinstance(loop, str) or not statements:
            return True
        return all(0 <= k < len(statements) and to_model(loop) in statements[k].iterators for k in local)

    steps = []
    for st in rec.steps:
        if not file_wide(st):
            steps.append(st)
            continue
        ss = step_stmts(st)
        both = all(x < n for x in ss)
        if both and not has_loops(st, [x - base for x in ss]) and has_loops(st, list(ss)):
            steps.append(st)        # the block's own count: only its statements have the loop
            continue
        if both and filename:
            note_once(filename, st.line, f"step {st.index} ({st.name}) names statement"
                      f"{'s' if len(ss) > 1 else ''} {', '.join(map(str, ss))} in the file's numbering (the "
                      f"block's statements are {base}..{base + n - 1}); counted from 0 within the block, as a "
                      f"CHiLL script and Orio count, {'they' if len(ss) > 1 else 'it'} would be "
                      f"{', '.join(str(x + base) for x in ss)}")
        steps.append(renumbered(st, base))
    return replace(rec, steps=tuple(steps))


def step_stmts(st) -> list | None:
    """The statements a step names (None for a step that names none)."""
    if st.get("stmt") is not None:
        return [st["stmt"]]
    if isinstance(st.get("stmts"), list):
        return st["stmts"]
    # distribute's groups name its statements too ([[2], [3]]), numbered as stmt is
    groups = st.get("groups")
    if isinstance(groups, list) and groups and all(isinstance(g, list) for g in groups):
        return [x for g in groups for x in g]
    return None


# steps whose parts CHiLL numbers as new statements
_NEW_IN_CHILL = frozenset({"split", "peel", "unroll", "datacopy", "registers", "shared"})


def renumbered(st, lo: int):
    """The step with its statement numbers counted from `lo` on."""
    def shifted(k, v):
        if k == "stmt":
            return v - lo
        if k == "stmts" and isinstance(v, list):
            return [x - lo for x in v]
        if k == "groups" and isinstance(v, list) and all(isinstance(g, list) for g in v):
            return [[x - lo if isinstance(x, int) else x for x in g] for g in v]
        return v
    return replace(st, args=tuple((k, shifted(k, v)) for k, v in st.args))


def recipe_bases(recipe: Recipe, program: Program) -> tuple[int, ...]:
    """The number a command-line recipe gives each region's statement 0: over the whole file,
    or, in a CHiLL script, within the procedure it names."""
    bases = program.bases
    if bases and recipe.procedure and recipe.procedure == program.function:
        return tuple(b - bases[0] for b in bases)
    return bases


def loop_nests(scops, bases: tuple[int, ...]) -> list[tuple[int, int]]:
    """(first statement, statements) of each outermost loop of the regions `scops`, in file
    order and numbered from `bases`: the loop nests a CHiLL script's loop(N) counts."""
    out = []
    for base, scop in zip(bases, scops):
        tops: dict = {}
        for s in scop.statements:
            if s.iterators:
                tops.setdefault(s.schedule[0], []).append(s.id)
        out += [(base + min(ids), len(ids)) for _, ids in sorted(tops.items())]
    return out


def in_nests(recipe: Recipe, nests: list[tuple[int, int]], statements=()) -> Recipe:
    """`statements`: a CHiLL block's (Scop.statements), whose commands count within its first
    loop nest, as CHiLL's loop(0) does, unless the block names a nest itself: where that count
    names no statement inside the loops a step names (`s = 0.0;` before the loop, then
    `unroll(1,"i",4)`), the block's own count or the file's is meant."""
    for n, line in recipe.nests:
        if n >= max(len(nests), 1):
            raise RecipeError(f"loop({n}): there are {len(nests)} loop nest(s) here, numbered from 0",
                              hint=f"pick one of loop(0) .. loop({len(nests) - 1})" if nests else
                              "mark a loop nest as a region", file=recipe.file, line=line)
    if all(st.nest is None for st in recipe.steps):
        return recipe
    implicit = statements if not recipe.nests else ()
    return replace(recipe, steps=tuple(_nest_numbered(st, nests, implicit) for st in recipe.steps))


def _nest_numbered(st, nests: list[tuple[int, int]], statements=()):
    """A step of a script that chose loop nest `st.nest` with its statements as the file numbers
    them."""
    if st.nest is None or step_stmts(st) is None:
        return st
    if statements and st.nest == 0 and \
            not _loops_in(st, statements, [x + (nests[0][0] if nests else 0) for x in step_stmts(st)]):
        return replace(st, nest=None)       # the block's count, or the file's (file_numbers_read)
    if st.nest == 0:
        # as in CHiLL, loop(0)'s statement 0 is the first nest's, not a statement before it
        # (DENISE's `dtdh = DT*DT/DH;`); the numbers past that nest count on from it
        first = nests[0][0] if nests else 0
        return replace(renumbered(st, -first), nest=None, nest_base=first)
    if st.nest >= len(nests):
        raise st.error(f"loop({st.nest}): there are {len(nests)} loop nest(s) here, numbered from 0",
                       hint=f"pick one of loop(0) .. loop({len(nests) - 1})" if nests else
                       "mark a loop nest as a region")
    first, count = nests[st.nest]
    for x in step_stmts(st):
        if isinstance(x, int) and not 0 <= x < count:
            raise st.error(f"statement {x} is not in loop nest {st.nest}, which has {count} statement(s)",
                           hint=f"a script numbers the statements of loop({st.nest}) from 0 to {count - 1}")
    return replace(renumbered(st, -first), nest=None, nest_base=first)


def _loops_in(st, statements, numbers: list) -> bool:
    """Whether the statements `numbers` exist and are inside the loops step `st` names (inside
    some loop where it names none)."""
    if not all(isinstance(x, int) and 0 <= x < len(statements) for x in numbers):
        return False
    names = [st.get("loop")] + (list(st.get("order")) if isinstance(st.get("order"), list) else [])
    names = [to_model(x) for x in names if isinstance(x, str)]
    return all(statements[x].iterators and all(n in statements[x].iterators for n in names) for x in numbers)


def split_by_region(recipe: Recipe, program: Program) -> dict[int, Recipe]:
    """A command-line recipe numbers statements over the whole file; each region gets the steps
    on its statements, renumbered from 0 (steps without statements go to every region)."""
    bases = recipe_bases(recipe, program)
    script = frozenset(st.index for st in recipe.steps if st.nest is not None)
    recipe = in_nests(recipe, loop_nests(program.scops, bases))
    bounds = [(b, b + len(s.statements)) for b, s in zip(bases, program.scops)]
    if script:
        _note_chill_blocks([st for st in recipe.steps if st.index in script], program, bases)
    out: dict[int, list] = {i: [] for i in range(len(program.scops))}
    for st in recipe.steps:
        stmts = step_stmts(st)
        if stmts is None:
            # a privatize that names no statement is for the regions that use its variable
            users = [i for i, sc in enumerate(program.scops)
                     if st.name == "privatize" and any(a.name == to_model(str(st["var"])) for a in sc.arrays)]
            for i in users or out:
                out[i].append(st)
            continue
        homes = {i for s in stmts for i, (lo, hi) in enumerate(bounds) if lo <= s < hi}
        missing = [s for s in stmts if not any(lo <= s < hi for lo, hi in bounds)]
        shift = program.bases[0] - bases[0] if program.bases else 0
        if missing and shift and all(isinstance(s, int) and any(lo <= s - shift < hi for lo, hi in bounds)
                                     for s in stmts):
            # a script counts within its procedure, as CHiLL does; the file's numbers (the
            # CONTRACT's) name the procedure's statements too
            st = renumbered(st, shift)
            stmts = step_stmts(st)
            homes = {i for s in stmts for i, (lo, hi) in enumerate(bounds) if lo <= s < hi}
            missing = []
        if missing:
            s = missing[0]
            spans: list[list[int]] = []
            for lo, hi in bounds:
                if spans and spans[-1][1] == lo:
                    spans[-1][1] = hi
                elif hi > lo:
                    spans.append([lo, hi])
            ranges = ", ".join(f"{lo}..{hi - 1}" for lo, hi in spans)
            made = next((e for e in recipe.steps[:st.index - 1] if e.name in _NEW_IN_CHILL), None)
            # (only in CHiLL's own dialect: a YAML recipe numbers the file's statements, and a
            # miscount there is no cleanup part; probe 228 G5)
            if made is not None and s >= bounds[-1][1] and re.match(r"\s*[A-Za-z_]\w*\s*\(", made.text or ""):
                # CHiLL numbers the parts these steps make as new statements (its lu.py's
                # permute(3, ...) after split(1, ...)); the contract keeps the numbers
                raise st.error(f"statement {s} does not exist: in CHiLL it would be a part that "
                               f"step {made.index} ({made.name}) makes, which looptx does not number apart",
                               hint=f"the parts keep their statement's number ({ranges}); a step on "
                                    "that number acts on every part")
            if program.function:
                within = f" within the procedure ({', '.join(f'{lo + shift}..{hi - 1 + shift}' for lo, hi in spans)} " \
                    "in the file)" if shift else ""
                raise st.error(f"statement {s} is not in function '{program.function}'",
                               hint=f"its statements are numbered {ranges}{within}")
            raise st.error(f"there is no statement {s} in the file",
                           hint=f"statements are numbered {ranges} in file order")
        if len(homes) > 1:
            raise st.error("the statements of one step must be in the same region",
                           hint="write one step per region")
        i = homes.pop()
        out[i].append(renumbered(st, bounds[i][0]))
    return {i: replace(recipe, steps=tuple(steps)) for i, steps in out.items()}


# `S0(1,1)` (an instance), `S1 (line 16)` (a statement), `statement 1`, `stmts: [0]`
_STMT_NUMBERS = re.compile(r"\b(S(?=\d+(?:\(| \(line ))|statements? |stmts?: \[?)(\d+(?:(?:, | and )\d+)*)")


def in_file_numbers(e: LooptxError, base: int, steps=()) -> None:
    """A step's error names the region's statements (`S0(1,1)`, `statement 1`, `stmts: [0]`);
    a command-line recipe numbers them over the file, from `base` in this region, and a script's
    loop(N) step within its nest (`steps`: the region's, which tell the failing step's nest),
    where the error names only that nest's statements."""
    st = next((s for s in steps if s.index == e.step), None)
    nest = st.nest_base if st is not None else 0
    texts = [e.what] + ([e.hint] if e.hint else [])
    if nest and all(n + base >= nest for t in texts for n in _numbers(t)):
        base -= nest
    e.what = file_numbered(e.what, base)
    if e.hint:
        e.hint = file_numbered(e.hint, base)


def _numbers(text: str) -> list[int]:
    return [int(n) for m in _STMT_NUMBERS.finditer(text) for n in re.findall(r"\d+", m.group(2))]


def file_numbered(text: str, base: int) -> str:
    """`text` with the region's statement numbers as the file numbers them (from `base`)."""
    if not base:
        return text
    shift = lambda m: m.group(1) + re.sub(r"\d+", lambda n: str(int(n.group(0)) + base), m.group(2))
    return _STMT_NUMBERS.sub(shift, text)


def _chill_blocks(scop) -> list[list[int]]:
    """The region's statements as CHiLL counts them: a run of assignments with the same loops and
    conditions and nothing between them is one statement (REFERENCE 1.2)."""
    blocks: list[list[int]] = []
    for s in scop.statements:
        last = scop.statements[blocks[-1][-1]] if blocks else None
        if last is not None and last.iterators == s.iterators and last.domain == s.domain \
                and last.schedule[:-1] == s.schedule[:-1] and s.schedule[-1] == last.schedule[-1] + 1:
            blocks[-1].append(s.id)
        else:
            blocks.append([s.id])
    return blocks


def _note_chill_blocks(steps, program: Program, bases) -> None:
    """A script's statement numbers are the CONTRACT's, one per assignment; CHiLL's count a run of
    assignments as one statement, so a number past such a run means another statement there:
    said once, at the first step that names one.  A loop(N) script counts both within its nest."""
    for base, scop in zip(bases, program.scops):
        blocks = _chill_blocks(scop)
        block_of = lambda k: next(i for i, b in enumerate(blocks) if k in b)
        for st in steps:
            first = st.nest_base - base if st.nest_base else 0
            runs = [b for b in blocks if len(b) > 1 and b[0] >= first]
            named = [x - base for x in step_stmts(st) or [] if isinstance(x, int) and 0 <= x - base < len(scop.statements)]
            past = [x for x in named if runs and x > runs[0][0]]
            if not past:
                continue
            x = past[0]
            chill = block_of(x) - block_of(first) + (0 if st.nest_base else base)
            lines = [scop.statements[k].line for k in runs[0]]
            note_once(st.file or "recipe", st.line, f"step {st.index} ({st.shown_name}) names statement "
                      f"{x + base - st.nest_base}: looptx numbers each assignment, where CHiLL counts the "
                      f"{len(runs[0])} assignments of lines {min(lines)}-{max(lines)} as one statement (there, "
                      f"this one is statement {chill})", per_line=True)
            return
