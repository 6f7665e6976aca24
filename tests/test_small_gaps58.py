"""Gaps found by probes 121 (real Orio files) and 123 (C as HPC kernels write it), end to end."""
import shutil
import subprocess

import pytest

from conftest import case_files, run_cli, runs_ok

pytestmark = pytest.mark.usefixtures("private_build_cache")

BAND = """void trmv(int n, int bw, const double *restrict L, const double *restrict x, double *restrict y)
{{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = {lower}; j <= (i < n - 1 ? i : n - 1); j++)
      y[i] += L[i*n + j] * x[j];
#pragma endscop
}}
"""


@pytest.mark.parametrize("lower", ["(i > bw ? i - bw : 0)", "(i >= bw ? i - bw : 0)", "(i < bw ? 0 : i - bw)",
                                   "(bw < i ? i - bw : 0)", "(2*i > 2*bw ? i - bw : 0)"])
def test_band_bound_written_as_a_ternary_is_a_max(tmp_path, lower):
    """Probe 123 G5: `i > bw ? i - bw : 0` is max(i - bw, 0) (its arms differ by the compared
    difference), the usual spelling of a band's lower bound; it was refused as a conditional."""
    src, rec = case_files(tmp_path, BAND.format(lower=lower),
                          "steps:\n  - unroll: {stmt: 0, loop: i, factor: 3}\n  - tile: {stmt: 0, loop: j, size: 4}\n")
    for n, bw in ((37, 5), (8, 3), (5, 9)):
        rc, out, err = run_cli("run", src, "--recipe", rec, "-D", f"n={n}", "-D", f"bw={bw}")
        assert rc == 0 and ": ok" in out, (n, bw, out + err)
    rc, out, err = run_cli("transform", src)
    assert rc == 0 and "lx_max(0, -bw + i)" in out.replace("i - bw", "-bw + i"), out + err


def test_other_ternary_in_a_bound_is_refused_with_the_accepted_forms(tmp_path):
    src, rec = case_files(tmp_path, BAND.format(lower="(i > bw ? 1 : 0)"), "steps: []\n")
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and "k.c:5:" in err and "conditional expression" in err
    assert "i > b ? i - b : 0" in err, err


IFDEF_BODY = """void f(int n, double *restrict a)
{
#pragma scop
  for (int i = 0; i < n; i++) {
    a[i] = 2.0;
#ifdef EXTRA
    a[i] += 1.0;
#endif
  }
#pragma endscop
}
"""
ELIF = """#ifndef MODE
#define MODE 1
#endif
void f(int n, double *restrict a)
{
#pragma scop
  for (int i = 0; i < n; i++) {
#if MODE == 1
    a[i] = 1.0;
#elif MODE == 2
    a[i] = 2.0;
#endif
  }
#pragma endscop
}
"""


def _builds(path, *flags) -> bool:
    return subprocess.run(["gcc", "-c", "-o", "/dev/null", *flags, str(path)], capture_output=True).returncode == 0


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc on PATH to build the output")
@pytest.mark.parametrize("code, taken, other", [(IFDEF_BODY, ["-D", "EXTRA=1"], []),
                                                (ELIF, [], ["-DMODE=3"])])
def test_taken_branch_without_else_stops_a_build_that_skips_it(tmp_path, code, taken, other):
    """Probe 123 G1: a taken `#ifdef` (or `#if ... #elif`) without `#else` got no `#error` for
    its implicit empty branch: a build without EXTRA (with MODE=3) compiled the code of a branch
    it does not take.  The output now adds `#else #error`."""
    src, rec = case_files(tmp_path, code, "steps:\n  - unroll: {stmt: 0, loop: i, factor: 2}\n")
    out = tmp_path / "o.c"
    rc, _, err = run_cli("transform", src, "--recipe", rec, *taken, "-o", out)
    assert rc == 0, err
    assert "#else\n#error" in out.read_text()
    built_with = ["-DEXTRA"] if taken else []
    assert _builds(out, *built_with), out.read_text()
    assert not _builds(out, *other)


def test_counter_inside_sizeof_follows_the_unroll(tmp_path):
    """Probe 123 G4: `sizeof(a[i])` kept `i` in every fully unrolled copy, where no `i` exists."""
    src, rec = case_files(tmp_path, """void f(double *restrict a, const double *restrict b, int n)
{
#pragma scop
  for (int i = 0; i < 4; i++)
    a[i] = sizeof(a[i]) * b[i];
#pragma endscop
}
""", "steps:\n  - unroll: {stmt: 0, loop: i, factor: 0}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 0 and "sizeof(a[i])" not in out and "a[3] = sizeof(a[0]) * b[3];" in out, out + err
    runs_ok(src, rec, (4,))


@pytest.mark.parametrize("bound, says", [("n * n", "give n a value (a #define, or --define n=VALUE)"),
                                         ("i * i", "a product of loop iterators (i*i)")])
def test_product_messages_name_what_to_do(tmp_path, bound, says):
    """Probe 123 G3: `n * n` gave the remedy `--define ()`; `i * i` was called a product of an
    iterator and a size."""
    src, _ = case_files(tmp_path, f"""void f(int n, double *restrict a)
{{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < {bound}; j++) a[j] = 1.0;
#pragma endscop
}}
""", "steps: []\n")
    rc, _, err = run_cli("transform", src)
    assert rc == 2 and says in err and "()" not in err.replace("(i*i)", ""), err


def test_cuda_note_leaves_struct_members_in_their_place(tmp_path):
    """Probe 123 G2: the note said the host function takes a struct parameter's members after the
    original parameters, where they take the struct's place (as the signature shows)."""
    src, rec = case_files(tmp_path, """typedef struct { int n; float *x; float *y; } vec_t;
void scale(vec_t *v, float s)
{
  for (int i = 0; i < v->n; i++)
    v->y[i] = s * v->x[i];
}
""", "steps:\n  - tile: {stmt: 0, loop: i, size: 4}\n  - cuda: {stmt: 0, block: [ii], thread: [i]}\n")
    rc, out, err = run_cli("transform", src, "--function", "scale", "--recipe", rec, "--target", "cuda")
    assert rc == 0, err
    assert "scale_host(int v__n, float *__restrict__ v__y, float *__restrict__ v__x, float s)" in out
    assert "after the parameters of the original function" not in err, err


STRING_AXES = """/*@ begin PerfTuning (
  def performance_params {{ param BY[] = [{values}]; }}
  def input_params {{ param N[] = [8]; }}
  def input_vars {{ decl dynamic double y[N] = 0; }}
) @*/
/*@ begin CHiLL (
  cuda(0,block={{"i"}},thread={{BY}})
) @*/
int i;
for (i = 0; i < N; i++)
  y[i] = y[i] + 1.0;
/*@ end @*/
/*@ end @*/
"""


def test_define_of_a_string_param_spelled_as_a_number(tmp_path):
    """Probe 121 G1: CUDA-CHiLL files write unmapped axes as '1' (a string): -D BY=1 was
    refused with a list that showed 1 among the values."""
    src, _ = case_files(tmp_path, STRING_AXES.format(values="'1','i'"), "")
    rc, out, err = run_cli("transform", src, "-D", "BY=1")
    assert rc == 0, err
    rc, _, err = run_cli("transform", src, "-D", "BY=2")
    assert rc == 2 and "('1', 'i')" in err, err


ICC_FILE = """/*@ begin PerfTuning (
  def build { arg build_command = 'icc-not-installed -O3'; }
  def performance_params { param U[] = [1, 2]; }
  def input_params { param N[] = [20]; }
  def input_vars { decl dynamic double y[N] = 0; decl dynamic double x[N] = 0; }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
int i;
/*@ begin Loop (
  transform Unroll(ufactor=U)
  for (i = 0; i <= N-1; i++)
    y[i] = y[i] + 2.0 * x[i];
) @*/
/*@ end @*/
/*@ end @*/
"""


def test_search_builds_a_file_for_another_compiler_with_cflags(tmp_path):
    """Probe 121 G2: a file whose build_command names a compiler this machine lacks (most of
    Orio's testsuite names icc) could be searched only after editing it; `--cflags` builds with
    gcc, and the refusal names it."""
    src, _ = case_files(tmp_path, ICC_FILE, "")
    rc, _, err = run_cli("search", src, "--budget", "2", "--no-progress", "--db", tmp_path / "a.db")
    assert rc == 2 and "--cflags" in err, err
    rc, out, err = run_cli("search", src, "--budget", "2", "--no-progress", "--db", tmp_path / "b.db",
                           "--cflags", "-O2")
    assert rc == 0 and "ok 2" in out + err, out + err
    rc, _, err = run_cli("search", src, "--backend", "cuda", "--cflags", "-O2")
    assert rc == 2 and "--cflags works with the C backend only" in err, err


def test_a_build_past_the_prepare_budget_says_what_the_limit_was(tmp_path, monkeypatch):
    """Probe 121: 'the compiler ran past 268.122 s' read oddly beside the documented 300 s: the
    compiler gets what the code generation left of it, and the error now says so."""
    import looptx.runtime.evaluators as E
    from looptx.runtime.cpu import BuildResult
    src, rec = case_files(tmp_path, "void f(int n, double *a)\n{\n#pragma scop\n  for (int i = 0; i < n; i++)\n"
                          "    a[i] = a[i] + 1.0;\n#pragma endscop\n}\n", "steps: []\n")
    monkeypatch.setattr(E, "build_shared", lambda *a, timeout, **k: BuildResult(
        "compile_error", None, f"the compiler ran past {timeout:g} s", compile_time=timeout))
    ev = E.CEvaluator(str(src), sizes={"n": 8}, recipe_path=str(rec), function="f",
                      cache_dir=str(tmp_path / "cache"))
    m = ev.measure(ev.prepare({}))
    assert m.status == "compile_error" and "the rest of the 300 s a point may take to generate and build" \
        in m.error, m.error
