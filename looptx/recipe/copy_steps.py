"""Checks of the copy steps (datacopy, shared) that their plans need: a buffer on the stack,
a shared copy inside the thread loops."""
from __future__ import annotations

import re

from looptx.errors import LooptxError, RecipeError, note_once
from looptx.frontend.names import to_user
from looptx.poly import schedule as S
from looptx.poly.variant import Variant
from looptx.recipe.schema import Step

# Linux's default stack is 8 MiB (more than an OpenMP thread gets); the rest of the frame and
# what the function calls need some of it
_STACK = 7 << 20


def fits_the_stack(p, pr, st: Step) -> None:
    """Copy buffers are local arrays of the function: past the stack, the variant dies of
    SIGSEGV when it starts.  The step's buffer is checked with the earlier steps' ones."""
    from looptx.runtime.compare import ctype_info
    total, mine = 0, None
    for b in p.buffers:
        if not b.sizes or b.kind != "datacopy":
            continue
        cells = 1
        for d in b.sizes[:-1] + (b.sizes[-1] + b.pad,):
            cells *= d
        try:
            nbytes = cells * ctype_info(b.ctype)[0].itemsize
        except LooptxError:
            nbytes = cells * 8          # a struct or other type the harness lacks: as a double
        total += nbytes
        if b.name.startswith(to_user(pr.array or "")):
            mine = (b, nbytes)
    if mine is not None and total > _STACK:
        b, nbytes = mine
        others = f" (with the other copies' {(total - nbytes) / 2 ** 20:.1f} MiB)" if total > nbytes else ""
        raise st.error(f"the copy of '{to_user(pr.array)}' is a local array of {nbytes / 2 ** 20:.1f} MiB "
                       f"({' x '.join(map(str, b.sizes))} elements){others}, past the 7 MiB of a thread's 8 MiB "
                       "stack that looptx gives copies: the variant would crash as it starts",
                       "copy at a loop inside (a smaller tile), or use smaller tile sizes")


def shared_by_all_threads(v: Variant, st: Step, at: str) -> Variant:
    """`shared` at a thread loop (without `around`) copies inside the thread loops: each copy
    is a barrier that all of the block's threads reach while one of them copies, so the block
    runs one thread at a time (51x slower on an H100 conv2d).  Legal, hence a warning.  At a loop
    inside the thread loops, that loop is what each thread runs in CUDA: it moves around the
    thread loops, so that all the block's threads make each copy together (the usual shared
    tiling).  That is always legal: each thread's iterations keep their order, and the mapping
    already allows no dependence between two threads inside the thread loops."""
    from looptx.poly.gpu import mappings
    names = S.loop_names(v, st["stmt"])
    for m in mappings(v):
        if not m.thread or st["stmt"] not in {v.pieces[k].stmt for k, _ in S.sharing(v, m.stmt, m.thread[0])}:
            continue
        where = f"step {st.index} ({st.name})"
        if at in m.thread:
            note_once(st.file or "recipe", st.line or 1,
                      f"{where}: the copy at thread loop '{to_user(at)}' is made inside "
                      "the thread loops, one thread at a time between barriers; `around: true` copies "
                      "before them, by all the block's threads (CUDA-CHiLL's copy_to_shared(\"tx\", ...))",
                      kind="warning")
            return v
        threads = [t for t in names if t in m.thread]
        if len(threads) != len(m.thread) or names.index(at) < names.index(threads[-1]):
            return v
        span = names[names.index(threads[0]):names.index(at) + 1]
        order = [n for n in span if n not in m.thread] + threads
        try:
            out = S.permute(v, st["stmt"], order)
        except RecipeError:
            # the copy stays inside the thread loops (a scalar accumulator around its loop):
            # the kernel's plan has the block make it together where it can (poly/gpu_collapse)
            return v
        moved = [n for n in span if n not in m.thread]
        note_once(st.file or "recipe", st.line or 1,
                  f"{where}: loop{'s' if len(moved) > 1 else ''} {', '.join(repr(to_user(n)) for n in moved)} "
                  f"now run{'' if len(moved) > 1 else 's'} around the thread loop{'s' if len(threads) > 1 else ''} "
                  f"{', '.join(repr(to_user(t)) for t in threads)} (each thread's iterations keep their "
                  f"order), so that all the block's threads make the copy together: "
                  f"order {', '.join(map(to_user, S.loop_names(out, st['stmt'])))}")
        return out
    return v


def not_around_hint(st: Step, at: str, names: list[str]) -> str:
    """How to write `shared` at the innermost block loop `at` itself, rather than around it, in
    the step's own dialect (README, CUDA-CHiLL's meanings)."""
    text = st.text or ""
    call = re.match(r"\s*(?:\w+\.)?copy_to_shared\s*\((.*)\)\s*;?\s*$", text, re.S)
    if call is None:
        return f"drop 'around: true': the copy is then made at '{at}' itself, once per block, by its threads"
    inner = names[names.index(at) + 1] if at in names and names.index(at) + 1 < len(names) else None
    stmt = re.match(r"\s*(\d+)\s*,", call.group(1))
    if stmt is not None and not (st.file or "").endswith(".lua"):
        # outside a .lua script, the 3-argument form copies at the loop it names
        return (f"use the 3-argument form copy_to_shared({stmt.group(1)},\"{at}\",\"{to_user(st['array'])}\"), which copies "
                f"at '{at}' itself, once per block, by its threads")
    if inner is None:
        return f"CUDA-CHiLL's copy_to_shared copies around the loop it names: name a loop inside '{at}'"
    quoted = re.sub(rf"([\"']){re.escape(at)}\1", f'"{inner}"', text.strip(), count=1)
    return (f"CUDA-CHiLL's copy_to_shared copies around the loop it names: {quoted} copies around '{inner}', "
            f"at '{at}', once per block, by its threads")
