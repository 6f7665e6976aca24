"""Safe evaluation of annotation values (Orio `PY` expressions) without eval().

Orio evaluates spec values with `eval` over builtins + itertools, so a spec can run anything.
Here the text is parsed with `ast.parse` (parsing executes nothing) and the tree is walked by
a small interpreter that knows only a whitelist of node types and functions.  Semantics are
Python 3's (true division, chained comparisons, lazy generator expressions).

Every result that could grow without bound (ranges, repeats, powers, combinatorics, big ints)
is sized *before* it is built, and each evaluation has a step budget, so a spec can neither hang
nor exhaust memory.  All failures become `AnnotationError` located at the offending token of
the original file.
"""
from __future__ import annotations

import ast
import operator
import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from looptx.errors import AnnotationError
from looptx.frontend.safe_builtins import (deep_count, MAX_ELEMS, MAX_INT_BITS, MAX_STEPS, MAX_TEXT,
                                           SAFE_FUNCTIONS, _check_bits, _check_count, _power,
                                           _Refused)
from looptx.frontend.tuning import MappingSpace, mapping_slots, mapping_values

__all__ = ["Expr", "compile_expr", "evaluate", "SAFE_FUNCTIONS", "MappingSpace", "mapping_values",
           "mapping_slots", "MAX_ELEMS", "MAX_INT_BITS", "MAX_STEPS"]

_EMPTY: Mapping[str, Any] = MappingProxyType({})

_SAFE_IDS = frozenset(id(f) for f in SAFE_FUNCTIONS.values())
_FUNC_LIST = ", ".join(SAFE_FUNCTIONS)

# ----------------------------------------------------------------------------- compile-time check

_ALLOWED_NODES = (
    ast.Expression, ast.Constant, ast.Name, ast.Load, ast.Store, ast.List, ast.Tuple, ast.Set,
    ast.Dict, ast.UnaryOp, ast.BinOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Subscript,
    ast.Slice, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.comprehension,
    ast.Call, ast.keyword, ast.Starred, ast.JoinedStr,
    ast.UAdd, ast.USub, ast.Not, ast.Invert, ast.And, ast.Or,
    ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow,
    ast.LShift, ast.RShift, ast.BitAnd, ast.BitOr, ast.BitXor,
    ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.Is, ast.IsNot,
)
_CONST_TYPES = (int, float, str, bool, type(None))
_FORBIDDEN_NAMES = {
    ast.Attribute: "attribute access", ast.Lambda: "lambda", ast.NamedExpr: "assignment ':='",
    ast.Await: "await", ast.Yield: "yield", ast.YieldFrom: "yield from",
    ast.FormattedValue: "an f-string with a {...} field", ast.MatMult: "operator '@'",
}
_HINT = "annotation values are Python expressions over literals and names; only safe built-ins " \
        "such as range, len, min, max, permutations may be called"


class _Bad(Exception):
    def __init__(self, node_pos, what, hint=_HINT):
        super().__init__(what)
        self.pos, self.what, self.hint = node_pos, what, hint


def _pos(node, default):
    if hasattr(node, "lineno") and hasattr(node, "col_offset"):
        return (node.lineno, node.col_offset)
    return default


def _attr_pos(node, at):
    # point at the attribute name, not at the start of the object expression
    if getattr(node, "end_col_offset", None) is not None:
        return (node.end_lineno, max(node.end_col_offset - len(node.attr.encode("utf-8")), 0))
    return _pos(node, at)


class _Checker:
    """Rejects anything outside the whitelist; collects free names in text order."""

    def __init__(self):
        self.names: list[tuple[str, tuple[int, int]]] = []

    def check(self, node, bound: frozenset, at):
        at = _pos(node, at)
        if isinstance(node, ast.Attribute):
            self.check(node.value, bound, at)    # report the leftmost offence first
            raise _Bad(_attr_pos(node, at), f"attribute access '.{node.attr}' is not allowed")
        if not isinstance(node, _ALLOWED_NODES):
            what = _FORBIDDEN_NAMES.get(type(node), f"'{type(node).__name__}'")
            raise _Bad(at, f"{what} is not allowed")
        if isinstance(node, ast.Constant):
            if not isinstance(node.value, _CONST_TYPES):
                raise _Bad(at, f"literal {node.value!r} is not allowed")
        elif isinstance(node, ast.Name):
            if node.id.startswith("_"):
                raise _Bad(at, f"name '{node.id}' is not allowed",
                           "names starting with '_' are reserved")
            if node.id not in bound and node.id not in SAFE_FUNCTIONS:
                self.names.append((node.id, at))
            return
        elif isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute):
                self.check(f, bound, at)
            if not isinstance(f, ast.Name) or f.id not in SAFE_FUNCTIONS or f.id in bound:
                called = f.id if isinstance(f, ast.Name) else ast.unparse(f)
                raise _Bad(at, f"call of '{called}' is not allowed",
                           f"only {_FUNC_LIST} may be called")
            for kw in node.keywords:
                if kw.arg is None:
                    raise _Bad(_pos(kw, at), "'**' arguments are not allowed")
            for a in node.args:
                self.check(a, bound, at)
            for kw in node.keywords:
                self.check(kw.value, bound, at)
            return
        elif isinstance(node, ast.JoinedStr):
            for v in node.values:
                if not isinstance(v, ast.Constant):
                    raise _Bad(_pos(v, at), "an f-string with a {...} field is not allowed",
                               "build the string with + and str()")
            return
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            inner = bound
            for k, gen in enumerate(node.generators):
                if gen.is_async:
                    raise _Bad(at, "async comprehensions are not allowed")
                # the first iterable is evaluated in the enclosing scope (Python 3 rules)
                self.check(gen.iter, bound if k == 0 else inner, at)
                inner = inner | self._targets(gen.target, at)
                for cond in gen.ifs:
                    self.check(cond, inner, at)
            elts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
            for e in elts:
                self.check(e, inner, at)
            return
        for child in ast.iter_child_nodes(node):
            self.check(child, bound, at)

    def _targets(self, t, at) -> frozenset:
        if isinstance(t, ast.Name):
            if t.id.startswith("_"):
                raise _Bad(_pos(t, at), f"name '{t.id}' is not allowed",
                           "names starting with '_' are reserved")
            return frozenset([t.id])
        if isinstance(t, (ast.Tuple, ast.List)):
            out = frozenset()
            for e in t.elts:
                out |= self._targets(e, at)
            return out
        raise _Bad(_pos(t, at), "a comprehension variable must be a name or a tuple of names")


# ----------------------------------------------------------------------------- Expr

@dataclass(frozen=True)
class Expr:
    """A checked annotation expression; call it with an environment to evaluate it."""

    text: str
    names: frozenset
    file: str | None = field(default=None, compare=False)
    line: int | None = field(default=None, compare=False)
    col: int | None = field(default=None, compare=False)
    _tree: Any = field(default=None, compare=False, repr=False)
    _shift: int = field(default=0, compare=False, repr=False)     # 1 when parsed wrapped in ( )
    _name_locs: tuple = field(default=(), compare=False, repr=False)

    def __reduce__(self):
        # re-check on unpickling instead of shipping the ast
        return (_rebuild, (self.text, self.file, self.line, self.col))

    def __call__(self, env: Mapping[str, Any] = _EMPTY) -> Any:
        ev = _Evaluator(self, env)
        try:
            return ev.run()
        except _EvalError as e:
            raise self._error(e.pos, e.what, e.hint) from None
        except RecursionError:
            raise self._error(None, f"'{_short(self.text)}' is nested too deeply to evaluate") from None

    def location(self, pos=None) -> tuple[int | None, int | None]:
        """File (line, col) of an ast (lineno, col_offset) inside this expression."""
        return _map_pos(self.text, self.line, self.col, pos, self._shift)

    def conjuncts(self) -> list["Expr"]:
        """The operands of a top-level `and` (nested ones too), each an Expr of its own text
        and place; [] for any other expression."""
        body = getattr(self._tree, "body", None)
        if not (isinstance(body, ast.BoolOp) and isinstance(body.op, ast.And)):
            return []
        # the text as parsed (C_NAME_KEYWORDS renamed), which the nodes' offsets count in
        parsed = _keywords_renamed(self.text) if _KEYWORD_NAME.search(self.text) else self.text
        source = "(\n" + parsed + "\n)" if self._shift else parsed
        out = []
        for node in body.values:
            segment = ast.get_source_segment(source, node)
            if segment is None:
                return []
            segment = segment.replace(_KEPT, "")
            line, col = self.location((node.lineno, node.col_offset))
            part = compile_expr(segment, file=self.file, line=line, col=col)
            out += part.conjuncts() or [part]
        return out

    def names_in_order(self) -> tuple[str, ...]:
        """The free names in order of first use in the text."""
        return tuple(dict.fromkeys(n for n, _ in self._name_locs))

    def location_of(self, name: str) -> tuple[int | None, int | None]:
        """File (line, col) of the first free use of `name` (the expression's start if unused)."""
        for n, pos in self._name_locs:
            if n == name:
                return self.location(pos)
        return self.line, self.col

    def _error(self, pos, what, hint=None) -> AnnotationError:
        line, col = self.location(pos)
        return AnnotationError(what, hint=hint, file=self.file, line=line, col=col)


def _rebuild(text, file, line, col):
    return compile_expr(text, file=file, line=line, col=col)


def _short(text: str, limit: int = 60) -> str:
    t = " ".join(text.split())
    return t if len(t) <= limit else t[: limit - 3] + "..."


def _map_pos(text, line, col, pos, shift):
    """ast positions are (1-based line, 0-based utf-8 byte column) of the parsed source."""
    if line is None:
        return None, None
    if pos is None:
        return line, col
    lineno, offset = pos
    lines = text.split("\n")
    k = lineno - 1 - shift
    if k < 0:
        return line, col
    if k >= len(lines):         # past the end (e.g. "unexpected EOF"): point just after the text
        k, chars = len(lines) - 1, len(lines[-1])
    else:
        chars = len(lines[k].encode("utf-8")[:max(offset, 0)].decode("utf-8", errors="ignore"))
    if k == 0:
        return line, (col or 1) + chars
    return line + k, chars + 1


# Python keywords that are C names and no part of an expression's syntax: a param may be named
# so (PETSc's Bratu examples tune `lambda`), and is parsed under another name
C_NAME_KEYWORDS = frozenset({"lambda", "def", "class", "pass", "del", "from", "global", "import", "nonlocal",
                             "raise", "with", "yield", "elif", "except", "finally", "try", "assert", "as",
                             "async", "await", "return", "while", "break", "continue"})
_KEPT = "_lx_kw"
_KEYWORD_NAME = re.compile(r"\b(?:" + "|".join(sorted(C_NAME_KEYWORDS)) + r")\b")


def _keywords_renamed(text: str) -> str:
    """`text` with the C_NAME_KEYWORDS it uses as names (not inside strings) suffixed."""
    import io
    import tokenize
    lines = text.split("\n")
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return text             # the parse says what is wrong
    # a Python lambda (`lambda v: v`) stays one, for the checker to refuse
    found = [t.start for t, after in zip(toks, toks[1:] + toks[-1:]) if t.type == tokenize.NAME
             and t.string in C_NAME_KEYWORDS and not (t.string == "lambda" and (after.type == tokenize.NAME
                                                                               or after.string in (":", "*", "**")))]
    for row, col in reversed(found):
        word = re.match(r"\w+", lines[row - 1][col:]).group()
        lines[row - 1] = lines[row - 1][:col + len(word)] + _KEPT + lines[row - 1][col + len(word):]
    return "\n".join(lines)


def compile_expr(text: str, *, file: str | None = None, line: int | None = None,
                 col: int | None = None) -> Expr:
    """Parse and check `text`; `file:line:col` is where its first character sits."""
    if line is not None and col is None:
        col = 1
    # drop leading blanks so that the expression starts at a known position
    lead = len(text) - len(text.lstrip())
    if lead and line is not None:
        skipped = text[:lead]
        nl = skipped.count("\n")
        if nl:
            line, col = line + nl, len(skipped) - skipped.rfind("\n")
        else:
            col += lead
    text = text.strip()

    def err(pos, what, hint=None, *, shift=0, chars=False):
        if chars and pos is not None:  # SyntaxError offsets count characters, 1-based
            lineno, off = pos
            lines = text.split("\n")
            k = lineno - 1 - shift
            off = max((off or 1) - 1, 0)
            if 0 <= k < len(lines):
                off = len(lines[k][:off].encode("utf-8"))
            pos = (lineno, off)
        l, c = _map_pos(text, line, col, pos, shift)
        return AnnotationError(what, hint=hint, file=file, line=l, col=c)

    if not text:
        raise err(None, "expected a value", "write a Python expression, e.g. [1, 2, 4]")
    if len(text) > MAX_TEXT:
        raise err(None, f"expression is longer than {MAX_TEXT} characters")
    parsed = _keywords_renamed(text) if _KEYWORD_NAME.search(text) else text
    try:
        tree, shift = ast.parse(parsed, mode="eval"), 0
    except SyntaxError as first:
        try:
            # a value may run over several lines without brackets, as Orio's lexer allows
            tree, shift = ast.parse("(\n" + parsed + "\n)", mode="eval"), 1
            if isinstance(tree.body, ast.GeneratorExp):
                raise SyntaxError("invalid syntax")     # the brackets made `x for x in s` a generator
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            msg = first.msg or "invalid syntax"
            pos = (first.lineno, first.offset) if first.lineno else None
            if first.offset in (None, 0) and first.lineno in (None, 1) and "\n" not in text:
                pos = (1, len(text) + 1)
            raise err(pos, f"syntax error in '{_short(text)}': {msg}",
                      "annotation values are Python expressions", chars=True) from None
    except (ValueError, RecursionError, MemoryError) as e:
        if isinstance(e, ValueError):
            raise err(None, f"cannot parse '{_short(text)}': {e}", "fix the expression") from None
        raise err(None, f"'{_short(text)}' is nested too deeply to parse",
                  "split the expression, e.g. with let") from None
    if parsed is not text:
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id.endswith(_KEPT):
                node.id = node.id[:-len(_KEPT)]
    checker = _Checker()
    try:
        checker.check(tree, frozenset(), (1 + shift, 0))
    except _Bad as b:
        raise err(b.pos, b.what, b.hint, shift=shift) from None
    except RecursionError:
        raise err(None, f"'{_short(text)}' is nested too deeply") from None
    names = frozenset(n for n, _ in checker.names)
    return Expr(text, names, file, line, col, tree, shift, tuple(checker.names))


def evaluate(text: str, env: Mapping[str, Any] = _EMPTY, *, file: str | None = None,
             line: int | None = None, col: int | None = None) -> Any:
    return compile_expr(text, file=file, line=line, col=col)(env)


# ----------------------------------------------------------------------------- interpreter

class _EvalError(Exception):
    def __init__(self, pos, what, hint=None):
        super().__init__(what)
        self.pos, self.what, self.hint = pos, what, hint


_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Div: operator.truediv,
           ast.FloorDiv: operator.floordiv, ast.RShift: operator.rshift, ast.BitAnd: operator.and_,
           ast.BitOr: operator.or_, ast.BitXor: operator.xor}


def _seq(x):
    """Lists as tuples, recursively: a list-valued param is stored as a tuple (points are
    hashable), yet an annotation compares it with the list it wrote (`PERM != ['j','i']`)."""
    return tuple(_seq(e) for e in x) if isinstance(x, (list, tuple)) else x


def _by_value(op):
    return lambda a, b: op(_seq(a), _seq(b))


_CMPOPS = {ast.Eq: _by_value(operator.eq), ast.NotEq: _by_value(operator.ne),
           ast.Lt: _by_value(operator.lt), ast.LtE: _by_value(operator.le),
           ast.Gt: _by_value(operator.gt), ast.GtE: _by_value(operator.ge), ast.Is: operator.is_,
           ast.IsNot: operator.is_not, ast.In: _by_value(lambda a, b: a in b),
           ast.NotIn: _by_value(lambda a, b: a not in b)}
_FORMAT_GUARD = re.compile(r"%[^a-zA-Z%]*?(\*|\d{5,})")


def _mul(a, b):
    if isinstance(a, int) and isinstance(b, int):
        _check_bits(a.bit_length() + b.bit_length(), "'*'")
    elif isinstance(a, (str, list, tuple)) and isinstance(b, int):
        _check_count(deep_count(a) * b, "repetition")
    elif isinstance(b, (str, list, tuple)) and isinstance(a, int):
        _check_count(deep_count(b) * a, "repetition")
    return a * b


def _mod(a, b):
    if isinstance(a, str) and _FORMAT_GUARD.search(a):
        raise _Refused("'%' formatting with '*' or a width of 5 or more digits")
    return a % b


def _lshift(a, b):
    if isinstance(a, int) and isinstance(b, int) and b > 0:
        _check_bits(a.bit_length() + b, "'<<'")
    return a << b


_BINOPS.update({ast.Mult: _mul, ast.Mod: _mod, ast.Pow: _power, ast.LShift: _lshift})
_UNOPS = {ast.UAdd: operator.pos, ast.USub: operator.neg, ast.Not: operator.not_,
          ast.Invert: operator.invert}
_PY_ERRORS = (TypeError, ValueError, ZeroDivisionError, OverflowError, IndexError, KeyError,
              MemoryError, _Refused)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if isinstance(exc, KeyError):
        return f"key {exc.args[0]!r} not found" if exc.args else "key not found"
    if isinstance(exc, OverflowError):
        return "number too large"
    if isinstance(exc, MemoryError):
        return "out of memory"
    return str(exc) or type(exc).__name__


class _Evaluator:
    def __init__(self, expr: Expr, env: Mapping[str, Any]):
        self.expr, self.env, self.steps = expr, env, 0

    def run(self):
        tree = self.expr._tree
        if tree is None:
            tree = compile_expr(self.expr.text)._tree
        return self.ev(tree.body, {})

    def ev(self, node, scope):
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise _EvalError(_pos(node, None),
                             f"'{_short(self.expr.text)}' takes more than {MAX_STEPS} steps to evaluate",
                             "make the value smaller")
        try:
            return getattr(self, "_" + type(node).__name__)(node, scope)
        except _PY_ERRORS as e:
            raise _EvalError(_pos(node, None),
                             f"cannot evaluate '{_short(self.expr.text)}': {_describe(e)}",
                             "make the divisor non-zero" if isinstance(e, ZeroDivisionError) else
                             "fix the expression (Python 3 semantics)") from None

    # -- leaves
    def _Constant(self, n, s):
        return n.value

    def _JoinedStr(self, n, s):
        return "".join(v.value for v in n.values)

    def _Name(self, n, s):
        if n.id in s:
            return s[n.id]
        if n.id in self.env:
            return self.env[n.id]
        if n.id in SAFE_FUNCTIONS:
            return SAFE_FUNCTIONS[n.id]
        raise _EvalError(_pos(n, None), f"unknown name '{n.id}'", "define it with param or let")

    # -- displays
    def _elements(self, elts, s, lazy=False):
        out = []
        for e in elts:
            if lazy and isinstance(e, ast.GeneratorExp):
                # a generator argument stays lazy (any(), all() short-circuit as in Python);
                # every allowed function consumes it before returning
                out.append(self._lazy(e, s))
            elif isinstance(e, ast.Starred):
                out.extend(self.ev(e.value, s))
                _check_count(len(out), "a display")
            else:
                out.append(self.ev(e, s))
        return out

    def _List(self, n, s):
        return self._elements(n.elts, s)

    def _Tuple(self, n, s):
        return tuple(self._elements(n.elts, s))

    def _Set(self, n, s):
        return set(self._elements(n.elts, s))

    def _Dict(self, n, s):
        out = {}
        for k, v in zip(n.keys, n.values):
            if k is None:
                out.update(self.ev(v, s))
            else:
                out[self.ev(k, s)] = self.ev(v, s)
        return out

    # -- operators
    def _UnaryOp(self, n, s):
        return _UNOPS[type(n.op)](self.ev(n.operand, s))

    def _BinOp(self, n, s):
        a, b = self.ev(n.left, s), self.ev(n.right, s)
        if isinstance(n.op, ast.Add) and isinstance(a, (list, range)) and isinstance(b, (list, range)) \
                and (isinstance(a, range) or isinstance(b, range)):
            # Orio's files were written for Python 2, where range() is a list: `[1] + range(2, 17)`
            # (an error in Python 3) is the list it meant
            return list(a) + list(b)
        return _BINOPS[type(n.op)](a, b)

    def _BoolOp(self, n, s):
        is_and = isinstance(n.op, ast.And)
        v = None
        for e in n.values:
            v = self.ev(e, s)
            if bool(v) != is_and:
                return v
        return v

    def _Compare(self, n, s):
        left = self.ev(n.left, s)
        for op, comp in zip(n.ops, n.comparators):
            right = self.ev(comp, s)
            if not _CMPOPS[type(op)](left, right):
                return False
            left = right
        return True

    def _IfExp(self, n, s):
        return self.ev(n.body, s) if self.ev(n.test, s) else self.ev(n.orelse, s)

    def _Subscript(self, n, s):
        return self.ev(n.value, s)[self.ev(n.slice, s)]

    def _Slice(self, n, s):
        return slice(*(None if x is None else self.ev(x, s) for x in (n.lower, n.upper, n.step)))

    def _Starred(self, n, s):
        raise _Refused("'*' is only allowed inside a list, tuple, set or call")

    def _Call(self, n, s):
        func = SAFE_FUNCTIONS[n.func.id]
        args = self._elements(n.args, s, lazy=True)
        kwargs = {kw.arg: self.ev(kw.value, s) for kw in n.keywords}
        for v in list(args) + list(kwargs.values()):
            if callable(v) and id(v) not in _SAFE_IDS:
                raise _Refused("only the allowed functions may be passed as arguments")
        return func(*args, **kwargs)

    # -- comprehensions
    def _bind(self, target, value, scope):
        if isinstance(target, ast.Name):
            scope[target.id] = value
            return
        items = list(value)
        if len(items) != len(target.elts):
            raise ValueError(f"cannot unpack {len(items)} values into {len(target.elts)} names")
        for t, v in zip(target.elts, items):
            self._bind(t, v, scope)

    def _scopes(self, gens, first_iter, scope, k=0):
        if k == len(gens):
            yield scope
            return
        g = gens[k]
        source = first_iter if k == 0 else self.ev(g.iter, scope)
        for item in source:
            self.steps += 1
            inner = dict(scope)
            self._bind(g.target, item, inner)
            if all(self.ev(c, inner) for c in g.ifs):
                yield from self._scopes(gens, None, inner, k + 1)

    def _comp(self, n, s):
        # Python evaluates the first iterable eagerly, in the enclosing scope
        return self._scopes(n.generators, iter(self.ev(n.generators[0].iter, s)), s)

    def _ListComp(self, n, s):
        # (`[[1]*10**5 for _ in range(10**5)]`: each element is small, all of them are not)
        out, cells = [], 0
        for inner in self._comp(n, s):
            out.append(self.ev(n.elt, inner))
            cells += 1 + deep_count(out[-1])
            _check_count(cells, "a comprehension")
        return out

    def _SetComp(self, n, s):
        return {self.ev(n.elt, inner) for inner in self._comp(n, s)}

    def _DictComp(self, n, s):
        return {self.ev(n.key, inner): self.ev(n.value, inner) for inner in self._comp(n, s)}

    # outside a call a generator could outlive the evaluation (and its error handling)
    _GeneratorExp = _ListComp

    def _lazy(self, n, s):
        scopes = self._comp(n, s)

        def gen():
            for inner in scopes:
                yield self.ev(n.elt, inner)
        return gen()
