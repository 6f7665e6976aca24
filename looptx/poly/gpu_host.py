"""The host side of a CUDA region as a tree: the loops that stay on the host (isl's AST of the
launch schedule) with one Launch per kernel instance, carrying the kernel's host-loop
arguments and its grid size at that instance."""
from __future__ import annotations

import re

import islpy as isl

from looptx.codegen import ast as K
from looptx.poly.astgen import expr
from looptx.poly.functions import pw_function
from looptx.poly.scop import items
from looptx.poly.variant import Variant


def host_tree(v: Variant, kern, plans, launch: isl.UnionMap) -> K.Node:
    payload = {}
    errors = []

    def at_domain(node, build):
        # isl's callbacks swallow Python exceptions: kept and raised after the build
        try:
            call = node.user_get_expr()
            n = int(call.get_op_arg(0).get_id().name[1:])
            sched = isl.Map.from_union_map(build.get_schedule())
            iter_map = isl.PwMultiAff.from_map(sched.reverse())
            args = [expr(call.get_op_arg(k)) for k in range(1, call.get_op_n_arg())]
            host = [args[p] for p in kern[n].host_dims]
            grid = []
            for m in plans[n].grid:
                pa = pw_function(m.set_tuple_name(isl.dim_type.in_, f"L{n}")).get_pw_aff(0)
                pa = pa.pullback_pw_multi_aff(iter_map).align_params(build.get_schedule_space())
                grid.append(expr(build.expr_from_pw_aff(pa)))
            key = f"h{len(payload)}"
            payload[key] = (n, tuple(host), tuple(grid))
            return node.set_annotation(isl.Id(key))
        except BaseException as e:
            errors.append(e)
            return node
    # aligned parameters: see _Builder.build in astgen (isl misplaces divs otherwise)
    context = v.context.align_params(launch.get_space())
    b = isl.AstBuild.from_context(context)
    b, keep = b.set_at_each_domain(at_domain)
    hnode = b.node_from_schedule_map(launch.align_params(context.get_space()))
    del keep
    if errors:
        raise errors[0]

    def conv(nd):
        t = nd.get_type()
        T = isl.ast_node_type
        if t == T.for_:
            var = nd.for_get_iterator().get_id().name
            m = re.fullmatch(r"c(\d+)", var)
            return K.For(var, expr(nd.for_get_init()), expr(nd.for_get_cond()),
                         nd.for_get_inc().get_val().to_python(), conv(nd.for_get_body()),
                         int(m.group(1)) if m else -1)
        if t == T.if_:
            return K.If(expr(nd.if_get_cond()), conv(nd.if_get_then_node()),
                        conv(nd.if_get_else_node()) if nd.if_has_else_node() else None)
        if t == T.block:
            return K.Block(tuple(conv(c) for c in items(nd.block_get_children())))
        n, host, grid = payload[nd.get_annotation().name]
        return K.Launch(n, v.pieces[kern[n].pieces[0]].stmt, host, grid)
    return conv(hnode)
