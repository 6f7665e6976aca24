"""Linearized subscripts of 1-D arrays (`img[y*w + x]`): the multi-dimensional access each is.

A subscript over one chain of size products (1 | w | h*w) is split into one affine part per
dimension (affine.delinearize).  The model is right only if every part but the first stays
within its row for every instance: the parts are then the digits of the flat index in the
mixed radix of the row lengths, the same whichever reference computes them, and the dependence
analysis sees exactly C's aliasing.  The grouping by size monomial is one split among several:
`y*w + w - 1` groups as row y + 1, index -1, where row y, index w - 1 is the one that stays in
its row, so a failed check tries moving one row between two dimensions.  A row length that is
a plain parameter may have to be >= 1 for a part to stay in its row (`img[y*w]`, whose row of 0
elements has no element 0); the region is then modelled for that, and says so.  A #defined
row length for which alone the check holds is used at its value (baked, as a size that makes a
subscript affine).  A subscript that leaves its row in every split is modelled flat when every
size has a value, and refused otherwise.  A subscript that is a constant multiple of a
row-major index plus an element offset (an interleaved complex layout) is split first as rows
of groups of elements (frontend/interleaved.py), and as rows of elements where that fails.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from looptx import ir
from looptx.errors import SourceError
from looptx.frontend.affine import NonAffine, Poly, delinearize
from looptx.frontend.interleaved import interleaved, is_group, size_poly
from looptx.frontend.symbols import c_text, chain_operands
from pycparser import c_ast
from looptx.frontend.names import to_user
from looptx.poly.row_facts import row_cover_fact, row_floor_fact
from looptx.poly.obligations import check_obligations, runs_somewhere

_NOT_AFFINE = "subscripts must be affine in loop iterators and parameters (or fix the sizes with --define)"


def _not_affine_hint(p, iterators) -> str:
    """The hint, without --define where a product of loop iterators alone (`a[i*i]`) makes the
    subscript non-affine: no size's value makes it affine (probe 227 G4)."""
    if any(len(m) > 1 and all(x in iterators for x in m) for m, _ in p.terms):
        return ("subscripts must be affine in loop iterators and parameters: a product of loop "
                "iterators is not; leave this loop out of the region")
    return _NOT_AFFINE


@dataclass(frozen=True)
class Rows:
    """An array read through linearized subscripts, as rows: the split of each reference
    before the checks."""
    name: str
    ctype: str
    extents: tuple[str, ...]    # the row length of each dimension after the first
    uses: tuple                 # (RawStmt, RawAccess) of each reference
    parts: tuple                # per reference, one Poly per dimension
    flat: bool                  # every size has a value: the array may be modelled flat instead

    @property
    def rank(self) -> int:
        return len(self.extents) + 1


@dataclass(frozen=True)
class Settled:
    texts: dict                 # ref -> index texts, for every reference of the settled arrays
    flat: frozenset             # arrays modelled flat after all (rank 1, no strides)
    baked: frozenset            # #defined sizes used at their value by the arrays modelled flat
    rows_baked: frozenset       # #defined row lengths used at their value, the only one they stay in
    facts: tuple                # (row length, fact on the parameters) the model assumes so that
                                # the subscripts stay in their rows: `w >= 1`, `lda >= k`
    shapes: dict                # array -> row lengths, of the arrays split into rows of groups
                                # of elements (frontend/interleaved): ('m', '2') for z[i][j][k]
    relying: frozenset = frozenset()    # arrays that stay in their rows only under `facts` of
                                        # another array's rows (the note names them too)

    def shaped(self, arrays) -> list:
        """The Arrays with the rank and row lengths of their settled model."""
        return [replace(a, strides=None, rank=1) if a.name in self.flat else
                replace(a, strides=self.shapes[a.name], rank=len(self.shapes[a.name]) + 1)
                if a.name in self.shapes else a for a in arrays]


def plan_rows(name: str, ctype: str, uses: list, ex, known: dict, fixed: dict | None = None,
              products: dict | None = None) -> Rows | None:
    """The rows of a linearized array; None when it is to be modelled flat (no chain of size
    products, and every size has a value).  Raises when it can be neither.  `fixed`: the
    sizes --define gives; where the rows cannot be read with them symbolic (a stride `s` in
    `W*(i*s + ...)`), they are read again at those values.  `products`: size locals that are
    products of sizes (ISO-3DFD's `dimn1n2 = n1*n2`), read as those products where the chain
    of strides needs it (1 | n1 | dimn1n2 is no chain; 1 | n1 | n1*n2 is)."""
    flat = all(p.subs(known).degree() <= 1 for _, acc in uses for p in acc.subs)
    polys = [acc.subs[0] for _, acc in uses]
    strides, parts = _rows_of(uses, polys)
    failure, extents = _extents(name, strides)
    present = {x for p in polys for x in p.symbols()} & set(products or {})
    if failure is not None and present:
        expanded = [p.expand({x: products[x] for x in present}) for p in polys]
        strides_x, parts_x = _rows_of(uses, expanded)
        if _extents(name, strides_x)[0] is None:
            polys, strides, parts = expanded, strides_x, parts_x
            failure, extents = _extents(name, strides)
    used = {x for p in polys for x in p.symbols()} & set(fixed or {})
    if failure is not None and used and not flat:
        # a row length that is a product of sizes --define fixes (`h*stride`) is a number then
        strides, parts = _rows_of(uses, [p.subs({x: fixed[x] for x in used}) for p in polys])
        failure, extents = _extents(name, strides)
    if failure is not None and not flat:
        # a row a parameter selects (`zbuf[y*width + x]`, a span of one image row): the size
        # written first in the product is the row's index, the other its length, as C
        # programmers write `row*stride + col`; the rows' check, made at run time, stands
        # guard over a wrong guess
        picked = _row_parameters(uses, polys)
        if picked:
            strides_p, parts_p = _rows_of(uses, polys, picked)
            if strides_p is not None and _extents(name, strides_p)[0] is None:
                strides, parts = strides_p, parts_p
                failure, extents = _extents(name, strides)
    if failure is not None:
        if flat:
            return None
        raise ex.error(_culprit(uses, polys), *failure)
    return Rows(name, ctype, tuple(extents), tuple(uses), tuple(tuple(p) for p in parts), flat)


def _culprit(uses: list, polys: list):
    """The reference without which the others split into rows (PolyBench/GPU correlation's
    `symmat[M*(M+1) + M]` beside `symmat[j1*(M+1) + j1]`), else the first."""
    def splits(ks) -> bool:
        strides, _ = _rows_of([uses[k] for k in ks], [polys[k] for k in ks])
        return strides is not None and _extents("", strides)[0] is None
    everyone = range(len(uses))
    blamed = [k for k in everyone if len(uses) > 1 and splits([j for j in everyone if j != k])]

    def sizes_only(k) -> bool:           # a product of sizes with no iterator: the corner's M*(M+1)
        its = uses[k][0].iterators
        return any(len(m) > 1 and not any(x in its for x in m) for m, _ in polys[k].terms)
    blamed = [k for k in blamed if sizes_only(k)] or blamed
    if len(blamed) == 1 or blamed and len(blamed) < len(uses):
        return uses[blamed[0]][1].ref_node
    return uses[0][1].ref_node


def _extents(name: str, strides) -> tuple:
    """(None, the row length of each dimension after the first) of a chain of strides, or
    (the error's what and hint, None)."""
    if strides is None:
        return (f"non-affine subscript of '{name}' (cannot delinearize)",
                "use multi-dimensional arrays or fix the sizes with --define"), None
    extents = []
    for hi_m, lo_m in zip(strides, strides[1:]):
        rest = list(hi_m)
        for s_ in lo_m:
            rest.remove(s_)
        if len(rest) != 1:
            return (f"non-affine subscript of '{name}': stride {'*'.join(rest)} is a product of sizes",
                    "fix the sizes with --define"), None
        extents.append(rest[0])
    return None, extents


def _row_parameters(uses: list, polys: list) -> frozenset:
    """The parameters that select a row in `index*length + ...` products of sizes only: the
    left operand of the `*` as written, where it multiplies no loop iterator anywhere."""
    multiplying = {x for (st, _), p in zip(uses, polys) for m, _ in p.terms if any(y in st.iterators for y in m)
                   for x in m}
    out = set()
    for (st, acc), p in zip(uses, polys):
        products = [m for m, _ in p.terms if len(m) == 2 and not any(x in st.iterators for x in m)]
        text = c_text(acc.nodes[0]) if acc.nodes else ""
        for m in products:
            for left, right in (m, m[::-1]):
                if left not in multiplying and re.search(rf"\b{re.escape(to_user(left))}\s*\*\s*\(?\s*"
                                                         rf"{re.escape(to_user(right))}\b", text):
                    out.add(left)
                    break
    return frozenset(out)


def _rows_of(uses: list, polys: list, indexes: frozenset = frozenset()):
    """(strides, parts) of the subscripts `polys` of `uses`, or (None, None).  `indexes`:
    parameters read as row indexes, as iterators are (_row_parameters)."""
    chain_syms, row_syms = set(), set()
    for (st, _), p in zip(uses, polys):
        chain_syms |= {s for s in p.symbols() if s not in st.iterators and not s.startswith("__a") and s not in indexes}
        for m, _ in p.terms:
            if any(x in st.iterators for x in m):
                row_syms |= {x for x in m if x not in st.iterators and not x.startswith("__a")}
    strides, parts = None, None
    if row_syms and row_syms != chain_syms:
        # the sizes that multiply iterators are the row lengths; another size is an offset
        # in its digit, as in a halo of width H: (i + H)*(nx + 2*H) + j + H
        strides, parts = delinearize(polys, lambda s: s not in row_syms)
        if strides is not None and any(p.degree() > 1 for ps in parts for p in ps):
            strides, parts = None, None           # an offset that is itself a product of sizes
    if strides is None:
        strides, parts = delinearize(polys, lambda s: s not in chain_syms)
    return strides, parts


def flat_indexes(name: str, uses: list, fixed_vals: dict, known: dict, ex) -> tuple[dict, set]:
    """(ref -> index texts, #defined sizes used at their value) of an array modelled as declared."""
    texts, baked = {}, set()
    for st, acc in uses:
        out = []
        for p, node in zip(acc.subs, acc.nodes):
            try:
                q = p.subs(fixed_vals)
                if q.degree() > 1:
                    # the model is then exact only at the values the file #defines: it says
                    # so, or a subscript such as j*NX + i would alias rows for other NX and
                    # refuse legal orders without a witness
                    baked |= {x for x in p.symbols() if x in known and x not in fixed_vals}
                    q = p.subs(known)
                out.append(st.translator.isl_of(q, node))
            except NonAffine:
                raise ex.error(acc.ref_node, f"non-affine subscript of '{name}'",
                               _not_affine_hint(p, st.iterators)) from None
        texts[acc.ref] = tuple(out)
    return texts, baked


def split_texts(rows: Rows, k: int, shifts, fixed_vals: dict, ex) -> list[str]:
    """isl texts of reference k's parts, shifts[d] rows moved from dimension d into d + 1."""
    st, acc = rows.uses[k]
    parts = list(rows.parts[k])
    for d, t in enumerate(shifts):
        if t:
            parts[d] = parts[d] - Poly.const(t)
            parts[d + 1] = parts[d + 1] + Poly.const(t) * size_poly(rows.extents[d])
    out = []
    for part in parts:
        try:
            out.append(st.translator.isl_of(part.subs(fixed_vals), acc.nodes[0]))
        except NonAffine:
            raise ex.error(acc.ref_node, f"non-affine subscript of '{rows.name}'",
                           _not_affine_hint(part, st.iterators)) from None
    return out


def settle(scop, all_rows: list[Rows], ex, fixed_vals: dict, flat_of) -> Settled:
    """Choose each reference's split on the provisional `scop` (whose statement domains are
    final).  `flat_of(rows)` gives the flat model's (texts, baked) of an array."""
    checked: dict = {}

    def under(extra: tuple):
        if extra not in checked:
            checked[extra] = replace(scop, assumptions=scop.assumptions + extra, _cache={})
        return checked[extra]

    def holds(sid: int, cond: str, extra: tuple) -> bool:
        try:
            check_obligations(under(extra), [(sid, cond, 0, 0, "")])
        except SourceError:
            return False
        return True

    def split(rows: Rows, committed_assumed, committed_baked, origin: int = 0):
        """(texts, rows baked, facts assumed, None) of the references' splits, or (.., (k, d))
        where reference k leaves its row in dimension d + 1 for every split tried.  `origin`:
        where each row's in-row index starts (1 for f2c's 1-based columns)."""
        mine_texts, mine_baked, mine_assumed, relies = {}, set(), set(), False
        for k, (st, acc) in enumerate(rows.uses):
            if any(s.startswith(ir.GATHERED) for p in rows.parts[k] for s in p.symbols()):
                # a read through an index array (srad's `J[iN[i]*cols + j]`): any element,
                # in every dimension; no row to stay in
                mine_texts[acc.ref] = tuple(f"{ir.GATHERED}{acc.ref}_{d}" for d in range(rows.rank))
                continue
            shifts = [0] * (rows.rank - 1)
            for d in reversed(range(rows.rank - 1)):
                row = rows.extents[d]
                if is_group(row):
                    continue            # the element within its group: in [0, c) by construction
                committed = tuple(sorted(f for _, f in committed_assumed | mine_assumed)) + \
                    tuple(sorted(f"{r} = {ex.int_macros[r]}" for r in committed_baked | mine_baked))
                levels = [((), None)]
                if row not in fixed_vals and row not in ex.int_macros:
                    levels.append(((f"{row} >= 1",), "assume"))
                elif row not in fixed_vals:
                    levels.append(((f"{row} = {ex.int_macros[row]}",), "bake"))
                found = False
                far = _constant_shift(rows, k, d, shifts, fixed_vals, ex, under(committed))
                for extra, how in levels:
                    for t in (0, 1, -1) + far:
                        shifts[d] = t
                        part = split_texts(rows, k, shifts, fixed_vals, ex)[d + 1]
                        if holds(st.id, in_row(acc, part, row, origin), committed + extra):
                            found = True
                            # (only under an earlier array's fact: the note names this one too)
                            relies = relies or bool(committed_assumed) and not extra and not holds(
                                st.id, in_row(acc, part, row, origin),
                                tuple(f for f in committed if f not in {g for _, g in committed_assumed}))
                            break
                    if found:
                        if how == "assume":
                            mine_assumed.add((row, f"{row} >= 1"))
                        elif how == "bake":
                            mine_baked.add(row)
                        break
                if not found and row not in fixed_vals and row not in ex.int_macros:
                    # a row length that is a plain parameter, long enough for the in-row index
                    # (the leading dimension of a BLAS matrix, `lda >= k`)
                    # or an in-row index that starts at a size (a halo's `j` from `h`)
                    shifts[d] = 0
                    part = split_texts(rows, k, shifts, fixed_vals, ex)[d + 1]
                    at = f"({part}) - {origin}" if origin else part
                    facts = [f for f in (row_cover_fact(under(committed), st.id, at, row),
                                         row_floor_fact(under(committed), st.id, at, row)) if f]
                    for extra in [(f,) for f in facts] + ([tuple(facts)] if len(facts) == 2 else []):
                        if holds(st.id, in_row(acc, part, row, origin), committed + extra):
                            found = True
                            mine_assumed.update((row, f) for f in extra)
                            break
                    dead = None if found else row_cover_fact(under(committed), st.id, at, row, dead=True)
                    if dead and under(committed + (dead,)).domain(scop.statements[st.id]).is_empty() \
                            and runs_somewhere(under(committed), [dead]):
                        # a statement that runs only where the fact fails (the `else` of looptx's
                        # own output, the region as written) is left to the output's fallback
                        found = True
                        mine_assumed.add((row, dead))
                if not found:
                    return mine_texts, mine_baked, mine_assumed, (k, d), relies
            mine_texts[acc.ref] = tuple(split_texts(rows, k, shifts, fixed_vals, ex))
        return mine_texts, mine_baked, mine_assumed, None, relies

    texts, flat, baked, rows_baked = {}, set(), set(), set()
    shapes = {}
    assumed: set[tuple[str, str]] = set()       # (row length, fact) the model assumes
    relying: set[str] = set()                   # arrays in their rows only under those facts
    for rows in all_rows:
        # rows of groups of elements first (an interleaved complex layout): the layout the
        # subscripts spell, and one that needs less of the sizes (`z[2*(i*ld + j) + 1]`
        # stays in rows of ld groups for ld >= m, in rows of ld elements only for ld >= 2*m)
        groups = interleaved(rows)
        found = split(groups, assumed, rows_baked) if groups is not None else None
        if found is not None and found[3] is None:
            rows, (mine_texts, mine_baked, mine_assumed, failed, relies) = groups, found
            shapes[rows.name] = rows.extents
        else:
            mine_texts, mine_baked, mine_assumed, failed, relies = split(rows, assumed, rows_baked)
            if failed or mine_assumed:
                # rows whose in-row index runs from 1 (f2c's `c__[i__ + j*c_dim1]`, i__ = 1..m)
                # need only ldc >= m, where rows from 0 need ldc > m
                one = split(rows, assumed, rows_baked, origin=1)
                if one[3] is None and (failed or _weaker(scop, {f for _, f in one[2]}, {f for _, f in mine_assumed})):
                    mine_texts, mine_baked, mine_assumed, failed, relies = one
            if failed and found is not None and not rows.flat:
                rows, failed = groups, found[3]     # the error names the grouped view
        if failed is None:
            texts.update(mine_texts)
            rows_baked |= mine_baked
            assumed |= mine_assumed
            if relies:
                relying.add(rows.name)
        elif rows.flat:
            flat_texts, flat_baked = flat_of(rows)
            texts.update(flat_texts)
            baked |= flat_baked
            flat.add(rows.name)
        else:
            raise _leaves_row(rows, *failed, fixed_vals, ex)
    return Settled(texts, frozenset(flat), frozenset(baked), frozenset(rows_baked),
                   tuple(sorted(assumed)), shapes, frozenset(relying))


def _constant_shift(rows: Rows, k: int, d: int, shifts, fixed_vals: dict, ex, scop) -> tuple[int, ...]:
    """The shift that puts a constant in-row index of a constant row length in its row:
    PolyBench/GPU correlation's `symmat[M*(M+1) + M]` at M = 8 is row 8, index 8 of rows of 9."""
    trial = list(shifts)
    trial[d] = 0
    try:
        c = int(split_texts(rows, k, trial, fixed_vals, ex)[d + 1])
    except (ValueError, SourceError):
        return ()
    row = rows.extents[d]
    # a row length read through a name (`lx_row` for `M + 1`) has a value only in the model
    length = scop.param_constant(row) if row in scop.params else \
        size_poly(row).subs({**ex.int_macros, **fixed_vals}).constant()
    if length is None or length <= 0 or length.denominator != 1:
        return ()
    t = -(c // int(length))
    return () if t in (0, 1, -1) else (t,)


def _weaker(scop, facts: set, than: set) -> bool:
    """Whether `facts` allow every size that `than` allows, and more."""
    mine, other = scop.params_where(sorted(facts)), scop.params_where(sorted(than))
    return other.is_subset(mine) and not mine.is_subset(other)


def in_row(acc, part: str, row: str, origin: int = 0) -> str:
    """The in-row index stays in its row wherever C evaluates the reference: a read in a `?:`
    branch only where the branch runs (a padded window's `valid ? src[...] : 0`).  The model's
    reference outside the branch is a phantom that can only add dependences."""
    cond = f"0 <= {part} < {row}" if not origin else f"{origin} <= {part} < {row} + {origin}"
    return f"({acc.guard}) implies ({cond})" if acc.guard else cond


def _leaves_row(rows: Rows, k: int, d: int, fixed_vals: dict, ex) -> SourceError:
    st, acc = rows.uses[k]
    part = split_texts(rows, k, [0] * (rows.rank - 1), fixed_vals, ex)[d + 1]
    row = rows.extents[d]
    if d + 1 < len(rows.extents) and is_group(rows.extents[d + 1]):
        row = f"{row} groups of {rows.extents[d + 1]}"
    dims = "".join(f"[{e}]" for e in rows.extents)
    view = f"{rows.name}_v"
    # miniAMR's `send_buff[49 + ((v*x + i)*y + j)*z + k]`: the view starts at the offset that
    # every reference adds
    starts = {_added_constant(a.nodes[0]) for _, a in rows.uses}
    start = starts.pop() if len(starts) == 1 else None
    base = f"({rows.name} + {start})" if start else rows.name
    hint = (f"write the access through a multi-dimensional view in which it stays in its row "
            f"({rows.ctype} (*{view}){dims} = ({rows.ctype} (*){dims}){base}; then "
            f"{view}[..]{'[..]' * (rows.rank - 1)}), or fix the sizes with --define to model it flat")
    # (`__a<k>` atoms stand for a `c % ksize` or `c / ksize` of the subscript: no size to give)
    sizes = sorted({x for p in acc.subs for x in p.symbols() if not x.startswith("__a")} - set(st.iterators))
    given = [x for x in sizes if x in fixed_vals]
    rest = [x for x in sizes if x not in fixed_vals and x not in ex.int_macros]
    if given and rest:
        # the sizes --define fixed merge into the rows of the others (NWChem's t3 at -D h1u=4
        # -D h2u=4): the rows read from the others are no view of the array
        hint = (f"--define fixes {', '.join(map(to_user, given))} but not {', '.join(map(to_user, rest))}: "
                f"fix those too ({' '.join(f'--define {to_user(x)}=VALUE' for x in rest)}) to model "
                f"'{rows.name}' flat, or write the access through a view with a dimension per size")
    return ex.error(acc.nodes[0],
                    f"non-affine: linearized subscript of '{rows.name}' leaves its row: in "
                    f"{rows.name}[{_spelled(ex, acc.nodes[0])}] the index {part} within rows of {row} "
                    f"elements is not always in [0, {rows.extents[d]})", hint)


def _added_constant(sub) -> str | None:
    """The constant a subscript adds at its top level (`49` of `49 + (v*x + i)*y`), or None."""
    return next((c_text(x) for x in chain_operands(sub, "+") if isinstance(x, c_ast.Constant)), None)


def _spelled(ex, node) -> str:
    """The subscript as the user's line writes it (up to its closing bracket), else as C."""
    line, col = ex.where(node)
    text = ex.line_text(line) if ex.line_text and line else ""
    depth = 0
    for k in range(col - 1, len(text)):
        depth += {"[": 1, "(": 1, "]": -1, ")": -1}.get(text[k], 0)
        if depth < 0:
            spelled = " ".join(text[col - 1:k].split())
            return spelled if text[k] == "]" and col >= 2 and text[col - 2] == "[" else c_text(node)
    return c_text(node)
