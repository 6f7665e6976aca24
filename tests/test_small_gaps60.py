"""Gaps found by probes 138 and later, end to end."""
import re
import shutil
from pathlib import Path

import pytest

from conftest import run_cli

pytestmark = pytest.mark.usefixtures("private_build_cache")

DATA = Path(__file__).resolve().parent / "data" / "gaps60"


def test_a_build_macro_carrying_a_param_is_the_points_value(tmp_path):
    """Probe 138 G5: `-DKV=@U@` was dropped ('undeclared identifier KV').  KV sets a bound, so
    each point is its own program: the search validates each against the original built with
    the point's KV, and the best file's bounds are the best point's."""
    src = tmp_path / "m.c"
    shutil.copy(DATA / "macro_param.c", src)
    rc, out, err = run_cli("search", src, "--no-progress")
    assert rc == 0 and "status: ok 3" in out, out + err
    best = (tmp_path / "m.best.c").read_text()
    kv = int(re.search(r"point \{\"U\": (\d)\}", best).group(1))
    # i <= 40 - KV, unrolled by U = KV: the last element is a remainder of its own
    assert f"a[{40 - kv}] = KV" in best if kv > 1 else ("i <= 39;" in best or "i < 40;" in best), best


@pytest.mark.parametrize("u, last", [(None, "i <= N - KV"), ("4", "a[36] = KV * a[36] + b[36];")])
def test_transform_and_run_read_the_macro_from_the_chosen_value(tmp_path, u, last):
    args = ("-D", f"U={u}") if u else ()
    rc, out, err = run_cli("transform", DATA / "macro_param.c", *args, "-o", tmp_path / "t.c")
    assert rc == 0, err
    assert last in (tmp_path / "t.c").read_text()
    rc, out, err = run_cli("run", DATA / "macro_param.c", *args, "-D", "N=37")
    assert rc == 0 and ": ok" in out and f"-DKV={u or 1}" in out, out + err


def test_a_cast_to_a_build_macros_type_in_a_loop_annotation(tmp_path):
    """`(REAL)x` with -DREAL=float: the Loop annotation's code was 'cannot parse'."""
    rc, out, err = run_cli("run", DATA / "macro_cast.c", "-D", "U=2", "-D", "N=37")
    assert rc == 0 and ": ok" in out, out + err


@pytest.mark.parametrize("section, ok", [("s[0:8]", True), ("s[0:7]", False)])
def test_a_reduction_section_sized_by_a_define_is_checked_at_its_value(tmp_path, section, ok):
    """Probe 135 G4: `reduction(+:s[0:8])` where the file #defines M 8 was refused (for M = 9,
    named as s[8]); a step legal only at the #defines' values is made for them."""
    recipe = tmp_path / "r.yaml"
    recipe.write_text(f'steps:\n  - pragma: {{stmt: 0, loop: i, text: "omp parallel for reduction(+:{section})"}}\n')
    rc, out, err = run_cli("transform", DATA / "red_define.c", "--recipe", recipe)
    if not ok:
        assert rc == 2 and "updates s[7], outside the section" in err, err
        return
    assert rc == 0 and "#if M != 8" in out and "reduction(+:s[0:8])" in out, out + err
    assert "legal at the #defines' values, M = 8" in err
    rc, out, err = run_cli("run", DATA / "red_define.c", "--recipe", recipe, "--cflags", "-O2 -fopenmp")
    assert rc == 0 and ": ok" in out, out + err


def test_a_serial_shared_copy_warning_names_the_loop_between_the_thread_loops(tmp_path):
    """Probe 137 G2: the warning said the copied elements differ between threads; the cause
    was the sequential loop 'j' between the thread loops."""
    rc, out, err = run_cli("transform", DATA / "t3s.c", "--recipe", DATA / "t3s.yaml", "--target", "cuda",
                           "-o", tmp_path / "t.cu")
    assert rc == 0 and "made one thread at a time between barriers (loop 'j' sits between the thread loops)" \
        in err, err


@pytest.mark.parametrize("steps, what", [
    ('[{pragma: {stmt: 0, loop: i, text: "omp parallel"}}]',
     "'#pragma omp parallel' before loop 'i' has every thread of a team run the whole loop"),
    ('[{pragma: {stmt: 0, loop: i, text: "acc parallel"}}]',
     "'#pragma acc parallel' before loop 'i' has every thread of a team run the whole loop"),
    ('[{pragma: {stmt: 0, loop: i, text: "omp parallel sections"}}]',
     "'#pragma omp parallel sections' takes a block of '#pragma omp section' parts, not loop 'i'"),
    ('[{omp_for: {stmt: 0, loop: i}}, {pragma: {stmt: 0, loop: j, text: "omp for"}}]',
     "loop 'j' has '#pragma omp for' inside loop 'i', whose '#pragma omp parallel for' shares its iterations"),
    ('[{pragma: {stmt: 0, loop: j, text: "omp for nowait"}}, {omp_for: {stmt: 0, loop: i}}]',
     "loop 'j' has '#pragma omp for nowait' inside loop 'i'"),
])
def test_pragmas_that_are_no_loop_construct_or_nest_worksharing_are_refused(tmp_path, steps, what):
    """Probe 141 G1/G2: `omp parallel` on a loop (every thread runs it all: a race on the
    counter, wrong results) and `omp for` inside `omp parallel for` (gcc refuses) were accepted."""
    recipe = tmp_path / "r.yaml"
    recipe.write_text(f"steps: {steps}\n")
    rc, out, err = run_cli("transform", DATA / "ws.c", "--recipe", recipe)
    assert rc == 2 and what in err and err.count("\n") == 1, err


@pytest.mark.parametrize("text", ["omp parallel for", "omp target teams distribute parallel for", "acc parallel loop",
                                  "omp parallel masked taskloop", "omp simd"])
def test_loop_constructs_are_still_taken(tmp_path, text):
    recipe = tmp_path / "r.yaml"
    recipe.write_text(f'steps: [{{pragma: {{stmt: 0, loop: i, text: "{text}"}}}}]\n')
    rc, out, err = run_cli("transform", DATA / "ws.c", "--recipe", recipe)
    assert rc == 0 and f"#pragma {text}" in out, err
