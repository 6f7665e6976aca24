"""Orio's Loop module -> the same typed steps as YAML, each checked like any other step.

    /*@ begin Loop (
      transform Composite(tile = [('i',T1,'ii')], unrolljam = (['i','j'],[U1,U2]), ...)
      for (i = 0; i <= N-1; i++) ...
    ) @*/  <the same loop nest>  /*@ end @*/

Orio rewrites the code inside the annotation and trusts the user on legality; looptx models the
code between the markers (which Orio files repeat verbatim, and which must match) and applies
each directive as steps that are checked against the exact dependences.  Directives apply to
the loops of the statement that follows them, inner directives first, as in Orio.

`pragma` and `openmp` become pragma and omp_for steps (the OpenMP loop checked like any
other).  Parts that only give the compiler hints (`vector`, `boundreplace`) or that looptx does
not generate from Orio's arguments (`arrcopy`) leave the code unchanged and are reported once as
ignored; `scalarreplace` becomes a `registers` step for every array with an
element that stays put across the innermost loop, where that is legal, and is skipped elsewhere.
"""
from __future__ import annotations

import ast
import itertools
import re
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from pycparser import c_ast, c_parser

from looptx.errors import RecipeError, note_once
from looptx.frontend.names import to_user
from looptx.frontend.regions import orio_directives, orio_loop_code
from looptx.frontend.symbols import once_blocks, split_chained_assignments
from looptx.recipe.chill import _Line
from looptx.recipe.orio_values import _flag, _int, _seq, _value
from looptx.recipe.schema import Recipe, Step, make_step

# Orio's transformations and the keyword arguments each takes (positional ones follow this order)
ARGS: dict[str, tuple[str, ...]] = {
    # in the order Composite applies them, whatever order they are written in
    "Composite": ("tile", "permut", "arrcopy", "regtile", "unrolljam", "scalarreplace",
                  "boundreplace", "pragma", "openmp", "vector", "cuda"),
    "Tile": ("tsize", "tindex"),
    "Permut": ("seq",),
    "RegTile": ("loops", "ufactors"),
    # init_cleanup_loop only shapes Orio's remainder loop; looptx writes its own
    "UnrollJam": ("ufactor", "parallelize", "init_cleanup_loop"),
    "Unroll": ("ufactor", "parallelize", "init_cleanup_loop"),
    "ScalarReplace": ("dtype", "prefix"),
    "BoundReplace": ("lprefix", "uprefix"),
    "Pragma": ("pragma_str",),
    "ArrCopy": ("aref", "suffix", "dtype", "dimsizes"),
    "CUDA": ("threadCount", "blockCount", "cacheBlocks", "pinHostMem", "streamCount", "domain",
             "dataOnDevice", "unrollInner", "preferL1Size"),
}
# Orio transformations looptx does not generate (Pack: of Orio's Loops module), and what does the same here
_NOT_GENERATED = {
    "OpenCL": "map loops to the GPU with transform CUDA(...) or a CHiLL region: cuda(0,block={..},thread={..})",
    "MPIOverlap": "looptx generates no MPI: overlap the messages in the code around the region, and tune "
                  "its loops with Unroll, Tile or RegTile",
    "Pack": "copy the array into a packed buffer with a datacopy step (YAML `datacopy: {stmt: 0, array: A, "
            "at: LOOP}` or CHiLL's datacopy(...))"}
_WRAP = "void lx_orio_loop(void) {\n"
_CAST = re.compile(r"(?<![\w\s])\s*\(\s*([A-Za-z_]\w*)\s*\)\s*(?=[\w(])")
_NOT_TYPES = frozenset({"if", "while", "for", "switch", "return", "sizeof"})


@dataclass(frozen=True)
class _Directive:
    name: str
    args: str
    start: int                        # offsets into the body
    end: int
    where: _Line
    stmts: tuple[int, ...] = ()       # statements of the loop or block it precedes
    outside: frozenset = frozenset()  # ids of the loops around that loop or block
    loop: int | None = None           # id of the loop it precedes (None for a block)
    locate: Any = None                # offset into args -> _Line, to point at one argument


@dataclass
class _Nest:
    """Each statement's loops, outermost first, as (loop id, user name); ids tell apart loops
    that share a name (two sibling `j` loops) and follow the loops through tiling."""
    chains: list[list[tuple[int, str]]]
    written: list[tuple[str, ...]] = field(default_factory=list)   # scalars each statement sets
    tiled: dict[int, int] = field(default_factory=dict)    # control loop id -> its tile size
    unrolled: dict[int, int] = field(default_factory=dict)  # loop id -> index of its unroll step
    unroll_factor: dict[int, int] = field(default_factory=dict)  # loop id -> its unroll factor
    next_id: int = 0
    left_out: dict[str, str] = field(default_factory=dict)  # tile index -> why it was not made


def parse_orio_loop(text: str, *, file: str, line: int, col: int,
                    bindings: Mapping[str, Any] | None, statements, between: str | None = None,
                    folded: frozenset = frozenset()) -> Recipe:
    """`statements` are the region's, to check that the annotation's code is the region's;
    `between` is the code between the markers, which bare directives transform; `folded`, the
    temporaries the front end wrote into their uses (`col = i + offsets[j]`), which are no
    statements of the region."""
    bindings = dict(bindings or {})

    def where(offset: int) -> _Line:
        before = text[:offset]
        ln = before.count("\n")
        c = offset - (before.rfind("\n") + 1)
        return _Line(text[offset:offset + 60], file, line + ln, bindings, col=(col + c) if ln == 0 else c + 1)

    directives, code = _split(text, where)
    if code.strip():
        stmts, targets, written = _statements(code, where, folded)
        _match(stmts, statements, where(0))
        directives = [_target(d, targets) for d in directives]
    else:
        # bare directives: Orio applies them to the code between the markers
        stmts, targets, written = _statements(orio_loop_code(between or ""), where, folded)
        _match(stmts, statements, where(0))
        directives = [replace(_target(replace(d, end=-1), targets), stmts=tuple(range(len(stmts))))
                      for d in directives]
    # inner directives first (Orio transforms a directive's body before the directive itself)
    directives.sort(key=lambda d: (len(d.stmts), -d.start))
    nest = _Nest([list(loops) for loops, _ in stmts], written, next_id=max(
        (k for loops, _ in stmts for k, _ in loops), default=0))
    # the arrays as the region's statements reference them, macros expanded: the annotation's
    # text spells `C( i,j )` where how-to-optimize-gemm #defines C(i,j) as c[(j)*ldc + (i)]
    arrays = [tuple(dict.fromkeys(to_user(a.array) for a in st.accesses if a.index)) for st in statements]
    steps: list[Step] = []
    for d in directives:
        for name, args, at in _expand(d, bindings):
            # a Composite part's value errors name its line (`unrolljam = (['j'],[0])`)
            _steps(replace(d, where=at[name]) if d.name == "Composite" and name in at else d,
                   name, args, nest, arrays, steps)
    return Recipe(tuple(steps), file=file, text=text, bindings=tuple(sorted(bindings.items())))


def _split(text: str, where) -> tuple[list[_Directive], str]:
    """The directives, and the code with each directive (and comment) blanked out."""
    try:
        found = orio_directives(text)
    except ValueError as e:
        raise where(e.args[0]).error("this 'transform' has no closing parenthesis",
                                     hint="close its argument list before the loop it transforms") from None
    return [_Directive(n, a, st, en, where(st), locate=lambda off, e=en, a=a: where(e - 1 - len(a) + off))
            for n, a, st, en in found], orio_loop_code(text)


def _statements(code: str, where, folded: frozenset = frozenset()):
    """[(enclosing loops as (id, iterator), ())] per statement in source order (the arrays are the
    region's statements'; parse_orio_loop), the
    loops and blocks of the code as (offset, statements inside), and the scalars each statement
    assigns."""
    try:
        try:
            ast_ = c_parser.CParser().parse(_WRAP + code + "\n}", filename="<orio>")
        except Exception:
            # a cast to a macro's type (`(REAL)x`, -DREAL=float): only the loops matter here
            casts = set(_CAST.findall(code)) - _NOT_TYPES
            if not casts:
                raise
            ast_ = c_parser.CParser().parse("".join(f"typedef int {n};" for n in sorted(casts)) + _WRAP
                                            + code + "\n}", filename="<orio>")
    except Exception as e:       # pycparser raises ParseError, and plain errors on odd input
        m = re.match(r"<orio>:(\d+):(\d+)", str(e))
        off = 0
        if m:
            lines = code.split("\n")
            ln = int(m.group(1)) - 2
            off = sum(len(x) + 1 for x in lines[:max(ln, 0)]) + int(m.group(2)) - 1
        raise where(min(max(off, 0), len(code))).error(
            "cannot parse the C code of the Loop annotation",
            hint="write the loop nest inside the annotation as plain C, as Orio expects") from None
    once_blocks(ast_)
    split_chained_assignments(ast_)         # numbered as the front end numbers them
    lines = code.split("\n")
    starts = [0]
    for ln in lines:
        starts.append(starts[-1] + len(ln) + 1)

    def offset(coord) -> int:
        ln = coord.line - 2
        return starts[ln] + coord.column - 1 if 0 <= ln < len(lines) else 0

    stmts: list[tuple[tuple[tuple[int, str], ...], tuple[str, ...]]] = []
    written: list[tuple[str, ...]] = []
    ids = itertools.count(1)
    targets: list[tuple[int, tuple[int, ...]]] = []

    def walk(node, loops: tuple[str, ...]) -> None:
        if node is None:
            return
        first = len(stmts)
        me = None
        if isinstance(node, c_ast.For):
            me = (next(ids), _iterator(node, where(offset(node.coord))))
            walk(node.stmt, loops + (me,))
        elif isinstance(node, c_ast.Compound):
            for item in node.block_items or ():
                walk(item, loops)
        elif isinstance(node, c_ast.If):
            walk(node.iftrue, loops)
            walk(node.iffalse, loops)
        elif isinstance(node, c_ast.Assignment) and isinstance(node.lvalue, c_ast.ID) and node.lvalue.name in folded \
                or isinstance(node, c_ast.Decl) and node.name in folded:
            pass
        elif isinstance(node, (c_ast.Assignment, c_ast.UnaryOp, c_ast.FuncCall)) or \
                isinstance(node, c_ast.Decl) and node.init is not None and loops:
            stmts.append((loops, ()))
            target = node.lvalue if isinstance(node, c_ast.Assignment) else \
                node.expr if isinstance(node, c_ast.UnaryOp) else None
            written.append((target.name,) if isinstance(target, c_ast.ID) else ())
        if isinstance(node, (c_ast.For, c_ast.Compound)) and node.coord is not None:
            targets.append((offset(node.coord), tuple(range(first, len(stmts))),
                            frozenset(x for x, _ in loops), me and me[0]))

    body = ast_.ext[-1].body
    for item in body.block_items or ():
        walk(item, ())
    return stmts, sorted(targets), written


def _iterator(node: c_ast.For, where: _Line) -> str:
    init = node.init
    if isinstance(init, c_ast.Assignment) and isinstance(init.lvalue, c_ast.ID):
        return init.lvalue.name
    if isinstance(init, c_ast.DeclList) and len(init.decls) == 1:
        return init.decls[0].name
    if init is None and isinstance(node.cond, c_ast.BinaryOp) and node.next is not None:
        # Pluto's and Orio's own continuation loop, `for (; t1 <= N - 1; t1++)`
        from looptx.frontend.paired_iterators import counter
        it = counter(node.cond, node.next.exprs if isinstance(node.next, c_ast.ExprList) else [node.next])
        if it is not None:
            return it
    raise where.error("cannot tell the index of this loop",
                      hint="start the loop with 'for (i = ...; ...)'")


def _match(mine, statements, where: _Line) -> None:
    theirs = [tuple(to_user(i) for i in s.iterators) for s in statements]
    if len(mine) != len(theirs):
        raise where.error(f"the Loop annotation holds {len(mine)} statement(s), the code it replaces "
                          f"{len(theirs)}",
                          hint="looptx transforms the code between the markers: repeat the "
                               "annotation's loop nest there, as Orio files do")
    for k, ((loops, _), other) in enumerate(zip(mine, theirs)):
        its = tuple(nm for _, nm in loops)
        if its != other:
            raise where.error(f"statement {k} of the Loop annotation is in loops "
                              f"({', '.join(its)}), in the code it replaces ({', '.join(other)})",
                              hint="keep the annotation's loop nest and the code between the "
                                   "markers the same")


def _target(d: _Directive, targets) -> _Directive:
    for off, stmts, outside, loop in targets:
        if off >= d.end:
            if not stmts:
                break
            return replace(d, stmts=stmts, outside=outside, loop=loop)
    raise d.where.error(f"'transform {d.name}' is not followed by a loop",
                        hint="put the directive right before the for loop it transforms")


def _expand(d: _Directive, bindings) -> list[tuple[str, Any]]:
    """(transformation, evaluated arguments); a Composite gives its parts in the order Orio
    applies them."""
    ln = d.where
    if d.name in _NOT_GENERATED:
        raise ln.error(f"Orio's {d.name} transformation is not generated by looptx", hint=_NOT_GENERATED[d.name])
    if d.name not in ARGS:
        raise ln.error(f"unknown Orio transformation '{d.name}'",
                       hint="Orio's Loop module has " + ", ".join(sorted(ARGS)))
    try:
        call = ast.parse(f"f({d.args})", mode="eval").body
    except SyntaxError:
        raise ln.error(f"cannot parse the arguments of 'transform {d.name}'",
                       hint="write keyword arguments, e.g. ufactor=4") from None
    except (RecursionError, MemoryError):
        raise ln.error(f"the arguments of 'transform {d.name}' are nested too deeply",
                       hint="write them without deep nesting") from None
    names = ARGS[d.name]
    if call.args or any(kw.arg is None for kw in call.keywords):
        raise ln.error(f"the arguments of 'transform {d.name}' must be written NAME=VALUE",
                       hint="arguments are: " + ", ".join(names))
    args, at = {}, {}
    text = f"f({d.args})"
    starts = [0] + [k + 1 for k, ch in enumerate(text) if ch == "\n"]

    def located(node) -> _Line:
        """The line of `node` in the arguments (errors name the token, not `transform`)."""
        off = starts[node.lineno - 1] + node.col_offset - 2
        return d.locate(off) if d.locate is not None and 0 <= off < len(d.args) else ln
    for kw in call.keywords:
        if kw.arg not in names:
            raise located(kw).error(f"unknown argument '{kw.arg}' of 'transform {d.name}'",
                                    hint="arguments are: " + ", ".join(names))
        if kw.arg in args:
            raise located(kw).error(f"argument '{kw.arg}' of 'transform {d.name}' is given twice",
                                    hint="give each argument once")
        try:
            args[kw.arg] = _value(ln, kw.value)
        except RecipeError as e:
            bad = next((n for n in ast.walk(kw.value) if isinstance(n, ast.Name) and f"'{n.id}'" in e.what), kw.value)
            where = located(bad)
            e.line, e.col = where.line, where.col
            raise
        at[kw.arg] = located(kw)
    if d.name != "Composite":
        return [(d.name, args, at)]
    return [(part, args[part], at) for part in names if part in args]


def _ignored(ln: _Line, what: str) -> None:
    note_once(ln.file, ln.line, f"Orio's {what} is ignored: looptx measures the code without it")


def _steps(d: _Directive, name: str, args, nest: _Nest, arrays, out: list[Step]) -> None:
    """Appends the steps of one Orio transformation to `out`."""
    ln = d.where

    def step(kind: str, optional: bool = False, **kw) -> None:
        st = make_step(kind, kw, len(out) + 1, file=ln.file, line=ln.line,
                       text=f"{kind}: {kw}  # Orio {name}")
        out.append(replace(st, optional=optional) if optional else st)

    if name in ("tile", "Tile"):
        items = _seq(ln, args, "tile") if name == "tile" else \
            [(_own_loop(ln, nest, d, name), args.get("tsize"), args.get("tindex"))]
        for item in items:
            lid, size, new = _seq(ln, item, "a tile entry (loop, size, new index)", (3,))
            _tile(ln, nest, d, lid, _int(ln, size, "a tile size"), new, step, out)
    elif name in ("permut", "Permut"):
        seqs = _seq(ln, args, "permut") if name == "permut" else [args.get("seq")]
        for seq in seqs:
            _permute(ln, nest, d, _seq(ln, seq, "a permutation"), step)
    elif name in ("regtile", "unrolljam", "RegTile"):
        if name != "RegTile" and isinstance(args, list) and args and all(
                isinstance(x, (list, tuple)) and len(x) == 2 and isinstance(x[0], str) for x in args):
            # Orio's other form, a list of (loop, factor) pairs: [('i',2),('j',2)]
            args = ([x[0] for x in args], [x[1] for x in args])
        pair = _seq(ln, args, name, (2,)) if name != "RegTile" else [args.get("loops"), args.get("ufactors")]
        loops, factors = _seq(ln, pair[0], "the loops"), _seq(ln, pair[1], "the unroll factors")
        if len(loops) != len(factors):
            raise ln.error(f"{name} names {len(loops)} loops and {len(factors)} unroll factors",
                           hint="give one factor per loop")
        _unroll(ln, nest, d, [(lid, _int(ln, f, "an unroll factor")) for lid, f in zip(loops, factors)],
                step, out)
    elif name in ("Unroll", "UnrollJam"):
        own = _own_loop(ln, nest, d, name)
        _unroll(ln, nest, d, [(own, _int(ln, args.get("ufactor"), "ufactor"))], step, out)
        _flag(ln, args.get("init_cleanup_loop", False), "init_cleanup_loop")
        if _flag(ln, args.get("parallelize", False), "parallelize"):
            # Orio's OpenMP pragma on the unrolled loop; looptx checks that it carries no dependence
            for s in d.stmts:
                if _in(nest, d, s):
                    step("omp_for", stmt=s, loop=dict(nest.chains[s]).get(own, own))
                    break
    elif name in ("scalarreplace", "ScalarReplace"):
        if name == "scalarreplace" and isinstance(args, (list, tuple)) and (
                len(args) > 3 or not all(isinstance(x, str) for x in args[1:])):
            raise ln.error(f"scalarreplace is (flag, type, prefix) with the last two optional, got {args!r}",
                           hint="write e.g. scalarreplace = (SCREP, 'double', 'scv_')")
        if name == "ScalarReplace" or _flag(ln, args, "scalarreplace"):
            prefix = args.get("prefix") if isinstance(args, dict) else \
                args[2] if isinstance(args, (list, tuple)) and len(args) > 2 else None
            if prefix:
                note_once(ln.file, ln.line, f"Orio's scalarreplace prefix {prefix!r} is not used: looptx names "
                          "each register after its array (A_r0, ...)")
            seen = set()
            for s in d.stmts:
                if _in(nest, d, s):
                    inner = _in(nest, d, s)[-1]
                    for arr in arrays[s]:
                        if (inner[0], arr) not in seen:
                            seen.add((inner[0], arr))
                            step("registers", optional=True, stmt=s, array=arr, at=inner[1])
    elif name in ("boundreplace", "BoundReplace"):
        # loop bounds in scalars: the generated code computes them once anyway
        if name == "BoundReplace" or _flag(ln, args, "boundreplace"):
            _ignored(ln, name)
    elif name in ("pragma", "Pragma"):
        entries = [(None, args.get("pragma_str"))] if name == "Pragma" else \
            [_seq(ln, e, "a pragma entry (loop, strings)", (2,)) for e in _seq(ln, args, "pragma")]
        for lid, texts in entries:
            texts = [texts] if isinstance(texts, str) else _seq(ln, texts, "the pragma strings")
            found = [(d.stmts[0], _own_loop(ln, nest, d, name))] if lid is None else \
                [(s, dict(nest.chains[s])[loop]) for s, loop in _find(ln, nest, d, lid, "a pragma")]
            for s, loop in found:
                # Orio's tuned `pragma_str=[PR]` with PR in ['', 'omp parallel for']: '' is the
                # point without one
                for text in (t for t in texts if str(t).strip()):
                    step("pragma", stmt=s, loop=loop, text=str(text))
    elif name == "openmp":
        # Orio puts its pragma before the outermost loop of the transformed code: the one at
        # the directive's depth once its other parts are applied.  looptx checks that the loop
        # carries no dependence and writes the private list itself.
        if _flag(ln, args, name):
            # the reduction clauses of the pragma text are checked and kept; the rest of it is
            # looptx's to write (the private list)
            from looptx.poly.reductions import CLAUSE
            text = args[1] if isinstance(args, (list, tuple)) and len(args) > 1 and isinstance(args[1], str) else ""
            pairs = [f"{op}:{names}" for op, names in CLAUSE.findall(text)]
            # of its private list, the scalars the loop's statements set (a temporary `t`);
            # the loop counters, Orio's generated ones too, looptx lists itself
            sets = {x for s in d.stmts if _in(nest, d, s) for x in nest.written[s]}
            listed = [x.strip() for m in re.findall(r"\bprivate\s*\(([^)]*)\)", text) for x in m.split(",")]
            private = list(dict.fromkeys(x for x in listed if x in sets))
            for s in d.stmts:
                if _in(nest, d, s):
                    kw = {"reduction": pairs} if pairs else {}
                    if private:
                        kw["private"] = private
                        private = []         # privatized once, for all the loop's statements
                    step("omp_for", stmt=s, loop=1 + sum(1 for x, _ in nest.chains[s] if x in d.outside), **kw)
    elif name == "vector":
        if _flag(ln, args, name):
            _ignored(ln, f"{name} part")
    elif name in ("arrcopy", "ArrCopy"):
        entries = _seq(ln, args, "arrcopy") if name == "arrcopy" else [[True]]
        if any(_flag(ln, _seq(ln, e, "an arrcopy entry"), "arrcopy's flag") for e in entries):
            _ignored(ln, "array copy")
    elif name in ("cuda", "CUDA"):
        from looptx.recipe.orio_cuda import COMPOSITE_ORDER, cuda_steps
        if name == "cuda":
            part = _seq(ln, args, "cuda")
            if not part or not part[0]:
                return
            args = dict(zip(COMPOSITE_ORDER, part))
        cuda_steps(ln, nest, d, args, step, out, own_loop=_own_loop, as_int=_int, unroll=_unroll,
                   name="Composite(cuda=...)" if name == "cuda" else "CUDA")


def _in(nest: _Nest, d: _Directive, s: int) -> list[tuple[int, str]]:
    """The loops of statement s that the directive can name: those inside its loop or block."""
    return [x for x in nest.chains[s] if x[0] not in d.outside]


def _own_loop(ln: _Line, nest: _Nest, d: _Directive, name: str) -> str:
    if d.loop is None:
        raise ln.error(f"'transform {name}' must stand right before a for loop",
                       hint="put it in front of the loop it transforms")
    return dict(nest.chains[d.stmts[0]])[d.loop]


def _find(ln: _Line, nest: _Nest, d: _Directive, lid, what: str) -> list[tuple[int, int]]:
    """(a statement, loop id) for every distinct loop that `lid` names among the loops around
    `stmts`.  Orio's loop ids: 'i' must exist; ('ii','i'), the first of these that exists;
    ['ii','i'], the same, or nothing when none exists."""
    optional = isinstance(lid, list)
    alts = list(lid) if isinstance(lid, (list, tuple)) else [lid]
    if not alts or not all(isinstance(a, str) for a in alts):
        raise ln.error(f"{what} is named by a string, a tuple or a list of names, got {lid!r}",
                       hint="write e.g. 'i', ('ii','i') or ['ii','i']")
    for alt in alts:
        found: dict[int, int] = {}
        for s in d.stmts:
            for loop, nm in _in(nest, d, s):
                if nm == alt and loop not in found:
                    found[loop] = s
        if found:
            return [(s, loop) for loop, s in found.items()]
    if optional:
        return []
    around = sorted({nm for s in d.stmts for _, nm in _in(nest, d, s)})
    named = re.search("|".join(rf"(['\"]){re.escape(a)}['\"]" for a in alts), d.args)
    if named and d.locate is not None:
        ln = d.locate(named.start())
    raise ln.error(f"no loop {' or '.join(repr(a) for a in alts)} for {what}",
                   hint=f"the loops here are {', '.join(around) or 'none'}")


def _tile(ln: _Line, nest: _Nest, d: _Directive, lid, size: int, new, step, out: list[Step]) -> None:
    """Orio's tile loop steps over index values, so tiling a tile loop (('ii','i'), T2, 'iii')
    takes a multiple of its size; looptx's tile loops count tiles, so the size is divided."""
    if not isinstance(new, str) or not new.isidentifier():
        raise ln.error(f"the new tile index must be a name, got {new!r}", hint="write e.g. 'ii'")
    for s, loop in _find(ln, nest, d, lid, "a tile"):
        stride = nest.tiled.get(loop, 1) * nest.unroll_factor.get(loop, 1)
        if size == 1 or size <= stride:
            # Orio leaves the loop as it is (tile size 1, or the loop's own step)
            if size > 1:
                nest.left_out[new] = (f"the tile ('{dict(nest.chains[s])[loop]}', {size}, '{new}') is left out: "
                                      f"its size does not exceed the loop's step {stride}, as in Orio")
            continue
        if size % stride:
            raise ln.error(f"tile size {size} of loop '{dict(nest.chains[s])[loop]}' is not a "
                           f"multiple of its step {stride}",
                           hint="constrain the sizes, e.g. T2 % T1 == 0, as Orio requires")
        unrolled_at = nest.unrolled.get(loop)
        # An inner transform Unroll applied first: Orio tiles the loop that steps by the factor.
        # Tiling alone reorders nothing, so tiling before that unroll (by index values, the
        # unrolled loop then runs whole steps inside each tile) gives the same code shape.
        step("tile", stmt=s, loop=dict(nest.chains[s])[loop],
             size=size // (stride if unrolled_at is None else nest.tiled.get(loop, 1)), control=new)
        if unrolled_at is not None:
            out.insert(unrolled_at, out.pop())
            nest.unrolled = {x: k + (k >= unrolled_at) for x, k in nest.unrolled.items()}
        nest.next_id += 1
        nest.tiled[nest.next_id] = size
        for chain in nest.chains:
            ids = [x for x, _ in chain]
            if loop in ids:
                chain.insert(ids.index(loop), (nest.next_id, new))


def _permute(ln: _Line, nest: _Nest, d: _Directive, seq: list, step) -> None:
    """Orio reorders the named loops among the places they hold ('i' must be there, ['i'] may
    not be), in every nest around the statements that has the required ones."""
    wanted = []
    for x in seq:
        # a param's value comes back with its lists as tuples: a 1-tuple is Orio's ['name']
        opt = isinstance(x, (list, tuple))
        if opt and (len(x) != 1 or not isinstance(x[0], str)) or not opt and not isinstance(x, str):
            raise ln.error(f"a permutation lists loop names, or [name] for one that may be absent; "
                           f"got {x!r}", hint="write e.g. (['ii'],['jj'],'i','j')")
        wanted.append((x[0] if opt else x, opt))
    if len(wanted) <= 1:
        return
    groups: dict[tuple[int, ...], int] = {}
    eligible = False
    for s in d.stmts:
        names = {nm: loop for loop, nm in _in(nest, d, s)}
        if all(nm in names for nm, opt in wanted if not opt):
            eligible = True
            ids = tuple(names[nm] for nm, _ in wanted if nm in names)
            if len(ids) > 1:
                groups.setdefault(ids, s)
    if eligible and not groups:
        return      # the optional loops are absent (a tile of size 1): one loop, nothing to reorder
    if not groups:
        missing = [nm for nm, opt in wanted if not opt
                   and not any(nm == n for s in d.stmts for _, n in _in(nest, d, s))]
        around = sorted({nm for s in d.stmts for _, nm in _in(nest, d, s)})
        raise ln.error(f"permutation {seq!r}: " + (f"no loop '{missing[0]}' here" if missing else
                                                   "no statement is inside all of its loops"),
                       hint=(f"{nest.left_out[missing[0]]}; write ['{missing[0]}'] for a loop that may be "
                             f"absent, or constrain the tile size above the step; " if missing and missing[0]
                             in nest.left_out else "") + f"the loops here are {', '.join(around) or 'none'}")
    for ids, s in groups.items():
        names = dict(nest.chains[s])
        if [x for x, _ in nest.chains[s] if x in ids] == list(ids):
            continue                          # already in this order
        step("permute", stmt=s, order=[names[x] for x in ids])
        for chain in nest.chains:
            pos = [k for k, (loop, _) in enumerate(chain) if loop in ids]
            if len(pos) == len(ids):
                entries = dict(chain)
                for k, loop in zip(pos, ids):
                    chain[k] = (loop, entries[loop])


def _unroll(ln: _Line, nest: _Nest, d: _Directive, factors, step, out: list[Step]) -> None:
    """Unroll-and-jam, inner loops first as Orio does; a factor of 1, or a loop that is not
    there, leaves things as they are (Orio skips both silently; looptx notes the missing loop)."""
    todo = []
    for lid, uf in factors:
        found = _find(ln, nest, d, [lid] if isinstance(lid, str) else lid, "unrolling")
        if not found:
            # SPAPT's stencil3d unroll-and-jams 't', the time loop around the directive: its
            # factor is a parameter that changes nothing, which the user should know
            note_once(ln.file, ln.line, f"Orio's unrolling names loop {lid!r}, which is not among the "
                                        "loops the directive transforms: its factor is ignored, as in Orio",
                      per_line=True)
        if uf > 1:
            for s, loop in found:
                todo.append((-[x for x, _ in nest.chains[s]].index(loop), s, loop, uf))
    for _, s, loop, uf in sorted(todo, key=lambda t: t[0]):
        if loop in nest.unrolled:
            # regtile and unrolljam of one loop: Orio unrolls the main loop, then the cleanup
            # loop that kept the name; one unroll by the product is the closest exact form
            k = nest.unrolled[loop]
            out[k] = replace(out[k], args=tuple((a, v * uf if a == "factor" else v)
                                                for a, v in out[k].args))
            nest.unroll_factor[loop] *= uf
            continue
        nest.unrolled[loop] = len(out)
        nest.unroll_factor[loop] = uf
        step("unroll", stmt=s, loop=dict(nest.chains[s])[loop], factor=uf)
        # Orio jams statement by statement, also the copies of an inner loop it unrolled fully
        out[-1] = replace(out[-1], jam=True, args=out[-1].args + (("orio", True),))
