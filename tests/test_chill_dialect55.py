"""CHiLL dialect gaps of probe 107: statement lists act on every listed statement (once), tile3
and the Lua API's tile move a loop, CHiLL's long tile ignores only its alignment, Lua tables
count from 1, datacopy_privatized / coalesce / unsupported commands / control flow get their
meaning or a message, and a .chill file is always read as a script.  Each dialect script is
compared with its YAML equal through the command line, and validated with `looptx run`."""
import pytest
from conftest import run_cli as cli

MM = """#define N 64
void mm(double A[N][N], double B[N][N], double C[N][N]) {
  int i, j, k;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        C[i][j] = C[i][j] + A[i][k] * B[k][j];
#pragma endscop
}
"""

# two nests inside t: statement 0 and statement 1 have loops i and j of their own
JAC = """#define T 6
#define N 20
void jac(double A[N][N], double B[N][N]) {
  int t, i, j;
#pragma scop
  for (t = 0; t < T; t++) {
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j-1] + A[i][j+1] + A[i+1][j] + A[i-1][j]);
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        A[i][j] = B[i][j];
  }
#pragma endscop
}
"""

# one nest that holds both statements
TWO = """#define N 24
void two(double A[N][N], double B[N][N]) {
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      A[i][j] = A[i][j] * 2.0;
      B[i][j] = B[i][j] + A[i][j];
    }
#pragma endscop
}
"""


@pytest.fixture
def src(tmp_path):
    for name, text in (("mm.c", MM), ("jac.c", JAC), ("two.c", TWO)):
        (tmp_path / name).write_text(text)
    return tmp_path


def _body(out: str) -> str:
    assert out.startswith("/*") and " */\n" in out, out[:200]
    return out.split(" */\n", 1)[1]


def _transform(folder, kernel, name, text, *extra):
    (folder / name).write_text(text)
    return cli("transform", folder / kernel, "--recipe", folder / name, *extra)


def _same(folder, kernel, script, text, yaml, *extra):
    """The script's output equals the YAML recipe's below the header; the script's output and
    stderr are returned."""
    rc, out, err = _transform(folder, kernel, script, text, *extra)
    assert rc == 0, err
    rc2, want, err2 = _transform(folder, kernel, script + ".yaml", yaml, *extra)
    assert rc2 == 0, err2
    assert _body(out) == _body(want), (out, want)
    return out, err


def _valid(folder, kernel, script, *extra):
    rc, out, err = cli("run", folder / kernel, "--recipe", folder / script, "--repetitions", 1, *extra)
    assert rc == 0 and ": ok " in out, out + err


def _refused(rc, err, *words):
    assert rc == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    for w in words:
        assert w in err, err


# ---- G1: a statement list acts on every listed statement --------------------------------

@pytest.mark.parametrize("name,text,yaml,order", [
    ("p.chill", "permute([0,1],[1,3,2])\n",
     "steps:\n  - permute: {stmt: 0, order: [t, j, i]}\n  - permute: {stmt: 1, order: [t, j, i]}\n", "tji"),
    ("r.chill", "reverse([0,1],3)\n",
     "steps:\n  - reverse: {stmt: 0, loop: j}\n  - reverse: {stmt: 1, loop: j}\n", "tij"),
    ("s.chill", "skew([0,1],3,[0,1,1])\n",
     "steps:\n  - skew: {stmt: 0, loop: j, by: {i: 1}}\n  - skew: {stmt: 1, loop: j, by: {i: 1}}\n", "tij"),
    ("c.chill", "scale([0,1],3,2)\n",
     "steps:\n  - scale: {stmt: 0, loop: j, by: 2}\n  - scale: {stmt: 1, loop: j, by: 2}\n", "tij"),
])
def test_a_statement_list_transforms_each_nest(src, name, text, yaml, order):
    out, _ = _same(src, "jac.c", name, text, yaml)
    step = text.split("(")[0]
    # both statements' steps are applied and shown, none is dropped
    assert f"{step}: {{stmt: 0" in out and f"{step}: {{stmt: 1" in out and "# " + step not in out, out
    body = _body(out)
    if order == "tji":
        # each nest now runs j outside i
        assert body.count("for (j = 1;") == 2 and body.index("for (j = 1;") < body.index("for (i = 1;"), body
    _valid(src, "jac.c", name)


@pytest.mark.parametrize("text,yaml", [
    ("permute([0,1],[2,1])\n", "steps:\n  - permute: {stmt: 0, order: [j, i]}\n"),
    ("reverse([0,1],2)\n", "steps:\n  - reverse: {stmt: 0, loop: j}\n"),
    ("permute([1,0],(\"j\",\"i\"))\n", "steps:\n  - permute: {stmt: 1, order: [j, i]}\n"),
])
def test_statements_of_one_nest_are_transformed_once(src, text, yaml):
    out, err = _same(src, "two.c", "one.chill", text, yaml)
    body = _body(out)
    if "permute" in text:
        assert body.index("for (j = ") < body.index("for (i = "), body
    else:
        # reversed once, not twice (which would give back the loop as written)
        assert "for (j = N - 1; j >= 0; j--)" in body, body
    first, second = (0, 1) if "[0,1]" in text else (1, 0)
    if "[2,1]" in text or "reverse" in text:
        # the header shows the second statement's step with the statement listed before it, so
        # that given again it is passed over again
        assert f"{text.split('(')[0]}: {{stmt: {second}" in out and f"listed_after: [{first - second}]" in out, out
        assert f"statement {second} is inside loop" in err and f"with statement {first}, which the same command " \
            "listed before it" in err, err
    _valid(src, "two.c", "one.chill")


@pytest.mark.parametrize("text,name", [("unroll([0,1],3,2)\n", "unroll"), ("split([0,1],3,\"L3 < 5\")\n", "split"),
                                       ("peel([0,1],3)\n", "peel"), ("datacopy([0,1],3,\"A\")\n", "datacopy"),
                                       ("tile([0,1],3,4)\n", "tile")])
def test_a_list_for_a_one_statement_command_is_refused(src, text, name):
    rc, out, err = _transform(src, "jac.c", "u.chill", text)
    _refused(rc, err, f"u.chill:1:1: error: {name} takes one statement, got the list [0,1]",
             f"write one {name} command for each statement")


def test_a_one_element_list_is_its_statement(src):
    _same(src, "jac.c", "one.chill", "unroll([1],3,2)\n",
          "steps:\n  - unroll: {stmt: 1, loop: j, factor: 2}\n")


# ---- G2 / G4: tile3, the Lua API's tile, CHiLL's long tile -------------------------------

MOVE = "steps:\n  - tile: {stmt: 0, loop: 3, size: 1, outer: 2, moved: true}\n"


@pytest.mark.parametrize("name,text", [
    ("t3.chill", "tile3(0,3,2)\n"),
    ("t3.py", "from chill import *\nsource('mm.c')\nprocedure('mm')\nloop(0)\ntile3(0,3,2)\n"),
    ("w1.lua", 'init("mm.c","mm",0)\ndofile("cudaize.lua")\ntile(0,3,2)\n'),
    ("w4.lua", 'init("mm.c","mm",0)\ntile(0,3,2,counted)\n'),
])
def test_tile3_and_lua_tile_move_the_loop(src, name, text):
    out, _ = _same(src, "mm.c", name, text, MOVE)
    body = _body(out)
    # k moved to level 2: i, k, j (k keeps its name, as CUDA-CHiLL's tile_cuda renames), no tile of 2
    assert body.index("for (i = 0;") < body.index("for (k = 0; k < N; k++)") < body.index("for (j = 0;"), body
    assert "kk + 1" not in body and "2 * kk" not in body, body
    _valid(src, "mm.c", name)


@pytest.mark.parametrize("name,text", [("c.chill", "tile(0,2,16)\n"), ("c.py", "procedure('mm')\ntile(0,2,16)\n")])
def test_classic_three_argument_tile_still_tiles(src, name, text):
    out, _ = _same(src, "mm.c", name, text, "steps:\n  - tile: {stmt: 0, loop: 2, size: 16, outer: 1}\n")
    body = _body(out)
    # tiled by 16 with the control loop outermost, not a move of j to level 16
    assert body.index("for (int jj = 0; jj <= (N - 1) / 16; jj++)") < body.index("for (i = 0;"), out
    assert "16 * jj + 15" in body, out


@pytest.mark.parametrize("name,text,tail", [
    ("r38.chill", "tile(0,2,16,1,counted,0)\n", "align_offset 0"),
    ("r39.chill", "tile(0,2,16,1,strided,0,1)\n", "align_offset 0, align_multiple 1"),
    ("r40.py", "from chill import *\nsource('mm.c')\nprocedure('mm')\nloop(0)\ntile(0,2,16,1,strided,0,1)\n",
     "align_offset 0, align_multiple 1"),
])
def test_chill_long_tile_ignores_only_its_alignment(src, name, text, tail):
    out, err = _same(src, "mm.c", name, text, "steps:\n  - tile: {stmt: 0, loop: 2, size: 16, outer: 1}\n")
    assert f"tile's alignment arguments ({tail}) are not used" in err, err
    assert "jj" in _body(out)
    _valid(src, "mm.c", name)


def test_lua_long_tile_names_the_control_loop(src):
    _same(src, "mm.c", "w2.lua", 'init("mm.c","mm",0)\ntile(0,1,16,1,"i","ii",counted)\n',
          "steps:\n  - tile: {stmt: 0, loop: 1, size: 16, control: ii, outer: 1}\n")


def test_too_many_tile_arguments_name_chill_s_signature(src):
    rc, out, err = _transform(src, "mm.c", "x.chill", "tile(0,2,16,1,0,0,1,5)\n")
    _refused(rc, err, "tile takes at most 7 arguments (statement, level, size, outer level, method, "
                      "alignment offset, alignment multiple), got 8")


# ---- G3: Lua tables count from 1 ------------------------------------------------------

def test_lua_subscripts_count_from_one(src):
    _same(src, "mm.c", "v7.lua", 'init("mm.c","mm",0)\nlocal sizes = {16, 8}\n'
          'tile(0,1,sizes[1],1,"i","ii",counted)\nlocal u = sizes[2] - 6\nunroll(0,3,u)\n',
          "steps:\n  - tile: {stmt: 0, loop: 1, size: 16, control: ii, outer: 1}\n"
          "  - unroll: {stmt: 0, loop: 3, factor: 2}\n")
    _valid(src, "mm.c", "v7.lua")


def test_python_subscripts_count_from_zero(src):
    _same(src, "mm.c", "v7.py", "from chill import *\nprocedure('mm')\nsizes = [16, 8]\ntile(0,1,sizes[1])\n",
          "steps:\n  - tile: {stmt: 0, loop: 1, size: 8, outer: 1}\n")


def test_lua_subscript_zero_is_refused(src):
    rc, out, err = _transform(src, "mm.c", "z.lua", 'init("mm.c","mm",0)\nsizes = {16, 8}\n'
                              'tile(0,1,sizes[0],1,"i","ii",counted)\n')
    _refused(rc, err, "z.lua:3:", "'sizes[0]': a Lua table of 2 values has indices 1..2", "count from 1")


# ---- G5: datacopy_privatized, coalesce, unsupported commands, control flow ---------------

@pytest.mark.parametrize("spelling", ["datacopy_privatized", "datacopy_privitized", "datacopy_privatised"])
def test_datacopy_privatized_is_a_datacopy(src, spelling):
    _same(src, "mm.c", "d.chill", f'{spelling}(0,3,"B",[1,2])\n', 'steps:\n  - datacopy: {stmt: 0, at: 3, '
          'array: B, around: true}\n')
    # the copy's own level held fixed: a copy in each of its iterations
    out, _ = _same(src, "mm.c", "d2.chill", f'{spelling}(0,3,"B",[3])\n',
                   "steps:\n  - datacopy: {stmt: 0, at: 3, array: B}\n")
    assert "B_buf" in out
    _valid(src, "mm.c", "d2.chill")


def test_datacopy_privatized_inside_the_copy_is_refused_with_what_to_write(src):
    rc, out, err = _transform(src, "mm.c", "d.chill", 'datacopy_privatized(0,2,"B",[3])\n')
    _refused(rc, err, "d.chill:1: step 1 (datacopy): error: the privatized loop 'k' inside the copy's loop ('j') "
                      "cannot be honoured", 'write datacopy(0,"k","B")', 'or datacopy(0,"j","B")')
    assert "privatize'" not in err


def test_coalesce_is_combine(src):
    out, err = _same(src, "two.c", "c.chill", 'coalesce(0,"ij",[1,2],"insp")\n',
                     "steps:\n  - combine: {stmt: 0, loops: [i, j], name: ij}\n")
    assert "for (int ij = 0;" in out and "inspector ('insp') is not used" in err
    _same(src, "two.c", "c2.chill", 'coalesce(0,"i","j")\n', "steps:\n  - coalesce: {stmt: 0, loops: [i, j]}\n")
    _valid(src, "two.c", "c.chill")


@pytest.mark.parametrize("cmd", ["remove_dep(0,1)", 'prefetch(0,2,"A",1)', 'scalar_expand(0,[1],"A",0,0)',
                                 "split_with_alignment(0,2,4)", "stencil_temp(0)",
                                 'make_dense(0,2,"k")'])
def test_commands_looptx_lacks_say_so(src, cmd):
    rc, out, err = _transform(src, "mm.c", "n.chill", 'tile(0,2,16)\n' + cmd + "\n")
    _refused(rc, err, f"n.chill:2:1: error: not supported by looptx: {cmd.split('(')[0]}")
    assert "did you mean" not in err


def test_inspection_calls_are_skipped(src):
    _same(src, "mm.c", "i.lua", 'init("mm.c","mm",0)\nb = block_indices()\nthread_dims()\n'
          'hard_loop_bounds(0,1)\ntile(0,1,16,1,"i","ii",counted)\n',
          "steps:\n  - tile: {stmt: 0, loop: 1, size: 16, control: ii, outer: 1}\n")


@pytest.mark.parametrize("name,text,line,word", [
    ("v4.py", "from chill import *\nprocedure('mm')\nfor s in [0]:\n    tile(s,1,16)\n", 3, "for"),
    ("v5.py", "from chill import *\nprocedure('mm')\nTI = 16\nif TI > 1:\n    tile(0,1,TI)\n", 4, "if"),
    ("v6.lua", 'init("mm.c","mm",0)\nfor s = 0, 1 do\n  tile(s,1,16)\nend\n', 2, "for"),
])
def test_control_flow_in_a_script_is_refused(src, name, text, line, word):
    rc, out, err = _transform(src, "mm.c", name, text)
    _refused(rc, err, f"{name}:{line}:1: error: '{word}' in a script: looptx runs no control flow in scripts")


# ---- G6: a .chill file is a script whatever its first lines ------------------------------

@pytest.mark.parametrize("text", ['--[[\n  mm, tiled for the L1 cache\n]]\ntile(0,"i",16,"ii")\n',
                                  '"""Tile mm for the L1 cache."""\ntile(0,"i",16,"ii")\n',
                                  '"""Tile mm\nfor the L1 cache.\n"""\n\ntile(0,"i",16,"ii")\n'])
def test_a_chill_file_opening_with_a_comment_block_is_a_script(src, text):
    _same(src, "mm.c", "g.chill", text, "steps:\n  - tile: {stmt: 0, loop: i, size: 16, control: ii}\n")


@pytest.mark.parametrize("text,words", [('# bad\n"unterminated\n', "g.chill:2:1: error: syntax error in command"),
                                        ("# bad\n[1,2]\n", "g.chill:2:1: error: '[1,2]' is not a command"),
                                        ("# bad\nx = \n", "g.chill:2:1: error:")])
def test_malformed_chill_first_lines_get_dialect_messages(src, text, words):
    rc, out, err = _transform(src, "mm.c", "g.chill", text)
    _refused(rc, err, words)
    assert "YAML" not in err and "params:" not in err, err
