"""Checks of the params and the recipe before anything is measured.

A performance param whose list mixes ints with a non-integer (`[1, 4, 8, 2.5]`) is read as
floats (ints and floats may mix), so where a step needs an integer every point would fail at
the recipe line.  The cause is the param's value list: reported there, once.  A recipe error
that every point meets (an unknown name) is the recipe's, reported once too."""
from __future__ import annotations

import re

from looptx.errors import AnnotationError, LegalityError, LooptxError
from looptx.search.space import Space


def _suspects(spec) -> list:
    """Float params written mostly or only as whole numbers, with the values that are not."""
    out = []
    for p in spec.performance_params if spec is not None else ():
        if p.kind != "float":
            continue
        vals = [v for v in p.values if isinstance(v, float)]
        frac = [v for v in vals if not v.is_integer()]
        if len(frac) < len(vals):       # all whole: `[16/2, 4]`, true division made floats
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
            if f"got {point[p.name]!r}" not in text and f"got {point[p.name]}" not in text:
                continue
            where = dict(file=p.file or spec.file, line=p.line, col=p.col)
            if not frac:
                shown = ", ".join(repr(v) for v in p.values)
                raise AnnotationError(
                    f"param '{p.name}' has the values {shown}, floats where an integer is needed "
                    f"({_short(text)})",
                    hint="'/' is true division in an annotation: write // for a whole quotient, "
                         f"or give {p.name} whole numbers", **where) from None
            shown = ", ".join(f"{v:g}" for v in frac)
            raise AnnotationError(
                f"param '{p.name}' has the value {shown}, which is not an integer, where an "
                f"integer is needed ({_short(text)})",
                hint=f"one float among the values makes every value of {p.name} a float "
                     f"({point[p.name]!r}); give {p.name} whole numbers only", **where) from None
    except Exception:  # noqa: BLE001 - an internal failure is the search's to record
        return


def _short(text: str) -> str:
    text = " ".join(text.split())
    if "error: " in text:
        text = text.split("error: ", 1)[1]
    text = text.split(" (", 1)[0]
    return text if len(text) <= 160 else text[:160] + " ..."


def _rng(seed: int = 0):
    import numpy as np
    return np.random.default_rng(seed)


def check_recipe(ev, space: Space, seed: int) -> None:
    """Static errors of the recipe (an unknown name, a missing recipe file, an unsupported
    command) would make every point 'invalid': report them once, before measuring anything.
    A few valid points are built; only when all of them fail with the same non-legality error
    (at the same place, its text the same, or the same less the points' values) is it a
    property of the recipe rather than of the points (an illegal point, or one a step rejects
    for its values, is the search's to prune)."""
    errors, points = [], []
    for p in _probe_points(space, seed):
        try:
            ev.build(dict(p))
        except LegalityError:
            return
        except LooptxError as e:
            errors.append(e)
            points.append(p)
            continue
        except Exception:  # noqa: BLE001 - an internal failure is recorded per point
            return
        return
    if not errors:
        return
    # (by the step's name: a step a point's values leave out, `tile` by 1, renumbers the rest)
    wheres = {(type(e), e.file, e.line, e.col, e.step_name) for e in errors}
    raw = {e.what for e in errors}
    # every probe's values are taken out of every text: a value of one point may be a word
    # of the fixed text (`integer >= 1` where another point has TJ = 1)
    values = [v for p in points for v in p.values()]
    masked = {_less_values(e.what, values) for e in errors}
    # the hint is left out: it may list the loops the point's earlier steps made
    if len(wheres) == 1 and (len(raw) == 1 or len(masked) == 1):
        raise max(errors, key=lambda e: e.step or 0)     # counted with every step the recipe has


def _probe_points(space: Space, seed: int, n: int = 3) -> list[dict]:
    """A few valid points spread over the space (the first valid point first)."""
    if space.enumerable:
        total = space.size()
        return [space.point_at(i) for i in sorted({0, total // 2, total - 1}) if total][:n]
    return space.sample(_rng(seed), n)


def _less_values(text: str, values) -> str:
    """An error's text with the probes' values taken out (Orio's `tile = [('i', T)]` says
    `got ('i', 8)` at T=8): the same text at every probe is the recipe's error."""
    for value in sorted({repr(v) if isinstance(v, str) else str(v) for v in values
                         if not isinstance(v, bool)}, key=len, reverse=True):
        # strings only quoted (bare, one may be a word of the text); True / False are words,
        # taken out only where an argument check quotes them
        text = re.sub(rf"(?<![\w.]){re.escape(value)}(?![\w.])", "<value>", text)
    for value in {str(v) for v in values if isinstance(v, bool)}:
        text = re.sub(rf"\bgot {value}\b", "got <value>", text)
    return text
