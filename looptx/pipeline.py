"""The flow of ARCHITECTURE.md as plain function calls: file -> Program -> Variants -> text."""
from __future__ import annotations

import os
import re
from dataclasses import replace
from typing import Any, Mapping, TextIO

from looptx import __version__
from looptx.codegen.c import name_loops, outer_decls, region_lines, tree_lines
from looptx.codegen.versioning import versioned
from looptx.codegen.render import render_file
from looptx.errors import AnnotationError, LooptxError, RecipeError, note_once
from looptx.frontend.cparse import Program, parse_file
from looptx.frontend.names import to_model, to_user
from looptx.poly.astgen import build, build_ast
from looptx.poly.variant import Variant
from looptx.recipe.apply import apply_recipe
from looptx.recipe.chill import parse_chill
from looptx.frontend.regions import is_orio_loop
from looptx.recipe.orio_loop import parse_orio_loop
from looptx.recipe.schema import Recipe, Step, find_recipe, load_file
from looptx.recipe.team import as_written
from looptx.stmt_numbers import (file_numbered, file_numbers_read, in_file_numbers, in_nests, renumbered, step_stmts,
                                 loop_nests, recipe_bases, split_by_region)


def load(path: str, *, defines=None, function=None, extra_decls=None,
         soft: frozenset = frozenset()) -> Program:
    program = parse_file(path, defines=defines, function=function, extra_decls=extra_decls, soft=soft)
    _no_counter_defined(program, defines or {})
    return program


def _no_counter_defined(program: Program, defines) -> None:
    """-D of a loop counter of a region (`-D i=3`) fixes nothing there and was ignored without
    a word; a counter of a loop around the region (Devito's `time`) is a size of it."""
    for name, value in defines.items():
        m = to_model(name)
        if any(m in s.params for s in program.scops):
            continue
        st = next((st for s in program.scops for st in s.statements if m in st.iterators), None)
        if st is not None:
            raise LooptxError(f"-D {name}={value}: '{name}' counts a loop of the region, not a size",
                              hint="drop this --define: it fixes sizes, parameters and macros",
                              file=program.filename, line=st.line or None)


def c_block(variant: Variant, spelled: bool = False, bare: bool = False) -> list[str]:
    """The region in C.  Kernels of cuda steps become a C emulation of their grid (loops over
    blocks and threads around the kernel body) when they have no barrier; otherwise the
    sequential schedule is printed (correct results; not GPU timings).  `spelled`: the block
    goes back into the user's file, where the file's macros are defined, between the
    declarations and final values C's scopes need, unless `bare` (a caller that puts several
    variants under guards places those once)."""
    from looptx.poly.gpu import mappings
    lines = None
    if mappings(variant):
        from looptx.codegen.cuda import emulation_block, generate
        # the name of the .cu's kernels where the function has one region (region_name): the
        # emulation's comments name them alike, and `--target cuda,c` generates them once
        rc = generate(variant, variant.scop.function or "region")
        if not any(k.has_sync for k in rc.kernels):
            lines = emulation_block(rc, spelled)
            if spelled:
                from looptx.codegen.c import unused_counters, unused_set_before
                scop = variant.scop
                # the emulation's grid loops and each thread declare their own (`for (int j`, a
                # privatized `sum`): the function's variable of that name is then unused
                counters = [n for n, _ in scop.own_iterators]
                own = unused_counters(counters, lines, "  ", unused={n for n in counters if _declares(lines, n)})
                own += unused_counters((), lines, "  ", "each emulated thread has its own", unused={
                    a.name for a in scop.arrays if a.local and a.declared_by_function and _declares(lines, a.name)})
                own += unused_set_before(scop, lines, "  ")
                lines = ["{"] + own + ["  " + x if x else x for x in lines] + ["}"] if own else lines
                # the build checks region_lines writes: a size a step or -D fixed (#if N != 32
                # #error), the #ifdef branches read, the #defines repeated after the region
                from looptx.codegen.versioning import baked_guard
                from looptx.frontend.conditionals import guard_lines
                lines = baked_guard(scop) + guard_lines(scop, "\n".join(lines)) + list(scop.conditionals) \
                    + lines + list(scop.macros_after)
    if lines is None:
        node, plan = build(variant)
        lines = region_lines(variant, name_loops(node, variant), buffers=plan.buffers, spelled=spelled)
    if not spelled:
        return lines
    lines = versioned(variant.scop, lines)
    if bare:
        return lines
    return outer_decls(variant.scop) + lines + list(variant.scop.final_values)


def _declares(lines: list[str], name: str) -> bool:
    """Whether C `lines` declare `name` (a type word, then the name): in C two names follow
    each other only there, or after a keyword."""
    return any(m.group(1) not in ("return", "else", "case", "goto", "sizeof", "do")
               for m in re.finditer(rf"\b([A-Za-z_]\w*)\s+\**{re.escape(name)}\s*[;=\[,)]", "\n".join(lines)))


def region_name(program: Program, index: int) -> str:
    fn = program.scops[index].function or "region"
    same = [i for i, s in enumerate(program.scops) if (s.function or "region") == fn]
    return fn if len(same) == 1 else f"{fn}_{same.index(index)}"


def cuda_file(program: Program, variants: dict[int, Variant], head: str, *, standalone=False,
              warn: TextIO | None = None) -> str:
    from looptx.codegen.cuda import cu_file, generate
    from looptx.codegen.cuda_notes import count_warnings
    parts, warnings = [], []
    for i, v in variants.items():
        rc = generate(v, region_name(program, i))
        # CUDA-CHiLL's cp.lua: `atoms=N*4` for `float atoms[ATOMCOUNTTIMES4]`, a macro the
        # region never names
        said = rc.warnings + [w for w in count_warnings(v, rc.arrays, dict(program.int_macros))
                              if w not in rc.warnings]
        warnings += [file_numbered(w, program.bases[i] if program.bases else 0) for w in said]
        parts.append(cu_file(rc, head if not parts else "", dict(program.int_macros),
                             standalone=standalone and len(variants) == 1,
                             sizes=dict(program.scops[i].fixed)))
    # said once the whole file is made: a bad input later on is the only line on stderr
    for w in warnings if warn is not None else ():
        at = re.match(r"(\S+?:\d+): (.*)", w, re.S)
        warn.write(f"{at.group(1)}: warning: {at.group(2)}\n" if at else f"looptx: warning: {w}\n")
    return "\n".join(parts)


def header(path: str, recipe_text: str | None, unsafe: bool = False) -> str:
    lines = [f"looptx {__version__}: generated from {os.path.basename(path)}"]
    if unsafe:
        lines.append("UNSAFE: --unsafe was given, dependence checks were skipped")
    if recipe_text:
        lines.append("recipe applied:")
        lines += ["  " + ln for ln in recipe_text.rstrip().splitlines()]
    else:
        lines.append("no recipe: regions regenerated from the polyhedral model")
    body = "\n".join(" * " + ln.replace("*/", "* /") for ln in lines)
    return f"/*\n{body}\n */\n"


def annotation_recipe(program: Program, index: int, bindings: Mapping[str, Any]) -> Recipe | None:
    """The recipe written in a region's CHiLL annotation (None when the body is empty)."""
    r = program.regions[index]
    if r.chill is None or not r.chill.body.strip():
        return None
    line, col = program.source.pos(r.chill.body_start)
    if is_orio_loop(r.chill.module, r.chill.body):
        return parse_orio_loop(r.chill.body, file=program.filename, line=line, col=col,
                               bindings=bindings, statements=program.scops[index].statements,
                               between=program.source.text[r.start:r.end] if r.start != r.chill.body_start else None,
                               folded=frozenset(to_user(n) for n, _ in program.scops[index].substituted))
    n = len(program.scops[index].statements)
    # a -D of a variable the script sets passes over its assignment, as for a script file
    from looptx.recipe.chill_text import script_sets
    given = script_sets(r.chill.body, program.defines)
    rec = parse_chill(r.chill.body, file=program.filename, line=line, col=col, bindings={**given, **bindings},
                      base_dir=os.path.dirname(os.path.abspath(program.filename)), n_statements=n,
                      fixed=frozenset(given))
    # loop(N) in a block counts the nests inside it
    rec = in_nests(rec, loop_nests([program.scops[index]], (0,)), program.scops[index].statements)
    return file_numbers_read(rec, program.bases[index], n, program.filename, program.scops[index].statements)


def default_bindings(program: Program, index: int) -> dict[str, Any]:
    """For a single transform of an annotated file: the first valid point of its tuning spec."""
    r = program.regions[index]
    if r.tuning is None:
        # an annotation's parameter with no PerfTuning block to give it values (Orio's
        # _orio_perftest files, `Unroll(ufactor=UF)`) takes --define's, as a recipe's `$UF` does
        return dict(program.defines)
    from looptx.frontend.annotations import parse_tuning_spec
    from looptx.search.from_spec import first_point
    line, col = program.source.pos(r.tuning.body_start)
    spec = parse_tuning_spec(r.tuning.body, file=program.filename, line=line, col=col,
                             base_dir=os.path.dirname(os.path.abspath(program.filename)))
    # --define picks a performance param's value (the rest: the first valid point with it)
    perf = {p.name for p in spec.performance_params}
    given = dict(program.defines)
    chosen = {k: v for k, v in given.items() if k in perf}
    sizes = {**((spec.problem_sizes() or [{}])[0]), **{k: v for k, v in given.items() if k not in perf}}
    def takes(point) -> bool:
        try:
            annotation_recipe(program, index, point)
        except LooptxError:
            return False
        return True
    try:
        return first_point(spec, sizes, chosen, takes)
    except LooptxError as e:
        if e.col is None and e.file == program.filename:
            e.line, e.col = line, col
        raise


def at_point(e: LooptxError, point) -> None:
    """Says, in the hint of a step's refusal, at which of the annotation's points the step
    was applied: `transform` and `run` take the first valid one unless --define picks."""
    if point:
        shown = ", ".join(f"{k}={v!r}" if isinstance(v, str) else f"{k}={v}" for k, v in point.items())
        e.hint = (e.hint + "; " if e.hint else "") + f"this is the annotation's point {shown}: " \
            "--define NAME=VALUE picks other values"


def in_script_form(e: LooptxError, rec: Recipe) -> None:
    """A CHiLL script's step gets the remedy in the script's dialect, not the YAML recipe's."""
    st = next((s for s in rec.steps if s.index == e.step), None)
    if st is not None and e.hint and re.match(r"\s*\w+\s*\(", st.text or ""):
        e.hint = re.sub(r"distribute \{stmts: \[([\d, ]+)\], loop: (\w+)\}",
                        lambda m: f'distribute([{m.group(1)}],"{m.group(2)}")', e.hint)


def applied_steps(rec: Recipe, v: Variant) -> list:
    """The steps of `rec` that `v`'s history holds: not an optional one left out (Orio's
    scalarreplace where the array varies with the loop), and the privatize steps a CHiLL
    script's command got before it (recipe/chill_private), so the header can be given again."""
    out, h = [], 0
    for st in rec.steps:
        text = st.describe()
        k = next((k for k in range(h, len(v.history)) if v.history[k] == text), None)
        if k is not None:
            out += [_added_step(t, st) for t in v.history[h:k] if t.startswith("privatize: ")]
        if k is not None or not st.optional:
            out.append(st)
            h = k + 1 if k is not None else h
    return out


def _added_step(text: str, before: Step) -> Step:
    """The step of a history line (Step.describe), placed with `before`."""
    import yaml
    (name, args), = yaml.safe_load(text).items()
    return Step(name, tuple(args.items()), before.index, before.file, before.line)


def variants_for(program: Program, recipe: Recipe | None, *, unsafe=False,
                 show_steps: TextIO | None = None, bindings: Mapping[str, Any] | None = None,
                 prints: TextIO | None = None):
    """One Variant per region, and the recipes applied (for the header).  `prints`: where a
    CHiLL script's print_code() shows the loop tree (--show-steps shows it after every step)."""
    per_region = split_by_region(recipe, program) if recipe is not None else {}
    variants, applied = {}, []
    prints = None if show_steps is not None else prints
    stepped = recipe is not None and any(r.steps for r in per_region.values())
    for i, (r, scop) in enumerate(zip(program.regions, program.scops)):
        point = None if recipe is not None or bindings is not None else default_bindings(program, i)
        rec = per_region.get(i) if recipe is not None else \
            annotation_recipe(program, i, bindings if bindings is not None else point)
        # a leading print_code() shows the nests the script transforms (all, where it transforms none)
        if prints is not None and rec is not None and rec.shown_first and (rec.steps or not stepped):
            for _ in range(rec.shown_first):
                _show_tree(prints, f"region {i}, as written", as_written(scop, checked=False))
        if rec is None or not rec.steps:
            if recipe is not None:
                _say_own_commands_replaced(program, i)
            variants[i] = as_written(scop, checked=not unsafe)
            continue
        trace = None
        if show_steps is not None or prints is not None:
            def show(st, v, i=i):
                for _ in range(1 if show_steps is not None else st.shown):
                    _show_tree(show_steps or prints, f"region {i}, after step {st.index} ({st.describe()})", v)
            trace = show
        try:
            variants[i] = apply_checked(scop, rec, unsafe=unsafe, trace=trace)
        except LooptxError as e:
            in_file_numbers(e, recipe_bases(recipe, program)[i] if recipe is not None else program.bases[i], rec.steps)
            in_script_form(e, rec)
            # (without a PerfTuning block the point is the user's own --define values)
            at_point(e, point if r.tuning is not None else None)
            raise
        # a recipe is shown with the file's numbers, so that it can be given again
        base = program.bases[i]
        shown = replace(rec, steps=tuple(renumbered(st, -base) if base and step_stmts(st) is not None
                                         else st for st in applied_steps(rec, variants[i])))
        applied.append(shown.describe() if len(program.regions) == 1 else f"region {i}:\n{shown.describe()}")
    return variants, "\n".join(applied) or None


def apply_checked(scop, rec: Recipe, *, unsafe=False, trace=None) -> Variant:
    """apply_recipe, and the checks that only the code written can make."""
    stepped: list[tuple[Step, Variant]] = []

    def each(st, v):
        stepped.append((st, v))
        if trace is not None:
            trace(st, v)
    v = apply_recipe(scop, rec, unsafe=unsafe, trace=each)
    _collapse_checked(stepped)
    return v


def _collapse_checked(stepped: list[tuple[Step, Variant]]) -> None:
    """A `collapse(n)` takes n loops perfectly nested in the code written, which only the code
    shows: refused at the step after which it no longer does (probe 222 G1: the error named
    the C file's region, not the pragma or the unroll that broke the nest)."""
    from looptx.poly.parallel import collapsed
    from looptx.poly.variant import LoopDim

    def collapses(v: Variant) -> bool:
        return any(collapsed(t) > 1 for q in v.pieces for d in q.dims if isinstance(d, LoopDim) for t in d.pragmas)

    def refusal(v: Variant) -> RecipeError | None:
        try:
            c_block(v)
        except RecipeError as e:
            if e.step is None and "collapses" in e.what:
                return e
        return None
    if not stepped or not collapses(stepped[-1][1]) or refusal(stepped[-1][1]) is None:
        return
    for st, v in stepped:
        e = refusal(v) if collapses(v) else None
        if e is not None:
            if st.file is not None:
                e.file, e.line, e.col = st.file, st.line, None
            raise e.located(step=st.index, step_name=st.shown_name)


def _show_tree(out: TextIO, title: str, v) -> None:
    out.write(f"{title}:\n")
    out.write("\n".join("  " + ln for ln in tree_lines(v, build_ast(v))) + "\n")


def _say_own_commands_replaced(program: Program, index: int) -> None:
    """A region's own CHiLL commands or Orio transforms, which a command-line recipe replaces
    (the contract) although it gives that region no step: the region comes back as written."""
    r = program.regions[index]
    if r.chill is None or not r.chill.body.strip():
        return
    if is_orio_loop(r.chill.module, r.chill.body) and not re.search(r"\btransform\s+\w+\s*\(", r.chill.body):
        return
    line, _ = program.source.pos(r.chill.body_start)
    note_once(program.filename, line, f"region {index}'s own {'transforms' if is_orio_loop(r.chill.module, r.chill.body) else 'commands'} "
              "are not applied: --recipe replaces every region's, and gives this region no step (add its "
              "steps to the recipe, or transform without --recipe)")


def _tuning_spec(path: str):
    """The file's first PerfTuning spec, None without one."""
    from looptx.frontend.annotations import parse_tuning_spec
    from looptx.frontend.regions import scan
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return None                          # load() reports the missing file
    markup = scan(text, path)
    if not markup.tuning:
        return None
    ann = markup.tuning[0]
    line, col = markup.src.pos(ann.body_start)
    return parse_tuning_spec(ann.body, file=path, line=line, col=col,
                             base_dir=os.path.dirname(os.path.abspath(path)))


def tuning_spec(path: str):
    """The file's first PerfTuning spec, None without one."""
    return _tuning_spec(path)


def build_command_of(path: str) -> str | None:
    """The build command of the file's PerfTuning block, None without one."""
    spec = _tuning_spec(path)
    return spec.compile_command() if spec is not None else None


def performance_params(path: str, strict: bool = False) -> frozenset[str]:
    """The names of the file's performance params; none when its spec does not read (the
    command that reads it for real says why; `strict`: its error is raised here)."""
    try:
        spec = _tuning_spec(path)
    except LooptxError:
        if strict:
            raise
        return frozenset()
    return frozenset(p.name for p in spec.performance_params) if spec else frozenset()


def _later_blocks_declare_nothing(path: str) -> None:
    """A second PerfTuning block's sizes and data are not the first's: they were ignored, and its
    region refused with 'undeclared identifier' for names the block declares (probe 229 G2)."""
    from looptx.frontend.annotations import parse_tuning_spec
    from looptx.frontend.regions import scan
    with open(path, encoding="utf-8", errors="replace") as f:
        markup = scan(f.read(), path)
    for ann in markup.tuning[1:]:
        line, col = markup.src.pos(ann.body_start)
        spec = parse_tuning_spec(ann.body, file=path, line=line, col=col,
                                 base_dir=os.path.dirname(os.path.abspath(path)))
        if spec.input_vars or spec.input_params or spec.decl_file:
            line, col = markup.src.pos(ann.begin[0])
            raise AnnotationError("this file holds several PerfTuning blocks, and this one declares its own "
                                  "input_params or input_vars: looptx reads a file's first block only",
                                  hint="put each PerfTuning block in its own file", file=path, line=line, col=col)


def fragment_inputs(path: str, defines: Mapping[str, int] | None):
    """(extra declarations, defines) for parsing an Orio fragment, which declares its arrays in
    `def input_vars` and its sizes in `def input_params`: the first problem size, unless
    --define gives it.  A complete C file (no input_vars) gets (None, defines) unchanged."""
    defines = dict(defines or {})
    spec = _tuning_spec(path)
    if spec is None:
        return None, defines
    _later_blocks_declare_nothing(path)
    if not (spec.input_vars or spec.decl_file):
        return None, defines
    from looptx.search.command import input_decls
    # a -D of an input param holds for the sizes derived from it (`decl int nr = M;`) too
    given = {k: v for k, v in defines.items() if k in {p.name for p in spec.input_params}}
    sizes = spec.allowed_sizes(given)
    return input_decls(spec, path), {**(sizes[0] if sizes else {}), **defines}


def script_function(path: str, recipe, function: str | None) -> str | None:
    """The function to work on: --function, else the one a CHiLL script names
    (procedure("f"), read_IR("file.c","f"), init("file.c","f",0)): its marked regions, or
    its body when it marks none, so that a CHiLL or CUDA-CHiLL script runs as it is."""
    if not recipe:
        return function
    if isinstance(recipe, str):
        try:
            recipe = load_file(find_recipe(recipe, os.path.dirname(os.path.abspath(path))))
        except LooptxError:
            return function    # reported where the recipe is loaded for real
    if getattr(recipe, "source", None) and os.path.basename(recipe.source[0]) != os.path.basename(path):
        # CHiLL reads the script's own file; looptx works on the one it is given
        named, line = recipe.source
        exists = os.path.exists(os.path.join(os.path.dirname(os.path.abspath(recipe.file or path)), named))
        note_once(recipe.file, line, f"the script names '{named}'{'' if exists else ' (no such file)'}; "
                                     f"looptx transforms {os.path.basename(path)}, the file it was given",
                  per_line=True)
    name = recipe.procedure
    if function and name and name != function:
        # A CHiLL user reads the script's procedure() as the function its statement numbers
        # and loop levels describe; applied to another function they would mean other loops.
        raise RecipeError(f"the script's procedure '{name}' is not --function {function}",
                          hint="drop --function to transform " + name + ", or name " + function +
                               " in the script", **_procedure_line(recipe, name))
    if function:
        return function
    if name:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            return name        # load() reports the missing file
        if not re.search(rf"\b{re.escape(name)}\s*\(", text):
            raise RecipeError(f"the script's procedure '{name}' is not a function of {os.path.basename(path)}",
                              hint="name a function the file defines", **_procedure_line(recipe, name))
    return name


def _procedure_line(recipe, name: str) -> dict:
    """Where the script names its procedure: blamed there, not at line 1 of the C file."""
    at = re.search(rf"""(procedure|read_IR|init)\s*\((?:[^)]*,)?\s*["']{re.escape(name)}["']""",
                   recipe.text or "")
    line = (recipe.text.count("\n", 0, at.start()) + 1) if at else None
    return dict(file=recipe.file, line=line, col=1 if line else None)


def _kept_pragmas(program, kept_regions) -> None:
    """The regions written as they are keep their pragmas: the note that says otherwise goes."""
    from looptx.errors import withdraw_notes
    spans = [(program.source.pos(r.start)[0], program.source.pos(max(r.end - 1, r.start))[0]) for r in kept_regions]
    if not spans:
        return
    pattern = re.compile(rf"{re.escape(program.filename)}:(\d+)(?::\d+)?: note: '#pragma .* inside the region is dropped")

    def keep(line: str) -> bool:
        m = pattern.match(line)
        return not (m and any(a <= int(m.group(1)) <= b for a, b in spans))
    withdraw_notes(keep)


def transform_file(path: str, recipe=None, *, defines=None, function=None, unsafe=False,
                   target="c", show_steps: TextIO | None = None, bindings=None, standalone=False,
                   warn: TextIO | None = None, prints: TextIO | None = None) -> str | tuple[str, ...]:
    """The file with the recipe applied, for `target`; for a tuple of targets, the texts in
    that order, of one reading of the file and one application of the recipe where the targets
    read the file alike (without --define)."""
    given = set(defines or {})
    cli_defines = dict(defines or {})
    decls, defines = fragment_inputs(path, defines)
    if isinstance(recipe, str):
        recipe = load_file(find_recipe(recipe, os.path.dirname(os.path.abspath(path))), bindings, cli_defines)
    fn = script_function(path, recipe, function)
    done: dict = {}
    texts = []
    for t in ((target,) if isinstance(target, str) else tuple(target)):
        # The first problem size stands in for a fragment's undeclared sizes; a size the file
        # declares itself (a function's `int n`) stays symbolic, or the output would be right
        # for that size only.  A .cu's host function takes no argument for a fixed size, so
        # only C output checks one; a fixed #define is checked by both (`#if N != 64 #error`).
        key = t == "c" if defines else None
        if key not in done:
            program = parse_file(path, defines=defines, function=fn, extra_decls=decls,
                                 soft=frozenset(defines) - given, pin=t == "c", for_file=t == "c",
                                 pin_macros=t == "cuda")
            _no_counter_defined(program, {k: v for k, v in defines.items() if k in given})
            if t not in ("c", "cuda"):
                raise RecipeError(f"target '{t}' is not available", hint="use --target c or --target cuda")
            done[key] = (program, *variants_for(program, recipe, unsafe=unsafe, show_steps=show_steps,
                                                bindings=bindings, prints=prints))
        program, variants, applied = done[key]
        if t == "cuda":
            texts.append(to_user(cuda_file(program, variants, header(path, applied, unsafe),
                                           standalone=standalone, warn=warn)))
        else:
            # a region no step touched keeps the user's text (HPCCG's `#ifdef USING_OMP` pragma
            # group, its spelling), when the recipe transforms another region
            touched = {i for i, v in variants.items() if v.history or v.extra}
            blocks = {i: c_block(v, spelled=True) for i, v in variants.items() if i in touched or not touched}
            _kept_pragmas(program, [r for r in program.regions if r.index not in blocks])
            texts.append(to_user(render_file(program, blocks, header(path, applied, unsafe))))
    return texts[0] if isinstance(target, str) else tuple(texts)
