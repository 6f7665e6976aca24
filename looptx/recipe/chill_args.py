"""Arguments that CHiLL reads as written rather than as values: the facts of `known(ambn > 0)`
(a relation on symbolic constants, in every dialect the same as `known('ambn > 0')`) and a
split's condition (`split(0,1,L1 < 5)`), and, in
the classic `.script` language, a bare array name (`datacopy(0,3,a,false,1)`).  Also the
forms of CHiLL commands that looptx spells as other steps (a skew whose own-loop coefficient is
not 1 is a scale)."""
from __future__ import annotations

import ast
import re
from typing import Any, Mapping

from looptx.errors import RecipeError, note_once
from looptx.recipe import chill_checks as checks
from looptx.recipe.chill_lists import one

# where each command takes an array's name, by its number of arguments (None: any number);
# the alias names (scalar_replace) are the command's as the script writes it
_ARRAY_AT = {
    "datacopy": lambda args: 2,
    "datacopy_privatized": lambda args: 2, "datacopy_privitized": lambda args: 2,
    "datacopy_privatised": lambda args: 2,
    "registers": lambda args: 2,
    "scalar_replace": lambda args: 2,
    "copy_to_registers": lambda args: 2 if len(args) >= 3 else 1,
    "copy_to_shared": lambda args: 2 if args and isinstance(args[0], ast.Constant) else 1,
}


def classic(file: str, text: str) -> bool:
    """The classic command language (CHiLL's `.script` files, with their `source:` header),
    whose grammar reads a bare name where Python or Lua would look up a variable."""
    from looptx.recipe.schema import CHILL_HEADER
    if file.endswith(".script"):
        return True
    first = next((ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")), "")
    return bool(CHILL_HEADER.fullmatch(first))


def as_written(name: str, tree: ast.Call, env: Mapping[str, Any], lua_literals, is_classic: bool) -> ast.Call:
    """`tree` with the arguments CHiLL reads as text made string constants.  A name the script
    assigned keeps its value (`N = 64` then `known(N > 0)` is the fact 64 > 0)."""
    args = list(tree.args)
    if name in ("known", "assume"):
        args = [_fact(a, env) for a in args]
    elif name == "split" and len(args) >= 3 and isinstance(args[2], ast.Compare):
        # split(0,1,L1 < 5): the condition on the loop level, as known's facts are relations
        args[2] = _fact(args[2], env)
    elif is_classic and name in _ARRAY_AT and args:
        at = _ARRAY_AT[name](args)
        if at < len(args):
            node = args[at]
            if isinstance(node, ast.Name) and node.id not in env and node.id not in lua_literals:
                args[at] = ast.copy_location(ast.Constant(node.id), node)
    if args == list(tree.args):
        return tree
    return ast.copy_location(ast.Call(func=tree.func, args=args, keywords=tree.keywords), tree)


def _fact(node, env: Mapping[str, Any]):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return ast.copy_location(ast.List(elts=[_fact(e, env) for e in node.elts], ctx=ast.Load()), node)
    if isinstance(node, ast.Name) and isinstance(env.get(node.id), (str, list)):
        return node                 # a variable holding the fact(s) as text: its value is the fact
    if not isinstance(node, (ast.Compare, ast.BoolOp)) and not (
            isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
        return node                 # not a relation: evaluated, and refused, as before
    return ast.copy_location(ast.Constant(ast.unparse(_Bound(env).visit(node))), node)


class _Bound(ast.NodeTransformer):
    """A relation's names with the script's numeric variables replaced by their values; the
    other names are the region's parameters."""

    def __init__(self, env: Mapping[str, Any]):
        self.env = env

    def visit_Name(self, node):
        value = self.env.get(node.id)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return ast.copy_location(ast.Constant(value), node)
        return node


def skew_list(ln, stmt, level, by: list) -> list[tuple[str, dict]]:
    """CHiLL's skew(stmts, level, [a1..a_level]): the new index of `level` is sum(a_l * i_l).
    A last coefficient k other than 1 scales the loop by k first (CHiLL's test_skew:
    skew([1],1,[4]) is scale([1],1,4))."""
    form = "skew([0],2,[1,1]): one coefficient for each loop level 1..level, the last for the loop itself"
    if not isinstance(level, int) or isinstance(level, bool) or len(by) != level \
            or not all(isinstance(c, int) and not isinstance(c, bool) for c in by):
        raise ln.error("skew with a coefficient list needs the loop level and one integer coefficient "
                       "for each level up to it", hint=f"write {form}")
    own = by[-1]
    if own == 0:
        raise ln.error("skew: the loop's own coefficient (the list's last) is 0, which collapses the loop",
                       hint=f"write {form}; a non-zero last coefficient k scales the loop by k")
    steps: list[tuple[str, dict]] = []
    rest = {lvl + 1: c for lvl, c in enumerate(by[:-1]) if c}
    if own != 1:
        steps.append(("scale", {"stmt": stmt, "loop": level, "by": own}))
        note_once(ln.file, ln.line, f"skew's last coefficient {own} scales loop level {level}: read as "
                                    f"scale(..,{level},{own})" + (", then the skew by the other coefficients"
                                                                  if rest else ""), per_line=True)
    if rest:
        steps.append(("skew", {"stmt": stmt, "loop": level, "by": rest, "chill": True}))
    elif not steps:
        # skew([1],1,[1]) or skew([0],2,[0,1]): the loop's index as it is
        note_once(ln.file, ln.line, f"skew by {by} keeps loop level {level} as it is: nothing to do", per_line=True)
    return steps


def _level(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def tile_steps(ln, name: str, a: list) -> list[tuple[str, dict]]:
    """CHiLL's tile forms.  tile3(stmt, level, outer_level) and the Lua API's tile(stmt, level,
    outer[, method]) move the loop to outer_level (a tile of size 1, CUDA-CHiLL's tile_cuda);
    CHiLL's tile(stmt, level, size[, outer_level[, method[, align_offset[, align_multiple]]]])
    tiles by size; the long form that names the loops (tile7, or Lua's 7-argument tile with
    strings fifth and sixth) names the control loop."""
    def need(n: int, form: str):
        need_args(ln, a, n, name, form)
    if name == "tile3":
        need(3, "tile3(0,3,2) (statement, level, outer level)")
        return [("tile", {"stmt": a[0], "loop": a[1], "size": 1, "outer": a[2], "moved": True})]
    need(3, 'tile(0,"i",32,"ii")')
    stmt, loop, size = one(ln, name, a[0]), a[1], a[2]
    if name == "tile" and getattr(ln, "lua", False) and not getattr(ln, "plain_lua", False) and len(a) in (3, 4) \
            and _level(loop) and _level(size) \
            and (len(a) == 3 or _level(a[3])):
        if len(a) == 4 and a[3] not in (0, 1) and size <= loop:
            # CUDA-CHiLL's tile(stmt, level, outer[, method]): a 4th argument is the method
            raise ln.error(f"tile({', '.join(map(repr, a))}): in a CUDA-CHiLL script the 4th argument is the "
                           f"tiling method, strided (0) or counted (1), got {a[3]!r}",
                           hint=f"for a tile by {size}, write tile_by_index or the 7-argument tile; "
                                f"tile({stmt},{loop},{size}) moves loop {loop} to level {size}")
        if size <= loop:
            if not ln.file.endswith(".lua"):
                note_once(ln.file, ln.line, f"tile({', '.join(map(repr, a))}) is read as the Lua API's tile(stmt, "
                          f"level, outer_level), a move of loop level {loop} to level {size}, since the script is "
                          "Lua (it writes true, false, nil or a {name=value} table): for CHiLL's tile by a size, "
                          f"write tile({stmt},{loop},{size},1)", per_line=True)
            return [("tile", {"stmt": stmt, "loop": loop, "size": 1, "outer": size, "moved": True})]
        # an outer level inside the loop itself is no move: only CHiLL's tile by a size reads it
        note_once(ln.file, ln.line, f"tile({', '.join(map(repr, a))}): in a Lua script the third argument is "
                  f"the outer level, and {size} is past level {loop}: read as CHiLL's tile(stmt, level, size"
                  f"{', outer_level' if len(a) > 3 else ''})", per_line=True)
    named = len(a) >= 6 and any(isinstance(x, str) for x in a[4:6])
    method = 6 if name == "tile7" or named else 4
    if len(a) > method and not (a[method] in (0, 1, "strided", "counted") and not isinstance(a[method], bool)):
        raise ln.error(f"{name}: the tiling method is strided (0) or counted (1), got {a[method]!r}",
                       hint=f"write strided or counted as argument {method + 1}, or leave it out (counted)")
    if name == "tile7" or named:
        need(6, 'tile7(0,level,size,outer,"tile","ctrl",method)')
        named_tile = {"name": a[4]} if isinstance(a[4], str) and a[4] and a[4] != loop else {}
        return [("tile", {"stmt": stmt, "loop": loop, "size": size, "control": a[5], "outer": a[3], **named_tile})]
    if len(a) >= 6:
        # the alignment of the tiles changes which iterations share a tile, not the result
        given = ", ".join(f"{k} {v!r}" for k, v in zip(("align_offset", "align_multiple"), a[5:]))
        note_once(ln.file, ln.line, f"tile's alignment arguments ({given}) are not used: read as "
                  f"tile({', '.join(map(repr, a[:5]))}), whose tiles start at the loop's first iteration",
                  per_line=True)
    if len(a) >= 5 and a[4] in (0, "strided"):
        note_once(ln.file, ln.line, "the tile method strided is read as counted: the control loop counts tiles "
                  "(0, 1, 2, ...), not tile starts; the loops and the result are the same, and a split "
                  f"condition on the control level reads tile numbers ({size}*L for a tile start)", per_line=True)
    if size == 0 and not isinstance(size, bool) and _level(loop):
        raise ln.error(f"{name} by size 0: CHiLL's 'no tiling', which looptx does not take",
                       hint="leave the command out (CHiLL adds a one-iteration loop at the outer level: "
                            "renumber the levels of later commands)")
    args = {"stmt": stmt, "loop": loop, "size": size}
    if len(a) >= 4 and isinstance(a[3], str):
        args["control"] = a[3]
    elif len(a) >= 4 and _level(a[3]):          # CHiLL: the control loop placed at level a[3]
        args["outer"] = a[3]
        if _level(loop) and a[3] > loop:
            note_once(ln.file, ln.line, f"outer level {a[3]} is inside level {loop}: CHiLL refuses this "
                      "('invalid tile controlling loop level'); looptx places the control loop there, "
                      "inside the tile loop", per_line=True)
    elif _level(loop):
        args["outer"] = 1                       # CHiLL's default outer_level
    return [("tile", args)]


def lua_indexed(ln, node):
    """`node` with each subscript `t[k]` replaced by its value as Lua reads it: a table
    constructor `{16, 8}` counts from 1, so `sizes[1]` is 16 (Python scripts count from 0)."""
    class Indexed(ast.NodeTransformer):
        def visit_Subscript(self, sub):
            self.generic_visit(sub)
            table, key = ln.value(sub.value), ln.value(sub.slice)
            if isinstance(table, list) and _level(key):
                if not 1 <= key <= len(table):
                    raise ln.error(f"'{ast.unparse(sub)}': a Lua table of {len(table)} value"
                                   f"{'s' if len(table) != 1 else ''} has indices 1..{len(table)}",
                                   hint="Lua tables count from 1: the first value is t[1]")
                value = table[key - 1]
            elif isinstance(table, dict) and key in table:
                value = table[key]
            else:
                raise ln.error(f"cannot read '{ast.unparse(sub)}'",
                               hint="index a table of values by a number from 1, or a field by its name")
            return ast.copy_location(ast.parse(repr(value), mode="eval").body, sub)
    return Indexed().visit(node)


# CHiLL's privatized datacopy, by its three spellings across CHiLL's generations
PRIVATIZED = ("datacopy_privatized", "datacopy_privitized", "datacopy_privatised")


def privatized_copy(ln, name: str, a: list) -> list[tuple[str, dict]]:
    """datacopy_privatized(stmt, level, array, [privatized levels], ...): a datacopy whose
    footprint holds the privatized loops fixed (the step's `private`, apply._privatized_at)."""
    form = f'{name}(0,3,"B",[1,2])'
    if len(a) < 4 or not isinstance(a[2], str) or not isinstance(a[3], list):
        raise ln.error(f"{name} takes (statement, level, array, [privatized levels], ...)", hint=f"write {form}")
    stmt, level, array, held = one(ln, name, a[0]), a[1], a[2], a[3]
    if not all(isinstance(p, str) or _level(p) for p in held):
        raise ln.error(f"{name}'s privatized loops are levels or loop names, got {held!r}", hint=f"write {form}")
    if len(a) > 4:
        note_once(ln.file, ln.line, f"{name}'s arguments after the privatized levels "
                  f"({', '.join(map(repr, a[4:]))}) are not used: the buffer holds the footprint in the "
                  "array's own layout", per_line=True)
    # (whether each held loop is the copy's own or one around it: at the step, where levels
    # and names mean the loops of that moment)
    return [("datacopy", {"stmt": stmt, "at": level, "array": array, "private": list(held)})]


def coalesce(ln, a: list) -> list[tuple[str, dict]]:
    """CHiLL's coalesce(stmt, "new_idx", [levels], "inspector") is looptx's combine of the
    two loops (the inspector CHiLL builds for sparse, non-affine nests is not needed there);
    coalesce(0,"i","j") is combine's own dialect form."""
    form = 'coalesce(0,"ij",[1,2]) or combine(0,"i","j")'
    if len(a) >= 3 and isinstance(a[1], str) and isinstance(a[2], list):
        if len(a[2]) != 2:
            raise ln.error(f"coalesce of {len(a[2])} loops: looptx's combine makes one loop of two",
                           hint=f"coalesce two loops at a time, e.g. {form}")
        if len(a) > 3:
            note_once(ln.file, ln.line, f"coalesce's inspector ({a[3]!r}) is not used: looptx combines loops "
                      "whose bounds it knows, with no inspector", per_line=True)
        return [("combine", {"stmt": one(ln, "coalesce", a[0]), "loops": list(a[2]), "name": a[1]})]
    if len(a) == 3:
        return [("combine", {"stmt": one(ln, "coalesce", a[0]), "loops": [a[1], a[2]]})]
    raise ln.error("coalesce takes (statement, new loop name, [levels], inspector)", hint=f"write {form}")


# commands of CHiLL and CUDA-CHiLL (the reference's tables) that looptx has no step for, with
# what to write instead where something comes close
UNSUPPORTED = {
    "remove_dep": "looptx checks every dependence exactly; --unsafe skips the checks",
    "prefetch": "leave prefetching to the compiler, or add a pragma(stmt,loop,\"...\")",
    "scalar_expand": "privatize(\"var\",\"loop\") gives a temporary one object per iteration of a loop",
    "reduce": "omp_for(stmt,loop) with a reduction, in a YAML recipe: omp_for {..., reduction: {+: [sum]}}",
    "split_with_alignment": "split(stmt,loop,\"L1 < N - N % 4\") splits at an aligned bound",
    "make_dense": None, "compact": None, "ELLify": None, "stencil_temp": None,
    "find_stencil_shape": None, "print_dep_ufs": None, "datacopy_9arg": "datacopy(stmt,loop,\"A\")",
    "modular_shift": None, "diagonal_map": None, "modular_partition": None,
    "generate_ghostcells": None,
}


def _add_sync(ln, name: str, args) -> None:
    if len(args) != 2:
        raise ln.error("add_sync takes (statement, loop)", hint='write add_sync(0,"kk")')
    note_once(ln.file, ln.line, "add_sync is not needed: looptx puts __syncthreads() where its "
                                "shared-memory copies need one, and refuses thread mappings that race", per_line=True)


def _memory_space(ln, name: str, args) -> None:
    # CUDA-CHiLL's choice of a memory space for a read-only array: nothing to compute
    array = ln.value(args[-1]) if args and len(args) <= 2 else None
    if not isinstance(array, str) or not array.isidentifier():
        raise ln.error(f"{name} takes the name of an array the kernel only reads", hint=f'write {name}("b")')
    note_once(ln.file, ln.line, f"{name}(\"{array}\") is not followed: looptx reads arrays from global memory, "
                                "an array the kernel only reads as a const __restrict__ parameter (which nvcc may "
                                "load through the read-only cache)", per_line=True)


# commands that only get a note
NOTED = {"add_sync": _add_sync, "copy_to_texture": _memory_space, "copy_to_constant": _memory_space}


def unsupported(ln, name: str):
    instead = UNSUPPORTED[name]
    return ln.error(f"not supported by looptx: {name}",
                    hint=f"{instead}" if instead else "remove the command; looptx has no step for it "
                    "(its steps: README, Steps)")


# Python's and Lua's control flow: looptx reads a script's commands, it does not run it
_CONTROL = re.compile(r"\s*(for|while|if|elif|else|def|with|try|repeat|function)\b")


def control_flow(ln, cmd: str):
    m = _CONTROL.match(cmd)
    if not m:
        return None
    return ln.error(f"'{m.group(1)}' in a script: looptx runs no control flow in scripts, it reads the "
                    "commands one by one", hint="write out the commands it would run, one per line, e.g. "
                    "tile(0,1,16) then tile(1,1,16)")


def permute_steps(ln, a: list, listed) -> list[tuple[str, dict]]:
    """CHiLL's permute forms: permute(pi) (every statement of the nest, by levels),
    permute(stmts, order) and permute(stmt, level, pi) (the levels from `level` on; level 0:
    every statement of the loop object)."""
    def need(n: int, form: str):
        if len(a) < n:
            raise ln.error(f"permute needs {n} arguments", hint=f"write {form}")
    if len(a) == 1:
        # CHiLL's permute(pi): every statement of the nest, by levels (recipe/chill_nest.py)
        return [("permute", {"stmt": 0, "order": a[0], "whole": True})]
    need(2, 'permute(0,("j","i","k"))')
    order = a[2] if len(a) == 3 else list(a[1]) if isinstance(a[1], (list, tuple, str)) else a[1]
    if len(a) == 3 and _level(a[1]) and isinstance(order, (list, tuple)) and all(map(_level, order)):
        # CHiLL's permute(stmt, level, pi): the loops from `level` on, by their levels
        # (level 0: every statement of the loop object)
        level, order = a[1], list(order)
        if level == 0:
            return [("permute", {"stmt": 0, "order": order, "whole": True})]
        if sorted(order) != list(range(level, level + len(order))):
            raise ln.error(f"permute({a[0]},{level},{order}): the levels of the permutation are those from "
                           f"{level} on, {list(range(level, level + len(order)))} in some order",
                           hint=f"write the levels {level}..{level + len(order) - 1}, or permute from level 1")
        order = list(range(1, level)) + order
    return listed(lambda s: [("permute", {"stmt": s, "order": order})])


def tile_by_index_steps(ln, a: list) -> list[tuple[str, dict]]:
    """CUDA-CHiLL's tile_by_index([loops], [sizes], {l<k>_control=..., l<k>_tile=...}, order)."""
    if a and isinstance(a[0], int):
        stmt, a = a[0], a[1:]
    else:
        stmt = 0
    if len(a) < 2:
        raise ln.error("tile_by_index needs the loops and the sizes",
                       hint='tile_by_index(["i","j"],[32,32],{"l1_control":"ii"},["ii","i","j"])')
    loops, sizes = a[0], a[1]
    if len(a) > 2:
        checks.tile_names(ln, a[2], len(loops) if isinstance(loops, list) else 1)
    names = a[2] if len(a) > 2 and isinstance(a[2], dict) else {}
    order = a[3] if len(a) > 3 and isinstance(a[3], list) else None
    if len(loops) != len(sizes):
        raise ln.error("tile_by_index: as many sizes as loops are needed",
                       hint='tile_by_index(["i","j"],[32,32])')
    out = []
    for k, (loop, size) in enumerate(zip(loops, sizes)):
        args = {"stmt": stmt, "loop": loop, "size": size}
        if f"l{k + 1}_control" in names:
            args["control"] = names[f"l{k + 1}_control"]
        out.append(("tile", args))
    if order:
        # the order names a tile loop by its new name (l<k>_tile), which is an alias here
        renamed = {names[f"l{k + 1}_tile"]: loop for k, loop in enumerate(loops)
                   if isinstance(names.get(f"l{k + 1}_tile"), str)}
        out.append(("permute", {"stmt": stmt, "order": [renamed.get(x, x) if isinstance(x, str) else x
                                                        for x in order]}))
    return out


def datacopy_steps(ln, a: list, stmt_of) -> list[tuple[str, dict]]:
    """CHiLL's datacopy(stmt, level, array, ...) and datacopy([(stmt, [refs])], level, ...)."""
    if a and _is_ref_list(a[0]):
        # CHiLL's datacopy([(stmt, [ref, ...])], level, ...): the array the refs name
        need_args(ln, a, 2, "datacopy", 'datacopy([(0,[1])],"k")')
        if len(a[0]) != 1:
            raise ln.error("datacopy of references in several statements is not supported",
                           hint="copy each statement's array with its own "
                                'datacopy(stmt,"k","A")')
        stmt, refs = a[0][0]
        return [("datacopy", {"stmt": stmt, "at": a[1], "around": True,
                              "refs": list(refs) if isinstance(refs, (list, tuple)) else [refs]})]
    need_args(ln, a, 3, "datacopy", 'datacopy(0,"k","A")')
    if len(a) > 4 or len(a) == 4 and a[3]:
        # a copy's extra reads, layout, padding and memory space change no result, only its speed
        note_once(ln.file, ln.line, f"datacopy's arguments after the array ({', '.join(map(repr, a[3:]))}: "
                  "allow_extra_read, fastest-changing dimension, padding, memory type) are not used: "
                  "the buffer holds the footprint in the array's own layout", per_line=True)
    # CHiLL copies around loop L: before it, once per iteration of the loop around it
    return [("datacopy", {"stmt": stmt_of(a[0]), "at": a[1], "array": a[2], "around": True})]


def need_args(ln, a: list, n: int, name: str, form: str) -> None:
    if len(a) < n:
        raise ln.error(f"{name} needs {n} arguments", hint=f"write {form}")


def _is_ref_list(x) -> bool:
    """CHiLL's [(stmt, [ref#, ...]), ...] (parsed as lists)."""
    return isinstance(x, (list, tuple)) and bool(x) and all(
        isinstance(e, (list, tuple)) and len(e) == 2 and isinstance(e[0], int) for e in x)


def sizes_table(ln, node: ast.Dict) -> dict:
    """cudaize's array table ({a=N*N}): a count of names the script does not set (the region's
    sizes, the C file's #define N above an annotation) stays an expression, as a YAML step's
    `sizes: {a: N*N}`, for the cuda step to read against the region's sizes."""
    def count(v):
        try:
            return ln.value(v)
        except RecipeError as e:
            if re.search(r"unknown (?:name|parameter) '\w+'", e.what):
                return ast.unparse(v)
            raise
    return {ln.value(k): count(v) for k, v in zip(node.keys, node.values)}
