"""Pointer arguments in `looptx run`: allocated as far as the region reaches into them at the
given sizes (an isl bound over every access, flat for linearized arrays), so a kernel written
with `double *a` runs, validated against the original, without declared extents."""
import pytest
from conftest import run_cli as cli
from looptx.pipeline import load
from looptx.runtime.harness import RegionSignature

KERNEL = """void k(int n, int m, double *a, const double *b, double (*c)[8])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i && j < m; j++) {
      a[i * m + j] = b[j * n + i] * 2.0 + b[i];
      c[i + 1][j %% 8] += a[i * m + j];
    }
#pragma endscop
}
"""


def test_reach_bounds_each_pointer(tmp_path):
    f = tmp_path / "k.c"
    f.write_text(KERNEL % ())
    prog = load(str(f))
    shapes = RegionSignature.from_scop(prog.scops[0], prog.int_macros, {"n": 11, "m": 5}).shapes
    # a: last row 10, last column 4 (j < m); b: max(4 * 11 + 10, 10); c: rows 1..11
    assert shapes == {"a": (10 * 5 + 4 + 1,), "b": (4 * 11 + 10 + 1,), "c": (12, 8)}, shapes


@pytest.mark.parametrize("recipe", ["", "- tile: {stmt: 0, loop: j, size: 4}\n",
                                    "- unroll: {stmt: 1, loop: j, factor: 3}\n"])
def test_run_validates_a_pointer_kernel(tmp_path, recipe):
    f = tmp_path / "k.c"
    f.write_text(KERNEL % ())
    argv = ["run", f, "-D", "n=23", "-D", "m=9"]
    if recipe:
        (tmp_path / "r.yaml").write_text(recipe)
        argv += ["--recipe", tmp_path / "r.yaml"]
    rc, out, err = cli(*argv)
    assert rc == 0 and ": ok " in out, out + err
