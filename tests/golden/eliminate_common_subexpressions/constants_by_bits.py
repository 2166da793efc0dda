# MUST NOT CHANGE: constants are compared by type and bits, so `x + 0.0` and `x + -0.0` differ
# (for x = -0.0 they give 0.0 and -0.0), and so do `x * 1`, `x * 1.0` and `x * True` (an int
# x gives 3, 3.0 and 3).
def f(x: float):
    a = (x + 0.0) * (x + -0.0)
    b = (x * 1) + (x * 1.0) + (x * True)
    return a, b
# --- after eliminate_common_subexpressions ---
def f(x: float):
    a = (x + 0.0) * (x + -0.0)
    b = (x * 1) + (x * 1.0) + (x * True)
    return a, b
