"""CHiLL's `pragma` step, the text before a loop as written, and `omp_for`, the loop run as
`omp parallel for` with checked private and reduction lists."""
from __future__ import annotations

import re
from dataclasses import replace

from looptx.errors import RecipeError, note_once
from looptx.frontend.names import to_model, to_user
from looptx.poly import parallel as PL
from looptx.poly import privatize as PV
from looptx.poly import schedule as S
from looptx.poly.lastprivate import clause_vars
from looptx.poly.variant import Variant
from looptx.recipe.schema import Step


def pragma_step(v: Variant, st: Step) -> Variant:
    """A pragma as written.  Where it runs the loop's iterations at once or in any order
    (OpenMP, OpenACC, ivdep), the loop is checked as omp_for's is, after this step and every
    later one (poly/parallel.check_parallel); an OpenMP or OpenACC loop construct's private
    clause gets the locals the output declares once before its loops (codegen/c.py)."""
    return PL.add_pragma(v, st["stmt"], st["loop"], st["text"].strip())


def omp_for_step(v: Variant, st: Step) -> Variant:
    """CHiLL's omp_for: the loop runs as `omp parallel for`; its `private` variables get one
    object per iteration first (the privatize step, checked the same way)."""
    at = S.resolve_name(v, st["stmt"], st["loop"]) if st.get("private") or st.get("reduction") is not None else None
    if at is not None and 0 <= st["stmt"] < len(v.scop.statements):
        # A loop a step made (a tile's `ii`) is not in the nest that privatize reads: the
        # variable gets a copy per iteration of the first original loop from there inwards,
        # finer than one per iteration of the parallel loop, so that is private too.
        names = S.loop_names(v, st["stmt"])
        original = v.scop.statements[st["stmt"]].iterators
        at = next((n for n in names[names.index(at):] if n in original), at) if at in names else at
    reductions = ()
    if st.get("reduction") is not None:
        from looptx.poly.reductions import check_updates, clause_text, parse_reductions
        reductions = parse_reductions(st["reduction"], st.error)
        # an array section as OpenMP writes it (`delta[0:1]`) names its array; the text is kept
        written = {m.group(1): m.group(2) for m in (_SECTION.fullmatch(var) for _, var in reductions) if m}
        reductions = tuple((op, _SECTION.sub(r"\1", var)) for op, var in reductions)
        both = [var for _, var in reductions if to_model(var) in {to_model(x) for x in st.get("private") or ()}]
        if both:
            raise st.error(f"'{to_user(both[0])}' is both private and a reduction variable",
                           hint="a reduction variable is private already: keep it in reduction only")
        name = S.resolve_name(v, st["stmt"], st["loop"])
        inside = list({s.id: s for s in (v.scop.statements[v.pieces[k].stmt]
                                         for k, _ in S.sharing(v, st["stmt"], name))}.values())
        kept = []
        for pair in reductions:
            try:
                check_updates(v.scop, inside, [pair], name)
                kept.append(pair)
            except RecipeError as e:
                v = _private_in_effect(v, st, pair, at or name, e)
        reductions = tuple(kept)
        sections = {**_sections(v, st, [(op, var) for op, var in reductions if var not in written]), **written}
    counters = {it for s in v.scop.statements for it in s.iterators} - {a.name for a in v.scop.arrays}
    # NPB's private(i, j, m): OpenMP's own lists name the loop counters
    named = list(dict.fromkeys(x for x in st.get("private") or () if to_model(x) in counters))
    if named:
        note_once(st.file or "recipe", st.line or 1, f"step {st.index} ({st.name}): "
                  f"{', '.join(repr(to_user(x)) for x in named)} count{'s' if len(named) == 1 else ''} loops "
                  "of the region: the pragma lists the counters it needs itself")
    # the statements the parallel loop holds (privatize steps keep their loops)
    under = {v.pieces[k].stmt for k, _ in S.sharing(v, st["stmt"], S.resolve_name(v, st["stmt"], st["loop"]))} \
        if st.get("private") else set()
    for var in st.get("private") or ():
        if var in named:
            continue
        arr = next((a for a in v.scop.arrays if a.name == to_model(var)), None)
        if arr is not None and arr.local and arr.is_scalar and arr.private_depth:
            # a privatize step before, or its declaration in the loop: one copy per iteration
            # already (a copy the block declares before the loop is in the pragma's list)
            why = "a privatize step made it private" if any(
                h.startswith("privatize") and re.search(rf"\b{re.escape(to_user(var))}\b", h) for h in v.history) \
                else "declared inside the region" if not arr.declared_by_function \
                else "the region sets it before each read, and nothing after the region reads it"
            note_once(st.file or "recipe", st.line or 1, f"step {st.index} ({st.name}): '{to_user(var)}' "
                      f"is private already ({why})")
            continue
        # as deep as it can be private (a later unroll-and-jam of an inner loop needs a copy
        # per iteration there, NPB SP's ninvr), which is private to the parallel loop too
        deeper = PV.innermost_loop(v.scop, to_model(var), under)
        if deeper is not None:
            inner = S.loop_names(v, deeper[1])
            if at in inner and deeper[0] in inner[inner.index(at) + 1:]:
                try:
                    # the nest's own statement: the step's may be in another nest under the
                    # parallel loop, whose loop of that name holds no use (Nekbone's ax_e)
                    v = PV.privatize(v, deeper[1], to_model(var), deeper[0])
                    continue
                except RecipeError:
                    pass
        v = PV.privatize(v, st["stmt"], to_model(var), at)
    # (a pragma step's own directive, `omp parallel for schedule(static)` or `omp simd`, with
    # its other clauses)
    return PL.add_pragma(v, st["stmt"], st["loop"], st.get("directive")
                         or PL.OMP_FOR + (clause_text(reductions, sections) if reductions else ""))


def _private_in_effect(v: Variant, st: Step, pair, at: str, refused: RecipeError) -> Variant:
    """Rodinia backprop's `reduction(+: sum)` on a loop whose iterations each set `sum = 0.0`
    before accumulating: OpenMP combines the threads' last values into `sum`, which nothing
    after the loop reads, so the clause computes what a private `sum` does.  The variable gets a
    copy per iteration (the privatize step's checks); where it cannot, `refused` stands."""
    op, var = pair
    try:
        v = PV.privatize(v, st["stmt"], to_model(var), at)
    except RecipeError:
        raise refused from None
    note_once(st.file or "recipe", st.line or 1, f"step {st.index} ({st.name}): reduction({op}:{to_user(var)}): "
              f"each iteration of loop '{to_user(st['loop'])}' sets '{to_user(var)}' before it reads it, and "
              "nothing after the region reads it: it is private, and the output's pragma lists it so")
    return v


def _sections(v: Variant, st: Step, reductions) -> dict[str, str]:
    """The array section (`[0:M]`) of each array a reduction names: OpenMP takes an array
    parameter, a pointer to C, only as a section."""
    out = {}
    for _, var in reductions:
        arr = v.scop.array(var)
        if arr.is_scalar:
            continue
        constant = _constant_length(v, var)
        if arr.strides is None and not all(arr.dims) and constant is not None:
            # Rodinia's `*delta += 1.0` through a pointer parameter: the region uses delta[0] alone
            out[var] = f"[0:{constant}]"
            continue
        if arr.strides is not None or not all(arr.dims):
            raise st.error(f"reduction: array '{to_user(var)}' has no declared extent here, and OpenMP "
                           "reduces an array through its section",
                           f"use a pragma step with the section written out: text: \"omp parallel for "
                           f"reduction(+:{to_user(var)}[0:LENGTH])\"")
        out[var] = "".join(f"[0:{d}]" for d in arr.dims)
    return out


_SECTION = re.compile(r"\s*(\w+)\s*((?:\[[^\[\]:]*:[^\[\]]*\])+)\s*")


def _constant_length(v: Variant, var: str) -> int | None:
    """1 + the largest element of a 1-D array that the region reaches at constant subscripts
    only; None where a subscript varies."""
    top = -1
    for s in v.scop.statements:
        for a in s.accesses:
            if a.array == var:
                if len(a.index) != 1 or not re.fullmatch(r"\s*\d+\s*", a.index[0]):
                    return None
                top = max(top, int(a.index[0]))
    return top + 1 if top >= 0 else None


_PRIVATE_CLAUSE = re.compile(r"\s*,?\s*(?<![\w])private\s*\(([^()]*)\)")
_COPY_CLAUSE = re.compile(r"\b(?:first|last)private\s*\(([^()]*)\)")


def _copies_used(v: Variant, st: Step, text: str) -> None:
    """A firstprivate or lastprivate name the loop does not use (a local of another nest of the
    region, out of scope there in the user's code) would copy a value that is not the loop's."""
    if not _COPY_CLAUSE.search(text) or not PL.takes_data_clauses(text):
        return
    name = S.resolve_name(v, st["stmt"], st["loop"])
    used = {a.array for k, _ in S.sharing(v, st["stmt"], name) for a in v.scop.statements[v.pieces[k].stmt].accesses}
    for m in _COPY_CLAUSE.finditer(text):
        for x in (x.strip() for x in m.group(1).split(",") if x.strip()):
            members = {k for k, chain in v.scop.member_chains().items() if chain.startswith(f"{x}.")}
            if to_model(x) not in used and not members & used:
                raise st.error(f"'{x}' in '{m.group(0)}' is not used in loop '{to_user(name)}'",
                               "drop it from the clause: the loop reads and writes no such variable")


def _read_after(scop, var: str) -> bool:
    """The function reads what the region leaves in the scalar `var` (privatize's refusal)."""
    arr = next((a for a in scop.arrays if a.name == var), None)
    return arr is not None and arr.is_scalar and not arr.private_depth and bool(PV.read_after(arr))


def pragma_text_step(v: Variant, st: Step) -> Variant:
    """A pragma as written.  The private clause of an OpenMP or OpenACC loop construct
    (`omp parallel for private(t)`, Rodinia's `shared(...) private(...)`, `omp simd
    private(t)`) is omp_for's private list, which looptx checks (privatize); the output lists
    the privatized variables itself, after the rest of the text."""
    text = str(st["text"]).strip()
    if text.startswith("#pragma"):
        text = text[len("#pragma"):].strip()
    if not text or "\n" in text or "\r" in text or "*/" in text or "/*" in text:
        what = "is empty" if not text else "spans lines" if "\n" in text or "\r" in text else "holds a comment"
        raise st.error(f"the pragma's text {what}: it is written after '#pragma' on one line",
                       "give one directive per pragma step, e.g. text: \"omp parallel for\"")
    text = PL.same_spacing(text)
    if re.fullmatch(r"GCC ivdep\s*\S.*", text):
        # (probe 224 G11: `GCC ivdep reduction(+:s)`, as a hint said, was accepted)
        raise st.error(f"'#pragma {text}': GCC ivdep takes nothing after it (gcc: expected end of line)",
                       "write 'GCC ivdep' alone, or an OpenMP directive with clauses, e.g. "
                       "'omp simd reduction(+:s)'")
    _named_once(st, text)
    if "reduction" in text and PL.takes_data_clauses(text):
        from looptx.poly.reductions import check_sections, with_sections
        name = S.resolve_name(v, st["stmt"], st["loop"])
        inside = {v.pieces[k].stmt for k, _ in S.sharing(v, st["stmt"], name)}
        def sections(w: Variant) -> None:
            check_sections(w.scop, [w.scop.statements[k] for k in sorted(inside)], text, name, w.context)
        try:
            sections(v)
        except RecipeError as e:
            # `s[0:8]` where the file #defines M 8: as any step legal only at the #defines' values
            from looptx.recipe.fusing import legal_at_file_values
            pinned = legal_at_file_values(v, sections)
            if pinned is None:
                raise st.error(e.what, e.hint) from None
            v = pinned
        text = with_sections(v.scop, text)
    _copies_used(v, st, text)
    rest = _PRIVATE_CLAUSE.sub("", text)
    # firstprivate and lastprivate stay as written (the output names nothing twice); what
    # they name needs the same check, since a copy per thread is only right where each
    # iteration writes the variable before it reads it
    names = list(dict.fromkeys(x.strip() for m in _PRIVATE_CLAUSE.findall(text) + _COPY_CLAUSE.findall(text)
                               for x in m.split(",") if x.strip()))
    # ... but for a lastprivate variable the code reads after the region: it stays one object
    # in the model, and the parallel check asks what its copies need (poly/lastprivate.py)
    # (or after the loop in the region: `out[0] = s;` before `#pragma endscop`)
    loop = S.resolve_name(v, st["stmt"], st["loop"])
    in_loop = {v.pieces[k].stmt for k, _ in S.sharing(v, st["stmt"], loop)}
    kept = {x for x in clause_vars(text) if _read_after(v.scop, x)
            or any(a.array == x for s in v.scop.statements if s.id not in in_loop for a in s.accesses)}
    names = [x for x in names if to_model(x) not in kept]
    if names and PL.takes_data_clauses(rest):
        args = (("stmt", st["stmt"]), ("loop", st["loop"]), ("private", names), ("directive", rest))
        return omp_for_step(v, replace(st, args=args))
    return pragma_step(v, replace(st, args=tuple((k, text if k == "text" else x) for k, x in st.args)))


_DATA_CLAUSE = re.compile(r"\b(private|firstprivate|lastprivate|shared|linear|reduction)\s*\(([^()]*(?:\([^()]*\))?[^()]*)\)")


def _named_once(st: Step, text: str) -> None:
    """OpenMP (and gcc: "appears more than once in data clauses") takes a variable in one data
    clause of a directive, or in firstprivate and lastprivate both (probe 224 G7: `lastprivate(t)
    reduction(+:t)` was written, unchecked, and did not compile)."""
    if not PL.takes_data_clauses(text):
        return
    seen: dict[str, str] = {}
    for kind, names in _DATA_CLAUSE.findall(text):
        if kind in ("reduction", "linear"):
            names = names.split(":", 1)[1] if kind == "reduction" or ":" in names else names
            names = names.rsplit(":", 1)[0] if kind == "linear" else names
        for name in (x.split("[")[0].strip() for x in names.split(",")):
            if not name:
                continue
            if name in seen and {seen[name], kind} != {"firstprivate", "lastprivate"}:
                both = f"two {kind} clauses" if seen[name] == kind else f"both {seen[name]} and {kind} clauses"
                raise st.error(f"'#pragma {text}' names '{name}' in {both}, which OpenMP does not allow (gcc: "
                               f"'{name}' appears more than once in data clauses)",
                               hint=f"name '{name}' in one clause: reduction for a value the threads' copies "
                                    "combine, lastprivate for the last iteration's, private for one each "
                                    "iteration sets before it reads it")
            seen.setdefault(name, kind)


def pragma_refusal_hint(hint: str | None, st: Step) -> str | None:
    """A pragma step's refusal in the words of its own text: the clause to add to it, where
    the checks of parallel loops (poly/parallel.py) name omp_for's arguments (probe 224 G2)."""
    if not hint:
        return hint
    text = PL.same_spacing(str(st["text"]).strip().removeprefix("#pragma").strip())
    hint = hint.replace("put omp_for on a loop", f"put '#pragma {text}' on a loop")
    m = re.search(r"'(\S+)' is a (\S+) reduction: give omp_for reduction: \{[^}]*\} \(OpenMP combines the "
                  r"threads' copies\)", hint)
    if m:
        hint = hint.replace(m.group(0), f"'{m.group(1)}' is a {m.group(2)} reduction: add "
                                         f"reduction({m.group(2)}:{m.group(1)}) to the pragma's text")
    if PL.takes_data_clauses(text):
        hint = re.sub(r"the dependence comes from reusing the temporary '(\S+)': a step ",
                      r"the dependence comes from reusing the temporary '\1': add private(\1) to the pragma's "
                      r"text (looptx checks it), or a step ", hint)
    return hint
