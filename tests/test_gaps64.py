"""Gaps found by probes 161-163, end to end."""
import pytest

from conftest import run_cli, runs_ok

pytestmark = pytest.mark.usefixtures("private_build_cache")

DATA = __import__("pathlib").Path(__file__).resolve().parent / "data" / "gaps64"


def test_deps_of_stride_three_loops_with_a_leaving_row_is_quick():
    """Probe 161 G2: `looptx deps` ran 2.5 minutes on two statements under loops from `n % 3`
    and `(i + 1) % 3`: isl's subtract of the sizes at which A[300][300] is left ran for minutes
    without counting its operations against the budget.  The sizes are now taken out as an
    intersection with the complement (milliseconds)."""
    rc, out, err = run_cli("deps", DATA / "stride3_two_statements.c")
    assert rc == 0, err
    for line in ("WAR  S0 -> S0    A          distance (0+, 3, *)         carried by i, j",
                 "RAW  S1 -> S0    A          distance (+)                carried by i",
                 "WAR  S1 -> S1    A          distance (0, 3)             carried by j"):
        assert line in out, out


def test_minus_is_subtract():
    import islpy as isl

    from looptx.poly.row_leave import _minus
    a = isl.Set("[n, m] -> { : (exists (e: 3e <= n - 5 and 3e >= m)) or n > 900 }")
    b = isl.Set("[n, m] -> { : n >= 3 and (exists (e: 2 + n - m <= 3e <= -299 + n)) }")
    assert _minus(a, b).is_equal(a.subtract(b)) and _minus(b, a).is_equal(b.subtract(a))


def test_a_size_declared_zero_in_input_vars_has_its_value():
    """Probe 162 G1: `decl int lo = 0;` (PETSc's Bratu `jl`) was read as the zero-fill of an
    array, and the size had no value; `= 1` and `= 0*N` worked."""
    rc, out, err = run_cli("run", DATA / "decl_zero_size.c")
    assert rc == 0 and ": ok" in out, out + err


def test_system_header_types_parse(tmp_path):
    """Probe 162 G2: `cpu_set_t mask;` in a Pluto+Orio driver's main (and pthread_mutex_t,
    jmp_buf, __m256d, div_t, ...) was a syntax error: looptx's stand-ins for the system headers
    did not declare them."""
    src = tmp_path / "k.c"
    src.write_text("#include <stdlib.h>\n#include <pthread.h>\n#include <setjmp.h>\n#include <sched.h>\n"
                   "#include <immintrin.h>\n#include <sys/types.h>\ndouble a[100];\n"
                   "void f(int n) {\n  int i;\n  pid_t p; pthread_mutex_t mu; jmp_buf jb; cpu_set_t mask;\n"
                   "  __m256d v; mode_t mo; div_t d = div(7, 2);\n  (void)d.quot;\n#pragma scop\n"
                   "  for (i = 0; i < n; i++)\n    a[i] = a[i] * 2.0;\n#pragma endscop\n}\n")
    (tmp_path / "r.yaml").write_text("steps:\n  - unroll: {stmt: 0, loop: i, factor: 4}\n")
    rc, out, err = run_cli("run", src, "--recipe", tmp_path / "r.yaml", "-D", "n=37", "--cflags", "-O2 -mavx")
    assert rc == 0 and ": ok" in out, out + err


def test_run_with_sizes_the_input_constraints_exclude_says_so():
    """Probe 162 G4: `run -D MV=10 -D NV=20` of a space constrained to MV == NV said the size
    'M' (declared `decl int M = MV;`) had no value; `search` named the constraint."""
    rc, out, err = run_cli("run", DATA / "sizes_constrained.c", "-D", "MV=10", "-D", "NV=20")
    assert rc == 2 and "sizes_constrained.c:6:16: error: no problem size meets the input_params " \
        "constraints with MV=10, NV=20" in err, err
    rc, out, err = run_cli("run", DATA / "sizes_constrained.c", "-D", "MV=20", "-D", "NV=20")
    assert rc == 0 and ": ok" in out, out + err


def test_a_loop_annotation_alone_counts_with_undeclared_ints():
    """Probe 162 G5: Orio's Loop annotation declares no counters; inside a PerfTuning block
    they were taken as ints of their loops, alone the file was refused."""
    rc, out, err = run_cli("run", DATA / "loop_undeclared_counter.c")
    assert rc == 0 and ": ok" in out, out + err
    assert "nothing declares the loop counters i: as in Orio" in err, err


def test_search_summary_names_the_command_that_lists_every_error():
    """Probe 162 G7: `looptx search` said "--csv lists every one", an option of `report`."""
    from types import SimpleNamespace

    from looptx.search.report import _error_lines
    recs = [SimpleNamespace(ok=False, duplicate_of=None, error=f"error {k}", status="compile_error",
                            eval_index=k) for k in range(7)]
    assert _error_lines(recs)[-1] == "  ... 2 other errors (`looptx report DB --csv FILE` lists every one)"


def test_a_fuse_after_two_reverses_names_both_reverses_back():
    """Probe 163 G1: three nests, the first and the last reversed, fused: the hint said each loop
    carries a dependence in its own direction (none does); reversing both back fuses them."""
    rc, out, err = run_cli("transform", DATA / "three_nests.c", "--recipe", DATA / "reverse_two_fuse_three.yaml")
    assert rc == 2 and "(reverse them first (reverse {stmt: 0, loop: j}, then reverse {stmt: 2, loop: j}))" in err, err


def test_a_fuse_no_shift_makes_legal_says_so():
    """Probe 163 G2: a fuse refused was told to "choose another order (or skew first)"."""
    rc, out, err = run_cli("transform", DATA / "fuse_not_constant.c", "--recipe", DATA / "fuse_i.yaml")
    assert rc == 2 and "WAR on A" in err and "the fuse breaks a dependence of the original program, and no shift of a statement's loop before this step makes up for " \
        "it; keep the loops apart or fuse only the loops outside this one, or pass --unsafe" in err, err
    assert "choose another order" not in err


def test_output_with_its_fallback_reads_again(tmp_path):
    """Probe 155 G2: looptx's output `if (n >= 1) { tiled } else { the region as written }`
    (for `i < (n - 1) / 2`, which C rounds toward zero) was refused when read again: the
    fallback divides a negative value wherever it runs.  The fallback is left to the new
    output's own fallback, the statements that run under the fact are transformed."""
    out = tmp_path / "tiled.c"
    rc, _, err = run_cli("transform", DATA / "div_bound.c", "--recipe", DATA / "tile_i4.yaml", "-o", out)
    assert rc == 0, err
    runs_ok(out, DATA / "unroll_i2.yaml", [-3, 0, 1, 2, 7, 37])


def test_orios_pragma_form_of_an_annotation(tmp_path):
    """Probe 165 G2: `#pragma Orio Loop(...)` ... `#pragma Oiro` (Orio's pragma form, MILC's
    matvec) was "no region to transform"."""
    rc, out, err = run_cli("run", DATA / "orio_pragma_unroll.c", "-D", "n=37")
    assert rc == 0 and ": ok" in out, out + err
    src = tmp_path / "k.c"
    src.write_text((DATA / "orio_pragma_unroll.c").read_text().replace("Unroll(ufactor=3)", "Unrol(ufactor=3)"))
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and "k.c:3:19: error: unknown Orio transformation 'Unrol'" in err, err
    src.write_text((DATA / "orio_pragma_unroll.c").read_text().replace("#pragma Oiro", ""))
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and "k.c:3:1: error: '#pragma Orio Loop(...)' has no matching '#pragma Oiro'" in err, err


def test_a_cuda_chill_script_gets_its_temporaries_private(tmp_path):
    """Probe 165 G3: CUDA-CHiLL's cp.py reuses the scalars dx, dy, dz, which CHiLL makes each
    iteration's own; looptx refused the script's tile_by_index, naming privatize steps.  A CHiLL
    script's command gets them, with a note; the CUDA computes what the C does."""
    from cuda_on_threads import compare_host
    cu = tmp_path / "cp.cu"
    rc, out, err = run_cli("transform", DATA / "cp.c", "--recipe", DATA / "cp.py", "--target", "cuda", "-o", cu)
    assert rc == 0, err
    assert "as in CHiLL, each iteration has its own 'dx', 'dy', 'dz'" in err, err
    diff = compare_host(cu.read_text(), DATA / "cp.c", "cenergy_cpu", dict(ATOMCOUNTTIMES4=96), tmp_path / "b")
    assert max(diff.values()) == 0.0, diff
    # a YAML recipe is told the steps instead
    (tmp_path / "r.yaml").write_text("steps:\n  - permute: {stmt: 0, order: [i, j, n]}\n")
    rc, out, err = run_cli("transform", DATA / "cp.c", "--recipe", tmp_path / "r.yaml", "--function", "cenergy_cpu")
    assert rc == 2 and "a step 'privatize: {var: dx, at: n}'" in err, err


def test_a_region_local_of_looptx_output_is_told_to_privatize(tmp_path):
    """Probe 164 G4: the output of `registers C at k` declares `double C_r;` at the region's
    top; transformed again with an unroll of j, the refusal said "choose another order": a
    local the region declares outside its loops is privatizable like a function's."""
    rc, out, err = run_cli("transform", DATA / "registers_output.c", "--recipe", DATA / "unroll_j2.yaml")
    assert rc == 2 and "a step 'privatize: {var: C_r, at: j}'" in err, err
    (tmp_path / "r.yaml").write_text("steps:\n  - privatize: {var: C_r, at: j}\n"
                                     "  - unroll: {stmt: 0, loop: j, factor: 2}\n")
    runs_ok(DATA / "registers_output.c", tmp_path / "r.yaml", [1, 2, 5, 37])


def test_output_with_a_row_fact_fallback_reads_again():
    """Probe 164 G1: the output `if (s >= k) { tiled } else { y[i*s + j] as written }` of an
    overlap-add was refused when read again: its fallback's subscript leaves its rows of s
    wherever it runs.  Such a statement is left to the new output's fallback (a fact under
    which it never runs, where the others do)."""
    for sizes in (("n=5", "k=3", "s=4"), ("n=5", "k=6", "s=4"), ("n=1", "k=1", "s=1"), ("n=0", "k=3", "s=2")):
        argv = [x for kv in sizes for x in ("-D", kv)]
        rc, out, err = run_cli("run", DATA / "rows_fallback_output.c", "--recipe", DATA / "unroll_i2_ola.yaml", *argv)
        assert rc == 0 and ": ok" in out, (sizes, out + err)
    rc, out, err = run_cli("transform", DATA / "rows_fallback_output.c", "--recipe", DATA / "unroll_i2_ola.yaml")
    assert rc == 0 and "the region is modelled for k <= s" in err, err


def test_a_perm_param_is_named_by_its_loops_run_together():
    """Probe 166 G3: README's `-D PERM=ij` was refused for SPAPT's PERM [['i','j'], ['j','i']]
    (`j,i` and `['j','i']` worked)."""
    rc, out, err = run_cli("transform", DATA / "spapt_perm.c", "-D", "PERM=ji")
    assert rc == 0 and "permute" in out, err
    rc, out, err = run_cli("transform", DATA / "spapt_perm.c", "-D", "PERM=jk")
    assert rc == 2 and "--define PERM=jk is not a value of performance param 'PERM'" in err, err


def test_an_unknown_module_names_the_ones_looptx_reads(tmp_path):
    """Probe 166 G1: PolySyn was refused naming PerfTuning and CHiLL only."""
    src = tmp_path / "k.c"
    src.write_text("void f(int n, double *a) {\n  int i;\n/*@ begin PolySyn ( parallel = True ) @*/\n"
                   "  for (i = 0; i < n; i++) a[i] = 0;\n/*@ end @*/\n}\n")
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and "k.c:3:1: error: unknown annotation module 'PolySyn' (looptx reads Orio's PerfTuning, " \
        "Loop, Loops and CHiLL annotations" in err, err
