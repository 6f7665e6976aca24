"""Probe 31: real CHiLL, CUDA-CHiLL and Orio inputs.  CHiLL scripts over several loop nests
(`loop(1)` ...), peels written out one iteration at a time as CHiLL does, Orio leaders without
`begin`, `for (i = n; i; i--)`, array-of-struct sizes in cudaize, one message for all the
temporaries a step needs privatized, and `run -D` of a name the file #defines."""
from __future__ import annotations

import shutil

import pytest

from conftest import case_files, run_cli
from test_cuda_codegen import needs_nvcc, nvcc_compile

gcc = pytest.mark.skipif(shutil.which("gcc") is None,
                         reason="compiles the generated C with gcc, which this machine lacks")



NESTS = """void foo(int n, double C[n][n], double X[n][n], double B[n][n])
{
  int i, j, k;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      C[j][i] = 1.0;
  for (i = 1; i < n; i++)
    for (j = 1; j < n; j++) {
      X[j][i] = 2 * X[j][i - 1];
      B[j][i] = B[j - 1][i] + X[j][i];
    }
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        C[j][i] = C[j][i] + X[i][k];
}
"""

SCRIPT = """from chill import *
source('k.c')
procedure('foo')
loop(0)
permute([2,1])
loop(1)
unroll(1,"j",2)
loop(2)
tile(0,"k",4)
"""


@gcc
@pytest.mark.parametrize("n", ["13", "16"])
def test_a_script_numbers_statements_within_the_nest_that_loop_picks(tmp_path, n):
    src, r = case_files(tmp_path, NESTS, SCRIPT, "s.py")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 0, err
    # loop(1)'s statement 1 is the file's S2, loop(2)'s statement 0 the file's S3
    assert "unroll: {stmt: 2, loop: j, factor: 2}" in out and "tile: {stmt: 3, loop: k, size: 4" in out, out
    assert "for (j = 0; j < n; j++)\n      for (i = 0; i < n; i++)\n        C[j][i] = 1.0;" in out, out
    assert "X[j + 1][i] = 2 * X[j + 1][i - 1];" in out and "for (int kk = 0; kk <= (n - 1) / 4; kk++)" in out, out
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", f"n={n}")
    assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("script, said", [
    (SCRIPT.replace("loop(2)", "loop(3)"), "s.py:8: error: loop(3): there are 3 loop nest(s) here"),
    (SCRIPT.replace('unroll(1,"j",2)', 'unroll(2,"j",2)'),
     "s.py:7: step 2 (unroll): error: statement 2 is not in loop nest 1, which has 2 statement(s)"),
    (SCRIPT.replace("loop(1)", "loop(-1)"), "s.py:6:1: error: loop(-1): a loop nest is a number >= 0"),
])
def test_a_nest_or_statement_a_script_cannot_have_is_said(tmp_path, script, said):
    src, r = case_files(tmp_path, NESTS, script, "s.py")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 2 and said in err and err.count("\n") == 1, err


PEEL = """void mm(float **A, float **B, float **C, int ambn, int an, int bm)
{
  int i, j, n;
  for (i = 0; i < an; i++)
    for (j = 0; j < bm; j++) {
      C[i][j] = 0.0f;
      for (n = 0; n < ambn; n++)
        C[i][j] += A[i][n] * B[n][j];
    }
}
"""


@gcc
def test_peeled_iterations_are_statements_of_their_own(tmp_path):
    src, r = case_files(tmp_path, PEEL, "from chill import *\nsource('k.c')\nprocedure('mm')\nloop(0)\n"
                                    "known('ambn > 6')\npeel(1,3,-4)\npeel(1,3,2)\n", "s.py")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 0, err
    body = [ln.strip() for ln in out.splitlines()]
    at = body.index("C[i][j] = 0.0f;")
    assert body[at + 1:at + 9] == [
        "C[i][j] += A[i][0] * B[0][j];", "C[i][j] += A[i][1] * B[1][j];",
        "for (n = 2; n < ambn - 4; n++)", "C[i][j] += A[i][n] * B[n][j];",
        "C[i][j] += A[i][ambn - 4] * B[ambn - 4][j];", "C[i][j] += A[i][ambn - 3] * B[ambn - 3][j];",
        "C[i][j] += A[i][ambn - 2] * B[ambn - 2][j];", "C[i][j] += A[i][ambn - 1] * B[ambn - 1][j];"], out
    for size in ("7", "8", "11"):
        rc, out, err = run_cli("run", src, "--recipe", r, "-D", "an=7", "-D", "bm=3", "-D", f"ambn={size}")
        assert rc == 0 and ": ok" in out, (size, out + err)


def test_a_long_peel_stays_one_loop(tmp_path):
    src, r = case_files(tmp_path, PEEL, "steps:\n  - peel: {stmt: 1, loop: n, first: 20}\n")
    rc, out, err = run_cli("transform", src, "--recipe", r, "--function", "mm")
    assert rc == 0 and "for (n = 0; n <= lx_min(19, ambn - 1); n++)" in out, out + err
    assert out.count("C[i][j] += A[i][n] * B[n][j];") == 2, out


AXPY = """void axpy(int n, double *y, double a, double *x) {
  int i;
/*@ %sLoop(transform Unroll(ufactor=4)
  for (i=0; i<=n-1; i++)
    y[i] = y[i] + a*x[i];
) @*/
  for (i=0; i<=n-1; i++)
    y[i] = y[i] + a*x[i];
/*@ %s@*/
}
"""


@gcc
@pytest.mark.parametrize("begin, end", [("", "end "), ("", ""), ("begin ", "")])
def test_an_orio_leader_without_begin_is_an_annotation(tmp_path, begin, end):
    src = tmp_path / "k.c"
    src.write_text(AXPY % (begin, end))
    rc, out, err = run_cli("transform", src)
    assert rc == 0 and "y[i + 3] = y[i + 3] + a * x[i + 3];" in out, err
    rc, out, err = run_cli("run", src, "-D", "n=23")
    assert rc == 0 and ": ok" in out, out + err


def test_an_unclosed_leader_without_begin_is_said(tmp_path):
    src = tmp_path / "k.c"
    src.write_text(AXPY.replace(") @*/\n  for", ")\n  for", 1) % ("", "end "))
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and "k.c:3:1: error:" in err and err.count("\n") == 1, err


@gcc
def test_a_bare_loop_condition_tests_not_zero(tmp_path):
    src, r = case_files(tmp_path, "void clear(double *a, int n) {\n  int i;\n#pragma scop\n  for (i = n; i; i--)\n"
                              "    a[i] = a[i] * 2.0 + 1.0;\n#pragma endscop\n}\n",
                    "steps:\n  - unroll: {stmt: 0, loop: i, factor: 3}\n")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 0, err
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "n=20")
    assert rc == 0 and ": ok" in out, out + err
    # a test that is no bound says the shape of a downward loop
    src.write_text(src.read_text().replace("i; i--", "i == 0; i--"))
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 2 and "write for (i = UB; i >= LB; i--)" in err, err


AOS = """struct kv { float k; float phi; };
void q(int M, struct kv *kVals, float x[128], float Q[128]) {
  int i, j;
#pragma scop
  for (j = 0; j < 128; j++)
    for (i = 0; i < M; i++)
      Q[j] += kVals[i].phi * x[j] * kVals[i].k;
#pragma endscop
}
"""
AOS_LUA = """init("k.c", "q", 0)
tile_by_index({"j"}, {32}, {l1_control="jj"}, {"jj","j","i"})
cudaize("K", {kVals=%s, x=128, Q=128}, {block={"jj"}, thread={"j"}})
"""


def test_cudaize_sizes_an_array_of_structs_by_its_name(tmp_path):
    src, r = case_files(tmp_path, AOS, AOS_LUA % '"M + 3"' , "s.lua")
    rc, out, err = run_cli("transform", src, "--recipe", r, "--target", "cuda")
    assert rc == 0 and "ignored" not in err, err
    assert "cudaMalloc((void **)&lx_d_kVals, (size_t)(M + 3) * sizeof(struct kv))" in out, out
    # a count below the structs the region reads, at a fixed size, is an error at the step
    src, r = case_files(tmp_path, AOS, AOS_LUA % "10", "s.lua")
    rc, out, err = run_cli("transform", src, "--recipe", r, "--target", "cuda", "-D", "M=64")
    assert rc == 2 and "sizes: array 'kVals' is given 10 elements, but the region reaches element 63" in err, err


@needs_nvcc
def test_cudaize_of_an_array_of_structs_compiles(tmp_path):
    src, r = case_files(tmp_path, AOS, AOS_LUA % '"M"', "s.lua")
    rc, out, err = run_cli("transform", src, "--recipe", r, "--target", "cuda")
    assert rc == 0, err
    assert nvcc_compile(out) is None


CP = """void cp(int n, int m, const float *ax, const float *ay, const float *q, float *grid)
{
  int i, k;
  float dx, dy, r;
  for (i = 0; i < n; i++)
    for (k = 0; k < m; k++) {
      dx = i - ax[k];
      dy = 1.0f - ay[k];
      r = dx * dx + dy * dy + 1.0f;
      grid[i] += q[k] / r;
    }
}
"""


def test_one_message_names_every_temporary_to_privatize(tmp_path):
    src, r = case_files(tmp_path, CP, "steps:\n  - permute: {stmt: 0, order: [k, i]}\n")
    rc, out, err = run_cli("transform", src, "--recipe", r, "--function", "cp")
    assert rc == 2 and err.count("\n") == 1, err
    assert "a step 'privatize: {var: dx, at: k}' (privatize(\"dx\",\"k\") in a CHiLL script)" in err, err
    assert "and one such step for each of 'dy' at k, 'r' at k, which it reuses too" in err, err
    # a CHiLL script gets them, as CHiLL makes them each iteration's own (probe 165 G3)
    src, r = case_files(tmp_path, CP, "from chill import *\nsource('k.c')\nprocedure('cp')\nloop(0)\n"
                                  "permute([2,1])\n", "s.py")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 0 and "as in CHiLL, each iteration has its own 'dx', 'dy', 'r'" in err, err


DEFINED = """#define N 100
void scale(double a[N], double s) {
  int i;
#pragma scop
  for (i = 0; i < N; i++)
    a[i] = a[i] * s;
#pragma endscop
}
"""


@gcc
def test_run_says_that_a_define_of_the_file_keeps_its_own_value(tmp_path):
    src, r = case_files(tmp_path, DEFINED, "steps:\n  - unroll: {stmt: 0, loop: i, factor: 4}\n")
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "N=50")
    assert rc == 0 and ": ok" in out, out + err
    assert "k.c:1:9: note: -D N=50 sets 'N' in looptx's own harness only: this #define sets it to 100, " \
           "which a build of the file keeps" in err, err
    rc, out, err = run_cli("transform", src, "--recipe", r, "-D", "N=50")
    assert rc == 2 and "does not change 'N' in this file" in err, err
