"""Known-illegal recipes are rejected with a concrete witness; their legal repairs are accepted
(and give bit-identical results)."""
import re
import subprocess
import sys

import pytest

from difftest import KERNELS, check_same, size_sets
from looptx.errors import LegalityError
from looptx.frontend.cparse import parse_file
from looptx.pipeline import load
from looptx.recipe.apply import apply_recipe
from looptx.recipe.schema import load_yaml
from recipe_cases import transform_text

WITNESS = re.compile(r"step \d+ \(\w+\): error: S\d+\([\d,]*\) (reads|writes) \w+(\[[-\d]+\])* before "
                     r"S\d+\([\d,]*\) (reads|writes) it")


def scop(body, decls="double A[N][N], B[N], C[N];"):
    text = f"#define N 64\n#define T 8\n{decls}\nvoid f(void) {{\n  int t, i, j, k;\n#pragma scop\n{body}\n#pragma endscop\n}}\n"
    return parse_file("t.c", text=text).scops[0]


def steps(*lines):
    return load_yaml("steps:\n" + "".join(f"  - {s}\n" for s in lines), file="r.yaml")


def rejected(s, *lines) -> str:
    with pytest.raises(LegalityError) as e:
        apply_recipe(s, steps(*lines))
    msg = str(e.value)
    assert "\n" not in msg
    assert WITNESS.search(msg), msg
    return msg


STENCIL = """
  for (i = 1; i < N; i++)
    for (j = 0; j < N - 1; j++)
      A[i][j] = A[i - 1][j + 1] + A[i][j + 1];"""


def test_interchange_of_in_place_stencil_is_rejected():
    msg = rejected(scop(STENCIL), "permute: {stmt: 0, order: [j, i]}")
    assert msg.startswith("r.yaml:2: step 1 (permute): error: S0(")
    assert "the new order reverses them" in msg


def test_skewed_interchange_of_stencil_is_accepted():
    apply_recipe(scop(STENCIL), steps("skew: {stmt: 0, loop: j, by: {i: 1}}", "permute: {stmt: 0, order: [j, i]}"))


def test_seidel_time_loop_inside_space_loops_is_rejected():
    prog = load(str(KERNELS / "seidel-2d.c"))
    names = list(prog.scops[0].statements[0].iterators)
    t, rest = names[0], names[1:]
    with pytest.raises(LegalityError) as e:
        apply_recipe(prog.scops[0], steps(f"permute: {{stmt: 0, order: [{', '.join(rest + [t])}]}}"))
    assert WITNESS.search(str(e.value)), str(e.value)


def test_reversing_a_reduction_loop_is_rejected():
    s = scop("""
  for (i = 0; i < N; i++)
    for (k = 0; k < N; k++)
      B[i] += A[i][k] * C[k];""")
    msg = rejected(s, "reverse: {stmt: 0, loop: k}")
    assert "on B" in msg


def test_consumer_before_producer_is_rejected_and_shifted_fusion_accepted():
    s = scop("""
  for (i = 0; i < N; i++)
    B[i] = A[i][0] * 2.0;
  for (i = 0; i < N - 1; i++)
    C[i] = B[i] + B[i + 1];""")
    msg = rejected(s, "fuse: {stmts: [0, 1], loop: i}")
    assert "S0(1) writes B[1] before S1(0) reads it" in msg, msg
    apply_recipe(s, steps("shift: {stmt: 1, loop: i, by: 1}", "fuse: {stmts: [0, 1], loop: i}"))


def test_rectangular_tiling_of_stencil_needs_skew():
    kernel = KERNELS / "seidel-1d.c"
    prog = load(str(kernel))
    tile = ["tile: {stmt: 0, loop: t, size: 4}", "tile: {stmt: 0, loop: i, size: 8}",
            "permute: {stmt: 0, order: [tt, ii, t, i]}"]
    with pytest.raises(LegalityError) as e:
        apply_recipe(prog.scops[0], steps(*tile))
    assert WITNESS.search(str(e.value)) and "step 3 (permute)" in str(e.value)
    text, err = transform_text(prog, ["skew: {stmt: 0, loop: i, by: {t: 1}}"] + tile)
    assert err is None, err
    for sizes in size_sets(kernel):
        check_same(kernel, text, sizes)


def test_illegal_recipe_cli_exit_2(tmp_path):
    r = tmp_path / "bad.yaml"
    r.write_text("steps:\n  - permute: {stmt: 0, order: [i, t]}\n")
    proc = subprocess.run([sys.executable, "-m", "looptx", "transform", str(KERNELS / "seidel-1d.c"),
                           "--recipe", str(r)], capture_output=True, text=True)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{r}:2: step 1 (permute): error: S0("), proc.stderr
    unsafe = subprocess.run([sys.executable, "-m", "looptx", "transform", str(KERNELS / "seidel-1d.c"),
                             "--recipe", str(r), "--unsafe"], capture_output=True, text=True)
    assert unsafe.returncode == 0 and "UNSAFE" in unsafe.stdout.split("*/")[0]


def test_witness_is_shown_at_the_size_the_file_defines():
    # N is `#define N 64` in every build: a witness "with N=2" named an instance the program
    # never runs; a size the file leaves open is still shown at a small value
    msg = rejected(scop(STENCIL), "permute: {stmt: 0, order: [j, i]}")
    assert "(with N=64)" in msg, msg
    text = ("#ifndef N\n#define N 64\n#endif\ndouble A[N][N];\nvoid f(void) {\n  int i, j;\n"
            f"#pragma scop\n{STENCIL}\n#pragma endscop\n}}\n")
    msg = rejected(parse_file("t.c", text=text).scops[0], "permute: {stmt: 0, order: [j, i]}")
    assert "(with N=3)" in msg, msg


FLAT = """#define NX 16
#define NY 12
#define Z 0
void k(float e[NX*NY], float w[NX]) {
  int i, j;
#pragma scop
  for (j = 1; j < NY; j++)
    for (i = 0; i < NX - 1; i++)
      e[(j*NX + i) + NX*NY*Z] = %s + w[i];
#pragma endscop
}
"""


def test_sizes_that_make_a_subscript_affine_have_their_values():
    """`e[j*NX + i + NX*NY*Z]` is affine only with the #defined values (16, 12, 0) put in: the
    model holds for them alone, and says so.  Before, NX stayed free, so rows could alias
    (NX=24 against i < 15) and a legal interchange was refused at sizes the file never has."""
    legal = parse_file("t.c", text=FLAT % "e[(j*NX + i) + NX*NY*Z] * 0.5f").scops[0]
    assert "NX = 16" in legal.assumptions and "Z = 0" in legal.assumptions, legal.assumptions
    apply_recipe(legal, load_yaml("steps:\n  - permute: {stmt: 0, order: [i, j]}\n"))
    # a true dependence (distance (1, -1)) is still found, at the file's sizes
    msg = rejected(parse_file("t.c", text=FLAT % "e[((j - 1)*NX + i + 1) + NX*NY*Z]").scops[0],
                   "permute: {stmt: 0, order: [i, j]}")
    assert "(with NY=12, NX=16, Z=0)" in msg and "RAW on e" in msg, msg


def test_a_size_defined_below_one_is_not_assumed_positive(tmp_path):
    c = tmp_path / "k.c"
    c.write_text(FLAT.replace("%s", "e[(j*NX + i) + NX*NY*Z] * 0.5f").replace("#define NX 16", "#define NX 16\n#define OFF 0")
                 .replace("w[i];", "w[i + OFF];"))
    s = parse_file(str(c)).scops[0]
    assert not any(a.startswith("OFF") for a in s.assumptions), s.assumptions
    assert not s.context.is_empty()
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - tile: {stmt: 0, loop: i, size: 4}\n")
    p = subprocess.run([sys.executable, "-m", "looptx", "run", str(c), "--recipe", str(r), "--repetitions", "1"],
                       capture_output=True, text=True)
    assert p.returncode == 0 and ": ok " in p.stdout, (p.stdout, p.stderr)


def test_a_violation_only_at_unequal_sizes_has_a_witness(tmp_path):
    """PolyBench 2mm's fuse of S1 and S3 breaks a dependence only when nk <= 0 (S0's tmp = 0
    then flows straight to S3): the witness is found at small unequal sizes, not dropped."""
    import islpy as isl
    from looptx.poly.deps import small_point
    c = tmp_path / "mm2.c"
    c.write_text("void k(int ni, int nj, int nk, int nl, double tmp[ni][nj], double D[ni][nl])\n{\n"
                 "#pragma scop\n  for (int i = 0; i < ni; i++)\n    for (int j = 0; j < nj; j++)\n"
                 "      tmp[i][j] = nk;\n  for (int i = 0; i < ni; i++)\n    for (int j = 0; j < nl; j++)\n"
                 "      D[i][j] = tmp[i][j];\n#pragma endscop\n}\n")
    scop = parse_file(str(c)).scops[0]
    rel = isl.Map(f"{scop.prefix}{{ S0[i, j] -> S1[i2, j2] : nk <= 0 and i2 = i and 0 <= i < ni and "
                  "0 <= j < nj and 0 <= j2 < j and j2 < nl }")
    src, dst, sizes = small_point(rel, scop)
    assert sizes["nk"] <= 0 and all(0 < sizes[p] <= 2 for p in ("ni", "nj", "nl")), sizes
    assert src == (0, 1) and dst == (0, 0), (src, dst)
