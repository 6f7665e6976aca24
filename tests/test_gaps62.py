"""Gaps found by probes 151 and later (and earlier known gaps), end to end."""
import pytest

from conftest import run_cli

pytestmark = pytest.mark.usefixtures("private_build_cache")


@pytest.mark.parametrize("decl", ["const unsigned M = 7;", "static const unsigned short M = 7;"])
def test_the_harness_gives_a_file_scope_size_its_own_type(tmp_path, monkeypatch, decl):
    """Probe 151 G4: a size declared at file scope (`const unsigned M = 7;`) was an int in
    `run`'s harness, so the as-written check compared `i < M` as signed, as the misreading it
    is there to catch does: with looptx's unsigned-comparison check switched off, the
    misreading now shows; with it on, the file is refused as before."""
    from looptx.frontend.int_types import IntTypes
    from looptx.runtime.run_once import run_once
    src = tmp_path / "g.c"
    src.write_text(f"{decl}\ndouble A[300], B[300];\nvoid k(void) {{\n  int i;\n#pragma scop\n"
                   "  for (i = -3; i < M; i++)\n    A[i + 3] = B[i + 3] + 1.0;\n#pragma endscop\n}\n")
    recipe = tmp_path / "r.yaml"
    recipe.write_text("steps: [{unroll: {stmt: 0, loop: i, factor: 3}}]\n")
    monkeypatch.setattr(IntTypes, "compared_unsigned", lambda self, a, b: False)
    r = run_once(str(src), str(recipe), isolate=False)
    unsigned_int = "short" not in decl      # (an unsigned short promotes to int: no wrap)
    assert (r["status"] == "wrong_result") == unsigned_int, r
    monkeypatch.undo()
    again = tmp_path / "g2.c"           # (another file: the process keeps each file's reference)
    again.write_text(src.read_text())
    rc, out, err = run_cli("run", again, "--recipe", recipe)
    assert (rc == 2 and "as unsigned values" in err) if unsigned_int else (rc == 0 and ": ok" in out), out + err


def test_a_value_of_a_file_scope_unsigned_size_is_computed_as_c_does(tmp_path):
    """The same size in a value the model does not read (`A[i] = i - M > 3`): the harness's
    reference computes it unsigned, as the file does, so the original's results are C's."""
    from looptx.runtime.run_once import run_once
    src = tmp_path / "v.c"
    src.write_text("const unsigned M = 5;\ndouble A[20];\nvoid f(void) {\n  int i;\n#pragma scop\n"
                   "  for (i = 0; i < 20; i++)\n    A[i] = (i - M > 3);\n#pragma endscop\n}\n")
    recipe = tmp_path / "r.yaml"
    recipe.write_text("steps: [{reverse: {stmt: 0, loop: i}}]\n")
    r = run_once(str(src), str(recipe), isolate=False)
    assert r["status"] == "ok", r
    from looptx.pipeline import load
    from looptx.runtime.harness import RegionSignature
    sig = RegionSignature.from_scop(load(str(src)).scops[0])
    assert [a.c_param() for a in sig.args if a.kind == "size"] == ["unsigned int M"], sig.args
