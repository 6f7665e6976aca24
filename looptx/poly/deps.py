"""Exact dependences of the original program: the only legality oracle.

RAW = value-based flow from writes to reads; WAR + WAW = writes as sinks, writes as kills,
writes and reads as may-sources (PPCG's formulation).  Direct dependences suffice: a schedule
that keeps every direct dependence keeps every memory-based one by transitivity.
Accesses are tagged with their reference so that every dependence knows its array and kind.
"""
from __future__ import annotations

from dataclasses import dataclass

import islpy as isl

from looptx.errors import SourceError, note_once
from looptx.poly.budget import isl_budget
from looptx.poly.scop import Scop, Statement, union_maps, union_sets

SMALL_SIZES = (1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 24, 32, 64)
MAX_OPERATIONS = 100_000_000       # isl operations for one region's analysis (tens of seconds)


@dataclass(frozen=True, eq=False)
class Dep:
    kind: str                  # 'RAW' | 'WAR' | 'WAW'
    source: int                # statement ids
    sink: int
    source_ref: int
    sink_ref: int
    array: str
    relation: isl.Map          # S_source[...] -> S_sink[...]


@dataclass(frozen=True, eq=False)
class Deps:
    scop: Scop
    items: tuple[Dep, ...]
    all: isl.UnionMap
    context: isl.Set

    def between(self, stmts: set[int]) -> list[Dep]:
        return [d for d in self.items if d.source in stmts and d.sink in stmts]


def _tag(m: isl.Map) -> tuple[int, int]:
    """(statement id, reference id) of a tagged domain [S3[...] -> R7[]]."""
    w = m.get_space().domain().unwrap()
    return int(w.get_tuple_name(isl.dim_type.in_)[1:]), int(w.get_tuple_name(isl.dim_type.out)[1:])


def _has_divs(s: isl.Set) -> bool:
    bl = s.get_basic_set_list()
    return any(bl.get_at(k).dim(isl.dim_type.div) > 0 for k in range(bl.n_basic_set()))


def _lifting(domains: isl.UnionSet) -> isl.UnionMap | None:
    """A bijection from div-free copies of the instance sets onto the instance sets, or None.

    Guards such as `x % 2 == 0` and strided loops put existentially quantified variables
    (integer divisions) into the iteration domains.  The isl 0.28 bundled with islpy 2026.2.2 can
    crash with a segmentation fault inside compute_flow on such inputs: during a partial lexmax, a
    context set holding two identical integer divisions (e.g. floor((1 + N)/2) twice) makes
    align_context_divs (isl_tab_pip.c) swap div -1 (heap overflow in isl_basic_map_swap_div).
    Lifting each domain with a division, D = { x : exists e = floor(f(x)/m) : ... }, to
    L = { [x -> e] : ... } turns the divisions into ordinary dimensions, so no input of the
    analysis has an existential left.  That avoided the crash on every known case; it is not a
    proof (a lexmax can still introduce divisions of its own), and was as fast or faster.
    Every e is a function of x (known divisions), so [x -> e] -> x is a bijection from L onto D
    that preserves accesses and schedule: the dependences computed on L, mapped back through it,
    are exactly those on D.  Domains with an unknown division (never produced by the frontend)
    are left as they are, as are domains without divisions (then None: the analysis is as before).
    """
    lifted = isl.UnionMap.empty(domains.get_space())
    n = 0
    for d in union_sets(domains):
        if not _has_divs(d):
            continue
        m = d.lift().unwrap()
        m = m.set_tuple_name(isl.dim_type.out, f"_lift{n}")
        back = m.domain_map()                      # [x -> e] -> x, restricted to L
        if not back.is_injective():
            continue
        lifted = lifted.union(isl.UnionMap.from_map(back))
        n += 1
    if n == 0:
        return None
    rest = domains.subtract(lifted.range())
    return lifted.union(rest.identity())


def _flow(reads: isl.UnionMap, writes: isl.UnionMap, sched: isl.UnionMap, ordered: isl.UnionMap):
    """RAW (value-based) and WAR + WAW (writes as sinks and kills, PPCG's formulation); and
    `ordered`, the accesses to volatile objects, each to the object as a whole: an access to a
    volatile is a side effect, which stays in its order with every other access to the object
    (a device register's elements too).  The third value: False where isl failed and the
    relations are memory-based (a superset)."""
    # (coalesced: a domain that several accesses repeat, each with its own spelling of the same
    # division, lifts to two division dimensions, and isl's analysis then failed in
    # isl_domain_factor, probe 159 G2)
    back = _lifting(reads.domain().union(writes.domain()).union(sched.domain()).coalesce())
    if back is not None:
        try:
            raw, false = _flow_of(back.apply_range(reads), back.apply_range(writes), back.apply_range(sched),
                                  back.apply_range(ordered))
            return raw.apply_domain(back).apply_range(back), false.apply_domain(back).apply_range(back), True
        except isl.Error as e:
            if "operations" in str(e):
                raise
            # (isl's own failure on the lifted form: the analysis as written, which is exact too)
    try:
        return (*_flow_of(reads, writes, sched, ordered), True)
    except isl.Error as e:
        if "operations" in str(e):
            raise
    # isl's value-based analysis failed on its own (probe 161 G1: a reduction under a loop down
    # by 3 in four loops, "affine expression involves some of the domain dimensions"): every
    # ordered pair of accesses to an element, a superset of the direct dependences, which keeps
    # the legality checks sound and refuses more
    return (*_flow_of(reads, writes, sched, ordered, exact=False), False)


def _flow_of(reads: isl.UnionMap, writes: isl.UnionMap, sched: isl.UnionMap, ordered: isl.UnionMap,
             exact: bool = True):
    """(RAW, WAR + WAW): value-based (writes as must-sources and kills), or with `exact` False
    memory-based (every earlier access to the element)."""
    raw = isl.UnionAccessInfo.from_sink(reads)
    raw = (raw.set_must_source(writes) if exact else raw.set_may_source(writes)).set_schedule_map(sched).compute_flow()
    false = isl.UnionAccessInfo.from_sink(writes.union(ordered))
    if exact:
        false = false.set_kill(writes)
    false = (false.set_may_source(writes.union(reads).union(ordered)).set_schedule_map(sched)
             .compute_flow().get_may_dependence())
    return (raw.get_must_dependence() if exact else raw.get_may_dependence()), false


def _volatile_accesses(scop: Scop, accesses: isl.UnionMap) -> isl.UnionMap:
    volatile = {a.name for a in scop.arrays if a.volatile}
    out = isl.UnionMap.empty(accesses.get_space())
    for m in union_maps(accesses) if volatile else ():
        name = m.get_tuple_name(isl.dim_type.out)
        if name in volatile:
            whole = m.project_out(isl.dim_type.out, 0, m.dim(isl.dim_type.out)).set_tuple_name(isl.dim_type.out, name)
            out = out.union(isl.UnionMap.from_map(whole))
    return out


def compute_deps(scop: Scop, assumptions: isl.Set | None = None) -> Deps:
    """The exact dependences of the region; those of the scop itself are kept with it (a
    search or a test applies many recipes to one model)."""
    if assumptions is None:
        return scop.cached("deps", lambda: _computed(scop, None))
    return _computed(scop, assumptions)


def _computed(scop: Scop, assumptions: isl.Set | None) -> Deps:
    ctx = scop.context if assumptions is None else scop.context.intersect(assumptions)
    reads = scop.accesses("read", tagged=True).intersect_params(ctx)
    writes = scop.accesses("write", tagged=True).intersect_params(ctx)
    sched = scop.tagged_schedule(scop.schedule).intersect_params(ctx)
    # With symbolic sizes, the exact analysis of some guarded, triangular nests runs for many
    # minutes in isl; with the sizes fixed it takes a second.  A budget turns the apparent hang
    # into that advice.
    try:
        with isl_budget(MAX_OPERATIONS):
            raw, false, exact = _flow(reads, writes, sched, _volatile_accesses(scop, reads.union(writes)))
        if not exact:
            note_once(scop.filename or "", scop.where()["line"],
                      f"isl's exact dependence analysis failed on region {scop.region} (an isl defect): "
                      "every ordered pair of accesses to an element is taken as a dependence, which may "
                      "refuse legal steps")
    except isl.Error as e:
        if "maximal number of operations" not in str(e):
            raise
        raise SourceError(f"the exact dependence analysis of region {scop.region} is too "
                          "expensive for isl with these symbolic sizes",
                          hint="fix the sizes with --define (e.g. -D N=64), or state facts "
                               "about them with a known step",
                          **scop.where()) from None
    kinds = {a.ref: a.kind for s in scop.statements for a in s.accesses}
    arrays = {a.ref: a.array for s in scop.statements for a in s.accesses}
    items = []
    for union, is_raw in ((raw, True), (false, False)):
        for m in union_maps(union):
            if m.is_empty():
                continue
            (src, sref), (dst, dref) = _tag(m), _tag(m.reverse())
            kind = "RAW" if is_raw else ("WAW" if kinds[sref] == "write" else "WAR")
            rel = m.domain_factor_domain().range_factor_domain().coalesce()
            items.append(Dep(kind, src, dst, sref, dref, arrays[sref], rel))
    items.sort(key=lambda d: (d.source, d.sink, d.kind, d.source_ref, d.sink_ref))
    allu = isl.UnionMap.empty(ctx.get_space())
    for d in items:
        allu = allu.union(isl.UnionMap.from_map(d.relation))
    return Deps(scop, tuple(items), allu.coalesce(), ctx)


def lex_order(schedule: isl.UnionMap) -> isl.UnionMap:
    return schedule.lex_lt_union_map(schedule)


def respects(deps: isl.UnionMap, schedule: isl.UnionMap) -> bool:
    """Whether every dependence of `deps` runs forward in the schedule's order, i.e. whether
    `deps` is a subset of lex_order(schedule).  Where the schedule is a function defined on
    every instance the dependences name, and their images share one space, that is whether the
    images lie in the lexicographic order of that space: one map, where lex_order relates every
    two statements (half of the time of each legality check)."""
    if schedule.is_single_valued():
        dom = schedule.domain()
        if deps.domain().is_subset(dom) and deps.range().is_subset(dom):
            images = union_maps(deps.apply_domain(schedule).apply_range(schedule))
            spaces = [m.get_space() for m in images]
            if all(s.domain().is_equal(s.range()) for s in spaces):
                return all(m.is_subset(isl.Map.lex_lt(s.domain())) for m, s in zip(images, spaces))
    return deps.is_subset(lex_order(schedule))


def is_legal(deps: Deps, schedule: isl.UnionMap) -> bool:
    return respects(deps.all, schedule)


def violated(deps: Deps, schedule: isl.UnionMap) -> list[tuple[Dep, isl.Map]]:
    order = lex_order(schedule)
    out = []
    for d in deps.items:
        bad = isl.UnionMap.from_map(d.relation).subtract(order)
        if not bad.is_empty():
            out.append((d, isl.Map.from_union_map(bad)))
    return out


def small_point(rel: isl.Map, scop: Scop) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """A concrete (source, sink) pair from rel, with parameters as small as possible."""
    free = [p for p in scop.params if p not in dict(scop.fixed)]
    # A size the file #defines has that value in every build: a witness at another value
    # would show an instance the program never runs, so those values are tried first.
    built = {p: v for p, v in scop.macro_values if p in free}
    tries = [{**{p: n for p in free}, **built} for n in SMALL_SIZES] if free else [{}]
    if built:
        tries += [{p: n for p in free} for n in SMALL_SIZES]
    if free:
        # a violation only at unequal or non-positive sizes (2mm's fuse breaks a dependence
        # only when nk <= 0): any small parameter values that have one
        # (a violation that needs a whole tile, as after a tile of 128, needs larger ones)
        for lo, hi in ((lo, hi) for lo in (0, -8) for hi in SMALL_SIZES + (64, 256, 1024, 4096, 65536)):
            ps = rel.params().intersect(scop.params_where(f"{lo} <= {p} <= {hi}" for p in free))
            if not ps.is_empty():
                pt = ps.sample_point()
                tries.append({p: pt.get_coordinate_val(isl.dim_type.param, scop.params.index(p)).to_python()
                              for p in free})
                break
    for sizes in {tuple(t.items()): t for t in tries}.values():
        r = rel
        if sizes:
            r = r.intersect_params(scop.params_where(f'{p} = {v}' for p, v in sizes.items()))
        if r.is_empty():
            continue
        w = r.wrap()
        try:
            w = w.lexmin()
        except isl.Error:
            # isl's lexmin fails on some sets with existentially quantified divs (`c2 % 2`
            # guards, found by fuzzing); any point of the set is still a witness
            w = r.wrap()
        pt = w.sample_point()
        if pt.is_void():
            # isl finds no point of a set it could not prove empty (probe 103's unrolled,
            # reversed step-2 loop): other sizes may give one, else the refusal has no witness
            continue
        n_in = rel.dim(isl.dim_type.in_)
        vals = [pt.get_coordinate_val(isl.dim_type.set, k).to_python() for k in range(w.dim(isl.dim_type.set))]
        return tuple(vals[:n_in]), tuple(vals[n_in:]), sizes
    return None


def element(scop: Scop, ref: int, point: tuple[int, ...], sizes: dict) -> str:
    s = scop.stmt_of_ref(ref)
    acc = scop.access(ref)
    if scop.array(acc.array).rank == 0:
        return acc.array
    m = scop.access_map(s, acc)
    pt_set = isl.Set(f"{scop.prefix}{{ {s.name}[{', '.join(map(str, point))}] }}")
    if sizes:
        pt_set = pt_set.intersect_params(scop.params_where(f'{p} = {v}' for p, v in sizes.items()))
    img = pt_set.apply(m)
    if img.is_empty():
        return acc.array
    p = img.sample_point()
    idx = [p.get_coordinate_val(isl.dim_type.set, k).to_python() for k in range(img.dim(isl.dim_type.set))]
    flat = _as_written(scop, scop.array(acc.array), idx, sizes)
    return acc.array + (f"[{flat}]" if flat is not None else "".join(f"[{i}]" for i in idx))


def _as_written(scop: Scop, arr, idx: list[int], sizes: dict) -> int | None:
    """The subscript of a 1-D array the model delinearized (`a[(i*n + j)*n + k]` as a[i][j][k]),
    as the code writes it, at the witness's sizes; None where it is not one value there."""
    if not arr.strides:
        return None
    flat = idx[0]
    for k, extent in enumerate(arr.strides):
        at = isl.Set(f"{scop.prefix}{{ [x] : x = {extent} }}").intersect_params(
            scop.params_where(f"{p} = {v}" for p, v in sizes.items()) if sizes else scop.context)
        lo, hi = at.dim_min(0), at.dim_max(0)
        if not (lo.is_cst() and lo.is_equal(hi)):
            return None
        flat = flat * at.sample_point().get_coordinate_val(isl.dim_type.set, 0).to_python() + idx[k + 1]
    return flat


VERB = {"read": "reads", "write": "writes"}


def describe_violation(deps: Deps, dep: Dep, rel: isl.Map, what: str = "the new order reverses them") -> str:
    """E.g. 'S0(1,0) writes A[1][0] before S0(0,1) reads it; the new order reverses them'."""
    scop = deps.scop
    pt = small_point(rel, scop)
    if pt is None:
        return f"{dep.kind} dependence S{dep.source} -> S{dep.sink} on {dep.array} is violated"
    src, dst, sizes = pt
    sk, dk = scop.access(dep.source_ref).kind, scop.access(dep.sink_ref).kind
    el = element(scop, dep.source_ref, src, sizes)
    at = f" (with {', '.join(f'{p}={v}' for p, v in sizes.items())})" if sizes else ""
    fmt = lambda s, p: f"S{s}({','.join(map(str, p))})"
    if any(a.name == dep.array and a.volatile for a in scop.arrays):
        other = element(scop, dep.sink_ref, dst, sizes)
        return (f"{fmt(dep.source, src)} {VERB[sk]} {el} before {fmt(dep.sink, dst)} {VERB[dk]} {other}"
                f"{at}, both of the volatile '{dep.array}', whose accesses happen in the order written; "
                f"{what}")
    return (f"{fmt(dep.source, src)} {VERB[sk]} {el} before {fmt(dep.sink, dst)} {VERB[dk]} it"
            f"{at}; {what} ({dep.kind} on {dep.array})")


# ---- reporting: distances, carrying loops, parallel loops --------------------------------

def common_loops(a: Statement, b: Statement) -> int:
    n = 0
    for k in range(min(a.depth, b.depth)):
        if a.schedule[2 * k] != b.schedule[2 * k] or a.iterators[k] != b.iterators[k]:
            break
        n += 1
    return n


def distance(deps: Deps, dep: Dep) -> list[str]:
    """Per common loop: the iterator distance (sink - source): a number, '+', '-', '*' or 'a..b'."""
    scop = deps.scop
    a, b = scop.statements[dep.source], scop.statements[dep.sink]
    c = common_loops(a, b)
    if c == 0:
        return []
    pa = isl.Map(f"{scop.prefix}{{ {a.tuple_text()} -> [{', '.join(a.iterators[:c])}] }}")
    pb = isl.Map(f"{scop.prefix}{{ {b.tuple_text()} -> [{', '.join(b.iterators[:c])}] }}")
    delta = dep.relation.apply_domain(pa).apply_range(pb).deltas().intersect_params(deps.context)
    out = []
    for k in range(c):
        d = delta.project_out(isl.dim_type.set, k + 1, c - k - 1).project_out(isl.dim_type.set, 0, k)
        vlo, vhi = _constant(d.dim_min(0)), _constant(d.dim_max(0))
        if vlo is not None and vlo == vhi:
            out.append(str(vlo))
            continue
        pos = d.intersect(isl.Set("{ [x] : x > 0 }")).is_empty()
        neg = d.intersect(isl.Set("{ [x] : x < 0 }")).is_empty()
        zero = d.intersect(isl.Set("{ [x] : x = 0 }")).is_empty()
        if vlo is not None and vhi is not None:
            out.append(f"{vlo}..{vhi}")
        elif neg and zero:
            out.append("+")
        elif pos and zero:
            out.append("-")
        elif neg:
            out.append("0+")
        elif pos:
            out.append("0-")
        else:
            out.append("*")
    return out


def _constant(pa: isl.PwAff):
    """The value of a piecewise expression that is one constant everywhere, else None."""
    vals = set()
    for _, aff in pa.get_pieces():
        if not aff.is_cst():
            return None
        vals.add(aff.get_constant_val().to_python())
    return vals.pop() if len(vals) == 1 else None


def upper_constant(s: isl.Set) -> int | None:
    """The largest value of a one-dimensional set over all parameter values, if bounded."""
    s = s.project_out(isl.dim_type.param, 0, s.dim(isl.dim_type.param))
    if s.is_empty():
        return None
    try:
        hi = s.dim_max(0)
        out = set()
        for _, aff in hi.get_pieces():
            val = aff.get_constant_val()
            if not aff.is_cst() or not val.is_int():
                return None
            out.add(val.to_python())
        return max(out) if out else None
    except (isl.Error, ValueError, TypeError):
        return None


def carried_by(deps: Deps, dep: Dep) -> list[str]:
    """Names of the common loops that carry some instance of the dependence ([] = loop-independent)."""
    scop = deps.scop
    a, b = scop.statements[dep.source], scop.statements[dep.sink]
    c = common_loops(a, b)
    sched = scop.schedule
    rel = isl.UnionMap.from_map(dep.relation).apply_domain(sched).apply_range(sched)
    m = isl.Map.from_union_map(rel)
    out = []
    for k in range(c):
        dim = 2 * k + 1
        t = m
        for q in range(dim):
            t = t.equate(isl.dim_type.in_, q, isl.dim_type.out, q)
        t = t.order_lt(isl.dim_type.in_, dim, isl.dim_type.out, dim)
        if not t.is_empty():
            out.append(a.iterators[k])
    return out


@dataclass(frozen=True)
class LoopInfo:
    name: str
    depth: int                   # 1 = outermost
    statements: tuple[int, ...]
    parallel: bool
    carried: tuple[str, ...]     # 'RAW on A' ... for sequential loops


def loops(deps: Deps) -> list[LoopInfo]:
    """Every loop of the original program, outermost first, with whether it is parallel."""
    scop = deps.scop
    nodes: dict[tuple, list[int]] = {}
    for s in scop.statements:
        for k in range(s.depth):
            key = tuple(s.schedule[:2 * k + 2])
            nodes.setdefault(key, []).append(s.id)
    sched = scop.schedule
    out = []
    for key, stmts in sorted(nodes.items(), key=lambda kv: (kv[1][0], len(kv[0]))):
        dim = len(key) - 1
        carried = []
        for d in deps.items:
            if d.source not in stmts or d.sink not in stmts:
                continue
            m = isl.Map.from_union_map(isl.UnionMap.from_map(d.relation).apply_domain(sched).apply_range(sched))
            for q in range(dim):
                m = m.equate(isl.dim_type.in_, q, isl.dim_type.out, q)
            if not m.order_lt(isl.dim_type.in_, dim, isl.dim_type.out, dim).is_empty() or \
                    not m.order_gt(isl.dim_type.in_, dim, isl.dim_type.out, dim).is_empty():
                tag = f"{d.kind} on {d.array}"
                if tag not in carried:
                    carried.append(tag)
        out.append(LoopInfo(key[-1], len(key) // 2, tuple(stmts), not carried, tuple(carried)))
    return out


# ---- locals declared inside loops: one variable for all their objects ----------------------

def _copy_cell(scop, s, a, numbers: list[str], width: int) -> isl.Map:
    """The variable an instance of `s` writes: the local's element, then the copy of a jam
    that holds it (0 where `s` is not jammed)."""
    arr = scop.array(a.array)
    index = tuple(a.index if arr.rank else ()) + tuple(numbers) + ("0",) * (width - len(numbers))
    return isl.Map(f"{scop.prefix}{{ {s.tuple_text()} -> {a.array}[{', '.join(index)}] }}") \
        .intersect_domain(scop.domain(s))


def _objects_in_blocks(scop, arr, schedule: isl.UnionMap, numbers: dict | None = None) -> bool:
    """Whether some prefix of the new schedule, on the statements that use `arr`, names its
    objects one to one: the instances of one object share the prefix and no other object's
    do (no other object's of the same variable: `numbers` are the copies a jam gives the
    local, poly/jam_locals.py).  Instances with one prefix are contiguous in the new order, so
    no object's lifetime can overlap another's of its variable.  This is the common case (a tile or a permute of the loops around
    the declaration, which keep each iteration's body together), and it avoids the general
    check's composition of two lexicographic orders, which takes tens of seconds on nests of
    six loops with guards (a 3x3 blur)."""
    users = [s for s in scop.statements if any(a.array == arr.name for a in s.accesses)]
    key = isl.UnionMap.empty(scop.context.get_space())
    var = key           # the variable each instance uses: a jam's copy of the local (`numbers`)
    width = max((len(c) for c in (numbers or {}).values()), default=0)
    for s in users:
        key = key.union(isl.UnionMap.from_map(isl.Map(
            f"{scop.prefix}{{ {s.tuple_text()} -> obj[{', '.join(s.iterators[:arr.private_depth])}] }}")
            .intersect_domain(scop.domain(s))))
        if width:
            own = list(numbers.get(s.id, []))
            var = var.union(isl.UnionMap.from_map(isl.Map(
                f"{scop.prefix}{{ {s.tuple_text()} -> var[{', '.join(own + ['0'] * (width - len(own)))}] }}")
                .intersect_domain(scop.domain(s))))
    key = key.intersect_params(scop.context)
    var = var.intersect_params(scop.context) if width else None
    theta = schedule.intersect_domain(key.domain())
    maps = union_maps(theta)
    if not maps:
        return True
    depth = maps[0].dim(isl.dim_type.out)
    if any(m.dim(isl.dim_type.out) != depth for m in maps):
        return False
    # asked as functions between objects and prefixes, not as relations between pairs of
    # instances: on a peeled or unrolled schedule of many pieces the pairs take minutes
    for k in range(1, depth + 1):
        prefix = isl.UnionMap.empty(scop.context.get_space())
        for m in maps:
            prefix = prefix.union(isl.UnionMap.from_map(m.project_out(isl.dim_type.out, k, depth - k)))
        if not key.reverse().apply_range(prefix).is_single_valued():
            return False            # a longer prefix parts an object's instances too
        # without a jam's copies every instance uses the one variable
        block = prefix if var is None else prefix.range_product(var)
        if block.reverse().apply_range(key).is_single_valued():
            return True             # objects in one block have variables of their own
    return False


def lifetime_overlap(deps: Deps, schedule: isl.UnionMap, copies: dict | None = None) -> str | None:
    """Where the new order makes two objects of a loop-local variable live at once, or None.

    C gives every iteration of the loops around a local's declaration its own object, and the
    dependences say so (no order between iterations).  The code keeps one variable for all
    of them, which is right as long as no other object's write falls between a write and a
    read of the value it wrote: e.g. a jam or a distribute that puts S0 of the next iteration
    between S0 and S1 of this one.  `copies` (poly/jam_locals.copy_cells): the locals a jam
    gives a variable per copy, and each statement's copy numbers.
    """
    scop = deps.scop
    copies = copies or {}
    for arr in scop.arrays:
        flows = [d.relation for d in deps.items if d.kind == "RAW" and d.array == arr.name]
        if not arr.private_depth or not flows:
            continue
        flow = isl.UnionMap.empty(deps.context.get_space())
        for r in flows:
            flow = flow.union(isl.UnionMap.from_map(r))
        obj = isl.UnionMap.empty(deps.context.get_space())
        cell = obj          # the element written in the one variable the code keeps
        named = copies.get(arr.name, {})
        width = max((len(c) for c in named.values()), default=0)
        for s in scop.statements:
            for a in s.accesses:
                if a.array == arr.name and a.kind == "write":
                    obj = obj.union(isl.UnionMap.from_map(scop.access_map(s, a, private=True)))
                    cell = cell.union(isl.UnionMap.from_map(
                        _copy_cell(scop, s, a, named.get(s.id, []), width) if width else scop.access_map(s, a)))
        obj = obj.intersect_params(deps.context)
        if _objects_in_blocks(scop, arr, schedule, named):
            continue
        theta = schedule.intersect_domain(obj.domain().union(flow.range()))
        before = theta.lex_lt_union_map(theta)
        # another iteration's write of the same element (of an array: another element is not
        # in the way)
        other = before.intersect_domain(flow.domain()).intersect_range(obj.domain()) \
            .intersect(cell.apply_range(cell.reverse())).subtract(obj.apply_range(obj.reverse()))
        bad = other.apply_range(before).intersect(flow)
        if bad.is_empty():
            continue
        m = next(x for x in union_maps(bad) if not x.is_empty())
        pt = small_point(m, scop)
        if pt is None:
            return f"the new order overlaps the lifetimes of two iterations' '{arr.name}'"
        src, dst, sizes = pt
        sid, did = m.get_tuple_name(isl.dim_type.in_), m.get_tuple_name(isl.dim_type.out)
        a_pt = isl.Set(f"{scop.prefix}{{ {sid}[{', '.join(map(str, src))}] }}")
        b_pt = isl.Set(f"{scop.prefix}{{ {did}[{', '.join(map(str, dst))}] }}")
        mids = isl.UnionSet(a_pt).apply(other).intersect(isl.UnionSet(b_pt).apply(before.reverse()))
        if sizes:
            mids = mids.intersect_params(scop.params_where(f'{p} = {v}' for p, v in sizes.items()))
        fmt = lambda name, p: f"{name}({','.join(map(str, p))})"
        at = f" (with {', '.join(f'{p}={v}' for p, v in sizes.items())})" if sizes else ""
        mid = ""
        if not mids.is_empty():
            c = mids.sample_point()
            cs = c.get_space()
            vals = [c.get_coordinate_val(isl.dim_type.set, k).to_python()
                    for k in range(cs.dim(isl.dim_type.set))]
            mid = f"{fmt(cs.get_tuple_name(isl.dim_type.set), vals)} writes another iteration's '{arr.name}' "
        return (f"{mid}between {fmt(sid, src)}'s write of '{arr.name}' and {fmt(did, dst)}'s read of it"
                f"{at}; '{arr.name}' has an object per iteration of the loop (declared inside it, or "
                f"privatized), and the new order overlaps the "
                f"lifetimes of two iterations' values in the one variable that holds them")
    return None
