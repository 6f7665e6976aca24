"""Which pointer parameters of the region's function point to const data, as its definition
spells them (`const double *A`, `double const A[][N]`): the .cu's host function keeps those
qualifiers, so a caller holding the original prototype's `const T *` passes it unchanged (C++
refuses `const T *` -> `T *`).  The model keeps no qualifiers (a const array is one the region
only reads); the frontend records them from the definition's declarators (Scop.const_params)."""
from __future__ import annotations

from looptx.frontend.names import to_user


def const_parameters(scop) -> set[str]:
    """Model names of the array parameters whose elements the definition declares const."""
    if not scop.function:
        return set()
    const = set(scop.const_params)
    return {a.name for a in scop.arrays if to_user(a.name) in const}
