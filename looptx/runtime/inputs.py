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
            # a _Bool holds 0 or 1 only: another value in its byte is undefined behaviour
            v = rng.integers(*((0, 2) if _is_bool(a.ctype) else (1, 10)), size=a.shape, dtype=np.int64).astype(dt)
        elif dt.kind == "c":
            v = rng.uniform(0.5, 1.5, size=a.shape + (2,))
            v = (v[..., 0] + 1j * v[..., 1]).astype(dt)
        else:
            v = rng.uniform(0.5, 1.5, size=a.shape).astype(dt)
        out[a.name] = np.ascontiguousarray(v) if a.shape else np.array(v, dtype=dt)
    return out


def fits_in_memory(sig, spec=None) -> None:
    """The arrays of the harness at these sizes, a few times over (the inputs, the reference's
    outputs, the variant's), must fit in the memory the machine has free: numpy's MemoryError
    after a build says nothing of the sizes that caused it."""
    if not isinstance(sig, RegionSignature):
        return
    need = sum(int(np.prod(a.shape, dtype=object)) * ctype_info(a.ctype)[0].itemsize for a in sig.data_args)
    try:
        with open("/proc/meminfo") as f:
            free = next(int(x.split()[1]) * 1024 for x in f if x.startswith("MemAvailable:"))
    except (OSError, StopIteration, ValueError):
        return
    if 3 * need > free:
        from looptx.errors import LooptxError
        sizes = ", ".join(f"{k}={v}" for k, v in sig.values)
        # (a search's sizes are its input_params: the error is at the first of them)
        at = next((dict(file=p.file or spec.file, line=p.line, col=p.col) for p in spec.input_params), {}) \
            if spec is not None else {}
        raise LooptxError(f"the region's arrays take {need / 2 ** 30:.1f} GiB at {sizes or 'these sizes'}; "
                          f"the harness holds about three copies and {free / 2 ** 30:.1f} GiB are free",
                          hint="give smaller sizes (-D NAME=VALUE, or the annotation's input_params)", **at)


def _is_bool(ctype: str) -> bool:
    return bool({"_Bool", "bool"} & set(ctype.split()))


_NO_DIVISION = {"min", "max", "fmin", "fmax", "fminf", "fmaxf", "abs", "labs", "fabs", "fabsf"}


_TESTS = {"==", "!=", "<", "<=", ">", ">=", "&&", "||"}


def zero_uses(scop) -> tuple[set[str], set[str]]:
    """(arrays whose elements the region may divide by (`x / d[i]`, `k %= m[j]`) or passes to
    a function that might, where data set 3's zeros would trap (integer division by zero);
    arrays it tests (`a[i] == 1`, `r[i][k] && r[k][j]`, `!m[i]`), whose 0s decide branches)."""
    from looptx import ir
    divided: set[str] = set()
    tested: set[str] = set()

    def arrays(e) -> set[str]:
        return {x.array for x in ir.walk(e) if isinstance(x, ir.Ref)}
    for st in scop.statements:
        body = st.body
        if isinstance(body, ir.Assign) and body.op in ("/=", "%="):
            divided |= arrays(body.rhs)
        for e in ir.walk(body):
            if isinstance(e, ir.Bin) and e.op in ("/", "%"):
                divided |= arrays(e.b)
            elif isinstance(e, ir.Call) and e.fn not in _NO_DIVISION:
                divided |= {n for a in e.args for n in arrays(a)}
            elif isinstance(e, ir.Bin) and e.op in _TESTS or isinstance(e, ir.Un) and e.op == "!":
                tested |= arrays(e)
            elif isinstance(e, ir.Cond):
                tested |= arrays(e.c)
    return divided, tested


def boolean_inputs(sig: RegionSignature, seed: int, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray] | None:
    """Data set 3: `inputs` with each integer array that may hold 0 (HarnessArg.zeros) drawn
    from 0/1, a quarter of them 1, so that `a && b`, `count == 3` and `x < y` go both ways (on
    1..9 a transitive closure or a game of life is one value everywhere, whatever the loop
    order); None where no array may."""
    out = dict(inputs)
    changed = False
    for a in sig.data_args:
        if not a.zeros or not a.shape or a.index_range is not None or a.values is not None:
            continue
        rng = np.random.default_rng([int(seed) & 0xFFFFFFFF, zlib.crc32(a.name.encode()), 3])
        v = (rng.random(size=a.shape) < 0.25).astype(out[a.name].dtype)
        out[a.name] = np.ascontiguousarray(v)
        changed = True
    return out if changed else None


def uninformative(sig: RegionSignature, outputs) -> bool:
    """Data set 0 cannot tell a right variant from a wrong one: the region tests an integer
    array that data set 3 may give zeros (on 1..9 every test goes one way), or every integer
    result is one value everywhere."""
    if any(a.zeros == "tested" and a.index_range is None and a.values is None for a in sig.data_args):
        return True
    ints = [np.asarray(outputs[a.name]) for a in sig.data_args
            if a.name in sig.results and a.shape and a.name in outputs and ctype_info(a.ctype)[2]]
    return bool(ints) and all(v.size > 1 and (v == v.reshape(-1)[0]).all() for v in ints)


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
