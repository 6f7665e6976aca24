"""Hints and renumbering the extractor (extract.py) gives, kept apart to keep it short."""
from __future__ import annotations

import dataclasses

from pycparser import c_ast

from looptx import ir
from looptx.frontend.gathered import data_bound_hint
from looptx.frontend.symbols import all_nodes, c_text


def user_numbers_first(stmts: list, taken: set[str]) -> list:
    """The statements the front end writes (a condition taken before a branch changes what it
    reads, ifconvert.py) are numbered after the user's: the contract numbers the assignments
    of the source in textual order, and a recipe is written from the source.  Their place
    in the schedule is their own."""
    mine = [st for st in stmts if isinstance(st.body.lhs, ir.Ref) and not st.body.lhs.index
            and st.body.lhs.array in taken]
    if not mine:
        return stmts
    ordered = [st for st in stmts if st not in mine] + mine
    return [dataclasses.replace(st, id=k) for k, st in enumerate(ordered)]


def cast_view_hint(cast: c_ast.Cast) -> str:
    """`((double (*)[16])p)[i][j]`: a view the function can name before the region."""
    text = c_text(cast)
    depth, close = 0, 0
    for k, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            close = k
            break
    typ = text[1:close].strip()
    decl = typ.replace("(*)", "(*v)", 1) if "(*)" in typ else f"{typ}v" if typ.endswith("*") else "T *v"
    return f"declare the view before the region, `{decl} = {text};`, and index v"


# LBM's push streaming `fnew[q][x + cx[q]] = f[q][x]` against the pull form looptx reads
WRITE_THROUGH_DATA = ("a write to an element that array data chooses (a table, an index array) is one no "
                      "polyhedral model orders; where each element is written once, write the update as a pull, "
                      "which reads through the table (LBM's `fnew[q][x] = f[q][x - cx[q]]`, which looptx "
                      "transforms), or leave this loop out of the region")


def written_bound_hint(name: str, values, loop, where) -> str:
    """What to do about a bound or subscript that reads a variable the region writes."""
    hint = "only loop iterators and unchanged sizes may appear there"
    if any(v is None for v in values):     # miniAMR's pack: `l++;`
        hint = (f"'{name}' counts as the loops run: write its value from the loop counters instead "
                f"(where it starts plus the iterations before this one, e.g. {name}0 + (i*NJ + j)*NK + k)")
    if values and all(v is not None and any(isinstance(n, c_ast.ArrayRef) or isinstance(n, c_ast.UnaryOp)
                                            and n.op == "*" for n in all_nodes(v)) for v in values):
        # miniMD's `const int numneighs = numneigh[i];` then `k < numneighs`
        hint = f"'{name}' is set from array data: " + data_bound_hint("k")
    if loop is not None:
        hint = (f"the region sets '{name}' before its first loop: mark the loops from line "
                f"{where(loop)[0]} on as the region (#pragma scop ... #pragma endscop), "
                f"and '{name}' is a size they read")
    return hint


def several_set_hint(init, loop) -> str:
    """What to write for a header that sets several variables in a way comma_inits.py does not
    take apart (one read after the iterator is set from it, or stepped with it)."""
    parts = init.exprs if isinstance(init, c_ast.ExprList) else init.decls if isinstance(init, c_ast.DeclList) else []
    names = [p.lvalue.name if isinstance(p, c_ast.Assignment) and isinstance(p.lvalue, c_ast.ID) else
             getattr(p, "name", None) for p in parts]
    names = [n for n in names if n]
    if len(names) < 2:
        return "write for (i = LB; i < UB; i++), and compute another variable of the header from i in the " \
               "body (int t0 = (i + 2) % 3;)"
    return (f"the header sets {', '.join(names)}: looptx reads the others as statements before the loop where "
            "the loop steps its iterator alone and none of them reads the iterator once it is set or is read "
            "by the loop's test; write those assignments before the loop (a bound the region sets, before "
            "the region), and a variable that moves with the iterator from it in the body (t0 = i + 2;)")


def operator_column(text: str, col: int, op: str) -> int:
    """The column of a unary `op` written before column `col` of `text`: pycparser places unary
    operators at their operand."""
    k = col - 2
    while k >= 0 and text[k] in " \t(":
        k -= 1
    return k + 1 if k >= 0 and text[k] == op else col
