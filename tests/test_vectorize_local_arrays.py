"""vectorize_loops on arrays the function makes itself (`np.zeros`, `a.copy()`,
`np.zeros_like`), as real kernels write their outputs, and on the element operations those
kernels use (`math.sqrt` of float64 elements, an int constant stored into an integer array):
the same bits, exceptions and warnings as the loop, the loop kept where they would differ."""

from __future__ import annotations

import types

import numpy as np
import pytest

from symcompile import ir
from symcompile.analysis.value_types import Known, type_of
from symcompile.runtime.oracle import assert_equivalent
from tests.source_module import import_source
from tests.shared_versions import compiled
from tests.test_vectorize_loops import vectorized

KERNELS = '''
import math
import numpy as np

def smooth_copy(a):
    n = a.shape[0]
    out = a.copy()
    for i in range(1, n - 1):
        out[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1]
    return out

def distances(points):
    n = points.shape[0]
    d = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            dx = points[i, 0] - points[j, 0]
            dy = points[i, 1] - points[j, 1]
            d[i, j] = math.sqrt(dx * dx + dy * dy)
    return d

def roots(a):
    out = np.zeros_like(a)
    for i in range(len(a)):
        out[i] = math.sqrt(a[i])
    return out

def mask_above(img, t):
    h, w = img.shape
    mask = np.zeros((h, w), dtype=np.uint8)
    for i in range(h):
        for j in range(w):
            if img[i, j] > t:
                mask[i, j] = 1
    return mask

def mask_too_big(img, t):
    h, w = img.shape
    mask = np.zeros((h, w), dtype=np.uint8)
    for i in range(h):
        for j in range(w):
            if img[i, j] > t:
                mask[i, j] = 300
    return mask

def reinterpreted(a):
    d = a.copy()
    d.dtype = np.int64
    out = np.zeros(len(a))
    for i in range(len(a)):
        out[i] = d[i] * 0.5
    return out

def roots32(a):
    out = np.zeros(len(a), dtype=np.float32)
    for i in range(len(a)):
        out[i] = math.sqrt(a[i])
    return out
'''


@pytest.fixture(scope="module")
def kernels(tmp_path_factory: pytest.TempPathFactory) -> types.ModuleType:
    return import_source(KERNELS, tmp_path_factory.mktemp("local_arrays") / "local_array_kernels.py")


RNG = np.random.default_rng(7)


@pytest.mark.parametrize("name, args", [
    ("smooth_copy", (RNG.standard_normal(100),)),
    ("smooth_copy", (RNG.standard_normal(3),)),
    ("distances", (RNG.standard_normal((12, 2)),)),
    ("distances", (RNG.standard_normal((0, 2)),)),
    ("roots", (RNG.random(64),)),
    ("mask_above", (RNG.standard_normal((9, 7)), 0.25)),
])
def test_outputs_the_function_makes_are_vectorized_with_the_same_bits(
        kernels: types.ModuleType, name: str, args: tuple[object, ...]) -> None:
    assert_equivalent(getattr(kernels, name), compiled(kernels, name), args)
    assert vectorized(kernels, name, *args)


def test_sqrt_of_a_negative_element_raises_as_the_loop_does(kernels: types.ModuleType) -> None:
    values = RNG.random(64)
    values[40] = -1.0
    fast = compiled(kernels, "roots")
    with pytest.raises(ValueError, match="math domain error"):
        fast(values)
    assert_equivalent(kernels.roots, compiled(kernels, "roots"), (values,))
    values[40] = np.nan  # a quiet NaN: no error either way
    assert_equivalent(kernels.roots, compiled(kernels, "roots"), (values,))


def test_sqrt_into_float32_and_an_int_out_of_range_stay_loops(kernels: types.ModuleType) -> None:
    img = RNG.standard_normal((9, 7))
    assert not vectorized(kernels, "roots32", RNG.random(64))
    assert not vectorized(kernels, "mask_too_big", img, 0.25)
    assert not vectorized(kernels, "reinterpreted", RNG.random(64))  # its kinds may not hold
    assert_equivalent(kernels.reinterpreted, compiled(kernels, "reinterpreted"), (RNG.random(64),))
    assert_equivalent(kernels.mask_too_big, compiled(kernels, "mask_too_big"), (img, 0.25))
    assert_equivalent(kernels.roots32, compiled(kernels, "roots32"), (RNG.random(64),))


def test_array_constructors_give_arrays_of_known_kinds() -> None:
    vector = Known(ir.ArrayKind(np.dtype(np.float64), 1, ("a[0]",)), frozenset({"a"}))
    env = {"n": Known(int, frozenset({"n"})), "a": vector}
    zeros = type_of(ir.Call(ir.Const(np.zeros), (ir.Build("tuple", (ir.Name("n"), ir.Const(3))),)), env)
    assert zeros == Known(ir.ArrayKind(np.dtype(np.float64), 2, None), frozenset({"n"}))
    empty = type_of(ir.Call(ir.Const(np.empty), (ir.Const(4),),
                            (ir.Keyword("dtype", ir.Const(np.uint8)),)), env)
    assert empty == Known(ir.ArrayKind(np.dtype(np.uint8), 1, (4,)))
    assert type_of(ir.Call(ir.Attribute(ir.Name("a"), "copy"), ()), env) == vector
    assert type_of(ir.Call(ir.Const(np.zeros_like), (ir.Name("a"),)), env) == vector
    shape = ir.Subscript(ir.Attribute(ir.Name("a"), "shape"), ir.Const(0))
    assert type_of(shape, env) == Known(int, frozenset({"a"}))
    # what is not certain stays unknown: a float extent, an order, an object dtype
    assert type_of(ir.Call(ir.Const(np.zeros), (ir.Const(2.0),)), env) is None
    assert type_of(ir.Call(ir.Const(np.zeros), (ir.Const(2),),
                           (ir.Keyword("order", ir.Const("F")),)), env) is None
    assert type_of(ir.Call(ir.Const(np.zeros), (ir.Const(2), ir.Const(object))), env) is None
    assert type_of(ir.Call(ir.Attribute(ir.Name("n"), "copy"), ()), env) is None
