"""Facts about the parameters a variant holds under: the `known` step's conditions, and the
value of a size fixed where a step needs a number (a local set to a constant, a #define)."""
from __future__ import annotations

import re

from dataclasses import replace

import islpy as isl

from looptx.errors import RecipeError, note_once
from looptx.frontend.names import to_user
from looptx.poly.variant import Variant


def _note_macro_value(scop, macro: str, value: int, what: str) -> None:
    where = scop.where()
    note_once(where["file"], where["line"], f"{what} at {to_user(macro)} = {value}, the #define's value "
              f"(the output checks the build with #if; for another value, change the #define and transform again)")


def with_defines_checked(scop, macros):
    """`scop` whose output checks the #defines `macros` ((name, value)) with #if: a size set
    from them (`int m = N/2;`) is taken at its value."""
    new = tuple(m for m in dict.fromkeys(macros) if m not in scop.baked)
    return replace(scop, baked=scop.baked + new) if new else scop


def _note_local_value(scop, local: str, value: int, macros, what: str) -> None:
    where = scop.where()
    names = ", ".join(f"{to_user(k)} = {x}" for k, x in macros)
    note_once(where["file"], where["line"], f"{what} at {to_user(local)} = {value}, its value from the "
              f"#define{'s' if len(macros) > 1 else ''} {names} (the output checks the build with #if; for another "
              "value, change the #define and transform again)")


def soft_sizes_hint(scop) -> str:
    """The --define a refusal's hint names for the #ifndef defaults that bound the loops: a
    build may change those, so no step takes them at their value (a plain #define it does)."""
    names = [to_user(n) for n in scop.soft_macros
             if any(re.search(rf"(?<!\w){re.escape(n)}(?!\w)", s.domain or "") for s in scop.statements)]
    if not names:
        return ""
    what = f"{names[0]} is an #ifndef default" if len(names) == 1 else f"{', '.join(names)} are #ifndef defaults"
    return f"; {what}, which a build may change: {' '.join(f'--define {n}=VALUE' for n in names)}"


def at_macro_value(v: Variant, works, error: Exception, what: str) -> Variant:
    """`v` with one size fixed to its value where `works(v)` succeeds then, or `error` raised
    when there is none.  A local the function sets to a constant (`const int K = 3;`) has that
    value at the region; a #defined size has its file's value, which the output checks (#if).
    Where `works` returns a number (the trip count it reached), the size giving the smallest
    wins: the loop `s < S` of a conv whose guard `iw < W` also bounds it is unrolled at S = 3,
    not at the image width W = 13 (13 guarded copies); otherwise the first that works."""
    best = None
    behind = dict(v.scop.local_macros)
    candidates = [(k, x, False) for k, x in v.scop.local_values] + [(k, x, True) for k, x in v.scop.macro_values]
    for k, x, macro in candidates:
        fixed = v.evolve(assumptions=v.assumptions + (f"{k} = {x}",),
                         scop=replace(v.scop, baked=v.scop.baked + ((k, x),)) if macro else
                         with_defines_checked(v.scop, behind.get(k, ())))
        try:
            score = works(fixed)
        except RecipeError:
            continue
        # (a copy step's works gives its plans, no number: the first that works wins)
        score = score if isinstance(score, (int, float)) and not isinstance(score, bool) else None
        if best is None or score is not None and (best[0] is None or score < best[0]):
            best = (score, k, x, macro, fixed)
        if score is None:
            break
    if best is not None:
        _, k, x, macro, fixed = best
        if macro:
            _note_macro_value(v.scop, k, x, what)
        elif k in behind:
            _note_local_value(v.scop, k, x, behind[k], what)
        return fixed
    if len(v.scop.local_values) + len(v.scop.macro_values) > 1:
        # several at once: a copy's footprint over a 4-D slice of #defined extents (NWChem's t2)
        fixed = v.evolve(assumptions=v.assumptions + tuple(f"{k} = {x}" for k, x in v.scop.local_values)
                         + tuple(f"{k} = {x}" for k, x in v.scop.macro_values),
                         scop=with_defines_checked(replace(v.scop, baked=v.scop.baked + tuple(v.scop.macro_values)),
                                                   [m for _, ms in v.scop.local_macros for m in ms]))
        try:
            works(fixed)
        except RecipeError:
            raise error from None
        new = [(k, x) for k, x in v.scop.macro_values if (k, x) not in v.scop.baked]
        if new:
            where = v.scop.where()
            note_once(where["file"], where["line"], f"{what} at {', '.join(f'{to_user(k)} = {x}' for k, x in new)}, "
                      f"the #defines' values (the output checks the build with #if; for others, change the #defines and transform "
                      "again)")
        return fixed
    raise error


def known(v: Variant, facts: list[str]) -> Variant:
    for f in facts:
        try:
            v.scop.params_where([f])
        except isl.Error:
            raise RecipeError(f"known: cannot read the fact '{f}'",
                              hint="facts are conditions on parameters, e.g. N >= 16") from None
    out = v.evolve(assumptions=v.assumptions + tuple(facts))
    macros = dict(v.scop.macro_values)
    if macros and not out.context.is_empty():
        # a #defined size is symbolic in the model but has one value in every build
        values = v.scop.params_where(f"{k} = {x}" for k, x in macros.items())
        if out.context.intersect_params(values).is_empty():
            shown = ", ".join(f"{k}={x}" for k, x in sorted(macros.items()))
            raise RecipeError(f"known: the facts {list(facts)} cannot hold with the #defined "
                              f"sizes ({shown})", hint="drop the fact or change the #define")
    if out.context.is_empty():
        # A false fact would make every domain empty: the region would silently vanish.
        fixed = ", ".join(f"{k}={val}" for k, val in sorted(dict(v.scop.fixed).items()))
        raise RecipeError(f"known: the facts {list(facts)} cannot hold"
                          + (f" with the fixed sizes ({fixed})" if fixed else "") +
                          " together with what is already known",
                          hint="drop the fact or choose sizes that satisfy it")
    return out
