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


def say_extra_arrays(rc, ordered: list[tuple[str, str]]) -> None:
    """A call written for the original function passes its own parameters only: the file's
    arrays and scalars the region uses (a `static const` table, globals) come after them, and
    the caller must give them too (probe 89: a table left off read garbage, silently); a scalar
    the region writes by its address (probe 173: `total`, taken as `double *total`).
    `ordered`: (name, declaration) of the host function's parameters, in order."""
    from looptx.errors import note_once
    scop = rc.variant.scop
    names = [n for n, _ in ordered]
    own = {to_user(p) for p in scop.function_params}
    # a parameter's struct members take its place in the signature (members.py), not after it
    members = {to_user(n) for n, chain in scop.member_chains().items() if _struct_of(chain) in own}
    by_name = {a.name: a for a in rc.arrays}
    decl = dict(ordered)
    derived = dict(scop.derived)
    taken = [n for n in names if n in by_name and to_user(n) not in own | members and n not in derived
             and (by_name[n].rank or not by_name[n].local)]
    extra = [to_user(n) if by_name[n].rank or "*" not in decl[n] else f"&{to_user(n)}" for n in taken]
    arrays = set(by_name)
    # Orio's matVec2D: `int nrows = m*n;` before the region, read by its loops
    scalars = [to_user(n) for n in names if n not in arrays and to_user(n) not in own and n in derived]
    # (the whole signature: a size the function sets before the region takes the place of the
    # parameters it is made from, which the host function then lacks)
    signature = f"{rc.name}_host({', '.join(to_user(d) for _, d in ordered)})"
    if extra:
        what = "variables" if any(not by_name[n].rank for n in taken) else "arrays"
        note_once(scop.filename, scop.region_span[0] or None,
                  f"{signature} takes {', '.join(extra)}, the region's {what if len(extra) > 1 else what[:-1]} "
                  f"that the original function does not take, which the .cu cannot see; a call written for the "
                  f"original must pass {'them' if len(extra) > 1 else 'it'} too")
    if scalars:
        note_once(scop.filename, scop.region_span[0] or None,
                  f"{signature} takes {', '.join(scalars)}: "
                  + "; ".join(f"the function sets {to_user(n)} = {derived[to_model(n)]} before the region"
                              for n in scalars)
                  + ", and a call written for the original must pass that value")
