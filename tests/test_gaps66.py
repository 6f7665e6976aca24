"""Gaps found in session 66 (probe 170 G3 and what probes 173-177 found), end to end."""
import re

import pytest

from conftest import run_cli, runs_ok

pytestmark = pytest.mark.usefixtures("private_build_cache")

DATA = __import__("pathlib").Path(__file__).resolve().parent / "data" / "gaps66"


def test_a_function_chain_defines_each_helper_once(tmp_path):
    """Probe 170 G3: each `--function` re-transform kept the `#ifndef lx_floord` groups an
    earlier output put before its block and wrote its own after them, one more copy a step.
    The region now takes those groups, and its output defines each helper once."""
    prev = DATA / "two_functions.c"
    for k, recipe in enumerate(("tile_i4.yaml", "unroll_i3.yaml", "tile_i4.yaml")):
        out = tmp_path / f"step{k}.c"
        rc, _, err = run_cli("transform", prev, "--function", "f", "--recipe", DATA / recipe, "-o", out)
        assert rc == 0, err
        body = out.read_text().split("void f(")[1]
        assert body.count("#ifndef lx_floord") <= 1 and body.count("#ifndef lx_min") <= 1, body
        runs_ok(prev, DATA / recipe, [-3, 0, 1, 7, 37], "--function", "f")
        prev = out


def test_rodinia_reduction_on_a_sum_reset_each_iteration(tmp_path):
    """Probe 171 G4: Rodinia backprop's `reduction(+: sum)` on the loop whose iterations each
    set `sum = 0.0` was refused ("uses it other than as `v = v op e`").  Nothing after the loop
    reads `sum`, so the clause computes what a private `sum` does: the output lists it private.
    The pragma under `#ifdef OPEN`, split from its group by a call, with a comment between it and
    the loop, leaves the C around the region: the output compiles under -fopenmp -DOPEN."""
    out = tmp_path / "bp.c"
    rc, _, err = run_cli("transform", DATA / "backprop.c", "--function", "bpnn_layerforward", "-D", "OPEN=1", "-o", out)
    assert rc == 0 and "it is private" in err, err
    text = out.read_text()
    assert text.count("#pragma omp parallel for") == 1 and "private(k, sum)" in text, text
    import subprocess
    subprocess.run(["gcc", "-fopenmp", "-DOPEN", "-c", out, "-o", tmp_path / "bp.o"], check=True, capture_output=True)
    rc, got, err = run_cli("run", DATA / "backprop.c", "--function", "bpnn_layerforward", "-D", "OPEN=1",
                           "-D", "n1=37", "-D", "n2=20", "--cflags", "-O2 -fopenmp")
    assert rc == 0 and got.count(": ok") == 2, got + err


def test_a_reduction_on_a_sum_read_after_the_loop_is_still_refused(tmp_path):
    """The same clause where the sum is read after the loop: the threads' combined value is
    not the last iteration's, so it stays refused; without that read it is private."""
    recipe = DATA / "omp_reduction_sum.yaml"
    rc, _, err = run_cli("transform", DATA / "reset_sum.c", "--function", "rows", "--recipe", recipe)
    assert rc == 2 and "uses it other than as `v = v op e`" in err, err
    dead = tmp_path / "dead.c"
    dead.write_text((DATA / "reset_sum.c").read_text().replace("  *last = sum;\n", ""))
    rc, out, err = run_cli("transform", dead, "--function", "rows", "--recipe", recipe)
    assert rc == 0 and re.search(r"omp parallel for private\([^)]*\bsum\)", out), out + err
    assert "reduction" not in out.split("*/", 1)[1], out
    runs_ok(dead, recipe, [0, 5, 13], "--function", "rows", "-D", "m=7", "--cflags", "-O2 -fopenmp")


def test_a_fuse_hint_does_not_serialize_at_the_run_size():
    """Probe 177 G1: Pluto's matmul-seq fused at `j`, refused, offered `shift j by 15` at
    `-D N=16` (by 5 at N=6): the statements then run one after the other, legal at that size
    alone.  The hint is `shift i by 1` at every size, as at the file's N = 500."""
    for n in (6, 16, 21):
        rc, _, err = run_cli("run", DATA / "mmseq.c", "--recipe", DATA / "fusej.yaml", "-D", f"N={n}")
        assert rc == 2 and "'shift: {stmt: 1, loop: i, by: 1}'" in err and "loop: j" not in err, (n, err)


def test_a_local_set_from_a_plain_define_stays_symbolic(tmp_path):
    """Probe 171 G3: TSVC's `int m = LEN_1D/2;` under a plain #define was modelled at its value
    with no step needing it: the output read `i < 500`, behind `#if N != 1000 #error`.  It stays
    `m`, as N does where the loops read it; a step legal only at the value takes it, and the
    output then checks the #define."""
    rc, out, err = run_cli("transform", DATA / "define_freeze.c")
    assert rc == 0 and "#error" not in out and "i < m" in out and "b[m + i]" in out, out + err
    src = tmp_path / "d.c"
    src.write_text("#define N 1000\ndouble a[2 * N];\nvoid f(void) {\n  int m = N / 2;\n#pragma scop\n"
                   "  for (int i = 1; i < m; i++)\n    a[i] = a[i + 600] + a[i + m];\n#pragma endscop\n}\n")
    (tmp_path / "rev.yaml").write_text("steps:\n  - reverse: {stmt: 0, loop: i}\n")
    rc, out, err = run_cli("transform", src, "--recipe", tmp_path / "rev.yaml")
    assert rc == 0 and "#if N != 1000" in out and "m = 500 (set from N = 1000)" in err, out + err
    rc, out, err = run_cli("run", src, "--recipe", tmp_path / "rev.yaml")
    assert rc == 0 and ": ok" in out, out + err


def test_the_host_note_names_global_scalars_in_signature_order(tmp_path):
    """Probe 173 G1: the note on what the host function takes after the original's parameters
    named the file's array `G` and left out `scale` (by value) and `total` (which the region
    writes, taken by its address): a call written from the note did not compile."""
    out = tmp_path / "gs.cu"
    rc, _, err = run_cli("transform", DATA / "global_scalars.c", "--recipe", DATA / "tile_cuda_ii.yaml",
                         "--target", "cuda", "-o", out)
    assert rc == 0 and ") takes scale, G, &total, the region's variables that the original function does not take" in err, err
    assert "glob_host(int n, double *__restrict__ a, double *__restrict__ b, double scale, " \
        "double *__restrict__ G, double *__restrict__ total)" in out.read_text()


def test_a_combine_refusal_shows_the_reference_as_written():
    """Probe 173 G2: the refusal printed isl's `x[((i) mod 5)]`."""
    rc, _, err = run_cli("transform", DATA / "combine_mod.c", "--recipe", DATA / "combine_ij.yaml", "--target", "cuda")
    assert rc == 2 and "do not appear together in x[i % 5] (line 8)" in err, err


def test_run_target_cuda_without_pycuda_names_the_cpu_run(monkeypatch):
    """Probe 173 G3: without pycuda, the hint named `transform` alone; `run --target c` runs
    the same cuda steps' loops on the CPU and validates them."""
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "pycuda" else real(name, *a))
    rc, _, err = run_cli("run", DATA / "global_scalars.c", "--recipe", DATA / "tile_cuda_ii.yaml", "--target", "cuda")
    assert rc == 2 and "with --target c" in err, err
    rc, out, err = run_cli("run", DATA / "global_scalars.c", "--recipe", DATA / "tile_cuda_ii.yaml",
                           "--target", "c", "-D", "n=37")
    assert rc == 0 and ": ok" in out, out + err


def test_a_second_unroll_of_a_strided_loop_names_the_factors(tmp_path):
    """Probe 174 G1: `for (i = 0; i < n; i += 3)` unrolled by 4, then by 3, said "already
    unrolled by 12 ... (36)": the width in values, not the factor; the hint's 36 gave three times
    the copies the steps asked for."""
    src = tmp_path / "k.c"
    src.write_text("void kern(int n, double y[200], double x[200])\n{\n  int i;\n#pragma scop\n"
                   "  for (i = 0; i < n; i += 3)\n    y[i] = y[i] * 0.5 + x[i];\n#pragma endscop\n}\n")
    (tmp_path / "r.yaml").write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 4}\n"
                                     "  - unroll: {stmt: 0, loop: i, factor: 3}\n")
    rc, _, err = run_cli("transform", src, "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and "already unrolled by 4 (unroll it once by the product of the factors (12)" in err, err


def test_annotation_values_nested_past_the_limit_are_refused_at_once(tmp_path):
    """Probe 176 G1: `[[1]*10**5]*10**5` holds 10**5 references to one list, within the
    evaluator's limit, and was then built whole: `deps` ran past 100 s at 3 GB.  The limit now
    counts nested cells."""
    import time
    text = ("/*@ begin PerfTuning (\n  def performance_params { param T[] = [[1]*10**5]*10**5; }\n"
            "  def input_params { param N[] = [64]; }\n  def input_vars { decl static double a[N] = random; }\n"
            ") @*/\nint i;\n/*@ begin CHiLL ( tile(0,\"i\",T,\"ii\") ) @*/\nfor (i = 0; i < N; i++)\n"
            "  a[i] = 2.0 * a[i];\n/*@ end @*/\n/*@ end @*/\n")
    k = tmp_path / "k.c"
    k.write_text(text)
    t0 = time.perf_counter()
    rc, _, err = run_cli("deps", k)
    assert rc == 2 and "k.c:2:40: error: cannot evaluate" in err and "repetition would have" in err, err
    assert time.perf_counter() - t0 < 30


def test_a_long_bad_line_of_a_chill_script_is_refused_in_linear_time(tmp_path):
    """Probe 176 G2: the command splitter joined the command's text at each character: a
    32,000-character bad line took 3.6 s, 200,000 about 140 s, and the error echoed it whole."""
    import time
    script = tmp_path / "r.script"
    script.write_text("source: gemm.c\nprocedure: gemm\nformat: rose\nloop: 0\n/*" + "x" * 200000 + "*/\ntile(0,2,8)\n")
    (tmp_path / "gemm.c").write_text((DATA.parent / "probe64" / "gemm.c").read_text())
    t0 = time.perf_counter()
    rc, _, err = run_cli("transform", tmp_path / "gemm.c", "--recipe", script)
    assert rc == 2 and "r.script:5:1: error: syntax error in command '/*xxx" in err and len(err) < 600, err[:300]
    assert time.perf_counter() - t0 < 30


def test_lua_reads_numeric_strings_in_arithmetic():
    """Probe 176 G3: `-"16"` in a Lua or CHiLL-Python recipe was an internal error (exit 1).
    Lua, which CUDA-CHiLL runs, reads a numeric string in arithmetic as its number: `-"16"` and
    `"8"+8` are -16 and 16; Python refuses it, with the line."""
    for lua in ("neg_string.lua", "add_string.lua"):
        rc, out, err = run_cli("transform", DATA / "mm_regs.c", "--recipe", DATA / lua)
        assert rc == 0 and "16" in out, err
    rc, _, err = run_cli("transform", DATA / "mm_regs.c", "--recipe", DATA / "neg_string.py")
    assert rc == 2 and "neg_string.py:5:1: error: cannot evaluate '-'16''" in err, err


LUA = DATA / "lua"


@pytest.mark.parametrize("script, sizes", [
    ("pow2.lua", ["size: 32"]),         # G1: `2^5` was xor, 7
    ("truthy.lua", ["size: 8"]),        # G1: `0 and 8 or 32` is 8 in Lua
    ("l1b.lua", ["size: 64", "size: 16"]),  # G2: TI = "32"; TI*2 was '3232'
    ("g3.lua", ["size: 32"]),           # G3: `print(#t)` swallowed every later command
    ("g5.lua", ["size: 32"]),           # G5: TI/2 was 32.0, refused
    ("lc.lua", ["control: i2", "block: [i2]"]),  # G6: "i" .. n
    ("lc2.lua", ["control: i2", "block: [i2]"]),  # "i" .. (N / 512): Lua writes 2, not 2.0
    ("math.lua", ["size: 32"]),         # G6: math.floor(N/32)
    ("ne.lua", ["size: 32"]),           # G6: (N ~= 1024) and 8 or 32
    ("g4a.lua", ["size: 32", "size: 64"]),  # G4: local a, b = 32, 64
    ("g4b.lua", ["size: 32", "size: 64"]),  # G4: TI=32; TJ=64
    ("g4d.py", ["size: 32", "size: 64"]),   # G4: TI, TJ = 32, 64
])
def test_cuda_chill_scripts_have_their_languages_meaning(tmp_path, script, sizes):
    """Probe 179: a Lua script's expressions were read as Python's: `^` as xor, numeric strings
    repeated, `0` false, `..` of a number refused, `math.floor` and `~=` refused, `#` a comment
    that swallowed the rest of the script; multiple assignment and `;` refused."""
    out = tmp_path / "o.cu"
    rc, _, err = run_cli("transform", LUA / "tmv.c", "--recipe", LUA / script, "--target", "cuda", "-o", out)
    assert rc == 0, err
    header = out.read_text().split("*/", 1)[0]
    assert all(s in header for s in sizes), header


def test_a_classic_script_divides_integers_and_takes_a_loop_span():
    """Probe 179 G5, G7: `U = TI / 2` of a `.script` was 4.0, refused with Python's `//`;
    CHiLL's AKp256.script selects its nests with `loop: 0-1`, which was refused."""
    rc, out, err = run_cli("transform", LUA / "AKp256.c", "--recipe", LUA / "div.script")
    assert rc == 0 and "factor: 4" in out, err
    rc, out, err = run_cli("run", LUA / "AKp256.c", "--recipe", LUA / "AKp256.script", "-D", "N=61")
    assert rc == 0 and ": ok" in out, out + err


CV = DATA / "c_values"


def _prints_the_same(tmp_path, src, out, *flags):
    import subprocess
    outputs = []
    for k, f in enumerate((src, out)):
        exe = tmp_path / f"a{k}"
        subprocess.run(["gcc", "-O1", *flags, "-o", exe, f], check=True, capture_output=True)
        outputs.append(subprocess.run([exe], check=True, capture_output=True, text=True).stdout)
    assert outputs[0] == outputs[1], outputs


@pytest.mark.parametrize("src, value", [("g1.c", "k = 3"), ("g1_c1.c", "k = 3"), ("g1_c6.c", "k = 1"),
                                        ("g3.c", "k = 5")])
def test_a_local_from_defines_takes_cs_value(tmp_path, src, value):
    """Probe 178 G1, G3: the value of a local set from #defines was computed with Python's
    arithmetic and no type: `(N - 30) % 4 + 4` at N = 21 was 7 (C: 3), `signed char k = N*12 + 7`
    259 (C: 3), `_Bool k = N - 19` 2 (C: 1): a full unroll made 7 copies, a wrong result; and
    `N / 4` had no value.  Now C's: `/` and `%` truncate, and the declared type converts."""
    out = tmp_path / "o.c"
    rc, _, err = run_cli("transform", CV / src, "--recipe", CV / "ru.yaml", "-o", out)
    assert rc == 0 and f"unrolled fully at {value}," in err, err
    _prints_the_same(tmp_path, CV / src, out)


def test_a_step_legal_only_at_a_wrong_value_is_refused():
    """Probe 178 G1: a reverse accepted at the Python value of `(N - 30) % 4 + 4`, and wrong."""
    rc, _, err = run_cli("transform", CV / "g1rev.c", "--recipe", CV / "r3.yaml")
    assert rc == 2 and "RAW on a" in err, err


def test_a_local_from_a_define_the_command_line_fixes_has_its_value(tmp_path):
    """Probe 178 G2: `int k = N - 17;` under an #ifndef default: the hint said --define N=VALUE,
    and with it the full unroll was still refused; with a plain #define, an added -D N=21 (its
    own value) made a reverse refused.  The -D value gives the local its value."""
    out = tmp_path / "o.c"
    rc, _, err = run_cli("transform", CV / "g2.c", "--recipe", CV / "ru.yaml", "-D", "N=21", "-o", out)
    assert rc == 0, err
    _prints_the_same(tmp_path, CV / "g2.c", out, "-DN=21")
    rc, _, err = run_cli("transform", CV / "g2b.c", "--recipe", CV / "r3.yaml", "-D", "N=21")
    assert rc == 0, err


def test_a_continued_pragma_before_a_function_body_is_the_nests_own(tmp_path):
    """Probe 178 G5: `#pragma omp parallel for private(k, s) \\` continued by
    `reduction(+: tot)` before a bare --function body was read as inside the region and
    dropped, where the same pragma on one line is the nest's own."""
    out = tmp_path / "o.c"
    rc, _, err = run_cli("transform", DATA / "omp_continued.c", "--function", "rows", "-o", out)
    assert rc == 0 and "dropped" not in err, err
    assert "#pragma omp parallel for reduction(+:tot) private(k, s)" in out.read_text()
    _prints_the_same(tmp_path, DATA / "omp_continued.c", out, "-fopenmp")


def test_a_function_output_keeps_its_parallel_for_when_read_again(tmp_path):
    """Probe 178 G4: `--function` on looptx's own output, `{ #pragma omp parallel for
    reduction(+:tot) private(k, s) for (j ...) }`, dropped the pragma as inside the region, and
    its private(s) with it: the unroll-and-jam accepted on the original was refused there."""
    once, twice = tmp_path / "once.c", tmp_path / "twice.c"
    rc, _, err = run_cli("transform", DATA / "omp_rows.c", "--function", "rows", "-o", once)
    assert rc == 0, err
    rc, _, err = run_cli("transform", once, "--function", "rows", "--recipe", DATA / "omp_rows_uj.yaml", "-o", twice)
    assert rc == 0 and "dropped" not in err, err
    assert "#pragma omp parallel for reduction(+:tot) private(k, s)" in twice.read_text()
    _prints_the_same(tmp_path, DATA / "omp_rows.c", twice, "-fopenmp")
