"""C's integer types of the expressions in bounds, guards and subscripts, where the model's
plain integers and C's conversions part (probe 149 G1/G2/G12).

The model reads `n - i`, `(unsigned)(i - 3)`, `(short)x`, `(double)i / 2` as integer arithmetic.
C agrees where no value leaves its type: unsigned arithmetic is exact modulo 2^bits, so `+`, `-`,
`*` and a conversion back to a signed type of no more bits keep the model's value, but a value
that would be negative reads as a huge one where it is compared, divided, shifted right or
widened.  Those uses become obligations, `e >= 0` (or the type's range for a narrowing cast),
which the model checks on the statements' domains (poly/obligations.py check_obligations: refused where
they fail, assumed with a note where they hold only for some sizes)."""
from __future__ import annotations

import re
from typing import Callable

from pycparser import c_ast

from looptx.frontend.affine import cast_words
from looptx.frontend.symbols import c_nodes, c_text
from looptx.frontend.int_ranges import CType, INT, _common, _constant, _promoted, int_type, type_limits

FLOAT_WORDS = {"float", "double"}


class IntTypes:
    """`type_of(node)`: (bits, unsigned) of an integer expression, None where unknown.
    `var(name)`: a variable's type words (typedefs resolved), None where unknown."""

    def __init__(self, var: Callable[[str], str | None], resolve: Callable[[str], str]):
        self.var, self.resolve = var, resolve

    def words_type(self, words: list[str]) -> CType | None:
        words = [w for w in words if w not in ("const", "volatile", "register", "static", "restrict")]
        if len(words) == 1:
            words = self.resolve(words[0]).split()
        t = int_type(words)
        return None if t is None else t[0]

    def cast_type(self, node: c_ast.Cast) -> CType | str | None:
        """The cast's integer type, 'float' for a floating one, None for another."""
        words = cast_words(node.to_type)
        if words is None:
            return None
        if len(words) == 1:
            words = self.resolve(words[0]).split()
        if set(words) & FLOAT_WORDS:
            return "float"
        return self.words_type(words)

    def type_of(self, node) -> CType | None:
        t = self.type_of
        if isinstance(node, c_ast.Constant):
            if node.type == "char":
                return INT
            r = _constant(node)
            return None if r is None else r[2]
        if isinstance(node, c_ast.ID):
            words = self.var(node.name)
            return None if words is None else self.words_type(words.split())
        if isinstance(node, c_ast.Cast):
            c = self.cast_type(node)
            return c if isinstance(c, tuple) else None
        if isinstance(node, c_ast.UnaryOp):
            if node.op == "sizeof":
                return (64, True)
            if node.op in ("-", "+", "~"):
                inner = t(node.expr)
                return None if inner is None else _promoted(inner)
            return INT if node.op == "!" else None
        if isinstance(node, c_ast.BinaryOp):
            if node.op in ("<", "<=", ">", ">=", "==", "!=", "&&", "||"):
                return INT
            a = t(node.left)
            if node.op in ("<<", ">>"):
                return None if a is None else _promoted(a)
            b = t(node.right)
            return None if a is None or b is None else _common(a, b)
        if isinstance(node, c_ast.TernaryOp):
            a, b = t(node.iftrue), t(node.iffalse)
            return None if a is None or b is None else _common(a, b)
        return None

    def compared_unsigned(self, left, right) -> bool:
        """Whether C compares the two sides as unsigned values."""
        a, b = self.type_of(left), self.type_of(right)
        return a is not None and b is not None and _common(a, b)[1]

    def cast_obligation(self, node: c_ast.Cast, inner: str) -> tuple[str, str] | None:
        """(isl condition, what) under which the cast keeps the value `inner` of its operand."""
        target = self.cast_type(node)
        if not isinstance(target, tuple):
            return None
        bits, unsigned = target
        lo, hi = type_limits(target)
        source = self.type_of(node.expr)
        written = f"({' '.join(cast_words(node.to_type) or [])})"
        operand = f"'{c_text(node.expr)}'"
        if bits < 32 or source is not None and source[0] > bits:       # (and `(int)` of a long)
            return (f"{lo} <= ({inner}) <= {hi}", f"the cast {written} keeps only the values {lo}..{hi}, and "
                                                  f"{operand} is outside them at some point where C evaluates it")
        negative = f"{operand} is negative at some point where C evaluates it"
        if unsigned and bits < 64 and not (source is not None and source[1] and source[0] >= bits):
            # (a 64-bit one is exact modulo 2^64, as addresses are: only its value-sensitive uses,
            # a comparison, `/`, `%`, `>>`, owe anything: `w[(size_t)i * ld + j]`)
            return f"({inner}) >= 0", f"the cast {written} makes a negative value a huge one, and {negative}"
        if not unsigned and source is not None and source[1] and source[0] < bits:
            return f"({inner}) >= 0", f"the cast {written} widens an unsigned value, which wrapped where {negative}"
        return None


def declared_words(ex, name: str) -> str | None:
    """A name's declared type, for C's conversions (None: a #define, whose type the model does
    not track, or no variable)."""
    for lp in ex.loops:
        if lp.iterator == name:
            return lp.ctype
    sym = ex.symbol(name)
    if sym is not None and sym.kind == "var":
        return sym.ctype         # a size --define fixes keeps its type: `unsigned n` at 7 is 7u
    if name in ex.fixed and name not in ex.int_macros:
        # (`-D N=5000000000` is a long, as the literal is in C)
        return "int" if -2 ** 31 <= ex.fixed[name] <= 2 ** 31 - 1 else "long"
    return getattr(ex, "macro_types", {}).get(name, "int" if name in ex.int_macros else None)


def literal_types(object_macros: dict) -> dict[str, str]:
    """The #defines whose value is an integer literal of another type than int (`#define N
    10u`, `65536L`, `3000000000`): NAME -> its type, so that `i < N` compares and `N * N`
    computes as C does."""
    names = {(32, True): "unsigned int", (64, False): "long", (64, True): "unsigned long"}
    out = {}
    for name, body in object_macros.items():
        m = re.fullmatch(r"\(*\s*((?:0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*)\s*\)*", body.strip())
        found = _constant(c_ast.Constant("int", m.group(1))) if m else None
        if found is not None and found[2] in names:
            out[name] = names[found[2]]
    return out


def wide_macro(ex, name: str) -> bool:
    """Whether `#define name <literal>` may take values past int's in C: a 64-bit integer
    (`3000000000`, `5L`, `7UL`) or an unsigned int past INT_MAX (`0xC0000000`)."""
    t = getattr(ex, "macro_types", {}).get(name, "")
    return t.endswith("long") or t == "unsigned int" and ex.int_macros.get(name, 0) > 2 ** 31 - 1


def evaluated_where(ex) -> list[str]:
    """Where the code at the extractor's point runs: the enclosing loops' and ifs' conditions."""
    return [c for lp in ex.loops for c in lp.constraints] + list(ex.conds)


def owe(ex, obligations, wheres=None) -> None:
    """Wrap-around obligations (condition, node, what[, hint[, sized[, ranged[, sufficient]]]]) on extractor `ex`, checked
    at each of `wheres`: a list of conjunctions (constraint lists) where C evaluates the
    expression, or None for the statements' domains; by default where the code at this point
    runs.  `sized`: one over the sizes alone is taken to hold (a loop bound: the loop would
    otherwise run billions of times), not made a fact to check.  `sufficient`: a condition over
    the sizes alone that implies a `ranged` one, the fact where the exact one needs a disjunction."""
    for w in (wheres if wheres is not None else [evaluated_where(ex)]):
        ex.evaluated_obligations.extend(owed_at(ex, obligations, w))


def owe_rounding(ex, obligations, wheres=None) -> None:
    """Obligations (condition, node, what) of C's `/` and `%` rounding toward zero in a bound or
    condition, for the statements inside it (Extractor.ctx_obligations), checked where C
    evaluates it (`wheres`, as for `owe`): `j <= i / 2` at i = -1 runs j = 0 in C and no j under
    the model's floor, so the statements' domains alone never see that i."""
    for cond, onode, what in obligations:
        for w in (wheres if wheres is not None else [evaluated_where(ex)]):
            ex.ctx_obligations.append((cond, *ex.where(onode), what, None if w is None else " and ".join(w) or "1 = 1"))


def owed_at(ex, obligations, where: list[str] | None) -> list[tuple]:
    """RawStmt.evaluated_obligations entries of `obligations` (see `owe`), checked at `where`."""
    out = []
    for cond, onode, what, *more in obligations:
        hint, sized, ranged, sufficient = (list(more) + [None, False, False, None])[:4]
        out.append((cond, *ex.where(onode), what, None if where is None else " and ".join(where) or "1 = 1",
                    hint, sized, ranged, sufficient))
    return out


def counter_type(ex, it: str):
    """(bits, unsigned) of loop counter `it` as declared, None if not an integer type."""
    return ex.int_types.words_type((declared_words(ex, it) or "int").split())


def unsigned_comparison(ex, node, a: str, b: str, wheres=None, counting_down: str | None = None,
                        bound: bool = False) -> None:
    """A comparison that C makes between unsigned values (`i < n` with an unsigned n, `i - 1u <
    5`): each side's value in the model (isl texts a, b) must be one that did not wrap, wherever
    C evaluates it, not only where the comparison holds.  `counting_down`: an unsigned counter of
    a loop that counts down, whose wrap past 0 the loop's model has already (its `i >= 0`: the
    idiom `for (i = n - 1; i < n; i--)`)."""
    if node.op not in ("<", "<=", ">", ">=") or not ex.int_types.compared_unsigned(node.left, node.right):
        return
    for side, text in ((node.left, a), (node.right, b)):
        if counting_down is not None and isinstance(side, c_ast.ID) and side.name == counting_down:
            continue
        owe(ex, [(f"({text}) >= 0", side,
                  f"C compares '{c_text(node.left)}' {node.op} '{c_text(node.right)}' as unsigned values, and "
                  f"'{c_text(side)}' is negative at some point where C evaluates it, so it wraps to a huge one",
                  None, bound, bound)], wheres)


_MIRRORED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "!=": "!="}


def counter_start(ex, start, it: str, text: str, where: list[str], ctype: str | None = None) -> None:
    """A narrow counter's start (`unsigned short i; for (i = n; ...)`): C converts it into the
    counter's type, so at n = -5 the loop starts at 65531 and at 70000 at 4464, where the model
    starts at n.  Owed where C evaluates it (`where`): over sizes alone, a fact the output checks.
    `ctype`: the counter's type where the loop declares it (`for (long i = N*N - 3; ...)`),
    which no symbol of the code around it gives yet."""
    words = ctype or declared_words(ex, it)
    t = ex.int_types.words_type((words or "int").split())
    if t is None or t[0] > 32 or t[0] == 32 and not _wider_names(ex, start, t):
        return
    lo, hi = type_limits(t)
    what = (f"the counter '{it}' is {words or 'int'} ({lo}..{hi}), and C converts its start "
            f"'{c_text(start)}' into that type where it is outside: the loop would not run as the model's does")
    hint = f"declare '{it}' of a type that holds every value it takes (int or long)"
    # (not `(n) >= 0`, which poly/wrap_checks takes as given of a size compared as unsigned)
    # (`ranged`: over an outer counter, the sizes that keep every start in range are a fact too)
    owe(ex, [(f"({text}) - ({lo}) >= 0", start, what, hint, False, True),
             (f"{hi} - ({text}) >= 0", start, what, hint, False, True)], [where])


def _wider_names(ex, node, t) -> bool:
    """Whether a name in `node` has a type whose values an int-wide counter of type `t` may not
    hold (`unsigned i = m` of a size_t m: C keeps m mod 2^32; `int i = m` of an unsigned m)."""
    for n in c_nodes(node):
        if isinstance(n, c_ast.ID):
            u = ex.int_types.type_of(n)
            if u is not None and (u[0] > t[0] or u[0] == t[0] and u[1] != t[1]):
                return True
    return False


def counter_range(ex, test, it: str, step: int, a: str, b: str, first_test) -> None:
    """A counter of an unsigned or narrow type (`unsigned char i`, a `size_t i` counting down)
    must leave its loop by the test, not by wrapping past its type's end: C's `for (size_t i =
    n - 1; i >= 0; i--)` never ends, and `unsigned char i; i != 4` from 250 runs 10 times where
    the model runs none.  The bound (isl text) must lie where the last value plus the step is
    still in the type: checked where C first tests it (`first_test`)."""
    if first_test is None:
        return
    t = counter_type(ex, it)
    if isinstance(test.left, c_ast.ID) and test.left.name == it:
        op, bound = test.op, b
    elif isinstance(test.right, c_ast.ID) and test.right.name == it:
        op, bound = _MIRRORED[test.op], a
    else:
        return
    # (a wide unsigned counter that steps past its `!=` bound wraps too, after 2^32 or 2^64, and
    # a 32-bit one counting up: `unsigned i; i < n` of a size_t n > 2^32 never ends, nor `i <= n`
    # at n = UINT_MAX; a bound its type keeps inside, `i < n` of an unsigned n, owes nothing)
    if t is None or t[0] >= 32 and (not t[1] or step > 0) and not (t[1] and op == "!=" and abs(step) > 1) \
            and not (t == (32, True) and step > 0):
        return
    lo, hi = type_limits(t)
    s = abs(step)
    if not t[1] and step < 0 and op in (">", ">=") and ex.int_types.compared_unsigned(test.left, test.right):
        # a narrow signed counter tested against an unsigned bound: C compares it as unsigned,
        # so a value below 0 passes the test again (`short i; i > m` by 3 from 10 at m = 0 runs
        # on through -2), and the narrow store wraps it (probe 190 G3)
        past = f"{it} - {s}*ceil(({it} - ({bound}))/{s})" if op == ">" else \
            f"{it} - {s}*(floor(({it} - ({bound}))/{s}) + 1)"
        owe(ex, [(f"not ({it} {op} ({bound})) or {past} >= 0", test,
                  f"C compares '{c_text(test.left)}' {test.op} '{c_text(test.right)}' as unsigned values, and the "
                  f"counter '{it}' ({declared_words(ex, it)}) steps below 0 before the test ends the loop, where "
                  "the unsigned comparison holds again: the loop would not run as the model's does",
                  f"declare '{it}' unsigned, or compare it with a signed bound ((int){c_text(test.right)})",
                  False, True)], [first_test])
    # (a `!=` test's start on the right side of the bound: over sizes where C first tests it,
    # `for (i = n; i != 0; i--)` at n >= 0, `ranged` as for counter_start)
    need = {(1, "<"): [f"({bound}) <= {hi + 1 - s}"], (1, "<="): [f"({bound}) <= {hi - s}"],
            (1, "!="): [f"({bound}) - {it} >= 0", f"({bound}) <= {hi}"],
            (-1, ">"): [f"({bound}) >= {lo + s - 1}"], (-1, ">="): [f"({bound}) >= {lo + s}"],
            (-1, "!="): [f"{it} - ({bound}) >= 0", f"({bound}) >= {lo}"]}.get((1 if step > 0 else -1, op))
    if need is None:
        return
    if s > 1 and op == "!=":
        # the counter meets the bound only where the step divides the distance: `i != 251` by 3
        # from 1 passes it and wraps (probe 190 G2)
        need = need + [f"(({bound}) - {it}) mod {s} = 0" if step > 0 else f"({it} - ({bound})) mod {s} = 0"]
    simple = None
    if s > 1 and op in ("<", "<=", ">", ">="):
        # (the exact condition is over the start's lattice too, `i = m` by 5 to 2*n + 1: where
        # that needs a disjunction, the bound a step inside the type is the fact)
        simple = need[0]
        # the values a step of s takes lie on a lattice from the start: `i < 255` by 3 from 0
        # last runs 252 and ends at 255, which unsigned char holds (`i < 255` by 2 wraps)
        past = {"<": f"{it} + {s}*ceil((({bound}) - {it})/{s})", "<=": f"{it} + {s}*(floor((({bound}) - {it})/{s}) + 1)",
                ">": f"{it} - {s}*ceil(({it} - ({bound}))/{s})", ">=": f"{it} - {s}*(floor(({it} - ({bound}))/{s}) + 1)"}[op]
        need = [f"not ({it} {op} ({bound})) or {past} {'<=' if step > 0 else '>='} {hi if step > 0 else lo}"]
    words = declared_words(ex, it)
    edge = hi if step > 0 else lo
    what = f"the counter '{it}' is {words} ({lo}..{hi}), and the test '{c_text(test)}' lets it pass {edge}, where " \
        "C wraps it around: the loop would not run as the model's does"
    fix = f"declare '{it}' of a type that holds every value it takes and the one that ends the loop (int or long)"
    other = ex.int_types.type_of(test.right if isinstance(test.left, c_ast.ID) and test.left.name == it else test.left)
    if op == "!=" and step == -1 and t[1] and bound.replace("(", "").replace(")", "").strip() in ("-1", str(hi)) \
            and other is not None and _common(t, other)[0] == t[0] and (not other[1] or other[0] == t[0]):
        # (-1 of an int converts to the counter's all-ones; -1u to a 64-bit counter's 2^32 - 1)
        # the wrap test (countdown.py): it stops where the counter wraps past 0, but looptx reads
        # it as `i < n` only from `n - 1` of an n that C converts to the counter's type alike
        what = f"the test '{c_text(test)}' stops the counter '{it}' ({words}) where it wraps past 0; looptx " \
            f"reads it as '{it} < n' only from a start 'n - 1' of an n with no more bits than '{it}' whose " \
            "'n - 1' is signed or of the counter's width"
        fix = f"start at 'n - 1' of such an n (declare n as '{words}'), or write `for ({it} = n; {it}-- > 0; )`"
    owe(ex, [(cond, test, what, fix, False, op == "!=" or s > 1 or t == (32, True), simple) for cond in need], [first_test])
