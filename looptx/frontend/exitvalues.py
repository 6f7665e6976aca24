"""A loop iterator read after its loop.  C leaves it at the value that ended the loop, so
PolyBench 3.2's fdtd-apml writes `clf[iz][iy]` after `for (iy = 0; iy < Cym; iy++)`, meaning
`clf[iz][Cym]` (for Cym >= 0).  That value is affine in what bounds the loop, so the read is
modelled as it: `(0 > Cym ? 0 : Cym)`, the lower bound when the loop does not run.

The value holds where the read is in the same iteration of the loops around the finished
loop and under the same branches, and until something writes the iterator again."""
from __future__ import annotations

import copy

from pycparser import c_ast

from looptx.frontend.purefuncs import substituted
from looptx.frontend.symbols import all_nodes

_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


def exit_value(node: c_ast.For, it: str, lb, step: int):
    """The iterator's value after `for (it = lb; it OP end; ...)` by steps of one, or None."""
    cond = node.cond
    if abs(step) != 1 or not isinstance(cond, c_ast.BinaryOp) or cond.op not in _FLIP:
        return None
    op, left, right = cond.op, cond.left, cond.right
    if _is(right, it) and not _is(left, it):
        op, left, right = _FLIP[op], right, left
    if not _is(left, it) or _reads(right, it):
        return None
    one = c_ast.Constant("int", "1", cond.coord)
    end = {("<", 1): right, ("<=", 1): c_ast.BinaryOp("+", right, one, cond.coord),
           (">", -1): right, (">=", -1): c_ast.BinaryOp("-", right, one, cond.coord)}.get((op, step))
    if end is None:
        return None
    past = c_ast.BinaryOp(">" if step > 0 else "<", copy.deepcopy(lb), end, cond.coord)
    return c_ast.TernaryOp(past, copy.deepcopy(lb), copy.deepcopy(end), cond.coord)


def context(ex) -> tuple:
    """Where the extractor is: the loops around it (their places and iterators) and the
    branches it is under."""
    return tuple(ex.loop_positions), tuple(ex.iterators()), tuple(ex.conds)


def finished(ex, it: str, value) -> None:
    """Record the loop over `it` that just ended (its value, or None when unknown)."""
    ex.exits[it] = (value, context(ex))


def stale_read(ex, node, name: str):
    """The error for a read of a finished loop's iterator whose value is not in effect: the
    model has no write of it, and a new order of the loops could leave another value."""
    return ex.error(node, f"'{name}' is read after its loop, where looptx does not follow the value the loop "
                          "left in it (the read is outside the loops or branches around that loop, or the "
                          "loop's step is not 1)", f"write the value '{name}' holds there instead")


def in_effect(ex) -> dict:
    """name -> value of the finished loops whose value the current place reads."""
    here = context(ex)
    out = {}
    for name, (value, (positions, iters, conds)) in ex.exits.items():
        d = len(positions)
        if value is None:
            continue
        if here[0][:d] == positions and here[1][:d] == iters and here[2][:len(conds)] == conds:
            out[name] = value
    return out


def put_in(ex, node, skip=None):
    """`node` with the finished loops' iterators it reads replaced by their values; `skip`:
    a child not to touch (an assignment's target)."""
    values = in_effect(ex)
    if not values or not any(isinstance(n, c_ast.ID) and n.name in values for n in all_nodes(node)):
        return node
    if skip is None:
        return substituted(node, values)
    out = copy.copy(node)
    for name, child in node.children():
        if child is not skip and "[" not in name:
            setattr(out, name, substituted(child, values))
    return out


def _is(node, name: str) -> bool:
    return isinstance(node, c_ast.ID) and node.name == name


def _reads(node, name: str) -> bool:
    return any(_is(n, name) for n in all_nodes(node))


def inner_counters(stmt) -> frozenset[str]:
    """The function's variables that loops inside `stmt` count with (`for (k = 0; ...)`; a
    `for (int k ...)` has a variable of its own, which nothing outside reads)."""
    # a variable the body declares is a new one in each iteration: no earlier loop's value
    declared = {n.name for n in all_nodes(stmt) if isinstance(n, c_ast.Decl)}
    return frozenset(n.init.lvalue.name for n in all_nodes(stmt) if isinstance(n, c_ast.For)
                     and isinstance(n.init, c_ast.Assignment) and isinstance(n.init.lvalue, c_ast.ID)) - declared


def earlier_run_read(ex, node, name: str):
    """The error for a read, ahead of a loop that counts with `name`, inside a loop around
    both: from that loop's second iteration on, it reads what the inner loop left (`s = k;`
    before `for (k = 0; k < m; k++)`), which the model, reading `name` as a size, would not."""
    if name not in ex.exits and any(name in counted for counted in ex.counted_inside):
        return ex.error(node, f"'{name}' is read where a loop of the region that counts with it has run before, "
                              "in an earlier iteration of the loops around both, so it holds the value that loop "
                              "left, which looptx does not follow",
                        f"write the value '{name}' holds there instead (or read it into a variable before the "
                        "region)")
    return None


def check_counter_scopes(items, where, path: str) -> None:
    """A loop that declares its own counter (`for (int k = ...)`) hides a variable of the same
    name only inside it: a `k` the region reads or writes outside such loops (the function's
    `k`, or a `int k = 1;` of a block) is another variable, which the model, naming both `k`,
    would take for the loop's (probes 131 G1, 138 G1)."""
    from pycparser import c_ast as C
    from looptx.errors import SourceError
    loops = [n for it in items for n in all_nodes(it) if isinstance(n, C.For) and isinstance(n.init, C.DeclList)]
    own = {d.name for n in loops for d in n.init.decls}
    if not own:
        return
    names = {n.name for it in items for n in all_nodes(it) if isinstance(n, C.ID)}

    def visit(node, declared: dict):
        if _void_read(node, C):
            # (looptx's own output writes `(void)i;` for a function's counter no loop uses)
            return
        if isinstance(node, C.ID):
            # ("inner": the loop's body declares its counter again, which the extractor refuses
            # as shadowing, with its own message)
            if node.name in own and declared.get(node.name) not in ("loop", "inner"):
                line, col = where(node)
                loop = next(n for n in loops if node.name in {d.name for d in n.init.decls})
                fresh = next(f"{node.name}{k}" for k in range(2, 10 ** 6) if f"{node.name}{k}" not in names)
                raise SourceError(f"'{node.name}' here is another variable than the counter '{node.name}' that "
                                  f"the loop at line {where(loop)[0]} declares (`for (int {node.name} ...)`): "
                                  "looptx names both alike", hint=f"rename the loop's counter (e.g. {fresh})",
                                  file=path, line=line, col=col)
            return
        if isinstance(node, C.For) and isinstance(node.init, C.DeclList):
            declared = {**declared, **{d.name: "loop" for d in node.init.decls}}
        elif isinstance(node, C.For) and _assigned_counter(node.init, C) in own:
            # `for (i = 0; ...)` of the function's `i` beside a `for (int i ...)`: inside it, `i`
            # is that loop's counter either way (looptx's fallback for a narrow counter keeps the
            # region as written beside loops that declare theirs); a read after it is not
            counter = _assigned_counter(node.init, C)
            declared = {**declared, counter: declared.get(counter) or "loop"}
        if isinstance(node, C.Compound):
            for item in node.block_items or ():
                visit(item, declared)
                if isinstance(item, C.Decl):
                    declared = {**declared, item.name: "inner" if declared.get(item.name) in ("loop", "inner")
                                else "block"}
            return
        for name, child in node.children():
            if not (isinstance(node, C.StructRef) and name == "field"):
                visit(child, declared)
    for it in items:
        visit(it, {})


def _assigned_counter(init, C):
    """The variable a loop's `i = 0` initialization sets, else None."""
    if isinstance(init, C.Assignment) and init.op == "=" and isinstance(init.lvalue, C.ID):
        return init.lvalue.name
    return None


def _void_read(node, C) -> bool:
    """`(void)x;` or `(void)&x;`: reads nothing, whichever `x` it names."""
    if not (isinstance(node, C.Cast) and isinstance(node.to_type.type, C.TypeDecl)
            and getattr(node.to_type.type.type, "names", None) == ["void"]):
        return False
    e = node.expr
    return isinstance(e, C.ID) or (isinstance(e, C.UnaryOp) and e.op == "&" and isinstance(e.expr, C.ID))
