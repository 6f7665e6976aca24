"""YAML recipes -> typed, validated steps that remember where they were written.

A recipe is a mapping with optional `params` (defaults) and `steps` (a list of one-key mappings
`STEP: {ARGS}`).  `$NAME` in an argument takes a param (bound from the recipe defaults, then the
caller's bindings, e.g. a search point).
"""
from __future__ import annotations

import difflib
import json
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Mapping

import yaml

from looptx.errors import RecipeError, read_utf8
from looptx.recipe.params import substitute
from looptx.frontend.names import to_model

# argument kinds
STMT, NAME, NAMES, INTS, POSINT, NONNEG, INT, EXPR, DICT_INT, STR, FACTS, SLOTS, ANY, COUNTS, BOOL, MATRIX, REFS, NEWNAME = (
    "statement number", "loop name", "list of loop names", "list of statement numbers",
    "integer >= 1", "integer >= 0", "integer", "affine expression", "mapping loop -> integer",
    "name", "list of facts", "list of loop names", "value", "mapping array -> element count",
    "true or false", "integer matrix", "list of reference numbers", "new loop name")
GROUPS = "list of lists of statement numbers"
# a CHiLL statement list's earlier statements, as offsets from the step's own (recipe/chill_lists.py)
OFFSETS = "list of statement offsets"
LAYOUT = "order of subscripts"

# C and CUDA C++ keywords, and names the generated code declares: no user name may be one
C_WORDS = frozenset("""auto break case char const continue default do double else enum extern
float for goto if inline int long register restrict return short signed sizeof static struct
switch typedef union unsigned void volatile while bool true false class namespace template new
delete this operator private public protected virtual friend dim3 main""".split())

# step -> {arg: (kind, required)}
SCHEMA: dict[str, dict[str, tuple[str, bool]]] = {
    # whole: CHiLL's one-argument permute(pi), on every statement of the nest, by levels
    "permute": {"stmt": (STMT, True), "order": (NAMES, True), "whole": (BOOL, False), "nests": (POSINT, False),
                "listed_after": (OFFSETS, False)},
    "tile": {"stmt": (STMT, True), "loop": (NAME, True), "size": (POSINT, True), "control": (NEWNAME, False),
             "outer": (POSINT, False), "name": (NEWNAME, False), "moved": (BOOL, False)},
    "split": {"stmt": (STMT, True), "loop": (NAME, True), "at": (EXPR, True)},
    # orio: Orio's unroll (its Unroll, UnrollJam and unrolljam): loops whose bounds read the
    # unrolled counter are not jammed, and an inner loop unrolled fully before is interleaved
    "unroll": {"stmt": (STMT, True), "loop": (NAME, True), "factor": (NONNEG, True), "orio": (BOOL, False)},
    # one of: `loop` (a name every statement uses; an integer is a level), `level` (CHiLL's
    # fuse(stmts, level)), `loops` (each statement's loop, in the order of stmts)
    "fuse": {"stmts": (INTS, True), "loop": (NAME, False), "level": (POSINT, False), "loops": (NAMES, False)},
    # groups: [[0, 1], [2, 3]]: each group keeps one copy of the loop, and the loops inside it
    "distribute": {"stmts": (INTS, False), "groups": (GROUPS, False), "loop": (NAME, True)},
    # chill: CHiLL's skew and shift, of the schedule's values (a reversed loop counts its index
    # negated: the amount moves its counter the other way)
    "skew": {"stmt": (STMT, True), "loop": (NAME, True), "by": (DICT_INT, True), "listed_after": (OFFSETS, False),
             "chill": (BOOL, False)},
    # stmts: CHiLL's statement list, which must hold every statement of the shifted loop
    "shift": {"stmt": (STMT, True), "loop": (NAME, True), "by": (INT, True), "stmts": (INTS, False),
              "chill": (BOOL, False)},
    "shift_to": {"stmt": (STMT, True), "loop": (NAME, True), "to": (INT, True)},
    "peel": {"stmt": (STMT, True), "loop": (NAME, True), "first": (NONNEG, False), "last": (NONNEG, False)},
    "reverse": {"stmt": (STMT, True), "loop": (NAME, True), "listed_after": (OFFSETS, False)},
    "scale": {"stmt": (STMT, True), "loop": (NAME, True), "by": (INT, True), "listed_after": (OFFSETS, False)},
    # i' = T.i (+ the last column): the outer loops of stmt's nest, every statement inside them
    "nonsingular": {"stmt": (STMT, False), "matrix": (MATRIX, True)},
    "registers": {"stmt": (STMT, True), "array": (STR, False), "at": (NAME, True)},
    # `refs`: CHiLL's reference numbers in the statement (the written one first, then the ones
    # it reads, left to right), all of one array, instead of `array`
    # around: CHiLL's datacopy(stmt, L, ...): the copy is made before loop L, at the loop
    # around it, and covers L
    # private: datacopy_privatized's held loops (with `at` among them, a copy per iteration of it)
    "datacopy": {"stmt": (STMT, True), "array": (STR, False), "refs": (REFS, False),
                 "at": (NAME, True), "around": (BOOL, False), "private": (NAMES, False)},
    "combine": {"stmt": (STMT, True), "loops": (NAMES, True), "name": (NEWNAME, False)},
    # `#pragma text` before the loop; omp_for: `omp parallel for`, checked like a GPU mapping
    "pragma": {"stmt": (STMT, True), "loop": (NAME, True), "text": (STR, True)},
    # reduction: {+: [sum], min: [dt]} (or ['+:sum', 'min:dt']): OpenMP reduction clauses,
    # checked (poly/reductions.py)
    "omp_for": {"stmt": (STMT, True), "loop": (NAME, True), "private": (NAMES, False),
                "reduction": (ANY, False)},
    "known": {"facts": (FACTS, True)},
    # a temporary of the function, declared before the loops, gets one object per iteration of
    # `at` (checked: dead after the region, no value carried between iterations)
    "privatize": {"stmt": (STMT, False), "var": (STR, True), "at": (NAME, True)},
    # sizes: element counts of arrays declared without extents (pointer parameters), for the
    # host code's copies; CUDA-CHiLL's cudaize array dict
    "cuda": {"stmt": (STMT, True), "block": (SLOTS, False), "thread": (SLOTS, False), "kernel": (STR, False),
             "sizes": (COUNTS, False)},
    # around: CUDA-CHiLL's copy_to_shared(L): the copy is made before L, at the loop around it
    # (around the thread loops when L is one); align: its alignment argument (poly/promote.py)
    "shared": {"stmt": (STMT, True), "array": (STR, True), "at": (NAME, True), "pad": (NONNEG, False),
               "around": (BOOL, False), "align": (INT, False), "layout": (LAYOUT, False)},
    "unroll_to_depth": {"stmt": (STMT, False), "depth": (NONNEG, True)},
}
# steps that take exactly one of some optional arguments
ONE_OF = {"fuse": ("loop", "level", "loops"), "distribute": ("stmts", "groups")}
ALIASES = {"assume": "known", "interchange": "permute", "unroll_and_jam": "unroll", "unroll_jam": "unroll",
           "unrolljam": "unroll",
           "copy_to_shared": "shared", "copy_to_registers": "registers", "scalar_replace": "registers",
           "coalesce": "combine"}


@dataclass(frozen=True)
class Step:
    name: str
    args: tuple[tuple[str, Any], ...]
    index: int                      # 1-based position in the recipe
    file: str | None = None
    line: int | None = None
    text: str = ""                  # as written, for the provenance header
    # skipped where it does not apply or is illegal (Orio's scalarreplace: a hint, not a demand)
    optional: bool = False
    # a CHiLL script's loop(N): the step's statement numbers count within the procedure's N-th
    # loop nest (pipeline.nest_numbers makes them the file's); None: a recipe's, the file's
    nest: int | None = None
    # the file's number of statement 0 of that nest, once read as the file's: messages count so
    nest_base: int = field(default=0, compare=False)
    # the name as the recipe writes it where it is an alias (`unroll_jam` for unroll): what
    # errors call the step, so that a search of the recipe for it finds it
    spelled: str = field(default="", compare=False)
    # an unroll from Orio's unrolljam: it also interleaves inner loops unrolled fully before
    jam: bool = False
    # how many print_code() of a CHiLL script follow it: `looptx transform` prints the loop tree here
    shown: int = field(default=0, compare=False)

    @property
    def shown_name(self) -> str:
        return self.spelled or self.name

    def __getitem__(self, key):
        for k, v in self.args:
            if k == key:
                return v
        raise KeyError(key)

    def get(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            return default

    def error(self, what: str, hint: str | None = None) -> RecipeError:
        return RecipeError(what, hint=hint, file=self.file, line=self.line, step=self.index,
                           step_name=self.shown_name)

    def describe(self) -> str:
        return f"{self.name}: {{{', '.join(f'{k}: {_fmt(v)}' for k, v in self.args)}}}"


def _read_as(text: str):
    """What YAML reads a text as (a value `1`, `true` or `x: y, z` written plain is no such string)."""
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return None


def _fmt(v) -> str:
    """YAML flow style, so that a header's recipe reads back (`PERM: [j, i]`, `CF: "x: y"`)."""
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_fmt(x)}" for k, x in v.items()) + "}"
    if isinstance(v, str) and _read_as("{x: " + v + "}") != {"x": v}:
        return json.dumps(v)
    return str(v)


@dataclass(frozen=True)
class Recipe:
    steps: tuple[Step, ...]
    params: tuple[tuple[str, Any], ...] = ()
    file: str | None = None
    text: str = ""
    bindings: tuple[tuple[str, Any], ...] = field(default=())
    procedure: str | None = None      # the function a CHiLL script names (procedure, read_IR, init)
    # the C file a CHiLL script's read_IR / init names, with that command's line
    source: tuple[str, int] | None = None
    # (N, line) of each loop(N) a CHiLL script gives, checked even where no command follows
    nests: tuple[tuple[int, int], ...] = ()
    # the print_code() before the script's first step: the loop tree as written is printed
    shown_first: int = field(default=0, compare=False)

    def describe(self) -> str:
        lines = [s.describe() for s in self.steps]
        if self.bindings:
            lines.insert(0, "params: {" + ", ".join(f"{k}: {_fmt(v)}" for k, v in self.bindings) + "}")
        return "\n".join(lines)


INT_MAX = 2 ** 31 - 1      # the generated loops count with C's int


def _show(value, limit: int = 60) -> str:
    """A value in a message: YAML aliases can make one huge."""
    import reprlib
    short = reprlib.Repr()
    short.maxlevel, short.maxlist, short.maxdict, short.maxstring, short.maxother = 4, 8, 6, limit, limit
    text = short.repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _ints_of(value) -> list:
    if isinstance(value, dict):
        return [x for x in value.values() if _is_int(x)] + [k for k in value if _is_int(k)]
    if isinstance(value, list):
        return [x for x in value if _is_int(x)]
    return [value] if _is_int(value) else []


def check_arg(step: Step, arg: str, kind: str, value, written_float: bool = False):
    """`written_float`: the value is a float literal of a YAML recipe, not a param's value."""
    def bad(expect: str):
        article = "an" if expect[0] in "aeiou" else "a"
        # A whole float comes from a `/` (annotations are Python 3) or from a param list that
        # mixes ints with a float; the step cannot tell which, so the hint names both.  One
        # written in a YAML recipe is only spelled as a float.
        whole = isinstance(value, float) and value.is_integer() and "integer" in expect
        fraction = isinstance(value, float) and not value.is_integer() and not written_float and "integer" in expect
        hint = (f"write {int(value)}: YAML reads {_show(value)} as a float" if whole and written_float else
                "'/' is true division in an annotation (write // for a whole quotient), "
                "and one float among a param's values makes them all floats"
                if whole else "give a whole number; where a param expression made it ('/' is true division in "
                "an annotation: `TI/2` at TI = 1 is 0.5), write // for a whole quotient, or constrain the params "
                "to values that divide"
                if fraction else f"see the '{step.name}' step in the recipe reference")
        return step.error(f"argument '{arg}' must be {article} {expect}, got {_show(value)}", hint=hint)
    if kind == STMT and not (_is_int(value) and value >= 0):
        raise bad("statement number (0, 1, ...)")
    if kind == NAME and not (isinstance(value, str) and value.strip() or _is_int(value) and value >= 1):
        raise bad("loop name")
    if kind in (NAMES, SLOTS):
        if not isinstance(value, list) or not all(isinstance(x, (str, int)) and not isinstance(x, bool)
                                                  for x in value):
            raise bad("list of loop names")
        if not value and arg in ("order", "loops"):
            raise bad("non-empty list of loop names")
    if kind == INTS and value != "all" and not (isinstance(value, list) and value and
                                               all(_is_int(x) and x >= 0 for x in value)):
        raise bad("non-empty list of statement numbers")
    if kind == OFFSETS and not (isinstance(value, list) and value and all(_is_int(x) and x != 0 for x in value)):
        raise bad("non-empty list of non-zero statement offsets (the earlier statements of a CHiLL list)")
    if kind == LAYOUT and not (isinstance(value, list) and value and all(_is_int(x) and x >= 0 for x in value)):
        raise bad("list of the array's subscripts (0, 1, ...), outermost first")
    if kind == GROUPS and not (isinstance(value, list) and value and all(
            isinstance(g, list) and g and all(_is_int(x) and x >= 0 for x in g) for g in value)):
        raise bad("list of groups of statement numbers, e.g. [[0, 1], [2, 3]]")
    if kind == REFS and not (isinstance(value, list) and value and
                             all(_is_int(x) and x >= 0 for x in value)):
        raise bad("non-empty list of reference numbers (0, 1, ...)")
    if kind == POSINT and not (_is_int(value) and value >= 1):
        raise bad("integer >= 1")
    if kind == NONNEG and not (_is_int(value) and value >= 0):
        raise bad("integer >= 0")
    if kind == INT and not _is_int(value):
        raise bad("integer")
    if kind == EXPR and not (isinstance(value, str) or _is_int(value)):
        raise bad("affine expression")
    if kind == DICT_INT and not (isinstance(value, dict) and value and
                                 all((isinstance(k, str) or (_is_int(k) and k >= 1)) and _is_int(x)
                                     for k, x in value.items())):
        # Integer keys are loop levels (1 = outermost), as CHiLL's skew(0,2,[1,1]) gives them.
        raise bad("mapping from loop names (or levels >= 1) to integers, e.g. {i: 1}")
    if kind == MATRIX and not (isinstance(value, list) and value and all(
            isinstance(r, list) and r and all(_is_int(x) for x in r) for r in value)):
        raise bad("matrix of integers, one row per loop, e.g. [[1, 0], [1, 1]]")
    if kind == STR and not isinstance(value, str):
        raise bad("name")
    # a new loop's name is a C variable of the output: `i i` or `ii/*` would be pasted into it
    if kind == NEWNAME and not (isinstance(value, str) and value.isidentifier() and value.isascii()
                                and value not in C_WORDS and not value.startswith(("lx_", "__"))):
        raise bad("C identifier that is not a keyword or a reserved lx_ name, e.g. ii")
    if kind == BOOL and not isinstance(value, bool):
        raise bad("true or false")
    if kind == COUNTS and not (isinstance(value, dict) and all(
            isinstance(k, str) and k.strip() and (_is_int(x) or isinstance(x, str) and x.strip())
            for k, x in value.items())):
        raise bad("mapping from array names to element counts, e.g. {a: 1024, b: N*N}")
    if kind == FACTS and not (isinstance(value, list) and all(isinstance(x, str) for x in value)):
        raise bad("list of conditions such as 'N >= 16'")
    # element counts are size_t in the host code; everything else counts with int
    big = next((x for x in _ints_of(value) if abs(x) > INT_MAX), None) if kind != COUNTS else None
    if big is not None:
        low = 1 if kind == POSINT else 0 if kind == NONNEG else -INT_MAX
        raise step.error(f"argument '{arg}' = {big} does not fit in an int",
                         hint=f"the generated loops count with int: use a value between {low} and {INT_MAX}")


def make_step(name: str, args, index: int, *, file=None, line=None, params=None, text="",
              from_yaml: bool = False) -> Step:
    canon = ALIASES.get(name, name)
    proto = Step(canon, (), index, file, line, text, spelled=name if canon != name and isinstance(name, str) else "")
    if canon not in SCHEMA:
        known = ", ".join(sorted(SCHEMA))
        also = ", ".join(f"{a} ({c})" for a, c in sorted(ALIASES.items()))
        near = difflib.get_close_matches(str(name), list(SCHEMA) + list(ALIASES), n=1)
        guess = f"did you mean '{near[0]}'? " if near else ""
        if name == "collapse":
            guess = ("'combine' makes one loop of two; OpenMP's collapse is a clause: "
                     "pragma: {stmt: 0, loop: i, text: 'omp parallel for collapse(2)'}; ")
        raise proto.error(f"unknown step '{name}'", hint=f"{guess}steps are: {known}; also: {also}")
    if canon == "known":
        if isinstance(args, str):
            args = {"facts": [args]}
        elif isinstance(args, list):
            args = {"facts": args}
        elif isinstance(args, dict) and "facts" not in args:
            # `{n: '>= 16'}` is a fact on n; `{fact: 'm >= 16'}` is a misspelt argument
            whole = [k for k, v in args.items() if isinstance(v, (str, list))
                     and not re.match(r"\s*(<=|>=|==|!=|<|>|%)", str(v))]
            if whole:
                raise proto.error(f"unknown argument '{whole[0]}' for step 'known'",
                                  hint="did you mean 'facts'? write known: {facts: ['m >= 16']}")
            args = {"facts": [k if v is True else f"{k} {v}" for k, v in args.items()]}
    if not isinstance(args, dict):
        raise proto.error(f"the arguments of '{name}' must be a mapping, got {_show(args)}",
                          hint=f"write {name}: {{stmt: 0, ...}}")
    written, args = args, substitute(args, params or {}, proto)
    schema = SCHEMA[canon]
    for key in args:
        if key not in schema:
            near = ["at"] if key == "loop" and "at" in schema else \
                difflib.get_close_matches(str(key), list(schema), n=1)
            guess = f"did you mean '{near[0]}'? " if near else ""
            if canon == "omp_for" and key in ("schedule", "nowait", "ordered", "proc_bind", "num_threads"):
                guess = (f"a '{key}' clause goes through the pragma step: pragma: {{stmt: 0, loop: i, text: "
                         f"'omp parallel for {key}(...)'}}; ")
            raise proto.error(f"unknown argument '{key}' for step '{canon}'",
                              hint=f"{guess}arguments are: {', '.join(schema)}")
    for key, (kind, required) in schema.items():
        if key not in args:
            if required:
                raise proto.error(f"missing argument '{key}' ({kind})", hint=f"add {key}: ...")
            continue
        check_arg(proto, key, kind, args[key], from_yaml and isinstance(written.get(key), float))
    choice = ONE_OF.get(canon, ())
    given = [k for k in choice if k in args]
    if choice and not given:
        raise proto.error(f"missing argument: one of {', '.join(choice[:-1])} or {choice[-1]}",
                          hint="e.g. stmts: [1] (each its own copy) or groups: [[0, 1], [2, 3]]" if canon == "distribute"
                          else "e.g. loop: i (a name all the statements use), level: 1, or loops: [i, j]")
    if len(given) > 1:
        raise proto.error(f"give one of {', '.join(choice[:-1])} and {choice[-1]}, not both "
                          f"{given[0]} and {given[1]}", hint=f"keep {given[0]}: ... or {given[1]}: ...")
    ordered = tuple((k, _model_names(schema[k][0], args[k]) if k != "kernel" else args[k])
                    for k in schema if k in args)
    return Step(canon, ordered, index, file, line, text or f"{canon}: {args}", spelled=proto.spelled,
                jam=canon == "unroll" and args.get("orio") is True)


def _model_names(kind: str, value):
    """Loop, array and size names as the model spells them (isl-reserved ones renamed); names
    inside expressions and facts are renamed where they are parsed (recipe/exprs.py)."""
    if kind in (NAME, STR, NEWNAME):
        return to_model(value)
    if kind in (NAMES, SLOTS):
        return [to_model(x) for x in value]
    if kind == DICT_INT:
        return {to_model(k): x for k, x in value.items()}
    if kind == COUNTS:
        return {to_model(k.strip()): x for k, x in value.items()}
    return value


def _yaml_error(e: yaml.YAMLError, file: str, source: str = "") -> RecipeError:
    if isinstance(e, yaml.reader.ReaderError):
        # raised before any token exists, so it has a position instead of a mark
        pos = e.position if isinstance(e.position, int) and e.position <= len(source) else 0
        line = source.count("\n", 0, pos) + 1
        what = (f"character U+{e.character:04X} is not allowed in YAML" if isinstance(e.character, int)
                else f"YAML syntax error: {e.reason}")
        return RecipeError(what, hint="delete it or write it as an escape inside a quoted string",
                           file=file, line=line, col=pos - source.rfind("\n", 0, pos))
    mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
    problem = getattr(e, "problem", None) or str(e).splitlines()[0]
    hint = "fix the recipe's YAML"
    start = getattr(e, "context_mark", None)
    context = getattr(e, "context", None)
    if start is not None and context and mark is not None and start.line != mark.line:
        # the parser notices an unclosed `{` or `[` on a later line than the one to fix
        hint = f"{context[len('while '):] if context.startswith('while ') else context} that starts at " \
               f"line {start.line + 1}, column {start.column + 1}: is it closed there?"
    return RecipeError(f"YAML syntax error: {problem}", hint=hint,
                       file=file, line=mark.line + 1 if mark else None,
                       col=mark.column + 1 if mark else None)


MAX_NESTING = 64
_OPEN = (yaml.FlowSequenceStartToken, yaml.FlowMappingStartToken, yaml.BlockSequenceStartToken,
         yaml.BlockMappingStartToken)
_CLOSE = (yaml.FlowSequenceEndToken, yaml.FlowMappingEndToken, yaml.BlockEndToken)


def _too_deep(source: str, file: str) -> RecipeError:
    """PyYAML composes recursively: a deep nest exhausts Python's stack.  The scanner does not
    recurse, so it finds where the nesting passes a depth no recipe needs."""
    depth, where = 0, (1, 1)
    try:
        for tok in yaml.scan(source, Loader=yaml.SafeLoader):
            depth += isinstance(tok, _OPEN) - isinstance(tok, _CLOSE)
            if depth > MAX_NESTING:
                where = (tok.start_mark.line + 1, tok.start_mark.column + 1)
                break
    except yaml.YAMLError:
        pass
    return RecipeError(f"the recipe is nested too deeply (more than {MAX_NESTING} levels)",
                       hint="a step is NAME: {ARGS}; write its arguments without deeper nesting",
                       file=file, line=where[0], col=where[1])


def _check_duplicate_keys(root, file: str) -> None:
    """PyYAML keeps the last of two equal keys, so a second `steps:` would drop the first
    list without a word; YAML 1.2 forbids them.  Keys a merge (`<<: *anchor`) brings in may be
    overridden, as the merge means.  Walked without recursion (aliases share nodes)."""
    ctor = yaml.constructor.SafeConstructor()
    stack, seen = [root], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        if not isinstance(node, yaml.MappingNode):
            continue
        first: dict = {}
        for knode, vnode in node.value:
            stack.append(vnode)
            if not isinstance(knode, yaml.ScalarNode) or knode.tag == "tag:yaml.org,2002:merge":
                continue
            try:
                key = (knode.tag, ctor.construct_object(knode))
                hash(key)
            except (yaml.YAMLError, TypeError, ValueError):
                key = (knode.tag, knode.value)
            if key in first:
                mark, was = knode.start_mark, first[key].start_mark
                raise RecipeError(f"duplicate key '{knode.value}' (first at line {was.line + 1})",
                                  hint="YAML would keep only the last one: write each key once"
                                       + (", all the steps under one steps:" if knode.value == "steps" else ""),
                                  file=file, line=mark.line + 1, col=mark.column + 1)
            first[key] = knode


def load_yaml(source: str, *, file: str = "<recipe>", bindings: Mapping[str, Any] | None = None,
              index_base: int = 0) -> Recipe:
    """Parse YAML recipe text; `bindings` override the recipe's own params."""
    try:
        root = yaml.compose(source, Loader=yaml.SafeLoader)
    except yaml.YAMLError as e:
        raise _yaml_error(e, file, source) from None
    except RecursionError:
        raise _too_deep(source, file) from None
    if root is None:
        return Recipe((), (), file, source)
    _check_duplicate_keys(root, file)
    ctor = yaml.constructor.SafeConstructor()

    def value(node):
        try:
            return ctor.construct_object(node, deep=True)
        except yaml.YAMLError as e:
            raise _yaml_error(e, file, source) from None
        except RecursionError:
            raise _too_deep(source, file) from None
    if isinstance(root, yaml.SequenceNode):
        steps_node, params = root, {}
    elif isinstance(root, yaml.MappingNode):
        odd = next((k for k, _ in root.value if not isinstance(k, yaml.ScalarNode)), None)
        if odd is not None:
            raise RecipeError("a recipe section's name is a list or a mapping", hint="a recipe has params: and "
                              "steps:", file=file, line=odd.start_mark.line + 1, col=odd.start_mark.column + 1)
        top = {k.value: (k, v) for k, v in root.value}
        for key, (knode, _) in top.items():
            if key not in ("params", "steps", "name", "description"):
                raise RecipeError(f"unknown recipe section '{key}'",
                                  hint="a recipe has params: and steps:", file=file,
                                  line=knode.start_mark.line + 1, col=knode.start_mark.column + 1)
        params = value(top["params"][1]) if "params" in top else {}
        if not isinstance(params, dict):
            mark = top["params"][1].start_mark
            raise RecipeError("params must be a mapping", hint="write params: {TI: 32}",
                              file=file, line=mark.line + 1, col=mark.column + 1)
        if "steps" not in top:
            raise RecipeError("the recipe has no steps", hint="add steps: [...]", file=file, line=1, col=1)
        steps_node = top["steps"][1]
    else:
        raise RecipeError("a recipe is a mapping with params: and steps:",
                          hint="write steps: followed by lines '- tile: {stmt: 0, loop: i, size: 32}'",
                          file=file, line=root.start_mark.line + 1, col=root.start_mark.column + 1)
    if not isinstance(steps_node, yaml.SequenceNode):
        raise RecipeError("steps must be a list", hint="write each step as '- NAME: {ARGS}'",
                          file=file, line=steps_node.start_mark.line + 1, col=steps_node.start_mark.column + 1)
    merged = dict(params)
    merged.update(bindings or {})
    steps = []
    lines = source.splitlines()
    for i, node in enumerate(steps_node.value):
        line = node.start_mark.line + 1
        item = value(node)
        if not isinstance(item, dict) or len(item) != 1:
            # two step names under one '-' lost a dash; the fixed example would read as theirs
            several = isinstance(item, dict) and len(item) > 1
            raise RecipeError(f"each step is a one-key mapping{', got ' + ', '.join(map(str, item)) if several else ''}",
                              hint="start each step with its own '- ' line" if several else
                              "write '- NAME: {ARGS}', e.g. '- tile: {stmt: 0, loop: i, size: 32}'",
                              file=file, line=line, step=index_base + i + 1)
        (name, args), = item.items()
        text = lines[line - 1].strip().lstrip("- ") if line - 1 < len(lines) else ""
        steps.append(make_step(str(name), args, index_base + i + 1, file=file, line=line, params=merged,
                               text=text, from_yaml=True))
    return Recipe(tuple(steps), tuple(params.items()), file, source, tuple(sorted((bindings or {}).items())))


def find_recipe(name: str, base_dir: str | None = None) -> str:
    """A path, or a name under recipes/ (`cuda/matmul`): the user's own folder of that name first,
    then looptx's (the repository's, or the one a wheel installs under share/looptx)."""
    candidates = [name, name + ".yaml"]
    if base_dir:
        candidates += [os.path.join(base_dir, name), os.path.join(base_dir, name + ".yaml")]
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for root in (os.path.join(os.getcwd(), "recipes"), os.path.join(here, "recipes"),
                 os.path.join(sys.prefix, "share", "looptx", "recipes")):
        candidates += [os.path.join(root, name), os.path.join(root, name + ".yaml")]
    for c in candidates:
        if os.path.isfile(c):
            return c
    # named as given: the C file is not what is missing
    raise RecipeError(f"recipe '{name}' not found", hint="give a path to a .yaml file or a name under recipes/",
                      file=name)


def load_file(path: str, bindings: Mapping[str, Any] | None = None,
              defines: Mapping[str, Any] | None = None) -> Recipe:
    """`defines`: the command's --define values, which set the recipe's own params (a YAML
    recipe's `$TJ`, a CHiLL script's `TI = 32`) as Kernel Tuner's and CHiLL's users expect;
    `bindings` (a tuned point's values) win over both."""
    try:
        text = read_utf8(path, RecipeError, "recipe")
    except OSError as e:
        raise RecipeError(f"cannot read the recipe: {e.strerror}", file=path,
                          hint="check the path and the file's permissions") from None
    # (an editor's byte order mark is no character of the first line: Python and Lua skip it)
    text = text.removeprefix("\ufeff")
    if not any(ln.strip() and not ln.strip().startswith(("#", "--", "//")) for ln in text.splitlines()):
        # a recipe named on the command line is meant to do something: an empty one is an
        # unsaved buffer or the wrong file, not a request to regenerate the regions as written
        raise RecipeError("the recipe has no steps (the file is empty or holds comments only)", file=path,
                          line=1, col=1, hint="add steps: [...], or leave out --recipe to regenerate the "
                                              "regions as they are")
    # a script may open with a docstring or a long comment, which is not a command; a .chill
    # file is a script whatever its first line, so its errors are the dialect's
    if path.endswith((".yaml", ".yml")) or not (path.endswith((".py", ".lua", ".script", ".chill"))
                                                 or _looks_like_chill(text)):
        given = {k: v for k, v in (defines or {}).items() if re.search(rf"\$\{{?{re.escape(k)}\b", text)}
        return load_yaml(text, file=path, bindings={**given, **(bindings or {})} or None)
    from looptx.recipe.chill import parse_chill
    from looptx.recipe.chill_text import script_sets
    given = script_sets(text, defines)
    # (a name the script reads and never sets, `unroll(0,1,UF)`, takes --define's as a `$UF` does)
    read = {k: v for k, v in dict(defines or {}).items() if re.search(rf"\b{re.escape(k)}\b", text)}
    return parse_chill(text, file=path, bindings={**read, **given, **(bindings or {})}, fixed=frozenset(given))


def _looks_like_chill(text: str) -> bool:
    """A CHiLL / CUDA-CHiLL script: its first line (comments, Lua long comments and Python
    docstrings aside) is a command, a variable assignment, or Python CHiLL's `from chill import *`."""
    from looptx.recipe.chill_text import blank_long
    quiet, problem = blank_long(text, lua=False)
    if problem is None:
        text = quiet
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith(("#", "--", "//"))]
    first = lines[0] if lines else ""
    if CHILL_HEADER.match(first):
        # CHiLL's .script files open with `source: mm.c`, `procedure: f`, `loop: 0`, which no
        # YAML recipe has (its sections are params: and steps:), even with nothing after it but
        # inspection lines (`print`)
        return True
    return bool(re.match(r"[A-Za-z_]\w*\s*\(|(?:local\s+)?[A-Za-z_]\w*\s*=[^=]|"
                         r"from\s+chill\s+import|import\s+chill\b", first))


# the header lines of CHiLL's classic scripts
CHILL_HEADER = re.compile(r"(source|procedure|loop|format|dest|destination)\s*:\s*(.*?)\s*;?\s*$")
