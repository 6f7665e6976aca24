"""Walk the C statements of one region and extract the polyhedral description.

Output is plain Python (isl syntax as text, no islpy): per statement its iterators, the
constraints of its domain, its body as looptx IR, its accesses as polynomials (so that
linearized subscripts can be delinearized once all references to an array are known), and its
position in the original program (the 2d+1 schedule).
"""
from __future__ import annotations

import copy
from typing import Callable

from pycparser import c_ast

from looptx import ir
from looptx.errors import SourceError
from looptx.frontend.affine import NonAffine, Poly, Translator, int_sized, long_sized, min_max_of_ternary
from looptx.frontend.spelling import Spellings
from looptx.frontend.valued import fix_divisor, fix_products, known_values
from looptx.frontend.cond_text import condition_text
from looptx.frontend.ifconvert import branch_on_data
from looptx.frontend.guards import guarded
from looptx.frontend.int_types import (IntTypes, counter_start, declared_words, evaluated_where, owe, owe_rounding,
                                      owed_at, wide_macro)
from looptx.frontend.hints import (WRITE_THROUGH_DATA, cast_view_hint, operator_column, user_numbers_first,
                                   written_bound_hint)
from looptx.frontend.declarations import declare, refuse_pointer_swaps, refuse_stepped_pointer, void_cast
from looptx.frontend.exitvalues import earlier_run_read, exit_value, finished, inner_counters, put_in, stale_read
from looptx.frontend.gathered import data_bound_hint, masked_bound, through_index, write_of
from looptx.frontend.steps import (Constants, StepName, check_body_keeps, integer_counter_type, loop_condition, loop_start,
                                   loop_step)
from looptx.frontend.aliases import refuse_null_test
from looptx.frontend.purefuncs import PURE_MATH, pure_call
from looptx.frontend.raw_stmt import Loop, RawAccess, RawStmt
from looptx.frontend.symbols import (UNSIGNED_WORDS, WIDE_WORDS, Symbol, arithmetic_type, c_text, counters_zeroed,
                                     has_type_word, int_var, resolve_typedef, wide_subscript)

class Extractor:
    """One region: `items` are the pycparser block items inside the region markers."""

    def __init__(self, *, lookup: Callable[[str], Symbol | None], int_macros: dict[str, int],
                 fixed: dict[str, int], where: Callable[[object], tuple[int, int]], filename: str,
                 line_text: Callable[[int], str] | None = None, spellings: Spellings | None = None,
                 constants: Constants | None = None, pure: frozenset = frozenset()):
        self.lookup = lookup
        self.pure = pure                       # the file's pure helpers (frontend/purefuncs.py)
        self.defined: frozenset[str] = frozenset()  # the file's functions that touch no memory
        self.constants = constants or Constants()
        self.step_names: dict[str, StepName] = {}   # names whose value a loop step took
        self.product_names: dict[str, int] = {}     # #defines multiplied together in a bound
        self.divisor_names: dict[str, int] = {}     # #defines a subscript or bound divides by
        self.wide_index: set[str] = set()           # arrays with a subscript in a 64-bit type
        self.spellings = spellings or Spellings()
        self.in_index = 0                      # subscripts print as computed, never re-spelled
        self.int_macros = int_macros
        self.fixed = fixed
        self.where = where
        self.filename = filename
        self.line_text = line_text
        self.written: set[str] = set()
        # name -> the value of each write of it in the region (None: not a plain `=`)
        self.assigned: dict[str, list] = {}
        self.items: list = []
        self.local: dict[str, Symbol] = {}
        # loops enclosing the declaration of each local: C gives every iteration of them its
        # own object; 0 for a name declared twice (one variable for both, as hoisted)
        self.private_depth: dict[str, int] = {}
        # the names --define fixed that a bound, guard or subscript reads: sizes, whatever their type
        self.fixed_affine: set[str] = set()
        self.params: list[str] = []
        self.loops: list[Loop] = []
        self.conds: list[str] = []
        self.positions: list[int] = [0]        # next free position at each depth
        self.loop_positions: list[int] = []    # position of each enclosing loop in its parent
        self.ctx_obligations: list = []        # obligations of the enclosing bounds/conditions
        self.stmts: list[RawStmt] = []
        self.taken_conditions: set[str] = set()    # the temporaries ifconvert takes conditions into
        self.next_ref = 0
        self.scalar_uses: dict[str, tuple] = {}
        self.inits: dict[str, tuple] = {}      # local -> (initializer, loops around its declaration)
        self.guards: list[str] = []            # the ?: branches and && / || operands around an expression
        self.inexact_guards = 0                # ... of them, those with a test of the counters not modelled
        self.guard_lost = False
        self.exits: dict[str, tuple] = {}      # iterator -> its value after its loop (exitvalues.py)
        self.counted_inside: list[frozenset[str]] = []   # per loop around: what its inner loops count with
        # what the guards of the statement's reads hold only under (`c % 3` of a ?: test: c >= 0)
        self.guard_obligations: list = []
        self.evaluated_obligations: list = []  # see RawStmt.evaluated_obligations
        self.int_types = IntTypes(lambda name: declared_words(self, name), lambda w: resolve_typedef(w, self.lookup))

    # ---- errors -------------------------------------------------------------------------
    def error(self, node, what: str, hint: str | None = None) -> SourceError:
        line, col = self.where(node)
        if isinstance(node, c_ast.UnaryOp) and node.op in ("*", "&") and self.line_text:
            col = operator_column(self.line_text(line), col, node.op)
        return SourceError(what, hint=hint, file=self.filename, line=line, col=col)

    def nonaffine(self, e: NonAffine) -> SourceError:
        return self.error(e.node, e.what, self.divisor_hint(e))

    def divisor_hint(self, e: NonAffine, default: str | None = None) -> str | None:
        """The hint of `e`, with the --define that makes a divisor of sizes a constant."""
        names = [n for n in e.divisor if not n.startswith("__")]
        if not names or set(names) & set(self.iterators()):
            return e.hint or default
        return f"{e.hint}, or fix the divisor with {' '.join(f'--define {n}=VALUE' for n in names)}"

    # ---- names --------------------------------------------------------------------------
    def symbol(self, name: str) -> Symbol | None:
        sym = self.local.get(name) or self.lookup(name)
        if sym is None and name in self.constants.enums:
            # an enum constant is an int that nothing writes: a parameter, like a const int
            return Symbol(name, "var", "int", is_const=True)
        return sym

    def iterators(self) -> list[str]:
        return [lp.iterator for lp in self.loops]

    def resolve_affine(self, name: str, node):
        if name in self.iterators():
            return ("iter", None)
        earlier = earlier_run_read(self, node, name)
        if earlier:
            raise NonAffine(node, earlier.what, earlier.hint)
        if name in self.fixed and not self._own_variable(name):
            self._param(name)
            self.fixed_affine.add(name)
            # (a `long n` may be 3e9, and so may a macro: `-D N=3000000000` makes it a long)
            sym, what = self.symbol(name), f"'{name}' = {self.fixed[name]}"
            if sym is not None and not has_type_word(sym, {}, WIDE_WORDS):
                int_sized(self.fixed[name], node, what, f"'{name}' is an int: give a value below 2^31, or declare it long")
            long_sized(self.fixed[name], node, what)
            return ("fixed", self.fixed[name])
        if name in self.int_macros:
            what = f"'{name}' = {self.int_macros[name]}"
            long_sized(self.int_macros[name], node, what)
            if not wide_macro(self, name):     # (`#define N 3000000000` is a long: its loops count in long)
                int_sized(self.int_macros[name], node, what)
            self._param(name)
            return ("param", None)
        sym = self.symbol(name)
        if sym is None:
            raise NonAffine(node, *self.constants.undeclared(name))
        if sym.kind == "array":
            raise NonAffine(node, f"non-affine: array '{name}' used in an index or bound",
                            "copy the value into a variable set before the region")
        # `Index_t n` with `typedef int Index_t;` (LULESH, HPCG's local_int_t) is an int too
        if sym.kind != "var" or not int_var(sym, self.lookup):
            raise NonAffine(node, f"non-affine: '{name}' ({sym.ctype}) used in an index or bound",
                            "bounds and subscripts must be integer affine expressions")
        if name in self.exits:
            raise NonAffine(node, stale_read(self, node, name).what, f"write the value '{name}' holds there instead")
        if name in self.written:
            hint = written_bound_hint(name, self.assigned.get(name, ()), self._set_before_loops(name), self.where)
            raise NonAffine(node, f"non-affine: '{name}' is written inside the region and used in "
                                  "an index or bound", hint)
        self._param(name)
        return ("param", None)

    def resolve_subscript(self, name: str, node):
        kind, value = self.resolve_affine(name, node)
        return ("param", None) if kind == "fixed" else (kind, value)

    def _own_variable(self, name: str) -> bool:
        """Written here (TSVC's `real_t x`) or an array here: another region's size `int x`
        that --define fixes is not its value."""
        sym = self.symbol(name)
        return name in self.written or sym is not None and sym.kind == "array"

    def _param(self, name: str):
        if name not in self.params:
            self.params.append(name)

    def translator(self) -> Translator:
        return Translator(self.resolve_affine, self._fix_products, self._fix_divisor, types=self.int_types,
                          values=lambda names: known_values(self, names))

    def _fix_divisor(self, p):
        return fix_divisor(self, p)

    def _fix_products(self, p):
        return fix_products(self, p)

    def affine_text(self, node, sign_free=None, wheres=None) -> str:
        """`sign_free`: a `%` only compared with 0 (ifconvert.sign_free_mod), of any sign.
        `wheres`: where C evaluates the expression (see `owe`)."""
        tr = self.translator()
        try:
            text = tr.isl_of(tr.translate(node), node)
        except NonAffine as e:
            raise self.nonaffine(e) from None
        owe(self, tr.wrap_obligations, wheres)
        owe_rounding(self, [ob for ob in tr.obligations if ob[1] is not sign_free or sign_free is None], wheres)
        return text

    # ---- conditions ---------------------------------------------------------------------
    def cond_text(self, node, negate: bool = False) -> str:
        return condition_text(self, node, negate)

    # ---- statements ---------------------------------------------------------------------
    def run(self, items: list) -> list[RawStmt]:
        self.items = items
        refuse_pointer_swaps(self, items)
        for it in items:
            self.prescan(it)
        self.block(items)
        return user_numbers_first(self.stmts, self.taken_conditions)

    def _set_before_loops(self, name: str):
        """The region's first loop when `name` is written only before it (a --function region
        that begins by setting what its loops read, in a form function_region does not leave
        outside), else None."""
        from looptx.frontend.temporaries import written_names
        k = next((k for k, it in enumerate(self.items) if isinstance(it, c_ast.For)), None)
        if k is None or name not in written_names(self.items[:k]) or name in written_names(self.items[k:]):
            return None
        return self.items[k]

    def prescan(self, node, inside: bool = False):
        """Record every name written in the region and reject constructs early (`inside`: in a
        while, do or switch, which are reported themselves)."""
        write = write_of(node)
        if write is not None:
            name, values = write
            self.written.add(name)
            self.assigned.setdefault(name, []).extend(values)
        if isinstance(node, (c_ast.Break, c_ast.Continue, c_ast.Return, c_ast.Goto)) and not inside:
            # the exit is what cannot be modelled: said before the data-dependent condition
            # that usually guards it (`if (a[i] < 0) break;`)
            self.item(node)
        refuse_null_test(node, lambda name: name not in self.local and
                         getattr(self.lookup(name), "kind", None) == "array", self.error)
        inside = inside or isinstance(node, (c_ast.While, c_ast.DoWhile, c_ast.Switch))
        for _, child in node.children():
            self.prescan(child, inside)

    def block(self, items):
        for it in items:
            self.item(it)

    def next_position(self) -> int:
        p = self.positions[-1]
        self.positions[-1] += 1
        return p

    def item(self, node):
        if isinstance(node, c_ast.Compound):
            self.block(node.block_items or [])
        elif isinstance(node, c_ast.For):
            self.for_loop(node)
        elif isinstance(node, c_ast.If):
            self.if_stmt(node)
        elif isinstance(node, (c_ast.Assignment, c_ast.UnaryOp)):
            self.statement(node)
        elif isinstance(node, c_ast.Decl):
            self.declaration(node)
        elif isinstance(node, (c_ast.EmptyStatement, c_ast.Pragma)):
            pass
        elif isinstance(node, c_ast.Cast) and c_text(node.to_type) == "void":
            void_cast(self, node)
        elif isinstance(node, (c_ast.While, c_ast.DoWhile)):
            raise self.error(node, f"{'do-while' if isinstance(node, c_ast.DoWhile) else 'while'} loops are not supported",
                             "rewrite it as a for loop with affine bounds")
        elif isinstance(node, (c_ast.Goto, c_ast.Label)):
            raise self.error(node, "goto and labels are not supported",
                             "write the jump as an if/else around the statements it skips")
        elif isinstance(node, (c_ast.Break, c_ast.Continue)):
            if isinstance(node, c_ast.Break):
                raise self.error(node, "'break' is not supported inside a region",
                                 "express the exit as a loop bound or an affine if")
            raise self.error(node, "'continue' is supported only as the last statement of an if "
                                   "directly in a for loop's body", "guard the statements it skips with an if")
        elif isinstance(node, c_ast.Return):
            raise self.error(node, "'return' is not supported inside a region", "move it after the region")
        elif isinstance(node, c_ast.Switch):
            raise self.error(node, "switch is not supported", "write it as if / else if on the value (a condition "
                                   "on data is read as conditional assignments)")
        elif isinstance(node, c_ast.FuncCall):
            if c_text(node.name) == "__lx_asm":
                from looptx.frontend.purefuncs import pure_call
                pure_call(self, node)           # (its own refusal of inline assembly)
            # NPB's `if (timeron) timer_stop(4);` between two nests of one region
            raise self.error(node, f"call to '{c_text(node.name)}' is a statement with side effects",
                             "only assignments (with pure math calls) may appear in a region" if self.loops else
                             f"the region calls '{c_text(node.name)}', which a region cannot hold: mark the loop "
                             "nests around it as regions of their own (#pragma scop ... #pragma endscop), so the "
                             "call stays outside")
        else:
            raise self.error(node, f"unsupported statement ({type(node).__name__})",
                             "a region holds for loops, affine ifs and assignments")

    def declaration(self, node: c_ast.Decl):
        declare(self, node)

    def for_loop(self, node: c_ast.For):
        init = node.init
        it, lb = loop_start(self, node)
        if it in self.iterators():
            raise self.error(node, f"loop iterator '{it}' shadows an enclosing loop's iterator",
                             "rename the inner iterator")
        self.exits.pop(it, None)
        ctype = integer_counter_type(self, node, init, it)
        lb, node = put_in(self, lb), copy.copy(node)
        node.cond = put_in(self, node.cond)
        step = self.loop_step(node, it)
        mark = len(self.ctx_obligations)
        evaluated_mark = len(self.evaluated_obligations)
        try:
            lb_text = self.affine_text(lb)
            outside = evaluated_where(self)
            counter_start(self, lb, it, lb_text, outside, ctype)
            self.loops.append(Loop(it, [], step < 0, ctype))
            try:
                # C tests the condition first at the lower bound, whether or not the loop runs
                conj = self.loop_condition(node, it, step, outside + [f"{it} = {lb_text}"])
            finally:
                self.loops.pop()
        except SourceError as e:
            if e.what.startswith("non-affine: array element"):
                e.hint = data_bound_hint(it)
            raise
        cons = [f"{it} >= {lb_text}" if step > 0 else f"{it} <= {lb_text}"] + conj
        if abs(step) > 1:
            cons.append(f"({it} - ({lb_text})) mod {abs(step)} = 0")
        if step < 0 and set(arithmetic_type(ctype, self.lookup).split()) & UNSIGNED_WORDS:
            # `for (i = n - 1; i < n; i--)` over an unsigned i: past 0, i wraps to the type's
            # largest value, which fails the test; the model's i goes negative instead
            cons.append(f"{it} >= 0")
        check_body_keeps(self, node.stmt, it)
        self.loop_positions.append(self.next_position())
        self.loops.append(Loop(it, cons, step < 0, ctype, self.where(node)))
        self.positions.append(0)
        self.counted_inside.append(inner_counters(node.stmt))
        try:
            self.item(node.stmt)
        finally:
            self.counted_inside.pop()
            self.loops.pop()
            self.positions.pop()
            self.loop_positions.pop()
            del self.ctx_obligations[mark:]
            del self.evaluated_obligations[evaluated_mark:]
        finished(self, it, exit_value(node, it, lb, step))

    def loop_step(self, node: c_ast.For, it: str) -> int:
        return loop_step(self, node, it)

    def loop_condition(self, node: c_ast.For, it: str, step: int, first_test: list[str] | None = None) -> list[str]:
        return loop_condition(self, node, it, step, first_test)

    def if_stmt(self, node: c_ast.If):
        node = copy.copy(node)
        node.cond = put_in(self, node.cond)
        mark, evaluated_mark = len(self.ctx_obligations), len(self.evaluated_obligations)
        try:
            then_c = self.cond_text(node.cond)
        except SourceError as e:
            branch_on_data(self, node, e)
            del self.ctx_obligations[mark:]
            del self.evaluated_obligations[evaluated_mark:]
            return
        self.conds.append(then_c)
        try:
            self.item(node.iftrue)
        finally:
            self.conds.pop()
        if node.iffalse is not None:
            self.conds.append(self.cond_text(node.cond, negate=True))
            try:
                self.item(node.iffalse)
            finally:
                self.conds.pop()
        del self.ctx_obligations[mark:]
        del self.evaluated_obligations[evaluated_mark:]

    def statement(self, node):
        if isinstance(node, c_ast.UnaryOp):
            if node.op not in ("p++", "++", "p--", "--"):
                raise self.error(node, "expression statement without effect", "remove it")
            one = c_ast.Constant("int", "1", node.coord)
            node = c_ast.Assignment("+=" if "+" in node.op else "-=", node.expr, one, node.coord)
        refuse_stepped_pointer(self, node)
        node = put_in(self, node, skip=node.lvalue if isinstance(node.lvalue, c_ast.ID) else None)
        if isinstance(node.lvalue, c_ast.ID):
            self.exits.pop(node.lvalue.name, None)
        sid = len(self.stmts)
        # subscripts keep fixed sizes symbolic so that linearized ones can still be
        # delinearized; the sizes are substituted once the array's shape is known
        tr = Translator(self.resolve_subscript, fix_divisor=self._fix_divisor, fix_dividend=self._fix_products,
                        types=self.int_types, values=lambda names: known_values(self, names))
        self.cur_accesses: list[RawAccess] = []
        self.cur_tr = tr
        self.guard_obligations = []
        lhs = node.lvalue
        if not isinstance(lhs, (c_ast.ArrayRef, c_ast.ID)):
            raise self.error(lhs, self._lvalue_problem(lhs), "assign to an array element or a scalar")
        rhs = self.expr(node.rvalue)
        if node.op != "=":
            self.ref(lhs, "read")
        target = self.ref(lhs, "write")
        body = ir.Assign(node.op, target, rhs)
        line, col = self.where(node)
        obligations = [(c, *self.where(n), w, None) for c, n, w in tr.obligations] + list(self.ctx_obligations)
        constraints = [c for lp in self.loops for c in lp.constraints] + list(self.conds)
        # 2d+1: (position, iterator) per enclosing loop, then the position in the innermost body
        sched = []
        for depth, lp in enumerate(self.loops):
            sched += [self.loop_positions[depth], lp.iterator]
        sched.append(self.next_position())
        self.stmts.append(RawStmt(sid, tuple(self.iterators()), tuple(lp.reversed for lp in self.loops),
                                  constraints, body, self.cur_accesses, tuple(sched), line, col,
                                  c_text(node), tr, obligations, tuple(lp.ctype for lp in self.loops),
                                  tuple(lp.pos for lp in self.loops), list(self.guard_obligations),
                                  list(self.evaluated_obligations) + owed_at(self, tr.wrap_obligations, None)))

    def _unsigned_subscript(self, s, poly) -> None:
        """A subscript C computes in 32-bit unsigned arithmetic (`b[4 * i]`, `mask[y * 640 + x]`
        of unsigned i, y) wraps past 2^32 - 1 and below 0, where the model's integers go on: it
        must stay in 0..2^32 - 1 wherever the statement runs (over the sizes, a fact the output
        checks; probe 197 G2)."""
        # (a product with a size, a linearized subscript `k*W + l`, is delinearized later: not
        # here; a sum of counters and sizes below 2^31, the README's reading of a 32-bit unsigned
        # size, stays below 2^32: `a[i + 2]` owes nothing, `b[4 * i]` does)
        if not isinstance(s, c_ast.BinaryOp) or s.op not in ("+", "-", "*") or \
                self.int_types.type_of(s) != (32, True) or poly.degree() > 1 or \
                not any(abs(c) > 1 for m, c in poly.terms if m):
            return
        inner = self.cur_tr.isl_of(poly, s)
        self.cur_tr.wrap_obligations.append((
            f"0 <= ({inner}) <= 4294967295", s,
            f"C computes the subscript '{c_text(s)}' in unsigned int, and it leaves 0..4294967295 at some point "
            "where the statement runs, so it wraps", "compute it in a 64-bit type ((size_t)i * ...)", False, True))

    def _lvalue_problem(self, lhs) -> str:
        if isinstance(lhs, c_ast.StructRef):
            return "struct member access is not supported"
        if isinstance(lhs, c_ast.UnaryOp) and lhs.op == "*":
            return "assignment through a pointer dereference is not supported"
        return "unsupported assignment target"

    # ---- expressions --------------------------------------------------------------------
    def ref(self, node, kind: str) -> ir.Ref:
        subs, base = [], node
        while isinstance(base, c_ast.ArrayRef):
            subs.append(base.subscript)
            base = base.name
        subs.reverse()
        if not isinstance(base, c_ast.ID):
            if isinstance(base, c_ast.StructRef):
                raise self.error(base, "struct member access is not supported", "copy the data into an array")
            cast = base
            while isinstance(cast, c_ast.ArrayRef):
                cast = cast.name
            if isinstance(cast, c_ast.Cast):
                raise self.error(base, "an array indexed through a cast", cast_view_hint(cast))
            raise self.error(base, "unsupported array expression", "index a named array")
        name = base.name
        sym = self.symbol(name)
        if sym is None and name not in self.int_macros:
            raise self.error(base, f"undeclared identifier '{name}'",
                             f"declare the {'array' if subs else 'variable'} before the region")
        if name in self.iterators():
            raise self.error(base, f"loop iterator '{name}' cannot be assigned in the loop body",
                             "only the loop header may change its iterator")
        if sym is None or sym.kind not in ("var", "array"):
            raise self.error(base, f"'{name}' is not a variable or array", "index a declared array")
        if len(subs) != len(sym.dims):
            if sym.kind == "array" and len(subs) < len(sym.dims):
                raise self.error(node, f"'{name}' used as a pointer ({len(subs)} of {len(sym.dims)} subscripts)",
                                 "subscript every dimension (pointer arithmetic is not supported)")
            raise self.error(node, f"'{name}' has {len(sym.dims)} dimension(s) but {len(subs)} subscript(s)",
                             "subscript every dimension exactly once")
        polys = []
        rid = self.next_ref
        for d, s in enumerate(subs):
            try:
                polys.append(self.cur_tr.translate(s))
                self._unsigned_subscript(s, polys[-1])
            except NonAffine as e:
                if kind == "read" and name not in self.written and (
                        through_index(e, self.assigned) or masked_bound(s) is not None):
                    # a read through an index array (`x[cols[k]]`) of an array the region never
                    # writes: any element, which no dependence involves (ir.GATHERED)
                    polys.append(Poly.sym(f"{ir.GATHERED}{rid}_{d}"))
                    continue
                if isinstance(e.node, (c_ast.UnaryOp, c_ast.StructRef)):
                    raise self.nonaffine(e) from None
                what = e.what.replace("non-affine: ", "").replace("non-affine ", "")
                if kind == "read" and name in self.written and through_index(e, self.assigned):
                    # a table the region builds and then reads through an index (histogram
                    # equalisation's `lut[img[i]]`): which element depends on data
                    raise self.error(node, f"non-affine subscript of '{name}': {what}, and the region "
                                           f"writes '{name}', so which element it reads depends on data",
                                     f"a region that only reads '{name}' may read it through an index, so put "
                                     f"the loops that write '{name}' in a region of their own; an update through "
                                     f"an index (a histogram's `{name}[key[i]] += 1`) cannot be in any region: "
                                     "leave that loop outside the markers") from None
                if kind != "read" and (what.startswith("array element") or "set from array data" in (e.hint or "")):
                    raise self.error(node, f"non-affine subscript of '{name}': {what}", WRITE_THROUGH_DATA) from None
                raise self.error(node, f"non-affine subscript of '{name}': {what}",
                                 self.divisor_hint(e, "subscripts must be affine in loop iterators and parameters")) \
                    from None
        if any(wide_subscript(s, self.symbol, self.lookup, self.loops) for s in subs):
            self.wide_index.add(name)
        self.next_ref += 1
        self.cur_accesses.append(RawAccess(rid, name, kind, polys, subs, node, " and ".join(self.guards),
                                           self.inexact_guards > 0))
        self.in_index += 1
        try:
            index = tuple(self.expr(s) for s in subs) if sym.kind == "array" else ()
        finally:
            self.in_index -= 1
        return ir.Ref(name, rid, index)

    def expr(self, node) -> ir.Expr:
        spelled = self.spellings.expr_of(node) if not self.in_index else None
        value = self._expr(node)
        if spelled is not None and not any(isinstance(x, (ir.Ref, ir.Var)) for x in ir.walk(value)):
            text = value.text if isinstance(value, ir.Num) else f"({ir.to_c(value)})"
            return ir.Num(text, spelled)
        return value

    def _expr(self, node) -> ir.Expr:
        e = self.expr
        if isinstance(node, c_ast.Constant):
            if node.type == "string":
                raise self.error(node, "string literal in a statement", "regions compute on numbers")
            return ir.Num(node.value)
        if isinstance(node, c_ast.ID):
            name = node.name
            if name in self.iterators():
                return ir.Var(name)
            earlier = earlier_run_read(self, node, name)
            if earlier:
                raise earlier
            if name in self.fixed and not self._own_variable(name) or name in self.int_macros:
                self._param(name)
                return ir.Var(name)
            sym = self.symbol(name)
            if sym is None:
                raise self.error(node, f"undeclared identifier '{name}'",
                                 "declare it before the region or define it as a macro")
            if sym.kind == "array":
                raise self.error(node, f"array '{name}' used without subscripts (pointer use)",
                                 "subscript every dimension")
            if sym.kind != "var":
                raise self.error(node, f"'{name}' is not a variable", "use variables, arrays and constants")
            if int_var(sym, self.lookup) and name not in self.written and name not in self.local:
                self._param(name)
                return ir.Var(name)
            if name in self.exits:
                raise stale_read(self, node, name)
            return self.ref(node, "read")
        if isinstance(node, c_ast.ArrayRef):
            return self.ref(node, "read")
        if isinstance(node, c_ast.BinaryOp) and node.op in ("&&", "||"):
            left = e(node.left)
            return ir.Bin(node.op, left, guarded(self, node.right, node.left, node.op == "||"))
        if isinstance(node, c_ast.BinaryOp):
            return ir.Bin(node.op, e(node.left), e(node.right))
        if isinstance(node, c_ast.UnaryOp):
            if node.op in ("-", "+", "!", "~"):
                return ir.Un(node.op, e(node.expr))
            if node.op in ("p++", "++", "p--", "--"):
                raise self.error(node, "increment inside an expression",
                                 "write the increment as its own statement; a count used as a subscript "
                                 "(a[l++]) is written from the loop counters instead")
            if node.op == "*":
                raise self.error(node, "pointer dereference is not supported", "use array subscripts")
            if node.op == "&":
                raise self.error(node, "address-of operator is not supported", "use array subscripts")
            if node.op == "sizeof":
                # an unevaluated operand: its size does not depend on the loop counters, which
                # the regenerated code renames or unrolls away (`sizeof(a[i])` -> `sizeof(a[0])`)
                types = {lp.iterator: arithmetic_type(lp.ctype, self.lookup) for lp in self.loops}
                return ir.Num(c_text(counters_zeroed(node, types)))
            raise self.error(node, f"unsupported operator '{node.op}'", "rewrite it with plain C arithmetic")
        if isinstance(node, c_ast.TernaryOp):
            return ir.Cond(e(node.cond), guarded(self, node.iftrue, node.cond, False),
                           guarded(self, node.iffalse, node.cond, True))
        if isinstance(node, c_ast.Cast):
            # `(real_t) 1.`: the type it stands for, so that code compiled without the file's
            # typedefs (run's harness, the .cu) reads; the output keeps the user's spelling
            written = c_text(node.to_type)
            ctype = resolve_typedef(written, self.lookup)
            return ir.Cast(ctype, e(node.expr), self.spellings.type_name(node.to_type)
                           or (written if ctype != written else None))
        if isinstance(node, c_ast.FuncCall):
            return pure_call(self, node)
        if isinstance(node, c_ast.StructRef):
            raise self.error(node, "struct member access is not supported", "copy the value into a variable")
        if isinstance(node, c_ast.Assignment):
            raise self.error(node, "assignment inside an expression", "write it as its own statement")
        if isinstance(node, c_ast.ExprList):
            raise self.error(node, "comma expression is not supported", "write separate statements")
        if isinstance(node, c_ast.Compound):
            raise self.error(node, "a statement expression `({ ... })` (a GCC extension) is not supported",
                             "write its statements before the expression, or make it an inline function")
        raise self.error(node, f"unsupported expression ({type(node).__name__})", "rewrite it with plain C arithmetic")


__all__ = ["Extractor", "RawStmt", "RawAccess", "PURE_MATH", "min_max_of_ternary"]
