"""PETSc's DIA SpMV (Orio's MatMult_SeqDIA test): `col = i + offsets[j]; if (col >= 0 && col <
NR) y[i] += A[i + j*NR] * x[col];`.  The temporary is read as the expression it holds, as the
inline form `x[i + offsets[j]]` is, and the harness takes the read as safe under its own guard
(C's `?:` is lazy), drawing offsets on both sides of it; an unguarded read stays refused."""
import pytest

from conftest import run_cli

DIA = """#define NR {nr}
#define ND 7
void spmv(double *A, double *x, double *y, int *offsets) {{
  int i, j, col;
#pragma scop
  for(i=0; i<=NR-1; i++) {{
    for(j=0; j<=ND-1; j++){{
{body}
    }}
  }}
#pragma endscop
}}
"""
TEMP = "      col = i+offsets[j];\n      if(col>=0&&col<NR)\n        y[i] += A[i+j*NR] * x[col];"
INLINE = "      if(i+offsets[j]>=0&&i+offsets[j]<NR)\n        y[i] += A[i+j*NR] * x[i+offsets[j]];"
UNGUARDED = "      col = i+offsets[j];\n      y[i] += A[i+j*NR] * x[col];"
ELEMENT = "      col = offsets[j];\n      if(col>=0&&col<NR)\n        y[i] += A[i+j*NR] * x[col];"

UNROLL = "steps:\n  - unroll: {stmt: 0, loop: j, factor: 2}\n"
TILE = "steps:\n  - tile: {stmt: 0, loop: i, size: 5, control: ii}\n  - unroll: {stmt: 0, loop: j, factor: 3}\n"


def _files(tmp_path, body, recipe=UNROLL, nr=64):
    f, r = tmp_path / "dia.c", tmp_path / "r.yaml"
    f.write_text(DIA.format(nr=nr, body=body))
    r.write_text(recipe)
    return f, r


def _ok(rc, out, err):
    assert rc == 0 and ": ok " in out, out + err


def _dependences(out: str) -> list[str]:
    return [ln.strip() for ln in out.splitlines() if ln.strip().split(" ")[0] in ("RAW", "WAR", "WAW")]


def test_the_temporary_has_the_dependences_of_the_inline_form(tmp_path):
    f, _ = _files(tmp_path, TEMP)
    rc, out, err = run_cli("deps", f)
    assert rc == 0, out + err
    (tmp_path / "inline").mkdir()
    g, _ = _files(tmp_path / "inline", INLINE)
    rc2, inline, err2 = run_cli("deps", g)
    assert rc2 == 0, inline + err2
    assert "x[i + offsets[j]]" in out and "col" not in out.split("dependences:")[1], out
    assert _dependences(out) == _dependences(inline) and len(_dependences(out)) == 3, out


def test_the_transformed_read_stays_under_its_guard(tmp_path):
    f, r = _files(tmp_path, TEMP, TILE, nr=61)
    rc, out, err = run_cli("transform", f, "--recipe", r)
    assert rc == 0, out + err
    reads = [ln for ln in out.splitlines() if "x[" in ln]
    assert len(reads) >= 3 and "col =" not in out, out
    for ln in reads:
        # the guard, then the read, in one lazy ?:
        assert " ? " in ln and ln.index(" < NR") < ln.index("x[") < ln.index(" : "), ln


@pytest.mark.parametrize("body", [TEMP, INLINE], ids=["temporary", "inline"])
@pytest.mark.parametrize("recipe, nr", [(UNROLL, 64), (TILE, 64), (TILE, 61)])
def test_run_validates_the_guarded_read(tmp_path, body, recipe, nr):
    f, r = _files(tmp_path, body, recipe, nr)
    _ok(*run_cli("run", f, "--recipe", r))


@pytest.mark.parametrize("guard", ["NR>col && ND>0 && col>-1", "col<=NR-1 && 0<=col",
                                   "col>=0 && col<NR && x[col] > 0.7"])
def test_other_spellings_of_the_guard(tmp_path, guard):
    f, r = _files(tmp_path, TEMP.replace("col>=0&&col<NR", guard))
    _ok(*run_cli("run", f, "--recipe", r))


def test_the_offsets_make_the_guard_hold_and_fail(tmp_path):
    import numpy as np

    from looptx.pipeline import load
    from looptx.runtime.harness import RegionSignature
    from looptx.runtime.inputs import make_inputs
    f, _ = _files(tmp_path, TEMP)
    program = load(str(f))
    sig = RegionSignature.from_scop(program.scops[0], program.int_macros, {})
    offsets = make_inputs(sig, 0)["offsets"]
    col = np.arange(64)[:, None] + offsets[None, :]
    inside = (col >= 0) & (col < 64)
    assert inside.any() and not inside.all(), offsets


def test_an_unguarded_read_is_refused(tmp_path):
    f, r = _files(tmp_path, UNGUARDED)
    rc, out, err = run_cli("run", f, "--recipe", r)
    assert rc == 2 and err.count("\n") == 1, out + err
    assert "the region reads 'x' at [i + offsets[j]], an index whose values the harness cannot keep " \
           "inside the array" in err, err


def test_a_guard_wider_than_the_array_is_refused(tmp_path):
    f, r = _files(tmp_path, TEMP.replace("col<NR", "col<=NR"))
    f.write_text(f.read_text().replace("double *x", "double x[NR]"))
    rc, out, err = run_cli("run", f, "--recipe", r)
    assert rc == 2 and "lets it reach element 64 of 'x', which has 64" in err, out + err


def test_a_temporary_set_in_an_inner_loop_is_read_under_its_guard(tmp_path):
    # used after the loop that sets it, `col` stays a scalar of its own (frontend/gathered.py)
    f, r = tmp_path / "dia.c", tmp_path / "r.yaml"
    f.write_text(DIA.format(nr=64, body="      col = i+offsets[j];\n    }\n    {\n"
                            "      if(col>=0&&col<NR) y[i] += A[i] * x[col];"))
    r.write_text(UNROLL)
    rc, out, err = run_cli("deps", f)
    assert rc == 0 and "col = i + offsets[j]" in out, out + err
    _ok(*run_cli("run", f, "--recipe", r))


def test_a_lone_element_stays_a_scalar(tmp_path):
    f, r = _files(tmp_path, ELEMENT, "steps:\n  - unroll: {stmt: 1, loop: j, factor: 2}\n")
    rc, out, err = run_cli("deps", f)
    assert rc == 0 and "col = offsets[j]" in out and "x[col]" in out, out + err
    _ok(*run_cli("run", f, "--recipe", r))


ORIO_DIA = """void MatMult_SeqDIA(double* A, double* x, double* y, int M, int NOS) {
  register int i,j;
  int col;
  /*@ begin PerfTuning (
        def performance_params { param UIF[] = range(1,4); }
        def input_params { param M[] = [29]; param NOS = 7; }
        def input_vars {
          decl static double A[M*NOS] = random;
          decl static double x[M] = random;
          decl static double y[M] = 0;
          decl static int offsets[NOS] = {-6,-3,-1,0,1,3,6};
        }
  ) @*/
  int nrows=M;
  int ndiags=NOS;
  /*@ begin Loop(transform Composite(unrolljam = (['j'],[UIF]))
  for(i=0; i<=nrows-1; i++) {
    for(j=0; j<=ndiags-1; j++){
      col = i+offsets[j];
      if(col>=0&&col<nrows)
        y[i] += A[i+j*nrows] * x[col];
    }
  }
  ) @*/
  for(i=0; i<=nrows-1; i++) {
    for(j=0; j<=ndiags-1; j++){
      col = i+offsets[j];
      if(col>=0&&col<nrows)
        y[i] += A[i+j*nrows] * x[col];
    }
  }
  /*@ end @*/
  /*@ end @*/
}
"""


def test_orios_dia_test_counts_the_folded_temporary_as_no_statement(tmp_path):
    # the annotation's `col = ...` is written into its use, as in the region: one statement each
    f = tmp_path / "dia.c"
    f.write_text(ORIO_DIA)
    rc, out, err = run_cli("transform", f, "-D", "UIF=3")
    assert rc == 0 and "offsets[j + 2]" in out, out + err
    _ok(*run_cli("run", f, "-D", "UIF=3"))
    rc, out, err = run_cli("search", f, "--budget", 2, "--db", tmp_path / "d.db", "--no-progress")
    assert rc == 0 and "ok 2" in out + err, out + err
