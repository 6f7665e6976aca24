"""Branches on data (`if (x[i] > 0.0) y[i] = x[i]; else y[i] = 0.0;`) as conditional assignments.

A condition that reads arrays cannot be a piece of an iteration domain, but a branch whose
statements only assign can be written without it: each assignment becomes
`lhs = c ? rhs : lhs` (the else branch's `lhs = c ? lhs : rhs`), and two branches that assign the
same place become one `lhs = c ? rhs1 : rhs2`.  That is pet's and PPCG's reading too (a may-write
under a data condition); the model then sees every array the condition reads.  The converted
statements evaluate the condition one after the other, so this is exact only when no branch
statement before the last changes what the condition reads.
"""
from __future__ import annotations

import copy

from pycparser import c_ast

from looptx.errors import SourceError, note_once
from looptx.frontend.affine import NonAffine, c_int_value
from looptx.frontend.symbols import all_nodes, c_text, id_names, volatile_elements
from looptx.frontend.purefuncs import PURE_MATH


CHANGES_CONDITION = "a statement of the branch changes what its condition reads"


def _assignments(node, decls: list | None = None, taken: set | None = None) -> list | None:
    """The branch's statements when they are all assignments (or ++/--), else None.  A
    declaration (LULESH's `Real_t ssc = ...;` in an else) goes to `decls` without its
    initializer, which is an assignment of the branch.  `taken`: the names of the variables
    conditions are taken into (a nested branch that changes what its condition reads)."""
    if node is None:
        return []
    items = (node.block_items or []) if isinstance(node, c_ast.Compound) else [node]
    out = []
    for it in items:
        if isinstance(it, c_ast.If):            # else-if chains, nested branches
            inner, why = if_converted(it, decls, taken)
            if inner is None and why == CHANGES_CONDITION and taken is not None and decls is not None:
                inner = _condition_taken(it, decls, taken)
            if inner is None:
                return None
            out += inner
            continue
        if isinstance(it, c_ast.Decl) and decls is not None and it.name and not it.storage:
            bare = copy.copy(it)
            bare.init = None
            decls.append(bare)
            if it.init is not None:
                out.append(c_ast.Assignment("=", c_ast.ID(it.name, it.coord), it.init, it.coord))
            continue
        if isinstance(it, c_ast.UnaryOp) and it.op in ("p++", "++", "p--", "--"):
            it = c_ast.Assignment("+=" if "+" in it.op else "-=", it.expr,
                                  c_ast.Constant("int", "1", it.coord), it.coord)
        if not isinstance(it, c_ast.Assignment):
            return None
        out.append(it)
    return out


def needs_condition_temporary(node: c_ast.If) -> bool:
    """Whether branch_on_data takes the condition of `node` into a variable of its own (a
    statement the region numbers after its own): a branch that changes what it reads."""
    return if_converted(node, [])[1] == CHANGES_CONDITION


def _written(a: c_ast.Assignment) -> str | None:
    base = a.lvalue
    while isinstance(base, c_ast.ArrayRef):
        base = base.name
    return base.name if isinstance(base, c_ast.ID) else None


def _value(a: c_ast.Assignment):
    """The value `a` stores, as an expression (`lhs + rhs` for `lhs += rhs`)."""
    if a.op == "=":
        return a.rvalue
    return c_ast.BinaryOp(a.op[:-1], copy.deepcopy(a.lvalue), a.rvalue, a.coord)


def _condition_taken(node: c_ast.If, decls: list, taken: set, line=None, col=None) -> list | None:
    """SHOC MD's `if (r2inv < cutsq) { r2inv = 1.0 / r2inv; ... }`: the condition is taken
    once, into a variable of its own, before the first statement changes what it reads."""
    line = line if line is not None else node.coord.line
    col = col if col is not None else node.coord.column
    name = f"lx_c{line}_{col}"
    # two branches of one macro's expansion (PIX_SORT twice on a line) share a place
    name = next(f"{name}_{k}" for k in range(2, 1000) if f"{name}_{k}" not in taken) if name in taken else name
    again, _ = if_converted(c_ast.If(c_ast.ID(name, node.coord), node.iftrue, node.iffalse, node.coord), decls, taken)
    if again is None:
        return None
    int_type = c_ast.TypeDecl(name, [], None, c_ast.IdentifierType(["int"]), node.coord)
    decls.insert(0, c_ast.Decl(name, [], [], [], [], int_type, None, None, node.coord))
    taken.add(name)
    return [c_ast.Assignment("=", c_ast.ID(name, node.coord), node.cond, node.coord)] + again


def if_converted(node: c_ast.If, decls: list | None = None,
                 taken: set | None = None) -> tuple[list[c_ast.Assignment] | None, str]:
    """(the branch as conditional assignments, '') or (None, why it cannot be); `decls`
    collects the branch's declarations (see _assignments)."""
    then, other = _assignments(node.iftrue, decls, taken), _assignments(node.iffalse, decls, taken)
    if then is None or other is None:
        return None, "a branch with such a condition may hold only assignments and declarations"
    cond = node.cond
    read = id_names(cond)
    other = _in_order_of(then, other)
    if then and len(then) == len(other) and all(c_text(a.lvalue) == c_text(b.lvalue) for a, b in zip(then, other)) \
            and not any(_written(a) in read or _written(a) is None for a in then[:-1]):
        # both arms set the same places in the same order (Livermore 15's `r = ...; s = ...;` in
        # each): one `lhs = c ? v1 : v2` each, which reads no earlier value of lhs (so `r` stays
        # private to the iteration); before each, the places hold the taken arm's values
        return [c_ast.Assignment("=", a.lvalue, c_ast.TernaryOp(copy.deepcopy(cond), _value(a), _value(b), a.coord),
                                 a.coord) for a, b in zip(then, other)], ""
    stmts = then + other
    if any(_written(a) in read or _written(a) is None for a in stmts[:-1]):
        return None, CHANGES_CONDITION
    out = []
    for k, a in enumerate(stmts):
        keep = copy.deepcopy(a.lvalue)
        value = _value(a)
        pick = c_ast.TernaryOp(copy.deepcopy(cond), value, keep, a.coord) if k < len(then) \
            else c_ast.TernaryOp(copy.deepcopy(cond), keep, value, a.coord)
        out.append(c_ast.Assignment("=", a.lvalue, pick, a.coord))
    return out, ""


def _in_order_of(then: list, other: list) -> list:
    """The other arm's assignments in the order the first arm sets the same places (`{ r = ...;
    s = ...; }` against `{ s = ...; r = ...; }`), where its order does not matter: each place set
    once, and no assignment reading a place the arm sets.  Else `other` as it is."""
    places = [c_text(a.lvalue) for a in then]
    theirs = [c_text(b.lvalue) for b in other]
    if places == theirs or sorted(places) != sorted(theirs) or len(set(places)) != len(places):
        return other
    set_here = {_written(b) for b in other}
    if None in set_here or any(id_names(b) & set_here - {_written(b)} for b in other) \
            or any(_written(b) in id_names(b.rvalue) or isinstance(b.lvalue, c_ast.ArrayRef) for b in other):
        return other
    by_place = dict(zip(theirs, other))
    return [by_place[p] for p in places]


def branch_on_data(ex, node: c_ast.If, e) -> None:
    """An if whose condition reads data, as conditional assignments (`ex`: the region's
    Extractor).  Without an else, the affine conjuncts of its condition (`i < n - 1 && x[i] > 0`)
    stay a piece of the domain, so that the assignment's target is touched only where the
    original could touch it."""
    affine, data = [], []
    if node.iffalse is None:
        for c in conjuncts(node.cond):
            try:
                affine.append(ex.cond_text(c))
            except SourceError:
                data.append(c)
    if affine and data:
        cond = data[0]
        for c in data[1:]:
            cond = c_ast.BinaryOp("&&", cond, c, c.coord)
        node = c_ast.If(cond, node.iftrue, None, node.coord)
    # (names taken only where the branch converts: a first try that fails leaves none behind)
    decls, taken = [], set(ex.taken_conditions)
    converted, why = if_converted(node, decls, taken)
    if converted is None and why == CHANGES_CONDITION:
        decls, taken = [], set(ex.taken_conditions)
        converted = _condition_taken(node, decls, taken, *ex.where(node))
    if converted is not None:
        ex.taken_conditions |= taken
        _refuse_volatile_targets(ex, converted)
    if converted is None:
        calls = [n.name.name for n in all_nodes(node) if isinstance(n, c_ast.FuncCall)
                 and isinstance(n.name, c_ast.ID) and n.name.name not in ex.pure
                 and n.name.name not in PURE_MATH]
        loops = any(isinstance(n, (c_ast.For, c_ast.While, c_ast.DoWhile)) for n in all_nodes(node))
        if calls and not loops and why.startswith("a branch with such"):
            # NPB's `if (timeron) timer_stop(t_rhs);` between two nests of one region
            e.hint = (f"the branch calls '{calls[0]}', which a region cannot hold: mark the loop nests "
                      "around it as regions of their own (#pragma scop ... #pragma endscop), so the call stays outside")
        elif not ex.loops and why.startswith("a branch with such"):
            # HPCCG's waxpby: `if (alpha == 1.0) { for ... } else { for ... }` chooses a nest
            e.hint = ("the branch chooses between loop nests: mark each nest as a region of its own "
                      "(#pragma scop ... #pragma endscop around it), so the condition stays outside")
        elif loops and not (id_names(node.cond) & (ex.written | set(ex.iterators()))) and not calls:
            # DGEMM's `if (*beta == 0.) { for i ... } else { for i ... }` inside its j loop
            e.hint = ("the condition reads nothing the region changes, and its branches hold loops: put the "
                      "`if` outside the loops around it (a region for each branch), as CHiLL needs too")
            raise e
        else:
            e.hint = f"{e.hint}; or write the branch as conditional assignments, x = c ? v : x ({why})"
            raise (None if loops else _refused_write(ex, node)) or e
        raise e
    line, col = ex.where(node)
    data = any(isinstance(n, c_ast.ArrayRef) for n in all_nodes(node.cond)) \
        or bool(id_names(node.cond) & (ex.written - set(ex.iterators())))
    what = "a branch on data (array elements or variables the region sets)" if data else \
        f"a branch on a condition that is not affine ('{c_text(node.cond)}')"
    note_once(ex.filename, line, f"{what} is modelled, and printed, as conditional assignments (x = c ? v : x)"
              + _chained_comparison(node.cond), col=col)
    for d in decls:
        ex.declaration(d)
    ex.conds.extend(affine)
    try:
        for a in converted:
            ex.statement(a)
    finally:
        del ex.conds[len(ex.conds) - len(affine):]


_COMPARE = ("<", "<=", ">", ">=", "==", "!=")


def _chained_comparison(cond) -> str:
    """`0 < i < 5` is C's `(0 < i) < 5`, always true: a slip worth naming."""
    for n in all_nodes(cond):
        if isinstance(n, c_ast.BinaryOp) and n.op in _COMPARE and isinstance(n.left, c_ast.BinaryOp) \
                and n.left.op in _COMPARE:
            ranged = {n.op, n.left.op} <= {"<", "<=", ">", ">="}
            return (f"; there C compares {c_text(n.left)}, which is 0 or 1, with {c_text(n.right)}"
                    + (f" (for a range, write {c_text(n.left)} && {c_text(n.left.right)} {n.op} {c_text(n.right)})"
                       if ranged else ""))
    return ""


def _refuse_volatile_targets(ex, assignments) -> None:
    """`x = c ? v : x` reads and writes x where the branch does not: of a volatile object those
    are accesses the program makes (a device register), not a value kept."""
    for a in assignments:
        base = a.lvalue
        while isinstance(base, c_ast.ArrayRef):
            base = base.name
        sym = ex.symbol(base.name) if isinstance(base, c_ast.ID) else None
        if sym is not None and volatile_elements(sym):
            raise ex.error(a.lvalue, f"a branch on data writes the volatile '{base.name}': as conditional assignments "
                                     "(x = c ? v : x) it would read and write it where the branch does not",
                           "keep the branch outside the region, or compute into a plain array and copy it out after")


def _refused_write(ex, node) -> SourceError | None:
    """The refusal a write of the branch gets whatever its condition (Devito's source injection
    `u[t2][ii_src_0 + 4] += r0`, with ii_src_0 computed from the data before the branch): a
    subscript that is not affine.  Conditional assignments would not help, so it comes first."""
    inside = {n.name for n in all_nodes(node) if isinstance(n, c_ast.Decl) and n.name}
    for n in all_nodes(node):
        target = n.lvalue if isinstance(n, c_ast.Assignment) else \
            n.expr if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--") else None
        subs, base = [], target
        while isinstance(base, c_ast.ArrayRef):
            subs.append(base.subscript)
            base = base.name
        for sub in reversed(subs):
            if id_names(sub) & inside:
                continue        # a temporary of the branch, which the front end may substitute
            try:
                ex.translator().translate(sub)
            except NonAffine as err:
                what = err.what.replace("non-affine: ", "").replace("non-affine ", "")
                return ex.error(target, f"non-affine subscript of '{c_text(base)}': {what}",
                                "a write needs subscripts affine in loop iterators and parameters: a place "
                                "computed from the data is outside the model")
    return None


def condition_problem(what: str) -> str:
    what = what.replace("non-affine: ", "")
    if what.startswith("array element"):
        return "it reads array data"
    # `if (alpha == 1.0)`, `if (y == x)` of pointers: no index or bound is involved
    return what.replace(" used in an index or bound", " is not a loop iterator or an integer size")


def conjuncts(cond) -> list:
    if isinstance(cond, c_ast.BinaryOp) and cond.op == "&&":
        return conjuncts(cond.left) + conjuncts(cond.right)
    return [cond]


def is_mod(node) -> bool:
    return isinstance(node, c_ast.BinaryOp) and node.op == "%"


def sign_free_mod(cmp: c_ast.BinaryOp):
    """The `%` side of a comparison with the constant 0 (`(i + j) % 2 == 0`), else None: C's
    remainder, rounded toward zero, is 0 exactly where isl's floor remainder is, for any sign."""
    for mod, other in ((cmp.left, cmp.right), (cmp.right, cmp.left)):
        if is_mod(mod) and isinstance(other, c_ast.Constant) and other.value.rstrip("uUlL") in ("0", "00", "0x0"):
            return mod
    return None


_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


def sign_free_quotient(cmp: c_ast.BinaryOp):
    """The `/` side of a comparison with a constant whose truth C's quotient, rounded toward
    zero, and isl's floor share for any sign (`(i - 5) / 2 > 0`): for a negative dividend both
    are <= 0, so `q > c` and `q <= c` with c >= 0, `q >= c` and `q < c` with c >= 1, agree; else
    None."""
    for q, other, op in ((cmp.left, cmp.right, cmp.op), (cmp.right, cmp.left, _FLIPPED.get(cmp.op))):
        c = _constant_value(other)
        # `q - 1 > 0` is `q > 1`
        while c is not None and isinstance(q, c_ast.BinaryOp) and q.op in ("+", "-") \
                and _constant_value(q.right) is not None:
            c, q = c - _constant_value(q.right) if q.op == "+" else c + _constant_value(q.right), q.left
        if not (isinstance(q, c_ast.BinaryOp) and q.op == "/") or op not in _FLIPPED:
            continue
        if c is not None and (c >= 0 if op in (">", "<=") else c >= 1):
            return q
    return None


def _constant_value(node) -> int | None:
    sign = 1
    while isinstance(node, c_ast.UnaryOp) and node.op in ("-", "+"):
        sign, node = (-sign if node.op == "-" else sign), node.expr
    if isinstance(node, c_ast.Constant) and node.type.endswith("int"):
        try:
            return sign * c_int_value(node.value)
        except ValueError:
            return None
    return None
