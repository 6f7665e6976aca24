"""Parameter spaces: keys, validity, enumeration, sampling, encoding, neighbourhoods."""
import itertools
import json
from collections import Counter

import numpy as np
import pytest

from looptx.errors import AnnotationError, LooptxError
from looptx.search.space import (Param, Space, SpaceTooLarge, infer_kind, mapping_values,
                                 point_key)


def small_space():
    params = [Param("A", (1, 2, 4, 8), "int"), Param("B", ("x", "y"), "str"),
              Param("C", (True, False), "bool")]
    return Space(params, [lambda p: p["A"] * (2 if p["B"] == "y" else 1) <= 8], name="small")


def test_point_key_is_canonical():
    a = point_key({"b": (1, "i"), "a": 2})
    b = point_key({"a": 2, "b": [1, "i"]})
    assert a == b == '{"a":2,"b":[1,"i"]}'
    assert point_key({"x": np.int64(3)}) == point_key({"x": 3})
    assert point_key({"x": 1}) != point_key({"x": 1.0}) != point_key({"x": True})


def test_param_kinds_and_errors():
    assert infer_kind([1, 2]) == "int" and infer_kind([1, 2.5]) == "float"
    assert infer_kind([True, False]) == "bool" and infer_kind(["a", 1]) == "str"
    assert infer_kind([(1, 2), [2, 1]]) == "tuple"
    assert Param.of("M", [("i", "1", "j", "1")], slots=("BX", "BY", "TX", "TY")).kind == "mapping"
    assert Param("X", (1, 2), "int").ordinal and not Param("S", ("a",), "str").ordinal
    with pytest.raises(AnnotationError, match="unknown kind"):
        Param("X", (1,), "complex")
    with pytest.raises(AnnotationError, match="no values"):
        Param("X", (), "int")
    with pytest.raises(AnnotationError, match="repeats"):
        Param("X", (1, 1), "int")
    with pytest.raises(AnnotationError, match="slot"):
        Param("M", (("i", "j"),), "mapping")
    with pytest.raises(AnnotationError, match="slots"):
        Param("M", (("i",),), "mapping", ("BX", "TX"))
    with pytest.raises(AnnotationError, match="declared twice"):
        Space([Param("X", (1,), "int"), Param("X", (2,), "int")])


def test_enumerate_odometer_order_and_constraints():
    sp = small_space()
    pts = list(sp.enumerate())
    grid = [dict(zip(sp.names, c)) for c in itertools.product((1, 2, 4, 8), ("x", "y"), (True, False))]
    assert pts == [p for p in grid if p["A"] * (2 if p["B"] == "y" else 1) <= 8]
    assert pts[0] == {"A": 1, "B": "x", "C": True} and pts[1] == {"A": 1, "B": "x", "C": False}
    assert sp.valid_points() == pts and sp.size() == len(pts) == 14
    assert list(sp.enumerate()) == pts  # cached path gives the same order
    assert len(sp.valid_keys()) == 14 and sp.valid_coords().shape == (14, 3)


class _Named:
    """A constraint that says which params it reads, and counts its calls."""

    def __init__(self, names, fn):
        self.names = frozenset(names)
        self.fn = fn
        self.calls = 0

    def __call__(self, p):
        self.calls += 1
        return self.fn(p)


@pytest.mark.parametrize("seed", range(12))
def test_constraints_with_names_prune_prefixes_and_list_the_same_points(seed):
    """Named constraints are checked on partial points; the valid points, their order, coords
    and keys must be exactly those of checking every full combination."""
    rng = np.random.default_rng(seed)
    values = [(1, 2, 4, 8), ("x", "y z", 'q"'), (True, False), (0.5, 1.0, 2.0), ((1, "i"), (2, "j")),
              (3, 5, 7)]
    names = ["zeta", "B", "c", "A_2", "m", "e"]
    params = [Param.of(n, v) for n, v in zip(names, values)]

    def make(i):
        cols = sorted(rng.choice(len(names), size=int(rng.integers(1, 3)), replace=False))
        ks = [int(rng.integers(len(values[c]))) for c in cols]
        bad = int(rng.integers(3))

        def fn(p):
            if bad == 0 and p[names[cols[0]]] == values[cols[0]][ks[0]]:
                raise ZeroDivisionError          # a constraint that raises rules the point out
            return sum(values[c].index(p[names[c]]) for c in cols) % (2 + i % 2) != 0 or bad == 1
        return [names[c] for c in cols], fn

    made = [make(i) for i in range(int(rng.integers(1, 5)))]
    named = [_Named(ns, fn) for ns, fn in made]
    opaque = Space(params, [fn for _, fn in made])
    pruned = Space(params, named)
    assert pruned.valid_points() == opaque.valid_points()
    assert list(Space(params, [_Named(ns, fn) for ns, fn in made]).enumerate()) == opaque.valid_points()
    assert (pruned.valid_coords() == opaque.valid_coords()).all()
    assert pruned.valid_keys() == [point_key(p) for p in opaque.valid_points()]
    for p in opaque.valid_points()[:5]:
        assert pruned.is_valid(p)


def test_a_constraint_is_checked_once_per_value_of_the_params_it_reads():
    """Probe 182 O2: a listing checked `last` under every value of B it does not read (SPAPT's
    listings ran tens of seconds before a search started)."""
    first = _Named({"A"}, lambda p: p["A"] != 2)
    last = _Named({"C", "A"}, lambda p: p["C"] or p["A"] == 1)
    sp = Space([Param.of("A", (1, 2, 3)), Param.of("B", range(50)), Param.of("C", (True, False))],
               [first, last])
    assert sp.size() == 2 * 50 + 50
    assert first.calls == 3 and last.calls == 2 * 2


def test_remembered_checks_tell_true_from_1():
    seen = []
    is_true = _Named({"A"}, lambda p: seen.append(p["A"]) or p["A"] is True)
    sp = Space([Param.of("A", (1, True)), Param.of("B", ([1], [2]))], [is_true])
    assert [p["A"] for p in sp.valid_points()] == [True, True]
    assert seen == [1, True]


def test_is_valid():
    sp = small_space()
    assert sp.is_valid({"A": 4, "B": "y", "C": True})
    assert not sp.is_valid({"A": 8, "B": "y", "C": True})        # constraint
    assert not sp.is_valid({"A": 3, "B": "y", "C": True})        # not declared
    assert not sp.is_valid({"A": 4, "B": "y"})                   # missing
    assert not sp.is_valid({"A": 4, "B": "y", "C": True, "D": 1})
    boom = Space([Param("A", (0, 1), "int")], [lambda p: 1 / p["A"] > 0])
    assert [p["A"] for p in boom.enumerate()] == [1]           # a raising constraint = invalid
    assert not boom.is_valid({"A": 0})


def test_tuple_values_normalised_from_json():
    sp = Space([Param("order", (("i", "j"), ("j", "i")), "tuple")])
    p = json.loads(json.dumps({"order": ("j", "i")}))
    assert isinstance(p["order"], list)
    assert sp.is_valid(p) and sp.normalize(p) == {"order": ("j", "i")}
    assert sp.coords(p) == (1,) and sp.from_coords((1,)) == {"order": ("j", "i")}


def test_too_large_space():
    sp = Space([Param(f"P{i}", tuple(range(10)), "int") for i in range(7)])
    assert not sp.enumerable
    with pytest.raises(SpaceTooLarge) as e:
        sp.valid_points()
    assert isinstance(e.value, LooptxError) and "too many" in str(e.value)


def test_sample_uniform_without_replacement_and_exclude():
    sp = small_space()
    rng = np.random.default_rng(1)
    pts = sp.sample(rng, 14)
    assert len({point_key(p) for p in pts}) == 14
    assert sp.sample(rng, 100) and len(sp.sample(rng, 100)) == 14
    excl = set(sp.valid_keys()[:10])
    rest = sp.sample(rng, 10, exclude=excl)
    assert len(rest) == 4 and not excl & {point_key(p) for p in rest}
    assert sp.sample(rng, 3, exclude=set(sp.valid_keys())) == []
    counts = Counter(point_key(sp.sample(rng, 1)[0]) for _ in range(2800))
    assert len(counts) == 14 and max(counts.values()) < 2.0 * min(counts.values())
    assert sp.sample(np.random.default_rng(5), 4) == sp.sample(np.random.default_rng(5), 4)


def test_sample_huge_space_by_rejection():
    sp = Space([Param(f"P{i}", tuple(range(20)), "int") for i in range(8)],
               [lambda p: p["P0"] + p["P1"] < 10])
    pts = sp.sample(np.random.default_rng(0), 50)
    assert len(pts) == 50 and all(sp.is_valid(p) for p in pts)
    assert len({point_key(p) for p in pts}) == 50


def test_sample_rare_points_falls_back_to_enumeration():
    # 400k raw points (above the direct-sampling size), 3 valid: rejection alone would stall
    sp = Space([Param("A", tuple(range(400)), "int"), Param("B", tuple(range(1000)), "int")],
               [lambda p: p["A"] == 7 and p["B"] < 3])
    pts = sp.sample(np.random.default_rng(0), 5)
    assert sorted(p["B"] for p in pts) == [0, 1, 2]


def test_encode():
    m = Param("M", (("i", "j"), ("j", "i"), ("i", "1")), "mapping", ("BX", "TX"))
    sp = Space([Param("A", (16, 32, 48, 64), "int"), Param("S", ("a", "b"), "str"),
                Param("K", (7,), "int"), m])
    X = sp.encode([{"A": 16, "S": "b", "K": 7, "M": ("j", "i")},
                   {"A": 64, "S": "a", "K": 7, "M": ("i", "1")}])
    # A: 1 column; S: 2; K: none; M: 3 (value) + 2 (slot BX: i/j) + 3 (slot TX: j/i/1)
    assert X.shape == (2, 1 + 2 + 0 + 3 + 2 + 3)
    assert X[0, 0] == 0.0 and X[1, 0] == 1.0
    assert list(X[0, 1:3]) == [0, 1] and list(X[0, 3:6]) == [0, 1, 0]
    assert list(X[0, 6:8]) == [0, 1] and list(X[1, 8:11]) == [0, 0, 1]
    Xa = sp.encode([{"A": 16, "S": "a", "K": 7, "M": ("i", "j")},
                    {"A": 64, "S": "a", "K": 7, "M": ("i", "j")}], features=("align", "log2"))
    assert Xa.shape[1] == X.shape[1] + 2
    assert Xa[1, 1] == 6.0 and Xa[0, 2] < Xa[1, 2]   # log2, then alignment 16 < 64
    np.testing.assert_array_equal(sp.encode_coords(np.array([[0, 1, 0, 1]])), X[:1])


def test_neighbours():
    sp = small_space()
    nb = sp.neighbours({"A": 2, "B": "x", "C": True})
    assert {"A": 1, "B": "x", "C": True} in nb and {"A": 4, "B": "x", "C": True} in nb
    assert {"A": 8, "B": "x", "C": True} not in nb                  # 2 index steps
    assert {"A": 2, "B": "y", "C": True} in nb and {"A": 2, "B": "x", "C": False} in nb
    assert len(nb) == 4
    assert {"A": 8, "B": "x", "C": True} in sp.neighbours({"A": 2, "B": "x", "C": True}, 2)
    assert all(sp.is_valid(p) for p in sp.neighbours({"A": 4, "B": "y", "C": True}, 3))


def test_mapping_neighbours_swap_or_replace():
    vals = mapping_values(["i", "j", "k"], 1, 2)
    sp = Space([Param("M", vals, "mapping", ("BX", "TX", "TY"))])
    nb = {p["M"] for p in sp.neighbours({"M": ("i", "j", "k")})}
    assert ("j", "i", "k") in nb and ("k", "j", "i") in nb       # swaps
    assert ("1", "j", "k") in nb and ("i", "j", "1") in nb       # one loop replaced
    assert ("j", "k", "i") not in nb                            # a rotation is two moves
    assert all(sum(a != b for a, b in zip(v, ("i", "j", "k"))) <= 2 for v in nb)


def test_mapping_values():
    vals = mapping_values(["i", "j"], 1, 1)
    assert vals == (("i", "j"), ("j", "i"), ("1", "i"), ("1", "j"))
    for v in mapping_values(["i", "j", "k"], 2, 2):
        used = [x for x in v if x != "1"]
        assert len(used) == len(set(used)) and v[2] != "1"
    assert all(set(v) - {"1"} == {"i", "j", "k"}
               for v in mapping_values(["i", "j", "k"], 2, 2, cover=True))
    # 3 loops in 4 slots: the empty slot is not thread x (3 places), loops in any order (6)
    assert len(mapping_values(["i", "j", "k"], 2, 2, cover=True)) == 3 * 6


def test_a_large_grid_that_constraints_prune_is_listed():
    """30^5 raw points (above the listing limit), 900 valid: the pruned listing stays within
    the limit's work, so the space is listed rather than sampled blindly."""
    sp = Space([Param(f"U{i}", tuple(range(1, 31)), "int") for i in range(1, 6)],
               [_Named({"U3"}, lambda p: p["U3"] == 1), _Named({"U4", "U5"}, lambda p: p["U4"] == p["U5"] == 1)])
    assert sp.grid_size > 2_000_000 and sp.enumerable and sp.size() == 900


def test_sample_a_huge_sparse_space_by_independent_groups():
    """SPAPT's shape: pairs of params tied by constraints, far too many points to list and too
    few valid ones for rejection sampling.  Each group's valid rows are listed and combined,
    which is exactly uniform over the valid points."""
    params = [Param(f"U{i}", tuple(range(1, 31)), "int") for i in range(8)] + \
        [Param(f"T{i}", (1, 16, 32, 64), "int") for i in range(4)]
    cons = [_Named({f"U{2 * k}", f"U{2 * k + 1}"}, lambda p, k=k: p[f"U{2 * k}"] == 1 or p[f"U{2 * k + 1}"] == 1)
            for k in range(4)]
    cons += [_Named({"T0", "T1"}, lambda p: p["T1"] % p["T0"] == 0)]
    sp = Space(params, cons)
    assert not sp.enumerable
    rng = np.random.default_rng(3)
    pts = sp.sample(rng, 3000)
    assert len(pts) == 3000 and all(sp.is_valid(p) for p in pts)
    # uniform: of the 59 valid (U0, U1) pairs, 30 have U0 == 1 (a biased sampler that picks
    # U0 first and then a U1 that fits gives U0 == 1 only 1 time in 30)
    share = sum(p["U0"] == 1 for p in pts) / len(pts)
    assert abs(share - 30 / 59) < 0.04, share
    assert len(sp.sample(rng, 5, exclude={point_key(p) for p in pts})) == 5


def test_a_constraint_over_every_param_still_finds_valid_points():
    """SPAPT's tensor: a register budget ties all unroll factors, so no group can be listed,
    and its valid points are too rare for rejection sampling; the space was called empty.  A
    pruned search with random value orders finds distinct valid points."""
    params = [Param(f"T{i}", (1, 16, 32, 64, 128), "int") for i in range(4)] + \
        [Param(u, tuple(range(1, 31)), "int") for u in "IJKLM"]
    cons = [_Named({"T0", "T1"}, lambda p: p["T1"] % p["T0"] == 0),
            _Named(set("IJKLM"), lambda p: p["I"] * p["J"] * p["K"] * p["L"] + p["I"] * p["M"] * p["K"] * p["L"]
                   + p["J"] * p["M"] <= 130)]
    sp = Space(params, cons)
    assert not sp.enumerable
    pts = sp.sample(np.random.default_rng(5), 8)
    assert len(pts) == 8 and len({point_key(p) for p in pts}) == 8 and all(sp.is_valid(p) for p in pts)
    assert len({p["I"] for p in pts}) > 1                  # not one corner of the space


def test_search_of_a_sparse_space_with_and_constraints(tmp_path):
    """A constraint `U3 == 1 and U4 == 1 and U5 == 1` over 30^5 points: each conjunct prunes on
    its own, so the 900 valid points are found (once 'the search space is empty')."""
    from conftest import run_cli as cli
    src = tmp_path / "sparse.c"
    src.write_text("""/*@ begin PerfTuning (
  def build { arg build_command = 'gcc -O1'; }
  def performance_counter { arg repetitions = 1; }
  def performance_params {
    param U1[] = range(1,31); param U2[] = range(1,31); param U3[] = range(1,31);
    param U4[] = range(1,31); param U5[] = range(1,31);
    constraint only_two = U3 == 1 and U4 == 1 and U5 == 1;
  }
  def input_params { param N[] = [24]; }
  def input_vars { decl static double A[N][N] = random; decl static double x[N] = random;
                   decl static double y[N] = 0; }
  def search { arg algorithm = 'Randomsearch'; arg total_runs = 3; }
) @*/
int i, j;
/*@ begin CHiLL ( unroll(0,"i",U1) unroll(0,"j",U2) ) @*/
for (i = 0; i < N; i++)
  for (j = 0; j < N; j++)
    y[i] = y[i] + A[i][j] * x[j];
/*@ end @*/
/*@ end @*/
""")
    rc, out, err = cli("search", src, "--no-progress", "--db", tmp_path / "s.db")
    assert rc == 0 and "900 valid points" in out and "status: ok 3" in out, out + err
