"""CUDA-CHiLL's own meaning of three commands its mm recipes rely on:
- a tile loop placed outside its control loop (tile_by_index's final order {"i","iii"}) runs
  over its offset in the tile, 0..size-1, so the tiling is kept (it used to be undone);
- copy_to_shared(L, a) copies before L, around the thread loops, by all of a block's threads
  (it used to copy in every iteration of L, one thread after another);
- copy_to_registers keeps only the elements one thread uses (a 4 x 4 array for rows
  tx, tx + 8, ..., not the 25 x 25 box around them).
Each is checked against the original program (looptx run), with nvcc, and on a GPU."""
from __future__ import annotations

import shutil
import subprocess

import pytest
from conftest import run_cli as cli

from test_chill_scripts import MM

NVCC = shutil.which("nvcc")

# examples/cuda-chill/testcases/mm.py with smaller tiles: 32 x 32 per block, 8 x 8 threads,
# a 4 x 4 register tile of c per thread
MM_PY = """from chill import *
execfile("cudaize.py")
read_IR("mm.c", "normalMM")
N=1024
tile_by_index(["i","j"],[32,32],{'l1_control':"ii",'l2_control':"jj"},["ii","jj","i","j","k"], None)
tile_by_index(["k"],[8],{'l1_control':"kk"},["ii","jj","kk","i","j","k"], None)
tile_by_index(["i","j"],[8,8],{'l1_control':"iii",'l2_control':"jjj"},["ii","jj","kk","i","iii","j","jjj","k"], 1)
cudaize(0, "mm_GPU",{'a':N*N,'b':N*N,'c':N*N},["ii","jj"], ["i","j"], [])
copy_to_shared("tx","a",-16)
copy_to_shared("tx","b",-16)
copy_to_registers("kk","c")
unroll_to_depth(2)
"""

MV = """#ifndef N
#define N 64
#endif
void mv(float c[N][N], float a[N], float b[N]) {
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      a[i] = a[i] + c[j][i] * b[j];
}
"""

# examples/cuda-chill/tmv.lua's first lines
MV_LUA = """init("mv.c","mv",0)
N=64
tile_by_index({"i"},{32},{l1_control="ii"},{"ii","i","j"})
cudaize("mv_GPU",{a=N,b=N,c=N*N},{block={"ii"},thread={"i"}})
copy_to_shared("tx","b",1)
"""

SCALE = """#ifndef N
#define N 16
#endif
void k(float a[N][N], float b[N][N]) {
  int i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      a[i][j] = 2.0f * a[i][j] + b[j][i];
}
"""

TILE_OUTSIDE = """from chill import *
execfile("cudaize.py")
read_IR("k.c", "k")
tile_by_index(["i"], [4], {'l1_control': "ii"}, ["i", "ii", "j"], None)
"""


def _files(tmp_path, c_name, c_text, script_name, script_text):
    c = tmp_path / c_name
    c.write_text(c_text)
    s = tmp_path / script_name
    s.write_text(script_text)
    return c, s


def _ok(c, s, n):
    rc, out, err = cli("run", c, "--recipe", s, "-D", f"N={n}", "--repetitions", 1)
    assert rc == 0 and ": ok " in out, (n, out, err)


def _cuda(c, s, tmp_path, *defines) -> str:
    out = tmp_path / (c.stem + ".cu")
    rc, _, err = cli("transform", c, "--recipe", s, "--target", "cuda", "-o", out, *defines)
    assert rc == 0, err
    text = out.read_text()
    if NVCC:
        p = subprocess.run([NVCC, "-arch=sm_90", "-c", str(out), "-o", str(tmp_path / "k.o")],
                           capture_output=True, text=True)
        assert p.returncode == 0, p.stderr[-2000:]
    return text[text.index("__global__"):text.index("extern")]


def test_tile_loop_outside_its_control_runs_over_the_tile(tmp_path):
    c, s = _files(tmp_path, "k.c", SCALE, "r.py", TILE_OUTSIDE)
    rc, out, err = cli("transform", c, "--recipe", s, "--show-steps")
    assert rc == 0, err
    after = (out + err)[(out + err).index("after step 2 (permute"):]
    assert "for (int i = 0; i <= lx_min(3, N - 1); i++)" in after, after
    assert "for (int ii = 0; ii <= (N - i - 1) / 4; ii++)" in after, after
    assert "S0(i + 4 * ii, j)" in after, after
    for n in (16, 13):
        _ok(c, s, n)


def test_counted_order_is_checked_against_dependences(tmp_path):
    """a[i] depends on a[i-1]: running i = 0, 4, 8, ... before i = 1 breaks that."""
    src = SCALE.replace("for (i = 0;", "for (i = 1;").replace("2.0f * a[i][j] + b[j][i]", "a[i - 1][j] + 1.0f")
    c, s = _files(tmp_path, "k.c", src, "r.py", TILE_OUTSIDE)
    rc, out, err = cli("transform", c, "--recipe", s)
    assert rc == 2 and err.count("\n") == 1 and "(permute)" in err and "RAW on a" in err, err


def test_tile_loop_outside_its_control_maps_to_threads(tmp_path):
    c, s = _files(tmp_path, "k.c", SCALE, "r.py",
                  TILE_OUTSIDE + 'cudaize(0, "k_GPU", {\'a\': 256, \'b\': 256}, ["i"], ["ii", "j"], [])\n')
    kernel = _cuda(c, s, tmp_path, "-D", "N=16")
    assert "__launch_bounds__(64)" in kernel and "a[(4 * tx + bx) * N + ty]" in kernel, kernel
    for n in (16, 13):
        _ok(c, s, n)


def test_copy_to_shared_copies_around_the_thread_loops(tmp_path):
    c, s = _files(tmp_path, "mv.c", MV, "r.lua", MV_LUA)
    kernel = _cuda(c, s, tmp_path, "-D", "N=64")
    assert "__shared__ float b_sh[64];" in kernel, kernel
    assert "for (int c3 = tx; c3 < 64; c3 += 32)" in kernel and "== tx" not in kernel, kernel
    # one barrier, between the loads and their use: none before the loads, which the block
    # makes once, before anything else it runs
    assert kernel.count("__syncthreads();") == 1 and kernel.index("b_sh[c3] = b[c3]") < kernel.index("__syncthreads();"), kernel
    for n in (64, 50):
        _ok(c, s, n)


def test_cuda_chill_mm_keeps_its_thread_block_and_register_tile(tmp_path):
    c, s = _files(tmp_path, "mm.c", MM, "mm.py", MM_PY)
    kernel = _cuda(c, s, tmp_path)
    assert "__launch_bounds__(64)" in kernel, kernel                       # 8 x 8 threads
    assert "float c_r[4][4];" in kernel, kernel
    assert "__shared__ float a_sh[8][33];" in kernel and "__shared__ float b_sh[32][9];" in kernel, kernel
    assert "== tx" not in kernel, kernel
    for n in (64, 45):
        _ok(c, s, n)


def test_looptx_form_of_copy_to_shared_keeps_its_meaning():
    from looptx.recipe.chill import parse_chill
    rec = parse_chill('copy_to_shared(0,"kk","A")')
    assert [(s.name, dict(s.args)) for s in rec.steps] == [("shared", {"stmt": 0, "at": "kk", "array": "A"})]


@pytest.mark.parametrize("call, file", [('copy_to_shared(0,"tx","a",-16)', "r.py"),
                                        ('copy_to_shared(0,"tx","a",-16)', "r.lua"),
                                        ('copy_to_shared(0,"tx","a")', "r.lua")])
def test_cudaize_lua_form_of_copy_to_shared_is_cuda_chills(call, file):
    """cudaize.lua's copy_to_shared takes the statement first (CUDA-CHiLL's mm.lua): it copies
    before tx, by all the threads, as the Python copy_to_shared("tx","a",-16) does."""
    from looptx.recipe.chill import parse_chill
    rec = parse_chill(call, file=file)
    assert [(s.name, dict(s.args)) for s in rec.steps] == [
        ("shared", {"stmt": 0, "at": "tx", "array": "a", "align": -16 if call.endswith("-16)") else 0,
                    "around": True})]


@pytest.mark.parametrize("row, align, pad", [(16, -16, 1), (32, -16, 1), (18, -16, 1), (47, -16, 0),
                                             (47, 16, 1), (48, 16, 0), (47, 0, 0), (20, -6, 3)])
def test_copy_to_shared_alignment_pads_rows_as_cuda_chill(row, align, pad):
    """Probe 165 G1: mpeg4.py's copy_to_shared("iii","prev",16) rounds the row up to a multiple
    of 16 (CUDA-CHiLL's own output: _P1[47][48]); a negative alignment grows the row until it
    shares no factor with it (47 stays 47, where looptx added 1 whatever the row)."""
    from looptx.poly.promote import row_padding
    assert row_padding(row, align) == pad


ACC = """#ifndef N
#define N 64
#endif
void acc(float e[N][N], float w[N]) {
  int i, j, n;
  for (j = 0; j < N; j++)
    for (i = 0; i < N; i++)
      for (n = 0; n < N; n++)
        e[j][i] += w[n] * w[i];
}
"""

# cp.py's pattern: registers at the outer thread loop
ACC_PY = """from chill import *
execfile("cudaize.py")
read_IR("acc.c", "acc")
tile_by_index(["j","i"], [16, 16], {'l1_control': "jj", 'l2_control': "ii"}, ["jj","ii","j","i","n"], None)
cudaize(0, "acc_GPU", {'e': N*N, 'w': N}, ["jj","ii"], ["j","i"], [])
copy_to_registers("tx", "e")
"""


def test_registers_at_a_thread_loop_are_each_threads_own(tmp_path):
    """They were one thread's array for the whole loop (loaded and stored by tx == 0 alone):
    wrong on a GPU, right in the sequential emulation."""
    c, s = _files(tmp_path, "acc.c", ACC, "acc.py", ACC_PY.replace("N*N", "4096").replace("'w': N", "'w': 64"))
    kernel = _cuda(c, s, tmp_path, "-D", "N=64")
    assert "  float e_r;" in kernel and "tx == 0" not in kernel, kernel
    for n in (64, 45):
        _ok(c, s, n)


CASES = [("mm", "mm.c", MM, "mm.py", MM_PY, (64, 45)), ("mv", "mv.c", MV, "r.lua", MV_LUA, (64, 50)),
         ("tile", "k.c", SCALE, "r.py",
          TILE_OUTSIDE + 'cudaize(0, "k_GPU", {\'a\': 256, \'b\': 256}, ["i"], ["ii", "j"], [])\n', (16, 13)),
         ("registers-at-tx", "acc.c", ACC, "acc.py", ACC_PY.replace("N*N", "4096").replace("'w': N", "'w': 64"),
          (64, 45))]


@pytest.mark.gpu
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_cuda_chill_semantics_on_gpu(tmp_path, case):
    try:
        from looptx.runtime.cuda import CudaSession
        session = CudaSession()
    except Exception as e:                      # no pycuda, no driver, no device
        pytest.skip(f"needs an NVIDIA GPU with pycuda ({e})")
    from looptx.pipeline import load, variants_for
    from looptx.recipe.schema import load_file
    from looptx.runtime.cuda import run_region
    _, c_name, c_text, s_name, s_text, sizes = case
    c, s = _files(tmp_path, c_name, c_text, s_name, s_text)
    recipe = load_file(str(s))
    for n in sizes:
        program = load(str(c), defines={"N": n}, function=recipe.procedure)
        variant = variants_for(program, recipe)[0][0]
        res = run_region(program, 0, variant, {"N": n}, session=session, repetitions=2)
        assert res["status"] == "ok", (case[0], n, res)
