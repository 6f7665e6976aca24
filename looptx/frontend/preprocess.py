"""Run the system C preprocessor so pycparser sees plain C, keeping size macros symbolic.

Two passes: the first (`-fdirectives-only`) resolves includes and conditionals without
expanding anything, so every `#define` is visible; macros whose value is an integer literal
(`#define N 100`) are problem sizes, i.e. parameters, so their definitions are dropped before the
second pass expands the rest (`DATA_TYPE`, `SCALAR_VAL(x)`, `MIN(a,b)`, `#define M (N+2)`).
System headers are replaced by small fake ones (pycparser cannot read glibc's).
"""
from __future__ import annotations

import difflib
from collections import Counter
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field, replace

from looptx.errors import SourceError
from looptx.frontend.affine import bad_int_constant, c_int_value
from looptx.frontend.fake_libc import FAKE_DEFINES, FAKE_TYPEDEFS, HEADER_MACROS
from looptx.frontend.int_constant import int_constant
from looptx.frontend import conditionals
from looptx.frontend.conditionals import Branches
from looptx.frontend.spelling import MacroMarks, tokens

# (the null directive `#` alone, and gcc's #ident, #sccs, #warning, #assert: cpp's, not pycparser's)
_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*(?:(include|include_next|define|undef|if|ifdef|ifndef|elif|ident|sccs"
                        r"|warning|error|assert|unassert)\b|$)", re.M)
_SYS_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include(?:_next)?[ \t]*<([^>]+)>', re.M)
_LOCAL_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include(?:_next)?[ \t]*"([^"]+)"', re.M)
# what cpp passes on and pycparser cannot read: a version string for the object file
_IDENT = re.compile(r"^#[ \t]*(?:ident|sccs)\b[^\n]*", re.M)
_LINEMARKER = re.compile(r'^#\s*(\d+)\s+"((?:[^"\\]|\\.)*)"')
_UNDEF = re.compile(r"^#[ \t]*undef[ \t]+([A-Za-z_]\w*)")
_ANY_DEFINE = re.compile(r"^#define[ \t]+([A-Za-z_]\w*)")
_OBJ_DEFINE = re.compile(r"^#define[ \t]+([A-Za-z_]\w*)(?![\w(])[ \t]*(.*)$")
_TYPEDEF = re.compile(r"\btypedef\s+(?:(?:un)?signed\s+|long\s+|short\s+)*(?:int|long|short|char|float|double|"
                      r"u?int\d+_t|size_t)\s+([A-Za-z_]\w*)\s*;")
# integer-like tokens, bad ones included (`089`, `1'000`) so that they are reported at the #define
_INT_LITERAL = re.compile(r"^\(*\s*([+-]?)\s*((?:0[xX][0-9a-fA-F']+|0[bB][0-9']+|[0-9][0-9']*)[uUlLzZ]*)\s*\)*$")
_LINE_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*(?:line\b|[0-9])[^\n]*", re.M)



@dataclass(frozen=True)
class Preprocessed:
    text: str                                  # what pycparser parses
    int_macros: dict[str, int]                 # NAME -> value of `#define NAME <int literal>`
    main_lines: dict[int, str] = field(default_factory=dict)   # original line -> cpp output line
    main_name: str = "<stdin>"                 # file name cpp used for the main file
    expanded_macros: frozenset[str] = frozenset()   # macros cpp expanded (sizes are not)
    marks: MacroMarks | None = None            # macros whose uses the text marks (see spelling.py)
    overridden: tuple = ()                     # Overridden: a -D that a plain #define of the file overrides
    branches: Branches = Branches()            # the file's #if branches and which the build takes
    object_macros: dict = field(default_factory=dict)   # NAME -> body of the file's `#define NAME body`

    def with_sizes(self, sizes: dict[str, int]) -> Preprocessed:
        """With more size macros (a decl_file's); the file's own win."""
        return replace(self, int_macros={**sizes, **self.int_macros})

    def column(self, original_line: str, line: int, col: int) -> int:
        """Map a column of the preprocessed line back to the user's line.

        cpp collapses blanks and expands macros in place, so the two lines are aligned token by
        token, each macro use on the user's line being one token that matches nothing: a column
        inside an expansion maps to the macro use, any other to the same token on the user's line."""
        out = self.main_lines.get(line)
        if out is None or original_line == out:
            return col
        src = _macro_uses(tokens(original_line), self.expanded_macros)
        dst = tokens(out)
        at = next((k for k, (s, e, _) in enumerate(dst) if col - 1 < e), None)
        if at is None:
            return col
        a, b = [t for _, _, t in src], [t for _, _, t in dst]
        # expansions are in place: what precedes the first macro use and follows the last is
        # the same token sequence on both lines (an expansion's own ';' must not take the line's)
        head = 0
        while head < min(len(a), len(b)) and a[head] == b[head]:
            head += 1
        tail = 0
        while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
            tail += 1
        if at < head:
            return src[at][0] + 1
        if at >= len(b) - tail:
            return src[len(a) - (len(b) - at)][0] + 1
        matcher = difflib.SequenceMatcher(None, a[head:len(a) - tail], b[head:len(b) - tail], autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if j1 <= at - head < j2:
                if tag == "equal":
                    return src[head + i1 + at - head - j1][0] + 1
                if head + i1 < len(src):
                    return src[head + i1][0] + 1
        return len(original_line.rstrip()) + 1


def _macro_uses(toks: list[tuple[int, int, str]], macros: frozenset[str]) -> list[tuple[int, int, str]]:
    """Each use of an expanded macro (with its arguments) becomes one token unlike any other."""
    out, k = [], 0
    while k < len(toks):
        start, end, text = toks[k]
        if text not in macros:
            out.append(toks[k])
            k += 1
            continue
        k += 1
        if k < len(toks) and toks[k][2] == "(":
            depth = 0
            while k < len(toks):
                depth += {"(": 1, ")": -1}.get(toks[k][2], 0)
                end = toks[k][1]
                k += 1
                if depth == 0:
                    break
        out.append((start, end, f"\0{text}\0{start}"))
    return out


# GCC's keywords, which pycparser does not know, in a file that includes no libc header
# (and inline assembly, `__asm__ __volatile__("rdtsc" : "=a"(lo))` of a timer helper beside the
# region, which pycparser does not read: a call of __lx_asm, which a region refuses, also
# through a macro; the file's text is kept)
GNU_FLAGS = ["-D__restrict__=", "-D__restrict=", "-D__inline=inline", "-D__extension__=",
             "-D__const=const", "-D__attribute__(x)=", "-D__volatile__=", "-D__asm__(...)=__lx_asm()", "-D__asm(...)=__lx_asm()",
             "-Dasm(...)=__lx_asm()"]
_GNU_WORDS = re.compile(r"\b(__restrict__|__restrict|__attribute__|__inline|__extension__|__const|__asm__|__asm|asm)\b")


_ASM_QUALIFIER = re.compile(r"\b((?:__asm__|__asm|asm)\s+)((?:(?:__volatile__|__volatile|volatile|goto|inline)\s*)+)(?=\()")


_ASM_LABEL = re.compile(r"([\w\])]\s*)((?:__asm__|__asm|asm)\s*\(\s*\"[^\"\n]*\"\s*\))(?=\s*[;,=])")


def no_assembly(blanked: str, regions, src, path: str) -> None:
    """Inline assembly is read as a call of __lx_asm (GNU_FLAGS): outside the regions that keeps
    a timer helper from failing the parse, and the file's own text is printed; in a region,
    written there, it is refused here at its place (through a macro, by the region's calls)."""
    for r in regions:
        m = re.search(r"\b(__asm__|__asm|asm)\b", blanked[r.start:r.end])
        if m:
            line, col = src.pos(r.start + m.start())
            raise SourceError(f"inline assembly ('{m.group()}') in the region: looptx cannot model "
                              "what it does", hint="move it out of the region, or end the region before it",
                              file=path, line=line, col=col)


def needs_cpp(text: str) -> bool:
    """Directives to run, or GCC's keywords (TSVC's `float * __restrict__ x`), which the
    prelude defines away for pycparser."""
    # (a backslash at a line's end splices it to the next, which cpp does before anything else)
    return bool(_DIRECTIVE.search(text) or _GNU_WORDS.search(text) or re.search(r"\\[ \t]*\n", text))


def include_dirs() -> list[str]:
    """Folders searched for headers, in gcc's order: the command line's -I (which the CLI
    passes on in LOOPTX_INCLUDE_PATH, so search workers see them too), then CPATH and
    C_INCLUDE_PATH, which gcc honours as well."""
    dirs: list[str] = []
    for var in ("LOOPTX_INCLUDE_PATH", "CPATH", "C_INCLUDE_PATH"):
        for d in os.environ.get(var, "").split(os.pathsep):
            d = os.path.abspath(d) if d else ""
            if d and d not in dirs and os.path.isdir(d):
                dirs.append(d)
    return dirs


def _find_header(name: str, dirs: list[str]) -> str | None:
    for d in dirs:
        path = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(path):
            return path
    return None


def _collect_system_headers(text: str, base_dir: str, seen: set[str], dirs: list[str]) -> set[str]:
    """The <...> headers no searched folder holds: they get fake (libc) versions.  Headers
    that are found, with <> or quotes, are read for their own includes."""
    names: set[str] = set()
    found = []
    for name in _SYS_INCLUDE.findall(text):
        path = _find_header(name, [base_dir] + dirs)
        if path is None:
            names.add(name)
        else:
            found.append(path)
    for local in _LOCAL_INCLUDE.findall(text):
        path = _find_header(local, [base_dir] + dirs)
        if path is not None:
            found.append(path)
        elif _find_header(local, _system_dirs()) is not None:
            names.add(local)     # Devito's `#include "stdlib.h"`: gcc goes on to the system's
    for path in found:
        if path in seen:
            continue
        seen.add(path)
        with open(path, encoding="utf-8", errors="replace") as f:
            names |= _collect_system_headers(f.read(), os.path.dirname(path), seen, dirs)
    return names


_SYSTEM_DIRS: list[str] | None = None


def _system_dirs() -> list[str]:
    """Where the system compiler finds <...> headers (`cpp -v`), to tell a missing project
    header (polybench.h without its -I) from a libc one that looptx replaces."""
    global _SYSTEM_DIRS
    if _SYSTEM_DIRS is None:
        cpp = shutil.which("cpp") or shutil.which("gcc")
        dirs: list[str] = []
        if cpp:
            proc = subprocess.run([cpp, "-xc", "-E", "-v", os.devnull], capture_output=True, text=True)
            inside = False
            for ln in proc.stderr.splitlines():
                if ln.startswith("#include <...> search starts here"):
                    inside = True
                elif ln.startswith("End of search list"):
                    inside = False
                elif inside and ln.strip():
                    dirs.append(ln.strip())
        _SYSTEM_DIRS = dirs
    return _SYSTEM_DIRS


def missing_headers(text: str, filename: str) -> str:
    """A hint naming the <...> headers of the file (or of headers it includes) found neither
    in the searched folders nor among the system's; looptx read them as empty.  '' if none."""
    base_dir = os.path.dirname(os.path.abspath(filename)) or "."
    fake = _collect_system_headers(text, base_dir, set(), include_dirs())
    missing = sorted(n for n in fake if _find_header(n, _system_dirs()) is None)
    if not missing:
        return ""
    names = ", ".join(f"<{m}>" for m in missing)
    one = len(missing) == 1
    return (f"{names} {'was' if one else 'were'} not found and read as empty: give "
            f"{'its folder' if one else 'their folders'} with -I DIR")


def _fake_include_dir(headers: set[str]) -> str:
    root = tempfile.mkdtemp(prefix="looptx-libc-")
    with open(os.path.join(root, "_lx_fake.h"), "w") as f:
        f.write("#ifndef LX_FAKE_LIBC\n#define LX_FAKE_LIBC\n" + FAKE_TYPEDEFS + FAKE_DEFINES + "#endif\n")
    for name in headers:
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write('#include "_lx_fake.h"\n' + HEADER_MACROS.get(name, ""))
    return root


def _cpp(args: list[str], stdin: str, cwd: str, filename: str, source: str = "") -> str:
    """`source` is the user's (comment-free) text, where an error without a column is placed."""
    cpp = shutil.which("cpp") or shutil.which("gcc")
    if cpp is None:
        raise SourceError("the file needs the C preprocessor, but neither cpp nor gcc is installed",
                          hint="install gcc", file=filename)
    cmd = [cpp] + (["-E"] if cpp.endswith("gcc") else []) + args + ["-"]
    proc = subprocess.run(cmd, input=stdin, capture_output=True, text=True, cwd=cwd)
    if proc.returncode != 0:
        first = next((ln for ln in proc.stderr.splitlines() if "error" in ln), proc.stderr.strip())
        # some errors (an unterminated #if) come with a line and no column
        m = re.match(r"(.+?):(\d+):(?:(\d+):)? (?:fatal )?error: (.*)", first)
        if m:
            what, line = m.group(4), int(m.group(2))
            where, text = filename, source
            if m.group(1) != "<stdin>":
                where = os.path.normpath(os.path.join(cwd, m.group(1)))
                try:
                    with open(where, encoding="utf-8", errors="replace") as f:
                        text = f.read()
                except OSError:
                    text = ""
            if m.group(3):
                col = int(m.group(3))
            else:
                lines = text.split("\n")
                code = lines[line - 1] if 0 < line <= len(lines) else ""
                col = len(code) - len(code.lstrip()) + 1
            hint = ("add the matching #endif" if re.search(r"unterminated #(if|el)", what) else
                    "close the quote (digit separators such as 1'000 are not C before C23)"
                    if "literal" in what or "terminating" in what else
                    # the directive is right: the header is elsewhere (looptx -I, as gcc -I)
                    "give its folder with -I DIR" if "No such file" in what else "fix the directive")
            raise SourceError(f"preprocessor: {what}", hint=hint, file=where, line=line, col=col)
        raise SourceError(f"preprocessor failed: {first}", hint="fix the directive", file=filename)
    return proc.stdout


def _macro_value(sign: str, literal: str, text: str, filename: str, base_dir: str, current: str,
                 line: int) -> int:
    try:
        value = c_int_value(literal)
    except ValueError:
        filename, col = _column_in(literal, text, filename, base_dir, current, line)
        what, hint = bad_int_constant(literal)
        raise SourceError(what, hint=hint, file=filename, line=line, col=col) from None
    return -value if sign == "-" else value


def _column_in(word: str, text: str, filename: str, base_dir: str, current: str, line: int):
    """(file, column) of `word` on a line that cpp reported in `current` (the main file's
    comment-free `text`, or a header, read again)."""
    if current != "<stdin>":
        filename = os.path.join(base_dir, current)
        try:
            with open(filename, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            text = ""
    lines = text.split("\n")
    return filename, max(lines[line - 1].find(word) + 1, 1) if 0 < line <= len(lines) else 1


def _redefined(name: str, body: str, given: str, text: str, filename: str, base_dir: str,
               current: str, line: int) -> "Overridden | None":
    """A -D of a name that the file #defines without `#ifndef`: gcc keeps the file's value
    (with a 'redefined' warning), so code made at the -D value is not for the file.  (A
    harness of looptx's own, which #defines the sizes itself, may still run it.)"""
    lit = _INT_LITERAL.match(body)
    try:
        same = body == given or (lit is not None and lit.end() == len(body)
                                 and _macro_value(lit.group(1), lit.group(2), text, filename,
                                                  base_dir, current, line) == int(given, 0))
    except (SourceError, ValueError):
        same = False
    if same:
        return None
    filename, col = _column_in(name, text, filename, base_dir, current, line)
    return Overridden(name, given, body, filename, line, col)


@dataclass(frozen=True)
class Overridden:
    """A -D of a name that a plain #define of the file (or a header) sets otherwise."""
    name: str
    given: str
    body: str
    file: str
    line: int
    col: int

    def error(self) -> SourceError:
        return SourceError(f"-D {self.name}={self.given} does not change '{self.name}' in this file: this "
                           f"#define sets it to {self.body} and a build keeps it (gcc only warns that "
                           f"'{self.name}' is redefined), so code made for the -D value is not for the file",
                           hint=f"drop -D {self.name}, change the #define, or make it a default a build "
                                f"may override: #ifndef {self.name} ... #endif",
                           file=self.file, line=self.line, col=self.col)

    def note(self, cu: bool = False) -> str:
        # looptx run and search build a harness of their own, which #defines the sizes: there
        # the -D does hold, as a smaller size to validate at; so does a .cu
        where = f"for the .cu alone (it #defines {self.name} itself)" if cu else "in looptx's own harness only"
        return (f"-D {self.name}={self.given} sets '{self.name}' {where}: this #define "
                f"sets it to {self.body}, which a build of the file keeps")


def blank_line_directives(text: str) -> str:
    """`#line 100` (and `# 100 "f.c"`) renumber the lines that follow; looptx reports the
    physical lines of the file, so the directives are blanked (the output keeps them), and a
    `__LINE__` written after one takes the number C gives it (padded: offsets kept)."""
    found = list(_LINE_DIRECTIVE.finditer(text))
    out, at = [], 0
    for k, m in enumerate(found):
        out.append(text[at:m.start()] + " " * len(m.group()))
        at = m.end()
        end = found[k + 1].start() if k + 1 < len(found) else len(text)
        number = re.match(r"[ \t]*#[ \t]*(?:line[ \t]+)?(\d+)", m.group())
        if number is not None:
            out.append(_lines_numbered(text[at:end], int(number.group(1)) - 1))
            at = end
    return "".join(out) + text[at:]


def _lines_numbered(text: str, before: int) -> str:
    """`text` (from a #line directive's end: its first line is the directive's) with each
    `__LINE__` outside a directive's line (a #define's body gives the line of each use) as the
    number C gives it, the line after the directive being `before + 1`."""
    lines = text.split("\n")
    for k, ln in enumerate(lines):
        if k and "__LINE__" in ln and not re.match(r"[ \t]*#", ln):
            value = str(before + k)
            lines[k] = re.sub(r"\b__LINE__\b", value.ljust(len("__LINE__")), ln) if len(value) <= 8 else ln
    return "\n".join(lines)


def preprocess(blanked: str, filename: str, defines: dict[str, str] | None = None,
               keep: frozenset[str] | None = frozenset(), inner_defines: frozenset[int] = frozenset(),
               macros: dict[str, str] | None = None) -> Preprocessed:
    """Preprocess the comment-free text of `filename` (positions kept by the caller).  Macros
    named in `keep` (all, when it is None), defined on the file's lines `inner_defines`, defined
    twice or undefined are not marked for their spelling (see spelling.py): the name may not
    mean the same at the region.  `macros` (a build command's -D flags) are expanded as the
    compiler will, integers too; `defines` win over them."""
    base_dir = os.path.dirname(os.path.abspath(filename)) or "."
    # `__asm__ __volatile__(...)`: the qualifier between the keyword and its `(` would keep cpp
    # from taking the keyword as the function-like macro GNU_FLAGS make of it (blanked in place)
    blanked = _ASM_QUALIFIER.sub(lambda m: m.group(1) + " " * len(m.group(2)), blanked)
    # and an asm label of a declaration (`int x asm("xx");`), no call: blanked
    blanked = _ASM_LABEL.sub(lambda m: m.group(1) + " " * len(m.group(2)), blanked)
    dirs = include_dirs()
    fake = _fake_include_dir(_collect_system_headers(blanked, base_dir, set(), dirs))
    try:
        common = ["-undef", "-nostdinc", "-I", base_dir] + [a for d in dirs for a in ("-I", d)] \
            + ["-isystem", fake] + GNU_FLAGS
        build = {k: v for k, v in (macros or {}).items() if k not in (defines or {})}
        dflags = [f"-D{k}={v}" for k, v in {**(defines or {}), **build}.items()]
        first = _cpp(["-fdirectives-only"] + common + dflags, blanked, base_dir, filename, blanked)
        text, opening = conditionals.marked(blanked)
        branches = Branches(opening, conditionals.taken(
            _cpp(["-fdirectives-only"] + common + dflags, text, base_dir, filename, blanked))) if opening else Branches()
        int_macros: dict[str, int] = {}
        object_macros: dict[str, str] = {}
        overridden: list[Overridden] = []
        expanded: set[str] = set()
        all_names = {m.group(1) for m in map(_ANY_DEFINE.match, first.split("\n")) if m}
        lines = first.split("\n")
        defined = Counter(m.group(1) for m in map(_ANY_DEFINE.match, lines) if m)
        undefined = {m.group(1) for m in map(_UNDEF.match, lines) if m}
        marks = MacroMarks(keep=(keep or frozenset()) | {n for n, k in defined.items() if k > 1} | undefined,
                           typedefs=frozenset(_TYPEDEF.findall(blanked)))
        kept, in_builtin, in_system = [], False, False
        current, lineno = "<stdin>", 0
        for line in first.split("\n"):
            mark = _LINEMARKER.match(line)
            if mark:
                in_builtin = mark.group(2) in ("<built-in>", "<command-line>")
                in_system = mark.group(2).startswith(fake)
                current, lineno = mark.group(2), int(mark.group(1))
                kept.append(line)
                continue
            lineno += 1
            named = _ANY_DEFINE.match(line)
            if in_builtin and named and named.group(1) not in build:
                kept.append("")
                continue
            d = _OBJ_DEFINE.match(line)
            if d and not in_system and not in_builtin and d.group(1) in (defines or {}):
                clash = _redefined(d.group(1), d.group(2).strip(), str(defines[d.group(1)]),
                                   blanked, filename, base_dir, current, lineno - 1)
                overridden += [clash] if clash is not None else []
            if d and not in_system and not in_builtin:
                object_macros[d.group(1)] = d.group(2).strip()
            if d:
                lit = _INT_LITERAL.match(d.group(2).strip())
                # libc constants are not problem sizes, nor is what the build command fixes
                # (the harness's own -D of a size would clash with it): expand them
                if lit and not in_system and not in_builtin:
                    int_macros[d.group(1)] = _macro_value(lit.group(1), lit.group(2), blanked, filename,
                                                          base_dir, current, lineno - 1)
                    kept.append("")
                    continue
            if named:
                expanded.add(named.group(1))
            markable = named and keep is not None and not in_system \
                and not (current == "<stdin>" and lineno - 1 in inner_defines)
            kept.append(marks.rewrite(line, all_names) if markable else line)
        second = _IDENT.sub("", _cpp(common, "\n".join(kept), base_dir, filename, blanked))
    finally:
        shutil.rmtree(fake, ignore_errors=True)
    return Preprocessed(marks.prelude() + second, int_macros, _main_lines(second),
                        expanded_macros=frozenset(expanded), marks=marks or None,
                        overridden=tuple(overridden), branches=branches, object_macros=object_macros)


def _main_lines(text: str) -> dict[int, str]:
    main_lines: dict[int, str] = {}
    current, lineno = None, 0
    for line in text.split("\n"):
        mark = _LINEMARKER.match(line)
        if mark:
            lineno, current = int(mark.group(1)), mark.group(2)
            continue
        if current == "<stdin>":
            main_lines.setdefault(lineno, line)
        lineno += 1
    return main_lines


_ALIAS_PROBE = "__lx_alias_"
_DECL_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(?![\w(])", re.M)


def preprocess_decls(decls: str, filename: str, defines: dict[str, str]) -> Preprocessed:
    """Preprocess an Orio decl_file.  Orio includes it before the code, so a macro it defines
    whose value is an integer constant (`#define n N`, N a size from input_params) is a
    problem size of the code too, like a literal `#define n 40`."""
    names = [m.group(1) for m in _DECL_DEFINE.finditer(decls)]
    probes = "".join(f"\n{_ALIAS_PROBE}{n} = {n}" for n in names)
    dp = preprocess(decls + probes, filename, defines)
    # cpp leaves the sizes (command-line and literal #defines) as names: they are the values
    known = {**{k: v for k, v in ((k, int_constant(v, {})) for k, v in defines.items()) if v is not None},
             **dp.int_macros}
    sizes, kept = {}, []
    for line in dp.text.split("\n"):
        if line.startswith(_ALIAS_PROBE):
            name, _, value = line[len(_ALIAS_PROBE):].partition(" = ")
            v = int_constant(value, known)
            if v is not None and name not in dp.int_macros:
                sizes[name] = v
        else:
            kept.append(line)
    return replace(dp, text="\n".join(kept), int_macros={**sizes, **dp.int_macros})
