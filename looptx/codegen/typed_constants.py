"""A size's value as a C constant of the size's own type, for the #defines of a .cu and of the
run harness: `-D m=5` of an `unsigned m` is `5u`, so `(j - m) / 2` computes unsigned there as in
the user's file (a suffix, not a cast: the same macros are read by #if)."""
from __future__ import annotations

_SUFFIX = {"unsigned int": "u", "unsigned long": "ul", "long": "l"}


def typed_constant(value, ctype: str | None) -> str:
    """`value` with the suffix of `ctype` (none for int and the types narrower than int, whose
    values C promotes to int anyway)."""
    return f"{value}{_SUFFIX.get(ctype or '', '')}"
