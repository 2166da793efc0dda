# MUST NOT CHANGE: folding only evaluates constants; it knows no algebra. x + 0.0 is not x
# (x = -0.0), x * 0 is not 0 (x = nan), x - x is not 0 (x = inf), not (x < y) is not x >= y.
def f(x, y):
    return x + 0.0, x * 0, x - x, not (x < y), x * 1, x / x, x ** 2
# --- after fold_constants ---
def f(x, y):
    return x + 0.0, x * 0, x - x, not x < y, x * 1, x / x, x ** 2
