"""Gaps found in session 68: unroll strips counted from where their loop starts, and isl's
conversion of a map to a function that dropped pieces (a wrong result)."""
from __future__ import annotations

from pathlib import Path

import islpy as isl

from conftest import cli_process, run_cli, runs_ok, same_as_written, same_output_c

DATA = Path(__file__).resolve().parent / "data" / "gaps68"


def test_registers_of_strips_that_start_before_their_tile():
    """Unroll 6 inside tiles of 100, registers of C at k: the strips were counted from j = 0,
    so a tile's first strip started before the tile (j = 96 for the tile at 100).  Its
    registers were loaded from the tile's start (C[100] into C_r[0]) but the statements used
    them from the strip's start (C[100] as C_r[4]): 1500 wrong elements at n = 250."""
    runs_ok(DATA / "mm.c", DATA / "mm_regs_tile100_unroll6.yaml", (250,))


def test_a_function_keeps_every_piece_of_its_map():
    """The register index of that strip: isl's PwMultiAff.from_map kept only the pieces where
    the strip starts in the tile (j <= 5 and where 6 * floor(j / 6) > 100 * floor(j / 100)), so
    the AST printed `j - 6 * floor(j / 6)` for j = 100 too."""
    from looptx.poly.functions import pw_function
    m = isl.Map("[n] -> { S0[i, j, k] -> C_r[o0, o1] : (-i + o0) mod 4 = 0 and 0 <= i < n and j < n and "
                "0 <= k < n and 0 <= o0 <= 3 and o1 >= 0 and (((-j + o1) mod 6 = 0 and j >= 0 and o1 <= 5 and "
                "-98 + j - o1 <= 100*floor((j)/100) <= -2 + j - o1) or ((-j + o1) mod 100 = 0 and o1 <= j and "
                "-4 + j - o1 <= 6*floor((j)/6) <= j - o1)) }")
    f = pw_function(m)
    assert m.domain().is_subset(f.domain())
    assert isl.Map.from_pw_multi_aff(f).is_equal(m)
    at = isl.Set("[n] -> { S0[1, 100, 0] : n = 200 }")
    assert at.apply(isl.Map.from_pw_multi_aff(f)).is_equal(isl.Set("[n] -> { C_r[1, 0] : n = 200 }"))


def test_a_tiles_strips_start_at_the_tile(tmp_path):
    """CHiLL and Orio count an unroll's strips from where the loop starts: in a tile of 100,
    strips of 6 from the tile's start and one partial strip at its end, not a partial strip at
    each end of every tile (strips counted from j = 0)."""
    out = tmp_path / "o.c"
    rc, _, err = run_cli("transform", DATA / "mm.c", "--recipe", DATA / "mm_tile100_unroll6.yaml", "-o", out)
    assert rc == 0, err
    text = out.read_text()
    assert "for (j = 100 * jj; j <= lx_min(n - 6, 100 * jj + 90); j += 6)" in text, text
    assert text.count("C[i][j] += A[i][k] * B[k][j];") == 3, text     # the whole strips' and two ends'
    assert "% 3" not in text, text
    runs_ok(DATA / "mm.c", DATA / "mm_tile100_unroll6.yaml", (7, 100, 137, 250))


def test_a_triangular_loops_strips_line_up_from_row_to_row():
    """Probe 188 G1: strips of `for (j = i; ...)` counted from each row's start do not line up
    from one row to the next, and a jam of i over them was refused (it would reorder
    A[i - 1][j] and A[i][j]).  Only a tile's start is where strips start; a loop starting at
    another loop's value keeps strips counted from its least value."""
    runs_ok(DATA / "tri_rows.c", DATA / "tri_unroll_j_then_i.yaml", (1, 2, 5, 37))


def test_registers_of_a_banded_tile_within_budget():
    """Probe 188 G2: a banded product tiled by 8, unrolled by 3 and with registers of y ran out
    of isl's operations: checking each access function's domain took 2.8 s of them.  The
    function is now the union of its disjuncts' own."""
    rc, out, err = run_cli("transform", DATA / "banded.c", "--recipe", DATA / "banded_regs.yaml")
    assert rc == 0 and "y_r" in out, out + err


_STEP3_MAIN = """#include <stdio.h>
void kern(%s n, double y[256], double x[256]);
int main(void) {
  for (int n = 0; n <= 255; n++) {
    double y[256] = {0}, x[256];
    for (int k = 0; k < 256; k++) x[k] = k * 0.5 + n;
    kern(n, y, x);
    double s = 0;
    for (int k = 0; k < 256; k++) s += y[k] * (k + 1);
    printf("%%d %%a\\n", n, s);
  }
  return 0;
}
"""


def test_a_narrow_counter_by_3_to_a_size(tmp_path):
    """Probe 186 G1: `unsigned char i; for (i = 0; i < n; i += 3)` was refused as wrapping: its
    last value is 3 * ceil(n / 3) <= 255 for every unsigned char n.  With an int n it holds for
    n <= 255, which the model assumes and the output checks, as it does for `i++`."""
    same_as_written(tmp_path, DATA / "uchar_step3_n.c", DATA / "unroll2.yaml", _STEP3_MAIN % "unsigned char")
    err = same_as_written(tmp_path, DATA / "uchar_step3_int_n.c", DATA / "unroll2.yaml", _STEP3_MAIN % "int")
    assert "modelled for n <= 255" in err, err


def test_an_unsigned_remainder_by_a_power_of_two(tmp_path):
    """Probe 185 G1: a red-black sweep's `(j + k + color) % 2` of size_t j, k and an int color
    was refused, the sum wrapping where color < -2.  The wrapped value's remainder by a power of
    two is the sum's own (2^64 is a multiple of 2), so it needs no obligation."""
    main = """#include <stdio.h>
#include <stddef.h>
void smooth_rb(size_t n, int color, double h2inv, double * restrict phi, const double * restrict rhs);
int main(void) {
  static double phi[13 * 13 * 13], rhs[13 * 13 * 13];
  size_t sizes[] = {2, 3, 4, 10, 13};
  for (int a = 0; a < 5; a++)
    for (int color = -5; color <= 2; color++) {
      size_t n = sizes[a];
      for (size_t k = 0; k < n * n * n; k++) { phi[k] = (double)((k * 7 + color) % 11); rhs[k] = (double)(k % 5); }
      smooth_rb(n, color, 0.25, phi, rhs);
      double s = 0;
      for (size_t k = 0; k < n * n * n; k++) s += phi[k] * (double)(k + 1);
      printf("%zu %d %a\\n", n, color, s);
    }
  return 0;
}
"""
    same_as_written(tmp_path, DATA / "rbgs.c", DATA / "rbgs_tile_unroll.yaml", main)


def test_a_privatize_hint_names_the_loop_that_carries_the_reuse():
    """Probe 185 G2: Rodinia's lud reuses `sum` in two sibling j loops; the refusal of an
    unroll-and-jam of the first said `privatize: {var: sum, at: i}`, which leaves the
    dependence between two j iterations.  It names the j loop, with the statement, and that step
    makes the jam legal."""
    rc, _, err = run_cli("transform", DATA / "lud.c", "--recipe", DATA / "lud_unroll_j.yaml", "-o", "/dev/null")
    assert rc == 2 and "privatize: {stmt: 0, var: sum, at: j}" in err, err
    rc, out, err = run_cli("run", DATA / "lud.c", "--recipe", DATA / "lud_private_j.yaml", "-D", "size=37")
    assert rc == 0 and ": ok" in out, out + err


def test_a_dropped_value_note_waits_for_a_good_input(tmp_path):
    """Probe 187 G1: a param value a step rejects (Orio's tile size 0) is noted, and the note
    was printed before a later bad-input error (an unknown --option), two lines where the
    contract says one.  The note is held with the other warnings until the input is good."""
    import shutil
    src = tmp_path / "t.c"
    shutil.copy(DATA / "tile_zero_space.c", src)
    p = cli_process("search", src, "-O", "bogus=1", "--budget", "2", cwd=tmp_path)
    rc, err = p.returncode, p.stderr
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "unknown option 'bogus'" in err, err
    p = cli_process("search", src, "--budget", "2", "--no-progress", cwd=tmp_path)
    assert p.returncode == 0 and "value 0 is left out of the search" in p.stderr, p.stdout + p.stderr


def test_a_witness_element_of_a_one_dimensional_array_as_written():
    """Probe 185 G4: Rodinia nw's `input_itemsets[(max_cols - idx - 2) * max_cols + ...]`,
    modelled as a 3-D array, was named `input_itemsets[0][2][3]` in a refusal; the code's
    own subscript is 13 at max_cols = 5."""
    rc, _, err = run_cli("transform", DATA / "nw2.c", "--recipe", DATA / "nw2_unroll.yaml", "-o", "/dev/null")
    assert rc == 2 and "S0(1,1) writes input_itemsets[13] before S0(0,0) reads it (with max_cols=5" in err, err


def test_a_cuda_order_hint_names_the_distribute_its_permute_needs():
    """Probe 185 G3: Rodinia gaussian's Fan2 mapped with thread i enclosing block jj: the
    refusal said `permute first`, and that permute was refused in turn (statement 2 shares loop
    i).  The hint now names the distribute the permute needs, then the permute."""
    rc, _, err = run_cli("transform", DATA / "gaussian.c", "--recipe", DATA / "gaussian_cuda.yaml",
                         "--target", "cuda", "-o", "/dev/null")
    assert rc == 2 and "(distribute the statements first (distribute {stmts: [1], loop: i}), then " \
                       "'permute: {stmt: 1, order: [t, ii, jj, i, j]}'" in err, err


def test_an_unsigned_bound_that_wraps_for_small_sizes_is_a_checked_fact(tmp_path):
    """Probe 183 G3: `for (i = 0; i < n - 2; i++)` with an unsigned n wraps where n < 2 (C then
    runs i to 2^32 - 2); the model took n >= 2 without a word.  It is a fact now, with a note,
    and the output runs the region as written where it fails; `i < n` needs no fact."""
    out = tmp_path / "o.c"
    rc, _, err = run_cli("transform", DATA / "uint_nm2.c", "--recipe", DATA / "tile4.yaml", "-o", out)
    assert rc == 0 and "the region is modelled for (n - 2) >= 0" in err, err
    text = out.read_text()
    assert "if ((long)n >= 2) {" in text and "for (i = 0; i < n - 2; i++)" in text, text
    runs_ok(DATA / "uint_nm2.c", DATA / "tile4.yaml", (2, 3, 37))
    rc, _, err = run_cli("run", DATA / "uint_nm2.c", "--recipe", DATA / "tile4.yaml", "-D", "n=1")
    assert rc == 2 and "'n - 2' is negative at some point where C evaluates it" in err, err
    (tmp_path / "plain.c").write_text((DATA / "uint_nm2.c").read_text().replace("n - 2", "n"))
    rc, _, err = run_cli("transform", tmp_path / "plain.c", "--recipe", DATA / "tile4.yaml", "-o", out)
    assert rc == 0 and "modelled for" not in err, err


def test_a_row_fact_note_names_every_array_it_keeps_in_its_rows():
    """Probe 180 G1 (CloverLeaf's accelerate): `a` in rows of x_max + 4 from 1 and `b` in rows
    of x_max + 5 from 0 both need x_min >= -1; the note named `a` alone, since `b` was checked
    under the fact `a` had given."""
    rc, _, err = run_cli("deps", DATA / "rows.c", "--function", "f")
    assert rc == 0 and "the region is modelled for x_min >= -1: the linearized subscripts of 'a', 'b' stay in " \
                       "their rows of (x_max + 4) and (x_max + 5) elements only then" in err, err


def _runs_as_c(tmp_path, src: Path, main: str, args_list, flags=()) -> None:
    """`src` and its output (transformed without a recipe) built with gcc -O1 and run by
    `main` with each argument list: the same text printed."""
    out = tmp_path / "o.c"
    rc, _, err = run_cli("transform", src, "-o", out, *flags)
    assert rc == 0, err
    same_output_c(tmp_path, src, out, main, args_list)


_CHANGED_MAIN = """#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
void f(%s);
int main(int argc, char **argv) {
  static double a[80000], b[80000]; int k, c = 0;
  for (k = 0; k < 80000; k++) { a[k] = 1; b[k] = k; }
  %s;
  for (k = 0; k < 80000; k++) c += a[k] != 1;
  printf("%%d\\n", c);
  return 0;
}
"""


def test_a_counter_takes_the_values_of_a_64_bit_size(tmp_path):
    """Probe 190 G1: `unsigned i; for (i = 0; i < m; i++) if (i >= n)` with a size_t n became
    `for (i = lx_max(0, (long)n); ...)` on the 32-bit i, which keeps n mod 2^32: at n = 2^32
    the output wrote 20 elements where the original writes none.  A loop whose values go past
    int's counts in long; a start that C converts into a 32-bit counter (`unsigned i = m` of a
    size_t m) is a fact the output checks."""
    _runs_as_c(tmp_path, DATA / "size_t_guard.c",
               _CHANGED_MAIN % ("unsigned m, size_t n, double *a, double *b",
                                "f(strtoul(argv[1], 0, 0), strtoull(argv[2], 0, 0), a, b)"),
               [("20", "5"), ("20", "4294967296"), ("20", "4294967299")])
    _runs_as_c(tmp_path, DATA / "unsigned_from_size_t.c",
               _CHANGED_MAIN % ("size_t n, size_t m, double *a, double *b",
                                "f(strtoull(argv[1], 0, 0), strtoull(argv[2], 0, 0), a, b)"),
               [("20", "3"), ("1", "4294967293"), ("1", "4294967297")])


def test_a_narrow_counter_that_steps_past_its_not_equal_bound(tmp_path):
    """Probe 190 G2: `unsigned char i; for (i = 1; i != 251; i += 3)` passes 251 and wraps (C
    writes 254 elements); it was read as `i < 251`.  It is refused now, and `i != n - 3` by 2
    is modelled where the step divides the distance, which the output checks."""
    rc, _, err = run_cli("transform", DATA / "uchar_ne_step3.c", "-o", tmp_path / "o.c")
    assert rc == 2 and "the test 'i != 251' lets it pass 255" in err, err
    rc, _, err = run_cli("transform", DATA / "ushort_ne_step2.c", "-o", tmp_path / "o.c")
    assert rc == 0 and "(1 + n) mod 2 = 0" in err, err
    assert "(n + 1) % 2 == 0" in (tmp_path / "o.c").read_text()


def test_a_short_counter_tested_against_an_unsigned_bound(tmp_path):
    """Probe 190 G3: `short i; for (i = 10; i > m; i -= 3)` with an unsigned m: C compares i as
    unsigned, so at m = 0 the loop goes on through i = -2 (43694 elements written); the model
    stopped at 1.  The exit value must be >= 0: a fact the output checks."""
    _runs_as_c(tmp_path, DATA / "short_vs_unsigned.c",
               _CHANGED_MAIN % ("unsigned m, double *a", "f(strtoul(argv[1], 0, 0), a)"),
               [("0",), ("1",), ("2",), ("5",), ("12",)])


def test_an_unsigned_counter_from_an_int_size(tmp_path):
    """Probe 190 G5: `unsigned i; for (i = lo; i < hi; i++)` with int lo, hi was refused (C
    compares i < hi unsigned, and the model's i = lo may be negative); the `unsigned short`
    counter was modelled for lo >= 0.  Both are: a fact the output checks."""
    out = tmp_path / "o.c"
    rc, _, err = run_cli("transform", DATA / "unsigned_from_int_lo.c", "-o", out)
    assert rc == 0 and "the region is modelled for (lo) >= 0:" in err, err
    assert "if (lo >= 0) {" in out.read_text()
    _runs_as_c(tmp_path, DATA / "unsigned_from_int_lo.c",
               _CHANGED_MAIN % ("int lo, int hi, double *a", "f(atoi(argv[1]), atoi(argv[2]), a)"),
               [("0", "10"), ("3", "70"), ("5", "2"), ("-3", "5")])
