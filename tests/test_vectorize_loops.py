"""vectorize_loops: loops over indices become array code with the same bits, exceptions,
warnings and aliasing as the loop, and loops it must not touch stay loops (with the reason in
the notes). Each kernel runs under the differential oracle on empty, one-element and larger
arrays, views, negative strides, aliased arguments and several dtypes."""

from __future__ import annotations

import types
import warnings
from typing import Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symcompile as sc
from symcompile.passes import vectorize_build
from symcompile.runtime.oracle import assert_equivalent, same_value
from tests.shared_versions import compiled, compiled_for

KERNELS = '''
import numpy as np

def scale_add(out, a, b, s):
    for i in range(len(a)):
        out[i] = a[i] * s + b[i]

def smooth(out, u):
    n = len(u)
    for i in range(1, n - 1):
        out[i] = (u[i - 1] + u[i] + u[i + 1]) / 3.0

def jacobi(new, u):
    n, m = u.shape
    for i in range(1, n - 1):
        for j in range(1, m - 1):
            new[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])

def jacobi_lists_style(new, u):
    for i in range(1, u.shape[0] - 1):
        for j in range(1, u.shape[1] - 1):
            new[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1])

def gauss_seidel(u):
    n, m = u.shape
    for i in range(1, n - 1):
        for j in range(1, m - 1):
            u[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])

def recurrence(z, c):
    for i in range(len(z) - 1):
        z[i + 1] = z[i] * z[i] + c

def two_statements(x, y, a):
    for i in range(len(a)):
        t = a[i] * 2.0
        x[i] = t + 1.0
        y[i] = x[i] * t

def in_place(a):
    for i in range(len(a)):
        a[i] = a[i] * 0.5 - 1.0

def shift_left(a):
    for i in range(len(a) - 1):
        a[i] = a[i + 1]

def shift_right(a):
    for i in range(len(a) - 1):
        a[i + 1] = a[i]

def accumulate(out, a):
    for i in range(len(a)):
        out[i] += a[i] * a[i]

def reversed_copy(out, a):
    n = len(a)
    for i in range(n):
        out[i] = a[n - 1 - i]

def backwards(out, a):
    for i in range(len(a) - 1, -1, -1):
        out[i] = a[i] - 1.0

def outer(out, x, y):
    for i in range(len(x)):
        for j in range(len(y)):
            out[i, j] = x[i] * y[j]

def transpose_add(out, a):
    n = a.shape[0]
    for i in range(n):
        for j in range(n):
            out[i, j] = a[i, j] + a[j, i]

def threshold(mask, a, level):
    for i in range(len(a)):
        mask[i] = a[i] > level

def column(out, a, k):
    for i in range(a.shape[0]):
        out[i] = a[i, k] * 2.0

def reads_past_the_end(out, a):
    for i in range(len(out)):
        out[i] = a[i + 1] + 1.0

def wraps_at_the_start(out, a):
    for i in range(len(out)):
        out[i] = a[i - 1] + 1.0

def int_add(out, a):
    for i in range(len(a)):
        out[i] = a[i] + a[i]

def int_compare(out, a, b):
    for i in range(len(a)):
        out[i] = a[i] < b[i]

def divide(out, a, b):
    for i in range(len(a)):
        out[i] = a[i] / b[i]

def uses_i(out):
    for i in range(len(out)):
        out[i] = i * 0.5

def loop_variable_read_after(out, a):
    for i in range(len(a)):
        out[i] = a[i] + 1.0
    return i

def exp_map(out, a):
    for i in range(len(a)):
        out[i] = np.exp(a[i])

def carried(out, a):
    s = 0.0
    for i in range(len(a)):
        out[i] = s
        s = a[i] * 2.0

def index_local(out, a):
    k = 0
    for i in range(len(a) - 1):
        out[i + k] = a[i] * 2.0
        k = 1

def rebinds_an_array(out, a, b):
    for i in range(len(out)):
        out[i] = a[i] + 1.0
        a = b

def clip_below(out, a, level):
    for i in range(len(a)):
        if a[i] < level:
            out[i] = level
        else:
            out[i] = a[i] * 2.0

def guarded_division(out, a, b):
    for i in range(len(a)):
        if b[i] != 0.0:
            out[i] = a[i] / b[i]

def masked_2d(out, a, x):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            if x[i] > 0.0:
                out[i, j] += a[i, j]

def reads_after_conditional(out, a):
    for i in range(len(a)):
        if a[i] > 0.0:
            out[i] = a[i]
        a[i] = out[i] + 1.0

def matmul(c, a, b):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            for k in range(a.shape[1]):
                c[i, j] += a[i, k] * b[k, j]

def matmul_k_outer(c, a, b):
    for k in range(a.shape[1]):
        for i in range(a.shape[0]):
            for j in range(b.shape[1]):
                c[i][j] += a[i][k] * b[k][j]

def matmul_k_middle(c, a, b):
    for i in range(a.shape[0]):
        for k in range(a.shape[1]):
            for j in range(b.shape[1]):
                c[i, j] = c[i, j] + a[i, k] * b[k, j]

def matmul_accumulator(c, a, b):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            acc = 0.0
            for k in range(a.shape[1]):
                acc += a[i, k] * b[k, j]
            c[i, j] = acc

def distances(out, p, q):
    for i in range(p.shape[0]):
        for j in range(q.shape[0]):
            s = 0.0
            for d in range(p.shape[1]):
                t = p[i, d] - q[j, d]
                s += t * t
            out[i, j] = s

def positive_row_sums(out, a):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            if a[i, j] > 0.0:
                out[i] += a[i, j]

def shifted_rows(c, a):
    for k in range(a.shape[1]):
        for i in range(a.shape[0] - 1):
            c[i] += c[i + 1] * a[i, k]

def chained_rows(c, a):
    for i in range(1, a.shape[0]):
        for k in range(a.shape[1]):
            c[i] += c[i - 1] * a[i, k]

def accumulator_read_after(c, a):
    for i in range(a.shape[0]):
        acc = 1.0
        for k in range(a.shape[1]):
            acc *= a[i, k]
        c[i] = acc
    return acc

def dot(x, y):
    s = 0.0
    for i in range(len(x)):
        s += x[i] * y[i]
    return s

def number_read_back(out, y, a):
    for i in range(len(a)):
        out[i] = 0.3
        y[i] = out[i] * 3.0 + a[i]

def shift_left_backwards(a):
    for i in range(len(a) - 2, -1, -1):
        a[i] = a[i + 1]

def shift_right_backwards(a):
    for i in range(len(a) - 1, 0, -1):
        a[i] = a[i - 1]

def diagonal(out, u):
    for i in range(u.shape[0]):
        out[i] = u[i, i] * 2.0

def fill_backwards(a, s):
    n = len(a)
    for i in range(2, n):
        a[n - 1 - i] = s

def guarded_scale(out, a, s):
    for i in range(len(a)):
        if a[i] > 100.0:
            out[i] = a[i] * s

def write_then_scale(out, y, a, s):
    for i in range(len(a)):
        out[i] = a[i] + 1.0
        y[i] = a[i] * s

def int8_mask_bits(out, a, s):
    for i in range(len(a)):
        if a[i] > 0:
            out[i] = a[i] & s

def time_steps(u, new, steps):
    for _ in range(steps):
        for i in range(1, len(u) - 1):
            new[i] = u[i] + 0.1 * (u[i - 1] - 2.0 * u[i] + u[i + 1])
        u[:] = new
    return u

def local_reused(square, shifted, x, y):
    for i in range(len(x)):
        s = x[i] * x[i]
        square[i] = s + 1.0
        shifted[i] = s * y[i]

def local_stored_then_scaled(a, b, x):
    for i in range(len(x)):
        s = x[i] - 1.0
        a[i] = s
        b[i] = s * 2.0

def local_float32_meets_float64(out, x, y):
    for i in range(len(x)):
        s = x[i] * x[i]
        out[i] = s * y[i]
'''


@pytest.fixture(autouse=True)
def array_code_at_every_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """The array code runs from one iteration on, so the small shapes here test it (by
    default below 32 iterations the loop runs: test_never_slower_small_loops_run_as_written)."""
    monkeypatch.setattr(vectorize_build, "MIN_ITERATIONS", 1)
    monkeypatch.setattr(vectorize_build, "MIN_ELEMENTS_PER_TURN", 1)


@pytest.fixture(scope="module")
def kernels(tmp_path_factory: pytest.TempPathFactory) -> types.ModuleType:
    from tests.source_module import import_source
    return import_source(KERNELS, tmp_path_factory.mktemp("vectorize") / "vectorize_kernels.py")


def said(function: Callable[..., object], *args: object) -> str:
    """The generated source of the version for `args` (notes included in `explain`)."""
    return sc.source(function, *args)


def vectorized(module: types.ModuleType, name: str, *args: object) -> bool:
    """Whether the kernel, compiled for `args`, runs its loop as array code."""
    return "vectorized = True" in said(compiled_for(module, name, args), *args)


def rng_array(shape: tuple[int, ...], dtype: object = np.float64, seed: int = 0) -> np.ndarray:
    values = np.random.default_rng(seed).standard_normal(shape) * 3
    return values.astype(dtype)


SIZES = [0, 1, 2, 7, 50]


VECTORIZED = {"scale_add", "smooth", "jacobi", "jacobi_lists_style", "two_statements", "in_place",
              "accumulate", "reversed_copy", "backwards", "outer", "transpose_add", "threshold",
              "column", "divide", "shift_left", "int_compare", "time_steps", "reads_past_the_end",
              "wraps_at_the_start", "clip_below", "guarded_division", "masked_2d", "matmul",
              "matmul_k_outer", "matmul_k_middle", "matmul_accumulator", "distances", "positive_row_sums",
              "number_read_back", "shift_right_backwards",
              "fill_backwards", "guarded_scale", "write_then_scale", "int8_mask_bits"}


def check(kernels: types.ModuleType, name: str, *args: object) -> None:
    original = getattr(kernels, name)
    fast = compiled_for(kernels, name, args)
    assert_equivalent(original, fast, args)
    assert_equivalent(original, fast, args)  # the compiled version, now cached
    if name in VECTORIZED and all(type(arg) is not np.ndarray or arg.dtype.kind in "fb" or name == "int_compare"
                                  for arg in args):
        assert "vectorized = True" in said(fast, *args)


@pytest.mark.parametrize("n", SIZES)
def test_same_bits_one_dimensional_maps(kernels: types.ModuleType, n: int) -> None:
    a, b = rng_array((n,)), rng_array((n,), seed=1)
    check(kernels, "scale_add", np.zeros(n), a, b, 1.5)
    check(kernels, "scale_add", np.zeros(n), a, b, 3)
    check(kernels, "smooth", np.zeros(n), a)
    check(kernels, "two_statements", np.zeros(n), np.zeros(n), a)
    check(kernels, "in_place", a.copy())
    check(kernels, "accumulate", b.copy(), a)
    check(kernels, "reversed_copy", np.zeros(n), a)
    check(kernels, "backwards", np.zeros(n), a)
    check(kernels, "threshold", np.zeros(n, dtype=bool), a, 0.5)
    check(kernels, "divide", np.zeros(n), a, b)
    check(kernels, "shift_left", a.copy())


@pytest.mark.parametrize("shape", [(0, 0), (1, 1), (2, 3), (3, 2), (9, 11)])
def test_same_bits_two_dimensional_maps(kernels: types.ModuleType, shape: tuple[int, int]) -> None:
    u = rng_array(shape)
    check(kernels, "jacobi", np.zeros(shape), u)
    check(kernels, "jacobi_lists_style", np.zeros(shape), u)
    check(kernels, "outer", np.zeros(shape), u[:, 0] if shape[1] else np.zeros(shape[0]),
          u[0] if shape[0] else np.zeros(shape[1]))
    check(kernels, "column", np.zeros(shape[0]), u, 0)
    check(kernels, "column", np.zeros(shape[0]), u, -1)


def check_views(kernels: types.ModuleType, name: str,
                make: Callable[[], tuple[tuple[object, ...], list[np.ndarray]]]) -> None:
    """Like `check` for arguments the oracle's deep copy would not keep as they are (views,
    negative strides, views of one array): `make` builds fresh arguments and the arrays to
    compare afterwards; the compiled version is the one for these very arguments."""
    outcomes = []
    for function in (getattr(kernels, name), compiled(kernels, name)):
        args, roots = make()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result: object = function(*args)
            except Exception as error:  # noqa: BLE001 - compared below
                result = (type(error), str(error))
        outcomes.append((result, roots, [(w.category, str(w.message)) for w in caught]))
    (result, roots, said_), (fast_result, fast_roots, fast_said) = outcomes
    assert same_value(result, fast_result) and said_ == fast_said
    assert all(same_value(a, b) for a, b in zip(roots, fast_roots))
    args, _ = make()
    if name in VECTORIZED:
        assert "vectorized = True" in said(compiled(kernels, name), *args)


@pytest.mark.parametrize("n", [0, 1, 6])
def test_same_bits_on_views_negative_strides_and_dtypes(kernels: types.ModuleType, n: int) -> None:
    def strided() -> tuple[tuple[object, ...], list[np.ndarray]]:
        base, out = rng_array((2 * n + 1,)), np.zeros(n)
        return (out, base[::2][:n]), [out, base]

    def reversed_() -> tuple[tuple[object, ...], list[np.ndarray]]:
        base, out = rng_array((2 * n + 1,)), np.zeros(2 * n + 1)
        return (out[::-1], base[::-1]), [out, base]

    def sub_block() -> tuple[tuple[object, ...], list[np.ndarray]]:
        base, out = rng_array((n + 1, n + 2)), np.zeros((n, n + 1))
        return (out, base[1:, 1:]), [out, base]

    def transposed() -> tuple[tuple[object, ...], list[np.ndarray]]:
        base, out = rng_array((n, n + 2)), np.zeros((n + 2, n))
        return (out, base.T), [out, base]

    def overlapping() -> tuple[tuple[object, ...], list[np.ndarray]]:
        base = rng_array((n + 2,))
        return (base[1:], base[:-1]), [base]

    check_views(kernels, "smooth", strided)
    check_views(kernels, "smooth", reversed_)
    check_views(kernels, "jacobi", sub_block)
    check_views(kernels, "jacobi", transposed)
    check_views(kernels, "in_place", lambda: ((rng_array((2 * n,))[::-2],), []))
    if n > 1:
        outcomes = [getattr(kernels, "smooth"), compiled(kernels, "smooth")]
        results = []
        for function in outcomes:
            (out, u), roots = overlapping()
            function(out, u)
            results.append(roots[0])
        assert same_value(*results)  # out and u overlap: the loop runs
    check(kernels, "scale_add", np.zeros(n, np.float32), rng_array((n,), np.float32),
          rng_array((n,), np.float32, seed=3), 0.1)
    check(kernels, "scale_add", np.zeros(n), rng_array((n,), np.float32), rng_array((n,), seed=2), 0.1)
    check(kernels, "transpose_add", np.zeros((n, n)), rng_array((n, n)))


def test_same_bits_complex_and_int8_left_alone_where_unsure(kernels: types.ModuleType) -> None:
    a = np.arange(-5, 5, dtype=np.int8)
    check(kernels, "int_compare", np.zeros(10, dtype=bool), a, a[::-1].copy())
    check(kernels, "int_add", np.zeros(10, dtype=np.int8), np.full(10, 100, dtype=np.int8))
    z = (rng_array((5,)) + 1j * rng_array((5,), seed=4))
    check(kernels, "scale_add", np.zeros(5, complex), z, z, 2.0)


def test_never_wrong_gauss_seidel_stays_a_loop(kernels: types.ModuleType) -> None:
    u = rng_array((6, 7))
    check(kernels, "gauss_seidel", u)
    assert "loop-carried dependence: u[i, j] reads u[i - 1, j]" in str(sc.explain(compiled(kernels, "gauss_seidel"), u))


def test_never_wrong_recurrence_stays_a_loop(kernels: types.ModuleType) -> None:
    z = np.full(8, 0.1)
    check(kernels, "recurrence", z, 0.2)
    assert "loop-carried dependence: z[i + 1] reads z[i]" in str(sc.explain(compiled(kernels, "recurrence"), z, 0.2))
    check(kernels, "shift_right", rng_array((9,)))


def test_never_wrong_aliased_output_runs_the_loop(kernels: types.ModuleType) -> None:
    a = rng_array((10,))
    check(kernels, "smooth", a, a)  # out is u: each step reads what the one before wrote
    check(kernels, "smooth", a[1:], a[:-1])
    check(kernels, "scale_add", a, a, a, 2.0)


@pytest.mark.parametrize("name", ["reads_past_the_end", "wraps_at_the_start"])
def test_same_index_error_out_of_range(kernels: types.ModuleType, name: str) -> None:
    check(kernels, name, np.zeros(5), rng_array((5,)))  # IndexError after 4 writes / wraps to a[-1]
    check(kernels, name, np.zeros(5), rng_array((6,)))


def test_same_warnings_overflow_and_division_by_zero(kernels: types.ModuleType) -> None:
    big = np.array([1.0, 1e308, 2.0, 3.0])
    check(kernels, "scale_add", np.zeros(4), big, big, 10.0)
    check(kernels, "divide", np.zeros(4), big, np.array([1.0, 0.0, 2.0, 0.0]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fast = compiled(kernels, "divide")
        out = np.zeros(4)
        with pytest.raises(RuntimeWarning, match="divide by zero encountered in scalar divide"):
            fast(out, big, np.array([1.0, 0.0, 2.0, 0.0]))
        assert out[0] == 1.0 and out[1] == 0.0  # the first element was written, as the loop does
    with np.errstate(all="raise"):
        out = np.zeros(4)
        with pytest.raises(FloatingPointError):
            fast(out, big, np.array([1.0, 0.0, 2.0, 0.0]))
        assert out[0] == 1.0


def test_vectorized_code_shown_with_the_rule(kernels: types.ModuleType) -> None:
    u = rng_array((5, 6))
    text = said(compiled(kernels, "jacobi"), np.zeros((5, 6)), u)
    # (`m - 1`, an int since `n, m = u.shape`, is computed once before the loop: `t`)
    assert "new[1:n - 1, 1:t] = " in text
    assert "u[0:n - 2, 1:t]" in text
    explained = str(sc.explain(compiled(kernels, "jacobi"), np.zeros((5, 6)), u))
    assert "vectorize loop i: element map over 2 loops" in explained


@pytest.mark.parametrize("name, args, reason", [
    ("int_add", (np.zeros(3, np.int64), np.ones(3, np.int64)), "integer arithmetic warns on overflow"),
    ("uses_i", (np.zeros(3),), "uses the loop variable i as a value"),
    ("loop_variable_read_after", (np.zeros(3), np.ones(3)), "i is read after the loop"),
    ("exp_map", (np.zeros(3), np.ones(3)), "may round differently"),
    ("shift_right", (np.ones(3),), "loop-carried dependence: a[i + 1] reads a[i]"),
])
def test_refusals_are_explained(kernels: types.ModuleType, name: str, args: tuple[object, ...],
                                reason: str) -> None:
    check(kernels, name, *args)
    assert reason in str(sc.explain(compiled(kernels, name), *args))


def test_inner_loop_of_a_time_loop_is_vectorized(kernels: types.ModuleType) -> None:
    u = rng_array((12,))
    check(kernels, "time_steps", u, np.zeros(12), 3)
    assert "vectorize loop i: element map" in str(sc.explain(compiled(kernels, "time_steps"), u, np.zeros(12), 3))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 12), st.integers(-3, 3), st.integers(-3, 3), st.sampled_from(["+", "-", "*", "/"]),
       st.sampled_from([np.float64, np.float32]), st.booleans())
def test_same_bits_element_maps_property(make_module: Callable[[str], types.ModuleType], n: int, lo: int,
                                         shift: int, op: str, dtype: type, strided: bool) -> None:
    module = make_module(f'''
        def f(out, a, b):
            for i in range({lo}, len(out) - 1):
                out[i] = a[i + {shift}] {op} b[i] {op} 0.75
        ''')
    a = rng_array((2 * n + 2,), dtype, seed=n)[::2 if strided else 1][:n + 1]
    b = rng_array((n + 1,), dtype, seed=n + 1)
    assert_equivalent(module.f, sc.symbolic(module.f), (np.zeros(n + 1, dtype), a, b))


def test_same_warnings_underflow_follows_the_error_state(kernels: types.ModuleType) -> None:
    tiny = np.array([1e-200, 1.0, 1e-200])
    check(kernels, "scale_add", np.zeros(3), tiny, np.zeros(3), 1e-200)  # underflow: ignored by both
    fast = compiled(kernels, "scale_add")
    fast(np.zeros(3), np.ones(3), np.zeros(3), 1.0)
    with np.errstate(under="warn"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = np.zeros(3)
        fast(out, tiny, np.zeros(3), 1e-200)
    assert [str(w.message) for w in caught] == ["underflow encountered in scalar multiply"] * 2
    assert out[1] == 1e-200


def test_same_warnings_errors_recorded_are_those_the_state_reports() -> None:
    """Every kind is recorded while the array code runs; those the state ignores are dropped
    after it (underflow by default), the others kept, and the state is restored."""
    tiny, huge = np.array([1e-200]), np.array([1e300])
    before = np.geterr()
    for seen in vectorize_build.floating_point_errors_recorded():
        _ = tiny * tiny, huge * huge, np.ones(1) / np.zeros(1)
    assert seen == ["overflow", "divide by zero"]
    assert np.geterr() == before
    with np.errstate(under="warn", over="ignore", divide="raise"):
        for seen in vectorize_build.floating_point_errors_recorded():
            _ = tiny * tiny, huge * huge, np.ones(1) / np.zeros(1)
        assert seen == ["underflow", "divide by zero"]
        assert np.geterr() == {**before, "under": "warn", "over": "ignore", "divide": "raise"}


def test_never_wrong_scalar_carried_between_iterations(kernels: types.ModuleType) -> None:
    args = (np.zeros(5), rng_array((5,)))
    check(kernels, "carried", *args)
    assert "s carries a value from one iteration to the next" in str(sc.explain(compiled(kernels, "carried"), *args))


def test_never_wrong_index_local_assigned_in_the_loop(kernels: types.ModuleType) -> None:
    check(kernels, "index_local", np.zeros(5), rng_array((5,)))


def test_never_wrong_array_rebound_in_the_loop(kernels: types.ModuleType) -> None:
    check(kernels, "rebinds_an_array", np.zeros(4), rng_array((4,)), rng_array((4,), seed=1))


@pytest.mark.parametrize("n", SIZES)
def test_same_bits_conditional_updates(kernels: types.ModuleType, n: int) -> None:
    a, b = rng_array((n,)), rng_array((n,), seed=1)
    check(kernels, "clip_below", np.zeros(n), a, 0.25)
    check(kernels, "guarded_division", np.full(n, -1.0), a, np.where(b > 0, b, 0.0))
    check(kernels, "masked_2d", np.ones((n, 3)), rng_array((n, 3)), a)


def test_never_wrong_skipped_division_by_zero_warns_nothing(kernels: types.ModuleType) -> None:
    """The branch the loop skips is computed for every element but its errors are only
    recorded: a zero divisor where the test is false runs the loop, which never divides."""
    b = np.array([1.0, 0.0, 2.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = np.zeros(3)
        compiled(kernels, "guarded_division")(out, np.ones(3), b)
    assert out.tolist() == [1.0, 0.0, 0.5]
    check(kernels, "guarded_division", np.zeros(3), np.ones(3), b)


def test_never_wrong_read_after_conditional_write_stays_a_loop(kernels: types.ModuleType) -> None:
    args = (np.zeros(6), rng_array((6,)))
    check(kernels, "reads_after_conditional", *args)
    assert "after a conditional write" in str(sc.explain(compiled(kernels, "reads_after_conditional"), *args))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n, p, m", [(0, 0, 0), (1, 1, 1), (2, 3, 4), (7, 5, 3), (0, 3, 2), (3, 0, 2)])
def test_same_bits_reductions_in_order(kernels: types.ModuleType, dtype: type, n: int, p: int, m: int) -> None:
    a, b = rng_array((n, p), dtype), rng_array((p, m), dtype, seed=1)
    for name in ("matmul", "matmul_k_outer", "matmul_k_middle", "matmul_accumulator"):
        check(kernels, name, rng_array((n, m), dtype, seed=2), a, b)
    check(kernels, "distances", np.zeros((n, m), dtype), a, rng_array((m, p), dtype, seed=3))
    check(kernels, "positive_row_sums", np.ones(n, dtype), a)


def test_same_bits_reduction_on_views_and_mixed_dtypes(kernels: types.ModuleType) -> None:
    a, b = rng_array((6, 10))[:, ::2], rng_array((5, 8)).T[::-1]
    for name in ("matmul", "matmul_accumulator"):
        assert_equivalent(getattr(kernels, name), compiled(kernels, name), (np.zeros((6, 5)), a, b))
    check(kernels, "matmul_accumulator", np.zeros((6, 5), np.float32), a.astype(np.float32), b.astype(np.float32))
    check(kernels, "matmul", np.zeros((6, 5)), a.astype(np.float32), b.copy())  # float32 * float64 elements


def test_never_wrong_reduction_into_an_aliased_output_runs_the_loop(kernels: types.ModuleType) -> None:
    a = rng_array((4, 4))
    check(kernels, "matmul", a, a, a)  # c is a: each update reads updated elements

    def halves() -> tuple[tuple[object, ...], list[np.ndarray]]:
        base = rng_array((4, 4))
        return (base[:, :2], base[:, 2:], rng_array((2, 2))), [base]

    check_views(kernels, "matmul_k_outer", halves)


def test_same_warnings_overflow_in_a_reduction(kernels: types.ModuleType) -> None:
    a = np.array([[1.0, 1e300], [1.0, 2.0]])
    check(kernels, "matmul", np.zeros((2, 2)), a, np.full((2, 2), 1e10))
    check(kernels, "matmul_accumulator", np.zeros((2, 2)), a, np.full((2, 2), 1e10))
    with np.errstate(all="raise"):
        out = np.zeros((2, 2))
        with pytest.raises(FloatingPointError):
            compiled(kernels, "matmul")(out, a, np.full((2, 2), 1e10))
        assert out[0, 0] == 1e10 and out[0, 1] == 0.0  # written up to the overflow, as the loop does


def test_reduction_shown_with_the_rule(kernels: types.ModuleType) -> None:
    args = (np.zeros((3, 2)), rng_array((3, 4)), rng_array((4, 2)))
    text = "".join(said(compiled(kernels, "matmul"), *args).split())  # as printed, wrapped anywhere
    assert "forkinrange(a.shape[1]):c_new=c_new+a[0:a.shape[0],k][:,None]*b[k,0:b.shape[1]]" in text
    explained = str(sc.explain(compiled(kernels, "matmul"), *args))
    assert "vectorize loop i: reduction in order over k (loops i, j as arrays)" in explained
    explained = str(sc.explain(compiled(kernels, "matmul_accumulator"), *args))
    assert "vectorize loop i: reduction in order over k (loops i, j as arrays)" in explained


@pytest.mark.parametrize("name, args, reason", [
    ("shifted_rows", (rng_array((4,)), rng_array((4, 3))), "c[i] is accumulated into while c[i + 1] is touched"),
    ("accumulator_read_after", (np.ones(4), rng_array((4, 3))), "acc is read after the loop"),
    ("chained_rows", (rng_array((4,)), rng_array((4, 3))), "accumulates into one element, c[i]: nothing to vectorize"),
])
def test_never_wrong_reductions_left_alone_are_explained(kernels: types.ModuleType, name: str,
                                                          args: tuple[object, ...], reason: str) -> None:
    check(kernels, name, *args)
    assert reason in str(sc.explain(compiled(kernels, name), *args))


def test_never_wrong_scalar_reduction_stays_a_loop(kernels: types.ModuleType) -> None:
    x, y = rng_array((9,)), rng_array((9,), seed=1)
    check(kernels, "dot", x, y)
    assert "vectorized" not in said(compiled(kernels, "dot"), x, y)


def test_never_wrong_stored_number_read_back_as_the_element_type(kernels: types.ModuleType) -> None:
    """`out[i] = 0.3` stores float32(0.3): a later `out[i] * 3.0` multiplies that, not 0.3."""
    for dtype in (np.float32, np.float64):
        check(kernels, "number_read_back", np.zeros(4, dtype), np.zeros(4, dtype), np.ones(4, dtype))


def test_never_slower_small_loops_run_as_written(kernels: types.ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """Below 32 iterations (8 elements per turn of a kept loop) the array code costs more than
    the loop saves (about 4 µs against 0.15 µs a turn): the entry check sends the call to the
    loop. What the version knows is too few refuses."""
    monkeypatch.setattr(vectorize_build, "MIN_ITERATIONS", 32)
    monkeypatch.setattr(vectorize_build, "MIN_ELEMENTS_PER_TURN", 8)
    a, b = rng_array((40,)), rng_array((40,), seed=1)
    text = "".join(said(compiled(kernels, "scale_add"), np.zeros(40), a, b, 1.5).split())
    assert "32<=len(a)" in text and "0<len(a)" not in text
    args = (np.zeros((3, 2)), rng_array((3, 40)), rng_array((40, 2)))
    text = "".join(said(compiled(kernels, "matmul"), *args).split())
    assert "32<=a.shape[0]*b.shape[1]*a.shape[1]and8<=a.shape[0]*b.shape[1]" in text
    for n in (0, 1, 31, 32, 33):
        check(kernels, "scale_add", np.zeros(n), a[:n], b[:n], 1.5)
    check(kernels, "matmul", *args)


def test_never_slower_too_few_iterations_known_refuses(make_module: Callable[[str], types.ModuleType],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vectorize_build, "MIN_ITERATIONS", 32)
    module = make_module('''
        def f(out, a):
            for i in range(30):
                out[i] = a[i] * 2.0
        ''')
    args = (np.zeros(30), rng_array((30,)))
    fast = sc.symbolic(module.f)
    assert_equivalent(module.f, fast, args)
    assert "30 iterations: too few for array code to pay" in str(sc.explain(fast, *args))


def test_never_wrong_backwards_loop_reading_ahead_stays_a_loop(kernels: types.ModuleType) -> None:
    """A loop stepping by -1 runs its larger indices first: `a[i] = a[i + 1]` backwards reads
    what the turn before wrote (found by the random array loops: the array code read old values)."""
    for n in (0, 1, 2, 7):
        check(kernels, "shift_left_backwards", rng_array((n,)))
        check(kernels, "shift_right_backwards", rng_array((n,)))
    a = rng_array((9,))
    assert "loop-carried dependence: a[i] reads a[i + 1]" in str(sc.explain(compiled(kernels, "shift_left_backwards"), a))
    assert "vectorized = True" in said(compiled(kernels, "shift_right_backwards"), a)


def test_never_wrong_diagonal_read_is_not_a_block(kernels: types.ModuleType) -> None:
    """`u[i, i]` is the diagonal, not `u[0:n, 0:n]` (found by the random array loops: the array
    code raised a ValueError broadcasting the block into `out`)."""
    for n in (0, 1, 5):
        check(kernels, "diagonal", np.zeros(n), rng_array((n, n)))
    u = rng_array((5, 5))
    assert "u[i, i] indexes two axes with one loop variable" in str(sc.explain(compiled(kernels, "diagonal"), np.zeros(5), u))


def test_same_warnings_number_stored_into_float32_overflows(kernels: types.ModuleType) -> None:
    """Storing 1e308 into a float32 array warns 'overflow encountered in cast' once per element
    in the loop, once for a slice: the cast is done where its overflow is recorded, which sends
    the call to the loop (found by the random array loops: one warning instead of four)."""
    for value in (1e308, 0.1, -0.0, float("nan")):
        check(kernels, "fill_backwards", np.zeros(6, np.float32), value)
    for number in (3, 2 ** 70, 10 ** 400):
        assert_equivalent(kernels.fill_backwards, compiled(kernels, "fill_backwards"), (np.zeros(6, np.float32), number))
    check(kernels, "fill_backwards", np.zeros(6), 1e308)
    assert "float32(s)" in said(compiled(kernels, "fill_backwards"), np.zeros(6, np.float32), 0.1)


def test_same_warnings_huge_number_compared_with_float32(kernels: types.ModuleType) -> None:
    """`a[i] > 2 ** 200` with float32 elements casts the int to float32, which overflows: the
    loop warns once per element, so the comparison's cast is recorded too and the call goes
    to the loop (found by probing what the random array loops suggested)."""
    a = rng_array((6,), np.float32)
    for level in (-2 ** 1000, 4 * 10 ** 38, 2 ** 70, 1e308, 0.5):
        check(kernels, "threshold", np.zeros(6, dtype=bool), a, level)


def test_never_wrong_huge_int_raises_where_the_loop_raises(kernels: types.ModuleType) -> None:
    """`a[i] * 10 ** 400` raises OverflowError converting the int: the loop raises at the first
    element it computes it for (never, under an `if` no element passes; after writing `out[0]`
    in a body writing `out[i]` first), so the array code runs only for ints in the range of the
    array's type, checked on entry (found by the random array loops: the array code raised
    where the loop returned)."""
    a = rng_array((8,))
    for s in (3, 10 ** 400, -2 ** 1100):
        assert_equivalent(kernels.guarded_scale, compiled(kernels, "guarded_scale"), (np.zeros(8), a, s))
        assert_equivalent(kernels.write_then_scale, compiled(kernels, "write_then_scale"),
                          (np.zeros(8), np.zeros(8), a, s))
    b = np.arange(-4, 4, dtype=np.int8)
    for s in (3, 300, -2 ** 70):
        assert_equivalent(kernels.int8_mask_bits, compiled(kernels, "int8_mask_bits"), (np.zeros(8, np.int8), b, s))
    assert "vectorized = True" in said(compiled(kernels, "guarded_scale"), np.zeros(8), a, 3)
    assert "-128 <= s <= 127" in said(compiled(kernels, "int8_mask_bits"), np.zeros(8, np.int8), b, 3)


def test_same_warnings_complex_elements_are_not_ordered(kernels: types.ModuleType) -> None:
    """`a[i] > level` of complex128 elements: NumPy's array comparison warns 'invalid value
    encountered' for NaN where the scalar comparison does not, so the loop stays a loop (found
    by the fuzz kind "loops", seed 2002263)."""
    z = rng_array((6,)) + 1j * rng_array((6,), seed=5)
    z[2] = complex(np.nan, 1.0)
    check(kernels, "threshold", np.zeros(6, dtype=bool), z, 0.0)
    assert "orders complex numbers" in str(sc.explain(compiled(kernels, "threshold"), np.zeros(6, dtype=bool), z, 0.0))
    check(kernels, "threshold", np.zeros(6, dtype=bool), rng_array((6,), np.float16), 1e308)


@pytest.mark.parametrize("n", SIZES)
def test_never_wrong_a_dead_local_is_computed_into(kernels: types.ModuleType, n: int) -> None:
    """The last operation reading a local's new array computes into it (`multiply(s_2, ...,
    out=s_2)`) only where nothing reads it after, no other name holds it, and the result has
    its dtype: same bits whatever the shape; a local also stored, or a float32 local meeting
    float64, keeps its array."""
    x, y = rng_array((n,)), rng_array((n,), seed=1)
    check(kernels, "local_reused", np.zeros(n), np.zeros(n), x, y)
    check(kernels, "local_stored_then_scaled", np.zeros(n), np.zeros(n), x)
    check(kernels, "local_float32_meets_float64", np.zeros(n), x.astype(np.float32), y)
    check(kernels, "local_float32_meets_float64", np.zeros(n, np.float32), x.astype(np.float32), y.astype(np.float32))
    base = rng_array((3 * n + 1,))
    check(kernels, "local_reused", np.zeros(n), np.zeros(n), base[::-3][:n].copy(), y)
    assert "out=s_2" in said(compiled(kernels, "local_reused"), np.zeros(40), np.zeros(40), x[:1].repeat(40), y[:1].repeat(40))
    assert "out=" not in said(compiled(kernels, "local_stored_then_scaled"), np.zeros(40), np.zeros(40), np.ones(40))
    assert "out=" not in said(compiled(kernels, "local_float32_meets_float64"), np.zeros(40),
                              np.ones(40, np.float32), np.ones(40))


OPERATORS = ["+", "-", "*", "/"]
DTYPES = [np.float64, np.float32]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(OPERATORS), min_size=3, max_size=3), st.sampled_from(DTYPES),
       st.sampled_from(DTYPES), st.sampled_from(DTYPES), st.booleans(), st.booleans(), st.booleans(),
       st.sampled_from([0, 1, 5, 40]), st.sampled_from([0.5, 1e300, 0.0, float("nan")]))
def test_never_wrong_dead_locals_property(make_module: Callable[[str], types.ModuleType], ops: list[str],
                                          x_type: type, y_type: type, out_type: type, stored: bool,
                                          flipped: bool, strided: bool, n: int, s: float) -> None:
    """A local read by later statements, the last one computing into it where that is exact:
    random operators, dtypes (float32 locals meeting float64), the local also stored, the
    local as the right operand, views, overflow and NaN."""
    last = f"y[i] {ops[2]} t" if flipped else f"t {ops[2]} y[i]"
    module = make_module(f'''
        def f(o1, o2, x, y, s):
            for i in range(len(x)):
                t = x[i] {ops[0]} y[i]
                o1[i] = {"t" if stored else f"t {ops[1]} s"}
                o2[i] = {last}
        ''')
    x = rng_array((3 * n,), x_type, seed=n)[::3 if strided else 1][:n]
    y = rng_array((n,), y_type, seed=n + 1)
    outputs = [np.result_type(x_type, y_type)] * 2 if stored else [out_type, out_type]
    for arrays in ((np.zeros(n, outputs[0]), np.zeros(n, outputs[1])),):
        assert_equivalent(module.f, sc.symbolic(module.f), (*arrays, x, y, s))
