"""A param value that a step's own argument check rejects (a tile size 0, an unroll factor -1:
Orio spaces often start a range at 0) makes every point that holds it fail before anything is
built, so a search would spend its budget on points that cannot run.  Such a value is left out
of the space before measuring, with a note at the param naming the step; the rest of the
space is searched as written.

Only the recipe is read (its steps bound with the point, nothing applied), so the check costs
a parse per value.  A value is left out only when it is rejected with several different
values of the other params and either the error quotes the value itself, or the error's text
stays the same while each other param runs through its values (`unroll(0, "j", U - 2)` at U = 1
says `got -1`): a step argument that combines params (`TI - UF`) rejects combinations, which
stay points of the search."""
from __future__ import annotations

import re

import numpy as np

from looptx.errors import LegalityError, RecipeError
from looptx.search.space import Param, Space, value_key

_BASES = 4          # valid points whose other values each rejected value is tried with
_MAX_VALUES = 2048  # the values of one param checked so


def drop_rejected_values(space: Space, ev, seed: int) -> tuple[Space, list[tuple[Param, object, str]]]:
    """(the space without the values every step binding rejects, [(param, value, error)])."""
    recipe_for = getattr(ev, "recipe_for", None)
    if recipe_for is None or len(space.params) < 1:
        return space, []
    bases = [b for b in space.sample(np.random.default_rng(seed), _BASES) if _parses(recipe_for, b)]
    if not bases:
        _stop_if_every_point_is_rejected(recipe_for, space, seed)
        return space, []                # the recipe's own error: the search's check reports it
    dropped, params = [], []
    for p in space.params:
        if len(p.values) > _MAX_VALUES:
            # (each value costs a parse of the annotation, ~1 ms: a million took minutes before
            # the first point was measured; its rejected values are measured as invalid)
            params.append(p)
            continue
        out = [(v, e) for v in p.values if (e := _rejection(recipe_for, bases, p.name, v, space))]
        if out and len(out) < len(p.values):
            gone = {value_key(v) for v, _ in out}
            p = Param(p.name, tuple(v for v in p.values if value_key(v) not in gone), p.kind, p.slots)
            dropped += [(p, v, e) for v, e in out]
        params.append(p)
    if not dropped:
        return space, []
    return Space(params, space.constraints, name=space.name), dropped


_ALL = 512          # points parsed to tell a recipe that rejects them all


def _stop_if_every_point_is_rejected(recipe_for, space: Space, seed: int) -> None:
    """A step argument that rejects every point (`tile(0, "i", T - 20)` with T up to 16) says
    `got -12` at one point and `got -4` at another, so the search's check, which stops on one
    error text, let it measure (and record) every point as invalid.  Each point is parsed (a
    sample of a large space): rejected everywhere by the same step, the search stops with the
    first point's error."""
    if space.enumerable:
        total = space.size()
        picked = np.random.default_rng(seed).choice(total, _ALL, replace=False) if total > _ALL else range(total)
        points = [space.point_at(k) for k in picked]
    else:
        points = space.sample(np.random.default_rng(seed), _ALL)
    first, wheres = None, set()
    for p in points:
        try:
            recipe_for(dict(p))
        except RecipeError as e:
            first = first or e
            wheres.add((e.file, e.line, e.step))
            if len(wheres) > 1:
                return
            continue
        except Exception:  # noqa: BLE001 - not the recipe's verdict
            return
        return
    if first is not None:
        raise first


def _parses(recipe_for, point) -> bool:
    try:
        recipe_for(dict(point))
    except (RecipeError, LegalityError):
        return False
    except Exception:  # noqa: BLE001 - the search's own checks report what else fails
        return False
    return True


def _rejection(recipe_for, bases, name: str, value, space: Space) -> str | None:
    """The error of a step that rejects `value` of `name` at every base point, else None."""
    tried, error = 0, None
    others = [q for q in space.params if q.name != name]
    for b in bases:
        if value_key(b[name]) == value_key(value):
            return None                 # a base point holds it and parses
        try:
            recipe_for({**b, name: value})
        except LegalityError:
            return None
        except RecipeError as e:
            if not (_quotes(e.what, value) or _same_whatever(recipe_for, b, name, value, others, e.what)):
                return None
            tried, error = tried + 1, e
            continue
        except Exception:  # noqa: BLE001 - not the recipe's verdict
            return None
        return None
    if tried < min(2 if others else 1, len(bases)) or error is None:
        return None
    step = f"step {error.step} ({error.step_name})" if error.step else "the recipe"
    return f"{step} rejects it: {_reason(error.what)}"


def _same_whatever(recipe_for, base: dict, name: str, value, others, text: str) -> bool:
    """Whether `base` with `value` of `name` stays rejected, with the same error text, as each
    other param takes its first, middle and last values: the rejected argument does not depend
    on them.  Another text counts where that other value is rejected at `base` by itself (tile
    sizes 1 of both loops that a permutation names: the first missing loop is the one named)."""
    point = {**base, name: value}
    for q in others:
        for v in (q.values[0], q.values[len(q.values) // 2], q.values[-1]):
            try:
                recipe_for({**point, q.name: v})
            except RecipeError as e:
                if e.what != text and not _rejected(recipe_for, {**base, q.name: v}):
                    return False
                continue
            except Exception:  # noqa: BLE001 - not the recipe's verdict
                return False
            return False
    return True


def _rejected(recipe_for, point: dict) -> bool:
    try:
        recipe_for(dict(point))
    except RecipeError:
        return True
    except Exception:  # noqa: BLE001 - not the recipe's verdict
        return False
    return False


def _quotes(text: str, value) -> bool:
    shown = repr(value) if isinstance(value, str) else str(value)
    return re.search(rf"got {re.escape(shown)}(?![\w.])", text) is not None


def _reason(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 120 else text[:117] + "..."


def notes(spec, dropped) -> list[str]:
    """One line per param: `FILE:LINE:COL: note: param 'TI': value 0 is left out ...`."""
    lines, by_param = [], {}
    for p, v, e in dropped:
        by_param.setdefault(p.name, []).append((v, e))
    for name, items in by_param.items():
        decl = next((q for q in (spec.performance_params if spec is not None else ()) if q.name == name), None)
        where = f"{decl.file or spec.file}:{decl.line}:{decl.col}: " if decl is not None and decl.line else ""
        values = ", ".join(repr(v) if isinstance(v, str) else str(v) for v, _ in items)
        what = f"values {values} are" if len(items) > 1 else f"value {values} is"
        lines.append(f"{where}note: param '{name}': {what} left out of the search, as "
                     f"{items[0][1]}")
    return lines


def without_rejected_values(st, space: Space, ev, n_valid, said: set[str]):
    """The space without the param values a step rejects whatever the other params are,
    noted at each param once (`said`: a search at several sizes meets them at each)."""
    from looptx.search.space_checks import count
    smaller, dropped = drop_rejected_values(space, ev, st.seed)
    n_left = count(smaller) if dropped else n_valid
    if not dropped or n_left == 0 or (n_left is None and not smaller.sample(np.random.default_rng(st.seed), 1)):
        return space, n_valid           # nothing else is valid: the search says what fails
    from looptx.search.options import queue_warning
    for line in notes(st.spec, dropped):
        if line not in said:
            said.add(line)
            queue_warning(line)     # printed once the input is known good: a bad one's error stays one line
    return smaller, n_left
