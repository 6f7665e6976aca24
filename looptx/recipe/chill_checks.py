"""Argument shapes of CHiLL-dialect commands that CHiLL itself (its Lua or Python front end, or
cudaize.lua's helpers) refuses, and that looptx's own reading would otherwise let through
silently: a comma closing a call's argument list in Lua, a key of tile_by_index's names
table that tiles no loop, a keyword that no command takes."""
from __future__ import annotations

import difflib
import re

from looptx.errors import note_once

# Markers that settle which language a script without a telling extension (an annotation
# body, a `.chill` file) is written in
_PYTHON = re.compile(r"^\s*(?:from\s+chill\s+import|import\s+\w|execfile\s*\(|read_IR\s*\()|"
                     r"\b(?:None|True|False)\b", re.M)
_LUA = re.compile(r"^\s*(?:init\s*\(|dofile\s*\(|local\s)|^\s*--|\b(?:nil|true|false)\b|"
                  r"\{\s*[A-Za-z_]\w*\s*=(?!=)", re.M)


def dialect(text: str, file: str) -> str | None:
    """"lua", "python", or None when the script does not say."""
    if file.endswith(".lua"):
        return "lua"
    if file.endswith(".py"):
        return "python"
    py, lua = bool(_PYTHON.search(text)), bool(_LUA.search(text))
    return "python" if py and not lua else "lua" if lua and not py else None


def trailing_call_comma(cmd: str) -> tuple[int, str] | None:
    """(offset of the comma, called name) where a call's argument list ends with a comma,
    `tile(0,2,32,)`.  Python takes it; Lua's grammar (explist) does not, and in a script
    written for either it most often stands where an argument was forgotten.  A comma
    before a closing brace is Lua's optional table separator, `{"i","j",}`, and is fine."""
    stack: list[tuple[str, str | None]] = []      # (bracket, called name for a call's paren)
    last = None                                   # offset of the last character outside blanks
    quote = None
    k = 0
    while k < len(cmd):
        ch = cmd[k]
        if quote:
            if ch == "\\":
                k += 1
            elif ch == quote:
                quote = None
                last = k
            k += 1
            continue
        if ch in "\"'":
            quote = ch
        elif ch in "([{":
            stack.append((ch, _callee(cmd, k) if ch == "(" else None))
        elif ch in ")]}" and stack:
            bracket, callee = stack.pop()
            if bracket == "(" and callee and last is not None and cmd[last] == ",":
                return last, callee
        if not ch.isspace():
            last = k
        k += 1
    return None


def _callee(cmd: str, k: int) -> str | None:
    """The name called by the parenthesis at `k`, if it opens an argument list."""
    end = k
    while end > 0 and cmd[end - 1].isspace():
        end -= 1
    start = end
    while start > 0 and (cmd[start - 1].isalnum() or cmd[start - 1] in "_.:"):
        start -= 1
    name = cmd[start:end]
    return name if name[:1].isalpha() or name[:1] == "_" else None


def suggest(word, accepted) -> str:
    close = difflib.get_close_matches(str(word), list(accepted), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def key_offset(text: str, key) -> int | None:
    """Where `key` is written as a table key (Lua `key=`) or dict key (`'key':`), or as a
    keyword argument, in a command's text."""
    m = re.search(r"(?<![\w\"'])([\"']?)%s\1\s*[=:](?!=)" % re.escape(str(key)), text)
    return m.start() if m else None


def tile_names(ln, names, n_loops: int) -> None:
    """tile_by_index's third argument: cudaize.lua accepts only the keys l<k>_control and
    l<k>_tile for 1 <= k <= the number of tiled loops ("... is not a proper key for
    specifying tile or control loop indices"), each naming a new loop."""
    if isinstance(names, list) and names:
        raise ln.error("tile_by_index: the third argument must be the table of new loop names, "
                       "not a list", hint='write {l1_control="ii"} (or {} for none) before the '
                                          "final loop order")
    if not isinstance(names, dict):
        return
    accepted = [f"l{k}_{kind}" for kind in ("control", "tile") for k in range(1, n_loops + 1)]
    listed = ", ".join(accepted) if accepted else "none (no loop is tiled)"
    for key, value in names.items():
        at = key_offset(ln.text, key)
        m = re.fullmatch(r"l(\d+)_(control|tile)", key) if isinstance(key, str) else None
        if m and not 1 <= int(m.group(1)) <= n_loops:
            raise ln.error(f"key '{key}' in tile_by_index names loop {int(m.group(1))}, but "
                           f"only {n_loops} loop{'s are' if n_loops != 1 else ' is'} tiled",
                           hint=f"accepted keys: {listed}", at=at)
        if not m:
            raise ln.error(f"unknown key '{key}' in tile_by_index{suggest(key, accepted)}",
                           hint=f"accepted keys: {listed}", at=at)
        if not isinstance(value, str) or not value.isidentifier():
            raise ln.error(f"tile_by_index: {key} must be a new loop name, got {value!r}",
                           hint=f'write {key}="{"ii" if m.group(2) == "control" else "t"}"', at=at)


def table_keys(ln, table: dict, accepted: tuple[str, ...], what: str, form: str) -> None:
    """A table whose keys the command reads by name: any other key is read by nothing."""
    for key in table:
        if key not in accepted:
            raise ln.error(f"unknown key '{key}' in {what}{suggest(key, accepted)}",
                           hint=f"accepted keys: {', '.join(accepted)}; e.g. {form}",
                           at=key_offset(ln.text, key))


# keyword arguments each command takes: Orio's CHiLL grammar has cuda(#,block={..},thread={..});
# CHiLL's own commands take positional arguments only (Lua has no keyword arguments, and
# CHiLL's Python functions refuse them)
KEYWORDS = {"cuda": ("block", "thread", "kernel", "sizes")}


def keywords(ln, name: str, kw: dict) -> None:
    accepted = KEYWORDS.get(name, ())
    for key in kw:
        if key in accepted:
            continue
        at = key_offset(ln.text, key)
        if accepted:
            raise ln.error(f"unknown keyword '{key}' in {name}{suggest(key, accepted)}",
                           hint=f"accepted keywords: {', '.join(accepted)}", at=at)
        raise ln.error(f"{name} takes no keyword argument '{key}='",
                       hint=f"give {name}'s arguments by position, e.g. "
                            f"{_EXAMPLES.get(name, name + '(0,...)')}", at=at)


_EXAMPLES = {"tile": 'tile(0,"i",32,"ii")', "unroll": 'unroll(0,"k",4)',
             "permute": 'permute(0,{"j","i","k"})', "split": 'split(0,"i","N/2")',
             "registers": 'registers(0,"k")', "datacopy": 'datacopy(0,"k","A")', "source": 'source("mm.c")',
             "procedure": 'procedure("mm")'}


# the most positional arguments each command takes, with what they are: CHiLL's own
# signatures (tile's seven in its Python and Lua front ends; looptx's tile(0,"i",32,"ii")
# names the control loop fourth, where CHiLL has the outer level)
_MOST = {"permute": ("statement, levels, order", 3), "unroll": ("statement, loop, factor, cleanup level", 4),
         "reverse": ("statements, loop", 2), "shift": ("statements, loop, amount", 3),
         "shift_to": ("statement, loop, value", 3), "scale": ("statements, loop, factor", 3),
         "split": ("statements, loop, condition", 3), "skew": ("statements, loop, coefficients", 3),
         "fuse": ("statements, loop", 2), "distribute": ("statements, loop", 2),
         "peel": ("statement, loop, first, last", 4), "combine": ("statement, loop, loop", 3),
         "nonsingular": ("statement, matrix", 2), "omp_for": ("statement, loop, private variables", 3),
         "pragma": ("statement, loop, text", 3),
         # CUDA-CHiLL's, with the statement its Python front end puts first
         "tile_by_index": ("statement, loops, sizes, control names, final order, tile method", 6),
         "cudaize": ("statement, kernel name, array sizes, block loops, thread loops, parameters", 6),
         "source": ("file", 1), "procedure": ("function", 1),
         "tile7": ("statement, level, size, outer level, tile name, control name, method", 7)}
_TILE_NAMED = ("statement, loop, size, control name", 4)
_TILE_CHILL = ("statement, level, size, outer level, method, alignment offset, alignment multiple", 7)
_TILE_LUA = ("statement, level, size, outer level, tile name, control name, method", 7)


def arg_count(ln, name: str, args: list) -> None:
    """More arguments than the command takes: CHiLL refuses the call, and dropping the rest
    would apply something other than what the script says."""
    if name in ("tile", "tile3"):
        what, most = _TILE_NAMED if len(args) > 3 and isinstance(args[3], str) else \
            _TILE_LUA if any(isinstance(x, str) for x in args[4:6]) else _TILE_CHILL
    elif name in _MOST:
        what, most = _MOST[name]
    else:
        return
    if len(args) > most:
        raise ln.error(f"{name} takes at most {most} argument{'s' if most > 1 else ''} ({what}), got {len(args)}",
                       hint=f"remove the extra arguments, e.g. {_EXAMPLES.get(name, name + '(0,...)')}")


def one_procedure(ln, command: str, named: str | None, earlier: str | None, earlier_line: int) -> None:
    """CHiLL transforms one procedure per script: a second procedure() naming another function
    would have the commands after it read as that function's while looptx applies them all to
    one (E4S's hh.py checked matmul's `known` against applyR)."""
    if named and earlier and named != earlier:
        raise ln.error(f"{command}('{named}') after procedure '{earlier}' (line {earlier_line}): a CHiLL "
                       "script transforms one procedure, and its statement numbers and loop levels are "
                       "that procedure's",
                       hint=f"write a script of its own for '{named}' (with --function {named})")


# the script's end: Python's builtins (CHiLL binds no exit()), sys.exit, Lua's os.exit
EXIT = re.compile(r"\s*(?:sys\.|os\.)?(?:exit|quit)\s*\([^()]*\)\s*;?\s*$")


def exit_note(ln, after: list, line: int, stepped: bool) -> None:
    """CHiLL's script stops at exit(), and so does looptx's reading of it: say so where commands
    follow (a script cut short while it was written), or where none came before."""
    if after:
        note_once(ln.file, ln.line, f"the script ends at {ln.text.strip().rstrip(';')}, as CHiLL's does: the "
                  f"{'commands' if len(after) > 1 else 'command'} after it (from line {line + after[0][0]}) "
                  f"{'are' if len(after) > 1 else 'is'} not applied", per_line=True)
    elif not stepped:
        note_once(ln.file, ln.line, "the script ends at exit() before any command: the regions are "
                                    "regenerated as they are", per_line=True)
