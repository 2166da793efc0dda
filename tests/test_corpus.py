"""The corpus, its strategies, and the differential test of ``symcompile``.

* sanity: every corpus entry runs under ``observe`` on inputs from its
  strategy, deterministically, without touching the caller's inputs, and
  (unless it raises by design) returns normally on some input;
* differential: for every entry ``f``, ``sc.symbolic(f)`` is observably
  identical to ``f`` on hypothesis inputs (see ``symcompile/runtime/oracle.py``);
* mutants: the same harness rejects deliberately wrong "compiled" versions
  of some entries, so a passing differential test means something.

Both sanity and differential tests run each entry's fixed corner-case calls
(``tests.corpus.corners``) as explicit examples before the random ones.
Hypothesis runs derandomized without an example database, so every run tests
the same inputs.
"""

from __future__ import annotations

import copy
import inspect
import math
import textwrap
import types
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings

from symcompile.runtime.oracle import assert_equivalent, explain_difference
from tests import corpus
from tests.corpus import (
    ALWAYS_RAISES,
    CORPUS,
    CORPUS_BY_NAME,
    CORPUS_NAMES,
    arguments,
    corners,
)
from tests.strategies import Call

_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]

SANITY_SETTINGS = settings(
    max_examples=15, deadline=None, derandomize=True, database=None, suppress_health_check=_HEALTH
)
DIFFERENTIAL_SETTINGS = settings(
    max_examples=25, deadline=None, derandomize=True, database=None, suppress_health_check=_HEALTH
)
# the quick tier's share of random calls per entry (its corner calls are all run either way)
QUICK_DIFFERENTIAL_SETTINGS = settings(DIFFERENTIAL_SETTINGS, max_examples=8)


# ---------------------------------------------------------------------------
# the corpus itself
# ---------------------------------------------------------------------------


def test_corpus_is_large_enough() -> None:
    assert len(CORPUS) >= 70


def test_corpus_names_are_unique() -> None:
    assert len(CORPUS_NAMES) == len(set(CORPUS_NAMES)) == len(CORPUS)
    assert len({id(f) for f in CORPUS}) == len(CORPUS)


@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_corpus_entry_is_plain_and_documented(name: str) -> None:
    func = CORPUS_BY_NAME[name]
    assert isinstance(func, types.FunctionType)
    source = textwrap.dedent(inspect.getsource(func))
    assert source.startswith("def "), f"{name} must be a plain, undecorated def"
    assert inspect.getcomments(func), f"{name} needs a comment above it saying what it covers"


def _hypothesis_test(name: str, body: Callable[[Call], None], config: settings) -> Callable[[], None]:
    """``body`` as a hypothesis test over the entry's calls: its corner calls as
    explicit examples, then random calls from its strategy."""
    test = config(given(call=arguments(name))(body))
    for call in corners(name):
        test = example(call=call)(test)
    return test


def check_differential(name: str, candidate: Callable[..., Any], config: settings, note: str = "") -> None:
    """Assert that ``candidate`` behaves like the corpus entry ``name`` on its
    corner calls and on hypothesis calls; ``note`` is added to failure messages."""
    original = CORPUS_BY_NAME[name]

    def check(call: Call) -> None:
        args, kwargs = call
        try:
            assert_equivalent(original, candidate, args, kwargs)
        except AssertionError as exc:
            raise AssertionError(f"{exc}{note}") from None

    _hypothesis_test(name, check, config)()


# ---------------------------------------------------------------------------
# sanity: the corpus and the strategies work
# ---------------------------------------------------------------------------


@pytest.mark.slow  # checks the test corpus itself (15 hypothesis calls per entry), not the compiler
@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_corpus_runs_under_observe(name: str) -> None:
    func = CORPUS_BY_NAME[name]
    normal_returns: list[bool] = []

    def run(call: Call) -> None:
        args, kwargs = call
        before = copy.deepcopy(call)
        # Observing twice and comparing checks that the entry is deterministic.
        observation = assert_equivalent(func, func, args, kwargs)
        assert explain_difference(call, before, "inputs") is None, "observe changed the caller's inputs"
        normal_returns.append(observation.returned)

    _hypothesis_test(name, run, SANITY_SETTINGS)()
    if name in ALWAYS_RAISES:
        assert not any(normal_returns), f"{name} is listed in ALWAYS_RAISES but returned normally"
    else:
        assert any(normal_returns), f"{name} never returned normally: its inputs need an override in tests/corpus.py"


# ---------------------------------------------------------------------------
# differential: symcompile against the original
# ---------------------------------------------------------------------------

_compiled: dict[str, tuple[Callable[..., Any], str]] = {}


def _compiled_version(name: str) -> tuple[Callable[..., Any], str]:
    """``sc.symbolic(f)`` and its generated source, made once per corpus entry."""
    if name not in _compiled:
        import symcompile as sc

        compiled = sc.symbolic(CORPUS_BY_NAME[name])
        source = str(compiled.source)  # compiles now; SymbolicError if it cannot
        _compiled[name] = (compiled, source)
    return _compiled[name]


@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_compiled_matches_original(name: str) -> None:
    """The quick tier's differential test: every corner call and a few random ones."""
    _check_compiled(name, QUICK_DIFFERENTIAL_SETTINGS)


@pytest.mark.slow  # the full count of random calls per entry (the quick tier's test runs a few)
@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_compiled_matches_original_on_many_calls(name: str) -> None:
    _check_compiled(name, DIFFERENTIAL_SETTINGS)


def _check_compiled(name: str, config: settings) -> None:
    compiled, source = _compiled_version(name)
    assert compiled.original is CORPUS_BY_NAME[name]
    check_differential(name, compiled, config, f"\n--- generated source of {name} ---\n{source}")


# ---------------------------------------------------------------------------
# mutants: wrong "compiled" versions the harness must reject
# ---------------------------------------------------------------------------


def mutant_plus_zero(x):
    return x  # x + 0.0 -> x is wrong for -0.0


def mutant_times_zero(x):
    return 0.0  # wrong for negative x, nan, inf


def mutant_minus_self(x):
    return 0.0  # wrong for inf and nan


def mutant_not_less(x, y):
    return x >= y  # wrong for nan


def mutant_div_self(x):
    return 1.0  # must raise ZeroDivisionError for 0


def mutant_square_pow(x):
    return x * x  # must raise OverflowError for 1e200


def mutant_discarded_division(x, y):
    x + y  # the discarded x / y was dropped: no ZeroDivisionError
    return "done"


def mutant_int_floordiv_mod(k, m):
    return int(k / m), k % m, -k // m, -k % m  # truncation, and float rounding


def mutant_short_circuit(p, q):
    left, right = corpus._noisy("a", p), corpus._noisy("b", q)  # evaluates both
    r1 = left and right
    r2 = corpus._noisy("c", p) or corpus._noisy("d", q)
    r3 = not corpus._noisy("e", p)
    return r1, r2, r3


def mutant_augmented_list(xs):
    alias = xs
    xs = xs + [1.0]  # rebinding instead of mutating in place
    xs *= 2
    return alias is xs, len(alias)


def mutant_inplace_add(arr):
    return arr + 1  # a fresh array; the argument is not updated


def mutant_return_argument(arr):
    return arr.copy()  # equal value, but not the argument itself


def mutant_view_slice(arr):
    return arr[1:].copy()  # equal value, but not a view


def mutant_gen_print_interleave(n):
    print("start")
    items = []
    for i in range(n):
        print("yield", i)
        items.append(i)
    print("end")
    return iter(items)  # eager: prints before the first item is asked for


def mutant_np_sin(arr):
    with np.errstate(all="ignore"):  # swallows the RuntimeWarning
        return np.sin(arr)


def mutant_match_number(a):
    if isinstance(a, int) and a > 0:  # int tested before bool
        return "positive int"
    return corpus.match_number(a)


def mutant_builtin_numeric(x, k):
    return abs(x), abs(k), min(k, x), max(x, k), min(k, x)  # min's arguments swapped


def mutant_except_var_unbound(k):
    e = "set" if k > 0 else None  # the except-as name is not deleted
    try:
        r = 1 // k
    except ZeroDivisionError as exc:
        e = exc
        r = -1
    return r, e


def mutant_math_sqrt(x):
    return math.sqrt(x) if x >= 0 else math.nan  # no ValueError


#: A copy of global_roundtrip running in a copy of the module's globals, as a
#: compiler that execs generated code in a fresh namespace would make.
mutant_global_roundtrip = types.FunctionType(
    corpus.global_roundtrip.__code__, dict(vars(corpus)), "global_roundtrip"
)

MUTANTS: dict[str, Callable[..., Any]] = {
    "plus_zero": mutant_plus_zero,
    "times_zero": mutant_times_zero,
    "minus_self": mutant_minus_self,
    "not_less": mutant_not_less,
    "div_self": mutant_div_self,
    "square_pow": mutant_square_pow,
    "discarded_division": mutant_discarded_division,
    "int_floordiv_mod": mutant_int_floordiv_mod,
    "short_circuit": mutant_short_circuit,
    "augmented_list": mutant_augmented_list,
    "inplace_add": mutant_inplace_add,
    "return_argument": mutant_return_argument,
    "view_slice": mutant_view_slice,
    "gen_print_interleave": mutant_gen_print_interleave,
    "np_sin": mutant_np_sin,
    "match_number": mutant_match_number,
    "builtin_numeric": mutant_builtin_numeric,
    "except_var_unbound": mutant_except_var_unbound,
    "math_sqrt": mutant_math_sqrt,
    "global_roundtrip": mutant_global_roundtrip,
}


@pytest.mark.parametrize("name", list(MUTANTS))
def test_differential_check_rejects_mutant(name: str) -> None:
    with pytest.raises(AssertionError, match="not equivalent"):
        check_differential(name, MUTANTS[name], DIFFERENTIAL_SETTINGS)
