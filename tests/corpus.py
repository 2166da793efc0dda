"""Shared corpus of small numeric Python functions for differential tests.

Every public (no leading underscore, not a ``make_*`` factory) module-level
function below is a corpus entry, in source order; closures made by the
``make_*`` factories are entries under the name they are bound to (for
example ``scale_by_3``).  Each entry is a plain, undecorated function whose
source ``inspect.getsource`` can read, cheap (microseconds) and deterministic,
with a comment above it saying what it covers.  Corpus functions are kept
unannotated on purpose: they are test data, not library code.

Inputs come from ``tests.strategies`` by parameter name; entries needing other
inputs have overrides in :data:`ARGUMENT_OVERRIDES` (whole calls) or
:data:`PARAM_OVERRIDES` (single parameters).  :func:`arguments` combines them;
:func:`corners` gives fixed corner-case calls to run as explicit examples.
:data:`ALWAYS_RAISES` names the entries that raise on every input by design.

Names starting with an underscore (``_noisy``, ``_COUNTER``, ...) and the
classes are helpers used by the entries.
"""

import contextlib
import math
import sys
import types
from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import strategies as st

from tests.strategies import (
    Call,
    arguments_for,
    corner_calls,
    float_arrays,
    float_lists,
    floats,
    positional,
    short_strings,
)

# ---------------------------------------------------------------------------
# helpers (not corpus entries)
# ---------------------------------------------------------------------------

_COUNTER = 0


def _read_counter():
    return _COUNTER


def _noisy(tag, value):
    print("eval", tag)
    return value


def _three(a, b, w):
    return (a - b) * w


def _sub_gen(xs):
    for v in xs:
        yield v
    return len(xs)


def _is_odd(n):
    return False if n == 0 else is_even(n - 1)


class CorpusError(Exception):
    """Custom exception raised by corpus functions."""


class Tracker:
    """Context manager that prints and logs enter/exit; optionally swallows exceptions."""

    def __init__(self, name, swallow=False):
        self.name = name
        self.swallow = swallow
        self.log = []

    def __enter__(self):
        print("enter", self.name)
        self.log.append("enter " + self.name)
        return self

    def __exit__(self, exc_type, exc, tb):
        label = "ok" if exc_type is None else exc_type.__name__
        print("exit", self.name, label)
        self.log.append("exit " + self.name + " " + label)
        return self.swallow


class Pair:
    """A class with positional match arguments."""

    __match_args__ = ("left", "right")

    def __init__(self, left, right):
        self.left = left
        self.right = right


# ---------------------------------------------------------------------------
# calls to other corpus functions
# ---------------------------------------------------------------------------


# helper called by other entries; + on mixed numbers
def add(a, b):
    return a + b


# the textbook example: three calls to add
def fancy_func(a, b, c, d):
    e = add(a, b)
    f = add(c, d)
    g = add(e, f)
    return g


# ---------------------------------------------------------------------------
# arithmetic operators
# ---------------------------------------------------------------------------


# float + - * and unary - +
def float_add_sub_mul(x, y):
    return x + y, x - y, x * y, -x, +y


# float / (ZeroDivisionError on zero)
def float_true_div(x, y):
    return x / y


# float // and % (signs, inf, ZeroDivisionError)
def float_floordiv_mod(x, y):
    return x // y, x % y


# float ** (OverflowError, ZeroDivisionError, complex result for negative base)
def float_pow(x, y):
    return x ** y


# int + - * unary - + ~ and abs, including huge ints
def int_arith(k, i):
    return k + i, k - i, k * i, -k, +i, ~k, abs(k)


# int // and % with negative operands (ZeroDivisionError on zero)
def int_floordiv_mod(k, m):
    return k // m, k % m, -k // m, -k % m


# << and >> (ValueError on a negative shift count)
def int_shifts(k, m):
    return k << m, k >> m


# & | ^ on ints of any size and sign
def int_bitwise(k, i):
    return k & i, k | i, k ^ i, k & -1


# int ** small non-negative exponent
def int_pow(k, n):
    return k ** n, (-k) ** n


# @ on arrays (ValueError on mismatched shapes)
def matmul(u, v):
    return u @ v


# unary - + and not on mixed numbers
def unary_ops(a):
    return -a, +a, not a


# ~ on ints
def int_invert(k):
    return ~k, ~~k, ~-k


# bool arithmetic: True + True is 2
def bool_arith(p, q):
    return p + q, p - q, p * q, p & q, p | q, p ^ q, True + True, -p, p / (q + 1), p ** q


# complex arithmetic with a float
def complex_arith(z, x):
    return z + x, z - x, z * z, z * x, z.conjugate(), z.real, z.imag, -z


# complex / mixed number (ZeroDivisionError, OverflowError for huge ints)
def complex_div(z, a):
    return z / a


# abs of complex (OverflowError for huge parts)
def complex_abs(z):
    return abs(z)


# complex ** int (OverflowError)
def complex_pow(z, n):
    return z ** n


# mixed-kind * - == !=
def mixed_arith(a, b):
    return a * b - a, a == b, a != b


# ---------------------------------------------------------------------------
# float corner cases (things an optimizer must not simplify)
# ---------------------------------------------------------------------------


# x + 0.0 is not x (-0.0 + 0.0 is 0.0)
def plus_zero(x):
    return x + 0.0


# x * 0 is not 0 (nan, inf, -0.0)
def times_zero(x):
    return x * 0


# x - x is not 0 (inf, nan)
def minus_self(x):
    return x - x


# x * 1 is x bit for bit
def times_one(x):
    return x * 1


# 0.0 - x is not -x (for x = 0.0)
def zero_minus(x):
    return 0.0 - x


# -(-x) is x
def double_negation(x):
    return -(-x)


# not (x < y) is not x >= y (nan)
def not_less(x, y):
    return not (x < y)


# x / x is not 1 (nan, inf, ZeroDivisionError)
def div_self(x):
    return x / x


# x ** 2 raises OverflowError where x * x gives inf
def square_pow(x):
    return x ** 2


# x * x gives inf on overflow
def square_mul(x):
    return x * x


# float + and * are not associative
def reassociation(x, y, w):
    return (x + y) + w, x + (y + w), x * (y * w), (x * y) * w


# float * does not distribute over +
def distribute(x, y, w):
    return x * (y + w), x * y + x * w


# x == x is False for nan
def compare_self(x):
    return x == x, x != x, x <= x


# ---------------------------------------------------------------------------
# integer corner cases
# ---------------------------------------------------------------------------


# huge int arithmetic
def big_int_ops(big, k):
    return big * big, big + k, big % 7, -big // 3, big >> 64


# huge int / small int (OverflowError when too large for a float)
def big_true_div(big, m):
    return big / m


# int op float (exact int/float comparison, conversion)
def int_float_mix(k, x):
    return k + x, k * x, k < x, k == x


# float(huge int) raises OverflowError
def big_to_float(big):
    return float(big)


# ---------------------------------------------------------------------------
# comparisons, identity, membership
# ---------------------------------------------------------------------------


# chained comparisons
def chained_compare(x, y, w):
    return x < y < w, x <= y >= w, x == y == w, x != y != w, x < y > w


# chained comparison evaluates the middle operand once and short-circuits
def chained_side_effects(k):
    return _noisy("a", 1) < _noisy("b", k) < _noisy("c", 3)


# is / is not / in / not in
def identity_and_membership(a, xs):
    return a is None, a is not None, xs is xs, a in xs, a not in xs, None in xs


# in on dicts and strings
def dict_membership(s):
    d = {"a": 1, "b c": 2}
    return s in d, s not in d, d.get(s), s in "abc"


# ---------------------------------------------------------------------------
# boolean logic and conditional expressions
# ---------------------------------------------------------------------------


# and / or / not short-circuit with side effects (printed order)
def short_circuit(p, q):
    r1 = _noisy("a", p) and _noisy("b", q)
    r2 = _noisy("c", p) or _noisy("d", q)
    r3 = not _noisy("e", p)
    return r1, r2, r3


# and / or return an operand, not a bool
def and_or_values(a, b):
    return a and b, a or b, (a and b) or 0, not a or b


# and / or guarding an IndexError
def short_circuit_guard(xs):
    return len(xs) > 0 and xs[0] > 0, not xs or xs[-1]


# conditional expressions with nan
def cond_expr(x, y):
    return x if x > y else y, (x if x == x else 0.0)


# nested conditional expressions
def clamp(x):
    return 0.0 if x < 0.0 else (1.0 if x > 1.0 else x)


# ---------------------------------------------------------------------------
# assignment
# ---------------------------------------------------------------------------


# tuple unpacking, swap, nested unpacking, chained assignment
def tuple_unpacking(x, y):
    a, b = x, y
    a, b = b, a
    (c, (d, e)) = (a, (b, a + b))
    f = g = c * 2
    return a, b, c, d, e, f, g


# starred unpacking (ValueError on an empty list)
def starred_unpacking(xs):
    first, *rest = xs
    *init, last = xs
    return first, rest, init, last


# starred expressions in list/tuple/dict displays and calls
def starred_displays(xs):
    both = [*xs, *xs[:1]]
    tup = (*xs, 1.0)
    merged = {**{"a": 1}, "n": len(xs)}
    return both, tup, merged, max(*xs, -1.0)


# walrus in if and in a comprehension (binds in the function; unbound if never run)
def walrus(xs):
    if (count := len(xs)) > 2:
        msg = "long"
    else:
        msg = "short"
    doubled = [y for v in xs if (y := v * 2) > 0]
    return count, msg, doubled, y


# every augmented assignment operator on ints, then /=
def augmented_int(k, i):
    r = k
    r += i
    r -= 3
    r *= 2
    r //= i or 1
    r %= 1000003
    r **= 2
    r <<= 3
    r >>= 1
    r &= 0xFFFFFFFF
    r |= 5
    r ^= i
    t = r
    t /= 4
    return r, t


# augmented assignment on floats (OverflowError from **=)
def augmented_float(x, y):
    r = x
    r += y
    r -= 1.5
    r *= y
    r /= 2.0
    r //= 0.5
    r %= 3.0
    r **= 2
    return r


# += and *= on a list mutate the argument in place
def augmented_list(xs):
    alias = xs
    xs += [1.0]
    xs *= 2
    return alias is xs, len(alias)


# += on a list argument, returning it (aliasing)
def augmented_list_return(xs):
    xs += [0.5]
    return xs


# += on a tuple rebinds
def augmented_tuple(x):
    t = (x,)
    orig = t
    t += (1.0,)
    return t, orig, t is orig


# @= on arrays (in place, mutates the argument)
def augmented_matmul(u, v):
    w = u
    w @= v
    return w


# ---------------------------------------------------------------------------
# control flow
# ---------------------------------------------------------------------------


# if / elif / else with nan falling through to else
def sign(x):
    if x > 0:
        return 1
    elif x < 0:
        return -1
    elif x == 0:
        return 0
    else:
        return None


# several returns in an elif chain
def grade(k):
    if k >= 90:
        return "A"
    elif k >= 70:
        return "B"
    elif k >= 0:
        return "C"
    return "F"


# for loop accumulating
def sum_to(n):
    total = 0
    for i in range(n):
        total += i
    return total


# for with continue / break / else
def loop_break_continue(n):
    out = []
    for i in range(n):
        if i % 2 == 0:
            continue
        if i > 11:
            break
        out.append(i)
    else:
        out.append(-1)
    return out


# while with break / else
def while_else(n):
    i = 0
    found = None
    while i < n:
        if i * i > 50:
            found = i
            break
        i += 1
    else:
        found = -1
    return found, i


# nested loops with break and continue in the inner loop
def nested_loops(n, m):
    pairs = []
    for i in range(n):
        for j in range(m):
            if (i + j) % 3 == 0:
                continue
            if j > i:
                break
            pairs.append((i, j))
    return pairs


# return from inside a loop
def return_in_loop(xs):
    for index, value in enumerate(xs):
        if value < 0:
            return index
    return -1


# early returns
def early_return(x):
    if x != x:
        return "nan"
    if x == math.inf:
        return "inf"
    return "finite"


# while True with break
def while_true_break(n):
    k = 0
    while True:
        k += 3
        if k > n:
            break
    return k


# ---------------------------------------------------------------------------
# expression statements and print
# ---------------------------------------------------------------------------


# expression statements with side effects on the argument
def expression_statements(xs):
    xs.append(2.0)
    xs.sort()
    len(xs)
    xs.reverse()


# discarded expressions must still raise (ZeroDivisionError)
def discarded_division(x, y):
    x / y
    x + y
    return "done"


# discarded call with a side effect
def discarded_call(n):
    _noisy("side", n)
    return n


# several prints, sep and end, order matters
def print_many(x, k):
    print("start")
    print(x, k)
    print(x, k, sep=", ", end="!\n")
    print()
    print(*[1, 2, 3], sep="-")
    print("no newline", end="")
    print("done")
    return k


# print inside a loop
def print_in_loop(n):
    for i in range(n):
        print(i, i * i)
    print("total", n)


# output printed before an exception (ValueError from math.sqrt)
def print_then_raise(x):
    print("before")
    r = math.sqrt(x)
    print("after", r)
    return r


# print to stdout and stderr
def print_stderr(s):
    print("out", s)
    print("err", s, file=sys.stderr)
    print("out again")


# ---------------------------------------------------------------------------
# strings
# ---------------------------------------------------------------------------


# f-strings with format specs and conversions
def fstrings(x, k, s):
    return f"{x}|{x:.3f}|{x:e}|{x!r}|{k:>6}|{k:#x}|{s!r}|{s:^7}|{k * 2}|{x:+08.2f}"


# string methods, slicing, repetition
def string_ops(s):
    return (s.upper(), s * 2, s[::-1], len(s), s.split(), "-".join(s), s + "!", s.strip(),
            s.find("a"), s.replace("a", "bb"), s[1:3])


# % formatting and str.format
def string_format(s, k):
    return "%s=%d" % (s, k), "{}:{}".format(s, k), str(k) + s


# string comparisons and sorted(str)
def string_compare(s):
    return s < "b", s == s.lower(), "a" in s, s.startswith("a"), sorted(s)


# ---------------------------------------------------------------------------
# exceptions
# ---------------------------------------------------------------------------


# raise of a custom exception and a builtin one
def raise_custom(x):
    if x < 0:
        raise CorpusError("negative")
    if x != x:
        raise ValueError("nan")
    return x


# IndexError from indexing
def index_error(xs, m):
    return xs[m]


# a constant expression that overflows (must raise at call time, not compile time)
def overflow_constant():
    return 1e200 ** 2


# ValueError from math.sqrt of a negative number
def math_sqrt(x):
    return math.sqrt(x)


# KeyError from a dict lookup
def key_error(s):
    d = {"a": 1}
    return d[s]


# TypeError from str + int (always raises)
def type_error(s, k):
    return s + k


# try / except / else / finally order
def try_except_else_finally(x, y):
    log = []
    try:
        log.append("try")
        r = x / y
        log.append("after")
    except ZeroDivisionError:
        log.append("except")
        r = None
    else:
        log.append("else")
    finally:
        log.append("finally")
    return r, log


# return inside try with a printing finally
def try_finally_return(k):
    try:
        return 100 // k
    finally:
        print("cleanup")


# raise ... from inside except
def try_reraise(k):
    try:
        r = 10 // k
    except ZeroDivisionError as exc:
        raise ValueError("zero") from exc
    return r


# the except-as name is unbound after the handler
def except_var_unbound(k):
    if k > 0:
        e = "set"
    try:
        r = 1 // k
    except ZeroDivisionError as e:
        r = -1
    return r, e


# nested try with finally, inner exception caught outside
def nested_try(xs):
    try:
        try:
            v = xs[0] / xs[1]
        except ZeroDivisionError:
            v = math.inf
        finally:
            print("inner finally")
    except IndexError:
        v = None
    return v


# ---------------------------------------------------------------------------
# with, assert, del
# ---------------------------------------------------------------------------


# with a context manager class; exception propagates through __exit__
def with_tracker(x, y):
    with Tracker("outer") as t:
        t.log.append("body")
        r = x / y
    return r, t.log


# with contextlib.suppress
def with_suppress(k):
    r = None
    with contextlib.suppress(ZeroDivisionError):
        r = 100 // k
        print("inside")
    return r


# two context managers in one with; the inner may swallow the exception
def with_nested(p):
    with Tracker("a") as t1, Tracker("b", swallow=p) as t2:
        raise CorpusError("boom")
    return t1.log + t2.log


# assert with a message (AssertionError)
def assert_positive(x):
    assert x > 0, f"not positive: {x}"
    return x


# del of dict items, list items and locals
def del_statements(xs):
    d = {"a": 1, "b": 2}
    del d["a"]
    t = len(xs)
    del t
    if xs:
        del xs[0]
    return d, xs


# use after del raises UnboundLocalError
def del_then_use(x):
    y = x * 2
    if x > 0:
        del y
    return y


# ---------------------------------------------------------------------------
# scopes: global, nonlocal, nested functions, lambda
# ---------------------------------------------------------------------------


# global written here and read by another function (must be the module's global); restored after
def global_roundtrip(n):
    global _COUNTER
    saved = _COUNTER
    _COUNTER = n
    _COUNTER += 1
    seen = _read_counter()
    _COUNTER = saved
    return seen * 2, _COUNTER


# global read and written in a loop; restored, so the result is deterministic
def global_counter(n):
    global _COUNTER
    start = _COUNTER
    for _ in range(n):
        _COUNTER += 1
    diff = _COUNTER - start
    _COUNTER = start
    return diff


# nonlocal in a nested closure
def nonlocal_counter(n):
    count = 0

    def bump(step):
        nonlocal count
        count += step
        return count

    for i in range(n):
        bump(i)
    return count, bump(100)


# nested def with a default and a closure over the outer argument
def nested_def(x):
    def inner(y, scale=2.0):
        return y * scale

    def outer_ref():
        return inner(x) + x

    return inner(x), outer_ref(), inner.__name__


# lambdas as sort keys, in map, called immediately
def lambdas(xs):
    key = lambda v: (v != v, -v)  # noqa: E731
    return sorted(xs, key=key), list(map(lambda v: v + 1, xs)), (lambda a, b=2: a * b)(len(xs))


# late binding of a loop variable in lambdas
def closure_late_binding(n):
    fs = [lambda: i for i in range(n)]
    return [f() for f in fs]


# ---------------------------------------------------------------------------
# comprehensions and generator expressions
# ---------------------------------------------------------------------------


# list / set / dict comprehensions and a generator expression
def comprehensions(xs):
    return ([v * 2 for v in xs if v > 0], {round(v, 1) for v in xs if v == v and abs(v) < 1e300},
            {i: v for i, v in enumerate(xs)}, sum(v for v in xs if v < 0))


# nested comprehensions with conditions
def nested_comprehension(n):
    return [[i * j for j in range(i)] for i in range(n)], [(i, j) for i in range(n) for j in range(i) if (i + j) % 2]


# generator expressions consumed partly by next, then by sum; any / all
def generator_expression(n):
    g = (i * i for i in range(n))
    first = next(g, None)
    return first, sum(g), any(i > 5 for i in range(n)), all(i < 10 for i in range(n))


# ---------------------------------------------------------------------------
# classes and imports inside functions
# ---------------------------------------------------------------------------


# class definition with methods inside a function
def local_class(x):
    class Point:
        def __init__(self, px, py):
            self.px = px
            self.py = py

        def norm1(self):
            return abs(self.px) + abs(self.py)

    p = Point(x, 2.0)
    return p.norm1(), type(p).__name__, isinstance(p, Point)


# class attribute vs instance attribute, chained method calls
def local_class_attr(k):
    class Acc:
        total = 0

        def add(self, v):
            self.total += v
            return self

    acc = Acc()
    acc.add(k).add(1)
    return acc.total, Acc.total


# import and from-import inside a function (ValueError/OverflowError from floor)
def import_inside(x):
    import math
    from math import floor

    return math.floor(x), floor(x) + 1


# import numpy inside a function; numpy scalar result and warnings
def import_numpy_inside(xs):
    import numpy

    return numpy.array(xs, dtype=float).sum()


# ---------------------------------------------------------------------------
# match statement
# ---------------------------------------------------------------------------


# class patterns with guards on mixed numbers (bool before int)
def match_number(a):
    match a:
        case bool():
            return "bool"
        case int(v) if v > 0:
            return "positive int"
        case int():
            return "int"
        case float(v) if v != v:
            return "nan"
        case float():
            return "float"
        case complex():
            return "complex"
        case _:
            return "other"


# sequence patterns with star
def match_sequence(xs):
    match xs:
        case []:
            return "empty"
        case [v]:
            return ("one", v)
        case [v, w]:
            return ("two", v + w)
        case [v, *rest]:
            return ("many", v, len(rest))


# or-patterns, as-patterns, guards
def match_literal(k):
    match k:
        case 0 | 1:
            return "small"
        case (2 | 3) as t:
            return f"{t}!"
        case int(v) if v < 0:
            return "negative"
        case _:
            return "large"


# mapping patterns with **rest
def match_mapping(s):
    d = {"kind": s, "n": len(s)}
    match d:
        case {"kind": "a", **rest}:
            return ("a", rest)
        case {"n": 0}:
            return "empty"
        case {"kind": str(kind)}:
            return kind.upper()


# class pattern with __match_args__ and keyword patterns
def match_class(x):
    match Pair(x, -x):
        case Pair(0.0, _):
            return "zero"
        case Pair(left=left) if left > 0:
            return ("positive", left)
        case Pair(left, right):
            return ("other", left, right)


# ---------------------------------------------------------------------------
# recursion
# ---------------------------------------------------------------------------


# recursive factorial
def factorial(n):
    return 1 if n <= 1 else n * factorial(n - 1)


# doubly recursive fibonacci (small n)
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


# memoised recursion with a mutable default dict (results do not depend on the cache)
def fib_memo(n, memo={}):
    if n in memo:
        return memo[n]
    r = n if n < 2 else fib_memo(n - 1) + fib_memo(n - 2)
    memo[n] = r
    return r


# mutual recursion through a helper
def is_even(n):
    return True if n == 0 else _is_odd(n - 1)


# ---------------------------------------------------------------------------
# generators and iterators
# ---------------------------------------------------------------------------


# a simple generator function
def gen_squares(n):
    for i in range(n):
        yield i * i


# prints interleaved with yields (laziness is observable)
def gen_print_interleave(n):
    print("start")
    for i in range(n):
        print("yield", i)
        yield i
    print("end")


# exception raised during iteration (ZeroDivisionError)
def gen_raises(k):
    yield 1
    yield 10 // k
    yield 3


# yield from a sub-generator and its return value
def gen_yield_from(xs):
    total = yield from _sub_gen(xs)
    yield total


# returning a lazy iterator that is not a generator
def iterator_return(xs):
    return zip(xs, range(3))


# ---------------------------------------------------------------------------
# signatures: defaults, keyword-only, positional-only, *args, **kwargs
# ---------------------------------------------------------------------------


# default arguments (sometimes omitted by the strategy)
def with_defaults(x, y=2.0, w=-0.0):
    return x * y + w


# a mutable default, used and restored so calls stay independent
def mutable_default(x, acc=[]):
    acc.append(x)
    total = sum(acc)
    count = len(acc)
    acc.clear()
    return total, count


# keyword-only arguments with defaults
def kwonly(x, *, scale=2.0, flag=False):
    r = x * scale
    return -r if flag else r


# positional-only arguments
def posonly(x, y, /, w=1.0):
    return (x - y) * w


# *args
def varargs(*args):
    return len(args), args, sum(args)


# **kwargs
def varkwargs(x, **kwargs):
    return x, sorted(kwargs), kwargs


# every parameter kind at once
def all_parameter_kinds(a, /, b, *args, c, d=1.5, **kwargs):
    return a, b, args, c, d, kwargs


# ---------------------------------------------------------------------------
# closures made by factories
# ---------------------------------------------------------------------------


def make_scaler(factor):
    # closure over a float
    def scale(x):
        return x * factor

    return scale


def make_adder(k):
    # closure over an int, applied to mixed numbers
    def add_k(a):
        return a + k

    return add_k


def make_poly(c0, c1, c2):
    # closure over three coefficients (Horner's rule)
    def poly(x):
        return c0 + x * (c1 + x * c2)

    return poly


def make_power(e):
    # closure over an exponent (OverflowError)
    def power(x):
        return x ** e

    return power


def make_array_shift(offset):
    # closure over a numpy scalar, applied to arrays
    def shift(arr):
        return arr + offset

    return shift


# closure: x * 3.0
scale_by_3 = make_scaler(3.0)
# closure: x * -0.0 (sign of zero)
scale_by_neg_zero = make_scaler(-0.0)
# closure: a + 10
add_ten = make_adder(10)
# closure: 1 - 2x + x**2 / 2
quadratic = make_poly(1.0, -2.0, 0.5)
# closure: x ** 3
cube = make_power(3)
# closure: arr + np.float64(0.5)
shift_arrays = make_array_shift(np.float64(0.5))


# ---------------------------------------------------------------------------
# numpy
# ---------------------------------------------------------------------------


# np.sin (RuntimeWarning on inf)
def np_sin(arr):
    return np.sin(arr)


# np.exp (overflow warning)
def np_exp(arr):
    return np.exp(arr)


# np.sum and np.prod (numpy scalar results, overflow)
def np_sum(arr):
    return np.sum(arr), np.prod(arr)


# np.mean of an empty array warns and gives nan
def np_mean(arr):
    return np.mean(arr)


# np.dot (ValueError on mismatched shapes)
def np_dot(u, v):
    return np.dot(u, v)


# np.where with nan
def np_where(arr):
    return np.where(arr > 0, arr, 0.0), np.where(arr > 1.0, 1, -1)


# np.maximum / np.fmax / np.minimum (nan propagation, broadcasting)
def np_maximum(u, v):
    return np.maximum(u, v), np.fmax(u, v), np.minimum(u, v)


# broadcasting with a scalar and a column
def broadcasting(u, x):
    return u * x + 1.0, u + np.ones((2, 1))


# int64 arrays: wrapping arithmetic, floor division and modulo by negatives
def np_int_ops(ints):
    return ints * 2, ints.sum(), ints // 3, ints % -4, -ints, ints.max(initial=-1)


# int64 division by zero warns and gives 0
def np_int_divide_zero(ints):
    return ints // 0, ints % 0


# numpy scalars: float64 and float32 arithmetic and casts
def np_scalar_ops(x):
    v = np.float64(x)
    return v * 2, v / 3, np.float32(x), v ** 2


# cumsum, sort, abs, isnan
def np_elementwise(arr):
    return np.cumsum(arr), np.sort(arr, axis=None), np.abs(arr), np.isnan(arr)


# np.array from a list; dtype; arange
def np_array_build(xs):
    a = np.array(xs, dtype=float)
    return a, a.dtype.name, np.zeros_like(a), np.arange(len(xs))


# ---------------------------------------------------------------------------
# mutation of arguments, aliasing and views
# ---------------------------------------------------------------------------


# arr += 1 mutates the argument and returns it
def inplace_add(arr):
    arr += 1
    return arr


# arr[0] = 5 mutates the argument (IndexError on 0-d and empty arrays)
def inplace_setitem(arr):
    arr[0] = 5
    return arr


# arr *= 2 mutates the argument and returns it
def inplace_mul(arr):
    arr *= 2
    return arr


# mutation without returning the argument
def inplace_no_return(arr):
    arr -= 1.0
    arr[...] = np.abs(arr)


# a slice is a view of the argument (IndexError on 0-d arrays)
def view_slice(arr):
    return arr[1:]


# the transpose is a view of the argument
def view_transpose(arr):
    return arr.T


# returning the argument unchanged
def return_argument(arr):
    return arr


# returning a fresh copy (must not alias the argument)
def return_copy(arr):
    return arr.copy()


# mutation through a reshaped view
def mutate_through_view(arr):
    flat = arr.reshape(-1)
    flat[:1] = -0.0
    return arr


# u += v where u and v may be the same array
def alias_two_args(u, v):
    u += v
    return v


# list argument mutated and returned
def list_mutation(xs):
    xs.append(len(xs))
    xs.insert(0, -1.0)
    xs[1:2] = []
    return xs


# returning a list argument unchanged
def return_argument_list(xs):
    return xs


# argument inside a returned tuple
def return_in_tuple(arr, x):
    return (arr, x * 2)


# dict building, setdefault, update, pop
def dict_ops(s, k):
    d = {}
    d[s] = k
    d.setdefault("z", 0)
    d.update(a=1)
    items = list(d.items())
    d.pop(s)
    return d, items


# ---------------------------------------------------------------------------
# builtins
# ---------------------------------------------------------------------------


# abs / min / max on floats and ints (nan order dependence)
def builtin_numeric(x, k):
    return abs(x), abs(k), min(x, k), max(x, k), min(k, x)


# round with and without ndigits (ValueError/OverflowError for nan/inf)
def builtin_round(x):
    return round(x, 2), round(x, -1), round(x)


# int() of a float (ValueError for nan, OverflowError for inf)
def builtin_int_of_float(x):
    return int(x), float(int(x) // 2)


# conversions from int and str (unicode digits)
def int_conversions(k, s):
    return float(k), str(k), bool(k), complex(k), int(s) if s.isdigit() else None


# len / sum / sorted / min / max / reversed / enumerate on a list
def builtin_sequences(xs):
    return (len(xs), sum(xs), sorted(xs), min(xs, default=None), max(xs, default=0.0), list(reversed(xs)),
            list(enumerate(xs))[:2])


# divmod on floats (ZeroDivisionError)
def builtin_divmod(x, y):
    return divmod(x, y)


# pow with and without a modulus (ValueError for modulus 0)
def builtin_pow(k, n, m):
    return pow(k, n), pow(k, n, m)


# any / all / isinstance / zip / dict
def builtin_misc(s, xs):
    return any(xs), all(xs), isinstance(s, str), type(xs).__name__, list(zip(s, xs)), dict(zip(s, xs))


# ---------------------------------------------------------------------------
# math module
# ---------------------------------------------------------------------------


# math.exp (OverflowError) and math.log (ValueError)
def math_exp_log(x):
    return math.exp(x), math.log(x)


# hypot, copysign, fabs, isclose, isfinite, fmod (ValueError)
def math_misc(x, y):
    return math.hypot(x, y), math.copysign(1.0, x), math.fabs(x), math.isclose(x, y), math.isfinite(x), math.fmod(x, y)


# math.fsum and math.prod (ValueError for inf - inf, OverflowError)
def math_fsum(xs):
    return math.fsum(xs), math.prod(xs)


# trigonometry (ValueError for sin(inf))
def math_trig(x):
    return math.atan2(x, 1.0), math.degrees(x), math.sin(x)


# ---------------------------------------------------------------------------
# evaluation order
# ---------------------------------------------------------------------------


# operands, dict displays and comprehensions evaluate left to right
def evaluation_order(k):
    total = _noisy("a", 1) + _noisy("b", k) * _noisy("c", 3)
    d = {_noisy("key", "x"): _noisy("value", 1)}
    items = [_noisy(str(i), i) for i in range(2)]
    return total, d, items


# call arguments evaluate left to right, keywords included
def call_argument_order(x):
    return _three(_noisy("first", x), _noisy("second", 2.0), w=_noisy("third", 0.5))


# ---------------------------------------------------------------------------
# work for the optimization passes: helpers to inline, constants to propagate
# and fold, temporaries to forward, dead code, and the cases where they must not
# ---------------------------------------------------------------------------

_SCALE = 3.0
_DEBUG = False
_LIMITS = (0.0, 1.0)
_MUTABLE_WEIGHTS = [1.0, 2.0]


def _sign(x):
    if x > 0:
        return 1
    elif x < 0:
        return -1
    return 0


def _clamp01(x, low=0.0, high=1.0):
    if x < low:
        return low
    if x > high:
        return high
    return x


def _poly(x, a, b=2.0, *, c=1.0):
    return (a * x + b) * x + c


def _mul(a, b):
    return a * b


def _add(a, b):
    return a + b


def _checked_div(x, y):
    if y == 0:
        raise CorpusError("division by zero")
    return x / y


def _pow_loop(x, n):
    result = 1.0
    for _ in range(n):
        result = result * x
    return result


def _log_and_return(tag, x):
    print("helper", tag)
    return x


def _append_twice(target, v):
    target.append(v)
    target.append(v)


# inlining a helper with several returns
def inline_multi_return(x, y):
    return _sign(x) * 10 + _sign(y)


# inlining with default, keyword and keyword-only arguments
def inline_defaults_keywords(x):
    return _poly(x, 2.0), _poly(x, 1.0, c=0.5), _poly(x, a=3.0, b=-1.0)


# inlining a helper whose returns sit in successive ifs
def inline_clamp(x):
    return _clamp01(x), _clamp01(x, high=0.5)


# an inlined helper that raises a custom exception
def inline_raises(x, y):
    return _checked_div(x, y) + 1


# an inlined helper containing a loop
def inline_with_loop(x, n):
    return _pow_loop(x, n) + _pow_loop(x, 3)


# helpers calling helpers, nested in the arguments
def inline_nested_helpers(x, y):
    return _add(_mul(x, y), _mul(y, x))


# an inlined call in an if test
def inline_in_condition(x):
    if _sign(x) > 0:
        return "positive"
    return "other"


# a print before an inlined call: output order
def inline_after_print(x):
    print("start")
    return _add(x, 1.0)


# inlined helpers that print: their order must stay
def inline_side_effect_order(x):
    return _log_and_return("a", x) + _log_and_return("b", 2.0)


# a call behind a short circuit (evaluated only sometimes)
def inline_short_circuit(x, y):
    return x > 0 and _sign(y)


# keyword arguments evaluate in source order, not parameter order
def inline_argument_order(x):
    return _poly(_log_and_return("x", x), b=_log_and_return("b", 1.0), a=_log_and_return("a", 2.0))


# an inlined helper that mutates its argument
def inline_mutating_helper(xs):
    _append_twice(xs, 1.0)
    return xs


# an inlined helper without a return statement
def inline_returns_none(xs):
    result = _append_twice(xs, 2.0)
    return result, len(xs)


# constants through local variables
def constant_locals(x):
    n = 3
    m = n * 2
    scale = m + 0.5
    return x * scale


# copies of a parameter that is reassigned later
def copy_chain(x):
    y = x
    z = y
    x = 2.0
    return z + x


# only what both branches agree on survives an if
def branch_join(x, flag):
    if flag:
        k = 2
    else:
        k = 2
    if x > 0:
        j = 1
    else:
        j = 2
    return k * x + j


# a loop forgets what it assigns
def loop_forgets(n):
    i = 0
    total = 0
    while i < n:
        total += i
        i += 1
    return total, i


# a constant updated in a for loop
def for_loop_constant(n):
    acc = 1
    for _ in range(n):
        acc = acc * 2
    return acc


# a global flag and a global scale
def debug_flag(x):
    if _DEBUG:
        print("debug", x)
    return x * _SCALE


# a global tuple unpacked
def global_tuple(x):
    low, high = _LIMITS
    return min(max(x, low), high)


# a mutable global must not be folded
def mutable_global_not_folded(x):
    return x * _MUTABLE_WEIGHTS[1]


# code after a return never runs
def unreachable_after_return(x):
    if x > 0:
        return x
        print("never")
    return -x


# a while False loop runs its else clause
def while_false(x):
    while False:
        x = 0.0
    else:
        x = x + 1
    return x


# a for loop over an empty tuple runs its else clause
def for_empty(x):
    for v in ():
        x = v
    else:
        x = -x
    return x


# augmented assignments on known constants
def augassign_constants(x):
    k = 1
    k += 2
    k *= 3
    return x * k


# a local captured by a lambda must not be propagated
def captured_local(x):
    k = 2
    get = lambda: k
    k = 3
    return get() * x


# a local rebound by a nested function
def nested_def_rebinds(x):
    k = 1

    def bump():
        nonlocal k
        k += 1

    bump()
    return k + x


# a deleted local
def del_local(x):
    k = x * 2
    del k
    try:
        return k
    except NameError:
        return -1.0


# a walrus in a comprehension rebinds a local
def walrus_in_comprehension(xs):
    k = 0.0
    vals = [(k := v) for v in xs]
    return k, vals


# forwarding must keep the order of operations that may raise
def forward_order(x, y):
    a = x / y
    b = x * y
    return b - a


# an unused value that may raise must stay
def dead_but_raising(x, y):
    unused = x / y
    return x


# unused quiet values go
def dead_quiet(x):
    unused = 5
    copy = x
    return x


# locals() sees every local: nothing may be dropped
def introspection(x):
    k = 5
    return sorted(locals()), k


# string constants fold
def string_folding(s):
    sep = ", "
    return sep.join([s, "x" * 3])


# the textbook program: everything folds to 10
def fancy_main():
    return fancy_func(1, 2, 3, 4)


# module constants fold
def math_constants(x):
    return x * math.pi + math.e - math.sqrt(2.0)


# ---------------------------------------------------------------------------
# inlining: `*` arguments, returns inside loops, callees from other modules
# ---------------------------------------------------------------------------


# `*` arguments spread into inlined calls: displays, a constant tuple, a global tuple
def inline_star_arguments(x, y):
    return _poly(*(x, y)), _poly(x, *(1.0, -0.0)), _poly(*_LIMITS, c=y), _add(*[y, x])


# a spread display evaluates its items in order; a spread that does not fit raises TypeError
def inline_star_order(x, n):
    first = _add(*(_log_and_return("a", x), _log_and_return("b", 2.0)))
    if n > 3:
        return _add(*(x, x, x))
    return first


def _index_above(xs, t):
    for i in range(len(xs)):
        if xs[i] > t:
            return i
    return -1


def _search(n, m, limit):
    count = 0
    i = 0
    while i < n:
        i += 1
        for j in range(m):
            if j == limit:
                break
            if i * j > limit:
                return i, j
            count += 1
        else:
            if count > limit:
                return count, -1
    else:
        if n > 10:
            return None
    count += 100
    return count, 0


def _hypot(a, b):
    return math.sqrt(a * a + b * b)


def _countdown(x, n):
    while n > 0:
        n -= 1
        print("turn", n)
        if x > n:
            return n
    else:
        print("done")
    print("after")


# a helper returning from inside a loop, inlined twice on every turn of a loop
def inline_return_in_loop(xs, n):
    total = 0
    for k in range(n):
        total += _index_above(xs, k * 0.5) + _index_above(xs, -k)
    return total


# returns from nested loops and from loops' else clauses; a loop's own break
def inline_return_in_nested_loops(n, m):
    return _search(n, m, 3), _search(m, n, 0), _search(n, 2, m)


# a return inside a while loop with prints; falling off the end after the loop gives None
def inline_return_in_while(x, n):
    return _countdown(x, n), _countdown(-x, 2)


# a helper reading a module (math) and a builtin; tests/golden/inline_calls/other_module.py
# imports it from here: a function of another module
def inline_library_calls(x, y, xs):
    return _hypot(x, y), _index_above(xs, _hypot(y, 1.0))


# ---------------------------------------------------------------------------
# registry
# ---------------------------------------------------------------------------


def _collect() -> dict[str, Callable[..., Any]]:
    found: dict[str, Callable[..., Any]] = {}
    for name, value in list(globals().items()):
        if name.startswith("_") or name.startswith("make_") or name == "arguments":
            continue
        if isinstance(value, types.FunctionType) and value.__module__ == __name__:
            found[name] = value
    return found


#: Corpus entries by name (closures under the name they are bound to).
CORPUS_BY_NAME: dict[str, Callable[..., Any]] = _collect()
#: Corpus entries in source order.
CORPUS: list[Callable[..., Any]] = list(CORPUS_BY_NAME.values())
#: Corpus names, parallel to CORPUS (use as pytest ids).
CORPUS_NAMES: list[str] = list(CORPUS_BY_NAME)

#: Entries that raise on every input by design.
ALWAYS_RAISES: frozenset[str] = frozenset({"overflow_constant", "type_error"})


def _matmul_operands() -> st.SearchStrategy[Call]:
    return st.one_of(
        positional(float_arrays((3,)), float_arrays((3,))),
        positional(float_arrays((2, 3)), float_arrays((3,))),
        positional(float_arrays((2, 2)), float_arrays((2, 2))),
        positional(float_arrays(), float_arrays()),
    )


def _same_array_twice() -> st.SearchStrategy[Call]:
    return st.one_of(
        float_arrays().map(lambda arr: ((arr, arr), {})),
        positional(float_arrays(), float_arrays()),
    )


#: Whole-call strategies ((args, kwargs)) for entries that need them.
ARGUMENT_OVERRIDES: dict[str, st.SearchStrategy[Call]] = {
    "matmul": _matmul_operands(),
    "np_dot": _matmul_operands(),
    "augmented_matmul": st.one_of(
        positional(float_arrays((2, 2)), float_arrays((2, 2))),
        positional(float_arrays((3,)), float_arrays((3, 3))),
        positional(float_arrays(), float_arrays()),
    ),
    "alias_two_args": _same_array_twice(),
}

#: Per-parameter strategies for entries whose names need other inputs.
PARAM_OVERRIDES: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "fib": {"n": st.integers(0, 15)},
    "mutable_default": {"acc": float_lists()},
    "kwonly": {"scale": floats()},
    "int_conversions": {"s": st.one_of(short_strings(), st.sampled_from(["12", "007", "\u00b2", "-3", "\u0661\u0662"]))},
    "key_error": {"s": st.one_of(st.just("a"), short_strings())},
    "dict_membership": {"s": st.one_of(st.sampled_from(["a", "b c", "ab"]), short_strings())},
    "match_mapping": {"s": st.one_of(st.sampled_from(["a", ""]), short_strings())},
    "grade": {"k": st.one_of(st.integers(-10, 110), st.integers())},
}

_unknown = (set(ARGUMENT_OVERRIDES) | set(PARAM_OVERRIDES) | ALWAYS_RAISES) - set(CORPUS_BY_NAME)
assert not _unknown, f"overrides for unknown corpus entries: {sorted(_unknown)}"


def arguments(name: str) -> st.SearchStrategy[Call]:
    """The strategy of (args, kwargs) calls for the corpus entry ``name``."""
    return arguments_for(
        CORPUS_BY_NAME[name], arguments=ARGUMENT_OVERRIDES.get(name), params=PARAM_OVERRIDES.get(name)
    )


def corners(name: str) -> list[Call]:
    """Fixed corner-case calls for the corpus entry ``name`` (empty when its
    inputs are overridden as a whole or a required parameter is overridden)."""
    if name in ARGUMENT_OVERRIDES:
        return []
    return corner_calls(CORPUS_BY_NAME[name], overridden=PARAM_OVERRIDES.get(name, {}))


def name_of(func: Callable[..., Any]) -> str:
    """The corpus name of an entry (differs from ``__name__`` for closures)."""
    for name, entry in CORPUS_BY_NAME.items():
        if entry is func:
            return name
    raise KeyError(func)
