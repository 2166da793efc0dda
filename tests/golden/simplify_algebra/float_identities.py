# For a float x, `1.0 * x`, `x * 1.0`, `x / 1.0`, `x - 0.0` and `x + -0.0` are x itself, bit for
# bit (signed zeros, infinities and NaN included), and an int constant next to a float is
# converted once, at compile time, exactly as Python converts it at run time. (The annotation
# stands for the argument type the version is compiled for.)
def f(x: float, y: float):
    a = 1.0 * x + y * 1.0
    b = (x - 0.0) / 1.0
    return a * 3 - 2 ** y, b, x + True
# --- after simplify_algebra ---
def f(x: float, y: float):
    a = x + y
    b = x
    return a * 3.0 - 2.0 ** y, b, x + 1.0
