"""Leftovers of earlier probes: a region local's GNU attributes (`__attribute__((unused))`) are
kept on its hoisted declaration, so the output builds as warning-free under -Wall as the input."""
import pytest

from conftest import run_cli
from test_cuda_codegen import NVCC, nvcc_compile
from test_probe54 import _ok

ATTR = """void g(int n, double a[n][n], double b[n][n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      DECL
      double s = a[i][j] * 2.0;
      b[j][i] = s + 1.0;
    }
#pragma endscop
}
"""


@pytest.mark.parametrize("decl,kept", [
    ("double t __attribute__((unused)) = 0.0;", "double t __attribute__((unused));"),
    ("__attribute__((unused)) double t = 0.0;", "double t __attribute__((unused));"),
    ("double t __attribute__((unused, aligned(8))) = 0.0;", "double t __attribute__((unused, aligned(8)));"),
])
def test_a_locals_attributes_stay_on_its_hoisted_declaration(tmp_path, decl, kept):
    src, recipe = tmp_path / "attr.c", tmp_path / "r.yaml"
    src.write_text(ATTR.replace("DECL", decl))
    recipe.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 8}\n")
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 0, err
    assert kept in out and "double s;" in out, out
    # set but never read: without the attribute gcc -Wall warns (-Wunused-but-set-variable)
    for n in ("37", "16"):
        _ok(*run_cli("run", src, "--recipe", recipe, "-D", f"n={n}", "--cflags", "-O2 -Wall -Werror"))


def test_an_attribute_of_another_declaration_on_the_line_is_not_taken(tmp_path):
    src, recipe = tmp_path / "attr.c", tmp_path / "r.yaml"
    src.write_text(ATTR.replace("DECL", "double t = 0.0; double u __attribute__((unused)) = 1.0;"))
    recipe.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 8}\n")
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 0, err
    assert "double t;" in out and "double u __attribute__((unused));" in out, out


@pytest.mark.skipif(NVCC is None, reason="nvcc is not installed (CI machines have it)")
def test_the_attribute_compiles_in_a_cuda_kernel(tmp_path):
    src, recipe = tmp_path / "attr.c", tmp_path / "r.yaml"
    src.write_text(ATTR.replace("DECL", "double t __attribute__((unused)) = 0.0;"))
    recipe.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 8, control: ii}\n"
                      "  - cuda: {stmt: 0, block: [ii], thread: [i], kernel: k, sizes: {a: n*n, b: n*n}}\n")
    rc, out, err = run_cli("transform", src, "--recipe", recipe, "--target", "cuda")
    assert rc == 0, err
    assert "__attribute__((unused))" in out, out
    assert nvcc_compile(out) is None


@pytest.mark.parametrize("kernel", ["k", "e", "regs", "shared"])
def test_a_kernel_may_have_the_name_of_a_local_of_the_generated_host_code(tmp_path, kernel):
    src, recipe = tmp_path / "attr.c", tmp_path / "r.yaml"
    src.write_text(ATTR.replace("DECL", ""))
    recipe.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 8, control: ii}\n"
                      f"  - cuda: {{stmt: 0, block: [ii], thread: [i], kernel: {kernel}, sizes: {{a: n*n, b: n*n}}}}\n")
    rc, out, err = run_cli("transform", src, "--recipe", recipe, "--target", "cuda")
    assert rc == 0, err
    assert f"cudaFuncGetAttributes(&lx_a, {kernel})" in out, out
    if NVCC:
        assert nvcc_compile(out) is None


@pytest.mark.parametrize("kernel", ["printf", "sqrt", "expf", "cudaKernel", "g_host_status", "malloc"])
def test_a_kernel_named_as_a_library_function_is_refused_at_the_step(tmp_path, kernel):
    src, recipe = tmp_path / "attr.c", tmp_path / "r.yaml"
    src.write_text(ATTR.replace("DECL", ""))
    recipe.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 8, control: ii}\n"
                      f"  - cuda: {{stmt: 0, block: [ii], thread: [i], kernel: {kernel}, sizes: {{a: n*n, b: n*n}}}}\n")
    rc, out, err = run_cli("transform", src, "--recipe", recipe, "--target", "cuda")
    assert rc == 2 and "Traceback" not in err, err
    assert f"step 2 (cuda): error: kernel name '{kernel}' is reserved" in err and "choose another" in err, err
