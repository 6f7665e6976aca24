"""A Variant: the original statements under a new schedule, plus code-generation annotations.

The schedule is kept per statement *piece* in CHiLL's 2d+1 form: (p0, L1, p1, ..., Ln, pn) with
integer positions p (textual order inside the enclosing loop) and named loop dimensions L, each
a quasi-affine expression of the statement's iterators.  Pieces whose positions agree up to a
loop share that loop (CHiLL semantics), so "the loop i of S0" is a stable, named thing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

import islpy as isl

from looptx.errors import RecipeError
from looptx.poly.scop import CachedValue, Scop, Statement


@dataclass(frozen=True)
class LoopDim:
    name: str
    expr: str                  # isl quasi-affine text over the statement's iterators and params
    unroll: bool = False       # fully unrolled by code generation (point loop of an unroll)
    reversed: bool = False     # printed as a decreasing loop over -expr
    hidden: bool = False       # not addressable by name (unrolled point loops)
    factor: int = 0            # > 0: control loop of an unroll, stepping by `factor` values (full tiles separated)
    # its factor as the step gave it: `factor` / the loop's stride (4 over `i += 3` steps by 12)
    asked: int = 0
    trip: int = 0              # unrolled loops: the most iterations it has per outer iteration
    # a tile's control loop: (tile loop name, its expression when tiled, lower bound, size), so
    # that the tile loop can become counted (0..size-1) when a permute puts it outside
    counted: tuple = ()
    pragmas: tuple[str, ...] = ()      # `#pragma` lines printed before the loop (C target)

    def __str__(self):
        return self.name


def loop_reads(d: LoopDim, iterators) -> set[str]:
    """The statement's iterators that loop `d`'s expression reads (a tile or an unroll of `i`
    reads `i` alone)."""
    return {x for x in iterators if re.search(rf"(?<![\w']){re.escape(x)}(?![\w'])", d.expr)}


@dataclass(frozen=True)
class Piece:
    stmt: int
    dims: tuple                # (p0, LoopDim, p1, ..., LoopDim, pn)
    restrict: str = ""         # isl set text over the statement's instances (split/peel parts)

    @property
    def loops(self) -> list[LoopDim]:
        return [d for d in self.dims if isinstance(d, LoopDim)]

    def position_of(self, name: str, hidden: bool = False) -> int | None:
        """`hidden`: also find loops that were unrolled away (promotions still scope on them)."""
        for k, d in enumerate(self.dims):
            if isinstance(d, LoopDim) and d.name == name and (hidden or not d.hidden):
                return k
        return None

    def prefix(self, pos: int) -> tuple:
        """Identity of the loop at dims[pos]: the positions and loop names before it."""
        return tuple(d if isinstance(d, int) else d.name for d in self.dims[:pos])


@dataclass(frozen=True)
class Renamed:
    """A loop of `stmt` that a fuse renamed from `old` to `new`: a fused loop takes the name the
    first listed statement gives it (`lead` is that statement), and an inner loop whose name
    that takes gets a fresh one (`lead` -1).  Kept in Variant.extra so that a later step that
    names `old` can be told where the loop went, instead of a bare "no loop named"."""
    stmt: int
    old: str
    new: str
    lead: int


def renames(v: "Variant") -> list[Renamed]:
    return [x for x in v.extra if isinstance(x, Renamed)]


@dataclass(frozen=True)
class Variant(CachedValue):
    scop: Scop
    pieces: tuple[Piece, ...]
    assumptions: tuple[str, ...] = ()          # `known` facts about parameters (isl text)
    history: tuple[str, ...] = ()              # applied steps, for provenance
    extra: tuple = ()                          # later stages (GPU mapping, promotions) attach here
    unchecked: bool = False                    # --unsafe: races are not errors in code generation
    _cache: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    def evolve(self, **kw) -> "Variant":
        return replace(self, _cache={}, **kw)

    @property
    def width(self) -> int:
        return max(len(p.dims) for p in self.pieces)

    def pieces_of(self, stmt: int) -> list[tuple[int, Piece]]:
        return [(k, p) for k, p in enumerate(self.pieces) if p.stmt == stmt]

    def piece_text(self, p: Piece, width: int | None = None) -> str:
        s: Statement = self.scop.statements[p.stmt]
        width = width or self.width
        dims = [str(d) if isinstance(d, int) else d.expr for d in p.dims]
        dims += ["0"] * (width - len(dims))
        return f"{s.tuple_text()} -> [{', '.join(dims)}]"

    @property
    def context(self) -> isl.Set:
        if "context" not in self._cache:
            ctx = self.scop.context
            if self.assumptions:
                ctx = ctx.intersect(self.scop.params_where(self.assumptions))
            self._cache["context"] = ctx
        return self._cache["context"]

    def schedule_map(self, width: int | None = None) -> isl.UnionMap:
        """All pieces, padded to one length (pitfall 8), restricted to their domains."""
        width = width or self.width
        key = ("schedule", width)
        if key not in self._cache:
            if not any(p.restrict for p in self.pieces):
                text = "; ".join(self.piece_text(p, width) for p in self.pieces)
                u = isl.UnionMap(f"{self.scop.prefix}{{ {text} }}").intersect_domain(self.scop.domains)
            else:
                u = isl.UnionMap.empty(self.context.get_space())
                for p in self.pieces:
                    u = u.union(isl.UnionMap.from_map(self.piece_map(p, width)))
            self._cache[key] = u.intersect_params(self.context)
        return self._cache[key]

    def piece_map(self, p: Piece, width: int | None = None) -> isl.Map:
        key = ("piece", p, width)
        if key not in self._cache:
            m = isl.Map(f"{self.scop.prefix}{{ {self.piece_text(p, width)} }}").intersect_domain(
                self.scop.domain(self.scop.statements[p.stmt]))
            if p.restrict:
                m = m.intersect_domain(isl.Set(p.restrict))
            self._cache[key] = m.intersect_params(self.context)
        return self._cache[key]

    def piece_domain(self, p: Piece) -> isl.Set:
        return self.piece_map(p).domain()


def counted_tiles(dims: tuple) -> tuple:
    """A tile loop placed outside its own control loop runs over its offset in the tile,
    0..size-1 (CUDA-CHiLL's counted tiling): with its original values it would fix the control
    loop to one iteration and undo the tiling.  Inside its control again, either form gives the
    same order."""
    dims = list(dims)
    for c, ctrl in enumerate(dims):
        if not isinstance(ctrl, LoopDim) or not ctrl.counted:
            continue
        name, expr, lb, size = ctrl.counted
        at = next((k for k in range(c) if isinstance(dims[k], LoopDim) and dims[k].name == name), None)
        if at is None:
            continue
        offset = f"(({expr}) - ({lb})) mod {size}"
        if dims[at].expr == expr:
            dims[at] = replace(dims[at], expr=offset, reversed=False)
        elif dims[at].expr != offset:
            raise RecipeError(f"loop '{name}' cannot be placed outside its tile's control loop "
                              f"'{ctrl.name}' after it was changed by a later step",
                              hint=f"permute before changing '{name}' (or keep {ctrl.name} outside {name})")
    return tuple(dims)


def points_inside(dims: tuple) -> tuple:
    """An unroll's point loop that a permute left outside its own control loop (an unroll of
    `i` whose inner loops were kept apart, as Orio's unrolljam keeps them, then `i` moved
    inside `j`) goes back just inside it, the copies then jammed there: outside, it would run
    over every value of the loop as one strip."""
    dims = list(dims)
    loops = [k for k, d in enumerate(dims) if isinstance(d, LoopDim)]
    for at in range(len(loops)):
        d = dims[loops[at]]
        if not (d.hidden and d.unroll and d.name.endswith("'")):
            continue
        ctrl = next((c for c in range(at + 1, len(loops))
                     if dims[loops[c]].name == d.name[:-1] and dims[loops[c]].factor), None)
        if ctrl is None:
            continue
        order = [dims[k] for k in loops]
        order.insert(ctrl, order.pop(at))
        for k, x in zip(loops, order):
            dims[k] = x
        return points_inside(tuple(dims))
    return tuple(dims)


def original(scop: Scop, team: bool = True) -> Variant:
    """The statements in their order; with `team`, the loop nests an OpenMP team shares out
    (Scop.team) keep their `omp for` (as `omp parallel for` with its reductions, which the
    printer of a team region writes as `omp for`)."""
    shared = {}
    starts = [s for s, *_ in scop.team] + [len(scop.statements)] if team else []
    for k, (first, clauses, *_) in enumerate(scop.team if team else ()):
        text = " ".join(["omp parallel for"] + [m.group(0) for m in TEAM_REDUCTION.finditer(clauses)])
        shared.update((s, text) for s in range(first, starts[k + 1]))
    pieces = []
    for s in scop.statements:
        dims = []
        for d in s.schedule:
            if isinstance(d, int):
                dims.append(d)
            else:
                rev = s.reversed[s.iterators.index(d)]
                prag = (shared[s.id],) if s.id in shared and not any(isinstance(x, LoopDim) for x in dims) else ()
                dims.append(LoopDim(d, f"-{d}" if rev else d, reversed=rev, pragmas=prag))
        pieces.append(Piece(s.id, tuple(dims)))
    return Variant(scop, tuple(pieces))


TEAM_REDUCTION = re.compile(r"reduction\s*\([^()]*\)")
