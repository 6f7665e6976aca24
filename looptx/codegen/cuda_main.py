"""The `--standalone` main of a .cu file: seeded inputs, the kernels timed with events, and a
checksum per written array."""
from __future__ import annotations

import re

from looptx.codegen.cuda_host import (_device_arg, _internal_sizes, _named_counts, _offset_decls, _to_device,
                                      on_device, size_ctype)
from looptx.codegen.cuda_records import members_of, written_arrays
from looptx.frontend.names import C_KEYWORDS


# (the C words of a count: `(size_t)(n)`, `sizeof`)
_C_WORDS = C_KEYWORDS | {"size_t"}


def _elements(scop, a) -> list[tuple[str, str, str]]:
    """(element at lx_q, its type, an inner loop over a member array's elements, its name) of
    a device array: itself, or each member an array of structs' region uses."""
    members = members_of(scop, a.name)
    if not members:
        return [(f"{a.name}[lx_q]", a.ctype, "", a.name)]
    out = []
    for rec in members:
        arr = scop.array(rec.name)
        inner = arr.dims[rec.rank:]
        if not inner:
            out.append((f"{a.name}[lx_q]{rec.path}", arr.ctype, "", f"{a.name}{rec.path}"))
            continue
        count = " * ".join(f"(size_t)({d})" for d in inner)
        out.append((f"(({arr.ctype} *){a.name}[lx_q]{rec.path})[lx_k]", arr.ctype,
                    f"for (size_t lx_k = 0; lx_k < {count}; lx_k++) ", f"{a.name}{rec.path}"))
    return out


def standalone_main(rc, sizes: dict, int_macros: dict, counts: dict, offsets: dict | None = None) -> list[str]:
    """main(): seeded inputs, one warm-up, timed runs with events, a checksum per written array
    (each host array holds the elements its device copy does)."""
    offsets = offsets or {}
    scop = rc.variant.scop
    derived = dict(_internal_sizes(rc))
    values = {p: sizes.get(p, int_macros.get(p, derived.get(p))) for p in rc.params}
    # names the element counts read that the kernels do not (Orio's `decl dynamic double
    # X[m*n]` over a loop to `nrows = m*n`): arguments too, and a size derived from them is
    # computed as the function does
    known = set(rc.params) | set(int_macros) | {k for k, _ in (*scop.macro_values, *scop.pinned_macros, *scop.baked)}
    # (casts, `(ptrdiff_t)(1)`, name types)
    texts = re.sub(r"\(\s*(?:unsigned\s+|signed\s+)?[A-Za-z_]\w*\s*\)\s*(?=\()", "",
                   " ".join([*counts.values(), *offsets.values()]))
    extra = [w for w in dict.fromkeys(re.findall(r"\b[A-Za-z_]\w*\b", texts))
             if w not in known and w not in _C_WORDS and not w.startswith("lx_")]
    extra_values = {w: sizes.get(w) for w in extra}
    inits = dict(scop.derived)
    for p in rc.params:
        words = set(re.findall(r"[A-Za-z_]\w*", str(inits.get(p, ""))))
        if values[p] is None and words and words <= set(extra):
            values[p] = inits[p]
    # a size no --define fixed is the program's argument (`./a.out n=1000`), as a benchmark's
    # main takes its problem size
    given = [w for w in extra if extra_values[w] is None] + [p for p in rc.params if values[p] is None]
    out = ["#ifndef LX_REPS", "#define LX_REPS 10", "#endif"]
    if given:
        out += ["#include <string.h>",
                "static long lx_size_arg(int argc, char **argv, const char *name, int *missing)", "{",
                "  size_t n = strlen(name);",
                "  for (int k = 1; k < argc; k++)",
                "    if (strncmp(argv[k], name, n) == 0 && argv[k][n] == '=') {",
                "      char *end; long v = strtol(argv[k] + n + 1, &end, 10);",
                "      if (end != argv[k] + n + 1 && *end == 0) return v;",
                "      fprintf(stderr, \"%s: not a whole number\\n\", argv[k]);",
                "      break;", "    }",
                "  *missing = 1;", "  return 0;", "}"]
    out += [f"int main({'int argc, char **argv' if given else 'void'})", "{"]
    if given:
        out.append("  int lx_missing = 0;")
    for w in extra:
        val = extra_values[w]
        if val is None:
            val = f'(int)lx_size_arg(argc, argv, "{w}", &lx_missing)'
        out.append(f"  const int {w} = {val};")
    for p in rc.params:
        val = values[p]
        if val is None:
            val = f'({size_ctype(scop, p)})lx_size_arg(argc, argv, "{p}", &lx_missing)'
        out.append(f"  const {size_ctype(scop, p)} {p} = {val};")
    if given:
        usage = " ".join(f"{p}=VALUE" for p in given)
        out.append(f'  if (lx_missing) {{ fprintf(stderr, "usage: %s {usage}\\n", argv[0]); return 2; }}')
    decls, counts = _named_counts(counts)
    out += decls + _offset_decls(offsets)
    out.append("  unsigned long long lx_s = 0x9E3779B97F4A7C15ULL;")
    written = written_arrays(scop)
    draw = ("lx_s = lx_s * 6364136223846793005ULL + 1442695040888963407ULL; "
            "{dst} = ({t})(0.5 + (double)(lx_s >> 11) / 9007199254740992.0);")
    # Read-only scalars are passed by value (the launcher's signature); the rest live on the device.
    dev = [a for a in rc.arrays if on_device(a, rc.written_scalars)]
    for a in rc.arrays:
        if a not in dev:
            out.append(f"  {a.ctype} {a.name}; " + draw.format(dst=a.name, t=a.ctype))
            continue
        n = counts[a.name]
        out.append(f"  {a.ctype} *{a.name} = ({a.ctype} *)calloc({n}, sizeof({a.ctype}));")
        for dst, t, inner, _ in _elements(scop, a):
            out.append(f"  for (size_t lx_q = 0; lx_q < {n}; lx_q++) {inner}{{ "
                       + draw.format(dst=dst, t=t) + " }")
    dptrs = []
    for a in rc.arrays:
        if a not in dev:
            dptrs.append(a.name)
            continue
        out += _to_device(a, counts[a.name], checked=False)
        dptrs.append(_device_arg(a.name, offsets))
    call = ", ".join(dptrs + rc.params)
    out += ["  { cudaError_t lx_e = cudaGetLastError(); if (lx_e != cudaSuccess) { fprintf(stderr, \"copying the "
            "inputs to the GPU failed: %s\\n\", cudaGetErrorString(lx_e)); return 1; } }",
            f"  {{ int lx_rc = lx_launch_{rc.name}({call}); if (lx_rc != 0) {{ fprintf(stderr, \"launch failed: %s\\n\", "
            "cudaGetErrorString((cudaError_t)lx_rc)); return 1; } }",
            "  cudaEvent_t lx_e0, lx_e1; cudaEventCreate(&lx_e0); cudaEventCreate(&lx_e1);",
            "  cudaEventRecord(lx_e0);",
            f"  for (int lx_r = 0; lx_r < LX_REPS; lx_r++) lx_launch_{rc.name}({call});",
            "  cudaEventRecord(lx_e1); cudaEventSynchronize(lx_e1);",
            "  float lx_ms = 0.f; cudaEventElapsedTime(&lx_ms, lx_e0, lx_e1);",
            "  cudaError_t lx_err = cudaGetLastError();",
            '  if (lx_err != cudaSuccess) { fprintf(stderr, "%s\\n", cudaGetErrorString(lx_err)); return 1; }',
            '  printf("kernel time %.6f ms per run (%d runs)\\n", lx_ms / LX_REPS, LX_REPS);']
    for a in dev:
        if a.name in written:
            n = counts[a.name]
            out.append(f"  cudaMemcpy({a.name}, lx_d_{a.name}, {n} * sizeof({a.ctype}), cudaMemcpyDeviceToHost);")
            for dst, _, inner, label in _elements(scop, a):
                out.append(f"  {{ double lx_cs = 0; for (size_t lx_q = 0; lx_q < {n}; lx_q++) {inner}lx_cs += (double){dst} * (double)(lx_q % 13 + 1); "
                           f'printf("{label} checksum %.17g\\n", lx_cs); }}')
    out += ["  return 0;", "}", ""]
    return out
