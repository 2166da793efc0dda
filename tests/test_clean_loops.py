"""speculate_clean_loops: a loop checking an inlined helper on every turn gets a copy without
the checks, behind a test of its locals' types and a recheck. The compiled code must behave as
the original for any inputs: helpers and `range` rebound before a call or mid-loop by an
operand's own method, ints and float subclasses where floats were seen, NaN, -0.0, errors
part way."""

from __future__ import annotations

import math

import pytest

import symcompile as sc
from symcompile.runtime.oracle import assert_equivalent

MODULE = """\
    import math

    def integrand(x):
        return math.exp(-x * x) * math.cos(3 * x)

    def trapezoid(a, b, n):
        h = (b - a) / n
        total = 0.5 * (integrand(a) + integrand(b))
        for k in range(1, n):
            total += integrand(a + k * h)
        return total * h

    def root(x):
        return math.sqrt(x) + 1.0

    def roots(t, n):
        for k in range(n):
            t = root(t - 3.0)
        return t

    def other(x):
        return x - 1.0

    class Rebinding(float):
        # a float subclass whose `+` rebinds the module's helper, as code the compiler cannot
        # see may
        def __add__(self, other):
            globals()["integrand"] = other_integrand
            return float(self) + other

        __radd__ = __add__

    def other_integrand(x):
        return 2.0 * x

    def half(x):
        return x * 0.5 + 1.0

    class Pusher:
        # a method the loop calls, which rebinds the helper: the loop is never clean
        def push(self, value):
            globals()["half"] = other

    def step(x, c):
        return x * x + c

    def escape(c, limit):
        # a while loop calling a helper, with a break and an else
        x = 0.0
        count = 0
        while count < limit:
            x = step(x, c)
            if x > 4.0:
                break
            count += 1
        else:
            count = -1
        return count, x

    def nested(cs, limit):
        out = []
        for c in cs:
            t = 0.0
            for k in range(limit):
                t = step(t, c) * 0.5
                if t != t:
                    continue
            out.append(t)
        return out

    def pushing(t, obj, n):
        for k in range(n):
            t = half(t)
            obj.push(t)
        return t
    """


def _fresh(make_module):
    return make_module(MODULE)


def test_never_slower_the_loop_runs_without_checks_for_floats(make_module):
    module = _fresh(make_module)
    source = sc.source(sc.symbolic(module.trapezoid), -2.0, 3.0, 30)
    copy, kept = source.split("if type(total) is float")[1].split("else:\n        for k")
    assert "integrand is" not in copy and "integrand(" not in copy
    assert "integrand is integrand_2" in kept


@pytest.mark.parametrize("args", [
    (-2.0, 3.0, 30), (-2.0, 3.0, 1), (-2.0, 3.0, 0), (0.0, -0.0, 5), (math.nan, 1.0, 4),
    (-2, 3, 30), (-2.0, 3.0, 30.0), (-2.0, 3.0, True), (math.inf, 1.0, 3),
])
def test_same_results_for_numbers_of_any_kind(make_module, args):
    module = _fresh(make_module)
    assert_equivalent(module.trapezoid, sc.symbolic(module.trapezoid), args)


def test_same_results_where_an_operand_rebinds_the_helper_mid_loop(make_module):
    # the original calls the new integrand after the first `+`; a float subclass fails the
    # copy's test, so the loop as written runs (each variant in a module of its own: the first
    # `+` rebinds the module's global for good)
    results = []
    for compiled in (False, True):
        module = _fresh(make_module)
        variant = sc.symbolic(module.trapezoid) if compiled else module.trapezoid
        variant(0.5, 3.0, 20)  # the version for floats first
        results.append(variant(module.Rebinding(0.5), 3.0, 20).hex())
    assert results[0] == results[1]


def test_same_results_after_the_helper_or_range_is_rebound(make_module):
    module = _fresh(make_module)
    compiled = sc.symbolic(module.trapezoid)
    expected = module.trapezoid(-2.0, 3.0, 30)
    assert compiled(-2.0, 3.0, 30) == expected
    module.integrand = module.other_integrand
    assert compiled(-2.0, 3.0, 30) == module.trapezoid(-2.0, 3.0, 30)
    module.range = lambda *args: [1, 2]
    try:
        assert compiled(-2.0, 3.0, 30) == module.trapezoid(-2.0, 3.0, 30)
    finally:
        del module.range


@pytest.mark.parametrize("args", [(20.0, 5), (2.0, 5), (0.0, 3), (-0.0, 0), (math.nan, 2), (20, 5)])
def test_same_errors_part_way(make_module, args):
    # sqrt of a negative raises ValueError on some turn, as the original does on that turn
    module = _fresh(make_module)
    assert_equivalent(module.roots, sc.symbolic(module.roots), args)


def test_same_results_where_the_loop_calls_code_that_rebinds_the_helper(make_module):
    results = []
    for compiled in (False, True):
        module = _fresh(make_module)
        variant = sc.symbolic(module.pushing) if compiled else module.pushing
        results.append(variant(4.0, module.Pusher(), 5).hex())
    assert results[0] == results[1]


@pytest.mark.parametrize("args", [
    (0.25, 50), (-2.0, 50), (0.5, 0), (1, 20), (True, 3), (math.nan, 5), (-0.0, 5),
    (0.3, 10**3), (2.0, 2.5),
])
def test_same_results_while_loops_with_break_and_else(make_module, args):
    module = _fresh(make_module)
    assert_equivalent(module.escape, sc.symbolic(module.escape), args)


@pytest.mark.parametrize("args", [
    ([0.25, -1.5, 0.1], 30), ([0.25, 1, 2**60], 3), ([], 4), ([math.inf, math.nan], 5),
    ((0.5, -0.0), 6), ([0.25], -1),
])
def test_same_results_inner_loops_of_any_kind(make_module, args):
    module = _fresh(make_module)
    assert_equivalent(module.nested, sc.symbolic(module.nested), args)


def test_never_slower_while_and_inner_loops_lose_their_checks(make_module):
    module = _fresh(make_module)
    for function, args in ((module.escape, (0.25, 50)), (module.nested, ([0.25], 30))):
        source = sc.source(sc.symbolic(function), *args)
        assert "held" in source and source.count("step(") == 1, source  # the kept loop's call
