"""On a GPU (`pytest -m gpu`, skipped elsewhere): every corpus kernel x 3 recipes, at a dividing
and an odd size set, validated against the original region run on the CPU; compute-sanitizer
memcheck and racecheck clean on the shared-memory variants; Barracuda Figure 2 at E=2000."""
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from cuda_cases import recipes, yaml_text
from difftest import KERNELS, kernel_files, region_function, size_sets

pytestmark = pytest.mark.gpu
ROOT = Path(__file__).resolve().parent.parent


def _gpu():
    try:
        from looptx.runtime.cuda import CudaSession
        return CudaSession()
    except Exception as e:                      # no pycuda, no driver, no device
        pytest.skip(f"needs an NVIDIA GPU with pycuda ({e})")


@pytest.fixture(scope="module")
def session():
    return _gpu()


def _sizes(kernel, which, program):
    sizes = dict(size_sets(kernel)[which])
    # PolyBench-style kernels take their sizes as function parameters (ni = NI)
    for p in program.scops[0].params:
        if p not in sizes and p.upper() in sizes:
            sizes[p] = sizes[p.upper()]
    return sizes


# (kernel, recipe index) for up to 3 generated recipes a kernel (some kernels have fewer, since
# there is no second mappable loop to tile: those cases skip).  Not generated here: collecting
# would then model every kernel in every test process, GPU or not.
CASES = [(k, r) for k in kernel_files() for r in range(3)]


@pytest.mark.parametrize("kernel,which", CASES, ids=[f"{k.stem}-r{r}" for k, r in CASES])
def test_corpus_kernel_on_gpu(session, kernel, which, tmp_path):
    from looptx.pipeline import load, variants_for
    from looptx.recipe.schema import load_yaml
    from looptx.runtime.cuda import run_region
    fn = region_function(kernel)
    program = load(str(kernel), function=fn)
    cases = recipes(program)
    if which >= len(cases):
        pytest.skip(f"{kernel.stem} has {len(cases)} generated recipes")
    variant = variants_for(program, load_yaml(yaml_text(cases[which]), file="gpu.yaml"))[0][0]
    for s in range(2):
        sizes = _sizes(kernel, s, program)
        r = run_region(program, 0, variant, sizes, session=session, repetitions=2)
        assert r["status"] == "ok", (kernel.stem, cases[which], sizes, r)


def _sanitize(cu_text: str, tool: str) -> str:
    sanitizer = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
    with tempfile.TemporaryDirectory() as d:
        src, exe = os.path.join(d, "k.cu"), os.path.join(d, "k")
        Path(src).write_text(cu_text)
        subprocess.run(["nvcc", "-arch=sm_90", "-O2", "-DLX_REPS=1", src, "-o", exe], check=True)
        p = subprocess.run([sanitizer, f"--tool={tool}", "--error-exitcode=3", exe],
                           capture_output=True, text=True, timeout=600)
        return p.stdout + p.stderr


SHARED_RECIPES = [ROOT / "recipes" / "cuda" / "matmul_shared.yaml", ROOT / "recipes" / "cuda" / "matmul_4096.yaml"]


@pytest.mark.parametrize("recipe", SHARED_RECIPES, ids=lambda p: p.stem)
@pytest.mark.parametrize("sizes", [{"NI": 64, "NJ": 96, "NK": 48}, {"NI": 37, "NJ": 41, "NK": 43}],
                         ids=["dividing", "odd"])
def test_shared_memory_sanitizer_clean(session, recipe, sizes):
    from looptx.pipeline import load, transform_file, variants_for
    from looptx.recipe.schema import load_file
    from looptx.runtime.cuda import run_region
    cu = transform_file(str(KERNELS / "matmul.c"), recipe=str(recipe), target="cuda", standalone=True,
                        defines=sizes)
    assert "__syncthreads" in cu
    for tool in ("memcheck", "racecheck"):
        out = _sanitize(cu, tool)
        assert "ERROR SUMMARY: 0 errors" in out or "RACECHECK SUMMARY: 0 hazards" in out, out[-3000:]
    program = load(str(KERNELS / "matmul.c"), defines=sizes)
    variant = variants_for(program, load_file(str(recipe)))[0][0]
    r = run_region(program, 0, variant, sizes, session=session, repetitions=2)
    assert r["status"] == "ok", r


@pytest.mark.parametrize("recipe", ["barracuda_fig2", "barracuda_fig2_tiled"])
def test_barracuda_fig2_on_gpu(session, recipe):
    from looptx.pipeline import load, variants_for
    from looptx.recipe.schema import load_file
    from looptx.runtime.cuda import run_region
    sizes = {"E": 2000, "N": 10}
    program = load(str(ROOT / "examples" / "barracuda_fig2.c"))
    variant = variants_for(program, load_file(str(ROOT / "recipes" / "cuda" / f"{recipe}.yaml")))[0][0]
    r = run_region(program, 0, variant, sizes, session=session, repetitions=5)
    assert r["status"] == "ok", r
    print(f"fig2 {recipe}: {r['median'] * 1e3:.3f} ms per run, max rel err {r['max_rel_error']:.1e}")


def test_run_also_validates_the_cu_for_variable_sizes(session, monkeypatch):
    # `looptx run --target cuda -D` measures the .cu for those sizes; the .cu transform writes
    # without -D takes them as arguments and is run at them too
    import looptx.codegen.cuda as cg
    from looptx.recipe.schema import load_file
    from looptx.runtime.cuda import variable_size_problem
    recipe = load_file(str(SHARED_RECIPES[0]))
    sizes = {"NI": 37, "NJ": 41, "NK": 43}
    path = str(KERNELS / "matmul.c")
    assert variable_size_problem(path, recipe, sizes, 0, session=session) is None
    cu_file = cg.cu_file
    monkeypatch.setattr(cg, "cu_file", lambda *a, **k: cu_file(*a, **k).replace("C_r += ", "C_r -= "))
    problem = variable_size_problem(path, recipe, sizes, 0, session=session)
    assert problem is not None and "writes without -D" in problem and "NI=37" in problem, problem
