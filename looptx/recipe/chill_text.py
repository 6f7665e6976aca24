"""The text of CHiLL and CUDA-CHiLL scripts: where each command starts and ends, Lua long
comments and strings, Lua table constructors and the classic `source:` header, read as the
commands they stand for (chill.py translates the commands)."""
from __future__ import annotations

import re

from looptx.frontend.regions import bracket_step


def commands(text: str, lua: bool = False):
    """(line index, column index, text, spots) of each command; spots[n] is the (line index,
    column index) of text[n], so a problem inside a command that spans lines is located.  A
    command ends at the parenthesis that closes its argument list (so `tile(..) tile(..)` on
    one line are two), or at the end of its line when no parenthesis is open (`print_code`, or
    junk the parser will name)."""
    start, buf, spots, depth, quote = None, [], [], 0, None
    solid = ""          # the command's last character that is not a space (linear in its length)
    for k, raw in enumerate(text.split("\n")):
        for c, ch in enumerate(raw):
            # '#' starts a comment anywhere outside strings; C's '//' only between commands
            # (at a line's start or after a closed call), since elsewhere it is Python's floor
            # division (TI//2, `U = 9 - 8 // 2`); Lua's '--' also inside a command (a multi-line
            # cudaize often carries one), unless a number follows (N--1)
            between = start is None or solid == ")"
            # (Lua's `#` is its length operator, `print(#t)`: no comment there)
            if not quote and (ch == "#" and not lua or depth == 0 and (raw.startswith("--", c) or between and
                                                           raw.startswith("//", c))
                              or raw.startswith("--", c) and not raw[c + 2:c + 3].isdigit()):
                break
            if start is None:
                if ch.isspace() or ch in ";,":
                    continue
                start, buf, spots = (k, c), [], []
            elif ch == ";" and not quote and depth == 0:
                # `TI=32; TJ=64`: `;` ends a statement, in Lua and in Python
                yield start[0], start[1], "".join(buf).strip(), spots
                start = None
                continue
            buf.append(ch)
            if not ch.isspace():
                solid = ch
            spots.append((k, c))
            closing = not quote and ch in ")]}"
            quote, depth = bracket_step(ch, quote, depth)
            if closing and depth <= 0 and not _goes_on(raw[c + 1:]):
                yield start[0], start[1], "".join(buf), spots
                start, depth = None, 0
        if start is not None and not lua and quote and buf and buf[-1] == "\\":
            buf.pop()                   # a string's `\\` at a line's end: it goes on on the next line
            spots.pop()
            continue
        if start is not None and not lua and not quote and solid == "\\":
            # Python's explicit line joining (`TI = 4 + \\`, `tile_by_index(["i"], \\`)
            at = max(n for n, x in enumerate(buf) if x == "\\")
            buf[at], solid = " ", ""
            buf.append(" ")
            spots.append((k, len(raw)))
            continue
        if start is not None:
            if depth == 0:
                yield start[0], start[1], "".join(buf).strip(), spots
                start = None
            else:
                buf.append(" ")
                spots.append((k, len(raw)))
    if start is not None:
        yield start[0], start[1], "".join(buf).strip(), spots



# what, after a closing bracket, continues the same expression (`sizes[2] / 4`, `t[1][2]`,
# `f(x).y`) rather than starting the next command; `--` starts a Lua comment
_GOES_ON = re.compile(r"\s*(?!--)(?:[-+*/%^<>=.\[(]|~=|\band\b|\bor\b|\.\.)")


def _goes_on(rest: str) -> bool:
    return bool(_GOES_ON.match(rest))


_LONG_BRACKET = re.compile(r"\[(=*)\[")


def blank_long(text: str, lua: bool):
    """`text` with the parts that span lines but mean nothing blanked out: Lua long comments
    (`--[[ .. ]]`, `--[==[ .. ]==]`) and Python string statements (a `\"\"\"..\"\"\"` block used
    as a comment).  Newlines stay, so every later position is still right.  Also the first
    problem found, (offset, what, hint): an unclosed one, or a Lua long string `[[..]]`."""
    out, k, n = list(text), 0, len(text)
    quote, depth, fresh = None, 0, True       # fresh: nothing but blanks and ';' so far on the line
    last = ""                                 # the last character that is no blank

    def blank(a: int, b: int) -> None:
        out[a:b] = [ch if ch == "\n" else " " for ch in text[a:b]]

    while k < n:
        ch = text[k]
        if quote and ch != "\n":
            if ch == "\\":
                k += 1
            elif ch == quote:
                quote = None
            k += 1
            continue
        quote = None                          # (a short string ends with its line at the latest)
        if ch == "\n":
            fresh = True
        long = _LONG_BRACKET.match(text, k + 2) if text.startswith("--", k) else None
        if long:
            close = "]" + long.group(1) + "]"
            end = text.find(close, long.end())
            if end < 0:
                return "".join(out), (k, "unfinished Lua long comment", f"close it with {close}")
            blank(k, end + len(close))
            k = end + len(close)
            continue
        if ch == "#" or depth == 0 and (text.startswith("--", k) or (fresh or last == ")") and text.startswith("//", k)) \
                or text.startswith("--", k) and not text[k + 2:k + 3].isdigit():
            k = text.find("\n", k)            # a line comment, as commands reads them
            k = n if k < 0 else k
            continue
        if text.startswith(('"""', "'''"), k) and fresh and depth == 0:
            end = text.find(text[k:k + 3], k + 3)
            if end < 0:
                return "".join(out), (k, "unfinished string", f"close it with {text[k:k + 3]}")
            rest = text[end + 3:].split("\n", 1)[0].strip()
            if not rest or rest.startswith(("#", ";")):
                blank(k, end + 3)
                k = end + 3
                continue
        bracket = _LONG_BRACKET.match(text, k)
        if bracket and (lua or bracket.group(1)):
            return "".join(out), (k, "Lua long strings [[...]] are not supported",
                                  'write the value as a quoted string, "..."')
        if ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        if not ch.isspace() and ch != ";":
            fresh = False
        if not ch.isspace():
            last = ch
        k += 1
    return "".join(out), None



def lua_tables(cmd: str, lua: bool = False) -> str:
    """Lua table constructors as Python dicts: `{a=N*N, block={"ii"}}` -> `{"a": N*N, ...}`,
    also `{["in"]=N}`, with `;` between fields read as `,`, `..` (joining strings) as `<<` and
    `^` as `**` in a Lua script (Python operators of Lua's precedence: `"1" .. 2 * 3` is "16"),
    and `~=` as `!=`.
    Only `NAME=` directly inside braces is rewritten, so keyword arguments (`cuda(0,block=..)`)
    and comparisons (`==`) stay as they are."""
    out, stack, quote, k = [], [], None, 0
    while k < len(cmd):
        ch = cmd[k]
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "[" and stack and stack[-1] == "{" and "".join(out).rstrip()[-1:] in ("{", ","):
            # a key in brackets, the only way to name an array called `in` or `end`
            m = re.match(r"""\[\s*("[^"]*"|'[^']*')\s*\]\s*=(?!=)""", cmd[k:])
            if m:
                out.append(f"{m.group(1)}:")
                k += m.end()
                continue
            stack.append(ch)
        elif ch in "([{":
            stack.append(ch)
        elif ch in ")]}" and stack:
            stack.pop()
        elif ch == "." and cmd[k:k + 2] == ".." and cmd[k + 2:k + 3] != ".":
            out.append(" << " if lua else "@")     # Lua's concatenation, which chill_lua reads as such
            k += 2
            continue
        elif ch == "^" and lua:
            out.append("**")
            k += 1
            continue
        elif ch == "~" and cmd[k:k + 2] == "~=":
            out.append("!=")            # Lua's not-equal
            k += 2
            continue
        elif ch == ";" and stack and stack[-1] == "{":
            ch = ","                    # Lua's other field separator, {"i"; "j";}
        elif stack and stack[-1] == "{" and (ch.isalpha() or ch == "_"):
            prev = "".join(out).rstrip()[-1:]
            m = re.match(r"([A-Za-z_]\w*)\s*=(?!=)", cmd[k:])
            if m and prev in ("{", ","):
                out.append(f'"{m.group(1)}":')
                k += m.end()
                continue
        out.append(ch)
        k += 1
    return "".join(out)



def classic_header(text: str) -> str:
    """CHiLL's classic script header (`source: mm.c`, `procedure: normalMM`, `loop: 0`) as the
    commands it stands for, line for line."""
    from looptx.recipe.schema import CHILL_HEADER
    out = []
    for line in text.split("\n"):
        m = CHILL_HEADER.fullmatch(line.strip())
        if m:
            value = m.group(2).strip("\"'")
            key = {"dest": "destination"}.get(m.group(1), m.group(1))
            # (`loop: 0-1`, CHiLL's AKp256.script: the nests 0 to 1, as loop(0, 1))
            span = re.fullmatch(r"(\d+)\s*-\s*(\d+)", value) if key == "loop" else None
            line = f"{key}({value})" if key == "loop" and value.isdigit() else \
                f"{key}({span.group(1)}, {span.group(2)})" if span else f"{key}({value!r})"
        out.append(line)
    return "\n".join(out)


def script_sets(text: str, defines) -> dict:
    """The --define values of the variables a CHiLL script (a file or an annotation's body)
    assigns at a line's start (`TJ = 256`, Lua's `local TJ = 256`): they pass over the
    assignment, as CHiLL's users expect."""
    return {k: v for k, v in dict(defines or {}).items()
            if re.search(rf"^[ \t]*(?:local[ \t]+)?{re.escape(k)}[ \t]*=(?!=)", text, re.M)}
