"""Reads through index arrays as the frontend meets them (`x[cols[k]]`, SHOC MD's `jidx =
neighList[..]; ... posx[jidx]`): what the region writes and with which values, which
non-affine subscripts are such reads, and what to say of a loop bounded by array data, which
has no model."""
from __future__ import annotations

from pycparser import c_ast

from looptx.frontend.affine import NonAffine
from looptx.frontend.symbols import sum_terms


def through_index(e: NonAffine, assigned: dict[str, list]) -> bool:
    """Whether a subscript is non-affine only for reading an integer array element, or an
    integer the region sets only from one (`assigned`: the values of each of its writes,
    None for one that is no plain `=`)."""
    if e.what.startswith("non-affine: array element"):
        return True
    return "is written inside the region and used in" in e.what and isinstance(e.node, c_ast.ID) \
        and all(v is not None and _element_load(v) for v in assigned.get(e.node.name, [None]))


_BYTE_TYPES = {"unsigned char", "uint8_t"}


def masked_bound(node) -> int | None:
    """How many values a subscript can have by its form alone: `x & 0xff` (a mask 2^k - 1)
    holds 0..255 and `(unsigned char) x` too, whatever x (CRC-32's `crc_table[(c ^ buf[n]) &
    0xff]`); None for any other form."""
    if isinstance(node, c_ast.BinaryOp) and node.op == "&":
        for k in (node.right, node.left):
            if isinstance(k, c_ast.Constant) and k.type in ("int", "unsigned int", "long int", "unsigned long int"):
                try:
                    mask = int(k.value.rstrip("uUlL"), 0)
                except ValueError:
                    return None
                return mask + 1 if mask >= 0 and mask & (mask + 1) == 0 else None
    if isinstance(node, c_ast.Cast) and isinstance(node.to_type.type, c_ast.TypeDecl) \
            and isinstance(node.to_type.type.type, c_ast.IdentifierType) \
            and " ".join(node.to_type.type.type.names) in _BYTE_TYPES:
        return 256
    return None


def write_of(node) -> tuple[str, list] | None:
    """(the variable or array an assignment, ++/-- or declaration writes, [the value written])
    with None for a value that is no plain `=` and [] for a declaration without one."""
    if isinstance(node, c_ast.Decl) and node.name:
        return node.name, [] if node.init is None else [node.init]
    if isinstance(node, c_ast.Assignment):
        target = node.lvalue
    elif isinstance(node, c_ast.UnaryOp) and node.op in ("p++", "++", "p--", "--"):
        target = node.expr
    else:
        return None
    base = target
    while isinstance(base, c_ast.ArrayRef):
        base = base.name
    if not isinstance(base, c_ast.ID):
        return None
    plain = isinstance(node, c_ast.Assignment) and node.op == "=" and base is target
    return base.name, [node.rvalue if plain else None]


def _element_load(value) -> bool:
    """`idx[k]`, `idx[k] + c`, `idx[k] - c`: a value an index array holds (through a cast,
    libjpeg's GETJSAMPLE `((int) (inptr[col]))`); also `i + idx[k]` (PETSc's DIA `col = i +
    offsets[j]`) where frontend/temporaries.py cannot write it into its uses: the harness
    takes a read through it only under a guard that bounds it (runtime/gathers.py)."""
    while isinstance(value, c_ast.Cast):
        value = value.expr
    if isinstance(value, c_ast.BinaryOp) and value.op in ("+", "-") and isinstance(value.right, c_ast.Constant):
        value = value.left
    while isinstance(value, c_ast.Cast):
        value = value.expr
    return isinstance(value, c_ast.ArrayRef) or _offset_element(value)


def _offset_element(value) -> bool:
    """A sum of names and integer constants with one element read among its terms."""
    terms = sum_terms(value)
    loads = [t for t in terms if isinstance(t, c_ast.ArrayRef)]
    return len(loads) == 1 and all(t is loads[0] or isinstance(t, c_ast.ID)
                                   or isinstance(t, c_ast.Constant) and t.type == "int" for t in terms)


def data_bound_hint(it: str) -> str:
    return (f"a loop bounded by array data (CSR's `for ({it} = rowptr[i]; {it} < rowptr[i + 1]; {it}++)`) "
            "has no polyhedral model: store the rows padded to one length (ELL, `for (k = 0; k < width; k++) "
            "... x[cols[i * width + k]]`, which looptx transforms), or leave this loop out of the region")
