"""Temporaries of one arm of a branch on data, computed on every iteration.

CloverLeaf's viscosity kernel declares its temporaries at the function's top and sets and
reads them only in the else arm of `if (limiter > 0.0 || div >= 0.0) ... else { pgradx = ...;
pgrad = sqrt(...); ... grad2 = pgrad * pgrad; viscosity[...] = ... grad2 ...; }`.  As
conditional assignments (frontend/ifconvert.py) each becomes `pgradx = c ? pgradx : (...)`,
which reads the old value where the arm does not run: a read before any write of the
iteration, so `privatize` and `omp_for private` were refused for variables the program always
sets before it reads them.

Where every write of such a variable sets it under one path of branches, every read is
under a path that includes the path of the last write before it (the same arm, an arm nested
in it, or the other arm after its own write), and the function does not read it after the
region, its value where no write ran is never read: the assignments become unconditional
(`pgradx = (...)`), exact for everything the program observes, provided each value is safe to
compute where its arm would not have run (no integer division or remainder but by a constant
other than 0 and -1, calls only to math functions: a floating-point value is at worst unused)."""
from __future__ import annotations

from dataclasses import replace

from looptx import ir
from looptx.errors import note_once
from looptx.frontend.names import to_user

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
              f"{names} {'are' if len(done) > 1 else 'is'} set and read only under branches on data, "
              "each read after a write under the same branch: computed on every iteration (the value is unused where the arm does not run), so "
              "each iteration writes before it reads", per_line=True)
    return replace(scop, statements=tuple(stmts), _cache={})


def _plan(stmts, arrays, var: str, pure_math) -> dict[int, ir.Assign] | None:
    """{statement index: its unconditional body} for `var`, or None when it does not qualify.

    Each write of `var` sets it under one path of branches (`var = c1 ? (c2 ? v : var) : var`),
    each read is in a value picked under a path.  A read's path must include the path of the
    last write before it: wherever the program reads the value, that write ran, so computing
    every write on every iteration leaves each value read as it was."""
    users = [k for k, s in enumerate(stmts) if any(x.array == var for x in s.accesses)]
    if not users or any(not _conditional(stmts[k]) for k in users):
        return None
    first = stmts[users[0]]
    if any(stmts[k].domain != first.domain or stmts[k].iterators != first.iterators for k in users):
        return None
    guards = []                           # every condition the paths hold
    plan, last = {}, None                 # last: the path of the last write so far
    for k in users:
        body = stmts[k].body
        if _is_var(body.lhs, var):
            leaves = [(path, v) for path, v in _leaves(body.rhs, (), body.lhs) if not _is_var(v, var)]
            if len(leaves) != 1 or _reads(leaves[0][1], var) or not _safe(leaves[0][1], arrays, pure_math) \
                    or any(_reads(c, var) for c, _ in leaves[0][0]):
                return None
            last, value = leaves[0]
            guards += [c for c, _ in last]
            plan[k] = ir.Assign("=", body.lhs, value)
            continue
        if _reads(body.lhs, var):
            return None
        for path, v in _leaves(body.rhs, (), body.lhs):
            guards += [c for c, _ in path]
            if any(_reads(c, var) for c, _ in path):
                return None
            if _reads(v, var) and (last is None or not all(_holds(path, g) for g in last)):
                return None
    # the branches' conditions must not change between the writes and the reads
    read_by_guards = {x.array for c in guards for x in ir.walk(c) if isinstance(x, ir.Ref)}
    if any(_target(s) in read_by_guards for s in stmts[users[0]:users[-1] + 1]):
        return None
    return plan


def _leaves(e, path, keep):
    """(path, value) for each value the branches of an if-converted statement pick; a path is
    ((condition, taken), ...).  Only conditionals that keep the target's old value (`keep`) on
    a side are branches: a `?:` of the value itself (viscosity's `grad = MIN(xgrad, ygrad)`) is
    part of the value."""
    if isinstance(e, ir.Cond) and (_keeps(e.a, keep) or _keeps(e.b, keep)):
        return _leaves(e.a, path + ((e.c, True),), keep) + _leaves(e.b, path + ((e.c, False),), keep)
    return [(path, e)]


def _keeps(e, keep) -> bool:
    if isinstance(e, ir.Cond):
        return _keeps(e.a, keep) or _keeps(e.b, keep)
    return ir.same_apart_from_refs(e, keep)


def _holds(path, guard) -> bool:
    return any(taken == guard[1] and ir.same_apart_from_refs(c, guard[0]) for c, taken in path)


def _conditional(s) -> bool:
    b = s.body
    return isinstance(b, ir.Assign) and b.op == "=" and isinstance(b.rhs, ir.Cond)


def _target(s) -> str | None:
    return s.body.lhs.array if isinstance(s.body.lhs, ir.Ref) else None


def _is_var(e, var: str) -> bool:
    return isinstance(e, ir.Ref) and e.array == var and not e.index


def _reads(e, var: str) -> bool:
    return any(isinstance(x, ir.Ref) and x.array == var for x in ir.walk(e))


def _safe(e, arrays, pure_math) -> bool:
    """Computing `e` where the program would not have cannot trap: no integer `/` or `%` but by
    a constant other than 0 and -1, no call but to a math function."""
    for x in ir.walk(e):
        if isinstance(x, ir.Call) and x.fn not in pure_math:
            return False
        if isinstance(x, ir.Bin) and x.op in ("/", "%") and not (
                x.op == "/" and (_floating(x.a, arrays) or _floating(x.b, arrays)) or _safe_divisor(x.b)):
            return False
    return True


def _safe_divisor(e) -> bool:
    try:
        return isinstance(e, ir.Num) and int(e.text.rstrip("uUlL"), 0) not in (0, -1)
    except ValueError:
        return False


def _floating(e, arrays) -> bool:
    return ir.floating(e, lambda n: arrays[n].ctype if n in arrays else None)
