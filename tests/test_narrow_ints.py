"""Integer variables of types other than int: temporaries the front end substitutes (MachSuite
viterbi's `typedef uint8_t state_t; ... prev = 0;`) and the function's own loop variables the
C output counts with (Numerical Recipes' `unsigned long j`, an `int16_t i`), which must leave
gcc -Wall nothing to say, in `transform`'s output and in a search's best file."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "narrow_ints"
needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None,
                               reason="gcc is not installed: the output's -Wall build and the drivers need it")
# `#pragma scop` is looptx's, not gcc's
WALL = ["-std=gnu99", "-Wall", "-Wno-unknown-pragmas", "-Werror"]


def _viterbi(tmp_path, state_type: str, guarded: bool = True) -> Path:
    text = (DATA / "viterbi_min.c").read_text().replace("typedef uint8_t state_t",
                                                        f"typedef {state_type} state_t")
    if not guarded:                 # NS the file's own value, not a default a -D may change
        text = text.replace("#ifndef NS\n#define NS 16\n#endif", "#define NS 16")
    path = tmp_path / "viterbi_min.c"
    path.write_text(text)
    return path


@pytest.mark.parametrize("state_type", ["uint8_t", "unsigned char", "unsigned", "short", "int16_t", "size_t"])
def test_a_temporary_of_any_integer_type_is_its_constant(tmp_path, state_type):
    rc, out, err = run_cli("deps", _viterbi(tmp_path, state_type))
    assert rc == 0 and "cost[curr][0]" in out, err


@pytest.mark.parametrize("size", [17, 16])      # 16 and 15 predecessors: tiles of 4, and a partial one
def test_the_byte_temporary_region_validates(tmp_path, size):
    path = _viterbi(tmp_path, "uint8_t")
    rc, out, err = run_cli("run", path, "--recipe", DATA / "viterbi_min.yaml", "-D", f"NS={size}")
    assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("fits, wraps", [
    # k is a uint8_t: its value, or that plus 1 in a type that holds 256, is the initializer's
    ("uint8_t t = k;", "uint8_t t = k + 1;"),
    ("unsigned t = k + 1;", "unsigned t = i - 1;"),     # an int i may be 0 for all the types say
    ("short t = k * 100;", "short t = k * 200;"),
    ("unsigned char t = 255;", "unsigned char t = 256;"),
    ("unsigned t = 4u;", "unsigned t = -1;"),
])
def test_a_narrow_temporary_is_substituted_only_where_its_type_holds_the_value(tmp_path, fits, wraps):
    for body, ok in ((fits, True), (wraps, False)):
        src = tmp_path / "t.c"
        src.write_text("#include <stdint.h>\nvoid f(double *a, double *b, int n, uint8_t k)\n{\n  int i;\n"
                       f"#pragma scop\n  for (i = 1; i < n; i++) {{\n    {body}\n    b[i] = a[t];\n  }}\n"
                       "#pragma endscop\n}\n")
        rc, out, err = run_cli("deps", src)
        if ok:
            assert rc == 0 and "a[t]" not in out, (body, out + err)
        else:
            assert rc == 2 and "non-affine subscript" in err and "Traceback" not in err, (body, out + err)


def _transform(tmp_path, src: Path, recipe: str, function: str | None) -> str:
    args = ["transform", src, "--recipe", DATA / recipe, "-o", tmp_path / "out.c"]
    rc, out, err = run_cli(*args, *(["--function", function] if function else []))
    assert rc == 0, err
    return (tmp_path / "out.c").read_text()


def _wall_clean(tmp_path, path: Path) -> None:
    got = subprocess.run(["gcc", *WALL, "-c", str(path), "-o", str(tmp_path / "out.o")],
                         capture_output=True, text=True)
    assert got.returncode == 0, got.stderr + path.read_text()


@needs_gcc
@pytest.mark.parametrize("name, function, reused, declared", [
    # int16_t values of an int16_t n: the remainder loop starts at n - n % 4, inside n's range
    ("scale16", "scale", ["for (i = 0; i <= n - 4; i += 4)", "for (i = n - n % 4; i < n; i++)"], []),
    # n >= 0: j counts up from 2 in its own unsigned long; counting down from n - 1, the loops
    # would set it to -1 at n = 0, and keep their own long
    ("tridag", "tridag", ["for (j = 2; j < (long)n; j += 2)"], ["for (long j = (long)n - 1; j > 2; j -= 3)"]),
    # a byte does not hold the values of a loop up to an int n
    ("byte_counter", "add1", [], ["(void)i;", "for (int i = 0; i <= n - 2; i += 2)"]),
])
def test_own_counters_of_other_types_count_where_they_hold_the_values(tmp_path, name, function, reused, declared):
    text = _transform(tmp_path, DATA / f"{name}.c", f"{name}.yaml", function)
    for line in reused + declared:
        assert line in text, (line, text)
    _wall_clean(tmp_path, tmp_path / "out.c")


@needs_gcc
def test_a_byte_counter_bounded_by_the_files_size_is_reused(tmp_path):
    text = _transform(tmp_path, _viterbi(tmp_path, "uint8_t", guarded=False), "viterbi_min.yaml", None)
    assert "for (curr = 0; curr < NS; curr++)" in text and "(void)" not in text, text
    _wall_clean(tmp_path, tmp_path / "out.c")


_DRIVERS = {
    "scale16": ("scale", """
#include <stdint.h>
#include <string.h>
void scale(int16_t *x, int16_t *y, int16_t n);
void scale_orig(int16_t *x, int16_t *y, int16_t n);
int main(void) {
  static const int sizes[] = {16, 13, 3, 0, -3};
  for (int k = 0; k < 5; k++) {
    int16_t x[64], y1[64], y2[64];
    for (int i = 0; i < 64; i++) { x[i] = (int16_t)(37 * i - 500); y1[i] = y2[i] = 7; }
    scale_orig(x, y1, (int16_t)sizes[k]);
    scale(x, y2, (int16_t)sizes[k]);
    if (memcmp(y1, y2, sizeof y1)) return 1 + k;
  }
  return 0;
}
"""),
    "tridag": ("tridag", """
#include <string.h>
typedef float F;
void tridag(F a[], F b[], F c[], F r[], F u[], F gam[], unsigned long n);
void tridag_orig(F a[], F b[], F c[], F r[], F u[], F gam[], unsigned long n);
int main(void) {
  static const unsigned long sizes[] = {12, 11, 10, 9, 2};
  for (int k = 0; k < 5; k++) {
    F a[64], b[64], c[64], r[64], u1[64], u2[64], g1[64], g2[64];
    for (int i = 0; i < 64; i++) {
      a[i] = 0.5f + i % 3; b[i] = 8.0f + i % 5; c[i] = 1.0f - i % 2; r[i] = 1.0f + i;
      u1[i] = u2[i] = g1[i] = g2[i] = 0.0f;
    }
    tridag_orig(a, b, c, r, u1, g1, sizes[k]);
    tridag(a, b, c, r, u2, g2, sizes[k]);
    if (memcmp(u1, u2, sizeof u1) || memcmp(g1, g2, sizeof g1)) return 1 + k;
  }
  return 0;
}
"""),
}


@needs_gcc
@pytest.mark.parametrize("name", ["scale16", "tridag"])
def test_the_output_counting_with_own_counters_computes_the_original(tmp_path, name):
    function, driver = _DRIVERS[name]
    sizes = {"scale16": ["16", "13"], "tridag": ["12", "11"]}[name]      # unrolls of 4, 2 and 3
    for n in sizes:
        rc, out, err = run_cli("run", DATA / f"{name}.c", "--recipe", DATA / f"{name}.yaml",
                               "--function", function, "-D", f"n={n}")
        assert rc == 0 and ": ok" in out, (n, out + err)
    text = _transform(tmp_path, DATA / f"{name}.c", f"{name}.yaml", function)
    assert not re.search(r"\(void\)\s*[a-z]+;", text), text        # counts with the function's own
    (tmp_path / "driver.c").write_text(driver)
    exe = tmp_path / "diff"
    objs = []
    for src, extra in ((DATA / f"{name}.c", [f"-D{function}={function}_orig"]), (tmp_path / "out.c", []),
                       (tmp_path / "driver.c", [])):
        obj = tmp_path / (src.stem + ("_orig" if extra else "") + ".o")
        got = subprocess.run(["gcc", *WALL, "-O1", *extra, "-c", str(src), "-o", str(obj)],
                             capture_output=True, text=True)
        assert got.returncode == 0, got.stderr
        objs.append(str(obj))
    got = subprocess.run(["gcc", *objs, "-o", str(exe)], capture_output=True, text=True)
    assert got.returncode == 0, got.stderr
    assert subprocess.run([str(exe)]).returncode == 0, text


@needs_gcc
def test_the_best_file_of_an_orio_fragment_uses_its_own_counters(tmp_path, private_build_cache):
    src = tmp_path / "heat_orio.c"
    shutil.copy(DATA / "heat_orio.c", src)
    rc, out, err = run_cli("search", src, "--budget", "2", "--no-progress")
    assert rc == 0, out + err
    best = (tmp_path / "heat_orio.best.c").read_text()
    fragment = best[best.index("int i, j;"):]
    # Orio pastes the fragment into a function of its own
    wrapped = tmp_path / "pasted.c"
    wrapped.write_text("#define NX 50\n#define NY 70\nstatic double u[NX*NY], unew[NX*NY]; double alpha;\n"
                       f"void f(void) {{\n{fragment}\n}}\n")
    _wall_clean(tmp_path, wrapped)
