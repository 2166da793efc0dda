"""use_cheaper_numpy_calls on compiled objects: `dot` for `@`, biases as rows, numbers converted
once; each where NumPy computes the same bits, and not elsewhere."""

from __future__ import annotations

import numpy as np
import pytest

import symcompile as sc
from symcompile.runtime.oracle import same_value


class Layer:
    def __init__(self, W: np.ndarray, b: np.ndarray) -> None:
        self.W = W
        self.b = b

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return np.maximum(x @ self.W + self.b, 0)


def body(compiled: object, x: np.ndarray) -> str:
    """The generated statements after the entry checks."""
    text = sc.source(compiled, x)
    return text[text.index("return other_types"):]


def layer(n: int, m: int, dtype: type = np.float32, order: str = "C") -> Layer:
    rng = np.random.default_rng(n * 100 + m)
    W = np.asarray(rng.standard_normal((n, m)), dtype=dtype, order=order)
    return Layer(W, rng.standard_normal(m).astype(dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("batch", [1, 3, 0])
def test_matmul_becomes_dot_and_the_bias_a_row(dtype: type, batch: int) -> None:
    net = layer(5, 4, dtype)
    x = np.random.default_rng(1).standard_normal((batch, 5)).astype(dtype)
    compiled = sc.symbolic(net)
    assert same_value(compiled(x), net(x))
    text = body(compiled, x)
    assert "dot(x, W)" in text and "+= b_row" in text and f"{np.dtype(dtype).name}_0_0" in text


@pytest.mark.parametrize("net, why", [
    (layer(5, 1), "W has one column: matmul and dot take other paths"),
    (layer(1, 4), "W has one row"),
    (layer(5, 4, order="F"), "W is Fortran-ordered"),
    (layer(5, 4, np.complex128), "complex"),
    (layer(5, 4, np.int64), "integers"),
], ids=["one-column", "one-row", "fortran", "complex", "int"])
def test_matmul_stays_where_dot_may_differ(net: Layer, why: str) -> None:
    x = np.ones((2, net.W.shape[0]), dtype=net.W.dtype)
    compiled = sc.symbolic(net)
    assert same_value(compiled(x), net(x))
    assert "dot(" not in sc.source(compiled, x), why


def test_a_strided_input_keeps_matmul() -> None:
    net = layer(5, 4)
    x = np.ones((5, 2), dtype=np.float32).T  # not C-contiguous: the entry check says so
    compiled = sc.symbolic(net)
    assert same_value(compiled(x), net(x))
    assert "dot(" not in sc.source(compiled, x)


def test_in_place_bias_updates_are_seen_through_the_row() -> None:
    net = layer(5, 4)
    x = np.ones((1, 5), dtype=np.float32)
    compiled = sc.symbolic(net)
    compiled(x)
    net.b[:] = 7.0  # in place: the row made at compile time is a view of it
    assert same_value(compiled(x), net(x))
    net.b = np.zeros(4, dtype=np.float32)  # rebound: the guard recompiles
    assert same_value(compiled(x), net(x))


class Scaled:
    def __init__(self, scale: np.ndarray) -> None:
        self.scale = scale

    def __call__(self, x: np.ndarray) -> tuple[np.ndarray, ...]:
        return x * 0.1 + 1, x ** 2 + 0.5, x * self.scale


def test_only_numbers_that_convert_exactly_are_converted() -> None:
    compiled_object = Scaled(np.arange(3, dtype=np.float32))
    x = np.linspace(-1, 1, 3, dtype=np.float32)
    compiled = sc.symbolic(compiled_object)
    assert same_value(compiled(x), compiled_object(x))
    text = body(compiled, x)
    assert "0.1" in text  # 0.1 is not a float32: NumPy rounds it on every call, and so do we
    assert "float32_1_0" in text and "float32_0_5" in text
    assert "** 2" in text  # the exponent stays a Python int (NumPy squares by a shortcut)


def test_integer_arrays_keep_their_numbers() -> None:
    compiled_object = Scaled(np.arange(3))
    x = np.arange(3)
    compiled = sc.symbolic(compiled_object)
    assert same_value(compiled(x), compiled_object(x))
    assert "int64_" not in sc.source(compiled, x)
