# With fastmath=True the unsafe rules apply too, to floats: `x + 0.0 → x` (wrong for -0.0),
# `x * 0.0 → 0.0` (NaN, inf, -0.0), `x - x → 0.0` (inf, NaN), `not (x < y) → x >= y` (NaN).
# They change float values, never exceptions: `x / x` stays (0.0 / 0.0 raises
# ZeroDivisionError). Unknown types are still left alone.
def f(x: float, y: float, w):
    return x + 0.0, x * 0.0, y - y, x / x, not (x < y), w + 0.0
# --- after simplify_algebra with fastmath ---
def f(x: float, y: float, w):
    return x, 0.0, 0.0, x / x, x >= y, w + 0.0
