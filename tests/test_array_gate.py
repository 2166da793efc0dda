"""analysis.arrays.may_hold_arrays: the array lowerings (eliminate_temporaries,
use_cheaper_numpy_calls) skip a function that cannot hold a known array. The gate only saves
time: with it forced open, every corpus function compiles to the same source."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

import symcompile as sc
from symcompile import ir
from symcompile.analysis.arrays import may_hold_arrays
from symcompile.passes import eliminate_temporaries, pipeline, use_cheaper_numpy_calls
from tests.corpus import CORPUS_BY_NAME, CORPUS_NAMES

BOUND = np.arange(3.0)


def plain_numbers(a, b):
    return math.sqrt(a * a + b * b)


def numpy_by_name(a):
    return np.exp(a) + 1.0


def bound_array(a):
    return a + BOUND


def unknown_arguments(a, b):
    return a * b + a


def _before_lowerings(func, argument_types=None) -> ir.Function:
    function = pipeline.optimize(func, passes=pipeline.PASSES[:3])[0]
    return function if argument_types is None else \
        dataclasses.replace(function, argument_types=argument_types)


@pytest.mark.parametrize(("func", "expected"), [
    (plain_numbers, False), (unknown_arguments, False), (numpy_by_name, True), (bound_array, True),
])
def test_a_function_holds_arrays_only_through_numpy_objects(func, expected: bool) -> None:
    assert may_hold_arrays(_before_lowerings(func)) is expected


def test_an_array_argument_kind_opens_the_gate() -> None:
    kind = ir.ArrayKind(np.dtype(np.float64), 1, None)
    assert may_hold_arrays(_before_lowerings(unknown_arguments, {"a": kind}))
    assert not may_hold_arrays(_before_lowerings(unknown_arguments, {"a": float, "b": int}))


def test_without_arrays_the_lowerings_return_their_input() -> None:
    function = _before_lowerings(unknown_arguments)
    assert eliminate_temporaries.eliminate_temporaries(function) is function
    assert use_cheaper_numpy_calls.use_cheaper_numpy_calls(function) is function


@pytest.mark.slow
def test_the_gate_changes_no_generated_source(monkeypatch: pytest.MonkeyPatch) -> None:
    gated = {name: str(sc.symbolic(CORPUS_BY_NAME[name]).source) for name in CORPUS_NAMES}
    for module in (eliminate_temporaries, use_cheaper_numpy_calls):
        monkeypatch.setattr(module, "may_hold_arrays", lambda function: True)
    opened = {name: str(sc.symbolic(CORPUS_BY_NAME[name]).source) for name in CORPUS_NAMES}
    assert [name for name in CORPUS_NAMES if gated[name] != opened[name]] == []
