"""Nelder-Mead simplex on value-index coordinates, with restarts."""
from __future__ import annotations

import numpy as np

from looptx.errors import AnnotationError
from looptx.search.base import TrajectorySearcher
from looptx.search.registry import register_searcher


class SimplexSearcher(TrajectorySearcher):
    """Nelder-Mead on the index coordinates of the parameters (Orio's `Simplex`).

    Vertices live in continuous coordinates and are rounded to the grid; a rounded point that
    violates a constraint costs +inf without being evaluated, as in Orio.  The objective is
    log(time).  When the simplex collapses onto one grid point or stops improving, an optional
    local scan (local_distance > 0) checks the neighbours of its best vertex, and the search
    restarts from a fresh random point.

    Options (also accepted as simplex_<name>):
      reflection_coef (1.0), expansion_coef (2.0), contraction_coef (0.5),
      shrinkage_coef (0.5): the Nelder-Mead coefficients; as in Orio, the first three may be
        lists, and then every coefficient's point is measured (one batch) and the best kept;
        with batch_size > 1 (and one coefficient each), the reflection, expansion and both
        contractions of a step are measured as one batch, and the step decides as before;
      x0 (None): the first start as value indices, one per parameter (default: random);
      step (0.25): initial edge length as a share of each parameter's index range;
      edge_length (0): initial edge length in value indices, for every parameter (Orio's
        msimplex_size, also msimplex_edge_length); 0 = use `step`;
      local_distance (0): radius of the neighbour scan at convergence (Orio's MSimplex calls it
        search_distance).
    """

    name = "simplex"
    options = {"reflection_coef": 1.0, "expansion_coef": 2.0, "contraction_coef": 0.5,
               "shrinkage_coef": 0.5, "x0": None, "step": 0.25, "edge_length": 0, "local_distance": 0}
    # (Orio's msimplex.py reads `size`, the initial simplex's edge, as `msimplex_size`)
    option_aliases = {"search_distance": "local_distance", "size": "edge_length"}

    _LISTED = ("reflection_coef", "expansion_coef", "contraction_coef")

    @classmethod
    def _coerce(cls, raw: str, default, value):
        if isinstance(value, (list, tuple)) and any(raw.lower().endswith(n) for n in cls._LISTED):
            if not value:
                raise AnnotationError(f"option '{raw}' of searcher '{cls.name}' is an empty list",
                                      hint=f"give a number or a list of numbers, e.g. {default!r}")
            return tuple(super(SimplexSearcher, cls)._coerce(raw, default, v) for v in value)
        return super()._coerce(raw, default, value)

    def _coefs(self, name: str) -> tuple[float, ...]:
        v = self.opts[name]
        return tuple(v) if isinstance(v, (list, tuple)) else (v,)

    def _check_options(self) -> None:
        o = self.opts
        self._require(all(c > 0 for c in self._coefs("reflection_coef")), "reflection_coef",
                      "positive")
        self._require(all(c > 1 for c in self._coefs("expansion_coef")), "expansion_coef",
                      "greater than 1")
        self._require(all(0 < c < 1 for c in self._coefs("contraction_coef")),
                      "contraction_coef", "in (0, 1)")
        self._require(0 < o["shrinkage_coef"] < 1, "shrinkage_coef", "in (0, 1)")
        self._require(0 < o["step"] <= 1, "step", "in (0, 1]")
        self._require(o["edge_length"] >= 0, "edge_length", "0 or more")
        self._require(o["local_distance"] >= 0, "local_distance", "0 or more")
        x0 = o["x0"]
        if x0 is not None:
            ok = (isinstance(x0, (list, tuple)) and len(x0) == len(self.space.params)
                  and all(isinstance(c, int) and 0 <= c < s for c, s in zip(x0, self.space.sizes)))
            self._require(ok, "x0", f"{len(self.space.params)} value indices within range")

    def _run(self):
        space = self.space
        dims = [j for j, s in enumerate(space.sizes) if s > 1]
        if not dims:
            first = self._unrequested(1)
            if first:
                yield first
            return
        hi = np.array([space.sizes[j] - 1 for j in dims], dtype=float)
        full = [0] * len(space.sizes)

        def to_point(x):
            c = list(full)
            for j, v in zip(dims, np.clip(np.rint(x), 0, hi)):
                c[j] = int(v)
            return space.from_coords(c)

        def evaluate(xs):
            results = yield [to_point(x) for x in xs]
            return [self._log_cost(r) for r in results]

        x0 = self.opts["x0"]
        while True:
            if x0 is not None:
                full = list(x0)
                start = np.array([x0[j] for j in dims], dtype=float)
                x0 = None
            else:
                pts = self._unrequested(1)
                if not pts:
                    return
                full = list(space.coords(pts[0]))
                start = np.array([full[j] for j in dims], dtype=float)
            yield from self._descend(start, hi, evaluate, to_point)

    def _descend(self, start, hi, evaluate, to_point):
        o = self.opts
        d = len(start)
        verts = [start]
        for i in range(d):
            v = start.copy()
            step = float(o["edge_length"]) if o["edge_length"] else max(1.0, round(o["step"] * hi[i]))
            step = min(step, max(hi[i], 1.0))
            v[i] = v[i] + step if v[i] + step <= hi[i] else v[i] - step
            verts.append(np.clip(v, 0, hi))
        costs = yield from evaluate(verts)

        def best_of(origin, direction, option):
            xs = [_far(origin, c, direction) for c in self._coefs(option)]
            cs = yield from evaluate(xs)
            i = int(np.argmin(cs))
            return xs[i], cs[i]

        stall, best_seen = 0, min(costs)
        speculative = self.batch_size > 1 and all(len(self._coefs(n)) == 1 for n in self._LISTED)
        while stall < 2 * d + 2:
            order = np.argsort(costs, kind="stable")
            verts = [verts[i] for i in order]
            costs = [costs[i] for i in order]
            keys = {tuple(np.clip(np.rint(v), 0, hi)) for v in verts}
            if len(keys) == 1:
                break
            centroid = np.mean(verts[:-1], axis=0)
            ahead = {}
            if speculative:
                # in a batch, the points every outcome of the reflection goes on to are
                # measured with it, and the step below decides as one at a time would
                (rc,), (ec,), (cc_,) = (self._coefs(n) for n in self._LISTED)
                xr = _far(centroid, rc, centroid - verts[-1])
                xs = [xr, _far(centroid, ec, xr - centroid), _far(centroid, cc_, xr - centroid),
                      _far(centroid, cc_, verts[-1] - centroid)]
                cr, *rest = yield from evaluate(xs)
                ahead = dict(zip(("expansion", "outside", "inside"), zip(xs[1:], rest)))
            else:
                xr, cr = yield from best_of(centroid, centroid - verts[-1], "reflection_coef")
            if costs[0] <= cr < costs[-2]:
                verts[-1], costs[-1] = xr, cr
            elif cr < costs[0]:
                xe, ce = ahead.get("expansion") or (yield from best_of(centroid, xr - centroid, "expansion_coef"))
                verts[-1], costs[-1] = (xe, ce) if ce < cr else (xr, cr)
            else:
                outside = cr < costs[-1]
                xc, cc = ahead.get("outside" if outside else "inside") or \
                    (yield from best_of(centroid, (xr if outside else verts[-1]) - centroid, "contraction_coef"))
                if cc < min(cr, costs[-1]):
                    verts[-1], costs[-1] = xc, cc
                else:
                    verts = [verts[0]] + [verts[0] + o["shrinkage_coef"] * (v - verts[0])
                                          for v in verts[1:]]
                    costs = [costs[0]] + (yield from evaluate(verts[1:]))
            if min(costs) < best_seen:
                best_seen, stall = min(costs), 0
            else:
                stall += 1
        if o["local_distance"] > 0:
            best = verts[int(np.argmin(costs))]
            nbrs = self.space.neighbours(to_point(best), o["local_distance"])
            if nbrs:
                yield nbrs
        return None


def _far(origin, coef, direction):
    """origin + coef * direction, kept within +-1e12 index steps: every vertex past the space's
    edge is its edge point anyway, and large coefficients (1e300) would otherwise overflow to
    inf, whose differences are NaN coordinates."""
    with np.errstate(over="ignore", invalid="ignore"):
        x = origin + coef * direction
    return np.clip(np.nan_to_num(x, nan=0.0, posinf=_FAR, neginf=-_FAR), -_FAR, _FAR)


_FAR = 1e12


register_searcher(SimplexSearcher, "Simplex")
