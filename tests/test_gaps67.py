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
