"""Probe 60 (lattice QCD): `registers` steps in a loop that `split` or `peel` made into several
copies load and store each copy's registers after the statements before the loop and before
those after it (the loads once tied with the zeroing statements in every copy but the first);
an `unroll` of a loop whose inner loop was fully unrolled is a plain unroll, which keeps the
inner copies of each iteration together instead of interleaving them."""
import re

import pytest

from conftest import run_cli

SOA = """#define Real double
#ifndef NSITES
#define NSITES 1296
#endif
void matvec(int sites_on_node, Real a_re[NSITES][3][3], Real a_im[NSITES][3][3],
            Real b_re[NSITES][3], Real b_im[NSITES][3], Real c_re[NSITES][3], Real c_im[NSITES][3],
            Real m[NSITES][3])
{
  int s, i, j;
  for (s = 0; s < sites_on_node; s++) {
    for (i = 0; i < 3; i++) {
      c_re[s][i] = 0.0;
      c_im[s][i] = 0.0;
      for (j = 0; j < 3; j++) {
        c_re[s][i] += a_re[s][i][j] * b_re[s][j] - a_im[s][i][j] * b_im[s][j];
        c_im[s][i] += a_re[s][i][j] * b_im[s][j] + a_im[s][i][j] * b_re[s][j];
      }
      m[s][i] = c_re[s][i] * c_re[s][i] + c_im[s][i] * c_im[s][i];
    }
  }
}
"""

AOS = """typedef struct { double re[3][3]; double im[3][3]; } mat;
typedef struct { double re[3]; double im[3]; } vec;
void matvec_aos(int sites_on_node, mat *links, vec *src, vec *dest)
{
  int i, ii, j;
  for (i = 0; i < sites_on_node; i++) {
    for (ii = 0; ii < 3; ii++) {
      dest[i].re[ii] = 0.0;
      dest[i].im[ii] = 0.0;
      for (j = 0; j < 3; j++) {
        dest[i].re[ii] += links[i].re[ii][j]*src[i].re[j] - links[i].im[ii][j]*src[i].im[j];
        dest[i].im[ii] += links[i].re[ii][j]*src[i].im[j] + links[i].im[ii][j]*src[i].re[j];
      }
    }
  }
}
"""

HOP = """void hop_sum(int n, double a[][4][3], double s[])
{
  int i, d, k;
  for (i = 0; i < n; i++)
    for (d = 0; d < 4; d++)
      for (k = 0; k < 3; k++)
        s[i] += a[i][d][k];
}
"""

MULTI = """void multi(int n, int m, double x[][16], double a[][16][3], double s[], double t[], double u[])
{
  int i, d, k;
  for (i = 0; i < n; i++)
    for (d = 0; d < m; d++) {
      t[i] += x[i][d];
      for (k = 0; k < 3; k++)
        s[i] += a[i][d][k] * t[i];
      u[i] += s[i];
    }
}
"""


def _ok(rc, out, err):
    assert rc == 0 and ": ok " in out, out + err


def _files(tmp_path, source, *steps):
    c = tmp_path / "k.c"
    c.write_text(source)
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps))
    return c, r


CUTS = {"split": "split: {stmt: 2, loop: s, at: 5}",
        "peel": "peel: {stmt: 2, loop: s, first: 2}",
        "peel_last": "peel: {stmt: 2, loop: s, last: 2}"}
RE = "registers: {stmt: 2, array: c_re, at: j}"
IM = "registers: {stmt: 3, array: c_im, at: j}"


@pytest.mark.parametrize("cut", sorted(CUTS))
@pytest.mark.parametrize("order", ["re_im", "im_re"])
@pytest.mark.parametrize("n", [37, 40, 5, 3])
def test_registers_on_two_statements_after_a_split_or_peel_validate(tmp_path, cut, order, n):
    regs = (RE, IM) if order == "re_im" else (IM, RE)
    c, r = _files(tmp_path, SOA, CUTS[cut], *regs)
    _ok(*run_cli("run", c, "--function", "matvec", "--recipe", r, "-D", f"sites_on_node={n}",
                 "-D", f"NSITES={n}", "--repetitions", "1"))


@pytest.mark.parametrize("n", [37, 5])
def test_every_part_loads_after_the_zeroing_and_stores_before_the_next_statement(tmp_path, n):
    c, r = _files(tmp_path, SOA, CUTS["split"], RE, IM)
    rc, out, err = run_cli("transform", c, "--function", "matvec", "--recipe", r,
                           "-D", f"sites_on_node={n}", "-D", f"NSITES={n}")
    assert rc == 0, err
    body = out[out.index("for (s = "):]
    parts = body.split("for (s = ")[1:3] if n > 5 else body.split("for (s = ")[1:2]
    for part in parts:
        lines = [ln.strip() for ln in part.splitlines()]
        zero_im = lines.index("c_im[s][i] = 0.0;")
        loads = [k for k, ln in enumerate(lines) if re.fullmatch(r"c_(re|im)_r\d* = c_(re|im)\[s\]\[i\];", ln)]
        assert loads and min(loads) > zero_im, part
        store = max(k for k, ln in enumerate(lines) if ln.startswith("c_im[s][i] = c_im_r"))
        assert store < next(k for k, ln in enumerate(lines) if ln.startswith("m[s][i] =")), part


@pytest.mark.parametrize("n", [10, 7, 3])
def test_struct_members_in_registers_after_a_split_validate(tmp_path, n):
    c, r = _files(tmp_path, AOS, "split: {stmt: 2, loop: i, at: 4}",
                  "registers: {stmt: 2, array: dest.re, at: j}", "registers: {stmt: 3, array: dest.im, at: j}")
    _ok(*run_cli("run", c, "--function", "matvec_aos", "--recipe", r, "-D", f"sites_on_node={n}",
                 "--repetitions", "1"))


@pytest.mark.parametrize("n", [1, 7, 8])
def test_an_unroll_after_a_full_unroll_inside_is_a_plain_unroll(tmp_path, n):
    c, r = _files(tmp_path, HOP, "unroll: {stmt: 0, loop: k, factor: 0}", "unroll: {stmt: 0, loop: d, factor: 2}")
    rc, out, err = run_cli("transform", c, "--function", "hop_sum", "--recipe", r)
    assert rc == 0, err
    reads = [ln.strip() for ln in out.splitlines() if "s[i] += a[i][d" in ln]
    assert reads == [f"s[i] += a[i][d][{k}];" for k in range(3)] + \
                    [f"s[i] += a[i][d + 1][{k}];" for k in range(3)], out
    _ok(*run_cli("run", c, "--function", "hop_sum", "--recipe", r, "-D", f"n={n}", "--repetitions", "1"))


@pytest.mark.parametrize("steps", [
    ("unroll: {stmt: 1, loop: k, factor: 0}", "unroll: {stmt: 0, loop: d, factor: 2}"),
    ("unroll: {stmt: 1, loop: k, factor: 2}", "unroll: {stmt: 1, loop: k, factor: 0}",
     "unroll: {stmt: 0, loop: d, factor: 3}"),
])
@pytest.mark.parametrize("m", [4, 5, 16])
def test_a_plain_unroll_keeps_a_body_with_a_fully_unrolled_loop_in_order(tmp_path, steps, m):
    c, r = _files(tmp_path, MULTI, *steps)
    _ok(*run_cli("run", c, "--function", "multi", "--recipe", r, "-D", "n=7", "-D", f"m={m}",
                 "--repetitions", "1"))


def test_a_plain_unroll_counts_the_copies_of_the_loop_unrolled_inside(tmp_path):
    c, r = _files(tmp_path, HOP.replace("d < 4", "d < 1000").replace("[4][3]", "[1000][3]"),
                  "unroll: {stmt: 0, loop: k, factor: 0}", "unroll: {stmt: 0, loop: d, factor: 400}")
    rc, out, err = run_cli("transform", c, "--function", "hop_sum", "--recipe", r)
    assert rc == 2 and "step 2 (unroll)" in err and "1200 copies" in err and "Traceback" not in err, err
    assert err.strip().count("\n") == 0, err
