"""What the extractor records of a region before the polyhedral model is built: its loops, its
statements with their domains (isl text), and their accesses as polynomials."""
from __future__ import annotations

from dataclasses import dataclass, field

from looptx import ir
from looptx.frontend.affine import Poly, Translator


@dataclass
class RawAccess:
    ref: int
    array: str
    kind: str                       # 'read' | 'write'
    subs: list[Poly]
    nodes: list                     # pycparser subscript nodes (for error locations)
    ref_node: object = None         # the whole reference
    guard: str = ""                 # isl text: C evaluates it only where this holds (guards.py)
    inexact: bool = False           # ... and then only where a test of its counters the model lost holds


@dataclass
class RawStmt:
    id: int
    iterators: tuple[str, ...]
    reversed: tuple[bool, ...]
    constraints: list[str]          # isl text, conjunction
    body: ir.Assign
    accesses: list[RawAccess]
    schedule: tuple
    line: int
    col: int
    text: str
    translator: Translator          # atoms of this statement's subscripts
    # (isl condition, line, col, what, where C evaluates it or None for the statement's domain)
    obligations: list = field(default_factory=list)
    iter_ctypes: tuple[str, ...] = ()  # each iterator's declared type
    loop_pos: tuple[tuple[int, int], ...] = ()   # line, column of each enclosing `for`
    # what the `?:` / && guards of its reads hold only under (`c % K` of the test: c >= 0; no
    # wrap of `i - 1 < n` in unsigned values): (isl condition, where, guard), owed where C tests
    # it (`where` as below, None for the domain) inside the guards around it (`i >= 1 && ...`).
    # Where they hold the guards stay, else the reads count as unconditional (Access.inexact)
    guard_obligations: list = field(default_factory=list)
    # (isl condition, line, col, what, where): conditions that must hold wherever C evaluates an
    # enclosing `if` or a loop's first test (`where`, a conjunction over the enclosing loops'
    # iterators), not only where the statement runs (frontend/int_types.py)
    evaluated_obligations: list = field(default_factory=list)


@dataclass
class Loop:
    iterator: str
    constraints: list[str]
    reversed: bool
    ctype: str = "int"                 # as declared (typedef names unresolved)
    pos: tuple[int, int] = (0, 0)      # line, column of the `for`
