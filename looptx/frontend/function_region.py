"""The regions of `--function NAME` when NAME has no marker: its body's loops, between the
declarations and calls before them and the calls and return after them, split at the calls
between them."""
from __future__ import annotations

import re

from pycparser import c_ast

from looptx.errors import SourceError, note_once
from looptx.frontend.regions import Region, SourceText, if_depths
from looptx.frontend.extract import PURE_MATH
from looptx.frontend.omp_team import is_team
from looptx.frontend.conditionals import own_helper


def braces(text: str, start: int = 0):
    """(offset, depth after it) of every brace outside string and character literals."""
    depth, i, quote = 0, start, None
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote or ch == "\n":
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch in "{}":
            depth += 1 if ch == "{" else -1
            yield i, depth
        i += 1


def _outside_statement(node) -> str | None:
    """What a statement at the edge of a function body is when no region can hold it (a call
    such as `memset(...)`, `free(t)` or `printf(...)`, a `(void)x;`), or None."""
    if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID):
        return f"the call to '{node.name.name}'"
    if isinstance(node, c_ast.FuncCall):
        return "the call"
    if isinstance(node, c_ast.Cast):
        return "the cast statement"
    if isinstance(node, c_ast.Return):
        # ulmBLAS's `if (alpha == 0.0) return;` before the loops: the loops after it are a
        # region of their own, run only where the function gets that far
        return "the return"
    if isinstance(node, c_ast.If) and not _calls_loops(node):
        # NPB's `if (timeron) timer_start(t_add);`
        arms = [a for a in (node.iftrue, node.iffalse) if a is not None]
        inner = [_outside_statement(x) for a in arms
                 for x in (a.block_items or [] if isinstance(a, c_ast.Compound) else [a])]
        if inner and all(inner):
            return f"the guarded {inner[0][4:]}"
    if isinstance(node, c_ast.Assignment) and node.op == "=" and isinstance(node.lvalue, c_ast.ID):
        value = node.rvalue
        while isinstance(value, c_ast.Cast):
            value = value.expr
        # a timer read (TSVC's `start_t = clock();`) or an allocation: no region may call it
        if isinstance(value, c_ast.FuncCall) and isinstance(value.name, c_ast.ID) \
                and value.name.name not in PURE_MATH:
            return f"the assignment from '{value.name.name}'"
    return None


def _calls_loops(node) -> bool:
    from looptx.frontend.symbols import all_nodes
    return any(isinstance(n, (c_ast.For, c_ast.While, c_ast.DoWhile)) for n in all_nodes(node))


def moved_pointers(fdef: c_ast.FuncDef, before, where) -> tuple[str, ...]:
    """The pointer parameters a statement of the function moves before the position `before`
    (f2c's parameter adjustments): element 0 of such a pointer is not the caller's, which the
    .cu's host copies heed (codegen/cuda_span.py)."""
    from looptx.frontend.symbols import all_nodes
    pointers = _pointer_params(fdef)
    return tuple(sorted({_moved_name(n) for n in all_nodes(fdef.body)
                         if _pointer_step(n, pointers) and where(n) < before}))


def _moved_name(node) -> str:
    return node.expr.name if isinstance(node, c_ast.UnaryOp) else node.lvalue.name


def _pointer_params(fdef: c_ast.FuncDef) -> frozenset:
    args = fdef.decl.type.args if isinstance(fdef.decl.type, c_ast.FuncDecl) else None
    return frozenset(p.name for p in (args.params if args else ())
                     if isinstance(p, c_ast.Decl) and isinstance(p.type, (c_ast.PtrDecl, c_ast.ArrayDecl)))


def _pointer_step(node, pointers) -> bool:
    """f2c's parameter adjustments (`--b;`, `a -= a_offset;`): the region reads the arrays
    through the moved pointers, from their 1-based subscripts, as it does when `#pragma scop`
    follows them."""
    if isinstance(node, c_ast.UnaryOp) and node.op in ("--", "++", "p--", "p++"):
        return isinstance(node.expr, c_ast.ID) and node.expr.name in pointers
    if not (isinstance(node, c_ast.Assignment) and isinstance(node.lvalue, c_ast.ID)
            and node.lvalue.name in pointers):
        return False
    rhs = node.rvalue
    return node.op in ("-=", "+=") or node.op == "=" and isinstance(rhs, c_ast.BinaryOp) \
        and rhs.op in ("+", "-") and isinstance(rhs.left, c_ast.ID) and rhs.left.name == node.lvalue.name


def _pointer_locals(body: list) -> frozenset:
    """The pointers the function's body declares (HPGMG's `double (*_phi)[72][72];`)."""
    return frozenset(d.name for d in body if isinstance(d, c_ast.Decl) and isinstance(d.type, c_ast.PtrDecl))


def _pointer_set(node, pointers) -> bool:
    """`p = (double (*)[72][72]) phi;` before the first loop: which array a local pointer views,
    set once (CHiLL's loop(0) starts at the loop after it, the region does too)."""
    return isinstance(node, c_ast.Assignment) and node.op == "=" and isinstance(node.lvalue, c_ast.ID) \
        and node.lvalue.name in pointers


def _set_names(stmts, pointers=frozenset()) -> set[str] | None:
    """The scalars that statements of the form `x = e;` or `if (c) x = e; else ...` set, or
    None when one of them does anything else (a parameter adjustment sets none)."""
    out = set()
    for st in stmts:
        # f2c declares and sets each size apart (`int h1u; h1u = *h1d;`, NWChem's C ports)
        if _pointer_step(st, pointers) or isinstance(st, c_ast.Decl) and st.init is None:
            continue
        if isinstance(st, c_ast.Decl) and isinstance(st.type, c_ast.TypeDecl) and st.name:
            out.add(st.name)        # `int g = ghosts - 1;`
            continue
        if isinstance(st, c_ast.Compound):
            inner = _set_names(st.block_items or [])
        elif isinstance(st, c_ast.If):
            inner = _set_names([b for b in (st.iftrue, st.iffalse) if b is not None])
        elif isinstance(st, c_ast.Assignment) and st.op == "=" and isinstance(st.lvalue, c_ast.ID):
            inner = {st.lvalue.name}
        else:
            return None
        if inner is None:
            return None
        out |= inner
    return out


def _leading_sizes(body: list, pointers=frozenset()) -> list:
    """The statements before the first loop that only set scalars which the loops after them
    read in a bound, a subscript or a condition and never set (NPB MG's `if (m3k == 3) d3 = 2;
    else d3 = 1;`): in the region, a scalar it sets is no size, and the region would be refused.
    Only then are they left out, so that other regions keep their statement numbers."""
    from looptx.frontend.temporaries import index_names, written_names
    k = next((i for i, st in enumerate(body) if isinstance(st, c_ast.For)), 0)
    names = _set_names(body[:k], pointers) if k else None
    rest = body[k:]
    if not names or names & written_names(rest) or not names & index_names(rest):
        return [st for st in body[:k] if _pointer_step(st, pointers)] if k and all(
            _pointer_step(st, pointers) for st in body[:k]) else []
    return body[:k]


def function_region(fdef: c_ast.FuncDef, src: SourceText, where, blanked: str) -> list[Region]:
    """The whole body of a function, minus its leading declarations, calls before its first
    loop and calls and a return after its last (a kernel that allocates, clears or frees
    around its loops): the region is the loops in between.  A call between loops (a
    `printf`, a `swap(&a, &b)`) splits them into one region before it and one after."""
    body = list(fdef.body.block_items or [])
    outside = []
    pointers = _pointer_params(fdef)
    local_pointers = _pointer_locals(body)
    while body and (isinstance(body[0], c_ast.Decl) or _outside_statement(body[0])
                    or _pointer_step(body[0], pointers) or _pointer_set(body[0], local_pointers)):
        stmt = body.pop(0)
        if not isinstance(stmt, c_ast.Decl) and not _pointer_step(stmt, pointers):
            outside.append(stmt)
    sizes = _leading_sizes(body, pointers)
    if sizes:
        del body[:len(sizes)]
        names = sorted(_set_names(sizes, pointers))
        line, col = where(sizes[0])
        if names:
            note_once(src.filename, line, f"the statements before the first loop set {', '.join(names)}, which "
                      f"the loops read as {'sizes' if len(names) > 1 else 'a size'} (a bound, subscript or "
                      "condition) and never set: they stay outside the region", col=col)
    trailing = None
    while body and (isinstance(body[-1], c_ast.Return) or _outside_statement(body[-1])):
        trailing = body.pop()
        if not isinstance(trailing, c_ast.Return):
            outside.append(trailing)
    if not body:
        line, col = where(fdef)
        raise SourceError(f"function '{fdef.decl.name}' has no statements to transform",
                          hint="name a function with loops, or mark the loops with #pragma scop",
                          file=src.filename, line=line, col=col)
    runs, stops = [[]], []
    for stmt in body:
        if _outside_statement(stmt):
            outside.append(stmt)
            stops.append(stmt)
            runs.append([])
        else:
            runs[-1].append(stmt)
    if trailing is not None:
        end_at = src.offset(*where(trailing))
    else:
        end_at = matching_brace(blanked, src.offset(*where(fdef.body)))
    ends = [src.offset(*where(stop)) for stop in stops] + [end_at]
    regions = []
    for run, last in (piece for run, end in zip(runs, ends) for piece in _team_pieces(run, end, src, blanked, where)):
        # declarations alone between two calls compute nothing: they stay where they are
        if not any(not isinstance(stmt, c_ast.Decl) for stmt in run):
            continue
        # looptx's own output, `{ #pragma omp parallel for ... for (...) ... }`, read again: the
        # block's loop nest is the region, and the pragma before it the nest's own, as written
        # before the function's loop the first time (probe 178 G4)
        if len(run) == 1 and isinstance(run[0], c_ast.Compound) and len(run[0].block_items or ()) == 2 \
                and isinstance(run[0].block_items[0], c_ast.Pragma) and isinstance(run[0].block_items[1], c_ast.For):
            last = matching_brace(blanked, src.offset(*where(run[0])))
            run = list(run[0].block_items)
        # the statement written first: a header's `s = 0.0` (frontend/comma_inits.py) comes
        # before its loop in the list, and after the loop's `for` in the text
        head = min(run, key=where)
        line, col = where(head)
        if isinstance(head, c_ast.Pragma):
            col = 1                 # pycparser places a pragma at its text, after `#pragma`
        first = _written_start(blanked, src.offset(line, col))
        # end right after the last statement, so that the line break and indentation before
        # the next statement or the closing brace stay in the output
        while last > first and blanked[last - 1] in " \t\r\n":
            last -= 1
        first, last = _with_conditionals(src, blanked, first, last)
        first = _after_parallel_for(src, blanked, run, first, where)
        regions.append(Region("function", first, last, (first, last), function=fdef.decl.name))
    if outside:
        stmt = min(outside, key=where)
        spans = ", ".join(f"{src.pos(r.start)[0]}-{src.pos(r.end)[0]}" for r in regions)
        note_once(src.filename, where(stmt)[0],
                  f"{_outside_statement(stmt) or 'the pointer assignment to ' + repr(stmt.lvalue.name)} "
                  f"stays outside the region of '{fdef.decl.name}'"
                  f"{' (and ' + str(len(outside) - 1) + ' more statement' + ('s' if len(outside) > 2 else '') + ')' if len(outside) > 1 else ''}"
                  f": the region{'s are' if len(regions) > 1 else ' is'} lines {spans}", col=where(stmt)[1])
    return regions


def _written_start(blanked: str, at: int) -> int:
    """Where a statement's text starts: pycparser places `*out = s;` (and `++x;`, `(*p)[i] =
    ...`) at its operand, past the operators before it on the line."""
    p = at
    while p > 0 and blanked[p - 1] in " \t*&-+!~(":
        p -= 1
    while p < at and blanked[p] in " \t":
        p += 1
    return p


def _team_pieces(run: list, end: int, src: SourceText, blanked: str, where) -> list:
    """(statements, end offset) of the pieces of a run: a `#pragma omp parallel` block of
    loops (CloverLeaf's and TeaLeaf's kernels) is a piece of its own whose statements are the
    block's, so that the team stays around them and their `omp for`s are the nests' own
    (omp_team.py); its leading declarations, private to each thread, stay outside."""
    pieces, rest = [], list(run)
    for k in range(len(run) - 1):
        pragma, block = run[k], run[k + 1]
        if not (isinstance(pragma, c_ast.Pragma) and isinstance(block, c_ast.Compound)
                and is_team(pragma.string or "")):
            continue
        items = list(block.block_items or [])
        while items and isinstance(items[0], c_ast.Decl):
            items.pop(0)
        if not items or any(_outside_statement(x) for x in items):
            continue
        before = rest[:rest.index(pragma)]
        pieces.append((before, src.offset(where(pragma)[0], 1)))
        pieces.append((items, matching_brace(blanked, src.offset(*where(block)))))
        rest = rest[rest.index(block) + 1:]
    if not pieces:
        return [(run, end)]
    return pieces + [(rest, end)]


def _after_parallel_for(src: SourceText, blanked: str, run: list, first: int, where) -> int:
    """The region's start moved past the `#pragma omp parallel for` (or `acc parallel loop`)
    line of a function that is one loop nest under it (llama2.c's matmul, Darknet's gemm): the
    pragma is then the nest's own, checked and put back on the transformed nest's outermost
    loop, as the one right before a `#pragma scop` region is (frontend/omp_team.py)."""
    if len(run) != 2 or not isinstance(run[0], c_ast.Pragma) or not isinstance(run[1], c_ast.For):
        return first
    text = run[0].string or ""
    # what the check of a pragma before a region refuses (`simd`, clauses tied to iterations)
    # stays inside, dropped with a note as before
    if not re.match(r"\s*(?:omp\s+parallel\s+for(?!\s+simd)|acc\s+parallel\s+loop)\b", text) or \
            re.search(r"\b(?:firstprivate|lastprivate|linear|ordered|copyin)\b", text):
        return first
    line, _ = where(run[1])
    start = src.offset(line, 1)
    # only the pragma's line between: not a group with conditionals (HPCG's #ifndef ... #endif)
    # (a directive continued over lines, `private(k, s) \` then `reduction(+: tot)`, is one)
    lines = [ln for ln in re.sub(r"\\[ \t]*\r?\n", " ", blanked[first:start]).splitlines() if ln.strip()]
    return start if len(lines) == 1 and re.match(r"\s*#\s*pragma\b", lines[0]) else first


def matching_brace(text: str, open_at: int) -> int:
    return next((i for i, depth in braces(text, open_at) if depth == 0), len(text))


_DIRECTIVE = re.compile(r"[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif|pragma)\b")
_ENDIF = re.compile(r"[ \t]*#[ \t]*endif\b")


def _with_conditionals(src: SourceText, blanked: str, first: int, last: int) -> tuple[int, int]:
    """The region's start, moved up over the lines of pragmas and #if/#endif right before it
    that form a whole group with it: HPCG's `#ifndef HPCG_NO_OPENMP / #pragma omp parallel for /
    #endif` (whose #endif the region would take and the #ifndef not), miniGhost's `#if defined
    _MG_OPENMP` group (whose pragma would stay before the block the output writes).  The
    region's pragmas are dropped with a note, as the ones the preprocessor keeps are.  A group
    that a call outside the region splits (Rodinia backprop's `#ifdef OPEN` /
    `omp_set_num_threads(4);` / `#pragma omp parallel for` / `#endif` between two runs) is left
    outside both: the run before ends above its `#if`, the one after starts below its `#endif`.
    Returns (start, end)."""
    first, last = _outside_split_group(blanked, first, last)
    line = src.pos(first)[0]
    # looptx's own `#ifndef lx_floord` groups, which an earlier output put before its block:
    # the region takes them, so that its output defines each helper once instead of adding a copy
    while line > 3 and _ENDIF.match(src.line_text(line - 1)) and \
            own_helper([src.line_text(line - 3), src.line_text(line - 2)]):
        line -= 3
        first = src.offset(line, 1)
    tops = []
    while line > 1 and _DIRECTIVE.match(src.line_text(line - 1)):
        line -= 1
        tops.append(src.offset(line, 1))
    own = if_depths(blanked[first:last])
    best = first
    for top in tops:
        before = if_depths(blanked[top:first])
        if own == (0, 0) and before == (0, 0) or own != (0, 0) and if_depths(blanked[top:last]) == (0, 0):
            best = top
    if if_depths(blanked[best:last]) != (0, 0):
        from looptx.frontend.regions import unmatched_directive
        raise src.error(unmatched_directive(blanked, best, last), "a preprocessor conditional (#if ... #endif) "
                        "opens on one side of the region's start or end and closes on the other",
                        "mark the loops with #pragma scop inside the conditional, or move the #if outside them")
    return best, last


_GROUP_LINE = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|endif)\b.*$", re.M)


def _outside_split_group(blanked: str, first: int, last: int) -> tuple[int, int]:
    """(first, last) without the part of an #if group that reaches in from outside, where that
    part holds directives only (see _with_conditionals)."""
    text = blanked[first:last]
    opened, closed_at = [], None
    for m in _GROUP_LINE.finditer(text):
        if m.group(1) != "endif":
            opened.append(m)
        elif opened:
            opened.pop()
        elif closed_at is None and not re.sub(r"(?m)^[ \t]*#.*$", "", text[:m.start()]).strip():
            closed_at = m.end()          # an #endif of a group opened before the region
    if opened and not re.sub(r"(?m)^[ \t]*#.*$", "", text[opened[0].start():]).strip():
        last = first + opened[0].start()
        while last > first and blanked[last - 1] in " \t\r\n":
            last -= 1
    if closed_at is not None:
        first += closed_at
        while first < last and blanked[first] in " \t\r\n":
            first += 1
    return first, last
