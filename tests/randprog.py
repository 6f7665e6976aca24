"""Seeded random affine programs and random recipes for the property test."""
from __future__ import annotations

import random

from looptx.errors import LooptxError
from looptx.poly import schedule as S
from looptx.poly.variant import original
from looptx.recipe.apply import STEPS, check_legal
from looptx.recipe.schema import load_yaml

ITERS = ["i", "j", "k"]


def random_program(rng: random.Random) -> str:
    """A complete C program: 1-2 nests of depth 1-3 over padded arrays, with in-place updates,
    reductions and triangular bounds, dumping every array."""
    nests = []
    for _ in range(rng.randint(1, 2)):
        depth = rng.randint(1, 3)
        its = ITERS[:depth]
        header = []
        for d, it in enumerate(its):
            lb = rng.choice(["0", "1"] + ([its[d - 1]] if d > 0 else []))
            ub = rng.choice(["N", "N - 1"] + ([f"{its[d - 1]} + 1"] if d > 0 else []))
            header.append(f"for (int {it} = {lb}; {it} < {ub}; {it}++)")
        body = []
        for _ in range(rng.randint(1, 2)):
            body.append(_statement(rng, its))
        nests.append((header, body))
    lines = []
    for header, body in nests:
        ind = "    "
        for h in header:
            lines.append(ind + h)
            ind += "    "
        lines.append(ind[:-4] + "    {" if len(body) > 1 else "")
        for b in body:
            lines.append(ind + b)
        if len(body) > 1:
            lines.append(ind[:-4] + "    }")
    region = "\n".join(ln for ln in lines if ln)
    return f"""// sizes: N=12 | N=13
// region: pragma
#include "harness.h"
#ifndef N
#define N 12
#endif
static double A[N + 4][N + 4], B[N + 4][N + 4], x[N + 4], s;
static void kernel(void)
{{
#pragma scop
{region}
#pragma endscop
}}
int main(void)
{{
    lx_seed(7);
    lx_fill_double(&A[0][0], (size_t)(N + 4) * (N + 4));
    lx_fill_double(&B[0][0], (size_t)(N + 4) * (N + 4));
    lx_fill_double(x, (size_t)(N + 4));
    s = 1.5;
    kernel();
    lx_dump("A", A, sizeof A);
    lx_dump("B", B, sizeof B);
    lx_dump("x", x, sizeof x);
    lx_dump("s", &s, sizeof s);
    return 0;
}}
"""


def _index(rng, its) -> str:
    it = rng.choice(its)
    return f"{it} + {1 + rng.choice([-1, 0, 1])}"


def _ref(rng, its) -> str:
    kind = rng.choice(["A", "B", "x", "s"] if len(its) > 1 else ["x", "A", "s"])
    if kind == "s":
        return "s"
    if kind == "x":
        return f"x[{_index(rng, its)}]"
    return f"{kind}[{_index(rng, its)}][{_index(rng, its)}]"


def _statement(rng, its) -> str:
    lhs = _ref(rng, its)
    rhs = " + ".join(_ref(rng, its) for _ in range(rng.randint(1, 3)))
    op = rng.choice(["=", "+=", "="])
    return f"{lhs} {op} 0.5 * ({rhs});"


def random_step(rng: random.Random, v) -> str | None:
    stmts = [s.id for s in v.scop.statements]
    s = rng.choice(stmts)
    names = S.loop_names(v, s)
    if not names:
        return None
    L = rng.choice(names)
    kind = rng.choice(["permute", "tile", "unroll", "split", "skew", "shift", "reverse", "peel",
                       "distribute", "fuse", "registers"])
    if kind == "permute" and len(names) >= 2:
        order = names[:]
        rng.shuffle(order)
        return f"permute: {{stmt: {s}, order: [{', '.join(order)}]}}"
    if kind == "tile":
        return f"tile: {{stmt: {s}, loop: {L}, size: {rng.choice([2, 3, 4, 5])}, control: {L}_{rng.randint(0, 999)}}}"
    if kind == "unroll":
        return f"unroll: {{stmt: {s}, loop: {L}, factor: {rng.choice([0, 2, 3, 4])}}}"
    if kind == "split":
        return f"split: {{stmt: {s}, loop: {L}, at: 'N/2'}}"
    if kind == "skew" and names.index(L) > 0:
        return f"skew: {{stmt: {s}, loop: {L}, by: {{{names[0]}: {rng.choice([1, 2, -1])}}}}}"
    if kind == "shift":
        return f"shift: {{stmt: {s}, loop: {L}, by: {rng.choice([1, -2, 3])}}}"
    if kind == "reverse":
        return f"reverse: {{stmt: {s}, loop: {L}}}"
    if kind == "peel":
        return f"peel: {{stmt: {s}, loop: {L}, first: {rng.randint(0, 2)}, last: {rng.randint(0, 2)}}}"
    if kind == "distribute":
        return f"distribute: {{stmts: [{s}], loop: {names[0]}}}"
    if kind == "fuse" and len(stmts) > 1:
        t = rng.choice([x for x in stmts if x != s])
        return f"fuse: {{stmts: [{s}, {t}], loop: {names[0]}}}"
    if kind == "registers":
        arr = rng.choice([a.array for a in v.scop.statements[s].accesses])
        return f"registers: {{stmt: {s}, array: {arr}, at: {L}}}"
    return None


def random_recipe(rng: random.Random, scop, n_steps: int):
    """(steps, accepted): steps are applied one by one; a rejected step ends the recipe."""
    from looptx.poly.deps import compute_deps
    deps = compute_deps(scop)
    v = original(scop)
    steps = []
    while len(steps) < n_steps:
        text = random_step(rng, v)
        if text is None:
            continue
        steps.append(text)
        st = load_yaml(f"steps:\n  - {text}\n", file="rand.yaml").steps[0]
        try:
            v = STEPS[st.name](v, st)
            check_legal(v, deps, st)
        except LooptxError:
            return steps, False
    return steps, True
