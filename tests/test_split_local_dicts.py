"""split_local_dicts: a dict made with constant keys and used only through them keeps its
items in locals. The promise it must keep is the first one (never a wrong answer): the items'
values go through the same operators in the same order, exceptions keep type and message, and
the dict handed out at the `return` has the same items in the same order."""

from __future__ import annotations

import math
import random
import types
from typing import Callable

import pytest

import symcompile as sc
from symcompile.runtime.oracle import assert_equivalent

SOURCE = '''
class Loud:
    """A value whose `+=` (not `+`) prints, and raises at a limit, as a user class may."""

    def __init__(self, n):
        self.n = n

    def __iadd__(self, other):
        print("iadd", self.n, other)
        if self.n >= 3:
            raise OverflowError(f"too loud at {self.n}")
        return Loud(self.n + other)

    def __add__(self, other):
        print("add", self.n, other)
        return Loud(self.n + other + 100)

    def __ge__(self, other):
        print("ge", self.n, other)
        return self.n >= other

    def __repr__(self):
        return f"Loud({self.n})"

    def __eq__(self, other):
        return type(other) is Loud and other.n == self.n

    __hash__ = None


def grades(scores, zero):
    counts = {"high": zero, "low": zero, 2: 0}
    for s in scores:
        if s >= 50:
            counts["high"] += 1
        else:
            counts["low"] = counts["low"] + 1
        counts[2] += 1
    return counts


def summary(values, start):
    stats = {"n": 0, "total": start}
    for v in values:
        stats["n"] += 1
        stats["total"] += v
    mean = stats["total"] / stats["n"]
    return mean, stats


def ratio_and_stats(values, start):
    stats = {"n": 0, "total": start}
    for v in values:
        stats["n"] += 1
        stats["total"] += v
    return stats["total"] / stats["n"], stats


def escapes(values, sink):
    seen = {"n": 0}
    for v in values:
        seen["n"] += v
    sink(seen)
    seen["n"] += 1
    return seen
'''


@pytest.fixture
def module(make_module: Callable[[str], types.ModuleType]) -> types.ModuleType:
    return make_module(SOURCE)


def _split(fn: Callable[..., object], *args: object) -> bool:
    """Whether the compiled code for `args` keeps the dict's items in locals."""
    text = sc.source(sc.symbolic(fn), *args)
    return "counts[" not in text and "stats[" not in text and "seen[" not in text


def test_never_a_wrong_answer_counts_in_locals_with_hostile_values(
        module: types.ModuleType) -> None:
    compiled = sc.symbolic(module.grades)
    assert _split(module.grades, [1, 60], 0)
    loud = module.Loud
    cases = [
        ([10, 60, 70, 20], 0),
        ([10.5, 60.0, math.nan], 0.0),
        ([], 0),
        ([60, 61, 62, 10], loud(0)),        # `+=` prints (its own method, not `+`)
        ([60, 61, 62, 63, 64], loud(0)),    # ... and raises OverflowError at the fourth
        ([loud(70), loud(10)], 0),          # the comparison prints
        ([60, "x"], 0),                     # TypeError: '>=' not supported ...
        (None, 0),                          # TypeError: 'NoneType' object is not iterable
    ]
    for scores, zero in cases:
        assert_equivalent(module.grades, compiled, (scores, zero))


def test_never_a_wrong_answer_the_returned_dict_is_new_and_in_order(
        module: types.ModuleType) -> None:
    compiled = sc.symbolic(module.summary)
    assert _split(module.summary, [1.0], 0.0)
    first = compiled([1.0, 2.5], 0.0)
    second = compiled([1.0, 2.5], 0.0)
    assert first == (1.75, {"n": 2, "total": 3.5})
    assert list(first[1]) == ["n", "total"]
    assert first[1] is not second[1]
    for values, start in (([1.0, 2.5], 0.0), ([], 0.0), ([1, 2], 0), ([1e308, 1e308], 0.0),
                          ([1, "a"], 0), ([[1], [2]], [])):
        assert_equivalent(module.summary, compiled, (values, start))


def test_never_a_wrong_answer_items_read_before_the_returned_dict(
        module: types.ModuleType) -> None:
    compiled = sc.symbolic(module.ratio_and_stats)
    assert _split(module.ratio_and_stats, [1.0], 0.0)
    loud = module.Loud
    for values, start in (([1.0, 2.5], 0.0), ([], 0.0), ([1, 2], loud(0)), ([1, 2, 3, 4], loud(0)),
                          ([2, 3], 1)):
        assert_equivalent(module.ratio_and_stats, compiled, (values, start))


def test_never_a_wrong_answer_a_dict_that_escapes_stays_a_dict(
        module: types.ModuleType) -> None:
    compiled = sc.symbolic(module.escapes)
    assert not _split(module.escapes, [1], print)

    def grow(d: dict[str, int]) -> None:
        d["n"] = 100
        d["extra"] = 1

    result = compiled([1, 2], grow)
    assert result == {"n": 101, "extra": 1}
    assert_equivalent(module.escapes, compiled, ([1, 2], grow))


def _random_program(rng: random.Random) -> str:
    """A function counting into a dict with constant keys, in random ways."""
    keys = ['"p"', '"q"', "3"]

    def key() -> str:
        return rng.choice(keys)

    shapes = [
        lambda: f"d[{key()}] += x",
        lambda: f"d[{key()}] = d[{key()}] * x",
        lambda: f"if x > d[{key()}]:\n            d[{key()}] -= 1",
        lambda: f"t = d[{key()}]\n        d[{key()}] = t",
        lambda: f"d[{key()}], d[{key()}] = d[{key()}], d[{key()}]",
        lambda: f"if d[{key()}] == x:\n            continue",
        lambda: f"if x == 7:\n            break",
    ]
    body = "\n        ".join(rng.choice(shapes)() for _ in range(rng.randint(1, 4)))
    returns = ["d", "t, d", f"d[{key()}]", f"d[{key()}] + d[{key()}]", "(d,)"]
    return (f"def f(xs, a, b):\n    t = None\n    d = {{\"p\": a, \"q\": b, 3: 1}}\n"
            f"    for x in xs:\n        {body}\n    return {rng.choice(returns)}\n")


INPUTS: tuple[tuple[object, ...], ...] = (
    ([1, 2, 7, 3], 0, 5), ([1.5, math.nan, -0.0], 0.5, -2.0), ([], 1, 2), ([2, 3], 1e308, 1e308),
    ([1, "s"], 0, 0), ([[1], [2]], [], [0]), ([1, 2], "a", "b"), (None, 0, 0),
)


@pytest.mark.parametrize("seed", range(40))
def test_never_a_wrong_answer_random_dict_counters(
        seed: int, make_module: Callable[[str], types.ModuleType]) -> None:
    source = _random_program(random.Random(seed))
    module = make_module(source)
    compiled = sc.symbolic(module.f)
    for args in INPUTS:
        assert_equivalent(module.f, compiled, args)
    loud = make_module(SOURCE).Loud
    assert_equivalent(module.f, compiled, ([1, 2, 3, 4], loud(0), loud(1)))
