# MUST NOT CHANGE: for an int n, `n * 1.0` and `n / 1.0` are floats; for a bool b, `b + 0`,
# `b * 1` and `-(-b)` are ints; for a complex z, `z * 1.0` multiplies as complex numbers
# (inf * 0 makes NaN); an operand that may raise is never dropped (`n // m * 0` raises
# ZeroDivisionError for m = 0); `n ** 2` of an expression is not duplicated.
def f(n: int, m: int, b: bool, z: complex):
    return n * 1.0, n / 1.0, b + 0, b * 1, -(-b), z * 1.0, n // m * 0, (n + m) ** 2
# --- after simplify_algebra ---
def f(n: int, m: int, b: bool, z: complex):
    return n * 1.0, n / 1.0, b + 0, b * 1, -(-b), z * 1.0, n // m * 0, (n + m) ** 2
