"""Probe 61 (DOE proxy apps in C: HPGMG-FV, HPCCG, miniAMR, CoMD): two local pointers that
start in the same array (HPGMG's in-place GSRB, `x_n = x; x_np1 = x;`) are aliases (a reverse
was accepted and `run` called it ok); a region no step touches keeps its text (HPCCG's
`#ifdef USING_OMP` pragma groups)."""
import subprocess
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


PAIRED = """void restrict3(int dim_k, int dim_j, int dim_i, int rj, int rk, int wj, int wk,
                 const double *read, double *write)
{
  int i, j, k;
  int ii, jj, kk;
  for (k = 0, kk = 0; k < dim_k; k++, kk += 2)
    for (j = 0, jj = 0; j < dim_j; j++, jj += 2)
      for (i = 0, ii = 0; i < dim_i; i++, ii += 2) {
        int r = ii + jj * rj + kk * rk;
        write[i + j * wj + k * wk] = (read[r] + read[r + 1] + read[r + rj] + read[r + rk]) * 0.25;
      }
}
void atoms(int nBoxes, int nAtoms, double dt, double *p, const double *f)
{
  for (int iBox = 0; iBox < nBoxes; iBox++)
    for (int iOff = 64 * iBox, ii = 0; ii < nAtoms; ii++, iOff++)
      p[iOff] += dt * f[iOff];
}
"""


@pytest.mark.parametrize("function, recipe, sizes", [
    ("restrict3", "  - tile: {stmt: 0, loop: i, size: 3}\n  - unroll: {stmt: 0, loop: j, factor: 2}\n",
     ("dim_i=5", "dim_j=3", "dim_k=2", "rj=12", "rk=80", "wj=6", "wk=20")),
    ("atoms", "  - unroll: {stmt: 0, loop: ii, factor: 4}\n", ("nBoxes=3", "nAtoms=7")),
])
def test_a_loop_with_a_paired_counter_reads_it_as_the_iterator(tmp_path, function, recipe, sizes):
    # HPGMG's `for (k = 0, kk = 0; k < dim_k; k++, kk += 2)`, CoMD's `iOff = MAXATOMS*iBox, ii = 0`
    f, r, out = tmp_path / "p.c", tmp_path / "r.yaml", tmp_path / "o.c"
    f.write_text(PAIRED)
    r.write_text("steps:\n" + recipe)
    _ok(*run_cli("run", f, "--function", function, "--recipe", r, *[x for s in sizes for x in ("-D", s)]))
    rc, _, err = run_cli("transform", f, "--function", function, "--recipe", r,
                         *[x for s in sizes for x in ("-D", s)], "-o", out)
    assert rc == 0, err
    cc = subprocess.run(["gcc", "-O2", "-Wall", "-Werror", "-c", str(out), "-o", "/dev/null"],
                        capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr


def test_a_paired_counter_read_after_the_loop_is_left_to_the_refusal(tmp_path):
    f = tmp_path / "p.c"
    f.write_text("int f(int n, double *a)\n{\n  int i, k;\n  for (i = 0, k = 0; i < n; i++, k += 2)\n"
                 "    a[k] = 0;\n  return k;\n}\n")
    _one_error(*run_cli("deps", f, "--function", "f"), "exactly one iterator")


@pytest.mark.parametrize("stmt, expected", [
    ("    assert(i >= 0);\n", "the assert inside the region is dropped"),
    ("    (void)k;\n", None),
])
def test_void_statements_in_a_region(tmp_path, stmt, expected):
    # CoMD ljForce's `assert(jBox >= 0);` was "unsupported statement (Cast)"
    f, out = tmp_path / "a.c", tmp_path / "o.c"
    f.write_text("#include <assert.h>\nvoid f(int n, double *a)\n{\n  int k = 0;\n  for (int i = 0; i < n; i++) {\n"
                 + stmt + "    a[i] = 2.0 * a[i];\n  }\n}\n")
    rc, _, err = run_cli("transform", f, "--function", "f", "-o", out)
    assert rc == 0 and (expected in err if expected else "note" not in err), err
    _ok(*run_cli("run", f, "--function", "f", "-D", "n=9"))


def test_a_pointer_loaded_through_a_const_cast_is_named_for_the_load():
    # HPCCG's sparsemv: `(const double * const) A->ptr_to_vals_in_row[i]`
    err = _one_error(*run_cli("deps", DATA / "hpccg.c", "--function", "HPC_sparsemv"),
                     "pointer 'cur_vals' is loaded from memory", "compressed-row")
    assert "another element type" not in err


def test_the_view_suggested_for_a_linearized_subscript_keeps_its_offset():
    # miniAMR's pack: `send_buff[49 + ((v*x + (i-1))*y + (j-1))*z + (k-1)]`
    _one_error(*run_cli("deps", DATA / "amr_pack3.c", "--function", "pack_vals3"),
               "= (double (*)[x_block_size][y_block_size][z_block_size])(send_buff + 49);")


def test_a_counter_used_as_a_subscript_is_told_to_be_written_from_the_loop_counters(tmp_path):
    f = tmp_path / "p.c"
    f.write_text("void pack(int n, int m, const double *a, double *buf)\n{\n  int l = 0;\n"
                 "  for (int i = 0; i < n; i++)\n    for (int j = 0; j < m; j++) {\n      buf[l] = a[i * m + j];\n"
                 "      l++;\n    }\n}\n")
    _one_error(*run_cli("deps", f, "--function", "pack"), "'l' counts as the loops run", "l0 + (i*NJ + j)*NK + k")


def test_deps_pads_the_name_the_user_wrote(tmp_path):
    # XSBench's verification arg-max: `max` is lx_kw_max inside looptx
    f = tmp_path / "m.c"
    f.write_text("double max;\nvoid f(int n, const double *v)\n{\n  for (int j = 0; j < n; j++)\n"
                 "    max = v[j] > max ? v[j] : max;\n}\n")
    rc, out, err = run_cli("deps", f, "--function", "f")
    assert rc == 0, err
    rows = [ln for ln in out.splitlines() if "S0 -> S0" in ln]
    assert rows and all(ln.index("distance") == rows[0].index("distance") for ln in rows), out
    assert " max        distance" in rows[0], out


def test_a_struct_pointers_members_take_its_place_in_the_host_function(tmp_path):
    # miniAMR's stencil_7blk(block *bp, int var): bp->array comes first, as bp did
    rc, cu, err = run_cli("transform", DATA / "amr_stencil7.c", "--function", "stencil_7blk",
                          "--recipe", DATA / "r_amr7_cuda.yaml", "--target", "cuda")
    assert rc == 0, err
    assert 'int stencil_7blk_host_status(double ****bp__array, int var, ' in cu, cu
