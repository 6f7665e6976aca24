"""Keep the user's macro spellings (`SCALAR_VAL(0.2)`, `(DATA_TYPE)n`, `SQRT_FUN(x)`) in the
regenerated C region.

The analysis needs the expansions, but a file that picks its types and constants with `#ifdef`
(PolyBench's DATA_TYPE_IS_FLOAT) must stay right for every configuration after the region is
rewritten: printing the expansion would freeze the one looptx was run with.  Three shapes of
macro are safe to re-spell, and cpp is made to mark their uses so the parse still sees the
expansion:
- constants: a body of numbers, operators, parentheses, type keywords and parameters
  (`x##f`, `1.5`, `(1.0/3)`): `__lxc_K((body), #p...)`, the stringified arguments giving back the
  spelling;
- function aliases `f(p1, ..., pn)`: `__lxa_K(p1, ..., pn)`, renamed to `f` after the parse;
- arithmetic types (`double`, `unsigned long`): a typedef `__lxt_K`, replaced by its words after
  the parse.
After the parse `unmark` puts the expansions back in the tree and records, by node, how the
user spelled them.  A file whose marked text does not parse (a macro used where an expression
or a type name cannot stand) is parsed as before, without spellings.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from pycparser import c_ast, c_generator, c_parser

_FUNC_DEFINE = re.compile(r"^#define[ \t]+([A-Za-z_]\w*)\(([^)]*)\)[ \t]*(.*)$")
_OBJ_DEFINE = re.compile(r"^#define[ \t]+([A-Za-z_]\w*)(?![\w(])[ \t]*(.*)$")
_TYPE_WORDS = {"char", "short", "int", "long", "float", "double", "signed", "unsigned"}
# the standard headers' integer typedefs a type macro may name (MachSuite's `#define TYPE
# int32_t`): the prelude declares the marker as a type of the same range, for the parse only
_NAMED_TYPES = {"size_t": "unsigned long", "ssize_t": "long", "ptrdiff_t": "long", "intptr_t": "long",
                "uintptr_t": "unsigned long", "intmax_t": "long", "uintmax_t": "unsigned long",
                "int8_t": "signed char", "int16_t": "short", "int32_t": "int", "int64_t": "long",
                "uint8_t": "unsigned char", "uint16_t": "unsigned short", "uint32_t": "unsigned",
                "uint64_t": "unsigned long"}
_OPERATORS = set("+ - * / % ( ) < > <= >= == != && || ! ~ & | ^ ? : << >>".split())
_NUMBER = re.compile(r"\.?\d")
MARKER_FILE = "<looptx-macros>"
MAX_UNMARKED = 6      # macros left unmarked before a file is read without spellings
_MARKER = re.compile(r"__lx[act]_\d+")
_LINEMARKER = re.compile(r'^#\s*(\d+)\s+"((?:[^"\\]|\\.)*)"')
_C_TOKEN = re.compile(r"""[A-Za-z_]\w*|\.?\d(?:[eEpP][+-]|[\w.])*|"(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?"""
                      r"|->|\+\+|--|<<=?|>>=?|&&|\|\||##|[<>=!&|^+\-*/%]=|\S")


def tokens(line: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group()) for m in _C_TOKEN.finditer(line)]


@dataclass(frozen=True)
class Macro:
    name: str
    params: tuple[str, ...] | None          # None: object-like
    target: str = ""                       # the function an alias calls; the type a type macro names
    # the body is a parameter or pastes one (`x`, `x##f`): the use keeps its meaning inside the
    # marker's parentheses only when each argument is one token
    atomic_args: bool = False


@dataclass
class MacroMarks:
    """The marked macros of one preprocessing, by marker name."""
    consts: dict[str, Macro] = field(default_factory=dict)
    aliases: dict[str, Macro] = field(default_factory=dict)
    types: dict[str, Macro] = field(default_factory=dict)
    keep: frozenset[str] = frozenset()     # macros left as they are (a use did not parse marked)
    # the file's typedef names: a constant may cast to one (libjpeg's `#define FIX_0_298631336
    # ((INT32) 2446)`)
    typedefs: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.consts or self.aliases or self.types)

    def prelude(self) -> str:
        if not self.types:
            return ""
        return f'# 1 "{MARKER_FILE}"\n' + "".join(f"typedef {_NAMED_TYPES.get(m.target, m.target)} {k};\n"
                                                  for k, m in self.types.items())

    def rewrite(self, line: str, macro_names: set[str]) -> str:
        """The #define line cpp should see: the same, or one that marks the macro's uses."""
        named = re.match(r"#define[ \t]+(\w+)", line)
        if named and named.group(1) in self.keep:
            return line
        f = _FUNC_DEFINE.match(line)
        if f:
            params = tuple(p.strip() for p in f.group(2).split(",")) if f.group(2).strip() else ()
            if any(not re.fullmatch(r"[A-Za-z_]\w*", p) for p in params):
                return line                            # variadic
            body = f.group(3).strip()
            words = [t for _, _, t in tokens(body)]
            if _is_alias(words, params, macro_names):
                key = f"__lxa_{len(self.aliases)}"
                self.aliases[key] = Macro(f.group(1), params, words[0])
                return f"#define {f.group(1)}({', '.join(params)}) {key}({', '.join(params)})"
            shape = _constant_shape(words, set(params), self._type_names())
            if shape:
                key = f"__lxc_{len(self.consts)}"
                self.consts[key] = Macro(f.group(1), params, atomic_args=shape == "pastes")
                strings = "".join(f", #{p}" for p in params)
                return f"#define {f.group(1)}({', '.join(params)}) {key}(({body}){strings})"
            return line
        o = _OBJ_DEFINE.match(line)
        if not o:
            return line
        body = o.group(2).strip()
        words = [t for _, _, t in tokens(body)]
        if words and (all(w in _TYPE_WORDS for w in words) or len(words) == 1 and words[0] in _NAMED_TYPES):
            key = f"__lxt_{len(self.types)}"
            self.types[key] = Macro(o.group(1), None, " ".join(words))
            return f"#define {o.group(1)} {key}"
        if _constant_shape(words, set(), self._type_names()):
            key = f"__lxc_{len(self.consts)}"
            self.consts[key] = Macro(o.group(1), None)
            return f"#define {o.group(1)} {key}(({body}))"
        return line


    def _type_names(self) -> set[str]:
        """The type macros so far: a constant may cast to one (`#define ZERO ((TYPE)0)`)."""
        return {m.name for m in self.types.values()} | set(self.typedefs)

    def blame(self, text: str, file: str, line: int, col: int) -> str | None:
        """The marked macro whose use stopped the parse at `file:line:col` of `text` (a
        declarator `POLYBENCH_DECL_VAR(A)` with the identity body that SCALAR_VAL also has)."""
        current, lineno = None, 0
        culprit = None
        for physical in text.split("\n"):
            mark = _LINEMARKER.match(physical)
            if mark:
                lineno, current = int(mark.group(1)), mark.group(2)
                continue
            # cpp may give a line number twice (a blank line, then a line marker and the code)
            if current == file and lineno == line:
                found = [m for m in _MARKER.finditer(physical) if m.start() < max(col, 1)] \
                    or list(_MARKER.finditer(physical))
                if found:
                    key = found[-1].group()
                    macro = self.consts.get(key) or self.aliases.get(key) or self.types.get(key)
                    culprit = macro.name if macro else culprit
            lineno += 1
        return culprit


def _is_alias(words: list[str], params: tuple[str, ...], macro_names: set[str]) -> bool:
    if len(words) < 3 or not re.fullmatch(r"[A-Za-z_]\w*", words[0]) or words[0] in params \
            or words[0] in macro_names or words[1] != "(" or words[-1] != ")":
        return False
    args = words[2:-1]
    return args == [x for p in params for x in (p, ",")][:-1] if params else not args


def _constant_shape(words: list[str], params: set[str], types: set[str] = frozenset()) -> str | None:
    """'atom' for a constant body that means the same inside parentheses (a number, or an
    expression in one pair of them), 'pastes' for a parameter or a paste of one (`x##f`), which
    does when its argument is one token; None for anything else (`2+2`: `2*NN` is 6, not 8)."""
    if not words or not any(_NUMBER.match(w) or w in params for w in words):
        return None
    depth = 0
    for k, w in enumerate(words):
        depth += {"(": 1, ")": -1}.get(w, 0)
        pasted = "##" in words[max(k - 1, 0):k + 2]     # a suffix such as the f of `x##f`
        if depth < 0 or not (_NUMBER.match(w) or w in params or w in _OPERATORS or w in _TYPE_WORDS or w in types
                             or w == "##" or pasted and re.fullmatch(r"\w+", w)):
            return None
        if depth == 0 and 0 < k < len(words) - 1 and words[0] == "(":
            return None                                     # `(a)*(b)`: not one pair
    if depth:
        return None
    if words[0] == "(" and words[-1] == ")" or len(words) == 1 and _NUMBER.match(words[0]):
        return "atom"
    if all(w == "##" if k % 2 else re.fullmatch(r"\w+", w) for k, w in enumerate(words)) \
            and any(w in params for w in words):
        return "pastes"
    return None


class UnsafeUse(Exception):
    """A marked macro used with an argument that its marker's parentheses would regroup."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


@dataclass
class Spellings:
    """How the user spelled parts of the parsed tree, by node identity (valid with that tree),
    and by place: a copy of a spelled node (an if-converted condition, an inlined helper) is
    the same text at the same place, and is spelled alike."""
    exprs: dict[int, str] = field(default_factory=dict)     # a constant expression -> `SCALAR_VAL(0.2)`
    calls: dict[int, str] = field(default_factory=dict)     # a FuncCall -> `SQRT_FUN`
    types: dict[int, str] = field(default_factory=dict)     # an IdentifierType -> `DATA_TYPE`
    places: dict[tuple, str] = field(default_factory=dict)  # (kind, file, line, column, text) -> spelling
    coords: set[tuple] = field(default_factory=set)         # (kind, file, line, column) of `places`

    def text(self, node) -> str:
        """C text of a node with the user's spellings."""
        return SpelledGenerator(self).visit(node)

    def expr_of(self, node) -> str | None:
        return self._of(self.exprs, "e", node)

    def call_of(self, node) -> str | None:
        return self._of(self.calls, "c", node)

    def type_of(self, node) -> str | None:
        return self._of(self.types, "t", node)

    def with_calls(self, calls: dict) -> "Spellings":
        return Spellings(self.exprs, calls, self.types, self.places, self.coords)

    def remember(self, kind: str, node, spelled: str) -> None:
        table = {"e": self.exprs, "c": self.calls, "t": self.types}[kind]
        table[id(node)] = spelled
        c = node.coord
        if c is not None:
            self.coords.add((kind, c.file, c.line, c.column))
            self.places[(kind, c.file, c.line, c.column, _place_text(kind, node))] = spelled

    def _of(self, table: dict, kind: str, node) -> str | None:
        spelled = table.get(id(node))
        c = node.coord
        if spelled is not None or c is None or (kind, c.file, c.line, c.column) not in self.coords:
            return spelled
        return self.places.get((kind, c.file, c.line, c.column, _place_text(kind, node)))

    def type_name(self, node, qualified: bool = False) -> str | None:
        """The macro that spells a type node (a cast's or a declaration's), when it is just that
        (with qualifiers too if `qualified`: a temporary for a const array drops them)."""
        while isinstance(node, (c_ast.Typename, c_ast.TypeDecl)):
            if getattr(node, "quals", None) and not qualified:
                return None
            node = node.type
        return self.type_of(node) if isinstance(node, c_ast.IdentifierType) else None


def _place_text(kind: str, node) -> str:
    if kind == "t":
        return " ".join(node.names)
    if kind == "c":
        return node.name.name if isinstance(node.name, c_ast.ID) else ""
    return c_generator.CGenerator().visit(node)


def _unquote(s: str) -> str:
    return re.sub(r"\\(.)", r"\1", s[1:-1])


def unmark(ast: c_ast.FileAST, marks: MacroMarks) -> Spellings:
    """Put the expansions back in the tree (in place) and return the spellings."""
    out = Spellings()
    ast.ext = [e for e in ast.ext if not (e.coord is not None and e.coord.file == MARKER_FILE)]

    def fix(node):
        for name, child in list(node.children()):
            new = fix(child)
            if new is not child:
                m = re.fullmatch(r"(\w+)\[(\d+)\]", name)
                if m:
                    getattr(node, m.group(1))[int(m.group(2))] = new
                else:
                    setattr(node, name, new)
        if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID):
            macro = marks.consts.get(node.name.name)
            if macro is not None:
                args = node.args.exprs
                value = args[0]
                spelled = [_unquote(a.value) for a in args[1:]]
                # `-1.5` too: a unary minus binds tighter than any operator around the use
                if macro.atomic_args and any(len(tokens(a.lstrip("+-").strip())) != 1 for a in spelled):
                    raise UnsafeUse(macro.name)
                out.remember("e", value, macro.name if macro.params is None else
                             f"{macro.name}({', '.join(spelled)})")
                return value
            macro = marks.aliases.get(node.name.name)
            if macro is not None:
                node.name = c_ast.ID(macro.target, coord=node.name.coord)
                out.remember("c", node, macro.name)
        elif isinstance(node, c_ast.IdentifierType):
            names = []
            for n in node.names:
                names += marks.types[n].target.split() if n in marks.types else [n]
            if names != node.names:
                spelled = marks.types[node.names[0]].name if len(node.names) == 1 else None
                node.names = names
                if spelled is not None:
                    out.remember("t", node, spelled)
        return node

    fix(ast)
    return out


def parse_spelled(prepare, text_of, filename: str):
    """Parse the preprocessed file with its macro uses marked: (tree, preprocessing, spellings).
    `prepare(keep)` preprocesses leaving the macros in `keep` (all, if None) unmarked; `text_of` gives the text
    pycparser reads.  A marked macro used where neither an expression nor a type name can stand
    (a declarator) stops the parse, as does a use whose argument the marker's parentheses would
    regroup (`x` with `1+1`): that macro is left unmarked and the file read again, and after a
    few the file is read as before, without spellings.  The tree is None when the file
    is to be parsed without marks (by the caller, which reports its errors)."""
    pp = prepare(frozenset())
    keep: frozenset[str] = frozenset()
    while pp.marks:
        text = text_of(pp)
        try:
            ast = c_parser.CParser().parse(text, filename=filename)
            return ast, pp, unmark(ast, pp.marks)
        except UnsafeUse as e:
            culprit = e.name
        except Exception as e:                              # ParseError, lexer errors, RecursionError
            where = re.match(r"(.*?):(\d+):(\d+):", str(e))
            culprit = where and pp.marks.blame(text, where.group(1), int(where.group(2)), int(where.group(3)))
        if not culprit or culprit in keep or len(keep) >= MAX_UNMARKED:
            pp = prepare(None)
        else:
            keep |= {culprit}
            pp = prepare(keep)
    return None, pp, Spellings()


class SpelledGenerator(c_generator.CGenerator):
    """C text of a declaration with the user's macro spellings."""

    def __init__(self, spellings: Spellings):
        super().__init__()
        self.sp = spellings

    def visit(self, node):
        spelled = self.sp.expr_of(node) if isinstance(node, c_ast.Node) else None
        if spelled is not None:
            return spelled
        return super().visit(node)

    def visit_IdentifierType(self, n):
        return self.sp.type_of(n) or super().visit_IdentifierType(n)

    def visit_FuncCall(self, n):
        name = self.sp.call_of(n)
        if name is None:
            return super().visit_FuncCall(n)
        return f"{name}({self.visit(n.args) if n.args else ''})"
