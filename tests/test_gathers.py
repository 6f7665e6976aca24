"""Reads through index arrays (probe 29 B3: ELL SpMV's `x[cols[k]]`, SHOC MD's `posx[jidx]`):
the model takes them as any element of an array the region never writes, the code prints the
subscripts as written, and the harness fills the index arrays with values inside the arrays
they index."""
from __future__ import annotations

import shutil

import pytest

from conftest import case_files, require_gpu, run_cli
from test_cuda_codegen import needs_nvcc, nvcc_compile

gcc = pytest.mark.skipif(shutil.which("gcc") is None,
                         reason="compiles the generated C with gcc, which this machine lacks")

ELL = """void spmv_ell(int nrows, int nnz, const double *coefs, const int *cols, const double *x, double *y)
{
  int row, i;
  double sum;
#pragma scop
  for (row = 0; row < nrows; row++) {
    sum = 0.0;
    for (i = 0; i < nnz; i++)
      sum += coefs[row * nnz + i] * x[cols[row * nnz + i]];
    y[row] = sum;
  }
#pragma endscop
}
"""

MD = """void md(int nAtom, int maxNeighbors, const double *posx, const double *posy, const int *neighList,
        double *fx, double *fy)
{
  int i, j, jidx;
  double dx, dy, r2, f;
#pragma scop
  for (i = 0; i < nAtom; i++) {
    fx[i] = 0.0; fy[i] = 0.0;
    for (j = 0; j < maxNeighbors; j++) {
      jidx = neighList[j * nAtom + i];
      dx = posx[i] - posx[jidx];
      dy = posy[i] - posy[jidx];
      r2 = dx * dx + dy * dy + 1.0;
      f = 1.0 / r2;
      fx[i] += dx * f;
      fy[i] += dy * f;
    }
  }
#pragma endscop
}
"""

# the softening term keeps a random neighbour list that names the atom itself finite
MD_CUTOFF = """void md(int nAtom, int maxNeighbors, double cutsq, double lj1, double lj2,
        const double *posx, const double *posy, const double *posz, const int *neighList,
        double *fx, double *fy, double *fz)
{
  int i, j, jidx;
  double ipx, ipy, ipz, fxi, fyi, fzi, delx, dely, delz, r2inv, r6inv, force;
#pragma scop
  for (i = 0; i < nAtom; i++) {
    ipx = posx[i]; ipy = posy[i]; ipz = posz[i];
    fxi = 0.0; fyi = 0.0; fzi = 0.0;
    for (j = 0; j < maxNeighbors; j++) {
      jidx = neighList[j * nAtom + i];
      delx = ipx - posx[jidx];
      dely = ipy - posy[jidx];
      delz = ipz - posz[jidx];
      r2inv = delx * delx + dely * dely + delz * delz + 0.01;
      if (r2inv < cutsq) {
        r2inv = 1.0 / r2inv;
        r6inv = r2inv * r2inv * r2inv;
        force = r2inv * r6inv * (lj1 * r6inv - lj2);
        fxi += delx * force;
        fyi += dely * force;
        fzi += delz * force;
      }
    }
    fx[i] = fxi; fy[i] = fyi; fz[i] = fzi;
  }
#pragma endscop
}
"""

MD_PRIVATE = "[ipx, ipy, ipz, fxi, fyi, fzi, jidx, delx, dely, delz, r2inv, r6inv, force]"

PERM = """void g(int n, int m, const double A[n][m], const int *perm, const double *x, double *y)
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      y[i] = y[i] + A[perm[i] - 1][j] * x[j];
#pragma endscop
}
"""



@gcc
@pytest.mark.parametrize("code, recipe, sizes", [
    (ELL, "steps:\n  - privatize: {var: sum, at: row}\n  - tile: {stmt: 1, loop: row, size: 8}\n"
          "  - unroll: {stmt: 1, loop: i, factor: 4}\n", ["nrows=53", "nnz=7"]),
    (ELL, "steps:\n  - privatize: {var: sum, at: row}\n  - omp_for: {stmt: 0, loop: row}\n", ["nrows=64", "nnz=5"]),
    (MD, "steps:\n  - omp_for: {stmt: 0, loop: i, private: [jidx, dx, dy, r2, f]}\n", ["nAtom=67", "maxNeighbors=9"]),
    (MD_CUTOFF, "steps:\n  - omp_for: {stmt: 0, loop: i, private: %s}\n" % MD_PRIVATE, ["nAtom=71", "maxNeighbors=13"]),
    (PERM, "steps:\n  - tile: {stmt: 0, loop: i, size: 4}\n  - unroll: {stmt: 0, loop: j, factor: 4}\n",
     ["n=30", "m=13"]),
])
def test_reads_through_index_arrays_transform_and_validate(tmp_path, code, recipe, sizes):
    src, r = case_files(tmp_path, code, recipe)
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 0, err
    rc, out, err = run_cli("run", src, "--recipe", r, *[a for s in sizes for a in ("-D", s)],
                           "--cflags", "-O2 -fopenmp")
    assert rc == 0 and ": ok" in out, out + err


def test_the_subscripts_are_printed_as_written_with_the_new_loops(tmp_path):
    src, r = case_files(tmp_path, ELL, "steps:\n  - privatize: {var: sum, at: row}\n"
                                   "  - tile: {stmt: 1, loop: i, size: 4, control: ii}\n"
                                   "  - unroll: {stmt: 1, loop: i, factor: 2}\n")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 0 and "x[cols[row * nnz + i]]" in out and "x[cols[row * nnz + (i + 1)]]" in out, out + err


def test_a_branch_that_changes_its_own_condition_takes_it_first(tmp_path):
    # SHOC MD's `if (r2inv < cutsq) { r2inv = 1.0 / r2inv; ... }`: the later statements of the
    # arm must still see the condition as it was before the first one ran
    src, r = case_files(tmp_path, MD_CUTOFF, "steps:\n  - omp_for: {stmt: 0, loop: i, private: %s}\n" % MD_PRIVATE)
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 0, err
    assert out.count("int lx_c17_7;") == 1 and "lx_c17_7 = r2inv < cutsq;" in out, out
    assert "r2inv = lx_c17_7 ? 1.0 / r2inv : r2inv;" in out and "fxi = lx_c17_7 ? fxi + delx * force : fxi;" in out, out
    assert "lx_c17_7, r2inv" in out, out           # private to each thread with the others


def test_an_array_the_region_writes_is_still_refused_through_an_index(tmp_path):
    scatter = ELL.replace("    y[row] = sum;\n", "    y[cols[row]] = sum;\n")
    src, r = case_files(tmp_path, scatter, "steps: []\n")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 2 and "non-affine subscript of 'y'" in err, err
    inplace = ELL.replace("const double *x", "double *x").replace("    y[row] = sum;\n", "    x[row] = sum;\n")
    src.write_text(inplace)
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 2 and "non-affine subscript of 'x'" in err, err


@pytest.mark.parametrize("step", ["registers: {stmt: 1, array: x, at: row}",
                                  "scalar_replace: {stmt: 1, array: x, at: i}"])
def test_a_copy_of_an_array_read_through_indexes_is_refused(tmp_path, step):
    src, r = case_files(tmp_path, ELL, "steps:\n  - %s\n" % step)
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 2 and "'x' is read through an index array in S1" in err, err


def test_an_index_whose_values_the_harness_cannot_choose_is_said(tmp_path):
    code = ELL.replace("x[cols[row * nnz + i]]", "x[cols[row * nnz + i] / 2]")
    src, r = case_files(tmp_path, code, "steps: []\n")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 0, err
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "nrows=8", "-D", "nnz=3")
    assert rc == 2 and "reads 'x' at [cols[row * nnz + i] / 2]" in err, err


def test_an_index_that_numbers_rows_of_a_constant_length_is_chosen(tmp_path):
    """`x[2 * cols[k]]`: the index numbers rows of 2 elements, the first of each read."""
    code = ELL.replace("x[cols[row * nnz + i]]", "x[2 * cols[row * nnz + i]]")
    src, r = case_files(tmp_path, code, "steps:\n  - unroll: {stmt: 1, loop: i, factor: 2}\n")
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "nrows=8", "-D", "nnz=3", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


CUDA = "steps:\n  - privatize: {var: sum, at: row}\n  - tile: {stmt: 1, loop: row, size: 64, control: rb}\n" \
       "  - cuda: {stmt: 1, block: [rb], thread: [row]%s}\n"


def test_cuda_needs_the_count_of_an_array_read_through_indexes(tmp_path):
    src, r = case_files(tmp_path, ELL, CUDA % "")
    rc, out, err = run_cli("transform", src, "--recipe", r, "--target", "cuda")
    assert rc == 2 and "reads it through an index array" in err and "sizes: {x: COUNT}" in err, err


@needs_nvcc
def test_cuda_with_the_count_compiles(tmp_path):
    src, r = case_files(tmp_path, ELL, CUDA % ", sizes: {x: nrows}")
    rc, out, err = run_cli("transform", src, "--recipe", r, "--target", "cuda")
    assert rc == 0 and "x[cols[(tx + 64 * bx) * nnz + i]]" in out, err
    assert nvcc_compile(out) is None


@pytest.mark.gpu
def test_cuda_gather_validates_on_the_gpu(tmp_path):
    require_gpu()
    src, r = case_files(tmp_path, ELL, CUDA % ", sizes: {x: nrows}")
    rc, out, err = run_cli("run", src, "--recipe", r, "--target", "cuda", "-D", "nrows=300", "-D", "nnz=9")
    assert rc == 0 and ": ok" in out, out + err
