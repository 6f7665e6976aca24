"""Gaps found by the probes of session 52, each checked end to end."""
import dataclasses
from pathlib import Path

import pytest

from conftest import run_cli
from looptx.runtime.evaluators import CEvaluator
from looptx.runtime.run_once import run_once

KERNELS = Path(__file__).resolve().parent / "kernels"
MATMUL = str(KERNELS / "matmul.c")

pytestmark = pytest.mark.usefixtures("private_build_cache")


@pytest.mark.parametrize("status,error,expected", [
    ("crash", "killed by signal SIGKILL", "crash"),
    ("timeout", "ran past its time limit", "timeout"),
    ("crash", "killed by signal SIGSEGV", "wrong_result"),
])
def test_an_outside_kill_of_the_variable_size_check_is_no_wrong_result(tmp_path, monkeypatch, status,
                                                                       error, expected):
    """Probe 80 G2: the OOM killer took the check of the code for variable sizes, and run said
    wrong_result, which blames looptx's code; a kill or a timeout keeps its own status and says
    to run again, while a crash of that code of its own (SIGSEGV) is a wrong result."""
    rec = tmp_path / "r.yaml"
    rec.write_text("steps:\n  - tile: {stmt: 0, loop: j, size: 8, control: jj}\n  - reverse: {stmt: 0, loop: i}\n")
    measure = CEvaluator.measure

    def killed(self, prepared):
        m = measure(self, prepared)
        return dataclasses.replace(m, status=status, error=error, time=None) if self.symbolic is not None else m

    monkeypatch.setattr(CEvaluator, "measure", killed)
    r = run_once(MATMUL, str(rec), defines={"NI": 37, "NJ": 41, "NK": 43}, isolate=False)
    assert r["status"] == expected, r
    assert "writes without -D" in r["error"] and "NI=37" in r["error"]
    assert ("run again" in r["error"]) == (expected != "wrong_result"), r["error"]


CR_ONLY = ("#define N 10\r/* classic Mac OS line ends */\rvoid f(double a[N], double b[N])\r{{\r"
           "#pragma scop\r  for (int i = 0; i < N; i++)\r    b[i] = 2*a[i]{};\r#pragma endscop\r}}\r")


def test_a_file_with_carriage_returns_alone_for_line_ends(tmp_path):
    """Probe 76 G12: gcc reads CR-only line ends; looptx refused them at line 1 ('Illegal
    character'). They are line ends: errors name the editor's line, and the output keeps them."""
    src, rec, out = tmp_path / "cr.c", tmp_path / "r.yaml", tmp_path / "out.c"
    src.write_bytes(CR_ONLY.format("").encode())
    rec.write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 4}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec, "-o", out)
    assert rc == 0, err
    data = out.read_bytes()
    assert b"\n" not in data and data.count(b"\r") > 10
    rc, stdout, err = run_cli("run", src, "--recipe", rec)
    assert rc == 0 and ": ok" in stdout, stdout + err
    src.write_bytes(CR_ONLY.format(" +").encode())
    rc, _, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 2 and f"{src}:7:" in err, err


SPACES = Path(__file__).resolve().parent / "data" / "spaces"


@pytest.mark.parametrize("old,new,where", [
    ('"bx*by <= 128"', '"bx*zz <= 128"', "t1.json:25:19: error: condition 'bx*zz <= 128' uses 'zz'"),
    ('"bx*by <= 128"', '"bx*by <=* 128"', "t1.json:25:19: error: cannot read condition"),
    ('"Values": "[1, 2, 4]"', '"Values": 7', "t1.json:15:5: error: the Values of by are not a list"),
    ('"Values": "[1, 2, 4]"', '"Values": "[1, 2,"', "t1.json:15:5: error: cannot read the Values of by"),
    ('"Name": "unroll"', '"Name": "by"', "t1.json:18: error: the T1 file declares by twice"),
])
def test_a_t1_file_error_names_its_line(tmp_path, old, new, where):
    """Probe 76 G13: errors in the structure of a hand-written T1 file named the file alone;
    they name the line (and column) of the entry at fault, as JSON syntax errors do."""
    text = (SPACES / "t1_tiny.json").read_text()
    assert old in text
    (tmp_path / "t1.json").write_text(text.replace(old, new))
    rc, _, err = run_cli("search", "--replay", SPACES / "tiny.json", "--t1", tmp_path / "t1.json", "--budget", 3)
    assert rc == 2 and err.strip().endswith(")") and where in err and err.count("\n") == 1, err


def test_a_damaged_cache_names_the_line_of_the_extra_parameter(tmp_path):
    import json
    data = json.loads((SPACES / "tiny.json").read_text())
    data["tune_params"]["extra"] = [1]
    (tmp_path / "c.json").write_text(json.dumps(data, indent=1))
    rc, _, err = run_cli("search", "--replay", tmp_path / "c.json", "--budget", 3)
    text = (tmp_path / "c.json").read_text()
    line = text[:text.index('"extra"')].count("\n") + 1
    assert rc == 2 and f"c.json:{line}: error: 'extra' is in 'tune_params'" in err, err


LASTPRIVATE = """double lp(int n, int m, double *restrict a, double *restrict b)
{{
  int i, j;
  double t = 0.5;
#pragma scop
  for (i = 0; i < n; i++) {{
{body}
  }}
#pragma endscop
  return t;
}}
"""


@pytest.mark.parametrize("body,refusal", [
    ("    t = a[i] * 2.0;  b[i] = t + 1.0;", None),
    ("    t = a[i]; b[i] = t; t = t * 2; b[i] += t;", None),
    ("    t = a[i] > 0 ? a[i] : t;  b[i] = t;", "reads the value S0 (line 7) wrote in another iteration"),
    ("    b[i] = t;  t = a[i];", "reads the value S1 (line 7) wrote in another iteration"),
    ("    if (i % 2 == 0) t = a[i];  b[i] = a[i];", "an iteration of the loop does not write it"),
    # at m = 0 the loop over i runs, and its last iteration leaves t undefined
    ("    for (j = 0; j < m; j++) { t = a[i] * j; b[i] += t; }", "writes it inside loop 'j'"),
])
def test_lastprivate_of_a_value_read_after_the_region(tmp_path, body, refusal):
    """Probe 82 G6: `omp parallel for lastprivate(t)` where the function returns t was refused
    as a private variable would be. It is checked for what OpenMP's copy out needs, and runs
    with threads to the serial values."""
    src, rec = tmp_path / "lp.c", tmp_path / "r.yaml"
    src.write_text(LASTPRIVATE.format(body=body))
    # (the loop runs at n >= 1 only: OpenMP leaves t undefined after a loop that runs no iteration)
    rec.write_text("steps:\n  - known: {facts: ['n >= 1']}\n"
                   '  - pragma: {stmt: 0, loop: i, text: "omp parallel for lastprivate(t)"}\n'
                   "  - tile: {stmt: 0, loop: i, size: 8}\n")
    rc, out, err = run_cli("run", src, "--recipe", rec, "-D", "n=101", "-D", "m=3", "--cflags", "-O2 -fopenmp")
    if refusal is None:
        assert rc == 0 and ": ok" in out, out + err
        rc, out, err = run_cli("transform", src, "--recipe", rec)
        region = out[out.index("#pragma scop"):out.index("#pragma endscop")]
        assert rc == 0 and "#pragma omp parallel for lastprivate(t)\n" in region and "double t" not in region, out
    else:
        assert rc == 2 and "lastprivate(t) gives each iteration its own 't'" in err and refusal in err, err


def test_a_cudaize_count_below_a_declaration_by_a_macro_the_region_never_names(tmp_path):
    """Probe 78 G6: CUDA-CHiLL's cp.lua gives `atoms=N*4` (4) for `float atoms[M]` (M = 64, a
    macro the loops never name): the declaration wins, and that is said, as it is where the
    region names the macro."""
    src, script = tmp_path / "cp.c", tmp_path / "cp.lua"
    src.write_text("#define M 64\nvoid f(float atoms[M], float *energy) {\n  int i, n;\n"
                   "  for (i = 0; i < 32; i++)\n    for (n = 0; n < 16; n++)\n      energy[i] += atoms[n];\n}\n")
    script.write_text('init("cp.c","f",0)\ndofile("cudaize.lua")\nN=1\n'
                      'cudaize("k",{atoms=N*4,energy=32},{block={"i"}, thread={}})\n')
    rc, out, err = run_cli("transform", src, "--recipe", script, "--target", "cuda")
    assert rc == 0 and "__global__" in out, err
    assert "gives array 'atoms' 4 elements, its declaration 64: the declaration is used" in err, err


G1_MM = """#define N 400
double C[N][N], A[N][N], B[N][N];
void mm(void)
{
  int i, j, k;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        C[i][j] += A[i][k] * B[k][j];
#pragma endscop
}
"""
SHARED_TILES = """steps:
  - tile: {{stmt: 0, loop: i, size: 16}}
  - tile: {{stmt: 0, loop: j, size: 16}}
  - tile: {{stmt: 0, loop: k, size: {k}}}
  - permute: {{stmt: 0, order: [ii, jj, kk, i, j, k]}}
  - cuda: {{stmt: 0, block: [jj, ii], thread: [j, i]}}
  - shared: {{stmt: 0, array: A, at: kk}}
  - shared: {{stmt: 0, array: B, at: kk}}
"""


def test_the_shared_copies_of_one_kernel_fit_a_block_together(tmp_path):
    """Probe 84 G1: two 16 x 200 double tiles (25,600 bytes each) passed the per-buffer check,
    and ptxas refused the .cu ("uses too much shared data"); their sum is checked, at the step
    that goes over."""
    src, rec = tmp_path / "mm.c", tmp_path / "r.yaml"
    src.write_text(G1_MM)
    rec.write_text(SHARED_TILES.format(k=200))
    for cmd in (("transform", "--target", "cuda"), ("run",)):
        rc, _, err = run_cli(cmd[0], src, "--recipe", rec, *cmd[1:])
        assert rc == 2 and "step 7 (shared): error: the shared copies of one kernel need 51200 bytes " \
            "together (A_sh 25600, B_sh 25600), and a block may use 49152" in err, err
    rec.write_text(SHARED_TILES.format(k=150))
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda")
    assert rc == 0 and out.count("__shared__") == 2, err


CEED = """typedef int CeedInt;
typedef double CeedScalar;
void f(CeedInt A, CeedInt C, const CeedScalar *restrict u, CeedScalar *restrict v)
{
#pragma scop
  for (int a = 0; a < A; a++)
    for (int c = 0; c < C; c++)
      v[a * C + c] += 2.0 * u[a * C + c];
#pragma endscop
}
"""


def test_a_size_of_a_typedef_integer_type_fixed_by_define_is_checked_as_it_runs(tmp_path):
    """Probe 83 G1: libCEED's `CeedInt C` (NekRS's `dlong`) fixed with -D C=8 was taken for a
    floating value: the C output assumed C = 8 with no check (a call with C = 4 wrote past v),
    and the .cu's host function dropped the parameter."""
    src, rec = tmp_path / "ceed.c", tmp_path / "r.yaml"
    src.write_text(CEED)
    rc, out, err = run_cli("transform", src, "-D", "C=8")
    assert rc == 0 and "if (C == 8) {" in out and "} else {" in out, out + err
    rec.write_text("steps:\n  - cuda: {stmt: 0, block: [a], thread: [c]}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda", "-D", "C=8")
    assert rc == 0, err
    assert 'f_host_status(int A, int lx_given_C, const double *__restrict__ u, double *__restrict__ v)' in out, out
    assert "if (lx_given_C != 8) return (int)cudaErrorInvalidValue;" in out


ICE = """#ifndef N
#define N 8
#endif
void f(int nel, double D[N][N], double q[][N][N], double out[][N][N])
{
  int e, i, j, m;
#pragma scop
  for (e = 0; e < nel; e++)
    for (j = 0; j < N; j++)
      for (i = 0; i < N; i++) {
        double s = 0.0;
        for (m = 0; m < N; m++)
          s += D[m][i] * q[e][j][m];
        out[e][j][i] = s;
      }
#pragma endscop
}
"""


@pytest.mark.parametrize("n", [7, 8, 11])
def test_two_jams_with_remainder_strips_under_a_tile(tmp_path, n):
    """Probe 83 G3: Nek's local_grad at N = 7 with the element loop tiled and both j and i
    jammed (7 % 2 and 7 % 3 left remainder strips) stopped with an internal error: the copy
    of each jam is told apart in nested branches."""
    src, rec = tmp_path / "ice.c", tmp_path / "r.yaml"
    src.write_text(ICE)
    rec.write_text("steps:\n  - tile: {stmt: 0, loop: e, size: 2}\n  - unroll_jam: {stmt: 1, loop: j, factor: 2}\n"
                   "  - unroll_jam: {stmt: 1, loop: i, factor: 3}\n")
    rc, out, err = run_cli("run", src, "--recipe", rec, "-D", f"N={n}", "-D", "nel=5")
    assert rc == 0 and ": ok " in out, out + err


def test_an_internal_step_error_exits_1(tmp_path, monkeypatch):
    """The contract's exit code for an internal error is 1; a case code generation does not
    handle was a RecipeError (2, bad input)."""
    from looptx.codegen import unroll
    from looptx.errors import InternalStepError

    def unhandled(*a, **k):
        raise InternalStepError("internal: cannot tell which jammed copy an instance of statement 1 is")
    monkeypatch.setattr(unroll, "_fixed_copies", unhandled)
    src, rec = tmp_path / "ice.c", tmp_path / "r.yaml"
    src.write_text(ICE)
    rec.write_text("steps:\n  - unroll_jam: {stmt: 1, loop: i, factor: 3}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec, "-D", "N=7")
    assert rc == 1 and "internal: cannot tell" in err, err


TWO_NESTS = """void f(int n, int m, double *restrict a, double *restrict b, double *restrict c)
{
  int e, i;
  double t;
#pragma scop
  for (e = 0; e < n; e++) {
    for (i = 0; i < m; i++)
      a[e*m + i] = 2.0 * b[e*m + i];
    for (i = 0; i < m; i++) {
      t = a[e*m + i] + 1.0;
      c[e*m + i] = t * t;
    }
  }
#pragma endscop
}
"""


def test_omp_for_privatizes_in_the_nest_that_uses_the_variable(tmp_path):
    """Probe 83 G2 (Nekbone's ax_e): omp_for on the element loop, named through statement 0,
    with t private, privatized t at statement 0's own loop i, which holds no use of it, and
    then refused the WAW on t; the privatize step there was a silent no-op."""
    src, rec = tmp_path / "f.c", tmp_path / "r.yaml"
    src.write_text(TWO_NESTS)
    rec.write_text("steps:\n  - omp_for: {stmt: 0, loop: e, private: [t]}\n")
    rc, out, err = run_cli("run", src, "--recipe", rec, "-D", "n=5", "-D", "m=7", "--cflags", "-O2 -fopenmp")
    assert rc == 0 and ": ok " in out, out + err
    rec.write_text("steps:\n  - privatize: {stmt: 0, var: t, at: i}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 2 and "step 1 (privatize): error: loop 'i' around statement 0 (line 8) holds no use of 't'" in err \
        and "privatize: {stmt: 1, var: t, at: i}" in err, err


CONST_FROM_MACRO = """#define LX1 8
void f(int nelt, double D[LX1][LX1], double u[][LX1][LX1], double ur[][LX1][LX1])
{
  const int nx = LX1;
  const int nx1 = nx - 1;
  int e, i, l;
#pragma scop
  for (e = 0; e < nelt; e++)
    for (i = 0; i <= nx1; i++)
      for (l = 0; l < nx; l++)
        ur[e][0][i] += D[l][i] * u[e][0][l];
#pragma endscop
}
"""


def test_a_constant_local_set_from_a_plain_define_has_its_value(tmp_path):
    """Probe 83 G4: Nek's `const int nx = LX1;` (a plain #define) was no constant, so a full
    unroll and a thread mapping were refused where `const int nx = 8;` worked; the output
    checks the build keeps LX1 at 8."""
    src, rec = tmp_path / "lg.c", tmp_path / "r.yaml"
    src.write_text(CONST_FROM_MACRO)
    rec.write_text("steps:\n  - unroll: {stmt: 0, loop: l, factor: 0}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 0 and "#if LX1 != 8\n#error" in out and "u[e][0][7]" in out, out + err
    rc, out, err = run_cli("run", src, "--recipe", rec, "-D", "nelt=3")
    assert rc == 0 and ": ok " in out, out + err
    rec.write_text("steps:\n  - cuda: {stmt: 0, block: [e], thread: [i]}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda")
    assert rc == 0 and "#if LX1 != 8" in out and "const int nx1 = nx - 1;" in out, err
    # an #ifndef default is no constant: a build may give another value
    src.write_text(CONST_FROM_MACRO.replace("#define LX1 8", "#ifndef LX1\n#define LX1 8\n#endif"))
    rec.write_text("steps:\n  - unroll: {stmt: 0, loop: l, factor: 0}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 2, out


def test_a_chill_destination_is_said_to_be_not_followed(tmp_path):
    """Probe 83 G7: a CHiLL script's destination('out.c') was passed over in silence; the
    output went to stdout and no file was written."""
    src, script = tmp_path / "mv.c", tmp_path / "s.py"
    src.write_text("#define N 16\nvoid mv(double a[N][N], double x[N], double y[N]) {\n  int i, j;\n"
                   "  for (i = 0; i < N; i++)\n    for (j = 0; j < N; j++)\n      y[i] += a[i][j] * x[j];\n}\n")
    script.write_text("from chill import *\nsource('mv.c')\ndestination('mv_out.c')\nprocedure('mv')\nloop(0)\n"
                      "unroll(0, 2, 4)\n")
    rc, out, err = run_cli("transform", src, "--recipe", script)
    assert rc == 0 and "for (" in out, err
    assert "s.py:3: note: destination(...) is not followed" in err and "-o" in err, err
    assert not (tmp_path / "mv_out.c").exists()


def test_a_define_over_a_plain_define_for_a_cu_says_the_cu(tmp_path):
    """Probe 83 G8: `transform --target cuda -D LX1=10` over `#define LX1 8` noted that the -D
    holds in looptx's harness, which transform does not build; it holds for the .cu alone."""
    src, rec = tmp_path / "s.c", tmp_path / "r.yaml"
    src.write_text("#define LX1 8\nvoid s(int n, double *restrict a)\n{\n#pragma scop\n  for (int i = 0; i < n; i++)\n"
                   "    for (int j = 0; j < LX1; j++)\n      a[i * LX1 + j] *= 2.0;\n#pragma endscop\n}\n")
    rec.write_text("steps:\n  - cuda: {stmt: 0, block: [i], thread: [j]}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda", "-D", "LX1=10")
    assert rc == 0 and "#define LX1 10" in out, err
    assert "note: -D LX1=10 sets 'LX1' for the .cu alone (it #defines LX1 itself): this #define sets it to 8" in err
    assert "harness" not in err, err


def test_run_refuses_known_facts_that_the_default_sizes_break(tmp_path):
    """Probe 85 G1: `known: N % 4 == 0` over `#ifndef N / #define N 10`: run built the harness
    at 10, without the #error the output has, and reported a wrong result (exit 1)."""
    src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text("#ifndef N\n#define N 10\n#endif\ndouble A[N];\nvoid k(void)\n{\n#pragma scop\n"
                   "    for (int i = 0; i < N; i++)\n        A[i] = A[i] * 2.0;\n#pragma endscop\n}\n")
    rec.write_text('steps:\n  - known: {facts: ["N % 4 == 0"]}\n  - unroll: {stmt: 0, loop: i, factor: 4}\n')
    rc, out, err = run_cli("run", src, "--recipe", rec)
    assert rc == 2 and "r.yaml:2: error: the known facts N % 4 == 0 do not hold at the sizes this run builds " \
        "with (N=10)" in err and "--define" in err, out + err
    rc, out, err = run_cli("run", src, "--recipe", rec, "-D", "N=12")
    assert rc == 0 and ": ok " in out, out + err


def test_a_part_a_peel_left_without_the_loop_is_named_as_such():
    """Probe 85 G2: at N = 1, M = 2 a later split named loop 'jj' of statement 5, and the error
    said it had no such loop while listing 'jj' among its loops (the first part's)."""
    data = Path(__file__).resolve().parent / "data" / "gaps52"
    rc, out, err = run_cli("run", data / "nojj.c", "--recipe", data / "nojj.yaml", "-D", "N=1", "-D", "M=2")
    assert rc == 2 and "step 3 (split): error: statement 5 is in parts (a peel or split made them), and one " \
        "of them has no loop named 'jj' (its loops: i, j)" in err, out + err


def test_collapse_of_more_loops_than_the_nest_has_is_refused_at_its_step(tmp_path):
    """Probe 85 G3: collapse(2) on the innermost loop passed its step and failed in code
    generation, located in the C file with another reason."""
    src, rec = tmp_path / "c.c", tmp_path / "r.yaml"
    src.write_text("void k(int N, double A[N][N], double x[N])\n{\n#pragma scop\n    for (int i = 0; i < N; i++)\n"
                   "        for (int j = 0; j < N; j++)\n            A[i][j] += x[j];\n#pragma endscop\n}\n")
    rec.write_text('steps:\n  - pragma: {stmt: 0, loop: j, text: "omp parallel for collapse(2)"}\n')
    rc, out, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 2 and "r.yaml:2: step 1 (pragma): error: '#pragma omp parallel for collapse(2)' collapses 2 " \
        "loops, but statement 0 has 1 from loop 'j' inwards (j)" in err, err
    rec.write_text('steps:\n  - pragma: {stmt: 0, loop: i, text: "omp parallel for collapse(2)"}\n')
    rc, out, err = run_cli("run", src, "--recipe", rec, "-D", "N=9", "--cflags", "-O2 -fopenmp")
    assert rc == 0 and ": ok " in out, out + err


def test_a_copy_clause_naming_a_variable_the_loop_does_not_use_is_refused(tmp_path):
    """Probe 85 G4: firstprivate(t) on a loop that does not use t (a local of another nest)
    was kept, and the copy read an uninitialized variable."""
    src, rec = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text("void k(int N, double a[N], double b[N], double c[N])\n{\n#pragma scop\n"
                   "    for (int i = 0; i < N; i++) {\n        double t = a[i] * 2.0;\n        b[i] = t + 1.0;\n    }\n"
                   "    for (int i = 0; i < N; i++)\n        c[i] = a[i] + 1.0;\n#pragma endscop\n}\n")
    rec.write_text('steps:\n  - pragma: {stmt: 2, loop: i, text: "omp parallel for firstprivate(t)"}\n')
    rc, _, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 2 and "step 1 (pragma): error: 't' in 'firstprivate(t)' is not used in loop 'i'" in err, err


F2C_STATIC = """typedef int integer;
typedef double doublereal;
int scal_(integer *n, integer *m, doublereal *a)
{
    integer a_dim1, a_offset, i__1, i__2;
    static integer i__, j;
    a_dim1 = *n;
    a_offset = 1 + a_dim1;
    a -= a_offset;
    i__1 = *m;
    for (j = 1; j <= i__1; ++j) {
        i__2 = *n;
        for (i__ = 1; i__ <= i__2; ++i__) {
            a[i__ + j * a_dim1] *= 2.;
        }
    }
    return 0;
}
"""


def test_f2c_static_counters_get_no_final_values_nest(tmp_path):
    """Probe 84 G5: f2c's `static integer i__, j;` made the output run the whole nest again,
    empty, after the region to leave the counters' final values, which no call reads (each
    call's loops set them first)."""
    src, rec = tmp_path / "scal.c", tmp_path / "r.yaml"
    src.write_text(F2C_STATIC)
    rec.write_text("steps:\n  - unroll: {stmt: 0, loop: i__, factor: 2}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--function", "scal_")
    assert rc == 0 and "the values the loops leave" not in out, out + err
    rc, out, err = run_cli("run", src, "--recipe", rec, "--function", "scal_", "-D", "n__0=7", "-D", "m__0=5")
    assert rc == 0 and ": ok " in out, out + err
    # a static read after the region keeps its value
    src.write_text(F2C_STATIC.replace("    return 0;", "    return j;"))
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--function", "scal_")
    assert rc == 0 and "the value the loops leave" in out, out + err


def test_an_isl_computation_that_outgrows_its_memory_is_an_overrun(monkeypatch):
    """Probe 82 G3: omp_for on the tile loop of Pluto's time-tiled jacobi-1d made isl's exact
    dependence analysis grow to 11 GB before its operation budget ran out. The memory a budget
    may add is capped (1 GiB here), and the overrun is the one-line advice to fix the sizes;
    the process's limit comes back after."""
    import resource
    import looptx.poly.budget as B
    import looptx.poly.deps as D
    monkeypatch.setattr(B, "_GIB", 1)
    # a tenth of the operations ends the same way, in seconds rather than a minute
    monkeypatch.setattr(D, "MAX_OPERATIONS", D.MAX_OPERATIONS // 10)
    before = resource.getrlimit(resource.RLIMIT_AS)
    data = Path(__file__).resolve().parent / "data" / "gaps52"
    rc, out, err = run_cli("transform", data / "j1d_pluto.c", "--recipe", data / "j1d_omp.yaml")
    assert rc == 2 and "the exact dependence analysis of region 0 is too expensive" in err, err
    assert resource.getrlimit(resource.RLIMIT_AS) == before


def test_a_failed_code_generation_blames_unrolling_only_where_a_step_unrolled():
    """Probe 82 G4: isl's own diamond-tiled jacobi-1d, with no recipe, ran out of operations
    in code generation, and the hint said to unroll less."""
    from types import SimpleNamespace as NS
    from looptx.poly.astgen import _codegen_hint
    scop = NS(params=("T", "N"), fixed=())
    assert _codegen_hint(NS(history=(), scop=scop)) == "fix the sizes with --define (e.g. --define T=64)"
    assert "unroll" in _codegen_hint(NS(history=("tile: {stmt: 0}", "unroll: {stmt: 0, loop: i, factor: 8}"),
                                        scop=scop))


PBOOL = """typedef enum { PETSC_FALSE, PETSC_TRUE } PetscBool;
typedef int PetscInt;
typedef const PetscInt cidx_t;
typedef double PetscScalar;
void scalecols(PetscInt m, cidx_t n, PetscBool zero, const PetscScalar *restrict d, PetscScalar *restrict a)
{
#pragma scop
  for (PetscInt i = 0; i < m; i++)
    for (PetscInt j = 0; j < n; j++)
      if (zero)
        a[i * n + j] = 0.0;
      else
        a[i * n + j] = a[i * n + j] * d[j];
#pragma endscop
}
"""


def test_defined_sizes_of_enum_and_qualified_typedef_types_are_checked(tmp_path):
    """Probe 86 G1/G2: a -D of PETSc's PetscBool flag (an enum typedef) or of a size of a
    typedef chain with a qualifier (`typedef const PetscInt cidx_t;`) was assumed with no check,
    and the .cu's host function dropped the enum-typed parameter."""
    src, rec = tmp_path / "p.c", tmp_path / "r.yaml"
    src.write_text(PBOOL)
    rc, out, err = run_cli("transform", src, "-D", "zero=1", "-D", "n=8")
    assert rc == 0 and "if (n == 8 && zero == 1) {" in out, out
    # (d is read in the branch zero = 1 drops: its count is given)
    rec.write_text("steps:\n  - cuda: {stmt: 0, block: [i], thread: [j], sizes: {d: n}}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda", "-D", "zero=1", "-D", "n=8")
    assert rc == 0 and "scalecols_host_status(int m, int lx_given_n, int lx_given_zero, const double " in out, out
    assert "if (lx_given_zero != 1) return (int)cudaErrorInvalidValue;" in out


def test_a_double_bound_fixed_by_define_is_checked(tmp_path):
    """Probe 86 G1f: `for (i = 0; i < len; i++)` with `double len` and -D len=8 gave a loop to 8
    with no check; a floating value that only enters the statements stays unguarded."""
    src = tmp_path / "r.c"
    src.write_text("void ramp(double len, double beta, const double *restrict x, double *restrict y)\n{\n"
                   "#pragma scop\n  for (int i = 0; i < len; i++)\n    y[i] = beta * x[i];\n#pragma endscop\n}\n")
    rc, out, err = run_cli("transform", src, "-D", "len=8", "-D", "beta=3")
    assert rc == 0 and "if (len == 8) {" in out and "beta ==" not in out, out + err


def test_long_double_data_is_refused_for_cuda(tmp_path):
    """Probe 86 G4: device code reads a long double as an 8-byte double while the host copies
    16-byte elements."""
    src, rec = tmp_path / "ld.c", tmp_path / "r.yaml"
    src.write_text("void s(int n, long double *restrict a)\n{\n#pragma scop\n  for (int i = 0; i < n; i++)\n"
                   "    a[i] = 2 * a[i];\n#pragma endscop\n}\n")
    rec.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 32}\n  - cuda: {stmt: 0, block: [ii], thread: [i]}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda")
    assert rc == 2 and "ld.c:1:37: error: 'a' is of type 'long double', which CUDA device code reads as 'double'" in err, err


ENUM_SIZE = """enum { NCOMP = 3 };
void f(int n, const double *restrict u, double *restrict v)
{
#pragma scop
  for (int e = 0; e < n; e++)
    for (int c = 0; c < NCOMP; c++)
      v[e * NCOMP + c] = 2.0 * u[e * NCOMP + c];
#pragma endscop
}
"""


def test_an_enumerator_size(tmp_path):
    """Probe 86 G5: -D NCOMP=3 of an enumerator gave `#if NCOMP != 3 #error`, which an #if reads
    as 0 != 3 and always stops the build; the .cu's host function took NCOMP as an extra
    argument, which no caller of the original passes."""
    src, rec = tmp_path / "e.c", tmp_path / "r.yaml"
    src.write_text(ENUM_SIZE)
    rc, out, err = run_cli("transform", src, "-D", "NCOMP=3")
    assert rc == 0 and "#if NCOMP" not in out, out
    rc, out, err = run_cli("transform", src, "-D", "NCOMP=4")
    assert rc == 2 and "e.c:1:8: error: -D NCOMP=4 does not change 'NCOMP': the file's enum sets it to 3" in err, err
    rec.write_text("steps:\n  - cuda: {stmt: 0, block: [e], thread: [c]}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda")
    assert rc == 0 and "f_host_status(int n, const double *__restrict__ u, double *__restrict__ v)" in out, out
    assert "const int NCOMP = 3;" in out


def test_a_member_size_fixed_by_define_is_an_argument_of_the_cu_checked(tmp_path):
    """Probe 86 G3: `-D mesh__nq=8` made a .cu whose host function neither took nor checked
    mesh->nq: a mesh with nq = 4 was read with stride 8."""
    src, rec = tmp_path / "m.c", tmp_path / "r.yaml"
    src.write_text("typedef struct { int ne; int nq; } Mesh;\n"
                   "void apply(const Mesh *mesh, const double *restrict u, double *restrict v)\n{\n#pragma scop\n"
                   "  for (int e = 0; e < mesh->ne; e++)\n    for (int q = 0; q < mesh->nq; q++)\n"
                   "      v[e * mesh->nq + q] += 2.0 * u[e * mesh->nq + q];\n#pragma endscop\n}\n")
    rec.write_text("steps:\n  - cuda: {stmt: 0, block: [e], thread: [q]}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda", "-D", "mesh__nq=8")
    assert rc == 0 and "apply_host_status(int mesh__ne, int lx_given_mesh__nq, const double" in out, out
    assert "if (lx_given_mesh__nq != 8) return (int)cudaErrorInvalidValue;" in out


def test_distribute_groups_are_numbered_over_the_file(tmp_path):
    """Probe 88 G1: `groups: [[2], [3]]` in a file whose second region holds S2..S7 split out S4
    and S5 (read as that region's own numbers), with the recipe as asked in the header."""
    data = Path(__file__).resolve().parent / "data" / "gaps52"
    rec = tmp_path / "r.yaml"
    rec.write_text("steps:\n  - distribute: {loop: i, groups: [[2], [3]]}\n")
    for extra in ((), ("--function", "work")):
        rc, out, err = run_cli("transform", data / "groups.c", "--recipe", rec, *extra)
        work = out[out.index("void work"):]
        assert rc == 0 and "for (int i = 0; i < N; i++)\n      c[i] = a[i] + 1.0;\n" in work and \
            "for (int i = 0; i < N; i++)\n      d[i] = b[i] * 2.0;\n" in work, out + err
    rc, out, err = run_cli("run", data / "groups.c", "--recipe", rec, "--function", "work", "-D", "N=13")
    assert rc == 0 and ": ok " in out, out + err


def test_a_peel_of_a_loop_an_ifndef_default_bounds_keeps_its_guard(tmp_path):
    """Probe 88 G2: every #defined size was taken as >= 1, so a peel of `for (t = 0; t < T; t++)`
    under `#ifndef T` ran its first iteration in a build with -DT=0."""
    src, rec = tmp_path / "p.c", tmp_path / "r.yaml"
    src.write_text("#ifndef T\n#define T 10\n#endif\nvoid f(int N, double A[N])\n{\n#pragma scop\n"
                   "  for (int t = 0; t < T; t++)\n    for (int i = 0; i < N; i++)\n      A[i] = A[i] + 1.0;\n"
                   "#pragma endscop\n}\n")
    rec.write_text("steps:\n  - peel: {stmt: 0, loop: t, first: 1}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 0 and "if (T >= 1)" in out, out + err
    for t in ("0", "3"):
        rc, out, err = run_cli("run", src, "--recipe", rec, "-D", f"T={t}", "-D", "N=5")
        assert rc == 0 and ": ok " in out, out + err


@pytest.mark.parametrize("header,ctype", [("stdint.h", "int_fast32_t"), ("stdint.h", "uint_least16_t"),
                                          ("sys/types.h", "off_t"), ("sys/types.h", "uint"),
                                          ("sys/types.h", "u_int32_t"), ("math.h", "double_t")])
def test_libc_typedefs_of_every_header(tmp_path, header, ctype):
    """Probe 86 G7: int_fast32_t, off_t, uint, u_int32_t, double_t were unknown to looptx's
    stand-in libc and read as a syntax error of the user's."""
    src = tmp_path / "t.c"
    src.write_text(f"#include <{header}>\nvoid f({ctype} n, double *restrict a)\n{{\n#pragma scop\n"
                   f"  for ({ctype} i = 0; i < n; i++)\n    a[i] = 2 * a[i];\n#pragma endscop\n}}\n")
    rc, out, err = run_cli("run", src, "-D", "n=10")
    assert rc == 0 and ": ok " in out, out + err


def test_a_define_of_an_f2c_pointer_parameter_names_the_element(tmp_path):
    """Probe 86 G11: `-D n=8` for f2c's `integer *n` (a typedef of the file) was accepted and
    did nothing; it is refused with the element's name, as for `int *n`."""
    src = tmp_path / "daxpy.c"
    src.write_text("typedef long int integer;\ntypedef double doublereal;\n"
                   "int daxpy_(integer *n, doublereal *da, doublereal *dx, doublereal *dy)\n{\n"
                   "    integer i__1;\n    integer i__;\n    --dy;\n    --dx;\n    i__1 = *n;\n#pragma scop\n"
                   "    for (i__ = 1; i__ <= i__1; ++i__) {\n        dy[i__] += *da * dx[i__];\n    }\n"
                   "#pragma endscop\n    return 0;\n}\n")
    rc, _, err = run_cli("transform", src, "-D", "n=8")
    assert rc == 2 and "daxpy.c:3:12: error: -D n=8: 'n' is a pointer in daxpy.c, not a size" in err \
        and "--define n__0=8" in err, err
    rc, out, err = run_cli("run", src, "-D", "n__0=8")
    assert rc == 0 and ": ok " in out, out + err


def test_a_stdbool_flag_is_a_bool(tmp_path):
    """Probe 86 G13: looptx's stand-in <stdbool.h> made bool an int, so a guard on a bool flag
    came out as `accumulate < 0`, which gcc -Wall warns is always false, and the .cu took it
    as an int."""
    import subprocess
    src, rec = tmp_path / "b.c", tmp_path / "r.yaml"
    src.write_text("#include <stdbool.h>\nvoid upd(int n, bool acc, double *restrict y, const double *restrict a)\n{\n"
                   "#pragma scop\n  for (int i = 0; i < n; i++)\n    if (acc)\n      y[i] += a[i];\n    else\n"
                   "      y[i] = a[i];\n#pragma endscop\n}\n")
    rec.write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 2}\n")
    out = tmp_path / "o.c"
    rc, _, err = run_cli("transform", src, "--recipe", rec, "-o", out)
    assert rc == 0, err
    p = subprocess.run(["gcc", "-Wall", "-Wextra", "-Werror=bool-compare", "-c", str(out), "-o", str(tmp_path / "o.o")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    rc, stdout, err = run_cli("run", src, "--recipe", rec, "-D", "n=9")
    assert rc == 0 and ": ok " in stdout, stdout + err


def test_a_parallel_loop_refusal_names_a_dependence_no_privatize_removes(tmp_path):
    """Probe 88 G4: omp_for on heat-1d's time loop named the WAW on the temporary `lap` and a
    privatize step; after that step the user met the stencil's own dependence."""
    data = Path(__file__).resolve().parent / "data" / "gaps52"
    rec = tmp_path / "r.yaml"
    rec.write_text("steps:\n  - omp_for: {stmt: 0, loop: t}\n")
    rc, _, err = run_cli("transform", data / "heat1d_tmp.c", "--recipe", rec)
    assert rc == 2 and "on u" in err and "privatize" not in err, err


@pytest.mark.parametrize("n", [20, 32])
def test_registers_outside_a_sequential_loop_that_holds_the_thread_loop(n):
    """Probe 87 G1: registers of C at kk, with loop i between kk and thread loop j, went to the
    threads of block 0 alone: the thread index counted from a position (i) that the copy, made
    before i, holds no value at (512 wrong elements at n = 32)."""
    data = Path(__file__).resolve().parent / "data" / "gaps52"
    rc, out, err = run_cli("run", data / "mm_regs.c", "--recipe", data / "mm_regs.yaml", "-D", f"n={n}")
    assert rc == 0 and ": ok " in out, out + err
    rc, cu, err = run_cli("transform", data / "mm_regs.c", "--recipe", data / "mm_regs.yaml", "--target", "cuda",
                          "-D", f"n={n}")
    assert rc == 0 and "if (bx == 0)" not in cu, cu


def test_a_full_unroll_of_a_thread_loop_is_refused_at_its_step(tmp_path):
    """Probe 87 G2: unrolling a thread loop by its tile size or more left the cuda step without
    its loop, and code generation stopped with "internal error: ValueError: 'i' is not in list"."""
    src, rec = tmp_path / "j.c", tmp_path / "r.yaml"
    src.write_text("void jac1d(int n, double A[n], double B[n])\n{\n#pragma scop\n  for (int i = 1; i < n - 1; i++)\n"
                   "    B[i] = 0.33 * (A[i - 1] + A[i] + A[i + 1]);\n#pragma endscop\n}\n")
    rec.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 2}\n  - cuda: {stmt: 0, block: [ii], thread: [i]}\n"
                   "  - unroll: {stmt: 0, loop: i, factor: 3}\n")
    for cmd in (("transform", "--target", "cuda"), ("run", "-D", "n=20")):
        rc, _, err = run_cli(cmd[0], src, "--recipe", rec, *cmd[1:])
        assert rc == 2 and "step 3 (unroll): error: loop 'i' is no loop after this step (unrolled fully), and an " \
            "earlier cuda step maps it to threads" in err, err


def test_a_fuse_that_needs_a_shift_past_4_names_it(tmp_path):
    """Probe 88 G3: a radius-5 Jacobi pair fuses after a shift by 5; the refusal said to choose
    another order or skew (the search of shifts stopped at 4)."""
    data = Path(__file__).resolve().parent / "data" / "gaps52"
    rec = tmp_path / "r.yaml"
    rec.write_text("steps:\n  - fuse: {stmts: [0, 1], loop: i}\n")
    rc, _, err = run_cli("transform", data / "r5.c", "--recipe", rec)
    assert rc == 2 and "shift: {stmt: 1, loop: i, by: 5}" in err, err
    rec.write_text("steps:\n  - shift: {stmt: 1, loop: i, by: 5}\n  - fuse: {stmts: [0, 1], loop: i}\n")
    rc, out, err = run_cli("run", data / "r5.c", "--recipe", rec, "-D", "N=37", "-D", "T=3")
    assert rc == 0 and ": ok " in out, out + err


def test_a_loop_step_fixed_by_define_is_checked(tmp_path):
    """Probe 90 G1: `for (i = 0; i < n; i += s)` with -D s=2 was written with step 2 and no
    check; a call with s = 3 computed other elements."""
    src = tmp_path / "s.c"
    src.write_text("void scale(int n, int s, double *x)\n{\n  int i;\n#pragma scop\n  for (i = 0; i < n; i += s)\n"
                   "    x[i] = 2.0 * x[i];\n#pragma endscop\n}\n")
    rc, out, err = run_cli("transform", src, "-D", "s=2")
    assert rc == 0 and "if (s == 2) {" in out and "i += s" in out, out + err
    src.write_text("#ifndef STRIDE\n#define STRIDE 2\n#endif\nvoid scale(int n, double *x)\n{\n  int i;\n#pragma scop\n"
                   "  for (i = 0; i < n; i += STRIDE)\n    x[i] = 2.0 * x[i];\n#pragma endscop\n}\n")
    rc, out, err = run_cli("transform", src, "-D", "STRIDE=3")
    assert rc == 0 and "#if STRIDE != 3\n#error" in out, out + err


def test_a_local_size_fixed_by_define_is_taken_and_checked_by_the_cu(tmp_path):
    """Probe 90 G2: `int n = *np;` with -D n=64: the .cu's host function took neither np nor n
    and copied 64 elements whatever the caller had."""
    src, rec = tmp_path / "p.c", tmp_path / "r.yaml"
    src.write_text("void scale(int *np, double *x)\n{\n  int i;\n  int n = *np;\n#pragma scop\n  for (i = 0; i < n; i++)\n"
                   "    x[i] = 2.0 * x[i];\n#pragma endscop\n}\n")
    rec.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 16, control: ii}\n"
                   "  - cuda: {stmt: 0, block: [ii], thread: [i]}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda", "-D", "n=64")
    assert rc == 0 and "scale_host_status(double *__restrict__ x, int lx_given_n)" in out, out + err
    assert "if (lx_given_n != 64) return (int)cudaErrorInvalidValue;" in out


def test_a_define_of_a_size_read_through_a_local_fixes_the_local(tmp_path):
    """Probe 90 G3/G4: `int n = len;` with -D len=8 gave code for any n with no word, and a full
    unroll was refused with the advice to give the -D it had."""
    src, rec = tmp_path / "l.c", tmp_path / "r.yaml"
    src.write_text("void k(int len, double *x)\n{\n  int i;\n  int n = len;\n#pragma scop\n  for (i = 0; i < n; i++)\n"
                   "    x[i] = 2.0 * x[i];\n#pragma endscop\n}\n")
    rc, out, err = run_cli("transform", src, "-D", "len=8")
    assert rc == 0 and "if (n == 8) {" in out and "i < 8" in out, out + err
    rec.write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 0}\n")
    rc, out, err = run_cli("run", src, "--recipe", rec, "-D", "len=8")
    assert rc == 0 and ": ok " in out, out + err


def test_the_cu_says_when_its_host_function_takes_the_files_arrays(tmp_path):
    """Probe 89 G1: a region reading a file-scope table (`static const double w[3]`) gave a host
    function that takes w after the original's parameters, silently: a call written for the
    original read garbage."""
    src, rec = tmp_path / "t.c", tmp_path / "r.yaml"
    src.write_text("static const double w[3] = {0.25, 0.5, 0.25};\nvoid smooth(int n, const double *in, double *out)\n"
                   "{\n#pragma scop\n  for (int i = 1; i < n - 1; i++)\n"
                   "    out[i] = w[0] * in[i - 1] + w[1] * in[i] + w[2] * in[i + 1];\n#pragma endscop\n}\n")
    rec.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 32}\n  - cuda: {stmt: 0, block: [ii], thread: [i]}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda")
    assert rc == 0 and "smooth_host_status(int n, const double *__restrict__ in, double *__restrict__ out, " in out
    assert "note: smooth_host(int n, const double *__restrict__ in, double *__restrict__ out, const double *__restrict__ w) takes w, the region's array that" in err, err


def test_a_file_scope_const_global_has_its_value(tmp_path):
    """Probe 90 G4: `static const int N = 8;` at file scope was no constant, so a full unroll
    of `for (i = 0; i < N; i++)` was refused (an enum or a #define worked)."""
    src, rec = tmp_path / "f.c", tmp_path / "r.yaml"
    src.write_text("static const int N = 8;\nvoid k(double *x)\n{\n  int i;\n#pragma scop\n  for (i = 0; i < N; i++)\n"
                   "    x[i] = 2.0 * x[i];\n#pragma endscop\n}\n")
    rec.write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 0}\n")
    rc, out, err = run_cli("run", src, "--recipe", rec)
    assert rc == 0 and ": ok " in out, out + err
    # a global without const may be set by another file: no value
    src.write_text(src.read_text().replace("static const int N = 8;", "int N = 8;"))
    rc, out, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 2 and "no constant trip count" in err, err
