"""Affine (and linearized-polynomial) views of C integer expressions, written as isl text.

A subscript like `V[i*J*K + l*K + m]` is a polynomial in iterators and parameters; it is
affine when every term has degree <= 1.  Polynomials whose parameter products form a chain
(1 | K | J*K) are delinearized into a multi-dimensional access ([i][l][m] of a J x K array),
provided each inner index stays within its extent (checked later, exactly, by isl).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Iterable

from pycparser import c_ast

from looptx.frontend import rounded_division

Monomial = tuple[str, ...]          # sorted symbol names, repeated for powers; () is the constant


_C_INT = re.compile(r"(0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)(?:[uU](?:ll|LL|[lL])?|(?:ll|LL|[lL])[uU]?)?")


def c_int_value(text: str) -> int:
    """The value of a C integer constant: `010` is octal 8, `0b101` (a GCC extension) is 5.
    ValueError for anything else (`089`, C23's `1'000`)."""
    m = _C_INT.fullmatch(text.strip())
    if m is None:
        raise ValueError(f"'{text}' is not a C integer constant")
    v = m.group(1)
    if v[:2] in ("0x", "0X"):
        return int(v, 16)
    if v[:2] in ("0b", "0B"):
        return int(v[2:], 2)
    return int(v, 8) if len(v) > 1 and v[0] == "0" else int(v)


def bad_int_constant(text: str) -> tuple[str, str]:
    """(what, how to fix) for a token that c_int_value refuses."""
    hint = (f"digit separators are not C before C23: write {text.replace(chr(39), '')}" if "'" in text
            else "write a decimal, 0x hexadecimal or 0 octal integer")
    return f"'{text}' is not a valid C integer constant", hint


class NonAffine(Exception):
    def __init__(self, node, what: str, hint: str | None = None):
        super().__init__(what)
        self.node, self.what, self.hint = node, what, hint
        self.divisor: tuple[str, ...] = ()      # the names a non-constant divisor is made of


INT_MIN, INT_MAX = -2 ** 31, 2 ** 31 - 1


def int_sized(value: int, node, what: str, hint: str = "keep sizes and bounds below 2^31") -> int:
    if not INT_MIN <= value <= INT_MAX:
        raise NonAffine(node, f"{what} does not fit in an int", hint)
    return value


def long_sized(value: int, node, what: str) -> int:
    if not -2 ** 63 <= value <= 2 ** 63 - 1:
        raise NonAffine(node, f"{what} does not fit in a long", "keep sizes and bounds below 2^63")
    return value


@dataclass(frozen=True)
class Poly:
    terms: tuple[tuple[Monomial, Fraction], ...]

    @staticmethod
    def of(d: dict) -> "Poly":
        return Poly(tuple(sorted((m, c) for m, c in d.items() if c != 0)))

    @staticmethod
    def const(v) -> "Poly":
        return Poly.of({(): Fraction(v)})

    @staticmethod
    def sym(name: str) -> "Poly":
        return Poly.of({(name,): Fraction(1)})

    def as_dict(self) -> dict:
        return dict(self.terms)

    def __add__(self, o: "Poly") -> "Poly":
        d = self.as_dict()
        for m, c in o.terms:
            d[m] = d.get(m, 0) + c
        return Poly.of(d)

    def __neg__(self) -> "Poly":
        return Poly(tuple((m, -c) for m, c in self.terms))

    def __sub__(self, o: "Poly") -> "Poly":
        return self + (-o)

    def __mul__(self, o: "Poly") -> "Poly":
        d: dict = {}
        for m1, c1 in self.terms:
            for m2, c2 in o.terms:
                m = tuple(sorted(m1 + m2))
                d[m] = d.get(m, 0) + c1 * c2
        return Poly.of(d)

    def constant(self) -> Fraction | None:
        if all(m == () for m, _ in self.terms):
            return self.as_dict().get((), Fraction(0))
        return None

    def symbols(self) -> set[str]:
        return {s for m, _ in self.terms for s in m}

    def subs(self, values: dict) -> "Poly":
        """Replace symbols by numbers (fixed sizes)."""
        d: dict = {}
        for m, c in self.terms:
            keep = []
            for sym in m:
                if sym in values:
                    c = c * values[sym]
                else:
                    keep.append(sym)
            key = tuple(keep)
            d[key] = d.get(key, 0) + c
        return Poly.of(d)

    def expand(self, products: dict) -> "Poly":
        """Each symbol of `products` replaced by its Poly (a size local `nn = n1*n2`)."""
        out = Poly.of({})
        for m, c in self.terms:
            term = Poly.const(c)
            for sym in m:
                term = term * products.get(sym, Poly.sym(sym))
            out = out + term
        return out

    def degree(self) -> int:
        return max((len(m) for m, _ in self.terms), default=0)

    def is_integral(self) -> bool:
        return all(c.denominator == 1 for _, c in self.terms)

    def isl(self) -> str:
        """isl text of an affine polynomial (degree <= 1, integer coefficients)."""
        if not self.terms:
            return "0"
        parts = []
        for m, c in sorted(self.terms, key=lambda t: (t[0] == (), t[0])):
            c = int(c)
            if m == ():
                parts.append(f"{c}")
            elif c == 1:
                parts.append(m[0])
            elif c == -1:
                parts.append(f"-{m[0]}")
            else:
                parts.append(f"{c}*{m[0]}")
        s = " + ".join(parts)
        return s.replace("+ -", "- ")


@dataclass(frozen=True)
class Translation:
    poly: Poly
    atoms: dict                 # atom symbol -> isl text (floor divisions, min/max, mod)
    obligations: tuple          # (isl condition text that must hold, node, message)


Resolver = Callable[[str, c_ast.Node], "tuple[str, object]"]
# resolver(name, node) -> ('iter', None) | ('param', None) | ('fixed', int); raises NonAffine


class Translator:
    """pycparser integer expression -> Poly over iterators, parameters and opaque atoms."""

    def __init__(self, resolve: Resolver, fix_products: Callable[["Poly"], "Poly"] | None = None,
                 fix_divisor: Callable[["Poly"], "Poly"] | None = None,
                 fix_dividend: Callable[["Poly"], "Poly"] | None = None, types=None,
                 values: Callable[[set], dict] | None = None):
        self.resolve = resolve
        # the values of the sizes that have one (valued.known_values): C's int arithmetic of
        # them overflows where the model's would go on
        self.values = values
        # C's integer types (frontend/int_types.IntTypes): where unsigned or narrow values
        # would wrap, the model's integers hold only under an obligation
        self.types = types
        # a subscript keeps its products symbolic (a linearized one may still be delinearized),
        # but no row can be read from `(n*NUM)/DEN`: there the compiler's constant is the model
        self.fix_dividend = fix_dividend
        # a product of sizes that have values (NX*NY of two #defines) may be modelled at them
        self.fix_products = fix_products
        # and so may a divisor (`c % K`, darknet's `c % ksize` with --define ksize=3)
        self.fix_divisor = fix_divisor
        self.atoms: dict[str, str] = {}
        self.obligations: list = []
        # (condition, node, what) where C's unsigned or narrow conversions would part from the
        # model's integers: checked wherever C evaluates the expression (poly/wrap_checks.py)
        self.wrap_obligations: list = []

    def atom(self, text: str) -> Poly:
        for k, v in self.atoms.items():
            if v == text:
                return Poly.sym(k)
        name = f"__a{len(self.atoms)}"
        self.atoms[name] = text
        return Poly.sym(name)

    def isl_of(self, p: Poly, node) -> str:
        """Affine isl text of p with atoms expanded; NonAffine if p is not affine."""
        if p.degree() > 1 and self.fix_products is not None:
            p = self.fix_products(p)
        if p.degree() > 1:
            products = [m for m, _ in p.terms if len(m) > 1]
            if all(self.resolve(n, node)[0] != "iter" for m in products for n in m):
                names = sorted({n for m in products for n in m})
                raise NonAffine(node, f"non-affine expression: a product of sizes ({'*'.join(products[0])})",
                                "give all but one of them a value with --define ("
                                + " ".join(f"--define {n}=VALUE" for n in names[1:]) + ")" if len(names) > 1
                                else f"give {names[0]} a value (a #define, or --define {names[0]}=VALUE)")
        if p.degree() > 1:
            m = next(m for m, _ in p.terms if len(m) > 1)
            sizes = [n for n in m if self.resolve(n, node)[0] != "iter"]
            raise NonAffine(node, "non-affine expression: a product of "
                                  + ("a loop iterator and a size" if sizes else "loop iterators")
                                  + f" ({'*'.join(m)})",
                            f"give {sizes[0]} a value (a #define, or --define {sizes[0]}=VALUE)" if sizes
                            else "looptx needs expressions affine in loop iterators and parameters")
        if not p.is_integral():
            raise NonAffine(node, "non-affine expression",
                            "looptx needs expressions affine in loop iterators and parameters")
        text = p.isl()
        for name, atom in sorted(self.atoms.items(), key=lambda kv: -len(kv[0])):
            text = text.replace(name, f"({atom})")
        return text

    def _unsigned(self, node) -> bool:
        ct = self.types.type_of(node) if self.types is not None else None
        return ct is not None and ct[1]

    def _unsigned_operand(self, node, inner: str) -> None:
        """An unsigned `/`, `%` or `>>`: its left operand must not have wrapped (a `%` compared
        with 0 is sign-free only when signed)."""
        if self._unsigned(node):
            self.wrap_obligations.append((f"{inner} >= 0", node.left,
                                          f"C reads '{_c(node.left)}' as unsigned in '{_c(node)}', and it is "
                                          "negative at some point where C evaluates it, so it wraps to a huge one"))

    def _cast(self, node: c_ast.Cast) -> Poly:
        inner = self.translate(node.expr)
        words = set(cast_words(node.to_type) or ())
        target = self.types.cast_type(node) if self.types is not None else ("float" if words & {"float", "double"} else None)
        if target == "float":
            raise NonAffine(node, f"a cast to a floating-point type ({_c(node.to_type)}) in an index or bound",
                            "write it in integers, minding the rounding: `i < (double)n / 2` is "
                            "`i < (n + 1) / 2` for n >= 0")
        from looptx.frontend.symbols import c_nodes      # (symbols imports this module)
        if isinstance(target, tuple) and any(
                isinstance(c, c_ast.Constant) and c.type.endswith("int") and c_int_value(c.value) > max(INT_MAX, 2 ** (target[0] - 1 + target[1]) - 1)
                for c in c_nodes(node.expr)):
            # (C wraps it, `(int)(i + 4294967296L)` is i: not an affine value the model keeps)
            raise NonAffine(node, f"the cast ({_c(node.to_type)}) of '{_c(node.expr)}', a constant past the type's values",
                            "compute it without the cast")
        if self.types is not None:
            try:
                text = self.isl_of(inner, node.expr)
            except NonAffine:
                # a product that fix_products resolves later (`(long)(i*m)`, or an int helper's
                # `i * lx_row + j`), read as exact; to a type narrower than int, whose range a
                # product leaves at common sizes, the range cannot be checked
                ob = self.types.cast_obligation(node, "0")
                if ob is not None and isinstance(target, tuple) and target[0] < 32:
                    raise NonAffine(node, f"{ob[1].split(', and ')[0]}, and looptx cannot check the range "
                                    f"of the product '{_c(node.expr)}' it casts",
                                    "cast a factor instead (`(size_t)i * m`), or drop the cast where "
                                    "the value always fits") from None
                return inner
            ob = self.types.cast_obligation(node, text)
            if ob is not None:
                self.wrap_obligations.append((ob[0], node.expr, ob[1]))
        return inner

    def translate(self, node) -> Poly:
        t = self.translate
        if isinstance(node, c_ast.Constant):
            if node.type.endswith("int"):
                # (a literal past int is a long in C, or an unsigned one: the loops whose bounds
                # read it count in long, codegen/own_counters.past_int)
                return Poly.const(long_sized(c_int_value(node.value), node, f"the constant {node.value}"))
            if node.type == "char":
                value = char_value(node.value)
                if value is None:
                    raise NonAffine(node, "character constant in an index expression", "write the integer value")
                return Poly.const(value)
            raise NonAffine(node, f"non-affine: floating-point value {node.value} in an index or bound",
                            "loop bounds and subscripts must be integer affine expressions")
        if isinstance(node, c_ast.ID):
            kind, value = self.resolve(node.name, node)
            if kind == "fixed":
                return Poly.const(value)
            return Poly.sym(node.name)
        if isinstance(node, c_ast.Cast):
            return self._cast(node)
        if isinstance(node, c_ast.UnaryOp):
            if node.op == "-":
                return -t(node.expr)
            if node.op == "+":
                return t(node.expr)
            if node.op in ("p++", "++", "p--", "--"):
                raise NonAffine(node, "increment inside an expression",
                                "write the increment as its own statement")
            if node.op == "*":
                raise NonAffine(node, "pointer dereference", "use array subscripts")
            if node.op == "&":
                raise NonAffine(node, "address-of operator", "use array subscripts")
            raise NonAffine(node, f"non-affine operator '{node.op}'",
                            "loop bounds and subscripts may use + - * / % with integer constants")
        if isinstance(node, c_ast.BinaryOp):
            if node.op in ("+", "-", "*"):
                a, b = t(node.left), t(node.right)
                out = a + b if node.op == "+" else a - b if node.op == "-" else a * b
                ctype = self.types.type_of(node) if self.types is not None else None
                if ctype is not None:
                    # (the model's integers would go on where C's overflow or wrap: `i * 65536 * 65536`,
                    # `N * N` of a #define N 46341, `2147483647 + 1`, `N * N` of N 65536u, which is 0)
                    bits, unsigned = ctype
                    hi = (1 << bits) - 1 if unsigned else (1 << (bits - 1)) - 1
                    lo = 0 if unsigned else -(1 << (bits - 1))
                    valued = out.subs(self.values(out.symbols())) if self.values else out
                    # (a product by any coefficient, a sum by its constant; an unsigned difference
                    # below 0 is C's too, `n - 1u`)
                    if any(c > hi or c < lo and not unsigned for m, c in valued.terms if node.op == "*" or not m):
                        name = ("unsigned " if unsigned else "") + {32: "int", 64: "long"}[bits]
                        raise NonAffine(node, f"'{_c(node)}' {'wraps' if unsigned else 'overflows'} {name} "
                                              f"(C computes it in {name})",
                                        f"compute it in a wider type: ({'unsigned long' if unsigned and bits == 32 else 'long'})"
                                        f"({_c(node.left)}) {node.op} ...")
                return out
            if node.op in ("/", "%"):
                rounded = rounded_division.of_division(node)
                if rounded:
                    fn, x, d = rounded
                    inner = self.isl_of(t(x), x)
                    if self._unsigned(x):
                        self.wrap_obligations.append((f"{inner} >= 0", x, f"C reads '{_c(x)}' as unsigned in "
                                                      f"'{_c(node)}', and it is negative at some point where C "
                                                      "evaluates it, so it wraps to a huge one"))
                    return self.atom(f"floor(({inner})/{d})" if fn == "floor" else f"({inner}) mod {d}")
                a, b = t(node.left), t(node.right)
                c = b.constant()
                if c is None and self.fix_divisor is not None:
                    c = self.fix_divisor(b).constant()
                # C's quotient by -c is minus the one by c (it rounds toward zero), its remainder the same
                flip = -1 if c is not None and c < 0 and node.op == "/" else 1
                c = -c if c is not None and c < 0 else c
                if c is None or c.denominator != 1 or c <= 0:
                    err = NonAffine(node, f"non-affine: '{node.op}' by a non-constant or zero value",
                                    "divide only by non-zero integer constants")
                    # a divisor of sizes alone (llama2.c's `h / kv_mul`) is a constant once they are
                    # given: the extractor, which knows the loops, says so (Extractor.divisor_hint)
                    err.divisor = tuple(sorted(b.symbols())) if c is None else ()
                    raise err
                if a.degree() > 1 and self.fix_dividend is not None:
                    a = self.fix_dividend(a)
                ca = a.constant()
                if ca is not None and ca.denominator == 1:     # constant folding, as C computes it
                    ct = self.types.type_of(node) if self.types is not None else None
                    if ct is not None and ct[1]:
                        ca %= 2 ** ct[0]        # (an unsigned `5 - 10u` is 2^32 - 5)
                    q = abs(ca) // c * (1 if ca >= 0 else -1)
                    return Poly.const(flip * q if node.op == "/" else ca - q * c)
                inner = self.isl_of(a, node.left)
                if not (node.op == "%" and self._unsigned(node) and int(c) & (int(c) - 1) == 0):
                    # (or an exact one: isl's own output divides `(i - 3*n + 9) / 2` of an i of
                    # that parity; poly/obligations.size_facts tries that first)
                    self.obligations.append((f"{inner} >= 0 or ({inner}) mod {int(c)} = 0", node,
                                             f"'{node.op}' of a possibly negative value (C rounds toward zero)"))
                    self._unsigned_operand(node, inner)
                # else an unsigned `%` by a power of two: the wrapped value (x mod 2^w) leaves
                # the remainder isl's x mod c does (the red-black sweep's `(j + k + color) % 2`
                # of size_t j, k and an int color)
                q = self.atom(f"floor(({inner})/{int(c)})" if node.op == "/" else f"({inner}) mod {int(c)}")
                return -q if flip < 0 else q
            if node.op in ("<<", ">>"):
                a, b = t(node.left), t(node.right)
                c = b.constant()
                if c is None and self.fix_divisor is not None:
                    c = self.fix_divisor(b).constant()     # NPB's `1 << MK`, MK a #define
                if c is None or c < 0:
                    raise NonAffine(node, "non-affine shift",
                                    "shift only by a non-negative integer constant, or fix the size with --define")
                if c > 30:
                    raise NonAffine(node, f"shift by {c} bits does not fit in an int",
                                    "the generated loops count with int: shift by at most 30")
                if node.op == "<<":
                    return a * Poly.const(2 ** int(c))
                # an arithmetic shift (gcc's, and every target's, for a signed value) rounds down,
                # as isl's floor does, whatever the sign: no obligation
                ca = a.constant()
                if ca is not None and (ca >= 0 or self.types is None or not self._unsigned(node)):
                    return Poly.const(ca // 2 ** int(c))
                inner = self.isl_of(a, node.left)
                self._unsigned_operand(node, inner)
                return self.atom(f"floor(({inner})/{2 ** int(c)})")
            raise NonAffine(node, f"non-affine operator '{node.op}' in an index or bound",
                            "loop bounds and subscripts may use + - * / % with integer constants")
        if isinstance(node, c_ast.TernaryOp):
            mm = min_max_of_ternary(node)
            if mm:
                fn, x, y = mm
                return self.atom(f"{fn}({self.isl_of(t(x), x)}, {self.isl_of(t(y), y)})")
            rounded = rounded_division.of_ternary(node)
            if rounded:
                fn, x, d = rounded
                return self.atom(f"{fn}(({self.isl_of(t(x), x)})/{d})")
            raise NonAffine(node, "conditional expression in an index or bound",
                            "a `?:` there must be a min or max: a comparison of the arms (`a < b ? a : b`) "
                            "or arms that differ by a multiple of the compared difference (`i > b ? i - b : 0`); "
                            "write other choices as an if around the loop")
        if isinstance(node, c_ast.FuncCall):
            name = node.name.name if isinstance(node.name, c_ast.ID) else None
            args = node.args.exprs if node.args else []
            key = (name or "").lower().removeprefix("__builtin_")
            if key in ("min", "max", "imin", "imax", "fmin", "fmax") and len(args) >= 2:
                parts = [self.isl_of(t(a), a) for a in args]
                text = parts[0]
                for q in parts[1:]:
                    text = f"{key.lstrip('fi')}({text}, {q})"
                return self.atom(text)
            if key in ("abs", "labs", "llabs") and len(args) == 1:
                # OpenCV's reflected border `in[abs(y - 1)]`: max(e, -e), piecewise affine
                e = self.isl_of(t(args[0]), args[0])
                return self.atom(f"max({e}, -({e}))")
            if key in ("floord", "ceild") and len(args) == 2:
                c = t(args[1]).constant()
                if c is None or c <= 0:
                    raise NonAffine(node, f"{name} by a non-constant value", "divide only by positive integer constants")
                fn = "floor" if key == "floord" else "ceil"
                return self.atom(f"{fn}(({self.isl_of(t(args[0]), args[0])})/{int(c)})")
            rounded = rounded_division.of_call(node)
            if rounded:
                fn, x, d = rounded
                return self.atom(f"{fn}(({self.isl_of(t(x), x)})/{d})")
            header = _TYPE_HEADERS.get(name) or ("stdint.h" if re.fullmatch(r"u?int(?:_least|_fast)?\d+_t|u?intptr_t|u?intmax_t", name) else None)
            if header is not None and len(args) == 1:
                # `(size_t)(i + 1)` where nothing declares size_t: C reads a call (probe 183 G4)
                raise NonAffine(node, f"'{name}' is not declared, so '({name})(...)' reads as a call to it",
                                f"#include <{header}>, which declares the type")
            raise NonAffine(node, f"call to '{name}' in an index or bound",
                            "bounds and subscripts read min, max, abs, floord, ceild and the file's helpers over "
                            "signed int, short or long that return one expression: write the expression there, "
                            "or give the helper such parameters")
        if isinstance(node, c_ast.ArrayRef):
            base = node
            while isinstance(base, c_ast.ArrayRef):
                base = base.name
            of = f" of '{base.name}'" if isinstance(base, c_ast.ID) else ""
            raise NonAffine(node, f"non-affine: array element{of} used in an index or bound",
                            "looptx needs bounds and subscripts affine in loop iterators and parameters")
        if isinstance(node, c_ast.StructRef):
            raise NonAffine(node, "struct member access is not supported", "copy the value into a variable")
        if isinstance(node, c_ast.ExprList):
            raise NonAffine(node, "comma expression in an index or bound", "write the value it ends with")
        raise NonAffine(node, f"unsupported expression ({type(node).__name__}) in an index or bound",
                        "loop bounds and subscripts must be integer affine expressions")


def _c(node) -> str:
    from looptx.frontend.symbols import c_text
    return c_text(node)


def cast_words(to_type) -> list[str] | None:
    t = getattr(to_type, "type", None)
    if isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType):
        return list(t.type.names)
    return None


_ESCAPES = {"n": 10, "t": 9, "r": 13, "0": 0, "\\": 92, "'": 39, '"': 34, "a": 7, "b": 8, "f": 12, "v": 11, "?": 63}


def char_value(text: str) -> int | None:
    """The int value of a character constant ('a', '\\n', '\\x41', '\\101'); None for a wide or
    multi-character one."""
    if not (len(text) >= 3 and text[0] == "'" and text[-1] == "'"):
        return None
    body = text[1:-1]
    if len(body) == 1 and body != "\\":
        return ord(body) if ord(body) < 128 else None
    if body.startswith("\\x") and len(body) > 2:
        try:
            return int(body[2:], 16) if int(body[2:], 16) < 128 else None
        except ValueError:
            return None
    if body.startswith("\\") and body[1:].isdigit() and set(body[1:]) <= set("01234567"):
        v = int(body[1:], 8)
        return v if v < 128 else None
    if len(body) == 2 and body[0] == "\\":
        return _ESCAPES.get(body[1])
    return None


def _same(a, b) -> bool:
    from pycparser import c_generator
    g = c_generator.CGenerator()
    return g.visit(a) == g.visit(b)


def min_max_of_ternary(node: c_ast.TernaryOp):
    """`a < b ? a : b` -> ('min', a, b); `a > b ? a : b` -> ('max', a, b) (and mirrored forms);
    also where the arms differ by a constant multiple of the compared difference: the band
    matrix's `i > bw ? i - bw : 0` is max(i - bw, 0), `i < bw ? 0 : i - bw` too."""
    c = node.cond
    if not isinstance(c, c_ast.BinaryOp) or c.op not in ("<", "<=", ">", ">="):
        return None
    x, y = node.iftrue, node.iffalse
    if _same(c.left, x) and _same(c.right, y):
        return ("min" if c.op in ("<", "<=") else "max", x, y)
    if _same(c.left, y) and _same(c.right, x):
        return ("max" if c.op in ("<", "<=") else "min", x, y)
    # the condition holds where d > 0 (or >= 0); with x - y = k*d, the true arm is the larger
    # one there when k > 0 (a max) and the smaller one when k < 0 (a min); at d = 0 under >=
    # both arms are equal
    left, right, px, py = (_linear(e) for e in (c.left, c.right, x, y))
    if None in (left, right, px, py):
        return None
    d = (left - right if c.op in (">", ">=") else right - left).as_dict()
    diff = (px - py).as_dict()
    if not d or set(d) != set(diff) or len({diff[m] / d[m] for m in d}) != 1:
        return None
    m = next(iter(d))
    return ("max" if diff[m] / d[m] > 0 else "min", x, y)


def _linear(node) -> Poly | None:
    """The Poly of an integer C expression of names of degree at most 1 (no lookups), else None."""
    if isinstance(node, c_ast.Constant):
        try:
            return Poly.const(int(node.value.rstrip("uUlL"), 0))
        except ValueError:
            return None
    if isinstance(node, c_ast.ID):
        return Poly.sym(node.name)
    if isinstance(node, c_ast.Cast):
        return _linear(node.expr)
    if isinstance(node, c_ast.UnaryOp) and node.op in ("-", "+"):
        e = _linear(node.expr)
        return None if e is None else -e if node.op == "-" else e
    if isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-", "*"):
        a, b = _linear(node.left), _linear(node.right)
        if a is None or b is None:
            return None
        out = a + b if node.op == "+" else a - b if node.op == "-" else a * b
        return out if out.degree() <= 1 else None
    return None


def delinearize(polys: Iterable[Poly], is_index: Callable[[str], bool]):
    """Split polynomials over one chain of parameter products into per-dimension affine parts.

    Returns (strides, parts) where strides are the parameter monomials from outermost to
    innermost (ending with ()), and parts[k] is a list of Polys, one per dimension, or None when
    no consistent chain exists.  `is_index(sym)` tells iterators/atoms from parameters."""
    polys = list(polys)
    monos: set[Monomial] = {()}
    for p in polys:
        for m, _ in p.terms:
            monos.add(tuple(s for s in m if not is_index(s)))
    chain = sorted(monos, key=len)
    for a, b in zip(chain, chain[1:]):
        rest = list(b)
        for s in a:
            if s not in rest:
                return None, None
            rest.remove(s)
        if not rest:
            return None, None
    strides = list(reversed(chain))
    parts = []
    for p in polys:
        dims = {m: {} for m in strides}
        for m, c in p.terms:
            pm = tuple(s for s in m if not is_index(s))
            im = tuple(s for s in m if is_index(s))
            dims[pm][im] = dims[pm].get(im, 0) + c
        parts.append([Poly.of(dims[m]) for m in strides])
    return strides, parts


# the headers of the integer types a cast names most often
_TYPE_HEADERS = {"size_t": "stddef.h", "ptrdiff_t": "stddef.h", "ssize_t": "sys/types.h"}

