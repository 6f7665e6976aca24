"""Sizes that a bound or a subscript needs as numbers, modelled at their values.

`j < NX*NY` with both #defined, or `c % K` with K a #define, an enum constant or a size that
--define fixed: the compiler sees a constant, and so do CHiLL and Orio (after the
preprocessor).  The region is modelled at those values; a #define's value is then checked in
the output (`#if K != 3 #error`), since a build may give the file another one."""
from __future__ import annotations


def fix_products(ex, p):
    """p with the #defined sizes of its products at their values (`ex`: the region's
    Extractor); a product with a size that has no value stays non-affine."""
    iterators = ex.iterators()
    # a size times an iterator too (`for (i = ib*BS; ...)` with `#define BS 16`, CoMD's
    # `MAXATOMS*iBox`): the compiler sees a constant stride
    names = {s for m, _ in p.terms if len(m) > 1 for s in m if s not in iterators}
    found = _values(ex, names, {}) if names else None
    if found is None:
        # those with values alone may do: `N_CELL * n` (Parboil lbm's cells of 20 floats) is 20*n
        known = {n for n in names if _values(ex, {n}, {}) is not None}
        found = _values(ex, known, {}) if known else None
        if found is None or p.subs(found[0]).degree() > 1:
            return p
    ex.product_names.update(found[1])
    return p.subs(found[0])


def known_values(ex, names) -> dict:
    """The value of each of `names` that has one (a -D size, an enum constant, a #define), for
    what C computes with them in int (`N * N` of a #define N 46341 overflows)."""
    out = {}
    for n in names:
        found = _values(ex, {n}, ex.fixed)
        if found is not None:
            out.update(found[0])
    return out


def fix_divisor(ex, p):
    """A divisor whose names all have values is that number."""
    if p.symbols() & set(ex.iterators()):
        return p
    found = _values(ex, p.symbols(), ex.fixed)
    if found is None:
        return p
    ex.divisor_names.update(found[1])
    return p.subs(found[0])


def _values(ex, names, fixed) -> tuple[dict, dict] | None:
    """(value of each name, those of them that are #defines), from the fixed sizes, the enum
    constants and the #defines; None when one has none."""
    values, macros = {}, {}
    for n in names:
        if n in fixed:
            values[n] = int(fixed[n])
        elif n in ex.constants.enums:
            values[n] = int(ex.constants.enums[n])
        elif n in ex.int_macros:
            values[n] = macros[n] = int(ex.int_macros[n])
        else:
            return None
    return values, macros
