"""Running a generated .cu on the CPU, one POSIX thread per CUDA thread of a block and one block
after another, with __syncthreads() a barrier of the block's threads: the kernels with shared
copies, whose barriers the C emulation cannot order (it falls back to the sequential
schedule), run as written, so that tests without a GPU check which threads copy what and when.

Only what looptx's .cu files use is provided: kernels, __shared__ arrays (one per block, the
blocks running in turn), the runtime calls of the host functions.  Warp-level behaviour
(shuffles, atomics) is not modelled; looptx emits none."""
from __future__ import annotations

import ctypes
import hashlib
import re
import subprocess
import tempfile
from pathlib import Path

import numpy as np

SHIM = r"""
#pragma once
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <functional>
struct dim3 { unsigned x, y, z; dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {} };
static thread_local dim3 threadIdx, blockIdx;
static dim3 blockDim, gridDim;
static pthread_barrier_t lx_cpu_bar;
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static
#define __syncthreads() pthread_barrier_wait(&lx_cpu_bar)
#define lx_barrier() pthread_barrier_wait(&lx_cpu_bar)
typedef int cudaError_t;
enum { cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2, cudaErrorLaunchFailure = 4,
       cudaErrorInvalidConfiguration = 9 };
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice };
static int lx_cpu_error = 0;
static cudaError_t cudaMalloc(void **p, size_t n) { *p = calloc(n ? n : 1, 1); return *p ? 0 : 2; }
static cudaError_t cudaFree(void *p) { free(p); return 0; }
static cudaError_t cudaMemcpy(void *d, const void *s, size_t n, int) { memcpy(d, s, n); return 0; }
static cudaError_t cudaMemset(void *d, int v, size_t n) { memset(d, v, n); return 0; }
static cudaError_t cudaDeviceSynchronize(void) { return 0; }
static cudaError_t cudaGetLastError(void) { int e = lx_cpu_error; lx_cpu_error = 0; return e; }
static const char *cudaGetErrorString(cudaError_t e) { return e ? "launch failed" : "no error"; }
struct cudaFuncAttributes { int numRegs; size_t sharedSizeBytes; int maxThreadsPerBlock; };
template <class F> static cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, F)
{ a->numRegs = 0; a->sharedSizeBytes = 0; a->maxThreadsPerBlock = 1024; return 0; }
typedef int cudaEvent_t;
static cudaError_t cudaEventCreate(cudaEvent_t *e) { *e = 0; return 0; }
static cudaError_t cudaEventRecord(cudaEvent_t, int = 0) { return 0; }
static cudaError_t cudaEventSynchronize(cudaEvent_t) { return 0; }
static cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t, cudaEvent_t) { *ms = 0; return 0; }
struct lx_cpu_job { std::function<void()> *body; dim3 block, thread; };
static void *lx_cpu_thread(void *p)
{
  lx_cpu_job *j = (lx_cpu_job *)p;
  blockIdx = j->block;
  threadIdx = j->thread;
  (*j->body)();
  return 0;
}
static void lx_cpu_launch(dim3 grid, dim3 block, std::function<void()> body)
{
  unsigned n = block.x * block.y * block.z;
  if (n == 0 || n > 1024 || block.z > 64 || grid.y > 65535 || grid.z > 65535) { lx_cpu_error = cudaErrorInvalidValue; return; }
  gridDim = grid;
  blockDim = block;
  pthread_t *ids = (pthread_t *)malloc(n * sizeof(pthread_t));
  lx_cpu_job *jobs = (lx_cpu_job *)malloc(n * sizeof(lx_cpu_job));
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 1 << 20);
  for (unsigned bz = 0; bz < grid.z; bz++)
    for (unsigned by = 0; by < grid.y; by++)
      for (unsigned bx = 0; bx < grid.x; bx++) {
        pthread_barrier_init(&lx_cpu_bar, 0, n);
        unsigned k = 0;
        for (unsigned tz = 0; tz < block.z; tz++)
          for (unsigned ty = 0; ty < block.y; ty++)
            for (unsigned tx = 0; tx < block.x; tx++, k++) {
              jobs[k].body = &body;
              jobs[k].block = dim3(bx, by, bz);
              jobs[k].thread = dim3(tx, ty, tz);
              pthread_create(&ids[k], &attr, lx_cpu_thread, &jobs[k]);
            }
        for (k = 0; k < n; k++)
          pthread_join(ids[k], 0);
        pthread_barrier_destroy(&lx_cpu_bar);
      }
  pthread_attr_destroy(&attr);
  free(ids);
  free(jobs);
}
"""

_LAUNCH = re.compile(r"(\w+)<<<(.*?)>>>\((.*)\);")


def cpu_source(cu: str) -> str:
    """The .cu's text for g++: its launches as calls of lx_cpu_launch."""
    def launch(m: re.Match) -> str:
        grid, block = _split_top(m.group(2))
        return f"lx_cpu_launch({grid}, {block}, [&]() {{ {m.group(1)}({m.group(3)}); }});"
    return _LAUNCH.sub(launch, cu)


def _split_top(text: str) -> tuple[str, str]:
    depth = 0
    for k, ch in enumerate(text):
        depth += ch in "(["
        depth -= ch in ")]"
        if ch == "," and depth == 0:
            return text[:k].strip(), text[k + 1:].strip()
    raise ValueError(f"cannot read the launch configuration '{text}'")


def build(cu: str, where: Path) -> ctypes.CDLL:
    """The .cu built for the CPU into a shared library in `where`."""
    where.mkdir(parents=True, exist_ok=True)
    (where / "cuda_runtime.h").write_text(SHIM)
    text = cpu_source(cu)
    # named by the text: dlopen hands back a library already loaded from the same path
    tag = hashlib.sha256(text.encode()).hexdigest()[:16]
    src = where / f"k_cpu_{tag}.cpp"
    src.write_text(text)
    lib = where / f"k_cpu_{tag}.so"
    proc = subprocess.run(["g++", "-O1", "-std=c++17", "-w", "-fPIC", "-shared", "-pthread", "-I", str(where),
                           str(src), "-o", str(lib)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise AssertionError(f"g++ rejects the CPU build of the .cu:\n{proc.stderr[:3000]}")
    return ctypes.CDLL(str(lib))


_DTYPES = {"double": np.float64, "float": np.float32, "int": np.int32, "long": np.int64}
_CSCALARS = {"double": ctypes.c_double, "float": ctypes.c_float, "int": ctypes.c_int, "long": ctypes.c_long,
             "unsigned int": ctypes.c_uint, "unsigned": ctypes.c_uint, "unsigned long": ctypes.c_ulong,
             "short": ctypes.c_short, "unsigned short": ctypes.c_ushort, "signed char": ctypes.c_byte,
             "unsigned char": ctypes.c_ubyte}


def host_params(cu: str, function: str) -> list[tuple[str, str, bool]]:
    """(C type, name, pointer) of each parameter of the .cu's `<function>_host`."""
    m = re.search(rf'extern "C" void {function}_host\(([^)]*)\)', cu)
    if m is None:
        raise AssertionError(f"no {function}_host in the .cu")
    out = []
    for p in m.group(1).split(","):
        words = p.replace("*", " * ").replace("__restrict__", " ").replace("const ", " ").split()
        out.append((" ".join(w for w in words[:-1] if w != "*"), words[-1], "*" in words))
    return out


def element_counts(cu: str, sizes: dict) -> dict[str, int]:
    """Each device array's element count, as the host function allocates it."""
    from looptx.runtime.extents import eval_extent
    counts, in_c = {}, {}
    for m in re.finditer(r"cudaMalloc\(\(void \*\*\)&lx_d_(\w+), (.*?) \* sizeof\(\w+\)\)", cu):
        text = m.group(2).replace("(size_t)", "")
        named = re.search(rf"const size_t {re.escape(text.strip())} = (.*?);", cu)
        text = (named.group(1) if named else text).replace("(size_t)", "")
        try:
            counts[m.group(1)] = eval_extent(text, sizes)
        except ValueError:
            # a linearized pointer array's count is guarded (`(n >= 3 && m >= 3) ? ... : 0`):
            # C itself evaluates it, with C's own operators
            in_c[m.group(1)] = text
    counts.update(_counts_in_c(in_c, sizes))
    return counts


def _counts_in_c(exprs: dict[str, str], sizes: dict) -> dict[str, int]:
    if not exprs:
        return {}
    src = "#include <stdio.h>\n#include <stddef.h>\n" + \
        "".join(f"#define {k} ((long long)({v}))\n" for k, v in sizes.items()) + \
        "int main(void) {\n" + "".join(f'  printf("%lld\\n", (long long)({e}));\n' for e in exprs.values()) + \
        "  return 0;\n}\n"
    with tempfile.TemporaryDirectory(prefix="lx_counts_") as d:
        (Path(d) / "counts.c").write_text(src)
        subprocess.run(["gcc", "-w", str(Path(d) / "counts.c"), "-o", str(Path(d) / "counts")], check=True)
        values = subprocess.run([str(Path(d) / "counts")], capture_output=True, text=True, check=True).stdout.split()
    return {name: int(x) for name, x in zip(exprs, values)}


def compare_host(cu: str, c_path: Path, function: str, sizes: dict, where: Path, seed: int = 1,
                 include: Path | None = None) -> dict[str, float]:
    """Runs `<function>_host` of the .cu on CPU threads and `function` of the C file on the same
    seeded data: the largest relative difference of each array argument."""
    text = re.sub(r"\bstatic\s+(void\s+\w+\s*\()", r"\1", Path(c_path).read_text())
    where.mkdir(parents=True, exist_ok=True)
    tag = hashlib.sha256(text.encode()).hexdigest()[:16]
    (where / f"orig_{tag}.c").write_text(text)
    subprocess.run(["gcc", "-O1", "-fPIC", "-shared", "-Dmain=lx_unused_main", "-w",
                    *(["-I", str(include)] if include else []), str(where / f"orig_{tag}.c"),
                    "-o", str(where / f"orig_{tag}.so"), "-lm"], check=True)
    orig = ctypes.CDLL(str(where / f"orig_{tag}.so"))
    gpu = build(cu, where)
    counts = element_counts(cu, sizes)
    rng = np.random.default_rng(seed)
    args = []
    for ctype, name, pointer in host_params(cu, function):
        if pointer:
            dtype = _DTYPES[ctype]
            n = max(counts[name], 1)
            args.append((name, (rng.random(n) + 0.5).astype(dtype) if dtype in (np.float32, np.float64)
                         else rng.integers(0, 7, n).astype(dtype)))
        elif name in sizes or name.startswith("lx_given_") and name[9:] in sizes:
            # (a size --define fixed is `lx_given_m`, checked against the value)
            args.append((name, _CSCALARS[ctype](int(sizes[name if name in sizes else name[9:]]))))
        else:
            args.append((name, _CSCALARS[ctype](0.5 + rng.random() if ctype in ("double", "float") else 3)))
    results = []
    for fn in (getattr(orig, function), getattr(gpu, f"{function}_host")):
        copies = [(n, a.copy()) if isinstance(a, np.ndarray) else (n, a) for n, a in args]
        fn(*[a.ctypes.data_as(ctypes.c_void_p) if isinstance(a, np.ndarray) else a for _, a in copies])
        results.append({n: a for n, a in copies if isinstance(a, np.ndarray)})
    out = {}
    for name, want in results[0].items():
        got = results[1][name]
        scale = max(float(np.max(np.abs(want.astype(np.float64)))), 1e-30)
        out[name] = float(np.max(np.abs(want.astype(np.float64) - got.astype(np.float64)))) / scale
    return out
