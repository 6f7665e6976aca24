"""Probe 62 (bad and unusual input): markers under their own #ifdef keep the loops outside the
conditional (the output had put the whole nest inside `#ifdef USE_TUNED`)."""
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli
from test_probe55 import _one_error

DATA = Path(__file__).resolve().parent / "data" / "probe62"

DRIVER = """
#include <stdio.h>
float A[N][N], B[N][N], C[N][N];
int main(void)
{
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) { A[i][j] = i + 2 * j; B[i][j] = i - j; C[i][j] = 1; }
  mm(A, B, C);
  double s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) s += C[i][j] * (i + 1);
  printf("%.1f\\n", s);
  return 0;
}
"""


@pytest.mark.parametrize("guard", ["#ifdef USE_TUNED", "#if 0"])
@pytest.mark.parametrize("tuned", [False, True])
def test_markers_under_their_own_conditional_keep_the_loops_outside_it(tmp_path, guard, tuned):
    src = tmp_path / "mm.c"
    src.write_text((DATA / "ifdef_off.c").read_text().replace("#ifdef USE_TUNED", guard))
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 16}\n  - tile: {stmt: 0, loop: j, size: 5}\n")
    out = tmp_path / "mm_t.c"
    rc, _, err = run_cli("transform", src, "--recipe", r, "-o", out)
    assert rc == 0, err
    flags = ["-DUSE_TUNED"] if tuned else []
    sums = []
    for f in (src, out):
        d = tmp_path / f"d_{f.stem}.c"
        d.write_text(f.read_text() + DRIVER)
        subprocess.run(["gcc", "-O1", *flags, str(d), "-o", str(tmp_path / f.stem)], check=True)
        sums.append(subprocess.run([str(tmp_path / f.stem)], capture_output=True, text=True).stdout)
    assert sums[0] == sums[1], sums


def test_a_conditional_across_a_region_marker_is_refused(tmp_path):
    src = tmp_path / "x.c"
    src.write_text("void f(int n, double *a)\n{\n#pragma scop\n#ifdef FAST\n  for (int i = 0; i < n; i++)\n"
                   "    a[i] = 0;\n#pragma endscop\n#endif\n}\n")
    _one_error(*run_cli("deps", src), "x.c:4:1", "opens on one side of the region's markers")


def _sum(n: int) -> str:
    return " + ".join(f"a[i + {k}] * {k}.0" for k in range(n))


KERNEL = """double a[2048], b[1024];
int big(void) { return BIG; }
void f(int n)
{
#pragma scop
  for (int i = 0; i < n; i++)
    b[i] = EXPR;
#pragma endscop
}
"""


def test_code_nested_too_deeply_outside_the_regions_is_left_as_written(tmp_path):
    src, r, out = tmp_path / "k.c", tmp_path / "r.yaml", tmp_path / "k_t.c"
    src.write_text(KERNEL.replace("BIG", " + ".join(map(str, range(1000)))).replace("EXPR", "2.0 * a[i]"))
    r.write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 4}\n")
    rc, _, err = run_cli("transform", src, "--recipe", r, "-o", out)
    assert rc == 0, err
    assert "return " + " + ".join(map(str, range(1000))) + ";" in out.read_text()


@pytest.mark.parametrize("terms", [300, 1000])
def test_a_region_nested_too_deeply_is_a_located_error(tmp_path, terms):
    src, r = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(KERNEL.replace("BIG", "0").replace("EXPR", _sum(terms)))
    r.write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 4}\n")
    _one_error(*run_cli("transform", src, "--recipe", r), "k.c:7:", "nested too deeply")


def test_a_byte_order_mark_stays_out_of_the_output(tmp_path):
    src, r, out = tmp_path / "k.c", tmp_path / "r.yaml", tmp_path / "k_t.c"
    src.write_bytes(b"\xef\xbb\xbf" + KERNEL.replace("BIG", "0").replace("EXPR", "2.0 * a[i]").encode())
    r.write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 4}\n")
    rc, _, err = run_cli("transform", src, "--recipe", r, "-o", out)
    # (the editor's mark starts the output, before looptx's header comment, and nowhere else)
    data = out.read_bytes()
    assert rc == 0 and data.startswith(b"\xef\xbb\xbf/*") and data.count(b"\xef\xbb\xbf") == 1, err
    subprocess.run(["gcc", "-c", str(out), "-o", str(tmp_path / "k.o")], check=True)


def test_a_region_inside_another_is_named_as_such():
    _one_error(*run_cli("transform", DATA / "nested.c"), "nested.c:6:1", "inside the CHiLL region of line 4")


def test_a_region_in_a_branch_the_build_leaves_out_is_not_transformed(tmp_path):
    out = tmp_path / "o.c"
    rc, _, err = run_cli("transform", DATA / "if0.c", "-o", out)
    assert rc == 0, err
    text = out.read_text()
    assert "#if 0\n/*@ begin CHiLL ( tile(0,\"i\",8,\"ii\") ) @*/\n  for (i = 0; i < N; i++)\n    C[i][0] = 0;" in text
    assert "for (int ii = 0; ii <= (N - 1) / 16; ii++)" in text, text


@pytest.mark.parametrize("code, where, what, hint", [
    ("  double fa\u00e7ade = 2.0;\n", "k.c:4:12:", "'\u00e7' cannot start", "write the name in ASCII"),
    ("  __typeof__(n) m = n;\n", "k.c:4:", "line 4 uses GNU's typeof", "write it in standard C"),
    ("  int b<:2:> = {0, 0};\n", "k.c:4:", "line 4 uses a digraph", "spell it with [ ] { } #"),
])
def test_what_gcc_reads_and_the_parser_does_not_is_named(tmp_path, code, where, what, hint):
    """(a digraph and a UTF-8 name are ISO C: the hint does not send the user to standard C,
    probe 219 G6)"""
    src = tmp_path / "k.c"
    src.write_text("void f(int n, double *a)\n{\n  int i;\n" + code + "  for (i = 0; i < n; i++)\n    a[i] = 0;\n}\n")
    _one_error(*run_cli("deps", src, "--function", "f"), where, what, hint)


def test_windows_line_ends_come_back_as_they_were(tmp_path):
    src, r, out = tmp_path / "k.c", tmp_path / "r.yaml", tmp_path / "o.c"
    src.write_bytes(b"void f(int n, double *a)\r\n{\r\n  for (int i = 0; i < n; i++)\r\n    a[i] = 2.0 * a[i];\r\n}\r\n")
    r.write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 2}\n")
    rc, _, err = run_cli("transform", src, "--function", "f", "--recipe", r, "-o", out)
    data = out.read_bytes()
    assert rc == 0 and data.count(b"\r\n") == data.count(b"\n") > 5, err
