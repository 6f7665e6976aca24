"""Sizes that a bound or a subscript needs as numbers, modelled at their values.

`j < NX*NY` with both #defined, or `c % K` with K a #define, an enum constant or a size that
--define fixed: the compiler sees a constant, and so do CHiLL and Orio (after the
preprocessor).  The region is modelled at those values; a #define's value is then checked in
the output (`#if K != 3 #error`), since a build may give the file another one."""
from __future__ import annotations


def fix_products(ex, p):
    """p with the #defined sizes of its products at their values (`ex`: the region's
    Extractor); a product with a size that has no value stays non-affine."""
    names = {s for m, _ in p.terms if len(m) > 1 for s in m}
    if not names or any(n not in ex.int_macros or n in ex.iterators() for n in names):
        return p
    values = {n: int(ex.int_macros[n]) for n in names}
    ex.product_names.update(values)
    return p.subs(values)


def fix_divisor(ex, p):
    """A divisor whose names all have values is that number."""
    values, macros = {}, {}
    for n in p.symbols():
        if n in ex.iterators():
            return p
        if n in ex.fixed:
            values[n] = int(ex.fixed[n])
        elif n in ex.constants.enums:
            values[n] = int(ex.constants.enums[n])
        elif n in ex.int_macros:
            values[n] = macros[n] = int(ex.int_macros[n])
        else:
            return p
    ex.divisor_names.update(macros)
    return p.subs(values)
