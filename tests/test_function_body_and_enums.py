"""A whole function body as the region (`--function`, CONTRACT: "if NAME has no marker, its whole
body is the region") when the body begins with a pragma or ends with a return, and enum
constants used as loop bounds and in statements.  Checked by compiling and running the original
and the output (gcc) at sizes that do and do not divide the tile size; the CUDA mapping that a
known enum extent allows is compiled with nvcc."""
import pytest
from conftest import run_cli as cli
from test_app_kernels import _run
from test_cuda_codegen import needs_nvcc, nvcc_compile

MAIN = """
int main(void)
{
    static double a[80], b[80];
    double s = 0;
    for (int n = 1; n <= 70; n += 23) {
        for (int i = 0; i < 80; i++) { a[i] = (i * 7) % 13; b[i] = (i * 5) % 11 - 3.0; }
        s += f(n, a, b);
        for (int i = 0; i < 80; i++) s += a[i] * (i % 7 + 1) + b[i];
    }
    printf("%.17g\\n", s);
    return 0;
}
"""

PRAGMA_FIRST = """#include <stdio.h>
double f(int n, double *a, double *b)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        a[i] = b[i] * 2.0 + a[i];
    #pragma omp simd
    for (int i = 1; i < n; i++)
        b[i] = b[i - 1] + a[i];
    return a[0] + b[n - 1];
}
""" + MAIN

BRACE_LAST = """#include <stdio.h>
double f(int n, double *a, double *b)
{
    double unused = 0;
    for (int i = 0; i < n; i++)
        a[i] = b[i] * 2.0 + a[i];
    for (int i = 1; i < n; i++)
        b[i] = b[i - 1] + a[i];
    unused = a[1] * 0.5;
    return a[0] + unused;
}
""" + MAIN


def _function(tmp_path, text, *steps):
    src = tmp_path / "f.c"
    src.write_text(text)
    argv = ["transform", src, "--function", "f", "-o", tmp_path / "f.out.c"]
    if steps:
        recipe = tmp_path / "r.yaml"
        recipe.write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps))
        argv += ["--recipe", recipe]
    rc, _, err = cli(*argv)
    assert rc == 0, err
    out = tmp_path / "f.out.c"
    assert _run(out, tmp_path) == _run(src, tmp_path)
    return out.read_text(), err


@pytest.mark.parametrize("steps", [(), ("tile: {stmt: 0, loop: i, size: 8}",),
                                   ("unroll: {stmt: 1, loop: i, factor: 3}",)])
def test_function_body_that_begins_with_a_pragma(tmp_path, steps):
    out, err = _function(tmp_path, PRAGMA_FIRST, *steps)
    body = out[out.index("double f("):out.index("int main")]
    assert "#pragma" not in body, body          # both dropped, with the note below
    assert "note: '#pragma omp parallel for' inside the region is dropped" in err
    # the generated block keeps the statements' indentation; the return and the closing
    # brace keep their lines
    assert "\n    {\n" in body and "\n    return a[0] + b[n - 1];\n}\n" in body, body


def test_function_body_with_a_statement_before_the_return(tmp_path):
    out, _ = _function(tmp_path, BRACE_LAST, "tile: {stmt: 1, loop: i, size: 16}")
    body = out[out.index("double f("):out.index("int main")]
    # the generated statements stay in the block; the return keeps its line, and no line of
    # indentation alone is left before the helper macros
    assert "\n      unused = a[1] * 0.5;\n    }\n    return a[0] + unused;\n}\n" in body, body
    assert "double unused = 0;\n#ifndef" in body, body


def test_function_body_without_return_ends_with_its_own_brace(tmp_path):
    text = BRACE_LAST.replace("    return a[0] + unused;\n", "").replace(
        "double f(", "void g(").replace("s += f(n, a, b);", "g(n, a, b);")
    src = tmp_path / "g.c"
    src.write_text(text)
    rc, out, err = cli("transform", src, "--function", "g")
    assert rc == 0, err
    assert "\n    }\n}\n" in out and "}}" not in out, out


CALLS_AROUND = """#include <stdio.h>
#include <stdlib.h>
#include <string.h>
double f(int n, double *a, double *b)
{
    double *t = malloc((n + 1) * sizeof(double));
    memset(t, 0, (n + 1) * sizeof(double));
    printf("f(%d)\\n", n);
    for (int i = 0; i < n; i++)
        t[i] = 2.0 * a[i] - b[i];
    for (int i = 1; i < n; i++)
        b[i] = b[i - 1] + t[i];
    double r = t[1];
    free(t);
    (void)fflush(stdout);
    return r + b[0];
}
""" + MAIN


@pytest.mark.parametrize("steps", [(), ("unroll: {stmt: 0, loop: i, factor: 4}",),
                                   ("tile: {stmt: 1, loop: i, size: 8}",)])
def test_function_body_calls_before_and_after_the_loops_stay_outside(tmp_path, steps):
    # a kernel that allocates, clears and reports around its loops: the region is the loops
    out, err = _function(tmp_path, CALLS_AROUND, *steps)
    assert "f.c:7:5: note: the call to 'memset' stays outside the region of 'f' (and 3 more statements)" \
        ": the region is lines 9-13" in err, err
    body = out[out.index("double f("):out.index("int main")]
    assert body.index("memset(") < body.index("    {\n") < body.index("free(t);"), body
    # declared in the region and returned after it: declared before the region's block
    assert "    double r;\n    {\n" in body, body


CALL_BETWEEN = CALLS_AROUND.replace("    double r = t[1];\n", "    printf(\"mid %g\\n\", t[0]);\n"
                                   "    for (int i = 0; i < n; i++) a[i] = t[i] + b[i];\n    double r = t[1];\n")


@pytest.mark.parametrize("steps", [(), ("unroll: {stmt: 0, loop: i, factor: 4}", "tile: {stmt: 2, loop: i, size: 8}"),
                                   ("fuse: {stmts: [1, 2], loop: i}",)])
def test_function_body_call_between_the_loops_splits_the_regions(tmp_path, steps):
    """A call between loop nests runs between them: the loops before it are one region and
    those after it another, numbered on through the file; a step over both is refused."""
    src = tmp_path / "f.c"
    src.write_text(CALL_BETWEEN)
    if steps and steps[0].startswith("fuse"):
        (tmp_path / "r.yaml").write_text("steps:\n  - " + steps[0] + "\n")
        rc, out, err = cli("transform", src, "--function", "f", "--recipe", tmp_path / "r.yaml")
        assert rc == 2 and "r.yaml:2: step 1 (fuse): error:" in err, err
        return
    out, err = _function(tmp_path, CALL_BETWEEN, *steps)
    assert "note: the call to 'memset' stays outside the region of 'f' (and 4 more statements)" \
        ": the regions are lines 9-12, 14-15" in err, err
    body = out[out.index("double f("):out.index("int main")]
    assert body.index("    {\n") < body.index('printf("mid') < body.rindex("    {\n") < body.index("free(t);"), body


DECLARED_IN_REGION = """#include <stdio.h>
double f(int n, double a[n], double b[n])
{
#pragma scop
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        a[i] = 2.0 * b[i] - a[i];
        s += a[i] * (i %% 3);
    }
    double last = a[n - 1];
#pragma endscop
    return s + last;
}
""" + MAIN


@pytest.mark.parametrize("recipe", ["", "unroll: {stmt: 1, loop: i, factor: 4}", "tile: {stmt: 2, loop: i, size: 8}"])
def test_variables_declared_in_a_region_and_read_after_it(tmp_path, recipe):
    # C's scope of a declaration in a pragma region goes on past #pragma endscop: the
    # output declares them before its block, and `looptx run` compares their values
    src = tmp_path / "f.c"
    src.write_text(DECLARED_IN_REGION.replace("%%", "%"))
    argv = ["transform", src, "-o", tmp_path / "f.out.c"]
    if recipe:
        (tmp_path / "r.yaml").write_text(f"- {recipe}\n")
        argv += ["--recipe", tmp_path / "r.yaml"]
    rc, _, err = cli(*argv)
    assert rc == 0, err
    out = (tmp_path / "f.out.c").read_text()
    assert "    double s;\n    double last;\n    {\n" in out, out
    assert _run(tmp_path / "f.out.c", tmp_path) == _run(src, tmp_path)
    rc, report, err = cli("run", src, *argv[4:], "-D", "n=29")
    assert rc == 0 and ": ok " in report, err


ENUM = """#include <stdio.h>
enum { NY = %(ny)d, NX = 24, SCALE = 3 };
void g(double a[NY][NX], double b[NY][NX])
{
#pragma scop
    for (int i = 0; i < NY; i++)
        for (int j = 0; j < NX; j++)
            a[i][j] = SCALE * b[i][j] + a[i][j] - j;
#pragma endscop
}
int main(void)
{
    static double a[NY][NX], b[NY][NX];
    for (int i = 0; i < NY; i++)
        for (int j = 0; j < NX; j++) { a[i][j] = (i * 3 + j) %% 7; b[i][j] = (i + 5 * j) %% 11; }
    g(a, b);
    double s = 0;
    for (int i = 0; i < NY; i++)
        for (int j = 0; j < NX; j++) s += a[i][j] * (i + 2 * j + 1);
    printf("%%.17g\\n", s);
    return 0;
}
"""


@pytest.mark.parametrize("ny", [32, 29])
def test_enum_constants_bound_loops_and_appear_in_statements(tmp_path, ny):
    src = tmp_path / "e.c"
    src.write_text(ENUM % {"ny": ny})
    recipe = tmp_path / "r.yaml"
    recipe.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 8}\n"
                      "  - unroll: {stmt: 0, loop: j, factor: 5}\n")
    out = tmp_path / "e.out.c"
    rc, _, err = cli("transform", src, "--recipe", recipe, "-o", out)
    assert rc == 0 and err == "", err
    assert _run(out, tmp_path) == _run(src, tmp_path)
    # the enum's value is part of the model (no build can change it): no guard, known trips
    text = out.read_text()
    assert "#error" not in text and f"ii < {(ny + 7) // 8}" in text, text
    rc, out_run, err = cli("run", src, "--recipe", recipe)
    assert rc == 0 and "max rel err 0.0e+00" in out_run, out_run + err


def test_an_enum_constant_shadowed_by_a_parameter_is_that_parameter(tmp_path):
    src = tmp_path / "s.c"
    src.write_text("enum { N = 16 };\nvoid g(int N, double *a)\n{\n#pragma scop\n"
                   "    for (int i = 0; i < N; i++)\n        a[i] = a[i] + 1.0;\n#pragma endscop\n}\n")
    rc, out, err = cli("transform", src, "--define", "N=20")
    assert rc == 0, err
    assert "i < 20" in out or "i <= 19" in out, out


@needs_nvcc
def test_enum_extents_allow_a_thread_mapping(tmp_path):
    src = tmp_path / "e.c"
    src.write_text(ENUM % {"ny": 29})
    recipe = tmp_path / "r.yaml"
    recipe.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 8}\n"
                      "  - cuda: {stmt: 0, block: [ii], thread: [j, i]}\n")
    out = tmp_path / "e.cu"
    rc, _, err = cli("transform", src, "--recipe", recipe, "--target", "cuda", "-o", out)
    assert rc == 0, err
    assert nvcc_compile(out.read_text()) is None
