"""Facts the model assumes and C does not give (Scop.runtime_facts): which the output checks,
their note, and the region as written for the branch of the user's file that runs where the
sizes break them (Polly's versioning, with the user's own code as the version for every size)."""
from __future__ import annotations

import re
from dataclasses import replace

from pycparser import c_ast

from looptx.errors import note_once
from looptx.frontend.names import to_user
from looptx.frontend.spelling import SpelledGenerator, Spellings


class _Printer(SpelledGenerator):
    """Loop and branch bodies indented one level under their headers at any depth (pycparser's
    own printer puts a body's nested body at the body's level)."""

    def __init__(self, spellings: Spellings):
        super().__init__(spellings)
        self.reduce_parentheses = True

    def _generate_stmt(self, n, add_indent=False):
        if add_indent and not isinstance(n, c_ast.Compound):
            self.indent_level += 2
            try:
                return super()._generate_stmt(n)
            finally:
                self.indent_level -= 2
        return super()._generate_stmt(n, add_indent)


def as_written(items, declared_before: set[str], spellings: Spellings,
               pragmas: dict | None = None) -> tuple[str, ...] | None:
    """C lines of the region's statements.  `items` already read struct members and row lengths
    through the variables the regenerated block declares, so that its write-backs hold for
    either branch.  A variable the region declares and the function reads after it is declared
    before the block: its declaration here becomes an assignment.  None where that cannot be
    written (an array's initializer list)."""
    gen = _Printer(spellings)
    out: list[str] = []
    for k, it in enumerate(items):
        # the pragmas the parse keeps apart from the statements (calc_dt's `#pragma omp
        # parallel` before its block): the branch runs the region exactly as written
        out += [f"#pragma {p}" for p in (pragmas or {}).get(k, ())]
        if isinstance(it, c_ast.Decl) and it.name in declared_before:
            if it.init is None:
                continue
            if isinstance(it.init, c_ast.InitList) or not isinstance(it.type, c_ast.TypeDecl):
                return None
            it = c_ast.Assignment("=", c_ast.ID(it.name), it.init, coord=it.coord)
        out += gen._generate_stmt(it).rstrip("\n").split("\n")
    return tuple(to_user(ln) for ln in _braces_on_headers(out))


def versioned_else(items, declared_before: set[str], spellings: Spellings,
                   pragmas: dict | None = None) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(condition, lines) where the region is looptx's own output, `if (facts) {new} else
    {as written}` behind declarations: the region as written without that `if`, its `else`
    alone, for a fallback that runs where the same facts fail (codegen/versioning.versioned), so a chain of
    transforms does not nest every earlier output in its `else`."""
    decls = [it for it in items if isinstance(it, c_ast.Decl)]
    rest = [it for it in items if not isinstance(it, c_ast.Decl)]
    if len(rest) != 1 or (pragmas or {}).get(items.index(rest[0])):
        return ()
    block, inner = rest[0], rest[0]
    if isinstance(block, c_ast.Compound):
        kept = [it for it in block.block_items or () if not isinstance(it, c_ast.Decl)]
        if len(kept) != 1:
            return ()
        inner = kept[0]
    if not isinstance(inner, c_ast.If) or inner.iffalse is None:
        return ()
    branch = inner.iffalse.block_items or [] if isinstance(inner.iffalse, c_ast.Compound) else [inner.iffalse]
    if any(isinstance(it, c_ast.Decl) for it in branch):
        branch = [inner.iffalse]        # (its own scope)
    kept = [it for it in block.block_items if it is not inner] if block is not inner else []
    if kept:
        pruned = [*decls, c_ast.Compound(kept + branch, coord=block.coord)]
    else:
        pruned = [*decls, *branch]
    lines = as_written(pruned, declared_before, spellings)
    return () if lines is None else ((canonical_cond(_Printer(spellings).visit(inner.cond)), lines),)


def canonical_cond(text: str) -> str | None:
    """A C condition as pycparser prints it, so that two spellings of it compare equal."""
    from pycparser import CParser, c_generator
    try:
        decl = CParser().parse(f"void _lx_(void) {{ _lx_c = ({to_user(text)}); }}").ext[0]
    except Exception:                   # (pycparser raises its own and AssertionError alike)
        return None
    return c_generator.CGenerator().visit(decl.body.block_items[0].rvalue)


def _braces_on_headers(lines: list[str]) -> list[str]:
    """`for (...) {` on one line, as the regenerated branch writes it, and no blank lines."""
    out: list[str] = []
    for ln in lines:
        if not ln.strip():
            continue
        if ln.strip() == "{" and out and out[-1].lstrip().startswith(("for ", "for(", "if ", "if(", "while", "else", "do")) \
                and len(out[-1]) - len(out[-1].lstrip()) == len(ln) - len(ln.lstrip()):
            out[-1] += " {"
            continue
        out.append(ln)
    return out


def checked_row_facts(scop, facts, relying=frozenset()) -> tuple[str, ...]:
    """The row facts the output checks at run time: those of an array the region writes
    (rows that overlap where the fact fails carry dependences the model has not seen), every
    one where a written array stays in its rows only under them (`relying`), and those over
    sizes that bound loops (isl simplifies the loops with them).  Overlapping rows of an array
    it only reads are read in any order alike."""
    written = {a.array for st in scop.statements for a in st.accesses if a.kind == "write"}
    return tuple(f for row, f in facts
                 if any(row in (a.strides or ()) for a in scop.arrays if a.name in written) or written & relying
                 or scop.bounds_use(f))


def as_c(fact: str) -> str:
    """A fact in isl's text as C writes it (`2*s` for isl's `2s`), for notes."""
    return to_user(re.sub(r"\b(\d+)([A-Za-z_])", r"\1*\2", fact))


def note_row_facts(path, line, arrays, facts, checked, relying=frozenset()) -> None:
    """`relying`: arrays that stay in their rows under the facts, which other arrays' rows gave
    (CloverLeaf's `b` in rows of x_max + 5 under the x_min >= -1 of `a`'s x_max + 4)."""
    # rows of an interleaved array hold groups of elements (frontend/interleaved)
    groups = {r: g for a in arrays for r, g in zip(a.strides or (), (a.strides or ())[1:]) if g.isdigit()}
    named = [a for a in arrays if set(a.strides or ()) & {r for r, _ in facts} or a.name in relying and a.strides]
    rows = list(dict.fromkeys(to_user(r) + (f" groups of {groups[r]}" if r in groups else "")
                              for r in [r for r, _ in facts] + [a.strides[0] for a in named if a.name in relying]))
    names = [repr(to_user(a.name)) for a in named]
    after = ("the output checks that: its C runs the region as written otherwise, its CUDA host "
             "code returns cudaErrorInvalidValue" if checked else
             "the region only reads them, in any order, so the output holds for other values too")
    from looptx.poly.facts import without_implied
    shown = without_implied(facts)
    note_once(path, line, f"the region is modelled for {' and '.join(as_c(f) for _, f in shown)}: the "
              f"linearized subscripts of {', '.join(names)} stay in their rows of {' and '.join(rows)} "
              f"elements only then ({after})", per_line=True)


def with_stand_ins(scop, names: set[str], path: str, line: int,
                   why: str = "the problem size being built (--define, else the first of input_params)"):
    """`scop` with the sizes in `names` fixed as stand-ins: the output is made for their values
    and checks them (an Orio fragment transformed at its first input_params size, or a
    variable of the file that --define fixes: the function is still called with others)."""
    used = [(p, v) for p, v in scop.fixed if p in names and p in scop.params]
    if not used:
        return scop
    facts = tuple(f"{p} = {v}" for p, v in used)
    note_once(path, line, f"the region is transformed for {', '.join(f'{to_user(p)} = {v}' for p, v in used)}, "
              f"{why}; the output checks it: its C runs the region as written for other sizes, its "
              "CUDA host code returns cudaErrorInvalidValue for other values of the sizes it receives "
              "(a .cu is made for these values)")
    return replace(scop, runtime_facts=tuple(dict.fromkeys(scop.runtime_facts + facts)),
                   stand_ins=tuple(dict.fromkeys(scop.stand_ins + tuple(p for p, _ in used))), _cache={})
