# For an int n (not a bool: `True + 0` is 1), the usual identities are exact on Python's
# unbounded ints: `n + 0`, `n - 0`, `n * 1`, `n // 1` and `n ** 1` are n, `n ** 2` is `n * n`,
# `n * 0` and `n - n` are 0; `-(-n)` is n for ints, floats and complex numbers.
def f(n: int, m: int, x: float):
    return n + 0, 0 + m * 1, n // 1 - 0, m ** 1, n ** 2, n * 0, m - m, -(-n), -(-x)
# --- after simplify_algebra ---
def f(n: int, m: int, x: float):
    return n, m, n, m, n * n, 0, 0, n, x
