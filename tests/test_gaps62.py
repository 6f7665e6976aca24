"""Gaps found by probes 151 and later (and earlier known gaps), end to end."""
import pytest

from conftest import run_cli

pytestmark = pytest.mark.usefixtures("private_build_cache")


@pytest.mark.parametrize("decl", ["const unsigned M = 7;", "static const unsigned short M = 7;"])
def test_the_harness_gives_a_file_scope_size_its_own_type(tmp_path, monkeypatch, decl):
    """Probe 151 G4: a size declared at file scope (`const unsigned M = 7;`) was an int in
    `run`'s harness, so the as-written check compared `i < M` as signed, as the misreading it
    is there to catch does: with looptx's unsigned-comparison check switched off, the
    misreading now shows; with it on, the file is refused as before."""
    from looptx.frontend.int_types import IntTypes
    from looptx.runtime.run_once import run_once
    src = tmp_path / "g.c"
    src.write_text(f"{decl}\ndouble A[300], B[300];\nvoid k(void) {{\n  int i;\n#pragma scop\n"
                   "  for (i = -3; i < M; i++)\n    A[i + 3] = B[i + 3] + 1.0;\n#pragma endscop\n}\n")
    recipe = tmp_path / "r.yaml"
    recipe.write_text("steps: [{unroll: {stmt: 0, loop: i, factor: 3}}]\n")
    monkeypatch.setattr(IntTypes, "compared_unsigned", lambda self, a, b: False)
    r = run_once(str(src), str(recipe), isolate=False)
    unsigned_int = "short" not in decl      # (an unsigned short promotes to int: no wrap)
    assert (r["status"] == "wrong_result") == unsigned_int, r
    monkeypatch.undo()
    again = tmp_path / "g2.c"           # (another file: the process keeps each file's reference)
    again.write_text(src.read_text())
    rc, out, err = run_cli("run", again, "--recipe", recipe)
    assert (rc == 2 and "as unsigned values" in err) if unsigned_int else (rc == 0 and ": ok" in out), out + err


def test_a_value_of_a_file_scope_unsigned_size_is_computed_as_c_does(tmp_path):
    """The same size in a value the model does not read (`A[i] = i - M > 3`): the harness's
    reference computes it unsigned, as the file does, so the original's results are C's."""
    from looptx.runtime.run_once import run_once
    src = tmp_path / "v.c"
    src.write_text("const unsigned M = 5;\ndouble A[20];\nvoid f(void) {\n  int i;\n#pragma scop\n"
                   "  for (i = 0; i < 20; i++)\n    A[i] = (i - M > 3);\n#pragma endscop\n}\n")
    recipe = tmp_path / "r.yaml"
    recipe.write_text("steps: [{reverse: {stmt: 0, loop: i}}]\n")
    r = run_once(str(src), str(recipe), isolate=False)
    assert r["status"] == "ok", r
    from looptx.pipeline import load
    from looptx.runtime.harness import RegionSignature
    sig = RegionSignature.from_scop(load(str(src)).scops[0])
    assert [a.c_param() for a in sig.args if a.kind == "size"] == ["unsigned int M"], sig.args


DATA = __import__("pathlib").Path(__file__).resolve().parent / "data" / "gaps62"


@pytest.mark.parametrize("nest", [
    "  for (i = -3; i < n; i++)\n    for (j = 0; j <= i / 2; j++)\n      A[i + 3][j] = B[i + 3][j] + 1.0;",
    "  for (i = -3; i < n; i++)\n    if ((i - 3) / 2 >= 0)\n      A[i + 3][0] = B[i + 3][0] + 1.0;",
    "  for (i = -3; i < n; i++)\n    for (j = 0; j < 4; j++)\n      if (j <= (i - 1) % 3)\n        A[i + 3][j] = 1.0;"])
def test_a_division_is_checked_where_c_evaluates_it(tmp_path, nest):
    """`j <= i / 2` at i = -1 runs j = 0 in C (-1 / 2 is 0) and no j under the model's floor:
    the operand's sign was checked on the statements' domains only, where that i never is, and
    the output dropped the iteration.  Now checked wherever C evaluates the bound or guard; from
    i = 3 on, C's division is the floor, and the same code is read."""
    src = tmp_path / "d.c"
    src.write_text(f"void k(int n, double A[300][300], double B[300][300]) {{\n  int i, j;\n#pragma scop\n{nest}\n"
                   "#pragma endscop\n}\n")
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and "of a possibly negative value (C rounds toward zero)" in err, out + err
    ok = tmp_path / "ok.c"
    ok.write_text(src.read_text().replace("i = -3", "i = 3"))
    for n in (1, 9, 14):
        rc, out, err = run_cli("run", ok, "-D", f"n={n}")
        assert rc == 0 and ": ok" in out, out + err


def test_looptx_reads_its_own_output_again(tmp_path):
    """Probe 150 G3: looptx's output (its lx_floord, `(n - ((n % d + d) % d)) / d`, and isl's exact
    divisions of possibly negative values) was refused as '%' of a possibly negative value, and
    a file of two regions, read again, stopped its build with #error: each region's `#ifndef
    lx_floord` was taken for a conditional of the user's."""
    first = tmp_path / "once.c"
    rc, out, err = run_cli("transform", DATA / "two_nests.c", "--recipe", DATA / "two_nests_skew_tile.yaml", "-o", first)
    assert rc == 0, err
    second = tmp_path / "twice.c"
    rc, out, err = run_cli("transform", first, "-o", second)
    assert rc == 0 and "preprocessor conditionals" not in err, err
    assert "#error" not in second.read_text()
    for n, m in ((13, 11), (8, 16), (1, 2)):
        rc, out, err = run_cli("run", first, "--recipe", DATA / "two_nests_skew_tile.yaml", "-D", f"n={n}", "-D", f"m={m}")
        assert rc == 0 and out.count(": ok") == 2, out + err
    import subprocess
    subprocess.run(["gcc", "-Wall", "-Werror", "-Wno-unknown-pragmas", "-c", str(second), "-o", str(tmp_path / "t.o")],
                   check=True)


def test_an_element_of_a_number_array_set_before_the_region_is_no_pointer(tmp_path):
    """`A[i][j] = A[i-1][j] + B[i][j]` in an earlier nest of the function was read as a row
    table's `rows[i] = base + k` (A pointing into B), and the next region, which uses both, was
    refused."""
    rc, out, err = run_cli("deps", DATA / "two_nests.c")
    assert rc == 0 and "points into" not in err, err
