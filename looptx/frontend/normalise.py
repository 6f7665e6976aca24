"""The rewrites of the parsed file, in place, that turn C idioms into the forms the extractor
reads (one assignment a statement, a loop with one iterator, temporaries read as the expression
they hold, ...).  Their order matters: each takes the forms the ones before it leave."""
from __future__ import annotations

from looptx.frontend.array_counts import array_counts
from looptx.frontend.comma_inits import comma_inits_hoisted
from looptx.frontend.continued import continued_loops
from looptx.frontend.countdown import countdowns_with_steps
from looptx.frontend.names import rename_reserved
from looptx.frontend.paired_iterators import paired_iterators
from looptx.frontend.repeated_sets import drop_repeated_sets
from looptx.frontend.struct_copies import struct_copies_substituted
from looptx.frontend.symbols import (continues_as_guards, dereferences_as_subscripts, once_blocks,
                                     split_chained_assignments, typedef_arrays_expanded, typedef_words)
from looptx.frontend.temporaries import read_after_regions, substitute_index_temporaries
from looptx.frontend.ternary_index import ternary_subscripts_lifted


def normalise(ast, region_lines=()) -> dict[str, list[tuple[str, int]]]:
    """Rewrites `ast`; returns, by function, the integer variables whose uses now read an
    expression (an index temporary, a loop's paired counter), each with a line of its own."""
    rename_reserved(ast)
    _pragma_operators(ast)
    # as written: the passes below drop sets of the code after a region (a repeated `i__1 = *n;`)
    # that its printed text still has
    read_after = read_after_regions(ast, region_lines)
    array_counts(ast)
    typedef_arrays_expanded(ast)
    once_blocks(ast)
    split_chained_assignments(ast)
    continues_as_guards(ast)
    countdowns_with_steps(ast, typedef_words(ast))
    continued_loops(ast)
    # after continued_loops, which gives a `for (; ...)` its start; before the temporaries,
    # whose initializers (`read_ijk = ii + jj*s`) then read the iterators
    paired = paired_iterators(ast)
    comma_inits_hoisted(ast)
    dereferences_as_subscripts(ast)
    drop_repeated_sets(ast, typedef_words(ast))
    substituted = substitute_index_temporaries(ast, read_after, region_lines)
    for fn, gone in paired.items():
        substituted.setdefault(fn, []).extend(gone)
    struct_copies_substituted(ast)
    ternary_subscripts_lifted(ast)
    return substituted


def _pragma_operators(ast) -> None:
    """C99's `_Pragma("omp parallel for")` is `#pragma omp parallel for` (pycparser keeps its
    string literal as a node where a directive has text)."""
    import ast as py_ast

    from pycparser import c_ast

    class Visitor(c_ast.NodeVisitor):
        def visit_Pragma(self, node):
            if isinstance(node.string, c_ast.Constant):
                try:
                    node.string = py_ast.literal_eval(node.string.value)
                except (ValueError, SyntaxError):
                    node.string = node.string.value.strip('"')
    Visitor().visit(ast)
