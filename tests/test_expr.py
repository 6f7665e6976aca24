"""The safe expression evaluator: Python 3 semantics on a whitelist, guards, located errors."""
from __future__ import annotations

import operator
import pickle
import time

import pytest
from hypothesis import given, settings, strategies as st

from looptx.errors import AnnotationError
from looptx.frontend import expr as expr_mod
from looptx.frontend.expr import Expr, compile_expr, evaluate, mapping_slots, mapping_values

ENV = {"a": 3, "b": 2, "x": [1, 2, 3], "s": "ij", "TI": 16, "TJ": 8}


@pytest.mark.parametrize("text, expected", [
    ("42", 42), ("2.5", 2.5), ("'ab'", "ab"), ("True", True), ("None", None),
    ("[1, 2, 4]", [1, 2, 4]), ("(1, 'i')", (1, "i")), ("{'k': 1}", {"k": 1}), ("{3, 3}", {3}),
    ("7 / 2", 3.5), ("7 // 2", 3), ("-7 // 2", -4), ("7 % 3", 1), ("2 ** 10", 1024),
    ("2 ** -1", 0.5), ("-a", -3), ("not a", False), ("~0", -1), ("1 << 4", 16),
    ("a and b", 2), ("0 or b", 2), ("a > 1 and b > 1", True),
    ("32 <= TI * TJ <= 1024", True), ("1 < a < 2", False), ("'i' in s", True),
    ("'k' not in s", True), ("None is None", True),
    ("'x' if a > 2 else 'y'", "x"), ("x[-1]", 3), ("x[1:]", [2, 3]), ("x[::-1]", [3, 2, 1]),
    ("s[0]", "i"), ("[i * 2 for i in x if i != 2]", [2, 6]),
    ("{i % 2 for i in range(5)}", {0, 1}), ("{i: i * i for i in range(3)}", {0: 0, 1: 1, 2: 4}),
    ("[(i, j) for i in range(3) for j in range(i)]", [(1, 0), (2, 0), (2, 1)]),
    ("sum(i for i in range(5))", 10), ("any(i > 2 for i in x)", True),
    ("all(i > 2 for i in x)", False), ("list(range(1, 10, 3))", [1, 4, 7]),
    ("len(x)", 3), ("min(x)", 1), ("max(3, 9, 4)", 9), ("abs(-2)", 2),
    ("sorted([3, 1, 2], reverse=True)", [3, 2, 1]), ("sorted(['bb', 'a'], key=len)", ["a", "bb"]),
    ("reversed([1, 2])", [2, 1]), ("list('ab')", ["a", "b"]), ("tuple(x)", (1, 2, 3)),
    ("set([1, 1])", {1}), ("dict(k=1)", {"k": 1}), ("int('12')", 12), ("int(2.7)", 2),
    ("float(1)", 1.0), ("str(12)", "12"), ("bool(0)", False), ("round(2.567, 2)", 2.57),
    ("zip([1, 2], 'ab')", [(1, "a"), (2, "b")]), ("enumerate('ab', 1)", [(1, "a"), (2, "b")]),
    ("pow(2, 5)", 32), ("pow(3, 4, 5)", 1),
    ("permutations(['i', 'j'])", [("i", "j"), ("j", "i")]),
    ("list(permutations('ijk', 2))[:2]", [("i", "j"), ("i", "k")]),
    ("combinations([1, 2, 3], 2)", [(1, 2), (1, 3), (2, 3)]),
    ("product([1, 2], 'ab')", [(1, "a"), (1, "b"), (2, "a"), (2, "b")]),
    ("product([0, 1], repeat=2)", [(0, 0), (0, 1), (1, 0), (1, 1)]),
    ("[*range(3), 9]", [0, 1, 2, 9]), ("{**{'a': 1}, 'b': 2}", {"a": 1, "b": 2}),
    ("max(*x)", 3), ("sum([[1], [2]], [])", [1, 2]), ("'-O%d' % a", "-O3"),
    ("f'plain'", "plain"), ("[2 ** i for i in range(4)]", [1, 2, 4, 8]),
    ("[1,\n 2]", [1, 2]), ("a +\n b", 5), ("  a  # trailing comment", 3),
    # Orio's Python 2 idioms: range() is a list, map() a list, join() string.join
    ("[1] + range(2, 5)", [1, 2, 3, 4]), ("range(1, 3) + [16] + range(32, 33)", [1, 2, 16, 32]),
    ("map(join, product(['', '-funroll-loops'], ['-O1', '-O2']))",
     [" -O1", " -O2", "-funroll-loops -O1", "-funroll-loops -O2"]),
    ("map(abs, [-1, 2])", [1, 2]), ("join(['a', 'b'], '-')", "a-b"), ("map(max, [1, 5], [4, 2])", [4, 5]),
])
def test_allowed(text, expected):
    assert evaluate(text, ENV) == expected


def test_generator_argument_is_lazy_like_python():
    # any() stops at the first true value, so 1 // 0 is never evaluated
    assert evaluate("any(1 // v for v in [1, 0])") is True


def test_comprehension_variables_do_not_leak_and_shadow():
    assert evaluate("[a for a in range(2)] + [a]", {"a": 7}) == [0, 1, 7]


@pytest.mark.parametrize("text, names", [
    ("TI * TJ <= 256", {"TI", "TJ"}),
    ("[i * N for i in range(M)]", {"N", "M"}),
    ("len(permutations(L))", {"L"}),
    ("[x for x in xs if x in allowed]", {"xs", "allowed"}),
    ("sum(v for v, w in pairs)", {"pairs"}),
    ("3", set()),
])
def test_names(text, names):
    assert compile_expr(text).names == frozenset(names)


@pytest.mark.parametrize("text, word", [
    ("__import__('os')", "__import__"),
    ("open('x')", "open"),
    ("eval('1')", "eval"),
    ("exec('1')", "exec"),
    ("getattr(x, 'y')", "getattr"),
    ("x.__class__", "attribute"),
    ("().__class__.__bases__[0].__subclasses__()", "attribute"),
    ("os.system('ls')", "attribute"),
    ("'a'.join(x)", "attribute"),
    ("lambda: 1", "lambda"),
    ("(y := 1)", ":="),
    ("f'{a}'", "f-string"),
    ("_hidden", "reserved"),
    ("[__x for __x in x]", "reserved"),
    ("b'bytes'", "literal"),
    ("1j", "literal"),
    ("...", "literal"),
    ("x[0]()", "call"),
    ("(lambda: 1)()", "call"),
    ("sorted(x, key=lambda v: v)", "lambda"),
    ("dict(**{'a': 1})", "**"),
    ("[a @ b]", "@"),
    ("[i for i.attr in x]", "comprehension variable"),
    ("", "expected a value"),
    ("1 +", "syntax"),
    ("[1, 2", "never closed"),
])
def test_rejected(text, word):
    with pytest.raises(AnnotationError) as info:
        compile_expr(text, file="f.c", line=3, col=5)(ENV)
    msg = str(info.value)
    assert msg.startswith("f.c:3:"), msg
    assert "\n" not in msg
    assert word in msg


@pytest.mark.parametrize("text, word", [
    ("range(10 ** 9)", "range()"),
    ("list(range(10 ** 30))", "range()"),
    ("2 ** 10 ** 9", "'**'"),
    ("pow(7, 10 ** 8)", "'**'"),
    ("(10 ** 10000) * (10 ** 10000)", "'*'"),
    ("1 << 10 ** 7", "'<<'"),
    ("'a' * 10 ** 9", "repetition"),
    ("10 ** 9 * [0]", "repetition"),
    # probe 176 G1: each list small, the whole 10**10 cells
    ("[[1] * 10 ** 5] * 10 ** 5", "repetition"),
    ("[[1] * 10 ** 6 for i in range(10 ** 4)]", "comprehension"),
    ("product(range(100), repeat=5)", "product()"),
    ("map(abs, range(10 ** 8))", "range()"),
    ("map(3, [1])", "needs a function"),
    ("join([1, 2])", "takes strings"),
    ("(1,) + range(2)", "concatenate"),
    ("permutations(range(12))", "permutations()"),
    ("combinations(range(60), 30)", "combinations()"),
    ("sum(([0] * 10 ** 6 for i in range(20)), [])", "sum()"),
    ("int('9' * 5000)", "4300"),
    ("'%0999999d' % 1", "formatting"),
    ("round(1.5, 10 ** 9)", "round()"),
    ("(-8) ** 0.5", "complex"),
])
def test_resource_guards(text, word):
    t0 = time.perf_counter()
    with pytest.raises(AnnotationError) as info:
        evaluate(text, file="f.c", line=1, col=1)
    assert word in str(info.value)
    assert time.perf_counter() - t0 < 2.0


def test_step_budget(monkeypatch):
    monkeypatch.setattr(expr_mod, "MAX_STEPS", 20_000)
    with pytest.raises(AnnotationError, match="steps"):
        evaluate("[i for i in range(1000) for j in range(1000)]")
    assert len(evaluate("[i for i in range(1000)]")) == 1000


def test_step_budget_default_bounds_time():
    t0 = time.perf_counter()
    with pytest.raises(AnnotationError, match="steps"):
        evaluate("[0 for i in range(10 ** 7) for j in range(10 ** 7)]")
    assert time.perf_counter() - t0 < 30


@pytest.mark.parametrize("text, env, where, word", [
    ("TI / TJ", {"TI": 1, "TJ": 0}, (7, 24), "division by zero"),
    ("[1, 2][TJ]", {"TJ": 5}, (7, 24), "out of range"),
    ("TI + 'a'", {"TI": 1}, (7, 24), "unsupported operand"),
    ("TI * 2", {}, (7, 24), "unknown name 'TI'"),
    ("1 + TK", {}, (7, 28), "unknown name 'TK'"),
    ("{'a': 1}['b']", {}, (7, 24), "'b'"),
    ("[1,\n  2 // 0]", {}, (8, 3), "division by zero"),
    ("[1, 2] +\n      TK", {}, (8, 7), "TK"),
])
def test_evaluation_errors_are_located(text, env, where, word):
    e = compile_expr(text, file="m.c", line=7, col=24)
    with pytest.raises(AnnotationError) as info:
        e(env)
    err = info.value
    assert (err.file, err.line, err.col) == ("m.c",) + where
    assert word in str(err)
    assert str(err).startswith(f"m.c:{where[0]}:{where[1]}: error: ")


def test_unknown_name_hint():
    with pytest.raises(AnnotationError) as info:
        evaluate("TJ * 2", file="m.c", line=1, col=1)
    assert str(info.value) == ("m.c:1:1: error: unknown name 'TJ' "
                               "(define it with param or let)")


@pytest.mark.parametrize("text, line, col, where", [
    ("x.y", 1, 1, (1, 3)),                # the attribute name
    ("   x.y", 4, 10, (4, 15)),           # leading blanks skipped
    ("\n\n  1 + open(3)", 2, 9, (4, 7)),  # leading newlines skipped
    ("'é' + x.y", 1, 1, (1, 9)),          # columns count characters, not utf-8 bytes
    ("[1, 2,, 4]", 5, 18, (5, 24)),
    ("1 +", 2, 5, (2, 8)),                # end of the text
    ("[1,\n 2,\n x.y]", 1, 1, (3, 4)),
])
def test_compile_errors_are_located(text, line, col, where):
    with pytest.raises(AnnotationError) as info:
        compile_expr(text, file="a.c", line=line, col=col)
    assert (info.value.line, info.value.col) == where


def test_location_of_name():
    e = compile_expr("TI * TJ * TK <= 256", file="m.c", line=7, col=21)
    assert e.location_of("TK") == (7, 31)
    assert e.location_of("TI") == (7, 21)


def test_expr_is_immutable_picklable_and_compares_by_text():
    e = compile_expr("TI * TJ <= 256", file="m.c", line=3, col=4)
    with pytest.raises(AttributeError):
        e.text = "1"
    e2 = pickle.loads(pickle.dumps(e))
    assert e2 == e and hash(e2) == hash(e)
    assert (e2.file, e2.line, e2.col) == ("m.c", 3, 4)
    assert e2({"TI": 8, "TJ": 8}) is True
    assert compile_expr("TI * TJ <= 256") == e
    assert isinstance(e, Expr)


def test_functions_cannot_be_smuggled_through_env():
    with pytest.raises(AnnotationError, match="allowed functions"):
        evaluate("sorted(x, key=f)", {"x": [2, 1], "f": print})


def test_env_is_not_mutated():
    env = {"x": [1, 2]}
    evaluate("[v for v in x]", env)
    assert env == {"x": [1, 2]}


# ---------------------------------------------------------------- property: integer arithmetic

_OPS = [("+", operator.add), ("-", operator.sub), ("*", operator.mul), ("//", operator.floordiv),
        ("%", operator.mod), ("<", operator.lt), ("==", operator.eq)]


@st.composite
def int_exprs(draw, depth=3):
    if depth == 0 or draw(st.booleans()):
        if draw(st.booleans()):
            name = draw(st.sampled_from(["a", "b", "c"]))
            return name, {"a": 7, "b": -3, "c": 12}[name]
        v = draw(st.integers(-20, 20))
        return f"({v})", v
    sym, fn = draw(st.sampled_from(_OPS))
    lt, lv = draw(int_exprs(depth - 1))
    rt, rv = draw(int_exprs(depth - 1))
    if sym in ("//", "%") and rv == 0:
        return f"({lt} + {rt})", lv + rv
    return f"({lt} {sym} {rt})", fn(lv, rv)


@settings(max_examples=150, deadline=None)
@given(int_exprs())
def test_integer_semantics_match_python(case):
    text, value = case
    assert evaluate(text, {"a": 7, "b": -3, "c": 12}) == value


# ---------------------------------------------------------------- loop mappings

def _brute_force(loops, block, thread, cover):
    import itertools
    nslots = block + thread
    out = []
    for combo in itertools.product(list(loops) + ["1"], repeat=nslots):
        used = [c for c in combo if c != "1"]
        if len(used) != len(set(used)) or combo[block] == "1":
            continue
        if cover and set(used) != set(loops):
            continue
        out.append(combo)
    return sorted(out)


@pytest.mark.parametrize("loops, block, thread, cover", [
    (["i", "j", "k"], 2, 2, False), (["i", "j", "k"], 2, 2, True), (["i", "j"], 2, 2, True),
    (["i"], 1, 1, False), (["a", "b", "c", "d"], 3, 3, False), (["i", "j", "k"], 0, 2, True),
])
def test_mapping_values_match_brute_force(loops, block, thread, cover):
    got = mapping_values(loops, block, thread, cover)
    assert sorted(got) == _brute_force(loops, block, thread, cover)
    assert len(set(got)) == len(got)
    assert all(len(v) == block + thread for v in got)


def test_mapping_call_and_slots():
    v = evaluate("mapping(loops=['i', 'j'], block=2, thread=2, cover=True)")
    assert v.slots == ("BX", "BY", "TX", "TY") and v.loops == ("i", "j")
    assert len(v) == 6 and v[0] == ("i", "1", "j", "1")
    assert evaluate("mapping(['i', 'j', 'k'], block=2, thread=2, cover=False)") == \
        mapping_values(["i", "j", "k"], 2, 2, False)
    assert mapping_slots(3, 1) == ("BX", "BY", "BZ", "TX")
    assert pickle.loads(pickle.dumps(v)).slots == v.slots


@pytest.mark.parametrize("text, word", [
    ("mapping(loops='ij')", "list"),
    ("mapping(loops=['i', 'i'])", "distinct"),
    ("mapping(loops=['i'], block=4)", "block"),
    ("mapping(loops=['i'], thread=0)", "thread"),
    ("mapping(loops=['i'], cover=1)", "cover"),
    ("mapping(block=2)", "loops"),
    ("mapping(loops=['i'], blocks=2)", "blocks"),
    ("mapping(loops=['1'])", "loop names"),
])
def test_mapping_errors(text, word):
    with pytest.raises(AnnotationError) as info:
        evaluate(text, file="f.c", line=1, col=1)
    assert word in str(info.value)
