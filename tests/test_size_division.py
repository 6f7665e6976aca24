"""C's `/` and `%` of sizes outside any loop variable (`a[n / 2]`, `for (i = n / 2; ...)`) round
toward zero, isl's floor only for non-negative operands.  Where the statements' domains allow
both signs, the region is modelled for the operand >= 0 with a note (as for a BLAS leading
dimension), compiled and run against the original at sizes that do and do not divide the tile,
and refused where the given sizes break the fact."""
import pytest
from conftest import run_cli as cli
from test_app_kernels import _run, _transform

HALF = """#include <stdio.h>
void fold(int n, int m, double *restrict a, const double *restrict b)
{
#pragma scop
    for (int i = 0; i < n / 2; i++)
        a[i] = b[2 * i] + b[2 * i + 1];
    a[n / 2] = a[n %% 3] * 0.5;
    for (int i = n / 2; i < m; i++)
        a[i + 1] += b[i] * 2.0;
#pragma endscop
}
int main(void)
{
    static double a[200], b[200];
    double s = 0;
    int sizes[][2] = {{0, 0}, {1, 3}, {5, 2}, {16, 40}, {33, 70}, {64, 64}};
    for (int t = 0; t < 6; t++) {
        for (int k = 0; k < 200; k++) { a[k] = k %% 7; b[k] = (k * 13) %% 17; }
        fold(sizes[t][0], sizes[t][1], a, b);
        for (int k = 0; k < 200; k++) s += a[k] * (k %% 13 + 1);
    }
    printf("%%.17g\\n", s);
    return 0;
}
"""


@pytest.mark.parametrize("steps", [(), ("tile: {stmt: 0, loop: i, size: 8}",),
                                   ("unroll: {stmt: 2, loop: i, factor: 3}",),
                                   ("fuse: {stmts: [0, 2], loop: i}",)], ids=["plain", "tile", "unroll", "fuse"])
def test_division_of_a_size_is_modelled_for_a_non_negative_size(tmp_path, steps):
    try:
        src, out, err = _transform(tmp_path, "half.c", HALF % (), steps)
    except AssertionError as e:
        # fusing the two loops is illegal here: refused with the dependence, never silently
        assert steps and steps[0].startswith("fuse") and "dependence" in str(e), e
        return
    assert "note: the region is modelled for n >= 0: C's '/' and '%' of sizes round toward zero" in err, err
    assert _run(out, tmp_path) == _run(src, tmp_path)


def test_sizes_that_break_the_fact_are_refused(tmp_path):
    f = tmp_path / "half.c"
    f.write_text(HALF % ())
    rc, out, err = cli("run", f, "--function", "fold", "-D", "n=-3", "-D", "m=5")
    # (`i < n / 2` is C's -1 there, a constant; `a[n / 2]` reads a[-1])
    assert rc == 2 and "half.c:7:7: error: non-affine: '/' of a possibly negative value" in err, err
    rc, out, err = cli("run", f, "--function", "fold", "-D", "n=9", "-D", "m=20")
    assert rc == 0 and ": ok " in out, out + err


def test_an_iterator_operand_still_needs_to_be_non_negative(tmp_path):
    f = tmp_path / "it.c"
    f.write_text("void k(int n, double *a)\n{\n#pragma scop\n  for (int i = -n; i < n; i++)\n"
                 "    a[i / 2 + n] = 1.0;\n#pragma endscop\n}\n")
    rc, out, err = cli("transform", f)
    assert rc == 2 and "it.c:5:7: error: non-affine: '/' of a possibly negative value" in err, err
