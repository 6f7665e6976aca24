"""Findings of a probe with scripts written by others: malformed CHiLL-dialect arguments that
were accepted silently (a misspelled tile_by_index key, a comma closing a Lua call's argument
list, a keyword no command takes), and a step naming a loop that an earlier full unroll
removed, which said "no loop named 'k'" without saying why.  Each is one located line, exit 2;
what Lua accepts (a trailing table separator) still transforms."""
import pytest
from conftest import run_cli as cli

from looptx.errors import RecipeError
from looptx.recipe.chill import parse_chill

MM = """#define N 64
void mm(float c[N][N], float a[N][N], float b[N][N]) {
  int i, j, k;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < 4; k++)
        c[i][j] = c[i][j] + a[i][k] * b[k][j];
#pragma endscop
}
"""


def transform(tmp_path, name, script, *extra):
    (tmp_path / "mm.c").write_text(MM)
    (tmp_path / name).write_text(script)
    return cli("transform", tmp_path / "mm.c", "--recipe", tmp_path / name, *extra)


def one_error(err: str, where: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(where), err
    assert "Traceback" not in err
    return lines[0]


def test_misspelled_tile_by_index_key(tmp_path):
    rc, out, err = transform(tmp_path, "t.lua", 'init("mm.c", "mm", 0)\nTI=16\nTJ=16\n'
                             'tile_by_index(0,{"i","j"},{TI,TJ},{l1_controll="ii", l1_control="jj"},'
                             '{"ii","jj","i","j"})\n')
    assert rc == 2 and out == ""
    line = one_error(err, f"{tmp_path / 't.lua'}:4:36: error: ")
    assert "unknown key 'l1_controll' in tile_by_index (did you mean 'l1_control'?)" in line
    assert "l1_control, l2_control, l1_tile, l2_tile" in line


def test_python_tile_by_index_key_typo(tmp_path):
    rc, _, err = transform(tmp_path, "t.py", 'from chill import *\nread_IR("mm.c","mm")\n'
                           "tile_by_index([\"i\"],[16],{'l1_contrl':\"ii\"},[\"ii\",\"i\",\"j\",\"k\"], None)\n")
    assert rc == 2
    line = one_error(err, f"{tmp_path / 't.py'}:3:27: error: ")
    assert "unknown key 'l1_contrl'" in line and "did you mean 'l1_control'?" in line


def test_key_for_a_loop_not_tiled(tmp_path):
    rc, _, err = transform(tmp_path, "t.lua", 'init("mm.c", "mm", 0)\n'
                           'tile_by_index(0,{"i"},{16},{l2_control="x"},{"ii","i","j","k"})\n')
    assert rc == 2
    line = one_error(err, f"{tmp_path / 't.lua'}:2:29: error: ")
    assert "'l2_control'" in line and "only 1 loop is tiled" in line
    assert "accepted keys: l1_control, l1_tile" in line


def test_list_in_place_of_the_names_table(tmp_path):
    rc, _, err = transform(tmp_path, "t.lua", 'init("mm.c", "mm", 0)\n'
                           'tile_by_index(0,{"i"},{16},{"ii","i","j","k"})\n')
    assert rc == 2
    assert "table of new loop names" in one_error(err, f"{tmp_path / 't.lua'}:2:1: error: ")


@pytest.mark.parametrize("script, where, callee", [
    ('init("mm.c", "mm", 0)\ntile(0,2,32,)\n', "2:12", "tile"),
    ('permute(0,{"j","i","k"},)\n', "1:24", "permute"),
    # a command over several lines: the comma is located where it is written
    ('init("mm.c", "mm", 0)\ntile_by_index(0,{"i","j"},{16,16},\n   {l1_control="ii", l2_control="jj"},\n'
     '   {"ii","jj","i","j","k"},\n)\n', "4:27", "tile_by_index"),
])
def test_comma_ending_a_lua_call(tmp_path, script, where, callee):
    rc, out, err = transform(tmp_path, "t.lua", script)
    assert rc == 2 and out == ""
    line = one_error(err, f"{tmp_path / 't.lua'}:{where}: error: ")
    assert f"a comma ends the argument list of {callee}(...)" in line
    assert "remove the comma" in line


@pytest.mark.parametrize("table", ['{"j","i","k",}', '{"j";"i";"k";}', '{"j", "i", "k" ; }'])
def test_lua_table_trailing_separator_is_accepted(tmp_path, table):
    rc, want, err = transform(tmp_path, "plain.lua", 'init("mm.c", "mm", 0)\npermute(0,{"j","i","k"})\n')
    assert rc == 0, err
    rc, out, err = transform(tmp_path, "t.lua", f'init("mm.c", "mm", 0)\npermute(0,{table})\n')
    assert rc == 0, err
    body = out[out.index("#define"):]
    assert body == want[want.index("#define"):]
    assert body.index("for (j") < body.index("for (i") < body.index("for (k")


def test_lua_names_table_trailing_separator_is_accepted(tmp_path):
    rc, out, err = transform(tmp_path, "t.lua", 'init("mm.c", "mm", 0)\n'
                             'tile_by_index(0,{"i",},{16,},{l1_control="ii",},{"ii","i","j","k",})\n')
    assert rc == 0, err
    assert "for (int ii" in out


def test_python_call_trailing_comma_is_python(tmp_path):
    """Python CHiLL runs `tile(0,"i",16,"ii",)`: Python's grammar takes the comma."""
    rc, want, _ = transform(tmp_path, "plain.py", 'tile(0,"i",16,"ii")\n')
    rc2, out, err = transform(tmp_path, "t.py", 'tile(0,"i",16,"ii",)\n')
    assert rc == rc2 == 0, err
    assert out[out.index("#define"):] == want[want.index("#define"):]
    # ... and a missing argument behind it is still named
    rc, _, err = transform(tmp_path, "short.py", "tile(0,2,)\n")
    assert rc == 2 and "tile needs 3 arguments" in one_error(err, str(tmp_path / "short.py"))


def test_keyword_no_command_takes(tmp_path):
    rc, _, err = transform(tmp_path, "t.py", 'tile(0,"i",32,control="ii")\n')
    assert rc == 2
    line = one_error(err, f"{tmp_path / 't.py'}:1:15: error: ")
    assert "tile takes no keyword argument 'control='" in line


def test_unknown_keys_of_cuda_mappings():
    with pytest.raises(RecipeError) as e:
        parse_chill('cudaize("k_GPU",{a=64},{block={"i"},thred={"j"}})', file="r.lua")
    assert str(e.value).startswith("r.lua:1:37: error: unknown key 'thred' in cudaize's mapping table "
                                   "(did you mean 'thread'?)")
    with pytest.raises(RecipeError) as e:
        parse_chill('cuda(0,block={"i"},threads={"j"})', file="r.chill")
    assert str(e.value).startswith("r.chill:1:20: error: unknown keyword 'threads' in cuda "
                                   "(did you mean 'thread'?)")


@pytest.mark.parametrize("name, script, where", [
    ("r.py", 'unroll(0,"k",0)\npermute(0,["j","i","k"])\n', "2: step 2 (permute)"),
    # a factor at least the trip count unrolls fully too
    ("r.py", 'unroll(0,"k",8)\ntile(0,"k",2,"kk")\n', "2: step 2 (tile)"),
    ("r.lua", 'init("mm.c", "mm", 0)\nunroll(0,"k",0)\nunroll(0,"k",2)\n', "3: step 2 (unroll)"),
    ("r.yaml", "steps:\n  - unroll: {stmt: 0, loop: k, factor: 0}\n  - tile: {stmt: 0, loop: k, size: 2}\n",
     "3: step 2 (tile)"),
])
def test_loop_removed_by_full_unroll(tmp_path, name, script, where):
    rc, out, err = transform(tmp_path, name, script)
    assert rc == 2 and out == ""
    line = one_error(err, f"{tmp_path / name}:{where}: error: ")
    assert "no loop named 'k'" in line
    assert "step 1 (unroll) removed it (full unroll)" in line
    assert "order the steps so that this one comes before step 1" in line


def test_level_after_full_unroll(tmp_path):
    rc, _, err = transform(tmp_path, "r.py", "unroll(0,3,0)\ntile(0,3,2)\n")
    assert rc == 2
    line = one_error(err, f"{tmp_path / 'r.py'}:2: step 2 (tile): error: ")
    assert "no loop level 3" in line and "step 1 (unroll) removed loop 'k' by a full unroll" in line


def test_misspelled_loop_after_full_unroll_is_only_misspelled(tmp_path):
    rc, _, err = transform(tmp_path, "r.yaml", "steps:\n  - unroll: {stmt: 0, loop: k, factor: 0}\n"
                                               "  - tile: {stmt: 0, loop: q, size: 2}\n")
    assert rc == 2
    line = one_error(err, f"{tmp_path / 'r.yaml'}:3: step 2 (tile): error: ")
    assert "no loop named 'q'" in line and "removed" not in line
