"""A performance param that no step, recipe, build command or code names still multiplies the
space: each of its values rebuilds the same variant, and the search spends budget measuring
twins.  Orio accepts such a param without a word; a warning names it before any measuring
(the search still runs, as the user wrote it)."""
from __future__ import annotations

import re

from looptx.frontend.regions import blank, scan
from looptx.errors import LooptxError
from looptx.search.command import recipe_texts


def unused_param_warnings(st) -> list[str]:
    spec = st.spec
    if spec is None or not spec.performance_params:
        return []
    corpus = _where_params_can_be_used(st)
    out = []
    for p in spec.performance_params:
        n = len(p.values)
        if n < 2 or p.name in st.chosen or re.search(rf"(?<![\w]){re.escape(p.name)}(?!\w)", corpus):
            continue
        where = f"{p.file or spec.file}:{p.line}:{p.col}: "
        out.append(f"{where}warning: param '{p.name}' is used by no step, recipe or build command: "
                   f"its {n} values build the same code, so every variant is measured {n} times "
                   f"over; remove the param or use it in a step")
    return out


def _where_params_can_be_used(st) -> str:
    """The file's text without the PerfTuning comment (its constraints name params without
    using them), the recipe files it or --recipe names, and the build command."""
    try:
        with open(st.path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return ""
    try:
        text = blank(text, [ann.begin for ann in scan(text, st.path).tuning])
    except LooptxError:
        pass
    return "\n".join([text, st.build_command or "", *recipe_texts(st, text)])
