"""CHiLL's scalars: a temporary of the function that each iteration sets before it reads it
(CUDA-CHiLL's cp: `dx = ... ; dy = ...; energy[...] += ... dx * dx ...`) is each iteration's own
in CHiLL's output, whose reorderings and thread mappings never see it; looptx asks for a
`privatize` step before the step that needs it.  A CHiLL script's step refused for such
dependences gets those steps, with a note, and is applied again: the scripts run as written."""
from __future__ import annotations

import re
from typing import Callable

from looptx.errors import LegalityError, LooptxError, note_once
from looptx.frontend.names import to_user
from looptx.poly import privatize as PV
from looptx.poly.variant import Variant
from looptx.recipe.schema import Step

_CALL = re.compile(r"\s*\w+\s*\(")


def is_script_command(st: Step) -> bool:
    """Whether the step is a CHiLL/Orio command as a script writes it (`fuse([0,1],1)`), not YAML."""
    return bool(_CALL.match(st.text or ""))


def with_private_temporaries(before: Variant, st: Step, e: LooptxError,
                             apply: Callable[[tuple[Step, ...]], Variant]) -> Variant | None:
    """`before` after privatize steps for the region's privatizable temporaries and then `st`,
    where `st` is a CHiLL command that `e` refused for a dependence and that passes so; else None."""
    named = PV.hinted(e.hint) if isinstance(e, LegalityError) and is_script_command(st) else set()
    # the temporaries the refusal names (its violated dependences), in each nest they are used
    groups = [(var, at, stmt) for var, _, at, stmt in PV._groups(before.scop) if to_user(var) in named]
    if not groups:
        return None
    steps = tuple(Step("privatize", ((("stmt", stmt),) if stmt is not None else ()) + (("var", var), ("at", at)),
                       st.index, st.file, st.line,
                       text=f'privatize({"" if stmt is None else f"{stmt},"}"{to_user(var)}","{to_user(at)}")')
                  for var, at, stmt in groups)
    try:
        out = apply(steps + (st,))
    except LooptxError:
        return None
    note_once(st.file or "recipe", st.line, f"step {st.index} ({st.shown_name}): as in CHiLL, each iteration has its "
              f"own {', '.join(dict.fromkeys(repr(to_user(v)) for v, _, _ in groups))} (the temporaries it sets before it reads "
              f"them): {', '.join(s.text for s in steps)} before the step", per_line=True)
    return out
