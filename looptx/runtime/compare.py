"""Element types of the harness's data, and the comparison of a variant's results with the
original's (harness.py re-exports these names)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from looptx.errors import LooptxError

__all__ = ["Comparison", "compare", "compare_detail", "ctype_info", "default_rtol"]

# ctype -> (numpy dtype, ctypes type name, is_integer).  ctypes names are resolved in cpu.py so
# that this module stays free of ctypes.
_CTYPES: dict[str, tuple[str, str, bool]] = {
    "double": ("float64", "c_double", False),
    "float": ("float32", "c_float", False),
    "int": ("intc", "c_int", True),
    "signed int": ("intc", "c_int", True),
    "signed": ("intc", "c_int", True),
    "unsigned": ("uintc", "c_uint", True),
    "unsigned int": ("uintc", "c_uint", True),
    "long": ("int_", "c_long", True),
    "long int": ("int_", "c_long", True),
    "signed long": ("int_", "c_long", True),
    "unsigned long": ("uint", "c_ulong", True),
    "long long": ("longlong", "c_longlong", True),
    "long long int": ("longlong", "c_longlong", True),
    "unsigned long long": ("ulonglong", "c_ulonglong", True),
    "short": ("short", "c_short", True),
    "short int": ("short", "c_short", True),
    "unsigned short": ("ushort", "c_ushort", True),
    "char": ("byte", "c_byte", True),
    "signed char": ("byte", "c_byte", True),
    "unsigned char": ("ubyte", "c_ubyte", True),
    "int8_t": ("int8", "c_int8", True),
    "int16_t": ("int16", "c_int16", True),
    "int32_t": ("int32", "c_int32", True),
    "int64_t": ("int64", "c_int64", True),
    "uint8_t": ("uint8", "c_uint8", True),
    "uint16_t": ("uint16", "c_uint16", True),
    "uint32_t": ("uint32", "c_uint32", True),
    "uint64_t": ("uint64", "c_uint64", True),
    "size_t": ("uintp", "c_size_t", True),
    # one byte holding 0 or 1 (make_inputs draws no other value for it)
    "_Bool": ("uint8", "c_uint8", True),
    "long double": ("longdouble", "c_longdouble", False),
    # ctypes (before Python 3.14) passes no complex value: '' = by address (HarnessArg.by_address)
    "float _Complex": ("complex64", "", False),
    "double _Complex": ("complex128", "", False),
    "long double _Complex": ("clongdouble", "", False),
}

# Default tolerances of `compare` (norm-wise relative error, see compare_detail).
_RTOL = {"float64": 1e-10, "float32": 1e-4, "longdouble": 1e-13}


def ctype_info(ctype: str) -> tuple[np.dtype, str, bool]:
    """(numpy dtype, ctypes type name, integer?) of a C element type; LooptxError if unknown."""
    words = _canonical(ctype.replace("const", " ").replace("volatile", " ").split())
    # C lets _Complex stand anywhere among the type's words (`_Complex double`)
    key = " ".join([w for w in words if w != "_Complex"] + ["_Complex"] * ("_Complex" in words))
    if key not in _CTYPES:
        raise LooptxError(f"the run harness does not support element type '{ctype}'",
                          hint="use an integer type, float, double, long double or their _Complex")
    dt, ct, is_int = _CTYPES[key]
    return np.dtype(dt), ct, is_int


_INT_WORDS = {"signed", "unsigned", "short", "long", "int", "char"}


def _canonical(words: list[str]) -> list[str]:
    """C's integer type names in any order of their words (`long unsigned int`, `unsigned
    short int`, `short unsigned`) as the table spells them; `bool` as `_Bool`."""
    if words in (["bool"], ["_Bool"]):
        return ["_Bool"]
    if not words or not set(words) <= _INT_WORDS:
        return words
    sign = ["unsigned"] if "unsigned" in words else ["signed"] if "signed" in words and "char" in words else []
    if "char" in words:
        return sign + ["char"]
    size = ["short"] if "short" in words else ["long"] * min(words.count("long"), 2)
    if not size:
        return sign or ["int"]
    return sign + size

def default_rtol(ctype: str) -> float:
    """1e-10 for double, 1e-4 for float, 1e-13 for long double (the parts' type for a
    complex one), 0 (exact) for integer types."""
    dt, _, is_int = ctype_info(ctype)
    return 0.0 if is_int else _RTOL.get(_part_dtype(dt).name, 1e-10)


def _part_dtype(dt: np.dtype) -> np.dtype:
    """The real type of a complex type's parts; other types unchanged."""
    return np.empty(0, dtype=dt).real.dtype


# ------------------------------------------------------------------ validation

@dataclass(frozen=True)
class Comparison:
    ok: bool
    norm_rel_error: float          # max|x - r| / max|r| over finite reference elements: decides
    max_elem_rel_error: float      # max |x_i - r_i| / |r_i| (diagnostic only)
    rtol: float
    bad_elements: int              # elements whose error exceeds rtol * max|r| (or non-finite)
    first_bad: tuple[int, ...] | None = None
    # reference elements that are NaN/Inf: compared by kind only, they prove nothing
    not_compared: int = 0
    kind_mismatch: bool = False    # failed on NaN/Inf where the reference differs
    size: int = 0                  # elements of the reference

    @property
    def compared(self) -> int:
        """How many elements were compared by value (finite in the reference)."""
        return self.size - self.not_compared

    def describe(self, name: str) -> str:
        where = f" first at {list(self.first_bad)}" if self.first_bad is not None else ""
        skipped = (f"; {self.not_compared} of {self.size} reference element(s) are NaN/Inf"
                   if self.not_compared else "")
        if self.kind_mismatch:
            return (f"'{name}': {self.bad_elements} element(s) NaN/Inf where the reference is "
                    f"not, or of another kind (NaN, +Inf, -Inf){where}{skipped}")
        return (f"'{name}': {self.bad_elements} wrong element(s){where}, relative error "
                f"{self.norm_rel_error:.3g} > {self.rtol:.3g}{skipped}")


def compare_detail(reference, result, ctype: str, rtol: float | None = None) -> Comparison:
    """Compare a result with the reference, in float64 (long double: in long double; complex:
    its real and imaginary parts, both against the largest part of the reference).

    Decision: the *norm-wise* relative error max_i |x_i - r_i| / max_i |r_i| must not exceed
    rtol (defaults: double 1e-10, float 1e-4, integers 0 = exact).  Norm-wise because a legal
    reordering of a sum changes an element by a few ulps of the *terms* summed, which can be a
    large fraction of an element that cancels to nearly zero; an element-wise test would flag
    such correct variants, while real bugs (a lost or doubled term) move elements by a term's
    magnitude, far above the tolerance.  The element-wise maximum is reported for diagnosis.
    Non-finite values: where the reference is finite the result must be finite (NaN/Inf never
    pass); where the reference is NaN/+Inf/-Inf the result must be the same, which proves
    nothing (`not_compared` counts those elements; runtime/reference.py decides what such a
    reference can validate).  An all-zero reference makes the error absolute."""
    dt, _, is_int = ctype_info(ctype)
    tol = default_rtol(ctype) if rtol is None else float(rtol)
    r = np.asarray(reference)
    x = np.asarray(result)
    if r.shape != x.shape:
        return Comparison(False, float("inf"), float("inf"), tol, max(r.size, x.size))
    if is_int and tol == 0.0:
        diff_mask = r != x
        nbad = int(np.count_nonzero(diff_mask))
        r64, x64 = r.astype(np.float64), x.astype(np.float64)
        scale = float(np.max(np.abs(r64))) if r.size else 0.0
        err = float(np.max(np.abs(x64 - r64))) / (scale or 1.0) if nbad else 0.0
        el = _elementwise(r64, x64) if nbad else 0.0
        return Comparison(nbad == 0, err, el, tol, nbad, _first(diff_mask) if nbad else None,
                          size=int(r.size))
    parts = dt.kind == "c"
    if parts:
        # a trailing axis of (real, imaginary): an element is bad where either part is
        r, x = np.stack([r.real, r.imag], axis=-1), np.stack([x.real, x.imag], axis=-1)

    def per_element(mask):
        return mask.any(axis=-1) if parts else mask
    wide = np.longdouble if _part_dtype(dt) == np.longdouble else np.float64
    r64, x64 = r.astype(wide), x.astype(wide)
    fin = np.isfinite(r64)
    # Same non-finite class where the reference is not finite (NaN matches NaN, Inf its sign).
    nonfin_bad = ~fin & ~((np.isnan(r64) & np.isnan(x64)) | (r64 == x64))
    lost = fin & ~np.isfinite(x64)
    bad_special = per_element(nonfin_bad | lost)
    skipped = int(np.count_nonzero(per_element(~fin)))
    counts = dict(not_compared=skipped, size=int(r.size // 2 if parts else r.size))
    if np.any(bad_special):
        return Comparison(False, float("inf"), float("inf"), tol,
                          int(np.count_nonzero(bad_special)), _first(bad_special),
                          kind_mismatch=True, **counts)
    if not np.any(fin):
        return Comparison(True, 0.0, 0.0, tol, 0, **counts)
    rf = np.where(fin, r64, 0.0)
    xf = np.where(fin, x64, 0.0)
    diff = np.abs(xf - rf)
    scale = float(np.max(np.abs(rf))) or 1.0
    err = float(np.max(diff)) / scale
    bad = per_element(diff > tol * scale)
    nbad = int(np.count_nonzero(bad))
    ok = err <= tol
    return Comparison(ok, err, _elementwise(rf, xf), tol, nbad, _first(bad) if nbad else None,
                      **counts)


def compare(reference, result, ctype: str, rtol: float | None = None) -> tuple[bool, float]:
    """(ok, relative error) of `result` against `reference`; see compare_detail."""
    c = compare_detail(reference, result, ctype, rtol)
    return c.ok, c.norm_rel_error


def _elementwise(r: np.ndarray, x: np.ndarray) -> float:
    d = np.abs(x - r)
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = np.where(r != 0, d / np.abs(np.where(r != 0, r, 1.0)), np.where(d != 0, np.inf, 0.0))
    return float(np.max(rel)) if rel.size else 0.0


def _first(mask: np.ndarray) -> tuple[int, ...] | None:
    idx = np.argwhere(mask)
    return tuple(int(i) for i in idx[0]) if idx.size else (() if mask.shape == () and bool(mask) else None)
