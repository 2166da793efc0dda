"""eliminate_common_subexpressions under the differential oracle (`symcompile/runtime/oracle.py`).

The functions below are compiled by the pass alone and by the default pipeline, and run on
their parameters' conventional inputs (`tests/strategies.py`: floats with NaN, -0.0, inf and
1e200, big ints, float arrays of several shapes), corner cases first. The oracle compares
values by type and bits, exceptions, warnings, mutation of the arguments and aliasing: which
result objects are the same object, and which share memory with an argument. In the first
group the pass must share something in the version for the argument types of `TYPED_CALLS`,
in the second nothing.

Only arithmetic on numbers is shared: a shared array operation would warn once where the
original warns at every occurrence (`test_array_operations_are_not_shared`). The array
functions are compared with NumPy's floating-point errors ignored, and with them raised.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings

import symcompile as sc
from symcompile import ir
from symcompile.passes import pipeline
from symcompile.passes.eliminate_common_subexpressions import (
    eliminate_common_subexpressions,
)
from symcompile.runtime.oracle import assert_equivalent
from tests.strategies import Call, arguments_for, corner_calls

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ---------------------------------------------------------------------------
# functions in which the pass shares an expression
# ---------------------------------------------------------------------------


def newton_step(x, y):
    return x - (1.0 * x * x * x - y) / (3 * (1.0 * x * x))


def signed_zeros(x, y):
    a = (x * y + 0.0) * (x * y + -0.0)
    b = (x * y) / (x * y - 0.0)
    return a, b


def big_products(k, i):
    p = (k * i + 1) * (k * i)
    q = p // (k * i - 7) + (k * i) % 5
    return p, q


def conditional_later(x, y, flag):
    u = x * y + 1.0
    v = flag and x * y > 0
    w = (x * y) ** 2 if flag else u
    return u, v, w


def comparisons(x, y):
    return (x < y) + (x < y) * 2


def array_products(arr, u):
    return (arr * u + 1.0) * (arr * u)


def array_statements(arr, u):
    a = (arr - u) * (arr - u)
    b = a.sum()
    c = (arr - u) / 2.0
    return a, b, c


# ---------------------------------------------------------------------------
# functions in which it must share nothing
# ---------------------------------------------------------------------------


def array_pair(arr):
    return arr * 2, arr * 2


def array_in_place(arr, u):
    a = (arr + u) * 2.0
    arr += 1.0
    b = (arr + u) * 2.0
    return a, b


def array_mutated_by_call(arr, u):
    a = (arr * u) + 1.0
    np.negative(arr, out=arr)
    b = (arr * u) + 1.0
    return a, b


def array_mutated_in_statement(arr, u):
    return (arr * u) + np.negative(arr, out=arr) + (arr * u)


def array_escapes_later(arr):
    return (arr * 3.0) + 1.0, arr * 3.0, arr * 3.0


def rebound_between(x, y):
    a = (x * y) + 1.0
    x = y
    b = (x * y) + 1.0
    return a, b


def identity(x, y):
    return (x * y) is (x * y)


def first_behind_and(x, y, flag):
    return flag and (x / y) + (x / y)


def first_after_work(x, y):
    return (x / y) + (1e200 ** x) * 2 + (1e200 ** x) * 3


def augmented_reads_first(x, y, flag):
    if flag:
        v = 1.0
    v += (x / y) + (x / y)
    return v


SHARING = [newton_step, signed_zeros, big_products, conditional_later, comparisons]
NOT_SHARING = [array_products, array_statements, array_pair, array_in_place,
               array_mutated_by_call, array_mutated_in_statement, array_escapes_later,
               rebound_between, identity, first_behind_and, first_after_work,
               augmented_reads_first]
ARRAY_FUNCTIONS = {array_products, array_statements, array_pair, array_in_place,
                   array_mutated_by_call, array_mutated_in_statement, array_escapes_later}
# a call of each function whose argument types are numbers: the pass may share in the version
# for them (and must, in the sharing functions)
TYPED_CALLS: dict[types.FunctionType, tuple[Any, ...]] = {
    newton_step: (1.5, 2.0), signed_zeros: (1.5, 2.0), big_products: (3, 4),
    conditional_later: (1.5, 2.0, True), comparisons: (1.5, 2.0),
    rebound_between: (1.5, 2.0), identity: (1.5, 2.0), first_behind_and: (1.5, 2.0, True),
    first_after_work: (1.5, 2.0), augmented_reads_first: (1.5, 2.0, True),
}
# calls that hypothesis might not draw: where computing the expression early would raise
EXAMPLES: dict[types.FunctionType, list[Call]] = {
    first_behind_and: [((1.0, 0.0, False), {})],
    first_after_work: [((2.0, 0.0), {})],
    augmented_reads_first: [((1.0, 0.0, False), {})],
}


def _cse_alone(func: types.FunctionType) -> Any:
    return sc.symbolic(func, passes=[eliminate_common_subexpressions])


def _check(func: types.FunctionType, compiled: Callable[..., Any]) -> None:
    """`compiled` behaves like `func` on corner and hypothesis calls (array functions with
    NumPy's floating-point errors ignored, then raised)."""
    modes = ({"all": "ignore"}, {"all": "raise"}) if func in ARRAY_FUNCTIONS else ({},)

    def check(call: Call) -> None:
        args, kwargs = call
        for mode in modes:
            with np.errstate(**mode):
                assert_equivalent(func, compiled, args, kwargs)

    test = SETTINGS(given(call=arguments_for(func))(check))
    for call in [*corner_calls(func), *EXAMPLES.get(func, [])]:
        test = example(call=call)(test)
    test()


@pytest.mark.usefixtures("specialize_always")  # the version for the types given, paying or not
@pytest.mark.parametrize("func", SHARING, ids=[f.__name__ for f in SHARING])
def test_shared_expressions_behave_like_the_original(func: types.FunctionType) -> None:
    alone = _cse_alone(func)
    general = str(alone.source)  # before a call installs a version: the one for any types
    typed = sc.source(alone, *TYPED_CALLS[func])
    assert typed != str(sc.symbolic(func, passes=[]).source), "nothing was shared"
    assert general == str(sc.symbolic(func, passes=[]).source), "shared for any types"
    _check(func, alone)
    _check(func, sc.symbolic(func))


@pytest.mark.parametrize("func", NOT_SHARING, ids=[f.__name__ for f in NOT_SHARING])
def test_nothing_is_shared_where_it_would_be_wrong(func: types.FunctionType) -> None:
    alone = _cse_alone(func)
    assert str(alone.source) == str(sc.symbolic(func, passes=[]).source)
    typed = TYPED_CALLS.get(func)
    if typed is not None:
        assert sc.source(alone, *typed) == str(alone.source)
    _check(func, alone)
    _check(func, sc.symbolic(func))


def test_results_stay_distinct_arrays() -> None:
    arr = np.arange(3.0)
    first, second = sc.symbolic(array_pair)(arr)
    assert first is not second and not np.shares_memory(first, second)
    result = _cse_alone(array_products)(arr, arr)
    assert not np.shares_memory(result, arr)
    np.testing.assert_array_equal(result, (arr * arr + 1.0) * (arr * arr))


def test_array_operations_are_not_shared() -> None:
    """Shared, `arr * u` would warn of its overflow once where the original warns twice."""
    arr = np.array([1e200, 1.0])
    assert_equivalent(array_products, _cse_alone(array_products), (arr, arr))
    assert sc.source(_cse_alone(array_products), arr, arr) == str(
        sc.symbolic(array_products, passes=[]).source)


# ---------------------------------------------------------------------------
# the pass on the IR
# ---------------------------------------------------------------------------


def _ir(func: types.FunctionType, **argument_types: type) -> Any:
    before, _, _ = pipeline.optimize(func, passes=[], argument_types=argument_types)
    return before


def test_unchanged_function_is_the_same_object_and_the_pass_is_idempotent() -> None:
    for func in (*SHARING, *NOT_SHARING):
        once = eliminate_common_subexpressions(_ir(func))
        assert eliminate_common_subexpressions(once) is once


def square_twice(x):
    return x * x


def test_a_node_object_met_again_where_it_escapes_is_not_replaced() -> None:
    """The IR is a DAG: one node object may sit in several places. In `(X + X, X)` with X
    one object, X is replaced by identity, so sharing it would return the temporary too."""
    function = _ir(square_twice, x=float)
    square = function.body[0].value
    copies = [ir.Op("mul", square.args) for _ in range(3)]
    distinct = ir.Build("tuple", (ir.Op("add", (copies[0], copies[1])), copies[2]))
    shared = eliminate_common_subexpressions(function.with_body((ir.Return(distinct),)))
    assert ir.format_function(shared).splitlines()[1:] == [
        "    |   t = (mul x x)", "    |   return (tuple (add t t) (mul x x))"]
    one_object = ir.Build("tuple", (ir.Op("add", (square, square)), square))
    unchanged = function.with_body((ir.Return(one_object),))
    assert eliminate_common_subexpressions(unchanged) is unchanged


def uses_locals(x, y):
    a = (x * y) + 1.0
    return a + (x * y), locals()


def test_a_function_reading_its_locals_is_left_alone() -> None:
    function = _ir(uses_locals, x=float, y=float)
    assert eliminate_common_subexpressions(function) is function
