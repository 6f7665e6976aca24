"""Gaps found in session 70 (probes 197 and 200-203)."""
from __future__ import annotations

import re
import sys
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
    rc, out, err = run_cli("transform", DATA.parent / "gaps69" / "wave.c", "--recipe", tmp_path / "r.yaml", "--target", "cuda",
                           "-D", "n=2", "-D", "T=5", "-D", "m=9")
    assert rc == 0, err
    kernel = out[out.index("__global__"):]
    kernel = kernel[:kernel.index("\n}\n")]
    assert kernel.count("] = B_r[") == 1 and "B_r[1][1] = B[" not in kernel and kernel.count("= B[") == 3, kernel
    # the same in C: a tile buffer, at sizes that do and do not divide the tile
    (tmp_path / "d.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: j, size: 4, control: jj}\n"
                                     "  - datacopy: {stmt: 0, array: B, at: jj}\n")
    rc, out, err = run_cli("transform", DATA.parent / "gaps69" / "wave.c", "--recipe", tmp_path / "d.yaml", "-o", tmp_path / "o.c")
    assert rc == 0 and "B_buf[0][1][j - 4 * jj] = " in (tmp_path / "o.c").read_text(), err
    same_output_c(tmp_path, DATA.parent / "gaps69" / "wave.c", tmp_path / "o.c",
                  '#include <stdio.h>\n#include <stdlib.h>\nvoid wave(int n, int T, int m, double *B);\n'
                  'int main(int argc, char **argv) { int n = atoi(argv[1]), T = atoi(argv[2]), m = atoi(argv[3]);\n'
                  '  double *B = malloc(sizeof(double) * n * (T + 1) * m); srand(7);\n'
                  '  for (int k = 0; k < n * (T + 1) * m; k++) B[k] = rand() % 1000 / 7.0;\n'
                  '  wave(n, T, m, B);\n'
                  '  for (int k = 0; k < n * (T + 1) * m; k++) printf("%.17g\\n", B[k]); return 0; }\n',
                  [("2", "3", "9"), ("3", "2", "12"), ("1", "4", "2")])


class _EP:
    def __init__(self, name, obj):
        self.name, self.value, self._obj = name, f"plug:{name}", obj

    def load(self):
        return self._obj


def _plugins(monkeypatch, **classes):
    import importlib.metadata
    eps = [_EP(name, cls) for name, cls in classes.items()]
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda **kw: eps)


def _searcher_classes():
    from looptx.search.base import Searcher

    class Repeats(Searcher):
        """An ask() of its own (an optuna wrapper's) that offers a told point again."""
        name = "repeats"

        def _propose(self, n):
            return []

        def ask(self, n=None):
            return [next(iter(self.space.valid_points()))] * self.batch_size

        @property
        def finished(self):
            return False

    class Raises(Searcher):
        name = "raises"

        def _propose(self, n):
            if self.n_told >= 2:
                raise ZeroDivisionError("plugin bug")
            return self._random_unseen(n)
    return Repeats, Raises


CACHE = Path(__file__).parent.parent / "search" / "cpu_matmul.json.gz"


def _four_point_kernel() -> str:
    """gaps59's Orio kernel with four unroll factors: a space a few points larger than a budget."""
    text = (DATA.parent / "gaps59" / "local_chain.c").read_text()
    assert "param UF[] = [1,2];" in text
    return text.replace("param UF[] = [1,2];", "param UF[] = [1,2,3,4];")


def test_the_driver_keeps_the_budget_rules_for_a_plugins_own_ask(monkeypatch, tmp_path):
    """Probe 201 G1: a plugin whose ask() offers a told point again hung --replay, and a search
    recorded the point once per ask, spending its budget on it."""
    Repeats, _ = _searcher_classes()
    _plugins(monkeypatch, repeats=Repeats)
    monkeypatch.chdir(tmp_path)
    rc, out, err = run_cli("search", "--replay", CACHE, "-a", "repeats", "--budget", "5", "--batch-size", "3")
    assert rc == 0, err
    src = tmp_path / "k.c"
    src.write_text(_four_point_kernel())
    rc, out, err = run_cli("search", src, "-a", "repeats", "--budget", "3", "--no-progress", "--db", tmp_path / "k.db")
    assert rc == 0, err
    rc, out, err = run_cli("report", tmp_path / "k.db", "--csv", tmp_path / "k.csv")
    assert rc == 0 and len((tmp_path / "k.csv").read_text().strip().splitlines()) == 2, err


def test_a_plugin_that_raises_ends_the_search_with_its_best_file(monkeypatch, tmp_path):
    """Probe 201 G3: the search ended with exit 2 and no best file, with 2 points measured."""
    _, Raises = _searcher_classes()
    _plugins(monkeypatch, raises=Raises)
    src = tmp_path / "k.c"
    src.write_text(_four_point_kernel())
    rc, out, err = run_cli("search", src, "-a", "raises", "--budget", "4", "--no-progress", "--db", tmp_path / "k.db")
    assert rc == 1 and len(err.strip().splitlines()) == 1, err
    assert "searcher plugin 'raises'" in err and "stopped after 2 evaluations" in err, err
    assert (tmp_path / "k.best.c").exists()


def test_plugins_named_on_the_command_line_and_shadowed(monkeypatch, tmp_path):
    """Probe 201 G5: a plugin that is no Searcher was blamed on the cache; plugins named as a
    built-in, or as another plugin in another case, were silently never used; an unknown name's
    hint offered plugins that do not load."""
    Repeats, _ = _searcher_classes()
    _plugins(monkeypatch, notasearcher=object, random=Repeats, repeats=Repeats, REPEATS=Repeats)
    rc, _, err = run_cli("search", "--replay", CACHE, "-a", "notasearcher", "--budget", "2")
    assert rc == 2 and err.startswith("looptx search: error: searcher plugin 'notasearcher'"), err
    rc, out, err = run_cli("search", "--list-searchers")
    assert rc == 0 and "plugin 'random' (plug:random) is never used: the built-in searcher 'random'" in err, err
    assert "plugin 'REPEATS' (plug:REPEATS) is never used: 'repeats'" in err and "REPEATS" not in out, out
    rc, _, err = run_cli("search", "--replay", CACHE, "-a", "nosuch", "--budget", "2")
    assert rc == 2 and "repeats" in err and "notasearcher" not in err, err


def test_a_damaged_time_in_the_database_is_one_line(tmp_path):
    """Probe 201 G2: an ok row without a time was an internal error in replay, resume and
    --kernel-tuner; a negative time was reported as the best."""
    import sqlite3
    src = tmp_path / "k.c"
    src.write_text(_four_point_kernel())
    rc, _, err = run_cli("search", src, "-a", "exhaustive", "--budget", "3", "--no-progress", "--db", tmp_path / "k.db")
    assert rc == 0, err
    for value, shown in (("NULL", "None"), ("-1.0", "-1.0")):
        con = sqlite3.connect(tmp_path / "k.db")
        con.execute(f"UPDATE evaluations SET time = {value} WHERE eval_index = 1")
        con.commit()
        con.close()
        for argv in (("report", tmp_path / "k.db"), ("report", tmp_path / "k.db", "--kernel-tuner", tmp_path / "k.json"),
                     ("search", "--replay", tmp_path / "k.db", "--budget", "2")):
            rc, _, err = run_cli(*argv)
            assert rc == 2 and len(err.strip().splitlines()) == 1, (argv, err)
            assert "the time of evaluation 1 of search" in err and f"a measured point, is {shown}" in err, err


def test_a_cut_gzip_cache_and_a_record_unlike_its_key_are_named_at_their_line(tmp_path):
    """Probe 201 G5: a gzip cache cut short was 'not a readable JSON file' with no line, and a
    record whose values differ from its key was named without its line."""
    import gzip
    whole = (DATA / "ml_keymismatch.json").read_text()
    fixed = whole.replace('"8,4,2": {"X": 16', '"8,4,2": {"X": 8')
    assert fixed != whole
    raw = gzip.compress(fixed.encode())
    (tmp_path / "cut.json.gz").write_bytes(raw[:len(raw) * 2 // 3])
    rc, _, err = run_cli("search", "--replay", tmp_path / "cut.json.gz", "--budget", "3")
    assert rc == 2 and "the gzip stream ends early, in line" in err, err
    assert re.match(rf"{re.escape(str(tmp_path / 'cut.json.gz'))}:\d+:", err), err
    rc, _, err = run_cli("search", "--replay", DATA / "ml_keymismatch.json", "--budget", "3")
    line = next(k for k, ln in enumerate(whole.splitlines(), 1) if ln.lstrip().startswith('"8,4,2"'))
    assert rc == 2 and err.startswith(f"{DATA / 'ml_keymismatch.json'}:{line}: error: records '8,4,2'"), err


TILE = "steps:\n  - tile: {stmt: 0, loop: i, size: 4}\n"


def test_c99_pragma_operators_are_pragmas(tmp_path):
    """Probe 203 G2: `_Pragma("omp parallel for")` in any function was an internal error."""
    (tmp_path / "r.yaml").write_text(TILE)
    rc, out, err = run_cli("transform", DATA / "pragma_op.c", "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o.c")
    assert rc == 0 and "for (int ii = 0;" in (tmp_path / "o.c").read_text(), err
    src = tmp_path / "in.c"
    src.write_text((DATA / "pragma_op.c").read_text().replace("#pragma scop\n", '#pragma scop\n  _Pragma("GCC ivdep")\n'))
    rc, out, err = run_cli("transform", src, "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o.c")
    assert rc == 0 and "'#pragma GCC ivdep' inside the region is dropped" in err, err


def test_gccs_builtin_math_functions_are_pure(tmp_path):
    """Probe 203 G10: `__builtin_fabs(b[i])` was refused as a call that may have side effects."""
    (tmp_path / "r.yaml").write_text(TILE)
    rc, out, err = run_cli("transform", DATA / "builtin_fabs.c", "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o.c")
    assert rc == 0, err
    same_output_c(tmp_path, DATA / "builtin_fabs.c", tmp_path / "o.c",
                  '#include <stdio.h>\n#include <stdlib.h>\nvoid f(int n, double *a, double *b);\n'
                  'int main(int argc, char **argv) { int n = atoi(argv[1]); double a[64], b[64];\n'
                  '  for (int k = 0; k < 64; k++) { a[k] = 0; b[k] = (k * 37 % 11) - 5.5; }\n'
                  '  f(n, a, b); for (int k = 0; k < 64; k++) printf("%.17g\\n", a[k]); return 0; }\n',
                  [("13",), ("16",)])


def test_hundreds_of_statements_in_one_loop_body(tmp_path):
    """Probe 203 G1: 360 statements in one loop were a RecursionError (isl nests a block per
    statement), even without a step."""
    body = "".join(f"    a[i] = a[i] + b[i - 1] * {k}.0;\n" for k in range(400))
    src = tmp_path / "many.c"
    src.write_text("void g(int n, double *a, double *b) {\n  int i;\n#pragma scop\n  for (i = 1; i < n; i++) {\n"
                   + body + "  }\n#pragma endscop\n}\n")
    (tmp_path / "r.yaml").write_text("steps: []\n")
    rc, _, err = run_cli("transform", src, "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o.c")
    assert rc == 0 and (tmp_path / "o.c").read_text().count("a[i] = a[i] + b[i - 1]") == 400, err


def test_inputs_that_are_no_regular_file_and_stdout_that_cannot_be_written(tmp_path):
    """Probe 203 G4, G6: a FIFO input waited forever (the file is read twice), `<(cat f.c)` gave
    'no region', a directory recipe was 'not found', and stdout to a full disk was an internal
    error."""
    import os
    (tmp_path / "r.yaml").write_text(TILE)
    os.mkfifo(tmp_path / "p.c")
    rc, _, err = run_cli("transform", tmp_path / "p.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and "the input is not a regular file (a pipe or a device)" in err, err
    (tmp_path / "d.yaml").mkdir()
    rc, _, err = run_cli("transform", DATA / "pragma_op.c", "--recipe", tmp_path / "d.yaml")
    assert rc == 2 and "the recipe is a directory" in err, err
    cli = [sys.executable, "-m", "looptx", "deps", str(DATA / "pragma_op.c")]
    with open("/dev/full", "w") as full:
        r = subprocess.run(cli, stdout=full, stderr=subprocess.PIPE, text=True, cwd=Path(__file__).parent.parent)
    assert r.returncode == 2 and r.stderr.startswith("looptx: error: cannot write the output to stdout: No space"), \
        r.stderr


def test_a_recipe_of_yaml_aliases_is_refused_at_once(tmp_path):
    """Probe 203 G5: nine levels of aliases of nine made the step's argument 9^9 leaves, which the
    param substitution and the message walked (over 150 s, 2.4 GB)."""
    import time
    lines = ["params:", "  a: &a [x, x, x, x, x, x, x, x, x]"]
    lines += [f"  {c}: &{c} [{', '.join(['*' + p] * 9)}]" for p, c in zip("abcdefgh", "bcdefghi")]
    (tmp_path / "r.yaml").write_text("\n".join(lines) + "\nsteps:\n  - tile: {stmt: 0, loop: i, size: *i}\n")
    t0 = time.monotonic()
    rc, _, err = run_cli("transform", DATA / "pragma_op.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and "argument 'size' must be an integer >= 1, got [[[[" in err and len(err) < 400, err
    assert time.monotonic() - t0 < 20


def test_a_damaged_space_record_is_one_line_on_resume(tmp_path):
    """Probe 203 G3: `space` = {"params": 5} was a TypeError on --resume."""
    import sqlite3
    src = tmp_path / "k.c"
    src.write_text(_four_point_kernel())
    rc, _, err = run_cli("search", src, "-a", "exhaustive", "--budget", "2", "--no-progress", "--db", tmp_path / "k.db")
    assert rc == 0, err
    con = sqlite3.connect(tmp_path / "k.db")
    con.execute("""UPDATE searches SET space = '{"params": [5]}'""")
    con.commit()
    con.close()
    rc, _, err = run_cli("search", src, "--resume", "--budget", "3", "--no-progress", "--db", tmp_path / "k.db")
    assert rc == 2 and "is damaged: the params of the space of search" in err and len(err.strip().splitlines()) == 1, err


def test_a_shared_copy_of_a_padded_convolutions_filter(tmp_path):
    """Probe 200 G1: isl's coalesce crashed (SIGSEGV, no message) in the check of the AST of a
    2-D thread mapping with a shared copy of the filter; C and CUDA alike."""
    (tmp_path / "r.yaml").write_text(
        "steps:\n  - tile: {stmt: 1, loop: x, size: 16, control: xt}\n  - tile: {stmt: 1, loop: y, size: 8, control: yt}\n"
        "  - permute: {stmt: 1, order: [k, yt, xt, y, x, c]}\n  - cuda: {stmt: 1, block: [xt, yt, k], thread: [x, y]}\n"
        "  - shared: {stmt: 1, array: wt, at: c}\n")
    rc, _, err = run_cli("transform", DATA / "convpad.c", "--function", "convpad", "--recipe", tmp_path / "r.yaml",
                         "-o", tmp_path / "o.c")
    assert rc == 0, err
    same_output_c(tmp_path, DATA / "convpad.c", tmp_path / "o.c",
                  '#include <stdio.h>\n#include <stdlib.h>\n'
                  'void convpad(int C, int K, int H, int W, const float *in, const float *wt, float *out);\n'
                  'int main(int argc, char **argv) { int C = atoi(argv[1]), K = 2, H = atoi(argv[2]), W = atoi(argv[3]);\n'
                  '  float *in = malloc(sizeof(float) * C * H * W), *wt = malloc(sizeof(float) * K * C * 9),\n'
                  '    *out = calloc(K * H * W, sizeof(float)); srand(3);\n'
                  '  for (int k = 0; k < C * H * W; k++) in[k] = rand() % 100 / 8.0f;\n'
                  '  for (int k = 0; k < K * C * 9; k++) wt[k] = rand() % 100 / 16.0f;\n'
                  '  convpad(C, K, H, W, in, wt, out);\n'
                  '  for (int k = 0; k < K * H * W; k++) printf("%.9g\\n", out[k]); return 0; }\n',
                  [("3", "9", "19"), ("2", "8", "16")])


def test_interleaved_complex_rows_of_2n(tmp_path):
    """Probe 200 G2: `a[i*(2*n) + j]`, j < 2n, was refused as leaving rows of n (and the hint
    offered a view of rows of n), in every spelling of the row length."""
    (tmp_path / "r.yaml").write_text("steps:\n  - unroll: {stmt: 0, loop: j, factor: 4}\n")
    text = (DATA / "rowlen2n.c").read_text()
    for k, spelled in enumerate(("i * (2 * n) + j", "i * 2 * n + j", "2 * i * n + j", "i * n * 2 + j")):
        src = tmp_path / f"r{k}.c"
        src.write_text(text.replace("i * (2 * n) + j", spelled))
        out = tmp_path / f"o{k}.c"
        rc, _, err = run_cli("transform", src, "--function", "rowsum2", "--recipe", tmp_path / "r.yaml", "-o", out)
        assert rc == 0 and "const long lx_row = 2 * n;" in out.read_text(), (spelled, err)
    same_output_c(tmp_path, tmp_path / "r1.c", tmp_path / "o1.c",
                  '#include <stdio.h>\n#include <stdlib.h>\nvoid rowsum2(int m, int n, const double *a, double *y);\n'
                  'int main(int argc, char **argv) { int m = atoi(argv[1]), n = atoi(argv[2]);\n'
                  '  double *a = malloc(sizeof(double) * m * 2 * n), y[16] = {0};\n'
                  '  for (int k = 0; k < m * 2 * n; k++) a[k] = k % 13 * 0.25;\n'
                  '  rowsum2(m, n, a, y); for (int k = 0; k < m; k++) printf("%.17g\\n", y[k]); return 0; }\n',
                  [("5", "3"), ("16", "8"), ("1", "1")])


def test_shift_to_of_a_loop_that_counts_down(tmp_path):
    """Probe 202 G1: `shift_to: {to: 0}` of `for (j = 10; j >= 2; j--)` shifted it to start at 20."""
    (tmp_path / "r.yaml").write_text("steps:\n  - shift_to: {stmt: 0, loop: j, to: 0}\n")
    rc, out, err = run_cli("transform", DATA / "countdown.c", "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o.c")
    assert rc == 0 and "for (j = 0; j > -n + 1; j--)" in (tmp_path / "o.c").read_text(), err
    src = tmp_path / "ten.c"
    src.write_text((DATA / "countdown.c").read_text().replace("j = n;", "j = 10;"))
    rc, out, err = run_cli("transform", src, "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o10.c")
    assert rc == 0 and "for (j = 0; j >= -8; j--)" in (tmp_path / "o10.c").read_text(), err
    same_output_c(tmp_path, DATA / "countdown.c", tmp_path / "o.c",
                  '#include <stdio.h>\n#include <stdlib.h>\nvoid f(int n, double *y, double *x);\n'
                  'int main(int argc, char **argv) { int n = atoi(argv[1]); double y[40], x[40];\n'
                  '  for (int k = 0; k < 40; k++) { y[k] = k * 0.5; x[k] = k % 7; }\n'
                  '  f(n, y, x); for (int k = 0; k < 40; k++) printf("%.17g\\n", y[k]); return 0; }\n',
                  [("10",), ("2",), ("33",)])


def test_sizes_too_big_for_memory_are_refused_before_the_build(tmp_path):
    """Probe 203 G9: `run -D n=100000` built both codes and ended in numpy's MemoryError, exit 1."""
    (tmp_path / "r.yaml").write_text(TILE)
    rc, out, err = run_cli("run", DATA / "mm_vla.c", "--recipe", tmp_path / "r.yaml", "-D", "n=1000000")
    assert rc == 2 and "the region's arrays take 22351.7 GiB at n=1000000" in err and "give smaller sizes" in err, \
        out + err


def test_inline_assembly_beside_the_region_and_in_it(tmp_path):
    """Probe 203 G8: an rdtsc timer's `__asm__ __volatile__(... : ...)` outside the region failed
    the whole file as a syntax error; in the region it is refused (it would vanish)."""
    (tmp_path / "r.yaml").write_text(TILE)
    rc, out, err = run_cli("transform", DATA / "asm_timer.c", "--recipe", tmp_path / "r.yaml", "-o", tmp_path / "o.c")
    text = (tmp_path / "o.c").read_text()
    assert rc == 0 and '__asm__ __volatile__("rdtsc"' in text and "for (int ii = 0;" in text, err
    subprocess.run(["gcc", "-c", "-o", tmp_path / "o.o", tmp_path / "o.c"], check=True)
    src = tmp_path / "in.c"
    src.write_text((DATA / "asm_timer.c").read_text().replace("    a[i] = b[i];", '  { a[i] = b[i]; asm volatile ("" ::: "memory"); }'))
    rc, out, err = run_cli("transform", src, "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and "inline assembly ('asm') in the region" in err, err


def test_a_tiles_control_name_taken_by_a_size_is_said(tmp_path):
    """Probe 200 G5: with a size named kk, tiling k named the control loop kk2 without a word,
    and a later step naming kk failed without the reason."""
    (tmp_path / "t.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: k, size: 16}\n")
    rc, _, err = run_cli("transform", DATA / "kk_size.c", "--recipe", tmp_path / "t.yaml", "-o", tmp_path / "o.c")
    assert rc == 0 and "'kk' names a size of the region, so the control loop is 'kk2'" in err, err
    (tmp_path / "p.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: k, size: 16}\n"
                                     "  - permute: {stmt: 0, order: [kk, i, j, k]}\n")
    rc, _, err = run_cli("transform", DATA / "kk_size.c", "--recipe", tmp_path / "p.yaml")
    assert rc == 2 and "'kk' is a size of the region, so a tile names its control loop otherwise" in err, err


def test_a_param_of_a_million_values_is_not_parsed_value_by_value():
    """Probe 203 G7: each value of a param was tried through the annotation (~1 ms each) before
    the first point: 10^6 values took 160 s.  A long param is left to the search; a short
    one's rejected values are still dropped."""
    from looptx.errors import RecipeError
    from looptx.search.rejected_values import drop_rejected_values
    from looptx.search.space import Param, Space
    calls = []

    class Ev:
        def recipe_for(self, point):
            calls.append(point)
            if point["U"] < 1 or point["T"] < 1:
                raise RecipeError("tile size must be an integer >= 1")
    space = Space([Param("T", tuple(range(0, 100000)), "int"), Param("U", (0, 1, 2), "int")])
    out, dropped = drop_rejected_values(space, Ev(), 0)
    assert [v for p, v, _ in dropped] == [0] and out.params[1].values == (1, 2) and len(out.params[0].values) == 100000
    assert len(calls) < 100, len(calls)


def test_the_registers_hint_says_the_loops_inside_must_be_tiled(tmp_path):
    """Probe 200 G4: the hint named loop k, where the same step is refused next (the loops inside
    k that index C have no constant extent)."""
    (tmp_path / "r.yaml").write_text("steps:\n  - permute: {stmt: 0, order: [k, i]}\n"
                                     "  - scalar_replace: {stmt: 0, array: C, at: i}\n")
    rc, _, err = run_cli("transform", DATA / "bgemm.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and "does not index C: k, once the loops inside it that index C are tiled" in err, err


def test_inline_assembly_through_a_macro_in_the_region_is_refused(tmp_path):
    """Probe 205 G1: `STORE(a[i*n + j], v)`, a macro of `__asm__ __volatile__("movsd ...")`, was
    read as nothing once assembly beside regions parsed: the store vanished from the output."""
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: j, size: 4}\n")
    rc, _, err = run_cli("transform", DATA / "asm_macro.c", "--recipe", tmp_path / "r.yaml")
    assert rc == 2 and "asm_macro.c:8:7: error: inline assembly in the region (through a macro)" in err, err
    # an asm label of a declaration beside the region is no call
    src = tmp_path / "label.c"
    src.write_text('int x __asm__("xx");\n' + (DATA / "asm_timer.c").read_text())
    (tmp_path / "i.yaml").write_text(TILE)
    rc, out, err = run_cli("transform", src, "--recipe", tmp_path / "i.yaml")
    assert rc == 0 and 'int x __asm__("xx");' in out, err


def test_rows_of_2n_left_by_an_index_are_modelled_flat_at_fixed_sizes(tmp_path):
    """Probe 205 G4: `a[i*2*n + j - 1]` (rows of 2*n left by j - 1) with -D n=6 was refused once
    rows of 2*n had a name of their own (the hint asked for `--define (2 * n)=VALUE`); at fixed
    sizes the flat model reads it, as before."""
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 4}\n  - tile: {stmt: 0, loop: j, size: 8}\n")
    rc, _, err = run_cli("transform", DATA / "rows2n_left.c", "--recipe", tmp_path / "r.yaml", "-D", "n=6",
                         "-o", tmp_path / "o.c")
    assert rc == 0, err
    same_output_c(tmp_path, DATA / "rows2n_left.c", tmp_path / "o.c",
                  '#include <stdio.h>\n#include <stdlib.h>\nvoid kern(int n, double *a, double *b, double *c);\n'
                  'int main(int argc, char **argv) { int n = atoi(argv[1]); double a[400], b[400];\n'
                  '  for (int k = 0; k < 400; k++) { a[k] = k % 9 * 0.5; b[k] = k % 5; }\n'
                  '  kern(n, a + 1, b, 0); for (int k = 0; k < 400; k++) printf("%.17g\\n", a[k]); return 0; }\n',
                  [("6",), ("5",)])


def test_a_search_at_sizes_too_big_for_memory_is_refused_at_its_input_params(tmp_path):
    """Probe 203 G9: a search at input_params too big for memory built and ran every point, then
    ended in 'no variant passed validation' (MemoryError), exit 1."""
    rc, out, err = run_cli("search", DATA / "big_search.c", "--budget", "2", "--no-progress", "--db", tmp_path / "b.db")
    assert rc == 2 and err.startswith(f"{DATA / 'big_search.c'}:5:") and "the region's arrays take 44.7 GiB" in err, err
