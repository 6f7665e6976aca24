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
_ANY_PRAGMA = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+(omp|acc)\b[ \t]*([^\n]*)", re.M)
_TEAM = re.compile(r"parallel\b(?!\s+(?:for|loop|sections)\b)")
_SHARED = re.compile(r"(?:for|sections|single|master|masked|barrier|loop|simd\s+for)\b")
_LEADING = re.compile(r"[ \t]*#[ \t]*pragma[ \t]+(omp|acc)\b[ \t]*(.*?)\s*$", re.S)
# a directive that runs one loop's iterations in parallel, as omp_for does, wherever the loop runs
_PARALLEL_LOOP = {"omp": re.compile(r"(?:target\s+)?(?:teams\s+)?(?:distribute\s+)?parallel\s+for\b(?!\s*simd)"),
                  "acc": re.compile(r"(?:parallel|kernels)\s+loop\b")}
# clauses about the loops as written, which the loops looptx writes go without
_DROPPED = {"omp": {"nowait", "collapse", "default", "dist_schedule", "order"},
            "acc": {"collapse", "tile", "default", "seq", "auto"}}
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
    start, last = _last_line(before)
    if re.match(r"\s*#\s*endif\b", last):
        # HPCG's `#ifndef HPCG_NO_OPENMP` / the pragma / `#endif` right before `#pragma scop`
        inner_start, inner = _last_line(before[:start].rstrip())
        if _guard_line(before[:inner_start]) is not None and _LEADING.match(inner):
            start, last = inner_start, inner
    at = start + len(last) - len(last.lstrip())
    lead = _LEADING.match(last)
    head = lead and _PARALLEL_LOOP[lead.group(1)].match(lead.group(2))
    if head:
        family, what = lead.group(1), lead.group(2)
        if len(items) != 1 or not isinstance(items[0], c_ast.For):
            raise src.error(at, f"'#pragma {family} {what}' right before the region applies to its first loop "
                            "only, and looptx writes the region anew as one block",
                            "put the pragma inside the region, on its loop (it is then dropped with a note: "
                            "give the loop an omp_for step), or mark that loop alone")
        _usable_clauses(src, at, f"{family} {what}")
        loop, kept = _split_clauses(what[head.end():], family)
        plain = family == "omp" and head.group(0) == "parallel for" and not kept
        return "parallel", ((0, loop),), "" if plain else f"{family} {head.group(0)} {kept}".strip()
    # a directive on a structured block (`acc kernels`, `omp target`) takes the block looptx
    # writes as well; one on a loop does not
    if lead and lead.group(1) == "acc" and re.search(r"\bloop\b", lead.group(2)):
        raise src.error(at, f"'#pragma acc {lead.group(2)}' applies to the region's first loop, and looptx "
                        "writes the region's loops anew without it",
                        "write it as '#pragma acc parallel loop' (looptx moves that onto the outermost loop "
                        "of the nest it writes), or put it inside the region and give it back with a pragma step")
    m = _PRAGMA.match(last)
    if m and not _SHARED.match(m.group(1)) and re.search(r"\b(?:for|simd|taskloop|distribute|loop)\b", m.group(1)):
        raise src.error(at, f"'#pragma omp {m.group(1).strip()}' right before the region applies to its first "
                        "loop, and looptx writes the region anew as one block",
                        "put it inside the region, on its loop (it is then dropped with a note: give it back "
                        "with a pragma step on the loop of the output it belongs to, `omp simd` on an inner "
                        "one), or write '#pragma omp parallel for' (looptx moves that onto the outermost loop)")
    if m and _SHARED.match(m.group(1)):
        at = len(before) - len(last) + len(last) - len(last.lstrip())
        raise src.error(at, f"'#pragma omp {m.group(1).strip()}' shares out the region's first loop "
                        "among a team's threads, and looptx writes the region's loops anew without it",
                        _REMEDY)
    team = _enclosing_team(fdef, src, region, where)
    if team is None:
        return "team", (), ""
    shared = {k: _omp_for_clauses(texts) for k, texts in top_pragmas.items()}
    # the team's own private variables are each thread's, and so each iteration's of its shared
    # loops where the iteration sets them first (probe 224 G4: `parallel private(t)` was ignored)
    own = [x.strip() for m in re.findall(r"(?<![\w])private\s*\(([^()]*)\)", team.string) for x in m.split(",")]
    own = f" private({', '.join(x for x in dict.fromkeys(own) if x)})" if any(own) else ""
    shared = {k: (c + own).strip() for k, c in shared.items() if c is not None}
    for m in _PRAGMA.finditer(text, region.start, region.end):
        if not _SHARED.match(m.group(1)):
            continue
        at = m.start() + len(m.group()) - len(m.group().lstrip())
        what = m.group(1).strip()
        top = any(f"omp {what}" == " ".join(t.split()) for k in shared for t in top_pragmas[k])
        if top and len(shared) == len(items) and all(isinstance(it, c_ast.For) for it in items):
            # a team's `omp for` becomes an omp_for step, which takes no schedule
            _usable_clauses(src, at, f"omp {what}", also=("schedule",))
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
    return "team", tuple(sorted(shared.items())), ""


def leading_pragma(text: str, region) -> list[str]:
    """The lines of the `#pragma omp parallel for` right before a region that team_worksharing
    found the nest's own (kind 'parallel'), with an `#ifndef` around it (HPCG's), as written:
    the region as written, which the output runs where the sizes break its facts, has them."""
    before = text[:region.outer[0]].rstrip()
    start, last = _last_line(before)
    lines = [last.strip()]
    if re.match(r"\s*#\s*endif\b", last):
        inner_start, inner = _last_line(before[:start].rstrip())
        cond = _guard_line(before[:inner_start]) or ""
        lines = [cond.strip(), inner.strip(), last.strip()]
    return lines if any(_LEADING.match(x) for x in lines) else []


def _guard_line(before: str) -> str | None:
    """The `#if`/`#ifdef`/`#ifndef` line that opens the group a pragma ends, with only C lines
    between them (Rodinia backprop's `#ifdef OPEN` / `omp_set_num_threads(NUM_THREAD);` / the
    pragma / `#endif`: the call stays, the pragma goes onto the output's loop); None where
    another directive comes first."""
    text = before.rstrip()
    while text:
        start, line = _last_line(text)
        if re.match(r"\s*#\s*if(?:n?def)?\b", line):
            return line
        if re.match(r"\s*#", line):
            return None
        text = text[:start].rstrip()
    return None


def _last_line(before: str) -> tuple[int, str]:
    """(offset, text) of the last line of `before`, with the lines it continues (`\\` at
    their ends: offload pragmas with long map clauses) joined to it."""
    start = before.rfind("\n") + 1
    while start > 0:
        prev = before.rfind("\n", 0, start - 1) + 1
        if not before[prev:start - 1].rstrip().endswith("\\"):
            break
        start = prev
    return start, re.sub(r"\\[ \t]*\n", " ", before[start:])


def _clauses(text: str) -> list[str]:
    """The clauses of a directive (`map(to: A[0:n*n])`, `nowait`), parentheses balanced."""
    out, depth, cur = [], 0, ""
    for ch in re.sub(r"(\w)\s+\(", r"\1(", text):
        if depth == 0 and (ch.isspace() or ch == ","):
            if cur.strip():
                out.append(cur.strip())
            cur = ""
            continue
        depth += (ch == "(") - (ch == ")")
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _split_clauses(text: str, family: str) -> tuple[str, str]:
    """(the private and reduction clauses, which the omp_for check takes; the clauses the new
    outermost loop keeps as written: where the data live, how many run it, how they share it
    out (`schedule`, which load-balances the new outermost loop as the old), gang/vector).
    Those tied to the loops as written (collapse, tile, nowait, default) go, with a note
    (_usable_clauses)."""
    loop, kept = [], []
    for c in _clauses(text):
        name = re.match(r"\w+", c)
        name = name.group(0) if name else ""
        if name in ("private", "reduction"):
            loop.append(c)
        elif name not in _DROPPED[family]:
            kept.append(c)
    return " ".join(loop), " ".join(kept)


def _usable_clauses(src, at: int, what: str, also=()) -> None:
    """Refuses clauses tied to the loop as written; notes those the new loop goes without.
    `what`: the directive after `#pragma` (`omp parallel for ...`, `acc parallel loop ...`)."""
    odd = re.search(r"\b(firstprivate|lastprivate|linear|ordered|copyin|allocate)\b", what)
    if odd and not (what.startswith("acc") and odd.group(1) == "copyin"):
        raise src.error(at, f"the '{odd.group(1)}' clause of '#pragma {what}' ties values to "
                        "iterations of the loop as written, which looptx does not carry over",
                        "drop the clause (assign the variable after the region), or mark another region")
    family = what.split()[0]
    dropped = [c for c in _clauses(what) if re.match(r"\w+", c) and re.match(r"\w+", c).group(0) in
               _DROPPED[family] | set(also)]
    if dropped:
        note_once(src.filename, src.pos(at)[0], f"'#pragma {what}': the outermost loop of the nest after "
                  f"the recipe gets it with its private and reduction clauses checked, without {', '.join(dropped)}")


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
            if k and isinstance(items[k - 1], c_ast.Pragma) and is_team(items[k - 1].string):
                return items[k - 1]
            for _, ch in it.children():
                for n in _compounds(ch):
                    found = search(n)
                    if found is not None:
                        return found
        return None
    return search(fdef.body)


def is_team(pragma: str) -> bool:
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
    """(first statement, clauses, pragma line, its column, the pragma as written) of each
    shared nest (`team` from team_worksharing): Scop.team."""
    pragmas = {}
    for m in _ANY_PRAGMA.finditer(text, 0, region.end):
        if re.match(r"(?:parallel\s+)?for\b", m.group(2)) and m.group(1) == "omp" \
                or _PARALLEL_LOOP[m.group(1)].match(m.group(2)):
            at = m.start() + len(m.group()) - len(m.group().lstrip())
            pragmas[src.pos(at)[0]] = (src.pos(at)[1], m.group().strip())
    lines = list(pragmas)
    out = []
    for k, clauses in team:
        # the loop's own line: nodes under it may carry the lines of temporaries put into its
        # subscripts (Devito's `int t1 = (time + 1)%(2);` before the region)
        first = where(items[k])
        last = max((p for p in (where(n) for n in all_nodes(items[k]) if getattr(n, "coord", None) is not None)
                    if p and p[0] >= first[0]), default=first)
        stmt = next(s.id for s in statements if first[0] <= s.line <= last[0])
        line = max((ln for ln in lines if ln <= first[0]), default=first[0])
        out.append((stmt, clauses, line) + pragmas.get(line, (1, "#pragma omp for")))
    if len({x[0] for x in out}) != len(out):
        # a shared nest left without its `omp for` would run on one thread, silently
        raise src.error(region.start, "looptx cannot tell apart the loop nests the team shares out in this "
                        "region", "mark each '#pragma omp for' nest as its own region")
    return tuple(out)
