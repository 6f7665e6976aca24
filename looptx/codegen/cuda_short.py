"""The counts the host function checks before it copies: an array's elements that the sizes
give fewer of than the kernels reach would have them read and write past the device buffers."""
from __future__ import annotations

import re

from looptx.codegen.cuda_records import members_of, record_count
from looptx.frontend.names import to_user, with_values


def short_counts(rc) -> list[tuple[str, str | None, str]]:
    """(array, given count, count the region reaches) of each `sizes` entry that may be below
    what the region reaches, as C text (a count too small at fixed sizes is an error here),
    and (array, None, test) where the region may reach below the first element copied:
    the host function checks them, since copying fewer elements makes the kernels read and
    write past the device buffers."""
    from looptx.codegen.cuda_host import _below_first, _given_counts, _reached_count, constant, declared_count, \
        on_device
    scop = rc.variant.scop
    fixed = dict(scop.fixed)
    values = {**dict(scop.macro_values), **fixed}
    for n, init in scop.derived:           # lx_row = x_max + 4 at a fixed x_max
        v = constant(init, values)
        if v is not None:
            values[n] = v
    out = []
    for name, (text, rec) in _given_counts(rc).items():
        a = next((x for x in rc.arrays if x.name == name), None)
        if a is None or declared_count(a) is not None or not on_device(a, rc.written_scalars):
            continue
        if members_of(scop, name):
            reached, _ = record_count(scop, name, lambda m: _reached_count(scop, m, fixed))
        else:
            reached, _ = _reached_count(scop, a, fixed)
            below = _below_first(scop, a, fixed) if reached is None else None
            if below is not None:
                reached = below[0]
                out.append((name, None, below[1]))       # a test, not a count
        if reached is None:
            continue              # no bound: the count given is all there is to go by
        want, got = constant(reached, values), constant(text, values)
        if want is not None and got is not None:
            if got < want:
                raise rec.error(f"sizes: array '{to_user(name)}' is given {got} elements, but the region "
                                f"reaches element {want - 1} at these sizes, so it needs {want}",
                                hint=f"give at least {want}, or leave '{to_user(name)}' out of the sizes: "
                                     "looptx counts the elements the region reaches")
            continue
        out.append((name, f"(size_t)({with_values(text, fixed)})", reached))
    return out + _declared_short(rc, values, _given_counts(rc))


def _declared_short(rc, values: dict, given) -> list[tuple[str, str, str]]:
    """(array, declared count, count the region reaches) of each array whose declared extents
    are other names than the sizes the region reaches it by (Orio's `decl dynamic double A[N]`
    over a loop to the function's `n`): a caller may pass sizes past the extents."""
    from looptx.codegen.cuda_host import _reached_count, constant, declared_count, on_device
    scop = rc.variant.scop
    fixed = dict(scop.fixed)
    out = []
    for a in rc.arrays:
        declared = declared_count(a) if a.dims else None
        if declared is None or a.name in given or not on_device(a, rc.written_scalars) or members_of(scop, a.name):
            continue
        reached, _ = _reached_count(scop, a, fixed)
        names = set(re.findall(r"[A-Za-z_]\w*", reached or "")) - {"size_t"}
        if reached is None or names <= set(re.findall(r"[A-Za-z_]\w*", declared)) | set(fixed) | set(values):
            continue
        if constant(reached, values) is not None and constant(declared, values) is not None:
            continue
        out.append((a.name, f"({with_values(declared, fixed)})", reached))
    return out
