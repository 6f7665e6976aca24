"""Arrays the region declares itself (`double t[Q][Q];` inside the element loop), in a .cu's
kernels.  A kernel cannot declare a variable-length array, and the sizes its extents name are
kernel arguments there (a #defined size the model keeps symbolic is one): the kernel declares
the array with the extents' values in the file, and the host code refuses sizes whose extents
would exceed them, where the kernels would index past the array.  The C emulation of the grid
keeps the declaration as written (C has the array the file gives it)."""
from __future__ import annotations

import re

from looptx.codegen.cuda_host import constant, size_values

_EXTENT = re.compile(r"\[([^\[\]]*)\]")
_NAME = re.compile(r"[A-Za-z_]\w*")


def _sized(kc) -> set[str]:
    return {p for kind, _, p in kc.params if kind == "int"}


def device_decl(rc, kc, decl: str, checks: list | None = None) -> str:
    """`decl` (a local of the region) with each extent that names one of `kc`'s size
    arguments replaced by its value; (extent, value) pairs appended to `checks`."""
    sized = _sized(kc)
    scop = rc.variant.scop

    def fix(m):
        dim = m.group(1)
        if not set(_NAME.findall(dim)) & sized:
            return m.group(0)
        value = constant(dim, size_values(scop, rc.int_macros))
        if value is None:
            raise _variable_length(scop, decl, dim, sized)
        if checks is not None and (dim.strip(), value) not in checks:
            checks.append((dim.strip(), value))
        return f"[{value}]"
    return _EXTENT.sub(fix, decl)


def local_checks(rc) -> list[tuple[str, int]]:
    """(extent as written, the value the kernels declare it with) of every kernel's locals."""
    out: list = []
    for kc in rc.kernels:
        for d in kc.local:
            device_decl(rc, kc, d, out)
    return out


def local_guard(rc) -> list[str]:
    checks = local_checks(rc)
    if not checks:
        return []
    cond = " && ".join(f"{dim} <= {value}" if _NAME.fullmatch(dim) else f"({dim}) <= {value}"
                       for dim, value in checks)
    return ["  /* the kernels declare the region's local arrays with the extents the file gives them "
            "(CUDA has no variable-length arrays) */",
            f"  if (!({cond})) return (int)cudaErrorInvalidValue;"]


def _variable_length(scop, decl: str, dim: str, sized: set[str]):
    from looptx.errors import SourceError
    from looptx.frontend.names import to_user
    from looptx.frontend.regions import locate_name
    m = re.match(r"[^\[]*?(\w+)\s*\[", decl)
    name = m.group(1) if m else decl
    where = scop.where()
    pos = locate_name(scop.filename, name, tuple(scop.region_span)) if scop.region_span[0] else None
    if pos:
        where = dict(where, line=pos[0], col=pos[1])
    size = next(n for n in _NAME.findall(dim) if n in sized)
    return SourceError(f"the region's local array '{to_user(name)}' has the extent '{to_user(dim)}', which is "
                       f"known only when the code runs: a CUDA kernel cannot declare a variable-length array",
                       hint=f"fix the size with --define {to_user(size)}=VALUE, declare the array with "
                            "constant extents, or use --target c", **where)
