"""Probe 45 (Himeno, HPCG, miniGhost, COSMO, AWP-ODC / SW4, LULESH)."""
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "probe45"
needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc on PATH: the test builds and runs the generated C (CI has it)")


def _recipe(tmp_path, *steps, name="r.yaml"):
    r = tmp_path / name
    r.write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps))
    return r


def _gcc(tmp_path, path, *flags):
    p = subprocess.run(["gcc", "-Wall", "-Wno-unknown-pragmas", "-Werror", *flags, "-c", str(path),
                        "-o", str(tmp_path / "o.o")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


@needs_gcc
@pytest.mark.parametrize("name, function, flags, given", [
    ("initvec.c", "InitVectors", (), ()),                    # #ifndef HPCG_NO_OPENMP: its #endif was taken
    # the group stayed before the block (a pragma of a branch the build leaves out is no
    # pragma of the region: the note is for the build that defines _MG_OPENMP)
    ("mg_ifdef.c", "st", ("-D_MG_OPENMP", "-fopenmp"), ("-D", "_MG_OPENMP=1")),
])
def test_a_conditional_pragma_group_before_a_function_region_goes_with_it(tmp_path, name, function, flags, given):
    out_c = tmp_path / "out.c"
    rc, out, err = run_cli("transform", DATA / name, "--function", function, *given, "-o", out_c)
    assert rc == 0 and "'#pragma omp parallel for' inside the region is dropped" in err, err
    text = out_c.read_text()
    assert "#if" not in text.split("*/", 1)[1] and "#endif" not in text, text
    _gcc(tmp_path, out_c, *flags)


@needs_gcc
@pytest.mark.parametrize("name, defines, check", [
    ("blk.c", ("blk__xstart=0", "blk__xend=40"), "if (blk__xstart == 0 && blk__xend == 40) {"),
    ("gptr.c", ("g__n=40",), "if (g__n == 40) {"),
])
def test_a_define_of_a_struct_member_size_is_checked_as_the_code_runs(tmp_path, name, defines, check):
    """`-D blk__xend=40` gave `#if blk__xend != 40 #error`, on a name the output declares as a C
    variable: the preprocessor read 0 and the #error always fired."""
    out_c = tmp_path / "out.c"
    args = [x for d in defines for x in ("-D", d)]
    rc, out, err = run_cli("transform", DATA / name, "--function", "scale", *args, "-o", out_c)
    assert rc == 0, err
    text = out_c.read_text()
    assert check in text and "#error" not in text, text
    _gcc(tmp_path, out_c)


def test_each_regions_dropped_pragma_has_its_note():
    rc, out, err = run_cli("transform", DATA / "two_regions_omp.c")
    assert rc == 0 and "two_regions_omp.c:4:5: note: '#pragma omp parallel for' inside the region is dropped" in err \
        and "two_regions_omp.c:9:5: note: '#pragma omp parallel for' inside the region is dropped" in err, err


def test_a_local_set_from_a_member_size_takes_its_value():
    """Himeno's `imax = p->mrows - 1;`: `-D p__mrows=9` gave "the size 'imax' has no value", and
    `-D imax=20` next to it validated a state the function never reaches."""
    rc, out, err = run_cli("run", DATA / "member_size_local.c", "--function", "scale", "-D", "p__mrows=9",
                           "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err
    rc, out, err = run_cli("run", DATA / "member_size_local.c", "--function", "scale", "-D", "p__mrows=9",
                           "-D", "imax=20", "--repetitions", "1")
    assert rc == 2 and "-D imax=20 disagrees with what the function sets it to before the region" in err, err
