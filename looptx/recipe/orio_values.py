"""The values of an Orio Loop directive's arguments (`ufactor=U`, `tile = [('i', T, 'ii')]`),
checked as Orio's transformations read them (recipe/orio_loop.py)."""
from __future__ import annotations

import ast

from looptx.recipe.chill import _Line


def _value(ln: _Line, node):
    """Like the CHiLL dialect's values, but tuples stay tuples: Orio tells a loop that must
    exist, ('ii','i'), from one that may not, ['ii','i']."""
    if isinstance(node, ast.Tuple):
        return tuple(_value(ln, e) for e in node.elts)
    if isinstance(node, ast.List):
        return [_value(ln, e) for e in node.elts]
    return ln.value(node)


def _bool(ln: _Line, value, what: str) -> bool:
    if isinstance(value, bool) or value in (0, 1):
        return bool(value)
    raise ln.error(f"{what} must be True or False, got {value!r}", hint=f"write {what} as a bool param")


def _int(ln: _Line, value, what: str, least: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        # A whole float comes from a `/` (CONTRACT: Python 3) or from a param list that mixes
        # ints with a float; which one is not known here, so the hint names both.
        whole = isinstance(value, float) and value.is_integer()
        raise ln.error(f"{what} must be an integer >= {least}, got {value!r}",
                       hint="'/' is true division in an annotation (write // for a whole quotient), "
                       "and one float among a param's values makes them all floats"
                       if whole else "give a whole number, or a param whose values are")
    return value


def _seq(ln: _Line, value, what: str, length: tuple[int, ...] = ()) -> list:
    if isinstance(value, (list, tuple)) and (not length or len(value) in length):
        return list(value)
    form = f"a list of {' or '.join(map(str, length))}" if length else "a list"
    raise ln.error(f"{what} must be {form}, got {value!r}", hint=f"see Orio's form of {what}")


def _flag(ln: _Line, value, what: str) -> bool:
    """Orio's `part = BOOL` or `part = (BOOL, ...)`."""
    if isinstance(value, (list, tuple)):
        value = value[0] if value else False
    return _bool(ln, value, what)
