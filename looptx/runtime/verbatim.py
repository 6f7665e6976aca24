"""`looptx run`'s check of looptx's reading of the C: the region as the user wrote it, its text
compiled as it stands, against the reference the variants are validated with.

The reference is the region printed from the model, so a misreading of the C (an unsigned
comparison read as a signed one, a cast dropped) is in the reference and in every variant alike,
and `run` said ok (probe 149 G3).  The text as written, in the same harness, with each size of
another type than int declared with its own type and the function's loop variables declared,
must give the reference's results on the reference's data.  Where the text does not build in
the harness (it reads a macro, a typedef or a variable of the function the harness does not
declare) there is no verdict: the check says nothing."""
from __future__ import annotations

import os
import re
import subprocess

from looptx.frontend.names import to_user
from looptx.runtime.compare import compare_detail
from looptx.runtime.cpu import RegionRun, Toolchain, build_shared
from looptx.runtime.harness import region_source

_INT = {"int", "signed", "signed int", "int signed"}


def verbatim_source(program, region: int, sig, toolchain) -> str | None:
    """The harness around the region's text as written, or None where there is none to build
    (an Orio or whole-function region, code held in comments)."""
    r = program.regions[region]
    scop = program.scops[region]
    if r.kind not in ("pragma", "chill") or r.tuning is not None:
        return None
    text = program.source.text[r.start:r.end]
    # (the harness takes arrays as pointer parameters: a `sizeof` of one is not the file's; and
    # it passes the sizes as parameters, which an `#if N > 50` in the text reads as 0)
    if "/*@" in text or "#include" in text or re.search(r"\bsizeof\b", text) \
            or re.search(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif)\b", text, re.M):
        return None
    if _continues_from_before(text):
        return None
    passed = {a.name for a in sig.args}
    if any(a.declared_in_region and a.name in passed for a in scop.arrays):
        return None         # declared in the text: the harness's copy-out would read another object
    # (a bool's own type would turn the harness's value 5 into 1: there the reference's int stays)
    typed = {name: ctype for name, ctype in (*((n, t) for n, t, dims, _ in scop.param_types if not dims),
                                             *((to_user(n), t) for n, t in scop.size_types))
             if ctype not in _INT and not set(ctype.split()) & {"_Bool", "bool"}}
    constants = dict(sig.constants)
    sizes = [a.name for a in sig.args if a.kind == "size" and a.name in typed]
    lines = ["{"]
    for name in sizes:
        lines.append(f"const {typed[name]} lx_v_{name} = ({typed[name]}){name};")
    lines.append("{")
    for name in sizes:
        lines.append(f"{typed[name]} {name} = lx_v_{name};")
    for name in (n for n in typed if n in constants and n not in sizes):
        # a size fixed by --define is a #define in the harness: here a value of its own type
        lines += [f"#undef {name}", f"const {typed[name]} {name} = {constants[name]};"]
    # the function's loop variables, but not one the harness passes (read before its loop)
    lines += [f"{ctype} {name};" for name, ctype in scop.own_iterators if name not in passed]
    # the file's macros the text uses (MIN, MAX, an element accessor, DATA_TYPE), but not the
    # sizes, whose values the harness #defines or passes
    defined = {re.match(r"#define (\w+)", d).group(1): d for d in _macros(
        program.source.text[:r.start], os.path.dirname(os.path.abspath(program.filename)), toolchain,
        dict(program.defines))}
    used, grew = set(), set(re.findall(r"[A-Za-z_]\w*", text))
    while grew:                                    # and those the used ones expand to
        used |= grew
        grew = {w for n in grew if n in defined for w in re.findall(r"[A-Za-z_]\w*", defined[n])} - used
    lines += [d for n, d in defined.items() if n in used and n not in passed and n not in constants]
    lines += text.splitlines() + ["}", "}"]
    return region_source(sig, lines)


def _continues_from_before(text: str) -> bool:
    """Whether a loop of the text without an initialisation (`for (; i < n; i++)`) starts from a
    value its iterator got before the region (`int i = i0;`), which the harness's declaration
    of the loop variables does not give it (probe 227 G2)."""
    for m in re.finditer(r"\bfor\s*\(\s*;\s*(?:\(\s*)*([A-Za-z_]\w*)", text):
        if not re.search(rf"\b{m.group(1)}\s*=[^=]", text[:m.start()]):
            return True
    return False


def _macros(text: str, folder: str, toolchain, sizes: dict) -> list[str]:
    """The macros defined where `text` (the file up to the region) ends, as the preprocessor
    leaves them: `#ifdef` branches, `#undef`s and comments taken into account."""
    try:
        # (the build's own -D, -U and -I, and the sizes --define gives, choose the file's #if
        # branches as looptx's reading does; run in the file's folder, where gcc looks for its
        # quoted headers first)
        chosen = [f for f in toolchain.flags if f.startswith(("-D", "-U", "-I"))]
        chosen += [f"-D{k}={v}" for k, v in sizes.items()]
        p = subprocess.run([toolchain.compiler, "-E", "-dM", "-x", "c", *chosen, "-"], input=text,
                           capture_output=True, text=True, timeout=60, cwd=folder)
    except (OSError, subprocess.TimeoutExpired):
        return []
    if p.returncode != 0:
        return []                 # (then a macro the text uses is undefined: no verdict)
    return [ln for ln in p.stdout.splitlines() if ln.startswith("#define ") and not ln.startswith("#define __")]


def verbatim_problem(ev, sig, toolchain) -> str | None:
    """Why the region as written disagrees with looptx's reading of it, or None (it agrees, or
    there is no verdict)."""
    from looptx.runtime.evaluators import REFERENCE_FLAGS
    try:
        src = verbatim_source(ev.program(), ev.region, sig, toolchain)
        # sizes that break a fact the model assumed (`NB - 5 >= 0` of an unsigned `#define NB
        # 4u`): there the output runs the region as written, and the reading is not used
        if not ev.program().scops[ev.region].facts_hold(dict(sig.values)):
            return None
    except (AttributeError, KeyError, ValueError):
        return None
    if src is None:
        return None
    # a name the harness lacks is no verdict, not a call to an undefined function
    flags = REFERENCE_FLAGS + ("-Werror=implicit-function-declaration",)
    compiler = toolchain.compiler
    b = build_shared(src, Toolchain(compiler, flags), cache=ev.cache_dir, timeout=ev.timeout)
    if not b.ok:
        return None
    try:
        ref = ev.reference_data(sig, compiler)
        run = RegionRun(b.path, sig, ref.inputs)
    except (RuntimeError, OSError):       # (a symbol the text names that nothing defines)
        return None
    run.reset()
    run.call()
    outs = run.outputs()
    for name in sig.results:
        c = compare_detail(ref.outputs[name], outs[name], sig.arg(name).ctype, ev.rtol)
        if not c.ok:
            if any(f.startswith(("-D", "-U")) for f in toolchain.flags):
                # the build's own -D may pick #if branches that looptx read without it
                return (f"the region as written gives other results than looptx's reading of it "
                        f"({c.describe(name)}): the build's -D/-U flags "
                        f"({' '.join(f for f in toolchain.flags if f.startswith(('-D', '-U')))}) may choose "
                        "#if branches that looptx reads without them: give them with --define")
            return (f"the region as written gives other results than looptx's reading of it "
                    f"({c.describe(name)}): looptx misreads its C, and the variant follows that reading "
                    "(please report it with the file)")
    return None


def misreading(path: str, sizes, region: int, function: str | None = None,
               extra_decls: str | None = None) -> str | None:
    """verbatim_problem for a region that runs elsewhere (`run --target cuda`, whose kernels are
    validated against the same reading): the region as written, built in the C harness, against
    the region printed from looptx's model, on this CPU."""
    from looptx.errors import LooptxError
    from looptx.runtime.evaluators import CEvaluator
    ev = CEvaluator(path, sizes=dict(sizes), function=function, region=region, extra_decls=extra_decls)
    try:
        sig = ev.signature()
    except LooptxError:
        return None
    return verbatim_problem(ev, sig, Toolchain.from_options("-O3"))
