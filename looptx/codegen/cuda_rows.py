"""Arrays whose rows are pointers in a .cu (`double **a`, Numerical Recipes' `matrix(1, n, 1, n)`,
rows allocated one by one, `T *a[M]`).

No one copy moves such an array to the GPU, so the host function copies it row by row into one
device block laid out as the box around what the region reaches (poly/footprint.rows): row
(r0, r1, ...) of the box starts at ((r0 - lo0) * n1 + (r1 - lo1)) * n2 ... and holds the
elements from the first to the last the region reaches in that row, at their places in the box.
Only those are read and written back: a row need not be longer (NR's triangular matrices).  The
kernels get the block less the box's first element's offset and index it `a[(i * n1 + j) * n2
+ k]`, with the box's row lengths n1, n2, ... (lx_a_n1, ...) as sizes they take.  Where the
runtime runs the kernels on a block of its own (runtime/cuda.py), that block starts at element
0 and the row lengths are its own.
"""
from __future__ import annotations

from looptx import ir
from looptx.codegen import ast as K
from looptx.errors import RecipeError


def is_rows(a) -> bool:
    return a.rank > 1 and not a.strides and not a.local and "" in a.dims[1:]


def extent_name(name: str, k: int) -> str:
    return f"lx_{name}_n{k}"


def row_extents(scop) -> list[str]:
    """The box's row lengths, which the kernels take (every dimension but the first)."""
    return [extent_name(a.name, k) for a in scop.arrays if is_rows(a) for k in range(1, a.rank)]


def host_type(a) -> str:
    return f"{a.ctype} {'*' * a.rank}{a.name}"


def _box(scop, a, fixed: dict):
    from looptx.poly.footprint import rows
    r = rows(scop, a.name)
    if isinstance(r, str):
        raise RecipeError(f"cannot copy '{a.name}' to the GPU: {r}",
                          hint="use --target c, or pass the data as one block")

    def text(e) -> str:
        return ir.to_c(e, var=lambda name: str(fixed[name]) if name in fixed else None)
    reached = text(r.reached_if) if r.reached_if is not None else None

    def when(value: str, otherwise: str) -> str:
        return f"(({reached}) ? ({value}) : {otherwise})" if reached else f"({value})"
    return r, text, when


def _length(r, k: int, text) -> str:
    return text(K.simplify(ir.Bin("+", ir.Bin("-", r.high[k], r.low[k]), ir.Num("1"))))


def internal_sizes(scop, fixed: dict) -> list[tuple[str, str]]:
    """(row length, C text over the sizes) of each such array's box: the host function and the
    standalone main compute them."""
    out = []
    for a in scop.arrays:
        if is_rows(a):
            r, text, when = _box(scop, a, fixed)
            out += [(extent_name(a.name, k), when(_length(r, k, text), "0")) for k in range(1, a.rank)]
    return out


def count_and_offset(scop, a, fixed: dict) -> tuple[str, str]:
    """The box's element count and its first element's offset in row-major order, C text over
    the sizes and the row lengths."""
    r, text, when = _box(scop, a, fixed)
    count = " * ".join([f"(size_t){when(_length(r, 0, text), '0')}"]
                       + [f"(size_t){extent_name(a.name, k)}" for k in range(1, a.rank)])
    offset = f"(ptrdiff_t)({when(text(r.low[0]), '0')})"
    for k in range(1, a.rank):
        offset = f"({offset} * {extent_name(a.name, k)} + (ptrdiff_t){when(text(r.low[k]), '0')})"
    return count, offset


def copy_lines(scop, a, fixed: dict, to_device: bool) -> list[str]:
    """The host function's loops over the box's rows copying each reached row's span between
    the caller's row and the device block (`lx_d_NAME`, `lx_o_NAME` its offset)."""
    r, text, when = _box(scop, a, fixed)
    n = a.rank
    lines, pad = [], "  "
    if r.reached_if is not None:
        lines.append(f"{pad}if ({text(r.reached_if)}) {{")
        pad += "  "
    for k in range(n - 1):
        lines.append(f"{pad}for (long lx_r{k} = {text(r.low[k])}; lx_r{k} <= {text(r.high[k])}; lx_r{k}++)")
        pad += "  "
    if r.row_if is not None:
        lines.append(f"{pad}if ({text(r.row_if)})")
        pad += "  "
    flat = "lx_r0"
    for k in range(1, n - 1):
        flat = f"({flat} * {extent_name(a.name, k)} + lx_r{k})"
    row = "".join(f"[lx_r{k}]" for k in range(n - 1))
    lines.append(f"{pad}{{")
    lines.append(f"{pad}  const long lx_f = {text(r.first)}, lx_l = {text(r.last)};")
    device = f"lx_d_{a.name} - lx_o_{a.name} + ({flat} * (ptrdiff_t){extent_name(a.name, n - 1)} + lx_f)"
    host = f"{a.name}{row} + lx_f"
    size = f"(size_t)(lx_l - lx_f + 1) * sizeof({a.ctype})"
    lines.append(f"{pad}  cudaMemcpy({device if to_device else host}, {host if to_device else device}, {size}, "
                 f"{'cudaMemcpyHostToDevice' if to_device else 'cudaMemcpyDeviceToHost'});")
    lines.append(f"{pad}}}")
    if r.reached_if is not None:
        lines.append("  }")
    return lines
