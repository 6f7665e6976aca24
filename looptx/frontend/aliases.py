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
        return [n for n in inner if _has_rows(arrays[n])]
    return []


def _has_rows(t) -> bool:
    """An array of arrays, or a pointer to arrays (`double a[n][m]`, `double (*a)[64]`)."""
    return isinstance(t, (c_ast.ArrayDecl, c_ast.PtrDecl)) and isinstance(t.type, c_ast.ArrayDecl)


def check_local_aliases(fdef: c_ast.FuncDef, items, where, path: str, file_decls=()) -> None:
    """A SourceError at the region's first use of a pointer that points into a variable the
    region also uses (a local one, or one the file declares: TSVC s424's `real_t *xx =
    flat_2d_array + 63;`)."""
    pointers: dict[str, tuple[str, tuple[int, int]]] = {}     # pointer -> (target, where set)
    origins: dict[str, tuple[str, tuple[int, int]]] = {}      # pointer -> (what it starts in, where)
    arrays: dict = {}
    params = fdef.decl.type.args.params if fdef.decl.type.args else []
    decls = list(file_decls) + [p for p in params] + [n for n, _ in _walk(fdef.body)]
    for n in decls:
        if isinstance(n, c_ast.Decl) and isinstance(n.type, (c_ast.PtrDecl, c_ast.ArrayDecl)):
            arrays[n.name] = n.type
    # a pointer the region sets itself is its own business (frontend/temporaries.py)
    inside = {id(n) for it in items for n, _ in _walk(it)}
    outside = [x for x in list(file_decls) + [x for x, _ in _walk(fdef.body)] if id(x) not in inside]
    # names assigned a pointer value outside the region: a plain copy of one of them (`t = a;`
    # of a swap, `t = a; a = b; b = t;`) may not be what it holds at the region
    set_at: dict[str, list] = {}
    for x in outside:
        if isinstance(x, c_ast.Assignment) and x.op == "=" and _root(x.lvalue) is not None:
            set_at.setdefault(_root(x.lvalue), []).append(where(x))
    for n in outside:
        if isinstance(n, c_ast.Decl) and isinstance(n.type, c_ast.PtrDecl) and n.init is not None:
            others = {k: t for k, t in arrays.items() if k != n.name}
            for target in _named(n.init) + _offset_of(n.init, others):
                pointers.setdefault(n.name, (target, where(n.init)))
            _note_origin(origins, n.name, n.init, arrays, where)
        elif isinstance(n, c_ast.Assignment) and n.op == "=" and _root(n.lvalue) is not None:
            # `b = a + 1;` (C89's declare-then-set), a row table's `rows[i] = base + i*m;`, and
            # a plain copy `h = g;` of a pointer nothing else sets
            name = _root(n.lvalue)
            others = {k: t for k, t in arrays.items() if k != name}
            # (a copy of a name set again after it is a swap's: `a = b;` of `t = a; a = b; b = t;`)
            offsets = [t for t in _offset_of(n.rvalue, others) if not isinstance(_uncast(n.rvalue), c_ast.ID)
                       or all(at <= where(n) for at in set_at.get(t, ()))]
            for target in _named(n.rvalue) + (offsets if name in arrays else []):
                pointers.setdefault(name, (target, where(n.rvalue)))
            if name in arrays and isinstance(n.lvalue, c_ast.ID):
                _note_origin(origins, name, n.rvalue, arrays, where)
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
    _refuse_shared_origin(origins, used, moved, where, path)
    for ptr, target, (line, col) in pointers:
        if ptr in used and target in used and ptr != target and ptr not in moved:
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


def _uncast(e):
    while isinstance(e, c_ast.Cast):
        e = e.expr
    return e


def _through_copies(pointers: dict) -> list:
    """(pointer, target, where set) for what each pointer points into, through the pointers it
    is set from (`t = a; b = t + 1;`: b points into t and into a)."""
    out = []
    for ptr, (target, at) in pointers.items():
        seen = {ptr}
        while target not in seen:
            out.append((ptr, target, at))
            seen.add(target)
            if target not in pointers:
                break
            target = pointers[target][0]
    return out


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


def _refuse_shared_origin(origins: dict, used: dict, moved: set, where, path: str) -> None:
    """Two pointers the region uses that start in the same array (HPGMG's in-place GSRB: `x_n`
    and `x_np1` both set from `vectors[x_id]`): the model would take them for different memory."""
    first: dict[str, str] = {}
    for ptr, (at, _) in origins.items():
        if ptr not in used or ptr in moved:
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
