"""The flow of ARCHITECTURE.md as plain function calls: file -> Program -> Variants -> text."""
from __future__ import annotations

import os

from looptx import __version__
from looptx.codegen.c import name_loops, region_lines
from looptx.codegen.render import render_file
from looptx.frontend.cparse import Program, parse_file
from looptx.poly.astgen import build_ast
from looptx.poly.variant import Variant, original


def load(path: str, *, defines=None, function=None, extra_decls=None) -> Program:
    return parse_file(path, defines=defines, function=function, extra_decls=extra_decls)


def c_block(variant: Variant) -> list[str]:
    node = name_loops(build_ast(variant), variant)
    return region_lines(variant, node)


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


def transform_file(path: str, recipe=None, *, defines=None, function=None, unsafe=False,
                   target="c", show_steps=None) -> str:
    program = load(path, defines=defines, function=function)
    variants = {r.index: original(s) for r, s in zip(program.regions, program.scops)}
    blocks = {i: c_block(v) for i, v in variants.items()}
    return render_file(program, blocks, header(path, None, unsafe))
