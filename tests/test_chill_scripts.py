"""CHiLL and CUDA-CHiLL scripts as their users wrote them: Python CHiLL (`from chill import *`,
source/procedure/loop), Lua CUDA-CHiLL (`init(...)`, variables, table constructors, `--`
comments, tile_by_index's `l1_tile` names, cudaize's bx/tx renaming), run on an unmarked C file
and checked against the original."""
import shutil
import subprocess

import pytest
from conftest import run_cli as cli

from looptx.recipe.chill import parse_chill
from looptx.recipe.chill_text import lua_tables
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
    # (cudaize's array sizes, kept as "sizes", are another test's business)
    cuda = [{k: v for k, v in dict(s.args).items() if k != "sizes"} for s in rec.steps if s.name == "cuda"]
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
    steps = [(s.name, {k: v for k, v in dict(s.args).items() if k != "sizes"}) for s in rec.steps]
    assert steps[-2] == ("cuda", {"stmt": 0, "kernel": "mm_GPU", "block": ["ii", "jj"],
                                  "thread": ["i", "j"]})
    # ty is j; CUDA-CHiLL copies before it, around the thread loops (test_cuda_chill_semantics)
    assert steps[-1] == ("shared", {"stmt": 0, "at": "j", "array": "a", "align": -16, "around": True})
    _run_ok(mm, "mm.py", (32, 35))


def test_a_loop_the_script_named_tx_keeps_its_meaning():
    rec = parse_chill('tile(0,"i",4,"tx")\ntile(0,"j",4,"ty")\n'
                      'cuda(0,block={"ty","tx"},thread={"i","j"})\nregisters(0,"tx","c")')
    assert dict(rec.steps[-1].args)["at"] == "tx"
    rec = parse_chill('cuda(0,block={"ii"},thread={"j","i"})\nregisters(0,"ty","c")')
    assert dict(rec.steps[-1].args)["at"] == "i"


def test_lua_tables_and_assignments():
    assert lua_tables('cuda(0,block={BX,BY},thread={TX,TY})') == 'cuda(0,block={BX,BY},thread={TX,TY})'
    assert lua_tables('f({a=N*N, b = 2}, {x="a=b"}, c==d)') == \
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


TWO_MARKED = """static void f1(int n, double *a, double *b)
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      a[i*n + j] = b[j*n + i];
#pragma endscop
}
void f2(int n, double *a, double *b)
{
  int i, j;
#pragma scop
  for (i = 1; i < n; i++)
    for (j = 0; j < n; j++)
      a[i*n + j] = a[(i-1)*n + j] + b[i*n + j];
#pragma endscop
}
"""


def test_the_procedure_a_script_names_is_the_one_transformed(tmp_path):
    """The file marks regions in f1 and f2; the script names f2 and numbers its statements from
    0 there, as CHiLL does (once f1 was transformed instead, with exit 0)."""
    (tmp_path / "two.c").write_text(TWO_MARKED)
    (tmp_path / "r.py").write_text('from chill import *\nsource("two.c")\nprocedure("f2")\nloop(0)\npermute([2, 1])\n')
    rc, out, err = cli("transform", tmp_path / "two.c", "--recipe", tmp_path / "r.py")
    assert rc == 0, err
    f1, f2 = out.split("void f2")
    assert "for (i = 0; i < n; i++)" in f1 and "for (j = 0; j < n; j++)\n      for (i = 1;" in f2, out


@pytest.mark.parametrize("script, line", [
    ('from chill import *\nprocedure("nope")\nloop(0)\npermute([2, 1])\n', 2),
    ('init("two.c", "missing", 0)\ntile_by_index({"j"},{16},{l1_control="jj"},{"i","jj","j"})\n', 1)])
def test_a_procedure_the_file_does_not_define_is_located_in_the_script(tmp_path, script, line):
    (tmp_path / "two.c").write_text(TWO_MARKED)
    name = "r.lua" if script.startswith("init") else "r.py"
    (tmp_path / name).write_text(script)
    rc, _, err = cli("transform", tmp_path / "two.c", "--recipe", tmp_path / name)
    _one_line_error(rc, err)
    assert err.startswith(f"{tmp_path / name}:{line}:1: error: the script's procedure"), err


# ---- script syntax CHiLL accepts that users leave in their scripts (chill_wild C3, C6, C7)

def _transform(folder, name, text, *extra):
    (folder / name).write_text(text)
    return cli("transform", folder / "mm.c", "--recipe", folder / name, *extra)


def _one_line_error(rc, err):
    assert rc == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err


def test_python_string_statements_are_comments(mm):
    script = ('from chill import *\nprocedure("normalMM")\n'
              '"""datacopy_privatized(0,"k",["a"])\nnot_a_command(1)\n"""\n'
              "'''\nskew(0,2,x)'''  # a docstring and a comment\n"
              '"a string on its own line"\n'
              'tile(0,2,16)\n')
    (mm / "s.py").write_text(script)
    rec = load_file(str(mm / "s.py"))
    assert [s.name for s in rec.steps] == ["tile"] and rec.steps[0].line == 9
    rc, out, err = _transform(mm, "s.py", script)
    assert rc == 0 and "for (int jj = 0;" in out, err
    # positions after a blanked block stay right
    rc, out, err = _transform(mm, "s2.py", script + '"""\n\n"""\nbogus(1)\n')
    _one_line_error(rc, err)
    assert err.startswith(f"{mm / 's2.py'}:13:1: error: unknown or unsupported command 'bogus'"), err
    rc, out, err = _transform(mm, "s3.py", 'procedure("normalMM")\n"""never closed\ntile(0,2,16)\n')
    _one_line_error(rc, err)
    assert err.startswith(f"{mm / 's3.py'}:2:1: error: unfinished string"), err


def test_lua_long_comments(mm):
    script = ('init("mm.c","normalMM",0)\n'
              '--[[\ncopy_to_Texture("b")\n--]]\n'
              '--[==[ a ]] inside\ncopy_to_Texture("a")\n]==]\n'
              'tile_by_index({"j"},{16},{l1_control="jj"},{"i","jj","j","k"}) --[[ inline ]] '
              'unroll(0,"k",2)\n')
    rc, out, err = _transform(mm, "c.lua", script)
    assert rc == 0 and "for (int jj = 0;" in out and "k += 2" in out, err
    rc, out, err = _transform(mm, "c2.lua", script + "--[[\n\n]]\nbogus(1)\n")
    _one_line_error(rc, err)
    assert err.startswith(f"{mm / 'c2.lua'}:12:1: error: unknown or unsupported command 'bogus'"), err
    rc, out, err = _transform(mm, "c3.lua", 'init("mm.c","normalMM",0)\n--[[ open\ntile(0,2,16)\n')
    _one_line_error(rc, err)
    assert err.startswith(f"{mm / 'c3.lua'}:2:1: error: unfinished Lua long comment"), err
    # a long string as a value stays unsupported, with a located message
    rc, out, err = _transform(mm, "c4.lua", 'init("mm.c","normalMM",0)\nK = [[\nkernel]]\n')
    _one_line_error(rc, err)
    assert err.startswith(f"{mm / 'c4.lua'}:2:5: error: Lua long strings [[...]] are not supported"), err
    # `--` followed by a digit is still arithmetic, and "--[[" in a string is no comment
    rec = parse_chill('tile(0,"i",8--1,"ii")\npragma(0,"i","--[[ii")\n', file="r.lua")
    assert dict(rec.steps[0].args)["size"] == 9 and dict(rec.steps[1].args)["text"] == "--[[ii"


def test_lua_and_python_literals(mm):
    rc, out, err = _transform(mm, "f.lua", 'init("mm.c","normalMM",0)\nR = nil\nF = {x=true}\n'
                              'tile(0,2,16,1)\ndatacopy(0,2,"a",false,1)\n', "-D", "N=64")
    assert rc == 0 and "a_buf" in out, err
    rec = parse_chill('X = false\nY = not true\nZ = {nil, True, None}\nunroll(0,"k",2)')
    assert [s.name for s in rec.steps] == ["unroll"]
    rc, out, err = _transform(mm, "f.py", 'from chill import *\nprocedure("normalMM")\n'
                              'tile(0,2,16,1)\ndatacopy(0,2,"a",False,1)\n'
                              'tile_by_index(["i"],[8],{"l1_control":"ii"},["ii","i","j","jj","k"], None)\n', "-D", "N=64")
    assert rc == 0 and "a_buf" in out and "for (int ii = 0;" in out, err


def test_debug_lines_are_ignored(mm):
    lua = ('init("mm.c","normalMM",0)\nTI = 16\n'
           'tile_by_index({"j"},{TI},{l1_control="jj"},{"i","jj","j","k"})\n'
           'cur = cur_indices(0)\nlocal n = num_statement()\ns = "at "..list_to_string(cur)\n'
           'print("Cur indices "..list_to_string(cur))\nprint(\n  "two", n\n)\nprint_code()\n'
           'unroll(0,"k",2)\n')
    rc, out, err = _transform(mm, "d.lua", lua)
    assert rc == 0 and "for (int jj = 0; jj <= (N - 1) / 16; jj++)" in out and "k += 2" in out, err
    rec = load_file(str(mm / "d.lua"))
    assert [s.name for s in rec.steps] == ["tile", "permute", "unroll"]
    py = ('from chill import *\nprocedure("normalMM")\nprint("tiling")\nprint "python 2", 3\n'
          'x = num_statement()\nprint(cur_indices(0))\ntile(0,2,16)\n')
    rc, out, err = _transform(mm, "d.py", py)
    assert rc == 0 and "for (int jj = 0;" in out, err
    # a value computed from an inspection call is refused where a command uses it
    rc, out, err = _transform(mm, "d2.lua", 'init("mm.c","normalMM",0)\nlvl = find_cur_level(0,"j")\n'
                              'm = lvl + 1\n\ntile(0,m,16)\n')
    _one_line_error(rc, err)
    assert err.startswith(f"{mm / 'd2.lua'}:5:1: error: 'm' holds the result of find_cur_level()"), err
    # commands that transform are not debug lines
    rc, out, err = _transform(mm, "d3.py", 'procedure("normalMM")\nprinted(0)\n')
    _one_line_error(rc, err)
    assert "unknown or unsupported command 'printed'" in err


def test_read_IR_names_the_procedure(mm):
    for head in ('read_IR("normalMM")', 'read_IR("mm.c","normalMM")', 'procedure("normalMM")',
                 'init("mm.c","normalMM",0)', 'init("normalMM")'):
        (mm / "r.py").write_text(f'{head}\ntile(0,2,16)\n')
        assert load_file(str(mm / "r.py")).procedure == "normalMM", head
        rc, out, err = cli("transform", mm / "mm.c", "--recipe", mm / "r.py")
        assert rc == 0 and "for (int jj = 0;" in out, (head, err)
    (mm / "r.py").write_text('read_IR("mm.c")\ntile(0,2,16)\n')
    assert load_file(str(mm / "r.py")).procedure is None       # a file name, not a function


def test_run_reports_the_script_error_as_transform_does(mm):
    bad = 'from chill import *\nprocedure("normalMM")\ntile(0,2,16)\n\nbogus(1)\n'
    (mm / "bad.py").write_text(bad)
    rc, out, want = cli("transform", mm / "mm.c", "--recipe", mm / "bad.py")
    _one_line_error(rc, want)
    assert want.startswith(f"{mm / 'bad.py'}:5:1: error: unknown or unsupported command 'bogus'")
    for target in ("c", "cuda"):
        rc, out, err = cli("run", mm / "mm.c", "--recipe", mm / "bad.py", "--target", target,
                           "-D", "N=8", "--repetitions", 1)
        assert (rc, err) == (2, want), (target, out, err)
    (mm / "ok.py").write_text('read_IR("normalMM")\nprint("x")\ntile(0,2,4)\n')
    _run_ok(mm, "ok.py", (9,))


def test_script_that_opens_with_a_docstring_or_long_comment(tmp_path):
    # the first line is not a command, so only the extension says it is a script, not YAML
    (tmp_path / "k.c").write_text("#define N 64\ndouble A[N];\nvoid k(void) {\n  int i;\n"
                                  "  for (i = 0; i < N; i++)\n    A[i] = A[i] * 2.0;\n}\n")
    (tmp_path / "doc.py").write_text('"""A CHiLL script\nwith a docstring."""\nfrom chill import *\n'
                                     "source('k.c')\nprocedure('k')\nloop(0)\ntile(0, \"i\", 4)\n")
    (tmp_path / "doc.lua").write_text('--[[ CUDA-CHiLL\nscript ]]\ninit("k.c", "k", 0)\n'
                                      'tile(0, "i", 4)\n')
    for script in ("doc.py", "doc.lua"):
        rc, out, err = cli("transform", tmp_path / "k.c", "--recipe", tmp_path / script)
        assert rc == 0 and out.count("for (") == 2, err


@pytest.mark.parametrize("script,name", [
    ("from chill import *\nsource('mm.c')\nprocedure('normalMM')\nloop(1)\nunroll(0,2,4)\n", "mm.py"),
    ('init("mm.c","normalMM",1)\nunroll(0,2,4)\n', "mm.lua"),
])
def test_a_loop_nest_the_procedure_lacks_is_refused_not_replaced_by_the_first(mm, script, name):
    """CHiLL numbers statements within the nest loop(N) picks (test_probe31 runs several); the
    script used to transform the first nest instead, with exit 0."""
    (mm / name).write_text(script)
    rc, out, err = cli("transform", mm / "mm.c", "--recipe", mm / name)
    # the error is at the loop(N) (or init) that picks the nest (probe 107 G8)
    line = 4 if name == "mm.py" else 1
    assert rc == 2 and err.count("\n") == 1 and err.startswith(f"{mm / name}:{line}: error: "), err
    assert "loop(1): there are 1 loop nest(s) here, numbered from 0" in err, err
    (mm / name).write_text(script.replace("loop(1)", "loop(0)").replace('",1)', '",0)'))
    rc, out, err = cli("transform", mm / "mm.c", "--recipe", mm / name)
    assert rc == 0, err


SHIFTED = """#include <stdio.h>
#ifndef N
#define N 50
#endif
void k(int n, double a[N][N], double b[N][N])
{
  int i, j;
  for (i = 1; i < n; i++)
    for (j = i; j < n - 1; j++)
      a[i][j] = b[i - 1][j] + 2.0 * b[i][j + 1];
}
int main(void)
{
  static double a[N][N], b[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      b[i][j] = (i * 3 + j) % 7;
      a[i][j] = -1;
    }
  k(N, a, b);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      printf("%g\\n", a[i][j]);
  return 0;
}
"""


def _program_output(src, size):
    exe = src.with_suffix(f".{size}")
    subprocess.run(["gcc", "-O1", f"-DN={size}", str(src), "-o", str(exe)], check=True)
    return subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout


@pytest.mark.parametrize("name,text,start", [
    ("r.py", "from chill import *\nsource('k.c')\nprocedure('k')\nloop(0)\nshift_to(0, 1, 0)\n", 0),
    ("r.lua", 'init("k.c","k",0)\nshift_to(0,"i",7)\n', 7),
    ("r.yaml", "steps:\n  - shift_to: {stmt: 0, loop: i, to: -3}\n", -3),
])
def test_shift_to_starts_the_loop_where_the_script_says(tmp_path, name, text, start):
    (tmp_path / "k.c").write_text(SHIFTED)
    (tmp_path / name).write_text(text)
    out = tmp_path / "out.c"
    rc, _, err = cli("transform", tmp_path / "k.c", "--recipe", tmp_path / name, "--function", "k", "-o", out)
    assert rc == 0, err
    assert f"for (i = {start}; " in out.read_text()   # the function's own i, as CHiLL
    for size in (50, 7, 2):
        assert _program_output(out, size) == _program_output(tmp_path / "k.c", size)


def test_shift_to_of_a_loop_without_one_start_is_a_located_error(tmp_path):
    """j starts at i: no one shift makes it start at 0 (CHiLL would need a skew as well)."""
    (tmp_path / "k.c").write_text(SHIFTED)
    (tmp_path / "r.py").write_text("from chill import *\nsource('k.c')\nprocedure('k')\nloop(0)\n"
                                   "shift_to(0, 2, 0)\n")
    rc, _, err = cli("transform", tmp_path / "k.c", "--recipe", tmp_path / "r.py")
    _one_line_error(rc, err)
    assert err.startswith(f"{tmp_path / 'r.py'}:5: step 1 (shift_to): error: shift_to: loop 'j' does not "
                          "start at one value in every iteration of the loops around it"), err


def _datacopy_script(refs: str) -> str:
    return ("from chill import *\nsource('mm.c')\nprocedure('normalMM')\nloop(0)\n"
            f"tile(0,2,16)\ndatacopy({refs},3,False,-1,1,4,0)\n")


@pytest.mark.parametrize("refs, array", [("[(0,[2])]", "a"), ("[(0,[3])]", "b"),
                                         ("[(0,[0,1])]", "c")])
def test_datacopy_of_chill_reference_numbers(mm, refs, array):
    """CHiLL numbers a statement's references as its front end finds them: the written one, then
    the reads left to right (`c = c + a*b`: 0 c, 1 c, 2 a, 3 b)."""
    (mm / "r.py").write_text(_datacopy_script(refs))
    rc, out, err = cli("transform", mm / "mm.c", "--recipe", mm / "r.py", "-D", "N=64")
    assert rc == 0, err
    assert f"{array}_buf" in out and not any(f"{x}_buf" in out for x in "abc" if x != array), out
    _run_ok(mm, "r.py", (64, 37))


@pytest.mark.parametrize("refs, message", [
    ("[(0,[1,2])]", "step 2 (datacopy): error: the references name several arrays (a, c)"),
    ("[(0,[0])]", "step 2 (datacopy): error: datacopy of some of the references of 'c' only: "
                  "looptx copies every reference of an array (add reference 1)"),
    ("[(0,[4])]", "step 2 (datacopy): error: statement 0 has no array reference 4 (it has 4: "
                  "0 c, 1 c, 2 a, 3 b)"),
])
def test_datacopy_reference_numbers_that_name_no_one_whole_array_are_located(mm, refs, message):
    (mm / "r.py").write_text(_datacopy_script(refs))
    rc, _, err = cli("transform", mm / "mm.c", "--recipe", mm / "r.py", "-D", "N=64")
    _one_line_error(rc, err)
    assert err.startswith(f"{mm / 'r.py'}:6: {message}"), err


SPLIT_AT_PARAM = """#include <stdio.h>
#ifndef N
#define N 50
#endif
/*@ begin PerfTuning (
  def performance_params { param S[] = [5, 13]; }
) @*/
void k(int n, double a[N], double b[N])
{
  int i;
  /*@ begin CHiLL ( split(0,"i","L1 < S") ) @*/
  for (i = 1; i < n; i++)
    a[i] = a[i - 1] * 0.5 + b[i];
  /*@ end @*/
}
/*@ end @*/
int main(void)
{
  static double a[N], b[N];
  for (int i = 0; i < N; i++) { a[i] = i % 3; b[i] = (i * 7) % 5; }
  k(N, a, b);
  for (int i = 0; i < N; i++) printf("%g\\n", a[i]);
  return 0;
}
"""


@pytest.mark.parametrize("s", [5, 13])
def test_a_performance_param_inside_a_split_condition_has_its_value(tmp_path, s):
    """CHiLL's split(0,"i","L1 < S") with S a performance param (once: "'S' in 'at' is neither a
    loop nor a parameter")."""
    src = tmp_path / "k.c"
    src.write_text(SPLIT_AT_PARAM)
    out = tmp_path / "out.c"
    rc, _, err = cli("transform", src, "-D", f"S={s}", "-o", out)
    assert rc == 0, err
    assert f"at: L1 < {s}}}" in out.read_text() and f"for (i = {s}; i < n; i++)" in out.read_text()
    for size in (50, 9, 2):
        assert _program_output(out, size) == _program_output(src, size)


def test_rename_index_names_the_loop_for_later_commands(tmp_path):
    (tmp_path / "k.c").write_text(SHIFTED)
    base = "from chill import *\nsource('k.c')\nprocedure('k')\nloop(0)\n"
    (tmp_path / "a.py").write_text(base + 'rename_index(0, "j", "col")\ntile(0, "col", 8, "cc")\nunroll(0, "col", 2)\n')
    (tmp_path / "b.py").write_text(base + 'tile(0, "j", 8, "cc")\nunroll(0, "j", 2)\n')
    outs = []
    for name in ("a.py", "b.py"):
        out = tmp_path / f"{name}.c"
        rc, _, err = cli("transform", tmp_path / "k.c", "--recipe", tmp_path / name, "-o", out)
        assert rc == 0, err
        outs.append(out.read_text().split("*/", 1)[1])
    assert outs[0] == outs[1] and "cc" in outs[0]
    rc, _, err = cli("transform", tmp_path / "k.c", "--recipe", tmp_path / "a.py")
    assert f"{tmp_path / 'a.py'}:5: note: rename_index: later commands name loop 'j' as 'col'; the output keeps 'j'" in err, err
    (tmp_path / "s.py").write_text(base + 'tile(0, "j", 8, "cc")\nadd_sync(0, "cc")\nunroll(0, "j", 2)\n')
    rc, out, err = cli("transform", tmp_path / "k.c", "--recipe", tmp_path / "s.py")
    assert rc == 0 and out.split("*/", 1)[1] == outs[1], err
    assert f"{tmp_path / 's.py'}:6: note: add_sync is not needed" in err, err


@pytest.mark.parametrize("line, message", [
    ('rename_index(0, "j")', "rename_index takes (statement, old loop name, new loop name)"),
    ('add_sync(0)', "add_sync takes (statement, loop)"),
    ('tile(0, "i", 8, "ii")\nrename_index(0, "j", "ii")', "the name 'ii' is already a loop's")])
def test_rename_index_and_add_sync_arguments_are_checked(tmp_path, line, message):
    (tmp_path / "k.c").write_text(SHIFTED)
    (tmp_path / "r.py").write_text(f"from chill import *\nsource('k.c')\nprocedure('k')\nloop(0)\n{line}\n")
    rc, _, err = cli("transform", tmp_path / "k.c", "--recipe", tmp_path / "r.py")
    _one_line_error(rc, err)
    assert err.startswith(f"{tmp_path / 'r.py'}:{4 + len(line.splitlines())}:") and message in err, err


MM_MAIN = MM + """#include <stdio.h>
int main(void)
{
  static float a[N][N], b[N][N], c[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      a[i][j] = (i * 3 + j) % 7;
      b[i][j] = (i + 2 * j) % 5;
      c[i][j] = (i * j) % 3;
    }
  normalMM(c, a, b);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      printf("%g\\n", c[i][j]);
  return 0;
}
"""

TWICE_TILED = """init("mm.c", "normalMM", 0)
N=1024
tile_by_index({"i","j"}, {32,64}, {l1_control="ii", l2_control="jj"}, {"ii", "jj", "i", "j", "k"})
tile_by_index({"i"}, {64}, {l1_control="ty",l1_tile="tx"}, {"ii", "jj", "tx", "ty", "j", "k"})
cudaize("mm_GPU", {a=N*N, b=N*N, c=N*N}, {block={"ii","jj"}, thread={"tx","ty"}})
"""


def test_a_guard_with_a_division_names_the_right_block_index(tmp_path):
    """i tiled by 32 and then by 64: the guard i < N reads bx % 2.  isl wrote `ty % 2` (the
    context's parameter at the schedule's position of bx) until the two were aligned, and half
    of the blocks did nothing; the code for a fixed N did not show it."""
    (tmp_path / "mm.c").write_text(MM_MAIN)
    (tmp_path / "r.lua").write_text(TWICE_TILED)
    out = tmp_path / "out.c"
    rc, _, err = cli("transform", tmp_path / "mm.c", "--recipe", tmp_path / "r.lua", "-o", out)
    assert rc == 0, err
    assert "32 * (bx % 2) + N > tx + 32 * bx" in out.read_text()
    for size in (64, 48, 100):
        assert _program_output(out, size) == _program_output(tmp_path / "mm.c", size)
    rc, _, err = cli("transform", tmp_path / "mm.c", "--recipe", tmp_path / "r.lua", "--target", "cuda",
                     "-o", tmp_path / "out.cu")
    assert rc == 0 and "32 * (bx % 2) + N > tx + 32 * bx" in (tmp_path / "out.cu").read_text(), err


@pytest.mark.parametrize("name", ["mm.script", "mm.chill"])
def test_the_classic_script_header_is_read_as_chill_does(mm, name):
    """CHiLL's test-suite scripts open with `source: mm.c` / `procedure: normalMM` / `loop: 0`
    (once read as YAML: "could not find expected ':'")."""
    (mm / name).write_text("source: mm.c\nprocedure: normalMM\nformat: rose\nloop: 0\n\n"
                           "tile(0,2,16)\nunroll(0,3,4)\n")
    (mm / "calls.py").write_text('source("mm.c")\nprocedure("normalMM")\nloop(0)\ntile(0,2,16)\nunroll(0,3,4)\n')
    texts = []
    for script in (name, "calls.py"):
        rc, out, err = cli("transform", mm / "mm.c", "--recipe", mm / script)
        assert rc == 0, err
        texts.append(out.split("*/", 1)[1])
    assert texts[0] == texts[1] and "jj" in texts[0]
    _run_ok(mm, name, (40, 37))
    (mm / "bad.script").write_text("source: mm.c\nprocedure: normalMM\nloop: 0\ntile(0,2)\n")
    rc, _, err = cli("transform", mm / "mm.c", "--recipe", mm / "bad.script")
    _one_line_error(rc, err)
    assert err.startswith(f"{mm / 'bad.script'}:4:"), err
