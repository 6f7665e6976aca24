"""Gaps found in session 75 (and left open by earlier probes)."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import case_files, run_cli

DATA = Path(__file__).parent / "data" / "gaps75"


# --- values past INT_MAX that the region fixes (probes 216 G7, 219 G4) ---------------------------

TAIL = """{defines}
void f(double *a, double *b) {{
  {counter} i; int j;
#pragma scop
  for (j = 0; j < 3; j++)
    for (i = {lo}; i < {hi}; i++)
      a[j * 100 + i - ({lo})] = a[j * 100 + i - ({lo})] + b[i - ({lo})] * (double)((i + j) % 7);
#pragma endscop
}}
"""
STEPS = ["tile: {stmt: 0, loop: i, size: 32}", "unroll: {stmt: 0, loop: i, factor: 3}",
         "permute: {stmt: 0, order: [i, j]}", "reverse: {stmt: 0, loop: j}",
         "tile: {stmt: 0, loop: i, size: 16, control: ii}"]
CASES = [("#define N 3200000000L", "N - 96", "N"),                 # tiles of 32 start at multiples of 32
         ("#define N 3000000000", "N - 100", "N"),                 # a decimal past int is a long
         ("#define N 0xC0000000", "N - 100", "N"),                 # an unsigned int past INT_MAX
         ("#define N 5000000000UL", "N - 100", "N"),
         ("", "3000000000L", "3000000100L"),
         ("", "-3000000100L", "-3000000000L")]


@pytest.mark.parametrize("defines, lo, hi", CASES)
@pytest.mark.parametrize("step", STEPS)
def test_a_value_past_int_that_the_region_fixes_makes_its_loops_count_in_long(tmp_path, defines, lo, hi, step):
    """A `#define N 3000000000` or literal `3000000000L` was refused ('does not fit in an int');
    the loops that reach such values count in long, also where their header no longer reads
    the value (tiled by 32 at N = 3200000000: `i <= 32 * ii + 31`)."""
    src, recipe = case_files(tmp_path, TAIL.format(defines=defines, counter="long", lo=lo, hi=hi),
                             f"steps:\n  - {step}\n")
    rc, out, err = run_cli("run", src, "--recipe", recipe)
    assert rc == 0 and ": ok" in out, out + err
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 0 and "for (int" not in out, out + err


@pytest.mark.parametrize("define", ["N=3200000000", "N=5000000000"])
def test_a_define_past_int_of_a_macro_makes_its_loops_count_in_long(tmp_path, define):
    """`-D N=5000000000` of an `#ifndef N` default was refused; with an int counter the tiled
    loops came out `int ii` / `32 * ii` (overflowing) before the fix of the header-free case."""
    code = TAIL.format(defines="#ifndef N\n#define N 16\n#endif", counter="int", lo="0", hi="N")
    src, recipe = case_files(tmp_path, code, "steps:\n  - tile: {stmt: 0, loop: i, size: 32}\n")
    rc, out, err = run_cli("transform", src, "--recipe", recipe, "-D", define)
    assert rc == 0 and "for (long ii = 0;" in out and "for (long i = 32 * ii;" in out, out + err
    src.write_text(TAIL.format(defines="#ifndef N\n#define N 16\n#endif", counter="long", lo="N - 64", hi="N"))
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", define)
    assert rc == 0 and ": ok" in out, out + err


def test_an_int_size_given_past_int_is_told_to_be_declared_long(tmp_path):
    src, _ = case_files(tmp_path, "void f(int n, double *a) {\n  int i;\n#pragma scop\n  for (i = 0; i < n; i++)\n"
                        "    a[i] = 2.0 * a[i];\n#pragma endscop\n}\n", "")
    rc, out, err = run_cli("transform", src, "-D", "n=3000000000")
    assert rc == 2 and err.strip().endswith(
        "'n' = 3000000000 does not fit in an int ('n' is an int: give a value below 2^31, or declare it long)"), err


def test_a_cast_of_a_constant_past_int_is_read_as_c_computes_it(tmp_path):
    """`(int)(i + 4294967296L)` wraps to i in C: the condition it appears in is if-converted
    (computed at run time), not taken as the affine `i + 4294967296 < 3`."""
    code = ("static long f(int x) { return x; }\nvoid k(long n, double *a) {\n  long i;\n#pragma scop\n"
            "  for (i = 0; i < n; i++)\n    if (f(i + 4294967296L) < 3) a[i] = a[i] + 1.0;\n#pragma endscop\n}\n")
    src, recipe = case_files(tmp_path, code, "steps:\n  - tile: {stmt: 0, loop: i, size: 4}\n")
    for n in (0, 1, 7):
        rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", f"n={n}")
        assert rc == 0 and ": ok" in out, out + err


# --- CHiLL scripts as their users write them (probe 232) ---------------------------------------

MM = """#define N 64
void mm(float c[N][N], float a[N][N], float b[N][N], int n)
{
  int i, j, k;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        c[i][j] = c[i][j] + a[i][k] * b[k][j];
}
"""


@pytest.mark.parametrize("end, name", [("exit()", "s.py"), ("quit()", "s.py"), ("sys.exit(0)", "s.py"),
                                       ("os.exit()", "s.lua")])
def test_a_chill_script_ends_at_exit(tmp_path, end, name):
    """Probe 232 G1: `print_code(); exit()` mid-script (a script being written) went on with the
    commands after it; CHiLL's Python stops there (exit is Python's, which CHiLL does not bind)."""
    head = "from chill import *\n" if name.endswith(".py") else ""
    script = f'{head}source("mm.c")\nprocedure("mm")\nloop(0)\ntile(0,2,16)\nprint_code()\n{end}\nunroll(0,4,4)\n'
    src, recipe = case_files(tmp_path, MM, script, name)
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    line = 6 if head else 5
    assert rc == 0 and "unroll" not in out.split("*/")[0] and "tile: {stmt: 0, loop: 2, size: 16" in out, out + err
    assert f"{name}:{line + 1}: note: the script ends at {end}, as CHiLL's does: the command after it " \
        f"(from line {line + 2}) is not applied" in err, err
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", "n=19")
    assert rc == 0 and ": ok" in out, out + err


def test_a_cuda_chill_move_keeps_the_moved_loops_name(tmp_path):
    """Probe 232 G2: after the Lua `tile(0,2,1)` (CUDA-CHiLL's tile_cuda, a move of j outward)
    the moved loop was named jj and `j` meant the one-iteration loop left behind, so cudaize's
    block={"j"} launched a grid of one block 1024 times; CUDA-CHiLL renames as it moves."""
    script = tmp_path / "move.lua"
    script.write_text('init("cmm.c","normalMM",0)\ndofile("cudaize.lua")\nN=1024\ntile(0,2,1)\n'
                      'cudaize("mm_GPU",{a=N*N,b=N*N,c=N*N},{block={"j"},thread={"i"}})\n')
    rc, out, err = run_cli("transform", DATA / "cmm.c", "--recipe", script, "--target", "cuda")
    assert rc == 0 and "lx_g0 = 1024," in out and "for (int jj" not in out and "encloses" not in err, out + err


@pytest.mark.parametrize("name, text", [
    ("m.py", 'from chill import *\nread_IR("cmm.c","normalMM")\ntile3(0,3,1)\nunroll(0,"k",4)\n'),
    ("m.lua", 'init("cmm.c","normalMM",0)\ndofile("cudaize.lua")\ntile(0,3,1)\nunroll(0,"k",4)\n')])
def test_a_later_command_names_the_moved_loop(tmp_path, name, text):
    """After the move of k outermost, `unroll(0,"k",4)` unrolled the one-iteration loop (nothing)."""
    script = tmp_path / name
    script.write_text(text)
    rc, out, err = run_cli("transform", DATA / "cmm.c", "--recipe", script)
    assert rc == 0 and "k += 4" in out and "k + 3" in out, out + err
