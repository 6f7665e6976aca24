"""Orio fragments: the code of a PerfTuning block outside any function, compiled by Orio with
its build command and its input_vars / decl_file declarations."""
from __future__ import annotations

import os
import re

from pycparser import c_ast, c_parser

from looptx.errors import LooptxError, SourceError
from looptx.frontend.function_region import braces
from looptx.frontend.regions import blank
from looptx.frontend.syntax import MAIN

INPUT_VARS = "<input_vars>"


def brace_depth(text: str, offset: int) -> int:
    depth = 0
    for i, depth_after in braces(text[:offset]):
        depth = depth_after
    return depth


def bare_block(blanked: str, r) -> int | None:
    """The offset of the block outside any function that holds region `r` where that block is
    a statement of an Orio fragment (the first thing in its PerfTuning block, or after a `;` or
    a `}` there, and closed inside it); None otherwise."""
    if r.tuning is None:
        return None
    opened = None
    for at, depth in braces(blanked, r.tuning.begin[1]):
        if at >= r.start:
            break
        if depth == 1 and blanked[at] == "{":
            opened = at
        elif depth == 0:
            opened = None
    if opened is None or brace_depth(blanked, r.tuning.begin[1]) != 0:
        return None
    before = re.sub(r"(?m)^[ \t]*#.*$", "", blanked[r.tuning.begin[1]:opened]).rstrip()
    if before and before[-1] not in ";}" and not _statement_header(before):
        return None
    closed = next((at for at, depth in braces(blanked, opened) if depth == 0), None)
    return opened if closed is not None and closed < r.tuning.end[0] else None


def _statement_header(text: str) -> bool:
    """Whether `text` ends with the header of a statement whose body is a block (BG/P's
    `if (aligned) { Loop } else { Loop }` in an Orio fragment), not with a function's."""
    if re.search(r"\b(?:else|do)$", text):
        return True
    if not text.endswith(")"):
        return False
    depth = 0
    for k in range(len(text) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(text[k], 0)
        if depth == 0:
            return re.search(r"\b(?:if|for|while|switch)\s*$", text[:k]) is not None
    return False


WRAP_OPEN, WRAP_CLOSE = "void _lx_(){", "}"


def wrap_fragments(text: str, blanked: str, regions) -> tuple[str, list[int]]:
    """`blanked` with the regions outside any function (Orio fragments, a `#pragma scop` at
    file scope) put into a function whose header and end take the place of blanked markers
    (positions unchanged), and the indices of those regions."""
    wrapped, blocks = [], set()
    for r in regions:
        block = bare_block(blanked, r)
        if block is not None:
            # Orio pastes a fragment into its driver's main(): a block `{ int i; ... }` at its
            # top is a statement there; the PerfTuning markers around it hold the wrapper
            if block not in blocks:
                blanked = _place(blanked, r.tuning.begin, WRAP_OPEN)
                blanked = _place(blanked, r.tuning.end, WRAP_CLOSE)
                blocks.add(block)
            wrapped.append(r.index)
        elif brace_depth(blanked, r.start) == 0:
            if r.kind == "pragma":
                line_end = text.find("\n", r.outer[0])
                blanked = blank(blanked, [(r.outer[0], line_end)])
                blanked = _place(blanked, (r.outer[0], line_end), WRAP_OPEN)
                blanked = blank(blanked, [(r.end, r.outer[1])])
                blanked = _place(blanked, (r.end, r.outer[1]), WRAP_CLOSE)
            else:
                # (a leader without `begin`, `/*@ Loops(`, is short: the blanked transform
                # lines of its body give room too)
                code = min(r.start, r.chill.begin[1])
                while code < len(blanked) and blanked[code] in " \t\n":
                    code += 1
                blanked = _place(blanked, (r.chill.begin[0], code), WRAP_OPEN)
                blanked = _place(blanked, r.chill.end, WRAP_CLOSE)
            wrapped.append(r.index)

    return blanked, wrapped


def _place(text: str, span: tuple[int, int], what: str) -> str:
    """Write `what` over blanked characters of span (same length, positions unchanged)."""
    s, e = span
    room = [k for k in range(s, e) if text[k] != "\n"]
    if len(room) < len(what):
        raise SourceError("the region marker is too short to place the region's wrapper",
                          hint="put the region inside a function")
    chars = list(text)
    for k, ch in zip(room, what):
        chars[k] = ch
    return "".join(chars)


def declarations_error(decls: str | None, path: str) -> SourceError | None:
    """The syntax error of an Orio fragment's declarations, at the decl_file's line (its
    marker, from search.command.input_decls) or in `def input_vars`; None if they parse."""
    if not decls:
        return None
    try:
        c_parser.CParser().parse(decls, filename=INPUT_VARS)
        return None
    except c_parser.ParseError as e:
        m = re.match(r"(.*?):(\d+):(\d+): (.*)", str(e), re.S)
    except Exception:  # noqa: BLE001 - a lexer error: the whole file's parse reports it
        return None
    if m is None:
        return None
    what = re.sub(r"^before: (.*)$", r"before '\1'", m.group(4).strip(), flags=re.S)
    if m.group(1) in (INPUT_VARS, MAIN):
        return SourceError(f"syntax error in the declarations of def input_vars: {what}",
                           hint="fix the decl lines of def input_vars", file=path)
    name = m.group(1)
    file = name if os.path.isabs(name) else os.path.join(os.path.dirname(path), name)
    return SourceError(f"syntax error in the decl_file: {what}", hint="fix the C syntax of the decl_file",
                       file=file, line=int(m.group(2)), col=int(m.group(3)))


def outside_fragment_regions(err: SourceError, markup, blanked: str, wrapped: list) -> SourceError:
    """A syntax error at file scope, inside a PerfTuning block but outside its regions, is a
    statement of an Orio fragment that no region holds: Orio pastes the whole fragment into a
    function, looptx makes one function per region, so such code has no place to run."""
    if not wrapped or not markup.tuning or err.line is None:
        return err
    try:
        at = markup.src.offset(err.line, err.col or 1)
    except IndexError:
        return err
    if at < 0 or brace_depth(blanked, at) != 0 or any(r.outer[0] <= at < r.outer[1] for r in markup.regions):
        return err
    if not any(t.begin[1] <= at < t.end[0] for t in markup.tuning):
        return err
    return SourceError("a statement in a PerfTuning fragment outside its CHiLL / Loop regions: looptx "
                       "keeps only declarations there (each region runs as a function of its own)",
                       hint="move the statement into a region, or write the fragment inside a C function",
                       file=err.file, line=err.line, col=err.col)


def build_macro_params(markup, path: str) -> frozenset[str]:
    """The params a build command's -D flags carry (`-DKV=@U@`): a point's program is parsed
    with their values."""
    spec = _build_spec(markup, path)
    return spec.macro_params() if spec is not None else frozenset()


def _build_spec(markup, path: str):
    if not markup.tuning:
        return None
    from looptx.frontend.annotations import parse_tuning_spec
    ann = markup.tuning[0]
    line, col = markup.src.pos(ann.body_start)
    try:
        return parse_tuning_spec(ann.body, file=path, line=line, col=col,
                                 base_dir=os.path.dirname(os.path.abspath(path)))
    except LooptxError:
        return None


def build_macros(markup, path: str, defines) -> dict[str, str]:
    """The -D flags of the PerfTuning block's build command, which Orio compiles the code with
    (a spec that does not parse is reported where the search reads it); `-DKV=@U@` has U's
    value in `defines` (a point's, or -D U=...), else its first."""
    spec = _build_spec(markup, path)
    return spec.command_macros(dict(defines)) if spec is not None else {}


def unfinished_region_code(err: SourceError, markup, blanked: str) -> SourceError:
    """A syntax error at a region's end marker (`#pragma endscop`, or the brace that closes a
    region's wrapper function there) is code that stops short: it is shown where that code
    ends, not at the marker."""
    if err.line is None or not err.what.startswith("syntax error"):
        return err
    try:
        at = markup.src.offset(err.line, err.col or 1)
    except IndexError:
        return err
    for r in markup.regions:
        close = (r.end, r.outer[1]) if r.kind == "pragma" else r.chill.end
        last = len(blanked[:close[0]].rstrip())
        if close[0] <= at < close[1] and last > 0:
            line, col = markup.src.pos(last - 1)
            return SourceError("syntax error: the region's code ends inside a statement (its last "
                               "statement has no ';', or a '{' is not closed)",
                               hint="end the last statement with ';' and close every '{' before the "
                                    "region's end", file=err.file, line=line, col=col + 1)
    return err


def orio_iterators(items, known) -> list[str]:
    """Orio declares a fragment's loop counters itself (its MatMatMult CUDA test never does):
    a loop whose counter nothing declares counts with an int of its own, in place.  Returns
    those names."""
    from looptx.frontend.symbols import DeclCollector, all_nodes
    declared = set(known)
    for it in items:
        c = DeclCollector()
        c.visit(it)
        declared |= {d.name for d in c.decls if d.name}
    named = []
    for it in items:
        for n in all_nodes(it):
            init = n.init if isinstance(n, c_ast.For) else None
            if isinstance(init, c_ast.Assignment) and init.op == "=" and isinstance(init.lvalue, c_ast.ID) \
                    and init.lvalue.name not in declared:
                name = init.lvalue.name
                t = c_ast.TypeDecl(name, [], None, c_ast.IdentifierType(["int"]))
                n.init = c_ast.DeclList([c_ast.Decl(name, [], [], [], [], t, init.rvalue, None, init.coord)],
                                        init.coord)
                if name not in named:
                    named.append(name)
    return named
