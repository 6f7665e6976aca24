"""Probe 60 (lattice QCD: MILC's `complex x, y;` temporaries built by CMUL member by member):
a whole use of a struct whose members the region keeps in variables is refused (it read the
struct as it was before the region: WRONG RESULTS); a local struct that only the region uses
gets no load before it (gcc -Wuninitialized) and no store after it, and may be private."""
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli
from test_probe54 import _ok
from test_probe55 import _one_error

DATA = Path(__file__).resolve().parent / "data" / "probe60"


def test_a_struct_read_whole_while_its_members_are_variables_is_refused():
    _one_error(*run_cli("transform", DATA / "struct_whole.c", "--function", "cmul_field"),
               "struct_whole.c:12:12", "uses the struct 'x' whole", "one assignment per member")


@pytest.mark.parametrize("n", ["17", "1"])
def test_a_local_struct_set_in_the_region_is_neither_loaded_nor_stored(tmp_path, n):
    out = tmp_path / "o.c"
    rc, _, err = run_cli("transform", DATA / "struct_local_members.c", "--function", "cmul_field", "-o", out)
    assert rc == 0, err
    text = out.read_text()
    assert "x__real = x.real" not in text and "x.real = x__real" not in text, text
    cc = subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-c", str(out), "-o", "/dev/null"],
                        capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr
    _ok(*run_cli("run", DATA / "struct_local_members.c", "--function", "cmul_field", "-D", f"n={n}"))


@pytest.mark.parametrize("private", ["[x, y]", "[x__real, x__imag, y__real, y__imag]"])
def test_a_local_struct_of_the_loop_may_be_private(tmp_path, private):
    # MILC's FORALLFIELDSITES_OMP(i, private(x,y))
    r = tmp_path / "r.yaml"
    r.write_text(f"steps:\n  - omp_for: {{stmt: 0, loop: s, private: {private}}}\n"
                 "  - unroll: {stmt: 2, loop: j, factor: 0}\n")
    for sites in ("7", "2"):
        _ok(*run_cli("run", DATA / "struct_private.c", "--function", "matvec_sites", "--recipe", r,
                     "-D", f"sites_on_node={sites}", "--cflags", "-O2 -fopenmp"))
    rc, out, err = run_cli("transform", DATA / "struct_private.c", "--function", "matvec_sites", "--recipe", r)
    assert rc == 0 and "private(i, x__imag, x__real, y__imag, y__real)" in out, out + err


def test_complex_h_functions_are_pure(tmp_path):
    f, r = tmp_path / "z.c", tmp_path / "r.yaml"
    f.write_text("#include <complex.h>\nvoid zdotc(int n, double complex *x, double complex *y, double complex *res)\n"
                 "{\n  double complex sum = 0.0;\n  for (int i = 0; i < n; i++)\n"
                 "    sum += conj(x[i]) * y[i] + cabs(x[i]) * creal(y[i]) + cimag(y[i]);\n  *res = sum;\n}\n")
    r.write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 4}\n")
    for n in ("17", "3"):
        _ok(*run_cli("run", f, "--function", "zdotc", "--recipe", r, "-D", f"n={n}"))


def test_milc_forallsites_pointer_walk_gets_the_index_rewrite():
    _one_error(*run_cli("deps", DATA / "forallsites.c", "--function", "scale_phi"),
               "steps pointer 's' along 'lattice'", "lattice[k].tmp_re for s->tmp_re")


def test_a_view_of_numbers_reads_an_array_inside_an_array_of_structs(tmp_path):
    # MILC's links[i].e[ii][j].real: the remedy is a view before the region, and it works
    f, r = tmp_path / "v.c", tmp_path / "r.yaml"
    body = """typedef struct { double real, imag; } complex;
typedef struct { complex e[3][3]; } su3_matrix;
void f(int n, su3_matrix *links, double *out)
{
  PRE
  for (int i = 0; i < n; i++)
    for (int ii = 0; ii < 3; ii++)
      for (int j = 0; j < 3; j++)
        out[i] += READ;
}
"""
    f.write_text(body.replace("PRE", "").replace("READ", "links[i].e[ii][j].real"))
    _one_error(*run_cli("deps", f, "--function", "f"), "is itself a struct member",
               "double (*links_v)[..][..] = (double (*)[..][..])links;")
    f.write_text(body.replace("PRE", "double (*links_v)[3][3][2] = (double (*)[3][3][2])links;")
                 .replace("READ", "links_v[i][ii][j][0]"))
    r.write_text("steps:\n  - unroll: {stmt: 0, loop: j, factor: 0}\n")
    _ok(*run_cli("run", f, "--function", "f", "--recipe", r, "-D", "n=5"))
