"""unroll_comprehensions: `[E for k in range(3)]` as the display `[E0, E1, E2]`, behind a test
that `range` is the builtin; hostile elements, `range` rebound part way, unbound locals."""

from __future__ import annotations

import types
from typing import Callable, ClassVar

import pytest

import symcompile as sc
from symcompile.runtime.oracle import assert_equivalent

_SOURCE = """
import builtins


def differences(a, b):
    d = [a["pos"][k] - b["pos"][k] for k in range(3)]
    return d, len([a["pos"][k] * k for k in range(1, 3)])


def pairs(bodies):
    out = []
    for i, a in enumerate(bodies):
        for b in bodies[i + 1:]:
            d = [a["pos"][k] - b["pos"][k] for k in range(3)]
            out.append(d[0] + d[1] + d[2])
    return out


def maybe_unbound(a, flag):
    if flag:
        c = 2.0
    return [c * a[k] for k in range(3)]


def steps(a, b, n):
    out = []
    for _ in range(n):
        out.append([a[k] - b[k] for k in range(2)])
    return out
"""


class Loud:
    """A number whose `-` and `*` log, may raise, mutate the dict holding it, or rebind the
    module's `range`."""

    log: ClassVar[list[str]] = []
    module: ClassVar[types.ModuleType | None] = None

    def __init__(self, value: float, owner: dict[str, object] | None = None) -> None:
        self.value = value
        self.owner = owner

    def _other(self, other: object) -> float:
        return other.value if isinstance(other, Loud) else other  # type: ignore[return-value]

    def __sub__(self, other: object) -> object:
        Loud.log.append(f"{self.value} - {self._other(other)}")
        if self.value == 13:
            raise ValueError("unlucky 13")
        if self.value == 5 and self.owner is not None:  # change the list still being read
            pos = self.owner["pos"]
            assert isinstance(pos, list)
            pos[2] = 100.0
        if self.value == 7 and Loud.module is not None:  # rebind range for the rest of the run
            Loud.module.range = lambda *args: [1, 0]  # type: ignore[attr-defined]
        return self.value - self._other(other)

    def __mul__(self, other: object) -> object:
        Loud.log.append(f"{self.value} * {self._other(other)}")
        return "odd" if self.value == 3 else self.value * self._other(other)

    def __repr__(self) -> str:
        return f"Loud({self.value})"


@pytest.fixture
def module(make_module: Callable[[str], types.ModuleType]) -> types.ModuleType:
    Loud.log.clear()
    return make_module(_SOURCE)


def _body(*values: float) -> dict[str, object]:
    body: dict[str, object] = {}
    body["pos"] = [Loud(value, body) for value in values]
    return body


def _logged(function: Callable[..., object], *args: object) -> tuple[str, list[str]]:
    Loud.log.clear()
    try:
        result = repr(function(*args))
    except Exception as error:  # noqa: BLE001 - the outcome is compared
        result = f"{type(error).__name__}: {error}"
    return result, list(Loud.log)


def test_never_a_wrong_answer_comprehension_as_display(module: types.ModuleType) -> None:
    compiled = sc.symbolic(module.differences)
    for args in [({"pos": [1.0, 2.0, 3.0]}, {"pos": [0.5, 0.25, 0.125]}),
                 ({"pos": [1, 2**60, 3]}, {"pos": [1, 1, 1]}),
                 ({"pos": [1.0, 2.0]}, {"pos": [0.5, 0.25, 0.125]}),
                 ({"pos": (1.0, 2.0, 3.0)}, {"pos": "abc"}),
                 ({"pos": [1.0, 2.0, 3.0]}, {})]:
        assert_equivalent(module.differences, compiled, args)
    source = sc.source(compiled, {"pos": [1.0, 2.0, 3.0]}, {"pos": [0.5, 0.25, 0.125]})
    assert "d = [a['pos'][0] - b['pos'][0], a['pos'][1] - b['pos'][1]" in source
    assert "[a['pos'][1] * 1, a['pos'][2] * 2] if range is range_2 else" in source


@pytest.mark.parametrize("values", [(1.0, 2.0, 3.0), (1.0, 13.0, 3.0), (5.0, 2.0, 3.0),
                                    (1.0, 3.0, 3.0)])
def test_never_a_wrong_answer_hostile_elements_in_order(module: types.ModuleType,
                                                        values: tuple[float, ...]) -> None:
    """Each element's `-` runs in the order the comprehension runs them, an exception stops at
    the same element, a `-` that changes the list read later is seen by the later elements."""
    compiled = sc.symbolic(module.differences)
    sc.source(compiled, _body(*values), _body(0.5, 0.25, 0.125))  # compiled for these types
    expected = _logged(module.differences, _body(*values), _body(0.5, 0.25, 0.125))
    assert _logged(compiled, _body(*values), _body(0.5, 0.25, 0.125)) == expected
    assert expected[1]  # the elements ran


def test_never_a_wrong_answer_range_rebound_part_way(module: types.ModuleType) -> None:
    """An element's `-` rebinds the module's `range` in the middle of a run: the comprehensions
    after it call the new `range`, as written."""
    Loud.module = module
    try:
        compiled = sc.symbolic(module.pairs)
        bodies = [_body(1.0, 2.0, 3.0), _body(7.0, 1.0, 1.0), _body(0.5, 0.5, 0.5),
                  _body(2.0, 2.0, 2.0)]
        assert "if range is range_2:" in sc.source(compiled, bodies)
        expected = _logged(module.pairs, [_body(1.0, 2.0, 3.0), _body(7.0, 1.0, 1.0),
                                          _body(0.5, 0.5, 0.5), _body(2.0, 2.0, 2.0)])
        del module.range
        got = _logged(compiled, [_body(1.0, 2.0, 3.0), _body(7.0, 1.0, 1.0),
                                 _body(0.5, 0.5, 0.5), _body(2.0, 2.0, 2.0)])
        del module.range
        assert got == expected
        # the comprehension after the rebinding calls the new `range` (k = 1, then 0)
        assert expected[0].startswith("IndexError")
        assert expected[1][-3:] == ["1.0 - 0.5", "1.0 - 2.0", "7.0 - 2.0"]
    finally:
        Loud.module = None


def test_never_a_wrong_answer_unbound_local_message(module: types.ModuleType) -> None:
    """A local that may be unbound keeps the comprehension (its NameError's message differs)."""
    compiled = sc.symbolic(module.maybe_unbound)
    for args in [([1.0, 2.0, 3.0], True), ([1.0, 2.0, 3.0], False)]:
        assert_equivalent(module.maybe_unbound, compiled, args)
    assert "for k in range(3)]" in sc.source(compiled, [1.0, 2.0, 3.0], True)


def test_never_a_wrong_answer_comprehension_in_a_loop(module: types.ModuleType) -> None:
    compiled = sc.symbolic(module.steps)
    for args in [([1.0, 2.0], [0.5, 0.25], 3), ([1.0], [0.5, 0.25], 2), ([1.0, 2.0], [1, 2], 0)]:
        assert_equivalent(module.steps, compiled, args)
    assert "[a[0] - b[0], a[1] - b[1]]" in sc.source(compiled, [1.0, 2.0], [0.5, 0.25], 3)


# ------------------------------------------- unroll_loops: a loop behind a test of `range`

_LOOPS = """
def scale_after_call(g, x, v):
    g(x)
    out = []
    for k in range(3):
        out.append(v[k] * x)
    return out
"""


def test_never_a_wrong_answer_loop_unrolled_behind_range_test(
        make_module: Callable[[str], types.ModuleType]) -> None:
    """`g` runs unseen code before the loop: the unrolled copy runs only while `range` is the
    builtin; a `g` that rebinds `range` gets the loop as written calling the new one."""
    module = make_module(_LOOPS)
    compiled = sc.symbolic(module.scale_after_call)

    def rebind(x: object) -> None:
        module.range = lambda n: [2, 1]  # type: ignore[attr-defined]

    def plain(x: object) -> None:
        return None

    assert "if range is range_2:" in sc.source(compiled, plain, 2.0, [1.0, 2.0, 3.0])
    for g, v in [(plain, [1.0, 2.0, 3.0]), (plain, [Loud(1.0), Loud(3.0), Loud(2.0)]),
                 (plain, [1.0, 2.0]), (rebind, [1.0, 2.0, 3.0])]:
        expected = _logged(module.scale_after_call, g, 2.0, v)
        vars(module).pop("range", None)
        assert _logged(compiled, g, 2.0, v) == expected
        vars(module).pop("range", None)
    assert _logged(module.scale_after_call, rebind, 2.0, [1.0, 2.0, 3.0])[0] == "[6.0, 4.0]"


# ------------------------------- the items of a private comprehension's list read from locals

_ITEMS = """
def norm_then_change(a, b, s):
    d = [a[k] - b[k] for k in range(3)]
    n = d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
    d[0] = n * s
    d.append(d[0])
    return d[0] + d[1] + d[-1], n


def in_a_loop(a, b, steps):
    total = 0.0
    for _ in range(steps):
        d = [a[k] - b[k] for k in range(2)]
        for k in range(2):
            total = total + d[k] * d[-1 - k]
        a = [d[1], d[0]]
    return total
"""


@pytest.mark.parametrize("a", [[1.0, 2.0, 3.0], [1, 2**60, 3], [Loud(1.0), Loud(13.0), Loud(3.0)],
                               [Loud(3.0), Loud(2.0), Loud(5.0)], [1.0, 2.0]])
def test_never_a_wrong_answer_items_in_locals(make_module: Callable[[str], types.ModuleType],
                                              a: list[object]) -> None:
    """The reads after the display give the objects the list holds, until the list changes
    (`d[0] = ...`, `append`), in order, with the same exceptions."""
    module = make_module(_ITEMS)
    for function, args in [(module.norm_then_change, (a, [0.5, 0.25, 0.125], 2.0)),
                           (module.in_a_loop, (a, [0.5, 0.25, 0.125], 3))]:
        compiled = sc.symbolic(function)
        sc.source(compiled, [1.0, 2.0, 3.0], [0.5, 0.25, 0.125], *args[2:])
        expected = _logged(function, *args)
        assert _logged(compiled, *args) == expected
    source = sc.source(sc.symbolic(module.norm_then_change), [1.0, 2.0, 3.0], [0.5, 0.25, 0.125],
                       2.0)
    assert "n = d_0 * d_0 + d_1 * d_1 + d_2 * d_2" in source
    assert "d[0] = n * s" in source


_GLOBAL_ITEMS = """
SCALE = 2.0


def scaled(g, x):
    d = [SCALE, x]
    g()
    return d[0] * d[1]
"""


def test_never_a_wrong_answer_display_of_a_global(
        make_module: Callable[[str], types.ModuleType]) -> None:
    """`d = [SCALE, x]`: `d[0]` is not read as `SCALE` again after a call that rebinds it."""
    module = make_module(_GLOBAL_ITEMS)
    compiled = sc.symbolic(module.scaled)

    def rebind() -> None:
        module.SCALE = 5.0

    assert compiled(lambda: None, 3.0) == 6.0
    assert compiled(rebind, 3.0) == 6.0
