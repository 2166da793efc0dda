"""Inlining the binary operator methods of user classes (`a + b` → `Vec2.__add__`), behind a
check of the receiver's class and method and of the other operand's class where Python looks
the method up: each condition of analysis/methods.py and inline_calls, checked against the
original with the oracle."""

from __future__ import annotations

import types
from typing import Callable

import pytest

import symcompile as sc
from symcompile.runtime.oracle import assert_equivalent

VEC2 = """
    class Vec2:
        def __init__(self, x, y):
            self.x = x
            self.y = y

        def __add__(self, other):
            return (self.x + other.x, self.y + other.y)

        def __mul__(self, k):
            return self.x * k + self.y * k


    def combine(a, b, k):
        c = a + b
        d = a * k
        return c[0] + d, type(c).__name__
"""

Make = Callable[[str], types.ModuleType]


def test_never_a_wrong_answer_operators_inlined_as_methods(make_module: Make) -> None:
    module = make_module(VEC2)
    compiled = sc.symbolic(module.combine)
    args = (module.Vec2(1.0, 2.0), module.Vec2(3.0, 4.0), 2.0)
    assert compiled(*args) == module.combine(*args) == (10.0, "tuple")
    source = sc.source(compiled, *args)
    assert "(a.x + b.x, a.y + b.y)" in source and "(b) is Vec2" in source
    assert "'__mul__',None)ismul" in "".join(source.split())
    text = str(sc.explain(compiled, *args))
    assert "inline Vec2.__add__" in text and "inline Vec2.__mul__" in text
    assert_equivalent(module.combine, compiled, (module.Vec2(0.5, -1.0), module.Vec2(2, 3), 3.0))


def test_never_a_wrong_answer_reflected_method_of_a_subclass_runs_first(make_module: Make) -> None:
    module = make_module(VEC2 + """
    class Right(Vec2):
        def __radd__(self, other):
            return (-100.0, -100.0)


    class Plain(Vec2):
        pass
    """)
    compiled = sc.symbolic(module.combine)
    compiled(module.Vec2(1.0, 2.0), module.Vec2(3.0, 4.0), 2.0)  # compiled for Vec2, Vec2
    for other in (module.Right(3.0, 4.0), module.Plain(3.0, 4.0)):
        assert_equivalent(module.combine, compiled, (module.Vec2(1.0, 2.0), other, 2.0))
    assert compiled(module.Vec2(1.0, 2.0), module.Right(3.0, 4.0), 2.0)[0] == -94.0
    for receiver in (module.Right(1.0, 2.0), module.Plain(1.0, 2.0)):
        assert_equivalent(module.combine, compiled, (receiver, module.Vec2(3.0, 4.0), 2.0))


def test_never_a_wrong_answer_operator_method_rebound_after_compiling(make_module: Make) -> None:
    module = make_module(VEC2)
    compiled = sc.symbolic(module.combine)
    args = (module.Vec2(1.0, 2.0), module.Vec2(3.0, 4.0), 2.0)
    compiled(*args)
    module.Vec2.__add__ = lambda self, other: [0.0, 0.0]
    assert compiled(*args) == module.combine(*args) == (6.0, "list")


def test_same_exceptions_method_deleted_after_compiling(make_module: Make) -> None:
    module = make_module(VEC2)
    compiled = sc.symbolic(module.combine)
    args = (module.Vec2(1.0, 2.0), module.Vec2(3.0, 4.0), 2.0)
    compiled(*args)
    assert "(a.x + b.x, a.y + b.y)" in sc.source(compiled, *args)
    del module.Vec2.__add__
    for function in (module.combine, compiled):
        with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \+: 'Vec2' and"):
            function(*args)
    assert_equivalent(module.combine, compiled, args)


def test_never_a_wrong_answer_method_that_may_return_not_implemented(make_module: Make) -> None:
    module = make_module("""
    class Vec:
        def __init__(self, x):
            self.x = x

        def __add__(self, other):
            if type(other) is not Vec:
                return NotImplemented
            return Vec(self.x + other.x)

        def __sub__(self, other):
            return self.helper(other)

        def helper(self, other):
            return NotImplemented


    class Other:
        def __radd__(self, other):
            return "reflected add"

        def __rsub__(self, other):
            return "reflected sub"


    def f(a, b):
        return a + b, a - b
    """)
    compiled = sc.symbolic(module.f)
    assert_equivalent(module.f, compiled, (module.Vec(1.0), module.Other()))
    assert compiled(module.Vec(1.0), module.Other()) == ("reflected add", "reflected sub")
    text = str(sc.explain(compiled, module.Vec(1.0), module.Other()))
    assert "it may return NotImplemented" in text
    assert "inline Vec.__add__" not in text and "inline Vec.__sub__" not in text


def test_same_exceptions_inside_an_inlined_operator(make_module: Make) -> None:
    module = make_module(VEC2)
    compiled = sc.symbolic(module.combine)
    compiled(module.Vec2(1.0, 2.0), module.Vec2(3.0, 4.0), 2.0)
    with pytest.raises(TypeError, match="can't multiply sequence by non-int of type 'float'"):
        compiled(module.Vec2("a", 2.0), module.Vec2("b", 4.0), 2.0)
    assert_equivalent(module.combine, compiled,
                      (module.Vec2("a", 2.0), module.Vec2("b", 4.0), 2.0))
    assert_equivalent(module.combine, compiled, (module.Vec2(1.0, 2.0), 3.0, 2.0))


def test_never_a_wrong_answer_operand_retyped_while_running(make_module: Make) -> None:
    module = make_module(VEC2 + """
    class Right(Vec2):
        def __radd__(self, other):
            return (-1.0, -1.0)


    def summed(a, b, hook):
        total = 0.0
        for i in range(3):
            total += (a + b)[0]
            hook(b, i)
        return total


    def retype(b, i):
        if i == 0:
            b.__class__ = Right
    """)
    compiled = sc.symbolic(module.summed)
    compiled(module.Vec2(1.0, 2.0), module.Vec2(3.0, 4.0), lambda b, i: None)
    assert_equivalent(module.summed, compiled,
                      (module.Vec2(1.0, 2.0), module.Vec2(3.0, 4.0), module.retype))
    assert compiled(module.Vec2(1.0, 2.0), module.Vec2(3.0, 4.0), module.retype) == 2.0


def test_never_slower_operator_whose_body_calls_a_constructor_not_inlined(
        make_module: Make) -> None:
    module = make_module("""
    class Vec2:
        def __init__(self, x, y):
            self.x = x
            self.y = y

        def __add__(self, other):
            return Vec2(self.x + other.x, self.y + other.y)


    def f(a, b):
        return (a + b).y
    """)
    compiled = sc.symbolic(module.f)
    args = (module.Vec2(1.0, 2.0), module.Vec2(3.0, 4.0))
    assert compiled(*args) == module.f(*args) == 6.0
    assert "'__add__'" not in sc.source(compiled, *args)
    assert "saving one call does not pay for the check" in str(sc.explain(compiled, *args))
