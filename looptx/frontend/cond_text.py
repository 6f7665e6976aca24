"""Conditions of `if`s and `?:`s as isl constraints (frontend/extract.Extractor.cond_text), with
the obligations of what C evaluates in them."""
from __future__ import annotations

from pycparser import c_ast

from looptx.errors import SourceError
from looptx.frontend.affine import NonAffine
from looptx.frontend.ifconvert import condition_problem, is_mod, sign_free_mod, sign_free_quotient
from looptx.frontend.int_types import unsigned_comparison

CMP_FLIP = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


def condition_text(ex, node, negate: bool = False) -> str:
    """`node` (negated where `negate`) as isl constraints over the extractor `ex`'s names."""
    if isinstance(node, c_ast.BinaryOp) and node.op in ("&&", "||"):
        op = {"&&": "and", "||": "or"}[node.op]
        if negate:
            op = "or" if op == "and" else "and"
        left = condition_text(ex, node.left, negate)
        # C evaluates the right side only where the left one leaves the outcome open:
        # `i >= 0 && i / 2 < 3` divides no negative i
        ex.conds.append(left if negate == (node.op == "||") else condition_text(ex, node.left, node.op == "||"))
        try:
            return f"({left} {op} {condition_text(ex, node.right, negate)})"
        finally:
            ex.conds.pop()
    if isinstance(node, c_ast.UnaryOp) and node.op == "!":
        return condition_text(ex, node.expr, not negate)
    if isinstance(node, c_ast.BinaryOp) and node.op in CMP_FLIP:
        op = CMP_FLIP[node.op] if negate else node.op
        free = sign_free_mod(node) if op in ("==", "!=") else sign_free_quotient(node)
        try:
            a, b = ex.affine_text(node.left, free), ex.affine_text(node.right, free)
        except SourceError as e:
            e.what = "non-affine condition: " + condition_problem(e.what)
            # a size's value makes it affine, as in a bound (CMSIS-NN's `stride * j`)
            e.hint = e.hint if e.hint and "--define" in e.hint else \
                "conditions must be affine comparisons of iterators and parameters"
            raise
        unsigned_comparison(ex, node, a, b)
        if op == "==":
            return f"({a}) = ({b})"
        if op == "!=":
            return f"(({a}) < ({b}) or ({a}) > ({b}))"
        return f"({a}) {op} ({b})"
    try:
        ex.translator().translate(node)
    except NonAffine as e:
        raise ex.error(node, "non-affine condition: " + condition_problem(e.what),
                       "conditions must be affine comparisons of iterators and parameters") from None
    # C's truth of an integer: `if (i % 4)`, `if (!(i % 2))`, `if (flag)`
    a = ex.affine_text(node, node if is_mod(node) else None)
    return f"({a}) = 0" if negate else f"(({a}) < 0 or ({a}) > 0)"
