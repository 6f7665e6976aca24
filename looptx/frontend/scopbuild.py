"""Extracted statements of one region -> its Scop: each array's (virtual) rank and subscripts
(delinearized where the rows allow), what C says about the sizes, and the #defined sizes the
model takes at their values (baked), which the output then checks."""
from __future__ import annotations

import re
from pathlib import Path
from dataclasses import replace

from looptx.errors import SourceError, note_once
from looptx.frontend.extract import Extractor
from looptx.frontend.raw_stmt import RawStmt
from looptx.frontend.fallback import as_c, checked_row_facts, note_row_facts
from looptx.frontend.affine import Poly
from looptx.frontend.linearized import flat_indexes, plan_rows, settle, split_texts
from looptx.frontend.names import to_user
from looptx.frontend.regions import Region
from looptx.frontend.int_ranges import int_type
from looptx.frontend.int_types import wide_macro
from looptx.frontend.symbols import (UNSIGNED_WORDS, WIDE_WORDS, Symbol, arithmetic_type, has_type_word, narrow_range,
                                     iterator_types, resolve_typedef, volatile_elements)
from looptx.poly.facts import without_implied
from looptx.poly.wrap_checks import wrap_facts
from looptx.poly.obligations import check_obligations, obligations_hold, size_facts
from looptx.poly.scop import Access, Array, Scop, Statement, unbounded_loop


def build_scop(path, region: Region, raw: list[RawStmt], ex: Extractor, symbols: dict,
                defines: dict, assumptions, span, function, derived=(), overridable=frozenset(),
                after=None, row_obligations=()) -> Scop:
    """`row_obligations`: (named row length, condition on the sizes) where the model's length
    is C's (frontend/rowlength), owed by each statement that reads the name."""
    params = tuple(ex.params)
    fixed = tuple((p, int(defines[p])) for p in params if p in defines)
    fixed_names = {p for p, _ in fixed}

    def sym_of(name) -> Symbol:
        return ex.local.get(name) or symbols.get(name)

    for p, v in fixed:
        _check_fits(p, v, sym_of(p), symbols, path, span[0])
    for p in params:
        sym = sym_of(p)
        if sym is not None and sym.kind == "var" and volatile_elements(sym):
            raise SourceError(f"'{to_user(p)}' is volatile: its value may change between the region's reads "
                              "of it, which looptx reads as one size or value", file=path, line=sym.line or span[0] or 1,
                              hint=f"read it into a local before the region (`int {to_user(p)}_now = {to_user(p)};`)")

    # arrays: decide each one's (virtual) rank, delinearizing linearized 1-D subscripts
    by_array: dict[str, list] = {}
    for st in raw:
        for acc in st.accesses:
            by_array.setdefault(acc.array, []).append((st, acc))
    index_text: dict[int, tuple[str, ...]] = {}
    baked: set[str] = set()            # #defined sizes whose values made a subscript affine
    arrays = []
    all_rows = []
    fixed_vals = dict(fixed)
    # with the sizes fixed or #defined, `i*lx*ly` is affine (100*i): a linearized subscript
    # that cannot be delinearized is still modelled, flat, when every size in it has a value
    known = {**{k: v for k, v in ex.int_macros.items() if k in params},
             # an enum constant has its value in any build (libCEED's `enum { NCOMP = 3 }`)
             **{k: v for k, v in ex.constants.enums.items() if k in params and isinstance(v, int)}, **fixed_vals}
    for name, uses in by_array.items():
        sym = sym_of(name)
        kinds = {acc.kind for _, acc in uses}
        after_use = (after or {}).get(name, "")
        local = name in ex.local and not after_use
        role = "temp" if local else ("inout" if kinds == {"read", "write"} else
                                     "out" if kinds == {"write"} else "in")
        rows = None
        if len(sym.dims) == 1 and any(p.degree() > 1 for _, acc in uses for p in acc.subs):
            rows = plan_rows(name, resolve_typedef(sym.ctype, symbols.get), uses, ex, known, fixed_vals,
                             _size_products(derived, params))
        if rows is not None:
            all_rows.append(rows)
            for k, (st, acc) in enumerate(uses):
                index_text[acc.ref] = tuple(split_texts(rows, k, [0] * (rows.rank - 1), fixed_vals, ex))
        else:
            texts, flat_baked = flat_indexes(name, uses, fixed_vals, known, ex)
            index_text.update(texts)
            baked |= flat_baked
        decl = sym.decl_text + ";" if (local or after_use) and sym.decl_text else ""
        spelled_decl = sym.spelled_decl + ";" if (local or after_use) and sym.spelled_decl else ""
        ctype = resolve_typedef(sym.ctype, symbols.get)
        # a typedef name is the user's spelling too (`real`, chosen by #ifdef like DATA_TYPE)
        spelled_ctype = sym.spelled_ctype or (sym.ctype if ctype != sym.ctype else "")
        arrays.append(Array(name, ctype, sym.dims, role, local,
                            rows.extents if rows else None, rows.rank if rows else len(sym.dims), decl,
                            ex.private_depth.get(name, 0) if local else 0, spelled_ctype, spelled_decl,
                            wide_index=name in ex.wide_index, volatile=volatile_elements(sym),
                            **({"live_out": after_use, "declared_in_region": True} if after_use else {})))
    obligations = [(st.id, *ob) for st in raw for ob in st.obligations]
    owed = [(st.id, c, st.line, st.col, "'/' of a possibly negative value (C rounds toward zero)", None)
            for st in raw for n, c in row_obligations if any(n in p.symbols() for acc in st.accesses for p in acc.subs)]
    # What C itself says about a parameter, and no more: an array extent is >= 1 (a zero or
    # negative extent is not C), and so is a #defined size unless the file defines it
    # otherwise (`#define zDim 0`).  A bound or offset (`lo`, `n` of a loop over a pointer)
    # may be 0 or negative: assuming otherwise would drop the code for that case (an
    # `if (i == 0)` at i = lo).  A size whose value made a subscript affine has that value.
    # (a parameter's extent, `double b[n]`, is no object's size: C adjusts it to a pointer, and a
    # call with n = 0 reads nothing of b, probe 206 G1; a local `double b[n]` is)
    extents = {d.strip() for a in arrays if a.decl or a.local for d in a.dims}
    # a local that sizes only an extent (`int ny = m + 4; float (*u)[ny]`) takes its value from
    # the sizes too
    extent_names = {w for a in arrays for d in a.dims for w in re.findall(r"[A-Za-z_]\w*", d)}
    # a name whose value a loop step took: a #define is used at the file's value (baked, and
    # checked by the output); a const or an enum constant has no other
    steps = {n: s for n, s in ex.step_names.items() if n not in fixed_names}
    step_baked = {n for n, s in steps.items() if s.macro}
    product_baked = {n for n in ex.product_names if n not in fixed_names}
    divisor_baked = {n for n in ex.divisor_names if n not in fixed_names} - product_baked
    step_baked |= product_baked | divisor_baked
    # an enum constant's value is fixed by the file itself (no build can change it)
    enums = {p: ex.constants.enums[p] for p in params if p in ex.constants.enums and sym_of(p) is None}
    derived = tuple(derived) + tuple((p, str(v)) for p, v in enums.items())

    def default(p, baked):
        if p in enums:
            return f"{p} = {enums[p]}"
        if p in baked:
            return f"{p} = {ex.int_macros[p]}"
        if p in steps:
            return f"{p} = {steps[p].value}"
        if p in ex.int_macros:
            # an #ifndef default that bounds no array may be 0 in a build (-DTSTEPS=0)
            if int(ex.int_macros[p]) < 1 or p in overridable and p not in extents:
                return None
            return f"{p} >= 1"
        return f"{p} >= 1" if p in extents else None

    def build(index_text, arrays, baked, extra=()) -> Scop:
        statements = tuple(
            Statement(st.id, st.iterators, " and ".join(st.constraints), st.body,
                      tuple(Access(a.ref, a.array, a.kind, index_text[a.ref], a.guard, a.inexact) for a in st.accesses),
                      st.schedule, st.reversed, st.line, st.col, st.text,
                      iterator_types(st.iterators, st.iter_ctypes, symbols.get)) for st in raw)
        assume = tuple(d for d in (default(p, baked) for p in params if p not in fixed_names) if d) \
            + tuple(extra) + tuple(assumptions)
        return Scop(path, region.index, params, fixed, assume, statements, tuple(arrays),
                    span, function, _chained(derived, set(params) | set(extent_names)),
                    tuple((p, int(ex.int_macros[p])) for p in params
                          if p in ex.int_macros and p not in fixed_names and p not in overridable),
                    # (a `#define M 5u` too: printed in a bound, `i < M - 3` would compare unsigned)
                    tuple(p for p in params if p not in fixed_names and (has_type_word(sym_of(p), symbols, UNSIGNED_WORDS)
                          or getattr(ex, "macro_types", {}).get(p, "").startswith("unsigned"))),
                    # (an enum constant's value needs no check of the build)
                    tuple(sorted((p, int(ex.int_macros[p])) for p in baked if p in ex.int_macros)),
                    wide_params=tuple(p for p in params if p not in fixed_names and (has_type_word(sym_of(p), symbols, WIDE_WORDS)
                                                                                   or p in ex.int_macros and wide_macro(ex, p))),
                    narrow_params=tuple((p, *r) for p in params if p not in fixed_names
                                        and (r := narrow_range(sym_of(p), symbols))),
                    size_types=tuple((p, t) for p in params if (t := _size_type(sym_of(p), symbols) or (
                        getattr(ex, "macro_types", {}).get(p, "int") if p in ex.int_macros else None))),
                    pinned_macros=tuple((p, v) for p, v in fixed if p in overridable and p not in baked),
                    soft_macros=tuple(p for p in params if p in ex.int_macros and p in overridable
                                      and p not in fixed_names))

    rows_baked = set()
    scop = build(index_text, arrays, baked | step_baked)
    # before the row facts: the output checks those in C, whose `(m/2)*2 >= 0` holds at m = -1
    # too, where the model's floor would make the row length another
    owed_facts, owed = size_facts(scop, owed) if owed else ([], [])
    if all_rows:
        assumed = replace(scop, assumptions=scop.assumptions + tuple(owed_facts), _cache={}) if owed_facts else scop
        settled = settle(assumed, all_rows, ex, fixed_vals,
                         lambda rows: flat_indexes(rows.name, list(rows.uses), fixed_vals, known, ex))
        index_text.update(settled.texts)
        arrays = settled.shaped(arrays)
        baked |= settled.baked
        rows_baked = settled.rows_baked - baked
        scop = build(index_text, arrays, baked | rows_baked | step_baked,
                     tuple(owed_facts) + tuple(f for _, f in settled.facts))
    for st in raw:
        d = unbounded_loop(scop, scop.statements[st.id])
        if d is not None:
            it = st.iterators[d]
            raise SourceError(f"the loop over '{it}' has no bound in the direction it runs: C "
                              "would leave it only by overflow", hint=f"bound '{it}' in its "
                              "direction (i < N when it counts up, i >= 0 when it counts down)",
                              file=path, line=st.loop_pos[d][0], col=st.loop_pos[d][1])
    scop = _unproved_guards_dropped(scop, raw)
    wrapped = wrap_facts(scop, [(st.id, *ob) for st in raw for ob in st.evaluated_obligations], path)
    if wrapped:
        note_once(path, span[0] or 1, f"the region is modelled for {' and '.join(as_c(f) for f in wrapped)}: there C's "
                  "unsigned and narrow conversions keep the model's values (the output checks that: its C runs the region as written "
                  "otherwise, its CUDA host code returns cudaErrorInvalidValue)",
                  per_line=True)
    facts, obligations = size_facts(scop, obligations)
    facts, obligations = list(dict.fromkeys(owed_facts + wrapped + facts)), obligations + owed
    row_facts = checked_row_facts(scop, settled.facts, settled.relying) if all_rows else ()
    if all_rows and settled.facts:
        note_row_facts(path, span[0] or 1, arrays, settled.facts, row_facts, settled.relying)
    if facts or row_facts:
        scop = replace(scop, assumptions=scop.assumptions + tuple(facts), _cache={},
                       runtime_facts=tuple(dict.fromkeys(row_facts + tuple(facts))),
                       conversion_facts=tuple(wrapped))
    rounded = [f for f in facts if f not in wrapped]
    if rounded:
        note_once(path, span[0] or 1,
                  f"the region is modelled for {' and '.join(as_c(f) for f in without_implied(rounded))}: C's '/' and "
                  "'%' of sizes round toward zero, which the model's floor matches only then "
                  "(the output checks that: its C runs the region as written otherwise, its CUDA host code "
                  "returns cudaErrorInvalidValue)", per_line=True)
    check_obligations(scop, obligations)
    # the extents' values: the file's, or a -D's where it gives one (`#ifndef M` with -D M=8)
    given = {k: int(v) for k, v in defines.items() if isinstance(v, int) or str(v).lstrip("-").isdigit()}
    scop = _rows_kept(scop, raw, path, {**{k: int(v) for k, v in ex.int_macros.items()}, **ex.constants.enums, **given})
    if scop.baked:
        sizes = ", ".join(f"{n} = {v}" for n, v in scop.baked)
        why = []
        if baked:
            why.append("where a subscript that multiplies sizes by iterators is affine")
        if rows_baked:
            why.append("where the linearized subscripts stay in their rows")
        if product_baked:
            why.append(f"where a bound multiplies #defined sizes ({' * '.join(sorted(product_baked))})")
        if divisor_baked:
            why.append(f"where a subscript or bound divides or shifts by {', '.join(sorted(divisor_baked))} (a '/', "
                       "'%' or shift must be by a number)")
        loops = list(dict.fromkeys(x for n, s in steps.items() if n in step_baked for x in s.loops))
        if loops:
            names = ", ".join(repr(to_user(x)) for x in loops)
            why.append(f"where the steps of loops {names} are constants" if len(loops) > 1 else
                       f"where the step of loop {names} is a constant")
        note_once(path, span[0] or 1, f"the region is modelled at {sizes} (the #define value{'s' if len(scop.baked) > 1 else ''}), "
                  f"{' and '.join(why)}; the output checks the build with #if (for another value, change the #define, "
                  "or --define an #ifndef default)")
    return scop


def _chained(derived, used: set) -> tuple:
    """The derived sizes the region's params and extents are, with those they are computed
    from (`int n = N; int len = n;` for a loop to `len`: both), in the function's order."""
    inits = dict(derived)
    need, todo = set(), [n for n in used if n in inits]
    while todo:
        name = todo.pop()
        if name not in need:
            need.add(name)
            todo += [w for w in re.findall(r"[A-Za-z_]\w*", str(inits[name])) if w in inits]
    return tuple((n, e) for n, e in derived if n in need)


def _size_products(derived, params) -> dict:
    """Size locals whose initializer is a product of sizes (`int dimn1n2 = n1*n2;`), as Polys."""
    out = {}
    for name, init in derived:
        words = [w.strip() for w in str(init).strip().strip("()").split("*")]
        if len(words) > 1 and all(w in params or w.isdigit() for w in words):
            term = Poly.const(1)
            for w in words:
                term = term * (Poly.const(int(w)) if w.isdigit() else Poly.sym(w))
            out[name] = term
    return out


def _unproved_guards_dropped(scop: Scop, raw) -> Scop:
    """A read's guard with a `%` or `/` (Darknet im2col's `c % ksize` in the test) holds in the
    model only where C's rounding is the floor's (c >= 0), one of unsigned values where they do
    not wrap: where the domain does not prove that (`(j - off) % 2`), the read counts as
    unconditional, as any read of a guard the model does not hold."""
    def owed(st, where, guard) -> str | None:
        # where C tests the guard: the statement's domain (or `where`) inside the guards around it
        if not guard:
            return where
        return f"({where or ' and '.join(st.constraints) or '1 = 1'}) and {guard}"
    dropped = {st.id for st in raw if not all(obligations_hold(scop, st.id, [c], owed(st, w, g))
                                             for c, w, g in st.guard_obligations)}
    if not dropped:
        return scop
    # (every guard of the statement: which one owes the unproved condition is not kept)
    statements = tuple(replace(s, accesses=tuple(replace(a, guard="", inexact=a.inexact or bool(a.guard))
                                                                 for a in s.accesses)) if s.id in dropped else s
                       for s in scop.statements)
    return replace(scop, statements=statements, _cache={})


def _check_fits(name: str, value: int, sym: Symbol | None, symbols: dict, path: str, line: int) -> None:
    """A --define value the size's C type cannot hold (`unsigned char n` given 300) would make
    the output's check `n == 300` always false: its transformed code dead, and gcc warn."""
    r = narrow_range(sym, symbols)
    if r is None or r[0] <= value <= r[1]:
        return
    spelled = sym.spelled_ctype or sym.ctype
    why = f"'{to_user(name)}' is {spelled}, which holds {r[0]}..{r[1]}" if r[1] != 2 ** 31 - 1 else \
        f"'{to_user(name)}' is {spelled}, which looptx reads as a size of 0..{r[1]}"
    at = sym.line or line or 1
    raise SourceError(f"--define {to_user(name)}={value}: {why}", hint="give a value in that range",
                      file=path, line=at, col=_column_of(path, at, to_user(name)))


def _column_of(path: str, line: int, name: str) -> int | None:
    """The column of `name` on the file's line (the contract's FILE:LINE:COL), None if not there."""
    try:
        text = Path(path).read_text(errors="replace").splitlines()[line - 1]
    except (OSError, IndexError):
        return None
    m = re.search(rf"\b{re.escape(name)}\b", text)
    return m.start() + 1 if m else None


def _rows_kept(scop: Scop, raw, path: str, values: dict) -> Scop:
    """The scop with what poly/row_leave finds of subscripts that leave their row onto an
    element the region also reaches: a recipe that would reorder such a pair checks it (the
    code as written, or an order that keeps it, needs no check)."""
    from looptx.poly.row_leave import leaving_rows, unread_extents
    for array, names, stmt in unread_extents(scop, values):
        st = next(r for r in raw if r.id == stmt)
        note_once(path, st.line, f"the extent {' and '.join(map(to_user, names))} of '{to_user(array)}' is a size the region "
                  "does not read: looptx takes the subscripts to stay inside it, as CHiLL takes every extent "
                  f"(give --define {to_user(names[0])}=VALUE to have rows it leaves checked)", col=st.col)
    found = leaving_rows(scop, values)
    if found is None:
        return scop
    st = next(r for r in raw if r.id == found.stmt)
    sizes = "at these sizes" if scop.fixed else "at every size of interest"
    return replace(scop, row_leaving=replace(found, line=st.line, col=st.col, path=path, sizes=sizes), _cache={})


# (bits, unsigned) -> a standard C type of that size on the LP64 machines looptx builds for
_STANDARD = {(8, False): "signed char", (8, True): "unsigned char", (16, False): "short",
             (16, True): "unsigned short", (32, False): "int", (32, True): "unsigned int", (64, False): "long",
             (64, True): "unsigned long"}


def _size_type(sym: Symbol | None, symbols: dict) -> str | None:
    """A size's integer type as a standard C type (a bool's is none: its harness value stays an
    int flag); None for a #define or a variable of no integer type."""
    if sym is None or sym.kind != "var":
        return None
    t = int_type(arithmetic_type(sym.ctype, symbols.get).split())
    return _STANDARD.get(t[0]) if t else None
