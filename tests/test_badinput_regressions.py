"""Bad inputs found by fuzzing (.work/fuzz/badinput): each is exit 2 with one located line
`FILE:LINE:COL: error: WHAT (HOW TO FIX)` and no traceback, and the valid C among them (octal and
binary constants, names isl reserves, #line) is transformed and runs correctly."""
import re

import pytest
from conftest import cli_process as cli

KERNEL = """#define N 16
double A[N];
void f(void) {
  int i;
#pragma scop
  for (i = 0; i < N; i++)
    A[i] = A[i] * 2.0;
#pragma endscop
}
"""

MATMUL_FRAGMENT = """/*@ begin PerfTuning (
  def performance_params { param T[] = [4]; }
  def input_params { param N[] = [SIZE]; }
  def input_vars { decl static double A[N] = random; }
) @*/
int i;
/*@ begin CHiLL ( tile(0,"i",T,"ii") ) @*/
for (i = 0; i < N; i++)
  A[i] = A[i] * 2.0;
/*@ end @*/
/*@ end @*/
"""




def one_error(proc, start: str, *words: str) -> str:
    """Exit 2, one line starting with `start`, ending with a '(how to fix)' part."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    msg = lines[0]
    assert msg.startswith(start), msg
    assert re.search(r" \([^()]+.*\)$", msg), f"no hint: {msg}"
    for w in words:
        assert w in msg, msg
    return msg


def located(path) -> str:
    return re.escape(str(path)) + r":\d+:\d+: error: "


def runs_ok(*args, cwd=None):
    p = cli("run", *args, "--repetitions", "1", cwd=cwd)
    assert p.returncode == 0 and ": ok" in p.stdout, p.stdout + p.stderr
    return p


# ---- 1, 2: files that are not UTF-8 ------------------------------------------------------------

def test_non_utf8_recipe(tmp_path):
    (tmp_path / "k.c").write_text(KERNEL)
    (tmp_path / "r.yaml").write_bytes(b"steps:\n  - tile: {stmt: 0, loop: i, size: 4} # \xff\n")
    one_error(cli("transform", "k.c", "--recipe", "r.yaml", cwd=tmp_path),
              "r.yaml:2:41: error: ", "UTF-8", "0xff")


def test_non_utf8_recipe_named_in_a_chill_block(tmp_path):
    (tmp_path / "r.yaml").write_bytes(b"steps:\n  - tile: {stmt: 0, loop: i, size: \xe9}\n")
    (tmp_path / "m.c").write_text(KERNEL.replace("#pragma scop", '/*@ begin CHiLL ( recipe("r.yaml") ) @*/')
                                  .replace("#pragma endscop", "/*@ end @*/"))
    msg = one_error(cli("transform", "m.c", cwd=tmp_path), "", "UTF-8")
    assert re.match(r"\S*r\.yaml:2:36: error: ", msg), msg


def test_non_utf8_imported_spec(tmp_path):
    (tmp_path / "a.spec").write_bytes(b"def performance_params {\n  param T[] = [4]; # \xfe\n}\n")
    (tmp_path / "a.c").write_text(MATMUL_FRAGMENT.replace(
        "def performance_params { param T[] = [4]; }", "import spec a;").replace("SIZE", "32"))
    msg = one_error(cli("deps", "a.c", cwd=tmp_path), "", "UTF-8", "0xfe")
    assert re.match(r"\S*a\.spec:2:22: error: ", msg), msg


# ---- 3, 8: YAML that PyYAML cannot take ------------------------------------------------------

def test_deeply_nested_yaml(tmp_path):
    (tmp_path / "k.c").write_text(KERNEL)
    (tmp_path / "r.yaml").write_text("steps: " + "[" * 3000 + "]" * 3000 + "\n")
    one_error(cli("transform", "k.c", "--recipe", "r.yaml", cwd=tmp_path), "r.yaml:1:", "nested too deeply")


@pytest.mark.parametrize("char", ["\x7f", "\x00", "\x1b"])
def test_yaml_control_character_is_located(tmp_path, char):
    (tmp_path / "k.c").write_text(KERNEL)
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 4}" + char + "\n")
    one_error(cli("transform", "k.c", "--recipe", "r.yaml", cwd=tmp_path), "r.yaml:2:38: error: ",
              f"U+{ord(char):04X}")


# ---- 4: input_params must be integer sizes ------------------------------------------------------

@pytest.mark.parametrize("value", ["1e400", "[1]", "'a'", "float('nan')", "2.5", "3000000000"])
def test_input_param_that_is_not_an_int_size(tmp_path, value):
    (tmp_path / "ip.c").write_text(MATMUL_FRAGMENT.replace("SIZE", value))
    one_error(cli("deps", "ip.c", cwd=tmp_path), "ip.c:3:34: error: input param 'N'", "int")


# ---- 5: C integer constants ----------------------------------------------------------------------

@pytest.mark.parametrize("literal, value", [("010", 8), ("0b101", 5), ("0x0aU", 10)])
def test_octal_and_binary_constants(tmp_path, literal, value):
    src = tmp_path / "k.c"
    src.write_text(KERNEL.replace("N 16", f"N {literal}").replace("double A[N]", "double A[16]")
                   .replace("i < N", f"i < {literal}"))
    (tmp_path / "full.yaml").write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 0}\n")
    p = cli("transform", "k.c", "--recipe", "full.yaml", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert f"A[{value - 1}] =" in p.stdout and f"A[{value}] =" not in p.stdout, p.stdout
    src.write_text(KERNEL.replace("N 16", f"N {literal}"))      # as a size macro
    runs_ok("k.c", cwd=tmp_path)
    assert f"parameters: N" in cli("deps", "k.c", cwd=tmp_path).stdout


@pytest.mark.parametrize("literal, where", [("1'000", "k.c:1:11: error: "), ("089", "k.c:1:11: error: ")])
def test_bad_integer_constant_in_a_define(tmp_path, literal, where):
    (tmp_path / "k.c").write_text(KERNEL.replace("N 16", f"N {literal}"))
    one_error(cli("transform", "k.c", cwd=tmp_path), where, "not a valid C integer constant")


def test_digit_separator_in_the_code(tmp_path):
    (tmp_path / "k.c").write_text(KERNEL.replace("i < N", "i < 1'000").replace("#define N 16", ""))
    one_error(cli("transform", "k.c", cwd=tmp_path), "k.c:6:19: error: ", "write 1000")
    (tmp_path / "k.c").write_text(KERNEL.replace("i < N", "i < 1'000"))     # through cpp
    one_error(cli("transform", "k.c", cwd=tmp_path), "k.c:6:20: error: ", "1'000")


# ---- 6: names isl reserves are valid C names ------------------------------------------------------

RESERVED = """#define MOD 40
double ceil_[MOD][MOD], True[MOD][MOD];
int NaN;
void f(double Floor[MOD][MOD]) {
  int max, min, exists;
#pragma scop
  for (max = 0; max < MOD; max++)
    for (min = 0; min < NaN; min++) {
      True[max][min] = Floor[max][min] * 2.0;
      for (exists = 0; exists < min; exists++)
        ceil_[max][min] += True[max][exists];
    }
#pragma endscop
}
"""

RESERVED_RECIPE = """steps:
  - tile: {stmt: 0, loop: max, size: 8}
  - tile: {stmt: 0, loop: min, size: 4, control: floor}
  - permute: {stmt: 0, order: [maxmax, floor, max, min]}
  - split: {stmt: 1, loop: exists, at: "min/2"}
  - known: {facts: ["NaN >= 4", "NaN <= MOD"]}
"""


def test_names_isl_reserves_work(tmp_path):
    (tmp_path / "k.c").write_text(RESERVED)
    (tmp_path / "r.yaml").write_text(RESERVED_RECIPE)
    p = cli("deps", "k.c", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "parameters: MOD, NaN" in p.stdout and "carried by exists" in p.stdout, p.stdout
    p = cli("deps", "k.c", "--json", cwd=tmp_path)
    assert p.returncode == 0 and "lx_kw" not in p.stdout, p.stdout + p.stderr
    p = cli("transform", "k.c", "--recipe", "r.yaml", "--show-steps", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "lx_kw" not in p.stdout + p.stderr
    for text in ("for (int maxmax = 0;", "for (int floor = 0;", "for (int exists = min / 2;",
                 "True[max][min] = Floor[max][min] * 2.0;"):
        assert text in p.stdout, p.stdout
    runs_ok("k.c", "--recipe", "r.yaml", "-D", "NaN=30", cwd=tmp_path)
    runs_ok("k.c", "-D", "NaN=7", cwd=tmp_path)


def test_messages_use_the_users_reserved_names(tmp_path):
    (tmp_path / "k.c").write_text(RESERVED)
    (tmp_path / "r.yaml").write_text("steps:\n  - tile: {stmt: 0, loop: nosuch, size: 8}\n")
    msg = one_error(cli("transform", "k.c", "--recipe", "r.yaml", cwd=tmp_path), "r.yaml:2: step 1 (tile)")
    assert "max" in msg and "lx_kw" not in msg, msg


def test_reserved_names_in_the_chill_dialect(tmp_path):
    src = RESERVED.replace("#pragma scop", '/*@ begin CHiLL ( tile(0,"max",8) shift(1,"exists",1) ) @*/') \
                  .replace("#pragma endscop", "/*@ end @*/")
    (tmp_path / "k.c").write_text(src)
    p = cli("transform", "k.c", cwd=tmp_path)
    assert p.returncode == 0 and "lx_kw" not in p.stdout, p.stderr
    runs_ok("k.c", "-D", "NaN=9", cwd=tmp_path)


# ---- 9, 10: preprocessor and parser limits --------------------------------------------------------

@pytest.mark.parametrize("directive, line", [("#ifndef M\n", 1), ("#if 1\n", 3)])
def test_unterminated_conditional(tmp_path, directive, line):
    lines = KERNEL.splitlines(keepends=True)
    lines.insert(line - 1, directive)
    (tmp_path / "k.c").write_text("".join(lines))
    one_error(cli("transform", "k.c", cwd=tmp_path), f"k.c:{line}:1: error: preprocessor: unterminated",
              "#endif")


@pytest.mark.parametrize("expr", ["(" * 400 + "A[i]" + ")" * 400, "A[i]" + " + 1.0" * 300])
def test_expression_nested_too_deeply(tmp_path, expr):
    (tmp_path / "k.c").write_text(KERNEL.replace("A[i] * 2.0", expr))
    one_error(cli("transform", "k.c", cwd=tmp_path), "k.c:7:", "nested too deeply")


def test_long_sum_below_the_limit_still_works(tmp_path):
    (tmp_path / "k.c").write_text(KERNEL.replace("A[i] * 2.0", "A[i]" + " + 1.0" * 150))
    runs_ok("k.c", cwd=tmp_path)


# ---- 12: #line -----------------------------------------------------------------------------------

@pytest.mark.parametrize("directive", ["#line 100\n", '#line 7 "other.c"\n', '# 1 "k.c"\n'])
def test_line_directives_are_accepted(tmp_path, directive):
    (tmp_path / "k.c").write_text(directive + KERNEL)
    p = cli("transform", "k.c", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert directive in p.stdout and "A[i] = A[i] * 2.0;" in p.stdout
    runs_ok("k.c", cwd=tmp_path)
    # locations are the file's physical lines
    (tmp_path / "k.c").write_text(directive + KERNEL.replace("A[i] =", "A[i*i] ="))
    one_error(cli("transform", "k.c", cwd=tmp_path), "k.c:8:5: error: ", "non-affine")


# ---- 13: integers beyond int ---------------------------------------------------------------------

@pytest.mark.parametrize("step", ["shift: {stmt: 0, loop: i, by: 4294967296}",
                                  "tile: {stmt: 0, loop: i, size: 2147483648}",
                                  "skew: {stmt: 0, loop: i, by: {i: -9999999999}}"])
def test_step_integer_beyond_int(tmp_path, step):
    (tmp_path / "k.c").write_text(KERNEL)
    (tmp_path / "r.yaml").write_text(f"steps:\n  - {step}\n")
    one_error(cli("transform", "k.c", "--recipe", "r.yaml", cwd=tmp_path), "r.yaml:2: step 1",
              "does not fit in an int")


@pytest.mark.parametrize("change, where", [(("i < N", "i < 99999999999999999999"), "k.c:6:19: error: the constant"),
                                           (("N 16", "N 99999999999999999999"), "k.c:6:19: error: 'N' = ")])
def test_c_constant_beyond_long(tmp_path, change, where):
    """(Past int, a constant is a long in C and the loops reading it count in long: tests/test_gaps75.py.)"""
    (tmp_path / "k.c").write_text(KERNEL.replace(*change).replace("double A[N]", "double A[16]"))
    one_error(cli("transform", "k.c", cwd=tmp_path), where, "does not fit in a long")


def test_define_beyond_long(tmp_path):
    (tmp_path / "k.c").write_text(KERNEL.replace("#define N 16", "#ifndef N\n#define N 16\n#endif"))
    one_error(cli("transform", "k.c", "-D", "N=99999999999999999999", cwd=tmp_path), "k.c:8:19: error: 'N'",
              "does not fit in a long")


# ---- 14: every message says how to fix it --------------------------------------------------------

@pytest.mark.parametrize("change, start", [
    (("i < N", "i < ~N"), "k.c:6:"),
    (("A[i] = A[i]", "A[A[i]] = A[i]"), "k.c:7:"),
])
def test_c_errors_have_hints(tmp_path, change, start):
    (tmp_path / "k.c").write_text(KERNEL.replace(*change).replace("double A[N]", "double A[N]; int B[N]"))
    one_error(cli("transform", "k.c", cwd=tmp_path), start)


def test_scalar_recipe_has_a_hint(tmp_path):
    (tmp_path / "k.c").write_text(KERNEL)
    (tmp_path / "s.yaml").write_text("42\n")
    one_error(cli("transform", "k.c", "--recipe", "s.yaml", cwd=tmp_path), "s.yaml:1:1: error: ")


@pytest.mark.parametrize("change, start", [
    (("def performance_params {", "def performance_params { arg = 3;"), "a.c:2:"),
    (("param T[] = [4];", "param T[] = 1/0;"), "a.c:2:"),
    (("param T[] = [4];", "param T[] = [4]; constraint c = T > 9;"), "a.c:1:"),
])
def test_annotation_errors_have_hints(tmp_path, change, start):
    (tmp_path / "a.c").write_text(MATMUL_FRAGMENT.replace("SIZE", "32").replace(*change))
    one_error(cli("transform", "a.c", cwd=tmp_path), start)


# ---- deep nesting elsewhere: dialect commands, recipe expressions, annotation values -------------

def test_deep_chill_command(tmp_path):
    (tmp_path / "k.c").write_text(KERNEL.replace(
        "#pragma scop", '/*@ begin CHiLL ( tile(0,"i",' + "+" * 3000 + '4,"ii") ) @*/')
        .replace("#pragma endscop", "/*@ end @*/"))
    one_error(cli("transform", "k.c", cwd=tmp_path), "k.c:5:", "nested too deeply")


@pytest.mark.parametrize("at", ["-" * 3000 + "4", "1+" * 3000 + "4"])
def test_deep_recipe_expression(tmp_path, at):
    (tmp_path / "k.c").write_text(KERNEL)
    (tmp_path / "r.yaml").write_text(f'steps:\n  - split: {{stmt: 0, loop: i, at: "{at}"}}\n')
    one_error(cli("transform", "k.c", "--recipe", "r.yaml", cwd=tmp_path), "r.yaml:2: step 1 (split)",
              "nested too deeply")


def test_deep_annotation_value(tmp_path):
    (tmp_path / "a.c").write_text(MATMUL_FRAGMENT.replace("SIZE", "32").replace("[4]", "[" + "-" * 3000 + "4]"))
    one_error(cli("transform", "a.c", cwd=tmp_path), "a.c:2:", "nested too deeply")


def test_huge_yaml_alias_value_gives_a_short_message(tmp_path):
    (tmp_path / "k.c").write_text(KERNEL)
    levels = ["  a: &a [1, 1, 1, 1, 1, 1, 1, 1]"] + [
        f"  {c}: &{c} [{', '.join([f'*{p}'] * 8)}]" for p, c in zip("abcdef", "bcdefg")]
    (tmp_path / "r.yaml").write_text("params:\n" + "\n".join(levels) +
                                     "\nsteps:\n  - tile: {stmt: 0, loop: i, size: *g}\n")
    msg = one_error(cli("transform", "k.c", "--recipe", "r.yaml", cwd=tmp_path), "r.yaml:10: step 1 (tile)")
    assert len(msg) < 300, len(msg)
