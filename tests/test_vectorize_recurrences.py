"""vectorize_loops on exact recurrences (symcompile/passes/vectorize_recurrences.py): running
sums as `np.add.accumulate` (a sequential loop: the same additions in the same order), running
maxima and minima as `np.maximum.accumulate` where it keeps the loop's bits (no NaN, zeros of
one sign) and the loop's own comparisons otherwise. First the NumPy facts this relies on,
checked by bits; then the kernels against their loops (the differential oracle) over shapes 0,
1, 2, 31, 32 and larger, NaN, ±inf, -0.0, float32, views and negative strides; then what stays
a loop, and why."""

from __future__ import annotations

import types
import warnings
from typing import Callable

import numpy as np
import pytest

import symcompile as sc
from symcompile.passes.vectorize_recurrences import final_extreme, last_extreme, running_extreme, running_sum
from symcompile.runtime.oracle import assert_equivalent, same_value
from tests.source_module import import_source
from tests.shared_versions import compiled, compiled_for
from tests.test_vectorize_loops import said, vectorized

KERNELS = '''
import numpy as np

def running(out, x):
    for i in range(1, len(x)):
        out[i] = out[i - 1] + x[i]

def running_swapped(out, x, y):
    for i in range(1, len(x)):
        out[i] = (x[i] - y[i]) * 0.5 + out[i - 1]

def cumulative_trapz(out, y, dx):
    s = 0.0
    for i in range(1, len(y)):
        s += 0.5 * (y[i] + y[i - 1]) * dx
        out[i] = s
    return out

def balance(out, deposits, start):
    s = start
    for i in range(len(deposits)):
        s = s - deposits[i]
        out[i] = s * 2.0
    return s

def peaks(out, x):
    m = x[0]
    for i in range(len(x)):
        if x[i] > m:
            m = x[i]
        out[i] = m

def peaks_ge(out, x):
    m = -np.inf
    for i in range(len(x)):
        if m <= x[i]:
            m = x[i]
        out[i] = m

def troughs(out, x, start):
    m = start
    for i in range(len(x)):
        if x[i] < m:
            m = x[i]
        out[i] = m
    return m

def peaks_call(out, x):
    m = x[0]
    for i in range(len(x)):
        m = max(m, x[i])
        out[i] = m
    return m

def peaks_call_swapped(out, x):
    m = x[0]
    for i in range(len(x)):
        m = max(x[i] * 2.0, m)
        out[i] = m - 1.0

def troughs_call(out, x):
    m = x[0]
    for i in range(len(x)):
        m = min(m, x[i])
        out[i] = m

def cumulative_trapz_made(y, dx):
    out = np.zeros(len(y))
    s = 0.0
    for i in range(1, len(y)):
        s += 0.5 * (y[i] + y[i - 1]) * dx
        out[i] = s
    return out

def made_float32(y):
    out = np.zeros(len(y), dtype=np.float32)
    for i in range(len(y)):
        out[i] = y[i] * 2.0
    return out

def made_twice(y, flag):
    out = np.zeros(len(y))
    if flag:
        out = [0.0] * len(y)
    for i in range(len(y)):
        out[i] = y[i] * 2.0
    return out

def max_drawdown(prices):
    peak = prices[0]
    worst = 0.0
    for p in prices:
        if p > peak:
            peak = p
        dd = (peak - p) / peak
        if dd > worst:
            worst = dd
    return worst

def largest(x):
    best = -1.0
    for v in x:
        if v > best:
            best = v
    return best

def window_max(out, a, w):
    for i in range(len(out)):
        m = a[i]
        for k in range(i + 1, i + w):
            if a[k] > m:
                m = a[k]
        out[i] = m

def int_sum(out, x):
    s = 0
    for i in range(len(x)):
        s += x[i]
        out[i] = s

def int_elements(out, x):
    s = out[0]
    for i in range(len(x)):
        s = s + x[i]
        out[i] = s

def dot(a, b):
    s = 0.0
    for i in range(len(a)):
        s += a[i] * b[i]
    return s

def exclusive_scan(out, x):
    s = 0.0
    for i in range(len(x)):
        out[i] = s
        s += x[i]

def plain_seed_scaled(out, x):
    m = 0.5
    for i in range(len(x)):
        if x[i] > m:
            m = x[i]
        out[i] = m * 3.0
'''


@pytest.fixture(scope="module")
def kernels(tmp_path_factory: pytest.TempPathFactory) -> types.ModuleType:
    return import_source(KERNELS, tmp_path_factory.mktemp("recurrences") / "recurrence_kernels.py")


RNG = np.random.default_rng(20)
SIZES = (0, 1, 2, 31, 32, 33, 200)


def special(n: int, dtype: type = np.float64, every: int = 7) -> np.ndarray:
    """Normal values with NaN, ±inf, -0.0 and 0.0 among them (every `every`-th)."""
    values = RNG.standard_normal(n) * 2.0
    for k, value in zip(range(3, n, every), (np.nan, np.inf, -np.inf, -0.0, 0.0, 1.5)):
        values[k] = value
    return values.astype(dtype)


def plain(n: int, dtype: type = np.float64) -> np.ndarray:
    return (RNG.standard_normal(n) * 2.0).astype(dtype)


def same(module: types.ModuleType, name: str, *args: object) -> None:
    assert_equivalent(getattr(module, name), compiled_for(module, name, args), args)


def bits_equal(a: np.ndarray, b: np.ndarray) -> bool:
    """The same dtype, shape and bits, NaNs of either sign alike (as the oracle compares)."""
    nan = np.isnan(a) & np.isnan(b)
    return a.dtype == b.dtype and a.shape == b.shape and bool(np.all(
        nan | ((a == b) & (np.signbit(a) == np.signbit(b)))))


# ------------------------------------------------------------------ the NumPy facts


def loop_sum(seed: object, values: np.ndarray) -> np.ndarray:
    out = np.empty(len(values), values.dtype)
    s = seed
    for k, v in enumerate(values):
        s = s + v
        out[k] = s
    return out


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_same_bits_add_accumulate_is_the_loop_s_additions(dtype: type) -> None:
    """`np.add.accumulate` adds in the loop's order (NumPy documents its result as that of
    `t = op(t, A[i])`; `np.sum` is pairwise): checked by bits on lengths 0..1000, with NaN,
    ±inf and -0.0, on contiguous, strided and reversed arrays; the first addition is
    `seed + x[0]` (`0.0 + -0.0` is 0.0: the seed is never dropped)."""
    lengths = list(range(0, 40)) + [int(n) for n in RNG.integers(40, 1001, 40)]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for n in lengths:
            base = special(3 * n + 2, dtype, every=max(3, n // 5 + 1)) * dtype(10.0) ** RNG.integers(-3, 4)
            for values in (base[:n], base[1:2 * n + 1:2], base[n - 1::-1][:n] if n else base[:0], base[::-3][:n]):
                for seed in (0.0, -0.0, dtype(1.25), float(values[0]) if n else 1.0):
                    assert bits_equal(running_sum(seed, values, "add"), loop_sum(seed, values))


def test_same_bits_int64_accumulate_wraps_where_python_ints_do_not() -> None:
    """Why integer accumulators stay loops: int64 accumulate wraps silently (as the int64
    scalar loop does, after warning), a Python int accumulator never wraps."""
    x = np.array([2 ** 62, 2 ** 62, 1], dtype=np.int64)
    assert np.add.accumulate(x)[1] < 0
    total = 0
    for v in x.tolist():
        total += v
    assert total == 2 ** 63 + 1


def test_same_bits_maximum_differs_from_the_comparison_only_at_nan_and_signed_zeros() -> None:
    """`if v > m: m = v` keeps the first of equal values and ignores a NaN `v`; np.maximum
    propagates NaN and, of 0.0 and -0.0, returns the second: so the accumulate is used only
    without NaN and with zeros of one sign (equal values then have equal bits)."""
    assert np.signbit(np.maximum.accumulate(np.array([0.0, -0.0]))[1])
    assert not np.signbit(running_extreme(0.0, np.array([-0.0, 1.0]), "gt")[0])
    assert np.isnan(np.maximum.accumulate(np.array([1.0, np.nan, 2.0]))[2])
    assert running_extreme(1.0, np.array([np.nan, 2.0]), "gt").tolist() == [1.0, 2.0]
    assert np.isnan(running_extreme(1.0, np.array([np.nan, 2.0]), "nlt")[0])  # max(v, m)


@pytest.mark.parametrize("op", ["gt", "ge", "lt", "le", "nlt", "ngt"])
def test_same_bits_running_extreme_is_the_loop(op: str) -> None:
    tests = {"gt": lambda v, m: v > m, "ge": lambda v, m: v >= m, "lt": lambda v, m: v < m,
             "le": lambda v, m: v <= m, "nlt": lambda v, m: not m > v, "ngt": lambda v, m: not m < v}
    for n in (0, 1, 2, 5, 40, 300):
        for values in (special(n), plain(n), np.abs(plain(n)), special(n, np.float32), -np.abs(special(n))):
            for seed in (values.dtype.type(0.0), values.dtype.type(-0.0), values.dtype.type(np.nan),
                         values.dtype.type(-np.inf), values[n // 2] if n else values.dtype.type(1.0)):
                out = np.empty(n, values.dtype)
                m = seed
                for k, v in enumerate(values):
                    if tests[op](v, m):
                        m = v
                    out[k] = m
                running = running_extreme(seed, values, op)
                assert bits_equal(running, out)
                if n:
                    assert same_value(last_extreme(seed, values, running, op), m)
                    assert same_value(final_extreme(seed, values, op), m)


# ------------------------------------------------------------------ the kernels


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_same_bits_running_sums(kernels: types.ModuleType, n: int, dtype: type) -> None:
    for x in (special(n, dtype), plain(n, dtype)):
        y = plain(n, dtype)
        out = plain(n, dtype)
        same(kernels, "running", out, x)
        same(kernels, "running_swapped", out, x, y)
        for dx in (0.1, -0.0, 1e300):
            same(kernels, "cumulative_trapz", np.zeros(n, dtype), x, dx)
        for start in (0.0, -0.0, 1.5, dtype(2.5), np.float64(3.0), 7, 1e300):
            same(kernels, "balance", np.zeros(n, dtype), x, start)
    if n >= 32:
        x = plain(n, dtype)
        assert vectorized(kernels, "running", plain(n, dtype), x)
        assert vectorized(kernels, "running_swapped", plain(n, dtype), x, x + 1)
        assert vectorized(kernels, "cumulative_trapz", np.zeros(n, dtype), x, 0.1)
        assert vectorized(kernels, "balance", np.zeros(n, dtype), x, 0.0)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_same_bits_running_maxima_and_minima(kernels: types.ModuleType, n: int, dtype: type) -> None:
    for x in (special(n, dtype), plain(n, dtype), np.abs(plain(n, dtype)), -np.abs(special(n, dtype))):
        for name in ("peaks", "peaks_ge", "peaks_call", "peaks_call_swapped", "troughs_call"):
            if n:
                same(kernels, name, np.zeros(n, dtype), x)
        for start in (0.0, -0.0, np.nan, np.inf, dtype(0.5), 3):
            same(kernels, "troughs", np.zeros(n, dtype), x, start)
        same(kernels, "largest", x)
        same(kernels, "plain_seed_scaled", np.zeros(n, dtype), x)
    if n >= 32:
        x = special(n, dtype)
        for name in ("peaks", "peaks_ge", "peaks_call", "peaks_call_swapped", "troughs_call"):
            assert vectorized(kernels, name, np.zeros(n, dtype), x), name
        assert vectorized(kernels, "troughs", np.zeros(n, dtype), x, 0.0)
        assert vectorized(kernels, "largest", x)


@pytest.mark.parametrize("n", SIZES)
def test_same_bits_max_drawdown(kernels: types.ModuleType, n: int) -> None:
    """The real kernel: a running peak (`for p in prices`), the drawdown from it, and the
    largest drawdown, read after the loop (0.0, a Python float, where none is positive)."""
    rising = np.arange(1.0, n + 1.0)
    walk = 100.0 + np.cumsum(plain(n))
    for prices in (walk, rising, rising[::-1].copy(), special(n) + 50.0, np.zeros(n), -walk):
        if n:
            same(kernels, "max_drawdown", prices)
    if n >= 32:
        assert vectorized(kernels, "max_drawdown", walk)
        assert type(compiled(kernels, "max_drawdown")(rising)) is float


@pytest.mark.parametrize("n", SIZES)
def test_same_bits_arrays_the_function_makes_by_len(kernels: types.ModuleType, n: int) -> None:
    """`out = np.zeros(len(y))` (value_types cannot type `len(y)`: `len` may be rebound) is an
    array of the dtype named, checked on entry (`type(out) is ndarray and out.dtype is float64
    and out.ndim == 1`); a name bound twice is not."""
    for dtype in (np.float64, np.float32):
        y = special(n, dtype)
        same(kernels, "cumulative_trapz_made", y, 0.1)
        same(kernels, "made_float32", y)
        same(kernels, "made_twice", y, False)
        same(kernels, "made_twice", y, True)
    if n >= 32:
        assert vectorized(kernels, "cumulative_trapz_made", plain(n), 0.1)
        assert vectorized(kernels, "made_float32", plain(n, np.float32))
        assert not vectorized(kernels, "made_float32", plain(n))  # float64 values into float32
        assert not vectorized(kernels, "made_twice", plain(n), False)


def test_same_bits_on_views_and_negative_strides(kernels: types.ModuleType) -> None:
    base = special(900)
    for name, make in (("running", lambda view: (view.copy(), view)),
                       ("peaks", lambda view: (np.zeros(len(view)), view)),
                       ("cumulative_trapz", lambda view: (np.zeros(len(view)), view, 0.25)),
                       ("max_drawdown", lambda view: (np.abs(view) + 1.0,))):
        for view in (base[::-1], base[::3], base[100:400], base.reshape(30, 30)[:, 3]):
            original, fast = getattr(kernels, name), compiled(kernels, name)
            expected_args, args = make(view.copy()), make(view)
            with warnings.catch_warnings(record=True) as warned:
                warnings.simplefilter("always")
                expected = original(*expected_args)
                got = fast(*args)
            assert same_value(got, expected), name
            assert all(same_value(a, b) for a, b in zip(args, expected_args)), name
            messages = [str(w.message) for w in warned]
            assert messages[:len(messages) // 2] == messages[len(messages) // 2:], name
    assert vectorized(kernels, "running", base[::-1].copy(), base[::-1])
    assert vectorized(kernels, "max_drawdown", np.abs(base[::-3]) + 1.0)


def test_never_wrong_aliased_running_sum_runs_the_loop(kernels: types.ModuleType) -> None:
    """`running(x, x)` reads what it writes: the loop runs (not `may_share_memory`)."""
    x = plain(100)
    expected = x.copy()
    getattr(kernels, "running")(expected, expected)
    got = x.copy()
    compiled(kernels, "running")(got, got)
    assert bits_equal(got, expected)


def test_same_warnings_overflow_in_a_running_sum(kernels: types.ModuleType) -> None:
    """An overflowing addition: the loop runs, so the warnings (or the exception under
    `np.errstate(over='raise')`, after the same elements were written) are the loop's."""
    x = np.full(64, 1e308)
    same(kernels, "running", np.zeros(64), x)
    same(kernels, "cumulative_trapz", np.zeros(64), x, 1.0)
    with np.errstate(over="raise"):
        same(kernels, "running", np.zeros(64), x)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        compiled(kernels, "running")(np.zeros(64), x)
    assert {str(w.message) for w in seen} == {"overflow encountered in scalar add"}


def test_same_bits_a_huge_seed_into_float32(kernels: types.ModuleType) -> None:
    """`1e300 + float32` casts 1e300 to float32 (inf, "overflow encountered in cast"): as
    storing it into the float32 array does."""
    same(kernels, "balance", np.zeros(64, np.float32), plain(64, np.float32), 1e300)


# ------------------------------------------------------------------ what stays a loop


LEFT_ALONE: list[tuple[str, Callable[[], tuple[object, ...]], str]] = [
    ("int_sum", lambda: (np.zeros(64, np.int64), np.arange(64)),
     "accumulates integers x[i]: an accumulate wraps, int64 scalars warn"),
    ("int_elements", lambda: (np.zeros(64, np.int64), np.arange(64)), "accumulates integers"),
    ("exclusive_scan", lambda: (np.zeros(64), plain(64)), "s carries a value from one iteration to the next"),
    ("window_max", lambda: (np.zeros(64), plain(80), 16),
     "a maximum in an inner loop: its entry check would cost every outer turn"),
]


@pytest.mark.parametrize("name, make, reason", LEFT_ALONE, ids=[case[0] for case in LEFT_ALONE])
def test_never_wrong_recurrences_left_alone_are_explained(kernels: types.ModuleType, name: str,
                                                          make: Callable[[], tuple[object, ...]],
                                                          reason: str) -> None:
    same(kernels, name, *make())
    assert not vectorized(kernels, name, *make())
    assert reason in str(sc.explain(compiled(kernels, name), *make()))


def test_never_wrong_a_plain_seed_in_arithmetic_is_checked(kernels: types.ModuleType) -> None:
    """`m = 0.5` (a Python float) multiplied before any element replaced it computes as a
    float, not as an element: the array code runs only for a NumPy-scalar seed (so never
    here), and the results are the loop's either way."""
    x = plain(64, np.float32)
    same(kernels, "plain_seed_scaled", np.zeros(64, np.float32), x)
    assert "m starts as a float, not a float32 scalar (a float computed with rounds apart)" in str(sc.explain(compiled(kernels, "plain_seed_scaled"), np.zeros(64, np.float32), x))


def test_never_wrong_a_sum_read_only_after_the_loop_stays_a_loop(kernels: types.ModuleType) -> None:
    """`s += a[i] * b[i]` read only after the loop is a reduction (tests/test_vectorize_loops:
    it stays a loop); a running sum needs its running values read in the body."""
    a, b = plain(64), plain(64)
    same(kernels, "dot", a, b)
    assert "vectorized" not in said(compiled(kernels, "dot"), a, b)


def test_explain_names_the_rule(kernels: types.ModuleType) -> None:
    x = plain(64)
    assert "vectorize loop i: running sum" in str(sc.explain(compiled(kernels, "running"), x.copy(), x))
    assert "vectorize loop i: running maximum" in str(sc.explain(compiled(kernels, "peaks"), x.copy(), x))
    assert "vectorize loop i: running minimum" in str(sc.explain(compiled(kernels, "troughs_call"), x.copy(), x))
    text = str(sc.explain(compiled(kernels, "max_drawdown"), np.abs(x) + 1.0))
    assert "vectorize loop p: running maximum, maximum" in text
