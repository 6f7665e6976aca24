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

from looptx.frontend.symbols import all_nodes

_PRAGMA = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+omp\b[ \t]*([^\n]*)", re.M)
_TEAM = re.compile(r"parallel\b(?!\s+(?:for|loop|sections)\b)")
_SHARED = re.compile(r"(?:for|sections|single|master|masked|barrier|loop|simd\s+for)\b")
_REMEDY = ("take the loop out of the parallel block (drop '#pragma omp parallel {' ... '}' and "
           "'#pragma omp for') and give it an omp_for step with the pragma's private and reduction "
           "lists: looptx then writes '#pragma omp parallel for' on the loop it checks")


def refuse_team_worksharing(fdef: c_ast.FuncDef, src, region, where, text: str) -> None:
    """Raises where the region is shared out by an OpenMP team it does not hold itself: a
    `#pragma omp for` (or another worksharing or sync pragma) inside it while a `#pragma omp
    parallel` outside it encloses it, or a `#pragma omp for` right before it.  `text`: the
    file with comments blanked."""
    before = text[:region.outer[0]].rstrip()
    last = before[before.rfind("\n") + 1:]
    m = _PRAGMA.match(last)
    if m and _SHARED.match(m.group(1)):
        at = len(before) - len(last) + len(last) - len(last.lstrip())
        raise src.error(at, f"'#pragma omp {m.group(1).strip()}' shares out the region's first loop "
                        "among a team's threads, and looptx writes the region's loops anew without it",
                        _REMEDY)
    team = _enclosing_team(fdef, src, region, where)
    if team is None:
        return
    for m in _PRAGMA.finditer(text, region.start, region.end):
        if _SHARED.match(m.group(1)):
            line, _ = where(team)
            raise src.error(m.start() + len(m.group()) - len(m.group().lstrip()),
                            f"'#pragma omp {m.group(1).strip()}' inside the region shares its loop among "
                            f"the threads of the '#pragma omp parallel' at line {line}, and looptx writes "
                            "the region's loops anew without it: every thread would run every iteration",
                            _REMEDY)


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
