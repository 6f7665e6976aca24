"""Gaps found by probes 138 and later, end to end."""
import re
import shutil
from pathlib import Path

import pytest

from conftest import run_cli
from test_cuda_codegen import needs_nvcc

pytestmark = pytest.mark.usefixtures("private_build_cache")

DATA = Path(__file__).resolve().parent / "data" / "gaps60"


def test_a_build_macro_carrying_a_param_is_the_points_value(tmp_path):
    """Probe 138 G5: `-DKV=@U@` was dropped ('undeclared identifier KV').  KV sets a bound, so
    each point is its own program: the search validates each against the original built with
    the point's KV, and the best file's bounds are the best point's."""
    src = tmp_path / "m.c"
    shutil.copy(DATA / "macro_param.c", src)
    rc, out, err = run_cli("search", src, "--no-progress")
    assert rc == 0 and "status: ok 3" in out, out + err
    best = (tmp_path / "m.best.c").read_text()
    kv = int(re.search(r"point \{\"U\": (\d)\}", best).group(1))
    # i <= 40 - KV, unrolled by U = KV: the last element is a remainder of its own
    assert f"a[{40 - kv}] = KV" in best if kv > 1 else ("i <= 39;" in best or "i < 40;" in best), best


@pytest.mark.parametrize("u, last", [(None, "i <= N - KV"), ("4", "a[36] = KV * a[36] + b[36];")])
def test_transform_and_run_read_the_macro_from_the_chosen_value(tmp_path, u, last):
    args = ("-D", f"U={u}") if u else ()
    rc, out, err = run_cli("transform", DATA / "macro_param.c", *args, "-o", tmp_path / "t.c")
    assert rc == 0, err
    assert last in (tmp_path / "t.c").read_text()
    rc, out, err = run_cli("run", DATA / "macro_param.c", *args, "-D", "N=37")
    assert rc == 0 and ": ok" in out and f"-DKV={u or 1}" in out, out + err


def test_a_cast_to_a_build_macros_type_in_a_loop_annotation(tmp_path):
    """`(REAL)x` with -DREAL=float: the Loop annotation's code was 'cannot parse'."""
    rc, out, err = run_cli("run", DATA / "macro_cast.c", "-D", "U=2", "-D", "N=37")
    assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("section, ok", [("s[0:8]", True), ("s[0:7]", False)])
def test_a_reduction_section_sized_by_a_define_is_checked_at_its_value(tmp_path, section, ok):
    """Probe 135 G4: `reduction(+:s[0:8])` where the file #defines M 8 was refused (for M = 9,
    named as s[8]); a step legal only at the #defines' values is made for them."""
    recipe = tmp_path / "r.yaml"
    recipe.write_text(f'steps:\n  - pragma: {{stmt: 0, loop: i, text: "omp parallel for reduction(+:{section})"}}\n')
    rc, out, err = run_cli("transform", DATA / "red_define.c", "--recipe", recipe)
    if not ok:
        assert rc == 2 and "updates s[7] (with N=1, M=8), outside the section" in err, err
        return
    assert rc == 0 and "#if M != 8" in out and "reduction(+:s[0:8])" in out, out + err
    assert "legal at the #defines' values, M = 8" in err
    rc, out, err = run_cli("run", DATA / "red_define.c", "--recipe", recipe, "--cflags", "-O2 -fopenmp")
    assert rc == 0 and ": ok" in out, out + err


def test_a_serial_shared_copy_warning_names_the_loop_between_the_thread_loops(tmp_path):
    """Probe 137 G2: the warning said the copied elements differ between threads; the cause
    was the sequential loop 'j' between the thread loops."""
    rc, out, err = run_cli("transform", DATA / "t3s.c", "--recipe", DATA / "t3s.yaml", "--target", "cuda",
                           "-o", tmp_path / "t.cu")
    assert rc == 0 and "made one thread at a time between barriers (loop 'j' sits between the thread loops)" \
        in err, err


@pytest.mark.parametrize("steps, what", [
    ('[{pragma: {stmt: 0, loop: i, text: "omp parallel"}}]',
     "'#pragma omp parallel' before loop 'i' has every thread of a team run the whole loop"),
    ('[{pragma: {stmt: 0, loop: i, text: "acc parallel"}}]',
     "'#pragma acc parallel' before loop 'i' has every thread of a team run the whole loop"),
    ('[{pragma: {stmt: 0, loop: i, text: "omp parallel sections"}}]',
     "'#pragma omp parallel sections' takes a block of '#pragma omp section' parts, not loop 'i'"),
    ('[{omp_for: {stmt: 0, loop: i}}, {pragma: {stmt: 0, loop: j, text: "omp for"}}]',
     "loop 'j' has '#pragma omp for' inside loop 'i', whose '#pragma omp parallel for' shares its iterations"),
    ('[{pragma: {stmt: 0, loop: j, text: "omp for nowait"}}, {omp_for: {stmt: 0, loop: i}}]',
     "loop 'j' has '#pragma omp for nowait' inside loop 'i'"),
])
def test_pragmas_that_are_no_loop_construct_or_nest_worksharing_are_refused(tmp_path, steps, what):
    """Probe 141 G1/G2: `omp parallel` on a loop (every thread runs it all: a race on the
    counter, wrong results) and `omp for` inside `omp parallel for` (gcc refuses) were accepted."""
    recipe = tmp_path / "r.yaml"
    recipe.write_text(f"steps: {steps}\n")
    rc, out, err = run_cli("transform", DATA / "ws.c", "--recipe", recipe)
    assert rc == 2 and what in err and err.count("\n") == 1, err


@pytest.mark.parametrize("text", ["omp parallel for", "omp target teams distribute parallel for", "acc parallel loop",
                                  "omp parallel masked taskloop", "omp simd"])
def test_loop_constructs_are_still_taken(tmp_path, text):
    recipe = tmp_path / "r.yaml"
    recipe.write_text(f'steps: [{{pragma: {{stmt: 0, loop: i, text: "{text}"}}}}]\n')
    rc, out, err = run_cli("transform", DATA / "ws.c", "--recipe", recipe)
    assert rc == 0 and f"#pragma {text}" in out, err


@pytest.mark.parametrize("steps", [
    "[{omp_for: {stmt: 0, loop: i, reduction: {+: [s]}}}, {permute: {stmt: 0, order: [j, i]}}, "
    "{unroll: {stmt: 0, loop: i, factor: 2}}]",
    "[{omp_for: {stmt: 0, loop: i, reduction: {+: [s]}}}, {tile: {stmt: 0, loop: j, size: 4}}, "
    "{permute: {stmt: 0, order: [jj, i, j]}}, {unroll: {stmt: 0, loop: i, factor: 2}}]",
])
def test_an_unroll_of_a_reduction_loop_keeps_the_clauses_run(tmp_path, steps):
    """Probe 141 G3: after omp_for's reduction on i and a permute that the clause allows, the
    unroll of i was refused for the order the permute had made (its loop's expression is no
    longer plain `i`)."""
    recipe = tmp_path / "r.yaml"
    recipe.write_text(f"steps: {steps}\n")
    rc, out, err = run_cli("run", DATA / "sum.c", "--recipe", recipe, "-D", "n=37", "--cflags", "-O2 -fopenmp")
    assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("order", ["pragma_first", "unroll_first"])
def test_a_lastprivate_loop_unrolls(tmp_path, order):
    """Probe 141 G4: the unroll's point loop (each of whose control iterations runs one at
    least) was taken for an inner loop that may run none, and the unroll refused."""
    steps = ['{pragma: {stmt: 0, loop: i, text: "omp parallel for lastprivate(t)"}}',
             "{unroll: {stmt: 0, loop: i, factor: 4}}"]
    recipe = tmp_path / "r.yaml"
    recipe.write_text(f"steps: [{', '.join(steps if order == 'pragma_first' else steps[::-1])}]\n")
    for n in ("37", "40"):
        rc, out, err = run_cli("run", DATA / "last.c", "--recipe", recipe, "-D", f"n={n}", "--cflags", "-O2 -fopenmp")
        assert rc == 0 and ": ok" in out, out + err


def test_an_atomic_inside_a_parallel_region_is_said_so(tmp_path):
    """Probe 141 G5: the hint said the threads race in the code as written; its atomic keeps them apart."""
    rc, out, err = run_cli("transform", DATA / "atomic.c")
    assert rc == 2 and "'#pragma omp atomic' inside the region keeps the threads apart there in the code as written" \
        in err and "race there in the code as written too" not in err, err


def test_a_race_is_not_blamed_on_the_compiler():
    """Probe 141 G7: with --unsafe, a wrong result that an -O1 rerun did not show was called a
    compiler bug; threads that race differ from run to run, so code with OpenMP pragmas built
    with -fopenmp is not rerun at -O1 and the message says a race may give it.  (Deterministic:
    whether a real race shows depends on the machine's cores.)"""
    from types import SimpleNamespace
    from looptx.runtime.cpu import Toolchain
    from looptx.runtime.evaluators import CPayload
    from looptx.runtime.run_once import _at_o1
    from looptx.search.evaluate import Measurement
    rerun = []
    ev = SimpleNamespace(measure=lambda prepared: rerun.append(prepared) or Measurement(status="ok"))
    threaded = CPayload("#pragma omp parallel for\nfor (i = 1; i < n; i++) A[i] = A[i-1];\n", None,
                        Toolchain("gcc", ("-O3", "-fopenmp")))
    text = _at_o1(ev, threaded, "wrong result in 'A'")
    assert "a race may give this: run again with OMP_NUM_THREADS=1" in text and "compiler bug" not in text, text
    assert not rerun
    serial = CPayload("for (i = 1; i < n; i++) A[i] = A[i-1];\n", None, Toolchain("gcc", ("-O3",)))
    text = _at_o1(ev, serial, "wrong result in 'A'")
    assert "compiler bug" in text and rerun[0].payload.toolchain.flags == ("-O1",), text


def test_a_guarded_leading_pragma_keeps_its_conditional(tmp_path):
    """Probe 141 G8: HPCG's `#ifndef HPCG_NO_OPENMP` pragma moved onto the output's loop
    without its #ifndef, so a -DHPCG_NO_OPENMP build ran the loop in threads."""
    recipe = tmp_path / "r.yaml"
    recipe.write_text("steps: [{tile: {stmt: 0, loop: i, size: 16}}]\n")
    rc, out, err = run_cli("transform", DATA / "hpcg.c", "--recipe", recipe)
    assert rc == 0, err
    assert re.search(r"#ifndef HPCG_NO_OPENMP\n\s*#pragma omp parallel for reduction\(\+:local_result\)\n\s*#endif\n"
                     r"\s*for \(int ii", out), out


def test_a_pragma_in_an_orio_loop_annotations_code_is_noted(tmp_path):
    """Probe 141 G9: dropped without a word."""
    rc, out, err = run_cli("transform", DATA / "inpr.c", "-D", "U=2", "-D", "PAR=False")
    assert rc == 0 and "inpr.c:30: note: '#pragma omp parallel for' in the Loop annotation's code is dropped" in err, err


def _chill(tmp_path, name, body, c="mmf.c", *extra):
    shutil.copy(DATA / c, tmp_path / c)
    recipe = tmp_path / name
    recipe.write_text(body)
    return run_cli("transform", tmp_path / c, "--recipe", recipe, *extra)


def test_false_in_a_classic_script_is_no_sign_of_lua(tmp_path):
    """Probe 140 G1: `datacopy(0,4,C,false,1)` made the .script Lua, and tile(0,3,2) a move."""
    rc, out, err = _chill(tmp_path, "s.script", "source: mmf.c\nprocedure: mmf\nloop: 0\n\ntile(0,3,2)\n"
                          "datacopy(0,4,C,false,1)\n")
    assert rc == 0 and "for (k = 2 * kk; k <= lx_min(n - 1, 2 * kk + 1); k++)" in out, out + err


def test_a_lua_reading_of_a_three_argument_tile_is_noted(tmp_path):
    """An annotation that writes `false` reads as Lua, where tile(0,3,2) moves loop 3: said."""
    rc, out, err = run_cli("transform", DATA / "lua_tile_ann.c")
    assert rc == 0 and "lua_tile_ann.c:6: note: tile(0, 3, 2) is read as the Lua API's tile(stmt, level, " \
        "outer_level), a move of loop level 3 to level 2" in err, out + err


def test_a_second_tile_of_a_loop_gets_a_control_name_of_its_own(tmp_path):
    """Probe 140 G2: CHiLL's two-level tile(0,3,16,1), tile(0,4,4,2) names nothing, and the
    second default name 'kk' was taken."""
    rc, out, err = _chill(tmp_path, "t.py", 'from chill import *\nsource("mmf.c")\nprocedure("mmf")\nloop(0)\n'
                          "tile(0,3,16,1)\ntile(0,4,4,2)\n")
    assert rc == 0 and "for (int kk2 = 4 * kk;" in out, out + err


@pytest.mark.parametrize("cmd", ["permute([2,1])", "permute(0,0,[2,1])"])
def test_permute_of_every_statement_after_loop_n_m(tmp_path, cmd):
    """Probe 140 G6: after loop(0,1), CHiLL's permute(pi) permutes both nests; only the first was."""
    rc, out, err = _chill(tmp_path, "p.py", f'from chill import *\nsource("two.c")\nprocedure("two")\nloop(0,1)\n{cmd}\n',
                          "two.c")
    assert rc == 0 and out.count("for (j = 0; j < n; j++)\n      for (i = 0; i < n; i++)") == 2, out + err


def test_permute_from_a_level_takes_the_levels_from_it(tmp_path):
    rc, out, err = _chill(tmp_path, "p.py", 'from chill import *\nsource("mmf.c")\nprocedure("mmf")\nloop(0)\n'
                          "permute(0,2,[3,2])\n")
    assert rc == 0 and re.search(r"for \(i = .*\n\s*for \(k = .*\n\s*for \(j = ", out), out + err
    rc, out, err = _chill(tmp_path, "p.py", 'from chill import *\nsource("mmf.c")\nprocedure("mmf")\nloop(0)\n'
                          "permute(0,2,[2,1])\n")
    assert rc == 2 and "the levels of the permutation are those from 2 on, [2, 3] in some order" in err, err


def test_split_cuts_of_any_affine_comparison():
    """Probe 140 G4: CHiLL's split takes any affine inequality of the levels (`L1 + L2 < 5`,
    `2*L2 < 5`) or an equality; each cut must sit where the condition's truth changes."""
    from looptx.recipe.split_cond import cuts_of
    ops = {"<": lambda x: x < 0, "<=": lambda x: x <= 0, ">": lambda x: x > 0, ">=": lambda x: x >= 0,
           "==": lambda x: x == 0}
    value = lambda t: eval(t.replace("floord(", "fd("), {"fd": lambda x, y: x // y})  # noqa: S307 (test only)
    for a in (-3, -2, -1, 1, 2, 3):
        for r in range(-7, 8):
            for op, holds in ops.items():
                cuts = [value(c) for c in cuts_of(a, {1: r}, op)]
                xs = range(-12, 13)
                changes = [x for x in xs[1:] if holds(a * x + r) != holds(a * (x - 1) + r)]
                assert set(changes) <= set(cuts), (a, r, op, cuts, changes)


@pytest.mark.parametrize("cond, bound", [("L1 + L2 < 5", "j <= lx_min(m - 1, -i + 4)"),
                                         ("2*L2 < 5", "j <= lx_min(2, m - 1)"),
                                         ("L2 == 3", "for (j = 4; j < m; j++)"),
                                         ("L2 - L1 <= 0", "j <= lx_min(m - 1, i)")])
def test_chill_split_conditions(tmp_path, cond, bound):
    shutil.copy(DATA / "k2.c", tmp_path / "k2.c")
    recipe = tmp_path / "s.py"
    recipe.write_text(f'from chill import *\nsource("k2.c")\nprocedure("k2")\nloop(0)\nsplit(1,2,"{cond}")\n')
    rc, out, err = run_cli("transform", tmp_path / "k2.c", "--recipe", recipe)
    assert rc == 0 and bound in out, out + err
    for n, m in ((9, 7), (3, 12), (0, 1)):
        rc, out, err = run_cli("run", tmp_path / "k2.c", "--recipe", recipe, "-D", f"n={n}", "-D", f"m={m}")
        assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("name, body", [
    ("t.py", 'from chill import *\nsource("mmf.c")\nprocedure("mmf")\nloop(0)\ntile7(0,3,4,1,"kt","kc",counted)\n'
             'unroll(0,"kt",2)\n'),
    ("t.lua", 'init("mmf.c","mmf",0)\ntile(0,3,4,1,"kt","kc",counted)\nunroll(0,"kt",2)\n'),
])
def test_tile7_names_the_tile_loop_too(tmp_path, name, body):
    """Probe 140 G3: tile7's tile-loop name was dropped, so `unroll(0,"kt",2)` found no loop."""
    rc, out, err = _chill(tmp_path, name, body)
    assert rc == 0 and "for (int kt = 4 * kc; kt < lx_min(n - 1, 4 * kc + 3); kt += 2)" in out, out + err
    rc, out, err = run_cli("run", tmp_path / "mmf.c", "--recipe", tmp_path / name, "-D", "n=37")
    assert rc == 0 and ": ok" in out, out + err


def test_a_split_on_a_tile_control_level_says_it_counts_tiles(tmp_path):
    """Probe 140 G5: CHiLL's strided control loop runs over tile starts; looptx's counts tiles."""
    rc, out, err = _chill(tmp_path, "t.py", 'from chill import *\nsource("mmf.c")\nprocedure("mmf")\nloop(0)\n'
                          'tile(0,3,4,2,strided)\nsplit(0,2,"L2 < 8")\n')
    assert rc == 0 and "the tile method strided is read as counted" in err, err
    assert "L2 is the control loop 'kk' of a tile by 4, which counts tiles (0, 1, 2, ...)" in err, err


@pytest.mark.parametrize("c, cmd, what", [
    ("mmf.c", 'omp_for(0,1,[],"garbage")', "omp_for takes at most 3 arguments (statement, loop, private variables), got 4"),
    ("mmf.c", "tile(0,3,0)", "tile by size 0: CHiLL's 'no tiling', which looptx does not take"),
    ("k2.c", "tile(1,2,4)", "step 1 (tile): error: placing control loop 'jj' at level 1 would split loop 'i'"),
])
def test_chill_commands_refused_with_what_they_are(tmp_path, c, cmd, what):
    """Probe 140 G8-G10: a fourth omp_for argument was dropped silently; size 0 got the generic
    message; a tile's own placing of its control loop was called a permute."""
    head = f'from chill import *\nsource("{c}")\nprocedure("{c[:-2]}")\nloop(0)\n'
    rc, out, err = _chill(tmp_path, "c.py", head + cmd + "\n", c)
    assert rc == 2 and what in err, err


def test_shift_to_of_a_loop_that_runs_no_iteration(tmp_path):
    """Probe 140 G7: refused as not starting at one value, with a hint to --define the sizes."""
    head = 'from chill import *\nsource("k2.c")\nprocedure("k2")\nloop(0)\n'
    shutil.copy(DATA / "k2.c", tmp_path / "k2.c")
    (tmp_path / "s.py").write_text(head + "shift_to(1,2,5)\n")
    rc, out, err = run_cli("run", tmp_path / "k2.c", "--recipe", tmp_path / "s.py", "-D", "n=3", "-D", "m=0")
    assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("recipe, regs", [("mm_regs.yaml", "double C_r[4];"), ("mm_regs.lua", "double C_r[2][4];")])
def test_registers_across_a_loop_with_sequential_loops_before_the_threads(tmp_path, recipe, regs):
    """Probe 134 G1: with iii between kk and the thread loops (CUDA-CHiLL's mm.lua layout),
    registers of C at kk reloaded C in every kk; each thread runs those loops in the same order
    inside its thread loops, so they move there and C stays in registers across kk."""
    from cuda_on_threads import compare_host
    cu_path = tmp_path / "k.cu"
    rc, out, err = run_cli("transform", DATA / "mm_regs.c", "--recipe", DATA / recipe, "--target", "cuda",
                           "-o", cu_path)
    assert rc == 0 and "run inside them (each thread runs them in the same order)" in err, err
    cu = cu_path.read_text()
    kernel = cu[cu.index("__global__"):cu.index('extern "C"')]
    assert regs in kernel and "for (int kk" in kernel, kernel
    # loaded before the kk loop and stored after it, never inside it
    assert kernel.count("= C[") == 1 and kernel.index("= C[") < kernel.index("for (int kk"), kernel
    for sizes in (dict(n=64, m=32, p=16), dict(n=37, m=29, p=11), dict(n=1, m=2, p=3)):
        errs = compare_host(cu, DATA / "mm_regs.c", "mm", sizes, tmp_path / "w")
        assert max(errs.values()) < 1e-12, (sizes, errs)


def test_a_recorded_invalid_config_is_a_recorded_failure(tmp_path):
    """Probe 143 G1: a cache's `InvalidConfig` record was reported as 'never measured: the
    cache holds no record of them'."""
    rc, out, err = run_cli("search", "--replay", DATA / "kt_invalidconfig.json", "-a", "exhaustive", "--budget", "3")
    assert rc == 0 and "3 points, 1 of them failed" in out and "never measured" not in out, out + err


def test_a_t1_file_that_is_no_json_names_what_t1_takes(tmp_path):
    t1 = tmp_path / "t1.json"
    t1.write_text("not json\n")
    rc, out, err = run_cli("search", "--replay", DATA / "kt_invalidconfig.json", "--t1", t1)
    assert rc == 2 and "(give a T1 definition (JSON with its TuningParameters, Values and Conditions))" in err, err


@needs_nvcc
def test_a_standalone_program_refuses_a_size_that_is_no_number(tmp_path):
    """Probe 143 G7: `./vs n=abc` ran with n = 0 and printed 'launch failed'."""
    import subprocess
    cu = tmp_path / "vs.cu"
    rc, out, err = run_cli("transform", DATA / "vsize.c", "--recipe", DATA / "vsize.yaml", "--target", "cuda",
                           "--standalone", "-o", cu)
    assert rc == 0, err
    text = cu.read_text()
    assert "copying the inputs to the GPU failed: %s" in text and "launch failed: %s" in text
    subprocess.run(["nvcc", "-arch=sm_90", str(cu), "-o", str(tmp_path / "vs")], check=True, capture_output=True)
    p = subprocess.run([str(tmp_path / "vs"), "n=abc"], capture_output=True, text=True)
    assert p.returncode == 2 and "n=abc: not a whole number" in p.stderr and "usage:" in p.stderr, p.stderr


def test_permute_of_a_nest_whose_statements_sit_in_separate_inner_loops(tmp_path):
    """Probe 142 G1: permute([2,1]) where both statements have 2 levels but their j loops are
    separate crashed (IndexError); CHiLL would merge the loops: refused, with the fuse to give."""
    rc, out, err = _chill(tmp_path, "p.py", 'from chill import *\nsource("imperfect3.c")\nprocedure("f")\nloop(0)\n'
                          "permute([2,1])\n", "imperfect3.c")
    assert rc == 2 and "fuse them first, fuse([0,1],2), then permute([2,1])" in err, err
    rc, out, err = _chill(tmp_path, "p.py", 'from chill import *\nsource("imperfect3.c")\nprocedure("f")\nloop(0)\n'
                          "fuse([0,1],2)\npermute([2,1])\n", "imperfect3.c")
    assert rc == 0, err


@pytest.mark.parametrize("matrix, first", [("[[1,0],[0,1]]", "for (int i = 1; i < n; i++)"),
                                           ("[[0,1],[1,0]]", "for (int j = n - 1; j >= 0; j--)")])
def test_nonsingular_after_a_reverse_keeps_it(tmp_path, matrix, first):
    """Probe 142 G2: nonsingular applied T to the loops' printed values, so an earlier reverse
    was dropped (and the legal interchange of the reversed nest refused)."""
    body = f'from chill import *\nsource("rev_ns.c")\nprocedure("f")\nloop(0)\nreverse([0],2)\nnonsingular({matrix})\n'
    rc, out, err = _chill(tmp_path, "r.py", body, "rev_ns.c")
    assert rc == 0 and first in out and "for (int j = n - 1; j >= 0; j--)" in out, out + err
    # (gcc 12's -O3 vectorizer miscompiles the reversed inner loop of this stencil: -O2)
    rc, out, err = run_cli("run", tmp_path / "rev_ns.c", "--recipe", tmp_path / "r.py", "-D", "n=9", "--cflags", "-O2")
    assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("steps, what", [
    ('[{omp_for: {stmt: 0, loop: i}}, {pragma: {stmt: 0, loop: j, text: "omp single"}}]',
     "loop 'j' has '#pragma omp single' inside loop 'i', whose '#pragma omp parallel for' shares"),
    ('[{omp_for: {stmt: 0, loop: i}}, {pragma: {stmt: 0, loop: j, text: "omp barrier"}}]',
     "loop 'j' has '#pragma omp barrier' inside loop 'i'"),
    ('[{pragma: {stmt: 0, loop: i, text: "omp loop"}}]',
     "'#pragma omp loop' on loop 'i' is outside any parallel or teams construct, where OpenMP needs its bind"),
])
def test_openmp_constructs_gcc_refuses_where_they_stand(tmp_path, steps, what):
    """Probe 144 G1/G2: accepted, then the output did not compile with -fopenmp."""
    recipe = tmp_path / "r.yaml"
    recipe.write_text(f"steps: {steps}\n")
    rc, out, err = run_cli("transform", DATA / "par.c", "--recipe", recipe)
    assert rc == 2 and what in err, err


def test_omp_loop_with_bind_or_in_a_team_is_taken(tmp_path):
    recipe = tmp_path / "r.yaml"
    recipe.write_text('steps: [{pragma: {stmt: 0, loop: i, text: "omp loop bind(thread)"}}]\n')
    rc, out, err = run_cli("run", DATA / "par.c", "--recipe", recipe, "-D", "n=9", "-D", "m=7",
                           "--cflags", "-O2 -fopenmp")
    assert rc == 0 and ": ok" in out, out + err


def test_a_bare_reduction_of_a_file_array_is_its_whole_section(tmp_path, monkeypatch):
    """Probe 144 G3: `reduction(+:s)` on the file's `double s[M]` (OpenMP reduces it whole) was
    refused as if s were a pointer parameter."""
    monkeypatch.setenv("OMP_NUM_THREADS", "4")
    recipe = tmp_path / "r.yaml"
    recipe.write_text('steps: [{pragma: {stmt: 0, loop: i, text: "omp parallel for reduction(+:s)"}}]\n')
    rc, out, err = run_cli("transform", DATA / "secg.c", "--recipe", recipe)
    assert rc == 0 and "#pragma omp parallel for reduction(+:s[0:M]) private(j)" in out, out + err
    rc, out, err = run_cli("run", DATA / "secg.c", "--recipe", recipe, "--cflags", "-O2 -fopenmp")
    assert rc == 0 and ": ok" in out, out + err


def test_an_inner_loop_of_a_lastprivate_loop_unrolls(tmp_path, monkeypatch):
    """Probe 144 G4: unrolling j inside `omp parallel for lastprivate(t)` on i was refused as
    if an iteration of i could write no t (j runs at least once: its domain says so)."""
    monkeypatch.setenv("OMP_NUM_THREADS", "4")
    recipe = tmp_path / "r.yaml"
    recipe.write_text('steps: [{pragma: {stmt: 0, loop: i, text: "omp parallel for lastprivate(t)"}}, '
                      '{unroll: {stmt: 0, loop: j, factor: 2}}]\n')
    for n, m in ((3, 2), (5, 9), (4, 1)):
        rc, out, err = run_cli("run", DATA / "last2.c", "--recipe", recipe, "-D", f"n={n}", "-D", f"m={m}",
                               "--cflags", "-O2 -fopenmp")
        assert rc == 0 and ": ok" in out, out + err


def test_the_registers_move_reads_the_statements_own_kernel(tmp_path):
    """Probe 145 G3: the move took the first cuda mapping whose loop names the statement has,
    another nest's: the note and the kernel depended on an unrelated cuda step."""
    kernels = []
    for r in ("two_r.yaml", "two_r4.yaml"):
        cu = tmp_path / f"{r}.cu"
        rc, out, err = run_cli("transform", DATA / "two_nests.c", "--recipe", DATA / r, "--target", "cuda", "-o", cu)
        assert rc == 0 and "run inside them" not in err, err
        text = cu.read_text()
        start = text.index("two_kernel1(")
        kernels.append(text[start:text.index("\n}\n", start)])
    assert "double D_r[4];" in kernels[0] and kernels[0] == kernels[1]


def test_registers_reloaded_in_a_loop_inside_their_own_is_a_warning(tmp_path):
    """Probe 145 G2: with a shared copy keeping kk between `at` and the thread loops, C was
    loaded and stored in every kk iteration with only a note."""
    rc, out, err = run_cli("transform", DATA / "mm_regs.c", "--recipe", DATA / "mm2_regs_shared.yaml", "--target", "cuda",
                           "-o", tmp_path / "k.cu")
    assert rc == 0 and "warning: registers of 'C' at 'iii' are loaded at thread loop 'i'" in err \
        and "inside loop 'kk', each of whose iterations loads and stores them again" in err, err


def test_registers_with_an_unroll_that_leaves_a_remainder(tmp_path):
    """Probe 145 G1: registers at a thread loop and an unroll of a loop around it by a factor
    that leaves a remainder failed ('cannot handle void expression': a copy's access over a
    piece the full-tile separation left empty); the unrolled copies keep their guards instead."""
    from cuda_on_threads import compare_host
    cu = tmp_path / "k.cu"
    rc, out, err = run_cli("transform", DATA / "mm_regs.c", "--recipe", DATA / "mm_void.yaml", "--target", "cuda",
                           "-o", cu)
    assert rc == 0, err
    for sizes in (dict(n=96, m=32, p=16), dict(n=37, m=29, p=11), dict(n=1, m=2, p=3)):
        errs = compare_host(cu.read_text(), DATA / "mm_regs.c", "mm", sizes, tmp_path / "w")
        assert max(errs.values()) < 1e-12, (sizes, errs)
