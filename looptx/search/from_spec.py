"""A TuningSpec (the PerfTuning annotation) as a search space."""
from __future__ import annotations

import itertools
import re
from typing import Any

from looptx.errors import AnnotationError


def first_point(spec, sizes: dict[str, Any] | None = None,
                chosen: dict[str, Any] | None = None, takes=None) -> dict[str, Any]:
    """The first point, in declaration order, that satisfies the constraints; `chosen` fixes
    some params (`--define TI=16` for a single transform), each to one of its values.  With
    `takes(point)`, the first of the first 256 valid points that it takes too (one whose steps
    accept their arguments, as a search leaves out the values they reject), else the first."""
    if not spec.performance_params:
        return {}
    sizes = sizes if sizes is not None else (spec.problem_sizes() or [{}])[0]
    valid = _valid_points(spec, sizes, chosen or {})
    first = next(valid, None)
    if first is not None:
        if takes is None or takes(first):
            return first
        return next((p for p in itertools.islice(valid, 255) if takes(p)), first)
    names = [p.name for p in spec.performance_params]
    choices = _choices(spec, chosen or {})
    if chosen:
        given = ", ".join(f"{k}={v}" for k, v in chosen.items())
        c = _ruling_out(spec, names, choices, sizes)
        if c is not None:
            raise AnnotationError(f"constraint '{c.name}' rules out every point with {given}",
                                  hint="pick other values with --define", file=spec.file,
                                  line=c.line or spec.line, col=c.col or None)
        raise AnnotationError(f"no point with {given} satisfies the constraints",
                              hint="pick other values with --define", file=spec.file, line=spec.line)
    raise AnnotationError("no point of the performance parameters satisfies the constraints",
                          hint="relax a constraint or widen a parameter", file=spec.file, line=spec.line)


def _choices(spec, chosen: dict[str, Any]) -> list:
    return [p.values if p.name not in chosen else (picked(spec, p, chosen[p.name]),)
            for p in spec.performance_params]


def _valid_points(spec, sizes, chosen: dict[str, Any]):
    """The points that satisfy the constraints, in declaration order."""
    names = [p.name for p in spec.performance_params]
    for values in itertools.product(*_choices(spec, chosen)):
        point = dict(zip(names, values))
        if spec.satisfies(point, sizes):
            yield point


def _ruling_out(spec, names, choices, sizes):
    """The first constraint that is false at every point of `choices` (one that raises counts
    as false), or None when each point fails a different one."""
    left = list(spec.constraints)
    for values in itertools.product(*choices):
        env = {**spec.lets, **sizes, **dict(zip(names, values))}
        left = [c for c in left if not _holds(c, env)]
        if not left:
            return None
    return left[0] if left else None


def _holds(c, env) -> bool:
    try:
        return bool(c.expr(env))
    except Exception:  # noqa: BLE001 - as the space reads a constraint that cannot be evaluated
        return False


def picked(spec, p, value) -> Any:
    """The value of performance param `p` that `--define NAME=VALUE` names (exit 2 if none):
    an integer, or a spelling of the value (True, -O3, 'ij', [1, 2])."""
    found = next((v for v in p.values if _names(value, v)), None)
    if found is None and isinstance(value, int) and not isinstance(value, bool):
        # CUDA-CHiLL's `param BY[] = ['1', 'k']`: -D BY=1 names the string where no value is the number
        found = next((v for v in p.values if isinstance(v, str) and v.strip() == str(value)), None)
    if found is None:
        shown = ", ".join(map(repr if any(isinstance(v, str) for v in p.values) else str, p.values[:12])) \
            + (", ..." if len(p.values) > 12 else "")
        raise AnnotationError(f"--define {p.name}={value} is not a value of performance param "
                              f"'{p.name}' ({shown})", hint="pick one of its values",
                              file=p.file or spec.file, line=p.line, col=p.col)
    return found


def _names(given, value) -> bool:
    if isinstance(value, bool):
        # SPAPT's flags are [False, True]: -D SCR=1 and -D SCR=true mean True as in C
        spelled = str(given).strip().lower()
        return spelled in (("true", "1") if value else ("false", "0"))
    if isinstance(given, int) or type(value) is int:
        return type(value) is int and type(given) is int and value == given
    text = given.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    if text == str(value) or text.replace(" ", "") == str(value).replace(" ", ""):
        return True
    # a sequence as the spec writes it ([ 'i1', 'i2' ]), as Python prints it (tuple), or bare;
    # loop names of one letter also run together (SPAPT's PERM ['j', 'i']: -D PERM=ji)
    return isinstance(value, (list, tuple)) and (
        _sequence_text(text) == _sequence_text(str(value))
        or all(isinstance(x, str) and len(x) == 1 for x in value) and text == "".join(value))


def _sequence_text(text: str) -> str:
    flat = re.sub(r"[\s'\"]", "", text).replace("[", "(").replace("]", ")").replace(",)", ")")
    return flat[1:-1] if flat.startswith("(") and flat.endswith(")") else flat
