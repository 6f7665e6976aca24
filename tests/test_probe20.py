"""Findings of probe 20 (inputs from public repositories): a .cu checked #defined sizes it never
defined, and CHiLL's datacopy(stmt, L, A) copied inside loop L instead of around it."""
from __future__ import annotations

import pytest
from conftest import run_cli
from test_cuda_codegen import needs_nvcc, nvcc_compile

# CUDA-CHiLL's cp.c indexes a volume with #defined extents, which multiply iterators
VOLUME = """#define VX 512
#define VY 64
#define ZDIM 0
void f(float *e, float *a) {
  int i, j;
  for (j = 0; j < VY; j++)
    for (i = 0; i < VX; i++)
      e[(j*VX + i) + VX*VY*ZDIM] += a[i];
}
"""


@needs_nvcc
def test_a_cu_defines_the_sizes_its_build_checks(tmp_path):
    (tmp_path / "v.c").write_text(VOLUME)
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 128, control: ii}\n"
                                     "  - cuda: {stmt: 0, block: [ii, j], thread: [i], sizes: {e: 32768}}\n")
    rc, out, err = run_cli("transform", tmp_path / "v.c", "--function", "f", "--recipe", tmp_path / "r.yaml",
                           "--target", "cuda")
    assert rc == 0, err
    # the kernel prints the values, but the checks read the names
    assert "e[tx + 512 * by + 128 * bx]" in out
    for name, value in (("VX", 512), ("VY", 64), ("ZDIM", 0)):
        assert f"#ifndef {name}\n#define {name} {value}\n#endif" in out
        assert out.index(f"#define {name} {value}") < out.index(f"#if {name} != {value}")
    assert nvcc_compile(out) is None
    # another value still stops the build
    assert "transform again with the #define of VX changed" in nvcc_compile("#define VX 256\n" + out)


MM = """void mm(int an, int bm, int ambn, float A[an][ambn], float B[ambn][bm], float C[an][bm]) {
  int i, j, n;
  for (i = 0; i < an; i++)
    for (j = 0; j < bm; j++)
      for (n = 0; n < ambn; n++)
        C[i][j] += A[i][n] * B[n][j];
}
"""


@pytest.mark.parametrize("script", ["from chill import *\nsource('mm.c')\nprocedure('mm')\nloop(0)\n"
                                    "tile(0,3,16)\ndatacopy(0,4,'A')\n",
                                    "steps:\n  - tile: {stmt: 0, loop: n, size: 16, control: nn}\n"
                                    "  - permute: {stmt: 0, order: [nn, i, j, n]}\n"
                                    "  - datacopy: {stmt: 0, at: n, array: A, around: true}\n"])
def test_chill_datacopy_copies_around_its_level(tmp_path, script):
    """CHiLL's datacopy1 test: tile(0,3,16) gives nn, i, j, n; datacopy(0,4,'A') copies the 16
    elements of A's row that loop n reads, before n (CHiLL's RIGHTANSWERS: float _P1[16])."""
    (tmp_path / "mm.c").write_text(MM)
    name = "r.py" if script.startswith("from") else "r.yaml"
    (tmp_path / name).write_text(script)
    rc, out, err = run_cli("transform", tmp_path / "mm.c", "--recipe", tmp_path / name, "--function", "mm")
    assert rc == 0, err
    assert "float A_buf[1][16];" in out, out
    body = out[out.index("for (j = 0;"):]
    assert body.index("A_buf[0][c9 - 16 * nn] = A[i][c9];") < body.index("for (n = 16 * nn;"), out
    for an, bm, ambn in ((1, 1, 1), (3, 5, 16), (7, 4, 37)):
        rc, out, err = run_cli("run", tmp_path / "mm.c", "--recipe", tmp_path / name, "-D", f"an={an}",
                               "-D", f"bm={bm}", "-D", f"ambn={ambn}", "--repetitions", "1", "--function", "mm")
        assert rc == 0 and ": ok" in out, (an, bm, ambn, out + err)


LOCAL = """void scal(int n, float alpha, float *x, float *y) {
  int i;
  float k;
  k = alpha * 2.0f;
  for (i = 0; i < n; i++)
    y[i] = k * x[i];
}
"""
LOCAL_IN = """void scal(int n, float alpha, float *x, float *y) {
  int i;
  float k = alpha * 2.0f;
#pragma scop
  for (i = 0; i < n; i++)
    y[i] = k * x[i];
#pragma endscop
}
"""


@needs_nvcc
@pytest.mark.parametrize("src, sig", [
    # k is written before every read and dead after: the caller has no k to give
    (LOCAL, "scal_host_status(int n, float alpha, float *__restrict__ x, float *__restrict__ y)"),
    # set before the region, k is an input of the region, passed by value
    (LOCAL_IN, "scal_host_status(int n, float *__restrict__ x, float *__restrict__ y, float k)"),
])
def test_the_host_function_keeps_the_functions_scratch_variables(tmp_path, src, sig):
    (tmp_path / "s.c").write_text(src)
    stmt = 1 if src is LOCAL else 0
    (tmp_path / "r.yaml").write_text(f"steps:\n  - tile: {{stmt: {stmt}, loop: i, size: 64, control: ii}}\n"
                                     f"  - cuda: {{stmt: {stmt}, block: [ii], thread: [i]}}\n")
    rc, out, err = run_cli("transform", tmp_path / "s.c", "--function", "scal", "--recipe",
                           tmp_path / "r.yaml", "--target", "cuda")
    assert rc == 0, err
    assert f'extern "C" int {sig}' in out, out
    host = out[out.index("int scal_host_status"):]
    if src is LOCAL:
        assert "cudaMalloc((void **)&lx_d_k" in host and "cudaMemcpy(lx_d_k" not in host \
            and "cudaMemcpy(k," not in host, host
    assert nvcc_compile(out) is None
    runs = run_cli("run", tmp_path / "s.c", "--function", "scal", "--recipe", tmp_path / "r.yaml",
                   "-D", "n=100", "--repetitions", "1")
    assert runs[0] == 0 and ": ok" in runs[1], runs


def test_a_crash_of_run_says_which_build_crashed(tmp_path):
    """PolyBench and CHiLL inputs with undefined behaviour crash the original itself: `run`
    says whether the reference, the variant or the timed runs died."""
    (tmp_path / "z.c").write_text("void f(int n, int *a, int *b) {\n  int i, z;\n  z = 0;\n"
                                  "  for (i = 0; i < n; i++)\n    a[i] = b[i] / z;\n}\n")
    rc, out, err = run_cli("run", tmp_path / "z.c", "--function", "f", "-D", "n=10")
    assert rc == 1, out + err
    assert "z.c: crash: killed by signal SIGFPE while running the original region (the reference " \
           "run, built with -O1)" in out + err, out + err


REUSED = """void f(int n, int m, double a[n][m], double b[n][m], double c[n][m]) {
  int i, j;
  double t;
#pragma scop
  for (i = 0; i < n; i++) {
    t = 0.0;
    for (j = 0; j < m; j++) {
      t = t * 0.5 + a[i][j];
      b[i][j] = t;
    }
  }
  for (i = 0; i < n; i++) {
    t = 1.0;
    for (j = 0; j < m; j++) {
      t = t * 0.25 + b[i][j];
      c[i][j] = t;
    }
  }
#pragma endscop
}
"""


@pytest.mark.parametrize("stmt", [1, 3])
def test_privatize_a_temporary_that_a_later_nest_sets_again(tmp_path, stmt):
    """PolyBench deriche's ym1: each nest sets it before reading it, so one nest's uses can be
    private to its rows while the other nest keeps the function's variable."""
    (tmp_path / "k.c").write_text(REUSED)
    (tmp_path / "r.yaml").write_text(f"steps:\n  - omp_for: {{stmt: {stmt}, loop: i, private: [t]}}\n")
    rc, out, err = run_cli("transform", tmp_path / "k.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 0, err
    assert "#pragma omp parallel for private(j, t_i)" in out and "double t_i;" in out, out
    assert out.count("t_i = t_i * ") == 1 and out.count("t = t * ") == 1, out
    for n, m in ((1, 1), (3, 7), (17, 2)):
        rc, o, e = run_cli("run", tmp_path / "k.c", "--recipe", tmp_path / "r.yaml", "-D", f"n={n}",
                           "-D", f"m={m}", "--repetitions", "1")
        assert rc == 0 and ": ok" in o, (n, m, o + e)


def test_privatize_refuses_a_temporary_whose_value_leaves_the_loop(tmp_path):
    # the second nest starts from the value the first one leaves in t
    (tmp_path / "k.c").write_text(REUSED.replace("    t = 1.0;\n", ""))
    (tmp_path / "r.yaml").write_text("steps:\n  - omp_for: {stmt: 1, loop: i, private: [t]}\n")
    rc, out, err = run_cli("transform", tmp_path / "k.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and out == "", err
    assert "uses 't' outside loop 'i', and a value of it passes between that use and the loop" in err, err


def test_privatize_in_a_chill_script(tmp_path):
    """The refusal's hint names privatize("t","i") for scripts, and scripts accept it."""
    (tmp_path / "k.c").write_text(REUSED)
    head = "from chill import *\nsource('k.c')\nprocedure('f')\nloop(0)\n"
    (tmp_path / "bad.yaml").write_text("steps:\n  - omp_for: {stmt: 0, loop: i}\n")
    rc, _, err = run_cli("transform", tmp_path / "k.c", "--recipe", tmp_path / "bad.yaml", "--function", "f")
    # t is also the next nest's: the step names the statement whose nest it means
    assert rc == 2 and "'privatize: {stmt: 0, var: t, at: i}' (privatize(0,\"t\",\"i\") in a CHiLL " \
        "script)" in err, err
    # a script without it gets it, as CHiLL makes the temporary each iteration's own
    (tmp_path / "bare.py").write_text(head + "omp_for(1,'i')\n")
    rc, out, err = run_cli("transform", tmp_path / "k.c", "--recipe", tmp_path / "bare.py")
    assert rc == 0 and "privatize(0,\"t\",\"i\")" in err and "#pragma omp parallel for private(j, t_i)" in out, err
    (tmp_path / "r.py").write_text(head + "privatize(0,'t','i')\nomp_for(1,'i')\n")
    rc, out, err = run_cli("transform", tmp_path / "k.c", "--recipe", tmp_path / "r.py")
    assert rc == 0 and "#pragma omp parallel for private(j, t_i)" in out, err


TAPS = """#define NA 40
void f(int n, float e[n], const float w[NA], const float x[n + NA]) {
  int i, k;
  for (i = 0; i < n; i++)
    for (k = 0; k < NA; k++)
      e[i] += w[k] * x[i + k];
}
"""


@needs_nvcc
def test_a_shared_copy_sized_by_a_define_takes_its_value(tmp_path):
    """CUDA-CHiLL's cp.py copies `atoms` (ATOMCOUNT, a #define) to shared memory: the buffer
    is sized at the file's value, which the output checks."""
    (tmp_path / "t.c").write_text(TAPS)
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 32, control: ii}\n"
                                     "  - cuda: {stmt: 0, block: [ii], thread: [i]}\n"
                                     "  - shared: {stmt: 0, array: w, at: ii}\n")
    rc, out, err = run_cli("transform", tmp_path / "t.c", "--function", "f", "--recipe", tmp_path / "r.yaml",
                           "--target", "cuda")
    assert rc == 0, err
    assert "note: the copy of 'w' is made at NA = 40, the #define's value" in err, err
    assert "__shared__ float w_sh[40];" in out and "#if NA != 40" in out, out
    assert nvcc_compile(out) is None
    rc, out, err = run_cli("run", tmp_path / "t.c", "--function", "f", "--recipe", tmp_path / "r.yaml",
                           "-D", "n=37", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err
