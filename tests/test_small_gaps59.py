"""Gaps found by probes 128 (mutation fuzzer) and 129 (real Orio files), end to end."""
from pathlib import Path

import pytest

from conftest import run_cli

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
    ("gcc @CFLAGS@", "'-O2', '--0'", "k.c:4:11: error: param CFLAGS's value '--0'", "unrecognized command-line option"),
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


def test_an_undeclared_scalar_is_not_called_an_array(tmp_path):
    src = tmp_path / "k.c"
    src.write_text("void f(int n, double *a) {\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++)\n"
                   "    s = a[i];\n#pragma endscop\n}\n")
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and "undeclared identifier 's' (declare the variable before the region)" in err, err
