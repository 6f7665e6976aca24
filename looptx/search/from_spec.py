"""A TuningSpec (the PerfTuning annotation) as a search space."""
from __future__ import annotations

import itertools
from typing import Any

from looptx.errors import AnnotationError


def first_point(spec, sizes: dict[str, Any] | None = None) -> dict[str, Any]:
    """The first point, in declaration order, that satisfies the constraints."""
    params = spec.performance_params
    if not params:
        return {}
    sizes = sizes if sizes is not None else (spec.problem_sizes() or [{}])[0]
    names = [p.name for p in params]
    for values in itertools.product(*(p.values for p in params)):
        point = dict(zip(names, values))
        if spec.satisfies(point, sizes):
            return point
    raise AnnotationError("no point of the performance parameters satisfies the constraints",
                          hint="relax a constraint or widen a parameter", file=spec.file, line=spec.line)
