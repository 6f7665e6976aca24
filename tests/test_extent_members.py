"""Extents of arrays the function declares before the region that are struct members or
locals: Devito's `float (*u)[u_vec->size[1]] = (float (*)[u_vec->size[1]]) u_vec->data;` and
`int ny = m + 4; float (*u)[ny] = ...`.  `run` refused the first ("'u_vec->size[1]' is not an
integer expression", no -D name worked) and asked for `-D ny` in the second, although the
function sets it from m; the .cu of both did not compile (the kernels read the extent and were
not given it; the host function took `int u_vec`)."""
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "extents"
DEVITO = ["--function", "Kernel", "-D", "x_m=0", "-D", "y_m=0"]

needs_nvcc = pytest.mark.skipif(shutil.which("nvcc") is None,
                                reason="needs nvcc on PATH: the test compiles the generated .cu (CI has it)")


@pytest.mark.parametrize("x_M,y_M", [(10, 20), (7, 31)])
def test_a_struct_member_extent_is_a_size_run_takes_by_its_name(x_M, y_M):
    rc, out, err = run_cli("run", DATA / "devito_dataobj.c", *DEVITO, "--recipe", DATA / "tile.yaml",
                           "-D", f"x_M={x_M}", "-D", f"y_M={y_M}", "-D", f"u_vec__size__1={y_M + 5}",
                           "-D", f"v_vec__size__1={y_M + 4}", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


def test_a_struct_member_extent_without_a_value_names_the_member_and_the_define():
    rc, out, err = run_cli("run", DATA / "devito_dataobj.c", *DEVITO, "--recipe", DATA / "tile.yaml",
                           "-D", "x_M=10", "-D", "y_M=20", "--repetitions", "1")
    assert rc == 2 and "Traceback" not in err, err
    assert "u_vec->size[1]" in err and "--define u_vec__size__1=VALUE" in err and "devito_dataobj.c:15:" in err, err
    # a row shorter than the region reaches is refused with the element, before anything runs
    rc, out, err = run_cli("run", DATA / "devito_dataobj.c", *DEVITO, "--recipe", DATA / "tile.yaml",
                           "-D", "x_M=10", "-D", "y_M=20", "-D", "u_vec__size__1=22", "-D", "v_vec__size__1=24",
                           "--repetitions", "1")
    assert rc == 2 and "outside its" in err, err


def test_the_c_output_keeps_the_declarations_as_written():
    rc, out, err = run_cli("transform", DATA / "devito_dataobj.c", "--function", "Kernel",
                           "--recipe", DATA / "tile.yaml")
    assert rc == 0 and "float (*restrict u)[u_vec->size[1]]" in out and "u_vec__size__1" not in out, out + err


@pytest.mark.parametrize("n,m", [(10, 20), (9, 33)])
def test_a_local_extent_takes_its_value_from_the_sizes(n, m):
    rc, out, err = run_cli("run", DATA / "local_rowlen.c", "--function", "Kernel", "--recipe", DATA / "tile.yaml",
                           "-D", f"n={n}", "-D", f"m={m}", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


@needs_nvcc
@pytest.mark.parametrize("name,extra,size_args", [
    # the struct pointers' members take their places (u_vec, v_vec come first in Devito's Kernel)
    ("devito_dataobj.c", DEVITO, "Kernel_host(int u_vec__size__1, int v_vec__size__1, int x_M"),
    ("local_rowlen.c", ["--function", "Kernel"], "int ny)")])
def test_the_kernels_receive_the_extents(tmp_path, name, extra, size_args):
    cu = tmp_path / "k.cu"
    rc, out, err = run_cli("transform", DATA / name, *extra, "--recipe", DATA / "cuda.yaml", "--target", "cuda",
                           "-o", cu)
    assert rc == 0, err
    host = next(line for line in cu.read_text().splitlines() if "Kernel_host(" in line)
    assert size_args in host, host
    p = subprocess.run(["nvcc", "-c", str(cu), "-o", str(tmp_path / "k.o")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


@pytest.mark.gpu
def test_the_kernels_with_member_and_local_extents_on_gpu():
    from test_gpu import _gpu
    _gpu()
    for name, defines in (("devito_dataobj.c", DEVITO + ["-D", "x_M=10", "-D", "y_M=40", "-D", "u_vec__size__1=45",
                                                         "-D", "v_vec__size__1=44"]),
                          ("local_rowlen.c", ["--function", "Kernel", "-D", "n=12", "-D", "m=37"])):
        rc, out, err = run_cli("run", DATA / name, *defines, "--recipe", DATA / "cuda.yaml", "--target", "cuda",
                               "--repetitions", "1")
        assert rc == 0 and ": ok" in out, (name, out + err)
