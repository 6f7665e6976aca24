"""Region harness: signatures, generated translation units, seeded inputs, validation.

Each corpus kernel's ORIGINAL region is compiled through the harness and its results compared
with numpy, so the signature (VLA extents, scalars by value / by pointer, #defines) is proven
to hand the region the right data."""
from pathlib import Path

import numpy as np
import pytest

from looptx.errors import LooptxError
from looptx.pipeline import c_block, load
from looptx.poly.variant import original
from looptx.runtime.cpu import RegionRun, Toolchain, build_shared
from looptx.runtime.harness import (RegionSignature, compare, compare_detail, default_rtol,
                                    eval_extent, make_inputs, region_source)

KERNELS = Path(__file__).resolve().parent / "kernels"

pytestmark = pytest.mark.usefixtures("private_build_cache")

TC = Toolchain(flags=("-O1",))


def run_original(path, sizes, *, defines=None, seed=0, function=None):
    prog = load(str(path), defines=defines, function=function)
    scop = prog.scops[0]
    sig = RegionSignature.from_scop(scop, prog.int_macros, sizes)
    src = region_source(sig, c_block(original(scop)))
    b = build_shared(src, TC)
    assert b.ok, (b.error, src)
    inputs = make_inputs(sig, seed)
    run = RegionRun(b.path, sig, inputs)
    run.reset()
    run.call()
    return sig, src, inputs, run.outputs()


def close(a, b, rtol=1e-12):
    np.testing.assert_allclose(a, b, rtol=rtol, atol=0)


# ---------------------------------------------------------------- corpus kernels vs numpy

def test_matmul_original_matches_numpy():
    sig, src, x, out = run_original(KERNELS / "matmul.c", {}, defines={"NI": 12, "NJ": 10, "NK": 7})
    assert [a.kind for a in sig.args] == ["array"] * 3 and sig.written == ("C",)
    assert "double C[restrict 12][10]" in src and "#define" not in src   # fixed: constants
    assert x["A"].shape == (12, 7) and x["B"].shape == (7, 10)
    close(out["C"], x["C"] + x["A"] @ x["B"])


def test_matmul_symbolic_sizes_are_int_arguments():
    # Loaded without defines, NI.. stay parameters: they become `int` arguments whose values
    # come from the sizes given, or the file's `#define` defaults.
    sig, src, x, out = run_original(KERNELS / "matmul.c", {"NI": 5, "NK": 3})
    assert [(a.name, a.value) for a in sig.args if a.kind == "size"] == \
        [("NI", 5), ("NJ", 48), ("NK", 3)]
    assert "void lx_region(int NI, int NJ, int NK, double A[restrict NI][NK]," in src
    assert "#define NI" not in src
    close(out["C"], x["C"] + x["A"] @ x["B"])


@pytest.mark.parametrize("fixed", [False, True])
def test_2mm_function_parameter_sizes(fixed):
    sizes = {"ni": 6, "nj": 5, "nk": 4, "nl": 3}
    sig, src, x, out = run_original(KERNELS / "2mm.c", sizes, defines=sizes if fixed else None)
    assert sig.arg("alpha").kind == "scalar_in" and sig.arg("beta").kind == "scalar_in"
    assert set(sig.written) == {"tmp", "D"}
    assert ("int ni" in src) != fixed
    tmp = x["alpha"] * x["A"] @ x["B"]
    close(out["tmp"], tmp)
    close(out["D"], x["beta"] * x["D"] + tmp @ x["C"])


def test_doitgen_scalar_temporary_goes_by_pointer():
    sizes = {"NR": 3, "NQ": 4, "NP": 5}
    sig, src, x, out = run_original(KERNELS / "doitgen-scalar.c", {}, defines=sizes)
    assert sig.arg("sum").kind == "scalar_out" and "sum" in sig.written
    assert "double sum = *lx_io_sum;" in src and "*lx_io_sum = sum;" in src
    want = np.einsum("rqs,sp->rqp", x["A"], x["C4"])
    close(out["Out"], want)
    close(out["sum"], want[-1, -1, -1])        # the last value written comes back out


def test_sd_t_d1_1_linearized_arrays():
    sizes = {"P4": 2, "P5": 3, "P6": 2, "H1": 3, "H2": 2, "H3": 4, "H7": 5}
    sig, src, x, out = run_original(KERNELS / "sd_t_d1_1.c", {}, defines=sizes)
    assert sig.shapes["t3"] == (2 * 3 * 2 * 3 * 2 * 4,) and sig.shapes["t2"] == (3 * 3 * 2 * 5,)
    t2 = x["t2"].reshape(3, 3, 2, 5)          # [h1, p5, p4, h7]
    v2 = x["v2"].reshape(5, 2, 2, 4)          # [h7, p6, h2, h3]
    want = x["t3"].reshape(2, 3, 2, 3, 2, 4) - np.einsum("abcd,defg->cbeafg", t2, v2)
    close(out["t3"].reshape(want.shape), want)


def test_gemver_read_only_scalars_by_value():
    sig, src, x, out = run_original(KERNELS / "gemver.c", {"n": 9})
    assert "double alpha" in src and "double beta" in src and "lx_io_alpha" not in src
    assert set(sig.written) == {"A", "x", "w"}
    A = x["A"] + np.outer(x["u1"], x["v1"]) + np.outer(x["u2"], x["v2"])
    xv = x["x"] + x["beta"] * A.T @ x["y"] + x["z"]
    w = x["w"] + x["alpha"] * A @ xv
    close(out["A"], A)
    close(out["x"], xv)
    close(out["w"], w)


def test_mixed_float_and_int_arrays():
    sizes = {"N": 7, "M": 5}
    sig, src, x, out = run_original(KERNELS / "mixed-types.c", {}, defines=sizes)
    assert x["F"].dtype == np.float32 and x["K"].dtype == np.intc and x["W"].dtype == np.intc
    i = np.arange(7, dtype=np.intc)[:, None]
    K = x["K"] * 3 + x["W"][None, :] - i
    F = x["F"] * np.float32(0.5) + x["G"].T
    F = F + K.astype(np.float32) * np.float32(0.25)
    assert np.array_equal(out["K"], K)
    ok, err = compare(F, out["F"], "float")
    assert ok and err < 1e-6


# ---------------------------------------------------------------- sizes and errors

def test_missing_size_is_bad_input_with_a_define_hint():
    prog = load(str(KERNELS / "2mm.c"))
    with pytest.raises(LooptxError) as e:
        RegionSignature.from_scop(prog.scops[0], prog.int_macros, {"NI": 4})
    msg = str(e.value)
    assert "'ni'" in msg and "--define ni=VALUE" in msg and "2mm.c:" in msg
    assert "\n" not in msg


def test_unknown_extent_and_non_int_size(tmp_path):
    f = tmp_path / "ptr.c"
    f.write_text("#define NMAX 100\ndouble g[NMAX][NMAX + 2];\n"
                 "void f(int n, double *a) {\n  int i;\n#pragma scop\n"
                 "  for (i = 0; i < n; i++) { a[i] = a[i] * 2.0; g[i][i + 1] += 1.0; }\n"
                 "#pragma endscop\n}\n")
    prog = load(str(f))
    # a pointer is allocated as far as the region reaches into it at these sizes
    assert RegionSignature.from_scop(prog.scops[0], prog.int_macros, {"n": 4}).shapes["a"] == (4,)
    f.write_text(f.read_text().replace("a[i] = a[i] * 2.0", "a[i] = a[i - 1] * 2.0"))
    prog = load(str(f))
    with pytest.raises(LooptxError, match=r"reads array 'a' below its first element \(index -1\)"):
        RegionSignature.from_scop(prog.scops[0], prog.int_macros, {"n": 4})
    # Declared a[n], that read leaves the array: the original itself is wrong at every size
    f.write_text(f.read_text().replace("double *a", "double a[n]"))
    prog = load(str(f))
    with pytest.raises(LooptxError, match=r"reaches element -1 of array 'a', outside its 4 elements"):
        RegionSignature.from_scop(prog.scops[0], prog.int_macros, {"n": 4})
    # Without the pointer: an extent macro that is not a parameter gets the file's value.
    f.write_text(f.read_text().replace("a[i - 1]", "a[i]"))
    prog = load(str(f))
    sig = RegionSignature.from_scop(prog.scops[0], prog.int_macros, {"n": 4})
    assert sig.shapes["g"] == (100, 102)
    src = region_source(sig, c_block(original(prog.scops[0])))
    assert "double g[restrict 100][100 + 2]" in src and "double a[restrict n]" in src


def test_a_size_that_is_no_program_name_is_never_defined():
    # `e` is an iterator of local_grad3; a stray size named e must not become `#define e 7`.
    sizes = {"E": 2, "N": 3}
    sig, src, x, out = run_original(KERNELS / "local_grad3.c", {**sizes, "e": 7, "n": 9},
                                    defines=sizes)
    assert "#define e" not in src and "#define n" not in src
    D, Dt, u = x["D"], x["Dt"], x["u"]
    close(out["ur"], np.einsum("il,ekjl->ekji", D, u))
    close(out["us"], np.einsum("ekli,lj->ekji", u, Dt))
    close(out["ut"], np.einsum("elji,lk->ekji", u, Dt))


def test_sizes_must_agree_with_fixed_values():
    prog = load(str(KERNELS / "matmul.c"), defines={"NI": 8})
    with pytest.raises(LooptxError, match="disagrees"):
        RegionSignature.from_scop(prog.scops[0], prog.int_macros, {"NI": 9})


def test_eval_extent_is_c_integer_arithmetic_without_eval():
    env = {"N": 7, "M": 3}
    assert eval_extent("N + 2", env) == 9
    assert eval_extent("((N * M) * 2)", env) == 42
    assert eval_extent("N / 2", env) == 3 and eval_extent("-N / 2", env) == -3   # truncation
    assert eval_extent("N % M", env) == 1 and eval_extent("1 << M", env) == 8
    assert eval_extent("16UL", env) == 16
    with pytest.raises(KeyError):
        eval_extent("N + K", env)
    for bad in ("__import__('os').getcwd()", "N.real", "N ** 2", "[N]", "N / 0"):
        with pytest.raises(ValueError):
            eval_extent(bad, env)


# ---------------------------------------------------------------- inputs

def test_make_inputs_seeded_nonzero_typed():
    prog = load(str(KERNELS / "mixed-types.c"), defines={"N": 6, "M": 4})
    sig = RegionSignature.from_scop(prog.scops[0], prog.int_macros, {})
    a, b, c = make_inputs(sig, 3), make_inputs(sig, 3), make_inputs(sig, 4)
    for name, v in a.items():
        assert v.flags.c_contiguous and v.shape == sig.shapes[name]
        assert np.array_equal(v, b[name])
        assert np.all(v != 0)
    assert not np.array_equal(a["F"], c["F"])
    assert a["F"].dtype == np.float32 and a["F"].min() >= 0.5 and a["F"].max() <= 1.5
    assert a["K"].min() >= 1 and a["K"].max() <= 9


# ---------------------------------------------------------------- compare

def test_compare_tolerances():
    r = np.linspace(1.0, 2.0, 50)
    assert compare(r, r, "double") == (True, 0.0)
    assert compare(r, r * (1 + 1e-13), "double")[0]
    ok, err = compare(r, r * (1 + 1e-8), "double")
    assert not ok and err == pytest.approx(1e-8, rel=1e-3)
    rf = r.astype(np.float32)
    assert compare(rf, rf * np.float32(1 + 1e-6), "float")[0]
    assert not compare(rf, rf * np.float32(1 + 1e-3), "float")[0]
    assert default_rtol("double") == 1e-10 and default_rtol("float") == 1e-4
    assert default_rtol("int") == 0.0
    ri = np.arange(10, dtype=np.intc)
    assert compare(ri, ri.copy(), "int") == (True, 0.0)
    bad = ri.copy()
    bad[3] += 1
    assert not compare(ri, bad, "int")[0]
    assert not compare(r, r[:-1], "double")[0]


def test_nan_and_inf_never_pass_where_the_reference_is_finite():
    r = np.ones((4, 4))
    for special in (np.nan, np.inf, -np.inf):
        x = r.copy()
        x[2, 1] = special
        c = compare_detail(r, x, "double", rtol=1e30)   # no tolerance lets it through
        assert not c.ok and c.first_bad == (2, 1)
    x = np.full((4, 4), np.nan)
    assert not compare(r, x, "double")[0]
    # A non-finite reference element must be matched exactly.
    rn = r.copy()
    rn[0, 0] = np.nan
    assert compare(rn, rn.copy(), "double")[0]
    x = rn.copy()
    x[0, 0] = 1.0
    assert not compare(rn, x, "double")[0]
    ri = r.copy()
    ri[1, 1] = np.inf
    y = ri.copy()
    y[1, 1] = -np.inf
    assert not compare(ri, y, "double")[0]
    assert not compare(np.array(1.0), np.array(np.nan), "double")[0]


def test_norm_wise_decides_not_element_wise():
    # A cancelling element (1e-14 where the array is ~1) off by a reordering-sized error: the
    # element-wise error is huge, the norm-wise one is not; the latter decides.
    r = np.array([1.0, 2.0, 1e-14])
    x = r + np.array([0.0, 0.0, 4e-16])
    c = compare_detail(r, x, "double")
    assert c.ok and c.max_elem_rel_error > 1e-3 and c.norm_rel_error < 1e-15
    # A lost term (a real bug) is caught.
    x = r.copy()
    x[1] -= 0.25
    c = compare_detail(r, x, "double")
    assert not c.ok and c.bad_elements == 1 and "1 wrong element" in c.describe("C")


def test_float_scalar_by_value_and_a_macro_parameter(tmp_path):
    f = tmp_path / "k.c"
    f.write_text("#define SCALE 3\ndouble g[100][100];\n"
                 "void f(int n, double a[30], double b[30], float c) {\n  int i;\n#pragma scop\n"
                 "  for (i = 0; i < n; i++) { a[i] = a[i] * SCALE + b[i] + c; g[i][i] += 1.0; }\n"
                 "#pragma endscop\n}\n")
    sig, src, x, out = run_original(f, {"n": 4}, defines={"SCALE": 3})
    assert "#define SCALE 3" in src and "float c" in src and "int n" in src
    a = x["a"].copy()
    a[:4] = a[:4] * 3 + x["b"][:4] + np.float64(x["c"])
    close(out["a"], a)
    g = x["g"].copy()
    g[range(4), range(4)] += 1.0
    close(out["g"], g)
