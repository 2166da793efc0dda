# MUST NOT CHANGE: reduce stays a call when the function is not a two-parameter lambda whose
# body binds nothing (a default, three parameters, an assignment expression, a nested
# comprehension), when the iterable or the start value is not a name or a constant (reading
# it again in the kept statement would compute it twice), when the call is not the whole of a
# `return` (other work in the statement would move). (A callee read from a name the function
# assigns stays too: tests/test_loop_rewrites.py.)
import functools


def f(xs, ys, k):
    a = functools.reduce(lambda acc, x, scale=2.0: acc + x * scale, xs, 0.0)
    b = functools.reduce(lambda acc, x: (t := acc + x), xs, 0.0)
    c = functools.reduce(lambda acc, x: acc + sum([x for _ in ys]), xs, 0.0)
    if k:
        return functools.reduce(lambda acc, x: acc + x, xs + ys, 0.0)
    if k > 1:
        return 1.0 + functools.reduce(lambda acc, x: acc + x, xs, 0.0)
    if k > 2:
        return functools.reduce(lambda acc, x: acc + x, xs, k + 1)
    return a + b + c
# --- after inline_reduce ---
def f(xs, ys, k):
    a = functools.reduce(lambda acc, x, scale=2.0: acc + x * scale, xs, 0.0)
    b = functools.reduce(lambda acc, x: (t := acc + x), xs, 0.0)
    c = functools.reduce(lambda acc, x: acc + sum([x for _ in ys]), xs, 0.0)
    if k:
        return functools.reduce(lambda acc, x: acc + x, xs + ys, 0.0)
    if k > 1:
        return 1.0 + functools.reduce(lambda acc, x: acc + x, xs, 0.0)
    if k > 2:
        return functools.reduce(lambda acc, x: acc + x, xs, k + 1)
    return a + b + c
