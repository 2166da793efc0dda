"""Issue 11's everyday kernels: the rewrites that bring them to their hand versions, each held
to the differential oracle (same values bit for bit, same exceptions and messages, same
aliasing) on the inputs where the rule fires and where it must not."""

from __future__ import annotations

import types
from typing import Callable

import numpy as np
import pytest

import symcompile as sc
from symcompile import ir
from symcompile.analysis.value_types import Known, type_of
from symcompile.runtime.oracle import assert_equivalent

REDUCTIONS = '''
import numpy as np


def softmax(z):
    e = np.exp(z - np.max(z))
    return e / np.sum(e)


def centred(z):
    d = z - z.mean()
    return d / d.max()


def standardize(x):
    return (x - x.mean()) / x.std()


def by_axis(z):
    e = np.exp(z)
    return e / np.sum(e, axis=0)
'''


def _array(dtype: str, ndim: int = 1) -> Known:
    return Known(ir.ArrayKind(np.dtype(dtype), ndim, None), frozenset({"a"}))


def _call(function: object, *args: ir.Expr) -> ir.Expr:
    return ir.Call(ir.Const(function), args, ())


@pytest.mark.parametrize(("dtype", "function", "expected"), [
    ("float64", np.max, np.float64), ("float64", np.sum, np.float64),
    ("float32", np.sum, np.float32), ("int8", np.sum, np.int64), ("int8", np.max, np.int8),
    ("bool", np.max, np.bool_), ("int32", np.mean, np.float64), ("complex128", np.prod, np.complex128),
    ("complex64", np.std, np.float32), ("int8", np.var, np.float64),
])
def test_never_wrong_reduction_types_are_numpys(dtype: str, function: object, expected: type) -> None:
    known = type_of(_call(function, ir.Name("a")), {"a": _array(dtype)})
    assert known == Known(expected, frozenset({"a"}))
    assert type(function(np.ones(3, dtype))) is expected  # type: ignore[operator]


def test_never_wrong_reduction_along_an_axis_is_not_a_scalar() -> None:
    env = {"a": _array("float64", 2)}
    with_axis = ir.Call(ir.Const(np.sum), (ir.Name("a"),), (ir.Keyword("axis", ir.Const(0)),))
    assert type_of(with_axis, env) is None
    assert type_of(_call(np.sum, ir.Name("a"), ir.Const(0)), env) is None
    assert type_of(_call(np.sum, ir.Name("unknown")), env) is None


def test_never_slower_softmax_computes_in_place(make_module: Callable[[str], types.ModuleType]) -> None:
    module = make_module(REDUCTIONS)
    z = np.random.default_rng(0).normal(size=1000)
    source = sc.source(sc.symbolic(module.softmax), z)
    assert "exp(e, out=e)" in source and "e /= sum(e)" in source
    centred = sc.source(sc.symbolic(module.centred), z)
    assert "d /= d.max()" in centred
    assert "t /= x.std()" in sc.source(sc.symbolic(module.standardize), z)


@pytest.mark.parametrize("make", [
    lambda: np.random.default_rng(1).normal(size=1000),
    lambda: np.random.default_rng(2).normal(size=(7, 5)),
    lambda: np.random.default_rng(3).normal(size=37).astype(np.float32),
    lambda: np.arange(12),
    lambda: np.array([1.0, np.nan, -np.inf, 3.0]),
    lambda: np.array([np.inf, 1.0]),
    lambda: np.zeros(0),
    lambda: np.zeros((0, 3)),
    lambda: np.asfortranarray(np.random.default_rng(4).normal(size=(4, 6))),
    lambda: np.random.default_rng(5).normal(size=20)[::2],
    lambda: [1.0, 2.0],
])
@pytest.mark.parametrize("name", ["softmax", "centred", "standardize", "by_axis"])
def test_never_wrong_reductions_then_in_place(make_module: Callable[[str], types.ModuleType],
                                              make: Callable[[], object], name: str) -> None:
    module = make_module(REDUCTIONS)
    original = getattr(module, name)
    compiled = sc.symbolic(original)
    with np.errstate(all="ignore"):
        for _ in range(3):
            assert_equivalent(original, compiled, (make(),))
