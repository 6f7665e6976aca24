import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

import pytest

# The tests start hundreds of Python interpreters (command lines, fork servers, Dask workers).
# Where PYTHONDONTWRITEBYTECODE is set, each compiled the sources it imports again (looptx's
# alone took 0.6 CPU-seconds); the test processes write the bytecode of what they import, which
# the interpreters they start then read (the CI installs with --no-compile: pip compiling all
# of scipy, scikit-learn, matplotlib and dask took half a minute).
sys.dont_write_bytecode = False


def pytest_configure(config):
    """looptx's bytecode, written once by the controlling process before the test processes
    start (compileall writes what PYTHONDONTWRITEBYTECODE only stops imports from writing)."""
    if hasattr(config, "workerinput"):
        return
    import compileall
    import looptx
    compileall.compile_dir(os.path.dirname(looptx.__file__), quiet=2)


@pytest.fixture(scope="module")
def private_build_cache(tmp_path_factory):
    """Builds go to a fresh cache, not the user's: the tests read nothing outside the repo."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LOOPTX_CACHE_DIR", str(tmp_path_factory.mktemp("build")))
        yield


def annotated_files():
    """The annotated inputs of annotations/ (not the .best.c files a search writes there)."""
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent / "annotations"
    return sorted(p for p in root.glob("*.c") if not p.name.endswith(".best.c"))


def case_files(tmp_path, code: str, recipe: str, recipe_name: str = "r.yaml"):
    """A test case's C file `k.c` and its recipe (a YAML one by default, or a CHiLL script)."""
    src = tmp_path / "k.c"
    src.write_text(code)
    r = tmp_path / recipe_name
    r.write_text(recipe)
    return src, r


def run_cli(*argv) -> tuple[int, str, str]:
    """looptx's command line in this process: (exit code, stdout, stderr)."""
    import contextlib
    import io
    from looptx.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main([str(a) for a in argv])
    return rc, out.getvalue(), err.getvalue()


def cli_process(*args, cwd=None, env=None):
    """`python -m looptx ARGS` as a finished process (its exit code, stdout and stderr), run in
    this process: starting Python and importing looptx again costs more than most commands.
    test_bad_inputs runs the real entry point."""
    import contextlib
    import io
    import subprocess
    from looptx.cli import main
    out, err = io.StringIO(), io.StringIO()
    here, saved = os.getcwd(), dict(os.environ)
    try:
        if cwd is not None:
            os.chdir(cwd)
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = main([str(a) for a in args])
            except SystemExit as e:           # argparse's usage errors and --help
                rc = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        os.chdir(here)
        if env is not None:
            os.environ.clear()
            os.environ.update(saved)
    return subprocess.CompletedProcess(["looptx", *map(str, args)], rc, out.getvalue(), err.getvalue())


def runs_ok(path, recipe, sizes, *argv) -> None:
    """`looptx run` builds, validates and times the recipe at each size `n` of `sizes`."""
    for n in sizes:
        rc, out, err = run_cli("run", path, "--recipe", recipe, *argv, "-D", f"n={n}")
        assert rc == 0 and ": ok" in out, (n, out + err)


def same_as_written(tmp_path, src, recipe, main: str, flags=()) -> str:
    """`src` and its output built with gcc -O1 and run by the C program `main`: the same text
    printed (and some); the transform's stderr."""
    import subprocess
    out = tmp_path / "o.c"
    rc, _, err = run_cli("transform", src, "--recipe", recipe, "-o", out, *flags)
    assert rc == 0, err
    (tmp_path / "m.c").write_text(main)
    results = []
    for k, c in enumerate((src, out)):
        exe = tmp_path / f"t{k}"
        subprocess.run(["gcc", "-O1", "-w", str(tmp_path / "m.c"), str(c), "-o", str(exe)], check=True)
        results.append(subprocess.run([str(exe)], capture_output=True, text=True, timeout=20, check=True).stdout)
    assert results[0] == results[1] and results[0], results
    return err


def same_output_c(tmp_path, src, out, main: str, args_list) -> None:
    """`src` and `out` built with gcc -O1 beside the C program `main` and run with each argument
    list: the same text printed."""
    import subprocess
    (tmp_path / "m.c").write_text(main)
    exes = []
    for k, c in enumerate((src, out)):
        exes.append(tmp_path / f"t{k}")
        subprocess.run(["gcc", "-O1", "-w", str(tmp_path / "m.c"), str(c), "-o", str(exes[-1]), "-lm"], check=True)
    for args in args_list:
        got = [subprocess.run([str(e), *args], capture_output=True, text=True, timeout=20, check=True).stdout
               for e in exes]
        assert got[0] == got[1], (args, got)


def transform_case(tmp_path, src: str, step: str, *argv) -> tuple[int, str, str]:
    """Writes `src` to k.c and the one-step recipe r.yaml in tmp_path, and transforms k.c."""
    (tmp_path / "k.c").write_text(src)
    (tmp_path / "r.yaml").write_text(f"steps:\n  - {step}\n")
    return run_cli("transform", tmp_path / "k.c", "--recipe", tmp_path / "r.yaml", *argv)


def require_gpu():
    """A CUDA session, or the test is skipped: it needs an NVIDIA GPU with pycuda."""
    try:
        from looptx.runtime.cuda import CudaSession
        return CudaSession()
    except Exception as e:                      # no pycuda, no driver, no device
        pytest.skip(f"needs an NVIDIA GPU with pycuda ({e})")


# Tests of a minute or more (the whole corpus through one step kind, every corpus kernel
# through nvcc): xdist hands tests out in collection order, and one of these drawn last keeps
# one worker busy while the other has nothing left.
_LONG_FIRST = ("test_recipes.py::test_step_on_corpus", "test_cuda_codegen.py::test_corpus_kernel_cuda",
               "test_c_evaluator.py::test_every_corpus_kernel", "test_property.py::test_random_recipes",
               "test_orio_loop.py::test_spapt", "test_search_faults.py::test_local_dask",
               "test_search_faults.py::test_sigkill", "test_includes.py::test_run_search_and_deps")


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: not any(long in item.nodeid for long in _LONG_FIRST))
