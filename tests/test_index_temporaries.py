"""Integer temporaries that name a subscript (Rodinia's lud_omp), and code for the file at a
-D that a plain #define of the file overrides in every build."""
from __future__ import annotations

import re
import subprocess

import pytest

from conftest import run_cli

# Rodinia lud_omp's form: a row offset per i, an element index per j
LUD = """void lud(float *a, int size)
{
    int i, j, k;
    float sum;
#pragma scop
    for (i = 0; i < size; i++) {
        int row_i = i * size;
        for (j = i; j < size; j++) {
            int idx_ij = row_i + j;
            sum = a[idx_ij];
            for (k = 0; k < i; k++)
                sum -= a[row_i + k] * a[k * size + j];
            a[idx_ij] = sum;
        }
        {
            float diag = a[row_i + i];
            for (j = i + 1; j < size; j++) {
                int row_j = j * size;
                const int idx_ji = row_j + i;
                sum = a[idx_ji];
                for (k = 0; k < i; k++)
                    sum -= a[row_j + k] * a[k * size + i];
                a[idx_ji] = sum / diag;
            }
        }
    }
#pragma endscop
}
"""
LUD_RECIPE = """steps:
  - privatize: {stmt: 4, var: sum, at: j}
  - unroll: {stmt: 1, loop: k, factor: 4}
  - unroll: {stmt: 5, loop: k, factor: 4}
  - omp_for: {stmt: 4, loop: j}
"""


def test_subscript_temporaries_are_their_values(tmp_path):
    (tmp_path / "lud.c").write_text(LUD)
    (tmp_path / "r.yaml").write_text(LUD_RECIPE)
    rc, out, err = run_cli("deps", tmp_path / "lud.c")
    assert rc == 0, err
    assert "S0" in out and "S6" in out and "S7" not in out, out      # the declarations are gone
    rc, out, err = run_cli("transform", tmp_path / "lud.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 0, err
    assert "idx_ij" not in out and "row_i" not in out and "a[i * size + j]" in out, out
    for n in (23, 4):
        rc, out, err = run_cli("run", tmp_path / "lud.c", "--recipe", tmp_path / "r.yaml", "-D", f"size={n}",
                               "--cflags", "-O0 -fopenmp")
        assert rc == 0 and ": ok" in out, (n, out + err)


@pytest.mark.parametrize("body", [
    # the temporary changes after it is set: its uses are not its initializer
    "int t = i + 1; t += 1; a[t] = 0.0;",
    # what the initializer reads changes before the use
    "int t = m; m = i; a[t] = 0.0;",
    # an unsigned temporary wraps where the expression would not
    "unsigned t = i - 1; a[t] = 0.0;",
    # an element, not a name: not a size either way
    "int t = ix[i]; a[t] = 0.0;",
])
def test_temporaries_that_are_not_their_initializer_stay_refused(tmp_path, body):
    src = ("void f(double *a, int *ix, int n, int m)\n{\n  int i;\n#pragma scop\n"
           f"  for (i = 1; i < n; i++) {{\n    {body}\n  }}\n#pragma endscop\n}}\n")
    (tmp_path / "t.c").write_text(src)
    rc, out, err = run_cli("deps", tmp_path / "t.c")
    assert rc == 2 and "Traceback" not in err, err
    assert err.count("\n") == 1 and "t.c:6:" in err and "'t' is written inside the region" in err, err


def test_a_temporary_used_only_as_a_value_stays_as_written(tmp_path):
    src = ("void f(double *a, int n)\n{\n  int i;\n#pragma scop\n"
           "  for (i = 0; i < n; i++) {\n    int t = 2 * i + 1;\n    a[i] = t;\n  }\n"
           "#pragma endscop\n}\n")
    (tmp_path / "t.c").write_text(src)
    rc, out, err = run_cli("transform", tmp_path / "t.c")
    assert rc == 0, err
    assert "= t;" in out, out


PLAIN = """#define N 100
#ifndef M
#define M 64
#endif
double A[N][M];
void f(void)
{
  int i, j;
#pragma scop
  for (i = 1; i < N; i++)
    for (j = 0; j < M; j++)
      A[i][j] = A[i-1][j] + 1.0;
#pragma endscop
}
"""


def test_code_for_the_file_at_a_define_the_file_overrides_is_refused(tmp_path):
    """gcc keeps the file's `#define N 100` over `-D N=200` (with a warning): code made for 200
    would write past the arrays the file declares.  `run`'s harness and a .cu #define the sizes
    themselves, so they may still be made for 200."""
    (tmp_path / "d.c").write_text(PLAIN)
    (tmp_path / "r.yaml").write_text("- tile: {stmt: 0, loop: j, size: 16}\n")
    rc, out, err = run_cli("transform", tmp_path / "d.c", "--recipe", tmp_path / "r.yaml", "-D", "N=200")
    assert rc == 2 and err.count("\n") == 1, err
    assert "d.c:1:9: error: -D N=200 does not change 'N' in this file" in err and "#ifndef N" in err, err
    # a .cu #defines the sizes itself
    rc, out, err = run_cli("transform", tmp_path / "d.c", "--recipe", tmp_path / "r.yaml", "-D", "N=200",
                           "--target", "cuda")
    assert rc == 0 and "#define N 200" in out, err
    # the file's own value, and a size the file only defaults, are fine
    for flag in ("N=100", "M=32"):
        rc, out, err = run_cli("transform", tmp_path / "d.c", "--recipe", tmp_path / "r.yaml", "-D", flag)
        assert rc == 0, (flag, err)
    for flag in ("N=200", "M=32"):
        rc, out, err = run_cli("run", tmp_path / "d.c", "--recipe", tmp_path / "r.yaml", "-D", flag)
        assert rc == 0 and ": ok" in out, (flag, out + err)
        # and says that the file's build is another size (probe 31)
        said = "d.c:1:9: note: -D N=200 sets 'N' in looptx's own harness only: this #define sets it to 100"
        assert (said in err) == (flag == "N=200"), (flag, err)


# NPB's forms: MG rprj3 sets a subscript per iteration from the loop counter, BT's rhs sets a
# plane index by assignment between loops that count with the same variable
NPB = """#define M 40
double r[M][M][M], s[M][M][M], x1[M], rhs[M][M][M][5], u[M][M][M][5];
void rprj3(int m3j, int m2j, int m1j, int d1, int d2, int d3)
{
  int j3, j2, j1, i3, i2, i1;
  double x2;
#pragma scop
  for (j3 = 1; j3 < m3j - 1; j3++) {
    i3 = 2*j3 - d3;
    for (j2 = 1; j2 < m2j - 1; j2++) {
      i2 = 2*j2 - d2;
      for (j1 = 1; j1 < m1j; j1++) {
        i1 = 2*j1 - d1;
        x1[i1] = r[i3+1][i2][i1] + r[i3][i2+1][i1];
      }
      for (j1 = 1; j1 < m1j - 1; j1++) {
        i1 = 2*j1 - d1;
        x2 = r[i3+1][i2][i1+1] + r[i3][i2+1][i1+1];
        s[j3][j2][j1] = 0.5 * r[i3+1][i2+1][i1+1] + 0.25 * (x1[i1] + x1[i1+2] + x2);
      }
    }
  }
#pragma endscop
}
void dissipation(int n)
{
  int i, j, m;
#pragma scop
  for (j = 1; j < n - 1; j++) {
    i = 1;
    for (m = 0; m < 5; m++)
      rhs[1][j][i][m] -= 0.25 * (5.0*u[1][j][i][m] - 4.0*u[1][j][i+1][m] + u[1][j][i+2][m]);
    i = 2;
    for (m = 0; m < 5; m++)
      rhs[1][j][i][m] -= 0.25 * (-4.0*u[1][j][i-1][m] + 6.0*u[1][j][i][m] - 4.0*u[1][j][i+1][m]);
    for (i = 3; i < n - 3; i++)
      for (m = 0; m < 5; m++)
        rhs[1][j][i][m] -= 0.25 * (u[1][j][i-2][m] - 4.0*u[1][j][i-1][m] + 6.0*u[1][j][i][m]);
  }
#pragma endscop
}
"""


@pytest.mark.parametrize("function, recipe, sizes, gone", [
    ("rprj3", "steps:\n  - privatize: {var: x2, at: j1}\n  - unroll: {stmt: 0, loop: j1, factor: 2}\n"
              "  - omp_for: {stmt: 2, loop: j1}\n",
     ["m3j=11", "m2j=9", "m1j=12", "d1=1", "d2=2", "d3=1"], ["i3 = ", "i2 = ", "i1 = "]),
    ("dissipation", "steps:\n  - unroll: {stmt: 5, loop: m, factor: 0}\n  - omp_for: {stmt: 3, loop: j}\n",
     ["n=13"], ["i = 1;", "i = 2;"]),
])
def test_assigned_subscript_temporaries_are_their_values(tmp_path, function, recipe, sizes, gone):
    (tmp_path / "npb.c").write_text(NPB)
    (tmp_path / "r.yaml").write_text(recipe)
    rc, out, err = run_cli("transform", tmp_path / "npb.c", "--function", function, "--recipe", tmp_path / "r.yaml",
                           "-o", tmp_path / "out.c")
    assert rc == 0, err
    text = (tmp_path / "out.c").read_text()
    assert not any(g in text for g in gone), text
    # privatized and counting variables keep the function's declarations in use; only the
    # temporaries that the subscripts took the place of are left unused
    p = subprocess.run(["gcc", "-Wall", "-Wno-unknown-pragmas", "-fopenmp", "-c", str(tmp_path / "out.c"),
                        "-o", str(tmp_path / "out.o")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    unused = set(re.findall(r"unused variable .(\w+)", p.stderr))
    assert unused <= {g.split()[0] for g in gone}, p.stderr
    args = [x for kv in sizes for x in ("-D", kv)]
    rc, out, err = run_cli("run", tmp_path / "npb.c", "--function", function, "--recipe", tmp_path / "r.yaml",
                           *args, "--cflags=-O0 -fopenmp")
    assert rc == 0 and ": ok" in out, out + err


def test_the_statements_that_set_a_size_before_the_loops_stay_outside_the_region(tmp_path):
    """NPB MG's rprj3: `if (m3k == 3) d3 = 2; else d3 = 1;` before the loops, which read d3 in
    subscripts; inside a --function region, d3 would be no size and the region refused."""
    src = ("double r[64], s[64];\nvoid f(int m, int k)\n{\n  int j, d;\n  if (k == 3)\n    d = 2;\n"
           "  else\n    d = 1;\n  for (j = 1; j < m; j++)\n    s[j] = r[2*j - d];\n}\n")
    (tmp_path / "f.c").write_text(src)
    rc, out, err = run_cli("deps", tmp_path / "f.c", "--function", "f")
    assert rc == 0 and "parameters: m, d" in out, out + err
    assert "f.c:5:3: note: the statements before the first loop set d, which the loops read as a size" in err, err
    (tmp_path / "r.yaml").write_text("steps:\n  - unroll: {stmt: 0, loop: j, factor: 4}\n")
    rc, out, err = run_cli("run", tmp_path / "f.c", "--function", "f", "--recipe", tmp_path / "r.yaml",
                           "-D", "m=30", "-D", "d=2")
    assert rc == 0 and ": ok" in out, out + err
    # a statement of another form keeps them in the region, which names the way out
    (tmp_path / "g.c").write_text(src.replace("  if (k == 3)", "  s[0] = 0.0;\n  if (k == 3)"))
    rc, out, err = run_cli("deps", tmp_path / "g.c", "--function", "f")
    assert rc == 2 and err.count("\n") == 1, err
    assert "g.c:11:" in err and "'d' is written inside the region" in err and "loops from line 10 on" in err, err


# NPB BT's compute_rhs: every loop is bounded by an element of a global the region only reads
GRID = """int grid_points[3];
double u[12][12][12][5], rhs[12][12][12][5];
void compute_rhs(void)
{
  int i, j, k, m;
#pragma scop
  for (k = 1; k <= grid_points[2] - 2; k++)
    for (j = 1; j <= grid_points[1] - 2; j++) {
      i = grid_points[0] - 3;
      for (m = 0; m < 5; m++)
        rhs[k][j][i][m] -= 0.25 * (u[k][j][i-2][m] - 4.0*u[k][j][i-1][m] + 5.0*u[k][j][i][m]);
      for (i = 1; i <= grid_points[0] - 4; i++)
        for (m = 0; m < 5; m++)
          rhs[k][j][i][m] += u[k][j][i+1][m] * grid_points[0];
    }
#pragma endscop
}
"""


def test_constant_elements_of_a_read_only_array_are_sizes(tmp_path):
    (tmp_path / "bt.c").write_text(GRID)
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 1, loop: i, size: 4}\n"
                                     "  - omp_for: {stmt: 0, loop: k}\n")
    rc, out, err = run_cli("transform", tmp_path / "bt.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 0, err
    assert "read once before the region: grid_points[0], grid_points[1], grid_points[2]" in err, err
    assert "const int grid_points__0 = grid_points[0];" in out and "i = grid_points" not in out, out
    for sizes in (("12", "11", "10"), ("7", "12", "5")):
        args = [x for name, v in zip(("grid_points__0", "grid_points__1", "grid_points__2"), sizes)
                for x in ("-D", f"{name}={v}")]
        rc, out, err = run_cli("run", tmp_path / "bt.c", "--recipe", tmp_path / "r.yaml", *args,
                               "--cflags=-O0 -fopenmp")
        assert rc == 0 and ": ok" in out, (sizes, out + err)
    # an element the region writes is data, not a size
    (tmp_path / "w.c").write_text(GRID.replace("      i = grid_points[0] - 3;\n",
                                               "      grid_points[0] = 5;\n      i = 3;\n"))
    rc, out, err = run_cli("deps", tmp_path / "w.c")
    assert rc == 2 and "array element of 'grid_points' used in an index or bound" in err, err
