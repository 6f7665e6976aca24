"""Gaps found by the probes of session 53 (and left open by earlier ones), each checked end to end."""
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli

pytestmark = pytest.mark.usefixtures("private_build_cache")

STRUCT = """struct dims { int n; int m; };
void kern(struct dims *s, double *a, const double *b)
{
  int i, j;
#pragma scop
  for (i = 0; i < s->n; i++)
    for (j = 0; j < s->m; j++)
      a[i*s->m + j] = a[i*s->m + j] * 0.5 + b[i*s->m + j] + i - j;
#pragma endscop
}
"""


@pytest.mark.parametrize("spelling", ["s->n=64", "s__n=64", "s . n=64"])
def test_a_member_size_fixed_by_define_as_written_in_c(tmp_path, spelling):
    """Probe 90 G8/G9: `-D s->n=64` was a bad --define (only s__n worked), and the .cu's host
    function took the fixed member after the free one, against the order the region reads them."""
    src, rec, out = tmp_path / "k.c", tmp_path / "r.yaml", tmp_path / "k.cu"
    src.write_text(STRUCT)
    rec.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 16, control: ii}\n"
                   "  - cuda: {stmt: 0, block: [ii], thread: [i]}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec, "--target", "cuda", "-D", spelling, "-o", out)
    assert rc == 0, err
    assert "int kern_host_status(int lx_given_s__n, int s__m, double *" in out.read_text()
    rc, c_out, err = run_cli("transform", src, "--recipe", rec, "-D", spelling)
    assert rc == 0 and "s__n == 64" in c_out, err


HALF = """#ifndef N
#define N 64
#endif
#define HALF (N/2)
void k(double *a)
{
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < HALF; j++)
      a[i*HALF + j] = 2.0 * a[i*HALF + j] + a[i*HALF + HALF - 1 - j];
#pragma endscop
}
"""


@pytest.mark.parametrize("defines", [[], ["-D", "N=30"], ["-D", "N=31"]])
def test_a_row_length_that_halves_a_size(tmp_path, defines):
    """Probe 90 G5: `#define HALF (N/2)` in `a[i*HALF + j]` was a non-affine subscript, with
    or without -D; it is a row length the region reads through a name, as `(nx + 2)` is."""
    src, rec = tmp_path / "h.c", tmp_path / "r.yaml"
    src.write_text(HALF)
    rec.write_text("steps:\n  - tile: {stmt: 0, loop: j, size: 4}\n  - permute: {stmt: 0, order: [jj, i, j]}\n")
    rc, out, err = run_cli("run", src, "--recipe", rec, *defines)
    assert rc == 0 and ": ok" in out, out + err
    assert "lx_row = N / 2" in err


LOOP_LOCAL = """void kern(int n, int m, double *a)
{
  int i, j, t;
  for (t = 0; t < 2; t++) {
    int nn = n - t;
#pragma scop
    for (i = 0; i < nn; i++)
      for (j = 0; j < m; j++)
        a[i*m + j] = a[i*m + j] * 0.5 + i - j;
#pragma endscop
  }
}
"""


def test_a_grid_emulation_that_reads_a_local_as_its_expression_warns_of_nothing(tmp_path):
    """Probe 90 G6: the cuda step's C emulation reads `nn = n - t` as `n - t`; gcc -Wall then
    warned that nn was unused, which the input did not."""
    src, rec, out = tmp_path / "k.c", tmp_path / "r.yaml", tmp_path / "o.c"
    src.write_text(LOOP_LOCAL)
    rec.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 16, control: ii}\n"
                   "  - cuda: {stmt: 0, block: [ii], thread: [i]}\n")
    rc, _, err = run_cli("transform", src, "--recipe", rec, "-o", out)
    assert rc == 0, err
    cc = subprocess.run(["gcc", "-Wall", "-Wextra", "-Werror", "-Wno-unknown-pragmas", "-c", str(out),
                         "-o", str(tmp_path / "o.o")], capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr


@pytest.mark.parametrize("ctype,value,ok", [("unsigned char", 300, False), ("unsigned char", -3, False),
                                            ("unsigned char", 200, True), ("short", 70000, False),
                                            ("unsigned", -3, False), ("unsigned", 300, True)])
def test_a_define_its_type_cannot_hold_is_refused(tmp_path, ctype, value, ok):
    """Probe 90 G7: `unsigned char n` with -D n=300 gave `if (n == 300)`, always false: the
    transformed code dead, and gcc's -Wextra warning. It is refused, naming the type."""
    src = tmp_path / "k.c"
    src.write_text(f"void k(double *a, {ctype} n)\n{{\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++)\n"
                   "    a[i] = 2.0 * a[i];\n#pragma endscop\n}\n")
    rc, out, err = run_cli("transform", src, "-D", f"n={value}")
    if ok:
        assert rc == 0 and f"n == {value}" in out, err
    else:
        assert rc == 2 and f"{src}:1: error: --define n={value}: 'n' is {ctype}" in err, err
