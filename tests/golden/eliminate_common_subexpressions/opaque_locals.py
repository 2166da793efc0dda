# MUST NOT CHANGE: x is a local that opaque code (the nested function) may rebind, so the
# compiler does not follow its value, and an expression reading it is never shared.
def f(x: float, y: float):
    def bump():
        nonlocal x
        x = x + 1
    a = (x * y) + 1
    b = (x * y) + 2
    return a, b, bump
# --- after eliminate_common_subexpressions ---
def f(x: float, y: float):
    def bump():
        nonlocal x
        x = x + 1
    a = (x * y) + 1
    b = (x * y) + 2
    return a, b, bump
