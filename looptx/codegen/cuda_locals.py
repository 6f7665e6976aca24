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


def crossing_locals(v, kernels) -> frozenset[str]:
    """Locals of the region that one kernel writes and another uses (`float fy = beta[y];` in a
    host loop's body, set by a one-thread kernel and read by the kernel of the loop inside).
    A kernel's locals are its threads' own, so the value would not reach the other kernel: the
    code keeps such a local in device memory instead, as it does the function's variables.  One
    copy is what the C code keeps too (poly/deps.lifetime_overlap checked that order); it is
    right on the GPU only where no two threads write it at once, so a mapped kernel that
    writes one is refused."""
    scop = v.scop
    users: dict[str, list] = {}
    for K0 in kernels:
        stmts = {v.pieces[k].stmt for k in K0.pieces}
        for s in scop.statements:
            if s.id not in stmts:
                continue
            for a in s.accesses:
                if scop.array(a.array).local:
                    users.setdefault(a.array, {}).setdefault(K0.name, [K0, False])[1] |= a.kind == "write"
    out = set()
    for name, by_kernel in users.items():
        writers = [K0 for K0, writes in by_kernel.values() if writes]
        if len(by_kernel) < 2 or not writers:
            continue
        for K0 in writers:
            if K0.mapped:
                from looptx.frontend.names import to_user
                others = [k for k in by_kernel if k != K0.name]
                raise K0.mapping.error(
                    f"the region's local '{to_user(name)}' is written in the threads of kernel {K0.name} "
                    f"and used in kernel {others[0]}: each thread has its own copy, so the value "
                    f"cannot reach the other kernel",
                    hint=f"map the statements that use '{to_user(name)}' in one kernel, or map the loops "
                         f"inside the one that declares it")
        out.add(name)
    return frozenset(out)
