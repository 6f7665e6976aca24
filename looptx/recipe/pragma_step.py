"""CHiLL's `pragma` step: the text before a loop, as written."""
from __future__ import annotations

from looptx.poly import parallel as PL
from looptx.poly.variant import Variant
from looptx.recipe.schema import Step


def pragma_step(v: Variant, st: Step) -> Variant:
    """A pragma as written.  Where it runs the loop's iterations at once or in any order
    (OpenMP, OpenACC, ivdep), the loop is checked as omp_for's is, after this step and every
    later one (poly/parallel.check_parallel); an OpenMP or OpenACC loop construct's private
    clause gets the locals the output declares once before its loops (codegen/c.py)."""
    return PL.add_pragma(v, st["stmt"], st["loop"], st["text"].strip())
