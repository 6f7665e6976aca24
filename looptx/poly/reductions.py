"""OpenMP reductions on a parallel loop (`omp_for {reduction: {+: [vol, mass], min: [dt]}}`,
Orio's `openmp=(1, 'omp parallel for reduction(+:s)')`).

A reduction variable is a scalar (or an array, OpenMP 4.5's `reduction(+:mean[0:M])`, each of
whose elements is one) that every statement of the loop touching it updates as
`v = v op e` (`v += e`, `v = e + v`, `v = fmin(v, e)`, `v = e < v ? e : v`, the last being an
if-converted `if (e < v) v = e;`), with `e` free of `v`.  OpenMP gives each thread its own `v`
and combines them at the end, so the dependences between two such updates may cross the loop's
iterations; every other dependence may not.  Floating-point sums then add in another order,
which `run` validates within its tolerance, as for any reordered sum."""
from __future__ import annotations

import re

import islpy as isl

from looptx import ir
from looptx.errors import RecipeError
from looptx.frontend.names import to_model, to_user

OPS = ("+", "*", "-", "&", "|", "^", "&&", "||", "min", "max")
# the C operator a reduction's update applies; '-' adds (OpenMP combines its copies with '+')
_BINARY = {"+": ("+", "-"), "-": ("+", "-"), "*": ("*",), "&": ("&",), "|": ("|",), "^": ("^",),
           "&&": ("&&",), "||": ("||",)}
_COMPOUND = {"+=": "+", "-=": "+", "*=": "*", "&=": "&", "|=": "|", "^=": "^"}
_CALLS = {"fmin": "min", "fminf": "min", "fminl": "min", "min": "min", "MIN": "min",
          "fmax": "max", "fmaxf": "max", "fmaxl": "max", "max": "max", "MAX": "max"}
CLAUSE = re.compile(r"reduction\s*\(\s*([^:()]+?)\s*:\s*([^()]*)\)")


def parse_reductions(value, error) -> tuple[tuple[str, str], ...]:
    """(op, variable) pairs, model names, from `{+: [a, b], min: c}`, `['+:a,b', 'min:c']` or
    `'+:a'`; `error(what, hint)` makes the step's error."""
    if isinstance(value, str):
        value = [value]
    pairs = []
    if isinstance(value, dict):
        items = [(str(op), names) for op, names in value.items()]
    elif isinstance(value, list) and all(isinstance(x, str) and ":" in x for x in value):
        items = [tuple(x.split(":", 1)) for x in value]
    else:
        raise error(f"reduction must map operators to variables, got {value!r}",
                    "e.g. reduction: {+: [sum], min: [dt]}")
    for op, names in items:
        op = op.strip()
        if op not in OPS:
            raise error(f"reduction operator '{op}' is not one of {' '.join(OPS)}",
                        "e.g. reduction: {+: [sum]}")
        names = names.split(",") if isinstance(names, str) else names
        if not isinstance(names, list) or not names or not all(isinstance(n, str) and n.strip() for n in names):
            raise error(f"reduction '{op}' needs a list of variable names, got {names!r}",
                        f"e.g. reduction: {{{op}: [sum]}}")
        # a struct member the region reads as a variable (frontend/members.py): g->s is g__s
        # '-' is kept as written for the messages; combining() says what it does
        pairs += [(op, to_model(re.sub(r"\s*(->|\.)\s*", "__", n.strip()))) for n in names]
    seen = {}
    for op, name in pairs:
        if combining(seen.setdefault(name, op)) != combining(op):
            raise error(f"'{to_user(name)}' is in two reductions ({seen[name]} and {op})",
                        "give each variable one operator")
    return tuple((op, name) for name, op in seen.items())


def combining(op: str) -> str:
    """The operator that combines the copies: '-' adds (OpenMP 5.2 deprecates writing it)."""
    return "+" if op == "-" else op


def clause_text(pairs, sections=None) -> str:
    """` reduction(+:a, b) reduction(min:c)`, model names (printed through to_user); an array
    takes its section from `sections` (`[0:M]`)."""
    by_op: dict[str, list[str]] = {}
    for op, name in pairs:
        by_op.setdefault(combining(op), []).append(name + (sections or {}).get(name, ""))
    return "".join(f" reduction({op}:{', '.join(names)})" for op, names in by_op.items())


def clause_pairs(text: str) -> tuple[tuple[str, str], ...]:
    """The (op, variable) pairs of the reduction clauses in a pragma's text (an array section's
    array: `mean[0:M]` is mean)."""
    return tuple((combining(op.strip()), to_model(n.split("[")[0].strip()))
                 for op, names in CLAUSE.findall(text) for n in names.split(",") if n.strip())


def updates_with(body: ir.Assign, var: str, scalar: bool) -> str | None:
    """update_op of a scalar, element_update_op of an array."""
    return update_op(body, var) if scalar else element_update_op(body, var)


def update_op(body: ir.Assign, var: str) -> str | None:
    """The reduction operator of `var` that the statement applies, or None when it is not
    `var = var op e` with `e` free of `var`."""
    lhs = body.lhs
    if not (isinstance(lhs, ir.Ref) and lhs.array == var and not lhs.index):
        return None
    if body.op in _COMPOUND:
        return _COMPOUND[body.op] if not _reads(body.rhs, var) else None
    if body.op != "=":
        return None
    op = _value_op(body.rhs, var)
    return None if op == _KEPT else op


def element_update_op(body: ir.Assign, array: str) -> str | None:
    """The operator by which the statement updates one element of `array` as update_op a
    scalar (`a[f] += e`, `a[f] = a[f] + e`, with `e` free of `a`), else None."""
    lhs = body.lhs
    if not (isinstance(lhs, ir.Ref) and lhs.array == array):
        return None
    same = lambda r: isinstance(r, ir.Ref) and r.array == array and len(r.index) == len(lhs.index) and \
        all(ir.to_c(x) == ir.to_c(y) for x, y in zip(r.index, lhs.index))
    marker = ir.Ref(" lx_element", -1)
    rhs = ir.map_up(body.rhs, lambda e: marker if same(e) else e)
    return None if _reads(rhs, array) else update_op(ir.Assign(body.op, marker, rhs), marker.array)


_KEPT = "kept"      # the value is `var` itself: an arm of a conditional update that leaves it


def _value_op(e: ir.Expr, var: str) -> str | None:
    """The operator by which the value `e` updates `var` (`_KEPT` for `var` itself), or None."""
    rhs = _bare(e)
    if _is_var(rhs, var):
        return _KEPT
    if isinstance(rhs, ir.Call) and _CALLS.get(rhs.fn) and len(rhs.args) == 2:
        # fmin(v, e), and nested: fmin(fmin(v, x), y)
        own = [a for a in rhs.args if _reads(a, var)]
        other = [a for a in rhs.args if not _reads(a, var)]
        inner = _value_op(own[0], var) if len(own) == 1 else None
        return _CALLS[rhs.fn] if inner in (_KEPT, _CALLS[rhs.fn]) and other else None
    if isinstance(rhs, ir.Cond):
        if _reads(rhs.c, var):
            return _select(rhs, var)
        # a conditional update, `if (x[i] > 0) s += x[i];` as `s = c ? s + x[i] : s`
        arms = {_value_op(rhs.a, var), _value_op(rhs.b, var)} - {_KEPT}
        return arms.pop() if len(arms) == 1 and None not in arms else None
    for op, ok in _BINARY.items():
        if op != "-" and isinstance(rhs, ir.Bin) and rhs.op in ok and _one_path(rhs, var, ok):
            return op
    return None


def _select(c: ir.Cond, var: str) -> str | None:
    """`e < v ? e : v` (min) and its spellings (`v > e`, `<=`, the branches swapped)."""
    test = _bare(c.c)
    if not (isinstance(test, ir.Bin) and test.op in ("<", "<=", ">", ">=")):
        return None
    if _is_var(c.b, var) and not _reads(c.a, var):
        picked, kept = c.a, "first"          # e picked when the test holds
    elif _is_var(c.a, var) and not _reads(c.b, var):
        picked, kept = c.b, "second"
    else:
        return None
    if _is_var(test.b, var) and _same(test.a, picked):
        smaller = test.op in ("<", "<=")       # e < v: e is the smaller
    elif _is_var(test.a, var) and _same(test.b, picked):
        smaller = test.op in (">", ">=")       # v > e: e is the smaller
    else:
        return None
    picks_smaller = smaller if kept == "first" else not smaller
    return "min" if picks_smaller else "max"


def _one_path(e: ir.Expr, var: str, ops: tuple[str, ...]) -> bool:
    """`var` read once in e, reached from its root through `ops` only (and only on the left of
    a '-': `v = e - v` is no sum)."""
    if not _reads(e, var) or _count(e, var) != 1:
        return False
    node = e
    while True:
        node = _bare(node)
        if _is_var(node, var):
            return True
        if not (isinstance(node, ir.Bin) and node.op in ops):
            return False
        if _reads(node.a, var):
            node = node.a
        elif node.op != "-":
            node = node.b
        else:
            return False


def _bare(e: ir.Expr) -> ir.Expr:
    while isinstance(e, ir.Un) and e.op == "+":
        e = e.a
    return e


def _is_var(e: ir.Expr, var: str) -> bool:
    e = _bare(e)
    return isinstance(e, ir.Ref) and e.array == var and not e.index


def _refs(e):
    return (x for x in ir.walk(e) if isinstance(x, ir.Ref))


def _reads(e: ir.Expr, var: str) -> bool:
    return any(r.array == var for r in _refs(e))


def _count(e: ir.Expr, var: str) -> int:
    return sum(1 for r in _refs(e) if r.array == var)


def _same(a: ir.Expr, b: ir.Expr) -> bool:
    return ir.same_apart_from_refs(_bare(a), _bare(b))


def check_updates(scop, stmts, pairs, loop: str) -> None:
    """Each reduction variable is a scalar that the statements of the loop touch only by
    updates with its operator (a RecipeError naming the first statement that does otherwise)."""
    arrays = {a.name: a for a in scop.arrays}
    ctype_of = lambda n: arrays[n].ctype if n in arrays else None
    for op, var in pairs:
        # `*delta` and `delta[0]` (Rodinia kmeans' `*delta += 1.0`) name an element of an array
        base = re.fullmatch(r"\s*(?:\*\s*(\w+)|(\w+)\s*\[\s*0\s*\])\s*", var)
        base = base and (base.group(1) or base.group(2))
        a = arrays.get(var) or arrays.get(base or "")
        if a is not None and not a.is_scalar and base:
            v = to_user(a.name)
            raise RecipeError(f"reduction({op}:{to_user(var)}): '{v}' is an array (the region reads *{v} as "
                              f"{v}[0]), and a reduction variable is a scalar or a whole array",
                              hint=f"accumulate into a local scalar of the function (`{a.ctype} s = {v}[0];` "
                                   f"before the region, `s {op}= ...` in the loop, `{v}[0] = s;` after it) "
                                   "and name that")
        if a is None:
            raise RecipeError(f"reduction({op}:{to_user(var)}): '{to_user(var)}' is not used in the region",
                              hint="a reduction variable is a scalar the loop accumulates into, named as "
                                   "the region's code names it once macros are expanded")
        users = [s for s in stmts if any(x.array == var for x in s.accesses)]
        if not users:
            raise RecipeError(f"reduction({op}:{to_user(var)}): no statement of loop '{to_user(loop)}' "
                              f"uses '{to_user(var)}'", hint="remove it from the reduction")
        for s in users:
            got = updates_with(s.body, var, a.is_scalar)
            # an if-converted statement's text is looptx's (`lx_c10_5 = A[i] > m`): the line then
            quoted = f"S{s.id} (line {s.line}{f': `{s.text}`' if s.text and 'lx_' not in s.text else ''})"
            if got == combining(op) and got in ("+", "*") and not ir.floating(s.body.lhs, ctype_of) \
                    and ir.floating(s.body.rhs, ctype_of):
                v = to_user(var)
                raise RecipeError(
                    f"reduction({op}:{v}): {quoted} converts a floating value to "
                    f"'{a.ctype} {v}' at every update, so its result depends on the order of the updates",
                    hint="accumulate into a floating variable, or make the update's value an integer")
            if got != combining(op):
                v = to_user(var)
                el = v if a.is_scalar else f"{v}[f]"
                how = f"updates it with '{got}'" if got else "uses it other than as `v = v op e`" if a.is_scalar \
                    else f"uses it other than as `{el} = {el} op e` (one element, e free of the array)"
                form = f"{el} = f{op}({el}, e)" if op in ("min", "max") else f"{el} = {el} {op} e"
                raise RecipeError(
                    f"reduction({op}:{v}): {quoted} {how}",
                    hint=f"every statement of loop '{to_user(loop)}' that uses '{v}' must update it as "
                         f"`{form}`; a loop that also reads it otherwise cannot run in parallel")


_SECTION_TEXT = re.compile(r"^[\w\s+\-*()]*$")


def check_sections(scop, stmts, text: str, loop: str, context=None) -> None:
    """Each array a reduction clause of `text` names is named by its section, and the section
    holds every element the statements `stmts` (the loop's) reach where the sizes are in
    `context` (the scop's when None): OpenMP combines only the section's private copies, and an
    update outside it writes past them."""
    arrays = {a.name: a for a in scop.arrays}
    for op, names in CLAUSE.findall(text):
        for n in (x.strip() for x in names.split(",") if x.strip()):
            base = to_model(n.split("[")[0].strip())
            arr = arrays.get(base)
            if arr is None or arr.is_scalar:
                continue
            v = to_user(base)
            full = "".join(f"[0:{d}]" for d in arr.dims) if all(arr.dims) else "[0:LENGTH]"
            parts = re.findall(r"\[([^\]]*)\]", n)
            if not parts and all(arr.dims) and v not in scop.function_params and not arr.strides:
                # an array of the file or the function, not a pointer parameter: OpenMP reduces it whole
                parts = [f"0:{d}" for d in arr.dims]
            if not parts:
                raise RecipeError(f"reduction({op.strip()}:{v}): '{v}' is an array, which OpenMP reduces through "
                                  "its section (a parameter is a pointer in C)", hint=f"write reduction({op.strip()}:{v}{full})")
            if len(parts) != arr.rank or arr.strides is not None:
                raise RecipeError(f"reduction({op.strip()}:{n}): the section has {len(parts)} dimensions, and looptx "
                                  f"reads '{v}' with {arr.rank}", hint=f"write reduction({op.strip()}:{v}{full})")
            bounds = []
            for k, p in enumerate(parts):
                lo, colon, length = (x.strip() for x in p.partition(":"))
                lo, length = lo or "0", length or (arr.dims[k] if colon else "1")
                if not length or not _SECTION_TEXT.match(lo + length):
                    raise RecipeError(f"reduction({op.strip()}:{n}): looptx cannot check the section [{p}]",
                                      hint=f"write the section with sizes, + - * and numbers: {v}{full}")
                lo, length = (re.sub(r"[A-Za-z_]\w*", lambda m: to_model(m.group(0)), x) for x in (lo, length))
                bounds.append(f"{lo} <= e{k} < ({lo}) + ({length})")
            names_ = ", ".join(f"e{k}" for k in range(arr.rank))
            try:
                box = isl.Set(f"{scop.prefix}{{ {base}[{names_}] : {' and '.join(bounds)} }}")
            except isl.Error:
                raise RecipeError(f"reduction({op.strip()}:{n}): the section names something other than the "
                                  "region's sizes", hint=f"write reduction({op.strip()}:{v}{full})") from None
            for s in stmts:
                for a in s.accesses:
                    if a.array != base:
                        continue
                    reached = scop.access_map(s, a).range().intersect_params(
                        scop.context if context is None else context)
                    outside = reached.subtract(box.align_params(reached.get_space()))
                    if not outside.is_empty():
                        at = outside.sample_point()
                        # the sizes of the witness (probe 224 G5: cs[0] is outside cs[0:n-1] at n = 1 only)
                        sizes = ", ".join(f"{to_user(outside.get_dim_name(isl.dim_type.param, k))}="
                                          f"{at.get_coordinate_val(isl.dim_type.param, k).to_python()}"
                                          for k in range(outside.dim(isl.dim_type.param))
                                          if outside.get_dim_name(isl.dim_type.param, k) not in dict(scop.fixed))
                        raise RecipeError(
                            f"reduction({op.strip()}:{n}): S{s.id} (line {s.line}) in loop '{to_user(loop)}' updates "
                            f"{v}{''.join(f'[{at.get_coordinate_val(isl.dim_type.set, k).to_python()}]' for k in range(arr.rank))}"
                            + (f" (with {sizes})" if sizes else "") + ", outside the section, which OpenMP would not combine",
                            hint=f"name a section that holds every element the loop updates, e.g. {v}{full}")


def with_sections(scop, text: str) -> str:
    """`text` with each array a reduction clause names bare (a file's `double s[M]`, which
    OpenMP reduces whole) written as its whole section: the same clause, which also compiles
    where the array reaches the code as a pointer (looptx's harness passes arrays so)."""
    arrays = {a.name: a for a in scop.arrays}

    def clause(m: re.Match) -> str:
        names = []
        for n in m.group(2).split(","):
            arr = arrays.get(to_model(n.strip()))
            names.append(f"{n.strip()}{''.join(f'[0:{d}]' for d in arr.dims)}"
                         if arr is not None and not arr.is_scalar and "[" not in n and all(arr.dims) else n.strip())
        return f"{m.group(0)[:m.start(2) - m.start(0)]}{', '.join(names)})"
    return CLAUSE.sub(clause, text)

