"""Local pointers into variables the region also names (`double *ps = &s; ... y[i] = *ps;`).

The dependence model sees `ps` and `s` as different memory (pointer parameters are assumed
not to alias, as CHiLL and Orio assume), so a reduction, a distribution or a reordering would
break the prefix sum above without a word.  Here the function makes the alias in plain sight:
a local pointer is given the address of a variable (`&s`, `&a[k]`), or is declared as
another array plus an offset (`double *row = a + n;`).  A region that uses both names is
refused at the pointer's use.  Plain pointer assignments (`t = a; a = b; b = t;`, the swap of a
time loop) are not aliases at the region and are left alone."""
from __future__ import annotations

from pycparser import c_ast

from looptx.errors import SourceError
from looptx.frontend.escape import _walk
from looptx.frontend.symbols import c_text


def _named(e) -> list[str]:
    """The variables whose memory a pointer value `e` points into."""
    names = []
    for n, parent in _walk(e):
        if isinstance(n, c_ast.UnaryOp) and n.op == "&":
            base = n.expr
            while isinstance(base, (c_ast.ArrayRef, c_ast.StructRef)):
                base = base.name
            if isinstance(base, c_ast.ID):
                names.append(base.name)
    return names


def _offset_of(e, arrays: dict) -> list[str]:
    """`a`, `a + k`, `k + a`, `(T *) a`, and a row of a 2-D array (`aa[1]`, `*aa`,
    `(real_t *)(aa + 1) - N`): the array a declaration's pointer starts in.  `arrays`: name ->
    its declared type (a row of an array of pointers is not inside that array)."""
    while isinstance(e, c_ast.Cast):
        e = e.expr
    if isinstance(e, c_ast.ID) and e.name in arrays:
        return [e.name]
    if isinstance(e, c_ast.TernaryOp):
        return _offset_of(e.iftrue, arrays) + _offset_of(e.iffalse, arrays)
    if isinstance(e, c_ast.StructRef) and e.type == "->" and isinstance(e.name, c_ast.ID):
        return [c_text(e)]          # a pointer member (`g->a + 1`), named as the region spells it
    if isinstance(e, c_ast.BinaryOp) and e.op in ("+", "-"):
        return _offset_of(e.left, arrays) + (_offset_of(e.right, arrays) if e.op == "+" else [])
    row = e.name if isinstance(e, c_ast.ArrayRef) else e.expr if isinstance(e, c_ast.UnaryOp) and e.op == "*" else None
    if row is not None:
        inner = _offset_of(row, arrays)
        return [n for n in inner if n in arrays and _has_rows(arrays[n])]
    return []


def _has_rows(t) -> bool:
    """An array of arrays, or a pointer to arrays (`double a[n][m]`, `double (*a)[64]`)."""
    return isinstance(t, (c_ast.ArrayDecl, c_ast.PtrDecl)) and isinstance(t.type, c_ast.ArrayDecl)


def check_local_aliases(fdef: c_ast.FuncDef, items, where, path: str, file_decls=()) -> None:
    """A SourceError at the region's first use of a pointer that points into a variable the
    region also uses (a local one, or one the file declares: TSVC s424's `real_t *xx =
    flat_2d_array + 63;`)."""
    arrays: dict = {}
    params = fdef.decl.type.args.params if fdef.decl.type.args else []
    decls = list(file_decls) + [p for p in params] + [n for n, _ in _walk(fdef.body)]
    for n in decls:
        if isinstance(n, c_ast.Decl) and isinstance(n.type, (c_ast.PtrDecl, c_ast.ArrayDecl)):
            arrays[n.name] = n.type
    flow = _Flow(fdef, items, where)
    # a pointer the region sets itself is its own business (frontend/temporaries.py); what the
    # function sets after the region reaches it only around a loop that holds both
    outside = list(file_decls) + [x for x, _ in _walk(fdef.body) if id(x) not in flow.inside and flow.reaches(x)]
    # names assigned a pointer value: a plain copy of one of them (`t = a;` of a swap,
    # `t = a; a = b; b = t;`) is not what it holds at the region when it is set again after the
    # copy, on every path to the region
    set_at: dict[str, list] = {}
    for x in outside:
        if isinstance(x, c_ast.Assignment) and x.op == "=" and _root(x.lvalue) is not None and flow.unbranched(x):
            set_at.setdefault(_root(x.lvalue), []).append(where(x))
    pointers: dict[str, list] = {}      # pointer -> [(what it may point into, where set)]
    origins: dict[str, tuple[str, tuple[int, int]]] = {}      # pointer -> (what it starts in, where)

    def copied_later(value, at) -> bool:
        v = _uncast(value)
        return isinstance(v, c_ast.ID) and any(later > at for later in set_at.get(v.name, ()))

    def sets(name: str, value, at, node) -> None:
        others = {k: t for k, t in arrays.items() if k != name}
        targets = [] if copied_later(value, at) else \
            _named(value) + (_offset_of(value, others) if name in arrays else []) + _through_call(value, others) \
            + _table_entry(value, others)
        if flow.kills(node):
            pointers.pop(name, None)
            origins.pop(name, None)
        for target in targets:
            pointers.setdefault(name, []).append((target, at))
        if name in arrays and node is not None and not copied_later(value, where(node)):
            _note_origin(origins, name, value, arrays, where)

    for n in outside:
        if isinstance(n, c_ast.If) and flow.always(n):
            # `if (flag) q = y; else q = z;`: q holds one of the two, not what it held before
            for name in _set_on_both_arms(n):
                pointers.pop(name, None)
                origins.pop(name, None)
        if isinstance(n, c_ast.Decl) and isinstance(n.type, c_ast.PtrDecl) and n.init is not None:
            sets(n.name, n.init, where(n.init), n)
        elif isinstance(n, c_ast.Decl) and isinstance(n.init, c_ast.InitList) and n.name in arrays:
            # `double *v[2] = { a, a + 1 };`: the table's pointers point into a
            for e in n.init.exprs:
                sets(n.name, e, where(e), None)
        elif isinstance(n, c_ast.Assignment) and n.op == "=" and _root(n.lvalue) is not None \
                and _sets_a_pointer(n.lvalue, arrays):
            # `b = a + 1;` (C89's declare-then-set), a row table's `rows[i] = base + i*m;`, and
            # a plain copy `h = g;` of a pointer nothing else sets
            name = _root(n.lvalue)
            sets(name, n.rvalue, where(n.rvalue), n if isinstance(n.lvalue, c_ast.ID) else None)
        elif isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID) \
                and n.name.name in ("memcpy", "memmove", "__builtin_memcpy", "__builtin_memmove"):
            # `memcpy(&b, &t, sizeof b)`: the pointer copied is what t holds (a swap through a
            # function of the user's, `swap_ptr(&a, &b)`, is a swap: not followed)
            args = n.args.exprs if n.args is not None else []
            dest = args[0] if args else None
            if isinstance(dest, c_ast.UnaryOp) and dest.op == "&" and isinstance(dest.expr, c_ast.ID) \
                    and isinstance(arrays.get(dest.expr.name), c_ast.PtrDecl) and len(args) > 1:
                name = dest.expr.name
                for target in _named(args[1]) + _offset_of(args[1], {a: t for a, t in arrays.items() if a != name}):
                    pointers.setdefault(name, []).append((target, where(n)))
    if not pointers and len(origins) < 2:
        return
    used: dict[str, object] = {}
    for it in items:
        for n, parent in _walk(it):
            if isinstance(n, c_ast.ID) and not (isinstance(parent, c_ast.StructRef) and parent.field is n):
                used.setdefault(n.name, n)
            elif isinstance(n, c_ast.StructRef) and n.type == "->" and isinstance(n.name, c_ast.ID):
                used.setdefault(c_text(n), n)
    pointers = _through_copies(pointers)
    # a pointer the region steps (CMSIS's `*pOut++ = acc;`) is refused for that first: one name
    # for both would not do
    moved = {n.expr.name for it in items for n, _ in _walk(it) if isinstance(n, c_ast.UnaryOp)
             and n.op in ("++", "--", "p++", "p--") and isinstance(n.expr, c_ast.ID)} | \
        {n.lvalue.name for it in items for n, _ in _walk(it) if isinstance(n, c_ast.Assignment)
         and n.op in ("+=", "-=") and isinstance(n.lvalue, c_ast.ID)}
    written = _maybe_written(items)
    _refuse_shared_origin(origins, used, moved, where, path, written)
    for ptr, target, (line, col) in pointers:
        # (two names of memory the region only reads carry no dependence between them)
        if ptr in used and target in used and ptr != target and ptr not in moved \
                and (ptr in written or target in written):
            at_line, at_col = where(used[ptr])
            raise SourceError(
                f"'{ptr}' points into '{target}' (set at line {line}, column {col}), and the region "
                f"uses both names: the dependence model takes them for different memory",
                hint=f"write '{target}' where the region uses '{ptr}', or use one name only",
                file=path, line=at_line, col=at_col)


def _root(lvalue) -> str | None:
    """The variable an assignment sets, or the array of pointers it sets an element of."""
    while isinstance(lvalue, c_ast.ArrayRef):
        lvalue = lvalue.name
    return lvalue.name if isinstance(lvalue, c_ast.ID) else None


def _sets_a_pointer(lvalue, arrays: dict) -> bool:
    """Whether an assignment's target may hold a pointer: a variable, or an element of an
    array of pointers (`rows[i] = base + i*m`), not an element of an array of numbers
    (`B[i][j] = A[i][j] + 1`, which an earlier nest of the function may hold)."""
    depth = 0
    while isinstance(lvalue, c_ast.ArrayRef):
        lvalue, depth = lvalue.name, depth + 1
    t = arrays.get(lvalue.name) if depth else None
    for _ in range(depth):
        if not isinstance(t, (c_ast.ArrayDecl, c_ast.PtrDecl)):
            return depth == 0
        t = t.type
    return depth == 0 or isinstance(t, (c_ast.ArrayDecl, c_ast.PtrDecl))


def _uncast(e):
    while isinstance(e, c_ast.Cast):
        e = e.expr
    return e


def _through_copies(pointers: dict) -> list:
    """(pointer, target, where set) for what each pointer may point into, through the pointers
    it is set from (`t = a; b = t + 1;`: b points into t and into a)."""
    out = []
    for ptr, targets in pointers.items():
        seen, todo = {ptr}, list(targets)
        while todo:
            target, at = todo.pop(0)
            if target in seen:
                continue
            seen.add(target)
            out.append((ptr, target, at))
            todo += [(t, at) for t, _ in pointers.get(target, ())]
    return out


def _through_call(value, arrays: dict) -> list[str]:
    """A pointer a call returns (`row_after(a, 1)`, the file's own `return p + k;`) may point
    into what its pointer arguments point into; allocators' arguments are sizes."""
    value = _uncast(value)
    if not isinstance(value, c_ast.FuncCall) or value.args is None:
        return []
    return [t for arg in value.args.exprs for t in _named(arg) + _offset_of(arg, arrays)]


def _set_on_both_arms(n: c_ast.If) -> set[str]:
    def top(branch) -> set[str]:
        items = (branch.block_items or []) if isinstance(branch, c_ast.Compound) else [branch] if branch else []
        return {it.lvalue.name for it in items if isinstance(it, c_ast.Assignment) and it.op == "="
                and isinstance(it.lvalue, c_ast.ID)}
    return top(n.iftrue) & top(n.iffalse) if n.iffalse is not None else set()


def _table_entry(value, arrays: dict) -> list[str]:
    """`v[1]` of a table of pointers (`double *v[2] = { a, a + 1 };`): what its entries point into."""
    value = _uncast(value)
    if isinstance(value, c_ast.ArrayRef) and isinstance(value.name, c_ast.ID):
        t = arrays.get(value.name.name)
        if isinstance(t, c_ast.ArrayDecl) and isinstance(t.type, c_ast.PtrDecl):
            return [value.name.name]
    return []


class _Flow:
    """Where the function's statements stand to the region: before it on every path, in a loop
    around it (they reach it on the next iteration), or after it (they reach it not at all)."""

    def __init__(self, fdef: c_ast.FuncDef, items, where):
        self.where = where
        self.inside = {id(n) for it in items for n, _ in _walk(it)}
        self.start = where(items[0])
        nodes = [n for n, _ in _walk(fdef.body)]
        around, self.branched = set(), set()
        # a label before the region that a `goto` after it jumps back to makes a loop too
        labels = {n.name: where(n) for n in nodes if isinstance(n, c_ast.Label)}
        if any(isinstance(n, c_ast.Goto) and labels.get(n.name, self.start) < self.start < where(n) for n in nodes):
            around = {id(n) for n in nodes}
        for n in nodes:
            loop = isinstance(n, (c_ast.For, c_ast.While, c_ast.DoWhile))
            if not (loop or isinstance(n, (c_ast.If, c_ast.Switch))):
                continue
            body = {id(x) for x, _ in _walk(n)} - {id(n)}
            if loop and self.inside & body:
                around |= body
            else:
                self.branched |= body
        self.around = around

    def reaches(self, node) -> bool:
        at = self.where(node)
        return at is None or at < self.start or id(node) in self.around

    def unbranched(self, node) -> bool:
        """Run whenever the code around it runs (no branch or loop of its own)."""
        return id(node) not in self.branched

    def always(self, node) -> bool:
        """Run on every path to the region, once, before it."""
        return id(node) not in self.branched and id(node) not in self.around and self.where(node) < self.start

    def kills(self, node) -> bool:
        return node is not None and self.always(node)


def _origin(e, arrays: dict) -> str | None:
    """What a pointer value starts in, apart from an offset: `x` of `x + 1`, `(double *)x`,
    `&x[k]`; `vectors[x_id]` of HPGMG's `level->my_boxes[box].vectors[x_id] + ghosts*(...)`."""
    while isinstance(e, c_ast.Cast):
        e = e.expr
    if isinstance(e, c_ast.ID):
        return e.name if e.name in arrays else None
    if isinstance(e, c_ast.BinaryOp) and e.op in ("+", "-"):
        return _origin(e.left, arrays) or (_origin(e.right, arrays) if e.op == "+" else None)
    if isinstance(e, c_ast.UnaryOp) and e.op == "&":
        base = e.expr
        while isinstance(base, (c_ast.ArrayRef, c_ast.StructRef)) and not (
                isinstance(base, c_ast.StructRef) and base.type == "->"):
            base = base.name
        return c_text(base) if isinstance(base, (c_ast.ID, c_ast.StructRef)) else None
    if isinstance(e, (c_ast.ArrayRef, c_ast.StructRef)):
        root = e
        while isinstance(root, (c_ast.ArrayRef, c_ast.StructRef)):
            root = root.name
        return c_text(e) if isinstance(root, c_ast.ID) and root.name in arrays else None
    return None


def _note_origin(origins: dict, name: str, value, arrays: dict, where) -> None:
    at = _origin(value, arrays)
    if at is not None and at != name:
        origins.setdefault(name, (at, where(value)))


def _maybe_written(items) -> set[str]:
    """The names (and `p->field` texts) in what the region assigns, steps, takes the address
    of or passes to a call: a superset of the memory it writes through them."""
    out: set[str] = set()
    for it in items:
        for n, _ in _walk(it):
            if isinstance(n, c_ast.Assignment):
                targets = [n.lvalue]
            elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&"):
                targets = [n.expr]
            elif isinstance(n, c_ast.FuncCall) and n.args is not None:
                targets = list(n.args.exprs)
            else:
                continue
            for t in targets:
                out |= {x.name if isinstance(x, c_ast.ID) else c_text(x) for x, _ in _walk(t)
                        if isinstance(x, c_ast.ID) or isinstance(x, c_ast.StructRef) and x.type == "->"}
    return out


def _refuse_shared_origin(origins: dict, used: dict, moved: set, where, path: str, written: set) -> None:
    """Two pointers the region uses that start in the same array (HPGMG's in-place GSRB: `x_n`
    and `x_np1` both set from `vectors[x_id]`): the model would take them for different memory,
    unless the region writes through neither (IRSmk's 27 read-only views of `x`)."""
    first: dict[str, str] = {}
    groups: dict[str, list[str]] = {}
    for ptr, (at, _) in origins.items():
        if ptr in used and ptr not in moved:
            groups.setdefault(at, []).append(ptr)
    for ptr, (at, _) in origins.items():
        if ptr not in used or ptr in moved or not ({*groups[at], at} & written):
            continue
        other = first.setdefault(at, ptr)
        if other != ptr:
            a, b = sorted((other, ptr), key=lambda x: where(used[x]))
            line, col = where(used[b])
            raise SourceError(
                f"'{a}' and '{b}' both point into {at} (set at lines {origins[a][1][0]} and "
                f"{origins[b][1][0]}), and the region uses both: the dependence model takes them for "
                "different memory",
                hint=f"use one pointer, with the offsets in its subscripts, where the region uses "
                     f"'{a}' and '{b}'", file=path, line=line, col=col)


def refuse_null_test(node, is_pointer, error) -> None:
    """`node` must not test a pointer for NULL (llm.c's optional `bias`): the model has no
    pointer values, only the elements they reach.  `error(node, what, hint)` makes the error."""
    tested = _null_tested(node, is_pointer)
    if tested is not None:
        raise error(tested, f"a test of the pointer '{tested.name}' (against NULL) inside the region",
                    f"test it outside the region, where it is the same for every iteration: "
                    f"`if ({tested.name} != NULL) {{ the region }} else {{ the region without "
                    f"{tested.name} }}`, each copy marked as a region of its own")


def _null_tested(node, is_pointer) -> c_ast.ID | None:
    """The pointer that `node` tests for NULL (`p != NULL`, `!p`, `if (p)`, `p ? a : b`)."""
    def pointer(x):
        return x if isinstance(x, c_ast.ID) and is_pointer(x.name) else None

    def null(x):
        while isinstance(x, c_ast.Cast):
            x = x.expr
        return isinstance(x, c_ast.Constant) and x.value in ("0", "0L", "0UL")
    if isinstance(node, c_ast.BinaryOp) and node.op in ("==", "!="):
        for a, b in ((node.left, node.right), (node.right, node.left)):
            if pointer(a) is not None and null(b):
                return a
    if isinstance(node, c_ast.UnaryOp) and node.op == "!":
        return pointer(node.expr)
    if isinstance(node, (c_ast.If, c_ast.TernaryOp)):
        return pointer(node.cond)
    return None
