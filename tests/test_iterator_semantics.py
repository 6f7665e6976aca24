"""Loop iterators keep their C meaning in the output: the value a loop leaves in the function's
own variable (`int i; for (i = 0; ...)` ... `return i;`), and the type the user declared them
with (`size_t i` makes `i - 3` wrap; `long i` keeps `i * i` from overflowing).  Each case is
compiled with gcc, original against output, at sizes that do and do not divide the tile and
unroll factors, including empty loops."""
import pytest
from test_app_kernels import _run, _transform
from conftest import cli_process

AFTER = """#include <stdio.h>
int f(int n, int m, double *a)
{
    int i, j = -3, k;
    k = -7;
#pragma scop
    for (i = 0; i < n; i++)
        for (j = i; j < m; j++)
            a[i * 64 + j] = a[i * 64 + j] * 2.0 + i;
    for (k = n - 1; k >= 2; k -= 3)
        a[k] += 1.0;
#pragma endscop
    return i * 10000 + j * 100 + k;
}
int main(void)
{
    static double a[64 * 64];
    long s = 0;
    int sizes[][2] = {{0, 0}, {1, 5}, {13, 17}, {32, 32}, {17, 9}};
    for (int t = 0; t < 5; t++) {
        for (int x = 0; x < 64 * 64; x++) a[x] = x %% 5;
        s = s * 31 + f(sizes[t][0], sizes[t][1], a);
        for (int x = 0; x < 64 * 64; x++) s += (long)(a[x] * (x %% 7 + 1));
    }
    printf("%%ld\\n", s);
    return 0;
}
"""


@pytest.mark.parametrize("steps", [(), ("unroll: {stmt: 0, loop: j, factor: 4}",),
                                   ("tile: {stmt: 0, loop: j, size: 8}",),
                                   ("unroll: {stmt: 1, loop: k, factor: 3}",)])
def test_the_function_reads_the_values_the_loops_leave_in_its_iterators(tmp_path, steps):
    # j is left at m by the last i with i < m, unchanged when no i runs: only running the
    # region's loop headers again gives that in every case
    src, out, _ = _transform(tmp_path, "after.c", AFTER % (), steps)
    text = out.read_text()
    assert "/* i, j, k: the values the loops leave, which the code after the region reads */" in text, text
    assert _run(out, tmp_path) == _run(src, tmp_path)


def test_no_final_values_when_the_code_after_assigns_the_iterator_first(tmp_path):
    text = (AFTER % ()).replace("    return i * 10000 + j * 100 + k;",
                               "    for (i = 0; i < 2; i++) a[i] += 1;\n    j = 0;\n    return i + j + k;")
    src, out, _ = _transform(tmp_path, "after.c", text, ("unroll: {stmt: 0, loop: j, factor: 4}",))
    body = out.read_text()
    assert "/* k: the value the loops leave" in body and "for (i = 0; i < n; i++)\n" not in body, body
    assert _run(out, tmp_path) == _run(src, tmp_path)


AROUND = """#include <stdio.h>
int f(int n, double *a)
{
    int i = 0, total = 0;
    for (int t = 0; t < 3; t++) {
        total += i;
#pragma scop
        for (i = t; i < n; i++)
            a[i] = a[i] + t;
#pragma endscop
    }
    return total;
}
int main(void)
{
    static double a[40];
    printf("%d %d %d\\n", f(0, a), f(5, a), f(37, a));
    return 0;
}
"""


def test_a_loop_around_the_region_reads_the_iterator_before_it(tmp_path):
    src, out, _ = _transform(tmp_path, "around.c", AROUND, ("unroll: {stmt: 0, loop: i, factor: 4}",))
    assert "/* i: the value the loops leave" in out.read_text()
    assert _run(out, tmp_path) == _run(src, tmp_path)


TYPED = """#include <stdio.h>
#include <stddef.h>
typedef long idx_t;
void f(size_t n, double *a, idx_t m, double *b, unsigned p, double *c)
{
#pragma scop
    for (size_t i = 0; i < n; i++)
        a[i] = (double)(i - 3) + a[i];
    for (idx_t i = 0; i < m; i++)
        b[i] = (double)(i * i * 3);
    for (unsigned i = 0; i < p; i++)
        c[i] = (double)(i - 1u) * 0.5;
#pragma endscop
}
int main(void)
{
    static double a[20], b[50001], c[20];
    f(13, a, 50001, b, 7, c);
    f(4, a, 3, b, 1, c);
    printf("%.17g %.17g %.17g %.17g %.17g\\n", a[0], a[12], b[50000], b[2], c[0] + c[6]);
    return 0;
}
"""


@pytest.mark.parametrize("steps", [(), ("tile: {stmt: 0, loop: i, size: 8}",),
                                   ("unroll: {stmt: 1, loop: i, factor: 4}", "unroll: {stmt: 2, loop: i, factor: 3}")])
def test_iterators_keep_their_declared_types(tmp_path, steps):
    src, out, _ = _transform(tmp_path, "typed.c", TYPED, steps)
    text = out.read_text()
    # 64-bit iterators make the generated loops long; the body reads each one as its own type
    assert "for (long i" in text and "(size_t)i - 3" in text and "(idx_t)i * (idx_t)i" in text, text
    assert "- 1u) * 0.5" in text and "(double)((unsigned)" in text, text
    expected = _run(src, tmp_path)
    assert expected.startswith("3.6893488147419103e+19 ")   # (double)(i - 3) at i = 0 wraps, twice
    assert _run(out, tmp_path) == expected


KINDS = """#include <stdio.h>
int pos = -1;
static int where(void) { return pos; }
static int peek(const int *p) { return *p; }
int g1(int n, double *a)
{
#pragma scop
    for (pos = 0; pos < n; pos++)
        a[pos] = a[pos] * 2.0;
#pragma endscop
    return where();
}
int g2(int n, double *a)
{
    int i = -1;
    const int *p = &i;
#pragma scop
    for (i = 0; i < n; i++)
        a[i] = a[i] + 1.0;
#pragma endscop
    return peek(p);
}
int g3(int n, double *a)
{
#pragma scop
    int j;
    for (j = n - 1; j >= 0; j -= 2)
        a[j] = a[j] - 3.0;
#pragma endscop
    return j;
}
void g4(unsigned n, double *a)
{
#pragma scop
    for (int i = 0; i < n; i++)
        a[i] += i - 5;
#pragma endscop
}
int main(void)
{
    static double a[40];
    long s = 0;
    for (int n = 0; n < 12; n++) {
        s = s * 7 + g1(n, a) + 3 * g2(n, a) + 5 * g3(n, a);
        g4(n, a);
    }
    for (int k = 0; k < 40; k++) s += (long)a[k] * (k + 1);
    printf("%ld\\n", s);
    return 0;
}
"""


@pytest.mark.parametrize("steps", [(), ("unroll: {stmt: 0, loop: pos, factor: 4}", "unroll: {stmt: 1, loop: i, factor: 3}",
                                        "unroll: {stmt: 2, loop: j, factor: 2}", "unroll: {stmt: 3, loop: i, factor: 3}")])
def test_globals_addresses_region_declared_iterators_and_unsigned_sizes(tmp_path, steps):
    # a global iterator and one read through a pointer keep their final values; an iterator
    # the region declares is declared before its block; the unrolled tail of a loop bounded by
    # an unsigned size computes its index in signed arithmetic (i - 5 at i = 1 is -4)
    src, out, _ = _transform(tmp_path, "kinds.c", KINDS, steps)
    text = out.read_text()
    assert "    int j;\n    {\n" in text, text
    assert _run(out, tmp_path) == _run(src, tmp_path)


DECLARED_INSIDE = """#include <stdio.h>
int f(int n, int m, double *a)
{
#pragma scop
    int i;
    for (i = 0; i < n; i++)
        a[i] = a[i] * 2.0 + 1.0;
    for (int t = 0; t < m; t++) {
        int k;
        for (k = 1; k < n; k++)
            a[k] += a[k - 1] * 0.5;
    }
#pragma endscop
    return %s;
}
int main(void)
{
    static double a[64];
    double s = 0;
    int sizes[][2] = {{0, 0}, {1, 2}, {13, 3}, {40, 1}};
    for (int t = 0; t < 4; t++) {
        for (int x = 0; x < 64; x++) a[x] = x %% 5;
        s = s * 3 + f(sizes[t][0], sizes[t][1], a);
        for (int x = 0; x < 64; x++) s += a[x] * (x %% 7 + 1);
    }
    printf("%%.17g\\n", s);
    return 0;
}
"""


@pytest.mark.parametrize("result", ["0", "i"], ids=["unread", "returned"])
def test_an_iterator_the_region_declares(tmp_path, result):
    """`int i;` inside the region: nothing after the region can read it unless the function
    does (then it is declared before the region's block and gets its final value); a block
    scoped one inside a loop of the region never outlives it."""
    src, out, _ = _transform(tmp_path, "inside.c", DECLARED_INSIDE % (result,),
                             ("unroll: {stmt: 0, loop: i, factor: 4}",))
    text = out.read_text()
    assert ("the value the loops leave" in text) == (result == "i"), text
    assert "for (k = 1; k < n; k++)\n      ;" not in text, text
    assert _run(out, tmp_path) == _run(src, tmp_path)


COUNTDOWN = """#include <stdio.h>
unsigned f(unsigned n, double *a, double *b)
{
    unsigned i;
#pragma scop
    for (i = n - 1; i < n; i--)
        a[i] = a[i] * 2.0 + a[i + 1];
    for (size_t k = n + 2; k <= n + 2; k -= 2)
        b[k] = b[k] + k;
#pragma endscop
    return i;
}
int main(void)
{
    static double a[80], b[80];
    double s = 0;
    unsigned sizes[] = {0, 1, 5, 37, 64};
    for (int t = 0; t < 5; t++) {
        for (int x = 0; x < 80; x++) { a[x] = x %% 5; b[x] = x %% 3; }
        s = s * 3 + f(sizes[t], a, b) %% 1000;
        for (int x = 0; x < 80; x++) s += a[x] * (x %% 7 + 1) + b[x];
    }
    printf("%%.17g\\n", s);
    return 0;
}
"""


@pytest.mark.parametrize("steps", [(), ("tile: {stmt: 0, loop: i, size: 8}",),
                                   ("unroll: {stmt: 0, loop: i, factor: 3}",)])
def test_an_unsigned_count_down_stops_where_it_wraps(tmp_path, steps):
    # past 0 an unsigned i wraps to UINT_MAX, which fails `i < n`: the loop runs n - 1 .. 0
    # (and k, by 2, stops at 0 or 1), and the function gets the wrapped i
    src, out, _ = _transform(tmp_path, "down.c", COUNTDOWN % (), steps)
    assert _run(out, tmp_path) == _run(src, tmp_path)


def test_a_loop_without_a_bound_in_its_direction_is_refused(tmp_path):
    src = tmp_path / "up.c"
    src.write_text("void f(int n, double *a)\n{\n    int i;\n#pragma scop\n"
                   "    for (i = n - 1; i < n; i--)\n        a[i] = 0.0;\n#pragma endscop\n}\n")
    p = cli_process("transform", src)
    assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
    assert f"{src}:5:5: error: the loop over 'i' has no bound in the direction it runs" in p.stderr


STRIDED = """#include <stdio.h>
void f(int n, int m, double *a, double *b)
{
#pragma scop
    for (int j = 1; j < n; j += 2)
        a[j] = a[j] * 2.0 + a[j - 1];
    for (int i = 0; i < m; i++)
        for (int k = i; k < n; k += 3)
            b[i * 64 + k] = b[i * 64 + k] + a[k] * i;
#pragma endscop
}
int main(void)
{
    static double a[80], b[64 * 80];
    double s = 0;
    int sizes[][2] = {{0, 0}, {1, 1}, {2, 3}, {17, 5}, {24, 8}, {37, 13}, {64, 6}};
    for (int t = 0; t < 7; t++) {
        for (int x = 0; x < 80; x++) a[x] = x %% 5;
        for (int x = 0; x < 64 * 80; x++) b[x] = x %% 3;
        f(sizes[t][0], sizes[t][1], a, b);
        for (int x = 0; x < 80; x++) s += a[x] * (x %% 7 + 1);
        for (int x = 0; x < 64 * 80; x++) s += b[x] * (x %% 5 + 1);
    }
    printf("%%.17g\\n", s);
    return 0;
}
"""


@pytest.mark.parametrize("factor", [2, 3, 4])
def test_an_unroll_factor_counts_iterations_of_a_strided_loop(tmp_path, factor):
    # CHiLL's and Orio's factor is the number of copies: over j += 2, factor 2 gives j, j + 2
    # and a step of 4 (not one copy of a strip of 2 values)
    steps = (f"unroll: {{stmt: 0, loop: j, factor: {factor}}}",
             f"unroll: {{stmt: 1, loop: k, factor: {factor}}}")
    src, out, _ = _transform(tmp_path, "strided.c", STRIDED % (), steps)
    text = out.read_text()
    assert f"j += {2 * factor})" in text and f"a[j + {2 * (factor - 1)}] = " in text, text
    assert f"a[j + {2 * factor}] = " not in text, text
    assert f"k += {3 * factor})" in text, text
    assert _run(out, tmp_path) == _run(src, tmp_path)


WIDE = """#include <stdio.h>
#include <stdlib.h>
void lastrows(int n, int ld, unsigned char *a, const long *w)
{
    int i, j;
#pragma scop
    for (i = n - 2; i < n; i++)
        for (j = 0; j < 8; j++)
            a[(long)i * ld + j] += 1 + w[(size_t)i * 0 + j];
#pragma endscop
}
int main(void)
{
    int n = 46400, ld = 46400;                 /* (n - 2) * ld > 2^31: int arithmetic overflows */
    static long w[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    unsigned char *a = calloc((size_t)n * ld, 1);
    if (!a) { printf("no memory\\n"); return 0; }
    lastrows(n, ld, a, w);
    lastrows(7, 9, a, w);
    unsigned long s = 0;
    for (int i = n - 2; i < n; i++) for (int j = 0; j < 8; j++) s = s * 3 + a[(long)i * ld + j];
    for (int x = 0; x < 63; x++) s = s * 3 + a[x];
    printf("%lu\\n", s);
    return 0;
}
"""


def test_a_subscript_in_a_64_bit_type_keeps_it(tmp_path):
    # `(long)i * ld` is the idiom for arrays of more than 2^31 elements: the output's subscripts
    # compute in long too (UBSan stops the run at an int overflow)
    src, out, _ = _transform(tmp_path, "wide.c", WIDE, ("unroll: {stmt: 0, loop: j, factor: 2}",))
    region = out.read_text().split("#pragma endscop")[0]
    assert "a[(long)i * ld + j]" in region and "a[i * ld" not in region, region
    flags = ("-fsanitize=undefined", "-fno-sanitize-recover")
    assert _run(out, tmp_path, *flags) == _run(src, tmp_path, *flags)
