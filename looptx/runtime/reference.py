"""The reference run's input data, and what a reference output with NaN or Inf can prove.

    ref = choose_reference(sig, seed, run)          # run(inputs) -> outputs of the original
    ref.validatable                                 # False: some result is NaN/Inf on every data set
    unvalidated_text(ref, comparisons)              # the one-line reason a run is not ok

The inputs are always finite, so a NaN or Inf in the original's output comes from the kernel
itself (sqrt of a negative number, a zero pivot).  Such an element validates nothing: NaN
"equals" NaN whatever a variant computes, and NaN spreads, so an illegal variant of a
factorization fed non-SPD random data compares equal everywhere (Kernel Tuner likewise refuses a
reference answer it cannot compare).  The original therefore runs on up to three data sets and the
first whose results are all finite is used:

  0  uniform [0.5, 1.5), integers 1..9 (`harness.make_inputs`): what every kernel with finite
     outputs has always been validated on, so those are unaffected;
  1  uniform [1, 2) and, in every square 2-D floating array, a diagonal above the sum of its
     row: factorizations without pivoting (Cholesky, LU, Gauss-Seidel sweeps) stay finite;
  2  data set 0 with index arrays that never name their iteration's own element (gathers.py:
     MachSuite md's neighbour list, whose self-pair divides by a distance of 0); tried only
     where some index array can name it;
  3  data set 0 with the integer arrays the region does not divide by drawn from 0/1: used in
     place of data set 0, where its results are finite, when the region tests such an array
     (`r[i][k] && r[k][j]`, `cur[i][j] == 1`) or every integer result is one value on data set
     0: on 1..9 a transitive closure is all true and a game of life's counts all above 3, so
     any loop order gives the same.

When every data set leaves NaN/Inf in a result, the one with the fewest is used: a variant whose
finite elements differ, or whose NaN/Inf sit elsewhere or are of another kind, is still a wrong
result, but one that agrees is never ok, only 'unvalidated'.

A region that reads data but whose every result is one value in all its elements (an int8 kernel
clamped to [act_min, act_max] = [7, 4] by the seeded scalars, a requantization by multipliers of
1..9 that rounds every sum to 0, a branch on the sign of positive data) proves little: any order
of its loops writes the same value.  The other data sets are tried; where every one gives one
value, the comparison only shows which elements are written.  Under --unsafe, where the
comparison is the only check of a step, that is 'unvalidated'; otherwise the dependences
already proved the step and the run says so in a warning.  A region that reads nothing
(zeroing an array) is compared as it is.
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass, replace
from typing import Callable, Mapping, Sequence

import numpy as np

from looptx.runtime.harness import RegionSignature, ctype_info, make_inputs
from looptx.runtime.inputs import boolean_inputs, uninformative, without_own

__all__ = ["DATASETS", "NonFinite", "Reference", "choose_reference", "dataset_inputs", "constant_results",
           "nonfinite_of", "unvalidated_text", "unvalidated_hint", "constant_text", "CONSTANT_HINT", "split_defines", "integer_sizes"]

DATASETS = ("uniform [0.5,1.5)", "uniform [1,2) with a dominant diagonal",
            "uniform [0.5,1.5) with index arrays that avoid the element itself",
            "uniform [0.5,1.5) with integers in 0/1")


def dataset_inputs(sig: RegionSignature, seed: int, dataset: int) -> dict[str, np.ndarray]:
    """The seeded inputs of data set `dataset` (see the module text)."""
    if dataset == 0:
        return make_inputs(sig, seed)
    if dataset == 2:
        return without_own(sig, make_inputs(sig, seed))
    if dataset == 3:
        return boolean_inputs(sig, seed, make_inputs(sig, seed)) or make_inputs(sig, seed)
    out = make_inputs(sig, seed)           # integers (and the dtypes) as in data set 0
    for a in sig.data_args:
        dt, _, is_int = ctype_info(a.ctype)
        if is_int:
            continue
        # a stream of its own: the values must not be data set 0's shifted by 0.5
        rng = np.random.default_rng([int(seed) & 0xFFFFFFFF, zlib.crc32(a.name.encode()), dataset])
        if dt.kind == "c":
            v = rng.uniform(1.0, 2.0, size=a.shape + (2,))
            v = v[..., 0] + 1j * v[..., 1]
        else:
            v = rng.uniform(1.0, 2.0, size=a.shape)
        if len(a.shape) == 2 and a.shape[0] == a.shape[1]:
            # |off-diagonal| < 2*sqrt(2) (complex), so +3n dominates any row or column sum
            v[np.diag_indices(a.shape[0])] += 3.0 * a.shape[0]
        elif len(a.shape) == 1 and a.row and a.shape[0] == a.row * a.row:
            # the same matrix stored flat (`A[i*n + j]` on `double *A`)
            v[::a.row + 1] += 3.0 * a.row
        v = np.asarray(v).astype(dt)
        out[a.name] = np.ascontiguousarray(v) if a.shape else np.array(v, dtype=dt)
    return out


@dataclass(frozen=True)
class NonFinite:
    """How many elements of one result are NaN, +Inf and -Inf (complex: either part)."""

    name: str
    nan: int
    posinf: int
    neginf: int
    size: int

    @property
    def count(self) -> int:
        return self.nan + self.posinf + self.neginf

    def describe(self) -> str:
        kinds = [(n, k) for n, k in ((self.nan, "NaN"), (self.posinf, "+Inf"),
                                     (self.neginf, "-Inf")) if n]
        if len(kinds) == 1:
            return f"'{self.name}' is {kinds[0][1]} in {self.count} of its {self.size} elements"
        split = ", ".join(f"{n} {k}" for n, k in kinds)
        return f"'{self.name}' is NaN or Inf in {self.count} of its {self.size} elements ({split})"


def nonfinite_of(sig: RegionSignature, outputs: Mapping[str, np.ndarray]) -> tuple[NonFinite, ...]:
    """The results (`sig.results`) that hold NaN or Inf; () when all are finite (the usual case,
    one isfinite pass per floating result)."""
    out = []
    for name in sig.results:
        if name not in outputs:
            continue
        v = np.asarray(outputs[name])
        if v.dtype.kind not in "fc" or np.isfinite(v).all():
            continue
        parts = (v.real, v.imag) if v.dtype.kind == "c" else (v,)
        nan = np.zeros(v.shape, dtype=bool)
        pos = np.zeros(v.shape, dtype=bool)
        neg = np.zeros(v.shape, dtype=bool)
        for p in parts:
            nan |= np.isnan(p)
            pos |= np.isposinf(p)
            neg |= np.isneginf(p)
        pos &= ~nan
        neg &= ~(nan | pos)
        out.append(NonFinite(name, int(nan.sum()), int(pos.sum()), int(neg.sum()), int(v.size)))
    return tuple(out)


@dataclass(frozen=True)
class Reference:
    """The original region's outputs on the data set chosen to validate variants with."""

    inputs: dict
    outputs: dict
    dataset: int = 0
    nonfinite: tuple[NonFinite, ...] = ()
    tried: tuple[int, ...] = (0,)
    constant: tuple[tuple[str, str], ...] = ()    # (result, its one value) where all are one value

    @property
    def validatable(self) -> bool:
        return not self.nonfinite

    def proves(self, unsafe: bool) -> bool:
        """Whether a variant that agrees is validated: never against NaN/Inf, and not against
        results of one value where only the comparison checks the steps (--unsafe)."""
        return self.validatable and not (unsafe and self.constant)


def constant_results(sig: RegionSignature, outputs: Mapping[str, np.ndarray]) -> tuple[tuple[str, str], ...]:
    """(name, value) of each result when the region reads data and every result is an array of
    one value; () otherwise.  A scalar result (a sum) depends on every term, so it decides."""
    if not sig.read_only:
        return ()
    out = []
    for name in sig.results:
        v = np.asarray(outputs.get(name))
        if v.ndim == 0 or v.size <= 1:
            return ()
        first = v.reshape(-1)[0]
        if not (v == first).all():
            return ()
        out.append((name, f"{first.item():g}" if v.dtype.kind == "f" else str(first.item())))
    return tuple(out)


def choose_reference(sig: RegionSignature, seed: int,
                     run: Callable[[dict], Mapping[str, np.ndarray]],
                     datasets: Sequence[int] | None = None) -> Reference:
    """The first data set (of `datasets`, default all) whose results are finite, else the one
    with the fewest NaN/Inf (the first of equals)."""
    order = ((0, 1) + ((2,) if any(a.own for a in sig.data_args) else ())) if datasets is None \
        else tuple(datasets)
    best = None
    constant = None          # the first finite data set, where every result is one value
    for k, d in enumerate(order):
        inputs = dataset_inputs(sig, seed, d)
        outputs = dict(run(inputs))
        bad = nonfinite_of(sig, outputs)
        ref = Reference(inputs, outputs, d, bad, order[:k + 1])
        if not bad and d == 0 and datasets is None and uninformative(sig, outputs):
            ones = boolean_inputs(sig, seed, inputs)
            if ones is not None:
                outputs = dict(run(ones))
                if not nonfinite_of(sig, outputs):
                    ref = Reference(ones, outputs, 3, (), (0, 3))
                    if datasets is not None or not constant_results(sig, outputs):
                        return ref
        if not bad and (datasets is not None or not constant_results(sig, ref.outputs)):
            return ref
        if not bad:
            constant = constant or ref
            continue
        if best is None or sum(b.count for b in bad) < sum(b.count for b in best.nonfinite):
            best = ref
    tried = tuple(dict.fromkeys(order[:1] + ((3,) if constant and constant.dataset == 3 else ()) + order[1:]))
    if constant is not None:
        return replace(constant, tried=tried, constant=constant_results(sig, constant.outputs))
    return Reference(best.inputs, best.outputs, best.dataset, best.nonfinite, order)


def constant_text(ref: Reference) -> str:
    sets = "; ".join(DATASETS[d] for d in ref.tried)
    what = ", ".join(f"'{n}' is {v}" for n, v in ref.constant)
    return (f"every element of the original's results is one value ({what}) on every input data set "
            f"tried ({sets}): the comparison shows only which elements are written, not that the "
            "variant computes them alike")


def unvalidated_text(ref: Reference, agreeing: int | None = None) -> str:
    """Why a variant that matches the reference is not validated (one line).  `agreeing`: how
    many finite result elements the variant matched, if it ran."""
    sets = "; ".join(DATASETS[d] for d in ref.tried)
    if ref.constant and not ref.nonfinite:
        return constant_text(ref) + "; with --unsafe nothing else checks the steps"
    what = ", ".join(b.describe() for b in ref.nonfinite)
    why = "NaN matches NaN" if "NaN" in what else "an infinity matches one of its sign"
    text = (f"the original's output {what} on every input data set tried ({sets}); {why} "
            "whatever the code computes, so the result cannot be validated")
    if agreeing:
        text += f" (its {agreeing} finite element(s) agree)"
    return text


UNVALIDATED_HINT = ("make the region's outputs finite for positive inputs, or check the variant "
                    "in your own driver with inputs that keep them finite, such as an SPD matrix")
CONSTANT_HINT = ("give the scalars the region only reads values under which its results vary "
                 "(--define NAME=VALUE: a clamp's bounds, a requantization's multiplier and shift), "
                 "or check the variant in your own driver with realistic data")


def unvalidated_hint(ref: Reference) -> str:
    return CONSTANT_HINT if ref.constant and not ref.nonfinite else UNVALIDATED_HINT


# ------------------------------------------------------------------ -D values of `looptx run`

def split_defines(path: str, defines: Mapping[str, object] | None) -> tuple[dict[str, int], dict[str, str]]:
    """(sizes, performance-param picks) of --define values, as `looptx transform` takes them: an
    integer anywhere, any other spelling (True, 'ij', -O3) only for a performance param."""
    from looptx.frontend.defines import define_value
    sizes, picks = {}, {}
    perf: dict = {}
    for name, v in dict(defines or {}).items():
        value = define_value(path, str(name), int(v) if isinstance(v, np.integer) else v, perf)
        if isinstance(value, int):
            sizes[str(name)] = value
        else:
            picks[str(name)] = value
    return sizes, picks


def integer_sizes(defines: Mapping[str, object] | None) -> dict[str, int]:
    """The integer --define values: a performance param's pick (True, 'ij') is no size."""
    out = {}
    for k, v in dict(defines or {}).items():
        try:
            out[str(k)] = int(v) if isinstance(v, (int, np.integer)) else int(str(v), 0)
        except ValueError:
            continue
    return out
