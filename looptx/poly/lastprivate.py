"""`lastprivate(x)` of a variable the code reads after the loop.

privatize gives such a variable no copy per iteration (the value the region leaves in it would
be lost), so the model keeps one object, and every order a step makes keeps its dependences.
OpenMP's copies then compute what that object holds where
- each read of x in the loop takes the value its own iteration wrote (none crosses iterations
  or comes from before the loop: a copy starts undefined), and
- every iteration writes x, so the last one, whose copy OpenMP leaves in x, ends with the
  value the serial loop ends with; that holds for each loop isl prints the range in, too.
  The writes are in the loop's body itself, not in a loop inside it: isl prints the loops
  around a statement without asking whether the inner ones run (`for (j = 0; j < m; j++)` at
  m = 0 leaves an iteration that writes nothing).
The loop's dependences on x between its iterations are then between copies, and the parallel
check passes them over."""
from __future__ import annotations

import re

import islpy as isl

from looptx.errors import LegalityError
from looptx.frontend.names import to_model, to_user
from looptx.poly.privatize import value_flow
from looptx.poly.scop import union_maps, union_sets
from looptx.poly.variant import LoopDim, Variant, loop_reads

_CLAUSE = re.compile(r"\blastprivate\s*\(\s*(?:conditional\s*:\s*)?([^()]*)\)")


def clause_vars(text: str) -> list[str]:
    """The variables of a directive's lastprivate clauses, as the model names them."""
    return list(dict.fromkeys(to_model(x.strip()) for names in _CLAUSE.findall(text)
                              for x in names.split(",") if x.strip()))


def shared_copies(v: Variant, group, c: int, loops: int, text: str) -> set[str]:
    """The scalars of `text`'s lastprivate clauses that stay one object in the model, whose
    copies per iteration of the `loops` loops from schedule position `c` (over the pieces
    `group`) keep the program's meaning; a LegalityError where a copy would not."""
    scop, width = v.scop, v.width
    kept = set()
    inside = isl.UnionMap.empty(v.schedule_map(width).get_space())
    for k in group:
        inside = inside.union(isl.UnionMap.from_map(v.piece_map(v.pieces[k], width)))
    last = c + 2 * (loops - 1)
    for var in clause_vars(text):
        arr = next((a for a in scop.arrays if a.name == var), None)
        if arr is None or not arr.is_scalar or arr.private_depth:
            continue
        flow = value_flow(scop, {var})

        def refuse(why: str, hint: str | None = None) -> LegalityError:
            return LegalityError(f"'#pragma {text}': lastprivate({to_user(var)}) gives each iteration its own "
                                 f"'{to_user(var)}', but {why}",
                                 hint=hint or f"keep '{to_user(var)}' shared and put the pragma on a loop each of "
                                              "whose iterations writes it before reading it", **scop.where())

        for m in union_maps(flow.get_may_dependence().intersect_params(v.context)):
            times = isl.UnionMap.from_map(m).apply_domain(v.schedule_map(width)).apply_range(inside)
            for t in union_maps(times):
                same = t
                for q in range(last + 1):
                    same = same.equate(isl.dim_type.in_, q, isl.dim_type.out, q)
                if not t.subtract(same).is_empty():
                    src, dst = (scop.statements[int(m.get_tuple_name(d)[1:])] for d in (isl.dim_type.in_, isl.dim_type.out))
                    raise refuse(f"S{dst.id} (line {dst.line}) reads the value S{src.id} (line {src.line}) wrote "
                                 "in another iteration or outside the loop")
        orphans = flow.get_may_no_source().domain().intersect_params(v.context).intersect(inside.domain())
        if not orphans.is_empty():
            s = scop.statements[int(union_sets(orphans)[0].get_tuple_name()[1:])]
            raise refuse(f"S{s.id} (line {s.line}) reads the value it had before the loop")
        for k in group:
            p = v.pieces[k]
            deeper = [d for d in p.dims[last + 1:] if isinstance(d, LoopDim)]
            if deeper and any(a.array == var and a.kind == "write" for a in scop.statements[p.stmt].accesses) \
                    and not _inner_loops_always_run(v, k, last):
                s = scop.statements[p.stmt]
                raise refuse(f"S{s.id} (line {s.line}) writes it inside loop '{to_user(deeper[0].name)}', and an "
                             f"iteration in which '{to_user(deeper[0].name)}' runs no iteration writes nothing")
        writes = inside.domain().subtract(inside.domain())
        for s in scop.statements:
            for a in s.accesses:
                if a.array == var and a.kind == "write":
                    writes = writes.union(isl.UnionSet.from_set(scop.access_map(s, a).domain()))
        iterations = _points(inside.range(), last + 1)
        written = _points(inside.intersect_domain(writes).range(), last + 1)
        if iterations is not None and (written is None or not iterations.is_subset(written)):
            raise refuse("an iteration of the loop does not write it, and OpenMP leaves it undefined "
                         "after a last iteration that does not")
        idle = _runs_no_iteration(v, group, c, width)
        if idle is not None and not _overwritten_after(v, group, c, var, flow, idle[2]):
            where, runs, _ = idle
            raise refuse(f"the loop runs no iteration {where}, where OpenMP leaves it undefined after the loop "
                         "(the value it had before is lost)",
                         f"if it always runs, say so with a step before this one, `known: {{facts: ['{runs}']}}`"
                         if runs else "put the pragma on a loop that always runs, or keep it shared")
        kept.add(var)
    return kept


def _overwritten_after(v: Variant, group, c: int, var: str, flow, idle: isl.Set) -> bool:
    """Whether, at the sizes `idle` where the loop runs no iteration, the code after it writes
    `var` before any read there and at least once: the value OpenMP leaves undefined is then
    never seen (a peeled last iteration, which always runs, writes `t` right after the loop;
    probe 224 G1).  Only for a loop no loop encloses, where "after" is the pieces placed after
    it."""
    first = v.pieces[group[0]]
    if any(isinstance(d, LoopDim) for d in first.dims[:c]):
        return False
    at = tuple(first.dims[:c])
    after = [q for q in v.pieces if all(isinstance(d, int) for d in q.dims[:c]) and tuple(q.dims[:c]) > at]
    if not after:
        return False
    scop = v.scop
    dom = isl.UnionSet.empty(v.context.get_space())
    for q in after:
        dom = dom.union(isl.UnionSet.from_set(v.piece_domain(q)))
    idle = idle.intersect_params(v.context)
    writes = dom.subtract(dom)
    for s in scop.statements:
        for a in s.accesses:
            if a.array == var and a.kind == "write":
                writes = writes.union(isl.UnionSet.from_set(scop.access_map(s, a).domain()))
    written = writes.intersect(dom).params()
    if not idle.align_params(written.get_space()).is_subset(written.align_params(idle.get_space())):
        return False
    # a read after the loop that takes its value from the loop or from before it
    deps = flow.get_may_dependence().intersect_range(dom).subtract_domain(dom).intersect_params(idle)
    unset = flow.get_may_no_source().domain().intersect(dom).intersect_params(idle)
    return deps.is_empty() and unset.is_empty()


def _runs_no_iteration(v: Variant, group, c: int, width: int) -> tuple[str, str | None, isl.Set] | None:
    """Where a loop at schedule position `c` of the pieces `group` is reached and runs no
    iteration (`for (i = lo; i < n; i++)` at lo >= n, or the loop a peel leaves at n = 1), said
    as sizes; None where each always runs one.  The pieces of one loop share what comes before
    position c (a peel's part is a loop of its own); the loops around it are reached where any
    piece inside them runs."""
    loops: dict = {}
    for k in group:
        loops.setdefault(v.pieces[k].dims[:c], []).append(k)
    for ks in loops.values():
        inside = isl.UnionMap.empty(v.schedule_map(width).get_space())
        for k in ks:
            inside = inside.union(isl.UnionMap.from_map(v.piece_map(v.pieces[k], width)))
        idle = _idle(v, ks, c, inside, width)
        if idle is not None:
            return idle
    return None


def _idle(v: Variant, group, c: int, inside: isl.UnionMap, width: int) -> tuple[str, str | None, isl.Set] | None:
    p = v.pieces[group[0]]
    around = [d for d in p.dims[:c] if isinstance(d, LoopDim)]
    runs = _points(inside.range(), c)
    if not around:
        missing = v.context.subtract(runs.params() if runs is not None else v.context.subtract(v.context))
    else:
        names = [d.name for d in around]
        # the loops around are reached where any piece inside them runs (a statement after the
        # loop, `c[i] = t;`, too): compared at their own coordinates, not the loop's position
        reached = None
        for q in v.pieces:
            if [d.name for d in q.dims[:c] if isinstance(d, LoopDim)] == names:
                t = _points(v.piece_map(q, width).range(), c - 1)
                reached = t if reached is None or t is None else reached.union(t)
        if reached is None:
            return None
        ran = _points(inside.range(), c - 1)
        missing = reached.subtract(ran).params() if ran is not None else reached.params()
        written, ok_written = _idle_as_written(v, group, around)
        if written is not None:
            written = written.align_params(missing.get_space())
            missing = missing.align_params(written.get_space()).union(written)
    if missing.is_empty():
        return None
    pt = missing.sample_point()
    sizes = [f"{to_user(missing.get_dim_name(isl.dim_type.param, k))}="
             f"{pt.get_coordinate_val(isl.dim_type.param, k).to_python()}"
             for k in range(missing.dim(isl.dim_type.param))]
    # the sizes under which it runs, as a fact a `known` step states (one conjunction only)
    fact, ok = None, None
    if not around and runs is not None:
        ok = runs.params().gist(v.context).coalesce()
    elif around and ok_written is not None:
        ok = ok_written.coalesce()
    # a fact that leaves some idle sizes (a triangular `i < t` idles at t = 0 at any size) is none
    if ok is not None and missing.intersect(ok.align_params(missing.get_space())).is_empty():
        if ok.n_basic_set() == 1:
            text = str(ok)
            inner = text[text.index("{") + 1:text.rindex("}")].strip()
            fact = to_user(inner[1:].strip()) if inner.startswith(":") and inner[1:].strip() else None
    return (f"at some sizes (with {', '.join(sizes)})" if sizes else "at some iterations of the loops around it"), fact, \
        missing


def _inner_loops_always_run(v: Variant, k: int, last: int) -> bool:
    """Whether the loops inside the lastprivate loop (at schedule position `last`) around piece
    k's statement run at least once in every iteration of it, as the source bounds them (`j < 4`,
    a tile's point loop): each iteration then writes the variable."""
    p = v.pieces[k]
    around = [d for d in p.dims[:last + 1] if isinstance(d, LoopDim)]
    iterators = v.scop.statements[p.stmt].iterators
    outer = set().union(*(loop_reads(d, iterators) for d in around))
    # the point loops of a tile or an unroll of the loops around run once at least: those
    # loops' iterations are their points'
    deeper = [d for d in p.dims[last + 1:] if isinstance(d, LoopDim) and not loop_reads(d, iterators) <= outer]
    if not deeper:
        return True
    # (a tile or an unroll of an inner loop changes which of its iterations run together, not
    # whether one runs: the statement's domain, as written, says that)
    idle, _ = _idle_as_written(v, [k], around)
    return idle is not None and idle.is_empty()


def _idle_as_written(v: Variant, group, around) -> tuple[isl.Set | None, isl.Set | None]:
    """The sizes at which the loops around, as the source bounds them, reach the loop and it
    runs no iteration: the model has no instance where it runs none (`for t { for (i = 1;
    i < n - 1; i++) }` at n = 2 is no point of t), so the pieces cannot say t was reached.
    Only for loops around that are the statement's own outer loops, as written.  With it, the
    sizes at which the loop runs wherever it is reached (a fact a `known` step can state)."""
    names = tuple(d.expr.strip() for d in around)
    out = ok = None
    for k in group:
        p = v.pieces[k]
        s = v.scop.statements[p.stmt]
        if p.restrict or names != s.iterators[:len(names)]:
            continue
        dom = v.scop.domain(s).intersect_params(v.context)
        n, rest = len(names), dom.dim(isl.dim_type.set) - len(names)
        if rest == 0:
            continue
        runs = dom.project_out(isl.dim_type.set, n, rest)
        # a bound of the loops around that an inner loop's bound implies is not one of theirs
        reached = dom.drop_constraints_involving_dims(isl.dim_type.set, n, rest) \
            .project_out(isl.dim_type.set, n, rest)
        idle = reached.subtract(runs).params()
        out = idle if out is None else out.union(idle.align_params(out.get_space()))
        runs_where = runs.params().gist(reached.params().intersect(v.context))
        ok = runs_where if ok is None else ok.intersect(runs_where.align_params(ok.get_space()))
    return out, ok


def _points(u: isl.UnionSet, dims: int) -> isl.Set | None:
    """The time points of `u` cut to their first `dims` coordinates (None where there are none)."""
    if u.is_empty():
        return None
    s = isl.Set.from_union_set(u)
    return s.project_out(isl.dim_type.set, dims, s.dim(isl.dim_type.set) - dims)
