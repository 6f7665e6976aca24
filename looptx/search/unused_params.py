"""A performance param that no step, recipe, build command or code names still multiplies the
space: each of its values rebuilds the same variant, and the search spends budget measuring
twins.  Orio accepts such a param without a word; a warning names it before any measuring
(the search still runs, as the user wrote it)."""
from __future__ import annotations

import re

import numpy as np

from looptx.frontend.regions import blank, orio_loop_code, scan
from looptx.errors import LooptxError
from looptx.recipe.orio_cuda import HOST_ONLY
from looptx.search.command import recipe_texts


def unused_param_warnings(st, ev=None, space=None) -> list[str]:
    spec = st.spec
    if spec is None or not spec.performance_params:
        return []
    code, named = _where_params_can_be_used(st)
    # an Orio CUDA file's nvcc command, which the C backend replaces by gcc, or the command
    # --cflags replaces
    dropped = spec.compile_command() or ""
    instead = "the {backend} backend does not run" if not st.build_command else \
        f"this search replaces by '{st.build_command}' (--cflags)"
    out = []
    for p in spec.performance_params:
        n = len(p.values)
        if n < 2 or p.name in st.chosen or _names(p.name, named):
            continue
        if _names(p.name, dropped):
            fix = "search with --backend cuda, or " if not st.build_command else ""
            out.append(f"{p.file or spec.file}:{p.line}:{p.col}: warning: param '{p.name}' is used only by "
                       f"the build command '{dropped}', which {instead.format(backend=st.backend)}: its {n} "
                       f"values build the same code here, so every variant is measured {n} times over; "
                       f"{fix}fix it for this search with -D {p.name}=VALUE")
            continue
        # the code may use the param as a macro, or hold a variable of that name (a loop `i`):
        # then the variants at its values tell
        if _names(p.name, code) and not _builds_alike(ev, space, p.name):
            continue
        where = f"{p.file or spec.file}:{p.line}:{p.col}: "
        out.append(f"{where}warning: param '{p.name}' is used by no step, recipe or build command: "
                   f"its {n} values build the same code, so every variant is measured {n} times "
                   f"over; remove the param or use it in a step")
    return out


def _names(name: str, text: str) -> bool:
    return re.search(rf"(?<![\w]){re.escape(name)}(?!\w)", text) is not None


def _builds_alike(ev, space, name: str) -> bool:
    """Whether the param's values, the others held at a valid point, build one code."""
    if ev is None or space is None:
        return False
    try:
        base = next(iter(space.valid_points() if space.enumerable else space.sample(np.random.default_rng(0), 1)))
        param = next(q for q in space.params if q.name == name)
        sources = set()
        for value in param.values:
            point = {**base, name: value}
            if space.is_valid(point):
                payload = ev.build(point)[0]
                sources.add((getattr(payload, "source", None) or repr(payload),
                             getattr(getattr(payload, "toolchain", None), "key", lambda: "")()))
    except Exception:  # noqa: BLE001 - no verdict: the search reports what fails to build
        return False
    return len(sources) == 1


def _where_params_can_be_used(st) -> tuple[str, str]:
    """(the file's text without the PerfTuning comment, whose constraints name params without
    using them; the recipe files it or --recipe names and the build command, their strings
    blanked: a CHiLL command names loops in quotes)."""
    try:
        with open(st.path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return "", ""
    directives = []
    try:
        markup = scan(text, st.path)
        for r in markup.regions:
            if r.chill is None:
                continue
            body = r.chill.body
            if st.recipe and r.start != r.chill.body_start:
                # --recipe replaces the region's own commands: the params they use go unused
                end = r.chill.body_start + len(body)
                text = text[:r.chill.body_start] + re.sub(r"[^\n]", " ", text[r.chill.body_start:end]) + text[end:]
                continue
            if st.recipe:
                continue            # (an Orio Loop annotation's code stays code)
            if r.orio_code:
                # an Orio Loop annotation: its directives, not the loop code it holds
                body = "".join(b if c == " " else " " for b, c in zip(body, orio_loop_code(body)))
            # Orio CUDA arguments looptx ignores (preferL1Size=PL) use no param
            directives.append(re.sub(rf"\b(?:{'|'.join(HOST_ONLY)})\s*=\s*[^,)]*", "", body))
        text = blank(text, [ann.begin for ann in markup.tuning])
    except (LooptxError, ValueError):
        pass
    named = "\n".join([st.build_command or "", *recipe_texts(st, text), *directives])
    return text, re.sub(r"\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", '""', named)
