"""Unrolling on KernelAST: every loop whose schedule dimension is marked `unroll` is replaced
by copies of its body with the loop variable substituted; a copy that may fall outside the
loop's bounds keeps a guard (remainder iterations of partial tiles).

A partial unroll whose control loop code generation dropped (a counted strip, see
poly.trips.Strip) arrives as the whole loop and is strip-mined here as CHiLL and Orio do: a
main loop from the loop's own start stepping by the factor, with unguarded copies, then a
cleanup loop over the fewer than `factor` iterations left.  A partial strip of a kept control
loop (jam) stays a loop too, unless the unroll is a full one."""
from __future__ import annotations

from dataclasses import replace

from looptx import ir
from looptx.codegen import ast as K
from looptx.errors import RecipeError
from looptx.frontend.names import to_user
from looptx.poly.jam_locals import copy_name, jam_renames, root_of
from looptx.poly.variant import LoopDim, Variant

MAX_COPIES = 4096


def _marked(variant: Variant, node: K.For) -> LoopDim | None:
    leaf = next(K.leaves(node.body), None)
    if leaf is None or node.dim < 0:
        return None
    for _, p in variant.pieces_of(leaf.stmt):
        if node.dim < len(p.dims):
            d = p.dims[node.dim]
            if isinstance(d, LoopDim) and d.unroll:
                return d
    return None


def _upper(node: K.For) -> ir.Expr | None:
    c = node.cond
    if isinstance(c, ir.Bin) and isinstance(c.a, ir.Var) and c.a.name == node.var:
        if c.op == "<=":
            return c.b
        if c.op == "<":
            return ir.Bin("-", c.b, ir.Num("1"))
    return None


def _const(e: ir.Expr) -> int | None:
    e = K.simplify(e)
    if isinstance(e, ir.Num):
        try:
            return int(e.text)
        except ValueError:
            return None
    return None


def _drop_guard(guard: ir.Expr) -> bool:
    """True when `a <= b` is always true because b - a simplifies to a non-negative constant,
    or when b is lx_min(...) and every argument satisfies that."""
    a, b = guard.a, guard.b
    if isinstance(b, ir.Call) and b.fn == "lx_min":
        return all(_drop_guard(ir.Bin("<=", a, arg)) for arg in b.args)
    diff = _const(ir.Bin("-", b, a))
    return diff is not None and diff >= 0


def _args(e: ir.Expr, fn: str) -> tuple[ir.Expr, ...]:
    return e.args if isinstance(e, ir.Call) and e.fn == fn else (e,)


def _aligned_base(node: K.For, ub: ir.Expr, trip: int) -> ir.Expr | None:
    """The strip's own start where the loop starts at `lx_max(strip, other)` (a jammed strip
    of a non-rectangular nest): every value lies in [strip, strip + trip - 1], so copies at
    strip + k with guards keep `lx_max` out of the subscripts."""
    if node.step != 1 or not (isinstance(node.init, ir.Call) and node.init.fn == "lx_max"):
        return None             # a strided start fixes the residue class: keep it
    for base in node.init.args:
        span = [_const(ir.Bin("-", u, base)) for u in _args(ub, "lx_min")]
        if any(x is not None and 0 <= x < trip for x in span):
            return base
    return None


def _guards(value: ir.Expr, init: ir.Expr, ub: ir.Expr) -> list[ir.Expr]:
    """The bounds a copy at `value` must check, less those that simplify to true."""
    out = [ir.Bin("<=", lo, value) for lo in _args(init, "lx_max")]
    out += [ir.Bin("<=", value, hi) for hi in _args(ub, "lx_min")]
    return [g for g in out if not _drop_guard(g)]


def _renamed(body: K.Node, names: frozenset, k: int, tag: str = "") -> K.Node:
    """Copy k of a body jammed over loop `tag`, with its own variable for each local in
    `names` (and for the copies an inner jam made of them already: poly/jam_locals.py)."""
    if not names or k == 0:
        return body

    def rename(x: ir.Ref) -> ir.Ref:
        return replace(x, array=copy_name(x.array, tag, k)) if root_of(x.array, names) in names else x

    def leaf(n):
        if isinstance(n, K.Leaf):
            return K.Leaf(n.stmt, n.iters, tuple((r, rename(x)) for r, x in n.refs))
        if isinstance(n, K.For):
            return replace(n, body=leaf(n.body))
        if isinstance(n, K.If):
            return K.If(n.cond, leaf(n.then), leaf(n.orelse) if n.orelse is not None else None)
        if isinstance(n, K.Block):
            return K.Block(tuple(leaf(c) for c in n.items))
        if isinstance(n, K.Mark):
            return K.Mark(n.name, leaf(n.body), n.info)
        return n
    return leaf(body)


def unroll_for(node: K.For, trip: int, names: frozenset = frozenset(), tag: str = "") -> K.Node:
    ub = _upper(node)
    if ub is None or node.step <= 0:
        raise RecipeError("internal: cannot unroll a loop of unexpected shape",
                          hint="please report this recipe")
    base = _aligned_base(node, ub, trip)
    copies = []
    for k in range(trip):
        value = K.simplify(ir.Bin("+", node.init if base is None else base, ir.Num(str(k * node.step))))
        body = _renamed(_decided(K.map_exprs(node.body, lambda e, value=value: K.simplify_any(K.subst(e, {node.var: value})))),
                        names, k, tag)
        # counted from the loop's start, a copy is past it by construction
        guards = _guards(value, node.init if base is not None else value, ub)
        if any(_const(ir.Bin("-", g.b, g.a)) is not None and _const(ir.Bin("-", g.b, g.a)) < 0 for g in guards):
            continue            # a copy that never runs
        cond = None
        for g in guards:
            g = K.simplify_cond(g)
            cond = g if cond is None else ir.Bin("&&", cond, g)
        copies.append(body if cond is None else K.If(cond, body))
        if len(copies) > MAX_COPIES:
            raise RecipeError("unrolling would create too many copies", hint="use smaller unroll factors")
    if not copies:
        return K.Block(())
    return copies[0] if len(copies) == 1 else K.Block(tuple(_flatten(copies)))


_TRUTH = {"<": lambda d: d > 0, "<=": lambda d: d >= 0, ">": lambda d: d < 0, ">=": lambda d: d <= 0,
          "==": lambda d: d == 0, "!=": lambda d: d != 0}


def _truth(c: ir.Expr) -> bool | None:
    """The value of a guard whose comparisons differ by constants (`j - 1 <= j`), else None."""
    if isinstance(c, ir.Bin) and c.op == "&&":
        a, b = _truth(c.a), _truth(c.b)
        return False if False in (a, b) else True if a is True and b is True else None
    if isinstance(c, ir.Bin) and c.op in _TRUTH:
        d = _const(ir.Bin("-", c.b, c.a))
        return None if d is None else _TRUTH[c.op](d)
    return None


def _decided(n: K.Node) -> K.Node:
    """Guards that substituting a copy's value decided (an inner unroll's bounds on the jammed
    loop's variable, `j - 1 <= j && j + 1 <= j`): the copy runs unguarded, or not at all."""
    if isinstance(n, K.If):
        t = _truth(n.cond)
        if t is True:
            return _decided(n.then)
        if t is False:
            return _decided(n.orelse) if n.orelse is not None else K.Block(())
        cond = n.cond
        if isinstance(cond, ir.Bin) and cond.op == "&&":
            kept = [c for c in _conjuncts(cond) if _truth(c) is not True]
            cond = kept[0]
            for c in kept[1:]:
                cond = ir.Bin("&&", cond, c)
        return K.If(cond, _decided(n.then), _decided(n.orelse) if n.orelse is not None else None)
    if isinstance(n, K.For):
        return replace(n, body=_decided(n.body))
    if isinstance(n, K.Block):
        items = [_decided(c) for c in n.items]
        return K.Block(tuple(c for c in items if not (isinstance(c, K.Block) and not c.items)))
    if isinstance(n, K.Mark):
        return K.Mark(n.name, _decided(n.body), n.info)
    return n


def _conjuncts(c: ir.Expr) -> list[ir.Expr]:
    return _conjuncts(c.a) + _conjuncts(c.b) if isinstance(c, ir.Bin) and c.op == "&&" else [c]


def _flatten(items):
    for n in items:
        if isinstance(n, K.Block):
            yield from n.items
        else:
            yield n


def _copy(body: K.Node, var: str, value: ir.Expr) -> K.Node:
    value = K.simplify(value)
    return K.map_exprs(body, lambda e: K.simplify_any(K.subst(e, {var: value})))


def _offset(var: ir.Expr, k: int) -> ir.Expr:
    return ir.Bin("+", var, ir.Num(str(k)))


def strip_mine(node: K.For, factor: int, dim: int, exact: bool = False, names: frozenset = frozenset(),
               tag: str = "") -> K.Node:
    """`for (v = lb; v <= ub; v += s)` as a main loop over whole strips of `factor` iterations
    and a cleanup loop over the rest; a constant trip count needs no loops for the rest, and
    `exact` (the trip count is known to be a multiple of `factor`) none at all.  Both loops
    take the control loop's schedule position `dim`, whose loop is the user's one."""
    ub, s = _upper(node), node.step
    if ub is None or s <= 0:
        return replace(node, dim=dim)            # an unexpected shape stays an (exact) loop
    var, lb, width = ir.Var(node.var), node.init, factor * s
    span = _const(ir.Bin("-", ub, lb))
    if span is not None:
        n = span // s + 1 if span >= 0 else 0
        whole, rest = divmod(n, factor)
        out = []
        if whole > 1:
            out.append(K.For(node.var, lb, K.simplify_cond(ir.Bin("<=", var, ir.Bin("-", ub, ir.Num(str(width - s))))),
                             width, K.Block(tuple(_flatten(_renamed(_copy(node.body, node.var, _offset(var, k * s)), names, k, tag)
                                                           for k in range(factor)))), dim))
        elif whole == 1:
            out += [_renamed(_copy(node.body, node.var, _offset(lb, k * s)), names, k, tag) for k in range(factor)]
        out += [_renamed(_copy(node.body, node.var, _offset(lb, (whole * factor + k) * s)), names, k, tag)
                for k in range(rest)]
        return _block(out)
    main = K.For(node.var, lb, K.simplify_cond(ir.Bin("<=", var, ir.Bin("-", ub, ir.Num(str(width - s))))),
                 width, K.Block(tuple(_flatten(_renamed(_copy(node.body, node.var, _offset(var, k * s)), names, k, tag)
                                               for k in range(factor)))), dim)
    if exact:
        return main
    # the first value past the whole strips, lb + width * floor(x / width) for x = ub - lb + s
    # >= 0; C's truncating % makes it exceed ub when the loop is empty (x < 0), so the
    # cleanup loop needs no guard
    x = K.simplify(ir.Bin("+", ir.Bin("-", ub, lb), ir.Num(str(s))))
    start = K.simplify(ir.Bin("-", ir.Bin("+", ub, ir.Num(str(s))), ir.Bin("%", x, ir.Num(str(width)))))
    cleanup = K.For(node.var, start, node.cond, s, node.body, dim)
    if names:
        # copy k of the jammed strip runs with the locals of copy k: guarded copies, not a loop
        cleanup = unroll_for(cleanup, factor, names, tag)
    return K.Block((main, cleanup))


def _block(items: list) -> K.Node:
    items = list(_flatten(items))
    if not items:
        return K.Block(())
    return items[0] if len(items) == 1 else K.Block(tuple(items))


def _strip(strips: dict, node: K.For):
    leaf = next(K.leaves(node.body), None)
    if leaf is None or node.dim < 0:
        return None
    return strips.get((leaf.stmt, node.dim))


def unroll_marked(node: K.Node, variant: Variant, strips: dict | None = None,
                  loops: frozenset = frozenset(), renames: dict | None = None) -> K.Node:
    """`strips`: (statement, point position) -> (factor, control position, counted, cleanup,
    exact) as poly.trips.strip_table gives it; `loops`: positions of the enclosing loops;
    `renames`: poly.jam_locals.jam_renames of the variant."""
    strips = strips or {}
    renames = jam_renames(variant) if renames is None else renames
    if isinstance(node, K.For):
        body = unroll_marked(node.body, variant, strips, loops | {node.dim}, renames)
        node = K.For(node.var, node.init, node.cond, node.step, body, node.dim)
        names = frozenset().union(*(renames.get((x.stmt, node.dim), ()) for x in K.leaves(body))) \
            if renames else frozenset()
        info = _strip(strips, node)
        d = _marked(variant, node)
        tag = to_user(d.name.rstrip("'")) if d is not None else ""
        if info is not None and info[2]:
            return strip_mine(node, info[0], info[1], info[4], names, tag)
        span = _const(ir.Bin("-", _upper(node), node.init)) if _upper(node) is not None else None
        if d is not None and d.trip > 0:
            if span is None and info is not None and info[3] and info[1] not in loops and not names:
                # the one partial strip (its control value is fixed here, not a loop):
                # a cleanup loop, named as the unrolled loop (copies where the jam gave each
                # copy its own locals: the loop would share one)
                return replace(node, dim=info[1])
            trip = d.trip if span is None else min(d.trip, span // node.step + 1)
            return unroll_for(node, max(trip, 0), names, tag)
        stmts = list(K.statements(node.body))
        if span is not None and stmts and all(isinstance(s, K.Assign) and s.unroll for s in stmts):
            return unroll_for(node, span // node.step + 1)       # register copies
        return node
    if isinstance(node, K.If):
        return K.If(node.cond, unroll_marked(node.then, variant, strips, loops, renames),
                    unroll_marked(node.orelse, variant, strips, loops, renames) if node.orelse is not None else None)
    if isinstance(node, K.Block):
        return K.Block(tuple(_flatten(unroll_marked(c, variant, strips, loops, renames) for c in node.items)))
    if isinstance(node, K.Mark):
        return K.Mark(node.name, unroll_marked(node.body, variant, strips, loops, renames), node.info)
    return node
