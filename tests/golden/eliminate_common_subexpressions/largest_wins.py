# The largest repeat is shared: `(a + b) * c` whole, not `a + b` on its own; `a * a + 1`
# whole, and then `a * a` occurs only once.
def f(a: int, b: int, c: int):
    u = (a * a + 1) * (a * a + 1)
    return (a + b) * c - (a + b) * c / 2 + u
# --- after eliminate_common_subexpressions ---
def f(a: int, b: int, c: int):
    t = a * a + 1
    u = t * t
    t_2 = (a + b) * c
    return t_2 - t_2 / 2 + u
