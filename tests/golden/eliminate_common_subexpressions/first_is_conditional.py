# MUST NOT CHANGE: the first occurrence is not evaluated on every run of its statement (behind
# `and`, `or`, a branch of `if`-`else`, the tail of a comparison chain), or something that may
# raise comes before it (`x / y`): computing it before the statement could raise where the
# original did not, or raise a different error first.
def f(x: float, y: float, flag):
    a = flag and (x * y) + (x * y)
    b = flag or (x - y) * 2
    c = (x - y) * 3
    d = (x + y) * 2 if flag else 0
    e = (x + y) * 3
    g = 0 < x < (y * y) + 1
    h = (y * y) + 2
    i = x / y + (y - x) * 2 + (y - x) * 3
    return a, b, c, d, e, g, h, i
# --- after eliminate_common_subexpressions ---
def f(x: float, y: float, flag):
    a = flag and (x * y) + (x * y)
    b = flag or (x - y) * 2
    c = (x - y) * 3
    d = (x + y) * 2 if flag else 0
    e = (x + y) * 3
    g = 0 < x < (y * y) + 1
    h = (y * y) + 2
    i = x / y + (y - x) * 2 + (y - x) * 3
    return a, b, c, d, e, g, h, i
