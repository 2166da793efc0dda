"""vectorize_loops on two loop shapes of real kernels: an if/elif chain of element tests whose
branches store elements (`clip_in_place`: masks `m1 = t1`, `m2 = ~m1 & t2`, the elif's test
read before any write of the iteration), and a counting reduction (`count_crossings`: an int
local increased by an int constant under an element test, `count + C * count_nonzero(mask)`),
with chained comparisons of elements. The same bits, exceptions and warnings as the loop; the
loop kept where they could differ."""

from __future__ import annotations

import types
import warnings

import numpy as np
import pytest

import symcompile as sc
from symcompile.runtime.oracle import assert_equivalent
from tests.source_module import import_source
from tests.shared_versions import compiled, compiled_for
from tests.test_vectorize_loops import said, vectorized

KERNELS = '''
import numpy as np

def clip_in_place(a, lo, hi):
    out = a.copy()
    for i in range(len(out)):
        if out[i] > hi:
            out[i] = hi
        elif out[i] < lo:
            out[i] = lo
    return out

def clip_argument(out, lo, hi):
    for i in range(len(out)):
        if out[i] > hi:
            out[i] = hi
        elif out[i] < lo:
            out[i] = lo

def clip_else(out, a, lo, hi):
    for i in range(len(a)):
        if a[i] > hi:
            out[i] = hi
        elif a[i] < lo:
            out[i] = lo * 2.0
        else:
            out[i] = a[i] / lo

def clip_scaled(a, lo, hi):
    out = a.copy()
    for i in range(len(out)):
        if out[i] > hi:
            out[i] = hi
        elif out[i] < lo:
            out[i] = out[i] * 0.5
    return out

def count_crossings(signal, level):
    count = 0
    for i in range(1, len(signal)):
        if signal[i - 1] < level <= signal[i]:
            count += 1
    return count

def count_bands(a, lo, hi):
    below = 0
    above = 10
    for i in range(len(a)):
        if a[i] < lo:
            below += 1
        elif a[i] > hi:
            above -= 3
    return below, above

def count_grid(img, t):
    h, w = img.shape
    n = 0
    for i in range(h):
        for j in range(w):
            if img[i, j] > t:
                n += 2
    return n

def count_and_clip(out, a, t):
    clipped = 0
    for i in range(len(a)):
        if a[i] > t:
            out[i] = t
            clipped += 1
    return clipped

def count_read_inside(a):
    count = 0
    for i in range(len(a)):
        if a[i] > count:
            count += 1
    return count

def count_float(a, t):
    count = 0.0
    for i in range(len(a)):
        if a[i] > t:
            count += 1.0
    return count

def count_by(a, t, k):
    count = 0
    for i in range(len(a)):
        if a[i] > t:
            count += k
    return count

def count_rows_only(img, t):
    n = 0
    for i in range(img.shape[0]):
        for j in range(img.shape[1]):
            if img[i, 0] > t:
                n += 1
    return n

def count_first(a, t):
    n = 0
    for i in range(len(a)):
        if a[0] > t:
            n += 1
    return n

def elif_writes_another(out, lo, hi):
    for i in range(len(out) - 1):
        if out[i] > hi:
            out[i] = hi
        elif out[i] < lo:
            out[i + 1] = lo

def two_ifs(out, lo, hi):
    for i in range(len(out)):
        if out[i] > hi:
            out[i] = hi
        if out[i] < lo:
            out[i] = lo

def overwrite_then_shift(a):
    for i in range(len(a) - 1):
        a[i] = 0.5
        a[i] = a[i + 1]

def shift_through_local(a):
    for i in range(len(a) - 1):
        t = a[i + 1]
        a[i] = 0.5
        a[i] = t

def flags_then_mask(flags, a, out):
    for i in range(len(a) - 1):
        flags[i] = a[i] > 0.0
        if flags[i + 1]:
            out[i] = 1.0

def store_int_where_zero(a, s):
    for i in range(len(a)):
        if a[i] == 0.0:
            a[i] = s

def doubled_where_negative(out, a, s):
    for i in range(len(a)):
        if a[i] > 0.0:
            out[i] = a[i]
        else:
            out[i] = s * 2.0

def elif_reads_behind(out, lo, hi):
    for i in range(1, len(out)):
        if out[i] > hi:
            out[i] = hi
        elif out[i - 1] < lo:
            out[i] = lo

def select_low(out, x, low):
    for i in range(len(x)):
        if x[i] < low:
            out[i] = low
        else:
            out[i] = x[i]

def select_ints(out, a, t):
    for i in range(len(a)):
        if a[i] > t:
            out[i] = 1
        else:
            out[i] = -1

def select_flags(flags, a):
    for i in range(len(a)):
        if a[i] > 0.0:
            flags[i] = a[i] > 1.0
        else:
            flags[i] = a[i] < -1.0

def halve_or_zero(a):
    for i in range(len(a)):
        if a[i] > 0.0:
            a[i] = 0.0
        else:
            a[i] = a[i] * 0.5
'''


@pytest.fixture(scope="module")
def kernels(tmp_path_factory: pytest.TempPathFactory) -> types.ModuleType:
    return import_source(KERNELS, tmp_path_factory.mktemp("if_chains") / "if_chain_kernels.py")


RNG = np.random.default_rng(10)
SIZES = (0, 1, 31, 32, 257)


def special(n: int, dtype: type = np.float64) -> np.ndarray:
    """Normal values with NaN, ±inf and -0.0 among them."""
    values = RNG.standard_normal(n) * 2.0
    for k, value in zip(range(0, n, 7), (np.nan, np.inf, -np.inf, -0.0, 1.5, -1.0)):
        values[k] = value
    return values.astype(dtype)


def same(module: types.ModuleType, name: str, *args: object) -> None:
    assert_equivalent(getattr(module, name), compiled_for(module, name, args), args)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_same_bits_if_elif_clip(kernels: types.ModuleType, n: int, dtype: type) -> None:
    a = special(n, dtype)
    for lo, hi in ((-1.0, 1.5), (0.5, -0.5), (-np.inf, np.nan), (-1e300, 1e300)):
        same(kernels, "clip_in_place", a, lo, hi)
        same(kernels, "clip_argument", a.copy(), lo, hi)
        same(kernels, "clip_scaled", a, lo, hi)
        same(kernels, "clip_else", np.zeros(n, dtype), a, lo, hi)
    assert vectorized(kernels, "clip_in_place", a, -1.0, 1.5)  # the array code from 32 elements
    assert vectorized(kernels, "clip_else", np.zeros(n, dtype), a, -1.0, 1.5)


def test_same_bits_if_elif_on_views_and_negative_strides(kernels: types.ModuleType) -> None:
    base = special(600)
    for view in (base[::-1], base[::3], base[100:400], base.reshape(30, 20)[:, 3]):
        same(kernels, "clip_argument", view, -1.0, 1.5)
        same(kernels, "clip_in_place", view, -1.0, 1.5)
        same(kernels, "clip_else", base[:len(view)][::-1], view, -1.0, 1.5)
    same(kernels, "clip_else", base, base, -1.0, 1.5)  # aliased: the loop runs
    assert vectorized(kernels, "clip_argument", base[::-1], -1.0, 1.5)


def test_same_warnings_in_the_elif_chain(kernels: types.ModuleType) -> None:
    a = special(100)
    same(kernels, "clip_else", np.zeros(100), a, 0.0, 1.5)  # a[i] / 0.0 where the else runs
    a32 = special(100, np.float32)
    same(kernels, "clip_in_place", a32, -1e300, 1e300)  # the bounds' casts overflow
    fast = compiled(kernels, "clip_else")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fast(np.zeros(100), np.full(100, 3.0), 0.0, 1.5)  # no element divides: no warning
    assert not caught
    with np.errstate(divide="raise", invalid="raise"), pytest.raises(FloatingPointError):
        fast(np.zeros(100), np.full(100, 1.0), 0.0, 1.5)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int8])
def test_same_counts_counting_reductions(kernels: types.ModuleType, n: int, dtype: type) -> None:
    signal = (special(n) if dtype != np.int8 else RNG.integers(-5, 5, n)).astype(dtype)
    for level in (0.25, 0.0, np.inf, np.nan, -1e300):
        if dtype == np.int8 and not np.isfinite(level):
            continue
        same(kernels, "count_crossings", signal, level)
        same(kernels, "count_bands", signal, -0.5, level)
    same(kernels, "count_and_clip", np.zeros(n, dtype), signal, 0.5 if dtype != np.int8 else 1)
    assert vectorized(kernels, "count_crossings", signal, 0.25)
    assert vectorized(kernels, "count_bands", signal, -0.5, 0.5)


def test_same_counts_in_2d_and_on_views(kernels: types.ModuleType) -> None:
    img = special(600).reshape(20, 30)
    for view in (img, img.T, img[::-1, ::2], img[:0], img[:1, :1]):
        same(kernels, "count_grid", view, 0.1)
    base = special(900)
    for view in (base[::-1], base[::4], base[1:], base.reshape(30, 30)[:, 7]):
        same(kernels, "count_crossings", view, 0.25)
    assert vectorized(kernels, "count_grid", img, 0.1)
    assert vectorized(kernels, "count_crossings", base[::-1], 0.25)
    result = compiled(kernels, "count_grid")(img, 0.1)
    assert type(result) is int and result == 2 * int(np.count_nonzero(img > 0.1))


def test_never_wrong_counter_is_a_python_int_beyond_int64(kernels: types.ModuleType) -> None:
    fast = compiled(kernels, "count_bands")
    a = special(100)
    below, above = fast(a, -0.5, 0.5)
    assert (below, above) == kernels.count_bands(a, -0.5, 0.5)
    assert type(below) is int and type(above) is int


@pytest.mark.parametrize("name, args", [
    ("count_read_inside", (special(100),)),
    ("count_float", (special(100), 0.0)),
    ("count_by", (special(100), 0.0, 3)),
    ("count_rows_only", (special(600).reshape(20, 30), 0.0)),
    ("count_first", (special(100), -10.0)),
    ("elif_writes_another", (special(100), -1.0, 1.5)),
    ("two_ifs", (special(100), -1.0, 1.5)),
    ("elif_reads_behind", (special(100), -1.0, 1.5)),
])
def test_never_wrong_shapes_left_as_loops(kernels: types.ModuleType, name: str, args: tuple[object, ...]) -> None:
    """A counter read in the loop, a float counter, a non-constant increment, a count under a
    test that does not move with every loop, an elif writing another element, a read after a
    conditional write it may follow, an elif reading what an earlier iteration wrote."""
    same(kernels, name, *args)
    assert not vectorized(kernels, name, *args)


def test_explain_names_the_rules(kernels: types.ModuleType) -> None:
    signal = special(100)
    explained = str(sc.explain(compiled(kernels, "count_crossings"), signal, 0.25))
    assert "vectorize loop i: counting reduction into count" in explained
    explained = str(sc.explain(compiled(kernels, "count_and_clip"), np.zeros(100), signal, 0.5))
    assert "vectorize loop i: element map, counting into clipped" in explained
    explained = str(sc.explain(compiled(kernels, "elif_writes_another"), signal, -1.0, 1.5))
    assert "may write one element in different iterations" in explained


@pytest.mark.parametrize("name", ["overwrite_then_shift", "shift_through_local", "flags_then_mask"])
def test_never_wrong_a_slice_read_after_an_earlier_commit_to_its_array(kernels: types.ModuleType, name: str) -> None:
    """A value that is a slice of an array (`a[i] = a[i + 1]`, through a local, or a bool
    array as a mask) is read when stored: after an earlier statement's values were committed
    to that array, so it is copied when computed (found by the `loops` fuzz, seed 1547)."""
    a = special(100)
    args = (np.zeros(100, dtype=bool), a, np.zeros(100)) if name == "flags_then_mask" else (a,)
    same(kernels, name, *args)
    assert vectorized(kernels, name, *args)
    expected = [np.array(arg) if isinstance(arg, np.ndarray) else arg for arg in args]
    getattr(kernels, name)(*expected)
    compiled(kernels, name)(*args)
    for got, want in zip(args, expected):
        np.testing.assert_array_equal(got, want)


def test_never_wrong_a_huge_int_stored_only_where_the_loop_stores_it(kernels: types.ModuleType) -> None:
    """An int name stored into a float64 array converts as the loop's store converts it; one
    out of a float's range raises OverflowError only where the loop stores it, so it is checked
    on entry (found by the `loops` fuzz, seed 1003038: the array code raised for no element)."""
    a = special(100)
    a[a == 0.0] = 1.0
    same(kernels, "store_int_where_zero", a, -10 ** 400)  # never stored: no error
    assert compiled(kernels, "store_int_where_zero")(a.copy(), -10 ** 400) is None
    a[[3, 50]] = 0.0
    same(kernels, "store_int_where_zero", a, -10 ** 400)  # stored: OverflowError, as the loop
    same(kernels, "store_int_where_zero", a, 2 ** 53 + 1)  # rounded as the loop rounds it
    assert vectorized(kernels, "store_int_where_zero", a, 3)


def test_never_wrong_a_huge_int_meeting_a_float_only_where_the_loop_computes_it(kernels: types.ModuleType) -> None:
    """`s * 2.0` of plain numbers is computed once, not once a turn: with a huge int `s` it
    raises OverflowError, which the loop raises only if a turn computes it, so `s` is checked
    on entry (found by the `loops` fuzz, seed 2003468, on lists: wrong on main too)."""
    a = np.abs(RNG.standard_normal(100)) + 1.0  # no NaN: the else never runs
    out = np.zeros(100)
    same(kernels, "doubled_where_negative", out, a, -10 ** 400)  # never computed: no error
    same(kernels, "doubled_where_negative", out, -a, -10 ** 400)  # computed: OverflowError
    same(kernels, "doubled_where_negative", out, -a, 3)
    assert vectorized(kernels, "doubled_where_negative", out, a, 3)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_same_bits_if_else_storing_one_element_is_one_where(kernels: types.ModuleType, n: int, dtype: type) -> None:
    """`if t: out[i] = a else: out[i] = b` stores `np.where(mask, a, b)` once: the values of
    the array's dtype (a Python float with float64 stays float64; into float32 it is cast
    first, its overflow recorded), NaN, ±inf and -0.0 by bits, the else reading the array
    it writes (its old values), ints and bools."""
    x = special(n, dtype)
    for low in (-0.5, 0.0, -0.0, np.nan, np.inf, 1e300):
        same(kernels, "select_low", np.zeros(n, dtype), x, low)
    same(kernels, "halve_or_zero", x)
    same(kernels, "select_ints", np.zeros(n, np.int8), (np.arange(n) % 11 - 5).astype(np.int8), 3)
    same(kernels, "select_flags", np.zeros(n, bool), x)
    assert "where(mask" in said(compiled(kernels, "select_low"), np.zeros(64, dtype), special(64, dtype), 0.5)
    assert vectorized(kernels, "halve_or_zero", special(64, dtype))
    assert vectorized(kernels, "select_ints", np.zeros(64, np.int8), np.arange(64, dtype=np.int8), 3)
    assert vectorized(kernels, "select_flags", np.zeros(64, bool), special(64, dtype))


def test_same_warnings_if_else_where_of_a_cast_that_overflows(kernels: types.ModuleType) -> None:
    x = special(64, np.float32)
    same(kernels, "select_low", np.zeros(64, np.float32), x, 1e300)  # float32(1e300): the loop runs
    same(kernels, "select_low", np.zeros(64, np.float32)[::-1], x[::2].copy()[:32], -0.5)
