"""Regions an OpenMP team runs (Scop.team, frontend/omp_team.py): the `#pragma omp for` of
each loop nest becomes an omp_for step before the recipe, and after it sits on the nest's
outermost loop, which every thread then shares out (codegen/team_code.team_lines)."""
from __future__ import annotations

import os
import re
from dataclasses import replace

from looptx.errors import LegalityError, LooptxError
from looptx.frontend.names import to_model, to_user
from looptx.poly import deps as D
from looptx.poly import parallel as PL
from looptx.poly import schedule as S
from looptx.poly.reductions import CLAUSE
from looptx.poly.variant import LoopDim, Variant
from looptx.recipe.schema import Step


def team_loops(v: Variant, deps: D.Deps, unsafe: bool) -> tuple[Variant, D.Deps]:
    """The `#pragma omp for` of each loop nest the team around the region shares out, as an
    omp_for step on the nest's outer loop: its reductions and the scalars of its private list
    (the counters the printer lists itself), checked as the step is, before the recipe."""
    from looptx.recipe.apply import check_legal
    from looptx.recipe.pragma_step import omp_for_step as omp_for
    scop = v.scop
    # the private scalars and arrays (NPB MG resid's `private(u1, u2)` rows) the region uses
    scalars = {a.name for a in scop.arrays}
    for first, clauses, line, col, written in scop.team:
        private = [x.strip() for m in _PRIVATE.findall(clauses)
                   for x in m.split(",")]
        private = [x for x in dict.fromkeys(private) if to_model(x) in scalars]
        args = [("stmt", first), ("loop", scop.statements[first].iterators[0])]
        reductions = [f"{op}:{names}" for op, names in CLAUSE.findall(clauses)]
        args += [("reduction", reductions)] if reductions else []
        args += [("private", private)] if private else []
        st = Step("omp_for", tuple(args), 0, scop.filename, line, f"#pragma omp for {clauses}".strip())
        try:
            v = omp_for(v, st)
            if v.scop is not scop and not unsafe:
                deps, scop = D.compute_deps(v.scop), v.scop
            if not unsafe:
                check_legal(v, deps, st)
        except LooptxError as e:
            at = _clause_column(written, col, e.what)
            e.what = f"the loop that '{' '.join(written.split())}' shares out: {e.what}"
            if scop.team_kind == "team":
                e.what = e.what.replace("'omp parallel for'", "'omp for'")
            if isinstance(e, LegalityError):
                sync = _sync_pragma(scop)
                e.hint = (f"'#pragma omp {sync}' inside the region keeps the threads apart there in the code as "
                          "written, and looptx writes the region anew without it: drop the pragma before the "
                          "region and give the loop an omp_for step with a reduction (over an array section, "
                          "for elements the iterations add into), which looptx checks" if sync else
                          "the team's threads race there in the code as written too: fix the pragma, or pass --unsafe")
            e.file, e.line, e.col, e.step, e.step_name = scop.filename, line, at, None, None
            raise e from None
    return v, deps


_SYNC = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+omp[ \t]+((?:atomic|critical|ordered)\b[^\n]*)", re.M)


def _sync_pragma(scop) -> str | None:
    """The first `omp atomic`/`critical`/`ordered` inside the region as written, if any."""
    first, last = scop.region_span
    try:
        with open(scop.filename, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")[max(first - 1, 0):last]
    except OSError:
        return None
    m = _SYNC.search("\n".join(lines))
    return " ".join(m.group(1).split()) if m else None


def team_outermost(v: Variant, deps: D.Deps, unsafe: bool) -> Variant:
    """The team shares out the outermost loop of each nest after the recipe (a tile's control
    loop), as Orio places its pragma; the `omp for` moves there from the loop it named."""
    from looptx.recipe.apply import check_legal
    starts = [s for s, *_ in v.scop.team] + [len(v.scop.statements)]
    for k, (first, _, line, col, _) in enumerate(v.scop.team):
        outer = next((p.loops[0] for p in v.pieces if p.stmt == first and p.loops), None)
        # nests a fuse put under one loop move their pragmas together, as one
        nest = set(range(first, starts[k + 1])) | \
            ({v.pieces[j].stmt for j, _ in S.sharing(v, first, outer.name)} if outer is not None else set())
        texts = {t for p in v.pieces if p.stmt in nest for d in p.loops for t in d.pragmas if PL.is_omp_for(t)}
        if not texts or outer is None or texts <= set(outer.pragmas):
            continue
        merged = _one_pragma(texts)
        pieces = tuple(p if p.stmt not in nest else replace(p, dims=tuple(
            replace(d, pragmas=tuple(t for t in d.pragmas if t not in texts)) if isinstance(d, LoopDim) else d
            for d in p.dims)) for p in v.pieces)
        moved = v.evolve(pieces=pieces)
        for t in ([merged] if merged else sorted(texts)):
            moved = PL.add_pragma(moved, first, outer.name, t)
        try:
            if not unsafe:
                check_legal(moved, deps)
        except LooptxError as e:
            if v.scop.team_kind == "team":
                raise LegalityError(f"the team around the region ({os.path.basename(v.scop.filename)}:{line}) shares "
                                    f"out the outermost loop of the nest, "
                                    f"'{to_user(outer.name)}', after the recipe: {e.what}".replace("'omp parallel for'", "'omp for'"),
                                    hint="keep a loop that carries no dependence outermost (the '#pragma omp for' "
                                         "loop, or a tile loop made from it)",
                                    file=v.scop.filename, line=line, col=col) from None
            # (probe 224 G6: a directive before the nest was told as a team's `omp for`)
            raise LegalityError(f"the '#pragma {merged or sorted(texts)[0]}' before the region "
                                f"({os.path.basename(v.scop.filename)}:{line}) goes to the outermost loop of the nest, "
                                f"'{to_user(outer.name)}', after the recipe: {e.what}",
                                hint="keep a loop that carries no dependence outermost (the pragma's loop, or a tile "
                                     "loop made from it), or take the pragma out of the file and give it as a step "
                                     "(omp_for) on the loop it belongs on",
                                file=v.scop.filename, line=line, col=col) from None
        v = moved
    return v


_PRIVATE = re.compile(r"\bprivate\s*\(([^()]*)\)")


def _clause_column(written: str, col: int, what: str) -> int:
    """The column of the clause of the pragma (as written, starting at `col`) that the error
    names, where it names one; the pragma's own column otherwise."""
    for m in re.finditer(r"\b(reduction|private)\s*\(", written):
        if re.search(rf"\b{m.group(1)}\b", what):
            return col + m.start()
    return col


def _one_pragma(texts: set) -> str | None:
    """The `omp for` texts of fused nests as one: their private lists joined, where the rest
    of them is the same; None where they differ otherwise (two reductions)."""
    if len(texts) == 1:
        return next(iter(texts))
    rests = {" ".join(_PRIVATE.sub("", t).split()) for t in texts}
    if len(rests) != 1:
        return None
    names = list(dict.fromkeys(x.strip() for t in sorted(texts) for m in _PRIVATE.findall(t) for x in m.split(",")
                               if x.strip()))
    return f"{rests.pop()} private({', '.join(names)})" if names else rests.pop()


def as_written(scop, checked: bool) -> Variant:
    """The region with no step.  The pragma of a team around it is the omp_for step it is
    before a recipe: its private scalars and arrays privatized (NPB MG resid's `u1`, `u2`),
    and, where `checked`, refused if it races (a prefix sum under `#pragma omp parallel for`);
    unchecked, it is the user's code as the reference a run compares with."""
    from looptx.errors import LooptxError
    from looptx.poly.variant import original
    from looptx.recipe.apply import apply_recipe
    from looptx.recipe.schema import Recipe
    if not scop.team:
        return original(scop)
    if checked:
        return apply_recipe(scop, Recipe(()))
    try:
        return apply_recipe(scop, Recipe(()), unsafe=True)
    except LooptxError:
        return original(scop)
