"""Probe 27 (llama2.c, libCEED, NWChem CCSD(T), CoMD, mini-nbody): sizes of a typedef'd integer
type (libCEED's `CeedInt`) were both sizes and data, twice in every signature; a region whose
markers sit in different blocks gave C with a brace too many or too few; llama2.c's pointer
locals (`float* q = s->q + h * head_size;`) were refused."""
from __future__ import annotations

import pytest

from conftest import run_cli
from test_cuda_codegen import needs_nvcc, nvcc_compile

CEED = """#include <stdint.h>
typedef int32_t CeedInt;
void contract(CeedInt A, CeedInt B, CeedInt C, const double *restrict t, const double *restrict u,
              double *restrict v) {
  for (CeedInt a = 0; a < A; a++)
    for (int j = 0; j < 16; j++)
      for (int b = 0; b < B; b++)
        for (int c = 0; c < C; c++)
          v[(a * 16 + j) * C + c] += t[j * B + b] * u[(a * B + b) * C + c];
}
"""


def test_typedef_int_sizes_are_sizes_once(tmp_path):
    src = tmp_path / "ceed.c"
    src.write_text(CEED)
    rc, out, err = run_cli("run", src, "--function", "contract", "-D", "A=10", "-D", "B=7", "-D", "C=33")
    assert rc == 0 and ": ok" in out, out + err
    rc, out, err = run_cli("deps", src, "--function", "contract")
    deps = [ln.split() for ln in out.splitlines() if ln.strip().startswith(("RAW", "WAR", "WAW"))]
    assert rc == 0 and "parameters: A, B, C" in out and deps and all(d[4] == "v" for d in deps), out


@needs_nvcc
def test_typedef_int_sizes_in_the_cu_signatures(tmp_path):
    src = tmp_path / "ceed.c"
    src.write_text(CEED)
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - cuda: {stmt: 0, block: [a], thread: [j]}\n")
    cu = tmp_path / "ceed.cu"
    rc, out, err = run_cli("transform", src, "--function", "contract", "--recipe", r, "--target", "cuda", "-o", cu)
    assert rc == 0, err
    text = cu.read_text()
    assert "int B, int B" not in text and "int C, int C" not in text, text
    assert nvcc_compile(text) is None


@pytest.mark.parametrize("body, line, message", [
    ("#pragma scop\n  for (int i = 0; i < n; i++) {\n    for (int j = 0; j < n; j++)\n      a[i][j] = 0;\n"
     "#pragma endscop\n  }\n", 6, "'#pragma endscop' is inside the block opened at line 3"),
    ("  for (int i = 0; i < n; i++) {\n#pragma scop\n    for (int j = 0; j < n; j++)\n      a[i][j] = 0;\n"
     "  }\n#pragma endscop\n", 3, "'#pragma scop' is inside a block that closes at line 6, before '#pragma endscop'"),
    ("/*@ begin CHiLL ( ) @*/\n  for (int i = 0; i < n; i++) {\n    for (int j = 0; j < n; j++)\n      a[i][j] = 0;\n"
     "/*@ end @*/\n  }\n", 6, "'/*@ end @*/' is inside the block opened at line 3"),
])
def test_markers_in_two_blocks_are_refused_at_the_marker(tmp_path, body, line, message):
    src = tmp_path / "m.c"
    src.write_text("void f(int n, double a[n][n]) {\n" + body + "}\n")
    rc, out, err = run_cli("transform", src)
    assert rc == 2 and err.count("\n") == 1 and err.startswith(f"{src}:{line}:1:") and message in err, err


ATTN = """typedef struct { int n_heads; int seq_len; } Config;
typedef struct { float *q; float *att; float *xb; float *key_cache; } RunState;

void attention(Config* p, RunState* s, int pos, int loff, int kv_dim, int head_size) {
  for (int h = 0; h < p->n_heads; h++) {
    float* q = s->q + h * head_size;
    float* att = s->att + h * p->seq_len;
    for (int t = 0; t <= pos; t++) {
      float* k = s->key_cache + loff + t * kv_dim + h * head_size;
      float score = 0.0f;
      for (int i = 0; i < head_size; i++)
        score += q[i] * k[i];
      att[t] = score;
    }
    float* xb = &s->xb[h * head_size];
    for (int i = 0; i < head_size; i++)
      xb[i] = att[i % 2] * 2.0f;
  }
}
"""


def test_pointer_locals_are_read_through_their_initializers(tmp_path):
    src = tmp_path / "attn.c"
    src.write_text(ATTN)
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - omp_for: {stmt: 0, loop: h}\n")
    sizes = ["-D", "p__n_heads=4", "-D", "pos=9", "-D", "head_size=8", "-D", "kv_dim=40", "-D", "loff=17",
             "-D", "p__seq_len=12"]
    rc, out, err = run_cli("run", src, "--function", "attention", "--recipe", r, *sizes)
    assert rc == 0 and ": ok" in out, out + err
    rc, out, err = run_cli("transform", src, "--function", "attention", "--recipe", r, "-D", "head_size=8",
                           "-D", "kv_dim=40")
    assert rc == 0 and "s__q[h * head_size + i]" in out and "float* q" not in out, out + err


def test_a_pointer_local_used_whole_is_refused_with_what_to_do(tmp_path):
    src = tmp_path / "attn.c"
    src.write_text(ATTN.replace("att[t] = score;", "att[t] = score;\n    }\n    g(att);\n    {"))
    src.write_text("void g(float *x);\n" + src.read_text())
    rc, out, err = run_cli("deps", src, "--function", "attention")
    assert rc == 2 and err.startswith(f"{src}:8:10:") and "pointer declaration 'att'" in err, err
    assert "pass the array and the offset instead of 'att'" in err, err


def test_a_member_that_only_a_call_takes_leaves_the_call_to_be_named(tmp_path):
    # CoMD's `getNeighborBoxes(s->boxes, iBox, nbrBoxes)`: the call is what the model refuses
    src = tmp_path / "comd.c"
    src.write_text("typedef struct { int n; } LinkCell;\ntypedef struct { LinkCell *boxes; double *f; } Sim;\n"
                   "int nbrs(LinkCell *b, int i);\nvoid f(Sim *s, int n) {\n#pragma scop\n"
                   "  for (int i = 0; i < n; i++) {\n    int k = nbrs(s->boxes, i);\n    s->f[i] = k;\n  }\n"
                   "#pragma endscop\n}\n")
    rc, out, err = run_cli("deps", src)
    assert rc == 2 and err.count("\n") == 1 and err.startswith(f"{src}:7:13:") and "nbrs" in err, err


FLAG = """void gemv(int n, int add, int m, double A[n][n], double x[n], double y[n]) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++) {
    if (%s)
      y[i] = 0.0;
    for (j = 0; j < n; j++)
      y[i] += A[i][j] * x[j];
  }
#pragma endscop
}
"""


@pytest.mark.parametrize("cond, value", [("!add", 0), ("add", 3), ("add == 2", 2)])
def test_a_flag_that_only_turns_statements_on_gets_the_value_that_runs_most(tmp_path, cond, value):
    """C4: `run` asked for a value for `add`, which only switches a statement; it takes the
    value under which the most statements run, and says so."""
    src = tmp_path / "gemv.c"
    src.write_text(FLAG % cond)
    r = tmp_path / "r.yaml"
    r.write_text("steps:\n  - tile: {stmt: 1, loop: j, size: 16}\n")
    rc, out, err = run_cli("run", src, "--recipe", r, "-D", "n=37")
    assert rc == 0 and ": ok" in out, out + err
    assert f"'add' only turns statements of the region on or off: the harness sets it to {value}" in err, err


def test_a_size_that_bounds_an_iteration_is_no_flag(tmp_path):
    src = tmp_path / "gemv.c"
    src.write_text(FLAG % "i < m")
    rc, out, err = run_cli("run", src, "-D", "n=37")
    assert rc == 2 and "the size 'm' has no value" in err, err
