"""Probe 34 (polyhedral compilers' own test inputs: Pluto, PolyBench 3.2): an iterator read
after its loop holds the value that ended it (fdtd-apml), a fuse that needs shifts says which,
the function's unused loop counters are silenced in every output, and `run -D` says when
`transform` without -D refuses the recipe."""
import subprocess
from pathlib import Path

import pytest

from conftest import case_files, run_cli

DATA = Path(__file__).resolve().parent / "data" / "probe34"

AFTER = """\
void f(int Cz, int Cym, double clf[40][40], double e[40][40], double x[40])
{
  int iz, iy;
#pragma scop
  for (iz = 0; iz < Cz; iz++) {
    for (iy = 0; iy < Cym; iy++)
      clf[iz][iy] = e[iz][iy];
    clf[iz][iy] = e[iz][Cym] + iy;
    if (iy > 2)
      x[iz] = clf[iz][iy - 1];
  }
#pragma endscop
}
"""


@pytest.mark.parametrize("cym", ["7", "1", "0"])
def test_an_iterator_read_after_its_loop_holds_the_value_that_ended_it(tmp_path, cym):
    src, r = case_files(tmp_path, AFTER, "steps:\n  - omp_for: {stmt: 0, loop: iz}\n"
                        "  - tile: {stmt: 0, loop: iy, size: 4}\n")
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "Cz=5", "-D", f"Cym={cym}", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


def test_pluto_fdtd_apml_runs():
    r = DATA / "apml.yaml"
    rc, out, err = run_cli("run", DATA / "pluto_fdtd_apml.c", "--recipe", r, "-D", "Cz=5", "-D", "Cym=7",
                           "-D", "Cxm=9", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("code, where", [
    # after the loops around the finished loop: iy is what the last iz left, or unset
    (AFTER.replace("  }\n#pragma endscop", "  }\n  x[0] = clf[0][iy];\n#pragma endscop"), "12:10"),
    # a step of two: the value is not the bound
    (AFTER.replace("iy++)", "iy += 2)"), "8:"),
], ids=["outside-its-loops", "step-2"])
def test_an_iterator_whose_value_is_not_followed_is_refused(tmp_path, code, where):
    src, r = case_files(tmp_path, code, "steps: []\n")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 2 and f"k.c:{where}" in err and "is read after its loop" in err, err
    assert len(err.strip().splitlines()) == 1, err


def test_a_fuse_that_needs_shifts_names_them_and_they_work(tmp_path):
    """Pluto's multi-stmt-stencil-seq test expects shifts of 1 to 4 before the fusion."""
    src = DATA / "pluto_multistmt.c"
    r = tmp_path / "f.yaml"
    r.write_text("steps:\n  - fuse: {stmts: [0, 1, 2, 3, 4], loop: i}\n")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    shifts = [f"shift: {{stmt: {k}, loop: i, by: {k}}}" for k in range(1, 5)]
    assert rc == 2 and "RAW on a1" in err and all(s in err for s in shifts), err
    r.write_text("steps:\n" + "".join(f"  - {s}\n" for s in shifts) + "  - fuse: {stmts: [0, 1, 2, 3, 4], loop: i}\n")
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "n=23", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


def test_a_fuse_that_no_shift_makes_legal_keeps_the_general_hint(tmp_path):
    code = """void f(int n, double *a) {
  int i;
#pragma scop
  for (i = 1; i < n; i++) a[i] = a[i] + 1.0;
  for (i = 1; i < n; i++) a[n - i] = a[i - 1] * 2.0;
#pragma endscop
}
"""
    src, r = case_files(tmp_path, code, "steps:\n  - fuse: {stmts: [0, 1], loop: i}\n")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 2 and "the fuse breaks a dependence of the original program, and no shift" in err \
        and "shift:" not in err, err


CORCOL = """\
void f(int n, int m, float data[40][40], float mean[40]) {
  int i, j;
#pragma scop
  for (i = 1; i <= n; i++)
    for (j = 1; j <= m; j++)
      data[i][j] -= mean[j];
#pragma endscop
}
"""


JACOBI = """\
void f(int T, int N, double *a, double *b) {
  int t, i, j;
#pragma scop
  for (t = 0; t < T; t++) {
    for (i = 2; i < N - 1; i++)
      b[i] = 0.33333 * (a[i-1] + a[i] + a[i + 1]);
    for (j = 2; j < N - 1; j++)
      a[j] = b[j];
  }
#pragma endscop
}
"""


@pytest.mark.parametrize("code, recipe, silenced", [
    (CORCOL, "  - tile: {stmt: 0, loop: j, size: 32, control: jj}\n  - cuda: {stmt: 0, block: [jj, i], thread: [j]}\n",
     ["(void)i;", "(void)j;"]),
    (JACOBI, "  - shift: {stmt: 1, loop: j, by: 1}\n  - fuse: {stmts: [0, 1], loops: [i, j]}\n", ["(void)j;"]),
], ids=["cuda-emulation", "fuse"])
def test_the_functions_unused_loop_counters_are_silenced(tmp_path, code, recipe, silenced):
    src, r = case_files(tmp_path, code, "steps:\n" + recipe)
    out_c = tmp_path / "out.c"
    rc, out, err = run_cli("transform", src, "--recipe", r, "-o", out_c)
    assert rc == 0, err
    text = out_c.read_text()
    assert all(s in text for s in silenced) and "unrolled away" not in text, text
    p = subprocess.run(["gcc", "-c", "-Wall", "-Wno-unknown-pragmas", "-Werror", str(out_c), "-o",
                        str(tmp_path / "o.o")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr + text


def test_run_says_when_transform_without_sizes_refuses_the_recipe(tmp_path):
    code = """void f(int maxgrid, int length, int diff[8][8][64], int sum_tang[8][8])
{
  int i, j, cnt;
#pragma scop
  for (j = 0; j <= maxgrid - 1; j++)
    for (i = j; i <= maxgrid - 1; i++)
      for (cnt = 0; cnt <= length - 1; cnt++)
        diff[j][i][cnt] = sum_tang[j][i];
#pragma endscop
}
"""
    src, r = case_files(tmp_path, code, "steps:\n  - cuda: {stmt: 0, block: [j], thread: [i]}\n")
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "maxgrid=6", "-D", "length=5", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err
    assert "r.yaml:2: note: without -D, `looptx transform` refuses this recipe (step 1 (cuda): thread loop 'i'" in err, err
