"""Gaps found in session 71 (known from probes 203 and 205, and probes 206-209)."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_cli, same_output_c, transform_case

DATA = Path(__file__).parent / "data" / "gaps71"
SIZES = [["1"], ["2"], ["5"], ["9"], ["16"]]
TILES = "steps:\n  - tile: {stmt: 0, loop: i, size: 4}\n  - tile: {stmt: 0, loop: j, size: 8}\n"
DOUBLE = """void k(int n, double *a) {
#pragma scop
  for (int i = 0; i < n; i++)
    a[i] = a[i] * 2.0;
#pragma endscop
}
"""


@pytest.mark.parametrize("directive", ['#ident "v1.2"', "#", "  #  ", '#warning "tuned"', '#sccs "x"',
                                       "#include_next <stdio.h>", "#assert machine(x86_64)"])
def test_gcc_directives_outside_the_region_are_the_preprocessors(tmp_path, directive):
    """Probe 203: the null directive and gcc's #ident, #warning, #include_next ... failed the
    parse with pycparser's 'Directives not supported yet'; cpp reads them (and the output keeps
    them)."""
    rc, out, err = transform_case(tmp_path, directive + "\n" + DOUBLE, "tile: {stmt: 0, loop: i, size: 4}")
    assert rc == 0, err
    assert out.split("*/\n", 1)[1].startswith(directive + "\n") and "ii" in out


def test_an_error_directive_is_the_preprocessors_error(tmp_path):
    rc, _, err = transform_case(tmp_path, '#error "configure first"\n' + DOUBLE, "tile: {stmt: 0, loop: i, size: 4}")
    assert rc == 2 and err.startswith(f"{tmp_path / 'k.c'}:1:2: error: preprocessor: #error"), err


def test_an_unterminated_comment_is_named_where_it_opens(tmp_path):
    """Probe 203: a `/*` left open swallowed `#pragma endscop`, and the error blamed the marker."""
    src = DOUBLE.replace("a[i] = a[i] * 2.0;", "a[i] = a[i] * 2.0; /* scale")
    rc, _, err = transform_case(tmp_path, src, "tile: {stmt: 0, loop: i, size: 4}")
    assert rc == 2 and err.strip() == f"{tmp_path / 'k.c'}:4:24: error: unterminated comment (close it with */)", err


@pytest.mark.parametrize("layout", ["lines", "inline"])
def test_pragma_operator_markers_mark_a_region(tmp_path, layout):
    """Probe 205 G2: C99's `_Pragma("scop")` is `#pragma scop` (pet and PPCG read both)."""
    src = DOUBLE.replace("double *a)", "double *a, double *b, double *c)")
    src = src.replace("k(int", "kern(int").replace("a[i] = a[i] * 2.0;", "for (int j = 0; j < n; j++) a[i*n + j] = a[i*n + j] * 2.0 + b[j*n + i];")
    if layout == "lines":
        src = src.replace("#pragma scop", '_Pragma("scop")').replace("#pragma endscop", '_Pragma("endscop")')
    else:
        src = src.replace("#pragma scop\n  for", '  _Pragma("scop") for').replace(
            ";\n#pragma endscop", '; _Pragma("endscop")')
    (tmp_path / "k.c").write_text(src)
    (tmp_path / "r.yaml").write_text(TILES)
    rc, _, err = run_cli("transform", tmp_path / "k.c", "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o.c")
    assert rc == 0, err
    out = (tmp_path / "o.c").read_text()
    assert 'Pragma("scop")' in out and 'Pragma("endscop")' in out and "jj" in out
    same_output_c(tmp_path, tmp_path / "k.c", tmp_path / "o.c", (DATA / "main_nn.c").read_text(), SIZES)


def test_a_marker_through_a_macro_is_named_as_such(tmp_path):
    src = '#define SCOP _Pragma("scop")\n#define ENDSCOP _Pragma("endscop")\n' + \
        DOUBLE.replace("#pragma scop", "  SCOP").replace("#pragma endscop", "  ENDSCOP")
    rc, _, err = transform_case(tmp_path, src, "tile: {stmt: 0, loop: i, size: 4}")
    assert rc == 2 and "k.c:1:1: error: a region marker through a macro" in err \
        and "write #pragma scop" in err, err


def test_gcc_builtins_in_helpers_conditions_and_subscripts(tmp_path):
    """Probe 205 G3: __builtin_sqrt/fabs in a helper made it impure, likely()'s __builtin_expect,
    __builtin_inf/nan/huge_val/powi were 'may have side effects', __builtin_abs no subscript."""
    (tmp_path / "r.yaml").write_text(TILES)
    rc, _, err = run_cli("transform", DATA / "builtins.c", "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o.c")
    assert rc == 0, err
    out = (tmp_path / "o.c").read_text()
    assert "jj" in out and '__builtin_nan("")' in out and "__builtin_powi(" in out
    same_output_c(tmp_path, DATA / "builtins.c", tmp_path / "o.c", (DATA / "main_nn.c").read_text(), SIZES)
    # a string of another call is still no number
    src = (DATA / "builtins.c").read_text().replace('__builtin_nan("")', 'strlen("ab")')
    rc, _, err = transform_case(tmp_path, "#include <string.h>\n" + src, "tile: {stmt: 0, loop: i, size: 4}")
    assert rc == 2 and "strlen" in err, err


def test_rows_of_2n_spelled_2_times_a_row_product_with_an_interior_in_row_loop(tmp_path):
    """Probe 205 G5: `a[2*((i-1)*n) + j + 1]` with j in [1, 2n-1) are rows of 2*n, as
    `(i-1)*2*n` is; an in-row loop that stops short of the row's end reads so too."""
    (tmp_path / "r.yaml").write_text(TILES)
    src = DATA / "rows_2n_interior.c"
    for spelled in ("2*(i*n)", "i*2*n"):
        text = src.read_text() if spelled == "2*(i*n)" else \
            src.read_text().replace("2*(i*n)", "i*2*n").replace("2*((i-1)*n)", "(i-1)*2*n")
        (tmp_path / "k.c").write_text(text)
        rc, _, err = run_cli("transform", tmp_path / "k.c", "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o.c")
        assert rc == 0 and "lx_row = 2 * n" in err, err
        same_output_c(tmp_path, tmp_path / "k.c", tmp_path / "o.c", (DATA / "main_nn.c").read_text(), SIZES)
