"""Exact dependences compared with hand-written isl relations (is_equal, never strings)."""
import json

import islpy as isl

from conftest import cli_process
from looptx.frontend.cparse import parse_file
from looptx.poly import deps as D


def scop_of(body: str, decls: str = "double A[N][N], B[N], C[N];"):
    text = f"#define N 64\n{decls}\nvoid f(void) {{\n  int i, j, k;\n#pragma scop\n{body}\n#pragma endscop\n}}\n"
    return parse_file("t.c", text=text).scops[0]


def rel(deps, kind, src, dst):
    u = isl.UnionMap.empty(deps.context.get_space())
    for d in deps.items:
        if d.kind == kind and d.source == src and d.sink == dst:
            u = u.union(isl.UnionMap.from_map(d.relation))
    return u


def same(u, text):
    want = isl.UnionMap(text)
    assert u.is_equal(want), f"\n got: {u}\nwant: {want}"


MATMUL = """
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      B[i] = 0;
      C[i] = 0;
      A[i][j] = 0.0;
      for (k = 0; k < N; k++)
        A[i][j] += A[i][k] * A[k][j];
    }
"""


def test_matmul_deps():
    s = scop_of("""
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      C2[i][j] = 0.0;
      for (k = 0; k < N; k++)
        C2[i][j] += A[i][k] * A2[k][j];
    }""", "double A[N][N], A2[N][N], C2[N][N];")
    d = D.compute_deps(s)
    same(rel(d, "RAW", 0, 1), "[N] -> { S0[i, j] -> S1[i, j, 0] : 0 <= i < N and 0 <= j < N }")
    same(rel(d, "WAW", 0, 1), "[N] -> { S0[i, j] -> S1[i, j, 0] : 0 <= i < N and 0 <= j < N }")
    same(rel(d, "RAW", 1, 1), "[N] -> { S1[i, j, k] -> S1[i, j, k + 1] : 0 <= i < N and 0 <= j < N and 0 <= k < N - 1 }")
    same(rel(d, "WAW", 1, 1), "[N] -> { S1[i, j, k] -> S1[i, j, k + 1] : 0 <= i < N and 0 <= j < N and 0 <= k < N - 1 }")
    same(rel(d, "WAR", 1, 1), "[N] -> { S1[i, j, k] -> S1[i, j, k + 1] : 0 <= i < N and 0 <= j < N and 0 <= k < N - 1 }")
    assert rel(d, "WAR", 0, 1).is_empty() and rel(d, "RAW", 1, 0).is_empty()
    loops = {lp.name: lp.parallel for lp in D.loops(d)}
    assert loops == {"i": True, "j": True, "k": False}


def test_in_place_stencil_deps():
    s = scop_of("""
  for (i = 1; i < N; i++)
    for (j = 0; j < N - 1; j++)
      A[i][j] = A[i - 1][j + 1] + A[i][j + 1];""")
    d = D.compute_deps(s)
    same(rel(d, "RAW", 0, 0), "[N] -> { S0[i, j] -> S0[i + 1, j - 1] : 1 <= i < N - 1 and 1 <= j < N - 1 }")
    same(rel(d, "WAR", 0, 0), "[N] -> { S0[i, j] -> S0[i, j + 1] : 1 <= i < N and 0 <= j < N - 2 }")
    assert rel(d, "WAW", 0, 0).is_empty()
    dist = {(x.kind): D.distance(d, x) for x in d.items}
    assert dist["RAW"] == ["1", "-1"] and dist["WAR"] == ["0", "1"]


def test_lu_deps():
    s = scop_of("""
  for (k = 0; k < N; k++) {
    for (j = k + 1; j < N; j++)
      A[k][j] = A[k][j] / A[k][k];
    for (i = k + 1; i < N; i++)
      for (j = k + 1; j < N; j++)
        A[i][j] = A[i][j] - A[i][k] * A[k][j];
  }""")
    d = D.compute_deps(s)
    same(rel(d, "RAW", 0, 1), "[N] -> { S0[k, j] -> S1[k, i, j] : 0 <= k and k < i < N and k < j < N }")
    same(rel(d, "RAW", 1, 1),
         "[N] -> { S1[k, i, j] -> S1[k + 1, i, j] : 0 <= k and k + 1 < i < N and k + 1 < j < N;"
         "        S1[k, i, k + 1] -> S1[k + 1, i, j] : 0 <= k and k + 1 < i < N and k + 1 < j < N }")
    same(rel(d, "RAW", 1, 0),
         "[N] -> { S1[k, k + 1, j] -> S0[k + 1, j] : 0 <= k and k + 1 < j < N;"
         "        S1[k, k + 1, k + 1] -> S0[k + 1, j] : 0 <= k and k + 1 < j < N }")
    assert not D.is_legal(d, s.isl("{ S0[k, j] -> [1, k, 0, j, 0, 0, 0]; S1[k, i, j] -> [0, k, 1, i, 0, j, 0] }")
                          .intersect_domain(s.domains))


def test_producer_consumer_deps():
    s = scop_of("""
  for (i = 0; i < N; i++)
    B[i] = A[i][0] * 2.0;
  for (i = 0; i < N - 1; i++)
    C[i] = B[i] + B[i + 1];""")
    d = D.compute_deps(s)
    same(rel(d, "RAW", 0, 1), "[N] -> { S0[i] -> S1[i] : 0 <= i < N - 1; S0[i] -> S1[i - 1] : 1 <= i < N }")
    assert rel(d, "RAW", 1, 0).is_empty() and rel(d, "WAR", 0, 1).is_empty()
    swapped = s.isl("{ S0[i] -> [1, i, 0]; S1[i] -> [0, i, 0] }").intersect_domain(s.domains)
    bad = D.violated(d, swapped)
    assert bad and bad[0][0].kind == "RAW"
    msg = D.describe_violation(d, *bad[0])
    assert msg.startswith("S0(0) writes B[0] before S1(0) reads it"), msg


def test_scalar_temporary_deps():
    s = scop_of("""
  for (i = 0; i < N; i++) {
    t = A[i][0];
    B[i] = t * t;
  }""", "double A[N][N], B[N], t;")
    d = D.compute_deps(s)
    same(rel(d, "RAW", 0, 1), "[N] -> { S0[i] -> S1[i] : 0 <= i < N }")
    same(rel(d, "WAR", 1, 0), "[N] -> { S1[i] -> S0[i + 1] : 0 <= i < N - 1 }")
    same(rel(d, "WAW", 0, 0), "[N] -> { S0[i] -> S0[i + 1] : 0 <= i < N - 1 }")


def test_deps_cli_json(tmp_path):
    f = tmp_path / "p.c"
    f.write_text("#define N 8\ndouble A[N], B[N];\nvoid f(void) {\n#pragma scop\n"
                 "for (int i = 1; i < N; i++) A[i] = A[i-1] + B[i];\n#pragma endscop\n}\n")
    out = cli_process("deps", f, "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    r = data["regions"][0]
    assert r["parameters"] == ["N"]
    assert any(d["kind"] == "RAW" and d["distance"] == ["1"] and d["carried_by"] == ["i"]
               for d in r["dependences"])
    assert r["loops"] == [{"name": "i", "depth": 1, "statements": [0], "parallel": False,
                           "carries": ["RAW on A"]}]
    text = cli_process("deps", f)
    assert "carried by i" in text.stdout and "sequential" in text.stdout
