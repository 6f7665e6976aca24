"""CHiLL's `pragma` step: the text before a loop, as written."""
from __future__ import annotations

import re

from looptx.errors import note_once
from looptx.frontend.names import to_user
from looptx.poly import parallel as PL
from looptx.poly import schedule as S
from looptx.poly.variant import Variant
from looptx.recipe.schema import Step


def pragma_step(v: Variant, st: Step) -> Variant:
    """A pragma as written; a note where it makes the loop's iterations run at once (OpenMP,
    OpenACC) and they write locals of the region, which the output declares once before its
    loops: the pragma's own private clause must name them."""
    text = st["text"].strip()
    out = PL.add_pragma(v, st["stmt"], st["loop"], text)
    if re.match(r"(omp|acc)\b", text) and not PL.is_omp_for(text) and "private" not in text:
        name = S.resolve_name(v, st["stmt"], st["loop"])
        inside = {v.pieces[k].stmt for k, _ in S.sharing(v, st["stmt"], name)}
        locals_ = {a.name for a in v.scop.arrays if a.local and a.is_scalar}
        written = sorted({a.array for s in inside for a in v.scop.statements[s].accesses
                          if a.kind == "write" and a.array in locals_})
        if written:
            note_once(st.file or "recipe", st.line or 1, f"step {st.index} (pragma): the iterations of loop "
                      f"'{to_user(name)}' write {', '.join(map(to_user, written))}, which the output declares once "
                      f"before its loops: add private({', '.join(map(to_user, written))}) to '#pragma {text}'")
    return out
