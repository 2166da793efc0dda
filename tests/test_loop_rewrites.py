"""Rewrites of everyday loops (issue 11 #3), each exact: calls of `math` functions on
loop-invariant floats hoisted out of the loop (behind a test of the function's range where it
may raise). Every test compares the compiled function with the original under the
differential oracle, on inputs inside and outside the conditions."""

from __future__ import annotations

import math
import struct
import types
from collections.abc import Callable
from typing import ClassVar

import numpy as np
import pytest

import symcompile as sc
from symcompile import ir
from symcompile.backend import codegen
from symcompile.passes.hoist_loop_invariants import DOMAINS, TOTAL_ON_FLOATS
from symcompile.runtime.oracle import assert_equivalent
from tests.shared_versions import compiled_for, module_of

# every kind of float: zeros, subnormals, around 1, the edges of exp's and the hyperbolic
# functions' ranges, huge, infinities, NaN; and floats spread over every exponent
_SPECIAL = [0.0, -0.0, 5e-324, -5e-324, 1e-310, 0.5, -0.5, 1.0, -1.0, math.nextafter(1.0, 2.0),
            math.nextafter(1.0, 0.0), math.nextafter(-1.0, -2.0), math.nextafter(-1.0, 0.0), 2.0,
            709.0, math.nextafter(709.0, 800.0), 709.78, 709.79, 710.5, -709.0, -709.5, -710.5,
            -745.2, 1e300, -1e300, 1.7976931348623157e308, -1.7976931348623157e308, math.inf,
            -math.inf, math.nan, -math.nan, math.pi / 2]
_SPREAD = [sign * struct.unpack("<d", struct.pack("<Q", bits_ << 52 | 0x5A5A5A5A5A5))[0]
           for bits_ in range(0, 2047, 3) for sign in (1.0, -1.0)]
FLOATS = _SPECIAL + _SPREAD


def _raises(function: Callable[..., float], *args: float) -> bool:
    try:
        function(*args)
    except (ValueError, OverflowError):
        return True
    return False


def _test_text(test: ir.Expr) -> str:
    return codegen.expression_text(test, limit=200)


@pytest.mark.parametrize("function", list(DOMAINS), ids=lambda f: f.__name__)
def test_never_a_wrong_answer_math_call_raises_only_outside_its_domain(
        function: Callable[[float], float]) -> None:
    domain = DOMAINS[function]
    test = _test_text(domain.test(ir.Name("x")))
    for x in FLOATS:
        holds = eval(test, {}, {"x": x})  # the test the generated code makes
        assert holds == domain.holds(x), (test, x)
        if holds:
            assert not _raises(function, x), (function.__name__, x)


@pytest.mark.parametrize("function", list(TOTAL_ON_FLOATS), ids=lambda f: f.__name__)
def test_never_a_wrong_answer_math_call_hoisted_freely_never_raises(
        function: Callable[..., float]) -> None:
    floats = FLOATS if TOTAL_ON_FLOATS[function] == 1 else _SPECIAL
    for x in floats:
        if TOTAL_ON_FLOATS[function] == 1:
            assert not _raises(function, x), (function.__name__, x)
        else:
            for y in _SPECIAL:
                assert not _raises(function, x, y), (function.__name__, x, y)


_KERNELS = """
import math

def phasor(omega, dt, steps):
    re = 1.0
    im = 0.0
    for _ in range(steps):
        re, im = (re * math.cos(omega * dt) - im * math.sin(omega * dt),
                  re * math.sin(omega * dt) + im * math.cos(omega * dt))
    return re, im

def rotate(xs, ys, theta):
    out = []
    for i in range(len(xs)):
        out.append(xs[i] * math.cos(theta) - ys[i] * math.sin(theta))
    return out

def decay(xs, rate, dt, log):
    acc = 0.0
    for x in xs:
        log.append(x)
        acc = acc * math.exp(-rate * dt) + math.sqrt(x) * math.log(dt)
    return acc

def nested(xs, a):
    total = 0.0
    for x in xs:
        total += x * math.cos(math.sqrt(a)) + math.atan(a)
    return total

def in_branch(xs, a):
    total = 0.0
    for x in xs:
        if x > 0.5:
            total += math.acos(a)
        total += x
    return total
"""


@pytest.fixture(scope="module")
def kernels(tmp_path_factory: pytest.TempPathFactory) -> types.ModuleType:
    """Imported once: the tests share its compiled copies (tests/shared_versions.py)."""
    return module_of(_KERNELS, tmp_path_factory)


def _loops(text: str) -> int:
    return sum(line.lstrip().startswith(("for ", "while ")) for line in text.splitlines())


@pytest.mark.parametrize("args", [
    (0.3, 0.1, 50), (0.3, 0.1, 0), (math.inf, 1.0, 0), (math.inf, 1.0, 3), (math.nan, 1.0, 3),
    (1e308, 10.0, 2), (-0.0, 0.5, 4),
])
def test_never_a_wrong_answer_phasor_hoists_cos_and_sin_behind_a_range_test(
        kernels: types.ModuleType, args: tuple[float, float, int]) -> None:
    compiled = sc.symbolic(kernels.phasor)
    assert_equivalent(kernels.phasor, compiled, args)
    text = sc.source(compiled, *args)
    assert "<= 1.7976931348623157e+308:" in text and "= cos(t)" in text, text
    assert _loops(text) == 2, text


@pytest.mark.parametrize("theta", [0.7, -0.0, math.inf, -math.inf, math.nan])
@pytest.mark.parametrize("n", [0, 1, 5])
def test_never_a_wrong_answer_rotate_raises_where_the_original_does(
        kernels: types.ModuleType, theta: float, n: int) -> None:
    args = ([float(i) for i in range(n)], [float(i) for i in range(n)][::-1], theta)
    assert_equivalent(kernels.rotate, compiled_for(kernels, "rotate", args), args)


@pytest.mark.parametrize(("xs", "rate", "dt"), [
    ([1.0, 2.0], 0.5, 0.1), ([], -1e4, 1.0), ([1.0], -1e4, 1.0), ([4.0], 1.0, 0.0),
    ([4.0, -1.0], 1.0, 0.5), ([], 1.0, -1.0), ([2.0], 1.0, -1.0), ([2.0], 1.0, math.nan),
])
def test_never_a_wrong_answer_exp_and_log_raise_after_the_same_effects(
        kernels: types.ModuleType, xs: list[float], rate: float, dt: float) -> None:
    """`exp` overflowing or `log(0.0)` raises on the first turn, after `log.append(x)`."""
    compiled = compiled_for(kernels, "decay", (xs, rate, dt, []))
    assert_equivalent(kernels.decay, compiled, (xs, rate, dt, []))
    assert "exp(t" in sc.source(compiled, [1.0], 0.5, 0.1, [])


@pytest.mark.parametrize("a", [0.25, -1.0, math.inf, 0.0])
def test_never_a_wrong_answer_nested_calls_copy_the_loop_a_bounded_number_of_times(
        kernels: types.ModuleType, a: float) -> None:
    compiled = sc.symbolic(kernels.nested)
    for xs in ([], [1.0, 2.5]):
        assert_equivalent(kernels.nested, compiled, (xs, a))
    assert _loops(sc.source(compiled, [], a)) <= 3


@pytest.mark.parametrize("xs", [[], [0.1], [0.1, 0.9]])
@pytest.mark.parametrize("a", [0.5, 2.0])
def test_never_a_wrong_answer_call_in_a_branch_that_may_not_run(
        kernels: types.ModuleType, xs: list[float], a: float) -> None:
    """`acos(2.0)` raises only on a turn that takes the branch."""
    compiled = sc.symbolic(kernels.in_branch)
    assert_equivalent(kernels.in_branch, compiled, (xs, a))


# ------------------------------------------------------------ loops over .tolist()

_ARRAY_LOOPS = """
def decay(samples):
    acc = 0.0
    for x in samples:
        acc = acc * 0.9 + x
    return acc

def two_sums(samples, w):
    s = 0.0
    q = 0.0
    for x in samples:
        y = x * w
        s += y
        q = q + y * y - 1
    return s, q, x, y

def divides(samples):
    acc = 0.0
    for x in samples:
        acc = acc + 1.0 / x
    return acc

def last_unchecked(samples):
    acc = 0.0
    for x in samples:
        big = x * 1e300
        acc = acc + x
    return acc, big

def branches(samples):
    acc = 0.0
    for x in samples:
        if x > 0.5:
            acc = acc + x
    return acc
"""


@pytest.fixture(scope="module")
def array_loops(tmp_path_factory: pytest.TempPathFactory) -> types.ModuleType:
    """Imported once: the tests share its compiled copies (tests/shared_versions.py)."""
    return module_of(_ARRAY_LOOPS, tmp_path_factory)


def _arrays() -> list[np.ndarray]:
    rng = np.random.default_rng(11)
    long = rng.standard_normal(200)
    with_inf = long.copy()
    with_inf[150] = np.inf
    with_nan = long.copy()
    with_nan[3] = np.nan
    opposite = long.copy()
    opposite[10], opposite[11] = np.inf, -np.inf  # inf - inf: NumPy warns "invalid value"
    return [long, rng.standard_normal(10), np.zeros(0), with_inf, with_nan, opposite,
            np.full(100, 1e308),  # the sum overflows: NumPy warns "overflow"
            long[::3], long.astype(np.float32)]


@pytest.mark.parametrize("index", range(len(_arrays())))
def test_never_a_wrong_answer_loop_over_tolist_same_values_types_and_warnings(
        array_loops: types.ModuleType, index: int) -> None:
    samples = _arrays()[index]
    for name, args in (("decay", (samples,)), ("two_sums", (samples, 0.5)),
                       ("two_sums", (samples, 1e200))):
        original = getattr(array_loops, name)
        if name == "two_sums" and len(samples) == 0:
            continue  # (x unbound: the original raises, and so does the compiled version)
        compiled = compiled_for(array_loops, name, args)
        assert_equivalent(original, compiled, args)
        assert_equivalent(original, compiled, args)  # the version already compiled


def test_never_a_wrong_answer_loop_over_tolist_rewritten_for_float64_vectors_only(
        array_loops: types.ModuleType) -> None:
    long = np.linspace(0.0, 1.0, 100)
    compiled = sc.symbolic(array_loops.decay)
    assert ".tolist()" in sc.source(compiled, long)
    for other in (long.astype(np.float32), long.reshape(10, 10), list(long)):
        # the version for a float64 vector tests the kind where the loop starts
        assert_equivalent(array_loops.decay, compiled, (other,))
        assert ".tolist()" not in sc.source(sc.symbolic(array_loops.decay), other)
    text = sc.source(sc.symbolic(array_loops.two_sums), long, 0.5)
    assert ".tolist()" in text and "x = float64(x)" in text and "y = float64(y)" in text, text


@pytest.mark.parametrize("name", ["divides", "last_unchecked", "branches"])
def test_never_a_wrong_answer_loop_over_tolist_not_where_warnings_could_differ(
        array_loops: types.ModuleType, name: str) -> None:
    """1 / 0.0 raises on a float and warns on a NumPy scalar; `x * 1e300` may overflow on the
    last turn without reaching the checked sum; a branch may skip the sum."""
    original = getattr(array_loops, name)
    compiled = sc.symbolic(original)
    samples = np.linspace(0.0, 1.0, 100)
    assert_equivalent(original, compiled, (samples,))
    assert ".tolist()" not in sc.source(compiled, samples)


def test_never_a_wrong_answer_loop_over_tolist_underflow_warns_under_seterr(
        array_loops: types.ModuleType) -> None:
    samples = np.full(100, 1e-300)
    compiled = sc.symbolic(array_loops.two_sums)
    with np.errstate(under="warn"):
        assert_equivalent(array_loops.two_sums, compiled, (samples, 1e-300))
    assert_equivalent(array_loops.two_sums, compiled, (samples, 1e-300))


_INDEXED_LOOPS = """
import numpy as np

def ema(x, alpha):
    out = np.empty_like(x)
    s = x[0]
    for i in range(len(x)):
        s = alpha * x[i] + (1.0 - alpha) * s
        out[i] = s
    return out, s

def ema_into(x, alpha, dtype):
    out = np.zeros(len(x), dtype=dtype)
    s = 0.0
    for i in range(len(x)):
        s = alpha * x[i] + (1.0 - alpha) * s
        out[i] = s
    return out

def ema_seen(x, alpha, log):
    out = np.zeros(len(x))
    log.append(out)
    s = 0.0
    for i in range(len(x)):
        s = alpha * x[i] + (1.0 - alpha) * s
        out[i] = s
    return out

def ema_stores_a_product(x, alpha):
    out = np.zeros(len(x))
    s = 0.0
    for i in range(len(x)):
        s = alpha * x[i] + (1.0 - alpha) * s
        out[i] = s * 1e300
    return out
"""


@pytest.fixture(scope="module")
def indexed_loops(tmp_path_factory: pytest.TempPathFactory) -> types.ModuleType:
    """Imported once: the tests share its compiled copies (tests/shared_versions.py)."""
    return module_of(_INDEXED_LOOPS, tmp_path_factory)


@pytest.mark.parametrize("index", range(len(_arrays())))
@pytest.mark.parametrize("alpha", [0.05, 1e300])
def test_never_a_wrong_answer_indexed_loop_over_tolist_same_values_types_and_warnings(
        indexed_loops: types.ModuleType, index: int, alpha: float) -> None:
    x = _arrays()[index]
    if len(x):
        assert_equivalent(indexed_loops.ema, compiled_for(indexed_loops, "ema", (x, alpha)), (x, alpha))
    for dtype in (np.float64, np.float32, np.int64):
        args = (x, alpha, dtype)
        assert_equivalent(indexed_loops.ema_into, compiled_for(indexed_loops, "ema_into", args), args)


def test_never_a_wrong_answer_indexed_loop_over_tolist_rewritten_where_exact(
        indexed_loops: types.ModuleType) -> None:
    x = np.linspace(0.0, 1.0, 100)
    text = sc.source(sc.symbolic(indexed_loops.ema), x, 0.5)
    assert ".tolist()" in text and "s = float(s)" in text and "s = float64(s)" in text, text
    assert ".tolist()" in sc.source(sc.symbolic(indexed_loops.ema_into), x, 0.5, np.float64)
    log: list[np.ndarray] = []
    for name, args in (("ema_seen", (x, 0.5, log)), ("ema_stores_a_product", (x, 0.5))):
        original = getattr(indexed_loops, name)
        compiled = sc.symbolic(original)
        assert_equivalent(original, compiled, args)
        # not iterate_lists' copy (a run that failed would leave its items in `out`), but
        # iterate_array_recurrences', which puts the array back before the loop runs again
        text = sc.source(compiled, *args)
        assert "copyto(out, out_before)" in text, name


def test_never_a_wrong_answer_indexed_loop_with_a_module_range(
        make_module: Callable[[str], types.ModuleType]) -> None:
    module = make_module(_INDEXED_LOOPS + "\ndef range(n):\n    return [0, 1, n + 5]\n")
    x = np.linspace(0.0, 1.0, 100)
    assert_equivalent(module.ema, sc.symbolic(module.ema), (x, 0.5))



# ------------------------------------------------------------------ inline_reduce

_REDUCE = """
import functools
from functools import reduce

SCALE = 2.0


def decayed(xs, start):
    return functools.reduce(lambda acc, x: acc * 0.5 + x * SCALE, xs, start)


def product(xs):
    return reduce(lambda a, b: a * b, xs)


def shadowing(xs, acc):
    x = 10.0
    return functools.reduce(lambda acc, x: acc - x / acc, xs, acc)


def given(xs, tools):
    return tools.reduce(lambda acc, x: acc + x, xs, 0.0)
"""


class Noisy:
    """An element whose `*` writes to a log, raises on a zero, and grows the list it is in."""

    log: ClassVar[list[str]] = []

    def __init__(self, value: float, home: list[object] | None = None) -> None:
        self.value, self.home = value, home

    def __mul__(self, other: object) -> Noisy:
        Noisy.log.append(f"{self.value} * {getattr(other, 'value', other)}")
        if getattr(other, "value", other) == 0:
            raise ZeroDivisionError("a zero in the product")
        if self.home is not None and len(self.home) < 4:
            self.home.append(Noisy(7.0))
        return Noisy(self.value * getattr(other, "value", other))

    def __repr__(self) -> str:
        return f"Noisy({self.value})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Noisy) and other.value == self.value

    __hash__ = None  # type: ignore[assignment]


@pytest.fixture
def reducers(make_module: Callable[[str], types.ModuleType]) -> types.ModuleType:
    return make_module(_REDUCE)


@pytest.mark.parametrize("xs", [[], [1.0], [1.0, 2.5, -3.0], (1.0, 2.0), range(3), 5, None,
                                [1, 2**70], ["a", "b"], [1.0, "b"]])
@pytest.mark.parametrize("start", [0.0, 1, "s"])
def test_never_a_wrong_answer_reduce_written_as_a_loop(reducers: types.ModuleType,
                                                       xs: object, start: object) -> None:
    """Values, reduce's own TypeErrors (what is not iterable), the operations' errors."""
    compiled = sc.symbolic(reducers.decayed)
    assert_equivalent(reducers.decayed, compiled, (xs, start))
    assert "for x" in sc.source(compiled, [1.0], 0.0)


@pytest.mark.parametrize("xs", [[], [3.0], [3.0, 0.5, 2**0.5], [2, 3, 2**40], (2.0, 3.0), 7,
                                ["ab", 3], [3, "ab"]])
def test_never_a_wrong_answer_reduce_without_start(reducers: types.ModuleType,
                                                   xs: object) -> None:
    """An empty list raises reduce's TypeError; the first element starts the product."""
    compiled = sc.symbolic(reducers.product)
    assert_equivalent(reducers.product, compiled, (xs,))
    assert "next(" in sc.source(compiled, [1.0])


def test_never_a_wrong_answer_reduce_runs_element_code_in_the_same_order(
        reducers: types.ModuleType) -> None:
    """Elements' code runs in the same order, sees the list grow as reduce does, raises alike."""
    compiled = sc.symbolic(reducers.product)
    for function in (reducers.product, compiled):
        logs = []
        for values in ([2.0, 3.0, 4.0], [2.0, 0, 4.0]):
            Noisy.log = []
            home: list[object] = []
            home += [Noisy(v, home) if v else 0 for v in values]
            try:
                result: object = function(home)
            except ZeroDivisionError as error:
                result = str(error)
            logs.append((result, list(Noisy.log), len(home)))
        if function is reducers.product:
            expected = logs
    assert logs == expected


@pytest.mark.parametrize("xs", [[], [2.0, 4.0]])
def test_never_a_wrong_answer_reduce_lambda_parameters_renamed(reducers: types.ModuleType,
                                                               xs: list[float]) -> None:
    compiled = sc.symbolic(reducers.shadowing)
    assert_equivalent(reducers.shadowing, compiled, (xs, 1.0))
    assert "for x" in sc.source(compiled, xs, 1.0)


def test_never_a_wrong_answer_reduce_callee_checked_where_the_statement_runs(
        reducers: types.ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """A global rebound after compiling, or a callee the function is given, is called."""
    fake = types.SimpleNamespace(reduce=lambda fn, xs, start: ("fake", list(xs), start))
    given = sc.symbolic(reducers.given)
    assert_equivalent(reducers.given, given, ([1.0, 2.0], fake))
    assert "for " not in sc.source(given, [1.0], fake)
    compiled = sc.symbolic(reducers.decayed)
    assert compiled([1.0, 2.0], 0.0) == reducers.decayed([1.0, 2.0], 0.0)
    monkeypatch.setattr(reducers, "functools", fake)
    assert_equivalent(reducers.decayed, compiled, ([1.0, 2.0], 0.0))
    assert compiled([1.0], 0.0) == ("fake", [1.0], 0.0)


# ------------------------------------------------------------------ inline_map_filter

_MAP_FILTER = """
SCALE = 3.0


def scaled_below(xs, limit):
    return list(map(lambda x: x * SCALE, filter(lambda y: y < limit, xs)))


def squares_and_truthy(xs):
    squares = list(map(lambda v: v * v, xs))
    return squares, len(list(filter(lambda v: v, xs)))


def given(xs, map):
    return list(map(lambda x: x + 1, xs))
"""


class Loud:
    """A value whose comparison and product write to a log, and whose truth may raise."""

    log: ClassVar[list[str]] = []

    def __init__(self, value: float) -> None:
        self.value = value

    def __lt__(self, other: object) -> bool:
        Loud.log.append(f"{self.value} < {other}")
        return self.value < other  # type: ignore[operator]

    def __mul__(self, other: object) -> float:
        factor = getattr(other, "value", other)
        Loud.log.append(f"{self.value} * {factor}")
        if self.value == 13:
            raise ValueError("unlucky")
        return self.value * factor  # type: ignore[operator]

    def __bool__(self) -> bool:
        Loud.log.append(f"bool {self.value}")
        if self.value == 7:
            raise RuntimeError("no truth for 7")
        return bool(self.value)


@pytest.fixture
def mappers(make_module: Callable[[str], types.ModuleType]) -> types.ModuleType:
    return make_module(_MAP_FILTER)


@pytest.mark.parametrize("xs", [[], [1.0, -2.0, 5.0], (1.0, 2.0), range(4), 5, None,
                                [1, 2**70, "a"], ["a", 1.0]])
def test_never_a_wrong_answer_map_filter_as_a_comprehension(mappers: types.ModuleType,
                                                            xs: object) -> None:
    for function in (mappers.scaled_below, mappers.squares_and_truthy):
        args = (xs, 2.5) if function is mappers.scaled_below else (xs,)
        compiled = sc.symbolic(function)
        assert_equivalent(function, compiled, args)
        assert " for x_2 in xs" in sc.source(compiled, [1.0], 2.5) \
            if function is mappers.scaled_below else " for v_2 in xs" in sc.source(compiled, [1.0])


@pytest.mark.parametrize("values", [[1.0, 3.0, 2.0], [1.0, 13.0, 2.0], [0.0, 7.0, 2.0]])
def test_never_a_wrong_answer_map_filter_runs_element_code_in_the_same_order(
        mappers: types.ModuleType, values: list[float]) -> None:
    logs = []
    for function in (mappers.scaled_below, sc.symbolic(mappers.scaled_below),
                     mappers.squares_and_truthy, sc.symbolic(mappers.squares_and_truthy)):
        Loud.log = []
        try:
            args = ([Loud(v) for v in values], 20.0)
            result: object = function(*args[:1 if "truthy" in function.__name__ else 2])
        except (ValueError, RuntimeError) as error:
            result = repr(error)
        logs.append((result, list(Loud.log)))
    assert logs[0] == logs[1] and logs[2] == logs[3]


def test_never_a_wrong_answer_map_filter_builtins_checked_where_the_call_runs(
        mappers: types.ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """A builtin shadowed after compiling, or one the function is given, is called."""
    given = sc.symbolic(mappers.given)
    assert_equivalent(mappers.given, given, ([1.0, 2.0], lambda f, xs: ["mine", *xs]))
    assert "for " not in sc.source(given, [1.0], map)
    compiled = sc.symbolic(mappers.scaled_below)
    assert compiled([1.0, 2.0], 2.5) == [3.0, 6.0]
    monkeypatch.setattr(mappers, "filter", lambda fn, xs: [x for x in xs if not fn(x)],
                        raising=False)
    assert_equivalent(mappers.scaled_below, compiled, ([1.0, 4.0], 2.5))
    assert compiled([1.0, 4.0], 2.5) == [12.0]
