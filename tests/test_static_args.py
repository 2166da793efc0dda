"""static_argnames: one compiled version per value of the parameters named, with the value
written into the code, selected on every call."""

from __future__ import annotations

import pytest

import symcompile as sc
from symcompile.passes import pipeline


@sc.symbolic(static_argnames=("n",))
def power(x, n):
    result = 1.0
    for _ in range(n):
        result = result * x
    return result


@sc.symbolic(static_argnames="n", guards=False)
def power_unguarded(x, n=2):
    result = 1.0
    for _ in range(n):
        result = result * x
    return result


def test_each_value_gets_its_own_residual_program(compile_counter, specialize_always):  # paying or not
    assert power(2.0, 3) == 8.0
    assert power(2.0, 5) == 32.0
    assert power(3.0, 3) == 27.0
    assert power(3.0, n=5) == 243.0
    assert compile_counter == ["power", "power"]
    # compiled for a float x, so `1.0 * x` is x (see simplify_algebra)
    assert "return x * x * x\n" in sc.source(power, 2.0, 3)
    assert "return x * x * x * x * x\n" in sc.source(power, 2.0, n=5)
    assert compile_counter == ["power", "power"]
    assert "return 1.0 * x * x * x\n" in sc.source(power, 2, 3)  # an int x: as written
    assert compile_counter == ["power", "power", "power"]


def test_static_values_are_checked_even_without_global_guards():
    assert power_unguarded(2.0) == 4.0  # the default value is a static value too
    assert power_unguarded(2.0, 3) == 8.0
    assert power_unguarded(2.0) == 4.0
    source = sc.source(power_unguarded, 2.0)
    assert "n is not n_2" in source and "range is not" not in source


def test_values_compare_by_type_and_bits():
    @sc.symbolic(static_argnames=("scale",))
    def scaled(x, scale):
        return x * scale

    assert scaled(3, 2) == 6 and type(scaled(3, 2)) is int
    assert scaled(3, 2.0) == 6.0 and type(scaled(3, 2.0)) is float
    assert str(scaled(1.0, -0.0)) == "-0.0"
    assert str(scaled(1.0, 0.0)) == "0.0"


def test_a_version_is_reached_without_recompiling_when_values_alternate(compile_counter):
    @sc.symbolic(static_argnames=("n",))
    def repeat(s, n):
        return s * n

    for _ in range(3):
        assert repeat("ab", 2) == "abab"
        assert repeat("ab", 3) == "ababab"
    assert compile_counter == ["repeat", "repeat"]


def test_whole_source_needs_arguments_until_a_call_installs_a_version():
    @sc.symbolic(static_argnames=("n",))
    def cube_or_more(x, n):
        return x ** n

    with pytest.raises(TypeError, match="specializes on n"):
        str(cube_or_more.source)
    assert cube_or_more(2.0, 3) == 8.0
    assert isinstance(cube_or_more.source, str)
    assert cube_or_more.source == sc.source(cube_or_more, 2.0, 3)
    assert cube_or_more(2.0, 4) == 16.0  # another value: its version runs, none is installed
    assert cube_or_more.source == sc.source(cube_or_more, 2.0, 3)


def test_bad_static_argnames_are_refused():
    def f(x, *rest, **options):
        return x

    for bad in ("y", "rest", "options"):
        with pytest.raises(TypeError, match="is not a named parameter"):
            sc.symbolic(f, static_argnames=(bad,))


def test_specialize_starts_the_body_with_the_values():
    def f(x, n):
        """Doc."""
        return x * n

    before, _, _ = pipeline.optimize(f, passes=[])
    specialized = pipeline.specialize(before, {"n": 3})
    assert [type(stmt).__name__ for stmt in specialized.body] == ["ExprStmt", "Assign", "Return"]
    assert [(a.name, a.argument) for a in specialized.assumptions] == [("n", True)]
