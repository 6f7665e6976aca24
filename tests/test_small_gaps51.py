"""Session 51's fixes: what probes 76-79 found, and the rest of probe 74's G7 (a pragma
step's firstprivate and lastprivate clauses)."""
import pytest

from conftest import run_cli

SCRATCH = """void k(int N, int M, double A[N][M], double B[N][M]) {
  double t;
#pragma scop
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      t = 2.0 * A[i][j];
      B[i][j] = t * t + 1.0;
    }
#pragma endscop
}
"""
CARRIED = SCRATCH.replace("      t = 2.0 * A[i][j];\n      B[i][j] = t * t + 1.0;\n",
                          "      B[i][j] = t * A[i][j];\n      t = 2.0 * A[i][j];\n").replace("double t;",
                                                                                            "double t = 1.0;")


@pytest.mark.parametrize("text", ["omp parallel for firstprivate(t)", "omp parallel for lastprivate(t)",
                                  "omp parallel for shared(A, B) firstprivate(t) schedule(static)",
                                  "omp simd lastprivate(t)"])
def test_a_pragmas_firstprivate_and_lastprivate_names_are_checked_as_private(tmp_path, text):
    """Probe 74 G7: the names of these clauses went unread, so the pragma was refused for the
    dependence they remove; they are checked as a private clause's names are, and kept as written."""
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(SCRATCH)
    loop = "j" if "simd" in text else "i"
    recipe.write_text(f'steps:\n  - pragma: {{stmt: 0, loop: {loop}, text: "{text}"}}\n')
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 0, err
    line = next(x.strip() for x in out.splitlines() if x.strip().startswith("#pragma omp"))
    assert line.startswith(f"#pragma {text}") and line.count("(t)") == 1, line
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", "N=9", "-D", "M=13", "--cflags", "-O2 -fopenmp")
    assert rc == 0 and " ok " in out, out + err
    # each iteration reads the value the one before left: no copy per thread keeps that
    src.write_text(CARRIED)
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 2 and "reads 't' before any write of it in the same iteration" in err, err


COLSUM = """void colsum(int N, int M, double *data, double *mean, double hist[8][M]) {
#pragma scop
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      mean[j] += data[i * M + j];
      hist[i % 8][j] = hist[i % 8][j] + 1.0;
    }
#pragma endscop
}
"""


def test_an_array_reduction_lets_a_loop_update_the_arrays_elements_in_any_order(tmp_path):
    """Probe 74 G8: OpenMP 4.5 reduces an array through its section (`reduction(+:mean[0:M])`);
    the clause was not understood, so the column sum was refused for the dependence it allows."""
    src, recipe = tmp_path / "k.c", tmp_path / "r.yaml"
    src.write_text(COLSUM)
    recipe.write_text('steps:\n  - pragma: {stmt: 0, loop: i, text: "omp parallel for '
                      'reduction(+:mean[0:M], hist[0:8][0:M])"}\n')
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", "N=37", "-D", "M=11", "--cflags", "-O2 -fopenmp")
    assert rc == 0 and " ok " in out, out + err
    # every array the loop updates across its iterations must be in the clause
    recipe.write_text('steps:\n  - pragma: {stmt: 0, loop: i, text: "omp parallel for reduction(+:mean[0:M])"}\n')
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 2 and "(RAW on hist)" in err, err
    # omp_for writes the section from the declaration, and cannot for a pointer
    recipe.write_text('steps:\n  - omp_for: {stmt: 0, loop: i, reduction: {"+": [hist]}}\n')
    src.write_text(COLSUM.replace("mean[j] += data[i * M + j];", ""))
    rc, out, err = run_cli("run", src, "--recipe", recipe, "-D", "N=37", "-D", "M=11", "--cflags", "-O2 -fopenmp")
    assert rc == 0 and " ok " in out, out + err
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert "#pragma omp parallel for reduction(+:hist[0:8][0:M])" in out, out
    src.write_text(COLSUM)
    recipe.write_text('steps:\n  - omp_for: {stmt: 0, loop: i, reduction: {"+": [mean, hist]}}\n')
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 2 and "array 'mean' has no declared extent here" in err and "mean[0:LENGTH]" in err, err
    # an element read otherwise in the loop is no reduction
    src.write_text(COLSUM.replace("hist[i % 8][j] + 1.0", "hist[i % 8][j] + hist[0][j]"))
    recipe.write_text('steps:\n  - omp_for: {stmt: 0, loop: i, reduction: {"+": [hist]}}\n')
    rc, out, err = run_cli("transform", src, "--recipe", recipe)
    assert rc == 2 and "hist[f] = hist[f] + e" in err, err
