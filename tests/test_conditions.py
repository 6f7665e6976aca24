"""Conditions in region bodies as C writes them: an integer's truth (`if (flag)`, `if (!(i % 4))`),
and branches on array data (ReLU, upwind, running maxima), which become conditional
assignments.  Original and output are compiled with gcc and run at sizes that do and do not
divide the unroll and tile factors."""
import pytest
from conftest import run_cli as cli
from test_app_kernels import _run, _transform

MAIN = """
int main(void)
{
    static double x[64 * 64], y[64 * 64], z[64 * 64];
    double s = 0;
    int sizes[][2] = {{1, 1}, {13, 7}, {32, 16}, {9, 30}};
    for (int t = 0; t < 4; t++) {
        for (int k = 0; k < 64 * 64; k++) { x[k] = (k * 37 %% 19) - 9.0; y[k] = k %% 3; z[k] = 1.0; }
        s += f(sizes[t][0], sizes[t][1], t %% 2, x, y, z);
        for (int k = 0; k < 64 * 64; k++) s += (y[k] + 3 * z[k]) * (k %% 11 + 1);
    }
    printf("%%.17g\\n", s);
    return 0;
}
"""

TRUTH = """#include <stdio.h>
double f(int n, int m, int accumulate, double *x, double *y, double *z)
{
#pragma scop
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            if (!(j %% 4))
                y[i * 64 + j] = x[i * 64 + j];
            if (accumulate)
                z[i * 64 + j] += y[i * 64 + j];
            if (j %% 3 && !accumulate)
                z[i * 64 + j] -= 1.0;
        }
#pragma endscop
    return 0.0;
}
""" + MAIN


@pytest.mark.parametrize("steps", [(), ("unroll: {stmt: 0, loop: j, factor: 4}",),
                                   ("tile: {stmt: 0, loop: j, size: 8}",)])
def test_integer_truth_conditions(tmp_path, steps):
    src, out, _ = _transform(tmp_path, "truth.c", TRUTH % (), steps)
    assert _run(out, tmp_path) == _run(src, tmp_path)


ON_DATA = """#include <stdio.h>
double f(int n, int m, int unused, double *x, double *y, double *z)
{
    double best = -100.0;
#pragma scop
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            if (x[i * 64 + j] > 0.0)
                y[i * 64 + j] = x[i * 64 + j];
            else
                y[i * 64 + j] = 0.0;
            if (x[i * 64 + j] > best)
                best = x[i * 64 + j];
            if (x[i * 64 + j] < -2.0) {
                z[i * 64 + j] += 2.0 * y[i * 64 + j];
                y[i * 64 + j]++;
            } else
                z[i * 64 + j] = z[i * 64 + j] * 0.5;
        }
#pragma endscop
    return best;
}
""" + MAIN


@pytest.mark.parametrize("steps", [(), ("unroll: {stmt: 0, loop: j, factor: 3}",),
                                   ("tile: {stmt: 0, loop: i, size: 4}",)])
def test_branches_on_data_become_conditional_assignments(tmp_path, steps):
    src, out, err = _transform(tmp_path, "ondata.c", ON_DATA % (), steps)
    assert err == f"{src}:8:13: note: a branch on data (array elements or variables the region sets) is modelled, " \
                  "and printed, as conditional " \
                  "assignments (x = c ? v : x)\n", err
    text = out.read_text()
    assert "y[64 * i + j] = x[64 * i + j] > 0.0 ? x[64 * i + j] : 0.0;" in text, text
    assert "best = x[64 * i + j] > best ? x[64 * i + j] : best;" in text, text
    assert _run(out, tmp_path) == _run(src, tmp_path)


CHANGES_ITS_CONDITION = """#include <stdio.h>
double f(int n, int m, int unused, double *x, double *y, double *z)
{
#pragma scop
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            if (x[i * 64 + j] > 0.0) {
                x[i * 64 + j] = 0.0;
                y[i * 64 + j] = 1.0;
            }
#pragma endscop
    return 0.0;
}
""" + MAIN


@pytest.mark.parametrize("steps", [(), ("unroll: {stmt: 0, loop: j, factor: 3}",)])
def test_a_branch_that_changes_its_own_condition_takes_it_first(tmp_path, steps):
    """The arm's later statements test the condition as it was before its first one ran."""
    src, out, err = _transform(tmp_path, "cond.c", CHANGES_ITS_CONDITION % (), steps)
    text = out.read_text()
    assert "lx_c7_13 = x[64 * i + j] > 0.0;" in text and "y[64 * i + j] = lx_c7_13 ? 1.0 : y[64 * i + j];" in text, text
    assert _run(out, tmp_path) == _run(src, tmp_path)


GUARDED = """#include <stdio.h>
double f(int n, int m, int unused, double *x, double *y, double *z)
{
#pragma scop
    for (int i = 0; i < n; i++) {
        if (i < n - 1 && x[i] > 0.0)
            y[i + 1] = x[i];
        if (x[i] > 1.0 && i > 0)
            z[i - 1] += x[i];
        if (x[i] > 2.0)
            z[i] = 1.0;
        else if (x[i] < -2.0) {
            if (i %% 2 == 0)
                z[i] = -1.0;
        } else
            z[i] = 0.5 * z[i];
    }
#pragma endscop
    return 0.0;
}
""" + MAIN


@pytest.mark.parametrize("steps", [(), ("unroll: {stmt: 0, loop: i, factor: 4}",)])
def test_affine_conjuncts_of_a_branch_on_data_stay_in_the_domain(tmp_path, steps):
    # y[i + 1] is touched only where i < n - 1, as in the original (no write past the end)
    src, out, _ = _transform(tmp_path, "guarded.c", GUARDED % (), steps)
    text = out.read_text()
    if not steps:
        assert "if (n >= i + 2)\n          y[i + 1] = x[i] > 0.0 ? x[i] : y[i + 1];" in text, text
        assert "z[i] = x[i] > 2.0 ? 1.0 : x[i] < -2.0 ? i % 2 == 0 ? -1.0 : z[i] : 0.5 * z[i];" in text, text
    assert _run(out, tmp_path, "-fsanitize=address") == _run(src, tmp_path, "-fsanitize=address")
