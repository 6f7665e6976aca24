"""Arrays of structs in the .cu (frontend/records.py): the model's member arrays (`p__x`,
`p__v`) are one device array of the user's struct type (`p`), allocated, copied and passed
once, so that the members the kernels write land in the same structs the host reads back."""
from __future__ import annotations

import re
from dataclasses import replace

from looptx.frontend.names import with_values
from looptx.poly.scop import Array

__all__ = ["device_arrays", "written_arrays", "record_definitions", "members_of", "record_count"]


def members_of(scop, base: str) -> list:
    return [r for r in scop.records if r.base == base]


def written_arrays(scop) -> frozenset[str]:
    """The arrays the region writes, an array of structs when it writes one of its members."""
    out = {a.array for s in scop.statements for a in s.accesses if a.kind == "write"}
    return frozenset(out | {r.base for r in scop.records if r.name in out})


def device_arrays(scop, arrays: list[Array]) -> list[Array]:
    """`arrays` with the members of each array of structs replaced, at the first one's place,
    by the struct array itself (element type the struct, extents the array's)."""
    if not scop.records:
        return arrays
    written = written_arrays(scop)
    out, seen = [], set()
    for a in arrays:
        rec = scop.record(a.name)
        if rec is None:
            out.append(a)
        elif rec.base not in seen:
            seen.add(rec.base)
            out.append(replace(a, name=rec.base, ctype=rec.layout.ctype, dims=a.dims[:rec.rank],
                               role="inout" if rec.base in written else "in", rank=rec.rank,
                               strides=None, decl="", spelled_ctype="", spelled_decl=""))
    return out


def record_definitions(scop, values: dict) -> list[str]:
    """The struct types' definitions, their extents at the sizes' values (`double pos[D]`: a
    size may be a parameter of the .cu's functions, which file scope cannot see)."""
    out: list[str] = []
    for r in scop.records:
        out += [d for d in r.layout.definitions if d not in out]
    return [re.sub(r"\[([^\[\]]*)\]", lambda m: "[" + with_values(m.group(1), values) + "]", d) for d in out]


def record_count(scop, base: str, reached) -> tuple[str | None, str | None]:
    """(count, None) of a struct array without extents: the most structs any member reaches
    (`reached(member array)` gives one member's count over the struct array's own extents)."""
    counts = []
    for rec in members_of(scop, base):
        arr = scop.array(rec.name)
        n, why = reached(replace(arr, dims=arr.dims[:rec.rank]))
        if n is None:
            return None, why
        if n not in counts:
            counts.append(n)
    text = counts[0]
    for c in counts[1:]:
        text = f"(({text}) > ({c}) ? ({text}) : ({c}))"
    return text, None
