"""Probe 38 (Orio PerfTuning files from Orio's testsuite and users' repos): a `decl int` of
input_vars that sizes the decls after it, Unroll's `parallelize`, and MSimplex's own option
names."""
import shutil
from pathlib import Path

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "probe38"


def _copy(tmp_path, name):
    src = tmp_path / name
    shutil.copy(DATA / name, src)
    return src


def test_a_decl_int_of_input_vars_sizes_the_decls_after_it(tmp_path):
    """`decl int M = NCONT; decl dynamic double A[M]` (Orio's sandbox/mm/pluto/mm.ancc.c)."""
    src = _copy(tmp_path, "declint_extent.c")
    rc, out, err = run_cli("search", src, "--budget", "2", "--no-progress")
    assert rc == 0 and "status: ok 2" in out, out + err


def test_a_decl_sized_by_an_unknown_name_is_still_refused(tmp_path):
    src = tmp_path / "k.c"
    src.write_text((DATA / "declint_extent.c").read_text().replace("double A[M]", "double A[MM]"))
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and "decl 'A' uses unknown name 'MM'" in err, err


def test_unroll_parallelize_puts_the_openmp_pragma_on_the_unrolled_loop(tmp_path):
    src = _copy(tmp_path, "unroll_parallelize.c")
    for value, pragma in (("True", True), ("False", False)):
        rc, out, err = run_cli("transform", src, "-D", f"PA={value}")
        assert rc == 0 and ("#pragma omp parallel for" in out) == pragma, (value, err + out)


def test_msimplex_search_distance_and_edge_length_are_simplex_options(tmp_path):
    src = _copy(tmp_path, "msimplex_search_distance.c")
    text = src.read_text().replace("arg msimplex_search_distance = 1;",
                                   "arg msimplex_search_distance = 1;\n    arg msimplex_edge_length = 3;")
    src.write_text(text)
    rc, out, err = run_cli("search", src, "--budget", "4", "--no-progress")
    assert rc == 0 and "unknown option" not in err and "status: ok" in out, out + err
    from looptx.search.registry import get_searcher
    simplex = get_searcher("MSimplex")
    opts = simplex._parse_options({"msimplex_search_distance": 2, "msimplex_edge_length": 3})
    assert opts["local_distance"] == 2 and opts["edge_length"] == 3
