"""Tests of the differential oracle itself: it must tell apart everything that
is observably different and accept everything that is not."""

from __future__ import annotations

import math
import struct
import sys
import warnings
from typing import Any

import numpy as np
import pytest

from symcompile.runtime.oracle import (
    assert_equivalent,
    explain_difference,
    explain_observation_difference,
    observe,
    same_value,
)

NAN = math.nan
# A NaN with a different payload (and the same sign) from math.nan.
OTHER_NAN = struct.unpack("<d", struct.pack("<Q", 0x7FF8_0000_0000_1234))[0]


# ---------------------------------------------------------------------------
# same_value
# ---------------------------------------------------------------------------

DIFFERENT: list[tuple[str, Any, Any]] = [
    ("zero signs", 0.0, -0.0),
    ("int vs float", 1, 1.0),
    ("bool vs int", True, 1),
    ("bool vs float", True, 1.0),
    ("nan vs number", NAN, 1.0),
    ("nan signs", NAN, -NAN),
    ("inf signs", math.inf, -math.inf),
    ("floats", 0.1 + 0.2, 0.3),
    ("ints", 2**100, 2**100 + 1),
    ("complex zero sign", complex(0.0, 0.0), complex(0.0, -0.0)),
    ("complex nan part", complex(NAN, 1.0), complex(1.0, 1.0)),
    ("complex vs float", 1 + 0j, 1.0),
    ("str", "a", "b"),
    ("str vs bytes", "a", b"a"),
    ("None vs 0", None, 0),
    ("tuple vs list", (1.0,), [1.0]),
    ("nested zero sign", (1.0, [2.0, 0.0]), (1.0, [2.0, -0.0])),
    ("list lengths", [1.0], [1.0, 2.0]),
    ("dict values", {"a": 1}, {"a": 1.0}),
    ("dict key types", {1: "x"}, {1.0: "x"}),
    ("dict order", {"a": 1, "b": 2}, {"b": 2, "a": 1}),
    ("set element types", {1}, {1.0}),
    ("set vs frozenset", {1}, frozenset({1})),
    ("numpy scalar vs float", np.float64(1.0), 1.0),
    ("numpy scalar dtypes", np.float64(1.0), np.float32(1.0)),
    ("numpy scalar zero sign", np.float64(0.0), np.float64(-0.0)),
    ("numpy int vs int", np.int64(3), 3),
    ("array dtype", np.array([1.0, 2.0]), np.array([1, 2])),
    ("array shape", np.zeros((2, 3)), np.zeros((3, 2))),
    ("array 0-d vs 1-d", np.array(1.0), np.array([1.0])),
    ("array zero sign", np.array([1.0, 0.0]), np.array([1.0, -0.0])),
    ("array nan vs number", np.array([np.nan, 1.0]), np.array([0.0, 1.0])),
    ("array values", np.array([1.0, 2.0]), np.array([1.0, 2.5])),
    ("array complex imag sign", np.array([1 + 0j]), np.array([complex(1.0, -0.0)])),
    ("array vs list", np.array([1.0]), [1.0]),
    ("int arrays", np.array([1, 2]), np.array([1, 3])),
    ("array writeable", np.zeros(2), np.broadcast_to(np.zeros(1), (2,))),
    ("exception args", ValueError("a"), ValueError("b")),
]

SAME: list[tuple[str, Any, Any]] = [
    ("floats", 1.5, 1.5),
    ("nan", NAN, float("nan")),
    ("nan payloads", NAN, OTHER_NAN),
    ("infinities", math.inf, float("inf")),
    ("negative zero", -0.0, -0.0),
    ("huge ints", 2**100, 2**100),
    ("bools", True, True),
    ("complex with nan", complex(NAN, -0.0), complex(OTHER_NAN, -0.0)),
    ("strings", "abc", "abc"),
    ("None", None, None),
    ("Ellipsis", ..., ...),
    ("nested", (1, [2.0, {"a": NAN}]), (1, [2.0, {"a": NAN}])),
    ("sets", {1, 2, 3}, {3, 2, 1}),
    ("numpy scalars", np.float64(NAN), np.float64(OTHER_NAN)),
    ("arrays", np.array([[1.0, -0.0], [np.inf, 2.0]]), np.array([[1.0, -0.0], [np.inf, 2.0]])),
    ("arrays with nan", np.array([np.nan, 1.0]), np.array([OTHER_NAN, 1.0])),
    ("non-contiguous array", np.arange(6.0).reshape(2, 3).T, np.ascontiguousarray(np.arange(6.0).reshape(2, 3).T)),
    ("empty arrays", np.zeros((0,)), np.zeros((0,))),
    ("0-d arrays", np.array(-0.0), np.array(-0.0)),
    ("int arrays", np.array([1, 2], dtype=np.int64), np.array([1, 2], dtype=np.int64)),
    ("complex arrays with nan", np.array([complex(NAN, 1)]), np.array([complex(NAN, 1)])),
    ("exceptions", ValueError("a"), ValueError("a")),
]


@pytest.mark.parametrize(("a", "b"), [(a, b) for _, a, b in DIFFERENT], ids=[name for name, _, _ in DIFFERENT])
def test_same_value_rejects(a: Any, b: Any) -> None:
    assert not same_value(a, b)
    assert not same_value(b, a)
    assert explain_difference(a, b)


@pytest.mark.parametrize(("a", "b"), [(a, b) for _, a, b in SAME], ids=[name for name, _, _ in SAME])
def test_same_value_accepts(a: Any, b: Any) -> None:
    assert same_value(a, b), explain_difference(a, b)
    assert same_value(b, a)
    assert explain_difference(a, b) is None


def test_explanation_points_at_the_difference() -> None:
    message = explain_difference((1.0, [2.0, 0.0]), (1.0, [2.0, -0.0]), "result")
    assert message is not None and message.startswith("result[1][1]")
    message = explain_difference(np.array([1.0, 0.0]), np.array([1.0, -0.0]))
    assert message is not None and "(1,)" in message


def test_recursive_containers_terminate() -> None:
    a: list[Any] = [1.0]
    a.append(a)
    b: list[Any] = [1.0]
    b.append(b)
    assert same_value(a, b)


# ---------------------------------------------------------------------------
# observe / assert_equivalent: functions used as "original" and "compiled"
# ---------------------------------------------------------------------------


def returns_sum(x: float, y: float) -> float:
    return x + y


def returns_sum_plus_zero(x: float, y: float) -> float:
    return x + y + 0.0


def returns_one_int(x: float) -> int:
    return 1


def returns_one_float(x: float) -> float:
    return 1.0


def returns_true(x: float) -> bool:
    return True


def divides(x: float) -> float:
    return 1.0 / x


def divides_checked(x: float) -> float:
    if x == 0:
        raise ValueError("zero")
    return 1.0 / x


def divides_never_raising(x: float) -> float:
    return 1.0 / x if x else math.inf


def prints_a_then_b(x: float) -> float:
    print("a")
    print("b")
    return x


def prints_b_then_a(x: float) -> float:
    print("b")
    print("a")
    return x


def prints_nothing(x: float) -> float:
    return x


def prints_with_space(x: float) -> float:
    print("a", "b")
    return x


def prints_with_comma(x: float) -> float:
    print("a", "b", sep=",")
    return x


def prints_to_stderr(x: float) -> float:
    print("a", file=sys.stderr)
    return x


def appends(xs: list[float]) -> None:
    xs.append(1.0)


def appends_twice(xs: list[float]) -> None:
    xs.append(1.0)
    xs.append(1.0)


def leaves_alone(xs: list[float]) -> None:
    return None


def increments_in_place(arr: np.ndarray) -> np.ndarray:
    arr += 1
    return arr


def increments_fresh(arr: np.ndarray) -> np.ndarray:
    return arr + 1


def increments_fresh_and_mutates(arr: np.ndarray) -> np.ndarray:
    arr += 1
    return arr.copy()


def returns_view(arr: np.ndarray) -> np.ndarray:
    return arr[1:]


def returns_slice_copy(arr: np.ndarray) -> np.ndarray:
    return arr[1:].copy()


def returns_list_arg(xs: list[float]) -> list[float]:
    return xs


def returns_list_copy(xs: list[float]) -> list[float]:
    return list(xs)


def warns_runtime(arr: np.ndarray) -> np.ndarray:
    return np.log(arr)


def warns_never(arr: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return np.log(arr)


def generator_lazy(n: int) -> Any:
    for i in range(n):
        print("item", i)
        yield i


def generator_eager(n: int) -> Any:
    items = []
    for i in range(n):
        print("item", i)
        items.append(i)
    yield from items


def generator_list(n: int) -> Any:
    return list(range(n))


def generator_short(n: int) -> Any:
    yield from range(n - 1)


def generator_raising(n: int) -> Any:
    yield from range(n)
    raise KeyError(n)


def endless() -> Any:
    while True:
        yield 0


def endless_ones() -> Any:
    while True:
        yield 1


def assert_differ(original: Any, compiled: Any, args: tuple[Any, ...], kwargs: dict[str, Any] | None = None,
                  match: str = "") -> None:
    with pytest.raises(AssertionError, match=match) as info:
        assert_equivalent(original, compiled, args, kwargs)
    assert "not equivalent" in str(info.value)


def test_accepts_same_function() -> None:
    for func, args in [
        (returns_sum, (1.0, 2.0)),
        (divides, (0.0,)),
        (prints_a_then_b, (1.0,)),
        (appends, ([1.0],)),
        (increments_in_place, (np.array([1.0, np.nan]),)),
        (returns_view, (np.arange(3.0),)),
        (warns_runtime, (np.array([-1.0, 0.0]),)),
        (generator_lazy, (3,)),
        (generator_raising, (2,)),
        (endless, ()),
    ]:
        assert_equivalent(func, func, args)


def test_accepts_nan_results_with_different_payloads() -> None:
    def make_nan(x: float) -> float:
        return math.nan

    def make_other_nan(x: float) -> float:
        return OTHER_NAN

    assert_equivalent(make_nan, make_other_nan, (1.0,))


def test_accepts_equal_behaviour_written_differently() -> None:
    def twice(x: float) -> float:
        return x * 2.0

    def doubled(x: float) -> float:
        return x + x

    for x in (1.5, -0.0, math.nan, math.inf, 1e308):
        assert_equivalent(twice, doubled, (x,))


def test_rejects_zero_sign() -> None:
    assert_differ(returns_sum, returns_sum_plus_zero, (-0.0, -0.0), match="return value")


def test_rejects_int_vs_float_vs_bool() -> None:
    assert_differ(returns_one_int, returns_one_float, (0.0,), match="type int vs float")
    assert_differ(returns_true, returns_one_int, (0.0,), match="type bool vs int")


def test_rejects_different_exception_type() -> None:
    assert_differ(divides, divides_checked, (0.0,), match="ZeroDivisionError")


def test_rejects_different_exception_message() -> None:
    def raises_a(x: float) -> float:
        raise ValueError("a")

    def raises_b(x: float) -> float:
        raise ValueError("b")

    assert_differ(raises_a, raises_b, (1.0,), match="exception message differs")


def test_rejects_different_exception_chaining() -> None:
    def raises_from(x: float) -> float:
        try:
            return 1.0 / x
        except ZeroDivisionError as exc:
            raise ValueError("zero") from exc

    def raises_with_context(x: float) -> float:
        try:
            return 1.0 / x
        except ZeroDivisionError:
            raise ValueError("zero")

    def raises_plain(x: float) -> float:
        if x == 0:
            raise ValueError("zero")
        return 1.0 / x

    assert observe(raises_from, (0.0,)).exc_chain == (ZeroDivisionError, ZeroDivisionError)
    assert observe(raises_with_context, (0.0,)).exc_chain == (None, ZeroDivisionError)
    assert_differ(raises_from, raises_with_context, (0.0,), match="chaining")
    assert_differ(raises_with_context, raises_plain, (0.0,), match="chaining")


def test_rejects_exception_vs_value() -> None:
    assert_differ(divides, divides_never_raising, (0.0,), match="outcome")
    assert_differ(divides_never_raising, divides, (0.0,), match="outcome")


def test_rejects_different_stdout() -> None:
    assert_differ(prints_a_then_b, prints_nothing, (1.0,), match="stdout")
    assert_differ(prints_with_space, prints_with_comma, (1.0,), match="stdout")


def test_rejects_different_print_order() -> None:
    assert_differ(prints_a_then_b, prints_b_then_a, (1.0,), match="stdout")


def test_rejects_different_stderr() -> None:
    assert_differ(prints_to_stderr, prints_nothing, (1.0,), match="stderr")


def test_rejects_different_argument_mutation() -> None:
    assert_differ(appends, leaves_alone, ([2.0],), match="mutation")
    assert_differ(appends, appends_twice, ([2.0],), match="mutation")
    assert_differ(increments_in_place, increments_fresh_and_mutates, (np.array([1.0]),), match="aliasing")
    assert_differ(appends, leaves_alone, (), {"xs": [2.0]}, match="keyword arguments")


def test_rejects_missing_in_place_update() -> None:
    assert_differ(increments_in_place, increments_fresh, (np.array([1.0, 2.0]),), match="mutation")


def test_rejects_fresh_array_vs_same_argument() -> None:
    def same_array(arr: np.ndarray) -> np.ndarray:
        return arr

    def fresh_array(arr: np.ndarray) -> np.ndarray:
        return arr.copy()

    assert observe(same_array, (np.zeros(2),)).aliases == [("result", "args[0]")]
    assert observe(same_array, (np.zeros(2),)).result_is_argument == [True]
    assert observe(fresh_array, (np.zeros(2),)).result_is_argument == [False]
    assert observe(same_array, (), {"arr": np.zeros(2)}).result_is_keyword_argument == {"arr": True}
    assert_differ(same_array, fresh_array, (np.array([1.0, np.nan]),), match="aliasing")
    assert_differ(fresh_array, same_array, (np.array([1.0, np.nan]),), match="aliasing")


def test_rejects_aliasing_without_mutation() -> None:
    # Same values, same (absent) mutation: only the identity of the result differs.
    assert_differ(returns_list_arg, returns_list_copy, ([1.0, 2.0],), match="aliasing")
    assert_differ(returns_list_copy, returns_list_arg, ([1.0, 2.0],), match="aliasing")


def test_aliasing_inside_containers() -> None:
    def pair(xs: list[float]) -> tuple[list[float], int]:
        return (xs, 1)

    def pair_copy(xs: list[float]) -> tuple[list[float], int]:
        return (list(xs), 1)

    obs = observe(pair, ([1.0],))
    assert obs.aliases == [("result[0]", "args[0]")]
    assert_differ(pair, pair_copy, ([1.0],), match="aliasing")


def test_rejects_view_vs_copy() -> None:
    assert_differ(returns_view, returns_slice_copy, (np.arange(3.0),), match="memory")


def test_float_identity_is_not_aliasing() -> None:
    def same_float(x: float) -> float:
        return x

    def new_float(x: float) -> float:
        return x * 1.0

    assert_equivalent(same_float, new_float, (2.5,))


def test_rejects_different_warnings() -> None:
    assert_differ(warns_runtime, warns_never, (np.array([-1.0]),), match="warnings")


def test_warnings_do_not_escape_observe() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        obs = observe(warns_runtime, (np.array([-1.0, 0.0]),))
    assert obs.warnings == [RuntimeWarning, RuntimeWarning]


def test_generators_are_consumed_and_compared() -> None:
    obs = observe(generator_lazy, (3,))
    assert obs.outcome == "iterate"
    assert obs.items == [0, 1, 2]
    assert_differ(generator_lazy, generator_eager, (3,), match="interleaving")
    assert_differ(generator_lazy, generator_list, (3,), match="outcome")
    assert_differ(generator_lazy, generator_short, (3,), match="yielded items")
    assert_differ(generator_lazy, generator_raising, (3,), match="iteration")


def test_endless_generators_are_capped() -> None:
    obs = observe(endless, ())
    assert obs.truncated and len(obs.items) == 1000
    assert_differ(endless, endless_ones, (), match="yielded items")


def test_observe_does_not_mutate_inputs() -> None:
    arr = np.array([1.0, 2.0])
    xs = [1.0]
    nested = {"k": [arr]}
    observe(increments_in_place, (arr,))
    observe(appends, (xs,))
    observe(appends, (), {"xs": xs})
    observe(lambda d: d["k"][0].fill(7.0), (nested,))
    assert same_value(arr, np.array([1.0, 2.0]))
    assert xs == [1.0]
    assert nested["k"][0] is arr and same_value(arr, np.array([1.0, 2.0]))


def test_observe_gives_each_run_fresh_equal_inputs() -> None:
    arr = np.array([1.0])
    first = observe(increments_in_place, (arr,))
    second = observe(increments_in_place, (arr,))
    assert same_value(first.value, np.array([2.0]))
    assert same_value(second.value, np.array([2.0]))
    assert first.value is not second.value


def test_observe_keeps_aliasing_between_arguments() -> None:
    def add_into(u: np.ndarray, v: np.ndarray) -> np.ndarray:
        u += v
        return v

    arr = np.array([1.0])
    obs = observe(add_into, (arr, arr))
    assert same_value(obs.value, np.array([2.0]))
    assert obs.aliases == [("args[1]", "args[0]"), ("result", "args[0]")]


def test_rejects_different_identity_structure() -> None:
    def twice_same(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return arr, arr

    def twice_copied(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return arr, arr.copy()

    def shared_fresh(xs: list[float]) -> tuple[list[float], list[float]]:
        fresh = [1.0]
        return fresh, fresh

    def two_fresh(xs: list[float]) -> tuple[list[float], list[float]]:
        return [1.0], [1.0]

    def stores_argument(xs: list[Any], arr: np.ndarray) -> None:
        xs.append(arr)

    def stores_copy(xs: list[Any], arr: np.ndarray) -> None:
        xs.append(arr.copy())

    assert observe(twice_same, (np.zeros(1),)).aliases == [("result[0]", "args[0]"), ("result[1]", "args[0]")]
    assert_differ(twice_same, twice_copied, (np.zeros(1),), match="aliasing")
    assert_differ(shared_fresh, two_fresh, ([],), match="aliasing")
    assert_differ(stores_argument, stores_copy, ([], np.zeros(1)), match="aliasing")


def test_explain_observation_difference_none_for_identical_runs() -> None:
    a = observe(prints_a_then_b, (1.0,))
    b = observe(prints_a_then_b, (1.0,))
    assert explain_observation_difference(a, b) is None
