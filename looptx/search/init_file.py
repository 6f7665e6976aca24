"""The sizes an Orio `init_file` sets: SPAPT's gemver keeps `int n;` in its decl_file and
`n = N;` at the top of `init_input_vars()` in init.c, which Orio's driver runs before it times
the region.  Those assignments (an integer expression of names and numbers, before the
function's first other statement) are what the region's sizes are; the rest of the file fills
the inputs, which looptx does with seeded random data."""
from __future__ import annotations

import re

_INIT_FUNCTION = re.compile(r"\b(init\w*)\s*\([^()]*\)\s*\{")
_STATEMENT = re.compile(r"\s*([^;{}]*);")
_ASSIGNMENT = re.compile(r"([A-Za-z_]\w*)\s*=\s*([\w\s+\-*/%().]+)")
_DECLARATION = re.compile(r"(?:const\s+)?(?:unsigned\s+|signed\s+)?(?:int|long|short|char|double|float)\b[^=]*")
_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def _taken(text: str, defined) -> str:
    """`text` without its directives and the lines of the #if branches a build with the
    `defined` macros leaves out (SPAPT's `#ifdef DYNAMIC` malloc ahead of `n = N;`); a branch
    whose condition is not a plain test of whether a macro is defined is left out too."""
    out, stack = [], []                   # per open #if: (this branch taken, a branch was taken)
    for line in text.split("\n"):
        m = re.match(r"\s*#\s*(\w+)\s*(.*)", line)
        if not m:
            out.append(line if all(t for t, _ in stack) else "")
            continue
        word, rest = m.group(1), m.group(2).strip()
        if word in ("if", "ifdef", "ifndef", "elif"):
            cond = (rest.split()[0] in defined if rest else False) if word == "ifdef" else \
                (rest.split()[0] not in defined if rest else False) if word == "ifndef" else _holds(rest, defined)
            if word == "elif":
                if stack:
                    _, done = stack[-1]
                    stack[-1] = (not done and cond, done or cond)
            else:
                stack.append((cond, cond))
        elif word == "else" and stack:
            _, done = stack[-1]
            stack[-1] = (not done, True)
        elif word == "endif" and stack:
            stack.pop()
        out.append("")
    return "\n".join(out)


def _holds(condition: str, defined) -> bool:
    """An #if condition as the preprocessor reads it, with the `defined` macros (a mapping
    gives their values; a name it lacks is 0, as in cpp); False where it cannot be read."""
    from looptx.frontend.expr import evaluate
    values = dict(defined) if isinstance(defined, dict) else dict.fromkeys(defined, 1)
    text = re.sub(r"\bdefined\s*(?:\(\s*(\w+)\s*\)|(\w+))",
                  lambda m: "1" if (m.group(1) or m.group(2)) in values else "0", condition)
    text = re.sub(r"\b[A-Za-z_]\w*\b", lambda m: str(values.get(m.group(0), 0)).strip() or "1", text)
    text = re.sub(r"!(?!=)", " not ", text.replace("&&", " and ").replace("||", " or "))
    try:
        return bool(evaluate(text))
    except Exception:  # noqa: BLE001 - a condition the evaluator cannot read: taken as false
        return False


def init_assignments(text: str, defined=()) -> list[tuple[str, str]]:
    """(name, value) of the plain assignments that open each init... function of `text`, as
    a build with the `defined` macros (the build command's -D flags) compiles it."""
    text = _taken(_COMMENT.sub(" ", text), defined if isinstance(defined, dict) else set(defined))
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


def init_function(text: str, defined=(), skip: str = "") -> str:
    """A function of those assignments, which the front end reads as Orio's init_input_vars
    (frontend/implied.py), or '' where there are none; not those of names the declarations
    `skip` assign already (a decl_file holding its own copy of init_input_vars: a size set
    twice would have no one value)."""
    assigned = set(re.findall(r"\b([A-Za-z_]\w*)\s*=(?!=)", _COMMENT.sub(" ", skip)))
    found = [(n, v) for n, v in init_assignments(text, defined) if n not in assigned]
    if not found:
        return ""
    return "void init_file_values(void)\n{\n" + "".join(f"  {n} = {v};\n" for n, v in found) + "}\n"
