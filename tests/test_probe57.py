"""Probes 57 (tensor contractions) and 58 (adversarial legality): a pointer declared as another
array (`real_t *xx = a;`, a 2-D array's rows `(real_t *)aa`, a file-scope `xx =
flat_2d_array + 63`) is an alias of it (an illegal reverse was accepted); COGENT-style mappings
whose thread loops and shared footprints are bounded by several #defines are modelled at their
values."""
import pytest

from conftest import run_cli
from test_cuda_codegen import needs_nvcc, nvcc_compile
from test_probe54 import _ok
from test_probe55 import _one_error
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "probe57"

S421 = """#define LEN 32
typedef double real_t;
real_t a[LEN], b[LEN];
DECL
void s421(void)
{
  INIT
  for (int i = 0; i < LEN - 1; i++)
    xx[i] = a[i + 1] + b[i];
}
"""


@pytest.mark.parametrize("decl, init", [
    ("", "real_t *xx = a;"),                     # TSVC s421
    ("", "real_t *xx = (real_t *)a + 0;"),
    ("real_t *xx = a + 2;", ""),                 # TSVC s424's file-scope pointer
])
def test_a_pointer_declared_as_an_array_is_an_alias_of_it(tmp_path, decl, init):
    f, r = tmp_path / "s421.c", tmp_path / "r.yaml"
    f.write_text(S421.replace("DECL", decl).replace("INIT", init))
    r.write_text("steps:\n  - reverse: {stmt: 0, loop: i}\n")
    _one_error(*run_cli("transform", f, "--function", "s421", "--recipe", r),
               "'xx' points into 'a'", "write 'a' where the region uses 'xx'")


@pytest.mark.parametrize("function, why", [("cast2d", "'p' points into 'aa'"),
                                           # refused for its steps first (one name would not do)
                                           ("stepped", "the region moves pointer 'p' (p += LEN2)")])
def test_a_pointer_to_a_2d_array_s_rows_is_an_alias_of_it(tmp_path, function, why):
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - reverse: {stmt: 0, loop: i}\n")
    _one_error(*run_cli("transform", DATA / "alias_rows.c", "--function", function, "--recipe", r), why)


def test_a_pointer_set_once_before_the_loops_is_told_to_use_one_name(tmp_path):
    # the assignment before the first loop stays outside the function's region (session 58),
    # which then reads 'xx' as an alias of 'a', as when it is declared so
    f = tmp_path / "s421.c"
    f.write_text(S421.replace("DECL", "").replace("INIT", "real_t *xx;\n  xx = a;"))
    _one_error(*run_cli("deps", f, "--function", "s421"), "'xx' points into 'a' (set at line 8",
               "write 'a' where the region uses 'xx'")


def test_two_thread_loops_bounded_by_two_defines(tmp_path):
    # TCCG ab-ac-cb with `#define NA 32`, `#define NB 16`: threads [a, b] at both values
    rc, out, err = run_cli("run", DATA / "k16_tccg_ab_ac_cb.c", "--recipe", DATA / "c16_2thr.yaml")
    _ok(rc, out, err)
    assert "thread loop 'a' is mapped at NA = 32" in err and "thread loop 'b' is mapped at NB = 16" in err, err


@needs_nvcc
def test_a_shared_copy_over_several_defined_extents():
    # COGENT-style sd_t_d1_1: the t2 slice's footprint needs four #defines at their values
    rc, cu, err = run_cli("transform", DATA / "k05_d1_1_cogent.c", "--recipe", DATA / "c05_cuda.yaml",
                          "--target", "cuda")
    assert rc == 0, err
    assert "the copy of 't2' is made at SIZE_IDX_P4 = 16" in err and "the #defines' values" in err, err
    assert "__shared__" in cu and nvcc_compile(cu) is None


def test_a_size_read_through_a_cast_follows_its_define(tmp_path):
    # NWChem's C ports: `const int h1u = (int)(*h1d);` follows -D h1d__0 as `*h1d` alone does
    f = tmp_path / "k.c"
    f.write_text("typedef long fint;\nvoid scale(fint *h1d, double *t3)\n{\n  const int h1u = (int)(*h1d);\n"
                 "  for (int h1 = 0; h1 < h1u; h1++)\n    t3[h1] = 2.0 * t3[h1];\n}\n")
    _ok(*run_cli("run", f, "--function", "scale", "-D", "h1d__0=7"))


def test_a_known_fact_on_a_define_s_default_is_checked_by_the_build(tmp_path):
    # probe 58: `known: LEN2 % 4 == 1` with `#ifndef LEN2 #define LEN2 256`: the unrolled code,
    # built as is, ran for 256; now the build stops with #error where the fact fails
    import subprocess
    f, r = tmp_path / "k.c", tmp_path / "r.yaml"
    f.write_text("#ifndef LEN2\n#define LEN2 256\n#endif\ndouble a[LEN2];\n"
                 "void k(void)\n{\n  for (int i = 1; i < LEN2; i++)\n    a[i] = a[i] * 0.5;\n}\n")
    r.write_text("steps:\n  - known: {facts: ['LEN2 % 4 == 1']}\n  - unroll: {stmt: 0, loop: i, factor: 4}\n")
    rc, out, err = run_cli("transform", f, "--function", "k", "--recipe", r)
    assert rc == 0 and "#if !(LEN2 % 4 == 1)\n#error" in out, out + err
    (tmp_path / "o.c").write_text(out)
    bad = subprocess.run(["gcc", "-c", str(tmp_path / "o.c"), "-o", str(tmp_path / "o.o")], capture_output=True, text=True)
    good = subprocess.run(["gcc", "-c", "-DLEN2=9", str(tmp_path / "o.c"), "-o", str(tmp_path / "o.o")],
                          capture_output=True, text=True)
    assert bad.returncode != 0 and "known fact LEN2 % 4 == 1" in bad.stderr and good.returncode == 0, good.stderr


@needs_nvcc
def test_the_cu_checks_a_known_fact_on_its_size_macros():
    # barracuda_fig2's `known: N == 10` on `#ifndef N`: when N was an argument of the .cu, its #if
    # stopped every build; N is now the .cu's macro (session 50), so the #if checks the build
    root = Path(__file__).resolve().parent.parent
    rc, cu, err = run_cli("transform", root / "examples" / "barracuda_fig2.c", "--recipe", "cuda/barracuda_fig2",
                          "--target", "cuda")
    assert rc == 0 and "#if !(N == 10)\n#error" in cu, err
    assert nvcc_compile(cu) is None
    assert "N == 10" in (nvcc_compile("#define N 7\n" + cu) or "")
