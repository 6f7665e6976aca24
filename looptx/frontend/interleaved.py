"""Interleaved layouts: `z[2*(i*m + j) + 1]`, the imaginary part of complex element (i, j).

Split by its size monomials alone, the subscript is row i, index 2*j + 1 within rows of m
elements, which leaves its row.  The user means rows of m groups of c = 2 elements: the access
z[i][j][1] of a [*][m][2] array.  The group length is the greatest common divisor of every
coefficient but the innermost constant, so that each reference is c times a row-major index
plus an element index k in [0, c) (a k of c or more is the next group's: `2*(i*m + j) + 2` is
z[i][j + 1][0]).  The flat index is the same digits in the mixed radix (..., m, c), so the model
is exact under the same condition as any linearized subscript: the group index stays in its row
(0 <= j < m), which linearized.settle checks, assumes or refuses exactly as for rows of
elements.  The element index needs no check: it is a constant in [0, c) by construction.
"""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from math import gcd

from looptx.frontend.affine import Poly


def is_group(extent: str) -> bool:
    """An extent that is a group length (a constant), not a size."""
    return extent.isdigit()


def size_poly(extent: str) -> Poly:
    return Poly.const(int(extent)) if is_group(extent) else Poly.sym(extent)


def interleaved(rows):
    """`rows` (a linearized.Rows) with each element split into its group of c elements and the
    element within it; None where no c >= 2 divides the subscripts so."""
    if rows.extents and is_group(rows.extents[-1]):
        return None
    c = 0
    for parts in rows.parts:
        for d, part in enumerate(parts):
            for m, coef in part.terms:
                if m == () and d == len(parts) - 1:
                    continue
                if coef.denominator != 1:
                    return None
                c = gcd(c, abs(int(coef)))
    if c < 2:
        return None
    new_parts = []
    for parts in rows.parts:
        last = parts[-1]
        k = last.as_dict().get((), Fraction(0))
        if k.denominator != 1:
            return None
        k = int(k)
        # Python's floor division keeps the element in [0, c) for a negative offset too
        group = (last - Poly.const(k)) * Poly.const(Fraction(1, c)) + Poly.const(k // c)
        scaled = [p * Poly.const(Fraction(1, c)) for p in parts[:-1]]
        new_parts.append(tuple(scaled + [group, Poly.const(k % c)]))
    return replace(rows, extents=rows.extents + (str(c),), parts=tuple(new_parts))
