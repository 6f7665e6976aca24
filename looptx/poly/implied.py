"""Whether conditions of the generated code imply another: the guard pruning of
codegen/guards.py asks it for each `if` (isl texts, every name a parameter)."""
from __future__ import annotations

import functools
import re

import islpy as isl

_KEYWORDS = frozenset({"mod", "floor", "ceil", "and", "or", "not", "min", "max", "exists"})


def _set(conds: tuple[str, ...]) -> isl.Set:
    text = " and ".join(f"({c})" for c in conds)
    names = sorted(set(re.findall(r"[A-Za-z_]\w*", text)) - _KEYWORDS)
    return isl.Set(f"[{', '.join(names)}] -> {{ : {text} }}")


@functools.lru_cache(maxsize=1 << 14)
def _one(cond: str) -> isl.Set:
    # a guard's condition is read once: asked whether it is readable, then whether the facts
    # around it decide it, then a fact of the code inside it (isl's reading of one with min,
    # max and floors is most of the time the pruning takes)
    return _set((cond,))


@functools.lru_cache(maxsize=1 << 12)
def readable(cond: str) -> bool:
    """Whether isl reads `cond` (a fact it cannot read would hide every other one)."""
    try:
        _one(cond)
        return True
    except isl.Error:
        return False


@functools.lru_cache(maxsize=1 << 10)
def _known(known: tuple[str, ...]) -> isl.Set:
    # built one fact at a time on the set of the facts before it: the guards under one loop
    # share its facts, which were read again (and simplified again) for every guard
    if len(known) <= 1:
        return _one(known[0]) if known else _set(known)
    return _known(known[:-1]).intersect(_one(known[-1]))


# isl operations one question may take (a few tenths of a second): the guards under the `else` of
# a chain of looptx's own outputs hold negated facts with divisions, a disjunction each, whose
# emptiness isl took seconds to decide per guard, minutes for one region (probe 170 G1)
_OPERATIONS = 2_000_000
_COSTLY: set[tuple[str, ...]] = set()     # facts that alone outgrew the budget


@functools.lru_cache(maxsize=1 << 16)
def never(known: tuple[str, ...], cond: str) -> bool:
    """True when no values of the names that satisfy every condition in `known` satisfy
    `cond` too (an empty isl set); False also where isl cannot read them, or cannot decide it
    within its budget (the guard then stays: always correct)."""
    from looptx.poly.budget import isl_budget
    if any(known[:k] in _COSTLY for k in range(1, len(known) + 1)):
        return False
    try:
        with isl_budget(_OPERATIONS):
            facts = _known(known)
    except isl.Error as e:
        if "operations" in str(e):
            _COSTLY.add(known)
        return False
    try:
        with isl_budget(_OPERATIONS):
            return facts.intersect(_one(cond)).is_empty()
    except isl.Error:
        return False
