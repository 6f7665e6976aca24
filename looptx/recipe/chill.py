"""The CHiLL / CUDA-CHiLL / Orio / TCR command dialect -> the same typed steps as YAML.

Commands, e.g. `tile(0,"i",TI,"ii")`, `permute(0,("j","i","k"))`,
`cuda(0,block={BX,BY},thread={TX,TY})`, `registers(0,"k")`, `unroll(0,"k",UF)`,
`distribute(1)`, `tile_by_index(["i","j"],[32,32],{'l1_control':"ii"},["ii","i","j"])`,
`recipe("r.yaml")`, one or several per line (blanks, `;` or `,` between them); a command
may go on over several lines while its parentheses are open.  Arguments are parsed with Python's `ast` and evaluated by the safe
evaluator with the performance params in scope; set literals keep their written order.
"""
from __future__ import annotations

import ast
import difflib
import os
import re
from dataclasses import dataclass, replace
from typing import Any, Mapping

from looptx.errors import LooptxError, RecipeError, note_once
from looptx.recipe import chill_args, chill_lists
from looptx.recipe import chill_checks as checks
from looptx.recipe.chill_names import aliased, rename_index, rename_loops
from looptx.recipe.chill_lua import (ASSIGN_MANY, assign_many, integer_division, lua_semantics, lua_value,
                                     python2_division)
from looptx.recipe.chill_text import blank_long, classic_header, commands, lua_tables
from looptx.recipe.schema import Recipe, Step, load_file, make_step

IGNORED = {"stm", "print_dep", "print_space", "print_ri", "print_idx", "print_structure", "original",
           "source", "loop", "destination", "format", "effort", "num_statements",
           "dofile", "execfile", "cur_indices"}
# calls that only inspect the code (CHiLL's and cudaize.lua's/.py's query helpers): a script
# stores their results for debug output, which looptx skips, so `cur = cur_indices(0)` is too
INSPECT = {"cur_indices", "num_statement", "num_statements", "list_to_string", "print_array",
           "table_contains_key", "valid_indices", "find_cur_level", "chk_cur_level", "block_indices",
           "thread_indices", "block_dims", "thread_dims", "hard_loop_bounds", "does_exists"}
IGNORED |= INSPECT
# Lua's literals, which Python CHiLL writes True, False, None
LUA_LITERALS = {"true": True, "false": False, "nil": None}
# CHiLL's and CUDA-CHiLL's predefined names: tiling methods and memory spaces
CHILL_CONSTANTS = {"strided": 0, "counted": 1, "global": 0, "shared": 1, "textured": 2, "sync": 1}
ALL = "all"


@dataclass(frozen=True)
class _Inspected:
    """The value of a script variable set from an inspection call (INSPECT)."""
    call: str


class _Line:
    def __init__(self, text: str, file: str, line: int, bindings: Mapping[str, Any], col: int | None = None,
                 spots=None, origin: tuple[int, int] = (1, 1), lua: bool = False, classic: bool = False):
        self.text, self.file, self.line, self.col, self.bindings = text, file, line, col, bindings
        self.lua = lua                    # a Lua script: tables count from 1, some commands differ
        self.classic = classic            # CHiLL's `.script` language: integer arithmetic
        # spots: (line index, column index) of each character of `text` from its file's text,
        # which starts at `origin` (line, column) of the file
        self.spots, self.origin = spots or [], origin

    def error(self, what: str, hint: str | None = None, index: int | None = None, name: str | None = None,
              at: int | None = None):
        """`at`: the offset in the command's text of what is wrong, when known."""
        line, col = self.line, self.col
        if at is not None and at < len(self.spots):
            k, c = self.spots[at]
            line, col = self.origin[0] + k, (self.origin[1] if k == 0 else 1) + c
        return RecipeError(what, hint=hint, file=self.file, line=line, col=col, step=index,
                           step_name=name)

    def value(self, node):
        if self.lua and any(isinstance(n, ast.Subscript) for n in ast.walk(node)):
            node = chill_args.lua_indexed(self, node)
        if self.lua:
            return lua_value(self._value(lua_semantics(node, self.bindings, self._value)))
        if self.classic and any(isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Div, ast.Mod)) for n in ast.walk(node)):
            node = integer_division(node)
        elif self.file.endswith(".py") and any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Div)
                                               for n in ast.walk(node)):
            node = python2_division(node, self.value)
        return self._value(node)

    def _value(self, node):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id in self.bindings:
                self._computed(node)
                return self.bindings[node.id]
            if node.id in LUA_LITERALS:
                return LUA_LITERALS[node.id]
            if node.id in CHILL_CONSTANTS:
                return CHILL_CONSTANTS[node.id]
            near = self._near_name(node.id)
            raise self.error(f"unknown parameter '{node.id}'",
                             hint=f"did you mean '{near}'? (a loop name is written in quotes)" if near else
                             f"assign it earlier in the script ({node.id} = VALUE), give it with -D "
                             f"{node.id}=VALUE, define it as a performance param, or quote loop names")
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return [self.value(e) for e in node.elts]
        if isinstance(node, ast.Dict):
            return {self.value(k): self.value(v) for k, v in zip(node.keys, node.values)}
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
                and isinstance(node.operand.value, (int, float)):
            return -node.operand.value
        from looptx.frontend.expr import compile_expr
        self._computed(node)
        env = {**LUA_LITERALS, **CHILL_CONSTANTS, **self.bindings}
        try:
            return compile_expr(ast.unparse(node), file=self.file, line=self.line)(env)
        except LooptxError as e:
            what = e.what if e.what.startswith("cannot evaluate") else f"cannot evaluate '{ast.unparse(node)}': {e.what}"
            hint = e.hint
            if hint == "define it with param or let":
                # param and let are the annotation's words; a script assigns its own names
                name = re.search(r"unknown name '(\w+)'", e.what)
                name = name.group(1) if name else "NAME"
                near = self._near_name(name)
                hint = f"did you mean '{near}'?" if near else \
                    (f"assign it earlier in the script ({name} = VALUE), give it with -D {name}=VALUE, or "
                     "define it as a performance param")
            raise self.error(what, hint=hint) from None

    def _near_name(self, name: str) -> str | None:
        """The performance param or script variable a typo most likely meant (`U` for `Uu`)."""
        import difflib
        names = [n for n in self.bindings if isinstance(n, str) and not n.startswith("_")]
        same_case = [n for n in names if n.lower() == name.lower()]
        if same_case:
            return same_case[0]
        near = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
        if near:
            return near[0]
        # a one-letter name and the param it starts (`U` for `Uu`, `T` for `TI`) when only one does
        starts = [n for n in names if n.lower().startswith(name.lower())]
        return starts[0] if len(starts) == 1 else None

    def _computed(self, node) -> None:
        """A variable set from an inspection call has no value here: say so where it is used."""
        for n in ast.walk(node):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in INSPECT:
                raise self.error(f"{n.func.id}() inspects the script's loops as CHiLL runs it, which looptx does "
                                 "not compute", hint="write the value itself: a loop name, a level or a number")
            held = self.bindings.get(n.id) if isinstance(n, ast.Name) else None
            if isinstance(held, _Inspected):
                raise self.error(f"'{n.id}' holds the result of {held.call}(), which looptx does not compute",
                                 hint="write the value itself: a loop name, a level or a number")


def parse_chill(text: str, *, file: str = "<chill>", line: int = 1, col: int = 1,
                bindings: Mapping[str, Any] | None = None, base_dir: str | None = None,
                n_statements: int | None = None, fixed: frozenset = frozenset()) -> Recipe:
    """`line` and `col` are where the text starts in the file (annotation bodies start mid-line).
    `fixed`: variables the command line sets, whose assignments in the script are passed over."""
    bindings = dict(bindings or {})
    # a script's own variables (CUDA-CHiLL scripts set N=1024, TI=32 before using them)
    env = dict(bindings)
    aliases: dict[str, str] = {}      # loop names CUDA-CHiLL gives by renaming -> model names
    created: set[str] = set()         # loop names the script made (tile controls, l<k>_tile)
    procedure = None
    procedure_line = 0
    modules = {"chill"}               # `import chill` (E4S's scripts): chill.NAME(...) is NAME(...)
    source = None
    nest = 0                          # loop(N): the nest the statement numbers count within
    span = 1                          # loop(N, M): the nests N..M
    chosen: list[tuple[int, int]] = []  # (N, line) of each loop(N) / init(..., N)
    steps: list[Step] = []
    shown_first = 0                   # print_code() before any step
    # CHiLL's own Lua scripts (source, procedure, loop) have CHiLL's tile(stmt, level, size);
    # CUDA-CHiLL's (init) the move tile(stmt, level, outer)
    plain_lua = False
    is_classic = chill_args.classic(file, text)
    text = classic_header(text)
    quiet, problem = blank_long(text, lua=file.endswith(".lua"))
    if problem:
        at, what, hint = problem
        k = text.count("\n", 0, at)
        raise RecipeError(what, hint=hint, file=file, line=line + k,
                          col=(col if k == 0 else 1) + at - (text.rfind("\n", 0, at) + 1))
    # a classic script's `false` is a bare word of its own language, no sign of Lua
    lang = None if is_classic else checks.dialect(quiet, file)
    listed = list(commands(quiet, lua=file.endswith(".lua")))
    for at, (k, c, cmd, spots) in enumerate(listed):
        ln = _Line(cmd, file, line + k, env, col=(col if k == 0 else 1) + c, spots=spots, origin=(line, col),
                   lua=lang == "lua", classic=is_classic)
        if checks.EXIT.match(cmd):
            checks.exit_note(ln, listed[at + 1:], line, bool(steps))
            break
        if is_classic and re.fullmatch(r"\s*print(\s+code)?\s*", cmd):
            cmd = "print_code()"            # CHiLL's script language: `print`, `print code`
        if _SCRIPT_IMPORT.match(cmd) or _PRINT.match(cmd):
            modules |= {m.group(2) or m.group(1) for m in _MODULE.finditer(cmd)}
            continue
        comma = checks.trailing_call_comma(cmd) if lang != "python" else None
        if comma:
            raise ln.error(f"a comma ends the argument list of {comma[1]}(...), which Lua does not "
                           "allow", hint="remove the comma, or write the argument that is missing after it",
                           at=comma[0])
        flow = chill_args.control_flow(ln, cmd)
        if flow:
            raise flow
        written, cmd = cmd, lua_tables(cmd, lua=lang == "lua")
        many = ASSIGN_MANY.match(cmd)
        if many:
            assign_many(ln, many, env, fixed)
            continue
        assign = _ASSIGN.match(cmd)
        if assign and assign.group(1) in fixed:
            continue
        if assign:
            call = _inspection(assign.group(2), env)
            env[assign.group(1)] = _Inspected(call) if call else _assigned(ln, assign.group(2))
            continue
        try:
            tree = ast.parse(cmd, mode="eval").body
        except SyntaxError:
            if re.match(r"\s*transform\s", cmd):
                raise ln.error(f"Orio Loop-module directive '{cmd[:60]}' in a CHiLL region",
                               hint="put it with its loop nest in /*@ begin Loop ( ... ) @*/, or write "
                                    "CHiLL commands here, e.g. unroll(0,\"i\",UF)") from None
            # the command as written (not as its Lua tables were rewritten to be read)
            open_parens = written.count("(") - written.count(")")
            shown = written if len(written) <= 120 else written[:100] + " ..."
            raise ln.error(f"syntax error in command '{shown}'",
                           hint=f"{'a closing parenthesis is missing; ' if open_parens > 0 else ''}"
                                "write commands as NAME(arguments), e.g. tile(0,\"i\",32,\"ii\")") from None
        except (RecursionError, MemoryError):
            raise ln.error(f"command '{cmd[:40]}...' is nested too deeply to parse",
                           hint="write its arguments without deep nesting") from None
        if isinstance(tree, ast.Constant) and isinstance(tree.value, str):
            continue                  # a Python string statement: a comment
        if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Attribute) \
                and isinstance(tree.func.value, ast.Name) and tree.func.value.id in modules:
            # `import chill` then `chill.tile(...)`: the commands of `from chill import *`
            tree.func = ast.Name(id=tree.func.attr, ctx=ast.Load())
        if not isinstance(tree, ast.Call) or not isinstance(tree.func, ast.Name):
            raise ln.error(f"'{cmd}' is not a command", hint="write NAME(arguments)")
        name = tree.func.id
        tree = chill_args.as_written(name, tree, env, LUA_LITERALS, is_classic)
        ln.plain_lua = plain_lua = name in ("source", "procedure") and not procedure or plain_lua and name != "init"
        if name in PROCEDURE:
            named_now = _procedure(ln, name, tree)
            checks.one_procedure(ln, name, named_now, procedure, procedure_line)
            if named_now:
                procedure, procedure_line = named_now, ln.line
            if name == "init" and len(tree.args) > 2:
                nest = _nest(ln, "init", ln.value(tree.args[2]))
                chosen.append((nest, ln.line))
            named = [ln.value(a) for a in tree.args[:1]] if name != "procedure" else []
            if named and isinstance(named[0], str) and not named[0].isidentifier():
                source = (named[0], ln.line)
            continue
        if name == "loop" and tree.args:
            nest = _nest(ln, "loop", ln.value(tree.args[0]))
            chosen.append((nest, ln.line))
            last = ln.value(tree.args[1]) if len(tree.args) > 1 else nest
            # loop(N, M): CHiLL's one loop object over nests N..M, which permute(pi) permutes all of
            span = last - nest + 1 if isinstance(last, int) and not isinstance(last, bool) and last > nest else 1
        if name == "print_code":
            if steps:
                steps[-1] = replace(steps[-1], shown=steps[-1].shown + 1)
            else:
                shown_first += 1
            continue
        if name in ("print_dep", "print_space"):
            note_once(ln.file, ln.line, f"{name}() prints nothing here: `looptx deps FILE` prints the exact "
                                        "dependences of each region as written, `--show-steps` the loops after "
                                        "each step", per_line=True)
            continue
        if name in IGNORED:
            if name == "source":
                checks.arg_count(ln, name, tree.args)
                named = ln.value(tree.args[0])
                if isinstance(named, str) and source is None:
                    source = (named, ln.line)
            if name == "destination":
                # CHiLL writes that file; looptx's command line says where the output goes
                note_once(ln.file, ln.line, "destination(...) is not followed: `looptx transform` writes the "
                                            "output to stdout, or to the file given with -o", per_line=True)
            continue
        if name == "rename_index":
            rename_index(ln, [ln.value(a) for a in tree.args], aliases, created)
            continue
        if name in chill_args.NOTED:
            chill_args.NOTED[name](ln, name, tree.args)       # add_sync, copy_to_texture: a note, no step
            continue
        args = [aliased(chill_args.sizes_table(ln, a) if name in ("cudaize", "cuda") and isinstance(a, ast.Dict)
                         else ln.value(a), aliases) for a in tree.args]
        kw = {a.arg: aliased(ln.value(a.value), aliases) for a in tree.keywords}
        if ln.lua and lua_value(args, truncate=True) != args:
            note_once(ln.file, ln.line, f"{name}: {', '.join(map(repr, args))} taken as "
                      f"{', '.join(map(repr, lua_value(args, truncate=True)))}, as Lua reads a numeric string as a "
                      "number and CUDA-CHiLL's commands truncate a number to an integer", per_line=True)
            args = lua_value(args, truncate=True)
        if name == "recipe":
            if len(args) != 1 or not isinstance(args[0], str):
                raise ln.error("recipe(...) takes the path of a YAML recipe", hint='recipe("r.yaml")')
            path = args[0] if os.path.isabs(args[0]) else os.path.join(base_dir or os.path.dirname(file), args[0])
            if not os.path.isfile(path):
                raise ln.error(f"cannot read the recipe '{args[0]}' ({path}: no such file)",
                               hint="give the path of a YAML recipe, relative to the annotated file")
            sub = load_file(path, bindings)
            steps += [Step(s.name, s.args, len(steps) + i + 1, s.file, s.line, s.text, spelled=s.spelled)
                      for i, s in enumerate(sub.steps)]
            continue
        kernel = next((st["stmt"] for st in reversed(steps) if st.name == "cuda" and st.nest == nest), 0)
        converted = convert(ln, name, args, kw, n_statements, kernel)
        if span > 1:
            converted = [(n, {**a, "nests": span} if n == "permute" and a.get("whole") else a) for n, a in converted]
        # an alias the script writes (`unroll_jam`) is what its errors call the step
        spelled = name if len(converted) == 1 and (ALIASES.get(name) == converted[0][0] or name == "normalize_index") \
            else ""
        for step_name, step_args in converted:
            steps.append(replace(make_step(step_name, step_args, len(steps) + 1, file=file, line=ln.line,
                                           params={}, text=cmd), nest=nest, spelled=spelled,
                                 optional=name == "normalize_index"))
        rename_loops(name, args, converted, aliases, created)
    return Recipe(tuple(steps), (), file, text, tuple(sorted(bindings.items())), procedure, source,
                  nests=tuple(chosen), shown_first=shown_first)


# `from chill import *`, `import ...` (Python CHiLL scripts), Lua `local` declarations aside
_SCRIPT_IMPORT = re.compile(r"\s*(from\s+[\w.]+\s+import\b|import\s+\w)")
# the module names an `import chill` / `import chill as c` line gives
_MODULE = re.compile(r"\bimport\s+(chill)\b(?:\s+as\s+(\w+))?")
_ASSIGN = re.compile(r"\s*(?:local\s+)?([A-Za-z_]\w*)\s*=(?!=)\s*(.+?)\s*;?\s*$", re.S)
# debug output, in either dialect and with any arguments (Lua's `..`, Python 2's `print "x"`)
_PRINT = re.compile(r"\s*print\b(?!\s*=[^=])")
_STRING = re.compile(r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'""")
# commands that name the function to transform: CHiLL's procedure(), read_IR(), Lua init()
PROCEDURE = {"procedure", "read_IR", "init"}


def _inspection(text: str, env: Mapping[str, Any]) -> str | None:
    """The inspection call an assigned value is computed from (directly, or through a variable
    that holds one), if any."""
    bare = _STRING.sub('""', text)
    m = re.search(r"\b(%s)\s*\(" % "|".join(sorted(INSPECT)), bare)
    if m:
        return m.group(1)
    held = [env[w] for w in re.findall(r"[A-Za-z_]\w*", bare) if isinstance(env.get(w), _Inspected)]
    return held[0].call if held else None


def _assigned(ln: _Line, text: str):
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        written = _ASSIGN.match(ln.text)       # (as the script wrote it, its Lua tables too)
        shown = written.group(2) if written else text
        shown = shown if len(shown) <= 120 else shown[:100] + " ..."
        raise ln.error(f"cannot read the value '{shown}'",
                       hint="assign a number, a string or a list, e.g. TI=32, one statement a line "
                            "or `;` between two") from None
    return ln.value(node)


def _procedure(ln: _Line, name: str, tree: ast.Call) -> str | None:
    """The function named by procedure("f"), read_IR("file.c","f") or init("file.c","f",0).
    A lone argument of read_IR/init that is a C name, read_IR("f"), is the function (the
    source file is the one looptx was given); one like "mm.c" is the file."""
    args = [ln.value(a) for a in tree.args]
    lone = len(args) == 1 and isinstance(args[0], str) and args[0].isidentifier()
    pos = 0 if name == "procedure" or lone else 1
    if len(args) > pos and isinstance(args[pos], str):
        return args[pos]
    return None


def _nest(ln: _Line, name: str, nest) -> int:
    """CHiLL's loop(N) / init(file, proc, N) picks the procedure's N-th loop nest, and the
    script's statement numbers then count within it."""
    if not isinstance(nest, int) or isinstance(nest, bool) or nest < 0:
        call = f"loop({nest!r})" if name == "loop" else f"init(..., {nest!r})"
        raise ln.error(f"{call}: a loop nest is a number >= 0", hint="write loop(0) for the first nest")
    return nest


def _slots(ln: _Line, value, what: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, (str, int)):
        value = [value]
    if isinstance(value, dict):
        value = list(value.values())
    out = []
    for v in value:
        if isinstance(v, int) and not isinstance(v, bool):
            v = str(v)
        if not isinstance(v, str):
            raise ln.error(f"{what} entries must be loop names, got {repr(v)[:60]}", hint=f'write {what}={{"ii","jj"}}')
        out.append(v)
    return out


def _bound_int(ln: _Line, name: str) -> str:
    v = ln.bindings.get(name)
    return name if type(v) is not int else str(v) if v >= 0 else f"({v})"


def convert(ln: _Line, name: str, a: list, kw: dict, n_statements: int | None, kernel: int = 0):
    """One dialect command -> [(step name, args)].  `kernel`: the statement of the script's
    last cudaize, which cudaize's copy commands without a statement act on (CUDA-CHiLL's act on
    statement 0, the kernel of a one-statement script)."""
    # the YAML steps' other names (README) are the dialect's too
    name = ALIASES.get(name, name)
    checks.keywords(ln, name, kw)
    checks.arg_count(ln, name, a)
    def need(n: int, form: str):
        chill_args.need_args(ln, a, n, name, form)

    def stmt_of(x):
        return chill_lists.one(ln, name, x)

    def listed(steps_of):
        # CHiLL's statement set: the step for each listed statement (recipe/chill_lists.py)
        return chill_lists.each(chill_lists.statements(ln, name, a[0]), steps_of)

    if name == "permute":
        return chill_args.permute_steps(ln, a, listed)
    if name in ("tile", "tile7", "tile3"):
        return chill_args.tile_steps(ln, name, a)
    if name == "tile_by_index":
        return chill_args.tile_by_index_steps(ln, a)
    if name in ("unroll", "unroll_extra"):
        need(3, 'unroll(0,"k",4)')
        if len(a) > 3:
            # where the cleanup loop of the remainder goes changes no result
            note_once(ln.file, ln.line, f"unroll's cleanup level ({a[3]!r}) is not used: looptx puts the "
                      "remainder's cleanup loop right after the unrolled loop", per_line=True)
        return [("unroll", {"stmt": stmt_of(a[0]), "loop": a[1], "factor": a[2]})]
    if name == "unroll_to_depth":
        need(1, "unroll_to_depth(2)")
        return [("unroll_to_depth", {"depth": a[0]})]
    if name == "registers":
        need(2, 'registers(0,"k")')
        args = {"stmt": a[0], "at": a[1]}
        if len(a) > 2:
            args["array"] = a[2]
        return [("registers", args)]
    if name == "copy_to_registers":
        if len(a) == 3:
            return [("registers", {"stmt": a[0], "at": a[1], "array": a[2]})]
        need(2, 'copy_to_registers("kk","c")')
        return [("registers", {"stmt": kernel, "at": a[0], "array": a[1]})]
    if name == "datacopy":
        return chill_args.datacopy_steps(ln, a, stmt_of)
    if name == "pragma":
        need(3, 'pragma(0,"i","GCC ivdep")')
        return [("pragma", {"stmt": stmt_of(a[0]), "loop": a[1], "text": a[2]})]
    if name == "omp_for":
        need(2, 'omp_for(0,"i")')
        args = {"stmt": stmt_of(a[0]), "loop": a[1]}
        if len(a) > 2 and a[2]:
            args["private"] = a[2] if isinstance(a[2], list) else [a[2]]
        return [("omp_for", args)]
    if name == "copy_to_shared":
        if a and isinstance(a[0], int) and len(a) >= 3 and isinstance(a[2], str):
            if len(a) > 3 or ln.file.endswith(".lua"):
                # cudaize.lua's copy_to_shared(stmt, "tx", "a", -16): CUDA-CHiLL's meaning
                align = a[3] if len(a) > 3 and isinstance(a[3], int) else 0
                return [("shared", {"stmt": a[0], "at": a[1], "array": a[2], "align": align, "around": True})]
            # looptx's own form copy_to_shared(0,"kk","A"): the shared step as it stands
            return [("shared", {"stmt": a[0], "at": a[1], "array": a[2]})]
        need(2, 'copy_to_shared("tx","a",-16)')
        align = a[2] if len(a) > 2 and isinstance(a[2], int) else 0
        return [("shared", {"stmt": kernel, "at": a[0], "array": a[1], "align": align, "around": True})]
    if name == "distribute":
        if len(a) == 1:
            return [("distribute", {"stmts": ALL, "loop": a[0]})]
        need(2, "distribute([0,1],1)")
        stmts = a[0] if isinstance(a[0], list) else [a[0]]
        return [("distribute", {"stmts": stmts, "loop": a[1]})]
    if name == "fuse":
        need(2, "fuse([0,1],1)")
        # CHiLL fuses by level, whatever each statement calls its loop there
        where = {"level": a[1]} if isinstance(a[1], int) and not isinstance(a[1], bool) else {"loop": a[1]}
        return [("fuse", {"stmts": a[0] if isinstance(a[0], list) else [a[0]], **where})]
    if name == "split":
        need(3, 'split(0,"i","N/2")')
        at = a[2]
        if isinstance(at, str):
            # the condition ("L2 < L1", "i >= 5") is read by the split step, which knows the
            # statement's loops by level; a performance param in it has its value here
            at = re.sub(r"\b[A-Za-z_]\w*\b", lambda w: _bound_int(ln, w.group()), at)
        return [("split", {"stmt": stmt_of(a[0]), "loop": a[1], "at": at})]
    if name == "skew":
        need(3, 'skew(0,"j",{"i":1})')
        by = a[2]
        if isinstance(by, list):                          # CHiLL: coefficients of levels 1..level
            return listed(lambda s: chill_args.skew_list(ln, s, a[1], by))
        return listed(lambda s: [("skew", {"stmt": s, "loop": a[1], "by": by, "chill": True})])
    if name == "nonsingular":
        # CHiLL: nonsingular(matrix) on the whole nest; nonsingular(stmt, matrix) names its statement
        need(1, "nonsingular([[1,0],[1,1]])")
        stmt, matrix = (stmt_of(a[0]), a[1]) if len(a) > 1 else (0, a[0])
        return [("nonsingular", {"stmt": stmt, "matrix": matrix})]
    if name == "scale":
        need(3, 'scale(0,"i",2)')
        return listed(lambda s: [("scale", {"stmt": s, "loop": a[1], "by": a[2]})])
    if name == "shift":
        need(3, 'shift(0,"i",1)')
        # CHiLL's shift(2,1,3) is shift([2],1,3): statement 2 against the others of the loop,
        # not the whole loop
        moved = chill_lists.statements(ln, name, a[0])
        return [("shift", {"stmt": moved[0], "loop": a[1], "by": a[2], "stmts": moved, "chill": True})]
    if name == "normalize_index":
        # cudaize's normalize_index([stmt,] index): the loop shifted to start at 0 (a loop whose
        # start varies is left as it is, with a note: apply's optional steps)
        if not 1 <= len(a) <= 2:
            raise ln.error("normalize_index takes (index) or (statement, index)", hint='write normalize_index("i")')
        return [("shift_to", {"stmt": stmt_of(a[0]) if len(a) == 2 else 0, "loop": a[-1], "to": 0})]
    if name == "shift_to":
        need(3, 'shift_to(0,"i",0)')
        return [("shift_to", {"stmt": stmt_of(a[0]), "loop": a[1], "to": a[2]})]
    if name == "peel":
        need(2, 'peel(0,"i",1)')
        k = a[2] if len(a) > 2 else 1
        args = {"stmt": stmt_of(a[0]), "loop": a[1]}
        if len(a) > 3:
            args.update(first=a[2], last=a[3])
        elif k >= 0:
            args["first"] = k
        else:
            args["last"] = -k
        return [("peel", args)]
    if name == "reverse":
        need(2, 'reverse(0,"i")')
        return listed(lambda s: [("reverse", {"stmt": s, "loop": a[1]})])
    if name in ("known", "assume"):
        need(1, 'known("N >= 16")')
        facts = a[0] if isinstance(a[0], list) else [a[0]]
        return [("known", {"facts": [str(f) for f in facts]})]
    if name == "cuda":
        need(1, "cuda(0,block={BX,BY},thread={TX,TY})")
        args = {"stmt": a[0], "block": _slots(ln, kw.get("block"), "block"),
                "thread": _slots(ln, kw.get("thread"), "thread")}
        if "kernel" in kw:
            args["kernel"] = kw["kernel"]
        if kw.get("sizes"):
            args["sizes"] = kw["sizes"]
        return [("cuda", args)]
    if name == "cudaize":
        # CUDA-CHiLL (Python): cudaize(0,"k",{arrays},[block],[thread],[params]); Lua:
        # cudaize(["stmt",] "k", {arrays}, {block={..}, thread={..}}, {params})
        stmt, rest = (a[0], a[1:]) if a and isinstance(a[0], int) else (0, a)
        if len(rest) >= 3 and isinstance(rest[2], dict):
            checks.table_keys(ln, rest[2], ("block", "thread"), "cudaize's mapping table",
                              '{block={"ii","jj"}, thread={"i","j"}}')
            blocks, threads = rest[2].get("block"), rest[2].get("thread")
        elif len(rest) >= 4:
            blocks, threads = rest[2], rest[3]
        else:
            raise ln.error("cudaize needs the kernel name, the array sizes and the block and "
                           "thread loops", hint='cudaize(0,"kernel",{},["ii","jj"],["i","j"])')
        if not isinstance(rest[0], str):
            raise ln.error("cudaize: the kernel name must be a string",
                           hint='cudaize(0,"kernel",{},["ii","jj"],["i","j"])')
        args = {"stmt": stmt, "kernel": rest[0], "block": _slots(ln, blocks, "block"),
                "thread": _slots(ln, threads, "thread")}
        # the array dict gives element counts ({a=N*N}): the host code needs them for arrays
        # declared without extents (pointer parameters); the cuda step checks them
        if rest[1] not in ({}, [], None):
            if not isinstance(rest[1], dict):
                raise ln.error("cudaize: the array sizes must be a dict of element counts",
                               hint="cudaize(0,\"kernel\",{'a': 1024},[\"ii\"],[\"i\"]) or Lua {a=N*N}")
            # Lua numbers are doubles: N*N/2 is 128.0
            args["sizes"] = {k: int(x) if isinstance(x, float) and x.is_integer() else x
                             for k, x in rest[1].items()}
        return [("cuda", args)]
    if name == "combine":
        need(3, 'combine(0,"i","j")')
        return [("combine", {"stmt": a[0], "loops": [a[1], a[2]]})]
    if name in chill_args.PRIVATIZED:
        return chill_args.privatized_copy(ln, name, a)
    if name == "coalesce":
        return chill_args.coalesce(ln, a)
    if name in chill_args.UNSUPPORTED:
        raise chill_args.unsupported(ln, name)
    if name == "privatize":
        # looptx's own command (CHiLL has none): the privatize step, privatize("sum","j") or
        # privatize(0,"sum","j")
        if a and isinstance(a[0], int):
            need(3, 'privatize(0,"sum","j")')
            return [("privatize", {"stmt": a[0], "var": a[1], "at": a[2]})]
        need(2, 'privatize("sum","j")')
        return [("privatize", {"var": a[0], "at": a[1]})]
    known = ("permute tile tile3 tile7 tile_by_index split unroll unroll_extra unroll_to_depth fuse distribute skew "
             "scale nonsingular shift shift_to normalize_index peel reverse registers copy_to_registers datacopy "
             "datacopy_privatized pragma omp_for cuda cudaize copy_to_shared known assume privatize combine coalesce "
             "rename_index recipe").split()
    near = difflib.get_close_matches(name, known + list(ALIASES), n=1)
    raise ln.error(f"unknown or unsupported command '{name}'" + (f" (did you mean '{near[0]}'?)" if near else ""),
                   hint="supported: " + " ".join(known) + " (and " + ", ".join(ALIASES) + ")")


# names the YAML recipes also take (recipe/schema.py), in the dialect's argument order
ALIASES = {"interchange": "permute", "unroll_jam": "unroll", "unroll_and_jam": "unroll",
           "scalar_replace": "registers"}
