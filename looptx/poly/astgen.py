"""isl AST generation for a Variant, converted to KernelAST (looptx IR expressions).

isl callbacks must never raise (pitfall 1): every callback catches, stashes the exception and
returns its input; the caller re-raises after isl returns.
"""
from __future__ import annotations

import re
from dataclasses import replace

import islpy as isl

from looptx import ir
from looptx.codegen import ast as K
from looptx.errors import RecipeError, note_once, signals_deferred
from looptx.poly.ast_check import runs_schedule, trailing_constants_dropped
from looptx.poly.budget import isl_budget
from looptx.poly.functions import pw_function
from looptx.poly.scop import items, union_maps
from looptx.poly.trips import strip_table, strips, unroll_groups
from looptx.poly.variant import Variant

OP = isl.ast_expr_op_type
BIN = {OP.add: "+", OP.sub: "-", OP.mul: "*", OP.div: "/", OP.pdiv_q: "/", OP.pdiv_r: "%",
       OP.zdiv_r: "%", OP.eq: "==", OP.le: "<=", OP.lt: "<", OP.ge: ">=", OP.gt: ">",
       OP.and_: "&&", OP.and_then: "&&", OP.or_: "||", OP.or_else: "||"}
MAX_OPERATIONS = 20_000_000
SEPARATION_OPERATIONS = 4_000_000


def expr(e: isl.AstExpr) -> ir.Expr:
    t = e.get_type()
    if t == isl.ast_expr_type.id:
        return ir.Var(e.get_id().name)
    if t == isl.ast_expr_type.int:
        return ir.Num(str(e.get_val().to_python()))
    op = e.get_op_type()
    args = [expr(e.get_op_arg(k)) for k in range(e.get_op_n_arg())]
    if op in BIN:
        out = ir.Bin(BIN[op], args[0], args[1])
        for a in args[2:]:
            out = ir.Bin(BIN[op], out, a)
        return out
    if op == OP.minus:
        return ir.Un("-", args[0])
    if op in (OP.min, OP.max):
        fn = "lx_min" if op == OP.min else "lx_max"
        out = args[0]
        for a in args[1:]:
            out = ir.Call(fn, (out, a))
        return out
    if op == OP.fdiv_q:
        return ir.Call("lx_floord", (args[0], args[1]))
    if op in (OP.cond, OP.select):
        return ir.Cond(args[0], args[1], args[2])
    if op == OP.call:
        return ir.Call(args[0].name if isinstance(args[0], ir.Var) else str(args[0]), tuple(args[1:]))
    if op == OP.access:
        return ir.Ref(args[0].name, -1, tuple(args[1:]))
    raise RecipeError(f"unsupported isl expression ({op})")


class _Builder:
    def __init__(self, variant: Variant, plan=None, schedule: isl.UnionMap | None = None,
                 context: isl.Set | None = None):
        from looptx.poly.promote import Plan, plan as make_plan, promotions
        if plan is None:
            plan = make_plan(variant) if promotions(variant) else Plan(variant, variant.width)
        self.plan = plan
        self.v = self.plan.variant
        self.schedule = schedule
        self.context = context
        self.syncs = {sy.name for sy in self.plan.syncs}
        self.scop = self.v.scop
        self.copies = {c.name: c for c in self.plan.copies}
        self.payload: dict[str, tuple] = {}
        self.errors: list[BaseException] = []
        # buffer name -> the promotion that made it, so that a failure while generating the
        # accesses to a buffer is reported at the recipe step that asked for it
        self.owner = {c.dst_array if c.direction == "in" else c.src_array: c.promotion
                      for c in self.plan.copies}
        self.apart = self._apart()
        # the GPU mapping addresses schedule positions and loops itself: its unrolls keep the
        # control loops and their guarded partial strips
        self.strips = [] if schedule is not None else strips(
            self.v, self.plan.width, [c.schedule for c in self.plan.copies] + [sy.schedule for sy in self.plan.syncs])

    def _plan_schedule(self) -> isl.UnionMap:
        """The plan's schedule, with the control loop of each counted strip dropped (fixed to 0):
        its point loop then holds the whole loop, which code generation strip-mines from the
        loop's own start (`Strip.counted` says when that keeps the order)."""
        counted = [s for s in self.strips if s.counted]
        if not counted:
            return self.plan.schedule()
        pieces = list(self.v.pieces)
        for s in counted:
            for k in s.members:
                q = pieces[k]
                pieces[k] = replace(q, dims=q.dims[:s.ctrl] + (0,) + q.dims[s.ctrl + 1:])
        u = self.v.evolve(pieces=tuple(pieces)).schedule_map(self.plan.width)
        for m in [c.schedule for c in self.plan.copies] + [sy.schedule for sy in self.plan.syncs]:
            u = u.union(isl.UnionMap.from_map(m))
        return u

    def _piece(self, sid: int, instances: isl.UnionSet) -> int | None:
        pieces = self.v.pieces_of(sid)
        if len(pieces) == 1:
            return pieces[0][0]
        for k, p in pieces:
            if not isl.UnionSet.from_set(self.v.piece_domain(p)).intersect(instances).is_empty():
                return k
        return None

    def _apart(self) -> set[int]:
        """Statements of several pieces (split, peeled, distributed apart).  isl sees one
        relation per statement: it would print the pieces as a loop over their schedule
        position with a test on it (`for (c2 ...) if (c2 == 1)`), and may print instances of two
        pieces in one leaf (a peeled iteration whose loop collapses into its neighbour's), where
        a leaf can only use one piece's buffers."""
        return {s.id for s in self.scop.statements if len(self.v.pieces_of(s.id)) > 1}

    def _by_piece(self, u: isl.UnionMap) -> isl.UnionMap:
        """The pieces of `self.apart` statements as statements of their own, `S<id>_<piece>`, so
        that no leaf mixes them."""
        if not self.apart:
            return u
        out = isl.UnionMap.empty(u.get_space())
        for m in union_maps(u):
            name = m.get_tuple_name(isl.dim_type.in_)
            sid = _stmt_id(name)
            if sid is None or sid not in self.apart:
                out = out.union(isl.UnionMap.from_map(m))
                continue
            for k, p in self.v.pieces_of(sid):
                part = m.intersect_domain(self.v.piece_domain(p))
                if not part.is_empty():
                    out = out.union(isl.UnionMap.from_map(part.set_tuple_name(isl.dim_type.in_, f"{name}_{k}")))
        return out

    def _access(self, build, m: isl.Map, iter_map) -> ir.Ref:
        pma = pw_function(m).pullback_pw_multi_aff(iter_map)
        acc = build.access_from_pw_multi_aff(pma.align_params(build.get_schedule_space()))
        if acc.get_type() == isl.ast_expr_type.id:
            return ir.Ref(acc.get_id().name, -1, ())
        return ir.Ref(acc.get_op_arg(0).get_id().name, -1,
                      tuple(expr(acc.get_op_arg(k)) for k in range(1, acc.get_op_n_arg())))

    def at_domain(self, node, build):
        owner = None
        try:
            call = node.user_get_expr()
            name = call.get_op_arg(0).get_id().name
            sched_u = build.get_schedule()
            iter_map = isl.PwMultiAff.from_map(isl.Map.from_union_map(sched_u).reverse())
            key = f"lx{len(self.payload)}"
            if name in self.syncs:
                self.payload[key] = ("sync",)
                return node.set_annotation(isl.Id(key))
            if name in self.copies:
                c = self.copies[name]
                owner = c.promotion
                dst = self._access(build, c.dst, iter_map)
                src = self._access(build, c.src, iter_map)
                self.payload[key] = ("copy", ir.Ref(dst.array, -1, dst.index), ir.Ref(src.array, -1, src.index),
                                     c.promotion.kind == "registers")
                return node.set_annotation(isl.Id(key))
            sid, _, part = name[1:].partition("_")
            sid = int(sid)
            s = self.scop.statements[sid]
            if part:
                piece = int(part)
            else:
                piece = self._piece(sid, sched_u.domain()) if self.plan.redirect else None
            # access maps start at the statement's own tuple; a piece of its own has another name
            as_leaf = (lambda m: m.set_tuple_name(isl.dim_type.in_, name)) if part else (lambda m: m)
            refs = []
            for a in s.accesses:
                target = self.plan.redirect.get((piece, a.ref))
                if target is not None:
                    buf, m = target
                    owner = self.owner.get(buf)
                    r = self._access(build, as_leaf(m), iter_map)
                    refs.append((a.ref, ir.Ref(buf, a.ref, r.index)))
                    continue
                if self.scop.array(a.array).rank == 0:
                    refs.append((a.ref, ir.Ref(a.array, a.ref, ())))
                    continue
                if any(ir.is_gathered(x) for x in a.index):
                    # no function of the iterators: printed from the statement's own subscripts
                    refs.append((a.ref, ir.Ref(a.array, ir.GATHERED_REF, ())))
                    continue
                r = self._access(build, as_leaf(self.scop.access_map(s, a)), iter_map)
                refs.append((a.ref, ir.Ref(a.array, a.ref, r.index)))
            self.payload[key] = ("stmt", sid, tuple(refs))
            return node.set_annotation(isl.Id(key))
        except BaseException as e:          # never raise into isl
            if isinstance(e, isl.Error) and owner is not None:
                e = owner.error(f"the {owner.kind} of '{owner.array}' at loop '{owner.at}' is too complex "
                                f"to generate code for ({_isl_reason(e)})",
                                hint=f"{owner.kind} at another loop (an inner tile loop gives a smaller "
                                     f"footprint) or drop this step")
                e.copy_access = True
            self.errors.append(e)
            return node

    def _isl_ast(self, context, sched, options):
        b = isl.AstBuild.from_context(context)
        b = b.set_options(options)
        b, keep = b.set_at_each_domain(self.at_domain)
        with signals_deferred():
            node = b.node_from_schedule_map(sched)
        del keep
        return node

    def _generate(self, context, sched, options):
        """isl's AST, read back and checked against the schedule (poly/ast_check.py): where isl
        lost iterations, the same schedule without the options, then without its trailing
        constant dimensions, which isl 0.26 also mishandled (probe 160 G1: a jam's
        `[.., k, 0, i, 0 x 7]` lost every k but the first); refused where each loses some."""
        node = self._isl_ast(context, sched, options)
        if self.errors or runs_schedule(node, sched, context) is not False:
            return node
        no_options = isl.UnionMap.empty(options.get_space())
        tries = [] if options.is_empty() else [(sched, no_options)]
        trimmed = trailing_constants_dropped(sched)
        if trimmed is not None:
            tries.append((trimmed, isl.UnionMap.empty(trimmed.get_space())))
        for other, opts in tries:
            del self.errors[:]
            node = self._isl_ast(context, other, opts)
            if self.errors or runs_schedule(node, other, context) is not False:
                if not options.is_empty():
                    note_once(**_at(self.v.scop), text="isl's code with the unrolled loops' full tiles apart "
                              "does not run every iteration here: each unrolled copy keeps its guard instead")
                return node
        raise RecipeError(f"isl wrote code for region {self.scop.region} that loses iterations of the "
                          f"transformed loops (an isl defect), with and without separating full tiles",
                          hint=_codegen_hint(self.v), **self.scop.where())

    def _within_budget(self, context, sched, options, no_options):
        """The AST of a schedule whose first generation outgrew isl's budget: without
        separating the unrolled loops' full tiles (a peel after a jam gives them many pieces),
        then with every loop atomic (each statement piece's loop written once, its guards
        inside: tiles, peels and shifts of several nests).  Raises when neither fits."""
        isl.DEFAULT_CONTEXT.reset_operations()
        width = union_maps(sched)[0].dim(isl.dim_type.out)
        names = ", ".join(f"t{k}" for k in range(width))
        atomic = no_options
        for k in range(width):
            atomic = atomic.union(isl.UnionMap(f"{{ [{names}] -> atomic[{k}] }}").align_params(no_options.get_space()))
        tries = [(atomic, "every loop is written once per statement piece, with its guards inside: "
                          "isl's search for guard-free pieces outgrew its budget")]
        if options is no_options or not options.is_empty():     # (plain not tried yet)
            tries.insert(0, (no_options, "the unrolled loops keep a guard on each copy: separating their "
                                         "full tiles outgrew isl's budget on this many loop pieces"))
        for k, (opts, why) in enumerate(tries):
            del self.errors[:]
            isl.DEFAULT_CONTEXT.reset_operations()
            try:
                node = self._generate(context, sched, opts)
            except isl.Error as e:
                if "operations" not in str(e) or k == len(tries) - 1:
                    raise
                continue
            note_once(**_at(self.v.scop), text=f"{why} (fewer split, peel or shift steps avoid it)")
            return node

    def options(self) -> isl.UnionMap:
        # unrolling itself is done on KernelAST (codegen.unroll): isl's unroll option is 10-30x
        # slower on jammed multi-statement bodies; isl only separates the full tiles
        opts = isl.UnionMap.empty(self.v.context.get_space())
        skip = {s.key for s in self.strips if s.counted}
        # a budget of its own: the full tiles of a jam's strips over many pieces (a peel after
        # it) took isl a minute to find before the region's budget ran out
        with isl_budget(SEPARATION_OPERATIONS):
            for _, sep in separation_options(self.v, self.plan.width, skip):
                opts = opts.union(sep)
        return opts

    def build(self) -> K.Node:
        try:
            with isl_budget(MAX_OPERATIONS):
                context = self.context if self.context is not None else self.v.context
                sched = self._by_piece(self.schedule if self.schedule is not None else self._plan_schedule())
                # isl (0.26, islpy 2026.2) writes a div of the schedule with the context's
                # parameter at the same position when the two order their parameters
                # differently (`lx_t1 % 2` for `lx_b0 % 2`, a wrong guard): align them first
                context = context.align_params(sched.get_space())
                sched = sched.align_params(context.get_space())
                no_options = options = isl.UnionMap.empty(context.get_space())
                try:
                    options = self.options().align_params(context.get_space())
                    node = self._generate(context, sched, options)
                    if self.errors and getattr(self.errors[0], "copy_access", False) and not options.is_empty():
                        # a copy's access over a piece that the unroll's full-tile separation
                        # left empty ("cannot handle void expression"): the same schedule,
                        # the unrolled copies keeping their guards instead
                        del self.errors[:]
                        node = self._generate(context, sched, no_options)
                except isl.Error as e:
                    # (an overrun in self.options() leaves `options` empty, not tried yet)
                    if "operations" in str(e):
                        node = self._within_budget(context, sched, options, no_options)
                    else:
                        # isl can fail inside its own coalescing ("original tableau does not
                        # correspond to original basic map": a peel of a stepped loop with a min
                        # bound after an empty nest); the same schedule with its equalities made
                        # explicit, then without full-tile separation, is generated instead
                        del self.errors[:]
                        try:
                            node = self._generate(context, sched.detect_equalities(), options)
                        except isl.Error:
                            if options.is_empty():
                                raise
                            del self.errors[:]
                            node = self._generate(context, sched.detect_equalities(),
                                                  isl.UnionMap.empty(options.get_space()))
        except isl.Error as e:
            self.errors.append(e)
        if self.errors:
            e = self.errors[0]
            if isinstance(e, isl.Error):
                # no step is to blame alone: the region's first line is the place to show
                scop = self.v.scop
                raise RecipeError(f"code generation of region {scop.region} failed "
                                  f"({_isl_reason(e)})",
                                  hint=_codegen_hint(self.v), **scop.where()) from None
            raise e
        return self._finish(node)

    def _finish(self, node) -> K.Node:
        from looptx.codegen.dead_loads import without_dead_loads
        from looptx.codegen.guards import pruned
        from looptx.codegen.unroll import unroll_marked
        return without_dead_loads(pruned(unroll_marked(self.convert(node), self.v, strip_table(self.v, self.strips))),
                                  self.v.scop)

    def convert(self, n) -> K.Node:
        t = n.get_type()
        T = isl.ast_node_type
        if t == T.for_:
            var = n.for_get_iterator().get_id().name
            step = n.for_get_inc().get_val().to_python()
            m = re.fullmatch(r"c(\d+)", var)
            return K.For(var, expr(n.for_get_init()), expr(n.for_get_cond()), step,
                         self.convert(n.for_get_body()), int(m.group(1)) if m else -1)
        if t == T.if_:
            orelse = self.convert(n.if_get_else_node()) if n.if_has_else_node() else None
            return K.If(expr(n.if_get_cond()), self.convert(n.if_get_then_node()), orelse)
        if t == T.block:
            # (isl nests a block in a block for each scalar dimension it splits: 360 statements
            # of one loop body were 360 blocks deep, past the recursion limit of the passes after)
            return K.Block(tuple(x for c in items(n.block_get_children()) for x in
                                 (lambda k: k.items if isinstance(k, K.Block) else (k,))(self.convert(c))))
        if t == T.user:
            call = n.user_get_expr()
            payload = self.payload[n.get_annotation().name]
            if payload[0] == "sync":
                return K.Sync()
            if payload[0] == "copy":
                return K.Assign(payload[1], payload[2], payload[3])
            _, sid, refs = payload
            iters = tuple(expr(call.get_op_arg(k)) for k in range(1, call.get_op_n_arg()))
            return K.Leaf(sid, iters, refs)
        if t == T.mark:
            return K.Mark(n.mark_get_id().name, self.convert(n.mark_get_node()))
        raise RecipeError(f"unsupported isl AST node {t}")


def _at(scop) -> dict:
    where = scop.where()
    return dict(file=where["file"], line=where["line"])


def _stmt_id(name: str) -> int | None:
    m = re.fullmatch(r"S(\d+)", name or "")
    return int(m.group(1)) if m else None


def _isl_reason(e: isl.Error) -> str:
    """isl's message without the C call and source location (one short line)."""
    text = str(e).splitlines()[0] if str(e) else "isl error"
    m = re.search(r"failed: (.*?)(?: in /\S+)?$", text)
    return m.group(1) if m else text


def separation_options(v: Variant, width: int | None = None, skip=()) -> list[tuple[int, isl.UnionMap]]:
    """Full-tile separation for unrolled loops, so that the unrolled body has no guards and the
    remainder iterations get their own code (isl's separation_class option).  One class per
    unrolled loop: an iteration is full when all its unrolled values occur.  Where that depends
    on a loop between the control loop and the unrolled one (a jam of trmm's `i` over
    `k = i + 1 ..`: the copy for `i + 1` has no `k = i + 1`), that loop is separated too, so the
    guard goes with the iterations that need it.  `skip`: the unrolls whose control loop is
    dropped (counted strips) need none."""
    width = width or v.width
    out = []
    for (ctrl, pre_key), members in unroll_groups(v).items():
        if (ctrl, pre_key) in skip:
            continue
        first, point, d = members[0]
        innermost = min(pt for _, pt, _ in members)
        outer = None
        for level in [ctrl] + [q for q in range(ctrl + 2, innermost, 2)]:
            full = _full_prefixes(v, members, ctrl, level, point, d, width, outer)
            if full is None:
                continue
            outer = full if level == ctrl else outer
            target = isl.Set(f"{{ separation_class[[{level}] -> [0]] }}")
            out.append((level, isl.UnionMap.from_map(isl.Map.from_domain_and_range(full, target))))
    return out


def _full_prefixes(v: Variant, members, ctrl: int, level: int, point: int, d, width: int, outer=None):
    """The schedule prefixes up to `level` under which every unrolled value of the strip occurs
    (in the whole schedule space), or None below the control loop when they are all or none,
    or when the partial ones all lie in partial iterations of the control loop (`outer`, its
    full prefixes), which the control loop's class separates already."""
    pre = pairs = None
    for k, pt, _ in members:
        rng = v.piece_map(v.pieces[k], width).range()
        pr = rng.project_out(isl.dim_type.set, level + 1, width - level - 1)
        pa = rng.project_out(isl.dim_type.set, pt + 1, width - pt - 1) \
                .project_out(isl.dim_type.set, level + 1, pt - level - 1)
        pre = pr if pre is None else pre.union(pr)
        pairs = pa if pairs is None else pairs.union(pa)
    # (a peel after a jam leaves many pieces, whose subtraction took isl a minute uncoalesced)
    pre, pairs = pre.coalesce(), pairs.coalesce()
    names = [f"t{k}" for k in range(level + 1)]
    # schedule values increase along a loop that runs downwards too (over -i)
    lo, hi = names[ctrl], f"{names[ctrl]} + {d.factor - 1}"
    window = isl.Set(f"{v.scop.prefix}{{ [{', '.join(names)}, x] : {lo} <= x <= {hi} }}")
    box = pre.insert_dims(isl.dim_type.set, level + 1, 1).intersect(window)
    stride = d.factor // max(v.pieces[members[0][0]].dims[point].trip, 1)
    if stride > 1:
        # over `j += 2` the strip holds every other value: only those must occur
        same = ", ".join(names)
        lattice = isl.Map(f"{v.scop.prefix}{{ [{same}, x] -> [{same}, y] : (y - x) mod {stride} = 0 }}")
        box = box.intersect(pairs.apply(lattice))
    partial = box.subtract(pairs).project_out(isl.dim_type.set, level + 1, 1).coalesce()
    full = pre.subtract(partial).coalesce()
    if level != ctrl and (full.is_empty() or partial.intersect(pre).is_empty()):
        return None
    if level != ctrl and outer is not None and partial.intersect(pre).insert_dims(
            isl.dim_type.set, level + 1, width - level - 1).intersect(outer).is_empty():
        # a jam over a rectangle: only the last tile of the control loop is partial
        return None
    return full.insert_dims(isl.dim_type.set, level + 1, width - level - 1)


def build_ast(variant: Variant) -> K.Node:
    return _Builder(variant).build()


def build(variant: Variant):
    """(KernelAST, promotion plan): printers need the plan's buffers to declare them."""
    b = _Builder(variant)
    return b.build(), b.plan


def _codegen_hint(v) -> str:
    """What to try where isl could not write the code: the unroll factors where steps unrolled,
    the sizes where none did (isl's own output of a diamond-tiled stencil, symbolic sizes)."""
    kinds = [h.split(":")[0].strip() for h in v.history]
    cut = sum(k in ("split", "peel") for k in kinds)
    if cut >= 3:
        # each split or peel doubles the pieces the steps after it work on
        return f"{cut} split and peel steps make many pieces: use fewer, or fix the sizes with --define"
    if any(k in ("unroll", "unroll_jam", "unroll_to_depth") for k in kinds):
        return "too much unrolling? use smaller unroll factors"
    free = [p for p in v.scop.params if p not in dict(v.scop.fixed)]
    return (f"fix the sizes with --define (e.g. --define {free[0]}=64)" if free else
            "simplify the recipe, or transform the loops in smaller parts")
