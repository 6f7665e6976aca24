"""Promotions: registers (scalar / small register array replacement) and data copies (a local
or __shared__ buffer), planned on the final Variant.

A promotion of array A at loop L redirects *every* reference to A inside its scope (the pieces
that share L) to a buffer, which is loaded before the scope and stored after it when written.
Since nothing else can touch A while the scope runs, the result is exact; what must hold is
checked here: the footprint is a box of constant size (and, for registers, invariant in L).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

import islpy as isl

from looptx.errors import RecipeError
from looptx.poly import schedule as S
from looptx.poly.deps import upper_constant
from looptx.poly.variant import LoopDim, Variant

MAX_REGISTERS = 256
MAX_BUFFER = 1 << 24


@dataclass(frozen=True)
class Promotion:
    kind: str                     # 'registers' | 'datacopy' | 'shared'
    stmt: int
    array: str | None
    at: str
    pad: int = 0
    step: int | None = None       # where the recipe asked for it (errors point there)
    step_name: str | None = None
    file: str | None = None
    line: int | None = None

    def error(self, what: str, hint: str | None = None) -> RecipeError:
        return RecipeError(what, hint=hint, file=self.file, line=self.line, step=self.step,
                           step_name=self.step_name)


@dataclass
class Copy:
    name: str                     # isl tuple name of the copy statement
    domain: isl.Set               # [prefix..., element...]
    schedule: isl.Map             # domain -> padded schedule
    src: isl.Map                  # domain -> source array element
    dst: isl.Map                  # domain -> destination element
    src_array: str
    dst_array: str
    direction: str                # 'in' | 'out'
    promotion: Promotion


@dataclass(frozen=True)
class Buffer:
    name: str
    ctype: str
    sizes: tuple[int, ...]        # () = scalar
    kind: str
    pad: int = 0


@dataclass
class Plan:
    variant: Variant                                # with positions rescaled to make room
    width: int
    copies: list[Copy] = field(default_factory=list)
    buffers: list[Buffer] = field(default_factory=list)
    redirect: dict = field(default_factory=dict)    # (piece index, ref) -> (buffer, isl map inst -> buffer)

    def schedule(self) -> isl.UnionMap:
        u = self.variant.schedule_map(self.width)
        for c in self.copies:
            u = u.union(isl.UnionMap.from_map(c.schedule))
        return u


def promotions(v: Variant) -> list[Promotion]:
    return [x for x in v.extra if isinstance(x, Promotion)]


def _project_prefix(m: isl.Map, length: int, width: int) -> isl.Map:
    return m.project_out(isl.dim_type.out, length, width - length)


def _fresh(name: str, taken: set[str]) -> str:
    out, k = name, 1
    while out in taken:
        out = f"{name}{k}"
        k += 1
    taken.add(out)
    return out


def _scale_position(v: Variant, key: tuple, pos: int) -> Variant:
    """Space the sibling positions at `pos` under prefix `key` by 4, so that a load (base - 1)
    and a store (base + 1) never share a position with another loop's load or store."""
    pieces = []
    for p in v.pieces:
        if len(p.dims) > pos and p.prefix(pos) == key:
            dims = list(p.dims)
            dims[pos] = 4 * dims[pos]
            p = replace(p, dims=tuple(dims))
        pieces.append(p)
    return v.evolve(pieces=tuple(pieces))


def plan(v: Variant) -> Plan:
    proms = promotions(v)
    taken = set(v.scop.params) | {a.name for a in v.scop.arrays}
    for s in v.scop.statements:
        taken |= set(s.iterators)
    # make room for copy-in/out around each registers scope before computing anything
    for pr in proms:
        if pr.kind == "registers":
            try:
                k, pos = S.locate(v, pr.stmt, pr.at)[0]
            except RecipeError as e:
                raise pr.error(e.what, e.hint) from None
            v = _scale_position(v, v.pieces[k].prefix(pos - 1), pos - 1)
    width = v.width
    for pr in proms:           # every schedule must have the same length (pitfall 8)
        k, pos = S.locate(v, pr.stmt, pr.at)[0]
        rank = v.scop.array(pr.array).rank if pr.array and pr.array in {a.name for a in v.scop.arrays} else 8
        plen = pos if pr.kind == "registers" else pos + 1
        width = max(width, plen + 2 + 2 * rank)
    out = Plan(v, width)
    for n, pr in enumerate(proms):
        _plan_one(out, pr, n, taken)
    return out


def _plan_one(out: Plan, pr: Promotion, n: int, taken: set[str]) -> None:
    """One promotion; a loop that split/peel turned into several copies gets one buffer scope
    (load, use, store) per copy."""
    v = out.variant
    try:
        name = S.resolve_name(v, pr.stmt, pr.at)
        group = S.sharing(v, pr.stmt, name)
    except RecipeError as e:
        raise pr.error(e.what, e.hint) from None
    copies: dict[tuple, list] = {}
    for k, pos in group:
        copies.setdefault(v.pieces[k].prefix(pos), []).append((k, pos))
    used = [_plan_scope(out, pr, f"{n}_{m}", taken, name, members)
            for m, members in enumerate(copies.values())]
    if not any(used):
        raise pr.error(f"no reference to '{pr.array}' inside loop '{name}'",
                       hint="promote an array that the loop's statements use")


def _plan_scope(out: Plan, pr: Promotion, n: str, taken: set[str], name: str, group) -> None:
    v = out.variant
    scop = v.scop
    pos = group[0][1]
    array = pr.array
    if array is None:
        writes = [a.array for a in scop.statements[pr.stmt].accesses if a.kind == "write"]
        array = writes[0]
    try:
        arr = scop.array(array)
    except KeyError:
        raise pr.error(f"there is no array '{array}' in the region",
                       hint=f"arrays: {', '.join(a.name for a in scop.arrays)}") from None
    plen = pos if pr.kind == "registers" else pos + 1
    width = out.width
    refs = []                                   # (piece index, access, instance -> prefix)
    foot = None
    for k, _ in group:
        q = v.pieces[k]
        qm = v.piece_map(q, width)
        qp = _project_prefix(qm, plen, width)
        st = scop.statements[q.stmt]
        for a in st.accesses:
            if a.array != array:
                continue
            if (k, a.ref) in out.redirect:
                raise pr.error(f"'{array}' is already promoted in this scope",
                               hint="promote an array once per loop nest")
            refs.append((k, a, qp))
            f = qp.reverse().apply_range(scop.access_map(st, a))
            foot = f if foot is None else foot.union(f)
    if foot is None or foot.is_empty():
        return False
    if pr.kind == "registers":
        _check_invariant(v, pr, group, array, pos, width, foot, name)
    rank = arr.rank
    lows, sizes = [], []
    for d in range(rank):
        fd = foot.project_out(isl.dim_type.out, d + 1, rank - d - 1).project_out(isl.dim_type.out, 0, d)
        lows.append(fd.lexmin())
        widths = fd.reverse().apply_range(fd).deltas()
        hi = upper_constant(widths)
        if hi is None:
            raise pr.error(f"the footprint of '{array}' in loop '{name}' has no constant size "
                           f"(dimension {d + 1})", hint="tile the loops first, or fix the sizes with --define")
        sizes.append(hi + 1)
    total = 1
    for s in sizes:
        total *= s
    limit = MAX_REGISTERS if pr.kind == "registers" else MAX_BUFFER
    if total > limit:
        raise pr.error(f"the footprint of '{array}' in loop '{name}' has {total} elements "
                       f"(at most {limit} for {pr.kind})", hint="use smaller tiles")
    scalar = pr.kind == "registers" and total == 1
    suffix = {"registers": "_r", "datacopy": "_buf", "shared": "_sh"}[pr.kind]
    buf = _fresh(array + suffix, taken)
    out.buffers.append(Buffer(buf, arr.ctype, () if scalar else tuple(sizes), pr.kind, pr.pad))
    lo = None
    for m in lows:
        lo = m if lo is None else lo.flat_range_product(m)
    prefix_names = [f"p{k}" for k in range(plen)]
    elem_names = [f"e{d}" for d in range(rank)]
    low_names = [f"l{d}" for d in range(rank)]
    # dimensions of extent 1 disappear from register arrays (C[i][j..j+3] -> C_r[4])
    kept = [d for d in range(rank) if sizes[d] > 1 or pr.kind != "registers"]
    out.buffers[-1] = replace(out.buffers[-1], sizes=() if scalar else tuple(sizes[d] for d in kept))
    if scalar:
        offset = isl.Map(f"{{ [{', '.join(elem_names + low_names)}] -> {buf}[] }}")
    else:
        idx = ", ".join(f"{elem_names[d]} - {low_names[d]}" for d in kept)
        offset = isl.Map(f"{{ [{', '.join(elem_names + low_names)}] -> {buf}[{idx}] }}")
    if rank == 0:
        offset = isl.Map(f"{{ {array}[] -> {buf}[] }}")
    for k, a, qp in refs:
        st = scop.statements[v.pieces[k].stmt]
        acc = scop.access_map(st, a)
        inst = acc.flat_range_product(qp.apply_range(lo)) if rank else acc
        out.redirect[(k, a.ref)] = (buf, inst.apply_range(offset))
    # copy statements: domain [prefix..., element...]
    dom = foot.wrap().flatten()
    written = any(a.kind == "write" for _, a, _ in refs)
    if pr.kind == "registers":
        base = v.pieces[group[0][0]].dims[pos - 1]
        slots = [("in", base - 1)] + ([("out", base + 1)] if written else [])
        keep = pos - 1
    else:
        after = [v.pieces[k].dims[pos + 1] for k, _ in group]
        slots = [("in", min(after) - 1)] + ([("out", max(after) + 1)] if written else [])
        keep = pos + 1
    for direction, slot in slots:
        cname = f"LXC{n}{direction}"
        d = dom.set_tuple_name(cname)
        sched = [f"p{k}" for k in range(keep)] + [str(int(slot))]
        for e in elem_names:
            sched += [e, "0"]
        sched += ["0"] * (width - len(sched))
        smap = isl.Map(f"{scop.prefix}{{ {cname}[{', '.join(prefix_names + elem_names)}] -> "
                       f"[{', '.join(sched)}] }}").intersect_domain(d)
        elem = isl.Map(f"{scop.prefix}{{ {cname}[{', '.join(prefix_names + elem_names)}] -> "
                       f"{array}[{', '.join(elem_names)}] }}").intersect_domain(d)
        pre = isl.Map(f"{scop.prefix}{{ {cname}[{', '.join(prefix_names + elem_names)}] -> "
                      f"[{', '.join(prefix_names)}] }}").intersect_domain(d)
        target = elem.flat_range_product(pre.apply_range(lo)).apply_range(offset) if rank else \
            elem.apply_range(offset)
        src, dst = (elem, target) if direction == "in" else (target, elem)
        out.copies.append(Copy(cname, d, smap, src, dst, array if direction == "in" else buf,
                               buf if direction == "in" else array, direction, pr))
    return True


def _check_invariant(v: Variant, pr: Promotion, group, array: str, pos: int, width: int,
                     foot: isl.Map, name: str) -> None:
    """registers: the elements used in one iteration of L must be those used in all of them."""
    scop = v.scop
    per_iter = None
    for k, _ in group:
        q = v.pieces[k]
        qp = _project_prefix(v.piece_map(q, width), pos + 1, width)
        st = scop.statements[q.stmt]
        for a in st.accesses:
            if a.array == array:
                f = qp.reverse().apply_range(scop.access_map(st, a))
                per_iter = f if per_iter is None else per_iter.union(f)
    drop = per_iter.domain().identity().project_out(isl.dim_type.out, pos, 1)
    every = drop.apply_range(foot)
    if not every.is_subset(per_iter):
        raise pr.error(f"'{array}' varies with loop '{name}': registers keep data that every "
                       f"iteration of '{name}' reuses", hint=f"promote at a loop that does not index {array}")
