"""GPU mapping: which loops become blocks and threads, the kernels they form, the checks that
make the mapping exact, and each kernel's schedule with its mapped dimensions pinned.

A kernel is the subtree of the outermost mapped loop (every statement in it belongs to it).
Loops outside stay on the host (one launch per iteration); block loops give blockIdx, thread
loops threadIdx (first = x).  A block or thread index is the loop's value minus its lowest
value given the loops outside it (host loops for blocks; host and block loops for threads), so
tiles that start anywhere map onto 0 .. size-1.  isl then pins those dimensions and emits exact
boundary guards (the PPCG way, ISLPY_NOTES A.6).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import islpy as isl

from looptx.errors import RecipeError, note_once
from looptx.frontend.names import to_user
from looptx.poly import schedule as S
from looptx.poly.deps import upper_constant
from looptx.poly.gpu_collapse import not_collapsible, one_thread, serial_copy_warning, zeroed
from looptx.poly.gpu_copies import cooperative as _cooperative, copy_thread_pins as _copy_thread_pins
from looptx.poly.gpu_replicated import replicated
from looptx.poly.known_values import at_macro_value, soft_sizes_hint
from looptx.poly.gpu_serial import siblings_merged
from looptx.poly.variant import LoopDim, Variant

AXES = ("x", "y", "z")
MAX_THREADS = 1024
MAX_GRID = (2 ** 31 - 1, 65535, 65535)      # CUDA's gridDim.x, .y, .z


@dataclass(frozen=True)
class Mapping:
    stmt: int
    block: tuple[str, ...]             # loop names ('1' entries removed: `axes` keeps their places)
    thread: tuple[str, ...]
    kernel: str | None = None
    step: int | None = None
    step_name: str | None = None
    file: str | None = None
    line: int | None = None
    # (block axes, thread axes): the axis of each mapped loop, where a "1" entry holds one
    # (`block: ["1", i]` puts i on y); () is x, y, z in order
    axes: tuple = ()

    def error(self, what, hint=None, cls=RecipeError):
        return cls(what, hint=hint, file=self.file, line=self.line, step=self.step, step_name=self.step_name)

    def axes_of(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        if self.axes and len(self.axes[0]) == len(self.block) and len(self.axes[1]) == len(self.thread):
            return self.axes
        return tuple(range(len(self.block))), tuple(range(len(self.thread)))


def _check_grid(K, n: int, size: isl.Map) -> None:
    """A grid that CUDA cannot launch at the sizes fixed (a loop of 100000 rows on blockIdx.y)
    is refused at the step; at variable sizes the launch itself fails, which the host reports."""
    if not K.mapped or K.mapping is None:
        return
    axis = K.mapping.axes_of()[0][n]
    most = upper_constant(size.range()) if axis < 3 else None
    # (too large at every size: a bound the sizes' types allow, `i < (int)n`, is the launch's to report)
    below = upper_constant(size.range().neg()) if most is not None else None      # -(the least)
    if most is not None and most > MAX_GRID[axis] and below is not None and -below > MAX_GRID[axis]:
        name = "xyz"[axis]
        raise K.mapping.error(f"the block loop on {name} has {most} iterations, more than CUDA's "
                              f"{MAX_GRID[axis]} for gridDim.{name}",
                              hint="map it to x, or tile it and map its control loop" if axis else
                              "tile it and map its control loop")


def mappings(v: Variant) -> list[Mapping]:
    return [x for x in v.extra if isinstance(x, Mapping)]


@dataclass
class Kernel:
    name: str
    pieces: list[int]                  # piece indices
    root: int                          # schedule position of the kernel's outermost loop
    block: list[int] = field(default_factory=list)    # positions, x first
    thread: list[int] = field(default_factory=list)
    mapping: Mapping | None = None     # None: a default one-thread kernel
    block_size: tuple[int, ...] = ()
    # filled by kernel_schedule
    host_dims: list[int] = field(default_factory=list)
    # a one-thread kernel of several sibling subtrees: the first one's position at `root`
    # (the launch's own position among the siblings; see launch_schedule)
    first_sibling: int | None = None
    # pieces outside some of the mapped loops (block-uniform work such as `int sy = yofs[y];`
    # between the block and thread loops): piece -> the mapped positions it is outside of.
    # Every block and thread of those dimensions runs it, as each CUDA thread would compute it.
    lacking: dict[int, frozenset[int]] = field(default_factory=dict)

    @property
    def mapped(self) -> bool:
        return self.mapping is not None


def _clean(names) -> list[str]:
    return [n for n in names if n not in ("1", "", None)]


def map_step(v: Variant, stmt: int, block, thread, kernel=None, where=None, order_check=None) -> Variant:
    """The `cuda` step: record the mapping, moving block loops outside thread loops where
    `order_check(loops, new order, block, thread)` lets it (it raises where not)."""
    if len(block) > 3 or len(thread) > 3:
        raise RecipeError("cuda maps at most 3 block and 3 thread loops (x, y, z), \"1\" entries included",
                          hint="use x, y, z only")
    axis = {("b", n): k for k, n in enumerate(block) if n not in ("1", "", None)}
    axis.update({("t", n): k for k, n in enumerate(thread) if n not in ("1", "", None)})
    block, thread = _clean(block), _clean(thread)
    if not thread and not block:
        raise RecipeError("cuda needs a block or a thread loop", hint="e.g. block: [ii], thread: [i]")
    gone = [n for n in block + thread if unrolled_away(v, stmt, n)]
    if gone and len(gone) < len(block) + len(thread):
        # A loop that an earlier unroll removed (its strips all fit one copy, as at small fixed
        # sizes) runs once: mapped to an axis, it would be an axis of extent 1.
        if where and where[2]:
            note_once(where[2], where[3], f"loop{'s' if len(gone) > 1 else ''} "
                      f"{', '.join(repr(n) for n in gone)} {'were' if len(gone) > 1 else 'was'} "
                      f"unrolled fully by an earlier step: the cuda step maps "
                      f"{'them' if len(gone) > 1 else 'it'} to no axis")
        block = [b for b in block if b not in gone]
        thread = [t for t in thread if t not in gone]
    raw_block, raw_thread = block, thread
    block = [S.resolve_name(v, stmt, b) for b in block]
    thread = [S.resolve_name(v, stmt, t) for t in thread]
    if len(set(block + thread)) != len(block) + len(thread):
        raise RecipeError("a loop is mapped twice", hint="map each loop to one block or thread dimension")
    names = S.loop_names(v, stmt)
    pos = {n: k for k, n in enumerate(names)}
    if block and thread and max(pos[b] for b in block) > min(pos[t] for t in thread):
        # CUDA-CHiLL's cudaize brings the block loops outside the thread loops
        outer = min(pos[x] for x in block + thread)
        inner = names[outer:]
        order = names[:outer] + [n for n in inner if n in block] + [n for n in inner if n not in block]
        if order_check is not None:
            order_check(names, order, block, thread)
        v = S.permute(v, stmt, order)
    axes = (tuple(axis[("b", b)] for b in raw_block), tuple(axis[("t", t)] for t in raw_thread))
    m = Mapping(stmt, tuple(block), tuple(thread), kernel, *(where or (None, None, None, None)), axes=axes)
    for old in mappings(v):
        if old.stmt == stmt:
            raise RecipeError(f"statement {stmt} is already mapped by an earlier cuda step",
                              hint="map each kernel once")
    # two cuda steps whose kernels overlap (their statements share the outermost mapped loop)
    # would emit and launch that nest twice: refused, unless the second one maps the very same
    # loops of the very same nest (then it is redundant and nothing is recorded)
    mine, my_root = _group(v, m)
    for n, old in enumerate(mappings(v)):
        theirs, their_root = _group(v, old)
        if not set(mine) & set(theirs):
            continue
        if set(mine) == set(theirs) and my_root == their_root and \
                (old.block, old.thread) == (m.block, m.thread):
            return v
        # the outer of the two kernels' root loops is the one they share
        k_outer = theirs[0] if their_root <= my_root else mine[0]
        shared = v.pieces[k_outer].dims[min(my_root, their_root)].name
        where_old = f"step {old.step}" if old.step is not None else f"cuda mapping {n + 1}"
        raise RecipeError(f"statement {stmt} is already in the kernel of {where_old} (statement "
                          f"{old.stmt}; they share loop '{shared}')",
                          hint=f"distribute the statements at loop '{shared}' first, or map the "
                               f"kernel with one cuda step")
    return _thread_extents_at_values(v.evolve(extra=v.extra + (m,)), stmt, thread)


def _thread_extents_at_values(v: Variant, stmt: int, thread: list) -> Variant:
    """A thread loop bounded by a #define (`k < K`, Orio's Nek5000 kernels) or a constant
    local has the extent of its value, as in CUDA-CHiLL (a #define's value is checked by the
    output); other unbounded thread loops are reported when the kernel is built."""
    def trip(w: Variant, t) -> int | None:
        group = S.sharing(w, stmt, t)
        return S.max_trip(w, group, group[0][1])
    # one #define each: a COGENT-style block of threads [a, b] with `a < NA`, `b < NB`
    for t in [t for t in thread if trip(v, t) is None]:
        if trip(v, t) is not None:
            continue                # the value fixed for an earlier loop bounds this one too
        error = RecipeError(f"thread loop '{to_user(t)}' has no constant extent")

        def bounded(w: Variant, t=t) -> int:
            n = trip(w, t)
            if n is None:
                raise error
            return n
        try:
            v = at_macro_value(v, bounded, error, f"thread loop '{to_user(t)}' is mapped")
        except RecipeError:
            pass
    return v


def unrolled_away(v: Variant, stmt: int, name) -> bool:
    try:
        S.resolve_name(v, stmt, name)
        return False
    except RecipeError:
        pass
    try:
        S.resolve_name(v, stmt, name, hidden=True)
        return True
    except RecipeError:
        return False


def _own_piece(v: Variant, m: Mapping, group) -> int:
    for k, _ in group:
        if v.pieces[k].stmt == m.stmt and all(v.pieces[k].position_of(n) is not None
                                              for n in m.block + m.thread):
            return k
    for k, _ in group:
        if v.pieces[k].stmt == m.stmt:
            return k
    return group[0][0]


def _group(v: Variant, m: Mapping) -> tuple[list[int], int]:
    """The pieces of m's kernel (everything inside its outermost mapped loop) and that loop's
    schedule position."""
    names = S.loop_names(v, m.stmt)
    outer = min((names.index(x) for x in m.block + m.thread))
    group = S.sharing(v, m.stmt, names[outer])
    k0 = _own_piece(v, m, group)
    root = dict(group)[k0]
    return [k for k, _ in group], root


def loop_at(v: Variant, K: Kernel, c: int) -> int | None:
    """A piece of the kernel inside its loop at schedule position c (not one that runs across
    that position in every thread), or None."""
    for k in K.pieces:
        d = v.pieces[k].dims
        if c not in K.lacking.get(k, ()) and c < len(d) and isinstance(d[c], LoopDim):
            return k
    return None


def kernels(v: Variant, region: str = "region") -> list[Kernel]:
    """Mapped kernels, then one-thread kernels for what no cuda step covers."""
    out: list[Kernel] = []
    covered: set[int] = set()
    for n, m, group, kname, names, outer in _nests(v, region):
        k0 = _own_piece(v, m, group)
        root = dict(group)[k0]
        pieces = [k for k, _ in group]
        blocks, threads = [], []
        for name in m.block:
            blocks.append(v.pieces[k0].position_of(name))
        for name in m.thread:
            threads.append(v.pieces[k0].position_of(name))
        if None in blocks + threads:
            missing = [nm for nm, p in zip(m.block + m.thread, blocks + threads) if p is None]
            raise m.error(f"statement {m.stmt} is not inside the mapped loop '{missing[0]}'",
                          hint="map loops that enclose the statement")
        lacking = replicated(v, m, pieces, k0, blocks, threads, names[outer])
        for k in pieces:
            q = v.pieces[k]
            if k in covered:
                raise m.error(f"statement {q.stmt} is already in the kernel of an earlier cuda step "
                              f"(it shares loop '{names[outer]}')",
                              hint=f"distribute the statements at loop '{names[outer]}' first")
            covered.add(k)
        out.append(Kernel(kname, pieces, root, blocks, threads, m, lacking=lacking))
    mapped_pieces = [v.pieces[k] for k in covered]
    groups: dict[tuple, list[int]] = {}
    for k, p in enumerate(v.pieces):
        if k in covered:
            continue
        root = len(p.dims) - 1
        for pos in range(1, len(p.dims), 2):
            shared = any(len(q.dims) > pos and q.prefix(pos) == p.prefix(pos) and isinstance(q.dims[pos], LoopDim)
                         and q.dims[pos].name == p.dims[pos].name for q in mapped_pieces)
            if not shared:
                root = pos
                break
        key = (root, p.prefix(root), p.dims[root].name if isinstance(p.dims[root], LoopDim) else k)
        groups.setdefault(key, []).append(k)
    serial = sorted(groups.items(), key=lambda kv: min(kv[1]))
    for n, (root, pieces, first) in enumerate(siblings_merged(v, serial, covered)):
        out.append(Kernel(f"{region}_serial{n}", pieces, root, first_sibling=first))
    # launch order = schedule (textual) order: kernels are disjoint subtrees, so the first of
    # their pieces in schedule order decides (loops compare equal: at the first position where
    # two kernels' pieces differ, both hold a statement position)
    out.sort(key=lambda K: min(_sort_key(v.pieces[k].dims) for k in K.pieces))
    return out


def _nests(v: Variant, region: str):
    """(mapping number, mapping, pieces with their root positions, kernel name, the mapped
    statement's loop names, the outermost mapped one's index) of each kernel: a mapped
    statement that a split or peel made into several loop nests gets one per nest."""
    for n, m in enumerate(mappings(v)):
        names = S.loop_names(v, m.stmt)
        outer = min((names.index(x) for x in m.block + m.thread))
        nests: dict = {}
        for k, pos in S.sharing(v, m.stmt, names[outer]):
            nests.setdefault(v.pieces[k].prefix(pos), []).append((k, pos))
        base = m.kernel or f"{region}_kernel{n}"
        for part, group in enumerate(nests.values()):
            yield n, m, group, base if part == 0 else f"{base}_{part}", names, outer


def _sort_key(dims):
    return tuple(d if isinstance(d, int) else 0 for d in dims)


def _launch_depth(K: Kernel, v: Variant) -> int:
    """How many leading schedule dimensions place K's launch: those outside its root loop, and,
    for a kernel of a single statement outside any loop of its own (root = a statement
    position), that position too, so it is ordered against its siblings."""
    if K.root % 2 == 0:
        return K.root + 1
    return K.root


# ---- schedules of kernels and launches --------------------------------------------------------

def _proj(width: int, dims: list[int], prefix: str) -> isl.Map:
    ts = [f"t{k}" for k in range(width)]
    return isl.Map(f"{prefix}{{ [{', '.join(ts)}] -> [{', '.join(ts[d] for d in dims)}] }}")


def _offset(R: isl.Set, width: int, outer: list[int], d: int, prefix: str, exact: bool = False):
    """(map: schedule point -> [dim d - its lowest value given the `outer` dims],
    map outer -> [d values]): the lowest value is taken over the kernel's statements R (`exact`:
    not over their hull, whose dropped divisions may lose how d follows the outer dims)."""
    to_outer = _proj(width, outer, prefix)
    to_d = _proj(width, [d], prefix)
    both = to_outer.flat_range_product(to_d).intersect_domain(R)
    # bounds of the convex hull: a superset, so every index stays >= 0 and the launch may have a
    # few idle blocks or threads, but the index expressions and grid sizes stay simple
    hull = both.range().coalesce() if exact else \
        isl.Set.from_basic_set(both.range().remove_divs().simple_hull())
    if not hull.is_bounded():
        # a bound that is a max of parameters (i < MAX(N, M)) holds in no single piece
        hull = both.range().coalesce()
    m = isl.Map.from_range(hull).move_dims(
        isl.dim_type.in_, 0, isl.dim_type.out, 0, len(outer))
    lo = m.lexmin()
    off = to_d.flat_range_product(to_outer.apply_range(lo)).apply_range(isl.Map("{ [x, l] -> [x - l] }"))
    return off, m, lo


def _dense(off: isl.Map, R: isl.Set) -> tuple[isl.Map, int]:
    """(index map, stride): a loop that steps by s (`i += 2`) has every s-th value, so its block
    or thread index counts iterations, (value - lowest) / s, and no block or thread idles."""
    info = off.intersect_domain(R).range().get_stride_info(0)
    stride = info.get_stride().to_python()
    offset = info.get_offset()
    if stride <= 1 or not offset.is_cst():
        return off, 1
    # the hull's lowest value may lie off the loop's lattice (the first index is then o, not 0)
    o = offset.get_constant_val().to_python() % stride
    return off.apply_range(isl.Map(f"{{ [x] -> [y] : x = {stride}y + {o} }}")), stride


def _pin(off: isl.Map, param: str) -> isl.Set:
    return off.intersect_range(isl.Set(f"[{param}] -> {{ [v] : v = {param} }}")).domain()


@dataclass
class KernelPlan:
    kernel: Kernel
    schedule: isl.UnionMap          # the kernel's statements, mapped dimensions pinned
    context: isl.Set
    grid: list[isl.Map]             # per block dimension: host dims -> [number of blocks]
    params: list[str]               # lx_h*, lx_b*, lx_t* used


def kernel_plans(plan, kern: list[Kernel], prefix: str) -> list[KernelPlan]:
    v = plan.variant
    width = plan.width
    out = []
    for K in kern:
        R = None
        for k in K.pieces:
            r = v.piece_map(v.pieces[k], width).range()
            R = r if R is None else R.union(r)
        universe = R.get_space()
        host_loops = [p for p in range(1, K.root, 2)]
        K.host_dims = host_loops
        pins_host = isl.Set.universe(universe)
        for n, p in enumerate(host_loops):
            pins_host = pins_host.intersect(_pin(_proj(width, [p], prefix), f"lx_h{n}"))
        def span(p: int) -> isl.Set:
            # a block or thread index counts over the statements inside that loop only
            have = [k for k in K.pieces if p not in K.lacking.get(k, ())]
            out = None
            for k in have:
                r = v.piece_map(v.pieces[k], width).range()
                out = r if out is None else out.union(r)
            return out if out is not None else R
        pins_block = pins_host
        grid = []
        dim_pins: dict[int, isl.Set] = {}
        for n, p in enumerate(K.block):
            Rp = span(p)
            off, m, lo = _offset(Rp, width, list(range(K.root)), p, prefix)
            off, stride = _dense(off, Rp)
            dim_pins[p] = _pin(off, f"lx_b{n}")
            pins_block = pins_block.intersect(dim_pins[p])
            size = lo.flat_range_product(m.lexmax()).apply_range(
                isl.Map(f"{{ [l, h] -> [floor((h - l) / {stride}) + 1] }}"))
            grid.append(size)
            _check_grid(K, n, size)
        pins_all = pins_block
        thread_pins, zero_pins = [], []
        block = []
        outer = sorted(list(range(K.root)) + K.block)
        counted_from = []           # per thread dimension: (its span, the positions its index reads, index map)
        for n, p in enumerate(K.thread):
            Rp = span(p)
            # a thread loop's index counts from its lowest value given the block loops and the
            # thread loops around it: the point loop of a tile whose control loop is a thread
            # loop too (CUDA-CHiLL's thread={"j","jj"}) spans the tile, not the whole range
            reads = sorted(outer + [q for q in K.thread if q < p])
            off, m, lo = _offset(Rp, width, reads, p, prefix)
            off, _ = _dense(off, Rp)
            size = upper_constant(off.intersect_domain(Rp).range())
            inner = [q for q in range(1, p, 2) if q not in outer and q not in K.thread]
            if inner:
                # a loop that each thread runs between the block and thread loops (Orio's
                # grid-stride rounds) may move the thread loop's range: counted from there, the
                # block may be smaller
                # the loops only: a copy between them sits at other statement positions, and its
                # threads must count from the same lowest value
                loops = sorted(set(range(K.root)) | set(range(1, p, 2)))
                off2, m2, lo2 = _offset(Rp, width, loops, p, prefix, exact=True)
                off2, _ = _dense(off2, Rp)
                size2 = upper_constant(off2.intersect_domain(Rp).range())
                if size2 is not None and (size is None or size2 < size):
                    off, m, lo, size, reads = off2, m2, lo2, size2, loops
            counted_from.append((Rp, reads, off))
            thread_pins.append(_pin(off, f"lx_t{n}"))
            dim_pins[p] = thread_pins[-1]
            zero_pins.append(isl.Set(f"[lx_t{n}] -> {{ [{', '.join(f't{k}' for k in range(width))}] : lx_t{n} = 0 }}"))
            pins_all = pins_all.intersect(thread_pins[-1])
            if size is None and R.is_empty():
                size = 0          # nothing runs at these sizes: one idle thread
            if size is None:
                name = v.pieces[loop_at(v, K, p)].dims[p].name
                raise K.mapping.error(f"thread loop '{name}' has no constant extent",
                                      hint=f"tile '{name}' and map the point loop to threads, or fix the sizes"
                                           + soft_sizes_hint(v.scop))
            block.append(size + 1)
        K.block_size = tuple(block)
        if K.mapped:
            total = 1
            for b in block:
                total *= b
            if total > MAX_THREADS:
                raise K.mapping.error(f"a block of {' x '.join(map(str, block))} = {total} threads is more "
                                      f"than {MAX_THREADS}", hint="use smaller tiles for the thread loops")
            z = [b for b, a in zip(block, K.mapping.axes_of()[1]) if a == 2]
            if z and z[0] > 64:
                # CUDA's own limit on blockDim.z, which a "1" entry can now move a loop onto
                raise K.mapping.error(f"the thread loop on z has {z[0]} iterations, more than CUDA's 64 for blockDim.z",
                                      hint="map it to x or y, or tile it by at most 64")
        sched = None
        members = set(K.pieces)
        # a shared copy inside the thread loops: made by the whole block where it can be (gpu_collapse)
        why = not_collapsible(K, [c for c in plan.copies if c.owner in members],
                              [sy for sy in plan.syncs if sy.owner in members], width, v.pieces[K.pieces[0]].dims)
        zero = zeroed(width, K.thread, prefix) if why is None else None
        for k in K.pieces:
            pins = pins_all
            if k in K.lacking:
                pins = pins_host
                for p, pin in dim_pins.items():
                    if p not in K.lacking[k]:
                        pins = pins.intersect(pin)
            m = v.piece_map(v.pieces[k], width).intersect_range(pins)
            m = m.apply_range(zero) if zero is not None else m
            sched = isl.UnionMap.from_map(m) if sched is None else sched.union(isl.UnionMap.from_map(m))
        first_thread = min(K.thread) if K.thread else width
        for c in plan.copies:
            if c.owner not in members:
                continue
            inner = K.mapped and K.thread and c.keep > max(K.thread)
            if inner and zero is not None and not c.per_thread and c.promotion.kind == "shared":
                c = replace(c, schedule=c.schedule.intersect_domain(
                    one_thread(c.schedule.domain(), K.thread)).apply_range(zero))
                pins = pins_block.intersect(_cooperative(c, block, width, prefix))
            elif K.mapped and not c.per_thread and first_thread < c.keep < max(K.thread):
                # A copy between thread loops: the outer thread loops run as uniform loops with a
                # guard, so each of their iterations makes its own copy; the inner thread loops'
                # positions are constants in the copy's schedule, so instead of pinning them the
                # copy is made by the threads whose inner thread ids are 0 (a shared buffer only)
                if c.promotion.kind != "shared":
                    raise c.promotion.error(
                        f"{c.promotion.kind} of '{to_user(c.promotion.array or '')}' at loop '{to_user(c.promotion.at)}' "
                        "gives each thread its own buffer, but a thread loop lies inside that loop: only the "
                        "threads at that loop's first iteration would fill their buffers, and the others would "
                        "read buffers nothing filled",
                        hint="use shared, registers, or a datacopy at the innermost thread loop or inside it")
                pins = pins_block
                for n, p in enumerate(K.thread):
                    pins = pins.intersect(thread_pins[n] if p < c.keep else zero_pins[n])
            elif c.per_thread and K.mapped:
                pins = pins_block.intersect(_copy_thread_pins(c, K, counted_from, width, prefix))
            elif c.keep > first_thread or not K.mapped or not K.thread:
                # (a kernel of one thread per block (`thread: ["1"]`): that thread makes it)
                pins = pins_all
            else:
                if c.promotion.kind != "shared":
                    raise c.promotion.error(f"{c.promotion.kind} at a loop outside the thread loops of a "
                                            "kernel would be done by every thread",
                                            hint="use shared at block level, or promote inside the thread loops")
                pins = pins_block.intersect(_cooperative(c, block, width, prefix))
            placed = c.schedule.intersect_range(pins)
            if inner and zero is not None and c.per_thread is False and c.promotion.kind != "shared":
                placed = placed.apply_range(zero)
            elif inner and zero is None and not c.per_thread and c.promotion.kind == "shared":
                serial_copy_warning(c, K, why)
            if placed.is_empty() and not c.schedule.is_empty():
                # no thread would make the copy: the kernel would read a buffer nothing loads
                raise c.promotion.error(f"no thread of kernel {K.name} makes the {c.promotion.kind} copy of "
                                        f"'{to_user(c.promotion.array or '')}' at loop '{to_user(c.promotion.at)}'",
                                        hint="promote at a loop inside the thread loops")
            sched = sched.union(isl.UnionMap.from_map(placed))
        for sy in plan.syncs:
            if sy.owner in members:
                at = sy.schedule
                if zero is not None and sy.prefix_len > max(K.thread):
                    at = at.intersect_domain(one_thread(at.domain(), K.thread)).apply_range(zero)
                sched = sched.union(isl.UnionMap.from_map(at.intersect_range(pins_block)))
        params = [f"lx_h{n}" for n in range(len(host_loops))] + [f"lx_b{n}" for n in range(len(K.block))] + \
                 [f"lx_t{n}" for n in range(len(K.thread))]
        cons = [f"0 <= lx_t{n} < {b}" for n, b in enumerate(block)] + [f"lx_b{n} >= 0" for n in range(len(K.block))]
        ctx = isl.Set(f"[{', '.join(params or ['lx_none'])}] -> {{ : {' and '.join(cons) or '1 = 1'} }}")
        ctx = ctx.intersect(v.context)
        out.append(KernelPlan(K, sched, ctx, grid, params))
    return out


def launch_schedule(v: Variant, kern: list[Kernel], width: int, prefix: str) -> isl.UnionMap:
    """Host code: one statement L<n>[host dims] per kernel, in schedule order."""
    host_width = max((_launch_depth(K, v) for K in kern), default=0) + 1
    u = None
    for n, K in enumerate(kern):
        depth = _launch_depth(K, v)
        # a kernel of several siblings launches once, at the first one's position
        own = depth - 1 if K.first_sibling is not None else depth
        R = None
        for k in K.pieces:
            r = v.piece_map(v.pieces[k], width).range().project_out(isl.dim_type.set, own, width - own)
            R = r if R is None else R.union(r)
        # the hull: a launch whose grid has no work is harmless, a disjunctive launch domain is
        # not (isl would copy the launch into every case)
        R = isl.Set.from_basic_set(R.remove_divs().simple_hull())
        names = [f"d{k}" for k in range(own)]
        target = names + [str(K.first_sibling)] * (own < depth) + ["0"] * (host_width - depth)
        m = isl.Map(f"{prefix}{{ [{', '.join(names)}] -> [{', '.join(target)}] }}").intersect_domain(R)
        m = m.set_tuple_name(isl.dim_type.in_, f"L{n}")
        u = isl.UnionMap.from_map(m) if u is None else u.union(isl.UnionMap.from_map(m))
    return u
