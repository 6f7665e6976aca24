"""PerfTuning bodies and .spec files -> TuningSpec (Orio grammar with looptx's fixes)."""
from __future__ import annotations

import itertools
import pathlib
import pickle
import re

import pytest

from looptx.errors import AnnotationError
from looptx.frontend.annotations import (ParamDef, TuningSpec, load_spec_file, mapping_values,
                                         parse_tuning_spec)
from conftest import annotated_files
from looptx.frontend.expr import Expr

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLES = annotated_files()
_BEGIN = re.compile(r"/\*@\s*begin\s+PerfTuning\s*\(")
_END = re.compile(r"\)\s*@\*/")

MATMUL = """
  def build { arg build_command = 'gcc -O2 @CFLAGS@ -DUF=@UF'; }
  def performance_counter { arg repetitions = 3; }
  def performance_params {
    param TI[] = [1, 8, 16, 32];  param TJ[] = [1, 8, 16];  param UF[] = [1, 2, 4];
    param CFLAGS[] = ['-O1', '-O2'];
    constraint tiles = TI * TJ <= 256;
  }
  def input_params { param N[] = [96]; }
  def input_vars { decl static double A[N][N] = random; decl static double B[N][N] = random;
                   decl static double C[N][N] = 0; }
  def search { arg algorithm = 'Randomsearch'; arg total_runs = 8; arg seed = 1; }
"""


def parse(body, **kw):
    kw.setdefault("file", "m.c")
    return parse_tuning_spec(body, **kw)


def errors(body, **kw) -> AnnotationError:
    with pytest.raises(AnnotationError) as info:
        parse(body, **kw)
    assert "\n" not in str(info.value)
    return info.value


def test_brief_example():
    spec = parse(MATMUL, line=1, col=22)
    assert [p.name for p in spec.performance_params] == ["TI", "TJ", "UF", "CFLAGS"]
    assert spec.param("TI").values == (1, 8, 16, 32) and spec.param("TI").kind == "int"
    assert spec.param("CFLAGS").kind == "str"
    assert [c.name for c in spec.constraints] == ["tiles"]
    assert spec.constraints[0].expr.names == {"TI", "TJ"}
    assert [p.name for p in spec.input_params] == ["N"]
    assert [(d.name, d.ctype, d.storage, d.init) for d in spec.input_vars] == [
        ("A", "double", "static", "random"), ("B", "double", "static", "random"),
        ("C", "double", "static", "zero")]
    assert [e.text for e in spec.input_vars[0].dims] == ["N", "N"]
    assert dict(spec.search) == {"algorithm": "Randomsearch", "total_runs": 8, "seed": 1}
    assert dict(spec.performance_counter) == {"repetitions": 3}
    assert spec.file == "m.c" and spec.line == 1
    assert spec.space_size() == 4 * 3 * 3 * 2


def test_positions_refer_to_the_original_file():
    spec = parse(MATMUL, line=10, col=22)
    # 'TI' sits on the 5th line of the body, which is line 14 of the file
    ti = spec.param("TI")
    assert (ti.line, ti.col) == (14, 11)
    assert (spec.constraints[0].line, spec.constraints[0].col) == (16, 16)
    assert (spec.constraints[0].expr.line, spec.constraints[0].expr.col) == (16, 24)


def test_positions_on_the_first_line_use_the_start_column():
    err = errors("def performance_params { param X[] = [1]; constraint c1 = X * TK < 3; }",
                 line=7, col=5)
    assert str(err) == ("m.c:7:67: error: constraint 'c1' uses unknown name 'TK' "
                        "(declare it with param or let)")


def test_problem_sizes_and_constraints():
    spec = parse("""
      def performance_params { param TI[] = [8, 16, 32]; constraint fits = TI <= N // 2; }
      def input_params { param N[] = [16, 32, 64]; param M[] = [1, 2];
                         constraint square_ish = N * M <= 64; }
    """)
    assert spec.problem_sizes() == [{"N": 16, "M": 1}, {"N": 16, "M": 2}, {"N": 32, "M": 1},
                                    {"N": 32, "M": 2}, {"N": 64, "M": 1}]
    assert spec.satisfies({"TI": 8}, {"N": 16, "M": 1})
    assert not spec.satisfies({"TI": 16}, {"N": 16, "M": 1})
    assert spec.satisfies({"TI": 32}, {"N": 64, "M": 1})


def test_problem_sizes_without_input_params():
    assert parse("def performance_params { param TI[] = [1]; }").problem_sizes() == [{}]


def test_build_command_substitution():
    spec = parse(MATMUL)
    assert spec.build_command({"CFLAGS": "-O1", "UF": 4, "TI": 8}) == "gcc -O2 -O1 -DUF=4"
    assert parse("def performance_params { param X[] = [1]; }").build_command({"X": 1}) is None
    # a longer name is never cut into a shorter one, unknown @WORDs stay as they are
    spec = parse("""def build { arg build_command = 'cc @N @NB@ me@host'; }
                    def performance_params { param N[] = [1]; param NB[] = [2]; }""")
    assert spec.build_command({"N": 1, "NB": 2}) == "cc 1 2 me@host"


def test_lets_comments_and_semicolons_in_strings():
    spec = parse("""
      let BASE = 8;   # a comment; with a semicolon
      def performance_params {
        let SIZES = [BASE * k for k in range(1, 4)];
        param T[] = SIZES;  # trailing comment
        param FLAG[] = ['-a;b', "x;y"];
        param U = BASE;
        constraint c = T % BASE == 0 and FLAG != 'z';
      }
    """)
    assert spec.param("T").values == (8, 16, 24)
    assert spec.param("FLAG").values == ("-a;b", "x;y")
    assert spec.param("U").values == (8,)
    assert dict(spec.lets) == {"BASE": 8, "SIZES": [8, 16, 24]}
    assert spec.satisfies({"T": 16, "FLAG": "x;y", "U": 8})


def test_value_kinds():
    spec = parse("""def performance_params {
        param I[] = range(1, 4); param F[] = [1, 2.5]; param B[] = [False, True];
        param S[] = ['i', 'j']; param P[] = list(permutations(['i', 'j']));
        param L[] = [[1, 2], [3, 4]]; param ONE = (1, 2);
    }""")
    kinds = {p.name: p.kind for p in spec.performance_params}
    assert kinds == {"I": "int", "F": "float", "B": "bool", "S": "str", "P": "tuple",
                     "L": "tuple", "ONE": "tuple"}
    assert spec.param("F").values == (1.0, 2.5)
    assert spec.param("L").values == ((1, 2), (3, 4))
    assert spec.param("ONE").values == ((1, 2),)


def test_mapping_param():
    spec = parse("""def performance_params {
        param MAP[] = mapping(loops=['i', 'j', 'k'], block=2, thread=2);
        param M2[] = mapping(['i', 'j'], block=2, thread=2, cover=True);
        constraint not_k_thread = MAP[2] != 'k';
    }""")
    m = spec.param("MAP")
    assert m.kind == "mapping" and m.slots == ("BX", "BY", "TX", "TY")
    assert m.loops == ("i", "j", "k")
    assert m.values == mapping_values(["i", "j", "k"], 2, 2, False)
    assert spec.param("M2").values == mapping_values(["i", "j"], 2, 2, True)
    assert spec.satisfies({"MAP": ("1", "1", "i", "j"), "M2": ("i", "1", "j", "1")})
    assert not spec.satisfies({"MAP": ("i", "1", "k", "j"), "M2": ("i", "1", "j", "1")})


def test_any_arg_name_and_search_options():
    spec = parse("""def search {
        arg algorithm = 'Annealing'; arg total_runs = 10; arg time_limit = 90;
        arg annealing_cooling_factor = 0.9; arg my_option = [1, 2]; arg resume = True;
    }
    def validation { arg validation_file = 'check.c'; }
    def other { arg device_spec_file = 'dev.txt'; }
    def power { arg method = 'none'; }""")
    assert spec.search["annealing_cooling_factor"] == 0.9
    assert spec.search["time_limit"] == 90          # seconds, not Orio's minutes
    assert spec.search["my_option"] == [1, 2]
    assert dict(spec.validation) == {"validation_file": "check.c"}
    assert dict(spec.other["other"]) == {"device_spec_file": "dev.txt"}
    assert dict(spec.other["power"]) == {"method": "none"}


def test_decl_forms():
    spec = parse("""
      def input_params { param N[] = [8]; }
      def input_vars {
        decl dynamic __device__ float X[N][2 * N] = random;
        decl managed int v[N];
        decl double alpha = 1.5 * N;
        decl int n = 0;
        decl long count;
        decl macro M = N + 1;
        arg init_file = 'init.c';
        arg decl_file = 'decl.h';
      }""")
    x, v, alpha, n, count, macro = spec.input_vars
    assert (x.storage, x.device, x.ctype, [d.text for d in x.dims], x.init) == \
        ("dynamic", True, "float", ["N", "2 * N"], "random")
    assert (v.storage, v.device, v.init) == ("managed", False, None)
    assert isinstance(alpha.init, Expr) and alpha.init({"N": 8}) == 12.0
    # (an integer scalar's 0 is a value, a size loops may use: `decl int jl = 0;` of Bratu)
    assert isinstance(n.init, Expr) and n.init({}) == 0 and count.init is None and count.dims == ()
    assert macro.ctype == "macro"
    assert (spec.init_file, spec.decl_file) == ("init.c", "decl.h")


def test_cmdline_options():
    spec = parse('def cmdline_params { option "-n" = [1, 2]; option "-v" = 3; }')
    assert dict(spec.other["cmdline_params"]) == {"-n": (1, 2), "-v": (3,)}


def test_spec_block_in_body_and_last_statement_without_semicolon():
    spec = parse("spec mm { def performance_params { param TI[] = [1, 2] } let Z = 3 }")
    assert spec.param("TI").values == (1, 2) and spec.lets["Z"] == 3


def test_import_spec(tmp_path):
    (tmp_path / "common.spec").write_text(
        "let BASE = 4;\nspec common {\n  def performance_params { param TI[] = [BASE, 2 * BASE]; }\n}\n")
    c = tmp_path / "k.c"
    spec = parse("import spec common;\n def performance_params { param UF[] = [BASE]; }",
                 file=str(c), line=3, col=20)
    assert spec.param("TI").values == (4, 8) and spec.param("UF").values == (4,)
    assert spec.param("TI").file == str(tmp_path / "common.spec")
    assert spec.param("TI").line == 3


def test_import_spec_errors_point_into_the_spec_file(tmp_path):
    (tmp_path / "bad.spec").write_text("spec bad {\n  def performance_params {\n"
                                       "    param TI[] = [1, 'x'];\n  }\n}\n")
    err = errors("import spec bad;", file=str(tmp_path / "k.c"), line=5, col=22)
    assert (err.file, err.line, err.col) == (str(tmp_path / "bad.spec"), 3, 18)


def test_import_cycle(tmp_path):
    (tmp_path / "a.spec").write_text("import spec b;\n")
    (tmp_path / "b.spec").write_text("import spec a;\n")
    err = errors("import spec a;", file=str(tmp_path / "k.c"))
    assert "imports itself" in str(err) and err.file == str(tmp_path / "b.spec")


def test_load_spec_file():
    spec = load_spec_file(str(ROOT / "annotations" / "axpy.spec"))
    assert spec.param("UF").values == tuple(range(1, 9))
    assert spec.file.endswith("axpy.spec")
    with pytest.raises(AnnotationError, match="cannot read"):
        load_spec_file(str(ROOT / "annotations" / "missing.spec"))


def test_spec_is_immutable_and_picklable():
    spec = parse(MATMUL)
    with pytest.raises(AttributeError):
        spec.file = "x"
    with pytest.raises(TypeError):
        spec.search["seed"] = 2
    with pytest.raises(AttributeError):
        spec.performance_params[0].values = ()
    again = pickle.loads(pickle.dumps(spec))
    assert again == spec
    assert again.satisfies({"TI": 8, "TJ": 8, "UF": 1, "CFLAGS": "-O1"})
    assert isinstance(again, TuningSpec) and isinstance(again.performance_params[0], ParamDef)


@pytest.mark.parametrize("body, where, word", [
    ("def build { arg x = 1; }\ndef bogus { }", (2, 5), "unknown section 'bogus'"),
    ("def performance_params { param X[] = []; }", (1, 38), "no values"),
    ("def performance_params { param X[] = [1, 'a']; }", (1, 38), "int and str"),
    ("def performance_params { param X[] = [True, 1]; }", (1, 38), "bool and int"),
    ("def performance_params { param X[] = [None]; }", (1, 38), "unsupported type"),
    ("def performance_params { param X[] = [{'a': 1}]; }", (1, 38), "unsupported type"),
    ("def performance_params { param X[] = {1, 2}; }", (1, 38), "set"),
    ("def performance_params { param X[] = 5; }", (1, 38), "list of values"),
    ("def performance_params { param X[] = [1]; param X[] = [2]; }", (1, 49), "duplicate param"),
    ("def performance_params { param X[] = [1]; }\ndef input_params { param X[] = [2]; }",
     (2, 26), "duplicate param"),
    ("def performance_params { param X[] = [1]; constraint X = 1; }", (1, 54), "duplicate"),
    ("let X = 1;\ndef performance_params { param X[] = [1]; }", (2, 32), "same name"),
    ("def performance_params { param range[] = [1]; }", (1, 32), "range()"),
    ("def performance_params { param _x[] = [1]; }", (1, 32), "reserved"),
    ("def performance_params { param X[] = [N]; }\ndef input_params { param N[] = [1]; }",
     (1, 39), "unknown name 'N'"),
    ("def input_params { param N[] = [1]; constraint c = N < TI; }\n"
     "def performance_params { param TI[] = [1]; }", (1, 56), "unknown name 'TI'"),
    ("def input_vars { decl static dubble A[N]; }", (1, 30), "unknown type"),
    ("def input_vars { decl static double A[]; }", (1, 38), "empty"),
    ("def input_vars { decl static double A[N = random; }", (1, 38), "never closed"),
    ("def input_vars { decl static double A[N] random; }", (1, 42), "expected '='"),
    ("def input_vars { decl static double A[M] = random; }", (1, 39), "unknown name 'M'"),
    ("def search { arg algorithm = 1; }", (1, 30), "searcher name"),
    ("def search { arg total_runs = -2; }", (1, 31), "positive integer"),
    ("def search { arg time_limit = 0; }", (1, 31), "seconds"),
    ("def search { arg seed = 1.5; }", (1, 25), "integer"),
    ("def search { arg resume = 1; }", (1, 27), "True or False"),
    ("def performance_counter { arg repetitions = 0; }", (1, 45), "positive"),
    ("def build { arg build_command = 3; }", (1, 33), "command string"),
    ("def build { arg build_command = 'cc @X@'; }", (1, 33), "no param 'X'"),
    ("def search { arg a = 1; arg a = 1; }", (1, 29), "duplicate arg"),
    ("def search { param X[] = [1]; }", (1, 14), "not allowed in def search"),
    ("def performance_params { arg a = 1; }", (1, 26), "not allowed"),
    ("def performance_params { decl int x; }", (1, 26), "not allowed"),
    ("def search { option \"-n\" = 1; }", (1, 14), "not allowed"),
    ("def search { frobnicate x = 1; }", (1, 14), "unknown statement"),
    ("param X[] = [1];", (1, 1), "outside a def"),
    ("def search { arg a = 1;", (1, 5), "never closed"),
    ("def performance_params { param X[] = [1, 2\n  param Y[] = [3]; }", (1, 38), "never closed"),
    ("def performance_params { param X[] = [1, 2)]; }", (1, 43), "does not match"),
    ("def performance_params { param X[] = [1, 2]\n  param Y[] = [3]; }", (1, 44), "';'"),
    ("def performance_params { param X[] = ['a; }", (1, 39), "string is never closed"),
    ("def performance_params { param X[] = ; }", (1, 38), "expected a value"),
    ("def performance_params { param X[] = [1, 2,, 3]; }", (1, 44), "syntax"),
    ("def performance_params { param X[] = [__import__('os')]; }", (1, 39), "__import__"),
    ("def performance_params { param X[] = [open('x')]; }", (1, 39), "open"),
    ("def performance_params { param X[] = [().__class__]; }", (1, 42), "attribute"),
    ("def performance_params { param X[] = [1 / 0]; }", (1, 39), "division by zero"),
    ("import spec;", (1, 12), "spec name"),
    ("import foo;", (1, 1), "import spec"),
    ("def input_vars { arg init_file = 3; }", (1, 34), "file name"),
    ("def cmdline_params { option -n = 1; }", (1, 29), "quoted option"),
])
def test_errors(body, where, word):
    err = errors(body)
    assert (err.file, err.line, err.col) == ("m.c",) + where, str(err)
    assert word in str(err)
    assert str(err).startswith(f"m.c:{where[0]}:{where[1]}: error: ")


def test_input_vars_missing_is_fine():
    spec = parse("def performance_params { param TI[] = [1, 2]; }")
    assert spec.input_vars == () and spec.decl_file is None


# ---------------------------------------------------------------- the example files

def _body(path: pathlib.Path):
    text = path.read_text()
    m = _BEGIN.search(text)
    end = _END.search(text, m.end())
    line = text.count("\n", 0, m.end()) + 1
    col = m.end() - (text.rfind("\n", 0, m.end()) + 1) + 1
    return text[m.end():end.start()], line, col


def test_there_are_enough_examples():
    assert len(EXAMPLES) >= 8
    assert (ROOT / "annotations" / "README.md").exists()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_parses_with_a_small_space(path):
    body, line, col = _body(path)
    spec = parse_tuning_spec(body, file=str(path), line=line, col=col, base_dir=str(path.parent))
    names = [p.name for p in spec.performance_params]
    assert names
    grid = list(itertools.product(*(p.values for p in spec.performance_params)))
    sizes = spec.problem_sizes()
    assert sizes
    for size in sizes:
        assert all(v <= 128 for v in size.values())
        feasible = [pt for pt in grid if spec.satisfies(dict(zip(names, pt)), size)]
        assert 20 <= len(feasible) <= 300, (path.name, len(feasible))
    assert spec.search.get("total_runs", 0) <= 10
    assert spec.build_command(dict(zip(names, grid[0]))).startswith("gcc")
    # every array the kernel uses is declared (fragments take their arrays from input_vars)
    text = path.read_text()
    code = text[re.search(r"begin (CHiLL|Loop)\b", text).start():]
    used = set(re.findall(r"\b([A-Za-z_]\w*)\s*\[", code.split(") @*/", 1)[1]))
    assert used <= {d.name for d in spec.input_vars}, path.name


def test_examples_cover_the_brief():
    specs = {}
    for path in EXAMPLES:
        body, line, col = _body(path)
        specs[path.name] = parse_tuning_spec(body, file=str(path), line=line, col=col)
    kinds = {p.kind for s in specs.values() for p in s.performance_params}
    assert {"int", "str", "mapping"} <= kinds
    assert any(len(s.problem_sizes()) >= 2 for s in specs.values())
    assert any(s.search.get("algorithm") == "Annealing" and
               any(k.startswith("annealing_") for k in s.search) for s in specs.values())
    assert any("@CFLAGS@" in s.build.get("build_command", "") for s in specs.values())
    assert any("import spec" in (ROOT / "annotations" / n).read_text() for n in specs)
