"""Files as PolyBench 4 writes them: `#include <polybench.h>` found through -I (or CPATH, as gcc
does), a project header that is not found named in the error, typedef'd element types, and
sizes that reach the region only through a macro (`_PB_N` for `n`) located at the kernel's
own parameter."""
from __future__ import annotations

import os
import re
import subprocess

import pytest
from conftest import cli_process as cli

PB_H = """\
#ifndef PB_H
#define PB_H
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#define POLYBENCH_2D(var, dim1, dim2, ddim1, ddim2) var[dim1][dim2]
#define POLYBENCH_LOOP_BOUND(x, y) y
#define SCALAR_VAL(x) x
#endif
"""

KERNEL_H = """\
#ifndef N
# define N 40
#endif
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)
#define DATA_TYPE double
"""

KERNEL_C = """\
#include <pb.h>
#include "kernel.h"

static void init_array(int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i][j] = (DATA_TYPE)((i * j + 1) % n) / n;
}

static void kernel_smooth(int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n),
                          DATA_TYPE POLYBENCH_2D(B, N, N, n, n))
{
  int i, j;
#pragma scop
  for (i = 1; i < _PB_N - 1; i++)
    for (j = 1; j < _PB_N - 1; j++)
      B[i][j] = SCALAR_VAL(0.25) * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
#pragma endscop
}

static DATA_TYPE A[N][N], B[N][N];

int main(void)
{
  init_array(N, A);
  kernel_smooth(N, A, B);
  double sum = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      sum += B[i][j] * (i + 2 * j + 1);
  printf("%.17g\\n", sum);
  return 0;
}
"""

TILE = "steps:\n  - tile: {stmt: 0, loop: i, size: 8}\n  - tile: {stmt: 0, loop: j, size: 8}\n"




def one_error(proc) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    return lines[0]


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "utilities").mkdir()
    (tmp_path / "utilities" / "pb.h").write_text(PB_H)
    k = tmp_path / "smooth"
    k.mkdir()
    (k / "kernel.h").write_text(KERNEL_H)
    (k / "smooth.c").write_text(KERNEL_C)
    (tmp_path / "tile.yaml").write_text(TILE)
    return tmp_path


def run_program(src, tmp_path, n) -> str:
    exe = tmp_path / f"{src.stem}.{n}.out"
    subprocess.run(["gcc", "-O1", "-I", str(tmp_path / "utilities"), f"-DN={n}", "-o", str(exe),
                    str(src), "-lm"], check=True, capture_output=True)
    return subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout


def test_a_header_that_is_not_found_is_named_in_the_error(tree):
    msg = one_error(cli("deps", "smooth/smooth.c", cwd=tree))
    assert msg.startswith("smooth/smooth.c:"), msg
    assert "<pb.h> was not found and read as empty: give its folder with -I DIR" in msg, msg
    # libc headers are not named: looptx replaces them anyway
    assert "stdio" not in msg and "math.h" not in msg, msg


@pytest.mark.parametrize("how", ["-I", "CPATH"])
def test_angle_include_found_through_the_include_path(tree, how):
    args, env = ["-I", "utilities"], None
    if how == "CPATH":
        args, env = [], dict(os.environ, CPATH=str(tree / "utilities"))
    out = tree / "smooth" / f"out_{how.strip('-')}.c"
    proc = cli("transform", "smooth/smooth.c", "--recipe", "tile.yaml", "-o", out, *args,
               cwd=tree, env=env)
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    assert "#include <pb.h>" in text and re.search(r"for \(int ii = 0;", text), text
    # differential: the whole program, at a size the tiles divide and one they do not
    for n in (40, 37):
        assert run_program(out, tree, n) == run_program(tree / "smooth" / "smooth.c", tree, n)


def test_run_search_and_deps_take_the_include_path(tree):
    proc = cli("deps", "smooth/smooth.c", "-I", "utilities", cwd=tree)
    assert proc.returncode == 0 and "parameters: n" in proc.stdout, proc.stderr
    # n reaches the region only through _PB_N: the error points at kernel_smooth's parameter,
    # not at the first `n` of the file (init_array's)
    msg = one_error(cli("run", "smooth/smooth.c", "-I", "utilities", "--recipe", "tile.yaml",
                        cwd=tree))
    line = next(i for i, ln in enumerate(KERNEL_C.splitlines(), 1) if "kernel_smooth(int n" in ln)
    assert msg.startswith(f"smooth/smooth.c:{line}:"), msg
    assert "the size 'n' has no value" in msg, msg
    proc = cli("run", "smooth/smooth.c", "-I", "utilities", "-D", "n=37", "--recipe", "tile.yaml",
               "--repetitions", 1, cwd=tree)
    assert proc.returncode == 0 and " ok " in proc.stdout, (proc.stdout, proc.stderr)
    # search workers are separate processes: they must see the include path too
    annotated = tree / "smooth" / "tuned.c"
    annotated.write_text(KERNEL_C.replace(
        "#pragma scop\n", "/*@ begin PerfTuning ( def performance_params { param T[] = [4, 8]; }\n"
        "  def input_params { param n[] = [37]; } ) @*/\n/*@ begin CHiLL ( tile(0,\"i\",T) ) @*/\n")
        .replace("#pragma endscop\n", "/*@ end @*/\n/*@ end @*/\n"))
    proc = cli("search", "smooth/tuned.c", "-I", "utilities", "-a", "exhaustive", "--no-progress",
               "--db", tree / "t.db", cwd=tree)
    assert proc.returncode == 0, proc.stderr
    assert (tree / "smooth" / "tuned.best.c").exists()
    msg = one_error(cli("deps", "smooth/smooth.c", "-I", "nope", cwd=tree))
    assert "include folder 'nope' does not exist" in msg, msg


def test_typedef_element_type_runs(tmp_path):
    src = tmp_path / "k.c"
    src.write_text("typedef char base;\ntypedef base nucleotide;\n#define N 50\n"
                   "void k(nucleotide seq[N], int t[N])\n{\n  int i;\n#pragma scop\n"
                   "  for (i = 0; i < N; i++)\n    t[i] = t[i] + seq[i];\n#pragma endscop\n}\n")
    (tmp_path / "r.yaml").write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 4}\n")
    proc = cli("run", src, "--recipe", tmp_path / "r.yaml", "--repetitions", 1, cwd=tmp_path)
    assert proc.returncode == 0 and " ok " in proc.stdout, (proc.stdout, proc.stderr)
