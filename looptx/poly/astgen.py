"""isl AST generation for a Variant, converted to KernelAST (looptx IR expressions).

isl callbacks must never raise (pitfall 1): every callback catches, stashes the exception and
returns its input; the caller re-raises after isl returns.
"""
from __future__ import annotations

import re

import islpy as isl

from looptx import ir
from looptx.codegen import ast as K
from looptx.errors import RecipeError
from looptx.poly.scop import items
from looptx.poly.variant import LoopDim, Variant

OP = isl.ast_expr_op_type
BIN = {OP.add: "+", OP.sub: "-", OP.mul: "*", OP.div: "/", OP.pdiv_q: "/", OP.pdiv_r: "%",
       OP.zdiv_r: "%", OP.eq: "==", OP.le: "<=", OP.lt: "<", OP.ge: ">=", OP.gt: ">",
       OP.and_: "&&", OP.and_then: "&&", OP.or_: "||", OP.or_else: "||"}
MAX_OPERATIONS = 4_000_000


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
    def __init__(self, variant: Variant):
        self.v = variant
        self.scop = variant.scop
        self.payload: dict[str, tuple] = {}
        self.errors: list[BaseException] = []

    def at_domain(self, node, build):
        try:
            call = node.user_get_expr()
            sid = int(call.get_op_arg(0).get_id().name[1:])
            s = self.scop.statements[sid]
            sched = isl.Map.from_union_map(build.get_schedule())
            iter_map = isl.PwMultiAff.from_map(sched.reverse())
            refs = []
            for a in s.accesses:
                if self.scop.array(a.array).rank == 0:
                    refs.append((a.ref, ()))
                    continue
                pma = isl.PwMultiAff.from_map(self.scop.access_map(s, a)).pullback_pw_multi_aff(iter_map)
                acc = build.access_from_pw_multi_aff(pma)
                refs.append((a.ref, tuple(expr(acc.get_op_arg(k)) for k in range(1, acc.get_op_n_arg()))))
            key = f"lx{len(self.payload)}"
            self.payload[key] = (sid, tuple(refs))
            return node.set_annotation(isl.Id(key))
        except BaseException as e:          # never raise into isl
            self.errors.append(e)
            return node

    def options(self) -> isl.UnionMap:
        v = self.v
        width = v.width
        names = [f"t{k}" for k in range(width)]
        space = f"[{', '.join(names)}]"
        parts = []
        for p in v.pieces:
            fix = [f"t{k} = {d}" for k, d in enumerate(p.dims) if isinstance(d, int)]
            for k, d in enumerate(p.dims):
                if isinstance(d, LoopDim) and d.unroll:
                    parts.append(f"{space} -> unroll[{k}] : {' and '.join(fix) or '1 = 1'}")
        opts = isl.UnionMap(f"{self.scop.prefix}{{ {'; '.join(parts)} }}") if parts else \
            isl.UnionMap.empty(v.context.get_space())
        for sep in separation_options(v):
            opts = opts.union(sep)
        return opts

    def build(self) -> K.Node:
        ctx = isl.DEFAULT_CONTEXT
        ctx.set_max_operations(MAX_OPERATIONS)
        ctx.reset_operations()
        try:
            b = isl.AstBuild.from_context(self.v.context)
            b = b.set_options(self.options())
            b, keep = b.set_at_each_domain(self.at_domain)
            node = b.node_from_schedule_map(self.v.schedule_map())
            del keep
        except isl.Error as e:
            if self.errors:
                raise self.errors[0]
            if "operations" in str(e).lower() or ctx.last_error_msg() is None:
                raise RecipeError("code generation is too large (too much unrolling?)",
                                  hint="use smaller unroll factors") from None
            raise
        finally:
            ctx.set_max_operations(0)
        if self.errors:
            raise self.errors[0]
        return self.convert(node)

    def convert(self, n) -> K.Node:
        t = n.get_type()
        T = isl.ast_node_type
        if t == T.for_:
            var = n.for_get_iterator().get_id().name
            inc = n.for_get_inc()
            step = inc.get_val().to_python()
            m = re.fullmatch(r"c(\d+)", var)
            return K.For(var, expr(n.for_get_init()), expr(n.for_get_cond()), step,
                         self.convert(n.for_get_body()), int(m.group(1)) if m else -1)
        if t == T.if_:
            orelse = self.convert(n.if_get_else_node()) if n.if_has_else_node() else None
            return K.If(expr(n.if_get_cond()), self.convert(n.if_get_then_node()), orelse)
        if t == T.block:
            return K.Block(tuple(self.convert(c) for c in items(n.block_get_children())))
        if t == T.user:
            call = n.user_get_expr()
            key = n.get_annotation().name
            sid, refs = self.payload[key]
            iters = tuple(expr(call.get_op_arg(k)) for k in range(1, call.get_op_n_arg()))
            return K.Leaf(sid, iters, refs)
        if t == T.mark:
            return K.Mark(n.mark_get_id().name, self.convert(n.mark_get_node()))
        raise RecipeError(f"unsupported isl AST node {t}")


def separation_options(v: Variant) -> list[isl.UnionMap]:
    """Full-tile separation for unrolled loops, so that the unrolled body has no guards and the
    remainder iterations get their own code (isl's separation_class option)."""
    out = []
    width = v.width
    for piece_index, ctrl, factor in v.separate:
        p = v.pieces[piece_index]
        point = _point_dim(p, ctrl)
        if point is None:
            continue
        rng = v.piece_map(p).range()
        pre = rng.project_out(isl.dim_type.set, ctrl + 1, width - ctrl - 1)
        pairs = rng.project_out(isl.dim_type.set, point + 1, width - point - 1) \
                   .project_out(isl.dim_type.set, ctrl + 1, point - ctrl - 1)
        names = [f"t{k}" for k in range(ctrl + 1)]
        window = isl.Set(f"{v.scop.prefix}{{ [{', '.join(names)}, x] : "
                         f"{names[ctrl]} <= x < {names[ctrl]} + {factor} }}")
        box = pre.insert_dims(isl.dim_type.set, ctrl + 1, 1).intersect(window)
        partial = box.subtract(pairs).project_out(isl.dim_type.set, ctrl + 1, 1)
        full = pre.subtract(partial).insert_dims(isl.dim_type.set, ctrl + 1, width - ctrl - 1)
        target = isl.Set(f"{{ separation_class[[{ctrl}] -> [0]] }}")
        out.append(isl.UnionMap.from_map(isl.Map.from_domain_and_range(full, target)))
    return out


def _point_dim(p, ctrl: int) -> int | None:
    for k in range(ctrl + 1, len(p.dims)):
        d = p.dims[k]
        if isinstance(d, LoopDim) and d.unroll and d.hidden:
            return k
    return None


def build_ast(variant: Variant) -> K.Node:
    return _Builder(variant).build()
