"""CHiLL and CUDA-CHiLL scripts as their users wrote them: Python CHiLL (`from chill import *`,
source/procedure/loop), Lua CUDA-CHiLL (`init(...)`, variables, table constructors, `--`
comments, tile_by_index's `l1_tile` names, cudaize's bx/tx renaming), run on an unmarked C file
and checked against the original."""
import shutil
import subprocess

import pytest
from conftest import run_cli as cli

from looptx.recipe.chill import _lua_tables, parse_chill
from looptx.recipe.schema import load_file

MM = """#ifndef N
#define N 1024
#endif
void normalMM(float c[N][N], float a[N][N], float b[N][N]) {
  int i, j, k;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        c[j][i] = c[j][i] + a[k][i] * b[j][k];
}
"""

PY_CHILL = """from chill import *
source('mm.c')
destination('mmmodified.c')
procedure('normalMM')
loop(0)
known('N > 0')
permute([2,1,3])
tile(0,2,16)
"""

LUA_CUDA_CHILL = """init("mm.c", "normalMM", 0)
dofile("cudaize.lua")
N=1024
TI=32
TJ=16
TK=8
tile_by_index({"i","j"},{TI,TJ},{l1_control="ii",l2_control="jj"},{"ii","jj","i","j","k"})
tile_by_index({"k"},{TK},{l1_control="kk"},{"ii","jj","kk","i","j","k"})
tile_by_index({"i"},{TJ},{l1_control="ty",l1_tile="tx"},{"ii","jj","kk","tx","ty","j","k"})
--Assign loop levels to thread space and name the kernel
cudaize("mm_GPU",{a=N*N, b=N*N, c=N*N},--array sizes for data copying
        {block={"ii","jj"}, thread={"tx","ty"}})
copy_to_registers("kk", "c")
copy_to_shared("tx", "b", -16)
unroll_to_depth(2)
"""

PY_CUDA_CHILL = """from chill import *
execfile("cudaize.py")
read_IR("mm.c","normalMM")
N=1024
tile_by_index(["i","j"],[16,16],{'l1_control':"ii",'l2_control':"jj"},["ii","jj","i","j","k"], None)
tile_by_index(["k"],[8],{'l1_control':"kk"},["ii","jj","i","j","kk","k"], None)
cudaize(0,"mm_GPU",{'a':N*N,'b':N*N,'c':N*N},["ii","jj"],["i","j"],[])
copy_to_shared("ty","a",-16)
"""



@pytest.fixture
def mm(tmp_path):
    (tmp_path / "mm.c").write_text(MM)
    return tmp_path


def _run_ok(folder, script, sizes):
    for n in sizes:
        rc, out, err = cli("run", folder / "mm.c", "--recipe", folder / script, "-D", f"N={n}",
                           "--repetitions", 1)
        assert rc == 0 and ": ok " in out, (n, out, err)


def test_python_chill_script_on_an_unmarked_file(mm):
    (mm / "mm.py").write_text(PY_CHILL)
    rec = load_file(str(mm / "mm.py"))
    assert rec.procedure == "normalMM" and [s.name for s in rec.steps] == ["known", "permute", "tile"]
    rc, out, err = cli("transform", mm / "mm.c", "--recipe", mm / "mm.py")
    assert rc == 0, err
    assert "for (int ii = 0; ii <= (N - 1) / 16; ii++)" in out   # CHiLL's outer_level 1
    _run_ok(mm, "mm.py", (24, 37))


def test_lua_cuda_chill_script(mm):
    (mm / "mm.lua").write_text(LUA_CUDA_CHILL)
    rec = load_file(str(mm / "mm.lua"))
    assert rec.procedure == "normalMM"
    cuda = [dict(s.args) for s in rec.steps if s.name == "cuda"]
    # tx is tile_by_index's l1_tile name of i; the mapping and later steps name the model loops
    assert cuda == [{"stmt": 0, "kernel": "mm_GPU", "block": ["ii", "jj"], "thread": ["i", "ty"]}]
    assert [dict(s.args)["at"] for s in rec.steps if s.name in ("shared", "registers")] == ["kk", "i"]
    _run_ok(mm, "mm.lua", (64, 70))
    rc, out, err = cli("transform", mm / "mm.c", "--recipe", mm / "mm.lua", "--target", "cuda",
                       "-o", mm / "mm.cu")
    assert rc == 0, err
    assert "__global__" in (mm / "mm.cu").read_text() and "mm_GPU" in (mm / "mm.cu").read_text()
    if shutil.which("nvcc"):
        p = subprocess.run(["nvcc", "-arch=sm_90", "-c", str(mm / "mm.cu"), "-o", str(mm / "mm.o")],
                           capture_output=True, text=True)
        assert p.returncode == 0, p.stderr


def test_python_cudaize_renames_thread_loops(mm):
    (mm / "mm.py").write_text(PY_CUDA_CHILL)
    rec = load_file(str(mm / "mm.py"))
    steps = [(s.name, dict(s.args)) for s in rec.steps]
    assert steps[-2] == ("cuda", {"stmt": 0, "kernel": "mm_GPU", "block": ["ii", "jj"],
                                  "thread": ["i", "j"]})
    assert steps[-1] == ("shared", {"stmt": 0, "at": "j", "array": "a", "pad": 1})   # ty is j
    _run_ok(mm, "mm.py", (32, 35))


def test_a_loop_the_script_named_tx_keeps_its_meaning():
    rec = parse_chill('tile(0,"i",4,"tx")\ntile(0,"j",4,"ty")\n'
                      'cuda(0,block={"ty","tx"},thread={"i","j"})\nregisters(0,"tx","c")')
    assert dict(rec.steps[-1].args)["at"] == "tx"
    rec = parse_chill('cuda(0,block={"ii"},thread={"j","i"})\nregisters(0,"ty","c")')
    assert dict(rec.steps[-1].args)["at"] == "i"


def test_lua_tables_and_assignments():
    assert _lua_tables('cuda(0,block={BX,BY},thread={TX,TY})') == 'cuda(0,block={BX,BY},thread={TX,TY})'
    assert _lua_tables('f({a=N*N, b = 2}, {x="a=b"}, c==d)') == \
        'f({"a":N*N, "b": 2}, {"x":"a=b"}, c==d)'
    rec = parse_chill('local T = 8\nU=T*2 -- unroll factor\ntile(0,"i",T,"ii"); unroll(0,"j",U)')
    assert [dict(s.args).get("size", dict(s.args).get("factor")) for s in rec.steps] == [8, 16]
    assert rec.bindings == ()            # script variables are not performance params


def test_bad_script_lines_are_located(tmp_path):
    f = tmp_path / "r.lua"
    f.write_text('init("mm.c","normalMM",0)\nT = (\ntile(0,"i",T,"ii")\n')
    (tmp_path / "mm.c").write_text(MM)
    rc, out, err = cli("transform", tmp_path / "mm.c", "--recipe", f)
    assert rc == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"{f}:2:") and "(" in err.split("error:")[1]


def test_procedure_does_not_override_marked_regions(tmp_path):
    marked = MM.replace("  for (i = 0;", "#pragma scop\n  for (i = 0;").replace(
        "b[j][k];\n}", "b[j][k];\n#pragma endscop\n}\nvoid other(void) { }")
    (tmp_path / "mm.c").write_text(marked)
    (tmp_path / "r.py").write_text("from chill import *\nprocedure('other')\nunroll(0,\"k\",2)\n")
    rc, out, err = cli("transform", tmp_path / "mm.c", "--recipe", tmp_path / "r.py")
    assert rc == 0, err
    assert "k += 2" in out
