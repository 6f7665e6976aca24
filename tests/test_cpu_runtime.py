"""CPU runtime: cached shared-library builds, compile errors as statuses, ctypes calls,
in-process timing with the written arrays reset before every run."""
import os
from pathlib import Path

import numpy as np
import pytest

from looptx.pipeline import c_block, load
from looptx.poly.variant import original
from looptx.runtime.cpu import (RegionRun, Toolchain, build_shared, call_overhead,
                                compiler_version, cpu_model, time_region)
from looptx.runtime.harness import RegionSignature, make_inputs, region_source

KERNELS = Path(__file__).resolve().parent / "kernels"

pytestmark = pytest.mark.usefixtures("private_build_cache")



@pytest.fixture(scope="module")
def matmul():
    prog = load(str(KERNELS / "matmul.c"), defines={"NI": 24, "NJ": 20, "NK": 16})
    scop = prog.scops[0]
    sig = RegionSignature.from_scop(scop, prog.int_macros, {})
    return sig, region_source(sig, c_block(original(scop)))


def test_toolchain_from_orio_build_command():
    tc = Toolchain.from_options(build_command="gcc -O2 -march=x86-64 -o a.out -c -lm -L/opt/lib")
    assert tc.compiler == "gcc" and tc.flags == ("-O2", "-march=x86-64")
    assert tc.libs == ("-lm", "-L/opt/lib")
    cmd = tc.command("x.c", "x.so")
    assert cmd[:2] == ["gcc", "-O2"] and "-shared" in cmd and cmd.index("x.c") < cmd.index("-lm")
    tc2 = Toolchain.from_options("-O3 -funroll-loops", compiler="cc")
    assert tc2.compiler == "cc" and tc2.flags_text == "-O3 -funroll-loops"
    assert tc.key() != tc2.key()


def test_builds_are_cached_by_source_and_flags(matmul, tmp_path):
    sig, src = matmul
    a = build_shared(src, Toolchain(flags=("-O1",)), cache=str(tmp_path))
    b = build_shared(src, Toolchain(flags=("-O1",)), cache=str(tmp_path))
    c = build_shared(src, Toolchain(flags=("-O2",)), cache=str(tmp_path))
    d = build_shared(src + "\n/* other */\n", Toolchain(flags=("-O1",)), cache=str(tmp_path))
    assert a.ok and not a.cached and a.compile_time > 0
    assert b.ok and b.cached and b.path == a.path and b.compile_time == 0.0
    assert c.path != a.path and d.path != a.path and not c.cached
    assert "-O2" in c.command and os.path.isfile(c.path)
    assert not [p for p in os.listdir(tmp_path) if ".so." in p or ".c." in p]   # no temp left


def test_compile_error_is_a_status_with_the_first_error_line(tmp_path):
    src = "void lx_region(double *a)\n{\n  a[0] = undeclared_thing + 1;\n  a[1] = ;\n}\n"
    b = build_shared(src, Toolchain(flags=("-O1",)), cache=str(tmp_path))
    assert b.status == "compile_error" and b.path is None
    assert "error:" in b.error and "undeclared_thing" in b.error and ":3:" in b.error
    assert b.log.count("error:") >= 2
    nocc = build_shared(src, Toolchain("no-such-compiler-lx", ("-O1",)), cache=str(tmp_path))
    assert nocc.status == "compile_error" and "not found" in nocc.error


def test_written_arrays_are_reset_before_every_run(matmul, tmp_path):
    """C += A*B: five timed repetitions leave the same C as one run (Orio accumulates)."""
    sig, src = matmul
    b = build_shared(src, Toolchain(flags=("-O2",)), cache=str(tmp_path))
    x = make_inputs(sig, 5)
    one = RegionRun(b.path, sig, x)
    times1 = time_region(one, repetitions=1, warmup=0)
    five = RegionRun(b.path, sig, x)
    times5 = time_region(five, repetitions=5, warmup=2)
    assert len(times1) == 1 and len(times5) == 5 and all(t > 0 for t in times5)
    assert np.array_equal(one.outputs()["C"], five.outputs()["C"])
    np.testing.assert_allclose(five.outputs()["C"], x["C"] + x["A"] @ x["B"], rtol=1e-12)
    # ... and the test can fail: without a reset the second call accumulates.
    raw = RegionRun(b.path, sig, x)
    raw.reset()
    raw.call()
    raw.call()
    assert not np.allclose(raw.outputs()["C"], five.outputs()["C"])
    # The caller's inputs are never touched.
    assert np.array_equal(x["C"], make_inputs(sig, 5)["C"])


def test_scalars_in_and_out_cross_the_ctypes_boundary(tmp_path):
    prog = load(str(KERNELS / "gemv-scalar.c"), defines={"N": 5, "M": 4})
    scop = prog.scops[0]
    sig = RegionSignature.from_scop(scop, prog.int_macros, {})
    b = build_shared(region_source(sig, c_block(original(scop))), Toolchain(flags=("-O1",)),
                     cache=str(tmp_path))
    x = make_inputs(sig, 1)
    run = RegionRun(b.path, sig, x)
    run.reset()
    run.call()
    out = run.outputs()
    acc = x["A"] @ x["x"]
    np.testing.assert_allclose(out["y"], x["alpha"] * acc + x["y"], rtol=1e-13)
    np.testing.assert_allclose(out["acc"], acc[-1], rtol=1e-13)
    assert out["acc"].shape == ()


def test_a_write_to_a_read_only_array_is_noticed(matmul, tmp_path):
    sig, src = matmul
    bad = src.replace("C[i][j] += A[i][k] * B[k][j];", "C[i][j] += A[i][k] * B[k][j]; A[0][0] = 7;")
    assert bad != src
    run = RegionRun(build_shared(bad, Toolchain(flags=("-O1",)), cache=str(tmp_path)).path, sig,
                    make_inputs(sig, 0))
    run.reset()
    run.call()
    assert run.inputs_intact() == "A"
    good = RegionRun(build_shared(src, Toolchain(flags=("-O1",)), cache=str(tmp_path)).path, sig,
                     make_inputs(sig, 0))
    good.reset()
    good.call()
    assert good.inputs_intact() is None


def test_call_overhead_is_small_and_reported():
    t = call_overhead(samples=3000)
    print(f"\nctypes call + perf_counter overhead of one region call: {t * 1e6:.2f} us")
    assert 0 < t < 50e-6


def test_compiler_and_cpu_description():
    assert "gcc" in compiler_version("gcc").lower() or "cc" in compiler_version("gcc").lower()
    assert compiler_version("no-such-compiler-lx") == "no-such-compiler-lx"
    assert cpu_model()
