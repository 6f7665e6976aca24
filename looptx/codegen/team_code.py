"""The code of a region that an OpenMP team around it runs: its shared loops, and the rest
under `#pragma omp single`."""
from __future__ import annotations

from typing import TYPE_CHECKING

from looptx.codegen import ast as K
from looptx.errors import RecipeError
from looptx.frontend.names import to_user

if TYPE_CHECKING:
    from looptx.codegen.c import CPrinter

def team_lines(printer: CPrinter, n: K.Node, depth: int) -> list[str]:
    """A region that an OpenMP team runs (Scop.team): each thread runs this code, so what is
    not a shared loop (`#pragma omp for`) runs under `#pragma omp single` (an unroll's
    remainder, a peeled iteration), and a branch on the sizes (the same in every thread) holds
    the same layout inside.  A shared loop must stay outermost: inside a loop that every thread
    ran it would be shared out again and again, inside `single` not at all."""
    if isinstance(n, K.Block):
        # statements one after another run in one `single`, by one thread: a variable private
        # to the team that one sets and the next reads is that thread's (probe 224 G4: a loop
        # of one iteration, printed as two statements, read another thread's `t`)
        out, run = [], []
        for c in n.items + (None,):
            if c is not None and not any(_shared(printer, f) for f in K.nodes(c, K.For)):
                run.append(c)
                continue
            if run:
                out += team_lines(printer, run[0], depth) if len(run) == 1 else \
                    _single(printer, K.Block(tuple(run)), depth)
                run = []
            out += team_lines(printer, c, depth) if c is not None else []
        return out
    if isinstance(n, K.Mark):
        return team_lines(printer, n.body, depth)
    if isinstance(n, K.For) and _shared(printer, n):
        return printer.lines(n, depth)
    if isinstance(n, K.If) and any(_shared(printer, f) for f in K.nodes(n, K.For)):
        pad = printer.ind * depth
        out = [f"{pad}if ({printer.expr(n.cond)}) {{"] + team_lines(printer, n.then, depth + 1)
        if n.orelse is not None:
            out += [f"{pad}}} else {{"] + team_lines(printer, n.orelse, depth + 1)
        return out + [f"{pad}}}"]
    inner = next((f for f in K.nodes(n, K.For) if _shared(printer, f)), None)
    if inner is not None:
        raise RecipeError(f"loop '{to_user(inner.var)}', which the OpenMP team around the region shares out, "
                          "is no longer the outermost loop of its nest: every thread would share it out again "
                          "in each iteration of the loops around it",
                          hint="keep the shared loop (or a tile loop made from it) outermost")
    return _single(printer, n, depth)


def _single(printer: CPrinter, n: K.Node, depth: int) -> list[str]:
    pad = printer.ind * depth
    return [f"{pad}#pragma omp single", f"{pad}{{"] + printer.lines(n, depth + 1) + [f"{pad}}}"]


def _shared(printer: CPrinter, n: K.For) -> bool:
    return any(ln.lstrip().startswith("#pragma omp for") for ln in printer.pragmas(n))
