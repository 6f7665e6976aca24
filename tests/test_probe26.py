"""Probe 26 (darknet, Mantevo HPCCG, LULESH, CS50's image filters): a typedef'd local in a
harness and a .cu, sqrt of an int in a kernel, a legality check that took a minute on a 3x3
blur, '%' and '/' by a #define, an enum constant or a --define, a stride that --define fixes
in a linearized subscript, a declaration in a branch on data, and the statement numbers of the
one-thread-kernel warning."""
from __future__ import annotations

import pytest

from conftest import run_cli
from test_cuda_codegen import needs_nvcc, nvcc_compile

CUDA_TILE = "steps:\n  - tile: {stmt: 0, loop: i, size: 32, control: ii}\n  - cuda: {stmt: 0, block: [ii], thread: [i]}\n"


@needs_nvcc
@pytest.mark.parametrize("src", [
    # LULESH's Real_t locals: the harness and the .cu have no typedef of the file
    "typedef double real;\nvoid f(int n, real *a, real *b)\n{\n  int i;\n#pragma scop\n"
    "  for (i = 0; i < n; i++) {\n    real t = b[i] * 2.0;\n    a[i] = t + 1.0;\n  }\n#pragma endscop\n}\n",
    # CS50's Sobel: C converts the int to double; C++ would call a host-only template
    "#include <math.h>\nvoid f(int n, int *a, float *b)\n{\n  int i;\n#pragma scop\n"
    "  for (i = 0; i < n; i++)\n    b[i] = round(sqrt(a[i] * a[i] + 1));\n#pragma endscop\n}\n",
])
def test_kernels_that_compile_as_c_compile_as_cuda(tmp_path, src):
    (tmp_path / "k.c").write_text(src)
    (tmp_path / "r.yaml").write_text(CUDA_TILE)
    rc, out, err = run_cli("transform", tmp_path / "k.c", "--recipe", tmp_path / "r.yaml", "--target", "cuda")
    assert rc == 0, err
    assert nvcc_compile(out) is None, nvcc_compile(out)
    for recipe in ("r.yaml", None):
        args = ("--recipe", tmp_path / recipe) if recipe else ()
        rc, out, err = run_cli("run", tmp_path / "k.c", *args, "-D", "n=100")
        assert rc == 0 and ": ok" in out, out + err
    if "real t" in src:
        rc, out, err = run_cli("transform", tmp_path / "k.c", "--recipe", tmp_path / "r.yaml")
        # the grid emulation's thread zeroes its scalar locals (gcc's -Wmaybe-uninitialized);
        # the user's file has the typedef, and its C spells the local as the file does
        assert rc == 0 and "real t = 0;" in out, out + err


# CS50's box blur (one channel): a 6-deep nest with guards and two locals per pixel
BLUR = """#include <math.h>
void blur(int height, int width, unsigned char image[height][width], unsigned char temp[height][width])
{
    for (int i = 0; i < height; i++)
        for (int j = 0; j < width; j++)
            temp[i][j] = image[i][j];
    for (int i = 0; i < height; i++)
        for (int j = 0; j < width; j++) {
            int redSum = 0;
            int count = 0;
            for (int di = -1; di <= 1; di++)
                for (int dj = -1; dj <= 1; dj++) {
                    int ni = i + di, nj = j + dj;
                    if (ni >= 0 && ni < height && nj >= 0 && nj < width) {
                        redSum += temp[ni][nj];
                        count++;
                    }
                }
            image[i][j] = round(redSum / (float)count);
        }
}
"""


def test_a_box_blur_tiles_and_unrolls(tmp_path):
    """The locals' lifetimes were checked by composing two lexicographic orders of the whole
    nest (20 s a step); the tiles keep each pixel's body together, which the check now sees
    directly.  A jam that interleaves two pixels' redSum gives each copy a redSum of its own."""
    (tmp_path / "b.c").write_text(BLUR)
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 5, loop: i, size: 16, control: ii}\n"
                                     "  - tile: {stmt: 5, loop: j, size: 8, control: jj}\n"
                                     "  - permute: {stmt: 5, order: [ii, jj, i, j]}\n"
                                     "  - unroll: {stmt: 3, loop: dj, factor: 0}\n")
    for h, w in ((31, 17),):
        rc, out, err = run_cli("run", tmp_path / "b.c", "--function", "blur", "--recipe", tmp_path / "r.yaml",
                               "-D", f"height={h}", "-D", f"width={w}")
        assert rc == 0 and ": ok" in out, (h, w, out + err)
    # a jam that interleaves two pixels' sums gives each its own redSum and count
    (tmp_path / "jam.yaml").write_text("steps:\n  - unroll: {stmt: 5, loop: j, factor: 2}\n")
    rc, out, err = run_cli("run", tmp_path / "b.c", "--function", "blur", "--recipe", tmp_path / "jam.yaml",
                           "-D", "height=9", "-D", "width=7")
    assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("head, defines", [("#define K 3\n", ()), ("enum { K = 3 };\n", ()),
                                           ("", ("-D", "K=3"))])
def test_a_divisor_with_a_value_is_a_constant(tmp_path, head, defines):
    """darknet's im2col: `c % ksize`, `c / ksize / ksize`."""
    params = "int n" + (", int K" if not head else "")
    (tmp_path / "m.c").write_text(head + f"void f({params}, float *a, float *b, float *d)\n{{\n  int c;\n#pragma scop\n"
                                  "  for (c = 0; c < n; ++c) {\n    int w = c % K;\n"
                                  "    a[c] = b[w] + d[c / K / K];\n  }\n#pragma endscop\n}\n")
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: c, size: 8}\n")
    rc, out, err = run_cli("transform", tmp_path / "m.c", "--recipe", tmp_path / "r.yaml", *defines)
    assert rc == 0, err
    assert ("#if K != 3\n#error" in out) == head.startswith("#define"), out
    rc, out, err = run_cli("run", tmp_path / "m.c", "--recipe", tmp_path / "r.yaml", "-D", "n=29", *defines)
    assert rc == 0 and ": ok" in out, out + err


def test_a_stride_that_define_fixes_delinearizes(tmp_path):
    """darknet's maxpool: `index = j + W*(i*s + H*(k + b*C))`, a member stride `l.stride`."""
    (tmp_path / "p.c").write_text(
        "struct layer { int stride; };\n"
        "void f(int B, int C, int H, int W, float *in, float *out, struct layer l)\n{\n  int b, k, i, j;\n#pragma scop\n"
        "  for (b = 0; b < B; b++)\n    for (k = 0; k < C; k++)\n      for (i = 0; i < H; i++)\n"
        "        for (j = 0; j < W; j++) {\n          int cur = i*l.stride;\n"
        "          int index = j + W*(cur + H*(k + b*C));\n          out[index] = in[index] * 2;\n        }\n"
        "#pragma endscop\n}\n")
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: j, size: 8}\n")
    rc, out, err = run_cli("run", tmp_path / "p.c", "--recipe", tmp_path / "r.yaml", "-D", "l__stride=1",
                           "-D", "B=2", "-D", "C=3", "-D", "H=5", "-D", "W=13")
    assert rc == 0 and ": ok" in out, out + err
    rc, out, err = run_cli("deps", tmp_path / "p.c", "-D", "l__stride=2")
    assert rc == 2 and "the index 2*i within rows of H elements is not always in [0, H)" in err, err


def test_a_declaration_in_a_branch_on_data_is_its_assignment(tmp_path):
    """LULESH's CalcEnergyForElems: `else { Real_t ssc = ...; if (ssc <= 0.0) ... }`."""
    (tmp_path / "e.c").write_text(
        "#include <math.h>\ntypedef double Real_t;\n"
        "void e(int n, Real_t *q, Real_t *delv, Real_t *p, Real_t rho0)\n{\n  int i;\n#pragma scop\n"
        "  for (i = 0; i < n; ++i) {\n    if (delv[i] > 0.0) {\n      q[i] = 0.0;\n    } else {\n"
        "      Real_t ssc = p[i] / rho0;\n      if (ssc <= 0.0)\n        ssc = .333333e-36;\n      else\n"
        "        ssc = sqrt(ssc);\n      q[i] = ssc * 2.0;\n    }\n  }\n#pragma endscop\n}\n")
    (tmp_path / "r.yaml").write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 4}\n")
    rc, out, err = run_cli("run", tmp_path / "e.c", "--recipe", tmp_path / "r.yaml", "-D", "n=103")
    assert rc == 0 and ": ok" in out, out + err


def test_unmapped_statements_are_numbered_over_the_file(tmp_path):
    src = "".join(f"void f{k}(int n, double *a)\n{{\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++)\n"
                  f"    a[i] = a[i] * {k + 2}.0;\n#pragma endscop\n}}\n" for k in range(3))
    (tmp_path / "h.c").write_text(src)
    (tmp_path / "r.yaml").write_text(CUDA_TILE.replace("stmt: 0", "stmt: 1"))
    rc, out, err = run_cli("transform", tmp_path / "h.c", "--recipe", tmp_path / "r.yaml", "--target", "cuda")
    assert rc == 0, err
    assert "warning: statement 0 is not mapped" in err and "warning: statement 2 is not mapped" in err, err
    assert "statement 1 is not mapped" not in err, err
