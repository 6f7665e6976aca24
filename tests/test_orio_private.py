"""Orio's `openmp = (PAR, 'omp parallel for private(i,j,jj,t)')`: the scalar temporary of the
private list is privatized (it used to be ignored, so every PAR=True point was illegal)."""
import shutil
from pathlib import Path

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "orio"


def test_the_private_temporary_makes_the_parallel_points_legal(tmp_path):
    src = tmp_path / "openmp_private.c"
    shutil.copy(DATA / "openmp_private.c", src)
    rc, out, err = run_cli("transform", src, "-D", "T=8", "-D", "PAR=True")
    assert rc == 0 and "#pragma omp parallel for private(t)" in out, err
    assert "private already" not in err, err
    rc, out, err = run_cli("search", src, "--budget", "4")
    assert rc == 0 and "status: ok 4" in out, out + err


def test_validated_in_parallel_at_a_size_the_tile_does_not_divide(tmp_path):
    src = tmp_path / "openmp_private.c"
    shutil.copy(DATA / "openmp_private.c", src)
    rc, out, err = run_cli("run", src, "-D", "T=8", "-D", "PAR=True", "-D", "N=45",
                           "--cflags", "-O2 -fopenmp", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err
