"""Which CUDA axis (x, y, z) each mapped loop of a kernel is on, and the index variables a
kernel declares for them."""
from __future__ import annotations

import re

AXES = ("x", "y", "z")


def index_decls(kc, block_ctype: str = "int") -> list[str]:
    """Only the indexes the kernel reads: a mapped loop of extent 1 leaves its index unused,
    which nvcc warns of (#177-D).  The block indexes are 64-bit where the user's iterators are
    (`tx + 256 * bx` passes INT_MAX on a 2 GiB array of a size_t loop)."""
    bn, tn = kc.index_names
    text = "\n".join(kc.body + kc.shared + kc.local)
    out = []
    for names, axes, what, ctype in zip((bn, tn), kernel_axes(kc.mapping, len(bn), len(tn)),
                                        ("blockIdx", "threadIdx"), (block_ctype, "int")):
        used = [f"{x} = {what}.{AXES[axes[n]]}" for n, x in enumerate(names) if re.search(rf"\b{x}\b", text)]
        if used:
            out.append(f"const {ctype} " + ", ".join(used) + ";")
    return out


def kernel_axes(mapping, n_block: int, n_thread: int) -> tuple:
    """(block axes, thread axes) of a kernel's mapped loops: x, y, z in order unless the cuda
    step held an axis with a "1" entry."""
    if mapping is not None:
        b, t = mapping.axes_of()
        if len(b) == n_block and len(t) == n_thread:
            return b, t
    return tuple(range(n_block)), tuple(range(n_thread))


def on_axes(values: list, axes: tuple, one) -> list:
    out = [one] * 3
    for v, a in zip(values, axes):
        out[a] = v
    return out
