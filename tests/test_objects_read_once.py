"""hoist_object_reads: a loop nest on numbers and lists of numbers reads a user object's
attributes and tests its inlined methods once, before it (passes/hoist_object_reads.py); each
condition checked against the original with the oracle."""

from __future__ import annotations

import fractions
import random
import types
from typing import Callable

import numpy as np
import pytest

import symcompile as sc
from symcompile.runtime.oracle import assert_equivalent

Make = Callable[[str], types.ModuleType]

MATRIX = """
    class Matrix:
        def __init__(self, rows, cols, data):
            self.rows = rows
            self.cols = cols
            self.data = list(data)

        def __getitem__(self, index):
            i, j = index
            return self.data[i * self.cols + j]


    def sor(a, b, omega, sweeps):
        n = a.rows
        x = [0.0] * n
        for _ in range(sweeps):
            for i in range(n):
                s = b[i]
                for j in range(n):
                    if j != i:
                        s -= a[i, j] * x[j]
                x[i] = (1.0 - omega) * x[i] + omega * s / a[i, i]
        return x


    def logged(a, n, log):
        s = 0.0
        for i in range(n):
            for j in range(n):
                s += a[i, j]
                log(s)
        return s
"""


def _args(module: types.ModuleType, n: int = 6, seed: int = 4) -> tuple[object, ...]:
    rng = random.Random(seed)
    data = [rng.uniform(-1, 1) + (2.0 * n if k % (n + 1) == 0 else 0.0) for k in range(n * n)]
    return module.Matrix(n, n, data), [rng.uniform(-1, 1) for _ in range(n)], 1.25, 4


def test_never_slower_object_reads_and_method_tests_once(make_module: Make) -> None:
    module = make_module(MATRIX)
    compiled = sc.symbolic(module.sor)
    args = _args(module)
    assert compiled(*args) == module.sor(*args)
    source = sc.source(compiled, *args)
    assert "t_p = i * a_cols" in source and "s -= a_data[t_p + j] * x[j]" in source
    assert "hoist object reads" in str(sc.explain(compiled, *args))
    assert_equivalent(module.sor, compiled, args)


def test_never_a_wrong_answer_index_attribute_and_hoisted_product(make_module: Make) -> None:
    """`a.cols` is read in an index: the copy needs an int (a float, a bool, an int subclass run
    the nest as written, with its TypeError or its answer); `i * a_cols`, computed once before
    the loop over `j`, gives the same indexes for huge, negative and zero columns, and where
    the inner loop raises (data too short) the same IndexError comes at the same point."""
    module = make_module(MATRIX)
    compiled = sc.symbolic(module.sor)
    assert "t_p = i * a_cols" in sc.source(compiled, *_args(module))

    class Cols(int):
        def __mul__(self, other: object) -> int:
            return 0

        __rmul__ = __mul__

    for cols in (6.0, True, Cols(6), 2**80, -6, 0, 5, 7):
        a, b, omega, sweeps = _args(module)
        a.cols = cols
        assert_equivalent(module.sor, compiled, (a, b, omega, sweeps))
    for n, size in ((0, 0), (6, 20), (6, 35), (1, 1)):
        a, b, omega, sweeps = _args(module)
        a.rows, a.data = n, a.data[:size]
        assert_equivalent(module.sor, compiled, (a, b, omega, sweeps))


def test_never_a_wrong_answer_items_not_numbers_run_as_written(make_module: Make) -> None:
    module = make_module(MATRIX + """
    class Sneaky(float):
        def __rmul__(self, other):
            Matrix.__getitem__ = lambda self, index: 1.0
            return 0.5
    """)
    compiled = sc.symbolic(module.sor)
    compiled(*_args(module))
    for odd in (3, fractions.Fraction(1, 3), np.float64(0.5), True, module.Sneaky(0.5)):
        a, b, omega, sweeps = _args(module)
        b[2] = odd
        assert_equivalent(module.sor, compiled, (a, b, omega, sweeps))
        a, b, omega, sweeps = _args(module)
        a.data[7] = odd
        assert_equivalent(module.sor, compiled, (a, b, omega, sweeps))
    a, b, omega, sweeps = _args(module)
    a.data = tuple(a.data)
    assert_equivalent(module.sor, compiled, (a, b, omega, sweeps))


def test_never_a_wrong_answer_errors_raised_where_written(make_module: Make) -> None:
    module = make_module(MATRIX)
    compiled = sc.symbolic(module.sor)
    compiled(*_args(module))
    a, b, omega, sweeps = _args(module)
    a.data = a.data[:-3]  # IndexError in the last row
    assert_equivalent(module.sor, compiled, (a, b, omega, sweeps))
    a, b, omega, sweeps = _args(module)
    a.data[0] = 0.0  # ZeroDivisionError
    assert_equivalent(module.sor, compiled, (a, b, omega, sweeps))
    a, b, omega, sweeps = _args(module)
    a.cols = 6.0  # TypeError: list indices must be integers or slices, not float
    assert_equivalent(module.sor, compiled, (a, b, omega, sweeps))
    a, b, omega, sweeps = _args(module)
    del a.data
    assert_equivalent(module.sor, compiled, (a, b, omega, sweeps))
    assert_equivalent(module.sor, compiled, (*_args(module)[:3], 0))


CHANGES: dict[str, Callable[[type], None]] = {
    "__getitem__": lambda cls: setattr(cls, "__getitem__", lambda self, index: 0.5),
    "property": lambda cls: setattr(cls, "data", property(lambda self: [1.0] * 36)),
    "__getattribute__": lambda cls: setattr(cls, "__getattribute__", lambda self, name: (
        object.__getattribute__(self, name) if name != "cols" else 5)),
}


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
def test_never_a_wrong_answer_class_changed_after_compiling(make_module: Make, change: str,
                                                            ) -> None:
    module = make_module(MATRIX)
    compiled = sc.symbolic(module.sor)
    compiled(*_args(module))
    args = _args(module)
    CHANGES[change](module.Matrix)
    try:
        expected: object = module.sor(*args)
    except (IndexError, TypeError) as error:
        expected = repr(error)
    try:
        got: object = compiled(*args)
    except (IndexError, TypeError) as error:
        got = repr(error)
    assert got == expected


def test_must_not_change_a_loop_calling_unseen_code(make_module: Make) -> None:
    module = make_module(MATRIX)
    compiled = sc.symbolic(module.logged)
    a = _args(module)[0]
    seen: list[float] = []
    compiled(a, 6, seen.append)
    assert "a_data" not in sc.source(compiled, a, 6, seen.append)


def test_never_a_wrong_answer_a_carried_value_of_another_type(make_module: Make) -> None:
    module = make_module(MATRIX + """
    class Loud:
        def __iadd__(self, other):
            Matrix.__getitem__ = lambda self, index: 100.0
            return 0.0


    def summed(a, n, start):
        total = start
        for i in range(n):
            for j in range(n):
                total += a[i, j]
        return total
    """)
    compiled = sc.symbolic(module.summed)
    a = _args(module)[0]
    assert compiled(a, 6, 0.0) == module.summed(a, 6, 0.0)
    assert "type(total)" in sc.source(compiled, a, 6, 0.0)
    results = []
    for function in (compiled, module.summed):
        getitem = module.Matrix.__getitem__  # (put back after each run)
        results.append(function(a, 6, module.Loud()))
        module.Matrix.__getitem__ = getitem
    assert results[0] == results[1]


_NEST_LINES = (
    "s += a[i, j] * x[j]", "s -= a[j, i] / (1.0 + x[i] * x[i])", "x[j] = x[j] * 0.5 + s",
    "if a[i, j] > s:\n    s = a[i, j] - s", "t = a[i, i] * k + j\ns += t",
    "x[i] += a[i, j] // 0.25", "s = s % 7.0 + a[i, j]",
)


def _random_kernel(rng: random.Random, number: int) -> str:
    lines = "\n".join(" " * 16 + line.replace("\n", "\n" + " " * 16)
                      for line in rng.sample(_NEST_LINES, rng.randint(1, 3)))
    return f"""
    def kernel_{number}(a, x, k, n):
        s = 0.0
        for i in range(n):
            for j in range(n):
{lines}
            x[i] = x[i] + s * k
        return s, x
"""


def test_never_a_wrong_answer_random_matrix_nests(make_module: Make) -> None:
    rng = random.Random(8)
    module = make_module(MATRIX + "".join(_random_kernel(rng, n) for n in range(16)))
    odd = [3, 0.0, float("nan"), float("inf"), 2 ** 70, fractions.Fraction(1, 2), True]
    hoisted = 0
    for number in range(16):
        original = getattr(module, f"kernel_{number}")
        compiled = sc.symbolic(original)
        for trial in range(4):
            a, _, _, _ = _args(module, 5, seed=trial)
            x = [rng.uniform(-1, 1) for _ in range(5)]
            if trial >= 2:
                a.data[rng.randrange(25)] = rng.choice(odd)
                x[rng.randrange(5)] = rng.choice(odd)
            assert_equivalent(original, compiled, (a, x, rng.choice([0.5, 2, -1.5]),
                                                   rng.choice([0, 1, 5, 6])))
        hoisted += "a_data" in sc.source(compiled, _args(module, 5)[0], [0.5] * 5, 0.5, 5)
    assert hoisted >= 12
