"""KernelAST -> C text, and the regenerated file (only the regions change)."""
from __future__ import annotations

import re

from looptx import ir
from looptx.frontend.conditionals import guard_lines
from looptx.frontend.names import C_KEYWORDS, to_user
from looptx.frontend.symbols import ARITH_WORDS, WIDE_WORDS
from looptx.codegen import ast as K
from looptx.codegen.signed_sizes import signed_params, signed_ref
from looptx.poly.jam_locals import root_of
from looptx.codegen.versioning import baked_guard
from looptx.codegen.team_code import team_lines
from looptx.codegen.omp_clauses import check_collapse, reductions_of_copies, section_guard, takes_firstprivate, fors as _fors, harness_clauses, loop_private, takes_copies as _takes_copies, unlisted as _unlisted
from looptx.poly.parallel import clause_names, collapsed, is_omp_for, takes_data_clauses
from looptx.poly.reductions import clause_pairs
from looptx.poly.variant import LoopDim, Variant

HELPERS = {
    "lx_min": "#define lx_min(a, b) ((a) < (b) ? (a) : (b))",
    "lx_max": "#define lx_max(a, b) ((a) > (b) ? (a) : (b))",
    # no `(n) < 0` test: gcc -Wextra calls it always false on a cast unsigned size (uint16_t);
    # long long: `n % d + d` of an int n and a tile of 2^31 - 1 would overflow
    "lx_floord": "#define lx_floord(n, d) (((long long)(n) - (((long long)(n) % (d) + (d)) % (d))) / (d))",
}


def helper_block(names) -> list[str]:
    out = []
    for n in sorted(names):
        out += [f"#ifndef {n}", HELPERS[n], "#endif"]
    return out


def used_helpers(text: str) -> set[str]:
    return {h for h in HELPERS if re.search(rf"\b{h}\(", text)}


def reserved_names(variant: Variant) -> set[str]:
    scop = variant.scop
    names = set(scop.params) | {a.name for a in scop.arrays} | C_KEYWORDS | set(HELPERS)
    # the function's variables that the region no longer reads (a paired counter `ii`): a new
    # loop of that name would hide the `(void)ii;` the output owes gcc -Wall (a loop of the
    # region's own that counts with it still does)
    names |= {n for n, declared in scop.substituted if declared} - {it for s in scop.statements for it in s.iterators}
    for s in scop.statements:
        for e in ir.walk(s.body):
            if isinstance(e, ir.Var) and e.name not in s.iterators:
                names.add(e.name)
            elif isinstance(e, ir.Call):
                names.add(e.fn)
    return names


def loop_dim(variant: Variant, stmt: int, dim: int) -> LoopDim | None:
    for _, p in variant.pieces_of(stmt):
        if dim < len(p.dims) and isinstance(p.dims[dim], LoopDim):
            return p.dims[dim]
    return None


def name_loops(node: K.Node, variant: Variant, reserved: set[str] | None = None,
               scope: dict | None = None) -> K.Node:
    """Give every isl loop (c0, c1, ...) its name from the loop table; reversed loops become
    decreasing loops over the negated variable; all integer expressions are simplified."""
    reserved = reserved_names(variant) if reserved is None else reserved

    def go(n: K.Node, scope: dict[str, ir.Expr], live: set[str]) -> K.Node:
        if isinstance(n, K.For):
            leaf = next(K.leaves(n.body), None)
            ld = loop_dim(variant, leaf.stmt, n.dim) if leaf is not None and n.dim >= 0 else None
            base = ld.name if ld is not None else n.var
            name = base
            k = 1
            while name in live or name in reserved:
                name = f"{base}_{k}"
                k += 1
            init = K.simplify(K.subst(n.init, scope))
            cond = K.subst(n.cond, scope)
            if ld is not None and ld.reversed:
                inner = dict(scope)
                inner[n.var] = ir.Un("-", ir.Var(name))
                init = K.simplify(ir.Un("-", init))
                if isinstance(cond, ir.Bin) and isinstance(cond.a, ir.Var) and cond.a.name == n.var:
                    cond = ir.Bin(K.CMP_MIRROR[cond.op], ir.Var(name), ir.Un("-", cond.b))
                else:
                    cond = K.subst(n.cond, inner)
                step = -n.step
            else:
                inner = dict(scope)
                inner[n.var] = ir.Var(name)
                cond = K.subst(n.cond, inner)
                step = n.step
            body = go(n.body, inner, live | {name})
            return K.For(name, init, K.simplify_cond(cond), step, body, n.dim)
        if isinstance(n, K.If):
            return K.If(K.simplify_cond(K.subst(n.cond, scope)), go(n.then, scope, live),
                        go(n.orelse, scope, live) if n.orelse is not None else None)
        if isinstance(n, K.Block):
            return K.Block(tuple(go(c, scope, live) for c in n.items))
        if isinstance(n, (K.Leaf, K.Assign, K.Launch)):
            return K.map_exprs(n, lambda e: K.simplify(K.subst(e, scope)))
        if isinstance(n, K.Mark):
            return K.Mark(n.name, go(n.body, scope, live), n.info)
        return n
    return go(node, dict(scope or {}), set())


# the user's declared type of a loop counter, by the type the generated loops count in
_SAME_TYPE = {"int": "int", "signed": "int", "signed int": "int", "int signed": "int",
              "long": "long", "long int": "long", "signed long": "long", "signed long int": "long",
              "long signed int": "long"}


def loop_ctype(scop) -> str:
    """The type of the generated loops' variables: long where the user's iterators are 64-bit
    (their loops may run past INT_MAX), int otherwise."""
    wide = any(set(t.split()) & WIDE_WORDS for s in scop.statements for _, t, _ in s.iter_types)
    return "long" if wide else "int"


class CPrinter:
    """Prints named KernelAST. `ref_text` may be overridden (registers, shared buffers)."""

    sync_text = ""                 # sequential C needs no barrier (a CUDA printer sets one)
    omp = True                     # OpenMP pragmas are for host C; GPU code has its own threads

    def __init__(self, variant: Variant, indent: str = "  ", declare_loops: bool = True,
                 spelled: bool = False):
        self.v = variant
        self.scop = variant.scop
        self.ind = indent
        self.declare = declare_loops
        self.spelled = spelled         # macro uses as the user wrote them (code for the user's file)
        self.loop_ctype = loop_ctype(self.scop)
        self.root: K.Node | None = None    # the whole region (what is outside a loop)
        # most code has no pragma step: its loops skip the search for one
        self.any_pragmas = any(isinstance(d, LoopDim) and d.pragmas
                               for p in variant.pieces for d in p.dims)
        # In the user's file, loops count with the function's own variables where it has them
        # (CHiLL does; new declarations would leave the user's unused).  Inside an OpenMP loop
        # they are named in its private clause.
        self.own_types = dict(self.scop.own_iterators) if spelled and declare_loops else {}
        self.reuse = frozenset(n for n, t in self.own_types.items() if _SAME_TYPE.get(t) == self.loop_ctype)
        self._own_loops: frozenset[int] | None = None     # set by count_with_own
        self._long_loops: frozenset[int] = frozenset()     # loops counting in long (count_with_own)
        self._open: list[str] = []       # counters of the loops being printed
        self._open_long: list[str] = []  # those of them counting in long (past_int)
        self._guarded: set[int] = set()  # loops being printed under their sections' guard
        self._serial: set[int] = set()   # ... and again without their pragmas

    def count_with_own(self, node: K.Node) -> None:
        """Decides, before printing `node`, which loops count with the function's variables: a
        variable of another type than the loops' only where it holds the loop's values
        (codegen/own_counters.py); `reuse` becomes the variables some loop counts with."""
        from looptx.codegen.own_counters import own_loops, past_int
        if self.loop_ctype == "int":
            self._long_loops = past_int(node, self.scop)
        if not self.own_types:
            return
        self._own_loops = own_loops(node, self.scop, self.own_types,
                                    lambda t: _SAME_TYPE.get(t) == self.loop_ctype, self._long_loops)
        self.reuse = frozenset(to_user(f.var) for f in _fors(node) if id(f) in self._own_loops)

    def expr(self, e: ir.Expr) -> str:
        return ir.to_c(signed_params(e, self.scop))

    def ref_text(self, r: ir.Ref) -> str:
        """An array reference as printed: delinearized arrays are linearized again."""
        try:
            arr = self.scop.array(r.array)
        except KeyError:
            arr = None
        if arr is not None and arr.rank == 0 or not r.index:
            return r.array
        # a subscript may hold references itself (`x[cols[k]]`): printed the same way
        index = [ir.to_c(i, ref=self.ref_text) for i in r.index]
        if arr is not None and arr.strides:
            flat = ir.Cast("long", r.index[0]) if arr.wide_index else r.index[0]
            for extent, e in zip(arr.strides, r.index[1:]):
                # a group length (`z[2*(i*m + j) + 1]`, frontend/interleaved) is a number
                size = ir.Num(extent) if extent.isdigit() else ir.Var(extent)
                flat = ir.Bin("+", ir.Bin("*", flat, size), e)
            index = [ir.to_c(K.simplify(flat), ref=self.ref_text)]
        rec = self.scop.record(r.array) if self.scop.records else None
        if rec is not None:
            return rec.spell(index)
        return r.array + "".join(f"[{i}]" for i in index)

    def statement(self, leaf: K.Leaf) -> str:
        s = self.scop.statements[leaf.stmt]
        # an iterator's value is computed as the bounds are (`n - n % 3 + 1` with size_t n in
        # signed arithmetic), not in the unsigned arithmetic C would pick
        mapping = {k: signed_params(v, self.scop) for k, v in zip(s.iterators, leaf.iters)}
        refs = dict(leaf.refs)

        def ref(r: ir.Ref) -> str:
            got = refs.get(r.ref, r)
            if got.ref == ir.GATHERED_REF:
                # `x[cols[k]]`: the subscripts as written, iterators substituted below, the
                # references in them as the leaf has them
                got = ir.Ref(got.array, r.ref, tuple(ir.map_up(i, lambda x: _leaf_ref(x, refs)) for i in r.index))
            elif r.ref in refs:
                got = signed_ref(got, self.scop)         # (isl's subscripts, not the user's C)
            return self.ref_text(got)

        # an iterator of another type than int is read as that type (a size_t `i - 3` wraps,
        # a long `i * i` does not overflow), except as a subscript, where the value is the same
        typed = {n: ir.Cast(t, mapping[n], spelled or None) for n, t, spelled in s.iter_types if n in mapping}
        if self.loop_ctype != "int":
            # an int counter the loops now count in long: `j - 3 < 5u` must stay unsigned (probe 149 G11)
            typed.update({n: ir.Cast("int", mapping[n]) for n in s.iterators if n in mapping and n not in typed})
        else:
            # an int counter whose value reads an unsigned size signed (a peeled `i` is `(long)n - 1`)
            # is an int again in the statement: `i - n` stays unsigned (probe 160 G2)
            # and so is one a loop counts in long (past_int)
            typed.update({n: ir.Cast("int", mapping[n]) for n, x in zip(s.iterators, leaf.iters)
                          if n in mapping and n not in typed and (mapping[n] != x or any(
                              isinstance(w, ir.Var) and w.name in self._open_long for w in ir.walk(x)))})
        body = K.subst(s.body, {**mapping, **typed}, in_refs=mapping) if typed else K.subst(s.body, mapping)
        return ir.to_c(self.body_of(body), ref=ref, spelled=self.spelled) + ";"

    def body_of(self, body: ir.Expr) -> ir.Expr:
        """A statement's expression as this printer's language computes it (C: as written)."""
        return body

    def assign(self, n: K.Assign) -> str:
        # (a copy's subscripts are isl's)
        lhs, rhs = (signed_ref(x, self.scop) if isinstance(x, ir.Ref) else x for x in (n.lhs, n.rhs))
        return f"{ir.to_c(lhs, ref=self.ref_text)} = {ir.to_c(rhs, ref=self.ref_text)};"

    def lines(self, n: K.Node, depth: int = 0) -> list[str]:
        pad = self.ind * depth
        if isinstance(n, K.Leaf):
            return [pad + self.statement(n)]
        if isinstance(n, K.Assign):
            return [pad + self.assign(n)]
        if isinstance(n, K.Block):
            out = []
            for c in n.items:
                out += self.lines(c, depth)
            return out
        if isinstance(n, K.For):
            v = n.var
            step = f"{v}++" if n.step == 1 else f"{v}--" if n.step == -1 else \
                f"{v} += {n.step}" if n.step > 0 else f"{v} -= {-n.step}"
            own = self._own(v) and (self._own_loops is None or id(n) in self._own_loops)
            decl = ("long" if id(n) in self._long_loops else self.loop_ctype) + " " if self.declare and not own else ""
            head = f"{pad}for ({decl}{v} = {self.expr(n.init)}; {self.expr(n.cond)}; {step})"
            prag = [] if id(n) in self._serial else self.pragmas(n)
            guard = None if id(n) in self._guarded else section_guard(n, prag, self.known_text())
            if guard is not None:
                return self._section_guarded(n, depth, *guard)
            # Vitis/Vivado HLS apply a loop directive to the loop whose body it opens
            inside = [p for p in prag if p.split()[1:2] == ["HLS"]]
            prag = [p for p in prag if p not in inside]
            self._open.append(v)
            self._open_long.append(v if id(n) in self._long_loops else "")
            try:
                return [pad + line for line in prag] + self._with_body(head, n.body, depth, first=inside)
            finally:
                self._open.pop()
                self._open_long.pop()
        if isinstance(n, K.If):
            head = f"{pad}if ({self.expr(n.cond)})"
            if n.orelse is None:
                return self._with_body(head, n.then, depth)
            then = self._with_body(head, n.then, depth, force=True)
            els = self._with_body(f"{pad}else", n.orelse, depth, force=True)
            then[-1] += " " + els[0].strip()
            return then + els[1:]
        if isinstance(n, K.Sync):
            return [pad + self.sync_text] if self.sync_text else []
        if isinstance(n, K.Text):
            return [pad + line if line else "" for line in n.text.split("\n")]
        if isinstance(n, K.Mark):
            return [f"{pad}// {n.name}"] + self.lines(n.body, depth)
        raise TypeError(n)

    def _section_guarded(self, n: K.For, depth: int, cond: str, serial: bool) -> list[str]:
        """The loop with its pragma under `cond`, and without it otherwise where it may run."""
        pad = self.ind * depth
        self._guarded.add(id(n))
        try:
            out = [f"{pad}if ({cond}) {{"] + self.lines(n, depth + 1) + [f"{pad}}}"]
        finally:
            self._guarded.discard(id(n))
        if serial:
            self._serial.add(id(n))
            try:
                out = out[:-1] + [f"{pad}}} else {{"] + self.lines(n, depth + 1) + [f"{pad}}}"]
            finally:
                self._serial.discard(id(n))
        return out

    def known_text(self) -> str:
        """The sizes' known facts as one isl condition ('' where none or a union of cases)."""
        m = re.fullmatch(r"\s*(?:\[[^\]]*\]\s*->\s*)?\{\s*:\s*([^;{}]*?)\s*\}\s*", str(self.v.context))
        return m.group(1) if m else ""

    def _own(self, v: str) -> bool:
        """Whether a loop counts with the function's variable: a loop inside one with the same
        counter shadows it and declares its own."""
        return to_user(v) in self.reuse and v not in self._open

    def pragmas(self, n: K.For) -> list[str]:
        """The loop's pragma steps.  Under `omp parallel for`, a buffer that a copy inside the
        loop fills is private (it is declared before the region), as are the inner loops'
        variables where loops are not declared in their headers."""
        if not self.any_pragmas:
            return []
        stmts = list(dict.fromkeys(x.stmt for x in K.leaves(n.body)))
        ld = loop_dim(self.v, stmts[0], n.dim) if stmts and n.dim >= 0 else None
        if ld is None:
            return []
        texts = []
        # a loop fused after the step has the pragma in the pieces of the statement it was for
        for stmt in stmts:
            for _, p in self.v.pieces_of(stmt):
                d = p.dims[n.dim] if n.dim < len(p.dims) else None
                if isinstance(d, LoopDim) and d.name == ld.name:
                    texts += [t for t in d.pragmas if t not in texts]
        out = []
        for t in texts:
            if is_omp_for(t) and not self.omp:
                continue
            if is_omp_for(t):
                if self.scop.team and self.scop.team_kind == "team":
                    # the team around the region is there already: its threads share the loop
                    t = "omp for" + t[len("omp parallel for"):]
                elif self.scop.team_head and n.dim == 1 and t.startswith("omp parallel for"):
                    # the offload or OpenACC directive the nest had (frontend/omp_team.py)
                    t = self.scop.team_head + t[len("omp parallel for"):]
            if takes_data_clauses(t):
                if not self.spelled:
                    # the harness names the sizes and counters otherwise (parameters, loop
                    # headers) and leaves out what the region does not read: the text's own
                    # clauses may not
                    macros = {n for n, _ in (*self.scop.fixed, *self.scop.macro_values)} | set(self.scop.soft_macros)
                    t = harness_clauses(t, ({a.name for a in self.scop.arrays} | set(self.scop.params)) - macros)
                # the parallel loop's own counter is private already (OpenMP predetermines it);
                # so are the collapsed loops' (a clause may not name them again)
                collapse = _fors(n, collapsed(t))
                check_collapse(t, collapse, collapsed(t), self.scop)
                shared_out = {f.var for f in collapse}
                private = sorted({f.var for f in _fors(n.body)
                                  if f.var not in shared_out and (not self.declare or self._own(f.var))})
                # model spellings (`lx_kw_min`), as in the body: the file's text is turned into
                # the user's at the end, and the harness compiles it as it is; a variable the
                # text's own clauses name already is not named twice
                own, before, after = loop_private(self.scop, self.root, n)
                # the text's own private(x) of a variable isl printed an instance of outside the
                # loop: the copies must start from it or end in it, as looptx's own do
                t, moved = _unlisted(t, before | after if t.startswith("omp") else before)
                reduced = {var for _, var in clause_pairs(t)} | clause_names(t)
                private = [x for x in private if x not in reduced]
                private += [x for x in moved if x not in private]
                private += [x for x in own if x not in reduced and x not in private]
                t, joined = reductions_of_copies(t, private, {a.name for a in self.scop.arrays})
                private = [x for x in private if x not in joined]
                # a jammed local's copies start at the 0 they are declared with (_zeroed), or
                # gcc warns of the last strip's guarded uses; inside a team each thread
                # declares them already, and OpenMP takes no firstprivate of what is private
                team = self.scop.team and self.scop.team_kind == "team"
                jammed = set() if team else set(_copies_of_locals(self.scop, n.body)) | \
                    jammed_locals(self.scop, n.body)
                # ... but not the function's own declaration of the local, which has no 0 (and
                # which each iteration writes before it reads, as privatize checked)
                theirs = {a.name for a in self.scop.arrays if a.declared_by_function} if self.spelled else set()
                # (a directive that takes no firstprivate leaves them private: each iteration
                # writes them before it reads them, probe 224 G8)
                first = [x for x in private if x in jammed and x not in theirs and takes_firstprivate(t) or x in before]
                last = [x for x in private if x in after] if t.startswith("omp") else []
                _takes_copies(t, [x for x in first if x in before], last, self.scop)
                private = [x for x in private if x not in first and x not in last]
                t += f" private({', '.join(private)})" if private else ""
                t += f" firstprivate({', '.join(first)})" if first else ""
                t += f" lastprivate({', '.join(last)})" if last else ""
            guard = self.scop.team_guard if re.match(r"(omp|acc)\b", t) else ()
            out += [guard[0], f"#pragma {t}", guard[-1]] if guard else [f"#pragma {t}"]
        return out

    def _with_body(self, head: str, body: K.Node, depth: int, force: bool = False, first=()) -> list[str]:
        """`first`: lines the body opens with (a loop's HLS directives)."""
        inner = [self.ind * (depth + 1) + line for line in first] + self.lines(body, depth + 1)
        # a pragma is not a statement: the loop it comes before must be the body's only one
        force = force or bool(inner) and inner[0].lstrip().startswith("#")
        if not force and isinstance(body, (K.Leaf, K.For)) or (not force and len(inner) == 1
                                                                and not isinstance(body, K.If)):
            return [head] + inner
        return [head + " {"] + inner + [self.ind * depth + "}"]


def buffer_decl(b, qualifier: str = "", per_thread: bool = False, spelled: bool = False) -> str:
    """`per_thread`: the declaration inside one GPU thread (leading thread dimensions dropped)."""
    dims = list(b.sizes)[b.lead if per_thread else 0:]
    if dims and b.pad:
        dims[-1] += b.pad
    ctype = b.spelled_ctype if spelled and b.spelled_ctype else b.ctype
    return f"{qualifier}{ctype} {b.name}{''.join(f'[{d}]' for d in dims)};"


class ThreadPrinter(CPrinter):
    """Code run by one GPU thread: per-thread register arrays lose their thread dimensions."""

    omp = False

    def __init__(self, variant, buffers=(), indent="  ", spelled: bool = False):
        super().__init__(variant, indent, spelled=spelled)
        self.lead = {b.name: b.lead for b in buffers if b.lead}

    def ref_text(self, r: ir.Ref) -> str:
        n = self.lead.get(r.array)
        if n:
            r = ir.Ref(r.array, r.ref, r.index[n:])
        return super().ref_text(r)


def _leaf_ref(x: ir.Expr, refs: dict) -> ir.Expr:
    if isinstance(x, ir.Ref) and x.ref in refs and refs[x.ref].ref != ir.GATHERED_REF:
        return refs[x.ref]
    return x


def _note_dropped_pragmas(variant: Variant, node: K.Node) -> None:
    """A pragma or omp_for on a loop that runs once at these sizes (a tile's control loop whose
    size covers the trip count) has no loop to stand on in the output: say so, as a tuned
    point would otherwise lose its parallelism unseen."""
    printed = set()
    for f in K.nodes(node, K.For):
        leaf = next(iter(K.leaves(f.body)), None)
        ld = loop_dim(variant, leaf.stmt, f.dim) if leaf is not None and f.dim >= 0 else None
        if ld is not None:
            printed.add(ld.name)
    lost = sorted({d.name for p in variant.pieces for d in p.dims
                   if isinstance(d, LoopDim) and d.pragmas and d.name not in printed})
    if lost:
        from looptx.errors import note_once
        where = variant.scop.where()
        note_once(where["file"], where["line"], f"the pragma of loop {', '.join(map(repr, map(to_user, lost)))} "
                  "is dropped: that loop runs once at these sizes, so the output has no loop to put it on "
                  "(give it to the loop inside, or a tile size below the trip count)")


def region_lines(variant: Variant, node: K.Node, indent: str = "  ", buffers=(),
                 spelled: bool = False) -> list[str]:
    """The regenerated region as a C block (without the file's base indentation); for the
    user's file (`spelled`), after the checks of the sizes it holds for only."""
    printer = CPrinter(variant, indent, spelled=spelled)
    printer.root = node
    printer.count_with_own(node)
    if spelled:
        _note_dropped_pragmas(variant, node)
    body = team_lines(printer, node, 1) if variant.scop.team and variant.scop.team_kind == "team" \
        else printer.lines(node, 1)
    jammed = jammed_locals(variant.scop, node)
    decls = [indent + _zeroed(a.spelled_decl if spelled and a.spelled_decl else a.decl,
                              a.ctype if a.name in jammed else None)
             for a in variant.scop.arrays if a.local and a.decl and not (spelled and a.declared_by_function)]
    # the function's own variable is the jam's copy 0: set like the other copies' declarations
    # (it is the region's, dead after it)
    decls += [f"{indent}{a.name} = 0;" for a in variant.scop.arrays
              if spelled and a.local and a.declared_by_function and a.is_scalar and a.name in jammed
              and _zeroed(f"{a.ctype} {a.name};", a.ctype) != f"{a.ctype} {a.name};"]
    decls += [indent + d for d in copy_decls(variant.scop, node, spelled)]
    decls += [indent + buffer_decl(b, spelled=spelled) for b in buffers]
    # a variable whose type holds no loop's values is unused even where loops of its name are
    decls += unused_counters(printer.reuse, body, indent, unused=set(printer.own_types) - printer.reuse,
                             address=bool(variant.scop.team))
    if spelled:
        decls += unused_set_before(variant.scop, body, indent)
    kept = [f"{indent}#pragma {d}" for d in variant.scop.directives]
    guards = baked_guard(variant.scop) + guard_lines(variant.scop, "\n".join(decls + body)) \
        + list(variant.scop.conditionals) if spelled else []
    return guards + ["{"] + kept + decls + body + ["}"] + (list(variant.scop.macros_after) if spelled else [])


def unused_counters(names, body: list[str], indent: str,
                    why: str = "no loop of the output counts with it", unused=(), address: bool = False) -> list[str]:
    """`(void)i;` for each of the function's loop counters `names` that no line of `body`
    uses: a loop unrolled or fused away, or a grid emulation's own counters (gcc -Wall); or
    for other variables of the function the output no longer uses, and `why`; and for each of
    `unused`, which the lines do not use whatever names they hold.  `address`: the region runs
    in an OpenMP team."""
    text = "\n".join(body)
    gone = sorted({n for n in names if not re.search(rf"(?<![\w.]){re.escape(n)}(?!\w)", text)} | set(unused))
    # in an OpenMP team a counter the team shared out was private and is unset here: its
    # address is a use that reads nothing (gcc -Wuninitialized)
    return [f"{indent}(void){'&' if address else ''}{n};  /* {why} */" for n in gone]


def unused_set_before(scop, body: list[str], indent: str) -> list[str]:
    """`(void)n;` for the variables set before the region whose uses the output reads as
    their expressions: a product of sizes (ISO-3DFD's dimn1n2), a temporary substituted, or
    a local a grid emulation's bounds read as its expression (`nn = n - t`)."""
    # (not an enum constant's, `NCOMP = 3`, which is no variable)
    # (a local only another derived size is computed from, `n` of `int n = N; int len = n;`,
    # is no size the region reads)
    read = set(scop.params) | {w for a in scop.arrays for d in a.dims for w in re.findall(r"[A-Za-z_]\w*", str(d))}
    return unused_counters([n for n, before in scop.substituted if before]
                           + [n for n, init in scop.derived if not re.fullmatch(r"-?\d+", str(init).strip())
                              and n in read],
                           body, indent, "its uses read the expression it was set to")


def _copies_of_locals(scop, node: K.Node) -> list[str]:
    arrays = {a.name for a in scop.arrays}
    return sorted({r.array for x in K.nodes(node, K.Leaf) for _, r in x.refs if root_of(r.array, arrays) != r.array})


def jammed_locals(scop, node: K.Node) -> set[str]:
    """The locals a jam gave each copy a variable of (poly/jam_locals.py)."""
    arrays = {a.name for a in scop.arrays}
    return {root_of(n, arrays) for n in _copies_of_locals(scop, node)}


def _zeroed(decl: str, ctype: str | None) -> str:
    """A jammed local's scalar declaration (of arithmetic type `ctype`) with `= 0`: a jam's
    last strip sets and reads each copy under guards of its own, which gcc cannot pair
    (-Wmaybe-uninitialized)."""
    m = re.fullmatch(r"((?:\w+\s+)+\w+)\s*;", decl.strip())
    if m is None or ctype is None or not set(ctype.split()) <= ARITH_WORDS | {"_Complex", "const", "volatile"}:
        return decl
    return f"{m.group(1)} = 0;"


def copy_decls(scop, node: K.Node, spelled: bool = False) -> list[str]:
    """Declarations of the variables a jam gave each copy of a local (poly/jam_locals.py),
    as the local's own with the copy's name."""
    arrays = {a.name for a in scop.arrays}
    names = _copies_of_locals(scop, node)
    out = []
    for name in names:
        a = scop.array(root_of(name, arrays))
        decl = a.spelled_decl if spelled and a.spelled_decl else a.decl
        if decl:
            out.append(_zeroed(re.sub(rf"(?<![\w.]){re.escape(a.name)}(?!\w)", name, decl, count=1), a.ctype))
    return out


def outer_decls(scop) -> list[str]:
    """Declarations of the variables the region declares and the function reads after it: they
    go before the region's block, in the user's file (a harness declares them itself)."""
    return [a.spelled_decl or a.decl for a in scop.arrays if a.declared_in_region and a.decl] \
        + list(scop.declared_before)


class TreePrinter(CPrinter):
    """The loop tree for --show-steps: loop headers with names and bounds, statements as S0(i, j)."""

    def statement(self, leaf: K.Leaf) -> str:
        return f"S{leaf.stmt}({', '.join(ir.to_c(x) for x in leaf.iters)})"


def tree_lines(variant: Variant, node: K.Node) -> list[str]:
    return TreePrinter(variant).lines(name_loops(node, variant), 0)
