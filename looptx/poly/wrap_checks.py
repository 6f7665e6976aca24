"""Where C's unsigned and narrow integer conversions would change a bound, guard or subscript,
checked where C evaluates it (frontend/int_types.py makes the conditions).

A condition that fails at some iteration is refused at its place: the model's integers would
say something else than C there.  One over the sizes alone (`n - 3 >= 0` of an `if (n - 3 > 0)`
with an unsigned n) is a fact the model assumes, which the output checks at run time as it
does for '/' of sizes; a size compared as unsigned (`i < n`, an unsigned i and an int n) is
taken as non-negative: the loop would otherwise run billions of times (`i < n - 2` needs n >= 2,
a fact)."""
from __future__ import annotations

import re

import islpy as isl

from looptx.errors import SourceError
from looptx.poly.obligations import evaluated_set, runs_somewhere
from looptx.poly.scop import Scop

HINT = ("keep the value in range where C evaluates it (a guard or a tighter bound), or compute "
        "it in a signed int or long")




_RANGES = {"signed char": (-2 ** 7, 2 ** 7 - 1), "unsigned char": (0, 2 ** 8 - 1), "short": (-2 ** 15, 2 ** 15 - 1),
           "unsigned short": (0, 2 ** 16 - 1), "int": (-2 ** 31, 2 ** 31 - 1), "unsigned int": (0, 2 ** 32 - 1),
           "long": (-2 ** 63, 2 ** 63 - 1), "unsigned long": (0, 2 ** 64 - 1)}


def _type_ranges(scop: Scop) -> isl.Set:
    """The values the sizes' C types allow, where those are known: a fact they imply holds in
    every build (`(int)(long)n` of an int n, `(int)(unsigned long)LEN` of an int #define)."""
    return scop.params_where(f"{_RANGES[t][0]} <= {p} <= {_RANGES[t][1]}" for p, t in scop.size_types
                             if p in scop.params and t in _RANGES)


def wrap_facts(scop: Scop, obligations, path: str) -> list[str]:
    """obligations: (statement id, isl condition, line, col, what, where or None for the
    statement's domain[, hint[, sized[, ranged[, sufficient]]]]: see frontend/int_types.owe).  Refuses the first that fails at an iteration; returns the facts over
    sizes that the model is to assume."""
    facts: list[str] = []
    dead: list[tuple[str, SourceError]] = []
    unsigned = scop.unsigned_nonnegative
    typed = _type_ranges(scop)
    for sid, cond, line, col, what, where, *own in obligations:
        hint = own[0] if own and own[0] else HINT
        sized = len(own) > 1 and own[1]
        ranged = len(own) > 2 and own[2]
        sufficient = own[3] if len(own) > 3 else None
        s = scop.statements[sid]
        try:
            over = evaluated_set(scop, sid, where)
            # (within the sizes' C types: `k = j + 1` of j < min(n, m), an int n, fits an int k)
            if over.intersect_params(typed).is_subset(isl.Set(f"{scop.prefix}{{ {s.tuple_text()} : {cond} }}")):
                continue
        except isl.Error:
            raise SourceError(what, hint=hint, file=path, line=line, col=col) from None
        try:
            fact = scop.params_where([cond])
        except isl.Error:                       # names an iterator: it fails at some iteration,
            # unless sizes bound them, for a narrow counter's start (`unsigned char j; for (j = i;
            # ...)` with i < n: n <= 256)
            from looptx.poly.facts import nonneg_fact
            lowest = nonneg_fact(scop, sid, cond, where, bounded=True) if ranged else None
            if lowest is None and sufficient is not None:
                lowest = _sufficient(scop, sid, sufficient, where)
            if lowest is None:
                raise SourceError(what, hint=hint, file=path, line=line, col=col) from None
            if lowest and not typed.is_subset(scop.params_where([lowest])) and not _said(scop, facts, lowest):
                facts[:] = [f for f in _within_types(scop, lowest, typed, facts)]
            continue
        if sized and _nonnegative_sizes(scop, cond).is_subset(fact) or unsigned.is_subset(fact) \
                or typed.is_subset(fact) or re.fullmatch(r"\(\s*[A-Za-z_]\w*\s*\) >= 0", cond):
            continue
        cond = _plain(cond)
        if over.intersect_params(fact).is_empty():
            dead.append((cond, SourceError(what, hint=hint, file=path, line=line, col=col)))
        elif not _said(scop, facts, cond):
            facts.append(cond)
    if dead:
        # C evaluates it only where the fact fails: the `else` of looptx's own output, which runs
        # the region as written there (a `short` counter's), is left to that fallback where other
        # statements run under the facts (as obligations.size_facts does)
        if not runs_somewhere(scop, facts + [c for c, _ in dead]):
            raise dead[0][1]
        facts += [c for c, _ in dead if c not in facts]
    return facts


def _within_types(scop: Scop, new: str, typed: isl.Set, facts: list[str]) -> list[str]:
    """`facts` with `new` (less what the sizes' types say: `lo > 0`, not `lo > 0 and n <=
    4294967297` of an unsigned n), without the ones `new` implies (`npix <= 1431655766` beside
    `npix <= 1431655765`); unchanged where one of them implies `new`."""
    made = scop.params_where([new])
    shown = made.gist(typed).coalesce()
    if shown.n_basic_set() == 1 and not shown.plain_is_universe():
        from looptx.poly.facts import condition_text
        new = condition_text(shown) or new
    try:
        sets = [scop.params_where([f]).intersect(typed) for f in facts]
    except isl.Error:
        return facts + [new]
    made = made.intersect(typed)
    if any(f.is_subset(made) for f in sets):
        return facts
    return [f for f, fs in zip(facts, sets) if not made.is_subset(fs)] + [new]


def _sufficient(scop: Scop, sid: int, cond: str, where) -> str | None:
    """`cond` (over the sizes alone) as a fact: '' where the statement's domain implies it,
    None where it holds for no size at which C evaluates the test."""
    try:
        fact = scop.params_where([cond])
        evaluated = evaluated_set(scop, sid, where).params()
    except isl.Error:
        return None
    if evaluated.is_subset(fact):
        return ""
    return None if evaluated.intersect(fact).is_empty() else _plain(cond)


def _nonnegative_sizes(scop: Scop, cond: str) -> isl.Set:
    """The sizes a loop bound's condition names, each non-negative: a size that an unsigned
    counter is compared with is taken to be (`i < n`, `i < n + m`), where one that needs more
    (`i < n - 2` of an unsigned n: n >= 2) is a fact the output checks, with a note."""
    names = [p for p in scop.params if re.search(rf"(?<![\w.]){re.escape(p)}(?!\w)", cond)]
    return scop.params_where([f"{p} >= 0" for p in names]).intersect(scop.context)


def _plain(cond: str) -> str:
    """A range obligation as the note says it: `65535 - (n) >= 0` is `(n) <= 65535`, `(m) - (0) >= 0`
    is `(m) >= 0` (frontend/int_types.counter_start writes them as `e >= 0` for nonneg_fact)."""
    m = re.fullmatch(r"(-?\d+) - \((.*)\) >= 0", cond)
    if m:
        return f"({m.group(2)}) <= {m.group(1)}"
    m = re.fullmatch(r"\((.*)\) - \((-?\d+)\) >= 0", cond)
    return f"({m.group(1)}) >= {m.group(2)}" if m else cond


def _said(scop: Scop, facts: list[str], cond: str) -> bool:
    """Whether `cond` says what one of `facts` says (`n >= 0` of a `!=` test's start beside the
    `(n) >= 0` of the start's conversion)."""
    if cond in facts:
        return True
    try:
        new = scop.params_where([cond])
        return any(scop.params_where([f]).is_equal(new) for f in facts)
    except isl.Error:
        return False

