"""The GPU mapping's exactness check: a mapped loop carries no dependence, and a dependence
between two threads of one block is met by a barrier or refused (poly/gpu.py builds the
kernels it checks)."""
from __future__ import annotations

import islpy as isl

from looptx.errors import LegalityError, RecipeError
from looptx.frontend.names import to_user
from looptx.poly import deps as D
from looptx.poly.gpu import Kernel, kernels, loop_at, mappings, unrolled_away
from looptx.poly.parallel import instances, scheduled_deps
from looptx.poly.variant import LoopDim, Variant


def check(v: Variant, deps: D.Deps) -> list[tuple[Kernel, int]]:
    """Mapped loops must carry no dependence; a dependence between two threads of one block is
    allowed only across iterations of a block-uniform loop (a barrier is then placed at the end
    of that loop's body).  Returns the (kernel, loop position) pairs that need a barrier."""
    if not mappings(v):
        return []
    width = v.width
    barriers = []
    for K in kernels(v):
        if not K.mapped:
            continue
        mapped = K.block + K.thread
        first_thread = min(K.thread) if K.thread else width   # no thread loop: one thread per block
        race, more = None, []                   # the first mapped loop's race, the others' deps
        outside: dict[int, set[int]] = {}       # statement -> mapped positions it runs across
        for k, ps in K.lacking.items():
            outside.setdefault(v.pieces[k].stmt, set()).update(ps)
        for dep, m in scheduled_deps(v, K.pieces, deps, width):
            across = outside.get(dep.source, set()) | outside.get(dep.sink, set())
            # every thread runs such a source itself, in order, on its own copy of the local:
            # the value a thread reads is the one the sequential code reads
            own_copy = dep.source in outside and v.scop.array(dep.array).local
            t = m                               # the pairs equal on dimensions 0 .. c-1
            for q in range(K.root):
                t = t.equate(isl.dim_type.in_, q, isl.dim_type.out, q)
            for c in range(K.root, width):
                if c > K.root:
                    t = t.equate(isl.dim_type.in_, c - 1, isl.dim_type.out, c - 1)
                carried = t.order_lt(isl.dim_type.in_, c, isl.dim_type.out, c)
                if carried.is_empty():
                    continue
                if c in mapped:
                    if v.unchecked:             # --unsafe: generated as asked, marked UNSAFE
                        continue
                    # the others only name, in the hint, every temporary to privatize at once
                    if race is None:
                        race = (dep, carried, K, c)
                    else:
                        more.append(dep)
                    break
                if race is not None:
                    continue
                if own_copy:
                    continue
                if across:
                    # one end runs in every thread (or block): no pair stays in one thread; a
                    # barrier orders only the threads of one block, and no local of theirs
                    cross = carried
                    can_sync = not set(K.block) & across and not v.scop.array(dep.array).local
                    what = "runs a statement outside the mapped loops in every thread, with no barrier between them"
                else:
                    # carried by an in-kernel sequential loop or by statement order: fine if every
                    # pair stays in one thread; else it needs a barrier at a block-uniform loop
                    same_thread = carried
                    for p in K.thread:
                        same_thread = same_thread.equate(isl.dim_type.in_, p, isl.dim_type.out, p)
                    cross = carried.subtract(same_thread)
                    if cross.is_empty():
                        continue
                    can_sync = True
                    what = "puts them in different threads of one block with no barrier between them"
                if can_sync and c % 2 == 1 and c < first_thread:
                    if (K, c) not in barriers:
                        barriers.append((K, c))
                    continue
                if v.unchecked:
                    continue
                raise _race(v, deps, dep, cross, K, c, what)
        if race is not None:
            raise _race(v, deps, *race, "runs them in parallel", more)
    return barriers


def _race(v, deps, dep, rel_sched, K, c, what, more=()) -> LegalityError:
    inst = instances(v, dep, rel_sched)
    k = loop_at(v, K, c) if c % 2 == 1 else None
    name = v.pieces[k].dims[c].name if k is not None else None
    text = D.describe_violation(deps, dep, inst, f"the mapping of loop '{name}' {what}" if name else
                                f"kernel {K.name} {what}")
    from looptx.poly.privatize import hint as privatize_hint
    hint = "map loops that carry no dependence (see looptx deps)" + privatize_hint(deps, dep, more)
    return K.mapping.error(text, hint=hint, cls=LegalityError)


def mapped_loops_kept(v: Variant, step: int | None = None) -> None:
    """A later step that unrolled a mapped loop fully (a factor of its tile size or more, or 0)
    left no loop for the blocks or threads to take; `step`: the step being checked, which may
    be the cuda step itself, after the unroll."""
    for m in mappings(v):
        _strips_in_tiles(v, m, step is not None and m.step == step)
        for name in m.block + m.thread:
            if unrolled_away(v, m.stmt, name):
                raise RecipeError(f"loop '{to_user(name)}' is no loop after this step (unrolled fully), and "
                                  f"an earlier cuda step maps it to {'threads' if name in m.thread else 'blocks'}",
                                  hint="unroll it by a factor below its trip count, or unroll a loop that is "
                                       "not mapped")


def _strips_in_tiles(v: Variant, m, mapping_now: bool = False) -> None:
    """A thread loop unrolled by a factor that does not divide its tile: each tile would end
    in a partial strip, a thread with fewer copies than the others, which the kernels' thread
    mapping (one strip per thread, `factor` copies each) does not make."""
    for q in v.pieces:
        if q.stmt != m.stmt:
            continue
        loops = [d for d in q.dims if isinstance(d, LoopDim)]
        for d in loops:
            if d.name not in m.thread or not d.factor:
                continue
            size = next((t.counted[3] for t in loops if t.counted and t.counted[0] == d.name), None)
            if size is not None and d.factor >= size:
                if mapping_now:
                    raise RecipeError(f"loop '{to_user(d.name)}' was unrolled fully by an earlier step (by {d.factor}, "
                                      f"its tile of {size}): it is no loop for threads to take",
                                      hint=f"unroll it by a factor below {size} in that step, or map another loop")
                raise RecipeError(f"loop '{to_user(d.name)}' is no loop after this step (unrolled fully), and an "
                                  "earlier cuda step maps it to threads",
                                  hint=f"unroll it by a factor below its tile of {size}, or unroll a loop that is "
                                       "not mapped")
            if size is not None and size % d.factor:
                raise RecipeError(f"loop '{to_user(d.name)}' maps to threads, and an unroll of it by {d.factor} "
                                  f"does not divide its tile of {size}: each tile would end in a partial strip, "
                                  "and a thread runs one whole strip",
                                  hint=f"unroll it by a factor that divides {size}, or tile it by a multiple of "
                                       f"{d.factor}")


def mapping_error(v: Variant) -> RecipeError | None:
    """The error an earlier cuda step's own mapping meets when its kernels are built (a thread
    loop of no constant extent, a block of too many threads), or None.  That check waits for
    the kernels, as later steps may still give the loops their extents; a copy step that fails
    before then must not hide it behind an error the bad mapping caused."""
    from looptx.poly.gpu import kernel_plans
    from looptx.poly.promote import Plan
    steps = {m.step for m in mappings(v) if m.step is not None}
    if not steps:
        return None
    try:
        kernel_plans(Plan(v, v.width), kernels(v), v.scop.prefix)
    except RecipeError as e:
        # only a mapping's own error: anything else is for the step that meets it
        return e if e.step in steps else None
    except Exception:       # noqa: BLE001 - it only picks which error to show: the copy's stands
        return None
    return None
