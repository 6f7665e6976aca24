"""Build commands checked once, before anything is measured: a compiler that is not installed,
flags it rejects, flags that stop it before a program, sanitizers that cannot run in the worker."""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from looptx.errors import AnnotationError, LooptxError, note_once


def check_compiler(build_command: str | None, spec) -> None:
    """A compiler that is not installed (Orio files name icc) would fail every point, each
    recorded as a compile error: said once, before anything is measured."""
    import shlex
    import shutil
    try:
        words = shlex.split(build_command or "")
    except ValueError:
        return                  # an unbalanced quote: the compiler's own error says more
    if not words or "@" in words[0] or shutil.which(words[0]) is not None:
        return
    raise AnnotationError(f"the build command's compiler '{words[0]}' is not installed",
                          hint="install it, name one that is in the PerfTuning block's "
                               "build_command (e.g. 'gcc -O3'), or build with gcc and your flags: "
                               "--cflags '-O3 -fopenmp'", **spec.where("build", "build_command"))


# the compiler driver's complaints about its options, as gcc and clang word them
# (cc1's own: `-march=nosuchcpu` is a bad value, `-O9x` an argument to ‘-O’, in gcc's quotes)
_OPTION_ERROR = re.compile(r"(?:error: (?:unrecognized|unknown|invalid|missing argument)|"
                           r"error: argument to ['‘`]-|error: bad value|error: unsupported option)", re.I)


def check_flags(build_command: str | None, spec, cli: bool = False, chosen: Mapping[str, Any] | None = None) -> None:
    """Flags the compiler rejects (`--0`, `-O9x`) would fail every point that uses them, each
    recorded as a compile error: a bad build command, --cflags or flag param value is said
    once, located, before anything is measured.  Each value of a param the command names is
    tried with the other params at their first values.  `chosen` (`run`): the one point that
    is built, the params' first values unless -D picks; a rejected value there is an error."""
    from looptx.frontend.tuning import substitute_params
    from looptx.runtime.cpu import Toolchain, build_shared
    if not build_command:
        return
    params = {p.name: p for p in (spec.performance_params if spec is not None else ())}
    named = [params[n] for n in dict.fromkeys(re.findall(r"@([A-Za-z_]\w*)", build_command)) if n in params]
    first = {p.name: p.values[0] for p in named if p.values}
    tries = [(None, None)] if not named else \
        [(p, v) for p in named for v in p.values[:32]]
    stops = [w for w in re.findall(r"\S+", substitute_params(build_command, first))
             if w in ("-E", "-S", "-M", "-MM", "-fsyntax-only")]
    if stops:
        what = f"the build command's {stops[0]} stops the compiler before it makes a program"
        if cli:
            raise LooptxError(f"--cflags: {stops[0]} stops the compiler before it makes a program",
                              hint="drop it from --cflags")
        raise AnnotationError(what, hint="drop it from build_command",
                              **(spec.where("build", "build_command") if spec is not None else {}))
    loaded = [w for w in re.findall(r"\S+", substitute_params(build_command, first)) if w.startswith("-fsanitize=")
              and set(w.split("=", 1)[1].split(",")) & {"address", "thread", "memory", "leak", "hwaddress"}]
    if loaded:
        # (the harness loads the build into a Python worker: their runtimes must come first in
        # the process, and the original fails as the variant does; probe 227 G3)
        what = f"{loaded[0]} cannot run in looptx's worker process, which loads the built code into Python"
        hint = "use -fsanitize=undefined, or build the written output (looptx transform -o) with your own main"
        if cli:
            raise LooptxError(f"--cflags: {what}", hint=hint)
        raise AnnotationError(f"the build command's {what}", hint=hint,
                              **(spec.where("build", "build_command") if spec is not None else {}))
    rejected: dict = {}
    for param, value in tries:
        point = {**first, param.name: value} if param is not None else first
        try:
            chain = Toolchain.from_options(None, substitute_params(build_command, point))
        except ValueError:
            return              # an unbalanced quote: the build's own error says it
        b = build_shared("int looptx_flags_check(void) { return 0; }\n", chain, timeout=60)
        if b.ok or not _OPTION_ERROR.search(b.error or ""):
            continue
        # (without gcc's notes: `-march=`'s lists every CPU it knows)
        said = " ".join(" ".join(ln for ln in (b.error or "").splitlines() if "note:" not in ln).split())
        if param is not None:
            rejected.setdefault(param, []).append((value, said))
            continue
        if cli:
            raise LooptxError(f"--cflags: the compiler rejects these flags: {said}", hint="correct --cflags")
        raise AnnotationError(f"the build command '{build_command}' has a flag the compiler rejects: {said}",
                              hint="correct the PerfTuning block's build_command",
                              **(spec.where("build", "build_command") if spec is not None else {}))
    for param, bad in rejected.items():
        where = dict(file=param.file or spec.file, line=param.line, col=param.col)
        if len(bad) == len(param.values[:32]):
            raise AnnotationError(f"param {param.name}: the compiler rejects every value, e.g. {bad[0][0]!r}: "
                                  f"{bad[0][1]}", hint="correct the values", **where)
        value = (chosen or {}).get(param.name, param.values[0])
        if chosen is not None and any(str(v) == str(value) for v, why in bad):
            why = next(w for v, w in bad if str(v) == str(value))
            raise AnnotationError(f"param {param.name}'s value {value!r}, which this run builds with, is a flag "
                                  f"the compiler rejects: {why}",
                                  hint=f"pick another with --define {param.name}=VALUE", **where)
        # a flag this compiler lacks fails its points, each recorded as a compile error, as Orio would
        note_once(where["file"], where["line"], f"the compiler rejects param {param.name}'s value"
                  f"{'s' if len(bad) > 1 else ''} {', '.join(repr(v) for v, _ in bad)}: {bad[0][1]}; "
                  "the points with them fail to compile", col=where["col"], kind="warning")
