"""A performance param whose list mixes ints with a non-integer (`[1, 4, 8, 2.5]`) is read as
floats (ints and floats may mix), so where a step needs an integer every point would fail at
the recipe line.  The cause is the param's value list: reported there, once, before measuring."""
from __future__ import annotations

from looptx.errors import AnnotationError, LegalityError, LooptxError


def _suspects(spec) -> list:
    """Float params written mostly as whole numbers, with the values that are not."""
    out = []
    for p in spec.performance_params if spec is not None else ():
        if p.kind != "float":
            continue
        vals = [v for v in p.values if isinstance(v, float)]
        frac = [v for v in vals if not v.is_integer()]
        if frac and len(frac) < len(vals):
            out.append((p, frac))
    return out


def check_integer_params(spec, space, ev) -> None:
    """Build the first valid point whose suspect params are whole; an 'integer' error that
    names such a param's value is that param's fault."""
    suspects = _suspects(spec)
    if not suspects:
        return
    point = next((p for p in space.sample(_rng(), 20)
                  if all(float(p[q.name]).is_integer() for q, _ in suspects)), None)
    if point is None:
        return
    try:
        ev.build(dict(point))
    except LegalityError:
        return
    except LooptxError as e:
        text = str(e)
        if "integer" not in text:
            return
        for p, frac in suspects:
            if f"got {point[p.name]!r}" in text or f"got {point[p.name]}" in text:
                shown = ", ".join(f"{v:g}" for v in frac)
                raise AnnotationError(
                    f"param '{p.name}' has the value {shown}, which is not an integer, where an "
                    f"integer is needed ({_short(text)})",
                    hint=f"one float among the values makes every value of {p.name} a float "
                         f"({point[p.name]!r}); give {p.name} whole numbers only",
                    file=p.file or spec.file, line=p.line, col=p.col) from None
    except Exception:  # noqa: BLE001 - an internal failure is the search's to record
        return


def _short(text: str) -> str:
    text = " ".join(text.split())
    if "error: " in text:
        text = text.split("error: ", 1)[1]
    text = text.split(" (", 1)[0]
    return text if len(text) <= 160 else text[:160] + " ..."


def _rng():
    import numpy as np
    return np.random.default_rng(0)
