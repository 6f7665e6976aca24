"""The typed result of a PerfTuning specification (what the search and the harness consume).

Kept apart from the parser (annotations.py) so that searchers and workers can import the
values without the grammar.  Everything here is immutable and picklable.
"""
from __future__ import annotations

import itertools
import math
import re
import shlex
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator, Mapping

from looptx.errors import AnnotationError

if TYPE_CHECKING:
    from looptx.frontend.expr import Expr


class FrozenMap(Mapping):
    """A read-only, picklable mapping (MappingProxyType cannot be pickled)."""

    __slots__ = ("_d",)

    def __init__(self, items=(), **kwargs):
        object.__setattr__(self, "_d", dict(items, **kwargs))

    def __getitem__(self, key):
        return self._d[key]

    def __iter__(self) -> Iterator:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __setattr__(self, name, value):
        raise AttributeError("FrozenMap is read-only")

    def __hash__(self):
        return hash(frozenset(self._d.items()))

    def __eq__(self, other):
        return isinstance(other, Mapping) and dict(self.items()) == dict(other.items())

    def __repr__(self) -> str:
        return f"FrozenMap({self._d!r})"

    def __reduce__(self):
        return (FrozenMap, (self._d,))


EMPTY = FrozenMap()


# ----------------------------------------------------------------------------- loop mappings


class MappingSpace(tuple):
    """The values of `mapping(...)`: tuples of loop names in slot order, with the slot names."""

    def __new__(cls, values, loops, block, thread, cover):
        self = super().__new__(cls, values)
        self.loops = tuple(loops)
        self.block = block
        self.thread = thread
        self.cover = cover
        self.slots = mapping_slots(block, thread)
        return self

    def __reduce__(self):
        return (MappingSpace, (tuple(self), self.loops, self.block, self.thread, self.cover))


def mapping_slots(block: int, thread: int) -> tuple[str, ...]:
    """Slot names in value order: ('BX', 'BY', ..., 'TX', 'TY', ...)."""
    return tuple("B" + "XYZ"[k] for k in range(block)) + tuple("T" + "XYZ"[k] for k in range(thread))


def _count_mappings(n: int, slots: int) -> int:
    return sum(math.comb(slots, k) * math.perm(n, k) for k in range(min(n, slots) + 1))


def mapping_values(loops, block: int = 2, thread: int = 2, cover: bool = False) -> tuple[tuple[str, ...], ...]:
    """All assignments of `loops` to block then thread slots; each loop used at most once (exactly
    once with cover), '1' marks an empty slot, thread x is never empty.  Order: slot by slot, loops
    in the given order before '1', so the enumeration is deterministic."""
    if isinstance(loops, str):
        raise TypeError("mapping() loops must be a list of loop-name strings")
    loops = tuple(loops)
    if not all(isinstance(x, str) for x in loops):
        raise TypeError("mapping() loops must be a list of loop-name strings")
    if len(set(loops)) != len(loops):
        raise ValueError("mapping() loops must be distinct")
    if any(x == "1" or not x.isidentifier() for x in loops):
        raise ValueError("mapping() loops must be loop names (identifiers)")
    if isinstance(block, bool) or not isinstance(block, int) or not 0 <= block <= 3:
        raise ValueError("mapping() block must be 0, 1, 2 or 3")
    if isinstance(thread, bool) or not isinstance(thread, int) or not 1 <= thread <= 3:
        raise ValueError("mapping() thread must be 1, 2 or 3")
    nslots = block + thread
    if _count_mappings(len(loops), nslots) * nslots > 10_000_000:
        raise ValueError("mapping() has too many values (use fewer loops or slots)")
    out: list[tuple[str, ...]] = []

    def fill(prefix: tuple[str, ...], used: frozenset) -> None:
        k = len(prefix)
        if k == nslots:
            if not cover or len(used) == len(loops):
                out.append(prefix)
            return
        if cover and len(loops) - len(used) > nslots - k:
            return          # not enough slots left to place every loop
        for name in loops:
            if name not in used:
                fill(prefix + (name,), used | {name})
        if k != block:      # slot `block` is thread x: it must hold a loop
            fill(prefix + ("1",), used)

    fill((), frozenset())
    return tuple(out)


def call_mapping(*args, **kwargs):
    """`mapping(loops, block=2, thread=2, cover=False)` as called from an annotation value."""
    names = ("loops", "block", "thread", "cover")
    if len(args) > len(names):
        raise TypeError("mapping() takes loops, block, thread, cover")
    bound = dict(zip(names, args))
    for k, v in kwargs.items():
        if k not in names:
            raise TypeError(f"mapping() got an unexpected argument '{k}' "
                            "(arguments: loops, block, thread, cover)")
        if k in bound:
            raise TypeError(f"mapping() got two values for '{k}'")
        bound[k] = v
    if "loops" not in bound:
        raise TypeError("mapping() needs loops=[...]")
    block, thread, cover = bound.get("block", 2), bound.get("thread", 2), bound.get("cover", False)
    if not isinstance(cover, bool):
        raise TypeError("mapping() cover must be True or False")
    values = mapping_values(bound["loops"], block, thread, cover)
    return MappingSpace(values, bound["loops"], block, thread, cover)


@dataclass(frozen=True)
class ParamDef:
    """One tuning dimension: its values in declaration order (all of one kind)."""

    name: str
    values: tuple
    line: int
    col: int
    meta: Mapping[str, Any] = field(default=EMPTY)   # mapping params: slots, loops, block, thread, cover
    file: str | None = field(default=None, compare=False)

    @property
    def kind(self) -> str:
        """'int' | 'float' | 'bool' | 'str' | 'tuple' | 'mapping'."""
        if "slots" in self.meta:
            return "mapping"
        return value_kind(self.values[0]) if self.values else "int"

    @property
    def slots(self) -> tuple[str, ...]:
        return self.meta.get("slots", ())

    @property
    def loops(self) -> tuple[str, ...]:
        return self.meta.get("loops", ())


def value_kind(v) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "str"
    if isinstance(v, tuple):
        return "tuple"
    return type(v).__name__


@dataclass(frozen=True)
class ConstraintDef:
    name: str
    expr: Expr
    line: int
    col: int
    file: str | None = None      # where it is written (an imported .spec), else the spec's file


@dataclass(frozen=True)
class VarDecl:
    """`decl [static|dynamic|managed] [__device__] TYPE NAME[d1][d2] = init;`"""

    name: str
    ctype: str
    dims: tuple[Expr, ...]
    storage: str | None
    device: bool
    init: None | str | Expr           # None, 'random', 'zero' or a value expression
    line: int
    col: int = 0
    file: str | None = field(default=None, compare=False)


_AT_NAME = re.compile(r"@([A-Za-z_]\w*)(@?)")
_D_FLAG = re.compile(r"-D([A-Za-z_]\w*)(?:=(.*))?", re.S)


def format_value(v) -> str:
    """How a param value is spelled inside a build command."""
    if isinstance(v, tuple):
        return " ".join(format_value(x) for x in v)
    return str(v)


def substitute_params(command: str, point: Mapping[str, Any]) -> str:
    """Replace `@NAME@` and `@NAME` (Orio's @CFLAGS style) by the point's values; other text
    (including `@WORD` that names no param, e.g. in an e-mail address) is kept."""
    def repl(m: re.Match) -> str:
        name = m.group(1)
        return format_value(point[name]) if name in point else m.group(0)
    return _AT_NAME.sub(repl, command)


@dataclass(frozen=True)
class TuningSpec:
    """Everything a PerfTuning block (or .spec file) says.

    `search['time_limit']` is in seconds (Orio's was minutes).  No defaults are filled in: a
    missing arg is simply absent, so the consumer decides (e.g. algorithm 'Exhaustive')."""

    file: str
    line: int
    performance_params: tuple[ParamDef, ...] = ()
    constraints: tuple[ConstraintDef, ...] = ()
    input_params: tuple[ParamDef, ...] = ()
    input_constraints: tuple[ConstraintDef, ...] = ()
    input_vars: tuple[VarDecl, ...] = ()
    decl_file: str | None = None
    init_file: str | None = None
    lets: Mapping[str, Any] = EMPTY
    search: Mapping[str, Any] = EMPTY
    build: Mapping[str, Any] = EMPTY
    performance_counter: Mapping[str, Any] = EMPTY
    validation: Mapping[str, Any] = EMPTY
    other: Mapping[str, Mapping[str, Any]] = EMPTY
    # where each arg is written: 'section.name' -> (file, line, col), for errors found later
    arg_pos: Mapping[str, tuple] = field(default=EMPTY, compare=False)

    def param(self, name: str) -> ParamDef:
        for p in self.performance_params + self.input_params:
            if p.name == name:
                return p
        raise KeyError(name)

    def space_size(self) -> int:
        """Points of the performance-param grid, before constraints."""
        n = 1
        for p in self.performance_params:
            n *= len(p.values)
        return n

    def problem_sizes(self, fixed: Mapping[str, Any] = EMPTY) -> list[dict[str, Any]]:
        """Every input_params combination passing the input constraints, in declaration order
        (first param slowest).  One empty dict when there are no input params.  `fixed` (-D)
        gives some params one value, before the constraints and the sizes derived from them."""
        names = [p.name for p in self.input_params]
        out = []
        for combo in itertools.product(*([fixed[p.name]] if p.name in fixed else p.values
                                         for p in self.input_params)):
            sizes = dict(zip(names, combo))
            env = {**self.lets, **sizes}
            if all(c.expr(env) for c in self.input_constraints):
                out.append({**sizes, **self._scalar_sizes(env, sizes)})
        return out

    def allowed_sizes(self, fixed: Mapping[str, Any] = EMPTY) -> list[dict[str, Any]]:
        """`problem_sizes(fixed)`, or an error where the input constraints allow none of them
        (`MVAL == NVAL` given 100 and 200); [] without input params."""
        if not self.input_params:
            return []
        sizes = self.problem_sizes(fixed)
        if not sizes:
            given = ", ".join(f"{k}={v}" for k, v in fixed.items() if k in {p.name for p in self.input_params})
            at = self.where("input_params", "constraint")
            if self.input_constraints:
                c = self.input_constraints[0]
                at = dict(file=c.file or self.file, line=c.line, col=c.col)
            raise AnnotationError(f"no problem size meets the input_params constraints with {given}",
                                  hint="give values the constraints allow, or change the constraints", **at)
        return sizes

    def _scalar_sizes(self, env: Mapping[str, Any], sizes: Mapping[str, Any]) -> dict[str, int]:
        """Integer scalars of input_vars whose initializer the sizes determine (SPAPT's
        `decl int A_ncols = N;`): loop bounds may use them like sizes."""
        out: dict[str, int] = {}
        for d in self.input_vars:
            if d.dims or d.name in sizes or not hasattr(d.init, "names") or \
                    d.ctype.split()[-1] not in ("int", "long", "short", "unsigned", "size_t"):
                continue
            if not d.init.names <= set(env) | set(out):
                continue
            value = d.init({**env, **out})
            if isinstance(value, int) and not isinstance(value, bool):
                out[d.name] = value
        return out

    def satisfies(self, point: Mapping[str, Any], sizes: Mapping[str, Any] = EMPTY) -> bool:
        """True when every performance constraint holds at `point` for problem size `sizes`."""
        env = {**self.lets, **sizes, **point}
        return all(c.expr(env) for c in self.constraints)

    def where(self, section: str, name: str) -> dict:
        """file/line/col of `arg name` in `def section` (the spec's start when not written)."""
        pos = self.arg_pos.get(f"{section}.{name}")
        if pos is None:
            return dict(file=self.file, line=self.line)
        return dict(file=pos[0], line=pos[1], col=pos[2])

    def build_command(self, point: Mapping[str, Any]) -> str | None:
        cmd = self.build.get("build_command")
        return None if cmd is None else substitute_params(cmd, point)

    def command_macros(self, point: Mapping[str, Any] | None = None) -> dict[str, str]:
        """NAME -> value of the `-D` flags of `def build`: Orio compiles the code with them, so
        the code and its decl_file may use them (`-DSCALE=3.0`, `-DDYNAMIC`).  A flag whose value
        names params (`-DKV=@U@`) is left out without `point`; with it, it takes the point's
        values (each param's first value where the point has none)."""
        macros = {}
        words = self._build_words()
        if point is not None:
            point = {**{p.name: p.values[0] for p in self.performance_params if p.values}, **point}
            words = [substitute_params(w, point) if w.startswith("-D") else w for w in words]
        for word in words:
            m = _D_FLAG.fullmatch(word)
            if m and "@" not in word:
                macros[m.group(1)] = "1" if m.group(2) is None else m.group(2)
        return macros

    def macro_params(self) -> frozenset[str]:
        """The params whose values `-D` flags of `def build` carry (`-DKV=@U@`): the code reads
        them through the macro, so each point is its own program."""
        names = {p.name for p in self.performance_params}
        return frozenset(n for w in self._build_words() if w.startswith("-D")
                         for n in (m.group(1) for m in _AT_NAME.finditer(w)) if n in names)

    def _build_words(self) -> list[str]:
        """The words of `def build`'s command and libs, `-D NAME=V` joined as `-DNAME=V`."""
        words = _words(f"{self.build.get('build_command') or ''} {self.build.get('libs') or ''}")
        return [f"-D{w}" if k and words[k - 1] == "-D" else w for k, w in enumerate(words)]

    def compile_command(self) -> str | None:
        """`def build`'s command with its `libs` (None when neither is written); its `@PARAM@`
        placeholders are filled per point by the evaluator."""
        cmd = self.build.get("build_command")
        if cmd:
            words = _words(cmd)
            rest = _unwrapped(words)
            if rest and len(rest) < len(words):
                from looptx.errors import note_once
                where = self.where("build", "build_command")
                note_once(where["file"], where.get("line"), f"the build command runs the compiler under "
                          f"'{shlex.join(words[:len(words) - len(rest)])}': looptx runs '{rest[0]}' itself, "
                          "with its own time limit")
                cmd = shlex.join(rest) if "@" not in cmd else " ".join(rest)
        if self.build.get("libs"):
            cmd = f"{cmd or 'gcc -O3'} {self.build['libs']}"
        return cmd


# commands that run the compiler named after their own options (Orio's SPAPT files wrap gcc in
# `timeout --kill-after=30s --signal=9 20m`): (name, options that take a separate value,
# positional words before the command)
_WRAPPERS = {"timeout": ({"-s", "--signal", "-k", "--kill-after"}, 1), "nice": ({"-n", "--adjustment"}, 0),
             "ccache": (set(), 0), "distcc": (set(), 0), "time": ({"-f", "--format", "-o", "--output"}, 0),
             "env": ({"-u", "--unset", "-C", "--chdir"}, 0), "taskset": (set(), 1),
             "stdbuf": ({"-i", "-o", "-e"}, 0), "nohup": (set(), 0)}


def _unwrapped(words: list[str]) -> list[str]:
    """The compiler and its arguments, after any wrapper commands in front of it."""
    while words and words[0].rsplit("/", 1)[-1] in _WRAPPERS:
        takes, positional = _WRAPPERS[words[0].rsplit("/", 1)[-1]]
        k = 1
        while k < len(words) and (words[k].startswith("-") or "=" in words[k] and words[0].endswith("env")):
            k += 2 if words[k] in takes else 1
        words = words[k + positional:]
    return words


def _words(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:          # an unbalanced quote: the compiler's own error says more
        return command.split()


def unknown_build_params(command: str, known) -> list[str]:
    """`@NAME@` references (both delimiters: certainly meant as a param) naming no param."""
    return [m.group(1) for m in _AT_NAME.finditer(command) if m.group(2) and m.group(1) not in known]


def check_kind(values: list, what: str, *, file, line, col) -> tuple:
    """Values of one param as a tuple of one kind (ints+floats -> floats, lists -> tuples)."""
    if set(map(type, values)) == {int}:
        return tuple(values)          # (a range of millions: the general path takes seconds)
    norm = [_freeze(v, what, file=file, line=line, col=col) for v in values]
    kinds = {value_kind(v) for v in norm}
    if kinds == {"int", "float"}:
        return tuple(float(v) for v in norm)
    if len(kinds) > 1:
        shown = " and ".join(sorted(kinds))
        raise AnnotationError(f"{what} mixes values of types {shown}",
                              hint="all values of a param must have one type; ints and floats may mix",
                              file=file, line=line, col=col)
    return tuple(norm)


def check_sizes(name: str, values, *, file, line, col) -> None:
    """input_params are problem sizes (loop bounds, array extents): integers only."""
    for v in values:
        if not isinstance(v, int) or isinstance(v, bool):
            shown = _show(list(v) if isinstance(v, tuple) else v)
            coefficient = f"; a coefficient takes one value (param {name} = 1.5;), which the program declares " \
                "as a double" if isinstance(v, float) else ""
            raise AnnotationError(f"input param '{name}' has the value {shown}, which is not an integer",
                                  hint=f"problem sizes must be integers, e.g. param {name}[] = [100, 1000]"
                                       f"{coefficient}",
                                  file=file, line=line, col=col)
        if not -2 ** 31 <= v < 2 ** 31:
            raise AnnotationError(f"input param '{name}' has the value {v}, which does not fit in an int",
                                  hint="the search allocates its arrays at these sizes: keep them below 2^31",
                                  file=file, line=line, col=col)


def _freeze(v, what, *, file, line, col):
    if isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (list, tuple)):
        return tuple(_freeze(x, what, file=file, line=line, col=col) for x in v)
    raise AnnotationError(f"{what} has a value of unsupported type {type(v).__name__}: {_show(v)}",
                          hint="param values are numbers, booleans, strings or tuples of those",
                          file=file, line=line, col=col)


def _show(v, limit=40) -> str:
    t = repr(v)
    return t if len(t) <= limit else t[: limit - 3] + "..."
