"""The sizes an Orio `init_file` sets: SPAPT's gemver keeps `int n;` in its decl_file and
`n = N;` at the top of `init_input_vars()` in init.c, which Orio's driver runs before it times
the region.  Those assignments (an integer expression of names and numbers, before the
function's first other statement) are what the region's sizes are; the rest of the file fills
the inputs, which looptx does with seeded random data."""
from __future__ import annotations

import re

_INIT_FUNCTION = re.compile(r"\b(init\w*)\s*\([^()]*\)\s*\{")
_STATEMENT = re.compile(r"\s*([^;{}]*);")
_ASSIGNMENT = re.compile(r"([A-Za-z_]\w*)\s*=\s*([\w\s+\-*/%()]+)")
_DECLARATION = re.compile(r"(?:const\s+)?(?:unsigned\s+|signed\s+)?(?:int|long|short|char|double|float)\b[^=]*")
_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def init_assignments(text: str) -> list[tuple[str, str]]:
    """(name, value) of the plain assignments that open each init... function of `text`."""
    text = _COMMENT.sub(" ", text)
    out = []
    for m in _INIT_FUNCTION.finditer(text):
        at = m.end()
        while True:
            st = _STATEMENT.match(text, at)
            if st is None:
                break
            body = " ".join(st.group(1).split())
            a = _ASSIGNMENT.fullmatch(body)
            if a is not None:
                out.append((a.group(1), a.group(2).strip()))
            elif not _DECLARATION.fullmatch(body):
                break                       # a call, a loop header: the top assignments end
            at = st.end()
    return out


def init_function(text: str) -> str:
    """A function of those assignments, which the front end reads as Orio's init_input_vars
    (frontend/implied.py), or '' where there are none."""
    found = init_assignments(text)
    if not found:
        return ""
    return "void init_file_values(void)\n{\n" + "".join(f"  {n} = {v};\n" for n, v in found) + "}\n"
