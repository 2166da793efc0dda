# Comparison chains and boolean operators with constant operands: `True and x` is x,
# `0 or x` is x, `0 and x` is 0 (x is never evaluated); `not (1 < 2)` is False.
def f(x):
    return 1 < 2 < 3, 3 < 2 < x, True and x, 0 or x, 0 and x, None or 0, not (1 < 2), x if 1 else -x
# --- after fold_constants ---
def f(x):
    return True, False, x, x, 0, 0, False, x
