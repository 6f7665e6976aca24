"""`looptx deps`: dependences for people (a table) and for tools (JSON)."""
from __future__ import annotations

from looptx.frontend.cparse import Program
from looptx.frontend.names import to_user
from looptx.poly import deps as D
from looptx.poly import privatize as PV


def _region_info(program: Program, idx: int):
    scop = program.scops[idx]
    deps = D.compute_deps(scop)
    b = program.bases[idx]
    rows, seen = [], set()
    for d in deps.items:
        row = {"kind": d.kind, "source": d.source + b, "sink": d.sink + b, "array": d.array,
               "distance": D.distance(deps, d), "carried_by": D.carried_by(deps, d)}
        # the model keeps one dependence per pair of references (s * s + s reads s three
        # times); a reader asks which statements depend on which, and how far apart
        key = (d.kind, d.source, d.sink, d.array, tuple(row["distance"]), tuple(row["carried_by"]))
        if key not in seen:
            seen.add(key)
            rows.append(row)
    loops = [{"name": lp.name, "depth": lp.depth, "statements": [k + b for k in lp.statements],
              "parallel": lp.parallel, "carries": list(lp.carried)} for lp in D.loops(deps)]
    private = [{"var": to_user(var), "at": to_user(at)} for var, at in PV.suggestions(scop).items()]
    return scop, rows, loops, private


def deps_json(program: Program) -> dict:
    regions = []
    for idx, r in enumerate(program.regions):
        scop, rows, loops, private = _region_info(program, idx)
        regions.append({
            "region": idx, "kind": r.kind, "function": scop.function,
            "lines": list(scop.region_span), "parameters": list(scop.params),
            "statements": [{"id": s.id + program.bases[idx], "line": s.line, "text": s.text,
                            "iterators": list(s.iterators)} for s in scop.statements],
            "arrays": [{"name": a.name, "type": a.ctype, "dims": list(a.dims), "role": a.role}
                       for a in scop.arrays],
            "dependences": rows, "loops": loops, "privatizable": private,
        })
    return {"file": program.filename, "regions": regions}


def _taken_distinct(scop) -> list[str]:
    """The arrays the dependences take for distinct memory that a caller could pass overlapping
    (pointers and the function's array parameters), where the region writes one of them."""
    outside = [a for a in scop.arrays if a.rank and not a.local and (not a.dims[0] or a.name in scop.function_params)]
    if len(outside) < 2 or not any(a.role in ("out", "inout") for a in outside):
        return []
    return [to_user(a.name) for a in outside]


def deps_text(program: Program) -> str:
    out = []
    for idx, r in enumerate(program.regions):
        scop, rows, loops, private = _region_info(program, idx)
        lo, hi = scop.region_span
        fn = f", function {scop.function}" if scop.function else ""
        params = ", ".join(scop.params) or "none"
        out.append(f"{program.filename}: region {idx} (lines {lo}-{hi}{fn}), parameters: {params}")
        for s in scop.statements:
            loops_of = "".join(f"[{i}]" for i in s.iterators)
            out.append(f"  S{s.id + program.bases[idx]:<3} line {s.line:<5} {loops_of:<14} {s.text}")
        out.append("  dependences:" if rows else "  dependences: none")
        # the sources padded to the longest (S10 beside S3 keeps the columns)
        width = max((len(f"S{d['source']}") for d in rows), default=2)
        for d in rows:
            dist = "(" + ", ".join(d["distance"]) + ")" if d["distance"] else "()"
            carried = ("carried by " + ", ".join(d["carried_by"])) if d["carried_by"] else "loop-independent"
            out.append(f"    {d['kind']:<4} {'S' + str(d['source']):<{width}} -> S{d['sink']:<4} {to_user(d['array']):<10} "
                       f"distance {dist:<18} {carried}")
        out.append("  loops:")
        for lp in loops:
            state = "parallel" if lp["parallel"] else "sequential (carries " + ", ".join(lp["carries"]) + ")"
            stmts = ",".join(f"S{k}" for k in lp["statements"])
            out.append(f"    {'  ' * (lp['depth'] - 1)}{lp['name']:<8} [{stmts}] {state}")
        distinct = _taken_distinct(scop)
        if distinct:
            out.append(f"  taken not to overlap (as CHiLL does, and C99's restrict says): {', '.join(distinct)}")
        for p in private:
            out.append(f"  '{p['var']}' is a temporary that can be private to each iteration of loop "
                       f"'{p['at']}': 'privatize: {{var: {p['var']}, at: {p['at']}}}' removes the "
                       "dependences its reuse makes")
    return "\n".join(out) + "\n"
