"""Orio's `transform CUDA(threadCount, blockCount, unrollInner, ...)` (Orio's testsuite files for
GPUs): the annotated loop runs on blocks of threadCount threads, blockCount blocks striding over
it, each thread running the inner loops; checked, emulated by `run`, and built by nvcc."""
from __future__ import annotations

import pytest
from conftest import run_cli
from test_cuda_codegen import needs_nvcc, nvcc_compile

SPEC = """/*@ begin PerfTuning (
  def performance_params {{
    {params}
  }}
  def input_params {{
    param m[] = [50];
    param n[] = [37];
    param p[] = [45];
  }}
  def input_vars {{
    decl static double A[m*n] = random;
    decl static double B[n*p] = random;
    decl static double C[m*p] = 0;
  }}
  def build {{
    arg build_command = 'nvcc -arch=sm_75 @CFLAGS';
  }}
  def performance_counter {{
    arg repetitions = 1;
  }}
) @*/
"""
NEST = """  for(i=0; i<=m-1; i++){
    for(j=0; j<=p-1; j++){
      s = 0.0;
      for(k=0; k<=n-1; k++){
        s += A[i*n+k]*B[k*p+j];
      }
      C[i*p+j]=s;
    }
  }
"""
# Orio's testsuite matrix product (CUDA/matmul), as its users write it
MATMUL = ("void MatMult(int m, int n, int p, double *A, double *B, double *C) {\n  int i, j, k;\n"
          "  double s;\n" + SPEC.format(params="param TC[] = [32, 64];\n    param BC[] = [14, 28];\n"
                                        "    param UIF[] = [1, 2];\n    param PL[] = [16, 48];")
          + "  /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=BC, preferL1Size=PL, "
          "unrollInner=UIF)\n" + NEST + "  ) @*/\n" + NEST + "  /*@ end @*/\n  /*@ end @*/\n}\n")


@pytest.fixture
def matmul(tmp_path):
    path = tmp_path / "mm.c"
    path.write_text(MATMUL)
    return path


@needs_nvcc
def test_orio_cuda_maps_the_loop_to_blocks_and_threads(matmul):
    rc, out, err = run_cli("transform", matmul, "--target", "cuda", "-D", "TC=64", "-D", "BC=28",
                           "-D", "UIF=2")
    assert rc == 0, err
    kernel = out[out.index("__global__"):out.index("extern")]
    assert "__launch_bounds__(64)" in kernel and "double s;" in kernel, kernel
    # blockCount blocks, each striding over its share of the rows
    assert "if (bx < 28)" in kernel and "i_grid++" in kernel, kernel
    assert "C[(tx + 64 * bx + 1792 * i_grid) * p + j] = s;" in kernel, kernel
    assert "k += 2" in kernel, kernel                          # unrollInner
    assert "mm.c:28: note: Orio's CUDA preferL1Size is ignored" in err, err
    assert nvcc_compile(out) is None


@pytest.mark.parametrize("point, size_sets", [
    (("TC=32", "BC=14", "UIF=1"), (("m=1", "n=1", "p=1"), ("m=1000", "n=3", "p=2"))),
    (("TC=64", "BC=28", "UIF=2"), (("m=3", "n=2", "p=5"),))])
def test_orio_cuda_variants_validate(matmul, point, size_sets):
    defines = [x for p in point for x in ("-D", p)]
    for sizes in size_sets:
        rc, out, err = run_cli("run", matmul, *defines, *[x for s in sizes for x in ("-D", s)],
                               "--repetitions", "1")
        assert rc == 0 and ": ok" in out, (sizes, out + err)
        # the C backend builds C: nvcc's command is for the .cu
        assert "is for CUDA: the C backend builds the C code with gcc -O3" in err, err


def test_orio_cuda_search_on_the_c_backend(matmul, tmp_path):
    rc, out, err = run_cli("search", matmul, "--budget", "3", "--db", tmp_path / "s.db")
    assert rc == 0, out + err
    assert (tmp_path / "mm.best.c").exists()
    # a param that only an ignored CUDA argument uses builds twins
    assert "warning: param 'PL' is used by no step" in err and "param 'TC'" not in err, err


AXPY = """void axpy(int n, double a, double *x, double *y) {
  int i;
/*@ begin PerfTuning (
  def performance_params {
    param TC[] = [32, 128];
  }
  def input_params {
    param n[] = [1000];
  }
  def input_vars {
    decl static double x[n] = random;
    decl static double y[n] = random;
  }
) @*/
  /*@ begin Loop(transform Composite(cuda = (TC, False, False, 1))
  for (i=0; i<=n-1; i++)
    y[i] = y[i] + a*x[i];
  ) @*/
  for (i=0; i<=n-1; i++)
    y[i] = y[i] + a*x[i];
  /*@ end @*/
  /*@ end @*/
}
"""


@needs_nvcc
def test_composite_cuda_without_block_count_covers_the_loop(tmp_path):
    (tmp_path / "a.c").write_text(AXPY)
    rc, out, err = run_cli("transform", tmp_path / "a.c", "--target", "cuda", "-D", "TC=128")
    assert rc == 0, err
    assert "__launch_bounds__(128)" in out and "(n - 1) / 128 + 1" in out and "_grid" not in out, out
    assert "ignored" not in err, err                            # every part asks for nothing
    assert nvcc_compile(out) is None
    for n in ("1", "129", "1000"):
        rc, out, err = run_cli("run", tmp_path / "a.c", "-D", "TC=32", "-D", f"n={n}", "--repetitions", "1")
        assert rc == 0 and ": ok" in out, (n, out + err)


@pytest.mark.parametrize("change, message", [
    (("cuda = (TC, False, False, 1)", "cuda = (2048, False, False, 1)"),
     "a.c:15:38: error: threadCount 2048 is more than the 1024 threads of a block"),
    # Orio's VecSum reduction: the loop carries a dependence, which Orio does not check
    (("y[i] = y[i] + a*x[i];", "y[0] = y[0] + a*x[i];"), "runs them in parallel (RAW on y)"),
])
def test_orio_cuda_refusals(tmp_path, change, message):
    (tmp_path / "a.c").write_text(AXPY.replace(*change))
    rc, out, err = run_cli("transform", tmp_path / "a.c", "--target", "cuda")
    assert rc == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.gpu
@pytest.mark.parametrize("point", [("TC=32", "BC=14", "UIF=1"), ("TC=64", "BC=28", "UIF=2")])
def test_orio_cuda_on_gpu(matmul, point):
    from test_gpu import _gpu
    _gpu()
    defines = [x for p in point for x in ("-D", p)]
    for sizes in (("m=1000", "n=3", "p=2"), ("m=50", "n=37", "p=45"), ("m=5000", "n=4", "p=3")):
        rc, out, err = run_cli("run", matmul, "--target", "cuda", *defines,
                               *[x for s in sizes for x in ("-D", s)], "--repetitions", "2")
        assert rc == 0 and ": ok" in out, (sizes, out + err)


@needs_nvcc
def test_orio_cuda_at_fixed_sizes_builds(matmul):
    # the sizes are macros of the .cu then: the host function still takes them, as the
    # original does, under other names, and checks them
    rc, out, err = run_cli("transform", matmul, "--target", "cuda", "-D", "m=1000", "-D", "n=3", "-D", "p=2")
    assert rc == 0, err
    assert 'extern "C" int MatMult_host_status(int lx_given_m, int lx_given_n, int lx_given_p, double *__restrict__ A, ' \
           'double *__restrict__ B, double *__restrict__ C)' in out, out
    assert "if (lx_given_n != 3) return (int)cudaErrorInvalidValue;" in out, out
    assert nvcc_compile(out) is None
