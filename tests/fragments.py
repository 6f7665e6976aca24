"""Differential check of an Orio fragment against the `.best.c` that `looptx search` wrote.

An annotated fragment declares neither its arrays nor its sizes (they come from `def
input_vars` / `def input_params`).  Both texts are #included into functions that declare the
sizes as locals and the arrays as pointers to arrays of the declared shape, fill them with the
same values, run the fragment and print every written value; the two outputs must agree.
"""
from __future__ import annotations

import math
import os
import subprocess

from looptx.search.command import find_spec


def _decls(spec, sizes: dict) -> tuple[list[str], list[str]]:
    """(declaration lines, names of the arrays) for the spec's input_vars."""
    lines = [f"  int {k} = {v};" for k, v in sizes.items()]
    arrays = []
    for d in spec.input_vars:
        dims = [e.text for e in d.dims]
        if not dims:
            init = d.init.text if hasattr(d.init, "text") else "1.25"
            lines.append(f"  {d.ctype} {d.name} = {init};")
            continue
        inner = "".join(f"[{x}]" for x in dims[1:])
        count = " * ".join(f"({x})" for x in dims)
        lines.append(f"  {d.ctype} (*{d.name}){inner} = malloc(sizeof({d.ctype}) * {count});")
        lines.append(f"  for (long q = 0; q < (long)({count}); q++) (({d.ctype} *){d.name})[q] = "
                     f"({d.ctype})(1 + (q * 7 + {len(arrays)} * 3) % 11) / 8;")
        arrays.append((d.name, d.ctype, count))
    return lines, arrays


def harness(path: str, best: str, spec, sizes_list: list[dict]) -> str:
    out = ["#include <math.h>", "#include <stdio.h>", "#include <stdlib.h>"]
    for tag, src in (("orig", path), ("best", best)):
        out.append(f"static void run_{tag}(int which) {{")
        for n, sizes in enumerate(sizes_list):
            decls, arrays = _decls(spec, sizes)
            out.append(f"  if (which == {n}) {{")
            out += decls
            out.append("  {")
            out.append(f'#include "{os.path.abspath(src)}"')
            out.append("  }")
            for name, ctype, count in arrays:
                out.append(f"  for (long q = 0; q < (long)({count}); q++) printf(\"%.17g\\n\", "
                           f"(double)(({ctype} *){name})[q]);")
                out.append(f"  free({name});")
            out.append("  }")
        out.append("}")
    out.append("int main(int argc, char **argv) { int w = atoi(argv[2]);")
    out.append("  if (argv[1][0] == 'o') run_orig(w); else run_best(w); return 0; }")
    return "\n".join(out) + "\n"


def check_best(path: str, best: str, sizes_list: list[dict], tmp, rtol: float = 1e-10) -> None:
    """Compile both fragments for every size and compare every array they leave behind."""
    with open(path) as f:
        spec, _ = find_spec(path, f.read(), None)
    c = os.path.join(str(tmp), "diff.c")
    exe = os.path.join(str(tmp), "diff")
    with open(c, "w") as f:
        f.write(harness(path, best, spec, sizes_list))
    proc = subprocess.run(["gcc", "-O1", "-w", c, "-o", exe, "-lm"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[:2000]
    for n, sizes in enumerate(sizes_list):
        a = subprocess.run([exe, "orig", str(n)], capture_output=True, text=True, timeout=60).stdout
        b = subprocess.run([exe, "best", str(n)], capture_output=True, text=True, timeout=60).stdout
        va = [float(x) for x in a.split()]
        vb = [float(x) for x in b.split()]
        assert len(va) == len(vb) and va, (sizes, len(va), len(vb))
        worst = max(abs(x - y) / max(abs(x), 1e-30) for x, y in zip(va, vb))
        assert worst <= rtol and all(math.isfinite(x) for x in vb), (sizes, worst)
