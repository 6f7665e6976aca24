"""CUDA without a GPU: every corpus kernel x 3 recipes is compiled with nvcc -arch=sm_90 -cubin, and
barrier-free kernels run through the C emulation of their grid, bit-identical to the original."""
import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor

import pytest

import cuda_cases
from cuda_cases import kernel_names, recipes, yaml_text
from difftest import KERNELS, check_same, corpus_program, kernel_files, size_sets
from looptx.codegen.render import render_file
from looptx.errors import LegalityError
from looptx.frontend.names import to_user
from looptx.pipeline import c_block, cuda_file, header, transform_file, variants_for
from looptx.recipe.apply import apply_recipe
from looptx.recipe.schema import load_yaml

NVCC = shutil.which("nvcc")
needs_nvcc = pytest.mark.skipif(NVCC is None, reason="nvcc is not installed (CI machines have it)")
POOL = ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2))


def nvcc_compile(text: str) -> str | None:
    """nvcc's errors for a .cu, else None.  `-cubin` compiles the kernels to sm_90 code and has
    nvcc's front end check the whole file, host functions included, but skips the host
    compiler's second pass over them (two thirds of nvcc's time); tests that build and link
    whole programs (test_cli_regressions, test_chill_scripts, the GPU tests) run that pass."""
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "k.cu")
        with open(src, "w") as f:
            f.write(text)
        p = subprocess.run([NVCC, "-arch=sm_90", "-cubin", src, "-o", os.path.join(d, "k.cubin")],
                           capture_output=True, text=True)
        return None if p.returncode == 0 else p.stderr[-2000:]


_INCLUDE = re.compile(r"^\s*#\s*include\b.*$", re.M)
_EXTERN_C = re.compile(r'extern "C"[^(;{]*?\b(\w+)\s*\(')
_MACRO = re.compile(r"^\s*#\s*define\s+(\w+)", re.M)


def nvcc_compile_all(texts: list[str]) -> list[str | None]:
    """nvcc's errors for each .cu, as nvcc_compile gives them.  Half of a second of nvcc's time
    per file is its own headers, so variants with the same #include lines are first compiled
    as one translation unit: each in a namespace of its own, its `extern "C"` names renamed by
    macros and every macro it defines undefined after it, so that none sees another's names.
    Where that unit does not compile, each is compiled alone, for its own errors."""
    includes = {tuple(_INCLUDE.findall(t)) for t in texts}
    if len(texts) > 1 and len(includes) == 1:
        unit = list(next(iter(includes)))
        for k, text in enumerate(texts):
            names = sorted(set(_EXTERN_C.findall(text)))
            unit += [f"#define {n} lx_v{k}_{n}" for n in names]
            unit += [f"namespace lx_v{k} {{", _INCLUDE.sub("", text), "}"]
            unit += [f"#undef {n}" for n in sorted(set(names) | set(_MACRO.findall(text)))]
        if nvcc_compile("\n".join(unit)) is None:
            return [None] * len(texts)
    return list(POOL.map(nvcc_compile, texts))


def _applying_once():
    """variants_for that applies a recipe to a Program once: cuda_cases.recipes applies every
    candidate recipe to pick the kernel's three, and the test then writes the .cu and C texts
    of those three from the same applications (Programs and Variants are immutable values)."""
    done = {}

    def apply(program, recipe, **kw):
        key = (id(program), recipe.text, tuple(sorted(kw.items())))
        if key not in done:
            done[key] = (program, variants_for(program, recipe, **kw))   # keeps id(program) taken
        return done[key][1]
    return apply


def _variant_texts(prog, kernel, steps, apply=variants_for):
    """The .cu file and its C emulation for the recipe: what `transform_file(kernel, recipe,
    function=..., target=("cuda", "c"))` writes (one reading of the file, one application of
    the recipe for both targets), made from the process's one parse of the kernel
    (difftest.corpus_program), whose dependences every recipe on the kernel shares."""
    recipe = load_yaml(yaml_text(steps), file=f"{kernel.stem}.yaml")
    variants, applied = apply(prog, recipe)
    head = header(str(kernel), applied)
    cu = to_user(cuda_file(prog, variants, head))
    c = to_user(render_file(prog, {i: c_block(v, spelled=True) for i, v in variants.items()}, head))
    return cu, c


UNMAPPED = {"cholesky", "doitgen-scalar", "floyd-warshall", "gemv-scalar", "seidel-1d", "seidel-2d"}
TWO_RECIPES = {"doitgen-scalar", "gemv-scalar"}


@needs_nvcc
@pytest.mark.parametrize("kernel", kernel_files(), ids=lambda k: k.stem)
def test_corpus_kernel_cuda(kernel, monkeypatch):
    prog = corpus_program(kernel)
    apply = _applying_once()
    monkeypatch.setattr(cuda_cases, "variants_for", apply)
    cases = recipes(prog)
    # the generator's coverage, kernel by kernel: three recipes, two or more of them mapped,
    # except where every loop carries a dependence or a scalar reduction leaves one recipe out
    assert len(cases) >= (2 if kernel.stem in TWO_RECIPES else 3), (kernel.stem, cases)
    mapped = sum(1 for c in cases if any(s.startswith("cuda:") for s in c))
    assert mapped >= (0 if kernel.stem in UNMAPPED else 2), (kernel.stem, cases)
    texts = [_variant_texts(prog, kernel, steps, apply) for steps in cases]
    errors = nvcc_compile_all([cu for cu, _ in texts])
    for steps, err, (cu, _) in zip(cases, errors, texts):
        assert err is None, f"{kernel.stem} {steps}:\n{err}\n{cu[-3000:]}"
        assert kernel_names(cu), cu[:2000]
    for steps, (cu, emulated) in zip(cases, texts):
        assert "__syncthreads" not in cu
        for sizes in size_sets(kernel):
            check_same(kernel, emulated, sizes)


SHARED = """
params: {T: 16}
steps:
  - tile: {stmt: 0, loop: i, size: $T, control: ii}
  - tile: {stmt: 0, loop: j, size: $T, control: jj}
  - tile: {stmt: 0, loop: k, size: $T, control: kk}
  - permute: {stmt: 0, order: [ii, jj, kk, i, j, k]}
  - cuda: {stmt: 0, block: [jj, ii], thread: [j, i]}
  - shared: {stmt: 0, array: A, at: kk}
  - shared: {stmt: 0, array: B, at: kk, pad: 1}
  - registers: {stmt: 0, array: C, at: kk}
  - unroll: {stmt: 0, loop: k, factor: 4}
"""


@needs_nvcc
def test_shared_memory_matmul(tmp_path):
    r = tmp_path / "shared.yaml"
    r.write_text(SHARED)
    cu = transform_file(str(KERNELS / "matmul.c"), recipe=str(r), target="cuda")
    assert "__shared__ double A_sh[16][16];" in cu and "__shared__ double B_sh[16][17];" in cu
    assert cu.count("__syncthreads();") == 2
    assert nvcc_compile(cu) is None
    # on the C backend a kernel with barriers runs as the sequential schedule
    c = transform_file(str(KERNELS / "matmul.c"), recipe=str(r))
    for sizes in size_sets(KERNELS / "matmul.c"):
        check_same(KERNELS / "matmul.c", c, sizes)


def test_mapping_a_dependence_carrying_loop_is_rejected():
    prog = corpus_program(KERNELS / "matmul.c")
    steps = load_yaml("steps:\n  - tile: {stmt: 0, loop: k, size: 16, control: kk}\n"
                      "  - cuda: {stmt: 0, block: [kk], thread: [k]}\n", file="r.yaml")
    with pytest.raises(LegalityError) as e:
        apply_recipe(prog.scops[0], steps)
    msg = str(e.value)
    assert "step 2 (cuda)" in msg and "reads it" in msg and "in parallel" in msg, msg


def test_separate_nests_are_separate_kernels_in_host_loop(tmp_path):
    k = KERNELS / "jacobi-2d.c"
    steps = ["cuda: {stmt: 0, block: [i], thread: [j]}", "cuda: {stmt: 1, block: [i], thread: [j]}"]
    r = tmp_path / "j.yaml"
    r.write_text(yaml_text(steps))
    cu = transform_file(str(k), recipe=str(r), target="cuda", defines={"N": 40, "TSTEPS": 3})
    names = kernel_names(cu)
    assert len(names) == 2
    launcher = cu.split("extern \"C\" int lx_launch_")[1].split("return (int)cudaGetLastError")[0]
    assert "for (int t = 0;" in launcher and launcher.index(names[0]) < launcher.index(names[1])


def test_unmapped_statements_warn_and_run_in_one_thread(tmp_path):
    import io
    warn = io.StringIO()
    cu = transform_file(str(KERNELS / "seidel-2d.c"), target="cuda", warn=warn)
    assert "one-thread kernel" in warn.getvalue()
    assert "<<<dim3((unsigned)lx_g0, (unsigned)lx_g1, (unsigned)lx_g2), dim3(1, 1, 1)>>>" in cu


def test_standalone_main(tmp_path):
    r = tmp_path / "s.yaml"
    r.write_text(SHARED)
    cu = transform_file(str(KERNELS / "matmul.c"), recipe=str(r), target="cuda", standalone=True,
                        defines={"NI": 64, "NJ": 64, "NK": 64})
    assert "int main(void)" in cu and "cudaEventElapsedTime" in cu
    if NVCC:
        assert nvcc_compile(cu) is None


def test_shared_footprint_over_limit_is_rejected(tmp_path):
    r = tmp_path / "big.yaml"
    r.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 64, control: ii}\n"
                 "  - tile: {stmt: 0, loop: j, size: 16, control: jj}\n"
                 "  - tile: {stmt: 0, loop: k, size: 128, control: kk}\n"
                 "  - permute: {stmt: 0, order: [ii, jj, kk, i, j, k]}\n"
                 "  - cuda: {stmt: 0, block: [jj, ii], thread: [j, i]}\n"
                 "  - shared: {stmt: 0, array: A, at: kk}\n")
    import sys
    proc = subprocess.run([sys.executable, "-m", "looptx", "transform", str(KERNELS / "matmul.c"), "--recipe", str(r),
                           "--target", "cuda", "-D", "NI=1024", "-D", "NJ=1024", "-D", "NK=1024"],
                          capture_output=True, text=True, env={**os.environ, "PATH": os.environ["PATH"]})
    assert proc.returncode == 2 and "step 6 (shared)" in proc.stderr and "65536 bytes" in proc.stderr, proc.stderr
