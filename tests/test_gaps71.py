"""Gaps found in session 71 (known from probes 203 and 205, and probes 206-209)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli, same_output_c, transform_case

DATA = Path(__file__).parent / "data" / "gaps71"
SIZES = [["1"], ["2"], ["5"], ["9"], ["16"]]
TILES = "steps:\n  - tile: {stmt: 0, loop: i, size: 4}\n  - tile: {stmt: 0, loop: j, size: 8}\n"
DOUBLE = """void k(int n, double *a) {
#pragma scop
  for (int i = 0; i < n; i++)
    a[i] = a[i] * 2.0;
#pragma endscop
}
"""


def tiled_as_written(tmp_path, src: Path) -> tuple[str, str]:
    """`src` tiled (TILES) into o.c, which computes what `src` does (main_nn.c at SIZES): the
    output and the transform's stderr."""
    (tmp_path / "r.yaml").write_text(TILES)
    rc, _, err = run_cli("transform", src, "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o.c")
    assert rc == 0, err
    same_output_c(tmp_path, src, tmp_path / "o.c", (DATA / "main_nn.c").read_text(), SIZES)
    return (tmp_path / "o.c").read_text(), err


@pytest.mark.parametrize("directive", ['#ident "v1.2"', "#", "  #  ", '#warning "tuned"', '#sccs "x"',
                                       "#include_next <stdio.h>", "#assert machine(x86_64)"])
def test_gcc_directives_outside_the_region_are_the_preprocessors(tmp_path, directive):
    """Probe 203: the null directive and gcc's #ident, #warning, #include_next ... failed the
    parse with pycparser's 'Directives not supported yet'; cpp reads them (and the output keeps
    them)."""
    rc, out, err = transform_case(tmp_path, directive + "\n" + DOUBLE, "tile: {stmt: 0, loop: i, size: 4}")
    assert rc == 0, err
    assert out.split("*/\n", 1)[1].startswith(directive + "\n") and "ii" in out


def test_an_error_directive_is_the_preprocessors_error(tmp_path):
    rc, _, err = transform_case(tmp_path, '#error "configure first"\n' + DOUBLE, "tile: {stmt: 0, loop: i, size: 4}")
    assert rc == 2 and err.startswith(f"{tmp_path / 'k.c'}:1:2: error: preprocessor: #error"), err


def test_an_unterminated_comment_is_named_where_it_opens(tmp_path):
    """Probe 203: a `/*` left open swallowed `#pragma endscop`, and the error blamed the marker."""
    src = DOUBLE.replace("a[i] = a[i] * 2.0;", "a[i] = a[i] * 2.0; /* scale")
    rc, _, err = transform_case(tmp_path, src, "tile: {stmt: 0, loop: i, size: 4}")
    assert rc == 2 and err.strip() == f"{tmp_path / 'k.c'}:4:24: error: unterminated comment (close it with */)", err


@pytest.mark.parametrize("layout", ["lines", "inline"])
def test_pragma_operator_markers_mark_a_region(tmp_path, layout):
    """Probe 205 G2: C99's `_Pragma("scop")` is `#pragma scop` (pet and PPCG read both)."""
    src = DOUBLE.replace("double *a)", "double *a, double *b, double *c)")
    src = src.replace("k(int", "kern(int").replace("a[i] = a[i] * 2.0;", "for (int j = 0; j < n; j++) a[i*n + j] = a[i*n + j] * 2.0 + b[j*n + i];")
    if layout == "lines":
        src = src.replace("#pragma scop", '_Pragma("scop")').replace("#pragma endscop", '_Pragma("endscop")')
    else:
        src = src.replace("#pragma scop\n  for", '  _Pragma("scop") for').replace(
            ";\n#pragma endscop", '; _Pragma("endscop")')
    (tmp_path / "k.c").write_text(src)
    out, _ = tiled_as_written(tmp_path, tmp_path / "k.c")
    assert 'Pragma("scop")' in out and 'Pragma("endscop")' in out and "jj" in out


def test_a_marker_through_a_macro_is_named_as_such(tmp_path):
    src = '#define SCOP _Pragma("scop")\n#define ENDSCOP _Pragma("endscop")\n' + \
        DOUBLE.replace("#pragma scop", "  SCOP").replace("#pragma endscop", "  ENDSCOP")
    rc, _, err = transform_case(tmp_path, src, "tile: {stmt: 0, loop: i, size: 4}")
    assert rc == 2 and "k.c:1:1: error: a region marker through a macro" in err \
        and "write #pragma scop" in err, err


def test_gcc_builtins_in_helpers_conditions_and_subscripts(tmp_path):
    """Probe 205 G3: __builtin_sqrt/fabs in a helper made it impure, likely()'s __builtin_expect,
    __builtin_inf/nan/huge_val/powi were 'may have side effects', __builtin_abs no subscript."""
    out, _ = tiled_as_written(tmp_path, DATA / "builtins.c")
    assert "jj" in out and '__builtin_nan("")' in out and "__builtin_powi(" in out
    # a string of another call is still no number
    src = (DATA / "builtins.c").read_text().replace('__builtin_nan("")', 'strlen("ab")')
    rc, _, err = transform_case(tmp_path, "#include <string.h>\n" + src, "tile: {stmt: 0, loop: i, size: 4}")
    assert rc == 2 and "strlen" in err, err


def test_rows_of_2n_spelled_2_times_a_row_product_with_an_interior_in_row_loop(tmp_path):
    """Probe 205 G5: `a[2*((i-1)*n) + j + 1]` with j in [1, 2n-1) are rows of 2*n, as
    `(i-1)*2*n` is; an in-row loop that stops short of the row's end reads so too."""
    src = DATA / "rows_2n_interior.c"
    for spelled in ("2*(i*n)", "i*2*n"):
        text = src.read_text() if spelled == "2*(i*n)" else \
            src.read_text().replace("2*(i*n)", "i*2*n").replace("2*((i-1)*n)", "(i-1)*2*n")
        (tmp_path / "k.c").write_text(text)
        _, err = tiled_as_written(tmp_path, tmp_path / "k.c")
        assert "lx_row = 2 * n" in err, err


@pytest.mark.parametrize("cast", ["(unsigned char)(i * m)", "(unsigned char)(i * m + j)",
                                  "(unsigned short)((i * m + j) * 200)", "(short)(i * m) + j"])
def test_a_narrowing_cast_of_a_row_product_is_refused(tmp_path, cast):
    """Probe 209 G1: `y[(unsigned char)(i * m)]` lost its cast (the model and the output wrote
    y[i * m], past the array); the range of a product cannot be checked."""
    src = ("void kern(int n, int m, double *y, const double *a) {\n  int i, j;\n#pragma scop\n"
           "  for (i = 0; i < n; i++)\n    for (j = 0; j < m; j++)\n"
           f"      y[{cast}] = a[i];\n#pragma endscop\n}}\n")
    rc, _, err = transform_case(tmp_path, src, "tile: {stmt: 0, loop: i, size: 4}")
    assert rc == 2 and "k.c:6:7: error: non-affine subscript of 'y': the cast (" in err \
        and "looptx cannot check the range of the product" in err, err


def test_a_widening_cast_of_a_row_product_is_read(tmp_path):
    src = ("void kern(int n, int m, double *y, const double *a) {\n  int i, j;\n#pragma scop\n"
           "  for (i = 0; i < n; i++)\n    for (j = 0; j < m; j++)\n"
           "      y[(long)(i * m) + j] = a[i];\n#pragma endscop\n}\n")
    rc, out, err = transform_case(tmp_path, src, "tile: {stmt: 0, loop: i, size: 4}")
    assert rc == 0 and "ii" in out, err


def test_a_default_macro_of_the_file_is_guarded_before_its_group(tmp_path):
    """Probe 209 G2: `#ifndef IDX / #define IDX(i, j) ... / #endif` expanded in the output with
    no guard: a build with -D'IDX(i,j)=...' computed another layout than the file.  The guard
    goes before the group, where the test still reads the build's definition."""
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 4}\n")
    rc, _, err = run_cli("transform", DATA / "ifndef_default.c", "--recipe", tmp_path / "r.yaml",
                         "-o", tmp_path / "o.c")
    assert rc == 0, err
    out = (tmp_path / "o.c").read_text()
    assert "#ifndef IDX\n#else\n#error" in out and "y[i * m + j]" in out
    runs = []
    for flags in ([], ["-DIDX(i,j)=((j)*n+(i))"]):
        for k, c in enumerate((DATA / "ifndef_default.c", tmp_path / "o.c")):
            p = subprocess.run(["gcc", "-O1", *flags, str(c), "-o", str(tmp_path / f"x{k}")],
                               capture_output=True, text=True)
            runs.append(subprocess.run([tmp_path / f"x{k}"], capture_output=True, text=True).stdout
                        if p.returncode == 0 else "#error" if "#error" in p.stderr else p.stderr)
    assert runs[0] == runs[1] and runs[0].split() == ["0", "1", "2", "10", "11", "12"], runs
    assert runs[2].split() == ["0", "10", "1", "11", "2", "12"] and runs[3] == "#error", runs


def test_line_after_a_line_directive_is_cs_number(tmp_path):
    """Probe 209 G3: `__LINE__` after `#line 100` was the physical line (8, not 101)."""
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 2}\n")
    rc, _, err = run_cli("transform", DATA / "line_value.c", "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o.c")
    assert rc == 0 and "y[i] = 101;" in (tmp_path / "o.c").read_text(), err
    got = []
    for k, c in enumerate((DATA / "line_value.c", tmp_path / "o.c")):
        subprocess.run(["gcc", "-O1", str(c), "-o", str(tmp_path / f"x{k}")], check=True)
        got.append(subprocess.run([tmp_path / f"x{k}"], capture_output=True, text=True).stdout)
    assert got[0] == got[1] and "101" in got[0], got


def test_rows_of_2m_with_a_centred_in_row_index(tmp_path):
    """Probe 209 G5: `a[i*(2*m) + j + m]`, j in [-m, m), was read as rows of m (refused, with
    the view of rows of m as the remedy)."""
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 4}\n  - unroll: {stmt: 0, loop: j, factor: 3}\n")
    rc, _, err = run_cli("transform", DATA / "centred_rows.c", "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o.c")
    assert rc == 0 and "lx_row = 2 * m" in err, err
    same_output_c(tmp_path, DATA / "centred_rows.c", tmp_path / "o.c", (DATA / "main_centred.c").read_text(),
                  [["1", "1"], ["5", "3"], ["8", "7"], ["3", "0"]])


@pytest.mark.parametrize("name", ["UINT_MAX", "CHAR_BIT", "SHRT_MAX", "UCHAR_MAX", "INT64_MAX", "SIZE_MAX"])
def test_limits_constants_are_the_headers(tmp_path, name):
    """Probe 209 G6: UINT_MAX, CHAR_BIT, SHRT_MAX were undeclared identifiers."""
    src = "#include <limits.h>\n#include <stdint.h>\n" + DOUBLE.replace("a[i] * 2.0", f"a[i] * 2.0 + {name} * 1e-30")
    rc, out, err = transform_case(tmp_path, src, "tile: {stmt: 0, loop: i, size: 4}")
    assert rc == 0 and "ii" in out, err


@pytest.mark.parametrize("counter,ntype,test,ok", [
    ("unsigned", "unsigned", "(unsigned)-1", True), ("unsigned", "unsigned", "-1u", True),
    ("unsigned", "unsigned", "UINT_MAX", True), ("unsigned", "unsigned", "-1", True),
    ("size_t", "size_t", "SIZE_MAX", True), ("size_t", "size_t", "(size_t)-1", True),
    ("unsigned long", "unsigned long", "~0ul", True), ("size_t", "size_t", "-1u", False),
    ("unsigned", "unsigned", "-1L", False),
    # an int n converts to the counter's type as n - 1 does (probe 210 G3)
    ("unsigned", "int", "(unsigned)-1", True), ("size_t", "int", "SIZE_MAX", True),
    # an int counter compared with the wrapped value: C compares as unsigned (probe 210 G1)
    ("int", "int", "(unsigned)-1", False)])
def test_a_countdown_to_the_wrapped_value(tmp_path, counter, ntype, test, ok):
    """Probe 209 G7: `for (i = n - 1; i != (unsigned)-1; --i)` stops where the unsigned counter
    wraps past 0, as `i < n` does; at another width the test never meets it (refused)."""
    src = ("#include <limits.h>\n#include <stdint.h>\n#include <stddef.h>\n"
           f"void kern({ntype} n, double *restrict y, const double *restrict a)\n{{\n"
           f"    {counter} i;\n#pragma scop\n    for (i = n - 1; i != {test}; --i)\n"
           "        y[i] = a[i] * 2.0 + (i > 0 ? a[i-1] : 0);\n#pragma endscop\n}\n")
    rc, _, err = transform_case(tmp_path, src, "tile: {stmt: 0, loop: i, size: 2}", "-o", str(tmp_path / "o.c"))
    if not ok:
        assert rc == 2 and ("where C wraps it around" in err or "makes a negative value a huge one" in err), err
        return
    assert rc == 0, err
    same_output_c(tmp_path, tmp_path / "k.c", tmp_path / "o.c", (DATA / "main_countdown.c").read_text().replace("COUNTER", ntype),
                  [["0"], ["1"], ["5"], ["8"]])


def test_a_copy_loads_no_element_the_scope_writes_before_it_reads(tmp_path):
    """Probe 204 G2: B's tile buffer was loaded though the scope sets each element of B before it
    reads it; A's, whose elements are read before they are written, still is."""
    (tmp_path / "r.yaml").write_text("steps:\n  - datacopy: {stmt: 0, array: A, at: t}\n"
                                     "  - datacopy: {stmt: 0, array: B, at: t}\n")
    rc, _, err = run_cli("transform", DATA / "jac2.c", "--recipe", tmp_path / "r.yaml", "-D", "T=5", "-D", "n=17",
                         "-o", tmp_path / "o.c")
    assert rc == 0, err
    out = (tmp_path / "o.c").read_text()
    assert "A_buf[c3] = A[c3]" in out and "B[c3] = B_buf[" in out and not re.search(r"B_buf\[.*\] = B\[", out), out
    same_output_c(tmp_path, DATA / "jac2.c", tmp_path / "o.c", (DATA / "main_jac2.c").read_text(), [["5", "17"]])


def test_a_read_in_a_conditional_branch_loads_what_the_branch_reads(tmp_path):
    """Probe 204 G3: `j + 1 < m ? A[i][j + 1] : 0.0` refused a datacopy of A (the load read the
    whole footprint, past the array's end); the load is the branch's elements."""
    (tmp_path / "r.yaml").write_text(
        "steps:\n  - tile: {stmt: 0, loop: i, size: 4, control: ii}\n  - tile: {stmt: 0, loop: j, size: 8, control: jj}\n"
        "  - permute: {stmt: 0, order: [ii, jj, i, j]}\n  - datacopy: {stmt: 0, array: A, at: jj}\n")
    rc, _, err = run_cli("transform", DATA / "guarded_reads.c", "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o.c")
    assert rc == 0, err
    out = (tmp_path / "o.c").read_text()
    assert "c7 <= lx_min(m - 1, 8 * jj + 8)" in out and "lx_max(0, 8 * jj - 1)" in out, out
    same_output_c(tmp_path, DATA / "guarded_reads.c", tmp_path / "o.c", (DATA / "main_rw.c").read_text(),
                  [["13", "21"], ["16", "16"], ["1", "1"], ["5", "3"], ["9", "30"]])


def test_a_parameters_extent_is_no_size_of_at_least_one(tmp_path):
    """Probe 206 G1: `double b[n]` as a parameter made the model assume n >= 1, and a peeled
    first iteration ran unguarded at n = 0 (reading b[0]); a parameter's extent is a pointer's."""
    (tmp_path / "r.yaml").write_text("steps:\n  - peel: {stmt: 0, loop: t, first: 1}\n")
    rc, _, err = run_cli("transform", DATA / "peel_vla.c", "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o.c")
    assert rc == 0, err
    assert "if (n >= 1)" in (tmp_path / "o.c").read_text()
    same_output_c(tmp_path, DATA / "peel_vla.c", tmp_path / "o.c", (DATA / "main_peel.c").read_text(),
                  [["0", "3"], ["1", "3"], ["4", "2"]])


ST5_SHARED = ("steps:\n  - tile: {stmt: 0, loop: j, size: 8, control: jt}\n  - tile: {stmt: 0, loop: i, size: 4, control: it}\n"
              "  - permute: {stmt: 0, order: [it, jt, i, j]}\n  - cuda: {stmt: 0, block: [jt, it], thread: [j, i]}\n"
              "  - shared: {stmt: 0, array: A, at: jt}\n")


def test_a_kernel_starts_without_a_barrier_before_its_first_copy(tmp_path):
    """Probe 207 Q2: a shared copy that no loop repeats in the block had a barrier before its
    loads, where no thread has used the buffer yet; the one between loads and use stays."""
    from test_cuda_codegen import NVCC, nvcc_compile
    (tmp_path / "r.yaml").write_text(ST5_SHARED)
    rc, out, err = run_cli("transform", DATA / "st5.c", "--recipe", tmp_path / "r.yaml", "--target", "cuda")
    assert rc == 0, err
    kernel = out[out.index("__global__"):]
    kernel = kernel[:kernel.index("\n}\n")]
    assert kernel.count("__syncthreads();") == 1 and kernel.index("A_sh[ty][") < kernel.index("__syncthreads();")
    if NVCC is not None:
        assert nvcc_compile(out) is None


@pytest.mark.gpu
def test_a_kernel_without_its_leading_barrier_validates_on_the_gpu(tmp_path):
    from conftest import require_gpu
    require_gpu()
    (tmp_path / "r.yaml").write_text(ST5_SHARED)
    for n, m in (("37", "45"), ("64", "64")):
        rc, out, err = run_cli("run", DATA / "st5.c", "--recipe", tmp_path / "r.yaml", "--target", "cuda",
                               "-D", f"n={n}", "-D", f"m={m}")
        assert rc == 0 and ": ok" in out, out + err


def test_a_shared_buffer_layout_removes_a_bank_conflict(tmp_path):
    """Probe 207 Q3: a shared buffer kept the array's subscript order, so a warp whose x threads
    run along A's first subscript read down a column (an 8-way conflict, which padding does not
    change).  The note says which `layout` removes it; with it the buffer has a innermost, and
    the .cu computes what the original does (run on CPU threads)."""
    from cuda_on_threads import compare_host
    from test_cuda_codegen import NVCC, nvcc_compile
    rc, _, err = run_cli("transform", DATA / "tc01.c", "--recipe", DATA / "tc01.yaml", "--target", "cuda")
    assert rc == 0 and "8-way shared-memory bank conflict" in err and "`layout: [1, 2, 0]` on its shared step" in err, err
    cu_path = tmp_path / "tc01.cu"
    rc, _, err = run_cli("transform", DATA / "tc01.c", "--recipe", DATA / "tc01_layout.yaml", "--target", "cuda",
                         "-o", cu_path)
    assert rc == 0 and "conflict" not in err, err
    cu = cu_path.read_text()
    assert "__shared__ double A_sh[4][4][8];" in cu and "A_sh[d - 4 * dt][ty][tx]" in cu, cu
    for sizes in (dict(nc=8, nb=8, na=8, nd=8), dict(nc=5, nb=7, na=3, nd=6), dict(nc=3, nb=9, na=17, nd=9)):
        diff = compare_host(cu, DATA / "tc01.c", "tc01", sizes, tmp_path / "b")
        assert max(diff.values()) <= 1e-12, (sizes, diff)
    if NVCC:
        assert nvcc_compile(cu) is None


def test_a_layout_that_is_no_order_of_the_subscripts_is_refused(tmp_path):
    (tmp_path / "r.yaml").write_text((DATA / "tc01_layout.yaml").read_text().replace("[1, 2, 0]", "[1, 1, 0]"))
    rc, _, err = run_cli("transform", DATA / "tc01.c", "--recipe", tmp_path / "r.yaml", "--target", "cuda")
    assert rc == 2 and "r.yaml:7: step 6 (shared): error: layout [1, 1, 0] is no order of the 3 subscripts of 'A'" in err, err
    (tmp_path / "r.yaml").write_text((DATA / "tc01_layout.yaml").read_text().replace("[1, 2, 0]", "dt"))
    rc, _, err = run_cli("transform", DATA / "tc01.c", "--recipe", tmp_path / "r.yaml", "--target", "cuda")
    assert rc == 2 and "argument 'layout' must be a list of the array's subscripts" in err, err


@pytest.mark.gpu
def test_the_shipped_tccg_recipe_with_its_layout_validates_on_the_gpu(tmp_path):
    from conftest import require_gpu
    require_gpu()
    root = Path(__file__).resolve().parents[1]
    for sizes in (["NA=16", "NB=8", "NC=24", "ND=8", "NE=16"], ["NA=7", "NB=9", "NC=11", "ND=5", "NE=13"]):
        rc, out, err = run_cli("run", root / "tests/kernels/tccg-abcd-ebad-ce.c", "--recipe",
                               root / "recipes/cuda/tccg_abcd_ebad_ce.yaml", "--target", "cuda",
                               *[x for s in sizes for x in ("-D", s)])
        assert rc == 0 and ": ok" in out, out + err


def test_a_step_that_undoes_an_earlier_copy_is_the_one_refused(tmp_path):
    """Probe 206 G2: a permute that made an earlier datacopy's loop span every tile was reported
    at the datacopy, with 'tile the loops first' (the loop was tiled)."""
    (tmp_path / "r.yaml").write_text("steps:\n  - datacopy: {stmt: 0, array: tmp, at: i}\n"
                                     "  - tile: {stmt: 0, loop: i, size: 19, control: c1}\n"
                                     "  - permute: {stmt: 0, order: [i, c1]}\n")
    rc, _, err = run_cli("transform", DATA / "gs.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and "r.yaml:4: step 3 (permute): error: the footprint of 'tmp' in loop 'i' has no constant size " \
        "after this step: the datacopy of step 1 copies at the loops this step leaves" in err, err
    (tmp_path / "r.yaml").write_text("steps:\n  - datacopy: {stmt: 0, array: tmp, at: i}\n"
                                     "  - tile: {stmt: 0, loop: i, size: 19, control: c1}\n")
    rc, _, err = run_cli("transform", DATA / "gs.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 0, err


SEQ_SCRIPT = """
import sys
from fakes.evaluators import FakeEvaluator, grid_space
from looptx.search.driver import run_search
from looptx.search.random import RandomSearcher
if __name__ == "__main__":
    db, resume = sys.argv[1], sys.argv[2] == "1"
    space = grid_space()
    s = RandomSearcher(space, seed=11, max_evals=16, batch_size=1)
    out = run_search(space, s, FakeEvaluator(sleep=0.15), db=db, search_key="k", budget=16, workers=1,
                     progress=False, resume=resume)
    print(out.n_evals, out.n_resumed)
"""


def test_a_seeded_search_killed_and_resumed_measures_the_uninterrupted_ones_points(tmp_path):
    """Probe 208 G1: after a SIGKILL the searcher's state was that of up to 5 s before, and the
    resumed random search drew other points (6 of 20 shared); the state is saved each round."""
    import os
    import signal
    import sqlite3
    import sys
    import time
    root = Path(__file__).resolve().parents[1]
    script = tmp_path / "run.py"
    script.write_text(SEQ_SCRIPT)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), str(root / "tests")]))

    def points(db):
        c = sqlite3.connect(str(db))
        try:
            return [r[0] for r in c.execute("SELECT point_key FROM evaluations ORDER BY eval_index")]
        finally:
            c.close()

    def count(db):
        try:
            return len(points(db)) if db.exists() else 0
        except sqlite3.OperationalError:
            return 0
    subprocess.run([sys.executable, str(script), str(tmp_path / "full.db"), "0"], env=env, check=True, timeout=120)
    proc = subprocess.Popen([sys.executable, str(script), str(tmp_path / "k.db"), "0"], env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None and count(tmp_path / "k.db") < 6:
        time.sleep(0.03)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert 6 <= count(tmp_path / "k.db") < 16, "the kill must land midway"
    subprocess.run([sys.executable, str(script), str(tmp_path / "k.db"), "1"], env=env, check=True, timeout=120)
    assert points(tmp_path / "k.db") == points(tmp_path / "full.db")


@pytest.mark.parametrize("flag", ["-march=nosuchcpu", "-O9x"])
def test_a_flag_value_cc1_rejects_stops_the_search_before_measuring(tmp_path, flag):
    """Probe 208 G3: `-march=nosuchcpu` and `-O9x` (rejected by cc1, in gcc's own quotes) built
    and failed at every point, then exit 1 without a line."""
    src = tmp_path / "m.c"
    src.write_text((DATA / "march.c").read_text().replace("-march=nosuchcpu", flag))
    rc, out, err = run_cli("search", src, "--no-progress", "--db", tmp_path / "m.db")
    assert rc == 2 and err.startswith(f"{src}:2:19: error: the build command 'gcc -O3 {flag}' has a flag "
                                      "the compiler rejects: cc1: error:") and "valid arguments" not in err, err
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "m.db").exists()


def test_a_recipe_error_at_every_point_stops_the_search_before_measuring(tmp_path):
    """Probe 208 G5: a permut naming a loop twice failed at every point, numbered step 1 where a
    tile by 1 was left out and step 2 elsewhere, so the pre-check took it for the points' and
    the search recorded its whole budget as invalid."""
    src = tmp_path / "dupperm.c"
    src.write_text((DATA / "loc.c").read_text().replace("unrolljam = (['j'],[U_K])",
                                                        "permut = [('j','j','i')],\n    unrolljam = (['j'],[U_J])"))
    rc, out, err = run_cli("search", src, "--no-progress", "--db", tmp_path / "d.db")
    assert rc == 2 and "dupperm.c:11: step 2 (permute): error: permute: loop 'j' is named twice" in err, err
    assert "no variant passed" not in err and not (tmp_path / "d.db").exists()


def test_errors_in_a_composite_argument_name_the_token(tmp_path):
    """Probe 208 G4: an unknown param or a bad value inside `transform Composite(...)` was
    reported at `transform`; now at the name, or at the part whose value is wrong."""
    rc, _, err = run_cli("search", DATA / "loc.c", "--no-progress", "--db", tmp_path / "l.db")
    assert rc == 2 and "loc.c:11:25: error: unknown parameter 'U_K'" in err, err
    src = tmp_path / "loc2.c"
    src.write_text((DATA / "loc.c").read_text().replace("[U_K]", "[0]"))
    rc, _, err = run_cli("search", src, "--no-progress", "--db", tmp_path / "l2.db")
    assert rc == 2 and "loc2.c:11:5: error: an unroll factor must be an integer >= 1, got 0" in err, err


def test_a_read_under_an_unsigned_test_the_domain_proves_is_guarded(tmp_path):
    """Probe 210 G2: `i + 1 < n ? a[i + 1] : 0.0` of an unsigned i counting down from n - 1: the
    test's unsigned reading dropped its guard, and a datacopy loaded a[n], past the array."""
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 4, control: ii}\n"
                                     "  - datacopy: {stmt: 0, array: a, at: ii}\n")
    rc, _, err = run_cli("transform", DATA / "unsigned_guard.c", "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o.c")
    assert rc == 0, err
    assert "if (ii >= 1)\n        a_buf[4] = a[(long)n - 4 * ii];" in (tmp_path / "o.c").read_text()
    same_output_c(tmp_path, DATA / "unsigned_guard.c", tmp_path / "o.c", (DATA / "main_unsigned_guard.c").read_text(),
                  [["0"], ["1"], ["4"], ["7"], ["13"]])


@pytest.mark.parametrize("name, load", [("gr4a", "c7 <= lx_min(m - 1, 8 * jt + 8)"), ("gr4b", "if (i >= 1)")])
def test_the_affine_conjunct_of_a_data_test_guards_a_read(tmp_path, name, load):
    """Probe 211 G1: `(j + 1 < m && B[i][j] > 0.5) ? A[i][j + 1] : 0.0` (and `i == 0 || data ?
    1.0 : A[i - 1][j]`) had no guard, so copies loaded A[i][m] (A[-1][j]) past the array; the
    affine conjunct is the guard."""
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: j, size: 8, control: jt}\n"
                                     "  - datacopy: {stmt: 0, array: A, at: jt}\n")
    rc, _, err = run_cli("transform", DATA / f"{name}.c", "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o.c")
    assert rc == 0, err
    assert load in (tmp_path / "o.c").read_text()
    same_output_c(tmp_path, DATA / f"{name}.c", tmp_path / "o.c", (DATA / "main_gr4.c").read_text().replace("KERNEL", name),
                  [["8", "16"], ["7", "13"], ["1", "1"], ["3", "9"]])


def test_the_suggested_layout_counts_the_steps_pad(tmp_path):
    """Probe 211 G2: with `pad: 1` on the step, the note's layout was worked out without it, and
    applied, left a conflict (the next note asked for `pad: 16`)."""
    recipe = (DATA / "tc01.yaml").read_text().replace("array: A, at: dt}", "array: A, at: dt, pad: 1}")
    (tmp_path / "r.yaml").write_text(recipe)
    rc, _, err = run_cli("transform", DATA / "tc01.c", "--recipe", tmp_path / "r.yaml", "--target", "cuda")
    layout = re.search(r"`layout: (\[[0-9, ]+\])` on its shared step", err)
    assert rc == 0 and layout, err
    (tmp_path / "r.yaml").write_text(recipe.replace("pad: 1}", f"pad: 1, layout: {layout.group(1)}}}"))
    rc, _, err = run_cli("transform", DATA / "tc01.c", "--recipe", tmp_path / "r.yaml", "--target", "cuda")
    assert rc == 0 and "conflict" not in err, err
