"""Conditions the model owes C (frontend's obligations: `e >= 0` of C's `/`, the ranges of its
conversions): checked where C evaluates the expression, made facts over the sizes where only
those decide (with a note and a run-time check), refused where they fail at an iteration."""
from __future__ import annotations

import re

import islpy as isl

from looptx.errors import SourceError
from looptx.poly.scop import Scop, Statement


def evaluated_set(scop: Scop, sid: int, where: str | None) -> isl.Set:
    """Where C evaluates an expression of statement `sid`'s code: `where` (a conjunction over its
    loops' iterators: an enclosing `if` or a loop's test), or None for the statement's domain."""
    s = scop.statements[sid]
    # (an unsigned size is never negative: `for (unsigned i = lo; i < n; i++)` starts at i >= 0)
    unsigned = scop.unsigned_nonnegative
    if where is None:
        return scop.domain(s).intersect_params(unsigned)
    return isl.Set(f"{scop.prefix}{{ {s.tuple_text()} : {where} }}").intersect_params(scop.context.intersect(unsigned))


def obligations_hold(scop: Scop, sid: int, conds, where: str | None = None) -> bool:
    """Whether each isl condition holds on statement `sid`'s whole domain (or where C evaluates
    it, `where`)."""
    s = scop.statements[sid]
    dom = evaluated_set(scop, sid, where)
    for cond in conds:
        try:
            if not dom.is_subset(isl.Set(f"{scop.prefix}{{ {s.tuple_text()} : {cond} }}")):
                return False
        except isl.Error:
            return False
    return True


def check_obligations(scop: Scop, obligations) -> None:
    """Each obligation (stmt, isl condition, line, col, what[, where]) must hold on the
    statement's domain (or where C evaluates it)."""
    for sid, cond, line, col, what, *where in obligations:
        if not obligations_hold(scop, sid, [cond], where[0] if where else None):
            raise SourceError(f"non-affine: {what}", hint="make the operand provably non-negative "
                              "(or use floord())", file=scop.filename, line=line, col=col)


def free_of_divisions(scop: Scop, s: Statement, context: isl.Set | None = None,
                       text: str | None = None) -> isl.Set:
    """A statement's domain (or `text`, where C evaluates an expression) without its constraints
    that divide (`i < n / 2 + 1`): the model reads them with floor, so what they imply of the
    sizes (n >= 0 from i = 0) is no evidence for C's division, which runs i = 0 at n = -1 too."""
    parts, depth, start = [], 0, 0
    text = (s.domain or "") if text is None else text
    for k, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and text.startswith(" and ", k):
            parts.append(text[start:k])
            start = k + 5
    parts.append(text[start:])
    kept = [p for p in parts if p.strip() and not re.search(r"\bfloor\b|\bmod\b", p)]
    return isl.Set(f"{scop.prefix}{{ {s.tuple_text()} : {' and '.join(kept) or '1 = 1'} }}").intersect_params(
        scop.context if context is None else context)


def runs_somewhere(scop: Scop, facts) -> bool:
    """Whether some statement runs at sizes where `facts` hold: a fact that leaves the statement
    it is for dead (it runs only where the output's fallback does) is of use only then."""
    sizes = scop.params_where(list(facts))
    return any(not scop.domain(s).intersect_params(sizes).is_empty() for s in scop.statements)


def size_facts(scop: Scop, obligations) -> tuple[list[str], list]:
    """The obligations over sizes alone (`n >= 0` for C's `n / 2`, which rounds toward zero and
    is floor only for n >= 0) that the statements' domains do not imply but allow: facts the
    model may assume, with a note; and the other obligations, which must hold as they are."""
    facts, rest, dead = [], [], []
    # an unsigned size is never negative, whatever the model's integers may be
    unsigned = scop.unsigned_nonnegative
    for ob in obligations:
        sid, cond, where = ob[0], ob[1], (ob[5] if len(ob) > 5 else None)
        exact = re.fullmatch(r"(.*) >= 0 or \((.*)\) mod \d+ = 0", cond)
        if exact:
            # a division of a value that is a multiple of the divisor wherever C evaluates it
            # rounds alike either way; else the value must be non-negative
            if obligations_hold(scop, sid, [cond], where):
                continue
            cond = f"{exact.group(1)} >= 0"
            ob = (sid, cond, *ob[2:])
        dom = evaluated_set(scop, sid, where)
        try:
            fact = scop.params_where([cond])
        except isl.Error:                 # names an iterator
            from looptx.poly.facts import nonneg_fact
            lowest = nonneg_fact(scop, sid, cond, where)
            if lowest is None:
                rest.append(ob)
            elif lowest and lowest not in facts:
                facts.append(lowest)
            continue
        if unsigned.is_subset(fact):
            continue                      # C's division of an unsigned size is floor
        if free_of_divisions(scop, scop.statements[sid], text=where).params().is_subset(fact):
            rest.append(ob)
        elif dom.intersect_params(fact).is_empty():
            dead.append((ob, cond))
        elif cond not in facts:
            facts.append(cond)
    if dead:
        # a statement C runs only where the fact fails (the `else` of looptx's own output, which
        # runs the region as written there) is left to that fallback, where other statements
        # run under the facts; else the transformed code would never run
        if runs_somewhere(scop, facts + [c for _, c in dead]):
            facts += [c for _, c in dead if c not in facts]
        else:
            rest += [ob for ob, _ in dead]
    return facts, rest
