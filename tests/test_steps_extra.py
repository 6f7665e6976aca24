"""combine and known: differential checks and the code they change."""

from difftest import KERNELS, check_same
from looptx.errors import RecipeError
from looptx.pipeline import load
from recipe_cases import transform_text


def test_combine_jacobi_fixed_sizes():
    k = KERNELS / "jacobi-2d.c"
    for sizes in ({"N": 20, "TSTEPS": 3}, {"N": 23, "TSTEPS": 2}):
        prog = load(str(k), defines=sizes)
        text, err = transform_text(prog, ["combine: {stmt: 0, loops: [i, j]}",
                                          "combine: {stmt: 1, loops: [i, j], name: q}"])
        assert err is None, err
        assert "for (int ij = " in text and "for (int q = " in text
        check_same(k, text, sizes)


def test_combine_needs_indices_together():
    prog = load(str(KERNELS / "matmul.c"), defines={"NI": 8, "NJ": 8, "NK": 8})
    text, err = transform_text(prog, ["combine: {stmt: 0, loops: [i, j]}"])
    assert text is None and "do not appear together in A[i][k]" in str(err)


def test_combine_needs_constant_extent():
    prog = load(str(KERNELS / "jacobi-2d.c"))
    _, err = transform_text(prog, ["combine: {stmt: 0, loops: [i, j]}"])
    assert isinstance(err, RecipeError) and "constant extent" in str(err)


def test_known_removes_remainder_code():
    k = KERNELS / "matmul.c"
    prog = load(str(k))
    plain, _ = transform_text(prog, ["unroll: {stmt: 0, loop: k, factor: 4}"])
    with_fact, err = transform_text(prog, ["known: ['NK % 4 == 0']", "unroll: {stmt: 0, loop: k, factor: 4}"])
    assert err is None
    region = lambda t: t.split("#pragma scop")[1].split("#pragma endscop")[0]
    assert "% 4" in region(plain) and "% 4" not in region(with_fact)
    for sizes in ({"NI": 8, "NJ": 12, "NK": 16}, {"NI": 7, "NJ": 9, "NK": 20}):
        check_same(k, with_fact, sizes)


def test_known_rejects_unknown_names():
    prog = load(str(KERNELS / "matmul.c"))
    _, err = transform_text(prog, ["known: ['Q >= 4']"])
    assert isinstance(err, RecipeError) and "not a parameter" in str(err)
