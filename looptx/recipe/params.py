"""A recipe's `$NAME` params, replaced by their values in a step's arguments."""
from __future__ import annotations

import re
from typing import Any, Mapping

from looptx.errors import RecipeError


_PARAM = re.compile(r"\$(\w+)")


def substitute(value, params: Mapping[str, Any], step=None):
    """Replace $NAME by its param value (whole values keep their type)."""
    if isinstance(value, str):
        m = re.fullmatch(r"\$(\w+)", value.strip())
        if m:
            if m.group(1) not in params:
                raise _unknown_param(m.group(1), params, step)
            # (an annotation's list value, `param P[] = [['i','j'], ['j','i']]`, is stored as a tuple)
            return _as_lists(params[m.group(1)])

        def one(mm):
            if mm.group(1) not in params:
                raise _unknown_param(mm.group(1), params, step)
            return str(params[mm.group(1)])
        return _PARAM.sub(one, value)
    if isinstance(value, (list, dict)):
        return _substituted_tree(value, params, step)
    return value


def _substituted_tree(value, params, step):
    """A list or mapping substituted once per object: YAML aliases share one object many times
    over (nine aliases of nine make 9^9 leaves), which the result shares in turn."""
    done: dict[int, Any] = {}

    def walk(v):
        if not isinstance(v, (list, dict)):
            return substitute(v, params, step)
        if id(v) not in done:
            done[id(v)] = [walk(x) for x in v] if isinstance(v, list) else \
                {walk(k): walk(x) for k, x in v.items()}
        return done[id(v)]
    return walk(value)


def _as_lists(value):
    return [_as_lists(x) for x in value] if isinstance(value, (tuple, list)) else value


def _unknown_param(name, params, step) -> RecipeError:
    known = ", ".join(sorted(params)) or "none"
    what = f"unknown param '${name}'"
    hint = f"known params: {known}; define it under params:"
    if step is not None:
        return step.error(what, hint)
    return RecipeError(what, hint=hint)
