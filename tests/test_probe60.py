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
