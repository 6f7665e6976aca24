"""Gaps found by probes 180-183 (session 67)."""
from __future__ import annotations

from pathlib import Path

from conftest import run_cli
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
    # the tile's first, partial strip: a loop under each of j's four copies and its cleanup
    assert text.count("for (i = 100 * ii; i < lx_min(n, 100 * ii - 10 * ((3 * ii + 7) % 7) + 70); i++)") >= 5, text[:3000]
    # n = 150: tile 0 ends in a partial strip (70..99), tile 1 starts with one (100..139)
    # and n ends the last (140..149)
    rc, out_, err = run_cli("run", DATA / "gesummv.c", "--recipe", DATA / "gesummv_unroll70.yaml", "-D", "n=150")
    assert rc == 0 and ": ok" in out_, out_ + err
