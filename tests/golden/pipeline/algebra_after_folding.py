# `-0.0` and `2 - 1.0` become constants in fold_constants, and then simplify_algebra can use
# them: for a float x, `x + -0.0` and `x * 1.0` are x.
def f(x: float):
    return (x + -0.0) * (2 - 1.0)
# --- after pipeline ---
def f(x: float):
    return x
