"""Gaps found in session 70 (probes 197 and 200-203)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

from conftest import run_cli, same_output_c

DATA = Path(__file__).parent / "data" / "gaps70"


def test_a_size_t_of_2_to_the_63_or_more_fails_the_outputs_size_check(tmp_path):
    """Probe 197 G1: the check `(long)start < 4294967296` of a size_t size read the signed copy,
    so (size_t)-1 passed it (-1) and the tiled loop ran where C's 32-bit counter wraps."""
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 8}\n")
    rc, out, err = run_cli("transform", DATA / "size_t_range.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 0, err
    cond = re.search(r"^\s*if \((.*)\) \{$", out, re.M).group(1)
    (tmp_path / "c.c").write_text(
        "#include <stddef.h>\n#include <stdio.h>\n"
        f"static int ok(size_t start, size_t end) {{ return {cond}; }}\n"
        "int main(void) { printf(\"%d %d %d %d\\n\", ok(0, 100), ok(4294967290u, 4294967295u),\n"
        "  ok((size_t)-5, (size_t)-1), ok(0, (size_t)1 << 63)); return 0; }\n")
    subprocess.run(["gcc", "-o", tmp_path / "c", tmp_path / "c.c"], check=True)
    assert subprocess.run([tmp_path / "c"], capture_output=True, text=True).stdout.split() == \
        ["1", "1", "0", "0"]


def test_a_loop_n_scripts_messages_count_within_its_nest(tmp_path):
    """Probe 199 G4: a `loop(1)` script's error named the file's statement 1 and hinted
    `distribute([2],"i")`, the line already there (read in the nest's numbering); the hint now
    counts as the script does, and following it works."""
    script = (DATA / "bicg_loop1.py").read_text()
    (tmp_path / "b.py").write_text(script)
    rc, _, err = run_cli("transform", DATA / "bicg.c", "--recipe", tmp_path / "b.py", "-o", tmp_path / "o.c")
    assert rc == 2 and "statement 0 shares it" in err and 'distribute([1],"i")' in err, err
    (tmp_path / "b.py").write_text(script.replace('distribute([2],"i")', 'distribute([1],"i")'))
    rc, _, err = run_cli("transform", DATA / "bicg.c", "--recipe", tmp_path / "b.py", "-o", tmp_path / "o.c")
    assert rc == 0, err
    # the note on CHiLL's count of a run of assignments counts within the nest too
    (tmp_path / "b.py").write_text("from chill import *\nsource('bicg.c')\nprocedure('bicg')\nloop(1)\n"
                                   "distribute([0, 1, 2], 1)\n")
    rc, _, err = run_cli("transform", DATA / "bicg.c", "--recipe", tmp_path / "b.py", "-o", tmp_path / "o.c")
    assert rc == 0 and "names statement 2:" in err and "this one is statement 1)" in err, err


def test_normalize_index_says_why_a_start_has_no_one_shift(tmp_path):
    """Probe 199 G5: `for (i = lo; ...) for (j = 0; j <= i; ...)` starts i at max(0, lo); the note
    blamed 'the loops around it', which there are none of."""
    (tmp_path / "n.lua").write_text('init("lo_tri.c","f",0)\nnormalize_index("i")\n')
    rc, _, err = run_cli("transform", DATA / "lo_tri.c", "--recipe", tmp_path / "n.lua", "-o", tmp_path / "o.c")
    assert rc == 0 and "starts at lo <= -1 ? 0 : lo (the loops inside it bound it too)" in err, err


def test_print_code_twice_prints_twice_and_print_dep_says_where_to_look(tmp_path):
    (tmp_path / "mm.py").write_text("from chill import *\nsource('bicg.c')\nprocedure('bicg')\nloop(1)\n"
                                    "print_code()\nprint_code()\ndistribute([1],\"i\")\nprint_code()\n"
                                    "print_code()\nprint_dep()\n")
    rc, out, err = run_cli("transform", DATA / "bicg.c", "--recipe", tmp_path / "mm.py", "-o", tmp_path / "o.c")
    assert rc == 0 and out.count("as written:") == 2 and out.count("after step 1 ") == 2, out
    assert "mm.py:10: note: print_dep() prints nothing here: `looptx deps FILE`" in err, err


def test_a_refusal_does_not_call_the_users_defines_the_annotations_point(tmp_path):
    """Probe 198 G1: a CHiLL annotation without PerfTuning, refused with -D sizes: the hint said
    'this is the annotation's point T=4, m=16, n=3' of the command's own values."""
    rc, _, err = run_cli("transform", DATA / "nb_orio.c", "--target", "cuda", "-D", "n=3", "-D", "T=4",
                         "-D", "m=16", "-o", tmp_path / "o.cu")
    assert rc == 2 and "step 1 (cuda)" in err and "annotation's point" not in err, err


def test_copies_load_what_the_scope_reads_and_store_what_it_writes(tmp_path):
    """Probe 198: a register copy stored back the neighbours a thread only read (the loaded
    values, but a race with the thread that writes them), and loaded the element it only writes."""
    (tmp_path / "r.yaml").write_text("steps:\n  - cuda: {stmt: 0, block: [i], thread: [j]}\n"
                                     "  - registers: {stmt: 0, array: B, at: j}\n")
    rc, out, err = run_cli("transform", DATA / "wave.c", "--recipe", tmp_path / "r.yaml", "--target", "cuda",
                           "-D", "n=2", "-D", "T=5", "-D", "m=9")
    assert rc == 0, err
    kernel = out[out.index("__global__"):]
    kernel = kernel[:kernel.index("\n}\n")]
    assert kernel.count("] = B_r[") == 1 and "B_r[1][1] = B[" not in kernel and kernel.count("= B[") == 3, kernel
    # the same in C: a tile buffer, at sizes that do and do not divide the tile
    (tmp_path / "d.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: j, size: 4, control: jj}\n"
                                     "  - datacopy: {stmt: 0, array: B, at: jj}\n")
    rc, out, err = run_cli("transform", DATA / "wave.c", "--recipe", tmp_path / "d.yaml", "-o", tmp_path / "o.c")
    assert rc == 0 and "B_buf[0][1][j - 4 * jj] = " in (tmp_path / "o.c").read_text(), err
    same_output_c(tmp_path, DATA / "wave.c", tmp_path / "o.c",
                  '#include <stdio.h>\n#include <stdlib.h>\nvoid wave(int n, int T, int m, double *B);\n'
                  'int main(int argc, char **argv) { int n = atoi(argv[1]), T = atoi(argv[2]), m = atoi(argv[3]);\n'
                  '  double *B = malloc(sizeof(double) * n * (T + 1) * m); srand(7);\n'
                  '  for (int k = 0; k < n * (T + 1) * m; k++) B[k] = rand() % 1000 / 7.0;\n'
                  '  wave(n, T, m, B);\n'
                  '  for (int k = 0; k < n * (T + 1) * m; k++) printf("%.17g\\n", B[k]); return 0; }\n',
                  [("2", "3", "9"), ("3", "2", "12"), ("1", "4", "2")])
