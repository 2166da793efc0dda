# MUST NOT CHANGE: a result that is not used up at once by another operator is not shared.
# For arrays `return x * 2, x * 2` gives two distinct arrays, and so do two names bound to
# `x * 2`; in `triple` only the first `x * 3` is an operand, so there is nothing to share with
# it; `y * y is y * y` asks about the objects themselves; an argument of a call, an item of a
# list and a subscript may be kept by whoever receives them.
def f(x, y, xs):
    pair = x * 2, x * 2
    p = x * 2
    q = x * 2
    triple = (x * 3) + 1, x * 3, x * 3
    same = y * y is y * y
    total = sum([y + 1, 1]) + sum([y + 1, 1])
    item = xs[y - 1] + xs[y - 1]
    return pair, p, q, triple, same, total, item
# --- after eliminate_common_subexpressions ---
def f(x, y, xs):
    pair = x * 2, x * 2
    p = x * 2
    q = x * 2
    triple = (x * 3) + 1, x * 3, x * 3
    same = y * y is y * y
    total = sum([y + 1, 1]) + sum([y + 1, 1])
    item = xs[y - 1] + xs[y - 1]
    return pair, p, q, triple, same, total, item
