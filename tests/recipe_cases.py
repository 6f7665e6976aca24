"""Candidate recipe steps for any kernel, generated from its statements' loop names."""
from __future__ import annotations

from looptx.codegen.render import render_file
from looptx.errors import LegalityError, RecipeError
from looptx.pipeline import c_block, header, variants_for
from looptx.recipe.schema import load_yaml


def loops_of(scop, s):
    return list(scop.statements[s].iterators)


def candidates(program, kind: str) -> list[str]:
    """YAML step lines of the given kind that make sense for region 0 of the program."""
    scop = program.scops[0]
    out = []
    param = scop.params[0] if scop.params else "4"
    n = len(scop.statements)
    for s in range(n):
        L = loops_of(scop, s)
        if not L:
            continue
        if kind == "permute" and len(L) >= 2:
            out.append(f"permute: {{stmt: {s}, order: [{L[-1]}, {L[-2]}]}}")
            out.append(f"permute: {{stmt: {s}, order: [{', '.join(reversed(L))}]}}")
        if kind == "tile":
            out.append(f"tile: {{stmt: {s}, loop: {L[-1]}, size: 4}}")
            out.append(f"tile: {{stmt: {s}, loop: {L[0]}, size: 3, control: {L[0]}T}}")
        if kind == "split":
            out.append(f"split: {{stmt: {s}, loop: {L[0]}, at: '{param}/2'}}")
        if kind == "unroll":
            out.append(f"unroll: {{stmt: {s}, loop: {L[-1]}, factor: 3}}")
            if len(L) >= 2:
                out.append(f"unroll: {{stmt: {s}, loop: {L[-2]}, factor: 2}}")
        if kind == "skew" and len(L) >= 2:
            out.append(f"skew: {{stmt: {s}, loop: {L[1]}, by: {{{L[0]}: 1}}}}")
        if kind == "shift":
            out.append(f"shift: {{stmt: {s}, loop: {L[-1]}, by: 2}}")
        if kind == "peel":
            out.append(f"peel: {{stmt: {s}, loop: {L[-1]}, first: 1, last: 2}}")
        if kind == "reverse":
            out.append(f"reverse: {{stmt: {s}, loop: {L[-1]}}}")
            out.append(f"reverse: {{stmt: {s}, loop: {L[0]}}}")
        if kind == "distribute" and n > 1:
            for t in range(n):
                if t != s and scop.statements[t].schedule[:2] == scop.statements[s].schedule[:2]:
                    out.append(f"distribute: {{stmts: [{s}], loop: {L[0]}}}")
                    break
        if kind == "fuse":
            for t in range(s + 1, n):
                Lt = loops_of(scop, t)
                if Lt and scop.statements[t].schedule[0] != scop.statements[s].schedule[0]:
                    out.append(f"fuse: {{stmts: [{s}, {t}], loop: {L[0]}}}")
                    break
        if kind == "registers":
            import re
            for a in scop.statements[s].accesses:
                if a.kind == "write":
                    used = set(re.findall(r"[A-Za-z_]\w*", " ".join(a.index)))
                    free = [x for x in L if x not in used]
                    if free:
                        out.append(f"registers: {{stmt: {s}, array: {a.array}, at: {free[-1]}}}")
                    break
        if kind == "datacopy":
            reads = [a.array for a in scop.statements[s].accesses if a.kind == "read"
                     and scop.array(a.array).rank >= 1]
            if reads and len(L) >= 2:
                tiles = [f"tile: {{stmt: {s}, loop: {x}, size: 4, control: {x}_t}}" for x in L]
                order = [f"{x}_t" for x in L] + L
                out.append(" || ".join(tiles + [f"permute: {{stmt: {s}, order: [{', '.join(order)}]}}",
                                                f"datacopy: {{stmt: {s}, array: {reads[0]}, at: {L[-1]}_t}}"]))
    seen, uniq = set(), []
    for c in out:
        if c not in seen:
            seen.add(c)
            uniq.append(c)
    return uniq


def transform_text(program, steps: list[str]):
    """The transformed file for a YAML step list, or None if the recipe is rejected."""
    steps = [p.strip() for s in steps for p in s.split(" || ")]
    text = "steps:\n" + "".join(f"  - {s}\n" for s in steps)
    recipe = load_yaml(text, file="case.yaml")
    try:
        variants, applied = variants_for(program, recipe)
    except (LegalityError, RecipeError) as e:
        return None, e
    blocks = {i: c_block(v) for i, v in variants.items()}
    return render_file(program, blocks, header(program.filename, applied)), None


def accepted(path, steps, sizes_list, defines=None):
    """The recipe is accepted on the file and the result computes what the original computes
    at every size set (difftest.check_same); returns the transformed text."""
    from difftest import check_same
    from looptx.pipeline import load
    prog = load(str(path), defines=defines) if defines else load(str(path))
    text, err = transform_text(prog, steps)
    assert err is None, err
    for sizes in sizes_list:
        check_same(path, text, sizes)
    return text
