"""Which values of each param can be in a valid point at all: the checks that read one param
decide each of its values once, before a listing or sampling tries them under every prefix.

Orio files write conditions on one param inside larger ones (`UF <= TI and TI % 1000000 ==
7` over three million TI values; probe 225): the listing and the samplers tried every value
under every prefix, about 20 us each in the annotation's evaluator, and a search spent
minutes finding its first points.  Where the expression is plain arithmetic and comparison
on numbers, it is evaluated over all the values at once with numpy, exactly (every value an
integer below 2**53 or a float, no division by zero); otherwise value by value, where the
param has few enough values."""
from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from looptx.search.constraints import Prune

_EXACT = float(2 ** 53)
SCALAR_LIMIT = 100_000       # values a check is called on one by one, at most


class _Unsupported(Exception):
    pass


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _exact(a: np.ndarray) -> np.ndarray:
    finite = a[np.isfinite(a)]
    if finite.size and np.abs(finite).max() >= _EXACT:
        raise _Unsupported        # int arithmetic past float64's exact range
    return a


def _divisor(b: np.ndarray) -> np.ndarray:
    if np.any(b == 0):
        raise _Unsupported        # Python raises there; the check decides what that means
    return b


_ARITH: dict[type, Callable] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: lambda a, b: a / _divisor(b),
    ast.FloorDiv: lambda a, b: np.floor_divide(a, _divisor(b)),
    ast.Mod: lambda a, b: np.mod(a, _divisor(b)),
}
_CMP: dict[type, Callable] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge,
}


class _Vector:
    """Python's value of a numeric expression at every value of one param, as float64."""

    def __init__(self, name: str, values: np.ndarray, env: Mapping, count: int):
        self.name, self.values, self.env, self.count = name, values, env, count

    def ev(self, node, truth: bool = False) -> np.ndarray:
        if isinstance(node, ast.Constant):
            return self._scalar(node.value)
        if isinstance(node, ast.Name):
            if node.id == self.name:
                return self.values
            if node.id in self.env:
                return self._scalar(self.env[node.id])
            raise _Unsupported
        if isinstance(node, ast.UnaryOp):
            a = self.ev(node.operand, isinstance(node.op, ast.Not))
            if isinstance(node.op, ast.USub):
                return -a
            if isinstance(node.op, ast.UAdd):
                return a
            if isinstance(node.op, ast.Not):
                return (a == 0).astype(float)
            raise _Unsupported
        if isinstance(node, ast.BinOp) and type(node.op) in _ARITH:
            with np.errstate(all="ignore"):
                return _exact(_ARITH[type(node.op)](self.ev(node.left), self.ev(node.right)))
        if isinstance(node, ast.Compare) and all(type(op) in _CMP for op in node.ops):
            out = np.ones(self.count, dtype=bool)
            left = self.ev(node.left)
            for op, comp in zip(node.ops, node.comparators):
                right = self.ev(comp)
                out &= _CMP[type(op)](left, right)
                left = right
            return out.astype(float)
        # `and`/`or` give one of their operands in Python; only their truth is the same
        if truth and isinstance(node, ast.BoolOp):
            parts = [self.ev(v, True) != 0 for v in node.values]
            combine = np.logical_and if isinstance(node.op, ast.And) else np.logical_or
            return combine.reduce(parts).astype(float)
        if isinstance(node, ast.IfExp):
            return np.where(self.ev(node.test, True) != 0, self.ev(node.body, truth),
                            self.ev(node.orelse, truth))
        raise _Unsupported

    def _scalar(self, v) -> np.ndarray:
        if isinstance(v, bool) or _number(v) and (isinstance(v, float) or abs(v) < _EXACT):
            return np.full(self.count, float(v))
        raise _Unsupported


def vector_truth(tree, env: Mapping, name: str, values: Sequence) -> np.ndarray | None:
    """bool(expression) at each of `values` of param `name` (the expression's other names in
    `env`), or None where numpy cannot give Python's answer exactly."""
    if not values or not set(map(type, values)) <= {int, float}:
        return None
    try:
        arr = np.asarray(values, dtype=float)
        if np.abs(arr[np.isfinite(arr)]).max(initial=0.0) >= _EXACT:
            return None
        return _Vector(name, arr, env, len(values)).ev(tree, True) != 0
    except (_Unsupported, OverflowError, ValueError, TypeError):
        return None


def one_param_checks(c) -> list:
    """(names read, check) of a constraint and of each of its conjuncts, in that order."""
    return [(getattr(c, "names", None), c)] + [(names, Prune(part)) for names, part in getattr(c, "parts", ())]


def allowed_values(space) -> tuple[list[np.ndarray], set[tuple[int, int]]]:
    """The indices of each param's values that the one-param checks leave, and which checks
    decided (constraint number, place in one_param_checks): a listing need not ask them again."""
    position = {name: d for d, name in enumerate(space.names)}
    masks = [np.ones(len(p.values), dtype=bool) for p in space.params]
    decided = set()
    for ci, c in enumerate(space.constraints):
        for k, (names, check) in enumerate(one_param_checks(c)):
            read = {x for x in (names or ()) if x in position}
            if names is None or len(read) != 1:
                continue
            d = position[read.pop()]
            truth = _one_param(check, space.params[d], masks[d])
            if truth is not None:
                masks[d] &= truth
                decided.add((ci, k))
    return [np.flatnonzero(m) for m in masks], decided


def _one_param(check, param, mask: np.ndarray) -> np.ndarray | None:
    vector = getattr(check, "vector", None)
    truth = vector(param.name, param.values) if vector is not None else None
    if truth is not None:
        return truth
    if int(mask.sum()) > SCALAR_LIMIT:
        return None
    out = np.zeros(len(param.values), dtype=bool)
    for i in np.flatnonzero(mask):
        try:
            out[i] = bool(check({param.name: param.values[int(i)]}))
        except Exception:  # noqa: BLE001 - as Space._all_hold: a check that raises rules it out
            out[i] = False
    return out
