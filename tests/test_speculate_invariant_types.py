"""speculate_invariant_types: a loop computing `+ - *` on steady locals of unknown types gets a
copy for floats, from which hoist_loop_invariants takes those operations. The promise at stake
is the first (never a wrong answer): an element that is not exactly a float (a float subclass
with its own operator, an int too big for a float, an object whose `*` prints or raises on its
n-th call) runs the loop as written, every turn computing `k * a` again."""

from __future__ import annotations

import math
import re
import types
from fractions import Fraction
from typing import Callable

import numpy as np
import pytest

import symcompile as sc
from symcompile.runtime.oracle import assert_equivalent

SOURCE = '''
class Noisy(float):
    """A float whose reflected `*` prints: `type(v) is float` is False for it."""

    def __rmul__(self, other):
        print("rmul", other)
        return float(self) * other


class Counting:
    """An object whose `*` prints and raises on its third call, as user code may."""

    def __init__(self):
        self.calls = 0

    def __rmul__(self, other):
        self.calls += 1
        print("call", self.calls)
        if self.calls == 3:
            raise ValueError(f"third product of {other}")
        return 0.25


def scaled_steps(values, k, limit):
    out = []
    for a in values:
        x = 0.0
        n = 0
        while x < limit and n < 5:
            x = x + k * a
            n += 1
        out.append(x)
    return out
'''


@pytest.fixture
def module(make_module: Callable[[str], types.ModuleType]) -> types.ModuleType:
    return make_module(SOURCE)


def test_never_a_wrong_answer_steady_products_of_any_type(module: types.ModuleType) -> None:
    compiled = sc.symbolic(module.scaled_steps)
    text = sc.source(compiled, [1.0], 0.5, 3.0)
    assert "if type(a) is float:" in text and re.search(r"\w+ = k \* a\n", text), text
    cases = [
        ([1.0, 2.5, -0.0, math.nan, math.inf], 0.5, 3.0),
        ([1, 2, 10**400], 0.5, 3.0),          # ints; the big one: OverflowError at `k * a`
        ([1.0, 2.0], 10**400, 3.0),           # the same, from the other operand
        ([Fraction(1, 3), 2.0], 0.5, 1),      # exact fractions, then a float
        ([module.Noisy(1.5), 1.5], 0.5, 3.0),  # a float subclass: its `__rmul__` prints
        ([np.float64(0.5), 0.5], 0.5, 3.0),   # a float64 is not exactly a float
        ([module.Counting()], 2.0, 3.0),      # prints each call, raises at the third
        ([1.0, "s"], 0.5, 3.0),               # TypeError: can't multiply sequence ...
        ([], 0.5, 3.0),
    ]
    for values, k, limit in cases:
        assert_equivalent(module.scaled_steps, compiled, (values, k, limit))


def test_always_explainable_compiling_the_output_again_changes_nothing(
        make_module: Callable[[str], types.ModuleType]) -> None:
    """`n + n` tests `n` once, and the generated code, compiled again (its `float` bound under
    a name of its own, as `float` is read by the function), is not split again: found by the
    random programs' idempotence test."""
    module = make_module('''
def main(x, y, n):
    for i in range(n):
        if n + n:
            break
    return float('nan')
''')
    compiled = sc.symbolic(module.main, guards=False)
    first = str(compiled.source)
    assert first.count("is float") == 1, first
    generated = sc.compiled_function(compiled, None, None, None)
    cells = dict(zip(generated.__code__.co_freevars, generated.__closure__ or ()))
    again = make_module(first)
    vars(again).update({name: cell.cell_contents for name, cell in cells.items()})
    assert str(sc.symbolic(again.main, guards=False).source) == first
    for args in ((1.5, -2, 3.0), (0, 0, 0), (1, 2, 2.5)):
        assert_equivalent(module.main, again.main, args)
