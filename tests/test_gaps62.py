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


def test_a_cuda_kernel_indexes_an_array_of_received_sizes_in_64_bits(tmp_path):
    """Probe 153 G4: `float A[n][n]` with n a size the host function receives was indexed
    `A[(n + by - 2) * n + ...]` in int, which passes 2^31 at n = 46341 (a 50000 x 50000 float
    matrix fits a GPU; C's `A[i][j]` addresses it in 64 bits).  Checked on CPU threads."""
    from cuda_on_threads import compare_host
    from test_cuda_codegen import NVCC, nvcc_compile
    cu_path = tmp_path / "rows.cu"
    rc, out, err = run_cli("transform", DATA / "rows.c", "--recipe", DATA / "rows_tile_cuda.yaml",
                           "--target", "cuda", "-o", cu_path)
    assert rc == 0, err
    cu = cu_path.read_text()
    kernel = cu[cu.index("__global__"):cu.index('extern "C"')]
    assert "A[(long)(n + by - 2) * n + " in kernel, kernel
    for n in (3, 37, 130):
        errs = compare_host(cu, DATA / "rows.c", "rows", dict(n=n), tmp_path / "w")
        assert max(errs.values()) == 0, (n, errs)
    if NVCC:
        assert nvcc_compile(cu) is None


def test_a_grid_past_cudas_limits_is_an_error_not_an_empty_launch(tmp_path):
    """Probe 153 G5: the grid of a `long n` loop was `const int lx_g0 = n;`: n = 2^32 + 5 made a
    grid of 5 blocks, and 2^31 <= n < 2^32 a negative one that launched nothing, and the host
    function returned success.  The grid is 64-bit, and one past CUDA's limits is
    cudaErrorInvalidConfiguration."""
    from test_cuda_codegen import NVCC, nvcc_compile
    cu_path = tmp_path / "blk.cu"
    rc, out, err = run_cli("transform", DATA / "blk_long.c", "--recipe", DATA / "blk_block_i.yaml",
                           "--target", "cuda", "-o", cu_path)
    assert rc == 0, err
    cu = cu_path.read_text()
    assert "const long long lx_g0 = n, lx_g1 = 1, lx_g2 = 1;" in cu, cu
    assert "if (lx_g0 > 2147483647LL || lx_g1 > 65535 || lx_g2 > 65535) return (int)cudaErrorInvalidConfiguration;" in cu
    if NVCC:
        assert nvcc_compile(cu) is None
    # the launcher as the host code runs it, on CPU threads with no kernel work: past the limit
    # it returns the error before any launch
    import subprocess
    launcher = cu[cu.index('extern "C" int lx_launch_blk'):]
    launcher = launcher[:launcher.index("\n}\n") + 3]
    prog = tmp_path / "g.cpp"
    prog.write_text("#include <cstdio>\n#define cudaErrorInvalidConfiguration 9\n#define cudaGetLastError() 0\n"
                    "struct dim3 { dim3(unsigned, unsigned, unsigned) {} };\nstatic long launched = 0;\n"
                    "static void blk_kernel0(dim3, dim3, const char *, char *, long) { launched++; }\n"
                    + launcher.replace("__restrict__", "").replace("<<<", "(").replace(">>>(", ", ")
                    + "\nint main() { int past = lx_launch_blk(0, 0, 4294967301L), within = lx_launch_blk(0, 0, 1000L);\n"
                    "  printf(\"%d %d %ld\\n\", past, within, launched); }\n")
    subprocess.run(["g++", "-o", tmp_path / "g", prog], check=True)
    assert subprocess.run([tmp_path / "g"], capture_output=True, text=True).stdout.split() == ["9", "0", "1"]


@pytest.mark.parametrize("ctype", ["unsigned", "size_t"])
def test_an_unsigned_counter_from_an_unsigned_size_is_never_negative(tmp_path, ctype):
    """Probe 153 G6: `for (unsigned i = lo; i < n; i++)` was refused ('i' negative at some point)
    though an unsigned lo is never negative."""
    src = tmp_path / "u.c"
    src.write_text(f"#include <stddef.h>\nvoid u({ctype} lo, {ctype} n, double *A) {{\n#pragma scop\n"
                   f"  for ({ctype} i = lo; i < n; i++)\n    A[i] = A[i] * 2.0 + 1.0;\n#pragma endscop\n}}\n")
    recipe = tmp_path / "t.yaml"
    recipe.write_text("steps: [{tile: {stmt: 0, loop: i, size: 4}}]\n")
    for lo, n in ((3, 17), (0, 8), (9, 4)):
        rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", f"lo={lo}", "-D", f"n={n}")
        assert rc == 0 and ": ok" in out, out + err
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 0, err


def test_a_long_size_may_be_given_past_int(tmp_path):
    """Probe 153 G7: `-D n=3000000000` of a `long n` was refused ('does not fit in an int'),
    though the loops count with long there: `run` could not check the code at such sizes."""
    recipe = tmp_path / "t.yaml"
    recipe.write_text("steps: [{tile: {stmt: 0, loop: i, size: 4}}]\n")
    rc, out, err = run_cli("run", DATA / "long_offset.c", "--recipe", recipe, "-D", "n=3000000000")
    assert rc == 0 and ": ok" in out, out + err
    rc, out, err = run_cli("transform", DATA / "long_offset.c", "--recipe", recipe, "-D", "n=3000000000")
    assert rc == 0 and "for (long ii = 0; ii < 13; ii++)" in out, out + err


@pytest.mark.parametrize("given, value", [("010", 8), ("0x10", 16), ("10UL", 10), ("0b101", 5), ("-3", -3)])
def test_define_values_are_read_as_c_constants(tmp_path, given, value):
    """Probe 153 G8: `-D n=010` was refused (not an integer) and `1_000` accepted: the values
    are C's integer constants."""
    from looptx.frontend.defines import define_value
    assert define_value(None, "n", given, {"names": frozenset()}) == value
    for bad in ("1_000", "1e3", "7.0", "089"):
        with pytest.raises(Exception, match="is not an integer"):
            define_value(None, "n", bad, {"names": frozenset()})


@pytest.mark.parametrize("name, n, rows", [("helper_short_param_bound", 40000, 0), ("helper_short_ret_bound", 40000, 0),
                                           ("helper_short_param_bound", 37, 37), ("helper_int_param_guard", 7, 3)])
def test_an_inlined_helper_converts_its_argument_and_result(tmp_path, name, n, rows):
    """Probe 152 G1: a helper of the file (`static int f(short x) { return x; }`) inlined into a
    bound or condition dropped the conversions of the call: `i < f(n)` ran n times where C runs
    none at n = 40000 (f(n) is -25536).  The casts now stay, and the model reads their ranges."""
    src = DATA / f"{name}.c"
    rc, out, err = run_cli("run", src, "-D", "n=7")
    assert rc == 0 and ": ok" in out, out + err
    rc, out, err = run_cli("transform", src)          # the sizes as arguments
    assert rc == 0, err
    # the statement runs `rows` times in C: the output, compiled, agrees
    import subprocess
    prog = tmp_path / "p.c"
    body = out.replace("static int f", "static inline int f").replace("static short f", "static inline short f")
    prog.write_text(body + f"\n#include <stdio.h>\nstatic double a[{max(n, 8)}];\nint main(void) {{ k({n}, a); "
                    f"int c = 0; for (int i = 0; i < {max(n, 8)}; i++) c += a[i] != 0; printf(\"%d\\n\", c); }}\n")
    subprocess.run(["gcc", "-O1", "-o", tmp_path / "p", prog], check=True)
    assert subprocess.run([tmp_path / "p"], capture_output=True, text=True).stdout.strip() == str(rows)


def test_an_inlined_helpers_conversion_keeps_a_reversal_illegal(tmp_path):
    """`a[f(i + 65535)]` with a short parameter writes a[i - 1]: the reversal the bare
    expression allowed is refused where the conversion is read."""
    recipe = tmp_path / "r.yaml"
    recipe.write_text("steps: [{reverse: {stmt: 0, loop: i}}]\n")
    rc, out, err = run_cli("transform", DATA / "helper_illegal_rev.c", "--recipe", recipe, "-D", "n=10")
    assert rc == 2 and "the cast (short) keeps only the values -32768..32767" in err, out + err


def test_a_floating_point_loop_counter_is_refused(tmp_path):
    """Probe 152 G2: `float x; for (x = 0; x < n; x++)` was run as an int counter (a float stops
    at 2^24, where the output went on)."""
    rc, out, err = run_cli("transform", DATA / "float_counter.c")
    assert rc == 2 and "float_counter.c:4:3: error: the loop counter 'x' is a float (float): past 2^24" in err, err


def test_a_branch_on_data_into_a_volatile_target_is_refused(tmp_path):
    """Probe 152 G3: `if (b[i] > 1.0) out[i] = b[i];` of a volatile out became an unconditional
    read and write of out[i]."""
    rc, out, err = run_cli("transform", DATA / "volatile_cond_store.c")
    assert rc == 2 and "a branch on data writes the volatile 'out'" in err, err


def test_int_arithmetic_past_int_in_a_subscript_is_refused(tmp_path):
    """Probe 152 G5: `a[i * 65536 * 65536 + i]` (int overflow in C) was modelled as 4294967297 * i."""
    rc, out, err = run_cli("transform", DATA / "int_overflow_subscript.c")
    assert rc == 2 and "overflows int (C computes it in int)" in err, err


def test_a_struct_member_size_without_a_value_is_placed(tmp_path):
    """Probe 152 G6: the error had no column (it looked for 's__n' in the file)."""
    rc, out, err = run_cli("run", DATA / "struct_size_nocol.c", "-D", "n=7")
    assert rc == 2 and "struct_size_nocol.c:5:19: error: the size 's__n' (the struct member s->n) has no value" in err, err


def test_a_chained_comparison_is_named_in_the_note(tmp_path):
    """Probe 152 G7: `if (0 < i < 5)` was announced as a branch on data."""
    rc, out, err = run_cli("run", DATA / "chaincmp_note.c", "-D", "n=9")
    assert rc == 0 and ": ok" in out, out + err
    assert "a branch on a condition that is not affine" in err and "there C compares 0 < i, which is 0 or 1, with 5 " \
        "(for a range, write 0 < i && i < 5)" in err, err


@pytest.mark.parametrize("n", [12, 13, 7])
def test_a_jam_of_a_body_with_a_local_at_fixed_sizes(tmp_path, n):
    """Probe 152 G4: tile i by 3, then unroll i by 2, of a body declaring `double t`, failed at
    n = 12 and 13 ('cannot tell which jammed copy'): the `else` of isl's `if ((ii + 1) % 2 == 0)`
    told nothing of ii, so the copies' strips were not found."""
    rc, out, err = run_cli("run", DATA / "jam_local.c", "--recipe", DATA / "jam_local_tile3_unroll2.yaml", "-D", f"n={n}")
    assert rc == 0 and ": ok" in out, out + err


def _unsigned_kernel(tmp_path, name):
    src = tmp_path / name
    src.write_text("void k(unsigned n, double A[300], double B[300]) {\n  int i;\n#pragma scop\n"
                   "  for (i = -3; i < n; i++)\n    A[i + 3] = B[i + 3] + 1.0;\n#pragma endscop\n}\n")
    return src


def test_the_as_written_check_serves_any_target(tmp_path, monkeypatch):
    """`run --target cuda` validated its kernels against looptx's reading alone: the check of
    that reading (the region as written, in the C harness) now runs there too, through
    verbatim.misreading, which sees the misreading made here by switching off the
    unsigned-comparison check."""
    from looptx.frontend.int_types import IntTypes
    from looptx.runtime.verbatim import misreading
    monkeypatch.setattr(IntTypes, "compared_unsigned", lambda self, a, b: False)
    said = misreading(str(_unsigned_kernel(tmp_path, "u.c")), {"n": 7}, 0)
    assert said is not None and "looptx misreads its C" in said, said
    monkeypatch.undo()
    ok = tmp_path / "ok.c"
    ok.write_text(_unsigned_kernel(tmp_path, "x.c").read_text().replace("i = -3", "i = 0"))
    assert misreading(str(ok), {"n": 7}, 0) is None


@pytest.mark.gpu
def test_run_on_the_gpu_checks_the_reading(tmp_path, monkeypatch):
    from conftest import require_gpu
    require_gpu()
    from looptx.frontend.int_types import IntTypes
    monkeypatch.setattr(IntTypes, "compared_unsigned", lambda self, a, b: False)
    recipe = tmp_path / "r.yaml"
    recipe.write_text("steps: [{cuda: {stmt: 0, block: [i], thread: ['1']}}]\n")
    rc, out, err = run_cli("run", _unsigned_kernel(tmp_path, "g.c"), "--recipe", recipe, "--target", "cuda", "-D", "n=7")
    assert rc == 1 and "wrong_result: the region as written gives other results" in out, out + err


def test_an_infinite_original_is_said_as_such(tmp_path):
    """Probe 151 (minor): an original whose output is +Inf was unvalidated with 'NaN matches NaN'."""
    src = tmp_path / "inf.c"
    src.write_text("void k(int n, double A[300], double B[300]) {\n  int i;\n#pragma scop\n"
                   "  for (i = 0; i < n; i++)\n    A[i] = B[i] * 1e308 * 1e10;\n#pragma endscop\n}\n")
    rc, out, err = run_cli("run", src, "-D", "n=9")
    assert "unvalidated" in out and "an infinity matches one of its sign whatever the code computes" in out, out + err


@pytest.mark.parametrize("cond, accepted", [
    ("(i - 5) / 2 > 0", True), ("(i - 5) / 2 >= 1", True), ("(i - 5) / 3 < 2", True), ("(i - 5) / 2 <= 0", True),
    ("3 < (i - 1) / 2", True), ("(i - 5) / 2 >= 0", False), ("(i - 5) / 2 > -1", False), ("(i - 5) / 2 < 0", False)])
def test_a_quotient_compared_with_a_constant_needs_no_sign_when_the_truth_is_alike(tmp_path, cond, accepted):
    """Probe 154 G1: `if ((i - 5) / 2 > 0)` with i from 0 was refused once divisions were
    checked where C evaluates them, though truncation and floor give the same truth there (a
    negative dividend makes both <= 0).  Where they differ (`>= 0` at i = 4: 0 vs -1), it stays refused."""
    src = tmp_path / "q.c"
    src.write_text("void k(int n, double A[64]) {\n  int i;\n#pragma scop\n  for (i = -9; i < n; i++)\n"
                   f"    if ({cond})\n      A[i + 9] = A[i + 9] * 2.0 + 1.0;\n#pragma endscop\n}}\n")
    recipe = tmp_path / "r.yaml"
    recipe.write_text("steps: [{reverse: {stmt: 0, loop: i}}]\n")
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", "n=17")
    if accepted:
        assert rc == 0 and ": ok" in out, out + err
    else:
        assert rc == 2 and "'/' of a possibly negative value" in err, out + err


def test_a_division_of_a_fixed_negative_value_rounds_as_c_does(tmp_path):
    """Probe 154 G2: `j <= (m - 1) / 4` with -D m=0 was refused ('possibly negative'), though
    the value is a constant there: C's -1 / 4 is 0, and j = 0 runs."""
    for m in (0, 5):
        rc, out, err = run_cli("run", DATA / "define_zero.c", "--recipe", DATA / "define_zero.yaml", "-D", "n=5",
                               "-D", f"m={m}")
        assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("name", ["helper_long_note.c", "sizeof_define.c"])
def test_a_conversion_a_sizes_type_keeps_adds_no_guard(tmp_path, name):
    """Probe 154 G3: `(int)(long)n` of an int n, `(int)(sizeof t / sizeof t[0])`, were modelled
    for `-2147483648 <= n <= 2147483647` with a note and a run-time guard: the size's own type
    gives that."""
    rc, out, err = run_cli("transform", DATA / name)
    assert rc == 0 and "2147483648" not in out and "note: the region is modelled for" not in err, out + err


def test_a_reread_output_with_a_conditional_drops_its_helper_groups(tmp_path):
    """Probe 154 G4: looptx's output read again repeated its `#ifndef lx_min` groups empty
    after the region's own when the region also held a conditional of the user's."""
    first = tmp_path / "once.c"
    src = tmp_path / "c.c"
    src.write_text("#ifndef USE_FIVE\n#define USE_FIVE 0\n#endif\nvoid k(int n, int m, double a[64][64], "
                   "double b[64][64]) {\n  int i, j;\n#pragma scop\n#if USE_FIVE\n#else\n  for (i = 1; i < n; i++)\n"
                   "    for (j = 1; j < m; j++)\n      b[i][j] = a[i][j] + a[i - 1][j];\n#endif\n#pragma endscop\n}\n")
    recipe = tmp_path / "t.yaml"
    recipe.write_text("steps: [{tile: {stmt: 0, loop: j, size: 16}}]\n")
    rc, out, err = run_cli("transform", src, "--recipe", recipe, "-o", first)
    assert rc == 0, err
    rc, out, err = run_cli("transform", first)
    assert rc == 0 and out.count("#ifndef lx_") == out.count("#define lx_") >= 1, out


def test_a_helper_that_cannot_be_read_in_a_bound_says_which_can(tmp_path):
    """Probe 154 G5."""
    src = tmp_path / "h.c"
    src.write_text("static int lim(unsigned char x) { return x; }\nvoid k(int n, double *a) {\n  int i;\n"
                   "#pragma scop\n  for (i = 0; i < lim(n); i++)\n    a[i] = 1.0;\n#pragma endscop\n}\n")
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and "the file's helpers over signed int, short or long that return one expression" in err, err


def test_the_variable_size_check_respects_the_recipes_own_fact(tmp_path):
    """Probe 155 G1: a permute made for `n >= 2` (rows it reorders): at n = -5 the output runs
    the region as written, but `run`'s check of the variable-size code ran the reordered branch
    alone and said wrong_result."""
    for n in (-5, 1, 3):
        rc, out, err = run_cli("run", DATA / "rows_only_when.c", "--recipe", DATA / "permute_ji.yaml",
                               "-D", f"n={n}", "-D", "m=4")
        assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("cond", ["i >= 0 && i / 2 == 1", "i < 0 || i / 2 >= 0", "!(i < 1 || i % 3 != 1)"])
def test_a_division_behind_a_short_circuit_is_checked_where_c_evaluates_it(tmp_path, cond):
    """Probe 155 G3: `if (i >= 0 && i / 2 < 3)` was refused: C divides only where i >= 0."""
    src = tmp_path / "s.c"
    src.write_text("void k(int n, double A[300]) {\n  int i;\n#pragma scop\n  for (i = -n; i < n; i++)\n"
                   f"    if ({cond})\n      A[i + 100] = A[i + 100] + i;\n#pragma endscop\n}}\n")
    for n in (0, 7, 12):
        rc, out, err = run_cli("run", src, "-D", f"n={n}")
        assert rc == 0 and ": ok" in out, out + err


def test_a_fixed_unsigned_size_keeps_its_type_in_the_harness(tmp_path):
    """Probe 155 G4: `-D n=5` of an `unsigned n` was `#define n 5` (an int) in the reference's
    harness, which computed `(i - n) / 2` signed where the file computes it unsigned, and the
    as-written check called it a misreading."""
    rc, out, err = run_cli("run", DATA / "unsigned_value.c", "-D", "n=5")
    assert rc == 0 and ": ok" in out, out + err


def test_a_row_fact_is_one_under_which_the_region_runs_at_many_sizes(tmp_path):
    """Probe 155 G5: a permute whose rows may collide was made for `n = 4` (one size), though
    `m < 301` keeps every row in place at every n."""
    rc, out, err = run_cli("transform", DATA / "rows_unsigned.c", "--recipe", DATA / "rows_unsigned_permute.yaml")
    # (and `i < n - 3` of the unsigned n is modelled for n >= 3, which the output checks too)
    assert rc == 0 and "if ((long)n >= 3 && m < 301) {" in out and "the recipe is made for m <= 300" in err, out + err
    for n, m in ((9, 7), (4, 300), (3, 250)):
        rc, out, err = run_cli("run", DATA / "rows_unsigned.c", "--recipe", DATA / "rows_unsigned_permute.yaml",
                               "-D", f"n={n}", "-D", f"m={m}")
        assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("name, sizes", [("fold_unsigned_mod.c", ("-D", "n=20")), ("fold_unsigned_div.c", ())])
def test_an_unsigned_constant_division_folds_as_c_wraps_it(tmp_path, name, sizes):
    """Probe 156 G1: `(5 - 10u) % 3` folded as -5 % 3 (C's is 2), so `B[i + (5 - 10u) % 3 + 2]`
    read B[i]: an unsigned constant wraps before it divides."""
    rc, out, err = run_cli("run", DATA / name, *sizes)
    assert rc == 0 and ": ok" in out, out + err
    if name == "fold_unsigned_mod.c":
        rc, out, err = run_cli("transform", DATA / name)
        assert rc == 0 and "B[i + 4]" in out, out + err


def test_a_quotient_plus_a_constant_compared_with_one(tmp_path):
    """Probe 156 G2: `(i - 5) / 2 - 1 > 0` is `q > 1`: truncation and floor agree."""
    rc, out, err = run_cli("run", DATA / "quotient_minus_const.c", "-D", "n=20")
    assert rc == 0 and ": ok" in out, out + err


def test_a_size_that_breaks_the_models_fact_gives_the_as_written_check_no_verdict(tmp_path):
    """Probe 156 G3: `#define NB 4u` and `B[i + (NB - 5) % 3]`: the model holds for NB >= 5 (the
    output runs the region as written below), and at the file's NB = 4 the as-written check
    compared C with a reading the output never uses there, and called it a misreading."""
    rc, out, err = run_cli("run", DATA / "unsigned_macro_run.c", "-D", "n=20")
    assert rc == 0 and ": ok" in out, out + err
    rc, out, err = run_cli("transform", DATA / "unsigned_macro_run.c")
    assert rc == 0 and "if ((long)NB >= 5) {" in out, out + err


def _cu(tmp_path, name, recipe, *defines):
    cu_path = tmp_path / f"{name}.cu"
    rc, out, err = run_cli("transform", DATA / f"{name}.c", "--recipe", DATA / recipe, "--target", "cuda",
                           "-o", cu_path, *defines)
    assert rc == 0, err
    return cu_path.read_text()


@pytest.mark.parametrize("name, sizes, defines", [("cu_g1", {"m": 5}, ()), ("cu_g1", {"m": 5}, ("-D", "m=5")),
                                                  ("cu_g2", {}, ()), ("cu_g3", {}, ())])
def test_a_cuda_kernel_keeps_an_unsigned_sizes_type(tmp_path, name, sizes, defines):
    """Probe 157 G1-G3: `A[j] = (j - m) / 2` of an `unsigned m` (a parameter, `#define m 5u`, `-D
    m=5`, a file-scope `const unsigned m = 5`) computed signed in the .cu, whose host and kernel
    took `int m` (or `#define m 5`): A[0] was -2 where C gives 2147483645."""
    from cuda_on_threads import compare_host
    from test_cuda_codegen import NVCC, nvcc_compile
    cu = _cu(tmp_path, name, "cu_block_j.yaml", *defines)
    errs = compare_host(cu, DATA / f"{name}.c", "f", sizes, tmp_path / "w")
    assert max(errs.values()) == 0, errs
    if NVCC:
        assert nvcc_compile(cu) is None


def test_a_cuda_host_checks_both_ends_of_a_conversions_range(tmp_path, capfd):
    """Probe 157 G4: `i < f(n)` with `static int f(short x)` is modelled for -32768 <= n <= 32767;
    the host checked `n < 32768` only (a region with no statement below was taken as idle, but
    the model's domain is what the conversion makes of it: at n = -65499 C runs 37 rows), and
    returned success having done nothing."""
    from cuda_on_threads import compare_host
    cu = _cu(tmp_path, "cu_g_lo", "cu_g_lo.yaml")
    assert "if (!(n < 32768 && n >= -32768)) return (int)cudaErrorInvalidValue;" in cu, cu
    assert max(compare_host(cu, DATA / "cu_g_lo.c", "k", {"n": 37}, tmp_path / "w").values()) == 0


def test_a_block_loop_bounded_only_by_a_types_range_is_checked_at_launch(tmp_path):
    """Probe 157 G5: `i < (int)n` of a long n on blockIdx.y was refused at the step (2^31 - 1
    blocks, the int's range): only a grid too large at every size is; this one is the launch's."""
    from cuda_on_threads import compare_host
    cu = _cu(tmp_path, "cu_g_y", "cu_g_y.yaml")
    assert max(compare_host(cu, DATA / "cu_g_y.c", "kf", {"n": 40}, tmp_path / "w").values()) == 0


def test_an_unsigned_define_in_a_printed_bound_compares_signed(tmp_path):
    """Probe 158 G2: `#define M 5u` printed into `i < lx_min(n, M - 3)` made C compare i = -3
    with 2u unsigned, and nothing ran; the output now reads the macro as an unsigned parameter
    (`(long)M - 3`), as it does an `unsigned m`."""
    import subprocess
    rc, out, err = run_cli("transform", DATA / "unsigned_define_bound.c", "-o", tmp_path / "t.c")
    assert rc == 0 and "(long)M - 3" in (tmp_path / "t.c").read_text(), err
    driver = tmp_path / "d.c"
    driver.write_text("#include <stdio.h>\nvoid kern(int n, double A[64][64]);\nstatic double A[64][64];\n"
                      "int main(void) { kern(17, A); int c = 0; for (int i = 0; i < 64; i++) for (int j = 0; j < 64; j++)"
                      " c += A[i][j] != 0; printf(\"%d\\n\", c); }\n")
    counts = []
    for name, src in (("o", DATA / "unsigned_define_bound.c"), ("t", tmp_path / "t.c")):
        subprocess.run(["gcc", "-O1", "-o", tmp_path / name, driver, src], check=True)
        counts.append(subprocess.run([tmp_path / name], capture_output=True, text=True).stdout)
    assert counts[0] == counts[1] and counts[0].strip() != "0", counts


def test_a_division_by_a_negative_constant_is_read(tmp_path):
    """Probe 158 G3: `i < n / -(2) + 40` was refused ('non-positive value'): C's quotient by -2
    is minus the one by 2."""
    for n in (0, 9, 17):
        rc, out, err = run_cli("run", DATA / "negative_divisor.c", "-D", f"n={n}")
        assert rc == 0 and ": ok" in out, out + err
