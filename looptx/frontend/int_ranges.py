"""The values a C integer expression can take, from the declared types of what it reads.

An integer temporary of a type narrower than int or unsigned (MachSuite viterbi's
`typedef uint8_t state_t; ... prev = 0;`) equals its initializer only where C's conversion to
its type keeps the value; frontend/temporaries.py substitutes it only where this module shows
that every value of the initializer fits (a constant, `state_t s = curr;`), and refuses where
the type could wrap (`unsigned t = i - 1;` with an int i).

Types are (bits, unsigned) as LP64 gcc has them.  Signed arithmetic is clamped to its type,
since a valid program does not overflow it; unsigned arithmetic that may leave its type
wraps, and its value is then unknown (None)."""
from __future__ import annotations

from pycparser import c_ast

from looptx.frontend.affine import c_int_value

CType = tuple[int, bool]
Range = tuple[int, int, CType]

INT: CType = (32, False)
# the <stdint.h> and <stddef.h> names, where a file's own typedefs do not resolve them
_NAMED = {"int8_t": (8, False), "int16_t": (16, False), "int32_t": (32, False), "int64_t": (64, False),
          "uint8_t": (8, True), "uint16_t": (16, True), "uint32_t": (32, True), "uint64_t": (64, True),
          "size_t": (64, True), "ssize_t": (64, False), "ptrdiff_t": (64, False), "intptr_t": (64, False),
          "uintptr_t": (64, True), "intmax_t": (64, False), "uintmax_t": (64, True), "off_t": (64, False)}
_QUALS = frozenset({"const", "volatile", "register", "static", "extern", "auto", "restrict"})


def resolve_words(words, typedefs: dict) -> list[str]:
    """A type's words with typedef names replaced by what they stand for, through chains
    (`state_t` -> `uint8_t` -> `unsigned char`)."""
    words, seen = [w for w in words if w not in _QUALS], set()
    while len(words) == 1 and words[0] in typedefs and words[0] not in seen:
        seen.add(words[0])
        words = [w for w in typedefs[words[0]] if w not in _QUALS]
    return words


def int_type(words) -> tuple[CType, int, int] | None:
    """(type, lowest, highest value it surely holds) of resolved type words; None if not an
    integer type.  Plain char holds 0..127 wherever it is signed or not."""
    ws = set(words)
    if not ws or len(words) == 1 and words[0] in _NAMED:
        t = _NAMED.get(words[0]) if words else None
        return None if t is None else (t, *type_limits(t))
    if not ws <= {"int", "long", "short", "char", "signed", "unsigned", "_Bool", "bool"}:
        return None
    if ws & {"_Bool", "bool"}:
        return ((1, True), 0, 1)
    unsigned = "unsigned" in ws
    bits = 8 if "char" in ws else 16 if "short" in ws else 64 if "long" in ws else 32
    t = (bits, unsigned)
    if bits == 8 and not ws & {"signed", "unsigned"}:
        return (t, 0, 127)
    return (t, *type_limits(t))


def type_limits(t: CType) -> tuple[int, int]:
    bits, unsigned = t
    return (0, 2 ** bits - 1) if unsigned else (-2 ** (bits - 1), 2 ** (bits - 1) - 1)


def _promoted(t: CType) -> CType:
    return INT if t[0] < 32 else t


def _common(a: CType, b: CType) -> CType:
    """C's usual arithmetic conversions."""
    a, b = _promoted(a), _promoted(b)
    if a == b or a[1] == b[1]:
        return max(a, b)
    signed, unsigned = (a, b) if b[1] else (b, a)
    return unsigned if unsigned[0] >= signed[0] else signed


def _in(lo: int, hi: int, t: CType) -> Range | None:
    tl, th = type_limits(t)
    if t[1]:
        return (lo, hi, t) if tl <= lo and hi <= th else None
    lo, hi = max(lo, tl), min(hi, th)
    return (lo, hi, t) if lo <= hi else None


def _constant(c: c_ast.Constant) -> Range | None:
    if not c.type.endswith("int"):
        return None
    try:
        v = c_int_value(c.value)
    except ValueError:
        return None
    text = c.value.lower()
    suffix = text.lstrip("0123456789abcdefx")
    # C's first type of the list that holds the value: a hex or octal one may be unsigned
    # (0xFFFFFFFF is an unsigned int, and `0xFFFFFFFF + 1` is 0)
    decimal = not (text.startswith("0") and len(text) - len(suffix) > 1)
    kinds = [t for t in [(32, False), (32, True), (64, False), (64, True)]
             if not ("l" in suffix and t[0] == 32) and not ("u" in suffix and not t[1])
             and not (decimal and "u" not in suffix and t[1])]
    t = next((t for t in kinds if type_limits(t)[0] <= v <= type_limits(t)[1]), None)
    return None if t is None else (v, v, t)


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


class Ranges:
    """Value ranges of expressions: `var(name)` gives a variable's (lo, hi, type) or None;
    `typedefs` (name -> words) resolves a cast's type."""

    def __init__(self, var, typedefs: dict):
        self.var, self.typedefs = var, typedefs

    def of(self, e) -> Range | None:
        if isinstance(e, c_ast.Constant):
            return _constant(e)
        if isinstance(e, c_ast.ID):
            return self.var(e.name)
        if isinstance(e, c_ast.Cast):
            inner, t = self.of(e.expr), self.cast_type(e.to_type)
            return None if inner is None or t is None or not t[1] <= inner[0] <= inner[1] <= t[2] \
                else (inner[0], inner[1], t[0])
        if isinstance(e, c_ast.UnaryOp) and e.op in ("-", "+"):
            r = self.of(e.expr)
            if r is None:
                return None
            t = _promoted(r[2])
            return _in(-r[1], -r[0], t) if e.op == "-" else _in(r[0], r[1], t)
        if isinstance(e, c_ast.TernaryOp):
            a, b = self.of(e.iftrue), self.of(e.iffalse)
            return None if a is None or b is None else _in(min(a[0], b[0]), max(a[1], b[1]), _common(a[2], b[2]))
        if isinstance(e, c_ast.BinaryOp) and e.op in ("+", "-", "*", "/", "%"):
            return self._binary(e.op, self.of(e.left), self.of(e.right))
        return None

    def _binary(self, op: str, a: Range | None, b: Range | None) -> Range | None:
        if a is None or b is None:
            return None
        t = _common(a[2], b[2])
        if op in ("+", "-", "*"):
            # unsigned wrap-around: the result equals the mathematical one where that is in range
            f = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y}[op]
            corners = [f(x, y) for x in a[:2] for y in b[:2]]
            return _in(min(corners), max(corners), t)
        if b[0] <= 0 <= b[1] or t[1] and (a[0] < 0 or b[0] < 0):
            return None                 # a division by 0, or a negative operand made unsigned
        if op == "/":
            corners = [_trunc_div(x, y) for x in a[:2] for y in b[:2]]
            return _in(min(corners), max(corners), t)
        m = max(abs(b[0]), abs(b[1])) - 1      # C's % has the sign of the dividend
        return _in(0 if a[0] >= 0 else max(a[0], -m), 0 if a[1] <= 0 else min(a[1], m), t)

    def cast_type(self, typename) -> tuple[CType, int, int] | None:
        t = getattr(typename, "type", None)
        if not (isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType)):
            return None
        return int_type(resolve_words(t.type.names, self.typedefs))

    def fits(self, e, target: tuple[CType, int, int]) -> bool:
        """Whether every value `e` takes is one that a variable of `target` holds unchanged."""
        r = self.of(e)
        return r is not None and target[1] <= r[0] and r[1] <= target[2]


def declared_ranges(decls, typedefs: dict) -> dict[str, Range | None]:
    """name -> the values a variable of its declared integer type holds (None: not an integer,
    or declared again with another type)."""
    out: dict[str, Range | None] = {}
    for d in decls:
        if not isinstance(d, c_ast.Decl) or not d.name:
            continue
        t, r = d.type, None
        if isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType):
            it = int_type(resolve_words(t.type.names, typedefs))
            if it is not None:
                # a plain char reads as -128..127 or 0..255, as the target has it
                r = (-128, 255, it[0]) if it == ((8, False), 0, 127) else (it[1], it[2], it[0])
        out[d.name] = r if out.get(d.name, r) == r else None
    return out

