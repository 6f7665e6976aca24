"""The `cuda` step's arguments (kernel name, element counts, the order of the mapped loops),
checked at the step, before poly/gpu.py records the mapping."""
from __future__ import annotations

import re

from looptx.errors import RecipeError, note_once
from looptx.frontend.purefuncs import PURE_MATH
from looptx.frontend.names import to_user
from looptx.poly import schedule as S
from looptx.poly.variant import Variant
from looptx.recipe.schema import C_WORDS, Step


# what the generated .cu calls or includes by name besides the CUDA runtime (cuda*): a kernel of
# one of these names does not compile (`printf` is an overloaded function there)
_LIBRARY = frozenset("""printf fprintf sprintf snprintf puts stderr stdout fflush malloc calloc realloc
free memcpy memset memmove exit abort assert atomicAdd atomicMax atomicMin atomicExch atomicCAS
__syncthreads size_t ptrdiff_t threadIdx blockIdx blockDim gridDim warpSize std""".split())


def _check_kernel_name(v: Variant, st: Step, name) -> None:
    """The name becomes a C++ function next to the region's arrays and the other kernels."""
    from looptx.poly.gpu import mappings
    why = None
    if not isinstance(name, str) or not name.isidentifier() or not name.isascii():
        why = "is not a C identifier"
    elif name in C_WORDS or name in _LIBRARY or name.startswith(("__", "lx_", "cuda", "cublas")) \
            or name.endswith(("_host", "_host_status")) or name in PURE_MATH:
        why = "is reserved (a C/CUDA keyword or a name the generated code uses)"
    elif name in {a.name for a in v.scop.arrays} | set(v.scop.params):
        why = "is already the name of an array or size of the region"
    elif name in {m.kernel for m in mappings(v)}:
        why = "is already the name of an earlier cuda step's kernel"
    if why:
        raise st.error(f"kernel name {name!r} {why}", hint="choose another kernel name")


def _from_chill(st: Step) -> bool:
    """A CHiLL/Orio-dialect command (`cudaize(...)`, `cuda(0,block={..},thread={..})`), whose
    scripts and searched mappings (annotations/matmul-mapping.c) rely on CUDA-CHiLL's cudaize
    moving the block loops outside the thread loops."""
    return re.match(r"\s*(?:\w+\.)?(?:cudaize|cuda)\s*\(", st.text or "") is not None


def _order_check(v: Variant, st: Step):
    """The contract: a `cuda` step's thread loops are nested inside all its block loops.  Its
    own step is refused otherwise (a silent interchange hides that the nest changed); the CHiLL
    dialect's is reordered, with a note, and checked as a permute is, after the step."""
    def check(names: list[str], order: list[str], block: list[str], thread: list[str]) -> None:
        outer = [t for t in thread if any(names.index(t) < names.index(b) for b in block)]
        inner = [b for b in block if any(names.index(t) < names.index(b) for t in thread)]
        said = (f"thread loop{'s' if len(outer) > 1 else ''} {', '.join(repr(to_user(t)) for t in outer)} "
                f"enclose{'s' if len(outer) == 1 else ''} block loop{'s' if len(inner) > 1 else ''} "
                f"{', '.join(repr(to_user(b)) for b in inner)}")
        shown = [to_user(n) for n in order]
        if _from_chill(st):
            note_once(st.file or "recipe", st.line or 1,
                      f"step {st.index} ({st.shown_name}): {said}: the loops are reordered to "
                      f"{', '.join(shown)}, as CUDA-CHiLL's cudaize does (checked as a permute)")
            return
        step = f"'permute: {{stmt: {st['stmt']}, order: [{', '.join(shown)}]}}'"
        hint = f"permute first: {step}"
        try:
            S.permute(v, st["stmt"], order)
        except RecipeError as e:
            # (Rodinia gaussian's Fan2: another statement shares the loop the permute moves,
            # and the permute's own refusal names the distribute)
            if e.hint and e.hint.startswith("distribute"):
                hint = f"{e.hint}, then {step}; the permute alone: {e.what}"
        raise st.error(f"{said}; the block loops must be outside the thread loops", hint=hint)
    return check


def cuda_step(v: Variant, st: Step) -> Variant:
    from looptx.poly.gpu import map_step
    if st.get("kernel") is not None:
        _check_kernel_name(v, st, st["kernel"])
    sizes = _array_sizes(v, st) if st.get("sizes") else None
    v = map_step(v, st["stmt"], st.get("block") or [], st.get("thread") or [], st.get("kernel"),
                 (st.index, st.name, st.file, st.line), order_check=_order_check(v, st))
    return v.evolve(extra=v.extra + (sizes,)) if sizes else v


def _array_sizes(v: Variant, st: Step):
    """The step's element counts (CUDA-CHiLL cudaize's array dict), for the host code's copies.
    A key of a CHiLL cudaize that names no array of the region is ignored with a note, as
    CUDA-CHiLL ignores it (its scripts list every array of the procedure, nbody's among them);
    in looptx's own `sizes:` it is an error; one array given two
    different counts by two cuda steps of the region is an error (they share one device copy).
    An entry for an array with declared extents is accepted and ignored by the host code (the
    declaration wins; a provable mismatch is a warning, see codegen/cuda_host.py)."""
    from looptx.codegen.cuda_host import ArraySizes, array_sizes, known_sizes, not_sizes, size_c_text, size_spellings
    # an array of structs (mri-q's `kVals[i].Kx`) is one host copy, sized by its own name
    bases = {r.base for r in v.scop.records}
    arrays = {a.name for a in v.scop.arrays if not a.local} | bases
    known = known_sizes(v.scop)
    spellings, not_ints = size_spellings(v.scop, known), not_sizes(v.scop, known)
    earlier = {name: (text, rec) for rec in array_sizes(v) for name, text in rec.sizes}
    # an array declared inside the region has no host copy to size: skipped without a word
    unused = [to_user(name) for name in st["sizes"] if name not in {a.name for a in v.scop.arrays} | bases]
    if unused and "cudaize" not in st.text:
        # looptx's own `sizes:` lists what the user chose to give: a name there is a typo
        raise st.error(f"sizes: '{unused[0]}' is not an array of the region",
                       hint=f"arrays: {', '.join(sorted(to_user(a) for a in arrays)) or 'none'}")
    if unused:
        names = ", ".join(f"'{n}'" for n in unused)
        note_once(st.file or "recipe", st.line or 1,
                  f"step {st.index} ({st.name}): the sizes of {names} are ignored: the region does not "
                  f"use {'that array' if len(unused) == 1 else 'those arrays'} (CUDA-CHiLL ignores them too)")
    out = []
    for name, value in st["sizes"].items():
        if name not in arrays:
            continue
        try:
            text = size_c_text(value, known, spellings, not_ints)
        except RecipeError as e:
            raise st.error(f"sizes: array '{to_user(name)}': {e.what}", hint=e.hint) from None
        if name in earlier and earlier[name][0] != text:
            other = earlier[name][1]
            raise st.error(f"sizes: array '{to_user(name)}' has {to_user(text)} elements here but "
                           f"{to_user(earlier[name][0])} in step {other.step}",
                           hint="the kernels of a region share one device copy: give one count")
        out.append((name, text))
    return ArraySizes(tuple(out), st.index, st.name, st.file, st.line)


