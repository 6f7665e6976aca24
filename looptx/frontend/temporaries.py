"""Integer temporaries of a loop body that name a subscript (Rodinia's lud:
`int row_i = i * size;` ... `int idx = row_i + j; sum = a[idx];`), and pointer locals that name
a part of an array (llama2.c's `float* q = s->q + h * head_size;` ... `q[i]`: `s->q[h * head_size + i]`).

Such a variable is written in the region, so the model cannot take it as a size; but while
neither it nor what its initializer reads changes, each of its uses equals the initializer.
The pass writes the initializer in its place, `a[i * size + j]`, and drops the declaration,
which no use needs any more.  Only temporaries that reach a subscript, a loop bound or a
condition are rewritten: one used only as a value stays as written, a per-iteration local."""
from __future__ import annotations

import copy

from pycparser import c_ast

from looptx.frontend import rounded_division
from looptx.frontend.int_ranges import Ranges, declared_ranges, int_type, resolve_words
from looptx.frontend.syntax import MAIN
from looptx.frontend.symbols import (all_nodes, id_names, pointer_names, pointer_plus_offset, sum_terms,
                                     typedef_words)

# Declared types whose value is the initializer's, as C computes it, for every value an int
# subscript can have: no unsigned wrap-around, no narrowing to a short or a char.  Other
# integer types hold it only where int_ranges shows that the initializer's values fit.
_TYPE_WORDS = frozenset({"int", "long", "signed", "ptrdiff_t", "ssize_t", "int32_t", "int64_t",
                         "intptr_t"})
_ANY = "any"
_QUALS = frozenset({"const", "register"})
_PURE_OPS = frozenset({"+", "-", "*", "/", "%", "<<", ">>"})     # shifts: HPGMG's `(i<<1)`


def _int_target(d, typedefs: dict):
    """_ANY for a declaration of one of _TYPE_WORDS' types (f2c's `integer i__2;` with
    `typedef long int integer;`), int_ranges' (type, lowest, highest) for another integer type
    (`state_t prev;` with `typedef uint8_t state_t;`), None for anything else."""
    t = d.type
    if not (isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType)):
        return None
    if set(d.storage or ()) - {"register"} or set(d.quals or ()) - _QUALS:
        return None
    words = resolve_words(t.type.names, typedefs)
    if words and set(words) <= _TYPE_WORDS:
        return _ANY
    return int_type(words)


def _is_int_type(d, typedefs: dict) -> bool:
    return _int_target(d, typedefs) is not None


def _is_int_decl(d, typedefs: dict) -> bool:
    return isinstance(d, c_ast.Decl) and d.init is not None and bool(d.name) and _is_int_type(d, typedefs)


def _plain(e) -> bool:
    """An initializer of names, members (`l.stride_y`), integer constants, elements at constant
    subscripts (NPB's `grid_points[0] - 3`) and + - * / %."""
    if isinstance(e, c_ast.ID):
        return True
    if isinstance(e, c_ast.StructRef):
        # a member of a variable (darknet's `l.stride_y`), hoisted before the region later
        return isinstance(e.name, c_ast.ID) or isinstance(e.name, c_ast.StructRef) and _plain(e.name)
    if isinstance(e, c_ast.ArrayRef):
        return isinstance(e.subscript, c_ast.Constant) and e.subscript.type == "int" \
            and (isinstance(e.name, c_ast.ID) or _plain(e.name) and isinstance(e.name, c_ast.ArrayRef))
    if isinstance(e, c_ast.Constant):
        return e.type.endswith("int")
    if isinstance(e, c_ast.BinaryOp):
        return e.op in _PURE_OPS and _plain(e.left) and _plain(e.right)
    if isinstance(e, c_ast.UnaryOp):
        return e.op in ("-", "+") and _plain(e.expr)
    if isinstance(e, c_ast.Cast):
        return _plain(e.expr)
    if isinstance(e, c_ast.FuncCall):
        # Pluto's `floord(N-1, 32)` as `floor(((double)(N-1))/((double)(32)))`
        rounded = rounded_division.of_call(e)
        return rounded is not None and _plain(rounded[1])
    if isinstance(e, c_ast.TernaryOp):
        # Rodinia hotspot3D's clamped neighbour, `w = (x == 0) ? c : c - 1`: subscripts it
        # reaches become one guarded read per branch (ternary_index.py)
        return _test(e.cond) and _plain(e.iftrue) and _plain(e.iffalse)
    return False


def _offset_load(e) -> bool:
    """An iterator or size plus or minus one index array's element (PETSc's DIA SpMV, `col =
    i + offsets[j]; if (col >= 0 && col < n) y[i] += ... x[col];`): written in its uses, the
    element read is a gathered subscript as `x[i + offsets[j]]` is.  A lone element
    (`col = offsets[j]`) is not one: frontend/gathered.py models it as a scalar of its own."""
    terms = sum_terms(e)
    loads = [t for t in terms if isinstance(t, c_ast.ArrayRef)]
    return len(loads) == 1 and isinstance(loads[0].name, c_ast.ID) and _plain(loads[0].subscript) \
        and all(t is loads[0] or _plain(t) for t in terms) \
        and any(t is not loads[0] and not _constant(t) for t in terms)


def _initializer(e) -> bool:
    return _plain(e) or _offset_load(e)


def _test(e) -> bool:
    if isinstance(e, c_ast.BinaryOp) and e.op in ("<", "<=", ">", ">=", "==", "!="):
        return _plain(e.left) and _plain(e.right)
    if isinstance(e, c_ast.BinaryOp) and e.op in ("&&", "||"):
        return _test(e.left) and _test(e.right)
    return isinstance(e, c_ast.UnaryOp) and e.op == "!" and _test(e.expr)


def written_names(items, elements: bool = True) -> set[str]:
    """Names assigned, incremented, declared or addressed anywhere in `items` (an array's
    name when one of its elements is, unless not `elements`: then only names whose own value
    changes, and the root of a member chain assigned as a whole)."""
    out = set()
    through = (c_ast.ArrayRef, c_ast.StructRef) if elements else c_ast.StructRef
    for it in items:
        for n in all_nodes(it):
            target = n.lvalue if isinstance(n, c_ast.Assignment) else \
                n.expr if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&") else None
            while isinstance(target, through):
                target = target.name
            if isinstance(target, c_ast.ID):
                out.add(target.name)
            elif isinstance(n, c_ast.Decl) and n.name:
                out.add(n.name)
    return out


def index_parts(items):
    """The subtrees where the model needs affine expressions: subscripts, loop headers and the
    conditions of ifs, loops and ?:."""
    for it in items:
        for n in all_nodes(it):
            if isinstance(n, c_ast.ArrayRef):
                yield n.subscript
            elif isinstance(n, c_ast.For):
                yield from (p for p in (n.init, n.cond, n.next) if p is not None)
            elif isinstance(n, (c_ast.If, c_ast.While, c_ast.DoWhile, c_ast.TernaryOp)) \
                    and n.cond is not None:
                yield n.cond


def index_names(items) -> set[str]:
    """Names read in the parts of `items` that must be affine (index_parts)."""
    out = set()
    for part in index_parts(items):
        out |= id_names(part)
    return out


class _Substitute(c_ast.NodeVisitor):
    """Replaces every read of `name` under a node by a copy of `expr` (pycparser's generator
    adds the parentheses that C's precedence needs)."""

    def __init__(self, name: str, expr):
        self.name, self.expr = name, expr

    def generic_visit(self, node):
        for attr in getattr(node, "__slots__", ()):
            child = getattr(node, attr, None)
            if isinstance(child, c_ast.ID) and child.name == self.name:
                setattr(node, attr, self._copy())
            elif isinstance(child, c_ast.Node):
                self.visit(child)
            elif isinstance(child, list):
                setattr(node, attr, [self._copy() if isinstance(c, c_ast.ID) and c.name == self.name
                                     else self._visited(c) for c in child])

    def _visited(self, c):
        if isinstance(c, c_ast.Node):
            self.visit(c)
        return c

    def _copy(self):
        return copy.deepcopy(self.expr)


def _assigned(item, scalars: dict) -> tuple[str, object] | None:
    """(x, e) of `x = e;` where x is an integer local of the function (`scalars`)."""
    if isinstance(item, c_ast.Assignment) and item.op == "=" and isinstance(item.lvalue, c_ast.ID) \
            and item.lvalue.name in scalars and _initializer(item.rvalue) \
            and item.lvalue.name not in id_names(item.rvalue):
        return item.lvalue.name, item.rvalue
    return None


def _rewrite_block(block: c_ast.Compound, scalars: dict, sources: list, typedefs: dict,
                   gone: list, constants_only: bool = False, holds=lambda d, e: True,
                   changed: set | None = None, region_lines=(), read_after=frozenset()) -> None:
    """Substitutes the temporaries of one block: a declaration's uses in the rest of the block,
    then the declaration goes; an assignment's uses up to the next statement that writes the
    variable again (NPB's `i = 1; for (m ...) rhs[k][j][i][m] ...; i = 2; ...`), and the
    assignment goes to `sources`, dropped later if nothing else reads what it stores.
    `holds(decl, e)`: whether the variable keeps every value of `e` unchanged.  `changed`: the
    names the function writes; a `#pragma scop` region's assignment of other names than those
    (Pluto's `ubp = floord(N-1, 32);`) is taken as a constant's is."""
    items = list(block.block_items or [])
    scop = _in_scop(items, region_lines) if changed is not None else set()
    k = len(items) - 1
    while k >= 0:
        d = items[k]
        if _is_int_decl(d, typedefs) and _initializer(d.init) and not constants_only:
            name, expr, end = d.name, d.init, len(items)
        else:
            pair = _assigned(d, scalars)
            # (in a region, what the rest of the block does not change: f2c's `i__1 = m;` of the
            # unrolled cleanup, `m = *n % 4;` set before the region)
            if pair is not None and constants_only and not _constant(pair[1]) \
                    and (k not in scop or _names_read(pair[1]) & changed & written_names(items[k + 1:])):
                pair = None
            if pair is None:
                k -= 1
                continue
            name, expr = pair
            end = next((j for j in range(k + 1, len(items)) if name in written_names([items[j]])), len(items))
        rest = items[k + 1:end]
        if name in read_after and k in scop:
            # the code after the region reads the value (printed as written): its reads stay,
            # so that what the region leaves in the variable is seen to be read after it
            rest = [it for j, it in enumerate(items[k + 1:end], k + 1) if j in scop]
        if name in index_names(rest) and not ((id_names(expr) | {name}) & written_names(rest)) \
                and holds(d if isinstance(d, c_ast.Decl) else scalars[name], expr):
            sub = _Substitute(name, expr)
            for it in rest:
                sub.visit(it)
            if isinstance(d, c_ast.Decl):
                gone.append((name, _line(d)))
                del items[k]
            else:
                sources.append((block, d))
        k -= 1
    block.block_items = items


def _reads_left(body, name: str, sources: list) -> bool:
    """Whether anything but a loop that sets `name` first reads it: a read outside such loops
    may see what an assignment of `sources` stored."""
    stores = {id(d) for _, d in sources}
    stack = [body]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.For) and isinstance(n.init, c_ast.Assignment) and n.init.op == "=" \
                and isinstance(n.init.lvalue, c_ast.ID) and n.init.lvalue.name == name \
                and name not in id_names(n.init.rvalue):
            continue
        if isinstance(n, c_ast.Assignment) and n.op == "=" and isinstance(n.lvalue, c_ast.ID) \
                and n.lvalue.name == name and (id(n) in stores or name not in id_names(n.rvalue)):
            stack.append(n.rvalue)
            continue
        if isinstance(n, c_ast.ID) and n.name == name:
            return True
        stack.extend(ch for _, ch in n.children())
    return False


def _int_scalars(fdef: c_ast.FuncDef, typedefs: dict) -> dict:
    """The function's integer scalars declared once (parameters and locals), by name."""
    decls = _function_decls(fdef)
    count: dict = {}
    for d in decls:
        count[d.name] = count.get(d.name, 0) + 1
    addressed = {n.expr.name for n in all_nodes(fdef.body)
                 if isinstance(n, c_ast.UnaryOp) and n.op == "&" and isinstance(n.expr, c_ast.ID)}
    return {d.name: d for d in decls if d.name and count[d.name] == 1 and d.name not in addressed
            and _is_int_type(d, typedefs) and "volatile" not in (d.quals or ()) and "static" not in (d.storage or ())}


def _in_scop(items, region_lines=()) -> set[int]:
    """The positions of `items` between a `#pragma scop` and its `#pragma endscop`, or on the
    lines of a marked region (a CHiLL or Orio annotation's)."""
    out, inside = set(), False
    for k, it in enumerate(items):
        if isinstance(it, c_ast.Pragma) and it.string.split()[:1] in (["scop"], ["endscop"]):
            inside = it.string.split()[0] == "scop"
        elif inside:
            out.add(k)
        elif it.coord is not None and any(a <= it.coord.line <= b for a, b in region_lines):
            out.add(k)
    return out


def _names_read(e) -> set[str]:
    """id_names, less the functions `e` calls."""
    called = {n.name.name for n in all_nodes(e) if isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID)}
    return id_names(e) - called


def _constant(e) -> bool:
    if isinstance(e, c_ast.UnaryOp) and e.op in ("-", "+"):
        e = e.expr
    return isinstance(e, c_ast.Constant) and e.type.endswith("int")


def _loop_blocks(body, outside: bool = False) -> list:
    """The blocks inside loop bodies under `body` (`outside`: the others, the body itself
    among them), each after the blocks inside it."""
    out, stack = [], [(body, False, False)]
    while stack:
        n, in_loop, done = stack.pop()
        if done:
            out.append(n)
            continue
        if isinstance(n, c_ast.Compound) and in_loop != outside:
            stack.append((n, in_loop, True))
        inner = in_loop or isinstance(n, c_ast.For)
        stack.extend((ch, inner, False) for _, ch in n.children())
    return out


def _pointer_temporary(d, pointers: set[str]):
    """(base, offset or None) of a pointer local `T *q = base + off;` (or `= &base[off];`)."""
    if not (isinstance(d, c_ast.Decl) and d.name and d.init is not None and isinstance(d.type, c_ast.PtrDecl)
            and isinstance(d.type.type, c_ast.TypeDecl)) or set(d.storage or ()) - {"register"}:
        return None
    if isinstance(d.init, c_ast.UnaryOp) and d.init.op == "&" and isinstance(d.init.expr, c_ast.ArrayRef):
        return d.init.expr.name, d.init.expr.subscript
    split = pointer_plus_offset(d.init, pointers)
    return split if split is not None and isinstance(split[0], (c_ast.ID, c_ast.StructRef)) else None


def _only_subscripted(items, name: str) -> bool:
    """Whether every use of `name` in `items` is a subscript of it (`q[e]`)."""
    for it in items:
        for n in all_nodes(it):
            if isinstance(n, c_ast.ArrayRef) and isinstance(n.name, c_ast.ID) and n.name.name == name:
                if name in id_names(n.subscript):
                    return False
                continue
            if any(isinstance(ch, c_ast.ID) and ch.name == name for _, ch in n.children()) \
                    or isinstance(n, c_ast.ID) and n is it and n.name == name:
                return False
    return True


class _Through(c_ast.NodeVisitor):
    """Rewrites `q[e]` as `base[off + e]` (llama2.c's `float *q = s->q + h * head_size;`)."""

    def __init__(self, name: str, base, offset):
        self.name, self.base, self.offset = name, base, offset

    def visit_ArrayRef(self, node):
        if isinstance(node.name, c_ast.ID) and node.name.name == self.name:
            node.name = copy.deepcopy(self.base)
            if self.offset is not None:
                node.subscript = c_ast.BinaryOp("+", copy.deepcopy(self.offset), node.subscript, node.coord)
        self.generic_visit(node)


def _rewrite_pointers(block: c_ast.Compound, pointers: set[str]) -> None:
    """Each pointer local of the block read only through subscripts, its base and offset
    unchanged after it: its uses rewritten through the initializer, its declaration dropped."""
    items = list(block.block_items or [])
    for k in range(len(items) - 1, -1, -1):
        split = _pointer_temporary(items[k], pointers)
        if split is None:
            continue
        name, rest = items[k].name, items[k + 1:]
        if not _only_subscripted(rest, name) or (id_names(items[k].init) | {name}) & written_names(rest, elements=False):
            continue
        for it in rest:
            _Through(name, *split).visit(it)
        del items[k]
    block.block_items = items


def _rewrite_pointer_sets(fdef: c_ast.FuncDef, block: c_ast.Compound, pointers: set[str], gone: list) -> None:
    """C89's row pointer, declared at the function's top and set in the loop (`double *row;`
    ... `row = a + i*m;` then `row[j]`), read as `_rewrite_pointers` reads `double *row = a +
    i*m;`: where the block reads it only through subscripts after setting it, and nothing else
    of the function names it but its declaration."""
    items = list(block.block_items or [])
    declared = {n.name: n for n in all_nodes(fdef.body) if isinstance(n, c_ast.Decl) and isinstance(n.type, c_ast.PtrDecl)}
    for k in range(len(items) - 1, -1, -1):
        n = items[k]
        if not (isinstance(n, c_ast.Assignment) and n.op == "=" and isinstance(n.lvalue, c_ast.ID)
                and n.lvalue.name in declared and declared[n.lvalue.name].init is None):
            continue
        name = n.lvalue.name
        split = pointer_plus_offset(n.rvalue, pointers)
        if split is None or not isinstance(split[0], (c_ast.ID, c_ast.StructRef)):
            continue
        rest = items[k + 1:]
        inside = {id(x) for it in items for x in all_nodes(it)}
        elsewhere = [x for x in all_nodes(fdef.body) if isinstance(x, c_ast.ID) and x.name == name and id(x) not in inside]
        if elsewhere or name in id_names_of(items[:k]) or not _only_subscripted(rest, name) \
                or (id_names(n.rvalue) | {name}) & written_names(rest, elements=False):
            continue
        for it in rest:
            _Through(name, *split).visit(it)
        del items[k]
        gone.append((name, _line(n)))
    block.block_items = items


def id_names_of(items) -> set[str]:
    return {x.name for it in items for x in all_nodes(it) if isinstance(x, c_ast.ID)}


def _line(node) -> int:
    c = node.coord
    return c.line if c is not None and c.file == MAIN and c.line else 0


def substitute_index_temporaries(ast, read_after=None, region_lines=()) -> dict[str, list[tuple[str, int]]]:
    """Rewrites, in place, the subscript temporaries of every loop body of the file (see the
    module docstring), and the pointer locals that only name a part of an array; inner bodies
    first, so a temporary built from another one (`idx = row_i + j`) has its uses rewritten
    before the outer one is looked at.  Returns, by function, the integer temporaries no longer
    set anywhere, each with the line of a declaration or assignment that went.  `read_after`:
    by function, the names the code after a region reads (read_after_regions), which stay set."""
    pointers, typedefs = pointer_names(ast), typedef_words(ast)
    out: dict[str, list[tuple[str, int]]] = {}
    for fdef in (e for e in ast.ext if isinstance(e, c_ast.FuncDef)):
        scalars = _int_scalars(fdef, typedefs)
        sources, gone = [], []
        holds = _holds(ast, fdef, typedefs)
        for b in _loop_blocks(fdef.body):
            _rewrite_pointers(b, pointers)
            _rewrite_pointer_sets(fdef, b, pointers, gone)
            _rewrite_block(b, scalars, sources, typedefs, gone, holds=holds)
        # outside loops only constants (NPB's `k = 1; ... rhs[k][j][m] ...; k = 2; ...`) and
        # what the function never changes (Pluto's `ubp = floord(N-1, 32);` before its loop)
        changed = written_names([fdef.body])
        for b in _loop_blocks(fdef.body, outside=True):
            _rewrite_block(b, scalars, sources, typedefs, gone, constants_only=True, holds=holds, changed=changed,
                           region_lines=region_lines, read_after=(read_after or {}).get(fdef.decl.name, set()))
        for name in {d.lvalue.name for _, d in sources}:
            if name not in (read_after or {}).get(fdef.decl.name, ()) and not _reads_left(fdef.body, name, sources):
                for block, d in sources:
                    if d.lvalue.name == name:
                        block.block_items = [it for it in block.block_items if it is not d]
                        gone.append((name, _line(d)))
        if gone:
            out.setdefault(fdef.decl.name, []).extend(gone)
    return out



def read_after_regions(ast, region_lines) -> dict[str, set[str]]:
    """By function, the names the code after one of its regions reads before it sets them
    again: that code is printed as written, so a temporary the region sets (f2c's `i__1 = *n;`)
    and it reads must stay set, whatever the rewrite does to the function's own reads.
    `region_lines`: (first, last) line of each marked region."""
    funcs = [f for f in ast.ext if isinstance(f, c_ast.FuncDef) and f.coord is not None]
    starts = sorted(f.coord.line for f in funcs) + [float("inf")]
    out = {}
    for f in funcs:
        end = next(x for x in starts if x > f.coord.line)
        out[f.decl.name] = _read_after(f, [(a, b) for a, b in region_lines if f.coord.line <= a < end])
    return out


def _read_after(fdef: c_ast.FuncDef, lines) -> set[str]:
    if not lines:
        return set()
    events = []
    for n in all_nodes(fdef.body):
        line = getattr(getattr(n, "coord", None), "line", None)
        if line is None or any(a <= line <= b for a, b in lines):
            continue
        if isinstance(n, c_ast.Assignment) and n.op == "=" and isinstance(n.lvalue, c_ast.ID):
            events.append((line, n.coord.column or 0, 0, n.lvalue.name, n.rvalue))
        elif isinstance(n, c_ast.ID):
            events.append((line, n.coord.column or 0, 1, n.name, None))
    out = set()
    events.sort(key=lambda e: e[:3])
    for _, last in lines:
        set_again = set()
        for line, _, read, name, value in events:
            if line <= last or name in set_again:
                continue
            if read:
                out.add(name)
            elif value is not None and name not in id_names(value):
                set_again.add(name)
    return out


def _holds(ast, fdef: c_ast.FuncDef, typedefs: dict):
    """holds(decl, e) for _rewrite_block: for a type narrower than int or unsigned, whether
    every value `e` may have fits it, by the declared types of what `e` reads (an int iterator
    is any int: `unsigned t = i - 1;` stays refused even where the loop starts at 1)."""
    ranges = None

    def holds(d, e) -> bool:
        nonlocal ranges
        target = _int_target(d, typedefs)
        if target is _ANY or target is None:
            return target is _ANY
        if ranges is None:
            # the file's globals, then the function's parameters and locals, which hide them
            declared = declared_ranges([x for x in ast.ext if isinstance(x, c_ast.Decl)], typedefs)
            declared.update(declared_ranges(_function_decls(fdef), typedefs))
            ranges = Ranges(declared.get, typedefs)
        return ranges.fits(e, target)
    return holds


def _function_decls(fdef: c_ast.FuncDef) -> list:
    args = fdef.decl.type.args.params if isinstance(fdef.decl.type, c_ast.FuncDecl) \
        and fdef.decl.type.args else []
    return [a for a in args if isinstance(a, c_ast.Decl)] + [n for n in all_nodes(fdef.body)
                                                              if isinstance(n, c_ast.Decl)]
