"""Gaps found by probes 128 (mutation fuzzer) and 129 (real Orio files), end to end."""
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import cli_process, run_cli

pytestmark = pytest.mark.usefixtures("private_build_cache")

DATA = Path(__file__).resolve().parent / "data" / "gaps59"


def _ok(*args):
    rc, out, err = run_cli(*args)
    assert rc == 0 and ": ok" in out and "max rel err 0.0e+00" in out, out + err
    return out, err


def test_a_team_pragma_error_points_at_its_clause_and_quotes_it(tmp_path):
    """Probe 128 G7: the error had no column and named '#pragma omp for' for the file's
    '#pragma omp parallel for reduction(max:err)'."""
    src = tmp_path / "k.c"
    src.write_text("void f(int n, double a[n])\n{\n  double err = 0.0;\n  int i;\n"
                   "#pragma omp parallel for reduction(max:err)\n#pragma scop\n  for (i = 0; i < n; i++)\n"
                   "    a[i] = 0.5 * a[i];\n#pragma endscop\n}\n")
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and "k.c:5:26: error: the loop that '#pragma omp parallel for reduction(max:err)' " \
        "shares out: reduction(max:err): 'err' is not used" in err, err
    assert err.count("\n") == 1, err


FLAGS = """/*@ begin PerfTuning (
  def build {{ arg build_command = '{build}'; }}
  def performance_params {{
    param CFLAGS[] = [{flags}];
    param UF[] = [1, 2];
  }}
  def input_params {{ param N[] = [64]; }}
  def input_vars {{ decl static double A[N] = random; }}
) @*/
int i;
/*@ begin Loop(transform Unroll(ufactor=UF)
  for (i = 0; i <= N-1; i++)
    A[i] = 2.0 * A[i];
) @*/
/*@ end @*/
/*@ end @*/
"""


@pytest.mark.parametrize("build, flags, where, what", [
    ("gcc @CFLAGS@", "'-O2 --0', '--0'", "k.c:4:11: error: param CFLAGS: the compiler rejects every value, e.g. '-O2 --0'",
     "unrecognized command-line option"),
    ("gcc -O3 -fbogus-flag", "'-O2'", "k.c:2:19: error: the build command 'gcc -O3 -fbogus-flag' has a flag",
     "-fbogus-flag"),
])
def test_a_flag_the_compiler_rejects_is_a_located_annotation_error(tmp_path, build, flags, where, what):
    """Probe 128 G8: every point failed to compile, then exit 1 with no location."""
    src = tmp_path / "k.c"
    src.write_text(FLAGS.format(build=build, flags=flags))
    for cmd in (("search", src, "--budget", "2", "--no-progress", "--db", tmp_path / "s.db"), ("run", src)):
        rc, out, err = run_cli(*cmd)
        assert rc == 2 and where in err and what in err and err.count("\n") == 1, (cmd, err)
    src.write_text(FLAGS.format(build="gcc @CFLAGS@", flags="'-O2'"))
    rc, out, err = run_cli("search", src, "--budget", "2", "--no-progress", "--db", tmp_path / "c.db",
                           "--cflags=--0")
    assert rc == 2 and "--cflags: the compiler rejects these flags" in err, err
    # one value this compiler lacks: its points fail as they are measured, with a warning
    src.write_text(FLAGS.format(build="gcc @CFLAGS@", flags="'-O2', '--0'"))
    rc, out, err = run_cli("search", src, "--budget", "4", "--no-progress", "--db", tmp_path / "w.db",
                           "--searcher", "exhaustive")
    assert rc == 0 and "k.c:4:11: warning: the compiler rejects param CFLAGS's value '--0'" in err, out + err
    assert "status: compile_error 2, ok 2" in out, out
    src.write_text(FLAGS.format(build="gcc @CFLAGS@", flags="'-O2', '-O3'"))
    rc, out, err = run_cli("search", src, "--budget", "2", "--no-progress", "--db", tmp_path / "g.db")
    assert rc == 0 and "status: ok 2" in out, out + err


def test_a_chain_of_locals_set_from_the_sizes_gets_its_value():
    """Probe 129 G1: `int n = N; int len = n;` (formjacobian2d's `nrows = m*n`) asked for
    --define len=..."""
    _ok("run", DATA / "local_chain.c")
    _ok("run", DATA / "local_chain.c", "-D", "N=13")


def test_a_build_command_under_timeout_builds_with_its_compiler():
    """Probe 129 G2: SPAPT's `timeout --kill-after=30s --signal=9 20m gcc ...` took `timeout`
    for the compiler, and every build failed."""
    out, err = _ok("run", DATA / "timeout_cmd.c")
    assert "runs the compiler under 'timeout 20m'" in err, err


def test_a_block_at_the_top_of_an_orio_fragment_is_a_statement():
    """Probe 129 G3: Orio's gesummv fragment is `{ double *tmp = ...; int i, j; Loop }`."""
    _ok("run", DATA / "toplevel_block.c")
    _ok("run", DATA / "toplevel_block.c", "-D", "N=21", "-D", "UF=2")


def test_unroll_takes_init_cleanup_loop_and_an_empty_tuned_pragma_is_none(tmp_path):
    """Probe 129 G4, G5: Orio's `init_cleanup_loop=IL` was an unknown argument; PR = '' in
    `Pragma(pragma_str=[PR])` (no pragma at that point) was an empty pragma."""
    _ok("run", DATA / "unroll_icl.c", "-D", "PR=''")
    _ok("run", DATA / "pragma_empty.c", "-D", "PR=''", "-D", "UF=4")
    rc, out, err = run_cli("search", DATA / "pragma_empty.c", "--budget", "4", "--no-progress",
                           "--searcher", "exhaustive", "--db", tmp_path / "p.db")
    assert rc == 0 and "status: ok 4" in out, out + err
    src = tmp_path / "k.c"
    src.write_text((DATA / "unroll_icl.c").read_text().replace("init_cleanup_loop=False", "init_cleanup_loop='x'"))
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and "init_cleanup_loop" in err, err


def test_the_options_of_an_algorithm_the_command_line_replaced_are_ignored(tmp_path):
    """Probe 129 G6: `arg algorithm = 'DLMT'; arg dlmt_steps = 4;` with --searcher random."""
    src = tmp_path / "k.c"
    src.write_text((DATA / "local_chain.c").read_text().replace(
        "def input_vars", "def search { arg algorithm = 'DLMT'; arg dlmt_steps = 4; }\n        def input_vars"))
    rc, out, err = run_cli("search", src, "--searcher", "random", "--budget", "2", "--no-progress",
                           "--db", tmp_path / "s.db")
    assert rc == 0 and "option dlmt_steps of searcher 'DLMT' ignored by 'random'" in err, out + err
    rc, out, err = run_cli("search", src, "--budget", "2", "--no-progress", "--db", tmp_path / "t.db")
    assert rc == 2 and "unknown searcher 'DLMT'" in err, err


def test_an_init_file_is_read_as_the_build_preprocesses_it():
    """Probe 129 G7: `#ifdef DYNAMIC ... #endif` before `n = N;` in Orio's init.c hid the
    assignment, and 'n' had no value."""
    _ok("run", DATA / "initfile" / "k.c")
    _ok("run", DATA / "initfile" / "k.c", "-D", "N=23")
    # probe 132 G1: SPAPT gemver's `a = 1.5; b = 2.5; n = N;` (a double before the size)
    _ok("run", DATA / "initfile_double" / "k.c", "-D", "N=37")
    # probe 139 R1: the decl_file holding its own copy of init_input_vars (Orio's gemver)
    _ok("run", DATA / "initfile_dup" / "k.c")


def test_an_undeclared_scalar_is_not_called_an_array(tmp_path):
    src = tmp_path / "k.c"
    src.write_text("void f(int n, double *a) {\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++)\n"
                   "    s = a[i];\n#pragma endscop\n}\n")
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and "undeclared identifier 's' (declare the variable before the region)" in err, err


def test_a_standalone_main_reads_the_sizes_its_allocations_use(tmp_path):
    """Probe 133 G1: Orio's `decl dynamic double X[m*n]` over a loop to `nrows = m*n`: main()
    allocated m * n elements and defined neither."""
    cu = tmp_path / "k.cu"
    rc, out, err = run_cli("transform", DATA / "sa1.c", "--target", "cuda", "--standalone", "-o", cu)
    assert rc == 0, err
    text = cu.read_text()
    main = text[text.index("int main("):]
    assert 'const int m = (int)lx_size_arg(argc, argv, "m", &lx_missing);' in main, main
    assert "const int nrows = m * n;" in main and "usage: %s m=VALUE n=VALUE" in main, main
    if shutil.which("nvcc"):
        p = subprocess.run(["nvcc", "-arch=sm_90", str(cu), "-o", str(tmp_path / "a.out")], capture_output=True, text=True)
        assert p.returncode == 0, p.stderr[-2000:]


def test_the_host_code_checks_sizes_past_an_orio_decls_extent(tmp_path):
    """Probe 133 G2: `decl dynamic double A[N]` with N = 1000, a loop to the function's n: the
    host copied 1000 elements and launched over any n."""
    cu = tmp_path / "k.cu"
    rc, out, err = run_cli("transform", DATA / "hostchk2.c", "--target", "cuda", "-o", cu)
    text = cu.read_text()
    status = text[text.index("scale_host_status("):text.index("cudaMalloc")]
    assert rc == 0 and "if (((size_t)(N)) < ((n >= 1) ? ((size_t)(n - 1) + 1) : (size_t)0)) return " \
        "(int)cudaErrorInvalidValue;" in status, status


def test_a_param_may_be_named_as_a_python_keyword_that_c_allows(tmp_path):
    """Probe 133 G3: PETSc's Bratu FormFunction2D with `param lambda = 6;`."""
    src = tmp_path / "k.c"
    src.write_text((DATA / "local_chain.c").read_text()
                   .replace("void f(double *a)", "void f(double lambda, double *a)")
                   .replace("param N[] = [8];", "param N[] = [8]; param lambda = 6;")
                   .replace("param UF[] = [1,2];", "param UF[] = [1,2]; constraint c = lambda > 1 and UF <= 2;")
                   .replace("a[i] = 2.0*a[i];", "a[i] = lambda*a[i];"))
    _ok("run", src)
    _ok("run", src, "-D", "lambda=5")
    rc, out, err = run_cli("search", src, "--budget", "2", "--no-progress", "--db", tmp_path / "s.db")
    assert rc == 0 and "status: ok 2" in out, out + err
    src.write_text((DATA / "local_chain.c").read_text().replace("param UF[]", "param if[]"))
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and "param name 'if' cannot be used" in err, err


def test_copy_to_texture_and_constant_are_noted(tmp_path):
    """Probe 133 G4: CUDA-CHiLL's tmv.lua `copy_to_texture("c")` was refused."""
    src = tmp_path / "tmv.c"
    src.write_text("#define N 64\nvoid normalMV(float c[N][N], float a[N], float b[N]) {\n  int i, j;\n"
                   "  for (i = 0; i < N; i++)\n    for (j = 0; j < N; j++)\n      a[i] = a[i] + c[i][j] * b[j];\n}\n")
    lua = tmp_path / "tmv.lua"
    lua.write_text('init("tmv.c","normalMV",0)\ndofile("cudaize.lua")\ntile_by_index(0, {"i","j"}, {32,32}, '
                   '{l1_control="ii", l2_control="k"}, {"ii", "k", "i", "j"})\ncudaize(0, "tmv_GPU", {a=N, b=N, '
                   'c=N*N},{block={"ii"}, thread={"i"}}, {})\ncopy_to_texture("c")\ncopy_to_constant("b")\n')
    rc, out, err = run_cli("transform", src, "--recipe", lua, "--target", "cuda", "-o", tmp_path / "k.cu")
    assert rc == 0 and "tmv.lua:5: note: copy_to_texture(\"c\") is not followed" in err, err
    assert "tmv.lua:6: note: copy_to_constant(\"b\") is not followed" in err, err


@pytest.mark.parametrize("name, where", [("shadow_after.c", ":9:18:"), ("shadow.c", ":6:5:"), ("shadow_param.c", ":8:18:"),
                                         ("shadow_body.c", ":8:12:"), ("shadow_block.c", ":9:20:")])
def test_a_loops_own_counter_hiding_the_functions_variable_is_refused(name, where):
    """Probe 131 G1 (wrong result): `for (int k ...)` then `b[i] += a[i][k];` reading the
    function's k was modelled as the loop's exit value, a[i][n - 1]."""
    rc, out, err = run_cli("transform", DATA / name)
    assert rc == 2 and f"{name}{where} error: 'k' here is another variable than the counter 'k' that the loop at line" in err, err
    assert err.count("\n") == 1, err


def test_sibling_loops_with_their_own_counters_are_fine(tmp_path):
    src = tmp_path / "k.c"
    src.write_text("void f(int n, double a[n], double b[n])\n{\n#pragma scop\n  for (int k = 0; k < n; k++)\n"
                   "    a[k] = 2.0 * b[k];\n  for (int k = 1; k < n; k++) {\n    int t = k - 1;\n    b[k] += a[t];\n"
                   "  }\n#pragma endscop\n}\n")
    _ok("run", src, "-D", "n=11")


def test_repetitions_past_a_million_are_refused(tmp_path):
    """Probe 131 G2: `arg repetitions = 99999999999999999999;` (or --repetitions) ran forever."""
    src = tmp_path / "k.c"
    src.write_text((DATA / "local_chain.c").read_text().replace(
        "def input_vars", "def performance_counter { arg repetitions = 99999999999999999999; }\n        def input_vars"))
    rc, out, err = run_cli("search", src, "--budget", "2", "--no-progress", "--db", tmp_path / "s.db")
    assert rc == 2 and "arg repetitions must be a positive integer of at most 1000000" in err, err
    p = cli_process("run", DATA / "linecont.c", "--repetitions", "99999999999999999999")
    assert p.returncode == 2 and "more than looptx times (1000000)" in p.stderr, p.stderr


def test_a_backslash_newline_splices_lines_as_in_c():
    """Probe 131 G3: `a[i] = b[i] + \\` then `b[i - 1];` was an illegal character."""
    _ok("run", DATA / "linecont.c", "-D", "n=20")


@pytest.mark.parametrize("change, what", [
    ("param UF[] = [1,2];", "constraint cx = x for x in [1]; param UF[] = [1,2];"),
])
def test_a_bare_generator_is_no_constraint(tmp_path, change, what):
    """Probe 131 G5: `constraint cx = x for x in [1];` was accepted (the multi-line fallback
    put it in brackets, a generator)."""
    src = tmp_path / "k.c"
    src.write_text((DATA / "local_chain.c").read_text().replace(change, what))
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and "syntax error in 'x for x in [1]'" in err, err


def test_comma_subscripts_and_keyword_decl_names_are_named_as_such(tmp_path):
    """Probe 131 G4, G6: `decl dynamic double int[N]` had no location; `a[(0, i)]` was an
    'ExprList'."""
    src = tmp_path / "k.c"
    src.write_text("void f(int n, double *a, double *b)\n{\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++)\n"
                   "    a[(0, i)] = b[i];\n#pragma endscop\n}\n")
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and "k.c:6:5: error: non-affine subscript of 'a': comma expression in an index" in err, err
    src.write_text((DATA / "local_chain.c").read_text().replace("decl dynamic double a[N]", "decl dynamic double int[N]"))
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and "k.c:6:46: error: decl name 'int' is a C keyword" in err, err


def test_copy_buffers_leave_room_on_the_stack(tmp_path):
    """Probe 135 G3: a datacopy of exactly 8 MiB was accepted and the variant died of SIGSEGV."""
    src = tmp_path / "k.c"
    src.write_text("void f(int n, int T, double A[n][n], double B[n][n])\n{\n#pragma scop\n"
                   "  for (int t = 0; t < T; t++)\n    for (int i = 0; i < n; i++)\n      for (int j = 0; j < n; j++)\n"
                   "        A[i][j] += B[j][i];\n#pragma endscop\n}\n")
    rec = tmp_path / "r.yaml"
    rec.write_text("steps:\n  - datacopy: {stmt: 0, at: i, array: B, around: true}\n")
    rc, out, err = run_cli("run", src, "--recipe", rec, "-D", "n=1024", "-D", "T=2")
    assert rc == 2 and "is a local array of 8.0 MiB (1024 x 1024 elements), past the 7 MiB" in err, err
    _ok("run", src, "--recipe", rec, "-D", "n=300", "-D", "T=2")


def test_an_orio_leader_without_begin_at_file_level():
    """Probe 136 G2: `/*@ Loops(transform ...` in a fragment: the marker was too short for the
    wrapper."""
    _ok("run", DATA / "orio_nobegin.c")


def test_a_define_passes_over_a_chill_blocks_own_variable():
    """Probe 135 G2: `-D TJ=8` with `TJ = 256` in a CHiLL block kept 256 (a script file
    given with --recipe followed the -D)."""
    rc, out, err = run_cli("transform", DATA / "chill_block_var.c", "-D", "TJ=8")
    assert rc == 0 and "tile: {stmt: 0, loop: j, size: 8, control: jj}" in out, out + err
    _ok("run", DATA / "chill_block_var.c", "-D", "TJ=8")


def test_a_recipe_beside_the_file_may_leave_out_yaml(tmp_path):
    """Probe 135 G1: `--recipe tile` found recipes/tile.yaml but not ./tile.yaml."""
    (tmp_path / "sub").mkdir()
    src = tmp_path / "sub" / "k.c"
    src.write_text((DATA / "linecont.c").read_text())
    (tmp_path / "sub" / "beside.yaml").write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 2}\n")
    rc, out, err = run_cli("transform", src, "--recipe", "beside")
    assert rc == 0 and "unroll: {stmt: 0, loop: i, factor: 2}" in out, err


def test_cuda_after_a_full_unroll_names_the_unroll(tmp_path):
    """Probe 134 G3: the message blamed 'an earlier cuda step' when the cuda step itself came
    after the unroll that took its loop away."""
    src = tmp_path / "k.c"
    src.write_text("void g3(int n, double B[n][8], const double A[n][8])\n{\n#pragma scop\n"
                   "  for (int i = 0; i < n; i++)\n    for (int j = 0; j < 8; j++)\n      B[i][j] = A[i][j] * 2.0;\n"
                   "#pragma endscop\n}\n")
    rec = tmp_path / "r.yaml"
    rec.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 2, control: ii}\n  - unroll: {stmt: 0, loop: i, factor: 2}\n"
                   "  - cuda: {stmt: 0, block: [ii], thread: [j, i]}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda")
    assert rc == 2 and "step 3 (cuda): error: loop 'i' was unrolled fully by an earlier step (by 2, its tile of 2)" in err


def test_a_shared_copy_of_two_distant_references_says_so(tmp_path):
    """Probe 134 G4: syrk's A[i][k] and A[j][k] in one buffer: 'tile the loops first', though
    every loop was tiled."""
    src = tmp_path / "k.c"
    src.write_text("void sq(int n, double C[n][n], const double A[n][n])\n{\n#pragma scop\n"
                   "  for (int i = 0; i < n; i++)\n    for (int j = 0; j < n; j++)\n      for (int k = 0; k < n; k++)\n"
                   "        C[i][j] += A[i][k] * A[j][k];\n#pragma endscop\n}\n")
    rec = tmp_path / "r.yaml"
    rec.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 8, control: ii}\n  - tile: {stmt: 0, loop: j, size: 8, control: jj}\n"
                   "  - tile: {stmt: 0, loop: k, size: 8, control: kk}\n  - permute: {stmt: 0, order: [ii, jj, kk, i, j, k]}\n"
                   "  - cuda: {stmt: 0, block: [jj, ii], thread: [j, i]}\n  - shared: {stmt: 0, array: A, at: kk}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda")
    assert rc == 2 and "the references A[i][k], A[j][k] of 'A' in loop 'kk' each reach a tile of constant size" in err


def test_hints_for_a_plain_define_say_to_change_it_and_a_dropped_label_is_located(tmp_path):
    """Probe 135 G7, G8: 'give other values with --define' for a plain #define, whose -D is
    refused; the label note pointed at the region's first loop."""
    src = tmp_path / "k.c"
    src.write_text("#define K 5\ndouble a[100][K];\nvoid f(int n) {\n  int i, j;\n#pragma scop\n"
                   "  for (i = 0; i < n; i++)\n  lab:\n    for (j = 0; j < K; j++)\n      a[i][j] = 2 * a[i][j];\n"
                   "#pragma endscop\n}\n")
    rec = tmp_path / "r.yaml"
    rec.write_text("steps:\n  - unroll: {stmt: 0, loop: j, factor: 0}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 0 and "for another value, change the #define and transform again" in err, err
    assert "k.c:7:3: note: the label lab is not in the output" in err, err


@pytest.mark.parametrize("second, hint", [
    ("b[j] = b[j + 1] + 1.0;", "no reverse of these loops lets them run together in one direction keeping every dependence"),
    ("b[j] = a[j] + 1.0;", "reverse it first (reverse {stmt: 1, loop: j})"),
])
def test_a_fuse_of_opposite_loops_names_only_a_reverse_that_is_legal(tmp_path, second, hint):
    """Probe 130 G1: both reverses were suggested where both loops carry a recurrence."""
    src = tmp_path / "k.c"
    src.write_text("void f(int n, double a[n], double b[n]) {\n#pragma scop\n  for (int j = 1; j < n; j++)\n"
                   f"    a[j] = a[j - 1] + 1.0;\n  for (int j = n - 2; j >= 0; j--)\n    {second}\n#pragma endscop\n}}\n")
    rec = tmp_path / "r.yaml"
    rec.write_text("steps:\n  - fuse: {stmts: [0, 1], loop: j}\n")
    rc, out, err = run_cli("transform", src, "--recipe", rec)
    assert rc == 2 and hint in err, err


def test_a_chill_assignment_divides_with_double_slash(tmp_path):
    """Probe 138 G2: `U = 9 - 8 // 2` in a CHiLL block was read as `U = 9 - 8` and a comment."""
    src = tmp_path / "k.c"
    src.write_text("#define N 64\ndouble A[N][N], B[N][N], C[N][N];\nvoid f(void) {\n  int i, j, k;\n"
                   "/*@ begin CHiLL (\n// U is five\nU = 9 - 8 // 2\n  unroll(0,\"k\",U) // then a comment\n) @*/\n"
                   "  for (i = 0; i < N; i++)\n    for (j = 0; j < N; j++)\n      for (k = 0; k < N; k++)\n"
                   "        C[i][j] += A[i][k] * B[k][j];\n/*@ end @*/\n}\n")
    rc, out, err = run_cli("transform", src)
    assert rc == 0 and "unroll: {stmt: 0, loop: k, factor: 5}" in out, out + err


def test_an_init_files_if_conditions_are_read_as_cpp_reads_them():
    """Probe 138 G3: `#if DYN` under -DDYN took the #else branch's size."""
    from looptx.search.init_file import init_assignments
    text = "void init_input_vars() {\n#if DYN > 1 && !defined(NOPE)\n  n = N;\n#else\n  n = 3;\n#endif\n  m = 2;\n}\n"
    assert init_assignments(text, {"DYN": "2"}) == [("n", "N"), ("m", "2")]
    assert init_assignments(text, {"DYN": "1"}) == [("n", "3"), ("m", "2")]
    assert init_assignments(text, {"DYN": "2", "NOPE": ""}) == [("n", "3"), ("m", "2")]


def test_a_chain_of_size_locals_in_a_function_follows_a_define(tmp_path):
    """Probe 138 G6: `int n = N; int len = n;` with -D N=7: 'len' had no value."""
    src = tmp_path / "k.c"
    src.write_text("void f(int N, double *a, double *b)\n{\n  int n = N;\n  int len = n;\n  int i;\n#pragma scop\n"
                   "  for (i = 0; i < len; i++)\n    a[i] = 2.0*a[i] + b[i];\n#pragma endscop\n}\n")
    rec = tmp_path / "r.yaml"
    rec.write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 3}\n")
    _ok("run", src, "--recipe", rec, "-D", "N=7")


def test_run_refuses_a_rejected_flag_value_it_would_build_with(tmp_path):
    """Probe 138 G4: `CF[] = ['-fbogus', '-O1']`: run built with the first and failed with no
    line; -E in a build command gave an OSError."""
    src = tmp_path / "k.c"
    src.write_text(FLAGS.format(build="gcc @CFLAGS@", flags="'-fbogus-x', '-O1'"))
    rc, out, err = run_cli("run", src)
    assert rc == 2 and "k.c:4:11: error: param CFLAGS's value '-fbogus-x', which this run builds with" in err, err
    _ok("run", src, "-D", "CFLAGS=-O1")
    src.write_text(FLAGS.format(build="gcc -O2 -E", flags="'-O1'"))
    rc, out, err = run_cli("run", src)
    assert rc == 2 and "k.c:2:19: error: the build command's -E stops the compiler" in err, err


def test_nested_blocks_at_a_fragments_top():
    """Probe 138 G7: `{ { int i; Loop } }` in a fragment was a syntax error."""
    _ok("run", DATA / "nested_block.c")
