"""Probe 25 (NPB, Parboil, PolyBench/GPU, Orio files of HPCL's Kalman filters): a compiler the
build command names but the machine lacks, problem sizes past the declared extents found after
other sizes were measured, the constraint that rules out a --define and a single --cflags flag.
(mri-q's array of structs, refused then, is modelled now: tests/test_records.py.)"""
from __future__ import annotations

from conftest import run_cli

# the Kalman filters' add_matrix, as HPCL wrote it for icc
ADD = """void add_matrix(double* mat_a, int rows, int cols, double* mat_b, double* mat_c)  {
/*@ begin PerfTuning (
 def build {
   arg build_command = '%s';
 }
 def performance_params {
  param U_I[] = range(1,4);
  param U_J[] = range(1,4);
  constraint unroll_limit = ((U_I == 1) or (U_J == 1));
 }
 def input_params {
  let N = [%s];
  param rows[] = N;
  param cols[] = N;
 }
 def input_vars {
   decl dynamic double mat_a[rows*cols] = random;
   decl dynamic double mat_b[%s] = random;
   decl dynamic double mat_c[rows*cols] = 0;
 }
 def search {
   arg algorithm = 'Exhaustive';
 }
) @*/
int i, j;
/*@ begin Loop (
  transform Composite(
    unrolljam = (['i','j'],[U_I,U_J])
)
  for (i = 0; i <= rows-1; i++)
    for (j = 0; j <= cols-1; j++)
      mat_c[cols * i + j] = mat_a[cols * i + j] + mat_b[cols * i + j];
) @*/
  for (i = 0; i <= rows-1; i++)
    for (j = 0; j <= cols-1; j++)
      mat_c[cols * i + j] = mat_a[cols * i + j] + mat_b[cols * i + j];
/*@ end @*/
/*@ end @*/
}
"""


def _one_error(rc, err, start, *parts):
    assert rc == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(start) and all(p in err for p in parts), err


def test_a_compiler_that_is_not_installed_is_said_before_any_point(tmp_path):
    src = tmp_path / "add.c"
    src.write_text(ADD % ("icc_not_here -O3", "6", "rows*cols"))
    rc, out, err = run_cli("search", src, "--budget", "2")
    _one_error(rc, err, f"{src}:4:", "the build command's compiler 'icc_not_here' is not installed")
    assert not (tmp_path / "add.looptx.db").exists()


def test_sizes_past_the_declared_extents_are_found_before_measuring(tmp_path):
    """mat_b is declared with cols*cols elements: wrong at rows=6, cols=12 only, the third
    problem size; no size is measured before the error."""
    src = tmp_path / "add.c"
    src.write_text(ADD % ("gcc -O2", "6, 12", "cols*cols"))
    rc, out, err = run_cli("search", src, "--budget", "2")
    _one_error(rc, err, f"{src}:", "at rows=12, cols=6 the region reaches element", "of array 'mat_b'")
    assert "looptx search" not in out, out


def test_the_constraint_that_rules_out_a_define_is_named(tmp_path):
    src = tmp_path / "add.c"
    src.write_text(ADD % ("gcc -O2", "6", "rows*cols"))
    rc, out, err = run_cli("run", src, "-D", "U_I=2", "-D", "U_J=3")
    _one_error(rc, err, f"{src}:9:", "constraint 'unroll_limit' rules out every point with U_I=2, U_J=3")
    rc, out, err = run_cli("run", src, "-D", "U_I=1", "-D", "U_J=3", "--cflags", "-O1")
    assert rc == 0 and ": ok" in out and "-O1]" in out, out + err


def test_a_jam_over_a_rectangle_splits_the_inner_loop_once(tmp_path):
    """Unroll j by 4, then jam i by 3: only the last tile of i is partial, which the i loop's
    own separation handles; the j loop was also split at j = 4 (35 copies of the statement
    where 20 do)."""
    src = tmp_path / "add.c"
    src.write_text("void add(double* a, int rows, int cols, double* b, double* c)\n{\n  int i, j;\n#pragma scop\n"
                   "  for (i = 0; i <= rows-1; i++)\n    for (j = 0; j <= cols-1; j++)\n"
                   "      c[cols * i + j] = a[cols * i + j] + b[cols * i + j];\n#pragma endscop\n}\n")
    (tmp_path / "r.yaml").write_text("steps:\n  - unroll: {stmt: 0, loop: j, factor: 4}\n"
                                     "  - unroll: {stmt: 0, loop: i, factor: 3}\n")
    rc, out, err = run_cli("transform", src, "--recipe", tmp_path / "r.yaml")
    assert rc == 0, err
    assert out.count("c[") == 20 and "j = 4;" not in out, out
    for rows, cols in ((7, 9), (6, 6), (2, 3)):
        rc, out, err = run_cli("run", src, "--recipe", tmp_path / "r.yaml", "-D", f"rows={rows}", "-D", f"cols={cols}")
        assert rc == 0 and ": ok" in out, (rows, cols, out + err)
