"""Temporaries of one arm of a branch on data, computed on every iteration.

CloverLeaf's viscosity kernel declares its temporaries at the function's top and sets and
reads them only in the else arm of `if (limiter > 0.0 || div >= 0.0) ... else { pgradx = ...;
pgrad = sqrt(...); ... grad2 = pgrad * pgrad; viscosity[...] = ... grad2 ...; }`.  As
conditional assignments (frontend/ifconvert.py) each becomes `pgradx = c ? pgradx : (...)`,
which reads the old value where the arm does not run: a read before any write of the
iteration, so `privatize` and `omp_for private` were refused for variables the program always
sets before it reads them.

Where every use of such a variable is in that arm, after its first assignment there, and
the function does not read it after the region, its value where the arm does not run is
never read: the assignment becomes unconditional (`pgradx = (...)`), exact for everything the
program observes, provided the value is safe to compute where the arm would not have run (no
integer division or remainder, calls only to math functions: a floating-point value is at
worst unused)."""
from __future__ import annotations

from dataclasses import replace

from looptx import ir
from looptx.errors import note_once
from looptx.frontend.names import to_user

_FLOAT_TYPES = ("float", "double")


def unconditional_temporaries(scop, pure_math: frozenset[str]):
    """The scop with such temporaries assigned on every iteration (a note names them)."""
    stmts = list(scop.statements)
    arrays = {a.name: a for a in scop.arrays}
    done = []
    for a in scop.arrays:
        # a local of the region reads its own default reason; what counts is a read after it
        if not a.is_scalar or a.declared_in_region or a.live_out and not a.local:
            continue
        plan = _plan(stmts, arrays, a.name, pure_math)
        if plan is None:
            continue
        for k, body in plan.items():
            s = stmts[k]
            keep = {x.ref for x in ir.walk(body) if isinstance(x, ir.Ref)} | {body.lhs.ref}
            stmts[k] = replace(s, body=body, accesses=tuple(x for x in s.accesses if x.ref in keep))
        done.append(a.name)
    if not done:
        return scop
    first = min(s.line for s in stmts if any(x.array in done for x in s.accesses)) or None
    names = ", ".join(f"'{to_user(n)}'" for n in done)
    note_once(scop.filename, first,
              f"{names} {'are' if len(done) > 1 else 'is'} set and read only in one arm of a branch on "
              "data: computed on every iteration (the value is unused where the arm does not run), so "
              "each iteration writes before it reads", per_line=True)
    return replace(scop, statements=tuple(stmts), _cache={})


def _plan(stmts, arrays, var: str, pure_math) -> dict[int, ir.Assign] | None:
    """{statement index: its unconditional body} for `var`, or None when it does not qualify."""
    users = [k for k, s in enumerate(stmts) if any(x.array == var for x in s.accesses)]
    if not users:
        return None
    lo, hi = users[0], users[-1]
    group = stmts[lo:hi + 1]
    if not all(_conditional(s) for s in group):
        return None
    c = group[0].body.rhs.c
    if any(not ir.same_apart_from_refs(s.body.rhs.c, c) or s.domain != group[0].domain or s.iterators != group[0].iterators
           for s in group):
        return None
    read_by_c = {x.array for x in ir.walk(c) if isinstance(x, ir.Ref)}
    if var in read_by_c or any(_target(s) in read_by_c for s in group):
        return None                       # the condition could change inside the arm
    first = _kept_form(stmts[lo].body, var)
    if first is None or _reads(first[1], var):
        return None
    arm = first[0]
    plan = {}
    for k in users:
        body = stmts[k].body
        if _is_var(body.lhs, var):
            form = _kept_form(body, var)
            if form is None or form[0] != arm or not _safe(form[1], arrays, pure_math):
                return None
            plan[k] = ir.Assign("=", body.lhs, form[1])
        else:
            # read only in the value the arm picks (`viscosity[..] = c ? 0.0 : ... grad2 ...`)
            other = body.rhs.b if arm else body.rhs.a
            if _reads(other, var) or _reads(body.lhs, var):
                return None
    return plan


def _conditional(s) -> bool:
    b = s.body
    return isinstance(b, ir.Assign) and b.op == "=" and isinstance(b.rhs, ir.Cond)


def _target(s) -> str | None:
    return s.body.lhs.array if isinstance(s.body.lhs, ir.Ref) else None


def _kept_form(body: ir.Assign, var: str):
    """(True, value) for `var = c ? value : var`, (False, value) for `var = c ? var : value`."""
    if not (_is_var(body.lhs, var) and isinstance(body.rhs, ir.Cond)):
        return None
    cond = body.rhs
    if _is_var(cond.b, var) and not _is_var(cond.a, var):
        return True, cond.a
    if _is_var(cond.a, var) and not _is_var(cond.b, var):
        return False, cond.b
    return None


def _is_var(e, var: str) -> bool:
    return isinstance(e, ir.Ref) and e.array == var and not e.index


def _reads(e, var: str) -> bool:
    return any(isinstance(x, ir.Ref) and x.array == var for x in ir.walk(e))


def _safe(e, arrays, pure_math) -> bool:
    """Computing `e` where the program would not have cannot trap: no integer `/` or `%`, no
    call but to a math function."""
    for x in ir.walk(e):
        if isinstance(x, ir.Call) and x.fn not in pure_math:
            return False
        if isinstance(x, ir.Bin) and x.op in ("/", "%") and not (
                x.op == "/" and (_floating(x.a, arrays) or _floating(x.b, arrays))):
            return False
    return True


def _floating(e, arrays) -> bool:
    if isinstance(e, ir.Num):
        t = e.text.lower()
        return not t.startswith("0x") and ("." in t or "e" in t or t.endswith("f"))
    if isinstance(e, ir.Ref):
        a = arrays.get(e.array)
        return a is not None and any(w in a.ctype for w in _FLOAT_TYPES)
    if isinstance(e, ir.Cast):
        return any(w in e.ctype for w in _FLOAT_TYPES)
    if isinstance(e, ir.Call):
        return not e.fn.endswith("abs") or e.fn.startswith("f")
    if isinstance(e, ir.Bin) and e.op in ("+", "-", "*", "/"):
        return _floating(e.a, arrays) or _floating(e.b, arrays)
    if isinstance(e, ir.Un) and e.op in ("-", "+"):
        return _floating(e.a, arrays)
    if isinstance(e, ir.Cond):
        return _floating(e.a, arrays) or _floating(e.b, arrays)
    return False
