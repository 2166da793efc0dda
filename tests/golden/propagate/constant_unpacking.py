# Unpacking a constant tuple into names binds them one by one, left to right, so each value
# is known. A length that does not match (ValueError at run time), a starred target, and a
# swap (the right side is read before anything is bound) stay.
def f(x, y):
    low, high = (0.0, 1.0)
    a, a = (1, 2)
    p, q = (1, 2, 3)
    first, *rest = (1, 2)
    x, y = y, x
    return min(max(x, low), high) + a, p, q, first, rest
# --- after propagate ---
def f(x, y):
    low = 0.0
    high = 1.0
    a = 1
    a = 2
    p, q = (1, 2, 3)
    first, *rest = (1, 2)
    x, y = y, x
    return min(max(x, 0.0), 1.0) + 2, p, q, first, rest
