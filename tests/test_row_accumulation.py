"""hoist_list_items' second rule (issue 11 #3): `c[i][j] += v` kept in a local across a loop
that only accumulates into it, `c` a private list of private rows (`private_rows`). Every test
compares the compiled function with the original under the differential oracle, on elements of
any type (user classes whose operators mutate the argument lists, raise IndexError or
StopIteration part way, return NaN, count their finalizers) and on the inputs the run-time
test turns away (a row count that is no int, indexes out of range, not ints)."""

from __future__ import annotations

import math
import random
import textwrap
import types
from collections.abc import Callable
from fractions import Fraction

import pytest

import symcompile as sc
from symcompile.analysis.private_lists import private_lists, private_rows
from symcompile.passes.pipeline import optimize
from symcompile.runtime.oracle import assert_equivalent

_KERNELS = '''
def matmul(a, b):
    n = len(a)
    m = len(b[0])
    inner = len(b)
    c = [[0.0] * m for _ in range(n)]
    for i in range(n):
        for j in range(m):
            for k in range(inner):
                c[i][j] += a[i][k] * b[k][j]
    return c


def matmul_twice(a, b):
    n = len(a)
    m = len(b[0])
    inner = len(b)
    c = [[0.0] * m for _ in range(n)]
    for _ in range(2):
        for i in range(n):
            for j in range(m):
                for k in range(inner):
                    c[i][j] += a[i][k] * b[k][j]
    return c


def window(n, lo, hi, turns, step):
    c = [[1.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(lo, hi):
            for k in range(turns):
                c[i][j] += step(k)
    return c


def rows_resized(n, turns):
    c = [[1.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            c[i][0:1] = []
            for k in range(turns):
                c[i][j] += 1.0
    return c


def count_bound_later(flag, turns):
    if flag:
        c = [[0.0] * 2]
    else:
        c = [[1.0] * m for _ in range(2)]
    for i in range(1):
        for j in range(2):
            for k in range(turns):
                c[i][j] += 1.0
    m = 2
    return c, m


def counted_rows(a, b, m):
    n = len(a)
    inner = len(b)
    c = [[0.0] * m for _ in range(n)]
    for i in range(n):
        for j in range(m):
            for k in range(inner):
                c[i][j] += a[i][k] * b[k][j]
    return c


def far_item(n, width, turns):
    c = [[1.0] * width for _ in range(n)]
    for i in range(n):
        for j in range(width + 2):
            for k in range(turns):
                c[i][j] += 1.0
    return c


def item_at(keys, turns):
    c = [[1.0] * 3 for _ in range(3)]
    for i in keys:
        for j in keys:
            for k in range(turns):
                c[i][j] *= 2.0
    return c


def one_row_many_times(n):
    row = [0.0] * n
    c = [row for _ in range(n)]
    for i in range(n):
        for j in range(n):
            for k in range(n):
                c[i][j] += 1.0
    return c


def rows_multiplied(n):
    c = [[0.0] * n] * n
    for i in range(n):
        for j in range(n):
            for k in range(n):
                c[i][j] += float(k)
    return c


def rows_handed_out(a, helper):
    c = [[0.0] * len(a) for _ in a]
    for i in range(len(a)):
        helper(c[i])
        for j in range(len(a)):
            for k in range(len(a)):
                c[i][j] += a[j][k]
    return c
'''


@pytest.fixture
def kernels(make_module: Callable[[str], types.ModuleType]) -> types.ModuleType:
    return make_module(_KERNELS)


def _floats(n: int, m: int, seed: int) -> list[list[float]]:
    return [[(seed * 7 + i * m + j) % 11 / 3.0 - 1.5 for j in range(m)] for i in range(n)]


def test_never_a_wrong_answer_matmul_keeps_the_item_in_a_local(kernels: types.ModuleType) -> None:
    compiled = sc.symbolic(kernels.matmul)
    for n, inner, m in [(3, 4, 5), (1, 1, 1), (2, 0, 3), (4, 6, 2)]:
        assert_equivalent(kernels.matmul, compiled, (_floats(n, inner, 1), _floats(inner, m, 2)))
    text = sc.source(compiled, _floats(3, 4, 1), _floats(4, 5, 2))
    assert "c_value += a[i][k] * b[k][j]" in text and "c_item[j] = None" in text, text


def test_private_rows_are_rows_nobody_else_sees(kernels: types.ModuleType) -> None:
    _, before, _ = optimize(kernels.matmul, passes=())
    assert private_rows(before, private_lists(before)) == {frozenset({"c"}): ("m",)}
    for name in ("one_row_many_times", "rows_multiplied", "rows_handed_out", "rows_resized"):
        _, before, _ = optimize(getattr(kernels, name), passes=())
        assert not private_rows(before, private_lists(before)), name


class Mutating:
    """A number whose `*` changes the argument lists: resizes `a`, replaces a row of `b`."""

    def __init__(self, value: float, lists: list[list[object]]) -> None:
        self.value = value
        self.lists = lists

    def __mul__(self, other: object) -> float:
        if self.lists and len(self.lists[0]) > 1:
            self.lists[0].pop()
        return self.value * float(other)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return f"Mutating({self.value})"


class Stopping:
    """A number whose `+` raises StopIteration (or IndexError) after some additions; a `for`
    loop lets either out, where `map` or `accumulate` would swallow StopIteration."""

    count = 0
    limit = 5
    error: type[Exception] = StopIteration

    def __init__(self, value: float) -> None:
        self.value = value

    def __radd__(self, other: object) -> Stopping:
        Stopping.count += 1
        if Stopping.count > Stopping.limit:
            raise Stopping.error(f"addition {Stopping.count}")
        return Stopping(float(other) + self.value)  # type: ignore[arg-type]

    def __iadd__(self, other: object) -> Stopping:
        return self.__radd__(other)

    __add__ = __radd__

    def __mul__(self, other: object) -> Stopping:
        return Stopping(self.value * float(other))  # type: ignore[arg-type]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Stopping) and other.value == self.value

    def __repr__(self) -> str:
        return f"Stopping({self.value})"


@pytest.mark.parametrize("error", [StopIteration, IndexError])
@pytest.mark.parametrize("limit", [0, 3, 7, 10 ** 6])
def test_never_a_wrong_answer_elements_raising_part_way(
        kernels: types.ModuleType, error: type[Exception], limit: int) -> None:
    compiled = sc.symbolic(kernels.matmul)
    a = [[Stopping(1.5), Stopping(-2.0)], [Stopping(0.5), Stopping(3.0)]]
    b = [[1.0, 2.0], [3.0, 4.0]]
    Stopping.limit, Stopping.error = limit, error
    try:
        outcomes = []
        for function in (kernels.matmul, compiled):
            Stopping.count = 0
            try:
                outcomes.append(("returned", function(a, b), Stopping.count))
            except Exception as exc:  # noqa: BLE001 - the exception is what is compared
                outcomes.append((type(exc).__name__, str(exc), Stopping.count))
    finally:
        Stopping.limit, Stopping.error = 5, StopIteration
    assert outcomes[0] == outcomes[1]


def test_never_a_wrong_answer_elements_that_change_the_argument_lists(
        kernels: types.ModuleType) -> None:
    """`*` shortens the first row of `a` as the loops run: the same IndexError, at the same
    turn, and the same lists left behind."""
    def arguments() -> tuple[list[list[object]], list[list[float]]]:
        a: list[list[object]] = [[], [1.0, 2.0, 3.0]]
        a[0] = [Mutating(2.0, a), Mutating(3.0, a), Mutating(4.0, a)]
        return a, _floats(3, 2, 4)

    compiled = sc.symbolic(kernels.matmul)
    results = []
    for function in (kernels.matmul, compiled):
        a, b = arguments()
        try:
            results.append((repr(function(a, b)), repr(a)))
        except IndexError as exc:
            results.append((f"IndexError: {exc}", repr(a)))
    assert results[0] == results[1]
    assert "IndexError" in results[0][0]


def test_never_a_wrong_answer_nan_and_infinities(kernels: types.ModuleType) -> None:
    compiled = sc.symbolic(kernels.matmul)
    a = [[math.nan, 1.0], [math.inf, -math.inf]]
    b = [[1.0, -0.0], [math.inf, 2.0]]
    assert_equivalent(kernels.matmul, compiled, (a, b))


class Logged:
    """A value whose finalizer is logged: the moment each sum is freed must not move."""

    log: list[str] = []

    def __init__(self, value: float) -> None:
        self.value = value

    def __add__(self, other: object) -> Logged:
        Logged.log.append(f"add {self.value}")
        value = other.value if isinstance(other, Logged) else float(other)  # type: ignore[arg-type]
        return Logged(self.value + value)

    __radd__ = __add__

    def __mul__(self, other: object) -> Logged:
        return Logged(self.value * float(other))  # type: ignore[arg-type]

    def __del__(self) -> None:
        Logged.log.append(f"free {self.value}")


def test_never_a_wrong_answer_finalizers_run_when_the_original_runs_them(
        kernels: types.ModuleType) -> None:
    """The second sweep starts from the sums of the first, held by the rows: each is freed
    where the original's first `+=` replaces it (the row holds None meanwhile)."""
    compiled = sc.symbolic(kernels.matmul_twice)
    logs = []
    for function in (kernels.matmul_twice, compiled):
        a = [[Logged(1.0), Logged(2.0)], [Logged(3.0), Logged(4.0)]]
        b = [[1.0, 10.0], [100.0, 1000.0]]
        Logged.log.clear()
        result = function(a, b)
        del result
        logs.append(list(Logged.log))
    assert logs[0] == logs[1] and logs[0]


class SharedRow:
    """A row count whose `__rmul__` hands every caller the same list, which it also keeps:
    the rows are then not the function's own, and its element `*` looks at them."""

    def __init__(self, n: int) -> None:
        self.row = [0.0] * n
        self.seen: list[str] = []

    def __rmul__(self, other: object) -> list[float]:
        return self.row

    def __index__(self) -> int:
        return len(self.row)


class Peeking:
    def __init__(self, value: float, shared: SharedRow) -> None:
        self.value = value
        self.shared = shared

    def __mul__(self, other: object) -> float:
        self.shared.seen.append(repr(self.shared.row))
        return self.value * float(other)  # type: ignore[arg-type]


def test_never_a_wrong_answer_rows_made_with_a_count_that_is_no_int(
        kernels: types.ModuleType) -> None:
    """Without the test `type(m) is int` where the loops start, the element `*` would see
    None in the shared row in place of the running sum."""
    compiled = sc.symbolic(kernels.counted_rows)
    assert "type(m) is int" in sc.source(compiled, _floats(2, 2, 1), _floats(2, 2, 2), 2)
    seen = []
    for function in (kernels.counted_rows, compiled):
        shared = SharedRow(2)
        a = [[Peeking(1.0, shared), Peeking(2.0, shared)], [Peeking(3.0, shared), Peeking(4.0, shared)]]
        result = function(a, _floats(2, 2, 2), shared)
        seen.append((repr(result), shared.seen))
    assert seen[0] == seen[1]


@pytest.mark.parametrize(("n", "width", "turns"), [(2, 3, 0), (2, 3, 2), (0, 1, 1), (3, 0, 0)])
def test_never_a_wrong_answer_item_out_of_range(kernels: types.ModuleType, n: int, width: int,
                                                turns: int) -> None:
    """`j` runs past the rows: a loop that runs zero times reads nothing (no IndexError), one
    that runs raises IndexError at its first turn, as written."""
    compiled = sc.symbolic(kernels.far_item)
    assert_equivalent(kernels.far_item, compiled, (n, width, turns))


class Index(int):
    """An int subclass: not an exact int, the loop as written runs."""


@pytest.mark.parametrize("keys", [[0, 2], [-1, 1], [Index(1)], [True], [1.0], []])
def test_never_a_wrong_answer_index_of_another_type(kernels: types.ModuleType,
                                                    keys: list[object]) -> None:
    compiled = sc.symbolic(kernels.item_at)
    for turns in (0, 3):
        assert_equivalent(kernels.item_at, compiled, (keys, turns))


@pytest.mark.parametrize("name", ["one_row_many_times", "rows_multiplied"])
def test_never_a_wrong_answer_rows_that_are_one_list(kernels: types.ModuleType, name: str) -> None:
    original = getattr(kernels, name)
    compiled = sc.symbolic(original)
    for n in (0, 1, 3):
        assert_equivalent(original, compiled, (n,))
    assert "_value" not in sc.source(compiled, 3)


def test_never_a_wrong_answer_rows_handed_to_a_call(kernels: types.ModuleType) -> None:
    def helper(row: list[float]) -> None:
        row.append(9.0)

    compiled = sc.symbolic(kernels.rows_handed_out)
    assert_equivalent(kernels.rows_handed_out, compiled, (_floats(3, 3, 1), helper))
    assert "_value" not in sc.source(compiled, _floats(3, 3, 1), helper)


@pytest.mark.parametrize(("n", "lo", "hi", "turns"), [
    (3, 0, 3, 2), (3, 1, 3, 0), (3, -1, 2, 1), (3, 0, 5, 0), (3, 0, 5, 1), (3, 2, 1, 1),
    (3, True, 2, 1), (3, 0, 2.0, 1), (3, -5, 2, 0), (3, -5, 2, 1),
])
def test_never_a_wrong_answer_bounds_of_the_enclosing_range(
        kernels: types.ModuleType, n: int, lo: object, hi: object, turns: int) -> None:
    """`for j in range(lo, hi)` around the loop: `j` is tested once, as the range's bounds
    (ints, `0 <= lo`, `hi <= len(c[i])`); bounds outside the rows, of other types, or an
    empty range run the loops as written (a negative `j` reads from the end, a zero-turn
    loop reads nothing)."""
    compiled = sc.symbolic(kernels.window)
    assert_equivalent(kernels.window, compiled, (n, lo, hi, turns, math.sqrt))
    text = sc.source(compiled, 3, 0, 3, 2, math.sqrt)
    assert "hi <= len" in text and "type(j) is int" not in text, text


def test_never_a_wrong_answer_a_module_range(make_module: Callable[[str], types.ModuleType]) -> None:
    """A module whose `range` is its own: `j` may be anything, tested at each loop."""
    module = make_module("def range(*bounds):\n    return [1.5, 0, -1]\n" + _KERNELS)
    compiled = sc.symbolic(module.window)
    assert_equivalent(module.window, compiled, (3, 0, 3, 1, math.sqrt))
    assert "type(j) is int" in sc.source(compiled, 3, 0, 3, 1, math.sqrt)


@pytest.mark.parametrize("turns", [0, 1])
def test_never_a_wrong_answer_rows_resized_by_a_slice(kernels: types.ModuleType, turns: int) -> None:
    """A slice store shortens the row between the loops: the rows are not the function's
    fixed-length own (a `j` past the end reads nothing in a loop of zero turns)."""
    compiled = sc.symbolic(kernels.rows_resized)
    for n in (0, 2, 4):
        assert_equivalent(kernels.rows_resized, compiled, (n, turns))


def test_always_explainable_accumulation_and_its_price(kernels: types.ModuleType) -> None:
    explained = str(sc.explain(kernels.matmul, _floats(3, 4, 1), _floats(4, 5, 2)))
    assert "kept c[i][j] in a local across the loop" in explained, explained


# --- random nests accumulating into rows: rows made in several ways, other statements
# around and inside the loop, exits, indexes in and out of range, values of several types

_ROWS = ("[[0.0] * m for _ in range(n)]", "[[x] * m for _ in range(n)]", "[[0.0] * m for _ in range(n)]",
         "[[0.0] * m] * n",
         "[[0.0 for _ in range(m)] for _ in range(n)]", "[[1.0, 2.0], [3.0]]",
         "[[0.0] * m, [x] * 3]", "[[x] * 3 for _ in range(n)]")
_AROUND = ("", "", "c[i][0] = x", "c[i][0:1] = [x, x]", "helper(c[i])", "d = c", "total = len(c[i])")
_INSIDE = ("c[i][j] += x * k", "c[i][j] -= 1.5", "c[i][j] *= x", "c[i + 1][j - 1] += k",
           "total = c[i][j]", "if k == 2:\n    break", "helper(k)", "c[i][j] += c[0][0]")


def _random_nest(rng: random.Random) -> str:
    inside = [rng.choice(_INSIDE[:3])] + [rng.choice(_INSIDE) for _ in range(rng.randint(0, 1))]
    rng.shuffle(inside)
    body = "\n".join(textwrap.indent(stmt, " " * 16) for stmt in inside)
    around = textwrap.indent(rng.choice(_AROUND), " " * 12)
    bounds = rng.choice(["m", "lo, m", "lo, m + 1", "m - 1"])
    return f'''
def helper(value):
    if isinstance(value, list) and value:
        value.append(value[0])
    return value

def f(n, m, lo, turns, x):
    c = {rng.choice(_ROWS)}
    d = None
    total = 0
    for i in range(n):
        for j in range({bounds}):
{around}
            for k in range(turns):
{body}
    return c, d, total
'''


@pytest.mark.parametrize("seed", range(80))
def test_never_a_wrong_answer_random_accumulating_nests(
        make_module: Callable[[str], types.ModuleType], seed: int) -> None:
    rng = random.Random(seed)
    module = make_module(_random_nest(rng))
    compiled = sc.symbolic(module.f)
    for args in ((2, 2, 0, 3, 1.5), (3, 2, 1, 0, -0.5), (2, 3, -1, 2, math.nan), (0, 2, 0, 1, 2.0),
                 (2, 2, 0, 2, 3), (2, 2, 0, 1, Fraction(1, 3)), (2, 2, 5, 0, 1.0)):
        assert_equivalent(module.f, compiled, args)


@pytest.mark.parametrize("turns", [0, 3])
def test_never_a_wrong_answer_count_bound_after_the_loop(kernels: types.ModuleType,
                                                         turns: int) -> None:
    """The rows' count is assigned after the loop (the rows the loop sees were made without
    it): testing it there would raise UnboundLocalError; the loop runs as written."""
    compiled = sc.symbolic(kernels.count_bound_later)
    assert_equivalent(kernels.count_bound_later, compiled, (True, turns))
    assert_equivalent(kernels.count_bound_later, compiled, (False, turns))
