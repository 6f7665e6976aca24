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
from looptx.errors import InternalStepError, RecipeError
from looptx.frontend.names import to_user
from looptx.codegen.code_facts import conjuncts, isl_cond, isl_text, loop_facts, nested
from looptx.poly.loop_span import runs_at_most, whole_strips
from looptx.poly.jam_locals import (copy_name, copy_number, jam_control, jam_offsets, jam_renames, root_of,
                                    strip_start)
from looptx.poly.variant import LoopDim, Variant

MAX_COPIES = 4096
ROLLED_PARTIAL = 64     # statements the guarded copies of a partial strip may hold


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


def unroll_for(node: K.For, trip: int, names: frozenset = frozenset(), tag: str = "", first: int = 0,
               strip: ir.Expr | None = None) -> K.Node:
    """`first`: the jammed copy the loop's first iteration is; `strip`: the value of a jam's
    strip's first copy, where copies are counted from it (_point_start)."""
    ub = _upper(node)
    if ub is None or node.step <= 0:
        raise InternalStepError("internal: cannot unroll a loop of unexpected shape",
                          hint="please report this recipe")
    base = strip if strip is not None else _aligned_base(node, ub, trip)
    copies = []
    for k in range(trip):
        value = K.simplify(ir.Bin("+", node.init if base is None else base, ir.Num(str(k * node.step))))
        body = _renamed(_decided(K.map_exprs(node.body, lambda e, value=value: K.simplify_any(K.subst(e, {node.var: value})))),
                        names, first + k, tag)
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


def _truth(c: ir.Expr) -> bool | None:
    """The value of a guard whose comparisons differ by constants (`j - 1 <= j`), else None."""
    if isinstance(c, ir.Num):
        return K._int(c) != 0 if K._int(c) is not None else None
    if isinstance(c, ir.Bin) and c.op == "||":
        a, b = _truth(c.a), _truth(c.b)
        return True if True in (a, b) else False if a is False and b is False else None
    if isinstance(c, ir.Bin) and c.op == "&&":
        a, b = _truth(c.a), _truth(c.b)
        return False if False in (a, b) else True if a is True and b is True else None
    if isinstance(c, ir.Bin) and c.op in K.CMP_TRUTH:
        d = _const(ir.Bin("-", c.b, c.a))
        return None if d is None else K.CMP_TRUTH[c.op](d)
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
            kept = [c for c in conjuncts(cond) if _truth(c) is not True]
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


def _flatten(items):
    for n in items:
        if isinstance(n, K.Block):
            yield from n.items
        else:
            yield n


def _copy(body: K.Node, var: str, value: ir.Expr) -> K.Node:
    value = K.simplify(value)
    return _decided(K.map_exprs(body, lambda e: K.simplify_any(K.subst(e, {var: value}))))


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
    if exact and _const(node.init) is None and any(
            any(isinstance(x, ir.Var) and x.name == node.var for x in ir.walk(n.cond)) for n in K.nodes(node.body, K.If)):
        # isl started the loop off the strips and guards its first points off inside (the
        # second part of a split at `i` of an unrolled j: `for (j = i; ...) if (j >= (6 - j) % 2
        # + i)`): its bounds hold whole strips only with those guards, so the rest needs a loop
        exact = False
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
    renames = jam_renames(variant) if renames is None else renames
    if not renames:
        return _unroll_marked(node, variant, strips or {}, loops, renames)
    node = _unroll_marked(_fixed_copies(node, variant, renames, loops), variant, strips or {}, loops, renames)
    return _copies_named(node, -1)


_FIXED = "lx_fixed_copy"
_FIRST = "lx_first_copy"


def _point_start(node: K.For, variant: Variant, renames: dict, where: tuple, controls: dict) -> tuple:
    """Where a jam's point loop `node` counts its copies from, where isl does not start it at
    the strip's first copy (the copies a triangular loop's last strip still runs, `for (c5 =
    n - c3 - 2; c5 <= c1 + 2; ...)`, `for (c5 = j; ...)`), which unroll_for would name copy 0:
    ('strip', the strip's first value: its control loop's variable (`controls`: position ->
    variable), or what the control is fixed to); () where the loop starts there."""
    leaf = next((x for x in K.leaves(node.body) if renames.get((x.stmt, node.dim))), None)
    if leaf is None:
        return ()
    control = jam_control(variant, leaf.stmt, node.dim)
    if control in controls:
        base = ir.Var(controls[control])
    else:
        iters = variant.scop.statements[leaf.stmt].iterators
        values = {it: t for it, t in zip(iters, map(isl_text, leaf.iters)) if t is not None}
        init, ub = isl_text(node.init), isl_text(_upper(node)) if _upper(node) is not None else None
        own = [f"{node.var} >= {init}"] * (init is not None) + [f"{node.var} <= {ub}"] * (ub is not None)
        # the loops inside `node` are no names there: the strip must not depend on them
        inner = {n.var for n in K.nodes(node, K.For)} - set(controls.values())
        base = strip_start(variant, leaf.stmt, node.dim, values, where + tuple(own), tuple(sorted(inner)))
        if base is None and isinstance(node.init, ir.Num) and control is not None and control not in controls:
            # isl ran the strips' control and point loops as one loop from a constant (an
            # unrolled loop inside a jam: llm.c layernorm's `xs` under unroll i, then
            # unroll_jam t): its first iteration starts the first strip
            return ()
        if base is None:
            raise InternalStepError(f"internal: cannot tell which jammed copy an instance of statement {leaf.stmt} is",
                              hint="please report this recipe; unrolling the inner loop by a factor that "
                                   "divides its trip count avoids it")
    return () if K.simplify(ir.Bin("-", node.init, base)) == ir.Num("0") else ("strip", base)


def _fixed_copies(node: K.Node, variant: Variant, renames: dict, loops: frozenset, where: tuple = (),
                  controls: dict | None = None) -> K.Node:
    """Each statement under `node` that is a copy of a jam whose point loop isl fixed to one
    value (it writes no loop of one iteration: the last strip of a jam of a triangular loop,
    `if (i == 4) { acc__lag1 += ... }`), marked with the copy it is: its variables are named
    where that loop would have been unrolled (_copies_named), after those of the loops inside
    it, as unroll_for names them.  `where`: what the loops and branches around `node` give
    their variables (isl texts; the copy is told from them: `lag = c1 + 1` with c1 even)."""
    if isinstance(node, K.For):
        known = loop_facts(node)
        controls = dict(controls or {})
        start = _point_start(node, variant, renames, where, controls)
        controls[node.dim] = node.var
        inner = replace(node, body=_fixed_copies(node.body, variant, renames, loops | {node.dim}, where + known,
                                                 controls))
        return K.Mark(_FIRST, inner, start) if start else inner
    if isinstance(node, K.If):
        cond, other = isl_cond(node.cond), isl_cond(node.cond, negate=True)
        return K.If(node.cond, _fixed_copies(node.then, variant, renames, loops, where + (cond,) * (cond is not None),
                                             controls),
                    _fixed_copies(node.orelse, variant, renames, loops, where + (other,) * (other is not None), controls)
                    if node.orelse is not None else None)
    if isinstance(node, K.Block):
        return K.Block(tuple(_fixed_copies(c, variant, renames, loops, where, controls) for c in node.items))
    if isinstance(node, K.Mark):
        return K.Mark(node.name, _fixed_copies(node.body, variant, renames, loops, where, controls), node.info)
    if not isinstance(node, K.Leaf):
        return node
    fixed = [p for st, p in renames if st == node.stmt and p not in loops and renames[(st, p)]]
    if not fixed:
        return node
    iters = variant.scop.statements[node.stmt].iterators
    values = {it: t for it, t in zip(iters, map(isl_text, node.iters)) if t is not None}
    info, splits = [], []
    for p in fixed:
        d = next((q.dims[p] for _, q in variant.pieces_of(node.stmt) if p < len(q.dims)), None)
        tag = to_user(d.name.rstrip("'")) if isinstance(d, LoopDim) else ""
        k = copy_number(variant, node.stmt, p, values, where)
        if k is None:
            splits.append((p, tag))     # the copy varies with the loops around: one branch per copy
            continue
        info.append((p, k, tag, renames[(node.stmt, p)]))
    # per varying jam, (the test that picks a copy, or None where it is known; the copy); two
    # jams with remainder strips each (NekRS's axhelm at p_Nq = 7) nest their branches
    choices = []
    for p, tag in splits:
        point, offsets = jam_offsets(variant, node.stmt, p)
        base = strip_start(variant, node.stmt, p, values, where)
        if point not in iters or base is None or not offsets:
            raise InternalStepError(f"internal: cannot tell which jammed copy an instance of statement {node.stmt} is",
                              hint="please report this recipe; unrolling the inner loop by a factor that "
                                   "divides its trip count avoids it")
        offset = K.simplify(ir.Bin("-", node.iters[iters.index(point)], base))
        copies = [(o, (p, k, tag, renames[(node.stmt, p)])) for k, o in enumerate(offsets)]
        if isinstance(offset, ir.Num):          # the copy is known after all: no `if (0 == 1)`
            known = [c for o, c in copies if str(o) == offset.text]
            if not known:
                return K.Block(())
            choices.append([(None, known[0])])
        else:
            choices.append([(K.simplify_cond(ir.Bin("==", offset, ir.Num(str(o)))), c) for o, c in copies])

    def branches(n: int, chosen: tuple) -> K.Node:
        if n == len(choices):
            return K.Mark(_FIXED, node, tuple(info) + chosen)
        if choices[n][0][0] is None:
            return branches(n + 1, chosen + (choices[n][0][1],))
        return K.Block(tuple(K.If(cond, branches(n + 1, chosen + (c,))) for cond, c in choices[n]))
    return branches(0, ())


def _copies_named(node: K.Node, outside: int) -> K.Node:
    """The marks of _fixed_copies under `node` whose point loop is inside the loop at position
    `outside` applied (innermost first), and dropped once none is left."""
    if isinstance(node, K.For):
        return replace(node, body=_copies_named(node.body, outside))
    if isinstance(node, K.If):
        return K.If(node.cond, _copies_named(node.then, outside),
                    _copies_named(node.orelse, outside) if node.orelse is not None else None)
    if isinstance(node, K.Block):
        return K.Block(tuple(_copies_named(c, outside) for c in node.items))
    if not isinstance(node, K.Mark):
        return node
    if node.name != _FIXED:
        return K.Mark(node.name, _copies_named(node.body, outside), node.info)
    body, left = node.body, []
    for p, k, tag, names in sorted(node.info, key=lambda x: -x[0]):
        if p > outside:
            body = _renamed(body, names, k, tag)
        else:
            left.append((p, k, tag, names))
    return K.Mark(_FIXED, body, tuple(left)) if left else body


def _thread_dims(variant: Variant) -> frozenset:
    """The schedule positions of the GPU thread loops, which sequential C runs as loops: a
    register copy's loop there copies each thread's own registers (unrolled at fixed sizes, 16
    x 16 threads gave 256 copy nests that gcc took minutes over)."""
    from looptx.poly.gpu import mappings
    out = set()
    for m in mappings(variant):
        q = next((p for p in variant.pieces if p.stmt == m.stmt), None)
        out |= {q.position_of(t) for t in m.thread} if q is not None else set()
    return frozenset(out - {None})


def _unroll_marked(node: K.Node, variant: Variant, strips: dict, loops: frozenset, renames: dict,
                   start: tuple = (), where: tuple = ()) -> K.Node:
    """`start`: how a jam's point loop counts its copies (_point_start); `where`: what the
    loops and branches around `node` give their variables (isl texts)."""
    if isinstance(node, K.For):
        body = _unroll_marked(node.body, variant, strips, loops | {node.dim}, renames, where=where + loop_facts(node))
        if renames:
            body = _copies_named(body, node.dim)
        node = K.For(node.var, node.init, node.cond, node.step, body, node.dim)
        names = frozenset().union(*(renames.get((x.stmt, node.dim), ()) for x in K.leaves(body))) \
            if renames else frozenset()
        info = _strip(strips, node)
        d = _marked(variant, node)
        tag = to_user(d.name.rstrip("'")) if d is not None else ""
        if info is not None and info[2]:
            if start:
                raise InternalStepError("internal: a strip of a jam that starts past its first copy",
                                  hint="please report this recipe")
            exact = info[4] and _whole(node, variant, info[0], where)
            return strip_mine(node, info[0], info[1], exact, names, tag)
        span = _const(ir.Bin("-", _upper(node), node.init)) if _upper(node) is not None else None
        if d is not None and d.trip > 0:
            if span is None and info is not None and info[3] and info[1] not in loops and not names:
                # the one partial strip (its control value is fixed here, not a loop):
                # a cleanup loop, named as the unrolled loop (copies where the jam gave each
                # copy its own locals: the loop would share one)
                return replace(node, dim=info[1])
            trip = d.trip if span is None or start[:1] == ("strip",) else min(d.trip, span // node.step + 1)
            if not start and (span // node.step >= d.trip if span is not None else
                              not _within(node, variant, trip, where)):
                return _strided(node, max(trip, 0), names, tag, info[1] if info is not None else
                                _control_of(variant, node, d))
            if span is None and not names and trip * sum(1 for _ in K.statements(node.body)) > ROLLED_PARTIAL \
                    and _partial(node, variant, trip, where):
                # a partial strip of a large unroll-and-jam stays a loop, as CHiLL's and Orio's
                # cleanup loops do: guarded copies of each statement for each of its iterations
                # made SPAPT's gesummv at unroll 168 inside tiles of 2048 21,799 lines that gcc
                # compiled for minutes (named as the unrolled loop)
                return replace(node, dim=info[1] if info is not None else _control_of(variant, node, d))
            return unroll_for(node, max(trip, 0), names, tag, start[1] if start[:1] == ("first",) else 0,
                              start[1] if start[:1] == ("strip",) else None)
        stmts = list(K.statements(node.body))
        if span is not None and stmts and all(isinstance(s, K.Assign) and s.unroll for s in stmts) \
                and node.dim not in _thread_dims(variant):
            return unroll_for(node, span // node.step + 1)       # register copies
        return node
    if isinstance(node, K.If):
        cond, other = isl_cond(node.cond), isl_cond(node.cond, negate=True)
        return K.If(node.cond, _unroll_marked(node.then, variant, strips, loops, renames,
                                              where=where + (cond,) * (cond is not None)),
                    _unroll_marked(node.orelse, variant, strips, loops, renames,
                                   where=where + (other,) * (other is not None)) if node.orelse is not None else None)
    if isinstance(node, K.Block):
        return K.Block(tuple(_flatten(_unroll_marked(c, variant, strips, loops, renames, where=where)
                                      for c in node.items)))
    if isinstance(node, K.Mark) and node.name == _FIRST:
        return _unroll_marked(node.body, variant, strips, loops, renames, node.info, where)
    if isinstance(node, K.Mark):
        return K.Mark(node.name, _unroll_marked(node.body, variant, strips, loops, renames, where=where), node.info)
    return node


def _within(node: K.For, variant: Variant, trip: int, where: tuple) -> bool:
    """Whether the loop runs at most `trip` iterations: copies counted from its start then
    cover it."""
    ub = _upper(node)
    if ub is None or trip <= 0 or _aligned_base(node, ub, trip) is not None:
        return True
    most = trip * node.step - 1        # over `j += 2`, j + 3 is past the strip's two values
    if any(_const(ir.Bin("-", hi, lo)) is not None and _const(ir.Bin("-", hi, lo)) <= most
           for lo in nested(node.init, "lx_max") for hi in nested(ub, "lx_min")):
        return True
    return _spans_at_most(node, variant, most, where)


def _spans_at_most(node: K.For, variant: Variant, most: int, where: tuple) -> bool:
    """Whether the loop's last value is at most `most` past its first, wherever it runs."""
    ub = _upper(node)
    lo, hi = isl_text(node.init), isl_text(ub) if ub is not None else None
    return lo is not None and hi is not None and runs_at_most(variant, lo, hi, most, where)


def _partial(node: K.For, variant: Variant, trip: int, where: tuple) -> bool:
    """Whether the loop runs fewer than `trip` iterations wherever it runs: a strip's remainder,
    not whole strips isl left unseparated (those are unrolled, with guards)."""
    return _spans_at_most(node, variant, (trip - 1) * node.step - 1, where)


def _control_of(variant: Variant, node: K.For, d: LoopDim) -> int:
    """The schedule position of the control loop of the unrolled point loop `d`."""
    leaf = next(K.leaves(node.body))
    for _, p in variant.pieces_of(leaf.stmt):
        for k, x in enumerate(p.dims):
            if isinstance(x, LoopDim) and x.name == d.name.rstrip("'"):
                return k
    return node.dim


def _whole(node: K.For, variant: Variant, factor: int, where: tuple) -> bool:
    """Whether this loop of an unroll whose strips are all whole runs whole strips itself
    (loop_span.whole_strips)."""
    ub = _upper(node)
    lo, hi = isl_text(node.init), isl_text(ub) if ub is not None else None
    return lo is not None and hi is not None and whole_strips(variant, lo, hi, node.step, factor, where)


def _strided(node: K.For, trip: int, names: frozenset, tag: str, dim: int) -> K.Node:
    """A point loop isl printed wider than its strip (loop_span): a loop stepping by the
    factor over it, each iteration `trip` guarded copies, named as the unrolled loop."""
    var, most = ir.Var(node.var), (trip - 1) * node.step
    ub = _upper(node)
    strip = K.For(node.var, var, ir.Bin("<=", var, ir.Call("lx_min", (ub, ir.Bin("+", var, ir.Num(str(most)))))),
                  node.step, node.body, node.dim)
    return K.For(node.var, node.init, node.cond, trip * node.step, unroll_for(strip, trip, names, tag), dim)
