"""The regenerated C region keeps the file's macro spellings (`SCALAR_VAL(0.2)`, `(DATA_TYPE)n`,
`SQRT_FUN(x)`, `DATA_TYPE C_r[4]`), so the output stays right for every configuration the file
can be built in, as PolyBench's -DDATA_TYPE_IS_FLOAT; the analysis and the CUDA file still see
the expansions.  Errors inside a macro use point at the use."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from conftest import run_cli

CONFIG = """\
#include <stdio.h>
#include <math.h>
#ifdef USE_FLOAT
# define DATA_TYPE float
# define SCALAR_VAL(x) x##f
# define SQRT_FUN(x) sqrtf(x)
#else
# define DATA_TYPE double
# define SCALAR_VAL(x) x
# define SQRT_FUN(x) sqrt(x)
#endif
/* PolyBench declares its arrays through an identity macro, which marking would break */
#define DECL_VAR(x) x
#ifndef N
# define N 37
#endif
"""

MAIN = """
static DATA_TYPE DECL_VAR(A)[N][N], B[N][N], C[N][N];

int main(void)
{
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      A[i][j] = (DATA_TYPE)((i * 7 + j * 3) % 11) / 7;
      B[i][j] = (DATA_TYPE)((i + 5 * j) % 13) / 9;
      C[i][j] = SCALAR_VAL(0.3);
    }
  kern(N, SCALAR_VAL(1.7), A, B, C);
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      printf("%.9g\\n", (double)C[i][j]);
  return 0;
}
"""

GEMM = CONFIG + """
void kern(int n, DATA_TYPE alpha, DATA_TYPE A[N][N], DATA_TYPE B[N][N], DATA_TYPE C[N][N])
{
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        C[i][j] += alpha * A[i][k] * B[k][j] * SCALAR_VAL(0.1);
#pragma endscop
}
""" + MAIN

NORMS = CONFIG + """
void kern(int n, DATA_TYPE alpha, DATA_TYPE A[N][N], DATA_TYPE B[N][N], DATA_TYPE C[N][N])
{
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      DATA_TYPE t = SCALAR_VAL(0.0);
      for (k = 0; k < n; k++)
        t += A[i][k] * B[k][j] / (DATA_TYPE)(k + 1);
      C[i][j] = alpha * SQRT_FUN(t * t + SCALAR_VAL(1.5));
    }
#pragma endscop
}
""" + MAIN

REGISTERS = """steps:
  - tile: {stmt: 0, loop: j, size: 4}
  - permute: {stmt: 0, order: [i, jj, k, j]}
  - unroll: {stmt: 0, loop: j, factor: 4}
  - registers: {stmt: 0, array: C, at: k}
"""

TILE_UNROLL = """steps:
  - tile: {stmt: 1, loop: k, size: 4}
  - unroll: {stmt: 1, loop: k, factor: 2}
"""


def _outputs(path, flags: list[str]) -> str:
    exe = path.with_suffix("")
    subprocess.run(["gcc", "-O1", *flags, str(path), "-o", str(exe), "-lm"], check=True)
    return subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout


def _transform(tmp_path, source: str, recipe: str, *extra) -> tuple:
    src = tmp_path / "k.c"
    src.write_text(source)
    (tmp_path / "r.yaml").write_text(recipe)
    out = tmp_path / "out.c"
    rc, _, err = run_cli("transform", src, "--recipe", tmp_path / "r.yaml", "-o", out, *extra)
    assert rc == 0, err
    return src, out


@pytest.mark.parametrize("source, recipe, spelled", [
    (GEMM, REGISTERS, ["DATA_TYPE C_r[4];", "SCALAR_VAL(0.1)"]),
    (NORMS, TILE_UNROLL, ["DATA_TYPE t;", "t = SCALAR_VAL(0.0);", "/ (DATA_TYPE)(k + 1)",
                          "SQRT_FUN(t * t + SCALAR_VAL(1.5))"]),
], ids=["registers", "locals-casts-calls"])
@pytest.mark.parametrize("size", ["37", "40"])
def test_output_is_right_in_every_configuration(tmp_path, source, recipe, spelled, size):
    src, out = _transform(tmp_path, source, recipe)
    text = out.read_text()
    region = text[text.index("#pragma scop"):text.index("#pragma endscop")]
    for s in spelled:
        assert s in region, region
    assert "double" not in region and "0.1;" not in region
    for config in ([], ["-DUSE_FLOAT"]):
        flags = config + [f"-DN={size}"]
        assert _outputs(out, flags) == _outputs(src, flags), (config, size)


def test_the_cuda_file_and_the_harness_use_the_expansion(tmp_path):
    """The .cu file does not include the user's macros, and `looptx run` builds the region
    alone: both print the configuration looptx read."""
    src, _ = _transform(tmp_path, GEMM, REGISTERS)
    (tmp_path / "cu.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: j, size: 32}\n"
                                      "  - cuda: {stmt: 0, block: [jj, i], thread: [j]}\n")
    cu = tmp_path / "k.cu"
    rc, _, err = run_cli("transform", src, "--recipe", tmp_path / "cu.yaml", "--target", "cuda", "-o", cu)
    assert rc == 0, err
    # (the #error of the guard of the conditional that defines them names them)
    kernel = "\n".join(ln for ln in cu.read_text().split("\n") if not ln.startswith("#error"))
    assert "SCALAR_VAL" not in kernel and "DATA_TYPE" not in kernel and "0.1" in kernel
    if shutil.which("nvcc"):
        subprocess.run(["nvcc", "-c", str(cu), "-o", str(tmp_path / "k.o")], check=True, capture_output=True)
    rc, out, err = run_cli("run", src, "--recipe", tmp_path / "r.yaml", "-D", "n=37", "--repetitions", "1")
    assert rc == 0, err
    assert "ok" in out


def test_float_configuration_given_to_looptx(tmp_path):
    """-D USE_FLOAT=1 picks the float definitions: the spellings are the same, and the output
    is still right in both configurations."""
    src, out = _transform(tmp_path, NORMS, TILE_UNROLL, "-D", "USE_FLOAT=1")
    assert "SQRT_FUN(" in out.read_text()
    for config in ([], ["-DUSE_FLOAT"]):
        assert _outputs(out, config) == _outputs(src, config)


def test_a_macro_used_as_a_declarator_only_loses_its_own_spelling(tmp_path):
    """`DATA_TYPE DECL_VAR(A)` cannot parse with DECL_VAR marked; the other macros keep theirs."""
    src = CONFIG + """
#define IDENT(x) x
void kern(int n, DATA_TYPE IDENT(A)[N], DATA_TYPE B[N])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    B[i] = IDENT(SCALAR_VAL(2.5)) * A[i];
#pragma endscop
}
"""
    _, out = _transform(tmp_path, src, "steps:\n  - unroll: {stmt: 0, loop: i, factor: 2}\n")
    region = out.read_text().split("#pragma scop")[1]
    assert "B[i] = SCALAR_VAL(2.5) * A[i];" in region


def test_error_inside_a_macro_use_points_at_the_use(tmp_path):
    src = tmp_path / "k.c"
    src.write_text("""double get(int);
#define SET2(a, i) a[2*(i)] = 0.0; a[2*(i)+1] = get(i)
#define SCALE(x) (2.0*(x))
#define ALPHA 1.5
void k(int n, double a[100], double b[100])
{
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    SET2(a, i);
  }
  for (i = 0; i < n; i++)
    a[i] = SCALE(b[i]) + ALPHA * b[i*i];
#pragma endscop
}
""")
    rc, _, err = run_cli("deps", src)
    assert rc == 2 and err.startswith(f"{src}:10:5: error: call to 'get'"), err
    src.write_text(src.read_text().replace("    SET2(a, i);\n", ""))
    rc, _, err = run_cli("deps", src)
    assert rc == 2 and err.startswith(f"{src}:12:34: error: non-affine subscript of 'b'"), err


def _program(decls: str, region: str, before_region: str = "") -> str:
    return f"""#include <stdio.h>
{decls}
double A[64], B[64];
void kern(void)
{{
  int i;
{before_region}#pragma scop
{region}
#pragma endscop
}}
int main(void)
{{
  int i;
  for (i = 0; i < 64; i++) {{ A[i] = 0; B[i] = i % 9 + 0.5; }}
  kern();
  for (i = 0; i < 64; i++) printf("%.17g\\n", A[i]);
  return 0;
}}
"""


@pytest.mark.parametrize("source", [
    # bodies that would regroup inside the marker's parentheses: 2*NN is 6, not 8
    _program("#define NN 2+2", "  for (i = 0; i < 2*NN; i++)\n    A[i] = B[i] * NN;"),
    _program("#define ADD(a, b) a+b", "  for (i = 0; i < 9; i++)\n    A[i] = 2 * ADD(B[i], 1);"),
    _program("#define V(x) x\n#define OFF(i) i+1", "  for (i = 0; i < 9; i++)\n    A[2*OFF(i)] = 2 * V(1+1) * B[i] + V(0.5);"),
    # the name would not mean at the region what it meant where it was defined or read
    _program("#define KR 2.0", "  for (i = 0; i < 9; i++)\n    A[i] = B[i] * KR;", "#undef KR\n#define KR 3.0\n"),
    _program("#define T double\nstatic T C[64];\n#undef T\n#define T float",
             "  for (i = 0; i < 9; i++)\n    A[i] = C[i] + B[i] * (T)0.1;"),
], ids=["object-2+2", "fn-a+b", "identity-1+1", "define-in-function", "redefined-type"])
def test_a_spelling_that_could_change_the_meaning_is_expanded(tmp_path, source):
    src, out = _transform(tmp_path, source, "steps:\n  - unroll: {stmt: 0, loop: i, factor: 2}\n",
                          "--function", "kern")
    assert _outputs(out, []) == _outputs(src, [])


def test_float_suffix_paste_is_spelled(tmp_path):
    """PolyBench's float SCALAR_VAL(x) x##f, with looptx run in the float configuration: the
    output keeps SCALAR_VAL and is right in the double build too."""
    src, out = _transform(tmp_path, GEMM, REGISTERS, "-D", "USE_FLOAT=1")
    assert "* SCALAR_VAL(0.1);" in out.read_text() and "0.1f" not in out.read_text()
    for config in ([], ["-DUSE_FLOAT"]):
        assert _outputs(out, config) == _outputs(src, config)


def test_temporary_of_a_const_array_keeps_the_type_macro(tmp_path):
    source = GEMM.replace("DATA_TYPE A[N][N], DATA_TYPE B[N][N]", "DATA_TYPE A[N][N], const DATA_TYPE B[N][N]")
    src, out = _transform(tmp_path, source, REGISTERS.replace("registers: {stmt: 0, array: C", "datacopy: {stmt: 0, array: B"))
    assert re.search(r"^ *DATA_TYPE B_buf\[1\]\[4\];", out.read_text(), re.M), out.read_text()
    for config in ([], ["-DUSE_FLOAT"]):
        assert _outputs(out, config) == _outputs(src, config)


INT_CONFIG = """\
#include <stdio.h>
#include <stdint.h>
#ifdef WIDE
# define TYPE int64_t
#else
# define TYPE int32_t
#endif
#define ZERO ((TYPE)0)
#define N 29
void kern(TYPE a[N][N], TYPE b[N])
{
  int i, j;
  TYPE s;
#pragma scop
  for (i = 0; i < N; i++) {
    s = (TYPE)0;
    for (j = 0; j < N; j++)
      s += a[i][j] * (TYPE)3;
    b[i] = s + ZERO;
  }
#pragma endscop
}
int main(void)
{
  static TYPE a[N][N], b[N];
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      a[i][j] = (TYPE)((i * 7 + j * 3) % 11) - 5;
  kern(a, b);
  for (i = 0; i < N; i++)
    printf("%lld\\n", (long long)b[i]);
  return 0;
}
"""


def test_a_type_macro_naming_a_stdint_type_keeps_its_spelling(tmp_path):
    # MachSuite's `#define TYPE int32_t`, and a constant that casts to it: the region is
    # right for each of the file's configurations, not frozen to the one looptx was run with
    src, out = _transform(tmp_path, INT_CONFIG, "steps:\n  - tile: {stmt: 1, loop: j, size: 4}\n"
                                                "  - unroll: {stmt: 1, loop: j, factor: 2}\n")
    text = out.read_text()
    region = text[text.index("#pragma scop"):text.index("#pragma endscop")]
    assert "s = (TYPE)0;" in region and "* (TYPE)3" in region and "s + ZERO" in region, region
    assert "int32_t" not in region and "int64_t" not in region, region
    for config in ([], ["-DWIDE"]):
        assert _outputs(out, config) == _outputs(src, config), config
