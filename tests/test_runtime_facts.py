"""Facts the model assumes and C does not give (a written array's row length `s >= k`, a size
`n >= 0` under C's `n / 2`) are checked by the output at run time, as Polly versions its code:
C runs the region as written where the sizes break them; CUDA host code returns
cudaErrorInvalidValue.  Each C case is compiled and run against the original at sizes that do
and do not meet the fact, and that do and do not divide the tiles, including empty regions."""
import re

import pytest

from test_app_kernels import _run, _transform
from test_cuda_codegen import needs_nvcc, nvcc_compile
from test_cuda_regressions import cli, gpu_build_and_run

# overlap-add: frames of k samples every s samples.  Where s < k the frames overlap, and the
# order of the updates of one sample matters (the 0.5 scales what came before)
OLA = """#include <stdio.h>
void ola(int n, int k, int s, float *restrict y, const float *restrict x, const float *restrict w)
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < k; j++)
      y[i*s + j] = 0.5f * y[i*s + j] + w[j] * x[i];
#pragma endscop
}
int main(void)
{
  static float y[400], x[64], w[64];
  int sizes[][3] = {{7, 5, 3}, {7, 5, 5}, {6, 4, 9}, {5, 8, 1}, {0, 3, 1}, {4, 0, 2}, {9, 6, 6}, {5, 7, 2}};
  double sum = 0;
  for (int t = 0; t < 8; t++) {
    for (int q = 0; q < 400; q++) y[q] = (float)(q %% 9);
    for (int q = 0; q < 64; q++) { x[q] = (float)(q %% 7 - 3); w[q] = (float)(q %% 5 - 2); }
    ola(sizes[t][0], sizes[t][1], sizes[t][2], y, x, w);
    for (int q = 0; q < 400; q++) sum += y[q] * (q %% 11 + 1);
  }
  printf("%%.9g\\n", sum);
  return 0;
}
"""


@pytest.mark.parametrize("steps", [("permute: {stmt: 0, order: [j, i]}",),
                                   ("tile: {stmt: 0, loop: j, size: 4}", "permute: {stmt: 0, order: [jj, i, j]}"),
                                   ()], ids=["permute", "tile-permute", "plain"])
def test_overlapping_rows_of_a_written_array_run_the_region_as_written(tmp_path, steps):
    src, out, err = _transform(tmp_path, "ola.c", OLA % (), steps)
    assert "modelled for s >= k" in err and "the output checks that" in err, err
    text = out.read_text()
    # regenerated without a step, the code is the region as written: one copy, no check
    assert ("if (s >= k) {" in text and "} else {" in text) == bool(steps), text
    assert _run(out, tmp_path) == _run(src, tmp_path)


def test_the_check_is_what_keeps_the_output_right(tmp_path):
    # the same output with the check taken away differs where the frames overlap: the test
    # above can fail
    src, out, _ = _transform(tmp_path, "ola.c", OLA % (), ("permute: {stmt: 0, order: [j, i]}",))
    out.write_text(out.read_text().replace("if (s >= k) {", "if (1) {"))
    assert _run(out, tmp_path) != _run(src, tmp_path)


HALF = """#include <stdio.h>
void k(int n, int m, double *restrict a, const double *restrict b)
{
#pragma scop
  for (int i = 0; i < m + n / 2; i++)
    a[i] = b[i] * 2.0 + a[i + 1];
#pragma endscop
}
int main(void)
{
  static double a[200], b[200];
  int sizes[][2] = {{-3, 5}, {-7, 9}, {0, 0}, {4, 3}, {9, 13}, {-1, 1}, {30, 17}};
  double s = 0;
  for (int t = 0; t < 7; t++) {
    for (int q = 0; q < 200; q++) { a[q] = q %% 7; b[q] = (q * 13) %% 17; }
    k(sizes[t][0], sizes[t][1], a, b);
    for (int q = 0; q < 200; q++) s += a[q] * (q %% 13 + 1);
  }
  printf("%%.17g\\n", s);
  return 0;
}
"""


def test_a_negative_size_under_division_runs_the_region_as_written(tmp_path):
    src, out, err = _transform(tmp_path, "half.c", HALF % (), ("tile: {stmt: 0, loop: i, size: 4}",))
    assert "modelled for n >= 0" in err, err
    assert "if (n >= 0) {" in out.read_text()
    assert _run(out, tmp_path) == _run(src, tmp_path)


# struct members (one written back), a written matrix in rows of ldc, and a variable the region
# declares and the function returns: the region as written reads the members through the same
# variables, so the write-back holds for either branch
MEMBERS = """#include <stdio.h>
typedef struct { int m, n, ldc; double sum; } prob_t;
double upd(prob_t *p, double *restrict c, const double *restrict b)
{
#pragma scop
  double t = 1.0;
  for (int i = 0; i < p->m; i++)
    for (int j = 0; j < p->n; j++)
      c[i * p->ldc + j] = c[i * p->ldc + j] * 0.5 + b[j];
  for (int i = 0; i < p->m; i++)
    for (int j = 0; j < p->n; j++) {
      p->sum += c[i * p->ldc + j];
      t = t * 0.75 + c[i * p->ldc + j];
    }
#pragma endscop
  return t + p->sum;
}
int main(void)
{
  static double c[500], b[64];
  int sizes[][3] = {{5, 7, 7}, {5, 7, 9}, {5, 7, 3}, {0, 4, 2}, {4, 1, 1}, {6, 9, 4}};
  double s = 0;
  for (int t = 0; t < 6; t++) {
    prob_t p = {sizes[t][0], sizes[t][1], sizes[t][2], 0.25};
    for (int q = 0; q < 500; q++) c[q] = q %% 5;
    for (int q = 0; q < 64; q++) b[q] = q %% 3;
    s += upd(&p, c, b) + p.sum;
    for (int q = 0; q < 500; q++) s += c[q] * (q %% 7 + 1);
  }
  printf("%%.17g\\n", s);
  return 0;
}
"""


def test_members_and_a_variable_read_after_the_region(tmp_path):
    src, out, err = _transform(tmp_path, "members.c", MEMBERS % (),
                               ("permute: {stmt: 1, order: [j, i]}", "tile: {stmt: 2, loop: j, size: 4}"))
    text = out.read_text()
    assert "if (p__ldc >= p__n) {" in text, text
    # the region's own `double t = 1.0;` is an assignment in the branch as written: `t` is
    # declared before the block, where the function's return reads it
    fallback = text[text.index("} else {"):]
    assert re.search(r"^\s*t = 1\.0;", fallback, re.M) and "double t" not in fallback, fallback
    assert _run(out, tmp_path) == _run(src, tmp_path)


GEMV = """#include <stdio.h>
void gemv(int m, int k, int lda, double *restrict y, const double *restrict a, const double *restrict x)
{
#pragma scop
  for (int i = 0; i < m; i++) {
    y[i] = 0;
    for (int j = 0; j < k; j++)
      y[i] += a[i * lda + j] * x[j];
  }
#pragma endscop
}
int main(void)
{
  static double y[64], a[800], x[64];
  int sizes[][3] = {{5, 7, 7}, {5, 7, 2}, {9, 6, 11}, {0, 3, 1}, {6, 13, 1}};
  double s = 0;
  for (int q = 0; q < 800; q++) a[q] = q %% 9 - 4;
  for (int q = 0; q < 64; q++) x[q] = q %% 5;
  for (int t = 0; t < 5; t++) {
    gemv(sizes[t][0], sizes[t][1], sizes[t][2], y, a, x);
    for (int q = 0; q < 64; q++) s += y[q] * (q + 1);
  }
  printf("%%.17g\\n", s);
  return 0;
}
"""


def test_overlapping_rows_of_an_array_the_region_only_reads_need_no_check(tmp_path):
    src, out, err = _transform(tmp_path, "gemv.c", GEMV % (),
                               ("tile: {stmt: 1, loop: j, size: 4}", "unroll: {stmt: 1, loop: j, factor: 2}"))
    assert "the region only reads them, in any order, so the output holds for other values too" in err, err
    assert "else" not in out.read_text()
    assert _run(out, tmp_path) == _run(src, tmp_path)


SCALE = """void scale(int m, int n, int ldc, float alpha, float *restrict c)
{
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      c[i * ldc + j] = alpha * c[i * ldc + j] + 1.0f;
}
"""
SCALE_R = """steps:
  - tile: {stmt: 0, loop: j, size: 32}
  - cuda: {stmt: 0, block: [i, jj], thread: [j]}
"""


def _scale_cu(tmp_path) -> str:
    (tmp_path / "k.c").write_text(SCALE)
    (tmp_path / "r.yaml").write_text(SCALE_R)
    p = cli("transform", "k.c", "--function", "scale", "--recipe", "r.yaml", "--target", "cuda", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "its CUDA host code returns cudaErrorInvalidValue" in p.stderr, p.stderr
    return p.stdout


@needs_nvcc
def test_cuda_host_code_refuses_sizes_that_break_the_fact(tmp_path):
    cu = _scale_cu(tmp_path)
    for fn in ("lx_launch_scale", "scale_host_status"):
        body = cu[cu.index(f'extern "C" int {fn}('):]
        body = body[:body.index("\n}\n")]
        # an empty region (m or n below 1) runs nothing and is not refused
        assert "if (!(m < 1 || ldc >= n || n < 1)) return (int)cudaErrorInvalidValue;" in body, body
    assert nvcc_compile(cu) is None


DRIVER = """
#include <stdio.h>
int main(void)
{
  static float c[4000], ref[4000];
  int sizes[][3] = {{7, 40, 40}, {5, 33, 70}, {6, 40, 20}, {0, 5, 5}, {0, 40, 20}};
  for (int t = 0; t < 5; t++) {
    int m = sizes[t][0], n = sizes[t][1], ldc = sizes[t][2];
    for (int q = 0; q < 4000; q++) c[q] = ref[q] = (float)(q % 13);
    int rc = scale_host_status(m, n, ldc, 0.5f, c);
    if (ldc < n && m > 0) {
      if (rc != (int)cudaErrorInvalidValue) { printf("rc %d at ldc < n\\n", rc); return 1; }
      for (int q = 0; q < 4000; q++) if (c[q] != ref[q]) { printf("wrote at ldc < n\\n"); return 1; }
      continue;
    }
    if (rc != 0) { printf("rc %d\\n", rc); return 1; }
    for (int i = 0; i < m; i++) for (int j = 0; j < n; j++) ref[i * ldc + j] = 0.5f * ref[i * ldc + j] + 1.0f;
    for (int q = 0; q < 4000; q++) if (c[q] != ref[q]) { printf("differs at %d\\n", q); return 1; }
  }
  printf("ok\\n");
  return 0;
}
"""


@pytest.mark.gpu
def test_cuda_host_code_on_gpu_runs_only_where_the_fact_holds(tmp_path):
    (tmp_path / "main.cu").write_text(_scale_cu(tmp_path) + DRIVER)
    p = gpu_build_and_run(tmp_path / "main.cu")
    assert p.returncode == 0 and p.stdout.strip() == "ok", (p.returncode, p.stdout, p.stderr[-2000:])


BOUND = """#include <stdio.h>
void k(int n, double *a)
{
#pragma scop
  for (int i = 0; i < n / 2 + 1; i++)
    a[i] += 1.0;
  for (int i = 0; i <= n / 2; i++)
    a[i + 1] *= 3.0;
#pragma endscop
}
int main(void)
{
  double s = 0;
  for (int n = -5; n <= 9; n++) {
    double a[16] = {0};
    k(n, a);
    for (int q = 0; q < 16; q++) s += a[q] * (q + 1) * (n + 7);
  }
  printf("%%.17g\\n", s);
  return 0;
}
"""


def test_a_division_in_a_loop_bound_is_a_fact_too(tmp_path):
    # the domain, read with floor, implies n >= 0 from i = 0 (`2i <= n`); C's division runs
    # i = 0 at n = -1 as well, so that is no evidence
    src, out, err = _transform(tmp_path, "bound.c", BOUND % (), ("unroll: {stmt: 0, loop: i, factor: 2}",))
    assert "modelled for n >= 0" in err, err
    assert _run(out, tmp_path) == _run(src, tmp_path)


HALO = """#include <stdio.h>
void shifted(int n, int m, int h, double *restrict v, const double *restrict u)
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = h; j < m + h; j++)
      v[i*(m + 2*h) + j] = u[i*(m + 2*h) + j - h] * 0.5 + u[i*(m + 2*h) + j + h];
#pragma endscop
}
int main(void)
{
  static double v[2000], u[2000];
  int sizes[][3] = {{3, 5, 0}, {4, 7, 1}, {5, 9, 2}, {0, 3, 1}, {6, 1, 3}, {7, 33, 2}};
  double s = 0;
  for (int t = 0; t < 6; t++) {
    for (int q = 0; q < 2000; q++) { u[q] = q %% 11; v[q] = q %% 3; }
    shifted(sizes[t][0], sizes[t][1], sizes[t][2], v, u);
    for (int q = 0; q < 2000; q++) s += v[q] * (q %% 17 + 1);
  }
  printf("%%.17g\\n", s);
  return 0;
}
"""


def test_a_halo_read_shifted_back_by_the_halo(tmp_path):
    # `j - h` with j from h is in its row of m + 2h for h >= 0, as `j` and `j + h` are
    src, out, err = _transform(tmp_path, "halo.c", HALO % (), ("tile: {stmt: 0, loop: j, size: 4}",))
    assert "modelled for h >= 0" in err, err
    assert _run(out, tmp_path) == _run(src, tmp_path)


UNSIGNED = """void k(unsigned n, int m, double *restrict a, const double *restrict b)
{
#pragma scop
  for (int i = 0; i < m + n / 2; i++)
    a[i] = b[i] * 2.0 + a[i + 1];
#pragma endscop
}
"""


def test_an_unsigned_size_needs_no_check(tmp_path):
    src, out, err = _transform(tmp_path, "u.c", UNSIGNED, ("tile: {stmt: 0, loop: i, size: 4}",))
    assert "modelled for" not in err and "else" not in out.read_text(), err


TWO = """typedef struct { int n, k, s; float *y; } frames_t;
void two(frames_t *p, const float *restrict x)
{
#pragma scop
  for (int i = 0; i < p->n; i++)
    for (int j = 0; j < p->k; j++)
      p->y[i*p->s + j] = 0.5f * p->y[i*p->s + j] + x[i];
#pragma endscop
#pragma scop
  for (int i = 0; i < p->n; i++)
    for (int j = 0; j < p->k; j++)
      p->y[i*p->s + j] += x[j];
#pragma endscop
}
"""


def test_notes_name_members_as_written_in_each_region(tmp_path):
    src, out, err = _transform(tmp_path, "two.c", TWO, ())
    notes = [ln for ln in err.splitlines() if "modelled for" in ln]
    assert [n.split(":")[1] for n in notes] == ["5", "10"], err
    assert all("modelled for p->s >= p->k: the linearized subscripts of 'p->y' stay in their rows of p->s" in n
               for n in notes), err
