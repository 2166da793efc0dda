"""inline_calls across modules: a function imported from another module of the program is
inlined when every global it reads is fixed in its own module (a module, a function of NumPy,
math or cmath, a builtin); the caller's names it shares are guarded; anything else it reads
(a number, a function of the program) keeps it a call."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

import symcompile as sc
from symcompile.runtime.oracle import assert_equivalent

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
    source = " ".join(str(compiled.source).split())  # the guard's lines may wrap
    # the first call is checked on entry; `x * x` may run x's own `__mul__` (x of any type),
    # so the later callees are checked at their calls, and `*PAIR` is not spread there
    assert "hypot is not hypot_2" in source
    for name in ("norm", "first_above"):
        assert f"if {name} is {name}_2:" in body
        assert re.search(rf"{name}_result(_\d+)? = {name}\(", body)  # the call as written, if rebound
    assert body.count("hypot(") == 1 and "hypot(*PAIR)" in body


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


# ---------------------------------------------------------------------------
# closures: the inlined body reads the closure's own cell
# ---------------------------------------------------------------------------

CLOSURES = """
    import symcompile as sc

    def make_scaler(k):
        def scale(x):
            return x * k
        def set_k(value):
            nonlocal k
            k = value
        return scale, set_k

    def make_unset():
        def plus_k(x):
            return x + k
        if False:
            k = 0
        return plus_k

    scale, set_k = make_scaler(3)
    plus_k = make_unset()

    def uses_scale(x):
        return scale(x) + 1

    def uses_unset(x):
        return plus_k(x)
"""


def test_a_closure_is_inlined_and_reads_its_cell_as_it_is_now(make_module) -> None:
    module = make_module(CLOSURES)
    compiled = sc.symbolic(module.uses_scale)
    assert compiled(2.0) == 7.0
    source = str(compiled.source)
    assert "return x * scale_k + 1\n" in source and " scale(x)" not in source
    module.set_k(5)  # the enclosing function rebinds k: the compiled code sees it at once
    assert compiled(2.0) == module.uses_scale(2.0) == 11.0
    module.scale, module.set_k = module.make_scaler(-1)  # another closure: the guard recompiles
    assert compiled(2.0) == module.uses_scale(2.0) == -1.0
    for x in (0.0, -0.0, float("nan"), 2**80, np.arange(3.0)):
        assert_equivalent(module.uses_scale, compiled, (x,))


def test_an_empty_cell_raises_as_in_the_original(make_module) -> None:
    module = make_module(CLOSURES)
    compiled = sc.symbolic(module.uses_unset)
    assert "x + plus_k_k" in sc.source(compiled, 1.0)
    with pytest.raises(NameError):
        module.uses_unset(1.0)
    with pytest.raises(NameError):
        compiled(1.0)
