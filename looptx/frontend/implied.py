"""Values that the function gives its integer locals before the region.

`int hs = C / NH;` with C and NH fixed, or `const int K = 3;`: nothing in the function changes
such a local afterwards, so at the region it holds that value.  The model keeps the name (the
region is often affine without the value), and takes the value where it needs a number."""
from __future__ import annotations

import re

from pycparser import c_ast, c_generator

from looptx.errors import SourceError
from looptx.frontend.names import to_model, to_user
from looptx.frontend.symbols import all_nodes, int_var, symbol_of


def _writes(scope, where) -> tuple[dict[str, list], set[str]]:
    """(name -> [(position, node)] of the assignments, increments and address-takings of each
    variable in `scope`; the arrays some element of which is written)."""
    changed: dict[str, list] = {}
    arrays: set[str] = set()
    for n in all_nodes(scope):
        target = n.lvalue if isinstance(n, c_ast.Assignment) else \
            n.expr if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&") else None
        if isinstance(target, c_ast.ID):
            changed.setdefault(target.name, []).append((where(n), n))
        root = target
        while isinstance(root, (c_ast.ArrayRef, c_ast.StructRef)):
            if isinstance(root, c_ast.StructRef):
                arrays.add(_member_path(root))       # `p->m[i] = ...` changes p->m, not p->mrows
            root = root.name
        if root is not target and isinstance(root, c_ast.ID):
            arrays.add(root.name)
    return changed, arrays


def _member_path(n) -> str | None:
    """`p->a.b` as the model names the member, p__a__b; None for another base."""
    path = []
    while isinstance(n, c_ast.StructRef) and isinstance(n.field, c_ast.ID):
        path.append(n.field.name)
        n = n.name
    return "__".join([n.name] + list(reversed(path))) if isinstance(n, c_ast.ID) else None


class _SizeText(c_generator.CGenerator):
    """C text of an initializer with the elements at constant subscripts of arrays nothing
    writes (`*n`, read as `n[0]`) by the size names the model gives them (`n__0`)."""

    def __init__(self, written: set[str]):
        super().__init__()
        self.written = written
        self.named: dict[str, str] = {}     # size name -> the C text it stands for

    def _named(self, name: str, n) -> str:
        self.named[name] = c_generator.CGenerator().visit(n)
        return name

    def visit_ArrayRef(self, n):
        subs, node = [], n
        while isinstance(node, c_ast.ArrayRef) and isinstance(node.subscript, c_ast.Constant) \
                and node.subscript.type == "int" and node.subscript.value.isdigit():
            subs.append(node.subscript.value)
            node = node.name
        # Devito's `u_vec->size[1]`: an element of a member
        base = node.name if isinstance(node, c_ast.ID) else _member_path(node)
        if base is not None and base not in self.written and subs:
            return self._named(f"{base}__{'_'.join(reversed(subs))}", n)
        return super().visit_ArrayRef(n)

    def visit_Cast(self, n):
        # NWChem's `const int h1u = (int)(*h1d);`: an integer size's own value (the evaluators
        # of sizes read no casts)
        names = getattr(getattr(n.to_type, "type", None), "type", None)
        words = set(getattr(names, "names", ()) or ())
        if words and words <= {"int", "long", "short", "unsigned", "signed", "size_t"}:
            return f"({self.visit(n.expr)})"
        return super().visit_Cast(n)

    def visit_StructRef(self, n):
        # Himeno's `imax = p->mrows - 1;`: the member is the size p__mrows (frontend/members.py)
        name = _member_path(n)
        if name is not None and name not in self.written:
            return self._named(name, n)
        return super().visit_StructRef(n)


def model_extents(decl: c_ast.Decl) -> tuple[tuple[str, ...], dict[str, str]]:
    """The extents of an array declared before the region, with the struct members and the
    elements at constant subscripts in them by the size names the model gives them (Devito's
    `float (*u)[u_vec->size[1]]` has the extent u_vec__size__1), and name -> the C text each
    stands for.  C evaluates a variable-length extent where the array is declared, so such an
    extent is a value like any size, whatever the function writes afterwards."""
    text = _SizeText(set())
    dims, t = [], decl.type
    while isinstance(t, (c_ast.ArrayDecl, c_ast.PtrDecl)):
        dims.append(text.visit(t.dim) if isinstance(t, c_ast.ArrayDecl) and t.dim is not None else "")
        t = t.type
    return tuple(dims), text.named


def _single_assignment(scope, writes: list, after: tuple, start: tuple):
    """(position, right-hand side) of the one plain `name = ...;` statement of the function body's own
    block between `after` and `start` (f2c's `c_dim1 = *ldc;`), when nothing else in the
    function changes `name`; None otherwise."""
    if len(writes) != 1:
        return None
    (at, node), = writes
    top = getattr(scope, "block_items", None) or []
    if not (after < at < start) or not isinstance(node, c_ast.Assignment) or node.op != "=" \
            or not any(node is item for item in top):
        return None
    return at, node.rvalue


_COMPARISONS = frozenset({"==", "!=", "<", "<=", ">", ">="})


def _branch_value(branch, name: str):
    """The value a branch of an `if` gives `name`: its one `name = e;` statement."""
    items = branch.block_items or [] if isinstance(branch, c_ast.Compound) else [branch]
    sets = [x for x in items if isinstance(x, c_ast.Assignment) and isinstance(x.lvalue, c_ast.ID)
            and x.lvalue.name == name]
    return sets[0].rvalue if len(sets) == 1 and sets[0].op == "=" else None


def _chosen(scope, name: str, writes: list, after: tuple, start: tuple, where, text):
    """(position, C text) of `if (a == b) name = e1; else name = e2;` in the function body's own
    block between `after` and `start` (NPB MG's `if (m3k == 3) d3 = 2; else d3 = 1;`), as
    `(a == b) * (e1) + (a != b) * (e2)`: C and the harness's evaluator read it alike.  None
    for anything else, or when anything else in the function changes `name`."""
    if len(writes) != 2:
        return None
    top = getattr(scope, "block_items", None) or []
    for item in top:
        cond = getattr(item, "cond", None)
        if not (isinstance(item, c_ast.If) and item.iffalse is not None and after < where(item) < start
                and isinstance(cond, c_ast.BinaryOp) and cond.op in _COMPARISONS):
            continue
        inside = {id(n) for n in all_nodes(item)}
        if not all(id(node) in inside for _, node in writes):
            continue
        yes, no = _branch_value(item.iftrue, name), _branch_value(item.iffalse, name)
        if yes is None or no is None:
            return None
        negated = c_ast.BinaryOp({"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}[cond.op],
                                 cond.left, cond.right)
        return where(item), f"({text(cond)}) * ({text(yes)}) + ({text(negated)}) * ({text(no)})"
    return None


def derived_sizes(scope, decls, symbols: dict, start: tuple[int, int], where,
                  anywhere: bool = False, orio: bool = False) -> tuple:
    """(name, C initializer) of the integer variables set before the region and not changed
    between that and it (`int n = N;` ahead of an Orio region): a loop bounded by `n` then gets
    its value from the sizes instead of asking for --define.  A local declared without a value
    may get it from one assignment in the function body's own block (f2c's `c_dim1 = *ldc;`),
    if nothing else in the function changes it.  `scope` is searched for changes: a function
    body for its locals, the whole file (`anywhere`: a change in any function counts) for
    globals, such as the locals of an Orio fragment.  Elements read as sizes (`*ldc`) are named
    as the model names them (`ldc__0`).  `orio`: a global declared without a value may get it
    from its one assignment at the top of Orio's `init_input_vars()` (a decl_file's `int n;` ...
    `n = N;`), which Orio's driver runs before it times the region."""
    changed, written = _writes(scope, where)
    text = _SizeText(written).visit
    out = []
    for d in decls:
        at = where(d)
        sym = symbol_of(d)
        if not at < start or sym is None or not int_var(sym, symbols.get) or sym.dims \
                or symbols.get(sym.name) != sym or isinstance(d.init, c_ast.InitList):
            continue        # the declaration the region sees, of a plain integer
        writes = changed.get(d.name, ())
        init = d.init
        if init is None:
            if anywhere:
                rhs = _orio_init(scope, writes) if orio else None
                if rhs is not None and not _changed_after(at, text(rhs), changed, start):
                    out.append((d.name, text(rhs)))
                continue
            set_at = _single_assignment(scope, writes, at, start)
            if set_at is None:
                chosen = _chosen(scope, d.name, writes, at, start, where, text)
                if chosen is not None and not _changed_after(chosen[0], chosen[1], changed, start):
                    out.append((d.name, chosen[1]))
                continue
            at, init = set_at
        elif any(anywhere or at < w < start for w, _ in writes):
            continue
        if not _changed_after(at, text(init), changed, start):
            out.append((d.name, text(init)))
    return tuple(out)


def _orio_init(ast, writes: list):
    """The right-hand side of a variable's one write, where that is a plain assignment among
    the top statements of a function named init... (Orio's init_input_vars), else None."""
    if len(writes) != 1 or not isinstance(writes[0][1], c_ast.Assignment) or writes[0][1].op != "=":
        return None
    node = writes[0][1]
    for f in getattr(ast, "ext", ()):
        if isinstance(f, c_ast.FuncDef) and f.decl.name.startswith("init") and \
                any(node is item for item in f.body.block_items or ()):
            return node.rvalue
    return None


def _changed_after(at: tuple, init: str, changed: dict, start: tuple) -> bool:
    """Whether a name the value is computed from changes between `at` and the region."""
    read = set(re.findall(r"[A-Za-z_]\w*", init))
    return any(at < w < start for r in read for w, _ in changed.get(r, ()))


def _changed_in(fdef) -> set[str]:
    """Names the function assigns, increments or addresses, and names it declares twice (which
    declaration the region sees is then unclear)."""
    changed = set(_writes(fdef.body, lambda n: (0, 0))[0])
    seen = set()
    for n in all_nodes(fdef.body):
        if isinstance(n, c_ast.Decl) and n.name:
            if n.name in seen:
                changed.add(n.name)
            seen.add(n.name)
    return changed


def implied_values(fdef, decls, derived, fixed: dict, tuned: bool = False,
                   also: frozenset = frozenset(), lookup=None, typed=()) -> dict[str, int]:
    """The integers that the function's derived sizes (`int C3 = C*3;`, `int hs = 4;`) have where
    what they are computed from is fixed: a subscript `t*C3 + h*hs + i` is then affine, as with
    `-D C3=36 -D hs=4`.  Only locals that nothing in the function changes after their
    declaration (a region in a loop may follow a `k++` of the loop's previous iteration), not
    static ones nor globals (another file may set those).  In a `tuned` region (an Orio fragment, which
    Orio pastes into a program of its own with the decl_file) the globals count too: no other
    file sets them, and derived_sizes has seen that no function of this one does.
    Each value is C's: `/` and `%` truncate, and the declared type converts it (`unsigned char
    k = 259` is 3); `lookup` resolves typedefs, `typed` adds declarations (const globals)."""
    from looptx.frontend.expr import evaluate
    from looptx.runtime.extents import eval_extent
    changed = _changed_in(fdef)
    words = {d.name: _type_words(d, lookup) for d in (*decls, *typed) if isinstance(d, c_ast.Decl) and d.name}
    locals_ = {d.name for d in decls if "static" not in (d.storage or [])} | \
        ({name for name, _ in derived} if tuned else set()) | set(also)
    out: dict[str, int] = {}
    grew = True
    while grew:
        grew = False
        for name, init in derived:
            model = to_model(name)
            if model in out or model in fixed or name not in locals_ or name in changed:
                continue
            try:
                v = eval_extent(init, {**fixed, **out})
            except KeyError:
                continue
            except ValueError:
                # (min(), ?: ...: where C's integer arithmetic and Python's differ, no value)
                if re.search(r"[/%]|>>", init):
                    continue
                try:
                    v = evaluate(init, {**fixed, **out})
                except Exception:  # noqa: BLE001 - casts, calls, unknown names: no value
                    continue
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v != int(v):
                continue
            # (a global of an Orio decl_file, whose declaration is not at hand: as computed)
            v = _converted(int(v), words[name]) if name in words else int(v)
            if v is None:
                continue
            out[model] = v
            grew = True
    return out


def _type_words(d: c_ast.Decl, lookup) -> list[str] | None:
    """The integer type words of a scalar's declaration, typedefs resolved where `lookup` can."""
    t = d.type
    if not isinstance(t, c_ast.TypeDecl) or not isinstance(t.type, c_ast.IdentifierType):
        return None
    names = list(t.type.names)
    if lookup is not None and len(names) == 1:
        from looptx.frontend.symbols import arithmetic_type
        names = arithmetic_type(names[0], lookup).split()
    return names


def _converted(v: int, words) -> int | None:
    """`v` stored in a variable of the type `words` as C converts it (gcc's wrap for a
    narrow signed type), or None where that is unknown (a typedef not resolved, a plain char
    above 127) or undefined (an int overflow)."""
    from looptx.frontend.int_ranges import int_type
    found = int_type(words) if words else None
    if found is None:
        return v if 0 <= v <= 127 else None
    (bits, unsigned), lo, hi = found
    if bits == 1:
        return int(v != 0)
    if unsigned:
        return v % 2 ** bits
    if bits == 8 and (lo, hi) == (0, 127):
        return v if 0 <= v <= 127 else None
    if bits < 32:
        return (v + 2 ** (bits - 1)) % 2 ** bits - 2 ** (bits - 1)
    return v if lo <= v <= hi else None


def constant_locals(fdef, decls, derived, macros: dict | None = None, ext=(), lookup=None) -> dict[str, int]:
    """The locals whose value the function's own text gives, from integer literals and the
    `macros` no build changes (`const int K = 3;`, `int K3 = K*3;`, Nek's `const int nx = LX1;`
    under a plain `#define LX1 8`): no build flag or call changes it.  So do the file's scalar
    `const` globals with an initializer (`static const int N = 8;`): no file may set them."""
    const_globals = frozenset(e.name for e in ext if isinstance(e, c_ast.Decl) and e.name and e.init is not None
                              and "const" in (getattr(e.type, "quals", None) or [])
                              and "extern" not in (e.storage or []) and isinstance(e.type, c_ast.TypeDecl))
    return implied_values(fdef, decls, derived, dict(macros or {}), also=const_globals, lookup=lookup,
                          typed=[e for e in ext if isinstance(e, c_ast.Decl) and e.name in const_globals])


def _integer(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def agreeing_defines(constants: dict[str, int], defines: dict) -> set[str]:
    """The --defines that give a constant local its own value: they need no check in the output."""
    return {k for k, v in constants.items() if k in defines and _integer(defines[k]) == v}


def check_defines_agree(constants: dict[str, int], defines: dict, decls, where, path: str) -> None:
    """A --define of a local that the function sets to a constant must give that constant: the
    code made for another value would sit behind a check that never holds."""
    for model, value in constants.items():
        given = defines.get(model)
        if given is None or _integer(given) in (None, value):
            continue
        name = to_user(model)
        decl = next((d for d in decls if d.name == name), None)
        line, col = where(decl) if decl is not None else (None, None)
        raise SourceError(f"-D {name}={given} does not change '{name}': the function sets it to {value} "
                          f"before the region and nothing changes it, so code made for {name} = {given} "
                          f"would never run",
                          hint=f"drop -D {name} (steps that need its value take {value}), or change "
                               f"the declaration", file=path, line=line or None, col=col or None)


def check_derived_agree(derived, values: dict, defines: dict, decls, where, path: str) -> None:
    """A --define of a local the function computes before the region from other sizes, when
    those are given too, must give what the function computes (Himeno's `imax = p->mrows - 1`
    with -D p__mrows=9 -D imax=20 validated a state the function never reaches)."""
    from looptx.frontend.expr import evaluate
    for name, init in derived:
        model = to_model(name)
        given = _integer(defines.get(model))
        if given is None:
            continue
        try:
            v = evaluate(init, {k: x for k, x in values.items() if k != model})
        except Exception:  # noqa: BLE001 - what it is computed from has no value here
            continue
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v != int(v) or int(v) == given:
            continue
        decl = next((d for d in decls if d.name == name), None)
        line, col = where(decl) if decl is not None else (None, None)
        if not re.search(r"[A-Za-z_]", str(init)):
            # a constant (a file-scope `const int nx = 50;`): no size makes it another value
            raise SourceError(f"-D {name}={given} does not change '{name}': the file sets it to {int(v)} and "
                              f"nothing changes it, so code made for {name} = {given} would never run",
                              hint=f"drop -D {name}, or change the declaration", file=path, line=line or None,
                              col=col or None)
        raise SourceError(f"-D {name}={given} disagrees with what the function sets it to before the region, "
                          f"{to_user(init)} = {int(v)} at these sizes", hint=f"drop -D {name}, or give sizes "
                          f"that make {to_user(init)} equal {given}", file=path, line=line or None, col=col or None)


def carried_defines(implied: dict, derived, defines: dict, scop) -> dict:
    """The implied values of the locals the region reads whose initializers read a -D the
    region does not read itself."""
    unread = {to_model(k) for k in defines} - set(scop.params)
    inits = {to_model(n): str(init) for n, init in derived}
    return {n: v for n, v in implied.items() if n in scop.params and n not in dict(scop.fixed)
            and {to_model(w) for w in re.findall(r"[A-Za-z_]\w*", inits.get(n, ""))} & unread}


def macros_behind(constants: dict, literal: dict, derived, macros: dict, scop, of=None) -> tuple:
    """(macro, value) of each #define that a constant local the region reads is set from (Nek's
    `const int nx = LX1;`), or the local `of` alone: the code made for its value is checked as
    it is for a #defined size the model takes at its value."""
    inits = {to_model(n): init for n, init in derived}
    todo = [k for k in constants if k not in literal and k in scop.params and (of is None or k in of)]
    seen, out = set(todo), {}
    while todo:
        for w in re.findall(r"[A-Za-z_]\w*", str(inits.get(todo.pop(), ""))):
            m = to_model(w)
            if m in macros:
                out[m] = macros[m]
            elif m in constants and m not in literal and m not in seen:
                seen.add(m)
                todo.append(m)
    return tuple((k, v) for k, v in sorted(out.items()) if k not in dict(scop.baked))
