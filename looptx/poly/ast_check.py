"""Whether an isl AST runs exactly the instances its schedule map says, each once, under the C
meaning of the AST's expressions.

isl (0.26, islpy 2026.2) can write a wrong AST.  Asked to separate full tiles
(`separation_class`), the unroll by 2 of `for (i = n / 2 + 4; i >= -3; i -= 2) for (j = 0; j <=
(i + 8) % 3 + 3; j++)` lost row i = 6 past j = 0 at n = 8 (probe 158 G1); without options, a
jam's schedule `[.., j, 0, k, 0, i]` padded with seven zero dimensions lost every k but the
first (probe 160 G1), and was right without the padding.  So each AST is read back into isl
sets and compared with the schedule; the caller (astgen._generate) tries the other forms where
they differ.
"""
from __future__ import annotations

import re

import islpy as isl

from looptx.poly.budget import isl_budget
from looptx.poly.scop import items, union_maps

OP = isl.ast_expr_op_type
CHECK_OPERATIONS = 1_000_000       # (a check that outgrows it gives no verdict: the AST is kept)
# Each min/max bound of a loop splits where the loops inside it run in two, so a nest of eight
# tiled loops was read over 256 pieces, and the statement's arguments over products of them:
# 1.7 GB inside the operation budget (probe 228 G2).  Past this many pieces: no verdict.
CHECK_PIECES = 64
_CMP = {OP.eq: "eq_set", OP.le: "le_set", OP.lt: "lt_set", OP.ge: "ge_set", OP.gt: "gt_set"}


def _iterator_dim(name: str) -> int | None:
    """The schedule dimension of isl's loop iterator `c<k>`."""
    m = re.fullmatch(r"c(\d+)", name)
    return int(m.group(1)) if m else None


class _Unreadable(Exception):
    """An AST expression this reading does not model (then no verdict is given)."""


class _Reader:
    def __init__(self, space: isl.Space, context: isl.Set):
        self.universe = isl.Set.universe(space).intersect_params(context)
        self.where = self.universe          # where the expression read now is evaluated
        self.local = isl.LocalSpace.from_space(space)

    def value(self, e: isl.AstExpr) -> isl.PwAff:
        t = e.get_type()
        if t == isl.ast_expr_type.int:
            return isl.PwAff.val_on_domain(self.universe, e.get_val())
        if t == isl.ast_expr_type.id:
            k = _iterator_dim(e.get_id().name)
            if k is not None:
                return isl.PwAff.var_on_domain(self.local, isl.dim_type.set, k).intersect_domain(self.universe)
            return isl.PwAff.param_on_domain_id(self.universe, e.get_id())
        op = e.get_op_type()
        args = [e.get_op_arg(k) for k in range(e.get_op_n_arg())]
        if op in (OP.cond, OP.select):
            test = self.truth(args[0])
            yes, no = self.value(args[1]), self.value(args[2])
            return yes.intersect_domain(test).union_add(no.subtract_domain(test))
        vals = [self.value(a) for a in args]
        if op == OP.minus:
            return vals[0].neg()
        if op in (OP.add, OP.sub, OP.mul, OP.min, OP.max):
            out = vals[0]
            for v in vals[1:]:
                out = getattr(out, {OP.add: "add", OP.sub: "sub", OP.mul: "mul",
                                    OP.min: "min", OP.max: "max"}[op])(v)
            return out
        if op == OP.fdiv_q:                     # printed as lx_floord
            return vals[0].div(vals[1]).floor()
        # the rest are printed as C's `/` and `%`, which truncate: read them so, whatever
        # isl knew of the dividend's sign
        if op in (OP.div, OP.pdiv_q, OP.pdiv_r, OP.zdiv_r):
            if self.where.is_subset(vals[0].nonneg_set()):
                # (where isl was right about the sign, floor is truncation, in one piece)
                q = vals[0].div(vals[1]).floor()
            else:
                q = vals[0].tdiv_q(vals[1])
            return q if op in (OP.div, OP.pdiv_q) else vals[0].sub(q.mul(vals[1]))
        raise _Unreadable(str(op))

    def truth(self, e: isl.AstExpr) -> isl.Set:
        if e.get_type() != isl.ast_expr_type.op:
            return self.value(e).non_zero_set()
        op = e.get_op_type()
        args = [e.get_op_arg(k) for k in range(e.get_op_n_arg())]
        if op in _CMP:
            return getattr(self.value(args[0]), _CMP[op])(self.value(args[1]))
        if op in (OP.and_, OP.and_then):
            return self.truth(args[0]).intersect(self.truth(args[1]))
        if op in (OP.or_, OP.or_else):
            return self.truth(args[0]).union(self.truth(args[1]))
        return self.value(e).non_zero_set()

    def leaves(self, node: isl.AstNode, where: isl.Set, enclosing: tuple[int, ...], out: list) -> None:
        """(statement name, {[c] -> S[args]} where it runs, the loops around it) per leaf."""
        t = node.get_type()
        T = isl.ast_node_type
        self.where = where
        if t == T.for_:
            k = _iterator_dim(node.for_get_iterator().get_id().name)
            if k is None:
                raise _Unreadable("iterator")
            c = isl.PwAff.var_on_domain(self.local, isl.dim_type.set, k).intersect_domain(self.universe)
            init = self.value(node.for_get_init())
            if node.for_is_degenerate():
                runs = c.eq_set(init)
            else:
                step = node.for_get_inc().get_val()
                if not step.is_pos():
                    raise _Unreadable("step")
                runs = c.ge_set(init).intersect(self.truth(node.for_get_cond()))
                runs = runs.intersect(c.sub(init).mod_val(step).zero_set())
            self.leaves(node.for_get_body(), _few_pieces(where.intersect(runs)), enclosing + (k,), out)
        elif t == T.if_:
            test = self.truth(node.if_get_cond())
            self.leaves(node.if_get_then_node(), where.intersect(test), enclosing, out)
            if node.if_has_else_node():
                self.leaves(node.if_get_else_node(), where.subtract(test), enclosing, out)
        elif t == T.block:
            for child in items(node.block_get_children()):
                self.leaves(child, where, enclosing, out)
        elif t == T.mark:
            self.leaves(node.mark_get_node(), where, enclosing, out)
        elif t == T.user:
            call = node.user_get_expr()
            name = call.get_op_arg(0).get_id().name
            args = [self.value(call.get_op_arg(k)) for k in range(1, call.get_op_n_arg())]
            if not args:
                graph = isl.Map.from_domain_and_range(where, isl.Set(f"{{ {name}[] }}").align_params(where.get_space()))
            else:
                graph = args[0].as_map()
                for a in args[1:]:
                    graph = graph.flat_range_product(a.as_map())
                graph = graph.set_tuple_name(isl.dim_type.out, name).intersect_domain(where)
            out.append((name, graph, enclosing))
        else:
            raise _Unreadable(str(t))


def _few_pieces(where: isl.Set) -> isl.Set:
    if where.n_basic_set() > CHECK_PIECES:
        where = where.coalesce()
        if where.n_basic_set() > CHECK_PIECES:
            raise _Unreadable("too many pieces")
    return where


def _iterators(node: isl.AstNode) -> list[int]:
    found: list[int] = []

    def visit(n):
        if n.get_type() == isl.ast_node_type.for_:
            k = _iterator_dim(n.for_get_iterator().get_id().name)
            found.append(-1 if k is None else k)
        return True
    node.foreach_descendant_top_down(visit)
    return found


def _onto(m: isl.Map, keep: tuple[int, ...]) -> isl.Map:
    """m with its input dims other than `keep` projected out."""
    for k in reversed(range(m.dim(isl.dim_type.in_))):
        if k not in keep:
            m = m.project_out(isl.dim_type.in_, k, 1)
    return m


def runs_schedule(node: isl.AstNode, sched: isl.UnionMap, context: isl.Set) -> bool | None:
    """True when the AST runs each instance of `sched`'s domain (within `context`) once and
    nothing else; False when it does not; None when an expression could not be read or the
    check outgrew its budget (the order of the instances is isl's to keep: it is not checked)."""
    maps = {m.get_tuple_name(isl.dim_type.in_): m.intersect_params(context) for m in union_maps(sched)}
    if not maps:
        return True
    space = next(iter(maps.values())).range().get_space()
    # (a schedule that is not one-to-one gets loops past its width)
    width = max([space.dim(isl.dim_type.set) - 1] + _iterators(node)) + 1
    space = space.add_dims(isl.dim_type.set, width - space.dim(isl.dim_type.set))
    try:
        with isl_budget(CHECK_OPERATIONS):
            reader = _Reader(space, context)
            leaves: list = []
            reader.leaves(node, reader.universe, (), leaves)
            seen = {name: m.domain().subtract(m.domain()) for name, m in maps.items()}
            for name, graph, enclosing in leaves:
                if name not in maps:
                    return False
                # (isl may scale a strided loop's iterator, `c1` for 2i: the iterators are
                # compared with the instances they run, not with the schedule's values)
                graph = _onto(graph, enclosing)
                if not graph.is_injective():
                    return False
                # (not coalesced alone: isl's coalesce (islpy 2026.2.2) crashed, SIGSEGV, on the range of a
                # 2-D thread copy's graph in a padded convolution, probe 200 G1; the union is)
                ran = graph.range().align_params(seen[name].get_space())
                if not ran.intersect(seen[name]).is_empty():
                    return False
                seen[name] = seen[name].union(ran).coalesce()
            return all(seen[name].is_equal(m.domain()) for name, m in maps.items())
    except (_Unreadable, isl.Error):
        # (an overrun of the budget, or an isl failure of the check's own: no verdict, and the
        # AST isl wrote is kept, as it was before this check existed)
        return None


def trailing_constants_dropped(sched: isl.UnionMap) -> isl.UnionMap | None:
    """`sched` without its last dimensions where every statement has the same constant (the
    plan's padding: they order nothing), None where there are none."""
    maps = union_maps(sched)
    width = maps[0].dim(isl.dim_type.out) if maps else 0
    keep = width
    while keep > 1:
        vals = [m.plain_get_val_if_fixed(isl.dim_type.out, keep - 1) for m in maps]
        if any(v.is_nan() for v in vals) or len({v.to_python() for v in vals}) != 1:
            break
        keep -= 1
    if keep == width:
        return None
    out = isl.UnionMap.empty(sched.get_space())
    for m in maps:
        out = out.union(isl.UnionMap.from_map(m.project_out(isl.dim_type.out, keep, width - keep)))
    return out
