"""Tests of the name-driven input strategies (``tests/strategies.py``)."""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.strategies import (
    ARGUMENTS_ATTR,
    PARAMS_ATTR,
    Call,
    arguments_for,
    corner_calls,
    strategy_for_name,
)

CONFIG = settings(
    max_examples=150, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
)


# the tests that draw 150 calls (each ~0.3 s) check the test helpers, not the compiler: the
# full suite runs them, the quick tier leaves them out (as test_corpus's sanity test)
drawing = pytest.mark.slow


def collect(func: Callable[..., Any], **options: Any) -> list[Call]:
    """Draw calls of ``func`` and check that each one binds to its signature."""
    calls: list[Call] = []

    @CONFIG
    @given(call=arguments_for(func, **options))
    def draw(call: Call) -> None:
        args, kwargs = call
        inspect.signature(func).bind(*args, **kwargs)
        calls.append(call)

    draw()
    return calls


def floats_only(x, y, w):
    return x


def by_kind(a, /, x, n=3, *args, flag, k=0, **kwargs):
    return a


def defaults_unknown(x, scale=2.0, y=1.0):
    return x


def unknown_required(x, weird):
    return x


def numbered(x1, x_2, arr0):
    return x1


def two_arrays(u, v):
    return u


@drawing
def test_names_pick_types() -> None:
    for args, kwargs in collect(floats_only):
        values = list(args) + list(kwargs.values())
        assert all(type(v) is float for v in values)


@drawing
def test_float_corner_cases_are_drawn() -> None:
    seen = [v for args, kwargs in collect(floats_only) for v in list(args) + list(kwargs.values())]
    assert any(math.isnan(v) for v in seen)
    assert any(math.isinf(v) for v in seen)
    assert any(v == 0 and math.copysign(1.0, v) < 0 for v in seen)


@drawing
def test_parameter_kinds_are_respected() -> None:
    calls = collect(by_kind)
    extras = set()
    for args, kwargs in calls:
        assert "a" not in kwargs  # positional-only
        assert "flag" in kwargs and type(kwargs["flag"]) is bool  # keyword-only, required
        assert len(args) <= 3 + 3
        extras.add(len(set(kwargs) - {"x", "n", "flag", "k"}))
    assert extras <= {0, 1, 2} and 2 in extras
    assert any(len(args) > 3 for args, _ in calls), "*args never got extra values"
    assert any("x" in kwargs for _, kwargs in calls), "x never passed by keyword"
    assert any(len(args) >= 2 for args, _ in calls), "x never passed positionally"
    assert any(len(args) < 3 and "n" not in kwargs for args, kwargs in calls), "n never omitted"
    assert any("k" in kwargs for _, kwargs in calls) and any("k" not in kwargs for _, kwargs in calls)


@drawing
def test_small_loop_ints() -> None:
    for args, kwargs in collect(by_kind):
        n = args[2] if len(args) > 2 else kwargs.get("n", 3)
        assert 0 <= n <= 20


@drawing
def test_unknown_names() -> None:
    for args, kwargs in collect(defaults_unknown):
        assert "scale" not in kwargs and len(args) <= 1  # scale is never passed
    with pytest.raises(LookupError, match="weird"):
        arguments_for(unknown_required)


@drawing
def test_trailing_digits_are_stripped() -> None:
    assert strategy_for_name("x_2") is not None and strategy_for_name("weird") is None
    for args, kwargs in collect(numbered):
        values = list(args) + [kwargs[k] for k in ("x1", "x_2", "arr0") if k in kwargs]
        assert type(values[0]) is float and type(values[1]) is float
        assert isinstance(values[2], np.ndarray)


@drawing
def test_arrays_usually_share_a_shape() -> None:
    calls = collect(two_arrays)
    shapes = [tuple(a.shape for a in list(args) + list(kwargs.values())) for args, kwargs in calls]
    assert all(a.dtype == np.float64 for args, kwargs in calls for a in list(args) + list(kwargs.values()))
    same = sum(1 for pair in shapes if pair[0] == pair[1])
    assert same > len(shapes) / 2
    assert {pair[0] for pair in shapes} >= {(), (0,), (3,), (2, 3)}


@drawing
def test_overrides() -> None:
    for args, kwargs in collect(unknown_required, params={"weird": st.just("W")}):
        assert (list(args) + list(kwargs.values()))[-1] == "W"
    for call in collect(floats_only, arguments=st.just(((1.0, 2.0, 3.0), {}))):
        assert call == ((1.0, 2.0, 3.0), {})

    def with_attributes(x, weird):
        return x

    setattr(with_attributes, PARAMS_ATTR, {"weird": st.just(7)})
    assert all((list(a) + list(k.values()))[-1] == 7 for a, k in collect(with_attributes))
    setattr(with_attributes, ARGUMENTS_ATTR, st.just(((0.5, 1), {})))
    assert all(call == ((0.5, 1), {}) for call in collect(with_attributes))
    assert corner_calls(with_attributes) == []


def test_corner_calls_bind_and_vary_one_parameter_at_a_time() -> None:
    calls = corner_calls(floats_only)
    for args, kwargs in calls:
        inspect.signature(floats_only).bind(*args, **kwargs)
    assert calls[0] == ((1.5, 1.5, 1.5), {})
    assert ((-0.0, 1.5, 1.5), {}) in calls and ((1.5, 1.5, -0.0), {}) in calls
    for args, kwargs in corner_calls(by_kind):
        inspect.signature(by_kind).bind(*args, **kwargs)
        assert "flag" in kwargs
    # `scale` has no convention: it is omitted, so `y` must go by keyword.
    for args, kwargs in corner_calls(defaults_unknown):
        assert len(args) == 1 and set(kwargs) == {"y"}
    assert corner_calls(unknown_required) == []
