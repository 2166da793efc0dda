"""The effects analysis: which calls may run code the compiler cannot see."""

from __future__ import annotations

import symcompile as sc
from symcompile import ir, pipeline
from symcompile.effects import Effects

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
    effects, _ = _effects(module, "appends")
    assert effects.trusted_callee(ir.Attribute(ir.Name("np"), "sin"))  # NumPy
    assert effects.trusted_callee(ir.Name("len"))  # a trusted builtin
    assert effects.trusted_callee(ir.Attribute(ir.Name("out"), "append"))  # a list built here
    assert not effects.trusted_callee(ir.Attribute(ir.Name("xs"), "append"))  # a parameter
    assert not effects.trusted_callee(ir.Name("unknown"))  # calls a function it cannot see through
    assert effects.relied == {}


def test_transparent_functions_are_trusted_and_relied_on(make_module):
    module = make_module(MODULE)
    effects, _ = _effects(module, "appends")
    assert effects.trusted_callee(ir.Name("norm"))
    assert effects.relied == {"norm": module.norm, "square": module.square}
    assert {a.name for a in effects.assumptions()} == {"norm", "square"}


def test_a_transparent_helper_inlines_inside_a_loop(make_module):
    module = make_module(MODULE)
    compiled = sc.symbolic(module.in_loop)
    assert compiled([3.0, 4.0]) == module.in_loop([3.0, 4.0])
    source = str(compiled.source)
    assert "norm(" not in source.split("return recompile")[1]
    assert "total = total + sqrt(x * x + 1.0)" in source
