"""Inlining the methods of user classes that operations call (`m[i, j]` → `Matrix.__getitem__`),
behind a check of the receiver's class and method where Python looks it up: each condition of
analysis/methods.py and inline_calls, checked against the original with the oracle."""

from __future__ import annotations

import types
from typing import Callable

import pytest

import symcompile as sc
from symcompile.runtime.oracle import assert_equivalent

MATRIX = """
    class Matrix:
        def __init__(self, rows, cols):
            self.rows = rows
            self.cols = cols
            self.data = [float(k) for k in range(rows * cols)]

        def __getitem__(self, index):
            i, j = index
            return self.data[i * self.cols + j]


    def trace_sum(m):
        total = 0.0
        for i in range(m.rows):
            for j in range(m.cols):
                total += m[i, j] * 0.5
        return total
"""

Make = Callable[[str], types.ModuleType]


def test_never_a_wrong_answer_subscript_inlined_as_getitem(make_module: Make) -> None:
    module = make_module(MATRIX)
    compiled = sc.symbolic(module.trace_sum)
    m = module.Matrix(3, 4)
    assert compiled(m) == module.trace_sum(m)
    source = sc.source(compiled, m)
    assert "m.data[i * m.cols + j]" in source \
        and "getattr(Matrix,'__getitem__',None)isgetitem" in "".join(source.split())
    assert_equivalent(module.trace_sum, compiled, (module.Matrix(2, 5),))
    assert "inline Matrix.__getitem__" in str(sc.explain(compiled, m))


def test_never_a_wrong_answer_subclass_passed_runs_its_own_getitem(make_module: Make) -> None:
    module = make_module(MATRIX + """
    class Doubled(Matrix):
        def __getitem__(self, index):
            return 2.0 * Matrix.__getitem__(self, index)


    class Same(Matrix):
        pass
    """)
    compiled = sc.symbolic(module.trace_sum)
    compiled(module.Matrix(2, 2))  # compiled for Matrix
    for cls in (module.Doubled, module.Same, module.Matrix):
        assert_equivalent(module.trace_sum, compiled, (cls(3, 3),))


def test_never_a_wrong_answer_method_rebound_after_compiling(make_module: Make) -> None:
    module = make_module(MATRIX)
    compiled = sc.symbolic(module.trace_sum)
    m = module.Matrix(2, 3)
    before = compiled(m)
    module.Matrix.__getitem__ = lambda self, index: 1.0
    assert compiled(m) == module.trace_sum(m) == 3.0 != before


def test_never_a_wrong_answer_class_or_method_changed_while_running(make_module: Make) -> None:
    module = make_module(MATRIX + """
    class Other(Matrix):
        def __getitem__(self, index):
            return -1.0


    def rebinding(m, hook):
        total = 0.0
        for i in range(m.rows):
            total += m[i, 0]
            hook(m, i)
        return total


    def retype(m, i):
        if i == 1:
            m.__class__ = Other


    def rebind(m, i):
        if i == 1:
            Matrix.__getitem__ = lambda self, index: 100.0
    """)
    compiled = sc.symbolic(module.rebinding)
    assert compiled(module.Matrix(4, 2), lambda m, i: None) == 12.0
    assert "inline Matrix.__getitem__" in str(sc.explain(compiled, module.Matrix(4, 2), print))
    assert_equivalent(module.rebinding, compiled, (module.Matrix(4, 2), module.retype))
    original = module.Matrix.__getitem__
    expected = module.rebinding(module.Matrix(4, 2), module.rebind)
    module.Matrix.__getitem__ = original
    assert compiled(module.Matrix(4, 2), module.rebind) == expected == 202.0


def test_same_exceptions_index_error_inside_inlined_getitem(make_module: Make) -> None:
    module = make_module(MATRIX + """
    def corner(m, i):
        return m[i, i] + 1.0
    """)
    compiled = sc.symbolic(module.corner)
    compiled(module.Matrix(2, 2), 1)
    with pytest.raises(IndexError, match="list index out of range"):
        compiled(module.Matrix(2, 2), 5)
    assert_equivalent(module.corner, compiled, (module.Matrix(2, 2), 5))
    assert_equivalent(module.corner, compiled, (module.Matrix(2, 2), "x"))


def test_never_a_wrong_answer_getattr_class_not_inlined(make_module: Make) -> None:
    module = make_module("""
    class Lookup:
        def __getattr__(self, name):
            return lambda index: index


    def f(t, i):
        return t[i]
    """)
    compiled = sc.symbolic(module.f)
    messages = []
    for function in (module.f, compiled):  # Python never asks __getattr__ for __getitem__
        with pytest.raises(TypeError) as raised:
            function(module.Lookup(), 1)
        messages.append(str(raised.value))
    assert messages[0] == messages[1] == "'Lookup' object is not subscriptable"
    assert "getitem" not in sc.source(compiled, module.Lookup(), 1)


def test_never_a_wrong_answer_slots_and_property_in_the_method(
        make_module: Make, capsys: pytest.CaptureFixture[str]) -> None:
    module = make_module("""
    class Grid:
        __slots__ = ("width", "cells")

        def __init__(self, width):
            self.width = width
            self.cells = [1.5, 2.5, 3.5, 4.5]

        def __getitem__(self, index):
            i, j = index
            return self.cells[i * self.stride + j]

        @property
        def stride(self):
            print("stride read")
            return self.width


    def f(g):
        return g[0, 1] + g[1, 1]


    def unset(g):
        del g.cells
        return g[0, 0]
    """)
    compiled = sc.symbolic(module.f)
    assert compiled(module.Grid(2)) == module.f(module.Grid(2)) == 7.0
    assert capsys.readouterr().out == "stride read\n" * 4
    assert "g.cells[" in sc.source(compiled, module.Grid(2))
    compiled_unset = sc.symbolic(module.unset)
    messages = []
    for function in (module.unset, compiled_unset):
        with pytest.raises(AttributeError) as raised:
            function(module.Grid(2))
        messages.append(str(raised.value))
    assert messages[0] == messages[1] and "cells" in messages[0]


def test_always_explainable_method_not_a_plain_function(make_module: Make) -> None:
    module = make_module("""
    class Table:
        @staticmethod
        def __getitem__(index):
            return index * 2


    def f(t, i):
        return t[i] + 1
    """)
    compiled = sc.symbolic(module.f)
    assert_equivalent(module.f, compiled, (module.Table(), 3))
    text = str(sc.explain(compiled, module.Table(), 3))
    assert "Table.__getitem__ is not a plain function (staticmethod)" in text


def test_never_a_wrong_answer_reflected_operator_of_subclass_first(make_module: Make) -> None:
    module = make_module("""
    class Vec:
        def __init__(self, x):
            self.x = x

        def __getitem__(self, index):
            return self.x

        def __add__(self, other):
            return Vec(self.x + other.x)


    class Right(Vec):
        def __radd__(self, other):
            return Vec(-1.0)


    def f(a, b):
        return (a + b).x + a[0]
    """)
    compiled = sc.symbolic(module.f)
    compiled(module.Vec(1.0), module.Vec(2.0))
    assert_equivalent(module.f, compiled, (module.Vec(1.0), module.Right(2.0)))
    assert compiled(module.Vec(1.0), module.Right(2.0)) == 0.0


STORE = MATRIX.replace("""
    def trace_sum(m):""", """
        def __setitem__(self, index, value):
            i, j = index
            self.data[i * self.cols + j] = value


    def scaled(m, k):
        for i in range(m.rows):
            for j in range(m.cols):
                m[i, j] = m[i, j] * k
        m[0, 0] = -1.0
        return m.data


    def trace_sum(m):""")


def test_never_a_wrong_answer_store_inlined_as_setitem(make_module: Make) -> None:
    module = make_module(STORE)
    compiled = sc.symbolic(module.scaled)
    assert compiled(module.Matrix(2, 3), 2.0) == module.scaled(module.Matrix(2, 3), 2.0) \
        == [-1.0, 2.0, 4.0, 6.0, 8.0, 10.0]
    source = sc.source(compiled, module.Matrix(2, 3), 2.0)
    assert "m.data[i * m.cols + j] = t" in source \
        and "getattr(Matrix,'__setitem__',None)issetitem" in "".join(source.split())
    assert "inline Matrix.__setitem__" in str(sc.explain(compiled, module.Matrix(2, 3), 2.0))
    assert_equivalent(module.scaled, compiled, (module.Matrix(3, 2), 0.5))


def test_never_a_wrong_answer_store_subclass_and_rebound_setitem(make_module: Make) -> None:
    module = make_module(STORE + """
    class Logged(Matrix):
        def __setitem__(self, index, value):
            self.data[0] += 100.0
    """)
    compiled = sc.symbolic(module.scaled)
    compiled(module.Matrix(2, 2), 3.0)  # compiled for Matrix
    assert_equivalent(module.scaled, compiled, (module.Logged(2, 2), 3.0))
    module.Matrix.__setitem__ = lambda self, index, value: None
    assert compiled(module.Matrix(2, 2), 3.0) == module.scaled(module.Matrix(2, 2), 3.0) \
        == [0.0, 1.0, 2.0, 3.0]


def test_side_effects_in_order_store_value_evaluated_before_the_check(make_module: Make) -> None:
    module = make_module(STORE + """
    class Other(Matrix):
        def __setitem__(self, index, value):
            self.data[0] = 1000.0


    def filled(m, hook):
        for i in range(m.rows):
            m[i, 0] = hook(m, i)
        return m.data


    def retype(m, i):
        if i == 1:
            m.__class__ = Other
        return float(i)
    """)
    compiled = sc.symbolic(module.filled)
    compiled(module.Matrix(3, 1), lambda m, i: 0.0)
    source = sc.source(compiled, module.Matrix(3, 1), module.retype)
    assert "getattr(Matrix,'__setitem__',None)issetitem" in "".join(source.split())
    assert_equivalent(module.filled, compiled, (module.Matrix(3, 1), module.retype))
    assert compiled(module.Matrix(3, 1), module.retype) == [1000.0, 1.0, 2.0]


def test_same_exceptions_store_errors_inside_and_without_setitem(make_module: Make) -> None:
    module = make_module(STORE + """
    class ReadOnly:
        def __getitem__(self, index):
            return 0.0


    def put(m, i, v):
        m[i, i] = v
        return m[0, 0]
    """)
    compiled = sc.symbolic(module.put)
    compiled(module.Matrix(2, 2), 1, 5.0)
    with pytest.raises(IndexError, match="list assignment index out of range"):
        compiled(module.Matrix(2, 2), 4, 5.0)
    assert_equivalent(module.put, compiled, (module.Matrix(2, 2), 4, 5.0))
    assert_equivalent(module.put, compiled, (module.Matrix(2, 2), "x", 5.0))
    with pytest.raises(TypeError, match="'ReadOnly' object does not support item assignment"):
        compiled(module.ReadOnly(), 0, 1.0)
    fresh = sc.symbolic(module.put)
    assert_equivalent(module.put, fresh, (module.ReadOnly(), 0, 1.0))
    assert "ReadOnly has no __setitem__" in str(sc.explain(fresh, module.ReadOnly(), 0, 1.0))


def test_never_a_wrong_answer_index_that_changes_the_class_before_the_lookup(
        make_module: Make) -> None:
    """`m[switch(), 0]`: Python evaluates the index, then looks `__getitem__` up on the class
    `m` has then; a check made before the index ran would run the stale class's body."""
    module = make_module(MATRIX + """
    class Other(Matrix):
        def __getitem__(self, index):
            return 100.0


    HOLDER = []


    def switch():
        HOLDER[0].__class__ = Other
        return 0


    CALLS = {"switch": switch}


    def first_plus_one(m):
        return m[CALLS["switch"](), 0] + 1.0


    def shifted(m, i, j):
        return m[i + 1, j * 2]
    """)
    compiled = sc.symbolic(module.first_plus_one)
    for function in (module.first_plus_one, compiled, compiled):
        m = module.Matrix(2, 2)
        module.HOLDER[:] = [m]
        assert function(m) == 101.0
    assert "its index may run code" in str(sc.explain(module.first_plus_one, module.Matrix(2, 2)))
    # an index of int arithmetic on the version's ints runs no code: inlined
    shifted = sc.symbolic(module.shifted)
    assert shifted(module.Matrix(3, 3), 1, 1) == module.shifted(module.Matrix(3, 3), 1, 1)
    source = sc.source(shifted, module.Matrix(3, 3), 1, 1)
    assert "getattr(Matrix,'__getitem__',None)isgetitem" in "".join(source.split())


@pytest.mark.parametrize("method", ["__getitem__", "__setitem__"])
def test_same_exceptions_method_deleted_after_compiling(make_module: Make, method: str) -> None:
    module = make_module(STORE)
    compiled = sc.symbolic(module.scaled)
    args = (module.Matrix(2, 2), 2.0)
    compiled(*args)
    assert f"is {method.strip('_')}" in sc.source(compiled, *args)  # the method inlined
    delattr(module.Matrix, method)
    message = "'Matrix' object is not subscriptable" if method == "__getitem__" \
        else "'Matrix' object does not support item assignment"
    for function in (module.scaled, compiled):
        with pytest.raises(TypeError, match=message):
            function(*args)
    assert_equivalent(module.scaled, compiled, args)


def test_same_exceptions_method_deleted_after_compiling_found_on_a_base(make_module: Make) -> None:
    module = make_module(MATRIX + """
    class Base(Matrix):
        def __getitem__(self, index):
            return -1.0


    class Own(Base):
        def __getitem__(self, index):
            return 2.0


    class Inherits(Base):
        pass
    """)
    compiled = sc.symbolic(module.trace_sum)
    for cls in (module.Own, module.Inherits):
        compiled(cls(2, 2))  # compiled for each, the method inlined
        assert "is getitem" in sc.source(compiled, cls(2, 2))
    del module.Own.__getitem__  # Base's still found by Python's lookup
    assert compiled(module.Own(2, 2)) == module.trace_sum(module.Own(2, 2)) == -2.0
    del module.Base.__getitem__  # Matrix's found now
    for cls in (module.Own, module.Inherits):
        assert compiled(cls(2, 2)) == module.trace_sum(cls(2, 2)) == 3.0
    del module.Matrix.__getitem__  # none: the subscript raises
    for cls in (module.Own, module.Inherits):
        for function in (module.trace_sum, compiled):
            with pytest.raises(TypeError, match=f"'{cls.__name__}' object is not subscriptable"):
                function(cls(2, 2))
        assert_equivalent(module.trace_sum, compiled, (cls(2, 2),))
