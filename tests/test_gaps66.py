"""Gaps found in session 66 (probe 170 G3 and what probes 173-177 found), end to end."""
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
