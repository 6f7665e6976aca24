"""Gaps found by probes 180-183 (session 67)."""
from __future__ import annotations

from pathlib import Path

from conftest import run_cli, same_as_written
from test_cuda_codegen import nvcc_compile

DATA = Path(__file__).resolve().parent / "data" / "gaps67"


def test_registers_in_a_kernel_of_one_thread_per_block(tmp_path):
    """Probe 181 G1: `registers` at a loop of a `thread: ["1"]` kernel was refused as a copy
    every thread would make; the block's one thread makes it."""
    out = tmp_path / "o.cu"
    rc, _, err = run_cli("transform", DATA / "trmv.c", "--recipe", DATA / "trmv_one_thread.yaml",
                         "--target", "cuda", "-o", out)
    assert rc == 0, err
    text = out.read_text()
    assert "y_r = y[bx];" in text and "y[bx] = y_r;" in text, text
    assert nvcc_compile(text) is None
    for n in ("7", "16"):
        rc, out_, err = run_cli("run", DATA / "trmv.c", "--recipe", DATA / "trmv_one_thread.yaml",
                                "--target", "c", "-D", f"N={n}")
        assert rc == 0 and ": ok" in out_, out_ + err


def test_a_large_unroll_and_jam_keeps_its_partial_strips_loops(tmp_path):
    """Probe 182: SPAPT's gesummv at unroll 168 (Orio's unrolljam 21 by regtile 8) inside tiles
    of 2048 made 21,799 lines, each partial strip 168 guarded copies of the jammed statements,
    and gcc compiled it for minutes.  Partial strips of a large unroll stay loops, as Orio's and
    CHiLL's cleanup loops do; whole strips are still copies."""
    out = tmp_path / "o.c"
    rc, _, err = run_cli("transform", DATA / "gesummv.c", "--recipe", DATA / "gesummv_unroll70.yaml", "-o", out)
    assert rc == 0, err
    text = out.read_text()
    assert len(text.splitlines()) < 2000, len(text.splitlines())       # 5053 with guarded copies
    assert "tmp_r[69] = tmp[" in text                                  # a whole strip's last copy
    # the tile's partial strip (its strips start at the tile: test_gaps68): a loop under each
    # of j's four copies and its cleanup
    assert text.count("for (i = 100 * ii + 70; i <= lx_min(n - 1, 100 * ii + 99); i++)") >= 5, text[:3000]
    # n = 150: tile 0 is a whole strip (0..69) and a partial one (70..99), n ends tile 1 in
    # a partial one (100..149)
    rc, out_, err = run_cli("run", DATA / "gesummv.c", "--recipe", DATA / "gesummv_unroll70.yaml", "-D", "n=150")
    assert rc == 0 and ": ok" in out_, out_ + err


NARROW_MAIN = """#include <stdio.h>
int kern(double *a, double *b);
int main(void) {
  static double a[300], b[300];
  for (int k = 0; k < 300; k++) { a[k] = k * 0.25; b[k] = k; }
  int r = kern(a, b);
  double s = 0; for (int k = 0; k < 300; k++) s = s * 1.0001 + a[k];
  printf("%d %.17g\\n", r, s);
  return 0;
}
"""


def test_a_narrow_counter_stepping_past_its_bound_within_its_type(tmp_path):
    """Probe 183 G1: `unsigned char i; for (i = 0; i < 255; i += 3)` ends at 255, which the type
    holds; it was refused as wrapping (the check took bound - 1 + step).  `i += 2` does wrap."""
    for src in ("uchar_step3.c", "schar_step3.c"):
        same_as_written(tmp_path, DATA / src, DATA / "tile4.yaml", NARROW_MAIN)
    wraps = tmp_path / "w.c"
    wraps.write_text((DATA / "uchar_step3.c").read_text().replace("i += 3", "i += 2"))
    rc, _, err = run_cli("transform", wraps, "--recipe", DATA / "tile4.yaml")
    assert rc == 2 and "lets it pass 255, where C wraps it around" in err, err


def test_a_continued_loop_starts_from_a_declaration_before_the_region(tmp_path):
    """Probe 183 G2: `int i = 0;` then `#pragma scop` then `for (; i < n - 3; i += 4)` was
    refused: the declaration right before the loop was looked for without passing the pragma."""
    for n in ("2", "13"):
        rc, out, err = run_cli("run", DATA / "noinit.c", "--recipe", DATA / "tile3.yaml", "-D", f"n={n}")
        assert rc == 0 and ": ok" in out, out + err


def test_a_cast_to_an_undeclared_integer_type_names_its_header():
    """Probe 183 G4: `(size_t)(i + 1)` without <stddef.h> was 'call to size_t'."""
    rc, _, err = run_cli("transform", DATA / "cast_sub.c", "--recipe", DATA / "tile3.yaml")
    assert rc == 2 and "'size_t' is not declared, so '(size_t)(...)' reads as a call to it (#include <stddef.h>" in err, err
