"""Locals of a jammed loop body, one variable per copy (llama2.c's matmul:
`for (i) { float val = 0.0f; for (j) val += w[i*n + j] * x[j]; xout[i] = val; }` unrolled by 4
and jammed: each of the 4 interleaved iterations accumulates in a `val` of its own).

C gives each iteration of the loops around a local's declaration an object of its own; the code
keeps one variable, which a jam would share between the iterations it interleaves.  So each
copy of an unroll's point loop over an iterator the local is private to gets a variable of its
own (`val`, `val__i1`, `val__i2`, ...; codegen/unroll.py), and the lifetime check
(deps.lifetime_overlap) sees the copy number as a coordinate of the variable.  A local whose
statements are split into pieces keeps one variable (the check then refuses what overlaps)."""
from __future__ import annotations

import re

import islpy as isl

from looptx.poly.variant import LoopDim, Variant

__all__ = ["jam_renames", "copy_cells", "copy_name", "root_of"]

_COPY = re.compile(r"([A-Za-z_]\w*?)((?:__[A-Za-z_]\w*?\d+)+)")


def copy_name(name: str, loop: str, k: int) -> str:
    """Copy k of a jam of `loop` (`val__i1`); copy 0 keeps the name.  Each jam adds its loop's
    tag, so the copies of nested jams differ (`s__j2__i1`, `s__i1`, `s__j2`)."""
    return name if k == 0 else f"{name}__{loop}{k}"


def root_of(name: str, arrays) -> str:
    """The local a copy's variable stands for (`val__j2__i1` is `val`); a name of the region's
    own (`arrays`) is itself."""
    if name in arrays:
        return name
    m = _COPY.fullmatch(name)
    return m.group(1) if m and m.group(1) in arrays else name


def _jams(v: Variant):
    """(piece, point position, point dim, control dim) of each unroll that jams."""
    for q in v.pieces:
        for pos, d in enumerate(q.dims):
            if isinstance(d, LoopDim) and d.unroll and d.name.endswith("'"):
                ctrl = next((c for c in q.dims if isinstance(c, LoopDim) and c.name == d.name[:-1]
                             and c.factor), None)
                if ctrl is not None:
                    yield q, pos, d, ctrl


def jam_renames(v: Variant) -> dict[tuple[int, int], frozenset[str]]:
    """(statement, point loop position) -> the locals each copy of that loop has its own of."""
    scop = v.scop
    split = {q.stmt for q in v.pieces if sum(p.stmt == q.stmt for p in v.pieces) > 1}
    out: dict[tuple[int, int], set[str]] = {}
    # a local whose statements are copied only as whole iterations, one after another (an
    # unroll of the loop right around them), needs no copies: only a jam interleaves them
    interleaved: set[str] = set()
    for q, pos, d, ctrl in _jams(v):
        s = scop.statements[q.stmt]
        inner = any(isinstance(x, LoopDim) for x in q.dims[q.dims.index(ctrl) + 1:pos])
        for a in s.accesses:
            arr = scop.array(a.array)
            if arr.private_depth and d.expr.strip() in s.iterators[:arr.private_depth]:
                out.setdefault((q.stmt, pos), set()).add(a.array)
                if inner:           # the copies sit inside a loop of the body: a jam
                    interleaved.add(a.array)
    # every statement of a local must be in one piece, or its pieces could disagree on names
    users = {}
    for s in scop.statements:
        for a in s.accesses:
            users.setdefault(a.array, set()).add(s.id)
    return {k: frozenset(n for n in names if n in interleaved and not users.get(n, set()) & split)
            for k, names in out.items()}


def copy_cells(v: Variant) -> dict[str, dict[int, list[str]]]:
    """local -> statement -> the copy numbers (isl expressions over its iterators) that name
    the variable its instances use; a statement not jammed uses copy 0."""
    renames = jam_renames(v)
    out: dict[str, dict[int, list[str]]] = {}
    for q, pos, d, ctrl in _jams(v):
        for name in renames.get((q.stmt, pos), ()):
            out.setdefault(name, {}).setdefault(q.stmt, []).append(f"({d.expr}) - ({ctrl.expr})")
    return out


def jam_control(v: Variant, stmt: int, pos: int) -> int | None:
    """The position of the control loop of the jam whose point loop is at `pos` in `stmt`."""
    for q, p, d, ctrl in _jams(v):
        if q.stmt == stmt and p == pos:
            return q.dims.index(ctrl)
    return None


def strip_start(v: Variant, stmt: int, pos: int, values: dict[str, str], where=(), inside=()):
    """The first value of the strip of the jam at point position `pos` that instances of `stmt`
    are in, as an expression (ir) of the code's loop variables and the sizes, where the code
    fixes the strip's control to one value: `values` gives the statement's iterators as affine
    texts over the loop variables, `where` what holds of those, `inside` the variables of the
    loops it must not depend on (the point loop's own).  None where the strip is not one."""
    from looptx.poly.astgen import expr
    for q, p, d, ctrl in _jams(v):
        if q.stmt != stmt or p != pos:
            continue
        s = v.scop.statements[stmt]
        names = sorted({w for t in (*values.values(), *where) for w in re.findall(r"[A-Za-z_]\w*", t)}
                       - {"floor", "mod", "and", "or", "min", "max"} - set(v.scop.params) - set(s.iterators)
                       - set(inside))
        for known in _weaker(where):
            fixed = " and ".join([f"{it} = {values[it]}" for it in s.iterators if it in values] + known)
            try:
                space = f"[{', '.join(list(v.scop.params) + names)}] -> "
                bound = ", ".join(list(s.iterators) + [x for x in inside if x not in s.iterators])
                b = isl.Set(f"{space}{{ [lx_b] : exists ({bound} : {fixed} and lx_b = {ctrl.expr}) }}")
                b = b.intersect_params(v.scop.context.align_params(b.get_space()))
                if b.is_empty():
                    return None
                lo, hi = b.dim_min(0), b.dim_max(0)
                if not lo.is_equal(hi):
                    return None
                return expr(isl.AstBuild.from_context(lo.domain()).expr_from_pw_aff(lo))
            except isl.Error:
                continue
    return None


def _weaker(where) -> list[list[str]]:
    """`where`, then `where` without its disjunctions: isl's parametric minimum fails
    ("unbounded optimum") on some sets of disjunctions over the loops around (CS267's
    hand-blocked dgemm, three loops stepping by 41); a value unique on the larger set is
    unique on the smaller."""
    plain = [c for c in where if " or " not in c]
    return [list(where)] + ([plain] if len(plain) < len(where) else [])


def copy_number(v: Variant, stmt: int, pos: int, values: dict[str, str], where=()) -> int | None:
    """Which copy of the jam at point position `pos` an instance of `stmt` is (0, 1, ...: the
    index unroll_for names it by), where the generated code fixed its iterators to `values`
    (affine texts over the code's loop variables) under `where` (isl constraints on those):
    isl writes no loop of one iteration (a jam's last strip, `if (i == 4) acc__lag1 += ...`),
    and a point loop may start past the strip's first copy.  None where it is not one copy."""
    for q, p, d, ctrl in _jams(v):
        if q.stmt != stmt or p != pos:
            continue
        s = v.scop.statements[stmt]
        names = sorted({w for t in (*values.values(), *where) for w in re.findall(r"[A-Za-z_]\w*", t)}
                       - {"floor", "mod", "and", "or"} - set(v.scop.params) - set(s.iterators))
        offset = f"({d.expr}) - ({ctrl.expr})"
        value = None
        for known in _weaker(where):
            fixed = " and ".join([f"{it} = {values[it]}" for it in s.iterators if it in values] + known)
            try:
                space = f"[{', '.join(list(v.scop.params) + names)}] -> "
                k = isl.Set(f"{space}{{ [lx_k] : exists ({', '.join(s.iterators)} : {fixed} and lx_k = {offset}) }}")
                if k.is_empty():
                    return None
                lo, hi = k.dim_min(0), k.dim_max(0)
                if not (lo.is_cst() and lo.is_equal(hi)):
                    return None
                value = k.sample_point().get_coordinate_val(isl.dim_type.set, 0).to_python()
                break
            except isl.Error:
                continue
        offsets = jam_offsets(v, stmt, pos)[1]
        return offsets.index(value) if value in offsets else None
    return None


def jam_offsets(v: Variant, stmt: int, pos: int) -> tuple[str | None, list[int]]:
    """(the iterator of the jam's point loop at `pos` where its expression is one, the values
    it has past its strip's first in the strip's copies, in order: 0, 2 for a loop counting by
    2)."""
    for q, p, d, ctrl in _jams(v):
        if q.stmt != stmt or p != pos:
            continue
        at = q.dims.index(ctrl)
        key = q.prefix(at + 1)

        def strip():
            # the offsets of every statement of the jam, so that all name one copy alike: at
            # -D N=3 a Cholesky body's inner statement reaches only the strip's second copy,
            # which is still copy 1 (t__j1), as the declaration's and the last statement's are
            seen = set()
            for q2, _, d2, c2 in _jams(v):
                if c2.name == ctrl.name and at < len(q2.dims) and q2.dims[at] == c2 and q2.prefix(at + 1) == key:
                    seen.update(_statement_offsets(v.scop, q2.stmt, d2, c2)[1])
            return _statement_offsets(v.scop, stmt, d, ctrl)[0], sorted(seen)
        # asked for each statement a jam's last strip writes: the same jam, the same answer
        return v.scop.cached(("jam_offsets", stmt, d.expr, ctrl.expr, key), strip)
    return None, []


def _statement_offsets(scop, stmt: int, d, ctrl) -> tuple[str | None, list[int]]:
    """_offsets once per statement: each statement of a jam asks for all of them."""
    return scop.cached(("statement_offsets", stmt, d.expr, ctrl.expr), lambda: _offsets(scop, stmt, d, ctrl))


def _offsets(scop, stmt: int, d, ctrl) -> tuple[str | None, list[int]]:
    s = scop.statements[stmt]
    offsets: list[int] = []
    try:
        every = scop.domain(s).apply(isl.Map(f"{scop.prefix}{{ {s.tuple_text()} -> [lx_k] : "
                                             f"lx_k = ({d.expr}) - ({ctrl.expr}) }}"))
        every = every.project_out(isl.dim_type.param, 0, every.dim(isl.dim_type.param))
        every.foreach_point(lambda pt: offsets.append(pt.get_coordinate_val(isl.dim_type.set, 0).to_python()))
    except isl.Error:
        return None, []
    return (d.expr.strip() if d.expr.strip() in s.iterators else None), sorted(offsets)
