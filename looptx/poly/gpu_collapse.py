"""A kernel whose `shared` copy sits inside its thread loops (a scalar accumulator keeps the
copy's loop there: `acc = 0; for e, ff { copy; for f acc += ...; } C = acc;`).  As scheduled,
every thread runs the thread loops and makes each copy when the iteration is its own, between
barriers: one thread at a time.  In CUDA each thread runs only its own iteration of the thread
loops, so they can go from the kernel's schedule (their positions set to 0, each statement
still pinned to its thread), and the block's threads make each copy together and meet at each
barrier once.  That is the same computation where every thread runs the same loops around the
copies and barriers, and the copy does not depend on which thread makes it: checked here
exactly, or the kernel keeps the one-thread-at-a-time schedule (with a warning)."""
from __future__ import annotations

import islpy as isl


def _names(n: int, prefix: str) -> list[str]:
    return [f"{prefix}{k}" for k in range(n)]


def _free(s: isl.Set, drop: list[int]) -> isl.Set:
    """`s` with the dimensions `drop` made unconstrained."""
    name = s.get_tuple_name()
    for p in sorted(drop, reverse=True):
        s = s.project_out(isl.dim_type.set, p, 1)
    for p in sorted(drop):
        s = s.insert_dims(isl.dim_type.set, p, 1)
    return s.set_tuple_name(name) if name else s


def independent(domain: isl.Set, threads: list[int]) -> bool:
    """Whether the points of `domain` at each value of the dimensions before the thread ones
    are the same for every thread value: domain = (outer, threads) x (outer, rest)."""
    n = domain.dim(isl.dim_type.set)
    first = min(threads)
    rest = [p for p in range(first, n) if p not in threads]
    both = _free(domain, threads).intersect(_free(domain, rest))
    return both.is_subset(domain)


def one_thread(domain: isl.Set, threads: list[int]) -> isl.Set:
    """The points of `domain` at the lowest thread value (lexicographically) of the others."""
    n = domain.dim(isl.dim_type.set)
    x, y = _names(n, "x"), _names(n, "y")
    same = [f"{x[k]} = {y[k]}" for k in range(n) if k not in threads]
    lower = []
    for j, p in enumerate(threads):
        lower.append(" and ".join([f"{y[q]} = {x[q]}" for q in threads[:j]] + [f"{y[p]} < {x[p]}"]))
    cond = " and ".join(same + ["(" + " or ".join(f"({c})" for c in lower) + ")"])
    m = isl.Map(f"{{ [{', '.join(x)}] -> [{', '.join(y)}] : {cond} }}")
    name = domain.get_tuple_name()
    if name:
        m = m.set_tuple_name(isl.dim_type.in_, name).set_tuple_name(isl.dim_type.out, name)
    m = m.align_params(domain.get_space())
    domain = domain.align_params(m.get_space())
    beaten = m.intersect_domain(domain).intersect_range(domain).domain()
    return domain.subtract(beaten)


def zeroed(width: int, threads: list[int], prefix: str) -> isl.Map:
    """Schedule -> schedule with the thread positions set to 0."""
    t = _names(width, "t")
    out = ["0" if k in threads else t[k] for k in range(width)]
    return isl.Map(f"{prefix}{{ [{', '.join(t)}] -> [{', '.join(out)}] }}")


def not_collapsible(K, copies: list, syncs: list, width: int, dims=()) -> str | None:
    """Why kernel K's thread loops cannot go from its schedule; None where they can: a shared
    copy inside all of them whose footprint no thread value changes, every copy and barrier
    either outside the thread loops or inside all of them, the thread loops next to each other,
    and every statement inside them.  `dims`: the schedule dimensions of a statement of K, for
    the loops' names."""
    from looptx.frontend.names import to_user
    if not K.mapped or not K.thread:
        return "the kernel has no thread loops"
    first, last = min(K.thread), max(K.thread)
    between = [p for p in range(first, last + 1, 2) if p not in K.thread]
    if between:
        name = dims[between[0]].name if between[0] < len(dims) else None
        return f"{f'loop {to_user(name)!r}' if name else 'a loop'} sits between the thread loops"
    if any(set(K.lacking.get(k, ())) & set(K.thread) for k in K.pieces):
        return "a statement of the kernel is outside some thread loop"
    inside = [c for c in copies if c.keep > last and not c.per_thread and c.promotion.kind == "shared"]
    if not inside:
        return "no shared copy is inside the thread loops"
    at_thread = [c for c in copies if first < c.keep <= last]
    if at_thread:
        pr = at_thread[0].promotion
        return f"the {pr.kind} copy of '{to_user(pr.array or '')}' at '{to_user(pr.at)}' sits between the thread loops"
    if any(first < sy.prefix_len <= last for sy in syncs):
        return "a barrier sits between the thread loops"
    if not all(independent(c.schedule.domain(), K.thread) for c in inside):
        return "which elements it copies, or the loops around it, differ between threads"
    return None


def serial_copy_warning(c, K, why: str) -> None:
    """A shared copy inside the thread loops that collapsible() could not hand to the whole
    block (a thread loop at the copy is warned of by the recipe step)."""
    from looptx.errors import note_once
    from looptx.frontend.names import to_user
    pr = c.promotion
    if pr.at in K.mapping.thread:
        return
    where = f"step {pr.step} ({pr.step_name}): " if pr.step is not None else ""
    note_once(pr.file or "recipe", pr.line or 1,
              f"{where}the copy of '{to_user(pr.array or '')}' at '{to_user(pr.at)}', inside the thread loops, is "
              f"made one thread at a time between barriers ({why}); put the copy's loop outside the thread loops, "
              "or copy at the innermost block loop, to have all the block's threads copy together (16x slower "
              "than no copy at all on an H100 gemm)", kind="warning")


def threads_around(v, group, pos: int) -> list[int]:
    """The thread positions of the kernel around a `shared` copy at loop position `pos` when
    they are all outside it and next to each other: the copy then holds what the whole block
    reads (promote.py), so that the block can make it together; [] otherwise."""
    from looptx.poly import schedule as S
    from looptx.poly.gpu import mappings
    inside = {k for k, _ in group}
    for m in mappings(v):
        names = S.loop_names(v, m.stmt)
        outer = min(names.index(x) for x in m.block + m.thread)
        if not inside <= {k for k, _ in S.sharing(v, m.stmt, names[outer])}:
            continue
        tpos = sorted(v.pieces[group[0][0]].position_of(t) for t in m.thread)
        if not tpos or None in tpos or max(tpos) >= pos or tpos != list(range(tpos[0], tpos[-1] + 1, 2)):
            return []
        return tpos
    return []
