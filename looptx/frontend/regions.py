"""Find the regions of a C file that looptx works on, without parsing C.

Markers, in order of precedence: `/*@ begin CHiLL ( ... ) @*/ ... /*@ end @*/` (possibly inside a
`/*@ begin PerfTuning ( ... ) @*/ ... /*@ end @*/` block), `#pragma scop` / `#pragma endscop`.
Everything is kept as byte offsets into the original text so that error messages and the
regenerated file refer to the user's own text.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from looptx.errors import SourceError, note_once


class SourceText:
    """The original text with offset <-> (line, column) conversion (both 1-based)."""

    def __init__(self, text: str, filename: str):
        self.text = text
        self.filename = filename
        self._line_starts = [0] + [m.end() for m in re.finditer(r"\n", text)]

    def pos(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1

    def offset(self, line: int, col: int) -> int:
        return self._line_starts[line - 1] + col - 1

    def line_text(self, line: int) -> str:
        start = self._line_starts[line - 1]
        end = self.text.find("\n", start)
        return self.text[start:] if end < 0 else self.text[start:end]

    def error(self, offset: int, what: str, hint: str | None = None) -> SourceError:
        line, col = self.pos(offset)
        return SourceError(what, hint=hint, file=self.filename, line=line, col=col)


@dataclass(frozen=True)
class Comment:
    start: int          # offset of '/*' or '//'
    end: int            # offset just past the comment
    text: str


@dataclass(frozen=True)
class Annotation:
    """One `/*@ begin MODULE ( BODY ) @*/` marker and its matching `/*@ end @*/`."""
    module: str
    body: str
    body_start: int     # offset of the body's first character in the original text
    begin: tuple[int, int]   # span of the begin comment
    end: tuple[int, int]     # span of the end comment
    parent: int | None = None   # index of the enclosing annotation


@dataclass(frozen=True)
class Region:
    kind: str                    # 'chill' | 'pragma' | 'function'
    start: int                   # first offset of the region's code
    end: int                     # offset just past the region's code
    outer: tuple[int, int]       # span replaced when the region is regenerated (markers included)
    index: int = 0
    chill: Annotation | None = None
    tuning: Annotation | None = None
    function: str | None = None
    keep_markers: tuple[str, str] = ("", "")   # text re-emitted around generated code

    @property
    def orio_code(self) -> bool:
        """An Orio Loop annotation's region: its code is the annotation's own body (Orio
        drops the code between its markers)."""
        return self.chill is not None and self.start == self.chill.body_start


def end_position(src: SourceText, r: Region) -> tuple[int, int]:
    """(line, column) past the region's code (a function region ends with its last line)."""
    return (src.pos(r.end)[0], 10 ** 9) if r.kind == "function" else src.pos(r.end)


_TOKEN = re.compile(r'/\*|//|"|\'')


def quiet_spans(text: str) -> list[tuple[str, int, int]]:
    """(kind, start, end) of every comment ('comment') and string or character literal
    ('literal'), in order: the text where a C compiler takes any character."""
    out, i, n = [], 0, len(text)
    while True:
        m = _TOKEN.search(text, i)
        if not m:
            return out
        tok, s = m.group(), m.start()
        if tok == "/*":
            e = text.find("*/", s + 2)
            e = n if e < 0 else e + 2
            out.append(("comment", s, e))
        elif tok == "//":
            # a backslash at the line's end splices the next line into the comment, before
            # comments are found (C's translation phase 2; gcc warns "multi-line comment")
            e = text.find("\n", s + 2)
            while e >= 0 and text[s:e].rstrip(" \t").endswith("\\"):
                e = text.find("\n", e + 1)
            e = n if e < 0 else e
            out.append(("comment", s, e))
        else:
            e = s + 1
            while e < n and text[e] != tok and text[e] != "\n":
                e += 2 if text[e] == "\\" else 1
            e = min(e + 1, n)
            out.append(("literal", s, e))
        i = e


def scan_comments(text: str) -> list[Comment]:
    """All comments, skipping string and character literals; Orio's pragma form of an
    annotation (`#pragma Orio Loop(...)` ... `#pragma Oiro`) counts as its comment form."""
    spans = quiet_spans(text)
    out = [Comment(s, e, text[s:e]) for kind, s, e in spans if kind == "comment"]
    if "Orio" in text or "Oiro" in text:
        quiet = [(s, e) for _, s, e in spans]
        out += [c for c in _orio_pragmas(text) if not any(s <= c.start < e for s, e in quiet)]
        out.sort(key=lambda c: c.start)
    return out


# Orio's ann_parser: `#pragma Orio MODULE(BODY)` opens, `#pragma Oiro` (sic) closes
_ORIO_PRAGMA = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+(?:(Orio)[ \t]+(?=[A-Za-z_])|(Oiro)\b)(?:[^\n]*\\\n)*[^\n]*", re.M)


def _orio_pragmas(text: str) -> list[Comment]:
    """Each Orio pragma line as the comment it stands for, its module at the same offset (errors
    in its body point into the line): `/*@ begin` padded to the pragma's prefix, `@*/` after."""
    out = []
    for m in _ORIO_PRAGMA.finditer(text):
        line = m.group().replace("\\\n", " \n")
        if m.group(2):
            out.append(Comment(m.start(), m.end(), "/*@ end @*/"))
            continue
        head = m.start(1) + len("Orio") - m.start()
        head += len(line) - head - len(line[head:].lstrip(" \t"))
        out.append(Comment(m.start(), m.end(), "/*@ begin".ljust(head) + line[head:].rstrip() + " @*/"))
    return out


def blank(text: str, spans) -> str:
    """Replace the characters of the spans by spaces, keeping newlines (positions unchanged)."""
    chars = list(text)
    for s, e in spans:
        for k in range(s, e):
            if chars[k] != "\n":
                chars[k] = " "
    return "".join(chars)


_ORIO_DIRECTIVE = re.compile(r"\btransform\s+([A-Za-z_]\w*)\s*\(")


def bracket_step(ch: str, quote: str | None, depth: int) -> tuple[str | None, int]:
    """One character of a Python-like argument list: the open string quote and the bracket
    depth after it (quotes hide brackets)."""
    if quote:
        return (None if ch == quote else quote), depth
    if ch in "\"'":
        return ch, depth
    if ch in "([{":
        return None, depth + 1
    if ch in ")]}":
        return None, depth - 1
    return None, depth


def _directives_and_comments(body: str):
    """(directives as orio_directives gives them, the comment spans outside them): a directive's
    arguments are Python, where `//` divides (`T // 2`) and starts no comment."""
    comments = [(c.start, c.end) for c in scan_comments(body)]
    out, at = [], 0
    while True:
        m = _ORIO_DIRECTIVE.search(blank(body, comments), at)
        if m is None:
            return out, comments
        depth, quote, k = 0, None, m.end() - 1
        while k < len(body):
            quote, depth = bracket_step(body[k], quote, depth)
            if depth == 0:
                break
            k += 1
        if depth:
            raise ValueError(m.start())
        # what follows is scanned afresh: a `//` in the arguments hid the rest of their line
        comments = [(s, e) for s, e in comments if e <= m.start()] + \
            [(c.start + k + 1, c.end + k + 1) for c in scan_comments(body[k + 1:])]
        out.append((m.group(1), body[m.end():k], m.start(), k + 1))
        at = k + 1


def orio_directives(body: str) -> list[tuple[str, str, int, int]]:
    """Orio Loop-module directives `transform NAME(ARGS)` in an annotation body, as
    (NAME, ARGS, start, end) offsets into the body.  An unclosed one raises ValueError(offset)."""
    return _directives_and_comments(body)[0]


def orio_loop_code(body: str) -> str:
    """The C code of an Orio Loop-module body: comments, directives and the `#` lines Orio's
    lexer takes for comments blanked, positions unchanged."""
    directives, spans = _directives_and_comments(body)
    spans += [(s, e) for _, _, s, e in directives]
    spans += [(m.start(), m.end()) for m in re.finditer(r"^[ \t]*#[^\n]*", body, re.M)]
    return blank(body, spans)


def is_orio_loop(module: str, body: str) -> bool:
    """A Loop-module body holds Orio directives and C code, not CHiLL commands."""
    if module.lower() not in ("loop", "loops"):
        return False
    code = blank(body, [(c.start, c.end) for c in scan_comments(body)])
    return bool(_ORIO_DIRECTIVE.search(code) or re.search(r"\bfor\s*\(", code))


def _has_orio_code(src: SourceText, a: "Annotation") -> bool:
    """Orio transforms the code inside the Loop annotation; only a body of bare directives
    takes the code between the markers."""
    try:
        return bool(orio_loop_code(a.body).strip())
    except ValueError as e:
        raise src.error(a.body_start + e.args[0], "this 'transform' has no closing parenthesis",
                        "close its argument list before the loop it transforms") from None


# Orio's leader makes `begin` optional (`/*@ Loops(transform Pragma(...)) @*/`), and so its trailer `end`
_ANN = re.compile(r"/\*@\s*(?:(?:begin\s+)?(?!end\b)([A-Za-z_]\w*)\s*\((.*)\)\s*|end\s*|)@\*/\Z", re.S)


def scan_annotations(src: SourceText, comments: list[Comment]) -> list[Annotation]:
    """Pair `/*@ begin M (...) @*/` with `/*@ end @*/`, innermost first in the stack sense."""
    stack: list[tuple[str, str, int, tuple[int, int], int | None]] = []
    found: list[Annotation] = []
    open_index: list[int] = []
    for c in comments:
        if not c.text.startswith("/*@"):
            continue
        inner = c.text.find("/*@", 3)
        if inner > 0 and re.match(r"/\*@\s*(begin\b|(?!end\b)[A-Za-z_]\w*\s*\()", c.text):
            # C comments do not nest: a header missing its '@*/' runs on to the next marker's
            line, _ = src.pos(c.start + inner)
            raise src.error(c.start, f"this annotation is not closed before the next one (line {line})",
                            "end it with ') @*/'")
        if not c.text.endswith("*/"):
            raise src.error(c.start, "this annotation is never closed",
                            "end it with ') @*/'")
        if not c.text.endswith("@*/"):
            raise src.error(c.start, "malformed looptx/Orio annotation",
                            "an annotation is written /*@ begin NAME ( ... ) @*/ or /*@ end @*/")
        m = _ANN.match(c.text)
        if not m and not re.match(r"/\*@\s*(begin|end)\b|/\*@\s*[A-Za-z_]\w*\s*\(", c.text):
            continue            # a comment that only looks like one (uFDTD's `/*@ \label{...} @*/`)
        if not m:
            raise src.error(c.start, "malformed annotation marker",
                            "write /*@ begin NAME ( ... ) @*/ or /*@ end @*/")
        if m.group(1):
            body_off = c.start + c.text.index("(", c.text.index(m.group(1))) + 1
            parent = open_index[-1] if open_index else None
            stack.append((m.group(1), m.group(2), body_off, (c.start, c.end), parent))
            open_index.append(len(found) + len(stack) - 1)
        else:
            if not stack:
                raise src.error(c.start, "'/*@ end @*/' without a matching '/*@ begin ... @*/'",
                                "remove it or add the begin marker")
            module, body, body_off, begin, parent = stack.pop()
            open_index.pop()
            found.append(Annotation(module, body, body_off, begin, (c.start, c.end), parent))
    if stack:
        module, _, _, begin, _ = stack[-1]
        if src.text.startswith("#", begin[0]) or src.text[begin[0]:begin[1]].lstrip().startswith("#"):
            raise src.error(begin[0], f"'#pragma Orio {module}(...)' has no matching '#pragma Oiro'",
                            "close the region with #pragma Oiro (Orio's spelling)")
        raise src.error(begin[0], f"'/*@ begin {module} ... @*/' has no matching '/*@ end @*/'",
                        "close the region with /*@ end @*/")
    # re-link parents by span containment (found is in closing order)
    found.sort(key=lambda a: a.begin[0])
    linked = []
    for a in found:
        parents = [k for k, b in enumerate(linked) if b.begin[0] < a.begin[0] and a.end[1] <= b.end[1]]
        linked.append(Annotation(a.module, a.body, a.body_start, a.begin, a.end,
                                 parents[-1] if parents else None))
    return linked


# C99's `_Pragma("scop")` is the same marker (pet and PPCG read both), at a line's start or not
_PRAGMA = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+(scop|endscop)\b[^\n]*"
                     r"|(?:^[ \t]*)?\b_Pragma\s*\(\s*\"[ \t]*(scop|endscop)[ \t]*\"\s*\)", re.M)


_MACRO_MARKER = re.compile(r"^[ \t]*#[ \t]*define[ \t]+\w+[^\n]*\b_Pragma\s*\(\s*\"[ \t]*scop[ \t]*\"", re.M)


def no_macro_markers(src: SourceText, comments) -> None:
    m = _MACRO_MARKER.search(blank(src.text, [(c.start, c.end) for c in comments]))
    if m:
        raise src.error(_first_char(m), "a region marker through a macro (_Pragma(\"scop\") in a #define) "
                        "is not read as one", "write #pragma scop / #pragma endscop around the loop nest")


def no_region(src: SourceText) -> SourceError:
    return SourceError("no region to transform",
                       hint="mark the loop nest with #pragma scop/#pragma endscop or "
                            "/*@ begin CHiLL ( ) @*/ ... /*@ end @*/, or name a function with --function",
                       file=src.filename, line=1, col=1)


def _first_char(m: re.Match) -> int:
    return m.start() + len(m.group()) - len(m.group().lstrip())


def scan_pragmas(src: SourceText, comments: list[Comment]) -> list[Region]:
    # (a string literal continued over lines may hold a line that reads as a marker)
    literals = [(s, e) for kind, s, e in quiet_spans(src.text) if kind == "literal" and "\n" in src.text[s:e]]
    text = blank(src.text, [(c.start, c.end) for c in comments] + literals)
    regions, open_at = [], None
    for m in _PRAGMA.finditer(text):
        if m.group(2) and text[text.rfind("\n", 0, m.start()) + 1:].lstrip(" \t").startswith("#"):
            continue        # a macro's body (no_macro_markers)
        if (m.group(1) or m.group(2)) == "scop":
            if open_at is not None:
                raise src.error(_first_char(m), "nested '#pragma scop'",
                                "close the previous region with #pragma endscop")
            open_at = m
        else:
            if open_at is None:
                raise src.error(_first_char(m), "'#pragma endscop' without '#pragma scop'",
                                "add #pragma scop before the region")
            start = text.find("\n", open_at.end())
            if open_at.group(2) and text[open_at.end():start if start >= 0 else None].strip():
                start = open_at.end() - 1       # `_Pragma("scop") for (...)`: the loop is on its line
            start, end = _outside_conditionals(src, text, start + 1 if start >= 0 else open_at.end(), m.start())
            # the lines of #endif / #ifdef that the markers' own conditionals hold stay with them
            regions.append(Region("pragma", start, end, (open_at.start(), m.end()),
                                  keep_markers=(src.text[open_at.start():start].rstrip("\n"),
                                                src.text[end:m.end()])))
            open_at = None
    if open_at is not None:
        raise src.error(_first_char(open_at), "'#pragma scop' has no matching '#pragma endscop'",
                        "close the region with #pragma endscop")
    return regions


_CLOSING = re.compile(r"[ \t]*#[ \t]*endif\b[^\n]*\n")
_OPENING = re.compile(r"[ \t]*#[ \t]*(if|ifdef|ifndef)\b[^\n]*\n")


def if_depths(text: str) -> tuple[int, int]:
    """(lowest, final) nesting depth of the #if groups of `text`, from 0."""
    depth = low = 0
    for m in re.finditer(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|endif)\b", text, re.M):
        depth += -1 if m.group(1) == "endif" else 1
        low = min(low, depth)
    return low, depth


def unmatched_directive(text: str, start: int, end: int) -> int:
    """Where the #endif without its #if, or the #if without its #endif, of text[start:end] is."""
    opened: list[int] = []
    for m in re.finditer(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|endif)\b", text[start:end], re.M):
        if m.group(1) != "endif":
            opened.append(start + m.start())
        elif opened:
            opened.pop()
        else:
            return start + m.start()
    return opened[0] if opened else start


def _outside_conditionals(src: SourceText, text: str, start: int, end: int) -> tuple[int, int]:
    """The region's code without the #endif that closes, right after the opening marker, a
    conditional opened before it, and without the #if that opens, right before the closing
    marker, one closed after it (`#ifdef USE_TUNED / #pragma scop / #endif`: markers hidden from
    some compilers).  The output keeps those lines with the markers: the loops stay outside."""
    while True:
        m = _CLOSING.match(text, start)
        if m is None or if_depths(text[start:end])[0] >= 0:
            break
        start = m.end()
    while True:
        line = text.rfind("\n", start, end - 1) + 1 if end > start else start
        line = max(line, start)
        if not _OPENING.fullmatch(text, line, end) or if_depths(text[start:end])[1] <= 0:
            break
        end = line
    if if_depths(text[start:end]) != (0, 0):
        raise src.error(unmatched_directive(text, start, end), "a preprocessor conditional (#if ... #endif) opens on one side of the "
                        "region's markers and closes on the other",
                        "put both markers and the loops inside the conditional, or the conditional "
                        "inside the region")
    return start, end


def _check_whole_blocks(src: SourceText, quiet: str, r: Region) -> None:
    """A region is whole statements: its markers in one block.  A marker inside a loop's braces
    and the other outside would leave a brace of that loop behind in the output."""
    opened: list[int] = []
    begin, end = ("'#pragma scop'", "'#pragma endscop'") if r.kind == "pragma" else \
        (f"'/*@ begin {r.chill.module} ... @*/'", "'/*@ end @*/'")
    for k in range(r.start, r.end):
        if quiet[k] == "{":
            opened.append(k)
        elif quiet[k] == "}":
            if not opened:
                raise src.error(r.outer[0], f"{begin} is inside a block that closes at line {src.pos(k)[0]}, "
                                            f"before {end}", "put both markers in the same block, around whole statements")
            opened.pop()
    if opened:
        raise src.error(r.end, f"{end} is inside the block opened at line {src.pos(opened[0])[0]}",
                        "put both markers in the same block, around whole statements")


@dataclass(frozen=True)
class Markup:
    """Everything the scanner found in one file."""
    src: SourceText
    comments: tuple[Comment, ...]
    annotations: tuple[Annotation, ...]
    regions: tuple[Region, ...]
    tuning: tuple[Annotation, ...] = field(default=())


# Orio modules that only add compiler hints around unchanged code: the code inside is read as
# if they were not there.
_HINT_MODULES = {"Align": "Blue Gene XL alignment checks and __alignx hints"}


def scan(text: str, filename: str) -> Markup:
    src = SourceText(text, filename)
    comments = scan_comments(text)
    # (an annotation's own, `/*@ begin PerfTuning (` never closed, is said by its reader)
    open_comment = next((c for c in comments if c.text.startswith("/*") and not c.text.startswith("/*@") and
                         (len(c.text) < 4 or not c.text.endswith("*/"))), None)
    if open_comment is not None:
        # it runs to the end of the file, swallowing any region's end marker after it
        raise src.error(open_comment.start, "unterminated comment", "close it with */")
    anns = scan_annotations(src, comments)
    regions: list[Region] = []
    regionish = ("chill", "loop", "loops", "cuda")
    for a in anns:
        if a.module.lower() in regionish:
            outer = a.parent
            while outer is not None and anns[outer].module.lower() not in regionish:
                outer = anns[outer].parent
            if outer is not None:
                raise src.error(a.begin[0], f"a {a.module} region inside the {anns[outer].module} region of line "
                                f"{src.pos(anns[outer].begin[0])[0]}: looptx transforms each region as one nest",
                                "give the inner annotation's commands in the outer one (their statement "
                                "numbers and loop names are the nest's), and remove the inner markers")
            tuning = None
            p = a.parent
            while p is not None:
                if anns[p].module == "PerfTuning":
                    tuning = anns[p]
                    break
                p = anns[p].parent
            start, end = a.begin[1], a.end[0]
            if is_orio_loop(a.module, a.body) and _has_orio_code(src, a):
                start, end = a.body_start, a.body_start + len(a.body)
            regions.append(Region("chill", start, end, (a.begin[0], a.end[1]), chill=a, tuning=tuning))
        elif a.module in _HINT_MODULES:
            note_once(filename, src.pos(a.begin[0])[0],
                      f"Orio's {a.module} module ({_HINT_MODULES[a.module]}) is ignored: looptx "
                      "transforms and measures the code inside it without it")
        elif a.module != "PerfTuning":
            raise src.error(a.begin[0], f"unknown annotation module '{a.module}'",
                            "looptx reads Orio's PerfTuning, Loop, Loops and CHiLL annotations (and passes over "
                            f"{', '.join(sorted(_HINT_MODULES))}): write the loops' transformations in a Loop or "
                            "CHiLL annotation")
    # Both kinds of marker may mark regions of one file (an annotated kernel beside a
    # #pragma scop one); a pragma pair inside an annotation's code is that region's own text.
    pragmas = scan_pragmas(src, comments)
    for r in pragmas:
        for q in regions:
            (a0, a1), (b0, b1) = sorted([r.outer, q.outer])
            if a0 < b0 < a1 < b1:
                # crossed markers (`#pragma scop`, an annotation's begin, `#pragma endscop`, its
                # end): neither holds the other, and the output would keep one marker of a pair
                raise src.error(b0, f"this region opens inside the region marked at line {src.pos(a0)[0]} "
                                f"and ends after it (at line {src.pos(b1 - 1)[0]})",
                                "nest the markers: close the one region before the other opens, or put one "
                                "inside the other")
    regions += [r for r in pragmas
                if not any(q.outer[0] <= r.outer[0] < q.outer[1] or r.outer[0] <= q.outer[0] < r.outer[1]
                           for q in regions)]
    quiet = blank(text, [(s, e) for _, s, e in quiet_spans(text)])
    for r in regions:
        if r.kind == "pragma" or r.chill is not None and r.start == r.chill.begin[1]:
            _check_whole_blocks(src, quiet, r)
        if r.kind == "chill" and if_depths(quiet[r.start:r.end]) != (0, 0):
            raise src.error(r.start, "a preprocessor conditional (#if ... #endif) opens on one side of "
                            "the region's markers and closes on the other",
                            "put both markers and the loops inside the conditional, or the conditional "
                            "inside the region")
    regions.sort(key=lambda r: r.start)
    regions = [Region(r.kind, r.start, r.end, r.outer, i, r.chill, r.tuning, r.function, r.keep_markers)
               for i, r in enumerate(regions)]
    tuning = tuple(a for a in anns if a.module == "PerfTuning")
    if not regions:
        no_macro_markers(src, comments)
    return Markup(src, tuple(comments), tuple(anns), tuple(regions), tuning)


_DIRECTIVE_LINE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)


def locate_name(filename: str, name: str, lines: tuple[int, int] = (0, 0),
                function: str | None = None) -> tuple[int, int] | None:
    """(line, column) of the first use of identifier `name` in the code of the given lines
    (inclusive; the whole file when no occurrence is there), or None when the file cannot be
    read or does not hold the name.  For errors found after parsing, on objects that keep only
    a region's line span (the run harness), so that they still point at the identifier."""
    try:
        with open(filename, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    src = SourceText(text, filename)
    code = blank(text, [(c.start, c.end) for c in scan_comments(text)])
    word = re.compile(rf"(?<![\w.]){re.escape(name)}(?!\w)")
    first, last = lines
    # a directive's mention (`#pragma HLS ARRAY_PARTITION variable=a`, a #define's body, a
    # _Pragma's string) is no use of the name; a name only a directive holds (a macro) is found there
    plain = blank(code, [(m.start(), m.end()) for m in _DIRECTIVE_LINE.finditer(code)]
                  + [(s, e) for kind, s, e in quiet_spans(code) if kind == "literal"])
    hits = [src.pos(m.start()) for m in word.finditer(plain)] or \
        [src.pos(m.start()) for m in word.finditer(code)]
    inside = [h for h in hits if first <= h[0] <= last]
    if not hits and first:
        # declared nowhere in the code (a decl_file): its use in an Orio Loop region's code,
        # which is inside its annotation, a comment
        inside = [h for h in (src.pos(m.start()) for m in word.finditer(text)) if first <= h[0] <= last]
    if not inside and first and function:
        # used through a macro (PolyBench's _PB_NI for ni): its declaration in the region's
        # function, not a mention in another function
        heads = [src.pos(m.start()) for m in re.finditer(rf"(?<![\w.]){re.escape(function)}\s*\(", code)]
        heads = [h for h in heads if h[0] < first]
        if heads:
            inside = [h for h in hits if heads[-1] <= h and h[0] < first]
    return (inside or hits or [None])[0]


_ANY_PRAGMA = re.compile(r"^[ \t]*#[ \t]*pragma\b[ \t]*([^\n]*)|\b_Pragma\s*\(\s*\"((?:[^\"\\]|\\.)*)\"", re.M)


def note_dropped_pragmas(src: SourceText, comments, region: Region, kept=frozenset(),
                         untaken=frozenset()) -> None:
    """One note per region that holds pragmas (`#pragma omp parallel for`, `#pragma unroll`):
    the region's code is written anew, and a pragma about a loop of the old order may be wrong
    in the new one (an omp loop that now carries a dependence), so none is kept."""
    text = blank(src.text, [(c.start, c.end) for c in comments])
    found = []
    for m in _ANY_PRAGMA.finditer(text):
        if not (m.start() < region.end and region.start < m.end()):
            continue        # (a function region starts at its first item: inside a pragma line)
        words = (m.group(1) if m.group(1) is not None else m.group(2)).rstrip(" \t\\").strip()
        if words.split()[:1] in (["scop"], ["endscop"]) or src.pos(_first_char(m))[0] in kept:
            continue
        found.append((_first_char(m), " ".join(words.split())))
    if not found:
        return
    line, col = src.pos(found[0][0])
    # HPCCG's `#ifdef USING_OMP / #pragma omp parallel for / #endif`, not taken here: the build
    # that defines USING_OMP would lose it as well
    where = " (in a branch of a conditional this build does not take)" if line in untaken else ""
    more = len(found) - 1
    others = f" (and {more} more pragma{'s' if more > 1 else ''} in the region, on line{'s' if more > 1 else ''} " \
        f"{', '.join(str(src.pos(at)[0]) for at, _ in found[1:])})" if more else ""
    note_once(src.filename, line,
              f"'#pragma {found[0][1]}'{where} inside the region is dropped{others}: looptx writes the region's "
              "loops anew and does not re-derive their parallelism or hints for C code; add the pragma "
              "back where the transformed loop is parallel (`looptx deps` lists the parallel loops)", col=col,
              per_line=True)
