"""Probe 46 (generated and physics codes: Devito, Lattice-Boltzmann, MD, DSP)."""
from pathlib import Path

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "probe46"


def _recipe(tmp_path, *steps, name="r.yaml"):
    r = tmp_path / name
    r.write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps))
    return r


def test_a_quoted_libc_include_falls_back_to_the_system_headers(tmp_path):
    """Devito writes `#include "stdlib.h"`: gcc goes on to the system headers; looptx stopped
    with "stdlib.h: No such file or directory"."""
    rc, out, err = run_cli("deps", DATA / "quoted_includes.c")
    assert rc == 0 and "parallel" in out, err
    # a project header that exists nowhere is still an error, as gcc's
    src = tmp_path / "missing.c"
    src.write_text('#include "no_such_project_header.h"\n' + (DATA / "quoted_includes.c").read_text())
    rc, out, err = run_cli("deps", src)
    assert rc == 2 and "no_such_project_header.h" in err, err


def test_modulo_locals_put_into_the_region_leave_no_unused_variable(tmp_path):
    """Devito's `int t0 = (time)%(2);` in the time loop's block: the region reads the expression,
    and gcc -Wall warned that t0 and t1 were unused."""
    import shutil
    import subprocess
    out_c = tmp_path / "out.c"
    rc, out, err = run_cli("transform", DATA / "devito_mod_locals.c", "--recipe", DATA / "devito_mod_locals.yaml",
                           "-o", out_c)
    assert rc == 0, err
    if shutil.which("gcc"):
        p = subprocess.run(["gcc", "-Wall", "-Wno-unknown-pragmas", "-Werror", "-fopenmp", "-c", str(out_c), "-o",
                            str(tmp_path / "o.o")], capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
