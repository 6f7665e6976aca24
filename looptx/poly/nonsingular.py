"""CHiLL's affine loop steps on whole nests: nonsingular (i' = T.i + c) and scale (i' = k.i).

Like skew, they change what a loop counts, not the statements: the schedule maps each instance
to T applied to its current loop values, and isl's code generator writes the strides and guards
a non-unimodular T needs.  Legality is checked by the caller against the dependences.
"""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import islpy as isl

from looptx.errors import RecipeError
from looptx.frontend.names import to_user
from looptx.poly.schedule import (_expr_of_value, _pieces, _value, loop_names, remap_loop, resolve_name, reverse,
                                  sharing)
from looptx.poly.variant import LoopDim, Variant


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _rank(rows: list[list[int]]) -> int:
    m = [[Fraction(x) for x in r] for r in rows]
    rank = 0
    for col in range(len(m[0]) if m else 0):
        pivot = next((r for r in range(rank, len(m)) if m[r][col] != 0), None)
        if pivot is None:
            continue
        m[rank], m[pivot] = m[pivot], m[rank]
        for r in range(rank + 1, len(m)):
            f = m[r][col] / m[rank][col]
            m[r] = [a - f * b for a, b in zip(m[r], m[rank])]
        rank += 1
    return rank


def check_matrix(matrix) -> tuple[list[list[int]], list[int]]:
    """(T, c) of an n x n or n x (n+1) integer matrix; a RecipeError says what is wrong."""
    example = "e.g. [[1, 0], [1, 1]] (skew the inner loop by the outer one)"
    if not (isinstance(matrix, list) and matrix and all(isinstance(r, list) for r in matrix)):
        raise RecipeError(f"nonsingular needs a matrix (a list of rows), got {matrix!r}", hint=example)
    n = len(matrix)
    widths = {len(r) for r in matrix}
    if len(widths) != 1 or widths.pop() not in (n, n + 1):
        raise RecipeError(f"nonsingular: a {n}-row matrix needs {n} columns ({n + 1} with a shift column), "
                          f"got rows of {sorted(len(r) for r in matrix)} entries", hint=example)
    bad = next((x for r in matrix for x in r if not _is_int(x)), None)
    if bad is not None:
        raise RecipeError(f"nonsingular: the matrix entries must be integers, got {bad!r}",
                          hint="a fractional schedule has no integer loops; scale the rows instead")
    T = [list(r[:n]) for r in matrix]
    c = [r[n] if len(r) > n else 0 for r in matrix]
    if _rank(T) < n:
        raise RecipeError(f"nonsingular: the matrix {T} is singular (two new loops would count the "
                          "same combination of the old ones)", hint="use rows that are linearly independent")
    return T, c


def _nest(v: Variant, stmt: int, n: int) -> tuple[list[str], list[tuple[int, list[int]]]]:
    """The outer n loops of `stmt` and, for every piece inside them, their positions."""
    names = loop_names(v, stmt)
    if n > len(names):
        raise RecipeError(f"nonsingular: a {n} x {n} matrix needs {n} loops, statement {stmt} is in "
                          f"{len(names)} ({', '.join(names) or 'none'})",
                          hint="give one row and column per loop, outermost first")
    levels = names[:n]
    inner = {k for k, _ in sharing(v, stmt, levels[-1])}
    outer = {k for k, _ in sharing(v, stmt, levels[0])}
    if outer != inner:
        other = v.pieces[min(outer - inner)].stmt
        # (probe 223 G3: a statement in a sibling loop of the same name was said to be in none)
        own = " (the loop of that name it is in is another one)" if levels[-1] in loop_names(v, other) else ""
        raise RecipeError(f"nonsingular needs a perfect nest: statement {other} shares loop '{levels[0]}' with "
                          f"statement {stmt} but not its loop '{levels[-1]}'{own}",
                          hint=f"distribute loop '{levels[0]}' first, or use fewer levels")
    group = []
    for k in sorted(inner):
        q = v.pieces[k]
        positions = [q.position_of(nm) for nm in levels]
        for pos in positions:
            d = q.dims[pos]
            if d.unroll or d.factor or d.counted or d.hidden:
                raise RecipeError(f"nonsingular: loop '{d.name}' is a tile or unroll loop already",
                                  hint="apply nonsingular before tiling and unrolling (a tile by 1, CHiLL's "
                                       "move of a loop, is a tile too: permute moves loops, or give the "
                                       "move's order as nonsingular's matrix)")
        if positions != [i for i, d in enumerate(q.dims) if isinstance(d, LoopDim)][:n]:
            raise RecipeError(f"nonsingular: the loops {', '.join(levels)} are not the outer loops "
                              f"of statement {q.stmt}", hint="give one row and column per loop, outermost first")
        group.append((k, positions))
    return levels, group


def _new_names(T: list[list[int]], levels: list[str]) -> list[str]:
    """A row that is one old loop (a permutation, reversal or shift) keeps that loop's name; the
    other rows take the names left over, in level order (a skewed loop keeps its own)."""
    names: list[str | None] = [None] * len(T)
    for k, row in enumerate(T):
        nonzero = [j for j, x in enumerate(row) if x]
        if len(nonzero) == 1 and abs(row[nonzero[0]]) == 1 and levels[nonzero[0]] not in names:
            names[k] = levels[nonzero[0]]
    left = [nm for nm in levels if nm not in names]
    return [nm if nm is not None else left.pop(0) for nm in names]


def _term(coef: int, value: str) -> str:
    return f"{coef}*({value})"


def nonsingular(v: Variant, stmt: int, matrix) -> Variant:
    T, c = check_matrix(matrix)
    _pieces(v, stmt)
    levels, group = _nest(v, stmt, len(T))
    names = _new_names(T, levels)
    pieces = list(v.pieces)
    for k, positions in group:
        q = pieces[k]
        # T applies to what the loops count in the schedule, as CHiLL's levels do: a reversed
        # or scaled loop's index as the earlier step made it
        values = [q.dims[pos].expr for pos in positions]
        dims = list(q.dims)
        st = v.scop.statements[q.stmt]
        old = [q.dims[pos] for pos in positions]
        kept = set()
        for row, shift, name, pos in zip(T, c, names, positions):
            expr = " + ".join([_term(x, val) for x, val in zip(row, values) if x] + ([str(shift)] if shift else []))
            # a row that is one old loop keeps its pragmas, as a permute does
            one = [j for j, x in enumerate(row) if x]
            same = one[0] if len(one) == 1 and row[one[0]] == 1 and not shift else None
            kept.add(same)
            # a loop whose index falls as its first iterator rises counts down, printed as a
            # decreasing loop (as reverse prints it) rather than over negated subscripts
            dims[pos] = LoopDim(name, expr, reversed=_leading_sign(v, st, expr) < 0,
                                pragmas=old[same].pragmas if same is not None else ())
        lost = next((d for j, d in enumerate(old) if d.pragmas and j not in kept), None)
        if lost is not None:
            # (probe 224 G9: the pragma was dropped without a word)
            raise RecipeError(f"nonsingular: loop '{to_user(lost.name)}' carries '#pragma {lost.pragmas[0]}', and "
                              "no loop of the new nest is that loop", hint="give the pragma after this step, to "
                              "the new loop it belongs on")
        pieces[k] = replace(q, dims=tuple(dims))
    return v.evolve(pieces=tuple(pieces))


def _leading_sign(v: Variant, st, expr: str) -> int:
    """The sign of `expr`'s coefficient of the first of the statement's iterators it reads."""
    aff = isl.PwAff(f"{v.scop.prefix}{{ [{', '.join(st.iterators)}] -> [({expr})] }}").get_pieces()[0][1]
    for i in range(aff.dim(isl.dim_type.in_)):
        c = aff.get_coefficient_val(isl.dim_type.in_, i).to_python()
        if c:
            return 1 if c > 0 else -1
    return 1


def scale(v: Variant, stmt: int, loop, by: int) -> Variant:
    """CHiLL's scale: the loop counts k times its index (k < 0 also reverses it)."""
    if not _is_int(by) or by == 0:
        raise RecipeError(f"scale factor must be a non-zero integer, got {by!r}")
    name = resolve_name(v, stmt, loop)
    if by < 0:
        v = reverse(v, stmt, name)
    return remap_loop(v, stmt, name, lambda d: replace(d, expr=_expr_of_value(d, _term(abs(by), _value(d)))))
