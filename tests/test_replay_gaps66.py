"""Probe 175's replay gaps (G1-G7), end to end through the command line, on the small caches
and T1 files of tests/data/replay66: T1 values that differ from the cache only in type, objective
values that are neither numbers nor Kernel Tuner's error strings, a T4 configuration listed
twice, -D True for a T1 bool, the objective direction taken from whole words, gzip by its magic
bytes, and the command line's own errors."""
from pathlib import Path

import pytest
from conftest import run_cli

DATA = Path(__file__).parent / "data" / "replay66"


def replay(*argv):
    return run_cli("search", "--no-progress", "--replay", *argv)


def one_error(rc, err, *needles):
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    for n in needles:
        assert n in err, err


# -- G1 --------------------------------------------------------------------------------------
def test_g1_t1_values_written_as_strings_find_the_cache_numbers():
    # Kernel Tuner keys its cache by str() of the values: '16' and 16 are one key
    rc, out, err = replay(DATA / "g1_cache.json", "--t1", DATA / "g1_t1_strings.json", "-a", "exhaustive")
    assert rc == 0, err
    assert "2 evaluations (0 failed)" in out and "2 valid points" in out, out
    assert 'best point {"bx": 32}' in out, out
    assert "never measured" not in out + err, out + err
    assert "matched to the recorded value of the same text" in err, err


def test_g1_a_d_value_only_the_t1_file_lists_is_said_to_be_never_measured():
    rc, _, err = replay(DATA / "g1_cache.json", "--t1", DATA / "g1_t1_wider.json", "-D", "bx=48")
    one_error(rc, err, "-D bx=48", "bx=48 was never measured", "the cache holds no record with it")
    assert "only failed points" not in err, err


def test_g1_t1_values_no_record_holds_are_not_called_failed():
    rc, _, err = replay(DATA / "g1_cache.json", "--t1", DATA / "g1_t1_disjoint.json")
    one_error(rc, err, "g1_t1_disjoint.json: error:", "was ever measured")
    assert "all failed" not in err, err


# -- G2 --------------------------------------------------------------------------------------
@pytest.mark.parametrize("name, first, shown", [
    ("g2_cache.json", "'32'", '"0.5"'),
    ("g2_odd_types.json", "'32'", "true"),
])
def test_g2_an_objective_that_is_no_number_is_a_failure_with_a_note(name, first, shown):
    rc, out, err = replay(DATA / name, "-a", "exhaustive")
    assert rc == 0, err
    assert "4 points, 3 of them failed" in out and 'best point {"bx": 16}' in out, out
    notes = [line for line in err.splitlines() if "neither a number nor one of Kernel Tuner's error strings" in line]
    assert len(notes) == 1 and "3 records" in notes[0], err
    assert f"the first: {first} holds {shown}" in notes[0] and "failed evaluation" in notes[0], err
    assert notes[0].startswith(f"{DATA / name}:3: note:"), err


def test_g2_a_quoted_number_is_told_how_to_count():
    rc, _, err = replay(DATA / "g2_cache.json", "-a", "exhaustive")
    assert rc == 0 and "write it as a number, 0.5, without quotes" in err, err


# -- G3 --------------------------------------------------------------------------------------
def test_g3_a_configuration_listed_twice_in_a_t4_file_is_noted():
    rc, out, err = replay(DATA / "g3_run_T4.json", "-a", "exhaustive")
    assert rc == 0 and "2 valid points" in out, out + err
    assert "the configuration '16' appears 2 times in the T4 results" in err, err
    assert "the last result of each is used" in err, err


# -- G4 --------------------------------------------------------------------------------------
@pytest.mark.parametrize("given, best", [
    ("use_padding=True", '{"bx": 32, "use_padding": 1}'),
    ("use_padding=False", '{"bx": 32, "use_padding": 0}'),
    ("use_padding=1", '{"bx": 32, "use_padding": 1}'),
    ("use_padding=0", '{"bx": 32, "use_padding": 0}'),
])
def test_g4_a_t1_bool_takes_true_and_false_for_the_cache_0_and_1(given, best):
    rc, out, err = replay(DATA / "g4_cache.json", "--t1", DATA / "g4_t1.json", "-a", "exhaustive", "-D", given)
    assert rc == 0, err
    assert f"best point {best}" in out, out


def test_g4_a_t1_bool_still_refuses_other_words():
    rc, _, err = replay(DATA / "g4_cache.json", "--t1", DATA / "g4_t1.json", "-D", "use_padding=yes")
    one_error(rc, err, "g4_cache.json: error: -D use_padding=yes", "values: 0, 1")


# -- G5 --------------------------------------------------------------------------------------
def test_g5_fps_is_maximised_and_the_guess_is_said():
    rc, out, err = replay(DATA / "g5_fps.json", "-a", "exhaustive")
    assert rc == 0 and 'best point {"bx": 32}' in out and "higher is better" in out, out + err
    assert "the objective 'fps' is maximised, as guessed from its name" in err, err
    assert "--objective fps:min" in err, err


@pytest.mark.parametrize("objective, best, way", [
    ("ops_per_joule", 32, "higher"),
    ("underscore", 32, "lower"),
    ("mean_score_loss", 32, "lower"),
    ("GFLOP/s_error", 64, "lower"),
])
def test_g5_the_direction_comes_from_whole_words(objective, best, way):
    rc, out, err = replay(DATA / "g5_names.json", "-a", "exhaustive", "--objective", objective)
    assert rc == 0 and f'best point {{"bx": {best}}}' in out and f"{way} is better" in out, out + err
    assert f"the objective '{objective}' is" in err and "guessed from its name" in err, err


def test_g5_no_guess_is_said_where_the_direction_is_given_or_is_time():
    for extra in (["--objective", "fps:min"], ["--objective", "time"]):
        rc, out, err = replay(DATA / "g5_fps.json", "-a", "exhaustive", *extra)
        assert rc == 0 and "guessed" not in err, err
    rc, out, _ = replay(DATA / "g5_fps.json", "-a", "exhaustive", "--objective", "fps:min")
    assert 'best point {"bx": 16}' in out, out


# -- G6 --------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["g6_cache.JSON.GZ", "g6_gzipped.json"])
def test_g6_gzip_is_known_by_its_magic_bytes(name):
    rc, out, err = replay(DATA / name, "-a", "exhaustive", "--budget", "2")
    assert rc == 0 and "16 points, 6 of them failed" in out, out + err


# -- G7 --------------------------------------------------------------------------------------
def test_g7_d_without_a_value_asks_for_name_equals_value():
    rc, _, err = replay(DATA / "g4_cache.json", "-D", "bx", "--budget", "2")
    one_error(rc, err, "looptx search: error: -D bx: expected NAME=VALUE", "-D bx=16")


@pytest.mark.parametrize("extra, option", [
    (["-I", str(DATA)], "-I"),
    (["--top", "3"], "--top"),
    (["--top", "10"], "--top"),
])
def test_g7_options_a_replay_would_ignore_are_refused(extra, option):
    rc, _, err = replay(DATA / "g4_cache.json", "--budget", "2", *extra)
    one_error(rc, err, f"looptx search: error: {option} does not apply to --replay")


def test_g7_dict_params_keyed_by_python_repr_are_not_damaged():
    rc, out, err = replay(DATA / "g7_dict_keys.json", "-a", "exhaustive")
    assert rc == 0 and "48 valid points" in out, out + err
    assert "damaged" not in err, err


@pytest.mark.parametrize("extra, needle", [
    (["--budget", "0"], "--budget must be at least 1"),
    (["--batch-size", "0"], "--batch-size must be at least 1"),
    (["--seed", "-1"], "--seed must be 0 or more"),
    (["-a", "genetic", "-O", "pop_size=1"], "--option pop_size=1"),
    (["-a", "nosuch"], "unknown searcher 'nosuch'"),
    (["--db", "x.db"], "--db and --resume do not apply to --replay"),
])
def test_g7_command_line_errors_are_not_blamed_on_the_cache(extra, needle):
    cache = DATA / "g4_cache.json"
    rc, _, err = replay(cache, *extra)
    one_error(rc, err, f"looptx search: error: {needle}")
    assert str(cache) not in err, err
