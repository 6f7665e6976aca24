"""The spaces recorded in search/ (CPU ones from this project's annotations, GPU ones from an
H200) load, and every searcher replays on each: exactly max_evals evaluations, only valid
points, none twice; the command line's --replay agrees with the library."""
from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from looptx.cli import main
from looptx.search.registry import available_searchers
from looptx.search.replay import load_recorded_space, replay

SPACES = sorted((Path(__file__).resolve().parent.parent / "search").glob("*.json.gz"))
GPU = [p for p in SPACES if "cuda" in p.name]
FAST_OPTS = {"surf": {"n_trees": 10}, "surf+": {"n_trees": 10}}


def test_recorded_spaces_exist():
    assert len(SPACES) >= 5 and len(GPU) >= 2
    for p in GPU:
        doc = json.loads(__import__("gzip").open(p).read())
        kinds = {q["name"]: q["kind"] for q in doc["looptx_params"]}
        assert "mapping" in kinds.values(), "GPU spaces carry a loop-mapping param"
        assert len(doc["cache"]) >= 300


@pytest.mark.parametrize("path", SPACES, ids=lambda p: p.name)
def test_space_loads(path):
    rec = load_recorded_space(path)
    assert rec.n_valid == len(rec.times) >= 20
    assert rec.optimum == min(t for t in rec.times if t != float("inf"))


@pytest.mark.parametrize("name", available_searchers())
@pytest.mark.parametrize("path", SPACES, ids=lambda p: p.name)
def test_replay_every_searcher(path, name):
    rec = load_recorded_space(path)
    budget = min(25, rec.n_valid)
    tr = replay(rec, name, seed=1, max_evals=budget, options=FAST_OPTS.get(name, {}))
    assert len(tr) == budget
    keys = [json.dumps(p, sort_keys=True, default=list) for p, _, _ in tr]
    assert len(set(keys)) == budget, "a point was proposed twice"
    assert all(rec.space.is_valid(p) for p, _, _ in tr)
    assert tr.best_curve[-1] >= rec.optimum


@pytest.mark.parametrize("path", GPU, ids=lambda p: p.name)
def test_replay_command_on_gpu_spaces(path):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(["search", "--replay", str(path), "-a", "surf+", "--budget", "30", "--seed", "2"])
    assert rc == 0
    text = out.getvalue()
    assert "best found" in text and "30 evaluations" in text
    tr = replay(load_recorded_space(path), "surf+", seed=2, max_evals=30)
    best = min(r.value for _, r, _ in tr if r.ok)
    assert f"best found {best:.6g}" in text
