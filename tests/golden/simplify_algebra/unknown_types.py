# MUST NOT CHANGE: nothing is known of x (it may be an int, a bool, an array...): `1.0 * x` of
# an int is a float, `x * 1` of an array is a new array (the caller's own must not come back),
# `x + 0` of True is 1. A call's result, or a subscript, is unknown too.
def f(x, xs):
    y = abs(x)
    return 1.0 * x, x * 1, x + 0, x ** 2, y * 1.0, xs[0] - 0.0, not (x < y)
# --- after simplify_algebra ---
def f(x, xs):
    y = abs(x)
    return 1.0 * x, x * 1, x + 0, x ** 2, y * 1.0, xs[0] - 0.0, not (x < y)
