# MUST NOT CHANGE: the calls stay when the function is not a one-parameter lambda whose body
# binds nothing (a named function, a default, two iterables, an assignment expression, a
# comprehension), when the iterable is not a name (the kept call would compute it again), when
# the result is not made a list (a `map` object is lazy: its calls happen when it is
# consumed). (Nor when the function assigns `list`, `map` or `filter`:
# tests/test_loop_rewrites.py.)
def f(xs, ys, g):
    a = list(map(g, xs))
    b = list(map(lambda x, k=2: x * k, xs))
    c = list(map(lambda x, y: x * y, xs, ys))
    d = list(filter(lambda x: (t := x), xs))
    e = list(map(lambda x: [x for _ in ys], xs))
    h = list(map(lambda x: x + 1, xs + ys))
    i = tuple(map(lambda x: x + 1, xs))
    j = map(lambda x: x + 1, xs)
    return a, b, c, d, e, h, i, j
# --- after inline_map_filter ---
def f(xs, ys, g):
    a = list(map(g, xs))
    b = list(map(lambda x, k=2: x * k, xs))
    c = list(map(lambda x, y: x * y, xs, ys))
    d = list(filter(lambda x: (t := x), xs))
    e = list(map(lambda x: [x for _ in ys], xs))
    h = list(map(lambda x: x + 1, xs + ys))
    i = tuple(map(lambda x: x + 1, xs))
    j = map(lambda x: x + 1, xs)
    return a, b, c, d, e, h, i, j
