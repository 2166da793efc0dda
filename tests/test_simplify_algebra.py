"""simplify_algebra, speculate_loop_types and the versions specialized on argument types, under
the differential oracle (`symcompile/runtime/oracle.py`).

Every rule of `algebra.RULES` has a function below in which it fires (`CASES`, keyed by
the rule's identity, so a new rule without a case fails `test_every_rule_has_a_case`). Each is
compiled by its first call, with the argument types the rule needs (floats for the float rules,
ints for the int rules), and then called with every kind of input: floats (NaN, +-inf, +-0.0,
1e200), ints (+-2**80, 2**1100), bools, complex numbers with inf and NaN parts, NumPy float64
scalars and arrays, and a float subclass whose arithmetic is off by a half. The generated
function of the typed version is called as well as the public function, so both the rewritten
code and the type check's other path (`other_types`, then after `MAX_TYPE_MISSES` misses the
version for any types) run on every input.

The unsafe rules must stay off without `fastmath` (the source is the function as written), and
with `fastmath=True` they fire; `WITNESSES` records, for each one, an input whose answer it
changes: that is what opting in means. The last groups check the type guard itself (an exact
type test: a float subclass or a NumPy float64 is not a float), the float copy of loop bodies,
and rewrites that must not happen.
"""

from __future__ import annotations

import dataclasses
import inspect
import itertools
import math
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import symcompile as sc
from benchmarks import bench_loops
from symcompile import ir
from symcompile.analysis.value_types import TypeEnv
from symcompile.passes import algebra
from symcompile.passes.algebra import RULES, Rule
from symcompile.runtime import api
from symcompile.runtime.oracle import assert_equivalent, same_value
from tests.strategies import complexes, float_arrays, floats, ints

SETTINGS = settings(max_examples=50, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ---------------------------------------------------------------------------
# inputs
# ---------------------------------------------------------------------------


def _off_by_half(operation: Callable[[float, Any], Any]) -> Callable[[float, Any], Any]:
    def method(self: float, other: Any) -> Any:
        return operation(float(self), other) + 0.5
    return method


class OffByHalf(float):
    """A float subclass whose arithmetic is off by a half: `1.0 * x` is not x for it, so a
    version that took it for a float (and dropped the `1.0 *`) would give another answer.
    Its `<` and `>=` are inverted; `==` and `!=` are a float's (the oracle uses them)."""

    __add__ = _off_by_half(operator.add)
    __radd__ = _off_by_half(lambda mine, other: other + mine)
    __sub__ = _off_by_half(operator.sub)
    __rsub__ = _off_by_half(lambda mine, other: other - mine)
    __mul__ = _off_by_half(operator.mul)
    __rmul__ = _off_by_half(lambda mine, other: other * mine)
    __truediv__ = _off_by_half(operator.truediv)
    __rtruediv__ = _off_by_half(lambda mine, other: other / mine)
    __floordiv__ = _off_by_half(operator.floordiv)
    __mod__ = _off_by_half(operator.mod)
    __pow__ = _off_by_half(operator.pow)  # type: ignore[assignment]
    __rpow__ = _off_by_half(lambda mine, other: other ** mine)  # type: ignore[assignment]

    def __neg__(self) -> float:
        return -float(self) + 0.5

    def __lt__(self, other: Any) -> bool:
        return float(self) >= other

    def __ge__(self, other: Any) -> bool:
        return float(self) < other


class CountingFloat(float):
    """A float subclass whose `1.0 * x` prints: an effect, to be run as often as written."""

    def __rmul__(self, other: Any) -> float:
        print("rmul")
        return float(self) * other


#: Fixed inputs, tried before the random ones (every pair of them for two parameters).
CORNERS: tuple[Any, ...] = (
    2.5, -0.0, 0.0, math.nan, math.inf, -math.inf, 1e200, 5e-324,
    0, 3, -7, 2**80, -(2**80), 2**1100, True, False,
    complex(1.0, -0.0), complex(math.inf, math.nan), complex(-0.0, math.inf),
    np.float64(-0.0), np.float64(math.nan), np.float64(1e200),
    np.array([1.5, -0.0, math.nan, math.inf]), np.array(-0.0),
    OffByHalf(2.0), OffByHalf(-0.0),
)


def any_value() -> st.SearchStrategy[Any]:
    """Every kind of input: Python numbers, NumPy float64 scalars and arrays, a float subclass."""
    return st.one_of(
        floats(), ints(), st.sampled_from((2**80, -(2**80))), st.booleans(), complexes(),
        floats().map(np.float64), float_arrays(), floats().map(OffByHalf),
    )


def moderate_numpy_scalars() -> st.SearchStrategy[np.float64]:
    """float64 scalars whose `x * x` cannot overflow within a few Newton steps: a shared
    `x * x` warns once where the original warns twice (eliminate_common_subexpressions, a
    documented difference: docs/rules.md, tests/test_cse.py)."""
    magnitudes = st.floats(1e-50, 1e50)
    return st.one_of(st.sampled_from((0.0, -0.0, math.nan, math.inf, -math.inf)),
                     magnitudes, magnitudes.map(operator.neg)).map(np.float64)


def mixed_lists() -> st.SearchStrategy[list[Any]]:
    """Lists mixing floats, ints, bools, complex numbers, NumPy scalars and a float subclass."""
    element = st.one_of(floats(), ints(), st.booleans(), complexes(), moderate_numpy_scalars(),
                        floats().map(OffByHalf))
    return st.lists(element, max_size=6)


def check_like_original(original: Callable[..., Any], candidates: Sequence[Callable[..., Any]],
                        arity: int, where: Callable[[tuple[Any, ...]], bool] = lambda args: True,
                        ) -> None:
    """Each candidate behaves as `original` on every `arity`-tuple of CORNERS, then on
    hypothesis draws of `arity` values of `any_value()`; only on the tuples `where` accepts."""
    for args in filter(where, itertools.product(CORNERS, repeat=arity)):
        for candidate in candidates:
            assert_equivalent(original, candidate, args)

    @SETTINGS
    @given(args=st.tuples(*[any_value()] * arity).filter(where))
    def check(args: tuple[Any, ...]) -> None:
        for candidate in candidates:
            assert_equivalent(original, candidate, args)

    check()


def outcome(function: Callable[..., Any], args: tuple[Any, ...]) -> object:
    """What a call gives: its value, or the type of the exception it raises."""
    try:
        return function(*args)
    except Exception as exc:
        return type(exc)


def as_written(function: Callable[..., Any]) -> str:
    """The generated source of `function` with no pass run: the code as written."""
    return str(sc.symbolic(function, passes=()).source)


def type_guard(function: Callable[..., Any], args: tuple[Any, ...]) -> str:
    """The entry check of a version relying on the exact types of all of `args`."""
    names = list(inspect.signature(function).parameters)
    checks = " or ".join(f"type({name}) is not {type(value).__name__}" for name, value in zip(names, args))
    return f"if {checks}:\n        return other_types({', '.join(names[:len(args)])})\n"


@pytest.fixture
def fired_rules(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The identities of the rules that fire in the compilations from now on, in order."""
    fired: list[str] = []

    def recording(rule: Rule) -> Rule:
        def apply(node: ir.Op, env: TypeEnv) -> algebra.Result:
            result = rule.apply(node, env)
            if result is not None:
                fired.append(rule.identity)
            return result
        return dataclasses.replace(rule, apply=apply)

    monkeypatch.setattr(algebra, "RULES", tuple(recording(rule) for rule in RULES))
    return fired


# ---------------------------------------------------------------------------
# one function per rule
# ---------------------------------------------------------------------------


def times_one_float(x):
    return x * 1.0


def times_one_both_sides(x):
    return x * 1.0, 1.0 * x


def divided_by_one_float(x):
    return x / 1.0, 1.0 / x


def minus_zero_float(x):
    return x - 0.0, 0.0 - x


def plus_minus_zero(x):
    return x + -0.0, -0.0 + x


def int_constants_with_a_float(x):
    return 3 * x, x + 2, 2 - x, x / 2, x // 2, x % 2, x ** 2, True * x


def plus_zero_int(k):
    return k + 0, 0 + k


def minus_zero_int(k):
    return k - 0, 0 - k


def times_one_int(k):
    return k * 1, 1 * k


def floor_divided_by_one(k):
    return k // 1, 1 // k


def to_the_first(k):
    return k ** 1, 1 ** k


def squared(k):
    return k ** 2


def times_zero_int(k):
    return k * 0, 0 * k


def minus_itself_int(k):
    return k - k


def double_negation(x):
    return -(-x)


def not_equal(a, b):
    return not (a == b)


def not_less(a, b):
    return not (a < b)


def plus_zero_float(x):
    return x + 0.0, 0.0 + x


def times_zero_float(x):
    return x * 0.0, 0.0 * x


def minus_itself_float(x):
    return x - x


def not_less_floats(x, y):
    return not (x < y)


@dataclass(frozen=True)
class RuleCase:
    """A function in which one rule fires when `first` (the first call) selects the types."""

    function: Callable[..., Any]
    first: tuple[Any, ...]
    rewritten: str  # the line that shows the rule fired (an unsafe rule's: with fastmath)


CASES: dict[str, RuleCase] = {
    "x * 1.0 → x": RuleCase(times_one_both_sides, (2.0,), "    return x, x\n"),
    "x / 1.0 → x": RuleCase(divided_by_one_float, (2.0,), "    return x, 1.0 / x\n"),
    "x - 0.0 → x": RuleCase(minus_zero_float, (2.0,), "    return x, 0.0 - x\n"),
    "x + -0.0 → x": RuleCase(plus_minus_zero, (2.0,), "    return x, x\n"),
    "3 * x → 3.0 * x": RuleCase(
        int_constants_with_a_float, (2.0,),
        "    return 3.0 * x, x + 2.0, 2.0 - x, x / 2.0, x // 2.0, x % 2.0, x ** 2.0, x\n"),
    "x + 0 → x": RuleCase(plus_zero_int, (3,), "    return k, k\n"),
    "x - 0 → x": RuleCase(minus_zero_int, (3,), "    return k, 0 - k\n"),
    "x * 1 → x": RuleCase(times_one_int, (3,), "    return k, k\n"),
    "x // 1 → x": RuleCase(floor_divided_by_one, (3,), "    return k, 1 // k\n"),
    "x ** 1 → x": RuleCase(to_the_first, (3,), "    return k, 1 ** k\n"),
    "x ** 2 → x * x": RuleCase(squared, (3,), "    return k * k\n"),
    "x * 0 → 0": RuleCase(times_zero_int, (3,), "    return 0, 0\n"),
    "x - x → 0": RuleCase(minus_itself_int, (3,), "    return 0\n"),
    "-(-x) → x": RuleCase(double_negation, (2.0,), "    return x\n"),
    "not (a == b) → a != b": RuleCase(not_equal, (0.5, 1.5), "    return a != b\n"),
    "not (a < b) → a >= b": RuleCase(not_less, (1, 2), "    return a >= b\n"),
    "x + 0.0 → x": RuleCase(plus_zero_float, (2.0,), "    return x, x\n"),
    "x * 0.0 → 0.0": RuleCase(times_zero_float, (2.0,), "    return 0.0, 0.0\n"),
    "x - x → 0.0": RuleCase(minus_itself_float, (2.0,), "    return 0.0\n"),
    "not (a < b) → a >= b (floats)": RuleCase(not_less_floats, (1.0, 2.0), "    return x >= y\n"),
}


@dataclass(frozen=True)
class Witness:
    """An input whose answer an unsafe rule changes: the original's and fastmath's answers
    (an exception type where one raises)."""

    args: tuple[Any, ...]
    original: object
    fastmath: object


WITNESSES: dict[str, Witness] = {
    "x + 0.0 → x": Witness((-0.0,), (0.0, 0.0), (-0.0, -0.0)),
    "x * 0.0 → 0.0": Witness((-1.0,), (-0.0, -0.0), (0.0, 0.0)),
    "x - x → 0.0": Witness((math.inf,), math.inf - math.inf, 0.0),  # the machine's NaN (sign)
    "not (a < b) → a >= b (floats)": Witness((math.nan, 1.0), True, False),
}

IDENTITIES = [rule.identity for rule in RULES]
TYPE_CONDITIONAL = [rule.identity for rule in RULES if rule.rule_class == "type-conditional"]
UNSAFE = [rule.identity for rule in RULES if rule.rule_class == "unsafe"]


def test_every_rule_has_a_case() -> None:
    assert set(CASES) == set(IDENTITIES)
    assert set(WITNESSES) == set(UNSAFE)
    assert {rule.rule_class for rule in RULES} == {"type-conditional", "unsafe"}


@pytest.mark.parametrize("identity", TYPE_CONDITIONAL)
def test_type_conditional_rule_fires_for_its_types(identity: str, fired_rules: list[str]) -> None:
    case = CASES[identity]
    compiled = sc.symbolic(case.function)
    assert same_value(compiled(*case.first), case.function(*case.first))
    assert identity in fired_rules
    typed = sc.source(compiled, *case.first)
    assert type_guard(case.function, case.first) in typed
    assert case.rewritten in typed
    # the version for any types is the function as written
    assert str(compiled.source) == as_written(case.function)


@pytest.mark.parametrize("identity", UNSAFE)
def test_unsafe_rule_stays_off_without_fastmath(identity: str, fired_rules: list[str]) -> None:
    case, witness = CASES[identity], WITNESSES[identity]
    compiled = sc.symbolic(case.function)
    compiled(*case.first)
    assert identity not in fired_rules
    assert sc.source(compiled, *case.first) == as_written(case.function)
    assert same_value(outcome(compiled, witness.args), witness.original)


@pytest.mark.parametrize("identity", UNSAFE)
def test_unsafe_rule_fires_with_fastmath_and_changes_the_witness(identity: str,
                                                                 fired_rules: list[str]) -> None:
    case, witness = CASES[identity], WITNESSES[identity]
    fast = sc.symbolic(case.function, fastmath=True)
    fast(*case.first)
    assert identity in fired_rules
    typed = sc.source(fast, *case.first)
    assert type_guard(case.function, case.first) in typed
    assert case.rewritten in typed
    assert str(fast.source) == as_written(case.function)  # no types known: nothing fires
    # opting in: this input gets another answer
    assert same_value(outcome(case.function, witness.args), witness.original)
    assert same_value(outcome(fast, witness.args), witness.fastmath)
    assert not same_value(witness.original, witness.fastmath)


def test_plus_zero_under_fastmath_keeps_the_sign_of_minus_zero() -> None:
    fast = sc.symbolic(plus_zero_float, fastmath=True)
    assert repr(fast(2.0)) == "(2.0, 2.0)"
    assert repr(plus_zero_float(-0.0)) == "(0.0, 0.0)"
    assert repr(fast(-0.0)) == "(-0.0, -0.0)"  # x + 0.0 → x: documented, and only with fastmath
    assert repr(sc.symbolic(plus_zero_float)(-0.0)) == "(0.0, 0.0)"


@pytest.mark.parametrize("identity", IDENTITIES)
def test_rule_keeps_behaviour_on_every_kind_of_input(identity: str) -> None:
    case = CASES[identity]
    compiled = sc.symbolic(case.function)
    compiled(*case.first)
    typed = sc.compiled_function(compiled, *case.first)  # keeps its type check
    check_like_original(case.function, [typed, compiled], len(case.first))


@pytest.mark.parametrize("identity", UNSAFE)
def test_fastmath_leaves_every_other_type_alone(identity: str) -> None:
    case = CASES[identity]
    fast = sc.symbolic(case.function, fastmath=True)
    fast(*case.first)
    typed = sc.compiled_function(fast, *case.first)
    check_like_original(case.function, [typed, fast], len(case.first),
                        where=lambda args: not all(type(value) is float for value in args))


# ---------------------------------------------------------------------------
# the type guard
# ---------------------------------------------------------------------------


def test_source_shows_the_version_the_arguments_select() -> None:
    compiled = sc.symbolic(times_one_float)
    typed = sc.source(compiled, 2.0)
    assert typed == ("def times_one_float(x):\n"
                     "    if type(x) is not float:\n"
                     "        return other_types(x)\n"
                     "    return x\n")
    general = "def times_one_float(x):\n    return x * 1.0\n"
    assert sc.source(compiled, 2) == general
    assert sc.source(compiled, True) == general
    assert sc.source(compiled, np.float64(2.0)) == general
    assert compiled.source == general


def test_after_max_type_misses_the_version_for_any_types_is_installed(compile_counter: list[str]) -> None:
    compiled = sc.symbolic(times_one_float)
    state = compiled._symcompile.cache
    assert compiled(2.0) == 2.0
    typed = sc.compiled_function(compiled, 2.0)
    assert compiled.__code__ is typed.__code__
    for misses in range(1, api.MAX_TYPE_MISSES):
        assert same_value(compiled(2), 2.0)
        assert state.type_misses == misses
        assert compiled.__code__ is typed.__code__  # still the float version
    assert same_value(compiled(2), 2.0)
    general = sc.compiled_function(compiled, 2)
    assert compiled.__code__ is general.__code__
    assert state.versions[api.GENERAL] is state.untyped[api.GENERAL]
    assert sc.compiled_function(compiled, 2.0) is general
    assert sc.source(compiled, 2.0) == compiled.source == "def times_one_float(x):\n    return x * 1.0\n"
    assert same_value(compiled(-0.0), -0.0)
    assert compile_counter == ["times_one_float", "times_one_float"]  # no compile per miss


def test_a_float_subclass_is_not_a_float() -> None:
    compiled = sc.symbolic(times_one_float)
    compiled(2.0)
    value = OffByHalf(2.0)
    assert same_value(times_one_float(value), 2.5)
    assert same_value(compiled(value), 2.5)
    assert compiled._symcompile.cache.type_misses == 1
    fast = sc.symbolic(times_zero_float, fastmath=True)
    fast(2.0)
    assert same_value(fast(OffByHalf(2.0)), (0.5, 0.5))


def test_a_numpy_float64_is_not_a_float() -> None:
    compiled = sc.symbolic(times_one_float)
    compiled(2.0)
    result = compiled(np.float64(-0.0))
    assert type(result) is np.float64 and same_value(result, np.float64(-0.0))
    assert compiled._symcompile.cache.type_misses == 1
    fast = sc.symbolic(times_zero_float, fastmath=True)
    fast(2.0)
    # np.float64(-3.0) * 0.0 is np.float64(-0.0); the float version's `0.0` is a float, and +0.0
    expected = (np.float64(-0.0), np.float64(-0.0))
    assert same_value(times_zero_float(np.float64(-3.0)), expected)
    assert same_value(fast(np.float64(-3.0)), expected)


def scaled_by(x, n):
    return x * 1.0 * n


def test_static_arguments_with_argument_types() -> None:
    compiled = sc.symbolic(scaled_by, static_argnames=("n",))
    assert same_value(compiled(2.0, 3), 6.0)
    typed = sc.source(compiled, 2.0, 3)
    assert "    if type(x) is not float:\n        return other_types(x, n)\n" in typed
    assert typed.endswith("    return x * 3.0\n")
    assert "type(n)" not in typed  # a static value is checked by value, not by type
    general = sc.source(compiled, 2, 3)
    assert "type(x)" not in general and general.endswith("    return x * 1.0 * 3\n")
    assert sc.source(compiled, 2.0, -0.0).endswith("    return x * -0.0\n")
    for n in (3, -0.0, True, 2**80):
        for x in CORNERS:
            assert_equivalent(scaled_by, compiled, (x, n))


def test_an_equal_static_value_in_another_object() -> None:
    compiled = sc.symbolic(scaled_by, static_argnames=("n",))
    first, second = float("2.5"), float("2.5")
    assert first is not second
    assert same_value(compiled(2.0, first), 5.0)
    assert same_value(compiled(2.0, second), 5.0)


# ---------------------------------------------------------------------------
# types flowing through statements
# ---------------------------------------------------------------------------


def flows_through_statements(x, n):
    y = x * 2
    if n > 0:
        y = y + 1.0
    else:
        y = -y
    while n > 0:
        y = y * 0.5
        n = n - 1
    return y * 1.0, n * 1.0, math.sqrt(n) * 1.0


def join_of_float_and_int(x, flag):
    if flag:
        y = x
    else:
        y = 1
    return y * 1.0


def loop_may_make_an_int(x, n):
    y = x
    for i in range(n):
        y = i
    return y * 1.0


def loop_target_after_the_loop(x, values):
    for x in values:
        pass
    return x * 1.0


def test_types_flow_through_branches_and_loops() -> None:
    compiled = sc.symbolic(flows_through_statements)
    compiled(2.0, 3)
    typed = sc.source(compiled, 2.0, 3)
    assert "    if type(x) is not float:\n" in typed and "type(n)" not in typed
    assert "    y = x * 2.0\n" in typed
    # y stays a float; n is an int (`1.0 * n` is a float), math.sqrt always gives a float
    assert "    return y, n * 1.0, sqrt(n)\n" in typed
    typed_function = sc.compiled_function(compiled, 2.0, 3)
    for x, n in itertools.product(CORNERS, (3, 0, -2, True)):
        assert_equivalent(flows_through_statements, typed_function, (x, n))
        assert_equivalent(flows_through_statements, compiled, (x, n))


@pytest.mark.parametrize("function, first, other, expected", [
    (join_of_float_and_int, (2.0, True), (2.0, False), 1.0),
    (loop_may_make_an_int, (2.0, 3), (2.0, 3), 2.0),
    (loop_target_after_the_loop, (2.0, [1.0]), (2.0, [3]), 3.0),
])
def test_a_value_that_may_be_an_int_is_not_a_float(function: Callable[..., Any], first: tuple[Any, ...],
                                                   other: tuple[Any, ...], expected: float) -> None:
    compiled = sc.symbolic(function)
    compiled(*first)
    assert sc.source(compiled, *first) == as_written(function)  # `y * 1.0` stays
    assert same_value(compiled(*other), expected)  # an int times 1.0: a float
    assert_equivalent(function, compiled, other)


# ---------------------------------------------------------------------------
# speculate_loop_types
# ---------------------------------------------------------------------------


def squares(values):
    out = []
    for a in values:
        out.append(1.0 * a * a)
    return out


def newton_steps(values):
    out = []
    for a in values:
        x = a
        x = x - (1.0 * x * x * x - a) / (3 * (1.0 * x * x))
        out.append(x)
    return out


def test_a_loop_gets_a_float_copy_of_its_body() -> None:
    compiled = sc.symbolic(squares)
    assert compiled([2.0]) == [4.0]
    assert compiled.source == ("def squares(values):\n"
                               "    out = []\n"
                               "    for a in values:\n"
                               "        if type(a) is float:\n"
                               "            out.append(a * a)\n"
                               "        else:\n"
                               "            out.append(1.0 * a * a)\n"
                               "    return out\n")
    mixed = [*CORNERS, np.array([[1e200, -0.0], [math.nan, 2.0]])]
    assert_equivalent(squares, compiled, (mixed,))
    assert_equivalent(squares, compiled, (mixed[::-1],))

    @SETTINGS
    @given(values=st.lists(any_value(), max_size=6))
    def check(values: list[Any]) -> None:
        assert_equivalent(squares, compiled, (values,))

    check()


def test_newton_step_in_a_loop() -> None:
    compiled = sc.symbolic(newton_steps)
    compiled([8.0])
    source = str(compiled.source)
    assert "        if type(a) is float:\n" in source
    assert "(3.0 * " in source and "1.0 * a * a" in source  # the float copy, and the body as written
    assert source.count("1.0 *") == 2  # the general copy, unshared: its types are unknown
    mixed = [8.0, -27.0, 1e200, math.inf, math.nan, -0.0, 5e-324, 3, -(2**80), True,
             complex(1.0, -0.0), complex(math.inf, 1.0), np.float64(-8.0), np.float64(math.nan),
             OffByHalf(8.0), OffByHalf(-0.5)]
    assert_equivalent(newton_steps, compiled, (mixed,))
    assert_equivalent(newton_steps, compiled, ([0.0],))  # ZeroDivisionError in both
    assert_equivalent(newton_steps, compiled, ([2, 0],))

    @SETTINGS
    @given(values=mixed_lists())
    def check(values: list[Any]) -> None:
        assert_equivalent(newton_steps, compiled, (values,))

    check()


def test_operators_of_a_float_subclass_run_as_often_as_written() -> None:
    compiled = sc.symbolic(newton_steps)
    compiled([8.0])
    assert_equivalent(newton_steps, compiled, ([CountingFloat(8.0)],))


def test_benchmark_newton_cbrt_on_mixed_lists() -> None:
    compiled = sc.symbolic(bench_loops.newton_cbrt)
    assert_equivalent(bench_loops.newton_cbrt, compiled, (bench_loops.newton_args()[0][:200],))
    assert "if type(a) is float" in compiled.source
    mixed = [27.0, 8, True, -(2**80), 2**80, complex(8.0, -0.0), np.float64(-64.0),
             OffByHalf(27.0), -0.0, math.inf, math.nan]
    assert_equivalent(bench_loops.newton_cbrt, compiled, (mixed,))

    @SETTINGS
    @given(values=mixed_lists())
    def check(values: list[Any]) -> None:
        assert_equivalent(bench_loops.newton_cbrt, compiled, (values,))

    check()


# ---------------------------------------------------------------------------
# rewrites that must not happen
# ---------------------------------------------------------------------------


def floor_quotient_times_zero(a, b):
    return (a // b) * 0


def plus_huge_int(x):
    return x + 2**1100


def test_an_operand_that_may_raise_is_kept(fired_rules: list[str]) -> None:
    compiled = sc.symbolic(floor_quotient_times_zero)
    assert compiled(7, 2) == 0
    assert "a // b" in sc.source(compiled, 7, 2)
    assert "x * 0 → 0" not in fired_rules
    with pytest.raises(ZeroDivisionError):
        compiled(7, 0)
    compiled = sc.symbolic(plus_huge_int)
    with pytest.raises(OverflowError):  # int too large to convert to float
        compiled(2.0)
    source = sc.source(compiled, 2.0)  # the constant is folded, not made a float
    assert source == compiled.source and "type(x)" not in source and str(2**1100) in source


@pytest.mark.parametrize("function, expected", [
    (plus_zero_int, (1, 1)), (times_one_int, (1, 1)), (double_negation, 1)])
def test_bool_operands_are_not_ints(function: Callable[..., Any], expected: object,
                                    fired_rules: list[str]) -> None:
    compiled = sc.symbolic(function)
    assert same_value(compiled(True), expected)  # True + 0, True * 1 and -(-True) are the int 1
    assert same_value(function(True), expected)
    assert sc.source(compiled, True) == as_written(function)
    assert fired_rules == []


def test_a_float_squared_stays_a_power() -> None:
    compiled = sc.symbolic(squared)
    with pytest.raises(OverflowError):
        compiled(1e200)  # 1e200 ** 2 raises, 1e200 * 1e200 is inf
    assert "k * k" not in sc.source(compiled, 1e200)
    assert sc.source(compiled, 1e200).endswith("    return k ** 2.0\n")
    assert same_value(compiled(1.5), 2.25)


def test_one_times_an_int_stays() -> None:
    compiled = sc.symbolic(times_one_float)
    assert same_value(compiled(2), 2.0)
    assert sc.source(compiled, 2) == as_written(times_one_float)
    assert same_value(compiled(2**80), float(2**80))
    with pytest.raises(OverflowError):
        compiled(2**1100)


def test_a_complex_times_one_stays() -> None:
    compiled = sc.symbolic(times_one_float)
    first = complex(1.0, -0.0)
    # multiplying by 1.0 (as the complex 1+0j) loses the sign of -0.0 and turns inf * 0 into NaN
    assert same_value(first * 1.0, complex(1.0, 0.0))
    assert same_value(complex(math.inf, 1.0) * 1.0, complex(math.inf, math.inf * 0.0))  # a made NaN
    assert same_value(compiled(first), complex(1.0, 0.0))
    assert sc.source(compiled, first) == as_written(times_one_float)
    assert same_value(compiled(complex(math.inf, 1.0)), complex(math.inf, math.inf * 0.0))


@pytest.mark.parametrize("first", [2.0, np.array([1.0])])
def test_an_array_is_never_the_callers_own(first: Any) -> None:
    compiled = sc.symbolic(times_one_float)
    compiled(first)
    x = np.array([1.5, -0.0, math.nan])
    result = compiled(x)
    assert result is not x and not np.shares_memory(result, x)
    assert same_value(result, x * 1.0)


def derived_float(n):
    return (n / 2) * 1.0


def test_the_entry_check_is_on_the_argument_type_not_on_a_derived_one() -> None:
    """`n / 2` is a float because n is an int: the version relies on n being an int."""
    compiled = sc.symbolic(derived_float)
    source = sc.source(compiled, 3)
    assert "    if type(n) is not int:\n" in source and source.endswith("    return n / 2\n")
    for n in (3, 3.0, True, 2**80, -0.0):
        assert_equivalent(derived_float, compiled, (n,))
