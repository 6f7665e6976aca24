"""A use after the region that a store after the region always precedes reads none of the
region's values: MachSuite viterbi's `m = b[0];` before the loop that reads m (`if (p < m) m =
p;`) was not seen as such, because the store is outside that loop, so `privatize m` was refused."""
from pathlib import Path

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "kill_after"


def test_a_store_before_the_loop_of_the_use_kills_the_regions_value():
    rc, out, err = run_cli("run", DATA / "viterbi_min.c", "--recipe", DATA / "privatize_m.yaml", "--repetitions", "1")
    assert rc == 0 and ": ok" in out, out + err


def test_without_the_store_the_use_reads_the_regions_value():
    rc, out, err = run_cli("transform", DATA / "no_kill.c", "--recipe", DATA / "privatize_m.yaml")
    assert rc == 2 and "'m' cannot be private: it is used at line 16, column 13, after the region" in err, err
