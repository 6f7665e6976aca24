"""Arrays of structs in the .cu (frontend/records.py): the model's member arrays (`p__x`,
`p__v`) are one device array of the user's struct type (`p`), allocated, copied and passed
once, so that the members the kernels write land in the same structs the host reads back."""
from __future__ import annotations

import re
from dataclasses import replace

from looptx.frontend.names import with_values
from looptx.poly.scop import Array

__all__ = ["device_arrays", "written_arrays", "record_definitions", "members_of", "record_count",
           "refuse_unportable_types"]


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


def refuse_unportable_types(rc) -> None:
    """A struct whose layout the file sets by means the parser does not keep (an attribute
    other than packed, #pragma pack): the .cu, compiled apart, could lay it out otherwise.
    C99 `_Complex` has no CUDA C++ spelling nvcc takes in a kernel's signature (its stub
    code names a `_Complex_double` no header declares): a located error, not a .cu that does
    not compile.  The C target (and its emulation of the grid) keeps them."""
    from looptx.errors import SourceError
    from looptx.runtime.harness import _declared_at
    scop = rc.variant.scop
    for rec in scop.records:
        if rec.layout.unsure:
            where = _declared_at(scop, rec.base, scop.where())
            raise SourceError(f"the file sets the layout of '{rec.layout.ctype}' with {rec.layout.unsure}, "
                              f"which the .cu would not share: its struct array '{rec.base}' could be read "
                              "at other offsets", hint="use --target c, or declare the struct without it "
                              "(__attribute__((packed)) alone is carried over)", **where)
    for a in rc.arrays:
        if "_Complex" in a.ctype.split():
            where = _declared_at(scop, a.name, scop.where())
            raise SourceError(f"'{a.name}' is of type '{a.ctype}', which the CUDA output does not "
                              "support", hint="use --target c, or write the region over separate "
                              "real and imaginary arrays", **where)
        if a.ctype.split()[-2:] == ["long", "double"]:
            # device code reads a long double as a double (8 bytes), while the host copies the
            # x87 elements (16): the kernels would read the bytes as other numbers
            where = _declared_at(scop, a.name, scop.where())
            raise SourceError(f"'{a.name}' is of type 'long double', which CUDA device code reads as "
                              "'double' (8 bytes, where the host's elements are 16)",
                              hint="use --target c, or make the data double", **where)
