"""Regions whose loops a surrounding OpenMP team shares out.

CloverLeaf's and TeaLeaf's C kernels put each loop nest in `#pragma omp parallel { #pragma omp
for ... }`.  looptx writes the region's loops anew and drops the pragmas inside it, which is
right where the region holds its own parallel construct (its loops then run in one thread),
but not inside a team: every thread would then run every iteration (wrong results for `u[i] +=
p[i]`), and a `#pragma omp for` left just before the region would precede the block looptx
writes, which no compiler takes.  Such regions are refused, with the layout that works."""
from __future__ import annotations

import re

from pycparser import c_ast

from looptx.errors import note_once
from looptx.frontend.symbols import all_nodes

_PRAGMA = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+omp\b[ \t]*([^\n]*)", re.M)
_TEAM = re.compile(r"parallel\b(?!\s+(?:for|loop|sections)\b)")
_SHARED = re.compile(r"(?:for|sections|single|master|masked|barrier|loop|simd\s+for)\b")
_REMEDY = ("take the loop out of the parallel block (drop '#pragma omp parallel {' ... '}' and "
           "'#pragma omp for') and give it an omp_for step with the pragma's private and reduction "
           "lists: looptx then writes '#pragma omp parallel for' on the loop it checks")


def team_worksharing(fdef: c_ast.FuncDef, src, region, where, text: str, items: list,
                     top_pragmas: dict) -> tuple[str, tuple[tuple[int, str], ...]]:
    """The region's loops that the OpenMP team around it shares out, as (top-level item,
    `omp for` clause text): CloverLeaf's `#pragma omp parallel { #pragma omp for ... }` with the
    region holding loops each under its own `#pragma omp for`.  The output keeps the loops
    shared (`#pragma omp for` on the outermost loop of each transformed nest, checked as
    `omp_for` is) and runs anything else once (`#pragma omp single`).  Other layouts are
    refused: another worksharing or sync pragma inside the region, a statement of it outside
    the shared loops (the team runs it once per thread), a `#pragma omp for` right before it.
    A `#pragma omp parallel for` right before a region that is one loop nest (HPCG's dot
    product with `#pragma scop` put under it) is the nest's own: kind 'parallel', the pragma
    moving into the output in the same way (the C around it loses the line).
    `text`: the file with comments blanked.  Returns (kind, loops): kind 'team' or 'parallel'."""
    before = text[:region.outer[0]].rstrip()
    last = before[before.rfind("\n") + 1:]
    m = _PRAGMA.match(last)
    if m and re.match(r"parallel\s+for\b(?!\s*simd)", m.group(1)):
        at = len(before) - len(last) + len(last) - len(last.lstrip())
        what = m.group(1).strip()
        if len(items) != 1 or not isinstance(items[0], c_ast.For):
            raise src.error(at, f"'#pragma omp {what}' right before the region applies to its first loop "
                            "only, and looptx writes the region anew as one block",
                            "put the pragma inside the region, on its loop (it is then dropped with a note: "
                            "give the loop an omp_for step), or mark that loop alone")
        _usable_clauses(src, at, what)
        return "parallel", ((0, re.sub(r"^parallel\s+for\b", "", what).strip()),)
    if m and _SHARED.match(m.group(1)):
        at = len(before) - len(last) + len(last) - len(last.lstrip())
        raise src.error(at, f"'#pragma omp {m.group(1).strip()}' shares out the region's first loop "
                        "among a team's threads, and looptx writes the region's loops anew without it",
                        _REMEDY)
    team = _enclosing_team(fdef, src, region, where)
    if team is None:
        return "team", ()
    shared = {k: _omp_for_clauses(texts) for k, texts in top_pragmas.items()}
    shared = {k: c for k, c in shared.items() if c is not None}
    for m in _PRAGMA.finditer(text, region.start, region.end):
        if not _SHARED.match(m.group(1)):
            continue
        at = m.start() + len(m.group()) - len(m.group().lstrip())
        what = m.group(1).strip()
        top = any(f"omp {what}" == " ".join(t.split()) for k in shared for t in top_pragmas[k])
        if top and len(shared) == len(items) and all(isinstance(it, c_ast.For) for it in items):
            _usable_clauses(src, at, what)
            continue
        line, _ = where(team)
        if top:
            raise src.error(at, f"'#pragma omp {what}' shares one loop of the region among the threads "
                            f"of the '#pragma omp parallel' at line {line}, and the team runs the region's "
                            "other statements once per thread, which looptx does not model",
                            "mark only the shared loop nest as the region, or " + _REMEDY)
        raise src.error(at, f"'#pragma omp {what}' inside the region shares its loop among "
                        f"the threads of the '#pragma omp parallel' at line {line}, and looptx writes "
                        "the region's loops anew without it: every thread would run every iteration",
                        _REMEDY)
    return "team", tuple(sorted(shared.items()))


def _usable_clauses(src, at: int, what: str) -> None:
    """Refuses clauses tied to the loop as written; notes those the new loop goes without."""
    odd = re.search(r"\b(firstprivate|lastprivate|linear|ordered|copyin|allocate)\b", what)
    if odd:
        raise src.error(at, f"the '{odd.group(1)}' clause of '#pragma omp {what}' ties values to "
                        "iterations of the loop as written, which looptx does not carry over",
                        "drop the clause (assign the variable after the region), or mark another region")
    dropped = re.findall(r"\b(?:schedule\s*\([^()]*\)|nowait|collapse\s*\([^()]*\)|num_threads\s*\([^()]*\))", what)
    if dropped:
        note_once(src.filename, src.pos(at)[0], f"'#pragma omp {what}': the outermost loop of the "
                  f"nest after the recipe gets its private and reduction clauses, not {', '.join(dropped)}")


def _omp_for_clauses(texts: list[str]) -> str | None:
    """The clauses of the `#pragma omp for ...` among an item's pragmas, or None."""
    for t in texts:
        words = " ".join(t.split())
        m = re.fullmatch(r"omp\s+for\b(.*)", words)
        if m and not m.group(1).lstrip().startswith("simd"):
            return m.group(1).strip()
    return None


def _enclosing_team(fdef, src, region, where):
    """The `#pragma omp parallel` (a Pragma node) before a statement that holds the region."""
    lo = src.pos(region.start)

    def holds(n) -> bool:
        first, last = _span(n, where)
        return first <= lo <= last

    def search(comp):
        items = comp.block_items or []
        for k, it in enumerate(items):
            if isinstance(it, c_ast.Pragma) or not holds(it):
                continue
            if k and isinstance(items[k - 1], c_ast.Pragma) and _is_team(items[k - 1].string):
                return items[k - 1]
            for _, ch in it.children():
                for n in _compounds(ch):
                    found = search(n)
                    if found is not None:
                        return found
        return None
    return search(fdef.body)


def _is_team(pragma: str) -> bool:
    words = pragma.strip()
    return words.startswith("omp") and _TEAM.match(words[3:].strip()) is not None


def _compounds(node):
    if isinstance(node, c_ast.Compound):
        yield node
        return
    for _, ch in node.children():
        yield from _compounds(ch)


def _span(node, where) -> tuple:
    """(first, last) source position of any node under `node`."""
    pos = [where(n) for n in all_nodes(node) if getattr(n, "coord", None) is not None]
    pos = [p for p in pos if p and p[0]]
    return (min(pos), max(pos)) if pos else ((0, 0), (0, 0))


def team_statements(team, items, statements, where, text: str, src, region) -> tuple:
    """(first statement, clauses, pragma line) of each shared nest (`team` from
    team_worksharing): Scop.team."""
    lines = [src.pos(m.start())[0] for m in _PRAGMA.finditer(text, 0, region.end)
             if re.match(r"(?:parallel\s+)?for\b", m.group(1))]
    out = []
    for k, clauses in team:
        # the loop's own line: nodes under it may carry the lines of temporaries put into its
        # subscripts (Devito's `int t1 = (time + 1)%(2);` before the region)
        first = where(items[k])
        last = max((p for p in (where(n) for n in all_nodes(items[k]) if getattr(n, "coord", None) is not None)
                    if p and p[0] >= first[0]), default=first)
        stmt = next(s.id for s in statements if first[0] <= s.line <= last[0])
        out.append((stmt, clauses, max((ln for ln in lines if ln <= first[0]), default=first[0])))
    if len({x for x, _, _ in out}) != len(out):
        # a shared nest left without its `omp for` would run on one thread, silently
        raise src.error(region.start, "looptx cannot tell apart the loop nests the team shares out in this "
                        "region", "mark each '#pragma omp for' nest as its own region")
    return tuple(out)
