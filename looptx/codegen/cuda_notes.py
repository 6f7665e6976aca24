"""What the .cu's host code says to the user: counts a cuda step gives that the declaration
overrides, and arguments a call written for the original function does not pass."""
from __future__ import annotations

import re

from looptx.frontend.names import to_model, to_user


def count_warnings(v, arrays, file_macros: dict | None = None) -> list[str]:
    """`sizes` entries that the declaration overrides and that provably differ from it (with
    `file_macros`, also where the declaration's extent is a macro the region does not use)."""
    # (cuda_host writes the host code, and imports this module)
    from looptx.codegen.cuda_host import array_sizes, constant, declared_count
    scop = v.scop
    values = {**(file_macros or {}), **dict(scop.macro_values), **dict(scop.fixed)}
    out = []
    by_name = {a.name: a for a in arrays}
    for rec in array_sizes(v):
        for name, text in rec.sizes:
            a = by_name.get(name)
            n = declared_count(a) if a is not None else None
            if n is None:
                continue
            want, got = constant(n, values), constant(text, values)
            if want is not None and got is not None and want != got:
                where = f"step {rec.step}" if rec.step is not None else "a cuda step"
                if rec.file and rec.line:
                    where = f"{rec.file}:{rec.line}: {where}"
                out.append(f"{where} gives array '{name}' {got} elements, its declaration {want}: "
                           "the declaration is used")
    return out


def _struct_of(chain: str) -> str | None:
    """The variable a member chain starts from (`v->x` and `(*v).x` -> v)."""
    m = re.match(r"\(*\*?(\w+)", chain)
    return m.group(1) if m else None


def say_extra_arrays(rc, names: list[str]) -> None:
    """A call written for the original function passes its own parameters only: the file's
    arrays the region reads (a `static const` table, globals) come after them, and the caller
    must give them too (probe 89: a table left off read garbage, silently)."""
    from looptx.errors import note_once
    scop = rc.variant.scop
    own = {to_user(p) for p in scop.function_params}
    # a parameter's struct members take its place in the signature (members.py), not after it
    members = {to_user(n) for n, chain in scop.member_chains().items() if _struct_of(chain) in own}
    extra = [to_user(a.name) for a in rc.arrays if a.rank and to_user(a.name) not in own | members
             and a.name in names]
    arrays = {a.name for a in rc.arrays}
    # Orio's matVec2D: `int nrows = m*n;` before the region, read by its loops
    derived = dict(scop.derived)
    scalars = [to_user(n) for n in names if n not in arrays and to_user(n) not in own and n in derived]
    if extra:
        note_once(scop.filename, scop.region_span[0] or None,
                  f"{rc.name}_host takes {', '.join(extra)} after the parameters of the original function: "
                  f"the file's {'arrays' if len(extra) > 1 else 'array'}, which the .cu cannot see; a call "
                  "written for the original must pass them too")
    if scalars:
        note_once(scop.filename, scop.region_span[0] or None,
                  f"{rc.name}_host takes {', '.join(scalars)} after the parameters of the original function: "
                  + "; ".join(f"the function sets {to_user(n)} = {derived[to_model(n)]} before the region"
                              for n in scalars)
                  + ", and a call written for the original must pass that value too")
