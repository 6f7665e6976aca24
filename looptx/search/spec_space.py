"""The search space of a PerfTuning block at one problem size: its params, and its constraints
as checks the space can ask about partial points and whole value lists."""
from __future__ import annotations

from typing import Any, Mapping

from looptx.errors import LooptxError
from looptx.search.constraints import Constraint, monotone
from looptx.search.space import Param, Space


def space_for(spec, sizes: Mapping[str, Any], name: str = "space",
              chosen: Mapping[str, Any] | None = None) -> Space:
    """The search space of the spec at one problem size; `chosen` (--define of performance
    params) fixes some params to one of their values."""
    if spec is None or not spec.performance_params:
        return Space([Param("_", (0,), "int")], name=name)
    from looptx.search.from_spec import picked
    chosen = chosen or {}
    params = []
    for p in spec.performance_params:
        slots = tuple((p.meta or {}).get("slots", ())) if p.kind == "mapping" else ()
        values = (picked(spec, p, chosen[p.name]),) if p.name in chosen else tuple(p.values)
        try:
            params.append(Param(p.name, values, p.kind, slots))
        except LooptxError as e:
            raise e.located(file=p.file or spec.file, line=p.line, col=p.col)
    env = {**spec.lets, **sizes}
    return Space(params, [_Constraint(c, env, spec.file) for c in spec.constraints], name=name)


class _Bound:
    """An expression evaluated at a point, with the problem size's names."""

    def __init__(self, expr, env: Mapping[str, Any]):
        self.expr, self.env = expr, env

    def __call__(self, point: Mapping[str, Any]):
        return self.expr({**self.env, **point})

    def vector(self, name: str, values):
        """Its truth at each of `values` of param `name`, all at once, or None."""
        from looptx.search.value_masks import vector_truth
        tree = self.expr._tree
        return None if tree is None else vector_truth(tree.body, self.env, name, values)


class _Constraint(Constraint):
    """One performance constraint at fixed problem sizes.  `names` (the params it reads) lets
    the space check it on partial points while it lists the valid ones."""

    def __init__(self, c, env: Mapping[str, Any], file: str):
        super().__init__(c.expr.names_in_order(), f"constraint {c.name}", c.expr.file or file, c.line)
        self.expr = c.expr
        self.whole = _Bound(c.expr, env)
        # `U3 == 1 and U4 == 1`: each side rules out prefixes of the listing on its own
        conjuncts = c.expr.conjuncts()
        self.parts = tuple((part.names_in_order(), _Bound(part, env)) for part in conjuncts)
        # (names, check, way) of the whole and of each conjunct where only a growing param
        # can turn it false (way "least") or true ("most"): they prune listings (constraints.py)
        self.monotone = tuple((names, holds, way) for names, holds, way in
                              [(self.names, self.holds, monotone(getattr(c.expr._tree, "body", None), env))]
                              + [(names, part, monotone(getattr(e._tree, "body", None), env))
                                 for (names, part), e in zip(self.parts, conjuncts)] if way)

    def holds(self, point: Mapping[str, Any]) -> bool:
        return self.whole(point)

    def vector(self, name: str, values):
        return self.whole.vector(name, values)
