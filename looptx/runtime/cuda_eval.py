"""The CUDA backend of `looptx search`: the same points, recipes and CPU reference as the C
evaluator, but each variant is a .cu launcher library timed on the GPU with CUDA events.

Device limits that are known before compiling (threads per block, static shared memory) prune
a point in `prepare`; the limits that depend on the compiled kernel (registers) are checked in
`measure` before the first launch."""
from __future__ import annotations

import hashlib
import subprocess
import time
from dataclasses import dataclass, replace
from typing import Any, Mapping

from looptx.errors import LooptxError
from looptx.runtime.evaluators import CEvaluator, unvalidated
from looptx.search.evaluate import Measurement, Prepared, summarize_times

__all__ = ["CudaEvaluator", "CudaPayload"]

MAX_THREADS = 1024
MAX_STATIC_SHARED = 48 * 1024
_SESSION = None          # one CUDA session per worker process


@dataclass(frozen=True)
class CudaPayload:
    source: str
    spec: dict
    compile_time: float = 0.0         # of the nvcc run in prepare() (parallel in the pool)
    # elements the host code copies of the pointers only index arrays reach (runtime/gathers.py)
    counts: tuple = ()
    carried: tuple = ()               # the point's values of params the build's -D flags carry


def _session():
    global _SESSION
    if _SESSION is None:
        from looptx.runtime.cuda import CudaSession
        _SESSION = CudaSession()
    return _SESSION


def preflight() -> tuple[str, str]:
    """(nvcc arch, device name) of GPU 0, or a LooptxError naming what is missing.  Uses the
    driver API without creating a context, so the parent holds no GPU memory."""
    from looptx.runtime.cuda import nvcc_path
    if nvcc_path() is None:
        raise LooptxError("--backend cuda needs nvcc, which was not found",
                          hint="install the CUDA toolkit or put nvcc on PATH")
    try:
        import pycuda.driver as drv
        drv.init()
        if drv.Device.count() < 1:
            raise LooptxError("--backend cuda: no CUDA device is visible",
                              hint="run on a machine with an NVIDIA GPU, or use --backend c")
        dev = drv.Device(0)
        major, minor = dev.compute_capability()
        return f"sm_{major}{minor}", dev.name()
    except ImportError:
        raise LooptxError("--backend cuda needs pycuda", hint="pip install 'looptx[cuda]'") from None
    except LooptxError:
        raise
    except Exception as e:              # pycuda's driver errors: no driver, no device
        raise LooptxError(f"--backend cuda: CUDA is not usable here ({type(e).__name__}: {e})",
                          hint="run on a machine with an NVIDIA GPU, or use --backend c") from None


class CudaEvaluator(CEvaluator):
    times_on_cpu = False        # CUDA events time the device; a build beside them does not slow it
    def __init__(self, path: str, *, sizes: Mapping[str, int], arch: str = "sm_90",
                 nvcc_flags: str = "-O3", repetitions: int = 10, timeout: float = 120.0,
                 device_name: str = "cuda", **kw):
        super().__init__(path, sizes=sizes, repetitions=repetitions, timeout=timeout, **kw)
        self.arch = arch
        self.nvcc_flags = nvcc_flags
        self.device_name = device_name

    def build(self, point: Mapping[str, Any], recipe=None):
        from looptx.codegen.cuda import cu_file, generate, launch_spec
        from looptx.pipeline import region_name
        prog = self.program(point)
        variant, applied = self.variant(point, recipe)
        rc = generate(variant, region_name(prog, self.region))
        from looptx.runtime.cuda import gathered_counts
        counts = gathered_counts(rc, {**dict(prog.int_macros), **self.sizes})
        return CudaPayload(cu_file(rc, "", dict(prog.int_macros)), launch_spec(rc),
                           counts=tuple(sorted(counts.items())), carried=self.carried(point)), applied

    def prepare(self, point: dict) -> Prepared:
        built, pruned = self.built_or_pruned(point)
        if pruned is not None:
            return pruned
        payload, applied = built
        for k in payload.spec["kernels"]:
            if k["threads"] > MAX_THREADS or k["shared_bytes"] > MAX_STATIC_SHARED:
                return Prepared(point=point, status="over_limit",
                                error=f"kernel {k['name']}: {k['threads']} threads, "
                                      f"{k['shared_bytes']} bytes of shared memory per block")
        h = hashlib.sha256((payload.source + self.arch + self.nvcc_flags).encode()).hexdigest()
        # nvcc takes seconds: compiling here runs the builds in the driver's parallel prepare
        # pool; measure() then finds the library (or the remembered compiler error) in the cache.
        try:
            from looptx.runtime.cuda import build
            b = build(payload.source, payload.spec, arch=self.arch,
                      flags=tuple(self.nvcc_flags.split()), timeout=self.timeout)
            payload = replace(payload, compile_time=b.seconds)
        except LooptxError:
            pass                          # no nvcc here: measure() reports it
        return Prepared(point=point, status="ok", code_hash=h, recipe=applied, payload=payload)

    def measure(self, prepared: Prepared) -> Measurement:
        from looptx.runtime.cuda import build, validate
        t0 = time.perf_counter()
        p = prepared.payload
        if not prepared.ok or not isinstance(p, CudaPayload):
            return Measurement(status="runtime_error", error="not prepared for the CUDA backend")
        try:
            b = build(p.source, p.spec, arch=self.arch, flags=tuple(self.nvcc_flags.split()),
                      timeout=self.timeout)
        except LooptxError as e:
            return Measurement(status="compile_error", error=e.what, run_time=time.perf_counter() - t0)
        compile_time = b.seconds + p.compile_time
        if b.status != "ok":
            return Measurement(status="compile_error", error=b.error, compile_time=compile_time,
                               run_time=time.perf_counter() - t0)
        session = _session()
        sig = self.signature(dict(p.counts))
        chosen = self.reference_data(sig, carried=p.carried)
        ref = chosen.outputs
        written = set(sig.written)
        res = session.run(b, chosen.inputs, dict(sig.values), written=written,
                          repetitions=self.repetitions)
        if res.status == "ok":
            res = validate(res, {k: ref[k] for k in sig.results}, {a.name: a.ctype for a in sig.data_args}, self.rtol)
        info = {"transfer_in": res.transfer_in, "transfer_out": res.transfer_out,
                "max_rel_error": res.max_rel_error, "device": session.describe(), "flags": self.nvcc_flags}
        if res.status != "ok":
            return Measurement(status=res.status, error=res.error, compile_time=compile_time,
                               run_time=time.perf_counter() - t0, info=info)
        med, spread = summarize_times(res.kernel_times)
        m = Measurement(status="ok", time=med, times=tuple(res.kernel_times), spread=spread,
                        compile_time=compile_time, run_time=time.perf_counter() - t0, info=info)
        return unvalidated(m, chosen, sig)

    def describe(self) -> dict:
        self.check_reference()          # see CEvaluator.describe
        try:
            out = subprocess.run(["nvcc", "--version"], capture_output=True, text=True).stdout
            version = next((ln for ln in out.splitlines() if "release" in ln), "nvcc").strip()
        except OSError:
            version = "nvcc (not found)"
        return {"compiler": version, "flags": f"{self.nvcc_flags} -arch={self.arch}",
                "device": f"cuda: {self.device_name} ({self.arch})", "backend": "cuda"}


