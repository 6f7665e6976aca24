"""Probe 16's replay and report findings: -D and T1 Values narrow a replayed space, objectives
are checked and shown in their own units, options a replay cannot use are refused, plots take
the format their extension names, and the summary words its counts exactly."""
import json
from pathlib import Path

import pytest
from conftest import run_cli as cli

from looptx.search.db import EvalRecord, ResultsDB
from looptx.search.space import point_key

ROOT = Path(__file__).resolve().parents[1]
MATMUL = ROOT / "search" / "cpu_matmul.json.gz"
TCCG = ROOT / "search" / "tccg_cuda_h200.json.gz"


def cache(tmp_path, values, times, name="c.json"):
    """One parameter bx; Kernel Tuner writes one record a line."""
    lines = [f'"{v}": ' + json.dumps({"bx": v, "time": t, "compile_time": 10.0,
                                      "timestamp": f"t{v}"}) for v, t in zip(values, times)]
    head = json.dumps({"device_name": "X", "kernel_name": "k", "tune_params_keys": ["bx"],
                       "tune_params": {"bx": list(values)}, "objective": "time"})[:-1]
    path = tmp_path / name
    path.write_text(head + ', "cache": {\n' + ",\n".join(lines) + "\n}\n}\n")
    return path


def one_error(rc, err, *needles):
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    for n in needles:
        assert n in err, err


def test_define_narrows_the_replayed_space():
    for seed in (2, 3):
        rc, out, err = cli("search", "--replay", MATMUL, "-a", "random", "--budget", 4,
                           "--seed", seed, "-D", "TI=32", "-D", "UF=4")
        best = json.loads(out.split("best point ")[1].splitlines()[0])
        assert rc == 0 and best["TI"] == 32 and best["UF"] == 4, out + err
    rc, _, err = cli("search", "--replay", MATMUL, "-D", "NOPE=3")
    one_error(rc, err, "'NOPE' is not a parameter of the cache", "TI, TJ, UF")
    rc, _, err = cli("search", "--replay", MATMUL, "-D", "ti=8")
    one_error(rc, err, "did you mean 'TI'?")
    rc, _, err = cli("search", "--replay", MATMUL, "-D", "TI=33")
    one_error(rc, err, "no value 33 for TI", "values: 1, 8, 16, 32")


def test_t1_values_restrict_the_space(tmp_path):
    path = cache(tmp_path, [1, 2, 3], [3.0, 2.0, 1.0])
    t1 = tmp_path / "t1.json"
    t1.write_text(json.dumps({"ConfigurationSpace": {"TuningParameters": [
        {"Name": "bx", "Type": "int", "Values": "[1, 2, 5]"}], "Conditions": []}}))
    rc, out, err = cli("search", "--replay", path, "--t1", t1, "-a", "exhaustive")
    assert rc == 0 and '"bx": 2' in out.split("best point")[1].splitlines()[0], out + err
    # bx=3 is outside the T1 space; bx=5 was never measured, so it fails like any unmeasured point
    assert "3 points, 1 of them failed" in out, out
    assert "never measured (bx=5)" in err and "does not list (bx=3)" in err, err


def test_time_maximised_is_shown_in_ms_and_bad_times(tmp_path):
    path = cache(tmp_path, [1, 2], [1.0, 4.0])
    rc, out, err = cli("search", "--replay", path, "--objective", "time:max", "-a", "exhaustive")
    assert rc == 0 and "best found time 4 ms (optimum 4 ms, higher is better" in out, out + err
    rc, out, err = cli("search", "--replay", cache(tmp_path, [1, 2], [0.0, 4.0], "z.json"),
                       "-a", "exhaustive")
    assert rc == 0 and "best found time 0 ms (optimum 0 ms" in out, out + err
    neg = cache(tmp_path, [1, 2], [2.0, -1.0], "n.json")
    rc, _, err = cli("search", "--replay", neg)
    one_error(rc, err, f"{neg}:3: error: the record '2' has a negative time")


@pytest.mark.parametrize("objective, needle", [
    ("nosuch", "no record of the cache has the objective 'nosuch'"),
    ("time:sideways", "the direction after ':' must be max or min, not 'sideways'"),
    ("", "--objective is empty"),
    ("tme", "did you mean 'time'?"),
])
def test_bad_objective_says_what_is_wrong(tmp_path, objective, needle):
    rc, _, err = cli("search", "--replay", cache(tmp_path, [1, 2], [1.0, 2.0]),
                     f"--objective={objective}")
    one_error(rc, err, needle, "recorded: time, compile_time", "NAME:max or NAME:min")


def test_options_a_replay_cannot_use(tmp_path):
    src = tmp_path / "k.c"
    src.write_text("int main(void) { return 0; }\n")
    rc, _, err = cli("search", src, "--replay", MATMUL, "--budget", 3)
    one_error(rc, err, "a FILE", "and --replay do not go together")
    rc, _, err = cli("search", "--replay", MATMUL, "--workers", 2, "--budget", 3)
    one_error(rc, err, "--workers does not apply to --replay")
    rc, out, err = cli("search", "--replay", MATMUL, "--backend", "cuda", "--budget", 3)
    assert rc == 0 and "best found" in out, err
    assert err.strip() == f"{MATMUL}: note: --backend cuda is ignored by --replay: the times are " \
        "the cache's, from the device it was recorded on", err


def test_summary_wording():
    rc, out, _ = cli("search", "--replay", MATMUL, "-a", "random", "--budget", 1)
    assert rc == 0 and "random, 1 evaluation (0 failed)" in out and "after 1 evaluation;" in out, out
    rc, out, _ = cli("search", "--replay", TCCG, "-a", "random", "--budget", 10, "--seed", 1)
    assert "768 points, 280 of them failed" in out and "valid points" not in out, out
    assert "never within 5% of the optimum in 10 evaluations" in out, out


def _failing_first_db(path):
    with ResultsDB(path) as db:
        db.create_search("f.c|c", input_file="f.c", problem={}, backend="c", searcher="random",
                         seed=0, budget=16)
        for i in range(16):
            p = {"x": i}
            ok = i >= 12
            db.add_evaluation("f.c|c", EvalRecord(
                eval_index=i, point=p, point_key=point_key(p), status="ok" if ok else "illegal",
                time=1.0 / (i + 1) if ok else None, error=None if ok else "illegal here"))
    return path


def test_report_plot_format_axis_and_top(tmp_path):
    from looptx.search.report import convergence_figure
    db = _failing_first_db(tmp_path / "f.looptx.db")
    rc, _, err = cli("report", db, "--plot", tmp_path / "c.pdf")
    assert rc == 0 and (tmp_path / "c.pdf").read_bytes()[:5] == b"%PDF-", err
    rc, _, err = cli("report", db, "--plot", tmp_path / "c.svg")
    assert rc == 0 and b"<svg" in (tmp_path / "c.svg").read_bytes()[:400], err
    rc, _, err = cli("report", db, "--plot", tmp_path / "c.xyz")
    one_error(rc, err, "cannot write a plot as '.xyz'", ".pdf", ".png")
    assert not (tmp_path / "c.xyz").exists()
    fig, lines = convergence_figure(db)
    ax = fig.axes[0]
    assert lines == 1 and ax.get_xlim()[0] == 1
    assert all(float(t).is_integer() for t in ax.get_xticks())
    for top in (0, -2):
        rc, out, err = cli("report", db, "--top", top)
        one_error(rc, err, f"--top must be at least 1, got {top}")
        assert out == ""


@pytest.mark.parametrize("spelling", ["['j', '1', 'i', '1']", "('j', '1', 'i', '1')", "j,1,i,1"])
def test_define_fixes_a_sequence_param_of_a_replayed_space(spelling):
    # a replay has no FILE whose performance params could say which -D values are not
    # integers: the cache's own values decide, in the spellings a real search takes
    mapping = ROOT / "search" / "cpu_matmul_mapping.json.gz"
    rc, out, err = cli("search", "--replay", mapping, "-a", "random", "--budget", "3",
                       "-D", f"MAP={spelling}")
    assert rc == 0, err
    assert 'best point {"MAP": ["j", "1", "i", "1"]' in out
    rc, out, err = cli("search", "--replay", mapping, "-D", "MAP=xyz")
    one_error(rc, err, "the cache has no value xyz for MAP")
