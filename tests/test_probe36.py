"""Probe 36 (Rodinia, NPB, NWChem triples, Orio/CUDA-CHiLL tensor files): an index temporary
named in omp_for's private list, reads through index arrays into a linearized image at
symbolic sizes, and a pure helper that sets a local in an if/else (Rodinia nw's `maximum`)."""
import subprocess
from pathlib import Path

from conftest import run_cli
from test_cuda_codegen import needs_nvcc, nvcc_compile

DATA = Path(__file__).resolve().parent / "data" / "probe36"


def test_a_substituted_index_temporary_may_be_listed_private(tmp_path):
    """srad's `k = i*cols + j; a[k]` with OpenMP's own private(k): accepted, k needs no copy,
    and the function's unused `int k;` does not warn under -Wall."""
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - omp_for: {stmt: 0, loop: i, private: [k]}\n")
    out_c = tmp_path / "out.c"
    rc, out, err = run_cli("transform", DATA / "subst_scalar_dead.c", "--recipe", r, "-o", out_c)
    assert rc == 0 and "'k' needs no private copy" in err, err
    text = out_c.read_text()
    assert "#pragma omp parallel for" in text and "a[i * m + j]" in text and "(void)k;" in text, text
    p = subprocess.run(["gcc", "-Wall", "-Wno-unknown-pragmas", "-Werror", "-fopenmp", "-c", str(out_c),
                        "-o", str(tmp_path / "o.o")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    rc, out, err = run_cli("run", DATA / "subst_scalar_dead.c", "--recipe", r, "-D", "n=7", "-D", "m=5",
                           "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


def test_an_unknown_private_name_is_still_refused(tmp_path):
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - omp_for: {stmt: 0, loop: i, private: [q]}\n")
    rc, out, err = run_cli("transform", DATA / "subst_scalar_dead.c", "--recipe", r)
    assert rc == 2 and "'q' is not used in the region" in err, err


def test_index_array_reads_of_a_linearized_image_at_symbolic_sizes(tmp_path):
    """`J[iN[i]*cols + j]` (a row from data) and `J[i*cols + jW[j]]` (a column from data):
    reads of any element of J, which the region never writes; `run` fills iN with row numbers
    and jW with positions in a row."""
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - tile: {stmt: 0, loop: j, size: 4, control: jj}\n  - omp_for: {stmt: 0, loop: i}\n")
    for name in ("srad_indexrow.c", "srad_indexcol.c"):
        rc, out, err = run_cli("deps", DATA / name)
        assert rc == 0 and "i        [S0] parallel" in out, err
        rc, out, err = run_cli("transform", DATA / name, "--recipe", r)
        assert rc == 0 and "jj" in out, err
        for rows, cols in ((13, 19), (4, 8)):
            rc, out, err = run_cli("run", DATA / name, "--recipe", r, "-D", f"rows={rows}", "-D", f"cols={cols}",
                                   "--repetitions", "1")
            assert rc == 0 and ": ok" in out, (name, out + err)


def _srad_reading(tmp_path, read: str):
    """srad_indexcol.c with its index-array read replaced by `read`, and a tile of j."""
    src = tmp_path / "srad.c"
    src.write_text((DATA / "srad_indexcol.c").read_text().replace("J[i * cols + jW[j]]", read))
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - tile: {stmt: 0, loop: j, size: 4, control: jj}\n")
    return src, r


def test_a_row_after_the_current_one_is_allocated_for_an_in_row_index(tmp_path):
    """`J[(i + 1)*cols + jW[j]]` reaches one row past the affine reads: the harness allocates it."""
    from looptx.pipeline import load
    from looptx.runtime.harness import RegionSignature
    src, r = _srad_reading(tmp_path, "J[(i + 1) * cols + jW[j]]")
    scop = load(str(src), defines={"rows": 5, "cols": 7}).scops[0]
    sig = RegionSignature.from_scop(scop, sizes={"rows": 5, "cols": 7})
    shapes = {a.name: a.shape for a in sig.args if a.kind == "array"}
    ranges = {a.name: a.index_range for a in sig.args if a.kind == "array"}
    assert shapes["J"][0] >= (5 + 1) * 7 and ranges["jW"] == (0, 7), (shapes, ranges)
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "rows=5", "-D", "cols=7", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


def test_a_row_before_the_first_is_refused_for_an_in_row_index(tmp_path):
    """`J[(i - 1)*cols + jW[j]]` at i = 0 reads before J whatever jW holds."""
    src, r = _srad_reading(tmp_path, "J[(i - 1) * cols + jW[j]]")
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "rows=5", "-D", "cols=7", "--repetitions", "1")
    assert rc == 2 and "no values of 'jW'" in err, out + err


def test_a_helper_that_sets_a_local_in_an_if_else_is_pure(tmp_path):
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 4}\n")
    rc, out, err = run_cli("run", DATA / "helper_ifelse_local.c", "--recipe", r, "-D", "n=13", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


def test_a_helper_that_writes_memory_is_still_refused(tmp_path):
    src = tmp_path / "k.c"
    src.write_text((DATA / "helper_ifelse_local.c").read_text()
                   .replace("int maximum(int a, int b, int c) {", "int g;\nint maximum(int a, int b, int c) {")
                   .replace("        k = a;", "        { k = a; g = k; }"))
    rc, out, err = run_cli("deps", src)
    assert rc == 2 and "call to 'maximum' may have side effects" in err, err


@needs_nvcc
def test_the_if_else_helper_compiles_in_the_cu(tmp_path):
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 32, control: ii}\n"
                 "  - cuda: {stmt: 0, block: [ii], thread: [i]}\n")
    rc, out, err = run_cli("transform", DATA / "helper_ifelse_local.c", "--recipe", r, "--target", "cuda")
    assert rc == 0 and "__host__ __device__" in out, err
    assert nvcc_compile(out) is None


RPRJ3 = ["-D", "m1j=9", "-D", "m2j=11", "-D", "m3j=13"]


def test_npb_mg_rprj3_takes_d1_d2_d3_from_the_if_else_before_the_region():
    """`if (m1k == 3) d1 = 2; else d1 = 1;` (and d2, d3): the harness computes them from -D m1k."""
    src, r = DATA / "npb_mg_rprj3.c", DATA / "rprj3_unroll_tile.yaml"
    for fine in (["-D", "m1k=17", "-D", "m2k=21", "-D", "m3k=25"], ["-D", "m1k=3", "-D", "m2k=21", "-D", "m3k=3"]):
        coarse = RPRJ3 if fine[1] == "m1k=17" else ["-D", "m1j=2", "-D", "m2j=11", "-D", "m3j=2"]
        rc, out, err = run_cli("run", src, "--recipe", r, *fine, *coarse, "--repetitions", "1")
        assert rc == 0 and ": ok" in out, (fine, out + err)


def test_sizes_that_read_past_a_pointer_arrays_rows_are_refused():
    """m1k = 3 with m1j = 9: the region reads r[..][..][13] of rows of 3, other memory in C."""
    rc, out, err = run_cli("run", DATA / "npb_mg_rprj3.c", "--recipe", DATA / "rprj3_unroll_tile.yaml",
                           "-D", "m1k=3", "-D", "m2k=3", "-D", "m3k=3", *RPRJ3)
    assert rc == 2 and "of array 'r', outside its" in err and "give sizes that agree" in err, out + err
