"""Input data for reads through index arrays (`y[row] += a[k] * x[cols[k]]`, SHOC MD's
`posx[jidx]` with `jidx = neighList[j]`).

The model takes such a read as any element of an array the region never writes, so a harness
must make the indexes valid itself: random integers would read outside `x`.  Each index array
is filled with values that keep every subscript it feeds inside its dimension (`cols[k] - 1`
takes values 1..n), and a pointer that only such reads reach gets as many elements as the
largest other array, so that the indexes spread over a realistic range."""
from __future__ import annotations

from dataclasses import dataclass, field

from looptx import ir
from looptx.errors import LooptxError

_MAX_SPREAD = 1 << 20          # elements a pointer only reached through indexes gets at most


@dataclass
class GatherPlan:
    arrays: set[str] = field(default_factory=set)                  # read through indexes somewhere
    # index array -> [lowest, highest + 1) of the values it may hold, once the extents are known
    uses: list[tuple[str, int, str, int, str]] = field(default_factory=list)   # (index, offset, array, dim, text)

    def index_ranges(self, extents: dict[str, tuple[int, ...]], where) -> dict[str, tuple[int, int]]:
        out: dict[str, tuple[int, int]] = {}
        for index, offset, array, dim, text in self.uses:
            n = extents[array][dim]
            lo, hi = out.get(index, (-offset, n - offset))
            lo, hi = max(lo, -offset), min(hi, n - offset)
            if lo >= hi:
                raise LooptxError(f"no values of '{index}' keep '{text}' inside '{array}' at these sizes",
                                  hint="give sizes under which every index read stays in its array",
                                  **where(index))
            out[index] = (lo, hi)
        return out


def gather_plan(scop, where) -> GatherPlan:
    """The arrays read through indexes and, per index array, the subscripts its values feed;
    an error at a subscript that is not an index array's element (plus or minus a constant),
    whose values the harness cannot choose."""
    plan = GatherPlan()
    arrays = {a.name: a for a in scop.arrays}
    scalar_sources = _scalar_sources(scop, arrays)
    for s in scop.statements:
        for r in (x for x in ir.walk(s.body) if isinstance(x, ir.Ref)):
            acc = scop.access(r.ref)
            for d, text in enumerate(acc.index):
                if not ir.is_gathered(text):
                    continue
                plan.arrays.add(r.array)
                shown = ir.to_c(r.index[d])
                src = _source(r.index[d], arrays, scalar_sources)
                if src is None:
                    raise LooptxError(
                        f"the region reads '{r.array}' at [{shown}], an index whose values the harness "
                        "cannot keep inside the array", hint="read the index array's element as the subscript "
                        f"({r.array}[idx[k]] or {r.array}[idx[k] - 1]) to validate with looptx run",
                        **where(r.array))
                plan.uses.append((src[0], src[1], r.array, d, f"{r.array}[{shown}]"))
    return plan


def _scalar_sources(scop, arrays) -> dict[str, list[ir.Expr]]:
    """Integer scalars of the region: every value assigned to each (`jidx = neighList[j]`)."""
    out: dict[str, list[ir.Expr]] = {}
    for s in scop.statements:
        lhs = s.body.lhs
        if isinstance(lhs, ir.Ref) and not lhs.index and lhs.array in arrays and arrays[lhs.array].is_scalar:
            out.setdefault(lhs.array, []).append(s.body.rhs if s.body.op == "=" else None)
    return out


def _source(e: ir.Expr, arrays, scalars) -> tuple[str, int] | None:
    """(index array, offset) for `idx[..]`, `idx[..] + c`, `idx[..] - c`, or a scalar every
    assignment of which is one of these (of one array and offset)."""
    offset = 0
    if isinstance(e, ir.Bin) and e.op in ("+", "-") and isinstance(e.b, ir.Num) and _int(e.b) is not None:
        offset = _int(e.b) if e.op == "+" else -_int(e.b)
        e = e.a
    elif isinstance(e, ir.Bin) and e.op == "+" and isinstance(e.a, ir.Num) and _int(e.a) is not None:
        offset, e = _int(e.a), e.b
    if not isinstance(e, ir.Ref) or e.array not in arrays:
        return None
    if e.index:
        return (e.array, offset)
    values = scalars.get(e.array) or [None]
    found = {_source(v, arrays, {}) if v is not None else None for v in values}
    if len(found) != 1 or None in found:
        return None
    name, inner = found.pop()
    return (name, inner + offset)


def _int(n: ir.Num) -> int | None:
    try:
        return int(n.text.rstrip("uUlL"), 0)
    except ValueError:
        return None


def spread(shapes: dict[str, tuple[int, ...]]) -> int:
    """Elements for a pointer only indexes reach: as many as the largest other array."""
    total = 1
    for shape in shapes.values():
        n = 1
        for d in shape:
            n *= d
        total = max(total, n)
    return min(total, _MAX_SPREAD)
