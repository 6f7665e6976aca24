"""Which loops of the user's file count with the function's own variable of their name.

The C output counts with the function's loop variables (CHiLL does; new declarations would
leave the user's unused, and gcc -Wall warns).  Where the variable's type is not the one the
generated loops count in (Numerical Recipes' `unsigned long j`, an `int16_t i`), a loop may
count with it only if the type holds every value the loop's counter takes, the value that ends
the loop included: `for (j = n - 1; j > 2; j -= 3)` sets j to -1 at n = 0, which an unsigned j
turns into ULONG_MAX, so that loop would run on.  The values come from the loops' bounds over
the ranges of the sizes (their C types, or the values the file fixes).

An unsigned counter of int's width or more is also compared and computed with as unsigned:
such a loop must compare it only with bounds that are never negative, and no header or
condition inside the loop may compute with it (`k <= j - 1` wraps at j = 0).  A narrower one
is promoted to int wherever it is read, so its values are all that matter."""
from __future__ import annotations

from looptx import ir
from looptx.codegen import ast as K
from looptx.frontend.int_ranges import int_type
from looptx.frontend.names import to_user

Span = tuple[int, int]
_MIRROR = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "=="}


def own_loops(node: K.Node, scop, types: dict[str, str], same, long=frozenset()) -> frozenset[int]:
    """ids of the For nodes under `node` that count with the function's variable: those whose
    counter's name is one of `types` (the user's name -> its arithmetic type) whose type
    `same(type)` says the generated loops count in, unless the loop counts in long (`long`,
    past_int), or whose type holds the loop's values."""
    out: set[int] = set()

    def visit(n: K.For, span: Span | None, spans: dict) -> None:
        t = types.get(to_user(n.var))
        if t is not None and (same(t) and id(n) not in long or span is not None and _holds(n, t, span, spans)):
            out.add(id(n))
    _walk(node, size_spans(scop), visit)
    return frozenset(out)


def past_int(node: K.Node, scop) -> frozenset[int]:
    """ids of the For nodes under `node` whose counter takes values past int's (a start that a
    `size_t n` gives, `lx_max(0, (long)n)`): they count in long."""
    out: set[int] = set()
    sizes = size_spans(scop)
    # (only where a 64-bit size's values reach the loop: over int sizes, the spans' corners say
    # more than the loops reach, `N - (N - i) % 4`, and a C int counter compared with an
    # unsigned int size overflows past INT_MAX, undefined)
    wide = {p for p in scop.wide_params if sizes.get(p) is not None and not _in_int(sizes[p])}
    # a user's `unsigned i` below an unsigned n counts past INT_MAX in C, defined (probe 190 G1's kin)
    unsigned = {n for s in scop.statements for n, t, _ in s.iter_types
                if (it := int_type(t.split())) is not None and it[2] > 2 ** 31 - 1}
    # a value past int that the region fixes (`#define N 3200000000`, `-D N=...`, a literal)
    # reaches loops whose headers no longer read it: tiled by 32, `i <= 32 * ii + 31`
    big = any(s is not None and s[0] == s[1] and not _in_int(s) for s in sizes.values()) or any(
        _past_int(x) for f in K.nodes(node, K.For) for e in (f.init, f.cond) for x in ir.walk(e))

    def visit(n: K.For, span: Span | None, spans: dict) -> None:
        if span is not None and not _in_int(span) and (big or to_user(n.var) in unsigned or any(
                isinstance(x, ir.Var) and x.name in wide for e in (n.init, n.cond) for x in ir.walk(e))):
            out.add(id(n))
    _walk(node, sizes, visit)
    _outer_readers(node, [], out)
    return frozenset(out)


def _outer_readers(n: K.Node, outer: list[K.For], long: set[int]) -> None:
    """The loops whose counters a long loop's header reads count in long too: `64 * ii + 63`
    of an int ii overflows where the long loop's values pass INT_MAX."""
    if isinstance(n, K.For):
        if id(n) in long:
            read = {x.name for e in (n.init, n.cond) for x in ir.walk(e) if isinstance(x, ir.Var)}
            long.update(id(o) for o in outer if o.var in read)
        _outer_readers(n.body, outer + [n], long)
        return
    for c in K.children(n):
        _outer_readers(c, outer, long)


def _past_int(x: ir.Expr) -> bool:
    """A literal past int's values (the region's own `i < 3000000000L`)."""
    digits = x.text.lstrip("-") if isinstance(x, ir.Num) else ""
    return digits.isdigit() and int(digits) > 2 ** 31 - 1


def _in_int(span: Span) -> bool:
    return -2 ** 31 <= span[0] <= span[1] <= 2 ** 31 - 1


def _walk(n: K.Node, spans: dict[str, Span | None], visit) -> None:
    """visit(loop, the values its counter takes, the spans around it) for each loop under `n`."""
    if isinstance(n, K.For):
        span, body = values(n, spans)
        visit(n, span, spans)
        _walk(n.body, {**spans, n.var: body}, visit)
        return
    for c in K.children(n):
        _walk(c, spans, visit)


def size_spans(scop) -> dict[str, Span | None]:
    """The values each size of the region may have: a fixed one its value, otherwise its C
    type's (an unsigned one as the signed copy the bounds read, `(long)n`: up to 2^32 - 1 for a
    32-bit one)."""
    out: dict[str, Span | None] = {}
    for p in scop.params:
        bits = 64 if p in scop.wide_params else 32
        out[p] = (0, 2 ** bits - 1 if bits == 32 else 2 ** 63 - 1) if p in scop.unsigned_params else \
            (-2 ** (bits - 1), 2 ** (bits - 1) - 1)
    # (narrow_params gives an unsigned int or size_t as far as an int size goes: not the values
    # C's own counters meet)
    out.update({p: (lo, hi) for p, lo, hi in scop.narrow_params if hi < 2 ** 31 - 1})
    for p, v in tuple(scop.fixed) + tuple(scop.macro_values) + tuple(scop.local_values):
        if isinstance(v, int):
            out[p] = (v, v)
    return out


def _bounds(n: K.For):
    """(op, bound) of each conjunct of the loop's condition that compares its counter alone
    (`v < B`, as `v OP B`), and whether another conjunct reads the counter."""
    parts, stack, other = [], [n.cond], False
    while stack:
        c = stack.pop()
        if isinstance(c, ir.Bin) and c.op == "&&":
            stack += [c.a, c.b]
            continue
        v = ir.Var(n.var)
        if isinstance(c, ir.Bin) and c.op in _MIRROR and c.a == v and not _reads(c.b, n.var):
            parts.append((c.op, c.b))
        elif isinstance(c, ir.Bin) and c.op in _MIRROR and c.b == v and not _reads(c.a, n.var):
            parts.append((_MIRROR[c.op], c.a))
        elif _reads(c, n.var):
            other = True
    return parts, other


def values(n: K.For, spans: dict) -> tuple[Span | None, Span | None]:
    """Every value the loop's counter takes, the one that ends the loop included, and those
    its body sees (None where the bounds do not tell)."""
    first = span_of(n.init, spans)
    if first is None or n.step == 0:
        return None, None
    lasts = []          # the furthest value each bound lets the body see
    for op, b in _bounds(n)[0]:
        s = span_of(b, spans)
        if s is None:
            continue
        if n.step > 0 and op in ("<", "<=", "=="):
            lasts.append(s[1] - (op == "<"))
        elif n.step < 0 and op in (">", ">=", "=="):
            lasts.append(s[0] + (op == ">"))
    if not lasts:
        return None, None
    if n.step > 0:
        last = min(lasts)
        body = (first[0], last) if first[0] <= last else None
        return (first[0], max(first[1], last + n.step)), body
    last = max(lasts)
    body = (last, first[1]) if last <= first[1] else None
    return (min(first[0], last + n.step), first[1]), body


def _holds(n: K.For, ctype: str, span: Span, spans: dict) -> bool:
    it = int_type(ctype.split())
    if it is None or not it[1] <= span[0] <= span[1] <= it[2]:
        return False
    bits, unsigned = it[0]
    if not unsigned or bits < 32:
        return True
    parts, other = _bounds(n)
    if other or any((s := span_of(b, spans)) is None or s[0] < 0 for _, b in parts):
        return False
    return not any(_reads(e, n.var) for m in _inner(n.body) for e in m)


def _inner(n: K.Node):
    """The expressions of the headers, conditions and copies under `n`."""
    if isinstance(n, K.For):
        yield (n.init, n.cond)
    elif isinstance(n, K.If):
        yield (n.cond,)
    elif isinstance(n, K.Assign):
        yield (n.lhs, n.rhs)
    for c in K.children(n):
        yield from _inner(c)


def _reads(e: ir.Expr, name: str) -> bool:
    return any(isinstance(x, ir.Var) and x.name == name for x in ir.walk(e))


def _num(text: str) -> int | None:
    try:
        return int(text.rstrip("uUlL"), 0)
    except ValueError:
        return None


def _corners(f, a: Span, b: Span) -> Span:
    c = [f(x, y) for x in a for y in b]
    return min(c), max(c)


def _tdiv(x: int, y: int) -> int:
    q = abs(x) // abs(y)
    return q if (x >= 0) == (y > 0) else -q


def span_of(e: ir.Expr, spans: dict) -> Span | None:
    """The lowest and highest value of a bound (as the printer's lx_ helpers and C compute it)."""
    if isinstance(e, ir.Num):
        v = _num(e.text)
        return None if v is None else (v, v)
    if isinstance(e, ir.Var):
        return spans.get(e.name)
    if isinstance(e, ir.Cast):
        return span_of(e.a, spans)
    if isinstance(e, ir.Un) and e.op in ("-", "+"):
        s = span_of(e.a, spans)
        return None if s is None else (-s[1], -s[0]) if e.op == "-" else s
    if isinstance(e, ir.Cond):
        a, b = span_of(e.a, spans), span_of(e.b, spans)
        return None if a is None or b is None else (min(a[0], b[0]), max(a[1], b[1]))
    if isinstance(e, ir.Call) and len(e.args) == 2 and e.fn in ("lx_min", "lx_max", "lx_floord"):
        a, b = span_of(e.args[0], spans), span_of(e.args[1], spans)
        if a is None or b is None:
            return None
        if e.fn == "lx_min":
            return min(a[0], b[0]), min(a[1], b[1])
        if e.fn == "lx_max":
            return max(a[0], b[0]), max(a[1], b[1])
        return None if b[0] <= 0 <= b[1] else _corners(lambda x, y: x // y, a, b)
    if isinstance(e, ir.Bin) and e.op in ("+", "-", "*", "/", "%"):
        a, b = span_of(e.a, spans), span_of(e.b, spans)
        if a is None or b is None:
            return None
        m = e.b
        if e.op == "-" and isinstance(m, ir.Bin) and m.op == "%" and m.a == e.a \
                and (c := span_of(m.b, spans)) is not None and c[0] == c[1] > 0:
            # an unroll's remainder start, `n - n % 4`: n rounded toward 0, which stays in n's range
            return _tdiv(a[0], c[0]) * c[0], _tdiv(a[1], c[0]) * c[0]
        if e.op in ("+", "-", "*"):
            return _corners({"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y}[e.op], a, b)
        if b[0] <= 0 <= b[1]:
            return None
        if e.op == "/":
            return _corners(_tdiv, a, b)
        m = max(abs(b[0]), abs(b[1])) - 1      # C's % has the sign of the dividend
        return (0 if a[0] >= 0 else max(a[0], -m)), (0 if a[1] <= 0 else min(a[1], m))
    return None
