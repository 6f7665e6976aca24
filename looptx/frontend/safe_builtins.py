"""The functions and resource limits of the annotation evaluator (`looptx.frontend.expr`).

Each function sizes its result before building it: a spec can neither hang nor exhaust memory
through `range(10**12)`, `permutations` of a long list or a huge power."""
from __future__ import annotations

import itertools
import math
from types import MappingProxyType
from typing import Any, Mapping

from looptx.frontend.tuning import call_mapping

MAX_ELEMS = 10_000_000      # elements in one built sequence (or tuple cells for combinatorics)
MAX_INT_BITS = 1 << 16      # size of any integer an operator may produce
MAX_STEPS = 5_000_000       # interpreter steps per evaluation (a few seconds at most)
MAX_TEXT = 200_000          # characters in one expression

class _Refused(Exception):
    """A resource guard or a semantic rule refused an operation (message is user-facing)."""


def _check_count(n: int, what: str) -> None:
    if n > MAX_ELEMS:
        raise _Refused(f"{what} would have {n} elements (the limit is {MAX_ELEMS})")


def _check_bits(bits: int, what: str) -> None:
    if bits > MAX_INT_BITS:
        raise _Refused(f"{what} would produce an integer of about {bits} bits "
                       f"(the limit is {MAX_INT_BITS})")


def deep_count(x, limit: int = MAX_ELEMS) -> int:
    """The elements of `x` with those of the sequences inside it, each counted once per
    reference (`[[1]*10**5]*10**5` holds 10**10: whatever copies or converts it builds them
    all), up to just past `limit`."""
    total, stack = 0, [x]
    while stack and total <= limit:
        y = stack.pop()
        if isinstance(y, str):
            total += len(y)
        elif isinstance(y, _CONTAINERS):
            total += len(y)
            elems = y.values() if isinstance(y, dict) else y
            # the types are collected in C: a flat list of a million numbers is scanned in
            # milliseconds, where a Python-level test of each element took a fifth of a second
            if any(issubclass(t, _CONTAINERS) for t in set(map(type, elems))):
                stack.extend(e for e in elems if isinstance(e, _CONTAINERS))
    return total


_CONTAINERS = (list, tuple, set, frozenset, dict)


# ----------------------------------------------------------------------------- safe functions

def _range(*args):
    for a in args:
        if not isinstance(a, int):
            raise TypeError(f"range() takes integers, not {type(a).__name__}")
    r = range(*args)
    try:
        n = len(r)
    except OverflowError:
        n = MAX_ELEMS + 1
    _check_count(n, "range()")
    return r


def _permutations(iterable, r=None):
    pool = list(iterable)
    r = len(pool) if r is None else r
    if not isinstance(r, int) or r < 0:
        raise ValueError("permutations() length must be a non-negative integer")
    _check_count(math.perm(len(pool), r) * max(r, 1), "permutations()")
    return list(itertools.permutations(pool, r))


def _combinations(iterable, r):
    pool = list(iterable)
    if not isinstance(r, int) or r < 0:
        raise ValueError("combinations() length must be a non-negative integer")
    _check_count(math.comb(len(pool), r) * max(r, 1), "combinations()")
    return list(itertools.combinations(pool, r))


def _product(*iterables, repeat=1):
    if not isinstance(repeat, int) or repeat < 0:
        raise ValueError("product() repeat must be a non-negative integer")
    pools = [list(it) for it in iterables] * repeat
    count = math.prod(len(p) for p in pools)
    _check_count(count * max(len(pools), 1), "product()")
    return list(itertools.product(*pools))


def _map(function, *iterables):
    """Python 2's map (a list), as Orio files use it: `map(join, product([...], [...]))`.
    `function` can only be one of these safe functions: names evaluate to nothing else."""
    if not callable(function):
        raise TypeError(f"map() needs a function, not {type(function).__name__}")
    pools = [list(it) for it in iterables]
    _check_count(min((len(p) for p in pools), default=0), "map()")
    return [function(*args) for args in zip(*pools)]


def _join(words, sep=" "):
    """Python 2's string.join, Orio's `join` of compiler flag tuples."""
    words = list(words)
    if not all(isinstance(w, str) for w in words) or not isinstance(sep, str):
        raise TypeError("join() takes strings")
    _check_count(sum(len(w) for w in words) + len(sep) * len(words), "join()")
    return sep.join(words)


def _sum(iterable, start=0):
    # list/tuple concatenation through sum() is quadratic in CPython: do it linearly, bounded
    if isinstance(start, (list, tuple)):
        acc = list(start)
        for x in iterable:
            if type(x) is not type(start):
                raise TypeError(f"can only concatenate {type(start).__name__} "
                                f"(not {type(x).__name__}) in sum()")
            acc.extend(x)
            _check_count(len(acc), "sum()")
        return type(start)(acc)
    return sum(iterable, start)


def _power(a, b):
    if isinstance(a, int) and isinstance(b, int) and b > 0 and abs(a) > 1:
        _check_bits(a.bit_length() * b, "'**'")
    r = a ** b
    if isinstance(r, complex):
        raise _Refused("'**' would produce a complex number")
    return r


def _pow(a, b, mod=None):
    return _power(a, b) if mod is None else pow(a, b, mod)


def _int(x=0, *base):
    if isinstance(x, str) and len(x) > 4300:
        raise _Refused("int() of a string longer than 4300 digits")
    return int(x, *base)


def _round(x, ndigits=None):
    if ndigits is not None and isinstance(ndigits, int) and abs(ndigits) > 400:
        raise _Refused("round() with more than 400 digits")
    return round(x) if ndigits is None else round(x, ndigits)


# zip/enumerate/reversed return lists: a one-shot iterator stored in a `let` would surprise
SAFE_FUNCTIONS: Mapping[str, Any] = MappingProxyType({
    "range": _range, "len": len, "min": min, "max": max, "abs": abs, "sum": _sum,
    "sorted": sorted, "reversed": lambda seq: list(reversed(seq)), "list": list, "tuple": tuple, "set": set,
    "dict": dict, "int": _int, "float": float, "str": str, "bool": bool, "round": _round,
    "any": any, "all": all, "zip": lambda *its: list(zip(*its)),
    "enumerate": lambda it, start=0: list(enumerate(it, start)), "pow": _pow,
    "permutations": _permutations, "combinations": _combinations, "product": _product,
    "mapping": call_mapping, "map": _map, "join": _join,
})
