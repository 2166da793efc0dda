# MUST NOT CHANGE: between the two occurrences a name the expression reads is assigned (the
# statement holding the first occurrence, a later one, or a `for` loop), so the second
# occurrence computes something else.
def f(x: float, y: float, n: int):
    x = x * y + 1
    z = x * y - 1
    y = y + 1
    w = x * y + z
    for x in range(n):
        pass
    return x * y + w
# --- after eliminate_common_subexpressions ---
def f(x: float, y: float, n: int):
    x = x * y + 1
    z = x * y - 1
    y = y + 1
    w = x * y + z
    for x in range(n):
        pass
    return x * y + w
