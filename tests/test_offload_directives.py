"""An offload or OpenACC directive right before a one-nest region (`#pragma omp target teams
distribute parallel for map(...)`, `#pragma acc parallel loop present(...)`) stayed before the
block looptx writes: the output did not compile ("for statement expected before '{'"), with no
note, and `run` said ok.  It now goes onto the outermost loop of the transformed nest, as
`#pragma omp parallel for` there does: its private and reduction clauses checked as omp_for's,
its data clauses kept, collapse dropped with a note."""
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "offload"

needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None,
                               reason="needs gcc on PATH: the test compiles the generated C (CI has it)")


def _compiles(tmp_path, text, flag):
    out = tmp_path / "out.c"
    out.write_text(text)
    p = subprocess.run(["gcc", "-Wall", "-Wno-unknown-pragmas", "-Werror", flag, "-c", str(out), "-o",
                        str(tmp_path / "out.o")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


@needs_gcc
def test_an_omp_target_directive_goes_onto_the_outermost_loop(tmp_path):
    rc, out, err = run_cli("transform", DATA / "target_gemm.c", "--recipe", DATA / "gemm_tile.yaml")
    assert rc == 0, err
    assert ("#pragma omp target teams distribute parallel for map(to: A[0:n*n], B[0:n*n]) "
            "map(tofrom: C[0:n*n]) private(sum)\n    for (int ii = 0;") in out, out
    assert out.count("#pragma omp target") == 1 and "without collapse(2)" in err, err
    _compiles(tmp_path, out, "-fopenmp")
    for n in (32, 37):
        rc, out, err = run_cli("run", DATA / "target_gemm.c", "--recipe", DATA / "gemm_tile.yaml", "-D", f"n={n}",
                               "--cflags", "-O2 -fopenmp", "--repetitions", "1")
        assert rc == 0 and ": ok" in out, out + err


@needs_gcc
def test_an_openacc_parallel_loop_goes_onto_the_outermost_loop(tmp_path):
    rc, out, err = run_cli("transform", DATA / "acc_heat.c", "--recipe", DATA / "heat_tile.yaml")
    assert rc == 0, err
    assert "#pragma acc parallel loop present(u[0:nx*ny], unew[0:nx*ny]) private(i, j)\n" in out, out
    assert out.count("#pragma acc") == 1, out
    _compiles(tmp_path, out, "-fopenacc")
    rc, out, err = run_cli("run", DATA / "acc_heat.c", "--recipe", DATA / "heat_tile.yaml", "-D", "nx=21", "-D",
                           "ny=19", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


@needs_gcc
@pytest.mark.parametrize("n,m", [(13, 22), (16, 16)])
def test_a_continued_directive_with_a_reduction(tmp_path, n, m):
    """The OpenACC tutorial's Jacobi: `reduction(max:err) \\` over two lines."""
    rc, out, err = run_cli("transform", DATA / "acc_jacobi.c", "--recipe", DATA / "jacobi_unroll.yaml")
    assert rc == 0, err
    assert "#pragma acc parallel loop present(A[0:n][0:m], Anew[0:n][0:m]) reduction(max:err)" in out, out
    assert "\\\n" not in out.split("*/", 1)[1], out
    _compiles(tmp_path, out, "-fopenacc")
    rc, out, err = run_cli("run", DATA / "acc_jacobi.c", "--recipe", DATA / "jacobi_unroll.yaml", "-D", f"n={n}",
                           "-D", f"m={m}", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


def test_an_openacc_loop_directive_alone_is_refused_where_it_is():
    rc, out, err = run_cli("deps", DATA / "acc_loop_only.c")
    assert rc == 2 and "acc_loop_only.c:3:1: error: '#pragma acc loop gang'" in err and "acc parallel loop" in err, err


@pytest.mark.parametrize("directive", ["omp simd", "omp parallel for simd", "omp taskloop",
                                       "omp target teams distribute parallel for simd map(tofrom: a[0:n])"])
def test_another_loop_directive_before_the_region_is_refused_where_it_is(tmp_path, directive):
    """They stayed before the block looptx writes: gcc said "for statement expected before '{'"."""
    src = tmp_path / "k.c"
    src.write_text(f"void f(int n, double *a)\n{{\n#pragma {directive}\n#pragma scop\n"
                   "  for (int i = 0; i < n; i++)\n    a[i] = a[i] * 2.0;\n#pragma endscop\n}\n")
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and f"k.c:3:1: error: '#pragma {directive}' right before the region applies to its first loop" \
        in err, err


@needs_gcc
@pytest.mark.parametrize("directive", ["acc kernels", "omp target map(tofrom: a[0:n])"])
def test_a_block_directive_before_the_region_takes_the_block(tmp_path, directive):
    src = tmp_path / "k.c"
    src.write_text(f"void f(int n, double *a)\n{{\n#pragma {directive}\n#pragma scop\n"
                   "  for (int i = 0; i < n; i++)\n    a[i] = a[i] * 2.0;\n#pragma endscop\n}\n")
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 4}\n")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 0 and f"#pragma {directive}\n" in out, err
    _compiles(tmp_path, out, "-fopenacc" if directive.startswith("acc") else "-fopenmp")
