"""Which pointer parameters of the region's function point to const data, as its definition
spells them (`const double *A`, `double const A[][N]`): the .cu's host function keeps those
qualifiers, so a caller holding the original prototype's `const T *` passes it unchanged (C++
refuses `const T *` -> `T *`).  The model keeps no qualifiers (a const array is one the region
only reads), hence this look at the text of the definition's parameter list."""
from __future__ import annotations

import re

from looptx.frontend.names import to_user
from looptx.frontend.regions import blank, scan_comments

_IDENT = re.compile(r"[A-Za-z_]\w*")


def const_parameters(scop) -> set[str]:
    """Model names of the array parameters whose elements the definition declares const."""
    params = _parameter_list(scop)
    if params is None:
        return set()
    out = set()
    for seg in _split_top(params):
        if "(" in seg:
            continue            # a function pointer or a macro declarator: no element type read
        flat = re.sub(r"\[[^\]]*\]", " ", seg)
        names = _IDENT.findall(flat)
        if len(names) < 2:
            continue
        name = names[-1]
        head = flat[:flat.rfind(name)]
        # `const T *a` and `T const *a` qualify the elements; `T *const a` only the pointer
        pointee = head.split("*", 1)[0] if "*" in head else head
        if "const" in _IDENT.findall(pointee):
            out.add(name)
    by_user = {to_user(a.name): a.name for a in scop.arrays}
    return {by_user[n] for n in out if n in by_user}


def _parameter_list(scop) -> str | None:
    """The text between the parentheses of the definition of the region's function (the last
    one before the region), or None."""
    if not scop.function or not scop.region_span[0]:
        return None
    try:
        with open(scop.filename, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    code = blank(text, [(c.start, c.end) for c in scan_comments(text)])
    start = sum(len(ln) + 1 for ln in code.split("\n")[:scop.region_span[0] - 1])
    found = None
    for m in re.finditer(rf"(?<![\w.]){re.escape(to_user(scop.function))}\s*\(", code[:start]):
        close = _closing(code, m.end() - 1)
        if close is not None and code[close + 1:start].lstrip().startswith("{"):
            found = code[m.end():close]
    return found


def _closing(text: str, at: int) -> int | None:
    depth = 0
    for k in range(at, len(text)):
        depth += (text[k] == "(") - (text[k] == ")")
        if depth == 0:
            return k
    return None


def _split_top(params: str) -> list[str]:
    out, depth, cur = [], 0, []
    for ch in params:
        depth += (ch in "([") - (ch in ")]")
        if ch == "," and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    return out
