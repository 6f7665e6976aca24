"""The affine condition under which C evaluates a reference at all: the branch of a `?:` it
sits in, or the right operand of `&&` / `||`.  darknet's padded pooling reads
`valid ? src[cur] : -FLT_MAX` with `int valid = (cur >= 0 && cur < h)`; the read never reaches
below `src[0]`, and a harness or a host copy sized from the unguarded subscript would refuse
the region or copy memory that is not there.

Guards narrow footprints (what a harness allocates, what a .cu copies) and a read's dependences
(a guard holds wherever C evaluates the reference, so a read stays an over-approximation); a
guarded write stays unconditional in the dependences, which is safe.  Where the model loses a
test of the counters (an unsigned wrap, a `?:`), the access is `inexact` and copies check it."""
from __future__ import annotations

from pycparser import c_ast

from looptx.errors import SourceError
from looptx.frontend.affine import NonAffine
from looptx.frontend.purefuncs import substituted
from looptx.frontend.symbols import all_nodes, int_var

_LOGICAL = ("&&", "||", "<", "<=", ">", ">=", "==", "!=")


def guarded(ex, node, cond, negate: bool):
    """The IR of `node`, which C evaluates only where `cond` is (`negate`: is not) true."""
    ex.guard_lost = False
    guard = guard_of(ex, cond, negate)
    # a test of the iterators the model could not read (`(i >= 1 ? 1 : 0) ? x[i - 1] : 0`): what
    # C reads there is not known, so a copy of it may load only elements that exist
    lost = ex.guard_lost
    ex.inexact_guards += lost
    if guard is not None:
        ex.guards.append(guard)
    try:
        return ex.expr(node)
    finally:
        if guard is not None:
            ex.guards.pop()
        ex.inexact_guards -= lost


def guard_of(ex, cond, negate: bool = False) -> str | None:
    """isl text of `cond` (negated) over the iterators and sizes where it is affine, after
    putting in the value of each flag local it tests; else None.  Leaves `ex` as it was when
    the condition is not affine, and then the reference counts as unconditional.  Of one that
    also tests data, an affine condition it implies: of a conjunction, the affine conjuncts
    (`j + 1 < m && B[i][j] > 0.5`: where C evaluates the reference, j + 1 < m holds; probe 211
    G1), of a disjunction, the disjunction of its sides' (`(i >= 1 && b[i] > 0.5) || i >= 2`:
    i >= 1 or i >= 2; probe 216 G3)."""
    parts = _conjuncts(cond, negate)
    if len(parts) > 1:
        texts = []
        try:
            for c, n in parts:
                # C tests a conjunct only where those before it hold (`i >= 1 && i - 1 < n` of an
                # unsigned i never wraps): its obligations are owed there (ex.guards)
                t = guard_of(ex, c, n)
                if t is not None:
                    texts.append(f"({t})")
                    ex.guards.append(t)
        finally:
            del ex.guards[len(ex.guards) - len(texts):]
        return " and ".join(texts) if texts else None
    node = _flags_put_in(ex, cond)
    if node is None:
        return None
    if node is not cond and len(_conjuncts(node, negate)) > 1:
        # a flag set from a conjunction: all of it where it is affine (darknet's `valid`, whose
        # conjuncts read locals set before the loops), else its affine conjuncts (`int ok = i + 1
        # < n && b[i] > 0.5`)
        whole = _affine_guard(ex, node, negate)
        return whole if whole is not None else guard_of(ex, node, negate)
    text = _affine_guard(ex, node, negate)
    if text is None and isinstance(node, c_ast.BinaryOp) and node.op == ("&&" if negate else "||"):
        # (C tests the right side only where the left fails, which the model cannot say when the
        # left tests data: its obligations are owed wherever the reference is, a stricter demand)
        sides = [guard_of(ex, node.left, negate), guard_of(ex, node.right, negate)]
        text = None if None in sides else f"({sides[0]}) or ({sides[1]})"
    elif text is None and _tests_iterators(ex, node):
        ex.guard_lost = True
    return text


def _tests_iterators(ex, cond) -> bool:
    """Whether `cond` reads a loop's counter other than in a subscript (a test of data,
    `b[i] > 0.5`, bounds no element; `(i >= 1 ? 1 : 0)` may)."""
    iterators = set(ex.iterators())
    todo = [cond]
    while todo:
        n = todo.pop()
        if isinstance(n, c_ast.ID) and n.name in iterators:
            return True
        if isinstance(n, c_ast.ArrayRef):
            todo.append(n.name)
            continue
        todo.extend(ch for _, ch in n.children())
    return False


def _affine_guard(ex, node, negate: bool) -> str | None:
    """isl text of the (negated) condition `node`, flags put in, where all of it is affine."""
    saved = (list(ex.params), len(ex.ctx_obligations), dict(ex.product_names), dict(ex.divisor_names))
    wraps = len(ex.evaluated_obligations)
    try:
        text = ex.cond_text(node, negate)
    except (SourceError, NonAffine):
        text = None
    if len(ex.evaluated_obligations) > wraps:
        # a test C makes on unsigned or narrow values (`j - 3 < 5u`): the model's reading holds
        # only where they do not wrap: kept where the statement's domain proves that (`i + 1 < n`
        # of an unsigned i below n, scopbuild._unproved_guards_dropped), else the reference counts
        # as unconditional
        wrapping = ex.evaluated_obligations[wraps:]
        del ex.evaluated_obligations[wraps:]
        if text is not None and hasattr(ex, "guard_obligations"):
            ex.guard_obligations.extend(_under_guards(ex, wrapping))
        else:
            text = None
    if text is None:
        ex.params[:] = saved[0]
    elif len(ex.ctx_obligations) > saved[1] and hasattr(ex, "guard_obligations"):
        # the guard is modelled exactly where C's `%` and `/` of it match the model's floor
        # (Darknet im2col's `c % ksize` with c >= 0): its statement holds them, as a subscript's
        ex.guard_obligations.extend(_under_guards(ex, ex.ctx_obligations[saved[1]:]))
    elif len(ex.ctx_obligations) > saved[1]:
        ex.params[:] = saved[0]
        text = None
    del ex.ctx_obligations[saved[1]:]
    ex.product_names.clear()
    ex.product_names.update(saved[2])
    ex.divisor_names.clear()
    ex.divisor_names.update(saved[3])
    return text


def _under_guards(ex, obligations) -> list[tuple]:
    """RawStmt.guard_obligations entries (condition, where, guard) of obligations (condition, line,
    col, what, where ...): owed where C evaluates the test, inside the guards around it."""
    return [(ob[0], ob[4], " and ".join(f"({g})" for g in ex.guards)) for ob in obligations]


def _conjuncts(cond, negate: bool) -> list[tuple]:
    """(condition, negated) of each conjunct of `cond` (negated: `!(a || b)` is `!a && !b`)."""
    if isinstance(cond, c_ast.BinaryOp) and cond.op == ("||" if negate else "&&"):
        return _conjuncts(cond.left, negate) + _conjuncts(cond.right, negate)
    if isinstance(cond, c_ast.UnaryOp) and cond.op == "!":
        return _conjuncts(cond.expr, not negate)
    return [(cond, negate)]


def _flags_put_in(ex, cond):
    """`cond` with each flag local replaced by its initializer; None when it tests a local
    whose value at the test is not that initializer's."""
    cond = _comparison_with_zero(ex, cond)
    names = {n.name for n in all_nodes(cond) if isinstance(n, c_ast.ID)}
    if not any(name in ex.local for name in names):
        return cond
    values = {}
    for name in names & set(ex.local):
        value = _flag_value(ex, name)
        if value is None:
            return None
        values[name] = value
    return substituted(cond, values)


def _flag_value(ex, name: str):
    """The initializer of a local set once, at its declaration, from iterators of the loops
    around that declaration and from sizes: its value wherever the name is in scope."""
    init, depth = ex.inits.get(name, (None, 0))
    if init is None or [id(v) for v in ex.assigned.get(name, [])] != [id(init)]:
        return None
    sym = ex.local[name]
    if sym.kind != "var":
        return None
    if not (_is_logical(init) or int_var(sym, ex.lookup)):
        return None
    outer = set(ex.iterators()[:depth])
    inner = set(ex.iterators()[depth:])
    if any(isinstance(n, c_ast.ID) and n.name in inner and n.name not in outer for n in all_nodes(init)):
        return None
    return init


def _comparison_with_zero(ex, cond):
    """`flag != 0` -> `flag`, `flag == 0` -> `!flag` for a local flag: its initializer is often
    a comparison (`valid = (cur >= 0 && cur < h)`), which is no number to compare."""
    if isinstance(cond, c_ast.BinaryOp) and cond.op in ("!=", "=="):
        for flag, other in ((cond.left, cond.right), (cond.right, cond.left)):
            if isinstance(flag, c_ast.ID) and flag.name in ex.local and _is_zero(other):
                return flag if cond.op == "!=" else c_ast.UnaryOp("!", flag, cond.coord)
    if isinstance(cond, c_ast.BinaryOp) and cond.op in ("&&", "||"):
        return c_ast.BinaryOp(cond.op, _comparison_with_zero(ex, cond.left),
                              _comparison_with_zero(ex, cond.right), cond.coord)
    if isinstance(cond, c_ast.UnaryOp) and cond.op == "!":
        return c_ast.UnaryOp("!", _comparison_with_zero(ex, cond.expr), cond.coord)
    return cond


def _is_zero(node) -> bool:
    return isinstance(node, c_ast.Constant) and node.value in ("0", "0u", "0U", "0l", "0L")


def _is_logical(node) -> bool:
    return (isinstance(node, c_ast.BinaryOp) and node.op in _LOGICAL
            or isinstance(node, c_ast.UnaryOp) and node.op == "!")
