"""Arrays of structs (frontend/records.py): each member is an array of the model, the code keeps
the user's layout, and `run` validates on the struct array itself (the harness lays it out as
the compiler does, checked by _Static_assert).  Real shapes: Parboil mri-q's `kVals[k].Kx`,
CS50's `RGBTRIPLE image[h][w]`, complex numbers as structs, particles with nested members.  The
.cu passes each array of structs once, as the user's struct type (packed where the file says so)."""
from __future__ import annotations

import pytest

from conftest import require_gpu, run_cli
from test_cuda_codegen import needs_nvcc, nvcc_compile

MRIQ = """#include <math.h>
struct kValues { float Kx; float Ky; float Kz; float PhiMag; };

void ComputeQ(int numK, int numX, struct kValues *kVals, float *x, float *y, float *z,
              float *Qr, float *Qi)
{
  float expArg, cosArg, sinArg;
  int indexK, indexX;
  for (indexX = 0; indexX < numX; indexX++) {
    float Qracc = 0.0f;
    float Qiacc = 0.0f;
    for (indexK = 0; indexK < numK; indexK++) {
      expArg = 6.2831853f * (kVals[indexK].Kx * x[indexX] + kVals[indexK].Ky * y[indexX] + kVals[indexK].Kz * z[indexX]);
      cosArg = cosf(expArg);
      sinArg = sinf(expArg);
      float phi = kVals[indexK].PhiMag;
      Qracc += phi * cosArg;
      Qiacc += phi * sinArg;
    }
    Qr[indexX] = Qracc;
    Qi[indexX] = Qiacc;
  }
}
"""

GRAY = """#include <math.h>
#include <stdint.h>
typedef uint8_t BYTE;
typedef struct { BYTE rgbtBlue; BYTE rgbtGreen; BYTE rgbtRed; } __attribute__((__packed__)) RGBTRIPLE;

void grayscale(int height, int width, RGBTRIPLE image[height][width])
{
    for (int i = 0; i < height; i++)
        for (int j = 0; j < width; j++) {
            int avg = round((image[i][j].rgbtBlue + image[i][j].rgbtGreen + image[i][j].rgbtRed) / 3.0);
            image[i][j].rgbtBlue = avg;
            image[i][j].rgbtGreen = avg;
            image[i][j].rgbtRed = avg;
        }
}
"""

ZMM = """typedef struct { double re, im; } cplx;
void zmm(int n, cplx A[n][n], cplx B[n][n], cplx C[n][n])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++) {
        C[i][j].re += A[i][k].re * B[k][j].re - A[i][k].im * B[k][j].im;
        C[i][j].im += A[i][k].re * B[k][j].im + A[i][k].im * B[k][j].re;
      }
#pragma endscop
}
"""

PARTICLES = """#define D 3
typedef struct { int id; double pos[D]; struct { double x, y; } v; double *next; } particle_t;
void step(int n, particle_t *p, double dt)
{
  for (int i = 1; i < n; i++) {
    for (int d = 0; d < D; d++)
      p[i].pos[d] = p[i-1].pos[d] + dt * p[i].v.x;
    p[i].v.y = p[i].v.y * 0.5 + p[i].id;
  }
}
"""


def _write(tmp_path, name, text, recipe=None):
    src = tmp_path / name
    src.write_text(text)
    if recipe is None:
        return src, None
    r = tmp_path / (name + ".yaml")
    r.write_text(recipe)
    return src, r


def _ok(*argv):
    rc, out, err = run_cli(*argv)
    assert rc == 0 and ": ok" in out and "max rel err 0.0e+00" in out, out + err
    return out


def test_mriq_members_are_arrays_of_the_model_and_run_validates_them(tmp_path):
    src, r = _write(tmp_path, "mriq.c", MRIQ, """steps:
  - privatize: {var: expArg, at: indexX}
  - privatize: {var: cosArg, at: indexX}
  - privatize: {var: sinArg, at: indexX}
  - tile: {stmt: 2, loop: indexK, size: 64, control: kk}
  - omp_for: {stmt: 2, loop: indexX}
""")
    rc, out, err = run_cli("deps", src, "--function", "ComputeQ")
    assert rc == 0 and "phi = kVals[indexK].PhiMag" in out and "__" not in out, out + err
    # 100 = 64 + 36: the last tile of indexK is partial
    _ok("run", src, "--function", "ComputeQ", "--recipe", r, "-D", "numK=100", "-D", "numX=37")
    rc, out, err = run_cli("transform", src, "--function", "ComputeQ", "--recipe", r)
    assert rc == 0 and "kVals[indexK].Kx * x[indexX]" in out and "kVals__" not in out, out + err


def test_a_two_dimensional_array_of_typedef_structs_of_bytes(tmp_path):
    src, r = _write(tmp_path, "gray.c", GRAY, """steps:
  - tile: {stmt: 0, loop: i, size: 16, control: ii}
  - tile: {stmt: 0, loop: j, size: 32, control: jj}
  - permute: {stmt: 0, order: [ii, jj, i, j]}
""")
    _ok("run", src, "--function", "grayscale", "--recipe", r, "-D", "height=37", "-D", "width=101")
    rc, out, err = run_cli("transform", src, "--function", "grayscale", "--recipe", r)
    assert rc == 0 and "image[i][j].rgbtRed = avg;" in out, out + err


def test_copies_and_registers_of_a_member_named_as_the_user_writes_it(tmp_path):
    src, r = _write(tmp_path, "zmm.c", ZMM, """steps:
  - tile: {stmt: 0, loop: k, size: 16, control: kk}
  - tile: {stmt: 0, loop: j, size: 16, control: jj}
  - permute: {stmt: 0, order: [kk, jj, i, k, j]}
  - datacopy: {stmt: 0, array: "B[][].re", at: i}
  - registers: {stmt: 0, array: C.im, at: k}
  - unroll: {stmt: 0, loop: k, factor: 4}
""")
    _ok("run", src, "--recipe", r, "-D", "n=37")
    rc, out, err = run_cli("transform", src, "--recipe", r)
    assert rc == 0 and "= B[c7][c9].re;" in out and "C[i][c9].im = C__im_r" in out, out + err


def test_nested_members_member_arrays_and_a_broken_dependence(tmp_path):
    src, r = _write(tmp_path, "part.c", PARTICLES, "steps:\n  - unroll: {stmt: 0, loop: d, factor: 0}\n")
    _ok("run", src, "--function", "step", "--recipe", r, "-D", "n=101")
    rc, out, err = run_cli("transform", src, "--function", "step", "--recipe", r)
    assert rc == 0 and "p[i].pos[2] = p[i - 1].pos[2] + dt * p[i].v.x;" in out, out + err
    bad = tmp_path / "rev.yaml"
    bad.write_text("steps:\n  - reverse: {stmt: 0, loop: i}\n")
    rc, out, err = run_cli("transform", src, "--function", "step", "--recipe", bad)
    assert rc == 2 and "writes p[1].pos[0] before" in err and "__" not in err, err
    # with the check off, the harness sees the wrong values in the struct array
    rc, out, err = run_cli("run", src, "--function", "step", "--recipe", bad, "--unsafe", "-D", "n=50")
    assert rc == 1 and "wrong result in 'p[...].pos'" in out, out + err


@pytest.mark.parametrize("decl, body, message", [
    ("typedef struct { double x, y; } pt;", "p[i] = q[i]; r[i] = p[i].x;",
     "uses the array of structs 'p' other than through its members"),
    ("typedef union { double x; long y; } pt;", "r[i] = p[i].x;", "is a member of a union"),
    ("typedef struct { double *v; } pt;", "r[i] = p[i].v[0];", "the member 'p[i].v' is a pointer"),
    ("typedef struct { double x, y; } pt;", "r[i] = p[i].x + p->y;",
     "'p->y' and 'p[i].x' reach the same array of structs"),
    ("typedef struct { double x, y; } pt;", "r[i] = p[i].z;", "'p[i]' has no member 'z'"),
    ("typedef struct { struct { double a; } in; } pt;", "r[i] = p[i].in.a + g(p[i]);",
     "other than through its members"),
])
def test_what_the_model_cannot_stand_for_is_one_located_line(tmp_path, decl, body, message):
    src = tmp_path / "bad.c"
    src.write_text(f"{decl}\ndouble g(pt s);\nvoid f(int n, pt *p, pt *q, double *r) {{\n#pragma scop\n"
                   f"  for (int i = 0; i < n; i++) {{ {body} }}\n#pragma endscop\n}}\n")
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"{src}:5:") and message in err, err


CUDA_RECIPES = {
    "gray": ("""steps:
  - tile: {stmt: 0, loop: i, size: 8, control: ii}
  - tile: {stmt: 0, loop: j, size: 32, control: jj}
  - permute: {stmt: 0, order: [ii, jj, i, j]}
  - cuda: {stmt: 0, block: [ii, jj], thread: [j, i]}
""", ["--function", "grayscale"], [["-D", "height=37", "-D", "width=101"], ["-D", "height=64", "-D", "width=64"]]),
    "mriq": ("""steps:
  - privatize: {var: expArg, at: indexX}
  - privatize: {var: cosArg, at: indexX}
  - privatize: {var: sinArg, at: indexX}
  - tile: {stmt: 0, loop: indexX, size: 128, control: xx}
  - cuda: {stmt: 0, block: [xx], thread: [indexX]}
""", ["--function", "ComputeQ"], [["-D", "numK=100", "-D", "numX=333"]]),
    "zmm": ("""steps:
  - tile: {stmt: 0, loop: i, size: 16, control: ii}
  - tile: {stmt: 0, loop: j, size: 16, control: jj}
  - permute: {stmt: 0, order: [ii, jj, i, j, k]}
  - cuda: {stmt: 0, block: [jj, ii], thread: [j, i]}
  - shared: {stmt: 0, array: A.re, at: k}
""", [], [["-D", "n=37"], ["-D", "n=32"]]),
    "part": ("""steps:
  - tile: {stmt: 1, loop: i, size: 64, control: ii}
  - cuda: {stmt: 1, block: [ii], thread: [i]}
""", ["--function", "step"], [["-D", "n=1000"]]),
}
SOURCES = {"gray": GRAY, "mriq": MRIQ, "zmm": ZMM, "part": PARTICLES.replace("p[i-1].pos[d]", "p[i].pos[d]")}


@needs_nvcc
@pytest.mark.parametrize("name", list(CUDA_RECIPES))
def test_the_cu_passes_each_array_of_structs_once(tmp_path, name):
    recipe, args, sizes = CUDA_RECIPES[name]
    src, r = _write(tmp_path, name + ".c", SOURCES[name], recipe)
    cu = tmp_path / (name + ".cu")
    rc, out, err = run_cli("transform", src, *args, "--recipe", r, "--target", "cuda", "-o", cu)
    assert rc == 0, err
    text = cu.read_text()
    assert nvcc_compile(text) is None, text
    if name == "gray":
        assert "} __attribute__((packed)) RGBTRIPLE;" in text, text
        assert "image[(ty + 8 * bx) * width + (tx + 32 * by)].rgbtRed = avg;" in text, text
    if name == "part":
        main = tmp_path / "main.cu"
        rc, out, err = run_cli("transform", src, *args, "--recipe", r, "--target", "cuda", "--standalone",
                               *sizes[0], "-o", main)
        assert rc == 0 and "p.pos checksum" in main.read_text(), err


@pytest.mark.gpu
@pytest.mark.parametrize("name", list(CUDA_RECIPES))
def test_arrays_of_structs_run_and_validate_on_the_gpu(tmp_path, name):
    require_gpu()
    recipe, args, sizes = CUDA_RECIPES[name]
    src, r = _write(tmp_path, name + ".c", SOURCES[name], recipe)
    for size in sizes:
        rc, out, err = run_cli("run", src, *args, "--recipe", r, "--target", "cuda", *size)
        assert rc == 0 and ": ok" in out, out + err


def test_a_layout_the_cu_cannot_share_is_refused_at_the_declaration(tmp_path):
    src = tmp_path / "al.c"
    src.write_text("typedef struct { double x; float y; } __attribute__((aligned(32))) pt;\n"
                   "void f(int n, pt *p) {\n#pragma scop\n  for (int i = 0; i < n; i++) p[i].x += p[i].y;\n"
                   "#pragma endscop\n}\n")
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 32, control: ii}\n"
                 "  - cuda: {stmt: 0, block: [ii], thread: [i]}\n")
    rc, out, err = run_cli("transform", src, "--recipe", r, "--target", "cuda")
    assert rc == 2 and err.count("\n") == 1 and err.startswith(f"{src}:2:") and "aligned(32)" in err, err
    rc, out, err = run_cli("run", src, "-D", "n=50")
    assert rc == 0 and ": ok" in out, out + err
