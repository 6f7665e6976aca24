"""Probe 47's small bugs: a location found in an HLS pragma (G), the hint for a pointer that
walks along an array (H), and neighbour lists that name the atom itself (K)."""
from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data" / "probe47_misc"

gcc = pytest.mark.skipif(shutil.which("gcc") is None,
                         reason="needs gcc on PATH: run compiles the harness (CI has it)")

OOB = ("error: at these sizes the region reaches element 16 of array 'a', outside its 15 elements "
       "(a[R][C]) (give sizes that agree with the array's extents (--define NAME=VALUE); where no sizes do, "
       "a loop bound of this statement passes the array's end)")


# ------------------------------------------------------------------ G

@pytest.mark.parametrize("name", ["oob_pragma.c", "oob_pragma_op.c"])
def test_an_out_of_extent_read_is_located_at_the_read_not_in_a_pragma(name):
    # `#pragma HLS ARRAY_PARTITION variable=a` (or _Pragma("... variable=a")) names 'a' first
    rc, out, err = run_cli("run", DATA / name, "--function", "f", "-D", "R=5", "--repetitions", "1")
    assert rc == 2 and err == f"{DATA / name}:9:17: {OOB}\n", err
    assert "Traceback" not in err


# ------------------------------------------------------------------ H

def test_a_pointer_iterator_is_refused_with_an_integer_index_as_the_way_out():
    rc, out, err = run_cli("deps", DATA / "iquantize.c", "--function", "IQuantize")
    assert rc == 2 and err == (
        f"{DATA / 'iquantize.c'}:8:8: error: the region moves pointer 'mptr' along array 'matrix' "
        "(mptr = matrix, then mptr++), which the model cannot follow (count the steps with an integer k "
        "and index the array instead: matrix[k] for *mptr after k steps mptr++ (and so for each pointer "
        "stepped with it))\n"), err


def test_a_pointer_stepped_by_a_row_from_an_offset_gets_the_strided_index():
    rc, out, err = run_cli("deps", DATA / "chenidct.c", "--function", "ChenIDct")
    assert rc == 2 and err == (
        f"{DATA / 'chenidct.c'}:9:7: error: the region moves pointer 'aptr' along array 'x' "
        "(aptr = x + i, then aptr += 8), which the model cannot follow (count the steps with an integer k "
        "and index the array instead: x[i + 8*k] for *aptr after k steps aptr += 8 (and so for each "
        "pointer stepped with it))\n"), err
    assert "time loop" not in err


# ------------------------------------------------------------------ K

@gcc
@pytest.mark.parametrize("sizes", [("nAtoms=20", "maxNeighbors=6"), ("nAtoms=33", "maxNeighbors=7")])
def test_machsuite_md_knn_validates_with_neighbours_other_than_the_atom(sizes):
    # NL[i*maxNeighbors + j] beside position_x[i]: random rows that hold i make 1/0
    rc, out, err = run_cli("run", DATA / "md_knn.c", "--function", "md_kernel", "--recipe",
                           DATA / "md_knn.yaml", *[a for s in sizes for a in ("-D", s)],
                           "--repetitions", "1", "--cflags", "-O2 -fopenmp")
    assert rc == 0 and "md_knn.c: ok" in out, out + err


@gcc
@pytest.mark.parametrize("sizes", [("nAtom=20", "maxNeighbors=5"), ("nAtom=37", "maxNeighbors=9")])
def test_shoc_md_column_neighbour_list_validates(sizes):
    # neighList[j*nAtom + i]: the atom is the column, not the row
    rc, out, err = run_cli("run", DATA / "shoc_md.c", "--recipe", DATA / "shoc_md.yaml",
                           *[a for s in sizes for a in ("-D", s)], "--repetitions", "1",
                           "--cflags", "-O2 -fopenmp")
    assert rc == 0 and "shoc_md.c: ok" in out, out + err


def test_only_the_own_element_changes_and_only_in_the_third_data_set():
    from looptx.runtime.evaluators import CEvaluator
    from looptx.runtime.reference import dataset_inputs
    ev = CEvaluator(str(DATA / "md_knn.c"), sizes={"nAtoms": 20, "maxNeighbors": 6}, function="md_kernel")
    sig = ev.signature()
    (nl,) = [a for a in sig.data_args if a.name == "NL"]
    assert nl.own == ((0, 2, 0),)
    first, third = (dataset_inputs(sig, 0, d)["NL"] for d in (0, 2))
    rows, new = first.reshape(20, 6), third.reshape(20, 6)
    own = rows == np.arange(20)[:, None]
    assert own.any() and not (new == np.arange(20)[:, None]).any()
    assert (new[~own] == rows[~own]).all()
    assert third.min() >= 0 and third.max() < 20
