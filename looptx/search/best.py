"""The best variant of a search written next to the input: `FILE.best.c` (the whole file with
the region replaced) or `FILE.best.cu` (kernels and launchers), with a provenance header.

A variant is generated for its problem size (bounds and remainders simplified for it), so with
problem sizes it runs under a size guard: C falls back to the original code for any other size;
CUDA gets one launcher per tuned size and a dispatcher `lx_launch_<region>(sizes..., arrays...)`
that returns -1 for a size that was not tuned."""
from __future__ import annotations

import json
import os
import re

from looptx import __version__
from looptx.errors import LooptxError
from looptx.frontend.names import to_model, to_user
from looptx.frontend.tuning import substitute_params


def _searchers(st, best) -> str:
    """The searchers the database's searches ran with (a resume may have gone on with the
    recorded one, or switched): the annotation's name would be wrong provenance."""
    runs = []
    for _, o in best:
        chain = " then ".join(getattr(o, "searchers", ()) or ()) or st.algorithm
        if chain not in runs:
            runs.append(chain)
    return "; ".join(runs)


def with_earlier_sizes(st, best: list, keys: list[str], fingerprint: str) -> list:
    """`best` and the best variants of the other problem sizes the results database holds for
    the same code (an earlier search of the file's other `input_params` sizes, or one run with
    another -D): a search of one size rewrites the best file, which keeps theirs."""
    from looptx.search.db import ResultsDB
    from looptx.search.interrupt import _sizes_of, recorded_outcome
    head, _, _ = keys[0].partition("|") if keys else ("", "", "")
    tail = keys[0].rsplit("|", 2)[1:] if keys else []
    out = list(best)
    if not keys or not os.path.exists(st.db):
        return out
    with ResultsDB(st.db, create=False) as rdb:
        others = [i.key for i in rdb.searches() if i.key not in keys and i.key.partition("|")[0] == head
                  and i.key.rsplit("|", 2)[1:] == tail and isinstance(i.space, dict)
                  and i.space.get("fingerprint") == fingerprint]
    for key in sorted(others):
        o = recorded_outcome(st.db, key)
        if o.best_point is not None:
            out.append((_sizes_of(key), o))
    return out


def write_best(st, best, function=None) -> str:
    """`best`: [(sizes, SearchOutcome)] for the sizes that found a valid variant; `st` the
    search's Setup.  Returns the path written."""
    from looptx.pipeline import load, variants_for
    from looptx.recipe.schema import find_recipe, load_file
    base = os.path.splitext(st.path)[0]
    lines = [f"looptx {__version__}: best variant(s) found by `looptx search` ({_searchers(st, best)}, "
             f"backend {st.backend}) for {os.path.basename(st.path)}"]
    variants = []
    for sizes, o in best:
        point = dict(o.best_point)
        # the params a -D of the build command carries (`-DKV=@U@`) are the point's macros
        carried = {k: point[k] for k in (st.spec.macro_params() if st.spec else ()) if k in point}
        program = load(st.path, defines={**sizes, **carried}, function=function, extra_decls=st.extra_decls)
        recipe = load_file(find_recipe(st.recipe, os.path.dirname(os.path.abspath(st.path))), point) \
            if st.recipe else None
        vs, applied = variants_for(program, recipe, bindings=point)
        label = ", ".join(f"{k}={v}" for k, v in sizes.items()) or "default sizes"
        rec = o.best_record
        t = o.best_measurement.time
        lines.append(f"[{label}] {t * 1e3:.4f} ms (median of {len(rec.times) if rec else '?'}), "
                     f"point {json.dumps(point, default=str)}")
        if rec is not None:
            lines.append(f"  evaluation {rec.eval_index} of {o.n_evals} in {st.db} "
                         f"(search '{o.search_key}'), measured {rec.timestamp}")
            flags = substitute_params(rec.flags or "", point)      # the build command's @CFLAGS
            lines.append(f"  {rec.compiler or '?'} {flags} on {rec.device or '?'}; "
                         f"code hash {(rec.code_hash or '?')[:16]}")
        lines += ["  " + ln for ln in (applied or "no recipe").splitlines()]
        variants.append((sizes, program, {r: vs[r] for r in st.regions}))
    body = "\n".join(" * " + ln.replace("*/", "* /") for ln in lines)
    head = f"/*\n{body}\n */\n"
    if st.backend == "cuda":
        return _write_cuda(st, base, head, variants)
    from looptx.codegen.render import render_file
    from looptx.codegen.c import outer_decls
    from looptx.pipeline import c_block
    from looptx.poly.variant import original
    try:
        # symbolic in every size a guard tests, those -D fixed for this search too: the
        # fallback runs the code as written for the other values
        symbolic = load(st.path, defines=_not_sizes(st), function=function,
                        extra_decls=_size_decls(st) or None)
    except LooptxError:
        # Only the sizes make the region affine (`x[i*lx*ly]`): the other sizes run its code
        # as written, and the file is laid out from a tuned size's model.
        symbolic = None
    blocks = {}
    for r in st.regions:
        # Each variant was generated for its problem size (bounds and remainders simplified for
        # it), so it runs under a guard on the sizes the region's code reads; any other size
        # runs the original code.  Only those names are surely in scope there: an Orio input
        # param the code never names (`SN`, when the function reads its own `n`) is not.
        scop = symbolic.scops[r] if symbolic is not None else variants[0][2][r].scop
        if symbolic is not None:
            used = set(symbolic.scops[r].params)
            # an Orio fragment (no function of its own: no code after it) runs its code as
            # written, as transform's output does; loops regenerated there would declare their
            # own counters and leave the fragment's `int i, j;` unused (gcc -Wall)
            fallback = _as_block(_region_code(symbolic, r), scop.implicit_counters) \
                if symbolic.scops[r].function is None \
                else c_block(original(symbolic.scops[r]), spelled=True, bare=True)
        else:
            code = _region_code(variants[0][1], r)
            used = {to_model(n) for n in variants[0][0] if re.search(rf"\b{re.escape(n)}\b", code)}
            fallback = _as_block(code)
        conds = [" && ".join(f"{n} == {val}" for n, val in sizes.items() if to_model(n) in used)
                 for sizes, _, _ in variants]
        if not any(conds):
            blocks[r] = c_block(variants[0][2][r], spelled=True)
            continue
        # declarations and loop variables' final values once, around the guarded variants
        block = []
        for k, ((sizes, _, vs), cond) in enumerate(zip(variants, conds)):
            if cond in conds[:k]:
                continue                # the same guard: the first size's variant serves it
            block.append(("if" if not block else "else if") + f" ({cond}) {{")
            block += _inner(c_block(vs[r], spelled=True, bare=True))
            block.append("}")
        block.append("else {")
        block += _inner(fallback)
        block.append("}")
        blocks[r] = outer_decls(scop) + block + list(scop.final_values)
    out = render_file(symbolic or variants[0][1], blocks, head)
    from looptx.frontend.encoding import line_end, output_encoding, with_bom
    return _write(base + ".best.c", with_bom(out, st.path), line_end(st.path), output_encoding(st.path))


def _region_code(program, r: int) -> str:
    """The region's code as the user wrote it (an Orio Loop annotation's own code)."""
    from looptx.frontend.regions import orio_loop_code
    reg = program.regions[r]
    if reg.orio_code:
        return orio_loop_code(reg.chill.body)
    return program.source.text[reg.start:reg.end]


def _as_block(code: str, counters=()) -> list[str]:
    """The code in a block, which declares the counters nothing else declares (Orio's)."""
    decl = [f"  int {', '.join(to_user(c) for c in counters)};"] if counters else []
    lines = code.splitlines()
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return ["{", *decl, *("  " + ln for ln in lines), "}"]


def _inner(lines: list[str]) -> list[str]:
    """A C block's lines indented one level, without its own braces (the guard gives them)."""
    if len(lines) >= 2 and lines[0] == "{" and lines[-1] == "}":
        return list(lines[1:-1])
    return ["  " + ln if ln else ln for ln in lines]


def _size_decls(st) -> str:
    """Declarations for parsing the file with symbolic sizes: an Orio fragment (arrays from
    `input_vars`) declares neither its arrays nor its sizes, so the sizes become `int` names."""
    decls = st.extra_decls or ""
    if st.spec is None or not (st.spec.input_vars or st.spec.decl_file):
        return decls
    with open(st.path, encoding="utf-8", errors="replace") as f:
        text = f.read() + "\n" + decls     # a decl_file may #define the sizes itself
    names = [p for p in (st.sizes[0] if st.sizes else {})
             if not re.search(rf"^\s*#\s*define\s+{re.escape(p)}\b", text, re.M)]
    return "".join(f"int {n};\n" for n in names) + decls


def _not_sizes(st) -> dict:
    """The search's --define values other than its problem sizes' (which the guards test)."""
    sized = {n for sz in st.sizes for n in sz}
    return {k: v for k, v in (st.defines or {}).items() if k not in sized}


def _write_cuda(st, base: str, head: str, variants) -> str:
    # one region after the other: cu_file defines a size macro only where it is not yet defined
    # and guards its includes, so the parts concatenate
    texts = [_cuda_region(r, head if k == 0 else "", [(sz, p, vs[r]) for sz, p, vs in variants])
             for k, r in enumerate(st.regions)]
    return _write(base + ".best.cu", "\n".join(texts))


def _cuda_region(region: int, head: str, variants) -> str:
    from looptx.codegen.cuda import cu_file, generate, launch_spec
    from looptx.pipeline import region_name
    name = region_name(variants[0][1], region)
    if len(variants) == 1:
        sizes, program, v = variants[0]
        text = cu_file(generate(v, name), head, dict(program.int_macros))
        # the code is only right for the size it was generated for
        text += "".join(f"\n#if {k} != {val}\n#error \"{name} was tuned for {k} = {val}\"\n#endif\n"
                        for k, val in sizes.items())
        return text
    parts, dispatch, size_names = [head], [], list(variants[0][0])
    for k, (sizes, program, v) in enumerate(variants):
        rc = generate(v, f"{name}_s{k}")
        # each part sees its own sizes: cu_file only defines a macro that is not yet defined
        parts.append("".join(f"#undef {n}\n" for n in size_names) + cu_file(rc, "", dict(program.int_macros)))
        spec = launch_spec(rc)
        cond = " && ".join(f"{p} == {val}" for p, val in sizes.items())
        dispatch.append((cond, f"lx_launch_{rc.name}({', '.join(a[1] for a in spec['args'])})", spec))
    params = [f"int {n}" for n in size_names]
    for kind, nm, ct in dispatch[0][2]["args"]:
        params.append(f"{ct} {nm}" if kind in ("int", "value") else f"{ct} *{nm}")
    body = ["".join(f"#undef {n}\n" for n in size_names) +
            "/* The tuned launchers by problem size; -1 for a size that was not tuned. */",
            f'extern "C" int lx_launch_{name}({", ".join(params)})', "{"]
    body += [f"  if ({cond}) return {call};" for cond, call, _ in dispatch]
    body += ["  return -1;", "}"]
    parts.append("\n".join(body) + "\n")
    return "\n".join(parts)


def _write(path: str, text: str, newline: str | None = None, encoding: str = "utf-8") -> str:
    # whole or not at all: a signal or a full disk mid-write leaves the previous best file
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "w", newline=newline, encoding=encoding) as f:
            f.write(to_user(text))
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path
