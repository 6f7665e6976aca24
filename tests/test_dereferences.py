"""A pointer dereference `*(p + e)`, `*(e + p)`, `*(p + i - 1)` or `*p` of a declared pointer is
the element `p[e]`: the region is modelled, transformed and validated as with subscripts."""
from __future__ import annotations

from conftest import run_cli as cli, runs_ok, transform_case

SRC = """void f(int n, double *a, const double *b, double *c)
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    *(a + i) = *(b + i) * 2.0 + *(i + c) + *b;
  for (i = 1; i < n; i++)
    *(c + i) = *(c + i - 1) * 0.5;
#pragma endscop
}
"""


def test_dereferences_of_pointers_are_subscripts(tmp_path):
    rc, out, err = transform_case(tmp_path, SRC, "unroll: {stmt: 0, loop: i, factor: 2}")
    assert rc == 0, err
    assert "a[i + 1] = b[i + 1] * 2.0 + c[i + 1] + b[0];" in out and "c[i] = c[i - 1] * 0.5;" in out, out
    runs_ok(tmp_path / "k.c", tmp_path / "r.yaml", ("1", "2", "17"))
    # the recurrence through *(c + i - 1) is a dependence like c[i - 1]
    (tmp_path / "p.yaml").write_text("steps:\n  - omp_for: {stmt: 1, loop: i}\n")
    rc, _, err = cli("transform", tmp_path / "k.c", "--recipe", tmp_path / "p.yaml")
    assert rc == 2 and "c[" in err, err


def test_a_member_through_a_dereference_is_the_arrow_member(tmp_path):
    rc, out, err = transform_case(tmp_path, "struct grid { int n; double scale; };\n"
                                  "void f(struct grid *g, double *x)\n{\n#pragma scop\n"
                                  "  for (int i = 0; i < (*g).n; i++)\n    x[i] = x[i] * (*g).scale;\n"
                                  "#pragma endscop\n}\n", "unroll: {stmt: 0, loop: i, factor: 4}")
    assert rc == 0 and "const double g__scale = g ? g->scale : 0;" in out and "x[i + 3] * g__scale;" in out, out + err


def test_a_dereference_of_a_pointer_member_is_its_subscript(tmp_path):
    rc, out, err = transform_case(tmp_path, "struct S { int n; double *u; double v[8]; };\n"
                                  "void f(int n, struct S *g)\n{\n  int i;\n#pragma scop\n"
                                  "  for (i = 0; i < 8; i++)\n    g->v[i] = *g->u + *(g->u + i) + *((*g).u + i);\n"
                                  "#pragma endscop\n}\n", "unroll: {stmt: 0, loop: i, factor: 2}")
    assert rc == 0 and "g__v[i + 1] = g__u[0] + g__u[i + 1] + g__u[i + 1];" in out, out + err
    runs_ok(tmp_path / "k.c", tmp_path / "r.yaml", ("7",))
