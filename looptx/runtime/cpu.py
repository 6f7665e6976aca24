"""Build a region translation unit into a shared library, call it on numpy arrays, time it.

    tc = Toolchain.from_options(cflags="-O3")                 # or build_command="gcc -O2 -march=native"
    b = build_shared(region_source(sig, block), tc)           # BuildResult (cached by content)
    if not b.ok: print(b.status, b.error)                     # 'compile_error', first error line
    run = RegionRun(b.path, sig, make_inputs(sig, seed))      # owns copies of the inputs
    run.reset(); run.call(); outs = run.outputs()
    times = time_region(run, repetitions=5, warmup=1)

Timing happens in this process around the ctypes call (`time.perf_counter`), so no process
start-up, page faults of fresh allocations or data initialisation enter the figure.  Every run
(warm-up and timed) starts from the same data: the written arguments are reset to their initial
values before each call (outside the timed interval), unlike Orio, whose `C += A*B` repetitions
accumulate.  The cost of the ctypes call itself is measured by `call_overhead()` (about a
microsecond; see the tests) and is *not* subtracted.

Builds are cached under `$LOOPTX_CACHE_DIR`, else `$XDG_CACHE_HOME/looptx/build` (default
`~/.cache/looptx/build`), else a per-user temp dir, keyed by sha256 of the source text, the
compiler and its arguments; concurrent builders of one key are safe (atomic rename).  The
cache is kept under `$LOOPTX_CACHE_MAX_MB` (runtime/cache_trim.py).
"""
from __future__ import annotations

import contextlib
import ctypes
import functools
import gc
import hashlib
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from looptx.runtime.cache_check import damage, entry_points
from looptx.runtime.cache_trim import maybe_trim, touch
from looptx.runtime.harness import RegionSignature, ctype_info, record_dtype, record_view

__all__ = ["Toolchain", "BuildResult", "build_shared", "RegionRun", "time_region",
           "call_overhead", "compiler_version", "cpu_model", "cache_dir"]

_SHARED = ("-fPIC", "-shared")
_LINK_LAST = ("-l", "-L", "-Wl,")


@dataclass(frozen=True)
class Toolchain:
    """A compiler and its arguments.  `flags` are compile options; `libs` go after the source."""

    compiler: str = "gcc"
    flags: tuple[str, ...] = ("-O3",)
    libs: tuple[str, ...] = ()

    @classmethod
    def from_options(cls, cflags: str | Sequence[str] | None = "-O3", build_command: str | None = None,
                     compiler: str | None = None) -> "Toolchain":
        """From an Orio-style `build_command` ('gcc -O2 -march=native -lm', @NAME@ already
        substituted: the first word is the compiler), else from `compiler` (default gcc) and
        `cflags`."""
        if build_command is not None:
            words = shlex.split(build_command)
            if not words:
                raise ValueError("empty build command")
            cc, rest = words[0], words[1:]
        else:
            cc = compiler or "gcc"
            rest = shlex.split(cflags) if isinstance(cflags, str) else list(cflags or ())
        # Orio build commands may carry their own output or mode switches; the harness decides
        # those (a shared library), so they are dropped rather than passed twice.
        flags, libs, skip = [], [], False
        for w in rest:
            if skip:
                skip = False
                continue
            if w == "-o":
                skip = True
            elif w in ("-c", "-shared", "-fPIC", "-fpic"):
                continue
            elif w.startswith(_LINK_LAST) or w.endswith((".a", ".so", ".o")):
                libs.append(w)
            else:
                flags.append(w)
        return cls(cc, tuple(flags), tuple(libs))

    @property
    def flags_text(self) -> str:
        return " ".join(self.flags + self.libs)

    def command(self, src: str, out: str) -> list[str]:
        return [self.compiler, *self.flags, *_SHARED, "-o", out, src, *self.libs, "-lm"]

    def key(self) -> str:
        # the contents of the files the command names (`-include cfg.h`, an object in libs):
        # an edit of one is another build, not the cached one
        named = []
        for arg in (*self.flags, *self.libs):
            if not arg.startswith("-") and os.path.isfile(arg):
                with open(arg, "rb") as f:
                    named.append(hashlib.sha256(f.read()).hexdigest())
        return "\0".join((self.compiler, *self.flags, "|", *self.libs, "|", *named))

    def with_flags(self, flags: Sequence[str]) -> "Toolchain":
        return Toolchain(self.compiler, tuple(flags), self.libs)


@dataclass(frozen=True)
class BuildResult:
    status: str                 # 'ok' | 'compile_error'
    path: str | None            # the shared library (status ok)
    error: str | None = None    # first error line of the compiler
    log: str = ""               # the compiler's whole stderr
    compile_time: float = 0.0   # seconds spent compiling in this call (0 when cached)
    cached: bool = False
    command: str = ""
    timed_out: bool = False     # the compiler ran past its time limit

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def cache_dir() -> str:
    cands = []
    if os.environ.get("LOOPTX_CACHE_DIR"):
        cands.append(os.environ["LOOPTX_CACHE_DIR"])
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    cands.append(os.path.join(xdg, "looptx", "build"))
    cands.append(os.path.join(tempfile.gettempdir(), f"looptx-build-{os.getuid()}"))
    for d in cands:
        try:
            os.makedirs(d, exist_ok=True)
            if os.access(d, os.W_OK):
                return d
        except OSError:
            continue
    return tempfile.mkdtemp(prefix="looptx-build-")


def _first_error(stderr: str) -> str:
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    # the linker's own line says what it lacks; collect2's only that it failed
    for ln in lines:
        if ("error:" in ln or "Error:" in ln) and not ln.startswith("collect2"):
            return ln
    for ln in lines:
        if "cannot find" in ln:
            return ln
    for ln in lines:
        if "undefined reference" in ln or "fatal" in ln:
            return ln
    return lines[0] if lines else "the compiler failed without a message"


def _compile(cmd, timeout):
    """subprocess.run in a session of its own: a timeout kills gcc's cc1 and as too, which
    would otherwise go on compiling, orphaned, long after the search gave up on them."""
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          start_new_session=True) as p:
        try:
            out, err = p.communicate(timeout=timeout)
        except BaseException:
            # a timeout, or Ctrl-C, which the compiler's own session does not receive.
            # SIGTERM first: the gcc driver then deletes its temporary files.
            with contextlib.suppress(OSError):
                os.killpg(p.pid, signal.SIGTERM)
            try:
                p.communicate(timeout=1.0)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(OSError):
                    os.killpg(p.pid, signal.SIGKILL)
                p.communicate()
            raise
    return subprocess.CompletedProcess(cmd, p.returncode, out, err)


def build_shared(source: str, toolchain: Toolchain, *, cache: str | None = None,
                 timeout: float | None = None) -> BuildResult:
    """Compile `source` into a shared library (or find it in the cache).  Never raises for a
    failing compiler: that is a BuildResult with status 'compile_error'."""
    d = cache or cache_dir()
    try:
        os.makedirs(d, exist_ok=True)
    except OSError as e:
        return BuildResult("compile_error", None, f"cannot create the build cache '{d}': {e}")
    digest = hashlib.sha256((toolchain.key() + "\0" + source).encode()).hexdigest()[:32]
    out = os.path.join(d, f"lx_{digest}.so")
    src = os.path.join(d, f"lx_{digest}.c")
    cmd_text = shlex.join(toolchain.command(src, out))
    if os.path.exists(out):
        why = damage(out, entry_points(source))
        if why is None:
            touch(out)
            return BuildResult("ok", out, cached=True, command=cmd_text)
        # a damaged entry is a miss: failing on it would record the variant as broken
        print(f"looptx: warning: the build cache's {out} does not load ({why}); built again",
              file=sys.stderr)
        _unlink(out)
    maybe_trim(d)
    tag = f"{os.getpid()}_{os.urandom(4).hex()}"
    tmp_src, tmp_out = f"{src}.{tag}.c", f"{out}.{tag}.so"
    try:
        with open(tmp_src, "w", encoding="utf-8") as f:
            f.write(source)
        os.replace(tmp_src, src)
    except OSError as e:
        return BuildResult("compile_error", None, f"cannot write to the build cache '{d}': {e}")
    cmd = toolchain.command(src, tmp_out)
    t0 = time.perf_counter()
    try:
        proc = _compile(cmd, timeout)
    except FileNotFoundError:
        return BuildResult("compile_error", None, f"compiler '{toolchain.compiler}' not found",
                           compile_time=time.perf_counter() - t0, command=cmd_text)
    except subprocess.TimeoutExpired:
        _unlink(tmp_out)
        return BuildResult("compile_error", None, f"the compiler ran past {timeout:g} s",
                           compile_time=time.perf_counter() - t0, command=cmd_text, timed_out=True)
    except BaseException:
        _unlink(tmp_out)             # Ctrl-C or SIGTERM: no one would rename it into place
        raise
    dt = time.perf_counter() - t0
    if proc.returncode != 0 or not os.path.exists(tmp_out):
        _unlink(tmp_out)
        return BuildResult("compile_error", None, _first_error(proc.stderr), proc.stderr,
                           compile_time=dt, command=cmd_text)
    os.replace(tmp_out, out)
    return BuildResult("ok", out, log=proc.stderr, compile_time=dt, command=cmd_text)


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


@functools.lru_cache(maxsize=None)
def _library(path: str) -> ctypes.CDLL:
    # dlopen of one path twice returns the same handle anyway; the cache saves the lookup.
    return ctypes.CDLL(path, mode=getattr(os, "RTLD_LOCAL", 0))


class RegionRun:
    """The region function bound to private copies of its inputs, ready to be called.

    The arrays are allocated once; `reset()` copies the initial values back into every written
    argument (not into read-only ones, which a correct variant does not change: `inputs_intact`
    checks that).  Sizes and read-only scalars are passed by value, everything else by address."""

    def __init__(self, library: str, sig: RegionSignature, inputs: Mapping[str, np.ndarray],
                 name: str = "lx_region"):
        self.sig = sig
        self._inputs = inputs
        self.fn = getattr(_library(library), name)
        self.arrays: dict[str, np.ndarray] = {}
        self.initial: dict[str, np.ndarray] = {}
        argtypes, args = [], []
        structs: dict[str, np.ndarray] = {}      # arrays of structs: one buffer, members as views
        for a in sig.args:
            if a.kind == "size":
                ct = getattr(ctypes, ctype_info(a.ctype)[1])
                argtypes.append(ct)
                args.append(ct(int(a.value)))
                continue
            dt, ctname, _ = ctype_info(a.ctype)
            given = np.asarray(inputs[a.name])
            if given.shape != a.shape:
                raise ValueError(f"input '{a.name}' has shape {given.shape}, expected {a.shape}")
            if a.record is not None:
                base = a.record.base
                if base not in structs:
                    structs[base] = np.zeros(a.shape[:a.record.rank], record_dtype(a.record.layout, dict(sig.values)))
                    argtypes.append(ctypes.c_void_p)
                    args.append(ctypes.c_void_p(structs[base].ctypes.data))
                view = record_view(structs[base], a.record.path)
                np.copyto(view, given)
                if a.written:
                    self.initial[a.name] = view.copy()
                self.arrays[a.name] = view
                continue
            if a.kind == "scalar_in" and not a.by_address:
                ct = getattr(ctypes, ctname)
                argtypes.append(ct)
                args.append(ct(given.item()))
                continue
            buf = np.array(given, dtype=dt, order="C", copy=True)
            if a.written:
                self.initial[a.name] = buf.copy()
            self.arrays[a.name] = buf
            argtypes.append(ctypes.c_void_p)
            args.append(ctypes.c_void_p(buf.ctypes.data))
        self.fn.argtypes = argtypes
        self.fn.restype = None
        self.args = tuple(args)

    def reset(self) -> None:
        for name, init in self.initial.items():
            np.copyto(self.arrays[name], init)

    def call(self) -> None:
        self.fn(*self.args)

    def outputs(self) -> dict[str, np.ndarray]:
        """Copies of the current values of every written argument."""
        return {n: self.arrays[n].copy() for n in self.sig.written}

    def inputs_intact(self) -> str | None:
        """The first read-only array the last calls changed, or None."""
        for n in self.sig.read_only:
            if n in self.arrays and not np.array_equal(self.arrays[n], np.asarray(self._inputs[n]),
                                                       equal_nan=self.arrays[n].dtype.kind in "fc"):
                return n
        return None


def time_region(run: RegionRun, repetitions: int = 5, warmup: int = 1) -> list[float]:
    """Seconds of each of `repetitions` calls, each from reset data, after `warmup` calls.

    The garbage collector is off while timing so that a collection cannot land in a run."""
    fn, args, reset, clock = run.fn, run.args, run.reset, time.perf_counter
    times = []
    was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(max(0, warmup)):
            reset()
            fn(*args)
        for _ in range(max(1, repetitions)):
            reset()
            t0 = clock()
            fn(*args)
            times.append(clock() - t0)
    finally:
        if was:
            gc.enable()
    return times


_EMPTY_TU = "void lx_empty(int n, double *a, double *b, double s) { (void)n; (void)a; (void)b; (void)s; }\n"


def call_overhead(samples: int = 2000, toolchain: Toolchain | None = None) -> float:
    """Median seconds that `time_region` measures for an empty region function of 4 arguments:
    the floor under every CPU timing (ctypes call + perf_counter)."""
    tc = toolchain or Toolchain(flags=("-O2",))
    b = build_shared(_EMPTY_TU, tc)
    if not b.ok:
        raise RuntimeError(f"cannot build the empty function: {b.error}")
    fn = _library(b.path).lx_empty
    fn.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_double]
    fn.restype = None
    buf = np.zeros(4)
    args = (ctypes.c_int(4), ctypes.c_void_p(buf.ctypes.data), ctypes.c_void_p(buf.ctypes.data),
            ctypes.c_double(1.0))
    clock = time.perf_counter
    xs = []
    for _ in range(samples):
        t0 = clock()
        fn(*args)
        xs.append(clock() - t0)
    return float(np.median(xs))


@functools.lru_cache(maxsize=None)
def compiler_version(compiler: str = "gcc") -> str:
    """First line of `COMPILER --version` ('gcc (Debian 12.2.0-14) 12.2.0'), or the name."""
    try:
        p = subprocess.run([compiler, "--version"], capture_output=True, text=True, timeout=30)
        first = (p.stdout or p.stderr).strip().splitlines()
        return first[0] if first else compiler
    except (OSError, subprocess.TimeoutExpired):
        return compiler


@functools.lru_cache(maxsize=None)
def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for ln in f:
                if ln.lower().startswith(("model name", "hardware", "cpu model")):
                    return ln.split(":", 1)[1].strip()
    except OSError:
        pass
    import platform
    return platform.processor() or platform.machine() or "unknown cpu"
