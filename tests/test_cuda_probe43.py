"""Probes 43-45, CUDA output: a region's local array sized by a #define (MFEM's per-element
scratch `double t[Q][Q]`) is declared with constant extents and indexed as declared; f2c's
shifted pointers (`--a;`) are copied from the lowest element the region reaches, not from
element 0 (outside the caller's array); a read below element 0 at some sizes only is accepted
where the sizes' values keep it above; stand-ins the host function cannot receive (SW4's
locals at fixed sizes) are neither #defined nor checked; a kernel declares only the thread
indexes it reads."""
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

from conftest import cli_process as cli
from test_cuda_codegen import NVCC, needs_nvcc, nvcc_compile
from test_cuda_regressions import gpu_build_and_run

DATA = Path(__file__).resolve().parent / "data" / "cuda_probe43"


def _cuda(name, recipe, *args) -> str:
    """`name`'s .cu (with its annotations where `recipe` is None), checked by nvcc."""
    given = ("--recipe", recipe) if recipe else ()
    p = cli("transform", name, *given, "--target", "cuda", *args, cwd=DATA)
    assert p.returncode == 0, p.stderr
    if NVCC is not None:
        assert nvcc_compile(p.stdout) is None
    return p.stdout


def _function(cu: str, head: str) -> str:
    body = cu[cu.index(head):]
    return body[:body.index("\n}\n")]


def _nvcc_warnings(text: str) -> str:
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "k.cu"
        src.write_text(text)
        p = subprocess.run([NVCC, "-arch=sm_90", "-cubin", str(src), "-o", str(Path(d) / "k.cubin")],
                           capture_output=True, text=True)
        assert p.returncode == 0, p.stderr[-2000:]
        return p.stderr


# ---- a local array sized by a #define ----------------------------------------------------------

def test_a_local_array_sized_by_a_define_has_constant_extents():
    cu = _cuda("interp2d.c", "interp2d.yaml", "--function", "interp2d")
    # Q is a macro of the .cu as of the file, so the local keeps its extents and the .cu
    # still builds with another -DQ (the host function takes no Q the original did not)
    assert "#ifndef Q\n#define Q 4\n#endif" in cu, cu
    assert "double t[Q][Q];" in cu and "t[qy][qx] = " in cu and "+= t[qy][qx];" in cu, cu
    assert "Q <= " not in cu and "int Q" not in cu, cu
    assert 'interp2d_host_status(int ne, const double *__restrict__ b, const double *__restrict__ x, ' \
        'double *__restrict__ y)' in cu, cu
    if NVCC is not None:
        assert nvcc_compile("#define Q 6\n" + cu) is None
    if NVCC is not None:
        assert nvcc_compile(_cuda("interp2d.c", "interp2d.yaml", "--function", "interp2d", "--standalone",
                                  "-D", "ne=8")) is None
    _emulation_validates("interp2d.c", "--function", "interp2d", "-D", "ne=5")


def test_a_local_array_of_a_fixed_size_keeps_its_macro():
    cu = _cuda("interp2d.c", "interp2d.yaml", "--function", "interp2d", "-D", "Q=4")
    assert "double t[Q][Q];" in cu and "t[qy][qx] = " in cu and "Q <= " not in cu, cu


def test_a_local_array_sized_by_a_local_initializer():
    cu = _cuda("derived_extent.c", "interp2d.yaml", "--function", "f")
    # (m = Q + 1 of a plain #define: the array takes its value, 5, which the host code checks;
    # the loops stay symbolic in m, as they do in Q where they read it)
    assert "double t[5][2];" in cu and "t[q][0] = " in cu and "t[m - q - 1][1]" in cu and "#if Q != 4" not in cu, cu
    assert cu.count("if (!(m <= 5)) return (int)cudaErrorInvalidValue;") == 2, cu
    _emulation_validates("derived_extent.c", "--function", "f", "-D", "ne=6")


def _emulation_validates(name, *args):
    """`looptx run`: the C emulation of the grid, which keeps the declaration as written."""
    p = cli("run", name, "--recipe", "interp2d.yaml", *args, "--repetitions", "1", cwd=DATA)
    assert p.returncode == 0 and ": ok" in p.stdout, p.stdout + p.stderr


def test_a_variable_length_local_array_is_a_located_error(tmp_path):
    src = (DATA / "interp2d.c").read_text().replace("#define Q 4", "").replace("int ne,", "int ne, int Q,")
    (tmp_path / "k.c").write_text(src)
    (tmp_path / "r.yaml").write_text((DATA / "interp2d.yaml").read_text())
    p = cli("transform", "k.c", "--function", "interp2d", "--recipe", "r.yaml", "--target", "cuda", cwd=tmp_path)
    assert p.returncode == 2 and p.stdout == "", p.stdout
    assert p.stderr.startswith("k.c:6:12: error: the region's local array 't' has the extent 'Q'"), p.stderr
    assert "cannot declare a variable-length array" in p.stderr and "--define Q=VALUE" in p.stderr
    # C has the array: its emulation of the grid runs
    p = cli("run", "k.c", "--function", "interp2d", "--recipe", "r.yaml", "-D", "ne=4", "-D", "Q=3",
            "--repetitions", "1", cwd=tmp_path)
    assert p.returncode == 0 and ": ok" in p.stdout, p.stdout + p.stderr


INTERP_DRIVER = """
int main(void) {
  double b[16], x[64], y[16], want[16];
  for (int i = 0; i < 16; i++) { b[i] = 0.5 + i; y[i] = want[i] = i * 0.25; }
  for (int i = 0; i < 64; i++) x[i] = 1.0 / (i + 1);
  for (int e = 0; e < 4; e++)
    for (int qy = 0; qy < 4; qy++)
      for (int qx = 0; qx < 4; qx++) want[qy + 4*e] += b[qx + 4*qy] * x[qx + 4*e];
  if (interp2d_host_status(4, b, x, y) != 0) return 3;
  /* (Q is a constant of the .cu: nvcc unrolls the loops and may fuse t's product into y's sum) */
  for (int i = 0; i < 16; i++) if (fabs(y[i] - want[i]) > 1e-12 * fabs(want[i])) { printf("differ at %d\\n", i); return 1; }
  printf("ok\\n");
  return 0;
}
"""


@pytest.mark.gpu
def test_a_local_array_on_gpu(tmp_path):
    (tmp_path / "main.cu").write_text(_cuda("interp2d.c", "interp2d.yaml", "--function", "interp2d")
                                      + INTERP_DRIVER)
    p = gpu_build_and_run(tmp_path / "main.cu")
    assert p.returncode == 0 and p.stdout.strip() == "ok", (p.returncode, p.stdout)


# ---- f2c's shifted pointers --------------------------------------------------------------------

def test_f2c_arrays_are_copied_from_the_lowest_element_reached():
    cu = _cuda("add2s2.c", "add2s2.yaml")
    host = _function(cu, 'extern "C" int add2s2__host_status(')
    for a in ("a", "b"):
        assert f"const ptrdiff_t lx_o_{a} = ((i__1 >= 1) ? (ptrdiff_t)(1) : (ptrdiff_t)0);" in host, host
        assert f"const size_t lx_n_{a} = ((i__1 >= 1) ? ((size_t)(i__1 - 1) + 1) : (size_t)0);" in host, host
        assert f"cudaMemcpy(lx_d_{a}, {a} + lx_o_{a}, lx_n_{a} * sizeof(double), cudaMemcpyHostToDevice);" in host
    assert "cudaMemcpy(a + lx_o_a, lx_d_a, lx_n_a * sizeof(double), cudaMemcpyDeviceToHost);" in host, host
    assert "lx_launch_add2s2_(lx_d_c1, lx_d_b - lx_o_b, lx_d_a - lx_o_a, i__1);" in host, host
    # `*c1` is read at element 0: copied from there, as before
    assert "lx_o_c1" not in cu and "cudaMemcpy(lx_d_c1, c1, " in host, host
    if NVCC is not None:
        assert nvcc_compile(_cuda("add2s2.c", "add2s2.yaml", "--standalone", "-D", "i__1=100")) is None


def test_f2c_two_dimensional_offset():
    cu = _cuda("addmat.c", "addmat.yaml")
    host = _function(cu, 'extern "C" int addmat__host_status(')
    assert "(ptrdiff_t)(1) * (ptrdiff_t)(c_dim1) + (ptrdiff_t)(1)" in host, host
    assert "cudaMemcpy(c__ + lx_o_c__, lx_d_c__, lx_n_c__ * sizeof(double), cudaMemcpyDeviceToHost);" in host
    assert "lx_d_c__ - lx_o_c__" in host, host


# the caller's arrays start a page whose predecessor is not readable: a copy of the element
# before them (the shifted pointer's [0]) faults
F2C_DRIVER = """
#include <sys/mman.h>
#include <unistd.h>
static double *after_guard(size_t n) {
  long page = sysconf(_SC_PAGESIZE);
  char *p = (char *)mmap(0, 2 * page + n * sizeof(double), PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  mprotect(p, page, PROT_NONE);
  return (double *)(p + page);
}
int main(void) {
  int n = 300;
  double c1 = 0.5, *a = after_guard(n), *b = after_guard(n), want[300];
  for (int i = 0; i < n; i++) { a[i] = i * 0.25; b[i] = 1.0 / (i + 1); want[i] = a[i] + c1 * b[i]; }
  if (add2s2__host_status(a - 1, b - 1, &c1, n) != 0) return 3;
  for (int i = 0; i < n; i++) if (a[i] != want[i]) { printf("differ at %d\\n", i); return 1; }
  printf("ok\\n");
  return 0;
}
"""


@pytest.mark.gpu
def test_f2c_copies_on_gpu(tmp_path):
    (tmp_path / "main.cu").write_text(_cuda("add2s2.c", "add2s2.yaml") + F2C_DRIVER)
    p = gpu_build_and_run(tmp_path / "main.cu")
    assert p.returncode == 0 and p.stdout.strip() == "ok", (p.returncode, p.stdout, p.stderr)


# ---- reads below element 0 at other sizes only -------------------------------------------------

def test_fixed_sizes_decide_a_read_below_the_first_element(tmp_path):
    """`in[idx - 2*jstride]` is below element 0 only for HALO < 2 (a #define of 2); SW4's
    `a_u[base + i - 2]` only for base < -1 (`base = -ifirst` at ifirst = 1)."""
    cu = _cuda("halo.c", "halo.yaml", "--function", "s", "-D", "n=7", "-D", "jstride=11")
    host = _function(cu, 'extern "C" int s_host_status(')
    assert "const ptrdiff_t lx_o_in = (ptrdiff_t)(12 * HALO - 22);" in host, host
    assert "cudaMemcpy(lx_d_in, in + lx_o_in, ((size_t)(72) + 1) * sizeof(double)" in host, host
    cu = _cuda("sw4mini.c", "sw4mini.yaml", "--function", "lap", "-D", "ifirst=1", "-D", "ilast=20")
    host = _function(cu, 'extern "C" int lap_host_status(')
    assert "const ptrdiff_t lx_o_a_u = (ptrdiff_t)(base + 1);" in host, host
    assert "lx_launch_lap(lx_d_a_u - lx_o_a_u, lx_d_a_lu - lx_o_a_lu, base, ni);" in host, host
    # where the values keep the read below element 0 (HALO 1), the count is still asked for
    (tmp_path / "k.c").write_text((DATA / "halo.c").read_text().replace("#define HALO 2", "#define HALO 1"))
    (tmp_path / "r.yaml").write_text((DATA / "halo.yaml").read_text())
    p = cli("transform", "k.c", "--function", "s", "--recipe", "r.yaml", "--target", "cuda",
            "-D", "n=7", "-D", "jstride=11", cwd=tmp_path)
    assert p.returncode == 2, p.stdout
    assert "array 'in' is unknown (it is declared without extents and the region may read it below its " \
           "first element at some sizes)" in p.stderr, p.stderr


# ---- stand-ins the host function cannot receive ------------------------------------------------

def test_no_macro_or_check_of_a_local_fixed_at_its_initializer():
    cu = _cuda("sw4_rhs.c", "sw4_cuda.yaml", "--function", "rhs4th3fort_simple", "-D", "ifirst=1",
               "-D", "ilast=11", "-D", "jfirst=1", "-D", "jlast=8", "-D", "kfirst=1", "-D", "klast=7")
    for name in ("base", "base3", "ni", "nij", "nijk"):
        assert not re.search(rf"#define {name}\b", cu) and not re.search(rf"\b{name} ==", cu), name
    assert "cudaErrorInvalidValue;" not in _function(cu, 'extern "C" int rhs4th3fort_simple_host_status(')
    # an Orio fragment's input_params are macros of its build (-DT=...): the .cu checks them
    cu = _cuda("stencil_tune.c", None)
    assert "#ifndef T\n#define T 3\n#endif" in cu, cu
    assert cu.count("if (!(T == 3 && domain_height == 50 && domain_width == 100)) "
                    "return (int)cudaErrorInvalidValue;") == 2, cu


# ---- thread indexes ----------------------------------------------------------------------------

@needs_nvcc
def test_a_thread_dimension_of_extent_one_declares_no_index():
    p = cli("transform", "stencil_tune.c", "--target", "cuda", cwd=DATA)
    assert p.returncode == 0, p.stderr
    assert "ty = threadIdx.y" not in p.stdout and p.stdout.count("const int tx = threadIdx.x;") == 2, p.stdout
    warnings = _nvcc_warnings(p.stdout)
    assert "#177-D" not in warnings and "never referenced" not in warnings, warnings
