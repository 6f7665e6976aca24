"""The step of a for loop header (`i++`, `i -= 2`, `ii += BS`).

looptx models loops with a constant step only.  A step written with a name has the name's
value when the file gives it one: a #defined integer (a build may give another, so the region
is modelled at the file's value and the output checks it with #if, as for a size that makes a
subscript affine), or a const integer with a constant initializer or an enum constant (which
no build changes).  Any other name is refused with what it is and how to give it a value.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from pycparser import c_ast

from looptx.frontend.affine import NonAffine, Translator
from looptx.frontend.int_types import counter_range, counter_type, unsigned_comparison
from looptx.frontend.symbols import Symbol, arithmetic_type, c_nodes, c_text, chain_operands, int_var, symbol_of


@dataclass(frozen=True)
class Constants:
    """Names whose value the file fixes, visible at one region: const integers with their
    declaration (the symbol the region sees and its initializer) and enum constants."""
    consts: dict = field(default_factory=dict)      # name -> (Symbol, initializer node)
    enums: dict = field(default_factory=dict)       # name -> value
    # enumerators with no value looptx sees: name -> why (`N = NV`, a #define a build may change)
    unvalued: dict = field(default_factory=dict)

    def undeclared(self, name: str) -> tuple[str, str]:
        """(what, hint) of an error about a name the region reads and no declaration gives."""
        if name in self.unvalued:
            return (f"the enumerator '{name}' is {self.unvalued[name]}, a value looptx cannot take for every build",
                    "write the region with the macro itself, or set the enumerator from a number or a plain #define")
        return (f"undeclared identifier '{name}'", "declare it, define it as a macro, or give its value with --define")


@dataclass(frozen=True)
class StepName:
    """A name whose value a loop step took."""
    value: int
    macro: bool          # a #define (the build may change it) rather than a const or an enum
    loops: tuple         # the iterators of the loops whose step it is


def visible_constants(decls, enums, symbols: dict, lookup, macros=None) -> Constants:
    """`decls`: the declarations the region may see (file scope, then the function's before
    the region); one counts when it is the declaration `symbols` resolves the name to.
    `enums`: pycparser Enum nodes (file scope and the function's).  `macros`: the #defined
    integers an enumerator may be set from (`enum { N = NV };`), those no build changes."""
    macros = macros or {}
    consts = {}
    for d in decls:
        sym = symbol_of(d)
        if sym is None or sym.kind != "var" or not sym.is_const or d.init is None \
                or isinstance(d.init, c_ast.InitList) or symbols.get(sym.name) != sym:
            continue
        if int_var(sym, lookup):
            consts[sym.name] = (sym, d.init)
    values: dict[str, int] = {}
    unvalued: dict[str, str] = {}
    for e in enums:
        nxt = 0
        enumerators = [en for en in (e.values.enumerators if e.values else []) if isinstance(en, c_ast.Enumerator)]
        for k, en in enumerate(enumerators):
            if en.value is not None:
                v = _evaluate(en.value, lambda n, node: ("fixed", values[n]) if n in values
                              else ("fixed", int(macros[n])) if n in macros else _no_value(node))
                if v is None:
                    # later ones count from a value looptx cannot see
                    unvalued.update({x.name: f"set from {c_text(en.value)}" if x is en else
                                     f"counted on from {en.name} = {c_text(en.value)}" for x in enumerators[k:]})
                    break
                nxt = v
            if symbols.get(en.name) is None:
                values[en.name] = nxt
            nxt += 1
    return Constants(consts, values, unvalued)


def _no_value(node):
    raise NonAffine(node, "not constant")


def _evaluate(node, resolve) -> int | None:
    """The integer value of a constant expression; None when it has none (an _Unusable that
    `resolve` raises goes through)."""
    try:
        c = Translator(resolve).translate(node).constant()
    except NonAffine:
        return None
    return int(c) if c is not None and c.denominator == 1 else None


class _Unusable(Exception):
    """A name in a step with no value: (name, what it is)."""


def loop_step(ex, node: c_ast.For, it: str) -> int:
    """The constant step of the loop; the names whose value it took go to ex.step_names."""
    nxt = node.next
    bad = lambda: ex.error(nxt or node, f"the loop step of '{it}' must be a constant increment",
                           "use i++, i--, i += c or i -= c with a constant c")
    if isinstance(nxt, c_ast.UnaryOp) and isinstance(nxt.expr, c_ast.ID):
        if nxt.expr.name != it:
            raise ex.error(nxt, f"the loop increments '{nxt.expr.name}', not its iterator '{it}'",
                           "increment the loop's own iterator")
        if nxt.op in ("p++", "++"):
            return 1
        if nxt.op in ("p--", "--"):
            return -1
        raise bad()
    if not (isinstance(nxt, c_ast.Assignment) and isinstance(nxt.lvalue, c_ast.ID)):
        raise bad()
    if nxt.lvalue.name != it:
        inner = nxt.rvalue
        if isinstance(inner, c_ast.UnaryOp) and isinstance(inner.expr, c_ast.ID) and inner.expr.name == it \
                and inner.op in ("p++", "++", "p--", "--"):
            # pnpoly's `for (j = 0, k = n - 1; j < n; k = j++)`: k trails j by one
            raise ex.error(nxt, f"the loop's increment also sets '{nxt.lvalue.name}' (the value '{it}' had "
                           "before it), which carries a value from one iteration to the next",
                           f"increment '{it}' alone and compute '{nxt.lvalue.name}' from it in the body, "
                           f"e.g. int {nxt.lvalue.name} = ({it} == 0) ? LAST : {it} - 1;")
        raise ex.error(nxt, f"the loop increments '{nxt.lvalue.name}', not its iterator '{it}'",
                       "increment the loop's own iterator")
    rhs = nxt.rvalue
    if nxt.op in ("+=", "-="):
        sign = 1 if nxt.op == "+=" else -1
    elif nxt.op == "=" and isinstance(rhs, c_ast.BinaryOp) and rhs.op in ("+", "-") \
            and isinstance(rhs.left, c_ast.ID) and rhs.left.name == it:
        sign = 1 if rhs.op == "+" else -1
        rhs = rhs.right
    elif nxt.op == "=" and isinstance(rhs, c_ast.BinaryOp) and rhs.op == "+" \
            and isinstance(rhs.right, c_ast.ID) and rhs.right.name == it:
        sign, rhs = 1, rhs.left             # i = 2 + i
    else:
        raise bad()
    used: dict[str, StepName] = {}
    try:
        c = _step_value(ex, rhs, it, used)
    except _Unusable as u:
        name, what, hint = u.args
        raise ex.error(nxt, f"the loop step of '{it}' must be a constant, and '{name}' is {what}",
                       hint) from None
    if c is None or c == 0:
        raise ex.error(nxt, f"the loop step of '{it}' must be a non-zero constant",
                       "use i += c with an integer constant c")
    for name, s in used.items():
        known = ex.step_names.get(name)
        ex.step_names[name] = replace(known, loops=known.loops + (it,)) if known else s
    return sign * c


def _step_value(ex, node, it: str, used: dict, depth: int = 0) -> int | None:
    def resolve(name, n):
        if name in ex.fixed:
            # a size of the region like a bound: the output checks the value (`i += s` with
            # -D s=4 runs the region as written for another s)
            ex._param(name)
            ex.fixed_affine.add(name)
            return ("fixed", ex.fixed[name])
        if name in ex.iterators() or name == it:
            raise _Unusable(name, "a loop iterator", "looptx models loops with a constant step only")
        if name in ex.int_macros:
            used[name] = StepName(ex.int_macros[name], True, (it,))
            return ("fixed", ex.int_macros[name])
        const = ex.constants.consts.get(name)
        if const is not None and ex.symbol(name) == const[0] and depth < 8:
            inner: dict[str, StepName] = {}
            try:
                v = _step_value(ex, const[1], it, inner, depth + 1)
            except _Unusable:
                v = None
            if v is not None:
                used.update(inner)
                used.setdefault(name, StepName(v, False, (it,)))
                return ("fixed", v)
        if name in ex.constants.enums and ex.lookup(name) is None and name not in ex.local:
            return ("fixed", ex.constants.enums[name])
        raise _Unusable(name, *_what(ex.symbol(name), name))
    return _evaluate(node, resolve)


def _what(sym: Symbol | None, name: str) -> tuple[str, str]:
    """(what the name is, how to give the step a value)."""
    fix = f"fix it with --define {name}=VALUE (the output is then for that step only)"
    if sym is None:
        return ("not declared in the file (a macro the build defines?)",
                f"the step must be a constant: {fix}")
    if sym.kind != "var":
        return (f"no integer ({sym.kind})", "write an integer constant step")
    if sym.is_const and "=" not in sym.decl_text:
        # Devito's `const int x0_blk0_size` parameter: nothing in the file gives it a value
        return ("a const parameter (its value is known only when the program runs)",
                f"looptx models loops with a constant step only: {fix}")
    if sym.is_const:
        return ("a const variable whose initializer is no constant looptx can see",
                f"initialize it with an integer constant, or {fix}")
    return ("a variable (its value is known only when the program runs)",
            f"looptx models loops with a constant step only: {fix}, or write the constant")


def region_constants(ext, local_decls, symbols: dict, macros=None) -> Constants:
    """The Constants a region sees: file-scope declarations (`ext`, the parsed file's top level)
    and the function's declarations before the region (`local_decls`)."""
    top = [e for e in ext if not isinstance(e, c_ast.FuncDef)]
    decls = [e for e in top if isinstance(e, c_ast.Decl)] + list(local_decls)
    return visible_constants(decls, _enums(top + list(local_decls)), symbols, symbols.get, macros)


def file_enums(ext, macros=None) -> dict[str, tuple[int, object]]:
    """The file-scope enumerators with a value looptx sees: name -> (value, its Enumerator node)."""
    enums = _enums([e for e in ext if not isinstance(e, c_ast.FuncDef)])
    values = visible_constants([], enums, {}, lambda n: None, macros).enums
    nodes = {en.name: en for e in enums for en in (e.values.enumerators if e.values else [])
             if isinstance(en, c_ast.Enumerator)}
    return {n: (v, nodes[n]) for n, v in values.items() if n in nodes}


def _enums(nodes) -> list:
    out = []

    def walk(n):
        if isinstance(n, c_ast.Enum) and n.values is not None:
            out.append(n)
        for _, ch in n.children():
            walk(ch)
    for n in nodes:
        walk(n)
    return out


_TESTS = ("<", "<=", ">", ">=", "!=", "==", "&&", "||")


def loop_condition(ex, node: c_ast.For, it: str, step: int, first_test: list[str] | None = None) -> list[str]:
    """The loop's test as isl constraints (a `!=` becomes the bound it is in the step's direction).
    `first_test`: where C first tests it (the loops around, the iterator at its start)."""
    cond = node.cond
    if cond is None:
        raise ex.error(node, f"the loop over '{it}' has no condition", "add an upper bound")
    conjuncts = [_step_sign_folded(c, node, step) for c in chain_operands(cond, "&&")]
    out = []
    for c in conjuncts:
        if isinstance(c, (c_ast.ID, c_ast.BinaryOp)) and not (isinstance(c, c_ast.BinaryOp) and c.op in _TESTS):
            # C's `for (i = n; i; i--)` (Orio's Pack tests) tests `i != 0`
            c = c_ast.BinaryOp("!=", c, c_ast.Constant("int", "0", c.coord), c.coord)
        if not (isinstance(c, c_ast.BinaryOp) and c.op in ("<", "<=", ">", ">=", "!=")):
            shape = f"for ({it} = LB; {it} < UB; {it}++)" if step > 0 else f"for ({it} = UB; {it} >= LB; {it}--)"
            raise ex.error(c, f"the condition of the loop over '{it}' must be a bound "
                              "(<, <=, >, >= or !=)", f"write {shape}")
        names = {n.name for n in c_nodes(c) if isinstance(n, c_ast.ID)}
        if it not in names:
            raise ex.error(c, f"the loop condition does not test the iterator '{it}'",
                           f"bound '{it}' itself, e.g. {it} < N")
        # C tests the condition first at the lower bound, then at each iteration
        wheres = None if first_test is None else [first_test, None]
        a, b = ex.affine_text(c.left, wheres=wheres), ex.affine_text(c.right, wheres=wheres)
        # a counter's own range first: where it wraps, that is why the comparison would
        counter_range(ex, c, it, step, a, b, first_test)
        t = counter_type(ex, it)
        unsigned_comparison(ex, c, a, b, wheres, it if step < 0 and t is not None and t[1] else None, bound=True)
        op = c.op
        if op == "!=":
            on_left = it in {n.name for n in c_nodes(c.left) if isinstance(n, c_ast.ID)}
            op = ("<" if step > 0 else ">") if on_left else (">" if step > 0 else "<")
        out.append(f"({a}) {op} ({b})")
    return out


def _step_sign_folded(c, node: c_ast.For, step: int):
    """f2c's DO loop of a variable step, `for (j = 1; i__2 < 0 ? j >= i__1 : j <= i__1; j += i__2)`:
    with the step's value known (-D), the test on its sign picks one bound."""
    nxt = node.next
    if not (isinstance(c, c_ast.TernaryOp) and isinstance(c.cond, c_ast.BinaryOp) and isinstance(nxt, c_ast.Assignment)
            and nxt.op in ("+=", "-=") and c.cond.op in ("<", "<=", ">", ">=")):
        return c
    by = c_text(nxt.rvalue)
    left, right = c_text(c.cond.left), c_text(c.cond.right)
    if {left, right} != {by, "0"} or step == 0:
        return c
    value = step if nxt.op == "+=" else -step
    a, b = (value, 0) if left == by else (0, value)
    holds = {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[c.cond.op]
    return c.iftrue if holds else c.iffalse


def iterator_type(ex, init, it: str) -> str:
    """The C type a loop's iterator is declared with (its own declaration, or the variable's)."""
    if isinstance(init, c_ast.DeclList):
        t = init.decls[0].type
        while isinstance(t, c_ast.TypeDecl):
            t = t.type
        return " ".join(w for w in t.names if w not in ("const", "register")) \
            if isinstance(t, c_ast.IdentifierType) else "int"
    sym = ex.local.get(it) or ex.lookup(it)
    return sym.ctype if sym is not None and sym.ctype else "int"


def integer_counter_type(ex, node, init, it: str) -> str:
    """iterator_type, for a counter whose values are the model's integers: a float stops
    counting at 2^24, where they go on (a double, exact to 2^53, is read as its integers)."""
    ctype = iterator_type(ex, init, it)
    if arithmetic_type(ctype, ex.lookup).split() == ["float"]:
        raise ex.error(node, f"the loop counter '{it}' is a float ({ctype}): past 2^24 it stops counting, where "
                             "the loops looptx makes would go on", f"count with an int and set '{it}' from it in the body")
    return ctype


def check_body_keeps(ex, body, it: str) -> None:
    """The loop body neither changes its iterator nor declares another one of that name."""
    class V(c_ast.NodeVisitor):
        def __init__(s):
            s.bad = None
            s.shadow = None

        def visit_Decl(s, n):
            if n.name == it and s.shadow is None:
                s.shadow = n
            s.generic_visit(n)

        def visit_Assignment(s, n):
            base = n.lvalue
            if isinstance(base, c_ast.ID) and base.name == it and s.bad is None:
                s.bad = n
            s.generic_visit(n)

        def visit_UnaryOp(s, n):
            if n.op in ("p++", "++", "p--", "--") and isinstance(n.expr, c_ast.ID) \
                    and n.expr.name == it and s.bad is None:
                s.bad = n
            s.generic_visit(n)
    v = V()
    v.visit(body)
    if v.shadow is not None:
        raise ex.error(v.shadow, f"the loop body declares another '{it}', which hides the loop's "
                                 "iterator; looptx does not model shadowed names",
                       f"rename the inner '{it}'")
    if v.bad is not None:
        raise ex.error(v.bad, f"loop iterator '{it}' is modified in the loop body",
                       "only the loop header may change its iterator")


def loop_start(ex, node: c_ast.For) -> tuple[str, c_ast.Node]:
    """(the iterator, its start) of a loop header, as the normalising passes leave it."""
    from looptx.frontend.hints import several_set_hint
    init = node.init
    if isinstance(init, c_ast.DeclList) and len(init.decls) == 1 and init.decls[0].init is not None:
        return init.decls[0].name, init.decls[0].init
    if isinstance(init, c_ast.Assignment) and init.op == "=" and isinstance(init.lvalue, c_ast.ID):
        it = init.lvalue.name
        if ex.local.get(it) is None and ex.lookup(it) is None:
            raise ex.error(init.lvalue, f"undeclared identifier '{it}'",
                           f"declare the iterator (int {it};) or write for (int {it} = ...)")
        return it, init.rvalue
    if init is None:
        raise ex.error(node, "the loop does not initialise its iterator, and the code right before it "
                             "does not fix its start",
                       "write for (i = LB; i < UB; i++); looptx takes the start of a `for (; ...)` from "
                       "a declaration `int i = LB;` or a loop over i right before it")
    raise ex.error(init, "the loop must initialise exactly one iterator", several_set_hint(init, node))
