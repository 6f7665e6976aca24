"""A marked region as a callable C function, its seeded inputs, and output validation.

    sig = RegionSignature.from_scop(scop, program.int_macros, sizes)
    text = region_source(sig, c_block(variant))          # void lx_region(...) in one C file
    inputs = make_inputs(sig, seed=0)                      # name -> numpy array (C order)
    ok, err = compare(reference["C"], result["C"], "double")

The function's parameters, in order: every size parameter that is not fixed (`int NAME`), then
every array and scalar the region touches that it does not declare itself, in the Scop's order.
Arrays are C99 VLA parameters with their declared extents, in which every size except the free
parameters is replaced by its value (`double A[restrict NI][64]` when NI is free and NK = 64), so
the region's own subscripts work unchanged and fixed extents are compile-time constants.
Scalars the region writes travel by pointer (`double *restrict lx_io_sum`): they are loaded into
a local of the region's own name on entry and stored back on exit, so the block is pasted
verbatim; read-only scalars travel by value.  Fixed parameters and int macros of the program that
the block mentions are `#define`d, exactly as `-DNAME=VALUE` would make them in the user's file
(sizes that are no name of the program are never #defined: they could be an iterator's name).

Every size comes from, in order: the Scop's fixed values (the program was analysed with them),
the caller's `sizes`, then the program's `#define NAME <int>` macros (the `#ifndef N / #define N
32` defaults of a benchmark file).  A size that none of them gives is bad input (LooptxError with
a `--define NAME=VALUE` hint).  Extents are evaluated as C integer expressions over non-negative
values by a small tree walker (never eval()).
"""
from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from looptx.codegen.c import helper_block, used_helpers
from looptx.codegen.typed_constants import typed_constant
from looptx.runtime.gathers import gather_plan, spread
from looptx.errors import LooptxError, note_once
from looptx.runtime.extents import eval_extent
from looptx.runtime.compare import Comparison, compare, compare_detail, ctype_info, default_rtol
from looptx.frontend.regions import locate_name

__all__ = ["HarnessArg", "RegionSignature", "region_source", "compare",
           "compare_detail", "Comparison", "default_rtol", "ctype_info", "eval_extent"]

_IDENT = re.compile(r"\b[A-Za-z_]\w*\b")

# ------------------------------------------------------------------ the signature

@dataclass(frozen=True)
class HarnessArg:
    """One parameter of the region function."""

    name: str                      # the region's own name for it
    kind: str                      # 'size' | 'array' | 'scalar_in' | 'scalar_out'
    ctype: str                     # 'int' for sizes
    dims: tuple[str, ...] = ()     # declared extents (C text), arrays only
    shape: tuple[int, ...] = ()    # evaluated extents; () for scalars and sizes
    value: int | None = None       # sizes only
    out: bool = False              # written by the region
    c_dims: tuple[str, ...] = ()   # extents as written in the signature (see from_scop)
    # its final value is compared with the original's (not for a local of the function that
    # is dead after the region: a variant may have privatized it)
    result: bool = True
    # a member of an array of structs (frontend/records.Record): the function takes the struct
    # array once, at its first member's place, and this argument is a view of that member
    record: object = None
    # integers only: [lowest, highest + 1) of the values, for an index array (runtime/gathers.py)
    index_range: tuple[int, int] | None = None
    # an index array's (dim, ndim, offset) whose own element data set 2 avoids (gathers.py)
    own: tuple[tuple[int, int, int], ...] = ()
    # a flat array the model reads in rows (`A[i*n + j]`): the row length at these sizes
    row: int | None = None
    # a constant table of the file (frontend/tables.py): its values, not random ones
    values: tuple[int, ...] | None = None
    # integers: 'may' where the region never divides by it, so data set 3 may give it zeros,
    # 'tested' where it also tests it (`a[i] == 1`, `r[i][k] && r[k][j]`); see inputs.py
    zeros: str = ""

    @property
    def written(self) -> bool:
        return self.out

    @property
    def is_data(self) -> bool:
        return self.kind != "size"

    @property
    def by_address(self) -> bool:
        """A read-only scalar passed by address: ctypes has no complex value to pass."""
        return self.kind == "scalar_in" and not ctype_info(self.ctype)[1]

    @property
    def c_name(self) -> str:
        """The name of the function parameter (written scalars get a pointer of their own)."""
        if self.by_address:
            return f"lx_in_{self.name}"
        return f"lx_io_{self.name}" if self.kind == "scalar_out" else self.name

    def c_param(self) -> str:
        if self.kind == "size":
            return f"{self.ctype} {self.name}"
        if self.by_address:
            return f"const {self.ctype} *restrict {self.c_name}"
        if self.kind == "scalar_in":
            return f"{self.ctype} {self.name}"
        if self.kind == "scalar_out":
            return f"{self.ctype} *restrict {self.c_name}"
        dims = self.c_dims or self.dims
        first, rest = dims[0], dims[1:]
        return f"{self.ctype} {self.name}[restrict {first}]" + "".join(f"[{d}]" for d in rest)


@dataclass(frozen=True)
class RegionSignature:
    """The C interface of one region, with every extent resolved for one problem size."""

    filename: str
    region: int
    args: tuple[HarnessArg, ...]
    constants: tuple[tuple[str, int], ...]   # #defined when the block uses them (fixed params, macros)
    values: tuple[tuple[str, int], ...]      # every size known (for reports)
    helpers: tuple[str, ...] = ()            # the file's pure helpers the block calls
    team: bool = False                       # the file runs the region in an OpenMP team
    # a subscript past a declared extent at these sizes (a read that leaves its row, which
    # the model follows): undefined in ISO C, and gcc's loop optimisations cut loops on it
    past_rows: bool = False
    # (name, C type) of the #defined sizes of another integer type than int (`-D n=5` of an
    # `unsigned n`): #defined as that type, so that `(i - n) / 2` computes as the file does
    constant_types: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_scop(cls, scop, int_macros: Sequence[tuple[str, int]] = (),
                  sizes: Mapping[str, int] | None = None,
                  counts: Mapping[str, int] | None = None) -> "RegionSignature":
        """`counts`: elements of the pointers that only index arrays reach, where the code to
        run fixes them (a .cu's host code copies what a cuda step's `sizes` gives)."""
        # a performance param's pick (`-D SCR=True`) is no size
        sizes = {str(k): int(v) for k, v in (sizes or {}).items() if _integral(v)}
        fixed = dict(scop.fixed)
        macros = dict(int_macros)
        for name, v in fixed.items():
            if name in sizes and sizes[name] != v:
                pos = locate_name(scop.filename, name, scop.region_span, scop.function) \
                    or (scop.region_span[0] or None, None)
                raise LooptxError(f"size {name}={sizes[name]} disagrees with the value {v} the "
                                  "program was loaded with", hint="load it with the same --define",
                                  file=scop.filename, line=pos[0], col=pos[1])
        # a local the function sets to a constant (`int m = 0; int k = m + 1;`) has that value
        env = {**macros, **dict(scop.local_values), **sizes, **fixed}
        pending = [(name, init) for name, init in scop.derived if name not in env]
        while pending:
            # a chain (`int n = N; int len = n;`), in whatever order the scopes listed it
            left = []
            for name, init in pending:
                try:
                    env[name] = eval_extent(init, env)
                except (KeyError, ValueError):
                    left.append((name, init))   # not a function of the sizes: reported below if used
            if len(left) == len(pending):
                break
            pending = left
        # a chain through a local the model folded away (`int n = N; int len = n;` keeps only
        # len = n): the value the load computed at these sizes
        env.update({k: v for k, v in scop.implied_values if k not in env})
        where = dict(file=scop.filename, line=scop.region_span[0] or None)

        def at(name: str) -> dict:
            # the scop keeps no positions of names; point at the name's first use in the region
            # (a struct member's size, s__n, as the file spells it: s->n)
            pos = locate_name(scop.filename, _member_of(scop, name) or name, scop.region_span, scop.function)
            return dict(where, line=pos[0], col=pos[1]) if pos else where
        free = [p for p in scop.params if p not in fixed]
        size_types = dict(scop.size_types)
        args: list[HarnessArg] = []
        value_only = scop.value_only_params()
        seeded = {p: 3 + zlib.crc32(p.encode()) % 5 for p in free}   # by the name, as the data are
        flags = scop.flag_params(seeded) if any(p not in env and p not in value_only for p in free) else {}
        gathers = gather_plan(scop, at)
        for p in free:
            if p not in env and p in value_only:
                env[p] = seeded[p]
                note_once(scop.filename, at(p).get("line"),
                          f"'{p}' is only read as a value in the region: the harness sets it to {env[p]} "
                          f"(give another with --define {p}=VALUE)")
            elif p not in env and p in flags:
                env[p] = flags[p]
                note_once(scop.filename, at(p).get("line"),
                          f"'{p}' only turns statements of the region on or off: the harness sets it "
                          f"to {env[p]}, under which the most of them run (check the others with "
                          f"--define {p}=VALUE)")
            if p not in env:
                raise LooptxError(f"the size '{p}'{_member_note(scop, p)} has no value",
                                  hint=f"give it with --define {p}=VALUE", **at(p))
            # (with the size's own type: `i - M > 3` of an unsigned M compares as the file's C does)
            args.append(HarnessArg(p, "size", size_types.get(p, "int"), value=int(env[p])))
        from looptx.runtime.inputs import zero_uses
        divided, tested = zero_uses(scop)
        for a in scop.arrays:
            if a.local:
                continue
            try:
                ctype_info(a.ctype)   # unsupported element types fail here, not in the compiler
            except LooptxError as e:
                raise LooptxError(str(e.what), hint=e.hint, **_declared_at(scop, a.name, where)) from None
            written = a.role != "in"
            # a local of the function that is dead after the region is no result: a variant may
            # have privatized it, leaving the function's own variable untouched
            result = bool(a.live_out)
            if a.is_scalar:
                args.append(HarnessArg(a.name, "scalar_out" if written else "scalar_in", a.ctype,
                                       out=written, result=result))
                continue
            shape, c_dims = [], [_bind_extent(d, env, free) for d in a.dims]
            reached = _reach(scop, a, env) if any(not d.strip() for d in a.dims) else None
            for k, d in enumerate(a.dims):
                if not d.strip():
                    if a.name in gathers.arrays and (reached is None or reached[k][0] >= 0):
                        # indexes reach it: sized once the other arrays are (below)
                        shape.append(-1 - (reached[k][1] + 1 if reached else 0))
                        c_dims[k] = ""
                        continue
                    # a pointer (or `a[][M]`): as far as the region reaches into it
                    if reached is None or reached[k][0] < 0:
                        raise _unknown_extent(scop, a, reached, at(a.name))
                    # one element stands in where the region reaches none at these sizes (n = 1)
                    shape.append(max(reached[k][1] + 1, 1))
                    c_dims[k] = str(shape[-1])
                    continue
                try:
                    n = eval_extent(d, env)
                except KeyError as e:
                    name = e.args[0]
                    member = dict(scop.extent_members).get(name)
                    raise LooptxError(f"the size '{name}' (in the extent [{d}] of array "
                                      f"'{a.name}'{f', standing for {member}' if member else ''}) has no value",
                                      hint=f"give it with --define {name}=VALUE",
                                      **(_declared_at(scop, a.name, where) if member else at(name))) from None
                except ValueError as e:
                    raise LooptxError(f"cannot evaluate the extent of array '{a.name}': {e}",
                                      hint="write extents as integer expressions of sizes",
                                      **at(a.name)) from None
                if n <= 0:
                    raise LooptxError(f"array '{a.name}' has extent [{d}] = {n} for these sizes",
                                      hint="give positive sizes with --define NAME=VALUE", **at(a.name))
                shape.append(n)
            if all(d >= 0 for d in shape):
                # a pointer's first dimension is as far as the region reaches; its rows still
                # have the extents the declaration gives (NPB's `double (*r)[m2k][m1k]`)
                _check_within(scop, a, env, tuple(shape), at(a.name))
            args.append(HarnessArg(a.name, "array", a.ctype, tuple(a.dims), tuple(shape),
                                   out=written, result=result, c_dims=tuple(c_dims),
                                   record=scop.record(a.name) if scop.records else None,
                                   row=_row_length(a, env), values=dict(scop.tables).get(a.name),
                                   zeros="" if not ctype_info(a.ctype)[2] or a.name in divided
                                   else "tested" if a.name in tested else "may"))
        if gathers.arrays:
            args = _with_gathers(args, gathers, at, counts or {}, env)
        if scop.records:
            args = _one_struct_array(args)
        free_set = set(free)
        # Only names of the program may be #defined into the block: its macros and fixed params.
        constants = {k: v for k, v in {**macros, **fixed}.items() if k not in free_set}
        past = any(a.kind == "array" and len(a.shape) > 1 and all(d >= 0 for d in a.shape)
                   and _past_rows(scop, a.name, env, a.shape) for a in args)
        return cls(scop.filename, scop.region, tuple(args),
                   tuple(sorted(constants.items())), tuple(sorted(env.items())), scop.helpers,
                   bool(scop.team) and scop.team_kind == "team", past,
                   tuple((k, t) for k, t in scop.size_types if k in constants and t != "int"))

    # -- views ------------------------------------------------------------------------------
    @property
    def data_args(self) -> tuple[HarnessArg, ...]:
        return tuple(a for a in self.args if a.is_data)

    @property
    def written(self) -> tuple[str, ...]:
        """Names whose values after the region are results (compared against the original)."""
        return tuple(a.name for a in self.args if a.written)

    @property
    def results(self) -> tuple[str, ...]:
        """The written names whose final values must equal the original's."""
        return tuple(a.name for a in self.args if a.written and a.result)

    @property
    def read_only(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.args if a.is_data and not a.written)

    def arg(self, name: str) -> HarnessArg:
        for a in self.args:
            if a.name == name:
                return a
        raise KeyError(name)

    @property
    def shapes(self) -> dict[str, tuple[int, ...]]:
        return {a.name: a.shape for a in self.data_args}

    def c_params(self) -> str:
        out, bases = [], set()
        for a in self.args:
            if a.record is None:
                out.append(a.c_param())
            elif a.record.base not in bases:
                bases.add(a.record.base)
                dims = (a.c_dims or a.dims)[:a.record.rank]
                out.append(f"{a.record.layout.ctype} {a.record.base}[restrict {dims[0]}]"
                           + "".join(f"[{d}]" for d in dims[1:]))
        return ", ".join(out) or "void"

    @property
    def definitions(self) -> tuple[str, ...]:
        """The file's type definitions that the struct arrays' element types need, their
        extents at this size's values (a size may be a parameter of the function, which the
        definitions at file scope cannot see)."""
        env = dict(self.values)
        out: list[str] = []
        for a in self.args:
            if a.record is not None:
                out += [d for d in a.record.layout.definitions if d not in out]
        return tuple(re.sub(r"\[([^\[\]]*)\]", lambda m: "[" + _bind_extent(m.group(1), env, ()) + "]", d)
                     for d in out)


def _one_struct_array(args: list[HarnessArg]) -> list[HarnessArg]:
    """The members of one array of structs reach different extents of a pointer (`p[i].x` up
    to n, `p[i+1].y` up to n + 1): each is a view of the one array, as long as the longest."""
    from dataclasses import replace
    longest: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {}
    for a in args:
        if a.record is not None:
            k = a.record.rank
            shape, dims = longest.get(a.record.base, (a.shape[:k], a.c_dims[:k]))
            pick = [(max(x, y), dx if x >= y else dy)
                    for x, y, dx, dy in zip(shape, a.shape[:k], dims, a.c_dims[:k])]
            longest[a.record.base] = (tuple(p[0] for p in pick), tuple(p[1] for p in pick))
    out = []
    for a in args:
        if a.record is not None:
            k = a.record.rank
            shape, dims = longest[a.record.base]
            a = replace(a, shape=shape + a.shape[k:], c_dims=dims + a.c_dims[k:])
        out.append(a)
    return out


def record_dtype(layout, env: Mapping[str, int]) -> np.dtype:
    """The numpy layout of a struct (a C struct of arithmetic members, arrays of them, nested
    structs and pointers lays out as numpy's aligned structured dtype does)."""
    def spec(fields):
        out = []
        for name, kind, dims in fields:
            shape = tuple(eval_extent(d, env) for d in dims)
            if isinstance(kind, tuple):
                dt = np.dtype(spec(kind), align=True)
            elif kind == "void *":
                dt = np.dtype(np.uintp)
            elif kind in ("union", "bit-field", "?"):
                raise LooptxError(f"the run harness cannot lay out '{layout.ctype}': its member '{name}' is "
                                  f"{'a ' + kind if kind != '?' else 'of an unknown type'}",
                                  hint="use transform (its C keeps the struct), or a struct of numbers, "
                                       "arrays and pointers")
            else:
                dt = ctype_info(kind)[0]
            out.append((name, dt, shape) if shape else (name, dt))
        return out
    # packed: members follow each other with no padding (numpy's unaligned layout)
    return np.dtype(spec(layout.fields), align=not layout.packed)


def _layout_checks(sig: RegionSignature) -> list[str]:
    """The numpy layout the data are written in must be the compiler's (else the region
    reads other bytes): a build error if the size or a used member's offset differs."""
    out, env = [], dict(sig.values)
    for a in sig.args:
        if a.record is None:
            continue
        whole = dt = record_dtype(a.record.layout, env)
        t, path = a.record.layout.ctype, a.record.path.lstrip(".")
        offset = 0
        for name in path.split("."):
            offset += dt.fields[name][1]
            dt = dt.fields[name][0].base
        msg = f'"looptx: the harness lays out {t} unlike the compiler"'
        out += [f"_Static_assert(sizeof({t}) == {whole.itemsize}, {msg});",
                f"_Static_assert(offsetof({t}, {path}) == {offset}, {msg});"]
    return list(dict.fromkeys(out))


def record_view(buf: np.ndarray, path: str) -> np.ndarray:
    """The member `path` (`.pos.x`) of every element of a struct array."""
    for name in path.lstrip(".").split("."):
        buf = buf[name]
    return buf


def _integral(v) -> bool:
    try:
        int(v) if not isinstance(v, str) else int(v, 0)
    except (TypeError, ValueError):
        return False
    return True


def _bind_extent(text: str, env: Mapping[str, int], free: Sequence[str]) -> str:
    # Sizes are substituted into the extent text rather than #defined: a size name that is not
    # a name of the program (say `e`) may well be an iterator of the block.  Free parameters
    # stay symbolic: they are the function's int arguments.
    keep = set(free)
    return _IDENT.sub(lambda m: m.group(0) if m.group(0) in keep or m.group(0) not in env
                      else f"{int(env[m.group(0)])}", text)


def _identifiers(text: str) -> set[str]:
    # Comments and string literals never hold a size, and stripping them keeps a word in a
    # comment from being #defined.
    text = re.sub(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\])*\"", " ", text, flags=re.S)
    return set(_IDENT.findall(text))


def region_source(sig: RegionSignature, block_lines: Sequence[str], name: str = "lx_region") -> str:
    """A complete C translation unit defining `void name(<sig>)` around the region block."""
    block = "\n".join(block_lines)
    definitions = sig.definitions
    used = _identifiers("\n".join((block,) + definitions))
    defines = [(k, v) for k, v in sig.constants if k in used]
    out = [f"/* looptx region harness: {sig.filename.rsplit('/', 1)[-1]}, region {sig.region} */",
           "#include <math.h>", "#include <stdlib.h>", "#include <stdint.h>", "#include <stddef.h>"]
    # before the sizes' #defines, which could name a helper's parameter
    if sig.past_rows:
        # the original and every variant alike: gcc would otherwise take the subscript past its
        # extent as undefined and cut each loop at a point of its own (a false mismatch)
        out += ["#if defined(__GNUC__) && !defined(__clang__)",
                '#pragma GCC optimize ("no-aggressive-loop-optimizations")', "#endif"]
    out += ["static inline " + h for h in sig.helpers]
    # #undef first: the same name may be a macro of the C library (rare, but then the user's
    # file overrode it just the same).
    typed = dict(sig.constant_types)
    for k, v in defines:
        out += [f"#undef {k}", f"#define {k} {typed_constant(v, typed.get(k))}"]
    out += helper_block(used_helpers(block))
    out += definitions
    out += _layout_checks(sig)
    out.append(f"void {name}({sig.c_params()})")
    out.append("{")
    outs = [a for a in sig.args if a.kind == "scalar_out"]
    for a in outs + [a for a in sig.args if a.by_address]:
        out.append(f"  {a.ctype} {a.name} = *{a.c_name};")
    # a team's region (its `omp for` loops and `omp single` parts) runs in a team here too
    lines = list(block_lines)
    if sig.team and "{" in lines:
        lines.insert(lines.index("{"), "#pragma omp parallel")
    out += ["  " + ln for ln in lines]
    for a in outs:
        out.append(f"  *{a.c_name} = {a.name};")
    out.append("}")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ inputs

def _member_of(scop, name: str) -> str | None:
    """The struct member that a variable of the region stands for (frontend/members.py)."""
    for decl, _ in scop.hoisted:
        m = re.search(rf"\b{re.escape(name)}\b[^=]*=\s*(.+?);\s*$", decl)
        # a row length looptx named (`lx_row = nx + 2`) is hoisted too, but is no member
        if m and re.search(r"(->|\.)\s*[A-Za-z_]", m.group(1)):
            return m.group(1)
    return None


def _member_note(scop, name: str) -> str:
    member = _member_of(scop, name)
    return f" (the struct member {member})" if member else ""


def _with_gathers(args: list, gathers, at, counts: Mapping[str, int], env: dict) -> list:
    """The arguments with the pointers only index arrays reach sized (a negative extent:
    -1 - what the rest of the region reaches) and the index arrays' values ranged."""
    from dataclasses import replace as with_
    known = {a.name: a.shape for a in args if a.kind == "array" and all(d >= 0 for d in a.shape)}
    spread_n = spread(known)

    def sized(a):
        n = counts.get(a.name)
        if n is not None:
            # the elements of a row (`a[][M]`) times the rows the host code copies
            rest = int(np.prod([d for d in a.shape if d >= 0]))
            n = max(n // max(rest, 1), 1)
        least = gathers.elements_needed(a.name, env) if len(a.shape) == 1 else 0
        shape = tuple(d if d >= 0 else (n if n is not None else max(spread_n, -1 - d, least, 1)) for d in a.shape)
        return with_(a, shape=shape, c_dims=tuple(c if c else str(x) for c, x in zip(a.c_dims, shape)))
    args = [a if a.kind != "array" or all(d >= 0 for d in a.shape) else sized(a) for a in args]
    ranges = gathers.index_ranges({a.name: a.shape for a in args if a.kind == "array"}, at, env)
    return [with_(a, index_range=ranges[a.name], own=tuple(sorted(gathers.own.get(a.name, ()))))
            if a.name in ranges else a for a in args]


def _row_length(a, env: dict) -> int | None:
    """The row length of a flat array modelled as a matrix (`A[i*n + j]` in rows of n)."""
    if len(a.dims) != 1 or not a.strides or len(a.strides) != 1:
        return None
    try:
        return eval_extent(a.strides[0], env)
    except (KeyError, ValueError):
        return None


def _reach(scop, a, env: dict) -> tuple | None:
    from looptx.poly.footprint import reach
    values = {p: int(env[p]) for p in scop.params if p in env}
    return reach(scop, a.name, values)


def _unknown_extent(scop, a, reached, where: dict) -> LooptxError:
    member = _member_of(scop, a.name)
    what = f"'{member}' (a pointer member, read as '{a.name}')" if member else f"array '{a.name}'"
    if reached is not None:
        kinds = {x.kind for s in scop.statements for x in s.accesses if x.array == a.name}
        verb = "writes" if kinds == {"write"} else "reads"
        low = min(lo for lo, _ in reached)
        # extents cannot say how far before the pointer the caller's memory starts (Parboil
        # lbm's margin pointer): only a pointer to the first element can
        return LooptxError(f"the region {verb} {what} below its first element (index {low}), so the "
                           f"harness cannot allocate it", hint=f"`looptx transform` is not affected; to validate "
                           f"with `looptx run`, pass a pointer to the array's first element and add the "
                           f"offset to the subscripts ({a.name}[... + {-low}])", **where)
    return LooptxError(f"the extent of {what} is unknown (a pointer or an incomplete array, and the "
                       "region's accesses do not bound it at these sizes)",
                       hint=f"declare it with its extents, e.g. '{a.ctype} {a.name}[N]', or give every "
                            "size with --define", **where)


def _check_within(scop, a, env: dict, shape: tuple[int, ...], where: dict) -> None:
    """The region must stay inside an array's declared extents at these sizes: past them, the
    original itself reads or writes other memory, and every variant would look wrong or crash
    (SPAPT's atax run with nx > N)."""
    from looptx.poly.footprint import outside_extents, overrunning_statement, row_overrun, row_overrunning_statement
    values = {p: int(env[p]) for p in scop.params if p in env}
    over = row_overrun(scop, a.name, values, shape)
    if over is not None:
        k, index = over
        st = row_overrunning_statement(scop, a.name, values, shape, k)
        if st is not None and st.line and st.line != where.get("line"):
            where = dict(file=scop.filename, line=st.line, col=_column_of(scop.filename, st.line, a.name) or st.col or None)
        raise LooptxError(f"at these sizes the region indexes dimension {k + 1} of array '{a.name}' at {index}, "
                          f"outside its extent {shape[k]} ({a.name}{''.join(f'[{d}]' for d in a.dims)}): C "
                          "puts that element in another row, which looptx's dependences take for a different one",
                          hint="give sizes under which every subscript stays inside its dimension "
                               "(--define NAME=VALUE), or declare the array with the extents its loops use", **where)
    far = outside_extents(scop, a.name, values, shape)
    if far is not None:
        st = overrunning_statement(scop, a.name, values, shape)
        if st is not None and st.line and st.line != where.get("line"):
            where = dict(file=scop.filename, line=st.line, col=_column_of(scop.filename, st.line, a.name) or st.col or None)
        raise LooptxError(f"at these sizes the region reaches element {far} of array '{a.name}', outside "
                          f"its {int(np.prod(shape))} elements ({a.name}{''.join(f'[{d}]' for d in a.dims)})",
                          hint="give sizes that agree with the array's extents (--define NAME=VALUE); where "
                               "no sizes do, a loop bound of this statement passes the array's end", **where)


def _past_rows(scop, name: str, env: dict, shape: tuple[int, ...]) -> bool:
    from looptx.poly.footprint import past_extents
    return past_extents(scop, name, {p: int(env[p]) for p in scop.params if p in env}, shape)


def _column_of(path: str, line: int, name: str) -> int | None:
    """The column of `name[` on the file's line `line` (1-based), or None."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read().splitlines()[line - 1]
    except (OSError, IndexError):
        return None
    m = re.search(rf"(?<![\w.>]){re.escape(name)}\s*\[", text)
    return m.start() + 1 if m else None


def _declared_at(scop, name: str, where: dict) -> dict:
    """The place of `name`'s declaration: its first mention between the head of the region's
    function and the region (a parameter), else its first mention in the file (a global)."""
    start = scop.region_span[0]
    head = locate_name(scop.filename, scop.function, (1, start)) if scop.function and start else None
    pos = locate_name(scop.filename, name, (head[0] if head else 1, max(start - 1, 1)))
    return dict(where, line=pos[0], col=pos[1]) if pos else where


def __getattr__(name: str):
    # the inputs module reads this one's types: imported here at first use, or importing it
    # first met this module half made (probe 225 G1: every `search --backend cuda` failed)
    if name in ("make_inputs", "zero_uses"):
        from looptx.runtime import inputs
        return getattr(inputs, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
