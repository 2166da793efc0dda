# MUST NOT CHANGE: for floats these are wrong: `x + 0.0` (-0.0 + 0.0 is 0.0), `x * 0.0`
# (NaN, inf, -0.0), `x - x` (inf - inf is NaN), `x / x` (0.0 / 0.0 raises), `x ** 2.0 → x * x`
# (1e200 ** 2.0 raises OverflowError, 1e200 * 1e200 is inf), `not (x < y)` (NaN).
def f(x: float, y: float):
    return x + 0.0, x * 0.0, 0.0 * x, x - x, x / x, x ** 2.0, not (x < y)
# --- after simplify_algebra ---
def f(x: float, y: float):
    return x + 0.0, x * 0.0, 0.0 * x, x - x, x / x, x ** 2.0, not (x < y)
