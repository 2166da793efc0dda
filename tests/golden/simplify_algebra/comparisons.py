# `not (a == b)` is `a != b` for numbers (NaN included: NaN != NaN); `not (a < b)` is `a >= b`
# only for ints and bools. The types flow through assignments: k is an int, y a float.
def f(n: int, m: int, x: float):
    k = n * 2 + m
    y = x / 2
    return not (k < m), not (y == x), not (k >= n)
# --- after simplify_algebra ---
def f(n: int, m: int, x: float):
    k = n * 2 + m
    y = x / 2.0
    return k >= m, y != x, k < n
