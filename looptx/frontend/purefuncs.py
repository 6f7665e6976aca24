"""The file's own pure helpers (`static inline double sq(double v) { return v * v; }`), which a
region may call like `sqrt`.

A helper is pure when its parameters are numbers passed by value and its body only declares
locals from them and returns an expression of its parameters, locals, constants, pure math calls
and other pure helpers, possibly after `if (cond) return expr;` branches of the same kind: a call then reads nothing but its arguments and writes nothing, so the
model's accesses stay exact.  The generated code calls it by name; a harness or a CUDA file that
compiles the region alone gets its definition (static, and __host__ __device__ for CUDA).
"""
from __future__ import annotations

import copy

from pycparser import c_ast, c_generator

from looptx import ir
from looptx.frontend.symbols import ARITH_WORDS, all_nodes, c_text

# math.h's functions of values only (not frexp, modf, remquo, which write through a pointer, nor
# lgamma, which sets signgam), each with its float and long double variants
_MATH_DOUBLE = """
acos asin atan atan2 cos sin tan acosh asinh atanh cosh sinh tanh exp exp2 expm1 ilogb ldexp log
log10 log1p log2 logb scalbn scalbln cbrt fabs hypot pow sqrt erf erfc tgamma ceil floor nearbyint
rint lrint llrint round lround llround trunc fmod remainder copysign nextafter fdim fmax fmin fma
""".split()
# complex.h's, for C99 `double complex` kernels (zdotc's conj)
_COMPLEX = """
creal cimag cabs carg conj cproj cexp clog csqrt cpow csin ccos ctan csinh ccosh ctanh casin cacos
catan casinh cacosh catanh
""".split()
_PURE_NAMES = [f + suffix for f in _MATH_DOUBLE + _COMPLEX for suffix in ("", "f", "l")] + """
abs labs llabs isnan isinf isfinite isnormal signbit rsqrt rsqrtf min max
""".split()
# gcc's own spellings (`__builtin_sqrt`, in helpers too), and its builtins with no plain name:
# `likely(x)` macros' __builtin_expect, the constants inf/nan/huge_val, powi (gcc and nvcc both)
PURE_MATH = frozenset(_PURE_NAMES + ["__builtin_" + f for f in _PURE_NAMES + """
complex expect inf inff infl nan nanf nanl huge_val huge_valf huge_vall powi powif powil
""".split()])

_NUMBER = ARITH_WORDS | {"const"}


def _number_type(t) -> bool:
    return isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType) \
        and set(t.type.names) <= _NUMBER and bool(set(t.type.names) - {"const"})


def _params(fdef: c_ast.FuncDef) -> list[str] | None:
    ftype = fdef.decl.type
    if not isinstance(ftype, c_ast.FuncDecl) or not _number_type(ftype.type):
        return None
    params = ftype.args.params if ftype.args else []
    if len(params) == 1 and isinstance(params[0], c_ast.Typename) and c_generator.CGenerator().visit(params[0]) == "void":
        return []
    names = []
    for p in params:
        if not isinstance(p, c_ast.Decl) or not p.name or not _number_type(p.type):
            return None
        names.append(p.name)
    return names


def _pure_expr(e, names: set[str], calls: set[str], math: frozenset, known: set[str]) -> bool:
    if isinstance(e, c_ast.ID):
        return e.name in names
    if isinstance(e, c_ast.Constant):
        # `1U`, `1L`, `2.0f` (pycparser's "unsigned int", "long int"): numbers; a string is not
        return bool(e.type.split()) and set(e.type.split()) <= {"int", "unsigned", "signed", "long", "short",
                                                                 "double", "float", "char"}
    if isinstance(e, c_ast.BinaryOp):
        return _pure_expr(e.left, names, calls, math, known) and _pure_expr(e.right, names, calls, math, known)
    if isinstance(e, c_ast.UnaryOp):
        return e.op in ("-", "+", "!", "~") and _pure_expr(e.expr, names, calls, math, known)
    if isinstance(e, c_ast.TernaryOp):
        return all(_pure_expr(x, names, calls, math, known) for x in (e.cond, e.iftrue, e.iffalse))
    if isinstance(e, c_ast.Cast):
        return _number_type(e.to_type.type) and _pure_expr(e.expr, names, calls, math, known)
    if isinstance(e, c_ast.FuncCall) and isinstance(e.name, c_ast.ID):
        if e.name.name not in math and e.name.name not in known:
            return False
        calls.add(e.name.name)
        args = e.args.exprs if e.args else []
        return all(_pure_expr(a, names, calls, math, known) for a in args)
    return False


def _body_calls(fdef: c_ast.FuncDef, math: frozenset, known: set[str], enums=frozenset()) -> set[str] | None:
    """The helpers a pure body calls, or None when the body is not pure (given `known` pure)."""
    calls: set[str] = set()
    ok = _pure_block(list(fdef.body.block_items or []), set(_params(fdef) or []) | set(enums), calls, math, known)
    return calls if ok else None


def _pure_block(items, names: set[str], calls: set[str], math: frozenset, known: set[str],
                must_return: bool = True) -> bool:
    """Locals declared (with pure values or none) and assigned pure expressions, `if` branches of
    the same kind (Rodinia nw's `maximum`: `if (a <= b) k = b; else k = a;`) and `return`s of
    pure expressions, with `if (c) return a;` branches on the way (Pluto's Game of Life rule
    `b2s23`): every path that returns, returns a value only the arguments decide.  Unless
    `must_return` is false (an inner branch), the block's last statement returns on every path."""
    names = set(names)
    if not items:
        return not must_return
    for k, d in enumerate(items):
        last = k == len(items) - 1
        if isinstance(d, c_ast.Return):
            return last and d.expr is not None and _pure_expr(d.expr, names, calls, math, known)
        if isinstance(d, c_ast.If):
            ends = last and must_return
            if not _pure_expr(d.cond, names, calls, math, known) or (ends and d.iffalse is None):
                return False
            for branch in (d.iftrue, d.iffalse):
                inner = [] if branch is None else \
                    list(branch.block_items or []) if isinstance(branch, c_ast.Compound) else [branch]
                if branch is not None and not _pure_block(inner, names, calls, math, known, ends):
                    return False
            continue
        if last and must_return:
            return False
        if isinstance(d, c_ast.Decl) and _number_type(d.type) and not d.storage \
                and (d.init is None or _pure_expr(d.init, names, calls, math, known)):
            names.add(d.name)
        elif not (isinstance(d, c_ast.Assignment) and isinstance(d.lvalue, c_ast.ID) and d.lvalue.name in names
                  and _pure_expr(d.rvalue, names, calls, math, known)):
            return False
    return True


def typedefs_resolved(funcs: list[c_ast.FuncDef], typedefs: dict[str, list[str]]) -> None:
    """Rewrites, in place, the typedef names of number types in the file's loop-free functions
    (LULESH's `static inline Real_t CalcElemVolume(const Real_t x0, ...)`, Halide's `i16 avg(i16 a,
    i16 b)`) to the words they stand for: such a helper is pure as its `double` spelling is, and
    a harness or a .cu that compiles it without the file's typedefs reads the same types."""
    def words(name: str) -> list[str] | None:
        seen = set()
        out = [name]
        while len(out) == 1 and out[0] in typedefs and out[0] not in seen:
            seen.add(out[0])
            out = [w for w in typedefs[out[0]] if w != "const"]
        return out if out != [name] and set(out) <= ARITH_WORDS else None

    for f in funcs:
        nodes = list(_all(f))
        if any(isinstance(n, (c_ast.For, c_ast.While, c_ast.DoWhile)) for n in nodes):
            continue
        for n in nodes:
            if isinstance(n, c_ast.IdentifierType):
                named = [w for w in n.names if w not in _QUALIFIERS]
                if len(named) == 1 and words(named[0]) is not None:
                    n.names = [w for w in n.names if w in _QUALIFIERS] + words(named[0])


_QUALIFIERS = {"const", "volatile", "static", "inline", "register"}


def _all(node):
    yield node
    for _, c in node.children():
        yield from _all(c)


def pure_functions(funcs: list[c_ast.FuncDef], math: frozenset, enums=frozenset()) -> dict[str, tuple[str, ...]]:
    """name -> the pure helpers it calls (itself not included), of the file's pure helpers
    (`enums`: the file's enum constants, which a helper may name)."""
    candidates = {f.decl.name: f for f in funcs if _params(f) is not None}
    pure: dict[str, set[str]] = {}
    changed = True
    while changed:              # helpers calling helpers: grow the pure set to its fixed point
        changed = False
        for name, f in candidates.items():
            if name in pure:
                continue
            calls = _body_calls(f, math, pure, enums)
            if calls is not None and name not in calls:
                pure[name] = calls - math
                changed = True
    return {n: tuple(sorted(c)) for n, c in pure.items()}


def helper_definitions(funcs: list[c_ast.FuncDef], pure: dict[str, tuple[str, ...]],
                       called: set[str], enums: dict | None = None) -> tuple[str, ...]:
    """C definitions of the pure helpers the region calls and those they call, callees first,
    with the enum constants they name at their values (the files they go to lack the enum)."""
    by_name = {f.decl.name: f for f in funcs}
    order: list[str] = []

    def visit(n):
        if n in order or n not in pure:
            return
        for c in pure[n]:
            visit(c)
        order.append(n)
    for n in sorted(called):
        visit(n)
    gen = c_generator.CGenerator()
    out = []
    for n in order:
        f = copy.deepcopy(by_name[n])
        f.decl.storage, f.decl.funcspec = [], []     # the harness and CUDA files say their own
        text = gen.visit(_with_values(f, enums or {})).strip()
        out.append(text)
    return tuple(out)


def _with_values(node, values: dict):
    for name, child in node.children():
        if isinstance(child, c_ast.ID) and child.name in values:
            new = c_ast.Constant("int", str(values[child.name]), child.coord)
            attr, _, index = name.partition("[")
            if index:
                getattr(node, attr)[int(index.rstrip("]"))] = new
            else:
                setattr(node, attr, new)
        else:
            _with_values(child, values)
    return node


_SIGNED = {"int", "long", "short", "signed", "const"}


def _signed_int(t) -> bool:
    return isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType) \
        and set(t.type.names) <= _SIGNED and bool(set(t.type.names) - {"const"})


def index_helpers(funcs: list[c_ast.FuncDef], pure: dict) -> dict[str, tuple[list[str], c_ast.Node]]:
    """Pure helpers over signed integers (`static inline int idx(int i, int j) { return i*N + j; }`)
    as (parameters, returned expression with the locals substituted): a call in a subscript or
    a loop bound is that expression of its arguments, which the model can read exactly."""
    out = {}
    for f in funcs:
        name = f.decl.name
        if name not in pure or not _signed_int(f.decl.type.type):
            continue
        params = f.decl.type.args.params if f.decl.type.args else []
        if any(not (isinstance(p, c_ast.Decl) and _signed_int(p.type)) for p in params):
            continue
        items = list(f.body.block_items or [])
        values: dict = {}
        ok = True
        for d in items[:-1]:
            # a helper that branches is called, not read as one expression
            if not isinstance(d, c_ast.Decl) or not _signed_int(d.type) or d.init is None:
                ok = False
                break
            values[d.name] = _converted(d.type, substituted(d.init, values, None))
        if ok and isinstance(items[-1], c_ast.Return):
            # each value converted as the call converts it (`short f(int x)` cuts its result,
            # `int f(short x)` its argument): the model reads those casts' ranges
            body = substituted(items[-1].expr, values, None)
            out[name] = ([(p.name, p.type) for p in params], _converted(f.decl.type.type, body))
    return out


def _converted(decl_type: c_ast.TypeDecl, e):
    """`(T)(e)` for the type a declaration gives (its name dropped)."""
    t = copy.deepcopy(decl_type)
    t.declname = None
    return c_ast.Cast(c_ast.Typename(None, [], None, t), e, getattr(e, "coord", None))


def _map_children(node, fn, always: bool = False):
    """node with fn applied to each child; a copy only where a child changed (or `always`)."""
    new = copy.copy(node) if always else None
    for slot in node.__slots__:
        if slot in ("coord", "__weakref__"):
            continue
        value = getattr(node, slot, None)
        if isinstance(value, c_ast.Node):
            changed = fn(value)
        elif isinstance(value, list) and any(isinstance(v, c_ast.Node) for v in value):
            changed = [fn(v) if isinstance(v, c_ast.Node) else v for v in value]
            if all(a is b for a, b in zip(changed, value)):
                changed = value
        else:
            continue
        if changed is not value:
            new = new or copy.copy(node)
            setattr(new, slot, changed)
    return new or node


def substituted(expr, values: dict, coord=None):
    """A copy of expr with the names in `values` replaced by (copies of) their expressions,
    every node at `coord` when one is given (errors then point at the call)."""
    if isinstance(expr, c_ast.ID) and expr.name in values:
        out = copy.deepcopy(values[expr.name])
    else:
        out = _map_children(expr, lambda c: substituted(c, values, coord), always=True)
    if coord is not None:
        out.coord = coord
    return out


def table_helpers(funcs: list[c_ast.FuncDef], tables: set[str]) -> dict[str, tuple[list[str], c_ast.Node]]:
    """Helpers that return an element of one of the file's arrays at their parameters
    (tiny-AES's `static uint8_t getSBoxValue(uint8_t num) { return sbox[num]; }`), as index
    helpers are: a call is that element, read wherever the call stands."""
    out = {}
    for f in funcs:
        params = f.decl.type.args.params if f.decl.type.args else []
        names = [p.name for p in params if isinstance(p, c_ast.Decl)]
        items = list(f.body.block_items or [])
        if len(names) != len(params) or len(items) != 1 or not isinstance(items[0], c_ast.Return):
            continue
        ref, base = items[0].expr, items[0].expr
        while isinstance(base, c_ast.ArrayRef):
            if not all(isinstance(n, (c_ast.ID, c_ast.Constant, c_ast.BinaryOp)) and
                       (not isinstance(n, c_ast.ID) or n.name in names) for n in all_nodes(base.subscript)):
                break
            base = base.name
        if isinstance(ref, c_ast.ArrayRef) and isinstance(base, c_ast.ID) and base.name in tables \
                and base.name not in names:
            out[f.decl.name] = (names, ref)
    return out


def inline_table_helpers(items, helpers: dict):
    """The region's items with each call of a table helper replaced by the element it returns."""
    if not helpers:
        return tuple(items)

    def expand(node):
        if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) and node.name.name in helpers:
            params, body = helpers[node.name.name]
            args = [expand(a) for a in (node.args.exprs if node.args else [])]
            if len(args) == len(params):
                return substituted(body, dict(zip(params, args)), node.coord)
        return _map_children(node, expand)
    return tuple(expand(it) for it in items)


def inline_index_helpers(items, helpers: dict):
    """The region's items with each call of an index helper inside a subscript, a loop header
    or an `if` condition replaced by its expression (parenthesized by the tree); calls
    elsewhere stay calls.  New nodes carry the call's position, for errors."""
    if not helpers:
        return tuple(items)

    def expand(node, limit=32):
        if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) and node.name.name in helpers \
                and limit > 0:
            params, body = helpers[node.name.name]
            args = node.args.exprs if node.args else []
            if len(args) == len(params):
                args = [_converted(t, expand(a, limit)) for (_, t), a in zip(params, args)]
                return expand(substituted(body, {p: a for (p, _), a in zip(params, args)}, node.coord), limit - 1)
        return _map_children(node, lambda c: expand(c, limit))

    def visit(node):
        if isinstance(node, c_ast.ArrayRef):
            return _map_children(node, lambda c: expand(c) if c is node.subscript else visit(c))
        if isinstance(node, (c_ast.For, c_ast.If)):
            header = {id(c) for c in (getattr(node, "init", None), node.cond, getattr(node, "next", None)) if c}
            return _map_children(node, lambda c: expand(c) if id(c) in header else visit(c))
        return _map_children(node, visit)
    return tuple(visit(it) for it in items)


def self_contained(fdef: c_ast.FuncDef) -> bool:
    """Number parameters, and a body that names nothing but them, its own locals and calls:
    pure whatever its statements (Rodinia nw's `maximum` sets its local in branches), though
    not in the form looptx reads."""
    params = _params(fdef)
    if params is None or fdef.body is None:
        return False
    names, used = set(params), set()

    def visit(n):
        if isinstance(n, c_ast.Decl) and n.name:
            names.add(n.name)
        if isinstance(n, c_ast.FuncCall):
            for a in (n.args.exprs if n.args else []):
                visit(a)
            return
        if isinstance(n, c_ast.ID):
            used.add(n.name)
        for _, c in n.children():
            visit(c)
    visit(fdef.body)
    return used <= names


def trap_free(funcs: list[c_ast.FuncDef], pure: dict[str, tuple[str, ...]]) -> frozenset[str]:
    """The pure helpers a call of which cannot trap wherever it is made (frontend/branch_locals.py
    computes a branch's temporaries where the branch would not run): no integer `/` or `%` in
    them or the helpers they call, but by a constant (CMSIS-NN's __USAT clamps with compares)."""
    def divides(f) -> bool:
        for n in all_nodes(f.body):
            if isinstance(n, c_ast.BinaryOp) and n.op in ("/", "%"):
                d = n.right
                if not (isinstance(d, c_ast.Constant) and d.type == "int"
                        and d.value.rstrip("uUlL") not in ("0", "-1", "0x0")):
                    return True
        return False
    by_name = {f.decl.name: f for f in funcs if f.decl.name in pure}
    unsafe = {n for n, f in by_name.items() if divides(f)}
    changed = True
    while changed:
        changed = False
        for n in by_name:
            if n not in unsafe and any(c in unsafe or c not in by_name for c in pure[n]):
                unsafe.add(n)
                changed = True
    return frozenset(by_name) - unsafe


def pure_call(ex, node: c_ast.FuncCall) -> ir.Expr:
    """The IR of a call in a region's statement: a pure math function or one of the file's pure
    helpers; anything else may have side effects, which no transformation may reorder."""
    fname = node.name.name if isinstance(node.name, c_ast.ID) else c_text(node.name)
    if fname == "__lx_asm":             # (frontend/preprocess.py's reading of inline assembly)
        raise ex.error(node, "inline assembly in the region (through a macro): looptx cannot model what it does",
                       "move it out of the region, or end the region before it")
    builtin = fname.removeprefix("__builtin_")
    args = node.args.exprs if node.args else []
    if builtin in ("nan", "nanf", "nanl") and len(args) == 1 and isinstance(args[0], c_ast.Constant) \
            and args[0].type == "string":
        # its string is no number: the value is a quiet NaN, as math.h's NAN (0.0/0.0 here)
        zero = "0.0" + builtin[3:].upper()
        return ir.Num(f"({zero} / {zero})", c_text(node))
    if builtin != fname and builtin in PURE_MATH:
        # gcc's name of the same function: printed as written, read (and in CUDA written) as it
        args = node.args.exprs if node.args else []
        return ir.Call(builtin, tuple(ex.expr(a) for a in args), ex.spellings.call_of(node) or fname)
    if fname not in PURE_MATH and fname not in ex.pure:
        if fname in ex.defined:
            # a helper that reads only its arguments but loops, or may end without a
            # return, is not in a form looptx reads
            raise ex.error(node, f"call to '{fname}', a function of the file that looptx "
                           "cannot read as pure", "a helper may take number parameters, "
                           "declare and assign locals, branch with if/else, and return "
                           "an expression on every path; rewrite it so, or "
                           "inline its value as a ?: expression")
        raise ex.error(node, f"call to '{fname}' may have side effects",
                       "only pure math functions (sqrt, exp, fabs, ...) and the file's helpers "
                       "that return an expression of their number parameters may be called in a region")
    args = node.args.exprs if node.args else []
    return ir.Call(fname, tuple(ex.expr(a) for a in args), ex.spellings.call_of(node))
