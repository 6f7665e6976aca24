"""`looptx search --backend cuda` on a GPU (`pytest -m gpu`, skipped elsewhere): a small search
over the GPU matmul space validates and times every variant, records the device, and writes a
.best.cu that nvcc compiles."""
import contextlib
import io
import shutil
import subprocess
from pathlib import Path

import pytest

from looptx.cli import main
from looptx.search.db import ResultsDB

pytestmark = pytest.mark.gpu
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def gpu():
    try:
        from looptx.runtime.cuda_eval import preflight
        return preflight()
    except Exception as e:                      # no pycuda, no driver, no device
        pytest.skip(f"needs an NVIDIA GPU with pycuda ({e})")


def test_cuda_search_small(gpu, tmp_path):
    src = tmp_path / "matmul_search.c"
    shutil.copy(ROOT / "examples" / "gpu" / "matmul_search.c", src)
    db = tmp_path / "g.db"
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["search", str(src), "--backend", "cuda", "-D", "N=256", "-a", "random",
                   "--budget", "6", "--batch-size", "3", "--db", str(db), "--no-progress"])
    assert rc == 0, out.getvalue() + err.getvalue()
    with ResultsDB(db, create=False) as rdb:
        info = rdb.searches()[0]
        recs = rdb.evaluations(info.key)
    assert len(recs) == 6
    assert all(r.status == "ok" for r in recs), [(r.status, r.error) for r in recs]
    assert all(r.info["max_rel_error"] < 1e-12 for r in recs)
    assert gpu[1] in info.evaluator["device"]
    best = tmp_path / "matmul_search.best.cu"
    assert best.exists()
    arch = gpu[0]
    p = subprocess.run(["nvcc", f"-arch={arch}", "-DN=256", "-c", str(best), "-o", str(tmp_path / "b.o")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


def test_shared_copy_between_thread_loops_is_right(gpu):
    """Blocks over (bb, a), threads over (d, b): the shared copies sit inside thread loop d and
    outside thread loop b.  The first exhaustive run of examples/gpu/tccg_search.c found every
    such variant wrong; each must now validate."""
    from looptx.runtime.cuda_eval import CudaEvaluator
    from looptx.search.command import find_spec, input_decls
    path = str(ROOT / "examples" / "gpu" / "tccg_search.c")
    spec, (region,) = find_spec(path, open(path).read(), None)
    sizes = {"NA": 24, "NB": 20, "NC": 8, "ND": 12, "NE": 24}
    ev = CudaEvaluator(path, sizes=sizes, extra_decls=input_decls(spec, path), region=region,
                       arch=gpu[0], repetitions=2)
    for point in ({"TB": 2, "TE": 4, "MAP": ("bb", "a", "d", "b"), "UC": 0},
                  {"TB": 4, "TE": 8, "MAP": ("a", "bb", "b", "d"), "UC": 1}):
        prepared = ev.prepare(point)
        assert prepared.status == "ok", prepared.error
        m = ev.measure(prepared)
        assert m.status == "ok", (point, m.error)


JOINT = """/*@ begin PerfTuning (
  def performance_counter { arg repetitions = 3; }
  def performance_params {
    param TX[] = [32, 64];
    param TY[] = [4, 8];
  }
  def input_params { param N[] = [200]; }
  def input_vars {
    decl static double A[N][N] = random;
    decl static double B[N][N] = random;
    decl static double C[N][N] = random;
  }
  def search { arg algorithm = 'Exhaustive'; }
) @*/
int i, j;
/*@ begin CHiLL (
  tile(0,"j",TX,"jj")
  tile(0,"i",TY,"ii")
  permute(0,("ii","jj","i","j"))
  cuda(0,block={"jj","ii"},thread={"j","i"})
) @*/
for (i = 0; i < N; i++)
  for (j = 0; j < N; j++)
    B[i][j] = 0.5 * A[i][j] + B[i][j];
/*@ end @*/
/*@ begin CHiLL (
  tile(0,"j",TX,"jj")
  cuda(0,block={"jj","i"},thread={"j"})
) @*/
for (i = 0; i < N; i++)
  for (j = 0; j < N; j++)
    C[i][j] = C[i][j] * 2.0 + A[j][i];
/*@ end @*/
/*@ end @*/
"""


def test_cuda_joint_search_of_two_regions(gpu, tmp_path):
    src = tmp_path / "two.c"
    src.write_text(JOINT)
    db = tmp_path / "j.db"
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["search", str(src), "--backend", "cuda", "--db", str(db), "--no-progress"])
    assert rc == 0, out.getvalue() + err.getvalue()
    with ResultsDB(db, create=False) as rdb:
        info = rdb.searches()[0]
        recs = rdb.evaluations(info.key)
    assert info.key.endswith("|r0+1") and len(recs) == 4
    assert all(r.status == "ok" for r in recs), [(r.status, r.error) for r in recs]
    assert all(len(r.info["region_times"]) == 2 for r in recs)
    best = (tmp_path / "two.best.cu").read_text()
    assert best.count('extern "C" int lx_launch_') == 2
    p = subprocess.run(["nvcc", f"-arch={gpu[0]}", "-c", str(tmp_path / "two.best.cu"), "-o",
                        str(tmp_path / "b.o")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
