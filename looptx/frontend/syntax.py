"""C syntax errors and trees the later stages cannot take, as located one-line errors."""
from __future__ import annotations

import re

from pycparser import c_ast, c_parser

from looptx.errors import SourceError
from looptx.frontend.affine import bad_int_constant, c_int_value
from looptx.frontend.regions import SourceText, blank, quiet_spans

MAIN = "<stdin>"      # the name the parser gives the user's file (line markers name the others)


_CUDA = re.compile(r"\b__(?:global|device|shared|constant|host)__\b|<<<")
CUDA_FILE = "the file holds CUDA code"


def syntax_error(e: Exception, parser: c_parser.CParser, column, text: SourceText) -> SourceError:
    msg, path = str(e), text.filename
    cuda = _CUDA.search(text.text)
    if cuda:
        # PolyBench/GPU keeps each reference loop in the .cu beside its kernels
        return text.error(cuda.start(), f"{CUDA_FILE} ('{cuda.group()}'), which looptx does not "
                          "read: it reads C and writes the CUDA itself (--target cuda)",
                          "copy the C function with the loops to transform (and what it uses) into "
                          "a .c file")
    if _is_recipe(text.text):
        return SourceError("the file is a YAML recipe, not C", file=path, line=1, col=1,
                           hint=f"give the C file as FILE, and this one with --recipe {path}")
    m = re.match(r"(.*?):(\d+):(\d+): (.*)", msg, re.S)
    if m and m.group(1) == MAIN:
        line, col = int(m.group(2)), int(m.group(3))
        what = re.sub(r"^before: (.*)$", r"before '\1'", m.group(4).strip(), flags=re.S)
        hint, at = _unread(text, line)
        if at is not None and "Illegal character" in what:
            # pycparser reads a UTF-8 letter as escapes ('\\'), a column or two early
            what, col = f"'{text.text[at]}' cannot start or continue a C token here", text.pos(at)[1]
            return SourceError(f"syntax error: {what}", hint=hint, file=path, line=line, col=col)
        return SourceError(f"syntax error: {what}", hint=hint or "fix the C syntax", file=path,
                           line=line, col=column(line, col))
    if m and m.group(1) and not m.group(1).startswith("<"):
        # in a header the file includes: its own place
        what = re.sub(r"^before: (.*)$", r"before '\1'", m.group(4).strip(), flags=re.S)
        return SourceError(f"syntax error: {what}", hint="fix the C syntax", file=m.group(1),
                           line=int(m.group(2)), col=int(m.group(3)))
    # Some errors (an operand missing: `x = ;`, `a * 2.0 +;`) are raised with the file name
    # only; the parser stopped at the token that cannot start the expected construct, so that
    # token is the place to show.
    what = msg.split(": ", 1)[1].strip() if ": " in msg else msg.strip()
    what = what[:1].lower() + what[1:]
    tok = _stopped_at(parser)
    if tok is not None and getattr(tok, "filename", MAIN) == MAIN and tok.lineno:
        return SourceError(f"syntax error: {what} before '{tok.value}'", hint="fix the C syntax",
                           file=path, line=tok.lineno, col=column(tok.lineno, tok.column or 1))
    if tok is None:                 # the input ended early: point just past its last character
        last = len(text.text.rstrip())
        what = "the file ends early" if "end of input" in what else f"{what} at the end of the file"
        return text.error(last, f"syntax error: {what}", "fix the C syntax")
    return SourceError(f"syntax error: {what}", hint="fix the C syntax", file=path)


_GCC_ERROR = re.compile(r"^<stdin>:(\d+):(\d+): error: (.*)$(?:\n<stdin>:\d+:\d+: note: (.*)$)?", re.M)


def gcc_says(err: SourceError, text: str, path: str, defines: dict) -> SourceError:
    """gcc's words for a syntax error where looptx's parser has only its generic ones (`expected
    ')' before 'for'` on the line of the `for (...` that lacks it, not "before 'for'" on the next
    line; `unknown type name 'dobule'`; `#endif without #if`): gcc's first error at or before
    the parser's place, for the file as the parser read it (`text`: comments blanked in place)."""
    import os
    import subprocess
    from looptx.frontend.preprocess import include_dirs
    if err.hint != "fix the C syntax" or err.file != path or "ends early" in err.what or "end of the file" in err.what:
        # (the parser's end of the input is where the code stops; gcc's is at the last token)
        return err
    dirs = [os.path.dirname(os.path.abspath(path)), *include_dirs()]
    try:
        run = subprocess.run(["gcc", "-fsyntax-only", "-w", "-fdiagnostics-column-unit=byte", "-x", "c",
                              *(f"-I{d}" for d in dirs),
                              *(f"-D{k}={v}" for k, v in defines.items()), "-"], input=text, text=True,
                             capture_output=True, timeout=30, env={**os.environ, "LC_ALL": "C"})
    except (OSError, subprocess.SubprocessError):
        return err
    if run.returncode == 0:
        # GNU C that pycparser does not read (a case range, `&&label`, a nested function)
        err.hint = "gcc reads this file and looptx's C parser (pycparser) does not: write the construct " \
            "here in standard C"
        return err
    # (an undeclared name is the error only where gcc's note says which header declares it: the
    # file may declare it in a header looptx replaces, or end early after it, `x = 1 +`)
    m = next((m for m in _GCC_ERROR.finditer(run.stderr)
              if "undeclared" not in m.group(3) or "header" in (m.group(4) or "")), None)
    if m is None or err.line is not None and int(m.group(1)) > err.line:
        return err
    line, col, what = int(m.group(1)), int(m.group(2)), m.group(3).strip()
    # (looptx counts a line's characters, gcc here its bytes)
    row = text.split("\n")[line - 1] if line <= text.count("\n") + 1 else ""
    col = len(row.encode()[:col - 1].decode(errors="ignore")) + 1
    # gcc's note says what to do where it has one (`#include <stdint.h>` for an undeclared uint32_t)
    hint = m.group(4).strip() if m.group(4) else "fix the C syntax"
    return SourceError(what if "undeclared" in what else f"syntax error: {what}", hint=hint, file=path,
                       line=line, col=col)


_STANDARD = "write it in standard C"
_UNREAD = ((re.compile(r"\(\s*\{"), "a GNU statement expression `({ ... })`", _STANDARD),
           (re.compile(r"\b(?:typeof|__typeof__|__typeof|__auto_type)\b"), "GNU's typeof / __auto_type", _STANDARD),
           (re.compile(r"[^\x00-\x7f]"), "a character outside ASCII in the code (a UTF-8 identifier)",
            "write the name in ASCII"),
           (re.compile(r"<:|:>|<%|%>|%:"), "a digraph (<: :> <% %> %:)", "spell it with [ ] { } #"))


def _unread(text: SourceText, line: int) -> tuple[str | None, int | None]:
    """(hint, offset of the construct on the error's line) for a syntax error in a file that
    uses what gcc reads and pycparser does not: on that line first, else the file's first such
    construct, with its line (a macro's statement expression fails where it is used)."""
    quiet = blank(text.text, [(s, e) for kind, s, e in quiet_spans(text.text)])
    lo = text.offset(line, 1) if 1 <= line <= len(text.text.splitlines()) else 0
    hi = quiet.find("\n", lo)
    hi = len(quiet) if hi < 0 else hi
    for where in ((lo, hi), (0, len(quiet))):
        for pattern, what, remedy in _UNREAD:
            found = pattern.search(quiet, *where)
            if found:
                return (f"line {text.pos(found.start())[0]} uses {what}, which gcc reads and looptx's C "
                        f"parser (pycparser) does not: {remedy}",
                        found.start() if where[0] == lo and where != (0, len(quiet)) else None)
    return None, None


def _is_recipe(text: str) -> bool:
    """A file that does not parse as C and reads as a recipe (steps:) was given in the wrong
    place; the parser's own words ("Directives not supported yet", for its # comments) would
    not say so."""
    if not re.search(r"^steps\s*:", text, re.M):
        return False
    import yaml
    try:
        data = yaml.safe_load(text)
    except (yaml.YAMLError, RecursionError):
        return False
    return isinstance(data, dict) and "steps" in data


MAX_NESTING = 200     # the recursive visitors after the parser (pycparser's C generator among
                      # them) run out of Python stack a little above 240 levels


def _deepest(node):
    """A node more than MAX_NESTING levels below `node`, or None (walked without recursion)."""
    stack = [(node, 0)]
    while stack:
        n, depth = stack.pop()
        if depth > MAX_NESTING:
            return n
        stack.extend((ch, depth + 1) for _, ch in n.children())
    return None


def prune_deep(ast, region_lines, function: str | None, where, path: str) -> None:
    """A function that holds no region and whose code is nested too deeply for the recursive
    passes (a generated sum of 1000 terms) is read as one whose body is unknown: it is not
    transformed, its text is written out as it is, and a region that calls it is refused for
    the call.  A global's too deep initializer is dropped alike."""
    for k, e in enumerate(ast.ext):
        deep = _deepest(e)
        if deep is None:
            continue
        start = e.coord.line if e.coord is not None and e.coord.file == MAIN else None
        nxt = next((x.coord.line for x in ast.ext[k + 1:] if x.coord is not None and x.coord.file == MAIN),
                   10 ** 9)
        mine = start is not None and any(start <= line < nxt for line in region_lines)
        if isinstance(e, c_ast.FuncDef) and not mine and e.decl.name != function:
            e.body = c_ast.Compound([c_ast.FuncCall(c_ast.ID("lx_body_too_deep_to_read"), None)], e.body.coord)
        elif isinstance(e, c_ast.Decl) and not mine and not isinstance(e.type, c_ast.FuncDecl):
            e.init = None
        else:
            check_tree(e, where, path)      # the nesting error, at the deepest line written


def check_tree(ast, where, path: str) -> None:
    """What the parser accepts but later stages cannot take: C23's `1'000` (every reader of a
    constant assumes C89-C17 spellings) and nesting so deep (a sum of 300 terms is 300 levels)
    that the recursive visitors would exhaust Python's stack.  Walked without recursion."""
    stack = [(ast, 0, ast)]
    while stack:
        node, depth, placed = stack.pop()
        coord = getattr(node, "coord", None)
        if coord is not None and coord.file == MAIN and coord.line:
            placed = node
        if depth > MAX_NESTING:
            line, col = where(placed)
            raise SourceError(f"expression or block nested too deeply (more than {MAX_NESTING} levels)",
                              hint="split it, e.g. with temporary variables", file=path,
                              line=line or None, col=col or None)
        if isinstance(node, c_ast.Constant) and node.type.endswith("int"):
            try:
                c_int_value(node.value)
            except ValueError:
                line, col = where(node)
                what, hint = bad_int_constant(node.value)
                raise SourceError(what, hint=hint, file=path, line=line or None, col=col or None) from None
        stack.extend((ch, depth + 1, placed) for _, ch in node.children())


def too_deep(parser: c_parser.CParser, column, text: SourceText) -> SourceError:
    """pycparser descends recursively, so a deep nest of parentheses or blocks exhausts Python's
    stack; the token it had reached is inside the nest."""
    what, hint = "expression or block nested too deeply", "split it, e.g. with temporary variables"
    tok = _stopped_at(parser)
    if tok is not None and getattr(tok, "filename", MAIN) == MAIN and tok.lineno:
        return SourceError(what, hint=hint, file=text.filename, line=tok.lineno,
                           col=column(tok.lineno, tok.column or 1))
    return SourceError(what, hint=hint, file=text.filename)


def _stopped_at(parser: c_parser.CParser):
    """The token the parser could not consume (None at the end of the input); pycparser has
    no public way to ask, so its token stream is read, and a change there yields None."""
    try:
        return parser._tokens.peek(1)
    except Exception:
        return None


def unlabelled(fdef: c_ast.FuncDef, items: list, where, path: str) -> list:
    """The region's items with the labels no goto of the function names taken off their
    statements (MachSuite's `outer:for(...)`, Vitis HLS's `Shift_Accum_Loop:` on its own line:
    names that HLS tools hang directives and reports on, no control flow), with a note: the
    loops looptx writes are others, and a label copied onto each (an unroll's cleanup loop too)
    would be defined twice.  A label some goto names stays, and is refused as a jump."""
    from looptx.errors import note_once
    from looptx.frontend.symbols import all_nodes
    targets = {n.name for n in all_nodes(fdef.body) if isinstance(n, c_ast.Goto)}
    dropped: list[str] = []

    def strip(node):
        while isinstance(node, c_ast.Label) and node.name not in targets:
            dropped.append((node.name, where(node)))
            node = node.stmt
        for attr in ("stmt", "iftrue", "iffalse"):
            child = getattr(node, attr, None)
            if child is not None:
                setattr(node, attr, strip(child))
        if isinstance(node, c_ast.Compound) and node.block_items:
            node.block_items = [strip(x) for x in node.block_items]
        return node
    out = [strip(it) for it in items]
    if dropped:
        (line, col), names = dropped[0][1], [n for n, _ in dropped]
        note_once(path, line or 1, f"the labels {', '.join(names)} are not in the output: no goto names them, "
                  "and the loops it writes are new" if len(names) > 1 else
                  f"the label {names[0]} is not in the output: no goto names it, and the loops it writes are new",
                  col=col or None)
    return out


# HLS directives about a loop; the others at a region's top level (INTERFACE, ARRAY_PARTITION,
# DATAFLOW, ...) are about the function and its arrays
_HLS_LOOP = {"pipeline", "unroll", "loop_tripcount", "loop_flatten", "loop_merge", "dependence"}


def function_directives(top_pragmas: dict, text: str, span: tuple[int, int]) -> tuple[tuple[str, ...], set[int]]:
    """The HLS directives among the pragmas at the region's top level that are about the
    function rather than a loop (Rosetta's `#pragma HLS array_partition variable=param cyclic`),
    which the regenerated region keeps at its start, and their lines.  `text`: the file with
    comments blanked; `span`: the region's (first, last) line."""
    kept = [p.strip() for texts in top_pragmas.values() for p in texts
            if p.split()[:1] == ["HLS"] and len(p.split()) > 1 and p.split()[1].lower() not in _HLS_LOOP]
    lines = set()
    for p in kept:
        for m in re.finditer(r"^[ \t]*#[ \t]*pragma[ \t]+" + r"\s+".join(map(re.escape, p.split())), text, re.M):
            line = text.count("\n", 0, m.start()) + 1
            if span[0] <= line <= span[1]:
                lines.add(line)
    return tuple(kept), lines


_AT_FILE_SCOPE = re.compile(r"syntax error: expected identifier or '\(' before '(if|for|while|do|switch|return)'$")
_BEST_OF = re.compile(r"best variant\(s\) found by `looptx search` \([^)]*\) for (\S+)")


def statement_outside_functions(err: SourceError, text: str) -> SourceError:
    """A statement at file scope (`if (N == 50) {`): the code of an Orio fragment, whose best
    file looptx wrote as Orio pastes it into its driver; "fix the C syntax" sent the user to fix
    a file looptx wrote (probe 229 G3)."""
    m = _AT_FILE_SCOPE.match(err.what)
    if m is None:
        return err
    best = _BEST_OF.search(text[:2000])
    err.what = f"a statement ('{m.group(1)}') outside any function: looptx reads C whose code is in functions"
    err.hint = (f"this best file of {best.group(1)} holds an Orio fragment, which runs in the code it is pasted "
                f"into; run {best.group(1)} itself at the point (looptx run {best.group(1)}{_point_flags(text)})"
                if best else "put the code in a function, or mark an Orio fragment with its PerfTuning block, "
                             "whose input_vars declare its data")
    return err


def _point_flags(text: str) -> str:
    """` -D U=1` for the first point a best file's header names, ` -D NAME=VALUE` without one."""
    import json
    m = re.search(r"point (\{.*?\})\s*$", text[:2000], re.M)
    try:
        point = json.loads(m.group(1)) if m else None
    except ValueError:
        point = None
    if not isinstance(point, dict) or not point:
        return " -D NAME=VALUE"
    return "".join(f" -D {k}={v}" for k, v in point.items() if isinstance(v, (int, float, str)) and not isinstance(v, bool)) \
        or " -D NAME=VALUE"

