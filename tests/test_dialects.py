"""The YAML recipe and the CHiLL/Orio/TCR dialect give identical code; bad recipes give one
located line and exit 2."""
import re
from pathlib import Path

import pytest

from conftest import cli_process
from difftest import KERNELS, check_same, size_sets
from looptx.pipeline import transform_file
from looptx.recipe.chill import parse_chill
from looptx.recipe.schema import load_yaml

BAD = sorted((Path(__file__).parent / "bad_recipes").glob("*.*"))


def body(text: str) -> str:
    return text.split("*/", 1)[1]


YAML = """
params: {T: 16, UF: 4}
steps:
  - tile: {stmt: 0, loop: i, size: $T, control: ii}
  - tile: {stmt: 0, loop: j, size: $T, control: jj}
  - permute: {stmt: 0, order: [ii, jj, i, j, k]}
  - unroll: {stmt: 0, loop: j, factor: 2}
  - registers: {stmt: 0, array: C, at: k}
  - unroll: {stmt: 0, loop: k, factor: $UF}
"""
CHILL = """
tile(0,"i",T,"ii")
tile(0,"j",T,"jj")
permute(0,("ii","jj","i","j","k"))
unroll(0,"j",2)
registers(0,"k")
unroll(0,"k",UF)
"""


def test_yaml_and_chill_give_identical_code(tmp_path):
    y = tmp_path / "r.yaml"
    y.write_text(YAML)
    c = tmp_path / "r.chill"
    c.write_text(CHILL)
    a = transform_file(str(KERNELS / "matmul.c"), recipe=str(y))
    b = transform_file(str(KERNELS / "matmul.c"), recipe=str(c), bindings={"T": 16, "UF": 4})
    assert body(a) == body(b)
    for sizes in size_sets(KERNELS / "matmul.c"):
        check_same(KERNELS / "matmul.c", a, sizes)


def test_same_steps_from_both_dialects():
    y = load_yaml(YAML, file="r.yaml")
    c = parse_chill(CHILL, file="r.chill", bindings={"T": 16, "UF": 4})
    norm = lambda r: [(s.name, tuple((k, v) for k, v in s.args if not (k == "array" and v == "C")))
                      for s in r.steps]
    assert norm(y) == norm(c)


def test_tile_by_index_and_level_forms():
    r = parse_chill('tile_by_index(["i","j"],[32,16],{"l1_control":"ii","l2_control":"jj"},'
                    '["ii","jj","i","j","k"])\ndistribute(1)\nstm(0,("i","j"),"C")\n'
                    'unroll_to_depth(1)', n_statements=1)
    assert [s.name for s in r.steps] == ["tile", "tile", "permute", "distribute", "unroll_to_depth"]
    assert r.steps[0]["control"] == "ii" and r.steps[1]["size"] == 16
    assert r.steps[3]["stmts"] == "all"


def test_annotation_recipe_matches_command_line(tmp_path):
    src = (KERNELS / "matmul.c").read_text()
    annotated = src.replace("#pragma scop", "/*@ begin CHiLL (\n" + CHILL.replace("T", "16").replace("UF", "4")
                            + ") @*/").replace("#pragma endscop", "/*@ end @*/")
    f = tmp_path / "matmul.c"
    f.write_text(annotated)
    (tmp_path / "harness.h").write_text((KERNELS / "harness.h").read_text())
    y = tmp_path / "r.yaml"
    y.write_text(YAML)
    a = transform_file(str(f))
    b = transform_file(str(KERNELS / "matmul.c"), recipe=str(y))
    strip = lambda t: re.sub(r"#pragma (end)?scop\n", "", body(t))
    got = [ln for ln in strip(a).splitlines() if ln.strip()]
    want = [ln for ln in strip(b).splitlines() if ln.strip()]
    assert got == want


@pytest.mark.parametrize("path", BAD, ids=[p.stem for p in BAD])
def test_bad_recipe(path):
    m = re.match(r"#\s*expect:\s*(\d+)\s+step=(\S+)\s+(.*)", path.read_text().splitlines()[0])
    line, step, words = int(m.group(1)), m.group(2), m.group(3).strip()
    args = ["transform", str(KERNELS / "matmul.c"), "--recipe", str(path)]
    proc = cli_process(*args)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    # Dialect commands are located by column too (FILE:LINE:COL), YAML steps by line.
    prefix = re.escape(f"{path}:{line}:") + r"(\d+:)? " + (f"step {step}" if step != "-" else "error:")
    assert re.match(prefix, lines[0]), (prefix, lines[0])
    if path.suffix == ".chill" and step == "-":
        assert re.match(re.escape(f"{path}:{line}:") + r"\d+: ", lines[0]), lines[0]
    assert words in lines[0], lines[0]
    assert "Traceback" not in proc.stderr


def test_recipe_corpus_size():
    assert len(BAD) >= 6


def test_chill_positional_tile_puts_control_outermost(tmp_path):
    """CHiLL's tile(stmt, level, size) has outer_level = 1 by default: the control loop goes
    outermost; a loop name (CUDA-CHiLL style) keeps it right outside the tiled loop."""
    def loops(cmd):
        f = tmp_path / "t.c"
        f.write_text("#define N 40\ndouble A[N][N], B[N][N], C[N][N];\nvoid mm(void) {\n"
                     f"  int i, j, k;\n  /*@ begin CHiLL ( {cmd} ) @*/\n"
                     "  for (i = 0; i < N; i++)\n    for (j = 0; j < N; j++)\n"
                     "      for (k = 0; k < N; k++)\n        C[i][j] += A[i][k] * B[k][j];\n"
                     "  /*@ end @*/\n}\n")
        return re.findall(r"for \((?:int )?(\w+) =", transform_file(str(f)))
    assert loops("tile(0,3,8)") == ["kk", "i", "j", "k"]
    assert loops("tile(0,3,8,2)") == ["i", "kk", "j", "k"]
    assert loops('tile(0,"k",8,"kk")') == ["i", "j", "kk", "k"]
