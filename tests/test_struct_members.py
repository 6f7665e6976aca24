"""Struct members in a region (`g->n`, `s.len`, `g->a[i][j]`, `p->u[i]`, `g->dims.nx`): the
front end reads each member chain once before the region into a variable (frontend/members.py)
and stores written scalar members back after it.  Checked by compiling and running the original
and the output (gcc) on seeded random structs, comparing every output bit for bit (arrays by a
hash of their bytes, written scalar members by value), at sizes that do and do not divide the
tiles; each construct that cannot be hoisted is refused in one located line; a CUDA mapping of
a region with members compiles with nvcc."""
import re

import pytest
from conftest import run_cli as cli
from test_app_kernels import _run, _transform
from test_cuda_codegen import needs_nvcc, nvcc_compile

# seeded data and a byte hash of the results, shared by every harness
COMMON = r"""#include <stdio.h>
#include <string.h>
static unsigned long long lx_state = 12345;
static double rnd(void)
{
    lx_state = lx_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(lx_state >> 11) / 9007199254740992.0 - 0.5;
}
static void fill(double *p, int n) { for (int i = 0; i < n; i++) p[i] = rnd(); }
static unsigned long long hash(const void *p, size_t n)
{
    const unsigned char *c = p;
    unsigned long long h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) { h ^= c[i]; h *= 1099511628211ULL; }
    return h;
}
"""

GRID = COMMON + r"""
typedef struct { int n; int m; double w; double a[40][40]; double b[40][40]; } grid_t;
void smooth(grid_t *g)
{
#pragma scop
    for (int i = 1; i < g->n - 1; i++)
        for (int j = 1; j < g->m - 1; j++)
            g->a[i][j] = g->w * g->a[i][j] + g->b[j][i] * 0.5;
#pragma endscop
}
int main(void)
{
    static grid_t g;
    static const int sizes[][2] = {{34, 34}, {40, 37}, {10, 26}, {3, 3}, {13, 2}};
    for (int t = 0; t < 5; t++) {
        g.n = sizes[t][0]; g.m = sizes[t][1]; g.w = rnd();
        fill(&g.a[0][0], 40 * 40); fill(&g.b[0][0], 40 * 40);
        smooth(&g);
        printf("%d %llx %llx %d %d\n", t, hash(g.a, sizeof g.a), hash(g.b, sizeof g.b), g.n, g.m);
    }
    return 0;
}
"""

POINTERS = COMMON + r"""
typedef struct { double *u; double *v; int len; double alpha; } pair_t;
void axpy(pair_t *p)
{
#pragma scop
    for (int i = 0; i < p->len; i++)
        p->u[i] = p->u[i] * p->alpha + p->v[i];
#pragma endscop
}
int main(void)
{
    static double u[64], v[64];
    static const int sizes[] = {37, 40, 1, 0, 63};
    pair_t p = {u, v, 0, 0.0};
    for (int t = 0; t < 5; t++) {
        fill(u, 64); fill(v, 64);
        p.len = sizes[t]; p.alpha = rnd();
        axpy(&p);
        printf("%d %llx %llx\n", t, hash(u, sizeof u), hash(v, sizeof v));
    }
    return 0;
}
"""

BY_VALUE = COMMON + r"""
struct vec { int len; double scale; double *data; };
void scale(struct vec s, double *out)
{
    for (int i = 0; i < s.len; i++)
        out[i] = s.scale * s.data[i] + out[i];
}
int main(void)
{
    static double data[50], out[50];
    static const int sizes[] = {50, 17, 8, 1};
    for (int t = 0; t < 4; t++) {
        struct vec s = {sizes[t], rnd(), data};
        fill(data, 50); fill(out, 50);
        scale(s, out);
        printf("%d %llx\n", t, hash(out, sizeof out));
    }
    return 0;
}
"""

REDUCTION = COMMON + r"""
typedef struct stats { double sum; int cnt; double w; } stats_t;
void reduce(stats_t *s, const double *x, int n)
{
#pragma scop
    for (int i = 0; i < n; i++) {
        s->sum += s->w * x[i];
        s->cnt++;
    }
#pragma endscop
}
int main(void)
{
    static double x[70];
    static const int sizes[] = {70, 33, 4, 1, 0};
    for (int t = 0; t < 5; t++) {
        stats_t s;
        fill(x, 70);
        s.sum = rnd(); s.cnt = t * 100; s.w = rnd();
        reduce(&s, x, sizes[t]);
        printf("%d %.17g %d %.17g\n", t, s.sum, s.cnt, s.w);
    }
    return 0;
}
"""

NESTED = COMMON + r"""
struct dims { int nx, ny; };
typedef struct { struct dims dims; double *f; double c[24][24]; } field_t;
void accumulate(field_t *g)
{
#pragma scop
    for (int i = 0; i < g->dims.nx; i++)
        for (int j = 0; j < g->dims.ny; j++)
            g->c[i][j] = g->c[i][j] + g->f[i * 24 + j] * g->f[j * 24 + i];
#pragma endscop
}
int main(void)
{
    static double f[24 * 24];
    static field_t g;
    static const int sizes[][2] = {{24, 24}, {21, 19}, {5, 16}, {1, 9}};
    g.f = f;
    for (int t = 0; t < 4; t++) {
        fill(f, 24 * 24); fill(&g.c[0][0], 24 * 24);
        g.dims.nx = sizes[t][0]; g.dims.ny = sizes[t][1];
        accumulate(&g);
        printf("%d %llx %llx\n", t, hash(g.c, sizeof g.c), hash(f, sizeof f));
    }
    return 0;
}
"""

SPELLED = COMMON + r"""#include <math.h>
#ifndef DATA_TYPE
#define DATA_TYPE double
#endif
#define ABS_FUN(x) fabs(x)
#define NN 16
typedef DATA_TYPE real;
typedef real vec[NN];
struct box { int n; vec v; real w; DATA_TYPE m[NN][NN]; union { int k; float f; } u; struct { int lo, hi; }; };
void kernel(const struct box *b, DATA_TYPE *x)
{
#pragma scop
    for (int i = b->lo; i < b->hi; i++) {
        DATA_TYPE t = ABS_FUN(b->w) + (DATA_TYPE) b->n;
        if (i < b->n)
            x[i] = t * b->v[i] + b->m[i][NN - 1 - i] + sizeof(b->m) + b->u.k;
    }
#pragma endscop
}
int main(void)
{
    static struct box b;
    static DATA_TYPE x[NN];
    static const int sizes[][3] = {{0, 16, 16}, {3, 13, 9}, {5, 5, 5}, {1, 16, 11}};
    for (int t = 0; t < 4; t++) {
        b.lo = sizes[t][0]; b.hi = sizes[t][1]; b.n = sizes[t][2]; b.u.k = t;
        b.w = (DATA_TYPE)(rnd() + 1.0);
        for (int i = 0; i < NN; i++) { x[i] = rnd(); b.v[i] = rnd(); for (int j = 0; j < NN; j++) b.m[i][j] = rnd(); }
        kernel(&b, x);
        printf("%d %llx\n", t, hash(x, sizeof x));
    }
    return 0;
}
"""

AFTER = COMMON + r"""
typedef struct { int n; double sum; double *u; } st_t;
int f(st_t *s)
{
    int i;
#pragma scop
    for (i = 0; i < s->n; i++)
        s->sum += s->u[i];
    double r = s->sum * 2;
#pragma endscop
    return i + (int)(r * 1000);
}
int main(void)
{
    static double u[40];
    static const int sizes[] = {40, 13, 1, 0};
    for (int t = 0; t < 4; t++) {
        st_t s = {sizes[t], rnd(), u};
        fill(u, 40);
        int k = f(&s);
        printf("%d %d %.17g\n", t, k, s.sum);
    }
    return 0;
}
"""

TILE_PERMUTE = ["tile: {stmt: 0, loop: i, size: 8}", "tile: {stmt: 0, loop: j, size: 8}",
                "permute: {stmt: 0, order: [jj, ii, j, i]}"]


def _same(tmp_path, name, text, steps, *extra):
    src, out, err = _transform(tmp_path, name, text, steps, *extra)
    expected = _run(src, tmp_path)
    assert expected.count("\n") >= 4, expected
    got = _run(out, tmp_path)
    assert got == expected, out.read_text()
    return out.read_text(), err


def test_bound_and_array_member_tiled_and_permuted(tmp_path):
    out, err = _same(tmp_path, "grid.c", GRID, TILE_PERMUTE)
    assert "note: struct members are read once before the region: g->n, g->m, g->a, g->w, g->b " \
           "(as g__n, g__m, g__a, g__w, g__b)" in err, err
    # the declarations, with the member text on their right, inside the region's braces
    # (each read tests the struct pointer: a NULL struct the loops never reach stays unread)
    assert re.search(r"\{\n\s+const int g__n = g \? g->n : 0;\n\s+const int g__m = g \? g->m : 0;\n"
                     r"\s+double \(\*const g__a\)\[40\] = g \? g->a : 0;\n\s+const double g__w = g \? g->w : 0;\n",
                     out), out
    assert "g__a[i][j] = g__w * g__a[i][j] + g__b[j][i] * 0.5;" in out, out
    assert "for (int jj = 0;" in out and "g->n" not in out.split("g__n = g ? g->n : 0;")[1].split("#pragma endscop")[0]


def test_pointer_members_unrolled(tmp_path):
    out, _ = _same(tmp_path, "axpy.c", POINTERS, ["unroll: {stmt: 0, loop: i, factor: 4}"])
    assert "double *const p__u = p ? p->u : 0;" in out and "double *const p__v = p ? p->v : 0;" in out, out
    assert "p__u[i + 3]" in out, out


def test_struct_value_parameter_in_a_function_region(tmp_path):
    out, err = _same(tmp_path, "scale.c", BY_VALUE, ["tile: {stmt: 0, loop: i, size: 8}"],
                     "--function", "scale")
    assert "const int s__len = s.len;" in out and "double *const s__data = s.data;" in out, out
    assert "(as s__len, s__scale, s__data)" in err, err


def test_written_scalar_member_is_stored_back(tmp_path):
    out, err = _same(tmp_path, "reduce.c", REDUCTION, ["unroll: {stmt: 0, loop: i, factor: 4}"])
    assert "double s__sum = s ? s->sum : 0;" in out and "int s__cnt = s ? s->cnt : 0;" in out, out
    body = out[out.index("double s__sum = s ? s->sum : 0;"):]
    assert body.index("if (s) s->sum = s__sum;") > body.index("for (") and "if (s) s->cnt = s__cnt;" in body, out
    assert "s->sum, s->cnt are written back after it" in err, err


def test_write_back_with_values_read_after_the_region(tmp_path):
    # `double r` declared in the region and the iterator `i` are read after it: they stay in
    # the function's scope, outside the braces that hold the members' variables
    out, _ = _same(tmp_path, "after.c", AFTER, ["unroll: {stmt: 0, loop: i, factor: 3}"])
    assert re.search(r"double r;\n\s*\{\n\s*const int s__n = s \? s->n : 0;", out), out
    assert re.search(r"if \(s\) s->sum = s__sum;\n\s*\}\n", out), out


def test_nested_struct_members(tmp_path):
    out, _ = _same(tmp_path, "nested.c", NESTED, TILE_PERMUTE)
    assert "const int g__dims__nx = g ? g->dims.nx : 0;" in out, out


def test_spelled_types_typedefs_anonymous_members_and_const(tmp_path):
    """The declarations keep the user's spellings (a -DDATA_TYPE=float build stays right), reach
    members of anonymous structs and unions, resolve a typedef of an array, keep sizeof as
    written, and keep the rows of a const struct's array const."""
    src, out, err = _transform(tmp_path, "box.c", SPELLED, ["unroll: {stmt: 1, loop: i, factor: 2}"])
    text = out.read_text()
    assert "const real b__w = b ? b->w : 0;" in text and "real *const b__v = b ? b->v : 0;" in text, text
    assert "const DATA_TYPE (*const b__m)[NN] = b ? b->m : 0;" in text and "const int b__u__k = b ? b->u.k : 0;" in text, text
    assert "ABS_FUN(b__w)" in text and "sizeof(b->m)" in text, text
    for flags in [(), ("-DDATA_TYPE=float",)]:
        expected = _run(src, tmp_path, *flags)
        assert expected.count("\n") == 4, expected
        assert _run(out, tmp_path, *flags) == expected, text


def test_cuda_mapping_emulated_in_c(tmp_path):
    steps = ["tile: {stmt: 0, loop: i, size: 8}", "tile: {stmt: 0, loop: j, size: 8}",
             "permute: {stmt: 0, order: [ii, jj, i, j]}", "cuda: {stmt: 0, block: [jj, ii], thread: [j, i]}"]
    _same(tmp_path, "grid_cuda.c", GRID, steps)


@needs_nvcc
def test_cuda_output_with_members_compiles(tmp_path):
    src = tmp_path / "axpy.c"
    src.write_text(POINTERS)
    recipe = tmp_path / "r.yaml"
    recipe.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 32}\n"
                      "  - cuda: {stmt: 0, block: [ii], thread: [i], sizes: {p__u: p__len, p__v: p__len}}\n")
    out = tmp_path / "axpy.cu"
    rc, _, err = cli("transform", src, "--recipe", recipe, "--target", "cuda", "-o", out)
    assert rc == 0, err
    cu = out.read_text()
    # the members in the order the region reads them: the bound's first
    assert re.search(r"axpy_host\(int p__len, double \*__restrict__ p__u, double p__alpha, double \*__restrict__ p__v\)",
                     cu), cu
    assert nvcc_compile(cu) is None


def test_hoisted_names_do_not_clash(tmp_path):
    text = POINTERS.replace("void axpy(pair_t *p)", "int p__u = 3;\nvoid axpy(pair_t *p)")
    out, _ = _same(tmp_path, "clash.c", text, [])
    assert "double *const p__u_2 = p ? p->u : 0;" in out, out


def test_a_written_member_cannot_be_privatized(tmp_path):
    src = tmp_path / "priv.c"
    src.write_text("typedef struct { double t; } tmp_t;\nvoid f(tmp_t *s, double *a, int n)\n{\n#pragma scop\n"
                   "    for (int i = 0; i < n; i++) {\n        s->t = a[i] * 2.0;\n        a[i] = s->t + 1.0;\n"
                   "    }\n#pragma endscop\n}\n")
    recipe = tmp_path / "r.yaml"
    recipe.write_text("steps:\n  - privatize: {stmt: 0, var: s__t, at: i}\n")
    rc, _, err = cli("transform", src, "--recipe", recipe)
    assert rc == 2 and "cannot be private: it is written back to 's->t' after the region" in err, err


HEAD = """typedef struct blk { double *u; int n; } blk_t;
typedef struct grid { int n; double a[8][8]; double *u; blk_t blk[4]; struct grid *next;
                      double (*fn)(double); blk_t b; double sum; } grid_t;
union num { int i; float f; };
grid_t *get(int k);
struct opaque;
void k(grid_t *g, grid_t *h, union num *q, struct opaque *o, double *x, int b)
{
#pragma scop
    for (int i = 0; i < 8; i++) {
        %s
    }
#pragma endscop
}
"""


@pytest.mark.parametrize("body, col, message", [
    ("g->u = x;", 9, "the region assigns the pointer member 'g->u', whose value looptx reads once"),
    ("x[i] = g->sum; g = h;", 24, "the region assigns 'g', the base of the struct member 'g->sum'"),
    ("x[i] = g->sum; g++;", 24, "the region assigns 'g', the base of the struct member 'g->sum'"),
    ("g->next->sum += 1.0; g->next = h;", 30, "the region assigns 'g->next', part of a member chain"),
    ("x[i] = g->blk[b].u[i];", 16, "the array of structs 'g->blk' in 'g->blk[b].u' is itself a struct member"),
    ("x[i] = get(i)->n;", 16, "struct member access is not supported through a call ('get(i)->n')"),
    ("x[i] = (*(g + 1)).sum;", 19, "struct member access is not supported through a pointer dereference"),
    ("x[i] = o->n;", 16, "the type of 'o' (struct opaque) is not defined in the file"),
    ("x[i] = g->fn(x[i]);", 16, "the struct member 'g->fn' is a function pointer"),
    ("g->b = h->b;", 9, "the struct member 'g->b' is a struct blk"),
    ("x[i] = g->next;", 16, "the struct member 'g->next' is a pointer to struct grid"),
    ("g->sum += x[i]; h->sum += 1.0;", 9, "the region writes the struct member 'g->sum' and also uses "
                                          "'h->sum', which may be the same object"),
    ("g->sum += x[i]; x[i] = g->next->sum;", 9, "and also uses 'g->next->sum', which may be the same object"),
    ("q->i = i; x[i] = q->f;", 9, "writes the struct member 'q->i' and also uses 'q->f', which may be the "
                                  "same storage (a union)"),
    ("for (g->n = 0; g->n < 4; g->n++) x[g->n] = 0;", 14, "the loop iterator 'g->n' is a struct member"),
    ("g->n += 1; x[i] = g->a[g->n][i];", 27, "'g->n' is written inside the region and used in an index"),
])
def test_refusals_are_one_located_line(tmp_path, body, col, message):
    src = tmp_path / "bad.c"
    src.write_text(HEAD % body)
    rc, out, err = cli("transform", src)
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith(f"{src}:11:{col}: error: ") and message in lines[0], lines[0]
    assert "(" in lines[0].split("error: ", 1)[1], lines[0]         # with a hint


def test_common_cases_are_not_refused_as_aliases(tmp_path):
    # different members of one struct, read-only members and array members are no aliases
    src = tmp_path / "ok.c"
    src.write_text(HEAD % "g->sum += x[i] * g->a[i][i] + g->b.n + h->n; g->a[0][i] = g->n;")
    rc, out, err = cli("deps", src)
    assert rc == 0, err
    assert "(as g__sum, g__a, g__b__n, h__n, g__n); g->sum is written back after it" in err, err


RUN = """typedef struct { int n; double *u; double a[64][64]; } grid_t;
void smooth(grid_t *g, double w)
{
#pragma scop
  for (int i = 1; i < g->n - 1; i++)
    for (int j = 0; j < 64; j++)
      g->a[i][j] = w * (g->a[i-1][j] + g->a[i+1][j])%s;
#pragma endscop
}
"""


def test_looptx_run_names_the_members_it_needs(tmp_path):
    src = tmp_path / "run.c"
    src.write_text(RUN % "")
    rc, _, err = cli("run", src)
    assert rc == 2 and err.strip() == (f"{src}:5:23: error: the size 'g__n' (the struct member g->n) has no "
                                       "value (give it with --define g__n=VALUE)"), err
    rc, out, err = cli("run", src, "--define", "g__n=37")
    assert rc == 0 and ": ok " in out, out + err
    src.write_text(RUN % " + g->u[j]")
    rc, out, err = cli("run", src, "--define", "g__n=37")       # g->u: as far as the region reaches
    assert rc == 0 and ": ok " in out, out + err
    src.write_text(RUN % " + g->u[j - 1]")
    rc, _, err = cli("run", src, "--define", "g__n=37")
    assert rc == 2 and "error: the region reads 'g->u' (a pointer member, read as 'g__u') below its first " \
                       "element (index -1)" in err, err


def test_a_bit_field_member_is_refused(tmp_path):
    src = tmp_path / "bits.c"
    src.write_text("""typedef struct { unsigned cnt : 3; double v[8]; } s_t;
void f(s_t *g, int n)
{
#pragma scop
  for (int i = 0; i < n; i++)
    g->cnt += 1;
#pragma endscop
}
""")
    rc, out, err = cli("transform", src)
    assert rc == 2 and out == "", err
    assert err.strip() == (f"{src}:6:5: error: 'g->cnt' is a bit-field, which looptx cannot read into a variable "
                           "(copy it into a variable before the region and store it back after it)"), err
