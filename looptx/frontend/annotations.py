"""Parse the body of `/*@ begin PerfTuning ( ... ) @*/` (or a .spec file) into a TuningSpec.

Grammar: Orio's (orio/main/tspec/pparser.py), with its defects fixed:
  - `arg NAME = V;` accepts any identifier (Orio's lexer knows a closed list, so e.g. the
    Annealing options could not be written in a spec);
  - a value runs to the next `;` outside brackets, strings and comments (Orio stops at the
    first `;`), and a value never runs past an unclosed bracket or a missing `;` unnoticed;
  - values are evaluated by looptx.frontend.expr, never by eval();
  - `time_limit` is seconds, not minutes;
  - every error is located at the offending token of the original file.
"""
from __future__ import annotations

import ast
import bisect
import difflib
import keyword
import os
import re
from typing import Any

from looptx.errors import AnnotationError, note_once, read_utf8
from looptx.frontend.names import C_KEYWORDS
from looptx.frontend.expr import (C_NAME_KEYWORDS, SAFE_FUNCTIONS, Expr, MappingSpace, compile_expr,
                                  mapping_slots, mapping_values)
from looptx.frontend.annotation_checks import check_arg, check_names
from looptx.frontend.orio_args import check_arg_names
from looptx.frontend.tuning import (EMPTY, ConstraintDef, FrozenMap, ParamDef, TuningSpec,
                                    VarDecl, check_kind, check_sizes, format_value, substitute_params,
                                    value_kind)

__all__ = [
    "parse_tuning_spec", "load_spec_file", "mapping_values", "mapping_slots", "TuningSpec",
    "ParamDef", "ConstraintDef", "VarDecl", "FrozenMap", "format_value", "substitute_params",
    "value_kind",
]

SECTIONS = ("build", "performance_counter", "performance_params", "input_params", "input_vars",
            "search", "validation", "performance_test_code", "cmdline_params", "power", "other")
# which statements each section accepts (besides `let`, accepted everywhere)
_ALLOWED = {
    "performance_params": {"param", "constraint"},
    "input_params": {"param", "constraint"},
    "input_vars": {"decl", "arg"},
    "cmdline_params": {"option"},
}
_STATEMENTS = ("let", "arg", "param", "constraint", "option", "decl")
STORAGE = ("static", "dynamic", "managed")
TYPES = ("void", "char", "short", "int", "long", "float", "double", "macro")
INT_WORDS = frozenset(f"{u}int{b}_t" for u in ("", "u") for b in (8, 16, 32, 64)) | {"size_t"}
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SPEC_NAME = re.compile(r"[A-Za-z0-9_./-]+")
_CLOSER = {"(": ")", "[": "]", "{": "}"}
_NEXT_STMT = re.compile(r"[ \t\r\f\v]*(?:def|let|arg|param|constraint|option|decl)\s+[A-Za-z_\"']")


def _where_hint(stmt: str) -> str:
    homes = {"param": "def performance_params or def input_params",
             "constraint": "def performance_params or def input_params",
             "decl": "def input_vars", "option": "def cmdline_params",
             "arg": "a section such as def build or def search"}
    return f"put {stmt} statements in {homes[stmt]}"


class _Builder:
    """Mutable accumulator shared by a body and the spec files it imports."""

    def __init__(self):
        self.perf: list[ParamDef] = []
        self.constraints: list[ConstraintDef] = []
        self.inputs: list[ParamDef] = []
        self.input_constraints: list[ConstraintDef] = []
        self.decls: list[VarDecl] = []
        self.lets: dict[str, Any] = {}
        self.args: dict[str, dict[str, Any]] = {}
        self.arg_where: dict[tuple[str, str], tuple[str, int, int]] = {}
        self.options: dict[str, dict[str, tuple]] = {}
        self.declared: dict[str, tuple[str, str, int]] = {}   # param/constraint name -> (what, file, line)
        self.build_at: tuple[str, int, int] | None = None
        # input params of one floating value, a coefficient or a size that is no integer
        self.coefficients: list[tuple[VarDecl, ParamDef, int, int]] = []
        self.texts: list[tuple[ParamDef, int, int]] = []     # input params of one string value


class _Parser:
    def __init__(self, text: str, *, file: str, line: int, col: int, base_dir: str,
                 builder: _Builder, stack: tuple[str, ...]):
        self.s, self.n, self.i = text, len(text), 0
        self.file, self.line0, self.col0 = file, line, col
        self.base_dir, self.b, self.stack = base_dir, builder, stack
        self.starts = [0] + [k + 1 for k, ch in enumerate(text) if ch == "\n"]

    # ------------------------------------------------------------------ positions and errors
    def pos(self, off: int) -> tuple[int, int]:
        k = bisect.bisect_right(self.starts, off) - 1
        if k == 0:
            return self.line0, self.col0 + off
        return self.line0 + k, off - self.starts[k] + 1

    def error(self, off: int, what: str, hint: str | None = None) -> AnnotationError:
        line, col = self.pos(min(off, self.n))
        return AnnotationError(what, hint=hint, file=self.file, line=line, col=col)

    # ------------------------------------------------------------------ lexing
    def skip(self) -> int:
        """Skip blanks and `#` comments; return the offset of the next token."""
        s, n, i = self.s, self.n, self.i
        while i < n:
            if s[i].isspace():
                i += 1
            elif s[i] == "#":
                j = s.find("\n", i)
                i = n if j < 0 else j + 1
            else:
                break
        self.i = i
        return i

    def peek(self) -> str:
        i = self.skip()
        return self.s[i] if i < self.n else ""

    def ident(self, what: str, hint: str | None = None) -> tuple[str, int]:
        i = self.skip()
        m = _IDENT.match(self.s, i)
        if not m:
            raise self.error(i, f"expected {what}, found {self._found(i)}", hint)
        self.i = m.end()
        return m.group(), i

    def expect(self, ch: str, hint: str | None = None) -> int:
        i = self.skip()
        if self.s.startswith(ch, i):
            self.i = i + len(ch)
            return i
        raise self.error(i, f"expected '{ch}', found {self._found(i)}", hint)

    def _found(self, i: int) -> str:
        if i >= self.n:
            return "the end of the annotation"
        m = _IDENT.match(self.s, i)
        return f"'{m.group()}'" if m else f"'{self.s[i]}'"

    def skip_string(self, i: int) -> int:
        """Offset just past the string literal starting at i (a quote)."""
        s, q = self.s, self.s[i]
        if s.startswith(q * 3, i):
            j = s.find(q * 3, i + 3)
            if j < 0:
                raise self.error(i, "string is never closed", f"end it with {q * 3}")
            return j + 3
        j = i + 1
        while j < self.n and s[j] != q and s[j] != "\n":
            j += 2 if s[j] == "\\" else 1
        if j >= self.n or s[j] != q:
            raise self.error(i, "string is never closed", f"end it with {q} on the same line")
        return j + 1

    def value(self, owner: str) -> tuple[str, int]:
        """Raw text of a Python value up to `;` (consumed) or a closing `}` (left), with its
        start offset.  Brackets, strings and comments are tracked so `;` may appear in strings."""
        s, n = self.s, self.n
        start = i = self.skip()     # errors about the value point at its first character
        stack: list[tuple[str, int]] = []
        last = start            # end of the last significant character
        while i < n:
            ch = s[i]
            if ch in "'\"":
                i = self.skip_string(i)
                last = i
                continue
            if ch == "#":
                j = s.find("\n", i)
                i = n if j < 0 else j
                continue
            if ch in "([{":
                stack.append((ch, i))
            elif ch in ")]}":
                if not stack:
                    if ch == "}":
                        break   # end of the section: the last statement may omit its ';'
                elif _CLOSER[stack[-1][0]] != ch:
                    o, at = stack[-1]
                    raise self.error(i, f"'{ch}' does not match '{o}' opened at "
                                        f"{self._at(at)}", f"close '{o}' first")
                else:
                    stack.pop()
            elif ch == ";":
                if stack:
                    o, at = stack[-1]
                    raise self.error(at, f"'{o}' is never closed in the value of {owner}",
                                     f"close it with '{_CLOSER[o]}' before ';'")
                self.i = i + 1
                return s[start:i], start
            elif ch == "\n" and not stack and _NEXT_STMT.match(s, i + 1):
                raise self.error(last, f"expected ';' after the value of {owner}",
                                 "end every statement with ';'")
            if not ch.isspace():
                last = i + 1
            i += 1
        if stack:
            o, at = stack[0]
            raise self.error(at, f"'{o}' is never closed in the value of {owner}",
                             f"close it with '{_CLOSER[o]}'")
        self.i = i
        return s[start:i], start

    def _at(self, off: int) -> str:
        line, col = self.pos(off)
        return f"line {line} column {col}"

    # ------------------------------------------------------------------ expressions
    def compile(self, text: str, off: int) -> Expr:
        line, col = self.pos(off)
        return compile_expr(text, file=self.file, line=line, col=col)

    def evaluate(self, text: str, off: int, owner: str) -> Any:
        expr = self.compile(text, off)
        for name in expr.names_in_order():     # report the first unknown name
            if name not in self.b.lets:
                line, col = expr.location_of(name)
                hint = ("param values may use only let names defined before them"
                        if name in self.b.declared else "define it with let before this line")
                raise AnnotationError(f"unknown name '{name}' in the value of {owner}", hint=hint,
                                      file=self.file, line=line, col=col)
        return expr(self.b.lets)

    # ------------------------------------------------------------------ grammar
    def parse(self, *, opened: int | None = None) -> None:
        """specs := (def | let | import spec NAME; | spec NAME { specs })+"""
        while True:
            i = self.skip()
            if i >= self.n:
                if opened is not None:
                    raise self.error(opened, "'spec' block is never closed", "add '}'")
                return
            if opened is not None and self.s[i] == "}":
                self.i = i + 1
                return
            word, at = self.ident("'def', 'let', 'import spec' or 'spec'",
                                  "a PerfTuning body is a list of def SECTION { ... } blocks")
            if word == "def":
                self.section()
            elif word == "let":
                self.let("the top level")
            elif word == "import":
                self.import_spec(at)
            elif word == "spec":
                self.ident("a spec name", "write spec NAME { def ... }")
                self.parse(opened=self.expect("{", "write spec NAME { def ... }"))
            elif word in _STATEMENTS:
                raise self.error(at, f"'{word}' outside a def section", _where_hint(word))
            else:
                raise self.error(at, f"expected 'def', 'let', 'import spec' or 'spec', found '{word}'",
                                 "a PerfTuning body is a list of def SECTION { ... } blocks")

    def section(self) -> None:
        name, at = self.ident("a section name", f"sections are: {', '.join(SECTIONS)}")
        if name not in SECTIONS:
            close = difflib.get_close_matches(name, SECTIONS, n=1)
            hint = (f"did you mean '{close[0]}'? " if close else "") + "sections are " + ", ".join(SECTIONS)
            raise self.error(at, f"unknown section '{name}'", hint)
        self.expect("{", f"write def {name} {{ ... }}")
        self.b.args.setdefault(name, {})
        while True:
            i = self.skip()
            if i >= self.n:
                raise self.error(at, f"def {name} is never closed", "add '}' after its last statement")
            if self.s[i] == "}":
                self.i = i + 1
                return
            word, wat = self.ident("a statement (let, arg, param, constraint, option, decl)",
                                    "write e.g. param T[] = [16, 32]; or arg NAME = VALUE;")
            if word == "def":
                raise self.error(wat, f"def {name} (at {self._at(at)}) is not closed before this 'def'",
                                 f"add '}}' at the end of def {name}")
            if word == "let":
                self.let(f"def {name}")
                continue
            if word not in _STATEMENTS:
                raise self.error(wat, f"unknown statement '{word}' in def {name}",
                                 "statements are let, arg, param, constraint, option, decl")
            allowed = _ALLOWED.get(name, {"arg"})
            if word not in allowed:
                raise self.error(wat, f"'{word}' is not allowed in def {name}", _where_hint(word))
            getattr(self, "stmt_" + word)(name)

    def let(self, where: str) -> None:
        name, at = self.ident("a name after 'let'", "write let NAME = VALUE;")
        self._check_new_name(name, at, "let")
        self.expect("=", f"write let {name} = VALUE;")
        text, off = self.value(f"let {name}")
        if name in self.b.declared:
            what, f, l = self.b.declared[name]
            raise self.error(at, f"let '{name}' has the same name as {what} '{name}' ({f}:{l})",
                             "rename one of them")
        self.b.lets[name] = self.evaluate(text, off, f"let {name}")

    def _check_new_name(self, name: str, at: int, what: str) -> None:
        if name.startswith("_") or keyword.iskeyword(name) and name not in C_NAME_KEYWORDS or name in SAFE_FUNCTIONS:
            why = ("names starting with '_' are reserved" if name.startswith("_") else
                   "it is a Python keyword" if keyword.iskeyword(name) else
                   f"it would hide the function {name}()")
            raise self.error(at, f"{what} name '{name}' cannot be used", f"rename it: {why}")

    def stmt_arg(self, section: str) -> None:
        name, at = self.ident("an argument name after 'arg'", "write arg NAME = VALUE;")
        self.expect("=", f"write arg {name} = VALUE;")
        text, off = self.value(f"arg {name}")
        args = self.b.args[section]
        if name in args:
            f, l, c = self.b.arg_where[(section, name)]
            raise self.error(at, f"duplicate arg '{name}' in def {section} (first set at {f}:{l}:{c})",
                             "remove one of them")
        v = self.evaluate(text, off, f"arg {name}")
        check_arg(self, section, name, v, off)
        args[name] = v
        line, col = self.pos(at)
        self.b.arg_where[(section, name)] = (self.file, line, col)
        if section == "build" and name == "build_command":
            self.b.build_at = (self.file,) + self.pos(off)

    def stmt_param(self, section: str) -> None:
        name, at = self.ident("a param name after 'param'", "write param NAME[] = [values];")
        self._check_new_name(name, at, "param")
        dims = 0
        while self.peek() == "[":
            self.expect("[", f"write param {name}[] = [values];")
            self.expect("]", f"write param {name}[] = [values];")
            dims += 1
        self.expect("=", f"write param {name}[] = [values];")
        text, off = self.value(f"param {name}")
        self._declare(name, at, "param")
        v = self.evaluate(text, off, f"param {name}")
        vline, vcol = self.pos(off)
        meta = EMPTY
        if dims == 0:
            values = [v]
        elif isinstance(v, MappingSpace):
            values = list(v)
            meta = FrozenMap(loops=v.loops, slots=v.slots, block=v.block, thread=v.thread,
                             cover=v.cover)
        elif isinstance(v, (list, tuple, range)):
            values = list(v)
        elif isinstance(v, (set, frozenset)):
            raise self.error(off, f"param {name}[] is a set, whose order is not fixed",
                             "use a list, e.g. sorted(...)")
        else:
            raise self.error(off, f"param {name}[] needs a list of values, got {type(v).__name__}",
                             f"write param {name}[] = [v1, v2, ...]; or param {name} = v;")
        if not values:
            raise self.error(off, f"param '{name}' has no values", "give it at least one value")
        values = check_kind(values, f"param '{name}'", file=self.file, line=vline, col=vcol)
        line, col = self.pos(at)
        if section == "input_params" and len(values) == 1 and isinstance(values[0], float):
            # a coefficient (SPAPT's `param a = 1.5;`), which Orio #defines: a constant of the
            # program, as `decl static double a = 1.5;` would declare it, unless a decl's
            # extent names it (coefficients_or_sizes)
            decl = VarDecl(name, "double", (), "static", False, self.compile(repr(values[0]), off), line, col,
                           self.file)
            self.b.coefficients.append((decl, ParamDef(name, values, line, col, EMPTY, self.file), vline, vcol))
            return
        if section == "input_params" and len(values) == 1 and isinstance(values[0], str):
            # Orio #defines every input param (MPIOverlap's `param datatype = 'MPI_BYTE';`): one
            # that sizes nothing is no problem size (_coefficients_or_sizes)
            self.b.texts.append((ParamDef(name, values, line, col, EMPTY, self.file), vline, vcol))
            return
        if section == "input_params":
            check_sizes(name, values, file=self.file, line=vline, col=vcol)
        p = ParamDef(name, values, line, col, meta, self.file)
        (self.b.perf if section == "performance_params" else self.b.inputs).append(p)

    def _declare(self, name: str, at: int, what: str) -> None:
        prev = self.b.declared.get(name)
        if prev is not None:
            pwhat, f, l = prev
            raise self.error(at, f"duplicate {what} '{name}' (already a {pwhat} at {f}:{l})",
                             "give each param and constraint its own name")
        if name in self.b.lets:
            raise self.error(at, f"{what} '{name}' has the same name as a let", "rename one of them")
        self.b.declared[name] = (what, self.file, self.pos(at)[0])

    def stmt_constraint(self, section: str) -> None:
        name, at = self.ident("a constraint name after 'constraint'", "write constraint NAME = CONDITION;")
        self.expect("=", f"write constraint {name} = CONDITION;")
        text, off = self.value(f"constraint {name}")
        quoted = _string_literal(text)
        if quoted is not None:
            # a string is true whatever the point: the space would be silently unconstrained
            raise self.error(off + len(text) - len(text.lstrip()), f"constraint {name} is a string, "
                             "which holds at every point", f"write the condition without quotes: "
                             f"constraint {name} = {quoted.strip()};")
        self._declare(name, at, "constraint")
        line, col = self.pos(at)
        c = ConstraintDef(name, self.compile(text, off), line, col, self.file)
        (self.b.constraints if section == "performance_params" else self.b.input_constraints).append(c)

    def stmt_option(self, section: str) -> None:
        i = self.skip()
        if i >= self.n or self.s[i] not in "'\"":
            raise self.error(i, f"expected a quoted option after 'option', found {self._found(i)}",
                             'write option "-n" = [values];')
        end = self.skip_string(i)
        opt = self.s[i + 1:end - 1]
        self.i = end
        self.expect("=", f'write option "{opt}" = [values];')
        text, off = self.value(f"option {opt}")
        v = self.evaluate(text, off, f"option {opt}")
        values = list(v) if isinstance(v, (list, tuple, range)) else [v]
        if not values:
            raise self.error(off, f"option '{opt}' has no values", "give it at least one value")
        line, col = self.pos(off)
        self.b.options.setdefault(section, {})[opt] = check_kind(
            values, f"option '{opt}'", file=self.file, line=line, col=col)

    def stmt_decl(self, section: str) -> None:
        word, at = self.ident("a type after 'decl'", "write decl static double A[N][N] = random;")
        storage = None
        if word in STORAGE:
            storage = word
            word, at = self.ident("a type", "write decl static double A[N][N] = random;")
        device = word == "__device__"
        if device:
            word, at = self.ident("a type", "write decl static double A[N][N] = random;")
        if word not in TYPES and word not in INT_WORDS and word not in ("unsigned", "signed"):
            raise self.error(at, f"unknown type '{word}' in decl",
                             "use one of " + ", ".join(TYPES) + ", unsigned/signed ones, or <stdint.h>'s" +
                             (", after an optional static/dynamic/managed" if storage is None else ""))
        ctype = word
        # image data: `unsigned char`, `unsigned short int`, `long long`, `long unsigned int`:
        # C takes an integer type's words in any order
        while set(ctype.split()) <= {"unsigned", "signed", "short", "long", "int", "char"}:
            m = _IDENT.match(self.s, self.skip())
            if not m or m.group() not in ("char", "short", "int", "long", "double", "unsigned", "signed"):
                break
            self.i = m.end()
            ctype += " " + m.group()
        name, nat = self.ident("a variable name", "write decl static double A[N][N] = random;")
        if name in C_KEYWORDS:
            raise self.error(nat, f"decl name '{name}' is a C keyword", "name the variable as the code does")
        dims: list[Expr] = []
        while self.peek() == "[":
            i = self.expect("[", "write decl static double A[N][N] = random;")
            depth, j = 1, self.i
            while j < self.n and depth:
                depth += {"[": 1, "]": -1}.get(self.s[j], 0)
                j += 1
            if depth:
                raise self.error(i, "'[' is never closed in decl", "add ']'")
            text = self.s[self.i:j - 1]
            if not text.strip():
                raise self.error(i, f"array dimension of '{name}' is empty", "write the size, e.g. [N]")
            dims.append(self.compile(text, self.i))
            self.i = j
        init: None | str | Expr = None
        i = self.skip()
        if self.s.startswith("=", i):
            self.i = i + 1
            text, off = self.value(f"decl {name}")
            t = text.strip()
            if t == "random":
                init = "random"
            elif t in ("0", "0.0", "0.", "zero") and (dims or t != "0"):
                init = "zero"
            else:
                init = self.compile(text, off)
        elif self.s.startswith(";", i):
            self.i = i + 1
        elif not self.s.startswith("}", i):
            raise self.error(i, f"expected '=', '[' or ';' after decl {name}, found {self._found(i)}",
                             "write decl static double A[N][N] = random;")
        line, col = self.pos(nat)
        self.b.decls.append(VarDecl(name, ctype, tuple(dims), storage, device, init, line, col,
                                    self.file))

    def import_spec(self, at: int) -> None:
        word, _ = self.ident("'spec' after 'import'", "write import spec NAME;")
        if word != "spec":
            raise self.error(at, f"expected 'import spec NAME;', found 'import {word}'", "write import spec NAME;")
        i = self.skip()
        if i < self.n and self.s[i] in "'\"":
            end = self.skip_string(i)
            name, self.i = self.s[i + 1:end - 1], end
        else:
            m = _SPEC_NAME.match(self.s, i)
            if not m:
                raise self.error(i, f"expected a spec name, found {self._found(i)}",
                                 "write import spec NAME; to load NAME.spec")
            name, self.i = m.group(), m.end()
        if self.peek() == ";":
            self.i += 1
        fname = name if name.endswith(".spec") else name + ".spec"
        path = os.path.abspath(os.path.join(self.base_dir, fname))
        if path in self.stack:
            chain = " -> ".join(os.path.basename(p) for p in self.stack + (path,))
            raise self.error(i, f"spec '{name}' imports itself ({chain})", "remove the cycle")
        try:
            text = read_utf8(path, AnnotationError, "spec file")
        except OSError as e:
            raise self.error(i, f"cannot read spec '{name}' ({path}: {e.strerror})",
                             f"put {fname} next to {os.path.basename(self.file)}") from None
        sub = _Parser(text, file=path, line=1, col=1, base_dir=os.path.dirname(path),
                      builder=self.b, stack=self.stack + (path,))
        sub.parse()


def _coefficients_or_sizes(b: _Builder) -> None:
    """A floating input param that sizes a decl is a problem size that is no integer (refused
    there); any other is a coefficient the program declares."""
    sizes = {n for d in b.decls for e in d.dims for n in e.names_in_order()}
    for decl, param, vline, vcol in b.coefficients:
        if param.name in sizes:
            check_sizes(param.name, param.values, file=param.file, line=vline, col=vcol)
        b.decls.insert(0, decl)
    for param, vline, vcol in b.texts:
        if param.name in sizes:
            check_sizes(param.name, param.values, file=param.file, line=vline, col=vcol)
        note_once(param.file, param.line, f"input param '{param.name}' = {param.values[0]!r} is no problem size: "
                  "looptx does not #define it as Orio does (code that reads it gets the value from its own "
                  "declaration)")


def parse_tuning_spec(body: str, *, file: str, line: int = 1, col: int = 1,
                      base_dir: str | None = None) -> TuningSpec:
    """Parse a PerfTuning body that starts at `file:line:col` (or a whole .spec text)."""
    if base_dir is None:
        base_dir = os.path.dirname(file) or "."
    b = _Builder()
    top = os.path.abspath(os.path.join(base_dir, os.path.basename(file)))
    _Parser(body, file=file, line=line, col=col, base_dir=base_dir, builder=b,
            stack=(top,)).parse()
    check_arg_names(b.args, b.arg_where)
    _coefficients_or_sizes(b)
    check_names(b)
    args = b.args
    other = {k: FrozenMap(v) for k, v in args.items()
             if k not in ("search", "build", "performance_counter", "validation",
                          "input_vars", "performance_params", "input_params", "cmdline_params")
             and v}
    iv_extra = {k: v for k, v in args.get("input_vars", {}).items()
                if k not in ("decl_file", "init_file")}
    if iv_extra:
        other["input_vars"] = FrozenMap(iv_extra)
    if b.options.get("cmdline_params"):
        other["cmdline_params"] = FrozenMap(b.options["cmdline_params"])
    iv = args.get("input_vars", {})
    return TuningSpec(
        file=file, line=line,
        performance_params=tuple(b.perf), constraints=tuple(b.constraints),
        input_params=tuple(b.inputs), input_constraints=tuple(b.input_constraints),
        input_vars=tuple(b.decls), decl_file=iv.get("decl_file"), init_file=iv.get("init_file"),
        lets=FrozenMap(b.lets), search=FrozenMap(args.get("search", {})),
        build=FrozenMap(args.get("build", {})),
        performance_counter=FrozenMap(args.get("performance_counter", {})),
        validation=FrozenMap(args.get("validation", {})), other=FrozenMap(other),
        arg_pos=FrozenMap({f"{sec}.{name}": pos for (sec, name), pos in b.arg_where.items()}))


def load_spec_file(path: str) -> TuningSpec:
    """A stand-alone .spec file (Orio's `-s FILE`): `let`s and `spec NAME { ... }` blocks (or
    bare `def` sections)."""
    try:
        text = read_utf8(path, AnnotationError, "spec file")
    except OSError as e:
        raise AnnotationError(f"cannot read spec file ({e.strerror})", file=path,
                              hint="check the path") from None
    return parse_tuning_spec(text, file=path, line=1, col=1,
                             base_dir=os.path.dirname(os.path.abspath(path)))


def _string_literal(text: str) -> str | None:
    """The value of `text` when it is one string literal (`'T1 > 2'`), not an expression that
    starts with one (`'i' == P or U == 2`)."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
