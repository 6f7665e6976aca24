"""Probe 39 (TSVC and the Livermore loops): a type macro's cast in an if-converted condition,
locals set from other constant locals, a store before the region that kills a private's value,
`--function` with a timer read, distribute's order, witnesses past a tile, goto under a data
branch, the unroll_jam alias, and `(void)` for temporaries set before the region."""
import subprocess
from pathlib import Path

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "probe39"


def _recipe(tmp_path, *steps, name="r.yaml"):
    r = tmp_path / name
    r.write_text("steps:\n" + "".join(f"  - {s}\n" for s in steps))
    return r


def _build_and_run(tmp_path, src: Path, name: str, *flags) -> str:
    exe = tmp_path / name
    p = subprocess.run(["gcc", "-O2", "-w", *flags, str(src), "-o", str(exe)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout


def test_a_type_macro_cast_in_a_branch_on_data_keeps_its_spelling(tmp_path):
    """s271's `if (b[i] > (TYPE)0.1)` printed `(float)0.1` (the if-converted condition is a
    copy of the parsed one): built with -DTYPE=double the result differed."""
    out_c = tmp_path / "out.c"
    rc, out, err = run_cli("transform", DATA / "s271_type_cast.c",
                           "--recipe", _recipe(tmp_path, "unroll: {stmt: 0, loop: i, factor: 2}"), "-o", out_c)
    assert rc == 0, err
    text = out_c.read_text()
    assert "(float)" not in text and "b[i] > (TYPE)0.1 ?" in text, text
    for flags in ((), ("-DTYPE=double",)):
        assert _build_and_run(tmp_path, out_c, "xf", *flags) == \
            _build_and_run(tmp_path, DATA / "s271_type_cast.c", "orig", *flags)


def test_locals_set_from_a_constant_local_have_its_values(tmp_path):
    """s132's `int m = 0; int j = m; int k = m + 1;`: run needs no -D, and aa[j][i] and
    aa[k][i-1] never meet, so the i loop is parallel."""
    r = _recipe(tmp_path, "unroll: {stmt: 0, loop: i, factor: 4}")
    rc, out, err = run_cli("run", DATA / "s132.c", "--recipe", r, "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err
    rc, out, err = run_cli("transform", DATA / "s132.c", "--recipe", _recipe(tmp_path, "omp_for: {stmt: 0, loop: i}"))
    assert rc == 0 and "#pragma omp parallel for" in out, err
    rc, out, err = run_cli("run", DATA / "s132.c", "--recipe", r, "-D", "k=2")
    assert rc == 2 and "the function sets it to 1" in err, err


def test_a_store_before_the_region_kills_the_privates_value(tmp_path):
    """s251 in its timing loop: `s = 0.;` before the region, each time round, reads no s."""
    for step in ("privatize: {var: s, at: i}", "omp_for: {stmt: 1, loop: i, private: [s]}"):
        r = _recipe(tmp_path, step)
        rc, out, err = run_cli("transform", DATA / "s251_reset.c", "--recipe", r)
        assert rc == 0, (step, err)
        rc, out, err = run_cli("run", DATA / "s251_reset.c", "--recipe", r, "--repetitions", "1")
        assert rc == 0 and ": ok" in out, out + err
    text = (DATA / "s251_reset.c").read_text()
    r = _recipe(tmp_path, "privatize: {var: s, at: i}")
    for name, changed in (("read_first.c", text.replace("s = (TYPE) 0.;", "a[0] = s; s = (TYPE) 0.;")),
                          ("in_if.c", text.replace("s = (TYPE) 0.;", "if (nl > 2) s = (TYPE) 0.;"))):
        src = tmp_path / name
        src.write_text(changed)
        rc, out, err = run_cli("transform", src, "--recipe", r)
        assert rc == 2 and "in the loop around the region" in err, (name, err)


def test_function_region_leaves_a_timer_read_outside(tmp_path):
    rc, out, err = run_cli("transform", DATA / "s000_clock.c", "--function", "s000",
                           "--recipe", _recipe(tmp_path, "unroll: {stmt: 0, loop: i, factor: 4}"))
    assert rc == 0 and "the assignment from 'clock' stays outside the region" in err, err
    assert "\tstart_t = clock();\n\t{" in out, out


def test_distribute_keeps_textual_order_and_says_so(tmp_path):
    r = _recipe(tmp_path, "distribute: {stmts: [1, 0], loop: i}")
    rc, out, err = run_cli("transform", DATA / "s221.c", "--recipe", r)
    assert rc == 0 and "keep the statements' textual order (S0, S1), not the order of stmts: [1, 0]" in err, err
    rc, out, err = run_cli("transform", DATA / "s211.c", "--recipe", r)
    assert rc == 2 and "textual order" in err and "choose another order" not in err, err


def test_a_violation_past_a_whole_tile_has_a_witness(tmp_path):
    r = _recipe(tmp_path, "tile: {stmt: 0, loop: i, size: 128, control: ii}",
                "permute: {stmt: 0, order: [ii, l, i]}")
    rc, out, err = run_cli("transform", DATA / "k5.c", "--recipe", r)
    assert rc == 2 and "S0(1,129) reads x[128] before S0(2,128) writes it" in err, err


def test_goto_under_a_branch_on_data_is_named(tmp_path):
    rc, out, err = run_cli("transform", DATA / "s161.c", "--recipe", _recipe(tmp_path, "unroll: {stmt: 0, loop: i, factor: 2}"))
    assert rc == 2 and "s161.c:8:4: error: goto and labels are not supported" in err, err


def test_unroll_jam_names_and_a_near_miss(tmp_path):
    rc, out, err = run_cli("transform", DATA / "s231.c", "--recipe", _recipe(tmp_path, "unroll_jam: {stmt: 0, loop: i, factor: 4}"))
    assert rc == 0 and "i + 3" in out, err
    rc, out, err = run_cli("transform", DATA / "s231.c", "--recipe", _recipe(tmp_path, "permut: {stmt: 0, order: [j, i]}"))
    assert rc == 2 and "did you mean 'permute'?" in err and "unroll_and_jam (unroll)" in err, err


def test_temporaries_set_before_the_region_do_not_warn(tmp_path):
    out_c = tmp_path / "k8.out.c"
    rc, out, err = run_cli("transform", DATA / "k8.c", "--recipe", _recipe(tmp_path, "permute: {stmt: 0, order: [ky, kx]}"),
                           "-o", out_c)
    assert rc == 0 and "(void)nl1;" in out_c.read_text(), err
    p = subprocess.run(["gcc", "-Wall", "-Wno-unknown-pragmas", "-Werror", "-c", str(out_c), "-o", str(tmp_path / "k8.o")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
