"""inline_calls across modules: a function imported from another module of the program is
inlined when every global it reads is fixed in its own module (a module, a function of NumPy,
math or cmath, a builtin); the caller's names it shares are guarded; anything else it reads
(a number, a function of the program) keeps it a call."""

from __future__ import annotations

import math

import numpy as np
import pytest

import symcompile as sc
from tests.oracle import assert_equivalent

GEOMETRY = """
    import math
    import numpy as np
    from math import sqrt

    SCALE = 3.0

    def hypot(a, b):
        return math.sqrt(a * a + b * b)

    def norm(xs):
        total = 0.0
        for v in xs:
            total += abs(v)
        return np.sqrt(total) + sqrt(2.0)

    def first_above(xs, t):
        for i in range(len(xs)):
            if xs[i] > t:
                return i
        return -1

    def scaled(x):
        return x * SCALE

    def twice_hypot(x):
        return hypot(x, x)
"""

MAIN = """
    import math
    import symcompile as sc
    from geometry import first_above, hypot, norm, scaled, twice_hypot

    PAIR = (3.0, 4.0)

    def plain(x, y, xs):
        return hypot(x, y), norm(xs), first_above(xs, x), hypot(*PAIR)

    def not_inlined(x):
        return scaled(x), twice_hypot(x)
"""

CALLS = [
    (3.0, 4.0, [1.0, -2.0, 5.0]),
    (-0.0, math.nan, []),
    (math.inf, 1e308, [math.nan, 0.5]),
    (0.5, -2.0, np.array([0.25, 1.0, -4.0])),
]


@pytest.fixture
def modules(make_modules):
    return make_modules(geometry=GEOMETRY, main=MAIN)


def _body(compiled) -> str:
    """The generated source after the guard."""
    return str(compiled.source).split("return recompile", 1)[-1]


def test_functions_of_another_module_are_inlined_and_behave_the_same(modules):
    main = modules["main"]
    compiled = sc.symbolic(main.plain)
    for args in CALLS:
        assert_equivalent(main.plain, compiled, args)
    body = _body(compiled)
    for callee in ("hypot(", "norm(", "first_above("):
        assert callee not in body
    source = " ".join(str(compiled.source).split())  # the guard's lines may wrap
    # `math` and `abs` mean the same object here: read by name, and guarded like the callees
    for name in ("hypot", "norm", "first_above", "math", "abs", "PAIR"):
        assert f"{name} is not {name}_2" in source


def test_a_function_reading_a_global_its_module_may_rebind_stays_a_call(modules):
    geometry, main = modules["geometry"], modules["main"]
    compiled = sc.symbolic(main.not_inlined)
    assert compiled(2.0) == main.not_inlined(2.0)
    assert "scaled(x)" in str(compiled.source)
    assert "twice_hypot(x)" in str(compiled.source)  # reads `hypot`, a global of its module
    geometry.SCALE = 10.0
    assert compiled(2.0) == (20.0, main.not_inlined(2.0)[1])


def test_a_name_shared_with_the_callee_module_is_guarded(modules):
    main = modules["main"]
    compiled = sc.symbolic(main.plain)
    assert compiled(3.0, 4.0, [1.0])[0] == 5.0
    main.math = None  # the caller's `math`; hypot still reads its own module's
    assert compiled(3.0, 4.0, [1.0])[0] == 5.0
    assert "math is not" not in str(compiled.source)  # recompiled: math bound as an object


def test_a_name_the_caller_binds_to_something_else_reads_the_callees_object(make_modules):
    modules = make_modules(clamping="""
        def clamp(x):
            return min(max(x, 0.0), 1.0)
    """, caller="""
        from clamping import clamp

        min = max  # not the builtin the callee reads

        def f(x):
            return clamp(x)
    """)
    caller = modules["caller"]
    compiled = sc.symbolic(caller.f)
    for x in (-1.0, 0.5, 2.0, math.nan):
        assert_equivalent(caller.f, compiled, (x,))
    assert "clamp(" not in _body(compiled)


def test_the_callee_modules_own_bindings_are_frozen_until_recompile(modules):
    geometry, main = modules["geometry"], modules["main"]
    compiled = sc.symbolic(main.plain)
    assert compiled(3.0, 4.0, [1.0])[0] == 5.0
    geometry.math = type("FakeMath", (), {"sqrt": staticmethod(lambda value: -1.0)})
    assert main.plain(3.0, 4.0, [1.0])[0] == -1.0
    assert compiled(3.0, 4.0, [1.0])[0] == 5.0  # documented: frozen
    compiled.recompile()
    assert compiled(3.0, 4.0, [1.0])[0] == -1.0


def test_rebinding_the_imported_name_recompiles(modules):
    main = modules["main"]
    compiled = sc.symbolic(main.plain)
    assert compiled(3.0, 4.0, [1.0])[0] == 5.0
    main.hypot = lambda a, b: "replaced"
    assert compiled(3.0, 4.0, [1.0])[0] == "replaced"


def test_a_global_named_like_a_renamed_local_is_not_captured(make_module):
    module = make_module("""
        add_a = 10

        def add(a):
            return a + add_a

        def f(x):
            return add(x)
    """)
    compiled = sc.symbolic(module.f)
    assert compiled(1) == 11
    assert "add_a" in str(compiled.source)
