"""Promotions: registers (scalar / small register array replacement) and data copies (a local
or __shared__ buffer), planned on the final Variant.

A promotion of array A at loop L redirects *every* reference to A inside its scope (the pieces
that share L) to a buffer, which is loaded before the scope and stored after it when written.
Since nothing else can touch A while the scope runs, the result is exact; what must hold is
checked here: the footprint is a box of constant size (and, for registers, invariant in L).
"""
from __future__ import annotations

import math

from dataclasses import dataclass, field, replace

import islpy as isl

from looptx import ir

from looptx.errors import RecipeError, note_once
from looptx.frontend.names import to_user
from looptx.poly import schedule as S
from looptx.poly.known_values import soft_sizes_hint
from looptx.poly.deps import upper_constant
from looptx.poly.budget import isl_budget
from looptx.poly.gpu import mappings
from looptx.poly.gpu_collapse import independent, threads_around
from looptx.poly.variant import Variant
from looptx.poly.register_scope import per_thread_scope, thread_positions
from looptx.poly.copy_elements import copy_layout, exposed_reads
from looptx.poly.promote_checks import (check_slots, check_unguarded, invariant_refs, register_stride,
                                         shared_across_threads, tile_low, written_ref)

MAX_REGISTERS = 256
MAX_BUFFER = 1 << 24
SHARED_BYTES = 48 * 1024           # static __shared__ limit per block on every CUDA device
MAX_OPERATIONS = 20_000_000        # isl operations per promotion (a few seconds)


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
    align: int = 0                # CUDA-CHiLL's copy_to_shared alignment (see row_padding)
    layout: tuple[int, ...] = ()  # the array's subscripts in the buffer's order, outermost first

    def error(self, what: str, hint: str | None = None) -> RecipeError:
        return RecipeError(what, hint=hint, file=self.file, line=self.line, step=self.step,
                           step_name=self.step_name)


def row_padding(row: int, align: int) -> int:
    """Elements CUDA-CHiLL adds to a shared buffer's row of `row` for its alignment argument
    (datacopy_privatized's padding): a positive one rounds the row up to a multiple of it
    (mpeg4's 16: 47 -> 48), a negative one grows it until it shares no factor with it, so that
    a column's elements fall in different banks (mm.lua's -16: 16 -> 17, 47 stays 47)."""
    if align > 0:
        return -row % align
    pad = 0
    while align < 0 and math.gcd(row + pad, -align) != 1:
        pad += 1
    return pad


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
    owner: int = -1               # a piece of the scope (its kernel owns the copy)
    keep: int = 0                 # schedule positions shared with the scope (prefix length)
    rank: int = 0
    per_thread: bool = False      # registers of each GPU thread, loaded at a block-level loop


@dataclass
class Sync:
    """A block-wide barrier: one instance per iteration of the loops in its prefix."""
    name: str
    domain: isl.Set
    schedule: isl.Map
    prefix_len: int
    owner: int = -1
    key: tuple = ()


@dataclass(frozen=True)
class Buffer:
    name: str
    ctype: str
    sizes: tuple[int, ...]        # () = scalar
    kind: str
    pad: int = 0
    lead: int = 0                 # leading per-thread dimensions (kept by sequential C only)
    spelled_ctype: str = ""       # the array's type as the user's file spells it


@dataclass
class Plan:
    variant: Variant                                # with positions rescaled to make room
    width: int
    copies: list[Copy] = field(default_factory=list)
    buffers: list[Buffer] = field(default_factory=list)
    redirect: dict = field(default_factory=dict)    # (piece index, ref) -> (buffer, isl map inst -> buffer)
    syncs: list[Sync] = field(default_factory=list)
    used_slots: dict = field(default_factory=dict)   # (prefix, side) -> promotions placed there

    def slot(self, prefix: tuple, side: str) -> int:
        """0, 1, 2, ... for the promotions that share one scope and side ('in' / 'out')."""
        key = (prefix, side)
        n = self.used_slots.get(key, 0)
        self.used_slots[key] = n + 1
        if n >= SPACING // 2 - 2:
            raise RecipeError("too many promotions at one loop", hint="promote fewer arrays there")
        return n

    def schedule(self) -> isl.UnionMap:
        u = self.variant.schedule_map(self.width)
        for c in self.copies:
            u = u.union(isl.UnionMap.from_map(c.schedule))
        for sy in self.syncs:
            u = u.union(isl.UnionMap.from_map(sy.schedule))
        return u

    def add_sync(self, prefix_dims: tuple, slot: int) -> None:
        """A barrier after the loops `prefix_dims` (a piece's dims up to a loop), at `slot`."""
        v = self.variant
        plen = len(prefix_dims)
        names = [f"p{k}" for k in range(plen)]
        sched = names + [str(slot)] + ["0"] * (self.width - plen - 1)
        key = tuple(d if isinstance(d, int) else d.name for d in prefix_dims)
        if any(sy.key == (key, slot) for sy in self.syncs):
            return                                  # one barrier serves every copy there
        name = f"LXS{len(self.syncs)}"
        # the barrier's instances: the prefix points that some piece under the prefix reaches
        dom, owner = None, -1
        for k, p in enumerate(v.pieces):
            if len(p.dims) > plen and p.prefix(plen) == tuple(d if isinstance(d, int) else d.name
                                                            for d in prefix_dims):
                r = v.piece_map(p, self.width).range().project_out(isl.dim_type.set, plen, self.width - plen)
                dom = r if dom is None else dom.union(r)
                owner = k if owner < 0 else owner
        if dom is None:
            return
        dom = dom.coalesce().set_tuple_name(name)
        smap = isl.Map(f"{v.scop.prefix}{{ {name}[{', '.join(names)}] -> [{', '.join(sched)}] }}").intersect_domain(dom)
        self.syncs.append(Sync(name, dom, smap, plen, owner, (key, slot)))


def promotions(v: Variant) -> list[Promotion]:
    return [x for x in v.extra if isinstance(x, Promotion)]


def _keep_positions(m: isl.Map, positions: list[int], width: int) -> isl.Map:
    ts = [f"t{k}" for k in range(width)]
    proj = isl.Map(f"{{ [{', '.join(ts)}] -> [{', '.join(ts[p] for p in positions)}] }}")
    return m.apply_range(proj)


def _fresh(name: str, taken: set[str]) -> str:
    out, k = name, 1
    while out in taken:
        out = f"{name}{k}"
        k += 1
    taken.add(out)
    return out


SPACING = 16


def _scale_position(v: Variant, key: tuple, pos: int) -> Variant:
    """Space the sibling positions at `pos` under prefix `key` by SPACING, so that the loads
    and stores placed around a loop never share a position with another loop's."""
    pieces = []
    for p in v.pieces:
        if len(p.dims) > pos and p.prefix(pos) == key:
            dims = list(p.dims)
            dims[pos] = SPACING * dims[pos]
            p = replace(p, dims=tuple(dims))
        pieces.append(p)
    return v.evolve(pieces=tuple(pieces))


def plan(v: Variant) -> Plan:
    proms = [per_thread_scope(v, pr) for pr in promotions(v)]
    taken = set(v.scop.params) | {a.name for a in v.scop.arrays}
    for s in v.scop.statements:
        taken |= set(s.iterators)
    # make room for copy-in/out around each registers scope before computing anything
    # (in every copy of the loop that split/peel made: each copy gets its own loads and stores,
    # and an unspaced copy would put them on its statements' positions, in no defined order)
    scaled: set = set()
    for pr in proms:
        if pr.kind not in ("registers", "shared"):
            continue
        try:
            located = S.locate(v, pr.stmt, pr.at, hidden=True)
        except RecipeError as e:
            raise pr.error(e.what, e.hint) from None
        for k, pos in located:
            at = pos - 1 if pr.kind == "registers" else pos + 1
            key = (pr.kind, v.pieces[k].prefix(at))
            if key not in scaled:
                v = _scale_position(v, key[1], at)
                scaled.add(key)
    width = v.width
    for pr in proms:           # every schedule must have the same length (pitfall 8)
        pos = max(p for _, p in S.locate(v, pr.stmt, pr.at, hidden=True))
        rank = v.scop.array(pr.array).rank if pr.array and pr.array in {a.name for a in v.scop.arrays} else 8
        plen = pos if pr.kind == "registers" else pos + 1
        width = max(width, plen + 2 + 2 * rank, (v.width + 2 + 2 * rank) if pr.kind == "registers" else 0)
    out = Plan(v, width)
    for n, pr in enumerate(proms):
        gathered = next((s for s in v.scop.statements for a in s.accesses
                         if a.array == pr.array and any(ir.is_gathered(x) for x in a.index)), None)
        if gathered is not None:
            raise pr.error(f"'{pr.array}' is read through an index array in S{gathered.id} (`{gathered.text}`): "
                           f"which of its elements loop '{pr.at}' reads is known only as it runs",
                           hint=f"{pr.kind} another array, or leave '{pr.array}' in global memory")
        # footprints of skewed or many-statement scopes can grow without bound in isl: give each
        # promotion an operation budget and report an overrun at its recipe step
        try:
            with isl_budget(MAX_OPERATIONS):
                _plan_one(out, pr, n, taken)
        except isl.Error as e:
            reason = str(e).splitlines()[0] if str(e) else "isl error"
            raise pr.error(f"the footprint of '{pr.array}' in loop '{pr.at}' is too complex to compute "
                           f"({reason.split('failed: ')[-1].split(' in /')[0]})",
                           hint=f"{pr.kind} at another loop (an inner tile loop gives a smaller footprint) "
                                "or drop this step") from None
    return out


def buffer_bytes(b: Buffer) -> int:
    """Bytes of a buffer, its rows padded."""
    from looptx.runtime.harness import ctype_info
    n = ctype_info(b.ctype)[0].itemsize
    for d in b.sizes[:-1]:
        n *= d
    return n * ((b.sizes[-1] if b.sizes else 1) + b.pad)


def check_shared_total(out: Plan, kernels) -> None:
    """The shared buffers of one kernel fit a block together, not only each on its own (two
    25 KB tiles passed, and ptxas refused the .cu)."""
    sizes = {b.name: buffer_bytes(b) for b in out.buffers if b.kind == "shared"}
    for K in kernels:
        mine: dict[str, Promotion] = {}
        for c in out.copies:
            buf = c.dst_array if c.direction == "in" else c.src_array
            if c.owner in K.pieces and buf in sizes:
                mine.setdefault(buf, c.promotion)
        total = sum(sizes[b] for b in mine)
        if total > SHARED_BYTES:
            last = max(mine.values(), key=lambda pr: pr.step or 0)
            parts = ", ".join(f"{b} {sizes[b]}" for b in sorted(mine))
            raise last.error(f"the shared copies of one kernel need {total} bytes together ({parts}), and a "
                             f"block may use {SHARED_BYTES}", hint="use smaller tiles, or copy fewer arrays "
                                                                   "to shared memory")


def _plan_one(out: Plan, pr: Promotion, n: int, taken: set[str]) -> None:
    """One promotion; a loop that split/peel turned into several copies gets one buffer scope
    (load, use, store) per copy."""
    v = out.variant
    try:
        name = S.resolve_name(v, pr.stmt, pr.at, hidden=True)
        group = S.sharing(v, pr.stmt, name, hidden=True)
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


def _apart(refs, d: int, rank: int, scop) -> str:
    """The references whose own footprints have a constant size along dimension d where their
    union has none, as the user wrote them (`A[i][k], A[j][k]`); '' otherwise."""
    texts = []
    for _, a, _, f, _ in refs:
        fd = f.project_out(isl.dim_type.out, d + 1, rank - d - 1).project_out(isl.dim_type.out, 0, d)
        if upper_constant(fd.reverse().apply_range(fd).deltas()) is None:
            return ""
        texts.append(written_ref(a, scop))
    texts = list(dict.fromkeys(texts))
    return (", ".join(texts[:3]) + (", ..." if len(texts) > 3 else "")) if len(texts) > 1 else ""


def _carries_nothing(v: Variant, array: str, group) -> bool:
    """A scalar of the function that carries no value into the region or out of it, all of
    whose references lie in this copy of the loop: the loop's own writes set it before any read,
    so a copy's load before the loop would read an indeterminate value (gcc -Wuninitialized,
    probe 70), its store after it would be dead, and the function's variable would be left
    unused (-Wunused-variable)."""
    from looptx.poly.privatize import scratch
    scop = v.scop
    if scop.array(array).rank or array not in scratch(scop):
        return False
    inside = {k for k, _ in group}
    return all(k in inside for k, q in enumerate(v.pieces)
               if any(a.array == array for a in scop.statements[q.stmt].accesses))


def _as_written(scop, name: str) -> str:
    """An array as a copy step accepts it: a member of an array of structs as `p.pos`, a
    member the region reads as a variable as its chain (`g->hy`)."""
    r = scop.record(name)
    if r is not None:
        return r.base + r.path
    return scop.member_chains().get(name) or to_user(name)


def _plan_scope(out: Plan, pr: Promotion, n: str, taken: set[str], name: str, group, wide: bool = True) -> None:
    """`wide`: a shared copy inside a kernel's thread loops holds what the block reads, where
    that fits and the loops around it are the same for every thread (gpu_collapse.py)."""
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
        members = [r.base + r.path for r in scop.records if r.base == array]
        if members:
            raise pr.error(f"'{to_user(array)}' is an array of structs, which a copy step copies one "
                           f"member at a time", hint=f"a step for each member the region uses: "
                           f"{', '.join(members)}") from None
        raise pr.error(f"there is no array '{to_user(array)}' in the region",
                       hint=f"arrays: {', '.join(_as_written(scop, a.name) for a in scop.arrays if a.rank)}") from None
    if arr.volatile:
        raise pr.error(f"'{_as_written(scop, array)}' is volatile: a copy would read and write it "
                       "fewer times than the region does, and a volatile access must happen as written",
                       hint="drop the step, or the volatile qualifier where the accesses need not happen each")
    plen = pos if pr.kind == "registers" else pos + 1
    width = out.width
    threads = thread_positions(v, group, pos) if pr.kind == "registers" else []
    if pr.kind == "registers" and not threads and _carries_nothing(v, array, group):
        note_once(pr.file or scop.filename, pr.line or scop.region_span[0],
                  f"registers of '{to_user(array)}' at '{to_user(name)}' leave it as it is: it is a local that "
                  f"the loop sets before it reads it and nothing reads after it, a register already (a copy "
                  f"would load an indeterminate value)")
        return True
    around = threads_around(v, group, pos) if pr.kind == "shared" and wide else []
    if around:
        reached = None
        for k, _ in group:
            r = _keep_positions(v.piece_map(v.pieces[k], width), list(range(plen)), width).range()
            reached = r if reached is None else reached.union(r)
        around = around if independent(reached, around) else []
    narrow = (lambda: _plan_scope(out, pr, n, taken, name, group, wide=False)) if around else None
    key = [p for p in range(plen) if p not in around] + threads
    refs = []                                   # (piece index, access, instance -> key dims)
    read_at = {}                # (piece, ref) -> (key -> element, time -> element) where C evaluates it
    foot = loose = None
    for k, _ in group:
        q = v.pieces[k]
        qm = v.piece_map(q, width)
        qp = _keep_positions(qm, key, width)
        qr = _keep_positions(isl.Map(f"{scop.prefix}{{ {v.piece_text(q, width)} }}")
                             .intersect_params(v.context), key, width)
        st = scop.statements[q.stmt]
        for a in st.accesses:
            if a.array != array:
                continue
            if (k, a.ref) in out.redirect:
                raise pr.error(f"'{_as_written(scop, array)}' is already copied (in a tile buffer, shared memory or "
                               f"registers) by an earlier step in this loop nest, and looptx makes one copy of a "
                               f"reference (no {pr.kind} of a copy)",
                               hint="keep one of the two steps for this array (a tile buffer or registers), "
                                    "or copy other arrays")
            if a.kind == "write" or a.inexact:
                check_unguarded(pr, scop, st, a)
            f = qp.reverse().apply_range(scop.access_map(st, a))
            # a read C evaluates only in a `?:` branch loads what that branch reads (probe 204 G3)
            evaluated_access = scop.access_map(st, a, guarded=True)
            read_at[(k, a.ref)] = (qp.reverse().apply_range(evaluated_access), qm.reverse().apply_range(evaluated_access))
            # the same footprint without the iteration domain: for tiled loops, the whole tile
            target = f"{a.array}[{', '.join(a.index)}]" if arr.rank else f"{a.array}[]"
            fr = qr.reverse().apply_range(isl.Map(f"{scop.prefix}{{ {st.tuple_text()} -> {target} }}"))
            refs.append((k, a, qp, f, fr))
    if not refs:
        return False
    if pr.kind == "registers" and not threads:
        refs = invariant_refs(v, pr, refs, pos, width, name)
    if threads:
        shared_across_threads(pr, refs, plen, name, _as_written(scop, array))
    # what the copy loads (the elements the scope reads or may leave unwritten) and what it
    # stores back (those it writes): an element the scope sets unconditionally and does not read
    # needs no load (probe 137 G3)
    fetched = stored = None
    # in C, a read of an element that the scope wrote before it needs no load (probe 204 G2);
    # (in a kernel, threads order the scope's instances otherwise)
    exposed = exposed_reads([a for _, a, _, _, _ in refs], [read_at[(k, a.ref)][1] for k, a, _, _, _ in refs],
                             key, width) \
        if pr.kind in ("datacopy", "registers") and not threads and not around and not list(mappings(v)) else None
    for i, (k, a, _, f, fr) in enumerate(refs):
        foot = f if foot is None else foot.union(f)
        loose = fr if loose is None else loose.union(fr)
        if a.kind == "write":
            stored = f if stored is None else stored.union(f)
        if a.kind != "write" or a.guard:
            g = f if a.kind == "write" else exposed[i] if exposed is not None else read_at[(k, a.ref)][0]
            fetched = g if fetched is None else fetched.union(g)
    # (one piece for neighbours j - 1, j, j + 1: the copy's element is then e - tx, not a choice)
    foot, stored, fetched = (m.coalesce() if m is not None else None for m in (foot, stored, fetched))
    loaded = fetched is not None
    if foot.is_empty():
        return True          # the references run at no point of these sizes: nothing to copy
    rank = arr.rank
    lows, sizes = [], []
    lead_lows, lead_sizes = [], []
    nk = len(key)
    for j in range(len(threads)):
        col = plen + j
        kd = isl.Map.from_range(foot.domain()).move_dims(isl.dim_type.in_, 0, isl.dim_type.out, 0, plen)
        kd = kd.project_out(isl.dim_type.out, col - plen + 1, nk - col - 1).project_out(isl.dim_type.out, 0, col - plen)
        lead_lows.append(kd.lexmin())
        hi = upper_constant(kd.reverse().apply_range(kd).deltas())
        if hi is None:
            raise pr.error(f"the threads of loop '{name}' have no constant extent", hint="tile the thread loops")
        lead_sizes.append(hi + 1)
    strides = []
    for d in range(rank):
        one = lambda m: m.project_out(isl.dim_type.out, d + 1, rank - d - 1).project_out(isl.dim_type.out, 0, d)
        fd = one(foot)
        box = tile_low(fd, one(loose))
        if box is not None:
            low, hi = box
        else:
            low = fd.lexmin().coalesce()
            hi = upper_constant(fd.reverse().apply_range(fd).deltas())
        lows.append(low)
        if hi is None and narrow:
            return narrow()
        if hi is None:
            arr = out.variant.scop.array(array)
            apart = _apart(refs, d, rank, out.variant.scop)
            if apart:
                raise pr.error(f"the references {apart} of '{_as_written(out.variant.scop, array)}' in loop "
                               f"'{to_user(name)}' each reach a tile of constant size, but the tiles lie a varying "
                               "distance apart (syrk's A[i][k] and A[j][k]): one buffer cannot hold both",
                               hint=f"{pr.kind} another array, or leave '{_as_written(out.variant.scop, array)}' "
                                    "in global memory")
            # a linearized array's model dimensions are not the subscripts the user wrote
            which = f" (its subscript {d + 1}, counting from 1)" if rank > 1 and not arr.strides else ""
            raise pr.error(f"the footprint of '{_as_written(out.variant.scop, array)}' in loop '{to_user(name)}' "
                           f"has no constant size{which}",
                           hint="tile the loops first, or fix the sizes with --define" + soft_sizes_hint(out.variant.scop))
        step = register_stride(fd, low) if pr.kind == "registers" else 1
        strides.append(step)
        sizes.append(hi // step + 1)
    total = 1
    for s in sizes:
        total *= s
    order = copy_layout(pr, rank, arr)
    pad = pr.pad + row_padding(sizes[order[-1]] + pr.pad if sizes else 1, pr.align)
    if pr.kind == "shared":
        nbytes = buffer_bytes(Buffer("", arr.ctype, tuple(sizes), "shared", pad))
        if (nbytes > SHARED_BYTES or total > MAX_BUFFER) and narrow:
            return narrow()
        if nbytes > SHARED_BYTES:
            raise pr.error(f"the footprint of '{array}' in loop '{name}' needs {nbytes} bytes of shared "
                           f"memory (a block may use {SHARED_BYTES})", hint="use smaller tiles")
    limit = MAX_REGISTERS if pr.kind == "registers" else MAX_BUFFER
    if total > limit:
        raise pr.error(f"the footprint of '{array}' in loop '{name}' has {total} elements "
                       f"(at most {limit} for {pr.kind})", hint="use smaller tiles")
    suffix = {"registers": "_r", "datacopy": "_buf", "shared": "_sh"}[pr.kind]
    buf = _fresh(array + suffix, taken)
    # dimensions of extent 1 disappear from register arrays (C[i][j..j+3] -> C_r[4]); per-thread
    # registers carry leading thread dimensions that only sequential C needs
    kept = [d for d in order if sizes[d] > 1 or pr.kind != "registers"]
    dims = lead_sizes + [sizes[d] for d in kept]
    out.buffers.append(Buffer(buf, arr.ctype, tuple(dims), pr.kind, pad, len(lead_sizes),
                              arr.spelled_ctype))
    key_names = [f"p{k}" for k in key] if around else [f"p{k}" for k in range(nk)]
    elem_names = [f"e{d}" for d in range(rank)]
    low_names = [f"l{d}" for d in range(rank)]
    lead_names = [f"m{j}" for j in range(len(threads))]
    # key -> [lows of the elements..., lows of the threads...]
    to_prefix = isl.Map(f"{{ [{', '.join(key_names)}] -> [{', '.join(key_names[:plen])}] }}")
    lo = None
    for m in lows:
        lo = m if lo is None else lo.flat_range_product(m)
    for m in lead_lows:
        lm = to_prefix.apply_range(m)
        lo = lm if lo is None else lo.flat_range_product(lm)
    thr_vals = isl.Map(f"{{ [{', '.join(key_names)}] -> [{', '.join(key_names[plen:])}] }}")
    idx = [f"{key_names[plen + j]} - {lead_names[j]}" for j in range(len(threads))] + \
          [f"{elem_names[d]} - {low_names[d]}" if strides[d] == 1 else
           f"floor(({elem_names[d]} - {low_names[d]})/{strides[d]})" for d in kept]
    src_names = elem_names + key_names[plen:] + low_names + lead_names
    offset = isl.Map(f"{{ [{', '.join(src_names)}] -> {buf}[{', '.join(idx)}] }}")

    def target_of(elem_map: isl.Map, key_map: isl.Map) -> isl.Map:
        """instance -> buffer element, from instance -> element and instance -> key dims."""
        parts = elem_map.reset_tuple_id(isl.dim_type.out)
        if threads:
            parts = parts.flat_range_product(key_map.apply_range(thr_vals))
        if lo is not None:
            parts = parts.flat_range_product(key_map.apply_range(lo))
        return parts.reset_tuple_id(isl.dim_type.out).apply_range(offset)
    for k, a, qp, _, _ in refs:
        st = scop.statements[v.pieces[k].stmt]
        out.redirect[(k, a.ref)] = (buf, target_of(scop.access_map(st, a), qp))
    # copy statements: domain [prefix..., element...]; a wide copy's prefix has the thread
    # values too, each of which makes the copy in the kernel's one-thread-at-a-time schedule.
    # The stores write back only the elements the scope writes: an element it only reads may be
    # another thread's to write (a store of the loaded value is a race all the same)
    def copy_domain(elements: isl.Map) -> isl.Set:
        return elements.wrap().flatten() if not around else isl.Map(
            f"{scop.prefix}{{ [{', '.join(f'p{k}' for k in range(plen))}] -> [{', '.join(key_names)}] }}"
        ).intersect_domain(reached).apply_range(elements).wrap().flatten()
    doms = {"in": copy_domain(fetched) if fetched is not None else None,
            "out": copy_domain(stored) if stored is not None else None}
    if around:
        key_names = [f"p{k}" for k in range(plen)]
    written = any(a.kind == "write" for _, a, _, _, _ in refs)
    half = SPACING // 2
    if pr.kind == "registers":
        base = v.pieces[group[0][0]].dims[pos - 1]
        where = v.pieces[group[0][0]].prefix(pos)
        slots = [("in", base - 1 - out.slot(where, "in"))] if loaded else []
        if written:
            slots.append(("out", base + 1 + out.slot(where, "out")))
        check_slots(v, pr, group[0][0], pos - 1, slots, name)
        keep = pos - 1
    elif pr.kind == "shared":
        # inside each iteration of L: barrier, loads, barrier, compute, barrier, stores
        after = [v.pieces[k].dims[pos + 1] for k, _ in group]
        first, last = min(after), max(after)
        where = v.pieces[group[0][0]].prefix(pos + 1)
        slots = [("in", first - half + 1 + out.slot(where, "in"))] if loaded else []
        if written:
            slots.append(("out", last + 2 + out.slot(where, "out")))
        keep = pos + 1
        prefix_dims = v.pieces[group[0][0]].dims[:pos + 1]
        out.add_sync(prefix_dims, first - half)
        out.add_sync(prefix_dims, first - 1)
        if written:
            out.add_sync(prefix_dims, last + 1)
            # and after the stores, which the block shares out by elements, not as the
            # statements do: code after the loop reads what another thread stored (probe 137 G1)
            out.add_sync(prefix_dims, last + half)
    else:
        after = [v.pieces[k].dims[pos + 1] for k, _ in group]
        where = v.pieces[group[0][0]].prefix(pos + 1)
        slots = [("in", min(after) - 1 - 2 * out.slot(where, "in"))] if loaded else []
        if written:
            slots.append(("out", max(after) + 1 + out.slot(where, "out")))
        keep = pos + 1
    for direction, slot in slots:
        cname = f"LXC{n}{direction}"
        d = doms[direction].set_tuple_name(cname)
        sched = ["0"] * width
        for k in range(keep):
            sched[k] = key_names[k]
        sched[keep] = str(int(slot))
        for j, tp in enumerate(threads):
            sched[tp] = key_names[plen + j]        # thread values where the threads are mapped
        base = max(threads) + 1 if threads else keep + 1
        for e_i, e in enumerate(elem_names):
            sched[base + 2 * e_i] = e
        args = ", ".join(key_names + elem_names)
        smap = isl.Map(f"{scop.prefix}{{ {cname}[{args}] -> [{', '.join(sched)}] }}").intersect_domain(d)
        elem = isl.Map(f"{scop.prefix}{{ {cname}[{args}] -> {array}[{', '.join(elem_names)}] }}").intersect_domain(d)
        keyed = isl.Map(f"{scop.prefix}{{ {cname}[{args}] -> [{', '.join(key_names[k] for k in key)}] }}") \
            .intersect_domain(d) if around else \
            isl.Map(f"{scop.prefix}{{ {cname}[{args}] -> [{', '.join(key_names)}] }}").intersect_domain(d)
        target = target_of(elem, keyed)
        src, dst = (elem, target) if direction == "in" else (target, elem)
        out.copies.append(Copy(cname, d, smap, src, dst, array if direction == "in" else buf,
                               buf if direction == "in" else array, direction, pr,
                               group[0][0], keep, rank, bool(threads)))
    return True
