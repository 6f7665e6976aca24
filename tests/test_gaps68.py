"""Gaps found in session 68: unroll strips counted from where their loop starts, and isl's
conversion of a map to a function that dropped pieces (a wrong result)."""
from __future__ import annotations

from pathlib import Path

import islpy as isl

from conftest import cli_process, run_cli, runs_ok, same_as_written

DATA = Path(__file__).resolve().parent / "data" / "gaps68"


def test_registers_of_strips_that_start_before_their_tile():
    """Unroll 6 inside tiles of 100, registers of C at k: the strips were counted from j = 0,
    so a tile's first strip started before the tile (j = 96 for the tile at 100).  Its
    registers were loaded from the tile's start (C[100] into C_r[0]) but the statements used
    them from the strip's start (C[100] as C_r[4]): 1500 wrong elements at n = 250."""
    runs_ok(DATA / "mm.c", DATA / "mm_regs_tile100_unroll6.yaml", (7, 137, 250))


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


def test_a_triangular_loops_strips_start_at_its_row(tmp_path):
    """`for (j = i; j < n; j++)` unrolled by 4: strips from j = i, one partial strip at the
    row's end, where strips from j = 0 left one at each end of the row."""
    out = tmp_path / "o.c"
    rc, _, err = run_cli("transform", DATA / "tri.c", "--recipe", DATA / "tri_unroll4.yaml", "-o", out)
    assert rc == 0, err
    text = out.read_text()
    assert "for (j = i; j < n - 3; j += 4)" in text, text
    assert "i % 4" not in text, text
    runs_ok(DATA / "tri.c", DATA / "tri_unroll4.yaml", (1, 2, 5, 37))


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
