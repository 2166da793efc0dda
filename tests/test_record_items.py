"""hoist_record_items: the keys of a record list's dicts read once per turn; `enumerate`
rebound part way (it then holds the list and changes its dicts later), odd inputs."""

from __future__ import annotations

import types
from typing import Callable, ClassVar

import pytest

import symcompile as sc
from symcompile.runtime.oracle import assert_equivalent

_SOURCE = """
def step(start, dt):
    bodies = [{"pos": list(b["pos"]), "vel": list(b["vel"]), "m": b["m"]} for b in start]
    for _ in range(3):
        for i, a in enumerate(bodies):
            for b in bodies[i + 1:]:
                d = a["pos"][0] - b["pos"][0]
                a["vel"][0] -= d * b["m"]
                b["vel"][0] += d * a["m"]
        for body in bodies:
            body["pos"][0] += dt * body["vel"][0]
    return bodies
"""


class Sly:
    """A number whose `-` rebinds the module's `enumerate` to one that keeps the list, and whose
    `*` then changes the kept list's dicts (a key rebound, a dict replaced)."""

    module: ClassVar[types.ModuleType | None] = None
    kept: ClassVar[list[list[dict[str, object]]]] = []

    def __init__(self, value: float) -> None:
        self.value = value

    def _other(self, other: object) -> float:
        return other.value if isinstance(other, Sly) else other  # type: ignore[return-value]

    def __sub__(self, other: object) -> Sly:
        if self.value == 7.0 and Sly.module is not None and not Sly.kept:
            def keeping(xs: list[dict[str, object]]) -> enumerate[dict[str, object]]:
                Sly.kept.append(xs)
                return enumerate(xs)
            Sly.module.enumerate = keeping  # type: ignore[attr-defined]
        return Sly(self.value - self._other(other))

    def __rsub__(self, other: object) -> Sly:
        return Sly(self._other(other) - self.value)

    def __mul__(self, other: object) -> Sly:
        if Sly.kept and Sly.kept[0]:
            record = Sly.kept[0][0]
            record["m"] = Sly(100.0)
            record["vel"] = [Sly(-1.0)]
        return Sly(self.value * self._other(other))

    __rmul__ = __mul__

    def __add__(self, other: object) -> Sly:
        return Sly(self.value + self._other(other))

    __radd__ = __add__

    def __repr__(self) -> str:
        return f"Sly({self.value})"


@pytest.fixture
def module(make_module: Callable[[str], types.ModuleType]) -> types.ModuleType:
    return make_module(_SOURCE)


def _start(*values: float) -> list[dict[str, object]]:
    return [{"pos": [Sly(value)], "vel": [Sly(0.0)], "m": Sly(1.0)} for value in values]


def test_never_a_wrong_answer_enumerate_rebound_keeps_the_list(module: types.ModuleType) -> None:
    """The first step rebinds `enumerate`: the next step's loops run as written (the kept list's
    dicts change under them), as the original's do."""
    compiled = sc.symbolic(module.step)
    plain = [{"pos": [1.0], "vel": [0.0], "m": 1.0}, {"pos": [3.0], "vel": [0.0], "m": 2.0}]
    assert "bodies_private and enumerate is enumerate_2" in sc.source(compiled, plain, 0.5)
    outcomes = []
    for function in (module.step, compiled):
        Sly.module, Sly.kept = module, []
        try:
            outcomes.append(repr(function(_start(7.0, 2.0, 1.0), 0.5)))
        finally:
            Sly.module = None
            vars(module).pop("enumerate", None)
    assert outcomes[0] == outcomes[1]
    assert "Sly(100.0)" in outcomes[0]  # the kept list's dict was changed


@pytest.mark.parametrize("start", [
    [{"pos": [1.0], "vel": [0.0], "m": 1.0}, {"pos": [3.0], "vel": [0.5], "m": 2.0}],
    [{"pos": [1], "vel": [0], "m": 1}, {"pos": [3], "vel": [2**60], "m": 2}],
    [{"pos": [1.0], "vel": [0.0]}],  # no "m": KeyError in the comprehension
    [{"pos": [1.0], "vel": [0.0], "m": "heavy"}, {"pos": [3.0], "vel": [0.0], "m": 2.0}],
    [],
    "not bodies",
])
def test_never_a_wrong_answer_record_items(module: types.ModuleType, start: object) -> None:
    compiled = sc.symbolic(module.step)
    assert_equivalent(module.step, compiled, (start, 0.5))


def test_never_a_wrong_answer_same_dict_twice(module: types.ModuleType) -> None:
    """The same dict (and list) twice in the input: the function copies the lists, as written."""
    shared = {"pos": [1.0], "vel": [0.0], "m": 1.0}
    compiled = sc.symbolic(module.step)
    assert_equivalent(module.step, compiled, ([shared, shared, {"pos": [2.0], "vel": [1.0],
                                                               "m": 3.0}], 0.5))


_ITEMS_OF_ELEMENTS = """
DT = 0.01


def drift(bodies):
    for body in bodies:
        body["pos"][0] += DT * body["vel"][0]
    return bodies
"""


def test_never_slower_no_float_copy_for_elements_with_items(
        make_module: Callable[[str], types.ModuleType]) -> None:
    """speculate_loop_types gives no float copy to a loop whose body takes items of the element
    (a float has none: the copy could only raise, and its test runs every turn)."""
    module = make_module(_ITEMS_OF_ELEMENTS)
    compiled = sc.symbolic(module.drift)
    bodies = [{"pos": [1.0], "vel": [2.0]}]
    assert "is float" not in sc.source(compiled, bodies)
    assert_equivalent(module.drift, compiled, (bodies,))


_MAYBE_MADE = """
def maybe(start, flag):
    if flag:
        bodies = [{"m": m} for m in start]
    total = 0.0
    for i, a in enumerate(bodies):
        total += a["m"] * i
    return total
"""


def test_never_a_wrong_answer_list_maybe_unbound(
        make_module: Callable[[str], types.ModuleType]) -> None:
    """The list unbound where the loop reads it: the same UnboundLocalError (the flag is set
    on entry, so its test never raises first)."""
    module = make_module(_MAYBE_MADE)
    compiled = sc.symbolic(module.maybe)
    assert "bodies_private and enumerate is enumerate_2" in sc.source(compiled, [1.0], True)
    for args in [([1.0, 2.0], True), ([1.0, 2.0], False)]:
        assert_equivalent(module.maybe, compiled, args)
