"""vectorize_loops on Python lists of floats and lists of lists (passes/vectorize_lists.py): the
loop runs as array code on float64 copies, with the same bits, the same types (Python floats in
the caller's very lists), the same exceptions, and the loop as written wherever an entry
condition fails (shared rows, ints, float subclasses, NumPy scalars, ragged rows, indices out
of range, a written list also read under another name)."""

from __future__ import annotations

import math
import types
import warnings
from typing import Any, Callable

import numpy as np
import pytest

import symcompile as sc
from symcompile.analysis import cost
from symcompile.passes import vectorize_build, vectorize_lists
from symcompile.runtime.oracle import assert_equivalent

KERNELS = '''
def matmul(c, A, B, n):
    for i in range(n):
        for j in range(n):
            for k in range(n):
                c[i][j] += A[i][k] * B[k][j]

def matmul_lengths(c, A, B):
    for i in range(len(c)):
        for k in range(len(B)):
            for j in range(len(c)):
                c[i][j] += A[i][k] * B[k][j]

def matmul_accumulator(c, A, B, n, m, p):
    for i in range(n):
        for j in range(m):
            acc = 0.0
            for k in range(p):
                acc += A[i][k] * B[k][j]
            c[i][j] = acc

def cubic(out, a, n):
    for i in range(n):
        x = a[i]
        out[i] = ((x * 0.25 - 1.5) * x + 2.0) * x - (x * x + 0.5) * (x - 3.0)

def axpy(out, a, b, n):
    for i in range(n):
        out[i] = a[i] * 2.0 + b[i]

def stencil(new, u, n):
    for i in range(1, n - 1):
        for j in range(1, n - 1):
            new[i][j] = (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]) * 0.25

def clip(out, a, n, low):
    for i in range(n):
        x = a[i]
        if x < low:
            out[i] = low * 1.0
        else:
            out[i] = (x * x - x) * (x + 1.5)

def divide(out, a, b, n):
    for i in range(n):
        out[i] = (a[i] * a[i] - b[i]) / (b[i] * b[i] + a[i])

def int_compare(out, a, n):
    for i in range(n):
        x = a[i]
        if x > 9007199254740993:
            out[i] = ((x * x - x) * (x + 1.5) - x) * 0.5
'''


@pytest.fixture(autouse=True)
def conversion_always_pays(monkeypatch: pytest.MonkeyPatch) -> None:
    """The array code runs at every size here (by default the cost model decides: tested in
    test_never_slower_*), so small lists test it too."""
    monkeypatch.setattr(vectorize_build, "MIN_ITERATIONS", 1)
    monkeypatch.setattr(vectorize_build, "MIN_ELEMENTS_PER_TURN", 1)
    monkeypatch.setattr(cost, "LIST_CONVERSION", 0.0)
    monkeypatch.setattr(cost, "LIST_ROW", 0.0)
    monkeypatch.setattr(cost, "LIST_ELEMENT_IN", 0.0)
    monkeypatch.setattr(cost, "LIST_ELEMENT_OUT", 0.0)


@pytest.fixture
def converted(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each conversion the compiled code asked for succeeded (array code ran)."""
    outcomes: list[bool] = []
    monkeypatch.setattr(vectorize_lists, "lists_as_arrays", spy_on(outcomes))
    return outcomes


def spy_on(outcomes: list[bool]) -> Callable[..., Any]:
    real = vectorize_lists.lists_as_arrays

    def spy(work: float, lists: Any) -> Any:
        found = real(work, lists)
        outcomes.append(found is not None)
        return found

    return spy


@pytest.fixture
def kernels(make_module: Callable[[str], types.ModuleType]) -> types.ModuleType:
    return make_module(KERNELS)


def compiled(module: types.ModuleType, name: str) -> Callable[..., Any]:
    original = getattr(module, name)
    return sc.symbolic(types.FunctionType(original.__code__, original.__globals__, name))


def matrix(n: int, m: int, seed: int = 0) -> list[list[float]]:
    return (np.random.default_rng(seed).standard_normal((n, m)) * 3).tolist()


def run_both(kernels: types.ModuleType, name: str, make: Callable[[], tuple[Any, ...]]) -> tuple[Any, Any]:
    """The arguments after the original and after the compiled function ran on fresh ones
    (made twice so the caller's own references can be checked), or the exception raised."""
    outcomes = []
    for function in (getattr(kernels, name), compiled(kernels, name)):
        args = make()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                function(*args)
                outcomes.append(args)
            except Exception as error:  # noqa: BLE001 - compared by the caller
                outcomes.append((type(error), str(error)))
    return outcomes[0], outcomes[1]


def bits(value: Any) -> Any:
    """Every float by its bits and type, lists by their structure."""
    if isinstance(value, list):
        return [bits(item) for item in value]
    if isinstance(value, tuple):
        return tuple(bits(item) for item in value)
    if type(value) is float:  # (a NaN's sign is not kept by CPython's own arithmetic: see the oracle)
        return ("float", value.hex() if not math.isnan(value) else "nan")
    return (type(value).__name__, repr(value))


@pytest.mark.parametrize("n", [0, 1, 2, 5, 17])
def test_same_bits_matrix_product_of_lists(kernels: types.ModuleType, converted: list[bool], n: int) -> None:
    args = ([[0.5] * n for _ in range(n)], matrix(n, n), matrix(n, n, 1), n)
    assert_equivalent(kernels.matmul, compiled(kernels, "matmul"), args)
    assert_equivalent(kernels.matmul_lengths, compiled(kernels, "matmul_lengths"), args[:3])
    rectangular = ([[0.0] * 3 for _ in range(n)], matrix(n, 4), matrix(4, 3, 2), n, 3, 4)
    assert_equivalent(kernels.matmul_accumulator, compiled(kernels, "matmul_accumulator"), rectangular)
    assert all(converted) and len(converted) == (0 if n == 0 else 3)


def test_same_types_results_in_the_callers_lists(kernels: types.ModuleType, converted: list[bool]) -> None:
    n = 6
    c, A, B = [[1.0] * n for _ in range(n)], matrix(n, n), matrix(n, n, 1)
    rows = list(c)
    compiled(kernels, "matmul")(c, A, B, n)
    assert converted == [True]
    expected = [[1.0] * n for _ in range(n)]
    kernels.matmul(expected, A, B, n)
    assert all(row is kept for row, kept in zip(c, rows))  # a caller's `c[0]` sees the values
    assert bits(c) == bits(expected)
    assert {type(x) for row in c for x in row} == {float}


def test_same_bits_nan_inf_and_negative_zero(kernels: types.ModuleType, converted: list[bool]) -> None:
    special = [math.nan, -math.nan, math.inf, -math.inf, -0.0, 0.0, 1e308, -1e308, 5e-324, 1.5]
    n = len(special)
    A = [special[i:] + special[:i] for i in range(n)]
    B = [list(reversed(row)) for row in A]
    for name, make in (("matmul", lambda: ([[-0.0] * n for _ in range(n)], [r[:] for r in A], [r[:] for r in B], n)),
                       ("cubic", lambda: ([0.0] * n, special[:], n)),
                       ("stencil", lambda: ([[-0.0] * n for _ in range(n)], [r[:] for r in A], n))):
        original, fast = run_both(kernels, name, make)
        assert bits(original) == bits(fast), name
    assert converted and all(converted)


def test_never_wrong_shared_rows_run_the_loop(kernels: types.ModuleType, converted: list[bool]) -> None:
    """`[[0.0] * n] * n` is one row n times: each write shows in every row."""
    n = 5
    A, B = matrix(n, n), matrix(n, n, 1)
    original, fast = run_both(kernels, "matmul", lambda: ([[0.0] * n] * n, A, B, n))
    assert bits(original) == bits(fast)
    assert fast[0][0] is fast[0][1]
    # a written row that is also a row of an input, and an output that is an input
    original, fast = run_both(kernels, "matmul", lambda: (lambda c: (c, [c[1]] + A[1:], B, n))(matrix(n, n, 3)))
    assert bits(original) == bits(fast)
    original, fast = run_both(kernels, "stencil", lambda: (lambda u: (u, u, n))(matrix(n, n, 4)))
    assert bits(original) == bits(fast)
    assert converted == [False, False, False]


@pytest.mark.parametrize("odd", [3, True, np.float64(2.0), type("Sub", (float,), {})(2.0), None, "x"])
def test_never_wrong_elements_not_exactly_float_run_the_loop(kernels: types.ModuleType, converted: list[bool],
                                                              odd: object) -> None:
    """An int (`float * int` converts the int), a bool, a NumPy scalar (it warns, and its
    products are NumPy's), a float subclass (its operators may be its own), or no number at all
    (TypeError at the element it meets): the loop runs as written."""
    n = 4

    def make() -> tuple[Any, ...]:
        A = matrix(n, n)
        A[2][1] = odd  # type: ignore[call-overload]
        return [[0.0] * n for _ in range(n)], A, matrix(n, n, 1), n

    original, fast = run_both(kernels, "matmul", make)
    assert bits(original) == bits(fast)
    assert converted == [False]


def test_same_index_error_ragged_rows_and_short_lists(kernels: types.ModuleType, converted: list[bool]) -> None:
    n = 4
    ragged = lambda: ([[0.0] * n for _ in range(n)], matrix(n, n)[:3] + [[1.0] * (n - 1)], matrix(n, n, 1), n)  # noqa: E731
    longer = lambda: ([[0.0] * n for _ in range(n)], [row + [7.0] for row in matrix(n, n)], matrix(n, n, 1), n)  # noqa: E731
    short = lambda: ([[0.0] * n for _ in range(n)], matrix(n, n), matrix(n, n, 1), n + 1)  # noqa: E731
    for make in (ragged, longer, short):
        original, fast = run_both(kernels, "matmul", make)
        assert bits(original) == bits(fast)
    assert run_both(kernels, "matmul", short)[1] == (IndexError, "list index out of range")
    original, fast = run_both(kernels, "cubic", lambda: ([0.0] * 3, [1.0] * 5, 5))
    assert original == fast == (IndexError, "list assignment index out of range")
    assert converted == [False, True, True, True, True]  # ragged rows; then converted (bounds fail: short)


def test_same_bits_masks_and_empty_lists(kernels: types.ModuleType, converted: list[bool]) -> None:
    for n in (0, 1, 9):
        a = (np.random.default_rng(n).standard_normal(n) * 3).tolist()
        assert_equivalent(kernels.clip, compiled(kernels, "clip"), ([0.5] * n, a, n, 0.25))
        assert_equivalent(kernels.clip, compiled(kernels, "clip"), ([0.5] * n, a, n, -1.5))
        assert_equivalent(kernels.stencil, compiled(kernels, "stencil"), ([[0.0] * n for _ in range(n)], matrix(n, n), n))
    assert converted == [True] * 5  # (n = 0: no turn, n = 1: no turn of the stencil)


def test_same_types_only_written_list_may_hold_ints(kernels: types.ModuleType, converted: list[bool]) -> None:
    """`out = [0] * n` written at every element: its old items are never read, so it is not
    scanned; the elements written are floats as in the loop, the others stay ints."""
    n = 8
    original, fast = run_both(kernels, "stencil", lambda: ([[0] * n for _ in range(n)], matrix(n, n), n))
    assert bits(original) == bits(fast)
    assert type(fast[0][0][0]) is int and type(fast[0][1][1]) is float
    assert converted == [True]


def test_never_wrong_overflow_warns_nothing_under_raise(kernels: types.ModuleType, converted: list[bool]) -> None:
    """A float never warns: `1e308 * 1e308` is inf in the loop, and so in the array code,
    whatever NumPy's error state says."""
    n = 3
    big = [[1e308] * n for _ in range(n)]
    with np.errstate(all="raise"):
        original, fast = run_both(kernels, "matmul", lambda: ([[0.0] * n for _ in range(n)], big, big, n))
    assert bits(original) == bits(fast) and fast[0][0][0] == math.inf
    assert converted == [True]


def test_never_wrong_division_of_list_elements_stays_a_loop(kernels: types.ModuleType) -> None:
    """`x / 0.0` raises ZeroDivisionError on floats, gives inf on arrays."""
    fast = compiled(kernels, "divide")
    args = ([0.0] * 4, [1.0, 2.0, 0.0, 3.0], [1.0, 0.0, 0.0, 2.0], 4)
    assert_equivalent(kernels.divide, fast, args)
    assert "divides list elements" in str(sc.explain(fast, *args))


def test_never_wrong_big_int_compared_exactly(kernels: types.ModuleType) -> None:
    """A float compares with an int exactly; an array converts the int first (2**53 + 1 is
    2**53 as a float64): beside list elements a compared int lies within ±2**53."""
    fast = compiled(kernels, "int_compare")
    args = ([0.0] * 3, [2.0 ** 53, 1.0, 5.0], 3)
    assert_equivalent(kernels.int_compare, fast, args)
    assert "9007199254740993: an int that may not fit" in str(sc.explain(fast, *args))


def test_never_slower_a_map_over_lists_is_left_alone_as_not_paying(
        kernels: types.ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """`out[i] = a[i] * 2.0 + b[i]` converts three elements a turn (~80 ns) to save a turn of
    ~45 ns: refused, and explained; a map doing more per element is weighed on entry."""
    monkeypatch.undo()
    args = ([0.0] * 100, [1.0] * 100, [2.0] * 100, 100)
    fast = compiled(kernels, "axpy")
    assert_equivalent(kernels.axpy, fast, args)
    explained = str(sc.explain(fast, *args))
    assert "not vectorized: converting lists a, b, out costs ~80 ns a turn, the loop ~45 ns: would not pay" \
        in explained
    assert "lists_as_arrays" in sc.source(compiled(kernels, "cubic"), [0.0] * 100, [1.0] * 100, 100)


def test_never_slower_small_lists_run_the_loop(kernels: types.ModuleType, monkeypatch: pytest.MonkeyPatch,
                                               converted: list[bool]) -> None:
    """By the cost model, a 4×4 product (~4 µs of loop) does not pay for converting (~5 µs
    fixed); a 40×40 one (~4 ms) does."""
    monkeypatch.undo()
    monkeypatch.setattr(vectorize_lists, "lists_as_arrays", spy_on(converted))
    fast = compiled(kernels, "matmul")
    for n in (4, 40):
        assert_equivalent(kernels.matmul, fast, ([[0.0] * n for _ in range(n)], matrix(n, n), matrix(n, n, 1), n))
    assert converted == [False, True]


def test_same_warnings_none_and_explained(kernels: types.ModuleType) -> None:
    n = 3
    args = ([[0.0] * n for _ in range(n)], matrix(n, n), matrix(n, n, 1), n)
    explained = str(sc.explain(compiled(kernels, "matmul"), *args))
    assert "vectorize loop i: reduction in order over k (loops i, j as arrays), on lists" in explained
