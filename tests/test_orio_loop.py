"""Orio's Loop module (`/*@ begin Loop ( transform Composite(...) for ... ) @*/`) as SPAPT files
write it: the code inside the annotation is the region, each directive becomes checked steps,
every searched point is validated, and the best file matches the original fragment."""
import re

import pytest
from conftest import run_cli as cli

from fragments import check_best
from looptx import pipeline as P
from looptx.frontend.regions import orio_loop_code

PERF = """/*@ begin PerfTuning (
  def build {{ arg build_command = 'gcc -O1'; }}
  def performance_counter {{ arg repetitions = 1; }}
  def performance_params {{
{params}
  }}
  def search {{ arg algorithm = '{algorithm}'; arg total_runs = {runs}; arg seed = 3; }}
  def input_params {{ {sizes} }}
  def input_vars {{
{decls}
  }}
) @*/
{globals}
/*@ begin Loop(
{loop}
) @*/
/*@ end @*/
/*@ end @*/
"""

MM_PARAMS = """    param T1_I[] = [1,16];
    param T1_Ia[] = [1,32];
    param U_I[] = [1,3];
    param SCREP[] = [False,True];
    param PERM[] = [(['iii'],['ii'],'i','j','k'), (['ii'],'j','i','k')];
    constraint tileI = ((T1_Ia == 1) or (T1_Ia % T1_I == 0));"""
MM_LOOP = """  transform Composite(
    tile = [('i',T1_I,'ii'),(('ii','i'),T1_Ia,'iii')],
    permut = [PERM],
    unrolljam = (['i','k'],[U_I,2]),
    scalarreplace = (SCREP, 'double', 'scv_'),
    vector = (True, ['ivdep','vector always']))
  for(i=0; i<=M-1; i++)
    for(j=0; j<=N-1; j++)
      for(k=0; k<=K-1; k++)
        C[i][j] = C[i][j] + A[i][k] * B[k][j];"""
MM = PERF.format(params=MM_PARAMS, algorithm="Exhaustive", runs=100,
                 sizes="param M[] = [64, 37]; param N = 12; param K = 9;",
                 decls="    decl static double A[M][K] = random;\n    decl static double B[K][N] = random;\n"
                       "    decl static double C[M][N] = 0;",
                 globals="int i, j, k, ii, jj, kk, iii;", loop=MM_LOOP)

# atax from SPAPT: two Composites, an imperfect nest with two sibling loops, a linearized
# subscript, regtile and unrolljam of the same loop, an array copy (ignored with a note)
ATAX = PERF.format(
    params="""    param T1_I[] = [1,8];
    param T1_J[] = [1,16];
    param T2_I[] = [1,32];
    param U1_I[] = [1,4];
    param U_I[] = [1,2];
    param U_J[] = [1,3];
    param RT_I[] = [1,2];
    param SCR[] = [False,True];
    param ACOPY_x[] = [False,True];
    constraint tiles = ((T2_I == 1) or (T2_I % T1_I == 0));""",
    algorithm="Randomsearch", runs=10, sizes="param nx[] = [48, 41]; param ny = 37;",
    decls="""    decl static double A[nx*ny] = random;
    decl static double x[ny] = random;
    decl static double y[ny] = 0;
    decl static double tmp[nx] = 0;""",
    globals="int i, j, k, ii, jj, iii;",
    loop="""  transform Composite( unrolljam = (['i'],[U1_I]) )
  for (i= 0; i<=ny-1; i++)
    y[i] = 0.0;
  transform Composite(
    tile = [('i',T1_I,'ii'),('j',T1_J,'jj'),(('ii','i'),T2_I,'iii')],
    arrcopy = [(ACOPY_x, 'x[j]', [(T1_J if T1_J>1 else 1)],'_copy')],
    unrolljam = (['k','j','i'],[1,U_J,U_I]),
    scalarreplace = (SCR, 'double'),
    regtile = (['i','j','k'],[RT_I,1,1]),
    openmp = (False, 'omp parallel for'))
  for (i = 0; i<=nx-1; i++) {
    tmp[i] = 0;
    for (j = 0; j<=ny-1; j++)
      tmp[i] = tmp[i] + A[i*ny+j]*x[j];
    for (k = 0; k<=ny-1; k++)
      y[k] = y[k] + A[i*ny+k]*tmp[i];
  }""")

# lu from SPAPT: a Composite inside the body of a loop that another Composite transforms
# (the inner one first), triangular bounds; plus chained and nested Unroll / UnrollJam
LU = PERF.format(
    params="""    param U1_J[] = [1,2];
    param T2_I[] = [1,8];
    param U2_I[] = [1,3];
    param U2_J[] = [1,2];
    param UF[] = [1,3];""",
    algorithm="Randomsearch", runs=8, sizes="param N[] = [32, 29];",
    decls="    decl static double A[N][N] = random;\n    decl static double x[N] = random;",
    globals="int i, j, k, ii;",
    loop="""  transform Composite( unrolljam = (['k','j'],[1,U1_J]) )
  for (k=0; k<=N-1; k++) {
    for (j=k+1; j<=N-1; j++)
      A[k][j] = A[k][j] * 0.5;
    transform Composite(
      tile = [('i',T2_I,'ii')],
      unrolljam = (['i','j'],[U2_I,U2_J]))
    for(i=k+1; i<=N-1; i++)
      for (j=k+1; j<=N-1; j++)
        A[i][j] = A[i][j] - A[i][k]*A[k][j];
  }
  transform Composite(vector = (False, ['ivdep']))
  transform UnrollJam(ufactor=UF)
  for (i=0; i<=N-1; i++) {
    x[i] = x[i] * 0.5;
    transform Unroll(ufactor=4)
    for (j=0; j<=7; j++)
      A[i][j] = A[i][j] + x[i];
  }""")



def _original(path, text):
    """The fragment as Orio runs it untransformed: the Loop annotation's own code in place."""
    m = re.search(r"/\*@ begin Loop\((.*)\) @\*/\s*/\*@ end @\*/", text, re.S)
    orig = path.with_name("orig_" + path.name)
    orig.write_text(text[:m.start()] + orio_loop_code(m.group(1)) + text[m.end():])
    return orig


def _search_all_valid(tmp_path, name, text, sizes):
    path = tmp_path / name
    path.write_text(text)
    rc, out, err = cli("search", path, "--no-progress")
    assert rc == 0, (out, err)
    rc, csv, _ = cli("report", path.with_suffix(".looptx.db"), "--csv")
    rows = csv.strip().splitlines()[1:]
    assert rows and all(",ok," in r for r in rows), [r for r in rows if ",ok," not in r][:2]
    best = path.with_name(path.stem + ".best.c")
    check_best(str(_original(path, text)), str(best), sizes, tmp_path)
    return rows, err


def test_spapt_matmul_every_point_valid_and_best_file_matches(tmp_path):
    rows, err = _search_all_valid(tmp_path, "mm.c", MM, [{"M": 64, "N": 12, "K": 9},
                                                         {"M": 37, "N": 12, "K": 9}])
    assert len(rows) == 2 * 32                    # both sizes, every point of the space
    assert err.count("vector part is ignored") == 1


def test_spapt_atax_two_directives_and_merged_unrolls(tmp_path):
    rows, err = _search_all_valid(tmp_path, "atax.c", ATAX, [{"nx": 48, "ny": 37}, {"nx": 41, "ny": 37}])
    assert len(rows) == 20


def test_nested_and_chained_directives(tmp_path):
    _search_all_valid(tmp_path, "lu.c", LU, [{"N": 32}, {"N": 29}])


def _steps(tmp_path, text, **bindings):
    path = tmp_path / "f.c"
    path.write_text(text)
    extra, defs = P.fragment_inputs(str(path), None)
    prog = P.load(str(path), defines=defs, extra_decls=extra)
    return [s.describe() for s in P.annotation_recipe(prog, 0, bindings).steps]


def test_directives_map_onto_steps_as_orio_applies_them(tmp_path):
    mm = dict(SCREP=False, PERM=(("iii",), ("ii",), "i", "j", "k"))
    # tile size 1 leaves the loop alone, so ('ii','i') falls back to i; the tile loop of a
    # tile loop counts index values in Orio (32 = 2 tiles of 16)
    assert _steps(tmp_path, MM, T1_I=1, T1_Ia=32, U_I=1, **mm)[:1] == \
        ["tile: {stmt: 0, loop: i, size: 32, control: iii}"]
    steps = _steps(tmp_path, MM, T1_I=16, T1_Ia=32, U_I=3, **mm)
    assert steps[:2] == ["tile: {stmt: 0, loop: i, size: 16, control: ii}",
                         "tile: {stmt: 0, loop: ii, size: 2, control: iii}"]
    # inner loops first, as Orio's post-order walk
    assert steps[2:] == ["unroll: {stmt: 0, loop: k, factor: 2, orio: True}", "unroll: {stmt: 0, loop: i, factor: 3, orio: True}"]
    # an optional loop of the permutation that tiling did not create is left out
    assert _steps(tmp_path, MM, T1_I=1, T1_Ia=1, U_I=1, SCREP=True, PERM=(("ii",), "j", "i", "k")) == [
        "permute: {stmt: 0, order: [j, i, k]}", "unroll: {stmt: 0, loop: k, factor: 2, orio: True}",
        "registers: {stmt: 0, array: C, at: k}", "registers: {stmt: 0, array: A, at: k}",
        "registers: {stmt: 0, array: B, at: k}"]
    lu = _steps(tmp_path, LU, U1_J=2, T2_I=8, U2_I=3, U2_J=2, UF=3)
    # the inner Composite first; the outer one's j of the inner nest is the same loop, so its
    # factor multiplies; Unroll names the loop it stands before (j), not the enclosing i
    assert lu == ["unroll: {stmt: 3, loop: j, factor: 4, orio: True}",
                  "tile: {stmt: 1, loop: i, size: 8, control: ii}",
                  "unroll: {stmt: 1, loop: j, factor: 4, orio: True}",
                  "unroll: {stmt: 1, loop: i, factor: 3, orio: True}",
                  "unroll: {stmt: 2, loop: i, factor: 3, orio: True}",
                  "unroll: {stmt: 0, loop: j, factor: 2, orio: True}"]


@pytest.mark.parametrize("directive, message", [
    ("transform Skew(factor=2)", "unknown Orio transformation 'Skew'"),
    ("transform Unroll(factor=2)", "unknown argument 'factor' of 'transform Unroll'"),
    ("transform Unroll(2)", "must be written NAME=VALUE"),
    ("transform Unroll(ufactor=0)", "ufactor must be an integer >= 1"),
    ("transform Composite(tile=[('q',16,'qq')])", "no loop 'q' for a tile"),
    ("transform Composite(tile=[('i',16,'ii'),(('ii','i'),24,'iii')])", "not a multiple of its step 16"),
    ("transform Composite(permut=[('k','z')])", "no loop 'z' here"),
    ("transform Composite(scalarreplace=(3,'double'))", "scalarreplace must be True or False"),
    ("transform Composite(scalarreplace=(True,'dbl','x','y'))", "scalarreplace is (flag, type, prefix)"),
    ("transform Composite(scalarreplace=(True,2))", "scalarreplace is (flag, type, prefix)"),
    ("transform Composite(cuda=(2048,False,False,1))", "threadCount 2048 is more than the 1024"),
    ("transform CUDA(threadCount=0)", "threadCount must be an integer >= 1"),
    ("transform CUDA(threads=32)", "unknown argument 'threads' of 'transform CUDA'"),
    ("transform OpenCL(threadCount=32)", "OpenCL transformation is not generated"),
    ("transform Composite(tile=[('i',T,'ii')])", "unknown parameter 'T'"),
    ("transform Composite(tile=[('i',16)])", "a tile entry (loop, size, new index) must be a list of 3"),
    ("transform Unroll(ufactor=2", "has no closing parenthesis"),
])
def test_bad_directives_are_located(tmp_path, directive, message):
    text = PERF.format(params="    param U[] = [1];", algorithm="Exhaustive", runs=1,
                       sizes="param N = 20;", decls="    decl static double A[N][N] = random;",
                       globals="int i, j, k;",
                       loop=f"  {directive}\n  for (i=0; i<=N-1; i++)\n    for (k=0; k<=N-1; k++)\n"
                            "      A[i][k] = A[i][k] * 2.0;")
    path = tmp_path / "bad.c"
    path.write_text(text)
    for cmd in ("transform", "search"):
        rc, out, err = cli(cmd, path, *(["--no-progress"] if cmd == "search" else []))
        lines = err.strip().splitlines()
        assert rc == 2 and len(lines) == 1 and message in err, (cmd, err)
        line = text[:text.index(directive)].count("\n") + 1
        # a tile of a missing loop points at that loop's name, an unknown parameter or argument
        # at its name, another error of a Composite part at the part
        token = "'q'" if "no loop 'q'" in message else "T," if "unknown parameter" in message else \
            message.split("'")[1] + "=" if "unknown argument" in message else \
            directive[len("transform Composite("):].split("=")[0] + "=" if directive.startswith("transform Composite(") \
            else None
        col = 3 + (directive.index(token) if token else 0)
        assert lines[0].startswith(f"{path}:{line}:{col}: error:"), (cmd, lines[0])


def test_unrolljam_of_a_loop_outside_the_nest_is_noted_and_ignored(tmp_path):
    """SPAPT's stencil3d unroll-and-jams 't', the time loop around its directive: Orio ignores
    that factor, and so does looptx, but it says so (the param changes nothing)."""
    text = PERF.format(params="    param UT[] = [1, 2];\n    param UK[] = [1, 2];", algorithm="Exhaustive",
                       runs=4, sizes="param N = 20;", decls="    decl static double A[N][N] = random;",
                       globals="int t, i, k;",
                       loop="  transform Composite(unrolljam = (['t','k'],[UT,UK]))\n"
                            "  for (i=0; i<=N-1; i++)\n    for (k=0; k<=N-1; k++)\n"
                            "      A[i][k] = A[i][k] * 2.0;")
    path = tmp_path / "outside.c"
    path.write_text(text)
    line = text[:text.index("transform Composite")].count("\n") + 1
    rc, out, err = cli("transform", path, "-D", "UT=2", "-D", "UK=2")
    assert rc == 0 and "unroll: {stmt: 0, loop: k, factor: 2, orio: True}" in out and "loop: t" not in out, out + err
    assert f"{path}:{line}: note: Orio's unrolling names loop 't', which is not among the loops the " \
           "directive transforms: its factor is ignored, as in Orio" in err, err


def test_bare_directive_takes_the_code_between_the_markers(tmp_path):
    text = PERF.format(params="    param UF[] = [1,2,5];", algorithm="Exhaustive", runs=3,
                       sizes="param N[] = [40, 23];", decls="    decl static double y[N] = random;",
                       globals="int i;", loop="  transform Unroll(ufactor=UF)")
    text = text.replace("/*@ end @*/\n/*@ end @*/",
                        "for (i=0; i<=N-1; i++)\n  y[i] = y[i] * 3.0 + 1.0;\n/*@ end @*/\n/*@ end @*/")
    path = tmp_path / "bare.c"
    path.write_text(text)
    rc, out, err = cli("search", path, "--no-progress")
    assert rc == 0, err
    rc, csv, _ = cli("report", path.with_suffix(".looptx.db"), "--csv")
    rows = csv.strip().splitlines()[1:]
    assert len(rows) == 6 and all(",ok," in r for r in rows)
    # here the original fragment is plain C between the markers
    check_best(str(path), str(tmp_path / "bare.best.c"), [{"N": 40}, {"N": 23}], tmp_path)


def test_int_scalar_of_input_vars_is_a_size(tmp_path):
    """SPAPT's dgemv: `decl int A_ncols = N;` bounds a loop, as a size would."""
    text = PERF.format(params="    param U_I[] = [1,2];", algorithm="Exhaustive", runs=2,
                       sizes="param N[] = [37, 16];",
                       decls="    decl int A_ncols = N;\n    decl static double x[N] = random;",
                       globals="int i;", loop="  transform Composite( unrolljam = (['i'],[U_I]) )\n"
                                            "  for (i = 0; i <= A_ncols-1; i++)\n    x[i] = 2.0*x[i];")
    _search_all_valid(tmp_path, "dgemv.c", text, [{"N": 37}, {"N": 16}])


# Found by fuzzing the Loop module (fuzz round 3): a permutation whose optional loops are all
# absent (tile size 1) was refused; a tile of a loop an inner Unroll had removed named a loop
# that "does not exist".
OPT_PERM = PERF.format(params="    param T[] = [1, 4];", algorithm="Exhaustive", runs=2,
                       sizes="param N[] = [20, 13];",
                       decls="    decl static double A[N][N] = random;", globals="int i, j, jj;",
                       loop="""  transform Composite(tile = [('j',T,'jj')], permut = [(['jj'],'i')])
  for (i=0; i<=N-1; i++)
    for (j=0; j<=N-1; j++)
      A[i][j] = A[i][j] * 0.5 + j;""")


def test_a_permutation_whose_optional_loops_are_absent_is_a_no_op(tmp_path):
    rows, _ = _search_all_valid(tmp_path, "perm.c", OPT_PERM, [{"N": 20}, {"N": 13}])
    assert len(rows) == 4


INNER_UNROLL = PERF.format(params="    param U[] = [8, 4];\n    param T[] = [4, 8, 2];",
                           algorithm="Exhaustive", runs=6, sizes="param N[] = [10, 7]; param M = 8;",
                           decls="    decl static double A[N][M] = random;\n    decl static double x[M] = random;\n"
                                 "    decl static double y[N] = random;",
                           globals="int i, j, jj;",
                           loop="""  transform Composite(tile = [('j',T,'jj')])
  for (i=0; i<=N-1; i++)
    transform Unroll(ufactor=U)
    for (j=0; j<=M-1; j++)
      y[i] = y[i] + A[i][j] * x[j];""")


def test_a_tile_after_an_inner_unroll_of_the_loop_takes_whole_unrolled_steps(tmp_path):
    """Orio's unrolled loop steps by its factor: a tile no larger is a no-op, a multiple of it
    holds whole unrolled steps (SPAPT stacks Tile over Unroll), any other size is refused."""
    src = tmp_path / "inner.c"
    src.write_text(INNER_UNROLL.replace("param U[] = [8, 4];", "param U[] = [8, 4, 2];")
                   .replace("param T[] = [4, 8, 2];", "param T[] = [4, 8, 2, 16];\n"
                            "    constraint whole = T <= U or T % U == 0;")
                   .replace("total_runs = 6", "total_runs = 12"))
    rows, _ = _search_all_valid(tmp_path, "inner.c", src.read_text(), [{"N": 10, "M": 8}, {"N": 7, "M": 8}])
    assert len(rows) == 2 * 12
    for t, u in ((16, 4), (8, 2)):
        (tmp_path / "big.c").write_text(INNER_UNROLL.replace("param U[] = [8, 4];", f"param U[] = [{u}];")
                                        .replace("param T[] = [4, 8, 2];", f"param T[] = [{t}];")
                                        .replace("param M = 8", "param M = 37"))
        rc, out, err = cli("transform", tmp_path / "big.c")
        assert rc == 0, err
        # the intra-tile loop runs whole unrolled steps of u, with its remainder
        assert f"for (int jj = 0; jj < {-(-37 // t)}; jj++)" in out, out
        assert f"j += {u})" in out and f"x[j + {u - 1}]" in out, out
    (tmp_path / "odd.c").write_text(INNER_UNROLL.replace("param U[] = [8, 4];", "param U[] = [4];")
                                    .replace("param T[] = [4, 8, 2];", "param T[] = [6];"))
    rc, out, err = cli("transform", tmp_path / "odd.c")
    assert rc == 2 and "tile size 6 of loop 'j' is not a multiple of its step 4" in err, err


OMP_LOOP = """  transform Composite(
    tile = [('i',T1_I,'ii')],
    permut = [(['ii'],'j','i','k')],
    pragma = [('k', ['GCC ivdep'])],
    openmp = (OMP, 'omp parallel for private(i,j,k)'))
  for(i=0; i<=M-1; i++)
    for(j=0; j<=N-1; j++)
      for(k=0; k<=K-1; k++)
        C[i][j] = C[i][j] + A[i][k] * B[k][j];"""
OMP_MM = PERF.format(params="    param T1_I[] = [1,16];\n    param OMP[] = [False,True];",
                     algorithm="Exhaustive", runs=100,
                     sizes="param M[] = [64, 37]; param N = 12; param K = 9;",
                     decls="    decl static double A[M][K] = random;\n    decl static double B[K][N] = random;\n"
                           "    decl static double C[M][N] = 0;",
                     globals="int i, j, k, ii;", loop=OMP_LOOP).replace("gcc -O1", "gcc -O1 -fopenmp")


def test_orio_openmp_and_pragma_parts_become_checked_steps(tmp_path, monkeypatch):
    """Orio puts `#pragma omp ...` before the outermost loop of the transformed nest (here the
    tile loop the permutation put outside) and each pragma string before its loop."""
    assert _steps(tmp_path, OMP_MM, T1_I=16, OMP=True) == [
        "tile: {stmt: 0, loop: i, size: 16, control: ii}",
        "permute: {stmt: 0, order: [ii, j, i, k]}",
        "pragma: {stmt: 0, loop: k, text: GCC ivdep}",
        "omp_for: {stmt: 0, loop: 1}"]
    assert _steps(tmp_path, OMP_MM, T1_I=1, OMP=False)[-1] == "pragma: {stmt: 0, loop: k, text: GCC ivdep}"
    monkeypatch.setenv("OMP_NUM_THREADS", "4")
    rows, err = _search_all_valid(tmp_path, "mm.c", OMP_MM, [{"M": 64, "N": 12, "K": 9},
                                                             {"M": 37, "N": 12, "K": 9}])
    assert len(rows) == 2 * 4 and "ignored" not in err, err
    best = (tmp_path / "mm.best.c").read_text()
    assert "#pragma GCC ivdep" in best
