"""Checks of a parsed PerfTuning block: the args looptx itself reads have the right types, and
every name a constraint, a decl or the build command uses is declared."""
from __future__ import annotations

from typing import Any

from looptx.errors import AnnotationError
from looptx.frontend.expr import Expr
from looptx.frontend.tuning import unknown_build_params


def check_arg(p, section: str, name: str, v: Any, off: int) -> None:
    """Type checks of the args looptx itself interprets (others are passed through)."""
    def need(ok: bool, what: str, hint: str):
        if not ok:
            raise p.error(off, f"arg {name} {what}, got {v!r}"[:200], hint)
    integer = isinstance(v, int) and not isinstance(v, bool)
    number = (integer or isinstance(v, float))
    if section == "search":
        if name == "algorithm":
            need(isinstance(v, str) and v != "", "must be a searcher name", "e.g. 'Randomsearch'")
        elif name == "total_runs":
            need(integer and v >= 1, "must be a positive integer", "e.g. arg total_runs = 20;")
        elif name == "time_limit":
            need(number and v > 0, "must be a positive number of seconds",
                 "looptx's time_limit is seconds, not Orio's minutes")
        elif name == "seed":
            need(integer and v >= 0, "must be a non-negative integer", "e.g. arg seed = 1;")
        elif name in ("batch_size", "workers"):
            need(integer and v >= 1, "must be a positive integer", f"e.g. arg {name} = 4;")
        elif name == "resume":
            need(isinstance(v, bool), "must be True or False", "e.g. arg resume = True;")
    elif section == "performance_counter" and name == "repetitions":
        need(integer and 1 <= v <= 10 ** 6, "must be a positive integer of at most 1000000 (timed runs)",
             "e.g. arg repetitions = 5;")
    elif section == "performance_counter" and name == "timeout":
        need(number and v > 0, "must be a positive number of seconds", "e.g. arg timeout = 30;")
    elif section == "validation" and name == "rtol":
        need(number and 0 < v < 1, "must be a relative tolerance in (0, 1)", "e.g. arg rtol = 1e-6;")
    elif section == "build" and name == "libs":
        need(isinstance(v, str), "must be a string of linker flags", "e.g. arg libs = '-lm';")
    elif section == "build" and name == "build_command":
        need(isinstance(v, str) and v.strip() != "", "must be a command string", "e.g. 'gcc -O3'")
    elif section == "input_vars" and name in ("decl_file", "init_file"):
        need(isinstance(v, str) and v != "", "must be a file name", "e.g. 'init.c'")


def check_names(spec_b) -> None:
    perf = {p.name for p in spec_b.perf}
    inputs = {p.name for p in spec_b.inputs}
    lets = set(spec_b.lets)

    def check(expr: Expr, owner: str, known: set, hint: str):
        for name in expr.names_in_order():
            if name not in known:
                line, col = expr.location_of(name)
                raise AnnotationError(f"{owner} uses unknown name '{name}'", hint=hint,
                                      file=expr.file, line=line, col=col)

    for c in spec_b.constraints:
        check(c.expr, f"constraint '{c.name}'", perf | inputs | lets, "declare it with param or let")
    for c in spec_b.input_constraints:
        check(c.expr, f"constraint '{c.name}'", inputs | lets,
              "input constraints may use input params and lets only")
    scalars: set[str] = set()          # `decl int M = NCONT;`: a size of the decls after it
    for d in spec_b.decls:
        for e in d.dims:
            check(e, f"decl '{d.name}'", inputs | lets | perf | scalars,
                  "declare it in def input_params, with let, or as a decl int before this one")
        if isinstance(d.init, Expr):
            check(d.init, f"decl '{d.name}'", inputs | lets | perf | scalars,
                  "an initializer is random, 0 or an expression of params and lets")
            if not d.dims:
                scalars.add(d.name)
    cmd = spec_b.args.get("build", {}).get("build_command")
    if isinstance(cmd, str) and spec_b.build_at:
        bad = unknown_build_params(cmd, perf | inputs)
        if bad:
            f, line, col = spec_b.build_at
            raise AnnotationError(f"build_command uses @{bad[0]}@ but there is no param '{bad[0]}'",
                                  hint="declare it in def performance_params",
                                  file=f, line=line, col=col)
