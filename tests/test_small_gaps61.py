"""Gaps found by probes 147 and later (and earlier known gaps), end to end."""
import shutil
from pathlib import Path

import pytest

from conftest import run_cli

pytestmark = pytest.mark.usefixtures("private_build_cache")

DATA = Path(__file__).resolve().parent / "data" / "gaps61"


@pytest.mark.parametrize("kernel, loads", [("transpose.c", False), ("clip.c", True)])
def test_a_copy_of_an_array_the_scope_only_sets_is_not_loaded(tmp_path, kernel, loads):
    """Probe 137 G3: a buffer of an array the tile only writes was filled from memory first and
    then overwritten whole.  A write under a data condition (x = c ? v : x) reads the old value,
    so that copy still loads."""
    recipe = DATA / "tile16_copy_B.yaml"
    rc, out, err = run_cli("transform", DATA / kernel, "--recipe", recipe)
    assert rc == 0, err
    assert ("= B[c5][c7];" in out) == loads, out
    assert "B[c5][c7] = B_buf[" in out, out
    for n, m in ((37, 20), (16, 32), (1, 3)):
        rc, out, err = run_cli("run", DATA / kernel, "--recipe", recipe, "-D", f"n={n}", "-D", f"m={m}")
        assert rc == 0 and ": ok" in out, out + err


def test_a_shared_copy_of_an_array_the_block_only_sets_is_not_loaded(tmp_path):
    from cuda_on_threads import compare_host
    cu_path = tmp_path / "k.cu"
    rc, out, err = run_cli("transform", DATA / "transpose.c", "--recipe", DATA / "transpose_shared.yaml",
                           "--target", "cuda", "-o", cu_path)
    assert rc == 0, err
    cu = cu_path.read_text()
    kernel = cu[cu.index("__global__"):cu.index('extern "C"')]
    assert "= B[" not in kernel and "B[" in kernel and "= A[" in kernel, kernel
    for sizes in (dict(n=32, m=48), dict(n=37, m=20), dict(n=1, m=3)):
        errs = compare_host(cu, DATA / "transpose.c", "transpose", sizes, tmp_path / "w")
        assert max(errs.values()) < 1e-12, (sizes, errs)


@pytest.mark.parametrize("kernel, pad, said", [
    ("transpose_f.c", 0, "reach 'A_sh' 16 elements apart: a 8-way shared-memory bank conflict on each access; "
                         "`pad: 2` on its shared step (rows of 18) removes it"),
    ("transpose_f.c", 1, "reach 'A_sh' 17 elements apart: a 2-way"),
    ("transpose_f.c", 2, None),
    ("transpose.c", 0, "16 elements apart: a 16-way shared-memory bank conflict on each access; `pad: 1` on "
                       "its shared step (copy_to_shared: a negative alignment; rows of 17)"),
    ("transpose.c", 1, None),
])
def test_a_bank_conflict_of_a_shared_buffer_is_said_with_the_padding_that_removes_it(tmp_path, kernel, pad, said):
    """Probe 137 G3: a 16 x 16 block reading A_sh[tx][ty] hits one bank per row (rows of 16
    floats: lanes 0, 2, 4, ... share a bank); rows of 17 floats still pair the two rows of a
    warp, 18 do not.  8-byte elements go in half-warps: rows of 17 doubles are enough."""
    rc, out, err = run_cli("transform", DATA / kernel, "--recipe", DATA / "transpose_shared_A.yaml", "--target",
                           "cuda", "-D", f"PAD={pad}", "-o", tmp_path / "k.cu")
    assert rc == 0, err
    assert (said in err) if said else "bank conflict" not in err, err


def test_a_bank_conflict_padding_cannot_remove_is_said_so(tmp_path):
    """matmul_4096's B_sh[k][4 * tx]: each thread's four columns lie next to each other, so a
    half-warp's doubles span four 128-byte rows of banks."""
    root = DATA.parents[2]
    rc, out, err = run_cli("transform", root / "tests/kernels/matmul.c", "--recipe",
                           root / "recipes/cuda/matmul_4096.yaml", "--target", "cuda", "-o", tmp_path / "k.cu")
    assert rc == 0, err
    assert "'B_sh' 4 elements apart: a 4-way shared-memory bank conflict on each access; padding does not " \
           "change it" in err and "'A_sh'" not in err, err


def _kernel(tmp_path, decls: str, loop: str, n: str = "int", name: str = "k.c") -> Path:
    src = tmp_path / name
    src.write_text(f"void k({n} n, double A[300], double B[300]) {{\n  {decls}\n#pragma scop\n{loop}\n"
                   "#pragma endscop\n}\n")
    return src


@pytest.mark.parametrize("n, decls, loop, said", [
    ("unsigned", "int i;", "  for (i = -3; i < n; i++)\n    A[i + 3] = B[i + 3] + 1.0;",
     "C compares 'i' < 'n' as unsigned values, and 'i' is negative"),
    ("unsigned", "int i;", "  for (i = 0; i < 20; i++)\n    if (n - i > 2)\n      A[i] = B[i] + 1.0;",
     "'n - i' is negative at some point where C evaluates it"),
    ("int", "unsigned i, j;", "  for (i = 0; i < n; i++)\n    for (j = 0; j < n; j++)\n"
                             "      if (i - j < 3)\n        A[i] += B[j];", "'i - j' is negative"),
    ("int", "int i;", "  for (i = 0; i < n; i++)\n    if (i - 1u < 5)\n      A[i] = B[i];", "'i - 1u' is negative"),
    ("int", "int i;", "  for (i = 0; i < n; i++)\n    if ((unsigned)(i - 3) < 5)\n      A[i] = B[i];",
     "the cast (unsigned) makes a negative value a huge one, and 'i - 3' is negative"),
    ("int", "unsigned i;", "  for (i = 0; i < n; i++)\n    if ((i - 2) % 5 == 0)\n      A[i] = B[i];",
     "C reads 'i - 2' as unsigned in '(i - 2) % 5'"),
    ("int", "int i;", "  for (i = 0; i < n; i++)\n    if (((i - 5u) >> 1) < 10)\n      A[i] = B[i];",
     "C reads 'i - 5u' as unsigned in '(i - 5u) >> 1'"),
    ("int", "int i; double T[10];", "  for (i = -2; i < sizeof(T) / sizeof(T[0]); i++)\n    A[i + 3] = B[i + 3];",
     "as unsigned values, and 'i' is negative"),
    ("int", "int i;", "  for (i = 0; i < n; i++)\n    A[(unsigned char)(i + 250)] = A[i] + 1.0;",
     "the cast (unsigned char) keeps only the values 0..255, and 'i + 250' is outside them"),
    ("int", "int i;", "  for (i = 0; i < n; i++)\n    if ((short)(i * 3000) > 0)\n      A[i] = B[i];",
     "the cast (short) keeps only the values -32768..32767"),
    ("int", "int i;", "  for (i = 0; i < n; i++)\n    A[(_Bool)i + 3] = B[i];", "the cast (_Bool) keeps only the values 0..1"),
    ("int", "int i;", "  for (i = 0; i < (double)n / 2; i++)\n    A[i] = B[i];",
     "a cast to a floating-point type (double) in an index or bound"),
])
def test_c_conversions_that_would_change_a_bound_guard_or_subscript_are_refused(tmp_path, n, decls, loop, said):
    """Probe 149 G1/G2/G12: the model read unsigned arithmetic, narrowing casts and a cast to
    double as plain integers (`unsigned n; for (i = -3; i < n; i++)` runs no iteration in C and
    n + 3 in the output; `(i - 1u < 5)` holds at i = 0 in the model only).  Where a value would
    wrap at some point C evaluates it (not only where the statement runs), it is refused."""
    rc, out, err = run_cli("transform", _kernel(tmp_path, decls, loop, n))
    assert rc == 2 and said in err and err.count("\n") == 1 and "Traceback" not in err, err


@pytest.mark.parametrize("n, decls, loop", [
    ("unsigned", "int i;", "  for (i = n - 1; i >= 0; i--)\n    A[i] = B[i] + 1.0;"),
    ("int", "unsigned long i, j;", "  for (i = 0; i < n; i++)\n    for (j = i + 1; j < n; j++)\n      A[i] += B[j - i - 1];"),
    ("unsigned", "unsigned i;", "  for (i = 1; i < n; i++)\n    if (n - i > 2)\n      A[i - 1] = B[n - i];"),
    ("int", "int i;", "  for (i = 'a'; i <= 'z'; i++)\n    A[i] = B[i - 'a'] + 1.0;"),
    ("int", "int i; double T[10];", "  for (i = 0; i < sizeof(T) / sizeof(T[0]); i++)\n    A[i] = B[i];"),
    ("int", "int i;", "  for (i = 0; i < n; i++)\n    A[(unsigned)i] = B[(long)i] + 1.0;"),
])
def test_unsigned_arithmetic_that_never_wraps_is_modelled(tmp_path, n, decls, loop):
    """The usual shapes: size_t counters, an unsigned size, `i = n - 1` down to 0 in an int,
    an unsigned difference that the loop keeps non-negative; and 'a'..'z' (probe 149 G7: a
    character constant is an int)."""
    src = _kernel(tmp_path, decls, loop, n)
    for size in ("37", "1", "0"):
        rc, out, err = run_cli("run", src, "--recipe", DATA / "unroll_i3.yaml", "-D", f"n={size}")
        assert rc == 0 and ": ok" in out, (size, out + err)


def test_a_global_that_the_region_declares_again_is_not_its_initial_value(tmp_path):
    """Probe 149 G9: `int g = 4;` at file scope, `j < g`, and a `double g` declared in the loop
    body: the bound became `j < 4`, though another file may set g."""
    rc, out, err = run_cli("transform", DATA / "shadow_global.c")
    assert rc == 0 and "j < g" in out and "j < 4" not in out, out + err


def test_sizeof_a_counter_keeps_its_type(tmp_path):
    """Probe 149 G10: `sizeof(i)` of a long i became `sizeof(0)`, 4."""
    src = _kernel(tmp_path, "long i;", "  for (i = 0; i < n; i++)\n    A[i] = B[i] * sizeof(i);")
    rc, out, err = run_cli("transform", src)
    assert rc == 0 and "sizeof((long) 0)" in out, out + err
    rc, out, err = run_cli("run", src, "--recipe", DATA / "unroll_i3.yaml", "-D", "n=37")
    assert rc == 0 and ": ok" in out, out + err


def test_an_int_counter_of_long_loops_is_read_as_int(tmp_path):
    """Probe 149 G11: with a long i, the loops count in long; j (an int) shifted by 2 became
    `j - 2 - 3 < 5u`, a signed comparison in long, where C compares `j - 3` as unsigned."""
    recipe = tmp_path / "r.yaml"
    recipe.write_text("steps: [{shift: {stmt: 0, loop: j, by: 2}}]\n")
    rc, out, err = run_cli("transform", DATA / "long_int_counters.c", "--recipe", recipe)
    assert rc == 0 and "(int)(j - 2) - 3 < 5u" in out, out + err
    for n in ("7", "3"):
        rc, out, err = run_cli("run", DATA / "long_int_counters.c", "--recipe", recipe, "-D", f"n={n}")
        assert rc == 0 and ": ok" in out, out + err


def test_a_division_exact_for_one_size_only_is_refused(tmp_path):
    """Probe 149 G6: `-i / 2 > -3` was modelled 'for n = 1' (C's rounding matches the floor only
    there) and the output kept the region as written for every other n: the tile did nothing."""
    src = _kernel(tmp_path, "int i;", "  for (i = 0; i < n; i++)\n    if (-i / 2 > -3)\n      A[i] = B[i] + 1.0;")
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and "'/' of a possibly negative value" in err and "modelled for n = 1" not in err, err


def test_a_pointer_declared_again_is_named_as_written(tmp_path):
    src = _kernel(tmp_path, "int i;", "  for (i = 0; i < n; i++) {\n    double *B = A + i;\n    A[i] = B[1];\n  }")
    src.write_text(src.read_text().replace("A + i", "(double *)A[i]").replace("double A[300]", "double **A")
                   .replace("A[i] = B[1]", "B[0] = B[1]"))
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and "pointer 'B'" in err and "B__" not in err, err


def test_run_checks_the_region_as_written_against_its_reading(tmp_path, monkeypatch):
    """Probe 149 G3: `run` validated every variant against the region printed from looptx's own
    model, so a misreading of the C was in the reference too and `run` said ok.  The text as
    written is now built in the same harness (sizes of their declared types) and must agree:
    with the unsigned-comparison check switched off, the misreading is caught."""
    from looptx.frontend.int_types import IntTypes
    from looptx.runtime.run_once import run_once
    src = _kernel(tmp_path, "int i;", "  for (i = -3; i < n; i++)\n    A[i + 3] = B[i + 3] + 1.0;", "unsigned")
    recipe = DATA / "unroll_i3.yaml"
    monkeypatch.setattr(IntTypes, "compared_unsigned", lambda self, a, b: False)
    r = run_once(str(src), str(recipe), defines={"n": 7}, isolate=False)
    assert r["status"] == "wrong_result" and "the region as written gives other results" in r["error"], r
    monkeypatch.undo()
    # (another file: the process keeps each file's reference)
    ok = _kernel(tmp_path, "int i;", "  for (i = 0; i < n; i++)\n    A[i] = B[i] + (i - 1u < 5 ? 1.0 : 2.0);",
                 "unsigned", "ok.c")
    r = run_once(str(ok), str(recipe), defines={"n": 7}, isolate=False)
    assert r["status"] == "ok", r


def test_a_size_fixed_by_define_keeps_its_unsigned_type(tmp_path):
    """Probe 150 G1: `-D n=7` made the unsigned n a plain 7, and `i < n` from i = -3 ran ten
    times in the output where C runs none."""
    src = _kernel(tmp_path, "int i;", "  for (i = -3; i < n; i++)\n    A[i + 3] = B[i + 3] + 1.0;", "unsigned")
    rc, out, err = run_cli("transform", src, "-D", "n=7")
    assert rc == 2 and "C compares 'i' < 'n' as unsigned values" in err, out + err


def test_the_as_written_check_takes_the_macros_the_preprocessor_leaves(tmp_path):
    """Probe 150 G2: the check took every `#define IDX(` of the text, the inactive #ifdef branch
    and a commented-out one included, and reported a correct file as misread."""
    src = tmp_path / "m.c"
    src.write_text("#define LD 3\n#ifdef FAST\n#define IDX(i, j) ((j) * LD + (i))\n#else\n"
                   "#define IDX(i, j) ((i) * LD + (j))\n#endif\n/* #define IDX(i, j) 0 */\n"
                   "void k(int n, double *A, const double *B) {\n#pragma scop\n"
                   "  for (int i = 0; i < n; i++)\n    for (int j = 0; j < LD; j++)\n"
                   "      A[IDX(i, j)] = 2.0 * B[IDX(i, j)] + j;\n#pragma endscop\n}\n")
    rc, out, err = run_cli("run", src, "--recipe", DATA / "unroll_i3.yaml", "-D", "n=7")
    assert rc == 0 and ": ok" in out, out + err


def test_a_chill_tile_with_its_outer_level_inside_the_loop_is_noted(tmp_path):
    """Probe 140 G9: `tile(0,1,4,3)` is refused by CHiLL ('invalid tile controlling loop level');
    looptx places the control loop at level 3, inside the tile loop, and now says so."""
    src = tmp_path / "mmf.c"
    shutil.copy(DATA.parent / "gaps60" / "mmf.c", src)
    shutil.copy(DATA / "tile_outer_inside.py", tmp_path)
    rc, out, err = run_cli("run", src, "--recipe", tmp_path / "tile_outer_inside.py", "-D", "n=13")
    assert rc == 0 and ": ok" in out, out + err
    assert "outer level 3 is inside level 1: CHiLL refuses this" in err, err


def test_an_unsigned_define_compares_as_unsigned(tmp_path):
    """Probe 149 G1: `#define N 10u` and `for (i = -3; i < N; i++)`: C compares unsigned and runs
    no iteration; the model read a plain 10."""
    src = tmp_path / "u.c"
    src.write_text("#define N 10u\nvoid k(double A[300], double B[300]) {\n  int i;\n#pragma scop\n"
                   "  for (i = -3; i < N; i++)\n    A[i + 3] = B[i + 3] + 1.0;\n#pragma endscop\n}\n")
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and "C compares 'i' < 'N' as unsigned values" in err, out + err
    src.write_text(src.read_text().replace("i = -3", "i = 0"))
    rc, out, err = run_cli("run", src, "--recipe", DATA / "unroll_i3.yaml")
    assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("name, sizes", [
    ("g1_if_on_size_macro.c", ()), ("g1_if_on_size_macro.c", ("-D", "N=37")), ("g3_define_in_file_if.c", ("-D", "N=37")),
    ("g5_iterator_read_before_loop.c", ("-D", "n=13")), ("g6_bool_param.c", ("-D", "n=13")),
])
def test_the_as_written_check_raises_no_false_alarm(name, sizes):
    """Probe 151: an `#if N > 50` in the region read the harness's parameter N as 0; the file's
    macros were chosen without --define's sizes; a counter read before its loop was declared
    again, uninitialised; a bool parameter got 1 for the harness's 5.  All correct files that
    `run` reported as misread."""
    rc, out, err = run_cli("run", DATA / "verbatim" / name, *sizes)
    assert rc == 0 and ": ok" in out, out + err


def test_the_as_written_check_finds_quoted_headers_beside_the_file(monkeypatch):
    """Probe 151 G7: `gcc -E` of the text read "defs.h" from the working folder first."""
    monkeypatch.chdir(DATA / "verbatim" / "g7_cwd_header")
    rc, out, err = run_cli("run", "kern/k.c", "-D", "n=13")
    assert rc == 0 and ": ok" in out, out + err
