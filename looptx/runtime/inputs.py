"""The seeded input data of a region's harness (runtime/harness.py)."""
from __future__ import annotations

import zlib

import numpy as np

from looptx.runtime.harness import RegionSignature, ctype_info


def make_inputs(sig: RegionSignature, seed: int = 0) -> dict[str, np.ndarray]:
    """Seeded values for every array and scalar argument, never zero (a missed write or a lost
    product term changes the result): floats uniform in [0.5, 1.5), integers in 1..9.

    Each name draws from its own stream (seed, crc32(name)), so an argument's values do not
    depend on which other arguments the region has.  Scalars are 0-d arrays."""
    out = {}
    for a in sig.data_args:
        dt, _, is_int = ctype_info(a.ctype)
        rng = np.random.default_rng([int(seed) & 0xFFFFFFFF, zlib.crc32(a.name.encode())])
        if a.values is not None:
            v = np.zeros(a.shape, dtype=np.int64)
            flat = v.reshape(-1)
            flat[:min(len(a.values), flat.size)] = a.values[:flat.size]
            v = v.astype(dt)
        elif is_int and a.index_range is not None:
            v = rng.integers(*a.index_range, size=a.shape, dtype=np.int64).astype(dt)
        elif is_int:
            v = rng.integers(1, 10, size=a.shape, dtype=np.int64).astype(dt)
        elif dt.kind == "c":
            v = rng.uniform(0.5, 1.5, size=a.shape + (2,))
            v = (v[..., 0] + 1j * v[..., 1]).astype(dt)
        else:
            v = rng.uniform(0.5, 1.5, size=a.shape).astype(dt)
        out[a.name] = np.ascontiguousarray(v) if a.shape else np.array(v, dtype=dt)
    return out


def without_own(sig: RegionSignature, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """`inputs` with each index array that can name its iteration's own element (HarnessArg.own:
    an atom among its own neighbours) holding another there: the next value in its range, so
    the data stay data set 0's wherever they already avoid it."""
    out = dict(inputs)
    for a in sig.data_args:
        if not a.own or a.index_range is None:
            continue
        lo, hi = a.index_range
        v = np.array(out[a.name], dtype=np.int64).reshape(-1)
        forbidden = []
        for dim, ndim, offset in a.own:
            if len(a.shape) == ndim:
                coord = np.indices(a.shape)[dim].reshape(-1)
            elif len(a.shape) == 1 and ndim == 2 and a.row:
                coord = np.arange(a.shape[0]) // a.row if dim == 0 else np.arange(a.shape[0]) % a.row
            else:
                continue        # a layout the harness does not split into the model's rows
            forbidden.append(coord - offset)
        if not forbidden or hi - lo <= len(forbidden):
            continue
        for _ in range(len(forbidden) + 1):
            bad = np.zeros(v.shape, dtype=bool)
            for f in forbidden:
                bad |= v == f
            if not bad.any():
                break
            v[bad] = lo + (v[bad] - lo + 1) % (hi - lo)
        out[a.name] = np.ascontiguousarray(v.reshape(a.shape).astype(out[a.name].dtype))
    return out
