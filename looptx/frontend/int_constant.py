"""Integer constant expressions of the preprocessor's text (`#define N (2*M + 1)`)."""
from __future__ import annotations

import re

from looptx.frontend.affine import c_int_value

_CONST_TOKEN = re.compile(r"\s*(0[xX][0-9a-fA-F]+[uUlL]*|[0-9]+[uUlL]*|[A-Za-z_]\w*|<<|>>|[-+*/%()])")


def int_constant(text: str, names: dict[str, int]) -> int | None:
    """The value of an integer constant expression over `names` (C's `/` truncates), None if it
    is not one."""
    toks, pos = [], 0
    while pos < len(text.rstrip()):
        m = _CONST_TOKEN.match(text, pos)
        if m is None:
            return None
        toks.append(m.group(1))
        pos = m.end()
    at = 0

    def atom() -> int:
        nonlocal at
        t = toks[at] if at < len(toks) else ""
        at += 1
        if t in ("-", "+"):
            v = atom()
            return -v if t == "-" else v
        if t == "(":
            v = binary(0)
            if at >= len(toks) or toks[at] != ")":
                raise ValueError
            at += 1
            return v
        return names[t] if t in names else c_int_value(t)

    levels = (("<<", ">>"), ("+", "-"), ("*", "/", "%"))

    def binary(level: int) -> int:
        nonlocal at
        if level == len(levels):
            return atom()
        v = binary(level + 1)
        while at < len(toks) and toks[at] in levels[level]:
            op = toks[at]
            at += 1
            w = binary(level + 1)
            if op in ("/", "%"):
                q = abs(v) // abs(w) * (1 if (v < 0) == (w < 0) else -1)
                v = q if op == "/" else v - q * w
            else:
                v = {"<<": v << w if w >= 0 else 0, ">>": v >> w if w >= 0 else 0,
                     "+": v + w, "-": v - w, "*": v * w}[op]
        return v

    try:
        v = binary(0)
    except (ValueError, ZeroDivisionError, RecursionError):
        return None
    return v if at == len(toks) and toks else None
