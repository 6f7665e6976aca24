"""Session 51's fixes: what probes 76-82 found (bad input, Orio's files, CHiLL scripts, the
search lifecycle, PolyBench's CUDA, SPAPT, other tools' output and modern OpenMP), and the rest
of probe 74 (firstprivate/lastprivate, array-section reductions, safelen, Pluto's output)."""
import shutil

import pytest

from conftest import cli_process, run_cli

SCRATCH = """void k(int N, int M, double A[N][M], double B[N][M]) {
  double t;
#pragma scop
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      t = 2.0 * A[i][j];
      B[i][j] = t * t + 1.0;
    }
#pragma endscop
}
"""
CARRIED = SCRATCH.replace("      t = 2.0 * A[i][j];\n      B[i][j] = t * t + 1.0;\n",
                          "      B[i][j] = t * A[i][j];\n      t = 2.0 * A[i][j];\n").replace("double t;",
                                                                                            "double t = 1.0;")


@pytest.mark.parametrize("text", ["omp parallel for firstprivate(t)", "omp parallel for lastprivate(t)",
                                  "omp parallel for shared(A, B) firstprivate(t) schedule(static)",
                                  "omp simd lastprivate(t)"])
def test_a_pragmas_firstprivate_and_lastprivate_names_are_checked_as_private(tmp_path, text):
    """Probe 74 G7: the names of these clauses went unread, so the pragma was refused for the
    dependence they remove; they are checked as a private clause's names are, and kept as written."""
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(SCRATCH)
    loop = "j" if "simd" in text else "i"
    recipe.write_text(f'steps:\n  - pragma: {{stmt: 0, loop: {loop}, text: "{text}"}}\n')
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 0, err
    line = next(x.strip() for x in out.splitlines() if x.strip().startswith("#pragma omp"))
    assert line.startswith(f"#pragma {text}") and line.count("(t)") == 1, line
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", "N=9", "-D", "M=13", "--cflags", "-O2 -fopenmp")
    assert rc == 0 and " ok " in out, out + err
    # each iteration reads the value the one before left: no copy per thread keeps that
    src.write_text(CARRIED)
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 2 and "reads 't' before any write of it in the same iteration" in err, err


COLSUM = """void colsum(int N, int M, double *data, double *mean, double hist[8][M]) {
#pragma scop
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      mean[j] += data[i * M + j];
      hist[i % 8][j] = hist[i % 8][j] + 1.0;
    }
#pragma endscop
}
"""


def test_an_array_reduction_lets_a_loop_update_the_arrays_elements_in_any_order(tmp_path):
    """Probe 74 G8: OpenMP 4.5 reduces an array through its section (`reduction(+:mean[0:M])`);
    the clause was not understood, so the column sum was refused for the dependence it allows."""
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(COLSUM)
    recipe.write_text('steps:\n  - pragma: {stmt: 0, loop: i, text: "omp parallel for '
                      'reduction(+:mean[0:M], hist[0:8][0:M])"}\n')
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", "N=37", "-D", "M=11", "--cflags", "-O2 -fopenmp")
    assert rc == 0 and " ok " in out, out + err
    # every array the loop updates across its iterations must be in the clause
    recipe.write_text('steps:\n  - pragma: {stmt: 0, loop: i, text: "omp parallel for reduction(+:mean[0:M])"}\n')
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 2 and "(RAW on hist)" in err, err
    # omp_for writes the section from the declaration, and cannot for a pointer
    recipe.write_text('steps:\n  - omp_for: {stmt: 0, loop: i, reduction: {"+": [hist]}}\n')
    src.write_text(COLSUM.replace("mean[j] += data[i * M + j];", ""))
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", "N=37", "-D", "M=11", "--cflags", "-O2 -fopenmp")
    assert rc == 0 and " ok " in out, out + err
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert "#pragma omp parallel for reduction(+:hist[0:8][0:M])" in out, out
    src.write_text(COLSUM)
    recipe.write_text('steps:\n  - omp_for: {stmt: 0, loop: i, reduction: {"+": [mean, hist]}}\n')
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 2 and "array 'mean' has no declared extent here" in err and "mean[0:LENGTH]" in err, err
    # an element read otherwise in the loop is no reduction
    src.write_text(COLSUM.replace("hist[i % 8][j] + 1.0", "hist[i % 8][j] + hist[0][j]"))
    recipe.write_text('steps:\n  - omp_for: {stmt: 0, loop: i, reduction: {"+": [hist]}}\n')
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 2 and "hist[f] = hist[f] + e" in err, err


PLUTO_INT = """#define floord(n,d) (((n)<0) ? -((-(n)+(d)-1)/(d)) : (n)/(d))
#define ceild(n,d)  (((n)<0) ? -((-(n))/(d)) : ((n)+(d)-1)/(d))
#define max(x,y)    ((x) > (y)? (x) : (y))
#define min(x,y)    ((x) < (y)? (x) : (y))
void k(int N, double a[N], double b[N])
{
  int t1, t2, lbp, ubp;
#pragma scop
  lbp = ceild(-N - 5, 4);
  ubp = floord(N - 1, 4);
  for (t1 = lbp; t1 <= ubp; t1++)
    for (t2 = max(4 * t1, 0); t2 <= min(4 * t1 + 3, N - 1); t2++)
      b[t2] = 2.0 * a[t2] + (double)t1;
#pragma endscop
}
"""
PLUTO_DOUBLE = """#include <math.h>
#define N 70
#define ceild(n,d)  ceil(((double)(n))/((double)(d)))
#define floord(n,d) floor(((double)(n))/((double)(d)))
#define min(x,y)    ((x) < (y)? (x) : (y))
void kernel(double beta, double C[N][N])
{
  int t2, t3, t4, t5;
  int lbp, ubp;
  register int lbv, ubv;
#pragma scop
  lbp=0;
  ubp=floord(N-1,32);
  for (t2=lbp;t2<=ubp;t2++) {
    for (t3=0;t3<=floord(N-1,32);t3++) {
      for (t4=32*t2;t4<=min(N-1,32*t2+31);t4++) {
        lbv=32*t3;
        ubv=min(N-1,32*t3+31);
        for (t5=lbv;t5<=ubv;t5++) {
          C[t4][t5] = beta*C[t4][t5];;
        }
      }
    }
  }
#pragma endscop
}
"""


@pytest.mark.parametrize("n", [1, 7, 16])
def test_plutos_output_is_a_region(tmp_path, n):
    """Probe 74 G11: Pluto's floord and ceild (a ternary of C divisions, or floor of a double
    quotient) and its lbp/ubp/lbv/ubv bound temporaries were refused."""
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(PLUTO_INT)
    recipe.write_text("steps:\n  - unroll: {stmt: 0, loop: t2, factor: 2}\n")
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", f"N={n}")
    assert rc == 0 and " ok " in out, out + err
    src.write_text(PLUTO_DOUBLE)
    recipe.write_text("steps:\n  - permute: {stmt: 0, order: [t3, t2, t5, t4]}\n")
    rc, out, err = run_cli("run", src, "--recipe", recipe)
    assert rc == 0 and " ok " in out, out + err


def test_a_ternary_that_is_no_rounded_division_stays_refused(tmp_path):
    src = tmp_path / "k.c"
    src.write_text(PLUTO_INT.replace("-((-(n)+(d)-1)/(d))", "-((-(n)+(d))/(d))"))
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and "conditional expression in an index or bound" in err, err


S1221 = """void s1221(int N, double a[N], double b[N]) {
#pragma scop
  for (int i = 4; i < N; i += STEP)
    b[i] = b[i - 4] + a[i];
#pragma endscop
}
"""


@pytest.mark.parametrize("step,text,unroll,ok", [
    (1, "omp simd safelen(4)", 0, True), (1, "omp simd safelen(5)", 0, False),
    (1, "omp simd safelen(4)", 4, False), (1, "omp parallel for simd safelen(4)", 0, False),
    (2, "omp simd safelen(2)", 0, True), (2, "omp simd safelen(4)", 0, False)])
def test_safelen_allows_dependences_that_many_iterations_apart(tmp_path, step, text, unroll, ok):
    """Probe 74 G8: TSVC's s1221 with `omp simd safelen(4)` carries a dependence of distance 4,
    which no two iterations that run at once share; distances count iterations, not values."""
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(S1221.replace("STEP", str(step)))
    recipe.write_text("steps:\n" + (f"  - unroll: {{stmt: 0, loop: i, factor: {unroll}}}\n" if unroll else "")
                      + f'  - pragma: {{stmt: 0, loop: i, text: "{text}"}}\n')
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", "N=203", "--cflags", "-O2 -fopenmp")
    if ok:
        assert rc == 0 and " ok " in out, out + err
    else:
        assert rc == 2 and "(RAW on b)" in err, err


ORIO_NX = """/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2 -fopenmp'; }
  def performance_counter { arg repetitions = 1; }
  def performance_params { param T[] = [64]; param OMP[] = [True]; }
  def search { arg algorithm = 'Exhaustive'; }
  def input_params { param N[] = [SIZE]; }
  def input_vars { decl static double A[N*N] = random; decl static double r[N] = random;
                   decl static double s[N] = 0; }
  def performance_test_code { arg skeleton_code_file = 'skeleton_code.c'; }
) @*/
int i, j, ii;
int nx = N;
/*@ begin Loop(
  transform Composite(
    tile = [('i',T,'ii')],
    openmp = (OMP, 'omp parallel for private(ii,i,j)')
  )
  for (i = 0; i <= nx-1; i++)
    for (j = 0; j <= nx-1; j++)
      s[j] = s[j] + r[i]*A[i*nx+j];
) @*/
/*@ end @*/
/*@ end @*/
"""


def test_a_step_legal_at_the_tuned_sizes_of_a_local_set_from_them(tmp_path):
    """Probe 77 G2: SPAPT's `int nx = N;` was symbolic in the legality check, so an omp_for on a
    tile loop that runs once at N = 53 was refused with a witness at nx = 65.  The step takes the
    value nx has at the problem size, checked as the code runs; at N = 1000 the refusal's witness
    is at that size."""
    src = tmp_path / "k.c"
    src.write_text(ORIO_NX.replace("SIZE", "53"))
    rc, out, err = run_cli("run", src)
    assert rc == 0 and " ok " in out and "legal at nx = 53, the value set from the problem size" in err, out + err
    rc, out, err = run_cli("transform", src)
    assert rc == 0 and "if (nx == 53)" in out, out + err
    rc, out, err = run_cli("search", src, "--searcher", "exhaustive", "--db", tmp_path / "k.db", "--no-progress")
    assert rc == 0 and "status: ok 1" in out, out + err
    assert "skeleton_code_file 'skeleton_code.c' is not used" in err, err
    src.write_text(ORIO_NX.replace("SIZE", "1000"))
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and "(with nx=1000)" in err and "RAW on s" in err, err


def test_a_define_of_a_let_is_refused_with_the_params_it_sets(tmp_path):
    """Probe 77 G1: `-D SIZE=50` of `let SIZE = 2000; ... param N = SIZE;` ran at 2000 and
    recorded SIZE = 50 in the results."""
    src = tmp_path / "k.c"
    src.write_text(ORIO_NX.replace("def input_params { param N[] = [SIZE]; }",
                                   "let SIZE = 2000;\n  def input_params { param N = SIZE; }"))
    rc, out, err = run_cli("search", src, "-D", "SIZE=50", "--db", tmp_path / "k.db", "--no-progress")
    assert rc == 2 and "'SIZE' is a `let` of the annotation" in err and "--define N=50" in err, err
    assert len(err.strip().splitlines()) == 1 and ":6:3: error:" in err, err


TRMM = """/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2'; }
  def performance_counter { arg repetitions = 1; }
  def performance_params { param U1_I[] = [2, 3]; }
  def search { arg algorithm = 'Exhaustive'; }
  def input_params { param N[] = [37]; param alpha = 1; }
  def input_vars { decl static double A[N][N+20] = random; decl static double B[N][N+20] = random; }
) @*/
int i, j, k;
/*@ begin Loop(
transform Composite(
    unrolljam = (['i'],[U1_I])
)
for (i=0; i<=N-1; i++)
  for (j=0; j<=N-1; j++)
    {
      B[i][j] = alpha*A[i][i]*B[i][j];
      for (k=i+1; k<=N-1; k++)
        B[i][j] = B[i][j] + alpha*A[i][k]*B[k][j];
    }
) @*/
/*@ end @*/
/*@ end @*/
"""


def test_orios_unrolljam_does_not_jam_a_loop_whose_bounds_read_the_unrolled_counter(tmp_path):
    """Probe 77 G3: SPAPT trmm's k loop starts at i+1; Orio jams only loops whose headers are the
    same in every copy, so the copies of the k loop run one after another, which is legal; looptx
    jammed them and refused every point."""
    src = tmp_path / "trmm.c"
    src.write_text(TRMM)
    rc, out, err = run_cli("transform", src, "-D", "U1_I=2")
    assert rc == 0, err
    body = out[out.index("if (N == 37"):]
    assert body.count("for (int k = i + 1;") == 1 and body.count("for (int k = i + 2;") == 1, body
    rc, out, err = run_cli("search", src, "--db", tmp_path / "t.db", "--no-progress")
    assert rc == 0 and "status: ok 2" in out, out + err


MM = """void mm(int N, double A[N][N], double B[N][N], double C[N][N]) {
#pragma scop
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        C[i][j] += A[i][k] * B[k][j];
#pragma endscop
}
"""


@pytest.mark.parametrize("name,text", [
    ("r.yaml", "params: {TJ: 256}\nsteps:\n  - tile: {stmt: 0, loop: j, size: $TJ, control: jj}\n"),
    ("r2.yaml", "steps:\n  - tile: {stmt: 0, loop: j, size: $TJ, control: jj}\n"),
    ("r.script", 'TJ = 256\ntile(0, "j", TJ, "jj")\n')])
def test_a_define_sets_the_recipes_own_param(tmp_path, name, text):
    """Probe 76 G4: `-D TJ=64` for a recipe's `params: {TJ: 256}` passed the check of -D names
    (the recipe uses the word) and then did nothing; `-D TJ=0` went unseen."""
    src, recipe = tmp_path / "mm.c", tmp_path / name
    src.write_text(MM)
    recipe.write_text(text)
    rc, out, err = run_cli("transform", src, "--recipe", recipe, "-D", "TJ=16")
    assert rc == 0 and "size: 16" in out and "jj <= (N - 1) / 16" in out, out + err
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", "TJ=0", "-D", "N=40")
    assert rc == 2 and "argument 'size' must be an integer >= 1, got 0" in err, out + err
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", "TJ=16", "-D", "N=40")
    assert rc == 0 and " ok " in out, out + err


ORIO_FLOORDIV = """/*@ begin PerfTuning (
  def performance_params { param T[] = [8, 16]; }
  def input_params { param N[] = [64]; }
  def input_vars { decl static double A[N] = random; decl static double B[N] = random; }
) @*/
int i, ii;
/*@ begin Loop(
  transform Composite(tile = [('i', T // 2, 'ii')])  // a comment after it stays one
  transform Unroll(ufactor=T // 4)
  for (i = 0; i <= N-1; i++)
    A[i] = A[i] + B[i];  // so does this one
) @*/
for (i = 0; i <= N-1; i++)
  A[i] = A[i] + B[i];
/*@ end @*/
/*@ end @*/
"""


def test_floor_division_in_an_orio_directive_is_no_comment(tmp_path):
    """Probe 76 G5: `T // 2` in `transform Composite(...)` was read as a C++ comment, so the
    directive had "no closing parenthesis", while the hint for `/` asks for `//`."""
    src = tmp_path / "k.c"
    src.write_text(ORIO_FLOORDIV)
    rc, out, err = run_cli("transform", src, "-D", "T=16")
    assert rc == 0 and "size: 8, control: ii" in out and "factor: 4" in out, out + err
    rc, out, err = run_cli("run", src, "-D", "T=8")
    assert rc == 0 and " ok " in out, out + err


@pytest.mark.parametrize("script,message", [
    ('tile_by_index(0,{"i","j"},{16,16},{l1_control="ii",l2_control="jj"},{"ii","jj","i","j"},None,"junk")\n',
     "tile_by_index takes at most 6 arguments"),
    ('cudaize(0,"mm_GPU",{},["i"],["j"],[],5)\n', "cudaize takes at most 6 arguments"),
    ('source("mm.c","other.c")\ntile(0,"i",16)\n', "source takes at most 1 argument (file)"),
    ('pragma(0,"j","GCC ivdep\\n#error injected")\n', "the pragma's text spans lines"),
    ('pragma(0,"j","")\n', "the pragma's text is empty")])
def test_chill_commands_with_arguments_they_do_not_take_are_refused(tmp_path, script, message):
    """Probe 76 G8/G10: extra arguments of tile_by_index, cudaize and source were dropped, and a
    pragma text with a newline gave C that does not compile."""
    src, recipe = tmp_path / "mm.c", tmp_path / "r.script"
    src.write_text(MM)
    recipe.write_text(script)
    rc, out, err = run_cli("transform", src, "--recipe", recipe, "-D", "N=64")
    assert rc == 2 and message in err and len(err.strip().splitlines()) == 1, err


def test_run_blames_flags_that_do_not_build_the_region_as_written(tmp_path):
    """Probe 76 G9/G11: --repetitions 0 ran once; a bad --cflags exited 1 with the compiler's
    message on stdout and nothing on stderr."""
    src, recipe = tmp_path / "mm.c", tmp_path / "r.yaml"
    src.write_text(MM)
    recipe.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 16}\n")
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", "N=16", "--cflags", "-fnosuchflag")
    # (checked before the build, as search checks them: session 74)
    assert rc == 2 and "--cflags: the compiler rejects these flags" in err and "-fnosuchflag" in err, out + err
    r = cli_process("run", src, "--recipe", recipe, "-D", "N=16", "--repetitions", "0")
    assert r.returncode == 2 and "give 1 or more" in r.stderr, r.stdout + r.stderr


HALF_TILE = """/*@ begin PerfTuning (
  def performance_params { param TI[] = [1, 8, 16]; param UF[] = [1, 2]; }
  def input_params { param N[] = [40]; }
  def input_vars { decl static double A[N] = random; decl static double B[N] = random; }
) @*/
int i;
/*@ begin CHiLL (
  tile(0,"i",TI // 2,"ii")
  unroll(0,"i",UF)
) @*/
for (i = 0; i < N; i++)
  A[i] = A[i] + 2.0 * B[i];
/*@ end @*/
/*@ end @*/
"""


def test_transform_takes_the_first_point_whose_steps_accept_it(tmp_path):
    """Probe 76 G7: `tile(0,"i",TI // 2,"ii")` at TI = 1 asks for a tile of 0; search leaves that
    value out, but transform and run took it as the first point and failed."""
    src = tmp_path / "k.c"
    src.write_text(HALF_TILE)
    rc, out, err = run_cli("transform", src)
    assert rc == 0 and "params: {TI: 8, UF: 1}" in out and "size: 4" in out, out + err
    rc, out, err = run_cli("run", src)
    assert rc == 0 and " ok " in out, out + err
    rc, out, err = run_cli("transform", src, "-D", "TI=1")
    assert rc == 2 and "must be an integer >= 1, got 0" in err, err


def test_a_copy_buffer_past_the_stack_is_refused_at_its_step(tmp_path):
    """Probe 79 G8: a legal datacopy of a 2048 x 2048 tile made a 32 MiB local array, and the
    variant died of SIGSEGV as it started."""
    src, recipe = tmp_path / "mm.c", tmp_path / "r.yaml"
    src.write_text(MM)
    steps = ("steps:\n  - tile: {stmt: 0, loop: k, size: T, control: kk}\n"
             "  - tile: {stmt: 0, loop: j, size: T, control: jj}\n"
             "  - permute: {stmt: 0, order: [kk, jj, i, k, j]}\n  - datacopy: {stmt: 0, array: B, at: jj}\n")
    recipe.write_text(steps.replace("size: T", "size: 2048"))
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 2 and "is a local array of 32.0 MiB (2048 x 2048 elements)" in err and ":5: step 4" in err, err
    recipe.write_text(steps.replace("size: T", "size: 64"))
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", "N=100")
    assert rc == 0 and " ok " in out, out + err


def test_builds_failing_with_one_value_of_a_flag_param_do_not_stop_the_search():
    """Probe 79 G6: `gcc @CF@` with one CF value that gcc refuses stopped the search after 5
    points, blaming the build command, though every other value of CF builds."""
    from looptx.search.db import EvalRecord
    from looptx.search.same_failure import repeated_build_failure

    def failed(k, flags):
        return EvalRecord(k, {"CF": flags, "U": k}, str(k), "compile_error", flags=flags,
                          error="gcc: error: unrecognized command-line option '-fno-such-flag'")
    same = [failed(k, "-O3 -fno-such-flag") for k in range(5)]
    assert repeated_build_failure(same, 0, tuned_flags=True) is None
    assert repeated_build_failure(same, 0, tuned_flags=False) is not None
    varied = same[:3] + [failed(k, "-O2 -fno-such-flag") for k in range(3, 5)]
    assert repeated_build_failure(varied, 0, tuned_flags=True) is not None


@pytest.mark.parametrize("script,note", [
    ('tile(0,"k",16,1,strided)\n', "the tile method strided is read as counted"),
    ('tile_by_index(0,{"k"},{4},{l1_control="kk"},{"kk","i","j","k"},counted)\n', None),
    ('unroll(0,"k",4,2)\n', "unroll's cleanup level (2) is not used"),
    ("datacopy(0,3,'A',False,0,1,4,0)\n", "datacopy's arguments after the array (False, 0, 1, 4, 0")])
def test_chills_own_names_and_arguments(tmp_path, script, note):
    """Probe 78 G2-G4: CHiLL's `strided` and `counted` were unknown names, unroll's cleanup level
    was refused with a wrong signature, and datacopy's layout arguments went unmentioned."""
    src, recipe = tmp_path / "mm.c", tmp_path / "r.py"
    src.write_text(MM)
    recipe.write_text(script)
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", "N=37")
    assert rc == 0 and " ok " in out, out + err
    assert (note in err) if note else "note" not in err, err


def test_a_row_overrun_names_the_statement_that_makes_it(tmp_path):
    """Probe 78 G5: the error named the first statement using the array, not the overrunning one."""
    src = tmp_path / "k.c"
    src.write_text("#define N 8\nvoid foo(double C[N][N]) {\n  int i, j;\n#pragma scop\n"
                   "  for (i = 0; i < N; i++)\n    for (j = 0; j < N; j++)\n      C[j][i] = 1.0;\n"
                   "  for (i = 0; i < 3; i++)\n    for (j = 0; j < 3; j++)\n"
                   "      C[i + j][4 * j - 2 * i + 3] = 2.0;\n#pragma endscop\n}\n")
    rc, out, err = run_cli("run", src)
    assert rc == 2 and ":10:7: error: at these sizes the region indexes dimension 2 of array 'C' at -1" in err, err


def test_a_compile_that_runs_past_its_time_leaves_no_compiler_running(tmp_path):
    """Probe 78 G1 (side note): a timed-out build left gcc's cc1 compiling, orphaned."""
    import subprocess
    import time
    from looptx.runtime.cpu import _compile
    marker = tmp_path / "alive"
    with pytest.raises(subprocess.TimeoutExpired):
        _compile(["sh", "-c", f"(sleep 2; touch {marker}) & wait"], 0.5)
    time.sleep(2.5)
    assert not marker.exists()


CUDA_CHILL_MM = """void normalMM(int N, float c[N][N], float a[N][N], float b[N][N]) {
  int i, j, k;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        c[j][i] = c[j][i] + a[k][i] * b[j][k];
}
"""
MM_LUA = """init("mm.c", "normalMM", 0)
dofile("cudaize.lua")
tile_by_index(0,{"i","j"},{32,32},{l1_control="ii",l2_control="jj"},{"ii","jj","i","j","k"})
tile_by_index(0,{"k"},{16},{l1_control="kk"},{"ii","jj","kk","i","j","k"})
tile_by_index(0,{"i","j"},{16,16},{l1_control="iii",l2_control="jjj"},{"ii","jj","kk","i","iii","j","jjj","k"},1)
cudaize(0,"mm_GPU",{},{block={"ii","jj"}, thread={"i","j"}},{})
copy_to_shared(0,"tx","a",-16)
copy_to_shared(0,"tx","b",-16)
copy_to_registers(0,"kk","c")
"""


def test_register_copies_of_emulated_threads_stay_loops_at_fixed_sizes(tmp_path):
    """Probe 78 G1: CUDA-CHiLL's mm.lua at N = 256 wrote each thread's register copy out once
    per thread (256 copy nests of 16 x 16 threads), which gcc -O3 took minutes over."""
    src, recipe = tmp_path / "mm.c", tmp_path / "mm.lua"
    src.write_text(CUDA_CHILL_MM)
    recipe.write_text(MM_LUA)
    rc, out, err = run_cli("transform", src, "--recipe", recipe, "-D", "N=64")
    assert rc == 0 and out.count("for (") < 30, out + err
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", "N=64")
    assert rc == 0 and " ok " in out, out + err


ORIO_SCALARS = """/*@ begin PerfTuning (
  def performance_params { param U[] = [2]; }
  def input_params { param N[] = [20]; }
  def input_vars { decl static double A[N][N] = random; decl static double x[N] = random;
                   decl static double y[N] = 0; }
) @*/
int i, j;
double t;
/*@ begin Loop(
  transform Unroll(ufactor=U)
  for (i = 0; i <= N-1; i++)
    for (j = 0; j <= N-1; j++) {
      t = A[i][j] * x[j];
      y[i] = y[i] + t;
    }
) @*/
/*@ end @*/
/*@ end @*/
"""


def test_an_orio_refusal_hints_at_what_an_orio_annotation_can_say(tmp_path):
    """Probe 77 G6: the hint of a jam that a shared scalar forbids named a privatize step, which
    an Orio Loop annotation cannot write."""
    src = tmp_path / "k.c"
    src.write_text(ORIO_SCALARS)
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and "declaring 't' inside loop" in err and "privatize(" not in err, err
    src.write_text(ORIO_SCALARS.replace("double t;\n", "").replace("      t = A", "      double t = A"))
    rc, out, err = run_cli("run", src)
    assert rc == 0 and " ok " in out, out + err


INIT_VARS_DECL = """int n;
double x[N];
void init_input_vars() {
  int i;
  n = N;
  for (i=0; i<N; i++) x[i] = i;
}
"""
INIT_VARS = """/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O2'; }
  def performance_params { param U[] = [1,2,4]; param OMP[] = [True]; }
  def input_params { param N[] = [40, 61]; }
  def input_vars { arg decl_file = 'decl.h'; }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
int i;
/*@ begin Loop(
  transform Composite(unrolljam = (['i'],[U]), openmp = (OMP, 'omp parallel for'))
  for (i=0; i<=n-1; i++)
    x[i] = 2.0*x[i] + x[0];
) @*/
/*@ end @*/
/*@ end @*/
"""


def test_a_size_set_in_orios_init_input_vars_takes_its_value_there(tmp_path):
    """Probe 81 G1/G2: gemver's decl.h sets `n = N;` in init_input_vars(), which Orio's driver
    runs first; looptx asked for -D n, and with several sizes tuned each at that one value.  A
    refusal at the first point now names the point."""
    (tmp_path / "decl.h").write_text(INIT_VARS_DECL)
    src = tmp_path / "k.c"
    src.write_text(INIT_VARS.replace(", openmp = (OMP, 'omp parallel for')", ""))
    rc, out, err = run_cli("search", src, "--db", tmp_path / "k.db", "--no-progress")
    assert rc == 0 and out.count("status: ok 3") == 2, out + err
    src.write_text(INIT_VARS)
    rc, out, err = run_cli("run", src)
    assert rc == 2 and "RAW on x" in err and "this is the annotation's point U=1, OMP=True" in err, err


DATASET_H = """#ifndef _K_H
# define _K_H
# if !defined(MINI_DATASET) && !defined(LARGE_DATASET)
#  define LARGE_DATASET
# endif
# if !defined(N)
#  ifdef MINI_DATASET
#   define N 20
#  endif
#  ifdef LARGE_DATASET
#   define N 1000
#  endif
# endif
#endif
"""
DATASET_C = """#include "k.h"
void kernel(int n, double alpha, double A[N][N]) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      A[i][j] *= alpha;
#pragma endscop
}
"""


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="checks that nvcc stops the .cu: needs nvcc (CI has it)")
def test_a_cu_stops_a_build_whose_flags_choose_other_sizes(tmp_path):
    """Probe 80 G1: PolyBench's header picks NI by -DMINI_DATASET; the .cu, which does not
    include it, kept the value looptx saw and copied the caller's small arrays as large ones."""
    from test_cuda_codegen import nvcc_compile
    (tmp_path / "k.h").write_text(DATASET_H)
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(DATASET_C)
    recipe.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 32, control: ii}\n"
                      "  - cuda: {stmt: 0, block: [ii], thread: [i]}\n")
    rc, out, err = run_cli("transform", src, "--recipe", recipe, "--target", "cuda")
    assert rc == 0 and "#if defined(MINI_DATASET)\n#error" in out, out + err
    assert nvcc_compile(out) is None
    assert "a build flag chooses others" in (nvcc_compile("#define MINI_DATASET\n" + out) or "")
    rc, out, err = run_cli("transform", src, "--recipe", recipe, "--target", "cuda", "-D", "MINI_DATASET=1")
    assert rc == 0 and "#if defined(LARGE_DATASET)\n#error" in out and "#define N 20" in out, out + err


@pytest.mark.parametrize("section,message", [
    ("mean[0:4]", "updates mean[4], outside the section"), ("mean[1:M]", "updates mean[0], outside the section"),
    ("mean[:M-1]", "outside the section"), ("mean", "'mean' is an array, which OpenMP reduces through its section"),
    ("mean[0:M]", None), ("mean[:M]", None)])
def test_an_array_sections_reduction_must_hold_what_the_loop_updates(tmp_path, section, message):
    """Probe 82 G1/G2: a section that misses elements the loop updates was accepted (wrong sums,
    or a crash), and a bare pointer name gave C that gcc refuses."""
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(COLSUM.replace("hist[i % 8][j] = hist[i % 8][j] + 1.0;", ""))
    recipe.write_text(f'steps:\n  - pragma: {{stmt: 0, loop: i, text: "omp parallel for reduction(+:{section})"}}\n')
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", "N=37", "-D", "M=11", "--cflags", "-O2 -fopenmp")
    if message is None:
        assert rc == 0 and " ok " in out, out + err
    else:
        assert rc == 2 and message in err and "mean[0:LENGTH]" in err, err


ISL_JACOBI = """#define floord(n,d) (((n)<0) ? -((-(n)+(d)-1)/(d)) : (n)/(d))
#define min(x,y)    ((x) < (y) ? (x) : (y))
#define max(x,y)    ((x) > (y) ? (x) : (y))

void kernel_jacobi_1d(int T, int N, double A[N], double B[N])
{
#pragma scop
for (int c0 = -1; c0 <= (T - 1) / 4; c0 += 1)
  for (int c1 = (c0 + 1) / 2; c1 <= min((2 * T + N - 3) / 16, (N + 8 * c0 + 5) / 16); c1 += 1) {
    if (c0 == -1 && c1 == 0)
      B[1] = 0.33333 * (A[0] + A[1] + A[2]);
    if (c0 == -1)
      for (int c2 = max(2, 16 * c1 + 1); c2 <= min(N - 2, 16 * c1 + 2); c2 += 1)
        B[c2] = 0.33333 * (A[c2-1] + A[c2] + A[c2+1]);
    for (int c2 = max(max(-16 * c0 + 16 * c1 - 13, 16 * c1), 16 * c0 - 16 * c1 + 2); c2 <= min(min(min(2 * T + N - 3, 4 * T - 16 * c0 + 16 * c1 - 2), 2 * N + 16 * c0 - 16 * c1 + 11), 16 * c1 + 15); c2 += 1) {
      for (int c3 = max(max(-c2, -(2 * ((N + c2) % 2)) - 2 * N + c2 + 4), -((c2 + 1) % 4) + 16 * c0 - 16 * c1 + 1); c3 <= min(min(16 * c0 - 16 * c1 + 13, c2 - 4), 4 * T - c2 - 4); c3 += 4) {
        if (2 * N + c3 >= c2 + 4 && 16 * c1 + c3 >= 16 * c0)
          B[(c2 - c3) / 2] = 0.33333 * (A[(c2 - c3) / 2 - 1] + A[(c2 - c3) / 2] + A[(c2 - c3) / 2 + 1]);
        A[((c2 - c3) / 2) - 1] = B[((c2 - c3) / 2) - 1];
      }
      if (16 * c1 + c2 >= 16 * c0 + 18 && 4 * T + 16 * c1 >= 16 * c0 + c2 + 18 && (c2 + 1) % 4 >= 2) {
        B[-8 * c0 + 8 * c1 + c2 - 2 * ((c2 - 1) / 4) - 8] = 0.33333 * (A[-8 * c0 + 8 * c1 + c2 - 2 * ((c2 - 1) / 4) - 9] + A[-8 * c0 + 8 * c1 + c2 - 2 * ((c2 - 1) / 4) - 8] + A[-8 * c0 + 8 * c1 + c2 - 2 * ((c2 - 1) / 4) - 7]);
      } else if (2 * T >= c2 + 1 && 16 * c0 + 17 >= 16 * c1 + c2 && (c2 + 1) % 2 == 0) {
        B[1] = 0.33333 * (A[0] + A[1] + A[2]);
      }
    }
  }
#pragma endscop
}
"""


def test_isl_generated_code_with_modulo_guards_does_not_hang_the_front_end(tmp_path):
    """Probe 82 G4: the facts on the sizes of a diamond-tiled jacobi-1d as isl prints it (`(c2 -
    c3) / 2` under `(c2 + 1) % 4` guards) took isl's dim_min minutes; the sizes under which a
    `/` sees a negative value are now a projection."""
    src = tmp_path / "k.c"
    src.write_text(ISL_JACOBI)
    rc, out, err = run_cli("transform", src)
    assert rc in (0, 2) and "Traceback" not in err and len(err.strip().splitlines()) <= 3, err
