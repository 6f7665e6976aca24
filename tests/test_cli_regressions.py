"""Regressions found by writing kernels the way users do: `run` checks every region, `-o` into a
missing folder, CHiLL's skew coefficient list, several dialect commands on one line,
`--standalone` CUDA with scalar inputs, block-only CUDA mappings (`thread: ["1"]`), Orio's
`@CFLAGS`, list-valued params in constraints, and report exports to a missing folder."""
import json
import shutil
import subprocess

import pytest

from test_cuda_codegen import needs_nvcc
from conftest import cli_process as cli

TWO_REGIONS = """#define N 30
double A[N][N], y[N], x[N];
void k1(void)
{
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] = A[i][j] + x[j];
#pragma endscop
}
void k2(void)
{
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      y[i] = y[i] * 0.5 + A[i][j];
#pragma endscop
}
"""

FDTD = """#define TMAX 3
#define NX 30
#define NY 35
double ex[NX][NY], ey[NX][NY], hz[NX][NY], fict[TMAX];
void fdtd(void)
{
  int t, i, j;
#pragma scop
  for (t = 0; t < TMAX; t++) {
    for (j = 0; j < NY; j++)
      ey[0][j] = fict[t];
    for (i = 1; i < NX; i++)
      for (j = 0; j < NY; j++)
        ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i-1][j]);
  }
#pragma endscop
}
"""




def one_line_error(proc, start: str):
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert lines[0].startswith(start), lines[0]
    return lines[0]


def test_run_checks_every_region(tmp_path):
    src = tmp_path / "two.c"
    src.write_text(TWO_REGIONS)
    illegal = tmp_path / "rev.yaml"           # reverses k2's reduction over j: illegal
    illegal.write_text("steps:\n  - reverse: {stmt: 1, loop: j}\n")
    msg = one_line_error(cli("run", str(src), "--recipe", str(illegal)), f"{illegal}:2: step 1 (reverse)")
    assert "RAW on y" in msg
    # Applied anyway, the wrong result of region 1 is found by validation.
    p = cli("run", str(src), "--recipe", str(illegal), "--unsafe")
    assert p.returncode == 1 and "region 0: ok" in p.stdout, p.stdout
    assert "region 1: wrong_result" in p.stdout
    legal = tmp_path / "tile.yaml"
    legal.write_text("steps:\n  - tile: {stmt: 1, loop: j, size: 7}\n  - tile: {stmt: 0, loop: i, size: 4}\n")
    p = cli("run", str(src), "--recipe", str(legal), "--repetitions", "1")
    assert p.returncode == 0 and p.stdout.count(": ok") == 2, p.stdout + p.stderr


def test_output_into_missing_folder_is_bad_input(tmp_path):
    src = tmp_path / "two.c"
    src.write_text(TWO_REGIONS)
    out = tmp_path / "no" / "such" / "out.c"
    msg = one_line_error(cli("transform", str(src), "-o", str(out)), f"{out}: error: cannot write")
    assert "existing" in msg


SKEW = """#define N 24
double A[N][N];
void kern(void)
{
  int i, j;
  /*@ begin CHiLL (
     skew(0,2,[1,1])
  ) @*/
  for (i = 1; i < N; i++)
    for (j = 1; j < N; j++)
      A[i][j] = A[i-1][j] + A[i][j-1];
  /*@ end @*/
}
"""


def test_chill_skew_coefficient_list(tmp_path):
    src = tmp_path / "skew.c"
    src.write_text(SKEW)
    p = cli("transform", str(src))
    assert p.returncode == 0, p.stderr
    assert "j < N + i" in p.stdout               # j' = i + j
    for n in ("24", "17"):
        p = cli("run", str(src), "-D", f"N={n}", "--repetitions", "1")
        assert p.returncode == 0 and ": ok" in p.stdout, p.stdout + p.stderr


MATMUL = """#define N 40
double A[N][N], B[N][N], C[N][N];
void mm(void) {
  int i, j, k;
  /*@ begin CHiLL ( tile(0,"i",8,"ii") tile(0,"j",8,"jj"); unroll(0,"k",
        UF) ) @*/
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        C[i][j] += A[i][k] * B[k][j];
  /*@ end @*/
}
"""


def test_several_dialect_commands_per_line(tmp_path):
    src = tmp_path / "mm.c"
    src.write_text(MATMUL.replace("UF", "4"))
    p = cli("transform", str(src))
    assert p.returncode == 0, p.stderr
    head = p.stdout.split("*/")[0]
    assert head.count("tile:") == 2 and "unroll: {stmt: 0, loop: k, factor: 4}" in head
    for n in ("40", "37"):
        p = cli("run", str(src), "-D", f"N={n}", "--repetitions", "1")
        assert p.returncode == 0, p.stdout + p.stderr
    # An error in the third command of the line points at that command's column.
    src.write_text(MATMUL.replace("UF", "4").replace('unroll(0,"k",', 'unroll(0,"k"+,'))
    one_line_error(cli("transform", str(src)), f"{src}:5:60: error: syntax error in command 'unroll")
    src.write_text(MATMUL)
    one_line_error(cli("transform", str(src)), f"{src}:5:60: error: unknown parameter 'UF'")


AXPY = """#define N 100
double x[N], y[N];
double alpha;
void axpy(int n, double beta)
{
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    y[i] = beta * y[i] + alpha * x[i];
#pragma endscop
}
"""


@needs_nvcc
def test_standalone_cuda_with_scalar_inputs_builds(tmp_path):
    src = tmp_path / "axpy.c"
    src.write_text(AXPY)
    rec = tmp_path / "r.yaml"
    rec.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 32}\n"
                   "  - cuda: {stmt: 0, block: [ii], thread: [i]}\n")
    cu = tmp_path / "axpy.cu"
    p = cli("transform", str(src), "--recipe", str(rec), "--target", "cuda", "--standalone",
            "-D", "n=100", "-o", str(cu))
    assert p.returncode == 0, p.stderr
    text = cu.read_text()
    assert "double alpha;" in text and "double beta;" in text      # by value, not malloc'd
    b = subprocess.run([shutil.which("nvcc"), "-arch=sm_90", "-o", str(tmp_path / "axpy"), str(cu)],
                       capture_output=True, text=True)
    assert b.returncode == 0, b.stderr[-2000:]


BLOCK_ONLY = "steps:\n  - cuda: {stmt: 0, block: [j], thread: [\"1\"]}\n" \
             "  - cuda: {stmt: 1, block: [i], thread: [j]}\n"


def test_block_only_mapping_emulation_validates(tmp_path):
    src = tmp_path / "fdtd.c"
    src.write_text(FDTD)
    rec = tmp_path / "r.yaml"
    rec.write_text(BLOCK_ONLY)
    for sizes in (["-D", "NX=30", "-D", "NY=35"], ["-D", "NX=17", "-D", "NY=9"]):
        p = cli("run", str(src), "--recipe", str(rec), "--repetitions", "1", *sizes)
        assert p.returncode == 0 and ": ok" in p.stdout, p.stdout + p.stderr
    p = cli("transform", str(src), "--recipe", str(rec), "--target", "cuda", "-D", "NY=35")
    assert p.returncode == 0, p.stderr
    assert "dim3(1, 1, 1)>>>" in p.stdout                          # one thread per block


@needs_nvcc
def test_block_only_mapping_compiles(tmp_path):
    from test_cuda_codegen import nvcc_compile
    src = tmp_path / "fdtd.c"
    src.write_text(FDTD)
    rec = tmp_path / "r.yaml"
    rec.write_text(BLOCK_ONLY)
    p = cli("transform", str(src), "--recipe", str(rec), "--target", "cuda", "-D", "NY=35")
    assert p.returncode == 0, p.stderr
    assert nvcc_compile(p.stdout) is None


@pytest.mark.gpu
def test_block_only_mapping_on_gpu(tmp_path):
    from test_gpu import _gpu
    session = _gpu()
    src = tmp_path / "fdtd.c"
    src.write_text(FDTD)
    rec = tmp_path / "r.yaml"
    rec.write_text(BLOCK_ONLY)
    from looptx.pipeline import load, variants_for
    from looptx.recipe.schema import load_file
    from looptx.runtime.cuda import run_region
    for sizes in ({"NX": 30, "NY": 35}, {"NX": 17, "NY": 9}):
        program = load(str(src), defines=sizes)
        variant = variants_for(program, load_file(str(rec)))[0][0]
        r = run_region(program, 0, variant, sizes, session=session, repetitions=2)
        assert r["status"] == "ok", r


CFLAGS_SEARCH = """/*@ begin PerfTuning (
  def build { arg build_command = 'gcc @CFLAGS'; }
  def performance_params {
    param CFLAGS[] = ['-O1', '-O3'];
    param UF[] = [1, 2];
    param PERM[] = [['i','j'],['j','i']];
    constraint c = PERM != ['j', 'i'];
  }
  def input_params { param N[] = [60]; }
  def input_vars {
    decl static double x[N][N] = random;
    decl static double y[N][N] = random;
  }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
int i, j;
/*@ begin CHiLL (
  permute(0,(PERM[0],PERM[1])) unroll(0,"j",UF)
) @*/
for (i = 0; i < N; i++)
  for (j = 0; j < N; j++)
    y[i][j] = y[i][j] + 2.0 * x[i][j];
/*@ end @*/
/*@ end @*/
"""


def test_orio_cflags_placeholder_and_list_params(tmp_path):
    """Orio's `@CFLAGS` (no closing @) is filled from the point, and a list-valued param
    compares equal to the list the annotation writes (the constraint leaves 2 x 2 points)."""
    src = tmp_path / "cf.c"
    src.write_text(CFLAGS_SEARCH)
    p = cli("search", str(src), "--no-progress", cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "4 valid points" in p.stdout and "status: ok 4" in p.stdout, p.stdout
    # Every evaluation was built with its own flags, so the two CFLAGS give two code hashes
    # per unroll factor (the hash covers the flags).
    evals = json.loads(cli("report", str(tmp_path / "cf.looptx.db"), "--json").stdout)["searches"][0]["evaluations"]
    assert len({e["code_hash"] for e in evals}) == 4
    head = (tmp_path / "cf.best.c").read_text().split("*/")[0]
    assert "@CFLAGS" not in head and "gcc -O" in head


def test_report_exports_to_missing_folder_are_bad_input(tmp_path):
    src = tmp_path / "cf.c"
    src.write_text(CFLAGS_SEARCH.replace("'Exhaustive';", "'Exhaustive'; arg total_runs = 1;"))
    assert cli("search", str(src), "--no-progress", cwd=tmp_path).returncode == 0
    db = str(tmp_path / "cf.looptx.db")
    for flag in ("--plot", "--csv", "--json", "--kernel-tuner"):
        out = str(tmp_path / "nope" / "out")
        p = cli("report", db, flag, out)
        one_line_error(p, f"{out}: error: cannot write here")
        assert p.stdout == ""                       # refused before any table is printed


MM = """#define N 64
double a[N][N], b[N][N], c[N][N];
void mm(void)
{
  int i, j, k;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        c[i][j] = c[i][j] + a[i][k] * b[k][j];
#pragma endscop
}
"""
MM_GRID = ("steps:\n  - tile: {stmt: 0, loop: i, size: 16, control: ii}\n"
           "  - tile: {stmt: 0, loop: j, size: 16, control: jj}\n"
           "  - permute: {stmt: 0, order: [ii, jj, i, j, k]}\n"
           "  - cuda: {stmt: 0, block: [jj, ii], thread: [j, i]%s}\n")


@pytest.mark.parametrize("step,ok", [
    ("shared: {stmt: 0, array: a, at: ii}", False),       # outer block loop: wrong threads copy
    ("shared: {stmt: 0, array: a, at: jj}", True),        # innermost block loop: spread, synced
    ("registers: {stmt: 0, array: c, at: jj}", False),
    ("registers: {stmt: 0, array: c, at: ii}", False),
    ("registers: {stmt: 0, array: c, at: k}", True),
])
def test_promotions_at_block_loops(tmp_path, step, ok):
    src = tmp_path / "mm.c"
    src.write_text(MM)
    rec = tmp_path / "r.yaml"
    rec.write_text(MM_GRID % "" + f"  - {step}\n")
    p = cli("run", str(src), "--recipe", str(rec), "--repetitions", "1", "-D", "N=64")
    if ok:
        assert p.returncode == 0 and ": ok" in p.stdout, p.stdout + p.stderr
    else:
        msg = one_line_error(p, f"{rec}:6: step 5")
        assert "mapped to blocks" in msg


@pytest.mark.parametrize("name,why", [("a", "array"), ("my-kernel", "identifier"), ("int", "reserved"),
                                      ("mm_host", "reserved")])
def test_bad_kernel_names(tmp_path, name, why):
    src = tmp_path / "mm.c"
    src.write_text(MM)
    rec = tmp_path / "r.yaml"
    rec.write_text(MM_GRID % f", kernel: '{name}'")
    assert why in one_line_error(cli("transform", str(src), "--recipe", str(rec), "--target", "cuda"),
                                 f"{rec}:5: step 4 (cuda)")


def test_floor_division_inside_a_dialect_command(tmp_path):
    src = tmp_path / "fd.c"
    src.write_text(MATMUL.replace('tile(0,"j",8,"jj");', 'tile(0,"j",32//4,"jj") // a comment\n')
                   .replace("UF", "4"))
    p = cli("transform", str(src))
    assert p.returncode == 0, p.stderr
    assert "tile: {stmt: 0, loop: j, size: 8, control: jj}" in p.stdout


def test_unsafe_skips_the_race_check_of_a_mapping(tmp_path):
    src = tmp_path / "ill.c"
    src.write_text("#define N 64\ndouble A[N][N], B[N][N];\nvoid ill(void) {\n  int i, j;\n"
                   "#pragma scop\n  for (i = 1; i < N; i++)\n    for (j = 0; j < N; j++)\n"
                   "      A[i][j] = A[i-1][j] + B[i][j];\n#pragma endscop\n}\n")
    rec = tmp_path / "r.yaml"
    rec.write_text("steps:\n  - cuda: {stmt: 0, block: [i], thread: [j]}\n")
    msg = one_line_error(cli("transform", str(src), "--recipe", str(rec), "--target", "cuda",
                             "-D", "N=64"), f"{rec}:2: step 1 (cuda)")
    assert "RAW on A" in msg
    p = cli("transform", str(src), "--recipe", str(rec), "--target", "cuda", "-D", "N=64", "--unsafe")
    assert p.returncode == 0 and "UNSAFE" in p.stdout, p.stderr
