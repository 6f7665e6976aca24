"""Orio's `transform CUDA(threadCount=TC, blockCount=BC, unrollInner=U, ...)` (and Composite's
`cuda=(TC, ...)`) as looptx steps.

Orio's CUDA submodule runs the loop that follows the directive across the GPU, one iteration
per thread, and its inner loops in each thread: `tid = blockIdx.x * blockDim.x + threadIdx.x`,
with `blockCount` blocks striding over the iterations.  Here that is
- a tile of the loop by TC, its control loop on blocks and the point loop on threads;
- with blockCount, a second tile of the control loop by BC, moved inside its own tile loop:
  BC blocks, each running its share of the tiles in a loop (Orio's grid-stride loop, in
  contiguous chunks); without it, one block per TC iterations (Orio's default is one block per
  multiprocessor, which looptx does not need: its grid covers the loop);
- unrollInner: an unroll of each innermost loop inside by U.
The mapping is checked like any cuda step: a loop that carries a dependence is refused.  The
arguments that steer Orio's host code and caches (cacheBlocks, pinHostMem, streamCount,
dataOnDevice, preferL1Size, domain) change nothing in looptx's code and are reported once.
"""
from __future__ import annotations

from looptx.errors import note_once

MAX_THREADS = 1024
HOST_ONLY = ("cacheBlocks", "pinHostMem", "streamCount", "domain", "dataOnDevice", "preferL1Size")
# Composite's cuda = (threadCount, cacheBlocks, pinHostMem, streamCount)
COMPOSITE_ORDER = ("threadCount", "cacheBlocks", "pinHostMem", "streamCount")
# what each argument is when it asks for nothing
_NEUTRAL = {"cacheBlocks": False, "pinHostMem": False, "streamCount": 1, "domain": None,
            "dataOnDevice": False, "preferL1Size": 0}


def cuda_steps(ln, nest, d, args: dict, step, out, *, own_loop, as_int, unroll,
               name: str = "CUDA") -> None:
    """Appends the steps of one Orio CUDA transformation (see the module docstring)."""
    lid, loop = _mapped_loop(ln, nest, d, name, own_loop)
    tc = as_int(ln, args.get("threadCount", 32), "threadCount")
    if tc > MAX_THREADS:
        raise ln.error(f"threadCount {tc} is more than the {MAX_THREADS} threads of a block",
                       hint="constrain threadCount to at most 1024")
    bc = args.get("blockCount")
    bc = None if bc is None else as_int(ln, bc, "blockCount")
    unroll_by = args.get("unrollInner")
    unroll_by = None if unroll_by is None else as_int(ln, unroll_by, "unrollInner")
    # every one the directive names, whatever this point's values, so that a search says it once
    asked = [a for a in HOST_ONLY if a in args] if any(args[a] != _NEUTRAL[a] for a in HOST_ONLY if a in args) else []
    if asked:
        many = len(asked) > 1
        note_once(ln.file, ln.line, f"Orio's CUDA {', '.join(asked)} {'are' if many else 'is'} "
                  f"ignored: looptx's host code and kernels do not use {'them' if many else 'it'}")
    inside = [s for s in d.stmts if lid in [x for x, _ in nest.chains[s]]]
    s0 = inside[0]
    # Orio's kernel declares the scalars the loop sets in each thread; here a privatize step
    # does, where the scalar carries no value across iterations and is dead after the region
    for var in dict.fromkeys(v for s in inside for v in nest.written[s]):
        step("privatize", optional=True, var=var, at=loop)
    taken = {nm for chain in nest.chains for _, nm in chain}
    blocks = _fresh(f"{loop}_blk", taken)
    # Composite's unrolljam of the loop comes first: each thread runs one unrolled iteration,
    # so a block's tile spans TC of them, tiled before the unroll (whole steps per thread)
    unrolled_at = nest.unrolled.get(lid)
    step("tile", stmt=s0, loop=loop, size=tc * nest.unroll_factor.get(lid, 1), control=blocks)
    if unrolled_at is not None:
        out.insert(unrolled_at, out.pop())
        nest.unrolled = {x: k + (k >= unrolled_at) for x, k in nest.unrolled.items()}
    _insert_before(nest, lid, blocks)
    if bc is not None and bc > 1:
        rounds = _fresh(f"{loop}_grid", taken | {blocks})
        step("tile", stmt=s0, loop=blocks, size=bc, control=rounds)
        _insert_before(nest, nest.next_id, rounds)
        step("permute", stmt=s0, order=[blocks, rounds, loop])
        for chain in nest.chains:
            names = [nm for _, nm in chain]
            if rounds in names:
                k = names.index(rounds)
                chain[k], chain[k + 1] = chain[k + 1], chain[k]
    step("cuda", stmt=s0, block=[blocks], thread=[loop])
    if unroll_by is not None and unroll_by > 1:
        inner = _innermost(nest, d, lid)
        if inner:
            unroll(ln, nest, d, [(name, unroll_by) for name in inner], step, out)


def _mapped_loop(ln, nest, d, name: str, own_loop) -> tuple[int, str]:
    """The loop the directive maps: the one it stands before, or the one loop of the block it
    stands before (Orio's regression tests write `Composite(cuda=...) { for (...) ... }`)."""
    if d.loop is not None:
        return d.loop, own_loop(ln, nest, d, name)
    firsts = {next((x for x in nest.chains[s] if x[0] not in d.outside), None) for s in d.stmts}
    if len(firsts) != 1 or None in firsts:
        raise ln.error(f"'transform {name}' must stand before one for loop, or a block that holds one",
                       hint="put it in front of the loop it maps to the GPU")
    return firsts.pop()


def _fresh(stem: str, taken: set[str]) -> str:
    name, k = stem, 1
    while name in taken:
        k += 1
        name = f"{stem}{k}"
    return name


def _insert_before(nest, lid: int, name: str) -> None:
    """The new control loop `name` goes right outside loop `lid` in every chain that has it."""
    nest.next_id += 1
    for chain in nest.chains:
        ids = [x for x, _ in chain]
        if lid in ids:
            chain.insert(ids.index(lid), (nest.next_id, name))


def _innermost(nest, d, mapped: int) -> list[str]:
    """The loops inside the mapped one that are the innermost loop of every statement in them
    (an outer loop would be unrolled and jammed, which unrollInner does not ask for)."""
    chains = [nest.chains[s] for s in d.stmts if mapped in [x for x, _ in nest.chains[s]]]
    out = []
    for chain in chains:
        lid, name = chain[-1]
        if lid == mapped or name in out:
            continue
        if all(c[-1][0] == lid for c in chains if lid in [x for x, _ in c]):
            out.append(name)
    return out


def as_mapping_refusal(e, st) -> None:
    """A dependence that the permute of a CUDA directive's blockCount breaks is the directive's:
    the grid-stride rounds run the mapped loop's iterations in another order, and its threads
    in parallel.  The error names the directive, not a step the user never wrote."""
    directive = st.text.rpartition("# Orio ")[2] if "# Orio " in st.text else ""
    if st.name != "permute" or not directive.startswith(("CUDA", "Composite", "cuda")):
        return
    directive = directive.split("(")[0]
    e.hint = (f"Orio's {directive} directive runs the iterations of the loop it maps in parallel, and "
              "this dependence orders them: map a loop that carries no dependence (see looptx deps), "
              "or pass --unsafe")
    e.step, e.step_name = st.index, f"{directive}, its blockCount rounds"

