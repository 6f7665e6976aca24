"""The output file: the user's text with each region replaced by generated code."""
from __future__ import annotations

import re

from looptx.codegen.c import helper_block, used_helpers
from looptx.frontend.cparse import Program
from looptx.frontend.regions import Region


def _indent_of(text: str, offset: int) -> str:
    line_start = text.rfind("\n", 0, offset) + 1
    k = line_start
    while k < len(text) and text[k] in " \t":
        k += 1
    return text[line_start:k]


def _first_code(text: str, r: Region) -> int:
    # a pragma line before the first statement is dropped from the region: the statement's
    # indentation is the one to keep
    k = r.start
    while k < r.end:
        while k < r.end and text[k].isspace():
            k += 1
        if k >= r.end or text[k] != "#":
            return k
        while k < r.end and (text[k] != "\n" or text[k - 1] == "\\"):
            k += 1
    return r.start if k >= r.end else k


_READ = re.compile(r"^(.*?[^=!<>]=\s*)(.+);$")


def _tested(chain: str) -> str | None:
    """`w && w->a` for `w->a->v`: the pointers a member chain goes through, each tested for
    NULL; None for a chain with no `->`."""
    parts = chain.split("->")
    return " && ".join("->".join(parts[:k]) for k in range(1, len(parts))) if len(parts) > 1 else None


def _null_safe_read(decl: str) -> str:
    """A hoisted member read that a NULL struct pointer leaves alone: the region as written
    reads nothing of a struct when its loops run no iteration (an optional argument passed as
    NULL with n = 0), and the read before it must not either."""
    m = _READ.match(decl)
    cond = _tested(m.group(2).strip()) if m else None
    if cond is None:
        return decl
    return f"{m.group(1)}{f'({cond})' if '&&' in cond else cond} ? {m.group(2).strip()} : 0;"


def _null_safe_write(back: str) -> str:
    chain = back.split(" = ", 1)[0]
    cond = _tested(chain)
    return back if cond is None else f"if ({cond}) {back}"


def with_members(lines: list[str], hoisted, indent: str = "  ") -> list[str]:
    """The block with the variables that stand for struct members (Scop.hoisted) declared at
    the top of its braces and stored back at their end.  What a block has before its braces
    (declarations of variables read after the region) and after them (the loops' final values)
    stays in the function's scope."""
    if not hoisted:
        return list(lines)
    decls = [indent + _null_safe_read(d) for d, _ in hoisted]
    backs = [indent + _null_safe_write(w) for _, w in hoisted if w]
    # the block's own lines are indented: its first unindented brace lines are its braces
    k = next((i for i, ln in enumerate(lines) if ln == "{"), None)
    m = next((i for i, ln in enumerate(lines) if ln == "}" and k is not None and i > k), None)
    if m is not None:
        return list(lines[:k + 1]) + decls + list(lines[k + 1:m]) + backs + list(lines[m:])
    body = [indent + ln if ln and not ln.startswith("#") else ln for ln in lines]
    return ["{"] + decls + body + backs + ["}"]


def _default_guards(program: Program, blocks: dict[int, list[str]], text: str) -> list[tuple[int, int, str]]:
    """Before a group that gives the file its own default of a macro a region uses (`#ifndef
    IDX`), where the output expands it: the group's test again, with an #error for a build that
    defines it otherwise (there the test still reads the build's definition)."""
    at: dict[int, tuple[str, ...]] = {}
    for s in program.scops:
        body = "\n".join(blocks.get(s.region, ()))
        for name, line, guard in s.default_guards:
            if body and not re.search(rf"\b{re.escape(name)}\b", body):
                at[line] = guard
    if not at:
        return []
    starts = [0] + [k + 1 for k, ch in enumerate(text) if ch == "\n"]
    return [(starts[line - 1], starts[line - 1], "\n".join(guard) + "\n") for line, guard in sorted(at.items())]


def render_file(program: Program, blocks: dict[int, list[str]], header: str = "") -> str:
    """`blocks[i]` are the generated lines of region i (a C block, unindented)."""
    text = program.source.text
    hoisted = {s.region: s.hoisted for s in program.scops}
    edits: list[tuple[int, int, str]] = []
    removed_tuning = set()
    for r in program.regions:
        if r.index not in blocks:
            continue
        lines = with_members(blocks[r.index], hoisted.get(r.index, ()))
        # before each region that uses them (they are #ifndef'd): a region that a build leaves
        # out (under `#ifndef NO_K1`) would otherwise take the others' definitions with it
        helpers = used_helpers("\n".join(lines))
        if helpers:
            lines = helper_block(helpers) + lines
        # an Orio Loop annotation's code is inside its begin marker, where the output goes
        inside = r.orio_code
        base = _indent_of(text, r.outer[0] if inside else _first_code(text, r))
        if inside and not base:
            # a marker at column 0 in a function: the code as written after it has the
            # function's indentation, which the regenerated code takes
            between = text[r.chill.begin[1]:r.chill.end[0]]
            first = next((ln for ln in between.split("\n") if ln.strip()), "")
            base = first[:len(first) - len(first.lstrip(" \t"))]
        body = "\n".join((base + ln) if ln and not ln.startswith("#") else ln for ln in lines)
        start = r.outer[0]
        if r.kind == "pragma":
            open_m, close_m = r.keep_markers
            new = f"{open_m}\n{body}\n{close_m}"
        elif body.startswith("#"):
            line_start = text.rfind("\n", 0, start) + 1
            if text[line_start:start].strip(" \t") == "":
                start, new = line_start, body     # not a line of indentation alone before it
            else:
                new = "\n" + body
        else:
            new = body.lstrip(" \t")
            if text[start - 1:start] in ("", "\n"):
                new = base + new    # a function body that begins with a (dropped) pragma line
        new += _line_numbers_restored(text, r.outer[1])
        edits.append((start, r.outer[1], new))
        if program.scops[r.index].team_kind == "parallel" and program.scops[r.index].team:
            edits.append(_leading_pragma(text, r.outer[0]))
        if r.tuning is not None and r.tuning.begin not in removed_tuning:
            removed_tuning.add(r.tuning.begin)
            edits.append((*r.tuning.begin, ""))
            edits.append((*r.tuning.end, ""))
    edits += _default_guards(program, blocks, text)
    from looptx.frontend.encoding import crlf_lines
    crlf = crlf_lines(program.filename)
    if crlf is not None:
        # a file of both line ends: each line of the file's own keeps its end, and a region's
        # code ends its lines as the line it starts on did
        parts, at = [], 0
        for s, e, new in sorted(edits):
            parts += [_ends_restored(text[at:s], text.count("\n", 0, at) + 1, crlf),
                      new.replace("\n", "\r\n") if text.count("\n", 0, s) + 1 in crlf else new]
            at = e
        return header + "".join(parts) + _ends_restored(text[at:], text.count("\n", 0, at) + 1, crlf)
    out = text
    for s, e, new in sorted(edits, reverse=True):
        out = out[:s] + new + out[e:]
    return header + out


def _ends_restored(segment: str, first_line: int, crlf) -> str:
    """`segment` of the file's text, from line `first_line` on, with each line's own end."""
    parts = segment.split("\n")
    return "\n".join(p + "\r" if first_line + k in crlf and k < len(parts) - 1 else p
                     for k, p in enumerate(parts))


_COMMENTS = re.compile(r"/\*.*?\*/|//.*")


def _leading_pragma(text: str, at: int) -> tuple[int, int, str]:
    """The edit that removes the `#pragma omp parallel for` line (or offload directive) right before a region, which
    the region's own output carries on its loop (frontend/omp_team.py)."""
    end = text.rfind("\n", 0, at)
    # blank lines and comments between the pragma and the region (Rodinia backprop's
    # `/*** For each unit in second layer ***/`)
    while end > 0 and not _COMMENTS.sub("", text[text.rfind("\n", 0, end) + 1:end]).strip():
        end = text.rfind("\n", 0, end)
    start = text.rfind("\n", 0, end) + 1
    if re.match(r"\s*#\s*endif\b", text[start:end]):
        # the pragma under `#ifndef HPCG_NO_OPENMP`: that line goes, the empty #ifndef stays
        end = start - 1
        start = text.rfind("\n", 0, end) + 1
    while start > 1 and text[text.rfind("\n", 0, start - 1) + 1:start - 1].rstrip().endswith("\\"):
        start = text.rfind("\n", 0, start - 1) + 1     # the lines a long directive continues
    return start, end + 1, ""


_LINE_DIRECTIVE = re.compile(r'^[ \t]*#[ \t]*(?:line[ \t]+)?(\d+)(?:[ \t]+"((?:[^"\\\n]|\\.)*)")?', re.M)


def _line_numbers_restored(text: str, end: int) -> str:
    """`#line L "file"` after a regenerated region where a #line before its end (a generator's
    `#line 500 "kernel.cl"`, inside the region or before it) numbers the lines: the region's
    new code has other lines, and `__LINE__`/`__FILE__` after it would change with them."""
    if text[end:end + 1] not in ("\n", ""):
        return ""
    end_line = text.count("\n", 0, end) + 1
    number, name = None, None
    for m in _LINE_DIRECTIVE.finditer(text, 0, end):
        number, at = int(m.group(1)), text.count("\n", 0, m.start()) + 1
        name = m.group(2) if m.group(2) is not None else name
    if number is None:
        return ""
    # the line after the region's last: the directive's next line is `number`
    follows = number + end_line - at
    return f"\n#line {follows}" + (f' "{name}"' if name is not None else "")
