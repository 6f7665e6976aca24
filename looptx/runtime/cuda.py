"""Running generated CUDA: build the region's launcher library with nvcc, move data with pycuda,
time the kernels with CUDA events (transfers reported separately), check device limits before
launching, validate against the original region run on the CPU.

pycuda is imported lazily (the `cuda` extra); everything else in looptx works without it.  The
library's host code uses the CUDA runtime API, so pycuda must use the same (primary) context.
"""
from __future__ import annotations

import contextlib
import ctypes
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Mapping

import numpy as np

from looptx import ir
from looptx.errors import LooptxError, RunError
from looptx.runtime.harness import compare_detail, ctype_info, record_dtype, record_view

_CTYPES = {"int": ctypes.c_int, "double": ctypes.c_double, "float": ctypes.c_float,
           "long": ctypes.c_long, "short": ctypes.c_short, "char": ctypes.c_char}


@dataclass
class CudaBuild:
    status: str                       # 'ok' | 'compile_error'
    library: str | None
    spec: dict
    error: str | None = None
    seconds: float = 0.0
    command: str = ""


def nvcc_path() -> str | None:
    return shutil.which("nvcc") or (os.path.exists("/usr/local/cuda/bin/nvcc") and "/usr/local/cuda/bin/nvcc") or None


def _cache_dir() -> str:
    root = os.environ.get("LOOPTX_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "looptx", "cuda")
    try:
        os.makedirs(root, exist_ok=True)
        return root
    except OSError:
        return tempfile.mkdtemp(prefix="looptx-cuda-")


def build(cu_text: str, spec: dict, *, arch: str = "sm_90", flags=("-O3",), timeout: float = 600) -> CudaBuild:
    nvcc = nvcc_path()
    if nvcc is None:
        raise RunError("nvcc was not found", hint="install the CUDA toolkit or put nvcc on PATH")
    cmd_flags = list(flags) + [f"-arch={arch}", "-shared", "-Xcompiler", "-fPIC"]
    key = hashlib.sha256((cu_text + " ".join(cmd_flags)).encode()).hexdigest()[:24]
    root = _cache_dir()
    lib = os.path.join(root, f"lx_{key}.so")
    command = " ".join([nvcc] + cmd_flags)
    if os.path.exists(lib):
        from looptx.runtime.cache_check import damage
        why = damage(lib)          # its launchers' names are C++'s to choose: the headers only
        if why is None:
            return CudaBuild("ok", lib, spec, command=command)
        # a damaged entry is a miss: failing on it would record the variant as broken
        print(f"looptx: warning: the build cache's {lib} does not load ({why}); built again",
              file=sys.stderr)
        with contextlib.suppress(OSError):
            os.unlink(lib)
    # nvcc is slow: a search builds in its prepare pool and measures later, so a failure is
    # remembered too (a deterministic compiler error, not a timeout) instead of compiled twice.
    failed = os.path.join(root, f"lx_{key}.err")
    if os.path.exists(failed):
        with open(failed) as f:
            return CudaBuild("compile_error", None, spec, f.read(), 0.0, command)
    src = os.path.join(root, f"lx_{key}.cu")
    with open(src, "w") as f:
        f.write(cu_text)
    tag = f"{os.getpid()}_{os.urandom(4).hex()}"
    t0 = time.perf_counter()
    try:
        proc = subprocess.run([nvcc, *cmd_flags, src, "-o", f"{lib}.{tag}"], capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return CudaBuild("compile_error", None, spec, f"nvcc ran past {timeout:g} s",
                         time.perf_counter() - t0, command)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(f"{lib}.{tag}")      # Ctrl-C or SIGTERM: no one would rename it into place
        raise
    if proc.returncode != 0:
        first = next((ln for ln in proc.stderr.splitlines() if "error" in ln), proc.stderr.strip()[:300])
        with open(failed, "w") as f:
            f.write(first)
        return CudaBuild("compile_error", None, spec, first, time.perf_counter() - t0, command)
    os.replace(f"{lib}.{tag}", lib)
    return CudaBuild("ok", lib, spec, None, time.perf_counter() - t0, command)


@dataclass
class CudaResult:
    status: str                       # 'ok' | 'runtime_error' | 'over_limit' | 'wrong_result' | 'unvalidated'
    outputs: dict = field(default_factory=dict)
    kernel_times: list = field(default_factory=list)     # seconds per run (events around the launcher)
    transfer_in: float = 0.0
    transfer_out: float = 0.0
    error: str | None = None
    max_rel_error: float | None = None


def _device_locals(spec: dict, sizes: Mapping[str, int]) -> dict[str, np.ndarray]:
    """Memory for the locals the kernels keep on the device (codegen/cuda_locals.crossing_locals):
    the launcher takes them as it takes the arrays, and the region's caller has none."""
    from looptx.runtime.extents import eval_extent
    out = {}
    for name, (ctype, dims) in (spec.get("device_locals") or {}).items():
        count = 1
        for d in dims:
            count *= eval_extent(d, sizes)
        out[name] = np.zeros(max(count, 1), dtype=ctype_info(ctype)[0])
    return out


class CudaSession:
    """One process's GPU: pycuda on the primary context, device limits, launches."""

    def __init__(self):
        try:
            import pycuda.driver as drv
            import pycuda.autoprimaryctx  # noqa: F401  (the runtime API's context)
        except Exception as e:          # ImportError, or no device
            raise RunError(f"CUDA is not available: {type(e).__name__}: {e}",
                           hint="install looptx[cuda] on a machine with an NVIDIA GPU") from None
        self.drv = drv
        self.device = drv.Context.get_device()
        A = drv.device_attribute
        get = self.device.get_attribute
        self.limits = {
            "name": self.device.name(),
            "max_threads_per_block": get(A.MAX_THREADS_PER_BLOCK),
            "max_shared_per_block": get(A.MAX_SHARED_MEMORY_PER_BLOCK),
            "max_registers_per_block": get(A.MAX_REGISTERS_PER_BLOCK),
            "multiprocessors": get(A.MULTIPROCESSOR_COUNT),
            "compute_capability": "%d.%d" % self.device.compute_capability(),
        }

    def describe(self) -> str:
        return f"{self.limits['name']} (sm_{self.limits['compute_capability'].replace('.', '')})"

    def check_limits(self, lib: ctypes.CDLL, spec: dict) -> str | None:
        """None, or why a kernel cannot launch on this device (checked before launching)."""
        attrs = getattr(lib, f"lx_attrs_{spec['name']}")
        attrs.restype = ctypes.c_int
        for n, k in enumerate(spec["kernels"]):
            regs, shared, max_threads = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
            err = attrs(n, ctypes.byref(regs), ctypes.byref(shared), ctypes.byref(max_threads))
            if err != 0:
                return f"cannot query kernel {k['name']} (CUDA error {err})"
            if k["threads"] > max_threads.value:
                return (f"kernel {k['name']} needs {k['threads']} threads per block; with {regs.value} "
                        f"registers per thread this device allows {max_threads.value}")
            if shared.value > self.limits["max_shared_per_block"]:
                return (f"kernel {k['name']} needs {shared.value} bytes of shared memory; the device "
                        f"allows {self.limits['max_shared_per_block']}")
        return None

    def run(self, b: CudaBuild, inputs: Mapping[str, np.ndarray], sizes: Mapping[str, int], *,
            written: set[str], repetitions: int = 10, warmup: int = 2) -> CudaResult:
        drv = self.drv
        lib = ctypes.CDLL(b.library)
        why = self.check_limits(lib, b.spec)
        if why:
            return CudaResult("over_limit", error=why)
        launch = getattr(lib, f"lx_launch_{b.spec['name']}")
        launch.restype = ctypes.c_int
        dev, pristine, host_out = {}, {}, {}
        records = b.spec.get("records") or {}
        inputs, written = _with_structs(records, inputs, written, sizes)
        inputs = {**inputs, **_device_locals(b.spec, sizes)}
        e0, e1 = drv.Event(), drv.Event()
        e0.record()
        for kind, name, ctype in b.spec["args"]:
            if kind != "ptr":
                continue
            arr = np.ascontiguousarray(inputs[name])
            dev[name] = drv.mem_alloc(max(arr.nbytes, 1))
            drv.memcpy_htod(dev[name], arr)
            if name in written:
                pristine[name] = drv.mem_alloc(max(arr.nbytes, 1))
                drv.memcpy_dtod(pristine[name], dev[name], arr.nbytes)
        e1.record()
        e1.synchronize()
        transfer_in = e1.time_since(e0) * 1e-3
        args = []
        for kind, name, ctype in b.spec["args"]:
            if kind == "ptr":
                args.append(ctypes.c_void_p(int(dev[name])))
            elif kind == "int":
                args.append(getattr(ctypes, ctype_info(ctype)[1])(int(sizes[name])))
            else:
                args.append(_CTYPES.get(ctype, ctypes.c_double)(inputs[name].item()))
        times = []
        try:
            for r in range(warmup + repetitions):
                for name, src in pristine.items():            # every run starts from the inputs
                    drv.memcpy_dtod(dev[name], src, inputs[name].nbytes)
                drv.Context.synchronize()
                e0.record()
                err = launch(*args)
                e1.record()
                e1.synchronize()
                if err != 0:
                    return CudaResult("runtime_error", error=f"CUDA error {err} from the launcher")
                if r >= warmup:
                    times.append(e1.time_since(e0) * 1e-3)
            e0.record()
            for name in written:
                if name in dev:
                    out = np.empty_like(inputs[name])
                    drv.memcpy_dtoh(out, dev[name])
                    host_out[name] = out
            e1.record()
            e1.synchronize()
        except drv.Error as e:
            return CudaResult("runtime_error", error=str(e).splitlines()[0])
        finally:
            for m in list(dev.values()) + list(pristine.values()):
                m.free()
        for base, members in records.items():
            if base in host_out:
                structs = host_out.pop(base)
                host_out.update({r.name: record_view(structs, r.path).copy() for r in members})
        return CudaResult("ok", host_out, times, transfer_in, e1.time_since(e0) * 1e-3)


def _with_structs(records: dict, inputs: Mapping[str, np.ndarray], written: set[str], sizes) -> tuple[dict, set]:
    """The inputs with each array of structs laid out from its members' arrays (as run's C
    harness does), and the struct arrays whose members are written."""
    if not records:
        return inputs, written
    out, written = dict(inputs), set(written)
    for base, members in records.items():
        first = members[0]
        structs = np.zeros(np.shape(inputs[first.name])[:first.rank], record_dtype(first.layout, dict(sizes)))
        for r in members:
            np.copyto(record_view(structs, r.path), inputs[r.name])
        out[base] = structs
        if any(r.name in written for r in members):
            written.add(base)
    return out, written


def validate(result: CudaResult, reference: Mapping[str, np.ndarray], ctypes_: Mapping[str, str],
             rtol: float | None = None) -> CudaResult:
    worst = 0.0
    for name, ref in reference.items():
        if name not in result.outputs:
            continue
        c = compare_detail(ref, result.outputs[name], ctypes_[name], rtol)
        worst = max(worst, c.norm_rel_error)
        if not c.ok:
            result.status = "wrong_result"
            result.error = c.describe(name)
    result.max_rel_error = worst
    return result


def reference_outputs(scop, int_macros, sizes, inputs, written, counts=None) -> dict[str, np.ndarray]:
    """The original region run on the CPU (gcc -O1) on the same inputs."""
    from looptx.pipeline import c_block
    from looptx.poly.variant import original
    from looptx.runtime.cpu import RegionRun, Toolchain, build_shared
    from looptx.runtime.harness import RegionSignature, region_source
    sig = RegionSignature.from_scop(scop, int_macros, sizes, counts)
    built = build_shared(region_source(sig, c_block(original(scop))), Toolchain.from_options("-O1"))
    if not built.ok:
        raise RunError(f"the original region does not compile: {built.error}")
    run = RegionRun(built.path, sig, {k: v.copy() for k, v in inputs.items()})
    run.call()
    outs = run.outputs()
    return {k: np.asarray(v) for k, v in outs.items() if k in written}


def gathered_counts(rc, values: Mapping[str, int]) -> dict[str, int]:
    """The elements the host code copies of each pointer that only index arrays reach (its
    `sizes` count): the harness keeps the indexes below it."""
    from looptx.codegen.cuda_host import element_counts
    from looptx.runtime.extents import eval_extent
    gathered = {a.array for s in rc.variant.scop.statements for a in s.accesses
                if any(ir.is_gathered(x) for x in a.index)}
    if not gathered:
        return {}
    out = {}
    for name, text in element_counts(rc).items():
        if name in gathered:
            try:
                out[name] = eval_extent(text.replace("(size_t)", ""), values)
            except (KeyError, ValueError):
                pass
    return out


def dtype_of(ctype: str):
    return ctype_info(ctype)[0]


__all__ = ["build", "CudaSession", "validate", "reference_outputs", "CudaBuild", "CudaResult",
           "nvcc_path", "LooptxError"]


def run_region(program, index: int, variant, sizes: Mapping[str, int], *, session: CudaSession | None = None,
               repetitions: int = 10, seed: int = 0, arch: str = "sm_90", rtol: float | None = None,
               flags=("-O3",)) -> dict:
    """Build, validate and time one region's CUDA variant: the figures `looptx run` prints."""
    from looptx.codegen.cuda import cu_file, generate, launch_spec
    from looptx.codegen.cuda_rows import extent_name, is_rows
    from looptx.pipeline import region_name
    from looptx.runtime.harness import RegionSignature
    from looptx.runtime.reference import choose_reference, unvalidated_hint, unvalidated_text
    scop = program.scops[index]
    macros = program.int_macros
    rc = generate(variant, region_name(program, index))
    counts = gathered_counts(rc, {**dict(macros), **sizes})
    sig = RegionSignature.from_scop(scop, macros, sizes, counts)
    spec = launch_spec(rc)
    # a #define the sizes set (PolyBench's `#ifndef N`, run with -D N=64) is the build's -D
    cu = cu_file(rc, "", {**dict(macros), **{k: v for k, v in sizes.items() if k in dict(macros)}})
    b = build(cu, spec, arch=arch, flags=flags)
    out = {"status": b.status, "error": b.error, "build_seconds": b.seconds, "kernels": spec["kernels"],
           "warnings": rc.warnings}
    if b.status != "ok":
        return out
    session = session or CudaSession()
    written = set(sig.written)
    values = dict(sig.values)
    # the kernels index an array whose rows are pointers by its row lengths: here, those of
    # the harness's block (codegen/cuda_rows.py)
    rows = {x.name for x in scop.arrays if is_rows(x)}
    values.update({extent_name(a.name, k): a.shape[k] for a in sig.data_args if a.name in rows
                   for k in range(1, len(a.shape))})
    chosen = choose_reference(sig, seed, lambda inputs: reference_outputs(scop, macros, sizes,
                                                                           inputs, written, counts))
    ref = chosen.outputs
    res = session.run(b, chosen.inputs, values, written=written, repetitions=repetitions)
    if res.status == "ok":
        res = validate(res, {k: ref[k] for k in sig.results}, {a.name: a.ctype for a in sig.data_args}, rtol)
    if res.status == "ok" and not chosen.validatable:
        # agreeing with NaN/Inf proves nothing (runtime/reference.py)
        res.status, res.error = "unvalidated", f"{unvalidated_text(chosen)} ({unvalidated_hint(chosen)})"
    out.update(status=res.status, error=res.error, times=res.kernel_times,
               median=statistics.median(res.kernel_times) if res.kernel_times else None,
               transfer_in=res.transfer_in, transfer_out=res.transfer_out,
               max_rel_error=res.max_rel_error, device=session.describe())
    return out


def variable_size_problem(path: str, recipe, sizes: Mapping[str, int], index: int, *,
                          function=None, extra_decls=None, unsafe=False,
                          session: CudaSession | None = None, repetitions: int = 3) -> str | None:
    """What is wrong, at these sizes, with the .cu `looptx transform` writes without -D, where
    the sizes the file declares are kernel arguments: `looptx run -D` measures the .cu for
    fixed sizes, whose bounds and guards isl simplifies differently.  None when it is right,
    when there is no such .cu (the region needs its sizes fixed), or when its host code
    refuses these sizes (a runtime fact fails)."""
    from looptx.pipeline import fragment_inputs, load, variants_for
    from looptx.runtime.harness import RegionSignature
    stand_ins = fragment_inputs(path, None)[1]
    try:
        program = load(path, defines=stand_ins, function=function, extra_decls=extra_decls,
                       soft=frozenset(stand_ins))
        variants, _ = variants_for(program, recipe, unsafe=unsafe)
        scop = program.scops[index]
        sig = RegionSignature.from_scop(scop, program.int_macros, sizes)
    except (LooptxError, IndexError):
        return None
    values = dict(sig.values)
    if index not in variants or not set(scop.params) - set(dict(scop.fixed)) \
            or not scop.facts_hold(values) \
            or any(n in values and values[n] != v for n, v in (*scop.baked, *variants[index].scop.baked)):
        # a #defined size a step took at its value (a thread loop's extent, a full unroll):
        # that .cu stops the build at any other (#error)
        return None
    try:
        r = run_region(program, index, variants[index], sizes, session=session,
                       repetitions=repetitions)
    except LooptxError:
        # its grid needs the sizes (a thread loop with no constant extent otherwise): `looptx
        # transform` without -D refuses it too, so there is no such .cu to check
        return None
    if r["status"] == "ok":
        return None
    given = ", ".join(f"{k}={v}" for k, v in sizes.items())
    return (f"the .cu for variable sizes (what `looptx transform` writes without -D) fails at "
            f"{given}: {r['status'].replace('_', ' ')}: {r.get('error')}")
