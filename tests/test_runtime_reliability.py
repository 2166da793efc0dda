"""The runtime's promises: no deadlock when code run while compiling calls the function, dropped
functions freed with their versions, static values keyed by value in a bounded cache that says
why it compiled, no user `__getattr__` run by the compiler, and clear errors in check mode."""

from __future__ import annotations

import gc
import linecache
import random
import threading
import tracemalloc
import types
import weakref
from typing import Any, Callable

import numpy as np
import pytest

import symcompile as sc
from symcompile import ir
from symcompile.passes import pipeline
from symcompile.runtime import api, cache
from symcompile.runtime.oracle import assert_equivalent

TIMEOUT = 60.0
MakeModule = Callable[[str], types.ModuleType]


def _finishes(work: Callable[[], Any]) -> Any:
    """`work()`, run in a thread: a deadlock fails the test instead of hanging it."""
    outcome: dict[str, Any] = {}

    def body() -> None:
        try:
            outcome["value"] = work()
        except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
            outcome["error"] = exc

    thread = threading.Thread(target=body, daemon=True)
    thread.start()
    thread.join(TIMEOUT)
    assert not thread.is_alive(), "deadlocked: the call never returned"
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def _generated_entries() -> set[str]:
    return {name for name in linecache.cache if name.startswith("<symcompile:")}


# ------------------------------------------------------------------ no deadlock


@pytest.fixture
def twice(make_module: MakeModule) -> Callable[..., Any]:
    return make_module("""
        def twice(x):
            return x * 2 + 1
    """).twice  # type: ignore[no-any-return]


def test_never_stuck_user_code_run_while_compiling_calls_the_function(
        twice: Callable[..., Any]) -> None:
    """A pass (user code the compiler runs) calls the function being compiled, same thread."""
    inner: list[Any] = []

    def calling_pass(function: ir.Function) -> ir.Function:
        inner.append(compiled(10))
        return function

    compiled = sc.symbolic(twice, passes=[calling_pass, *pipeline.PASSES])
    assert _finishes(lambda: compiled(3)) == 7
    assert inner and all(value == 21 for value in inner)  # the original ran
    assert compiled(4) == 9


def test_never_stuck_user_code_run_while_compiling_calls_the_function_from_another_thread(
        twice: Callable[..., Any]) -> None:
    inner: list[Any] = []

    def calling_pass(function: ir.Function) -> ir.Function:
        if not inner:  # once: the other thread's call compiles too, and runs this pass
            inner.append(None)
            helper = threading.Thread(target=lambda: inner.append(compiled(10)), daemon=True)
            helper.start()
            helper.join(TIMEOUT)
            assert not helper.is_alive()
        return function

    compiled = sc.symbolic(twice, passes=[calling_pass, *pipeline.PASSES])
    assert _finishes(lambda: compiled(3)) == 7
    assert inner[1:] == [21]
    assert compiled(4) == 9


def test_never_stuck_compiled_object_whose_getattr_calls_it() -> None:
    """The issue's repro: `__getattr__` calls the compiled object for every dunder asked."""
    fast: Any = None

    class Model:
        w = 2

        def __getattr__(self, name: str) -> Any:
            if name.startswith("__") and fast is not None:
                return fast(1)
            raise AttributeError(name)

        def __call__(self, x: Any) -> Any:
            return x * self.w

    fast = sc.symbolic(Model())
    assert _finishes(lambda: fast(3)) == 6


def test_never_wrong_threads_racing_on_the_first_call(make_module: MakeModule) -> None:
    module = make_module("""
        def poly(x):
            return x * x + 3 * x + 1
    """)
    compiled = sc.symbolic(module.poly)
    start = threading.Barrier(8)
    results: dict[int, Any] = {}

    def call(number: int) -> None:
        start.wait()
        results[number] = compiled(float(number))

    threads = [threading.Thread(target=call, args=(number,), daemon=True) for number in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    assert not any(thread.is_alive() for thread in threads)
    assert results == {number: module.poly(float(number)) for number in range(8)}
    info = sc.cache_info(compiled)
    assert info.size == 1 and info.misses == 1  # compiled once: the other calls ran the original


# ------------------------------------------------------------ freed when dropped


def _make_closure(offset: int) -> Callable[..., Any]:
    @sc.symbolic
    def shifted(x: Any) -> Any:
        return x * 2 + offset

    return shifted


@pytest.mark.slow
def test_never_leak_dropped_symbolic_closures_are_freed() -> None:
    refs: list[weakref.ref[Any]] = []
    states: list[weakref.ref[Any]] = []
    made: set[str] = set()
    for offset in range(2000):
        function = _make_closure(offset)
        assert function(1) == 2 + offset
        state = function._symcompile  # type: ignore[attr-defined]
        made.update(version.filename for version in state.cache.versions.values())
        refs.append(weakref.ref(function))
        states.append(weakref.ref(function._symcompile))  # type: ignore[attr-defined]
    assert all(name.startswith("<symcompile:") for name in made) and len(made) == 2000
    del function, state
    gc.collect()
    assert sum(ref() is not None for ref in refs) == 0
    assert sum(ref() is not None for ref in states) == 0
    assert not made & _generated_entries()  # their linecache entries went with them


@pytest.mark.slow
def test_never_leak_memory_across_rounds_of_compiled_functions() -> None:
    def one_round() -> int:
        for offset in range(100):
            function = _make_closure(offset)
            assert function(1.0) == 2.0 + offset
        del function
        gc.collect()
        return tracemalloc.get_traced_memory()[0]

    tracemalloc.start()
    try:
        one_round()  # warms up interned strings, caches of the passes
        rounds = [one_round() for _ in range(3)]
    finally:
        tracemalloc.stop()
    # a leak keeps ~180 kB per function, 18 MB a round
    assert rounds[-1] - rounds[0] < 2_000_000, rounds


def test_never_leak_a_compiled_object_dropped() -> None:
    class Scale:
        def __init__(self) -> None:
            self.w = np.arange(3.0)

        def __call__(self, x: Any) -> Any:
            return x * self.w

    refs = []
    for _ in range(50):
        compiled = sc.symbolic(Scale())
        assert compiled(2.0).tolist() == [0.0, 2.0, 4.0]
        refs.append(weakref.ref(compiled.__func__))
    del compiled
    gc.collect()
    assert sum(ref() is not None for ref in refs) == 0


# ------------------------------------------------------------------ static values


@pytest.fixture
def weighted(make_module: MakeModule) -> Callable[..., Any]:
    module = make_module("""
        def weighted(x, c):
            t = 0
            for v in c:
                t = t + v * x
            return t + len(c)
    """)
    return sc.symbolic(module.weighted, static_argnames=("c",))  # type: ignore[no-any-return]


def test_never_recompile_static_values_equal_but_fresh(weighted: Callable[..., Any]) -> None:
    for _ in range(20):
        assert weighted(2, tuple(range(1, 3))) == 8  # a fresh tuple each time
        assert weighted(2, (1, 2.5)) == 9.0
    assert sc.cache_info(weighted).misses == 2
    for _ in range(20):
        assert weighted(2, [1, 2]) == 8
        assert weighted(2, {1: "a", 2: "b"}) == 8
    info = sc.cache_info(weighted)
    assert info.misses == 3, info.reasons  # one version for any mutable value, passed as is
    assert info.size == 3 and info.hits >= 75


def test_never_wrong_mutable_static_value_mutated_or_replaced(make_module: MakeModule) -> None:
    """A list is passed as it is, never written into the code: mutations between calls are
    seen, and the function's own mutations reach the caller's list, not an older one."""
    module = make_module("""
        def push(x, c):
            c.append(x)
            return sum(c)
    """)
    compiled = sc.symbolic(module.push, static_argnames=("c",))
    first, second = [1], [1]
    assert compiled(2, first) == 3 and first == [1, 2]
    assert compiled(3, second) == 4 and second == [1, 3] and first == [1, 2]
    first[0] = 100
    assert compiled(4, first) == 106 and first == [100, 2, 4]
    array = np.ones(2)
    assert compiled(5, [array]).tolist() == [6.0, 6.0]
    for c in ([1], [1], {1: 2}):
        assert_equivalent(module.push, sc.symbolic(module.push, static_argnames=("c",)), (7, c))
    assert sc.cache_info(compiled).misses == 1


def test_never_wrong_static_values_keyed_by_type_and_bits(make_module: MakeModule) -> None:
    module = make_module("""
        def scaled(x, s):
            return x * s
    """)
    compiled = sc.symbolic(module.scaled, static_argnames=("s",))
    for s in (1, 1.0, True, -0.0, 0.0, (1, 2), (1.0, 2), float("nan"), -float("nan"), 1 + 0j):
        for _ in range(2):
            assert_equivalent(module.scaled, compiled, (3.0, s))
    assert cache.static_key(1) != cache.static_key(True) != cache.static_key(1.0)
    assert cache.static_key(-0.0) != cache.static_key(0.0)
    assert cache.static_key((1, 2)) == cache.static_key(tuple([1, 2]))


def test_never_run_user_eq_of_a_static_value() -> None:
    """An object is keyed by identity: its `__eq__`/`__hash__` are the user's code."""
    calls: list[str] = []

    class Loose:
        def __eq__(self, other: object) -> bool:
            calls.append("eq")
            return True

        def __hash__(self) -> int:
            calls.append("hash")
            return 0

    @sc.symbolic(static_argnames=("tag",))
    def tagged(x: Any, tag: Any) -> Any:
        return x + 1

    first, second = Loose(), Loose()
    assert tagged(1, first) == 2 and tagged(1, second) == 2 and tagged(1, first) == 2
    assert calls == []
    assert sc.cache_info(tagged).misses == 2


@pytest.mark.slow  # compiles MAX_VERSIONS + 40 versions, each loop unrolled
def test_never_unbounded_cache_of_versions(make_module: MakeModule) -> None:
    module = make_module("""
        def power(x, n):
            result = 1.0
            for _ in range(n):
                result = result * x
            return result
    """)
    compiled = sc.symbolic(module.power, static_argnames=("n",))
    before = _generated_entries()
    assert compiled(2.0, 0) == 1.0  # the installed version: never dropped
    for n in range(1, cache.MAX_VERSIONS + 40):
        assert compiled(2.0, n) == 2.0 ** n
    info = sc.cache_info(compiled)
    assert info.size <= info.max_size == cache.MAX_VERSIONS
    assert info.misses == cache.MAX_VERSIONS + 40
    gc.collect()
    assert len(_generated_entries() - before) <= cache.MAX_VERSIONS  # the dropped ones forgotten
    assert compiled(3.0, 0) == 1.0 and compiled(2.0, 3) == 8.0
    assert sc.cache_info(compiled).misses == info.misses + 1  # n=3 was dropped, n=0 was not


@pytest.mark.usefixtures("specialize_always")  # the version for the types given, paying or not
def test_always_explainable_cache_info_says_why_it_compiled(make_module: MakeModule) -> None:
    module = make_module("""
        SCALE = 2.0

        def scaled(x, n):
            return x * (SCALE + 0.0) * n
    """)
    compiled = sc.symbolic(module.scaled, static_argnames=("n",))
    assert compiled(1.0, 3) == 6.0
    assert compiled(1.0, 4) == 8.0
    module.SCALE = 5.0
    assert compiled(1.0, 3) == 15.0
    assert compiled(1, 3) == 15.0
    assert compiled(1.0, 4) == 20.0
    info = sc.cache_info(compiled)
    assert info.reasons[:3] == ("first call", "static argument n changed: 3 → 4",
                                "global SCALE rebound")
    assert info.reasons[3].startswith("argument types changed: x is int, compiled for float")
    assert info.reasons[4] == "global SCALE rebound"
    assert info.misses == 5 and info.hits == 0
    assert compiled(1.0, 4) == 20.0 and sc.cache_info(compiled).hits == 1
    with pytest.raises(TypeError, match="expects a @symbolic function"):
        sc.cache_info(module.scaled)


def test_never_stuck_recompiling_a_global_that_changes_every_call(make_module: MakeModule) -> None:
    module = make_module("""
        SCALE = 1.0

        def scaled(x):
            return x * (SCALE + 0.0)
    """)
    compiled = sc.symbolic(module.scaled)
    for step in range(60):
        module.SCALE = float(step)
        assert compiled(2.0) == 2.0 * step
    info = sc.cache_info(compiled)
    assert info.misses == 1 + api.MAX_STALE_RECOMPILES
    assert "without relying on globals" in info.reasons[-1]


# --------------------------------------------------- no user code run by the compiler


class _Printing:
    w = 2

    def __getattr__(self, name: str) -> Any:
        print("getattr", name)
        raise AttributeError(name)

    def __call__(self, x: Any) -> Any:
        return x * self.w


class _KeyErrors:
    w = 2

    def __getattr__(self, name: str) -> Any:
        raise KeyError(name)

    def __call__(self, x: Any) -> Any:
        return x * self.w


class _DunderErrors:
    w = 2

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise RuntimeError(name)
        raise AttributeError(name)

    def __call__(self, x: Any) -> Any:
        return x * self.w


@pytest.mark.parametrize("kind", [_Printing, _KeyErrors, _DunderErrors])
def test_never_run_user_getattr_while_compiling(kind: type,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    compiled = sc.symbolic(kind())
    assert compiled(3) == 6 and compiled(2.5) == 5.0
    assert sc.source(compiled, 3).endswith(".w\n")
    assert sc.explain(compiled, 3).final
    assert capsys.readouterr().out == ""


def test_never_run_user_getattr_of_a_global_called(make_module: MakeModule,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    module = make_module("""
        class Loud:
            def __getattr__(self, name):
                print("getattr", name)
                raise KeyError(name)

            def __call__(self, x):
                return x + 1

        loud = Loud()

        def f(x):
            return loud(x) * 2
    """)
    compiled = sc.symbolic(module.f)
    assert compiled(1) == 4
    assert capsys.readouterr().out == ""


# ------------------------------------------------------------------- clear errors


def test_always_explainable_check_mode_on_a_function_that_is_not_deterministic() -> None:
    @sc.symbolic(check=True)
    def noisy(x: float) -> float:
        return x + random.random()

    with pytest.raises(sc.CheckError, match="is not deterministic") as caught:
        noisy(1.0)
    assert "inline_calls" not in str(caught.value)
    assert "check=True" in (caught.value.hint or "")


def test_never_stuck_compiled_object_whose_call_is_already_symbolic() -> None:
    class Net:
        def __init__(self) -> None:
            self.w = np.array([1.0, 2.0])

        @sc.symbolic
        def __call__(self, x: Any) -> Any:
            return x * self.w

    net = Net()
    compiled = sc.symbolic(net)
    assert compiled(3.0).tolist() == [3.0, 6.0]
    assert "self" not in sc.source(compiled, 3.0).split("return")[-1]  # the array is bound
    net.w = np.array([5.0])
    assert compiled(3.0).tolist() == [15.0]
    Net.__call__ = lambda self, x: -1  # type: ignore[method-assign, assignment]
    assert compiled(3.0) == -1
