"""Host side of a .cu file: how many elements each device array holds (declared extents, else
the `sizes` of the cuda steps, i.e. CUDA-CHiLL cudaize's array dict), the size macros the file
must define and the host function (the standalone main is codegen/cuda_main.py).

Element counts: a declared extent wins over a `sizes` entry for the same array (the declaration
states the memory the caller owns); where both are constants and differ, a warning says so.  A
pointer parameter (or `T a[][N]`) without a `sizes` entry is copied up to the highest element
the region reaches (an isl maximum over the sizes, poly/footprint.py); where that has no bound,
or the region may read below the first element, writing the .cu is a located error instead of
code that does not compile.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from looptx import ir
from looptx.codegen.cuda_records import members_of, record_count, written_arrays
from looptx.codegen.cuda_rows import copy_lines, count_and_offset, host_type, internal_sizes, is_rows
from looptx.errors import RecipeError
from looptx.frontend.names import to_model, to_user, with_values
from looptx.frontend.symbols import ARITH_WORDS
from looptx.codegen.versioning import fact_check
from looptx.codegen.cuda_notes import say_extra_arrays
from looptx.codegen.cuda_short import short_counts


@dataclass(frozen=True)
class ArraySizes:
    """The `sizes` argument of one cuda step: (array, element count as C text) pairs."""
    sizes: tuple[tuple[str, str], ...]
    step: int | None = None
    step_name: str | None = None
    file: str | None = None
    line: int | None = None

    def error(self, what, hint=None):
        return RecipeError(what, hint=hint, file=self.file, line=self.line, step=self.step,
                           step_name=self.step_name)


def array_sizes(v) -> list[ArraySizes]:
    return [x for x in v.extra if isinstance(x, ArraySizes)]


_SIZE_HINT = "write an integer expression of the region's sizes, e.g. 1024 or N*N"


_MEMBER = re.compile(r"[A-Za-z_]\w*(?:\s*(?:->|\.)\s*[A-Za-z_]\w*|\s*\[\s*\w+\s*\])+")


def size_c_text(value, known: set[str], spellings: dict[str, str] | None = None,
                not_ints: dict[str, str] | None = None) -> str:
    """An element count (int, or text over + - * / % ** and size names) as C text; raises an
    unlocated RecipeError (the caller locates it at its step).  `spellings` maps a struct
    member or element as written (`vp_vec->size[1]`) to the size that stands for it; `not_ints`
    names what the region's pointers, arrays and other non-integers are, for the refusal."""
    spellings = spellings or {}
    shown = {name: chain for chain, name in spellings.items()}
    listing = ", ".join(sorted({shown.get(n, to_user(n)) for n in known})) or "none"
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise RecipeError(f"element count {value!r} is not an integer expression", hint=_SIZE_HINT)
    if isinstance(value, int):
        if value < 1:
            raise RecipeError(f"element count {value} is not positive", hint="give at least 1 element")
        return str(value)

    def member(m) -> str:
        chain = re.sub(r"\s", "", m.group(0))
        if chain not in spellings:
            raise RecipeError(f"'{chain}' in element count '{value}' is not a size of the region",
                              hint=f"sizes: {listing}; or write the number")
        return spellings[chain]
    text = _MEMBER.sub(member, value)
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        raise RecipeError(f"cannot parse element count '{value}'", hint=_SIZE_HINT) from None
    except (RecursionError, MemoryError):
        raise RecipeError(f"element count '{value[:40]}...' is nested too deeply", hint=_SIZE_HINT) from None

    def go(n, depth=0) -> str:
        if depth > 50:
            raise RecipeError(f"element count '{value[:40]}' is nested too deeply", hint=_SIZE_HINT)
        if isinstance(n, ast.Constant) and isinstance(n.value, int) and not isinstance(n.value, bool):
            return str(n.value)
        if isinstance(n, ast.Name):
            name = to_model(n.id)
            if name not in known:
                what = f": it is {not_ints[name]}" if name in (not_ints or {}) else ""
                raise RecipeError(f"'{shown.get(name, n.id)}' in element count '{value}' is not a size of "
                                  f"the region{what}", hint=f"sizes: {listing}; or write the number")
            return name
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.USub, ast.UAdd)):
            return f"{'-' if isinstance(n.op, ast.USub) else ''}({go(n.operand, depth + 1)})"
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Pow):
            k = n.right.value if isinstance(n.right, ast.Constant) else None
            if not (isinstance(k, int) and not isinstance(k, bool) and 1 <= k <= 8):
                raise RecipeError(f"element count '{value}': '**' needs a constant exponent 1..8",
                                  hint="write the product, e.g. N*N")
            base = go(n.left, depth + 1)
            return "(" + " * ".join([f"({base})"] * k) + ")"
        ops = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "/", ast.Mod: "%"}
        if isinstance(n, ast.BinOp) and type(n.op) in ops:
            return f"({go(n.left, depth + 1)} {ops[type(n.op)]} {go(n.right, depth + 1)})"
        raise RecipeError(f"element count '{value}' is not an integer expression", hint=_SIZE_HINT)
    text = go(tree)
    return text[1:-1] if text.startswith("(") and _balanced(text[1:-1]) else text


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            return False
    return depth == 0


def constant(c_text: str, values: dict) -> int | None:
    """The value of a count's C text once `values` fix its names (None: still symbolic)."""
    from looptx.runtime.extents import eval_extent
    try:
        return eval_extent(c_text.replace("(size_t)", ""), values)
    except (KeyError, ValueError, RecursionError):
        return None


def size_values(scop, int_macros=None) -> dict[str, int]:
    """The value each size has in the file where it has one: fixed with --define, a #define's,
    a constant local's, a local's initializer's at those (SW4's `base = -ifirst`)."""
    values = {**(int_macros or {}), **dict(scop.macro_values), **dict(scop.local_values), **dict(scop.fixed)}
    pending = [(n, init) for n, init in scop.derived if n not in values]
    while pending:
        new = {n: v for n, v in ((n, constant(init, values)) for n, init in pending) if v is not None}
        if not new:
            break
        values.update(new)
        pending = [(n, init) for n, init in pending if n not in new]
    return values


def known_sizes(scop) -> set[str]:
    """Names an element count may use: the sizes, the function's other integer parameters
    (miniMD's atom count `nall`, a row length that bounds no loop), which the host function
    takes as the original does, and the struct members that stand in array extents (Devito's
    `vp_vec->size[1]`), never the struct pointers that hold them."""
    arrays = {a.name for a in scop.arrays}
    ints = {to_model(p) for p in scop.int_params}
    return set(scop.params) | {n for n, _ in scop.fixed} | {n for n, _ in scop.macro_values} | \
        {n for n, _ in scop.derived} | {n for n, _ in scop.extent_members} | \
        {to_model(p) for p in scop.function_params if to_model(p) in ints and to_model(p) not in arrays}


def size_spellings(scop, known: set[str]) -> dict[str, str]:
    """A size that stands for a struct member or a constant element, as the user writes it
    (`vp_vec->size[1]`, `g->n`, `grid_points[2]`, no blanks) -> the size's name."""
    chains = {**scop.member_chains(), **{n: re.sub(r"\s", "", t) for n, t in scop.extent_members}}
    return {chain: name for name, chain in chains.items() if name in known}


def not_sizes(scop, known: set[str]) -> dict[str, str]:
    """The region's names that are no integer size (pointers, arrays, floating parameters),
    each with what it is, for the refusal of a count that names one."""
    out = {to_model(n): "a pointer" for n, _, dims, _ in scop.param_types if dims}
    out |= {chain.split("->")[0]: "a struct pointer" for chain in size_spellings(scop, known) if "->" in chain}
    out |= {a.name: "an array" for a in scop.arrays if a.rank}
    names = {to_model(p) for p in scop.function_params} | {a.name for a in scop.arrays} | set(out)
    return {n: out.get(n, "not an integer") for n in names - known}


def on_device(a, written_scalars) -> bool:
    return bool(a.rank) or a.name in written_scalars


def declared_count(a) -> str | None:
    if not a.dims:
        return "1"
    if any(not d.strip() for d in a.dims):
        return None
    return " * ".join(f"(size_t)({d})" for d in a.dims)


def _given_counts(rc) -> dict[str, tuple[str, ArraySizes]]:
    given = {}
    for rec in array_sizes(rc.variant):
        for name, text in rec.sizes:
            given.setdefault(name, (text, rec))
    return given


def element_counts(rc, offsets: dict | None = None) -> dict[str, str]:
    """Each device array's element count as C text, or a located error naming the array;
    `offsets` gets the first element copied (C text) of those not copied from element 0."""
    given = {name: text for name, (text, _) in _given_counts(rc).items()}
    fixed = dict(rc.variant.scop.fixed)
    short_counts(rc)        # a count below the region's reach at fixed sizes is an error
    out = {}
    for a in rc.arrays:
        if not on_device(a, rc.written_scalars):
            continue
        if is_rows(a):
            out[a.name], offset = count_and_offset(rc.variant.scop, a, fixed)
            if offsets is not None:
                offsets[a.name] = offset
            continue
        n = declared_count(a)
        if n is None and a.name in given:
            # sizes fixed with --define are written as numbers: a #define of a lower-case
            # parameter name (n) could hit the host code's own names
            n = f"(size_t)({with_values(given[a.name], fixed)})"
        why = None
        if n is None and members_of(rc.variant.scop, a.name):
            n, why = record_count(rc.variant.scop, a.name, lambda m: _reached_count(rc.variant.scop, m, fixed))
        elif n is None:
            found = {}
            n, why = _reached_count(rc.variant.scop, a, fixed, found, size_values(rc.variant.scop, rc.int_macros))
            if offsets is not None:
                offsets.update(found)
        if n is None:
            raise _unknown_count(rc, a, why)
        out[a.name] = n
    return out


def _reached_count(scop, a, fixed: dict, offsets: dict | None = None,
                   values: dict | None = None) -> tuple[str | None, str | None]:
    """(count, None): elements up to the highest the region reaches, for an array without
    extents and without a `sizes` entry (the host copies from the first element to that one);
    (None, why) where that is not the count.  With `offsets`, from the lowest element the
    region reaches where element 0 may not be the caller's (codegen/cuda_span.py), which
    `offsets` gets, as C text; an index below element 0 is refused only where it remains at
    the sizes' `values` (size_values)."""
    from looptx.codegen.cuda_span import copied_from_lowest, span_count
    from looptx.poly.footprint import highest, span
    top = highest(scop, a.name) if offsets is None else span(scop, a.name, tuple(sorted((values or {}).items())))
    if isinstance(top, str):
        return None, top
    if offsets is not None and copied_from_lowest(scop, a, top):
        return span_count(a, top, fixed, offsets)
    return _count_to(top, a, fixed), None


def _count_to(top, a, fixed: dict) -> str:
    """Elements from the first up to the highest one `top` reaches, as C text."""
    def text(e) -> str:
        return ir.to_c(e, var=lambda name: str(fixed[name]) if name in fixed else None)

    def c(e) -> str:
        return f"(size_t)({text(e)})"
    if a.strides:
        flat = c(top.index[0])
        for extent, idx in zip(a.strides, top.index[1:]):
            flat = f"({flat} * (size_t)({fixed.get(extent, extent)}) + {c(idx)})"
        count = f"({flat} + 1)"
    else:
        count = " * ".join([f"({c(top.index[0])} + 1)"] + [f"(size_t)({d})" for d in a.dims[1:]])
    if top.reached_if is None:
        return count
    return f"(({text(top.reached_if)}) ? {count} : (size_t)0)"


def _below_first(scop, a, fixed: dict) -> tuple[str, str] | None:
    """(count up to the highest element, C test that an element below the first is reached)
    where the region reaches below element 0 at some sizes (a loop from a parameter, WRF's
    `its`): a count the recipe gives is checked against both, since the host copies from
    element 0."""
    from looptx.poly.footprint import span_below
    top = span_below(scop, a.name)
    if isinstance(top, str) or not top.below_first or not top.lowest:
        return None
    low = ir.to_c(top.lowest[0], var=lambda name: str(fixed[name]) if name in fixed else None)
    when = "" if top.reached_if is None else \
        f"({ir.to_c(top.reached_if, var=lambda name: str(fixed[name]) if name in fixed else None)}) && "
    return _count_to(top, a, fixed), f"{when}({low}) < 0"


def _unknown_count(rc, a, why: str | None) -> RecipeError:
    from looptx.poly.gpu import mappings
    why = f" and {why}" if why else ""
    what = (f"the number of elements of array '{a.name}' is unknown (it is declared without "
            f"{'extents' if len(a.dims) == 1 else 'its first extent'}{why}), so the host code cannot "
            "allocate and copy it")
    # a size as the example would read as the answer, and may be a 0 or a flag
    ex = "COUNT"
    hint = (f"give it in cudaize's array dict, e.g. {{'{a.name}': {ex}}}, or in the cuda step as "
            f"sizes: {{{a.name}: {ex}}}, or declare the parameter with its extents, e.g. "
            f"{a.ctype} {a.name}[{ex}] (COUNT: its number of elements, an expression of the sizes)")
    maps = mappings(rc.variant)
    users = [kc.mapping for kc in rc.kernels if kc.mapping is not None
             and a.name in {p[2] for p in kc.params}]
    m = (users or maps or [None])[0]
    if m is not None:
        return m.error(what, hint)
    return RecipeError(what, hint=hint, **rc.variant.scop.where())



# ---- text --------------------------------------------------------------------------------------

def macros_needed(scop, int_macros: dict, params, texts) -> dict:
    """Size macros (fixed with --define, or #defined in the file) that the generated text names
    and that are not parameters of its functions: the .cu must define them itself."""
    names = set()
    for a in scop.arrays:
        for d in a.dims:
            names |= set(re.findall(r"[A-Za-z_]\w*", d))
    for t in texts:
        names |= set(re.findall(r"[A-Za-z_]\w*", t))
    # the build's values (a run's sizes) over the file's, and --define over both
    values = {**dict(scop.macro_values), **int_macros, **dict(scop.fixed)}
    return {n: values[n] for n in sorted(names) if n in values and n not in params}


def _to_device(a, n, checked: bool, fill: bool = True, src: str | None = None) -> list[str]:
    """lx_d_NAME allocated for n elements and filled from NAME (`fill`), or from `src`; the
    host function returns the CUDA error of a failed allocation, the standalone main (a test
    driver) does not check."""
    alloc = f"cudaMalloc((void **)&lx_d_{a.name}, {n} * sizeof({a.ctype}))"
    first = [f"  {a.ctype} *lx_d_{a.name} = 0;", f"  if ((lx_err = {alloc}) != cudaSuccess) return (int)lx_err;"] \
        if checked else [f"  {a.ctype} *lx_d_{a.name}; {alloc};"]
    return first + [f"  cudaMemcpy(lx_d_{a.name}, {src or a.name}, {n} * sizeof({a.ctype}), "
                    "cudaMemcpyHostToDevice);"] * fill


def _offset_decls(offsets: dict) -> list[str]:
    """The first element copied of each array copied from its lowest element reached: the
    device buffer holds that one first, so the kernels get a pointer that many elements
    before it, and index it as the region does."""
    return [f"  const ptrdiff_t lx_o_{name} = {o};" for name, o in offsets.items()]


def _device_arg(name: str, offsets: dict) -> str:
    return f"lx_d_{name} - lx_o_{name}" if name in offsets else f"lx_d_{name}"


def _named_counts(counts: dict) -> tuple[list[str], dict]:
    """A long count (one reached by the region, with its empty-region case) computed once."""
    decls, out = [], {}
    for name, n in counts.items():
        if len(n) > 40:
            decls.append(f"  const size_t lx_n_{name} = {n};")
            n = f"lx_n_{name}"
        out[name] = n
    return decls, out


def _internal_sizes(rc) -> list[tuple[str, str]]:
    """Sizes looptx named itself (an inline row length, `lx_row = nx + 2`): the caller of the
    host function never declared them, so it computes them."""
    scop = rc.variant.scop
    fixed = dict(scop.fixed)
    params = {to_model(p) for p in scop.function_params}
    # ... and so are a constant local's and an enumerator's (`const int nx = 8;`, `enum { NCOMP
    # = 3 };`): no caller passes them, and the code holds for that value alone
    # (also `const int n = N;` of a #define, which the .cu defines too)
    macros = {k for k, _ in (*scop.macro_values, *scop.pinned_macros, *scop.baked)} | set(scop.soft_macros) \
        | {to_model(k) for k in getattr(rc, "int_macros", {})}
    # (and a chain of them, `const int nx1 = nx - 1;`)
    macros |= {n for n, _ in scop.local_values}

    def constant(init) -> bool:
        words = set(re.findall(r"[A-Za-z_]\w*", str(init)))
        return re.fullmatch(r"[\s\w()+\-*/%]*", str(init)) is not None and words <= macros \
            and not re.search(r"\d[A-Za-z_]", re.sub(r"\b0[xX][0-9a-fA-F]+\b", "0", str(init)))
    return [(n, with_values(init, fixed)) for n, init in scop.derived
            if n in rc.params and (n.startswith("lx_") or constant(init) and n not in params)] + internal_sizes(scop, fixed)


def _received(scop):
    """`scop` with the sizes fixed as stand-ins that the .cu cannot receive taken as given: a
    local of the function (SW4's `base`, the value its initializer has at the sizes --define
    fixes) is no argument of the host function, so a check of it checks nothing (and would
    need a macro named after it); a parameter of it is checked under another name
    (`_unread_params`)."""
    own = {n for n, _ in (*scop.derived, *scop.local_values)} | {to_model(p) for p in scop.function_params}
    given = tuple(p for p in scop.stand_ins if p in own)
    if not given:
        return scop
    from dataclasses import replace
    return scop.cached(("cuda_received",), lambda: replace(
        scop, stand_ins=tuple(p for p in scop.stand_ins if p not in given),
        runtime_facts=tuple(f for f in scop.runtime_facts if f not in {f"{p} = {v}" for p, v in scop.fixed
                                                                       if p in given}), _cache={}))


def device_fact_check(scop) -> str | None:
    return fact_check(_received(scop), or_idle=True)


def fact_guard(scop) -> list[str]:
    """The kernels hold only where the sizes meet the facts the model assumed (a row length
    `ldc >= n` of a written linearized array): elsewhere nothing runs and the caller gets an
    error, where a C region would run its code as written."""
    text = device_fact_check(scop)
    if text is None:
        return []
    why = "the sizes it was transformed for" if _received(scop).stand_ins else \
        "its model of the linearized subscripts or C's '/'"
    return [f"  /* looptx made this code for {text} only ({why}) */",
            f"  if (!({text})) return (int)cudaErrorInvalidValue;"]


def size_ctype(scop, p: str) -> str:
    """A size's type in the .cu's signatures: the user's (an `unsigned m` computes `(j - m) / 2`
    unsigned in the kernels too), and 64-bit for a row length looptx named where a size it is
    made of is (64-bit index arithmetic costs the kernels)."""
    if p.startswith("lx_"):
        init = dict(scop.derived).get(p, "")
        return "long" if set(re.findall(r"[A-Za-z_]\w*", init)) & set(scop.wide_params) else "int"
    return dict(scop.size_types).get(p) or ("long" if p in scop.wide_params else "int")



def host_only_texts(rc) -> list[str]:
    """What the host function computes from the sizes besides the counts (its own row lengths,
    the facts' check): the size macros they name must be defined in the .cu too."""
    scop = rc.variant.scop
    rows = [line for a in rc.arrays if is_rows(a) for line in copy_lines(scop, a, dict(scop.fixed), True)]
    return [init for _, init in _internal_sizes(rc)] + [device_fact_check(scop) or ""] \
        + [want for _, _, want in short_counts(rc)] + rows


def in_function_order(scop, named: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(name, declaration) of the host function's arguments: the original function's
    parameters in its order (`tc(C, A, B)` gives `tc_host(C, A, B)`: a call written for the
    original, all pointers of one type, would compile with any other order and compute
    garbage), then what the region reads that is not one (globals, #defined sizes)."""
    order = {to_user(n): k for k, n in enumerate(scop.function_params)}
    # a struct's members in the order the region first reads them (a member --define fixed,
    # taken as lx_given_, among them, not after them)
    members = {n: k for k, n in enumerate(scop.member_chains())}

    def place(item) -> tuple[int, int, int]:
        # a struct parameter's members (`bp->array` as bp__array) take its place
        name = item[0]
        base = to_user(name.split("__")[0]) if "__" in name else None
        return (order[to_user(name)], 0, 0) if to_user(name) in order else \
            (order[base], 1, members.get(name, len(members))) if base in order else (len(order), 0, 0)
    return sorted(named, key=place)


def _unread_params(scop, have: set[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """The original function's parameters that the kernels do not take, so that the host
    function keeps its signature (CUDA-CHiLL replaces the function's body and keeps the
    function): a call written for the original, through a prototype with extern "C", would
    otherwise pass its arguments to the wrong parameters. A size that --define fixed is a
    macro of the .cu, so its argument gets another name and is checked against the value."""
    fixed = {to_user(n): v for n, v in scop.fixed}
    # a struct parameter the model reads through its members (`g->n` as g__n) is not dropped
    # but taken apart: the host function takes those members, not the struct
    taken_apart = {n.split("__")[0] for n in (*scop.params, *(a.name for a in scop.arrays)) if "__" in n}
    named, checks = [], []
    for name, ctype, dims, const in scop.param_types:
        if name in have or name in taken_apart:
            continue
        words = set(ctype.split())
        if not words <= ARITH_WORDS | {"const", "volatile"}:
            if dims:
                named.append((name, f"void *{name}"))
            continue
        ctype = " ".join("unsigned char" if w in ("_Bool", "bool") else w for w in ctype.split() if w != "volatile")
        if dims:
            stars = "*" * len(dims) if not any(dims[1:]) else "*"
            named.append((name, f"{'const ' if const else ''}{ctype if not any(dims[1:]) else 'void'} {stars}{name}"))
        elif name in fixed:
            named.append((name, f"{ctype} lx_given_{name}"))
            checks += [f"  /* looptx made this code for {name} = {fixed[name]} only (--define) */",
                       f"  if (lx_given_{name} != {fixed[name]}) return (int)cudaErrorInvalidValue;"]
        else:
            named.append((name, f"{ctype} {name}"))
    # a member size --define fixed (`-D mesh__nq=8`), or a local the function sets before the
    # region (`int n = *np;`, which the host function takes in np's place): the caller passes
    # it as the others, and the code made for that value checks it
    # (not one whose initializer reads fixed sizes alone: SW4's `ni = ilast - ifirst + 1` at the
    # sizes --define gave has that value in every call the .cu is made for)
    given = {n for n, _ in scop.fixed}
    derived = {n for n, init in scop.derived
               if set(re.findall(r"[A-Za-z_]\w*", str(init))) - given - {"floor", "mod", "min", "max"}}
    for name, value in scop.fixed:
        if name in have or name not in scop.params:
            continue
        if "__" in name and name.split("__")[0] in taken_apart or name in derived:
            named.append((name, f"int lx_given_{name}"))
            checks += [f"  /* looptx made this code for {to_user(name)} = {value} only (--define) */",
                       f"  if (lx_given_{name} != {value}) return (int)cudaErrorInvalidValue;"]
    return named, checks


def host_function(rc, dev_args: list[str], counts: dict, offsets: dict | None = None) -> list[str]:
    offsets = offsets or {}
    internal = _internal_sizes(rc)
    own = {n for n, _ in internal}
    scop = rc.variant.scop
    named = [(a.name, host_type(a) if is_rows(a) else arg) for a, arg in zip(rc.arrays, dev_args)
             if a.name not in rc.scratch] + \
        [(p, f"{size_ctype(scop, p)} {p}") for p in rc.params if p not in own]
    # an extent the region does not read (`double X[m*n]` of a loop to `nrows`) still sizes the
    # copies: the function's parameter it names is the host function's too
    words = {w for n in (*counts.values(), *offsets.values()) for w in re.findall(r"[A-Za-z_]\w*", n)}
    # (a size fixed with --define is a macro of the .cu, not an argument)
    have = {to_user(n) for n, _ in named} | {to_user(n) for n in own} | \
        {to_user(n) for n, _ in (*scop.fixed, *scop.baked, *scop.macro_values)}
    # (a struct member's extent, `vp_vec->size[1]`, which the caller passes as vp_vec__size__1)
    named += [(p, f"int {p}") for p in (*scop.int_params, *(n for n, _ in scop.extent_members))
              if p in words and to_user(p) not in have]
    unread, given = _unread_params(scop, {to_user(n) for n, _ in named} | {to_user(n) for n in own})
    named += unread
    ordered = in_function_order(scop, named)
    say_extra_arrays(rc, ordered)
    sig = ", ".join(text for _, text in ordered) or "void"
    decls, counts = _named_counts(counts)
    out = ["/* Allocates device memory, copies the inputs, launches, copies the results back: 0, or the",
           "   cudaError_t of what failed (cudaErrorInvalidValue: a size below what the kernels reach). */",
           f'extern "C" int {rc.name}_host_status({sig})', "{", "  cudaError_t lx_err;"]
    from looptx.codegen.cuda_locals import local_guard
    out += [f"  const {size_ctype(scop, n)} {n} = {init};" for n, init in internal] + given + fact_guard(scop) + \
        local_guard(rc) + decls + _offset_decls(offsets)
    for name, got, want in short_counts(rc):
        if got is None:
            out += [f"  /* the kernels reach '{to_user(name)}' below the first element copied */",
                    f"  if ({want}) return (int)cudaErrorInvalidValue;"]
            continue
        out += [f"  /* the sizes give '{to_user(name)}' fewer elements than the kernels reach */",
                f"  if ({got} < {want}) return (int)cudaErrorInvalidValue;"]
    written = written_arrays(rc.variant.scop)
    call = []
    for a in rc.arrays:
        if not on_device(a, rc.written_scalars):
            if a.name in rc.scratch:
                out.append(f"  {a.ctype} {a.name} = 0;")
            call.append(a.name)
            continue
        # a scratch variable's device copy needs no value from the host, nor gives one back
        out += _to_device(a, counts[a.name], checked=True, fill=a.name not in rc.scratch and not is_rows(a),
                          src=f"{a.name} + lx_o_{a.name}" if a.name in offsets else None)
        if is_rows(a):
            out += copy_lines(scop, a, dict(scop.fixed), to_device=True)
        call.append(_device_arg(a.name, offsets))
    call += rc.params
    out.append(f"  int lx_rc = lx_launch_{rc.name}({', '.join(call)});")
    out.append("  cudaDeviceSynchronize();")
    for a in rc.arrays:
        if a.name in written and is_rows(a):
            out += copy_lines(scop, a, dict(scop.fixed), to_device=False)
        elif a.name in written and on_device(a, rc.written_scalars) and a.name not in rc.scratch:
            dst = f"{a.name} + lx_o_{a.name}" if a.name in offsets else a.name
            out.append(f"  cudaMemcpy({dst}, lx_d_{a.name}, {counts[a.name]} * sizeof({a.ctype}), cudaMemcpyDeviceToHost);")
    for a in rc.arrays:
        if on_device(a, rc.written_scalars):
            out.append(f"  cudaFree(lx_d_{a.name});")
    out += ["  if (lx_rc == 0) lx_rc = (int)cudaGetLastError();", "  return lx_rc;", "}", ""]
    # a parameter's name is its declarator's (a size --define fixed is `int lx_given_m`)
    args = ", ".join((re.search(r"\(\s*\*+\s*(\w+)\s*\)", t) or re.search(r"(\w+)\s*(?:\[[^\]]*\]\s*)*$", t)).group(1)
                     for _, t in ordered)
    return out + ["/* The contract's entry point, void: it says on stderr what failed. */",
                  f'extern "C" void {rc.name}_host({sig})', "{", f"  int lx_rc = {rc.name}_host_status({args});",
                  f'  if (lx_rc != 0) fprintf(stderr, "{rc.name}_host: %s\\n", cudaGetErrorString((cudaError_t)lx_rc));',
                  "}", ""]
