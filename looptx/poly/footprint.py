"""How far a region reaches into an array whose extent C does not give (`double *a`,
`double a[][M]`): at given sizes, what a harness must allocate to run it; symbolically, what
the host code of a .cu file must copy."""
from __future__ import annotations

from dataclasses import dataclass

import islpy as isl

from looptx import ir
from looptx.poly.scop import Scop


def reach(scop: Scop, array: str, values: dict[str, int]) -> tuple[tuple[int, int], ...] | None:
    """(lowest, highest) index of each declared dimension of `array` over every access of the
    region at the sizes `values` (every parameter must have one), (0, -1) each when it reaches
    none at these sizes; None when the region does not index it or an index is unbounded.  A
    linearized array's dimension is its flat index."""
    reached = _reached(scop, array, values)
    if reached is None:
        return None
    if reached.is_empty():
        return ((0, -1),) * reached.dim(isl.dim_type.set)
    out = []
    for d in range(reached.dim(isl.dim_type.set)):
        lo, hi = reached.dim_min_val(d), reached.dim_max_val(d)
        if not (lo.is_int() and hi.is_int()):
            return None
        out.append((lo.to_python(), hi.to_python()))
    return tuple(out)


def outside_extents(scop: Scop, array: str, values: dict[str, int], extents: tuple[int, ...]) -> int | None:
    """An element offset outside `array`'s `extents` (laid out row-major) that the region
    reaches at the sizes `values`, else None."""
    span = flat_reach(scop, array, values, extents)
    total = 1
    for n in extents:
        total *= n
    if span is None or (span[0] >= 0 and span[1] < total):
        return None
    return span[0] if span[0] < 0 else span[1]


def overrunning_statement(scop: Scop, array: str, values: dict[str, int], extents: tuple[int, ...]):
    """The first statement whose accesses reach outside `array`'s `extents` at `values` (SPAPT
    dgemv3's `j <= M`, not the loop before it that stays inside), or None."""
    total = 1
    for n in extents:
        total *= n
    for s in scop.statements:
        span = flat_reach(scop, array, values, extents, only=s.id)
        if span is not None and (span[0] < 0 or span[1] >= total):
            return s
    return None


def row_overrunning_statement(scop: Scop, array: str, values: dict[str, int], extents: tuple[int, ...], k: int):
    """The first statement with a subscript of `array` outside dimension `k`'s extent at
    `values` (CHiLL's nonunimodular `C[i + j][4*j - 2*i + 3]`, not an earlier statement that
    stays in), or None."""
    for s in scop.statements:
        reached = _reached(scop, array, values, only=s.id)
        if reached is None or reached.is_empty() or reached.dim(isl.dim_type.set) != len(extents):
            continue
        if reached.dim_min_val(k).to_python() < 0 or reached.dim_max_val(k).to_python() >= extents[k]:
            return s
    return None


def past_extents(scop: Scop, array: str, values: dict[str, int], extents: tuple[int, ...]) -> bool:
    """Whether the region reaches an element of `array` past its extent in a dimension after
    the first at the sizes `values` (harmless to the model where nothing meets it, but undefined
    in ISO C)."""
    reached = _reached(scop, array, values)
    if reached is None or reached.is_empty() or reached.dim(isl.dim_type.set) != len(extents):
        return False
    return any(reached.dim_min_val(k).to_python() < 0 or reached.dim_max_val(k).to_python() >= extents[k]
               for k in range(1, len(extents)))


def row_overrun(scop: Scop, array: str, values: dict[str, int],
                extents: tuple[int, ...]) -> tuple[int, int] | None:
    """(dimension, index) of a subscript past its declared extent in a dimension after the
    first (`d[i][25]` in rows of 20) that the region reaches at the sizes `values` where C lays
    that element on one the region reaches by other subscripts and one of the two is written:
    the model, one element per subscript tuple, misses that dependence.  (CHiLL's jacobi reads
    `a[t-1][N]`, which is `a[t][0]`, never written: harmless, and accepted.)"""
    reached = _reached(scop, array, values)
    if reached is None or reached.is_empty() or reached.dim(isl.dim_type.set) != len(extents):
        return None
    names = [f"i{k}" for k in range(len(extents))]
    tup = f"{array}[{', '.join(names)}]"
    outside = " or ".join(f"{n} < 0 or {n} >= {e}" for n, e in zip(names[1:], extents[1:]))
    if not outside:
        return None
    over = reached.intersect(isl.Set(f"{{ {tup} : {outside} }}"))
    if over.is_empty():
        return None
    flat = isl.Map(f"{{ {tup} -> [{' + '.join(f'{_stride(extents, k)} * {n}' for k, n in enumerate(names))}] }}")
    same = flat.apply_range(flat.reverse()).subtract(isl.Map(f"{{ {tup} -> {tup} }}"))
    alias = same.intersect_domain(over).intersect_range(reached)
    written = _reached(scop, array, values, writes=True)
    if written is None or written.is_empty():
        return None
    bad = alias.intersect_domain(written).union(alias.intersect_range(written)).domain()
    if bad.is_empty():
        return None
    for k in range(1, len(extents)):
        lo, hi = bad.dim_min_val(k), bad.dim_max_val(k)
        if lo.is_int() and lo.to_python() < 0:
            return k, lo.to_python()
        if hi.is_int() and hi.to_python() >= extents[k]:
            return k, hi.to_python()
    return None


def _stride(extents: tuple[int, ...], k: int) -> int:
    stride = 1
    for e in extents[k + 1:]:
        stride *= e
    return stride


def flat_reach(scop: Scop, array: str, values: dict[str, int],
               extents: tuple[int, ...], only=None) -> tuple[int, int] | None:
    """(lowest, highest) element offset the region (`only`: its statement of that id) reaches
    in `array`, laid out with the declared `extents` (one per declared dimension), at the sizes
    `values`; None when unknown or when it reaches nothing."""
    reached = _reached(scop, array, values, only=only)
    if reached is None or reached.is_empty() or reached.dim(isl.dim_type.set) != len(extents):
        return None
    names = [f"i{k}" for k in range(len(extents))]
    terms = [f"{_stride(extents, k)} * {name}" for k, name in enumerate(names)]
    flat = reached.apply(isl.Map(f"{{ {array}[{', '.join(names)}] -> [{' + '.join(terms)}] }}"))
    lo, hi = flat.dim_min_val(0), flat.dim_max_val(0)
    if not (lo.is_int() and hi.is_int()):
        return None
    return lo.to_python(), hi.to_python()


def evaluated(scop: Scop, s, a) -> isl.Set:
    """The instances of `s` that evaluate the access `a`: its domain, within a `?:` branch
    that branch's affine condition."""
    if not a.guard:
        return scop.domain(s)
    return scop.cached(("evaluated", a.ref), lambda: scop.domain(s).intersect(
        isl.Set(f"{scop.prefix}{{ {s.tuple_text()} : {a.guard} }}")))


def stays_in_rows(scop: Scop, s, index: str, row: str) -> bool:
    """Whether `0 <= index < row` (C affine texts) wherever statement `s` runs."""
    try:
        rows = isl.Set(f"{scop.prefix}{{ {s.tuple_text()} : 0 <= {index} < {row} }}")
    except isl.Error:
        return False
    return scop.domain(s).is_subset(rows)


def highest_value(scop: Scop, s, expr: str, values: dict[str, int]) -> int | None:
    """The largest value of `expr` (a C affine text) wherever statement `s` runs at the sizes
    `values`; None where it never runs or the value is unbounded."""
    fixed = " and ".join(f"{p} = {values[p]}" for p in scop.params if p in values) or "true"
    try:
        where = isl.Set(f"{scop.prefix}{{ {s.tuple_text()} : {fixed} }}")
        value = isl.Map(f"{scop.prefix}{{ {s.tuple_text()} -> [v] : v = {expr} }}")
    except isl.Error:
        return None
    out = value.intersect_domain(scop.domain(s).intersect(where)).range()
    if out.is_empty():
        return None
    hi = out.dim_max_val(0)
    return hi.to_python() if hi.is_int() else None


def all_exist(scop: Scop, array: str, elements: isl.Set) -> bool:
    """Whether every element of `elements` (of `array`, with the sizes as parameters) exists
    whenever the region runs: inside the declared extents where they are numbers or sizes, or
    in its row, at or after the first element and at or before the last one the region
    certainly reaches (what a harness allocates and a .cu copies)."""
    arr = scop.array(array)
    if not arr.rank:
        return True
    dims = [f"d{k}" for k in range(arr.rank)]
    tup = f"{array}[{', '.join(dims)}]"
    known = lambda x: x.isdigit() or x in scop.params
    ok = isl.Set(f"{scop.prefix}{{ {tup} : 1 = 0 }}")
    if arr.strides is None and len(arr.dims) == arr.rank and all(known(d) for d in arr.dims):
        box = " and ".join(f"0 <= {n} < {d}" for n, d in zip(dims, arr.dims))
        ok = isl.Set(f"{scop.prefix}{{ {tup} : {box} }}")
    rows = arr.strides if arr.strides is not None else arr.dims[1:]
    if len(rows) == arr.rank - 1 and all(known(r) for r in rows):
        in_row = " and ".join([f"{dims[0]} >= 0"] + [f"0 <= {n} < {r}" for n, r in zip(dims[1:], rows)])
        reached = isl.Set(f"{scop.prefix}{{ {tup} : 1 = 0 }}")
        for s in scop.statements:
            for a in s.accesses:
                if a.array == array and not a.inexact and not any(ir.is_gathered(x) for x in a.index):
                    reached = reached.union(scop.access_map(s, a, guarded=True).range())
        # row-major order in rows is the order of addresses: below the last element reached
        below_last = elements.intersect(isl.Set(f"{scop.prefix}{{ {tup} : {in_row} }}")).lex_le_set(reached).domain()
        ok = ok.union(below_last)
    return elements.is_subset(ok)


def _reached(scop: Scop, array: str, values: dict[str, int], writes: bool = False, only=None):
    """The elements of `array` the region reaches (`writes`: writes; `only`: the statement of
    that id alone) at the sizes `values`, or None.  Kept with the scop: the harness's checks of
    one size ask for each array more than once."""
    key = ("reached", array, tuple(sorted(values.items())), writes, only)
    return scop.cached(key, lambda: _reached_now(scop, array, values, writes, only))


def _reached_now(scop: Scop, array: str, values: dict[str, int], writes: bool, only):
    arr = scop.array(array)
    fix = [f"{p} = {values[p]}" for p in scop.params if p in values]
    if len(fix) < len(scop.params):
        return None
    sizes = scop.params_where(fix)
    reached = None
    for s in scop.statements:
        if only is not None and s.id != only:
            continue
        for a in s.accesses:
            # a read through an index array bounds nothing: the harness keeps its indexes inside
            if a.array != array or any(ir.is_gathered(x) for x in a.index) or writes and a.kind != "write":
                continue
            if arr.strides:
                # the flat index of a delinearized access: rows times their lengths
                flat = a.index[0]
                for extent, idx in zip(arr.strides, a.index[1:]):
                    flat = f"{values[extent] if extent in values else extent} * ({flat}) + ({idx})"
                index = [flat]
            else:
                index = list(a.index) if arr.rank else []
            if not index:
                continue
            m = isl.Map(f"{scop.prefix}{{ {s.tuple_text()} -> {array}[{', '.join(index)}] }}")
            # the instances the code runs at these sizes, outside the model's context too: a row
            # fact of an array the region only reads (`M >= ntaps` for `x[n*M + k]`) is assumed
            # and never checked, and sizes that break it leave the context empty
            where = scop.cached(("run_instances", a.ref), lambda: isl.Set(
                f"{scop.prefix}{{ {s.tuple_text()} : {s.domain or '1 = 1'}"
                f"{' and (' + a.guard + ')' if a.guard else ''} }}"))
            r = m.intersect_domain(where).intersect_params(sizes).range()
            reached = r if reached is None else reached.union(r)
    if reached is not None:
        # the parameters are fixed: project them out, so the bounds are numbers
        reached = reached.project_out(isl.dim_type.param, 0, reached.dim(isl.dim_type.param))
    return reached


@dataclass(frozen=True)
class Highest:
    """The lexicographically highest element a region reaches in an array, as expressions of
    the sizes (one per dimension isl sees), and when the region reaches it at all (None:
    always, as far as the model's assumptions go)."""
    index: tuple[ir.Expr, ...]
    reached_if: ir.Expr | None
    # the lexicographically lowest element (span only; None: the first element, always), and
    # the highest index minus the lowest in the first dimension (not of a delinearized array)
    lowest: tuple[ir.Expr, ...] | None = None
    distance: ir.Expr | None = None
    # the region may read below the first element at some sizes (span only)
    below_first: bool = False


def highest(scop: Scop, array: str) -> Highest | str:
    """For host code that copies an array of unknown extent; else why not: the region does not
    access it, an index has no bound, or it may reach below the first element (a negative index
    at some sizes) so that the count is not the highest + 1."""
    # asked for by the counts, by the check of counts the recipe gives and by the .cu's macros
    return scop.cached(("highest", array), lambda: _highest(scop, array))


def span(scop: Scop, array: str, values: tuple[tuple[str, int], ...] = ()) -> Highest | str:
    """As `highest`, with the lowest element too where that may not be the first, for host
    code that copies from there where element 0 may not be the caller's (f2c's `--a;` makes
    a[1] the first; codegen/cuda_span.py).  A negative index is refused only where it remains
    at the sizes' `values` (a #define's, a local's initializer's at the fixed sizes): at the
    others, copying from the lowest element copies what the region reads."""
    return scop.cached(("span", array, values), lambda: _highest(scop, array, below=values or True))


def _every_reached(scop: Scop, array: str) -> isl.Set | str:
    """The elements of `array` the region reaches, with the sizes as parameters, or why there
    is no such set."""
    reached = None
    for s in scop.statements:
        for a in s.accesses:
            if a.array == array and any(ir.is_gathered(x) for x in a.index):
                return "the region reads it through an index array"
            if a.array == array:
                r = scop.access_map(s, a, guarded=True).range()
                reached = r if reached is None else reached.union(r)
    if reached is None or reached.is_empty():
        return "the region does not access it"
    return reached


def span_below(scop: Scop, array: str) -> Highest | str:
    """As `span`, also where the region reaches below the first element at some sizes
    (`below_first` says so): for the host's checks of a count the recipe gives."""
    return scop.cached(("span_below", array), lambda: _highest(scop, array, below=True, refuse_below=False))


def _highest(scop: Scop, array: str, below=False, refuse_below=True) -> Highest | str:
    from looptx.poly.astgen import expr
    arr = scop.array(array)
    if not arr.rank:
        return "it is a scalar"
    reached = _every_reached(scop, array)
    if isinstance(reached, str):
        return reached
    # a lexicographically negative index is below the first element: rows of a delinearized
    # array have their columns inside [0, row length), which the model already requires
    before = " or ".join(f"({' and '.join([f'd{k} = 0' for k in range(d)] + [f'd{d} < 0'])})"
                         for d in range(arr.rank if arr.strides else 1))
    dims = ", ".join(f"d{k}" for k in range(arr.rank))
    under = reached.intersect(isl.Set(f"{scop.prefix}{{ {array}[{dims}] : {before} }}"))
    below_first = not under.is_empty()
    known = [f"{p} = {v}" for p, v in below if p in scop.params] if isinstance(below, tuple) else []
    if known and not under.is_empty():
        under = under.intersect_params(scop.params_where(known))
    if refuse_below and not under.is_empty():
        return "the region may read it below its first element at some sizes"
    try:
        top = reached.lexmax_pw_multi_aff()
    except isl.Error:
        return "its highest index has no bound"
    lowest = distance = None
    if below:
        # the first element: every dimension 0 of a delinearized array (its columns lie in
        # their rows), the first row of a declared one (its rows are copied whole)
        first = " and ".join(f"d{k} = 0" for k in range(arr.rank if arr.strides else 1))
        try:
            if not reached.lexmin().is_subset(isl.Set(f"{scop.prefix}{{ {array}[{dims}] : {first} }}")):
                low = reached.lexmin_pw_multi_aff()
                build = isl.AstBuild.from_context(low.domain())
                lowest = tuple(expr(build.expr_from_pw_aff(low.get_pw_aff(k))) for k in range(arr.rank))
                if not arr.strides:
                    distance = expr(build.expr_from_pw_aff(top.get_pw_aff(0).sub(low.get_pw_aff(0))))
        except isl.Error:
            return "its lowest index has no bound"
    where = top.domain()
    build = isl.AstBuild.from_context(where)
    index = tuple(expr(build.expr_from_pw_aff(top.get_pw_aff(k))) for k in range(arr.rank))
    always = where.is_equal(scop.context) or scop.context.is_subset(where)
    context = scop.context.align_params(where.get_space())      # see _Builder.build in astgen
    cond = None if always else expr(isl.AstBuild.from_context(context).expr_from_set(
        where.align_params(context.get_space())))
    return Highest(index, cond, lowest, distance, below_first)


@dataclass(frozen=True)
class Rows:
    """What the region reaches of an array whose rows are pointers (`double **a`, NR's
    `matrix()`), for host code that copies it row by row into one device block laid out as
    the box around it.  The outer indexes are the variables `lx_r0`, `lx_r1`, ...:
    `row_if` says whether the region reaches row (lx_r0, ...) (None: each one in the box),
    `first`/`last` the lowest and highest index it reaches in that row.  `low`/`high` are the
    box's corners, one per dimension; `reached_if` as Highest's."""
    low: tuple[ir.Expr, ...]
    high: tuple[ir.Expr, ...]
    first: ir.Expr
    last: ir.Expr
    row_if: ir.Expr | None
    reached_if: ir.Expr | None


def rows(scop: Scop, array: str) -> Rows | str:
    """As `highest`, for an array whose rows are pointers; each row is copied from the first
    to the last element the region reaches in it (a row past those may not exist: NR's
    triangular matrices, rows allocated one by one)."""
    return scop.cached(("rows", array), lambda: _rows(scop, array))


def _rows(scop: Scop, array: str) -> Rows | str:
    from looptx.poly.astgen import expr
    arr = scop.array(array)
    reached = _every_reached(scop, array)
    if isinstance(reached, str):
        return reached
    n, nparam = arr.rank, reached.dim(isl.dim_type.param)

    def outer_as_params(x: isl.Set, count: int) -> isl.Set:
        x = x.move_dims(isl.dim_type.param, nparam, isl.dim_type.set, 0, count)
        for k in range(count):
            x = x.set_dim_name(isl.dim_type.param, nparam + k, f"lx_r{k}")
        return x

    def c(pw: isl.PwAff) -> ir.Expr:
        return expr(isl.AstBuild.from_context(pw.domain()).expr_from_pw_aff(pw))

    def cond(where: isl.Set, given: isl.Set) -> ir.Expr | None:
        given = given.align_params(where.get_space())
        where = where.align_params(given.get_space()).coalesce()
        if given.is_subset(where):
            return None
        return expr(isl.AstBuild.from_context(given).expr_from_set(where.gist(given)))
    per_row = outer_as_params(reached, n - 1)       # the last index, in row (lx_r0, ...)
    try:
        extremes = [reached.dim_min(k) for k in range(n)] + [reached.dim_max(k) for k in range(n)] \
            + [per_row.dim_min(0), per_row.dim_max(0)]
    except isl.Error:
        return "its indexes have no bound"
    if any(pw.involves_nan() for pw in extremes):
        return "its indexes have no bound"
    # the rows the host code's loops visit: each outer index between its extremes
    box = scop.context.align_params(per_row.get_space())
    for k in range(n - 1):
        # every index between the extremes, a stride's gaps included (`a[2*i][j]`)
        one = isl.Set(reached.project_out(isl.dim_type.set, k + 1, n - k - 1)
                      .project_out(isl.dim_type.set, 0, k).simple_hull()).remove_divs()
        one = one.move_dims(isl.dim_type.param, nparam, isl.dim_type.set, 0, 1) \
            .set_dim_name(isl.dim_type.param, nparam, f"lx_r{k}").params()
        box = box.align_params(one.get_space()).intersect(one.align_params(box.get_space()))
    return Rows(tuple(c(pw) for pw in extremes[:n]), tuple(c(pw) for pw in extremes[n:2 * n]),
                c(extremes[-2]), c(extremes[-1]), cond(per_row.params(), box),
                cond(reached.params(), scop.context))
