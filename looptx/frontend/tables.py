"""Constant tables of the file: `static const int cx[Q] = {0, 1, 0, -1, ...};`.

Lattice-Boltzmann codes stream along their lattice velocities, `f_old[q][y - cy[q]][x - cx[q]]`:
a read through a table, which the model takes as any element (a gather).  Random values for `cy`
would read outside `f_old`; the file's own values keep every read inside it, so `run` uses them
(runtime/gathers.py checks that they do)."""
from __future__ import annotations

from pycparser import c_ast

__all__ = ["constant_tables"]


def constant_tables(ast, names: set[str]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """(name, values) of the file-scope `const` integer arrays in `names` whose initializer
    lists integer constants only."""
    out = []
    for d in getattr(ast, "ext", ()):
        if not (isinstance(d, c_ast.Decl) and d.name in names and isinstance(d.type, c_ast.ArrayDecl)
                and isinstance(d.init, c_ast.InitList) and isinstance(d.type.type, c_ast.TypeDecl)
                and "const" in (d.type.type.quals or []) + (d.quals or [])):
            continue
        values = [_integer(x) for x in d.init.exprs]
        if values and all(v is not None for v in values):
            out.append((d.name, tuple(values)))
    return tuple(out)


def _integer(node) -> int | None:
    if isinstance(node, c_ast.UnaryOp) and node.op in ("-", "+"):
        v = _integer(node.expr)
        return None if v is None else (-v if node.op == "-" else v)
    if isinstance(node, c_ast.Constant) and node.type == "int":
        try:
            return int(node.value.rstrip("uUlL"), 0)
        except ValueError:
            return None
    return None
