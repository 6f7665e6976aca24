"""Loops that count a second variable along with their iterator: HPGMG's restriction,
`for (k = 0, kk = 0; k < dim_k; k++, kk += 2)`, CoMD's `for (int iOff = MAXATOMS*iBox, ii = 0;
ii < nAtoms; ii++, iOff++)`.

The second variable is an affine function of the iterator, `kk = 0 + 2*(k - 0)`: each of its
uses in the body is that expression, and the loop keeps one iterator, as the model needs.  Only
where nothing else changes it: the body does not assign it, what its start reads does not
change in the loop, and nothing after the loop reads its final value."""
from __future__ import annotations

import copy

from pycparser import c_ast, c_generator

from looptx.frontend.symbols import all_nodes

_INC = {"++": 1, "p++": 1, "--": -1, "p--": -1}


def _starts(init) -> list[tuple[str, c_ast.Node]] | None:
    if isinstance(init, c_ast.DeclList) and all(d.init is not None and d.name for d in init.decls):
        return [(d.name, d.init) for d in init.decls]
    if isinstance(init, c_ast.ExprList) and all(
            isinstance(e, c_ast.Assignment) and e.op == "=" and isinstance(e.lvalue, c_ast.ID) for e in init.exprs):
        return [(e.lvalue.name, e.rvalue) for e in init.exprs]
    return None


def _steps(exprs) -> dict[str, int] | None:
    out = {}
    for e in exprs:
        if isinstance(e, c_ast.UnaryOp) and e.op in _INC and isinstance(e.expr, c_ast.ID):
            out[e.expr.name] = _INC[e.op]
        elif isinstance(e, c_ast.Assignment) and e.op in ("+=", "-=") and isinstance(e.lvalue, c_ast.ID) \
                and isinstance(e.rvalue, c_ast.Constant) and e.rvalue.type == "int":
            try:
                by = int(e.rvalue.value.rstrip("uUlL"), 0)
            except ValueError:
                return None
            out[e.lvalue.name] = by if e.op == "+=" else -by
        else:
            return None
    return out


def _derived(starts, exprs, it_at) -> dict[str, c_ast.Node]:
    """Variables the increment sets again from the expression that started them, after the
    counter moved (Devito's `for (int time = time_m, t0 = (time + 2)%(3); ...; time += 1, t0 =
    (time + 2)%(3))`): `t0` is that expression of the iterator in every iteration.  `it_at(e)`
    tells whether an increment expression steps the candidate iterator."""
    text = c_generator.CGenerator().visit
    first = dict(starts)
    order = [n for n, _ in starts]
    out = {}
    stepped = False
    for e in exprs:
        if it_at(e):
            stepped = True
        elif stepped and isinstance(e, c_ast.Assignment) and e.op == "=" and isinstance(e.lvalue, c_ast.ID) \
                and e.lvalue.name in first and text(e.rvalue) == text(first[e.lvalue.name]):
            out[e.lvalue.name] = e.rvalue
    return {n: x for n, x in out.items() if order.index(n) > 0}


def _written(node) -> set[str]:
    out = set()
    for n in all_nodes(node):
        if isinstance(n, c_ast.Assignment):
            target = n.lvalue
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&"):
            target = n.expr
        else:
            continue
        while isinstance(target, (c_ast.ArrayRef, c_ast.StructRef)):
            target = target.name
        if isinstance(target, c_ast.ID):
            out.add(target.name)
    return out


def _names(node) -> set[str]:
    return {n.name for n in all_nodes(node) if isinstance(n, c_ast.ID)}


def _replace(node, name: str, make) -> None:
    """Every read of `name` below `node` (not a member's field name) becomes `make()`."""
    for n in list(all_nodes(node)):
        for attr in getattr(n, "__slots__", ()):
            if attr in ("coord", "__weakref__") or isinstance(n, c_ast.StructRef) and attr == "field":
                continue
            value = getattr(n, attr, None)
            if isinstance(value, c_ast.ID) and value.name == name:
                setattr(n, attr, make())
            elif isinstance(value, list):
                setattr(n, attr, [make() if isinstance(x, c_ast.ID) and x.name == name else x for x in value])


def paired_iterators(ast) -> dict[str, list[tuple[str, int]]]:
    """Rewrites such loops in place; returns, by function, the variables whose uses now read
    the expression (with the loop's line), for the output's `(void)kk;` where the function
    declares them."""
    out: dict[str, list[tuple[str, int]]] = {}
    for fdef in (e for e in ast.ext if isinstance(e, c_ast.FuncDef)):
        for loop in [n for n in all_nodes(fdef.body) if isinstance(n, c_ast.For)]:
            starts, cond = _starts(loop.init), loop.cond
            if not starts or len(starts) < 2 or loop.next is None or not isinstance(cond, c_ast.BinaryOp):
                continue
            nxt = loop.next.exprs if isinstance(loop.next, c_ast.ExprList) else [loop.next]
            it = counter(cond, nxt)
            if it is None or it not in {n for n, _ in starts}:
                continue
            derived = _derived(starts, nxt, lambda e: it in (_steps([e]) or {}))
            if [n for n, _ in starts].index(it) > min(([n for n, _ in starts].index(d) for d in derived),
                                                       default=len(starts)):
                continue                # a value set from the iterator before the iterator is
            steps = _steps([e for e in nxt if not (isinstance(e, c_ast.Assignment) and e.op == "="
                                                   and isinstance(e.lvalue, c_ast.ID) and e.lvalue.name in derived)])
            if steps is None or set(steps) != {n for n, _ in starts} - set(derived) \
                    or it not in steps or abs(steps[it]) != 1:
                continue
            start = dict(starts)
            body_sets = _written(loop.stmt)
            changed = body_sets | set(steps) | set(derived)
            others = [n for n, _ in starts if n != it]
            if any(n in body_sets or _names(start[n]) & changed - ({it} if n in derived else set())
                   for n in others) or _names(start[it]) & changed:
                continue
            declared = isinstance(loop.init, c_ast.DeclList)
            if not declared and _read_outside(fdef.body, loop, others):
                continue
            for name in others:
                make = (lambda e=start[name]: copy.deepcopy(e)) if name in derived \
                    else _counted(start[name], steps[name], it, start[it], steps[it])
                _replace(loop.stmt, name, make)
                # (the test may read it too: `for (i = 0, j = n - 1; i < j; i++, j--)`, probe 227 G1)
                _replace(loop.cond, name, make)
                out.setdefault(fdef.decl.name, []).append((name, loop.coord.line if loop.coord else 0))
            if declared:
                loop.init = c_ast.DeclList([d for d in loop.init.decls if d.name == it], loop.init.coord)
            else:
                loop.init = next(e for e in loop.init.exprs if e.lvalue.name == it)
            loop.next = next(e for e in nxt if (e.expr if isinstance(e, c_ast.UnaryOp) else e.lvalue).name == it)
    return out


def counter(cond, nxt) -> str | None:
    """The variable a loop's test compares and its increment steps: `k` of `k < n` and of
    `n > k` alike."""
    stepped = set()
    for e in nxt:
        target = e.expr if isinstance(e, c_ast.UnaryOp) else getattr(e, "lvalue", None)
        if isinstance(target, c_ast.ID):
            stepped.add(target.name)
    sides = [x.name for x in (cond.left, cond.right) if isinstance(x, c_ast.ID)]
    return next((x for x in sides if x in stepped), sides[0] if sides else None)


def _counted(first, by: int, it: str, it_start, it_step: int):
    """A maker of `first + by*(it - it_start)` (`it_start - it` for a loop counting down): the
    value the paired variable has in each iteration."""
    def make():
        t = c_ast.BinaryOp("-", c_ast.ID(it), copy.deepcopy(it_start)) if it_step > 0 else \
            c_ast.BinaryOp("-", copy.deepcopy(it_start), c_ast.ID(it))
        term = c_ast.BinaryOp("*", c_ast.Constant("int", str(abs(by))), t)
        return c_ast.BinaryOp("+" if by > 0 else "-", copy.deepcopy(first), term)
    return make


def _read_outside(body, loop, names) -> bool:
    """Whether anything of the function but the loop names one of `names` other than to set
    it: the loop leaves its final value there (or it is a variable of another use)."""
    inside = {id(n) for n in all_nodes(loop)}
    sets = set()
    for n in all_nodes(body):
        if id(n) in inside:
            continue
        if isinstance(n, c_ast.Assignment) and n.op == "=" and isinstance(n.lvalue, c_ast.ID):
            sets.add(id(n.lvalue))
    return any(isinstance(n, c_ast.ID) and n.name in names and id(n) not in inside and id(n) not in sets
               for n in all_nodes(body))
