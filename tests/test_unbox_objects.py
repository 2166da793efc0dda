"""unbox_objects: a loop adding and scaling objects of a value class keeps their fields in
locals (passes/unbox_objects.py), behind tests on entry and per element; each condition
checked against the original with the oracle."""

from __future__ import annotations

import random
import types
from typing import Callable

import pytest

import symcompile as sc
from symcompile.runtime.oracle import assert_equivalent

Make = Callable[[str], types.ModuleType]

VEC2 = """
    class Vec2:
        def __init__(self, x, y):
            self.x = x
            self.y = y

        def __add__(self, other):
            return Vec2(self.x + other.x, self.y + other.y)

        def __sub__(self, other):
            return Vec2(self.x - other.x, self.y - other.y)

        def __mul__(self, k):
            return Vec2(self.x * k, self.y * k)


    def centroid(points, weights):
        acc = Vec2(0.0, 0.0)
        total = 0.0
        for p, w in zip(points, weights):
            acc = acc + p * w
            total += w
        return acc.x / total, acc.y / total


    def spread(points, origin):
        acc = Vec2(0.0, 0.0)
        for p in points:
            d = p - origin
            acc = acc + d * d.x - d * 0.5
        return acc.x, acc.y
"""


def _points(module: types.ModuleType, n: int, seed: int = 1) -> list[object]:
    rng = random.Random(seed)
    return [module.Vec2(rng.uniform(-1, 1), rng.uniform(-1, 1)) for _ in range(n)]


def _weights(n: int) -> list[float]:
    rng = random.Random(2)
    return [rng.uniform(0.1, 1.0) for _ in range(n)]


def test_never_slower_value_class_sums_keep_fields_in_locals(make_module: Make) -> None:
    module = make_module(VEC2)
    compiled = sc.symbolic(module.centroid)
    args = (_points(module, 50), _weights(50))
    assert compiled(*args) == module.centroid(*args)
    source = sc.source(compiled, *args)
    assert "acc_x, acc_y = acc_x + p_x * w, acc_y + p_y * w" in source
    assert "unbox" in str(sc.explain(compiled, *args))
    assert_equivalent(module.centroid, compiled, args)
    spread = sc.symbolic(module.spread)
    origin = module.Vec2(0.25, -0.5)
    assert_equivalent(module.spread, spread, (_points(module, 40), origin))
    assert "d_x" in sc.source(spread, _points(module, 40), origin)


def test_never_a_wrong_answer_elements_failing_the_test_run_as_written(make_module: Make) -> None:
    module = make_module(VEC2 + """
    class Sub(Vec2):
        def __mul__(self, k):
            return Vec2(-1.0, -1.0)


    class Num(float):
        def __rmul__(self, other):
            return Vec2(100.0, 100.0)
    """)
    compiled = sc.symbolic(module.centroid)
    compiled(_points(module, 5), _weights(5))
    for odd_one in (module.Vec2(1, 2), module.Sub(1.0, 2.0), module.Vec2(1.0, 2 ** 70)):
        points = _points(module, 9)
        points[4] = odd_one
        assert_equivalent(module.centroid, compiled, (points, _weights(9)))
    for weight in (2, module.Num(0.5), True):
        weights = _weights(9)
        weights[6] = weight
        assert_equivalent(module.centroid, compiled, (_points(module, 9), weights))
    assert_equivalent(module.centroid, compiled, ([module.Vec2(1.0, 1.0)] * 3, [1.0, 2, 3.0]))


def test_never_a_wrong_answer_not_lists_run_as_written(make_module: Make) -> None:
    module = make_module(VEC2)
    compiled = sc.symbolic(module.centroid)
    points = _points(module, 6)
    compiled(points, _weights(6))
    assert_equivalent(module.centroid, compiled, (tuple(points), _weights(6)))
    assert compiled(iter(points), iter(_weights(6))) == module.centroid(iter(points),
                                                                        iter(_weights(6)))
    assert_equivalent(module.centroid, compiled, ([], []))  # ZeroDivisionError, as written


def _swapping_init(self: object, x: object, y: object) -> None:
    object.__setattr__(self, "x", y)
    object.__setattr__(self, "y", x)


CHANGES: dict[str, Callable[[type], None]] = {
    "__add__": lambda cls: setattr(cls, "__add__", lambda self, other: cls(7.0, 7.0)),
    "__mul__": lambda cls: setattr(cls, "__mul__", lambda self, k: cls(self.x, self.y)),
    "property": lambda cls: setattr(cls, "x", property(lambda self: 3.0, lambda self, v: None)),
    "__getattribute__": lambda cls: setattr(cls, "__getattribute__", lambda self, name: 2.0),
    "__setattr__": lambda cls: setattr(cls, "__setattr__", lambda self, name, v: (
        object.__setattr__(self, name, v * 2))),
    "__init__": lambda cls: setattr(cls, "__init__", _swapping_init),
    "__getattr__": lambda cls: (setattr(cls, "__getattr__", lambda self, name: 4.0),
                                delattr(cls, "__add__")),
}


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_never_a_wrong_answer_class_changed_after_compiling(make_module: Make, change: str,
                                                            ) -> None:
    module = make_module(VEC2)
    compiled = sc.symbolic(module.centroid)
    compiled(_points(module, 4), _weights(4))
    CHANGES[change](module.Vec2)
    args = (_points(module, 7), _weights(7))
    try:
        expected: object = module.centroid(*args)
    except TypeError as error:
        expected = str(error)
    try:
        got: object = compiled(*args)
    except TypeError as error:
        got = str(error)
    assert got == expected


def test_never_a_wrong_answer_finalizer_added_after_compiling(make_module: Make) -> None:
    module = make_module(VEC2)
    compiled = sc.symbolic(module.centroid)
    compiled(_points(module, 4), _weights(4))
    freed: list[int] = []
    module.Vec2.__del__ = lambda self: freed.append(1)
    args = (_points(module, 7), _weights(7))
    expected = module.centroid(*args)
    by_original = len(freed)
    freed.clear()
    assert compiled(*args) == expected
    assert len(freed) == by_original > 0  # the objects were made, and freed


def test_never_a_wrong_answer_class_name_rebound_after_compiling(make_module: Make) -> None:
    module = make_module(VEC2 + """
    class Other(Vec2):
        pass
    """)
    compiled = sc.symbolic(module.centroid)
    compiled(_points(module, 4), _weights(4))
    module.Vec2 = module.Other  # the methods now make Other objects (and `acc` starts as one)
    points = [module.Other(0.5, 1.5), *_points(module, 5)]
    assert compiled(points, _weights(6)) == module.centroid(points, _weights(6))


SNEAKY = VEC2 + """
    class Sneaky:
        def __mul__(self, k):
            Vec2.__add__ = lambda self, other: Vec2(-5.0, -5.0)
            return 1.0
"""


def test_never_a_wrong_answer_field_whose_operator_changes_the_class(make_module: Make) -> None:
    results = []
    for compile_it in (False, True):
        module = make_module(SNEAKY)
        function = sc.symbolic(module.centroid) if compile_it else module.centroid
        function(_points(module, 4), _weights(4))
        module.Vec2.__add__ = make_module(VEC2).Vec2.__add__  # (the same code, other globals)
        module = make_module(SNEAKY)
        function = sc.symbolic(module.centroid) if compile_it else module.centroid
        function(_points(module, 4), _weights(4))
        points = _points(module, 8)
        points[3] = module.Vec2(module.Sneaky(), 1.0)
        results.append(function(points, _weights(8)))
    assert results[0] == results[1]


def test_never_a_wrong_answer_missing_field_raises_the_same_error(make_module: Make) -> None:
    module = make_module(VEC2)
    compiled = sc.symbolic(module.centroid)
    compiled(_points(module, 4), _weights(4))
    points = _points(module, 6)
    del points[2].y
    assert_equivalent(module.centroid, compiled, (points, _weights(6)))
    with pytest.raises(AttributeError, match="'Vec2' object has no attribute 'y'"):
        compiled(points, _weights(6))


def test_never_a_wrong_answer_objects_keep_their_identity(make_module: Make) -> None:
    module = make_module(VEC2 + """
    def shift(acc, points):
        for p in points:
            acc = acc + p
        return acc


    def last(points):
        found = Vec2(0.0, 0.0)
        for p in points:
            found = p
        return found


    def offset_all(points, offset):
        acc = Vec2(0.0, 0.0)
        for p in points:
            acc = acc + offset
        return acc, offset
    """)
    start = module.Vec2(1.0, 2.0)
    shift = sc.symbolic(module.shift)
    shift(start, _points(module, 3))
    assert shift(start, []) is start
    moved = shift(start, _points(module, 3))
    assert (moved.x, moved.y) == ((m := module.shift(start, _points(module, 3))).x, m.y)
    points = _points(module, 3)
    assert sc.symbolic(module.last)(points) is points[-1]
    offset = module.Vec2(0.5, 0.5)
    acc, same = sc.symbolic(module.offset_all)(points, offset)
    assert same is offset and (acc.x, acc.y) == (1.5, 1.5)


_STATEMENTS = (
    "acc = acc + p * w", "acc = acc - p", "acc = p * w + acc", "t = p - acc",
    "acc = acc + t * 0.5", "total += w * p.x", "total = total - p.y", "acc = Vec2(acc.y, -acc.x)",
    "acc = Vec2(acc.x * 2, acc.y + 1) + p", "total += acc.x * w",
)


def _random_function(rng: random.Random, number: int) -> str:
    body = ["t = p - acc"] if rng.random() < 0.3 else []
    body += rng.sample(_STATEMENTS, rng.randint(1, 4))
    if any("t *" in line for line in body) and "t = p - acc" not in body:
        body.insert(0, "t = p - acc")
    lines = "\n".join(f"            {line}" for line in body)
    return f"""
    def kernel_{number}(points, weights):
        acc = Vec2(0.5, -0.25)
        total = 0.0
        for p, w in zip(points, weights):
{lines}
        return acc.x, acc.y, total
"""


def test_never_a_wrong_answer_random_value_class_loops(make_module: Make) -> None:
    rng = random.Random(11)
    sources = "".join(_random_function(rng, number) for number in range(24))
    module = make_module(VEC2 + sources + """
    class Sub(Vec2):
        def __add__(self, other):
            return Vec2(0.0, 0.0)
    """)
    values = [1.5, -0.0, float("inf"), float("nan"), 3, 2 ** 80, 1e308]
    unboxed = 0
    for number in range(24):
        original = getattr(module, f"kernel_{number}")
        compiled = sc.symbolic(original)
        for trial in range(4):
            n = rng.randint(0, 6)
            points = [module.Vec2(rng.uniform(-2, 2), rng.uniform(-2, 2)) for _ in range(n)]
            weights = [rng.uniform(-1, 1) for _ in range(n)]
            if n and trial >= 2:
                points[rng.randrange(n)] = rng.choice([
                    module.Vec2(rng.choice(values), 1.0), module.Sub(1.0, 2.0)])
                weights[rng.randrange(n)] = rng.choice(values)
            assert_equivalent(original, compiled, (points, weights))
        unboxed += "moved" in sc.source(compiled, [module.Vec2(1.0, 1.0)], [1.0])
    assert unboxed >= 12  # most of the loops are rewritten


def test_never_a_wrong_answer_a_field_the_loop_never_reads_may_be_missing(make_module: Make,
                                                                         ) -> None:
    module = make_module(VEC2 + """
    def xs_only(points):
        acc = Vec2(0.0, 0.0)
        for p in points:
            acc = acc + Vec2(p.x, 1.0)
        return acc.x, acc.y
    """)
    compiled = sc.symbolic(module.xs_only)
    points = _points(module, 4)
    assert "moved" in sc.source(compiled, points)
    del points[1].y
    assert compiled(points) == module.xs_only(points)
