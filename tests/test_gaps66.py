"""Gaps found in session 66 (probe 170 G3 and what probes 173-177 found), end to end."""
import re

import pytest

from conftest import run_cli, runs_ok

pytestmark = pytest.mark.usefixtures("private_build_cache")

DATA = __import__("pathlib").Path(__file__).resolve().parent / "data" / "gaps66"


def test_a_function_chain_defines_each_helper_once(tmp_path):
    """Probe 170 G3: each `--function` re-transform kept the `#ifndef lx_floord` groups an
    earlier output put before its block and wrote its own after them, one more copy a step.
    The region now takes those groups, and its output defines each helper once."""
    prev = DATA / "two_functions.c"
    for k, recipe in enumerate(("tile_i4.yaml", "unroll_i3.yaml", "tile_i4.yaml")):
        out = tmp_path / f"step{k}.c"
        rc, _, err = run_cli("transform", prev, "--function", "f", "--recipe", DATA / recipe, "-o", out)
        assert rc == 0, err
        body = out.read_text().split("void f(")[1]
        assert body.count("#ifndef lx_floord") <= 1 and body.count("#ifndef lx_min") <= 1, body
        runs_ok(prev, DATA / recipe, [-3, 0, 1, 7, 37], "--function", "f")
        prev = out


def test_rodinia_reduction_on_a_sum_reset_each_iteration(tmp_path):
    """Probe 171 G4: Rodinia backprop's `reduction(+: sum)` on the loop whose iterations each
    set `sum = 0.0` was refused ("uses it other than as `v = v op e`").  Nothing after the loop
    reads `sum`, so the clause computes what a private `sum` does: the output lists it private.
    The pragma under `#ifdef OPEN`, split from its group by a call, with a comment between it and
    the loop, leaves the C around the region: the output compiles under -fopenmp -DOPEN."""
    out = tmp_path / "bp.c"
    rc, _, err = run_cli("transform", DATA / "backprop.c", "--function", "bpnn_layerforward", "-D", "OPEN=1", "-o", out)
    assert rc == 0 and "it is private" in err, err
    text = out.read_text()
    assert text.count("#pragma omp parallel for") == 1 and "private(k, sum)" in text, text
    import subprocess
    subprocess.run(["gcc", "-fopenmp", "-DOPEN", "-c", out, "-o", tmp_path / "bp.o"], check=True, capture_output=True)
    rc, got, err = run_cli("run", DATA / "backprop.c", "--function", "bpnn_layerforward", "-D", "OPEN=1",
                           "-D", "n1=37", "-D", "n2=20", "--cflags", "-O2 -fopenmp")
    assert rc == 0 and got.count(": ok") == 2, got + err


def test_a_reduction_on_a_sum_read_after_the_loop_is_still_refused(tmp_path):
    """The same clause where the sum is read after the loop: the threads' combined value is
    not the last iteration's, so it stays refused; without that read it is private."""
    recipe = DATA / "omp_reduction_sum.yaml"
    rc, _, err = run_cli("transform", DATA / "reset_sum.c", "--function", "rows", "--recipe", recipe)
    assert rc == 2 and "uses it other than as `v = v op e`" in err, err
    dead = tmp_path / "dead.c"
    dead.write_text((DATA / "reset_sum.c").read_text().replace("  *last = sum;\n", ""))
    rc, out, err = run_cli("transform", dead, "--function", "rows", "--recipe", recipe)
    assert rc == 0 and re.search(r"omp parallel for private\([^)]*\bsum\)", out), out + err
    assert "reduction" not in out.split("*/", 1)[1], out
    runs_ok(dead, recipe, [0, 5, 13], "--function", "rows", "-D", "m=7", "--cflags", "-O2 -fopenmp")
