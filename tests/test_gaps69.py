"""Gaps found in session 69."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import require_gpu, run_cli, same_output_c

DATA = Path(__file__).resolve().parent / "data" / "gaps69"
MM = Path(__file__).resolve().parent / "data" / "gaps68" / "mm.c"


def test_print_code_shows_the_loop_tree_where_the_script_asks(tmp_path):
    """CHiLL's print_code() prints the code at that point of the script (its test suites compare
    that output); it was read as an inspection line and printed nothing."""
    (tmp_path / "mm.py").write_text('from chill import *\nsource("mm.c")\nprocedure("mm")\nloop(0)\n'
                                    'print_code()\ntile(0,"j",32,"jj")\npermute(0,("jj","i","j","k"))\n'
                                    'print_code()\nunroll(0,"k",4)\n')
    (tmp_path / "mm.c").write_text(MM.read_text())
    out_c = tmp_path / "out.c"
    rc, out, err = run_cli("transform", tmp_path / "mm.c", "--recipe", tmp_path / "mm.py", "-o", out_c)
    assert rc == 0, err
    assert out == ("region 0, as written:\n  for (int i = 0; i < n; i++)\n    for (int j = 0; j < n; j++)\n"
                   "      for (int k = 0; k < n; k++)\n        S0(i, j, k)\n"
                   "region 0, after step 2 (permute: {stmt: 0, order: [jj, i, j, k]}):\n"
                   "  for (int jj = 0; jj <= lx_floord(n - 1, 32); jj++)\n    for (int i = 0; i < n; i++)\n"
                   "      for (int j = 32 * jj; j <= lx_min(n - 1, 32 * jj + 31); j++)\n"
                   "        for (int k = 0; k < n; k++)\n          S0(i, j, k)\n"), out
    assert "k += 4" in out_c.read_text()
    # without -o the code is stdout and the trees go to stderr; a region's own CHiLL block too
    ann = tmp_path / "ann.c"
    ann.write_text(MM.read_text().replace("CHiLL ( )", 'CHiLL ( tile(0,"j",16,"jj") print_code() )', 1))
    rc, out, err = run_cli("transform", ann)
    assert rc == 0 and "jj <= (n - 1) / 16" in out, err
    assert err.startswith("region 0, after step 1 (tile: {stmt: 0, loop: j, size: 16, control: jj}):\n"), err
    # --show-steps shows every step once, print_code() adds nothing to it
    rc, out, err = run_cli("transform", tmp_path / "mm.c", "--recipe", tmp_path / "mm.py", "--show-steps")
    assert rc == 0 and err.count("after step 2 ") == 1 and "as written" not in err, err


def test_an_unsigned_counter_below_a_64_bit_size_ends_before_it_wraps(tmp_path):
    """`unsigned i; for (i = 0; i < n; i++)` of a size_t n never ends at n > 2^32 - 1 (i wraps
    to 0); the model's loop did, silently.  The region is now modelled for n <= 2^32 - 1, a fact
    the output checks."""
    out = tmp_path / "o.c"
    rc, _, err = run_cli("transform", DATA / "size_t_bound.c", "-o", out)
    assert rc == 0 and "modelled for (n) <= 4294967295" in err, err
    assert "if ((long)n >= 0 && ((long)n < 4294967296)) {" in out.read_text()


def test_an_unsigned_counter_past_int_max_counts_in_long(tmp_path):
    """`unsigned i` below an unsigned n by 1000, tiled: the output counted in int, which
    overflows past INT_MAX (undefined; the tile's `64000 * ii` too) where C's unsigned i does not."""
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 64}\n")
    out = tmp_path / "o.c"
    rc, _, err = run_cli("transform", DATA / "unsigned_past_int.c", "--recipe", tmp_path / "r.yaml", "-o", out)
    assert rc == 0, err
    text = out.read_text()
    assert "for (long ii = 0;" in text and "for (long i = 64000 * ii;" in text, text
    same_output_c(tmp_path, DATA / "unsigned_past_int.c", out,
                 '#include <stdio.h>\n#include <stdlib.h>\nvoid f(unsigned n, double *c);\n'
                 'int main(int argc, char **argv) { double c[7] = {0}; f(strtoul(argv[1], 0, 0), c);\n'
                 '  for (int k = 0; k < 7; k++) printf("%.17g\\n", c[k]); return 0; }\n',
                 [("100",), ("3000000001",)])


def test_an_int_size_is_at_most_int_max_in_the_wrap_checks(tmp_path):
    """Probe 192 G3: `for (j = 0; j < (n < m ? n : m); j++) for (k = j + 1; ...)` with an int n,
    a long m and an int k was refused (`j + 1` might not fit k): j < n <= INT_MAX."""
    (tmp_path / "r.yaml").write_text("steps:\n  - unroll: {stmt: 0, loop: k, factor: 2}\n")
    rc, out, err = run_cli("transform", DATA / "min_bound.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 0 and "k += 2" in out, err


def test_registers_that_other_threads_write_are_refused(tmp_path):
    """Probe 193 G1 (a wrong result): a wave stencil with block i, thread j and registers of B at
    the time loop k between them.  Each thread kept its own copy of its neighbours' columns and
    never saw their new values (165 of 240 elements wrong, races in the stores)."""
    rc, _, err = run_cli("transform", DATA / "wave.c", "--recipe", DATA / "wave_registers.yaml", "--target", "cuda",
                         "-D", "n=3", "-D", "T=4", "-D", "m=16")
    assert rc == 2 and "registers of 'B' at 'k' would give each thread its own copy of elements that other " \
                       "threads of the kernel write" in err, err
    (tmp_path / "r.yaml").write_text("steps:\n  - cuda: {stmt: 0, block: [i], thread: [j]}\n"
                                     "  - shared: {stmt: 0, array: B, at: k}\n")
    rc, out, err = run_cli("run", DATA / "wave.c", "--recipe", tmp_path / "r.yaml", "-D", "n=3", "-D", "T=4",
                           "-D", "m=16", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


def test_a_tile_size_that_leaves_no_loop_for_the_permutation_is_left_out_for_each_param(tmp_path):
    """Probe 194 G2: tile sizes 1 of both loops an Orio `permut` names make every point fail; only
    T1_I = 1 was left out (at T1_J = 1 the error named 'ii' when T1_I was 1 too), and 4 of 12
    evaluations were spent on points that cannot run."""
    src = tmp_path / "permut.c"
    src.write_text((DATA / "permut.c").read_text())
    rc, out, err = run_cli("search", src, "--budget", "1", "--db", tmp_path / "s.db")
    assert rc == 0, err
    assert "param 'T1_I': value 1 is left out" in err and "param 'T1_J': value 1 is left out" in err, err
    assert "8 valid points" in out + err, out + err


def test_orios_msimplex_size_is_the_simplex_edge(tmp_path):
    """Probe 194 G1: Orio's msimplex.py reads `size` (msimplex_size), the initial simplex's edge;
    it was refused as an unknown option."""
    from looptx.search.simplex import SimplexSearcher
    from looptx.search.space import Param, Space
    space = Space([Param("U1", tuple(range(1, 5)), "int"), Param("U2", tuple(range(1, 5)), "int")])
    s = SimplexSearcher(space, seed=0, max_evals=4, msimplex_size=2)
    assert s.opts["edge_length"] == 2


def _runs(src: Path, recipe: Path, *sizes: str, target: str = "c") -> str:
    rc, out, err = run_cli("run", src, "--recipe", recipe, "--target", target, "--repetitions", "1",
                           *[x for s in sizes for x in ("-D", s)])
    assert rc == 0 and ": ok" in out, out + err
    return err


def test_chill_scripts_read_as_chill_runs_them(tmp_path):
    """Probe 191: a `.py` script's `TI/2` is Python 2's integer quotient (refused as the float
    4.0); a Lua script's `N/3` is truncated as CUDA-CHiLL's Lua commands do; a `\\` at a line's
    end joins the next line; a tile method other than strided or counted is refused (accepted
    silently); datacopy_privatized by loop names (refused: 'i', 'j' were taken to be inside 'n')."""
    py = tmp_path / "div.py"
    py.write_text('from chill import *\nsource("mm2.c")\nprocedure("mm")\nloop(0)\nTK = 7\n'
                  'tile(1,3,TK/2 + \\\n  1,3)\nunroll(1,2,\\\n2)\n')
    rc, out, err = run_cli("transform", DATA / "mm2.c", "--recipe", py)
    assert rc == 0 and "lx_floord(ambn - 1, 4)" in out and "j += 2" in out, err
    lua = tmp_path / "t.lua"
    lua.write_text('init("mm2.c","mm",0)\nN=64\nTI=N/3\ntile(1,3,TI,3)\n')
    rc, out, err = run_cli("transform", DATA / "mm2.c", "--recipe", lua)
    assert rc == 0 and "21 * nn" in out and "taken as 1, 3, 21, 3" in err, err
    bad = tmp_path / "m.py"
    bad.write_text('from chill import *\nsource("mm2.c")\nprocedure("mm")\nloop(0)\ntile(1,1,4,1,"bogus")\n')
    rc, _, err = run_cli("transform", DATA / "mm2.c", "--recipe", bad)
    assert rc == 2 and "m.py:5:1: error: tile: the tiling method is strided (0) or counted (1), got 'bogus'" in err, err
    for held in ('{"i","j"}', "{1,2}"):
        dp = tmp_path / "dp.lua"
        dp.write_text(f'init("mm2.c","mm",0)\ndatacopy_privatized(1,"n","C",{held})\n')
        err = _runs(DATA / "mm2.c", dp, "an=9", "bm=7", "ambn=5")
        assert "error" not in err, err
    # names as they are at the command: after a tile, the tile loop 'nn' with 'i', 'j' around it
    dp.write_text('init("mm2.c","mm",0)\ntile(1,3,4,3)\ndatacopy_privatized(1,"nn","C",{"i","j"})\n')
    assert "error" not in _runs(DATA / "mm2.c", dp, "an=9", "bm=7", "ambn=6")
    dp.write_text('init("mm2.c","mm",0)\ndatacopy_privatized(1,"i","C",{"j"})\n')
    rc, _, err = run_cli("transform", DATA / "mm2.c", "--recipe", dp)
    assert rc == 2 and "the privatized loop 'j' inside the copy's loop ('i') cannot be honoured" in err, err


def test_normalize_index_shifts_the_loop_to_start_at_zero(tmp_path):
    """Probe 191 G8: cudaize's normalize_index("i") was passed over, so a later split by level
    (`L1 < 5`) cut at i = 5 instead of the normalized i = 5, the original's 6."""
    rc, out, err = run_cli("transform", DATA / "st2.c", "--recipe", DATA / "ni.lua")
    assert rc == 0 and "for (i = 0; i <= lx_min(4, n - 2); i++)" in out and "A[i + 1][j]" in out, err
    _runs(DATA / "st2.c", DATA / "ni.lua", "n=11", "m=9")


def test_a_copy_of_an_array_of_structs_copies_its_members(tmp_path):
    """Probe 191 G4: CUDA-CHiLL's mriq.py copies `kVals`, an array of structs, to shared memory;
    it was refused (a step for each member was needed)."""
    rc, out, err = run_cli("transform", DATA / "mriq.c", "--recipe", DATA / "mriq.py", "-D", "N=64",
                           "--target", "cuda")
    assert rc == 0 and "__shared__ double kVals__Kx_sh[16];" in out, err
    assert "'kVals' is an array of structs, copied one member at a time: kVals.Kx, kVals.Ky, kVals.Kz" in err, err
    _runs(DATA / "mriq.c", DATA / "mriq.py", "N=40")


def _steps_shown(src: Path, script: Path, *argv) -> str:
    """The --show-steps titles of the transform, which name each step as looptx read it."""
    rc, out, err = run_cli("transform", src, "--recipe", script, "--show-steps", "-o", script.with_suffix(".out.c"),
                           *argv)
    assert rc == 0, err
    return "\n".join(ln for ln in out.splitlines() if ln.startswith("region "))


def _kern_script(tmp_path):
    """shown(name, text): the --show-steps titles of script `text` (file `name`) on kern.c."""
    (tmp_path / "kern.c").write_text((DATA / "kern.c").read_text())

    def shown(name: str, text: str) -> str:
        (tmp_path / name).write_text(text)
        return _steps_shown(tmp_path / "kern.c", tmp_path / name)
    return shown


def test_script_dialects_as_their_interpreters_read_them(tmp_path):
    """Probe 196: Lua's `..` binds below arithmetic (`"1" .. 2 * 3` is "16", a tile of 36 was made)
    and `^` above it; CHiLL's own Lua scripts (source/procedure/loop) have CHiLL's tile(stmt,
    level, size), not CUDA-CHiLL's move; CHiLL's script language divides as C does (`-U/2` is -3
    at U = 7), prints the code with `print`, and names an array with a bare word in
    datacopy_privatized too; a `.py` string may go on after a `\\` at a line's end."""
    shown = _kern_script(tmp_path)
    assert "size: 16, outer: 1" in shown("cat.lua", 'init("kern.c", "kern", 0)\nTI = "1" .. 2 * 3\ntile(0, 1, TI)\n')
    assert "at: L2 < 14" in shown("cat2.lua", 'init("kern.c", "kern", 0)\nN = 7\nsplit(0, 2, "L2 < " .. N * 2)\n')
    assert "at: L2 < 10" in shown("pow.lua", 'init("kern.c", "kern", 0)\nsplit(0, 2, "L2 < " .. 2 ^ 2 + 6)\n')
    assert "(tile: {stmt: 0, loop: 2, size: 2, outer: 1})" in shown(
        "plain.lua", 'source("kern.c")\nprocedure("kern")\nloop(0)\ntile(0, 2, 2)\n')
    text = shown("neg.script", "source: kern.c\nprocedure: kern\nloop: 0\nU = 7\npeel(0, 3, -U/2)\nprint\n")
    assert "peel: {stmt: 0, loop: 3, last: 3}" in text, text
    assert "datacopy" in shown("bare.script", "source: kern.c\nprocedure: kern\nloop: 0\ntile(0,3,4,1)\n"
                                              "datacopy_privatized(0, 4, A, [2])\nprint code\n")
    assert "at: L2 < 5" in shown("s.py", 'from chill import *\nsource("kern.c")\nprocedure("kern")\nloop(0)\n'
                                         'split(0, 2, "L2 < \\\n5")\nprint_code()\n')


def test_normalize_index_of_a_loop_from_a_size_and_of_no_loop(tmp_path):
    """Probe 196: `for (i = lo; ...)` starts at one value of the sizes: normalize_index and
    shift_to shift it by -lo (left out, then refused); a misspelt loop is an error (it was left
    out with a note); a print_code after a left-out normalize_index printed nothing."""
    lo = tmp_path / "lo.c"
    lo.write_text((DATA / "lo.c").read_text())
    (tmp_path / "n.py").write_text('from chill import *\nsource("lo.c")\nprocedure("kern")\nloop(0)\n'
                                   'normalize_index(0, "i")\nsplit(0, 1, "L1 < 3")\nprint_code()\n')
    rc, out, err = run_cli("transform", lo, "--recipe", tmp_path / "n.py")
    assert rc == 0 and "for (i = 0; i <= lx_min(2, n - lo - 1); i++)" in out and "A[lo + i][j]" in out, err
    (tmp_path / "q.py").write_text('from chill import *\nsource("lo.c")\nprocedure("kern")\nloop(0)\n'
                                   'normalize_index(0, "q")\n')
    rc, _, err = run_cli("transform", lo, "--recipe", tmp_path / "q.py")
    assert rc == 2 and "statement 0 has no loop named 'q'" in err, err


def test_cudaizes_copy_commands_act_on_its_statement(tmp_path):
    """Probe 193 G2: after `cudaize(1, ...)`, CUDA-CHiLL's 3-argument copy_to_shared("tx","x",-16)
    acted on statement 0 (an unmapped initialisation) and was refused with an unrelated reason."""
    rc, out, err = run_cli("transform", DATA / "trmv.c", "--recipe", DATA / "trmv.lua", "--target", "cuda")
    assert rc == 0 and "__shared__ double x_sh" in out, err


def test_a_script_past_a_run_of_assignments_is_told_chills_numbers(tmp_path):
    """Probe 191 G6: CHiLL counts `x[i] = 0; y[i] = 1;` as one statement, looptx as two, so a
    CHiLL script's `unroll(2,2,2)` (CHiLL's y loop) unrolled the x loop without a word."""
    (tmp_path / "blk.c").write_text((DATA / "blk.c").read_text())
    (tmp_path / "b.py").write_text('from chill import *\nsource("blk.c")\nprocedure("bicg")\nloop(0)\nunroll(2,2,2)\n')
    rc, _, err = run_cli("transform", tmp_path / "blk.c", "--recipe", tmp_path / "b.py")
    assert rc == 0 and "b.py:5: note: step 1 (unroll) names statement 2: looptx numbers each assignment, where " \
                       "CHiLL counts the 2 assignments of lines 9-10 as one statement (there, this one is statement 1)" \
                       in err, err


def test_register_stores_come_before_the_loops_barrier(tmp_path):
    """Probe 195 G1 (a wrong result on the GPU): registers of B at the thread loop j inside the
    time loop k.  The barrier at the end of k's body came before the register stores, so the
    neighbours loaded B[k + 1] in the next iteration before it was stored."""
    (tmp_path / "r.yaml").write_text("steps:\n  - cuda: {stmt: 0, block: [i], thread: [j]}\n"
                                     "  - registers: {stmt: 0, array: B, at: j}\n")
    rc, out, err = run_cli("transform", DATA / "wave.c", "--recipe", tmp_path / "r.yaml", "--target", "cuda",
                           "-D", "n=3", "-D", "T=4", "-D", "m=16")
    # (and B is no __restrict__ parameter, under which nvcc moved the store past the barrier)
    assert rc == 0 and "wave_kernel0(double *B)" in out, err
    body = out[out.index("for (int k = 0;"):]
    body = body[:body.index("__syncthreads();")]
    assert "B_r[1][1] = (B_r[0][0]" in body and body.rstrip().endswith("];"), body


def test_a_simd_width_loop_ends_where_its_tail_starts(tmp_path):
    """Probe 197 G5: `for (i = 0; i + 4 <= n; i += 4) ...; for (; i < n; i++) ...` (CMSIS's
    idiom) was refused: the tail's start was read only from `i < U` forms."""
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 64}\n")
    out = tmp_path / "o.c"
    rc, _, err = run_cli("transform", DATA / "simd_tail.c", "--recipe", tmp_path / "r.yaml", "-o", out)
    assert rc == 0, err
    same_output_c(tmp_path, DATA / "simd_tail.c", out,
                  '#include <stdio.h>\n#include <stdlib.h>\n#include <stdint.h>\n'
                  'void arm_add_q7(const int8_t *a, const int8_t *b, int8_t *d, int n);\n'
                  'int main(int argc, char **argv) { int8_t a[300], b[300], d[300]; unsigned h = 0;\n'
                  '  for (int k = 0; k < 300; k++) { a[k] = k * 7; b[k] = k * 3; d[k] = 0; }\n'
                  '  arm_add_q7(a, b, d, atoi(argv[1]));\n'
                  '  for (int k = 0; k < 300; k++) h = h * 31 + (uint8_t)d[k];\n'
                  '  printf("%u\\n", h); return 0; }\n',
                  [(str(n),) for n in (-5, 0, 3, 4, 7, 64, 67, 299)])


def test_an_unsigned_loop_bounded_by_an_outer_counter(tmp_path):
    """Probe 197 G3: `unsigned j; for (j = i; j < n && j < i + 64; j++)` was refused (the new
    check that a 32-bit counter ends before it wraps): `i + 64` wraps only for n > 2^32 - 64,
    a fact the output checks."""
    (tmp_path / "r.yaml").write_text("steps:\n  - unroll: {stmt: 0, loop: j, factor: 4}\n")
    rc, _, err = run_cli("transform", DATA / "blocked_unsigned.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 0 and "modelled for n <= 4294967232" in err, err


@pytest.mark.gpu
def test_registers_inside_a_loop_that_passes_values_between_threads_on_the_gpu(tmp_path):
    """Probe 195 G1 run on the device: the wave stencil's registers at the thread loop j, at
    sizes with several iterations of the time loop k (57 wrong elements at n = 2, T = 5, m = 9)."""
    require_gpu()
    (tmp_path / "r.yaml").write_text("steps:\n  - cuda: {stmt: 0, block: [i], thread: [j]}\n"
                                     "  - registers: {stmt: 0, array: B, at: j}\n")
    for n, t, m in ((2, 5, 9), (3, 4, 16)):
        rc, out, err = run_cli("run", DATA / "wave.c", "--recipe", tmp_path / "r.yaml", "--target", "cuda",
                               "-D", f"n={n}", "-D", f"T={t}", "-D", f"m={m}", "--repetitions", "1")
        assert rc == 0 and ": ok" in out, out + err



def test_a_subscript_computed_in_unsigned_int_stays_below_2_to_the_32(tmp_path):
    """Probe 197 G2 (a wrong result): `b[4 * i]` of an unsigned i from 2^30 wraps in C (b[0..28]);
    the output, counting in long, wrote 4 GiB further on.  The region is modelled for the sizes
    that keep the subscript in 0..2^32 - 1, a fact the output checks."""
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 8}\n")
    out = tmp_path / "o.c"
    rc, _, err = run_cli("transform", DATA / "unsigned_subscript.c", "--recipe", tmp_path / "r.yaml", "-o", out)
    assert rc == 0 and "modelled for hi <= 1073741824" in err, err
    assert "if ((long)hi < 1073741825) {" in out.read_text()
    # a linearized subscript (`curr[k*WINDOW_SIZE + l]` of unsigned k, l, CUDA-CHiLL's mpeg4) is
    # delinearized, not refused as a product of a loop iterator and a size
    probe37 = Path(__file__).resolve().parent / "data" / "probe37"
    rc, _, err = run_cli("transform", probe37 / "mpeg4.c", "--recipe", probe37 / "mpeg4.py", "-D", "N1=37",
                         "-D", "N2=45", "--target", "cuda", "-o", tmp_path / "m.cu")
    assert rc == 0, err


def test_script_arithmetic_and_cuda_chill_tile_arguments(tmp_path):
    """Probe 199: CHiLL's script language takes C's remainder too (`-7 % 3` is -1, not 2); a
    CUDA-CHiLL script's 4-argument tile(0,4,4,2) has a method 2, refused (a silent no-op
    move); a Lua numeric string with a fraction is truncated like the number ("4.9")."""
    shown = _kern_script(tmp_path)
    assert "by: -1" in shown("m.script", "source: kern.c\nprocedure: kern\nloop: 0\nX = -7 % 3\nshift(0, 3, X)\n")
    assert "size: 4, outer: 1" in shown("f.lua", 'source("kern.c")\nprocedure("kern")\nloop(0)\ntile(0, 2, "4.9")\n')
    (tmp_path / "c.lua").write_text('init("kern.c", "kern", 0)\ntile(0, 3, 3, 2)\n')
    rc, _, err = run_cli("transform", tmp_path / "kern.c", "--recipe", tmp_path / "c.lua")
    assert rc == 2 and "in a CUDA-CHiLL script the 4th argument is the tiling method" in err, err
