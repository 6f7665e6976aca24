"""Findings of probe 18 on annotated files written as Orio users write them: Windows line
ends, a statement outside a fragment's regions, file-wide statement numbers in a second CHiLL
block, and a problem size whose constraints leave no point."""
from __future__ import annotations

from conftest import run_cli as cli

SPEC = """/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O1'; }
  def performance_counter { arg repetitions = 1; }
  def performance_params {
    param TI[] = [4, 8];
    param UF[] = [1, 2];
    %s
  }
  def input_params { %s }
  def input_vars {
    decl static double A[N][N] = random;
    decl static double B[N][N] = random;
    decl static double x[N] = random;
  }
  def search { arg algorithm = 'Exhaustive'; arg total_runs = 2; }
) @*/
int i, j;
%s/*@ begin CHiLL ( tile(0,"i",TI,"ii") unroll(0,"j",UF) ) @*/
for (i = 0; i < N; i++)
  for (j = 0; j < N; j++)
    B[i][j] = A[i][j] * 2.0 + B[i][j];
/*@ end @*/
%s/*@ end @*/
"""
SECOND = """/*@ begin CHiLL ( unroll(%d,"i",UF) ) @*/
for (i = 1; i < N; i++)
  x[i] = x[i - 1] * 0.5 + B[i][i];
/*@ end @*/
"""


def write(tmp_path, constraint="", sizes="param N[] = [12];", before="", after="", crlf=False):
    text = SPEC % (constraint, sizes, before, after)
    path = tmp_path / "f.c"
    path.write_bytes(text.replace("\n", "\r\n").encode() if crlf else text.encode())
    return path


def search(path, *argv):
    db = path.parent / "f.db"
    if db.exists():
        db.unlink()
    return cli("search", path, "--no-progress", "--db", db, *argv)


def test_windows_line_ends_are_read(tmp_path):
    rc, out, err = search(write(tmp_path, crlf=True))
    assert rc == 0, err
    assert "status: ok 2" in out, out
    assert (tmp_path / "f.best.c").exists()


def test_a_statement_outside_the_fragments_regions_is_named_as_such(tmp_path):
    for before in ("B[0][0] = 1.0;\n", "for (i = 0; i < N; i++) x[i] = 0.0;\n"):
        rc, _, err = search(write(tmp_path, before=before))
        assert rc == 2 and "Traceback" not in err
        line = [ln for ln in err.splitlines() if ln.strip()]
        assert len(line) == 1, err
        assert line[0].startswith(f"{tmp_path / 'f.c'}:18:1: error: a statement in a PerfTuning fragment "
                                  "outside its CHiLL / Loop regions"), err


def test_a_second_chill_block_takes_its_own_or_the_files_statement_numbers(tmp_path):
    for number in (0, 1):
        rc, out, err = search(write(tmp_path, after=SECOND % number))
        assert rc == 0, (number, err)
        assert "status: ok 2" in out, out
    rc, _, err = search(write(tmp_path, after=SECOND % 2))
    assert rc == 2 and "there is no statement 2" in err, err


def test_a_problem_size_without_points_is_skipped_not_fatal(tmp_path):
    path = write(tmp_path, constraint="constraint fits = TI <= N;", sizes="param N[] = [3, 12];")
    rc, out, err = search(path)
    assert rc == 0, err
    assert "constraint 'fits' holds for no point for N=3" in err and "this problem size is skipped" in err, err
    best = (tmp_path / "f.best.c").read_text()
    assert "if (N == 12)" in best and "else" in best, best
    rc, _, err = search(write(tmp_path, constraint="constraint fits = TI <= N;", sizes="param N[] = [2, 3];"))
    assert rc == 2 and "holds for no point for N=2" in err, err


def test_run_builds_an_annotated_file_with_its_build_command(tmp_path):
    path = write(tmp_path, constraint="param CFLAGS[] = ['-O1', '-O2'];")
    path.write_text(path.read_text().replace("'gcc -O1'", "'gcc @CFLAGS@ -fno-inline'"))
    rc, out, _ = cli("run", path)
    assert rc == 0 and "[gcc" in out and out.rstrip().endswith("-O1 -fno-inline]"), out
    rc, out, _ = cli("run", path, "-D", "CFLAGS=-O2")
    assert rc == 0 and out.rstrip().endswith("-O2 -fno-inline]"), out
    rc, out, _ = cli("run", path, "--cflags=-O2")
    assert rc == 0 and out.rstrip().endswith("-O2]"), out


LOOP = """/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O1'; }
  def performance_counter { arg repetitions = 1; }
  def performance_params { param T[] = [1, 4, 8]; param U[] = [1, 2]; param R[] = [1, 2]; }
  def input_params { param N[] = [12]; }
  def input_vars { decl static double a[N][N] = random; decl static double b[N][N] = 0; }
  def search { arg algorithm = 'Randomsearch'; arg total_runs = 8; }
) @*/
int i, j;
/*@ begin Loop(
  transform Composite(tile = [%s], unrolljam = (['i','j'],[U, R]))
  for (i = 0; i <= N-1; i++)
    for (j = 0; j <= N-1; j++)
      b[j][i] = a[i][j];
) @*/
/*@ end @*/
/*@ end @*/
"""


def test_an_orio_directive_error_whose_text_holds_the_points_value_stops_before_measuring(tmp_path):
    """`tile = [('i',T)]` says `got ('i', 4)` at T=4: one error of the directive, not of a
    point, reported before any measuring (it spent the whole budget before)."""
    # a missing loop is pointed at by its name in the directive, a bad tile entry at its part
    for entry, what in (("('i',T)", "23: error: a tile entry (loop, size, new index) must be a list of 3, got ('i', "),
                        ("('i',T,'ii'),('q',T,'qq')", "45: error: no loop 'q' for a tile")):
        path = tmp_path / "l.c"
        path.write_text(LOOP % entry)
        rc, out, err = search(path)
        assert rc == 2, err
        lines = [ln for ln in err.splitlines() if ln.strip()]
        assert len(lines) == 1 and f"{path}:11:{what}" in lines[0], err
        assert "no variant passed" not in err and "status:" not in out, out + err


def test_a_syntax_error_in_the_decl_file_is_located_there(tmp_path):
    (tmp_path / "decl.h").write_text("double A[N][N];\ndouble B[N][N]\ndouble x[N];\n")
    path = write(tmp_path)
    text = path.read_text()
    start = text.index("  def input_vars {")
    end = text.index("  def search")
    path.write_text(text[:start] + "  def input_vars { arg decl_file = 'decl.h'; }\n" + text[end:])
    rc, _, err = search(path)
    assert rc == 2 and "Traceback" not in err, err
    assert err.strip().startswith(f"{tmp_path / 'decl.h'}:2:"), err
    assert "syntax error in the decl_file" in err, err
    (tmp_path / "decl.h").write_text("double A[N][N];\ndouble B[N][N];\ndouble x[N];\n")
    rc, _, err = search(path)
    assert rc == 0, err


def test_a_kernel_tuner_export_of_a_two_search_database_asks_first_and_writes_nothing(tmp_path):
    path = write(tmp_path, sizes="param N[] = [8, 12];")
    rc, _, err = search(path)
    assert rc == 0, err
    csv, cache = tmp_path / "x.csv", tmp_path / "kt.json"
    rc, out, err = cli("report", tmp_path / "f.db", "--csv", csv, "--kernel-tuner", cache)
    assert rc == 2 and "holds 2 searches" in err and out == "", out + err
    assert not csv.exists() and not cache.exists()


def test_macros_of_the_build_command_are_seen_by_the_region(tmp_path):
    # Orio compiles the fragment with the build command: a float macro has no other way in
    text = SPEC.replace("gcc -O1", "gcc -O1 -DSCALE=3.0 -DSTEPS=3").replace(
        "A[i][j] * 2.0", "A[i][j] * SCALE").replace("B[i][j] = ", "for (int s = 0; s < STEPS; s++) B[i][j] = ")
    path = tmp_path / "f.c"
    path.write_text(text % ("", "param N[] = [12];", "", ""))
    rc, out, err = search(path)
    assert rc == 0, err
    assert "status: ok 2" in out, out
    best = (tmp_path / "f.best.c").read_text()
    assert "SCALE" in best and "STEPS" in best, best
    rc, out, err = cli("transform", path)
    assert rc == 0, err
    assert "* SCALE" in out and "< STEPS" in out, out


def test_a_macro_that_the_build_command_leaves_out_is_still_unknown(tmp_path):
    path = tmp_path / "f.c"
    path.write_text((SPEC % ("", "param N[] = [12];", "", "")).replace("A[i][j] * 2.0", "A[i][j] * SCALE"))
    rc, out, err = search(path)
    assert rc == 2
    assert "undeclared identifier 'SCALE'" in err, err


def test_a_missing_semicolon_at_the_end_of_a_region_is_shown_where_the_code_ends(tmp_path):
    text = SPEC % ("", "param N[] = [12];", "", "")
    text = text.replace("B[i][j] = A[i][j] * 2.0 + B[i][j];", "B[i][j] = A[i][j] * 2.0 + B[i][j]")
    path = tmp_path / "f.c"
    path.write_text(text)
    line = text.split("\n").index("    B[i][j] = A[i][j] * 2.0 + B[i][j]") + 1
    rc, out, err = search(path)
    assert rc == 2 and f"f.c:{line}:38: error: syntax error: the region's code ends inside a statement" in err, err
    (tmp_path / "g.c").write_text("void f(int n, double *a)\n{\n#pragma scop\n  for (int i = 0; i < n; i++)\n"
                                  "    a[i] = a[i] * 2.0\n#pragma endscop\n}\n")
    rc, out, err = cli("transform", tmp_path / "g.c")
    assert rc == 2 and "g.c:5:22: error: syntax error: the region's code ends inside a statement" in err, err
