"""Differential testing helpers: compile the original and a transformed copy of a kernel
program with gcc, run both on the same seeded data, compare their outputs bit for bit."""
from __future__ import annotations

import functools
import hashlib
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
KERNELS = ROOT / "kernels"
CFLAGS = ["-std=c99", "-O0", "-ffp-contract=off", "-fno-fast-math", "-w"]
BUILD_DIR = Path(tempfile.mkdtemp(prefix="looptx-difftest-"))
# gold links these small programs faster than bfd (the tests build thousands of them)
LDFLAGS = ["-fuse-ld=gold"] if shutil.which("ld.gold") else []


def _precompiled_harness() -> None:
    """The kernels' harness.h, precompiled next to the sources _run writes: `#include
    "harness.h"` finds the source's own directory first, and gcc then reads the .gch instead of
    parsing stdio.h, stdlib.h and math.h again for each of the tests' thousands of builds.  A
    source that puts anything before the #include reads the header as text, as before."""
    header = BUILD_DIR / "harness.h"
    header.write_text((KERNELS / "harness.h").read_text())
    proc = subprocess.run(["gcc", *CFLAGS, "-x", "c-header", str(header), "-o", str(header) + ".gch"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        (BUILD_DIR / "harness.h.gch").unlink(missing_ok=True)


_precompiled_harness()


def kernel_files() -> list[Path]:
    return sorted(p for p in KERNELS.glob("*.c"))


def size_sets(path: Path) -> list[dict[str, int]]:
    first = path.read_text().splitlines()[0]
    m = re.match(r"//\s*sizes:\s*(.*)", first)
    assert m, f"{path.name}: line 1 must be '// sizes: ...'"
    out = []
    for group in m.group(1).split("|"):
        out.append({k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", group)})
    return out


def region_function(path: Path) -> str | None:
    second = path.read_text().splitlines()[1]
    m = re.match(r"//\s*region:\s*function\s+(\w+)", second)
    return m.group(1) if m else None


def corpus_program(path):
    """The parsed corpus kernel `path` (its region function's regions where line 2 names one),
    parsed once per process: Programs are immutable values, and the dependences and other
    models computed on their scops (`Scop.cached`) are then shared by every test that uses
    the kernel in this process instead of being computed again on a fresh parse."""
    path = str(path)
    return _corpus_program(path, region_function(Path(path)))


@functools.lru_cache(maxsize=None)
def _corpus_program(path: str, function: str | None):
    from looptx.pipeline import load
    return load(path, function=function)


def _run(src_text: str, sizes: dict[str, int], include: Path = KERNELS, timeout: float = 60) -> str:
    digest = hashlib.sha256((src_text + repr(sorted(sizes.items()))).encode()).hexdigest()[:20]
    exe = BUILD_DIR / f"k{digest}"
    if not exe.exists():
        src = BUILD_DIR / f"k{digest}.c"
        src.write_text(src_text)
        cmd = ["gcc", *CFLAGS, f"-I{include}", *[f"-D{k}={v}" for k, v in sizes.items()],
               str(src), "-o", str(exe), "-lm", *LDFLAGS]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise AssertionError(f"gcc failed:\n{proc.stderr[-3000:]}\n--- source ---\n{src_text[-4000:]}")
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise AssertionError(f"program exited with {proc.returncode}: {proc.stderr[-2000:]}")
    return proc.stdout


@functools.lru_cache(maxsize=None)
def original_output(path: str, sizes_key: tuple) -> str:
    return _run(Path(path).read_text(), dict(sizes_key))


def check_same(path: Path, transformed_text: str, sizes: dict[str, int]) -> None:
    want = original_output(str(path), tuple(sorted(sizes.items())))
    got = _run(transformed_text, sizes)
    assert want.strip(), f"{path.name}: the original printed nothing"
    assert got == want, (f"{path.name} {sizes}: outputs differ\noriginal:\n{want}\ntransformed:\n{got}"
                         f"\n--- transformed source (region) ---\n{transformed_text[-6000:]}")
