"""vectorize_loops under `@symbolic(fastmath=True)` (issue 10, items 3 and 5): element maps with
functions NumPy rounds differently from `math` (`np.exp` for `math.exp`, `np.power` for `**`),
and whole-loop sums reordered (`np.dot`, `np.sum`). Values may differ in the last bits, so they
are compared within stated tolerances; exceptions, warnings and types must be the loop's, and
without fastmath the loops stay loops, bit for bit (MUST NOT CHANGE)."""

from __future__ import annotations

import math
import types
import warnings
from typing import Callable

import numpy as np
import pytest

import symcompile as sc
from symcompile.runtime.oracle import assert_equivalent
from tests.shared_versions import compiled_for
from tests.source_module import import_source

KERNELS = '''
import math
import numpy as np
from math import tanh

def exp_map(out, a):
    for i in range(len(a)):
        out[i] = math.exp(a[i])

def log_map(out, a):
    for i in range(len(a)):
        out[i] = math.log(a[i])

def np_log_map(out, a):
    for i in range(len(a)):
        out[i] = np.log(a[i])

def sigmoid(out, x):
    for i in range(len(x)):
        out[i] = 1.0 / (1.0 + math.exp(-x[i]))

def gauss(out, x, s):
    for i in range(len(x)):
        t = x[i] / s
        out[i] = math.exp(-t * t)

def tanh_map(out, a):
    for i in range(len(a)):
        out[i] = tanh(a[i]) * 0.5

def angles(out, y, x):
    for i in range(y.shape[0]):
        for j in range(y.shape[1]):
            out[i, j] = math.atan2(y[i, j], x[i, j])

def power(out, a):
    for i in range(len(a)):
        out[i] = a[i] ** 2.5

def exp_into32(out, a):
    for i in range(len(a)):
        out[i] = math.exp(a[i])

def exp_times32(out, a, b):
    for i in range(len(a)):
        out[i] = math.exp(a[i]) * b[i]

def roots(out, a):
    for i in range(len(a)):
        out[i] = math.sqrt(a[i])

def list_roots(out, a, n):
    for i in range(n):
        for j in range(n):
            for k in range(n):
                out[i][j] += math.sqrt(a[i][k]) * a[k][j]

def dot(a, b):
    s = 0.0
    for i in range(len(a)):
        s += a[i] * b[i]
    return s

def dot_int_start(a, b):
    s = 0
    for i in range(len(a)):
        s = s + a[i] * b[i]
    return s

def norm(a):
    s = 0.0
    for i in range(len(a)):
        s += a[i] * a[i]
    return math.sqrt(s)

def gauss_sum(x):
    s = 0.0
    for i in range(len(x)):
        s += math.exp(-x[i] * x[i])
    return s

def total_2d(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s -= a[i, j]
    return s

def rows_repeated(a, m):
    s = 0.0
    for i in range(len(a)):
        for j in range(m):
            s += a[i]
    return s

def matmul(c, a, b):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            for k in range(a.shape[1]):
                c[i, j] += a[i, k] * b[k, j]

def matmul_k_outer(c, a, b):
    for k in range(a.shape[1]):
        for i in range(a.shape[0]):
            for j in range(b.shape[1]):
                c[i, j] += b[k, j] * a[i, k]

def exp_sum32(x, y):
    s = 0.0
    for i in range(len(x)):
        s += math.exp(x[i]) * y[i]
    return s

def int_sum(a):
    s = 0
    for i in range(len(a)):
        s += a[i]
    return s
'''

EPS = np.finfo(np.float64).eps


@pytest.fixture(scope="module")
def kernels(tmp_path_factory: pytest.TempPathFactory) -> types.ModuleType:
    return import_source(KERNELS, tmp_path_factory.mktemp("fastmath") / "fastmath_kernels.py")


def fast(module: types.ModuleType, name: str, fastmath: bool = True) -> Callable[..., object]:
    """A fresh `@symbolic(fastmath=...)` copy of the kernel."""
    original = getattr(module, name)
    fresh = types.FunctionType(original.__code__, original.__globals__, name, original.__defaults__)
    return sc.symbolic(fastmath=fastmath)(fresh)


def vectorized(module: types.ModuleType, name: str, *args: object, fastmath: bool = True) -> bool:
    return "vectorized = True" in sc.source(fast(module, name, fastmath), *args)


def told(module: types.ModuleType, name: str, *args: object, fastmath: bool = True) -> str:
    return str(sc.explain(fast(module, name, fastmath), *args))


RNG = np.random.default_rng(10)
SIZES = [0, 1, 31, 32, 257, 1000]
# (kernel, the inputs for n elements): arguments after the output
MAPS: dict[str, Callable[[int], tuple[np.ndarray, ...]]] = {
    "exp_map": lambda n: (RNG.uniform(-700.0, 700.0, n),),
    "log_map": lambda n: (RNG.uniform(1e-300, 1e300, n) * RNG.random(n),),
    "np_log_map": lambda n: (RNG.uniform(0.0, 50.0, n) + 1e-9,),
    "sigmoid": lambda n: (RNG.uniform(-700.0, 700.0, n),),
    "tanh_map": lambda n: (RNG.standard_normal(n) * 5,),
    "power": lambda n: (RNG.uniform(0.0, 1e5, n),),
}
# within 8 units in the last place of the loop's values (measured over 200,000 doubles on the
# development machine, NumPy 2.4: np.exp 1 ulp (4.5% of them differ), np.log 0, np.tanh 3
# (26%), `**` 1, np.arctan2 1, the sigmoid 4)
MAX_ULP = 8


@pytest.mark.parametrize("name", sorted(MAPS))
@pytest.mark.parametrize("n", SIZES)
def test_close_element_maps_with_functions_under_fastmath(kernels: types.ModuleType, name: str, n: int) -> None:
    inputs = MAPS[name](n)
    expected, got = np.full(n, -1.0), np.full(n, -1.0)
    getattr(kernels, name)(expected, *inputs)
    function = compiled_for(kernels, name, (got, *inputs), fastmath=True)
    function(got, *inputs)
    np.testing.assert_array_max_ulp(got, expected, maxulp=MAX_ULP)
    assert got.dtype == np.float64
    assert "vectorized = True" in sc.source(function, got, *inputs)  # (run from 32 elements)


def test_close_element_maps_over_two_loops_and_with_locals(kernels: types.ModuleType) -> None:
    y, x = RNG.standard_normal((40, 9)), RNG.standard_normal((40, 9))
    x[0, :3] = [0.0, -0.0, 0.0]
    y[0, :3] = [0.0, 0.0, -0.0]
    expected, got = np.zeros((40, 9)), np.zeros((40, 9))
    kernels.angles(expected, y, x)
    fast(kernels, "angles")(got, y, x)
    np.testing.assert_array_max_ulp(got, expected, maxulp=MAX_ULP)
    assert np.array_equal(np.signbit(got[0, :3]), np.signbit(expected[0, :3]))  # atan2's signed zeros
    assert vectorized(kernels, "angles", got, y, x)
    values = RNG.standard_normal(300) * 30
    expected, got = np.zeros(300), np.zeros(300)
    kernels.gauss(expected, values, 3.0)
    fast(kernels, "gauss")(got, values, 3.0)
    np.testing.assert_allclose(got, expected, rtol=1e-13, atol=0)


@pytest.mark.parametrize("name, bad, error", [
    ("log_map", 0.0, "math domain error"),
    ("log_map", -0.0, "math domain error"),
    ("log_map", -2.5, "math domain error"),
    ("np_log_map", -2.5, None),  # np.log of an element warns "invalid value", returns NaN
    ("exp_map", 1000.0, "math range error"),
    ("sigmoid", -1000.0, "math range error"),
    ("power", -2.0, None),  # np.float64 ** 2.5 of a negative warns, returns NaN
    ("roots", -1.0, "math domain error"),
])
@pytest.mark.parametrize("state", ["default", "ignore", "raise"])
def test_same_exceptions_under_fastmath(kernels: types.ModuleType, name: str, bad: float, error: str | None,
                                        state: str) -> None:
    """fastmath relaxes rounding, never exceptions: `math.log(0.0)` raises ValueError and
    `math.exp(1000.0)` OverflowError after the same elements were written, whatever
    `np.seterr` says (the arrays record the error even where the state ignores it, and the
    loop runs); a NumPy scalar's warning is the loop's too."""
    values = np.abs(RNG.standard_normal(64)) + 0.5
    values[40] = bad
    with np.errstate(**({} if state == "default" else {"all": state})):
        observed = assert_equivalent(getattr(kernels, name), fast(kernels, name), (np.zeros(64), values))
    if error is not None:
        assert observed.exc_message == error


def test_never_wrong_math_functions_on_list_elements_stay_loops(kernels: types.ModuleType) -> None:
    """Lists compute with floating-point errors ignored (a float never warns), but a `math`
    function raises: `math.sqrt(-1.0)` of a list element must raise ValueError, not give NaN."""
    n = 12
    values = [[1.0] * n for _ in range(n)]
    values[3][4] = -1.0
    out = [[0.0] * n for _ in range(n)]
    with pytest.raises(ValueError, match="math domain error"):
        fast(kernels, "list_roots", fastmath=False)(out, values, n)
    assert_equivalent(kernels.list_roots, fast(kernels, "list_roots"), ([[0.0] * n for _ in range(n)], values, n))
    assert "calls functions on list elements" in told(kernels, "list_roots", out, values, n)


@pytest.mark.parametrize("name", sorted(MAPS) + ["angles", "gauss"])
def test_must_not_change_without_fastmath(kernels: types.ModuleType, name: str) -> None:
    args: tuple[object, ...]
    if name == "angles":
        args = (np.zeros((40, 9)), RNG.standard_normal((40, 9)), RNG.standard_normal((40, 9)))
    elif name == "gauss":
        args = (np.zeros(64), RNG.standard_normal(64), 2.0)
    else:
        args = (np.zeros(64), *MAPS[name](64))
    assert_equivalent(getattr(kernels, name), fast(kernels, name, fastmath=False), args)
    assert not vectorized(kernels, name, *args, fastmath=False)
    assert "allowed with fastmath=True" in told(kernels, name, *args, fastmath=False)


def test_never_wrong_float32_beside_math_functions_stays_a_loop(kernels: types.ModuleType) -> None:
    """`math.exp` returns a float: stored into float32 it is cast, and times a float32 element it
    is a float32 (NEP 50), where `np.exp` of the slices would be a float64 array."""
    a = RNG.standard_normal(64)
    assert_equivalent(kernels.exp_into32, fast(kernels, "exp_into32"), (np.zeros(64, np.float32), a))
    assert not vectorized(kernels, "exp_into32", np.zeros(64, np.float32), a)
    b32 = RNG.standard_normal(64).astype(np.float32)
    assert_equivalent(kernels.exp_times32, fast(kernels, "exp_times32"), (np.zeros(64), a, b32))
    assert not vectorized(kernels, "exp_times32", np.zeros(64), a, b32)
    assert "beside float32 elements" in told(kernels, "exp_times32", np.zeros(64), a, b32)
    a32 = a.astype(np.float32)
    assert_equivalent(kernels.exp_map, fast(kernels, "exp_map"), (np.zeros(64, np.float32), a32))
    assert not vectorized(kernels, "exp_map", np.zeros(64, np.float32), a32)
    assert type(kernels.exp_sum32(a, b32)) is np.float32  # a float plus float32 terms
    assert_equivalent(kernels.exp_sum32, fast(kernels, "exp_sum32"), (a, b32))
    assert not vectorized(kernels, "exp_sum32", a, b32)


def _within_sum_bound(got: object, expected: object, terms: np.ndarray) -> None:
    """The reordered sum within n * eps * sum|terms| of the loop's (both error bounds)."""
    bound = max(terms.size, 1) * EPS * float(np.sum(np.abs(terms)))
    assert abs(float(got) - float(expected)) <= bound  # type: ignore[arg-type]


@pytest.mark.parametrize("n", SIZES)
def test_close_sums_under_fastmath_keep_the_type(kernels: types.ModuleType, n: int) -> None:
    a, b = RNG.standard_normal(n) * 1e3, RNG.standard_normal(n)
    for name in ("dot", "dot_int_start"):
        expected, got = getattr(kernels, name)(a, b), fast(kernels, name)(a, b)
        assert type(got) is type(expected)  # np.float64 from n >= 1, else the start: 0.0 or 0
        _within_sum_bound(got, expected, a * b)
        assert vectorized(kernels, name, a, b)
    expected, got = kernels.norm(a), fast(kernels, "norm")(a)
    assert type(got) is type(expected)
    _within_sum_bound(got * got, expected * expected, a * a)
    expected, got = kernels.gauss_sum(b), fast(kernels, "gauss_sum")(b)
    assert type(got) is type(expected) and (n == 0 or type(got) is float)  # math.exp's floats
    _within_sum_bound(got, expected, np.exp(-b * b))


def test_close_sum_over_two_loops(kernels: types.ModuleType) -> None:
    a = RNG.standard_normal((30, 17))
    expected, got = kernels.total_2d(a), fast(kernels, "total_2d")(a)
    assert type(got) is type(expected)
    _within_sum_bound(got, expected, a)
    assert vectorized(kernels, "total_2d", a)
    assert "sum into s over 2 loops with np.sum (fastmath" in told(kernels, "total_2d", a)


def test_never_wrong_sums_that_may_overflow_in_another_order_run_the_loop(kernels: types.ModuleType) -> None:
    """`1e308 + 1e308 - 1e308 - 1e308` overflows in the loop's order and not pairwise: the
    reordered sum is taken only where no order can overflow, so these run the loop, with its
    result and its warning."""
    a = np.array([1e308, 1e308, -1e308, -1e308] * 40)
    ones = np.ones(160)
    for name, args in (("dot", (a, ones)), ("total_2d", (a.reshape(8, 20),)), ("norm", (a,))):
        observed = assert_equivalent(getattr(kernels, name), fast(kernels, name), args)
        assert any("overflow" in message for message in observed.warning_messages), name
    nan = RNG.standard_normal(160)
    nan[7] = np.nan
    assert_equivalent(kernels.dot, fast(kernels, "dot"), (nan, ones))


def test_same_warnings_underflow_in_a_dot_follows_the_error_state(kernels: types.ModuleType) -> None:
    """A BLAS kernel need not raise the underflow flag of its products: with underflow
    reported, the loop runs."""
    tiny = np.full(160, 1e-200)
    with np.errstate(under="warn"):
        observed = assert_equivalent(kernels.dot, fast(kernels, "dot"), (tiny, tiny))
    assert any("underflow" in message for message in observed.warning_messages)
    assert fast(kernels, "dot")(tiny, tiny) == 0.0


def test_never_wrong_sums_left_alone(kernels: types.ModuleType) -> None:
    """A term not moving with every loop (`s += a[i]` inside `for j`: each added m times), an
    int sum (a Python int never overflows, int64 does), and any sum without fastmath."""
    a = RNG.standard_normal(40)
    assert_equivalent(kernels.rows_repeated, fast(kernels, "rows_repeated"), (a, 40))
    assert not vectorized(kernels, "rows_repeated", a, 40)
    ints = np.arange(64, dtype=np.int64) * (2 ** 58)
    assert_equivalent(kernels.int_sum, fast(kernels, "int_sum"), (ints,))
    assert not vectorized(kernels, "int_sum", ints)
    b = RNG.standard_normal(40)
    assert_equivalent(kernels.dot, fast(kernels, "dot", fastmath=False), (a, b))
    assert not vectorized(kernels, "dot", a, b, fastmath=False)
    assert "np.sum or np.dot would round differently" in told(kernels, "dot", a, b, fastmath=False)


def test_explain_names_the_fastmath_rule(kernels: types.ModuleType) -> None:
    a = RNG.standard_normal(64)
    text = told(kernels, "exp_map", np.zeros(64), a)
    assert "vectorize loop i: element map with np.exp (fastmath: may differ in the last bit) (line 7)" in text
    assert "vectorize loop i: sum into s with np.dot (fastmath" in told(kernels, "dot", a, a)
    refused = told(kernels, "exp_map", np.zeros(64), a, fastmath=False)
    assert "np.exp on arrays may round differently from math.exp (last bit): allowed with fastmath=True" in refused


def test_same_warnings_a_quiet_nan_is_quiet(kernels: types.ModuleType) -> None:
    """NaN in, NaN out, no error in `math.exp`, `math.log`, nor in NumPy's loops: vectorized."""
    values = np.abs(RNG.standard_normal(64)) + 1.0
    values[5] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name in ("exp_map", "log_map"):
            got = np.zeros(64)
            fast(kernels, name)(got, values)
            assert math.isnan(got[5])
            assert vectorized(kernels, name, got, values)


@pytest.mark.parametrize("name", ["matmul", "matmul_k_outer"])
@pytest.mark.parametrize("n, p, m", [(1, 1, 32), (8, 5, 4), (40, 30, 20), (3, 70, 9), (9, 16, 2)])
def test_close_matrix_products_under_fastmath(kernels: types.ModuleType, name: str, n: int, p: int, m: int) -> None:
    """`c[i, j] += a[i, k] * b[k, j]` → `c + a @ b`: each element within p * eps * (|c| +
    sum|a[i, k] * b[k, j]|) of the loop's."""
    a, b, c = RNG.standard_normal((n, p)), RNG.standard_normal((p, m)), RNG.standard_normal((n, m))
    expected, got = c.copy(), c.copy()
    getattr(kernels, name)(expected, a, b)
    fast(kernels, name)(got, a, b)
    assert got.dtype == np.float64
    np.testing.assert_array_less(np.abs(got - expected), p * EPS * (np.abs(c) + np.abs(a) @ np.abs(b)) + 1e-300)
    assert "matrix product over k with np.matmul (fastmath: may differ in the last bit)" in told(kernels, name, got, a, b)


def test_never_wrong_matrix_products_that_may_overflow_keep_the_loops_order(kernels: types.ModuleType) -> None:
    """Where a sum could overflow in some order, or the error state reports underflow, the
    products are summed in the loop's order (the bits of the loop, its warnings)."""
    a, b = np.full((40, 30), 1e200), RNG.standard_normal((30, 20))
    b[0, :] = 1e200
    observed = assert_equivalent(kernels.matmul, fast(kernels, "matmul"), (np.zeros((40, 20)), a, b))
    assert any("overflow" in message for message in observed.warning_messages)
    # -1e308 + 1e200 * 2e108: the loop's product overflows; BLAS's fused multiply-add gives 1e308
    fused_a, fused_b = np.zeros((8, 16)), np.zeros((16, 8))
    fused_a[:, 0], fused_a[:, 1], fused_b[0, :], fused_b[1, :] = -1e308, 1e200, 1.0, 2e108
    observed = assert_equivalent(kernels.matmul, fast(kernels, "matmul"), (np.zeros((8, 8)), fused_a, fused_b))
    assert any("overflow" in message for message in observed.warning_messages)
    small = RNG.standard_normal((40, 30)) * 1e-160  # (30 >= 16: a @ b but for underflow)
    with np.errstate(under="warn"):
        observed = assert_equivalent(kernels.matmul, fast(kernels, "matmul"), (np.zeros((40, 20)), small, small.T.copy()))
    assert any("underflow" in message for message in observed.warning_messages)
    assert_equivalent(kernels.matmul, fast(kernels, "matmul", fastmath=False),
                      (np.zeros((40, 20)), RNG.standard_normal((40, 30)), RNG.standard_normal((30, 20))))


def test_never_slower_few_terms_run_the_loop(kernels: types.ModuleType) -> None:
    """A reordered sum's fixed cost is ~50 turns of the loop: from 128 terms (checked on entry;
    fewer known at compile time refuse)."""
    source = sc.source(fast(kernels, "dot"), RNG.standard_normal(200), RNG.standard_normal(200))
    assert "128 <= len(a)" in source


def test_close_reordered_sums_and_products_run_as_arrays(kernels: types.ModuleType) -> None:
    """Under the default error state the reordered sum and product are what runs, not only
    what is generated: `reordered_dot` and `reordered_matmul` read the caller's underflow
    mode, which the staging must keep visible (they once ran inside a staging recording every
    kind, saw underflow not ignored and fell back to the loop on every call)."""
    rng = np.random.default_rng(3)  # inputs on which the loop's order rounds differently
    a, b = rng.standard_normal(1000), rng.standard_normal(1000)
    assert fast(kernels, "dot")(a, b) == 0.0 + np.dot(a, b) != kernels.dot(a, b)
    c, left, right = rng.standard_normal((20, 30)), rng.standard_normal((20, 40)), rng.standard_normal((40, 30))
    looped, reordered = c.copy(), c.copy()
    kernels.matmul(looped, left, right)
    fast(kernels, "matmul")(reordered, left, right)
    assert np.array_equal(reordered, c + left @ right) and not np.array_equal(reordered, looped)
