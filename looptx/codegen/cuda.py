"""CUDA output: kernels, an extern "C" launcher over device pointers (host loops included), a
host function that allocates, copies, launches and copies back, an optional standalone main,
and the C emulation of the grid used by the C backend."""
from __future__ import annotations

import copy
import dataclasses

import re
from dataclasses import dataclass, field

from looptx import ir
from looptx.codegen.cuda_datasets import dataset_guard
from looptx.codegen import ast as K
from looptx.frontend.conditionals import cu_conditionals
from looptx.codegen.versioning import baked_guard
from looptx.codegen.c import (CPrinter, ThreadPrinter, _zeroed, buffer_decl, copy_decls, helper_block, loop_ctype,
                              name_loops, used_helpers)
from looptx.codegen.cuda_axes import AXES, index_decls, kernel_axes, on_axes
from looptx.codegen.cuda_const import const_parameters
from looptx.codegen.cuda_locals import crossing_locals, device_decl, local_guard
from looptx.codegen.cuda_records import device_arrays, record_definitions, refuse_unportable_types, written_arrays
from looptx.codegen.cuda_rows import extent_name, is_rows, row_extents
from looptx.poly.privatize import scratch
from looptx.codegen.cxx_names import cxx_safe
from looptx.codegen.cuda_notes import count_warnings
from looptx.codegen.typed_constants import typed_constant
from looptx.codegen.cuda_host import (element_counts, fact_guard, host_function, host_only_texts,
                                      macros_needed, size_ctype)
from looptx.codegen.cuda_main import standalone_main
from looptx.poly import gpu, gpu_checks
from looptx.poly.bank_conflicts import note_conflicts
from looptx.poly.variant import Variant



@dataclass
class KernelCode:
    name: str
    # (kind 'array'|'const'|'shared' (written, not __restrict__)|'scalar'|'int', ctype, name)
    params: list[tuple[str, str, str]]
    block: tuple[int, ...]
    grid_dims: int
    body: list[str]
    shared: list[str]
    local: list[str]
    has_sync: bool
    node: K.Node = None
    index_names: tuple = ()                 # (blocks, threads): signed int copies of the CUDA indices
    mapping: object = None                  # the cuda step's gpu.Mapping (None: a one-thread kernel)


@dataclass
class RegionCuda:
    name: str                                # C name of the region (launcher / host function prefix)
    variant: Variant
    kernels: list[KernelCode] = field(default_factory=list)
    launch_lines: list[str] = field(default_factory=list)
    host_node: K.Node = None
    arrays: list = field(default_factory=list)     # scop arrays that are arguments
    params: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # variables of the function that carry no value in or out: the host function's own
    scratch: frozenset = frozenset()
    # the locals kept in device memory (scop Arrays): the C emulation declares them once, and
    # a caller of the launcher gives them memory, having no variable of theirs
    device_locals: list = field(default_factory=list)
    # the file's integer macros (cu_file's): the values of the sizes a local's initializer
    # computes from them
    int_macros: dict = field(default_factory=dict)


class CudaPrinter(ThreadPrinter):
    """Global arrays are flat pointers: multi-dimensional references are linearized; written
    scalars live in device memory (s[0])."""
    sync_text = "__syncthreads();"

    def __init__(self, variant, written_scalars=(), buffers=(), indent="  "):
        super().__init__(variant, buffers, indent)
        self.written_scalars = set(written_scalars)

    def body_of(self, body: ir.Expr) -> ir.Expr:
        return c_math_args(body)

    def _past_int(self, arr) -> bool:
        """The array may hold 2^31 elements or more: at the sizes' values (--define, the
        #defines), or at all where an extent is a size the host function receives (a 50000 x
        50000 float matrix fits a GPU): its linearized subscript is computed in 64 bits, as C's
        `a[i][j]` addresses it."""
        from looptx.runtime.extents import eval_extent
        values = {**dict(self.scop.macro_values), **dict(self.scop.fixed)}
        total = 1
        for d in arr.dims:
            try:
                total *= eval_extent(d, values)
            except (KeyError, ValueError, RecursionError, TypeError):
                return True
        return arr.wide_index or total >= 2 ** 31

    def ref_text(self, r: ir.Ref) -> str:
        try:
            arr = self.scop.array(r.array)
        except KeyError:
            return super().ref_text(r)
        if arr.rank == 0:
            return f"{r.array}[0]" if r.array in self.written_scalars else r.array
        if arr.local:
            # the kernel declares it with its own extents (codegen/cuda_locals.py)
            return super().ref_text(r)
        rec = self.scop.record(r.array) if self.scop.records else None
        if rec is not None and rec.rank > 1 and not arr.strides:
            # the struct array is a flat device pointer; the member's own subscripts stay
            flat = r.index[0]
            for extent, e in zip(arr.dims[1:rec.rank], r.index[1:rec.rank]):
                flat = ir.Bin("+", ir.Bin("*", flat, ir.Var(f"({extent})" if not extent.isidentifier() else extent)), e)
            return rec.spell([ir.to_c(K.simplify(flat))] + [ir.to_c(i) for i in r.index[rec.rank:]])
        if arr.strides or len(r.index) == 1 or rec is not None:
            return super().ref_text(r)
        flat = ir.Cast("long", r.index[0]) if self._past_int(arr) else r.index[0]
        extents = [extent_name(arr.name, k) for k in range(1, arr.rank)] if is_rows(arr) else arr.dims[1:]
        for extent, e in zip(extents, r.index[1:]):
            flat = ir.Bin("+", ir.Bin("*", flat, ir.Var(f"({extent})" if not extent.isidentifier() else extent)), e)
        return f"{r.array}[{ir.to_c(K.simplify(flat))}]"


# math.h's double functions: C converts their arguments to double; C++ picks an overload by
# the argument's type instead (a float one, or for an int a constexpr host template that a
# kernel cannot call), so the .cu makes C's conversion explicit.  ldexp's exponent stays int.
_DOUBLE_MATH = {f: None for f in """sqrt exp exp2 expm1 log log2 log10 log1p logb pow sin cos tan asin
acos atan atan2 sinh cosh tanh asinh acosh atanh fabs fmax fmin fdim floor ceil round lround llround
rint lrint llrint nearbyint trunc fmod remainder cbrt hypot erf erfc tgamma copysign nextafter fma
ilogb""".split()} | {"ldexp": (0,), "scalbn": (0,), "scalbln": (0,)}


def c_math_args(e: ir.Expr) -> ir.Expr:
    """`e` with the arguments of math.h's double functions cast to double."""
    def cast(x):
        if not (isinstance(x, ir.Call) and x.fn in _DOUBLE_MATH):
            return x
        which = _DOUBLE_MATH[x.fn]
        return dataclasses.replace(x, args=tuple(_as_double(a) if which is None or k in which else a
                                                 for k, a in enumerate(x.args)))
    return ir.map_up(e, cast)


def _as_double(a: ir.Expr) -> ir.Expr:
    double_literal = isinstance(a, ir.Num) and any(c in a.text for c in ".eE") and not a.text.lower().endswith("f") \
        and not a.text.lower().startswith("0x")
    double = double_literal or isinstance(a, ir.Cast) and a.ctype == "double" \
        or isinstance(a, ir.Call) and a.fn in _DOUBLE_MATH and a.fn not in ("ldexp",)
    return a if double else ir.Cast("double", a)


def _refs(node: K.Node) -> set[str]:
    out = set()
    for s in K.statements(node):
        if isinstance(s, K.Leaf):
            out |= {r.array for _, r in s.refs}
        else:
            for e in (s.lhs, s.rhs):
                if isinstance(e, ir.Ref):
                    out.add(e.array)
    return out


def _free(name: str, taken: set[str]) -> str:
    return name if name not in taken else f"lx_{name}"


def _has_sync(node: K.Node) -> bool:
    if isinstance(node, K.Sync):
        return True
    return any(_has_sync(c) for c in K.children(node))


def generate(variant: Variant, name: str, deps=None) -> RegionCuda:
    """Every kernel of the region and the host launch code (as KernelAST), made once per
    variant and name: `looptx transform --target cuda,c` writes the .cu and the C emulation of
    one variant.  A copy: cu_file sets its macros."""
    if deps is not None:
        return _generate(variant, name, deps)
    made = variant._cache.get(("cuda", name))
    if made is None:
        made = variant._cache[("cuda", name)] = _generate(variant, name)
    return copy.copy(made)


def _generate(variant: Variant, name: str, deps=None, device_locals: frozenset = frozenset()) -> RegionCuda:
    """generate's work.  `device_locals`: locals kept in device memory (cuda_locals.crossing_locals)."""
    from looptx.poly.astgen import _Builder
    from looptx.poly.deps import compute_deps
    from looptx.poly.gpu_host import host_tree
    from looptx.poly.promote import SPACING, Plan, check_shared_total, plan as make_plan, promotions

    scop = variant.scop
    plan = make_plan(variant) if promotions(variant) else Plan(variant, variant.width)
    v = plan.variant
    kern = gpu.kernels(v, name)
    crossing = crossing_locals(v, kern) if not device_locals else frozenset()
    if crossing:
        # the same dependences: only where the code keeps the variable changes
        arrays = tuple(dataclasses.replace(a, local=False) if a.name in crossing else a for a in scop.arrays)
        return _generate(variant.evolve(scop=dataclasses.replace(scop, arrays=arrays, _cache={})), name,
                         deps or compute_deps(scop), crossing)
    # kernels whose threads pass values through global memory across a loop's barrier: their
    # written arrays are no `__restrict__` parameters, under which nvcc (LLVM's noalias) moves a
    # store past the barrier and forwards the thread's own value (probe 195 G1, wave stencil)
    through_global: set[int] = set()            # their pieces
    if gpu.mappings(v):
        deps = deps or compute_deps(scop)
        for K0, c in gpu_checks.check(v, deps):
            through_global.update(K0.pieces)
            piece = v.pieces[gpu.loop_at(v, K0, c)]
            children = [p.dims[c + 1] for p in v.pieces if len(p.dims) > c + 1 and p.prefix(c + 1) == piece.prefix(c + 1)]
            # (after the register stores of the loop's body too, which take the slots up to half a
            # spacing after the statements: a thread's store must reach the others before they load)
            plan.add_sync(piece.dims[:c + 1], max(children) + SPACING // 2)
            kern = gpu.kernels(v, name)
    check_shared_total(plan, kern)
    out = RegionCuda(name, v)
    for K0 in kern:
        if not K0.mapped:
            stmts = sorted({v.pieces[k].stmt for k in K0.pieces})
            many = len(stmts) > 1
            out.warnings.append(f"statement{'s' if many else ''} {', '.join(map(str, stmts))} "
                                f"{'are' if many else 'is'} not mapped by a cuda step: "
                                f"{'they run' if many else 'it runs'} in a one-thread kernel ({K0.name}): correct, slow")
    plans = gpu.kernel_plans(plan, kern, scop.prefix)
    note_conflicts(plan, kern, lambda K: kernel_axes(K.mapping, len(K.block), len(K.thread))[1])
    written = written_arrays(scop)
    written_scalars = {a.name for a in scop.arrays if a.rank == 0 and a.name in written and not a.local}
    buffers = {b.name: b for b in plan.buffers}
    for kp in plans:
        Kn = kp.kernel
        node = _Builder(v, plan, schedule=kp.schedule, context=kp.context).build()
        # blockIdx/threadIdx are unsigned: index arithmetic on them would wrap below zero, so the
        # kernel works on signed copies (PPCG does the same)
        from looptx.codegen.c import reserved_names
        taken = reserved_names(v)
        baxes, taxes = kernel_axes(Kn.mapping, len(Kn.block), len(Kn.thread))
        bnames = [_free(f"b{AXES[baxes[n]]}", taken) for n in range(len(Kn.block))]
        tnames = [_free(f"t{AXES[taxes[n]]}", taken) for n in range(len(Kn.thread))]
        scope = {f"lx_b{n}": ir.Var(bnames[n]) for n in range(len(Kn.block))}
        scope.update({f"lx_t{n}": ir.Var(tnames[n]) for n in range(len(Kn.thread))})
        node = K.without_leading_sync(name_loops(node, v, reserved=taken | set(bnames) | set(tnames), scope=scope))
        used = _refs(node)
        arrays = device_arrays(scop, [a for a in scop.arrays if a.name in used and not a.local])
        params = []
        for a in arrays:
            if a.rank == 0 and a.name not in written_scalars:
                params.append(("scalar", a.ctype, a.name))
            else:
                params.append(("const" if a.name not in written else
                               "shared" if through_global & set(Kn.pieces) else "array", a.ctype, a.name))
        printer = CudaPrinter(v, written_scalars, plan.buffers)
        shared = [buffer_decl(buffers[b], "__shared__ ") for b in sorted(used) if b in buffers
                  and buffers[b].kind == "shared"]
        local = [buffer_decl(buffers[b], per_thread=True) for b in sorted(used)
                 if b in buffers and buffers[b].kind != "shared"]
        local += [a.decl for a in scop.arrays if a.local and a.decl and a.name in used] + copy_decls(scop, node)
        body = printer.lines(node, 1)
        # a size the kernel's code never names is no argument of it (Parboil lbm's 20 enum
        # constants, which its subscripts hold as numbers)
        named = set(re.findall(r"[A-Za-z_]\w*", "\n".join(body + shared + local)))
        params += [("int", size_ctype(scop, p), p) for p in _size_params(scop) if p in named]
        params += [("int", loop_ctype(scop), f"lx_h{n}") for n in range(len(Kn.host_dims))]
        out.kernels.append(KernelCode(Kn.name, params, Kn.block_size if Kn.mapped else (1,),
                                      len(Kn.block), body, shared, local, _has_sync(node), node,
                                      (tuple(bnames), tuple(tnames)), Kn.mapping))
    # host code: loops outside the kernels, one launch per iteration
    launch = gpu.launch_schedule(v, kern, plan.width, scop.prefix)
    out.host_node = name_loops(host_tree(v, kern, plans, launch), v)
    out.buffers = plan.buffers
    out.arrays = device_arrays(scop, [a for a in scop.arrays if not a.local])
    out.params = _size_params(scop)
    out.written_scalars = written_scalars
    out.scratch = scratch(scop) | device_locals
    out.device_locals = [a for a in scop.arrays if a.name in device_locals]
    out.warnings += count_warnings(v, out.arrays)
    return out


def _size_params(scop) -> list[str]:
    """The sizes the .cu's functions take.  A #defined size the model took at its value (one
    that multiplies an iterator in a subscript) is not one: the code holds only there, so the
    .cu defines it, as a size fixed with --define, and checks the build as the C output does."""
    fixed = {n for n, _ in scop.fixed} | {n for n, _ in scop.baked}
    # a #defined size is a macro of the .cu as of the file (`nvcc -DN=37` would turn a
    # parameter named N into `int 37`), and a call written for the original passes no N
    macros = {n for n, _ in scop.macro_values} | set(scop.soft_macros)
    out = [p for p in scop.params if p not in fixed and p not in macros]
    # a row length that bounds no loop (`float u[nx][ny]` over x <= x_M): the kernels'
    # subscripts read it all the same; so do a local's (`int ny = m + 4;`, Devito's
    # `u_vec->size[1]` as u_vec__size__1), which the caller passes as it does the parameters
    received = set(scop.function_params) | {n for n, _ in (*scop.derived, *scop.extent_members)}
    for a in scop.arrays:
        for stride in (a.strides or ()) + (tuple(a.dims[1:]) if not a.local else ()):
            out += [n for n in re.findall(r"[A-Za-z_]\w*", stride)
                    if n not in fixed and n not in macros and n not in out and n in received]
    return out + row_extents(scop)


# ---- printing ----------------------------------------------------------------------------------

def _arg_kind(rc: RegionCuda, a, const: set[str]) -> str:
    """The kind of an argument of the launcher and the host function: an array keeps the
    `const` the original function's parameter has (codegen/cuda_const.py)."""
    if not a.rank and a.name not in rc.written_scalars:
        return "scalar"
    return "const" if a.name in const and a.rank and a.name not in written_arrays(rc.variant.scop) else "array"


def _ptr(kind: str, ctype: str, name: str) -> str:
    if kind in ("int", "scalar"):
        return f"{ctype} {name}"
    const = "const " if kind == "const" else ""
    return f"{ctype} *{name}" if kind == "shared" else f"{const}{ctype} *__restrict__ {name}"


class HostPrinter(CPrinter):
    """Host loops with kernel launches (CUDA) or with the kernel body inlined in grid loops (C)."""

    omp = False

    def __init__(self, rc: RegionCuda, emulate: bool, indent="  ", spelled: bool = False):
        super().__init__(rc.variant, indent, spelled=spelled)
        self.rc = rc
        self.emulate = emulate
        locals_ = [a for a in rc.variant.scop.arrays if a.local]
        # an emulated thread zeroes its scalars: it may set one under a guard and read it in a
        # loop whose bounds imply that guard, which gcc cannot pair (-Wmaybe-uninitialized)
        self.scalar_types = {a.decl: a.ctype for a in locals_ if not a.rank}
        # in the user's file, as it spells them (`q31_t sum;`, not `int sum;`)
        self.spelling = {a.decl: a.spelled_decl for a in locals_ if a.spelled_decl} if spelled else {}

    def lines(self, n, depth=0):
        if isinstance(n, K.Launch):
            return self.launch(n, depth)
        return super().lines(n, depth)

    def launch(self, n: K.Launch, depth: int) -> list[str]:
        kc = self.rc.kernels[n.kernel]
        pad = self.ind * depth
        grid = [ir.to_c(g) if isinstance(g, (ir.Num, ir.Var)) else f"({self.expr(g)})" for g in n.grid] or ["1"]
        grid += ["1"] * (3 - len(grid))
        block = list(kc.block) + [1] * (3 - len(kc.block))
        host = {f"lx_h{k}": self.expr(a) for k, a in enumerate(n.args)}
        if not self.emulate:
            baxes, taxes = kernel_axes(kc.mapping, kc.grid_dims, len(kc.block) if kc.mapping is not None else 0)
            grid = on_axes(grid[:kc.grid_dims], baxes, "1") if kc.grid_dims else grid
            block = on_axes(list(kc.block), taxes, 1) if kc.mapping is not None and kc.block else block
            # grid sizes are computed as signed 64-bit values: dim3 would turn a negative size into
            # a huge one, and an int cut a long size's grid; a grid past CUDA's limits launches
            # nothing, which the host function says rather than return success
            args = ", ".join(host.get(p, p) for _, _, p in kc.params)
            sizes = ", ".join(f"lx_g{k} = {g}" for k, g in enumerate(grid))
            return [f"{pad}{{",
                    f"{pad}{self.ind}const long long {sizes};",
                    f"{pad}{self.ind}if (lx_g0 > 2147483647LL || lx_g1 > 65535 || lx_g2 > 65535) "
                    "return (int)cudaErrorInvalidConfiguration;",
                    f"{pad}{self.ind}if (lx_g0 > 0 && lx_g1 > 0 && lx_g2 > 0)",
                    f"{pad}{self.ind * 2}{kc.name}<<<dim3((unsigned)lx_g0, (unsigned)lx_g1, (unsigned)lx_g2), "
                    f"dim3({', '.join(map(str, block))})>>>({args});",
                    f"{pad}}}"]
        # C emulation: loops over the grid and the block around the kernel body
        lines = [f"{pad}{{ /* {kc.name}: grid ({', '.join(grid)}), block ({', '.join(map(str, block))}) */"]
        inner = pad + self.ind
        for k, h in host.items():
            lines.append(f"{inner}const int {k} = {h};")
        depth_in = depth + 1
        bn, tn = kc.index_names
        for axis in reversed(range(kc.grid_dims)):
            b = bn[axis]
            lines.append(f"{self.ind * depth_in}for ({loop_ctype(self.v.scop)} {b} = 0; {b} < {grid[axis]}; {b}++)")
            depth_in += 1
        for axis in reversed(range(len(tn))):
            t = tn[axis]
            lines.append(f"{self.ind * depth_in}for (int {t} = 0; {t} < {block[axis]}; {t}++)")
            depth_in += 1
        lines.append(f"{self.ind * depth_in}{{")
        for d in kc.local:
            lines.append(f"{self.ind * (depth_in + 1)}{_zeroed(self.spelling.get(d, d), self.scalar_types.get(d))}")
        for ln in ThreadPrinter(self.v, self.rc.buffers, self.ind, spelled=self.spelled).lines(kc.node, 1):
            lines.append(self.ind * depth_in + ln)
        lines.append(f"{self.ind * depth_in}}}")
        lines.append(f"{pad}}}")
        return lines


def emulation_block(rc: RegionCuda, spelled: bool = False) -> list[str]:
    """The region for the C backend: every kernel emulated by loops over blocks and threads.
    Kernels with barriers cannot be emulated thread by thread; the caller falls back to the
    sequential schedule for those.  `spelled`: for the user's file (codegen/c.CPrinter)."""
    printer = HostPrinter(rc, emulate=True, spelled=spelled)
    return ["{"] + ["  " + (a.spelled_decl if spelled and a.spelled_decl else a.decl) for a in rc.device_locals] \
        + printer.lines(rc.host_node, 1) + ["}"]


def cu_file(rc: RegionCuda, header: str, int_macros: dict, standalone: bool = False,
            sizes: dict | None = None) -> str:
    scop = rc.variant.scop
    rc.int_macros = dict(int_macros)
    refuse_unportable_types(rc)
    out = [header.rstrip(), "#include <cuda_runtime.h>", "#include <math.h>", "#include <stdio.h>",
           "#include <stdlib.h>", "#include <stdint.h>", ""]     # a size may be a uint16_t (CMSIS-NN)
    definitions = record_definitions(scop, {**int_macros, **dict(scop.macro_values), **dict(scop.fixed)})
    at_helpers = len(out)
    kernel_text = []
    divergent = False
    for kc in rc.kernels:
        body = kc.body
        if _divergent_barriers(body):
            divergent = True
            body = [ln.replace("__syncthreads();", "lx_barrier();") for ln in body]
        params = ", ".join(_ptr(*p) for p in kc.params)
        threads = 1
        for b in kc.block:
            threads *= b
        kernel_text.append(f"__global__ void __launch_bounds__({threads}) {kc.name}({params})")
        kernel_text.append("{")
        kernel_text += ["  " + d for d in index_decls(kc, loop_ctype(scop)) + kc.shared + [device_decl(rc, kc, x) for x in kc.local]]
        kernel_text += body
        kernel_text.append("}")
        kernel_text.append("")
    body_text = "\n".join(kernel_text)
    offsets: dict = {}
    counts = element_counts(rc, offsets)
    launch_text = HostPrinter(rc, emulate=False).lines(rc.host_node, 1)
    # every size the file names is a parameter of its functions or defined here (a size fixed
    # with --define may appear only in a linearized subscript or in an element count)
    needed = macros_needed(scop, int_macros, rc.params, [body_text, *launch_text, *counts.values(),
                                                         *offsets.values(), *host_only_texts(rc)])
    # before the sizes' #defines, which could name a helper's parameter; renamed, since CUDA's
    # headers overload names a C file may use for its own (max, min, abs)
    out[at_helpers:at_helpers] = _user_helpers(scop.helpers, [body_text, *launch_text, *counts.values(),
                                                              *offsets.values()])
    # the guards read the pinned defaults and the #defined sizes modelled at their values: the
    # .cu has no #define of the user's file, so it defines them here when the build does not
    needed.update({k: v for k, v in (*scop.pinned_macros, *scop.baked) if k not in needed})
    # a size the .cu defines is a macro a build may set (-DN=128): the code made for the value
    # --define gave a plain #define too, or the facts `known` gave, stops such a build as the C does
    pinned = dict(scop.pinned_macros) | dict(scop.baked)
    fixed_macros = tuple((k, v) for k, v in scop.fixed if k in dict(int_macros) and k not in pinned)
    needed.update({k: v for k, v in fixed_macros if k not in needed})
    # a build flag of the user's header (PolyBench's -DMINI_DATASET) must not choose other sizes
    out += dataset_guard(scop.filename, {k: v for k, v in needed.items() if isinstance(v, int)})
    typed = dict(scop.size_types)
    out += [f"#ifndef {k}\n#define {k} {typed_constant(v, typed.get(k)) if isinstance(v, int) else v}\n#endif"
            for k, v in needed.items()]
    out += baked_guard(scop, facts=True) + cu_conditionals(scop, needed)
    for k, v in fixed_macros:
        out += [f"#if {k} != {v}", f'#error "looptx transformed this region with --define {k}={v}: transform '
                f'again with --define {k}=VALUE"', "#endif"]
    helpers = used_helpers(body_text) | used_helpers("\n".join(launch_text + list(counts.values())
                                                               + list(offsets.values()) + host_only_texts(rc)))
    out += helper_block(helpers)
    if divergent:
        out += _BARRIER
    out += definitions
    out.append("")
    out.append(body_text)
    const = const_parameters(scop)
    dev_args = [_ptr(_arg_kind(rc, a, const), a.ctype, a.name) for a in rc.arrays]
    int_args = [f"{size_ctype(rc.variant.scop, p)} {p}" for p in rc.params]
    sig = ", ".join(dev_args + int_args) or "void"
    out.append("/* Launches every kernel of the region on device pointers (host loops included). */")
    out.append(f'extern "C" int lx_launch_{rc.name}({sig})')
    out.append("{")
    out += fact_guard(rc.variant.scop) + local_guard(rc)
    out += launch_text
    out.append("  return (int)cudaGetLastError();")
    out.append("}")
    out.append("")
    out += host_function(rc, dev_args, counts, offsets)
    out += _attrs_function(rc)
    if standalone:
        out += standalone_main(rc, sizes or {}, int_macros, counts, offsets)
    return cxx_safe("\n".join(out) + "\n")


def _user_helpers(helpers, texts: list[str]) -> list[str]:
    """The file's helper functions that the code calls (nvcc warns of an unused one), with
    those they call."""
    named = {re.match(r"[^(]*?(\w+)\s*\(", h).group(1): h for h in helpers}
    used: set[str] = set()
    pending = "\n".join(texts)
    while True:
        new = {n for n in named if n not in used and re.search(rf"\b{n}\s*\(", pending)}
        if not new:
            break
        used |= new
        pending = "\n".join(named[n].split("(", 1)[1] for n in new)
    out = []
    for name, h in named.items():
        if name in used:
            out += [f"#define {name} lx_fn_{name}", "static __host__ __device__ inline " + h]
    return out


def launch_spec(rc: RegionCuda) -> dict:
    """What a runtime needs to call lx_launch_<name>: argument order and kinds, kernels."""
    args = []
    for a in rc.arrays:
        if a.rank == 0 and a.name not in rc.written_scalars:
            args.append(("value", a.name, a.ctype))
        else:
            args.append(("ptr", a.name, a.ctype))
    args += [("int", p, size_ctype(rc.variant.scop, p)) for p in rc.params]
    # an array of structs travels as one buffer of its members (runtime/cuda.py lays it out)
    records = {r.base: [] for r in rc.variant.scop.records}
    for r in rc.variant.scop.records:
        records[r.base].append(r)
    kernels = []
    for kc in rc.kernels:
        threads = 1
        for b in kc.block:
            threads *= b
        shared = sum(_bytes(d) for d in kc.shared)
        kernels.append({"name": kc.name, "threads": threads, "shared_bytes": shared, "sync": kc.has_sync})
    # locals the kernels keep in device memory: the caller has no value of theirs to pass
    device_locals = {a.name: (a.ctype, list(a.dims)) for a in rc.device_locals}
    return {"name": rc.name, "args": args, "kernels": kernels, "records": records, "device_locals": device_locals}


def _bytes(decl: str) -> int:
    import re
    m = re.match(r"__shared__ (\w+(?: \w+)?) \w+((?:\[\d+\])*);", decl)
    if not m:
        return 0
    size = {"double": 8, "float": 4, "int": 4, "long": 8, "char": 1, "short": 2}.get(m.group(1).split()[-1], 8)
    for d in re.findall(r"\[(\d+)\]", m.group(2)):
        size *= int(d)
    return size


def _attrs_function(rc: RegionCuda) -> list[str]:
    # lx_ names only: a kernel may be called k or a
    out = [f'extern "C" int lx_attrs_{rc.name}(int lx_k, int *lx_regs, int *lx_shared, int *lx_max_threads)',
           "{", "  cudaFuncAttributes lx_a;", "  cudaError_t lx_e = cudaErrorInvalidValue;", "  switch (lx_k) {"]
    for n, kc in enumerate(rc.kernels):
        out.append(f"  case {n}: lx_e = cudaFuncGetAttributes(&lx_a, {kc.name}); break;")
    out += ["  }", "  if (lx_e != cudaSuccess) return (int)lx_e;",
            "  *lx_regs = lx_a.numRegs; *lx_shared = (int)lx_a.sharedSizeBytes;",
            "  *lx_max_threads = lx_a.maxThreadsPerBlock;", "  return 0;", "}", ""]
    return out


# __syncthreads() is an aligned barrier: every thread of a warp must reach the same instruction.
# Where the kernel's loops around a barrier depend on the thread index, threads meet the same
# number of barriers in the same order but at different places in the code (the copy loops of
# a `shared` step run per thread), which hangs on Volta and later; the non-aligned barrier
# (PTX barrier.sync, sm_70+) counts arrivals wherever they happen.
_BARRIER = ["#ifndef lx_barrier",
            "#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700",
            '#define lx_barrier() asm volatile("barrier.sync 0;" ::: "memory")',
            "#else",
            "#define lx_barrier() __syncthreads()",
            "#endif",
            "#endif"]
_THREAD_INDEX = re.compile(r"\bt[xyz]\b")


def _divergent_barriers(body: list[str]) -> bool:
    """Whether a barrier sits under a loop or branch whose header names a thread index (the
    headers enclosing a line are the nearest less-indented lines above it)."""
    for k, line in enumerate(body):
        if "__syncthreads();" not in line:
            continue
        depth = len(line) - len(line.lstrip())
        for above in reversed(body[:k]):
            d = len(above) - len(above.lstrip())
            # `} else {` closes a branch whose condition is on the `if` line further up
            if d < depth and above.strip() != "{" and not above.lstrip().startswith("}"):
                if _THREAD_INDEX.search(above):
                    return True
                depth = d
    return False
