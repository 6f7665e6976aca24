"""Declarations inside a region (Extractor.declaration): scalars and fixed-size arrays are
hoisted to the region's top without their initializers, which become assignments in place."""
from __future__ import annotations

import copy
import re
from dataclasses import replace

from pycparser import c_ast

from looptx.frontend.symbols import all_nodes, c_text, symbol_of, typedefs_resolved


def _refuse_pointer_init(ex, node: c_ast.Decl) -> None:
    """The two pointer locals no rewriting can read as an array plus an offset, named for what
    they are: a cast to another element type (OpenCV's `(const ushort *)(src + y*sstep)`), a
    pointer loaded from memory (HPCG's `matrixValues[i]`)."""
    # a name the region declares again is renamed `B__2` (redeclared.py): the user wrote `B`
    init, name = node.init, re.sub(r"__\d+$", "", node.name)
    loaded = init
    while isinstance(loaded, c_ast.Cast):
        loaded = loaded.expr
    # HPCCG's `(const double * const) A->ptr_to_vals_in_row[i]`: the load is the reason, the
    # cast (which may only add const) is not
    if isinstance(loaded, c_ast.ArrayRef) or isinstance(loaded, c_ast.UnaryOp) and loaded.op == "*":
        init = loaded
    while isinstance(init, c_ast.Cast) and isinstance(init.expr, c_ast.Cast):
        init = init.expr
    if isinstance(init, c_ast.Cast):
        raise ex.error(node, f"pointer '{name}' reads its array through a cast to another element type "
                       f"({c_text(init.to_type)}), which the model of the array's elements does not hold",
                       "pass the data as an array of the type the region reads (its row step in elements), "
                       "or mark a region that reads the array as it is declared")
    if isinstance(init, c_ast.ArrayRef) or isinstance(init, c_ast.UnaryOp) and init.op == "*":
        raise ex.error(node, f"pointer '{name}' is loaded from memory ({c_text(init)}): the elements it "
                       "reaches depend on data (a jagged or compressed-row layout), which no affine "
                       "access describes", "transform the loops over a dense array, or leave this loop "
                       "nest out of the region")


def declare(ex, node: c_ast.Decl) -> None:
    """A declaration inside the region: the local's symbol, hoisted to the region's top, and
    its initializer as an assignment in place."""
    sym = symbol_of(node, ex.spellings)
    if sym is None or sym.kind not in ("var", "array"):
        raise ex.error(node, "unsupported declaration inside the region",
                       "declare scalars and fixed-size arrays only")
    if sym.kind == "array" and any(not d for d in sym.dims):
        _refuse_pointer_init(ex, node)
        raise ex.error(node, f"pointer declaration '{node.name}' inside the region",
                       f"looptx reads a pointer local set to an array plus an offset ({node.name} = a + off) "
                       f"only where the code uses nothing but its elements ({node.name}[i]) and changes neither "
                       f"it nor its offset; pass the array and the offset instead of '{node.name}' where it "
                       "is used as a whole (a call), or declare it outside the region")
    if "static" in (node.storage or []):
        raise ex.error(node, f"static declaration of '{node.name}' inside the region",
                       "declare it outside the region")
    if ex.lookup(node.name) is not None:
        # the declaration is hoisted to the top of the region, where it would hide the
        # outer variable from the region's other uses of the name
        raise ex.error(node, f"'{node.name}' is declared inside the region and also outside it",
                       "rename the inner variable")
    # Hoisted without its initializer (which reads values of this iteration) and without
    # const (it is assigned once per iteration): the initializer becomes an assignment,
    # a statement in place.  One hoisted variable serves every iteration; the dependences
    # are those of C's object per iteration (private_depth), and legality also checks that
    # a new order never overlaps the lifetimes of two iterations' values in that variable.
    bare = copy.copy(node)
    bare.init = None
    # code of looptx's own (a harness, a .cu) has no typedefs of the file: LULESH's `Real_t`
    plain, spelled = (re.sub(r"\bconst\s+", "", text) for text in (c_text(typedefs_resolved(bare, ex.lookup)),
                                                                     ex.spellings.text(bare)))
    attrs = _attributes(ex, node)
    if attrs:
        # `double t __attribute__((unused))`: without it the hoisted variable warns under -Wall
        plain, spelled = (f"{text} {attrs}" for text in (plain, spelled))
    sym = replace(sym, decl_text=plain, spelled_decl=spelled if spelled != plain else "")
    known = ex.local.get(node.name)
    if known is not None and (known.ctype, known.dims) != (sym.ctype, sym.dims):
        raise ex.error(node, f"'{node.name}' is declared twice in the region with different types",
                       "rename one of them")
    ex.private_depth[node.name] = 0 if known is not None else len(ex.loops)
    ex.local[node.name] = sym
    if node.init is not None:
        ex.inits[node.name] = (node.init, len(ex.loops))
        if sym.kind != "var":
            raise ex.error(node, "array initializers inside the region are not supported",
                             "declare the array before the region (at file scope, as `static const` "
                             "for constant weights such as a 3x3 kernel), or mark only the loops "
                             "around it as the region with #pragma scop, or assign the elements in a loop")
        ex.statement(c_ast.Assignment("=", c_ast.ID(node.name, node.coord), node.init, node.coord))


def _attributes(ex, node: c_ast.Decl) -> str:
    """The GNU attributes written on a declaration's line (the preprocessing drops them from
    the parse), between the statement's start and the initializer or end."""
    if ex.line_text is None or node.coord is None:
        return ""
    line, col = ex.where(node)
    text = ex.line_text(line) or ""
    head = re.split(r"[=;]", text[text.rfind(";", 0, max(0, col - 1)) + 1:], maxsplit=1)[0]
    if not re.search(rf"\b{re.escape(node.name)}\b", head):
        return ""
    found = []
    for m in re.finditer(r"__attribute__\s*\(", head):
        depth, end = 0, None
        for k in range(m.end() - 1, len(head)):
            depth += {"(": 1, ")": -1}.get(head[k], 0)
            if depth == 0:
                end = k + 1
                break
        if end is not None:
            found.append(head[m.start():end])
    return " ".join(found)


def refuse_pointer_swaps(ex, items) -> None:
    """`a = b;` between arrays (Parboil stencil's and SHOC Stencil2D's time loop swapping its
    grids): which array a name means then changes inside the region.  Said at the swap, before
    a declaration or a bare use it involves is refused for its own reason."""
    swaps = [n for it in items for n in all_nodes(it)
             if isinstance(n, c_ast.Assignment) and n.op == "=" and isinstance(n.lvalue, c_ast.ID)
             and getattr(ex.lookup(n.lvalue.name), "kind", None) == "array"]
    if swaps:
        n = min(swaps, key=ex.where)
        name = n.lvalue.name
        _refuse_pointer_walk(ex, items, n)
        # a swap sets each name from another; one pointer set once (TSVC s421's `xx = a;`) is
        # a second name for that array
        swapped = {x.rvalue.name for x in swaps if isinstance(x.rvalue, c_ast.ID)} & {x.lvalue.name for x in swaps}
        hint = ("leave the swap outside the region: mark the loops of one sweep "
                "(#pragma scop ... #pragma endscop inside the time loop), or unroll "
                "the time loop by two by hand (b from a, then a from b)") if swapped or len(swaps) > 1 else \
            f"use one name for the array: write '{c_text(n.rvalue)}' where the region uses '{name}'"
        raise ex.error(n, f"the region changes which array '{name}' points to "
                       f"({name} = {c_text(n.rvalue)}), which the model cannot follow", hint)


def refuse_stepped_pointer(ex, node: c_ast.Assignment) -> None:
    """A pointer of the function stepped inside the region (ulmBLAS's micro-kernel: `A[i]`
    read, then `A += MR;` once per iteration of `l`): the way out is an index from where the
    pointer starts."""
    lv = node.lvalue
    sym = ex.symbol(lv.name) if node.op in ("+=", "-=") and isinstance(lv, c_ast.ID) else None
    if sym is None or sym.kind != "array":
        return
    by = c_text(node.rvalue)
    by = by if isinstance(node.rvalue, (c_ast.ID, c_ast.Constant)) else f"({by})"
    sign = "-" if node.op == "-=" else ""
    loop = ex.loops[-1].iterator if ex.loops else None
    k = f"k the iterations of loop '{loop}' before the current one" if loop else "k the steps taken"
    raise ex.error(node, f"the region moves pointer '{lv.name}' ({c_text(node)}), which the model cannot follow",
                   f"index the array from where the pointer starts instead: {lv.name}[{sign}k*{by} + i] for "
                   f"{lv.name}[i], with {k} (and so for each pointer stepped with it)")


def _refuse_pointer_walk(ex, items, n: c_ast.Assignment) -> None:
    """A pointer set to an array (plus an offset) and stepped along it (CHStone's `for (mptr =
    matrix; ...; mptr++)`, ChenIDct's `aptr = x + i; ... aptr += 8;`) is a counter, not a swap:
    the way out is an integer index, not a sweep of its own."""
    name, rv = n.lvalue.name, n.rvalue
    steps = [m for it in items for m in all_nodes(it)
             if isinstance(m, c_ast.UnaryOp) and m.op in ("++", "--", "p++", "p--")
             and isinstance(m.expr, c_ast.ID) and m.expr.name == name
             or isinstance(m, c_ast.Assignment) and m.op in ("+=", "-=")
             and isinstance(m.lvalue, c_ast.ID) and m.lvalue.name == name]
    base, off, terms = rv, "", []
    while isinstance(base, c_ast.BinaryOp) and base.op in ("+", "-"):     # `x + 63 - n`
        right = c_text(base.right)
        plain = isinstance(base.right, (c_ast.ID, c_ast.Constant)) or base.op == "+"
        terms.insert(0, (base.op, right if plain else f"({right})"))
        base = base.left
    if terms:
        off = " ".join(f"{op} {t}" for op, t in terms)
        off = off[2:] if off.startswith("+") else f"-{off[2:]}"
    elif isinstance(rv, c_ast.UnaryOp) and rv.op == "&" and isinstance(rv.expr, c_ast.ArrayRef):
        base, off = rv.expr.name, c_text(rv.expr.subscript)     # `p = &x[i]`: an ID for one subscript
    if not isinstance(base, c_ast.ID) or not (steps or off):
        return                  # `a = b;`: a swap
    base = base.name
    if not steps:
        raise ex.error(n, f"the region points '{name}' into array '{base}' ({name} = {c_text(rv)}), "
                       "which the model cannot follow",
                       f"index the array instead: {base}[{off} + j] for {name}[j]")
    step = min(steps, key=ex.where)
    sign = "-" if "-" in step.op else "+"
    by = "" if not isinstance(step, c_ast.Assignment) else f"{c_text(step.rvalue)}*" \
        if isinstance(step.rvalue, (c_ast.ID, c_ast.Constant)) else f"({c_text(step.rvalue)})*"
    index = f"{off} {sign} {by}k" if off else f"{'-' if sign == '-' else ''}{by}k"
    raise ex.error(n, f"the region moves pointer '{name}' along array '{base}' ({name} = {c_text(rv)}, "
                   f"then {c_text(step)}), which the model cannot follow",
                   f"count the steps with an integer k and index the array instead: {base}[{index}] "
                   f"for *{name} after k steps {c_text(step)} (and so for each pointer stepped with it)")


def void_cast(ex, node: c_ast.Cast) -> None:
    """`(void)x;` reads nothing the model needs: dropped.  An assert (`((void)(c ? 0 :
    __assert_fail(...)))`, or the call of another macro) may stop the program at any iteration."""
    calls = [n for n in all_nodes(node) if isinstance(n, c_ast.FuncCall)]
    sets = [n for n in all_nodes(node) if isinstance(n, c_ast.Assignment)
            or isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--")]
    line, col = ex.where(node)
    is_assert = bool(ex.line_text) and "assert" in (ex.line_text(line) or "")
    if not calls and not sets:
        if is_assert:       # looptx's stand-in <assert.h> is the -DNDEBUG one
            from looptx.errors import note_once
            note_once(ex.filename, line, "the assert inside the region is dropped from its output, as a "
                      "-DNDEBUG build drops it: check the condition before or after the region", col=col)
        return
    if is_assert:
        raise ex.error(node, "an assert inside the region, which may stop the program at any iteration: "
                             "the model does not keep its place in the new order",
                       "check it before or after the region, or build with -DNDEBUG, which makes it `(void)0`")
    what = f"calls '{c_text(calls[0].name)}'" if calls else "assigns a variable"
    raise ex.error(node, f"a (void) expression that {what} inside the region",
                   "write the assignment as a statement of its own, or move the call out of the region")
