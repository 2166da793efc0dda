"""The effects analysis: which calls may run code the compiler cannot see."""

from __future__ import annotations

import dataclasses
import math

import numpy as np

import symcompile as sc
from symcompile import ir
from symcompile.analysis.effects import Effects
from symcompile.analysis.evaluation_order import late_reads
from symcompile.analysis.trusted import plain_value
from symcompile.ir.rewrite import statement_expressions, walk_expr
from symcompile.passes import pipeline

MODULE = """
    import math
    import numpy as np

    LIMIT = 3

    def square(x):
        return x * x

    def norm(x, y):
        return math.sqrt(square(x) + square(y))

    def unknown(x):
        return x.conjugate()  # a method of a parameter: its type is not known

    def appends(x, xs):
        out = []
        out.append(x)
        xs.append(x)
        return out, np.sin(x), norm(x, x), unknown(x), len(out)

    def in_loop(xs):
        total = 0.0
        for x in xs:
            total = total + norm(x, 1.0)
        return total
"""


def _effects(module, name: str) -> tuple[Effects, ir.Function]:
    function, _, _ = pipeline.optimize(getattr(module, name), passes=[])
    return Effects(function), function


def test_trusted_and_untrusted_calls(make_module):
    module = make_module(MODULE)
    effects, function = _effects(module, "appends")
    by_text = {ir.format_expr(node): node for stmt in function.body
               for node in _calls(stmt)}
    assert effects.call(by_text["(call (attr np sin) x)"]) is None  # x: any type
    assert effects.call(by_text["(call (attr out append) x)"]) == frozenset()  # a list built here
    assert effects.call(by_text["(call (attr xs append) x)"]) is None  # a parameter
    assert effects.call(by_text["(call unknown x)"]) is None  # x.conjugate() runs x's code
    assert effects.call(by_text["(call len out)"]) == {"len"}  # the builtin, guarded


def _calls(stmt: ir.Stmt) -> list[ir.Call]:
    return [node for expr in statement_expressions(stmt) for node in walk_expr(expr)
            if isinstance(node, ir.Call)]


def test_transparent_functions_rest_on_their_arguments_types(make_module):
    module = make_module(MODULE)
    function, _, _ = pipeline.optimize(module.appends, passes=[], argument_types={"x": float})
    effects = Effects(function)
    norm = next(node for stmt in function.body for node in _calls(stmt)
                if node.func == ir.Name("norm"))
    assert effects.call(norm) == {"norm", "square", "x"}  # (modules are taken as fixed)
    effects.rely(effects.call(norm))
    assumptions = {a.name: a for a in effects.assumptions()}
    assert {"norm", "square", "x"} <= set(assumptions)
    assert assumptions["x"].of_type and assumptions["x"].value is float


def test_a_transparent_helper_inlines_inside_a_loop_over_floats(make_module):
    module = make_module(MODULE)
    compiled = sc.symbolic(module.in_loop)
    values = np.array([3.0, 4.0])
    assert compiled(values) == module.in_loop(values)
    source = sc.source(compiled, values)
    assert "norm(" not in source.split("return recompile")[1]
    assert "sqrt(" in source and "x * x" in source and " is square_2" not in source


class Number(float):
    """A float subclass: its operators may run code of the program's."""


def test_plain_values_are_exact_types_of_numbers_and_numeric_arrays():
    assert all(plain_value(value) for value in (
        1, 2.5, 1j, True, "s", b"b", None, (1, (2.0, "s")), np.float32(1.0),
        np.array([1.0]), np.dtype("f8"), float, np.sin, math.sqrt))
    assert not any(plain_value(value) for value in (
        Number(1.0), (1, Number(1.0)), [1.0], np.array([1.0], dtype=object), np, object()))


def test_names_read_after_possible_unseen_code_are_late():
    """`y = (c + 1) + a * b + g`: `a * b` may run code of `a`'s (its type unknown), which may
    rebind the global `g` read after it; the work before it rests on the global `c`."""
    first = ir.Op("add", (ir.Name("c"), ir.Const(1)))
    unknown = ir.Op("mul", (ir.Name("a"), ir.Name("b")))
    stmt = ir.Assign((ir.Name("y"),), ir.Op("add", (ir.Op("add", (first, unknown)), ir.Name("g"))))

    def operation(expr: ir.Expr) -> frozenset[str] | None:
        return frozenset({"c"}) if expr is first else None if expr is unknown else frozenset()

    assert late_reads(stmt, operation) == ({"g"}, frozenset({"c"}))


def test_never_wrong_a_functions_attributes_read_statically_as_inspect_reads_them():
    # static_attribute's shortcut for plain functions (their `__dict__`, past the names their
    # type defines) answers as inspect.getattr_static does, C descriptors read through
    import inspect

    from symcompile.analysis.attributes import MISSING, static_attribute

    def helper(x):
        """doc"""
        return x

    helper._symcompile = "state"  # type: ignore[attr-defined]
    helper.__dict__["__name__"] = "shadowed"  # the type's descriptor comes first
    names = ("_symcompile", "original", "__name__", "__code__", "__doc__", "__dict__",
             "__wrapped__", "__call__", "__class__", "__defaults__", "__module__", "__qualname__",
             "__closure__", "__kwdefaults__", "__globals__", "__self__", "__text_signature__")
    for value in (helper, len, math.floor, [].append):
        for name in names:
            expected = inspect.getattr_static(value, name, MISSING)
            if type(expected).__name__ in ("getset_descriptor", "member_descriptor"):
                expected = expected.__get__(value, type(value))
            got = static_attribute(value, name, MISSING)
            assert got is expected or got == expected, (value, name)


def _plain_locals_round_by_round(effects: Effects, parameters: set[str]) -> dict[str, frozenset[str]]:
    """The plain locals as found before they were taken in as soon as found: every local's
    answer from the last round's, until a round changes nothing."""
    from symcompile.analysis.trusted import NOTHING, union
    sources = effects._sources()
    effects.plain_locals = {name: NOTHING for name in sources if name not in effects.untracked
                            and (name not in parameters or name in effects.plain_parameters)}
    for name in effects.plain_parameters & parameters:
        effects.plain_locals.setdefault(name, NOTHING)
    while True:
        found = {}
        for name in effects.plain_locals:
            relied = union(check() for check in sources.get(name, []))
            if relied is not None:
                found[name] = relied | ({name} if name in effects.plain_parameters else NOTHING)
        if found == effects.plain_locals:
            return found
        effects.plain_locals = found
        effects._plain_memo.clear()


def test_never_wrong_plain_locals_as_the_round_by_round_fixed_point_finds_them():
    # the fixed point takes each answer in as soon as it is found (fewer rounds); over the
    # corpus, compiled for any types and for its first call's, it finds what the plain
    # round-by-round iteration finds
    from symcompile.frontend import build as frontend
    from symcompile.ir.names import parameter_names
    from tests import corpus
    compared = 0
    for name, func in corpus.CORPUS_BY_NAME.items():
        try:
            source = frontend.read_function_source(func)
        except sc.SymbolicError:
            continue
        function = frontend.build_function(source, frontend.namespace_of(func))
        calls = corpus.corners(name)
        typed = {param: type(arg) for param, arg in zip(parameter_names(function), calls[0][0])
                 if type(arg) in (int, float, bool, complex)} if calls else {}
        for argument_types in ({}, typed):
            effects = Effects(dataclasses.replace(function, argument_types=argument_types))
            found = dict(effects.plain_locals)
            assert _plain_locals_round_by_round(
                effects, set(parameter_names(effects.function))) == found, name
            compared += 1
    assert compared > 300
