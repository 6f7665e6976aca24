"""The checks and footprint helpers of promotions (poly/promote.py): where a copy's loads and
stores may go, what a buffer may read, whether a register's footprint stays put in its loop."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

import islpy as isl

from looptx.errors import note_once
from looptx.frontend.names import to_user
from looptx.poly.deps import upper_constant
from looptx.poly.functions import pw_function
from looptx.poly.variant import Variant

if TYPE_CHECKING:                      # promote imports this module
    from looptx.poly.promote import Promotion


def project_prefix(m: isl.Map, length: int, width: int) -> isl.Map:
    return m.project_out(isl.dim_type.out, length, width - length)


def check_slots(v: Variant, pr: Promotion, k: int, at: int, slots: list, name: str) -> None:
    """The loads must run after the statements before loop L and the stores before those after
    it: a slot that ties with a sibling's position runs in no defined order with it (a load
    before the zeroing it must see), so refuse rather than guess."""
    key = v.pieces[k].prefix(at)
    base = v.pieces[k].dims[at]
    sib = {p.dims[at] for p in v.pieces if len(p.dims) > at and p.prefix(at) == key}
    below = max((x for x in sib if x < base), default=None)
    above = min((x for x in sib if x > base), default=None)
    for direction, slot in slots:
        if direction == "in" and below is not None and slot <= below or \
                direction == "out" and above is not None and slot >= above:
            raise pr.error(f"no room to place the registers of '{to_user(pr.array or '')}' around loop "
                           f"'{to_user(name)}' between the statements next to it",
                           hint="promote fewer arrays at this loop")


def check_unguarded(pr: Promotion, scop, st, a) -> None:
    """A buffer is loaded from the whole footprint, so a reference that C evaluates only
    inside a `?:` branch (darknet's padded `valid ? src[index] : -FLT_MAX`) must reach, unguarded,
    only elements that exist: the load would read what the original never reads."""
    from looptx.poly.footprint import all_exist
    if a.inexact and not all_exist(scop, a.array, scop.access_map(st, a, guarded=True).range()):
        # (a read of `x[i - 1]` under `i - 1 < n` of unsigned values: C never reads x[-1])
        raise pr.error(f"the read of '{a.array}' on line {st.line} sits under a test looptx does not model "
                       "exactly (C tests unsigned values that may wrap, rounds a negative `/` or `%`, or the test is no "
                       "affine condition); a "
                       f"{pr.kind} buffer would be loaded from elements the original may never read, "
                       "which may lie outside the array",
                       hint="test that no value wraps first (`i >= 1 && i - 1 < n`), promote another "
                            f"array, or remove the {pr.kind} step for '{a.array}'")
    if a.guard and not all_exist(scop, a.array, scop.access_map(st, a).range()):
        raise pr.error(f"the {a.kind} of '{a.array}' on line {st.line} sits in a ?: branch that runs only "
                       f"where {_plain(a.guard)}; a {pr.kind} buffer would be loaded from elements the "
                       "original never reads, which may lie outside the array",
                       hint=f"promote another array, or remove the {pr.kind} step for '{a.array}'")


def _plain(cond: str) -> str:
    """isl condition text without the parentheses around its atoms and comparisons."""
    while True:
        bare = re.sub(r"\(([^()]*)\)", lambda m: m.group(1) if " and " not in m.group(1)
                      and " or " not in m.group(1) else f"[{m.group(1)}]", cond)
        if bare == cond:
            break
        cond = bare
    cond = cond.replace("[", "(").replace("]", ")")
    return cond[1:-1] if cond.startswith("(") and cond.endswith(")") and cond.count("(") == 1 else cond


def register_stride(fd: isl.Map, low: isl.Map) -> int:
    """The common step between the elements one thread keeps (16 when a thread's rows are
    i, i + 16, ... as after counted tiling), so that its registers hold those elements only,
    not the box around them; 1 when there is none."""
    pair = fd.reset_tuple_id(isl.dim_type.out).flat_range_product(low.reset_tuple_id(isl.dim_type.out))
    offsets = pair.apply_range(isl.Map("{ [e, l] -> [e - l] }")).range()
    offsets = offsets.project_out(isl.dim_type.param, 0, offsets.dim(isl.dim_type.param))
    if offsets.is_empty():
        return 1
    try:
        step = offsets.get_stride(0).to_python()
    except (isl.Error, ValueError):
        return 1
    return step if isinstance(step, int) and step > 1 else 1


def tile_low(fd: isl.Map, loose: isl.Map) -> tuple[isl.Map, int] | None:
    """A buffer origin that is one affine function of the scope's loops, and the largest offset
    from it: the lower corner of the footprint of a whole tile (`loose`: the footprint with the
    iteration domain dropped), as CHiLL's rectangular datacopy uses.  The exact lexmin of the
    footprint `fd` is piecewise at the domain's boundaries; after skewing it has so many pieces
    that isl's AST build runs out of operations on the copy statements.  None when the loose
    footprint is unbounded (loops inside the scope that are not tiled) or its corner is not one
    piece; the caller then uses the exact lexmin."""
    try:
        low = loose.lexmin().coalesce()
    except isl.Error:
        return None
    if low.n_basic_map() != 1 or not fd.domain().is_subset(low.domain()):
        return None
    pair = fd.reset_tuple_id(isl.dim_type.out).flat_range_product(low.reset_tuple_id(isl.dim_type.out))
    offsets = pair.apply_range(isl.Map("{ [e, l] -> [e - l] }")).range()
    hi = upper_constant(offsets)
    return (low, hi) if hi is not None else None


def _iteration_footprint(v: Variant, k: int, a, upto: int, width: int) -> isl.Map:
    """[loops outside L, L] -> the elements reference `a` of piece k touches in one iteration."""
    st = v.scop.statements[v.pieces[k].stmt]
    qp = project_prefix(v.piece_map(v.pieces[k], width), upto, width)
    return qp.reverse().apply_range(v.scop.access_map(st, a))


def _invariant(v: Variant, refs: list, pos: int, width: int) -> bool:
    """The elements `refs` use in one iteration of L are those they use in all of them."""
    per_iter = foot = None
    for k, a, _, f, _ in refs:
        one = _iteration_footprint(v, k, a, pos + 1, width)
        per_iter = one if per_iter is None else per_iter.union(one)
        foot = f if foot is None else foot.union(f)
    drop = per_iter.domain().identity().project_out(isl.dim_type.out, pos, 1)
    return drop.apply_range(foot).is_subset(per_iter)


def _independent(v: Variant, refs: list, pos: int, width: int) -> bool:
    """No reference's subscripts use an iterator that L's schedule value is made of: each element
    stays the same while L runs, where some iterations run the reference and others do not.
    After a jam of `j` over `k <= j` the copy of `C[j + 1]` also runs at k = j + 1, where `C[j]`
    does not, so not every iteration of k touches every element (probe 159 G3)."""
    for k, a, *_ in refs:
        st = v.scop.statements[v.pieces[k].stmt]
        at_l = v.piece_map(v.pieces[k], width)
        at_l = at_l.project_out(isl.dim_type.out, pos + 1, width - pos - 1).project_out(isl.dim_type.out, 0, pos)
        made_of, used = _iterators_in(at_l), _iterators_in(v.scop.access_map(st, a))
        if made_of is None or used is None or made_of & used:
            return False
    return True


def _iterators_in(m: isl.Map) -> set[int] | None:
    """The input dims the values of single-valued `m` are computed from (not those its domain
    merely constrains), None where m is not a function."""
    if not m.is_single_valued():
        return None
    out: set[int] = set()
    pma = pw_function(m)
    for k in range(m.dim(isl.dim_type.out)):
        for _, aff in pma.get_pw_aff(k).get_pieces():
            out |= {d for d in range(m.dim(isl.dim_type.in_)) if aff.involves_dims(isl.dim_type.in_, d, 1)}
    return out


def _reused(v: Variant, refs: list, pos: int, width: int) -> bool:
    return _invariant(v, refs, pos, width) or _independent(v, refs, pos, width)


def _loops_not_indexing(v: Variant, pr: Promotion, access, array: str) -> str:
    """The hint: the loops around the statement whose iterations all reuse the elements
    (Volkov's `registers C at kk` after an unroll_jam of i)."""
    import re
    s = v.scop.statements[pr.stmt]
    used = {w for x in access.index for w in re.findall(r"[A-Za-z_]\w*", x)} & set(s.iterators)
    piece = next((q for q in v.pieces if q.stmt == pr.stmt), None)
    loops = [d for d in (piece.loops if piece is not None else ()) if not d.hidden]
    indexes = [bool({w for w in re.findall(r"[A-Za-z_]\w*", d.expr)} & used) for d in loops]
    names = [d.name for d, ix in zip(loops, indexes) if not ix]
    # (the copy holds what the loops inside it that index the array reach: of a constant size
    # only where those run a constant number of times, as after a tile)
    inner = names and any(indexes[[d.name for d in loops].index(names[-1]) + 1:])
    return f"promote at a loop that does not index {array}" + (f": {', '.join(map(to_user, names))}" if names else "") \
        + (f", once the loops inside it that index {array} are tiled to a constant size" if inner else "")


def invariant_refs(v: Variant, pr: Promotion, refs: list, pos: int, width: int, name: str) -> list:
    """registers: the references whose elements every iteration of L reuses.  Those that vary
    with L (BT's `rhs[i+1][j][p]` next to the accumulator `rhs[i][j][m]`, at p) stay in memory,
    as CHiLL's scalar replacement leaves them, provided they never touch a kept element while
    either is written: the registers are stored only after L."""
    if _reused(v, refs, pos, width):
        return refs
    kept = [r for r in refs if _reused(v, [r], pos, width)]
    varying = [r for r in refs if r not in kept]
    array = to_user(refs[0][1].array)
    if not kept:
        raise pr.error(f"'{array}' varies with loop '{to_user(name)}': registers keep data that every "
                       f"iteration of '{to_user(name)}' reuses", hint=_loops_not_indexing(v, pr, refs[0][1], array))
    shown = ", ".join(dict.fromkeys(written_ref(r[1], v.scop) for r in varying))
    if any(r[1].kind == "write" for r in refs):
        inside = kept[0][3]
        for r in kept[1:]:
            inside = inside.union(r[3])
        for r in varying:
            if not r[3].intersect(inside).is_empty():
                raise pr.error(f"{written_ref(r[1], v.scop)} varies with loop '{to_user(name)}' and reaches elements "
                               f"that {written_ref(kept[0][1], v.scop)} keeps in registers, one of them written",
                               hint=f"promote at a loop that does not index {array}")
    note_once(pr.file or "", pr.line, f"registers of '{array}' at '{to_user(name)}': {shown} "
              f"varies with '{to_user(name)}' and stays in memory")
    return kept


def written_ref(a, scop=None) -> str:
    """A reference as the code writes it (`B[i / 2][j % 4]`, not the model's `floor`/`mod`)."""
    if scop is not None:
        from looptx import ir
        ref = next((r for s in scop.statements for r in ir.walk(s.body) if isinstance(r, ir.Ref) and r.ref == a.ref),
                   None)
        if ref is not None:
            return to_user(ir.to_c(ref))
    return to_user(f"{a.array}[{']['.join(a.index)}]") if a.index else to_user(a.array)



def shared_across_threads(pr: Promotion, refs: list, plen: int, name: str, array: str) -> None:
    """Registers are each thread's own: refused where, in one run of the copy's scope (the same
    values of the loops around it), an element that one thread writes is one another thread
    reads or writes too.  A thread would keep its own copy and never see the other's value, and
    the stores would write stale values over it (a wave stencil's `B[i][k+1][j]` from
    `B[i][k][j-1..j+1]`, registers of B at k in threads of j: probe 193 G1)."""
    writes = [f for _, a, _, f, _ in refs if a.kind == "write"]
    if not writes:
        return
    touched = refs[0][3]
    for _, _, _, f, _ in refs[1:]:
        touched = touched.union(f)
    written = writes[0]
    for f in writes[1:]:
        written = written.union(f)
    pairs = written.apply_range(touched.reverse())
    for d in range(plen):
        pairs = pairs.equate(isl.dim_type.in_, d, isl.dim_type.out, d)
    pairs = pairs.subtract(isl.Map.identity(pairs.get_space()))
    if not pairs.is_empty():
        raise pr.error(f"registers of '{array}' at '{to_user(name)}' would give each thread its own copy of elements "
                       "that other threads of the kernel write in the same run of that loop: a thread would not see "
                       "their values, and its stores would write stale ones over them",
                       hint=f"copy '{array}' in shared memory at '{to_user(name)}' (the shared step, CUDA-CHiLL's "
                            f"copy_to_shared), or make the register copy at a loop inside '{to_user(name)}'")
