"""Gaps found by probes 121 (real Orio files) and 123 (C as HPC kernels write it), end to end."""
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
    assert "scale_host(" not in err, err


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
        "compile_error", None, f"the compiler ran past {timeout:g} s", compile_time=timeout, timed_out=True))
    ev = E.CEvaluator(str(src), sizes={"n": 8}, recipe_path=str(rec), function="f",
                      cache_dir=str(tmp_path / "cache"))
    m = ev.measure(ev.prepare({}))
    assert m.status == "compile_error" and "the rest of the 300 s a point may take to generate and build" \
        in m.error, m.error


RED_BLACK = """void f(double (*phi)[40][40], int ghosts, int I, int J, int K, int color)
{
  int i, j, k, s;
#pragma scop
  for (s = 0; s < ghosts; s++)
    for (k = s - ghosts + 1; k < K + ghosts - s - 1; k++)
      for (j = s - ghosts + 1; j < J + ghosts - s - 1; j++)
        for (i = s - ghosts + 1; i < I + ghosts - s - 1; i++)
          if ((i + j + k + (color + s)) % 2 == 0)
            phi[k+4][j+4][i+4] = 0.5 * (phi[k+4][j+4][i+5] + phi[k+4][j+4][i+3]) + 0.25 * phi[k+4][j+3][i+4];
#pragma endscop
}
"""


def test_red_black_parity_of_a_parameter_neither_crashes_nor_is_refused(tmp_path):
    """Probe 122 G1/G5 (CHiLL's GSRB smoother): the parity test `(i + j + k + color + s) % 2`
    made isl's check of rows left run 78 s and crash the process (SIGSEGV); the rows are now
    checked under a budget, on the domains without their divisions where it runs out.  A `%`
    compared with 0 was refused as possibly negative, which C and isl agree on for any sign."""
    import time
    src, rec = case_files(tmp_path, RED_BLACK,
                          "steps:\n  - tile: {stmt: 0, loop: j, size: 8}\n  - unroll: {stmt: 0, loop: i, factor: 2}\n")
    t = time.perf_counter()
    rc, out, err = run_cli("deps", src)
    assert rc == 0 and "s        [S0] sequential" in out, err
    assert time.perf_counter() - t < 30
    for ghosts, color in ((1, 1), (4, 0)):
        rc, out, err = run_cli("run", src, "--recipe", rec, "-D", f"ghosts={ghosts}", "-D", "I=20", "-D", "J=21",
                               "-D", "K=9", "-D", f"color={color}")
        assert rc == 0 and ": ok" in out, (ghosts, out + err)


def test_pointer_from_an_element_of_a_struct_pointer_member(tmp_path):
    """Probe 122 G2: `double *phi = box->grids[0];` before the region was an internal error
    (KeyError: 'box->grids')."""
    src, rec = case_files(tmp_path, """typedef struct { double **grids; } box_t;
void f(box_t *box)
{
  double *phi = box->grids[0];
  int i;
#pragma scop
  for (i = 0; i < 10; i++)
    phi[i] = 2.0 * phi[i];
#pragma endscop
}
""", "steps:\n  - unroll: {stmt: 0, loop: i, factor: 4}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 0 and "phi[i + 3] = 2.0 * phi[i + 3];" in out, out + err


TWO_FUNCTIONS = """void a(int n, double *x)
{
  int i;
  for (i = 0; i < n; i++)
    x[i] = 2.0 * x[i];
}

void b(int m, double *y)
{
  int j;
  for (j = 0; j < m; j++)
    y[j] = y[j] + 1.0;
}
"""


def test_a_script_naming_two_procedures_is_refused_at_the_second(tmp_path):
    """Probe 122 G3: CHiLL allows one procedure() per script; the second one silently moved the
    whole script (commands written for 'a') onto 'b'."""
    src, rec = case_files(tmp_path, TWO_FUNCTIONS, "from chill import *\nsource('k.c')\nprocedure('a')\nloop(0)\n"
                          "tile(0, 1, 4)\nprocedure('b')\nloop(0)\n", "r.py")
    rc, _, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 2 and "r.py:6:1:" in err and "procedure('b') after procedure 'a' (line 3)" in err, err


def test_import_chill_scripts_and_a_source_of_another_file(tmp_path):
    """Probe 122 G4/G6: E4S's `import chill` / `chill.tile(...)` scripts were refused ('is not a
    command'); a `source('X.c')` naming another file than the one given was passed over silently."""
    src, rec = case_files(tmp_path, TWO_FUNCTIONS, "import chill\nchill.source('other.c')\nchill.procedure('a')\n"
                          "chill.loop(0)\nchill.known('n >= 0')\nchill.tile(0, 1, 4)\nchill.print_code()\n", "r.py")
    rc, out, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 0 and "for (int ii = 0; ii <= lx_floord(n - 1, 4); ii++)" in out, out + err
    assert "r.py:2: note: the script names 'other.c' (no such file); looptx transforms k.c" in err, err
    runs_ok(src, rec, (9, 16), "--function", "a")


def test_pointer_views_set_before_the_first_loop_stay_outside_the_region(tmp_path):
    """Probe 122 G7 (HPGMG's smoother under CHiLL): `_phi = (double (*)[8][8]) phi;` and the sizes
    set before the first loop belong to no loop nest (CHiLL's loop(0) starts after them); they
    made the whole body a region that re-points an array, and it was refused."""
    src, rec = case_files(tmp_path, """void smooth(double *phi, int n, int sweep)
{
  int i, j, k, N;
  double (*_phi)[8][8];
  _phi = (double (*)[8][8])(phi);
  N = n;
  int color = sweep;
  for (k = 1; k < N - 1; k++)
    for (j = 1; j < 7; j++)
      for (i = 1; i < 7; i++)
        if ((i + j + k + color) % 2 == 0)
          _phi[k][j][i] = 0.5 * (_phi[k][j][i - 1] + _phi[k][j][i + 1]);
}
""", "from chill import *\nprocedure('smooth')\nloop(0)\nknown('N > 4')\ntile(0, 2, 4)\n", "r.py")
    rc, out, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 0, err
    assert "the pointer assignment to '_phi' stays outside the region of 'smooth'" in err, err
    assert "N, color" in err, err
    for n, sweep in ((8, 1), (7, 0)):
        rc, out, err = run_cli("run", src, "--recipe", rec, "-D", f"n={n}", "-D", f"sweep={sweep}")
        assert rc == 0 and ": ok" in out, out + err


def test_define_of_one_regions_size_leaves_another_regions_variable_alone(tmp_path):
    """Probe 124 G1 (TSVC: s281's `real_t x`, s2710's `int x` size): `run -D x=1` made x a fixed
    size of f1 too, whose harness then #defined its float variable away and did not compile."""
    src, _ = case_files(tmp_path, """void f1(int n, float *a, float *b)
{
    float x;
#pragma scop
    for (int i = 0; i < n; i++) {
        x = a[i] * 2;
        b[i] = x;
    }
#pragma endscop
}

void f2(int n, int x, float *a, float *c)
{
#pragma scop
    for (int i = 0; i < n; i++) {
        if (x > 0)
            c[i] = a[i];
    }
#pragma endscop
}
""", "steps: []\n")
    rc, out, err = run_cli("run", src, "-D", "n=37", "-D", "x=1")
    assert rc == 0 and "region 0: ok" in out and "region 1: ok" in out, out + err


def test_reduction_message_numbers_statements_over_the_file(tmp_path):
    """Probe 124 G2: the omp_for reduction's refusal named S1 (the region's count) for the file's S2."""
    src, rec = case_files(tmp_path, """void f1(int n, float *a, float *b)
{
#pragma scop
    for (int i = 0; i < n; i++)
        b[i] = a[i] * 2;
#pragma endscop
}

float f2(int n, float *a)
{
    float m = a[0];
#pragma scop
    for (int i = 0; i < n; i++) {
        if (a[i] > m)
            m = a[i];
        a[i] = m;
    }
#pragma endscop
    return m;
}
""", "steps:\n  - omp_for: {stmt: 1, loop: i, reduction: {max: [m]}}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 2 and "S2 (line 16: `a[i] = m`)" in err, err


SIZE_PARAM_SEARCH = """#define NMAX 32
double A[NMAX][NMAX], B[NMAX][NMAX], C[NMAX][NMAX];

void mm(int N)
{
  int i, j, k;
/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O1'; }
  def performance_counter { arg repetitions = 1; }
  def performance_params { param TI[] = [1, 4]; }
  def input_params { param N[] = [8, 11]; }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
/*@ begin CHiLL (
  tile(0,"i",TI,"ii")
) @*/
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        C[i][j] = C[i][j] + A[i][k] * B[k][j];
/*@ end @*/
/*@ end @*/
}
"""


def test_best_file_of_a_search_at_one_size_keeps_the_others_as_written(tmp_path):
    """Probe 126 G1 (critical): after `search -D N=11`, the best file's fallback for the other
    sizes was the region regenerated at N = 11 (`for (i = 0; i < 11; i++)`): every other size
    computed something else, or wrote past its arrays."""
    src, _ = case_files(tmp_path, SIZE_PARAM_SEARCH, "")
    rc, out, err = run_cli("search", src, "-D", "N=11", "--budget", "2", "--no-progress", "--db", tmp_path / "s.db")
    assert rc == 0, out + err
    best = (tmp_path / "k.best.c").read_text()
    fallback = best[best.index("else {"):]
    assert "for (i = 0; i < N; i++)" in fallback and "11" not in fallback, best
    assert "if (N == 11)" in best, best


def test_a_signal_while_signals_are_deferred_is_raised_after(tmp_path):
    """Probe 126 G2: a Ctrl-C inside isl's code generation callbacks (the best file being
    written) was raised there, swallowed by islpy and followed by a segfault or a double free;
    after the last size was measured it left no best file.  Handlers now only note a signal
    while isl calls back and while a finished search reports, and it is raised at the next round."""
    import os
    import signal
    import time
    from looptx.errors import signals_deferred
    from looptx.search.command import Terminated
    from looptx.search.interrupt import raise_pending
    from looptx.search.lifecycle import guarded
    seen = []

    def run(_):
        with signals_deferred():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
            seen.append("finished")
        try:
            raise_pending()
        except KeyboardInterrupt:
            seen.append("raised after")
            return 130
        return 0
    assert guarded(run, None, Terminated) == 130 and seen == ["finished", "raised after"]


def _unfinished_cache(path):
    """A Kernel Tuner cache as a run left it: the header lists every value, two are recorded."""
    import json
    record = {"compile_time": 400.0, "verification_time": 0, "benchmark_time": 1.0, "strategy_time": 0,
              "framework_time": 0.8}
    cache = {str(b): {"block_size_x": b, "time": t, "times": [t] * 3, **record}
             for b, t in ((128, 0.0407), (192, 0.0391))}
    path.write_text(json.dumps({"device_name": "A4000", "kernel_name": "vector_add",
                                "tune_params_keys": ["block_size_x"],
                                "tune_params": {"block_size_x": [128, 192, 256, 320, 384]},
                                "objective": "time", "cache": cache}))
    return path


def test_replay_says_which_points_an_unfinished_cache_never_measured(tmp_path):
    """Probe 125 G1: points no record holds (a tuning run stopped early) counted as failed with
    nothing saying they were never measured."""
    import json
    cache = _unfinished_cache(tmp_path / "c.json")
    t1 = tmp_path / "t1.json"
    t1.write_text(json.dumps({"ConfigurationSpace": {"TuningParameters": [
        {"Name": "block_size_x", "Type": "int", "Values": "[128, 192, 256, 320, 384]"}], "Conditions": []}}))
    rc, out, err = run_cli("search", "--replay", cache, "--t1", t1, "-a", "exhaustive", "--budget", "5",
                           "--no-progress")
    assert rc == 0 and "5 points, 3 of them failed (3 never measured" in out, out + err


def test_replay_objective_may_not_be_a_tuning_parameter(tmp_path):
    """Probe 125 G3: --objective block_size_x optimised an input of the kernel."""
    cache = _unfinished_cache(tmp_path / "c.json")
    rc, _, err = run_cli("search", "--replay", cache, "--objective", "block_size_x", "--no-progress")
    assert rc == 2 and "is a tuning parameter of the cache, not a measured value" in err, err


def test_a_search_warning_is_printed_once_for_all_sizes(capsys):
    """Probe 126 G3: a resumed search of two problem sizes printed its budget warning twice."""
    from looptx.search.options import flush_warnings, queue_warning, reset_warnings
    reset_warnings()
    for _ in range(2):          # one size, then the next
        queue_warning("looptx: warning: the search was recorded with budget 8")
        flush_warnings()
    assert capsys.readouterr().err.count("recorded with budget 8") == 1
    reset_warnings()


MM_INIT = """void mm(int n, double a[n][n], double b[n][n], double c[n][n])
{
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      c[i][j] = 0;
      for (k = 0; k < n; k++)
        c[i][j] += a[i][k] * b[k][j];
    }
#pragma endscop
}
"""


@pytest.mark.parametrize("name, recipe, said", [
    ("r.script", "distribute([1,0], 2)\n", None),
    ("r.yaml", "[]:\n  - tile: {stmt: 0, loop: i, size: 4}\n", "r.yaml:1:1: error: a recipe section's name is a list"),
    ("r.script", "skew([[0]],1,[1])\n", "skew: the statement list holds [0], not a statement number"),
    ("r.script", "permute([2,1],0)\n", "argument 'order' must be a list of loop names, got 0"),
    ("r.py", 'tile_by_index(["i"],[4],{"l1_control":"ii"},["ii",[],"j","k"])\n',
     "argument 'order' must be a list of loop names"),
])
def test_fuzzed_recipes_get_one_line_not_an_internal_error(tmp_path, name, recipe, said):
    """Probe 128 G1-G5 (a mutation fuzzer): each of these was an internal error (TypeError)."""
    src, rec = case_files(tmp_path, MM_INIT, recipe, name)
    rc, _, err = run_cli("transform", src, "--recipe", rec)
    assert "internal error" not in err, err
    if said is None:
        assert rc == 0, err
    else:
        assert rc == 2 and said in err and err.count("\n") == 1, err


def test_a_comma_expression_extent_is_no_internal_error(tmp_path):
    """Probe 128 G6: `double a[n][(0, n)]` (valid C) went into an isl string unread."""
    src, _ = case_files(tmp_path, """void f(int n, double a[n][(0, n)])
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n - 1; j++)
      a[i][j + 1] = a[i][j];
#pragma endscop
}
""", "")
    rc, _, err = run_cli("transform", src)
    assert rc == 0, err


def test_a_copy_around_a_loop_names_that_loop_when_refused(tmp_path):
    """Probe 127 G2: `datacopy {at: j, around: true}` (CHiLL's datacopy(0,"j","A")) was refused
    naming loop 'i' only, as if the user had written at: i."""
    src, rec = case_files(tmp_path, """void f(int n, int m, double C[n][m], double A[m])
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      C[i][j] += A[j];
#pragma endscop
}
""", "steps:\n  - datacopy: {stmt: 0, array: A, at: j, around: true}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 2 and "the copy around loop 'j' is made once per iteration of 'i'" in err, err


SHARED_ONE_WIDE = """void g(int nb, int n, int K, double C[nb][n], double A[K][n][nb], double B[K])
{
  int b, i, k;
#pragma scop
  for (b = 0; b < nb; b++)
    for (i = 0; i < n; i++)
      for (k = 0; k < K; k++)
        C[b][i] += A[k][i][b] * B[k];
#pragma endscop
}
"""


def test_a_shared_copy_whose_innermost_dimension_is_one_element_is_spread_over_the_threads(tmp_path):
    """Probe 127 G1: `A_sh[8][16][1]` (A[k][i][b], b a block loop) was filled by thread 0 alone
    while 15 threads waited at the barrier: the threads went to the innermost buffer dimension,
    which has one element.  Dimensions of one element now take no threads."""
    src, rec = case_files(tmp_path, SHARED_ONE_WIDE, "steps:\n  - tile: {stmt: 0, loop: i, size: 16}\n"
                          "  - tile: {stmt: 0, loop: k, size: 8}\n  - permute: {stmt: 0, order: [b, ii, kk, i, k]}\n"
                          "  - cuda: {stmt: 0, block: [ii, b], thread: [i]}\n  - shared: {stmt: 0, array: A, at: kk}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda")
    assert rc == 0, err
    assert "if (tx == 0)" not in out and "A_sh[c7 - 8 * kk][tx][0] = " in out, out
    for sizes in (("nb=3", "n=37", "K=13"), ("nb=2", "n=16", "K=8")):
        rc, out, err = run_cli("run", src, "--recipe", rec, *[x for s in sizes for x in ("-D", s)])
        assert rc == 0 and ": ok" in out, out + err
