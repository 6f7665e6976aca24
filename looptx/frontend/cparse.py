"""C file -> regions -> Scop (one per region).  The user's text is never rewritten here: the
program keeps offsets into it so that the regenerated file changes only the regions."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace

from pycparser import c_ast, c_parser

from looptx.errors import SourceError, note_once
from looptx.frontend.aliases import check_local_aliases
from looptx.frontend.escape import fragment_locals, dead_after, used_after, with_live_out
from looptx.frontend.fallback import versioned_else, as_written, with_stand_ins
from looptx.frontend.int_types import literal_types
from looptx.frontend.final_values import final_value_lines, reusable_iterators
from looptx.frontend.exitvalues import check_counter_scopes
from looptx.frontend.function_region import function_region, moved_pointers
from looptx.frontend.tables import constant_tables
from looptx.frontend.implied import (agreeing_defines, check_defines_agree, check_derived_agree, constant_locals, derived_sizes,
                                     implied_values, model_extents, carried_defines, macros_behind)
from looptx.frontend.fragments import (INPUT_VARS, brace_depth, build_macros, declarations_error, orio_iterators,
                                       outside_fragment_regions, unfinished_region_code, wrap_fragments)
from looptx.frontend.encoding import read_c_source
from looptx.frontend.members import hoist_members
from looptx.frontend.rowlength import name_row_lengths
from looptx.frontend.branch_locals import unconditional_temporaries
from looptx.frontend.conditionals import condition_macros, macro_directives, outer_guards
from looptx.frontend.extract import PURE_MATH, Extractor
from looptx.frontend.redeclared import separate_redeclarations
from looptx.frontend.scopbuild import build_scop
from looptx.frontend.purefuncs import (helper_definitions, index_helpers, inline_index_helpers, inline_table_helpers,
                                      pure_functions, table_helpers,
                                      self_contained, trap_free, typedefs_resolved)
from looptx.frontend.names import forget_records, to_model, to_user
from looptx.frontend.spelling import parse_spelled
from looptx.frontend.steps import file_enums, region_constants
from looptx.frontend.omp_team import leading_pragma, team_statements, team_worksharing
from looptx.frontend.syntax import (CUDA_FILE, MAIN, check_tree, function_directives, gcc_says, prune_deep,
                                    statement_outside_functions, syntax_error, too_deep, unlabelled)
from looptx.frontend.preprocess import no_assembly, missing_headers, Preprocessed, blank_line_directives, needs_cpp, preprocess, \
    preprocess_decls
from looptx.frontend.region_items import count_statements, enclosing_function, in_function, nodes, region_items
from looptx.frontend.regions import (Markup, Region, SourceText, blank, end_position, note_dropped_pragmas,
                                     no_region, orio_loop_code, scan, scan_comments)
from looptx.frontend.normalise import normalise
from looptx.frontend.symbols import ARITH_WORDS, DeclCollector, Symbol, arithmetic_type, c_text, int_var, symbol_of, typedef_words
from looptx.poly.scop import Scop

# Orio input_vars declarations, parsed ahead of the file (their own "file" for coordinates)
_DEFINE_LINE = re.compile(r"^[ \t]*#[ \t]*define\b", re.M)
_LINE_MARK = re.compile(r"\s*#\s*(line\s+)?\d+\b")


@dataclass(frozen=True)
class Program:
    source: SourceText
    markup: Markup
    regions: tuple[Region, ...]
    scops: tuple[Scop, ...]
    int_macros: tuple[tuple[str, int], ...] = ()
    # number of each scop's statement 0 in the whole file: statements are numbered over all the
    # marked regions, and keep those numbers when --function leaves only some of them here
    stmt_base: tuple[int, ...] = ()
    function: str | None = None       # the --function the regions were restricted to
    defines: tuple[tuple[str, int], ...] = ()   # the --define values it was loaded with

    @property
    def filename(self) -> str:
        return self.source.filename

    @property
    def bases(self) -> tuple[int, ...]:
        """The file-wide number of each region's statement 0 (recipes and `deps` number
        statements over the file)."""
        return self.stmt_base or tuple(sum(len(s.statements) for s in self.scops[:i])
                                       for i in range(len(self.scops)))


def parse_file(path: str, *, defines: dict[str, int] | None = None, function: str | None = None,
               extra_decls: str | None = None, text: str | None = None,
               assumptions: tuple[str, ...] = (), soft: frozenset = frozenset(),
               pin: bool = False, for_file: bool = False, pin_macros: bool = False) -> Program:
    """The program model of a C file.  `defines` fix sizes (or act as macros); those named in
    `soft` only fix names the file does not declare itself.  `pin`: the C code goes back into the
    user's file, whose callers may pass a variable that --define fixed other values, so the
    code checks the value (a harness or a search point passes exactly the value).  `for_file`:
    the code goes back into the file as it is, whose plain #defines a -D cannot change (a
    .cu, like a harness, #defines the sizes itself).  `pin_macros`: only the #defined sizes
    that --define fixed are checked (a .cu, built with another -DN, must fail as the C does)."""
    # the model's names of another file's struct members must not be spelled in this one's texts
    forget_records()
    try:
        return _parse_file(path, defines=defines, function=function, extra_decls=extra_decls,
                           text=text, assumptions=assumptions, soft=soft, pin=pin, for_file=for_file,
                           pin_macros=pin_macros)
    except SourceError as e:
        # A project header that is not found is read as empty (libc ones are replaced anyway),
        # so what it declares shows up later as an unknown name or a syntax error.
        if not e.what.startswith(("cannot read the input", "preprocessor", "the file is not UTF-8", CUDA_FILE)):
            try:
                if text is None:
                    with open(path, encoding="utf-8", errors="replace") as f:
                        text = f.read()
                missing = missing_headers(blank(text, [(c.start, c.end) for c in scan_comments(text)]), path)
            except OSError:
                missing = ""
            if missing:
                e.hint = f"{e.hint}; {missing}" if e.hint else missing
        raise


def _with_decls(text: str, extra_decls: str | None) -> str:
    return f'# 1 "{INPUT_VARS}"\n{extra_decls}\n# 1 "{MAIN}"\n{text}' if extra_decls else text


def _parse_file(path: str, *, defines, function, extra_decls, text, assumptions, soft, pin=False,
                for_file=False, pin_macros=False) -> Program:
    if text is None:
        try:
            text = read_c_source(path)
        except OSError as e:
            raise SourceError(f"cannot read the input: {e.strerror}", hint="check the path", file=path) from None
    defines = dict(defines or {})
    markup = scan(text, path)
    src = markup.src
    regions = list(markup.regions)
    blanked = blank_line_directives(blank(text, [(c.start, c.end) for c in markup.comments]))
    no_assembly(blanked, regions, src, path)

    for r in regions:
        if r.orio_code:
            # an Orio Loop annotation: its own code is the region, and Orio drops the code
            # between its markers
            blanked = blanked[:r.start] + orio_loop_code(r.chill.body) + blanked[r.end:]
            blanked = blank(blanked, [(r.chill.begin[1], r.chill.end[0])])
            pragma = re.search(r"^[ \t]*#[ \t]*pragma\b[^\n]*", r.chill.body, re.M)
            if pragma:
                # Orio's lexer reads `#` lines of the body as comments
                note_once(path, src.pos(r.chill.body_start + pragma.start())[0],
                          f"'{pragma.group().strip()}' in the Loop annotation's code is dropped, as Orio drops it: "
                          "give it with the annotation's own directives (transform Pragma(pragma_str=...), "
                          "Unroll(parallelize=True), Composite(openmp=...))", per_line=True)

    blanked, wrapped = wrap_fragments(text, blanked, regions)

    decls, decl_sizes = extra_decls, {}
    if decls:
        # pycparser reads no comments (an Orio decl_file may hold some): blanked in place
        decls = blank(decls, [(c.start, c.end) for c in scan_comments(decls)])
    if decls and needs_cpp(decls):
        # a decl_file with #ifdef/#define (Orio compiles it with the build's -D flags, which
        # input_decls turned into #defines); its integer #defines are sizes
        dp = preprocess_decls(decls, path, {k: str(v) for k, v in defines.items()})
        decls = "\n".join(ln for ln in dp.text.split("\n") if not _LINE_MARK.match(ln))
        decl_sizes = dp.int_macros

    # a macro defined inside a function or a region is not written back by name: the region's
    # new code replaces the #define that the name needs (or a function region may)
    inner_defines = frozenset(
        blanked.count("\n", 0, m.start()) + 1 for m in _DEFINE_LINE.finditer(blanked)
        if brace_depth(blanked, m.start()) > 0 or any(r.start <= m.start() < r.end for r in regions))

    macros = build_macros(markup, path, defines)

    def prepare(keep: frozenset[str] | None) -> Preprocessed:
        pp = preprocess(blanked, path, {k: str(v) for k, v in defines.items()}, keep, inner_defines, macros) \
            if needs_cpp(blanked) or macros else Preprocessed(blanked, {})
        return pp.with_sizes(decl_sizes) if decl_sizes else pp

    ast, pp, spellings = parse_spelled(prepare, lambda p: _with_decls(p.text, decls), MAIN)
    if for_file and pp.overridden:
        raise pp.overridden[0].error()
    for o in pp.overridden:
        note_once(o.file, o.line, o.note(cu=pin_macros), col=o.col)
    parse_text = _with_decls(pp.text, decls)
    # cpp collapses blanks; columns are mapped back through the comment-free text that cpp
    # read, since a comment on the line (a begin marker before the code) is not in its output
    cpp_input = SourceText(blanked, path)

    def column(line: int, col: int) -> int:
        return pp.column(cpp_input.line_text(line), line, col) if line <= len(src._line_starts) else col

    parser = c_parser.CParser()
    try:
        if ast is None:
            ast = parser.parse(parse_text, filename=MAIN)
    except c_parser.ParseError as e:
        # a declaration without its `;` is found only in the code after it: look at the
        # fragment's declarations (def input_vars, the decl_file) alone first
        err = syntax_error(e, parser, column, cpp_input)
        err = declarations_error(decls, path) or unfinished_region_code(
            outside_fragment_regions(err, markup, blanked, wrapped), markup, blanked)
        raise statement_outside_functions(err if decls else gcc_says(err, blanked, path, defines), text) from None
    except RecursionError:
        raise too_deep(parser, column, cpp_input) from None
    except Exception as e:                                  # pycparser lexer errors
        raise SourceError(f"syntax error: {e}", hint="fix the C syntax", file=path) from None
    def where(node) -> tuple[int, int]:
        c = getattr(node, "coord", None)
        if c is None or c.file != MAIN or c.line is None:
            return (0, 0)
        return c.line, column(c.line, c.column or 1)

    prune_deep(ast, [src.pos(r.start)[0] for r in markup.regions], function, where, path)
    substituted = normalise(ast, [(src.pos(r.start)[0], src.pos(r.end)[0]) for r in markup.regions])
    declared_here = _declared_in_file(ast)
    if soft:
        defines = {k: v for k, v in defines.items() if k not in soft or to_model(k) not in declared_here}
    stand_ins = {to_model(k) for k in defines if k in soft}
    # a variable of the file (a function's `int n`) that --define fixes is still passed other
    # values by the callers: the output is made for the value and checks it
    # (so is a variable that Orio's input_vars, its decl_file or a header declare, `int ny;`:
    # not a macro)
    variables = declared_here | _declared_in_file(ast, None)
    # an element read once as a size (`*n` as n__0, frontend/elements.py) is a variable too, and
    # so is a struct member read once (`blk.xend` as blk__xend, frontend/members.py): the output
    # declares it, so an #if on it would read 0
    variables |= {to_model(k) for k in defines
                  if re.fullmatch(r"(\w+?)__\d+(_\d+)*", k) and to_model(k).rsplit("__", 1)[0] in variables
                  or re.fullmatch(r"[A-Za-z]\w*?__\w+", k) and to_model(k).split("__", 1)[0] in variables}
    pinned = {to_model(k) for k in defines if k not in soft and to_model(k) in variables} if pin else set()
    # a size that neither the file declares nor #defines comes from the build's -D (Orio's
    # NRA), which may give another value: the output is made for this one and checks it
    defined = set(re.findall(r"^\s*#\s*define\s+([A-Za-z_]\w*)", text, re.M))
    # an enumerator has its value in every build, and an #if reads it as 0: a -D of another
    # value is refused, one of its own is no size to check
    # (an enumerator set from a plain #define, `enum { N = NV };`, has its value too)
    fixed_macros = {to_model(k): v for k, v in pp.int_macros.items() if k not in _defaults(text)}
    enumerators = file_enums(ast.ext, fixed_macros)
    for k, given in defines.items():
        if k in enumerators and to_model(k) not in variables and str(given).strip() != str(enumerators[k][0]):
            line, col = where(enumerators[k][1])
            raise SourceError(f"-D {k}={given} does not change '{k}': the file's enum sets it to "
                              f"{enumerators[k][0]}, and a build keeps it",
                              hint=f"drop -D {k}, or change the enum", file=path, line=line or None,
                              col=col or None)
    external = frozenset(to_model(k) for k in defines if pin and k not in soft and k not in defined
                         and to_model(k) not in variables and k not in enumerators)
    int_macros = {to_model(k): v for k, v in pp.int_macros.items()}
    defines = {to_model(k): v for k, v in defines.items()}

    check_tree(ast, where, path)

    funcs = [e for e in ast.ext if isinstance(e, c_ast.FuncDef) and e.coord and e.coord.file == MAIN]
    for f in funcs:
        _ansi_parameters(f)
    globals_ = {}
    declared_data = {}          # what Orio's input_vars declare (extra_decls), with extents
    for e in ast.ext:
        if isinstance(e, c_ast.Typedef) and e.name:
            # element types of arrays declared with it resolve through it
            globals_[e.name] = Symbol(e.name, "typedef", c_text(e.type), line=e.coord.line if e.coord else 0)
        elif isinstance(e, c_ast.Decl):
            sym = symbol_of(e, spellings)
            if sym:
                globals_[sym.name] = sym
                if e.coord is not None and e.coord.file == INPUT_VARS:
                    declared_data[sym.name] = sym

    def visible(sym: Symbol) -> Symbol:
        # Orio times a PerfTuning body on the data its input_vars declare, whatever the
        # enclosing function calls them: a pointer parameter `double *y` of a function that
        # input_vars declares as `y[N]` has the extent N.
        data = declared_data.get(sym.name)
        if data is None or sym.kind != "array" or "" not in sym.dims or data.ctype != sym.ctype \
                or not data.dims or not all(data.dims):
            return sym
        if len(data.dims) == len(sym.dims):
            return data
        if len(sym.dims) == 1:      # `double *A` over `decl A[M][K]`: the same elements, in a row
            return replace(data, dims=("*".join(f"({d})" for d in data.dims),))
        return sym

    dead_all = pp.branches.dead_lines(blanked) if pp.branches else set()      # #if branches not taken
    # a region inside `#if 0` (an old variant kept in the file) is no code of this build
    regions = [r for r in regions if src.pos(r.start)[0] not in dead_all or r.kind == "function"]
    marked = list(regions)
    if function is not None:
        fdefs = [f for f in funcs if f.decl.name == function]
        if not fdefs:
            raise SourceError(f"no function named '{function}' in the file",
                              hint="check --function", file=path, line=1, col=1)
        fdef = fdefs[0]
        inside = [r for r in regions if in_function(fdef, funcs, src, r, where)]
        if inside:
            regions = inside
        else:
            regions = function_region(fdef, src, where, pp.branches.live_text(blanked))
            no_assembly(blanked, regions, src, path)
    if not regions:
        raise no_region(src)
    regions = [Region(r.kind, r.start, r.end, r.outer, i, r.chill, r.tuning, r.function, r.keep_markers)
               for i, r in enumerate(regions)]

    scops = []
    # a helper may name enum constants and #defined integers: constants wherever it is called
    # helpers may come from the user's own headers too (CMSIS-NN's __SSAT in cmsis_gcc.h); the
    # libc headers are stand-ins that define nothing
    helper_fns = funcs + [e for e in ast.ext if isinstance(e, c_ast.FuncDef) and e.coord
                          and e.coord.file not in (MAIN, INPUT_VARS)]
    typedefs_resolved(helper_fns, typedef_words(ast))
    pure = pure_functions(helper_fns, PURE_MATH, {n.name for n in nodes(ast) if isinstance(n, c_ast.Enumerator)}
                          | set(int_macros))
    safe_helpers = trap_free(helper_fns, pure)
    index_fns = index_helpers(helper_fns, pure)
    table_fns = table_helpers(helper_fns, {n for n, sym in globals_.items() if sym.kind == "array"})
    overridable = _defaults(text) | external
    declared = set(globals_)
    taken = {n.name for n in nodes(ast) if isinstance(n, (c_ast.ID, c_ast.Decl)) and isinstance(n.name, str)} \
        | set(int_macros)
    for r in regions:
        fdef = enclosing_function(funcs, src, r, where)
        if fdef is None:
            raise src.error(r.start, "the region is not inside a function", "put it in a function body")
        top_pragmas: dict[int, list[str]] = {}
        items = unlabelled(fdef, region_items(fdef.body, src, r, where, top_pragmas), where, path)
        team_kind, team, team_head = team_worksharing(fdef, src, r, where, blanked, items, top_pragmas)
        if not items:
            raise src.error(r.outer[0], "the region contains no statements",
                            "mark a loop nest, not an empty block")
        check_local_aliases(fdef, items, where, path, [e for e in ast.ext if isinstance(e, c_ast.Decl)])
        symbols = dict(globals_)
        params_decl = fdef.decl.type.args.params if fdef.decl.type.args else []
        const_params = []
        function_params = tuple(p.name for p in params_decl if isinstance(p, c_ast.Decl) and p.name)
        # a parameter the function reads before the region (NPB MG's `u = (double (*)[n2][n1])ou`,
        # `float k = alpha * 2`) reaches it through the locals set from it, which the host
        # function takes in its place
        read_before = {n.name for n in nodes(fdef.body) if isinstance(n, c_ast.ID) and n.coord
                       and where(n) < src.pos(r.start)}
        # (a typedef of the file as the type it names: the .cu's host function has no `CeedInt`;
        # <stdint.h>'s are kept, which the .cu includes)
        param_types = tuple((sym.name, sym.ctype if set(sym.ctype.split()) & ARITH_WORDS else
                             arithmetic_type(sym.ctype, symbols.get), sym.dims, sym.is_const) for sym in
                            (symbol_of(p) for p in params_decl if isinstance(p, c_ast.Decl) and p.name)
                            if sym is not None and sym.kind in ("var", "array") and sym.name not in read_before)
        int_params = tuple(sym.name for sym in (symbol_of(p) for p in params_decl if isinstance(p, c_ast.Decl) and p.name)
                           if int_var(sym, symbols.get))
        extent_members: dict[str, str] = {}

        def modelled(sym: Symbol, d: c_ast.Decl) -> Symbol:
            dims, named = model_extents(d) if sym.kind == "array" else ((), {})
            extent_members.update(named)
            return visible(replace(sym, dims=dims) if named else sym)
        for p in params_decl:
            if isinstance(p, c_ast.Decl):
                sym = symbol_of(p, spellings)
                if sym:
                    symbols[sym.name] = modelled(sym, p)
                    if sym.kind == "array" and sym.is_const:
                        const_params.append(sym.name)
        collector = DeclCollector()
        collector.visit(fdef.body)
        start_pos = src.pos(r.start)
        for d in collector.decls:
            sym = symbol_of(d, spellings)
            if sym and where(d) < start_pos:
                symbols[sym.name] = modelled(sym, d)
        # globals of the file, its headers or an Orio decl_file (`int nx = N;`)
        derived = derived_sizes(ast, [e for e in ast.ext if isinstance(e, c_ast.Decl)
                                       and e.coord is not None],
                                 symbols, start_pos, where, anywhere=True, orio=r.tuning is not None) \
            + derived_sizes(fdef.body, collector.decls, symbols, start_pos, where)
        # `int hs = C / NH;` before the region, with C and NH fixed: hs has a value, which the
        # model takes where the region is not affine without it (`inp + t*C3 + h*hs`)
        # the locals the region sees: one it declares itself (`double g` in a loop) may share a
        # global's name, whose initializer is then no local's value (probe 149 G9)
        before = [d for d in collector.decls if where(d) < start_pos]
        implied = implied_values(fdef, before, derived, {**int_macros, **defines}, r.tuning is not None,
                                 lookup=symbols.get)
        # (a plain #define is the file's in every build; an #ifndef default or a -D is not)
        plain_macros = {k: v for k, v in int_macros.items() if to_user(k) not in overridable
                        and k not in {to_model(d) for d in defines}}
        # (and the sizes -D fixes, which the output checks: `int k = N - 17;` at -D N=21 is 4)
        given = {to_model(k): int(v) for k, v in defines.items()
                 if k not in symbols and to_user(k) not in symbols and re.fullmatch(r"-?\d+", str(v).strip())}
        constants = constant_locals(fdef, before, derived, {**plain_macros, **given}, ast.ext, lookup=symbols.get)
        literal = constant_locals(fdef, before, derived, lookup=symbols.get)
        # (a file-scope const's -D is refused at its declaration by check_derived_agree)
        check_defines_agree({k: v for k, v in constants.items() if k in {to_model(d.name) for d in collector.decls}},
                            defines, collector.decls, where, path)
        check_derived_agree(derived, {**int_macros, **defines}, defines,
                            list(collector.decls) + [e for e in ast.ext if isinstance(e, c_ast.Decl)], where, path)
        # struct member chains become variables read before the region (frontend/members.py)
        # calls of index helpers in subscripts and bounds are read as their expressions
        # a name declared again in the region is another object: it gets a name of its own
        own = separate_redeclarations(items, set(symbols), taken)
        # (Orio's Loop annotation, with or without a PerfTuning block around it)
        orio = r.tuning is not None or r.orio_code
        implicit = orio_iterators(own, symbols) if orio else []
        if implicit:
            note_once(path, start_pos[0], f"nothing declares the loop counters {', '.join(implicit)}: as in Orio, "
                      "each counts with an int of its own loop")
        expanded = inline_table_helpers(inline_index_helpers(own, index_fns), table_fns)
        hoist = hoist_members(expanded, ast=ast, fdef=fdef, where=where, spellings=spellings,
                              start=start_pos, end=end_position(src, r), text=blanked, path=path,
                              line=start_pos[0])
        symbols.update(hoist.symbols)
        rows = name_row_lengths(hoist.items, lookup=symbols.get, spellings=hoist.spellings, path=path,
                                line=start_pos[0], ast=ast, text=blanked, fixed=set(defines) | set(int_macros))
        symbols.update(rows.symbols)
        declared |= set(symbols)
        region_defines = defines
        check_counter_scopes(rows.items, where, path)
        while True:
            ex = Extractor(lookup=symbols.get, int_macros=int_macros, fixed=region_defines, where=where,
                           filename=path, line_text=src.line_text, spellings=rows.spellings,
                           constants=region_constants(ast.ext, [d for d in collector.decls if where(d) < start_pos],
                                                      symbols, fixed_macros), pure=frozenset(pure))
            ex.defined = frozenset(f.decl.name for f in helper_fns if self_contained(f))
            ex.macro_types = {to_model(k): t for k, t in literal_types(pp.object_macros).items()}
            try:
                with hoist.explaining(), rows.explaining():
                    raw = ex.run(list(rows.items))
                    if not raw:
                        raise src.error(r.start, "the region contains no assignment statements",
                                        "looptx transforms loop nests that compute something")
                    end = end_position(src, r)
                    after = used_after(fdef, {n for n in ex.local if not ex.private_depth.get(n)}, end, where)
                    scop = hoist.attach(build_scop(path, r, raw, ex, symbols, region_defines,
                                                    tuple(assumptions or ())
                                                    + rows.assumptions(ex.params, {**ex.constants.enums, **int_macros,
                                                                                    **region_defines}),
                                                    (src.pos(r.start)[0], src.pos(r.end)[0]),
                                                    None if r.index in wrapped else fdef.decl.name,
                                                    derived + rows.derived(ex.constants.enums), overridable, after,
                                                    rows.obligations(ex.params, {**ex.constants.enums, **int_macros,
                                                                                 **region_defines})))
                    scop = with_stand_ins(scop, stand_ins, path, start_pos[0])
                    if extent_members:
                        scop = replace(scop, extent_members=tuple(sorted(extent_members.items())))
                    # a floating value --define gives (`-D beta=3`, for run's harness) shapes no loop:
                    # guarding the region by `beta == 3` would only copy it
                    # (one that bounds a loop or a subscript is a size whatever its type:
                    # `double len` as a bound, a PETSc enum flag in a guard)
                    reals = {n for n in pinned if symbols.get(n) is not None and symbols[n].kind == "var"
                             and not int_var(symbols[n], symbols.get) and n not in ex.fixed_affine}
                    scop = with_stand_ins(scop, pinned - reals - agreeing_defines(constants, defines), path,
                                          start_pos[0], "the value --define gives")
                    if region_defines is not defines:
                        scop = with_stand_ins(scop, set(implied), path, start_pos[0],
                                              "the value its initializer has at the fixed sizes")
                    if not pin and not pin_macros:
                        scop = replace(scop, pinned_macros=())    # a search's best file dispatches on them
                    accessed = {a.name for a in scop.arrays}
                    # (a tuned region's step may take its sizes' implied values, checked as it runs)
                    fallback = as_written(rows.items, set(after), rows.spellings, top_pragmas) \
                        if scop.runtime_facts or scop.row_leaving is not None or r.tuning is not None and implied \
                        else None
                    if fallback and team_kind == "parallel":
                        # the nest's own `#pragma omp parallel for`, which moved into the output
                        fallback = tuple(leading_pragma(blanked, r)) + fallback
                    if scop.runtime_facts and fallback is None:
                        note_once(path, start_pos[0], "the output cannot run the region as written where the sizes break "
                                  "the facts above (an array the code after the region reads is declared in it with an "
                                  "initializer list): it does not check them")
                    scop = replace(scop, hoisted=scop.hoisted + rows.declarations(), fallback=fallback or (),
                                   fallback_else=versioned_else(rows.items, set(after), rows.spellings, top_pragmas)
                                   if fallback and team_kind != "parallel" else (),
                                   implicit_counters=tuple(implicit),
                                   declared_before=tuple((ex.local[n].spelled_decl or ex.local[n].decl_text) + ";"
                                                         for n in after if n not in accessed and ex.local[n].decl_text))
            except SourceError:
                if region_defines is not defines or not implied:
                    raise
                region_defines = {**implied, **defines}
                continue
            # a -D of a size the region reads only through a local set from it (`int n = len;`
            # with -D len=8) fixes that local: the code is made for its value, and checks it
            # (a tuned region's problem sizes reach its steps as implied values already)
            carried = carried_defines(implied, derived, defines, scop) \
                if region_defines is defines and r.tuning is None else {}
            if carried:
                region_defines = {**carried, **defines}
                continue
            break
        live = dead_after(fdef, items, src.pos(r.start), end, where, spellings, hoisted=hoist.live_out,
                          lookup=symbols.get, dead_hoisted=hoist.dead_locals)
        if r.index in wrapped:
            live = {**fragment_locals(ast, blanked[r.end:], spellings, symbols.get, MAIN), **live}
        # the region's own variables read after it count for the loop variables' final values
        read_after = {**{n: (why, "", "") for n, why in after.items()}, **live}
        called = {n.name.name for it in items for n in nodes(it)
                  if isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID) and n.name.name in pure}
        # a size set from plain #defines stays symbolic until a step needs its value, as the
        # #defines do where the loops read them
        behind = {k: macros_behind(constants, literal, derived, plain_macros, scop, {k}) for k in constants}
        soft_locals = {k for k in constants if behind[k]}
        scop = replace(unconditional_temporaries(with_live_out(scop, live), PURE_MATH | safe_helpers),
                       # an Orio fragment at file scope is pasted into a function of Orio's: no
                       # code of the file runs after it
                       final_values=() if r.index in wrapped else
                       final_value_lines(fdef, items, read_after, end, src, blanked, where,
                                         {n for n, _ in substituted.get(fdef.decl.name, ())}),
                       helpers=helper_definitions(helper_fns, pure, called,
                                                  {**int_macros, **region_defines, **ex.constants.enums}),
                       # (and the file's const tables: the host function takes them as the file declares them)
                       const_params=tuple(const_params) + tuple(n for n, g in globals_.items()
                                                                if g.kind == "array" and g.is_const),
                       local_values=tuple((k, v) for k, v in constants.items() if k in scop.params),
                       local_macros=tuple((k, behind[k]) for k in constants if k in soft_locals),
                       implied_values=tuple((k, v) for k, v in implied.items() if k in scop.params
                                            and k not in dict(scop.fixed)) if r.tuning is not None else (),
                       # facts, as the function's own text gives them: dependences hold for them
                       # alone (TSVC s132's `int j = m; int k = m + 1;`: aa[j][i] and aa[k][i-1]
                       # never meet), and no check of them is needed
                       assumptions=scop.assumptions + tuple(f"{k} = {v}" for k, v in constants.items()
                                                            if k in scop.params and k not in soft_locals),
                       substituted=tuple(sorted({(to_model(n), n in symbols or line < start_pos[0])
                                                 for n, line in substituted.get(fdef.decl.name, ())
                                                 if start_pos[0] <= line <= end[0]
                                                 # set before the region (Livermore 8's `nl1 = 0;`
                                                 # in the loop around it) and read in it
                                                 or line < start_pos[0] and re.search(
                                                     rf"\b{re.escape(n)}\b", blanked[r.start:r.end])})),
                       function_params=() if r.index in wrapped else function_params,
                       param_types=() if r.index in wrapped else param_types,
                       int_params=() if r.index in wrapped else int_params,
                       own_iterators=() if r.index in wrapped else reusable_iterators(fdef, items, symbols))
        tables = constant_tables(ast, {a.name for a in scop.arrays if a.role == "in" and not a.local})
        moved = tuple(map(to_user, moved_pointers(fdef, src.pos(r.start), where))) if r.index not in wrapped else ()
        if tables or moved:
            scop = replace(scop, tables=tables, moved_pointers=moved)
        if team:
            lead = leading_pragma(blanked, r) if team_kind == "parallel" else []
            scop = replace(scop, team=team_statements(team, items, scop.statements, where, blanked, src, r),
                           team_kind=team_kind, team_head=team_head,
                           team_guard=(lead[0], lead[-1]) if len(lead) == 3 else ())
        directives, directive_lines = function_directives(top_pragmas, blanked, (src.pos(r.start)[0], src.pos(r.end)[0]))
        if directives:
            scop = replace(scop, directives=directives)
        lines = (src.pos(r.start)[0], src.pos(r.end)[0])
        guard = pp.branches.guard(blanked, *lines, f"{path}:{lines[0]}")
        outer, defaults = outer_guards(pp.branches, blanked, lines, set(re.findall(r"[A-Za-z_]\w*", blanked[r.start:r.end])),
                                       set(re.findall(r"[A-Za-z_]\w*", blanked[src.offset(*where(fdef)):r.start])),
                                       f"{path}:{lines[0]}")
        if outer:
            scop = replace(scop, outer_conditionals=outer)
        if defaults:
            scop = replace(scop, default_guards=defaults)
        if guard or outer:
            scop = replace(scop, condition_macros=condition_macros(guard + [g for _, _, gs in outer for g in gs],
                                                                   pp.object_macros))
        if guard:
            scop = replace(scop, conditionals=tuple(guard))
            note_once(path, lines[0], "the region holds preprocessor conditionals: looptx transforms the code of "
                      "the branches this build takes (the file's macros and --define); the output repeats the "
                      "conditionals with an #error in each other branch, so a build that takes one stops there")
        dead = {k for k in dead_all if lines[0] <= k <= lines[1]}
        macros_after = macro_directives(blanked, src.pos(r.start)[0], src.pos(max(r.end - 1, r.start))[0], dead)
        if macros_after:
            scop = replace(scop, macros_after=tuple(macros_after))
        scops.append(scop)
        # a branch the output guards with #error is not lost; a group of pragmas only (HPCCG's
        # `#ifdef USING_OMP`) is, in the build that takes it
        note_dropped_pragmas(src, markup.comments, r, kept={t[2] for t in scop.team} | directive_lines
                             | (dead if scop.conditionals else set()), untaken=dead)
    # the regions --function split at calls between loops count on from each other
    bases = tuple(sum(count_statements(funcs, src, m, where) for m in marked if m.start < r.start)
                  + sum(len(s.statements) for q, s in zip(regions, scops) if q.kind == "function" and q.start < r.start)
                  for r in regions)
    # -D values are integer macros too: generated code that spells an array extent with a size
    # the region's loops never use (C[N + M][..] in loops over M only) needs its value.  A -D
    # that names a C variable or parameter (a function-parameter size) is a value, not a macro.
    macros = {**int_macros, **{k: v for k, v in defines.items() if k not in declared}}
    return Program(src, markup, tuple(regions), tuple(scops), tuple(sorted(macros.items())),
                   bases, function, tuple(sorted((to_user(k), v) for k, v in defines.items())))


def _ansi_parameters(fdef: c_ast.FuncDef) -> None:
    """An old-style definition (Rodinia's backprop: `void f(a, n) float *a; int n; {`) read as
    `void f(float *a, int n)`: its parameters' types are in the declarations after the list."""
    args = fdef.decl.type.args if isinstance(fdef.decl.type, c_ast.FuncDecl) else None
    if not fdef.param_decls or args is None:
        return
    typed = {d.name: d for d in fdef.param_decls if isinstance(d, c_ast.Decl)}
    # C89: a parameter without a declaration is an int
    args.params = [typed.get(p.name) or c_ast.Decl(p.name, [], [], [], [], c_ast.TypeDecl(
        p.name, [], None, c_ast.IdentifierType(["int"])), None, None, coord=p.coord)
        if isinstance(p, c_ast.ID) else p for p in args.params]
    fdef.param_decls = None


def _defaults(text: str) -> frozenset:
    """Macros the file only defaults (`#ifndef N` / `#if !defined(N)`): a build may give
    another value with -D, so theirs is not the only one."""
    return frozenset(re.findall(r"^\s*#\s*(?:ifndef\s+|if\s+!\s*defined\s*\(?\s*)([A-Za-z_]\w*)",
                                text, re.M))


def _declared_in_file(ast, part: str | None = MAIN) -> set[str]:
    """Every name the file (not input_vars; or, `part` None, with its input_vars and headers)
    declares: globals, parameters, locals."""
    collector = DeclCollector()
    for e in ast.ext:
        if e.coord is not None and (part is None or e.coord.file == part):
            collector.visit(e)
    return {d.name for d in collector.decls if d.name}


def parse(path: str, **kw) -> Program:
    return parse_file(os.fspath(path), **kw)
