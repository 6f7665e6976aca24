"""The polyhedral model of one region: statements, domains, tagged accesses, arrays, schedule.

Values are frozen dataclasses holding isl *text*; the isl objects are built on first use and
cached on the instance (never pickled: a worker process rebuilds them from the text).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping

import islpy as isl

from looptx import ir
from looptx.errors import SourceError

# Names isl's parser reserves never reach the isl text built here: the front end renames them
# (looptx/frontend/names.py) and the user-facing outputs rename them back.


def items(lst) -> list:
    """isl *List objects are not iterable in islpy (pitfall 4)."""
    return [lst.get_at(i) for i in range(len(lst))]


def union_maps(u: isl.UnionMap) -> list[isl.Map]:
    out = []
    u.foreach_map(out.append)
    return out


def union_sets(u: isl.UnionSet) -> list[isl.Set]:
    out = []
    u.foreach_set(out.append)
    return out


@dataclass(frozen=True)
class Array:
    name: str
    ctype: str                         # element type: 'double', 'float', 'int', ...
    dims: tuple[str, ...]              # C text of each declared extent ('' = unknown); () = scalar
    role: str = "inout"                # 'in' | 'out' | 'inout' | 'temp'
    local: bool = False                # declared inside the region: the generated code declares it
    strides: tuple[str, ...] | None = None   # delinearized 1-D array: extents of virtual dims 1..r-1
    rank: int = 0                      # number of (virtual) dimensions isl sees
    # C declaration text: of locals, and of the function's locals that `privatize` may declare
    decl: str = ""
    # a local declared inside loops: the number of loops around its declaration.  C makes a
    # new object in each of their iterations; the dependence model indexes it by them.
    private_depth: int = 0
    # as the user's file spells them (`DATA_TYPE`), for code that goes back into that file
    spelled_ctype: str = field(default="", compare=False)
    spelled_decl: str = field(default="", compare=False)
    # why the function may read the value the region leaves in it ('' when it provably does not:
    # a local of the function, dead after the region); the precondition of `privatize`
    live_out: str = "it is not a local of the region's function"
    # declared at the region's top level and read after it (`double r = t[0];` ... `return r;`):
    # a variable of the function, which the user's file declares before the region's block
    declared_in_region: bool = False
    # a variable of the function that `privatize` made local, under its own name: the user's
    # file declares it already, so code for that file does not declare it again (the copy
    # would leave the function's declaration unused)
    declared_by_function: bool = False
    # a subscript computes in a 64-bit type (`a[(long)i * ld + j]`, a size_t operand): code
    # that linearizes the array again does too, or `i * ld` overflows int on large arrays
    wide_index: bool = False
    # its elements are volatile (`volatile float *out`): each access happens as written
    volatile: bool = False

    @property
    def is_scalar(self) -> bool:
        return not self.dims


@dataclass(frozen=True)
class Access:
    ref: int                           # unique over the Scop; also the ir.Ref.ref of the body
    array: str
    kind: str                          # 'read' | 'write'
    index: tuple[str, ...]             # isl affine text per (virtual) dimension
    guard: str = ""                    # isl text: evaluated only where it holds (a `?:` branch)
    # C evaluates it only where a test holds that the model dropped, one of unsigned values that
    # may wrap (`i - 1 < n`), a `%` of negatives, a `?:` of the counters: a copy loads it only
    # where the elements exist (a test of data is no bound, and such a read counts as unconditional)
    inexact: bool = False


@dataclass(frozen=True)
class Statement:
    id: int
    iterators: tuple[str, ...]
    domain: str                        # isl constraint text over iterators and parameters
    body: ir.Assign
    accesses: tuple[Access, ...]
    schedule: tuple                    # 2d+1: (p0, it1, p1, ..., itn, pn)
    reversed: tuple[bool, ...]         # loops that ran downwards in the source
    line: int = 0
    col: int = 0
    text: str = ""
    # iterators declared with another type than int (size_t, long, unsigned): (name, type,
    # type as the user spells it or ''); the body reads them as that type
    iter_types: tuple[tuple[str, str, str], ...] = ()

    @property
    def name(self) -> str:
        return f"S{self.id}"

    @property
    def depth(self) -> int:
        return len(self.iterators)

    def tuple_text(self) -> str:
        return f"S{self.id}[{', '.join(self.iterators)}]"


class CachedValue:
    """A frozen dataclass with a `_cache` of derived isl objects: pickles without it (isl
    objects do not pickle, and the cache is rebuilt on demand)."""

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_cache"] = {}
        return state

    def __setstate__(self, state):
        for k, v in state.items():
            object.__setattr__(self, k, v)


@dataclass(frozen=True)
class Scop(CachedValue):
    filename: str
    region: int
    params: tuple[str, ...]
    fixed: tuple[tuple[str, int], ...]
    assumptions: tuple[str, ...]       # isl constraints on parameters (default N >= 1)
    statements: tuple[Statement, ...]
    arrays: tuple[Array, ...]
    region_span: tuple[int, int] = (0, 0)   # first/last source line of the region
    function: str | None = None
    # sizes that are integer locals initialized before the region: (name, C initializer)
    derived: tuple[tuple[str, str], ...] = ()
    # sizes that are #defined integers: symbolic in the model (the code keeps the name), with
    # the value the build gives them
    macro_values: tuple[tuple[str, int], ...] = ()
    # params of an unsigned C type (size_t n): the bounds looptx computes from them (n - 2)
    # are printed over a signed copy, where C would wrap them and compare int iterators unsigned
    unsigned_params: tuple[str, ...] = ()
    # #defined sizes whose file value made a subscript affine (S*j + i): the code holds only for it
    baked: tuple[tuple[str, int], ...] = ()
    # struct members the region reads as variables (frontend/members.py): (the declaration
    # before the regenerated region, `const int g__n = g->n;`, and the write-back after it or '')
    hoisted: tuple[tuple[str, str], ...] = ()
    # (variable, member chain) of the members of a local struct that the region sets first,
    # declared without a load (MILC's `complex x;`)
    unloaded: tuple[tuple[str, str], ...] = ()
    # members of arrays of structs, each an array of the model (frontend/records.py): printed
    # back as the user wrote them (`p__x[i]` is `p[i].x`)
    records: tuple = ()
    # C lines after the regenerated region that leave in the function's own loop variables the
    # values the code after it reads (frontend/final_values.py)
    final_values: tuple[str, ...] = ()
    # declarations of the region's own variables that no statement accesses but the code after
    # it reads (a loop variable declared in the region): before the regenerated block
    declared_before: tuple[str, ...] = ()
    # definitions of the file's pure helpers the region calls (frontend/purefuncs.py), for code
    # compiled without the user's file (harness, CUDA)
    helpers: tuple[str, ...] = ()
    # params of a 64-bit C type (long n, size_t n): code with its own signatures (CUDA) keeps
    # them 64-bit, where n * m may pass INT_MAX
    wide_params: tuple[str, ...] = ()
    # facts on the sizes that the model assumes and C does not give (a row length `s >= k` of a
    # linearized subscript, `n >= 0` under C's `n / 2`): isl constraints, also in `assumptions`
    runtime_facts: tuple[str, ...] = ()
    # subscripts that leave their rows onto elements the region also reaches (poly/row_leave
    # Leaving): a recipe that reorders such a pair, or runs a loop in parallel, is made for
    # Leaving.fact, checked as the output runs (refused without one)
    row_leaving: object = None
    # sizes fixed only as stand-ins (an Orio fragment's first input_params size, for `transform`):
    # their `p = v` is a runtime fact, not a given
    stand_ins: tuple[str, ...] = ()
    # the region's statements as written (members and row lengths by the names the block
    # declares), which the user's file runs where the sizes break a runtime fact
    fallback: tuple[str, ...] = ()
    # (condition, lines): the fallback for sizes that break that condition, where the region is
    # itself versioned on it (frontend/fallback.versioned_else)
    fallback_else: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # an Orio fragment's loop counters that nothing declares (each counts with an int of its
    # own loop): its code as written needs them declared
    implicit_counters: tuple[str, ...] = ()
    # the function's array parameters and the file's arrays whose elements it declares const
    # (`const double *A`, tiny-AES's sbox), by their names in the file: code with its own
    # signature (the CUDA host) keeps them const
    const_params: tuple[str, ...] = ()
    # (name, arithmetic type) of the function's variables the region's loops count with,
    # declared outside it (frontend/final_values.reusable_iterators)
    own_iterators: tuple[tuple[str, str], ...] = ()
    # the region's function's parameters, in their order (names as in the file): the .cu's host
    # function takes its arguments in that order, so a call written for the original matches
    function_params: tuple[str, ...] = ()
    # (name, element type, extents, const) of those parameters, typedefs resolved: the host
    # function declares the ones the region leaves unread, so its signature stays the original's
    param_types: tuple[tuple[str, str, tuple[str, ...], bool], ...] = ()
    # #defined sizes the file only defaults (#ifndef K) that --define fixed: the output holds for
    # that value only, and a build with another -D must fail (codegen.versioning.baked_guard)
    pinned_macros: tuple[tuple[str, int], ...] = ()
    # sizes that are a #define's default (`#ifndef LEN #define LEN 32`), which a build may change
    soft_macros: tuple[str, ...] = ()
    # `known` facts on #defined sizes only, as the user wrote them: the output checks them with
    # #if, since a build may give the sizes values that break them
    macro_facts: tuple[str, ...] = ()
    # the region sits in an OpenMP team that shares out its loop nests (frontend/omp_team.py):
    # (first statement of the nest, the `omp for` clauses as written, the pragma's line and
    # column, its text)
    team: tuple[tuple[int, str, int, int, str], ...] = ()
    # 'team': the region runs in the team (`omp for`, the rest under `omp single`); 'parallel':
    # the `#pragma omp parallel for` right before it is its one nest's (printed as that)
    team_kind: str = "team"
    # 'parallel' from an offload or OpenACC directive (`omp target teams distribute parallel for
    # map(...)`, `acc parallel loop present(...)`): what the nest's loop gets in place of
    # `omp parallel for`, with the clauses it keeps
    team_head: str = ""
    # the conditional that pragma sits in (HPCG's `#ifndef HPCG_NO_OPENMP`, `#endif`): the
    # output's OpenMP pragmas keep it
    team_guard: tuple[str, ...] = ()
    # the file's const integer tables the region reads (frontend/tables.py): (name, values)
    tables: tuple[tuple[str, tuple[int, ...]], ...] = ()
    # pointer parameters the function moves before the region (f2c's `--a;`), by their names
    # in the file: element 0 is not the caller's (codegen/cuda_span.py)
    moved_pointers: tuple[str, ...] = ()
    # params of a type narrower than int, or unsigned: (name, lowest, highest value it holds)
    narrow_params: tuple[tuple[str, int, int], ...] = ()
    # (param, standard integer type) of the sizes whose type is known, wherever they are
    # declared (a parameter, a file-scope `const unsigned M`, an int #define): `run`'s harness
    # passes them so, and the checks of C's conversions know their ranges (poly/wrap_checks.py)
    size_types: tuple[tuple[str, str], ...] = ()
    # the runtime facts that C's conversions owe (poly/wrap_checks.py): the model's domains
    # hold only under them, so where the region "runs no statement" is no evidence without them
    conversion_facts: tuple[str, ...] = ()
    # sizes that are integer locals the function sets to a constant before the region and never
    # changes (`const int K = 3;`): symbolic in the model, that value where a step needs a number
    local_values: tuple[tuple[str, int], ...] = ()
    # those of them set from plain #defines (TSVC's `int m = LEN_1D/2;`), with the #defines'
    # (name, value): no fact of the model until a step needs the value, which then checks the
    # #defines with #if, as for a #defined size used in the loops
    local_macros: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    # sizes of a tuned region that are integers set from its problem sizes (SPAPT's `int nx =
    # N;`): their values there, which a step legal only at them takes, checked as the code runs
    implied_values: tuple[tuple[str, int], ...] = ()
    # integer temporaries of the region whose uses the front end replaced by the expression they
    # hold (`k = i*cols + j; a[k]`): no longer variables of the region (frontend/temporaries.py);
    # (name, whether the function declares it before the region)
    substituted: tuple[tuple[str, bool], ...] = ()
    # sizes that stand for struct members or constant elements in the extents of arrays the
    # function declares (Devito's `u_vec->size[1]` as u_vec__size__1): (name, C text)
    extent_members: tuple[tuple[str, str], ...] = ()
    # the function's parameters of an integer type (not pointers, structs or floating): the
    # ones a cuda step's element count may name besides the sizes (codegen/cuda_host.known_sizes)
    int_params: tuple[str, ...] = ()
    # HLS directives at the region's top level about the function, not a loop (`HLS
    # array_partition variable=a cyclic`): kept at the start of the regenerated region
    directives: tuple[str, ...] = ()
    # the region's #if directives, with an #error in each branch the build did not take: the
    # user's file repeats them before the regenerated region (frontend/conditionals.py)
    conditionals: tuple[str, ...] = ()
    # (name, named in the region, guard lines) of the macros and typedefs it uses that the file
    # defines under a conditional outside it, and the file's macros those conditions test, which
    # a .cu defines (frontend/conditionals.outer_guards, condition_macros)
    outer_conditionals: tuple[tuple[str, bool, tuple[str, ...]], ...] = ()
    # (name, line, guard lines) of a default the file gives itself (`#ifndef IDX`), guarded
    # before its group where the output expands the name (conditionals.default_guards)
    default_guards: tuple[tuple[str, int, tuple[str, ...]], ...] = ()
    condition_macros: tuple[tuple[str, str], ...] = ()
    # the region's #define and #undef lines, repeated after the regenerated region so that the
    # code after it sees the macros as it did (frontend/conditionals.macro_directives)
    macros_after: tuple[str, ...] = ()
    _cache: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    # ---- lookups -----------------------------------------------------------------------
    def where(self) -> dict:
        """The region's first source line, for errors no single statement or step causes."""
        line = self.region_span[0] or None
        return dict(file=self.filename, line=line, col=1 if line else None)

    def array(self, name: str) -> Array:
        for a in self.arrays:
            if a.name == name:
                return a
        raise KeyError(name)

    def record(self, name: str):
        """The struct member the model's array `name` stands for, or None."""
        return next((r for r in self.records if r.name == name), None)

    def access(self, ref: int) -> Access:
        return self._refs()[ref][1]

    def stmt_of_ref(self, ref: int) -> Statement:
        return self._refs()[ref][0]

    def _refs(self) -> dict:
        if "refs" not in self._cache:
            self._cache["refs"] = {a.ref: (s, a) for s in self.statements for a in s.accesses}
        return self._cache["refs"]

    def _names_outside_domains(self) -> set[str]:
        texts = [x for s in self.statements for a in s.accesses for x in a.index] \
            + [d for a in self.arrays for d in a.dims + tuple(a.strides or ())] \
            + list(self.assumptions) + list(self.runtime_facts) + [init for _, init in self.derived]
        return {w for t in texts for w in re.findall(r"[A-Za-z_]\w*", t)}

    def value_only_params(self) -> frozenset[str]:
        """Sizes that bound no loop, index no array, size none and appear in no fact: the region
        only reads their value (`H[i-1][j] - gap`), so any value runs it."""
        used = self._names_outside_domains() | {
            w for s in self.statements for w in re.findall(r"[A-Za-z_]\w*", s.domain or "")}
        return frozenset(p for p in self.params if p not in used)

    def flag_params(self, seeded: Mapping[str, int]) -> dict[str, int]:
        """Sizes that only switch whole statements on or off (`if (!add)`: in the statements'
        conditions apart from the loops and the other sizes, and used nowhere else), each with
        the value among `seeded[p]`, 1, 0, -1 and one each statement runs for, under which the
        most statements run: a value its C type holds, and not 0 where a statement divides by it."""
        outside = self._names_outside_domains()
        ranges = {p: (lo, hi) for p, lo, hi in self.narrow_params}
        out = {}
        for k, p in enumerate(self.params):
            if p in outside or p in dict(self.fixed):
                continue
            alone = []            # per statement that names p: the values of p it runs for
            for s in self.statements:
                if not re.search(rf"(?<!\w){re.escape(p)}(?!\w)", s.domain or ""):
                    continue
                d = self.domain(s)
                only_p = d.params()
                for j in range(len(self.params)):
                    if j != k:
                        only_p = only_p.eliminate(isl.dim_type.param, j, 1)
                if not d.eliminate(isl.dim_type.param, k, 1).intersect_params(only_p).is_equal(d):
                    break         # p bounds the loops or pairs with another size
                alone.append(only_p)
            else:
                if alone:
                    lo, hi = ranges.get(p, (-2 ** 31, 2 ** 31 - 1))
                    held = self.params_where([f"{lo} <= {p} <= {hi}"] + [f"{p} != 0"] * self._divides_by(p))

                    def runs(v):
                        at = self.params_where([f"{p} = {v}"])
                        return sum(not c.intersect(at).is_empty() for c in alone)
                    # a value each statement runs for (`add == 2`)
                    own = [c.intersect(held).sample_point().get_coordinate_val(isl.dim_type.param, k).to_python()
                           for c in alone if not c.intersect(held).is_empty()]
                    values = [v for v in (seeded[p], 1, 0, -1, *own)
                              if not held.intersect(self.params_where([f"{p} = {v}"])).is_empty()]
                    if values:
                        out[p] = max(values, key=runs)
        return out

    def _divides_by(self, p: str) -> bool:
        return any(isinstance(x, ir.Bin) and x.op in ("/", "%") and any(
                       isinstance(y, (ir.Ref, ir.Var)) and getattr(y, "array", getattr(y, "name", None)) == p
                       for y in ir.walk(x.b))
                   for s in self.statements for x in ir.walk(s.body))

    @property
    def fixed_values(self) -> dict[str, int]:
        return dict(self.fixed)

    # ---- isl -------------------------------------------------------------------------------
    @property
    def prefix(self) -> str:
        return f"[{', '.join(self.params)}] -> " if self.params else ""

    def member_chains(self) -> dict[str, str]:
        """Each variable a struct member is read into -> the member chain as written
        (`double *const g__hy = g->hy;` gives g__hy -> g->hy)."""
        def build():
            out = {}
            for decl, _ in self.hoisted:
                m = re.search(r"(\w+)\)?(?:\[[^\]]*\])*\s*=\s*(.+?);\s*$", decl)
                if m:
                    out[m.group(1)] = re.sub(r"\s", "", m.group(2))
            return {**out, **dict(self.unloaded)}
        return self.cached("member_chains", build)

    def cached(self, key, build):
        if key not in self._cache:
            self._cache[key] = build()
        return self._cache[key]

    def isl(self, text: str, kind=isl.UnionMap):
        try:
            return kind(self.prefix + text)
        except isl.Error as e:
            raise SourceError(f"internal model error: isl could not read {text!r}",
                              hint=str(e).splitlines()[0], file=self.filename) from None

    def params_where(self, constraints) -> isl.Set:
        """The parameter values that meet every constraint (isl text)."""
        cons = list(constraints)
        return isl.Set(f"{self.prefix}{{ : {' and '.join(cons) if cons else '1 = 1'} }}")

    @property
    def unsigned_nonnegative(self) -> isl.Set:
        """The sizes where every unsigned one is >= 0, as C gives (the model's integers do not)."""
        return self.cached("unsigned_nonnegative", lambda: self.params_where(f"{p} >= 0" for p in self.unsigned_params))

    @property
    def context(self) -> isl.Set:
        return self.cached("context", lambda: self.params_where(
            list(self.assumptions) + [f"{p} = {v}" for p, v in self.fixed]))

    def param_constant(self, name: str) -> int | None:
        """The one value the context leaves size `name`, or None."""
        ctx = self.context
        k = ctx.get_space().find_dim_by_name(isl.dim_type.param, name)
        if k < 0 or ctx.is_empty():
            return None
        vals = isl.Set(f"{self.prefix}{{ [x] : x = {name} }}").intersect_params(ctx)
        mn, mx = vals.dim_min_val(0), vals.dim_max_val(0)
        if not (mn.is_int() and mx.is_int()) or mn.to_python() != mx.to_python():
            return None
        return int(mn.to_python())

    def runtime_check(self, or_idle: bool = False) -> ir.Expr | None:
        """The condition, over the sizes, under which the code made from the model is right:
        the runtime facts, simplified by what C itself gives; None when they add nothing.
        `or_idle`: also true where the region surely runs no statement (code that refuses the
        other sizes must not refuse those)."""
        from looptx.poly.astgen import expr
        from looptx.poly.obligations import free_of_divisions
        if not self.runtime_facts:
            return None

        def build():
            base = self.params_where([c for c in self.assumptions if c not in self.runtime_facts]
                                     + [f"{p} = {v}" for p, v in self.fixed if p not in self.stand_ins])
            facts = self.params_where(self.runtime_facts).intersect(base)
            if or_idle and not set(self.conversion_facts) & set(self.runtime_facts):
                busy = base.empty(base.get_space())
                for s in self.statements:
                    busy = busy.union(free_of_divisions(self, s, base).params())
                facts = facts.union(base.subtract(busy)).coalesce()
            if base.is_subset(facts):
                return None
            base = base.align_params(facts.get_space())              # see _Builder.build in astgen
            return expr(isl.AstBuild.from_context(base).expr_from_set(facts.align_params(base.get_space())))
        # asked for by the C block and by each function of a .cu
        return self.cached(("runtime_check", or_idle, self.runtime_facts), build)

    def facts_hold(self, values: Mapping[str, int]) -> bool:
        """Whether these sizes meet the runtime facts whatever the other sizes are, so that
        the code made from the model, not the region as written, is what runs for them."""
        if not self.runtime_facts:
            return True
        given = [f"{p} = {int(v)}" for p, v in values.items() if p in self.params]
        base = self.params_where([c for c in self.assumptions if c not in self.runtime_facts]
                                 + [f"{p} = {v}" for p, v in self.fixed] + given)
        return base.is_subset(self.params_where(self.runtime_facts))

    def bounds_use(self, fact: str) -> bool:
        """Whether a fact tells anything about the sizes that bound the loops: only then can
        isl's loops, simplified under the context, differ for sizes that break it."""
        bounding = {w for s in self.statements for w in re.findall(r"[A-Za-z_]\w*", s.domain or "")}
        base = self.params_where(c for c in self.assumptions if c != fact)
        with_fact = base.intersect(self.params_where([fact]))
        for k in reversed(range(len(self.params))):
            if self.params[k] not in bounding:
                base = base.project_out(isl.dim_type.param, k, 1)
                with_fact = with_fact.project_out(isl.dim_type.param, k, 1)
        return not base.is_subset(with_fact)

    def domain(self, s: Statement) -> isl.Set:
        def build():
            cons = s.domain or "1 = 1"
            return isl.Set(f"{self.prefix}{{ {s.tuple_text()} : {cons} }}").intersect_params(self.context)
        return self.cached(("domain", s.id), build)

    @property
    def domains(self) -> isl.UnionSet:
        def build():
            u = isl.UnionSet.empty(self.context.get_space())
            for s in self.statements:
                u = u.union(isl.UnionSet.from_set(self.domain(s)))
            return u
        return self.cached("domains", build)

    def access_map(self, s: Statement, a: Access, tagged: bool = False, private: bool = False,
                   guarded: bool = False) -> isl.Map:
        """`private`: a local declared inside loops is indexed by them first (its object in
        the original program), as the dependence analysis sees it.  `guarded`: only the
        instances that evaluate it (footprint.evaluated: within its `?:` branch's guard)."""
        def build():
            arr = self.array(a.array)
            index = (s.iterators[:arr.private_depth] if private else ()) + tuple(a.index if arr.rank else ())
            target = f"{a.array}[{', '.join(index)}]"
            src = f"[{s.tuple_text()} -> R{a.ref}[]]" if tagged else s.tuple_text()
            m = isl.Map(f"{self.prefix}{{ {src} -> {target} }}")
            from looptx.poly.footprint import evaluated
            dom = evaluated(self, s, a) if guarded else self.domain(s)
            if tagged:
                dom = isl.Map.from_domain_and_range(dom, isl.Set(f"{{ R{a.ref}[] }}")).wrap()
            return m.intersect_domain(dom)
        return self.cached(("access", a.ref, tagged, private, guarded), build)

    def accesses(self, kind: str, tagged: bool = False) -> isl.UnionMap:
        """The input of the dependence analysis: locals declared in loops are private."""
        def build():
            u = isl.UnionMap.empty(self.context.get_space())
            for s in self.statements:
                for a in s.accesses:
                    if a.kind == kind:
                        # a read C evaluates only in its `?:` branch (Rodinia pathfinder's clamped
                        # neighbour `n < cols - 1 ? n + 1 : cols - 1`) depends on nothing elsewhere;
                        # its guard holds wherever C reads it (an affine condition the test
                        # implies), so the reads stay an over-approximation.  A guarded write stays
                        # unconditional: as a write it kills values
                        m = self.access_map(s, a, tagged, private=True, guarded=kind == "read")
                        u = u.union(isl.UnionMap.from_map(m))
            return u
        return self.cached(("accesses", kind, tagged), build)

    @property
    def depth(self) -> int:
        return max((len(s.schedule) for s in self.statements), default=1)

    def schedule_text(self, s: Statement, width: int | None = None) -> str:
        width = width or self.depth
        dims = [str(d) if isinstance(d, int) else (f"-{d}" if s.reversed[s.iterators.index(d)] else d)
                for d in s.schedule]
        dims += ["0"] * (width - len(dims))
        return f"{s.tuple_text()} -> [{', '.join(dims)}]"

    @property
    def schedule(self) -> isl.UnionMap:
        """The original execution order (2d+1, padded to one length: pitfall 8)."""
        def build():
            text = "; ".join(self.schedule_text(s) for s in self.statements)
            return self.isl(f"{{ {text} }}").intersect_domain(self.domains)
        return self.cached("schedule", build)

    def tagged_schedule(self, schedule: isl.UnionMap) -> isl.UnionMap:
        """Schedule of tagged instances [S[i] -> R[]] (each reference gets its statement's time)."""
        u = isl.UnionMap.empty(self.context.get_space())
        for s in self.statements:
            for a in s.accesses:
                tag = isl.Map(f"{self.prefix}{{ [{s.tuple_text()} -> R{a.ref}[]] -> {s.tuple_text()} }}")
                u = u.union(isl.UnionMap.from_map(tag).apply_range(schedule))
        return u


def unbounded_loop(scop: Scop, s: Statement) -> int | None:
    """The depth of the outermost loop around a statement with no bound in the direction it
    runs (`for (i = n; i < m; i--)`: C leaves it only by overflow), or None."""
    dom = scop.domain(s)
    for d in range(s.depth):
        if not dom.project_out(isl.dim_type.set, d + 1, s.depth - d - 1).is_bounded():
            return d
    return None
