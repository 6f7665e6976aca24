"""Probe 61 (DOE proxy apps in C: HPGMG-FV, HPCCG, miniAMR, CoMD): two local pointers that
start in the same array (HPGMG's in-place GSRB, `x_n = x; x_np1 = x;`) are aliases (a reverse
was accepted and `run` called it ok); a region no step touches keeps its text (HPCCG's
`#ifdef USING_OMP` pragma groups)."""
from pathlib import Path

import pytest

from conftest import run_cli
from test_probe54 import _ok
from test_probe55 import _one_error

DATA = Path(__file__).resolve().parent / "data" / "probe61"


@pytest.mark.parametrize("name, function, origin", [("alias_gs.c", "gs_alias", "x"),
                                                    ("alias_gs2.c", "gs_alias2", "x"),
                                                    ("alias_gs3.c", "gs_alias3", "vectors[x_id]")])
def test_two_pointers_into_one_array_are_aliases(tmp_path, name, function, origin):
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - reverse: {stmt: 0, loop: i}\n")
    _one_error(*run_cli("transform", DATA / name, "--function", function, "--recipe", r),
               f"'x_np1' and 'x_n' both point into {origin}", "use one pointer")


def test_pointers_into_different_rows_of_a_table_are_not_refused(tmp_path):
    # HPGMG's out-of-place form reads vectors[x_id] and writes vectors[x_np1_id]: distinct by
    # the same promise as distinct pointer parameters
    src = tmp_path / "oop.c"
    src.write_text((DATA / "alias_gs3.c").read_text().replace("int x_id", "int x_id, int y_id")
                   .replace("double *x_np1 = vectors[x_id]", "double *x_np1 = vectors[y_id]"))
    rc, out, err = run_cli("deps", src, "--function", "gs_alias3")
    assert rc == 0 and "parallel" in out, out + err


def test_a_region_no_step_touches_keeps_its_text_and_its_pragma_group(tmp_path):
    # HPCCG's waxpby, three marked nests each under `#ifdef USING_OMP / #pragma omp parallel
    # for / #endif`: a recipe for the third left the other two regenerated without their pragmas
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - unroll: {stmt: 2, loop: i, factor: 3}\n")
    rc, out, err = run_cli("transform", DATA / "hpccg_waxpby_scop.c", "--recipe", r)
    assert rc == 0, err
    assert out.count("#pragma omp parallel for") == 2 and out.count("#ifdef USING_OMP") == 2, out
    assert "for (int i=0; i<n; i++) w[i] = x[i] + beta * y[i];" in out, out
    # the third region's group is dropped, and said so although this build does not take it
    assert err.count("inside the region is dropped") == 1 and "hpccg_waxpby_scop.c:25:1" in err, err
    assert "a branch of a conditional this build does not take" in err, err
    _ok(*run_cli("run", DATA / "hpccg_waxpby_scop.c", "--recipe", r, "-D", "n=10"))


def test_an_index_temporary_built_with_shifts_is_its_expression(tmp_path):
    # HPGMG restriction's `int read_i = (i<<1);` (and a `>>` of a value that may be negative)
    f, r = tmp_path / "s.c", tmp_path / "r.yaml"
    f.write_text("void f(int n, const double *read, double *write)\n{\n  for (int i = 0; i < n; i++) {\n"
                 "    int read_i = (i<<1);\n    int k = (i - 3) >> 1;\n"
                 "    write[i] = (read[read_i] + read[read_i+1]) * 0.5 + read[k + 3];\n  }\n}\n")
    r.write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 3}\n")
    for n in ("10", "7"):
        _ok(*run_cli("run", f, "--function", "f", "--recipe", r, "-D", f"n={n}"))
